#!/usr/bin/env bash
# Makes the Pulumi CLI, its language hosts (Node.js, YAML, Python, Go, Java) and the dynamic-provider
# plugin scripts available, and prints the absolute path of the directory holding them as the
# LAST line of stdout (progress goes to stderr).
#
#   1. A `pulumi` already on PATH is used when it is at least $PULUMI_MIN_VERSION and has all of
#      the executables listed in complete_dir() beside it.
#   2. Otherwise the pinned version is built from the Go module proxy into a cache outside the
#      work tree, once per machine:
#        ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/pulumi-<version>/bin
#      scripts/pulumi-tools is a tools module that pins, and one `go install` builds:
#        - pulumi                  github.com/pulumi/pulumi/pkg/v3 at the release tag;
#        - pulumi-language-nodejs  .../sdk/nodejs/cmd/pulumi-language-nodejs/v3,
#          pulumi-language-python  .../sdk/python/cmd/pulumi-language-python/v3 and
#          pulumi-language-go      .../sdk/go/pulumi-language-go/v3, all at the pseudo-version
#                                  of the same commit (they have no v3.x tags);
#        - pulumi-language-yaml    github.com/pulumi/pulumi-yaml at a release whose go.mod
#                                  requires pkg/v3 and sdk/v3 no newer than the pin, so minimal
#                                  version selection keeps them at the pin (check with
#                                  `go list -m github.com/pulumi/pulumi/pkg/v3` in pulumi-tools).
#        - svc-gen-dotnet          this repository's cmd/svc-gen-dotnet in the tools module: the
#                                  .NET code generator of pkg/v3 (the .NET language host's module
#                                  is not on the proxy here), for `npm run sdks`.
#      Then, outside the tools module:
#        - pulumi-language-java    github.com/pulumi/pulumi-java/pkg at $PULUMI_JAVA_VERSION,
#                                  the release pulumi v3.163.0 bundles (pulumi bumped it to
#                                  v1.10.0 after v3.163.0, pulumi/pulumi#19300). Its go.mod has
#                                  replace directives: `go install <module>@<version>` refuses
#                                  such a module (and here fails earlier still, the proxy serving
#                                  no version list for it), a requiring module would ignore them.
#                                  So it is built inside the downloaded module (read-only in
#                                  GOMODCACHE; -o writes outside), against its own go.sum.
#      Plain scripts are copied beside them:
#        - pulumi-language-python-exec and pulumi-resource-pulumi-python from the sdk/v3 module
#          (sdk/python/cmd and sdk/python/dist): the Python host runs the program through the
#          -exec script found next to its own executable, and fails without it;
#        - pulumi-resource-pulumi-nodejs (the dynamic-provider host) and pulumi-analyzer-policy
#          (what `--policy-pack` starts for a Node.js policy pack, such as policy/) from
#          node_modules/@pulumi/pulumi, which ships both.
#      A cached directory missing a built executable (e.g. one built before a host was added) is
#      rebuilt; one missing only these Node.js scripts gets them copied in. Python programs also need the `pulumi` SDK in a virtualenv: see
#      scripts/ensure-python.sh.
#
# Set PULUMI_SVC_FORCE_BUILD=1 to ignore a pulumi on PATH.
set -euo pipefail

PULUMI_VERSION="3.163.0"
PULUMI_MIN_VERSION="3.163.0"
# The Go release the pinned modules were written for (the Node.js host's go.mod says go 1.24.1);
# the go command fetches it from the module proxy (golang.org/toolchain) once, into GOMODCACHE.
# Not the machine's newer Go: Go 1.26's filepath.Rel cleans its result (".." where it returned
# "../."), and pkg/v3's Node.js and Python code generators build relative imports on it: built
# with Go 1.26, gen-sdk writes `import "./utilities"` in sdk/nodejs/config/vars.ts (and
# `from . import _utilities` in Python's), which does not resolve. A cached build stamps the
# release it was built with (.go-toolchain) and is rebuilt when that is not this one.
PULUMI_GO_TOOLCHAIN="go1.24.1"
PULUMI_JAVA_VERSION="v1.9.0" # keep equal to the com.pulumi:pulumi version in scripts/schema.ts
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
bin_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"
node_sdk="$repo/node_modules/@pulumi/pulumi"
# Plain scripts the Node.js SDK ships, copied beside the built executables.
node_scripts=(pulumi-resource-pulumi-nodejs pulumi-analyzer-policy)

say() { echo "ensure-pulumi: $*" >&2; }

version_at_least() { # $1 >= $2 (dotted numeric versions)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

complete_dir() { # a directory holding every executable this project runs
  local f
  for f in pulumi pulumi-language-nodejs pulumi-language-yaml pulumi-language-python \
    pulumi-language-python-exec pulumi-language-go pulumi-language-java svc-gen-dotnet "${node_scripts[@]}"; do
    [ -x "$1/$f" ] || return 1
  done
}

# 1. A pulumi already on PATH.
if [ -z "${PULUMI_SVC_FORCE_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  on_path="$(cd "$(dirname "$(command -v pulumi)")" && pwd)"
  found="$(PULUMI_SKIP_UPDATE_CHECK=true pulumi version 2>/dev/null | sed 's/^v//' || true)"
  if [ -n "$found" ] && version_at_least "$found" "$PULUMI_MIN_VERSION" && complete_dir "$on_path"; then
    say "using pulumi $found from $on_path"
    echo "$on_path"
    exit 0
  fi
  say "pulumi on PATH (${found:-unknown version} in $on_path) is older than $PULUMI_MIN_VERSION or lacks a language host or plugin script; using the pinned build"
fi

copy_node_scripts() { # into $1, from the installed @pulumi/pulumi
  local f
  for f in "${node_scripts[@]}"; do
    [ -f "$node_sdk/$f" ] || { say "missing $node_sdk/$f: run 'npm ci' first (it ships in @pulumi/pulumi)"; return 1; }
    cp "$node_sdk/$f" "$1/$f.tmp" && chmod 755 "$1/$f.tmp" && mv "$1/$f.tmp" "$1/$f"
  done
}

built_with_pinned_go() { [ "$(cat "$1/.go-toolchain" 2>/dev/null)" = "$PULUMI_GO_TOOLCHAIN" ]; }

# 2. The cached pinned build (a build that predates one of the Node.js scripts gets it copied in).
if [ -x "$bin_dir/pulumi" ] && ! complete_dir "$bin_dir"; then
  mkdir -p "$cache_root"
  exec 9>"$cache_root/.build-v$PULUMI_VERSION.lock"
  flock 9
  complete_dir "$bin_dir" || copy_node_scripts "$bin_dir" || exit 1
  exec 9>&-
fi
if complete_dir "$bin_dir" && built_with_pinned_go "$bin_dir"; then
  say "using cached pulumi v$PULUMI_VERSION"
  echo "$bin_dir"
  exit 0
fi

if [ ! -f "$node_sdk/pulumi-analyzer-policy" ]; then
  say "missing $node_sdk: run 'npm ci' first (the dynamic-provider and policy-pack scripts ship in @pulumi/pulumi)"
  exit 1
fi
if ! command -v go >/dev/null 2>&1; then
  say "Go is needed to build pulumi v$PULUMI_VERSION (or put pulumi >= $PULUMI_MIN_VERSION on PATH)"
  exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build-v$PULUMI_VERSION.lock"
say "waiting for the build lock (another build may be running)..."
flock 9
if ! complete_dir "$bin_dir" || ! built_with_pinned_go "$bin_dir"; then
  staging="$(mktemp -d "$cache_root/.staging.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building pulumi v$PULUMI_VERSION and the nodejs, yaml, python, go and java language hosts with $PULUMI_GO_TOOLCHAIN (first time on this machine: several minutes)"
  started=$(date +%s)
  (
    cd "$here/pulumi-tools"
    # go.sum is committed and complete, so no checksum-database lookup is needed; GONOSUMDB
    # keeps a partial module mirror from failing the build on a lookup anyway.
    export GOFLAGS="${GOFLAGS:-} -mod=readonly" GONOSUMDB="${GONOSUMDB:-github.com/pulumi/pulumi,github.com/pulumi/pulumi-yaml,github.com/pulumi/pulumi-java,golang.org/toolchain}" GOTOOLCHAIN="$PULUMI_GO_TOOLCHAIN"
    export GOBIN="$staging"
    # (errexit does not apply inside a `( ... ) || ...` subshell, hence the explicit exits.)
    : >"$staging/build.log"
    yaml_version="$(go list -m -f '{{.Version}}' github.com/pulumi/pulumi-yaml 2>>"$staging/build.log")" || exit 1
    say "downloading modules and compiling (one progress line per 100 steps)..."
    go install -v -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml_version" \
      github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
      github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3 \
      github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3 \
      github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3 \
      ./cmd/svc-gen-dotnet \
      github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml 2>&1 |
      tee -a "$staging/build.log" |
      awk '{ n++; if (n % 100 == 0) { printf "ensure-pulumi: %d modules downloaded or packages compiled...\n", n > "/dev/stderr" } }' ||
      exit 1
    # The Python host's helper scripts are not Go packages: take them from the sdk/v3 module
    # (downloaded by the build above) at the pinned version.
    sdk_dir="$(go list -m -f '{{.Dir}}' github.com/pulumi/pulumi/sdk/v3 2>>"$staging/build.log")" || exit 1
    cp "$sdk_dir/python/cmd/pulumi-language-python-exec" "$sdk_dir/python/dist/pulumi-resource-pulumi-python" \
      "$staging/" 2>>"$staging/build.log" || exit 1
    # The Java host, inside its own downloaded module (see the top of this file).
    say "building pulumi-language-java $PULUMI_JAVA_VERSION..."
    java_dir="$(cd "$staging" && GOFLAGS= go mod download -json "github.com/pulumi/pulumi-java/pkg@$PULUMI_JAVA_VERSION" 2>>"$staging/build.log" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [ -n "$java_dir" ] || { echo "no module directory for pulumi-java/pkg@$PULUMI_JAVA_VERSION" >>"$staging/build.log"; exit 1; }
    (cd "$java_dir" && go build -ldflags "-X github.com/pulumi/pulumi-java/pkg/version.Version=$PULUMI_JAVA_VERSION" \
      -o "$staging/pulumi-language-java" ./cmd/pulumi-language-java) >>"$staging/build.log" 2>&1 || exit 1
  ) || { say "build failed; last lines:"; tail -n 20 "$staging/build.log" >&2; exit 1; }
  rm -f "$staging/build.log"
  copy_node_scripts "$staging" || exit 1
  chmod 755 "$staging"/pulumi-language-python-exec "$staging"/pulumi-resource-pulumi-python
  complete_dir "$staging" || { say "build failed: $(ls "$staging" | tr '\n' ' ')"; exit 1; }
  echo "$PULUMI_GO_TOOLCHAIN" >"$staging/.go-toolchain"
  chmod 755 "$staging" # mktemp -d made it private
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(( $(date +%s) - started ))s into $bin_dir"
fi
echo "$bin_dir"

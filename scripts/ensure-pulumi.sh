#!/usr/bin/env bash
# Makes a Pulumi CLI, its language hosts (Node.js, YAML, Python, Go, Java) and the plain plugin
# scripts its release ships available, and prints the absolute path of the directory holding them
# as the LAST line of stdout (progress goes to stderr).
#
#   bash scripts/ensure-pulumi.sh             the default CLI, the newest the suite runs (3.274.1)
#   bash scripts/ensure-pulumi.sh 3.163.0     another version of the table below (`floor`: 3.163.0)
#   bash scripts/ensure-pulumi.sh 3.274.1 demo   only what `npm run demo` runs (below)
#
# Each version is built from the Go module proxy once per machine, into its own folder of a cache
# outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/pulumi-v<version>/bin
# The `demo` set is `pulumi`, the Node.js host and the dynamic-provider script, no more: the
# demo's TypeScript program, its dynamic resources and its policy pack run on those alone, and the
# rest (pulumi-yaml's own pkg/v3, the Java host, the Python and Go hosts) is most of a build. It
# goes to pulumi-v<version>-demo/bin, unless the whole set is already built.
# A `pulumi` already on PATH is used instead when it is exactly the version asked for and has every
# executable listed in complete_dir() beside it. Set PULUMI_SVC_FORCE_BUILD=1 to ignore it.
#
# What a version is built from (the table in version_facts):
#   - a tools module under scripts/pulumi-tools that pins, and `go install` builds, `pulumi`
#     (github.com/pulumi/pulumi/pkg/v3 at the release tag);
#   - pulumi-language-yaml (github.com/pulumi/pulumi-yaml). The floor's tools module pins v1.17.0,
#     whose go.mod requires pkg/v3 and sdk/v3 v3.160.0, so minimal version selection keeps them at
#     the pin and one build makes both. For a newer CLI: v1.25.0, the newest release the module
#     proxy serves, built as its own module (`go install <module>@<version>`, with the pkg/v3
#     v3.206.0 its go.mod requires) as Pulumi's release builds each plugin: it does not compile
#     against pkg/v3 v3.274.1 (plugin.NewContextWithRoot and schema.NewPluginLoader changed);
#   - pulumi-language-nodejs, -python and -go: .../sdk/nodejs/cmd/pulumi-language-nodejs/v3,
#     .../sdk/python/cmd/pulumi-language-python/v3 and .../sdk/go/pulumi-language-go/v3 have no
#     v3.x tags, only pseudo-versions of a commit, and the module proxy here serves one: that of
#     v3.163.0 (49fb14839a5a; the pseudo-versions of the v3.220 to v3.259 release commits and of
#     v3.274.1 answer 403). Language hosts are plugins of their own, speaking a versioned gRPC
#     protocol, so every CLI here gets those three from the floor's module (scripts/pulumi-tools,
#     built with its Go release). What that costs on a newer CLI: its engine starts a Node.js
#     policy pack through the host's RunPlugin, where a 3.163 host starts `run-plugin` without the
#     stack's configuration (policy/deployment.ts says how the pack finds it anyway);
#   - svc-gen-dotnet, this repository's cmd/svc-gen-dotnet in the floor's module: the .NET code
#     generator of pkg/v3 (the .NET language host's module is not on the proxy here), for
#     `npm run sdks`, which generates with the floor's CLI;
#   - pulumi-language-java: github.com/pulumi/pulumi-java/pkg at $PULUMI_JAVA_VERSION, the release
#     pulumi v3.163.0 bundles (pulumi bumped it to v1.10.0 after v3.163.0, pulumi/pulumi#19300),
#     for every CLI: sdk/java compiles against the same com.pulumi:pulumi release. Its go.mod has
#     replace directives: `go install <module>@<version>` refuses such a module (and here fails
#     earlier still, the proxy serving no version list for it), a requiring module would ignore
#     them. So it is built inside the downloaded module (read-only in GOMODCACHE; -o writes
#     outside), against its own go.sum;
#   - plain scripts, as the CLI's own release archive ships them: pulumi-language-python-exec and
#     pulumi-resource-pulumi-python from the Python host's sdk/v3 module (sdk/python/cmd and
#     sdk/python/dist; the Python host runs the program through the -exec script found next to its
#     own executable, and fails without it), and the Node.js ones from the CLI's sdk/v3 module
#     (sdk/nodejs/dist): pulumi-resource-pulumi-nodejs (the dynamic-provider host) for every CLI,
#     and pulumi-analyzer-policy (what `--policy-pack` starts for a Node.js pack) where the
#     release still has it: 3.163 does; later engines start a pack through the language host
#     instead, and @pulumi/pulumi stopped shipping the script. Nothing is taken from node_modules.
#
# Go releases: each tools module is built with the Go release its go.mod was written for, which
# the go command fetches from the module proxy (golang.org/toolchain) once, into GOMODCACHE. The
# floor's is go1.24.1, not the machine's newer Go: Go 1.26's filepath.Rel cleans its result ("..",
# where it returned "../."), and pkg/v3 v3.163's Node.js and Python code generators build relative
# imports on it: built with Go 1.26, gen-sdk writes `import "./utilities"` in
# sdk/nodejs/config/vars.ts (and `from . import _utilities` in Python's), which does not resolve.
# pkg/v3 v3.274.1 requires go 1.26.6, so it is built with go1.26.8 (never used for gen-sdk). A
# cached build stamps the releases it was built with (.go-toolchain) and is rebuilt when they
# change. A cached folder missing an executable (one built before a host was added) is rebuilt.
# Python programs also need the `pulumi` SDK in a virtualenv: see scripts/ensure-python.sh.
set -euo pipefail

DEFAULT_VERSION="3.274.1"
FLOOR_VERSION="3.163.0"
FLOOR_GO_TOOLCHAIN="go1.24.1"
PULUMI_JAVA_VERSION="v1.9.0" # keep equal to the com.pulumi:pulumi version in scripts/schema.ts
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
PULUMI_VERSION="${1:-$DEFAULT_VERSION}"
[ "$PULUMI_VERSION" != floor ] || PULUMI_VERSION="$FLOOR_VERSION"
SET="${2:-all}"

# version_facts <version>: sets tools_dir (its tools module), go_toolchain (the Go release that
# builds it), yaml (the pulumi-yaml release built as a module of its own; empty: the tools module
# pins it) and node_scripts (the plain Node.js scripts its sdk/v3 module ships).
version_facts() {
  case "$1" in
    3.274.1)
      tools_dir="$here/pulumi-tools/v3.274.1"
      go_toolchain="go1.26.8"
      yaml="v1.25.0"
      node_scripts=(pulumi-resource-pulumi-nodejs)
      ;;
    3.163.0)
      tools_dir="$here/pulumi-tools"
      go_toolchain="$FLOOR_GO_TOOLCHAIN"
      yaml=""
      node_scripts=(pulumi-resource-pulumi-nodejs pulumi-analyzer-policy)
      ;;
    *)
      echo "ensure-pulumi: no build of pulumi $1 is declared here (3.274.1, 3.163.0)" >&2
      exit 2
      ;;
  esac
}
version_facts "$PULUMI_VERSION"

# The executables of each set; a set's folder is complete when it holds them all.
case "$SET" in
  all)
    executables=(pulumi pulumi-language-nodejs pulumi-language-yaml pulumi-language-python
      pulumi-language-python-exec pulumi-language-go pulumi-language-java svc-gen-dotnet "${node_scripts[@]}")
    folder="pulumi-v$PULUMI_VERSION"
    ;;
  demo)
    executables=(pulumi pulumi-language-nodejs "${node_scripts[@]}")
    folder="pulumi-v$PULUMI_VERSION-demo"
    ;;
  *)
    echo "ensure-pulumi: no set named $SET (all, demo)" >&2
    exit 2
    ;;
esac
wants() { [[ " ${executables[*]} " == *" $1 "* ]]; }

cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
full_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"
bin_dir="$cache_root/$folder/bin"
# The Go releases a complete build of this version was made with: its own, and the floor's (hosts).
stamp="$go_toolchain"
[ "$go_toolchain" = "$FLOOR_GO_TOOLCHAIN" ] || stamp="$go_toolchain $FLOOR_GO_TOOLCHAIN"
# The floor's module builds the Node.js, Python and Go hosts (and svc-gen-dotnet) for every version:
# those of them the set wants.
host_packages=() host_names=()
for package in github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3 \
  github.com/pulumi/pulumi/sdk/python/cmd/pulumi-language-python/v3 \
  github.com/pulumi/pulumi/sdk/go/pulumi-language-go/v3 ./cmd/svc-gen-dotnet; do
  name="${package%/v3}"
  ! wants "${name##*/}" || { host_packages+=("$package") && host_names+=("${name##*/}"); }
done

say() { echo "ensure-pulumi: $*" >&2; }

complete_dir() { # a directory holding every executable of the set
  local f
  for f in "${executables[@]}"; do
    [ -x "$1/$f" ] || return 1
  done
}

# 1. A pulumi already on PATH, of exactly this version.
if [ -z "${PULUMI_SVC_FORCE_BUILD:-}" ] && command -v pulumi >/dev/null 2>&1; then
  on_path="$(cd "$(dirname "$(command -v pulumi)")" && pwd)"
  if [ "$on_path" != "$bin_dir" ]; then
    found="$(PULUMI_SKIP_UPDATE_CHECK=true pulumi version 2>/dev/null | sed 's/^v//' || true)"
    if [ "$found" = "$PULUMI_VERSION" ] && complete_dir "$on_path"; then
      say "using pulumi $found from $on_path"
      echo "$on_path"
      exit 0
    fi
  fi
fi

# 2. The cached build.
built_with() { [ "$(cat "$1/.go-toolchain" 2>/dev/null)" = "$stamp" ]; }
for cached in "$full_dir" "$bin_dir"; do # a smaller set is in the whole one
  if complete_dir "$cached" && built_with "$cached"; then
    say "using cached pulumi v$PULUMI_VERSION"
    echo "$cached"
    exit 0
  fi
done
if ! command -v go >/dev/null 2>&1; then
  say "Go is needed to build pulumi v$PULUMI_VERSION (or put pulumi $PULUMI_VERSION with its language hosts on PATH)"
  exit 1
fi

# 3. Build it.
mkdir -p "$cache_root"
exec 9>"$cache_root/.build-$folder.lock"
# Said only when another build holds the lock: a first build alone has nothing to wait for.
flock -n 9 || { say "waiting for the build lock (another build is running)..." && flock 9; }
if ! complete_dir "$bin_dir" || ! built_with "$bin_dir"; then
  staging="$(mktemp -d "$cache_root/.staging.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building pulumi v$PULUMI_VERSION with $go_toolchain, and ${executables[*]:1} (first time on this machine: minutes)"
  started=$(date +%s)
  : >"$staging/build.log"
  # go.sum is committed and complete, so no checksum-database lookup is needed; GONOSUMDB keeps a
  # partial module mirror from failing the build on a lookup anyway.
  export GOFLAGS="${GOFLAGS:-} -mod=readonly" GONOSUMDB="${GONOSUMDB:-github.com/pulumi/pulumi,github.com/pulumi/pulumi-yaml,github.com/pulumi/pulumi-java,golang.org/toolchain}"
  # go_install <module dir> <Go release> <ldflags> <package>...: into the staging folder, one
  # progress line per 100 steps (errexit does not apply inside `( ... ) || ...`, hence the exits).
  go_install() {
    local dir="$1" toolchain="$2" ldflags="$3"
    shift 3
    (cd "$dir" && GOTOOLCHAIN="$toolchain" GOBIN="$staging" go install -v -ldflags "$ldflags" "$@") 2>&1 |
      tee -a "$staging/build.log" |
      awk '{ n++; if (n % 100 == 0) { printf "ensure-pulumi: %d modules downloaded or packages compiled...\n", n > "/dev/stderr" } }'
    [ "${PIPESTATUS[0]}" = 0 ]
  }
  module_dir() { # <tools module dir> <Go release> <module>: where the build downloaded that module
    (cd "$1" && GOTOOLCHAIN="$2" go list -m -f '{{.Dir}}' "$3" 2>>"$staging/build.log")
  }
  (
    version_flag="-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION"
    yaml_cmd=github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml
    if ! wants pulumi-language-yaml; then
      say "downloading modules and compiling pulumi..."
      go_install "$tools_dir" "$go_toolchain" "$version_flag" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi || exit 1
    elif [ -n "$yaml" ]; then
      say "downloading modules and compiling pulumi..."
      go_install "$tools_dir" "$go_toolchain" "$version_flag" github.com/pulumi/pulumi/pkg/v3/cmd/pulumi || exit 1
      say "compiling pulumi-language-yaml $yaml as its own module..."
      GOFLAGS= go_install "$staging" "$go_toolchain" "-X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml" "$yaml_cmd@$yaml" || exit 1
    else
      yaml="$(cd "$tools_dir" && GOTOOLCHAIN="$go_toolchain" go list -m -f '{{.Version}}' github.com/pulumi/pulumi-yaml 2>>"$staging/build.log")" || exit 1
      say "downloading modules and compiling pulumi and pulumi-language-yaml $yaml..."
      go_install "$tools_dir" "$go_toolchain" "$version_flag -X github.com/pulumi/pulumi-yaml/pkg/version.Version=$yaml" \
        github.com/pulumi/pulumi/pkg/v3/cmd/pulumi "$yaml_cmd" || exit 1
    fi
    say "compiling ${host_names[*]} of v$FLOOR_VERSION..."
    go_install "$here/pulumi-tools" "$FLOOR_GO_TOOLCHAIN" "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$FLOOR_VERSION" \
      "${host_packages[@]}" || exit 1
    # The plain scripts (see the top of this file).
    if wants pulumi-language-python-exec; then
      python_sdk="$(module_dir "$here/pulumi-tools" "$FLOOR_GO_TOOLCHAIN" github.com/pulumi/pulumi/sdk/v3)" || exit 1
      cp "$python_sdk/python/cmd/pulumi-language-python-exec" "$python_sdk/python/dist/pulumi-resource-pulumi-python" "$staging/" 2>>"$staging/build.log" || exit 1
    fi
    cli_sdk="$(module_dir "$tools_dir" "$go_toolchain" github.com/pulumi/pulumi/sdk/v3)" || exit 1
    for f in "${node_scripts[@]}"; do cp "$cli_sdk/nodejs/dist/$f" "$staging/" 2>>"$staging/build.log" || exit 1; done
    wants pulumi-language-java || exit 0 # the set is built
    # The Java host, inside its own downloaded module (see the top of this file).
    say "building pulumi-language-java $PULUMI_JAVA_VERSION..."
    java_dir="$(cd "$staging" && GOFLAGS= GOTOOLCHAIN="$FLOOR_GO_TOOLCHAIN" go mod download -json "github.com/pulumi/pulumi-java/pkg@$PULUMI_JAVA_VERSION" 2>>"$staging/build.log" |
      sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')"
    [ -n "$java_dir" ] || { echo "no module directory for pulumi-java/pkg@$PULUMI_JAVA_VERSION" >>"$staging/build.log"; exit 1; }
    (cd "$java_dir" && GOTOOLCHAIN="$FLOOR_GO_TOOLCHAIN" go build -ldflags "-X github.com/pulumi/pulumi-java/pkg/version.Version=$PULUMI_JAVA_VERSION" \
      -o "$staging/pulumi-language-java" ./cmd/pulumi-language-java) >>"$staging/build.log" 2>&1 || exit 1
  ) || { say "build failed; last lines:"; tail -n 20 "$staging/build.log" >&2; exit 1; }
  rm -f "$staging/build.log"
  for f in pulumi-language-python-exec pulumi-resource-pulumi-python "${node_scripts[@]}"; do
    [ ! -e "$staging/$f" ] || chmod 755 "$staging/$f"
  done
  complete_dir "$staging" || { say "build failed: $(ls "$staging" | tr '\n' ' ')"; exit 1; }
  echo "$stamp" >"$staging/.go-toolchain"
  chmod 755 "$staging" # mktemp -d made it private
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(($(date +%s) - started))s into $bin_dir"
fi
echo "$bin_dir"

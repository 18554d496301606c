#!/usr/bin/env bash
# Makes the Pulumi CLI, the Node.js language host and the dynamic-provider plugin script
# available, and prints the absolute path of the directory holding them as the LAST line of
# stdout (progress goes to stderr).
#
#   1. A `pulumi` already on PATH is used when it is at least $PULUMI_MIN_VERSION and has the
#      language host and the dynamic-provider script beside it.
#   2. Otherwise the pinned version is built from the Go module proxy (scripts/pulumi-tools, a
#      tools module: pkg/v3 at a release, the language host at the pseudo-version of the same
#      commit) into a cache outside the work tree, once per machine:
#        ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/pulumi-<version>/bin
#
# Set PULUMI_SVC_FORCE_BUILD=1 to ignore a pulumi on PATH.
set -euo pipefail

PULUMI_VERSION="3.163.0"
PULUMI_MIN_VERSION="3.163.0"
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
bin_dir="$cache_root/pulumi-v$PULUMI_VERSION/bin"
dyn_script="$repo/node_modules/@pulumi/pulumi/pulumi-resource-pulumi-nodejs"

say() { echo "ensure-pulumi: $*" >&2; }

version_at_least() { # $1 >= $2 (dotted numeric versions)
  [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n1)" = "$2" ]
}

complete_dir() { # a directory holding all three executables
  [ -x "$1/pulumi" ] && [ -x "$1/pulumi-language-nodejs" ] && [ -x "$1/pulumi-resource-pulumi-nodejs" ]
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
  say "pulumi on PATH (${found:-unknown version} in $on_path) is older than $PULUMI_MIN_VERSION or lacks the Node.js plugins; using the pinned build"
fi

# 2. The cached pinned build.
if complete_dir "$bin_dir"; then
  say "using cached pulumi v$PULUMI_VERSION"
  echo "$bin_dir"
  exit 0
fi

if [ ! -f "$dyn_script" ]; then
  say "missing $dyn_script: run 'npm ci' first (the dynamic-provider plugin ships in @pulumi/pulumi)"
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
if ! complete_dir "$bin_dir"; then
  staging="$(mktemp -d "$cache_root/.staging.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building pulumi v$PULUMI_VERSION and pulumi-language-nodejs with $(go version | cut -d' ' -f3) (first time on this machine: a few minutes)"
  started=$(date +%s)
  (
    cd "$here/pulumi-tools"
    # go.sum is committed and complete, so no checksum-database lookup is needed; GONOSUMDB
    # keeps a partial module mirror from failing the build on a lookup anyway.
    export GOFLAGS="${GOFLAGS:-} -mod=readonly" GONOSUMDB="${GONOSUMDB:-github.com/pulumi/pulumi}" GOTOOLCHAIN=local
    export GOBIN="$staging"
    say "downloading modules and compiling (one progress line per 100 steps)..."
    go install -v -ldflags "-X github.com/pulumi/pulumi/sdk/v3/go/common/version.Version=v$PULUMI_VERSION" \
      github.com/pulumi/pulumi/pkg/v3/cmd/pulumi \
      github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3 2>&1 |
      tee "$staging/build.log" |
      awk '{ n++; if (n % 100 == 0) { printf "ensure-pulumi: %d modules downloaded or packages compiled...\n", n > "/dev/stderr" } }'
  ) || { say "build failed; last lines:"; tail -n 20 "$staging/build.log" >&2; exit 1; }
  rm -f "$staging/build.log"
  [ -x "$staging/pulumi" ] && [ -x "$staging/pulumi-language-nodejs" ] || { say "build failed"; exit 1; }
  cp "$dyn_script" "$staging/pulumi-resource-pulumi-nodejs"
  chmod +x "$staging/pulumi-resource-pulumi-nodejs"
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(( $(date +%s) - started ))s into $bin_dir"
fi
echo "$bin_dir"

#!/usr/bin/env bash
# Makes an S3-compatible object store server available for the tests of shared state (issues 21
# and 32), and prints the absolute path of the `weed` executable as the LAST line of stdout
# (progress goes to stderr).
#
# The server is SeaweedFS (github.com/seaweedfs/seaweedfs, Apache-2.0, maintained: weekly
# releases), its all-in-one `weed mini` (master, volume, filer and S3 gateway in one process, on
# the ports the test gives it), the same code as a production deployment. The Go module proxy
# serves no tagged release of it, only pseudo-versions; the one pinned below is SeaweedFS 4.53.
# Its go.mod has a replace directive, which `go install mod@version` refuses, so the module is
# downloaded (checked against the checksum database like any module) and built in its own
# directory with its own go.mod and go.sum: about 15 minutes and 230 MB on 2 cores, once.
#
# History: issue 21 used gofakes3 (github.com/johannesboyne/gofakes3 v1.2.0, in-memory), a fake
# S3 for tests by its authors' own description; issue 32 replaced it with a server people run.
# Tried before gofakes3 and rejected:
#   - MinIO: no tagged release on the Go module proxy (the newest is an untagged pseudo-version of
#     2026-02), a go.mod three times the size of the others, and AGPL.
#   - The Versity S3 Gateway v1.8.0 (posix backend): built in 176 s and served pulumi, but four
#     stacks at once in one bucket failed: deleting an object removes its empty parent
#     directories, racing another request that has just made them for its own object, so
#     `pulumi stack init` of one stack failed with `ExistingObjectIsDirectory: Existing Object is
#     a directory. status code: 409` on `.pulumi/locks/organization/<project>/<stack>/<uuid>.json`
#     while another stack released its lock (backend/posix/posix.go: mkdirAll, then link; a
#     delete's removeParents in between). SeaweedFS keeps objects in its filer, not directories.
#
# Built once per machine into a cache outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/seaweedfs-<version>/bin/weed
# A `weed` already on PATH is NOT used: the tests depend on this pinned version's flags.
set -euo pipefail

S3_MODULE="github.com/seaweedfs/seaweedfs"
S3_VERSION="v0.0.0-20261109003541-7506e5f91cd6" # SeaweedFS 4.53
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
bin_dir="$cache_root/seaweedfs-$S3_VERSION/bin"
exe="$bin_dir/weed"

say() { echo "ensure-s3: $*" >&2; }

if [ -x "$exe" ]; then
  say "using cached SeaweedFS ($S3_VERSION)"
  echo "$exe"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  say "Go is needed to build SeaweedFS $S3_VERSION (the S3-compatible server the shared-state tests start)"
  exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build-seaweedfs-$S3_VERSION.lock"
# Said only when another build holds the lock: a first build alone has nothing to wait for.
flock -n 9 || { say "waiting for the build lock (another build is running)..." && flock 9; }
if [ ! -x "$exe" ]; then
  staging="$(mktemp -d "$cache_root/.staging-s3.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building SeaweedFS ($S3_VERSION) with $(go version | cut -d' ' -f3) (first time on this machine, about 15 minutes)"
  started=$(date +%s)
  src="$(cd "$staging" && GOFLAGS=-mod=mod go mod download -json "$S3_MODULE@$S3_VERSION" | sed -n 's/^\s*"Dir": "\(.*\)",$/\1/p')"
  [ -d "$src" ] || { say "the module proxy gave no source for $S3_MODULE@$S3_VERSION"; exit 1; }
  cp -r "$src" "$staging/src"
  chmod -R u+w "$staging/src"
  if ! (cd "$staging/src" && GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -trimpath" go build -o "$staging/weed" ./weed) >"$staging/build.log" 2>&1; then
    say "build failed; last lines:"
    tail -n 20 "$staging/build.log" >&2
    exit 1
  fi
  rm -rf "$staging/src" "$staging/build.log"
  chmod 755 "$staging" # mktemp -d made it private
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(( $(date +%s) - started ))s into $bin_dir"
fi
echo "$exe"

#!/usr/bin/env bash
# Makes an S3-compatible object store server available for the tests of shared state (issue 21),
# and prints the absolute path of the `gofakes3` executable as the LAST line of stdout (progress
# goes to stderr).
#
# The server is gofakes3 (github.com/johannesboyne/gofakes3, MIT, maintained: v1.2.0 of
# 2026-07), its own command with the in-memory backend: the S3 REST API over HTTP (buckets,
# put, get, head, list with prefix and delimiter, copy, delete), which is everything the DIY
# backend of the pulumi CLI uses. It checks no signature, so any credentials pass.
# Tried first and rejected:
#   - MinIO: no tagged release on the Go module proxy any more (the newest is an untagged
#     pseudo-version of 2026-02) and a go.mod three times the size of the others.
#   - The Versity S3 Gateway v1.8.0 (posix backend): built in 176 s and served pulumi, but four
#     stacks at once in one bucket failed: deleting an object removes its empty parent
#     directories, racing another request that has just made them for its own object, so
#     `pulumi stack init` of one stack failed with `ExistingObjectIsDirectory: Existing Object is
#     a directory. status code: 409` on `.pulumi/locks/organization/<project>/<stack>/<uuid>.json`
#     while another stack released its lock (backend/posix/posix.go: mkdirAll, then link; a
#     delete's removeParents in between). An object store has no directories; that one does.
# gofakes3 builds with one `go install mod@version` (no replace directives, its own go.sum, checked
# against the checksum database like any module): 40 s with empty module and build caches.
#
# Built once per machine into a cache outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/gofakes3-<version>/bin/gofakes3
# A `gofakes3` already on PATH is NOT used: the tests depend on this pinned version's flags.
set -euo pipefail

S3_VERSION="v1.2.0"
S3_MODULE="github.com/johannesboyne/gofakes3"
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
bin_dir="$cache_root/gofakes3-$S3_VERSION/bin"
exe="$bin_dir/gofakes3"

say() { echo "ensure-s3: $*" >&2; }

if [ -x "$exe" ]; then
  say "using cached gofakes3 $S3_VERSION"
  echo "$exe"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  say "Go is needed to build gofakes3 $S3_VERSION (the S3-compatible server the shared-state tests start)"
  exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build-gofakes3-$S3_VERSION.lock"
say "waiting for the build lock (another build may be running)..."
flock 9
if [ ! -x "$exe" ]; then
  staging="$(mktemp -d "$cache_root/.staging-s3.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building gofakes3 $S3_VERSION with $(go version | cut -d' ' -f3) (first time on this machine)"
  started=$(date +%s)
  # go install mod@version builds with the module's own go.mod and go.sum, outside any work tree.
  if ! GOBIN="$staging" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -trimpath" \
    go install "$S3_MODULE/cmd/gofakes3@$S3_VERSION" >"$staging/build.log" 2>&1; then
    say "build failed; last lines:"
    tail -n 20 "$staging/build.log" >&2
    exit 1
  fi
  [ -x "$staging/gofakes3" ] || { say "build produced no gofakes3: $(ls "$staging" | tr '\n' ' ')"; exit 1; }
  rm -f "$staging/build.log"
  chmod 755 "$staging" # mktemp -d made it private
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(( $(date +%s) - started ))s into $bin_dir"
fi
echo "$exe"

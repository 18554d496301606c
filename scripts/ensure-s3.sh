#!/usr/bin/env bash
# Makes an S3-compatible object store server available for the tests of shared state (issue 21),
# and prints the absolute path of the `versitygw` executable as the LAST line of stdout (progress
# goes to stderr).
#
# The server is the Versity S3 Gateway (github.com/versity/versitygw, Apache-2.0, maintained): its
# `posix` backend serves a directory as buckets (one sub-directory per bucket), which is all the
# DIY backend of the pulumi CLI needs (put, get, head, list with a delimiter, delete, copy).
# MinIO was the first choice, but its module is no longer released (the newest version on the
# Go module proxy is an untagged pseudo-version of 2026-02) and its go.mod is three times the size;
# versitygw (v1.8.0, 2026-09) builds with one `go install mod@version` (no replace directives, its
# own go.sum, checked against the checksum database like any module): 176 s on the 2-core machine
# while another build ran.
#
# Built once per machine into a cache outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/versitygw-<version>/bin/versitygw
# A `versitygw` already on PATH is NOT used: the tests depend on this pinned version's flags.
set -euo pipefail

VERSITYGW_VERSION="v1.8.0"
VERSITYGW_MODULE="github.com/versity/versitygw"
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
bin_dir="$cache_root/versitygw-$VERSITYGW_VERSION/bin"
exe="$bin_dir/versitygw"

say() { echo "ensure-s3: $*" >&2; }

if [ -x "$exe" ]; then
  say "using cached versitygw $VERSITYGW_VERSION"
  echo "$exe"
  exit 0
fi
if ! command -v go >/dev/null 2>&1; then
  say "Go is needed to build versitygw $VERSITYGW_VERSION (the S3-compatible server the shared-state tests start)"
  exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.build-versitygw-$VERSITYGW_VERSION.lock"
say "waiting for the build lock (another build may be running)..."
flock 9
if [ ! -x "$exe" ]; then
  staging="$(mktemp -d "$cache_root/.staging-s3.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "building versitygw $VERSITYGW_VERSION with $(go version | cut -d' ' -f3) (first time on this machine: a few minutes)"
  started=$(date +%s)
  # go install mod@version builds with the module's own go.mod and go.sum, outside any work tree.
  if ! GOBIN="$staging" GOTOOLCHAIN=local GOFLAGS="${GOFLAGS:-} -trimpath" \
    go install "$VERSITYGW_MODULE/cmd/versitygw@$VERSITYGW_VERSION" >"$staging/build.log" 2>&1; then
    say "build failed; last lines:"
    tail -n 20 "$staging/build.log" >&2
    exit 1
  fi
  [ -x "$staging/versitygw" ] || { say "build produced no versitygw: $(ls "$staging" | tr '\n' ' ')"; exit 1; }
  rm -f "$staging/build.log"
  chmod 755 "$staging" # mktemp -d made it private
  mkdir -p "$(dirname "$bin_dir")"
  rm -rf "$bin_dir"
  mv "$staging" "$bin_dir"
  trap - EXIT
  say "built in $(( $(date +%s) - started ))s into $bin_dir"
fi
echo "$exe"

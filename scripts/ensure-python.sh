#!/usr/bin/env bash
# Makes a Python virtualenv holding the `pulumi` Python SDK at the version of the pinned Pulumi
# CLI (see scripts/ensure-pulumi.sh), and prints its absolute path as the LAST line of stdout
# (progress goes to stderr). Python Pulumi programs point at it from Pulumi.yaml:
#
#   runtime:
#     name: python
#     options:
#       virtualenv: <the printed path>
#
# The virtualenv lives in a cache outside the work tree and is made once per machine (under a
# lock, so concurrent callers wait for one build):
#   ${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-~/.cache}/pulumi-svc}/python-venv-<version>
# It is made in place (a virtualenv cannot be moved) and marked complete only once the SDK is
# installed; an incomplete or broken one (e.g. its base interpreter is gone) is remade.
#
# The interpreter is $PULUMI_SVC_PYTHON, else python3. When its `venv` module cannot install
# pip (Debian without python3-venv), the virtualenv is made --without-pip and filled by the
# interpreter's own pip (`pip --python`), so no root is needed as long as python3 has pip.
set -euo pipefail

PULUMI_VERSION="3.163.0" # keep equal to PULUMI_VERSION in ensure-pulumi.sh
cache_root="${PULUMI_SVC_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/pulumi-svc}"
venv="$cache_root/python-venv-$PULUMI_VERSION"
marker="$venv/.pulumi-svc-complete"
python="${PULUMI_SVC_PYTHON:-python3}"

say() { echo "ensure-python: $*" >&2; }

complete_venv() { # the marker is there and the venv's interpreter sees the pinned SDK
  [ -f "$marker" ] && [ -x "$venv/bin/python" ] &&
    "$venv/bin/python" -c 'import importlib.metadata as m, sys; sys.exit(m.version("pulumi") != sys.argv[1])' \
      "$PULUMI_VERSION" >/dev/null 2>&1
}

if complete_venv; then
  say "using cached virtualenv with pulumi $PULUMI_VERSION"
  echo "$venv"
  exit 0
fi

if ! command -v "$python" >/dev/null 2>&1; then
  say "$python not found: Python >= 3.9 is needed (set PULUMI_SVC_PYTHON to choose an interpreter)"
  exit 1
fi
if ! "$python" -c 'import sys; sys.exit(sys.version_info < (3, 9))'; then
  say "$python is $("$python" --version 2>&1); the pulumi $PULUMI_VERSION SDK needs Python >= 3.9"
  exit 1
fi

mkdir -p "$cache_root"
exec 9>"$cache_root/.python-venv-$PULUMI_VERSION.lock"
say "waiting for the virtualenv lock (another build may be running)..."
flock 9
if ! complete_venv; then
  started=$(date +%s)
  log="$(mktemp "$cache_root/.python-venv.XXXXXX.log")"
  trap 'rm -f "$log"' EXIT
  fail() { say "$1; last lines:"; tail -n 20 "$log" >&2; exit 1; }
  rm -rf "$venv"
  say "making $venv with $("$python" --version 2>&1) and pulumi==$PULUMI_VERSION from PyPI..."
  if "$python" -m venv "$venv" >>"$log" 2>&1; then
    "$venv/bin/python" -m pip install --disable-pip-version-check --no-input \
      "pulumi==$PULUMI_VERSION" >>"$log" 2>&1 || fail "pip install failed"
  else
    say "'$python -m venv' failed (no ensurepip?); retrying --without-pip with $python's own pip"
    rm -rf "$venv"
    "$python" -m venv --without-pip "$venv" >>"$log" 2>&1 || fail "'$python -m venv --without-pip' failed"
    "$python" -m pip --disable-pip-version-check --python "$venv/bin/python" install --no-input \
      "pulumi==$PULUMI_VERSION" >>"$log" 2>&1 ||
      fail "pip install failed (needs pip >= 22.3 for $python; or install python3-venv)"
  fi
  touch "$marker"
  complete_venv || fail "the virtualenv does not import pulumi $PULUMI_VERSION"
  say "made in $(( $(date +%s) - started ))s"
fi
echo "$venv"

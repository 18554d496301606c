#!/usr/bin/env bash
# `npm run sdks`: regenerates the committed SDKs under sdk/ from schema.json, one directory per
# language as Pulumi providers lay them out (sdk/nodejs, sdk/python, sdk/go, sdk/java,
# sdk/dotnet). `npm run generate` runs it after writing schema.json;
# tests/e2e/sdks.test.ts fails while sdk/ differs from a fresh generation.
#
#   bash scripts/sdks.sh [out dir]      (default: sdk/ of this repository)
#
# Each SDK comes from `pulumi package gen-sdk --language <language>` of the floor's CLI (3.163.0,
# built with the Go release whose filepath.Rel its Node.js and Python generators were written
# for: scripts/ensure-pulumi.sh), which hands the work to that language's host, except .NET:
# its host is not obtainable here, so svc-gen-dotnet calls the .NET generator of the same pkg/v3
# module (see scripts/pulumi-tools/cmd/svc-gen-dotnet).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/.." && pwd)"
out="${1:-$repo/sdk}"
LANGUAGES=(nodejs python go java) # through gen-sdk; dotnet below

bin="$(bash "$here/ensure-pulumi.sh" floor | tail -n 1)"
home="$(mktemp -d)"
trap 'rm -rf "$home"' EXIT
# A private PULUMI_HOME: gen-sdk loads nothing from a user's plugin cache, and downloads nothing.
export PATH="$bin:$PATH" PULUMI_HOME="$home" PULUMI_SKIP_UPDATE_CHECK=true PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true

mkdir -p "$out"
for language in "${LANGUAGES[@]}"; do
  echo "sdks: $language" >&2
  # gen-sdk empties $out/<language> first, then writes every file.
  (cd "$home" && pulumi package gen-sdk "$repo/schema.json" --language "$language" --out "$out") 2>&1 |
    { grep -v '^SDK has been written to' || true; } >&2
done
echo "sdks: dotnet" >&2
svc-gen-dotnet "$repo/schema.json" "$out/dotnet"
echo "sdks: wrote ${LANGUAGES[*]} dotnet under $out" >&2

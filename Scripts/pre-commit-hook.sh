#!/usr/bin/env bash
# The `moat` hook of .pre-commit-hooks.yaml: reviews the change about to be committed with
# `moat diff --base HEAD` (findings on changed lines, and the threat-model questions), and refuses the commit
# when a finding on a changed line is at or above --fail-on (default high). Arguments (`args:`) are passed
# to `moat diff`.
#
# Which moat: $MOAT when it names one; otherwise the one built from the repository this script is in
# (pre-commit's clone of Moat at the configured `rev`), built with `swift build` on first use and reused
# afterwards (debug; MOAT_BUILD_CONFIGURATION=release for a slower first build and a faster scanner).
set -euo pipefail
moat_repository=$(cd "$(dirname "$0")/.." && pwd)

if [ -n "${MOAT:-}" ]; then
  moat="$MOAT"
else
  configuration="${MOAT_BUILD_CONFIGURATION:-debug}"
  if ! log=$(swift build --package-path "$moat_repository" -c "$configuration" --product moat 2>&1); then
    printf '%s\n' "$log" >&2
    echo "moat pre-commit hook: could not build Moat in $moat_repository (needs the Swift 6 toolchain)" >&2
    exit 2
  fi
  moat="$moat_repository/.build/$configuration/moat"
fi

# Before the first commit there is no HEAD: compare with the empty tree.
base=HEAD
git rev-parse --verify --quiet HEAD >/dev/null || base=$(git hash-object -t tree /dev/null)
exec "$moat" diff --base "$base" --format text --fail-on high "$@" .

#!/usr/bin/env bash
# Checks the CI integrations against what their hosts accept, with the hosts' own tools from PyPI:
# - action.yml (GitHub Action) against the published action schema, Docs/moat.gitlab-ci.yml against GitLab's
#   CI schema (check-jsonschema ships both: vendor.github-actions, vendor.gitlab-ci);
# - .pre-commit-hooks.yaml with `pre-commit validate-manifest`, then both hooks run by `pre-commit try-repo`
#   on a sample git repository: a commit adding insecure code is refused, a harmless one goes through.
# Usage: Scripts/check-integrations.sh [MOAT]   (MOAT: a built moat, default .build/debug/moat, built if missing)
# Tools are installed into a temporary virtual environment; when PyPI cannot be reached, the script says so
# and exits 0 without checking (any other failure fails).
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$(pwd)
moat="${1:-.build/debug/moat}"
[ -x "$moat" ] || swift build --product moat >/dev/null
moat=$(cd "$(dirname "$moat")" && pwd)/$(basename "$moat")

work=$(mktemp -d "${TMPDIR:-/tmp}/moat-integrations.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "-- installing check-jsonschema and pre-commit from PyPI into a virtual environment"
if ! python3 -m venv "$work/venv" >/dev/null 2>&1; then
  echo "python3 -m venv is unavailable (install python3-venv)" >&2
  exit 1
fi
if ! "$work/venv/bin/pip" install --quiet --disable-pip-version-check check-jsonschema pre-commit >"$work/pip.log" 2>&1; then
  if ! python3 -c 'import urllib.request; urllib.request.urlopen("https://pypi.org/simple/pre-commit/", timeout=20)' >/dev/null 2>&1; then
    echo "PyPI is unreachable: the CI integrations were NOT checked (action.yml, Docs/moat.gitlab-ci.yml, .pre-commit-hooks.yaml)"
    exit 0
  fi
  cat "$work/pip.log" >&2
  exit 1
fi
bin="$work/venv/bin"
# pre-commit and Moat keep their caches in this run's folder, never in the user's.
export PRE_COMMIT_HOME="$work/pre-commit-home" XDG_CACHE_HOME="$work/cache"

echo "-- action.yml against the GitHub Actions action schema"
"$bin/check-jsonschema" --builtin-schema vendor.github-actions action.yml
echo "-- Docs/moat.gitlab-ci.yml against the GitLab CI schema"
"$bin/check-jsonschema" --builtin-schema vendor.gitlab-ci Docs/moat.gitlab-ci.yml
echo "-- .pre-commit-hooks.yaml"
"$bin/pre-commit" validate-manifest .pre-commit-hooks.yaml

echo "-- pre-commit try-repo on a sample repository"
# try-repo clones the hooks' repository: CI runs in a copy of the checkout without .git, so make that copy
# a git repository of its own (in this run's folder) when it is not one.
if ! git -C "$repository" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  hooks_repo="$work/hooks-repo"
  mkdir -p "$hooks_repo"
  tar -C "$repository" --exclude=./.build --exclude=./.swiftpm --exclude=./out -cf - . | tar -xf - -C "$hooks_repo"
  git -C "$hooks_repo" init -q
  git -C "$hooks_repo" add -A
  git -C "$hooks_repo" -c user.email=moat@example.invalid -c user.name="Moat CI" -c commit.gpgsign=false commit -q -m "hooks"
  repository="$hooks_repo"
fi
sample="$work/sample"
mkdir -p "$sample/App"
git -C "$sample" init -q
git -C "$sample" config user.email moat@example.invalid
git -C "$sample" config user.name "Moat CI"
git -C "$sample" config commit.gpgsign false
printf 'import Foundation\nlet greeting = "hello"\n' > "$sample/App/Greeting.swift"
git -C "$sample" add App/Greeting.swift
git -C "$sample" commit -q -m "first"

# try_hook HOOK EXPECTED_STATUS NEEDLE: runs the hook on what is staged, checks the status and the output.
try_hook() {
  local hook=$1 expected=$2 needle=$3 status=0
  (cd "$sample" && "$bin/pre-commit" try-repo "$repository" "$hook" --verbose) >"$work/out.txt" 2>&1 || status=$?
  if [ "$status" != "$expected" ] || ! grep -q -- "$needle" "$work/out.txt"; then
    cat "$work/out.txt"
    echo "FAIL: hook $hook exited $status (expected $expected) or its output lacks '$needle'" >&2
    exit 1
  fi
  echo "ok: hook $hook exited $status and printed '$needle'"
}

# An insecure change: the commit is refused, naming the rule.
cat > "$sample/App/Restore.swift" <<'SWIFT'
import Foundation
import WebKit
// A script downloaded from a server run in a web view: a dataflow finding, high (a default-suite rule).
func render(from server: URL, in webView: WKWebView) throws {
    let script = try String(contentsOf: server)
    webView.evaluateJavaScript(script)
}
SWIFT
git -C "$sample" add App/Restore.swift
MOAT="$moat" try_hook moat 1 "MOAT-PLAT-301"
PATH="$(dirname "$moat"):$PATH" try_hook moat-system 1 "MOAT-PLAT-301"

# A harmless change: the commit goes through.
git -C "$sample" rm -q --cached App/Restore.swift
rm "$sample/App/Restore.swift"
printf 'import Foundation\nlet greeting = "hello"\nlet farewell = "bye"\n' > "$sample/App/Greeting.swift"
git -C "$sample" add App/Greeting.swift
MOAT="$moat" try_hook moat 0 "Passed"
PATH="$(dirname "$moat"):$PATH" try_hook moat-system 0 "Passed"
echo "CI integrations checked."

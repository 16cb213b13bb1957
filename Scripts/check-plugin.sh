#!/usr/bin/env bash
# Runs the SwiftPM command plugin (`swift package moat`) on a small sample package that depends on this
# package by path, as a user's package would: the plugin builds `moat`, scans the sample and fails on a
# finding at or above --fail-on; --target narrows the scan; --output is refused (the plugin writes nothing
# into the package); the sample's files are left as they were.
# Usage: Scripts/check-plugin.sh   (MOAT_PLUGIN_SCRATCH: a SwiftPM scratch path to reuse between runs)
set -euo pipefail
cd "$(dirname "$0")/.."
repository=$(pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/moat-plugin.XXXXXX")
trap 'rm -rf "$work"' EXIT
sample="$work/Sample"
scratch="${MOAT_PLUGIN_SCRATCH:-$work/scratch}"
export XDG_CACHE_HOME="$work/cache"

mkdir -p "$sample/Sources/Sample" "$sample/Sources/Tool"
cat > "$sample/Package.swift" <<SWIFT
// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Sample",
    dependencies: [.package(path: "$repository")],
    targets: [
        .target(name: "Sample"),
        .executableTarget(name: "Tool"),
    ]
)
SWIFT
cat > "$sample/Sources/Sample/Store.swift" <<'SWIFT'
import Foundation

import WebKit
// A script downloaded from a server run in a web view: a dataflow finding, high (a default-suite rule).
public func render(from server: URL, in webView: WKWebView) throws {
    let script = try String(contentsOf: server)
    webView.evaluateJavaScript(script)
}
SWIFT
cat > "$sample/Sources/Tool/main.swift" <<'SWIFT'
print("hello")
SWIFT
listing() { (cd "$sample" && find . -path ./.build -prune -o -type f -print | sort | xargs sha256sum); }
before=$(listing)

plugin() { swift package --package-path "$sample" --scratch-path "$scratch" moat "$@"; }

echo "-- swift package moat (the whole sample): a high finding, so the command fails"
status=0
plugin --format json >"$work/out.json" 2>"$work/err.txt" || status=$?
# Standard output is the report alone (SwiftPM's build messages go to standard error): it parses as JSON.
found=$(python3 -c 'import json, sys
document = json.load(open(sys.argv[1]))
print(" ".join(f["ruleId"] + "@" + f["location"]["path"] for f in document["findings"]))' "$work/out.json" || true)
if [ "$status" = 0 ] || [ "$found" != "MOAT-PLAT-301@Sources/Sample/Store.swift" ]; then
  cat "$work/out.json" "$work/err.txt"; echo "FAIL: expected a failing scan reporting MOAT-PLAT-301 in Sources/Sample/Store.swift" >&2; exit 1
fi
grep -q "findings at or above the --fail-on severity" "$work/err.txt" || { cat "$work/err.txt"; echo "FAIL: no failure message" >&2; exit 1; }
echo "ok: exit $status, MOAT-PLAT-301 reported in Sources/Sample/Store.swift"

echo "-- --fail-on critical: the same finding no longer fails"
plugin --fail-on critical --format text >"$work/out.txt" 2>"$work/err.txt" || { cat "$work/out.txt" "$work/err.txt"; echo "FAIL" >&2; exit 1; }
grep -q "MOAT-PLAT-301" "$work/out.txt" || { cat "$work/out.txt"; echo "FAIL: text report lacks the finding" >&2; exit 1; }
echo "ok"

echo "-- --target Tool: only that target's folder is scanned"
plugin --target Tool --format json >"$work/out.json" 2>"$work/err.txt" || { cat "$work/out.json" "$work/err.txt"; echo "FAIL" >&2; exit 1; }
! grep -q "MOAT-PLAT-301" "$work/out.json" || { cat "$work/out.json"; echo "FAIL: --target Tool scanned Sample" >&2; exit 1; }
echo "ok"

echo "-- --output is refused"
status=0
plugin --output report.json >"$work/out.txt" 2>&1 || status=$?
[ "$status" != 0 ] && grep -q "is not supported" "$work/out.txt" || { cat "$work/out.txt"; echo "FAIL: --output was not refused" >&2; exit 1; }
echo "ok"

[ "$(listing)" = "$before" ] || { echo "FAIL: the plugin changed the sample package's files" >&2; exit 1; }
echo "SwiftPM plugin checked."

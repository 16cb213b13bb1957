#!/usr/bin/env bash
# Builds a hostile source tree and checks that Moat finishes on it, reports what it skipped, and finds
# the one real finding hidden among the noise:
#   a folder of 100,000 files, a 50 MB source file, symlink loops and links out of the tree, a FIFO,
#   names that are not UTF-8, empty files, a file that is not UTF-8, 200 nested folders.
#   Scripts/hostile-tree-check.sh [MOAT_BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."
moat="${1:-.build/debug/moat}"
[ -x "$moat" ] || swift build --product moat >/dev/null
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/tree"
python3 - "$root" <<'PY'
import os, sys
root = sys.argv[1]
many = os.path.join(root, "Many")
os.makedirs(many)
for i in range(100_000):
    with open(os.path.join(many, f"F{i}.swift"), "w") as f:
        f.write(f"let v{i} = {i}\n")
with open(os.path.join(root, "Huge.swift"), "w") as f:
    line = "let x = 1 // padding padding padding padding padding padding\n"
    f.write(line * (50 * 1024 * 1024 // len(line) + 1))
os.makedirs(os.path.join(root, "App"))
with open(os.path.join(root, "App", "Real.swift"), "w") as f:
    f.write("let legacy = NSKeyedUnarchiver.unarchiveObject(with: data)\n")
open(os.path.join(root, "App", "Empty.swift"), "w").close()
open(os.path.join(root, "App", "Empty.plist"), "w").close()
with open(os.path.join(root, "App", "Latin1.m"), "wb") as f:
    f.write(b"// caf\xe9\n@implementation X @end\n")
with open(os.fsencode(os.path.join(root, "App")) + b"/name-\xff\xfe.swift", "wb") as f:
    f.write(b"let a = 1\n")
os.symlink(root, os.path.join(root, "App", "loop"))
os.symlink("/etc", os.path.join(root, "App", "outside"))
os.symlink("/etc/passwd", os.path.join(root, "App", "passwd.plist"))
os.mkfifo(os.path.join(root, "App", "pipe.swift"))
deep = root
for i in range(200):
    deep = os.path.join(deep, "d")
os.makedirs(deep)
with open(os.path.join(deep, "Deep.swift"), "w") as f:
    f.write("let a = 1\n")
PY
echo "tree ready: $(find "$root" -type f | wc -l) files"
start=$(date +%s)
set +e
# The real finding (an unarchiver with no dataflow evidence) is medium: the gate is set there.
timeout 900 "$moat" scan "$root" --no-cache --fail-on medium --format json --output "$work/report.json"
status=$?
set -e
elapsed=$(( $(date +%s) - start ))
echo "moat exited $status after ${elapsed}s"
[ "$status" = "1" ] || { echo "FAIL: expected exit 1 (one real finding)"; exit 1; }
python3 - "$work/report.json" <<'PY'
import json, sys
report = json.load(open(sys.argv[1]))
findings = [(f["ruleId"], f["location"]["path"]) for f in report["findings"]]
errors = {e["path"]: e["message"] for e in report["errors"]}
assert findings == [("MOAT-CODE-001", "App/Real.swift")], findings
assert "larger than" in errors.get("Huge.swift", ""), errors
assert any("Latin1.m" in path and "UTF-8" in message for path, message in errors.items()), errors
assert any("nested deeper" in message for message in errors.values()), errors
assert not any("passwd" in path for path, _ in findings), "followed a link out of the tree"
assert report["summary"]["filesScanned"] >= 100_000, report["summary"]
print(f"ok: {report['summary']['filesScanned']} files, {len(errors)} errors reported, 1 finding")
PY

#!/usr/bin/env bash
# Regenerates the rules catalogue in README.md from the rules themselves (`moat rules --format markdown`).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product moat >/dev/null
catalogue=$(.build/debug/moat rules --format markdown)
python3 - "$catalogue" <<'PY'
import re, sys
catalogue = sys.argv[1]
text = open("README.md", encoding="utf-8").read()
begin, end = "<!-- rules:begin -->", "<!-- rules:end -->"
start, stop = text.index(begin) + len(begin), text.index(end)
open("README.md", "w", encoding="utf-8").write(text[:start] + "\n" + catalogue.rstrip("\n") + "\n" + text[stop:])
PY
echo "README.md rules catalogue updated."

#!/usr/bin/env python3
"""Prints the `RULE path:line` lines of Examples/LeakyBank.expected from `moat scan --format json` output.
With `--experimental`, the lines of Examples/LeakyBank.experimental.expected (a scan with
`--include experimental`)."""
import json
import sys

document = json.load(sys.stdin)
if "--experimental" in sys.argv[1:]:
    print("# Findings `moat scan Examples/LeakyBank --include experimental` must report, exactly: RULE-ID path:line")
    print("# Regenerate with: swift run moat scan Examples/LeakyBank --include experimental --format json"
          " | python3 Scripts/expected-from-json.py --experimental")
else:
    print("# Findings `moat scan Examples/LeakyBank` must report, exactly: RULE-ID path:line")
    print("# Regenerate with: swift run moat scan Examples/LeakyBank --format json | python3 Scripts/expected-from-json.py")
for finding in document["findings"]:
    if finding.get("suppression"):
        continue
    print(f'{finding["ruleId"]} {finding["location"]["path"]}:{finding["location"]["line"]}')

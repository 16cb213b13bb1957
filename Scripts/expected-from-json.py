#!/usr/bin/env python3
"""Prints the `RULE path:line` lines of Examples/LeakyBank.expected from `moat scan --format json` output."""
import json
import sys

document = json.load(sys.stdin)
print("# Findings `moat scan Examples/LeakyBank` must report, exactly: RULE-ID path:line")
print("# Regenerate with: swift run moat scan Examples/LeakyBank --format json | python3 Scripts/expected-from-json.py")
for finding in document["findings"]:
    if finding.get("suppression"):
        continue
    print(f'{finding["ruleId"]} {finding["location"]["path"]}:{finding["location"]["line"]}')

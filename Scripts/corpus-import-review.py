#!/usr/bin/env python3
"""Import an independent reader's review of one check-half app into Corpus/.

Usage: corpus-import-review.py REVIEW_DIR APP [--reader NAME]

REVIEW_DIR/<APP>/ holds what the reader wrote (Corpus/README.md, "Who judges"): `findings.json` (the report
judged), `verdicts.tsv` (fingerprint, rule, location, verdict, reason), `recall.tsv` (id, class, location,
severity, description: the weaknesses listed before seeing a report) and `recall-match.tsv` (id, status,
fingerprint, note). Verdicts are merged into Corpus/verdicts/<APP>.tsv (a later verdict for the same
fingerprint replaces the earlier one; the severity the finding had when judged is kept as a sixth column),
and the weaknesses with their status into Corpus/recall/<APP>.tsv. The reader's words are kept as written.
"""
import csv, json, os, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def read_tsv(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        rows = [line.rstrip("\n").split("\t") for line in f if line.strip() and not line.startswith("#")]
    return rows[1:] if rows else []


def main():
    args = sys.argv[1:]
    reader = "independent reader"
    if "--reader" in args:
        i = args.index("--reader")
        reader = args[i + 1]
        del args[i:i + 2]
    if len(args) != 2:
        sys.stderr.write(__doc__)
        return 2
    review, app = args
    folder = os.path.join(review, app)
    severity = {}
    report = os.path.join(folder, "findings.json")
    if os.path.exists(report):
        with open(report, encoding="utf-8") as f:
            for finding in json.load(f).get("findings", []):
                severity[finding["fingerprint"]] = finding["severity"]
    out = os.path.join(ROOT, "Corpus", "verdicts", app + ".tsv")
    merged = {}
    order = []
    for row in read_tsv(out):
        if len(row) >= 5:
            merged[row[0]] = row + [""] * (6 - len(row))
            order.append(row[0])
    for row in read_tsv(os.path.join(folder, "verdicts.tsv")):
        if len(row) < 5:
            continue
        fingerprint, rule, where, verdict, reason = [c.strip() for c in row[:5]]
        if verdict.lower() == "debatable":
            verdict = "debatable"
        if fingerprint not in merged:
            order.append(fingerprint)
        merged[fingerprint] = [fingerprint, rule, where, verdict, f"{reason} ({reader})", severity.get(fingerprint, "")]
    with open(out, "w", encoding="utf-8") as f:
        f.write("fingerprint\trule\tlocation\tverdict\treason\tseverity\n")
        for fingerprint in order:
            f.write("\t".join(merged[fingerprint][:6]) + "\n")
    listed = read_tsv(os.path.join(folder, "recall.tsv"))
    if listed:
        matches = {row[0]: row for row in read_tsv(os.path.join(folder, "recall-match.tsv")) if row}
        os.makedirs(os.path.join(ROOT, "Corpus", "recall"), exist_ok=True)
        with open(os.path.join(ROOT, "Corpus", "recall", app + ".tsv"), "w", encoding="utf-8") as f:
            f.write("id\tclass\tlocation\tseverity\tdescription\tstatus\tfingerprints\tnote\n")
            for row in listed:
                row = (row + [""] * 5)[:5]
                match = (matches.get(row[0], []) + ["", "", "", ""])[:4]
                status = match[1].strip() or "missed"
                f.write("\t".join(row + [status, match[2].strip().replace(" ", ""), match[3]]) + "\n")
    print(f"{app}: {len(merged)} verdicts, {len(listed)} weaknesses")
    return 0


if __name__ == "__main__":
    sys.exit(main())

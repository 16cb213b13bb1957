#!/usr/bin/env python3
"""Precision of Moat on the corpus of real apps (Corpus/apps.json, Corpus/verdicts/).

Usage: corpus-precision.py [--moat PATH] [--app NAME ...] [--half tuning|check]
                           [--json-dir DIR | --from-json DIR] [--list-limit N] [--sample-medium N] CORPUS_DIR

CORPUS_DIR holds one checkout per app, in the folder named by apps.json ("folder").
Fetches nothing. Each checkout present is scanned (`moat scan --format json --no-cache`), every
finding is matched to a verdict by its fingerprint, and precision is printed for each half of the
corpus (apps.json "half": tuning, check), per tier (critical + high, medium, and a seeded sample of
the low findings), overall, per app and per rule, with the issue-23 targets on the check half.
See Corpus/README.md for the counting rules.
"""
import argparse, collections, json, os, random, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(ROOT, "Corpus")
SAMPLE_SEED = 15  # issue 15; the seeded medium sample (Corpus/README.md)


def load_verdicts(app):
    path = os.path.join(CORPUS, "verdicts", app + ".tsv")
    verdicts = {}
    if not os.path.exists(path):
        return verdicts
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("fingerprint\t"):
                continue
            cols = line.split("\t")
            if len(cols) < 5:
                sys.stderr.write(f"{path}:{number}: expected 5 tab-separated columns, skipped\n")
                continue
            fingerprint, rule, where, verdict, reason = cols[:5]
            judged_at = cols[5].strip() if len(cols) > 5 else ""  # optional: the severity it had when judged
            verdict = verdict.strip()
            if verdict not in ("TP", "FP", "debatable"):
                sys.stderr.write(f"{path}:{number}: verdict must be TP, FP or debatable, skipped\n")
                continue
            verdicts[fingerprint] = {"rule": rule, "where": where, "verdict": verdict, "reason": reason,
                                     "severity": judged_at}
    return verdicts


def load_recall(app):
    """Corpus/recall/<app>.tsv: the weaknesses a reader listed by hand before seeing a report, and whether
    the report had each (`found`, `partly`, `missed`), with the fingerprint of the finding that has it."""
    path = os.path.join(CORPUS, "recall", app + ".tsv")
    rows = []
    if not os.path.exists(path):
        return None
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#") or line.startswith("id\t"):
                continue
            cols = line.split("\t")
            if len(cols) < 7:
                sys.stderr.write(f"{path}:{number}: expected at least 7 tab-separated columns, skipped\n")
                continue
            rows.append({"id": cols[0], "class": cols[1], "where": cols[2], "severity": cols[3],
                         "status": cols[5].strip(), "fingerprints": [x for x in cols[6].split(",") if x.strip()]})
    return rows


def non_shipping(finding):
    """Marked by Moat as test or otherwise non-shipping code: it never fails the gate."""
    if finding.get("isTestCode"):
        return True
    for key in ("nonShipping", "isNonShipping"):
        if finding.get(key):
            return True
    if finding.get("nonShippingReason") or finding.get("shippingReason"):
        return True
    if finding.get("shipping") is False:
        return True
    return False


def scan(moat, folder, json_dir, app):
    if json_dir:
        os.makedirs(json_dir, exist_ok=True)
        out = os.path.join(json_dir, app + ".json")
    else:
        handle, out = tempfile.mkstemp(suffix=".json")
        os.close(handle)
    proc = subprocess.run([moat, "scan", "--format", "json", "--no-cache", "--output", out, folder],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        raise RuntimeError(f"moat exited {proc.returncode} on {folder}")
    with open(out, encoding="utf-8") as f:
        document = json.load(f)
    if not json_dir:
        os.unlink(out)
    return document


def bucket(severity):
    if severity in ("critical", "high"):
        return "high+"
    return severity


LOW_SAMPLE = 12  # low findings judged per app: all when at most this many, else a seeded sample
TIERS = (("high+", "critical + high"), ("medium", "medium"), ("low", "low (seeded sample)"))
TARGETS = {"high+": 0.90, "medium": 0.80, "low": 0.60}  # issue 23, on the check half


class Tally:
    def __init__(self):
        self.c = collections.Counter()

    def add(self, verdict):
        self.c[verdict] += 1

    def line(self):
        tp, fp, deb, none = self.c["TP"], self.c["FP"], self.c["debatable"], self.c[None]
        judged = tp + fp
        prec = f"{100.0 * tp / judged:5.1f} %" if judged else "    n/a"
        half = f"{100.0 * (tp + deb / 2) / (judged + deb):5.1f} %" if judged + deb else "    n/a"
        return (f"{prec}  TP {tp:3d}  FP {fp:3d}  debatable {deb:3d}  no verdict {none:3d}"
                f"  (debatable as half: {half})"), (tp, fp)


def medium_sample(findings, size):
    """The seeded sample of medium findings to judge by hand (sorted by fingerprint, then drawn)."""
    medium = sorted(f["fingerprint"] for f in findings)
    if len(medium) <= size:
        return medium
    return sorted(random.Random(SAMPLE_SEED).sample(medium, size))


def low_sample(findings):
    """The low findings of one app that are judged: all of them when there are at most LOW_SAMPLE, else
    `random.Random(15).sample` of their sorted fingerprints (the rule the readers are given)."""
    low = sorted(f["fingerprint"] for f in findings)
    if len(low) <= LOW_SAMPLE:
        return set(low)
    return set(random.Random(SAMPLE_SEED).sample(low, LOW_SAMPLE))


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus_dir")
    parser.add_argument("--moat", default=os.path.join(ROOT, ".build", "debug", "moat"))
    parser.add_argument("--app", action="append", help="only this app (repeatable)")
    parser.add_argument("--half", choices=("tuning", "check"), help="only the apps of this half (apps.json)")
    parser.add_argument("--json-dir", help="keep each app's JSON report in this folder")
    parser.add_argument("--from-json", metavar="DIR",
                        help="do not scan: read each app's report from DIR/<name>.json (written by --json-dir)")
    parser.add_argument("--list-limit", type=int, default=40,
                        help="findings without a verdict listed per app and bucket (default 40, 0 = all)")
    parser.add_argument("--sample-medium", type=int, default=0,
                        help="also print the seeded sample of N medium findings per app (for judging)")
    args = parser.parse_args()

    if not args.from_json and not os.access(args.moat, os.X_OK):
        sys.stderr.write(f"moat not found or not executable: {args.moat} (build it: swift build --product moat)\n")
        return 2
    if not os.path.isdir(args.corpus_dir):
        sys.stderr.write(f"not a folder: {args.corpus_dir}\n")
        return 2
    with open(os.path.join(CORPUS, "apps.json"), encoding="utf-8") as f:
        apps = json.load(f)["apps"]
    if args.app:
        apps = [a for a in apps if a["name"] in args.app]
    if args.half:
        apps = [a for a in apps if a.get("half", "tuning") == args.half]
    half_of = {a["name"]: a.get("half", "tuning") for a in apps}

    halves = ("tuning", "check")
    per_rule = {h: {b: collections.defaultdict(Tally) for b, _ in TIERS} for h in halves}
    per_app = {h: {b: collections.defaultdict(Tally) for b, _ in TIERS} for h in halves}
    overall = {h: {b: Tally() for b, _ in TIERS} for h in halves}
    counts = collections.defaultdict(collections.Counter)
    unjudged = []
    gone = []  # verdicts whose finding is no longer reported (or now marked non-shipping)
    recall = {}  # app -> Counter of found / partly / missed
    scanned = 0
    for app in apps:
        folder = os.path.join(args.corpus_dir, app["folder"])
        if not os.path.isdir(folder):
            print(f"# {app['name']}: no checkout at {folder}, skipped")
            continue
        try:
            if args.from_json:
                with open(os.path.join(args.from_json, app["name"] + ".json"), encoding="utf-8") as f:
                    document = json.load(f)
            else:
                document = scan(args.moat, folder, args.json_dir, app["name"])
        except (RuntimeError, OSError, ValueError) as error:
            print(f"# {app['name']}: cannot scan: {error}")
            continue
        scanned += 1
        tool = document.get("tool", {})
        print(f"# {app['name']}: {tool.get('name', 'moat')} {tool.get('version', '?')}"
              + (f" rules {tool['rulesFingerprint']}" if tool.get("rulesFingerprint") else "")
              + f", {document.get('summary', {}).get('filesScanned', '?')} files")
        verdicts = load_verdicts(app["name"])
        findings = document.get("findings", [])
        half = half_of[app["name"]]
        mediums = []
        judged_low = low_sample([f for f in findings if f["severity"] == "low" and not f.get("suppression")
                                 and not non_shipping(f)])
        for finding in findings:
            sev = finding["severity"]
            c = counts[app["name"]]
            c[sev] += 1
            if finding.get("suppression"):
                c["suppressed"] += 1
                continue
            if non_shipping(finding):
                c["non-shipping " + sev] += 1
                continue
            b = bucket(sev)
            if b not in per_rule[half]:
                continue
            if b == "low" and finding["fingerprint"] not in judged_low:
                continue
            if b == "medium":
                mediums.append(finding)
            v = verdicts.get(finding["fingerprint"])
            verdict = v["verdict"] if v else None
            per_rule[half][b][finding["ruleId"]].add(verdict)
            per_app[half][b][app["name"]].add(verdict)
            overall[half][b].add(verdict)
            if verdict is None:
                unjudged.append((app["name"], b, finding))
        c["errors"] = len(document.get("errors", []))
        active = {f["fingerprint"] for f in findings
                  if not f.get("suppression") and not non_shipping(f) and bucket(f["severity"]) in ("high+", "medium")}
        low_now = {f["fingerprint"] for f in findings if f["severity"] == "low"
                   and not f.get("suppression") and not non_shipping(f)}
        for fingerprint, v in verdicts.items():
            # a low finding judged as low and still reported at low has not gone
            if fingerprint not in active and not (v["severity"] == "low" and fingerprint in low_now):
                gone.append((app["name"], fingerprint, v))
        listed = load_recall(app["name"])
        if listed is not None:
            shipping = {f["fingerprint"] for f in findings if not f.get("suppression") and not non_shipping(f)}
            tally = collections.Counter()
            for row in listed:
                status = row["status"]
                if status in ("found", "partly") and not any(x.strip() in shipping for x in row["fingerprints"]):
                    status = "missed"  # the finding that had it is no longer reported in shipping code
                tally[status if status in ("found", "partly") else "missed"] += 1
            recall[app["name"]] = tally
        if args.sample_medium:
            print(f"# {app['name']}: seeded medium sample (seed {SAMPLE_SEED}, {args.sample_medium}):")
            wanted = set(medium_sample(mediums, args.sample_medium))
            for f in mediums:
                if f["fingerprint"] in wanted:
                    mark = verdicts.get(f["fingerprint"], {}).get("verdict", "-")
                    loc = f["location"]
                    print(f"  {mark:9s} {f['fingerprint']}  {f['ruleId']}  {loc.get('path')}:{loc.get('line')}")

    if not scanned:
        sys.stderr.write("no checkout found: nothing scanned\n")
        return 2

    severities = ["critical", "high", "medium", "low", "info"]
    print("\n== Findings per app (shipping code; non-shipping and suppressed counted apart) ==")
    print(f"{'app':20s} " + " ".join(f"{s:>8s}" for s in severities) + "  non-shipping  suppressed  errors")
    for name, c in counts.items():
        ns = sum(v for k, v in c.items() if k.startswith("non-shipping"))
        print(f"{name:20s} " + " ".join(f"{c[s] - c['non-shipping ' + s]:8d}" for s in severities)
              + f"  {ns:12d}  {c['suppressed']:10d}  {c['errors']:6d}")

    flagged = []
    for h in halves:
        if not any(sum(t.c.values()) for t in overall[h].values()):
            continue
        names = sorted(n for n, x in half_of.items() if x == h)
        print(f"\n######## {h.upper()} HALF ({len(names)} apps: {', '.join(names)}) ########")
        for b, title in TIERS:
            print(f"\n== {h} half, precision, {title}: TP / (TP + FP); debatable excluded ==")
            line, (tp, fp) = overall[h][b].line()
            total = sum(overall[h][b].c.values())
            deb = overall[h][b].c["debatable"]
            target = TARGETS[b]
            met = ""
            if h == "check" and tp + fp:
                ok = tp / (tp + fp) >= target and (deb <= 0.2 * total)
                met = f"   [target {int(target * 100)} %, debatable <= 20 %: {'met' if ok else 'NOT met'}]"
            print(f"{'overall':26s} {line}{met}")
            for name, t in sorted(per_app[h][b].items()):
                print(f"  {name:24s} {t.line()[0]}")
            print("  per rule:")
            for rule, t in sorted(per_rule[h][b].items()):
                text, (tp, fp) = t.line()
                total = sum(t.c.values())
                print(f"  {rule:18s} {text}")
                if total >= 5 and tp + fp and tp / (tp + fp) < 0.6:
                    flagged.append((h, rule, title, tp, fp, total))

    print("\n== Rules with 5 or more findings below 60 % precision ==")
    if not flagged:
        print("  none")
    for h, rule, title, tp, fp, total in flagged:
        print(f"  {h} half: {rule} ({title}): {tp} TP, {fp} FP of {total} findings")

    if recall:
        print("\n== Recall: weaknesses a reader listed by hand (Corpus/recall), found by the report ==")
        for h in halves:
            names = [n for n in recall if half_of[n] == h]
            if not names:
                continue
            total = collections.Counter()
            for name in names:
                t = recall[name]
                total.update(t)
                n = sum(t.values())
                print(f"  {h:6s} {name:22s} found {t['found']:3d} / {n:3d}   partly {t['partly']:3d}   missed {t['missed']:3d}")
            n = sum(total.values())
            share = f"{100.0 * total['found'] / n:5.1f} %" if n else "n/a"
            print(f"  {h:6s} {'all':22s} found {total['found']:3d} / {n:3d} = {share}   partly {total['partly']:3d}   missed {total['missed']:3d}"
                  + ("   [target 85 %]" if h == "check" else ""))

    print("\n== Judged findings no longer reported at medium or above in shipping code ==")
    print("  (FP gone: a fix; TP gone: a recall loss to explain; marked non-shipping or lowered to low/info counts as gone)")
    if not gone:
        print("  none")
    for verdict in ("TP", "debatable", "FP"):
        rows = [g for g in gone if g[2]["verdict"] == verdict]
        if rows:
            print(f"  {verdict} gone: {len(rows)}")
        if verdict == "FP" and rows and args.list_limit and len(rows) > args.list_limit:
            rows = rows[:args.list_limit]
        for name, fingerprint, v in rows:
            print(f"    {name:18s} {fingerprint}  {v['rule']}  {v['where']}")

    print("\n== Findings with no verdict yet ==")
    if not unjudged:
        print("  none")
    shown = collections.Counter()
    for name, b, f in unjudged:
        shown[(name, b)] += 1
        if args.list_limit and shown[(name, b)] > args.list_limit:
            continue
        loc = f["location"]
        print(f"  {name:18s} {f['severity']:8s} {f['fingerprint']}  {f['ruleId']}  {loc.get('path')}:{loc.get('line')}")
    for (name, b), n in sorted(shown.items()):
        if args.list_limit and n > args.list_limit:
            print(f"  {name}: {n - args.list_limit} more {b} findings without verdict not listed (--list-limit 0 lists all)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

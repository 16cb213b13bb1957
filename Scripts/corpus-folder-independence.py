#!/usr/bin/env python3
"""Findings must not depend on the folder scanned (issue 15 item 6), checked on the precision corpus.

Usage: corpus-folder-independence.py [--moat PATH] [--alone-json DIR] [--together-json FILE] CORPUS_DIR

Scans CORPUS_DIR as a whole and each app of Corpus/apps.json alone (or reads the reports: --alone-json
takes the folder `corpus-precision.py --json-dir` wrote, --together-json a report of the whole folder),
and compares each app's findings by rule, path inside the app, line, key path, severity and shipping
mark, related locations included. Prints what differs; exits 1 when something does, 0 when nothing does.
Fetches nothing and writes only the reports it is asked to keep.
"""
import argparse, json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def scan(moat, folder, out):
    proc = subprocess.run([moat, "scan", "--format", "json", "--no-cache", "--output", out, folder],
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if proc.returncode not in (0, 1):
        sys.stderr.write(proc.stderr.decode("utf-8", "replace")[-2000:])
        raise RuntimeError(f"moat exited {proc.returncode} on {folder}")
    with open(out, encoding="utf-8") as f:
        return json.load(f)


def shipping_mark(finding):
    return bool(finding.get("isTestCode") or finding.get("nonShipping") or finding.get("nonShippingReason")
                or finding.get("shipping") is False)


def rows(document, prefix):
    """Rows of the findings located under `prefix` (paths made relative to it)."""
    result = set()
    for finding in document.get("findings", []):
        loc = finding["location"]
        path = loc.get("path", "")
        if prefix and not path.startswith(prefix):
            continue
        related = tuple(sorted(f"{r['location'].get('path', '')[len(prefix):] if r['location'].get('path', '').startswith(prefix) else '(other app) ' + r['location'].get('path', '')}:{r['location'].get('line')}"
                               for r in finding.get("related", []) if r.get("location")))
        result.add((finding["ruleId"], path[len(prefix):], loc.get("line"), loc.get("keyPath") or "",
                    finding["severity"], shipping_mark(finding), related))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus_dir")
    parser.add_argument("--moat", default=os.path.join(ROOT, ".build", "debug", "moat"))
    parser.add_argument("--alone-json", help="folder with <app>.json reports of each app scanned alone")
    parser.add_argument("--together-json", help="report of the whole corpus folder (read if it exists, else written)")
    parser.add_argument("--include-low", action="store_true", help="compare low and info findings too (default: medium and above)")
    args = parser.parse_args()
    with open(os.path.join(ROOT, "Corpus", "apps.json"), encoding="utf-8") as f:
        apps = json.load(f)["apps"]
    present = [a for a in apps if os.path.isdir(os.path.join(args.corpus_dir, a["folder"]))]
    if not present:
        sys.stderr.write("no checkout found\n")
        return 2
    if args.together_json and os.path.exists(args.together_json):
        with open(args.together_json, encoding="utf-8") as f:
            together = json.load(f)
    else:
        out = args.together_json or tempfile.mkstemp(suffix=".json")[1]
        together = scan(args.moat, args.corpus_dir, out)
    differences = 0
    for app in present:
        if args.alone_json:
            with open(os.path.join(args.alone_json, app["name"] + ".json"), encoding="utf-8") as f:
                alone = json.load(f)
        else:
            alone = scan(args.moat, os.path.join(args.corpus_dir, app["folder"]), tempfile.mkstemp(suffix=".json")[1])
        keep = (lambda r: True) if args.include_low else (lambda r: r[4] in ("critical", "high", "medium"))
        a = {r for r in rows(alone, "") if keep(r)}
        t = {r for r in rows(together, app["folder"] + "/") if keep(r)}
        only_alone, only_together = sorted(a - t, key=str), sorted(t - a, key=str)
        status = "same" if not only_alone and not only_together else f"{len(only_alone)} only alone, {len(only_together)} only together"
        print(f"# {app['name']}: {len(a)} findings alone, {len(t)} together: {status}")
        for label, items in (("alone only", only_alone), ("together only", only_together)):
            for rule, path, line, key, severity, mark, related in items:
                extra = f" [{key}]" if key else ""
                ns = " non-shipping" if mark else ""
                rel = f" related: {', '.join(related)}" if related else ""
                print(f"  {label:13s} {rule} {severity}{ns} {path}:{line}{extra}{rel}")
        differences += len(only_alone) + len(only_together)
    print(f"\n{differences} difference(s)")
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Score a bench-weakened --dump of a single TSV on its tune and held halves, per language.

Usage: score-fresh-split.py TSV DUMP MIRROR [--tune-errors] [--scrub]
Split as scripts/bench-weakened: tune when the first byte of sha256(full 40-hex id) is even.
Rows with `?` in the doubt column are left out. Prints counts and precision/recall for plan-high
(a finding of confidence/severity high) and plan-any (weakened_tests not empty). --tune-errors
prints the findings of the tune half's wrong cases only; the held half is counted, never listed.
--scrub rewrites DUMP so each held case keeps only the sha256 of plan's output.
"""
import hashlib, json, subprocess, sys
from collections import defaultdict


def full_id(mirror, repo, sha):
    d = f"{mirror}/{repo}/repo"
    return subprocess.run(["git", "-C", d, "rev-parse", sha], capture_output=True, text=True,
                          check=True).stdout.strip()


def main():
    tsv, dump, mirror = sys.argv[1:4]
    rows = {}
    for line in open(tsv, encoding="utf-8"):
        if line.startswith("#") or not line.strip():
            continue
        f = line.rstrip("\n").split("\t")
        rows[(f[0], f[1])] = {"label": f[2], "lang": f[3], "what": f[4], "found": f[5],
                              "doubt": len(f) > 6 and f[6] == "?"}
    cases = [json.loads(l) for l in open(dump, encoding="utf-8")]
    table = defaultdict(lambda: defaultdict(int))
    wrong = []
    scrubbed = []
    for c in cases:
        row = rows[(c["repo"], c["sha"])]
        full = full_id(mirror, c["repo"], c["sha"])
        half = "tune" if hashlib.sha256(full.encode()).digest()[0] % 2 == 0 else "held"
        if half == "held" and "plan" in c:
            said = json.dumps(c["plan"], sort_keys=True)
            scrubbed.append({"set": "held", "repo": c["repo"], "sha": c["sha"],
                             "sha256": hashlib.sha256(said.encode()).hexdigest()})
        else:
            scrubbed.append(c)
        if row["doubt"]:
            continue
        plan = c.get("plan")
        if plan is None:
            continue
        parts = plan.get("findings") or []
        high = any((p.get("severity") or p.get("confidence")) == "high" for p in parts)
        anyw = bool(plan.get("weakened_tests"))
        for lang in (row["lang"], "all"):
            for pred, got in (("high", high), ("any", anyw)):
                t = table[(half, lang, pred)]
                t[("T" if got == (row["label"] == "W") else "F") + ("P" if got else "N")] += 1
        if half == "tune" and (high != (row["label"] == "W")):
            wrong.append((c, row, high, anyw))
    for half in ("tune", "held"):
        print(f"== {half}")
        print("lang pred   W  N   TP FP FN TN   precision recall")
        for lang in ("py", "rs", "go", "all"):
            for pred in ("high", "any"):
                t = table[(half, lang, pred)]
                tp, fp, fn, tn = t["TP"], t["FP"], t["FN"], t["TN"]
                p = f"{tp / (tp + fp):.2f}" if tp + fp else "-"
                r = f"{tp / (tp + fn):.2f}" if tp + fn else "-"
                print(f"{lang:4} {pred:5} {tp + fn:3} {fp + tn:2}  {tp:3} {fp:2} {fn:2} {tn:2}   {p:>9} {r:>6}")
    if "--tune-errors" in sys.argv:
        print("== tune errors (plan-high)")
        for c, row, high, anyw in wrong:
            kind = "false alarm" if high else "miss"
            print(f"-- {kind}: {c['repo']} {c['sha']} {row['label']} {row['lang']} ({row['found']}) {row['what']}")
            for w in c["plan"].get("weakened_tests") or []:
                print(f"   weakened: {w.get('path')}: {w.get('what')}")
            for p in c["plan"].get("findings") or []:
                print(f"   finding: {json.dumps(p, sort_keys=True)[:400]}")
    if "--scrub" in sys.argv:
        with open(dump, "w", encoding="utf-8") as out:
            for c in scrubbed:
                out.write(json.dumps(c, sort_keys=True) + "\n")


if __name__ == "__main__":
    main()

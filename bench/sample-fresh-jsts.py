#!/usr/bin/env python3
"""Sample test-touching commits for bench/fresh-jsts.tsv (seeded, reproducible).

Usage: sample-fresh-jsts.py MIRROR OWNER+REPO [N_ORDINARY] [N_MESSAGE] [N_TOKEN]
Prints candidate rows: sha12, found, lang (ts when a test file touched is TypeScript, else js),
lines +/- in test files, subject. The three kinds, each drawn with random.Random(SEED), SEED 80
unless the SEED variable of the environment says otherwise (bench/fresh-mix3.tsv: SEED=121):
  ordinary  non-merge commits since 2022-01-01 that delete lines from a test file;
  message   non-merge commits of any date that delete lines from a test file and whose subject
            holds one of WORDS;
  token     commits of any date found by `git log -G TOKENS` that delete lines from a test file,
            drawn after the other two.
A test file is a JS/TS source named *.test.* or *.spec.*, or one under __tests__/, test/ or tests/.
Commits of more than 1500 changed lines are left out (too large to label by reading).
"""
import os, random, re, subprocess, sys

TOKENS = r"\.skip\(|\.only\(|\bxit\(|\bxdescribe\(|\.todo\(|it\.skipIf|test\.skipIf"
WORDS = re.compile(r"\b(skip\w*|flak\w*|disabl\w*|relax\w*|loosen\w*|xfail\w*|ignor\w*|todo)\b", re.I)
SOURCE = re.compile(r"\.(c|m)?(j|t)sx?$")
SINCE = 1640995200  # 2022-01-01 UTC


def git(d, *a):
    return subprocess.run(["git", "-C", d, *a], capture_output=True, text=True, check=True).stdout


def is_test(path):
    if not SOURCE.search(path) or "node_modules/" in path:
        return False
    base = os.path.basename(path)
    parts = path.split("/")[:-1]
    return (".test." in base or ".spec." in base
            or any(p in ("__tests__", "test", "tests") for p in parts))


def main():
    mirror, repo = sys.argv[1:3]
    n_ord = int(sys.argv[3]) if len(sys.argv) > 3 else 10
    n_msg = int(sys.argv[4]) if len(sys.argv) > 4 else 5
    n_tok = int(sys.argv[5]) if len(sys.argv) > 5 else 3
    d = os.path.join(mirror, repo, "repo")
    if not os.path.isdir(d):
        d = os.path.join(mirror, repo)
    log = git(d, "log", "--no-merges", "--format=@%H\t%ct\t%s", "--numstat", "HEAD")
    pool, cur = [], None
    for line in log.splitlines():
        if line.startswith("@"):
            sha, ct, subj = line[1:].split("\t", 2)
            cur = {"sha": sha, "ct": int(ct), "subj": subj, "files": []}
            pool.append(cur)
        elif line.strip() and cur is not None:
            a, r, p = line.split("\t", 2)
            if a != "-":
                cur["files"].append((int(a), int(r), p))
    rng = random.Random(int(os.environ.get("SEED", "80")))
    out = []

    def ok(c):
        total = sum(a + r for a, r, _ in c["files"])
        if total > 1500 or total == 0:
            return None
        tf = [(a, r, p) for a, r, p in c["files"] if r > 0 and is_test(p)]
        if not tf:
            return None
        lang = "ts" if any(re.search(r"\.(c|m)?tsx?$", p) for _, _, p in tf) else "js"
        return lang, sum(a for a, _, _ in tf), sum(r for _, r, _ in tf)

    def draw(cands, kind, n):
        seen = {o[0] for o in out}
        cands = [c for c in cands if c["sha"] not in seen]
        rng.shuffle(cands)
        k = 0
        for c in cands:
            if k >= n:
                break
            s = ok(c)
            if s:
                out.append((c["sha"], kind, s, c["subj"]))
                k += 1

    draw([c for c in pool if c["ct"] >= SINCE], "ordinary", n_ord)
    draw([c for c in pool if WORDS.search(c["subj"])], "message", n_msg)
    if n_tok:
        hits = set(git(d, "log", "--no-merges", "--format=%H", "-G", TOKENS, "HEAD").split())
        draw([c for c in pool if c["sha"] in hits], "token", n_tok)
    for sha, found, (lang, a, r), subj in out:
        print(f"{repo}\t{sha[:12]}\t{found}\t{lang}\t+{a}/-{r}\t{subj}")


if __name__ == "__main__":
    main()

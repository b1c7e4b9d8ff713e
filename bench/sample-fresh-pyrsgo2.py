#!/usr/bin/env python3
"""Sample test-touching commits for bench/fresh-pyrsgo2.tsv (seeded, reproducible).

Usage: sample-fresh-pyrsgo2.py MIRROR OWNER+REPO LANG [N_ORDINARY] [N_MESSAGE] [N_TOKEN]
LANG is py, rs or go. Prints candidate rows: repo, sha12, found, lines +/- in test files, subject.
The three kinds, each drawn with random.Random(SEED), SEED 87 unless the SEED variable of
the environment says otherwise (bench/fresh-mix3.tsv: SEED=121):
  ordinary  non-merge commits since 2022-01-01 that delete lines from a test file;
  message   non-merge commits of any date that delete lines from a test file and whose subject
            holds one of WORDS;
  token     commits of any date found by `git log -G TOKENS[LANG]` that delete lines from a test
            file, drawn after the other two.
A test file is: py  a .py file named test_*.py, *_test.py or conftest.py, or one under tests/;
                rs  a .rs file under tests/, or one whose parent version holds #[test],
                    #[tokio::test] or #[cfg(test)];
                go  a *_test.go file.
Commits of more than 1500 changed lines are left out (too large to label by reading).
"""
import os, random, re, subprocess, sys

TOKENS = {
    "py": r"pytest\.(mark\.)?(skip|skipif|xfail)|unittest\.skip",
    "rs": r"#\[ignore",
    "go": r"t\.Skip",
}
WORDS = re.compile(r"\b(skip\w*|flak\w*|disabl\w*|relax\w*|loosen\w*|xfail\w*|ignor\w*|todo)\b", re.I)
SINCE = 1640995200  # 2022-01-01 UTC
SEED = int(os.environ.get("SEED", "87"))
MAX_LINES = 1500


def git(d, *a):
    return subprocess.run(["git", "-C", d, *a], capture_output=True, text=True, check=True).stdout


def is_test(d, sha, path, lang):
    base = os.path.basename(path)
    if lang == "py":
        return path.endswith(".py") and (base.startswith("test_") or base.endswith("_test.py")
                                         or "/tests/" in "/" + path or base == "conftest.py")
    if lang == "go":
        return path.endswith("_test.go")
    if lang == "rs":
        if not path.endswith(".rs"):
            return False
        if "/tests/" in "/" + path:
            return True
        try:
            body = git(d, "show", f"{sha}^:{path}")
        except subprocess.CalledProcessError:
            return False
        return "#[test]" in body or "#[tokio::test]" in body or "#[cfg(test)]" in body
    return False


def main():
    mirror, repo, lang = sys.argv[1:4]
    n_ord = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    n_msg = int(sys.argv[5]) if len(sys.argv) > 5 else 5
    n_tok = int(sys.argv[6]) if len(sys.argv) > 6 else 3
    d = os.path.join(mirror, repo, "repo")
    if not os.path.isdir(d):
        d = os.path.join(mirror, repo)
    log = git(d, "log", "--no-merges", "--format=@%H\t%ct\t%s", "--numstat", "HEAD")
    pool = []
    cur = None
    for line in log.splitlines():
        if line.startswith("@"):
            sha, ct, subj = line[1:].split("\t", 2)
            cur = {"sha": sha, "ct": int(ct), "subj": subj, "files": []}
            pool.append(cur)
        elif line.strip() and cur is not None:
            a, r, p = line.split("\t", 2)
            if a != "-":
                cur["files"].append((int(a), int(r), p))
    rng = random.Random(SEED)
    out = []

    def ok(c):
        total = sum(a + r for a, r, _ in c["files"])
        if total > MAX_LINES or total == 0:
            return None
        tf = [(a, r, p) for a, r, p in c["files"] if r > 0 and is_test(d, c["sha"], p, lang)]
        if not tf:
            return None
        return sum(a for a, _, _ in tf), sum(r for _, r, _ in tf)

    def draw(cands, found, n):
        cands = list(cands)
        rng.shuffle(cands)
        k = 0
        for c in cands:
            if k >= n:
                break
            s = ok(c)
            if s:
                out.append((c["sha"], found, s, c["subj"]))
                k += 1

    draw([c for c in pool if c["ct"] >= SINCE], "ordinary", n_ord)
    seen = {o[0] for o in out}
    draw([c for c in pool if WORDS.search(c["subj"]) and c["sha"] not in seen], "message", n_msg)
    if n_tok:
        seen = {o[0] for o in out}
        hits = set(git(d, "log", "--no-merges", "--format=%H", "-G", TOKENS[lang], "HEAD").split())
        draw([c for c in pool if c["sha"] in hits and c["sha"] not in seen], "token", n_tok)
    for sha, found, (a, r), subj in out:
        print(f"{repo}\t{sha[:12]}\t{found}\t+{a}/-{r}\t{subj}")


if __name__ == "__main__":
    main()

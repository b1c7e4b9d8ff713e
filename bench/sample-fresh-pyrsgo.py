#!/usr/bin/env python3
"""Sample test-touching commits for bench/fresh-pyrsgo.tsv (seeded, reproducible).

Usage: sample-fresh-pyrsgo.py MIRROR OWNER+REPO LANG [N_ORDINARY] [N_MESSAGE] [N_TOKEN]
Prints candidate rows: sha12, found (ordinary/message), lines +/- in test files, subject.
ordinary: non-merge commits since 2022-01-01 that delete lines from a test file, sampled with
random.Random(76); message: non-merge commits of any date that delete lines from a test file and
whose subject holds one of the words below, sampled likewise.
token: commits of any date, found by `git log -G` on the language's skip tokens (TOKENS), that
delete lines from a test file, sampled likewise after the other two.
Commits touching more than 1500 changed lines are left out (too large to label by reading).
"""
import os, random, re, subprocess, sys

TOKENS = {
    "py": r"pytest\.(mark\.)?(skip|xfail)|importorskip|unittest\.skip",
    "rs": r"#\[ignore|cfg_attr\(.*ignore",
    "go": r"t\.Skip|testing\.Short\(\)",
}
WORDS = re.compile(r"\b(skip\w*|flak\w*|disabl\w*|relax\w*|loosen\w*|xfail\w*|ignor\w*)\b", re.I)


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
        if "tests/" in path.split("/", 1)[0] + "/" or "/tests/" in "/" + path:
            return True
        try:
            body = git(d, "show", f"{sha}^:{path}")
        except subprocess.CalledProcessError:
            return False
        return "#[test]" in body or "#[tokio::test]" in body
    return False


def main():
    mirror, repo, lang = sys.argv[1:4]
    n_ord = int(sys.argv[4]) if len(sys.argv) > 4 else 10
    n_msg = int(sys.argv[5]) if len(sys.argv) > 5 else 5
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
    rng = random.Random(76)
    out = []

    def ok(c):
        total = sum(a + r for a, r, _ in c["files"])
        if total > 1500 or total == 0:
            return None
        tf = [(a, r, p) for a, r, p in c["files"] if r > 0 and is_test(d, c["sha"], p, lang)]
        if not tf:
            return None
        return sum(a for a, _, _ in tf), sum(r for _, r, _ in tf)

    order = [c for c in pool if c["ct"] >= 1640995200]
    rng.shuffle(order)
    for c in order:
        if len([o for o in out if o[1] == "ordinary"]) >= n_ord:
            break
        s = ok(c)
        if s:
            out.append((c["sha"], "ordinary", s, c["subj"]))
    seen = {o[0] for o in out}
    msg = [c for c in pool if WORDS.search(c["subj"]) and c["sha"] not in seen]
    rng.shuffle(msg)
    k = 0
    for c in msg:
        if k >= n_msg:
            break
        s = ok(c)
        if s:
            out.append((c["sha"], "message", s, c["subj"]))
            k += 1
    n_tok = int(sys.argv[6]) if len(sys.argv) > 6 else 0
    if n_tok:
        seen = {o[0] for o in out}
        hits = git(d, "log", "--no-merges", "--format=%H", "-G", TOKENS[lang], "HEAD").split()
        cand = [c for c in pool if c["sha"] in set(hits) and c["sha"] not in seen]
        rng.shuffle(cand)
        k = 0
        for c in cand:
            if k >= n_tok:
                break
            s = ok(c)
            if s:
                out.append((c["sha"], "token", s, c["subj"]))
                k += 1
    for sha, found, (a, r), subj in out:
        print(f"{repo}\t{sha[:12]}\t{found}\t+{a}/-{r}\t{subj}")


if __name__ == "__main__":
    main()

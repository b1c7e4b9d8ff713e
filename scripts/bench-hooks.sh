#!/usr/bin/env bash
# Times every hook event, `plan inject` and `plan statusline` on generated 20, 200,
# 1,000 and 5,000-goal plans (half of them proven done goals with real transcripts,
# archived; BENCH_LIVE_DONE=1 keeps them live),
# with plan.md unchanged since the last hook and just changed, side by side with a
# hello-world binary (the process-start floor) and `cat plan.md`. Prints medians,
# ratios and peak RSS (scripts/bench-hooks.py says how it measures).
#
# Usage: scripts/bench-hooks.sh [path/to/plan]          the hook benchmark
#        scripts/bench-hooks.sh --containment [path/to/containment]
#            the judge's containment snapshot against two `git status --porcelain
#            --ignored` on a generated 20,000-file repository with a 50,000-file
#            ignored target/ (slow to generate; keep it out of CI)
# Honours CARGO_TARGET_DIR. BENCH_SIZES=20,200 and BENCH_ROUNDS=50 shorten a run.
# BENCH_VS=path/to/other/plan runs a second build's every command in the same
# shuffled rounds and prints its median over this one's, per command (a build
# setting's cost to the hooks, under one load).
# "Just changed" adds one of plan's log lines to plan.md before every run, where
# plan writes it: plans are laid out as `plan archive` writes them (`## Log`, then
# `## Archive`), so the line lands mid-file; BENCH_LAYOUT=archive-first puts the
# archive before the log instead, so it lands at the end. BENCH_CHANGE=touch only
# moves plan.md's file times instead.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
target=${CARGO_TARGET_DIR:-$here/target}
case "$target" in /*) ;; *) target=$here/$target ;; esac
for tool in python3 git rustc; do
    command -v "$tool" >/dev/null || { echo "bench: needs $tool" >&2; exit 3; }
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT

if [ "${1:-}" = "--containment" ]; then
    bin=${2:-$target/release/examples/containment}
    [ -n "${2:-}" ] || (cd "$here" && nice -n 10 cargo build --release --quiet --example containment)
    command -v hyperfine >/dev/null || { echo "bench: needs hyperfine" >&2; exit 3; }
    repo=$scratch/big
    mkdir -p "$repo" && cd "$repo" && git init -q .
    echo "generating 20,000 tracked files and a 50,000-file ignored target/" >&2
    python3 - <<'PY'
import os
for d in range(200):
    os.makedirs(f"src/m{d}", exist_ok=True)
    for f in range(100):
        with open(f"src/m{d}/f{f}.rs", "w") as fh:
            fh.write(f"pub fn f{d}_{f}() -> u32 {{ {f} }}\n")
for d in range(500):
    os.makedirs(f"target/debug/deps/d{d}", exist_ok=True)
    for f in range(100):
        with open(f"target/debug/deps/d{d}/o{f}.o", "w") as fh:
            fh.write("x" * 64)
with open(".gitignore", "w") as fh:
    fh.write("/target\n")
PY
    git add -A >/dev/null && git -c user.name=b -c user.email=b@b commit -qm init
    git status --porcelain --ignored >/dev/null # a fresh index stat cache for both
    hyperfine --warmup 2 --runs 10 --export-json "$scratch/c.json" \
        -n 'two git status --porcelain --ignored' 'git status --porcelain --ignored >/dev/null; git status --porcelain --ignored >/dev/null' \
        -n 'containment snapshot (before + after)' "$bin ." >/dev/null
    python3 - "$scratch/c.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
base = r[0]["median"]
for x in r:
    ratio = f"{x['median'] / base:.2f}" if base > 0 else "n/a"
    print(f"{x['command']:<40} {x['median'] * 1000:9.1f} ms  x{ratio}")
PY
    exit 0
fi

plan=${1:-$target/release/plan}
[ -n "${1:-}" ] || (cd "$here" && nice -n 10 cargo build --release --quiet)
[ -x "$plan" ] || { echo "bench: no plan binary at $plan" >&2; exit 3; }
printf 'fn main() {\n    println!("hello");\n}\n' > "$scratch/hello.rs"
rustc -C opt-level=3 -o "$scratch/hello" "$scratch/hello.rs"
python3 "$here/scripts/bench-hooks.py" "$(cd "$(dirname "$plan")" && pwd)/$(basename "$plan")" "$scratch/hello" "$scratch"

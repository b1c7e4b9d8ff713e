#!/usr/bin/env bash
# Times each hook against `cat plan.md` on a 20-goal and a 5,000-goal plan, with
# hyperfine, in a scratch repository. Usage: scripts/bench-hooks.sh [path/to/plan]
# (default: target/release/plan, built if missing). Prints medians; quote
# them and their ratios to `cat`.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
plan=${1:-$here/target/release/plan}
[ -x "$plan" ] || (cd "$here" && cargo build --release --quiet)
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 3; }

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cd "$scratch"
git init -q .

generate() { # N goals, one active
    printf '# Plan: Benchmark\n\n'
    for i in $(seq 1 "$1"); do
        status=done; [ "$i" -eq 1 ] && status=active; [ "$i" -eq 2 ] && status=open
        printf '## Goal: Goal %s with a realistic title\n<!-- id: goal-%s -->\nstatus: %s\n' "$i" "$i" "$status"
        printf 'done_when: the thing %s works and p95 < 50ms\nverify: cargo test -p c%s\n' "$i" "$i"
        printf 'failure_modes:\n- cache bypassed\n- verify passes on a trivial test\n- [x] one\n- [ ] two\n\n'
    done
    printf '## Log\n'
    for i in $(seq 1 "$1"); do printf -- '- 2026-06-15 14:02 goal-%s signed off (verify passed, judge accept)\n' "$i"; done
}

payload() { # event-specific Claude payload
    printf '{"session_id":"bench","cwd":"%s","hook_event_name":"%s","tool_name":"Write","tool_input":{"file_path":"%s/src/x.rs"},"source":"startup","stop_hook_active":false}' \
        "$scratch" "$1" "$scratch"
}

for goals in 20 5000; do
    generate "$goals" > plan.md
    echo "== $goals goals: plan.md is $(wc -c < plan.md) bytes"
    payload SessionStart > start.json
    payload UserPromptSubmit > prompt.json
    payload PostToolUse > tool.json
    payload Stop > stop.json
    "$plan" goal --budget 1000000 >/dev/null
    # hyperfine runs each through a shell (for the `<` redirections) and subtracts
    # the shell's own start-up, as it does for the `cat` baseline.
    hyperfine --warmup 20 --runs 200 --export-json "bench-$goals.json" \
        -n 'cat plan.md' 'cat plan.md' \
        -n 'session-start' "$plan hook claude session-start < start.json" \
        -n 'user-prompt-submit' "$plan hook claude user-prompt-submit < prompt.json" \
        -n 'post-tool-use' "$plan hook claude post-tool-use < tool.json" \
        -n 'stop (loop running)' "$plan hook claude stop < stop.json" \
        -n 'statusline' "$plan statusline" >/dev/null
    python3 - "bench-$goals.json" <<'PY'
import json, sys
results = json.load(open(sys.argv[1]))["results"]
base = results[0]["median"]
print(f"{'command':<22} {'median ms':>10} {'x cat':>7}")
for r in results:
    print(f"{r['command']:<22} {r['median'] * 1000:>10.2f} {r['median'] / base:>7.2f}")
PY
done

#!/usr/bin/env python3
"""The hook benchmark behind scripts/bench-hooks.sh: generates plans, runs every
hook side by side with a hello-world binary and `cat plan.md`, prints medians and
ratios. Run through the .sh wrapper, which builds what it needs.

Each round runs every command once, in a shuffled order, so load from other
processes falls on all of them alike; medians are over rounds. A command is one
posix_spawn with stdin from a file and a wait4, timed around both, so every
command pays the same spawn cost the floor pays. Peak RSS is GNU time's %M over
a few more runs (wait4 from Python would count the forking interpreter's pages).
"""

import hashlib
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time

HEADER = "# Sign-off record: "


def blob_id(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def goal_contract(i: int) -> str:
    return (
        f"done_when: the thing {i} works and p95 < 50ms on bench-{i}\n"
        f"verify: cargo test -p c{i}\n"
        "failure_modes:\n- cache silently bypassed\n- verify passes on a trivial test\n"
    )


def transcript(i: int, contract_id: str) -> str:
    # Header as src/plan/proof.rs renders it, then a body of a realistic size.
    head = (
        f"{HEADER}goal-{i}\n\n- goal: goal-{i}\n- contract: {contract_id}\n"
        "- verdict: accept\n- judge: claude:opus\n- prompt overrides: none\n"
        "- when: 2026-06-15 15:02\n- allow-ignored: no\n\n## Contract as judged\n\n"
        f"## Goal: Goal {i}\n{goal_contract(i)}\n## Contract history\n\n- created\n\n## Judge\n\n"
        "- backend: claude\n- model: opus\n\n### The judge's answer\n\n````text\n"
        '{"type":"result","subtype":"success","is_error":false,"result":"VERDICT: accept\\nmissing: none"}\n'
        "````\n\n## Notes\n\n"
    )
    body = "".join(f"The judge read src/c{i}/file{k}.rs and found it does what it says.\n" for k in range(100))
    return head + body


def generate(root: str, n: int) -> None:
    """n goals: goal-1 active, n/2 proven done goals (archived), the rest open."""
    done = range(2, n // 2 + 2)
    judge = os.path.join(root, ".plan", "judge")
    os.makedirs(judge, exist_ok=True)
    for name in os.listdir(judge):
        os.remove(os.path.join(judge, name))
    goals, archived, log = [], [], []
    live_done = os.environ.get("BENCH_LIVE_DONE") == "1"
    for i in range(1, n + 1):
        status = "active" if i == 1 else "done" if i in done else "open"
        contract = goal_contract(i)
        # `plan archive` moves proven goals under `## Archive`; BENCH_LIVE_DONE=1
        # keeps them live, so every hook must check each one's transcript.
        (archived if status == "done" and not live_done else goals).append(
            f"## Goal: Goal {i} with a realistic title about caching\n<!-- id: goal-{i} -->\n"
            f"status: {status}\n{contract}- [x] wire the client for {i}\n"
            f"- [x] measure it\n- [ ] eviction policy for {i}\n\n"
        )
        log.append(f"- 2026-06-15 14:02 goal-{i} added (contract {blob_id(contract.encode())[:8]})\n")
        if status == "done":
            cid = blob_id(contract.encode())
            text = transcript(i, cid).encode()
            with open(os.path.join(judge, f"goal-{i}.md"), "wb") as f:
                f.write(text)
            log.append(
                f"- 2026-06-15 15:02 goal-{i} signed off (verify passed, judge claude:opus accept, "
                f"contract {cid[:8]}): .plan/judge/goal-{i}.md#{blob_id(text)[:12]}\n"
            )
    with open(os.path.join(root, "plan.md"), "w") as f:
        archive = "## Archive\n\n" + "".join(archived) if archived else ""
        head = "# Plan: Benchmark the hooks\n\n" + "".join(goals)
        if archive_first():
            f.write(head + archive + "## Log\n" + "".join(log))
        else:
            # As `plan archive` writes it: the log, then the archive, so a new log
            # line lands mid-file.
            f.write(head + "## Log\n" + "".join(log) + ("\n" + archive if archive else ""))


def archive_first() -> bool:
    """BENCH_LAYOUT=archive-first lays `## Archive` before `## Log` (a layout plan
    never writes itself, where an appended log line lands at the file's end);
    the default is plan's own."""
    layout = os.environ.get("BENCH_LAYOUT", "plan")
    if layout not in ("plan", "archive-first"):
        sys.exit(f"bench: BENCH_LAYOUT={layout}: expected plan or archive-first")
    return layout == "archive-first"


def add_log_line(plan_md: str, line: str) -> None:
    """One of plan's log lines where plan would write it: the end of `## Log`."""
    with open(plan_md, "rb") as f:
        text = f.read()
    at = text.find(b"\n\n## Archive\n")
    if at < 0:
        with open(plan_md, "ab") as f:
            f.write(line.encode())
        return
    at += 1
    with open(plan_md, "r+b") as f:
        f.seek(at)
        f.write(line.encode() + text[at:])


def payload(root: str, event: str) -> str:
    return json.dumps(
        {
            "session_id": "bench",
            "cwd": root,
            "hook_event_name": event,
            "tool_name": "Write",
            "tool_input": {"file_path": f"{root}/src/x.rs"},
            "source": "resume",
            "stop_hook_active": False,
        }
    )


def spawn(argv, stdin_path, cwd):
    """Wall seconds of one run."""
    actions = [
        (os.POSIX_SPAWN_OPEN, 0, stdin_path, os.O_RDONLY, 0),
        (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
        (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
    ]
    here = os.getcwd()
    os.chdir(cwd)
    try:
        t0 = time.perf_counter_ns()
        pid = os.posix_spawn(argv[0], argv, os.environ, file_actions=actions)
        _, status = os.waitpid(pid, 0)
        t1 = time.perf_counter_ns()
    finally:
        os.chdir(here)
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"bench: {' '.join(argv)} exited {os.waitstatus_to_exitcode(status)}")
    return (t1 - t0) / 1e9


def peak_rss(argv, stdin_path, cwd):
    """Peak RSS in KiB, as GNU time reports it."""
    with open(stdin_path) as stdin:
        out = subprocess.run(["/usr/bin/time", "-f", "%M", *argv], stdin=stdin, cwd=cwd,
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    return int(out.stderr.strip().splitlines()[-1])


def ratio(a, b):
    return f"{a / b:6.2f}" if b > 0 else "   n/a"


def run(commands, rounds, cwd):
    """commands: name -> (argv, stdin, prepare). Medians in seconds, max RSS."""
    times = {name: [] for name in commands}
    rss = {name: 0 for name in commands}
    names = list(commands)
    for r in range(rounds + 3):
        random.shuffle(names)
        for name in names:
            argv, stdin, prepare = commands[name]
            if prepare:
                prepare()
            t = spawn(argv, stdin, cwd)
            if r >= 3:  # the first rounds warm the page cache and plan's cache
                times[name].append(t)
    for name in names:
        argv, stdin, prepare = commands[name]
        for _ in range(3):
            if prepare:
                prepare()
            rss[name] = max(rss[name], peak_rss(argv, stdin, cwd))
    return {n: statistics.median(v) for n, v in times.items()}, rss


def main():
    plan, hello, scratch = sys.argv[1:4]
    sizes = [int(s) for s in os.environ.get("BENCH_SIZES", "20,200,1000,5000").split(",")]
    rounds = int(os.environ.get("BENCH_ROUNDS", "200"))
    root = os.path.join(scratch, "repo")
    os.makedirs(root)
    subprocess.run(["git", "init", "-q", root], check=True)
    events = ["session-start", "user-prompt-submit", "post-tool-use", "pre-compact", "stop"]
    names = {e: {"session-start": "SessionStart", "user-prompt-submit": "UserPromptSubmit",
                 "post-tool-use": "PostToolUse", "pre-compact": "PreCompact", "stop": "Stop"}[e]
             for e in events}
    empty = os.path.join(scratch, "empty")
    open(empty, "w").close()
    plan_md = os.path.join(root, "plan.md")
    changed_medians = {}
    print(f"layout: {'archive before log' if archive_first() else 'plan archive (log before archive)'}")
    print(f"{'goals':>5} {'case':<9} {'command':<20} {'median ms':>9} {'x hello':>7} {'x cat':>6} {'RSS MiB':>7}")
    for n in sizes:
        generate(root, n)
        # A stop hook in a running loop, so every run takes the blocking path. One loop for the whole run, with a budget and a stall limit no run spends:
        # `plan goal` logs a restart in plan.md, which would make every run after it
        # a "just changed" one.
        os.makedirs(os.path.join(root, ".plan"), exist_ok=True)
        with open(os.path.join(root, ".plan", "config.yaml"), "w") as f:
            f.write("loop:\n  budget: 1000000\n  stall_limit: 1000000\n")
        subprocess.run([plan, "goal", "--budget", "1000000"], cwd=root,
                       stdout=subprocess.DEVNULL, check=True)

        def restart():
            # Claimed by the session at once, as a real session's next hook would:
            # otherwise whichever hook runs next pays the claim's write.
            with open(os.path.join(scratch, "user-prompt-submit.json")) as stdin:
                subprocess.run([plan, "hook", "claude", "user-prompt-submit"], cwd=root,
                               stdin=stdin, stdout=subprocess.DEVNULL, check=True)
        for event in events:
            with open(os.path.join(scratch, f"{event}.json"), "w") as f:
                f.write(payload(root, names[event]))
        restart()
        state = subprocess.run([plan, "statusline"], cwd=root, capture_output=True, text=True).stdout
        if "unproven" in state:
            sys.exit(f"bench: the generated sign-offs do not prove: {state}")
        for event in events:
            with open(os.path.join(scratch, f"{event}.json"), "w") as f:
                f.write(payload(root, names[event]))
        size = os.path.getsize(plan_md)
        for case in ["unchanged", "changed"]:
            if case == "unchanged":
                # Older than the cache's trust margin: what a hook sees between edits.
                time.sleep(2.2)
            # "changed": plan's own log line added before every run (what a hook
            # sees most after an edit); BENCH_CHANGE=touch only moves the file times,
            # the content staying the same.
            def append():
                add_log_line(plan_md, "- 2026-06-15 16:00 goal-1 wired the client\n")
            how = append if os.environ.get("BENCH_CHANGE", "append") == "append" else (lambda: os.utime(plan_md))
            touch = how if case == "changed" else None
            commands = {
                "hello": ([hello], empty, None),
                "cat plan.md": (["/bin/cat", "plan.md"], empty, None),
                "inject": ([plan, "inject"], empty, touch),
                "statusline": ([plan, "statusline"], empty, touch),
            }
            for event in events:
                stdin = os.path.join(scratch, f"{event}.json")
                prepare = touch
                if event == "stop":
                    prepare = (lambda t=touch: (restart(), t and t()))
                commands[event] = ([plan, "hook", "claude", event], stdin, prepare)
            # BENCH_VS: a second build of plan, its every command in the same shuffled
            # rounds, so the two compare under the same load (a build setting's cost).
            other = os.environ.get("BENCH_VS")
            if other:
                for name in [c for c in commands if c not in ("hello", "cat plan.md")]:
                    argv, stdin, prepare = commands[name]
                    commands[f"{name} (vs)"] = ([other, *argv[1:]], stdin, prepare)
            medians, rss = run(commands, rounds if n <= 1000 else max(rounds // 2, 20), root)
            floor, cat = medians["hello"], medians["cat plan.md"]
            for name in commands:
                m = medians[name]
                print(f"{n:>5} {case:<9} {name:<20} {m * 1000:>9.3f} {ratio(m, floor)} {ratio(m, cat)} {rss[name] / 1024:>7.1f}")
            if other:
                for name in [c for c in commands if c.endswith(" (vs)")]:
                    base = name[: -len(" (vs)")]
                    print(f"{n:>5} {case:<9} {base + ' vs/this':<20} {ratio(medians[name], medians[base])}")
            worst = max((medians[c] for c in commands if c not in ("hello", "cat plan.md") and not c.endswith(" (vs)")))
            print(f"{n:>5} {case:<9} {'worst hook':<20} {worst * 1000:>9.3f} {ratio(worst, floor)}   plan.md {size} B")
            if case == "changed":
                changed_medians[n] = (worst, floor)
    if 1000 in changed_medians and 5000 in changed_medians:
        (a, fa), (b, fb) = changed_medians[1000], changed_medians[5000]
        print(f"growth 1,000 -> 5,000 goals, changed plan: exponent {math.log(b / a) / math.log(5):.2f} (raw),", end=" ")
        above_a, above_b = a - fa, b - fb
        if above_a > 0 and above_b > 0:
            print(f"{math.log(above_b / above_a) / math.log(5):.2f} (above the floor)")
        else:
            print("n/a above the floor")


if __name__ == "__main__":
    main()

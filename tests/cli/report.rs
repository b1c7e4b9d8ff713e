//! `plan report`: the morning report of a loop's run, or of everything since a time
//! or revision, told from plan.md's log events, the loop's journal and its state:
//! for a terminal, as Markdown (a notification, a pull request comment) and as JSON.

use serde_json::Value;

use crate::util::{Run, Test, redact, shown};

const PLAN: &str = "# Plan: Night

## Goal: Ship it
<!-- id: ship -->
status: open
done_when: README.md exists
verify: test -f README.md

## Goal: Cache layer
<!-- id: cache -->
status: open
done_when: src/cache.rs exists
verify: test -f src/cache.rs

## Goal: Old API
<!-- id: api -->
status: open
done_when: api.md exists
verify: test -f api.md
- [x] write the client
- [ ] retry on timeouts

## Goal: Legacy
<!-- id: legacy -->
status: open
done_when: the old endpoints are gone

## Goal: Docs
<!-- id: docs -->
status: open
done_when: docs/index.md documents the cache

## Goal: Notes
<!-- id: notes -->
status: open
done_when: NOTES.md exists

## Goal: Extra
<!-- id: extra -->
status: open
done_when: something more
depends_on: docs

## Log
";

/// The loop's journal, in the shape `plan`'s stop hook writes it under a fixed
/// clock: one loop that ended before this one, then this one's continuations (the
/// third from a journal before continuations named their goal), a goal that spent
/// its budget, and the end.
const JOURNAL: &str = r#"{"at":"2026-06-15 13:00","event":"loop_let_go","session":"s0","reason":"no_work","why":"no goal is active or ready to start","ended":true}
{"at":"2026-06-15 14:05","event":"loop_continued","session":"s1","continuation":1,"budget":10,"goals":"ship (check done_when, then sign it off)","goal":"ship"}
{"at":"2026-06-15 14:15","event":"loop_continued","session":"s1","continuation":2,"budget":10,"goals":"cache (check done_when, then sign it off)","goal":"cache"}
{"at":"2026-06-15 14:25","event":"loop_continued","session":"s1","continuation":3,"budget":10,"goals":"cache (check done_when, then sign it off); docs"}
{"at":"2026-06-15 14:45","event":"loop_continued","session":"s1","continuation":4,"budget":10,"goals":"docs (check done_when, then sign it off)","goal":"docs"}
{"at":"2026-06-15 14:55","event":"loop_continued","session":"s1","continuation":5,"budget":10,"goals":"docs (check done_when, then sign it off)","goal":"docs"}
{"at":"2026-06-15 15:05","event":"loop_continued","session":"s1","continuation":6,"budget":10,"goals":"docs (check done_when, then sign it off)","goal":"docs"}
{"at":"2026-06-15 15:06","event":"goal_budget_limited","session":"s1","goal":"docs","continuations":3}
{"at":"2026-06-15 15:20","event":"loop_let_go","session":"s1","reason":"goal_budget","why":"every goal left spent its budget without a sign-off: docs (`plan goal rearm ID` gives one a new budget)","ended":true}
"#;

/// The loop's state as `plan goal` and the stop hook leave it, with the tokens its
/// transcript reported.
const LOOP: &str = r#"{
  "budget": 10,
  "used": 6,
  "paused": false,
  "owner": "s1",
  "stalls": 0,
  "last_hash": null,
  "started": "2026-06-15 14:00",
  "ended": "every goal left spent its budget without a sign-off: docs (`plan goal rearm ID` gives one a new budget)",
  "tokens": 1234567,
  "token_budget": null,
  "transcript": {"path": "/tmp/s1.jsonl", "dev": 1, "ino": 2, "offset": 4096}
}"#;

/// `plan ARGS` at `time` on 2026-06-15.
fn at(t: &Test, time: &str, args: &[&str]) -> Run {
    let out = t
        .cmd(args)
        .env("PLAN_NOW", format!("2026-06-15T{time}"))
        .output()
        .unwrap();
    Run::from(out, args)
}

fn complete(t: &Test, time: &str, id: &str, path: &str) -> Run {
    at(
        t,
        time,
        &[
            "complete",
            id,
            "--evidence",
            &format!("{path} is written"),
            "--path",
            path,
        ],
    )
}

/// The night's story: `api` signed off before the loop; in it `ship` signed off,
/// `cache` rejected then signed off, `api` reopened, `legacy` cancelled, `notes`
/// marked done by a hand-typed line, `docs` budget-limited; after it, `extra`
/// cancelled. A commit at 14:30 sits between the rejection and the sign-off.
fn night() -> Test {
    let t = Test::new().plan(PLAN);
    for (path, text) in [
        ("README.md", "# Night\n"),
        ("src/cache.rs", "// cache\n"),
        ("api.md", "# API\n"),
    ] {
        t.write(path, text);
    }
    t.judge("accept");
    t.commit_all("plan");
    complete(&t, "13:30", "api", "api.md").code(0);
    t.write(".git/plan/events.jsonl", JOURNAL);
    t.write(".git/plan/loop.json", LOOP);
    complete(&t, "14:10", "ship", "README.md").code(0);
    t.judge("reject");
    complete(&t, "14:20", "cache", "src/cache.rs").code(1);
    let t = t.env("GIT_COMMITTER_DATE", "2026-06-15T14:30:00Z");
    t.commit_all("night so far");
    t.judge("accept");
    complete(&t, "14:40", "cache", "src/cache.rs").code(0);
    at(
        &t,
        "14:50",
        &["reopen", "api", "--reason", "the client fails on timeouts"],
    )
    .code(0);
    at(
        &t,
        "15:00",
        &["cancel", "legacy", "--reason", "replaced by the new API"],
    )
    .code(0);
    // A line typed by hand reads as a sign-off, and proves nothing.
    let md = t.plan_md().replace(
        "<!-- id: notes -->\nstatus: open",
        "<!-- id: notes -->\nstatus: done",
    ) + "- 2026-06-15 15:10 notes signed off (no verify, judge skipped)\n";
    t.write("plan.md", md);
    at(&t, "15:45", &["cancel", "extra", "--reason", "not needed"]).code(0);
    t.env("PLAN_NOW", "2026-06-15T16:00")
}

const MARKDOWN: &str = "# plan report: the loop's latest run

- **When:** 2026-06-15 14:00 to 15:20 (1h 20m)
- **Loop:** ended, 6 of 10 continuations, 1,234,567 tokens
- **Why it ended:** `goal_budget` at 15:20: every goal left spent its budget without a sign-off: docs (`plan goal rearm ID` gives one a new budget)

## Signed off (3)

- `ship` Ship it (14:10): proven
- `cache` Cache layer (14:40): proven
- `notes` Notes (15:10): **not proven**: its sign-off (log line 54) has no record: it was written before sign-offs kept one, or by hand

## Sign-offs rejected (1)

- `cache` Cache layer (14:20, judge): eviction policy has no test that fills the cache past capacity; load-test.log is from before the last change to src/cache.rs (.plan/judge/cache-20260615-1420.md)

## Reopened (1)

- `api` Old API (14:50): the client fails on timeouts

## Cancelled (1)

- `legacy` Legacy (15:00): replaced by the new API

## Continuations per goal (6 in all)

- `docs`: 3
- `cache`: 2
- `ship`: 1

## Budget-limited (1)

- `docs`: its budget of 3 continuations is spent

## Left (3)

- `api` Old API: active, 1/2 subtasks
- `docs` Docs: ready, budget-limited
- `notes` Notes: not proven
";

/// Before `plan report`, the morning's story had to be pieced together from `plan
/// events`: the loop's run (14:00 to its end at 15:20) is told whole, and nothing
/// before it (the sign-off of `api`, an older loop's end) or after it (`extra`'s
/// cancel) gets in.
#[test]
fn the_report_tells_the_loops_run_in_markdown() {
    let t = night();
    t.case(&["report", "--markdown"]).stdout(MARKDOWN).check();
    // The terminal's form tells the same, without Markdown.
    let text = t.ok(&["report"]).stdout;
    insta::assert_snapshot!(redact(&t, &text));
    // No code spans of its own (the loop's why carries the hook's own backticks).
    assert!(
        !text.contains("`ship`") && !text.contains("`docs`") && !text.contains("**"),
        "{text}"
    );
}

#[test]
fn the_report_as_json_has_every_part_as_fields() {
    let t = night();
    let json: Value = serde_json::from_str(&t.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(json["scope"], "loop");
    assert_eq!(
        (json["from"].as_str(), json["to"].as_str()),
        (Some("2026-06-15 14:00"), Some("2026-06-15 15:20"))
    );
    assert_eq!(json["elapsed_minutes"], 80);
    assert_eq!(json["loop"]["state"], "ended");
    assert_eq!(json["loop"]["tokens"], 1234567);
    assert_eq!(
        (
            json["loop"]["used"].as_u64(),
            json["loop"]["budget"].as_u64()
        ),
        (Some(6), Some(10))
    );
    let signed: Vec<(&str, bool)> = json["signed_off"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["id"].as_str().unwrap(), s["proven"].as_bool().unwrap()))
        .collect();
    assert_eq!(signed, [("ship", true), ("cache", true), ("notes", false)]);
    assert_eq!(
        json["signed_off"][2]["unproven"],
        "its sign-off (log line 54) has no record: it was written before sign-offs kept one, or by hand"
    );
    assert_eq!(json["rejected"][0]["id"], "cache");
    assert_eq!(json["rejected"][0]["stage"], "judge");
    assert_eq!(
        json["rejected"][0]["missing"],
        "eviction policy has no test that fills the cache past capacity; load-test.log is from before the last change to src/cache.rs"
    );
    assert_eq!(
        json["rejected"][0]["record"],
        ".plan/judge/cache-20260615-1420.md"
    );
    assert_eq!(json["reopened"][0]["id"], "api");
    assert_eq!(
        json["reopened"][0]["reason"],
        "the client fails on timeouts"
    );
    assert_eq!(json["cancelled"].as_array().unwrap().len(), 1);
    assert_eq!(json["continuations"], 6);
    assert_eq!(
        json["continuations_per_goal"],
        serde_json::json!([{"goal": "docs", "continuations": 3}, {"goal": "cache", "continuations": 2}, {"goal": "ship", "continuations": 1}])
    );
    assert_eq!(
        json["budget_limited"],
        serde_json::json!([{"goal": "docs", "continuations": 3}])
    );
    assert_eq!(json["ended"]["reason"], "goal_budget");
    assert_eq!(json["ended"]["at"], "2026-06-15 15:20");
    let left: Vec<(&str, &str)> = json["left"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| (l["id"].as_str().unwrap(), l["state"].as_str().unwrap()))
        .collect();
    assert_eq!(
        left,
        [("api", "active"), ("docs", "ready"), ("notes", "unproven")]
    );
    assert_eq!(json["left"][1]["budget_limited"], true);
}

fn ids(json: &Value, key: &str) -> Vec<String> {
    json[key]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

/// `--since` a time or the revision committed at that time tell the same: the log
/// lines after it (here `cache`'s sign-off but not its rejection) and the loop's
/// events from then on, up to now.
#[test]
fn since_a_time_or_a_revision_reports_everything_after_it() {
    let t = night();
    for since in ["2026-06-15 14:30", "HEAD"] {
        let json: Value =
            serde_json::from_str(&t.ok(&["report", "--since", since, "--json"]).stdout).unwrap();
        assert_eq!(json["scope"], "since", "{since}");
        assert_eq!(json["from"], "2026-06-15 14:30", "{since}");
        assert_eq!(json["to"], "2026-06-15 16:00", "{since}");
        assert_eq!(json["elapsed_minutes"], 90, "{since}");
        assert_eq!(ids(&json, "signed_off"), ["cache", "notes"], "{since}");
        assert_eq!(ids(&json, "rejected"), Vec::<String>::new(), "{since}");
        assert_eq!(ids(&json, "reopened"), ["api"], "{since}");
        assert_eq!(ids(&json, "cancelled"), ["legacy", "extra"], "{since}");
        assert_eq!(json["continuations"], 3, "{since}");
        assert_eq!(json["ended"]["reason"], "goal_budget", "{since}");
        // The loop started before the point: its counts are not this window's.
        assert_eq!(json["loop"], Value::Null, "{since}");
    }
    let day: Value =
        serde_json::from_str(&t.ok(&["report", "--since", "2026-06-15", "--json"]).stdout).unwrap();
    assert_eq!(ids(&day, "signed_off"), ["api", "ship", "cache", "notes"]);
    assert_eq!(day["loop"]["state"], "ended");
    let md = t.ok(&["report", "--since", "HEAD", "--markdown"]).stdout;
    insta::assert_snapshot!(redact(&t, &md));
    t.case(&["report", "--since", "2026-13-01"])
        .status(2)
        .stderr("plan: --since \"2026-13-01\" is not a time\n  hint: write it as YYYY-MM-DD or \"YYYY-MM-DD HH:MM\", e.g. \"2026-06-15 08:00\"\n")
        .check();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["report", "--since", "no-such-rev"]).code(2)
    ));
}

#[test]
fn without_a_loop_the_report_asks_for_a_point_to_start_from() {
    let t = Test::new().plan(PLAN);
    t.case(&["report"])
        .status(2)
        .stderr("plan: no work loop has run in this repository, so there is no run to report\n  hint: `plan report --since 2026-06-15` (a date, a time `YYYY-MM-DD HH:MM` or a git revision) reports everything since then\n")
        .check();
}

/// A loop still running, its journal as today's stop hook writes it (no `goal` on a
/// continuation, no `tokens` in its state): the report runs to now, and counts the
/// continuation for the goal its text names first.
#[test]
fn a_running_loop_is_reported_to_now() {
    let t = Test::new().plan(PLAN);
    t.ok(&["start", "ship"]);
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let later = t.env("PLAN_NOW", "2026-06-15T14:47");
    let json: Value = serde_json::from_str(&later.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(json["loop"]["state"], "running");
    assert_eq!(json["loop"]["tokens"], Value::Null);
    assert_eq!(json["to"], "2026-06-15 14:47");
    assert_eq!(json["elapsed_minutes"], 45);
    assert_eq!(json["ended"], Value::Null);
    assert_eq!(
        json["continuations_per_goal"],
        serde_json::json!([{"goal": "ship", "continuations": 1}])
    );
    let md = later.ok(&["report", "--markdown"]).stdout;
    insta::assert_snapshot!(redact(&later, &md));
}

/// Waits up to 20 s for `path` to hold text that `done` accepts.
fn wait_for(path: &std::path::Path, done: impl Fn(&str) -> bool) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && done(&text)
        {
            return text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{} never came",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

const ONE_GOAL: &str = "# Plan: Loop

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists

## Log
";

/// A `notify:` entry with `report: markdown` gets the loop's report on stdin when
/// the loop ends (here its budget), and only then; `report: json` gets it as JSON
/// when `plan goal clear` ends the next one.
#[test]
fn notify_sends_the_report_when_the_loop_ends() {
    let t = Test::new().plan(ONE_GOAL).with_bin();
    let md = t.dir.path().join("report.md");
    let json = t.dir.path().join("report.json");
    t.fake_program("keep-md", &format!("cat >> '{}'\n", md.display()));
    t.fake_program("keep-json", &format!("cat >> '{}'\n", json.display()));
    t.write(
        ".plan/config.yaml",
        "notify:\n  - report: markdown\n    command: [keep-md]\n  - report: json\n    command: [keep-json]\n",
    );
    t.ok(&["goal", "--budget", "1"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert!(!md.exists(), "a continuation sends no report");
    // The budget is spent: let go.
    assert_eq!(
        t.stop_hook("s1").stdout,
        "{\"systemMessage\":\"plan: work loop stopped: its budget of 1 continuation is spent (`plan goal` starts a new one)\"}\n"
    );
    let got = wait_for(&md, |s| s.contains("## Left"));
    assert_eq!(
        got,
        "# plan report: the loop's latest run

- **When:** 2026-06-15 14:02 to 14:02 (0m)
- **Loop:** ended, 1 of 1 continuations
- **Why it ended:** `budget_spent` at 14:02: its budget of 1 continuation is spent (`plan goal` starts a new one)

## Continuations per goal (1 in all)

- `ship`: 1

## Left (1)

- `ship` Ship it: active
"
    );
    let first: Value = serde_json::from_str(&wait_for(&json, |s| s.ends_with("}\n"))).unwrap();
    assert_eq!(first["ended"]["reason"], "budget_spent");
    std::fs::remove_file(&json).unwrap();
    t.ok(&["goal"]);
    t.ok(&["goal", "clear"]);
    let cleared: Value = serde_json::from_str(&wait_for(&json, |s| s.ends_with("}\n"))).unwrap();
    assert_eq!(cleared["ended"]["reason"], "cleared");
    assert_eq!(cleared["loop"]["used"], 0);
}

#[test]
fn a_notify_entry_runs_on_events_or_with_the_report_never_both() {
    let t = Test::new().plan(ONE_GOAL);
    t.write(
        ".plan/config.yaml",
        "notify:\n  - events: [signed_off]\n    command: [x]\n  - report: markdown\n    events: [loop_let_go]\n    command: [x]\n",
    );
    t.case(&["goal"])
        .status(2)
        .stderr(".plan/config.yaml:4: notify: an entry has both `events` and `report`\n    4 |   - report: markdown\n  hint: an entry with `report:` runs once when a work loop ends, with the report on stdin; leave out its `events:`, or make it two entries\n")
        .check();
    t.write(".plan/config.yaml", "notify:\n  - command: [x]\n");
    t.case(&["goal"])
        .status(2)
        .stderr(".plan/config.yaml:2: notify: an entry has neither `events` nor `report`\n    2 |   - command: [x]\n  hint: give it `events: [signed_off, loop_let_go]` (the events it runs on), or `report: markdown` (runs when a work loop ends, with the report on stdin)\n")
        .check();
    t.write(
        ".plan/config.yaml",
        "notify:\n  - report: html\n    command: [x]\n",
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["goal"]).code(2)));
}

const TWO_GOALS: &str = "# Plan: Loop

## Goal: A
<!-- id: a -->
status: active
done_when: a.md exists

## Goal: B
<!-- id: b -->
status: open
done_when: b.md exists

## Log
";

/// `plan ARGS` at `time` on 2026-06-15 with `payload` on stdin.
fn piped(t: &Test, time: &str, args: &[&str], payload: &str) -> Run {
    use std::io::Write as _;
    let mut child = t
        .cmd(args)
        .env("PLAN_NOW", format!("2026-06-15T{time}"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    Run::from(child.wait_with_output().unwrap(), args)
}

/// `a` spent its budget at 10:10, `plan goal rearm a` gave it a new one at 10:12 and
/// the loop named it first again at 10:15: it is no longer budget-limited, and the
/// rearm is told. A later limit makes it budget-limited again.
#[test]
fn a_rearmed_goal_is_no_longer_budget_limited() {
    let t = Test::new().plan(TWO_GOALS);
    t.write(
        ".git/plan/loop.json",
        r#"{"budget": 10, "used": 3, "paused": false, "owner": "s1", "stalls": 0, "last_hash": null, "started": "2026-06-15 10:00", "budget_limited": ["a"]}"#,
    );
    let journal = r#"{"at":"2026-06-15 10:05","event":"loop_continued","session":"s1","continuation":1,"budget":10,"goals":"a","goal":"a"}
{"at":"2026-06-15 10:08","event":"loop_continued","session":"s1","continuation":2,"budget":10,"goals":"a","goal":"a"}
{"at":"2026-06-15 10:10","event":"goal_budget_limited","session":"s1","goal":"a","continuations":2}
{"at":"2026-06-15 10:15","event":"loop_continued","session":"s1","continuation":3,"budget":10,"goals":"a","goal":"a"}
"#;
    t.write(".git/plan/events.jsonl", journal);
    at(&t, "10:12", &["goal", "rearm", "a"]).code(0);
    let t = t.env("PLAN_NOW", "2026-06-15T10:20");
    t.case(&["report", "--markdown"])
        .stdout(
            "# plan report: the loop's latest run

- **When:** 2026-06-15 10:00 to 10:20 (20m)
- **Loop:** running, 3 of 10 continuations

## Continuations per goal (3 in all)

- `a`: 3

## Budget rearmed (1)

- `a` A (10:12): without a terminal

## Left (2)

- `a` A: active
- `b` B: ready
",
        )
        .check();
    let json: Value = serde_json::from_str(&t.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(json["budget_limited"], serde_json::json!([]));
    assert_eq!(json["left"][0]["budget_limited"], false);
    assert_eq!(
        json["rearmed"],
        serde_json::json!([{"at": "2026-06-15 10:12", "id": "a", "title": "A", "approval": "without a terminal"}])
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["report"]).stdout));
    // Spent again after the rearm: budget-limited again.
    t.write(
        ".git/plan/events.jsonl",
        format!(
            "{journal}{}",
            r#"{"at":"2026-06-15 10:18","event":"goal_budget_limited","session":"s1","goal":"a","continuations":1}
"#
        ),
    );
    let json: Value = serde_json::from_str(&t.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(
        json["budget_limited"],
        serde_json::json!([{"goal": "a", "continuations": 1}])
    );
    assert_eq!(json["left"][0]["budget_limited"], true);
}

/// Claude Code's StopFailure on a rate limit: the hook pauses the loop. The report
/// says why it paused and runs to the pause, and a `report:` notify entry gets it,
/// once: the stops let go while paused send nothing more.
#[test]
fn a_host_error_pause_is_reported_and_sent() {
    let t = Test::new().plan(ONE_GOAL).with_bin();
    let md = t.dir.path().join("report.md");
    t.fake_program("keep-md", &format!("cat >> '{}'\n", md.display()));
    t.write(
        ".plan/config.yaml",
        "notify:\n  - report: markdown\n    command: [keep-md]\n",
    );
    at(&t, "14:00", &["goal", "--budget", "5"]).code(0);
    let stop = fixture_stop(&t);
    assert_eq!(
        piped(&t, "14:03", &["hook", "claude", "stop"], &stop).answer()["decision"],
        "block"
    );
    let failure = format!(
        r#"{{"session_id":"s1","cwd":"{}","hook_event_name":"StopFailure","error":"rate_limit","error_details":"429 Too Many Requests","last_assistant_message":"API Error: Request rejected (429)"}}"#,
        t.root().display()
    );
    piped(&t, "14:04", &["hook", "claude", "stop-failure"], &failure).code(0);
    let expected = "# plan report: the loop's latest run

- **When:** 2026-06-15 14:00 to 14:04 (4m)
- **Loop:** paused, 1 of 5 continuations
- **Why it paused:** `host_error` at 14:04: the host reported an error: rate_limit: 429 Too Many Requests: API Error: Request rejected (429)

## Continuations per goal (1 in all)

- `ship`: 1

## Left (1)

- `ship` Ship it: active
";
    assert_eq!(wait_for(&md, |s| s.contains("## Left")), expected);
    // Stops while paused are let go again, and send no second report.
    piped(&t, "14:05", &["hook", "claude", "stop"], &stop).code(0);
    piped(&t, "14:06", &["hook", "claude", "stop"], &stop).code(0);
    std::thread::sleep(std::time::Duration::from_millis(300));
    assert_eq!(std::fs::read_to_string(&md).unwrap(), expected);
    let later = t.env("PLAN_NOW", "2026-06-15T15:00");
    later
        .case(&["report", "--markdown"])
        .stdout(expected)
        .check();
    let json: Value = serde_json::from_str(&later.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(json["paused"]["reason"], "host_error");
    assert_eq!(json["paused"]["at"], "2026-06-15 14:04");
    assert_eq!(json["ended"], Value::Null);
}

fn fixture_stop(t: &Test) -> String {
    crate::util::fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1")
}

/// `plan goal` run again while a loop runs replaces it (logged as a clear): the new
/// run has not ended, so the report tells no ending, and says what it replaced.
#[test]
fn a_loop_that_replaced_a_running_one_has_no_ending() {
    let t = Test::new().plan(ONE_GOAL);
    at(&t, "14:00", &["goal", "--budget", "5"]).code(0);
    at(&t, "14:10", &["goal", "--budget", "3"]).code(0);
    let t = t.env("PLAN_NOW", "2026-06-15T14:20");
    t.case(&["report", "--markdown"])
        .stdout(
            "# plan report: the loop's latest run

- **When:** 2026-06-15 14:10 to 14:20 (10m)
- **Loop:** running, 0 of 3 continuations, replaced a running loop

## Left (1)

- `ship` Ship it: active
",
        )
        .check();
    let json: Value = serde_json::from_str(&t.ok(&["report", "--json"]).stdout).unwrap();
    assert_eq!(json["ended"], Value::Null);
    assert_eq!(json["loop"]["replaced"], true);
}

//! The work loop's token and time budgets, and a host error that pauses it: tokens
//! come from the host's own transcript, read only where the last stop left off; wall
//! time from the clock (`PLAN_NOW`); an API or rate-limit error pauses the loop
//! until `plan goal resume`, never retried at every stop, while an error a retry
//! gets past lets one stop go and a person's abort is no error at all.

use std::path::Path;

use crate::util::{Run, Test, fixture, fixture_path, redact, shown};

const PLAN: &str = "# Plan: Cache

## Goal: Cache layer
<!-- id: cache -->
status: active
done_when: reads hit the cache
- [ ] wire the client
- [ ] eviction

## Log
";

/// The Claude Code stop payload naming `transcript` as its transcript, run at
/// `now` (`PLAN_NOW`).
fn claude_stop(t: &Test, transcript: &Path, now: &str) -> Run {
    let payload = fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace(
            "/home/u/.claude/projects/-repo/SESSION.jsonl",
            transcript.to_str().unwrap(),
        )
        .replace("SESSION", "s1");
    hook(t, &["hook", "claude", "stop"], &payload, now)
}

fn hook(t: &Test, args: &[&str], payload: &str, now: &str) -> Run {
    use std::io::Write as _;
    let mut child = t
        .cmd(args)
        .env("PLAN_NOW", now)
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
    Run::from(child.wait_with_output().unwrap(), args).code(0)
}

fn status(t: &Test, now: &str) -> serde_json::Value {
    let out = t
        .cmd(&["goal", "status", "--json"])
        .env("PLAN_NOW", now)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn append(path: &Path, fixture_name: &str) {
    use std::io::Write as _;
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .unwrap();
    file.write_all(&std::fs::read(fixture_path(fixture_name)).unwrap())
        .unwrap();
}

fn let_go_events(t: &Test) -> Vec<serde_json::Value> {
    t.ok(&["events", "--json"])
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "loop_let_go")
        .collect()
}

/// A Claude Code transcript with enough usage ends the loop with `token_budget`.
/// The first stop reads part 1, which ends in half a line; the second reads only
/// what came after: re-reading part 1 would count 18,000 tokens, and losing the
/// half line 10,000 (still under the budget).
#[test]
fn a_claude_transcript_spends_the_token_budget_read_once() {
    let t = Test::new().plan(PLAN);
    t.write(".plan/config.yaml", "loop:\n  token_budget: 12000\n");
    t.ok(&["goal"]);
    let transcript = t.dir.path().join("transcript.jsonl");
    append(&transcript, "hosts/claude/transcript.part1.jsonl");

    let first = claude_stop(&t, &transcript, "2026-06-15T14:04");
    assert_eq!(first.answer()["decision"], "block", "{}", first.stdout);
    // Counted: two messages after the loop started (one written as two lines);
    // not the message before it, nor the half line at the end.
    assert_eq!(status(&t, "2026-06-15T14:04")["tokens"], 4000);

    append(&transcript, "hosts/claude/transcript.part2.jsonl");
    let second = claude_stop(&t, &transcript, "2026-06-15T14:07");
    assert_eq!(second.answer()["decision"], serde_json::Value::Null);
    let json = status(&t, "2026-06-15T14:07");
    assert_eq!(json["tokens"], 14000, "{json}");
    assert_eq!(json["state"], "ended");
    let why = "its token budget of 12000 is spent: the host reported 14000 tokens since the loop started (`plan goal` starts a new one)";
    assert_eq!(json["ended"], why);
    assert!(
        second.stderr.is_empty() && second.stdout.contains(why),
        "{}{}",
        second.stdout,
        second.stderr
    );
    let events = let_go_events(&t);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["reason"], "token_budget");
    assert_eq!(events[0]["ended"], true);
    assert_eq!(events[0]["why"], why);
}

/// `--token-budget` overrides `loop.token_budget` for one loop, and a transcript
/// that shrank (rewritten) is read again from its start.
#[test]
fn the_token_budget_flag_overrides_the_key_and_a_shrunk_transcript_restarts() {
    let t = Test::new().plan(PLAN);
    t.write(".plan/config.yaml", "loop:\n  token_budget: 1\n");
    t.ok(&["goal", "--token-budget", "20000"]);
    assert_eq!(status(&t, "2026-06-15T14:02")["token_budget"], 20000);
    let transcript = t.dir.path().join("transcript.jsonl");
    append(&transcript, "hosts/claude/transcript.part1.jsonl");
    append(&transcript, "hosts/claude/transcript.part2.jsonl");
    assert_eq!(
        claude_stop(&t, &transcript, "2026-06-15T14:07").answer()["decision"],
        "block"
    );
    assert_eq!(status(&t, "2026-06-15T14:07")["tokens"], 14000);
    // Rewritten shorter: a new file as far as plan can tell, read from its start
    // (its first line is the tail of one cut in two, and counts nothing).
    std::fs::write(
        &transcript,
        std::fs::read(fixture_path("hosts/claude/transcript.part2.jsonl")).unwrap(),
    )
    .unwrap();
    claude_stop(&t, &transcript, "2026-06-15T14:08");
    let json = status(&t, "2026-06-15T14:08");
    assert_eq!(json["tokens"], 20000, "{json}");
    assert_eq!(json["state"], "ended");
    insta::assert_snapshot!(shown(&t, &t.run(&["goal", "--token-budget", "0"]).code(2)));
}

/// A Codex rollout's cumulative totals count once each, from the loop's start.
#[test]
fn a_codex_rollout_counts_its_totals_since_the_loop_started() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--token-budget", "4000"]);
    let rollout = t.dir.path().join("rollout.jsonl");
    append(&rollout, "hosts/codex/rollout.jsonl");
    let payload = fixture("hosts/codex/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace(
            "/home/u/.codex/sessions/2026/06/15/rollout-SESSION.jsonl",
            rollout.to_str().unwrap(),
        )
        .replace("SESSION", "s1");
    let run = hook(&t, &["hook", "codex", "stop"], &payload, "2026-06-15T14:04");
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert_eq!(status(&t, "2026-06-15T14:04")["tokens"], 4000);
    assert_eq!(let_go_events(&t)[0]["reason"], "token_budget");
}

/// `loop.time_budget` is wall time since `plan goal`, on `PLAN_NOW`'s clock.
#[test]
fn the_time_budget_ends_the_loop_when_the_clock_moves_past_it() {
    let t = Test::new().plan(PLAN);
    t.write(".plan/config.yaml", "loop:\n  time_budget: 8h\n");
    t.ok(&["goal", "--time-budget", "90m"]);
    let json = status(&t, "2026-06-15T14:30");
    assert_eq!(
        (json["time_budget"].clone(), json["elapsed"].clone()),
        (5400.into(), 1680.into()),
        "{json}"
    );
    let none = t.dir.path().join("none.jsonl");
    assert_eq!(
        claude_stop(&t, &none, "2026-06-15T15:31").answer()["decision"],
        "block"
    );
    let run = claude_stop(&t, &none, "2026-06-15T15:32");
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let json = status(&t, "2026-06-15T16:00");
    assert_eq!(json["state"], "ended");
    // An ended loop's elapsed time stops at its end.
    assert_eq!(json["elapsed"], 5400);
    assert_eq!(let_go_events(&t)[0]["reason"], "time_budget");
    let text = t.ok(&["goal", "status"]).stdout;
    insta::assert_snapshot!(redact(&t, &text));

    // The key alone, and a value that is no duration.
    t.ok(&["goal"]);
    assert_eq!(status(&t, "2026-06-15T14:02")["time_budget"], 28800);
    t.write(".plan/config.yaml", "loop:\n  time_budget: soon\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["goal"]).code(2)));
    t.run(&["goal", "--time-budget", "90"]).code(2);
}

/// A loop of budget 5 whose first stop was held, and the empty transcript its stops
/// name.
fn held_once() -> (Test, std::path::PathBuf) {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "5"]);
    let none = t.dir.path().join("none.jsonl");
    assert_eq!(
        claude_stop(&t, &none, "2026-06-15T14:03").answer()["decision"],
        "block"
    );
    (t, none)
}

/// A host that reports an API or rate-limit error pauses the loop, saying what the
/// host said, until `plan goal resume`: nothing is retried at every stop.
#[test]
fn a_host_error_pauses_the_loop_until_resumed() {
    let (t, none) = held_once();
    // Claude Code's StopFailure: the turn ended on an API error.
    let failure = format!(
        r#"{{"session_id":"s1","transcript_path":"{}","cwd":"{}","hook_event_name":"StopFailure","error":"rate_limit","error_details":"429 Too Many Requests","last_assistant_message":"API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later."}}"#,
        none.display(),
        t.root().display()
    );
    let run = hook(
        &t,
        &["hook", "claude", "stop-failure"],
        &failure,
        "2026-06-15T14:04",
    );
    assert_eq!(run.answer()["decision"], serde_json::Value::Null);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let json = status(&t, "2026-06-15T14:04");
    assert_eq!(json["state"], "paused", "{json}");
    let events = let_go_events(&t);
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0]["reason"], "host_error");
    assert_eq!(events[0]["ended"], false);
    assert_eq!(
        events[0]["why"],
        "the host reported an error: rate_limit: 429 Too Many Requests: API Error: Request rejected (429) · This request would exceed your account's rate limit. Please try again later."
    );
    // The next stop is let go too: the loop stays paused, nothing retries. The
    // pause is logged in plan.md, which backs it (loop.json is the agent's to
    // write), as the resume is.
    let again = claude_stop(&t, &none, "2026-06-15T14:05");
    assert_eq!(again.answer()["decision"], serde_json::Value::Null);
    hook(&t, &["goal", "resume"], "", "2026-06-15T14:05").code(0);
    assert_eq!(
        t.plan_md()
            .lines()
            .filter(|l| l.contains("work loop"))
            .collect::<Vec<_>>(),
        [
            "- 2026-06-15 14:02 work loop started (budget 5, without a terminal)",
            "- 2026-06-15 14:04 work loop paused (the host reported an error)",
            "- 2026-06-15 14:05 work loop resumed (without a terminal)",
        ]
    );
    assert_eq!(
        claude_stop(&t, &none, "2026-06-15T14:06").answer()["decision"],
        "block"
    );

    // A StopFailure says an error whatever its fields: it never counts as a
    // continuation given. One that names no kind is let go once, not paused.
    let bare = format!(
        r#"{{"session_id":"s1","cwd":"{}","hook_event_name":"StopFailure"}}"#,
        t.root().display()
    );
    hook(
        &t,
        &["hook", "claude", "stop-failure"],
        &bare,
        "2026-06-15T14:07",
    );
    let json = status(&t, "2026-06-15T14:07");
    assert_eq!(
        (json["state"].clone(), json["used"].clone()),
        ("running".into(), 2.into())
    );
    assert_eq!(let_go_events(&t)[2]["why"], "the turn ended on an error");
}

/// A host error's pause that plan.md cannot log is not kept: the stop hook takes
/// only a pause plan.md backs, so the stop says so and the next stop is held.
#[test]
fn a_host_error_pause_plan_md_cannot_log_is_said_and_not_kept() {
    let (t, none) = held_once();
    let before = t.plan_md();
    let plan_md = t.path("plan.md");
    let mut mode = std::fs::metadata(&plan_md).unwrap().permissions();
    mode.set_readonly(true);
    std::fs::set_permissions(&plan_md, mode).unwrap();
    let run = claude_failure(&t, "rate_limit", "API Error: 429", "2026-06-15T14:04");
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert_eq!(t.plan_md(), before);
    assert_eq!(status(&t, "2026-06-15T14:04")["state"], "running");
    assert_eq!(
        claude_stop(&t, &none, "2026-06-15T14:05").answer()["decision"],
        "block"
    );
}

/// The StopFailure of one turn, its `error` kind `kind` and its message `said`.
fn claude_failure(t: &Test, kind: &str, said: &str, now: &str) -> Run {
    let failure = format!(
        r#"{{"session_id":"s1","cwd":"{}","hook_event_name":"StopFailure","error":"{kind}","last_assistant_message":"{said}"}}"#,
        t.root().display()
    );
    hook(t, &["hook", "claude", "stop-failure"], &failure, now)
}

/// An error a retry gets past by itself (a cut-off answer, a bad request) lets only
/// that stop go, saying which error: one long answer cut off at 1 AM must not halt
/// the night. Errors no retry gets past right away (login, billing, a server down)
/// pause the loop like a rate limit.
#[test]
fn a_passing_host_error_lets_one_stop_go_and_the_loop_goes_on() {
    let (t, none) = held_once();
    let run = claude_failure(
        &t,
        "max_output_tokens",
        "API Error: Claude's response exceeded the 32000 output token maximum.",
        "2026-06-15T14:04",
    );
    assert_eq!(run.answer()["decision"], serde_json::Value::Null);
    assert_eq!(
        run.answer()["systemMessage"],
        "plan: the host reported an error: max_output_tokens: API Error: Claude's response exceeded the 32000 output token maximum. The loop lets the agent stop this once; it continues at the next stop."
    );
    assert_eq!(status(&t, "2026-06-15T14:04")["state"], "running");
    let events = let_go_events(&t);
    assert_eq!(
        (events[0]["reason"].clone(), events[0]["ended"].clone()),
        ("host_error".into(), false.into())
    );
    // The next stop is held again: the loop went on.
    assert_eq!(
        claude_stop(&t, &none, "2026-06-15T14:05").answer()["decision"],
        "block"
    );
    claude_failure(&t, "invalid_request", "API Error: 400", "2026-06-15T14:06");
    assert_eq!(status(&t, "2026-06-15T14:06")["state"], "running");

    for (minute, kind) in [
        (7, "authentication_failed"),
        (8, "billing_error"),
        (9, "server_error"),
    ] {
        let now = format!("2026-06-15T14:{minute:02}");
        let run = claude_failure(&t, kind, "API Error", &now);
        insta::assert_snapshot!(redact(&t, &run.stdout));
        assert_eq!(status(&t, &now)["state"], "paused", "{kind}");
        t.ok(&["goal", "resume"]);
    }
}

/// A person who stops the turn (pi's `stop_reason: aborted`, on Esc) made no
/// error: the stop is let go without a word of one, the loop is not paused, and
/// the next stop is held again.
#[test]
fn an_aborted_turn_is_no_error_and_the_loop_goes_on() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "5"]);
    let stop = fixture("hosts/pi/turn-end.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let turn_end = |payload: &str, now: &str| hook(&t, &["hook", "pi", "turn-end"], payload, now);
    assert!(turn_end(&stop, "2026-06-15T14:03").answer()["message"].is_string());
    let aborted = stop.replace(
        r#""stop_reason":"stop""#,
        r#""stop_reason":"aborted","error_message":"Request was aborted""#,
    );
    assert_ne!(aborted, stop);
    let run = turn_end(&aborted, "2026-06-15T14:04");
    assert!(run.answer()["message"].is_null(), "{}", run.stdout);
    assert!(
        !run.stdout.to_lowercase().contains("error"),
        "{}",
        run.stdout
    );
    assert_eq!(status(&t, "2026-06-15T14:04")["state"], "running");
    let events = let_go_events(&t);
    assert_eq!(
        (events[0]["reason"].clone(), events[0]["why"].clone()),
        ("aborted".into(), "the turn was stopped".into())
    );
    assert!(turn_end(&stop, "2026-06-15T14:05").answer()["message"].is_string());
}

/// Claude Code runs StopFailure instead of Stop when a turn ends on an API error:
/// `plan install claude` registers it, or the loop would never hear of the error.
#[test]
fn claude_registers_stop_failure() {
    let t = Test::new().plan(PLAN);
    t.ok(&["install", "claude"]);
    let settings: serde_json::Value =
        serde_json::from_str(&t.read(".claude/settings.json")).unwrap();
    let command = &settings["hooks"]["StopFailure"][0]["hooks"][0]["command"];
    assert!(
        command
            .as_str()
            .unwrap_or("")
            .ends_with("hook claude stop-failure"),
        "{settings}"
    );
}

/// A rearm took up a loop that ended with `goal_budget` but kept its end time, so
/// the elapsed time stopped there and the time budget never fired again.
#[test]
fn a_rearmed_loop_keeps_counting_its_time_budget() {
    let t = Test::new().plan(PLAN);
    t.write(".plan/config.yaml", "loop:\n  goal_budget: 1\n");
    let at = |args: &[&str], now: &str| {
        let out = t.cmd(args).env("PLAN_NOW", now).output().unwrap();
        assert!(out.status.success(), "{out:?}");
    };
    at(
        &["goal", "--budget", "20", "--time-budget", "2h"],
        "2026-06-15T10:00",
    );
    let none = t.dir.path().join("none.jsonl");
    let first = claude_stop(&t, &none, "2026-06-15T10:05").answer();
    assert_eq!(first["decision"], "block", "{first}");
    claude_stop(&t, &none, "2026-06-15T10:10");
    assert_eq!(let_go_events(&t)[0]["reason"], "goal_budget");
    at(&["goal", "rearm", "cache"], "2026-06-15T10:15");
    assert_eq!(status(&t, "2026-06-15T10:20")["elapsed"], 1200);
    let late = claude_stop(&t, &none, "2026-06-15T13:00");
    insta::assert_snapshot!(redact(&t, &late.stdout));
    assert_eq!(let_go_events(&t)[1]["reason"], "time_budget");
}

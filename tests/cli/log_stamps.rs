//! Done means done against an agent that sets its own clock: `PLAN_NOW` (the test
//! clock) cannot stamp a log line before plan's newest one or before the running
//! loop's start, cannot spend the time budget of a loop started on the wall clock,
//! and a line typed with an earlier stamp after a later one is named out of order.

use crate::util::{Run, Test, redact, shown};

const PLAN: &str = "# Plan: Clock

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Log
- 2026-06-14 09:00 ship added (contract d634ac80)
";

fn at(t: &Test, now: &str, args: &[&str]) -> Run {
    Run::from(t.cmd(args).env("PLAN_NOW", now).output().unwrap(), args)
}

fn last_log_line(t: &Test) -> String {
    t.plan_md().lines().last().unwrap().to_string()
}

/// Attack: `PLAN_NOW=2026-06-15T09:00 plan log` stamped its line five hours before
/// the line above it. Failed before: the line read `- 2026-06-15 09:00 …`.
#[test]
fn a_backdated_clock_stamps_no_earlier_than_the_newest_log_line() {
    let t = Test::new().plan(PLAN);
    t.ok(&["log", "first"]);
    assert_eq!(last_log_line(&t), "- 2026-06-15 14:02 first");
    at(&t, "2026-06-15T09:00", &["log", "backdated"]).code(0);
    assert_eq!(last_log_line(&t), "- 2026-06-15 14:02 backdated");
    // The clock going forward is taken as it is.
    at(&t, "2026-06-15T15:00", &["log", "later"]).code(0);
    assert_eq!(last_log_line(&t), "- 2026-06-15 15:00 later");
}

/// Attack: the loop started at 14:02 and the log's newest line is a day older, so
/// a rejection stamped 10:00 fell before the loop's start and out of `plan report`.
/// Failed before: the rejection line read `2026-06-15 10:00`.
#[test]
fn a_rejection_backdated_before_the_loop_start_stays_in_the_report() {
    let t = Test::new().plan(PLAN);
    t.write("README.md", "# Clock\n");
    t.judge("reject");
    t.commit_all("plan");
    t.ok(&["goal", "--budget", "5"]);
    at(
        &t,
        "2026-06-15T10:00",
        &[
            "complete",
            "ship",
            "--evidence",
            "README.md is written",
            "--path",
            "README.md",
        ],
    )
    .code(1);
    let line = last_log_line(&t);
    insta::assert_snapshot!(redact(&t, &line));
    let report = t.ok(&["report", "--json"]).json();
    let text = report.to_string();
    insta::assert_snapshot!(redact(&t, &text));
}

/// Attack: a loop started on the wall clock with a time budget of 90 minutes, and
/// a stop hook run by the agent with `PLAN_NOW` two days ahead: the loop ended
/// with `time_budget`. Failed before: the stop was let go. A loop started on the
/// wall clock keeps to it.
#[test]
fn a_forward_clock_does_not_spend_a_wall_clock_loops_time_budget() {
    let t = Test::new().plan(PLAN).env("PLAN_NOW", "");
    t.ok(&["goal", "--budget", "5", "--time-budget", "90m"]);
    let payload = crate::util::fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let run = |now: &str| {
        use std::io::Write as _;
        let mut child = t
            .cmd(&["hook", "claude", "stop"])
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
        Run::from(child.wait_with_output().unwrap(), &["hook"]).code(0)
    };
    let answer = run("2099-01-01T00:00").answer();
    assert_eq!(answer["decision"], "block", "{answer}");
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(status["state"], "running", "{status}");
}

/// A line typed by hand with a stamp earlier than the line above it is named by
/// `plan audit` (a warning: merged branches interleave their logs), and counts in
/// `plan report`'s window from where it stands, not from its stamp.
#[test]
fn a_line_stamped_earlier_than_the_one_above_is_named_out_of_order() {
    let t = Test::new().plan(PLAN);
    t.ok(&["log", "first"]);
    let md = t.plan_md() + "- 2026-06-15 09:00 typed by hand\n";
    t.write("plan.md", md);
    let run = t.ok(&["audit"]);
    insta::assert_snapshot!(shown(&t, &run));
    let json = t.ok(&["audit", "--json"]).json();
    assert_eq!(json["out_of_order"][0]["line"], 14, "{json:#}");
}

/// Attack: a 10 MB id with a `budget:` line rotated the journal on every event.
/// An id over 64 characters is now an error with its place and a hint. Failed
/// before: `plan lint` passed.
#[test]
fn a_goal_id_over_64_characters_is_an_error() {
    let md = PLAN.replace(
        "<!-- id: ship -->",
        &format!("<!-- id: {} -->", "s".repeat(65)),
    );
    let t = Test::new().plan(&md);
    let run = t.run(&["lint"]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    let all = run.stdout + &run.stderr;
    insta::assert_snapshot!(redact(&t, &all));
    let fits = PLAN.replace(
        "<!-- id: ship -->",
        &format!("<!-- id: {} -->", "s".repeat(64)),
    );
    Test::new().plan(&fits).ok(&["lint"]);
}

/// A rejection line typed in with a stamp before the loop's start, below a line
/// of the loop's: `plan report` took the window by stamp and dropped it. It now
/// counts a line from where it stands. Failed before: `rejected` was empty.
#[test]
fn a_backdated_line_below_one_in_the_loop_counts_in_the_report() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["goal", "--budget", "5"]);
    t.ok(&["log", "working"]);
    t.write(
        "plan.md",
        t.plan_md() + "- 2026-06-15 10:00 ship sign-off rejected (judge): tests\n",
    );
    let report = t.ok(&["report", "--json"]).json();
    assert_eq!(
        report["rejected"].as_array().unwrap().len(),
        1,
        "{report:#}"
    );
}

/// An honest sign-off made while the clock is behind the log is stamped at the
/// log's newest line, its record's `- when:` the same, and proven. Failed before:
/// the floor restamped the line alone and the record no longer matched it.
#[test]
fn an_honest_sign_off_behind_the_log_is_still_proven() {
    let t = Test::new().plan(PLAN);
    t.write("README.md", "# r\n");
    t.commit_all("start");
    t.ok(&["log", "first"]);
    at(
        &t,
        "2026-06-15T09:00",
        &[
            "complete",
            "ship",
            "--evidence",
            "README.md is there",
            "--judge",
            "none",
        ],
    )
    .code(0);
    let line = last_log_line(&t);
    insta::assert_snapshot!(redact(&t, &line));
    let show = at(&t, "2026-06-15T09:00", &["show", "ship"]);
    insta::assert_snapshot!(redact(&t, &show.stdout));
}

/// A stamp floor that is no real minute (`.git/plan/stamp` edited to
/// `2026-13-45 99:99`) is no floor: lines keep the clock's stamp. Failed before:
/// every later line, transcript name and checkpoint took the impossible stamp.
#[test]
fn an_impossible_stamp_floor_is_ignored() {
    let t = Test::new().plan(PLAN);
    t.ok(&["log", "first"]);
    std::fs::write(t.path(".git/plan/stamp"), "2026-13-45 99:99\n").unwrap();
    t.ok(&["log", "second"]);
    assert_eq!(last_log_line(&t), "- 2026-06-15 14:02 second");
}

//! What audit says of a goal whose own log line was moved after it was committed:
//! its hint says reopen it, and once it is reopened and signed off again, the new
//! sign-off stands on a reopen that is in place, so the goal is proven again.

use crate::util::{Test, shown};

const PLAN: &str = "# Plan: x

## Goal: G2
<!-- id: g2 -->
status: open
done_when: it is done
verify: true
failure_modes:
- verify passes on a trivial test

## Log
";

fn at(t: &Test, now: &str, args: &[&str]) -> crate::util::Run {
    crate::util::Run::from(t.cmd(args).env("PLAN_NOW", now).output().unwrap(), args)
}

#[test]
fn a_moved_line_no_longer_counts_once_the_goal_is_reopened_and_signed_off_again() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    at(&t, "2026-06-15T10:00", &["start", "g2"]).code(0);
    at(
        &t,
        "2026-06-15T10:00",
        &["complete", "g2", "--evidence", "done", "--judge", "none"],
    )
    .code(0);
    t.commit_all("g2 done");
    // Two lines of one minute swapped, as a bad hand merge leaves them: in time
    // order still, but not in the order they were committed in.
    let md = t.plan_md();
    let started = md.lines().find(|l| l.contains("g2 started")).unwrap();
    let signed = md.lines().find(|l| l.contains("g2 signed off")).unwrap();
    let moved = md.replace(
        &format!("{started}\n{signed}\n"),
        &format!("{signed}\n{started}\n"),
    );
    assert_ne!(moved, md);
    t.write("plan.md", &moved);
    t.commit_all("moved");
    insta::assert_snapshot!(shown(&t, &at(&t, "2026-06-15T11:00", &["audit"]).code(1)));
    at(
        &t,
        "2026-06-15T11:05",
        &["reopen", "g2", "--reason", "the log was rewritten"],
    )
    .code(0);
    at(
        &t,
        "2026-06-15T11:10",
        &["complete", "g2", "--evidence", "done", "--judge", "none"],
    )
    .code(0);
    t.commit_all("g2 again");
    insta::assert_snapshot!(shown(&t, &at(&t, "2026-06-15T11:20", &["audit"]).code(0)));
}

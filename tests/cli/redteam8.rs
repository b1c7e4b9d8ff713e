//! Red team 8: the hooks' check of archived goals on the log's word (a review of
//! the change that made a goal done and archived by hand remaining work).

use crate::util::Test;

fn one_goal() -> Test {
    let t = Test::new();
    t.ok(&["init", "Review"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a exists",
        "--verify",
        "test -f a",
        "--failure-mode",
        "a is empty",
        "--active",
    ]);
    t.write("a", "a\n");
    t
}

/// Cheap fake: `a` signed off, then reopened (it needs a new sign-off). The agent
/// pastes a copy of a's own earlier sign-off line at the end of the log, sets
/// `status: done` and moves it under `## Archive`. `plan audit` calls the copy a
/// replay (unproven); the hooks read the latest line only and count nothing. Open:
/// the hooks check an archived goal on its latest record line alone, so a sign-off
/// line copied (or moved below the reopen) passes there, as a forged one does;
/// `plan audit`, `plan lint` and `plan show --all` catch it. What would close it:
/// `proof::on_record` applying the rest of the proof's log-only checks (a
/// transcript an earlier sign-off named; lines out of time order), with the cut
/// reader reading every log line of each archived goal rather than its latest.
#[test]
#[ignore = "red team: a replayed sign-off line hides a reopened archived goal from the hooks"]
fn a_replayed_sign_off_line_hides_a_reopened_archived_goal_from_the_hooks() {
    let t = one_goal();
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.ok(&["reopen", "a", "--reason", "not really"]);
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains(" a signed off"))
        .unwrap()
        .to_string();
    let from = md.find("## Goal: A").unwrap();
    let to = md.find("## Log").unwrap();
    let goal = md[from..to].replacen("status: active", "status: done", 1);
    t.write(
        "plan.md",
        format!(
            "{}{}{line}\n\n## Archive\n\n{}",
            &md[..from],
            &md[to..],
            goal.trim_end()
        ),
    );
    t.run(&["audit"]).code(1).stdout_has("unproven");
    let statusline = t.ok(&["statusline"]).stdout;
    assert!(
        statusline.contains("unproven"),
        "hooks fooled: {statusline}"
    );
}

/// False alarm hunt: reopen + complete again, a cancel, then `plan archive`; and
/// `plan archive` run a second time.
#[test]
fn honest_archived_goals_are_not_remaining_work() {
    let t = one_goal();
    t.ok(&[
        "add",
        "B",
        "--done-when",
        "b",
        "--verify",
        "true",
        "--failure-mode",
        "x",
    ]);
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.ok(&["reopen", "a", "--reason", "again"]);
    t.ok(&[
        "complete",
        "a",
        "--evidence",
        "done again",
        "--judge",
        "none",
    ]);
    t.ok(&["cancel", "b", "--reason", "no"]);
    t.ok(&["archive"]);
    t.ok(&[
        "add",
        "B",
        "--done-when",
        "b",
        "--verify",
        "true",
        "--failure-mode",
        "x",
    ]);
    t.ok(&["cancel", "b-2", "--reason", "no"]);
    t.ok(&["archive"]);
    t.ok(&["archive"]);
    let statusline = t.ok(&["statusline"]).stdout;
    assert!(!statusline.contains('⚠'), "{statusline}\n{}", t.plan_md());
}

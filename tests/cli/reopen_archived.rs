//! `plan reopen` of an archived goal: the goal's section moves back above `## Log`
//! in the same write as the reopen, every line of it and nothing else; a goal some
//! other writer moved or changed meanwhile is a conflict (exit 2).

use crate::preconditions::{race, race_with};
use crate::util::{Test, redact, shown};

/// Live goal `b`, and `a` signed off by the fixture judge and archived; committed.
fn archived_a() -> Test {
    let t = Test::new();
    t.ok(&["init", "Demo"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a exists",
        "--verify",
        "test -f a",
        "--failure-mode",
        "a is empty",
        "--subtask",
        "write a",
        "--active",
    ]);
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
    t.write("a", "a\n");
    t.judge("accept");
    t.ok(&["tick", "a", "1"]);
    t.ok(&["complete", "a", "--evidence", "a is there", "--path", "a"]);
    t.ok(&["archive"]);
    t.commit_all("a archived");
    t
}

/// `md` with goal `a`'s section (the file's last) taken out of `## Archive`, its
/// status set, and put back after `b`, above `## Log`.
fn moved_back(md: &str, status: &str) -> String {
    let from = md.find("## Goal: A\n").unwrap();
    let (rest, block) = md.split_at(from);
    let block = block.replacen("status: done\n", &format!("status: {status}\n"), 1);
    let at = rest.find("\n## Log\n").unwrap() + 1;
    format!("{}{block}\n{}", &rest[..at], &rest[at..])
}

#[test]
fn reopen_moves_an_archived_goal_back_above_the_log_in_one_lossless_write() {
    let t = archived_a();
    let before = t.plan_md();
    t.case(&["reopen", "a", "--reason", "verify fails again"])
        .stdout("reopened a (was done) and moved it back above `## Log`; it needs a new sign-off: plan complete a\n")
        .check();
    let after = t.plan_md();
    // Every line of the goal moved (status now active), the log gained the reopen,
    // and nothing else changed: `## Archive` stays, empty.
    let want = format!(
        "{}- 2026-06-15 14:02 a reopened: verify fails again\n\n## Archive\n\n",
        moved_back(&before, "active")
            .strip_suffix("\n## Archive\n\n")
            .unwrap()
    );
    assert_eq!(after, want);
    // As a set of lines: the same, but for the status, the reopen and a blank line
    // that parts the goal from the one above it.
    let text = |md: &str| -> Vec<String> {
        let mut lines: Vec<String> = md
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.contains("reopened"))
            .map(str::to_string)
            .collect();
        lines.sort();
        lines
    };
    assert_eq!(
        text(&after),
        text(&before.replace("status: done", "status: active"))
    );
    assert_eq!(
        after.lines().filter(|l| l.is_empty()).count(),
        before.lines().filter(|l| l.is_empty()).count() + 1
    );
    // Not done: it is live work again, and takes a new honest sign-off, which
    // `plan audit` accepts (the move hid no history).
    let show = t.ok(&["show", "a"]).stdout;
    insta::assert_snapshot!(redact(&t, &show));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["reopen", "a", "--reason", "again"]).code(2)
    ));
    t.ok(&[
        "complete",
        "a",
        "--evidence",
        "a is there again",
        "--path",
        "a",
    ]);
    t.ok(&["audit"]);
    t.commit_all("signed off again");
    t.ok(&["audit"]);
    // And it archives again as any other goal does.
    insta::assert_snapshot!(shown(&t, &t.ok(&["archive"])));
    t.ok(&["audit"]);
}

#[test]
fn a_reopened_archived_goal_is_not_done_for_the_hooks_either() {
    let t = archived_a();
    t.ok(&["reopen", "a", "--reason", "regressed"]);
    let next = t.ok(&["next"]).stdout;
    insta::assert_snapshot!(redact(&t, &next));
    let status = t.ok(&["show", "a", "--json"]).json();
    assert_eq!(status["status"], "active", "{status}");
    assert_eq!(status["archived"], false, "{status}");
}

#[test]
fn a_goal_another_reopen_moved_meanwhile_is_a_conflict() {
    let t = archived_a();
    let (first, meanwhile) = race(
        &t,
        &["reopen", "a", "--reason", "first"],
        &[&["reopen", "a", "--reason", "second"]],
    );
    insta::assert_snapshot!(shown(&t, &first.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
    assert_eq!(meanwhile.matches("## Goal: A").count(), 1, "{meanwhile}");
}

#[test]
fn a_goal_moved_back_by_hand_meanwhile_is_a_conflict() {
    let t = archived_a();
    let before = t.plan_md();
    let by_hand = moved_back(&before, "done");
    let (first, meanwhile) = race_with(&t, &["reopen", "a", "--reason", "first"], || {
        t.write("plan.md", &by_hand)
    });
    insta::assert_snapshot!(shown(&t, &first.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
}

#[test]
fn a_line_added_to_the_archived_goal_meanwhile_is_a_conflict_not_left_behind() {
    let t = archived_a();
    let before = t.plan_md();
    let edited = format!("{before}note: kept by hand\n");
    let (first, meanwhile) = race_with(&t, &["reopen", "a", "--reason", "first"], || {
        t.write("plan.md", &edited)
    });
    insta::assert_snapshot!(shown(&t, &first.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
}

#[test]
fn a_goal_added_meanwhile_is_kept_and_the_reopened_goal_goes_after_it() {
    let t = archived_a();
    let (first, _) = race(
        &t,
        &["reopen", "a", "--reason", "first"],
        &[&[
            "add",
            "C",
            "--done-when",
            "c",
            "--verify",
            "true",
            "--failure-mode",
            "x",
        ]],
    );
    first.code(0);
    let md = t.plan_md();
    let (b, c, a, log) = (
        md.find("## Goal: B").unwrap(),
        md.find("## Goal: C").unwrap(),
        md.find("## Goal: A").unwrap(),
        md.find("## Log").unwrap(),
    );
    assert!(b < c && c < a && a < log, "{md}");
    assert_eq!(md.matches("## Goal: A").count(), 1, "{md}");
    assert!(md.contains("c added"), "{md}");
    assert!(md.contains("a reopened: first"), "{md}");
    assert!(md.ends_with("## Archive\n\n"), "{md}");
    t.ok(&["lint"]);
}

/// Attack: another goal archived while the reopen waits on the lock, its section
/// put under `## Archive` beside the one the reopen moves out: each ends where its
/// own command put it, every line once. The reopen refused (exit 2): `a` was the
/// file's last section, and `b` archived after it gave it a trailing blank line,
/// which the section check read as a change. Blank lines after it no longer count.
#[test]
fn a_goal_archived_meanwhile_stays_archived_and_the_reopened_one_comes_back() {
    let t = archived_a();
    t.ok(&["complete", "b", "--evidence", "b is true"]);
    t.commit_all("b signed off");
    let (first, _) = race(&t, &["reopen", "a", "--reason", "first"], &[&["archive"]]);
    first.code(0);
    let md = t.plan_md();
    let (a, log, archive, b) = (
        md.find("## Goal: A").unwrap(),
        md.find("## Log").unwrap(),
        md.find("## Archive").unwrap(),
        md.find("## Goal: B").unwrap(),
    );
    assert!(a < log && log < archive && archive < b, "{md}");
    assert_eq!(md.matches("## Goal: A").count(), 1, "{md}");
    assert_eq!(md.matches("## Goal: B").count(), 1, "{md}");
    assert!(md.contains("a reopened: first"), "{md}");
    t.ok(&["lint"]);
}

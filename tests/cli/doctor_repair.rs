//! `plan doctor --fix` repairs what a merge without plan's merge driver leaves in
//! plan.md (log lines copied by `merge=union`, a signed-off goal's contract
//! stripped by a line-wise merge), honestly: each repair is a logged event, audit
//! passes afterwards where nothing of substance changed, and a reopen the merge
//! lost or kept still needs a new sign-off. Real git, real merges.

use crate::util::{Run, Test, redact, shown};

/// `plan ARGS` at clock `at` (`2026-06-15T15:00`).
fn at(t: &Test, at: &str, args: &[&str]) -> Run {
    Run::from(t.cmd(args).env("PLAN_NOW", at).output().unwrap(), args)
}

/// A repository whose plan.md merges line-wise with `merge=union` (what a team
/// without plan's driver sets to dodge conflicts), with goal `a` active.
fn union_repo() -> Test {
    let t = Test::new();
    t.ok(&["init", "Merges"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a exists",
        "--failure-mode",
        "a is empty",
        "--active",
    ]);
    t.write(".gitattributes", "plan.md merge=union\n");
    t.commit_all("base");
    t
}

fn head(t: &Test) -> String {
    t.git(&["rev-parse", "HEAD"]).trim().to_string()
}

/// Branch `one` signs `a` off (then runs `after` at 15:10); branch `two` logs a
/// line and cherry-picks the sign-off; `two` is merged into `one`. The union
/// merge keeps the sign-off line twice.
fn signed_on_both_branches(t: &Test, after: &[&str]) {
    t.git(&["checkout", "-q", "-b", "one"]);
    at(
        t,
        "2026-06-15T15:00",
        &["complete", "a", "--evidence", "ok", "--judge", "none"],
    )
    .code(0);
    t.commit_all("sign a off");
    let signed = head(t);
    at(t, "2026-06-15T15:10", after).code(0);
    t.commit_all("after the sign-off");
    t.git(&["checkout", "-q", "main"]);
    t.git(&["checkout", "-q", "-b", "two"]);
    at(t, "2026-06-15T15:05", &["log", "two says hello"]).code(0);
    t.commit_all("two");
    t.git(&["cherry-pick", &signed]);
    t.git(&["checkout", "-q", "one"]);
    t.git(&["merge", "-q", "--no-edit", "two"]);
}

const SIGNED: &str =
    "- 2026-06-15 15:00 a signed off (no verify, judge skipped, contract ca955384)";

#[test]
fn log_lines_a_union_merge_copied_are_removed_and_audit_passes() {
    let t = union_repo();
    signed_on_both_branches(&t, &["log", "one says hello"]);
    assert_eq!(t.plan_md().matches(SIGNED).count(), 2, "{}", t.plan_md());
    t.run(&["audit"]).code(1);
    // Deleting the copy by hand rewrites the committed log: audit says so.
    let merged = t.plan_md();
    let copy = merged.rfind(SIGNED).unwrap();
    let line_end = copy + merged[copy..].find('\n').unwrap() + 1;
    t.write(
        "plan.md",
        format!("{}{}", &merged[..copy], &merged[line_end..]),
    );
    t.commit_all("remove the copy by hand");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    t.git(&["revert", "--no-edit", "HEAD"]);
    // Repaired by doctor, the removal is a logged event that audit accepts.
    let fix = at(&t, "2026-06-15T16:00", &["doctor", "--fix"]);
    insta::assert_snapshot!(redact(&t, &fix.stdout));
    let md = t.plan_md();
    assert_eq!(md.matches(SIGNED).count(), 1, "{md}");
    assert!(
        md.ends_with("- 2026-06-15 15:05 two says hello\n- 2026-06-15 16:00 log repaired: removed 1 duplicated line\n"),
        "{md}"
    );
    // The first of the two stays where it was.
    assert!(md.find(SIGNED).unwrap() < md.find("one says hello").unwrap());
    t.ok(&["audit"]);
    t.commit_all("doctor --fix");
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["events", "--json"])));
}

#[test]
fn a_reopen_the_merge_kept_still_needs_a_new_sign_off() {
    let t = union_repo();
    signed_on_both_branches(&t, &["reopen", "a", "--reason", "it regressed"]);
    // The union kept the reopen, then the sign-off's copy after it, and the merge
    // took `status: done` from the branch that never reopened.
    at(&t, "2026-06-15T16:00", &["doctor", "--fix"]);
    let md = t.plan_md();
    assert_eq!(md.matches(SIGNED).count(), 1, "{md}");
    // The copy that went is the one after the reopen: the reopen still voids it.
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    t.commit_all("doctor --fix");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    at(
        &t,
        "2026-06-15T17:00",
        &[
            "complete",
            "a",
            "--evidence",
            "fixed again",
            "--judge",
            "none",
        ],
    )
    .code(0);
    t.commit_all("signed off again");
    t.ok(&["audit"]);
}

#[test]
fn a_reopen_the_merge_lost_is_not_laundered_by_the_repair() {
    let t = union_repo();
    signed_on_both_branches(&t, &["reopen", "a", "--reason", "it regressed"]);
    // Resolved by hand, the reopen dropped: the log keeps both sign-off lines.
    let md = t.plan_md();
    let lost: String = md
        .lines()
        .filter(|l| !l.contains("a reopened"))
        .map(|l| format!("{l}\n"))
        .collect();
    t.write("plan.md", lost);
    t.commit_all("merged");
    // The reopen was a write plan acknowledged on this branch, which the file lost:
    // the repair makes it again (lost-writes), so `a` is no longer done on a
    // sign-off the reopen voided.
    let fix = at(&t, "2026-06-15T16:00", &["doctor", "--fix"]);
    assert!(
        fix.stdout.contains("lost-writes") || fix.stdout.contains("lost write"),
        "{}",
        fix.stdout
    );
    let md = t.plan_md();
    assert_eq!(md.matches(SIGNED).count(), 1, "{md}");
    assert!(md.contains("a reopened"), "{md}");
    assert!(!md.contains("status: done"), "{md}");
    t.commit_all("doctor --fix");
    t.run(&["audit"]).stdout_has("0 finished goals");
}

#[test]
fn a_sign_off_the_merge_lost_still_needs_a_new_one() {
    let t = union_repo();
    signed_on_both_branches(&t, &["log", "one says hello"]);
    // Resolved by hand, both copies of the sign-off dropped; the status stayed done.
    let lost: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.starts_with(SIGNED))
        .map(|l| format!("{l}\n"))
        .collect();
    t.write("plan.md", lost);
    t.commit_all("merged");
    at(&t, "2026-06-15T16:00", &["doctor", "--fix"]).code(1);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    at(
        &t,
        "2026-06-15T17:00",
        &[
            "complete",
            "a",
            "--evidence",
            "signed again",
            "--judge",
            "none",
        ],
    )
    .code(0);
    // The new sign-off proves the goal; the lost line stays a rewrite of the log
    // until it is put back from git.
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// Branch `one` adds `x` and signs it off; branch `two` adds `y` with the same
/// failure modes (a template's); the union merge of `two` into `one` gives the
/// shared lines to `y` only, and `x` loses its failure modes.
fn stripped_contract() -> Test {
    let t = union_repo();
    t.git(&["checkout", "-q", "-b", "one"]);
    let modes = [
        "--failure-mode",
        "it is empty",
        "--failure-mode",
        "it is wrong",
    ];
    fn add<'a>(title: &'a str, done_when: &'a str, modes: [&'a str; 4]) -> Vec<&'a str> {
        let mut args = vec!["add", title, "--done-when", done_when];
        args.extend(modes);
        args
    }
    at(&t, "2026-06-15T15:00", &add("X", "x exists", modes)).code(0);
    at(&t, "2026-06-15T15:01", &["start", "x"]).code(0);
    at(
        &t,
        "2026-06-15T15:02",
        &["complete", "x", "--evidence", "ok", "--judge", "none"],
    )
    .code(0);
    t.commit_all("x");
    t.git(&["checkout", "-q", "main"]);
    t.git(&["checkout", "-q", "-b", "two"]);
    at(&t, "2026-06-15T16:00", &add("Y", "y exists", modes)).code(0);
    t.commit_all("y");
    t.git(&["checkout", "-q", "one"]);
    t.git(&["merge", "-q", "--no-edit", "two"]);
    t
}

#[test]
fn a_contract_a_union_merge_stripped_is_restored_from_its_transcript() {
    let t = stripped_contract();
    let merged = t.plan_md();
    assert!(
        merged.contains("status: done\ndone_when: x exists\n## Goal: Y"),
        "{merged}"
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    let record = ".plan/judge/x-20260615-1502.md";
    let doctor = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(redact(&t, &doctor.stdout));
    // The proof's own finding stands beside it: doctor cannot tell a merge from
    // a hand edit.
    assert!(doctor.stdout.contains("[unproven]"), "{}", doctor.stdout);
    insta::assert_snapshot!(shown(&t, &at(&t, "2026-06-15T17:00", &["doctor", "--fix"])));
    let md = t.plan_md();
    assert!(
        md.contains("status: done\ndone_when: x exists\nfailure_modes:\n- it is empty\n- it is wrong\n## Goal: Y"),
        "{md}"
    );
    assert!(
        md.ends_with(&format!(
            "- 2026-06-15 17:00 x contract restored from {record}\n"
        )),
        "{md}"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    t.commit_all("doctor --fix");
    t.ok(&["audit"]);
    // Nothing left to repair: a second run changes nothing.
    let before = t.plan_md();
    at(&t, "2026-06-15T18:00", &["doctor", "--fix"]);
    assert_eq!(t.plan_md(), before);
}

#[test]
fn a_transcript_that_does_not_match_its_sign_off_restores_nothing() {
    let t = stripped_contract();
    let record = ".plan/judge/x-20260615-1502.md";
    // A transcript edited after the sign-off is no source for the contract.
    let text = t.read(record).replace("- it is wrong", "- it is slow");
    t.write(record, text);
    let doctor = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &doctor));
    let before = t.plan_md();
    at(&t, "2026-06-15T17:00", &["doctor", "--fix"]).code(1);
    assert_eq!(t.plan_md(), before);
    t.run(&["audit"]).code(1);
}

// Attack: launder a reopen through the duplicate repair. The agent inserts a copy
// of the reopen line above the sign-off, so the real reopen below it reads as the
// later copy that `plan doctor --fix` removes; the log then ends with the sign-off.
// No merge made that copy, so the repair removes nothing.
#[test]
fn a_reopen_copied_above_its_sign_off_is_not_laundered_by_the_repair() {
    let t = union_repo();
    at(
        &t,
        "2026-06-15T15:00",
        &["complete", "a", "--evidence", "ok", "--judge", "none"],
    )
    .code(0);
    t.commit_all("sign a off");
    at(
        &t,
        "2026-06-15T15:10",
        &["reopen", "a", "--reason", "it regressed"],
    )
    .code(0);
    t.commit_all("reopen");
    let md = t.plan_md();
    let reopen = md
        .lines()
        .find(|l| l.contains("a reopened"))
        .unwrap()
        .to_string();
    t.write(
        "plan.md",
        md.replace(SIGNED, &format!("{reopen}\n{SIGNED}"))
            .replace("status: active", "status: done"),
    );
    t.commit_all("tidy");
    // No merge made the copy, so it is no merge damage: the repair leaves both.
    let before = t.plan_md();
    at(&t, "2026-06-15T16:00", &["doctor", "--fix"]);
    assert_eq!(t.plan_md(), before);
    assert_eq!(t.plan_md().matches("a reopened").count(), 2);
    // The copy above the sign-off is out of time order: the goal stays unproven.
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// Attack: a person logs the same words twice in one minute ("ran the suite: 3
/// failures", a fix, the suite again), no merge anywhere. The second line is
/// honest work, yet `doctor` calls it merge damage and `--fix` deletes it.
#[test]
fn a_line_honestly_logged_twice_in_one_minute_is_not_removed() {
    let t = Test::new();
    t.ok(&["init", "Twice"]);
    for line in [
        "ran the suite: 3 failures",
        "fixed one",
        "ran the suite: 3 failures",
    ] {
        at(&t, "2026-06-15T15:00", &["log", line]);
    }
    t.commit_all("work");
    let before = t.plan_md();
    at(&t, "2026-06-15T15:01", &["doctor", "--fix"]);
    assert_eq!(
        t.plan_md().matches("ran the suite: 3 failures").count(),
        2,
        "doctor --fix dropped a line a person wrote:\n{}",
        t.plan_md()
    );
    assert!(t.plan_md().starts_with(&before[..before.len() - 1]));
}

/// The copy of a merge under way ("accept both" or `merge=union`, not committed
/// yet): the working file holds the line more often than HEAD and MERGE_HEAD.
#[test]
fn a_copy_made_by_a_merge_not_yet_committed_is_removed() {
    let t = union_repo();
    t.git(&["checkout", "-q", "-b", "one"]);
    at(
        &t,
        "2026-06-15T15:00",
        &["complete", "a", "--evidence", "ok", "--judge", "none"],
    )
    .code(0);
    t.commit_all("sign a off");
    let signed = head(&t);
    at(&t, "2026-06-15T15:10", &["log", "one says hello"]).code(0);
    t.commit_all("one");
    t.git(&["checkout", "-q", "main"]);
    t.git(&["checkout", "-q", "-b", "two"]);
    at(&t, "2026-06-15T15:05", &["log", "two says hello"]).code(0);
    t.commit_all("two");
    t.git(&["cherry-pick", &signed]);
    t.git(&["checkout", "-q", "one"]);
    t.git(&["merge", "-q", "--no-commit", "--no-ff", "two"]);
    assert_eq!(t.plan_md().matches(SIGNED).count(), 2, "{}", t.plan_md());
    insta::assert_snapshot!(shown(&t, &at(&t, "2026-06-15T16:00", &["doctor", "--fix"])));
    assert_eq!(t.plan_md().matches(SIGNED).count(), 1, "{}", t.plan_md());
}

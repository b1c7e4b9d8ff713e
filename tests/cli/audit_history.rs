//! `plan audit` reads plan.md's history: a reopen dropped on a merged branch or
//! buried 200 commits back, an active goal deleted by hand, or a history that cannot
//! be read is found.

use crate::setup::{b_deleted, sign_unjudged, status_of, two_goals};
use crate::util::{Test, redact, shown};

/// `plan audit` failed on an unfinished goal hidden under `## Archive`, but named a
/// deleted one only as a warning and exited 0: in CI the work vanished without a
/// cancel. A goal whose history the log has and the file lost now fails it.
#[test]
fn a_deleted_active_goal_fails_the_audit() {
    let t = b_deleted();
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    let json = t.run(&["audit", "--json"]).code(1).json();
    assert_eq!(json["orphaned_ids"], serde_json::json!(["b"]));
}

/// `b` signed off and committed, reopened and committed: the state a reopen-hiding
/// attack starts from.
fn b_reopened() -> Test {
    let t = two_goals();
    t.write("b.txt", "b\n");
    sign_unjudged(&t, "b");
    t.commit_all("b signed off");
    t.ok(&["reopen", "b", "--reason", "verify fails again"]);
    t.commit_all("b reopened");
    t
}

/// The reopen line dropped on a side branch and merged back with `-s ours`, so main
/// only fast-forwards (no history is rewritten, nothing needs a force push): audit's
/// search for removed log lines followed first parents, where no version of
/// plan.md ever had the reopen, and the old sign-off proved `b` again. It now looks
/// at every commit HEAD reaches.
#[test]
fn a_reopen_dropped_on_a_branch_merged_with_ours_is_still_found() {
    let t = b_reopened();
    let md = t.plan_md();
    let hidden: String = md
        .lines()
        .filter(|l| !l.contains("b reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replacen(
            "status: active\ndone_when: b.txt",
            "status: done\ndone_when: b.txt",
            1,
        );
    assert_ne!(hidden, md);
    t.git(&["checkout", "-q", "-b", "tidy", "HEAD~1"]);
    t.write("plan.md", &hidden);
    t.ok(&["log", "tidied the log"]);
    t.commit_all("tidy the log");
    t.git(&["merge", "-q", "-s", "ours", "-m", "merge", "main"]);
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--ff-only", "tidy"]);
    assert!(!t.plan_md().contains("b reopened:"));
    assert_eq!(status_of(&t, "b"), "done");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the old sign-off proves b again:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

/// The reopen line deleted and committed, then 200 more commits that each change
/// plan.md (a note appended to the log, as `plan log` does): audit searched only
/// the newest 200 versions of plan.md for removed log lines, so the version with
/// the reopen fell out of reach and the old sign-off proved `b` again. It now
/// searches every version HEAD reaches.
#[test]
fn a_reopen_deleted_200_commits_ago_is_still_found() {
    let t = b_reopened();
    let hidden: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("b reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replacen(
            "status: active\ndone_when: b.txt",
            "status: done\ndone_when: b.txt",
            1,
        );
    t.write("plan.md", &hidden);
    t.commit_all("tidy the log");
    let mut md = hidden;
    for i in 0..200 {
        md.push_str(&format!("- 2026-06-15 14:02 note {i}\n"));
        t.write("plan.md", &md);
        t.git(&["commit", "-qam", &format!("note {i}")]);
    }
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the old sign-off proves b again:\n{}",
        run.stdout
    );
}

/// The version of plan.md that had the reopen made unreadable (its blob deleted
/// from the object store) after the reopen line was deleted and committed: audit's
/// search of the history failed and was taken as "nothing removed", so the old
/// sign-off proved `b` again and audit passed. A history that cannot be read now
/// fails the audit.
#[test]
fn a_history_that_cannot_be_read_fails_the_audit() {
    let t = b_reopened();
    let reopened_blob = t.git(&["rev-parse", "HEAD:plan.md"]).trim().to_string();
    let hidden: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("b reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replacen(
            "status: active\ndone_when: b.txt",
            "status: done\ndone_when: b.txt",
            1,
        );
    t.write("plan.md", &hidden);
    t.commit_all("tidy the log");
    let object = t.path(&format!(
        ".git/objects/{}/{}",
        &reopened_blob[..2],
        &reopened_blob[2..]
    ));
    assert!(object.exists(), "the blob is loose");
    std::fs::remove_file(&object).unwrap();
    let run = t.run(&["audit"]);
    assert_ne!(
        run.code,
        0,
        "audit passed on a history it could not read:\n{}\n{}\n{}",
        run.stdout,
        run.stderr,
        t.git(&["log", "--oneline", "--all"])
    );
    assert!(
        run.stderr.contains("searching the history of plan.md"),
        "{}",
        run.stderr
    );
}

/// `b` signed off and committed, then reopened by `plan reopen` (a person's "verify
/// fails again") and, before anything is committed, the reopen line deleted from
/// the log and `status: done` written back by hand: audit reads only committed
/// versions of plan.md for removed log lines, and `.git/plan/plan.written` keeps
/// the written file's shape, not its log, so the old sign-off proves `b` again and
/// the commit that follows never had the reopen.
/// Failed before (exit 0): plan now keeps the log lines it writes in
/// `.git/plan/logged.tsv`, and audit names one plan.md lost, committed or not.
#[test]
fn a_reopen_deleted_before_any_commit_is_still_found() {
    let t = two_goals();
    t.write("b.txt", "b\n");
    sign_unjudged(&t, "b");
    t.commit_all("b signed off");
    t.ok(&["reopen", "b", "--reason", "verify fails again"]);
    let md = t.plan_md();
    let hidden: String = md
        .lines()
        .filter(|l| !l.contains("b reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replacen(
            "status: active\ndone_when: b.txt",
            "status: done\ndone_when: b.txt",
            1,
        );
    assert_ne!(hidden, md);
    t.write("plan.md", &hidden);
    assert_eq!(status_of(&t, "b"), "done");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the old sign-off proves b again:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(redact(&t, &run.stdout));
    // With a commit on top, it is still gone.
    t.write("c.txt", "c\n");
    t.commit_all("more work");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    // Put back, the audit passes again.
    t.write("plan.md", &md);
    t.ok(&["audit"]);
}

/// A line plan wrote on another branch is that branch's: switching away from it
/// (committed there) finds nothing missing here.
#[test]
fn a_line_written_on_another_branch_is_not_missed_here() {
    let t = two_goals();
    t.git(&["checkout", "-q", "-b", "side"]);
    t.write("b.txt", "b\n");
    sign_unjudged(&t, "b");
    t.commit_all("b signed off on side");
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["audit"]);
}

//! A whole plan.md that lacks writes plan acknowledged (issue 70, the soak's
//! largest loss): an editor read plan.md, plan wrote, the editor saved the copy it
//! had read. `plan doctor` names it (`lost-writes`) from the journal, and `--fix`
//! makes those writes again on the file as it is, keeping that version beside it.

use crate::util::Test;

use crate::cut_rebuild::{PLAN, acknowledged_writes};

/// The files beside plan.md whose names start with `plan.md.stale`.
fn kept_copies(t: &Test) -> Vec<String> {
    crate::cut_rebuild::kept_beside(t, "plan.md.stale")
}

/// `text` as a person's editor saved it: with a note of theirs under the title.
fn with_note(text: &str) -> String {
    text.replacen("# Plan: x\n", "# Plan: x\nA note the person wrote.\n", 1)
}

/// `plan doctor` finds one lost write; `what` names the case.
fn lacks_one_write(t: &Test, what: &str) {
    let doctor = t.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("[lost-writes]") && doctor.stdout.contains("1 write"),
        "{what}: {}{}",
        doctor.stdout,
        doctor.stderr
    );
}

/// `plan doctor` finds no lost write; `what` names the case.
fn lacks_none(t: &Test, what: &str) {
    let doctor = t.run(&["doctor"]);
    assert!(
        !doctor.stdout.contains("lost-writes"),
        "{what}: {}{}",
        doctor.stdout,
        doctor.stderr
    );
}

/// Attack (the soak, 926 of 1,024 losses): the editor read plan.md before six
/// writes and saved its copy, with the person's note, after them. The file is
/// whole, so nothing was refused and nothing brought the writes back: `plan doctor`
/// said nothing and `--fix` changed nothing. Failed before.
#[test]
fn writes_an_editor_saved_an_older_copy_over_are_made_again() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    acknowledged_writes(&t);
    let written = t.plan_md();
    let theirs = with_note(PLAN);
    t.write("plan.md", &theirs);
    // Committed as it is, as a person would without looking.
    t.commit_all("the editor's save");

    let doctor = t.run(&["doctor"]);
    assert_eq!(doctor.code, 1, "{}{}", doctor.stdout, doctor.stderr);
    assert!(doctor.stdout.contains("[lost-writes]"), "{}", doctor.stdout);
    assert!(doctor.stdout.contains("6 writes"), "{}", doctor.stdout);
    assert_eq!(t.plan_md(), theirs, "doctor alone writes nothing");

    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(fix.code, 0, "{}{}", fix.stdout, fix.stderr);
    let md = t.plan_md();
    assert_eq!(
        md,
        with_note(&written),
        "every write made again, the person's note kept"
    );
    let kept = kept_copies(&t);
    assert_eq!(kept.len(), 1, "{kept:?}");
    assert_eq!(t.read(&kept[0]), theirs, "the saved version is kept");
    assert!(fix.stdout.contains(&kept[0]), "{}", fix.stdout);
    assert!(
        fix.stdout.contains("+- [ ] beta two"),
        "the diff is shown: {}",
        fix.stdout
    );
    let again = t.run(&["doctor"]);
    assert!(!again.stdout.contains("lost-writes"), "{}", again.stdout);
    t.ok(&["log", "after the repair"]);
}

/// A save read between writes lacks only the later ones, and the log lines come
/// back in time order, before a line written after the save.
#[test]
fn only_the_writes_after_the_editors_read_are_made_again_in_time_order() {
    let t = Test::new().plan(PLAN).env("PLAN_NOW", "2026-06-15T15:00");
    t.commit_all("start");
    t.ok(&["log", "one"]);
    let read = t.plan_md();
    let t = t.env("PLAN_NOW", "2026-06-15T15:01");
    t.ok(&["subtask", "beta", "beta two"]);
    t.ok(&["log", "two"]);
    t.write("plan.md", &read);
    let t = t.env("PLAN_NOW", "2026-06-15T15:02");
    t.ok(&["log", "three"]);
    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(fix.code, 0, "{}{}", fix.stdout, fix.stderr);
    let md = t.plan_md();
    assert!(md.contains("- [ ] beta one\n- [ ] beta two\n"), "{md}");
    assert!(
        md.ends_with("- 2026-06-15 15:00 one\n- 2026-06-15 15:01 two\n- 2026-06-15 15:02 three\n"),
        "{md}"
    );
}

/// Honest work: a line plan wrote that the person took out by hand, with plan's
/// writes going on after it, is the person's edit, not a lost write; nor are the
/// writes a `git reset --hard` to an older commit dropped.
#[test]
fn a_line_taken_out_by_hand_and_a_reset_are_not_lost_writes() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["subtask", "beta", "beta two"]);
    t.ok(&["log", "one"]);
    let md = t.plan_md().replace("- [ ] beta two\n", "");
    t.write("plan.md", &md);
    t.ok(&["log", "two"]);
    let doctor = t.run(&["doctor"]);
    assert!(!doctor.stdout.contains("lost-writes"), "{}", doctor.stdout);

    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    t.commit_all("with one");
    t.ok(&["log", "two"]);
    t.git(&["reset", "-q", "--hard", "HEAD~1"]);
    let doctor = t.run(&["doctor"]);
    assert!(
        !doctor.stdout.contains("lost-writes"),
        "a reset drops writes on purpose: {}",
        doctor.stdout
    );
}

/// The journal is anyone's to write: a line in it that marks a goal done with its
/// sign-off is never made again by `--fix`; it is listed, and `plan complete` is
/// named.
#[test]
fn a_journaled_write_that_marks_a_goal_done_is_not_made_again() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    let read = t.plan_md();
    t.ok(&["start", "beta"]);
    let journal = t.root().join(".git/plan/events.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let last = text.lines().last().unwrap();
    let forged = last
        .replace("status: open", "status: XX")
        .replace("status: active", "status: done")
        .replace("status: XX", "status: active")
        .replace("beta started", "beta signed off");
    std::fs::write(&journal, format!("{text}{forged}\n")).unwrap();
    // Saved back as read before the start: both writes are lacking.
    t.write("plan.md", &read);
    let fix = t.run(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert!(!md.contains("status: done"), "{md}");
    assert!(
        md.contains("status: active"),
        "the real start is made again: {md}"
    );
    assert!(fix.stdout.contains("plan complete"), "{}", fix.stdout);
}

/// A write that lands while `--fix` is making the lost ones again (the soak: a cut
/// rebuilt lets the waiting writers through at once) leaves the repair for the
/// next run, said as a finding left, not as an error (exit 2) after the other
/// repairs were made; the write that landed is kept, and the rerun makes them.
#[test]
fn a_write_landing_during_the_repair_leaves_it_for_the_next_run() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    let read = t.plan_md();
    t.ok(&["log", "one"]);
    t.write("plan.md", &read);
    let (child, gate) = t.spawn_paused(t.cmd(&["doctor", "--fix"]));
    t.ok(&["log", "landed meanwhile"]);
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("[lost-writes]") && stdout.contains("rerun"),
        "{stdout}"
    );
    assert!(t.plan_md().contains("landed meanwhile"));
    t.ok(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert!(
        md.contains(" one\n") && md.contains("landed meanwhile"),
        "{md}"
    );
}

/// The same through a line the first check does not read as a status change: a
/// forged goal added already done. The repair's result is read as a plan, and one
/// with a goal done that the file has not makes nothing again.
#[test]
fn a_journaled_goal_added_as_done_is_not_made_again() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    let journal = t.root().join(".git/plan/events.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let mut forged = last.clone();
    forged["before"] = last["after"].clone();
    forged["steps"] = serde_json::json!([{"op": "append_goal", "lines": ["## Goal: Fake", "<!-- id: fake -->", "status: done", "done_when: nothing"]}]);
    std::fs::write(&journal, format!("{text}{forged}\n")).unwrap();
    let before = t.plan_md();
    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(t.plan_md(), before, "{}{}", fix.stdout, fix.stderr);
    assert!(fix.stdout.contains("plan complete"), "{}", fix.stdout);
}

/// Red team on 13885fc: a forged journal line that cancels a goal and rewrites
/// another's contract, with log lines saying so, was made again by `--fix` as a
/// write plan acknowledged. A repair takes log lines, subtasks, ticks, a start and
/// new goals on the journal's word, nothing else.
#[test]
fn a_journaled_cancel_or_contract_rewrite_is_not_made_again() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    let journal = t.root().join(".git/plan/events.jsonl");
    let text = std::fs::read_to_string(&journal).unwrap();
    let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
    let mut forged = last.clone();
    forged["before"] = last["after"].clone();
    forged["steps"] = serde_json::json!([
        {"op": "replace", "line": 6, "expect": "done_when: alpha works", "new": "done_when: true", "block": "<!-- id: alpha -->"},
        {"op": "replace", "line": 12, "expect": "status: open", "new": "status: cancelled", "block": "<!-- id: beta -->"},
        {"op": "append_log", "lines": ["- 2026-06-15 14:05 beta cancelled: not needed"]}
    ]);
    std::fs::write(&journal, format!("{text}{forged}\n")).unwrap();
    let before = t.plan_md();
    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(t.plan_md(), before, "{}{}", fix.stdout, fix.stderr);
    assert!(fix.stdout.contains("plan cancel"), "{}", fix.stdout);
}

/// Red team on 1b340fd: git's own discards were called lost writes, for good, and
/// `--fix` undid them. A `git revert` of a commit that added a subtask, a
/// `git reset --hard HEAD~1` past a committed write, and a stash not popped yet
/// (whose pop `--fix` then made refuse) each drop plan's writes on purpose, and
/// git's history says so: nothing is lost. Each failed before.
#[test]
fn a_revert_a_reset_and_a_stash_are_gits_discards_not_lost_writes() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["subtask", "beta", "beta two"]);
    t.commit_all("beta two");
    t.git(&["revert", "--no-edit", "HEAD"]);
    t.ok(&["log", "after the revert"]);
    lacks_none(&t, "a revert");

    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    t.commit_all("with one");
    t.git(&["reset", "-q", "--hard", "HEAD~1"]);
    t.ok(&["log", "after the reset"]);
    lacks_none(&t, "a reset past a committed write");

    let t = Test::new().plan(PLAN);
    t.ok(&["install", "git"]);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    t.git(&["stash", "-q"]);
    t.ok(&["log", "while stashed"]);
    lacks_none(&t, "a stash not popped yet");
    t.commit_all("while stashed");
    t.git(&["stash", "pop", "-q"]);
    let md = t.plan_md();
    assert!(
        md.contains(" one\n") && md.contains(" while stashed\n"),
        "the pop brings it back: {md}"
    );
    lacks_none(&t, "after the pop");
}

/// A discard git keeps no trace of (`git checkout -- plan.md`, a line plan just
/// wrote deleted by hand) reads the same in bytes as an editor's older copy: the
/// finding names both, and `plan doctor --discard-lost` says it was meant, leaving
/// the file as it is. Later losses are still found. Failed before (no such flag, and
/// the finding came back on every run).
#[test]
fn a_discard_said_with_discard_lost_ends_the_finding_and_later_losses_are_still_found() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    t.git(&["checkout", "--", "plan.md"]);
    let doctor = t.run(&["doctor"]);
    assert_eq!(doctor.code, 1, "{}{}", doctor.stdout, doctor.stderr);
    assert!(
        doctor.stdout.contains("[lost-writes]")
            && doctor.stdout.contains("git checkout")
            && doctor.stdout.contains("plan doctor --discard-lost"),
        "{}",
        doctor.stdout
    );
    assert!(
        doctor.stdout.contains("+- ") && doctor.stdout.contains(" one"),
        "what --fix would make is shown: {}",
        doctor.stdout
    );
    let was = t.plan_md();
    let discard = t.run(&["doctor", "--discard-lost"]);
    assert_eq!(discard.code, 0, "{}{}", discard.stdout, discard.stderr);
    assert!(
        discard.stdout.contains("1 lost write"),
        "{}",
        discard.stdout
    );
    assert_eq!(t.plan_md(), was, "the file is left as it is");
    let doctor = t.run(&["doctor"]);
    assert!(!doctor.stdout.contains("lost-writes"), "{}", doctor.stdout);
    assert!(
        kept_copies(&t).is_empty(),
        "nothing kept: nothing was changed"
    );

    t.ok(&["log", "two"]);
    let read = t.plan_md();
    t.ok(&["log", "three"]);
    t.write("plan.md", &read);
    let doctor = t.run(&["doctor"]);
    assert!(
        doctor.stdout.contains("[lost-writes]") && doctor.stdout.contains("1 write"),
        "{}",
        doctor.stdout
    );
    let nothing = t.run(&["doctor", "--discard-lost", "--fix"]);
    assert_eq!(nothing.code, 2, "{}{}", nothing.stdout, nothing.stderr);
}

/// The soak on 8f87d25: a stash kept after its pop (a pop that conflicts keeps it)
/// held writes that an editor's older copy lost later, and they were taken as put
/// away, never made again (31 writes in one run). A stash puts writes away only
/// when the version that came in after them is the one it left. Failed before.
#[test]
fn a_stash_kept_after_its_pop_does_not_hide_writes_an_editor_lost_later() {
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    let theirs = with_note(PLAN);
    t.ok(&["log", "one"]);
    t.git(&["stash", "-q"]);
    t.git(&["stash", "apply", "-q"]);
    assert!(t.plan_md().contains(" one\n"));
    t.write("plan.md", &theirs);
    t.ok(&["log", "two"]);
    lacks_one_write(&t, "a stash kept after its pop");
    t.ok(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert!(
        md.contains(" one\n") && md.contains("A note the person wrote."),
        "{md}"
    );
}

/// Red team on 8f87d25: git's discards hid an editor's losses. A reset that moved
/// HEAD without touching the file (`--soft`), a revert of an old commit that
/// changed another goal, a `--discard-lost` taken before the loss of a write its
/// version still held, and a stash that kept plan.md staged apart each settled
/// every write before them. A discard settles only the writes the version it put
/// (or took as meant) lacks. Each failed before.
#[test]
fn gits_discards_settle_only_the_writes_the_version_they_put_lacks() {
    // A soft reset after an editor's loss.
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["subtask", "beta", "beta two"]);
    t.commit_all("beta two");
    let read = with_note(&t.plan_md());
    t.ok(&["log", "one"]);
    t.write("plan.md", &read);
    t.commit_all("the editor's save");
    t.git(&["reset", "-q", "--soft", "HEAD~1"]);
    lacks_one_write(&t, "a soft reset");

    // A revert of an old commit that changed plan.md elsewhere.
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["subtask", "alpha", "alpha two"]);
    t.commit_all("alpha two");
    let read = with_note(&t.plan_md());
    t.ok(&["log", "one"]);
    t.write("plan.md", &read);
    t.commit_all("the editor's save");
    t.git(&["revert", "--no-edit", "HEAD~1"]);
    lacks_one_write(&t, "a revert of another commit");

    // --discard-lost, then a write its version held lost to an editor.
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    let read = with_note(&t.plan_md());
    t.ok(&["log", "kept"]);
    t.ok(&["log", "taken out"]);
    let md = t.plan_md();
    let cut = md
        .lines()
        .filter(|l| !l.ends_with(" taken out"))
        .collect::<Vec<_>>()
        .join("\n")
        + "\n";
    t.write("plan.md", &cut);
    t.ok(&["doctor", "--discard-lost"]);
    t.write("plan.md", &read);
    t.ok(&["log", "after"]);
    lacks_one_write(&t, "a write --discard-lost's version held");

    // A stash that left plan.md as staged (`--keep-index`).
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    let read = with_note(&t.plan_md());
    t.ok(&["log", "one"]);
    t.git(&["add", "plan.md"]);
    t.write("other.txt", "x\n");
    t.git(&["add", "other.txt"]);
    t.write("other.txt", "y\n");
    t.git(&["stash", "-q", "--keep-index"]);
    t.write("plan.md", &read);
    t.ok(&["log", "two"]);
    lacks_one_write(&t, "a stash that kept plan.md");
}

/// Red team on 34eb6b6: a forged journal write holding only a log line that says
/// `beta signed off (…)` was made again by `--fix` (the status still active, no
/// record, and `plan lint` quiet). A repair makes again notes and a goal's added,
/// started or reopened line, never a sign-off, a cancel or an approval. (A forged
/// reopen is made again: it makes a goal less done, as a reopen a merge dropped
/// must come back; `doctor_repair.rs`.) Failed before.
#[test]
fn a_journaled_sign_off_line_is_not_made_again() {
    let forge = |t: &Test, steps: serde_json::Value| {
        let journal = t.root().join(".git/plan/events.jsonl");
        let text = std::fs::read_to_string(&journal).unwrap();
        let last: serde_json::Value = serde_json::from_str(text.lines().last().unwrap()).unwrap();
        let mut forged = last.clone();
        forged["before"] = last["after"].clone();
        forged["steps"] = steps;
        std::fs::write(&journal, format!("{text}{forged}\n")).unwrap();
    };
    let t = Test::new().plan(PLAN);
    t.commit_all("start");
    t.ok(&["log", "one"]);
    forge(
        &t,
        serde_json::json!([{"op": "append_log", "lines": [
            "- 2026-06-15 14:05 beta signed off (verify passed, judge claude accept): .plan/judge/beta-x.md#000000000000"
        ]}]),
    );
    let before = t.plan_md();
    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(t.plan_md(), before, "{}{}", fix.stdout, fix.stderr);
    assert!(fix.stdout.contains("plan complete"), "{}", fix.stdout);
}

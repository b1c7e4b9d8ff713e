//! Every write command's precondition holds under the store's lock: a command
//! paused after its first read (the debug-build seam `PLAN_TEST_PAUSE`)
//! while another command changes the goal finds it changed and writes nothing
//! (exit 2), instead of writing into a goal that is archived or finished by now.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{Run, Test, shown};

/// Runs `first` up to its write, then each of `between` to completion, then lets
/// `first` go on: what `first` did, and the plan as `between` left it.
pub(crate) fn race(t: &Test, first: &[&str], between: &[&[&str]]) -> (Run, String) {
    race_with(t, first, || {
        for args in between {
            t.ok(args);
        }
    })
}

/// As [`race`], with `between` any change (a save by hand, say).
pub(crate) fn race_with(t: &Test, first: &[&str], between: impl FnOnce()) -> (Run, String) {
    let (child, gate) = t.spawn_paused(t.cmd(first));
    between();
    let meanwhile = t.plan_md();
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    (Run::from(out, first), meanwhile)
}

/// A plan with goal `a` (two subtasks, a failure mode), in `status`.
fn one_goal(status: &str) -> Test {
    let t = Test::new();
    t.ok(&["init", "Races"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a.txt exists",
        "--failure-mode",
        "a.txt is empty",
        "--subtask",
        "write it",
        "--subtask",
        "check it",
    ]);
    match status {
        "open" => {}
        "active" => {
            t.ok(&["start", "a"]);
        }
        "done" => {
            t.ok(&["start", "a"]);
            t.ok(&["complete", "a", "--evidence", "written", "--judge", "none"]);
        }
        other => panic!("{other}"),
    }
    t
}

#[test]
fn reopen_racing_archive_leaves_no_active_goal_under_the_archive() {
    let t = one_goal("done");
    let (reopen, meanwhile) = race(
        &t,
        &["reopen", "a", "--reason", "verify fails again"],
        &[&["archive"]],
    );
    let reopen = reopen.code(2);
    assert_eq!(
        reopen.stderr,
        "plan: goal a was archived while plan was working; nothing was written\n  hint: look at plan.md again and rerun the command\n"
    );
    assert_eq!(t.plan_md(), meanwhile, "the reopen wrote after all");
    let archive = t.plan_md().find("## Archive").unwrap();
    assert!(t.plan_md()[archive..].contains("status: done"));
    t.ok(&["audit"]);
}

#[test]
fn start_racing_cancel_logs_no_start_after_the_cancel() {
    // Set active by hand, nothing logged: `plan start` logs the contract and leaves
    // the status line as it is.
    let t = Test::new().plan(
        "# Plan: Races\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: a.txt exists\n\n## Log\n",
    );
    let (start, meanwhile) = race(
        &t,
        &["start", "a"],
        &[&["cancel", "a", "--reason", "not needed"]],
    );
    insta::assert_snapshot!(shown(&t, &start.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
    assert!(!t.plan_md().contains("a started"), "{}", t.plan_md());
}

#[test]
fn start_cancelled_meanwhile_is_refused_too() {
    let t = one_goal("open");
    let (start, meanwhile) = race(
        &t,
        &["start", "a"],
        &[&["cancel", "a", "--reason", "not needed"]],
    );
    insta::assert_snapshot!(shown(&t, &start.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
}

#[test]
fn tick_racing_archive_ticks_nothing_under_the_archive() {
    let t = one_goal("active");
    let (tick, meanwhile) = race(
        &t,
        &["tick", "a", "1"],
        &[&["cancel", "a", "--reason", "dropped"], &["archive"]],
    );
    insta::assert_snapshot!(shown(&t, &tick.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
    assert!(!t.plan_md().contains("- [x]"), "{}", t.plan_md());
}

/// Every command that edits a live goal: cancelled and archived meanwhile, it
/// writes nothing.
#[test]
fn goal_edits_racing_cancel_and_archive_write_nothing() {
    let commands: &[&[&str]] = &[
        &["untick", "a", "1"],
        &["subtask", "a", "one more"],
        &["subgoal", "a", "it is reviewed"],
        &["edit", "a", "--done-when", "a.txt and b.txt exist"],
        &["cancel", "a", "--reason", "twice"],
        &["start", "a", "--reapprove"],
    ];
    for command in commands {
        let t = one_goal("active");
        t.ok(&["tick", "a", "1"]);
        let (run, meanwhile) = race(
            &t,
            command,
            &[&["cancel", "a", "--reason", "dropped"], &["archive"]],
        );
        insta::assert_snapshot!(shown(&t, &run.code(2)));
        assert_eq!(t.plan_md(), meanwhile, "plan {command:?} wrote");
    }
}

#[test]
fn archive_racing_reopen_moves_nothing() {
    let t = one_goal("done");
    let (archive, meanwhile) = race(
        &t,
        &["archive"],
        &[&["reopen", "a", "--reason", "regressed"]],
    );
    insta::assert_snapshot!(shown(&t, &archive.code(2)));
    assert_eq!(t.plan_md(), meanwhile);
    assert!(!t.plan_md().contains("## Archive"));
}

#[test]
fn add_racing_archive_puts_the_new_goal_among_the_live_ones() {
    let t = one_goal("done");
    let (add, _) = race(&t, &["add", "B"], &[&["archive"]]);
    add.code(0);
    let md = t.plan_md();
    let b = md.find("## Goal: B").unwrap();
    assert!(
        b < md.find("## Log").unwrap(),
        "the new goal is not before the log:\n{md}"
    );
    let archive = md.find("## Archive").unwrap();
    assert!(md[archive..].contains("## Goal: A") && !md[archive..].contains("## Goal: B"));
    t.ok(&["audit"]);
}

#[test]
fn a_tick_on_a_goal_started_meanwhile_still_lands() {
    let t = one_goal("open");
    let (tick, _) = race(&t, &["tick", "a", "1"], &[&["start", "a"]]);
    tick.code(0);
    let md = t.plan_md();
    assert!(
        md.contains("status: active\n") && md.contains("- [x] write it\n"),
        "{md}"
    );
}

/// Attack: `plan goal pause` racing `plan goal clear`. The pause changes the loop
/// under the loop's own lock, then stops before its log write; the clear ends the
/// loop and logs it; the pause then logged "paused" after "cleared", and the log
/// read as if the ended loop were paused. Failed before. The pause now logs with
/// the loop's lock held (lock order: the loop's state, then the store), so the
/// clear waits for it: given 3 s while the pause is held, it must not finish.
#[test]
fn goal_pause_racing_clear_logs_nothing_after_the_clear() {
    let t = one_goal("active");
    t.ok(&["goal"]);
    let mut clear = None;
    let (pause, _) = race_with(&t, &["goal", "pause"], || {
        let mut child = t
            .cmd(&["goal", "clear"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(3);
        while Instant::now() < deadline && child.try_wait().unwrap().is_none() {
            std::thread::sleep(Duration::from_millis(20));
        }
        clear = Some(child);
    });
    let clear = clear.unwrap().wait_with_output().unwrap();
    pause.code(0);
    assert!(clear.status.success(), "{clear:?}");
    let md = t.plan_md();
    let cleared = md.find("work loop cleared").expect("the clear is logged");
    assert!(
        md.find("work loop paused")
            .is_some_and(|paused| paused < cleared),
        "paused not logged before the clear:\n{md}"
    );
}

/// A line a person adds to a finished goal while `plan archive` works (a note, a
/// follow-up subtask) must move with its goal or stop the archive: the archive
/// deleted the goal's lines as it had read them and appended that copy, so the new
/// line stayed behind, the last line of the goal before it.
#[test]
fn a_line_added_to_a_goal_while_it_is_archived_stays_with_that_goal() {
    let t = Test::new();
    t.ok(&["init", "Races"]);
    t.ok(&["add", "B", "--done-when", "b.txt exists"]);
    t.ok(&["add", "A", "--done-when", "a.txt exists"]);
    t.ok(&["cancel", "a", "--reason", "not needed"]);
    let (archive, meanwhile) = race_with(&t, &["archive"], || {
        let md = t.plan_md();
        let at = md.find("status: cancelled\n").unwrap() + "status: cancelled\n".len();
        let edited = format!("{}- [ ] tell the team why\n{}", &md[..at], &md[at..]);
        std::fs::write(t.path("plan.md"), edited).unwrap();
    });
    assert!(meanwhile.contains("- [ ] tell the team why"));
    let archive = archive.code(2);
    assert_eq!(
        archive.stderr,
        "plan: goal a changed while plan was working; nothing was written\n  hint: look at plan.md again and rerun the command\n"
    );
    assert_eq!(t.plan_md(), meanwhile, "the archive wrote after all");
    let md = t.plan_md();
    let line = md
        .find("- [ ] tell the team why")
        .expect("the line is lost");
    let goal_a = md.find("## Goal: A").unwrap();
    let goal_b = md.find("## Goal: B").unwrap();
    assert!(
        goal_a < line && (goal_b < goal_a || line < goal_b),
        "the line left goal A:\n{md}"
    );
    // Goal B whole, without A's subtask.
    insta::assert_snapshot!(t.ok(&["show", "b"]).stdout);
    // Run again on the file as it is, the goal moves whole.
    t.ok(&["archive"]);
    let md = t.plan_md();
    let archived = md.find("## Archive").unwrap();
    insta::assert_snapshot!(&md[archived..]);
}

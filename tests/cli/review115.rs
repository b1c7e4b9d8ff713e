//! Review 115: a dishonest agent against the gate laying only the plan files
//! plan wrote to since a start (`plan::gate::logged_since`): plan's own writes
//! that change neither an event nor a goal's id, status, archive or subtasks
//! leave a side plan as the start had it, so a check that greps them reads red
//! there however little it checks.

use crate::gate::{gate_passes, gate_run};
use crate::review112::started_on;
use crate::util::Test;

/// A side plan of the base's that plan logged to before the work (goal `old`
/// cancelled, one event of plan's), with goal `s` open.
const SIDE: &str = "# Plan: Side\n\n## Goal: Side work\n<!-- id: s -->\nstatus: open\ndone_when: never\n\n## Goal: Old\n<!-- id: old -->\nstatus: cancelled\ndone_when: never\n\n## Log\n- 2026-01-01 10:00 old cancelled: not needed\n";

/// Runs `plan --file conf/side.md ARGS` after the start, with a check that only
/// greps the side plan for `word`; the gate should find it green at the start.
fn side_write_is_flagged(args: &[&str], word: &str) -> (bool, String) {
    let check = format!("grep -q '{word}' conf/side.md\n");
    let (t, base) = started_on(&check, &[("conf/side.md", SIDE)], |t: &Test| {
        let mut all = vec!["--file", "conf/side.md"];
        all.extend_from_slice(args);
        t.ok(&all);
    });
    let out = gate_run(&t, &base);
    let flagged = out.contains("verify-green-at-start") && !gate_passes(&t, &base);
    (flagged, out)
}

// Attack: `plan log` writes a line to the side plan's log that is no event of
// plan's. logged_since sees no new event and no goal's state moved, so the side
// plan stays the start's, the grep reads red there, and a check that reads only
// plan's own line passes as red first.
#[test]
fn a_plan_log_line_to_a_side_plan_does_not_dodge_green_at_start() {
    let (flagged, out) = side_write_is_flagged(&["log", "frobnicated the side"], "frobnicated");
    assert!(flagged, "{out}");
}

// Attack: `plan edit --title` renames a side plan's goal. Its id, status and
// subtasks stay, so unless edit logs an event the side plan stays the start's,
// and a check grepping the new title reads red there.
#[test]
fn a_title_plan_edit_wrote_to_a_side_plan_does_not_dodge_green_at_start() {
    let (flagged, out) =
        side_write_is_flagged(&["edit", "s", "--title", "Frobnicated"], "Frobnicated");
    assert!(flagged, "{out}");
}

// Attack: `plan edit --done-when` on a side plan's goal, then a check that greps
// the new done_when: a field logged_since does not read. Caught today: edit
// logs the done_when change as an event, so the side plan is laid.
#[test]
fn a_done_when_plan_edit_wrote_to_a_side_plan_does_not_dodge_green_at_start() {
    let (flagged, out) = side_write_is_flagged(
        &["edit", "s", "--done-when", "frobs all day"],
        "frobs all day",
    );
    assert!(flagged, "{out}");
}

//! Fuzz target: edits computed on one text, rebased onto that text with a goal moved
//! and lines added (a concurrent writer), then applied. Nothing may panic; a rebase
//! that succeeds gives edits that apply; an applied edit leaves every other line as
//! it was.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::plan::model::{Status, parse};
use plan::plan::ops;
use plan::plan::patch::{Edit, apply, rebase};
use plan::plan::scan::scan;

fn lines(src: &str) -> Vec<&str> {
    scan(src).iter().map(|l| l.text(src)).collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    // The base and what the concurrent writer adds, split at the first NUL.
    let (base, added) = text.split_once('\0').unwrap_or((text, ""));
    let plan = parse(base);
    let Some(goal) = plan.goals.get(pick as usize % plan.goals.len().max(1)) else {
        return;
    };
    let mut edits: Vec<Edit> = match pick % 5 {
        0 => ops::set_status(&plan, goal, Status::Active),
        1 => vec![ops::add_subtask(&plan, goal, "fuzz subtask")],
        2 => ops::tick(&plan, goal, 1)
            .ok()
            .flatten()
            .into_iter()
            .collect(),
        3 => ops::archive(&plan).0,
        _ => vec![ops::add_criterion(&plan, goal, "and fuzzed")],
    };
    edits.push(ops::log("2026-01-01 00:00", "fuzz"));
    apply(base, &edits).expect("edits made from this text apply to it");

    // One replaced line changes that line only.
    if let Some(task) = goal.subtasks.first() {
        let edit = Edit::replace(task.line, plan.line_text(task.line), "- [x] replaced");
        let out = apply(base, &[edit]).unwrap();
        let (before, after) = (lines(base), lines(&out));
        assert_eq!(before.len(), after.len());
        for (i, (b, a)) in before.iter().zip(&after).enumerate() {
            if i + 1 != task.line {
                assert_eq!(b, a, "line {} changed", i + 1);
            }
        }
    }

    // The concurrent writer: the picked goal's section moved to the end, then lines added.
    let all = lines(base);
    let section = &all[goal.line - 1..goal.end];
    let mut fresh: Vec<&str> = all[..goal.line - 1].to_vec();
    fresh.extend(&all[goal.end..]);
    fresh.extend(section);
    fresh.extend(added.lines());
    let fresh = fresh.join("\n") + "\n";
    if let Ok(moved) = rebase(base, &fresh, edits) {
        apply(&fresh, &moved).expect("a rebased edit applies to the text it was rebased on");
    }
});

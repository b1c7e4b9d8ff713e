//! Typos get the word that was meant: a mistyped goal id names the nearest ids, not
//! every one, and a misspelt status names the status it is one edit from, which
//! `plan doctor --fix` then writes.

use crate::util::{Test, fixture, shown};

#[test]
fn a_mistyped_id_suggests_the_nearest_ids_only() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    t.case(&["start", "cache-layr"])
        .status(2)
        .stderr("plan: no goal \"cache-layr\"\n  hint: did you mean cache-layer?\n")
        .check();
    t.case(&["show", "hashnig"])
        .status(2)
        .stderr("plan: no goal \"hashnig\"\n  hint: did you mean hashing?\n")
        .check();
    // One letter wrong is one edit.
    t.case(&["tick", "cache-dxcs", "1"])
        .status(2)
        .stderr("plan: no goal \"cache-dxcs\"\n  hint: did you mean cache-docs?\n")
        .check();
}

#[test]
fn an_id_near_none_lists_a_short_plans_ids_and_points_a_long_one_to_plan_show() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    t.case(&["start", "nope"])
        .status(2)
        .stderr("plan: no goal \"nope\"\n  hint: goals are cache-layer, cache-docs, spike-redis, hashing\n")
        .check();
    let long = Test::new();
    long.ok(&["init", "Many"]);
    for title in [
        "Alpha one",
        "Bravo two",
        "Charlie three",
        "Delta four",
        "Echo five",
        "Foxtrot six",
    ] {
        long.ok(&["add", title, "--done-when", "it works"]);
    }
    long.case(&["start", "zulu"])
        .status(2)
        .stderr("plan: no goal \"zulu\"\n  hint: `plan show` lists the goals with their ids\n")
        .check();
}

const ACTVE: &str = "# Plan: Typo

## Goal: Do the thing
<!-- id: thing -->
status: actve
done_when: it is done

## Goal: Ship it
<!-- id: ship -->
status: dnoe
done_when: it shipped

## Log
- 2026-06-15 14:00 plan created
";

#[test]
fn a_misspelt_status_hints_the_status_it_is_one_edit_from() {
    let t = Test::new().plan(ACTVE);
    let run = t.run(&["lint"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
}

#[test]
fn doctor_fix_rewrites_a_one_edit_status_typo_but_not_to_done() {
    let t = Test::new().plan(ACTVE);
    let run = t.run(&["doctor", "--fix"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    let md = t.plan_md();
    assert!(md.contains("<!-- id: thing -->\nstatus: active\n"), "{md}");
    assert!(md.contains("status: dnoe\n"), "{md}");
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
}

/// Attack: an agent writes `status: cancelld` on a goal it will not do and lets
/// `plan doctor --fix` turn it into `cancelled`. The repair writes what the hand
/// meant and no more: the goal is cancelled by hand, unproven, and audit says so.
#[test]
fn doctor_fix_of_a_cancel_typo_leaves_the_goal_unproven() {
    let md = ACTVE
        .replace("status: actve", "status: cancelld")
        .replace("status: dnoe", "status: active");
    let t = Test::new().plan(&md);
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor", "--fix"]).code(1)));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    assert!(!t.plan_md().contains("thing cancelled"), "{}", t.plan_md());
}

/// Attack: a hint that names the nearest id must stay a hint. No command acts on
/// the goal it guesses: a mistyped id in cancel, complete, start, tick, log --goal
/// or reopen exits 2 and leaves plan.md as it was.
#[test]
fn a_nearest_id_hint_never_acts_on_the_goal_it_names() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let before = t.plan_md();
    for args in [
        &["cancel", "cache-layr", "--reason", "x"][..],
        &["complete", "cache-layr", "--evidence", "x"],
        &["start", "cache-layr"],
        &["tick", "cache-layr", "1"],
        &["log", "--goal", "cache-layr", "x"],
        &["reopen", "cache-layr", "--reason", "x"],
    ] {
        insta::assert_snapshot!(shown(&t, &t.run(args).code(2)));
    }
    assert_eq!(t.plan_md(), before);
}

/// Red team: a checklist item indented with a tab (or 4 spaces, indented code to
/// Markdown) or marked with `+` is no subtask to plan: `plan show` counted one of
/// three, `plan tick` numbered one, and lint said nothing. Lint names each line
/// and the form plan reads; nothing is rewritten.
#[test]
fn a_checklist_item_plan_does_not_read_is_linted() {
    let md = "# Plan: x\n\n## Goal: Thing\n<!-- id: thing -->\nstatus: active\ndone_when: it works\nfailure_modes:\n- it passes without working\n- [ ] read\n\t- [ ] tabbed\n+ [ ] plussed\n    * [x] four spaces\n\nBench output:\n\n    - [x] parse 1.2ms\n\n```\n\t- [ ] in a fence\n```\n\n## Log\n- 2026-06-15 14:00 thing added\n";
    let t = Test::new().plan(md);
    let run = t.run(&["lint"]);
    // Lines 10, 11 and 12 named, each with why; the item in the fence and the
    // one quoted after a paragraph are not.
    insta::assert_snapshot!(format!("{}{}", run.stdout, run.stderr));
    assert_eq!(t.plan_md(), md);
}

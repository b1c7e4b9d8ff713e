//! One goal in full (`plan show ID`) and changing goals after they were written:
//! `plan edit`, `untick` and `reopen`, each a logged, reviewable change.

use crate::util::{Test, redact, shown};

const PLAN: &str = "# Plan: Goals

## Goal: Base layer
<!-- id: base -->
status: done
done_when: base works

## Goal: Ship it
<!-- id: ship -->
status: active
depends_on: base
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [x] write it
- [ ] proofread it

## Goal: Later
<!-- id: later -->
status: open
depends_on: ship
done_when: later

## Log
- 2026-06-15 13:00 ship note about the readme
- 2026-06-15 13:01 later something else
";

/// A plan whose goals were written by hand, committed.
fn repo() -> Test {
    let t = Test::new().plan(PLAN);
    t.write("README.md", "# Hello\n");
    t.commit_all("plan");
    t
}

#[test]
fn show_id_gives_the_contract_subtasks_dependencies_both_ways_and_its_log() {
    let t = repo();
    let out = t.ok(&["show", "ship"]).stdout;
    // Both directions, each with its standing: base is marked done by hand.
    // Another goal's log lines are not this one's.
    insta::assert_snapshot!(redact(&t, &out));
}

#[test]
fn show_id_of_a_hand_marked_done_goal_says_it_is_unproven_and_how_to_fix_it() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.ok(&["show", "base"])));
}

#[test]
fn show_id_accepts_a_unique_prefix_and_names_candidates_for_an_unknown_one() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.ok(&["show", "shi"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["show", "nope"]).code(2)));
}

#[test]
fn show_id_json_has_the_whole_goal() {
    let t = repo();
    let v = t.ok(&["show", "ship", "--json"]).json();
    assert_eq!(v["id"], "ship");
    assert_eq!(v["status"], "active");
    assert_eq!(v["done_when"], "README.md exists");
    assert_eq!(v["verify"], "test -f README.md");
    assert_eq!(v["failure_modes"][0], "README.md is empty");
    assert_eq!(v["subtasks"][1]["text"], "proofread it");
    assert_eq!(v["subtasks"][1]["done"], false);
    assert_eq!(v["depends_on"][0], "base");
    assert_eq!(v["unmet_dependencies"][0], "base");
    assert_eq!(v["needed_by"][0]["id"], "later");
    assert_eq!(v["needed_by"][0]["status"], "open");
    assert_eq!(v["proof"]["state"], "unfinished");
    assert_eq!(v["log"][0]["text"], "ship note about the readme");
    assert!(v["history"].as_array().unwrap().is_empty(), "{v}");
    let b = t.ok(&["show", "base", "--json"]).json();
    assert_eq!(b["proof"]["state"], "unproven");
}

/// A contract softened after creation and approved from an agent's shell: show
/// names the approval made without a terminal and shows the change word by word.
#[test]
fn show_id_shows_how_the_contract_changed_since_creation() {
    let t = Test::new();
    t.ok(&["init", "Goals"]);
    t.ok(&[
        "add",
        "Cache layer",
        "--done-when",
        "p95 under 50ms on bench-X",
        "--failure-mode",
        "cache bypassed",
    ]);
    t.commit_all("add");
    let md = t.plan_md().replace("p95 under 50ms", "p95 under 500ms");
    t.write("plan.md", md);
    t.ok(&["start", "cache-layer", "--reapprove"]);
    let out = t.ok(&["show", "cache-layer"]).stdout;
    insta::assert_snapshot!(redact(&t, &out));
    let v = t.ok(&["show", "cache-layer", "--json"]).json();
    assert_eq!(v["history"][0]["kind"], "created");
    assert_eq!(v["history"][1]["kind"], "changed");
    assert_eq!(v["history"][1]["approval"], "no-terminal");
    assert!(!v["unseen_changes"].as_array().unwrap().is_empty(), "{v}");
    insta::assert_snapshot!(v["change"]["diff"].as_str().unwrap());
}

#[test]
fn edit_changes_contract_lines_losslessly_and_logs_the_change() {
    let t = repo();
    let before = t.plan_md();
    t.ok(&[
        "edit",
        "ship",
        "--done-when",
        "README.md exists and has a title",
        "--verify",
        "grep -q Hello README.md",
        "--failure-mode",
        "README.md has no title",
        "--failure-mode",
        "README.md is empty",
    ]);
    let after = t.plan_md();
    let expected = before.replace(
        "done_when: README.md exists\nverify: test -f README.md\nfailure_modes:\n- README.md is empty\n",
        "done_when: README.md exists and has a title\nverify: grep -q Hello README.md\nfailure_modes:\n- README.md has no title\n- README.md is empty\n",
    );
    assert_ne!(expected, before);
    // Nothing else moved; the log gained one line at its end.
    let logged = after
        .strip_prefix(expected.as_str())
        .unwrap_or_else(|| panic!("other lines changed:\n{after}"));
    assert_eq!(logged.lines().count(), 1, "{logged}");
    assert!(
        after.contains("ship contract reapproved (contract "),
        "the change is not logged:\n{after}"
    );
    // The logged contract is the new one: complete does not refuse it as changed.
    t.judge("accept");
    t.ok(&["edit", "ship", "--depends-on", ""]);
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "written",
        "--path",
        "README.md",
    ]);
}

#[test]
fn edit_checks_verify_before_writing_anything() {
    let t = repo();
    let before = t.plan_md();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["edit", "ship", "--verify", "cargo test > out.txt"])
            .code(2)
    ));
    assert_eq!(t.plan_md(), before);
}

#[test]
fn edit_refuses_to_launder_an_unreviewed_hand_edit() {
    let t = Test::new();
    t.ok(&["init", "Goals"]);
    t.ok(&["add", "Cache", "--done-when", "fast", "--active"]);
    let md = t.plan_md().replace("done_when: fast", "done_when: exists");
    t.write("plan.md", &md);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["edit", "cache", "--title", "Cache layer"]).code(2)
    ));
    assert_eq!(t.plan_md(), md);
}

#[test]
fn edit_of_the_title_alone_keeps_the_contract() {
    let t = repo();
    t.ok(&["edit", "ship", "--title", "Ship the readme"]);
    let md = t.plan_md();
    assert!(md.contains("## Goal: Ship the readme\n<!-- id: ship -->"));
    assert!(!md.contains("reapproved"), "{md}");
}

#[test]
fn edit_refuses_a_finished_goal() {
    let t = repo();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["edit", "base", "--done-when", "anything"]).code(2)
    ));
}

#[test]
fn untick_clears_one_subtask() {
    let t = repo();
    t.case(&["untick", "ship", "1"])
        .stdout("unticked ship 0/2: write it\n")
        .check();
    assert!(t.plan_md().contains("- [ ] write it\n"));
    t.case(&["untick", "ship", "1"])
        .stdout("ship subtask 1 is not ticked\n")
        .check();
    insta::assert_snapshot!(shown(&t, &t.run(&["untick", "ship", "9"]).code(2)));
}

/// `plan reopen` is the road back from a regression: the goal is active again, the
/// old sign-off stays in the log, and marking it done again by hand is unproven.
#[test]
fn reopen_takes_a_signed_off_goal_back_and_its_old_sign_off_no_longer_counts() {
    let t = Test::new();
    t.ok(&["init", "Goals"]);
    t.write("README.md", "# Hello\n");
    t.judge("accept");
    t.ok(&[
        "add",
        "Ship it",
        "--done-when",
        "README.md exists",
        "--verify",
        "test -f README.md",
        "--failure-mode",
        "README.md is empty",
        "--active",
    ]);
    t.commit_all("start");
    t.ok(&[
        "complete",
        "ship-it",
        "--evidence",
        "written",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit"]);
    t.run(&["reopen", "ship-it"]).code(2);
    t.ok(&["reopen", "ship-it", "--reason", "audit --reverify failed"]);
    let md = t.plan_md();
    assert!(md.contains("status: active"), "{md}");
    assert!(
        md.contains("ship-it signed off"),
        "the old sign-off is gone:\n{md}"
    );
    assert!(
        md.contains("ship-it reopened: audit --reverify failed"),
        "{md}"
    );
    // The dishonest shortcut: set it done again by hand.
    t.write("plan.md", md.replace("status: active", "status: done"));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    // The honest road: sign it off again.
    t.write("plan.md", md);
    t.ok(&[
        "complete",
        "ship-it",
        "--evidence",
        "written again",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit"]);
}

#[test]
fn reopen_refuses_an_open_goal() {
    let t = repo();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["reopen", "later", "--reason", "x"]).code(2)
    ));
}

#[test]
fn plan_log_cannot_forge_a_reopen() {
    let t = repo();
    t.run(&["log", "base reopened: because"]).code(2);
}

#[test]
fn add_from_a_built_in_template_carries_its_failure_modes_and_takes_flags_over_it() {
    let t = Test::new();
    t.ok(&["init", "Goals"]);
    t.ok(&[
        "add",
        "Stale reads after eviction",
        "--template",
        "bugfix",
        "--verify",
        "cargo test eviction",
        "--failure-mode",
        "only the LRU path is tested",
    ]);
    let md = t.plan_md();
    assert!(
        md.contains("done_when: a test reproduces the bug and fails without the fix"),
        "{md}"
    );
    assert!(md.contains("verify: cargo test eviction\n"), "{md}");
    assert!(
        md.contains("- the test passes without reproducing the bug first\n"),
        "{md}"
    );
    assert!(md.contains("- only the LRU path is tested\n"), "{md}");
    assert!(
        md.contains("- [ ] reproduce it in a failing test\n"),
        "{md}"
    );
    t.ok(&["lint"]);
}

#[test]
fn a_repository_template_overrides_or_adds_and_an_unknown_one_lists_them() {
    let t = Test::new();
    t.ok(&["init", "Goals"]);
    t.write(
        ".plan/templates/migration.md",
        "## Goal: {title}\ndone_when: {title} runs forwards and backwards on a copy of production\nverify: make migrate-check\nfailure_modes:\n- the down migration was never run\n",
    );
    t.ok(&["add", "Rename users.name", "--template", "migration"]);
    let md = t.plan_md();
    assert!(
        md.contains("done_when: Rename users.name runs forwards and backwards"),
        "{md}"
    );
    assert!(md.contains("verify: make migrate-check\n"), "{md}");
    let before = t.plan_md();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["add", "X", "--template", "nope"]).code(2)
    ));
    t.write(".plan/templates/bad.md", "no heading here\n");
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["add", "X", "--template", "bad"]).code(2)
    ));
    t.run(&["add", "X", "--template", "../../etc/passwd"])
        .code(2);
    assert_eq!(t.plan_md(), before);
}

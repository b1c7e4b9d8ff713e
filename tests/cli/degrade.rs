//! Degrade, don't block: a plan with format errors is still read, writes that touch
//! only healthy goals go ahead with a warning, and writes into a broken goal or a
//! file whose structure is broken are refused, losing nothing.

use crate::util::{Test, shown};

const PLAN: &str = "# Plan: Degrade

## Goal: Healthy
<!-- id: healthy -->
status: active
done_when: it works
failure_modes:
- it only looks like it works
- [ ] first step

## Goal: Broken
<!-- id: broken -->
status: doing
done_when: it is done
- [ ] a step

## Log
- 2026-06-15 13:00 started
";

#[test]
fn read_commands_show_what_they_can_and_the_errors_with_their_lines() {
    let t = Test::new().plan(PLAN);
    let run = t.ok(&["show"]);
    insta::assert_snapshot!(shown(&t, &run));
    let v = t.ok(&["show", "--json"]).json();
    assert_eq!(v["errors"][0]["line"], 13);
    assert_eq!(v["goals"][0]["id"], "healthy");
    insta::assert_snapshot!(shown(&t, &t.ok(&["show", "broken"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["next"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
}

#[test]
fn writes_to_healthy_goals_go_ahead_with_a_warning() {
    let t = Test::new().plan(PLAN);
    insta::assert_snapshot!(shown(&t, &t.ok(&["tick", "healthy", "1"])));
    t.ok(&["log", "still going"]);
    let md = t.plan_md();
    assert!(md.contains("- [x] first step"), "{md}");
    assert!(md.contains("still going"), "{md}");
    // The broken goal's lines are as they were.
    assert!(
        md.contains("status: doing\ndone_when: it is done\n- [ ] a step\n"),
        "{md}"
    );
}

#[test]
fn writes_into_a_broken_goal_are_refused_and_lose_nothing() {
    let t = Test::new().plan(PLAN);
    let before = t.plan_md();
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", "broken", "1"]).code(2)));
    t.case(&["edit", "broken", "--title", "Fixed"])
        .status(2)
        .stderr(
            "plan: warning: plan.md has format errors in goal broken; those goals are left unchanged (plan lint lists them)
plan.md:13: unknown status \"doing\" (expected open, active, done or cancelled)
   13 | status: doing
  hint: edit line 13 to a known status, e.g. `status: open`; then plan start, plan complete or plan cancel move it
plan.md: goal \"broken\" has format errors; nothing was written
  hint: fix the lines above (plan doctor --fix repairs the mechanical ones), then rerun
",
        )
        .check();
    assert_eq!(t.plan_md(), before);
}

#[test]
fn a_goal_sharing_a_duplicate_id_is_broken_on_both_sides() {
    let t = Test::new().plan(
        "## Goal: One\n<!-- id: same -->\nstatus: open\n- [ ] x\n\n## Goal: Two\n<!-- id: same -->\nstatus: open\n\n## Log\n",
    );
    let before = t.plan_md();
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", "same", "1"]).code(2)));
    assert_eq!(t.plan_md(), before);
}

#[test]
fn a_file_whose_structure_is_broken_is_refused_for_writes_but_still_read() {
    let broken = PLAN.replace("status: doing", "status: open")
        + "\n## Log\n- 2026-06-15 13:05 a second log\n";
    let t = Test::new().plan(&broken);
    let before = t.plan_md();
    insta::assert_snapshot!(shown(&t, &t.run(&["log", "x"]).code(2)));
    t.run(&["tick", "healthy", "1"]).code(2);
    assert_eq!(t.plan_md(), before);
    insta::assert_snapshot!(shown(&t, &t.ok(&["show"])));
}

/// The hook's injection still comes on a plan with errors, and says where they are.
#[test]
fn a_session_start_hook_injects_a_plan_with_errors() {
    let t = Test::new().plan(PLAN);
    let payload = format!(
        r#"{{"session_id":"s1","hook_event_name":"SessionStart","source":"startup","cwd":"{}"}}"#,
        t.root().display()
    );
    let run = t
        .case(&["hook", "claude", "session-start"])
        .stdin(&payload)
        .any_stdout()
        .check();
    let v = run.json();
    let block = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert!(
        block.contains("healthy") && block.contains("line 13"),
        "{block}"
    );
}

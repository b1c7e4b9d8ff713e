//! A host's own goal beside plan's loop (issue 38): `plan goal --host-condition`
//! prints a condition for the host's `/goal` that names plan's state, and `plan goal
//! status` says which goals are left before every goal is signed off.

use crate::util::{Test, fixture_path, redact, shown};

const PLAN: &str = "# Plan: Hosts

## Goal: Ship the parser
<!-- id: parser -->
status: active
done_when: PARSER.md exists
failure_modes:
- PARSER.md is empty
- [ ] write it

## Goal: Write the docs
<!-- id: docs -->
status: open
done_when: DOCS.md exists
failure_modes:
- DOCS.md is empty
- [ ] write them

## Log
";

fn accepting_judge(t: &Test) {
    let judge = fixture_path("judges/accept");
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n",
            judge.display()
        ),
    );
}

/// The condition names `plan goal status` and the words it prints once every goal
/// is signed off, so a transcript-reading host model can hold the agent to them.
#[test]
fn the_host_condition_names_plans_state() {
    let t = Test::new().plan(PLAN);
    let run = t.ok(&["goal", "--host-condition"]);
    insta::assert_snapshot!(shown(&t, &run));
    // It starts no loop: it is text for the host's /goal.
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

/// `plan goal status` lists the goals left, and says when every goal is signed off
/// with the very words the host condition asks for.
#[test]
fn goal_status_names_the_goals_left_until_every_goal_is_signed_off() {
    let t = Test::new().plan(PLAN);
    accepting_judge(&t);
    t.ok(&["goal"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    let json = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(json["goals_left"], serde_json::json!(["parser", "docs"]));
    for (id, file) in [("parser", "PARSER.md"), ("docs", "DOCS.md")] {
        t.write(file, "done\n");
        t.ok(&["start", id]);
        t.ok(&["complete", id, "--evidence", "written", "--path", file]);
    }
    let status = t.ok(&["goal", "status"]);
    insta::assert_snapshot!(shown(&t, &status));
    let condition = t.ok(&["goal", "--host-condition"]).stdout;
    insta::assert_snapshot!(redact(&t, &condition));
    insta::assert_snapshot!(redact(&t, &status.stdout));
    let json = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(json["goals_left"], serde_json::json!([]));
}

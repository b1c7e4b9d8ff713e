//! `plan import` on files of another shape: a `prd.json` that is not ralph's (a
//! list of tasks, phases, `stories`) is refused with exit 2, naming the file, the
//! key it lacked and the shape plan reads; it never panics.

use crate::util::Test;

const PRD_HINT: &str = "  hint: ralph's prd.json looks like {\"userStories\": [{\"id\": \"US-001\", \"title\": \"…\", \"acceptanceCriteria\": [\"…\"], \"passes\": false}]}; leave --from out and plan import detects task-master's tasks.json (`tasks`), ralph's prd.json (`userStories`), a steps list (`steps`), a todo list (`todos`), `plan export` (`\"schema\": \"plan/1\"`) and Markdown checklists\n";

#[test]
fn a_prd_json_that_is_not_ralphs_is_refused_by_name_not_a_panic() {
    let t = Test::new();
    // Three shapes of prd.json seen in public repositories: phases of tasks, a
    // top-level list of tasks, and `stories` in place of `userStories`.
    for (json, found) in [
        (
            r#"{"project": {"name": "Alerts"}, "phases": [{"id": "phase-1", "tasks": [{"id": "task-1.1", "name": "Rename"}]}]}"#,
            "an object with keys project, phases",
        ),
        (
            r#"[{"category": "CLI", "description": "Add --sample", "steps": ["a"], "passes": false}]"#,
            "a list of 1 item",
        ),
        (
            r#"{"project": "P", "stories": [{"id": "S01", "title": "Setup", "passes": true}]}"#,
            "an object with keys project, stories",
        ),
    ] {
        t.write("prd.json", json);
        t.case(&["import", "prd.json", "--from", "prd"])
            .status(2)
            .stderr(&format!(
                "plan: prd.json: not ralph's prd.json: no `userStories` list in it ({found})\n{PRD_HINT}"
            ))
            .check();
    }
    // Nothing was kept for review.
    t.case(&["review"])
        .stdout("no draft is waiting for review\n  hint: `plan draft OBJECTIVE` drafts one\n")
        .check();
}

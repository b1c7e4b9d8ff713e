//! A goal renamed in the middle of a work loop (its id changed, its contract not)
//! is the goal it was: it keeps the continuations it spent and the budget the loop
//! froze, so a new id is no new budget.

use crate::util::{Test, fixture_path, redact};

const PLAN: &str = "# Plan: Budgets

## Goal: Stuck work
<!-- id: stuck -->
status: active
budget: 2
done_when: STUCK.md exists
failure_modes:
- STUCK.md is empty
- [ ] try hard

## Goal: Next work
<!-- id: next -->
status: active
done_when: README.md exists
failure_modes:
- README.md is empty
- [ ] write it

## Log
";

fn goals(t: &Test) -> String {
    let answer = t.stop_hook("s1").answer();
    assert_eq!(answer["decision"], "block", "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    let start = reason.find("still has work: ").expect("a continuation") + 16;
    reason[start..reason.find('\n').unwrap_or(reason.len())].to_string()
}

/// Attack: `stuck` spent its budget of 2; the agent renamed its id to
/// `stuck-again` (and wrote `budget: 9`), and the loop gave it a fresh budget.
/// Failed before: the third continuation named `stuck-again` first.
#[test]
fn a_renamed_goal_keeps_its_spent_budget() {
    let t = Test::new().plan(PLAN);
    let judge = fixture_path("judges/accept");
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\nloop:\n  stall_limit: 50\n",
            judge.display()
        ),
    );
    t.ok(&["goal", "--budget", "20"]);
    assert!(goals(&t).starts_with("stuck (0/1"));
    assert!(goals(&t).starts_with("stuck (0/1"));
    t.write(
        "plan.md",
        t.plan_md()
            .replace("<!-- id: stuck -->", "<!-- id: stuck-again -->")
            .replace("budget: 2", "budget: 9"),
    );
    let third = goals(&t);
    insta::assert_snapshot!(redact(&t, &third));
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(
        status["budget_limited"],
        serde_json::json!(["stuck-again"]),
        "{status}"
    );
}

/// Two goals with one contract are two goals: a new goal with `stuck`'s contract,
/// `stuck` still in the plan, starts with a budget of its own.
#[test]
fn a_new_goal_with_the_same_contract_is_another_goal() {
    let twin = PLAN.replace(
        "## Goal: Next work\n<!-- id: next -->\nstatus: active\ndone_when: README.md exists\nfailure_modes:\n- README.md is empty\n- [ ] write it",
        "## Goal: Twin\n<!-- id: twin -->\nstatus: open\nbudget: 2\ndone_when: STUCK.md exists\nfailure_modes:\n- STUCK.md is empty",
    );
    let t = Test::new().plan(&twin);
    t.write(".plan/config.yaml", "loop:\n  stall_limit: 50\n");
    t.ok(&["goal", "--budget", "20"]);
    assert!(goals(&t).starts_with("stuck (0/1"));
    assert!(goals(&t).starts_with("stuck (0/1"));
    let third = goals(&t);
    insta::assert_snapshot!(redact(&t, &third));
}

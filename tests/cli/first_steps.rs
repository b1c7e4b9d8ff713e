//! What a newcomer is told at each first step: `plan init` names the next one, and
//! `plan add` without a contract warns at once instead of leaving it to lint.

use crate::util::Test;

#[test]
fn init_prints_the_next_step() {
    let t = Test::new();
    t.case(&["init", "Try plan"])
        .stdout(
            "created plan.md: Try plan\nnext: add a goal with a contract, then hook up your agent\n  plan add \"First goal\" --done-when \"what a reviewer can check\"\n  plan install claude    # or codex, copilot, droid, gemini, opencode, pi, qwen; plan install --all\n",
        )
        .check();
    // --quiet prints nothing on success, the next step included.
    let q = Test::new();
    q.case(&["init", "Try plan", "--quiet"]).check();
}

#[test]
fn add_without_done_when_warns_at_once() {
    let t = Test::new();
    t.ok(&["init", "Try plan"]);
    t.case(&["add", "First goal"])
        .stdout("first-goal\n")
        .stderr("plan: warning: goal \"first-goal\" has no done_when, so plan lint fails on it\n  hint: plan edit first-goal --done-when \"what a reviewer can check\"\n")
        .check();
    t.case(&["add", "Second goal", "--done-when", "it shows"])
        .stdout("second-goal\n")
        .check();
    // The warning's hint is what lint then asks for.
    t.run(&["lint"])
        .code(1)
        .stdout_has("goal \"first-goal\" has no done_when");
    t.ok(&[
        "edit",
        "first-goal",
        "--done-when",
        "what a reviewer can check",
    ]);
}

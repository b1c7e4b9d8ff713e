//! Per-goal budgets of the work loop: a goal that spends its continuations
//! (`loop.goal_budget`, or its own `budget: N` line) without a sign-off becomes
//! budget-limited, the loop moves on to other work and lets go with `goal_budget`
//! when only such goals remain, and `plan goal rearm ID` gives one a new budget.

use serde_json::Value;

use crate::util::{Test, fixture_path, redact, shown};

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

/// Settings: a stall limit the unchanged plan never reaches, and `extra`.
fn settings(t: &Test, extra: &str) {
    let judge = fixture_path("judges/accept");
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\nloop:\n  stall_limit: 50\n{extra}",
            judge.display()
        ),
    );
}

fn reason(answer: &Value) -> String {
    assert_eq!(answer["decision"], "block", "{answer}");
    answer["reason"].as_str().unwrap().to_string()
}

/// The goals of a continuation, after "plan.md still has work: ".
fn goals(answer: &Value) -> String {
    let reason = reason(answer);
    let start = reason.find("still has work: ").expect("a continuation") + 16;
    reason[start..reason.find('\n').unwrap_or(reason.len())].to_string()
}

fn events(t: &Test, name: &str) -> Vec<Value> {
    t.ok(&["events", "--json"])
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|e| e["event"] == name)
        .collect()
}

fn log_lines(t: &Test) -> Vec<String> {
    let md = t.plan_md();
    md[md.find("## Log").unwrap()..]
        .lines()
        .skip(1)
        .map(str::to_string)
        .collect()
}

/// One budget for the whole loop: a goal the agent could not finish took every
/// continuation, and nothing said which goal it was.
#[test]
fn a_spent_goal_budget_moves_the_loop_on_to_the_next_goal() {
    let t = Test::new().plan(PLAN);
    settings(&t, "");
    t.ok(&["goal", "--budget", "20"]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    // Two continuations named stuck first and it is not signed off: it is
    // budget-limited, and the continuation names the next goal first.
    let third = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(third);
    let limited = events(&t, "goal_budget_limited");
    assert_eq!(limited.len(), 1, "{limited:?}");
    assert_eq!(limited[0]["goal"], "stuck");
    assert_eq!(limited[0]["continuations"], 2);
    assert_eq!(limited[0]["session"], "s1");
    let continued: Vec<Value> = events(&t, "loop_continued")
        .iter()
        .map(|e| e["goal"].clone())
        .collect();
    assert_eq!(continued, ["stuck", "stuck", "next"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["events"])));
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(status["state"], "running");
    assert_eq!(status["budget_limited"], serde_json::json!(["stuck"]));
    t.case(&["goal", "status"])
        .stdout(
            "work loop running
  continuations: 3 of 20
  stalls in a row: 2
  session: s1
  started: 2026-06-15 14:02
  tokens: 0 (no budget)
  elapsed: 0s (no budget)
  continuations per goal: next 1, stuck 2 of 2
  budget-limited: stuck (`plan goal rearm ID` gives one a new budget)
  goals left: stuck, next (`plan complete ID` signs each off)
",
        )
        .check();
    // The injection and the status line name it.
    let start = crate::hooks::hook(
        &t,
        "claude",
        "session-start",
        &crate::hooks::payload(&t, "claude/session-start", "s1"),
    );
    insta::assert_snapshot!(redact(&t, &start.stdout));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
}

/// With only budget-limited goals left the loop kept going, or ended saying
/// nothing of why.
#[test]
fn the_loop_lets_go_with_goal_budget_when_only_budget_limited_goals_remain() {
    let t = Test::new().plan(&PLAN.replace("budget: 2\n", ""));
    settings(&t, "  goal_budget: 1\n");
    t.ok(&["goal"]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    let last = t.stop_hook("s1").answer();
    assert!(last.get("decision").is_none(), "{last}");
    let note = last["systemMessage"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, note));
    let let_go = events(&t, "loop_let_go");
    assert_eq!(let_go.len(), 1);
    assert_eq!(let_go[0]["reason"], "goal_budget");
    assert_eq!(let_go[0]["ended"], true);
    assert_eq!(events(&t, "goal_budget_limited").len(), 2);
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(status["state"], "ended");
    assert_eq!(
        status["budget_limited"],
        serde_json::json!(["stuck", "next"])
    );
    // An ended loop holds nobody; plan.md does not record this ending, so the stop
    // says the loop ended rather than nothing (issue 34).
    let later = t.stop_hook("s1").answer();
    assert!(later.get("decision").is_none(), "{later}");
    assert!(
        later["systemMessage"]
            .as_str()
            .unwrap_or_default()
            .starts_with("plan: the work loop has ended"),
        "{later}"
    );
    assert_eq!(
        events(&t, "loop_let_go").len(),
        1,
        "the ending recorded again"
    );

    // A new budget for one goal takes the loop up again, on that goal, and is
    // logged in plan.md.
    t.case(&["goal", "rearm", "next"])
        .stdout("next has a new budget: 1 continuation\n")
        .check();
    assert_eq!(
        log_lines(&t),
        [
            "- 2026-06-15 14:02 work loop started (budget 20, without a terminal)",
            "- 2026-06-15 14:02 next budget rearmed (without a terminal)"
        ]
    );
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(status["state"], "running");
    assert_eq!(status["budget_limited"], serde_json::json!(["stuck"]));
    let again = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(again);
    let rearmed = t.ok(&["events", "--json"]).stdout;
    insta::assert_snapshot!(redact(&t, &rearmed));
    // `plan log` cannot write one.
    t.run(&["log", "next budget rearmed (without a terminal)"])
        .code(2);
}

#[test]
fn rearm_names_the_goal_and_needs_a_loop() {
    let t = Test::new().plan(PLAN);
    insta::assert_snapshot!(shown(&t, &t.run(&["goal", "rearm", "stuck"]).code(2)));
    t.ok(&["goal"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["goal", "rearm", "stuk"]).code(2)));
    assert_eq!(
        log_lines(&t),
        ["- 2026-06-15 14:02 work loop started (budget 20, without a terminal)"]
    );
}

/// A goal signed off within its budget is done: no budget-limited goal, no event.
#[test]
fn a_goal_signed_off_within_its_budget_is_simply_done() {
    let t = Test::new().plan(PLAN);
    settings(&t, "");
    t.write("STUCK.md", "done\n");
    t.ok(&["goal"]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    t.ok(&[
        "complete",
        "stuck",
        "--evidence",
        "written",
        "--path",
        "STUCK.md",
    ]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    assert!(events(&t, "goal_budget_limited").is_empty());
    let status = t.ok(&["goal", "status", "--json"]).json();
    assert_eq!(status["budget_limited"], serde_json::json!([]));
}

#[test]
fn a_bad_budget_line_is_a_format_error_naming_its_line() {
    for (value, message) in [
        (
            "0",
            "budget \"0\" is not a whole number of continuations from 1",
        ),
        (
            "lots",
            "budget \"lots\" is not a whole number of continuations from 1",
        ),
    ] {
        let t = Test::new().plan(&PLAN.replace("budget: 2", &format!("budget: {value}")));
        let lint = t.run(&["lint"]).code(1);
        let out = format!("{}{}", lint.stdout, lint.stderr);
        assert!(out.contains(&format!("plan.md:6: {message}")), "{out}");
        insta::assert_snapshot!(redact(&t, &out));
    }
}

#[test]
fn show_prints_a_goals_budget_and_it_is_not_part_of_the_contract() {
    let t = Test::new().plan(PLAN);
    insta::assert_snapshot!(shown(&t, &t.ok(&["show", "stuck"])));
    let before = t.ok(&["export"]).json();
    assert_eq!(before["goals"][0]["budget"], 2);
    assert_eq!(before["goals"][1]["budget"], Value::Null);
    t.write("plan.md", PLAN.replace("budget: 2", "budget: 9"));
    let after = t.ok(&["export"]).json();
    assert_eq!(
        before["goals"][0]["contract"], after["goals"][0]["contract"],
        "a budget is not what done means"
    );
    // An import of the export keeps it.
    let other = Test::new().plan("# Plan: Other\n\n## Log\n");
    other.write("export.json", serde_json::to_string(&after).unwrap());
    other.ok(&["import", "export.json"]);
    other.ok(&["review", "--approve"]);
    let md = other.plan_md();
    assert!(
        md.contains("<!-- id: stuck -->\nstatus: active\nbudget: 9\n"),
        "{md}"
    );
    assert!(
        !md[md.find("id: next").unwrap()..].contains("budget:"),
        "{md}"
    );
}

/// A long plan is read cut down on the hook's hot path (plan/lean.rs): a goal's
/// `budget:` line must survive the cut, or its budget is silently lost there.
#[test]
fn a_long_plans_goal_budget_holds_on_the_hot_path() {
    let log: String = (0..1500)
        .map(|i| format!("- 2026-06-15 13:00 a note about the work, number {i}\n"))
        .collect();
    // Open goals, whose contracts the cut drops: a continuation names them to start.
    let md = PLAN
        .replace("budget: 2", "budget: 1")
        .replace("status: active", "status: open")
        + &log;
    assert!(md.len() > 64 * 1024);
    let t = Test::new().plan(&md);
    settings(&t, "");
    t.ok(&["goal"]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    let second = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(second);
}

/// The agent could widen its own goal's budget: the `budget:` line (or
/// loop.goal_budget) was read afresh at every stop, so raising or deleting it
/// gave the goal more continuations. What a goal was charged under holds; a
/// lowered budget still applies.
#[test]
fn the_agent_cannot_widen_a_goals_budget_by_editing_it() {
    for edit in ["budget: 999\n", ""] {
        let t = Test::new().plan(PLAN);
        settings(&t, "");
        t.ok(&["goal", "--budget", "20"]);
        insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
        t.write("plan.md", t.plan_md().replace("budget: 2\n", edit));
        insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
        let third = goals(&t.stop_hook("s1").answer());
        insta::assert_snapshot!(third);
        insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
        // The person's rearm gives it the budget plan.md says now.
        let said = if edit.is_empty() {
            "stuck has a new budget (no per-goal limit is set: loop.goal_budget or a `budget:` line sets one)\n"
        } else {
            "stuck has a new budget: 999 continuations\n"
        };
        t.case(&["goal", "rearm", "stuck"]).stdout(said).check();
        insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    }

    // loop.goal_budget as `plan goal` found it: raising the key later gives nothing.
    let t = Test::new().plan(&PLAN.replace("budget: 2\n", ""));
    settings(&t, "  goal_budget: 1\n");
    t.ok(&["goal"]);
    settings(&t, "  goal_budget: 50\n");
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    let second = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(second);

    // Raised before the loop's first stop: the line `plan goal` found holds.
    let t = Test::new().plan(PLAN);
    settings(&t, "");
    t.ok(&["goal", "--budget", "20"]);
    t.write(
        "plan.md",
        t.plan_md().replace("budget: 2\n", "budget: 999\n"),
    );
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    let third = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(third);

    // A lowered budget applies at once.
    let t = Test::new().plan(PLAN);
    settings(&t, "");
    t.ok(&["goal", "--budget", "20"]);
    insta::assert_snapshot!(goals(&t.stop_hook("s1").answer()));
    t.write("plan.md", t.plan_md().replace("budget: 2\n", "budget: 1\n"));
    let second = goals(&t.stop_hook("s1").answer());
    insta::assert_snapshot!(second);
}

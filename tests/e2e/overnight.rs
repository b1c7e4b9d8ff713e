//! An overnight run in Claude Code, agent and judge both: a loop over three goals,
//! one signed off, one rejected by the judge and then signed off, one that spends
//! its per-goal budget and is left budget-limited; `plan report --markdown` then
//! tells that story.

use std::collections::VecDeque;

use serde_json::json;

use crate::fake::{Reply, is_side, shell, side, text};
use crate::harness::{Host, World};

const PLAN: &str = "# Plan: Overnight

## Goal: Write one
<!-- id: one -->
status: active
done_when: src/one.txt says one

## Goal: Write two
<!-- id: two -->
status: active
done_when: src/two.txt says two, with a test

## Goal: Write three
<!-- id: three -->
status: active
done_when: src/three.txt says three
budget: 1

## Log
- 2026-06-15 14:02 plan written
";

/// What the judge asked for the first time it saw goal two.
const MISSING: &str = "a test for src/two.txt";

pub fn claude_overnight_report() {
    let mut w = World::new(Host::Claude, PLAN, crate::fake::script(vec![]));
    // Three judges run inside the agent's shell, each a Claude Code of its own.
    w.run_timeout = std::time::Duration::from_secs(300);
    // The report also goes out when the loop ends, as a notification would send it.
    let notified = w.path("notified.md");
    w.write(
        ".plan/config.yaml",
        &format!(
            "judge:\n  timeout_secs: 90\nnotify:\n  - report: markdown\n    \
             command: [\"sh\", \"-c\", \"cat > '{0}.tmp' && mv '{0}.tmp' '{0}'\"]\n",
            notified.display()
        ),
    );
    w.sh("git add -A && git commit -q -m config");
    w.plan_ok(&["goal"]);
    // By its path: the agent's shell may not have the test's PATH.
    let plan = w.path("bin/plan").display().to_string();
    let complete = |id: &str, evidence: &str, paths: &str| {
        format!("{plan} complete {id} --judge claude --evidence '{evidence}' {paths}")
    };
    let mut agent: VecDeque<Reply> = VecDeque::from([
        shell(&format!(
            "mkdir -p src && echo one > src/one.txt && {}",
            complete("one", "src/one.txt says one", "--path src/one.txt")
        )),
        text("One is signed off."),
        shell(&format!(
            "echo two > src/two.txt && {}",
            complete("two", "src/two.txt says two", "--path src/two.txt")
        )),
        text("The judge wants a test first."),
        shell(&format!(
            "echo 'test -f src/two.txt' > src/two.test && {}",
            complete(
                "two",
                "src/two.txt says two; src/two.test checks it",
                "--path src/two.txt --path src/two.test"
            )
        )),
        text("Two is signed off."),
        shell(&format!(
            "{plan} log 'three: still looking for the right words'"
        )),
        text("Three is harder than it looks; I stop here."),
    ]);
    let script_len = agent.len();
    let mut seen_two = 0;
    w.fake.script(Box::new(move |call| {
        if is_side(call) {
            return side(call);
        }
        match judged(call.request) {
            Some("two") if seen_two == 0 => {
                seen_two += 1;
                text(&format!(
                    "src/two.txt is there, but nothing checks it.\nVERDICT: reject\nmissing:\n- {MISSING}\n"
                ))
            }
            Some(id) => text(&format!("src/{id}.txt is there.\nVERDICT: accept\nmissing:\n")),
            None => agent.pop_front().unwrap_or_else(|| text("Done.")),
        }
    }));
    w.prompt("Work on the plan.").ok();

    let turns: Vec<_> = w
        .fake
        .turns()
        .into_iter()
        .filter(|t| judged(t).is_none())
        .collect();
    let judges: Vec<&str> = w.fake.turns().iter().filter_map(judged).collect();
    assert_eq!(judges, ["one", "two", "two"], "the judge's calls, in order");
    assert_eq!(
        turns.len(),
        script_len,
        "the agent's turns: three continuations, then let go"
    );
    assert!(
        turns[2].has("plan.md still has work: two"),
        "continuation 1 names two"
    );
    assert!(
        turns[4].has("plan.md still has work: two"),
        "continuation 2 names two"
    );
    assert!(turns[3].has(MISSING), "the agent saw what the judge missed");
    assert!(
        turns[6].has("plan.md still has work: three"),
        "continuation 3 names three"
    );
    let md = w.read("plan.md");
    for (id, status) in [("one", "done"), ("two", "done"), ("three", "active")] {
        assert!(
            md.contains(&format!("<!-- id: {id} -->\nstatus: {status}\n")),
            "{id} is {status}:\n{md}"
        );
    }
    assert!(
        md.contains(&format!("two sign-off rejected (judge): {MISSING}")),
        "{md}"
    );

    let why = "every goal left spent its budget without a sign-off: three \
               (`plan goal rearm ID` gives one a new budget)";
    let last_stop = w
        .hooks()
        .into_iter()
        .rev()
        .find(|h| h.args.ends_with(" stop"))
        .map(|h| h.stdout)
        .unwrap_or_default();
    assert!(
        last_stop.contains(&format!("plan: work loop stopped: {why}")),
        "the last stop says why it let go: {last_stop}"
    );
    let status: serde_json::Value =
        serde_json::from_str(&w.plan_ok(&["goal", "status", "--json"]).stdout).unwrap();
    assert_eq!(status["budget_limited"], json!(["three"]), "{status}");
    assert_eq!(
        status["goal_continuations"],
        json!({"two": 2, "three": 1}),
        "{status}"
    );

    // The morning report, as a person reads it: each section's lines exactly.
    let report = w.plan_ok(&["report", "--markdown"]).stdout;
    let (summary, sections) = sections(&report);
    assert!(
        summary
            .iter()
            .any(|l| l.starts_with("- **Loop:** ended, 3 of 20 continuations")),
        "{report}"
    );
    assert!(
        summary.contains(&format!(
            "- **Why it ended:** `goal_budget` at 14:02: {why}"
        )),
        "{report}"
    );
    let expect: [(&str, &[&str]); 5] = [
        (
            "Signed off (2)",
            &[
                "- `one` Write one (14:02): proven",
                "- `two` Write two (14:02): proven",
            ],
        ),
        (
            "Sign-offs rejected (1)",
            &["- `two` Write two (14:02, judge): a test for src/two.txt \
               (.plan/judge/two-20260615-1402.md)"],
        ),
        (
            "Continuations per goal (3 in all)",
            &["- `two`: 2", "- `three`: 1"],
        ),
        (
            "Budget-limited (1)",
            &["- `three`: its budget of 1 continuation is spent"],
        ),
        (
            "Left (1)",
            &["- `three` Write three: active, budget-limited"],
        ),
    ];
    for (heading, lines) in expect {
        let found = sections.iter().find(|(h, _)| h == heading);
        assert_eq!(
            found.map(|(_, items)| items.as_slice()),
            Some(
                lines
                    .iter()
                    .map(|l| l.to_string())
                    .collect::<Vec<_>>()
                    .as_slice()
            ),
            "section {heading:?} of the report:\n{report}"
        );
    }
    // The notifier runs detached from the stop hook: give it a moment.
    let until = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !notified.exists() && std::time::Instant::now() < until {
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    assert_eq!(
        std::fs::read_to_string(&notified).unwrap_or_default(),
        report,
        "the loop's end sent the same report"
    );
}

/// The Markdown report's list items before its first heading, and each `## ` heading
/// with its list items.
fn sections(md: &str) -> (Vec<String>, Vec<(String, Vec<String>)>) {
    let mut summary = Vec::new();
    let mut sections: Vec<(String, Vec<String>)> = Vec::new();
    for line in md.lines() {
        if let Some(heading) = line.strip_prefix("## ") {
            sections.push((heading.to_string(), Vec::new()));
        } else if line.starts_with("- ") {
            match sections.last_mut() {
                Some((_, items)) => items.push(line.to_string()),
                None => summary.push(line.to_string()),
            }
        }
    }
    (summary, sections)
}

/// Which goal a model call judges, when it is the judge's: its prompt is the sign-off
/// review.
fn judged(r: &crate::fake::Request) -> Option<&'static str> {
    ["one", "two", "three"]
        .into_iter()
        .find(|id| r.has(&format!("# Sign-off review of goal {id}")))
}

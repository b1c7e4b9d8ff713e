//! Contract quality and consistency checks over a parsed plan. Pure.

use super::diag::Diagnostic;
use super::model::{Goal, Plan, Status};
use super::proof::Proof;

/// A finished goal without its record, and the weaker points of one with it; an
/// archived goal that is not finished.
fn proof_findings(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Diagnostic>) {
    let id = &goal.id;
    let line = goal.status.as_ref().map_or(goal.line, |f| f.line);
    let status = goal.status();
    match plan.proof(goal) {
        Proof::Unproven { why, hint } => out.push(
            Diagnostic::error(
                line,
                format!("goal \"{id}\" is {} but unproven: {why}", status.as_str()),
            )
            .hint(hint),
        ),
        Proof::Proven { warnings } => out.extend(
            warnings
                .into_iter()
                .map(|w| Diagnostic::warning(line, format!("goal \"{id}\" was {w}")).hint("`plan audit` lists every sign-off and how it was made")),
        ),
        Proof::Unfinished if goal.archived => out.push(
            Diagnostic::error(
                line,
                format!("goal \"{id}\" is under `## Archive` but {}", status.as_str()),
            )
            .hint("archived goals are finished ones; move it back above `## Log` and finish it with `plan complete` or `plan cancel`"),
        ),
        Proof::Unfinished => {}
    }
}

/// Words that suggest a failure mode is about verify passing while the goal is not met.
const GAMING_WORDS: [&str; 14] = [
    "verify", "test", "pass", "green", "gam", "trivial", "fake", "mock", "stub", "assert", "check",
    "bench", "hardcod", "hard-cod",
];

/// Every problem in the plan: its format errors, then contract and consistency
/// checks. Errors make `plan lint` fail; warnings are advice.
pub fn lint(plan: &Plan<'_>) -> Vec<Diagnostic> {
    lint_with(plan, |_| None)
}

/// As [`lint`], with `verify_problem` saying why a `verify:` line could not run
/// (the verify mini-language lives outside this pure core).
pub fn lint_with(
    plan: &Plan<'_>,
    verify_problem: impl Fn(&str) -> Option<String>,
) -> Vec<Diagnostic> {
    let mut out = plan.errors.clone();
    if plan.objective.is_none() {
        out.push(
            Diagnostic::warning(0, "no `# Plan: <objective>` line")
                .hint("add one at the top: it is the first thing the agent reads"),
        );
    }
    if plan.log_heading.is_none() {
        out.push(
            Diagnostic::warning(0, "no `## Log` section")
                .hint("`plan log TEXT` creates it; `plan doctor --fix` adds it"),
        );
    }
    for goal in plan.live() {
        let id = &goal.id;
        if goal.id_line.is_none() {
            out.push(
                Diagnostic::warning(goal.line, format!("goal \"{id}\" has no id comment"))
                    .hint(format!(
                        "add `<!-- id: {id} -->` under the heading (the next command that writes to it does), so renaming the title keeps the id"
                    )),
            );
        }
        if goal.status.is_none() {
            out.push(
                Diagnostic::warning(
                    goal.line,
                    format!("goal \"{id}\" has no `status:` line; it counts as open"),
                )
                .hint("add `status: open`"),
            );
        }
        let status = goal.status();
        if goal.done_when().is_none() {
            out.push(
                Diagnostic::error(
                    goal.done_when.as_ref().map_or(goal.line, |f| f.line),
                    format!("goal \"{id}\" has no done_when"),
                )
                .hint("say when it is done, in words a reviewer can check: `done_when: …`"),
            );
        }
        if status == Status::Active && goal.failure_modes.is_empty() {
            out.push(
                Diagnostic::error(goal.line, format!("active goal \"{id}\" has no failure modes"))
                    .hint("add `failure_modes:` with `- ` items: how could it look done while being wrong?"),
            );
        }
        if let (Some(field), Some(line)) = (&goal.verify, goal.verify())
            && let Some(why) = verify_problem(line)
        {
            out.push(
                Diagnostic::error(
                    field.line,
                    format!("the verify of \"{id}\" cannot run: {why}"),
                )
                .hint("verify runs without a shell: words, quotes, `&&` and `|` only"),
            );
        }
        if goal.verify().is_some() && !goal.failure_modes.is_empty() && !mentions_gaming(goal) {
            out.push(
                Diagnostic::warning(
                    goal.failure_modes_line.unwrap_or(goal.line),
                    format!("no failure mode of \"{id}\" says how verify could pass while the goal is not met"),
                )
                .hint("e.g. `- verify passes on a trivial or gamed test`"),
            );
        }
        if status == Status::Active {
            let unmet = plan.unmet_dependencies(goal);
            if !unmet.is_empty() {
                out.push(
                    Diagnostic::error(
                        goal.depends_line.unwrap_or(goal.line),
                        format!("goal \"{id}\" is active but waits on {}", unmet.join(", ")),
                    )
                    .hint("finish those first, or set this goal back to open"),
                );
            }
        }
    }
    for goal in &plan.goals {
        proof_findings(plan, goal, &mut out);
    }
    for (id, line) in plan.orphans() {
        out.push(
            Diagnostic::warning(
                line,
                format!("the log has events for \"{id}\", but no goal has that id (deleted or renamed by hand)"),
            )
            .hint(format!("restore the goal, or put `<!-- id: {id} -->` back under its heading")),
        );
    }
    for entry in plan.log.iter().filter(|e| e.stamp.is_none()) {
        out.push(
            Diagnostic::warning(entry.line, "log line without a `YYYY-MM-DD HH:MM` time")
                .hint("`plan log TEXT` writes stamped lines"),
        );
    }
    out.sort_by_key(|d| d.line);
    out
}

/// Does a failure mode say how verify could pass while the goal is not met?
pub fn mentions_gaming(goal: &Goal<'_>) -> bool {
    goal.failure_modes.iter().any(|mode| {
        let lower = mode.value.to_lowercase();
        GAMING_WORDS.iter().any(|w| lower.contains(w))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::diag::Severity;
    use crate::plan::model::parse;

    fn messages(src: &str) -> Vec<(usize, Severity, String)> {
        let mut plan = parse(src);
        plan.prove_legacy();
        lint(&plan)
            .into_iter()
            .map(|d| (d.line, d.severity, d.message))
            .collect()
    }

    #[test]
    fn a_good_plan_is_clean() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: y\nverify: cargo test\nfailure_modes:\n- test is trivial\n## Log\n";
        assert_eq!(messages(src), []);
    }

    #[test]
    fn contract_problems() {
        let src = "# Plan: x\n## Goal: A\nstatus: active\nverify: make\nfailure_modes:\n- slow\n## Goal: B\n<!-- id: b -->\nstatus: done\ndone_when: z\n## Log\n- untimed\n```\n";
        let got = messages(src);
        let summary: Vec<_> = got
            .iter()
            .map(|(l, s, m)| format!("{l} {s:?} {m}"))
            .collect();
        assert_eq!(
            summary,
            [
                "2 Warning goal \"a\" has no id comment",
                "2 Error goal \"a\" has no done_when",
                "5 Warning no failure mode of \"a\" says how verify could pass while the goal is not met",
                "9 Error goal \"b\" is done but unproven: marked done by hand: the log has no sign-off for it",
                "12 Warning log line without a `YYYY-MM-DD HH:MM` time",
                "13 Error code fence opened here is never closed: it runs to the end of the file, and lines plan adds would land inside it",
            ]
        );
    }

    #[test]
    fn active_goal_needs_failure_modes_and_met_dependencies() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: open\ndone_when: y\n## Goal: B\n<!-- id: b -->\nstatus: active\ndepends_on: a\ndone_when: y\n## Log\n";
        let got: Vec<_> = messages(src).into_iter().map(|(l, _, m)| (l, m)).collect();
        assert_eq!(
            got,
            [
                (6, "active goal \"b\" has no failure modes".to_string()),
                (9, "goal \"b\" is active but waits on a".to_string()),
            ]
        );
    }

    #[test]
    fn missing_log_and_objective_are_warnings() {
        let got = messages("");
        assert_eq!(got.len(), 2);
        assert!(got.iter().all(|(_, s, _)| *s == Severity::Warning));
    }
}

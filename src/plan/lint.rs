//! `plan lint`: every rule of the table (src/plan/rules.rs) that holds against a
//! plan, with the severity the table gives it. Pure.

use super::checks::{self, VerifyCheck};
use super::diag::Diagnostic;
use super::model::Plan;

/// Every problem in the plan: its format errors, then contract and consistency
/// checks. Errors make `plan lint` fail; warnings are advice.
pub fn lint(plan: &Plan<'_>) -> Vec<Diagnostic> {
    lint_with(plan, &checks::any_verify)
}

/// As [`lint`], with `verify` saying why a `verify:` line could not run (the verify
/// mini-language lives outside this pure core).
pub fn lint_with(plan: &Plan<'_>, verify: VerifyCheck<'_>) -> Vec<Diagnostic> {
    checks::check(plan, verify)
        .iter()
        .filter_map(|hit| Some(hit.diagnostic(hit.severity()?)))
        .collect()
}

/// As [`lint_with`], and `fails` saying why a verify line that runs can never fail
/// (`verify-cannot-fail`).
pub fn lint_full(
    plan: &Plan<'_>,
    verify: VerifyCheck<'_>,
    fails: checks::FailCheck<'_>,
) -> Vec<Diagnostic> {
    let mut hits = checks::check(plan, verify);
    hits.extend(checks::cannot_fail(plan, fails));
    hits.sort_by_key(|h| h.line);
    hits.iter()
        .filter_map(|hit| Some(hit.diagnostic(hit.severity()?)))
        .collect()
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

    /// A numbered checklist item in a goal (`1. [ ] x`) was neither a subtask nor
    /// linted: its step never counted and `plan tick` never reached it, silently. It
    /// is named, as a `+ ` item is; a numbered item without a box, or one after a
    /// paragraph indented (code), is not.
    #[test]
    fn a_numbered_checklist_item_in_a_goal_is_named() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: y\n1. [ ] first\n2) [x] second\n3. plain step\n- [ ] read\n   10. [ ] nested\n\ntext\n    4. [ ] code\n## Log\n";
        let got: Vec<String> = messages(src)
            .into_iter()
            .filter(|(_, _, m)| m.contains("is not a subtask"))
            .map(|(l, s, m)| format!("{l} {s:?} {m}"))
            .collect();
        assert_eq!(
            got,
            [
                "6 Warning `1. [ ] first` is not a subtask of goal \"a\" (plan reads `- ` and `* ` items, not numbered ones)",
                "7 Warning `2) [x] second` is not a subtask of goal \"a\" (plan reads `- ` and `* ` items, not numbered ones)",
                "10 Warning `   10. [ ] nested` is not a subtask of goal \"a\" (plan reads `- ` and `* ` items, not numbered ones)",
            ]
        );
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
                "2 Warning goal \"a\" has no id comment, so renaming its title changes its id",
                "2 Error goal \"a\" has no done_when",
                "5 Warning no failure mode of \"a\" says how verify could pass while the goal is not met",
                "9 Error goal \"b\" is done but unproven: marked done by hand: the log has no sign-off for it",
                "12 Warning log line without a `YYYY-MM-DD HH:MM` time",
                "13 Error code fence opened here is never closed: it runs to the end of the file, and lines plan adds would land inside it",
            ]
        );
    }

    #[test]
    fn open_and_active_goals_need_failure_modes_and_active_ones_met_dependencies() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: open\ndone_when: y\n## Goal: B\n<!-- id: b -->\nstatus: active\ndepends_on: a\ndone_when: y\n## Log\n";
        let got: Vec<_> = messages(src).into_iter().map(|(l, _, m)| (l, m)).collect();
        assert_eq!(
            got,
            [
                (2, "goal \"a\" has no failure modes".to_string()),
                (6, "goal \"b\" has no failure modes".to_string()),
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

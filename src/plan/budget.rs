//! Per-goal budgets of the work loop: which goal a continuation names first once the
//! goals that spent their budget without a sign-off (budget-limited) are passed
//! over. Pure: the loop's counts come in, the decision goes out. A goal's own
//! `budget: N` line is read with its other lines, in model.rs.
//!
//! A goal's budget is not part of its contract (`Goal::contract`): it says how long
//! the loop may try, not what done means, so changing it is no change of contract.

use std::collections::BTreeMap;

use super::blocks::{self, Part, PartKind};

/// What the loop knows of per-goal budgets at a stop.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budgets<'p> {
    /// The continuation goal by goal ([`blocks::continuation_parts`]), the goals
    /// other sessions hold left out. Empty: nothing to pass over.
    pub parts: &'p [Part],
    /// `loop.goal_budget`: every goal's, unless its own line says otherwise.
    pub default: Option<u32>,
    /// The goals with a `budget:` line, and theirs.
    pub own: &'p [(String, u32)],
    /// The contract fingerprint of each goal in `parts` (renamed.rs: a renamed
    /// goal keeps its counts).
    pub contracts: &'p [(String, String)],
}

impl Budgets<'_> {
    /// The continuations `goal` may take while named first; `None`: no limit.
    pub fn of(&self, goal: &str) -> Option<u32> {
        self.own
            .iter()
            .find(|(id, _)| id == goal)
            .map(|(_, n)| *n)
            .or(self.default)
    }

    /// [`Budgets::of`], held to what the loop recorded of `goal` (`frozen`): the
    /// budget plan.md gives now may be lower, never higher.
    pub fn held(&self, goal: &str, frozen: &BTreeMap<String, u32>) -> Option<u32> {
        tighter(self.of(goal), frozen.get(goal).copied())
    }
}

/// The smaller of two limits, `None` being no limit.
pub fn tighter(a: Option<u32>, b: Option<u32>) -> Option<u32> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}

/// A stop's continuation, budget-limited goals passed over.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Pick {
    /// The goal the continuation names first: the one its continuation counts for.
    pub first: Option<String>,
    /// The continuation's goals when some were passed over (`None`: as the plan
    /// gives them).
    pub goals: Option<String>,
    /// Every goal left is budget-limited.
    pub exhausted: bool,
    /// The budget-limited goals that are still work here.
    pub passed_over: Vec<String>,
}

/// Which goal a continuation from `parts` names first, as [`blocks::compose`]
/// orders them: an active goal, else one ready to start, else one finished,
/// archived or deleted by hand.
pub fn first<'a>(parts: &'a [Part], skip: &dyn Fn(&str) -> bool) -> Option<&'a str> {
    let of = |kind: PartKind| {
        parts
            .iter()
            .find(|p| p.kind == kind && !skip(&p.goal))
            .map(|p| p.goal.as_str())
    };
    of(PartKind::Active)
        .or_else(|| of(PartKind::Ready))
        .or_else(|| of(PartKind::Unproven))
        .or_else(|| of(PartKind::Shelved))
        .or_else(|| of(PartKind::Vanished))
}

/// Marks budget-limited each goal that would be named first with its budget spent
/// (`counts`: continuations each goal took while named first; `frozen`: the
/// budgets the loop recorded, [`Budgets::held`]), appending them to `limited`, and
/// says what the continuation names.
pub fn pick(
    budgets: Budgets<'_>,
    counts: &BTreeMap<String, u32>,
    frozen: &BTreeMap<String, u32>,
    limited: &mut Vec<String>,
) -> Pick {
    if budgets.parts.is_empty() {
        return Pick::default();
    }
    // A budget-limited goal signed off (or cancelled) since is no longer limited:
    // it is no longer work. Should it come back, its spent count limits it again.
    limited.retain(|goal| budgets.parts.iter().any(|p| &p.goal == goal));
    let first = loop {
        let skip = |goal: &str| limited.iter().any(|l| l == goal);
        let Some(goal) = first(budgets.parts, &skip) else {
            break None;
        };
        let spent = counts.get(goal).copied().unwrap_or(0);
        match budgets.held(goal, frozen) {
            Some(budget) if spent >= budget => limited.push(goal.to_string()),
            _ => break Some(goal.to_string()),
        }
    };
    if limited.is_empty() {
        return Pick {
            first,
            ..Pick::default()
        };
    }
    let skip = |goal: &str| limited.iter().any(|l| l == goal);
    let goals = blocks::compose(budgets.parts, &skip);
    // Limited goals that are no longer work (signed off since) end nothing.
    let passed_over: Vec<String> = limited
        .iter()
        .filter(|l| budgets.parts.iter().any(|p| &p.goal == *l))
        .cloned()
        .collect();
    // Said, so the agent does not go on with them for want of being told.
    let goals = goals.map(|goals| match passed_over.as_slice() {
        [] => goals,
        over => format!(
            "{goals}; budget-limited, leave for now: {}",
            over.join(", ")
        ),
    });
    Pick {
        first,
        exhausted: goals.is_none() && !passed_over.is_empty(),
        goals,
        passed_over,
    }
}

/// Why a loop whose goals are all budget-limited ends.
pub fn exhausted_why(limited: &[String]) -> String {
    format!(
        "{EXHAUSTED}: {} (`plan goal rearm ID` gives one a new budget)",
        limited.join(", ")
    )
}

/// How [`exhausted_why`] starts: a loop that ended so is taken up again by a rearm.
pub const EXHAUSTED: &str = "every goal left spent its budget without a sign-off";

/// The line the injection and the status line add for budget-limited goals.
pub fn injection_line(limited: &[String]) -> Option<String> {
    (!limited.is_empty()).then(|| {
        format!(
            "Work loop: budget-limited: {} (each spent its continuations without a sign-off, so the loop moved on; `plan goal rearm ID`, for the person who started the loop, gives one a new budget)",
            limited.join(", ")
        )
    })
}

/// The status line's part for budget-limited goals.
pub fn statusline_part(limited: &[String]) -> Option<String> {
    (!limited.is_empty()).then(|| format!("⚠ budget-limited: {}", limited.join(", ")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::{budget_value as parse, check_budget as check, parse as parse_plan};
    use crate::plan::rules::Rule;

    const PLAN: &str = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: active\nbudget: 2\n- [ ] one\n## Goal: B\n<!-- id: b -->\nstatus: active\n- [ ] two\n## Goal: C\n<!-- id: c -->\nstatus: open\n";

    #[test]
    fn budget_values_read_as_whole_numbers_from_one() {
        assert_eq!(parse("5"), Some(5));
        assert_eq!(parse(" 12 "), Some(12));
        for bad in ["0", "lots", "-1", "+3", "1.5", "", "99999999999"] {
            assert_eq!(parse(bad), None, "{bad}");
            assert!(check(3, bad).is_some(), "{bad}");
        }
        let lots = PLAN.replace("budget: 2", "budget: lots");
        let plan = parse_plan(&lots);
        let error = &plan.errors[0];
        assert_eq!((error.line, error.rule), (5, Some(Rule::BadBudget)));
        assert_eq!(plan.goals[0].budget(), None);
        assert_eq!(parse_plan(PLAN).goals[0].budget(), Some(2));
    }

    #[test]
    fn a_budget_is_not_part_of_the_contract() {
        let with = parse_plan(PLAN);
        let bare = PLAN.replace("budget: 2\n", "");
        let without = parse_plan(&bare);
        assert_eq!(with.goals[0].fingerprint(), without.goals[0].fingerprint());
    }

    fn picked(counts: &[(&str, u32)], default: Option<u32>, limited: &mut Vec<String>) -> Pick {
        let mut plan = parse_plan(PLAN);
        plan.prove_legacy();
        let parts = blocks::continuation_parts(&plan);
        let own = vec![("a".to_string(), 2)];
        let counts = counts.iter().map(|(g, n)| (g.to_string(), *n)).collect();
        pick(
            Budgets {
                parts: &parts,
                default,
                own: &own,
                contracts: &[],
            },
            &counts,
            &BTreeMap::new(),
            limited,
        )
    }

    #[test]
    fn a_goal_with_its_budget_spent_is_passed_over() {
        let mut limited = Vec::new();
        let p = picked(&[("a", 1)], None, &mut limited);
        assert_eq!(
            (p.first.as_deref(), p.goals, p.exhausted),
            (Some("a"), None, false)
        );
        let p = picked(&[("a", 2)], None, &mut limited);
        assert_eq!(limited, ["a"]);
        assert_eq!(p.first.as_deref(), Some("b"));
        assert!(p.goals.as_deref().unwrap().starts_with("b (0/1"), "{p:?}");
        assert!(!p.goals.unwrap().contains("a ("));
        // b has no budget of its own and no default: no limit.
        let p = picked(&[("a", 2), ("b", 50)], None, &mut limited);
        assert_eq!(p.first.as_deref(), Some("b"));
    }

    #[test]
    fn a_limited_goal_that_is_no_longer_work_is_no_longer_limited() {
        let cancelled = PLAN.replace("status: active\nbudget", "status: cancelled\nbudget")
            + "## Log\n- 2026-01-01 00:00 a cancelled: not needed\n";
        let mut plan = parse_plan(&cancelled);
        plan.prove_legacy();
        let parts = blocks::continuation_parts(&plan);
        let mut limited = vec!["a".to_string()];
        let budgets = Budgets {
            parts: &parts,
            ..Budgets::default()
        };
        let p = pick(budgets, &BTreeMap::new(), &BTreeMap::new(), &mut limited);
        assert!(limited.is_empty());
        assert_eq!((p.first.as_deref(), p.goals), (Some("b"), None));
    }

    #[test]
    fn the_default_budget_limits_every_goal_and_then_nothing_is_left() {
        let mut limited = Vec::new();
        let p = picked(&[("a", 2), ("b", 3)], Some(3), &mut limited);
        assert_eq!(limited, ["a", "b"]);
        // With no active goal left to name, the one ready to start is next.
        assert_eq!(p.first.as_deref(), Some("c"));
        assert!(p.goals.unwrap().starts_with("start c"));
        let p = picked(&[("a", 2), ("b", 3), ("c", 3)], Some(3), &mut limited);
        assert_eq!(limited, ["a", "b", "c"]);
        assert_eq!((p.first, p.goals, p.exhausted), (None, None, true));
    }
}

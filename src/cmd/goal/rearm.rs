//! `plan goal rearm ID` and the loop's per-goal budgets as `plan goal status` shows
//! them: what the command changes in the loop's state, and says.

use crate::plan::budget;
use crate::state::Loop;

/// Gives `goal` a new budget in loop `l`: its count back to 0, no longer
/// budget-limited, and a loop that ended because every goal left was budget-limited
/// taken up again. `false`: no loop is running that a rearm could change.
pub fn rearm(l: &mut Loop, goal: &str) -> bool {
    match &l.ended {
        None => {}
        Some(why) if why.starts_with(budget::EXHAUSTED) => {
            l.ended = None;
            // Else its elapsed time stops at the old end and the time budget never
            // fires again.
            l.budgets.ended_at = None;
        }
        Some(_) => return false,
    }
    l.goal_continuations.remove(goal);
    // The budget plan.md gives it now is recorded at its next continuation.
    l.goal_budgets.remove(goal);
    l.budget_limited.retain(|g| g != goal);
    // The continuations the loop spent on it were no stall of the new budget's.
    l.stalls = 0;
    true
}

/// What `plan goal rearm` says it did.
pub fn said(goal: &str, budget: Option<u32>) -> String {
    match budget {
        Some(1) => format!("{goal} has a new budget: 1 continuation"),
        Some(n) => format!("{goal} has a new budget: {n} continuations"),
        None => format!(
            "{goal} has a new budget (no per-goal limit is set: loop.goal_budget or a `budget:` line sets one)"
        ),
    }
}

/// `plan goal status`'s lines for per-goal budgets, when the loop has any to show.
pub fn status_lines(l: &Loop) -> Option<String> {
    let mut lines = Vec::new();
    if !l.goal_continuations.is_empty() {
        let per_goal: Vec<String> = l
            .goal_continuations
            .iter()
            .map(|(goal, n)| match l.goal_budgets.get(goal) {
                Some(budget) => format!("{goal} {n} of {budget}"),
                None => format!("{goal} {n}"),
            })
            .collect();
        lines.push(format!("  continuations per goal: {}", per_goal.join(", ")));
    }
    if !l.budget_limited.is_empty() {
        lines.push(format!(
            "  budget-limited: {} (`plan goal rearm ID` gives one a new budget)",
            l.budget_limited.join(", ")
        ));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rearm_clears_the_goal_and_takes_up_a_loop_its_budgets_ended() {
        let mut l = Loop {
            budget_limited: vec!["a".into(), "b".into()],
            goal_continuations: [("a".to_string(), 3), ("b".to_string(), 2)].into(),
            goal_budgets: [("a".to_string(), 3), ("b".to_string(), 2)].into(),
            ended: Some(budget::exhausted_why(&["a".into(), "b".into()])),
            budgets: crate::loop_budget::Budgets {
                started_at: Some(100),
                ended_at: Some(200),
                ..Default::default()
            },
            ..Loop::default()
        };
        assert!(rearm(&mut l, "b"));
        assert_eq!(
            (l.ended.as_deref(), &l.budget_limited[..]),
            (None, &["a".to_string()][..])
        );
        assert_eq!(l.goal_continuations.get("b"), None);
        assert_eq!(l.goal_budgets.get("b"), None);
        assert_eq!(l.goal_budgets.get("a"), Some(&3));
        assert_eq!(l.budgets.ended_at, None);
        let mut cleared = Loop {
            ended: Some("cleared by `plan goal clear`".into()),
            ..Loop::default()
        };
        assert!(!rearm(&mut cleared, "a"));
    }
}

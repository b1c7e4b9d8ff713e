//! Claims as the agent and the person read them: whether a start may take a goal,
//! and the lines the injection, the continuation and the status line add so each
//! session knows which goals are its own and which are held by whom. Pure: the
//! claims, the session's name and the clock are passed in.

use super::bound::{MAX_ID, field, id};
use super::text::strip_controls;

/// One claim as the blocks show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Holding<'a> {
    pub goal: &'a str,
    pub holder: &'a str,
    pub worktree: &'a str,
    pub branch: &'a str,
}

/// What a start (or a release) may do with a goal's claim.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Nobody holds it: take it.
    Free,
    /// The caller holds it already: renew it.
    Mine,
    /// Another holds it and was active within the lease: refused without `--steal`.
    Held { holder: String },
    /// Another holds it, `--steal` given: taken over, logged.
    Steal { holder: String },
    /// Another holds it but showed no activity for `idle` minutes, the lease or
    /// more: taken over with a note, logged.
    Lapsed { holder: String, idle: i64 },
}

/// Decides a start by `me` of a goal `current` holds, last active at
/// `last_active` (seconds), at `now`.
pub fn decide(
    current: Option<(&str, i64)>,
    me: &str,
    now: i64,
    lease_minutes: u32,
    steal: bool,
) -> Decision {
    let Some((holder, last_active)) = current else {
        return Decision::Free;
    };
    if holder == me {
        return Decision::Mine;
    }
    let idle = (now - last_active).max(0) / 60;
    let holder = holder.to_string();
    if idle >= i64::from(lease_minutes) {
        Decision::Lapsed { holder, idle }
    } else if steal {
        Decision::Steal { holder }
    } else {
        Decision::Held { holder }
    }
}

/// Why a holder name cannot be used; `None` when it can. Names go into log lines
/// and claim records: one word, printable.
pub fn invalid_name(name: &str) -> Option<&'static str> {
    if name.is_empty() {
        return Some("it is empty");
    }
    if name.chars().count() > 100 {
        return Some("it is longer than 100 characters");
    }
    if !name
        .chars()
        .all(|c| c.is_alphanumeric() || "-_.@:+/".contains(c))
    {
        return Some("use letters, digits and - _ . @ : + / only");
    }
    None
}

fn place(h: &Holding<'_>) -> String {
    let mut at = Vec::new();
    if !h.worktree.is_empty() {
        at.push(format!("in {}", h.worktree));
    }
    if !h.branch.is_empty() {
        at.push(format!("on {}", h.branch));
    }
    strip_controls(&format!("{} {}", h.holder, at.join(" ")))
        .trim_end()
        .to_string()
}

/// The injection's claims lines for session `me` (`None`: not known), or `None`
/// when nothing is claimed.
pub fn injection_lines(claims: &[Holding<'_>], me: Option<&str>) -> Option<String> {
    if claims.is_empty() {
        return None;
    }
    let mine: Vec<String> = claims
        .iter()
        .filter(|h| Some(h.holder) == me)
        .map(|h| id(h.goal))
        .collect();
    let others: Vec<String> = claims
        .iter()
        .filter(|h| Some(h.holder) != me)
        .map(|h| format!("{} (held by {})", id(h.goal), field(&place(h), 3 * MAX_ID)))
        .collect();
    let mut lines = Vec::new();
    match me.map(|me| field(me, MAX_ID)) {
        Some(me) => lines.push(format!(
            "Claims: this session is {me}. Work on your own goals and unclaimed ones, never on a goal held by another; claim one with `plan start ID --as {me}` before working on it."
        )),
        None => lines.push(
            "Claims: work on unclaimed goals and your own; claim one with `plan start ID --as NAME` before working on it.".to_string(),
        ),
    }
    if !mine.is_empty() {
        lines.push(format!("Yours: {}.", mine.join(", ")));
    }
    if !others.is_empty() {
        lines.push(format!(
            "Held by others, leave them be: {}.",
            others.join("; ")
        ));
    }
    let lines: Vec<String> = lines
        .iter()
        .map(|l| strip_controls(l).into_owned())
        .collect();
    Some(lines.join("\n"))
}

/// Which of the `active` goals (ids, in plan order) a session `me` is shown in
/// detail: the first it holds, else the first no one holds; never another's.
pub fn focus<'a>(active: &[&'a str], claims: &[Holding<'_>], me: Option<&str>) -> Option<&'a str> {
    let holder = |goal: &str| claims.iter().find(|h| h.goal == goal).map(|h| h.holder);
    let mine = active.iter().find(|g| me.is_some() && holder(g) == me);
    mine.or_else(|| active.iter().find(|g| holder(g).is_none()))
        .copied()
}

/// The status line's claims part for `me`, or `None` when nothing is claimed.
pub fn statusline_part(claims: &[Holding<'_>], me: Option<&str>) -> Option<String> {
    if claims.is_empty() {
        return None;
    }
    let mine: Vec<String> = claims
        .iter()
        .filter(|h| Some(h.holder) == me)
        .map(|h| id(h.goal))
        .collect();
    let others: Vec<String> = claims
        .iter()
        .filter(|h| Some(h.holder) != me)
        .map(|h| format!("{} by {}", id(h.goal), field(h.holder, MAX_ID)))
        .collect();
    let mut parts = Vec::new();
    if !mine.is_empty() {
        parts.push(format!("yours: {}", mine.join(", ")));
    }
    if !others.is_empty() {
        parts.push(format!("held: {}", others.join(", ")));
    }
    Some(strip_controls(&parts.join(" · ")).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_start_takes_a_free_goal_renews_its_own_and_needs_steal_within_the_lease() {
        assert_eq!(decide(None, "a", 0, 60, false), Decision::Free);
        assert_eq!(
            decide(Some(("a", 0)), "a", 99_999, 60, false),
            Decision::Mine
        );
        assert_eq!(
            decide(Some(("b", 0)), "a", 59 * 60, 60, false),
            Decision::Held { holder: "b".into() }
        );
        assert_eq!(
            decide(Some(("b", 0)), "a", 59 * 60, 60, true),
            Decision::Steal { holder: "b".into() }
        );
        assert_eq!(
            decide(Some(("b", 0)), "a", 60 * 60, 60, false),
            Decision::Lapsed {
                holder: "b".into(),
                idle: 60
            }
        );
    }

    #[test]
    fn each_session_is_told_its_own_goals_and_who_holds_the_rest() {
        let claims = [
            Holding {
                goal: "a",
                holder: "s1",
                worktree: "/w/one",
                branch: "one",
            },
            Holding {
                goal: "b",
                holder: "s2",
                worktree: "/w/two",
                branch: "two",
            },
        ];
        let one = injection_lines(&claims, Some("s1")).unwrap();
        assert!(one.contains("Yours: a."), "{one}");
        assert!(one.contains("b (held by s2 in /w/two on two)"), "{one}");
        assert_eq!(
            statusline_part(&claims, Some("s2")).unwrap(),
            "yours: b · held: a by s1"
        );
        assert_eq!(injection_lines(&[], Some("s1")), None);
        // The status line details a session's own goal, else an unclaimed one.
        let active = ["a", "b", "c"];
        assert_eq!(focus(&active, &claims, Some("s2")), Some("b"));
        assert_eq!(focus(&active, &claims, Some("s3")), Some("c"));
        assert_eq!(focus(&active[..2], &claims, None), None);
        assert!(invalid_name("a b").is_some());
        assert!(invalid_name("4f2a-uuid").is_none());
    }
}

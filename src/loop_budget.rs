//! The work loop's token and time budgets: what the loop keeps of them, the tokens
//! the owning session's host reported (read from its transcript at each stop, only
//! what is new: src/hosts/usage.rs), the wall time since `plan goal`, and whether
//! either is spent. Pure but for [`read`], which reads the transcript, and the wall
//! clock read for a loop that keeps to it while `PLAN_NOW` is set.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::hosts::Host;
use crate::hosts::usage::{self, Cursor};

/// Kept in the loop state (`.git/plan/loop.json`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Budgets {
    /// Tokens the host may report before the loop lets go (`loop.token_budget`,
    /// `plan goal --token-budget`); `None`: no limit.
    pub token_budget: Option<u64>,
    /// Seconds of wall time the loop may run (`loop.time_budget`,
    /// `plan goal --time-budget`); `None`: no limit.
    pub time_budget: Option<u64>,
    /// Tokens the owning session's host reported since the loop started.
    pub tokens: u64,
    /// When `plan goal` started the loop, in seconds since the epoch (on
    /// `PLAN_NOW`'s clock when that is set).
    pub started_at: Option<i64>,
    /// When the loop ended, likewise.
    pub ended_at: Option<i64>,
    /// Whether `plan goal` started it on `PLAN_NOW`'s clock. A loop started on the
    /// wall clock keeps to it: `PLAN_NOW` set later (by the agent, running a hook
    /// itself) neither spends its time budget nor gives it more.
    pub fixed_clock: bool,
    /// Where the token count left off in the session's transcript.
    pub transcript: Option<Cursor>,
}

/// What one stop read of the transcript: applied only to the loop it was read
/// for, so two stops never count the same lines.
#[derive(Debug)]
pub struct Read {
    from: Option<Cursor>,
    to: Cursor,
    tokens: u64,
}

/// Reads what is new in `transcript` for a loop that counts tokens, where `host`
/// says how. Done before the loop's lock is taken; any failure counts nothing (a
/// hook fails open).
pub fn read(host: Host, transcript: Option<&Path>, b: &Budgets) -> Option<Read> {
    let reader = host.spec().usage?;
    let since = b.started_at?;
    let from = b.transcript.clone();
    let (to, tokens) = usage::read(transcript?, from.as_ref(), since, reader).ok()?;
    Some(Read { from, to, tokens })
}

/// Counts `read` into a loop owned by `owner` when it was read from where the
/// loop stands, for the session that owns it (or is about to claim it).
pub fn apply(b: &mut Budgets, owner: Option<&str>, read: Option<&Read>, session: &str) {
    let Some(read) = read else { return };
    if owner.is_some_and(|o| o != session) || b.transcript != read.from {
        return;
    }
    b.tokens = b.tokens.saturating_add(read.tokens);
    b.transcript = Some(read.to.clone());
}

/// The budget that is spent at `now`, if any: the let-go's reason and why.
pub fn spent(b: &Budgets, now: i64) -> Option<(&'static str, String)> {
    if let Some(budget) = b.token_budget
        && b.tokens >= budget
    {
        let why = format!(
            "its token budget of {budget} is spent: the host reported {} tokens since the loop started (`plan goal` starts a new one)",
            b.tokens
        );
        return Some(("token_budget", why));
    }
    let budget = b.time_budget?;
    let elapsed = elapsed(b, now)?;
    (elapsed >= budget).then(|| {
        let why = format!(
            "its time budget of {} is spent: {} since the loop started (`plan goal` starts a new one)",
            show(budget),
            show(elapsed)
        );
        ("time_budget", why)
    })
}

/// Seconds since the loop started, up to its end once it ended.
pub fn elapsed(b: &Budgets, now: i64) -> Option<u64> {
    let end = b.ended_at.unwrap_or_else(|| reading(b, now));
    Some(end.saturating_sub(b.started_at?).max(0) as u64)
}

/// `now` (read on `PLAN_NOW`'s clock when it is set) as the clock `b` keeps: the
/// wall clock's reading instead for a loop started on the wall clock while
/// `PLAN_NOW` is set.
pub fn reading(b: &Budgets, now: i64) -> i64 {
    match !b.fixed_clock && crate::clock::fixed().is_some() {
        true => crate::clock::epoch_seconds(),
        false => now,
    }
}

/// The limits `plan goal` reports starting with: `, 12000 tokens, 1h 30m of wall
/// time`, or nothing.
pub fn limits(b: &Budgets) -> String {
    let mut out = String::new();
    if let Some(tokens) = b.token_budget {
        out.push_str(&format!(", {tokens} tokens"));
    }
    if let Some(time) = b.time_budget {
        out.push_str(&format!(", {} of wall time", show(time)));
    }
    out
}

/// `plan goal status`'s lines for the budgets, each after a newline.
pub fn status_lines(b: &Budgets, now: i64) -> String {
    let of =
        |budget: Option<String>| budget.map_or(" (no budget)".to_string(), |b| format!(" of {b}"));
    let mut out = format!(
        "\n  tokens: {}{}",
        b.tokens,
        of(b.token_budget.map(|t| t.to_string()))
    );
    if let Some(elapsed) = elapsed(b, now) {
        out.push_str(&format!(
            "\n  elapsed: {}{}",
            show(elapsed),
            of(b.time_budget.map(show))
        ));
    }
    out
}

/// A duration as people write it: `90m`, `8h`, `1h30m`, `2d`, `45s`; whole
/// seconds, more than none.
pub fn parse_duration(text: &str) -> Result<u64, String> {
    let bad = || format!("expected a duration such as 90m or 8h, found \"{text}\"");
    let span: jiff::Span = text.trim().parse().map_err(|_| bad())?;
    // A day is 24 hours here: a budget is wall time, not calendar days.
    let seconds = span
        .total((
            jiff::Unit::Second,
            jiff::SpanRelativeTo::days_are_24_hours(),
        ))
        .map_err(|_| bad())?;
    if seconds.is_nan() || seconds < 1.0 || seconds.fract() != 0.0 {
        return Err(bad());
    }
    Ok(seconds as u64)
}

/// `seconds` as [`parse_duration`] reads it: `1h 30m`, `28m`, `0s`.
pub fn show(seconds: u64) -> String {
    let d = jiff::SignedDuration::from_secs(seconds.min(i64::MAX as u64) as i64);
    format!("{d:#}")
}

/// What a running loop did at a stop. Not a log line: the loop's runtime, recorded
/// under `<git-dir>/plan/`, never in plan.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum LoopEvent {
    /// The agent was kept working: continuation `continuation` of `budget`.
    LoopContinued {
        session: String,
        continuation: u32,
        budget: u32,
        goals: String,
        /// The goal named first, whose budget the continuation spends.
        #[serde(skip_serializing_if = "Option::is_none")]
        goal: Option<String>,
    },
    /// The loop let the agent stop. `reason` is `paused`, `aborted` (the person
    /// stopped the turn), `host_error`, `no_work`,
    /// `budget_spent`, `goal_budget`, `token_budget`, `time_budget`, `stalled` or
    /// `loop_judge`;
    /// `ended`: the loop is over (a pause, an abort or a host error, which pauses the
    /// loop only when no retry gets past it, lets only this stop go).
    LoopLetGo {
        session: String,
        reason: &'static str,
        why: String,
        ended: bool,
    },
    /// `goal` spent its budget, `continuations` while named first, without a
    /// sign-off: the loop passes it over until `plan goal rearm`.
    GoalBudgetLimited {
        session: String,
        goal: String,
        continuations: u32,
    },
}

impl LoopEvent {
    pub const NAMES: [&'static str; 3] = ["loop_continued", "loop_let_go", "goal_budget_limited"];
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_read_as_people_write_them() {
        assert_eq!(parse_duration("90m"), Ok(5400));
        assert_eq!(parse_duration("8h"), Ok(28_800));
        assert_eq!(parse_duration("1h30m"), Ok(5400));
        assert_eq!(parse_duration("1h 30m"), Ok(5400));
        assert_eq!(parse_duration("2d"), Ok(172_800));
        assert_eq!(parse_duration("45s"), Ok(45));
        for bad in ["90", "soon", "", "0m", "-5m", "1.5s"] {
            assert!(parse_duration(bad).is_err(), "{bad}");
        }
        assert_eq!(show(5400), "1h 30m");
        assert_eq!(show(1680), "28m");
        assert_eq!(show(0), "0s");
        assert_eq!(show(172_800), "48h");
    }

    #[test]
    fn a_budget_is_spent_at_its_figure() {
        let mut b = Budgets {
            token_budget: Some(100),
            time_budget: Some(60),
            started_at: Some(1000),
            ..Budgets::default()
        };
        assert_eq!(spent(&b, 1059), None);
        let (reason, why) = spent(&b, 1060).unwrap();
        assert_eq!(reason, "time_budget");
        assert!(
            why.contains("time budget of 1m is spent: 1m since"),
            "{why}"
        );
        b.tokens = 100;
        assert_eq!(spent(&b, 0).unwrap().0, "token_budget");
        b.ended_at = Some(1030);
        assert_eq!(elapsed(&b, 5000), Some(30));
        assert_eq!(elapsed(&Budgets::default(), 5000), None);
    }

    #[test]
    fn a_read_counts_only_for_the_owner_and_only_once() {
        let to = Cursor {
            offset: 10,
            ..Cursor::default()
        };
        let read = Read {
            from: None,
            to: to.clone(),
            tokens: 5,
        };
        let mut b = Budgets::default();
        apply(&mut b, Some("s1"), Some(&read), "s2");
        assert_eq!(b.tokens, 0);
        apply(&mut b, Some("s1"), Some(&read), "s1");
        assert_eq!((b.tokens, b.transcript.as_ref()), (5, Some(&to)));
        // Read from where the loop stood before: another stop counted it already.
        apply(&mut b, None, Some(&read), "s1");
        assert_eq!(b.tokens, 5);
    }
}

//! The morning report as one typed value, and how it is put together from what was
//! read: plan.md's log events in the window, the loop's journal events in it, the
//! loop's state and the plan as it is now. Pure: the caller reads the files, the
//! clock and git, and passes the values in.

use schemars::JsonSchema;
use serde::Serialize;
use serde_json::Value;

use crate::plan::event::Event;
use crate::plan::model::Plan;
use crate::plan::status::Status;
use crate::state::HostGoal;

/// What `plan report` shows, `--json` prints and `plan_report` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Report {
    /// `loop`: the loop's latest run; `since`: everything since a time or revision.
    pub scope: &'static str,
    /// `--since` as given, when it was.
    pub since: Option<String>,
    /// The window's first minute (`YYYY-MM-DD HH:MM`); empty for a revision, whose
    /// log events are the lines added since it.
    pub from: String,
    /// The window's last minute: the loop's end, or now.
    pub to: String,
    /// The loop's run, when it falls in the window.
    #[serde(rename = "loop")]
    pub run: Option<Run>,
    /// Wall time of the window in minutes, where known: the loop's run, or since the
    /// time given.
    pub elapsed_minutes: Option<i64>,
    pub signed_off: Vec<SignedOff>,
    pub rejected: Vec<Rejected>,
    pub reopened: Vec<Change>,
    pub cancelled: Vec<Change>,
    /// Continuations given in the window, all goals together.
    pub continuations: u32,
    /// Continuations each goal took while it was the one named first, most first.
    pub continuations_per_goal: Vec<GoalCount>,
    /// Goals still budget-limited: spent their budget in the window, with no
    /// `plan goal rearm` after.
    pub budget_limited: Vec<GoalCount>,
    /// `plan goal rearm`s in the window: each gave a goal a new budget.
    pub rearmed: Vec<Rearmed>,
    /// Why the loop ended, when it did in the window (for the loop's run: only when
    /// it has ended).
    pub ended: Option<Ending>,
    /// Why the loop's run is paused, when it is: the host error or `plan goal pause`
    /// that paused it. The window ends there.
    pub paused: Option<Ending>,
    /// Goals not yet done, as plan.md has them now.
    pub left: Vec<Left>,
}

/// The loop's latest run, from `.git/plan/loop.json`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Run {
    /// `running`, `paused` or `ended`.
    pub state: &'static str,
    pub started: String,
    /// When it ended, as its last event says; `None` while it runs or when no event says.
    pub ended_at: Option<String>,
    pub used: u32,
    pub budget: u32,
    /// Tokens the host reported since the loop started, where plan counts them.
    pub tokens: Option<u64>,
    /// It replaced a loop still running when it started (`plan goal` run again).
    pub replaced: bool,
    /// The host's own goal beside the loop, when it did anything.
    #[serde(skip_serializing_if = "HostGoal::is_unused")]
    pub host_goal: HostGoal,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct SignedOff {
    pub at: Option<String>,
    pub id: String,
    pub title: Option<String>,
    /// Backed by its sign-off record, as `plan show` and `plan audit` judge it.
    pub proven: bool,
    /// Why not, when not proven.
    pub unproven: Option<String>,
    /// Reopened later in the window (or since), so this sign-off no longer counts.
    pub reopened_after: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Rejected {
    pub at: Option<String>,
    pub id: String,
    pub title: Option<String>,
    /// `verify`, `judge`, …: where the sign-off stopped.
    pub stage: String,
    /// What the judge or verify found missing, as the log line says it.
    pub missing: String,
    /// The record of the rejection plan wrote, when the line names one (`.plan/judge/…`).
    pub record: Option<String>,
}

/// A reopen or a cancel.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Change {
    pub at: Option<String>,
    pub id: String,
    pub title: Option<String>,
    pub reason: String,
}

/// A `plan goal rearm`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Rearmed {
    pub at: Option<String>,
    pub id: String,
    pub title: Option<String>,
    /// `a terminal was attached` or `without a terminal`, as the log line says.
    pub approval: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct GoalCount {
    pub goal: String,
    pub continuations: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Ending {
    pub at: Option<String>,
    /// `no_work`, `budget_spent`, `stalled`, `goal_budget`, `token_budget`,
    /// `time_budget`, `cleared`, …
    pub reason: String,
    pub why: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Left {
    pub id: String,
    pub title: String,
    /// `active`, `ready`, `waiting` (on dependencies), `unproven` (marked done or
    /// cancelled without a record) or `archived` (moved under `## Archive` unfinished).
    pub state: &'static str,
    /// Subtasks ticked and in all.
    pub done: usize,
    pub total: usize,
    /// Dependencies not yet done, for a waiting goal.
    pub waiting_on: Vec<String>,
    /// Spent its continuation budget in the window.
    pub budget_limited: bool,
}

/// One of plan.md's log events in the window: its stamp and its text.
pub struct LogItem<'a> {
    pub at: Option<&'a str>,
    pub event: Event<'a>,
}

/// Everything [`build`] needs, read by the caller.
pub struct Inputs<'a, 'p> {
    pub scope: &'static str,
    pub since: Option<String>,
    pub from: String,
    pub to: String,
    pub run: Option<Run>,
    pub elapsed_minutes: Option<i64>,
    /// plan.md now, proven.
    pub plan: &'p Plan<'a>,
    pub log: Vec<LogItem<'a>>,
    /// The journal's events in the window, normalized (`at` first), oldest first.
    pub journal: Vec<Value>,
    /// Whether a sign-off backs its log line, for one no goal's standing answers.
    pub backs: &'p dyn Fn(&LogItem<'_>) -> Result<(), String>,
    /// Why the loop ended, as loop.json says: the ending event that says the same
    /// is this loop's (another loop may have ended in the minute this one started).
    pub loop_ended: Option<String>,
    /// Why the loop's run is paused, when it is.
    pub paused: Option<Ending>,
}

pub fn build(inputs: Inputs<'_, '_>) -> Report {
    let plan = inputs.plan;
    let title = |id: &str| plan.goal(id).map(|g| g.title.to_string());
    let mut report = Report {
        scope: inputs.scope,
        since: inputs.since,
        from: inputs.from,
        to: inputs.to,
        run: inputs.run,
        elapsed_minutes: inputs.elapsed_minutes,
        ..Report::default()
    };
    for (i, item) in inputs.log.iter().enumerate() {
        let at = item.at.map(str::to_string);
        match item.event {
            Event::SignedOff { id, .. } => {
                let later = &inputs.log[i + 1..];
                let reopened_after = later
                    .iter()
                    .any(|l| matches!(l.event, Event::Reopened { id: r, .. } if r == id));
                let signed_again = later
                    .iter()
                    .any(|l| matches!(l.event, Event::SignedOff { id: s, .. } if s == id));
                // The goal's own standing when this is the sign-off it stands on.
                let standing = plan
                    .goal(id)
                    .filter(|g| g.status() == Status::Done && !reopened_after && !signed_again)
                    .map(|g| plan.proof(g));
                let (proven, unproven) = match standing {
                    Some(proof) => (proof.is_proven(), proof.why().map(str::to_string)),
                    None => match (inputs.backs)(item) {
                        Ok(()) => (true, None),
                        Err(why) => (false, Some(why)),
                    },
                };
                report.signed_off.push(SignedOff {
                    at,
                    id: id.to_string(),
                    title: title(id),
                    proven,
                    unproven,
                    reopened_after,
                });
            }
            Event::Rejected { id, stage, missing } => {
                let (missing, record) = record_named(missing);
                report.rejected.push(Rejected {
                    at,
                    id: id.to_string(),
                    title: title(id),
                    stage: stage.to_string(),
                    missing: missing.to_string(),
                    record: record.map(str::to_string),
                });
            }
            Event::Reopened { id, reason } => report.reopened.push(Change {
                at,
                id: id.to_string(),
                title: title(id),
                reason: reason.to_string(),
            }),
            Event::Cancelled { id, reason } => report.cancelled.push(Change {
                at,
                id: id.to_string(),
                title: title(id),
                reason: reason.to_string(),
            }),
            Event::BudgetRearmed { id, approval } => report.rearmed.push(Rearmed {
                at,
                id: id.to_string(),
                title: title(id),
                approval: approval.words().to_string(),
            }),
            _ => {}
        }
    }
    let mut per_goal: Vec<GoalCount> = Vec::new();
    // Each with when it was limited, for a rearm after it to lift.
    let mut limited: Vec<(GoalCount, String)> = Vec::new();
    let text = |v: &Value, k: &str| v[k].as_str().unwrap_or_default().to_string();
    for event in &inputs.journal {
        match event["event"].as_str() {
            Some("loop_continued") => {
                report.continuations += 1;
                if let Some(goal) = first_goal(event, plan) {
                    match per_goal.iter_mut().find(|c| c.goal == goal) {
                        Some(count) => count.continuations += 1,
                        None => per_goal.push(GoalCount {
                            goal,
                            continuations: 1,
                        }),
                    }
                }
            }
            Some("goal_budget_limited") => {
                let goal = text(event, "goal");
                let continuations = event["continuations"]
                    .as_u64()
                    .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
                limited.retain(|(c, _)| c.goal != goal);
                limited.push((
                    GoalCount {
                        goal,
                        continuations,
                    },
                    text(event, "at"),
                ));
            }
            _ => {}
        }
    }
    // Most first; ties in the order they first came.
    per_goal.sort_by_key(|c| std::cmp::Reverse(c.continuations));
    report.continuations_per_goal = per_goal;
    // A rearm in the minute of the limit or after it lifts it (a rearm needs a limit
    // to lift); an unstamped one is taken as after.
    let limited: Vec<GoalCount> = limited
        .into_iter()
        .filter(|(c, since)| {
            !report
                .rearmed
                .iter()
                .any(|r| r.id == c.goal && r.at.as_ref().is_none_or(|at| at >= since))
        })
        .map(|(c, _)| c)
        .collect();
    // The loop's run tells an ending only once it has ended: a run that replaced a
    // running loop has that loop's clear in its window.
    let run_ended = report.run.as_ref().is_none_or(|r| r.state == "ended");
    if report.scope != "loop" || run_ended {
        report.ended = ending(&inputs.log, &inputs.journal, inputs.loop_ended.as_deref());
    }
    report.paused = inputs.paused;
    report.left = left(plan, &limited);
    report.budget_limited = limited;
    report
}

/// Why the loop ended: the last ending event (a `loop_let_go` that ended it, or a
/// `plan goal clear`) that says what loop.json says (`loop_ended`), else the last
/// one; loop.json's words alone when no event in the window says.
pub fn ending(log: &[LogItem<'_>], journal: &[Value], loop_ended: Option<&str>) -> Option<Ending> {
    let mut all: Vec<Ending> = log
        .iter()
        .filter(|l| matches!(l.event, Event::LoopCleared { .. }))
        .map(|l| Ending {
            at: l.at.map(str::to_string),
            reason: "cleared".to_string(),
            why: CLEARED.to_string(),
        })
        .chain(
            journal
                .iter()
                .filter(|e| e["event"] == "loop_let_go" && e["ended"] == true)
                .map(|e| Ending {
                    at: e["at"].as_str().map(str::to_string),
                    reason: e["reason"].as_str().unwrap_or_default().to_string(),
                    why: e["why"].as_str().unwrap_or_default().to_string(),
                }),
        )
        .collect();
    // Stable: of one minute, the journal's come after the log's, as `plan events` has them.
    all.sort_by(|a, b| a.at.cmp(&b.at));
    let said = all
        .iter()
        .rposition(|e| loop_ended.is_some_and(|why| e.why == why));
    match said {
        Some(i) => Some(all.swap_remove(i)),
        None if loop_ended.is_some() && all.is_empty() => loop_ended.map(|why| Ending {
            at: None,
            reason: "ended".to_string(),
            why: why.to_string(),
        }),
        None => all.pop(),
    }
}

/// Why a paused loop is paused: the latest host error that paused it (a
/// `loop_let_go` with reason `host_error`) or `plan goal pause`; else the latest
/// stop let go because it was paused.
pub fn pausing(log: &[LogItem<'_>], journal: &[Value]) -> Option<Ending> {
    let let_go = |reason: &'static str| {
        journal
            .iter()
            .filter(move |e| {
                e["event"] == "loop_let_go" && e["ended"] != true && e["reason"] == reason
            })
            .map(|e| Ending {
                at: e["at"].as_str().map(str::to_string),
                reason: e["reason"].as_str().unwrap_or_default().to_string(),
                why: e["why"].as_str().unwrap_or_default().to_string(),
            })
    };
    let mut all: Vec<Ending> = log
        .iter()
        .filter_map(|l| match l.event {
            Event::LoopPaused { approval } => Some(Ending {
                at: l.at.map(str::to_string),
                reason: "paused".to_string(),
                why: format!("paused by `plan goal pause` ({})", approval.words()),
            }),
            _ => None,
        })
        .chain(let_go("host_error"))
        .collect();
    all.sort_by(|a, b| a.at.cmp(&b.at));
    all.pop().or_else(|| let_go("paused").next_back())
}

/// Why a cleared loop ended, as `plan goal clear` writes it into loop.json.
pub const CLEARED: &str = "cleared by `plan goal clear`";

/// The goal a continuation named first: its `goal` field, or, in a journal from
/// before it had one, the first word of its `goals` text when a goal has that id.
fn first_goal(event: &Value, plan: &Plan<'_>) -> Option<String> {
    if let Some(goal) = event["goal"].as_str().filter(|g| !g.is_empty()) {
        return Some(goal.to_string());
    }
    let goals = event["goals"].as_str()?;
    let word = goals.split([' ', ';', ',']).next()?;
    plan.goal(word).map(|g| g.id.to_string())
}

/// Goals still to do, in plan order.
fn left(plan: &Plan<'_>, limited: &[GoalCount]) -> Vec<Left> {
    let unproven: Vec<usize> = plan.unproven().map(|g| g.line).collect();
    plan.goals
        .iter()
        .filter_map(|g| {
            let status = g.status();
            let waiting_on: Vec<String> = plan
                .unmet_dependencies(g)
                .into_iter()
                .map(str::to_string)
                .collect();
            let state = match status {
                _ if status.is_finished() => {
                    if unproven.contains(&g.line) {
                        "unproven"
                    } else {
                        return None;
                    }
                }
                _ if g.archived => "archived",
                Status::Active => "active",
                _ if waiting_on.is_empty() => "ready",
                _ => "waiting",
            };
            let (done, total) = g.progress();
            Some(Left {
                id: g.id.to_string(),
                title: g.title.to_string(),
                state,
                done,
                total,
                waiting_on: if state == "waiting" {
                    waiting_on
                } else {
                    Vec::new()
                },
                budget_limited: limited.iter().any(|c| c.goal == g.id),
            })
        })
        .collect()
}

/// Minutes from `from` to `to`, both `YYYY-MM-DD HH:MM` (or a date alone).
pub fn minutes_between(from: &str, to: &str) -> Option<i64> {
    let from = civil(from)?;
    let to = civil(to)?;
    let span = from.until(to).ok()?;
    let minutes = span
        .total(jiff::Unit::Minute)
        .ok()
        .map(|m| m.round() as i64)?;
    Some(minutes)
}

/// `YYYY-MM-DD HH:MM`, `YYYY-MM-DDTHH:MM` or `YYYY-MM-DD`, as a civil time.
pub fn civil(stamp: &str) -> Option<jiff::civil::DateTime> {
    let stamp = stamp.trim();
    let full = match stamp.len() {
        10 => format!("{stamp}T00:00:00"),
        16 => format!("{}T{}:00", &stamp[..10], &stamp[11..]),
        _ => return None,
    };
    if stamp.len() == 16 && !matches!(stamp.as_bytes()[10], b' ' | b'T') {
        return None;
    }
    full.parse().ok()
}

/// A time given as `--since`, as a log stamp (`YYYY-MM-DD HH:MM`).
pub fn stamp(stamp: &str) -> Option<String> {
    civil(stamp).map(|t| t.strftime("%Y-%m-%d %H:%M").to_string())
}

/// `2h 05m`, `45m`, `3d 2h 05m`.
pub fn duration(minutes: i64) -> String {
    let (days, hours, mins) = (minutes / 1440, minutes % 1440 / 60, minutes % 60);
    match (days, hours) {
        (0, 0) => format!("{mins}m"),
        (0, _) => format!("{hours}h {mins:02}m"),
        _ => format!("{days}d {hours}h {mins:02}m"),
    }
}

/// A rejection's text and the record plan names after it as ` (PATH)`: a path
/// under `.plan/judge/` with no space, ending in `.md`. A judge's own aside, such as
/// `(CHANGELOG.md)`, stays in the text.
fn record_named(missing: &str) -> (&str, Option<&str>) {
    let named = missing
        .strip_suffix(')')
        .and_then(|rest| rest.rsplit_once(" ("));
    match named {
        Some((text, path))
            if path.starts_with(crate::plan::proof::JUDGE_DIR)
                && path.ends_with(".md")
                && !path.contains(char::is_whitespace) =>
        {
            (text, Some(path))
        }
        _ => (missing, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_stamps_and_durations_read_short() {
        assert_eq!(stamp("2026-06-15").as_deref(), Some("2026-06-15 00:00"));
        assert_eq!(
            stamp("2026-06-15 14:02").as_deref(),
            Some("2026-06-15 14:02")
        );
        assert_eq!(
            stamp("2026-06-15T14:02").as_deref(),
            Some("2026-06-15 14:02")
        );
        assert_eq!(stamp("HEAD~1"), None);
        assert_eq!(stamp("2026-02-30"), None);
        assert_eq!(stamp("2026-06-15x14:02"), None);
        assert_eq!(
            minutes_between("2026-06-15 23:50", "2026-06-16 01:05"),
            Some(75)
        );
        assert_eq!(duration(75), "1h 15m");
        assert_eq!(duration(5), "5m");
        assert_eq!(duration(1440 + 61), "1d 1h 01m");
    }

    #[test]
    fn a_rejections_record_is_its_own_field() {
        assert_eq!(
            record_named("no test for eviction (.plan/judge/ship-20260615-1402.md)"),
            (
                "no test for eviction",
                Some(".plan/judge/ship-20260615-1402.md")
            )
        );
        // A verify's rejection names no record; a closing aside is the text's own.
        assert_eq!(
            record_named("exit 1 (see the log)"),
            ("exit 1 (see the log)", None)
        );
        assert_eq!(record_named("exit 1"), ("exit 1", None));
        assert_eq!(
            record_named("no changelog entry (CHANGELOG.md)"),
            ("no changelog entry (CHANGELOG.md)", None)
        );
    }

    #[test]
    fn a_pause_is_the_latest_host_error_or_plan_goal_pause_not_a_stop_while_paused() {
        let let_go = |at: &str, reason: &str, ended: bool| serde_json::json!({"at": at, "event": "loop_let_go", "reason": reason, "why": reason, "ended": ended});
        let journal = [
            let_go("2026-06-15 14:04", "host_error", false),
            let_go("2026-06-15 14:05", "paused", false),
            let_go("2026-06-15 14:06", "budget_spent", true),
        ];
        let pause = pausing(&[], &journal).unwrap();
        assert_eq!(
            (pause.at.as_deref(), pause.reason.as_str()),
            (Some("2026-06-15 14:04"), "host_error")
        );
        let log = [LogItem {
            at: Some("2026-06-15 14:10"),
            event: Event::LoopPaused {
                approval: crate::plan::event::Approval::NoTerminal,
            },
        }];
        let pause = pausing(&log, &journal).unwrap();
        assert_eq!(
            (pause.reason.as_str(), pause.why.as_str()),
            ("paused", "paused by `plan goal pause` (without a terminal)")
        );
        let pause = pausing(&[], &journal[1..]).unwrap();
        assert_eq!(pause.at.as_deref(), Some("2026-06-15 14:05"));
        assert_eq!(pausing(&[], &journal[2..]), None);
    }

    #[test]
    fn a_continuation_counts_for_the_goal_it_named_first() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: active\n";
        let plan = crate::plan::model::parse(src);
        let named = serde_json::json!({"event": "loop_continued", "goal": "b", "goals": "a (1/2)"});
        assert_eq!(first_goal(&named, &plan).as_deref(), Some("b"));
        let old = serde_json::json!({"event": "loop_continued", "goals": "a (1/2, next: x); b"});
        assert_eq!(first_goal(&old, &plan).as_deref(), Some("a"));
        let broken = serde_json::json!({"event": "loop_continued", "goals": "first fix plan.md's format errors"});
        assert_eq!(first_goal(&broken, &plan), None);
    }
}

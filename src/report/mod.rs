//! `plan report`'s service: what happened in the loop's latest run, or since a time
//! or revision, as one typed [`Report`]. Reads plan.md (proving its sign-offs), the
//! loop's journal and state under `<git-dir>/plan/`, and git for a revision; the
//! shells (`plan report`, `plan_report`, a `notify:` entry with `report:`) render it.

pub mod model;
pub mod render;

use std::collections::HashMap;
use std::path::Path;

use anyhow::Result;
use serde::Deserialize;
use serde_json::Value;

pub use model::Report;
use model::{Inputs, LogItem, Run};

use crate::config::{NotifyRule, ReportForm};
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git;
use crate::notify;
use crate::plan::event::Event;
use crate::plan::model::Plan;
use crate::plan::proof;
use crate::state::State;

/// What to report on: the loop's latest run, or everything since a point.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// A time (`YYYY-MM-DD HH:MM`, `YYYY-MM-DD`) or a git revision.
    pub since: Option<String>,
}

/// The loop's state as the report reads it: the fields of `loop.json` it uses,
/// `tokens` among them where the loop counts them.
#[derive(Debug, Default, Deserialize)]
#[serde(default)]
struct LoopSeen {
    budget: u32,
    used: u32,
    paused: bool,
    started: String,
    ended: Option<String>,
    tokens: Option<u64>,
    /// The token budget and where the count left off in the transcript: without
    /// either, no transcript was read and the count of 0 says nothing.
    token_budget: Option<u64>,
    transcript: Option<serde_json::Value>,
    #[serde(default)]
    host_goal: crate::state::HostGoal,
}

/// Where the window starts, and how the log is cut.
enum From {
    /// The loop's start, or a time given: log lines stamped from then on.
    Time(String),
    /// A revision: the log lines plan.md did not have there; the journal from the
    /// commit's time on.
    Rev { old: String, stamp: String },
}

pub fn report(ctx: &Ctx, request: &Request) -> Result<Report> {
    let repo = ctx.repo()?;
    let now = crate::clock::now()?.stamp();
    let seen: Option<LoopSeen> = State::new(&repo.git_dir).peek_loop_as()?;
    let seen = seen.filter(|l| !l.started.is_empty());
    let from = match &request.since {
        None => match &seen {
            Some(l) => From::Time(l.started.clone()),
            None => {
                if let Some(why) = State::new(&repo.git_dir).unreadable_loop() {
                    return Err(Exit::env_hint(
                        why,
                        "`plan report --since 2026-06-15` (a date, a time or a git revision) reports without it; `plan goal` starts a new loop in its place",
                    ));
                }
                return Err(Exit::usage_hint(
                    "no work loop has run in this repository, so there is no run to report",
                    "`plan report --since 2026-06-15` (a date, a time `YYYY-MM-DD HH:MM` or a git revision) reports everything since then",
                ));
            }
        },
        Some(since) => since_point(ctx, &repo.root, since)?,
    };
    let src = ctx.store.read()?;
    let mut plan = crate::plan::model::parse(&src);
    ctx.prove(&mut plan);
    let start = match &from {
        From::Time(stamp) | From::Rev { stamp, .. } => stamp.clone(),
    };
    let journal: Vec<Value> = [
        crate::events::journal_before(&repo.git_dir),
        crate::events::journal(&repo.git_dir),
    ]
    .iter()
    .flat_map(|p| read_journal(p))
    .filter(|e| e["at"].as_str().is_some_and(|at| at >= start.as_str()))
    .collect();

    let in_loop = request.since.is_none();
    let mut log = window(&plan, &from);
    // The loop's end: its last ending event from its start on; the window stops there.
    let loop_ended = seen
        .as_ref()
        .and_then(|l| l.ended.clone())
        .filter(|_| in_loop);
    // A paused run stops at its pause: what came after is stops let go.
    let paused = seen
        .as_ref()
        .filter(|l| in_loop && l.paused && l.ended.is_none())
        .and_then(|_| model::pausing(&log, &journal));
    let end = match (&loop_ended, &paused) {
        (Some(why), _) => model::ending(&log, &journal, Some(why)).and_then(|e| e.at),
        (None, Some(pause)) => pause.at.clone(),
        (None, None) => None,
    };
    let to = end.clone().unwrap_or_else(|| now.clone());
    let journal: Vec<Value> = journal
        .into_iter()
        .filter(|e| e["at"].as_str().is_some_and(|at| at <= to.as_str()))
        .collect();
    if in_loop {
        log.retain(|l| l.at.is_none_or(|at| at <= to.as_str()));
    }

    let run = seen.as_ref().filter(|l| l.started >= start).map(|l| Run {
        state: match (&l.ended, l.paused) {
            (Some(_), _) => "ended",
            (None, true) => "paused",
            (None, false) => "running",
        },
        started: l.started.clone(),
        ended_at: end.clone(),
        used: l.used,
        budget: l.budget,
        tokens: l
            .tokens
            .filter(|_| l.token_budget.is_some() || l.transcript.is_some()),
        replaced: in_loop && replaced(&log, l),
        host_goal: l.host_goal.clone(),
    });
    // An ended loop without an event that says when: its length is not known.
    let elapsed = match (in_loop, &end, seen.as_ref().and_then(|l| l.ended.as_ref())) {
        (true, None, Some(_)) => None,
        _ => model::minutes_between(&start, &to),
    };
    let root = ctx.prompt_root();
    let facts = |rel: &str| crate::record::facts(&root, rel);
    let backs = |item: &LogItem<'_>| proof::backs_at(&item.event, item.at, &facts);
    Ok(model::build(Inputs {
        scope: if in_loop { "loop" } else { "since" },
        since: request.since.clone(),
        from: start,
        to,
        run,
        elapsed_minutes: elapsed,
        plan: &plan,
        log,
        journal,
        backs: &backs,
        loop_ended,
        paused,
    }))
}

/// Whether the loop's run replaced a running loop: `plan goal` logs that loop's
/// clear in the minute the run started; a clear that ended the run itself (in that
/// minute too) is not one.
fn replaced(log: &[LogItem<'_>], l: &LoopSeen) -> bool {
    let clears = log
        .iter()
        .filter(|i| {
            matches!(i.event, Event::LoopCleared { .. }) && i.at == Some(l.started.as_str())
        })
        .count();
    let own = usize::from(l.ended.as_deref().is_some_and(|why| why == model::CLEARED));
    clears > own
}

/// `--since` as a time when it reads as one, else as a revision.
fn since_point(ctx: &Ctx, root: &Path, since: &str) -> Result<From> {
    if let Some(stamp) = model::stamp(since) {
        return Ok(From::Time(stamp));
    }
    let dated = since.len() >= 10
        && since.bytes().take(10).enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        });
    if dated {
        return Err(Exit::usage_hint(
            format!("--since \"{since}\" is not a time"),
            "write it as YYYY-MM-DD or \"YYYY-MM-DD HH:MM\", e.g. \"2026-06-15 08:00\"",
        ));
    }
    let rel = ctx.plan_in_repo().ok_or_else(|| {
        Exit::usage_hint(
            format!(
                "{} is outside the repository, so it has no history",
                ctx.store.name
            ),
            "give --since a time: `YYYY-MM-DD` or `YYYY-MM-DD HH:MM`",
        )
    })?;
    let unknown = |e: anyhow::Error| match e.downcast_ref::<git::UnknownRevision>() {
        Some(u) => Exit::usage_hint(
            format!("--since: {u}"),
            "give a time (`YYYY-MM-DD` or `YYYY-MM-DD HH:MM`) or a commit, branch or tag",
        ),
        None => e,
    };
    let old = git::file_at(root, since, &rel).map_err(unknown)?;
    let stamp = git::commit_time(root, since)
        .map_err(unknown)?
        .and_then(crate::clock::stamp_of)
        .unwrap_or_default();
    Ok(From::Rev {
        old: old.unwrap_or_default(),
        stamp,
    })
}

/// plan.md's log events in the window, in the log's order. An unstamped line goes
/// with the stamped line above it.
fn window<'a>(plan: &Plan<'a>, from: &From) -> Vec<LogItem<'a>> {
    let mut known: HashMap<String, usize> = HashMap::new();
    if let From::Rev { old, .. } = from {
        for entry in &crate::plan::model::parse(old).log {
            *known.entry(entry.to_string()).or_default() += 1;
        }
    }
    let mut key = "";
    let mut out = Vec::new();
    for entry in &plan.log {
        // A line stamped earlier than one above it (out of order) was written after
        // it: it counts from where it stands.
        if let Some(stamp) = entry.stamp {
            key = key.max(stamp);
        }
        let fresh = match from {
            From::Time(start) => key >= start.as_str(),
            From::Rev { .. } => match known.get_mut(&entry.to_string()) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            },
        };
        if !fresh {
            continue;
        }
        if let Some(event) = Event::parse(entry.text) {
            out.push(LogItem {
                at: entry.stamp,
                event,
            });
        }
    }
    out
}

/// A journal's events, `at` first; a missing or unreadable journal has none.
fn read_journal(path: &Path) -> Vec<Value> {
    let Ok(bytes) = crate::fsread::bytes(path, crate::fsread::STATE) else {
        return Vec::new();
    };
    String::from_utf8_lossy(&bytes)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        // plan.md's writes: the report reads their events from its log.
        .filter(|json| json["event"] != crate::events::WRITTEN)
        .map(crate::notify::normalize)
        .collect()
}

/// When a work loop has ended (its stop hook ended it, or `plan goal clear`) or a
/// host error paused it: runs the `notify:` entries that ask for the report
/// (`report: markdown`, …) with the loop's run on stdin. `plan` is the plan file (relative to the current directory
/// or absolute). Fail-open, as notify is: a report that cannot be made is a line on
/// stderr.
pub fn announce_end(root: &Path, git_dir: &Path, rules: &[NotifyRule], plan: Option<&Path>) {
    if !rules.iter().any(|r| r.report.is_some()) {
        return;
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| root.to_path_buf());
    let made = Ctx::at(cwd, plan.map(Path::to_path_buf)).and_then(|mut ctx| {
        ctx.style.color = false;
        report(&ctx, &Request::default())
    });
    let report = match made {
        // A loop replaced by `plan goal` logs a clear, but the run is the new one.
        Ok(report)
            if report
                .run
                .as_ref()
                .is_some_and(|r| matches!(r.state, "ended" | "paused")) =>
        {
            report
        }
        Ok(_) => return,
        Err(e) => {
            crate::out::warn(&format!("plan: notify: the loop's report: {e:#}"));
            return;
        }
    };
    notify::announce_report(root, git_dir, rules, &|form| match form {
        ReportForm::Markdown => render::render(&report, render::Form::Markdown),
        ReportForm::Text => render::render(&report, render::Form::Text),
        ReportForm::Json => crate::out::json(&report)
            .map(|s| s + "\n")
            .unwrap_or_default(),
    });
}

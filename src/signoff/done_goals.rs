//! A sign-off's look at the goals already done: each whose verify rests on a file
//! this goal's work changed (the gate's reach rule, `crate::reach`) is verified
//! again, within `sign_off.reverify_secs`, so work that breaks one is named at
//! sign-off, not first at the pull request's gate.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use anyhow::Result;

use crate::config::{Config, Reverify};
use crate::ctx::Ctx;
use crate::git::{self, Repo};
use crate::plan::event::Event;
use crate::plan::model::{Goal, Plan, Status};
use crate::verify;

/// What verifying the done goals again found.
#[derive(Debug, Default)]
pub(super) struct Rechecked {
    /// `ID: why`, one per done goal whose verify now fails.
    pub broken: Vec<String>,
    /// The done goals the budget ran out before (their verifies not run, or cut).
    pub left: Vec<String>,
    /// What running those verifies changed in the repository: the sign-off is
    /// rejected whatever `sign_off.reverify` says, as for its own verify, since
    /// the judge would see a tree other than the one handed in.
    pub changed: Option<String>,
}

/// How much of a verify's output is kept: only its exit is reported.
const TAIL: usize = 4 * 1024;

/// Verifies again each done goal of `plan` (but `signing`) whose verify rests on a
/// file changed from its own sign-off's checkpoint (else from `start`, the signing
/// goal's start commit, else HEAD, so at least the uncommitted work) to the
/// working tree. The tree is checked unchanged after:
/// the judge must see the work as handed in.
pub(super) fn recheck(
    ctx: &Ctx,
    repo: &Repo,
    config: &Config,
    plan: &Plan<'_>,
    signing: &Goal<'_>,
    start: Option<&str>,
) -> Result<Rechecked> {
    let mut found = Rechecked::default();
    if config.sign_off_reverify == Reverify::Off {
        return Ok(found);
    }
    let root = &repo.root;
    let fallback = match start.map(|s| git::resolve_commit(root, s)) {
        Some(Ok(commit)) => commit,
        _ => match git::resolve_commit(root, "HEAD") {
            Ok(head) => head,
            // An unborn branch: no goal can have been done on a commit of it.
            Err(_) => return Ok(found),
        },
    };
    let mut due: Vec<(&Goal<'_>, Vec<String>)> = Vec::new();
    for goal in &plan.goals {
        if goal.id == signing.id || goal.status() != Status::Done || goal.verify().is_none() {
            continue;
        }
        // From the done goal's own sign-off, the tree its checkpoint holds: the
        // signing goal's `started` line is the agent's to write, and one moved to
        // HEAD made all of its work nothing (the red team's). Without a checkpoint
        // here, from where this goal started.
        let checkpoint = plan.events(&goal.id).rev().find_map(|(_, e)| match e {
            Event::SignedOff { checkpoint, .. } => Some(checkpoint),
            _ => None,
        });
        let base = match checkpoint.flatten().map(|c| git::resolve_commit(root, c)) {
            Some(Ok(commit)) => commit,
            _ => fallback.clone(),
        };
        let touched = crate::reach::touched(ctx, plan, goal, &base)?;
        if !touched.is_empty() {
            due.push((goal, touched));
        }
    }
    if due.is_empty() {
        return Ok(found);
    }
    let budget = Duration::from_secs(config.sign_off_reverify_secs);
    let deadline = Instant::now() + budget;
    let own_timeout = Duration::from_secs(config.verify_timeout_secs);
    let before = git::tracked_snapshot(root)?;
    // Goals sharing a verify line (`cargo test` for many) run it once; the line
    // this sign-off's own verify just passed with runs not at all.
    let mut passed: HashSet<&str> = signing.verify().into_iter().collect();
    let mut failed: HashMap<&str, String> = HashMap::new();
    for (goal, touched) in due {
        let line = goal.verify().unwrap_or_default();
        if passed.contains(line) {
            continue;
        }
        if let Some(why) = failed.get(line) {
            found.broken.push(format!(
                "{}: {why} (it rests on {}, changed since its sign-off)",
                goal.id,
                named(&touched)
            ));
            continue;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            found.left.push(goal.id.to_string());
            continue;
        }
        let parsed = match verify::parse(line) {
            Ok(parsed) => parsed,
            Err(e) => {
                found
                    .broken
                    .push(format!("{}: verify cannot run: {}", goal.id, e.message));
                continue;
            }
        };
        let shown = crate::plan::text::escape_controls(line).into_owned();
        crate::out::step(
            &format!(
                "plan: verifying {} again: `{shown}` rests on {}, changed since its sign-off",
                goal.id,
                named(&touched)
            ),
            &format!("verifying {} again", goal.id),
        );
        let timeout = left.min(own_timeout);
        let result = verify::run(&parsed, root, timeout, TAIL)?;
        if result.passed {
            passed.insert(line);
            continue;
        }
        // Cut by the budget, not by the goal's own timeout: not a verdict.
        if result.timed_out && timeout < own_timeout {
            found.left.push(goal.id.to_string());
            continue;
        }
        let why = result.why_failed(&shown, timeout);
        found.broken.push(format!(
            "{}: {why} (it rests on {}, changed since its sign-off)",
            goal.id,
            named(&touched)
        ));
        failed.insert(line, why);
    }
    let mut changed = before.changes(&git::tracked_snapshot(root)?);
    // plan.md is a person's to edit meanwhile, as in the sign-off's own verify.
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    changed.retain(|p| plan_rel.as_deref() != Some(p.as_str()));
    if !changed.is_empty() {
        found.changed = Some(format!(
            "verifying the done goals again changed the repository ({}); a check must not change what it checks",
            changed.join(", ")
        ));
    }
    Ok(found)
}

/// The first few changed files a verify rests on, for one line.
fn named(touched: &[String]) -> String {
    const SHOWN: usize = 3;
    let mut list = touched
        .iter()
        .take(SHOWN)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if touched.len() > SHOWN {
        list.push_str(&format!(" and {} more", touched.len() - SHOWN));
    }
    list
}

impl Rechecked {
    /// Says on stderr what was found: the broken goals (a warning, or the reason of
    /// the rejection that follows under `refuse`) and the goals left unverified.
    pub(super) fn tell(&self, id: &str, config: &Config) {
        if !self.broken.is_empty() && config.sign_off_reverify == Reverify::Warn {
            let list: String = self.broken.iter().map(|b| format!("\n  - {b}")).collect();
            crate::out::warn(&format!(
                "plan: warning: {id}'s work breaks {} done goal{}: {}{list}\n  hint: fix the work before the pull request's gate finds it; `plan reopen ID` if a goal's contract must change; `sign_off.reverify: refuse` in .plan/config.yaml makes this a rejection",
                self.broken.len(),
                if self.broken.len() == 1 { "" } else { "s" },
                if self.broken.len() == 1 {
                    "its verify fails now"
                } else {
                    "their verifies fail now"
                },
            ));
        }
        if !self.left.is_empty() {
            crate::out::warn(&format!(
                "plan: note: not verified again within sign_off.reverify_secs ({} s): {}\n  hint: `plan audit --reverify` runs every done goal's verify",
                config.sign_off_reverify_secs,
                self.left.join(", ")
            ));
        }
    }

    /// The rejection's `missing:` items: the verifies' side effect whatever the
    /// setting, and under `sign_off.reverify: refuse` the goals that fail and those
    /// the budget left unverified (a check made slow on purpose must not buy a
    /// pass: fail closed).
    pub(super) fn refusal(&self, config: &Config) -> Option<Vec<String>> {
        let mut missing: Vec<String> = self.changed.iter().cloned().collect();
        if config.sign_off_reverify == Reverify::Refuse {
            missing.extend(
                self.broken
                    .iter()
                    .map(|b| format!("a done goal fails again: {b}")),
            );
            missing.extend(self.left.iter().map(|id| {
                format!(
                    "{id} was not verified again within sign_off.reverify_secs ({} s): raise it, or run `plan audit --reverify`",
                    config.sign_off_reverify_secs
                )
            }));
        }
        (!missing.is_empty()).then_some(missing)
    }
}

//! `plan start`: open → active, logging the contract's fingerprint, the commit the
//! work starts from and whether the goal's verify failed then (red first; see
//! `red_first.rs`); `--reapprove` accepts a changed contract, visibly, in the log,
//! saying whether a terminal was attached when it was done.

use std::io::IsTerminal;

use anyhow::Result;
use serde::Serialize;

use crate::claims::{self, Claims};
use crate::clock;
use crate::ctx::Env;
use crate::exit::Exit;
use crate::plan::claim::Decision;
use crate::plan::event::{Approval, AtStart, Event};
use crate::plan::model::Status;
use crate::plan::ops;
use crate::plan::precondition::Seen;
use crate::red_first;

/// What to start, and for whom: what `plan start` and `plan_start` ask.
#[derive(Debug, Default)]
pub struct Request {
    pub id: String,
    pub reapprove: bool,
    pub holder: Option<String>,
    pub steal: bool,
    /// Log the verify as skipped instead of running it.
    pub no_verify: bool,
}

/// The goal started: what `plan start --json` prints and `plan_start` returns.
#[derive(Debug, Serialize)]
pub struct Started {
    pub id: String,
    pub status: Status,
    pub contract: String,
    /// The log lines written, without their `- `; empty when nothing changed.
    pub logged: Vec<String>,
    /// Who holds the goal's claim now; `None`: started unclaimed.
    pub claimed_by: Option<String>,
    /// What `plan start` says: `started ID (contract …)` and the like.
    #[serde(skip)]
    pub message: String,
}

/// Starts goal `args.id`, or approves its changed contract; prints nothing but the
/// note of a claim taken over (stderr).
pub fn start(env: &Env, args: &Request) -> Result<Started> {
    let ctx = env.ctx()?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = goal.id.as_ref();
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(id);
    let seen = Seen::of(goal);
    let stamp = clock::now()?.stamp();
    let mut edits = ops::id_comment(&plan, goal);
    let reapproved = Event::Reapproved {
        id,
        contract: &fingerprint,
        approval: Approval::from_terminal(std::io::stdin().is_terminal()),
    };
    let commit = ctx.head_commit()?;
    let changed = logged.is_some_and(|old| old != fingerprint);
    if goal.status().is_finished() {
        ops::check_transition(goal, Status::Active)?;
    }
    if changed && !args.reapprove {
        let old = logged.unwrap_or_default();
        return Err(Exit::usage_hint(
            format!(
                "the contract of {id} changed since it was logged (contract {old}, now {fingerprint})"
            ),
            format!("review the change (plan diff {id}), then `plan start {id} --reapprove`"),
        ));
    }
    if goal.status() != Status::Active {
        ops::check_dependencies(&plan, goal, "start")?;
    }
    let me = claims::me(args.holder.as_deref())?;
    if args.steal && me.is_none() {
        return Err(Exit::usage_hint(
            "--steal needs a holder to take the goal for",
            format!("name one: `plan start {id} --steal --as NAME`"),
        ));
    }
    // No one named holds nothing: a goal another holds is refused to them too.
    if me.is_none() {
        claims::guard(ctx, id, None)?;
    }
    // Taken before plan.md is written, so a goal held by another is left as it
    // was; put back when the start fails after that.
    let claims = match (&me, &ctx.repo) {
        (Some(_), Some(_)) => Some(Claims::of(ctx)?),
        _ => None,
    };
    let taken = match (&me, &claims) {
        (Some(me), Some(claims)) => Some(claims.take(id, me, args.steal)?),
        _ => None,
    };
    let undo = || {
        if let (Some(claims), Some(taken)) = (&claims, &taken) {
            claims.undo(taken);
        }
    };
    let takeover = taken.as_ref().and_then(|t| match &t.decision {
        Decision::Steal { holder } => Some((holder.clone(), None)),
        Decision::Lapsed { holder, idle } => Some((holder.clone(), Some(*idle))),
        _ => None,
    });
    let taken_event = takeover.as_ref().map(|(from, idle)| Event::ClaimTaken {
        id,
        holder: me.as_deref().unwrap_or_default(),
        from,
        idle: idle.map(|i| u32::try_from(i).unwrap_or(u32::MAX)),
    });
    // Run only when a `started` line is written, after the claim: a goal held by
    // another is refused before its verify costs anything.
    let starts = match goal.status() {
        Status::Active => !args.reapprove && logged != Some(fingerprint.as_str()),
        _ => true,
    };
    let at_start = match starts {
        true => red_first::run_at_start(ctx, goal, args.no_verify).inspect_err(|_| undo())?,
        false => None,
    };
    if starts
        && let Some(repo) = &ctx.repo
        && let Some(note) = red_first::uncommitted_tests(&repo.root, id)
    {
        crate::out::warn(&note);
    }
    let started = Event::Started {
        id,
        contract: &fingerprint,
        commit: commit.as_deref(),
        verify: at_start,
    };
    let mut written: Vec<&Event<'_>> = Vec::new();
    if let Some(event) = &taken_event {
        written.push(event);
    }
    let message = match goal.status() {
        Status::Active if args.reapprove => {
            written.push(&reapproved);
            match logged {
                Some(old) if old != fingerprint => {
                    format!("{id}: new contract approved (contract {fingerprint}, was {old})")
                }
                _ => format!("{id}: contract {fingerprint} approved again"),
            }
        }
        Status::Active if logged == Some(fingerprint.as_str()) => {
            format!("{id} is already active (contract {fingerprint})")
        }
        Status::Active => {
            // Set active by hand: record the contract it runs under.
            written.push(&started);
            format!("{id} is active; contract {fingerprint} logged")
        }
        _ => {
            ops::check_transition(goal, Status::Active).inspect_err(|_| undo())?;
            edits = ops::set_status(&plan, goal, Status::Active);
            if changed {
                written.push(&reapproved);
            }
            written.push(&started);
            format!("started {id} (contract {fingerprint})")
        }
    };
    if !written.is_empty() {
        edits.extend(written.iter().map(|e| ops::event(&stamp, e)));
        // Decided on the status and the logged contract as first read.
        let verified = matches!(at_start, Some(AtStart::Failing | AtStart::Passing));
        ctx.store
            .write_checked(&src, edits, |fresh| {
                seen.check(fresh)?;
                if verified {
                    red_first::others_unchanged(&plan, fresh, id)?;
                }
                match fresh.logged_contract(id) == logged {
                    true => Ok(()),
                    false => Err(format!(
                        "the contract logged for {id} changed while plan was working"
                    )),
                }
            })
            .inspect_err(|_| undo())?;
    }
    if let Some((from, idle)) = &takeover {
        let why = match idle {
            None => "--steal".to_string(),
            Some(idle) => format!(
                "no activity for {idle} minutes, lease {} minutes",
                claims.as_ref().map_or(0, Claims::lease_minutes)
            ),
        };
        crate::out::warn(&format!(
            "plan: note: {id} taken over from {from} ({why}); logged"
        ));
    }
    let claimed_by = taken.map(|t| t.claim.holder);
    let message = match &claimed_by {
        Some(holder) => format!("{message}; claimed by {holder}"),
        None => message,
    };
    Ok(Started {
        id: id.to_string(),
        status: Status::Active,
        contract: fingerprint.clone(),
        logged: written
            .iter()
            .map(|e| format!("{stamp} {}", e.render()))
            .collect(),
        claimed_by,
        message,
    })
}

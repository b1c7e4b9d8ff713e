//! `plan start`: open → active, logging the contract's fingerprint and the commit
//! the work starts from; `--reapprove` accepts a changed contract, visibly, in the
//! log, saying whether a terminal was attached when it was done.

use std::io::IsTerminal;

use anyhow::Result;
use serde::Serialize;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::println;
use crate::plan::event::{Approval, Event};
use crate::plan::model::Status;
use crate::plan::ops;

/// Start a goal (open → active) and log its contract's fingerprint
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Accept the goal's changed contract and log its new fingerprint
    #[arg(long)]
    pub reapprove: bool,
    /// Print the id, status, contract and the log lines written, as JSON
    #[arg(long)]
    pub json: bool,
}

/// What `plan start --json` prints.
#[derive(Serialize)]
struct Started<'a> {
    id: &'a str,
    status: Status,
    contract: &'a str,
    /// The log lines written, without their `- `; empty when nothing changed.
    logged: Vec<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = goal.id.as_ref();
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(id);
    let stamp = clock::now()?.stamp();
    let mut edits = ops::id_comment(&plan, goal);
    let reapproved = Event::Reapproved {
        id,
        contract: &fingerprint,
        approval: Approval::from_terminal(std::io::stdin().is_terminal()),
    };
    let commit = ctx.head_commit()?;
    let started = Event::Started {
        id,
        contract: &fingerprint,
        commit: commit.as_deref(),
    };
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
    let mut written: Vec<&Event<'_>> = Vec::new();
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
            ops::check_transition(goal, Status::Active)?;
            ops::check_dependencies(&plan, goal, "start")?;
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
        ctx.store.write(&src, edits)?;
    }
    if args.json {
        let report = Started {
            id,
            status: Status::Active,
            contract: &fingerprint,
            logged: written
                .iter()
                .map(|e| format!("{stamp} {}", e.render()))
                .collect(),
        };
        println(&serde_json::to_string_pretty(&report)?)?;
    } else {
        ctx.say(&message)?;
    }
    Ok(OK)
}

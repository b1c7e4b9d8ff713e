//! `plan reopen`: done or cancelled → active, with the reason in the log. The old
//! sign-off stays in the log as history, but no longer counts: the goal needs a
//! new one. The road back when `plan audit --reverify` finds a regression.

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::println;
use crate::plan::event::Event;
use crate::plan::model::Status;
use crate::plan::ops;
use crate::plan::precondition::Seen;

/// Reopen a done or cancelled goal (→ active) and log why; it needs a new sign-off
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Why it is reopened
    #[arg(long)]
    pub reason: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let reason = ops::one_line(args.reason.as_deref().unwrap_or(""));
    if reason.is_empty() {
        return Err(Exit::usage_hint(
            "say why: --reason TEXT",
            "e.g. plan reopen ID --reason \"plan audit --reverify: verify fails\"",
        ));
    }
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = goal.id.as_ref();
    let was = goal.status();
    if goal.archived {
        return Err(Exit::usage_hint(
            format!("goal {id} is archived"),
            format!(
                "move its section back above `## Log` (it is a record there), then plan reopen {id} --reason TEXT"
            ),
        ));
    }
    if !was.is_finished() {
        return Err(Exit::usage(format!(
            "goal {id} is {}, not done or cancelled; there is nothing to reopen",
            was.as_str()
        )));
    }
    let mut edits = ops::set_status(&plan, goal, Status::Active);
    let stamp = clock::now()?.stamp();
    edits.push(ops::event(
        &stamp,
        &Event::Reopened {
            id,
            reason: &reason,
        },
    ));
    // Decided on the goal as first read: archived or reopened meanwhile, it is a
    // conflict, not a reopen written under `## Archive`.
    let seen = Seen::of(goal);
    ctx.store
        .write_checked(&src, edits, |fresh| seen.check(fresh))?;
    println(&format!(
        "reopened {id} (was {}); it needs a new sign-off: plan complete {id}",
        was.as_str()
    ))?;
    Ok(OK)
}

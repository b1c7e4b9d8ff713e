//! `plan reopen`: done or cancelled → active, with the reason in the log. The old
//! sign-off stays in the log as history, but no longer counts: the goal needs a
//! new one. The road back when `plan audit --reverify` finds a regression. An
//! archived goal moves back above `## Log` in the same write.

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::println;
use crate::plan::event::Event;
use crate::plan::model::Status;
use crate::plan::ops;
use crate::plan::precondition::Seen;
use crate::plan::unarchive::{self, Section};

/// Reopen a done or cancelled goal (→ active) and log why; it needs a new sign-off
///
/// An archived goal moves back above `## Log` in the same write, every line of it.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Why it is reopened
    #[arg(long)]
    pub reason: Option<String>,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
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
    crate::service::plain("--reason", &reason)?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    // As start, tick, cancel and complete do: a goal another holds is theirs.
    crate::claims::guard(ctx, &goal.id, args.who.holder.as_deref())?;
    let id = goal.id.as_ref();
    let was = goal.status();
    if !was.is_finished() {
        return Err(Exit::usage(format!(
            "goal {id} is {}, not done or cancelled; there is nothing to reopen",
            was.as_str()
        )));
    }
    // An archived goal goes back among the live ones in the same write: active
    // under `## Archive` is a goal nobody sees as remaining work.
    let mut edits = match goal.archived {
        true => unarchive::move_back(&plan, goal, Status::Active),
        false => ops::set_status(&plan, goal, Status::Active),
    };
    let stamp = clock::now()?.stamp();
    edits.push(ops::event(
        &stamp,
        &Event::Reopened {
            id,
            reason: &reason,
        },
    ));
    // Decided on the goal as first read: archived, moved back or reopened
    // meanwhile, it is a conflict, not a reopen written in the wrong section. A
    // section that changed meanwhile would lose the change in the move.
    let seen = Seen::of(goal);
    let section = goal.archived.then(|| Section::of(&plan, goal));
    ctx.store.write_checked(&src, edits, |fresh| {
        seen.check(fresh)?;
        section.as_ref().map_or(Ok(()), |s| s.check(fresh))
    })?;
    let moved = match goal.archived {
        true => " and moved it back above `## Log`",
        false => "",
    };
    println(&format!(
        "reopened {id} (was {}){moved}; it needs a new sign-off: plan complete {id}",
        was.as_str()
    ))?;
    Ok(OK)
}

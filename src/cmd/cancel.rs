//! `plan cancel`: open/active → cancelled, with the reason in the log. No check.

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::plan::event::Event;
use crate::plan::model::Status;
use crate::plan::ops;
use crate::plan::precondition::Seen;

/// Cancel a goal (open or active → cancelled) and log why
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Why it is cancelled
    #[arg(long)]
    pub reason: String,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let reason = ops::one_line(&args.reason);
    if reason.is_empty() {
        return Err(Exit::usage("say why: --reason TEXT"));
    }
    crate::service::plain("--reason", &reason)?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let me = crate::claims::guard(ctx, &goal.id, args.who.holder.as_deref())?;
    // An archived goal is a record, whatever its status or proof: refused before
    // a hand cancel is recorded, as every other command refuses it.
    if goal.archived {
        ops::check_transition(goal, Status::Cancelled)?;
    }
    // A goal cancelled by hand is unproven until `plan cancel` records it.
    let hand_cancelled = goal.status() == Status::Cancelled && plan.proof(goal).is_unproven();
    if !hand_cancelled {
        ops::check_transition(goal, Status::Cancelled)?;
    }
    let mut edits = ops::set_status(&plan, goal, Status::Cancelled);
    let stamp = clock::now()?.stamp();
    edits.push(ops::event(
        &stamp,
        &Event::Cancelled {
            id: &goal.id,
            reason: &reason,
        },
    ));
    let seen = Seen::of(goal);
    // The write parses the file again: one parse of a long plan at a time.
    drop(plan);
    ctx.store
        .write_checked(&src, edits, |fresh| seen.check(fresh))?;
    crate::claims::release_finished(ctx, &seen.id, me.as_deref());
    ctx.say(&format!("cancelled {}", seen.id))?;
    Ok(OK)
}

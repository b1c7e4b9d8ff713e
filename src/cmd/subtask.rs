//! `plan subtask`: add a subtask to a goal.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::plan::ops;
use crate::plan::precondition::Seen;

/// Add a subtask to a goal
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// The subtask
    pub text: String,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let text = ops::one_line(&args.text);
    if text.is_empty() {
        return Err(Exit::usage("a subtask needs text"));
    }
    crate::service::plain("the subtask", &text)?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    crate::claims::guard(ctx, &goal.id, args.who.holder.as_deref())?;
    ops::check_open(goal, "add subtasks to it")?;
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(ops::add_subtask(&plan, goal, &text));
    let seen = Seen::unfinished(goal);
    let said = format!("{} subtask {}: {text}", goal.id, goal.subtasks.len() + 1);
    // The write parses the file again: one parse of a long plan at a time.
    drop(plan);
    ctx.store
        .write_checked(&src, edits, |fresh| seen.check(fresh))?;
    ctx.say(&said)?;
    Ok(OK)
}

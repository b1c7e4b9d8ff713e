//! `plan tick`: tick subtask N of a goal.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::plan::ops;

/// Tick subtask N (counting from 1) of a goal
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Which subtask, counting from 1
    pub n: usize,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    ops::check_open(goal, "tick its subtasks")?;
    let Some(tick) = ops::tick(&plan, goal, args.n)? else {
        ctx.say(&format!("{} subtask {} is already ticked", goal.id, args.n))?;
        return Ok(OK);
    };
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(tick);
    ctx.store.write(&src, edits)?;
    let (done, total) = goal.progress();
    ctx.say(&format!(
        "ticked {} {}/{}: {}",
        goal.id,
        done + 1,
        total,
        goal.subtasks[args.n - 1].text
    ))?;
    Ok(OK)
}

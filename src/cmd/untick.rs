//! `plan untick`: clear subtask N of a goal, the way back from a tick too early.

use anyhow::Result;

use crate::ctx::Env;
use crate::out::println;
use crate::exit::OK;
use crate::plan::ops;

/// Clear the tick of subtask N (counting from 1) of a goal
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
    ops::check_open(goal, "untick its subtasks")?;
    let Some(untick) = ops::untick(&plan, goal, args.n)? else {
        println(&format!("{} subtask {} is not ticked", goal.id, args.n))?;
        return Ok(OK);
    };
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(untick);
    ctx.store.write(&src, edits)?;
    let (done, total) = goal.progress();
    println(&format!(
        "unticked {} {}/{}: {}",
        goal.id,
        done - 1,
        total,
        goal.subtasks[args.n - 1].text
    ))?;
    Ok(OK)
}

//! `plan tick`: tick subtask N of a goal (and, for `plan untick`, clear it).

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::plan::ops;
use crate::plan::precondition::Seen;

/// Tick subtask N (counting from 1) of a goal
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Which subtask, counting from 1
    pub n: usize,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    mark(env, &args.id, args.n, true)
}

/// Ticks subtask `n` of goal `query`, or (`done` false, for `plan untick`) clears it.
pub fn mark(env: &Env, query: &str, n: usize, done: bool) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, query)?;
    let (verb, state) = if done {
        ("ticked", "already ticked")
    } else {
        ("unticked", "not ticked")
    };
    ops::check_open(goal, &format!("{} its subtasks", &verb[..verb.len() - 2]))?;
    let Some(edit) = ops::mark(&plan, goal, n, done)? else {
        ctx.say(&format!("{} subtask {n} is {state}", goal.id))?;
        return Ok(OK);
    };
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(edit);
    let seen = Seen::unfinished(goal);
    ctx.store
        .write_checked(&src, edits, |fresh| seen.check(fresh))?;
    let (ticked, total) = goal.progress();
    let ticked = if done { ticked + 1 } else { ticked - 1 };
    ctx.say(&format!(
        "{verb} {} {ticked}/{total}: {}",
        goal.id,
        goal.subtasks[n - 1].text
    ))?;
    Ok(OK)
}

//! `plan inject`: the injection block a host puts in front of the agent.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::exit::OK;
use crate::hooks::run as hook;

/// Print the injection block: objective, active goals, what is ready, the last log line
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(ctx: &Ctx, _args: Args) -> Result<u8> {
    // A plan with errors takes the fresh path, which reports them.
    if let Some(view) = crate::cache::for_command(ctx).filter(|v| v.broken.is_none()) {
        println(&view.injection)?;
        return Ok(OK);
    }
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let root = ctx.prompt_root();
    println(&hook::injection(&root, &plan))?;
    Ok(OK)
}

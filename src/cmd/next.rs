//! `plan next`: the goals that can be worked on now.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::{print, println};
use crate::plan::render;

/// List open and active goals whose dependencies are all done or cancelled
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    if args.json {
        let goals: Vec<_> = plan
            .workable()
            .map(|g| render::goal_view(&plan, g))
            .collect();
        println(&serde_json::to_string_pretty(&goals)?)?;
    } else {
        print(&render::next(&plan, ctx.style))?;
    }
    Ok(OK)
}

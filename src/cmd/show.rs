//! `plan` / `plan show`: the task-list widget, or the whole model as JSON.

use anyhow::Result;

use crate::app::{Ctx, print, println};
use crate::exit::OK;
use crate::plan::render;

/// Show the task list: goals by status, active first, with their subtasks
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// Also list done, cancelled and archived goals
    #[arg(long)]
    pub all: bool,
    /// Print the whole plan as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: Args) -> Result<u8> {
    let src = ctx.store.read()?;
    let mut plan = ctx.parse(&src)?;
    if args.json || args.all {
        ctx.prove(&mut plan);
    }
    if args.json {
        println(&serde_json::to_string_pretty(&render::plan_view(&plan))?)?;
    } else {
        print(&render::widget(&plan, args.all, ctx.style))?;
    }
    Ok(OK)
}

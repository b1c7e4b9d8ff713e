//! `plan statusline`: one short line for a host's status bar.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::exit::OK;
use crate::plan::blocks;

/// Print one short line for a status bar (`plan: 2 active · cache-layer 1/3 · next: …`)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(ctx: &Ctx, _args: Args) -> Result<u8> {
    if let Some(view) = crate::cache::for_command(ctx) {
        println(&view.statusline)?;
        return Ok(OK);
    }
    // A status bar must never show an error wall: no plan, no line.
    let Ok(src) = ctx.store.read() else {
        return Ok(OK);
    };
    let mut plan = crate::plan::model::parse(&src);
    if plan.errors.is_empty() {
        ctx.prove_live(&mut plan);
        println(&blocks::statusline(&plan))?;
    } else {
        println("plan: plan.md has errors (plan lint)")?;
    }
    Ok(OK)
}

//! `plan archive`: move done and cancelled goals, verbatim, under `## Archive`.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::clock;
use crate::exit::OK;
use crate::plan::ops;

/// Move done and cancelled goals under `## Archive` (kept verbatim, nothing deleted)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(ctx: &Ctx, _args: Args) -> Result<u8> {
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let (mut edits, moved) = ops::archive(&plan);
    if moved.is_empty() {
        println("nothing to archive: no goal is done or cancelled")?;
        return Ok(OK);
    }
    let stamp = clock::now()?.stamp();
    let noun = if moved.len() == 1 { "goal" } else { "goals" };
    let summary = format!("archived {} {noun}: {}", moved.len(), moved.join(", "));
    edits.push(ops::log(&stamp, &summary));
    ctx.store.write(&src, edits)?;
    println(&summary)?;
    Ok(OK)
}

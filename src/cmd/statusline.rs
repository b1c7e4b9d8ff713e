//! `plan statusline`: one short line for a host's status bar.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::exit::OK;
use crate::plan::blocks::{self, StatuslineView};

/// Print one short line for a status bar (`plan: 2 active · cache-layer 1/3 · next: …`)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print its fields as JSON: active, ready, goal, progress, next_subtask, unproven, errors, text
    #[arg(long)]
    pub json: bool,
}

pub fn run(ctx: &Ctx, args: Args) -> Result<u8> {
    // A status bar must never show an error wall: no plan, no line.
    let Ok(src) = ctx.store.read() else {
        return Ok(OK);
    };
    let mut plan = crate::plan::model::parse(&src);
    let view = if plan.errors.is_empty() {
        ctx.prove_live(&mut plan);
        blocks::statusline_view(&plan)
    } else {
        StatuslineView {
            active: 0,
            ready: 0,
            goal: None,
            progress: None,
            next_subtask: None,
            unproven: 0,
            errors: true,
            text: "plan: plan.md has errors (plan lint)".to_string(),
        }
    };
    if args.json {
        println(&serde_json::to_string_pretty(&view)?)?;
    } else {
        println(&view.text)?;
    }
    Ok(OK)
}

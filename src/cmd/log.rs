//! `plan log`: append one line to the log.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::clock;
use crate::exit::{Exit, OK};
use crate::plan::ops;

/// Append a line to the log: `- YYYY-MM-DD HH:MM TEXT`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What happened; several words are joined with spaces
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
}

pub fn run(ctx: &Ctx, args: Args) -> Result<u8> {
    let text = ops::one_line(&args.text.join(" "));
    if text.is_empty() {
        return Err(Exit::usage(
            "nothing to log\n  hint: plan log \"what happened\"",
        ));
    }
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    if let Some(id) = ops::reserved_entry(&plan, &text) {
        return Err(Exit::usage(format!(
            "\"{text}\" reads like a line plan writes itself about goal {id}\n  hint: sign-offs and contract fingerprints are recorded by `plan complete` and `plan start`; log progress in other words"
        )));
    }
    let stamp = clock::now()?.stamp();
    ctx.store.write(&src, vec![ops::log(&stamp, &text)])?;
    println(&format!("- {stamp} {text}"))?;
    Ok(OK)
}

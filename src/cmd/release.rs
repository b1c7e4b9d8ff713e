//! `plan release`: drops a goal's claim, so another session or worktree may take it.

use anyhow::Result;

use crate::claims::{self, Claims};
use crate::ctx::Env;
use crate::exit::OK;

/// Release your claim on a goal (a sign-off or a cancel releases it too)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Release it as NAME (default: the session in PLAN_SESSION)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
    /// Release it even though another holds it
    #[arg(long)]
    pub force: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    // A goal deleted or renamed since it was claimed still has its claim: the id
    // as given names it.
    let id = match ctx.lookup(&plan, &args.id) {
        Ok(goal) => goal.id.to_string(),
        Err(_) => args.id.trim().to_string(),
    };
    let me = claims::me(args.holder.as_deref())?;
    match Claims::of(ctx)?.release(&id, me.as_deref(), args.force)? {
        Some(claim) => ctx.say(&format!("released {id} (held by {})", claim.holder))?,
        None => ctx.say(&format!("{id} was not claimed"))?,
    }
    Ok(OK)
}

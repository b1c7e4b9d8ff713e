//! `plan inject`: the injection block a host puts in front of the agent.

use anyhow::Result;

use crate::ctx::{Ctx, Env};
use crate::exit::OK;
use crate::hooks::run as hook;
use crate::out::println;
use crate::plan::blocks;

/// Print the injection block: objective, active goals, what is ready, the last log line
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print its fields as JSON: objective, active goals, ready, last_log, unproven, text
    #[arg(long)]
    pub json: bool,
    /// Say which claimed goals are NAME's own (default: the session in PLAN_SESSION)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    if !args.json {
        println(&block(env, args.holder.as_deref())?)?;
        return Ok(OK);
    }
    let ctx = env.ctx()?;
    let claims = claim_lines(ctx, args.holder.as_deref())?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    let text = with_claims(hook::injection(&ctx.prompt_root(), &plan), claims);
    let view = blocks::injection_view(&plan, text);
    println(&serde_json::to_string_pretty(&view)?)?;
    Ok(OK)
}

/// The injection block, with the lines saying which claimed goals are `holder`'s
/// (default: the session in PLAN_SESSION): what `plan inject` prints and
/// `plan_status` starts with.
pub fn block(env: &Env, holder: Option<&str>) -> Result<String> {
    let ctx = env.ctx()?;
    let claims = claim_lines(ctx, holder)?;
    // The running loop's budget-limited goals, as the hooks add them.
    let limited = |text: String| match &ctx.repo {
        Some(repo) => {
            hook::with_limited(&crate::hooks::state::State::for_hook(&repo.git_dir), text)
        }
        None => text,
    };
    // A plan with errors takes the fresh path, which reports them.
    if let Some(view) = crate::cache::for_command(ctx).filter(|v| v.broken.is_none()) {
        return Ok(limited(with_claims(view.injection, claims)));
    }
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    Ok(limited(with_claims(
        hook::injection(&ctx.prompt_root(), &plan),
        claims,
    )))
}

fn claim_lines(ctx: &Ctx, holder: Option<&str>) -> Result<Option<String>> {
    let me = crate::claims::me(holder)?;
    Ok(crate::claims::lines(ctx.repo.as_ref(), me.as_deref()).0)
}

fn with_claims(text: String, claims: Option<String>) -> String {
    match claims {
        Some(lines) => format!("{text}\n{lines}"),
        None => text,
    }
}

//! The injection block a host puts in front of the agent (`plan inject`, MCP's
//! `plan_status`).

use anyhow::Result;

use crate::ctx::{Ctx, Env};
use crate::hooks::run as hook;
use crate::plan::blocks;

/// The injection block, with the lines saying which claimed goals are `holder`'s
/// (default: the session in PLAN_SESSION): what `plan inject` prints and
/// `plan_status` starts with.
pub fn block(env: &Env, holder: Option<&str>) -> Result<String> {
    let ctx = env.ctx()?;
    let claims = claim_lines(ctx, holder)?;
    // The running loop's budget-limited goals, as the hooks add them.
    let limited = |text: String| match &ctx.repo {
        Some(repo) => hook::with_limited(&crate::state::State::for_hook(&repo.git_dir), text),
        None => text,
    };
    // A plan with errors takes the fresh path, which reports them.
    if let Some(view) = crate::cache::for_command(ctx).filter(|v| v.broken.is_none()) {
        return Ok(limited(with_claims(view.injection, claims)));
    }
    let src = ctx.store.read()?;
    let plan = ctx.read_lines(&src);
    Ok(limited(with_claims(
        hook::injection(&ctx.prompt_root(), &plan),
        claims,
    )))
}

/// The injection block with its counts, as `plan inject --json` prints it.
pub fn json(env: &Env, holder: Option<&str>) -> Result<String> {
    let ctx = env.ctx()?;
    let claims = claim_lines(ctx, holder)?;
    let src = ctx.store.read()?;
    let plan = ctx.read_lines(&src);
    let text = with_claims(hook::injection(&ctx.prompt_root(), &plan), claims);
    let view = blocks::injection_view(&plan, text);
    Ok(crate::out::json(&view)?)
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

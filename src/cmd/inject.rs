//! `plan inject`: the injection block a host puts in front of the agent.

use anyhow::Result;

use crate::ctx::Env;
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
    let ctx = env.ctx()?;
    let me = crate::claims::me(args.holder.as_deref())?;
    let (claims, _) = crate::claims::lines(ctx.repo.as_ref(), me.as_deref());
    let with_claims = |text: &str| match &claims {
        Some(lines) => format!("{text}\n{lines}"),
        None => text.to_string(),
    };
    // A plan with errors takes the fresh path, which reports them.
    if !args.json
        && let Some(view) = crate::cache::for_command(ctx).filter(|v| v.broken.is_none())
    {
        println(&with_claims(&view.injection))?;
        return Ok(OK);
    }
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    let root = ctx.prompt_root();
    let text = with_claims(&hook::injection(&root, &plan));
    if args.json {
        let view = blocks::injection_view(&plan, text);
        println(&serde_json::to_string_pretty(&view)?)?;
    } else {
        println(&text)?;
    }
    Ok(OK)
}

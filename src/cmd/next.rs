//! `plan next`: the goals that can be worked on now.

use anyhow::Result;

use crate::claims;
use crate::ctx::Env;
use crate::exit::OK;
use crate::git::claims::Claim;
use crate::out::{print, println};
use crate::plan::render;

/// List open and active goals whose dependencies are all done or cancelled
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as JSON
    #[arg(long)]
    pub json: bool,
    /// Show the goals NAME holds as workable (default: the session in PLAN_SESSION);
    /// goals claimed by anyone else are left out
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let plan = ctx.read(&src);
    let me = claims::me(args.holder.as_deref())?;
    let held: Vec<Claim> = ctx.repo.as_ref().map(claims::peek).unwrap_or_default();
    let others = |id: &str| {
        held.iter()
            .any(|c| c.goal == id && Some(c.holder.as_str()) != me.as_deref())
    };
    let goals: Vec<_> = plan.workable().filter(|g| !others(&g.id)).collect();
    let hidden = plan.workable().count() - goals.len();
    if args.json {
        let goals: Vec<_> = goals
            .into_iter()
            .map(|g| render::goal_view(&plan, g))
            .collect();
        println(&crate::out::json(&goals)?)?;
    } else {
        print(&render::next_among(goals, ctx.style))?;
        if hidden > 0 {
            println(&format!(
                "({hidden} claimed by others left out: plan claims)"
            ))?;
        }
    }
    Ok(OK)
}

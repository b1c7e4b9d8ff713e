//! `plan` / `plan show`: the task-list widget, one goal in full, or the whole model
//! as JSON.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::{print, println};
use crate::plan::{card, render};

/// Show the task list (goals by status, active first, with their subtasks), or one
/// goal in full
#[derive(Debug, Default, clap::Args)]
pub struct Args {
    /// One goal in full: contract, subtasks, dependencies both ways, standing, its
    /// log lines and how its contract changed since creation (id or unique prefix)
    pub id: Option<String>,
    /// Also list done, cancelled and archived goals
    #[arg(long, conflicts_with = "id")]
    pub all: bool,
    /// Print as JSON
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let mut plan = ctx.read(&src);
    if args.json || args.all || args.id.is_some() {
        ctx.prove(&mut plan);
    }
    if let Some(query) = &args.id {
        let goal = ctx.lookup(&plan, query)?;
        let name = ctx.store.name.as_str();
        let mut card = card::card(&plan, goal, name, &|fp| ctx.contract_text(&goal.id, fp));
        // A read command: a check that cannot run leaves the findings unknown.
        card.weakened_tests = ctx
            .repo
            .as_ref()
            .and_then(|repo| crate::weakened::of_goal(&repo.root, &plan, goal).ok())
            .flatten();
        if args.json {
            println(&serde_json::to_string_pretty(&card)?)?;
        } else {
            print(&card::render(&plan, goal, &card, ctx.style))?;
        }
        return Ok(OK);
    }
    if args.json {
        println(&serde_json::to_string_pretty(&render::plan_view(&plan))?)?;
    } else {
        print(&render::widget(&plan, args.all, ctx.style))?;
    }
    Ok(OK)
}

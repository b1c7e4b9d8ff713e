//! `plan statusline`: one short line for a host's status bar.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::plan::blocks::{self, StatuslineView};

/// Print one short line for a status bar (`plan: 2 active · cache-layer 1/3 · next: …`)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print its fields as JSON: active, ready, goal, progress, next_subtask, unproven, imported, errors, text
    #[arg(long)]
    pub json: bool,
    /// Name the claimed goals NAME holds as yours (default: the session in PLAN_SESSION)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    // A bad name is no reason for a status bar to go blank: it is no name.
    let me = crate::claims::me(args.holder.as_deref()).ok().flatten();
    let held = ctx
        .repo
        .as_ref()
        .map(crate::claims::peek)
        .unwrap_or_default();
    let (_, claims) = crate::claims::lines_of(&held, me.as_deref());
    // The running loop's budget-limited goals live in its state, not plan.md.
    let running = ctx
        .repo
        .as_ref()
        .and_then(|repo| {
            crate::state::State::for_hook(&repo.git_dir)
                .peek_loop()
                .ok()
        })
        .flatten()
        .filter(|l| l.ended.is_none());
    // Hooks that cannot lock their state fail open: the person is told here.
    let trouble = ctx.repo.as_ref().and_then(|repo| {
        crate::state::State::for_hook(&repo.git_dir)
            .lock_trouble(&repo.root)
            .filter(|t| t.in_place || running.is_some())
            .map(|t| t.short)
    });
    let limited = running.and_then(|l| crate::plan::budget::statusline_part(&l.budget_limited));
    let with_claims = |text: &str| {
        let text = match &claims {
            Some(part) if !text.is_empty() => format!("{text} · {part}"),
            _ => text.to_string(),
        };
        let text = match &limited {
            Some(part) if !text.is_empty() => format!("{text} · {part}"),
            _ => text,
        };
        match &trouble {
            Some(part) if !text.is_empty() => format!("{text} · {part}"),
            _ => text,
        }
    };
    // The cached line details the first active goal: kept when that is the one
    // this session is shown (its own, else one no one holds), never another's.
    if !args.json
        && let Some(view) = crate::cache::for_command(ctx)
        && view.active.first().map(String::as_str) == {
            let active: Vec<&str> = view.active.iter().map(String::as_str).collect();
            crate::claims::focus(&held, me.as_deref(), &active)
        }
    {
        println(&with_claims(&view.statusline))?;
        return Ok(OK);
    }
    // A status bar must never show an error wall: no plan, no line.
    let src = ctx.store.read().ok();
    let mut plan = src.as_deref().map(crate::plan::model::parse);
    // A plan with format errors still has a line: what it reads, and the count.
    let view = match &mut plan {
        None => empty(),
        Some(plan) => {
            plan.prove_lines();
            let active = blocks::active_ids(plan);
            let focus = crate::claims::focus(&held, me.as_deref(), &active).map(str::to_string);
            blocks::statusline_view(plan, focus.as_deref())
        }
    };
    if args.json {
        println(&crate::out::json(&view)?)?;
    } else if !view.text.is_empty() {
        println(&with_claims(&view.text))?;
    }
    Ok(OK)
}

fn empty() -> StatuslineView<'static> {
    StatuslineView {
        active: 0,
        ready: 0,
        goal: None,
        progress: None,
        next_subtask: None,
        unproven: 0,
        imported: 0,
        errors: 0,
        text: String::new(),
    }
}

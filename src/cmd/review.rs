//! `plan review`: the non-interactive end of plan mode. Shows the draft waiting for
//! review, or approves it (exactly as Ready does), rejects it, or has it redrafted
//! with feedback. An expired draft is shown but not approved or redrafted.

use anyhow::Result;

use crate::config;
use crate::ctx::Env;
use crate::draft::apply;
use crate::draft::prompt::Revision;
use crate::draft::proposal::{self, Proposal};
use crate::draft::run::{Drafter, Failure, Request, check};
use crate::exit::{Exit, OK};
use crate::out::println;

/// Show the draft waiting for review, or approve, reject or redraft it
#[derive(Debug, clap::Args)]
#[command(group(clap::ArgGroup::new("action").args(["approve", "reject", "edit", "json"])))]
pub struct Args {
    /// Add its goals to plan.md, as Ready does in `plan draft`
    #[arg(long)]
    pub approve: bool,
    /// Drop it; plan.md is not touched
    #[arg(long)]
    pub reject: bool,
    /// Have the model redraft it with this feedback, and keep the new draft for review
    #[arg(long, value_name = "TEXT")]
    pub edit: Option<String>,
    /// Print it as JSON, with its problems and the seconds left
    #[arg(long)]
    pub json: bool,
}

const NOTHING: &str = "no draft is waiting for review";
const NOTHING_HINT: &str = "`plan draft OBJECTIVE` drafts one";

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    // Held to the end: what is read here is what is applied, once.
    let _lock = match args.reject || args.approve {
        true => Some(proposal::lock(&repo.git_dir)?),
        false => None,
    };
    if args.reject {
        // Also for a proposal that no longer reads: rejecting is how to get rid of it.
        let objective = proposal::load(&repo.git_dir)
            .ok()
            .flatten()
            .map(|p| p.objective);
        if !proposal::remove(&repo.git_dir)? {
            return Err(Exit::usage_hint(NOTHING, NOTHING_HINT));
        }
        let what = match objective {
            Some(objective) => format!("rejected the draft for \"{objective}\""),
            None => "removed the unreadable proposal".to_string(),
        };
        println(&format!("{what}; {} was not touched", ctx.store.name))?;
        return Ok(OK);
    }
    let acting = args.approve || args.edit.is_some();
    let Some(pending) = proposal::load(&repo.git_dir)? else {
        if acting {
            return Err(Exit::usage_hint(NOTHING, NOTHING_HINT));
        }
        if args.json {
            println("null")?;
        } else {
            println(&format!("{NOTHING}\n  hint: {NOTHING_HINT}"))?;
        }
        return Ok(OK);
    };
    if pending.import.is_some() {
        return crate::cmd::import::review(
            ctx,
            pending,
            args.approve,
            args.edit.is_some(),
            args.json,
        );
    }
    let now = proposal::now();
    let src = match ctx.store.path.exists() {
        true => ctx.store.read()?,
        false => String::new(),
    };
    let plan = ctx.parse(&src)?;
    let checked = check(&pending.draft, &plan);
    if !acting {
        if args.json {
            let view = proposal::View::new(&pending, &checked, now);
            println(&crate::out::json(&view)?)?;
        } else {
            println(&proposal::show(&pending, &checked.render_problems(), now))?;
        }
        return Ok(OK);
    }
    if pending.expired(now) {
        return Err(Exit::usage_hint(
            format!(
                "the draft for \"{}\" expired {}; nothing was written",
                pending.objective,
                proposal::relative(pending.expires_at, now)
            ),
            format!(
                "`plan draft \"{}\"` drafts it again; `plan review --reject` drops it",
                pending.objective
            ),
        ));
    }
    if args.approve {
        let approved = apply::apply(ctx, &pending.draft, &pending.objective, pending.replace)?;
        proposal::remove(&repo.git_dir)?;
        println(&apply::report(ctx, &approved, &pending.objective))?;
        apply::offer_fresh_context(true)?;
        return Ok(OK);
    }
    let feedback = args.edit.unwrap_or_default();
    if feedback.trim().is_empty() {
        return Err(Exit::usage_hint(
            "say what should change: --edit \"TEXT\"",
            "e.g. --edit \"split the second goal in two\"",
        ));
    }
    let config = config::load(Some(&repo.root))?;
    let drafter = Drafter::new(&config.draft, &repo.root)?;
    let request = Request {
        objective: &pending.objective,
        plan: &plan,
        replace: pending.replace,
    };
    let revision = Revision {
        draft: &pending.draft,
        feedback: &feedback,
    };
    let redrafted = drafter
        .draft(&request, Some(revision))
        .map_err(Failure::into_error)?;
    let now = proposal::now();
    let renewed = Proposal::new(
        &pending.objective,
        &redrafted.text,
        drafter.backend().as_str(),
        drafter.model(),
        pending.replace,
        now,
    );
    if !proposal::renew(&repo.git_dir, &pending, &renewed)? {
        return Err(Exit::usage_hint(
            "the draft was approved, rejected or replaced while it was redrafted; the redraft was not kept",
            "`plan review` shows what is waiting now",
        ));
    }
    println(&proposal::show(&renewed, &redrafted.render_problems(), now))?;
    Ok(OK)
}

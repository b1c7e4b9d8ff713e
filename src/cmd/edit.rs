//! `plan edit`: change a goal's title or contract lines in place, losslessly. A
//! change of contract is logged with its new fingerprint and whether a terminal was
//! attached, exactly as `plan start --reapprove` logs one.

use std::io::IsTerminal;

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::println;
use crate::plan::event::{Approval, Event};
use crate::plan::model::parse;
use crate::plan::ops::{self, GoalEdit};
use crate::plan::patch;
use crate::plan::precondition::Seen;
use crate::red_first;
use crate::verify;

/// Change a goal's title, done_when, verify, failure modes or dependencies
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// The new title (the id stays)
    #[arg(long, value_name = "TEXT")]
    pub title: Option<String>,
    /// The new done_when ("" removes it)
    #[arg(long, value_name = "TEXT")]
    pub done_when: Option<String>,
    /// The new verify command, checked as `plan complete` would run it ("" removes it)
    #[arg(long, value_name = "CMD")]
    pub verify: Option<String>,
    /// The failure modes, replacing the list (repeatable; "" clears it)
    #[arg(long = "failure-mode", value_name = "TEXT")]
    pub failure_modes: Option<Vec<String>>,
    /// The dependencies, replacing the list (repeatable or comma-separated; "" clears it)
    #[arg(long = "depends-on", value_name = "ID", value_delimiter = ',')]
    pub depends_on: Option<Vec<String>>,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let contract_change = args.done_when.is_some()
        || args.verify.is_some()
        || args.failure_modes.is_some()
        || args.depends_on.is_some();
    if args.title.is_none() && !contract_change {
        return Err(Exit::usage_hint(
            "nothing to change",
            "pass --title, --done-when, --verify, --failure-mode or --depends-on",
        ));
    }
    if let Some(title) = &args.title
        && ops::one_line(title).is_empty()
    {
        return Err(Exit::usage("a goal needs a title"));
    }
    if let Some(t) = &args.title {
        crate::service::plain("--title", &ops::one_line(t))?;
    }
    if let Some(d) = &args.done_when {
        crate::service::plain("--done-when", &ops::one_line(d))?;
    }
    if let Some(v) = &args.verify {
        crate::service::plain("--verify", &ops::one_line_command(v))?;
    }
    for m in args.failure_modes.iter().flatten() {
        crate::service::plain("--failure-mode", &ops::one_line(m))?;
    }
    // Refused now, before anything is written, as `plan complete` would refuse it.
    if let Some(line) = args.verify.as_deref().map(ops::one_line_command)
        && !line.is_empty()
    {
        verify::parse_at(&line, "--verify")?;
    }
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    crate::claims::guard(ctx, &goal.id, args.who.holder.as_deref())?;
    let id = goal.id.to_string();
    if contract_change {
        ops::check_open(goal, "change its contract")?;
    } else if goal.archived {
        ops::check_open(goal, "retitle it")?;
    }
    ops::check_approved(&plan, goal)?;
    let before = goal.fingerprint();
    let seen = Seen::of(goal);
    let failure_modes: Option<Vec<String>> = args.failure_modes.as_ref().map(|modes| {
        modes
            .iter()
            .map(|m| ops::one_line(m))
            .filter(|m| !m.is_empty())
            .collect()
    });
    let depends_on = match &args.depends_on {
        Some(given) => Some(ctx.dependency_ids(&plan, given)?),
        None => None,
    };
    if depends_on.as_ref().is_some_and(|ids| ids.contains(&id)) {
        return Err(Exit::usage_hint(
            format!("{id} cannot depend on itself"),
            "name the goals that must be done first",
        ));
    }
    let change = GoalEdit {
        title: args.title.as_deref(),
        done_when: args.done_when.as_deref(),
        verify: args.verify.as_deref(),
        failure_modes: failure_modes.as_deref(),
        depends_on: depends_on.as_deref(),
    };
    let mut edits = ops::edit_goal(&plan, goal, &change);
    let preview = patch::apply(&src, &edits).expect("edits made from this text apply to it");
    if preview == src {
        println(&format!("{id}: nothing changed"))?;
        return Ok(OK);
    }
    let after = parse(&preview);
    let fingerprint = after
        .goal(&id)
        .expect("the goal being edited")
        .fingerprint();
    let message = if fingerprint == before {
        format!("{id}: title changed")
    } else {
        let stamp = clock::now()?.stamp();
        edits.push(ops::event(
            &stamp,
            &Event::Reapproved {
                id: &id,
                contract: &fingerprint,
                approval: Approval::from_terminal(std::io::stdin().is_terminal()),
            },
        ));
        format!("{id}: contract changed and logged (contract {fingerprint}, was {before})")
    };
    ctx.store.write_checked(&src, edits, |fresh| {
        let now = seen.find(fresh)?;
        ops::check_approved(fresh, now).map_err(|r| r.message)
    })?;
    if args.verify.is_some() {
        red_first::warn_cannot_fail(&id, after.goal(&id).and_then(|g| g.verify()));
        let root = ctx.repo.as_ref().map(|r| r.root.as_path());
        verify::warn_missing(&id, after.goal(&id).and_then(|g| g.verify()), root);
    }
    println(&message)?;
    Ok(OK)
}

//! `plan subgoal`: add an acceptance criterion to a goal's done_when mid-loop, and
//! log the contract it now has. Like any change of contract, the log says whether
//! a terminal was attached when it was made.

use std::io::IsTerminal;

use anyhow::Result;

use crate::clock;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::plan::event::{Approval, Event};
use crate::plan::model::parse;
use crate::plan::precondition::Seen;
use crate::plan::{ops, patch};

/// Add an acceptance criterion to a goal's done_when
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// The criterion
    pub text: String,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let text = ops::one_line(&args.text);
    if text.is_empty() {
        return Err(Exit::usage("a criterion needs text"));
    }
    crate::service::plain("the criterion", &text)?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    crate::claims::guard(ctx, &goal.id, args.who.holder.as_deref())?;
    let id = goal.id.clone();
    let seen = Seen::unfinished(goal);
    ops::check_open(goal, "add criteria to it")?;
    ops::check_approved(&plan, goal)?;
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(ops::add_criterion(&plan, goal, &text));
    let preview = patch::apply(&src, &edits).expect("edits made from this text apply to it");
    let fingerprint = parse(&preview)
        .goal(&id)
        .expect("the goal being edited")
        .fingerprint();
    let stamp = clock::now()?.stamp();
    edits.push(ops::event(
        &stamp,
        &Event::CriterionAdded {
            id: &id,
            text: &text,
            contract: &fingerprint,
            approval: Approval::from_terminal(std::io::stdin().is_terminal()),
        },
    ));
    // The contract it extends must still be the approved one, on a live goal.
    ctx.store.write_checked(&src, edits, |fresh| {
        let now = seen.find(fresh)?;
        ops::check_approved(fresh, now).map_err(|r| r.message)
    })?;
    ctx.say(&format!("{id}: criterion added (contract {fingerprint})"))?;
    Ok(OK)
}

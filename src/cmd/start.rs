//! `plan start`: open → active, logging the contract's fingerprint; `--reapprove`
//! accepts a changed contract, visibly, in the log.

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::clock;
use crate::exit::{Exit, OK};
use crate::plan::model::Status;
use crate::plan::ops;

/// Start a goal (open → active) and log its contract's fingerprint
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Accept the goal's changed contract and log its new fingerprint
    #[arg(long)]
    pub reapprove: bool,
}

pub fn run(ctx: &Ctx, args: Args) -> Result<u8> {
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = &goal.id;
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(id);
    let stamp = clock::now()?.stamp();
    let mut edits = ops::id_comment(&plan, goal);
    let message = match goal.status() {
        Status::Active if logged == Some(fingerprint.as_str()) => {
            println(&format!("{id} is already active (contract {fingerprint})"))?;
            return Ok(OK);
        }
        Status::Active => match logged {
            Some(old) if !args.reapprove => {
                return Err(Exit::usage(format!(
                    "{id} is already active, and its contract changed since it was logged (contract {old}, now {fingerprint})\n  hint: review the change (git diff), then `plan start {id} --reapprove`"
                )));
            }
            Some(old) => {
                edits.push(ops::log(
                    &stamp,
                    &format!("{id} contract reapproved (contract {fingerprint})"),
                ));
                format!("{id}: new contract approved (contract {fingerprint}, was {old})")
            }
            None => {
                // Set active by hand: record the contract it runs under.
                edits.push(ops::log(
                    &stamp,
                    &format!("{id} started (contract {fingerprint})"),
                ));
                format!("{id} is active; contract {fingerprint} logged")
            }
        },
        _ => {
            ops::check_transition(goal, Status::Active)?;
            ops::check_dependencies(&plan, goal, "start")?;
            edits = ops::set_status(&plan, goal, Status::Active);
            edits.push(ops::log(
                &stamp,
                &format!("{id} started (contract {fingerprint})"),
            ));
            format!("started {id} (contract {fingerprint})")
        }
    };
    ctx.store.write(&src, edits)?;
    println(&message)?;
    Ok(OK)
}

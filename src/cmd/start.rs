//! `plan start`: the arguments of a start and its words (the message, or the goal
//! as JSON). The start itself is `crate::service::start`.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::service::start::{Request, start};

/// Start a goal (open → active): run its verify once and log whether it fails
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Accept the goal's changed contract and log its new fingerprint
    #[arg(long)]
    pub reapprove: bool,
    /// Claim the goal for NAME (default: the session in PLAN_SESSION, which plan's
    /// hooks set where the host allows; with neither, the goal is started unclaimed)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
    /// Take the goal over from the holder of its claim, logged
    #[arg(long)]
    pub steal: bool,
    /// Do not run the goal's verify before the work; the log says it was skipped
    #[arg(long)]
    pub no_verify: bool,
    /// Print the id, status, contract, holder and the log lines written, as JSON
    #[arg(long)]
    pub json: bool,
}

impl From<&Args> for Request {
    fn from(args: &Args) -> Request {
        Request {
            id: args.id.clone(),
            reapprove: args.reapprove,
            holder: args.holder.clone(),
            steal: args.steal,
            no_verify: args.no_verify,
        }
    }
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let started = start(env, &Request::from(&args))?;
    if args.json {
        println(&crate::out::json(&started)?)?;
    } else {
        env.ctx()?.say(&started.message)?;
    }
    Ok(OK)
}

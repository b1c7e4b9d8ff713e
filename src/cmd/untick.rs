//! `plan untick`: clear subtask N of a goal, the way back from a tick too early.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::service::tick;

/// Clear the tick of subtask N (counting from 1) of a goal
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Which subtask, counting from 1
    pub n: usize,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let unticked = tick::mark(env, &args.id, args.n, false, args.who.holder.as_deref())?;
    env.ctx()?.say(&unticked.text())?;
    Ok(OK)
}

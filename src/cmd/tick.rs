//! `plan tick`: the arguments of a tick and its words. The tick itself is
//! `crate::service::tick`, which `plan untick` shares.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::service::tick::mark;

/// Tick subtask N (counting from 1) of a goal
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
    let ticked = mark(env, &args.id, args.n, true, args.who.holder.as_deref())?;
    env.ctx()?.say(&ticked.text())?;
    Ok(OK)
}

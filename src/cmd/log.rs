//! `plan log`: the arguments of a log line and its words. The append itself is
//! `crate::service::log`.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::service::log::append;

/// Append a line to the log: `- YYYY-MM-DD HH:MM TEXT`
#[derive(Debug, clap::Args)]
pub struct Args {
    /// What happened; several words are joined with spaces
    #[arg(required = true, num_args = 1..)]
    pub text: Vec<String>,
    /// The goal it is about (an id or unique prefix): the line is written as `ID TEXT`,
    /// so `plan show ID` lists it
    #[arg(long, value_name = "ID")]
    pub goal: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let logged = append(env, &args.text.join(" "), args.goal.as_deref())?;
    env.ctx()?.say(&logged.text())?;
    Ok(OK)
}

//! `plan` / `plan show`: the arguments and the printing of what
//! `crate::service::show` shows.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::print;
use crate::service::show::show;

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
    let shown = show(env, args.id.as_deref(), args.all, args.json)?;
    print(&shown.text()?)?;
    Ok(OK)
}

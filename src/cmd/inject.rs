//! `plan inject`: the arguments and the printing of the injection block
//! `crate::service::inject` makes.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::service::inject;

/// Print the injection block: objective, active goals, what is ready, the last log line
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print its fields as JSON: objective, active goals, ready, last_log, unproven, text
    #[arg(long)]
    pub json: bool,
    /// Say which claimed goals are NAME's own (default: the session in PLAN_SESSION)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    if !args.json {
        println(&inject::block(env, args.holder.as_deref())?)?;
        return Ok(OK);
    }
    println(&inject::json(env, args.holder.as_deref())?)?;
    Ok(OK)
}

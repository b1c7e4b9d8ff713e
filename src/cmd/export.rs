//! `plan export`: the whole plan as versioned JSON (`{"schema": "plan/1", …}`) on
//! stdout, or with `--schema` the JSON Schema it follows, generated from the same
//! types. Reads only.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::portable::export;

/// Print the plan as versioned JSON, or its JSON Schema
///
/// Goals with contract, status, proof state, subtasks and dependencies, and the log
/// as typed events, in `{"schema": "plan/1", ...}`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The output format (JSON is the one there is)
    #[arg(long, value_enum, default_value = "json")]
    pub format: Format,
    /// Print the JSON Schema of the export instead
    #[arg(long)]
    pub schema: bool,
}

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Format {
    Json,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let Format::Json = args.format;
    if args.schema {
        println(&export::schema())?;
        return Ok(OK);
    }
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let mut plan = ctx.read(&src);
    ctx.prove(&mut plan);
    println(&crate::out::json(&export::export(&plan))?)?;
    Ok(OK)
}

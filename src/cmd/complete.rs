//! `plan complete`: the sign-off's arguments and its words on the terminal. The
//! sign-off itself (verify, the judge or the panel, the record, the checkpoint, the
//! log line, the claim) is the service in `crate::signoff`.

use std::path::PathBuf;

use anyhow::Result;

use crate::ctx::{Ctx, Env};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::out::println;
use crate::signoff::{self, Decision, Request, SignOff};

/// Sign a goal off: run its verify (no shell), then a read-only judge; done only if both pass
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Why the goal is done, in words; the judge checks it against the repository
    #[arg(long, value_name = "TEXT")]
    pub evidence: String,
    /// A file or directory in the repository that backs the evidence (repeatable)
    #[arg(long = "path", value_name = "P")]
    pub paths: Vec<PathBuf>,
    // The names come from the registry, so the help stays true as hosts are added.
    #[arg(long, value_name = "BACKEND", help = format!(
        "Judge for this run, instead of the configured one or judge.panel: {}",
        crate::config::BackendChoice::names()
    ))]
    pub judge: Option<String>,
    /// Accept evidence paths that git ignores (they are not durable)
    #[arg(long)]
    pub allow_ignored: bool,
    /// Run both stages, print the verdict, write nothing
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

impl From<Args> for Request {
    fn from(args: Args) -> Request {
        Request {
            id: args.id,
            evidence: args.evidence,
            paths: args.paths,
            judge: args.judge,
            allow_ignored: args.allow_ignored,
            dry_run: args.dry_run,
            holder: args.who.holder,
        }
    }
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let signed = signoff::sign_off(env, Request::from(args))?;
    render(env.ctx()?, &signed)
}

/// The sign-off as the CLI words it: stdout, a reject's exit code, and the warning
/// that the record is ignored by git.
pub fn render(ctx: &Ctx, signed: &SignOff) -> Result<u8> {
    let text = signed.text();
    if signed.verdict == Decision::Reject {
        println(&text)?;
        return Err(Exit::quiet(CHECK_FAILED));
    }
    if signed.dry_run {
        println(&text)?;
        return Ok(OK);
    }
    ctx.say(&text)?;
    signed.warn_ignored();
    Ok(OK)
}

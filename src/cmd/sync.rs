//! `plan sync --base REF`: merges the base into the branch checked out when the
//! forge's own merge (no driver) would conflict only in plan.md, so the pull
//! request merges through the forge's button. The work is `crate::forge`; the
//! workflow `plan install ci` writes runs it for every open pull request.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::{CHECK_FAILED, OK};
use crate::forge::{self, Outcome};
use crate::install::merge_driver;
use crate::out::println;

/// Merge the base into this branch with plan's driver, so the forge merges it
///
/// Only when the forge's own merge (no driver) would conflict in plan.md alone.
/// Exit 0: merged, or nothing to do; exit 1: a person must merge (a conflict
/// outside plan.md, or one part of one goal changed on both sides); exit 2 or 3:
/// nothing was merged (plan.md changed meanwhile, another git held the index).
/// The merge is built away from the working tree and lands whole or not at all.
/// It never pushes; the workflow `plan install ci` writes runs it for each open
/// pull request
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The base the pull request merges into, e.g. origin/main
    #[arg(long, value_name = "REF")]
    pub base: String,
    /// Change nothing: exit 0 only when the forge's merge conflicts in plan.md alone
    /// and plan's driver merges it (a fork's pull request, which the workflow cannot
    /// push to), 1 otherwise
    #[arg(long)]
    pub check: bool,
    /// The plan binary git runs as the driver [default: this one]
    #[arg(long, value_name = "PATH")]
    pub command: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    let plan = ctx
        .plan_in_repo()
        .and_then(|p| p.to_str().map(str::to_string))
        .unwrap_or_else(|| "plan.md".to_string());
    let program = args
        .command
        .clone()
        .unwrap_or_else(merge_driver::default_program);
    let base = &args.base;
    let outcome = forge::sync(&repo.root, base, &[plan], &program, args.check)?;
    let (line, code) = match outcome {
        Outcome::UpToDate => (
            format!("this branch already has {base}; nothing to merge"),
            if args.check { CHECK_FAILED } else { OK },
        ),
        Outcome::Mergeable => (
            format!("{base} merges into this branch without a conflict as it is; nothing to do"),
            if args.check { CHECK_FAILED } else { OK },
        ),
        Outcome::WouldMerge(files) => (
            format!(
                "a merge of {base} conflicts only in {}, which plan's driver merges: `plan sync --base {base}` merges it here",
                files.join(", ")
            ),
            OK,
        ),
        Outcome::Merged(files) => (
            format!(
                "merged {base} into this branch: {} goal by goal with plan's driver; push the branch",
                files.join(", ")
            ),
            OK,
        ),
        Outcome::Person { files, why } => {
            let what = if files.is_empty() {
                "what it leaves in conflict".to_string()
            } else {
                files.join(", ")
            };
            (
                format!(
                    "{base} and this branch need a person: {why}\n  hint: git merge {base}, resolve {what}, commit and push"
                ),
                CHECK_FAILED,
            )
        }
    };
    println(&line)?;
    Ok(code)
}

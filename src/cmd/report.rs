//! `plan report`: the morning report — what the loop's latest run (or everything
//! since a time or revision) signed off, rejected, reopened and cancelled, where its
//! continuations went, why it ended and what is left — for a terminal, as Markdown
//! or as JSON. The work is `crate::report`'s; this only renders it.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::print;
use crate::report::{self, render};

/// Report the loop's latest run, or everything since a time or revision
///
/// Goals signed off (proven or not), sign-offs rejected with what was missing,
/// reopens and cancels, continuations per goal, budget-limited goals, tokens and
/// time, why the loop ended, and what is left.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Everything since this time (`YYYY-MM-DD HH:MM` or `YYYY-MM-DD`) or git
    /// revision (the log lines added since it, the loop's events from its commit time
    /// on) instead of the loop's latest run
    #[arg(long, value_name = "TIME|REV")]
    pub since: Option<String>,
    /// Markdown, for a notification or a pull request comment
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
    /// The report as one JSON object
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let report = report::report(ctx, &report::Request { since: args.since })?;
    let text = if args.json {
        format!("{}\n", crate::out::json(&report)?)
    } else if args.markdown {
        render::render(&report, render::Form::Markdown)
    } else {
        render::render(&report, render::Form::Text)
    };
    print(&text)?;
    Ok(OK)
}

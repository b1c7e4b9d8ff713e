//! The command line as clap types, and nothing else: each subcommand's arguments
//! live beside its code in `cmd/`.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

use crate::cmd;

/// Keep a coding agent on one git-tracked plan.md: goals with a contract, an
/// append-only log, and a sign-off that checks the work.
#[derive(Debug, Parser)]
#[command(name = "plan", version, propagate_version = true, max_term_width = 100)]
pub struct Cli {
    /// The plan file [default: plan.md at the root of the git repository]
    #[arg(
        long,
        global = true,
        env = "PLAN_FILE",
        hide_env_values = true,
        value_name = "PATH"
    )]
    pub file: Option<PathBuf>,

    #[command(subcommand)]
    pub command: Option<Command>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    Init(cmd::init::Args),
    Show(cmd::show::Args),
    Add(cmd::add::Args),
    Start(cmd::start::Args),
    Tick(cmd::tick::Args),
    Untick(cmd::untick::Args),
    Subtask(cmd::subtask::Args),
    Subgoal(cmd::subgoal::Args),
    Complete(cmd::complete::Args),
    Log(cmd::log::Args),
    Edit(cmd::edit::Args),
    Cancel(cmd::cancel::Args),
    Reopen(cmd::reopen::Args),
    Archive(cmd::archive::Args),
    Lint(cmd::lint::Args),
    Next(cmd::next::Args),
    Diff(cmd::diff::Args),
    Doctor(cmd::doctor::Args),
    Audit(cmd::audit::Args),
    Goal(cmd::goal::Args),
    Inject(cmd::inject::Args),
    Remind(cmd::remind::Args),
    Skeleton(cmd::skeleton::Args),
    Statusline(cmd::statusline::Args),
    Draft(cmd::draft::Args),
    Review(cmd::review::Args),
    Judge(cmd::judge::Args),
    Hook(cmd::hook::Args),
    Install(cmd::install::Args),
    Uninstall(cmd::uninstall::Args),
    Mcp(cmd::mcp::Args),
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }
}

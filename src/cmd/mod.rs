//! Every subcommand, registered once: one module per command holds its arguments
//! (the doc comment is the help) and its `run(env, args)`. Adding a command is its
//! module and one line below; the order of the lines is the order in `plan --help`.

use anyhow::Result;

use crate::ctx::Env;

// The modules are declared here, outside the macro, so that rustfmt visits them.
pub mod add;
pub mod archive;
pub mod audit;
pub mod cancel;
pub mod checkpoints;
pub mod claims;
pub mod cli;
pub mod complete;
pub mod completions;
pub mod diff;
pub mod doctor;
pub mod draft;
pub mod edit;
pub mod events;
pub mod export;
pub mod goal;
pub mod hook;
pub mod import;
pub mod init;
pub mod inject;
pub mod install;
pub mod judge;
pub mod lint;
pub mod log;
pub mod man;
pub mod mcp;
pub mod merge_driver;
pub mod next;
pub mod release;
pub mod remind;
pub mod reopen;
pub mod report;
pub mod review;
pub mod rewind;
pub mod show;
pub mod skeleton;
pub mod start;
pub mod statusline;
pub mod subgoal;
pub mod subtask;
pub mod sync;
pub mod templates;
pub mod tick;
pub mod uninstall;
pub mod untick;

/// Declares the `Command` enum clap parses and the one dispatch.
macro_rules! commands {
    ($($variant:ident => $module:ident,)*) => {
        #[derive(Debug, clap::Subcommand)]
        pub enum Command {
            $($variant($module::Args),)*
        }

        impl Command {
            pub fn run(self, env: &Env) -> Result<u8> {
                match self {
                    $(Command::$variant(args) => $module::run(env, args),)*
                }
            }
        }
    };
}

commands! {
    Init => init,
    Show => show,
    Add => add,
    Start => start,
    Release => release,
    Claims => claims,
    Tick => tick,
    Untick => untick,
    Subtask => subtask,
    Subgoal => subgoal,
    Complete => complete,
    Log => log,
    Edit => edit,
    Cancel => cancel,
    Reopen => reopen,
    Checkpoints => checkpoints,
    Rewind => rewind,
    Archive => archive,
    Templates => templates,
    Lint => lint,
    Next => next,
    Diff => diff,
    Doctor => doctor,
    Audit => audit,
    Sync => sync,
    Events => events,
    Report => report,
    Goal => goal,
    Inject => inject,
    Remind => remind,
    Skeleton => skeleton,
    Statusline => statusline,
    Draft => draft,
    Review => review,
    Export => export,
    Import => import,
    Judge => judge,
    Hook => hook,
    Install => install,
    Uninstall => uninstall,
    Completions => completions,
    Man => man,
    Mcp => mcp,
    MergeDriver => merge_driver,
}

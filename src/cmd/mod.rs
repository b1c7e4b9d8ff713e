//! Every subcommand, registered once: one module per command holds its arguments
//! (the doc comment is the help) and its `run(env, args)`. Adding a command is its
//! module and one line below; the order of the lines is the order in `plan --help`.

use anyhow::Result;

use crate::ctx::Env;

/// Declares each command's module, the `Command` enum clap parses, and the one
/// dispatch.
macro_rules! commands {
    ($($variant:ident => $module:ident,)*) => {
        $(pub mod $module;)*

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
    Lint => lint,
    Next => next,
    Diff => diff,
    Doctor => doctor,
    Audit => audit,
    Events => events,
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
}

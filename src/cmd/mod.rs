//! One module per subcommand: its arguments (the doc comment is the help) and `run`.

pub mod add;
pub mod archive;
pub mod cancel;
pub mod init;
pub mod install;
pub mod lint;
pub mod log;
pub mod next;
pub mod show;
pub mod start;
pub mod subgoal;
pub mod subtask;
pub mod tick;
pub mod uninstall;

//! One module per subcommand: its arguments (the doc comment is the help) and `run`.

pub mod add;
pub mod archive;
pub mod cancel;
pub mod complete;
pub mod diff;
pub mod doctor;
pub mod draft;
pub mod goal;
pub mod hook;
pub mod init;
pub mod inject;
pub mod install;
pub mod judge;
pub mod lint;
pub mod log;
pub mod next;
pub mod remind;
pub mod review;
pub mod show;
pub mod skeleton;
pub mod start;
pub mod statusline;
pub mod subgoal;
pub mod subtask;
pub mod tick;
pub mod uninstall;

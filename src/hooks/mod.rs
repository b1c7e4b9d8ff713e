//! The host loop: hook protocols, runtime state, the continuation guard.

mod elsewhere;
pub mod guard;
pub mod host;
pub mod loop_mark;
pub mod progress;
pub mod run;

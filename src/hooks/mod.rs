//! The host loop: hook protocols, runtime state, the continuation guard.

pub mod guard;
pub mod host;
pub mod loop_mark;
pub mod progress;
pub mod run;

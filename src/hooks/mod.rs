//! The host loop: hook protocols, registration in the hosts' settings, runtime
//! state, the continuation guard.

pub mod guard;
pub mod host;
pub mod install;
pub mod jsonc;
pub mod run;
pub mod state;

//! Host adapters: what plan registers with each host and how it answers each hook.

pub mod install;

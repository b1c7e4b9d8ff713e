//! The sign-off judge: which backend to run and how, the prompt, the run, the verdict.

pub mod backend;
pub mod files;
pub mod guard;
pub mod inline;
pub use crate::prompts::overrides;
pub mod panel;
pub mod planted;
pub mod program;
pub mod prompt;
pub mod resolve;
pub mod run;
pub mod tree;
pub mod verdict;

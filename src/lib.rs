//! `plan` as a library: the binary's modules, so benchmarks reach the pure core.

pub mod app;
pub mod cache;
pub mod cli;
pub mod clock;
pub mod cmd;
pub mod config;
pub mod draft;
pub mod exec;
pub mod exit;
pub mod git;
pub mod hooks;
pub mod judge;
pub mod plan;
pub mod record;
pub mod store;
pub mod verify;

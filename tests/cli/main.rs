//! The one integration test binary: drives the real `plan` binary in temporary
//! git repositories.

mod audit_history;
mod byte_loss;
mod complete;
mod config;
mod copilot;
mod core;
mod degrade;
mod diffdoc;
mod draft;
mod edges;
mod events;
mod files;
mod goals;
mod hidden_work;
mod hooks;
mod hot;
mod install;
mod judge_containment;
mod link;
mod lookalike_ids;
mod mcp;
mod mcp_install;
mod port;
mod proof;
mod qwen;
mod readme;
mod reverify;
mod rewind;
mod rewind_reach;
mod rules;
mod setup;
mod shell;
mod sign_off_records;
mod small;
mod util;

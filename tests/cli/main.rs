//! The one integration test binary: drives the real `plan` binary in temporary
//! git repositories.

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
mod hooks;
mod hot;
mod install;
mod judge_isolation;
mod link;
mod mcp;
mod mcp_install;
mod port;
mod proof;
mod qwen;
mod readme;
mod redteam;
mod redteam2;
mod redteam3;
mod redteam4;
mod redteam5;
mod redteam7;
mod redteam8;
mod redteam9;
mod rewind;
mod rules;
mod shell;
mod small;
mod util;

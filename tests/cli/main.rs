//! The one integration test binary: drives the real `plan` binary in temporary
//! git repositories.

mod complete;
mod config;
mod core;
mod diffdoc;
mod draft;
mod edges;
mod files;
mod hooks;
mod hot;
mod install;
mod proof;
mod readme;
mod redteam;
mod util;

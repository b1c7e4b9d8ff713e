//! Everything plan writes into a host's, git's or CI's config: hosts' hooks, MCP
//! registration, AGENTS.md, the git merge driver, the CI workflow. The commands
//! `plan install` / `plan uninstall` and the doctor call it; it never imports a
//! command.

pub mod agents_md;
pub mod ci;
pub mod hooks;
pub mod jsonc;
pub mod mcp;
pub mod merge_driver;

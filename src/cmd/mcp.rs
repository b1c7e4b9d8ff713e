//! `plan mcp`: the plan as a small MCP server on stdio, for hosts that reach tools
//! only through MCP. The server itself is in `crate::mcp`.

use std::path::PathBuf;

use anyhow::Result;

/// Serve the plan over MCP on stdio: seven tools and the plan.md resource; no hooks
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(file: Option<PathBuf>, _args: Args) -> Result<u8> {
    crate::mcp::serve(file)
}

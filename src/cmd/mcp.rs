//! `plan mcp`: the plan as a small MCP server on stdio, for hosts that reach tools
//! only through MCP. The server itself is in `crate::mcp`.

use std::path::PathBuf;

use anyhow::Result;

use crate::ctx::Env;

/// Serve the plan over MCP on stdio: nine tools and the plan.md resource; no hooks
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The repository to serve, over the roots the client names (for clients such as
    /// Claude Desktop that start servers outside any project) [default: the client's
    /// first root, else the current directory]
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// Finds its repository from the client's roots; runs no hooks.
pub fn run(env: &Env, args: Args) -> Result<u8> {
    crate::mcp::serve(env.file().map(PathBuf::from), args.root)
}

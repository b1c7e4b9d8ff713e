//! `plan uninstall`: its arguments, and which install service takes back exactly
//! what `plan install` registered — our hook entries, plan's pi extension, plan's
//! plugin files — and nothing else. The work is `crate::install`.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::install::mcp::{self as mcp_install, Client as McpClient};
use crate::install::{self, Target, merge_driver};
use crate::out::print;

/// Remove plan's hooks from a coding agent's settings, leaving everything else
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent to remove them from, agents-md for plan's section of AGENTS.md, git
    /// for plan's merge driver, or ci for plan's GitHub Actions workflow
    #[arg(value_enum, required_unless_present = "mcp")]
    pub host: Option<Target>,
    /// Remove plan's MCP server from CLIENT's MCP file instead
    #[arg(long, value_enum, value_name = "CLIENT", conflicts_with_all = ["host", "plugin"])]
    pub mcp: Option<McpClient>,
    /// Remove the registration for your user instead of this repository's
    #[arg(long)]
    pub global: bool,
    /// Remove the Claude Code plugin plan wrote into DIR
    #[arg(long, value_name = "DIR", conflicts_with = "global")]
    pub plugin: Option<std::path::PathBuf>,
    /// Also recognise hooks installed with this --command [plan and any path ending
    /// in /plan are always recognised]
    #[arg(long, value_name = "PATH")]
    pub command: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // Registering hooks touches a host's settings, never plan.md, and `--global`
    // works outside any repository.
    let repo = env.repo()?;
    let repo = repo.as_ref();
    if let Some(client) = args.mcp {
        return mcp_install::remove(client, args.global, repo);
    }
    let host = match args.host {
        Some(Target::Host(host)) => host,
        Some(Target::AgentsMd) => return install::agents_md::remove(repo, args.global),
        Some(Target::Git) => {
            let repo = merge_driver::git_repo(repo, args.global)?;
            print(&merge_driver::uninstall(repo)?)?;
            return Ok(OK);
        }
        Some(Target::Ci) => return install::ci::uninstall(repo, args.global),
        None => {
            return Err(Exit::usage_hint(
                "name a host, or --mcp CLIENT",
                "see `plan uninstall --help`",
            ));
        }
    };
    let program = install::program(args.command.as_deref())?;
    if let Some(dir) = &args.plugin {
        install::files::plugin_is_for_claude(host)?;
        return install::host::uninstall_plugin(dir, program);
    }
    install::host::uninstall(host, args.global, repo, program)
}

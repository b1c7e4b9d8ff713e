//! `plan install`: its arguments, and which install service they call. The work
//! (hooks, plugin, MCP, AGENTS.md, merge driver, CI) is `crate::install`.

use std::path::Path;

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::install::mcp::{self as mcp_install, Client as McpClient};
use crate::install::{self, Target, merge_driver};
use crate::out::print;

/// Registers plan's merge driver in this clone and names it in `.gitattributes` for
/// plan.md and, when PLAN_FILE or --file names another, that file too.
fn git(env: &Env, repo: Option<&Repo>, global: bool, program: &str) -> Result<u8> {
    let repo = merge_driver::git_repo(repo, global)?;
    let mut patterns = vec!["plan.md".to_string()];
    if let Ok(ctx) = env.ctx()
        && let Some(rel) = ctx.plan_in_repo().or_else(|| {
            ctx.cwd
                .join(&ctx.store.path)
                .strip_prefix(&repo.root)
                .ok()
                .map(Path::to_path_buf)
        })
        && rel != Path::new("plan.md")
        && let Some(rel) = rel.to_str()
    {
        patterns.push(merge_driver::path_pattern(rel));
    }
    print(&merge_driver::install(repo, program, &patterns)?)?;
    Ok(OK)
}

/// Register plan's hooks with a coding agent, merging into its settings
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The agent to register with, agents-md for a section in AGENTS.md, git for plan's
    /// merge driver (this clone's git config and .gitattributes), or ci for the
    /// pull-request gate as a GitHub Actions workflow
    #[arg(value_enum, required_unless_present_any = ["mcp", "all", "check", "plugin"])]
    pub host: Option<Target>,
    /// Register with every host whose CLI is on PATH
    #[arg(long, conflicts_with_all = ["host", "mcp", "plugin", "check"])]
    pub all: bool,
    /// Change nothing; say per host whether plan's hooks are registered and current,
    /// a trust step is pending, and `plan` is on PATH. Exit 1 when something is
    /// missing for a host whose CLI is on PATH or that is registered
    #[arg(long, conflicts_with_all = ["host", "mcp", "plugin"])]
    pub check: bool,
    /// Register plan's MCP server with CLIENT instead (`plan mcp`, in the client's
    /// MCP file), not hooks
    #[arg(long, value_enum, value_name = "CLIENT", conflicts_with_all = ["host", "plugin"])]
    pub mcp: Option<McpClient>,
    /// Register for your user (under your home directory) instead of this repository
    #[arg(long)]
    pub global: bool,
    /// Write a plugin into DIR instead: with `claude`, a Claude Code plugin whose hooks
    /// run `plan` (or --command); with no host, the plugin that carries plan for
    /// Claude Code and Codex at once (both manifests, one hooks file, the launcher
    /// bin/plan for the binaries scripts/dist adds, and the skill)
    #[arg(long, value_name = "DIR", conflicts_with = "global")]
    pub plugin: Option<std::path::PathBuf>,
    /// The program the hooks run [default: this plan, by its absolute path; `plan` for a
    /// plugin or an MCP server, found on PATH]
    #[arg(long, value_name = "PATH")]
    pub command: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // Registering hooks touches a host's settings, never plan.md, and `--global`
    // works outside any repository.
    let repo = env.repo()?;
    let repo = repo.as_ref();
    let program = install::program(args.command.as_deref())?;
    if let Some(client) = args.mcp {
        return mcp_install::add(client, args.global, repo, program);
    }
    if args.check {
        return install::host::check(args.global, repo, program);
    }
    // Hooks run this plan by its absolute path, as the merge driver does (the name
    // only where the path cannot be known): by name, a `plan` earlier on the host's
    // PATH would answer them. The plugin and MCP keep the name: a plugin is built
    // for other machines, and an MCP server is started by the agent's host only to
    // ask, never to hold it back.
    let hooks_program = match args.command.as_deref() {
        Some(program) => program.to_string(),
        None => merge_driver::default_program(),
    };
    if args.all {
        return install::host::install_all(
            args.global,
            repo,
            &hooks_program,
            args.command.is_none(),
        );
    }
    let host = match args.host {
        Some(Target::Host(host)) => host,
        Some(Target::AgentsMd) => return install::agents_md::add(repo, args.global),
        Some(Target::Git) => {
            let program = match args.command.as_deref() {
                Some(program) => program.to_string(),
                None => merge_driver::default_program(),
            };
            return git(env, repo, args.global, &program);
        }
        Some(Target::Ci) => return install::ci::install(repo, args.global),
        None if let Some(dir) = &args.plugin => return install::plugin::install(dir),
        None => {
            return Err(Exit::usage_hint(
                "name a host, or --mcp CLIENT",
                "see `plan install --help`",
            ));
        }
    };
    if let Some(dir) = &args.plugin {
        install::files::plugin_is_for_claude(host)?;
        return install::host::install_plugin(dir, program);
    }
    install::host::install(
        host,
        args.global,
        repo,
        &hooks_program,
        args.command.is_none(),
    )
}

//! Everything plan writes into a host's, git's or CI's config: hosts' hooks, MCP
//! registration, AGENTS.md, the git merge driver, the CI workflow. The commands
//! `plan install` / `plan uninstall` and the doctor call it; it never imports a
//! command. The pure merges are `hooks`, `jsonc`, the `mcp` merge and the
//! `agents_md` section; `files` reads and writes through `crate::atomic`.

pub mod agents_md;
pub mod ci;
pub mod files;
pub mod hooks;
pub mod host;
pub mod jsonc;
pub mod mcp;
pub mod merge_driver;
pub mod plugin;

use anyhow::Result;

use crate::exit::Exit;
use hooks::{DEFAULT_PROGRAM, Host};

/// What `plan install` / `uninstall` register with: a host's hooks, or the section
/// in AGENTS.md that tells agents without hooks how this repository's plan works.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Host(Host),
    AgentsMd,
    /// plan's merge driver for plan.md, in this clone's git config and `.gitattributes`.
    Git,
    /// plan's pull-request gate as a GitHub Actions workflow.
    Ci,
}

/// Every target, in `--help`'s order: the hosts as the registry lists them, then
/// AGENTS.md.
static TARGETS: std::sync::LazyLock<Vec<Target>> = std::sync::LazyLock::new(|| {
    <Host as clap::ValueEnum>::value_variants()
        .iter()
        .map(|h| Target::Host(*h))
        .chain([Target::AgentsMd, Target::Git, Target::Ci])
        .collect()
});

impl clap::ValueEnum for Target {
    fn value_variants<'a>() -> &'a [Self] {
        &TARGETS
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        match self {
            Target::Host(host) => host.to_possible_value(),
            Target::AgentsMd => Some(
                clap::builder::PossibleValue::new("agents-md")
                    .help("A section in AGENTS.md, for agents without hooks"),
            ),
            Target::Git => Some(clap::builder::PossibleValue::new("git").help(
                "plan's merge driver for plan.md, in this clone's git config and .gitattributes",
            )),
            Target::Ci => Some(
                clap::builder::PossibleValue::new("ci")
                    .help("A GitHub Actions workflow: plan's pull-request gate"),
            ),
        }
    }
}

pub fn program(command: Option<&str>) -> Result<&str> {
    let program = command.unwrap_or(DEFAULT_PROGRAM);
    if program.trim().is_empty() || program.chars().any(char::is_control) {
        return Err(Exit::usage_hint(
            "--command needs a program path on one line",
            "e.g. --command /usr/local/bin/plan",
        ));
    }
    Ok(program)
}

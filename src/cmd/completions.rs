//! `plan completions SHELL`: the shell's completion script, generated from the
//! command line itself so it never goes stale.

use anyhow::Result;
use clap::CommandFactory;

use crate::cli::Cli;
use crate::ctx::Env;
use crate::exit::OK;
use crate::out::print;

/// Print the shell completion script for bash, zsh, fish, powershell or elvish
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(_env: &Env, args: Args) -> Result<u8> {
    let mut out = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "plan", &mut out);
    print(&String::from_utf8_lossy(&out))?;
    Ok(OK)
}

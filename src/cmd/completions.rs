//! `plan completions SHELL`: the shell's completion script. It is clap_complete's
//! dynamic one: at each TAB the shell asks plan itself (`COMPLETE=SHELL plan --
//! plan ARGS…`), which answers from the command line (never stale) and offers the
//! goal ids of the plan.md at hand after every argument that takes one. Answering
//! reads plan.md and nothing else, and writes nothing.

use std::ffi::OsString;
use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::CommandFactory;
use clap_complete::engine::{ArgValueCandidates, CompletionCandidate};
use clap_complete::env::{CompleteEnv, Shells};

use super::cli::Cli;
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::print;

/// The variable the shell script sets when it asks for completions.
const VAR: &str = "COMPLETE";

/// Print the shell completion script for bash, zsh, fish, powershell or elvish
///
/// The script asks plan at each TAB, so it completes commands, flags and the goal
/// ids of the plan.md around the current directory (after `show`, `start`,
/// `complete` and every other argument that takes a goal id). Install it once,
/// e.g. `plan completions bash > ~/.local/share/bash-completion/completions/plan`,
/// and again after upgrading plan (the script and the binary talk to each other).
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell
    #[arg(value_enum)]
    pub shell: clap_complete::Shell,
}

pub fn run(_env: &Env, args: Args) -> Result<u8> {
    let name = args.shell.to_string();
    let shells = Shells::builtins();
    let shell = shells
        .completer(&name)
        .ok_or_else(|| Exit::usage(format!("no completion script for {name}")))?;
    let mut out = Vec::new();
    shell.write_registration(VAR, "plan", "plan", &completer(), &mut out)?;
    if args.shell == clap_complete::Shell::Zsh {
        // Autoloaded from fpath (`_plan`), the file's body runs at the first TAB,
        // where it only registers the completer: complete then too.
        out.extend_from_slice(ZSH_AUTOLOAD.as_bytes());
    }
    print(&String::from_utf8_lossy(&out))?;
    Ok(OK)
}

const ZSH_AUTOLOAD: &str =
    "if [ \"$funcstack[1]\" = \"_plan\" ]; then\n    _clap_dynamic_completer_plan \"$@\"\nfi\n";

/// `COMPLETE=SHELL plan …`: answer the shell (or print its script) and exit.
/// Checked after the hooks' fast paths, before clap parses anything; a normal run
/// pays one environment lookup.
pub fn answer_if_asked() {
    if crate::env::os(VAR).is_none() {
        return;
    }
    // Only a shell's own request (`plan -- plan …`) or the script request (`plan`
    // alone): a COMPLETE left exported must not turn git's merge driver, a notify
    // command or `plan mcp` into a completion answer that exits 0.
    let mut args = std::env::args_os().skip(1);
    if args.next().is_some_and(|first| first != "--") {
        return;
    }
    CompleteEnv::with_factory(command).var(VAR).complete();
}

/// The command line, with goal ids offered for every argument named `ID`.
fn command() -> clap::Command {
    with_goal_ids(Cli::command())
}

fn with_goal_ids(cmd: clap::Command) -> clap::Command {
    cmd.mut_args(|arg| match takes_goal_id(&arg) {
        true => arg.add(ArgValueCandidates::new(goal_ids)),
        false => arg,
    })
    .mut_subcommands(with_goal_ids)
}

fn takes_goal_id(arg: &clap::Arg) -> bool {
    arg.get_value_names()
        .is_some_and(|names| names.iter().any(|n| n.as_str() == "ID"))
}

/// The goals of the plan file the command would use (PLAN_FILE, else plan.md at
/// the repository's root), each with its title; none outside a repository, or
/// when the file is missing or unreadable: a TAB never prints an error.
fn goal_ids() -> Vec<CompletionCandidate> {
    let Some(path) = plan_file() else {
        return Vec::new();
    };
    let Ok(text) = crate::fsread::text(&path, crate::fsread::PLAN) else {
        return Vec::new();
    };
    let plan = crate::plan::model::parse(&text);
    plan.goals
        .iter()
        .map(|g| {
            let help = format!("{} ({})", g.title, g.status().as_str());
            CompletionCandidate::new(g.id.as_ref()).help(Some(help.into()))
        })
        .collect()
}

fn plan_file() -> Option<PathBuf> {
    if let Some(file) = crate::env::os("PLAN_FILE").filter(|f| !f.is_empty()) {
        return Some(PathBuf::from(file));
    }
    let cwd = std::env::current_dir().ok()?;
    let repo = crate::git::discover(&cwd).ok()??;
    Some(repo.root.join("plan.md"))
}

/// How the script calls plan back: as it was called now, made absolute when it
/// was a path (`./target/debug/plan`), so the script works from any directory.
fn completer() -> String {
    let argv0 = std::env::args_os()
        .next()
        .unwrap_or_else(|| OsString::from("plan"));
    let path = Path::new(&argv0);
    match (path.components().count() > 1, std::env::current_dir()) {
        (true, Ok(cwd)) => cwd.join(path).to_string_lossy().into_owned(),
        _ => path.to_string_lossy().into_owned(),
    }
}

//! `plan man`: the manual pages, as roff, generated from the command line so they
//! never go stale: plan(1), and one page per subcommand, which plan(1) refers to.

use std::path::{Path, PathBuf};

use anyhow::Result;
use clap::CommandFactory;
use roff::{Roff, bold, roman};

use super::cli::{Cli, ENVIRONMENT, EXIT_CODES};
use crate::ctx::Env;
use crate::exit::{Exit, OK};
use crate::out::print;

/// Print the manual page, as roff (`plan man > ~/.local/share/man/man1/plan.1`), or
/// one subcommand's page, or write them all
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The subcommand whose page to print, e.g. `complete` or `judge model` (its page
    /// is plan-complete(1), plan-judge-model(1)) [default: plan's own page]
    #[arg(value_name = "SUBCOMMAND", num_args = 0..)]
    pub subcommand: Vec<String>,
    /// Write every page into DIR (plan.1, plan-init.1, …), for `man -M` or a manpath
    /// directory such as ~/.local/share/man/man1
    #[arg(long, value_name = "DIR", conflicts_with = "subcommand")]
    pub all: Option<PathBuf>,
}

pub fn run(_env: &Env, args: Args) -> Result<u8> {
    if let Some(dir) = args.all {
        return write_all(&dir);
    }
    if args.subcommand.is_empty() {
        print(&main_page()?)?;
        return Ok(OK);
    }
    let mut command = for_pages();
    command.build();
    let mut page = &command;
    for word in &args.subcommand {
        page = page.find_subcommand(word).ok_or_else(|| {
            Exit::usage_hint(
                format!("no manual page for `plan {}`", args.subcommand.join(" ")),
                "`plan --help` lists the commands; `plan man --all DIR` writes every page",
            )
        })?;
    }
    let mut text = Vec::new();
    clap_mangen::Man::new(page.clone()).render(&mut text)?;
    print(&String::from_utf8_lossy(&text))?;
    Ok(OK)
}

/// The command tree the pages come from: no `help` subcommand, which has no page.
fn for_pages() -> clap::Command {
    Cli::command().disable_help_subcommand(true)
}

/// plan.1 and a page for every subcommand, all that plan.1 refers to.
fn write_all(dir: &Path) -> Result<u8> {
    let failed = |e: std::io::Error| {
        Exit::env(format!(
            "cannot write the pages into {}: {e}",
            dir.display()
        ))
    };
    crate::atomic::make_dirs(dir).map_err(failed)?;
    clap_mangen::generate_to(for_pages(), dir).map_err(failed)?;
    // generate_to's plan.1 lacks the sections plan's own page adds.
    #[expect(
        clippy::disallowed_methods,
        reason = "a manual page into the directory the person named, beside clap_mangen's"
    )]
    std::fs::write(dir.join("plan.1"), main_page()?).map_err(failed)?;
    let count = std::fs::read_dir(dir)
        .map_err(failed)?
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().ends_with(".1"))
        .count();
    print(&format!(
        "wrote {} into {}\n",
        crate::plan::text::count(count, "page"),
        dir.display()
    ))?;
    Ok(OK)
}

/// plan(1): the command line, then the default command, exit status and environment.
fn main_page() -> Result<String> {
    // The help's closing text becomes proper sections below, not clap_mangen's EXTRA.
    let command = for_pages().after_help(None::<&'static str>);
    let mut page = Vec::new();
    clap_mangen::Man::new(command).render(&mut page)?;
    let mut roff = Roff::new();
    roff.control("SH", ["DEFAULT COMMAND"]);
    roff.text([
        bold("plan"),
        roman(" with no command shows the task list, as "),
        bold("plan show"),
        roman("."),
    ]);
    roff.control("SH", ["EXIT STATUS"]);
    for (code, meaning) in EXIT_CODES {
        roff.control("TP", []);
        roff.text([bold(code.to_string())]);
        roff.text([roman(meaning)]);
    }
    roff.control("SH", ["ENVIRONMENT"]);
    for (name, effect) in ENVIRONMENT {
        roff.control("TP", []);
        roff.text([bold(name)]);
        roff.text([roman(effect)]);
    }
    let mut text = String::from_utf8_lossy(&page).into_owned();
    text.push_str(&roff.to_roff());
    Ok(text)
}

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
    man(page.clone()).render(&mut text)?;
    print(&String::from_utf8_lossy(&text))?;
    Ok(OK)
}

/// A command's page, its footer naming plan (clap_mangen would name the
/// subcommand: `add 0.1.0`).
fn man(command: clap::Command) -> clap_mangen::Man {
    clap_mangen::Man::new(command).source(format!("plan {}", env!("CARGO_PKG_VERSION")))
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
    let mut command = for_pages();
    command.build();
    let mut pages = vec![("plan.1".to_string(), main_page()?.into_bytes())];
    let mut left: Vec<clap::Command> = command.get_subcommands().cloned().collect();
    while let Some(sub) = left.pop() {
        if sub.is_hide_set() {
            continue;
        }
        left.extend(sub.get_subcommands().cloned());
        let page = man(sub);
        let mut text = Vec::new();
        page.render(&mut text).map_err(failed)?;
        pages.push((page.get_filename(), text));
    }
    for (name, text) in pages {
        crate::atomic::replace(&dir.join(name), &text, &crate::atomic::Replace::DURABLE).map_err(
            |e| match e {
                crate::atomic::Failure::Io(e) | crate::atomic::Failure::Dir(_, e) => failed(e),
                crate::atomic::Failure::ReadOnly => failed(std::io::Error::other(
                    "a page there is read-only; nothing of it was changed",
                )),
            },
        )?;
    }
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
    man(command).render(&mut page)?;
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

//! `plan man`: the manual page, as roff, generated from the command line so it
//! never goes stale.

use anyhow::Result;
use clap::CommandFactory;
use roff::{Roff, bold, roman};

use crate::cli::{Cli, ENVIRONMENT, EXIT_CODES};
use crate::ctx::Env;
use crate::exit::OK;
use crate::out::print;

/// Print the manual page, as roff (`plan man > ~/.local/share/man/man1/plan.1`)
#[derive(Debug, clap::Args)]
pub struct Args {}

pub fn run(_env: &Env, _args: Args) -> Result<u8> {
    // The help's closing text becomes proper sections below, not clap_mangen's EXTRA.
    let command = Cli::command().after_help(None::<&'static str>);
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
    print(&text)?;
    Ok(OK)
}

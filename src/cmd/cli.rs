//! The command line's global options as clap types, and what `--help` says below
//! them; the subcommands are registered beside it, in `cmd/mod.rs`. It lives among
//! the commands because `plan man` and `plan completions` print it whole.

use std::path::PathBuf;

use clap::Parser;

use super::Command;
use crate::ctx::Color;
use crate::exit;

/// Keep a coding agent on one git-tracked plan.md: goals with a contract, an
/// append-only log, and a sign-off that checks the work.
#[derive(Debug, Parser)]
#[command(
    name = "plan",
    version,
    propagate_version = true,
    term_width = help_width(),
    help_template = help_template(),
    after_help = after_help()
)]
pub struct Cli {
    /// The plan file [default: plan.md at the root of the git repository]
    #[arg(
        long,
        global = true,
        env = "PLAN_FILE",
        hide_env_values = true,
        value_name = "PATH"
    )]
    pub file: Option<PathBuf>,

    /// When to colour the output: `auto` on a terminal, unless NO_COLOR is set or TERM=dumb
    #[arg(long, global = true, value_enum, value_name = "WHEN", default_value_t = Color::Auto)]
    pub color: Color,

    /// Print nothing on success for commands that write (errors and warnings still print)
    #[arg(long, short, global = true)]
    pub quiet: bool,

    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What each exit code means, as src/exit.rs defines them: for `--help` and the
/// man page.
pub const EXIT_CODES: [(u8, &str); 4] = [
    (exit::OK, "ok"),
    (
        exit::CHECK_FAILED,
        "a check failed: lint found problems, a sign-off was rejected, verify failed",
    ),
    (
        exit::USAGE,
        "usage or plan.md error: bad arguments, format errors, a refused change",
    ),
    (
        exit::ENVIRONMENT,
        "environment error: no git repository, unreadable files, no judge to run",
    ),
];

/// Every variable plan reads that a user may set; the help and the man page list
/// them. The ones only tests and scripts set (`PLAN_TRACE_WRITES`, `PLAN_TRACE_WAITS`,
/// `PLAN_TEST_PAUSE`) are for contributors, in docs/src/settings.md.
pub const ENVIRONMENT: [(&str, &str); 19] = [
    ("PLAN_FILE", "the plan file (like --file)"),
    (
        "PLAN_NOW",
        "a fixed clock, YYYY-MM-DDTHH:MM, for tests and examples",
    ),
    ("PLAN_DISABLED=1", "every hook is a no-op"),
    (
        "PLAN_SESSION",
        "who claims goals without --as (start, release, next, claims, inject, statusline)",
    ),
    (
        "CLAUDE_ENV_FILE",
        "where Claude Code's session start hook exports PLAN_SESSION",
    ),
    (
        "PLAN_JUDGE=1",
        "set inside judge and drafting runs; hooks are no-ops there",
    ),
    (
        "PLAN_REMOTE_TIMEOUT",
        "seconds a git push, fetch or ls-remote may take (claims: 60, checkpoints: 300)",
    ),
    ("NO_COLOR", "no colour, unless --color says otherwise"),
    (
        "COLUMNS",
        "the help's width where no terminal tells it (at most 100)",
    ),
    ("TERM=dumb", "no colour, unless --color says otherwise"),
    (
        "HOME",
        "where your settings and the hosts' global settings live",
    ),
    (
        "XDG_CONFIG_HOME",
        "your settings: $XDG_CONFIG_HOME/plan/config.yaml",
    ),
    (
        "XDG_CACHE_HOME",
        "where judges read their copy of the tree: $XDG_CACHE_HOME/plan/judges (else ~/.cache), yours alone",
    ),
    (
        "CODEX_HOME",
        "Codex's directory, for `plan install codex --global`",
    ),
    (
        "PI_CODING_AGENT_DIR",
        "pi's directory, for `plan install pi --global`",
    ),
    (
        "GEMINI_CLI_TRUST_WORKSPACE",
        "true: `plan install --check` takes the folder as trusted by Gemini CLI",
    ),
    (
        "COPILOT_HOME",
        "Copilot CLI's directory, for `plan install copilot --global`",
    ),
    (
        "PATH",
        "where judges, drafting models and verify commands are found",
    ),
    (
        "RUNNER_TEMP",
        "CI runners: where the gate finds the file commands a verify must not write",
    ),
];

/// `plan --help`'s commands by what they are for, the first day's first: clap
/// lists subcommands under one heading, so the template lists them itself. A test
/// holds this to the commands `cmd/` registers, each once.
pub const GROUPS: [(&str, &[&str]); 6] = [
    (
        "Everyday",
        &[
            "init", "add", "start", "tick", "log", "complete", "show", "install", "goal",
        ],
    ),
    (
        "Goals and claims",
        &[
            "edit",
            "untick",
            "subtask",
            "subgoal",
            "cancel",
            "reopen",
            "release",
            "claims",
            "next",
            "templates",
            "archive",
        ],
    ),
    (
        "Checks and proof",
        &[
            "lint",
            "doctor",
            "audit",
            "diff",
            "checkpoints",
            "rewind",
            "events",
            "report",
            "sync",
        ],
    ),
    (
        "Plans from elsewhere",
        &["draft", "review", "import", "export"],
    ),
    (
        "Setup",
        &["judge", "uninstall", "completions", "man", "mcp"],
    ),
    (
        "Called by the hosts' hooks",
        &["hook", "inject", "remind", "skeleton", "statusline"],
    ),
];

/// The help's width: the terminal's (as clap finds it: the terminal, else
/// `COLUMNS`), at most 100 columns. clap is given the same number, so the command
/// groups plan lays out wrap where clap's options do.
fn help_width() -> usize {
    let terminal = terminal_size::terminal_size().map(|(w, _)| usize::from(w.0));
    let columns = || crate::env::text("COLUMNS")?.parse().ok();
    // 0 (a terminal that reports none) is no width: the default, as when unset.
    let width = terminal.or_else(columns).filter(|&w| w > 0);
    width.unwrap_or(100).min(100)
}

/// The help's layout: clap's, with the commands grouped ([`GROUPS`]).
fn help_template() -> String {
    format!(
        "{{about-with-newline}}\n{{usage-heading}} {{usage}}\n\n{}Options:\n{{options}}{{after-help}}",
        grouped_commands()
    )
}

/// Each group's heading, then its commands with the first line of their help,
/// wrapped to [`help_width`] under the text's column.
fn grouped_commands() -> String {
    use clap::Subcommand;
    let registered = Command::augment_subcommands(clap::Command::new("plan"));
    let about = |name: &str| {
        registered
            .find_subcommand(name)
            .and_then(|c| c.get_about())
            .map(|a| a.to_string())
            .unwrap_or_default()
    };
    let width = GROUPS
        .iter()
        .flat_map(|(_, names)| names.iter())
        .map(|n| n.len())
        .max()
        .unwrap_or(0);
    let columns = help_width();
    let mut out = String::new();
    for (heading, names) in GROUPS {
        out.push_str(&format!("{heading}:\n"));
        for name in names {
            let lead = format!("  {name:<width$}  ");
            out.push_str(&wrapped(&lead, &about(name), columns));
        }
        out.push('\n');
    }
    out
}

/// `text` after `lead`, its words wrapped to `columns` under the text's column.
fn wrapped(lead: &str, text: &str, columns: usize) -> String {
    let indent = " ".repeat(lead.chars().count());
    let mut out = String::new();
    let mut line = lead.to_string();
    let mut empty = true;
    for word in text.split_whitespace() {
        if !empty && line.chars().count() + 1 + word.chars().count() > columns {
            out.push_str(line.trim_end());
            out.push('\n');
            line = indent.clone();
            empty = true;
        }
        if !empty {
            line.push(' ');
        }
        line.push_str(word);
        empty = false;
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// Below the options in `plan --help`.
fn after_help() -> String {
    let mut out = String::from(
        "`plan` alone shows the task list (`plan show`); `plan COMMAND --help` tells one command in full.\n\nExit codes:\n",
    );
    for (code, meaning) in EXIT_CODES {
        out.push_str(&format!("  {code}  {meaning}\n"));
    }
    out.push_str("\nEnvironment:\n");
    for (name, effect) in ENVIRONMENT {
        out.push_str(&format!("  {name:<20} {effect}\n"));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn cli_is_well_formed() {
        Cli::command().debug_assert();
    }

    /// Every command `cmd/` registers is in exactly one group of `--help`, and every
    /// name there is a command.
    #[test]
    fn the_help_groups_hold_every_command_once() {
        let cli = Cli::command();
        let shown: Vec<&str> = GROUPS.iter().flat_map(|(_, n)| n.iter().copied()).collect();
        for command in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
            let name = command.get_name();
            let times = shown.iter().filter(|n| **n == name).count();
            assert_eq!(times, 1, "{name} is in {times} groups of --help");
        }
        for name in shown {
            assert!(cli.find_subcommand(name).is_some(), "{name} is no command");
        }
    }
}

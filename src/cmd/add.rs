//! `plan add`: the arguments of a quick-add and its words: the new id (or the goal
//! as JSON) and the warning of a missing done_when. The add itself is
//! `crate::service::add`.

use anyhow::Result;

use crate::ctx::Env;
use crate::exit::OK;
use crate::out::println;
use crate::plan::ops;
use crate::service::add::{Request, add};

/// Add a goal; prints its id
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The goal's title
    pub title: String,
    /// When it is done, in words a reviewer can check
    #[arg(long, value_name = "TEXT")]
    pub done_when: Option<String>,
    /// A command that must pass before sign-off (run without a shell)
    #[arg(long, value_name = "CMD")]
    pub verify: Option<String>,
    /// How it could look done while being wrong (repeatable)
    #[arg(long = "failure-mode", value_name = "TEXT")]
    pub failure_modes: Vec<String>,
    /// A subtask (repeatable)
    #[arg(long = "subtask", value_name = "TEXT")]
    pub subtasks: Vec<String>,
    /// A goal that must be done first (repeatable, or comma-separated)
    #[arg(long = "depends-on", value_name = "ID", value_delimiter = ',')]
    pub depends_on: Vec<String>,
    /// Start from a goal template: `feature`, `bugfix`, `refactor`, or
    /// `.plan/templates/NAME.md` (`plan templates` lists them); the flags above add
    /// to it (done_when and verify replace its own)
    #[arg(long, value_name = "NAME")]
    pub template: Option<String>,
    /// Start it at once (logs its contract)
    #[arg(long)]
    pub active: bool,
    /// Print the id, status, contract and the log lines written, as JSON
    #[arg(long)]
    pub json: bool,
}

impl From<Args> for Request {
    fn from(args: Args) -> Request {
        Request {
            title: args.title,
            done_when: args.done_when,
            verify: args.verify,
            failure_modes: args.failure_modes,
            subtasks: args.subtasks,
            depends_on: args.depends_on,
            template: args.template,
            active: args.active,
        }
    }
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let json = args.json;
    // A template may bring its own done_when; without either, lint flags the goal.
    let no_done_when = args.template.is_none()
        && args
            .done_when
            .as_deref()
            .is_none_or(|d| ops::one_line(d).is_empty());
    let added = add(env, Request::from(args))?;
    if no_done_when {
        crate::out::warn(&format!(
            "plan: warning: goal \"{id}\" has no done_when, so plan lint fails on it\n  hint: plan edit {id} --done-when \"what a reviewer can check\"",
            id = added.id
        ));
    }
    if json {
        println(&crate::out::json(&added)?)?;
    } else {
        println(&added.id)?;
    }
    Ok(OK)
}

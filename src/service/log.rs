//! Appending one line to the log (`plan log`, MCP's `plan_log`). Never one of plan's own event forms:
//! those are what the sign-off and contract checks read.

use anyhow::Result;
use serde::Serialize;

use crate::clock;
use crate::ctx::Env;
use crate::exit::Exit;
use crate::plan::{event, ops, precondition};

/// The line logged: what `plan log` says and `plan_log` returns.
#[derive(Debug, Serialize)]
pub struct Logged {
    /// The log line written, without its `- `.
    pub line: String,
}

impl Logged {
    pub fn text(&self) -> String {
        format!("- {}", self.line)
    }
}

/// Appends `text`, made one line, to the log, unless it reads like plan's own event;
/// with `goal`, as `ID TEXT` for the goal that query names.
pub fn append(env: &Env, text: &str, goal: Option<&str>) -> Result<Logged> {
    let ctx = env.ctx()?;
    let text = ops::one_line(text);
    if text.is_empty() {
        return Err(Exit::usage_hint(
            "nothing to log",
            "plan log \"what happened\"",
        ));
    }
    crate::service::plain("the log text", &text)?;
    if event::reserved(&text) {
        return Err(Exit::usage_hint(
            format!(
                "\"{text}\" reads like a line plan writes itself (a sign-off, a contract fingerprint, a status change)"
            ),
            "those are recorded by `plan add`, `plan start`, `plan subgoal`, `plan complete` and `plan cancel`; log progress in other words",
        ));
    }
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    // A goal's history is the log lines that begin with its id.
    let text = match goal {
        Some(query) => {
            let line = format!("{} {text}", ctx.lookup(&plan, query)?.id);
            if event::reserved(&line) {
                return Err(Exit::usage_hint(
                    format!(
                        "\"{line}\" reads like a line plan writes itself (a sign-off, a contract fingerprint, a status change)"
                    ),
                    "those are recorded by `plan add`, `plan start`, `plan subgoal`, `plan complete` and `plan cancel`; log progress in other words",
                ));
            }
            line
        }
        None => text,
    };
    // The write parses the file again: one parse of a long plan at a time.
    drop(plan);
    let stamp = clock::now()?.stamp();
    ctx.store
        .write_checked(&src, vec![ops::log(&stamp, &text)], precondition::intact)?;
    Ok(Logged {
        line: format!("{stamp} {text}"),
    })
}

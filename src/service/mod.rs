//! The services under the commands: each takes a request and returns a typed
//! result, which a command prints and `plan mcp` returns as fields. The sign-off,
//! the largest, has its own module (`crate::signoff`).

use anyhow::Result;

use crate::exit::Exit;
use crate::plan::text::{escape_controls, first_control};

pub mod add;
pub mod inject;
pub mod log;
pub mod show;
pub mod start;
pub mod tick;

/// Refuses `text`, given as `what` and bound for a line of plan.md, when it holds a
/// control character (NUL, ESC, BEL, a line break inside a quoted verify…): written
/// raw it makes git read plan.md as binary, or ends the line early. Checked on the
/// text as it would be written (whitespace already made one space).
pub fn plain(what: &str, text: &str) -> Result<()> {
    match first_control(text) {
        None => Ok(()),
        Some(c) => Err(Exit::usage_hint(
            format!(
                "{what} holds a control character ({}): \"{}\"; nothing was written",
                escape_controls(&c.to_string()),
                escape_controls(text)
            ),
            if matches!(c, '\n' | '\r') {
                // Only a quoted verify keeps one: prose is made one line first.
                "a line break inside quotes would end the line in plan.md early: put the command in a script and verify the script"
            } else {
                "leave it out, or name it in words (ESC, NUL, BEL): written raw into plan.md it makes git read the file as binary"
            },
        )),
    }
}

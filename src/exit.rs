//! Exit codes, in one place. README's "Exit codes" table documents the same four.

use std::fmt;

/// Success.
pub const OK: u8 = 0;
/// A check failed: lint found problems, the judge rejected, verify failed.
pub const CHECK_FAILED: u8 = 1;
/// Bad usage or a plan.md problem: format errors, refused transitions, conflicts.
pub const USAGE: u8 = 2;
/// The environment is wrong: no git repository, unreadable files, no judge to run.
pub const ENVIRONMENT: u8 = 3;

/// An error that knows its exit code. `main` prints it once.
#[derive(Debug)]
pub struct Exit {
    pub code: u8,
    /// `None`: the command already printed what the user needs.
    pub message: Option<String>,
    /// Printed as is, without the `plan: ` prefix (diagnostics carry their place).
    pub raw: bool,
}

impl Exit {
    fn error(code: u8, message: impl Into<String>) -> anyhow::Error {
        anyhow::Error::new(Exit {
            code,
            message: Some(message.into()),
            raw: false,
        })
    }

    pub fn usage(message: impl Into<String>) -> anyhow::Error {
        Exit::error(USAGE, message)
    }

    pub fn env(message: impl Into<String>) -> anyhow::Error {
        Exit::error(ENVIRONMENT, message)
    }

    /// Rendered diagnostics, which start with their own `plan.md:N:` place.
    pub fn diagnostics(code: u8, rendered: String) -> anyhow::Error {
        anyhow::Error::new(Exit {
            code,
            message: Some(rendered),
            raw: true,
        })
    }
}

impl Exit {
    /// Exit with `code`; the command has said everything already.
    pub fn quiet(code: u8) -> anyhow::Error {
        anyhow::Error::new(Exit {
            code,
            message: None,
            raw: false,
        })
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message.as_deref().unwrap_or("exit"))
    }
}

impl std::error::Error for Exit {}

impl From<crate::plan::ops::Refusal> for anyhow::Error {
    fn from(r: crate::plan::ops::Refusal) -> Self {
        Exit::usage(format!("{}\n  hint: {}", r.message, r.hint))
    }
}

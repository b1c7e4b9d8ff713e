//! Exit codes, in one place. The "Exit codes" table of docs/src/troubleshooting.md documents the same four.

use std::fmt;

/// Success.
pub const OK: u8 = 0;
/// A check failed: lint found problems, the judge rejected, verify failed.
pub const CHECK_FAILED: u8 = 1;
/// Bad usage or a plan.md problem: format errors, refused transitions, conflicts.
pub const USAGE: u8 = 2;
/// The environment is wrong: no git repository, unreadable files, no judge to run.
pub const ENVIRONMENT: u8 = 3;

/// An error that knows its exit code. `main` prints it once, with [`Exit::render`].
#[derive(Debug)]
pub struct Exit {
    pub code: u8,
    /// `None`: the command already printed what the user needs.
    pub message: Option<String>,
    /// What to do about it, shown under the message as `  hint: …`.
    pub hint: Option<String>,
    /// Printed as is, without the `plan: ` prefix (diagnostics carry their place).
    pub raw: bool,
}

impl Exit {
    fn error(code: u8, message: impl Into<String>, hint: Option<String>) -> anyhow::Error {
        anyhow::Error::new(Exit {
            code,
            message: Some(message.into()),
            hint,
            raw: false,
        })
    }

    pub fn usage(message: impl Into<String>) -> anyhow::Error {
        Exit::error(USAGE, message, None)
    }

    /// A usage error and what to do about it.
    pub fn usage_hint(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
        Exit::error(USAGE, message, Some(hint.into()))
    }

    /// A check that failed (exit 1) and what to do about it.
    pub fn check_failed_hint(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
        Exit::error(CHECK_FAILED, message, Some(hint.into()))
    }

    pub fn env(message: impl Into<String>) -> anyhow::Error {
        Exit::error(ENVIRONMENT, message, None)
    }

    /// An environment error and what to do about it.
    pub fn env_hint(message: impl Into<String>, hint: impl Into<String>) -> anyhow::Error {
        Exit::error(ENVIRONMENT, message, Some(hint.into()))
    }

    /// How the user sees it: `plan: message` (or the raw diagnostics), then the hint.
    /// `None` when the command already said everything.
    pub fn render(&self) -> Option<String> {
        let message = self.message.as_deref()?;
        let mut out = if self.raw {
            message.to_string()
        } else {
            format!("plan: {message}")
        };
        if let Some(hint) = &self.hint {
            out.push_str("\n  hint: ");
            out.push_str(hint);
        }
        Some(out)
    }

    /// Any error as the user sees it, with its exit code: an [`Exit`] as
    /// [`Exit::render`] shows it, anything else as `plan: cause: cause` with exit 3.
    /// The one way the CLI, `plan install`'s per-host lines and MCP replies print an
    /// error.
    pub fn shown(err: &anyhow::Error) -> (u8, Option<String>) {
        let (code, shown) = match err.downcast_ref::<Exit>() {
            Some(exit) => (exit.code, exit.render()),
            None => (ENVIRONMENT, Some(format!("plan: {err:#}"))),
        };
        // ENOSPC, whatever write met it ("cannot write plan.md: No space left on
        // device"), is said first for what it is.
        let shown = shown.map(|s| match s.strip_prefix("plan: ") {
            Some(rest) if crate::disk::says_full(&s) && !rest.contains(" is full") => {
                format!("plan: the disk is full: {rest}")
            }
            _ => s,
        });
        (code, shown)
    }

    /// What an error says, in a line of its own: an [`Exit`]'s message without its
    /// hint, anything else with its causes; for a message that quotes it.
    pub fn said(err: &anyhow::Error) -> String {
        match err.downcast_ref::<Exit>() {
            Some(Exit {
                message: Some(message),
                ..
            }) => message.clone(),
            _ => format!("{err:#}"),
        }
    }

    /// Rendered diagnostics, which start with their own `plan.md:N:` place.
    pub fn diagnostics(code: u8, rendered: String) -> anyhow::Error {
        anyhow::Error::new(Exit {
            code,
            message: Some(rendered),
            hint: None,
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
            hint: None,
            raw: false,
        })
    }
}

impl fmt::Display for Exit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message.as_deref().unwrap_or("exit"))?;
        match &self.hint {
            Some(hint) => write!(f, "\n  hint: {hint}"),
            None => Ok(()),
        }
    }
}

impl std::error::Error for Exit {}

/// A refusal is a usage error: the caller asked for something the plan does not allow.
/// Here rather than beside `Refusal` (plan/ops.rs), which imports nothing outside the
/// pure core.
impl From<crate::plan::ops::Refusal> for anyhow::Error {
    fn from(r: crate::plan::ops::Refusal) -> Self {
        Exit::usage_hint(r.message, r.hint)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_disk_is_said_first_whatever_write_met_it() {
        let err = Exit::env(
            "cannot write plan.md: No space left on device (os error 28); nothing was changed",
        );
        assert_eq!(
            Exit::shown(&err).1.unwrap(),
            "plan: the disk is full: cannot write plan.md: No space left on device (os error 28); nothing was changed"
        );
        let said =
            Exit::env("the disk holding /r/.git is full (0 KB free): No space left on device");
        assert_eq!(
            Exit::shown(&said).1.unwrap(),
            "plan: the disk holding /r/.git is full (0 KB free): No space left on device"
        );
    }

    #[test]
    fn the_hint_is_data_and_renders_under_the_message() {
        let err = Exit::usage_hint("no goal \"x\"", "goals are a, b");
        let exit = err.downcast_ref::<Exit>().unwrap();
        assert_eq!(exit.hint.as_deref(), Some("goals are a, b"));
        assert_eq!(
            exit.render().unwrap(),
            "plan: no goal \"x\"\n  hint: goals are a, b"
        );
        assert_eq!(
            Exit::usage("plain").downcast_ref::<Exit>().unwrap().hint,
            None
        );
    }
}

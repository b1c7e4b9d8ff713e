//! The judge backends by name: every host, then `llm`, `command` and `none`, with
//! the program `auto` looks for. A leaf, so settings (`config`) name a backend
//! without importing the judge; the judge's argv for each is in `judge/backend.rs`.

use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

use anyhow::{Result, bail};

use super::Host;
use super::invocation::Format;

/// Declares [`Backend`] from one table: a host's CLI (from `hosts!`), then each
/// row here: a variant, its name (as `--judge` and `judge.backend` take it), the
/// program `auto` looks for on PATH, whether `auto` tries it (after every host), and
/// the function building its argv. A new backend that is not a host is one row
/// plus that function. Its answer is plain text.
macro_rules! backends {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, program: $program:expr, auto: $auto:literal;
    )*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Backend {
            /// A host's own CLI, run headless and read-only.
            Host(Host),
            $($(#[$doc])* $variant,)*
        }

        /// The backends that are not a host, in `Backend::ALL`'s order.
        const OTHERS: [Other; [$($name),*].len()] = [$(Other {
            backend: Backend::$variant,
            name: $name,
            program: $program,
            auto: $auto,
        }),*];
    };
}

/// A backend that is not a host: one row of `backends!`.
struct Other {
    backend: Backend,
    name: &'static str,
    program: Option<&'static str>,
    auto: bool,
}

backends! {
    /// The `llm` CLI, which sees only what the prompt carries.
    Llm = "llm", program: Some("llm"), auto: true;
    /// The argv in `judge.command`; its program is named there, so `auto` skips it.
    Command = "command", program: None, auto: false;
    /// No judge: runs nothing.
    None = "none", program: None, auto: false;
}

impl Backend {
    /// Every backend: the hosts in the order `auto` tries them, then the rest.
    pub const ALL: [Backend; Host::ALL.len() + OTHERS.len()] = {
        let mut all = [OTHERS[0].backend; Host::ALL.len() + OTHERS.len()];
        let mut i = 0;
        while i < Host::ALL.len() {
            all[i] = Backend::Host(Host::ALL[i]);
            i += 1;
        }
        let mut j = 0;
        while j < OTHERS.len() {
            all[i + j] = OTHERS[j].backend;
            j += 1;
        }
        all
    };

    /// The row of a backend that is not a host.
    fn other(self) -> &'static Other {
        OTHERS
            .iter()
            .find(|o| o.backend == self)
            .expect("every backend but a host has a row in backends!")
    }

    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Host(host) => host.name(),
            other => other.other().name,
        }
    }

    /// The executable `auto` looks for on PATH. `command` and `none` have none: the
    /// first names its program in config, the second runs nothing.
    pub fn program(self) -> Option<&'static str> {
        match self {
            Backend::Host(host) => Some(host.spec().judge.program),
            other => other.other().program,
        }
    }

    /// What the backend's answer comes in.
    pub fn format(self) -> Format {
        match self {
            Backend::Host(host) => host.spec().judge.format,
            _ => Format::Text,
        }
    }
}

/// The order `auto` tries backends in: agents that can read the repository themselves
/// first, `llm` (which only sees what the prompt carries) last.
pub fn auto_order() -> Vec<Backend> {
    Host::ALL
        .into_iter()
        .map(Backend::Host)
        .chain(OTHERS.iter().filter(|o| o.auto).map(|o| o.backend))
        .collect()
}

/// "claude, codex, …, llm", the backends `auto` tries, for messages.
pub fn auto_names() -> String {
    let names: Vec<&str> = auto_order().into_iter().map(Backend::as_str).collect();
    names.join(", ")
}

/// "claude, codex, … and llm", the same for prose.
pub fn auto_names_and() -> String {
    let names = auto_names();
    match names.rsplit_once(", ") {
        Some((head, last)) => format!("{head} and {last}"),
        None => names,
    }
}

/// "claude, codex, …, llm or command": every backend that runs a model.
pub fn model_names() -> String {
    let names: Vec<&str> = Backend::ALL
        .iter()
        .filter(|b| **b != Backend::None)
        .map(|b| b.as_str())
        .collect();
    let names = names.join(", ");
    match names.rsplit_once(", ") {
        Some((head, last)) => format!("{head} or {last}"),
        None => names,
    }
}

/// The backend `auto` picks: the first in `auto_order` whose program `find` locates,
/// with where it is. `find` is the PATH search, passed in to keep this file pure.
pub fn resolve_auto(find: impl Fn(&str) -> Option<PathBuf>) -> Option<(Backend, PathBuf)> {
    auto_order()
        .into_iter()
        .find_map(|b| Some((b, find(b.program()?)?)))
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backend {
    type Err = anyhow::Error;

    fn from_str(word: &str) -> Result<Backend> {
        if let Some(backend) = Backend::ALL.into_iter().find(|b| b.as_str() == word) {
            return Ok(backend);
        }
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.as_str()).collect();
        bail!(
            "unknown judge backend \"{word}\"\n  hint: expected auto, {}",
            names.join(", ")
        )
    }
}

//! The pi coding agent: plan's extension file, the events it relays, its answers,
//! and pi's read-only judge.
//!
//! Protocol facts the code relies on (checked with pi 0.73.1):
//! - pi has no shell hooks: extensions are TypeScript modules in `.pi/extensions/`
//!   (project: loaded with no trust step up to 0.73.1, the last under the name
//!   `@mariozechner/pi-coding-agent`; from 0.80, as `@earendil-works/pi-coding-agent`
//!   on node 22, only in a trusted project: `/trust`, `--approve`, or the setting
//!   `defaultProjectTrust`) or `~/.pi/agent/extensions/`
//!   (`PI_CODING_AGENT_DIR`, with `~` expanded, replaces `~/.pi/agent`). plan's
//!   extension (integrations/pi/plan.ts) is a thin shell that relays events to
//!   `plan hook pi EVENT` and acts on the answer; the decisions are made in Rust.
//! - Events relayed: `session_start`, `before_agent_start` (may return a message,
//!   sent to the model as a user-role message after the prompt, in every request),
//!   `tool_result`, `session_before_compact` (its extra instructions reach pi's
//!   summariser: plan answers with the plan's skeleton), `turn_end`.
//! - pi has no stop veto, and a follow-up sent from `agent_end` is never delivered
//!   in `-p` mode. On the final `turn_end` (no tool calls) the extension queues the
//!   continuation as a follow-up that triggers another turn; a `turn_end` that still
//!   has tool calls (`has_tool_calls`) is not the end. pi 0.80.4 and later (its
//!   `VERSION`) fire `agent_settled` once a run's retries, compaction retries and
//!   queued follow-ups are over: the extension keeps the final turn and asks plan
//!   there (still as `turn-end`), and a follow-up sent from it starts another run,
//!   in print mode too (seen with 0.87.1, though pi's documentation calls the event
//!   notification-only). Caps are plan's.
//! - Answers: JSON on stdout, always: `{message}` for the model, `{notice}` for the
//!   person (printed on stderr in print mode), `{}` for nothing.
//! - Judge: `pi -p --tools read,grep,find,ls --no-session --no-extensions PROMPT`
//!   (the prompt last; text mode prints the final answer, exit 1 on error).

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::invocation::{Invocation, Request};
use super::protocol::Kind;
use super::{Event, Judge, Registration, Spec, event, is_script, render_to_script, script_calling};

/// plan's extension. Its first line marks it as plan's, so uninstall never deletes
/// someone else's file of the same name.
pub const EXTENSION: &str = include_str!("../../integrations/pi/plan.ts");

pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "session_start", None, 10),
    event(
        "before-agent-start",
        Kind::Prompt,
        "before_agent_start",
        None,
        10,
    ),
    event("tool-result", Kind::Tool, "tool_result", None, 10),
    event(
        "session-before-compact",
        Kind::Compact,
        "session_before_compact",
        None,
        10,
    ),
    event("turn-end", Kind::Stop, "turn_end", None, 10),
];

pub static HOST: Spec = Spec {
    name: "pi",
    title: "pi",
    events: EVENTS,
    render: render_to_script,
    registration: Registration::File {
        project: ".pi/extensions/plan.ts",
        user,
        what: "extension",
        text: extension,
        is_ours: is_extension,
    },
    next_steps,
    fresh_context: "/new",
    skeleton_at_compaction: true,
    judge: Judge {
        program: "pi",
        invocation: judge,
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

/// pi's agent directory: `PI_CODING_AGENT_DIR` (with `~` expanded, as pi does) or
/// `~/.pi/agent`.
fn agent_dir(home: &Path) -> PathBuf {
    let Some(dir) = crate::env::os("PI_CODING_AGENT_DIR").filter(|d| !d.is_empty()) else {
        return home.join(".pi").join("agent");
    };
    let dir = PathBuf::from(dir);
    match dir.strip_prefix("~") {
        Ok(rest) => home.join(rest),
        Err(_) => dir,
    }
}

fn user(home: &Path) -> PathBuf {
    agent_dir(home).join("extensions").join("plan.ts")
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    // pi from 0.80 loads a project's `.pi/extensions` only in a trusted project;
    // a user's own extensions load everywhere, as in every version.
    Ok(match root {
        Some(_) => "next: start a new pi session, or /reload in a running one\n  pi 0.80 and later load a project's .pi/extensions only in a trusted project:\n  trust it when pi asks (or /trust); headless, run `pi --approve -p …`\n  or register for your user instead: `plan install pi --global` (loaded in every project)\n",
        None => "next: pi loads extensions with no trust step: start a new pi session, or /reload in a running one\n",
    }
    .to_string())
}

/// The extension, calling `program`.
pub fn extension(program: &str) -> String {
    script_calling(EXTENSION, program)
}

/// Whether a file's text is an extension plan wrote: its first line is ours.
pub fn is_extension(text: &str) -> bool {
    is_script(EXTENSION, text)
}

fn judge(r: &Request) -> Invocation {
    // No stdin prompt is documented for pi, so the prompt goes last in argv;
    // `--no-extensions` keeps project extensions (pi's hooks) out of the run.
    // Isolated from the repository: it starts in a directory of its own, so the
    // root's `.pi/` (settings, SYSTEM.md, which replaces the system prompt) does not
    // load, and `--no-context-files` keeps AGENTS.md and CLAUDE.md out. Its tools
    // read the root by absolute path.
    let mut inv = Invocation::new("pi", false);
    inv.start_in(r.workdir);
    inv.push(&[
        "-p",
        "--tools",
        "read,grep,find,ls",
        "--no-session",
        "--no-extensions",
        "--no-skills",
        "--no-prompt-templates",
        "--no-context-files",
    ]);
    if let Some(model) = r.model {
        inv.push(&["--model", model]);
    }
    if !r.system.is_empty() {
        inv.push(&["--append-system-prompt", r.system]);
    }
    inv
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::hosts::protocol::Answer;

    /// Every key plan answers pi with is one the extension reads: a `notice` it
    /// ignored meant a pi user never learned why the loop let go.
    #[test]
    fn the_extension_reads_every_key_of_plans_answers() {
        for answer in [
            Answer::Context("x".into()),
            Answer::Block("x".into()),
            Answer::Note("x".into()),
        ] {
            let v: Value =
                serde_json::from_str(&render_to_script(Kind::Stop, "turn_end", &answer).0).unwrap();
            for key in v.as_object().unwrap().keys() {
                assert!(
                    EXTENSION.contains(&format!("{key}?: unknown")),
                    "integrations/pi/plan.ts does not read \"{key}\""
                );
            }
        }
    }
}

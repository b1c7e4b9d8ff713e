//! The host protocol's own types, shared by every host's module and the hook loop:
//! the kinds of event, the answers plan gives, the answer shapes several hosts
//! share, and the command line a host runs to call plan. A leaf: it imports nothing
//! of plan's, so `hosts/` never reaches up into `hooks/`.

use std::borrow::Cow;

use serde_json::{Value, json};

/// The program the registered commands run unless `--command` says otherwise: found
/// on PATH, so a settings file can be committed and shared.
pub const DEFAULT_PROGRAM: &str = "plan";

/// What an event asks of plan, whatever the host calls it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A session starts, resumes, or comes back from a compaction: inject.
    Start,
    /// The user sent a prompt: inject if due.
    Prompt,
    /// A tool ran: count file edits, remind if due.
    Tool,
    /// A compaction is coming.
    Compact,
    /// The agent wants to stop: the continuation guard.
    Stop,
    /// A subagent starts: it is told the name its claims go under.
    SubagentStart,
    /// A subagent wants to stop: held while a goal it claimed is not signed off.
    SubagentStop,
    /// A task of the host's task list is marked completed: refused while a goal it
    /// names is not signed off.
    TaskDone,
    /// A tool is about to run: a call that marks the host's own goal complete
    /// (Codex's `update_goal`) is refused while plan's loop has goals not signed off.
    PreTool,
}

/// What plan has to say to the host.
#[derive(Debug, PartialEq, Eq)]
pub enum Answer {
    Nothing,
    /// Context for the model (injection, reminder, skeleton).
    Context(String),
    /// Veto a stop; the reason is the agent's next instruction.
    Block(String),
    /// A message for the user, not the model.
    Note(String),
    /// Refuse a tool call; the reason is what the model is told instead of its result.
    Deny(String),
}

/// Claude Code's answer shapes, which other hosts copied: `None` for nothing.
pub fn claude_json(event: &str, answer: &Answer) -> Option<Value> {
    Some(match answer {
        Answer::Nothing => return None,
        Answer::Context(text) => json!({
            "hookSpecificOutput": { "hookEventName": event, "additionalContext": text }
        }),
        Answer::Block(reason) => json!({ "decision": "block", "reason": reason }),
        Answer::Note(text) => json!({ "systemMessage": text }),
        Answer::Deny(reason) => json!({
            "hookSpecificOutput": {
                "hookEventName": event,
                "permissionDecision": "deny",
                "permissionDecisionReason": reason,
            }
        }),
    })
}

/// An answer as one JSON line on stdout; `empty` when there is nothing to say (some
/// hosts want `{}` even then).
pub fn out(answer: Option<Value>, empty: &str) -> (String, String) {
    match answer {
        Some(v) => (format!("{v}\n"), String::new()),
        None => (empty.to_string(), String::new()),
    }
}

/// The shell command a host runs for `slug` (as in `plan hook HOST SLUG`). Hosts run
/// it through a shell, so an unusual program path is quoted.
pub fn hook_command(program: &str, host: &str, slug: &str) -> String {
    format!("{} hook {host} {slug}", shell_word(program))
}

/// Whether a hook command's part before ` hook HOST EVENT` is a program a person
/// may have chosen and a reinstall keeps: one shell word (plain, or single-quoted
/// as [`shell_word`] writes it), after any `NAME=value` assignments of plain
/// words (`PLAN_FILE=docs/plan.md plan`). Anything else (`exit 0; plan`) is no
/// program of plan's choosing, and is put back.
pub fn is_plain_program(prefix: &str) -> bool {
    let plain = |w: &str| {
        !w.is_empty()
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"_./:@%+=,-".contains(&b))
    };
    let quoted = |w: &str| {
        w.len() >= 2
            && w.starts_with('\'')
            && w.ends_with('\'')
            && !w[1..w.len() - 1].contains('\'')
    };
    if quoted(prefix) {
        return true;
    }
    let mut words: Vec<&str> = prefix.split(' ').collect();
    let Some(program) = words.pop() else {
        return false;
    };
    let assignment = |w: &str| {
        w.split_once('=').is_some_and(|(name, value)| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_')
                && (value.is_empty() || plain(value))
        })
    };
    plain(program) && !program.contains('=') && words.into_iter().all(assignment)
}

/// The program a hook's command prefix starts: its last word when the words
/// before it are `NAME=value` assignments (`PLAN_FILE=docs/plan.md plan`), else
/// the prefix as it is.
pub fn program_word(prefix: &str) -> &str {
    match prefix.rsplit_once(' ') {
        Some((assignments, program))
            if is_plain_program(prefix) && !assignments.is_empty() && !prefix.starts_with('\'') =>
        {
            program
        }
        _ => prefix,
    }
}

/// `word` as one shell word: as it is when plain, else single-quoted.
pub fn shell_word(word: &str) -> Cow<'_, str> {
    let plain = !word.is_empty()
        && word
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"_./:@%+=,-".contains(&b));
    if plain {
        Cow::Borrowed(word)
    } else {
        Cow::Owned(format!("'{}'", word.replace('\'', r"'\''")))
    }
}

/// Strict JSON, with comments where the host reads them (Gemini CLI does): how a
/// host's settings file is read, by install and by the host that reads it back.
pub fn strict_jsonc(comments: bool) -> jsonc_parser::ParseOptions {
    jsonc_parser::ParseOptions {
        allow_comments: comments,
        allow_loose_object_property_names: false,
        allow_trailing_commas: false,
        allow_missing_commas: false,
        allow_single_quoted_strings: false,
        allow_hexadecimal_numbers: false,
        allow_unary_plus_numbers: false,
        allow_bare_decimal_point_numbers: false,
        allow_non_finite_numbers: false,
        allow_extended_string_escapes: false,
    }
}

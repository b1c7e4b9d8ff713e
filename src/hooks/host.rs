//! What plan makes of any host's hook call: the kinds of event, the fields read
//! from the host's JSON, the answers plan gives, and the answer shapes several hosts
//! share. Each host's own events and rendering are in its module under
//! `src/hosts/`. Lenient in what it reads; sends only fields the host accepts.

use std::path::PathBuf;

use serde_json::Value;
#[cfg(test)]
use serde_json::json;

pub use crate::hosts::Host;
pub use crate::hosts::protocol::{Answer, Kind};

/// The event's kind and the name the host gives it in `hookEventName`.
pub fn kind(host: Host, event: &str) -> Option<(Kind, &'static str)> {
    host.event(event).map(|e| (e.kind, e.name))
}

/// The events each host has, for error messages.
pub fn events(host: Host) -> String {
    host.events()
}

/// The fields plan reads from any host's hook JSON.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Input {
    pub session: String,
    pub cwd: Option<PathBuf>,
    /// The host's record of the conversation.
    pub transcript: Option<PathBuf>,
    /// SessionStart's `source`: startup, resume, clear, compact.
    pub source: Option<String>,
    pub tool_name: Option<String>,
    /// The file a tool wrote, when it says.
    pub tool_path: Option<String>,
    /// How the turn ended: plainly, stopped by the person, or on an error.
    pub ending: Ending,
    /// What the host said of that error, where it says ([`error_text`]).
    pub host_said: Option<String>,
    /// pi: this turn end still has tool calls, so it is not the final one.
    pub more_turns: bool,
    /// The stop follows a block of ours (`stop_hook_active`): a continuation in a row.
    pub stop_active: bool,
    /// A prompt event with an empty prompt: Qwen Code fires one before each model
    /// call that follows tool results, with nothing from the person in it.
    pub empty_prompt: bool,
    pub last_message: Option<String>,
    /// What the agent waits on as it stops: running background tasks and agents,
    /// session crons (Claude Code's `background_tasks`, `session_crons`, 2.1.145),
    /// said in one line. `None`: nothing, or the host does not say.
    pub waiting: Option<String>,
    /// A subagent's own id (`agent_id` at SubagentStart and SubagentStop, Claude
    /// Code and Codex; `agentId` with `parentAgentId` in every hook of a Copilot
    /// subagent's turn): the holder name its claims are made under.
    pub agent_id: Option<String>,
    /// An Agent Teams teammate going idle (Claude Code's TeammateIdle
    /// `teammate_name`): a session of its own, whose claims go under its session
    /// or this name.
    pub teammate: Option<String>,
    /// A task's subject and description (Claude Code's TaskCompleted), where it
    /// may name a goal.
    pub task: Option<String>,
    /// The tool call about to run marks the host's own goal complete (Codex's
    /// `update_goal` with `status: complete`, also under a plugin's or server's
    /// prefix).
    pub goal_done: bool,
    /// The tool call that ran reports the host's own goal complete (Codex's
    /// `update_goal` result, `tool_response.goal.status`).
    pub goal_completed: bool,
}

pub fn parse_input(text: &str) -> Result<Input, String> {
    let text = text.trim();
    if text.is_empty() {
        return Ok(Input {
            session: "default".into(),
            ..Input::default()
        });
    }
    let v: Value =
        serde_json::from_str(text).map_err(|e| format!("hook input is not JSON ({e})"))?;
    let s = |key: &str| v.get(key).and_then(Value::as_str).map(str::to_string);
    // Copilot CLI's `toolArgs` may come as a JSON string of the arguments.
    let copilot_args = match v.get("toolArgs") {
        Some(Value::String(text)) => serde_json::from_str(text).ok(),
        other => other.cloned(),
    };
    let tool_input = v
        .get("tool_input")
        .or_else(|| v.get("input"))
        .or(copilot_args.as_ref());
    let tool_path = tool_input.and_then(|ti| {
        [
            "file_path",
            "path",
            "notebook_path",
            "filePath",
            "absolute_path",
        ]
        .iter()
        .find_map(|k| ti.get(*k).and_then(Value::as_str))
        .map(str::to_string)
    });
    let stop_reason = s("stop_reason").or_else(|| s("stopReason"));
    // The host's own goal tool (Codex's `update_goal`), also under a plugin's or
    // server's prefix.
    let goal_tool = s("tool_name")
        .or_else(|| s("toolName"))
        .is_some_and(|name| {
            // Codex's MCP names are `mcp__server__tool`, OpenCode's `server_tool`.
            name == "update_goal"
                || name.ends_with("_update_goal")
                || name.ends_with(".update_goal")
        });
    let failed = v
        .get("error")
        .is_some_and(|e| !e.is_null() && e != &Value::Bool(false))
        || stop_reason.as_deref() == Some("error")
        || s("hook_event_name").as_deref() == Some("StopFailure");
    // An abort is the person's doing, whatever error text comes with it (pi says
    // "Request was aborted").
    let aborted = matches!(
        stop_reason.as_deref(),
        Some("aborted" | "cancelled" | "canceled" | "interrupted")
    );
    let host_said = (failed && !aborted).then(|| error_text(&v)).flatten();
    let ending = match () {
        _ if aborted => Ending::Aborted,
        _ if !failed => Ending::Plain,
        _ if lasting(&v, host_said.as_deref()) => Ending::LastingError,
        _ => Ending::Error,
    };
    Ok(Input {
        session: s("session_id")
            .or_else(|| s("sessionId"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "default".into()),
        cwd: s("cwd").map(PathBuf::from),
        transcript: s("transcript_path").map(PathBuf::from),
        source: s("source"),
        tool_name: s("tool_name").or_else(|| s("toolName")),
        tool_path,
        host_said,
        ending,
        more_turns: v
            .get("has_tool_calls")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        empty_prompt: v.get("prompt").and_then(Value::as_str) == Some(""),
        stop_active: ["stop_hook_active", "stopHookActive"]
            .iter()
            .any(|k| v.get(*k).and_then(Value::as_bool) == Some(true)),
        last_message: s("last_assistant_message")
            .or_else(|| s("prompt_response"))
            .or_else(|| s("last_message")),
        waiting: waiting(&v, s("agent_id").as_deref()),
        // Copilot names a subagent's own turn by `agentId` beside its parent's.
        agent_id: s("agent_id")
            .or_else(|| s("agentId").filter(|_| s("parentAgentId").is_some()))
            .filter(|a| !a.is_empty()),
        teammate: s("teammate_name")
            .filter(|_| s("hook_event_name").as_deref() == Some("TeammateIdle"))
            .filter(|name| !name.is_empty()),
        task: s("task_subject").map(|subject| {
            let description = s("task_description").unwrap_or_default();
            format!("{subject}\n{description}")
        }),
        goal_done: goal_tool && tool_input.is_some_and(|ti| is_complete(ti.get("status"))),
        goal_completed: goal_tool && is_complete(v.pointer("/tool_response/goal/status")),
    })
}

/// Whether a goal's status says complete.
fn is_complete(status: Option<&Value>) -> bool {
    status.and_then(Value::as_str).is_some_and(|status| {
        matches!(
            status.trim().to_ascii_lowercase().as_str(),
            "complete" | "completed" | "done"
        )
    })
}

/// The most background tasks named in a note; the rest are counted.
const NAMED_TASKS: usize = 3;

/// What a stop waits on, in one line: Claude Code lists the background tasks and
/// agents still running or pending (each `{id, type, status, description, …}`) and
/// the session's crons. Only running or pending ones count, whatever the host
/// lists, so a later version that lists finished ones does not hold a stop open.
/// A subagent's own stop lists the subagent itself as running (Claude Code
/// 2.1.330, whose subagents run in the background): `agent` is left out, or it
/// would always be waiting on itself.
fn waiting(v: &Value, agent: Option<&str>) -> Option<String> {
    let tasks: Vec<&Value> = v
        .get("background_tasks")
        .and_then(Value::as_array)
        .map(|a| {
            a.iter()
                .filter(|t| agent.is_none() || t.get("id").and_then(Value::as_str) != agent)
                .filter(|t| {
                    t.get("status")
                        .and_then(Value::as_str)
                        .is_none_or(|s| matches!(s, "running" | "pending"))
                })
                .collect()
        })
        .unwrap_or_default();
    let crons = v
        .get("session_crons")
        .and_then(Value::as_array)
        .map_or(0, Vec::len);
    if tasks.is_empty() && crons == 0 {
        return None;
    }
    let mut parts = Vec::new();
    if !tasks.is_empty() {
        let named: Vec<String> = tasks
            .iter()
            .take(NAMED_TASKS)
            .map(|t| {
                let field = |k: &str| t.get(k).and_then(Value::as_str).unwrap_or("").trim();
                let kind = Some(field("type"))
                    .filter(|k| !k.is_empty())
                    .unwrap_or("task");
                let what = [field("description"), field("command"), field("id")]
                    .into_iter()
                    .find(|w| !w.is_empty())
                    .unwrap_or("");
                let what: String = what.split_whitespace().collect::<Vec<_>>().join(" ");
                let what: String = what.chars().take(60).collect();
                format!("{kind}: {what}")
            })
            .collect();
        let more = tasks.len().saturating_sub(NAMED_TASKS);
        let more = if more > 0 {
            format!(", {more} more")
        } else {
            String::new()
        };
        parts.push(format!(
            "{} ({}{more})",
            crate::plan::text::count(tasks.len(), "background task"),
            named.join("; ")
        ));
    }
    if crons > 0 {
        parts.push(crate::plan::text::count(crons, "session cron"));
    }
    Some(parts.join(" and "))
}

/// How a turn ended, as the host tells it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Ending {
    /// A plain stop: the agent says it is done.
    #[default]
    Plain,
    /// The person stopped the turn (Esc): no error.
    Aborted,
    /// An error the next turn may well get past: a cut-off answer
    /// (`max_output_tokens`), a bad request, an unknown one.
    Error,
    /// An error no retry gets past by itself right away: a rate limit, a login or
    /// key refused, billing or quota, a server down or overloaded.
    LastingError,
}

/// Claude Code's StopFailure `error` kinds (src/hosts/claude.rs) that no retry gets
/// past by itself right away.
const LASTING_KINDS: &[&str] = &[
    "rate_limit",
    "authentication_failed",
    "billing_error",
    "server_error",
];

/// Claude Code's other kinds: a retry may get past them, so they never pause.
const PASSING_KINDS: &[&str] = &["invalid_request", "max_output_tokens", "unknown"];

/// What other hosts' error words say of an error no retry gets past at once
/// (lowercased; numbers are HTTP statuses, matched whole).
const LASTING_WORDS: &[&str] = &[
    "rate_limit",
    "rate limit",
    "ratelimit",
    "too many requests",
    "quota",
    "billing",
    "credit balance",
    "authentication",
    "unauthorized",
    "not logged in",
    "api key",
    "overloaded",
    "server_error",
    "server error",
    "unavailable",
    "401",
    "402",
    "403",
    "429",
    "500",
    "502",
    "503",
    "504",
    "529",
];

/// Whether an error is one no retry gets past right away. Claude Code names its kind
/// (`error`), and that decides; any other host's words are looked through.
fn lasting(v: &Value, said: Option<&str>) -> bool {
    if let Some(kind) = v.get("error").and_then(Value::as_str) {
        if LASTING_KINDS.contains(&kind) {
            return true;
        }
        if PASSING_KINDS.contains(&kind) {
            return false;
        }
    }
    let said = said.unwrap_or_default().to_lowercase();
    LASTING_WORDS.iter().any(|word| says(&said, word))
}

/// Whether `text` has `word`; a number only as a whole one (`429`, not the 429 of
/// `4290 tokens`).
fn says(text: &str, word: &str) -> bool {
    if !word.bytes().all(|b| b.is_ascii_digit()) {
        return text.contains(word);
    }
    let digit = |at: Option<usize>| {
        at.and_then(|at| text.as_bytes().get(at))
            .is_some_and(u8::is_ascii_digit)
    };
    text.match_indices(word)
        .any(|(at, _)| !digit(at.checked_sub(1)) && !digit(Some(at + word.len())))
}

/// The most of a host's error text kept: enough for a rate-limit message.
const ERROR_TEXT: usize = 400;

/// What a host said of the error a turn ended on, its fields joined, each once:
/// Claude Code's StopFailure `error` (a kind such as `rate_limit`),
/// `error_details` and `last_assistant_message` (the error as shown); an `error`
/// object's `message` (or `type`); `error_type`, `error_message`. Cut to
/// [`ERROR_TEXT`] characters.
fn error_text(v: &Value) -> Option<String> {
    let s = |key: &str| v.get(key).and_then(Value::as_str);
    let error = v.get("error");
    let parts = [
        error.and_then(Value::as_str),
        s("error_type"),
        error.and_then(|e| e.get("type")).and_then(Value::as_str),
        error.and_then(|e| e.get("message")).and_then(Value::as_str),
        s("error_details"),
        s("error_message"),
        s("last_assistant_message"),
    ];
    let mut said: Vec<&str> = Vec::new();
    for part in parts.into_iter().flatten().map(str::trim) {
        if !part.is_empty() && !said.contains(&part) {
            said.push(part);
        }
    }
    let text = said.join(": ");
    let text = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match text.char_indices().nth(ERROR_TEXT) {
        _ if text.is_empty() => None,
        Some((cut, _)) => Some(format!("{}…", &text[..cut])),
        None => Some(text),
    }
}

/// Whether a tool changes files. Hosts name their editing tools differently
/// (Edit, Write, MultiEdit, NotebookEdit, apply_patch, write_file, replace, …).
pub fn edits_files(tool: &str) -> bool {
    let t = tool.to_ascii_lowercase();
    ["edit", "write", "patch", "replace"]
        .iter()
        .any(|w| t.contains(w))
}

/// The host's JSON on stdout, and anything for stderr.
pub fn render(host: Host, kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    (host.spec().render)(kind, event, answer)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_claude_post_tool_use() {
        let input = parse_input(
            r#"{"session_id":"s1","cwd":"/r","hook_event_name":"PostToolUse","tool_name":"Write",
                "tool_input":{"file_path":"/r/src/a.rs","content":"x"},"tool_response":{"type":"create"}}"#,
        )
        .unwrap();
        assert_eq!(input.session, "s1");
        assert_eq!(input.tool_path.as_deref(), Some("/r/src/a.rs"));
        assert!(edits_files(input.tool_name.as_deref().unwrap()));
        assert!(
            !edits_files("Read")
                && !edits_files("Bash")
                && edits_files("apply_patch")
                && edits_files("write_file")
        );
    }

    #[test]
    fn reads_copilot_tool_args_as_an_object_or_a_json_string() {
        for args in [
            r#"{"path":"/r/a.rs","file_text":"x"}"#,
            r#""{\"path\":\"/r/a.rs\",\"file_text\":\"x\"}""#,
        ] {
            let input = parse_input(&format!(
                r#"{{"sessionId":"s2","timestamp":1,"cwd":"/r","toolName":"create","toolArgs":{args}}}"#
            ))
            .unwrap();
            assert_eq!(input.session, "s2");
            assert_eq!(input.tool_name.as_deref(), Some("create"));
            assert_eq!(input.tool_path.as_deref(), Some("/r/a.rs"), "{args}");
        }
    }

    #[test]
    fn a_host_error_carries_what_the_host_said() {
        let failure = parse_input(
            r#"{"session_id":"s","hook_event_name":"StopFailure","error":"rate_limit","error_details":"429","last_assistant_message":"API Error: 429  rate limited"}"#,
        )
        .unwrap();
        assert_eq!(failure.ending, Ending::LastingError);
        assert_eq!(
            failure.host_said.as_deref(),
            Some("rate_limit: 429: API Error: 429 rate limited")
        );
        let pi = parse_input(
            r#"{"session_id":"s","stop_reason":"error","error_message":"overloaded_error"}"#,
        )
        .unwrap();
        assert_eq!(pi.host_said.as_deref(), Some("overloaded_error"));
        let object = parse_input(
            r#"{"session_id":"s","error":{"type":"rate_limit_error","message":"slow down"}}"#,
        )
        .unwrap();
        assert_eq!(
            object.host_said.as_deref(),
            Some("rate_limit_error: slow down")
        );
        let bare = parse_input(r#"{"session_id":"s","hook_event_name":"StopFailure"}"#).unwrap();
        assert_eq!((bare.ending, bare.host_said), (Ending::Error, None));
        let long = format!(r#"{{"error":"{}"}}"#, "x".repeat(1000));
        let said = parse_input(&long).unwrap().host_said.unwrap();
        assert_eq!(said.chars().count(), ERROR_TEXT + 1);
        // A normal stop says nothing of errors, whatever its last message.
        let fine = parse_input(r#"{"last_assistant_message":"done"}"#).unwrap();
        assert_eq!((fine.ending, fine.host_said), (Ending::Plain, None));
    }

    #[test]
    fn only_errors_no_retry_gets_past_are_lasting() {
        let ending = |json: &str| parse_input(json).unwrap().ending;
        for kind in LASTING_KINDS {
            let json = format!(r#"{{"hook_event_name":"StopFailure","error":"{kind}"}}"#);
            assert_eq!(ending(&json), Ending::LastingError, "{kind}");
        }
        for kind in PASSING_KINDS {
            // Claude Code's kind decides, whatever the message says.
            let json = format!(
                r#"{{"hook_event_name":"StopFailure","error":"{kind}","last_assistant_message":"API Error: 429"}}"#
            );
            assert_eq!(ending(&json), Ending::Error, "{kind}");
        }
        for (json, want) in [
            (
                r#"{"stop_reason":"error","error_message":"overloaded_error"}"#,
                Ending::LastingError,
            ),
            (
                r#"{"error":{"type":"rate_limit_error","message":"slow down"}}"#,
                Ending::LastingError,
            ),
            (
                r#"{"stop_reason":"error","error_message":"HTTP 503 Service Unavailable"}"#,
                Ending::LastingError,
            ),
            (
                r#"{"stop_reason":"error","error_message":"context is 4290 tokens too long"}"#,
                Ending::Error,
            ),
            (r#"{"stop_reason":"error"}"#, Ending::Error),
            (
                r#"{"stop_reason":"aborted","error_message":"Request was aborted"}"#,
                Ending::Aborted,
            ),
            (r#"{"stopReason":"interrupted"}"#, Ending::Aborted),
            (r#"{"stop_reason":"stop"}"#, Ending::Plain),
        ] {
            assert_eq!(ending(json), want, "{json}");
        }
        // An abort says nothing of errors.
        let abort =
            parse_input(r#"{"stop_reason":"aborted","error_message":"Request was aborted"}"#);
        assert_eq!(abort.unwrap().host_said, None);
    }

    #[test]
    fn bad_json_is_an_error_and_empty_input_is_fine() {
        assert!(parse_input("{oops").is_err());
        assert_eq!(parse_input("").unwrap().session, "default");
    }

    #[test]
    fn answers_per_host() {
        let ctx = Answer::Context("block".into());
        let claude: Value =
            serde_json::from_str(&render(Host::Claude, Kind::Start, "SessionStart", &ctx).0)
                .unwrap();
        assert_eq!(
            claude,
            json!({"hookSpecificOutput": {"hookEventName": "SessionStart", "additionalContext": "block"}})
        );
        assert_eq!(
            render(Host::Pi, Kind::Prompt, "x", &ctx).0,
            "{\"message\":\"block\"}\n"
        );
        let stop = Answer::Block("go on".into());
        let codex: Value =
            serde_json::from_str(&render(Host::Codex, Kind::Stop, "Stop", &stop).0).unwrap();
        assert_eq!(codex, json!({"decision": "block", "reason": "go on"}));
        let note = Answer::Note("why".into());
        assert_eq!(
            render(Host::Codex, Kind::Tool, "PostToolUse", &note),
            (String::new(), "why\n".into())
        );
        assert_eq!(
            render(Host::Codex, Kind::Stop, "Stop", &note).0,
            "{\"systemMessage\":\"why\"}\n"
        );
        assert_eq!(
            render(Host::Gemini, Kind::Tool, "AfterTool", &Answer::Nothing).0,
            "{}"
        );
        assert_eq!(
            render(Host::Claude, Kind::Tool, "PostToolUse", &Answer::Nothing).0,
            ""
        );
    }
}

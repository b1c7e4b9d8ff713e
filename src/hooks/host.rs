//! The hosts' hook protocols: what each event means to plan, the fields read from
//! the host's JSON, and the JSON each host expects back (HOSTS.md). Lenient in what
//! it reads; sends only fields the host accepts. Pure.

use std::path::PathBuf;

use serde_json::{Value, json};

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Host {
    /// Claude Code
    Claude,
    /// OpenAI Codex CLI
    Codex,
    /// Gemini CLI
    Gemini,
    /// The pi coding agent
    Pi,
}

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
}

/// The event's kind and the name the host gives it in `hookEventName`.
pub fn kind(host: Host, event: &str) -> Option<(Kind, &'static str)> {
    Some(match (host, event) {
        (Host::Claude | Host::Codex | Host::Gemini, "session-start") => {
            (Kind::Start, "SessionStart")
        }
        (Host::Claude | Host::Codex, "user-prompt-submit") => (Kind::Prompt, "UserPromptSubmit"),
        (Host::Claude | Host::Codex, "post-tool-use") => (Kind::Tool, "PostToolUse"),
        (Host::Claude | Host::Codex, "pre-compact") => (Kind::Compact, "PreCompact"),
        (Host::Claude | Host::Codex, "stop") => (Kind::Stop, "Stop"),
        (Host::Gemini, "before-agent") => (Kind::Prompt, "BeforeAgent"),
        (Host::Gemini, "after-tool") => (Kind::Tool, "AfterTool"),
        (Host::Gemini, "pre-compress") => (Kind::Compact, "PreCompress"),
        (Host::Gemini, "after-agent") => (Kind::Stop, "AfterAgent"),
        (Host::Pi, "session-start") => (Kind::Start, "session_start"),
        (Host::Pi, "before-agent-start") => (Kind::Prompt, "before_agent_start"),
        (Host::Pi, "tool-result") => (Kind::Tool, "tool_result"),
        (Host::Pi, "session-before-compact") => (Kind::Compact, "session_before_compact"),
        (Host::Pi, "turn-end") => (Kind::Stop, "turn_end"),
        _ => return None,
    })
}

/// The events each host has, for error messages.
pub fn events(host: Host) -> &'static str {
    match host {
        Host::Claude | Host::Codex => {
            "session-start, user-prompt-submit, post-tool-use, pre-compact, stop"
        }
        Host::Gemini => "session-start, before-agent, after-tool, pre-compress, after-agent",
        Host::Pi => {
            "session-start, before-agent-start, tool-result, session-before-compact, turn-end"
        }
    }
}

/// The fields plan reads from any host's hook JSON.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Input {
    pub session: String,
    pub cwd: Option<PathBuf>,
    /// SessionStart's `source`: startup, resume, clear, compact.
    pub source: Option<String>,
    pub tool_name: Option<String>,
    /// The file a tool wrote, when it says.
    pub tool_path: Option<String>,
    /// The turn ended on an error.
    pub host_error: bool,
    /// pi: this turn end still has tool calls, so it is not the final one.
    pub more_turns: bool,
    pub last_message: Option<String>,
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
    let tool_input = v.get("tool_input").or_else(|| v.get("input"));
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
    let host_error = v
        .get("error")
        .is_some_and(|e| !e.is_null() && e != &Value::Bool(false))
        || matches!(stop_reason.as_deref(), Some("error" | "aborted"));
    Ok(Input {
        session: s("session_id")
            .or_else(|| s("sessionId"))
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "default".into()),
        cwd: s("cwd").map(PathBuf::from),
        source: s("source"),
        tool_name: s("tool_name").or_else(|| s("toolName")),
        tool_path,
        host_error,
        more_turns: v
            .get("has_tool_calls")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        last_message: s("last_assistant_message")
            .or_else(|| s("prompt_response"))
            .or_else(|| s("last_message")),
    })
}

/// Whether a tool changes files. Hosts name their editing tools differently
/// (Edit, Write, MultiEdit, NotebookEdit, apply_patch, write_file, replace, …).
pub fn edits_files(tool: &str) -> bool {
    let t = tool.to_ascii_lowercase();
    ["edit", "write", "patch", "replace"]
        .iter()
        .any(|w| t.contains(w))
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
}

/// The host's JSON on stdout, and anything for stderr.
pub fn render(host: Host, kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    let empty = match host {
        // Gemini and our pi extension want JSON even when there is nothing to say.
        Host::Gemini | Host::Pi => "{}".to_string(),
        Host::Claude | Host::Codex => String::new(),
    };
    let out = match (host, answer) {
        (_, Answer::Nothing) => return (empty, String::new()),
        (Host::Pi, Answer::Context(text) | Answer::Block(text)) => json!({ "message": text }),
        (Host::Pi, Answer::Note(text)) => json!({ "notice": text }),
        (_, Answer::Context(text)) => json!({
            "hookSpecificOutput": { "hookEventName": event, "additionalContext": text }
        }),
        (_, Answer::Block(reason)) => json!({ "decision": "block", "reason": reason }),
        // Codex's schemas for events other than Stop may not take systemMessage.
        (Host::Codex, Answer::Note(text)) if kind != Kind::Stop => {
            return (empty, format!("{text}\n"));
        }
        (_, Answer::Note(text)) => json!({ "systemMessage": text }),
    };
    (format!("{out}\n"), String::new())
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

    /// Every key plan answers pi with is one the extension reads: a `notice` it
    /// ignored meant a pi user never learned why the loop let go.
    #[test]
    fn the_pi_extension_reads_every_key_of_plans_answers() {
        let extension = crate::hooks::install::PI_EXTENSION;
        for answer in [
            Answer::Context("x".into()),
            Answer::Block("x".into()),
            Answer::Note("x".into()),
        ] {
            let v: Value =
                serde_json::from_str(&render(Host::Pi, Kind::Stop, "turn_end", &answer).0).unwrap();
            for key in v.as_object().unwrap().keys() {
                assert!(
                    extension.contains(&format!("{key}?: unknown")),
                    "integrations/pi/plan.ts does not read \"{key}\""
                );
            }
        }
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

//! Claude Code: its hook events, answers, registration and read-only judge.
//!
//! Protocol facts the code relies on (checked with Claude Code 2.1.197, `-p` mode):
//! - Registration: `hooks.<Event>` in `.claude/settings.json` (project; no approval
//!   needed), `~/.claude/settings.json` (user), or a plugin's `hooks/hooks.json`.
//!   Each group is `{matcher?, hooks: [{type: "command", command, timeout}]}`;
//!   `timeout` is in seconds. The command runs through a shell, in the project
//!   directory. Matchers: the tool name for tool events;
//!   `startup|resume|clear|compact|fork` for SessionStart; ignored for
//!   UserPromptSubmit and Stop.
//! - Events, in order: SessionStart (`source`), UserPromptSubmit (`prompt`),
//!   PreToolUse, PostToolUse (`tool_name`, `tool_input.file_path`), Stop
//!   (`stop_hook_active`, `last_assistant_message`), SessionEnd. Every payload has
//!   `session_id`, `transcript_path`, `cwd`, `hook_event_name`.
//! - Answers: exit 0 and JSON on stdout (nothing at all is fine).
//!   `hookSpecificOutput: {hookEventName, additionalContext}` adds context on
//!   SessionStart, UserPromptSubmit and PostToolUse (the model sees it as a system
//!   reminder, kept in the conversation). `{decision: "block", reason}` on Stop keeps
//!   the agent going with `reason` as its next instruction; `systemMessage` is for
//!   the user only (not shown in `-p`). Strings over 10,000 characters are cut.
//! - StopFailure (`error`: rate_limit, authentication_failed, billing_error,
//!   invalid_request, server_error, max_output_tokens, unknown; `error_details`;
//!   `last_assistant_message`, the error as shown) runs instead of Stop when the
//!   turn ends on an API error; its output and exit code are ignored.
//! - Compaction: PreCompact cannot add context; SessionStart follows with
//!   `source: compact`, and plan injects there.
//! - Stop loops: Claude Code ends the turn itself past 8 blocks in a row, Stop and
//!   SubagentStop alike (`CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets the cap, 0 turns it
//!   off): plan lets the stop past the cap go with a note rather than have its
//!   block dropped unseen, and keeps its own budget anyway.
//! - Stop and SubagentStop carry `background_tasks` (each `{id, type, status,
//!   description, …}`, running or pending ones only) and `session_crons` (2.1.145):
//!   a stop while they run is waiting, not stalling.
//! - SubagentStart and SubagentStop carry the subagent's `agent_id` and
//!   `agent_type` (SubagentStop also `agent_transcript_path`); `session_id` is the
//!   parent's. TaskCompleted carries `task_id`, `task_subject`, `task_description`,
//!   `teammate_name`, `team_name` (no metadata); a block (`decision: "block"`, or
//!   exit 2) makes the task update fail with the reason, which the model sees.
//! - Agent Teams (`CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS=1`; teams form in
//!   interactive sessions only): a teammate in a pane is a Claude Code process of
//!   its own (`--agent-id NAME@TEAM --agent-name NAME --team-name TEAM`) with its
//!   own `session_id`. Its turn ends with Stop, then TaskCompleted for each task it
//!   owns still in progress, then TeammateIdle (`teammate_name`, `team_name`, no
//!   `stop_hook_active`); a block there is fed to the teammate, which goes on.
//! - Judge: `claude -p --output-format json --tools Read,Grep,Glob` (`--tools`
//!   decides which tools exist; `--allowedTools` would only pre-approve),
//!   `--settings '{"disableAllHooks":true}'` really turns hooks off, prompt on
//!   stdin. The result object's `is_error` is the failure flag to trust: a bad model
//!   or an expired login still says `subtype: success`.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::invocation::{Format, Invocation, Request};
use super::protocol::{Answer, Kind, claude_json, out};
use super::{Event, Judge, Registration, Settings, Spec, event};

pub const EVENTS: &[Event] = &[
    event(
        "session-start",
        Kind::Start,
        "SessionStart",
        Some("startup|resume|clear|compact|fork"),
        10,
    ),
    event(
        "user-prompt-submit",
        Kind::Prompt,
        "UserPromptSubmit",
        None,
        10,
    ),
    event(
        "post-tool-use",
        Kind::Tool,
        "PostToolUse",
        Some("Edit|Write|MultiEdit|NotebookEdit"),
        10,
    ),
    event("pre-compact", Kind::Compact, "PreCompact", None, 10),
    // The stop decision may consult the loop judge, a model call.
    // Claude Code ends the turn itself past 8 blocks in a row (2.1.143 on;
    // `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets it, 0 turns it off).
    event("stop", Kind::Stop, "Stop", None, 60)
        .blocks_in_a_row(8)
        .blocks_cap_var("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP"),
    // Runs instead of Stop when the turn ends on an API error (rate limit, login,
    // billing; Claude Code 2.1.78 on). Its answer is ignored: plan pauses the loop
    // and says why, so the error is not met again at every stop.
    event("stop-failure", Kind::Stop, "StopFailure", None, 10),
    // A subagent's own start and stop (its `agent_id` is the holder its claims go
    // under), and a task of the task list or an Agent Team marked completed.
    event(
        "subagent-start",
        Kind::SubagentStart,
        "SubagentStart",
        None,
        10,
    ),
    event(
        "subagent-stop",
        Kind::SubagentStop,
        "SubagentStop",
        None,
        10,
    ),
    event("task-completed", Kind::TaskDone, "TaskCompleted", None, 10),
    // An Agent Teams teammate about to go idle: held as a subagent is at its stop.
    event(
        "teammate-idle",
        Kind::SubagentStop,
        "TeammateIdle",
        None,
        10,
    ),
];

pub static HOST: Spec = Spec {
    name: "claude",
    title: "Claude Code",
    events: EVENTS,
    render,
    registration: Registration::Settings(Settings {
        project: ".claude/settings.json",
        user,
        ..Settings::DEFAULT
    }),
    next_steps,
    fresh_context: "/clear",
    usage: Some(super::usage::claude),
    judge: Judge {
        program: "claude",
        invocation: judge,
        format: Format::ClaudeResult,
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

fn user(home: &Path) -> PathBuf {
    home.join(".claude").join("settings.json")
}

fn render(_kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    out(claude_json(event, answer), "")
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    Ok(match root {
        Some(_) => "next: restart Claude Code sessions already running here; project hooks need no approval\n",
        None => "next: restart Claude Code sessions already running\n",
    }
    .to_string())
}

/// Claude's `--json-schema` exists too, but it answers through an extra tool, which
/// the read-only tool list would have to admit: no schema.
fn judge(r: &Request) -> Invocation {
    // Hooks are off through settings, not only through our PLAN_JUDGE. Isolated
    // from the repository: only user settings load (a project's `env` could point
    // the judge at the agent's server), only the MCP servers given (none), and the
    // run starts in its own directory, so no CLAUDE.md of the root's reaches the
    // model; `--add-dir` lets it read the root, whose CLAUDE.md files stay unloaded
    // while CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD is off.
    let mut inv = Invocation::new("claude", true);
    inv.start_in(r.workdir);
    inv.env.push((
        "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD".to_string(),
        "0".to_string(),
    ));
    // No tool search: the judge has no MCP server to defer, and with it on Claude
    // Code (2.1.331) offers an inert `DeferredToolPlaceholder` beside the three
    // read-only tools; the tools offered stay exactly those three.
    inv.env
        .push(("ENABLE_TOOL_SEARCH".to_string(), "false".to_string()));
    let root = r.repo_root.to_string_lossy();
    inv.push(&[
        "-p",
        "--output-format",
        "json",
        "--tools",
        "Read,Grep,Glob",
        "--disallowedTools",
        "mcp__*",
        "--permission-mode",
        "dontAsk",
        "--settings",
        r#"{"disableAllHooks":true}"#,
        "--setting-sources",
        "user",
        "--strict-mcp-config",
        "--add-dir",
        &root,
        "--no-session-persistence",
        "--max-turns",
        &r.max_turns.to_string(),
    ]);
    if let Some(model) = r.model {
        inv.push(&["--model", model]);
    }
    if !r.system.is_empty() {
        inv.push(&["--append-system-prompt", r.system]);
    }
    inv
}

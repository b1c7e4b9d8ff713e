//! OpenAI Codex CLI: its hook events, answers, registration, trust steps and
//! read-only judge.
//!
//! Protocol facts the code relies on (checked with Codex 0.169.0):
//! - Registration: Claude Code's layout in `<repo>/.codex/hooks.json` or
//!   `$CODEX_HOME/hooks.json` (default `~/.codex`); `timeout` in seconds. Hooks are
//!   on by default (`[features] hooks = false` turns them off).
//! - Trust: a hook runs only once trusted (`/hooks` in the TUI, or
//!   `codex exec --dangerously-bypass-hook-trust`), and trust is tied to the hook's
//!   content hash; an untrusted hook is skipped silently. Project hooks also need
//!   the project trusted: `[projects."<path>"] trust_level = "trusted"` in
//!   config.toml. User-level hooks need only the hook trust.
//! - Events: SessionStart (`source`, `compact` after a compaction),
//!   UserPromptSubmit, PostToolUse (the shell tool is `Bash` with
//!   `tool_input.command`; `tool_response` is a string), PreCompact, Stop. Payloads
//!   carry `session_id, transcript_path, cwd, hook_event_name, model,
//!   permission_mode`, and `turn_id` from prompts on.
//! - Answers: the output schemas reject unknown fields. SessionStart,
//!   UserPromptSubmit, PostToolUse take `hookSpecificOutput.additionalContext`
//!   (a `developer` input item the model sees in every request). Stop takes only
//!   `continue`, `decision: "block"`, `reason` (non-empty; it becomes the next
//!   prompt), `stopReason`, `suppressOutput`, `systemMessage`. So a note for the
//!   user goes to stderr on every other event. Codex has no cap on Stop blocks:
//!   plan's budget is the only one. PreCompact cannot inject.
//! - Goals (`[features] goals = true`): the model's `create_goal`, `get_goal` and
//!   `update_goal` (`tool_input.status`) reach PreToolUse with the tool's own name,
//!   so a matcher of `update_goal` picks them; `hookSpecificOutput.permissionDecision:
//!   "deny"` with `permissionDecisionReason` refuses the call, the model reads the
//!   reason as its result, and the goal stays active.
//! - Subagents (`[features] multi_agent_v2`: the `collaboration` namespace's
//!   `spawn_agent`, `wait_agent`, …): SubagentStart (`agent_id`, `agent_type`;
//!   `hookSpecificOutput.additionalContext` reaches the subagent) and SubagentStop,
//!   which runs instead of Stop for a subagent (`agent_id`,
//!   `agent_transcript_path`; `session_id` is the parent's) and takes Stop's
//!   `decision: "block"`, whose reason the subagent goes on with. A subagent's
//!   own tool hooks carry its `agent_id`.
//! - Tool names vary across versions, so PostToolUse has no matcher and plan
//!   decides which calls changed files.
//! - Judge: `codex exec -s read-only --ephemeral --skip-git-repo-check -C REPO
//!   -o OUT -` reads the prompt from stdin (`-`) and writes its final message to
//!   OUT; stdout is progress. `--output-schema FILE` shapes the final message.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::invocation::{Format, Invocation, Request};
use super::protocol::{Answer, Kind, claude_json, out};
use super::{Event, Judge, Registration, Settings, Spec, event, home, tilde};

pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "SessionStart", None, 10),
    event(
        "user-prompt-submit",
        Kind::Prompt,
        "UserPromptSubmit",
        None,
        10,
    ),
    event("post-tool-use", Kind::Tool, "PostToolUse", None, 10),
    // Only the call that marks Codex's own goal complete (`[features] goals`).
    event(
        "pre-tool-use",
        Kind::PreTool,
        "PreToolUse",
        Some("update_goal"),
        10,
    ),
    event("pre-compact", Kind::Compact, "PreCompact", None, 10),
    event("stop", Kind::Stop, "Stop", None, 60),
    // A subagent's own start (`agent_id`): told the holder its claims go under.
    event(
        "subagent-start",
        Kind::SubagentStart,
        "SubagentStart",
        None,
        10,
    ),
    // Runs instead of Stop for a subagent (`agent_id`, `agent_transcript_path`).
    event(
        "subagent-stop",
        Kind::SubagentStop,
        "SubagentStop",
        None,
        10,
    ),
];

pub static HOST: Spec = Spec {
    name: "codex",
    title: "Codex",
    events: EVENTS,
    render,
    registration: Registration::Settings(Settings {
        project: ".codex/hooks.json",
        user,
        ..Settings::DEFAULT
    }),
    next_steps,
    trust_pending,
    fresh_context: "/new",
    usage: Some(super::usage::codex),
    judge: Judge {
        program: "codex",
        invocation: judge,
        format: Format::LastMessage,
        schema: Some(schema),
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

/// `$CODEX_HOME`, else `~/.codex`.
fn codex_home(home: &Path) -> PathBuf {
    match crate::env::os("CODEX_HOME").filter(|h| !h.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => home.join(".codex"),
    }
}

fn user(home: &Path) -> PathBuf {
    codex_home(home).join("hooks.json")
}

fn render(kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    match answer {
        // The schemas of events other than Stop may not take systemMessage.
        Answer::Note(text) if kind != Kind::Stop => (String::new(), format!("{text}\n")),
        _ => out(claude_json(event, answer), ""),
    }
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    let mut out = "next: Codex skips hooks silently until they are trusted:\n".to_string();
    let step = if let Some(root) = root {
        let home = home()?;
        let config = tilde(&codex_home(&home).join("config.toml"), &home);
        let key = serde_json::to_string(&root.display().to_string())?;
        out.push_str(&format!(
            "  1. trust this project in {config}:\n       [projects.{key}]\n       trust_level = \"trusted\"\n"
        ));
        "2."
    } else {
        "-"
    };
    out.push_str(&format!(
        "  {step} trust the hooks: run `codex`, open /hooks and approve them\n     (for `codex exec`, pass --dangerously-bypass-hook-trust)\n"
    ));
    out.push_str("  trust is tied to the hooks' content: approve them again after they change\n");
    Ok(out)
}

/// Codex runs a project's hooks only once `config.toml` trusts the project; the
/// hooks' own approval lives inside Codex and cannot be seen from here.
fn trust_pending(root: Option<&Path>) -> Option<String> {
    let root = root?;
    let home = home().ok()?;
    let config = codex_home(&home).join("config.toml");
    let key = root.display().to_string();
    let trusted = std::fs::read_to_string(&config)
        .ok()
        .and_then(|text| text.parse::<toml_edit::DocumentMut>().ok())
        .is_some_and(|doc| {
            doc.get("projects")
                .and_then(|p| p.get(&key))
                .and_then(|p| p.get("trust_level"))
                .and_then(|t| t.as_str())
                == Some("trusted")
        });
    (!trusted).then(|| {
        format!(
            "trust this project in {}: [projects.{}] trust_level = \"trusted\"",
            tilde(&config, &home),
            serde_json::to_string(&key).unwrap_or(key)
        )
    })
}

fn judge(r: &Request) -> Invocation {
    // `-c` overrides config.toml for this run only: `[features] hooks = false` keeps
    // the repository's Codex hooks from firing inside the judge. The prompt is `-`:
    // codex exec then reads it from stdin (its `exec --help`: "if `-` is used,
    // instructions are read from stdin"), which keeps a large prompt clear of the
    // argv size limit.
    //
    // Isolated from the repository: `-C` starts it in a directory of its own, so
    // neither the root's `.codex/config.toml` (model providers, `[mcp_servers]`
    // commands, in a trusted project) nor its AGENTS.md loads; the read-only sandbox
    // still reads the root. `project_doc_max_bytes=0` keeps instruction files out
    // wherever it starts.
    let mut inv = Invocation::new("codex", true);
    inv.start_in(r.workdir);
    let workdir = r.workdir.to_string_lossy();
    let out = r.out_file.to_string_lossy();
    inv.push(&[
        "exec",
        "-s",
        "read-only",
        "--ephemeral",
        "--skip-git-repo-check",
        "-c",
        "features.hooks=false",
        "-c",
        "project_doc_max_bytes=0",
        "-C",
        &workdir,
    ]);
    if let Some(model) = r.model {
        inv.push(&["-m", model]);
    }
    inv.push(&["-o", &out, "-"]);
    inv.system_in_prompt = true;
    inv.reads_last_message = Some(r.out_file.to_path_buf());
    inv
}

/// `--output-schema FILE` (codex 0.169.0's `exec --help`), before `-o`.
fn schema(inv: &mut Invocation, file: &Path) {
    let at = inv
        .args
        .iter()
        .position(|a| a == "-o")
        .unwrap_or(inv.args.len());
    let file = file.to_string_lossy().into_owned();
    inv.args
        .splice(at..at, ["--output-schema".to_string(), file]);
}

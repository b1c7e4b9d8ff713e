//! Gemini CLI: its hook events, answers, registration, trust step and read-only
//! judge.
//!
//! Protocol facts the code relies on (checked with Gemini CLI 0.61.0):
//! - Registration: `hooks.<Event>` in `.gemini/settings.json` (project) or
//!   `~/.gemini/settings.json`, Claude Code's layout, but `timeout` is in
//!   milliseconds (default 60000). Hooks run only with `hooksConfig.enabled: true`
//!   and in a trusted workspace (a trusted folder, or
//!   `GEMINI_CLI_TRUST_WORKSPACE=true` headless).
//! - Events: SessionStart, BeforeAgent (before each prompt; its context arrives in
//!   the user turn as `<hook_context>…</hook_context>`, with `<` and `>` escaped),
//!   AfterTool (`tool_name`, `tool_input`), PreCompress (`trigger`), AfterAgent
//!   (the Stop equivalent: `prompt`, `prompt_response`, `stop_hook_active`).
//!   Payloads carry `session_id, transcript_path, cwd, hook_event_name, timestamp`.
//! - The file-writing tools are `write_file` and `replace` (there is no `edit`); a
//!   tool matcher is an unanchored JavaScript RegExp.
//! - Answers: exit 0 and JSON on stdout, always (plain text is refused, so "nothing"
//!   is `{}`). SessionStart, BeforeAgent and AfterTool take
//!   `hookSpecificOutput.additionalContext`; AfterAgent takes
//!   `{decision: "block", reason}` (older docs say `deny`) and starts a new turn
//!   with the reason. `systemMessage` is printed on stderr headless.
//! - Compression: PreCompress cannot inject, and no SessionStart follows, so the
//!   block comes back through the next BeforeAgent once PreCompress has said the
//!   old one is gone. 0.61.0 fires PreCompress (`trigger: auto`) before every
//!   model call, whether it then compresses or not, so PreCompress alone would
//!   bring the unchanged block back with every prompt (copies per request 1, 2, 3,
//!   4). A compression that happened rewrites the chat's messages in the
//!   transcript (`transcript_path`, JSON lines): a second `{"$set":{"messages":…}}`
//!   record. PreCompress notes their count; the next BeforeAgent injects only if
//!   it grew (or plan.md changed).
//! - Judge: `gemini --approval-mode plan -o json -p PROMPT` answers
//!   `{session_id, response, stats, error?}`. Plan mode alone is not read-only
//!   (`exit_plan_mode` switches a headless run to YOLO, and then
//!   `run_shell_command` runs); a `--policy` file denying every tool but the
//!   reading ones removes the rest from the model's tool list. There is no switch
//!   to turn hooks off for one run: plan's own hooks see `PLAN_JUDGE=1` and do
//!   nothing.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::invocation::{Format, Invocation, Request};
use super::protocol::{Answer, Kind, claude_json, out};
use super::{Event, Judge, Registration, Settings, Spec, event};

pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "SessionStart", None, 10_000),
    event("before-agent", Kind::Prompt, "BeforeAgent", None, 10_000),
    event(
        "after-tool",
        Kind::Tool,
        "AfterTool",
        Some("write_file|replace"),
        10_000,
    ),
    // Without it a compressed chat never saw the block again while plan.md stayed
    // the same (seen end to end).
    event("pre-compress", Kind::Compact, "PreCompress", None, 10_000),
    event("after-agent", Kind::Stop, "AfterAgent", None, 60_000),
];

pub static HOST: Spec = Spec {
    name: "gemini",
    title: "Gemini CLI",
    events: EVENTS,
    render,
    registration: Registration::Settings(Settings {
        project: ".gemini/settings.json",
        user,
        comments: true,
        enable: Some("hooksConfig"),
        ..Settings::DEFAULT
    }),
    next_steps,
    trust_pending,
    fresh_context: "/clear",
    compactions: Some(compactions),
    usage: Some(super::usage::gemini),
    judge: Judge {
        program: "gemini",
        invocation: judge,
        format: Format::GeminiJson,
        refuse: Some(context_files),
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

fn user(home: &Path) -> PathBuf {
    home.join(".gemini").join("settings.json")
}

fn render(_kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    out(claude_json(event, answer), "{}")
}

fn next_steps(_root: Option<&Path>) -> Result<String> {
    Ok("next: Gemini CLI runs hooks only in a trusted workspace:\n  trust the folder when Gemini asks, or with /permissions trust in a session;\n  for headless runs, set GEMINI_CLI_TRUST_WORKSPACE=true\n  then restart sessions already running\n".to_string())
}

/// Gemini CLI runs hooks only in a trusted workspace: `GEMINI_CLI_TRUST_WORKSPACE`
/// set, or `~/.gemini/trustedFolders.json` trusting the folder. There the most
/// specific rule wins: `TRUST_FOLDER` on the folder or one above it,
/// `TRUST_PARENT` on a folder beside it or below its parent, `DO_NOT_TRUST`.
fn trust_pending(root: Option<&Path>) -> Option<String> {
    let root = root?;
    if crate::env::text("GEMINI_CLI_TRUST_WORKSPACE").is_some_and(|v| v == "true") {
        return None;
    }
    let home = crate::hosts::home().ok()?;
    let file = home.join(".gemini/trustedFolders.json");
    let rules: serde_json::Map<String, serde_json::Value> = std::fs::read_to_string(&file)
        .ok()
        .and_then(|text| serde_json::from_str(&text).ok())
        .unwrap_or_default();
    let mut best: Option<(usize, bool)> = None;
    for (path, level) in &rules {
        let path = Path::new(path);
        let (scope, trusted) = match level.as_str() {
            Some("TRUST_FOLDER") => (path, true),
            Some("TRUST_PARENT") => (path.parent().unwrap_or(path), true),
            Some("DO_NOT_TRUST") => (path, false),
            _ => continue,
        };
        let depth = scope.components().count();
        if root.starts_with(scope) && best.is_none_or(|(d, _)| depth >= d) {
            best = Some((depth, trusted));
        }
    }
    match best {
        Some((_, true)) => None,
        _ => Some(format!(
            "trust this folder in Gemini CLI (/permissions trust, saved in {}), or set GEMINI_CLI_TRUST_WORKSPACE=true",
            crate::hosts::tilde(&file, &home)
        )),
    }
}

/// The transcript (`~/.gemini/tmp/<project>/chats/session-….jsonl`, 0.61.0) starts
/// with one `{"$set":{"messages":[…]}}` record, and a compression writes another
/// with the compressed history: their number. `None` when it cannot be read or
/// has no such record at all (another format: then every PreCompress counts).
/// Read only from a regular file, in pieces, up to a cap (src/fsread.rs): a named
/// pipe or a device there is "cannot be read", never a hang.
fn compactions(transcript: &Path) -> Option<u64> {
    const RECORD: &[u8] = b"{\"$set\":{\"messages\":";
    let n =
        crate::fsread::count_lines_starting(transcript, crate::fsread::TRANSCRIPT, RECORD).ok()?;
    (n > 0).then_some(n)
}

fn judge(r: &Request) -> Invocation {
    // `-p` goes last so the prompt is its value and the final argument.
    //
    // Isolated from the repository: it starts in a directory of its own, so the
    // root's `.gemini/` (settings, MCP servers, extensions, `.env`) and `.env` do
    // not load (a GOOGLE_GEMINI_BASE_URL there would take the user's key to the
    // agent's server), and it reads the root through `--include-directories`.
    // Gemini loads the GEMINI.md files of every workspace directory, and of a read
    // file's directories, whatever flag says (0.61.0): the sign-off judge's root is
    // a private copy they are set aside in (src/judge/run.rs); `context_files`
    // refuses a run on the repository itself.
    let mut inv = Invocation::new("gemini", false);
    inv.start_in(r.workdir);
    inv.env_file_dir = Some(".gemini");
    // Its own empty directory is the workspace: trusted, or Gemini CLI 0.61 refuses
    // to run headless there (exit 55).
    inv.env
        .push(("GEMINI_CLI_TRUST_WORKSPACE".to_string(), "true".to_string()));
    let policy = r.out_file.with_file_name("gemini-policy.toml");
    inv.files.push((policy.clone(), POLICY.to_string()));
    let policy = policy.to_string_lossy();
    let root = r.repo_root.to_string_lossy();
    inv.push(&[
        "--approval-mode",
        "plan",
        "--policy",
        &policy,
        "--include-directories",
        &root,
        "-o",
        "json",
    ]);
    if let Some(model) = r.model {
        inv.push(&["-m", model]);
    }
    inv.push(&["-p"]);
    inv.system_in_prompt = true;
    inv
}

/// The names Gemini CLI loads as context files: GEMINI.md, and those the user's
/// `~/.gemini/settings.json` adds under `context.fileName` (Gemini keeps GEMINI.md
/// whatever that says).
pub fn context_names(home: Option<&Path>) -> Vec<String> {
    let mut names = vec!["GEMINI.md".to_string()];
    let settings = home
        .and_then(|h| std::fs::read_to_string(h.join(".gemini/settings.json")).ok())
        .and_then(|text| settings_object(&text));
    if let Some(settings) = settings {
        match settings.get("context").map(|c| &c["fileName"]) {
            Some(Value::String(name)) => names.push(name.clone()),
            Some(Value::Array(list)) => {
                names.extend(list.iter().filter_map(|n| n.as_str().map(String::from)))
            }
            _ => {}
        }
    }
    names.sort();
    names.dedup();
    names
}

/// A settings file's object as Gemini reads it, comments allowed; `None` when it is
/// not one.
fn settings_object(text: &str) -> Option<Value> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    jsonc_parser::parse_to_serde_value::<Value>(text, &super::protocol::strict_jsonc(true))
        .ok()
        .filter(Value::is_object)
}

/// Why Gemini CLI cannot judge `root` in isolation: the first context file in it,
/// which Gemini would hand its model as instructions (no flag turns that off).
fn context_files(root: &Path, home: Option<&Path>) -> Option<String> {
    let names = context_names(home);
    let found = super::find_named(root, &names)?;
    Some(format!(
        "{found} is an instruction file Gemini CLI loads into its model's context from the directories it reads, and no flag stops it; the agent under review could have written it"
    ))
}

/// Gemini CLI's policy for a judge run, passed with `--policy` (user tier, above
/// anything a repository's own `.gemini/` can set). `--approval-mode plan` alone
/// is not read-only: plan mode offers `exit_plan_mode`, which headless switches to
/// YOLO, and then `run_shell_command` runs. So the policy allows the reading tools
/// and denies everything else; a denied tool is not even offered to the model.
/// Gemini's priorities run 0..=999 within a tier; the highest matching rule wins.
pub const POLICY: &str = r#"# plan's sign-off judge: read and search, nothing else.

[[rule]]
toolName = "*"
mcpName = "*"
decision = "deny"
priority = 999
denyMessage = "The sign-off judge is read-only: no MCP tools."

[[rule]]
toolName = ["exit_plan_mode", "enter_plan_mode", "run_shell_command", "write_file", "replace", "save_memory", "web_fetch", "invoke_agent", "activate_skill"]
decision = "deny"
priority = 999
denyMessage = "The sign-off judge is read-only: it may read and search the repository, nothing else."

[[rule]]
toolName = ["read_file", "read_many_files", "list_directory", "glob", "grep_search"]
decision = "allow"
priority = 998

[[rule]]
toolName = "*"
decision = "deny"
priority = 997
denyMessage = "The sign-off judge is read-only: it may read and search the repository, nothing else."
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_message_rewrites_in_the_transcript() {
        let dir = tempfile::tempdir().unwrap();
        let chat = dir.path().join("chat.jsonl");
        assert_eq!(compactions(&chat), None, "no transcript");
        std::fs::write(
            &chat,
            "{\"sessionId\":\"s\"}\n{\"$set\":{\"lastUpdated\":\"x\"}}\n",
        )
        .unwrap();
        assert_eq!(compactions(&chat), None, "a format without the record");
        std::fs::write(&chat, "{\"$set\":{\"messages\":[]}}\n{\"type\":\"user\",\"content\":\"{\\\"$set\\\":{\\\"messages\\\":\"}\n").unwrap();
        assert_eq!(
            compactions(&chat),
            Some(1),
            "quoted inside a message is not a record"
        );
        std::fs::write(&chat, "{\"sessionId\":\"s\"}\n{\"$set\":{\"messages\":[]}}\n{\"$set\":{\"sessionId\":\"s\"}}\n{\"$set\":{\"messages\":[{}]}}\n").unwrap();
        assert_eq!(compactions(&chat), Some(2));
    }
}

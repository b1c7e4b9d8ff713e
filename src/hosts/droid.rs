//! Factory Droid: its hook events, answers, registration and read-only judge.
//!
//! Protocol facts the code relies on (checked with `@factory/cli-linux-x64` 0.225.2,
//! `droid exec`, against a local model server):
//! - Registration: Claude Code's layout under `"hooks"` in `.factory/settings.json`
//!   (project; `droid exec` runs these with no approval step) or
//!   `~/.factory/settings.json` (user; where the BYOK `customModels` live too);
//!   `timeout` in seconds. Events: PreToolUse, PostToolUse, Notification,
//!   UserPromptSubmit, Stop, SubagentStop, PreCompact, SessionStart, SessionEnd.
//!   A `hooks.hooksDisabled: true` turns them all off.
//! - Payloads carry `session_id, transcript_path, cwd, permission_mode,
//!   hook_event_name`. SessionStart has `source` (`startup`; a compaction hands off
//!   to a new session with source `compact`). PostToolUse has `tool_name`,
//!   `tool_input` and `tool_response` (a JSON string): the file tools are
//!   `Create {file_path, content}` and `Edit {file_path, old_str, new_str}`; the
//!   shell is `Execute {command, …}`. Stop has `stop_hook_active` and no last
//!   message.
//! - **UserPromptSubmit does not fire in `droid exec`.** plan injects at
//!   SessionStart, and a block that changed since (or that a compaction took) rides
//!   on the next PostToolUse, which takes `additionalContext` too.
//! - Answers: Claude Code's. `hookSpecificOutput.additionalContext` on SessionStart
//!   and PostToolUse; `{decision: "block", reason}` on Stop starts another turn with
//!   the reason.
//! - Judge: `droid exec --only-tools Read,Grep,Glob,LS` offers the model only those
//!   tools. Plain `droid exec`, documented as read-only, still offers `Execute`, and
//!   ran a shell write that the model labelled low risk: never use it alone. A
//!   `--settings FILE` holding `{"hooks": {"hooksDisabled": true}}` turns hooks off
//!   for the run. Text output is the final answer; the prompt is the last argument.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::invocation::{Invocation, Request};
use super::protocol::{Answer, Kind, claude_json, out};
use super::{Event, Judge, Registration, Settings, Spec, event};

pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "SessionStart", None, 10),
    // Fires in the TUI, not in `droid exec`.
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
        Some("Create|Edit|MultiEdit|ApplyPatch"),
        10,
    ),
    event("pre-compact", Kind::Compact, "PreCompact", None, 10),
    event("stop", Kind::Stop, "Stop", None, 60),
];

pub static HOST: Spec = Spec {
    name: "droid",
    title: "Factory Droid",
    events: EVENTS,
    render,
    registration: Registration::Settings(Settings {
        project: ".factory/settings.json",
        user,
        ..Settings::DEFAULT
    }),
    next_steps,
    fresh_context: "/clear",
    edit_tools: &["Create"],
    inject_at_tool: true,
    judge: Judge {
        program: "droid",
        invocation: judge,
        refuse: Some(guideline_files),
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

/// Runtime settings for the judge's own run: no hooks at all.
pub const JUDGE_SETTINGS: &str = "{\"hooks\": {\"hooksDisabled\": true}}\n";

/// The instruction files Droid (0.225.2) discovers along the paths it reads and
/// hands its model as project guidelines.
pub const GUIDELINES: [&str; 5] = [
    "CLAUDE.md",
    "Claude.md",
    "AGENTS.md",
    "Agents.md",
    "agents.md",
];

/// Why Droid cannot judge `root` in isolation: the first guideline file in it.
fn guideline_files(root: &Path, _home: Option<&Path>) -> Option<String> {
    let names: Vec<String> = GUIDELINES.iter().map(|n| n.to_string()).collect();
    let found = super::find_named(root, &names)?;
    Some(format!(
        "{found} is an instruction file Droid hands its model as project guidelines when it reads a file beside or below it, and no flag stops it; the agent under review could have written it"
    ))
}

fn user(home: &Path) -> PathBuf {
    home.join(".factory").join("settings.json")
}

fn render(_kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    out(claude_json(event, answer), "")
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    let here = if root.is_some() { " here" } else { "" };
    Ok(format!(
        "next: Droid runs project hooks with no approval step (`droid exec` too);\n  restart Droid sessions already running{here}\n  `droid exec` fires no UserPromptSubmit: a changed plan comes with the next file edit\n"
    ))
}

fn judge(r: &Request) -> Invocation {
    // Isolated from the repository: it starts in a directory of its own, so the
    // root's `.factory/` (settings whose `customModels` could send the judge to the
    // agent's server, hooks, MCP servers) does not load; it reads the root by
    // absolute path. Droid still hands its model the AGENTS.md and CLAUDE.md files
    // along every path it reads, and no flag stops that (0.225.2): the sign-off
    // judge's root is a private copy they are set aside in (src/judge/run.rs);
    // `guideline_files` refuses a run on the repository itself.
    let mut inv = Invocation::new("droid", false);
    inv.start_in(r.workdir);
    let settings = r.out_file.with_file_name("droid-settings.json");
    inv.files
        .push((settings.clone(), JUDGE_SETTINGS.to_string()));
    inv.push(&[
        "exec",
        "--only-tools",
        "Read,Grep,Glob,LS",
        "--settings",
        &settings.to_string_lossy(),
        "--cwd",
        &r.workdir.to_string_lossy(),
    ]);
    if let Some(model) = r.model {
        inv.push(&["-m", model]);
    }
    if !r.system.is_empty() {
        inv.push(&["--append-system-prompt", r.system]);
    }
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_offers_only_reading_tools_and_no_hooks() {
        let inv = judge(&Request {
            model: Some("custom:m"),
            repo_root: Path::new("/repo"),
            workdir: Path::new("/tmp/run/work"),
            out_file: Path::new("/tmp/run/out.txt"),
            system: "Judge.",
            max_turns: 3,
        });
        assert_eq!(inv.program, "droid");
        assert_eq!(inv.cwd.as_deref(), Some(Path::new("/tmp/run/work")));
        assert_eq!(
            inv.args,
            [
                "exec",
                "--only-tools",
                "Read,Grep,Glob,LS",
                "--settings",
                "/tmp/run/droid-settings.json",
                "--cwd",
                "/tmp/run/work",
                "-m",
                "custom:m",
                "--append-system-prompt",
                "Judge.",
            ]
        );
        assert!(inv.prompt_arg && !inv.stdin_prompt && !inv.system_in_prompt);
        let settings: serde_json::Value = serde_json::from_str(&inv.files[0].1).unwrap();
        assert_eq!(settings["hooks"]["hooksDisabled"], true);
        // No autonomy flag: `--auto` would let Execute write.
        assert!(
            !inv.args
                .iter()
                .any(|a| a.starts_with("--auto") || a == "--skip-permissions-unsafe")
        );
    }
}

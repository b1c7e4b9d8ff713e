//! GitHub Copilot CLI: its hooks file, events, answers, trust step and read-only
//! judge.
//!
//! Protocol facts the code relies on (checked with `@github/copilot` 1.0.102,
//! `copilot -p`, against a local model server):
//! - Registration: a hooks file of Copilot's own format,
//!   `{"version": 1, "hooks": {"<event>": [{"type": "command", "bash": CMD,
//!   "timeoutSec": N}]}}`, with no matchers: every tool calls the tool hook. Copilot
//!   loads `$COPILOT_HOME/hooks/*.json` (default `~/.copilot`) always, and a
//!   project's `.github/hooks/*.json` only in a trusted folder (`--trust-folder`
//!   for one headless run, `COPILOT_ALLOW_ALL=true`, or trusting it when the TUI
//!   asks); an untrusted folder's hooks are skipped without a word. plan writes
//!   the whole file `plan.json`, so it never edits a file of someone else's.
//! - Events: `sessionStart {source, initialPrompt}`, `userPromptSubmitted
//!   {prompt}`, `postToolUse {toolName, toolArgs, toolResult}`, `preCompact
//!   {trigger}`, `agentStop {stopReason, transcriptPath, stop_hook_active}`. Every
//!   payload carries `sessionId`, `timestamp` and `cwd`.
//! - Answers: only a **top-level** `{"additionalContext": …}` is read, from
//!   sessionStart, userPromptSubmitted (as a `<system_reminder>`) and postToolUse
//!   (appended to the tool result). `{"decision": "block", "reason": …}` on
//!   agentStop sends the reason as the next prompt; the CLI ends the turn after 8
//!   blocks in a row. Other keys are ignored, so a note for the person goes to
//!   stderr.
//! - Subagents (the `task` tool, checked with 1.0.102): a subagent's own turn runs
//!   the main agent's hooks, `userPromptSubmitted`, `postToolUse` and `agentStop`,
//!   with `sessionId` its own id and `agentId`, `agentType`, `parentAgentId` added.
//!   A block at the subagent's agentStop is dropped; `subagentStop {sessionId (the
//!   parent's), agentId, agentType, agentName, response, stopReason,
//!   stop_hook_active, parentAgentId}` follows it, and its block is the subagent's
//!   next prompt (through its userPromptSubmitted).
//! - Edits: tools `create {path, file_text}` and `edit {path, old_str, new_str}`.
//! - Compaction: no hook adds context after it (preCompact's answer is ignored,
//!   and no sessionStart follows). preCompact marks the block as gone; the next
//!   prompt, or the next file edit, brings it back.
//! - Judge: `copilot -p PROMPT --available-tools view,grep,glob --allow-all-tools
//!   -s`: `--available-tools` decides which tools the model is offered at all,
//!   `--allow-all-tools` only spares the approval prompt for those, and `-s`
//!   prints the answer alone. There is no switch to turn hooks off for one run:
//!   plan's own see `PLAN_JUDGE=1` and do nothing.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Value, json};

use super::invocation::{Invocation, Request};
use super::protocol::{Answer, Kind, hook_command, out};
use super::{Event, Judge, Registration, Spec, event};

/// Copilot ends the turn after this many agentStop blocks in a row and drops the
/// next block (seen: the ninth stop's block never reached the model).
pub const BLOCKS_IN_A_ROW: u32 = 8;

/// Timeouts in seconds.
pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "sessionStart", None, 10),
    event(
        "user-prompt-submitted",
        Kind::Prompt,
        "userPromptSubmitted",
        None,
        10,
    ),
    event("post-tool-use", Kind::Tool, "postToolUse", None, 10),
    event("pre-compact", Kind::Compact, "preCompact", None, 10),
    // The stop decision may consult the loop judge, a model call.
    event("agent-stop", Kind::Stop, "agentStop", None, 60).blocks_in_a_row(BLOCKS_IN_A_ROW),
    // A subagent's own stop: its agentStop cannot hold it, this can.
    event(
        "subagent-stop",
        Kind::SubagentStop,
        "subagentStop",
        None,
        10,
    ),
];

pub static HOST: Spec = Spec {
    name: "copilot",
    title: "Copilot CLI",
    events: EVENTS,
    render,
    registration: Registration::File {
        project: ".github/hooks/plan.json",
        user,
        what: "hooks file",
        text: hooks_file,
        is_ours,
    },
    next_steps,
    fresh_context: "/clear",
    edit_tools: &["create"],
    // After a compaction nothing re-adds context but the next prompt or tool event.
    inject_at_tool: true,
    judge: Judge {
        program: "copilot",
        invocation: judge,
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

/// `$COPILOT_HOME`, else `~/.copilot`.
fn copilot_home(home: &Path) -> PathBuf {
    match crate::env::os("COPILOT_HOME").filter(|h| !h.is_empty()) {
        Some(dir) => PathBuf::from(dir),
        None => home.join(".copilot"),
    }
}

fn user(home: &Path) -> PathBuf {
    copilot_home(home).join("hooks").join("plan.json")
}

/// plan's hooks file, every event calling `program`.
pub fn hooks_file(program: &str) -> String {
    let mut hooks = serde_json::Map::new();
    for e in EVENTS {
        hooks.insert(
            e.name.to_string(),
            json!([{
                "type": "command",
                "bash": hook_command(program, HOST.name, e.slug),
                "timeoutSec": e.timeout,
            }]),
        );
    }
    let doc = json!({"version": 1, "hooks": hooks});
    let mut text = serde_json::to_string_pretty(&doc).unwrap_or_default();
    text.push('\n');
    text
}

/// Whether a hooks file is plan's: every command in it is `… hook copilot …`.
pub fn is_ours(text: &str) -> bool {
    let Ok(doc) = serde_json::from_str::<Value>(text) else {
        return false;
    };
    let Some(hooks) = doc.get("hooks").and_then(Value::as_object) else {
        return false;
    };
    let mut commands = hooks
        .values()
        .filter_map(Value::as_array)
        .flatten()
        .map(|entry| entry.get("bash").and_then(Value::as_str));
    let mut any = false;
    let all = commands.all(|c| {
        any = true;
        c.is_some_and(|c| c.contains(" hook copilot "))
    });
    any && all
}

fn render(_kind: Kind, _event: &str, answer: &Answer) -> (String, String) {
    match answer {
        Answer::Nothing => out(None, ""),
        Answer::Context(text) => out(Some(json!({ "additionalContext": text })), ""),
        Answer::Block(reason) => out(Some(json!({"decision": "block", "reason": reason})), ""),
        // Copilot reads no message for the person from a hook.
        Answer::Note(text) => (String::new(), format!("{text}\n")),
        Answer::Deny(reason) => out(
            Some(json!({"permissionDecision": "deny", "permissionDecisionReason": reason})),
            "",
        ),
    }
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    Ok(match root {
        Some(_) => "next: Copilot CLI skips a project's .github/hooks silently until the folder is trusted:\n  trust it when Copilot asks; headless, run `copilot --trust-folder -p …` (or set COPILOT_ALLOW_ALL=true)\n  or register for your user instead: `plan install copilot --global` (loaded in every folder)\n  then restart Copilot sessions already running\n",
        None => "next: Copilot CLI loads these hooks in every folder, with no trust step;\n  restart Copilot sessions already running\n",
    }
    .to_string())
}

fn judge(r: &Request) -> Invocation {
    // Isolated from the repository: `--no-custom-instructions` keeps AGENTS.md and
    // `.github/copilot-instructions.md` out, and the folder stays untrusted
    // (COPILOT_ALLOW_ALL off, no `--trust-folder`), so its `.github/hooks` and MCP
    // configuration do not load. It starts in the root: `--add-dir` would load the
    // root's skills and agents as trusted configuration.
    let mut inv = Invocation::new("copilot", false);
    inv.env
        .push(("COPILOT_ALLOW_ALL".to_string(), "false".to_string()));
    inv.push(&[
        "--available-tools",
        "view,grep,glob",
        "--allow-all-tools",
        "--no-ask-user",
        "--no-custom-instructions",
        "--disable-builtin-mcps",
        "-s",
        "-C",
        &r.repo_root.to_string_lossy(),
    ]);
    if let Some(model) = r.model {
        inv.push(&["--model", model]);
    }
    // `-p` goes last so the prompt is its value and the final argument.
    inv.push(&["-p"]);
    inv.system_in_prompt = true;
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hooks_file_is_copilots_format_and_marked_as_ours() {
        let text = hooks_file("/opt/my plan");
        let doc: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(doc["version"], 1);
        let stop = &doc["hooks"]["agentStop"][0];
        assert_eq!(stop["type"], "command");
        assert_eq!(stop["bash"], "'/opt/my plan' hook copilot agent-stop");
        assert_eq!(stop["timeoutSec"], 60);
        assert_eq!(doc["hooks"].as_object().unwrap().len(), EVENTS.len());
        assert!(is_ours(&text) && is_ours(&hooks_file("plan")));
        let theirs =
            r#"{"version":1,"hooks":{"sessionStart":[{"type":"command","bash":"./audit.sh"}]}}"#;
        assert!(!is_ours(theirs));
        let mixed = text.replacen("'/opt/my plan' hook copilot pre-compact", "./audit.sh", 1);
        assert!(
            !is_ours(&mixed),
            "a file with someone else's hook is not ours"
        );
        assert!(!is_ours("{}") && !is_ours("not json"));
    }

    #[test]
    fn answers_at_the_top_level() {
        let (stdout, _) = render(
            Kind::Prompt,
            "userPromptSubmitted",
            &Answer::Context("b".into()),
        );
        assert_eq!(stdout, "{\"additionalContext\":\"b\"}\n");
        let (stdout, _) = render(Kind::Stop, "agentStop", &Answer::Block("go".into()));
        let v: Value = serde_json::from_str(&stdout).unwrap();
        assert_eq!(v, json!({"decision": "block", "reason": "go"}));
        assert_eq!(
            render(Kind::Stop, "agentStop", &Answer::Note("why".into())),
            (String::new(), "why\n".to_string())
        );
        assert_eq!(render(Kind::Tool, "postToolUse", &Answer::Nothing).0, "");
    }

    #[test]
    fn the_judge_offers_only_reading_tools() {
        let inv = judge(&Request {
            model: Some("m"),
            repo_root: Path::new("/repo"),
            workdir: Path::new("/tmp/run/work"),
            out_file: Path::new("/tmp/run/out.txt"),
            system: "Judge.",
            max_turns: 3,
        });
        assert_eq!(inv.program, "copilot");
        assert_eq!(
            inv.cwd, None,
            "copilot starts in the root: --add-dir would trust its skills"
        );
        assert_eq!(
            inv.args,
            [
                "--available-tools",
                "view,grep,glob",
                "--allow-all-tools",
                "--no-ask-user",
                "--no-custom-instructions",
                "--disable-builtin-mcps",
                "-s",
                "-C",
                "/repo",
                "--model",
                "m",
                "-p",
            ]
        );
        assert!(inv.prompt_arg && !inv.stdin_prompt && inv.system_in_prompt);
        assert!(!inv.args.iter().any(|a| a == "--allow-all" || a == "--yolo"));
    }
}

//! OpenCode (and Kilo Code, its fork): plan's plugin file, the events it relays, its
//! answers, and OpenCode's read-only judge.
//!
//! Protocol facts the code relies on (checked with `opencode-ai` 1.18.33 and
//! `@opencode-ai/plugin` 1.18.33, `opencode run`, against a local model server):
//! - OpenCode has no shell hooks: a plugin is an ESM file in `.opencode/plugin/`
//!   (project) or `~/.config/opencode/plugin/` (user; `XDG_CONFIG_HOME` moves it),
//!   loaded with no trust step, exporting `async ({client, directory}) => hooks`.
//!   plan's plugin (integrations/opencode/plan.js) is a thin shell that relays hooks
//!   to `plan hook opencode EVENT` and acts on the answer; the decisions are made in
//!   Rust. A dropped-in file needs no entry in `opencode.json`, so install and
//!   uninstall never edit the person's config. With any plugin there, OpenCode
//!   installs `@opencode-ai/plugin` into that config directory once (about 70 s
//!   offline) unless `node_modules/` and a `package-lock.json` listing it are there.
//! - `experimental.chat.system.transform` fires for every model call, compaction and
//!   the session's title request included, and rebuilds the system prompt each time:
//!   the plugin pushes the block into every call (plan's hook cache keeps that cheap).
//!   It tells plan `source: startup` on a session's first call and `compact` on the
//!   first after a compaction, so plan's state sees the same events as elsewhere.
//! - `experimental.session.compacting` takes extra context for the summariser: plan
//!   answers with the plan's skeleton. `session.compacted` (a bus event) follows.
//! - `tool.execute.after` gives `tool` (`write`, `edit`, `apply_patch`, …), `args`
//!   (`filePath`) and the `output` the model reads: the reminder is appended to it.
//! - No stop veto. Under `opencode run` the agent loop awaits
//!   `experimental.text.complete` for each finished text part and takes another turn
//!   when a newer user message waits: the plugin asks plan there (a compaction
//!   summary is not asked about) and queues plan's continuation with
//!   `client.session.promptAsync`. In the TUI and `opencode serve` the session
//!   outlives its idle moments: the plugin asks on the bus event `session.idle`.
//!   A text part the model follows with a tool call in the same step is not a stop:
//!   with OpenAI-compatible streams the call is already a `tool` part of the message
//!   when the text ends, and the plugin says `has_tool_calls` (plan answers
//!   nothing). A provider that streams the call only after the text has ended cannot
//!   be told apart there: plan is asked, and counts that continuation.
//! - Answers: JSON on stdout, always: `{message}` for the model, `{notice}` for the
//!   person (stderr under `run`, a toast in the TUI), `{}` for nothing.
//! - Judge: `opencode run --pure --format json PROMPT`, started in a directory of
//!   its own, with `OPENCODE_PERMISSION` denying edit, bash, webfetch, task and
//!   external_directory but for the root it judges; that leaves glob, grep, read,
//!   skill and todowrite. `--pure` loads no plugin (plan's included) and
//!   `--title` spares the title request. `OPENCODE_DISABLE_PROJECT_CONFIG=1`: the
//!   repository's own config cannot loosen the judge (an agent's permissions), and
//!   OpenCode writes no `.gitignore` into its `.opencode/` (the working tree stays
//!   as it was, which sign-off checks). The built-in `--agent plan` is not
//!   read-only (it ran bash). `--format json` prints JSONL events; the answer is the
//!   `type: "text"` parts, an `error` event is the run's failure. No system-prompt
//!   flag: the system text goes at the top of the prompt.
//! - Kilo Code CLI 7.7.7 (`@kilocode/cli`) is OpenCode underneath: the same file,
//!   copied to `.kilo/plugin/plan.js`, injected and ran its stop check under
//!   `kilo run` (its variables are `KILO_*`, its config `kilo.json`). plan does not
//!   register Kilo as a host of its own: a host comes with a read-only judge, and
//!   Kilo offers tools OpenCode has not (`background_process`, `schedule_wakeup`,
//!   `board_post`, …) that such a judge would have to deny, unproven.

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::Value;

use super::invocation::{Format, Invocation, Request};
use super::protocol::Kind;
use super::{Event, Judge, Registration, Spec, event, is_script, render_to_script, script_calling};

/// plan's plugin. Its first line marks it as plan's, so uninstall never deletes
/// someone else's file of the same name.
pub const PLUGIN: &str = include_str!("../../integrations/opencode/plan.js");

/// The judge's permissions: everything that writes, runs or reaches out is denied.
/// Outside its working directory it reads only the root it judges (`permission`).
pub const JUDGE_PERMISSION: &str =
    r#"{"edit":"deny","bash":"deny","webfetch":"deny","task":"deny","external_directory":"deny"}"#;

/// `JUDGE_PERMISSION` for a judge started outside `root`: `external_directory`
/// denies every directory but the root and those under it. OpenCode takes the last
/// rule that matches.
fn permission(root: &Path) -> String {
    let mut permission: Value = serde_json::from_str(JUDGE_PERMISSION).unwrap_or_default();
    let root = root.to_string_lossy().trim_end_matches('/').to_string();
    permission["external_directory"] = serde_json::json!({
        "*": "deny",
        root.clone(): "allow",
        format!("{root}/*"): "allow",
    });
    permission.to_string()
}

pub const EVENTS: &[Event] = &[
    event(
        "system",
        Kind::Start,
        "experimental.chat.system.transform",
        None,
        10,
    ),
    // Only the host's own goal tool (oh-my-openagent's `update_goal`) is relayed.
    event(
        "tool-before",
        Kind::PreTool,
        "tool.execute.before",
        None,
        10,
    ),
    event("tool-after", Kind::Tool, "tool.execute.after", None, 10),
    event(
        "compacting",
        Kind::Compact,
        "experimental.session.compacting",
        None,
        10,
    ),
    event(
        "text-complete",
        Kind::Stop,
        "experimental.text.complete",
        None,
        60,
    ),
    event("session-idle", Kind::Stop, "session.idle", None, 60),
];

pub static HOST: Spec = Spec {
    name: "opencode",
    title: "OpenCode",
    events: EVENTS,
    render: render_to_script,
    registration: Registration::File {
        project: ".opencode/plugin/plan.js",
        user,
        what: "plugin",
        text: plugin,
        is_ours: is_plugin,
    },
    next_steps,
    fresh_context: "/new",
    skeleton_at_compaction: true,
    judge: Judge {
        program: "opencode",
        invocation: judge,
        format: Format::Extract(answer),
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

/// OpenCode's user config directory: `$XDG_CONFIG_HOME/opencode`, else
/// `~/.config/opencode`.
fn user(home: &Path) -> PathBuf {
    let config = crate::env::os("XDG_CONFIG_HOME")
        .map(PathBuf::from)
        .filter(|d| d.is_absolute())
        .unwrap_or_else(|| home.join(".config"));
    config.join("opencode").join("plugin").join("plan.js")
}

fn next_steps(_root: Option<&Path>) -> Result<String> {
    Ok("next: OpenCode loads plugins with no trust step: start a new opencode session\n  the first start with the plugin installs @opencode-ai/plugin beside it (needs the npm registry once)\n  Kilo Code runs the same file: copy it to .kilo/plugin/plan.js\n".to_string())
}

/// The plugin, calling `program`.
pub fn plugin(program: &str) -> String {
    script_calling(PLUGIN, program)
}

/// Whether a file's text is a plugin plan wrote: its first line is ours.
pub fn is_plugin(text: &str) -> bool {
    is_script(PLUGIN, text)
}

fn judge(r: &Request) -> Invocation {
    // The prompt goes last, as `run`'s message.
    //
    // It starts in a directory of its own: OpenCode hands its model the AGENTS.md,
    // CLAUDE.md and CONTEXT.md of every directory between a file it reads and its
    // working directory, whatever switch is set (1.18.33); from outside the root
    // there are none between.
    let mut inv = Invocation::new("opencode", false);
    inv.start_in(r.workdir);
    inv.env
        .push(("OPENCODE_PERMISSION".to_string(), permission(r.repo_root)));
    // The repository's own `.opencode/` and opencode.json could grant an agent back
    // what the permissions deny, and OpenCode writes a .gitignore into `.opencode/`
    // on its first start there: the judge reads neither.
    inv.env.push((
        "OPENCODE_DISABLE_PROJECT_CONFIG".to_string(),
        "1".to_string(),
    ));
    // The same switch keeps the root's AGENTS.md out, wherever it is found; this
    // one keeps its CLAUDE.md (and Claude Code's skills) out too.
    inv.env
        .push(("OPENCODE_DISABLE_CLAUDE_CODE".to_string(), "1".to_string()));
    inv.push(&["run", "--pure", "--format", "json", "--title", "plan judge"]);
    if let Some(model) = r.model {
        inv.push(&["-m", model]);
    }
    inv.system_in_prompt = true;
    inv
}

/// The answer in `opencode run --format json`'s events: the text parts, in order.
/// An `error` event is the run's own failure; no text at all is no answer.
fn answer(stdout: &str) -> Result<String, String> {
    let mut texts = Vec::new();
    for line in stdout.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let Ok(event) = serde_json::from_str::<Value>(line) else {
            continue;
        };
        match event.get("type").and_then(Value::as_str) {
            Some("text") => {
                if let Some(text) = event.pointer("/part/text").and_then(Value::as_str) {
                    texts.push(text.to_string());
                }
            }
            Some("error") => {
                let error = event.get("error").unwrap_or(&Value::Null);
                let said = error
                    .pointer("/data/message")
                    .or_else(|| error.get("message"))
                    .or_else(|| error.get("name"))
                    .and_then(Value::as_str)
                    .unwrap_or("no message");
                return Err(format!("opencode reported an error: {said}"));
            }
            _ => {}
        }
    }
    if texts.is_empty() {
        return Err("opencode printed no text part".to_string());
    }
    Ok(texts.join("\n"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::protocol::Answer;

    /// Every event plan answers is one the plugin relays, under the same slug, and
    /// every key of plan's answers is one it reads.
    #[test]
    fn the_plugin_relays_every_event_and_reads_every_key() {
        for e in EVENTS {
            assert!(
                PLUGIN.contains(&format!("\"{}\"", e.slug)),
                "integrations/opencode/plan.js never calls `plan hook opencode {}`",
                e.slug
            );
            assert!(
                PLUGIN.contains(&format!("\"{}\"", e.name)),
                "integrations/opencode/plan.js has no handler for {}",
                e.name
            );
        }
        for answer in [
            Answer::Context("x".into()),
            Answer::Block("x".into()),
            Answer::Note("x".into()),
        ] {
            let v: Value =
                serde_json::from_str(&render_to_script(Kind::Stop, "session.idle", &answer).0)
                    .unwrap();
            for key in v.as_object().unwrap().keys() {
                assert!(
                    PLUGIN.contains(&format!("typeof {key} === \"string\"")),
                    "integrations/opencode/plan.js does not read \"{key}\""
                );
            }
        }
        assert_eq!(
            render_to_script(Kind::Tool, "tool.execute.after", &Answer::Nothing).0,
            "{}"
        );
    }

    #[test]
    fn the_judge_denies_every_tool_that_writes_and_loads_no_plugin() {
        let inv = judge(&Request {
            model: Some("fake/m"),
            repo_root: Path::new("/repo"),
            workdir: Path::new("/tmp/run/work"),
            out_file: Path::new("/tmp/run/out.txt"),
            system: "Judge.",
            max_turns: 3,
        });
        assert_eq!(inv.program, "opencode");
        assert_eq!(
            inv.args,
            [
                "run",
                "--pure",
                "--format",
                "json",
                "--title",
                "plan judge",
                "-m",
                "fake/m"
            ]
        );
        assert!(inv.prompt_arg && !inv.stdin_prompt && inv.system_in_prompt);
        let (_, permission) = inv
            .env
            .iter()
            .find(|(k, _)| k == "OPENCODE_PERMISSION")
            .expect("the judge's permissions");
        let permission: Value = serde_json::from_str(permission).unwrap();
        for tool in ["edit", "bash", "webfetch", "task"] {
            assert_eq!(permission[tool], "deny", "{tool}");
        }
        assert_eq!(
            permission["external_directory"],
            serde_json::json!({"*": "deny", "/repo": "allow", "/repo/*": "allow"})
        );
        assert_eq!(inv.cwd.as_deref(), Some(Path::new("/tmp/run/work")));
        assert!(inv.env.contains(&(
            "OPENCODE_DISABLE_PROJECT_CONFIG".to_string(),
            "1".to_string()
        )));
        // `--agent plan` runs bash; `--auto` approves what is not denied.
        assert!(!inv.args.iter().any(|a| a == "--agent" || a == "--auto"));
    }

    #[test]
    fn the_answer_is_the_text_parts_of_the_jsonl() {
        let stdout = concat!(
            r#"{"type":"step_start","part":{"type":"step-start"}}"#,
            "\n",
            r#"{"type":"tool_use","part":{"type":"tool","tool":"read"}}"#,
            "\n",
            "not json\n",
            r#"{"type":"text","part":{"type":"text","text":"It is there."}}"#,
            "\n",
            r#"{"type":"text","part":{"type":"text","text":"VERDICT: accept\nmissing:"}}"#,
            "\n",
        );
        assert_eq!(
            answer(stdout).unwrap(),
            "It is there.\nVERDICT: accept\nmissing:"
        );
        assert_eq!(
            answer(r#"{"type":"error","error":{"name":"APIError","data":{"message":"bad key"}}}"#),
            Err("opencode reported an error: bad key".to_string())
        );
        assert!(answer("").is_err());
        assert!(answer(r#"{"type":"step_finish","part":{}}"#).is_err());
    }
}

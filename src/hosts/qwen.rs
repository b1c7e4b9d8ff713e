//! Qwen Code: its hook events, answers, registration and read-only judge.
//!
//! Protocol facts the code relies on (checked with `@qwen-code/qwen-code` 0.24.4,
//! which needs node >= 22, headless `qwen -p`, against a local model server):
//! - Registration: Claude Code's layout under `"hooks"` in `.qwen/settings.json`
//!   (project) or `~/.qwen/settings.json` (user); `timeout` in seconds. A
//!   `disableAllHooks: true` there turns them all off. Qwen writes `"$version": 4`
//!   into any settings file that lacks it, each time it loads one.
//! - Payloads carry `session_id, transcript_path, cwd, hook_event_name`.
//!   SessionStart has `source` (`startup`, and `compact` again after a
//!   compaction). UserPromptSubmit has `prompt`, and also fires with `prompt: ""`
//!   before each model call that follows tool results: those are no prompts of
//!   the person's, so `inject.every_prompt: always` does not inject there, and a
//!   block only comes with them when plan.md changed. PostToolUse has
//!   `tool_name`, `tool_input`, `tool_response`; the file tools are
//!   `write_file {file_path, content}` and `edit {file_path, old_string,
//!   new_string}`. Stop has `stop_hook_active` and `last_assistant_message`.
//! - Answers: Claude Code's. `hookSpecificOutput.additionalContext` on
//!   SessionStart (into the system prompt), UserPromptSubmit and PostToolUse;
//!   `{decision: "block", reason}` on Stop starts another turn with the reason.
//!   Qwen overrides the eighth block in a row and ends the turn
//!   (`stopHookBlockingCap`, `QWEN_CODE_STOP_HOOK_BLOCK_CAP`): 7 reach the model.
//! - Compaction: SessionStart fires again with `source: compact`, and plan
//!   injects there.
//! - Judge: `qwen --safe-mode` runs no hooks, extensions or MCP servers;
//!   `--core-tools` limits the built-in tools to the reading ones, but 0.24.4
//!   still offers `agent`, `skill`, `tool_call` (any tool by name),
//!   `tool_search`, `get_goal`, `update_goal` and `list_agents`:
//!   `--exclude-tools` removes those, and `--approval-mode plan` refuses any
//!   edit or shell command that gets through. Text output is the
//!   final answer; the prompt goes last, as `-p`'s value.

use std::path::{Path, PathBuf};

use anyhow::Result;

use super::invocation::{Invocation, Request};
use super::protocol::{Answer, Kind, claude_json, out};
use super::{Event, Judge, Registration, Settings, Spec, event};

/// Qwen stamps `"$version": 4` into a settings file without one whenever it
/// loads it (0.24.4): a file plan creates carries it already, so the first Qwen
/// run in a repository (perhaps a judge's) leaves the committed file alone.
const SETTINGS_VERSION: u64 = 4;

/// Qwen's `stopHookBlockingCap` (default 8) counts the block it overrides: the
/// eighth block in a row ends the turn instead of reaching the model (seen: 8
/// stops, 7 continuations). So 7 reach it.
pub const BLOCKS_IN_A_ROW: u32 = 7;

/// The tools a judge's model is offered: reading and searching only.
pub const READ_TOOLS: &str = "read_file,read_many_files,list_directory,glob,grep_search";

/// Every other tool Qwen Code 0.24.4 names (its `ToolNames`). `--core-tools`
/// alone is no allowlist there: `agent`, `skill`, `tool_call` (any tool by name),
/// `tool_search` (which loads the deferred ones), `get_goal`, `update_goal` and
/// `list_agents` stay offered, and without `tool_search` the deferred tools are
/// offered directly. A version that adds a tool shows up in the judge's e2e test,
/// which checks the offered list.
pub const EXCLUDED_TOOLS: &str = concat!(
    "exec,edit,write_file,zoom_image,run_shell_command,todo_write,save_memory,",
    "agent,skill,exit_plan_mode,enter_plan_mode,web_fetch,web_search,",
    "image_gen,lsp,ask_user_question,cron_create,cron_list,cron_delete,",
    "loop_wakeup,create_sub_session,list_agents,task_stop,task_create,",
    "task_update,task_list,team_create,team_delete,team_plan_approval,",
    "request_shutdown,send_message,structured_output,monitor,notebook_edit,",
    "tool_call,tool_search,read_mcp_resource,enter_worktree,exit_worktree,",
    "workflow,artifact,record_artifact,record_source,report_findings,",
    "get_goal,update_goal,omni_downsample_image,omni_downscale_video,",
    "omni_downsample_audio,omni_extract_keyframes,omni_extract_audio,",
    "omni_clip_video,omni_convert_image,omni_transcribe_audio,omni_clip_image,",
    "omni_clip_audio,omni_caption_image,omni_caption_audio,omni_ocr_image,",
    "omni_understand_video_segments,omni_recall_media_memory,propose_goal,",
    "display_image",
);

/// Timeouts in seconds.
pub const EVENTS: &[Event] = &[
    event("session-start", Kind::Start, "SessionStart", None, 10),
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
        Some("write_file|edit"),
        10,
    ),
    // The stop decision may consult the loop judge, a model call.
    event("stop", Kind::Stop, "Stop", None, 60).blocks_in_a_row(BLOCKS_IN_A_ROW),
];

pub static HOST: Spec = Spec {
    name: "qwen",
    title: "Qwen Code",
    events: EVENTS,
    render,
    registration: Registration::Settings(Settings {
        project: ".qwen/settings.json",
        user,
        comments: true,
        version: Some(("$version", SETTINGS_VERSION)),
        ..Settings::DEFAULT
    }),
    next_steps,
    fresh_context: "/clear",
    judge: Judge {
        program: "qwen",
        invocation: judge,
        ..Judge::DEFAULT
    },
    ..Spec::DEFAULT
};

fn user(home: &Path) -> PathBuf {
    home.join(".qwen").join("settings.json")
}

fn render(_kind: Kind, event: &str, answer: &Answer) -> (String, String) {
    out(claude_json(event, answer), "")
}

fn next_steps(root: Option<&Path>) -> Result<String> {
    let here = if root.is_some() { " here" } else { "" };
    Ok(format!(
        "next: restart Qwen Code sessions already running{here}; hooks need no approval step\n"
    ))
}

fn judge(r: &Request) -> Invocation {
    // Isolated from the repository: `--safe-mode` loads no context file, hook,
    // extension, skill or MCP server, and the run starts in a directory of its own,
    // so the root's `.qwen/` settings and `.env` (an OPENAI_BASE_URL there would
    // send the judge to the agent's server) do not load; it reads the root through
    // `--include-directories`.
    let mut inv = Invocation::new("qwen", false);
    inv.start_in(r.workdir);
    inv.env_file_dir = Some(".qwen");
    let root = r.repo_root.to_string_lossy();
    inv.push(&[
        "--safe-mode",
        "--include-directories",
        &root,
        "--approval-mode",
        "plan",
        "--core-tools",
        READ_TOOLS,
        "--exclude-tools",
        EXCLUDED_TOOLS,
        "--chat-recording",
        "false",
        "--max-session-turns",
        &r.max_turns.to_string(),
        "-o",
        "text",
    ]);
    if let Some(model) = r.model {
        inv.push(&["-m", model]);
    }
    if !r.system.is_empty() {
        inv.push(&["--append-system-prompt", r.system]);
    }
    // `-p` goes last so the prompt is its value and the final argument.
    inv.push(&["-p"]);
    inv
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_judge_offers_only_reading_tools_and_runs_no_hooks() {
        let inv = judge(&Request {
            model: Some("m"),
            repo_root: Path::new("/repo"),
            workdir: Path::new("/tmp/run/work"),
            out_file: Path::new("/tmp/run/out.txt"),
            system: "Judge.",
            max_turns: 3,
        });
        assert_eq!(inv.program, "qwen");
        assert_eq!(inv.cwd.as_deref(), Some(Path::new("/tmp/run/work")));
        assert_eq!(
            inv.args,
            [
                "--safe-mode",
                "--include-directories",
                "/repo",
                "--approval-mode",
                "plan",
                "--core-tools",
                READ_TOOLS,
                "--exclude-tools",
                EXCLUDED_TOOLS,
                "--chat-recording",
                "false",
                "--max-session-turns",
                "3",
                "-o",
                "text",
                "-m",
                "m",
                "--append-system-prompt",
                "Judge.",
                "-p",
            ]
        );
        assert!(inv.prompt_arg && !inv.stdin_prompt && !inv.system_in_prompt);
        assert!(!inv.args.iter().any(|a| a == "--yolo" || a == "-y"));
    }
}

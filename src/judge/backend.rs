//! Which program a judge backend runs and with which argv. Pure: it builds the command
//! line and never runs it. Every flag that keeps a judge read-only comes from HOSTS.md.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use anyhow::{Result, bail};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    Claude,
    Codex,
    Pi,
    Gemini,
    Llm,
    Command,
    None,
}

impl Backend {
    pub const ALL: [Backend; 7] = [
        Backend::Claude,
        Backend::Codex,
        Backend::Pi,
        Backend::Gemini,
        Backend::Llm,
        Backend::Command,
        Backend::None,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Backend::Claude => "claude",
            Backend::Codex => "codex",
            Backend::Pi => "pi",
            Backend::Gemini => "gemini",
            Backend::Llm => "llm",
            Backend::Command => "command",
            Backend::None => "none",
        }
    }

    /// The executable `auto` looks for on PATH. `command` and `none` have none: the
    /// first names its program in config, the second runs nothing.
    pub fn program(self) -> Option<&'static str> {
        match self {
            Backend::Command | Backend::None => None,
            other => Some(other.as_str()),
        }
    }
}

/// The order `auto` tries backends in: agents that can read the repository themselves
/// first, `llm` (which only sees what the prompt carries) last.
pub fn auto_order() -> [Backend; 5] {
    [
        Backend::Claude,
        Backend::Codex,
        Backend::Pi,
        Backend::Gemini,
        Backend::Llm,
    ]
}

/// The backend `auto` picks: the first in `auto_order` whose program `find` locates,
/// with where it is. `find` is the PATH search, passed in to keep this file pure.
pub fn resolve_auto(find: impl Fn(&str) -> Option<PathBuf>) -> Option<(Backend, PathBuf)> {
    auto_order()
        .into_iter()
        .find_map(|b| Some((b, find(b.program()?)?)))
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Backend {
    type Err = anyhow::Error;

    fn from_str(word: &str) -> Result<Backend> {
        if let Some(backend) = Backend::ALL.into_iter().find(|b| b.as_str() == word) {
            return Ok(backend);
        }
        let names: Vec<&str> = Backend::ALL.iter().map(|b| b.as_str()).collect();
        bail!(
            "unknown judge backend \"{word}\"\n  hint: expected auto, {}",
            names.join(", ")
        )
    }
}

/// A judge run, ready for the process runner. The prompt travels on stdin
/// (`stdin_prompt`) or as the last argument (`prompt_arg`), never both.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Invocation {
    pub program: String,
    pub args: Vec<String>,
    pub stdin_prompt: bool,
    pub prompt_arg: bool,
    /// The backend has no flag for a system prompt: put the system text at the top of
    /// the prompt instead.
    pub system_in_prompt: bool,
    pub env: Vec<(String, String)>,
    /// The backend writes its final answer to this file rather than to stdout.
    pub reads_last_message: Option<PathBuf>,
    /// Files the run needs, to be written (path, text) before it starts. They go
    /// beside `out_file`, in the run's private temporary directory.
    pub files: Vec<(PathBuf, String)>,
}

/// Gemini CLI's policy for a judge run, passed with `--policy` (user tier, above
/// anything a repository's own `.gemini/` can set). `--approval-mode plan` alone
/// is not read-only: plan mode offers `exit_plan_mode`, which headless switches to
/// YOLO, and then `run_shell_command` runs. So the policy allows the reading tools
/// and denies everything else; a denied tool is not even offered to the model.
/// Gemini's priorities run 0..=999 within a tier; the highest matching rule wins.
pub const GEMINI_POLICY: &str = r#"# plan's sign-off judge: read and search, nothing else.

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

/// The argv that runs `backend` read-only as a judge. `command` is the configured argv
/// for `Backend::Command`; `out_file` is where codex writes its final message. An
/// argument prompt (`prompt_arg`) must not start with `-` or `@`: pi and gemini would
/// read it as a flag or a file to attach.
pub fn invocation(
    backend: Backend,
    model: Option<&str>,
    command: &[String],
    repo_root: &Path,
    out_file: &Path,
    system: &str,
    max_turns: u32,
) -> Result<Invocation> {
    let model = model.map(str::trim).filter(|m| !m.is_empty());
    let system = system.trim();
    let mut args: Vec<String> = Vec::new();
    let mut files = Vec::new();
    let mut push = |items: &[&str]| args.extend(items.iter().map(|s| s.to_string()));
    let (program, stdin_prompt, system_in_prompt, reads_last_message) = match backend {
        Backend::Claude => {
            // `--tools` decides which tools exist at all; `--allowedTools` would only
            // pre-approve. Hooks are off through settings, not through our PLAN_JUDGE.
            push(&[
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
                "--no-session-persistence",
                "--max-turns",
                &max_turns.to_string(),
            ]);
            if let Some(model) = model {
                push(&["--model", model]);
            }
            if !system.is_empty() {
                push(&["--append-system-prompt", system]);
            }
            ("claude".to_string(), true, false, None)
        }
        Backend::Codex => {
            // `-c` overrides config.toml for this run only: `[features] hooks = false`
            // keeps the repository's Codex hooks from firing inside the judge. The
            // prompt is `-`: codex exec then reads it from stdin (its `exec --help`:
            // "if `-` is used, instructions are read from stdin"), which keeps a
            // large prompt clear of the argv size limit.
            let repo = repo_root.to_string_lossy();
            let out = out_file.to_string_lossy();
            push(&[
                "exec",
                "-s",
                "read-only",
                "--ephemeral",
                "--skip-git-repo-check",
                "-c",
                "features.hooks=false",
                "-C",
                &repo,
            ]);
            if let Some(model) = model {
                push(&["-m", model]);
            }
            push(&["-o", &out, "-"]);
            (
                "codex".to_string(),
                true,
                true,
                Some(out_file.to_path_buf()),
            )
        }
        Backend::Pi => {
            // No stdin prompt is documented for pi, so the prompt goes last in argv;
            // `--no-extensions` keeps project extensions (pi's hooks) out of the run.
            push(&[
                "-p",
                "--tools",
                "read,grep,find,ls",
                "--no-session",
                "--no-extensions",
            ]);
            if let Some(model) = model {
                push(&["--model", model]);
            }
            if !system.is_empty() {
                push(&["--append-system-prompt", system]);
            }
            ("pi".to_string(), false, false, None)
        }
        Backend::Gemini => {
            // Gemini has no documented switch to turn hooks off for one run. Our own
            // hooks see PLAN_JUDGE=1 and do nothing, which is the part that matters:
            // the judge's AfterAgent must not trip the continuation guard. `-p` goes
            // last so the prompt is its value and the final argument.
            let policy = out_file.with_file_name("gemini-policy.toml");
            files.push((policy.clone(), GEMINI_POLICY.to_string()));
            let policy = policy.to_string_lossy();
            push(&["--approval-mode", "plan", "--policy", &policy, "-o", "json"]);
            if let Some(model) = model {
                push(&["-m", model]);
            }
            push(&["-p"]);
            ("gemini".to_string(), false, true, None)
        }
        Backend::Llm => {
            if let Some(model) = model {
                push(&["-m", model]);
            }
            if !system.is_empty() {
                push(&["-s", system]);
            }
            push(&["--no-stream", "-n"]);
            ("llm".to_string(), true, false, None)
        }
        Backend::Command => {
            let Some((program, rest)) = command.split_first() else {
                bail!(
                    "judge backend is command but judge.command is empty\n  hint: set judge.command in .plan/config.yaml to an argv list, e.g. [\"./judge.sh\"]"
                );
            };
            if program.trim().is_empty() {
                bail!("judge.command names an empty program");
            }
            args.extend(rest.iter().cloned());
            (program.clone(), true, true, None)
        }
        Backend::None => bail!(
            "judge backend is none: there is no judge to run\n  hint: `plan judge backend NAME` picks one"
        ),
    };
    Ok(Invocation {
        program,
        args,
        stdin_prompt,
        prompt_arg: !stdin_prompt,
        system_in_prompt,
        env: vec![("PLAN_JUDGE".to_string(), "1".to_string())],
        reads_last_message,
        files,
    })
}

/// The sign-off verdict's shape, for backends that take a JSON schema for their final
/// answer. Strict: every property required, nothing else allowed.
pub const VERDICT_SCHEMA: &str = r#"{"type":"object","properties":{"verdict":{"type":"string","enum":["accept","reject"]},"missing":{"type":"array","items":{"type":"string"}},"notes":{"type":"string"}},"required":["verdict","missing","notes"],"additionalProperties":false}"#;

/// Asks `inv` for a structured verdict where the backend's CLI takes a schema file:
/// codex `--output-schema FILE` (in codex 0.169.0's `exec --help`). Claude's
/// `--json-schema` exists too, but it answers through an extra tool, which the
/// read-only tool list would have to admit; left out. Returns whether it applies.
pub fn ask_for_verdict_schema(backend: Backend, inv: &mut Invocation, schema_file: &Path) -> bool {
    if backend != Backend::Codex {
        return false;
    }
    let at = inv
        .args
        .iter()
        .position(|a| a == "-o")
        .unwrap_or(inv.args.len());
    let file = schema_file.to_string_lossy().into_owned();
    inv.args
        .splice(at..at, ["--output-schema".to_string(), file]);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    const SYSTEM: &str = "You are a read-only sign-off judge.";

    fn run(backend: Backend, model: Option<&str>) -> Invocation {
        invocation(
            backend,
            model,
            &[],
            Path::new("/repo"),
            Path::new("/tmp/out.txt"),
            SYSTEM,
            12,
        )
        .unwrap()
    }

    fn argv(inv: &Invocation) -> Vec<&str> {
        std::iter::once(inv.program.as_str())
            .chain(inv.args.iter().map(String::as_str))
            .collect()
    }

    #[test]
    fn names_round_trip() {
        for backend in Backend::ALL {
            assert_eq!(backend.as_str().parse::<Backend>().unwrap(), backend);
            assert_eq!(backend.to_string(), backend.as_str());
        }
        let err = "auto".parse::<Backend>().unwrap_err().to_string();
        assert!(err.starts_with("unknown judge backend \"auto\""), "{err}");
        assert!("Claude".parse::<Backend>().is_err());
    }

    #[test]
    fn auto_tries_agents_before_llm() {
        assert_eq!(
            auto_order().map(Backend::as_str),
            ["claude", "codex", "pi", "gemini", "llm"]
        );
        assert_eq!(Backend::Command.program(), None);
        assert_eq!(Backend::None.program(), None);
        assert_eq!(Backend::Gemini.program(), Some("gemini"));
        let found = |p: &str| (p == "pi" || p == "llm").then(|| PathBuf::from(format!("/bin/{p}")));
        assert_eq!(
            resolve_auto(found),
            Some((Backend::Pi, PathBuf::from("/bin/pi")))
        );
        assert_eq!(resolve_auto(|_| None), None);
    }

    #[test]
    fn claude_is_read_only_without_hooks() {
        let inv = run(Backend::Claude, None);
        assert_eq!(
            argv(&inv),
            [
                "claude",
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
                "--no-session-persistence",
                "--max-turns",
                "12",
                "--append-system-prompt",
                SYSTEM,
            ]
        );
        assert!(inv.stdin_prompt && !inv.prompt_arg && !inv.system_in_prompt);
        assert_eq!(inv.reads_last_message, None);
    }

    #[test]
    fn claude_with_model() {
        let inv = run(Backend::Claude, Some("claude-opus-4"));
        let argv = argv(&inv);
        assert_eq!(
            argv[15..],
            ["--model", "claude-opus-4", "--append-system-prompt", SYSTEM]
        );
    }

    #[test]
    fn claude_without_system_prompt() {
        let inv = invocation(
            Backend::Claude,
            None,
            &[],
            Path::new("/repo"),
            Path::new("/o"),
            "  ",
            3,
        )
        .unwrap();
        assert_eq!(inv.args[inv.args.len() - 2..], ["--max-turns", "3"]);
    }

    #[test]
    fn codex_reads_prompt_from_stdin_and_writes_last_message() {
        let inv = run(Backend::Codex, None);
        assert_eq!(
            argv(&inv),
            [
                "codex",
                "exec",
                "-s",
                "read-only",
                "--ephemeral",
                "--skip-git-repo-check",
                "-c",
                "features.hooks=false",
                "-C",
                "/repo",
                "-o",
                "/tmp/out.txt",
                "-",
            ]
        );
        assert!(inv.stdin_prompt && !inv.prompt_arg && inv.system_in_prompt);
        assert_eq!(inv.reads_last_message, Some(PathBuf::from("/tmp/out.txt")));
    }

    #[test]
    fn codex_gets_the_verdict_schema_others_do_not() {
        let mut inv = run(Backend::Codex, None);
        assert!(ask_for_verdict_schema(
            Backend::Codex,
            &mut inv,
            Path::new("/tmp/v.json")
        ));
        assert_eq!(
            argv(&inv)[9..],
            [
                "/repo",
                "--output-schema",
                "/tmp/v.json",
                "-o",
                "/tmp/out.txt",
                "-"
            ]
        );
        for backend in [Backend::Claude, Backend::Pi, Backend::Gemini, Backend::Llm] {
            let mut inv = run(backend, None);
            let before = inv.clone();
            assert!(!ask_for_verdict_schema(backend, &mut inv, Path::new("/v")));
            assert_eq!(inv, before);
        }
        let schema: serde_json::Value = serde_json::from_str(VERDICT_SCHEMA).unwrap();
        assert_eq!(
            schema["required"],
            serde_json::json!(["verdict", "missing", "notes"])
        );
    }

    #[test]
    fn codex_with_model() {
        let inv = run(Backend::Codex, Some("gpt-5"));
        assert_eq!(
            argv(&inv)[9..],
            ["/repo", "-m", "gpt-5", "-o", "/tmp/out.txt", "-"]
        );
    }

    #[test]
    fn pi_takes_prompt_as_last_argument() {
        let inv = run(Backend::Pi, None);
        assert_eq!(
            argv(&inv),
            [
                "pi",
                "-p",
                "--tools",
                "read,grep,find,ls",
                "--no-session",
                "--no-extensions",
                "--append-system-prompt",
                SYSTEM,
            ]
        );
        assert!(!inv.stdin_prompt && inv.prompt_arg && !inv.system_in_prompt);
    }

    #[test]
    fn pi_with_model() {
        let inv = run(Backend::Pi, Some("anthropic/claude-sonnet-4"));
        assert_eq!(
            argv(&inv)[6..],
            [
                "--model",
                "anthropic/claude-sonnet-4",
                "--append-system-prompt",
                SYSTEM
            ]
        );
    }

    #[test]
    fn gemini_plans_under_a_read_only_policy_and_ends_with_p() {
        let inv = run(Backend::Gemini, None);
        assert_eq!(
            argv(&inv),
            [
                "gemini",
                "--approval-mode",
                "plan",
                "--policy",
                "/tmp/gemini-policy.toml",
                "-o",
                "json",
                "-p"
            ]
        );
        assert!(!inv.stdin_prompt && inv.prompt_arg && inv.system_in_prompt);
        assert_eq!(
            inv.files,
            [(
                PathBuf::from("/tmp/gemini-policy.toml"),
                GEMINI_POLICY.to_string()
            )]
        );
        let inv = run(Backend::Gemini, Some("gemini-2.5-pro"));
        assert_eq!(
            argv(&inv)[5..],
            ["-o", "json", "-m", "gemini-2.5-pro", "-p"]
        );
    }

    /// The rules of the policy, as (decision, priority, tool names, mcpName).
    fn policy_rules() -> Vec<(String, u32, Vec<String>, Option<String>)> {
        let mut rules = Vec::new();
        for block in GEMINI_POLICY.split("[[rule]]").skip(1) {
            let field = |key: &str| {
                block
                    .lines()
                    .find_map(|l| l.strip_prefix(&format!("{key} = ")))
                    .map(str::to_string)
            };
            let names: Vec<String> = field("toolName")
                .unwrap()
                .trim_matches(|c| c == '[' || c == ']')
                .split(", ")
                .map(|n| n.trim_matches('"').to_string())
                .collect();
            let decision = field("decision").unwrap().trim_matches('"').to_string();
            let priority = field("priority").unwrap().parse().unwrap();
            let mcp = field("mcpName").map(|m| m.trim_matches('"').to_string());
            rules.push((decision, priority, names, mcp));
        }
        rules
    }

    /// The decision the policy gives a built-in tool: the highest rule that
    /// names it or `*`, as Gemini CLI's engine picks.
    fn decision(tool: &str) -> String {
        policy_rules()
            .into_iter()
            .filter(|(_, _, names, mcp)| {
                mcp.is_none() && names.iter().any(|n| n == tool || n == "*")
            })
            .max_by_key(|(_, priority, _, _)| *priority)
            .map(|(decision, ..)| decision)
            .unwrap()
    }

    #[test]
    fn the_gemini_policy_allows_reading_and_denies_every_way_out() {
        for tool in ["read_file", "list_directory", "glob", "grep_search"] {
            assert_eq!(decision(tool), "allow", "{tool}");
        }
        for tool in [
            "exit_plan_mode",
            "run_shell_command",
            "write_file",
            "replace",
            "save_memory",
            "web_fetch",
            "invoke_agent",
            "a_tool_added_next_year",
        ] {
            assert_eq!(decision(tool), "deny", "{tool}");
        }
        let top = policy_rules().iter().map(|r| r.1).max().unwrap();
        assert!(top <= 999, "Gemini refuses priorities over 999");
        assert!(policy_rules().iter().any(|(d, p, names, mcp)| d == "deny"
            && *p == top
            && names == &["*"]
            && mcp.as_deref() == Some("*")));
    }

    #[test]
    fn llm_reads_stdin_and_logs_nothing() {
        let inv = run(Backend::Llm, None);
        assert_eq!(argv(&inv), ["llm", "-s", SYSTEM, "--no-stream", "-n"]);
        assert!(inv.stdin_prompt && !inv.prompt_arg && !inv.system_in_prompt);
        let inv = run(Backend::Llm, Some("gpt-4o-mini"));
        assert_eq!(
            argv(&inv),
            [
                "llm",
                "-m",
                "gpt-4o-mini",
                "-s",
                SYSTEM,
                "--no-stream",
                "-n"
            ]
        );
    }

    #[test]
    fn command_runs_the_configured_argv() {
        let command = vec!["./judge.sh".to_string(), "--strict".to_string()];
        let inv = invocation(
            Backend::Command,
            Some("ignored"),
            &command,
            Path::new("/repo"),
            Path::new("/o"),
            SYSTEM,
            5,
        )
        .unwrap();
        assert_eq!(argv(&inv), ["./judge.sh", "--strict"]);
        assert!(inv.stdin_prompt && !inv.prompt_arg && inv.system_in_prompt);
    }

    #[test]
    fn command_without_argv_and_none_are_errors() {
        let err = invocation(
            Backend::Command,
            None,
            &[],
            Path::new("/r"),
            Path::new("/o"),
            "",
            1,
        )
        .unwrap_err()
        .to_string();
        assert!(err.contains("judge.command is empty"), "{err}");
        let err = invocation(
            Backend::None,
            None,
            &[],
            Path::new("/r"),
            Path::new("/o"),
            "",
            1,
        )
        .unwrap_err()
        .to_string();
        assert!(err.starts_with("judge backend is none"), "{err}");
    }

    #[test]
    fn every_judge_runs_with_plan_judge_set() {
        let command = vec!["judge".to_string()];
        for backend in Backend::ALL {
            if backend == Backend::None {
                continue;
            }
            let inv = invocation(
                backend,
                None,
                &command,
                Path::new("/r"),
                Path::new("/o"),
                "",
                1,
            )
            .unwrap();
            assert!(
                inv.env
                    .contains(&("PLAN_JUDGE".to_string(), "1".to_string())),
                "{backend}"
            );
            assert_ne!(inv.stdin_prompt, inv.prompt_arg, "{backend}");
        }
    }
}

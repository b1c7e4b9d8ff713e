//! Which program a judge backend runs and with which argv. Pure: it builds the command
//! line and never runs it. A host's own judge flags, the ones that keep it read-only,
//! are declared in its module under `src/hosts/`; this file adds what every judge run
//! shares. The backends themselves are named in `hosts/backend.rs`.

use std::path::{Path, PathBuf};

use anyhow::{Result, bail};

use crate::hosts::Host;

pub use crate::hosts::backend::{
    Backend, auto_names, auto_names_and, auto_order, model_names, resolve_auto,
};
pub use crate::hosts::invocation::{Format, Invocation, Request};

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
    let workdir = workdir(out_file);
    let mut inv = match backend {
        Backend::Host(host) => (host.spec().judge.invocation)(&Request {
            model,
            repo_root,
            workdir: &workdir,
            out_file,
            system,
            max_turns,
        }),
        Backend::Llm => llm(model, system),
        Backend::Command => self::command(command)?,
        Backend::None => bail!(
            "judge backend is none: there is no judge to run\n  hint: `plan judge backend NAME` picks one"
        ),
    };
    inv.env.push(("PLAN_JUDGE".to_string(), "1".to_string()));
    Ok(inv)
}

fn llm(model: Option<&str>, system: &str) -> Invocation {
    let mut inv = Invocation::new("llm", true);
    if let Some(model) = model {
        inv.push(&["-m", model]);
    }
    if !system.is_empty() {
        inv.push(&["-s", system]);
    }
    inv.push(&["--no-stream", "-n"]);
    inv
}

fn command(command: &[String]) -> Result<Invocation> {
    let Some((program, rest)) = command.split_first() else {
        bail!(
            "judge backend is command but judge.command is empty\n  hint: set judge.command in .plan/config.yaml to an argv list whose program lies outside the repository, e.g. [\"/home/you/.local/bin/my-judge\"] (not under /usr or /bin, where the system keeps its programs)"
        );
    };
    if program.trim().is_empty() {
        bail!("judge.command names an empty program");
    }
    let mut inv = Invocation::new(program, true);
    inv.args.extend(rest.iter().cloned());
    inv.system_in_prompt = true;
    Ok(inv)
}

/// Why `backend` cannot judge `root` in isolation, if it cannot: something there
/// would reach its model whatever plan passes it (the host's module says what).
pub fn refusal(backend: Backend, root: &Path) -> Option<String> {
    let Backend::Host(host) = backend else {
        return None;
    };
    let home = crate::env::os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from);
    (host.spec().judge.refuse?)(root, home.as_deref())
}

/// The instruction files under `root` (its `.git` left out) that `backend`'s host
/// hands its model as its own instructions whatever plan passes it: Droid's
/// AGENTS.md and CLAUDE.md, Gemini CLI's GEMINI.md and the names the user's
/// settings add. Sorted, relative to `root`. The sign-off judge reads a private
/// copy, so they are set aside there for the run instead of refusing the judge.
pub fn instruction_files(backend: Backend, root: &Path) -> Vec<String> {
    let names: Vec<String> = match backend {
        Backend::Host(Host::Droid) => crate::hosts::droid::GUIDELINES
            .iter()
            .map(|n| n.to_string())
            .collect(),
        Backend::Host(Host::Gemini) => {
            let home = crate::env::os("HOME")
                .filter(|h| !h.is_empty())
                .map(PathBuf::from);
            crate::hosts::gemini::context_names(home.as_deref())
        }
        _ => return Vec::new(),
    };
    let mut found = Vec::new();
    let mut dirs = vec![root.to_path_buf()];
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            let name = entry.file_name();
            if kind.is_dir() {
                if name != ".git" {
                    dirs.push(entry.path());
                }
            } else if names.iter().any(|n| name == n.as_str()) {
                let path = entry.path();
                if let Ok(rel) = path.strip_prefix(root) {
                    found.push(rel.display().to_string());
                }
            }
        }
    }
    found.sort();
    found
}

/// The private working directory of a run whose answer file is `out_file`.
pub fn workdir(out_file: &Path) -> PathBuf {
    out_file.with_file_name("work")
}

/// The sign-off verdict's shape, for backends that take a JSON schema for their final
/// answer. Strict: every property required, nothing else allowed.
pub const VERDICT_SCHEMA: &str = r#"{"type":"object","properties":{"verdict":{"type":"string","enum":["accept","reject"]},"missing":{"type":"array","items":{"type":"string"}},"notes":{"type":"string"}},"required":["verdict","missing","notes"],"additionalProperties":false}"#;

/// Asks `inv` for a structured verdict where the backend's CLI takes a schema file
/// (the host's module says how). Returns whether it applies.
pub fn ask_for_verdict_schema(backend: Backend, inv: &mut Invocation, schema_file: &Path) -> bool {
    let Backend::Host(host) = backend else {
        return false;
    };
    let Some(schema) = host.spec().judge.schema else {
        return false;
    };
    schema(inv, schema_file);
    true
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::Host;

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
            auto_order()
                .into_iter()
                .map(Backend::as_str)
                .collect::<Vec<_>>(),
            Host::ALL
                .iter()
                .map(|h| h.name())
                .chain(["llm"])
                .collect::<Vec<_>>()
        );
        assert_eq!(Backend::Command.program(), None);
        assert_eq!(Backend::None.program(), None);
        assert_eq!(Backend::Host(Host::Gemini).program(), Some("gemini"));
        let found = |p: &str| (p == "pi" || p == "llm").then(|| PathBuf::from(format!("/bin/{p}")));
        assert_eq!(
            resolve_auto(found),
            Some((Backend::Host(Host::Pi), PathBuf::from("/bin/pi")))
        );
        assert_eq!(resolve_auto(|_| None), None);
    }

    #[test]
    fn claude_is_read_only_without_hooks() {
        let inv = run(Backend::Host(Host::Claude), None);
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
                "--setting-sources",
                "user",
                "--strict-mcp-config",
                "--add-dir",
                "/repo",
                "--no-session-persistence",
                "--max-turns",
                "12",
                "--append-system-prompt",
                SYSTEM,
            ]
        );
        assert!(inv.stdin_prompt && !inv.prompt_arg && !inv.system_in_prompt);
        assert_eq!(inv.reads_last_message, None);
        assert_eq!(inv.cwd, Some(PathBuf::from("/tmp/work")));
        assert!(inv.env.contains(&(
            "CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD".to_string(),
            "0".to_string()
        )));
    }

    #[test]
    fn claude_with_model() {
        let inv = run(Backend::Host(Host::Claude), Some("claude-opus-4"));
        let argv = argv(&inv);
        assert_eq!(
            argv[20..],
            ["--model", "claude-opus-4", "--append-system-prompt", SYSTEM]
        );
    }

    #[test]
    fn claude_without_system_prompt() {
        let inv = invocation(
            Backend::Host(Host::Claude),
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
        let inv = run(Backend::Host(Host::Codex), None);
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
                "-c",
                "project_doc_max_bytes=0",
                "-C",
                "/tmp/work",
                "-o",
                "/tmp/out.txt",
                "-",
            ]
        );
        assert_eq!(inv.cwd, Some(PathBuf::from("/tmp/work")));
        assert!(inv.stdin_prompt && !inv.prompt_arg && inv.system_in_prompt);
        assert_eq!(inv.reads_last_message, Some(PathBuf::from("/tmp/out.txt")));
    }

    #[test]
    fn codex_gets_the_verdict_schema_others_do_not() {
        let mut inv = run(Backend::Host(Host::Codex), None);
        assert!(ask_for_verdict_schema(
            Backend::Host(Host::Codex),
            &mut inv,
            Path::new("/tmp/v.json")
        ));
        assert_eq!(
            argv(&inv)[11..],
            [
                "/tmp/work",
                "--output-schema",
                "/tmp/v.json",
                "-o",
                "/tmp/out.txt",
                "-"
            ]
        );
        for backend in [
            Backend::Host(Host::Claude),
            Backend::Host(Host::Pi),
            Backend::Host(Host::Gemini),
            Backend::Llm,
        ] {
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
        let inv = run(Backend::Host(Host::Codex), Some("gpt-5"));
        assert_eq!(
            argv(&inv)[11..],
            ["/tmp/work", "-m", "gpt-5", "-o", "/tmp/out.txt", "-"]
        );
    }

    #[test]
    fn pi_takes_prompt_as_last_argument() {
        let inv = run(Backend::Host(Host::Pi), None);
        assert_eq!(
            argv(&inv),
            [
                "pi",
                "-p",
                "--tools",
                "read,grep,find,ls",
                "--no-session",
                "--no-extensions",
                "--no-skills",
                "--no-prompt-templates",
                "--no-context-files",
                "--append-system-prompt",
                SYSTEM,
            ]
        );
        assert!(!inv.stdin_prompt && inv.prompt_arg && !inv.system_in_prompt);
        assert_eq!(inv.cwd, Some(PathBuf::from("/tmp/work")));
    }

    #[test]
    fn pi_with_model() {
        let inv = run(Backend::Host(Host::Pi), Some("anthropic/claude-sonnet-4"));
        assert_eq!(
            argv(&inv)[9..],
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
        let inv = run(Backend::Host(Host::Gemini), None);
        assert_eq!(
            argv(&inv),
            [
                "gemini",
                "--approval-mode",
                "plan",
                "--policy",
                "/tmp/gemini-policy.toml",
                "--include-directories",
                "/repo",
                "-o",
                "json",
                "-p"
            ]
        );
        assert_eq!(inv.cwd, Some(PathBuf::from("/tmp/work")));
        assert!(!inv.stdin_prompt && inv.prompt_arg && inv.system_in_prompt);
        assert_eq!(
            inv.files,
            [(
                PathBuf::from("/tmp/gemini-policy.toml"),
                crate::hosts::gemini::POLICY.to_string()
            )]
        );
        let inv = run(Backend::Host(Host::Gemini), Some("gemini-2.5-pro"));
        assert_eq!(
            argv(&inv)[7..],
            ["-o", "json", "-m", "gemini-2.5-pro", "-p"]
        );
    }

    /// The rules of the policy, as (decision, priority, tool names, mcpName).
    fn policy_rules() -> Vec<(String, u32, Vec<String>, Option<String>)> {
        let mut rules = Vec::new();
        for block in crate::hosts::gemini::POLICY.split("[[rule]]").skip(1) {
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

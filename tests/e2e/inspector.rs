//! `plan mcp` driven by a real MCP client from a registry: the MCP Inspector's CLI
//! (`@modelcontextprotocol/inspector --cli`), installed from npm at a pinned version
//! and cached beside the hosts. Each call is one whole session: the inspector
//! starts the freshly built `plan mcp`, does the initialize handshake, sends one
//! request and prints the result as JSON.

use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

use serde_json::{Value, json};

use crate::harness::{PLAN_BIN, install_package, run_with_timeout, system_path};

/// The last release of the inspector line with `--cli` (2.x is a rewrite).
const INSPECTOR: (&str, &str) = ("@modelcontextprotocol/inspector", "0.22.0");

const PLAN: &str = "# Plan: Ship the readme

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Log
";

fn inspector() -> std::path::PathBuf {
    static DONE: OnceLock<Result<std::path::PathBuf, String>> = OnceLock::new();
    let (pkg, version) = INSPECTOR;
    match DONE.get_or_init(|| install_package(pkg, version, "node_modules/.bin")) {
        Ok(bin) => bin.join("mcp-inspector"),
        Err(e) => panic!("{e}"),
    }
}

/// A git repository holding `PLAN`, with a HOME of its own.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::Builder::new()
            .prefix("plan-e2e-inspector-")
            .tempdir()
            .unwrap();
        for sub in ["home", "repo"] {
            std::fs::create_dir_all(dir.path().join(sub)).unwrap();
        }
        let repo = Repo { dir };
        std::fs::write(repo.root().join("plan.md"), PLAN).unwrap();
        repo.git(&["init", "-q", "-b", "main"]);
        repo
    }

    fn git(&self, args: &[&str]) {
        let out = Command::new("git")
            .args([
                "-c",
                "user.name=e2e",
                "-c",
                "user.email=e2e@example.invalid",
            ])
            .args(args)
            .current_dir(self.root())
            .env("HOME", self.dir.path().join("home"))
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "git {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }

    fn root(&self) -> std::path::PathBuf {
        self.dir.path().join("repo")
    }

    /// One inspector session against `plan mcp` in the repository; its JSON.
    fn call(&self, args: &[&str]) -> Value {
        let mut cmd = Command::new(inspector());
        cmd.arg("--cli")
            .arg(PLAN_BIN)
            .arg("mcp")
            .args(args)
            .current_dir(self.root())
            .env_clear()
            .env("PATH", system_path())
            .env("HOME", self.dir.path().join("home"))
            .env("NO_COLOR", "1")
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let run = run_with_timeout(cmd, Duration::from_secs(60));
        assert!(
            run.code == Some(0) && !run.timed_out,
            "inspector {args:?}: code {:?}, timed out {}\n--- stdout\n{}--- stderr\n{}",
            run.code,
            run.timed_out,
            run.stdout,
            run.stderr
        );
        serde_json::from_str(&run.stdout)
            .unwrap_or_else(|e| panic!("inspector {args:?} printed no JSON ({e}):\n{}", run.stdout))
    }
}

fn text(result: &Value) -> &str {
    result["content"][0]["text"].as_str().unwrap_or_default()
}

#[test]
#[ignore = "e2e: installs the MCP Inspector from npm"]
fn the_inspector_lists_the_tools_with_schemas_and_annotations() {
    let repo = Repo::new();
    // A tools/list answer means the initialize handshake went through first.
    let list = repo.call(&["--method", "tools/list"]);
    let tools = list["tools"].as_array().expect("a tools array");
    let names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    assert_eq!(
        names,
        [
            "plan_status",
            "plan_show",
            "plan_add",
            "plan_start",
            "plan_tick",
            "plan_log",
            "plan_complete",
            "plan_report",
            "plan_audit"
        ]
    );
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert_eq!(tool["inputSchema"]["type"], "object", "{name}");
        assert!(
            tool["description"].as_str().is_some_and(|d| !d.is_empty()),
            "{name}"
        );
        let read_only = matches!(
            name,
            "plan_status" | "plan_show" | "plan_report" | "plan_audit"
        );
        assert_eq!(
            tool["annotations"],
            json!({"readOnlyHint": read_only, "destructiveHint": false}),
            "{name}"
        );
    }
    let required = |name: &str| {
        let tool = tools.iter().find(|t| t["name"] == name).unwrap();
        let mut r: Vec<String> =
            serde_json::from_value(tool["inputSchema"]["required"].clone()).unwrap_or_default();
        r.sort();
        r
    };
    assert_eq!(required("plan_complete"), ["evidence", "id"]);
    assert_eq!(required("plan_tick"), ["id", "n"]);
}

#[test]
#[ignore = "e2e: installs the MCP Inspector from npm"]
fn the_inspector_calls_a_tool_gets_an_error_as_a_result_and_reads_the_plan() {
    let repo = Repo::new();
    let status = repo.call(&["--method", "tools/call", "--tool-name", "plan_status"]);
    assert_eq!(status["isError"], false, "{status}");
    let served = std::fs::canonicalize(repo.root()).unwrap().join("plan.md");
    assert!(
        text(&status).contains(&format!("serving: {}", served.display())),
        "{status}"
    );
    assert!(text(&status).contains("- ship: Ship it"), "{status}");

    // The CLI's message and hint, as a result the model can read, not a crash.
    let error = repo.call(&[
        "--method",
        "tools/call",
        "--tool-name",
        "plan_start",
        "--tool-arg",
        "id=nope",
    ]);
    assert_eq!(error["isError"], true, "{error}");
    assert_eq!(
        text(&error),
        "plan: no goal \"nope\"\n  hint: goals are ship",
        "{error}"
    );
    // The server is still the same after an error: plan.md untouched.
    assert_eq!(
        std::fs::read_to_string(repo.root().join("plan.md")).unwrap(),
        PLAN
    );

    let listed = repo.call(&["--method", "resources/list"]);
    assert_eq!(listed["resources"][0]["uri"], "plan://plan.md", "{listed}");
    let read = repo.call(&["--method", "resources/read", "--uri", "plan://plan.md"]);
    assert_eq!(read["contents"][0]["uri"], "plan://plan.md", "{read}");
    assert_eq!(read["contents"][0]["text"], PLAN, "{read}");
}

#[test]
#[ignore = "e2e: installs the MCP Inspector from npm"]
fn the_inspector_signs_a_goal_off_after_a_reject() {
    let repo = Repo::new();
    std::fs::write(repo.root().join("README.md"), "# Hello\n").unwrap();
    let judges = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/judges");
    let judge = |name: &str| {
        std::fs::create_dir_all(repo.root().join(".plan")).unwrap();
        std::fs::write(
            repo.root().join(".plan/config.yaml"),
            format!(
                "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 30\n",
                judges.join(name).display()
            ),
        )
        .unwrap();
    };
    judge("reject");
    repo.git(&["add", "-A"]);
    repo.git(&["commit", "-q", "-m", "readme"]);
    let complete = [
        "--method",
        "tools/call",
        "--tool-name",
        "plan_complete",
        "--tool-arg",
        "id=ship",
        "evidence=README.md is written",
        r#"paths=["README.md"]"#,
    ];
    let rejected = repo.call(&complete);
    assert_eq!(rejected["isError"], true, "{rejected}");
    assert_eq!(
        rejected["structuredContent"]["verdict"], "reject",
        "{rejected}"
    );
    assert!(
        rejected["structuredContent"]["missing"]
            .as_array()
            .is_some_and(|m| !m.is_empty()),
        "{rejected}"
    );
    assert!(
        std::fs::read_to_string(repo.root().join("plan.md"))
            .unwrap()
            .contains("status: active")
    );

    judge("accept");
    let accepted = repo.call(&complete);
    assert_eq!(accepted["isError"], false, "{accepted}");
    assert_eq!(
        accepted["structuredContent"]["verdict"], "accept",
        "{accepted}"
    );
    let plan = std::fs::read_to_string(repo.root().join("plan.md")).unwrap();
    assert!(plan.contains("status: done"), "{plan}");
    let record = accepted["structuredContent"]["record"].as_str().unwrap();
    assert!(
        plan.contains(record),
        "the log names the record {record}:\n{plan}"
    );
}

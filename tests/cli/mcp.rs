//! `plan mcp` over the wire: the real binary driven with JSON-RPC on stdio, as an
//! MCP host drives it. Every line the server prints must be a JSON-RPC message.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

use crate::util::{Test, fixture_path, redact};

const PLAN: &str = "# Plan: Wire

## Goal: Ship it
<!-- id: ship -->
status: open
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [ ] write it

## Log
";

const WAIT: Duration = Duration::from_secs(30);

struct Client {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<Value>,
    next_id: u64,
    /// Notifications seen so far, in order.
    notes: Vec<Value>,
    /// What `roots/list` answers, when the client says it has roots.
    roots: Option<Vec<PathBuf>>,
}

impl Client {
    /// `plan mcp` started in `cwd`, initialized.
    fn start(t: &Test, cwd: &Path, roots: Option<Vec<PathBuf>>) -> Client {
        Client::start_with(t, cwd, roots, &[])
    }

    /// The same with more arguments after `plan mcp`.
    fn start_with(t: &Test, cwd: &Path, roots: Option<Vec<PathBuf>>, args: &[&str]) -> Client {
        let mut child = t
            .cmd(&[&["mcp"], args].concat())
            .current_dir(cwd)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("server stdout is not JSON-RPC ({e}): {line}"));
                assert_eq!(value["jsonrpc"], "2.0", "{line}");
                if tx.send(value).is_err() {
                    return;
                }
            }
        });
        let mut client = Client {
            child,
            stdin,
            lines,
            next_id: 0,
            notes: Vec::new(),
            roots,
        };
        let capabilities = if client.roots.is_some() {
            json!({"roots": {"listChanged": true}})
        } else {
            json!({})
        };
        let init = client.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": capabilities,
                "clientInfo": {"name": "test", "version": "0"}
            }),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "plan", "{init}");
        client.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        client
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request without waiting; returns its id.
    fn ask(&mut self, method: &str, params: Value) -> u64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        id
    }

    /// The next message from the server that is not a request to us (those are
    /// answered here) and not a notification (those are kept).
    fn response(&mut self, id: u64) -> Value {
        let end = Instant::now() + WAIT;
        loop {
            let left = end.saturating_duration_since(Instant::now());
            let msg = self
                .lines
                .recv_timeout(left)
                .unwrap_or_else(|_| panic!("no response to request {id}"));
            if msg.get("method").is_some() && msg.get("id").is_some() {
                self.answer(&msg);
            } else if msg.get("method").is_some() {
                self.notes.push(msg);
            } else if msg["id"] == id {
                return msg;
            }
        }
    }

    fn answer(&mut self, request: &Value) {
        let result = match (request["method"].as_str(), &self.roots) {
            (Some("roots/list"), Some(roots)) => {
                let roots: Vec<Value> = roots
                    .iter()
                    .map(|r| json!({"uri": format!("file://{}", r.display()), "name": "repo"}))
                    .collect();
                json!({"roots": roots})
            }
            _ => json!({}),
        };
        self.send(json!({"jsonrpc": "2.0", "id": request["id"], "result": result}));
    }

    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.ask(method, params);
        self.response(id)
    }

    /// A tool call's result: `isError` and the text, and the whole result.
    fn call(&mut self, tool: &str, args: Value) -> (bool, String, Value) {
        let response = self.request("tools/call", json!({"name": tool, "arguments": args}));
        let result = response["result"].clone();
        assert!(result.is_object(), "{tool}: not a tool result: {response}");
        let text = result["content"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{tool}: no text: {response}"))
            .to_string();
        (result["isError"] == true, text, result)
    }

    fn ok(&mut self, tool: &str, args: Value) -> String {
        let (is_error, text, _) = self.call(tool, args);
        assert!(!is_error, "{tool} failed: {text}");
        text
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A repository with PLAN, committed, judged by `judge` through the command backend.
fn repo(judge: &str) -> Test {
    let t = Test::new().plan(PLAN);
    t.write("README.md", "# Hello\n");
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            fixture_path(judge).display()
        ),
    );
    t.commit_all("init");
    t
}

#[test]
#[expect(
    clippy::print_stderr,
    reason = "the tool list's size, for the person running the test"
)]
fn tools_list_has_nine_small_typed_tools_with_annotations() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let response = c.request("tools/list", json!({}));
    let tools = response["result"]["tools"].as_array().unwrap();
    let names: Vec<&str> = tools.iter().map(|t| t["name"].as_str().unwrap()).collect();
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
        assert!(tool["inputSchema"]["properties"].is_object(), "{name}");
        let description = tool["description"].as_str().unwrap();
        assert!(
            description.ends_with('.') && description.matches(". ").count() == 0,
            "{name}: one sentence: {description}"
        );
        let read_only = matches!(
            name,
            "plan_status" | "plan_show" | "plan_report" | "plan_audit"
        );
        assert_eq!(tool["annotations"]["readOnlyHint"], read_only, "{name}");
        assert_eq!(tool["annotations"]["destructiveHint"], false, "{name}");
    }
    let complete = &tools[6]["inputSchema"];
    assert_eq!(complete["required"], json!(["id", "evidence"]));
    // What the tool list costs a model's context; README states it.
    let bytes = serde_json::to_string(&response["result"]).unwrap().len();
    eprintln!("tools/list result: {bytes} bytes");
    assert!(bytes < 4608, "tools/list is {bytes} bytes");
}

#[test]
fn each_tool_does_what_its_command_does() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let added = c.ok(
        "plan_add",
        json!({
            "title": "Write docs",
            "done_when": "docs/guide.md explains install",
            "verify": "test -f docs/guide.md",
            "failure_modes": ["the guide is empty"],
            "subtasks": ["outline", "write"]
        }),
    );
    insta::assert_snapshot!(redact(&t, &added));
    let md = t.plan_md();
    assert!(md.contains("## Goal: Write docs"), "{md}");
    assert!(md.contains("- the guide is empty"), "{md}");

    let list = c.ok("plan_show", json!({}));
    insta::assert_snapshot!(redact(&t, &list));
    assert!(!list.contains('\u{1b}'), "no colour for a model: {list:?}");

    c.ok("plan_start", json!({"id": "write-docs"}));
    assert!(
        t.plan_md().contains("write-docs started"),
        "{}",
        t.plan_md()
    );
    c.ok("plan_tick", json!({"id": "write-docs", "n": 1}));
    assert!(t.plan_md().contains("- [x] outline"), "{}", t.plan_md());
    c.ok("plan_log", json!({"text": "outlined the guide"}));
    assert!(
        t.plan_md().contains("outlined the guide"),
        "{}",
        t.plan_md()
    );

    let card = c.ok("plan_show", json!({"id": "write"}));
    let card: Value = serde_json::from_str(&card).expect("plan_show ID is JSON");
    assert_eq!(card["id"], "write-docs", "{card}");
    assert_eq!(card["status"], "active", "{card}");

    // It names the plan.md it serves (`serving: [TMP]/repo/plan.md`).
    let status = c.ok("plan_status", json!({}));
    insta::assert_snapshot!(redact(&t, &status));
}

/// What the CLI says on stderr as a goal starts (its verify passing before the
/// work, tests not committed) comes with `plan_start`'s result, first, as the CLI
/// says it first: an agent using MCP reads no stderr, and these notes are what hold
/// it to the work. Before, they went to the host's log alone.
#[test]
fn plan_start_gives_the_notes_the_cli_gives_on_stderr() {
    let t = repo("judges/accept");
    t.write("tests/test_ship.py", "def test_ship():\n    assert 1\n");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call("plan_start", json!({"id": "ship"}));
    assert!(!is_error, "{text}");
    insta::assert_snapshot!(redact(&t, &text), @r#"
    plan: warning: the verify of ship already passes before any work: it cannot tell the work done; make it fail until the goal is met
    plan: note: tests/test_ship.py differs from the commit ship starts from: a sign-off compares the tests with that commit, so what changes in them before they are committed goes unchecked
      hint: commit the tests first to hold ship to them
    started ship (contract d634ac80)
    "#);
    let warned = "plan: warning: the verify of ship already passes before any work: it cannot tell the work done; make it fail until the goal is met";
    let noted = "plan: note: tests/test_ship.py differs from the commit ship starts from: a sign-off compares the tests with that commit, so what changes in them before they are committed goes unchecked\n  hint: commit the tests first to hold ship to them";
    assert_eq!(
        result["structuredContent"]["notes"],
        json!([warned, noted]),
        "{result}"
    );
    // A sign-off stopped before a verdict (its verify cannot run) keeps its notes
    // in the fields too.
    let t = repo("judges/accept");
    t.write(
        "plan.md",
        PLAN.replace("verify: test -f README.md", "verify: no-such-check-here"),
    );
    t.commit_all("a verify that cannot run");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call(
        "plan_complete",
        json!({"id": "ship", "evidence": "written", "paths": ["README.md"]}),
    );
    assert!(is_error, "{text}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "error", "{result}");
    let Some(notes) = fields["notes"].as_array() else {
        panic!("{text}\n{result}");
    };
    assert!(
        !notes.is_empty() && text.starts_with(notes[0].as_str().unwrap()),
        "{result}"
    );
}

#[test]
fn errors_are_tool_results_with_the_clis_message_and_hint() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, _) = c.call("plan_start", json!({"id": "nope"}));
    assert!(is_error);
    insta::assert_snapshot!(redact(&t, &text));
    // The same words the CLI prints.
    let cli = t.run(&["start", "nope"]).code(2);
    assert_eq!(cli.stderr.trim_end(), text);

    let (is_error, text, _) = c.call("plan_log", json!({"text": "ship signed off"}));
    assert!(is_error);
    insta::assert_snapshot!(redact(&t, &text));

    let (is_error, text, _) = c.call("plan_tick", json!({"id": "ship", "n": "one"}));
    assert!(is_error);
    insta::assert_snapshot!(redact(&t, &text));
    assert!(!t.plan_md().contains("- [x]"), "nothing ticked");

    let unknown = c.request("tools/call", json!({"name": "plan_nope", "arguments": {}}));
    assert!(unknown["error"].is_object(), "{unknown}");
}

#[test]
fn a_broken_plan_is_read_as_far_as_it_goes_and_the_server_keeps_serving() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    // Errors inside goals: the status still comes, naming them.
    t.write("plan.md", crate::util::fixture("plans/duplicate-ids.md"));
    let status = c.ok("plan_status", json!({}));
    insta::assert_snapshot!(redact(&t, &status));
    // A write into a broken goal is an error result with the CLI's words.
    let (is_error, text, _) = c.call("plan_tick", json!({"id": "same", "n": 1}));
    assert!(is_error, "{text}");
    insta::assert_snapshot!(redact(&t, &text));
    t.write("plan.md", PLAN);
    let status = c.ok("plan_status", json!({}));
    insta::assert_snapshot!(redact(&t, &status));
}

#[test]
fn plan_complete_accepts_with_progress_and_a_record() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let response = c.request(
        "tools/call",
        json!({
            "name": "plan_complete",
            "arguments": {"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]},
            "_meta": {"progressToken": "p1"}
        }),
    );
    let result = &response["result"];
    assert_ne!(result["isError"], true, "{response}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "accept", "{response}");
    let record = fields["record"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, record));
    let path = record.split('#').next().unwrap();
    assert!(t.root().join(path).is_file(), "{path}");
    assert!(t.plan_md().contains("ship signed off"), "{}", t.plan_md());
    assert!(t.plan_md().contains("status: done"), "{}", t.plan_md());
    let checkpoints = t.git(&[
        "for-each-ref",
        "--format=%(refname)",
        "refs/plan/checkpoints/ship/",
    ]);
    assert_eq!(
        checkpoints.lines().count(),
        1,
        "a sign-off through MCP keeps a checkpoint too"
    );
    // Hosts that show the model only the structured content lose no words.
    assert_eq!(fields["text"], result["content"][0]["text"], "{response}");

    let steps: Vec<&str> = c
        .notes
        .iter()
        .filter(|n| n["method"] == "notifications/progress")
        .inspect(|n| assert_eq!(n["params"]["progressToken"], "p1"))
        .map(|n| n["params"]["message"].as_str().unwrap())
        .collect();
    assert_eq!(steps.len(), 3, "{steps:?}");
    assert_eq!(steps[0], "verify: running `test -f README.md`");
    assert_eq!(steps[1], "verify: passed");
    assert_eq!(steps[2], "judge: asking command");
}

#[test]
fn plan_complete_rejects_with_what_is_missing_and_the_transcript() {
    let t = repo("judges/reject");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call(
        "plan_complete",
        json!({"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]}),
    );
    assert!(is_error, "a reject is not done: {text}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "reject", "{result}");
    let missing = fields["missing"].as_array().unwrap();
    assert!(!missing.is_empty(), "{result}");
    for m in missing {
        assert!(text.contains(m.as_str().unwrap()), "{m} in {text}");
    }
    insta::assert_snapshot!(redact(&t, &text));
    let transcript = fields["transcript"].as_str().unwrap();
    assert!(t.root().join(transcript).is_file(), "{transcript}");
    assert!(
        t.plan_md().contains("ship sign-off rejected (judge)"),
        "{}",
        t.plan_md()
    );
}

#[test]
fn cancelling_a_sign_off_kills_its_verify_and_writes_nothing() {
    let t = repo("judges/accept");
    let script = fixture_path("verify/grandchild.sh");
    let plan = PLAN.replace(
        "verify: test -f README.md",
        &format!("verify: sh {}", script.display()),
    );
    t.write("plan.md", &plan);
    t.commit_all("slow verify");
    let mut c = Client::start(&t, &t.root(), None);
    let id = c.ask(
        "tools/call",
        json!({
            "name": "plan_complete",
            "arguments": {"id": "ship", "evidence": "README.md is written"},
            "_meta": {"progressToken": 7}
        }),
    );
    // Wait until the verify has started its grandchild.
    let pid_file = t.root().join("grandchild.pid");
    let end = Instant::now() + WAIT;
    let pid = loop {
        if let Some(pid) = std::fs::read_to_string(&pid_file)
            .ok()
            .and_then(|s| s.trim().parse::<u32>().ok())
        {
            break pid;
        }
        assert!(Instant::now() < end, "the verify never started");
        std::thread::sleep(Duration::from_millis(20));
    };
    let cancelled = Instant::now();
    c.send(json!({
        "jsonrpc": "2.0",
        "method": "notifications/cancelled",
        "params": {"requestId": id, "reason": "the user stopped it"}
    }));
    let alive = |pid: u32| {
        std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
            s.rsplit_once(") ")
                .is_some_and(|(_, r)| !r.starts_with('Z'))
        })
    };
    while alive(pid) {
        assert!(
            cancelled.elapsed() < Duration::from_secs(10),
            "the verify's grandchild {pid} outlived the cancel"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    // The server lives on, and the cancelled sign-off wrote nothing.
    let pong = c.request("ping", json!({}));
    assert!(pong["result"].is_object(), "{pong}");
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(t.plan_md(), plan);
    assert!(!t.root().join(".plan/judge").exists(), "no transcript");
}

#[test]
fn the_clients_root_names_the_repository() {
    let t = repo("judges/accept");
    let elsewhere = t.dir.path().join("home");
    let mut c = Client::start(&t, &elsewhere, Some(vec![t.root()]));
    let status = c.ok("plan_status", json!({}));
    let served = t.root().join("plan.md");
    assert_eq!(
        status.lines().find(|l| l.starts_with("serving: ")),
        Some(format!("serving: {}", served.display()).as_str()),
        "{status}"
    );
    c.ok("plan_log", json!({"text": "reached through the root"}));
    assert!(t.plan_md().contains("reached through the root"));
}

#[test]
fn a_root_named_on_the_command_line_wins_over_the_clients() {
    let t = repo("judges/accept");
    let other = Test::new().plan(PLAN);
    let elsewhere = t.dir.path().join("home");
    let root = t.root().display().to_string();
    let mut c = Client::start_with(&t, &elsewhere, Some(vec![other.root()]), &["--root", &root]);
    c.ok("plan_log", json!({"text": "pinned by --root"}));
    assert!(t.plan_md().contains("pinned by --root"));
    assert!(!other.plan_md().contains("pinned by --root"));
}

#[test]
fn without_roots_it_serves_its_working_directory() {
    let t = repo("judges/accept");
    let elsewhere = t.dir.path().join("home");
    let mut c = Client::start(&t, &elsewhere, None);
    let (is_error, text, _) = c.call("plan_status", json!({}));
    assert!(is_error, "{text}");
    insta::assert_snapshot!(redact(&t, &text));
}

#[test]
fn plan_md_is_a_read_only_resource() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let list = c.request("resources/list", json!({}));
    let resources = list["result"]["resources"].as_array().unwrap();
    assert_eq!(resources.len(), 1, "{list}");
    assert_eq!(resources[0]["uri"], "plan://plan.md");
    let read = c.request("resources/read", json!({"uri": "plan://plan.md"}));
    assert_eq!(read["result"]["contents"][0]["text"], PLAN, "{read}");
    assert_eq!(read["result"]["contents"][0]["mimeType"], "text/markdown");
    let other = c.request("resources/read", json!({"uri": "plan://other.md"}));
    assert!(other["error"].is_object(), "{other}");
}

/// The fields come from the sign-off's typed result, not from its printed text: the
/// goal and the stages that rejected are in no line a parser of the text could use.
#[test]
fn plan_complete_fields_are_the_sign_offs_typed_result() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call(
        "plan_complete",
        json!({"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]}),
    );
    assert!(!is_error, "{text}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "accept", "{result}");
    assert_eq!(fields["goal"], "ship", "{result}");
    assert_eq!(fields["stages"], json!([]), "{result}");
    assert_eq!(fields["missing"], json!([]), "{result}");
    assert_eq!(fields["dry_run"], false, "{result}");
    assert_eq!(fields["transcript"], Value::Null, "{result}");
    let record = fields["record"].as_str().unwrap();
    // What the CLI says on stderr, a step aside, comes first: an agent using MCP
    // reads no stderr.
    let note = "plan: warning: 1 of 1 subtask of ship is not ticked: write it";
    assert_eq!(fields["notes"], json!([note]), "{result}");
    assert_eq!(
        text,
        format!(
            "{note}\nsigned off ship (verify passed, judge accept)\n  record: {record} (staged: git add)"
        ),
        "the text is the CLI's, byte for byte"
    );

    let t = repo("judges/reject");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call(
        "plan_complete",
        json!({"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]}),
    );
    assert!(is_error, "{text}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "reject", "{result}");
    assert_eq!(fields["goal"], "ship", "{result}");
    assert_eq!(fields["stages"], json!(["judge"]), "{result}");
    assert_eq!(
        fields["missing"],
        json!([
            "eviction policy has no test that fills the cache past capacity",
            "load-test.log is from before the last change to src/cache.rs"
        ]),
        "{result}"
    );
    assert_eq!(fields["record"], Value::Null, "{result}");
    let transcript = fields["transcript"].as_str().unwrap();
    assert_eq!(
        text,
        format!(
            "{note}\nsign-off of ship rejected (judge)\nmissing:\n- eviction policy has no test that fills the cache past capacity\n- load-test.log is from before the last change to src/cache.rs\n  transcript: {transcript}"
        )
    );

    // Stopped before any verdict: an error, with no goal signed or rejected.
    let (is_error, text, result) =
        c.call("plan_complete", json!({"id": "nope", "evidence": "none"}));
    assert!(is_error, "{text}");
    let fields = &result["structuredContent"];
    assert_eq!(fields["verdict"], "error", "{result}");
    assert_eq!(fields["goal"], Value::Null, "{result}");
    assert_eq!(fields["text"], text.as_str(), "{result}");
}

/// `plan_add` returns the goal added as fields, from the same result `plan add
/// --json` prints; its text stays the new id.
#[test]
fn plan_add_returns_the_goal_added_as_fields() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call(
        "plan_add",
        json!({"title": "Write docs", "done_when": "docs exist", "active": true}),
    );
    assert!(!is_error, "{text}");
    assert_eq!(text, "write-docs");
    let fields = &result["structuredContent"];
    assert_eq!(fields["id"], "write-docs", "{result}");
    assert_eq!(fields["status"], "active", "{result}");
    let logged = fields["logged"].as_array().unwrap();
    assert_eq!(logged.len(), 2, "added and started: {result}");
    for line in logged {
        let line = line.as_str().unwrap();
        assert!(t.plan_md().contains(line), "{line} in plan.md");
    }
    let contract = fields["contract"].as_str().unwrap();
    assert_eq!(
        logged[1],
        format!(
            "2026-06-15 14:02 write-docs started (contract {contract}, at {})",
            t.git(&["rev-parse", "--short=12", "HEAD"]).trim()
        ),
        "{result}"
    );
}

/// The tool calls of [`each_tools_result_exactly`], each with the CLI command that
/// says the same (none for `plan_status`, which adds to `plan inject`).
fn steps() -> Vec<(&'static str, Value, Option<Vec<&'static str>>)> {
    vec![
        ("plan_status", json!({}), None),
        ("plan_show", json!({}), Some(vec!["show"])),
        (
            "plan_show",
            json!({"all": true}),
            Some(vec!["show", "--all"]),
        ),
        (
            "plan_start",
            json!({"id": "docs"}),
            Some(vec!["start", "docs"]),
        ),
        (
            "plan_start",
            json!({"id": "docs"}),
            Some(vec!["start", "docs"]),
        ),
        (
            "plan_start",
            json!({"id": "docs", "reapprove": true}),
            Some(vec!["start", "docs", "--reapprove"]),
        ),
        (
            "plan_start",
            json!({"id": "nope"}),
            Some(vec!["start", "nope"]),
        ),
        (
            "plan_tick",
            json!({"id": "docs", "n": 1}),
            Some(vec!["tick", "docs", "1"]),
        ),
        (
            "plan_tick",
            json!({"id": "docs", "n": 1}),
            Some(vec!["tick", "docs", "1"]),
        ),
        (
            "plan_tick",
            json!({"id": "docs", "n": 9}),
            Some(vec!["tick", "docs", "9"]),
        ),
        (
            "plan_log",
            json!({"text": "outlined  the\nguide"}),
            Some(vec!["log", "outlined  the\nguide"]),
        ),
        (
            "plan_log",
            json!({"text": "docs signed off"}),
            Some(vec!["log", "docs signed off"]),
        ),
        (
            "plan_show",
            json!({"id": "do"}),
            Some(vec!["show", "do", "--json"]),
        ),
        (
            "plan_show",
            json!({"id": "nope"}),
            Some(vec!["show", "nope", "--json"]),
        ),
        ("plan_status", json!({}), None),
    ]
}

/// PLAN with a second goal that has subtasks, committed.
fn two_goals() -> Test {
    let t = repo("judges/accept");
    let plan = PLAN.replace(
        "\n## Log\n",
        "\n## Goal: Write docs\n<!-- id: docs -->\nstatus: open\ndone_when: docs exist\n- [ ] outline\n- [ ] write\n\n## Log\n",
    );
    t.write("plan.md", plan);
    t.commit_all("two goals");
    t
}

/// What each tool returns, exactly: the error flag, the text and the structured
/// content, from a first status to a tick done twice and a log line refused, with
/// the test's directory as `[TMP]` and the repository's commit as `[HEAD]`. And each
/// text is what the CLI prints for the same step (stdout, or stderr for an error),
/// byte for byte.
#[test]
fn each_tools_result_exactly() {
    let t = two_goals();
    let mut c = Client::start(&t, &t.root(), None);
    let mut transcript = String::new();
    let mut texts = Vec::new();
    for (tool, args, _) in steps() {
        let (is_error, text, result) = c.call(tool, args.clone());
        let structured = match &result["structuredContent"] {
            Value::Null => "none".to_string(),
            fields => serde_json::to_string_pretty(fields).unwrap(),
        };
        transcript.push_str(&format!(
            "=== {tool} {args}{}\n{text}\n--- structured\n{structured}\n",
            if is_error { " (error)" } else { "" }
        ));
        texts.push((is_error, text));
    }
    let head = t.git(&["rev-parse", "HEAD"]);
    let mut transcript = transcript.replace(t.dir.path().to_str().unwrap(), "[TMP]");
    for len in (7..=40).rev() {
        transcript = transcript.replace(&head.trim()[..len], "[HEAD]");
    }
    insta::assert_snapshot!(transcript);

    // The second repository's first commit has its own time, so its HEAD (which a
    // start's log line names) differs: each side's HEAD reads as `[HEAD]`.
    let cli = two_goals();
    let cli_head = cli.git(&["rev-parse", "HEAD"]);
    let mask = |text: &str, head: &str| text.replace(&head.trim()[..12], "[HEAD]");
    for ((tool, args, argv), (is_error, text)) in steps().into_iter().zip(texts) {
        let Some(argv) = argv else { continue };
        let run = cli.run(&argv);
        assert_eq!(run.code != 0, is_error, "{tool} {args}: {}", run.stderr);
        let said = if run.code == 0 {
            run.stdout
        } else {
            run.stderr
        };
        assert_eq!(
            mask(said.trim_end(), &cli_head),
            mask(&text, &head),
            "{tool} {args} and plan {argv:?}"
        );
    }
}

/// `plan_report` is `plan report`: its text, and the report as fields.
#[test]
fn plan_report_is_the_report_as_text_and_fields() {
    let t = repo("judges/accept");
    t.ok(&["goal", "--budget", "3"]);
    let mut c = Client::start(&t, &t.root(), None);
    let (is_error, text, result) = c.call("plan_report", json!({}));
    assert!(!is_error, "{text}");
    assert_eq!(format!("{text}\n"), t.ok(&["report"]).stdout);
    let fields = &result["structuredContent"];
    assert_eq!(fields["scope"], "loop", "{result}");
    assert_eq!(fields["loop"]["state"], "running", "{result}");
    assert_eq!(fields["text"], text);
    let (is_error, text, _) = c.call("plan_report", json!({"since": "no-such-rev"}));
    assert!(is_error, "{text}");
    insta::assert_snapshot!(redact(&t, &text));
}

/// Issue 69, item 7: the gate is a service under `plan audit` and MCP alike.
/// `plan_audit` is `plan audit [--base REV] [--strict]`: its text, the report as
/// fields, and an error where the command exits 1.
#[test]
fn plan_audit_is_the_gate_as_text_and_fields() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    c.ok("plan_start", json!({"id": "ship"}));
    c.ok(
        "plan_complete",
        json!({"id": "ship", "evidence": "shipped"}),
    );
    t.commit_all("shipped");
    let (is_error, text, result) = c.call("plan_audit", json!({}));
    assert!(!is_error, "{text}");
    assert_eq!(format!("{text}\n"), t.ok(&["audit"]).stdout);
    let fields = &result["structuredContent"];
    assert_eq!(fields["text"], text);
    assert!(fields["goals"].is_array(), "{result}");
    let base = t.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    let (is_error, text, _) = c.call("plan_audit", json!({"base": base, "strict": true}));
    let cli = t.run(&["audit", "--base", &base, "--strict"]);
    assert_eq!(is_error, cli.code != 0, "{text}");
    assert_eq!(format!("{text}\n"), cli.stdout);
    // A record gone: unproven, an error as the command's exit 1.
    let record = t.plan_md();
    let rel = record
        .lines()
        .find(|l| l.contains(" ship signed off "))
        .and_then(|l| l.rsplit_once(": "))
        .and_then(|(_, r)| r.split_once('#'))
        .map(|(rel, _)| rel.to_string())
        .expect("the sign-off's record");
    std::fs::remove_file(t.root().join(&rel)).unwrap();
    let (is_error, text, _) = c.call("plan_audit", json!({}));
    assert!(is_error, "{text}");
    assert_eq!(format!("{text}\n"), t.run(&["audit"]).code(1).stdout);
}

/// Issue 33: claims hold through the tools as through the CLI: `as` names the
/// session; a goal another holds is refused with the CLI's words, and its holder's
/// own tick goes through.
#[test]
fn the_tools_refuse_a_goal_another_session_holds() {
    let t = repo("judges/accept");
    let mut c = Client::start(&t, &t.root(), None);
    c.ok("plan_start", json!({"id": "ship", "as": "s1"}));
    let (is_error, text, _) = c.call("plan_tick", json!({"id": "ship", "n": 1, "as": "s2"}));
    assert!(is_error);
    let cli = t.run(&["tick", "ship", "1", "--as", "s2"]).code(2);
    assert_eq!(cli.stderr.trim_end(), text);
    insta::assert_snapshot!(redact(&t, &text));
    let (is_error, text, _) = c.call(
        "plan_complete",
        json!({"id": "ship", "evidence": "shipped", "as": "s2"}),
    );
    assert!(is_error);
    insta::assert_snapshot!(redact(&t, &text));
    assert!(!t.plan_md().contains("signed off"), "{}", t.plan_md());
    let (is_error, text, _) = c.call("plan_tick", json!({"id": "ship", "n": 1, "as": "s1"}));
    assert!(!is_error, "{text}");
}

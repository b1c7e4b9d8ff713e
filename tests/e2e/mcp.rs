//! `plan mcp` from a real host: Claude Code, headless against the fake, loads plan
//! as an stdio MCP server and its scripted model signs a goal off through it.

use serde_json::json;

use crate::fake::{call, script, text};
use crate::harness::{Host, PLAN_BIN, World};

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

const TOOLS: [&str; 7] = [
    "mcp__plan__plan_status",
    "mcp__plan__plan_show",
    "mcp__plan__plan_add",
    "mcp__plan__plan_start",
    "mcp__plan__plan_tick",
    "mcp__plan__plan_log",
    "mcp__plan__plan_complete",
];

#[test]
#[ignore = "e2e: runs the real host"]
fn claude_signs_a_goal_off_through_plan_mcp() {
    let w = World::new(
        Host::Claude,
        PLAN,
        script(vec![
            call("mcp__plan__plan_status", json!({})),
            call(
                "mcp__plan__plan_complete",
                json!({"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]}),
            ),
            text("Signed off."),
        ]),
    );
    w.write("README.md", "# Hello\n");
    // The judge is a fixture: the one model here is the agent's.
    let judge = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/judges/accept");
    w.write(
        ".plan/config.yaml",
        &format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 30\n",
            judge.display()
        ),
    );
    w.sh("git add -A && git commit -q -m readme");
    let config = w.path("mcp.json");
    std::fs::write(
        &config,
        json!({"mcpServers": {"plan": {"command": PLAN_BIN, "args": ["mcp"]}}}).to_string(),
    )
    .unwrap();
    let allowed = "mcp__plan__plan_status,mcp__plan__plan_complete";
    let run = w.exec(
        &[
            "-p",
            "Sign the plan's goal off.",
            "--mcp-config",
            &config.display().to_string(),
            "--strict-mcp-config",
            "--allowedTools",
            allowed,
        ],
        // MCP hosts have no hooks: the server alone carries the workflow.
        &[("PLAN_DISABLED", "1")],
    );
    run.ok();
    let turns = w.fake.turns();
    assert!(turns.len() >= 3, "{}", w.report());
    let offered = turns[0].tools();
    for tool in TOOLS {
        assert!(
            offered.iter().any(|t| t == tool),
            "{tool} not offered: {offered:?}"
        );
    }
    // The last messages of a turn: the tool result it carries, for a failure.
    let last = |i: usize| {
        let messages = turns[i].json["messages"]
            .as_array()
            .cloned()
            .unwrap_or_default();
        serde_json::to_string_pretty(&messages[messages.len().saturating_sub(2)..]).unwrap()
    };
    assert!(turns[1].has("serving: "), "{}", last(1));
    assert!(turns[1].has("Keep working while goals remain"));
    // The sign-off's result reached the model in its next request (Claude Code
    // hands it the structured content, which carries the text too).
    assert!(
        turns[2].has("signed off ship"),
        "{}\n{}",
        last(2),
        w.report()
    );
    assert!(turns[2].has("record: .plan/judge/ship-"), "{}", w.report());
    let md = w.read("plan.md");
    assert!(md.contains("status: done"), "{md}");
    let line = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .unwrap_or_else(|| panic!("no sign-off line: {md}"));
    assert!(line.contains("judge command accept"), "{line}");
    let record = line.rsplit_once(": ").unwrap().1.split('#').next().unwrap();
    assert!(w.repo().join(record).is_file(), "{record}");
}

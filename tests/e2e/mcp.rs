//! `plan mcp` from a real host: Claude Code, headless against the fake, loads plan
//! as an stdio MCP server and its scripted model signs a goal off through it.

use serde_json::json;

use crate::fake::{Call, call, is_side, script, side, text};
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
    // Claude Code 2.1.331 defers MCP tools: they are named in a system message, and
    // the model loads their schemas with ToolSearch before it calls them. The
    // pinned version offers them at once.
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    let mut step = 0;
    let mut searched = false;
    w.fake.script(Box::new(move |req: &Call| {
        if is_side(req) {
            return side(req);
        }
        let tools = req.tools();
        if !searched
            && tools.iter().any(|t| t == "ToolSearch")
            && !tools.iter().any(|t| t == TOOLS[0])
        {
            searched = true;
            return call(
                "ToolSearch",
                json!({"query": "select:mcp__plan__plan_status,mcp__plan__plan_complete", "max_results": 8}),
            );
        }
        step += 1;
        match step {
            1 => call("mcp__plan__plan_status", json!({})),
            2 => call(
                "mcp__plan__plan_complete",
                json!({"id": "ship", "evidence": "README.md is written", "paths": ["README.md"]}),
            ),
            _ => text("Signed off."),
        }
    }));
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
    let mut turns = w.fake.turns();
    // Offered: in the tool list, or named as deferred (then loaded with ToolSearch).
    let offered = turns[0].tools();
    for tool in TOOLS {
        assert!(
            offered.iter().any(|t| t == tool) || turns[0].has(&format!("\n{tool}\n")),
            "{tool} not offered: {offered:?}"
        );
    }
    if !offered.iter().any(|t| t == TOOLS[0]) {
        assert!(turns[1].has("mcp__plan__plan_complete"), "{}", w.report());
        turns.remove(0);
    }
    assert!(turns.len() >= 3, "{}", w.report());
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

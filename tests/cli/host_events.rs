//! The hosts' newer places where "done" is claimed or waited on, driven with the
//! payloads they send: a stop while background work runs (Claude Code's
//! `background_tasks` / `session_crons`), a subagent's start and stop (Claude Code,
//! Codex, Copilot CLI), a task of the task list marked completed, and `plan install` registering
//! them.

use serde_json::Value;

use crate::gate::PR_PLAN;
use crate::hooks::{hook, json, payload, send};
use crate::util::{Test, redact};

const PLAN: &str = "# Plan: Sign-off

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- verify passes on a trivial or gamed test
- [x] write it
- [ ] link it

## Goal: Later
<!-- id: later -->
status: open
depends_on: ship
done_when: later

## Log
- 2026-06-15 14:00 ship started (contract CONTRACT)
";

/// A repository whose `ship` goal was started under its current contract, signed
/// off by the fixture judge `accept`.
fn repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN.replace(" (contract CONTRACT)", ""));
    let fp = t.ok(&["show", "--json"]).json()["goals"][0]["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write("plan.md", PLAN.replace("CONTRACT", &fp));
    t.judge_with("accept", 10);
    t.commit_all("start");
    t
}

/// Signs `ship` off as `holder` (`--as`), or as nobody.
fn sign_off(t: &Test, holder: Option<&str>) {
    let mut tick = vec!["tick", "ship", "2"];
    let mut complete = vec![
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ];
    if let Some(holder) = holder {
        tick.extend(["--as", holder]);
        complete.extend(["--as", holder]);
    }
    t.ok(&tick);
    t.ok(&complete);
}

fn note(answer: &Value) -> &str {
    answer["systemMessage"].as_str().unwrap_or("")
}

/// `host/event.variant` for `session`, with the subagent's id `agent`.
fn send_agent(t: &Test, name: &str, session: &str, agent: &str) -> Value {
    let (host, rest) = name.split_once('/').unwrap();
    let event = rest.split('.').next().unwrap();
    let stdin = payload(t, name, session).replace("AGENT", agent);
    json(&hook(t, host, event, &stdin).code(0))
}

#[test]
fn a_stop_waiting_on_background_work_is_let_go_uncounted() {
    let t = repo();
    t.write(
        ".plan/config.yaml",
        format!("{}loop:\n  stall_limit: 2\n", t.read(".plan/config.yaml")),
    );
    t.ok(&["goal", "--budget", "10"]);
    let first = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(first["decision"], "block", "{first}");
    // Nothing changed since, but the agent waits on a test run and a subagent: each
    // of these stops is let go with one line, no continuation spent, no stall.
    for _ in 0..4 {
        let waiting = json(&send(&t, "claude/stop.background", "s1"));
        assert!(waiting.get("decision").is_none(), "{waiting}");
        assert_eq!(
            note(&waiting),
            "plan: waiting on 2 background tasks (shell: Run the full test suite; subagent: Review the eviction policy): this stop is let go uncounted; the loop holds the next stop once they finish"
        );
    }
    let cron = json(&send(&t, "claude/stop.cron", "s1"));
    assert!(cron.get("decision").is_none(), "{cron}");
    assert_eq!(
        note(&cron),
        "plan: waiting on 1 session cron: this stop is let go uncounted; the loop holds the next stop once it finishes"
    );
    // The next plain stop is held and counted as usual: continuation 2, then the
    // stall limit ends the loop.
    let second = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(second["decision"], "block", "{second}");
    assert_eq!(
        second["reason"],
        "plan.md still has work: ship (1/2, next: link it)\nKeep working on it. When a goal's done_when is met, sign it off with `plan complete ID --evidence TEXT --path FILE`. If something blocks you, append it to the log with `plan log TEXT` and say what you need: `plan goal pause` and `plan goal clear` are for the person who started the loop, not for you, and each is logged in plan.md. (Continuation 2 of 10.)"
    );
    let stalled = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(
        note(&stalled),
        "plan: work loop stopped: stalled: 2 continuations in a row without a change to the work (files, HEAD or plan.md) (`plan goal` starts a new loop)"
    );
    let events = t.ok(&["events", "--json"]).stdout;
    insta::assert_snapshot!(redact(&t, &events));
}

#[test]
fn finished_background_tasks_wait_on_nothing() {
    let t = repo();
    t.ok(&["goal"]);
    let stdin = payload(&t, "claude/stop.background", "s1").replace("running", "completed");
    let answer = json(&hook(&t, "claude", "stop", &stdin).code(0));
    assert_eq!(answer["decision"], "block", "{answer}");
}

#[test]
fn a_subagent_is_told_its_holder_name() {
    let t = repo();
    let answer = send_agent(&t, "claude/subagent-start", "s1", "a9f3");
    let context = answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap();
    assert_eq!(
        answer["hookSpecificOutput"]["hookEventName"],
        "SubagentStart"
    );
    assert_eq!(
        context,
        "plan: this subagent's holder name is `a9f3`. To take a goal of plan.md, `plan start ID --as a9f3`; a subagent holding a goal is held at its stop until `plan complete ID` signs the goal off (or `plan release ID --as a9f3` hands it back)."
    );
}

#[test]
fn a_subagent_that_claimed_a_goal_is_held_until_it_is_signed_off() {
    let t = repo();
    t.ok(&["start", "ship", "--as", "a9f3"]);
    // Another subagent claimed nothing: let go.
    assert_eq!(
        send_agent(&t, "claude/subagent-stop", "s1", "b000"),
        Value::Null
    );
    let held = send_agent(&t, "claude/subagent-stop", "s1", "a9f3");
    assert_eq!(
        held,
        serde_json::json!({"decision": "block", "reason": "plan: this subagent claimed a goal that is not signed off: ship (1/2, next: link it). A goal is done when `plan complete ID` signs it off (its verify passes and a judge re-checks the repository); go on with it, or `plan release ID --as a9f3` to hand it back to the main agent. (Hold 1 of 5.)"})
    );
    // Codex's SubagentStop carries the same agent_id: the same answer (a stop not
    // held before, `stop_hook_active` false, starts the count again).
    assert_eq!(send_agent(&t, "codex/subagent-stop", "s1", "a9f3"), held);
    sign_off(&t, Some("a9f3"));
    assert_eq!(
        send_agent(&t, "claude/subagent-stop", "s1", "a9f3"),
        Value::Null
    );
}

/// Copilot CLI runs a subagent's own turn through the main agent's hooks with
/// `agentId`: its prompt is told its holder name, its agentStop is neither held nor
/// charged to the loop (Copilot drops a block there), and the subagentStop that
/// follows holds it on a goal it claimed.
#[test]
fn a_copilot_subagent_is_held_at_subagent_stop_and_never_charged_to_the_loop() {
    let t = repo();
    t.ok(&["goal", "--budget", "10"]);
    let prompt = send_agent(&t, "copilot/user-prompt-submitted.subagent", "s1", "a9f3");
    let context = prompt["additionalContext"].as_str().unwrap();
    assert_eq!(
        crate::util::redact_commits(&t, context),
        "plan.md: Sign-off\nActive goals:\n- ship: Ship it\n  done_when: README.md exists\n  subtasks: 1/2 done; next: link it\nReady to start: none\nLast log line: 2026-06-15 14:02 work loop started (budget 10, at [COMMIT], without a terminal)\nA goal is signed off only by `plan complete ID --evidence TEXT --path FILE`, which runs its verify command and an independent read-only judge; `status: done` written by hand is flagged as unchecked.\nplan: this subagent's holder name is `a9f3`. To take a goal of plan.md, `plan start ID --as a9f3`; a subagent holding a goal is held at its stop until `plan complete ID` signs the goal off (or `plan release ID --as a9f3` hands it back)."
    );
    // The subagent's own agentStop, with goals left and a loop running.
    for _ in 0..3 {
        assert_eq!(
            send_agent(&t, "copilot/agent-stop.subagent", "a9f3", "a9f3"),
            Value::Null
        );
    }
    // Nothing charged, and the subagent's prompt did not take the loop's session.
    let status = t.ok(&["goal", "status"]).stdout;
    let lines: Vec<&str> = status.lines().take(4).collect();
    assert_eq!(
        lines,
        [
            "work loop running",
            "  continuations: 0 of 10",
            "  stalls in a row: 0",
            "  session: not claimed yet"
        ],
        "{status}"
    );
    // The main agent's own stop is the loop's, as always.
    let main = json(&send(&t, "copilot/agent-stop", "s1"));
    assert_eq!(main["decision"], "block", "{main}");
    // Its subagentStop: let go while it claimed nothing, held once it claims ship.
    assert_eq!(
        send_agent(&t, "copilot/subagent-stop", "s1", "a9f3"),
        Value::Null
    );
    t.ok(&["start", "ship", "--as", "a9f3"]);
    let held = send_agent(&t, "copilot/subagent-stop", "s1", "a9f3");
    assert_eq!(
        held,
        serde_json::json!({"decision": "block", "reason": "plan: this subagent claimed a goal that is not signed off: ship (1/2, next: link it). A goal is done when `plan complete ID` signs it off (its verify passes and a judge re-checks the repository); go on with it, or `plan release ID --as a9f3` to hand it back to the main agent. (Hold 1 of 5.)"})
    );
    sign_off(&t, Some("a9f3"));
    assert_eq!(
        send_agent(&t, "copilot/subagent-stop", "s1", "a9f3"),
        Value::Null
    );
}

/// An Agent Teams teammate (a Claude Code session of its own, launched with
/// `--agent-id`, `--agent-name`, `--team-name`) is held at TeammateIdle while a goal
/// it claimed, under its session or its name, is not signed off; one that claimed
/// nothing goes idle. TeammateIdle carries no `stop_hook_active`, so the holds are
/// counted in a row until it is let go, and start again after.
#[test]
fn a_teammate_holding_a_goal_is_held_at_teammate_idle() {
    let t = repo();
    assert_eq!(
        send_agent(&t, "claude/teammate-idle", "mate1", "worker"),
        Value::Null
    );
    t.ok(&["start", "ship", "--as", "mate1"]);
    let held = send_agent(&t, "claude/teammate-idle", "mate1", "worker");
    assert_eq!(
        held,
        serde_json::json!({"decision": "block", "reason": "plan: this teammate claimed a goal that is not signed off: ship (1/2, next: link it). A goal is done when `plan complete ID` signs it off (its verify passes and a judge re-checks the repository); go on with it, or `plan release ID --as mate1` to hand it back to the lead. (Hold 1 of 5.)"})
    );
    for hold in 2..=5 {
        let again = send_agent(&t, "claude/teammate-idle", "mate1", "worker");
        assert_eq!(again["decision"], "block", "hold {hold}: {again}");
    }
    let gone = send_agent(&t, "claude/teammate-idle", "mate1", "worker");
    assert_eq!(
        gone,
        serde_json::json!({"systemMessage": "plan: teammate worker was held 5 stops in a row on a goal it claimed and is let go; the goal is still not signed off: ship (1/2, next: link it)"})
    );
    // Woken again later, it is held again.
    let again = send_agent(&t, "claude/teammate-idle", "mate1", "worker");
    assert_eq!(again["decision"], "block", "{again}");
    // Another teammate, which claimed nothing, goes idle.
    assert_eq!(
        send_agent(&t, "claude/teammate-idle", "mate2", "tester"),
        Value::Null
    );
    // A claim under the teammate's name holds it as well.
    t.ok(&["release", "ship", "--as", "mate1"]);
    assert_eq!(
        send_agent(&t, "claude/teammate-idle", "mate1", "worker"),
        Value::Null
    );
    t.ok(&["start", "ship", "--as", "worker"]);
    let held = send_agent(&t, "claude/teammate-idle", "mate1", "worker");
    assert_eq!(
        held,
        serde_json::json!({"decision": "block", "reason": "plan: this teammate claimed a goal that is not signed off: ship (1/2, next: link it). A goal is done when `plan complete ID` signs it off (its verify passes and a judge re-checks the repository); go on with it, or `plan release ID --as worker` to hand it back to the lead. (Hold 1 of 5.)"})
    );
    sign_off(&t, Some("worker"));
    assert_eq!(
        send_agent(&t, "claude/teammate-idle", "mate1", "worker"),
        Value::Null
    );
}

#[test]
fn a_held_subagent_is_let_go_after_five_holds_in_a_row() {
    let t = repo();
    t.ok(&["start", "ship", "--as", "a9f3"]);
    let first = send_agent(&t, "claude/subagent-stop", "s1", "a9f3");
    assert_eq!(first["decision"], "block");
    for _ in 0..4 {
        let again = send_agent(&t, "claude/subagent-stop.again", "s1", "a9f3");
        assert_eq!(again["decision"], "block", "{again}");
    }
    let gone = send_agent(&t, "claude/subagent-stop.again", "s1", "a9f3");
    assert_eq!(
        gone,
        serde_json::json!({"systemMessage": "plan: subagent a9f3 was held 5 stops in a row on a goal it claimed and is let go; the goal is still not signed off: ship (1/2, next: link it)"})
    );
}

#[test]
fn a_task_naming_a_goal_is_refused_until_the_goal_is_signed_off() {
    let t = repo();
    let refused = json(&send(&t, "claude/task-completed", "s1"));
    assert_eq!(
        refused,
        serde_json::json!({"decision": "block", "reason": "plan: this task names a goal of plan.md that is not signed off: ship (1/2, next: link it). The task is done when `plan complete ID` signs the goal off (its verify passes and a judge re-checks the repository); mark the task completed after that."})
    );
    // A goal waiting on a dependency is named by no continuation, and is not done.
    let later = payload(&t, "claude/task-completed", "s1").replace("Ship it", "Do `later`");
    let answer = json(&hook(&t, "claude", "task-completed", &later).code(0));
    assert_eq!(
        answer,
        serde_json::json!({"decision": "block", "reason": "plan: this task names a goal of plan.md that is not signed off: later is open and not signed off. The task is done when `plan complete ID` signs the goal off (its verify passes and a judge re-checks the repository); mark the task completed after that."})
    );
    // A task naming no goal (`shipping` is not `ship`) passes.
    let other = payload(&t, "claude/task-completed", "s1").replace("Ship it", "Finish shipping");
    assert_eq!(
        json(&hook(&t, "claude", "task-completed", &other).code(0)),
        Value::Null
    );
    sign_off(&t, None);
    assert_eq!(json(&send(&t, "claude/task-completed", "s1")), Value::Null);
}

#[test]
fn install_registers_the_subagent_and_task_events() {
    let t = repo();
    t.ok(&["install", "claude"]);
    let settings: Value = serde_json::from_str(&t.read(".claude/settings.json")).unwrap();
    for (event, slug) in [
        ("SubagentStart", "subagent-start"),
        ("SubagentStop", "subagent-stop"),
        ("TaskCompleted", "task-completed"),
    ] {
        let command = settings["hooks"][event][0]["hooks"][0]["command"]
            .as_str()
            .unwrap_or_else(|| panic!("{event} not registered: {settings}"));
        assert!(
            command.ends_with(&format!("hook claude {slug}")),
            "{command}"
        );
    }
    t.ok(&["install", "codex"]);
    let hooks: Value = serde_json::from_str(&t.read(".codex/hooks.json")).unwrap();
    let command = hooks["hooks"]["SubagentStop"][0]["hooks"][0]["command"]
        .as_str()
        .unwrap_or_else(|| panic!("SubagentStop not registered: {hooks}"));
    insta::assert_snapshot!(redact(&t, command));
}

/// Claude Code ends the turn itself past 8 blocks in a row (its
/// `CLAUDE_CODE_STOP_HOOK_BLOCK_CAP` sets the cap): the stop past it is let go with a
/// note rather than a block the host would drop unseen.
#[test]
fn claude_codes_block_cap_is_read() {
    for (cap, blocks) in [(None, 8), (Some("3"), 3)] {
        let mut t = repo();
        if let Some(cap) = cap {
            t = t.env("CLAUDE_CODE_STOP_HOOK_BLOCK_CAP", cap);
        }
        t.write(
            ".plan/config.yaml",
            format!("{}loop:\n  stall_limit: 50\n", t.read(".plan/config.yaml")),
        );
        t.ok(&["goal", "--budget", "30"]);
        let again = payload(&t, "claude/stop", "s1")
            .replace("\"stop_hook_active\":false", "\"stop_hook_active\":true");
        assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
        for n in 1..blocks {
            let answer = json(&hook(&t, "claude", "stop", &again).code(0));
            assert_eq!(answer["decision"], "block", "{n}: {answer}");
        }
        let past = json(&hook(&t, "claude", "stop", &again).code(0));
        assert_eq!(
            note(&past),
            format!(
                "plan: the host ends a turn after {blocks} continuations in a row, so the agent stops here; the loop goes on at this session's next prompt (`plan goal status` shows it)"
            ),
            "{cap:?}"
        );
    }
}

/// Codex's own goal (`[features] goals`): the model's `update_goal` with status
/// complete is refused through PreToolUse while plan's loop has goals not signed
/// off, and passes with no loop running, for another status, and after the sign-off.
#[test]
fn codex_update_goal_complete_is_refused_while_the_loop_has_goals_left() {
    let t = repo();
    let name = "codex/pre-tool-use.update-goal";
    assert_eq!(json(&send(&t, name, "s1")), Value::Null, "no loop running");
    t.ok(&["goal"]);
    let refused = json(&send(&t, name, "s1"));
    assert_eq!(
        refused,
        serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "PreToolUse",
            "permissionDecision": "deny",
            "permissionDecisionReason": "plan: the goal is not complete while plan.md has goals not signed off: ship. Sign each off with `plan complete ID` (its verify passes and a judge re-checks the repository); `plan goal status` lists the goals left. Mark the goal complete after that.",
        }})
    );
    let paused = payload(&t, name, "s1").replace("\"complete\"", "\"paused\"");
    assert_eq!(
        json(&hook(&t, "codex", "pre-tool-use", &paused).code(0)),
        Value::Null
    );
    let prefixed =
        payload(&t, name, "s1").replace("\"update_goal\"", "\"mcp__goals__update_goal\"");
    assert_eq!(
        json(&hook(&t, "codex", "pre-tool-use", &prefixed).code(0))["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    t.ok(&["goal", "pause"]);
    assert_eq!(
        json(&send(&t, name, "s1")),
        Value::Null,
        "the loop is paused"
    );
    t.ok(&["goal", "resume"]);
    assert_eq!(
        json(&send(&t, name, "s1"))["hookSpecificOutput"]["permissionDecision"],
        "deny"
    );
    let host_goal = |t: &Test| {
        t.ok(&["goal", "status"])
            .stdout
            .lines()
            .find(|l| l.contains("host's own goal"))
            .map(str::to_string)
    };
    assert_eq!(
        host_goal(&t).as_deref(),
        Some("  host's own goal: refused 3 times while goals were left; not marked complete")
    );
    sign_off(&t, None);
    t.write("LATER.md", "later\n");
    t.ok(&["start", "later"]);
    t.ok(&[
        "complete",
        "later",
        "--evidence",
        "written",
        "--path",
        "LATER.md",
    ]);
    assert_eq!(
        json(&send(&t, name, "s1")),
        Value::Null,
        "every goal signed off"
    );
    // Codex reports the goal complete after the call: `plan goal status` says so.
    send(&t, "codex/post-tool-use.update-goal", "s1");
    assert_eq!(
        host_goal(&t).as_deref(),
        Some(
            "  host's own goal: refused 3 times while goals were left, then marked complete at 2026-06-15 14:02"
        )
    );
    // The morning report says it too, in words and in its JSON.
    assert_eq!(
        t.ok(&["report"]).stdout,
        "plan report: the loop's latest run
  when: 2026-06-15 14:02 to 14:02 (0m)
  loop: running, 0 of 20 continuations
  host's own goal: refused 3 times while goals were left, then marked complete at 2026-06-15 14:02

signed off (2):
  ship Ship it (14:02): proven
  later Later (14:02): proven

nothing is left: every goal is done or cancelled
"
    );
    assert_eq!(
        json(&t.ok(&["report", "--json"]))["loop"]["host_goal"],
        serde_json::json!({"refused": 3, "completed": "2026-06-15 14:02"})
    );
}

#[test]
fn install_registers_codexs_pre_tool_use_for_update_goal_alone() {
    let t = repo();
    t.ok(&["install", "codex"]);
    let hooks: Value = serde_json::from_str(&t.read(".codex/hooks.json")).unwrap();
    let entry = &hooks["hooks"]["PreToolUse"][0];
    assert_eq!(entry["matcher"], "update_goal", "{hooks}");
    let command = entry["hooks"][0]["command"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, command));
}

/// A long plan's goals are counted past the first eight in the refusal, which the
/// model reads at every refused call.
#[test]
fn a_refused_update_goal_names_eight_goals_and_counts_the_rest() {
    let goals: String = (1..=12)
        .map(|i| {
            format!(
                "## Goal: Part {i}\n<!-- id: p{i} -->\nstatus: open\ndone_when: part {i} works\n\n"
            )
        })
        .collect();
    let t = Test::new();
    t.write("plan.md", format!("# Plan: Parts\n\n{goals}## Log\n"));
    t.commit_all("parts");
    t.ok(&["goal"]);
    let refused = json(&send(&t, "codex/pre-tool-use.update-goal", "s1"));
    assert_eq!(
        refused["hookSpecificOutput"]["permissionDecisionReason"],
        "plan: the goal is not complete while plan.md has goals not signed off: p1, p2, p3, p4, p5, p6, p7, p8, and 4 more. Sign each off with `plan complete ID` (its verify passes and a judge re-checks the repository); `plan goal status` lists the goals left. Mark the goal complete after that."
    );
}

/// oh-my-openagent's goal beside plan's loop in OpenCode: plan's plugin relays its
/// `update_goal` from `tool.execute.before` (`{session_id, cwd, tool_name,
/// tool_input}`, the tool's args) and throws plan's refusal, which the model reads
/// as the tool's error; the tool's result from `tool.execute.after` (its JSON
/// `{"goal": {…, "status"}}` as `tool_response`) records the goal complete.
#[test]
fn an_opencode_goal_tool_marking_complete_is_refused_while_the_loop_has_goals_left() {
    let t = repo();
    let cwd = t.root().display().to_string();
    let before = |tool: &str, status: &str| {
        serde_json::json!({"session_id": "s1", "cwd": cwd, "tool_name": tool,
            "tool_input": {"status": status}})
        .to_string()
    };
    let ask = |stdin: &str| json(&hook(&t, "opencode", "tool-before", stdin).code(0));
    assert_eq!(
        ask(&before("update_goal", "complete")),
        serde_json::json!({}),
        "no loop running"
    );
    t.ok(&["goal"]);
    let refused = serde_json::json!({"deny": "plan: the goal is not complete while plan.md has goals not signed off: ship. Sign each off with `plan complete ID` (its verify passes and a judge re-checks the repository); `plan goal status` lists the goals left. Mark the goal complete after that."});
    assert_eq!(ask(&before("update_goal", "complete")), refused);
    // An MCP server's tool, under OpenCode's `server_tool` name, is the same tool.
    assert_eq!(ask(&before("goals_update_goal", "complete")), refused);
    assert_eq!(ask(&before("update_goal", "paused")), serde_json::json!({}));
    sign_off(&t, None);
    t.write("LATER.md", "later\n");
    t.ok(&["start", "later"]);
    t.ok(&[
        "complete",
        "later",
        "--evidence",
        "written",
        "--path",
        "LATER.md",
    ]);
    assert_eq!(
        ask(&before("update_goal", "complete")),
        serde_json::json!({})
    );
    let after = serde_json::json!({"session_id": "s1", "cwd": cwd, "tool_name": "update_goal",
        "tool_input": {"status": "complete"},
        "tool_response": {"goal": {"sessionID": "s1", "objective": "ship", "status": "complete"}}})
    .to_string();
    hook(&t, "opencode", "tool-after", &after).code(0);
    let status = t.ok(&["goal", "status"]).stdout;
    assert_eq!(
        status.lines().find(|l| l.contains("host's own goal")),
        Some(
            "  host's own goal: refused 2 times while goals were left, then marked complete at 2026-06-15 14:02"
        ),
        "{status}"
    );
}

// Attack on TaskCompleted, from the honest side: a task is refused when its text
// holds a goal's id as a word, and ids are slugs of titles (`later`, `work`,
// `docs`), so an honest task that uses the word in passing is refused until an
// unrelated goal is signed off.
#[test]
fn a_task_using_a_goal_id_in_passing_is_not_refused() {
    use crate::hooks::{hook, json, payload};
    let t = Test::new().plan(
        "# Plan: Tasks\n\n## Goal: Later\n<!-- id: later -->\nstatus: open\ndone_when: later\n\n## Log\n",
    );
    t.commit_all("plan");
    let stdin = payload(&t, "claude/task-completed", "s1")
        .replace("Ship it", "Fix the typo now, tidy the rest later");
    let answer = json(&hook(&t, "claude", "task-completed", &stdin).code(0));
    assert_eq!(answer, serde_json::Value::Null, "{answer}");
}

// Attack on "waiting is not stalling": a stop while a background task runs is let
// go uncounted, and nothing bounds how often. An agent that starts a task that never
// ends (`sleep infinity` in the background) and stops again and again, nothing
// changed, is let go every time: no continuation spent, no stall counted, the loop
// never ends and never holds it. Waiting on the same tasks with no work done, stop
// after stop, should count as a stall once past the stall limit.
#[test]
fn a_background_task_that_never_ends_does_not_hold_off_the_loop_forever() {
    use crate::hooks::{json, send};
    let t = Test::new().plan(&PR_PLAN.replace("VERIFY", "test -f done.txt"));
    t.write(".plan/config.yaml", "loop:\n  stall_limit: 2\n");
    t.ok(&["goal", "--budget", "10"]);
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    let mut let_go = 0;
    for _ in 0..20 {
        let answer = json(&send(&t, "claude/stop.background", "s1"));
        if answer.get("decision").is_none()
            && answer["systemMessage"]
                .as_str()
                .unwrap_or("")
                .contains("waiting on")
        {
            let_go += 1;
        }
    }
    assert!(
        let_go < 20,
        "20 stops waiting on the same tasks, nothing changed, all let go uncounted"
    );
    // Ended as a stall, said so, not silently let go forever.
    insta::assert_snapshot!(crate::util::redact(&t, &t.ok(&["goal", "status"]).stdout));
}

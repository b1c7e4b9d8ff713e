//! GitHub Copilot CLI: `plan install copilot` writes Copilot's own hooks file, and
//! `plan hook copilot EVENT` answers the payloads Copilot 1.0.102 sends, in the
//! top-level shape it reads, within its limit of 8 blocks in a row.

use serde_json::Value;

use crate::hooks::json;
use crate::util::{BIN, Run, Test, redact, shown};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
- [x] wire client
- [ ] eviction policy

## Log
- 2026-06-15 14:02 client wired
";

/// Sends fixture `copilot/NAME.json` as `plan hook copilot EVENT` for `session`.
fn send(t: &Test, name: &str, session: &str) -> Run {
    crate::hooks::send(t, &format!("copilot/{name}"), session)
}

/// Copilot reads only a top-level `additionalContext`.
fn context(run: &Run) -> Option<String> {
    let v = json(run);
    assert!(v.get("hookSpecificOutput").is_none(), "{v}");
    v["additionalContext"].as_str().map(str::to_string)
}

fn repo() -> Test {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t
}

#[test]
fn injects_at_start_and_again_after_a_compaction_at_the_next_prompt_or_edit() {
    let t = repo();
    let block = t.ok(&["inject"]).stdout.trim_end().to_string();
    let start = send(&t, "session-start", "s1");
    assert_eq!(context(&start).as_deref(), Some(block.as_str()));
    assert_eq!(
        context(&send(&t, "user-prompt-submitted", "s1")),
        None,
        "unchanged"
    );

    // No hook adds context after Copilot compacts: the next prompt brings it back.
    assert_eq!(json(&send(&t, "pre-compact", "s1")), Value::Null);
    let prompt = send(&t, "user-prompt-submitted", "s1");
    assert_eq!(context(&prompt).as_deref(), Some(block.as_str()));
    assert_eq!(context(&send(&t, "user-prompt-submitted", "s1")), None);

    // Or the next file edit, when the agent works on without a prompt.
    send(&t, "pre-compact", "s1");
    assert_eq!(
        context(&send(&t, "post-tool-use.view", "s1")),
        None,
        "not an edit"
    );
    let edit = send(&t, "post-tool-use.create", "s1");
    assert_eq!(context(&edit).as_deref(), Some(block.as_str()));
    assert_eq!(context(&send(&t, "post-tool-use.create", "s1")), None);
    assert_eq!(context(&send(&t, "user-prompt-submitted", "s1")), None);
}

#[test]
fn reminds_after_three_creates() {
    let t = repo();
    send(&t, "session-start", "s1");
    assert_eq!(context(&send(&t, "post-tool-use.create", "s1")), None);
    assert_eq!(context(&send(&t, "post-tool-use.create", "s1")), None);
    let third = context(&send(&t, "post-tool-use.create", "s1")).unwrap();
    insta::assert_snapshot!(redact(&t, &third));
}

/// Copilot ends the turn after 8 blocks in a row and drops the ninth (seen end to
/// end: 9 stops, 8 continuations). plan lets go at the ninth with a note, spends
/// nothing on it, and the loop goes on at the session's next prompt.
#[test]
fn the_ninth_stop_in_a_row_is_let_go_without_spending_the_budget() {
    let t = repo();
    t.write(".plan/config.yaml", "loop:\n  stall_limit: 50\n");
    t.ok(&["goal", "--budget", "12"]);
    send(&t, "session-start", "s1");
    let first = json(&send(&t, "agent-stop", "s1"));
    assert_eq!(first["decision"], "block");
    for n in 2..=8 {
        let v = json(&send(&t, "agent-stop.active", "s1"));
        assert_eq!(v["decision"], "block", "block {n}");
        let reason = v["reason"].as_str().unwrap();
        insta::assert_snapshot!(redact(&t, reason));
    }
    let ninth = send(&t, "agent-stop.active", "s1");
    assert_eq!(ninth.stdout, "", "no block Copilot would drop");
    insta::assert_snapshot!(redact(&t, &ninth.stderr));
    let status = t.ok(&["goal", "status"]).stdout;
    insta::assert_snapshot!(redact(&t, &status));

    // The next prompt starts a new turn: the loop goes on.
    send(&t, "user-prompt-submitted", "s1");
    insta::assert_snapshot!(redact(&t, &send(&t, "agent-stop", "s1").stdout));
    // Another session's stops never count against this one's.
    assert_eq!(send(&t, "agent-stop.active", "s2").stdout, "");
}

#[test]
fn install_writes_the_project_hooks_file_and_names_the_trust_step() {
    let t = repo();
    let run = t.ok(&["install", "copilot"]);
    insta::assert_snapshot!(shown(&t, &run));
    let doc: Value = serde_json::from_str(&t.read(".github/hooks/plan.json")).unwrap();
    assert_eq!(doc["version"], 1);
    for (event, slug) in [
        ("sessionStart", "session-start"),
        ("userPromptSubmitted", "user-prompt-submitted"),
        ("postToolUse", "post-tool-use"),
        ("preCompact", "pre-compact"),
        ("agentStop", "agent-stop"),
    ] {
        assert_eq!(doc["hooks"][event][0]["type"], "command");
        assert_eq!(
            doc["hooks"][event][0]["bash"],
            format!("{BIN} hook copilot {slug}")
        );
    }
    let before = t.read(".github/hooks/plan.json");
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "copilot"])));
    assert_eq!(t.read(".github/hooks/plan.json"), before, "idempotent");

    // Another tool's hooks file beside it stays; plan's goes, with nothing else.
    t.write(".github/hooks/lint.json", "{\"version\":1,\"hooks\":{}}\n");
    t.ok(&["uninstall", "copilot"]);
    assert!(!t.path(".github/hooks/plan.json").exists());
    assert!(t.path(".github/hooks/lint.json").exists());
    t.ok(&["uninstall", "copilot"]);

    // A plan.json that is not plan's is refused, and left as it was.
    let theirs = "{\"version\":1,\"hooks\":{\"sessionStart\":[{\"type\":\"command\",\"bash\":\"./audit.sh\"}]}}\n";
    t.write(".github/hooks/plan.json", theirs);
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "copilot"]).code(2)));
    assert_eq!(t.read(".github/hooks/plan.json"), theirs);
}

#[test]
fn global_install_goes_to_copilot_home() {
    let t = repo();
    let copilot_home = t.path("copilot-home");
    let t = t.env("COPILOT_HOME", copilot_home.to_str().unwrap());
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "copilot", "--global"])));
    let file = copilot_home.join("hooks/plan.json");
    let text = std::fs::read_to_string(&file).unwrap();
    insta::assert_snapshot!(redact(&t, &text));
    assert!(!t.path(".github").exists());
    t.ok(&["uninstall", "copilot", "--global"]);
    assert!(!file.exists());
}

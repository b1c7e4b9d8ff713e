//! Qwen Code: `plan install qwen` in `.qwen/settings.json`, and `plan hook qwen
//! EVENT` with the payloads Qwen Code 0.24.4 sends: its empty prompts between tool
//! results, its compaction's second SessionStart, its limit of 8 blocks in a row.

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

/// Sends fixture `qwen/NAME.json` as `plan hook qwen EVENT` for `session`.
fn send(t: &Test, name: &str, session: &str) -> Run {
    crate::hooks::send(t, &format!("qwen/{name}"), session)
}

fn context(run: &Run) -> Option<String> {
    json(run)["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .map(str::to_string)
}

fn repo() -> Test {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t
}

/// Qwen fires UserPromptSubmit with `prompt: ""` before every model call that
/// follows tool results. Those carry a block only when plan.md changed, even with
/// `inject.every_prompt: always`, which means the person's prompts.
#[test]
fn empty_prompts_carry_the_block_only_when_it_changed() {
    let t = repo();
    t.write(".plan/config.yaml", "inject:\n  every_prompt: always\n");
    let block = t.ok(&["inject"]).stdout.trim_end().to_string();
    assert_eq!(
        context(&send(&t, "session-start", "s1")).as_deref(),
        Some(block.as_str())
    );
    assert_eq!(
        context(&send(&t, "user-prompt-submit", "s1")).as_deref(),
        Some(block.as_str()),
        "always: every prompt of the person's"
    );
    for _ in 0..3 {
        assert_eq!(context(&send(&t, "user-prompt-submit.empty", "s1")), None);
    }
    t.ok(&["tick", "cache-layer", "2"]);
    let changed = context(&send(&t, "user-prompt-submit.empty", "s1")).unwrap();
    insta::assert_snapshot!(redact(&t, &changed));
    assert_eq!(context(&send(&t, "user-prompt-submit.empty", "s1")), None);
}

#[test]
fn a_compaction_injects_at_its_session_start_and_edits_remind() {
    let t = repo();
    let block = t.ok(&["inject"]).stdout.trim_end().to_string();
    send(&t, "session-start", "s1");
    assert_eq!(context(&send(&t, "user-prompt-submit", "s1")), None);
    let compact = send(&t, "session-start.compact", "s1");
    assert_eq!(context(&compact).as_deref(), Some(block.as_str()));
    assert_eq!(context(&send(&t, "user-prompt-submit.empty", "s1")), None);
    assert_eq!(context(&send(&t, "post-tool-use.write", "s1")), None);
    assert_eq!(context(&send(&t, "post-tool-use.write", "s1")), None);
    let third = context(&send(&t, "post-tool-use.write", "s1")).unwrap();
    insta::assert_snapshot!(redact(&t, &third));
}

/// Qwen overrides the eighth block in a row (`stopHookBlockingCap` 8) and ends
/// the turn: the eighth stop is let go with a note, spending nothing; the next
/// prompt goes on.
#[test]
fn the_eighth_stop_in_a_row_is_let_go_without_spending_the_budget() {
    let t = repo();
    t.write(".plan/config.yaml", "loop:\n  stall_limit: 50\n");
    t.ok(&["goal", "--budget", "12"]);
    send(&t, "session-start", "s1");
    assert_eq!(json(&send(&t, "stop", "s1"))["decision"], "block");
    for n in 2..=7 {
        let run = send(&t, "stop.active", "s1");
        assert_eq!(json(&run)["decision"], "block", "block {n}: {}", run.stdout);
    }
    // Let go, with a system message and no decision.
    insta::assert_snapshot!(redact(&t, &send(&t, "stop.active", "s1").stdout));
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    send(&t, "user-prompt-submit", "s1");
    insta::assert_snapshot!(redact(&t, &send(&t, "stop", "s1").stdout));
}

/// Qwen stamps `"$version": 4` into a settings file that lacks it whenever it
/// loads one. The file plan creates carries it, so a first Qwen run (perhaps the
/// sign-off judge's) changes nothing in the repository; uninstall deletes it.
#[test]
fn install_creates_settings_qwen_will_not_rewrite_and_uninstall_takes_it_back() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "qwen"])));
    let text = t.read(".qwen/settings.json");
    let doc: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(doc["$version"], 4);
    assert!(
        text.trim_end().ends_with("\"$version\": 4\n}"),
        "last, as Qwen writes it:\n{text}"
    );
    assert_eq!(
        doc["hooks"]["PostToolUse"][0]["matcher"], "write_file|edit",
        "{text}"
    );
    assert_eq!(
        doc["hooks"]["Stop"][0]["hooks"][0]["command"],
        format!("{BIN} hook qwen stop")
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "qwen"])));
    assert_eq!(t.read(".qwen/settings.json"), text, "idempotent");
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "qwen"])));
    assert!(!t.path(".qwen").exists());

    // A file of the person's: commented, and left without a stamp it did not have.
    let theirs = "{\n  // mine\n  \"model\": {\"name\": \"qwen3-coder\"}\n}\n";
    t.write(".qwen/settings.json", theirs);
    t.ok(&["install", "qwen"]);
    let merged = t.read(".qwen/settings.json");
    assert!(
        merged.contains("// mine") && !merged.contains("$version"),
        "{merged}"
    );
    t.ok(&["uninstall", "qwen"]);
    assert_eq!(t.read(".qwen/settings.json"), theirs, "the original bytes");
}

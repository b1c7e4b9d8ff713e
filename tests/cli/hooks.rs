//! `plan hook HOST EVENT` driven with the payloads each host sends: injection,
//! reminders, the continuation guard's every let-go, fail-open, and the exact answer
//! shapes the hosts accept.

use std::io::Write;
use std::process::Stdio;

use serde_json::Value;

use crate::util::{Run, Test, fixture, redact, redact_hosts, shown};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
failure_modes:
- cache bypassed
- [x] wire client
- [ ] eviction policy

## Goal: Document the cache
<!-- id: cache-docs -->
status: open
depends_on: cache-layer
done_when: README explains it

## Goal: Old work
<!-- id: old -->
status: done
done_when: it was done

## Log
- 2026-06-15 13:00 old signed off (verify passed, judge accept)
- 2026-06-15 14:02 client wired
";

/// A payload fixture with this test's repository and session filled in.
pub(crate) fn payload(t: &Test, name: &str, session: &str) -> String {
    fixture(&format!("hosts/{name}.json"))
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", session)
}

pub(crate) fn hook(t: &Test, host: &str, event: &str, stdin: &str) -> Run {
    let mut child = t
        .cmd(&["hook", host, event])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A hook may answer before reading everything; the host's write then fails.
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let out = child.wait_with_output().unwrap();
    Run::from(out, &["hook", host, event])
}

/// Sends fixture `name` (`host/event`) for `session`; the hook always exits 0.
pub(crate) fn send(t: &Test, name: &str, session: &str) -> Run {
    // `host/event` or `host/event.variant`.
    let (host, rest) = name.split_once('/').unwrap();
    let event = rest.split('.').next().unwrap();
    hook(t, host, event, &payload(t, name, session)).code(0)
}

pub(crate) fn json(run: &Run) -> Value {
    if run.stdout.trim().is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&run.stdout)
        .unwrap_or_else(|e| panic!("hook printed no JSON ({e}): {}", run.stdout))
}

fn context(run: &Run) -> Option<String> {
    json(run)["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .map(str::to_string)
}

fn repo() -> Test {
    Test::new().plan(PLAN)
}

#[test]
fn session_start_injects_the_same_block_as_plan_inject() {
    let t = repo();
    let run = send(&t, "claude/session-start", "s1");
    let v = json(&run);
    assert_eq!(v["hookSpecificOutput"]["hookEventName"], "SessionStart");
    let block = context(&run).unwrap();
    assert_eq!(format!("{block}\n"), t.ok(&["inject"]).stdout);
    insta::assert_snapshot!(redact(&t, &block));
}

#[test]
fn injection_is_byte_identical_across_runs_and_unrelated_edits() {
    let t = repo();
    let first = t.ok(&["inject"]).stdout;
    assert_eq!(t.ok(&["inject"]).stdout, first);
    // A done goal and an older log line change; the block does not.
    t.write(
        "plan.md",
        PLAN.replace("done_when: it was done", "done_when: it was done, long ago")
            .replace("13:00 old signed off", "13:00 old signed off  "),
    );
    assert_eq!(t.ok(&["inject"]).stdout, first);
    t.ok(&["tick", "cache-layer", "2"]);
    assert_ne!(t.ok(&["inject"]).stdout, first);
}

#[test]
fn prompts_inject_only_when_the_block_changed() {
    let t = repo();
    send(&t, "claude/session-start", "s1");
    assert_eq!(send(&t, "claude/user-prompt-submit", "s1").stdout, "");
    t.ok(&["subtask", "cache-layer", "load test"]);
    let run = send(&t, "claude/user-prompt-submit", "s1");
    insta::assert_snapshot!(redact(&t, &context(&run).unwrap()));
    assert_eq!(send(&t, "claude/user-prompt-submit", "s1").stdout, "");
    // Another session has seen nothing yet.
    assert!(context(&send(&t, "claude/user-prompt-submit", "s2")).is_some());
}

#[test]
fn every_prompt_always_and_never() {
    let t = repo();
    t.write(".plan/config.yaml", "inject:\n  every_prompt: always\n");
    assert!(context(&send(&t, "claude/user-prompt-submit", "s1")).is_some());
    assert!(context(&send(&t, "claude/user-prompt-submit", "s1")).is_some());
    t.write(".plan/config.yaml", "inject:\n  every_prompt: never\n");
    assert_eq!(send(&t, "claude/user-prompt-submit", "s3").stdout, "");
    // Session start injects whatever the setting.
    assert!(context(&send(&t, "claude/session-start", "s3")).is_some());
}

#[test]
fn a_compaction_brings_the_block_back() {
    let t = repo();
    send(&t, "claude/session-start", "s1");
    assert_eq!(send(&t, "claude/user-prompt-submit", "s1").stdout, "");
    assert_eq!(send(&t, "claude/pre-compact", "s1").stdout, "");
    assert!(context(&send(&t, "claude/session-start.compact", "s1")).is_some());
    send(&t, "claude/pre-compact", "s1");
    // Gemini cannot inject at compaction: the next prompt does.
    assert!(context(&send(&t, "claude/user-prompt-submit", "s1")).is_some());
}

#[test]
fn the_reminder_comes_once_per_threshold() {
    let t = repo();
    let mut reminded = Vec::new();
    for i in 1..=7 {
        let run = send(&t, "claude/post-tool-use.write", "s1");
        if let Some(text) = context(&run) {
            insta::assert_snapshot!(redact(&t, &text));
            assert_eq!(
                json(&run)["hookSpecificOutput"]["hookEventName"],
                "PostToolUse"
            );
            reminded.push(i);
        }
    }
    assert_eq!(reminded, [3, 6]);
    // Reads do not count, and a change to plan.md starts the count again.
    assert_eq!(send(&t, "claude/post-tool-use.read", "s1").stdout, "");
    t.ok(&["log", "progress"]);
    assert_eq!(send(&t, "claude/post-tool-use.edit-plan", "s1").stdout, "");
    assert!(context(&send(&t, "claude/post-tool-use.write", "s1")).is_none());
    assert!(context(&send(&t, "claude/post-tool-use.write", "s1")).is_none());
    assert!(context(&send(&t, "claude/post-tool-use.write", "s1")).is_some());
    insta::assert_snapshot!(redact(&t, &t.ok(&["remind", "--session", "s1"]).stdout));
    t.ok(&["log", "more progress"]);
    assert_eq!(t.ok(&["remind", "--session", "s1"]).stdout, "");
}

#[test]
fn parallel_tool_calls_remind_once() {
    let t = repo();
    let stdin = payload(&t, "claude/post-tool-use.write", "s1");
    let children: Vec<_> = (0..6)
        .map(|_| {
            let mut child = t
                .cmd(&["hook", "claude", "post-tool-use"])
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(stdin.as_bytes())
                .unwrap();
            child
        })
        .collect();
    let reminders = children
        .into_iter()
        .map(|c| c.wait_with_output().unwrap())
        .filter(|o| String::from_utf8_lossy(&o.stdout).contains("reminder"))
        .count();
    assert_eq!(reminders, 2, "6 edits at a threshold of 3");
}

#[test]
fn no_reminder_without_an_active_goal() {
    let t = Test::new().plan(&PLAN.replace("status: active", "status: open"));
    for _ in 0..3 {
        assert!(context(&send(&t, "claude/post-tool-use.write", "s1")).is_none());
    }
}

#[test]
fn stop_without_a_loop_lets_the_agent_go_silently() {
    let t = repo();
    assert_eq!(send(&t, "claude/stop", "s1").stdout, "");
}

#[test]
fn the_loop_continues_then_lets_go_at_its_budget() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "--budget", "2"])));
    let first = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(first["decision"], "block");
    insta::assert_snapshot!(redact(&t, first["reason"].as_str().unwrap()));
    t.ok(&["tick", "cache-layer", "2"]);
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    let last = json(&send(&t, "claude/stop", "s1"));
    assert!(last.get("decision").is_none());
    insta::assert_snapshot!(redact(&t, last["systemMessage"].as_str().unwrap()));
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    // plan.md does not record a spent budget, so a later stop says the loop ended
    // rather than nothing (issue 34); it holds nobody.
    let later = json(&send(&t, "claude/stop", "s1"));
    assert!(later.get("decision").is_none(), "{later}");
    assert_eq!(
        later["systemMessage"],
        "plan: the work loop has ended (`plan goal status` says why); plan.md does not record that ending, so each stop says so until `plan goal clear` or a new `plan goal`"
    );
}

#[test]
fn the_loop_lets_go_when_stalled() {
    let t = repo();
    t.write(".plan/config.yaml", "loop:\n  stall_limit: 2\n");
    t.ok(&["goal"]);
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    let note = json(&send(&t, "claude/stop", "s1"));
    insta::assert_snapshot!(redact(&t, note["systemMessage"].as_str().unwrap()));
}

#[test]
fn the_loop_ends_when_all_goals_are_done() {
    let t = Test::new().plan(
        &PLAN
            .replace("status: active", "status: done")
            .replace("status: open", "status: cancelled"),
    );
    t.ok(&["goal"]);
    // Marked done and cancelled by hand, not through plan: still work to do.
    let answer = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(answer["decision"], "block");
    insta::assert_snapshot!(redact(&t, answer["reason"].as_str().unwrap()));
    let cancels: String = ["cache-layer", "cache-docs", "old"]
        .iter()
        .map(|id| format!("- 2026-06-15 15:00 {id} cancelled: x\n"))
        .collect();
    let all_cancelled = PLAN
        .replace("status: active", "status: cancelled")
        .replace("status: open", "status: cancelled")
        .replace("status: done", "status: cancelled");
    // The log keeps the loop's start line, as plan's own writes do.
    let started: String = t
        .plan_md()
        .lines()
        .filter(|l| l.contains(" work loop started ("))
        .map(|l| format!("{l}\n"))
        .collect();
    t.write("plan.md", format!("{all_cancelled}{started}{cancels}"));
    let note = json(&send(&t, "claude/stop", "s1"));
    insta::assert_snapshot!(redact(&t, note["systemMessage"].as_str().unwrap()));
}

#[test]
fn two_sessions_one_loop() {
    let t = repo();
    t.ok(&["goal"]);
    // The first session whose hook sees the loop claims it, here by a prompt.
    send(&t, "claude/user-prompt-submit", "a");
    // The other session is told once whose loop it is.
    insta::assert_snapshot!(redact(&t, &send(&t, "claude/stop", "b").stdout), @r#"{"systemMessage":"plan: the work loop started 2026-06-15 14:02 is held by session a, not this one (b), so this session's stops are let go. If this session is the loop's, `plan goal` here starts it again."}"#);
    assert_eq!(send(&t, "claude/stop", "b").stdout, "");
    assert_eq!(json(&send(&t, "claude/stop", "a"))["decision"], "block");
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

#[test]
fn pause_resume_clear() {
    let t = repo();
    t.ok(&["goal"]);
    t.ok(&["goal", "pause"]);
    let note = json(&send(&t, "claude/stop", "s1"));
    insta::assert_snapshot!(redact(&t, note["systemMessage"].as_str().unwrap()));
    t.ok(&["goal", "resume"]);
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    t.ok(&["goal", "clear"]);
    // The clear is said once at the loop's next stop.
    insta::assert_snapshot!(redact(&t, &send(&t, "claude/stop", "s1").stdout), @r#"{"systemMessage":"plan: the work loop started 2026-06-15 14:02 was cleared: plan.md's log says `2026-06-15 14:02 work loop cleared (without a terminal)`. This stop is let go, and no later one is held; if no one meant to end it, `plan goal` starts a new loop."}"#);
    assert_eq!(send(&t, "claude/stop", "s1").stdout, "");
    insta::assert_snapshot!(shown(&t, &t.run(&["goal", "pause"]).code(2)));
}

#[test]
fn disabled_and_judge_runs_change_nothing() {
    for var in ["PLAN_DISABLED", "PLAN_JUDGE"] {
        let t = repo();
        t.ok(&["goal"]);
        let t = t.env(var, "1");
        for name in [
            "claude/session-start",
            "claude/user-prompt-submit",
            "claude/post-tool-use.write",
            "claude/stop",
        ] {
            assert_eq!(send(&t, name, "s1").stdout, "", "{var} {name}");
        }
        let git_dir = t.path(".git/plan");
        assert!(
            !git_dir.join("sessions").exists(),
            "{var} wrote session state"
        );
        insta::assert_snapshot!(redact(&t, &t.ok(&["goal", "status"]).stdout));
    }
}

#[test]
fn hooks_fail_open() {
    let t = repo();
    t.ok(&["goal"]);
    // Bad JSON, an unknown event: exit 0 with a note for the user, never a block.
    let run = hook(&t, "claude", "stop", "{not json").code(0);
    assert!(
        json(&run)["systemMessage"]
            .as_str()
            .unwrap()
            .starts_with("plan: hook skipped")
    );
    insta::assert_snapshot!(json(&run)["systemMessage"].as_str().unwrap());
    assert!(json(&hook(&t, "claude", "bogus", "{}").code(0))["systemMessage"].is_string());
    // A broken plan.md is no way out of the loop: the agent is told to fix it.
    t.write("plan.md", PLAN.replace("status: active", "status: doing"));
    let v = json(&send(&t, "claude/stop", "s1"));
    assert_eq!(v["decision"], "block", "{v}");
    assert!(
        v["reason"]
            .as_str()
            .unwrap()
            .contains("first fix plan.md's format errors"),
        "{v}"
    );
    insta::assert_snapshot!(redact(&t, v["reason"].as_str().unwrap()));
    // The injection still comes, as far as the plan reads, naming the errors.
    let v = json(&send(&t, "claude/session-start", "s1"));
    let context = v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_else(|| panic!("nothing injected: {v}"));
    insta::assert_snapshot!(redact(&t, context));
    // No plan while the loop runs, in HEAD neither: let go, saying so (a plan.md
    // HEAD has, gone while a loop runs, is held once: loop_events.rs). No
    // repository: nothing at all.
    std::fs::remove_file(t.path("plan.md")).unwrap();
    let gone = send(&t, "claude/stop", "s1").stdout;
    insta::assert_snapshot!(redact(&t, &gone), @r#"{"systemMessage":"plan: plan.md is in neither the working tree nor HEAD while the work loop started 2026-06-15 14:02 runs, so its goals cannot be read and this stop is let go; `git log -- plan.md` shows where it went, and the loop holds the next stop once it is back"}"#);
    let o = Test::outside_git();
    assert_eq!(hook(&o, "claude", "stop", "{}").code(0).stdout, "");
}

/// Codex rejects unknown fields: every answer must use only the ones its schemas list.
#[test]
fn codex_answers_use_only_allowed_fields() {
    let t = repo();
    t.ok(&["goal", "--budget", "1"]);
    let common = ["continue", "stopReason", "suppressOutput", "systemMessage"];
    let check = |run: Run, extra: &[&str]| {
        let v = json(&run);
        let Some(obj) = v.as_object() else { return };
        for key in obj.keys() {
            assert!(
                common.contains(&key.as_str()) || extra.contains(&key.as_str()),
                "codex got {key}: {v}"
            );
        }
        if let Some(hso) = obj.get("hookSpecificOutput") {
            for key in hso.as_object().unwrap().keys() {
                assert!(
                    ["hookEventName", "additionalContext"].contains(&key.as_str()),
                    "{v}"
                );
            }
        }
    };
    let start = send(&t, "codex/session-start", "c1");
    assert!(context(&start).is_some());
    check(start, &["hookSpecificOutput"]);
    t.ok(&["subtask", "cache-layer", "x"]);
    check(
        send(&t, "codex/user-prompt-submit", "c1"),
        &["hookSpecificOutput"],
    );
    for _ in 0..3 {
        check(
            send(&t, "codex/post-tool-use.patch", "c1"),
            &["hookSpecificOutput"],
        );
    }
    check(
        send(&t, "codex/post-tool-use.bash", "c1"),
        &["hookSpecificOutput"],
    );
    check(send(&t, "codex/pre-compact", "c1"), &[]);
    let block = send(&t, "codex/stop", "c1");
    assert_eq!(json(&block)["decision"], "block");
    assert!(!json(&block)["reason"].as_str().unwrap().is_empty());
    check(block, &["decision", "reason"]);
    let let_go = send(&t, "codex/stop", "c1");
    assert!(json(&let_go)["systemMessage"].is_string());
    check(let_go, &["decision", "reason"]);
}

#[test]
fn gemini_always_gets_json() {
    let t = repo();
    t.ok(&["goal"]);
    let start = send(&t, "gemini/session-start", "g1");
    assert_eq!(
        json(&start)["hookSpecificOutput"]["hookEventName"],
        "SessionStart"
    );
    let prompt = send(&t, "gemini/before-agent", "g1");
    assert_eq!(prompt.stdout.trim(), "{}");
    for i in 1..=3 {
        let tool = send(&t, "gemini/after-tool", "g1");
        if i == 3 {
            assert_eq!(
                json(&tool)["hookSpecificOutput"]["hookEventName"],
                "AfterTool"
            );
        } else {
            assert_eq!(tool.stdout.trim(), "{}");
        }
    }
    let stop = json(&send(&t, "gemini/after-agent", "g1"));
    assert_eq!(stop["decision"], "block");
}

/// Gemini has no SessionStart after a compression: PreCompress (which cannot
/// inject) makes the next BeforeAgent inject again, and answers `{}` itself.
#[test]
fn gemini_injects_again_after_a_compression() {
    let t = repo();
    assert!(context(&send(&t, "gemini/session-start", "g1")).is_some());
    assert_eq!(send(&t, "gemini/before-agent", "g1").stdout.trim(), "{}");
    assert_eq!(send(&t, "gemini/pre-compress", "g1").stdout.trim(), "{}");
    let again = send(&t, "gemini/before-agent", "g1");
    assert_eq!(
        json(&again)["hookSpecificOutput"]["hookEventName"],
        "BeforeAgent"
    );
    assert_eq!(
        format!("{}\n", context(&again).unwrap()),
        t.ok(&["inject"]).stdout
    );
    assert_eq!(send(&t, "gemini/before-agent", "g1").stdout.trim(), "{}");
}

#[test]
fn pi_events_speak_the_extension_protocol() {
    let t = repo();
    t.ok(&["goal"]);
    insta::assert_snapshot!(redact(&t, &send(&t, "pi/before-agent-start", "p1").stdout));
    assert_eq!(send(&t, "pi/before-agent-start", "p1").stdout.trim(), "{}");
    let mut reminders = 0;
    for _ in 0..3 {
        reminders += usize::from(
            json(&send(&t, "pi/tool-result", "p1"))
                .get("message")
                .is_some(),
        );
    }
    assert_eq!(reminders, 1);
    insta::assert_snapshot!(redact(
        &t,
        &send(&t, "pi/session-before-compact", "p1").stdout
    ));
    assert_eq!(send(&t, "pi/turn-end.with-tools", "p1").stdout.trim(), "{}");
    insta::assert_snapshot!(redact(&t, &send(&t, "pi/turn-end", "p1").stdout));
    // Why the loop let go is a notice: the extension shows it, never sends it.
    t.ok(&["goal", "--budget", "1"]);
    assert!(json(&send(&t, "pi/turn-end", "p1"))["message"].is_string());
    // A notice and no message.
    insta::assert_snapshot!(redact(&t, &send(&t, "pi/turn-end", "p1").stdout));
}

#[test]
fn statusline_and_skeleton() {
    let t = repo();
    // old's sign-off line predates records, so it counts as unproven.
    assert_eq!(
        t.ok(&["statusline"]).stdout,
        "plan: 1 active · cache-layer 1/2 · next: eviction policy · ⚠ 1 unproven\n"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["skeleton"])));
    // A status bar never shows an error wall.
    let o = Test::new();
    assert_eq!(o.ok(&["statusline"]).stdout, "");
}

#[test]
fn repository_prompt_overrides() {
    let t = repo();
    t.write(".plan/prompts/injection_idle.md", "IDLE {{objective}}\n");
    t.write("plan.md", PLAN.replace("status: active", "status: done"));
    // The unproven goals are named whatever the template says.
    assert_eq!(
        t.ok(&["inject"]).stdout,
        "IDLE Ship the cache layer\nMarked done or cancelled by hand, so still remaining work: cache-layer, old. Sign a goal off with `plan complete ID --evidence TEXT --path FILE`, or cancel it with `plan cancel ID --reason TEXT` (`plan audit` says why each is unproven).\n"
    );
}

/// Red team: a blank `.plan/prompts/continuation.md` made every stop's block one
/// with an empty reason (`{"decision":"block","reason":""}`), which a host may not
/// take as a block at all. A blank override is none: the built-in text is used.
#[test]
fn a_blank_prompt_override_is_no_override() {
    let t = repo();
    t.ok(&["goal"]);
    let built_in = json(&send(&t, "claude/stop", "s1"))["reason"]
        .as_str()
        .unwrap()
        .to_string();
    for blank in ["", "\n  \n"] {
        t.write(".plan/prompts/continuation.md", blank);
        let v = json(&send(&t, "claude/stop", "s1"));
        assert_eq!(v["decision"], "block", "{blank:?}: {v}");
        // The same text but for the loop's count.
        let count = |r: &str| r.replace(|c: char| c.is_ascii_digit(), "#");
        let reason = v["reason"].as_str().unwrap();
        assert_eq!(count(reason), count(&built_in), "{blank:?}");
    }
}

/// The loop judge, as the person turns it on: in their own settings file.
fn loop_judge(t: &Test, fixture_name: &str) {
    let path = crate::util::fixture_path(&format!("judges/{fixture_name}"));
    t.write(
        "../home/.config/plan/config.yaml",
        format!(
            "loop:\n  judge: on\njudge:\n  backend: command\n  command: [\"{}\"]\n",
            path.display()
        ),
    );
}

/// Red team: the repository's settings, which the agent writes, turned the loop
/// judge on with a `command` judge that always says PAUSE: every stop was let go.
/// A way out of the loop is the person's: only their own file turns it on.
#[test]
fn the_repositorys_settings_cannot_turn_the_loop_judge_on() {
    let t = repo();
    let path = crate::util::fixture_path("judges/loop-pause");
    t.write(
        ".plan/config.yaml",
        format!(
            "loop:\n  judge: on\njudge:\n  backend: command\n  command: [\"{}\"]\n",
            path.display()
        ),
    );
    // `plan goal` says the repository's setting does not count.
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal"])));
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    // The person's file turns it on; the repository's may still turn it off.
    loop_judge(&t, "loop-pause");
    t.write(".plan/config.yaml", "loop:\n  judge: off\n");
    assert_eq!(json(&send(&t, "claude/stop", "s1"))["decision"], "block");
    t.write(".plan/config.yaml", "");
    let v = json(&send(&t, "claude/stop", "s1"));
    assert!(v.get("decision").is_none(), "{v}");
}

#[test]
fn the_loop_judge_may_let_the_agent_pause() {
    let t = repo();
    loop_judge(&t, "loop-pause");
    let calls = t.dir.path().join("calls.log");
    let t = t.env("PLAN_FIXTURE_LOG", calls.to_str().unwrap());
    t.ok(&["goal"]);
    let v = json(&send(&t, "claude/stop", "s1"));
    assert!(v.get("decision").is_none(), "{v}");
    insta::assert_snapshot!(redact(&t, v["systemMessage"].as_str().unwrap()));
    assert!(
        std::fs::read_to_string(&calls)
            .unwrap()
            .contains("PLAN_JUDGE=1")
    );
    // A pause spends no budget and leaves the loop running.
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

#[test]
fn the_loop_judge_fails_open() {
    for fixture_name in ["loop-continue", "crash", "hang"] {
        let t = repo();
        loop_judge(&t, fixture_name);
        if fixture_name == "hang" {
            let user = "../home/.config/plan/config.yaml";
            t.write(user, t.read(user) + "  timeout_secs: 1\n");
        }
        t.ok(&["goal"]);
        assert_eq!(
            json(&send(&t, "claude/stop", "s1"))["decision"],
            "block",
            "{fixture_name}"
        );
    }
}

/// A typo in a setting the hooks do not use must not switch them off: the injection
/// still comes, with the other settings honoured, and the person is told in one line.
#[test]
fn a_bad_judge_setting_does_not_stop_the_injection() {
    let t = Test::new().plan(PLAN);
    t.write(
        ".plan/config.yaml",
        "judge:\n  modle: opus\ninject:\n  every_prompt: never\n",
    );
    let run = send(&t, "claude/session-start", "s1");
    let block = context(&run).unwrap_or_else(|| panic!("nothing injected: {}", run.stdout));
    insta::assert_snapshot!(redact(&t, &block));
    // One line for the person.
    insta::assert_snapshot!(redact(&t, &run.stderr));
    // `inject: every_prompt: never` still counts: a new session's prompt gets nothing.
    assert_eq!(context(&send(&t, "claude/user-prompt-submit", "s2")), None);
}

/// Droid: its file-creating tool is `Create`, and `droid exec` fires no prompt
/// event, so a block that changed (or that a compaction took) comes with the next
/// tool call instead, once; the reminder still comes after three edits.
#[test]
fn droid_counts_create_and_brings_a_changed_block_with_the_next_tool_call() {
    let t = repo();
    let start = send(&t, "droid/session-start", "d1");
    assert_eq!(
        json(&start)["hookSpecificOutput"]["hookEventName"],
        "SessionStart"
    );
    assert_eq!(
        format!("{}\n", context(&start).unwrap()),
        t.ok(&["inject"]).stdout
    );
    // Unchanged block: Create counts as an edit, the third one reminds.
    assert_eq!(send(&t, "droid/post-tool-use.create", "d1").stdout, "");
    assert_eq!(send(&t, "droid/post-tool-use.create", "d1").stdout, "");
    let third = context(&send(&t, "droid/post-tool-use.create", "d1")).unwrap();
    insta::assert_snapshot!(redact(&t, &third));

    // plan.md changed: the next tool call carries the new block, once.
    t.ok(&["tick", "cache-layer", "2"]);
    let next = send(&t, "droid/post-tool-use.edit-plan", "d1");
    assert_eq!(
        json(&next)["hookSpecificOutput"]["hookEventName"],
        "PostToolUse"
    );
    assert_eq!(
        format!("{}\n", context(&next).unwrap()),
        t.ok(&["inject"]).stdout
    );
    assert_eq!(send(&t, "droid/post-tool-use.create", "d1").stdout, "");

    // A compaction takes the block: the next tool call brings it back.
    assert_eq!(send(&t, "droid/pre-compact", "d1").stdout, "");
    let back = context(&send(&t, "droid/post-tool-use.create", "d1")).unwrap();
    insta::assert_snapshot!(redact(&t, &back));

    // Other hosts keep the block to their prompt events.
    t.ok(&["log", "more"]);
    send(&t, "claude/session-start", "c1");
    t.ok(&["log", "and more"]);
    assert_eq!(send(&t, "claude/post-tool-use.write", "c1").stdout, "");
}

#[test]
fn droid_stop_blocks_with_claudes_shape() {
    let t = repo();
    assert_eq!(send(&t, "droid/stop", "d1").stdout, "");
    t.ok(&["goal", "--budget", "1"]);
    // Blocked once, then let go with a system message and no decision.
    insta::assert_snapshot!(redact(&t, &send(&t, "droid/stop", "d1").stdout));
    insta::assert_snapshot!(redact(&t, &send(&t, "droid/stop", "d1").stdout));
}

/// Gemini CLI fires PreCompress before every model call, whether it then compresses
/// or not. A compression rewrites the chat's messages in its transcript (a
/// `{"$set":{"messages":…}}` record): only then, or when plan.md changed, does the
/// next BeforeAgent inject again.
#[test]
fn gemini_injects_again_only_after_a_real_compression() {
    let t = repo();
    let chat = t.root().join("chat.jsonl");
    let initial = "{\"sessionId\":\"g1\",\"kind\":\"main\"}\n{\"$set\":{\"messages\":[]}}\n";
    std::fs::write(&chat, initial).unwrap();
    let send = |name: &str| {
        let stdin = payload(&t, name, "g1")
            .replace(".gemini/tmp/abc/chats/session-g1.jsonl", ".gemini/chat")
            .replace(".gemini/tmp/abc/chats/session-g1.json", ".gemini/chat")
            .replace("/home/u/.gemini/chat", chat.to_str().unwrap());
        let (_, event) = name.split_once('/').unwrap();
        hook(&t, "gemini", event, &stdin).code(0)
    };
    assert!(context(&send("gemini/session-start")).is_some());
    for _ in 0..3 {
        assert_eq!(send("gemini/before-agent").stdout.trim(), "{}");
        assert_eq!(send("gemini/pre-compress").stdout.trim(), "{}");
        assert_eq!(send("gemini/pre-compress").stdout.trim(), "{}");
        let mut text = std::fs::read_to_string(&chat).unwrap();
        text.push_str("{\"id\":\"m\",\"type\":\"gemini\",\"content\":\"Done.\"}\n{\"$set\":{\"lastUpdated\":\"x\"}}\n");
        std::fs::write(&chat, text).unwrap();
    }
    // A compression after a PreCompress: the next prompt brings the block back, once.
    send("gemini/pre-compress");
    let mut text = std::fs::read_to_string(&chat).unwrap();
    text.push_str(
        "{\"$set\":{\"sessionId\":\"g1\"}}\n{\"$set\":{\"messages\":[{\"type\":\"user\"}]}}\n",
    );
    std::fs::write(&chat, text).unwrap();
    send("gemini/pre-compress");
    let again = send("gemini/before-agent");
    assert_eq!(
        format!("{}\n", context(&again).unwrap()),
        t.ok(&["inject"]).stdout
    );
    assert_eq!(send("gemini/before-agent").stdout.trim(), "{}");
    // plan.md changed: injected whatever the chat did.
    t.ok(&["tick", "cache-layer", "2"]);
    assert!(context(&send("gemini/before-agent")).is_some());
}

/// `plan hook --help` names every host there is: a hand-written list there once
/// left out the hosts added after it.
#[test]
fn hook_help_names_every_host() {
    let help = Test::new().ok(&["hook", "--help"]).stdout;
    // clap wraps the help: the list may run over lines.
    let help = help.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        redact_hosts(&help).contains("The host agent: HOSTS (any other name"),
        "{help}"
    );
}

/// A hook always exits 0, whatever it is asked: an unknown host says so on stderr
/// and answers nothing; malformed input to a host whose prompt answer is plain text
/// (Codex) puts its note on stderr, never on stdout where the model could read it.
#[test]
fn hooks_exit_zero_for_an_unknown_host_and_keep_notes_off_stdout() {
    let t = repo();
    let run = t
        .case(&["hook", "cursor", "stop"])
        .stdin("{}")
        .check_status_only();
    assert_eq!(run.stdout, "");
    assert_eq!(
        redact_hosts(&run.stderr),
        "plan: no hooks for a host named \"cursor\" (plan knows HOSTS); nothing done\n"
    );
    let run = t
        .case(&["hook", "codex", "user-prompt-submit"])
        .stdin("not json")
        .any_stdout()
        .check_status_only();
    assert_eq!(run.stdout, "", "a note reached Codex's stdout");
    insta::assert_snapshot!(redact(&t, &run.stderr));
}

/// A `.git` that is a named pipe below the repository (an agent's `mkfifo .git` in
/// the directory it works in, which the hooks' `cwd` follows): reading it would
/// wait for a writer, and a hook the host kills on its timeout lets the stop go.
/// The hooks look past it to the repository, and the loop holds the stop.
#[test]
fn a_named_pipe_as_git_below_the_repository_does_not_hold_up_a_hook() {
    let t = repo();
    t.ok(&["goal"]);
    std::fs::create_dir(t.path("sub")).unwrap();
    let made = std::process::Command::new("mkfifo")
        .arg(t.path("sub/.git"))
        .status()
        .unwrap();
    assert!(made.success());
    let payload = payload(&t, "claude/stop", "s1")
        .replace(t.root().to_str().unwrap(), t.path("sub").to_str().unwrap());
    let mut child = t
        .cmd(&["hook", "claude", "stop"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    use std::io::Write as _;
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > std::time::Duration::from_secs(20) {
            child.kill().unwrap();
            panic!("the stop hook waited on sub/.git");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let out = child.wait_with_output().unwrap();
    let answer: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(answer["decision"], "block", "{answer}");
}

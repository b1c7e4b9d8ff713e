//! The scenarios, written once for every host. Each runs the real host headless
//! against the fake and asserts on what reached the model (the request log), on
//! plan's hook calls, and on the repository.

use serde_json::json;

use crate::fake::{Call, Reply, call, heavy, is_side, said, script, shell, side, text, write};
use crate::harness::{Host, World};

pub const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
- [x] wire client
- [ ] eviction policy

## Log
- 2026-06-15 14:02 client wired
";

/// Words of the reminder and of the continuation, as plan writes them.
pub const REMINDER: &str = "plan.md reminder:";
pub const CONTINUATION: &str = "plan.md still has work: cache-layer";

/// The injection block for the repository as it is now, as the model sees it:
/// Gemini CLI escapes `<` and `>` in hook context (0.61.0,
/// `getAdditionalContext`), so `p95 < 50ms` arrives as `p95 &lt; 50ms`.
pub fn block(w: &World) -> String {
    let block = w.plan_ok(&["inject"]).stdout.trim_end().to_string();
    match w.host {
        // Qwen Code (0.24.4) too, in the system prompt's session-start context.
        Host::Gemini | Host::Qwen => block.replace('<', "&lt;").replace('>', "&gt;"),
        _ => block,
    }
}

/// How the host's write tool names `rel`.
pub fn file_arg(w: &World, rel: &str) -> String {
    match w.host {
        // apply_patch paths are relative to the working directory.
        Host::Codex => rel.to_string(),
        _ => w.repo().join(rel).display().to_string(),
    }
}

fn writes(w: &World, n: usize) -> Vec<Reply> {
    (1..=n)
        .map(|i| {
            write(
                &file_arg(w, &format!("src/f{i}.txt")),
                &format!("file {i}\n"),
            )
        })
        .collect()
}

/// The last stop-hook answer plan gave (stdout, then stderr).
fn last_stop_answer(w: &World) -> String {
    let stop = match w.host {
        Host::Claude | Host::Codex | Host::Droid | Host::Qwen => "stop",
        Host::Gemini => "after-agent",
        Host::Pi => "turn-end",
        Host::Opencode => "text-complete",
        Host::Copilot => "agent-stop",
    };
    w.hooks()
        .into_iter()
        .rev()
        .find(|h| h.args.ends_with(&format!(" {stop}")))
        // Copilot reads no message for the person from a hook: the note goes to
        // stderr.
        .map(|h| h.stdout + &h.stderr)
        .unwrap_or_default()
}

/// Scenario 1: A session starts with an active goal: the block reaches the model, once.
/// With no loop running, the agent then stops at once: one turn, no continuation.
pub fn injects_at_session_start(host: Host) {
    let w = World::new(host, PLAN, script(vec![text("Hi.")]));
    let block = block(&w);
    w.prompt("Say hi").ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 1, "no loop: one turn, no continuation");
    assert_eq!(
        turns[0].count(&block),
        1,
        "the injection block reaches the model exactly once"
    );
    assert!(!turns[0].has(CONTINUATION));
}

/// Scenario 2: Three file edits without touching plan.md: the reminder reaches the model
/// once, right after the third; a fourth edit does not repeat it.
pub fn reminds_once_after_three_edits(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    let mut replies = writes(&w, 4);
    replies.push(text("Done."));
    w.fake.script(script(replies));
    w.prompt("Write the four files.").ok();
    for i in 1..=4 {
        assert_eq!(w.read(&format!("src/f{i}.txt")), format!("file {i}\n"));
    }
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 5, "four writes and a final answer");
    assert!(!turns[2].has(REMINDER), "no reminder after two edits");
    assert_eq!(
        turns[3].count(REMINDER),
        1,
        "the reminder after the third edit"
    );
    assert_eq!(
        turns[4].count(REMINDER),
        1,
        "and not again after the fourth"
    );
}

/// Scenario 3a: `plan goal --budget 2`: each stop is blocked with a continuation naming the
/// goal while the agent makes progress, until the budget is spent; plan says why.
pub fn continues_until_the_budget(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write(".plan/config.yaml", "loop:\n  stall_limit: 1\n");
    w.plan_ok(&["goal", "--budget", "2"]);
    // By its path: a login shell (Codex runs `bash -lc`) resets PATH.
    let plan = w.path("bin/plan").display().to_string();
    w.fake.script(script(vec![
        shell(&format!("{plan} log 'step 1'")),
        text("Done for now."),
        shell(&format!("{plan} log 'step 2'")),
        text("Done for now."),
        shell(&format!("{plan} log 'step 3'")),
        text("Done for now."),
    ]));
    let run = w.prompt("Work on the plan.");
    run.ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 6, "two continuations, then let go");
    assert!(!turns[1].has(CONTINUATION));
    assert!(turns[2].has(CONTINUATION) && turns[2].has("(Continuation 1 of 2.)"));
    assert!(turns[4].has("(Continuation 2 of 2.)"));
    assert!(w.read("plan.md").contains("step 3"));
    // The last stop says why it let go, in the host's own shape.
    insta::assert_snapshot!(
        format!("{}_budget_last_stop", w.host.slug()),
        w.redact(&last_stop_answer(&w))
    );
    let status = w.plan_ok(&["goal", "status"]).stdout;
    assert_eq!(
        status.lines().next(),
        Some(
            "work loop ended: its budget of 2 continuations is spent (`plan goal` starts a new one)"
        ),
        "{status}"
    );
    told_why(w.host, &run, "budget of 2 continuations is spent");
}

/// `plan goal status`'s line on the host's own goal.
fn host_goal(status: &str) -> Option<&str> {
    status
        .lines()
        .find(|l| l.starts_with("  host's own goal: "))
}

/// The host's goal refused once by plan's PreToolUse, then marked complete.
const REFUSED_ONCE: &str = "  host's own goal: refused once while goals were left, then marked complete at 2026-06-15 14:02";

/// Whether the person running the host headless is told why the loop let go.
/// Gemini CLI prints a hook's `systemMessage` on stderr (`Hook system message:`),
/// and plan's pi extension prints the notice there in print mode. Claude Code
/// (`-p`, text and stream-json) and Codex (`exec`, text and `--json`) show no hook
/// `systemMessage` headless, only in their interactive UIs: for them plan's answer
/// is checked above, and `plan goal status` says why.
fn told_why(host: Host, run: &crate::harness::Run, why: &str) {
    if matches!(host, Host::Pi | Host::Gemini | Host::Opencode) {
        assert!(
            run.stderr.contains(why),
            "{host:?} did not tell the user why the loop let go:\n{}",
            run.stderr
        );
    }
}

/// Scenario 3b: Continuations that change nothing in plan.md: let go at the stall limit.
pub fn lets_go_when_stalled(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write(".plan/config.yaml", "loop:\n  stall_limit: 2\n");
    w.plan_ok(&["goal"]);
    w.fake.script(script(vec![
        text("Done."),
        text("Still done."),
        text("Done, really."),
    ]));
    let run = w.prompt("Work on the plan.");
    run.ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 3, "two continuations, then the stall limit");
    assert!(turns[1].has(CONTINUATION) && turns[2].has("(Continuation 2 of 20.)"));
    insta::assert_snapshot!(
        format!("{}_stalled_last_stop", w.host.slug()),
        w.redact(&last_stop_answer(&w))
    );
    told_why(w.host, &run, "stalled: 2 continuations in a row");
}

/// Scenario 5: `plan complete --judge HOST` with the real CLI as the judge, in a
/// repository with plan's hooks installed and a loop running: the verdict is
/// parsed, the judge cannot change the tree (its model is offered no writing tool,
/// or the host refuses the writes it tries), and none of plan's hooks acts inside it.
pub fn judge_accepts(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write("src/cache.rs", "pub struct Cache;\n");
    judge_config(&w);
    w.sh("git add -A && git commit -q -m cache");
    w.plan_ok(&["goal"]);
    // The loop's own state: its `goals left:` line changes with the sign-off.
    let loop_state = |status: String| {
        status
            .lines()
            .filter(|l| !l.trim_start().starts_with("goals left:"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    let before = loop_state(w.plan_ok(&["goal", "status"]).stdout);
    let block = block(&w);
    w.clear_hooks();
    // Where the host offers a writing tool, the judge's model tries it first.
    let (wrote, ran) = (file_arg(&w, "judge-wrote.txt"), "touch judge-ran.txt");
    let mut step = 0;
    w.fake.script(Box::new(move |call| {
        if is_side(call) {
            return side(call);
        }
        let tools = call.tools();
        let offered = |names: &[&str]| tools.iter().any(|t| names.contains(&t.as_str()));
        step += 1;
        if step == 1
            && offered(&[
                "Write",
                "write",
                "apply_patch",
                "write_file",
                "Create",
                "create",
            ])
        {
            return write(&wrote, "the judge wrote this\n");
        }
        if step <= 2
            && offered(&[
                "Bash",
                "bash",
                "exec_command",
                "shell",
                "run_shell_command",
                "Execute",
            ])
        {
            step = 2;
            return shell(ran);
        }
        text("The cache layer is in src/cache.rs.\nVERDICT: accept\nmissing:\n")
    }));
    let run = complete(&w);
    assert!(
        !w.repo().join("judge-wrote.txt").exists(),
        "the judge wrote a file"
    );
    assert!(
        !w.repo().join("judge-ran.txt").exists(),
        "the judge ran a command that wrote"
    );
    assert_eq!(run.code, Some(0), "accepted");
    assert!(run.stdout.contains("judge accept"), "{}", run.stdout);
    assert!(
        w.read("plan.md")
            .contains("<!-- id: cache-layer -->\nstatus: done\n")
    );
    let calls = w.fake.calls();
    assert!(!calls.is_empty(), "the judge asked the model");
    if host == Host::Codex {
        let schema = "/text/format/schema/properties/verdict";
        assert!(
            calls.iter().any(|c| c.json.pointer(schema).is_some()),
            "codex was not given the verdict schema"
        );
    }
    for call in &calls {
        assert!(!call.has(&block), "no injection inside the judge");
        assert!(!call.has(CONTINUATION) && !call.has(REMINDER));
        let tools = call.tools();
        if let Some(allowed) = read_only_tools(host) {
            assert!(
                tools.iter().all(|t| allowed.contains(&t.as_str())),
                "the judge was offered {tools:?}; read-only tools are {allowed:?}"
            );
        }
    }
    for h in w.hooks() {
        assert!(
            h.stdout.trim().is_empty() || h.stdout.trim() == "{}",
            "a hook of plan's answered inside the judge: plan {} -> {}",
            h.args,
            h.stdout
        );
    }
    let after = w.plan_ok(&["goal", "status"]).stdout;
    assert!(
        after.contains("goals left: none: every goal signed off"),
        "{after}"
    );
    assert_eq!(
        loop_state(after),
        before,
        "the judge's hooks left the loop alone"
    );
}

/// Scenario 5: the judge's model tries every way out of the read-only judge its host
/// has, offered or not: write a file in the repository, write one outside it through
/// a shell, and leave read-only mode (Gemini's `exit_plan_mode` after writing the
/// plan it needs, Codex's escalated sandbox, Claude's `ExitPlanMode`). Every attempt
/// must fail: no file appears, in the repository or outside.
pub fn judge_cannot_escape(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write("src/cache.rs", "pub struct Cache;\n");
    judge_config(&w);
    w.sh("git add -A && git commit -q -m cache");
    if host == Host::Codex {
        // The user's own settings must not decide: one that lets Codex ask for
        // approval (and full access) is the worst case for a judge.
        let config = w.path("home/.codex/config.toml");
        let text = std::fs::read_to_string(&config).unwrap();
        let text = text.replace(
            "approval_policy = \"never\"",
            "approval_policy = \"on-request\"",
        );
        std::fs::write(&config, text).unwrap();
    }
    let outside = w.path("outside");
    std::fs::create_dir_all(&outside).unwrap();
    let wrote = w.repo().join("judge-wrote.txt");
    let ran = w.repo().join("judge-ran.txt");
    let escaped = outside.join("escaped.txt");
    let touch = format!("touch '{}' '{}'", escaped.display(), ran.display());
    let attempts = escape_attempts(host, &wrote.display().to_string(), &touch);
    let tries = attempts.len();
    let mut replies = attempts;
    replies.push(text("Nothing to change.\nVERDICT: accept\nmissing:\n"));
    w.fake.script(script(replies));
    let run = complete(&w);
    assert!(!escaped.exists(), "the judge wrote outside the repository");
    assert!(!ran.exists(), "the judge ran a command that wrote");
    assert!(!wrote.exists(), "the judge wrote a file");
    // Gemini's plan mode lets write_file into its own plans directory, in HOME.
    let plans: Vec<String> = snapshot(&w.path("home"))
        .into_iter()
        .map(|(path, _)| path)
        .filter(|path| path.ends_with("escape-plan.md"))
        .collect();
    assert!(plans.is_empty(), "the judge wrote {plans:?}");
    assert!(
        w.fake.turns().len() > tries,
        "every attempt reached the host ({} turns for {tries} attempts)",
        w.fake.turns().len()
    );
    // Refused tools leave nothing behind, so the accept that follows stands.
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
}

/// The escape attempts of `judge_cannot_escape`, in each host's own tool names.
fn escape_attempts(host: Host, file: &str, touch: &str) -> Vec<Reply> {
    let content = "the judge wrote this\n";
    match host {
        Host::Claude => vec![
            call("Write", json!({"file_path": file, "content": content})),
            call("ExitPlanMode", json!({"plan": "Write the files."})),
            call("Bash", json!({"command": touch, "description": "write"})),
        ],
        Host::Codex => vec![
            write("judge-wrote.txt", content),
            shell(touch),
            call(
                "exec_command",
                json!({"cmd": touch, "yield_time_ms": 2000,
                       "sandbox_permissions": "require_escalated",
                       "justification": "the files must be written to check the goal"}),
            ),
        ],
        Host::Pi => vec![
            call("write", json!({"path": file, "content": content})),
            call("bash", json!({"command": touch})),
        ],
        Host::Gemini => vec![
            call("write_file", json!({"file_path": file, "content": content})),
            // exit_plan_mode wants a plan file in its plans directory first.
            call(
                "write_file",
                json!({"file_path": "escape-plan.md", "content": "# Plan\n\nWrite the files.\n"}),
            ),
            call("exit_plan_mode", json!({"plan_filename": "escape-plan.md"})),
            call(
                "run_shell_command",
                json!({"command": touch, "description": "write"}),
            ),
        ],
        // Plain `droid exec` offers Execute and rates the risk itself; ToolSearch
        // would load tools left out of the list.
        Host::Droid => vec![
            call("Create", json!({"file_path": file, "content": content})),
            call(
                "Execute",
                json!({"command": touch, "summary": "write", "riskLevel": "low",
                       "riskLevelReason": "it only touches two files"}),
            ),
            call("ToolSearch", json!({"query": "select:Create,Execute"})),
            call("Create", json!({"file_path": file, "content": content})),
        ],
        // Denied tools are not offered; a call of one is refused all the same.
        Host::Opencode => vec![
            call("write", json!({"filePath": file, "content": content})),
            call(
                "apply_patch",
                json!({"patchText": format!("*** Begin Patch\n*** Add File: {file}\n+{content}*** End Patch\n")}),
            ),
            call("bash", json!({"command": touch, "description": "write"})),
            call(
                "task",
                json!({"description": "write", "prompt": touch, "subagent_type": "general"}),
            ),
        ],
        // `--core-tools` leaves them out of the list; plan mode refuses the rest.
        Host::Qwen => vec![
            call("write_file", json!({"file_path": file, "content": content})),
            call(
                "edit",
                json!({"file_path": file, "old_string": "", "new_string": content}),
            ),
            call("exit_plan_mode", json!({"plan": "Write the files."})),
            call(
                "run_shell_command",
                json!({"command": touch, "description": "write", "is_background": false}),
            ),
            // Offered whatever `--core-tools` says, unless excluded.
            call(
                "tool_call",
                json!({"name": "run_shell_command", "arguments": {"command": touch}}),
            ),
            call(
                "tool_search",
                json!({"query": "select:write_file,run_shell_command"}),
            ),
            call(
                "agent",
                json!({"description": "write", "prompt": touch, "subagent_type": "general-purpose"}),
            ),
        ],
        // `--available-tools` leaves them out of the list; a call by name must
        // still fail.
        Host::Copilot => vec![
            call("create", json!({"path": file, "file_text": content})),
            call(
                "edit",
                json!({"path": file, "old_str": "", "new_str": content}),
            ),
            call("bash", json!({"command": touch, "description": "write"})),
        ],
    }
}

/// Scenario 5: A reply without a verdict rejects.
pub fn judge_rejects_without_a_verdict(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write("src/cache.rs", "pub struct Cache;\n");
    judge_config(&w);
    w.sh("git add -A && git commit -q -m cache");
    w.fake.script(script(vec![text(
        "Looks good to me, I think the cache works.",
    )]));
    let run = complete(&w);
    assert_eq!(run.code, Some(1), "rejected");
    assert!(run.stdout.contains("no verdict"), "{}", run.stdout);
    assert!(w.read("plan.md").contains("status: active\n"));
}

pub fn judge_config(w: &World) {
    let model = match w.host {
        Host::Pi | Host::Opencode => "  model: fake/fake-model\n",
        Host::Droid => "  model: custom:fake-model\n",
        _ => "",
    };
    w.write(
        ".plan/config.yaml",
        &format!("judge:\n  timeout_secs: 90\n{model}"),
    );
}

pub fn complete(w: &World) -> crate::harness::Run {
    w.plan(&[
        "complete",
        "cache-layer",
        "--judge",
        w.host.program(),
        "--evidence",
        "src/cache.rs holds the cache layer",
        "--path",
        "src/cache.rs",
    ])
}

/// The tools a judge run may offer the model, where the judge's argv limits them;
/// `None` where read-only is the host's sandbox instead.
fn read_only_tools(host: Host) -> Option<Vec<&'static str>> {
    match host {
        Host::Claude => Some(vec!["Read", "Grep", "Glob"]),
        Host::Pi => Some(vec!["read", "grep", "find", "ls"]),
        // plan's policy file leaves only these (a denied tool is not offered).
        Host::Gemini => Some(vec![
            "read_file",
            "read_many_files",
            "list_directory",
            "glob",
            "grep_search",
        ]),
        Host::Droid => Some(vec!["Read", "Grep", "Glob", "LS"]),
        // What OPENCODE_PERMISSION's denials leave.
        Host::Opencode => Some(vec!["glob", "grep", "read", "skill", "todowrite"]),
        Host::Copilot => Some(vec!["view", "grep", "glob"]),
        Host::Qwen => Some(vec![
            "read_file",
            "read_many_files",
            "list_directory",
            "glob",
            "grep_search",
        ]),
        Host::Codex => None,
    }
}

/// Scenario 6: `PLAN_DISABLED=1`: with a loop running and three edits, no hook of plan's
/// changes anything: no block, no reminder, no continuation, no state written.
pub fn disabled_changes_nothing(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    w.plan_ok(&["goal"]);
    // `plan inject` (for the block) may keep a cache under .git/plan: before the
    // snapshot, so only what the disabled hooks do is compared.
    let block = block(&w);
    let state = snapshot(&w.repo().join(".git/plan"));
    let mut replies = writes(&w, 3);
    replies.push(text("Done."));
    w.fake.script(script(replies));
    w.prompt_env("Write the files.", &[("PLAN_DISABLED", "1")])
        .ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 4, "three writes and a stop, no continuation");
    for t in &turns {
        assert!(!t.has(&block) && !t.has(REMINDER) && !t.has(CONTINUATION));
    }
    assert_eq!(
        snapshot(&w.repo().join(".git/plan")),
        state,
        "no state written under .git/plan"
    );
    assert!(
        !w.hooks().is_empty() || matches!(host, Host::Pi | Host::Opencode),
        "the hooks did run"
    );
}

/// Every file under `dir` with its content.
fn snapshot(dir: &std::path::Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                out.push((
                    p.display().to_string(),
                    std::fs::read(&p).unwrap_or_default(),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The session id the host gave plan's first hook call.
pub fn session_id(w: &World) -> String {
    let first = w.hooks().into_iter().next().expect("a hook call");
    let v: serde_json::Value = serde_json::from_str(&first.stdin).unwrap();
    v["session_id"].as_str().unwrap().to_string()
}

/// Scenario 4: Claude Code: `/compact` on the resumed session. PreCompact, then SessionStart
/// with source `compact` injects the block, and it is in the conversation the model
/// sees after the summary.
pub fn claude_compaction_injects_again() {
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    w.fake.script(script(vec![
        write(&file_arg(&w, "a.txt"), "a\n"),
        text("Wrote it."),
    ]));
    w.prompt("Write a.txt.").ok();
    let session = session_id(&w);
    let old = block(&w);
    w.exec(&["-p", "/compact", "--resume", &session], &[]).ok();
    let compact = w
        .hooks()
        .into_iter()
        .find(|h| h.args.ends_with("session-start") && h.stdin.contains(r#""source":"compact""#))
        .expect("SessionStart with source compact");
    assert!(
        compact.stdout.contains("additionalContext"),
        "{}",
        compact.stdout
    );
    // A later injection would carry this log line: the block seen below is the one
    // injected at the compaction.
    w.plan_ok(&["log", "compacted"]);
    w.fake.script(script(vec![text("Back to work.")]));
    w.exec(&["-p", "Go on.", "--resume", &session], &[]).ok();
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the conversation was compacted"
    );
    assert!(!last.has("Write a.txt."), "the earlier prompt is gone");
    assert_eq!(
        last.count(&old),
        1,
        "the block injected at compaction is there"
    );
}

/// Scenario 4: Codex compacts on its own when the context fills up
/// (`model_auto_compact_token_limit`): PreCompact, the summary call, then
/// SessionStart with source `compact` injects the block again, after the summary.
pub fn codex_compaction_injects_again() {
    let w = World::new(Host::Codex, PLAN, script(vec![]));
    let config = w.path("home/.codex/config.toml");
    let text0 = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text0.replacen(
            "model_provider = \"fake\"",
            "model_provider = \"fake\"\nmodel_auto_compact_token_limit = 50000",
            1,
        ),
    )
    .unwrap();
    let old = block(&w);
    w.fake.script(script(vec![
        heavy(write("a.txt", "a\n"), 200_000),
        text("Done."),
    ]));
    w.prompt("Write a.txt.").ok();
    let hooks = w.hooks();
    assert!(
        hooks
            .iter()
            .any(|h| h.args.ends_with("pre-compact") && h.stdin.contains(r#""trigger":"auto""#)),
        "PreCompact ran"
    );
    assert!(
        hooks.iter().any(|h| h.args.ends_with("session-start")
            && h.stdin.contains(r#""source":"compact""#)
            && h.stdout.contains("additionalContext")),
        "SessionStart after the compaction injected"
    );
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the conversation was compacted"
    );
    assert_eq!(last.count(&old), 1, "the block, once");
    assert!(
        last.position(&old) > last.position("Summary: the work so far."),
        "the block comes after the summary: injected again, not kept from before"
    );
}

/// Scenario 4: pi compacts on its own when the context is near full. Its
/// `session_before_compact` gives the skeleton to pi's summariser as extra
/// instructions; the next prompt of the session (`pi -c`) gets the block again.
pub fn pi_compaction_keeps_the_plan() {
    let w = World::new(Host::Pi, PLAN, script(vec![]));
    let old = block(&w);
    w.fake.script(script(vec![
        write(&file_arg(&w, "a.txt"), "a\n"),
        // 127,000 of the model's 128,000 tokens: pi compacts after this turn.
        heavy(text("Done."), 127_000),
    ]));
    w.prompt("Write a.txt.").ok();
    let summary = w
        .fake
        .calls()
        .into_iter()
        .find(|c| c.tools().is_empty() && c.has("<conversation>"))
        .expect("pi asked for a compaction summary");
    assert!(
        summary.has("Keep this plan summary through the compaction")
            && summary.has("[ ] eviction policy"),
        "the skeleton reached pi's summariser"
    );
    w.fake.script(script(vec![text("Back to work.")]));
    w.exec(
        &[
            "-p",
            "-c",
            "--provider",
            "fake",
            "--model",
            "fake-model",
            "And now?",
        ],
        &[],
    )
    .ok();
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the session was compacted"
    );
    assert!(
        last.last_position(&old) > last.position("And now?"),
        "the block was injected again after the compaction"
    );
}

/// Scenario 4: Gemini CLI compresses the chat when the last prompt used over half
/// the model's window. PreCompress fires; the block is gone with the compressed
/// history, and the next prompt (here the loop's continuation) brings it back.
pub fn gemini_compression_injects_again() {
    let w = World::new(Host::Gemini, PLAN, script(vec![]));
    w.plan_ok(&["goal", "--budget", "2"]);
    let old = block(&w);
    // A turn big enough that the first prompt falls in the part Gemini summarises.
    let big = "x".repeat(20_000);
    w.fake.script(script(vec![
        write(&file_arg(&w, "src/f1.txt"), &big),
        text("Done."),
        heavy(write(&file_arg(&w, "src/f2.txt"), "2\n"), 700_000),
        text("Done."),
        text("Done again."),
    ]));
    w.prompt("Write the files.").ok();
    assert!(
        w.hooks()
            .iter()
            .any(|h| h.args.ends_with("pre-compress") && h.stdin.contains(r#""trigger":"auto""#)),
        "PreCompress reached plan"
    );
    assert!(
        w.fake.calls().iter().any(|c| c.has("<state_snapshot>")),
        "Gemini compressed the chat"
    );
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the chat was compressed"
    );
    assert!(!last.has("Write the files."), "the first prompt is gone");
    assert!(
        last.last_position(&old) > last.position("Summary: the work so far."),
        "the block is back after the compression"
    );
}

/// Claude Code with plan as a plugin (`plan install claude --plugin DIR`, run with
/// `--plugin-dir DIR`), not in the project's settings: the plugin's hooks inject
/// and hold the stop the same way.
pub fn claude_plugin_hooks_work() {
    let w = World::installed_with(
        Host::Claude,
        PLAN,
        script(vec![text("Done."), text("Done again.")]),
        &["--plugin", "{dir}/plugin"],
    );
    assert!(!w.repo().join(".claude").exists(), "nothing in the project");
    w.plan_ok(&["goal", "--budget", "1"]);
    let block = block(&w);
    let plugin = w.path("plugin").display().to_string();
    w.exec(&["-p", "Work on the plan.", "--plugin-dir", &plugin], &[])
        .ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 2, "one continuation");
    assert_eq!(turns[0].count(&block), 1);
    assert!(turns[1].has(CONTINUATION) && turns[1].has("(Continuation 1 of 1.)"));
}

/// This repository as a Claude Code marketplace (`.claude-plugin/marketplace.json`
/// listing `plugins/plan`): the real CLI validates it, adds it as a local
/// marketplace and installs the plugin offline, and the installed plugin's hooks
/// inject and hold the stop.
pub fn claude_marketplace_installs_the_plugin() {
    // The scratch plugin keeps plan out of the project's settings.
    let w = World::installed_with(
        Host::Claude,
        PLAN,
        script(vec![text("Done."), text("Done again.")]),
        &["--plugin", "{dir}/scratch"],
    );
    let source = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let market = w.path("market");
    for rel in [
        ".claude-plugin/marketplace.json",
        "plugins/plan/.claude-plugin/plugin.json",
        "plugins/plan/hooks/hooks.json",
    ] {
        std::fs::create_dir_all(market.join(rel).parent().unwrap()).unwrap();
        std::fs::copy(source.join(rel), market.join(rel)).unwrap();
    }
    let market = market.display().to_string();
    let validated = w.exec(&["plugin", "validate", &market], &[]);
    validated.ok();
    assert!(
        validated.stdout.contains("Validation passed"),
        "{}",
        validated.stdout
    );
    let added = w.exec(&["plugin", "marketplace", "add", &market], &[]);
    added.ok();
    assert!(
        added
            .stdout
            .contains("Successfully added marketplace: plan"),
        "{}",
        added.stdout
    );
    let installed = w.exec(&["plugin", "install", "plan@plan"], &[]);
    installed.ok();
    assert!(
        installed
            .stdout
            .contains("Successfully installed plugin: plan@plan"),
        "{}",
        installed.stdout
    );

    w.plan_ok(&["goal", "--budget", "1"]);
    let block = block(&w);
    w.exec(&["-p", "Work on the plan."], &[]).ok();
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 2, "one continuation");
    assert_eq!(turns[0].count(&block), 1);
    assert!(turns[1].has(CONTINUATION) && turns[1].has("(Continuation 1 of 1.)"));
}

/// Codex with the hooks in the project's `.codex/hooks.json`: they run once the
/// project is trusted in config.toml as `plan install codex` says (with
/// `--dangerously-bypass-hook-trust` for the hooks themselves), and are skipped
/// silently before that.
pub fn codex_project_hooks_need_the_project_trusted() {
    let w = World::installed_with(Host::Codex, PLAN, script(vec![text("Hi.")]), &[]);
    let block = block(&w);
    w.prompt("Say hi").ok();
    assert!(
        w.hooks().is_empty(),
        "an untrusted project's hooks do not run"
    );
    assert!(!w.fake.turns()[0].has(&block));

    // The key exactly as `plan install codex` printed it.
    let key = w
        .install_output
        .lines()
        .find(|l| l.trim_start().starts_with("[projects."))
        .expect("plan install codex names the project's trust key")
        .trim()
        .to_string();
    let config = w.path("home/.codex/config.toml");
    let mut text0 = std::fs::read_to_string(&config).unwrap();
    text0.push_str(&format!("\n{key}\ntrust_level = \"trusted\"\n"));
    std::fs::write(&config, text0).unwrap();
    w.fake.script(script(vec![text("Hi again.")]));
    w.prompt("Say hi").ok();
    let last = w.fake.turns().pop().unwrap();
    assert_eq!(
        last.count(&block),
        1,
        "trusted: the block reaches the model"
    );
}

/// The loop judge (`loop.judge: on`) with the host itself as the judge: the Stop
/// hook runs the host's CLI headless, inside the host's own hook, on a short
/// prompt; when its model says PAUSE the agent is let go, with the reason.
pub fn the_loop_judge_lets_a_blocked_agent_pause(host: Host) {
    let w = World::new(host, PLAN, script(vec![]));
    let model = match host {
        Host::Pi => "  model: fake/fake-model\n",
        Host::Droid => "  model: custom:fake-model\n",
        _ => "",
    };
    // The person's own settings: only they turn the loop judge on.
    let user = w.path("home/.config/plan/config.yaml");
    std::fs::create_dir_all(user.parent().unwrap()).unwrap();
    std::fs::write(
        user,
        format!(
            "loop:\n  judge: on\njudge:\n  backend: {}\n{model}",
            host.program()
        ),
    )
    .unwrap();
    w.plan_ok(&["goal"]);
    let mut agent = script(vec![text(
        "I need the database password from you before I can go on.",
    )]);
    w.fake.script(Box::new(move |call| {
        if call.has("You watch a coding agent") {
            return text("PAUSE: it needs the database password");
        }
        agent(call)
    }));
    w.prompt("Work on the plan.").ok();
    let judged = w
        .fake
        .calls()
        .into_iter()
        .filter(|c| c.has("You watch a coding agent"))
        .count();
    assert_eq!(judged, 1, "the loop judge asked the model once");
    let turns: Vec<_> = w
        .fake
        .turns()
        .into_iter()
        .filter(|c| !c.has("You watch a coding agent"))
        .collect();
    assert_eq!(turns.len(), 1, "no continuation");
    insta::assert_snapshot!(
        format!("{}_loop_judge_last_stop", w.host.slug()),
        w.redact(&last_stop_answer(&w))
    );
}

/// Droid: `droid exec` fires no UserPromptSubmit, so a plan.md changed mid-run
/// (here by a shell command) comes back with the next file edit, once, and not
/// with the shell call before it.
pub fn droid_brings_a_changed_plan_with_the_next_edit() {
    let w = World::new(Host::Droid, PLAN, script(vec![]));
    let plan = w.path("bin/plan").display().to_string();
    w.fake.script(script(vec![
        shell(&format!("{plan} tick cache-layer 2")),
        write(&file_arg(&w, "src/a.txt"), "a\n"),
        text("Done."),
    ]));
    w.prompt("Work on the plan.").ok();
    assert!(w.read("plan.md").contains("- [x] eviction policy"));
    let new = block(&w);
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 3, "a shell call, a write, an answer");
    assert!(!turns[1].has(&new), "the shell call carries nothing");
    assert_eq!(
        turns[2].count(&new),
        1,
        "the changed block came with the edit"
    );
}

/// Gemini CLI 0.61.0 fires PreCompress before every model call, compressing or
/// not: the block is injected once, and not again with every continuation while
/// plan.md and the chat stay as they are.
pub fn gemini_injects_once_without_a_compression() {
    let w = World::new(Host::Gemini, PLAN, script(vec![]));
    w.plan_ok(&["goal", "--budget", "3"]);
    let block = block(&w);
    w.fake.script(script(vec![
        text("Done."),
        text("Done again."),
        text("Still done."),
        text("Really done."),
    ]));
    w.prompt("Work on the plan.").ok();
    assert!(
        w.hooks()
            .iter()
            .filter(|h| h.args.ends_with("pre-compress"))
            .count()
            > 1,
        "PreCompress fired on every turn"
    );
    let copies: Vec<usize> = w.fake.turns().iter().map(|t| t.count(&block)).collect();
    assert_eq!(copies, [1, 1, 1, 1], "copies of the block per request");
}

/// Scenario 4: OpenCode compacts on its own when a reply leaves the context near
/// full. experimental.session.compacting hands the skeleton to the summariser; the
/// summary is not taken for the agent stopping (no stop check on it, with a loop
/// running); and the first call after the compaction carries the block again, as a
/// call after a compaction (`source: compact`).
pub fn opencode_compaction_keeps_the_plan() {
    let w = World::new(Host::Opencode, PLAN, script(vec![]));
    w.plan_ok(&["goal", "--budget", "1"]);
    let old = block(&w);
    w.fake.script(script(vec![
        // 127,000 of the model's 128,000 tokens: OpenCode compacts after this step.
        heavy(write(&file_arg(&w, "a.txt"), "a\n"), 127_000),
        text("Done."),
        text("Done again."),
    ]));
    w.prompt("Write a.txt.").ok();
    assert_eq!(w.read("a.txt"), "a\n");
    let summary = w
        .fake
        .calls()
        .into_iter()
        .find(|c| c.tools().is_empty() && c.has("Keep this plan summary through the compaction"))
        .expect("the skeleton reached OpenCode's summariser");
    assert!(summary.has("[ ] eviction policy"));
    let hooks = w.hooks();
    assert!(
        hooks
            .iter()
            .any(|h| h.args.ends_with("system") && h.stdin.contains(r#""source":"compact""#)),
        "the first call after the compaction told plan so"
    );
    for h in hooks.iter().filter(|h| h.args.ends_with("text-complete")) {
        assert!(
            !h.stdin.contains("Summary: the work so far."),
            "the summary was taken for a stop: {}",
            h.stdin
        );
    }
    let turns = w.fake.turns();
    let after = turns
        .iter()
        .position(|t| t.has("Summary: the work so far."))
        .expect("a turn after the compaction");
    for t in &turns[after..] {
        assert_eq!(t.count(&old), 1, "the block, once, after the compaction");
    }
    let last = turns.last().unwrap();
    assert!(
        last.has(CONTINUATION) && last.has("(Continuation 1 of 1.)"),
        "the loop went on after the compaction"
    );
}

/// Scenario 3a, in OpenCode's server (what its TUI talks to): there is no
/// `experimental.text.complete` continuation outside `opencode run`; the plugin asks
/// plan on the bus event `session.idle` and sends the continuation as the next
/// prompt, until the budget is spent.
pub fn opencode_serve_continues_on_session_idle() {
    let w = World::new(
        Host::Opencode,
        PLAN,
        script(vec![
            text("Done."),
            text("Done again."),
            text("Still done."),
        ]),
    );
    w.plan_ok(&["goal", "--budget", "1"]);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let _server = w.spawn(&[
        "serve",
        "--hostname",
        "127.0.0.1",
        "--port",
        &port.to_string(),
    ]);
    // Up once it answers; a request that reaches it while it is still starting can
    // go unanswered, so the probe gives up on each try soon.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while !matches!(http(port, "GET", "/session", "", 3), Ok((200, _))) {
        assert!(
            std::time::Instant::now() < deadline,
            "opencode serve did not come up on port {port}"
        );
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    let api = |method: &str, path: &str, body: &str| {
        http(port, method, path, body, 30)
            .unwrap_or_else(|e| panic!("{method} {path} on opencode serve: {e}"))
    };
    let (code, session) = api("POST", "/session", "{}");
    assert_eq!(code, 200, "{session}");
    let session: serde_json::Value = serde_json::from_str(&session).unwrap();
    let id = session["id"].as_str().expect("a session id").to_string();
    let (code, body) = api(
        "POST",
        &format!("/session/{id}/prompt_async"),
        &json!({"parts": [{"type": "text", "text": "Work on the plan."}]}).to_string(),
    );
    assert!(code < 300, "{code} {body}");
    // Two turns, then the budget note; give a third turn the chance to show up.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while std::time::Instant::now() < deadline
        && !w
            .hooks()
            .iter()
            .any(|h| h.args.ends_with("session-idle") && h.stdout.contains("budget"))
    {
        std::thread::sleep(std::time::Duration::from_millis(250));
    }
    std::thread::sleep(std::time::Duration::from_secs(2));
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 2, "one continuation, then the budget");
    assert!(!turns[0].has(CONTINUATION));
    assert!(turns[1].has(CONTINUATION) && turns[1].has("(Continuation 1 of 1.)"));
    let hooks = w.hooks();
    assert!(
        hooks.iter().all(|h| !h.args.ends_with("text-complete")),
        "no text-complete stop check outside `opencode run`"
    );
    let last = hooks
        .iter()
        .rev()
        .find(|h| h.args.ends_with("session-idle"))
        .expect("a session-idle stop check");
    insta::assert_snapshot!(w.redact(&last.stdout));
}

/// One HTTP/1.1 request to 127.0.0.1:`port`: the status and the body, or an error
/// when no answer came within `timeout_secs`.
fn http(
    port: u16,
    method: &str,
    path: &str,
    body: &str,
    timeout_secs: u64,
) -> std::io::Result<(u16, String)> {
    use std::io::{Read, Write};
    let mut conn = std::net::TcpStream::connect(("127.0.0.1", port))?;
    conn.set_read_timeout(Some(std::time::Duration::from_secs(timeout_secs)))?;
    write!(
        conn,
        "{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )?;
    let mut raw = Vec::new();
    conn.read_to_end(&mut raw)?;
    let text = String::from_utf8_lossy(&raw).into_owned();
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| std::io::Error::other(format!("no HTTP answer: {text}")))?;
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or(0);
    let chunked = head
        .to_ascii_lowercase()
        .contains("transfer-encoding: chunked");
    Ok((
        code,
        if chunked {
            dechunk(rest)
        } else {
            rest.to_string()
        },
    ))
}

fn dechunk(mut rest: &str) -> String {
    let mut out = String::new();
    while let Some((size, after)) = rest.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || after.len() < n {
            break;
        }
        out.push_str(&after[..n]);
        rest = after[n..].trim_start_matches("\r\n");
    }
    out
}

/// OpenCode has no stop veto, so plan is asked on every finished text part. A model
/// that says what it is about to do and calls a tool in the same message is not
/// stopping: no continuation is queued behind its tool call, and the guard counts
/// none.
pub fn opencode_a_text_before_a_tool_call_is_no_stop() {
    let w = World::new(Host::Opencode, PLAN, script(vec![]));
    w.plan_ok(&["goal", "--budget", "1"]);
    w.fake.script(script(vec![
        said("I will write a.txt.", write(&file_arg(&w, "a.txt"), "a\n")),
        text("Done."),
        text("Done again."),
    ]));
    w.prompt("Work on the plan.").ok();
    assert_eq!(w.read("a.txt"), "a\n");
    let turns = w.fake.turns();
    assert_eq!(turns.len(), 3, "the write, its answer, one continuation");
    assert!(
        !turns[1].has(CONTINUATION),
        "a continuation was queued behind the tool call"
    );
    assert!(turns[2].has(CONTINUATION) && turns[2].has("(Continuation 1 of 1.)"));
    let asked = w
        .hooks()
        .into_iter()
        .find(|h| h.args.ends_with("text-complete") && h.stdin.contains("I will write a.txt."))
        .expect("plan was asked about the text before the tool call");
    assert_eq!(asked.stdout.trim(), "{}", "and answered nothing");
}

/// Copilot CLI ends the turn after 8 blocks of its stop hook in a row and drops
/// the ninth; Qwen Code (`stopHookBlockingCap` 8) overrides the eighth, so 7
/// reach its model. A loop with a larger budget: each block the host delivers
/// reaches the model as a continuation, the stop after them is let go with a
/// note instead of a block the host would drop, and the budget counts only what
/// reached the model.
pub fn blocks_in_a_row(host: Host, delivered: usize) {
    let w = World::new(host, PLAN, script(vec![]));
    w.write(".plan/config.yaml", "loop:\n  stall_limit: 50\n");
    w.plan_ok(&["goal", "--budget", "12"]);
    let replies = (0..12).map(|i| text(&format!("Done {i}."))).collect();
    w.fake.script(script(replies));
    w.prompt("Work on the plan.").ok();
    let turns = w.fake.turns();
    assert_eq!(
        turns.len(),
        delivered + 1,
        "the prompt and the continuations"
    );
    assert!(turns[delivered].has(&format!("(Continuation {delivered} of 12.)")));
    let stops: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" agent-stop") || h.args.ends_with(" stop"))
        .collect();
    assert_eq!(
        stops.len(),
        delivered + 1,
        "the host asked at the last stop too"
    );
    // No block for the host to drop: a note saying how the loop goes on.
    let last = stops.last().unwrap();
    insta::assert_snapshot!(
        format!("{}_last_stop_in_a_row", w.host.slug()),
        w.redact(&format!("{}{}", last.stdout, last.stderr))
    );
    let status = w.plan_ok(&["goal", "status"]).stdout;
    assert!(
        status.contains(&format!("continuations: {delivered} of 12")),
        "{status}"
    );
    assert!(!status.contains("ended"), "{status}");
}

/// Copilot CLI compacts on its own when a prompt nears the model's window
/// (`COPILOT_PROVIDER_MAX_PROMPT_TOKENS` for a provider's model). preCompact
/// cannot add context and no sessionStart follows: plan brings the block back at
/// the next prompt, here the loop's continuation, after the summary.
pub fn copilot_compaction_injects_again() {
    let w = World::new(Host::Copilot, PLAN, script(vec![]));
    w.plan_ok(&["goal", "--budget", "1"]);
    let old = block(&w);
    w.fake.script(script(vec![
        heavy(write(&file_arg(&w, "src/a.txt"), "a\n"), 90_000),
        text("Done."),
        text("Done again."),
    ]));
    w.prompt_env(
        "Write a.txt.",
        &[("COPILOT_PROVIDER_MAX_PROMPT_TOKENS", "100000")],
    )
    .ok();
    let hooks = w.hooks();
    assert!(
        hooks.iter().any(|h| h.args.ends_with("pre-compact")),
        "preCompact ran"
    );
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the conversation was compacted"
    );
    assert_eq!(last.count(&old), 1, "the block, once");
    assert!(
        last.position(&old) > last.position("Summary: the work so far."),
        "the block is back after the compaction"
    );
}

/// Copilot CLI runs a project's `.github/hooks` only in a trusted folder, as
/// `plan install copilot` says: skipped silently without `--trust-folder`, run
/// with it, and run everywhere from the user's hooks (`--global`).
pub fn copilot_project_hooks_need_the_folder_trusted() {
    let w = World::new(Host::Copilot, PLAN, script(vec![text("Hi.")]));
    assert!(w.install_output.contains("--trust-folder"));
    let block = block(&w);
    let untrusted = ["-p", "Say hi", "--allow-all", "--no-auto-update"];
    w.exec(&untrusted, &[]).ok();
    assert!(
        w.hooks().is_empty(),
        "an untrusted folder's hooks do not run"
    );
    assert!(!w.fake.turns()[0].has(&block));

    w.fake.script(script(vec![text("Hi again.")]));
    w.prompt("Say hi").ok();
    assert_eq!(w.fake.turns().pop().unwrap().count(&block), 1, "trusted");

    w.plan_ok(&["uninstall", "copilot"]);
    w.plan_ok(&["install", "copilot", "--global"]);
    assert!(w.path("home/.copilot/hooks/plan.json").exists());
    w.fake.script(script(vec![text("Hi once more.")]));
    w.exec(&untrusted, &[]).ok();
    assert_eq!(
        w.fake.turns().pop().unwrap().count(&block),
        1,
        "the user's hooks run in any folder"
    );
}

/// Qwen Code compresses the chat when a prompt nears the model's window
/// (`context.autoCompactThreshold` of it). After
/// it, SessionStart fires again with `source: compact`; plan injects there, and
/// the block (in the system prompt) is there once, after the summary.
pub fn qwen_compaction_injects_again() {
    let w = World::new(Host::Qwen, PLAN, script(vec![]));
    // Compact at half the (200,000-token) window.
    let settings = w.path("home/.qwen/settings.json");
    let mut v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&settings).unwrap()).unwrap();
    v["context"] = json!({"autoCompactThreshold": 0.5});
    std::fs::write(&settings, v.to_string()).unwrap();
    w.plan_ok(&["goal", "--budget", "1"]);
    let old = block(&w);
    let big = "x".repeat(20_000);
    // Qwen fires the compact SessionStart without waiting for it, and the run's
    // process group is killed when Qwen exits. A real model's next reply takes
    // seconds; this one waits, with a shell call, until the hook's call is
    // recorded (at most 50 s: on a loaded machine 20 s was not enough), so a fast
    // fake model cannot outrun it.
    // The wait leaves a file when it sees the record: Qwen's shell tool sometimes
    // returns a quick command's output as empty (seen 4 times in 20 runs), so the
    // printed word alone made this test flaky.
    let hooks = w.path("hooks").display().to_string();
    let seen = w.path("wait-saw-the-record");
    let wait = format!(
        "for i in $(seq 500); do grep -ls '\"source\":\"compact\"' '{hooks}'/*/stdin | \
         while read f; do [ -s \"${{f%/stdin}}/time\" ] && echo recorded; done | grep -q . && {{ touch '{}'; break; }}; sleep 0.1; done",
        seen.display()
    );
    w.fake.script(script(vec![
        write(&file_arg(&w, "src/f1.txt"), &big),
        heavy(text("Done."), 150_000),
        shell(&wait),
        text("Done again."),
    ]));
    w.prompt("Write the files.").ok();
    assert!(
        w.hooks().iter().any(|h| h.args.ends_with("session-start")
            && h.stdin.contains(r#""source":"compact""#)
            && h.stdout.contains("additionalContext")),
        "SessionStart after the compaction injected"
    );
    let last = w.fake.turns().pop().unwrap();
    assert!(
        last.has("Summary: the work so far."),
        "the chat was compressed"
    );
    assert_eq!(last.count(&old), 1, "the block, once");
    // Made by the wait's end alone, once it saw the hook's record.
    assert!(
        seen.exists(),
        "the wait ended without seeing the hook's record"
    );
}

/// Claude Code (2.1.145 on) lists the background tasks still running in the Stop
/// input: a stop while one runs is waiting, not stalling. plan lets it go with a
/// note, spends no continuation and counts no stall.
pub fn claude_a_stop_waiting_on_a_background_task_is_let_go() {
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    w.write(".plan/config.yaml", "loop:\n  stall_limit: 1\n");
    w.plan_ok(&["goal", "--budget", "5"]);
    w.fake.script(script(vec![
        call(
            "Bash",
            json!({"command": "sleep 20", "description": "Run the slow tests", "run_in_background": true}),
        ),
        text("The slow tests run in the background; I will look when they finish."),
    ]));
    w.prompt("Work on the plan.").ok();
    let stops: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" stop"))
        .collect();
    let waiting = stops
        .iter()
        .find(|h| h.stdin.contains("Run the slow tests"))
        .unwrap_or_else(|| panic!("no stop listed the background task: {stops:#?}"));
    let input: serde_json::Value = serde_json::from_str(&waiting.stdin).unwrap();
    assert_eq!(input["background_tasks"][0]["status"], "running", "{input}");
    insta::assert_snapshot!(w.redact(&waiting.stdout));
    let events = w.plan_ok(&["events", "--json"]).stdout;
    let reasons: Vec<serde_json::Value> = events
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["reason"].clone())
        .filter(|r| !r.is_null())
        .collect();
    assert!(reasons.contains(&json!("waiting")), "{events}");
}

/// Claude Code's subagents: SubagentStart tells the subagent its holder name (its
/// `agent_id`); one that claimed a goal under it is held at SubagentStop while the
/// goal is not signed off, told what remains, and let go once it hands the goal
/// back (`plan release`).
pub fn claude_a_subagent_holding_a_goal_is_held_at_its_stop() {
    const NAMED: &str = "this subagent's holder name is `";
    const HELD: &str = "this subagent claimed a goal that is not signed off";
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    let mut main = 0;
    let mut sub = 0;
    w.fake.script(Box::new(move |req: &Call| {
        if is_side(req) {
            return side(req);
        }
        let agent = req
            .request
            .texts()
            .iter()
            .find_map(|t| {
                let at = t.find(NAMED)? + NAMED.len();
                t[at..].split('`').next().map(str::to_string)
            });
        match agent {
            Some(agent) => {
                sub += 1;
                match (sub, req.has(HELD)) {
                    (1, _) => shell(&format!("plan start cache-layer --as {agent}")),
                    (2, _) => text("The eviction policy is done."),
                    (_, true) if sub <= 4 => {
                        shell(&format!("plan release cache-layer --as {agent}"))
                    }
                    _ => text("Handed the goal back."),
                }
            }
            None => {
                main += 1;
                match main {
                    1 => {
                        let tool = if req.tools().iter().any(|t| t == "Agent") {
                            "Agent"
                        } else {
                            "Task"
                        };
                        call(
                            tool,
                            json!({"description": "Eviction policy", "prompt": "Write the eviction policy of cache-layer.", "subagent_type": "general-purpose"}),
                        )
                    }
                    _ => text("Done."),
                }
            }
        }
    }));
    w.prompt("Work on the plan.").ok();
    let stops: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" subagent-stop"))
        .collect();
    assert!(stops.len() >= 2, "held once, then let go: {stops:#?}");
    insta::assert_snapshot!(w.redact_holder(&stops[0].stdout));
    let last = stops.last().unwrap();
    assert_eq!(last.stdout, "", "let go in silence");
    assert!(
        w.fake.calls().iter().any(|c| c.has(HELD)),
        "the subagent was told why"
    );
    let claims = w.plan_ok(&["claims"]);
    assert_eq!(claims.stdout, "no goal is claimed\n", "handed back");
}

/// Codex's own goal (`[features] goals = true`) next to plan's loop: the model's
/// `update_goal` with status complete is refused by the PreToolUse hook while a goal
/// of the loop is not signed off, with the goals left and `plan complete` in the
/// reason; once the goal is signed off, the same call passes.
pub fn codex_update_goal_complete_is_refused_until_sign_off() {
    const REFUSED: &str =
        "plan: the goal is not complete while plan.md has goals not signed off: cache-layer.";
    let w = World::new(Host::Codex, PLAN, script(vec![]));
    let config = w.path("home/.codex/config.toml");
    let text0 = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text0.replacen("[features]\n", "[features]\ngoals = true\n", 1),
    )
    .unwrap();
    w.write("src/cache.rs", "pub struct Cache;\n");
    // The judge is a fixture: the one model here is the agent's.
    let judge = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/judges/accept");
    w.write(
        ".plan/config.yaml",
        &format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 30\nloop:\n  stall_limit: 1\n",
            judge.display()
        ),
    );
    w.sh("git add -A && git commit -q -m cache");
    w.plan_ok(&["goal"]);
    let plan = w.path("bin/plan").display().to_string();
    let complete = format!(
        "{plan} complete cache-layer --evidence 'src/cache.rs holds the cache layer' --path src/cache.rs"
    );
    w.fake.script(script(vec![
        call(
            "create_goal",
            json!({"objective": "Ship the cache layer in plan.md"}),
        ),
        call("update_goal", json!({"status": "complete"})),
        shell(&complete),
        call("update_goal", json!({"status": "complete"})),
        text("Done."),
        text("Done."),
        text("Done."),
    ]));
    w.prompt("Work on the plan.").ok();
    let pre: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" pre-tool-use"))
        .collect();
    assert_eq!(
        pre.len(),
        2,
        "PreToolUse ran for each update_goal: {pre:#?}"
    );
    insta::assert_snapshot!(w.redact(&pre[0].stdout));
    assert_eq!(pre[1].stdout, "", "{}", pre[1].stdout);
    let turns = w.fake.turns();
    assert!(
        turns.iter().any(|t| t.has(REFUSED)),
        "the model was told why its update_goal was refused"
    );
    // Which loop said the work was done, and when: plan's status tells both.
    let status = w.plan_ok(&["goal", "status"]).stdout;
    assert_eq!(host_goal(&status), Some(REFUSED_ONCE), "{status}");
    let report = w.plan_ok(&["report", "--json"]).stdout;
    let report: serde_json::Value = serde_json::from_str(&report).unwrap();
    assert_eq!(
        report["loop"]["host_goal"],
        json!({"refused": 1, "completed": "2026-06-15 14:02"})
    );
    assert!(
        w.read("plan.md")
            .contains("<!-- id: cache-layer -->\nstatus: done\n")
    );
}

/// The plugin folder `scripts/dist` builds (both hosts' marketplace files, the
/// plugin with its launcher and this machine's binary in `bin/`), with no `plan`
/// left on PATH, so the hooks can only run the plugin's own binary. Returns the
/// marketplace's directory.
fn dist_plugin(w: &World) -> String {
    let stripped = w.path("stripped");
    std::fs::create_dir_all(&stripped).unwrap();
    let binary = stripped.join("plan");
    let ok = std::process::Command::new("strip")
        .arg("-o")
        .arg(&binary)
        .arg(crate::harness::PLAN_BIN)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        std::fs::copy(crate::harness::PLAN_BIN, &binary).unwrap();
    }
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/dist");
    let out = std::process::Command::new(script)
        .arg("--binary")
        .arg(&binary)
        .arg("--out")
        .arg(w.path("dist"))
        .env("TMPDIR", w.path("tmp"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "scripts/dist: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_file(w.path("bin/plan")).unwrap();
    assert_eq!(
        w.sh("command -v plan || echo none").trim(),
        "none",
        "plan is still on PATH"
    );
    w.path("dist/plugin").display().to_string()
}

/// One continuation of a loop with a budget of 1, the block injected once first:
/// the plugin's hooks ran.
fn the_plugins_hooks_ran(w: &World, block: &str) {
    let turns = w.fake.turns();
    assert_eq!(turns[0].count(block), 1, "the block, once: {}", w.report());
    let continued = turns.iter().filter(|t| t.has(CONTINUATION)).count();
    assert_eq!(continued, 1, "one continuation: {}", w.report());
    assert!(turns.last().unwrap().has("(Continuation 1 of 1.)"));
}

/// The plugin `scripts/dist` builds, in Claude Code: `claude plugin validate
/// --strict` passes for the marketplace and the plugin, it is added as a local
/// marketplace and installed offline, and its hooks run the plugin's binary with no
/// `plan` on PATH.
pub fn claude_installs_the_dist_plugin_and_runs_it_without_plan_on_path() {
    // The scratch plugin keeps plan out of the project's settings.
    let w = World::installed_with(
        Host::Claude,
        PLAN,
        script(vec![
            shell("command -v plan > where.txt && plan --version >> where.txt"),
            text("Done."),
            text("Done again."),
        ]),
        &["--plugin", "{dir}/scratch"],
    );
    w.plan_ok(&["goal", "--budget", "1"]);
    let block = block(&w);
    let market = dist_plugin(&w);
    for dir in [market.clone(), format!("{market}/plugins/plan")] {
        let validated = w.exec(&["plugin", "validate", "--strict", &dir], &[]);
        assert_eq!(validated.code, Some(0), "{dir}: {}", validated.stdout);
        assert!(
            validated.stdout.contains("Validation passed"),
            "{}",
            validated.stdout
        );
    }
    w.exec(&["plugin", "marketplace", "add", &market], &[]).ok();
    let installed = w.exec(&["plugin", "install", "plan@plan"], &[]);
    installed.ok();
    assert!(
        installed
            .stdout
            .contains("Successfully installed plugin: plan@plan"),
        "{}",
        installed.stdout
    );
    w.exec(&["-p", "Work on the plan.", "--allowedTools", "Bash"], &[])
        .ok();
    the_plugins_hooks_ran(&w, &block);
    // The agent's shell finds the plugin's launcher on PATH (Claude Code puts a
    // plugin's bin/ there), which runs the plugin's binary.
    let where_ = w.read("where.txt");
    let own_bin = w.path("bin").display().to_string();
    let mut lines = where_.lines();
    assert!(
        lines
            .next()
            .is_some_and(|l| l.ends_with("/plan/bin/plan") && !l.starts_with(&own_bin)),
        "{where_}"
    );
    assert_eq!(
        lines.next(),
        Some(format!("plan {}", env!("CARGO_PKG_VERSION")).as_str())
    );
}

/// The same plugin in Codex: `codex plugin marketplace add` of the directory, `codex
/// plugin add plan@plan`, and its hooks (the shared hooks/hooks.json, each command
/// naming Codex by its `PLUGIN_ROOT`) run the plugin's binary with no `plan` on
/// PATH and no hooks of the project's.
pub fn codex_installs_the_dist_plugin_and_runs_it_without_plan_on_path() {
    let w = World::installed_with(
        Host::Codex,
        PLAN,
        script(vec![text("Done."), text("Done again.")]),
        &[],
    );
    w.sh("git rm -q -r .codex && git commit -q -m 'no project hooks'");
    let config = w.path("home/.codex/config.toml");
    let text0 = std::fs::read_to_string(&config).unwrap();
    std::fs::write(&config, text0.replace("plugins = false", "plugins = true")).unwrap();
    w.plan_ok(&["goal", "--budget", "1"]);
    let block = block(&w);
    let market = dist_plugin(&w);
    let added = w.exec(&["plugin", "marketplace", "add", &market], &[]);
    added.ok();
    assert!(
        added.stdout.contains("Added marketplace `plan`"),
        "{}",
        added.stdout
    );
    let installed = w.exec(&["plugin", "add", "plan@plan"], &[]);
    installed.ok();
    assert!(
        installed
            .stdout
            .contains("Added plugin `plan` from marketplace `plan`"),
        "{}",
        installed.stdout
    );
    w.prompt("Work on the plan.").ok();
    the_plugins_hooks_ran(&w, &block);
}

/// Claude Code's task list: a task named after a goal of plan.md, marked completed
/// by `TaskUpdate`, is refused through TaskCompleted while the goal is not signed
/// off (the model reads plan's reason), and passes once it is.
pub fn claude_a_task_naming_a_goal_is_refused_until_it_is_signed_off() {
    const REFUSED: &str = "plan: this task names a goal of plan.md that is not signed off: cache-layer (1/2, next: eviction policy).";
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    w.write("src/cache.rs", "pub struct Cache;\n");
    let judge = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/judges/accept");
    w.write(
        ".plan/config.yaml",
        &format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 30\n",
            judge.display()
        ),
    );
    w.sh("git add -A && git commit -q -m cache");
    let plan = w.path("bin/plan").display().to_string();
    let complete = format!(
        "{plan} complete cache-layer --evidence 'src/cache.rs holds the cache layer' --path src/cache.rs"
    );
    let mut step = 0;
    w.fake.script(Box::new(move |req: &Call| {
        if is_side(req) {
            return side(req);
        }
        step += 1;
        match step {
            1 => call(
                "TaskCreate",
                json!({"subject": "Implement cache layer", "description": "The cache layer of plan.md", "activeForm": "Implementing the cache layer"}),
            ),
            2 | 4 => call("TaskUpdate", json!({"taskId": "1", "status": "completed"})),
            3 => shell(&complete),
            _ => text("Done."),
        }
    }));
    let run = w.exec(
        &[
            "-p",
            "Work on the plan.",
            "--allowedTools",
            "Bash,TaskCreate,TaskUpdate",
        ],
        &[],
    );
    run.ok();
    let done: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" task-completed"))
        .collect();
    assert_eq!(done.len(), 2, "{done:#?}");
    insta::assert_snapshot!(w.redact(&done[0].stdout));
    assert_eq!(done[1].stdout, "", "{}", done[1].stdout);
    let turns = w.fake.turns();
    assert!(
        turns[2].has(REFUSED),
        "the model read why the task stays open: {}",
        w.report()
    );
    // The first refusal is still in the history; the second update was not refused.
    assert_eq!(turns[4].count(REFUSED), 1, "{}", w.report());
    assert!(
        w.read("plan.md")
            .contains("<!-- id: cache-layer -->\nstatus: done\n")
    );
}

/// Copilot CLI's subagents (the `task` tool) run the main agent's hooks with
/// `agentId`: the subagent's first prompt tells it its holder name. A block at the
/// subagent's agentStop would be dropped, so plan answers nothing there; one that
/// claimed a goal is held at subagentStop while the goal is not signed off (the
/// reason is its next prompt) and let go once it hands the goal back.
pub fn copilot_a_subagent_holding_a_goal_is_held_at_its_stop() {
    const NAMED: &str = "this subagent's holder name is `";
    const HELD: &str = "this subagent claimed a goal that is not signed off";
    let w = World::new(Host::Copilot, PLAN, script(vec![]));
    let mut main = 0;
    let mut sub = 0;
    w.fake.script(Box::new(move |req: &Call| {
        if is_side(req) {
            return side(req);
        }
        let agent = req.request.texts().iter().find_map(|t| {
            let at = t.find(NAMED)? + NAMED.len();
            t[at..].split('`').next().map(str::to_string)
        });
        match agent {
            Some(agent) => {
                sub += 1;
                match (sub, req.has(HELD)) {
                    (1, _) => shell(&format!("plan start cache-layer --as {agent}")),
                    (2, _) => text("The eviction policy is done."),
                    (_, true) if sub <= 4 => {
                        shell(&format!("plan release cache-layer --as {agent}"))
                    }
                    _ => text("Handed the goal back."),
                }
            }
            None => {
                main += 1;
                match main {
                    1 => call(
                        "task",
                        json!({"description": "Eviction policy", "prompt": "Write the eviction policy of cache-layer.", "agent_type": "general-purpose", "name": "evict"}),
                    ),
                    _ => text("Done."),
                }
            }
        }
    }));
    w.prompt("Work on the plan.").ok();
    let hooks = w.hooks();
    let stops: Vec<_> = hooks
        .iter()
        .filter(|h| h.args.ends_with(" subagent-stop"))
        .collect();
    assert!(stops.len() >= 2, "held once, then let go: {hooks:#?}");
    insta::assert_snapshot!(w.redact_holder(&stops[0].stdout));
    let last = stops.last().unwrap();
    assert_eq!(last.stdout, "", "let go in silence");
    assert!(
        w.fake.calls().iter().any(|c| c.has(HELD)),
        "the subagent was told why"
    );
    let agent_stops: Vec<_> = hooks
        .iter()
        .filter(|h| h.args.ends_with(" agent-stop"))
        .collect();
    assert!(
        agent_stops
            .iter()
            .any(|h| h.stdin.contains("\"parentAgentId\"")),
        "the subagent's own agentStop ran: {agent_stops:#?}"
    );
    assert!(
        agent_stops.iter().all(|h| h.stdout.trim().is_empty()),
        "no agentStop answered: {agent_stops:#?}"
    );
    let claims = w.plan_ok(&["claims"]);
    assert_eq!(claims.stdout, "no goal is claimed\n", "handed back");
}

/// The pinned oh-my-openagent, the OpenCode plugin whose goal subsystem ends a goal
/// through its `update_goal` tool (`goal.enabled` in its settings).
const OMO: (&str, &str) = ("oh-my-openagent", "4.19.4");

/// oh-my-openagent itself in OpenCode, from the npm registry (its telemetry and
/// update check off, as a person can set them): its `update_goal` marking the goal
/// complete is refused while plan's loop has goals left, the model reads plan's
/// reason, and once the goal is signed off the call runs and plan records the goal
/// complete from the tool's real result.
pub fn opencode_oh_my_openagents_goal_is_refused_until_sign_off() {
    const REFUSED: &str =
        "plan: the goal is not complete while plan.md has goals not signed off: cache-layer.";
    let w = World::new(Host::Opencode, PLAN, script(vec![]));
    let omo =
        crate::harness::install_package(OMO.0, OMO.1, "node_modules/oh-my-openagent/dist/index.js")
            .unwrap_or_else(|e| panic!("{e}"));
    let config = w.path("home/.config/opencode/opencode.json");
    let mut settings: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&config).unwrap()).unwrap();
    settings["plugin"] = json!([format!("file://{}", omo.display())]);
    std::fs::write(&config, settings.to_string()).unwrap();
    w.write(
        ".opencode/oh-my-openagent.json",
        r#"{"goal": {"enabled": true}, "telemetry": false, "auto_update": false}"#,
    );
    w.write("src/cache.rs", "pub struct Cache;\n");
    let judge = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/judges/accept");
    w.write(
        ".plan/config.yaml",
        &format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 30\nloop:\n  stall_limit: 1\n",
            judge.display()
        ),
    );
    w.sh("git add -A && git commit -q -m cache");
    w.plan_ok(&["goal"]);
    let plan = w.path("bin/plan").display().to_string();
    let complete = format!(
        "{plan} complete cache-layer --evidence 'src/cache.rs holds the cache layer' --path src/cache.rs"
    );
    w.fake.script(script(vec![
        call(
            "create_goal",
            json!({"objective": "Ship the cache layer in plan.md"}),
        ),
        call("update_goal", json!({"status": "complete"})),
        shell(&complete),
        call("update_goal", json!({"status": "complete"})),
        text("Done."),
        text("Done."),
        text("Done."),
    ]));
    w.exec(
        &["run", "Work on the plan."],
        &[
            ("OMO_DISABLE_POSTHOG", "1"),
            ("OMO_SEND_ANONYMOUS_TELEMETRY", "0"),
            ("OPENCODE_CLI_RUN_MODE", "true"),
        ],
    )
    .ok();
    let before: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" tool-before"))
        .collect();
    assert_eq!(before.len(), 2, "each update_goal was relayed: {before:#?}");
    assert!(before[0].stdout.contains(REFUSED), "{}", before[0].stdout);
    assert!(!before[1].stdout.contains("deny"), "{}", before[1].stdout);
    assert!(
        w.fake.turns().iter().any(|t| t.has(REFUSED)),
        "the model read plan's reason as the tool's error"
    );
    let status = w.plan_ok(&["goal", "status"]).stdout;
    assert_eq!(host_goal(&status), Some(REFUSED_ONCE), "{status}");
}

/// Claude Code's Agent Teams: a teammate in a pane is a Claude Code process of its
/// own, launched as Claude Code launches one (`--agent-id NAME@TEAM --agent-name
/// NAME --team-name TEAM`; teams form only in interactive sessions, so the lead is
/// left out). One that claimed a goal under its session (PLAN_SESSION, no `--as`)
/// is held at TeammateIdle, told what remains, and goes idle once it hands the
/// goal back.
pub fn claude_a_teammate_holding_a_goal_is_held_at_teammate_idle() {
    const HELD: &str = "this teammate claimed a goal that is not signed off";
    let w = World::new(Host::Claude, PLAN, script(vec![]));
    let mut turn = 0;
    w.fake.script(Box::new(move |req: &Call| {
        if is_side(req) {
            return side(req);
        }
        turn += 1;
        match (turn, req.has(HELD)) {
            (1, _) => shell("plan start cache-layer"),
            (2, _) => text("The eviction policy is done."),
            (_, true) if turn <= 4 => shell("plan release cache-layer"),
            _ => text("Handed the goal back."),
        }
    }));
    let run = w.exec(
        &[
            "-p",
            "Write the eviction policy of cache-layer.",
            "--permission-mode",
            "acceptEdits",
            "--allowedTools",
            "Bash",
            "--agent-id",
            "worker@crew",
            "--agent-name",
            "worker",
            "--team-name",
            "crew",
        ],
        &[("CLAUDE_CODE_EXPERIMENTAL_AGENT_TEAMS", "1")],
    );
    run.ok();
    let idle: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" teammate-idle"))
        .collect();
    assert!(idle.len() >= 2, "held once, then let go: {idle:#?}");
    assert!(
        idle[0].stdin.contains("\"teammate_name\":\"worker\""),
        "{}",
        idle[0].stdin
    );
    insta::assert_snapshot!(w.redact_holder(&idle[0].stdout));
    let last = idle.last().unwrap();
    assert_eq!(last.stdout, "", "let go in silence");
    assert!(
        w.fake.calls().iter().any(|c| c.has(HELD)),
        "the teammate was told why"
    );
    let claims = w.plan_ok(&["claims"]);
    assert_eq!(claims.stdout, "no goal is claimed\n", "handed back");
}

/// Codex's subagents (`[features] multi_agent_v2`, the `collaboration` tools):
/// SubagentStart tells the subagent its holder name (its `agent_id`); one that
/// claimed a goal under it is held at SubagentStop, which runs instead of Stop for
/// a subagent, told what remains, and let go once it hands the goal back.
pub fn codex_a_subagent_holding_a_goal_is_held_at_its_stop() {
    const NAMED: &str = "this subagent's holder name is `";
    const HELD: &str = "this subagent claimed a goal that is not signed off";
    let w = World::new(Host::Codex, PLAN, script(vec![]));
    let config = w.path("home/.codex/config.toml");
    let text0 = std::fs::read_to_string(&config).unwrap();
    std::fs::write(
        &config,
        text0.replacen("[features]\n", "[features]\nmulti_agent_v2 = true\n", 1),
    )
    .unwrap();
    // Codex's shell has no `plan` on PATH here: the path itself.
    let plan = w.path("bin/plan").display().to_string();
    let mut main = 0;
    let mut sub = 0;
    w.fake.script(Box::new(move |req: &Call| {
        let agent = req.request.texts().iter().find_map(|t| {
            let at = t.find(NAMED)? + NAMED.len();
            t[at..].split('`').next().map(str::to_string)
        });
        match agent {
            Some(agent) => {
                sub += 1;
                match (sub, req.has(HELD)) {
                    (1, _) => shell(&format!("{plan} start cache-layer --as {agent}")),
                    (2, _) => text("The eviction policy is done."),
                    (_, true) if sub <= 4 => {
                        shell(&format!("{plan} release cache-layer --as {agent}"))
                    }
                    _ => text("Handed the goal back."),
                }
            }
            None => {
                main += 1;
                match main {
                    1 => call(
                        "collaboration.spawn_agent",
                        json!({"task_name": "eviction", "message": "Write the eviction policy of cache-layer.", "fork_turns": "none"}),
                    ),
                    2 => call("collaboration.wait_agent", json!({"timeout_ms": 60000})),
                    _ => text("Done."),
                }
            }
        }
    }));
    w.prompt("Work on the plan.").ok();
    let stops: Vec<_> = w
        .hooks()
        .into_iter()
        .filter(|h| h.args.ends_with(" subagent-stop"))
        .collect();
    assert!(stops.len() >= 2, "held once, then let go: {stops:#?}");
    insta::assert_snapshot!(w.redact_holder(&stops[0].stdout));
    let last = stops.last().unwrap();
    assert_eq!(last.stdout, "", "let go in silence");
    assert!(
        w.fake.calls().iter().any(|c| c.has(HELD)),
        "the subagent was told why"
    );
    let claims = w.plan_ok(&["claims"]);
    assert_eq!(claims.stdout, "no goal is claimed\n", "handed back");
}

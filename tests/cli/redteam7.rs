//! Red team, seventh pass: hiding work from what the hooks and `plan show` read
//! (`## Archive` by hand, the hooks' cache), by a dishonest agent with a shell.
//! Each still ignored is an open gap.

use crate::util::Test;

/// Two active goals, `a` (verify: a.txt exists) and `b` (b.txt), committed, with a
/// loop running.
fn two_goals() -> Test {
    let t = Test::new();
    t.ok(&["init", "Red team"]);
    for (title, file) in [("A", "a.txt"), ("B", "b.txt")] {
        t.ok(&[
            "add",
            title,
            "--done-when",
            &format!("{file} exists"),
            "--verify",
            &format!("test -f {file}"),
            "--failure-mode",
            &format!("{file} is empty"),
            "--active",
        ]);
    }
    t.ok(&["goal", "--budget", "5"]);
    t.commit_all("start");
    t
}

/// The Claude Code stop hook for `session`: its answer as JSON (null: none).
fn stop(t: &Test, session: &str) -> serde_json::Value {
    use std::io::Write as _;
    let payload = crate::util::fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", session);
    let mut child = t
        .cmd(&["hook", "claude", "stop"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.trim().is_empty() {
        return serde_json::Value::Null;
    }
    serde_json::from_str(&stdout).unwrap()
}

/// `a` signed off; then goal `b` cut out of the live goals and put under a new
/// `## Archive` at the end, its status line rewritten by `edit`.
fn b_archived_by_hand(edit: impl Fn(&str) -> String) -> Test {
    let t = two_goals();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.commit_all("a signed off");
    assert_eq!(stop(&t, "s1")["decision"], "block", "b is active");
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    let b = edit(&md[from..to]);
    t.write(
        "plan.md",
        format!(
            "{}{}\n## Archive\n\n{}",
            &md[..from],
            &md[to..],
            b.trim_end()
        ),
    );
    assert!(t.plan_md().contains("## Archive\n\n## Goal: B"));
    t
}

/// `plan archive` moves only finished goals, and a deleted active goal keeps the
/// loop going (redteam4). But an active goal moved under `## Archive` by hand,
/// status and all, left every hook: nothing active, nothing ready, nothing
/// unproven, so the stop guard let the loop go with `b` unfinished, and the
/// injection and status line said nothing of it (only `plan audit` did). An
/// unfinished goal under `## Archive` is now remaining work wherever the hooks look.
#[test]
fn an_active_goal_moved_under_the_archive_by_hand_keeps_the_loop_going() {
    let t = b_archived_by_hand(str::to_string);
    let answer = stop(&t, "s1");
    assert_eq!(
        answer["decision"], "block",
        "the loop let go with b hidden under ## Archive: {answer}"
    );
    let reason = answer["reason"].as_str().unwrap_or_default();
    assert!(
        reason.contains("b is under `## Archive` but active"),
        "{reason}"
    );
    t.ok(&["statusline"]).stdout_has("⚠ 1 archived unfinished");
    t.ok(&["inject"])
        .stdout_has("Under `## Archive` but not finished, so still remaining work: b.");
    t.run(&["audit"])
        .code(1)
        .stdout_has("⚠ b is under `## Archive` but not finished");
}

//! Hooks inject read-only when `.git/plan` cannot be written (issue 23, item 12):
//! the view is derived without writing the cache or the session state, and the
//! plan is injected as it always is.

use crate::util::{Test, fixture};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
- [ ] eviction policy

## Log
- 2026-06-15 14:02 client wired
";

const BLOCK: &str = "plan.md: Ship the cache layer
Active goals:
- cache-layer: Implement cache layer
  done_when: p95 < 50ms
  subtasks: 0/1 done; next: eviction policy
Ready to start: none
Last log line: 2026-06-15 14:02 client wired
A goal is signed off only by `plan complete ID --evidence TEXT --path FILE`, which runs its verify command and an independent read-only judge; `status: done` written by hand is flagged as unchecked.";

fn hook(t: &Test, event: &str) -> serde_json::Value {
    let payload = fixture(&format!("hosts/claude/{event}.json"))
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let name = event.split('.').next().unwrap();
    t.case(&["hook", "claude", name])
        .stdin(&payload)
        .any_stdout()
        .check()
        .answer()
}

fn context(answer: &serde_json::Value) -> &str {
    answer["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_else(|| panic!("no context: {answer}"))
}

/// The hooks of one session against a `.git/plan` nothing can be written under:
/// the start and every prompt inject the plan (nothing remembers it was given),
/// the stop lets the agent go and says why, and nothing is written.
fn injects_read_only(t: &Test) {
    assert_eq!(context(&hook(t, "session-start")), BLOCK);
    for _ in 0..2 {
        assert_eq!(context(&hook(t, "user-prompt-submit")), BLOCK);
    }
    assert_eq!(hook(t, "post-tool-use.write"), serde_json::Value::Null);
    // The stop lets go, and says why: no loop can be kept.
    assert_eq!(
        hook(t, "stop")["systemMessage"],
        "plan: .git/plan cannot be written, so no work loop can be kept here and this stop is let go; make it a writable directory again"
    );
    assert_eq!(t.ok(&["inject"]).stdout, format!("{BLOCK}\n"));
}

/// Attack: with `.git/plan` not writable the hooks injected nothing at all
/// ("hook skipped: creating .git/plan"), though plan.md read fine. `.git/plan` a
/// file stands in for a read-only mount: unlike `chmod`, it holds for root too.
#[test]
fn hooks_inject_when_git_plan_cannot_be_written() {
    let t = Test::new().plan(PLAN);
    let state = t.root().join(".git/plan");
    std::fs::write(&state, "").unwrap();
    injects_read_only(&t);
    assert!(state.is_file(), "the stand-in was replaced");
    assert_eq!(std::fs::read(&state).unwrap(), b"", "something was written");
}

/// The same with `.git/plan` a directory its owner may not write to, which holds
/// only for a user other than root (root writes anyway).
#[test]
fn hooks_inject_when_git_plan_is_read_only() {
    let t = Test::new().plan(PLAN);
    let state = t.root().join(".git/plan");
    for dir in ["sessions", "cache"] {
        std::fs::create_dir_all(state.join(dir)).unwrap();
        set_mode(&state.join(dir), 0o555);
    }
    set_mode(&state, 0o555);
    if std::fs::write(state.join(".probe"), "").is_ok() {
        // Skipped, and said so: root writes to a read-only directory anyway, and
        // the test above covers it.
        #[allow(clippy::print_stderr)]
        {
            eprintln!("skipped: running as root, which writes to a read-only directory anyway");
        }
        return;
    }
    injects_read_only(&t);
    assert_eq!(
        walk(&state).len(),
        2,
        "something was written: {:?}",
        walk(&state)
    );
    for dir in [state.join("sessions"), state.join("cache"), state.clone()] {
        set_mode(&dir, 0o755);
    }
}

fn set_mode(path: &std::path::Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt as _;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

fn walk(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        }
        out.push(path);
    }
    out
}

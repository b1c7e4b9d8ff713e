//! The hooks' state lock, `.git/plan/state.lock`: a directory put in its place made
//! every hook fail open ("hook skipped": no injection, every stop let go) while `plan
//! goal status` and the status line said the loop was running. The hooks now lock
//! `.git/plan` itself then, so the loop holds, and both say what is wrong and what
//! to do.

use crate::setup::two_goals_looping;
use crate::util::{Test, fixture};

/// The Claude Code hook `event` for session `s1`: what it printed.
fn hook(t: &Test, event: &str) -> String {
    let payload = fixture(&format!("hosts/claude/{event}.json"))
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    t.case(&["hook", "claude", event])
        .stdin(&payload)
        .check_status_only()
        .stdout
}

#[test]
fn a_directory_in_place_of_the_state_lock_keeps_the_loop_and_is_named() {
    let t = two_goals_looping();
    let lock = t.root().join(".git/plan/state.lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir_all(lock.join("inside")).unwrap();
    let start = hook(&t, "session-start");
    assert!(
        !start.contains("hook skipped") && start.contains("a: A"),
        "{start}"
    );
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "a broken lock let the loop go: {answer}"
    );
    t.ok(&["statusline"])
        .stdout_has("plan: 2 active · a · ⚠ .git/plan/state.lock is not a file: rm -r it\n");
    t.ok(&["goal", "status"]).stdout_has(
        "  ⚠ .git/plan/state.lock is not a file plan can lock (Is a directory (os error 21)): the hooks lock .git/plan instead, so they and the work loop go on; remove it with `rm -r .git/plan/state.lock`\n",
    );
    t.ok(&["goal", "status"])
        .stdout_has("continuations: 1 of 5");
    std::fs::remove_dir_all(&lock).unwrap();
    let line = t.ok(&["statusline"]).stdout;
    assert!(!line.contains('⚠'), "{line}");
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
}

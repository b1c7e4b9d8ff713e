//! The hooks' state lock, `.git/plan/state.lock`: a directory put in its place made
//! every hook fail open ("hook skipped": no injection, every stop let go) while `plan
//! goal status` and the status line said the loop was running. The hooks now lock
//! `.git/plan` itself then, so the loop holds, and both say what is wrong and what
//! to do. A process holding the lock (`flock -x .git/plan/state.lock sleep 30`) made
//! every stop and prompt hook wait the whole 30 s; the hooks now try it for a bounded
//! time, then fail open saying who is in the way.

use std::fs::File;
use std::io::{Read as _, Write as _};
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::setup::two_goals_looping;
use crate::util::{Test, fixture, redact, shown};

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
    insta::assert_snapshot!(redact(&t, &start));
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "a broken lock let the loop go: {answer}"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    std::fs::remove_dir_all(&lock).unwrap();
    let line = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &line));
    assert!(!line.contains('⚠'), "{line}");
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
}

/// The state lock, held by this test process as another process would hold it.
fn hold_state_lock(t: &Test) -> File {
    let file = File::options()
        .create(true)
        .truncate(false)
        .write(true)
        .open(t.root().join(".git/plan/state.lock"))
        .unwrap();
    file.lock().unwrap();
    file
}

/// The Claude Code hook `event` for session `s1`, killed if it runs past `limit`:
/// its exit code, stdout and how long it took.
fn hook_within(t: &Test, event: &str, limit: Duration) -> (i32, String, Duration) {
    let payload = fixture(&format!("hosts/claude/{event}.json"))
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let started = Instant::now();
    let mut child = t
        .cmd(&["hook", "claude", event])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("the {event} hook still waited after {limit:?}: a held lock wedges the agent");
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let took = started.elapsed();
    let mut out = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut out)
        .unwrap();
    (status.code().unwrap_or(-1), out, took)
}

/// What a hook says when the lock stays held.
fn held_note(t: &Test) -> String {
    let lock = t.root().join(".git/plan/state.lock");
    let lock = lock.display();
    format!(
        "plan: hook skipped: {lock} is held by another process (a hook holds it for milliseconds; plan tried for 1.5 s): see what holds it with `fuser -v {lock}` and end that process; until then every hook lets the agent go on"
    )
}

#[test]
fn a_held_state_lock_lets_the_hooks_go_on_in_seconds_and_says_why() {
    let t = two_goals_looping();
    let held = hold_state_lock(&t);
    let limit = Duration::from_secs(15);
    // The stop of a running loop is blocked, not counted: let go, one `flock` on
    // the lock would end any loop (review).
    let (code, out, took) = hook_within(&t, "stop", limit);
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(5), "the stop took {took:?}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["decision"], "block", "{answer}");
    let reason = answer["reason"].as_str().unwrap();
    let lock = t.root().join(".git/plan/state.lock");
    assert!(
        reason.contains(&format!("{} is held by another process", lock.display()))
            && reason
                .ends_with("this stop is blocked without counting it: go on with plan.md's goals."),
        "{reason}"
    );
    let (code, out, took) = hook_within(&t, "user-prompt-submit", limit);
    assert_eq!(code, 0);
    assert!(took < Duration::from_secs(5), "the prompt took {took:?}");
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["systemMessage"], held_note(&t).as_str(), "{answer}");
    drop(held);
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "a lock let go still let the loop go: {answer}"
    );
    // Only the stop after the lock was let go counted.
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

/// Another hook holds the lock for milliseconds: a stop then waits its turn and
/// decides as ever, never skipped.
#[test]
fn a_lock_held_briefly_is_waited_for() {
    let t = two_goals_looping();
    let held = hold_state_lock(&t);
    let freed = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(300));
        drop(held);
    });
    let (code, out, _) = hook_within(&t, "stop", Duration::from_secs(15));
    freed.join().unwrap();
    assert_eq!(code, 0);
    let answer: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(answer["decision"], "block", "{answer}");
}

/// A command waits as long as it takes, and says after two seconds what it waits for.
#[test]
fn a_command_waits_for_a_held_lock_and_says_so() {
    let t = two_goals_looping();
    let held = hold_state_lock(&t);
    let freed = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_secs(3));
        drop(held);
    });
    let run = t.ok(&["goal", "pause"]);
    freed.join().unwrap();
    insta::assert_snapshot!(shown(&t, &run));
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

// Attack: a directory put in place of the loop's session record
// (`mkdir .git/plan/sessions/s1.json`, with a file in it so nothing can remove or
// replace it) made every hook of that session fail open: "hook skipped", and every
// stop let go with goals open. The record is then no record, the stop holds the
// loop as for a session plan has not seen, and the hook goes on.
#[test]
fn a_directory_in_place_of_a_session_record_keeps_the_loop() {
    let t = two_goals_looping();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let record = t.root().join(".git/plan/sessions/s1.json");
    let _ = std::fs::remove_file(&record);
    std::fs::create_dir_all(record.join("inside")).unwrap();
    for _ in 0..2 {
        let answer = t.stop_hook("s1").answer();
        assert_eq!(
            answer["decision"], "block",
            "a directory for a record let the loop go: {answer}"
        );
    }
}

// Attack (red-team): a link to a regular file in place of the state lock. The lock
// is opened without following links, so every hook failed open ("hook skipped: …
// is a symbolic link") and every stop was let go, while a link to a directory or
// to nothing was already locked around. A link is in the way whatever it leads to.
#[test]
fn a_link_to_a_file_in_place_of_the_state_lock_keeps_the_loop() {
    let t = two_goals_looping();
    let lock = t.root().join(".git/plan/state.lock");
    let _ = std::fs::remove_file(&lock);
    let target = t.root().join(".git/elsewhere");
    std::fs::write(&target, "").unwrap();
    std::os::unix::fs::symlink(&target, &lock).unwrap();
    for _ in 0..2 {
        let answer = t.stop_hook("s1").answer();
        assert_eq!(
            answer["decision"], "block",
            "a linked lock let the loop go: {answer}"
        );
    }
    let status = t.ok(&["goal", "status"]).stdout;
    let said: Vec<&str> = status
        .lines()
        .filter(|l| l.contains("state.lock"))
        .collect();
    assert_eq!(
        said,
        [
            "  ⚠ .git/plan/state.lock is not a file plan can lock (is a symbolic link, not a regular file): the hooks lock .git/plan instead, so they and the work loop go on; remove it with `rm -r .git/plan/state.lock`"
        ],
        "{status}"
    );
}

// Attack (red-team): `chmod 444 .git/plan/loop.json`. plan would not replace a
// read-only file, as it leaves a person's read-only settings alone, so every stop
// failed open ("hook skipped: writing …/loop.json: the file is read-only") and was
// let go. plan's own state is plan's to keep, whatever its mode says.
#[test]
fn a_read_only_loop_state_keeps_the_loop() {
    use std::os::unix::fs::PermissionsExt as _;
    let t = two_goals_looping();
    let path = t.root().join(".git/plan/loop.json");
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o444)).unwrap();
    for _ in 0..2 {
        let answer = t.stop_hook("s1").answer();
        assert_eq!(
            answer["decision"], "block",
            "a read-only loop.json let the loop go: {answer}"
        );
    }
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600, "the state is plan's own again");
}

// Attack (adversary pass): a hard link to another file of the user's, read-only, in
// loop.json's place. The open refuses symbolic links only, so the stop hook made the
// other file writable (444 to 600). A file with more than one name is left alone;
// the hook then says it cannot write the loop, as before.
#[test]
fn a_hard_link_in_place_of_the_loop_state_keeps_the_other_files_mode() {
    use std::os::unix::fs::PermissionsExt as _;
    let t = two_goals_looping();
    let path = t.root().join(".git/plan/loop.json");
    let victim = t.dir.path().join("victim.json");
    std::fs::copy(&path, &victim).unwrap();
    std::fs::set_permissions(&victim, std::fs::Permissions::from_mode(0o444)).unwrap();
    std::fs::remove_file(&path).unwrap();
    std::fs::hard_link(&victim, &path).unwrap();
    t.stop_hook("s1");
    let mode = std::fs::metadata(&victim).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o444, "the other file's mode was changed");
}

//! Issue #35, remote operations bounded and interruptible: a remote that never
//! answers (an `ext::` transport running a script that sleeps) is stopped at the
//! deadline, and SIGTERM or SIGINT ends plan and the git it runs at once.

use std::time::{Duration, Instant};

use crate::util::Test;

/// A repository with one commit and a remote `hang` whose transport writes its pid
/// to `hang.pid` and sleeps: git waits on it for as long as it sleeps.
fn hanging() -> Test {
    let t = Test::new();
    t.git(&["commit", "-q", "--allow-empty", "-m", "one"]);
    let script = t.dir.path().join("hang.sh");
    let pid = t.dir.path().join("hang.pid");
    std::fs::write(
        &script,
        format!("#!/bin/sh\necho $$ > '{}'\nexec sleep 40\n", pid.display()),
    )
    .unwrap();
    std::process::Command::new("chmod")
        .args(["+x", script.to_str().unwrap()])
        .status()
        .unwrap();
    t.git(&["config", "protocol.ext.allow", "always"]);
    t.git(&[
        "remote",
        "add",
        "hang",
        &format!("ext::{}", script.display()),
    ]);
    t
}

/// The pid the hanging transport wrote, once it did (within 20 s).
fn transport_pid(t: &Test) -> i32 {
    let path = t.dir.path().join("hang.pid");
    let end = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(&path)
            && let Ok(pid) = text.trim().parse()
        {
            return pid;
        }
        assert!(Instant::now() < end, "the transport never started");
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Whether `pid` still runs (a zombie waiting for its reaper does not).
fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat"))
        .ok()
        .and_then(|s| s.rsplit_once(") ").map(|(_, rest)| !rest.starts_with('Z')))
        .unwrap_or(false)
}

fn gone_within(pid: i32, limit: Duration) -> bool {
    let end = Instant::now() + limit;
    while alive(pid) {
        if Instant::now() > end {
            return false;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    true
}

#[test]
fn a_checkpoint_transfer_to_a_hanging_remote_ends_at_its_deadline() {
    let t = hanging().env("PLAN_REMOTE_TIMEOUT", "1");
    let start = Instant::now();
    let run = t.run(&["checkpoints", "--fetch", "hang"]).code(3);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(6), "took {took:?}");
    insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    assert!(gone_within(transport_pid(&t), Duration::from_secs(2)));
}

#[test]
fn a_claims_remote_that_hangs_is_answered_within_its_deadline() {
    let t = hanging().env("PLAN_REMOTE_TIMEOUT", "1");
    t.ok(&["init", "Hang"]);
    t.ok(&["add", "G", "--done-when", "it works"]);
    t.ok(&["claims", "--remote", "hang"]);
    let start = Instant::now();
    let run = t.run(&["claims"]);
    let took = start.elapsed();
    assert!(took < Duration::from_secs(6), "took {took:?}");
    insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    assert!(gone_within(transport_pid(&t), Duration::from_secs(2)));
}

/// Before, plan died of the signal and its git went on fetching (or, with the
/// signal ignored as a script's background job has it, plan waited on git).
#[test]
fn sigterm_and_sigint_end_plan_and_its_git_at_once() {
    for (signal, code) in [("TERM", 143), ("INT", 130)] {
        let t = hanging();
        let mut child = t
            .cmd(&["checkpoints", "--fetch", "hang"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        let transport = transport_pid(&t);
        let sent = Instant::now();
        let killed = std::process::Command::new("kill")
            .args([&format!("-{signal}"), &child.id().to_string()])
            .status()
            .unwrap();
        assert!(killed.success());
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if sent.elapsed() > Duration::from_secs(10) {
                let _ = child.kill();
                panic!("SIG{signal}: plan still running after 10 s");
            }
            std::thread::sleep(Duration::from_millis(10));
        };
        let took = sent.elapsed();
        assert!(took < Duration::from_secs(2), "SIG{signal}: took {took:?}");
        assert!(
            gone_within(transport, Duration::from_millis(500)),
            "SIG{signal}: the remote's transport (pid {transport}) outlived plan"
        );
        assert_eq!(status.code(), Some(code), "SIG{signal}");
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert!(
            err.contains(&format!("plan: stopped by SIG{signal}")),
            "{err}"
        );
    }
}

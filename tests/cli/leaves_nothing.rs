//! A failed command leaves nothing behind (issue 35, item 3): a disk that fills up
//! mid-write (simulated with a file-size limit, `ulimit -f`, on plan alone) or a
//! plan.md that cannot be written leaves no empty or cut file, and a command that
//! exits 0 wrote everything it said.

use std::process::Command;

use crate::util::{Run, Test, redact};

const PLAN: &str = "# Plan: Sign-off

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [x] write it

## Log
- 2026-06-15 14:00 ship started (contract CONTRACT)
";

/// `plan ARGS` with files limited to `kib` KiB: a write past it fails with EFBIG,
/// as on a full disk (SIGXFSZ ignored, so the write returns the error).
fn with_file_limit(t: &Test, kib: u32, args: &[&str]) -> Run {
    let plan = t.cmd(args);
    let mut wrapped = Command::new("bash");
    wrapped.env_clear();
    for (key, value) in plan.get_envs() {
        if let Some(value) = value {
            wrapped.env(key, value);
        }
    }
    wrapped
        .current_dir(plan.get_current_dir().unwrap())
        .arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""))
        .arg(plan.get_program())
        .args(plan.get_args());
    Run::from(wrapped.output().unwrap(), args)
}

/// Attack (issue 35, why 4): `plan complete` on a full disk left the sign-off's
/// transcript cut (here 2 KiB of it) in `.plan/judge/`, and a `.gitattributes`
/// beside it, though nothing was signed off. Failed before. Now the transcript is
/// renamed in whole or not at all.
#[test]
fn a_complete_that_fails_mid_write_leaves_no_transcript() {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN.replace(" (contract CONTRACT)", ""));
    let fp = t.ok(&["show", "--json"]).json()["goals"][0]["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write("plan.md", PLAN.replace("CONTRACT", &fp));
    t.judge("accept");
    t.commit_all("start");
    let before = t.plan_md();
    let args = [
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ];
    let run = with_file_limit(&t, 2, &args);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(t.plan_md(), before, "nothing was signed off");
    let judge = t.root().join(".plan/judge");
    let left: Vec<_> = std::fs::read_dir(&judge)
        .map(|d| d.map(|e| e.unwrap().file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "left in .plan/judge: {left:?}");
    // With room, the same sign-off goes through and leaves both files whole.
    t.ok(&args);
    assert!(t.plan_md().contains("status: done"));
    let attributes = std::fs::read_to_string(judge.join(".gitattributes")).unwrap();
    insta::assert_snapshot!(redact(&t, &attributes));
}

/// Attack (issue 35, why 4): `plan goal pause` with a plan.md it cannot write
/// paused the loop, warned, and exited 0 without its log line. Failed before. Now
/// it exits 3 saying the loop paused and the line was not logged.
#[test]
fn a_goal_pause_that_cannot_log_does_not_exit_0() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n");
    t.ok(&["goal", "--budget", "3"]);
    let before = t.plan_md();
    let plan_md = t.path("plan.md");
    let mut mode = std::fs::metadata(&plan_md).unwrap().permissions();
    mode.set_readonly(true);
    std::fs::set_permissions(&plan_md, mode).unwrap();
    let run = t.run(&["goal", "pause"]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stdout,
        "work loop paused; `plan goal resume` continues it\n"
    );
    assert_eq!(
        run.stderr,
        "plan: work loop paused (without a terminal) was not logged in plan.md (plan.md is read-only; nothing was written)\n  hint: the loop changed as said, but the stop hook goes by plan.md's log: once plan.md can be written, run this again\n"
    );
    assert_eq!(t.plan_md(), before);
}

/// Attack (issue 35, why 8): a garbage `loop.json` said "no work loop is running".
/// Failed before. Now `plan goal pause` names the file and what to do.
#[test]
fn a_damaged_loop_state_is_named() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n");
    t.ok(&["goal", "--budget", "3"]);
    std::fs::write(t.root().join(".git/plan/loop.json"), "{not json").unwrap();
    let run = t.run(&["goal", "pause"]);
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr.replace(&format!("{}/", t.root().display()), ""),
        "plan: .git/plan/loop.json is not a work loop plan can read (damaged, or written by hand)\n  hint: `plan goal` starts a new loop in its place (or delete the file)\n"
    );
}

/// Attack (issue 35, why 8): with a garbage `loop.json`, `plan goal clear` said "no
/// work loop to clear", `plan goal status` "no work loop" and `plan report` "no work
/// loop has run" (all exit 0 but the report). Failed before. Each names the file.
#[test]
fn a_damaged_loop_state_is_named_by_clear_status_and_report() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n");
    t.ok(&["goal", "--budget", "3"]);
    std::fs::write(t.root().join(".git/plan/loop.json"), "{not json").unwrap();
    for args in [
        &["goal", "clear"][..],
        &["goal", "status"],
        &["goal", "status", "--json"],
        &["report"],
    ] {
        let run = t.run(args);
        assert_eq!(run.code, 3, "{args:?}: {}{}", run.stdout, run.stderr);
        insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    }
    // Nothing was deleted: the file is the person's to look at.
    assert_eq!(t.read(".git/plan/loop.json"), "{not json");
}

/// loop.json is replaced whole, never rewritten in place: a reader without the lock
/// (a hook that could not take it) sees the old loop or the new one. A file hard-
/// linked to it before a write keeps the old bytes: the path got a new file.
#[test]
fn the_loop_state_is_replaced_not_rewritten_in_place() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n");
    t.ok(&["goal", "--budget", "3"]);
    let state = t.root().join(".git/plan/loop.json");
    let before = std::fs::read_to_string(&state).unwrap();
    let linked = t.root().join(".git/plan/old-loop.json");
    std::fs::hard_link(&state, &linked).unwrap();
    t.ok(&["goal", "pause"]);
    assert_eq!(std::fs::read_to_string(&linked).unwrap(), before);
    assert_ne!(std::fs::read_to_string(&state).unwrap(), before);
    let left: Vec<String> = std::fs::read_dir(t.root().join(".git/plan"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with('.'))
        .collect();
    assert!(left.is_empty(), "temp files left: {left:?}");
}

//! The red team on the update job's push token (b436f31): unset in the step's
//! shell before plan or gh starts, it is still in that shell's environment as the
//! runner started it, which every program of the step (same user) can read in
//! /proc. The token now goes to the steps that push alone, which run git alone.

use crate::forge::{clone, git, plan, update_job_seen};
use crate::util::Test;

const PLAN: &str = "# Plan: Token

## Goal: Build
<!-- id: build -->
status: open
done_when: the build passes
verify: test -f build.txt
failure_modes:
- verify passes on a stale build
- [ ] compile

## Log
";

// `unset PUSH_TOKEN` drops the variable from what bash passes on, not from the
// block the kernel shows as /proc/<bash>/environ: `gh` (and `plan sync`, and
// anything a build left running) read the token there as the update step's
// children. Only a step's own `env:` puts a variable in its shell's block, so the
// job's steps are run as the runner runs them, each its own bash with the env the
// workflow gives it, through a sync that is pushed and a gate that is dispatched:
// every time gh or plan starts, no process it can read holds the token.
#[test]
fn the_push_token_is_not_in_the_update_steps_environment() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    let origin = t.dir.path().join("origin.git");
    git(
        &t,
        t.dir.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            origin.to_str().unwrap(),
        ],
    );
    t.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    t.git(&["push", "-q", "origin", "main"]);
    let agent = clone(&t, &origin, "agent");
    for (branch, note) in [("one", "one: a note"), ("main", "main: a note")] {
        git(&t, &agent, &["checkout", "-q", "-B", branch, "origin/main"]);
        plan(&t, &agent, "2026-06-15T10:00", &["log", note]).code(0);
        git(&t, &agent, &["commit", "-q", "-am", note]);
        git(&t, &agent, &["push", "-q", "origin", branch]);
    }
    let remote = || git(&t, &agent, &["ls-remote", origin.to_str().unwrap(), "one"]);
    let before = remote();
    let (said, seen) = update_job_seen(&t, &origin, "4 false one\n", 1, false, "");
    assert_ne!(remote(), before, "the sync was pushed:\n{said}");
    assert!(
        said.contains("dispatch plan.yml --ref one -f pr=4"),
        "{said}"
    );
    assert!(
        seen.is_empty(),
        "the push token was in a process's environment when these started:\n{seen}"
    );
}

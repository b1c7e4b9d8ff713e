//! Red team, second pass: attacks on reopen, the verify-file record and
//! degrade-don't-block, each a test of what plan must do. The one still ignored is
//! an open gap (files a verify script sources are not recorded).

use crate::util::Test;

const PLAN: &str = "# Plan: Proof

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [x] write it

## Log
";

/// `ship` added and started through plan, judged by the accepting command fixture.
fn repo(plan: &str) -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", plan);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

fn sign_off(t: &Test) {
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
}

/// A reopen is undone by appending, which the append-only log allows: the goal's
/// old sign-off line copied below the reopen (and `status: done` set back) stands
/// "after its latest reopen", names the same intact transcript with the unchanged
/// contract, so the goal reads as proven without a new `plan complete`. Nothing
/// ties a sign-off line to one use of its transcript (or the transcript to a
/// moment after the reopen), and `plan diff` shows only an added line.
#[test]
fn a_replayed_sign_off_line_does_not_undo_a_reopen() {
    let t = repo(PLAN);
    sign_off(&t);
    t.ok(&["audit"]);
    t.commit_all("signed off");
    t.ok(&[
        "reopen",
        "ship",
        "--reason",
        "audit --reverify: verify fails",
    ]);
    let md = t.plan_md();
    let signed = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .unwrap()
        .to_string();
    // Only appends and a status flip: no log line changed or removed.
    t.write(
        "plan.md",
        format!("{}{signed}\n", md.replace("status: active", "status: done")),
    );
    assert!(
        !t.run(&["diff"]).stderr.contains("append-only"),
        "plan diff flags the replay as a log rewrite"
    );
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopened goal reads as proven without a new sign-off:\n{}",
        run.stdout
    );
    run.stdout_has("unproven")
        .stdout_has("an earlier sign-off already used");
}

/// Deleting the reopen line (a log rewrite `plan diff` warns about) is enough too:
/// `plan audit`, the injection and the guard read only the current log.
#[test]
fn a_deleted_reopen_line_does_not_make_the_old_sign_off_count() {
    let t = repo(PLAN);
    sign_off(&t);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "regressed"]);
    t.commit_all("reopened");
    let md = t.plan_md();
    let hidden: String = md
        .lines()
        .filter(|l| !l.contains("ship reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: active", "status: done");
    t.write("plan.md", hidden);
    // The only trace is plan diff's warning against HEAD; once committed, none.
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the old sign-off counts again once the reopen line is gone:\n{}",
        run.stdout
    );
    run.stdout_has("ship reopened: regressed` (in commit")
        .stdout_has("was removed since; the log is append-only");
}

/// The verify-file record covered only the files verify names literally. A script
/// that sources (or runs) another file hid that file from the record: gutting it
/// after the sign-off let `plan audit --reverify` pass a regression. The record now
/// follows the files their text names, a directory argument and make's Makefile
/// (a runner's own conventions, such as `cargo test`'s sources, stay out of reach).
#[test]
fn reverify_notices_a_gutted_file_the_verify_script_sources() {
    // `make check` rests on the Makefile; `sh run.sh tests` on every file in tests/.
    for (verify, setup, gut) in [
        (
            "make check",
            ("Makefile", "check:\n\ttest -s README.md\n"),
            ("Makefile", "check:\n\ttrue\n"),
        ),
        (
            "sh run.sh tests",
            ("tests/readme.sh", "test -s README.md\n"),
            ("tests/readme.sh", "true\n"),
        ),
    ] {
        // A stand-in make, so the test does not depend on one being installed.
        let t = Test::new().with_bin();
        t.fake_program("make", "sed -n 's/^\t//p' Makefile | sh");
        t.write("README.md", "# Hello\n");
        t.write(
            "run.sh",
            "for f in \"$1\"/*; do sh \"$f\" || exit 1; done\n",
        );
        t.write(setup.0, setup.1);
        t.write(
            "plan.md",
            PLAN.replace("verify: test -f README.md", &format!("verify: {verify}")),
        );
        t.judge("accept");
        t.ok(&["start", "ship"]);
        t.commit_all("start");
        sign_off(&t);
        t.ok(&["audit", "--reverify"])
            .stdout_has("reverify: passed");
        t.write("README.md", "");
        t.write(gut.0, gut.1);
        let run = t.run(&["audit", "--reverify"]);
        assert_ne!(
            run.code, 0,
            "{verify}: a gutted check reverifies as passed:\n{}",
            run.stdout
        );
        run.stdout_has("the check's own files changed since the sign-off");
    }

    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("check.sh", ". ./checks/readme.sh\n");
    t.write("checks/readme.sh", "test -s README.md\n");
    t.write(
        "plan.md",
        PLAN.replace("verify: test -f README.md", "verify: sh check.sh"),
    );
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    sign_off(&t);
    t.ok(&["audit", "--reverify"])
        .stdout_has("reverify: passed");
    // The work regresses; the file that really checks it is gutted.
    t.write("README.md", "");
    t.write("checks/readme.sh", "true\n");
    let run = t.run(&["audit", "--reverify"]);
    assert_ne!(
        run.code, 0,
        "a gutted check reverifies as passed:\n{}",
        run.stdout
    );
}

/// The guard holds back on any format error (`View::broken`): one hand-made error
/// anywhere in plan.md (here a self-dependency on the active goal) lets the agent
/// stop at every turn while the goal is still active and the status line says so.
/// Degrade-don't-block keeps the injection going; the loop should keep going too
/// (and ask for the error to be fixed), with its budget and stall limit as backstop.
#[test]
fn a_format_error_does_not_let_the_loop_go() {
    let t = Test::new().plan(&PLAN.replace("- [x] write it", "- [ ] write it"));
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let md = t.plan_md();
    t.write(
        "plan.md",
        md.replace("status: active\n", "status: active\ndepends_on: ship\n"),
    );
    t.ok(&["statusline"]).stdout_has("1 active · ship");
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop let go over a format error: {answer}"
    );
}

/// `has_work` counts an active goal only when its dependencies are met, so an
/// active goal made to wait on an open goal under `## Archive` (no parse error,
/// two lint problems) ends the loop for good with "no goal is active or ready to
/// start" while the status line shows the goal active.
#[test]
fn an_active_goal_keeps_the_loop_going_whatever_it_waits_on() {
    let t = Test::new().plan(&PLAN.replace("- [x] write it", "- [ ] write it"));
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let md = t
        .plan_md()
        .replace("status: active\n", "status: active\ndepends_on: other\n");
    t.write(
        "plan.md",
        format!(
            "{md}\n## Archive\n\n## Goal: Other\n<!-- id: other -->\nstatus: open\ndone_when: x\n"
        ),
    );
    t.ok(&["statusline"]).stdout_has("1 active · ship");
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop ended with a goal active: {answer}"
    );
}

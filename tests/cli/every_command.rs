//! What each command prints when it works, and each kind of error a user meets, checked
//! whole by snapshot (tests/cli/snapshots/every_command*): one repository walked from
//! `plan init` to an archived sign-off, so a changed word in any command's answer
//! shows as a snapshot diff to review.

use crate::util::{Test, shown};

/// Runs `plan ARGS` in `t`, expecting `code`, and snapshots it as `NAME`.
macro_rules! seen {
    ($t:expr, $name:expr, $code:expr, $args:expr) => {
        insta::assert_snapshot!($name, shown(&$t, &$t.run($args).code($code)))
    };
}

#[test]
fn each_commands_success_output() {
    // `init` and `judge` name the agent CLIs on PATH: only the system's directories here.
    let t = Test::new().env("PATH", "/usr/bin:/bin");
    t.write("README.md", "# Hello\n");
    t.commit_all("readme");
    seen!(t, "init", 0, &["init", "Ship the docs"]);
    seen!(
        t,
        "add",
        0,
        &[
            "add",
            "Write the README",
            "--done-when",
            "README.md exists",
            "--verify",
            "test -f README.md",
            "--failure-mode",
            "README.md is empty",
        ]
    );
    seen!(
        t,
        "add_with_a_dependency",
        0,
        &[
            "add",
            "Publish",
            "--done-when",
            "it is published",
            "--depends-on",
            "write-the-readme"
        ]
    );
    seen!(t, "doctor", 0, &["doctor"]);
    seen!(
        t,
        "subtask",
        0,
        &["subtask", "write-the-readme", "outline it"]
    );
    seen!(
        t,
        "subgoal",
        0,
        &[
            "subgoal",
            "write-the-readme",
            "it names the install command"
        ]
    );
    seen!(t, "edit", 0, &["edit", "publish", "--title", "Publish it"]);
    seen!(t, "templates", 0, &["templates"]);
    seen!(t, "next", 0, &["next"]);
    seen!(t, "start", 0, &["start", "write-the-readme"]);
    seen!(t, "tick", 0, &["tick", "write-the-readme", "1"]);
    seen!(t, "untick", 0, &["untick", "write-the-readme", "1"]);
    t.ok(&["tick", "write-the-readme", "1"]);
    seen!(
        t,
        "log",
        0,
        &["log", "--goal", "write-the-readme", "outlined"]
    );
    seen!(t, "show", 0, &["show"]);
    seen!(t, "show_one", 0, &["show", "write-the-readme"]);
    seen!(t, "statusline", 0, &["statusline"]);
    seen!(t, "inject", 0, &["inject"]);
    seen!(t, "skeleton", 0, &["skeleton"]);
    seen!(t, "lint", 0, &["lint"]);
    t.commit_all("started");
    seen!(t, "diff", 0, &["diff", "--since", "HEAD~1"]);
    seen!(
        t,
        "complete_without_a_judge",
        0,
        &[
            "complete",
            "write-the-readme",
            "--evidence",
            "README.md is there",
            "--path",
            "README.md",
            "--judge",
            "none"
        ]
    );
    seen!(t, "audit", 0, &["audit"]);
    seen!(t, "checkpoints", 0, &["checkpoints"]);
    seen!(t, "events", 0, &["events"]);
    seen!(t, "report", 0, &["report", "--since", "2026-06-15"]);
    seen!(
        t,
        "reopen",
        0,
        &[
            "reopen",
            "write-the-readme",
            "--reason",
            "it needs a usage section"
        ]
    );
    seen!(
        t,
        "cancel",
        0,
        &["cancel", "publish", "--reason", "not this release"]
    );
    seen!(t, "archive", 0, &["archive"]);
    seen!(t, "claims", 0, &["claims"]);
    seen!(t, "judge", 0, &["judge"]);
    seen!(t, "export", 0, &["export"]);
    seen!(t, "remind", 0, &["remind"]);
    t.ok(&[
        "add",
        "Add a usage section",
        "--done-when",
        "README.md has a usage section",
    ]);
    seen!(
        t,
        "start_as",
        0,
        &["start", "add-a-usage-section", "--as", "alice"]
    );
    seen!(
        t,
        "release",
        0,
        &["release", "add-a-usage-section", "--as", "alice"]
    );
    seen!(t, "goal", 0, &["goal", "--budget", "3"]);
    seen!(t, "goal_status", 0, &["goal", "status"]);
    seen!(t, "goal_pause", 0, &["goal", "pause"]);
    seen!(t, "goal_resume", 0, &["goal", "resume"]);
    seen!(t, "goal_clear", 0, &["goal", "clear"]);
}

/// One of each kind of error: plan's usage error without and with a hint, a format
/// error quoted with its place, a check that failed, the environment, and clap's own.
#[test]
fn each_kind_of_error() {
    let t = Test::new();
    t.ok(&["init", "Ship the docs"]);
    t.ok(&[
        "add",
        "Write the README",
        "--done-when",
        "README.md exists",
        "--verify",
        "test -f README.md",
    ]);
    seen!(t, "error_usage", 2, &["tick", "write-the-readme", "1"]);
    seen!(
        t,
        "error_usage_with_a_hint",
        2,
        &["start", "write-the-reame"]
    );
    seen!(t, "error_clap_unknown_command", 2, &["frobnicate"]);
    seen!(t, "error_clap_missing_argument", 2, &["add"]);
    seen!(
        t,
        "error_check_failed",
        1,
        &[
            "complete",
            "write-the-readme",
            "--evidence",
            "done",
            "--judge",
            "none"
        ]
    );
    t.write(
        "plan.md",
        format!("{}<!-- notes to self\nremember the cache\n", t.plan_md()),
    );
    seen!(
        t,
        "error_format_on_write",
        2,
        &["subtask", "write-the-readme", "two"]
    );
    seen!(t, "error_format_in_lint", 1, &["lint"]);
    let outside = Test::outside_git();
    seen!(outside, "error_environment_no_repository", 3, &["show"]);
}

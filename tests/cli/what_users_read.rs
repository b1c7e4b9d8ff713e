//! What users and agents read, checked whole by snapshot (tests/cli/snapshots/): every
//! command's help, the task list, one goal in full, the injection, the reminder, the
//! continuation, errors with their hints, lint and audit. A change to any of them shows
//! as a snapshot diff to review, never as a substring that still happens to match.

use crate::hooks::{json, send};
use crate::setup::{plan, sign_off_ship, started};
use crate::util::{Run, Test, fixture};

/// Exit code, stdout and stderr of one run, with the test's temporary directory
/// written as `[TMP]`.
fn shown(t: &Test, run: &Run) -> String {
    let tmp = t.dir.path().to_str().unwrap();
    format!(
        "exit {}\n--- stdout\n{}--- stderr\n{}",
        run.code,
        run.stdout.replace(tmp, "[TMP]"),
        run.stderr.replace(tmp, "[TMP]")
    )
}

fn real() -> Test {
    Test::new().plan(&fixture("plans/real.md"))
}

#[test]
fn every_command_help() {
    let t = Test::new();
    let help = t.ok(&["--help"]).stdout;
    let commands: Vec<&str> = help
        .lines()
        .skip_while(|l| !l.starts_with("Everyday:"))
        .take_while(|l| !l.starts_with("Options:"))
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .collect();
    assert!(commands.len() > 30, "{help}");
    for command in commands {
        let run = t.ok(&[command, "--help"]);
        insta::assert_snapshot!(format!("help_{command}"), run.stdout);
    }
}

#[test]
fn the_task_list() {
    let t = real();
    insta::assert_snapshot!(shown(&t, &t.run(&[])));
    insta::assert_snapshot!("task_list_all", shown(&t, &t.run(&["show", "--all"])));
}

#[test]
fn one_goal_in_full() {
    let t = real();
    insta::assert_snapshot!(shown(&t, &t.run(&["show", "cache-layer"])));
}

#[test]
fn next() {
    let t = real();
    insta::assert_snapshot!(shown(&t, &t.run(&["next"])));
}

#[test]
fn the_injection() {
    let t = real();
    insta::assert_snapshot!(shown(&t, &t.run(&["inject"])));
}

#[test]
fn the_reminder() {
    let t = real();
    let mut last = None;
    for _ in 0..3 {
        last = Some(send(&t, "claude/post-tool-use.write", "s1"));
    }
    let answer = json(&last.unwrap());
    insta::assert_snapshot!(
        answer["hookSpecificOutput"]["additionalContext"]
            .as_str()
            .expect("a reminder after three edits")
    );
}

#[test]
fn the_continuation() {
    let t = real();
    t.ok(&["goal", "--budget", "5"]);
    let answer = t.stop_hook("s1").answer();
    assert_eq!(answer["decision"], "block");
    insta::assert_snapshot!(answer["reason"].as_str().unwrap());
}

#[test]
fn errors_and_hints() {
    let t = real();
    let cases: [(&str, &[&str]); 6] = [
        ("unknown_id", &["start", "cache-layr"]),
        ("tick_out_of_range", &["tick", "cache-layer", "9"]),
        ("complete_without_evidence", &["complete", "cache-docs"]),
        (
            "log_forging_an_event",
            &[
                "log",
                "cache-layer signed off (verify passed, judge accept)",
            ],
        ),
        ("init_twice", &["init", "again"]),
        ("unknown_status", &["lint"]),
    ];
    for (name, args) in cases {
        if name == "unknown_status" {
            t.write(
                "plan.md",
                fixture("plans/real.md").replace("status: open", "status: doing"),
            );
        }
        insta::assert_snapshot!(format!("error_{name}"), shown(&t, &t.run(args)));
    }
}

#[test]
fn lint_and_audit() {
    let t = real();
    insta::assert_snapshot!("lint_real", shown(&t, &t.run(&["lint"])));
    insta::assert_snapshot!("audit_real", shown(&t, &t.run(&["audit"])));
    let t = started(&plan("ship.md"));
    sign_off_ship(&t);
    insta::assert_snapshot!("audit_signed_off", shown(&t, &t.run(&["audit"])));
}

/// Issue 71: `plan --help` listed three variables only tests and scripts set; they
/// are for contributors, in docs/src/settings.md.
#[test]
fn help_lists_no_test_only_variable() {
    let t = Test::new();
    let help = t.ok(&["--help"]).stdout;
    let settings = std::fs::read_to_string(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/settings.md"),
    )
    .unwrap();
    for name in ["PLAN_TRACE_WRITES", "PLAN_TRACE_WAITS", "PLAN_TEST_PAUSE"] {
        assert!(!help.contains(name), "{name} in --help");
        assert!(
            settings.contains(name),
            "{name} not in docs/src/settings.md"
        );
    }
}

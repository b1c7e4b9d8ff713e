//! Issue 36's first day: what a newcomer meets from a fresh clone with the README
//! at hand (a verify whose program is missing, a command judge set inside the
//! repository, a hand-written duplicate title, events within one minute).

use crate::util::{Test, redact, shown};

const PLAN: &str = "# Plan: Ship\n\n## Goal: Tests\n<!-- id: tests -->\nstatus: active\ndone_when: the tests pass\n\n## Log\n";

/// A verify whose program cannot start (a typo, a builtin, a script not in the
/// repository) is a warning at `plan add` and `plan edit`, naming the program and
/// what to do; before, `plan add` said nothing.
#[test]
fn a_verify_whose_program_is_missing_is_a_warning_at_add_and_edit() {
    let t = Test::new().plan(PLAN);
    let add = t.ok(&[
        "add",
        "Typo",
        "--done-when",
        "it passes",
        "--verify",
        "pytset-not-installed -q",
    ]);
    insta::assert_snapshot!(shown(&t, &add));
    let edit = |verify: &str| t.ok(&["edit", "tests", "--verify", verify]);
    insta::assert_snapshot!(shown(&t, &edit("cd sub && cargo test")));
    insta::assert_snapshot!(shown(&t, &edit("./scripts/check.sh")));
    // A program on PATH: no warning.
    insta::assert_snapshot!(shown(&t, &edit("git status")));
}

/// At `plan complete`, a verify whose program cannot start is exit 3 naming the
/// program, with nothing written: no `sign-off rejected` line, no transcript.
/// Before, it wrote a permanent "sign-off rejected: `X` did not finish" and exited 1.
#[test]
fn a_verify_whose_program_is_missing_stops_complete_with_nothing_written() {
    for verify in ["pytset-not-installed -q", "cd sub && true", "./gone.sh"] {
        let t = Test::new().plan(&PLAN.replace(
            "done_when: the tests pass\n",
            &format!("done_when: the tests pass\nverify: {verify}\n"),
        ));
        t.commit_all("plan");
        let before = t.plan_md();
        let run = t
            .run(&["complete", "tests", "--evidence", "done", "--judge", "none"])
            .code(3);
        insta::assert_snapshot!(shown(&t, &run));
        assert_eq!(t.plan_md(), before, "{verify}");
        assert!(!t.path(".plan/judge").exists(), "{verify}: a transcript");
    }
}

/// Within one minute, `plan events` lists the loop's events where they happened
/// among plan.md's log lines: a continuation before the sign-off that followed it,
/// and the loop letting go after it. Before, every log line of the minute came first.
#[test]
fn events_within_a_minute_are_in_the_order_they_happened() {
    let t = Test::new().plan(
        "# Plan: Loop\n\n## Goal: Ship it\n<!-- id: ship -->\nstatus: active\ndone_when: README.md exists\nverify: test -f README.md\n\n## Log\n",
    );
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    t.write("README.md", "hi\n");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is there",
        "--judge",
        "none",
    ]);
    t.stop_hook("s1");
    let events: Vec<String> = t
        .ok(&["events", "--json"])
        .stdout
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["event"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    let at = |name: &str| {
        events
            .iter()
            .position(|e| e == name)
            .unwrap_or_else(|| panic!("no {name} in {events:?}"))
    };
    assert!(at("loop_continued") < at("signed_off"), "{events:?}");
    assert!(at("signed_off") < at("loop_let_go"), "{events:?}");
    let text = t.ok(&["events"]).stdout;
    insta::assert_snapshot!(redact(&t, &text));
}

/// A hand-written goal reusing a title with `Status: Active`: one `doctor --fix`
/// gives it an id of its own and rewrites its status line. Before, --fix did
/// nothing, and its advice told line 9 to wait for line 9.
#[test]
fn doctor_fix_resolves_a_title_used_twice_in_one_run() {
    let t = Test::new().plan(
        "# Plan: Ship\n\n## Goal: Ship\n<!-- id: ship -->\nstatus: active\ndone_when: it ships\n\n## Goal: Ship\nStatus: Active\ndone_when: it ships again\n\n## Log\n",
    );
    let before = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(redact(&t, &before.stdout));
    t.run(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert!(
        md.contains(
            "## Goal: Ship\n<!-- id: ship-2 -->\nstatus: active\ndone_when: it ships again\n"
        ),
        "{md}"
    );
    let after = t.run(&["doctor", "--json"]).json();
    let rules: Vec<&str> = after["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["rule"].as_str().unwrap())
        .collect();
    assert!(
        !rules
            .iter()
            .any(|r| ["duplicate-id", "no-id", "malformed-status"].contains(r)),
        "{rules:?}"
    );
    t.ok(&["show", "ship-2"]);
}

/// A goal --fix cannot repair names the lines to edit by hand and how, and never
/// asks a line to wait on itself.
#[test]
fn doctor_says_which_line_to_edit_by_hand() {
    let t = Test::new().plan(
        "# Plan: Ship\n\n## Goal: Ship\n<!-- id: ship -->\nstatus: active\ndone_when: it ships\n\n## Goal: Again\n<!-- id: ship -->\ndone_when: it ships again\n\n## Log\n",
    );
    let out = t.run(&["doctor"]).code(1).stdout;
    insta::assert_snapshot!(redact(&t, &out));
}

/// `plan --help` lists the everyday commands first, under their own heading, then
/// the rest grouped by what they are for. Before, 42 commands in one list.
#[test]
fn help_lists_the_everyday_commands_first() {
    let help = Test::outside_git().ok(&["--help"]).stdout;
    let after = &help[help.find("Everyday:\n").expect("an Everyday heading")..];
    let everyday: Vec<&str> = after
        .lines()
        .skip(1)
        .take_while(|l| !l.is_empty())
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .collect();
    assert_eq!(
        everyday,
        [
            "init", "add", "start", "tick", "log", "complete", "show", "install", "goal"
        ]
    );
    let headings = help
        .lines()
        .filter(|l| !l.starts_with(' ') && l.ends_with(':'))
        .count();
    assert!(headings >= 5, "{help}");
    assert!(help.find("Everyday:") < help.find("Options:"), "{help}");
}

/// `plan start` on a goal whose verify's program cannot start says so and logs
/// the start as `verify cannot-run`, as `plan add` warns and `plan complete`
/// refuses. Before, it ran it, said "verify failing, as it should before the
/// work" and logged a red run that checked nothing.
#[test]
fn a_start_whose_verify_program_is_missing_says_so_not_failing() {
    let t = Test::new().plan(
        "# Plan: Ship\n\n## Goal: Tests\n<!-- id: tests -->\nstatus: open\ndone_when: the tests pass\nverify: pytset-not-installed -q\n\n## Log\n",
    );
    t.commit_all("plan");
    insta::assert_snapshot!(shown(&t, &t.ok(&["start", "tests"])));
    let md = t.plan_md();
    assert!(md.contains(", verify cannot-run at "), "{md}");
    assert!(!md.contains("verify failing"), "{md}");
}

/// Issue 71: `--verify "ls *.py"` was taken with no word that `*` is never
/// expanded (verify runs without a shell); a `~` or a `$VAR` the same. `plan add`
/// now warns, and still adds the goal.
#[test]
fn a_verify_a_shell_would_expand_is_a_warning_at_add() {
    let t = Test::new().plan(PLAN);
    let add = t.ok(&[
        "add",
        "Globs",
        "--done-when",
        "it passes",
        "--verify",
        "ls *.py ~/x",
    ]);
    insta::assert_snapshot!(add.stderr, @"
    plan: warning: the verify of globs holds a glob and a `~`, which no shell expands: verify runs its words as written
      hint: name the files or paths themselves, or put the command in a script (`sh check.sh`)
    ");
    assert!(t.plan_md().contains("verify: ls *.py ~/x"));
    let quoted = t.ok(&[
        "add",
        "Quoted",
        "--done-when",
        "it passes",
        "--verify",
        "grep -q 'a.*b' README.md",
    ]);
    assert_eq!(quoted.stderr, "");
}

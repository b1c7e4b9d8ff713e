//! "No byte lost": constructs that would swallow writes, odd line endings, terminal
//! control sequences in plan text, and verify lines `complete` would refuse.

use crate::util::{Test, fixture_path, redact, shown};

const ONE_GOAL: &str = "# Plan: x

## Goal: Build
<!-- id: build -->
status: active
done_when: it builds
failure_modes:
- verify passes on a stale build
- [ ] one

## Log
- 2026-06-15 14:00 build started (contract 00000000)
";

#[test]
fn an_unclosed_comment_at_the_end_refuses_writes_and_fails_lint() {
    let md = format!("{ONE_GOAL}<!-- notes to self\nremember the cache\n");
    let t = Test::new().plan(&md);
    insta::assert_snapshot!(shown(&t, &t.run(&["subtask", "build", "two"]).code(2)));
    assert_eq!(t.plan_md(), md, "nothing written into the comment");
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn an_unclosed_fence_after_the_last_goal_refuses_writes() {
    // No `## Log` after it: the fence hides no heading, only where writes go.
    let md = ONE_GOAL
        .split_once("\n## Log")
        .unwrap()
        .0
        .replace("- [ ] one\n", "- [ ] one\n```sh\nmake\n");
    let t = Test::new().plan(&md);
    insta::assert_snapshot!(shown(&t, &t.run(&["subtask", "build", "two"]).code(2)));
    assert_eq!(t.plan_md(), md);
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn archive_refuses_a_plan_with_an_unclosed_comment() {
    let md = "# Plan: x\n\n## Goal: Old\n<!-- id: old -->\nstatus: cancelled\n\n## Log\n- 2026-06-15 14:00 x\n<!--\n";
    let t = Test::new().plan(md);
    insta::assert_snapshot!(shown(&t, &t.run(&["archive"]).code(2)));
    assert_eq!(t.plan_md(), md, "no goal moved out of sight");
}

#[test]
fn a_cr_only_file_is_refused_and_left_as_it_is() {
    let md = ONE_GOAL.replace('\n', "\r");
    let t = Test::new().plan(&md);
    insta::assert_snapshot!(shown(&t, &t.run(&["subtask", "build", "two"]).code(2)));
    assert_eq!(t.plan_md(), md);
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn archive_keeps_each_moved_line_s_own_ending() {
    // The file's first ending is LF; the goal being moved was written with CRLF.
    let md = "# Plan: x\n\n## Goal: Old\r\n<!-- id: old -->\r\nstatus: cancelled\r\nnote\n\n## Log\n- 2026-06-15 14:00 old cancelled: x\n";
    let t = Test::new().plan(md);
    t.ok(&["archive"]);
    let out = t.plan_md();
    let archived = out.split_once("## Archive\n\n").unwrap().1;
    assert_eq!(
        archived,
        "## Goal: Old\r\n<!-- id: old -->\r\nstatus: cancelled\r\nnote\n"
    );
}

const HOSTILE: &str = "# Plan: x\x1b]52;c;ZWNobyBwd25lZA==\x07

## Goal: Build \x1b[2J\x1b[31mred
<!-- id: build -->
status: active
done_when: it builds\x1b]0;title\x07
failure_modes:
- verify passes on a stale build
- [ ] step \x1b[8mhidden\u{9b}31m

## Log
- 2026-06-15 14:00 build started \x1b]52;c;cm0gLXJmIH4=\x07(contract 00000000)
";

#[test]
fn show_and_next_escape_terminal_control_sequences() {
    let t = Test::new().plan(HOSTILE);
    for args in [&["show"][..], &["next"]] {
        let out = t.ok(args).stdout;
        insta::assert_snapshot!(redact(&t, &out));
        no_raw_controls(&format!("{args:?}"), &out);
    }
}

/// What a terminal would act on is not printed raw: ESC, BEL and the C1 controls
/// (U+009B is a one-character CSI). A snapshot shows the escaped text; this says
/// why it matters, so no careless accept takes a raw one in.
fn no_raw_controls(what: &str, out: &str) {
    let raw = out
        .chars()
        .find(|&c| c == '\x1b' || c == '\x07' || ('\u{80}'..='\u{9f}').contains(&c));
    assert_eq!(raw, None, "{what} printed a raw control:\n{out}");
}

#[test]
fn lint_escapes_the_source_lines_it_quotes() {
    let md = "# Plan: x\n## Goal: A\x1b]52;c;eA==\x07\nstatus: doing\x1b[2J\n## Log\n";
    let t = Test::new().plan(md);
    let out = t.run(&["lint"]).code(1).stdout;
    insta::assert_snapshot!(redact(&t, &out));
    no_raw_controls("lint", &out);
}

#[test]
fn doctor_escapes_the_source_lines_it_quotes() {
    let md = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: doing\x1b]52;c;eA==\x07\n## Log\n";
    let t = Test::new().plan(md);
    let out = t.run(&["doctor"]).code(1).stdout;
    insta::assert_snapshot!(redact(&t, &out));
    no_raw_controls("doctor", &out);
}

#[test]
fn the_injection_strips_terminal_control_sequences() {
    let t = Test::new().plan(HOSTILE);
    let out = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(redact(&t, &out));
    no_raw_controls("inject", &out);
    assert!(
        !out.contains("ZWNobyBwd25lZA=="),
        "OSC payload kept:\n{out}"
    );
}

/// Attack (red team): the contract's fingerprint reads a no-break space as a
/// space, the command as part of a word, so a verify line could be changed with
/// no contract change seen. Such a line is refused where it would run, and lint
/// names it.
#[test]
fn a_verify_with_a_space_of_another_kind_cannot_run() {
    let md = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: x\nverify: python3 -m pytest\u{a0}-q tests\nfailure_modes:\n- verify is gamed\n\n## Log\n";
    let t = Test::new().plan(md);
    let run = t
        .run(&["complete", "a", "--evidence", "e", "--judge", "none"])
        .code(2);
    insta::assert_snapshot!(shown(&t, &run), @"
    exit 2
    --- stdout
    --- stderr
    plan: plan.md:7: verify: U+00A0 at column 18 looks like a space but is not one
      hint: write a plain space; to match the character itself, write it as an escape the program reads (`grep -P '\\x{00A0}'`)
    ");
    assert_eq!(t.plan_md(), md);
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)), @r#"
    exit 1
    --- stdout
    plan.md:7: the verify of "a" cannot run: U+00A0 at column 18 looks like a space but is not one [verify-cannot-run]
        7 | verify: python3 -m pytest -q tests
      hint: write a plain space; to match the character itself, write it as an escape the program reads (`grep -P '\x{00A0}'`)

    plan.md: 1 problem, 0 warnings
    --- stderr
    "#);
}

#[test]
fn add_refuses_a_verify_complete_would_refuse() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let before = t.plan_md();
    // Each snapshot names what is refused (`;`, `>`, `||`, the open quote) and hints.
    for verify in [
        "cargo test; rm -rf x",
        "cargo test > out.txt",
        "cargo test || true",
        "echo 'unclosed",
    ] {
        let run = t
            .run(&["add", "Thing", "--done-when", "x", "--verify", verify])
            .code(2);
        insta::assert_snapshot!(shown(&t, &run));
        assert_eq!(t.plan_md(), before, "{verify} was written");
    }
    // The very message `complete` gives for the same line, bar the place.
    let md = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: x\nverify: cargo test || true\nfailure_modes:\n- verify is gamed\n\n## Log\n";
    let c = Test::new().plan(md);
    let complete = c
        .run(&["complete", "a", "--evidence", "e", "--judge", "none"])
        .code(2)
        .stderr;
    let add = t
        .run(&[
            "add",
            "T",
            "--done-when",
            "x",
            "--verify",
            "cargo test || true",
        ])
        .code(2)
        .stderr;
    assert_eq!(
        complete.split_once(": verify: ").map(|(_, m)| m),
        add.split_once(": verify: ").map(|(_, m)| m),
        "complete said {complete:?}, add said {add:?}"
    );
    t.ok(&[
        "add",
        "Fine",
        "--done-when",
        "x",
        "--verify",
        "cargo test && cargo clippy | tee log",
    ]);
}

#[test]
fn complete_escapes_the_verify_line_it_shows() {
    let md = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: x\nverify: true '\x1b]52;c;eA==\x07'\nfailure_modes:\n- verify is gamed\n\n## Log\n";
    let t = Test::new().plan(md);
    t.commit_all("plan");
    let run = t.run(&["complete", "a", "--evidence", "e", "--judge", "none"]);
    insta::assert_snapshot!(shown(&t, &run));
    no_raw_controls("complete", &format!("{}{}", run.stdout, run.stderr));
}

#[test]
fn review_escapes_a_drafted_plan_it_shows() {
    let t = Test::new();
    let scratch = t.dir.path().to_path_buf();
    let t = t
        .env(
            "PLAN_FIXTURE_PROMPTS",
            scratch.join("prompts.txt").to_str().unwrap(),
        )
        .env(
            "PLAN_FIXTURE_STATE",
            scratch.join("state").to_str().unwrap(),
        );
    t.write(
        ".plan/config.yaml",
        format!(
            "draft:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            fixture_path("drafters/good").display()
        ),
    );
    t.ok(&["draft", "Ship the cache"]);
    // What a model drafted is untrusted text, shown to a person before approval.
    let path = t.path(".git/plan/proposal.json");
    let mut proposal: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    let draft = proposal["draft"].as_str().unwrap().replacen(
        "## Goal: Cache layer",
        "## Goal: Cache layer\x1b]52;c;cm0gLXJmIH4=\x07",
        1,
    );
    proposal["draft"] = draft.into();
    std::fs::write(&path, proposal.to_string()).unwrap();
    let out = t.ok(&["review"]).stdout;
    insta::assert_snapshot!(redact(&t, &out));
    no_raw_controls("review", &out);
}

/// A stderr whose reader is gone (`plan lint … 2>&1 | head -0`) cost the command a
/// panic (exit 101) at its first warning; the line is lost, the exit is plan's own.
#[test]
fn a_closed_stderr_is_no_panic() {
    let bin = env!("CARGO_BIN_EXE_plan");
    let out = std::process::Command::new("bash")
        .args([
            "-c",
            "\"$0\" lint --file /nonexistent/plan.md 2>&1 | head -c 0; echo \"${PIPESTATUS[0]}\"",
            bin,
        ])
        .output()
        .unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim(), "2");
}

/// A verify that exits 0 while its test runner says it ran no test (a test module
/// switched off by a `cfg`, a pattern that matches nothing) checked nothing: the
/// gate's red team passed broken Rust work so, `cargo test` reporting `0 passed`.
/// It fails the sign-off at verify, before any judge.
#[test]
fn a_verify_whose_runner_ran_no_test_does_not_pass() {
    let none = "printf 'running 0 tests\\n\\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\\n'";
    let t = crate::setup::verified_by(&[("check", none)]);
    let run = t.run(&[
        "complete",
        "ship",
        "--evidence",
        "done",
        "--path",
        "README.md",
    ]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
    // The whole line's output counts (the review's): nextest's tests, then cargo's
    // doc tests of a crate that has none, is a verify that ran tests.
    let nextest = "printf '     Summary [   0.010s] 3 tests run: 3 passed, 0 skipped\\n'";
    let t = crate::setup::verified_by(&[("nextest", nextest), ("check", none)]);
    let run = t.run(&["complete", "ship", "--evidence", "done"]);
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// A goal with a format error is left unchanged by every write, the warning says;
/// archive moved it anyway. Here a merge without the driver, its conflict resolved
/// "accept both", left two status lines: the goal was cancelled on one side and
/// started again on the other. Read as its first status, it went under
/// `## Archive`, out of sight, while the warning said it was left alone.
#[test]
fn archive_leaves_a_goal_with_a_format_error_where_it_is() {
    let md = "# Plan: x\n\n## Goal: Old\n<!-- id: old -->\nstatus: cancelled\nstatus: active\ndone_when: it works\n- [ ] the part started again\n\n## Goal: Done\n<!-- id: done -->\nstatus: cancelled\ndone_when: y\n\n## Log\n- 2026-06-15 14:00 old cancelled: x\n- 2026-06-15 14:01 done cancelled: y\n";
    let t = Test::new().plan(md);
    let run = t.run(&["archive"]);
    assert!(
        run.stderr
            .contains("format errors in goal old; those goals are left unchanged"),
        "{}",
        run.stderr
    );
    let after = t.plan_md();
    let archive = after.find("## Archive").expect("done is archived");
    assert!(after[archive..].contains("## Goal: Done"), "{after}");
    let old = after.find("## Goal: Old").unwrap();
    assert!(old < archive, "a goal with a format error moved:\n{after}");
    assert!(
        after.contains("## Goal: Old\n<!-- id: old -->\nstatus: cancelled\nstatus: active\ndone_when: it works\n- [ ] the part started again\n"),
        "{after}"
    );
}

/// Red team: `## Archive` followed by another section (`## Log`, `## Notes`):
/// archive appended the goals at the file's end, under that section, outside
/// `## Archive`. They go at the end of `## Archive`, before the next section.
#[test]
fn archive_puts_goals_under_an_archive_followed_by_another_section() {
    let md = "# Plan: x\n\n## Goal: Gone\n<!-- id: gone -->\nstatus: cancelled\ndone_when: y\n\n## Archive\n\n## Goal: Old\n<!-- id: old -->\nstatus: cancelled\ndone_when: z\n\n## Log\n- 2026-06-15 14:00 old cancelled: z\n- 2026-06-15 14:01 gone cancelled: y\n\n## Notes\nkept last\n";
    let t = Test::new().plan(md);
    t.ok(&["archive"]);
    let after = t.plan_md();
    let gone = after.find("## Goal: Gone").expect("gone kept");
    let archive = after.find("## Archive").unwrap();
    let log = after.find("## Log").unwrap();
    assert!(
        archive < gone && gone < log,
        "not under ## Archive:\n{after}"
    );
    assert!(
        after.contains("## Goal: Old\n<!-- id: old -->\nstatus: cancelled\ndone_when: z\n\n## Goal: Gone\n<!-- id: gone -->\nstatus: cancelled\ndone_when: y\n\n## Log\n"),
        "{after}"
    );
    assert!(after.ends_with("\n\n## Notes\nkept last\n"), "{after}");
    t.ok(&["audit"]);
}

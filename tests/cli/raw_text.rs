//! Text an agent writes, reaching a person raw: Markdown a reviewer approves from,
//! control characters in a transcript or an error. Each attack rendered or printed
//! the agent's text as it was before.

use crate::gate::{origin, rev};
use crate::util::{redact, shown};

// Attack: a cancel reason written as Markdown rendered in the `--markdown` summary
// a reviewer approves from: a bold fake "Passed.", a link, a hidden HTML comment.
#[test]
fn a_cancel_reason_is_code_quoted_in_the_markdown_summary() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let reason = "**Passed.** [x](http://e) <!-- c -->";
    t.ok(&["cancel", "ship", "--reason", reason]);
    t.commit_all("cancel");
    let run = t
        .run(&["audit", "--base", &base, "--markdown", "--strict"])
        .code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

// Attack: ESC, an OSC-8 link, CR and BEL in `--evidence` went raw into the
// committed transcript (and so into its `git diff --stat` and any terminal that
// shows it). Refused, naming the argument, before anything runs or is written.
#[test]
fn control_characters_in_evidence_are_refused_and_nothing_is_written() {
    let t = origin();
    let before = t.plan_md();
    for evidence in [
        "done \u{1b}[2J",
        "see \u{1b}]8;;http://e\u{1b}\\here\u{1b}]8;;\u{1b}\\",
        "passed\rfailed",
        "ding\u{7}",
        "csi \u{9b}31m",
    ] {
        let run = t
            .run(&[
                "complete",
                "ship",
                "--evidence",
                evidence,
                "--path",
                "README.md",
            ])
            .code(2);
        assert!(
            run.stderr.contains("--evidence holds a control character"),
            "{}",
            run.stderr
        );
        assert!(
            !run.stderr.contains(['\u{1b}', '\r', '\u{7}', '\u{9b}']),
            "{:?}",
            run.stderr
        );
    }
    assert_eq!(t.plan_md(), before);
    assert!(!t.path(".plan/judge").exists());
    // A line break and a tab are the evidence's own.
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md\n\tis written",
        "--path",
        "README.md",
    ]);
    let run = t
        .run(&[
            "complete",
            "ship",
            "--evidence",
            "a\u{1b}[31mred",
            "--path",
            "README.md",
            "--dry-run",
        ])
        .code(2);
    insta::assert_snapshot!(shown(&t, &run));
}

// Attack: a refused holder name was echoed raw in the error: an ESC sequence in
// `--as` or PLAN_SESSION reached the terminal as it was.
#[test]
fn a_refused_holder_name_is_echoed_escaped() {
    let t = origin();
    let name = "a\u{1b}]8;;http://e\u{7}b\u{1b}[2J";
    let by_flag = t.run(&["start", "ship", "--as", name]).code(2);
    insta::assert_snapshot!(shown(&t, &by_flag));
    let by_env = t
        .cmd(&["start", "ship"])
        .env("PLAN_SESSION", name)
        .output()
        .unwrap();
    assert_eq!(by_env.status.code(), Some(2));
    assert_eq!(String::from_utf8_lossy(&by_env.stderr), by_flag.stderr);
}

// Attack: a criterion's words, added to a base goal in the pull request, went into
// the contract change's line as Markdown: a fake bold verdict and a link rendered.
#[test]
fn a_contract_change_is_code_quoted_in_the_markdown_summary() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["subgoal", "ship", "**Passed.** [x](http://e) <!-- c -->"]);
    t.commit_all("a criterion");
    let run = t.run(&["audit", "--base", &base, "--markdown"]);
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

// Attack (issue 69, item 9): the pull request writes plan.md by hand, so a cancel
// reason can hold what `plan cancel --reason` would refuse: ESC sequences that clear
// a reviewer's terminal, recolour a line or draw an OSC-8 link, a C1 CSI. `plan
// audit`'s report, read in a terminal and in CI's log, shows each escaped, in every
// format, and the goal is still reported. A stray CR (which would overwrite a line)
// makes the file one plan refuses, and the refusal shows it escaped too.
#[test]
fn control_characters_a_pull_request_writes_reach_no_terminal_raw() {
    let raw = |text: &str| text.contains(['\u{1b}', '\r', '\u{9b}']);
    for forged in [
        "\u{1b}[2J\u{1b}[32m✓ proven\u{1b}]8;;http://e\u{1b}\\x\u{1b}]8;;\u{1b}\\ ok\u{9b}31m",
        "passed\rfailed",
    ] {
        let t = origin();
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.ok(&["cancel", "ship", "--reason", "REASON"]);
        t.write("plan.md", t.plan_md().replace("REASON", forged));
        t.commit_all("cancel");
        for format in [&[][..], &["--markdown"], &["--json"]] {
            let mut args = vec!["audit", "--base", &base, "--strict"];
            args.extend(format);
            let run = t.run(&args);
            let shown = if forged.contains('\r') {
                run.stderr.contains("carriage return")
            } else {
                run.stdout.contains("ship")
            };
            assert!(shown, "{format:?}: {:?}{:?}", run.stdout, run.stderr);
            assert!(
                !raw(&run.stdout) && !raw(&run.stderr),
                "{format:?}: {:?}{:?}",
                run.stdout,
                run.stderr
            );
        }
    }
}

// Red team (stop79-red2), attack on what else a pull request writes that plan
// prints: the repository's .plan/config.yaml is the agent's to write too, and
// `plan judge` printed its judge.model raw (ESC and C1 CSI), its judge.command
// through serde_json (C1 raw), and `plan judge model --global`'s note that the
// repository's value wins printed the model raw. Each shows escaped.
#[test]
fn control_characters_in_the_repositorys_judge_settings_reach_no_terminal_raw() {
    let raw = |text: &str| text.contains(['\u{1b}', '\u{9b}']);
    let t = crate::util::Test::new();
    t.write(
        ".plan/config.yaml",
        "judge:\n  backend: command\n  model: \"m\\e[2J\\u009b31mX\"\n  command: [\"/x/\\u009b31m\\e[1m\"]\n",
    );
    for args in [
        &["judge"][..],
        &["judge", "--json"],
        &["judge", "model", "--global", "foo"],
        &["judge", "command", "--global", "/nowhere/judge"],
    ] {
        let run = t.run(args);
        assert!(
            !raw(&run.stdout) && !raw(&run.stderr),
            "{args:?}: {:?}{:?}",
            run.stdout,
            run.stderr
        );
    }
    let run = t.ok(&["judge"]);
    assert!(run.stdout.contains("\\x1b[2J"), "{}", run.stdout);
}

//! Shell completion offers the plan's goal ids after every command that takes one
//! (clap_complete's dynamic completion: the shell asks `COMPLETE=SHELL plan --
//! plan ARGS…` at each TAB), says nothing outside a repository, and writes nothing.

use std::process::Command;

use crate::util::{BIN, Test, redact};

const PLAN: &str = "# Plan: Ids\n\n## Goal: Alpha\n<!-- id: alpha -->\nstatus: open\n\n## Goal: Beta\n<!-- id: beta -->\nstatus: active\n\n## Log\n";

/// What `shell` gets back for the command line `words` (the last word is the one
/// being completed), asked as the shell's script asks.
fn ask(t: &Test, shell: &str, words: &[&str]) -> (i32, String, String) {
    let mut args = vec!["--", "plan"];
    args.extend(words);
    let index = words.len().to_string();
    let out = t
        .cmd(&args)
        .env("COMPLETE", shell)
        .env("_CLAP_COMPLETE_INDEX", &index)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The values offered, without the help text zsh and fish get after them.
fn values(answer: &str) -> Vec<String> {
    answer
        .lines()
        .map(|l| l.split(['\t', ':']).next().unwrap_or("").to_string())
        .filter(|v| !v.is_empty())
        .collect()
}

#[test]
fn goal_ids_are_offered_after_commands_that_take_one() {
    let t = Test::new().plan(PLAN);
    for shell in ["bash", "zsh", "fish"] {
        for command in ["show", "start", "complete", "cancel", "reopen", "tick"] {
            let (code, out, err) = ask(&t, shell, &[command, ""]);
            assert_eq!((code, err.as_str()), (0, ""), "{shell} {command}");
            let offered = values(&out);
            assert!(
                offered.contains(&"alpha".to_string()) && offered.contains(&"beta".to_string()),
                "{shell}: plan {command} offered {offered:?}"
            );
        }
        // A prefix narrows them.
        let (_, out, _) = ask(&t, shell, &["show", "al"]);
        assert_eq!(values(&out), ["alpha"], "{shell}");
        // A title is not a goal id.
        let (code, out, _) = ask(&t, shell, &["add", ""]);
        assert_eq!(code, 0);
        let offered = values(&out);
        assert!(
            !offered.iter().any(|v| v == "alpha" || v == "beta"),
            "{shell}: plan add offered {offered:?}"
        );
    }
    // zsh and fish show each goal's title beside its id.
    let (_, out, _) = ask(&t, "zsh", &["start", "b"]);
    assert_eq!(out, "beta:Beta (active)");
    let (_, out, _) = ask(&t, "fish", &["start", "b"]);
    assert_eq!(out, "beta\tBeta (active)\n");
}

#[test]
fn outside_a_repository_no_ids_and_no_error() {
    let t = Test::outside_git();
    for shell in ["bash", "zsh", "fish"] {
        let (code, out, err) = ask(&t, shell, &["show", ""]);
        assert_eq!((code, err.as_str()), (0, ""), "{shell}");
        // Only `show`'s flags, which clap offers at an empty word.
        let offered = values(&out);
        assert!(offered.iter().all(|v| v.starts_with('-')), "{offered:?}");
        assert!(offered.contains(&"--all".to_string()), "{offered:?}");
        // Commands still complete.
        let (code, out, _) = ask(&t, shell, &["sta"]);
        assert_eq!(code, 0);
        assert!(values(&out).contains(&"start".to_string()), "{out}");
    }
}

#[test]
fn completing_writes_nothing() {
    let t = Test::new().plan(PLAN);
    let listing = |t: &Test| {
        let out = Command::new("find")
            .arg(t.dir.path())
            .arg("-printf")
            .arg("%p %s %T@\n")
            .output()
            .unwrap();
        let mut lines: Vec<String> = String::from_utf8_lossy(&out.stdout)
            .lines()
            .map(String::from)
            .collect();
        lines.sort();
        lines
    };
    let before = listing(&t);
    for shell in ["bash", "zsh", "fish"] {
        for words in [&["show", ""][..], &["complete", "a"], &[""]] {
            ask(&t, shell, words);
        }
    }
    assert_eq!(listing(&t), before);
}

/// The script `plan completions bash` prints, sourced in a real bash, fills
/// COMPREPLY with the goal ids at `plan show <TAB>`.
#[test]
fn the_bash_script_completes_goal_ids_in_bash() {
    let t = Test::new().plan(PLAN);
    std::os::unix::fs::symlink(BIN, t.bin().join("plan")).unwrap();
    let script = t.ok(&["completions", "bash"]).stdout;
    t.write("plan.bash", &script);
    let path = format!("{}:{}", t.bin().display(), crate::util::system_path());
    let out = Command::new("bash")
        .args([
            "--noprofile",
            "--norc",
            "-c",
            "source plan.bash; COMP_WORDS=(plan show ''); COMP_CWORD=2; _clap_complete_plan plan '' show; printf '%s\\n' \"${COMPREPLY[@]}\"",
        ])
        .current_dir(&t.cwd)
        .env("PATH", path)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    // The goal ids first; then the flags, which clap offers at an empty word.
    insta::assert_snapshot!(redact(&t, &stdout));
}

#[test]
fn the_help_says_goal_ids_are_completed() {
    let t = Test::new();
    let help = t.ok(&["completions", "--help"]).stdout;
    insta::assert_snapshot!(redact(&t, &help));
    let zsh = t.ok(&["completions", "zsh"]).stdout;
    insta::assert_snapshot!(redact(&t, &zsh));
}

/// `COMPLETE` left exported in a shell (or set by an agent) must not turn another
/// run of plan into a completion answer: git's merge driver would exit 0 having
/// printed a script and left `%A` as ours, dropping the other side's lines. Only a
/// shell's own request (`plan -- plan …`) or the script request (`plan` alone) is
/// answered.
#[test]
fn an_exported_complete_reaches_only_the_shells_requests() {
    let t = Test::new().plan(PLAN);
    let theirs = PLAN.replace("## Log\n", "## Log\n- 2026-06-15 14:05 docs next\n");
    t.write("base", PLAN);
    t.write("ours", PLAN);
    t.write("theirs", &theirs);
    for shell in ["bash", "zsh", "fish"] {
        t.write("ours", PLAN);
        let out = t
            .cmd(&["merge-driver", "base", "ours", "theirs", "plan.md"])
            .env("COMPLETE", shell)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{shell}");
        assert_eq!(t.read("ours"), theirs, "{shell}: the merge driver merged");
        let out = t.cmd(&["next"]).env("COMPLETE", shell).output().unwrap();
        let said = String::from_utf8_lossy(&out.stdout);
        insta::assert_snapshot!(redact(&t, &said));
    }
    // The script request still works.
    let out = t.cmd(&[]).env("COMPLETE", "bash").output().unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("COMPLETE"));
}

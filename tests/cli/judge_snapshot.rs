//! The judge judges a snapshot: the working tree as verify passed on it, checked
//! out where the judge runs. Other agents' commits, `plan start` and a sibling
//! worktree's git config meanwhile neither reject the sign-off nor reach the
//! judge; the judge's own writes, in its copy, its git dir and outside it, do.

use crate::util::{BIN, Test, redact, redact_with};

const PLAN: &str = "# Plan: Neighbours

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Goal: Other
<!-- id: other -->
status: open
done_when: OTHER.md exists
verify: test -f OTHER.md
failure_modes:
- OTHER.md is empty

## Log
";

/// A repository with `ship` started and `other` open, committed, judged by `judge`.
fn repo(judge: &str) -> Test {
    let t = Test::new().plan(PLAN);
    t.write("README.md", "# Hello\n");
    t.ok(&["start", "ship"]);
    t.judge(judge);
    t.commit_all("start");
    t
}

fn complete(t: &Test) -> crate::util::Run {
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ])
}

#[test]
fn a_sign_off_stands_while_the_neighbours_commit_start_goals_and_configure_git() {
    let t = repo("neighbours");
    let origin = t.dir.path().join("origin.git");
    let sibling = t.dir.path().join("sibling");
    t.git(&["init", "-q", "--bare", origin.to_str().unwrap()]);
    t.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    t.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "side",
        sibling.to_str().unwrap(),
    ]);
    let saw = t.dir.path().join("saw.txt");
    let root = t.root();
    let t = t
        .env("PLAN_NEIGHBOUR_REPO", root.to_str().unwrap())
        .env("PLAN_NEIGHBOUR_SIBLING", sibling.to_str().unwrap())
        .env("PLAN_NEIGHBOUR_PLAN", BIN)
        .env("PLAN_NEIGHBOUR_SAW", saw.to_str().unwrap());
    let run = complete(&t);
    // The neighbours did their work while the judge ran.
    assert_eq!(
        t.git(&["log", "-1", "--format=%s"]),
        "a neighbour's commit\n"
    );
    assert_eq!(t.git(&["config", "branch.side.remote"]), "origin\n");
    assert!(t.plan_md().contains("other started"), "{}", t.plan_md());
    let run = run.code(0);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let md = t.plan_md();
    assert!(md.contains("ship signed off"), "{md}");
    assert!(
        md.contains("## Goal: Other\n<!-- id: other -->\nstatus: active"),
        "{md}"
    );
    // None of it reached the judge: it saw the tree as verify passed on it.
    let saw = std::fs::read_to_string(&saw).unwrap();
    insta::assert_snapshot!(redact(&t, &saw));
    // The checkpoint is the tree the judge read.
    let checkpoint = t.git(&[
        "for-each-ref",
        "--format=%(objectname)",
        "refs/plan/checkpoints/ship/",
    ]);
    let files = t.git(&["ls-tree", "-r", "--name-only", checkpoint.trim()]);
    insta::assert_snapshot!(redact(&t, &files));
    let transcript = t.read(".plan/judge/ship-20260615-1402.md");
    insta::assert_snapshot!(redact_with(
        &t,
        &transcript,
        &[(checkpoint.trim(), "[CHECKPOINT ship]")]
    ));
}

/// A judge running `script` (sh), through the command backend.
fn command_judge(t: &Test, script: &str) {
    let judge = t.fake_program(
        "judge",
        &format!("cat >/dev/null\ncd \"$PLAN_JUDGE_TREE\" || exit 9\n{script}\nprintf 'VERDICT: accept\\nmissing: none\\n'\n"),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            judge.display()
        ),
    );
}

/// Each way a judge could write, and the name containment gives it.
#[test]
fn a_judges_own_writes_are_still_rejected() {
    let cases = [
        ("echo mine >>README.md", "README.md"),
        ("echo mine >fresh.txt", "fresh.txt"),
        ("sed -i 's/^status: open/status: done/' plan.md", "plan.md"),
        (
            "mkdir -p .git/hooks && printf '#!/bin/sh\\n' >.git/hooks/pre-commit",
            ".git/hooks/pre-commit",
        ),
        ("git config core.hooksPath /tmp", ".git/config"),
        ("git commit -q --allow-empty -m mine", "HEAD: main at"),
        ("echo out >../escaped.txt", "../escaped.txt"),
        (
            "git -C \"$PLAN_REAL_REPO\" config core.hooksPath /tmp",
            "the repository's git config core.hookspath",
        ),
        (
            "printf '#!/bin/sh\\n' >\"$PLAN_REAL_REPO/.git/hooks/post-checkout\"",
            "the repository's .git/hooks/post-checkout",
        ),
    ];
    for (script, named) in cases {
        let t = repo("accept");
        command_judge(&t, script);
        t.commit_all("judge");
        let root = t.root();
        let t = t.env("PLAN_REAL_REPO", root.to_str().unwrap());
        let run = complete(&t);
        assert_eq!(run.code, 1, "{script}: {}{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("the judge changed the working tree (")
                && run.stdout.contains(named),
            "{script}: {}",
            run.stdout
        );
        let md = t.plan_md();
        assert!(
            md.contains("sign-off rejected (containment)"),
            "{script}: {md}"
        );
        assert!(!md.contains("ship signed off"), "{script}: {md}");
    }
}

#[test]
fn the_copy_a_judge_wrote_in_is_kept_for_inspection_and_the_real_tree_is_untouched() {
    let t = repo("edits-file");
    let run = complete(&t).code(1);
    let kept = run
        .stdout
        .split("for you to inspect in ")
        .nth(1)
        .and_then(|rest| rest.split([';', '\n']).next())
        .unwrap_or_else(|| panic!("{}", run.stdout))
        .to_string();
    let kept = std::path::Path::new(&kept);
    assert_eq!(
        std::fs::read_to_string(kept.join("judge-was-here.txt")).unwrap(),
        "the judge was here\n"
    );
    assert!(!t.path("judge-was-here.txt").exists());
    std::fs::remove_dir_all(kept.parent().unwrap()).unwrap();
}

/// Evidence git ignores (passed with --allow-ignored) is in no checkpoint; the
/// judge is still shown it, and can open it.
#[test]
fn ignored_evidence_is_copied_for_the_judge() {
    let t = repo("accept");
    t.write(".gitignore", "*.log\n");
    t.commit_all("ignore");
    t.write("bench.log", "p95 41ms\n");
    let judge = t.fake_program(
        "judge",
        "prompt=$(cat)\ncase \"$prompt\" in *'p95 41ms'*) ;; *) exit 9 ;; esac\ncd \"$PLAN_JUDGE_TREE\" || exit 7\ntest -f bench.log || exit 8\nprintf 'VERDICT: accept\\nmissing: none\\n'\n",
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            judge.display()
        ),
    );
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "fast",
        "--path",
        "bench.log",
        "--allow-ignored",
    ]);
}

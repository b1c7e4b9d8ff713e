//! A user's text is echoed in excerpts (issue 35, item 7): a goal id of a megabyte
//! in plan.md, or on the command line, is named by its first 200 characters and a
//! count of the rest, never printed whole.

use crate::util::Test;

/// The quoted line of an id comment holding `n` letters, as every report shows it.
fn quoted(n: usize) -> String {
    format!(
        "    4 | <!-- id: {}… ({} more characters)",
        "a".repeat(191),
        n + 13 - 200
    )
}

/// Attack: a 10 MB goal id was echoed whole by `inject`, `show`, `next` and
/// `skeleton` on stderr and by `lint` and `doctor` on stdout (10,000,358 B).
/// Failed before (each printed the whole line). Now each prints its excerpt.
#[test]
fn a_huge_goal_id_in_plan_md_is_quoted_by_its_start() {
    let n = 1 << 20;
    let md = format!(
        "# Plan: x\n\n## Goal: A\n<!-- id: {} -->\nstatus: active\n\n## Log\n",
        "a".repeat(n)
    );
    let t = Test::new().plan(&md);
    for args in [
        &["inject"][..],
        &["show"],
        &["next"],
        &["skeleton"],
        &["lint"],
        &["doctor"],
    ] {
        let run = t.run(args);
        let both = format!("{}{}", run.stdout, run.stderr);
        assert!(both.len() < 8_000, "{args:?} printed {} bytes", both.len());
        assert!(both.lines().any(|l| l == quoted(n)), "{args:?}: {}", both);
    }
}

/// A goal id of 100,000 characters on the command line (about the most one
/// argument may hold) is named by its start in "no goal". Failed before.
#[test]
fn a_huge_goal_id_argument_is_named_by_its_start() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n");
    let id = "b".repeat(100_000);
    for command in ["show", "start"] {
        let run = t.run(&[command, &id]);
        assert_eq!(
            run.code,
            2,
            "{command}: {}",
            &run.stderr[..run.stderr.len().min(500)]
        );
        assert_eq!(
            run.stderr,
            format!(
                "plan: no goal \"{}… (99800 more characters)\"\n  hint: goals are a\n",
                "b".repeat(200)
            ),
            "{command}"
        );
    }
}

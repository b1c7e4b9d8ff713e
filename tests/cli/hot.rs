//! The hook hot path (issue 13): what a hook must not do when it has nothing to
//! gain by it — ask the loop judge once the budget is spent, rewrite state that did
//! not change — and the hook-path cache answering exactly as the fresh path does.

use crate::util::{Test, fixture_path, shown};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
failure_modes:
- cache bypassed
- [x] wire client
- [ ] eviction policy

## Log
- 2026-06-15 14:02 client wired
";

/// A loop whose budget is spent ends without waiting on a model: the judge
/// fixture logs every call, and the spent stop must add none.
#[test]
fn a_stop_whose_budget_is_spent_asks_no_loop_judge() {
    let t = Test::new().plan(PLAN);
    let judge = fixture_path("judges/loop-continue");
    // The person's own settings: only they turn the loop judge on.
    t.write(
        "../home/.config/plan/config.yaml",
        format!(
            "loop:\n  judge: on\njudge:\n  backend: command\n  command: [\"{}\"]\n",
            judge.display()
        ),
    );
    let calls = t.dir.path().join("calls.log");
    let t = t.env("PLAN_FIXTURE_LOG", calls.to_str().unwrap());
    t.ok(&["goal", "--budget", "1"]);
    insta::assert_snapshot!(shown(&t, &t.stop_hook("s1")));
    let asked = |path: &std::path::Path| {
        std::fs::read_to_string(path)
            .unwrap_or_default()
            .matches("fixture=loop-continue")
            .count()
    };
    assert_eq!(asked(&calls), 1, "the running loop asks the judge once");
    t.write(
        "plan.md",
        PLAN.replace("- [ ] eviction", "- [ ] the eviction"),
    );
    insta::assert_snapshot!(shown(&t, &t.stop_hook("s1")));
    assert_eq!(asked(&calls), 1, "a spent budget asked the loop judge");
}

/// `plan inject` and `plan statusline` skip clap when given nothing else; what they
/// print and exit with is what the same command read by clap gives (`--color auto`
/// is the default, and forces the clap path): outside a repository, without a
/// plan, with format errors, on a sound plan, and with PLAN_FILE set.
#[test]
fn inject_and_statusline_answer_as_through_clap() {
    let same = |t: &Test, what: &str| {
        for word in ["inject", "statusline"] {
            let fast = t.run(&[word]);
            let clap = t.run(&["--color", "auto", word]);
            assert_eq!(
                (fast.code, &fast.stdout, &fast.stderr),
                (clap.code, &clap.stdout, &clap.stderr),
                "plan {word}, {what}"
            );
        }
    };
    same(&Test::outside_git(), "outside a repository");
    let t = Test::new();
    same(&t, "without plan.md");
    let t = t.plan(&PLAN.replace("status: active", "status: doing"));
    same(&t, "with a format error");
    let t = t.plan(PLAN);
    same(&t, "on a sound plan");
    t.write("other.md", PLAN.replace("Implement", "Rewrite"));
    let t = t.env("PLAN_FILE", "other.md");
    same(&t, "with PLAN_FILE");
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
}

//! Red team, third pass: attacks on the sign-off record and the write path by a
//! dishonest agent with a shell. Each still ignored is an open gap.

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

## Goal: Other
<!-- id: other -->
status: open
done_when: OTHER.md exists
verify: test -f OTHER.md
failure_modes:
- OTHER.md is empty

## Log
";

/// `ship` started through plan, judged by the accepting command fixture.
fn repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
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

/// Signed off, committed, reopened, committed: the state the attacks start from.
fn reopened() -> Test {
    let t = repo();
    sign_off(&t);
    t.ok(&["audit"]);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "verify fails again"]);
    t.commit_all("reopened");
    t
}

fn line_with<'a>(md: &'a str, needle: &str) -> &'a str {
    md.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}:\n{md}"))
}

/// A reopen undone by moving its line above the sign-off line (no line added or
/// removed): audit finds plan's lines out of their committed order, and the proof
/// check finds them out of time order when their stamps differ.
#[test]
fn a_reopen_line_moved_above_the_sign_off_does_not_undo_the_reopen() {
    let t = reopened();
    let md = t.plan_md();
    let signed = line_with(&md, "ship signed off").to_string();
    let reopen = line_with(&md, "ship reopened:").to_string();
    let swapped = md
        .replace(&signed, "\u{0}")
        .replace(&reopen, &signed)
        .replace('\u{0}', &reopen)
        .replace("status: active", "status: done");
    t.write("plan.md", &swapped);
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopen moved above its sign-off is forgotten:\n{}",
        run.stdout
    );
    run.stdout_has("ship reopened:")
        .stdout_has("was moved since");
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "once committed, a reordered log proves the goal:\n{}",
        run.stdout
    );
    run.stdout_has("was moved since");
}

/// A copy of the old transcript under a new name (same bytes, so the same hash),
/// named by a new sign-off line appended after a reopen: the replay check keys on
/// the hash as well as the path, so it is the same transcript backing two sign-offs.
#[test]
fn a_transcript_copied_under_a_new_name_does_not_undo_a_reopen() {
    let t = reopened();
    let md = t.plan_md();
    let signed = line_with(&md, "ship signed off").to_string();
    let old = ".plan/judge/ship-20260615-1402.md";
    let new = ".plan/judge/ship-20260615-1409.md";
    t.write(new, t.read(old));
    let forged = signed.replace("14:02", "14:09").replace(old, new);
    t.write(
        "plan.md",
        format!("{}{forged}\n", md.replace("status: active", "status: done")),
    );
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a copied transcript proves a reopened goal:\n{}",
        run.stdout
    );
    run.stdout_has("an earlier sign-off already used");
}

/// A reopen line edited to name another goal: `ship` has no reopen after its
/// sign-off any more, and `other` (open) takes the blame harmlessly.
#[test]
fn a_reopen_line_edited_into_another_id_does_not_undo_the_reopen() {
    let t = reopened();
    let md = t
        .plan_md()
        .replace("ship reopened:", "other reopened:")
        .replace("status: active", "status: done");
    t.write("plan.md", &md);
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopen moved onto another goal is forgotten:\n{}",
        run.stdout
    );
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "once committed, the renamed reopen proves the goal:\n{}",
        run.stdout
    );
}

fn command_judge(t: &Test, script: &str) {
    let judge = t.fake_program("judge", &format!("cat >/dev/null\n{script}"));
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            judge.display()
        ),
    );
}

/// The judge's containment check leaves plan.md out (a person may edit it while
/// the judge runs), so a judge that rewrote plan.md went unnoticed: here it weakens
/// the open goal `other` to `verify: true` and drops its failure mode. The sign-off
/// of `ship` now stands only on the plan it started from.
#[test]
fn a_judge_that_edits_plan_md_fails_the_sign_off() {
    let t = repo();
    command_judge(
        &t,
        "sed -i -e 's/verify: test -f OTHER.md/verify: true/' -e '/OTHER.md is empty/d' plan.md\n\
         printf 'VERDICT: accept\\nmissing: none\\n'",
    );
    t.commit_all("judge");
    let run = t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    let md = t.plan_md();
    assert_ne!(
        run.code, 0,
        "a judge rewrote plan.md and the sign-off passed:\n{}{}",
        run.stdout, run.stderr
    );
    // The judge reads a copy of the tree now: its edit lands there, and
    // containment names it (plan.md is left out of that check no longer).
    assert!(
        run.stdout
            .contains("the judge changed the working tree (plan.md) in the copy"),
        "{}",
        run.stdout
    );
    assert!(!md.contains("verify: true"), "{md}");
    assert!(!md.contains("ship signed off"), "{md}");
}

/// The verify stage leaves plan.md out of its change check too: a verify that
/// hides another goal, or finishes it by hand, while `ship` is checked.
#[test]
fn a_verify_that_edits_plan_md_fails_the_sign_off() {
    for (edit, said) in [
        (
            "sed -i '/^## Goal: Other/,/OTHER.md is empty/d' plan.md",
            "goal other disappeared",
        ),
        (
            "sed -i 's/^status: open/status: cancelled/' plan.md",
            "goal other went from open to cancelled",
        ),
    ] {
        let t = Test::new();
        t.write("README.md", "# Hello\n");
        let check = t.fake_program("check", &format!("{edit}\ntest -f README.md"));
        let md = PLAN.replace(
            "verify: test -f README.md",
            &format!("verify: {}", check.display()),
        );
        t.write("plan.md", md);
        t.judge("accept");
        t.ok(&["start", "ship"]);
        t.commit_all("start");
        let run = t.run(&[
            "complete",
            "ship",
            "--evidence",
            "done",
            "--path",
            "README.md",
        ]);
        assert_ne!(
            run.code, 0,
            "{edit}: the sign-off passed:\n{}{}",
            run.stdout, run.stderr
        );
        assert!(run.stderr.contains(said), "{edit}: {}", run.stderr);
        assert!(!t.plan_md().contains("ship signed off"), "{}", t.plan_md());
    }
}

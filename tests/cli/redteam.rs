//! Red team: attacks on "done means done" found by an adversarial pass, each a test
//! of what plan must do.

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

## Log
";

/// `ship` added and started through plan, judged by the accepting command fixture.
fn repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

fn fingerprint(t: &Test, id: &str) -> String {
    let json = t.ok(&["show", "--json", "--all"]).json();
    json["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == id)
        .unwrap()["contract"]
        .as_str()
        .unwrap()
        .to_string()
}

/// The judge a sign-off line claims is not checked against the transcript's header:
/// a `--judge none` sign-off (header `judge: none`) edited to read `judge
/// claude:opus accept` loses its "signed off without a judge" warning.
#[test]
fn a_sign_off_line_edited_to_name_another_judge_is_caught() {
    let t = repo();
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--judge",
        "none",
    ]);
    t.ok(&["audit"]).stdout_has("signed off without a judge");
    let md = t.plan_md();
    assert!(md.contains("judge skipped"), "{md}");
    t.write(
        "plan.md",
        md.replace("judge skipped", "judge claude:opus accept"),
    );
    // The transcript still says `- judge: none`: the line lies about who judged.
    let run = t.run(&["audit"]);
    assert!(
        run.code != 0 || run.stdout.contains("without a judge"),
        "a laundered sign-off shows as judged by a model:\n{}",
        run.stdout
    );
}

/// Same with a command judge: its warning disappears when the line is edited.
#[test]
fn a_command_judge_sign_off_cannot_pass_for_a_model_judge() {
    let t = repo();
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit"]).stdout_has("judged by a command judge");
    t.write(
        "plan.md",
        t.plan_md()
            .replace("judge command accept", "judge claude:opus accept"),
    );
    let run = t.run(&["audit"]);
    assert!(
        run.code != 0 || run.stdout.contains("command judge"),
        "a command judge passes for claude:\n{}",
        run.stdout
    );
}

/// A `plan cancel` of an earlier goal with the same id proves a later goal that
/// was cancelled by hand: the cancel check looks at any cancel event for the id,
/// even one logged before the goal was added.
#[test]
fn a_reused_id_does_not_inherit_an_old_cancel() {
    let t = Test::new();
    t.ok(&["init", "x"]);
    t.ok(&["add", "Spike", "--done-when", "try it"]);
    t.ok(&["cancel", "spike", "--reason", "not needed"]);
    // The cancelled goal is deleted by hand, and a new goal gets the same id.
    let md = t.plan_md();
    let start = md.find("## Goal: Spike").unwrap();
    let end = md.find("## Log").unwrap();
    t.write("plan.md", format!("{}{}", &md[..start], &md[end..]));
    t.ok(&[
        "add",
        "Spike",
        "--done-when",
        "the real feature ships",
        "--failure-mode",
        "it is skipped",
    ]);
    let md = t.plan_md();
    assert!(md.contains("<!-- id: spike -->"), "{md}");
    // The agent drops it by hand.
    t.write(
        "plan.md",
        md.replacen("status: open", "status: cancelled", 1),
    );
    t.run(&["audit"]).code(1).stdout_has("cancelled by hand");
}

/// `plan audit --reverify` runs the verify line again, but the script it names can
/// be gutted after the sign-off: the goal stays proven and reverify passes though
/// what the judge saw (the script's text, in the transcript) is gone.
#[test]
fn reverify_notices_a_verify_script_gutted_after_sign_off() {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("check.sh", "test -s README.md\n");
    t.write(
        "plan.md",
        PLAN.replace("verify: test -f README.md", "verify: sh check.sh"),
    );
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit", "--reverify"])
        .stdout_has("reverify: passed");
    // The work regresses, and the check is gutted to hide it.
    t.write("README.md", "");
    t.write("check.sh", "exit 0\n");
    let run = t.run(&["audit", "--reverify"]);
    assert!(
        run.code != 0,
        "a gutted verify script still reverifies:\n{}",
        run.stdout
    );
    run.stdout_has("own files changed since the sign-off (check.sh)");
    // The script restored: the check is the signed-off one again, and it runs.
    t.write("check.sh", "test -s README.md\n");
    t.run(&["audit", "--reverify"])
        .code(1)
        .stdout_has("reverify: failed");
    t.write("README.md", "# Hello\n");
    t.ok(&["audit", "--reverify"])
        .stdout_has("reverify: passed");
}

/// The contract fingerprint is 32 bits. A weakened contract (verify `true`, the
/// failure mode gone) with a nonce ground offline to give the same 8 hex digits
/// keeps the real sign-off standing: proven, though the judge saw another contract.
#[test]
fn a_weakened_contract_with_a_colliding_fingerprint_is_unproven() {
    let t = repo();
    let before = fingerprint(&t, "ship");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit"]);
    // Found with about 2^32 SHA-1 trials (a few minutes on two cores).
    let weakened = t
        .plan_md()
        .replace("verify: test -f README.md", "verify: true")
        .replace(
            "- README.md is empty",
            "- verify may pass on a trivial or gamed test, id 1000000027a02b96",
        );
    t.write("plan.md", &weakened);
    assert_eq!(
        fingerprint(&t, "ship"),
        before,
        "the collision no longer holds"
    );
    t.run(&["audit"])
        .code(1)
        .stdout_has("changed after the sign-off");
}

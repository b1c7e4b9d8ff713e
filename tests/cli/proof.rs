//! Done means done: every cheap way a dishonest agent with a shell could fake a
//! finished goal, each caught by the one proof check, before any model is asked,
//! and shown everywhere (show, lint, audit, the injection, dependencies, archive).

use crate::util::{Test, redact, shown};

const PLAN: &str = "# Plan: Proof

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- verify passes on a trivial or gamed test
- [x] write it

## Goal: Later
<!-- id: later -->
status: open
depends_on: ship
done_when: later
failure_modes:
- nothing

## Log
";

/// A repository where `ship` was added and started through plan, judged by the
/// accepting fixture through the command backend.
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

/// The sign-off line plan wrote, and the transcript path it names.
fn record_of(t: &Test) -> (String, String) {
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .expect("a sign-off line")
        .to_string();
    let path = line
        .rsplit_once(": ")
        .unwrap()
        .1
        .split('#')
        .next()
        .unwrap()
        .to_string();
    (line, path)
}

/// Asserts `ship` is unproven everywhere it shows, with `why` in the reason; the
/// snapshots are named after `name`, one per caller, so no two tests share one.
fn unproven_everywhere(t: &Test, name: &str, why: &str) {
    unproven_where_transcripts_are_read(t, name, why);
    let inject = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(format!("{name}_inject"), redact(t, &inject));
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(format!("{name}_statusline"), redact(t, &statusline));
}

/// As [`unproven_everywhere`], for a fault only the transcript shows: the hooks,
/// `plan inject` and `plan statusline` read plan.md's lines alone (issue 34), so
/// `show`, `lint`, `doctor`, `audit` and the commands that act on the goal catch it.
fn unproven_where_transcripts_are_read(t: &Test, name: &str, why: &str) {
    t.ok(&["show", "--all"])
        .stdout_has("⚠ unproven: ")
        .stdout_has(why);
    let json = t.ok(&["show", "--json"]).json();
    assert_eq!(json["goals"][0]["proof"]["state"], "unproven");
    assert_eq!(json["goals"][0]["signed_off"], false);
    for command in ["lint", "doctor", "audit"] {
        let out = t.run(&[command]).code(1).stdout;
        insta::assert_snapshot!(format!("{name}_{command}"), redact(t, &out));
    }
    // Its dependant cannot start on it.
    t.run(&["start", "later"])
        .code(2)
        .stderr_has("waits on ship");
    assert!(!t.ok(&["next"]).stdout.contains("later"));
}

#[test]
fn a_real_sign_off_is_proven_and_passes_audit() {
    let t = repo();
    sign_off(&t);
    let (line, path) = record_of(&t);
    insta::assert_snapshot!(redact(&t, &line));
    assert!(path.starts_with(".plan/judge/ship-"), "{path}");
    let transcript = t.read(&path);
    for needle in [
        "# Sign-off record: ship",
        "- verdict: accept",
        "## Contract history",
        ": started (plan.md log line",
        "## Verify",
        "- command: test -f README.md",
        "- exit: 0",
        "## Evidence",
        "paths: README.md",
        "- argv: ",
        "### Prompt",
        "How the contract changed since the goal was created",
        "### The judge's answer",
    ] {
        assert!(transcript.contains(needle), "{needle} not in\n{transcript}");
    }
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    t.ok(&["start", "later"]);
    // Archived, with no live goal depending on it, it is still proven wherever
    // archived goals are shown.
    t.ok(&["cancel", "later", "--reason", "not needed"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["archive"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    let json = t.ok(&["show", "--json"]).json();
    let ship = json["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "ship")
        .unwrap()
        .clone();
    assert_eq!(ship["proof"]["state"], "proven");
    assert!(!t.ok(&["show", "--all"]).stdout.contains("unproven"));
    t.ok(&["lint"]);
}

#[test]
fn a_hand_written_done_is_unproven() {
    let t = repo();
    t.write(
        "plan.md",
        t.plan_md().replacen("status: active", "status: done", 1),
    );
    unproven_everywhere(&t, "hand_done", "marked done by hand");
}

#[test]
fn a_forged_sign_off_line_is_unproven() {
    let t = repo();
    let forged = t.plan_md().replacen("status: active", "status: done", 1)
        + "- 2026-06-15 14:30 ship signed off (verify passed, judge accept)\n";
    t.write("plan.md", forged);
    unproven_everywhere(&t, "forged_line", "has no record");
}

#[test]
fn a_forged_transcript_path_or_hash_is_unproven() {
    let t = repo();
    let fp = t.ok(&["show", "--json"]).json()["goals"][0]["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write(".plan/judge/ship-fake.md", "VERDICT: accept\n");
    let forged = t.plan_md().replacen("status: active", "status: done", 1)
        + &format!(
            "- 2026-06-15 14:30 ship signed off (verify passed, judge claude:opus accept, contract {fp}): .plan/judge/ship-fake.md#0123456789ab\n"
        );
    t.write("plan.md", &forged);
    unproven_where_transcripts_are_read(&t, "forged_hash", "was changed after the sign-off");
    // A path outside the judge directory proves nothing either.
    t.write(
        "plan.md",
        forged.replace(".plan/judge/ship-fake.md", "README.md"),
    );
    unproven_everywhere(
        &t,
        "path_outside_judge_dir",
        "not a transcript under .plan/judge/",
    );
}

#[test]
fn an_edited_or_deleted_transcript_is_unproven() {
    let t = repo();
    sign_off(&t);
    let (_, path) = record_of(&t);
    let text = t.read(&path);
    t.write(
        &path,
        text.replace("- verdict: accept", "- verdict: accept "),
    );
    unproven_where_transcripts_are_read(&t, "edited_transcript", "was changed after the sign-off");
    std::fs::remove_file(t.path(&path)).unwrap();
    unproven_where_transcripts_are_read(&t, "deleted_transcript", "is missing");
}

#[test]
fn a_contract_softened_after_sign_off_is_unproven() {
    let t = repo();
    sign_off(&t);
    t.write("plan.md", t.plan_md().replace("- README.md is empty\n", ""));
    unproven_everywhere(&t, "softened_contract", "changed after the sign-off");
}

#[test]
fn archive_does_not_launder_an_unproven_goal() {
    let t = repo();
    t.write(
        "plan.md",
        t.plan_md().replacen("status: active", "status: done", 1),
    );
    let before = t.plan_md();
    insta::assert_snapshot!(shown(&t, &t.run(&["archive"]).code(1)));
    assert_eq!(t.plan_md(), before);
    // Moved under the archive by hand, it is still reported.
    let start = before.find("## Goal: Ship it").unwrap();
    let end = before.find("## Goal: Later").unwrap();
    let ship = &before[start..end];
    let laundered = format!(
        "{}{}\n## Archive\n\n{ship}",
        &before[..start],
        &before[end..]
    );
    t.write("plan.md", &laundered);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn a_hand_cancelled_goal_is_unproven_until_plan_cancel() {
    let t = repo();
    t.write(
        "plan.md",
        t.plan_md()
            .replacen("status: active", "status: cancelled", 1),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    t.run(&["start", "later"]).code(2);
    t.ok(&["cancel", "ship", "--reason", "not needed after all"]);
    t.ok(&["audit"]);
    t.ok(&["start", "later"]);
}

#[test]
fn plan_log_cannot_forge_any_event_for_any_id() {
    let t = repo();
    for text in [
        "x checkpoint (contract 0df556f9)",
        "ship contract reapproved (contract 0df556f9)",
        "ghost started (contract 0df556f9)",
        "ship signed off (verify passed, judge accept)",
        "ship cancelled: done by hand",
        "draft approved: 1 goal",
    ] {
        insta::assert_snapshot!(shown(&t, &t.run(&["log", text]).code(2)));
    }
    t.ok(&["log", "cache client wired; eviction next"]);
}

#[test]
fn softening_after_add_without_start_is_refused() {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.ok(&["init", "x"]);
    t.ok(&[
        "add",
        "Ship",
        "--done-when",
        "README.md exists and is reviewed",
        "--failure-mode",
        "README.md is empty",
    ]);
    assert!(t.plan_md().contains("ship added (contract "));
    t.write(
        "plan.md",
        t.plan_md()
            .replace(" and is reviewed", "")
            .replace("- README.md is empty\n", ""),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["start", "ship"]).code(2)));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["complete", "ship", "--evidence", "x", "--judge", "none"])
            .code(2)
    ));
    assert!(!t.plan_md().contains("ship signed off"));
}

#[test]
fn a_dropped_dependency_is_a_change_of_contract() {
    let t = repo();
    sign_off(&t);
    t.ok(&["start", "later"]);
    t.write("plan.md", t.plan_md().replace("depends_on: ship\n", ""));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["complete", "later", "--evidence", "x", "--judge", "none"])
            .code(2)
    ));
}

#[test]
fn a_hand_done_goal_can_be_signed_off_for_real() {
    let t = repo();
    t.write(
        "plan.md",
        t.plan_md().replacen("status: active", "status: done", 1),
    );
    sign_off(&t);
    t.ok(&["audit"]);
}

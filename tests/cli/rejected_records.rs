//! Done means done: a judge's reject never becomes a proof. A transcript a
//! `sign-off rejected` line names cannot back a sign-off, whatever its header says
//! now; and a transcript backs a sign-off only when the judge answer it records reads
//! (with plan's own verdict parser) as an accept from the judge its header names,
//! or, for `judge: none`, records no answer at all.

use crate::util::{Test, shown};

const PLAN: &str = "# Plan: Rejected

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Log
";

/// A `claude` on PATH that reads its prompt and rejects, as `claude -p
/// --output-format json` prints a result.
const CLAUDE_REJECTS: &str = r#"cat >/dev/null
printf '%s\n' '{"type":"result","subtype":"success","is_error":false,"result":"The README is empty.\n\nVERDICT: reject\nmissing:\n- README.md has no content","session_id":"x"}'
"#;

/// ship started and committed, a rejecting `claude` on PATH.
fn repo() -> Test {
    let t = Test::new().with_bin();
    t.fake_program("claude", CLAUDE_REJECTS);
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

fn header_value(text: &str, key: &str) -> String {
    text.lines()
        .find_map(|l| l.strip_prefix(&format!("- {key}: ")))
        .unwrap_or_else(|| panic!("no `- {key}:` in\n{text}"))
        .to_string()
}

/// The transcript the rejected line names, from its trailing `(path)`.
fn rejected_transcript(t: &Test) -> String {
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains("ship sign-off rejected"))
        .unwrap_or_else(|| panic!("no rejected line in\n{md}"));
    let path = line.rsplit_once(" (").unwrap().1.trim_end_matches(')');
    assert!(path.starts_with(".plan/judge/ship-"), "{line}");
    path.to_string()
}

/// Steps 2 to 4 of the forgery: `transcript` written at `path`, the checkpoint ref
/// pointed at the tree it names (if any), `status: done` and a sign-off line naming
/// it with `judged`, committed.
fn forge(t: &Test, path: &str, transcript: &str, judged: &str) {
    t.write(path, transcript);
    let hash = t.git(&["hash-object", path]).trim()[..12].to_string();
    let when = header_value(transcript, "when");
    let checkpoint = transcript
        .lines()
        .find_map(|l| l.strip_prefix("- tree judged: "))
        .map(|l| l.split(' ').next().unwrap().to_string());
    let mut line = format!(
        "- {when} ship signed off (verify passed, {judged}, contract {}): {path}#{hash}",
        fingerprint(t)
    );
    if let Some(commit) = checkpoint {
        let compact = when.replace(['-', ':'], "").replace(' ', "-");
        t.git(&[
            "update-ref",
            &format!("refs/plan/checkpoints/ship/{compact}"),
            &commit,
        ]);
        line.push_str(&format!(" (checkpoint {})", &commit[..12]));
    }
    let md = t.plan_md().replacen("status: active", "status: done", 1);
    t.write("plan.md", format!("{md}{line}\n"));
    t.commit_all("ship done");
}

fn fingerprint(t: &Test) -> String {
    let json = t.ok(&["show", "--json", "--all"]).json();
    json["goals"][0]["contract"].as_str().unwrap().to_string()
}

/// ship's proof state and the whole proof, as `plan show --json` says.
fn proof(t: &Test) -> (String, String) {
    let json = t.ok(&["show", "--json", "--all"]).json();
    let proof = &json["goals"][0]["proof"];
    (
        proof["state"].as_str().unwrap().to_string(),
        proof.to_string(),
    )
}

/// Every surface that reads transcripts finds ship unproven, for `why`: the status
/// line reads plan.md's lines alone (issue 34), `show` and the gate read the record.
fn unproven_everywhere(t: &Test, why: &str) {
    let (state, proof) = proof(t);
    assert_eq!(state, "unproven", "a forged record proves ship: {proof}");
    assert!(proof.contains(why), "{proof}");
    let run = t.run(&["audit", "--strict", "--base", "HEAD~1"]);
    assert_ne!(run.code, 0, "audit passes:\n{}{}", run.stdout, run.stderr);
}

/// A sign-off the fake judge rejects, and its transcript's text with the header's
/// verdict flipped to accept (not yet written back).
fn rejected_then_flipped(t: &Test) -> (String, String) {
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "x",
        "--path",
        "README.md",
        "--judge",
        "claude",
    ])
    .code(1);
    let path = rejected_transcript(t);
    let text = t
        .read(&path)
        .replacen("- verdict: reject\n", "- verdict: accept\n", 1);
    (path, text)
}

/// The adversary's repro: the rejected transcript's header verdict flipped to
/// accept, its checkpoint ref restored, and a sign-off line naming it.
#[test]
fn a_rejected_transcript_edited_to_accept_proves_nothing() {
    let t = repo();
    let (path, text) = rejected_then_flipped(&t);
    forge(&t, &path, &text, "judge claude accept");
    let md = t.plan_md();
    let at = md
        .lines()
        .position(|l| l.contains("ship sign-off rejected"))
        .unwrap()
        + 1;
    unproven_everywhere(
        &t,
        &format!("its transcript {path} was rejected at plan.md:{at}"),
    );
}

/// The same transcript copied under a new name, so no rejected line names it: the
/// judge's answer in its body still reads as a reject.
#[test]
fn a_rejected_answer_under_a_new_name_proves_nothing() {
    let t = repo();
    let (path, text) = rejected_then_flipped(&t);
    let copy = path.replace(".md", "-2.md");
    std::fs::remove_file(t.path(&path)).unwrap();
    forge(&t, &copy, &text, "judge claude accept");
    unproven_everywhere(
        &t,
        &format!("its transcript {copy} records judge claude's answer as reject"),
    );
}

/// A `--judge none` sign-off relabelled as a claude accept: the record holds no
/// answer from any judge.
#[test]
fn a_skipped_judge_relabelled_as_a_model_proves_nothing() {
    let t = repo();
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "x",
        "--path",
        "README.md",
        "--judge",
        "none",
    ]);
    t.commit_all("signed off");
    let md = t.plan_md();
    let line = md.lines().find(|l| l.contains("ship signed off")).unwrap();
    let path = line
        .split_once("): ")
        .unwrap()
        .1
        .split('#')
        .next()
        .unwrap()
        .to_string();
    let text = t
        .read(&path)
        .replacen("- judge: none\n", "- judge: claude\n", 1);
    t.write(&path, &text);
    let hash = t.git(&["hash-object", &path]).trim()[..12].to_string();
    let old = line.split_once('#').unwrap().1[..12].to_string();
    let forged = line
        .replace("judge skipped", "judge claude accept")
        .replace(&old, &hash);
    t.write("plan.md", md.replace(line, &forged));
    t.commit_all("relabelled");
    unproven_everywhere(
        &t,
        &format!("its transcript {path} records no answer from judge claude"),
    );
}

/// An honest claude accept stays proven, and so does an honest `--judge none`.
#[test]
fn honest_records_stay_proven() {
    let t = Test::new().with_bin();
    t.fake_program(
        "claude",
        &format!(
            "cat >/dev/null\ncat '{}'\n",
            crate::util::fixture_path("judges/outputs/claude-accept.json").display()
        ),
    );
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "x",
        "--path",
        "README.md",
        "--judge",
        "claude",
    ]);
    assert_eq!(proof(&t).0, "proven", "{}", proof(&t).1);
    t.ok(&["reopen", "ship", "--reason", "again"]);
    t.ok(&["complete", "ship", "--evidence", "x", "--judge", "none"]);
    assert_eq!(proof(&t).0, "proven", "{}", proof(&t).1);
}

/// The rejected line deleted too: the body's answer still reads as a reject, and
/// audit names the line plan wrote that plan.md lost.
#[test]
fn a_rejected_transcript_whose_line_was_deleted_proves_nothing() {
    let t = repo();
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "x",
        "--path",
        "README.md",
        "--judge",
        "claude",
    ])
    .code(1);
    let path = rejected_transcript(&t);
    let md = t.plan_md();
    let kept: String = md
        .lines()
        .filter(|l| !l.contains("ship sign-off rejected"))
        .map(|l| format!("{l}\n"))
        .collect();
    t.write("plan.md", kept);
    let text = t
        .read(&path)
        .replacen("- verdict: reject\n", "- verdict: accept\n", 1);
    forge(&t, &path, &text, "judge claude accept");
    unproven_everywhere(
        &t,
        &format!("its transcript {path} records judge claude's answer as reject"),
    );
    let run = t.run(&["audit"]);
    insta::assert_snapshot!(shown(&t, &run));
}

//! The gate's re-judge holds a goal the base has to the base's contract: a pull
//! request that softens `done_when` or `verify` and signs the goal off is judged,
//! in one job and in two, against what the base asked, and the judge is told what
//! changed.

use std::path::{Path, PathBuf};

use crate::gate::{origin, rev, sign_off};
use crate::util::{Test, redact};

const STRONG: &str = "README.md lists all twelve checks";

/// A judge that keeps its prompt in `prompt.txt` and, as an honest model would on
/// this README (no checks listed), rejects when asked about the base's done_when
/// and accepts the softened one.
fn recording_judge(t: &Test) -> PathBuf {
    let prompt = t.dir.path().join("prompt.txt");
    let program = t.dir.path().join("judge.sh");
    std::fs::write(
        &program,
        format!(
            "#!/bin/sh\ncat >'{}'\nif grep -q 'done_when: {STRONG}' '{}'; then\n  printf 'VERDICT: reject\\nmissing: the twelve checks\\n'\nelse\n  printf 'VERDICT: accept\\nmissing: none\\n'\nfi\n",
            prompt.display(),
            prompt.display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&program, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = t.dir.path().join("home/.config/plan/config.yaml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            program.display()
        ),
    )
    .unwrap();
    prompt
}

/// `main` holds `ship` to `STRONG` with `base_verify`; the branch `pr` softens
/// done_when to "README.md exists" (and the verify to `pr_verify`), reapproves and
/// signs it off. Returns the base's sha.
fn softened(t: &Test, base_verify: &str, pr_verify: &str) -> String {
    t.write(
        "plan.md",
        t.plan_md()
            .replace(
                "done_when: README.md exists",
                &format!("done_when: {STRONG}"),
            )
            .replace(
                "verify: test -f README.md",
                &format!("verify: {base_verify}"),
            ),
    );
    t.ok(&["start", "ship", "--reapprove"]);
    t.commit_all("the real contract");
    let base = rev(t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md()
            .replace(
                &format!("done_when: {STRONG}"),
                "done_when: README.md exists",
            )
            .replace(
                &format!("verify: {base_verify}"),
                &format!("verify: {pr_verify}"),
            ),
    );
    t.ok(&["start", "ship", "--reapprove"]);
    sign_off(t);
    t.commit_all("ship it");
    base
}

fn audit(t: &Test, base: &str, args: &[&str]) -> (i32, String) {
    let mut all = vec!["audit", "--base", base];
    all.extend(args);
    let out = t.cmd(&all).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    )
}

fn judged_against_the_base(prompt: &Path) {
    let text = std::fs::read_to_string(prompt).expect("the judge was asked");
    assert!(text.contains(&format!("done_when: {STRONG}")), "{text}");
    assert!(!text.contains("done_when: README.md exists"), "{text}");
    // The changed words, as --markdown marks them.
    assert!(
        text.contains("This pull request changed the contract the base has"),
        "{text}"
    );
    assert!(
        text.contains("[-lists all twelve checks-]{+exists+}"),
        "{text}"
    );
}

// Attack: the pull request softens done_when of a goal the base has and signs it
// off; the CI judge was given the soft contract and accepted. Now it is given the
// base's, in one job and in two.
#[test]
fn a_softened_done_when_is_judged_against_the_bases() {
    let t = origin();
    let base = softened(&t, "test -f README.md", "test -f README.md");
    let prompt = recording_judge(&t);
    let (code, out) = audit(&t, &base, &["--rejudge"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(redact(&t, &out));
    judged_against_the_base(&prompt);
    std::fs::remove_file(&prompt).unwrap();
    let results = t.dir.path().join("results.json");
    let file = results.to_str().unwrap();
    let (code, out) = audit(&t, &base, &["--verify-only", "--results", file]);
    assert_eq!(code, 0, "{out}");
    let (code, out) = audit(&t, &base, &["--rejudge", "--verified", file]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(redact(&t, &out));
    judged_against_the_base(&prompt);
}

// Attack: the pull request swaps a verify the work fails for one it passes. Both
// jobs run the base's verify; a results file naming the pull request's is refused.
#[test]
fn a_softened_verify_is_not_the_one_the_gate_runs() {
    let t = origin();
    let base = softened(&t, "grep -q twelve README.md", "test -f README.md");
    let prompt = recording_judge(&t);
    let (code, out) = audit(&t, &base, &["--rejudge"]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(redact(&t, &out));
    assert!(!prompt.exists());
    let results = t.dir.path().join("results.json");
    let file = results.to_str().unwrap();
    let (code, out) = audit(&t, &base, &["--verify-only", "--results", file]);
    assert_eq!(code, 0, "{out}");
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(
        json["goals"][0]["verify"], "grep -q twelve README.md",
        "{json}"
    );
    assert_eq!(json["goals"][0]["passed"], false, "{json}");
    let (code, out) = audit(&t, &base, &["--rejudge", "--verified", file]);
    assert_eq!(code, 1, "{out}");
    insta::assert_snapshot!(redact(&t, &out));
    // The verify job's file forged to say the pull request's verify passed.
    let forged = std::fs::read_to_string(&results)
        .unwrap()
        .replace("grep -q twelve README.md", "test -f README.md");
    std::fs::write(&results, forged).unwrap();
    let (code, out) = audit(&t, &base, &["--rejudge", "--verified", file]);
    assert_eq!(code, 3, "{out}");
    insta::assert_snapshot!(redact(&t, &out));
    assert!(!prompt.exists());
}

// A goal new in the pull request is judged against its own contract.
#[test]
fn a_goal_new_in_the_pull_request_keeps_its_own_contract() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&[
        "add",
        "Docs",
        "--done-when",
        "README.md exists",
        "--verify",
        "test -f README.md",
    ]);
    t.ok(&["start", "docs"]);
    t.ok(&[
        "complete",
        "docs",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.commit_all("docs");
    let prompt = recording_judge(&t);
    let (code, out) = audit(&t, &base, &["--rejudge"]);
    assert_eq!(code, 0, "{out}");
    let text = std::fs::read_to_string(&prompt).unwrap();
    insta::assert_snapshot!(redact(&t, &text));
    assert!(
        !text.contains("This pull request changed the contract"),
        "{text}"
    );
}

//! Verifies that can fail, and red first: `verify-cannot-fail` (lint, `plan add` and
//! `plan edit` at once, `audit --strict`), `plan start` running the verify once and
//! logging whether it failed, and `verify-green-at-start` for a sign-off whose
//! verify already passed before the work with nothing it rests on changed since.

use crate::gate::{PR_PLAN, gate_fails, rev, signed_pull_request, user_judge};
use crate::util::{Test, fixture_path, redact, redact_with, shown_with};

const HINT: &str =
    "  hint: run a check that fails until the goal is met: a test, a script that asserts\n";

fn head(t: &Test) -> String {
    t.git(&["rev-parse", "HEAD"]).trim()[..12].to_string()
}

/// The contract fingerprint `plan start` printed: `started ID (contract C)`.
fn contract(stdout: &str) -> String {
    let at = stdout.find("(contract ").unwrap() + "(contract ".len();
    stdout[at..at + 8].to_string()
}

/// The last log line of plan.md, without its `- ` and stamp.
fn last_log(t: &Test) -> String {
    let md = t.plan_md();
    let line = md.lines().rev().find(|l| l.starts_with("- 2026")).unwrap();
    line["- 2026-06-15 14:02 ".len()..].to_string()
}

#[test]
fn add_and_edit_warn_at_once_of_a_verify_that_cannot_fail() {
    let t = Test::new();
    t.ok(&["init", "Red first"]);
    t.case(&["add", "Ship", "--done-when", "it ships", "--verify", "true"])
        .stdout("ship\n")
        .stderr(&format!(
            "plan: warning: the verify of ship cannot fail: `true` always exits 0 (verify-cannot-fail)\n{HINT}"
        ))
        .check();
    t.case(&["edit", "ship", "--verify", "sh -c 'cargo test || true'"])
        .any_stdout()
        .stderr(&format!(
            "plan: warning: the verify of ship cannot fail: `sh -c 'cargo test || true'`: `true` always exits 0 (verify-cannot-fail)\n{HINT}"
        ))
        .check();
    // A real check: nothing said.
    t.case(&["edit", "ship", "--verify", "cargo test x"])
        .any_stdout()
        .check();
    t.case(&[
        "add",
        "Docs",
        "--done-when",
        "written",
        "--verify",
        "test -f out.txt",
    ])
    .stdout("docs\n")
    .check();
}

const HOLLOW: &[&str] = &[
    "true",
    ":",
    "exit 0",
    "echo ok",
    "printf done",
    "test -e .",
    "test -d .",
    "[ -e . ]",
    "ls",
    "pwd",
    "sh -c true",
    "bash -c 'exit 0'",
    "python -c pass",
    "python3 -c pass",
    "node -e ''",
    "sh -c 'echo ok'",
    "bash -c 'pytest -q || true'",
];

const REAL: &[&str] = &[
    "cargo test x",
    "pytest -q",
    "test -f out.txt",
    "grep -q x f",
];

#[test]
fn lint_names_each_verify_that_cannot_fail_and_no_real_check() {
    let mut md = "# Plan: Verifies\n".to_string();
    for (n, verify) in HOLLOW.iter().chain(REAL).enumerate() {
        md.push_str(&format!(
            "\n## Goal: G{n}\n<!-- id: g{n} -->\nstatus: open\ndone_when: x\nverify: {verify}\nfailure_modes:\n- verify is gamed\n- it is wrong\n- [ ] do it\n"
        ));
    }
    md.push_str("\n## Log\n");
    let t = Test::new().plan(&md);
    let json = t.run(&["lint", "--json"]).code(0).json();
    let flagged: Vec<String> = json["problems"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["rule"] == "verify-cannot-fail")
        .map(|p| p["message"].as_str().unwrap().to_string())
        .collect();
    let hollow: Vec<String> = (0..HOLLOW.len()).map(|n| format!("\"g{n}\"")).collect();
    assert_eq!(
        flagged
            .iter()
            .map(|m| m.split_whitespace().nth(3).unwrap().to_string())
            .collect::<Vec<_>>(),
        hollow,
        "{flagged:#?}"
    );
    let text = t.ok(&["lint"]).stdout;
    insta::assert_snapshot!(redact(&t, &text));
    let rules = t.ok(&["lint", "--rules"]).stdout;
    let row = rules
        .lines()
        .find(|l| l.starts_with("verify-cannot-fail "))
        .unwrap_or_else(|| panic!("{rules}"));
    assert_eq!(
        row.split_whitespace().collect::<Vec<_>>().join(" "),
        "verify-cannot-fail plan.md warning warning - - - - -"
    );
}

const GOAL: &str = "# Plan: Red first

## Goal: Write the output
<!-- id: out -->
status: open
done_when: out.txt holds the answer
verify: test -f out.txt
failure_modes:
- out.txt is empty
- verify passes on a file that was always there

## Goal: Tidy up
<!-- id: tidy -->
status: open
done_when: it is tidy
failure_modes:
- nothing was tidied
- it is untidy

## Log
";

#[test]
fn start_logs_whether_the_verify_failed() {
    let t = Test::new().plan(GOAL);
    t.commit_all("plan");
    let at = head(&t);
    let run = t.ok(&["start", "out"]);
    let c = contract(&run.stdout);
    assert_eq!(
        run.stderr,
        "plan: verify: running `test -f out.txt` before the work (red first)\nplan: verify failing, as it should before the work (`test -f out.txt` exited 1)\n"
    );
    assert_eq!(
        last_log(&t),
        format!("out started (contract {c}, verify failing at {at})")
    );

    // Already passing before any work: logged, and said.
    let t = Test::new().plan(GOAL);
    t.write("out.txt", "42\n");
    t.commit_all("plan");
    let at = head(&t);
    let run = t.ok(&["start", "out"]);
    let c = contract(&run.stdout);
    assert_eq!(
        run.stderr,
        "plan: verify: running `test -f out.txt` before the work (red first)\nplan: warning: the verify of out already passes before any work: it cannot tell the work done; make it fail until the goal is met\n"
    );
    assert_eq!(
        last_log(&t),
        format!("out started (contract {c}, verify passing at {at})")
    );
    // Every reader still reads the line as the start, with its commit.
    let events = t.ok(&["events", "--json"]).stdout;
    insta::assert_snapshot!(redact_with(&t, &events, &[(&at, "[HEAD AT START]")]));
    t.ok(&["lint"]);
}

#[test]
fn no_verify_skips_the_run_and_says_so_in_the_log() {
    let t = Test::new().plan(GOAL);
    t.commit_all("plan");
    let at = head(&t);
    let run = t.ok(&["start", "out", "--no-verify"]);
    let c = contract(&run.stdout);
    assert_eq!(
        run.stderr,
        "plan: note: verify of out not run (--no-verify); the log says it was skipped\n"
    );
    assert_eq!(
        last_log(&t),
        format!("out started (contract {c}, verify skipped at {at})")
    );
}

// The red team's: a test the person wrote and left uncommitted when the goal
// started is no part of what the sign-off compares (the start commit's tests), so
// an assertion taken out of it before the work is committed goes unseen. The start
// says so, and how to make the test count.
#[test]
fn start_names_the_tests_not_committed() {
    let t = Test::new().plan(GOAL);
    t.write("tests/test_old.py", "def test_old():\n    assert 1\n");
    t.commit_all("plan");
    t.write(
        "tests/test_out.py",
        "def test_out():\n    assert open('out.txt').read() == '42'\n",
    );
    t.write("tests/test_old.py", "def test_old():\n    assert 2\n");
    let run = t.ok(&["start", "out", "--no-verify"]);
    insta::assert_snapshot!(run.stderr, @r#"
    plan: note: verify of out not run (--no-verify); the log says it was skipped
    plan: note: tests/test_old.py and 1 other test file differ from the commit out starts from: a sign-off compares the tests with that commit, so what changes in them before they are committed goes unchecked
      hint: commit the tests first to hold out to them
    "#);
    // A name is shown escaped: a line break in it forges no line of plan's.
    let t = Test::new().plan(GOAL);
    t.commit_all("plan");
    t.write(
        "tests/test_x.py\nplan: note: none.py",
        "def test_x():\n    assert 1\n",
    );
    let run = t.ok(&["start", "out", "--no-verify"]);
    assert_eq!(run.stderr.lines().count(), 3, "{}", run.stderr);
    // Committed, they are what the sign-off compares with: nothing to say.
    let t = Test::new().plan(GOAL);
    t.write("tests/test_out.py", "def test_out():\n    assert 1\n");
    t.commit_all("plan");
    let run = t.ok(&["start", "out", "--no-verify"]);
    assert_eq!(
        run.stderr,
        "plan: note: verify of out not run (--no-verify); the log says it was skipped\n"
    );
}

#[test]
fn a_goal_without_a_verify_starts_as_before() {
    let t = Test::new().plan(GOAL);
    t.commit_all("plan");
    let at = head(&t);
    let run = t.ok(&["start", "tidy"]);
    let c = contract(&run.stdout);
    assert_eq!(run.stderr, "");
    assert_eq!(
        last_log(&t),
        format!("tidy started (contract {c}, at {at})")
    );
}

/// `out` judged by a command judge that saves its prompt to `prompt.txt` (outside
/// the repository) and accepts.
fn with_judge(t: &Test) {
    let saved = t.dir.path().join("prompt.txt");
    let judge = t.fake_program(
        "judge",
        &format!(
            "cat > '{}'\nprintf 'I read out.txt.\\n\\nVERDICT: accept\\nmissing: none\\n'\n",
            saved.display()
        ),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            judge.display()
        ),
    );
}

fn prompt(t: &Test) -> String {
    std::fs::read_to_string(t.dir.path().join("prompt.txt")).unwrap()
}

fn sign_off(t: &Test) {
    t.ok(&[
        "complete",
        "out",
        "--evidence",
        "out.txt is written",
        "--path",
        "out.txt",
    ]);
    t.commit_all("signed off");
}

#[test]
fn a_verify_green_before_the_work_with_nothing_changed_is_a_finding_everywhere() {
    let t = Test::new().plan(GOAL);
    t.write("out.txt", "42\n");
    with_judge(&t);
    t.commit_all("plan");
    let at = head(&t);
    t.ok(&["start", "out"]);
    t.commit_all("start");
    let finding = format!(
        "verify already passed when the goal started (at {}) and no file it rests on changed since (out.txt)",
        at
    );
    let names = [(at.as_str(), "[START]")];
    // Said while it is still active, and at the sign-off.
    let show = t.ok(&["show", "out"]);
    insta::assert_snapshot!(
        "green_at_start_show_active",
        redact_with(&t, &show.stdout, &names)
    );
    let complete = t
        .run(&[
            "complete",
            "out",
            "--evidence",
            "out.txt is written",
            "--path",
            "out.txt",
        ])
        .code(0);
    insta::assert_snapshot!("green_at_start_complete", shown_with(&t, &complete, &names));
    t.commit_all("signed off");
    let prompt = prompt(&t);
    let stage_1 = prompt
        .split_once("\n## Stage 1: the verify command\n")
        .and_then(|(_, rest)| rest.split_once("\n## The agent's evidence\n"))
        .expect("the prompt's stage 1")
        .0;
    insta::assert_snapshot!(
        "green_at_start_prompt_stage_1",
        redact_with(&t, stage_1, &names)
    );
    let transcript = std::fs::read_dir(t.path(".plan/judge"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect::<String>();
    assert!(
        transcript.contains(&format!("- exit: 0\n- verify-green-at-start: {finding}\n")),
        "{transcript}"
    );
    let show = t.ok(&["show", "out"]);
    insta::assert_snapshot!(
        "green_at_start_show_done",
        redact_with(&t, &show.stdout, &names)
    );
    let json = t.ok(&["show", "out", "--json"]).json();
    assert_eq!(json["verify_green_at_start"], finding.as_str());
    let audit = t.ok(&["audit"]);
    insta::assert_snapshot!("green_at_start_audit", shown_with(&t, &audit, &names));
    let json = t.ok(&["audit", "--json"]).json();
    let entry = json["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "out")
        .unwrap()
        .clone();
    assert_eq!(entry["verify_green_at_start"], finding.as_str());
    let strict = t.run(&["audit", "--strict"]).code(1);
    insta::assert_snapshot!(
        "green_at_start_audit_strict",
        shown_with(&t, &strict, &names)
    );
}

#[test]
fn an_honest_red_then_green_goal_has_no_finding() {
    let t = Test::new().plan(GOAL);
    with_judge(&t);
    t.commit_all("plan");
    t.ok(&["start", "out"]);
    t.commit_all("start");
    t.write("out.txt", "42\n");
    t.commit_all("the work");
    sign_off(&t);
    assert!(!prompt(&t).contains("Red first"), "{}", prompt(&t));
    let show = t.ok(&["show", "out"]).stdout;
    insta::assert_snapshot!(redact(&t, &show));
    let json = t.ok(&["show", "out", "--json"]).json();
    assert!(json.get("verify_green_at_start").is_none(), "{json}");
    let audit = t.run(&["audit", "--strict"]).stdout;
    insta::assert_snapshot!(redact(&t, &audit));
}

#[test]
fn strict_fails_a_sign_off_resting_on_a_verify_that_cannot_fail() {
    let t = Test::new().plan(&GOAL.replace("verify: test -f out.txt", "verify: test -e ."));
    with_judge(&t);
    t.commit_all("plan");
    t.ok(&["start", "out"]);
    t.commit_all("start");
    t.write("out.txt", "42\n");
    t.commit_all("the work");
    sign_off(&t);
    insta::assert_snapshot!(redact(&t, &t.run(&["audit", "--strict"]).code(1).stdout));
    insta::assert_snapshot!(redact(&t, &t.ok(&["show", "out"]).stdout));
}

/// A verify run at the start that changes the repository is refused, as the sign-off
/// refuses it: the start would write over what it did.
#[test]
fn a_verify_that_changes_the_repository_at_the_start_is_refused() {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    let check = t.fake_program("check", "echo more >> README.md\ntest -f out.txt");
    let md = GOAL.replace(
        "verify: test -f out.txt",
        &format!("verify: {}", check.display()),
    );
    t.write("plan.md", &md);
    t.commit_all("plan");
    t.case(&["start", "out"])
        .status(1)
        .stderr(&format!(
            "plan: verify: running `{}` before the work (red first)\nplan: the verify of out changed the repository while it ran (README.md); a check must not change what it checks; out was not started\n  hint: look at what it changed (git status, git diff), then fix the verify, or `plan start out --no-verify`\n",
            check.display()
        ))
        .check();
    assert_eq!(t.plan_md(), md);
}

/// `plan add --active` starts the goal, so it runs the verify first as `plan start`
/// does: otherwise it would be the way around red first.
#[test]
fn add_active_runs_the_verify_as_start_does() {
    let t = Test::new();
    t.ok(&["init", "Red first"]);
    t.commit_all("plan");
    let at = head(&t);
    let run = t.ok(&[
        "add",
        "Out",
        "--done-when",
        "out.txt holds the answer",
        "--verify",
        "test -f out.txt",
        "--active",
        "--json",
    ]);
    let c = run.json()["contract"].as_str().unwrap().to_string();
    assert_eq!(
        run.stderr,
        "plan: verify: running `test -f out.txt` before the work (red first)\nplan: verify failing, as it should before the work (`test -f out.txt` exited 1)\n"
    );
    assert_eq!(
        last_log(&t),
        format!("out started (contract {c}, verify failing at {at})")
    );
}

/// A repository's own judge prompt that leaves the fact out gets it appended: an
/// override must not be a way to hide it.
#[test]
fn an_override_without_the_fact_gets_it_appended() {
    let t = Test::new().plan(GOAL);
    t.write("out.txt", "42\n");
    t.write(
        ".plan/prompts/evidence_judge.md",
        "Judge {{id}}: {{done_when}}\n\n{{verify}}\n",
    );
    with_judge(&t);
    t.commit_all("plan");
    let at = head(&t);
    t.ok(&["start", "out"]);
    t.commit_all("start");
    sign_off(&t);
    let prompt = prompt(&t);
    insta::assert_snapshot!(
        "override_prompt",
        redact_with(&t, &prompt, &[(at.as_str(), "[START]")])
    );
}

/// The start's commit gone from the clone (its branch squash-merged and deleted):
/// the finding the sign-off recorded stands, rather than a check that can never run
/// again failing `--strict` forever.
#[test]
fn a_start_commit_squashed_away_leaves_the_recorded_finding() {
    let t = Test::new().plan(GOAL);
    t.write("out.txt", "42\n");
    with_judge(&t);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "feat"]);
    t.write("notes.txt", "starting\n");
    t.commit_all("notes");
    let at = head(&t);
    t.ok(&["start", "out"]);
    t.commit_all("start");
    sign_off(&t);
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--squash", "feat"]);
    t.git(&["commit", "-q", "-m", "feat, squashed"]);
    t.git(&["branch", "-q", "-D", "feat"]);
    // As in a clone that never fetched the checkpoints, which keep it alive here.
    for r in t
        .git(&["for-each-ref", "--format=%(refname)", "refs/plan"])
        .lines()
    {
        t.git(&["update-ref", "-d", r]);
    }
    t.git(&["reflog", "expire", "--expire=now", "--all"]);
    t.git(&["gc", "-q", "--prune=now"]);
    let objects = t.git(&["cat-file", "--batch-all-objects", "--batch-check"]);
    assert!(!objects.contains(&at), "the start commit is still here");
    let strict = t.run(&["audit", "--strict"]).code(1);
    insta::assert_snapshot!(
        "squashed_audit_strict",
        shown_with(&t, &strict, &[(at.as_str(), "[START]")])
    );
}

/// plan.md is left out of the start's change check, as the sign-off leaves it out
/// (others log there meanwhile); a verify that hides another goal there is caught
/// when the start is written, and the goal is not started.
#[test]
fn a_verify_that_hides_a_goal_at_the_start_is_refused() {
    let t = Test::new();
    let check = t.fake_program(
        "check",
        "sed -i '/^## Goal: Tidy up/,/^- it is untidy/d' plan.md\ntest -f out.txt",
    );
    let md = GOAL.replace(
        "verify: test -f out.txt",
        &format!("verify: {}", check.display()),
    );
    t.write("plan.md", &md);
    t.commit_all("plan");
    let run = t.run(&["start", "out"]);
    // The store's refusal of a write whose plan changed under it: exit 2.
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(redact(&t, &run.stderr));
    assert!(t.plan_md().contains("status: open"), "{}", t.plan_md());
    assert!(!t.plan_md().contains("out started"), "{}", t.plan_md());
}

/// A verify that reads the plan file (plan's own log, which the work writes with
/// `started` and `completed`) can tell the start from the end without looking at
/// the work: `--strict` names where it reads it. A script that names the plan file
/// only in a comment is no finding.
#[test]
fn a_verify_that_reads_the_plan_file_is_a_strict_finding() {
    for (script, reads) in [
        ("grep -q ' out started' plan.md && test -f out.txt\n", true),
        ("# plan.md is not read here\ntest -f out.txt\n", false),
    ] {
        let t = Test::new().plan(&GOAL.replace("verify: test -f out.txt", "verify: sh check.sh"));
        with_judge(&t);
        t.write("check.sh", script);
        t.commit_all("plan");
        t.ok(&["start", "out"]);
        t.commit_all("start");
        t.write("out.txt", "42\n");
        t.commit_all("the work");
        sign_off(&t);
        let audit = t.run(&["audit", "--strict"]).stdout;
        insta::assert_snapshot!(format!("verify_reads_plan_{reads}"), redact(&t, &audit));
        let finding = "\n  strict: verify-reads-plan: the verify reads the plan file (check.sh names plan.md): plan's own log tells the start from the end without the work; check the work itself";
        assert_eq!(audit.contains(finding), reads, "{script}: {audit}");
    }
}

/// A goal imported as done (another tool's export) and signed off here had its
/// verify pass before the work, as finished work should. Red first exempts it in
/// one place, so `plan show`, `plan audit` and the gate say the same: nothing, and
/// the gate runs no red-first check for it.
#[test]
fn show_audit_and_the_gate_agree_on_an_imported_done_goal() {
    use crate::gate::{rev, user_judge};
    let verify = "grep -q 'a + b' calc.py";
    let there = Test::new().plan(&format!(
        "# Plan: Elsewhere\n\n## Goal: Add works\n<!-- id: add -->\nstatus: active\ndone_when: add adds\nverify: {verify}\nfailure_modes:\n- add ignores its arguments\n\n## Log\n"
    ));
    there.write("calc.py", "def add(a, b):\n    return a + b\n");
    there.ok(&["start", "add"]);
    there.ok(&[
        "complete",
        "add",
        "--evidence",
        "add adds",
        "--judge",
        "none",
    ]);
    let export = there.ok(&["export"]).stdout;
    let t = Test::new();
    let claude = crate::util::fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan("# Plan: G\n\n## Log\n");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("export.json", export);
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.ok(&["import", "export.json"]);
    t.ok(&["review", "--approve"]);
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&[
        "complete",
        "add",
        "--evidence",
        "add adds",
        "--path",
        "calc.py",
    ]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    let show = t.ok(&["show", "add", "--json"]).json();
    assert!(show.get("verify_green_at_start").is_none(), "{show}");
    let audit = t.ok(&["audit", "--json"]).json();
    assert!(
        audit["goals"][0].get("verify_green_at_start").is_none(),
        "{audit}"
    );
    let strict = t.run(&["audit", "--strict"]).stdout;
    insta::assert_snapshot!(redact(&t, &strict));
    // The gate names no commit to run the verify at for it, and passes.
    let results = t.dir.path().join("results.json");
    t.ok(&[
        "audit",
        "--base",
        &base,
        "--verify-only",
        "--results",
        results.to_str().unwrap(),
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&results).unwrap()).unwrap();
    assert_eq!(
        json["goals"][0]["at_start"],
        serde_json::json!([]),
        "{json}"
    );
    t.ok(&["audit", "--base", &base, "--strict", "--rejudge"]);
}

// Attack: `plan start --no-verify` skips the red-first run, so a verify that
// already passes before any work is never reported: the same pull request started
// without the flag fails `--strict` on verify-green-at-start.
#[test]
fn a_start_without_verify_does_not_dodge_green_at_start() {
    let (t, base) = signed_pull_request(
        "test -f base.txt",
        &[("base.txt", "there\n")],
        &["--no-verify"],
        |t| t.write("other.txt", "unrelated\n"),
    );
    gate_fails(&t, &base);
}

// Attack: the agent rewrites its own `started` line from `verify passing at` to
// `verify failing at` before pushing. A fresh clone (CI) has no
// `.git/plan/logged.tsv` to say plan wrote otherwise, and the gate trusts the line.
#[test]
fn a_forged_failing_start_line_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t
        .with_bin()
        .plan(&PR_PLAN.replace("VERIFY", "test -f base.txt"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("base.txt", "there\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    // Edited before any commit has the true line.
    t.write(
        "plan.md",
        t.plan_md()
            .replace("verify passing at", "verify failing at"),
    );
    t.commit_all("start");
    t.write("other.txt", "unrelated\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    // As a fresh clone in CI has it: no record of the lines plan wrote here.
    std::fs::remove_file(t.root().join(".git/plan/logged.tsv")).unwrap();
    gate_fails(&t, &base);
}

// Attack: no hand edit at all. The agent moves the file the verify checks away,
// runs `plan start` (verify fails in the working tree), and puts it back: the line
// reads `verify failing at C` though at commit C the verify passes, and the gate
// trusts the line.
#[test]
fn a_start_on_a_dirty_tree_does_not_dodge_green_at_start() {
    let t2 = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t2.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t2 = t2
        .with_bin()
        .plan(&PR_PLAN.replace("VERIFY", "test -f base.txt"));
    t2.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t2.write("base.txt", "there\n");
    t2.commit_all("base");
    let base2 = rev(&t2, "main");
    t2.git(&["checkout", "-q", "-b", "pr"]);
    std::fs::rename(t2.path("base.txt"), t2.dir.path().join("aside")).unwrap();
    t2.ok(&["start", "w"]);
    std::fs::rename(t2.dir.path().join("aside"), t2.path("base.txt")).unwrap();
    assert!(t2.plan_md().contains("verify failing at"));
    t2.commit_all("start");
    t2.write("other.txt", "unrelated\n");
    t2.commit_all("work");
    t2.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t2.commit_all("sign off");
    user_judge(&t2, "accept");
    gate_fails(&t2, &base2);
}

// The same attack through the gate's two jobs: the verify job runs the goal's
// verify where it started and writes what it found; the judge job, which runs
// nothing, fails `--strict` on it, and names it in `--markdown`.
#[test]
fn the_two_job_gate_finds_a_verify_green_at_start_from_the_verify_jobs_results() {
    let (t, base) = signed_pull_request(
        "test -f base.txt",
        &[("base.txt", "there\n")],
        &["--no-verify"],
        |t| t.write("other.txt", "unrelated\n"),
    );
    let results = t.dir.path().join("results.json");
    let results = results.to_str().unwrap();
    t.ok(&[
        "audit",
        "--base",
        &base,
        "--verify-only",
        "--results",
        results,
    ]);
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(results).unwrap()).unwrap();
    assert_eq!(
        json["goals"][0]["at_start"],
        serde_json::json!([{"commit": base, "passed": true}])
    );
    let run = t
        .case(&[
            "audit",
            "--base",
            &base,
            "--strict",
            "--rejudge",
            "--verified",
            results,
            "--markdown",
        ])
        .status(1)
        .any_stdout()
        .check();
    insta::assert_snapshot!(
        "two_job_gate_markdown",
        redact_with(
            &t,
            &run.stdout,
            &[(&base, "[BASE]"), (&base[..12], "[BASE]")]
        )
    );
    // Honest: the verify fails where the goal started, the work makes it pass.
    let (t, base) = signed_pull_request("test -f made.txt", &[("base.txt", "there\n")], &[], |t| {
        t.write("made.txt", "made\n")
    });
    t.ok(&["audit", "--base", &base, "--strict", "--rejudge"]);
}

// Attack on red first at the gate: the pull request's first commit deletes the
// file the base's verify checks, the goal is started on that broken tree (its
// line says failing, and both commits the gate re-runs it at, the one the line
// names and the one before the line was added, fail too), and the work puts the
// file back unchanged. The verify passed on the base and rests on nothing the pull
// request changed, yet the gate never runs it there.
#[test]
fn a_start_after_deleting_what_verify_checks_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t
        .with_bin()
        .plan(&PR_PLAN.replace("VERIFY", "test -f base.txt"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("base.txt", "there\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.git(&["rm", "-q", "base.txt"]);
    t.commit_all("tidy");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write("base.txt", "there\n");
    t.write("other.txt", "unrelated\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
}

// Attack on red first: the verify runs a script the work itself adds
// (`sh check.sh`), so at the start it fails only because the script is not there
// yet, and that reads as red. The script checks a file the base already had,
// unchanged since: run at the start commit with the pull request's script, the
// verify passes, and it said nothing about the work.
#[test]
fn a_verify_script_added_by_the_work_does_not_dodge_green_at_start() {
    let (t, base) = signed_pull_request("sh check.sh", &[("README.md", "# Hello\n")], &[], |t| {
        t.write("check.sh", "test -f README.md\n")
    });
    gate_fails(&t, &base);
}

// Attack on red first: the verify's script, committed before the start and
// untouched since, fails wherever plan.md has no `started` line for the goal, so it
// fails at every commit the gate re-runs it at before the work, and passes after;
// what it checks (README.md) the base already had. Nothing it names changed since
// the start, and plan.md is plan's own, so no rule looks at it.
#[test]
fn a_verify_that_reads_its_own_start_line_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(&PR_PLAN.replace("VERIFY", "sh check.sh"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "check.sh",
        "grep -q ' w started' plan.md && test -f README.md\n",
    );
    t.commit_all("the check");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write("other.txt", "unrelated\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
}

// Attack on red first at the gate: only the scripts the verify line runs itself are
// laid over the start's checkout, not what they run in turn, so a laid-over
// `check.sh` that runs `sh inner.sh`, a do-nothing script the work added, is red
// at the start (inner.sh missing) and green after, however little it checks.
// Laying such a script at the start as one doing nothing caught it, but also
// flagged honest work (a check running the work's own test of the work's script:
// `a_check_that_runs_the_works_test_of_the_works_script_passes_the_gate`), and
// named any other way it dodged: the ambiguity is the work's to explain to the
// judge, so it stays open (ci.md).
#[test]
#[ignore = "open: a script run by a laid-over verify script is not laid over (laying it empty flags honest work)"]
fn a_two_step_verify_script_does_not_dodge_green_at_start() {
    let (t, base) = signed_pull_request("sh check.sh", &[("README.md", "# Hello\n")], &[], |t| {
        t.write("check.sh", "sh inner.sh && test -f README.md\n");
        t.write("inner.sh", "exit 0\n");
    });
    gate_fails(&t, &base);
    let out = crate::gate::gate_run(&t, &base);
    assert!(out.contains("verify-green-at-start"), "{out}");
}

// Guard: a check script that runs the work's own script and checks what it does
// (`sh greet.sh | grep -q hello`, greet.sh the work) is red at the start, where
// greet.sh is laid as a script doing nothing, and the gate passes it.
#[test]
fn a_check_script_that_tests_what_the_works_script_does_passes_the_gate() {
    let (t, base) = signed_pull_request("sh check.sh", &[("README.md", "# Hello\n")], &[], |t| {
        t.write("check.sh", "sh greet.sh | grep -q hello\n");
        t.write("greet.sh", "echo hello\n");
    });
    let out = crate::gate::gate_run(&t, &base);
    assert!(crate::gate::gate_passes(&t, &base), "{out}");
}

// Guard (caught): a script in the base that counts the commits (`git rev-list
// --count HEAD`) tells the start from the end without looking at the work; the
// gate does not take it.
#[test]
fn a_verify_that_counts_commits_does_not_dodge_green_at_start() {
    let count = "test \"$(git rev-list --count HEAD)\" -gt 2 && test -f README.md\n";
    let (t, base) = signed_pull_request(
        "sh check.sh",
        &[("README.md", "# Hello\n"), ("check.sh", count)],
        &[],
        |t| t.write("other.txt", "unrelated\n"),
    );
    gate_fails(&t, &base);
}

// Attack (stop77-c) on red first at the gate: the scripts a laid-over check runs in
// turn are found by name in its text (a word with a `.` or a `/` naming a script
// file), so a check naming its do-nothing inner script any other way is red at the
// start (the inner script missing, not laid) and green after, checking nothing the
// work did: a name with no dot (and no exec bit), one built from `$0` or a
// variable, a Python import, a `cd` into its directory, a directory's scripts.
#[test]
#[ignore = "open: an inner script the laid-over check names by no dotted word (no extension, $(dirname \"$0\"), a variable, an import, a cd, a glob) is not laid at the start: the two-step verify dodges verify-green-at-start"]
fn a_two_step_verify_naming_its_inner_script_otherwise_does_not_dodge_green_at_start() {
    type Edit = fn(&Test);
    let forms: Vec<(&str, &str, Edit)> = vec![
        ("no extension", "sh check.sh", |t| {
            t.write("check.sh", "sh inner && test -f README.md\n");
            t.write("inner", "exit 0\n");
        }),
        ("$(dirname \"$0\")", "sh check.sh", |t| {
            t.write(
                "check.sh",
                "sh \"$(dirname \"$0\")/inner.sh\" && test -f README.md\n",
            );
            t.write("inner.sh", "exit 0\n");
        }),
        ("a variable", "sh check.sh", |t| {
            t.write("check.sh", "n=inner\nsh $n.sh && test -f README.md\n");
            t.write("inner.sh", "exit 0\n");
        }),
        ("a python import", "python3 check.py", |t| {
            t.write(
                "check.py",
                "import inner\nassert open('README.md').read()\n",
            );
            t.write("inner.py", "pass\n");
        }),
        ("cd into its directory", "sh check.sh", |t| {
            t.write(
                "check.sh",
                "(cd checks && sh inner.sh) && test -f README.md\n",
            );
            t.write("checks/inner.sh", "exit 0\n");
        }),
        ("a directory's scripts", "sh check.sh", |t| {
            t.write(
                "check.sh",
                "set -e\nfor f in checks/*.sh; do sh \"$f\"; done\ntest -f README.md\n",
            );
            t.write("checks/inner.sh", "exit 0\n");
        }),
    ];
    let mut dodged = Vec::new();
    for (what, verify, edit) in forms {
        let (t, base) = signed_pull_request(verify, &[("README.md", "# Hello\n")], &[], edit);
        if crate::gate::gate_passes(&t, &base) {
            dodged.push(what);
        }
    }
    assert!(
        dodged.is_empty(),
        "the gate passed (verify-green-at-start dodged): {dodged:?}"
    );
}

// Honest (stop77-c): a check script that runs the work's test script, which tests
// what the work's script does (check.sh runs test_greet.sh, which checks `sh
// greet.sh` says hello), is red before the work. At the start both scripts run in
// turn are laid as doing nothing, so the check passes there and the gate calls an
// honest, working test verify-green-at-start; the same test as the verify itself
// (`sh test_greet.sh`, laid over as it is, greet.sh missing) passes the gate.
#[test]
fn a_check_that_runs_the_works_test_of_the_works_script_passes_the_gate() {
    let mut flagged = Vec::new();
    for verify in ["sh test_greet.sh", "sh check.sh"] {
        let (t, base) = signed_pull_request(verify, &[("README.md", "# Hello\n")], &[], |t| {
            t.write("check.sh", "set -e\nsh test_greet.sh\n");
            t.write(
                "test_greet.sh",
                "out=$(sh greet.sh)\ntest \"$out\" = hello\n",
            );
            t.write("greet.sh", "echo hello\n");
        });
        let out = crate::gate::gate_run(&t, &base);
        if !crate::gate::gate_passes(&t, &base) {
            flagged.push(format!("{verify}: {out}"));
        }
    }
    assert!(flagged.is_empty(), "{}", flagged.join("\n"));
}

const CALC: &str = "def add(a, b):\n    return a + b\n";
const TEST_CALC: &str = "from calc import add\n\nassert add(2, 3) == 5\n";
const CALC_JS: &str = "exports.add = (a, b) => a + b;\n";
const TEST_JS: &str =
    "const { add } = require('./calc.js');\nif (add(2, 3) !== 5) process.exit(1);\n";

// Attack (helper 99): the verify passes at the start, and the work's only edits
// to what it rests on are comments and layout (`# graded` and a blank line in the
// Python test a check script runs, `// done` and a line break in the JavaScript
// module the test requires). The bytes differ, so something it rests on read as
// changed and verify-green-at-start stayed off, at the gate and at sign-off; the
// weakened check ignores formatting, so nothing flagged work already done.
#[test]
fn a_comment_on_what_the_verify_rests_on_does_not_dodge_green_at_start() {
    // What it does, the verify, the base's files, the work.
    type Form = (
        &'static str,
        &'static str,
        &'static [(&'static str, &'static str)],
        fn(&Test),
    );
    let forms: Vec<Form> = vec![
        (
            "a python comment and a blank line",
            "sh check.sh",
            &[
                ("calc.py", CALC),
                ("test_calc.py", TEST_CALC),
                ("check.sh", "python3 test_calc.py\n"),
            ],
            |t| t.write("test_calc.py", format!("# graded\n{TEST_CALC}\n")),
        ),
        (
            "a javascript comment and a line break",
            "node test.js",
            &[("calc.js", CALC_JS), ("test.js", TEST_JS)],
            |t| t.write("calc.js", "// done\nexports.add = (a, b) =>\n  a + b;\n"),
        ),
        (
            "a comment with a byte that is no UTF-8",
            "node test.js",
            &[("calc.js", CALC_JS), ("test.js", TEST_JS)],
            |t| t.write("calc.js", [CALC_JS.as_bytes(), b"// \xff\n"].concat()),
        ),
        (
            "a comment padding the module past the cap",
            "node test.js",
            &[("calc.js", CALC_JS), ("test.js", TEST_JS)],
            |t| t.write("calc.js", format!("{CALC_JS}// {}\n", "x".repeat(3 << 20))),
        ),
    ];
    let mut dodged = Vec::new();
    for (what, verify, base_files, edit) in forms {
        for start in [&[][..], &["--no-verify"][..]] {
            let (t, base) = signed_pull_request(verify, base_files, start, edit);
            if crate::gate::gate_passes(&t, &base) {
                dodged.push(format!("{what}, the gate, {start:?}"));
            }
            // At sign-off, from the start line plan wrote.
            let json = t.ok(&["show", "w", "--json"]).json();
            if start.is_empty() && json.get("verify_green_at_start").is_none() {
                dodged.push(format!("{what}, the sign-off"));
            }
        }
    }
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

// Honest twin: the verify passed at the start, and the work changes what the
// code does and what the test checks (a function added, an assertion on it):
// something it rests on changed, no finding.
#[test]
fn a_behaviour_change_after_a_green_start_passes_the_gate() {
    let (t, base) = signed_pull_request(
        "sh check.sh",
        &[
            ("calc.py", CALC),
            ("test_calc.py", TEST_CALC),
            ("check.sh", "python3 test_calc.py\n"),
        ],
        &[],
        |t| {
            t.write(
                "calc.py",
                format!("{CALC}\n\ndef sub(a, b):\n    return a - b\n"),
            );
            t.write(
                "test_calc.py",
                "from calc import add, sub\n\nassert add(2, 3) == 5\nassert sub(3, 2) == 1\n",
            );
        },
    );
    let out = crate::gate::gate_run(&t, &base);
    assert!(crate::gate::gate_passes(&t, &base), "{out}");
    let json = t.ok(&["show", "w", "--json"]).json();
    assert!(json.get("verify_green_at_start").is_none(), "{json}");
}

// Guard (helper 99): a check script with a way out while a file is missing
// (`test -f NOTES.md || exit 0`) passes at the start whatever the work does, and
// the work adds the file. The file is data the script reads, not in what the
// verify rests on, so adding it is no change there and the finding stands: the
// verify passed before the work. Counting it would let any file a script names be
// created to turn the finding off.
#[test]
fn a_check_that_exits_while_a_file_is_missing_is_green_at_start() {
    let way_out = "test -f NOTES.md || exit 0\ntest -f README.md\n";
    let mut passed = Vec::new();
    for in_base in [true, false] {
        let mut base_files = vec![("README.md", "# Hello\n")];
        if in_base {
            base_files.push(("check.sh", way_out));
        }
        let (t, base) = signed_pull_request("sh check.sh", &base_files, &["--no-verify"], |t| {
            t.write(
                "check.sh",
                "test -f NOTES.md || exit 0\ntest -f README.md\n",
            );
            t.write("NOTES.md", "notes\n");
        });
        let out = crate::gate::gate_run(&t, &base);
        if crate::gate::gate_passes(&t, &base) || !out.contains("verify-green-at-start") {
            passed.push(format!("check.sh in the base: {in_base}: {out}"));
        }
    }
    assert!(passed.is_empty(), "{}", passed.join("\n"));
}

// Attack (helper 102): the verify passes at the start, and the work's only edit
// is a comment (`# graded`) in a shell script it runs: the verify's own script
// (`sh check.sh`), or one that script runs (`sh inner.sh`). A script has no
// grammar, so its bytes decide: something it rests on reads as changed and the
// sign-off shows no verify-green-at-start. (The gate fails on it, but through the
// weakened check's verify-file-changed, not red first.)
#[test]
fn a_comment_in_a_verify_script_does_not_dodge_green_at_start_at_sign_off() {
    type Edit = fn(&Test);
    let edits: [(&str, Edit); 2] = [
        ("check.sh", |t| {
            t.write("check.sh", "# graded\nsh inner.sh\n")
        }),
        ("inner.sh", |t| {
            t.write("inner.sh", "# graded\npython3 test_calc.py\n")
        }),
    ];
    let mut dodged = Vec::new();
    for (what, edit) in edits {
        let (t, base) = signed_pull_request(
            "sh check.sh",
            &[
                ("calc.py", CALC),
                ("test_calc.py", TEST_CALC),
                ("check.sh", "sh inner.sh\n"),
                ("inner.sh", "python3 test_calc.py\n"),
            ],
            &[],
            edit,
        );
        if crate::gate::gate_passes(&t, &base) {
            dodged.push(format!("a comment in {what}, the gate"));
        }
        let json = t.ok(&["show", "w", "--json"]).json();
        if json.get("verify_green_at_start").is_none() {
            dodged.push(format!("a comment in {what}, the sign-off"));
        }
    }
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

// Attack (helper 102): the verify names no file (`node --test` walks for its
// tests), so it rests on every file, and the verify passes at the start. The
// work's only edit is to README.md, a file of no grammar, whose bytes decide: a
// blank line, or a sentence. Something it rests on reads as changed, so
// verify-green-at-start stays off and the gate passes; README.md is no file the
// weakened check weighs.
#[test]
fn an_edit_to_the_readme_does_not_dodge_green_at_start_of_a_verify_that_names_no_file() {
    type Edit = fn(&Test);
    let edits: [(&str, Edit); 2] = [
        ("a blank line", |t| t.write("README.md", "# Calc\n\n")),
        ("a sentence", |t| {
            t.write("README.md", "# Calc\n\nAdds two numbers.\n")
        }),
    ];
    let mut dodged = Vec::new();
    for (what, edit) in edits {
        for start in [&[][..], &["--no-verify"][..]] {
            let (t, base) = signed_pull_request(
                "node --test",
                &[
                    ("calc.js", CALC_JS),
                    ("calc.test.js", TEST_JS),
                    ("README.md", "# Calc\n"),
                ],
                start,
                edit,
            );
            if crate::gate::gate_passes(&t, &base) {
                dodged.push(format!("{what}, the gate, {start:?}"));
            }
            let json = t.ok(&["show", "w", "--json"]).json();
            if start.is_empty() && json.get("verify_green_at_start").is_none() {
                dodged.push(format!("{what}, the sign-off"));
            }
        }
    }
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

// Honest twin (helper 105): where the verify names no file, only Markdown prose
// is no change. A README's code block (which rustdoc or a doctest runner could
// run), a doctest prompt, and a Markdown case among the tests' files are what a
// runner may run: an edit there ends the finding, as before.
#[test]
fn an_edit_a_runner_could_run_in_markdown_ends_green_at_start() {
    const README: &str = "# Calc\n\n```js\nadd(2, 3) // 5\n```\n";
    type Edit = fn(&Test);
    let edits: [(&str, Edit); 4] = [
        // The control: prose alone keeps the finding.
        ("a sentence", |t| {
            t.write("README.md", format!("{README}\nAdds two numbers.\n"))
        }),
        ("a code block", |t| {
            t.write(
                "README.md",
                "# Calc\n\n```js\nadd(2, 3) // 5\nadd(1, 1) // 2\n```\n",
            )
        }),
        ("a doctest prompt", |t| {
            t.write("README.md", format!("{README}\n>>> add(2, 3)\n5\n"))
        }),
        ("a case among the tests", |t| {
            t.write("tests/cases/add.md", "# Add\n\nTwo and three make five.\n")
        }),
    ];
    let mut flagged = Vec::new();
    for (what, edit) in edits {
        let (t, _) = signed_pull_request(
            "node --test",
            &[
                ("calc.js", CALC_JS),
                ("calc.test.js", TEST_JS),
                ("README.md", README),
                ("tests/cases/add.md", "# Add\n"),
            ],
            &[],
            edit,
        );
        let json = t.ok(&["show", "w", "--json"]).json();
        if let Some(green) = json.get("verify_green_at_start") {
            flagged.push(format!("{what}: {green}"));
        }
    }
    assert_eq!(flagged.len(), 1, "{flagged:?}");
    assert!(flagged[0].starts_with("a sentence: "), "{flagged:?}");
}

// Attack (helper 102): `a_verify_that_reads_its_own_start_line_does_not_dodge_green_at_start`
// with the goal in a second plan file (`docs/plan-b.md`), read through its folder
// (`grep -rq ' w started' docs`, so no verify-reads-plan): the gate lays only the
// configured plan file over the start's checkout, so the second file's `started`
// line is missing at every start and the verify reads as red there; with no such
// line checked (`test -f README.md` alone) the gate fails on
// verify-green-at-start.
#[test]
fn a_verify_that_reads_its_own_start_line_in_a_second_plan_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan("# Plan: Main\n\n## Log\n");
    t.write("docs/plan-b.md", PR_PLAN.replace("VERIFY", "sh check.sh"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "check.sh",
        "grep -rq ' w started' docs && test -f README.md\n",
    );
    t.commit_all("the check");
    let b = ["--file", "docs/plan-b.md"];
    t.ok(&[b[0], b[1], "start", "w"]);
    t.commit_all("start");
    t.write("other.txt", "unrelated\n");
    t.commit_all("work");
    t.ok(&[b[0], b[1], "complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
}

// Attack (helper 105): the goal is in the configured plan file, and its verify
// reads the `started` line of a do-nothing goal of a second plan file
// (`docs/plan-b.md`), started after it: red at every commit the gate re-runs it at
// before the work, green after. Only the goal's own plan file was laid over the
// start's checkout; every plan file the repository has is, now.
#[test]
fn a_verify_that_reads_a_start_line_in_another_plan_file_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(&PR_PLAN.replace("VERIFY", "sh check.sh"));
    let other =
        "# Plan: B\n\n## Goal: Marker\n<!-- id: x -->\nstatus: open\ndone_when: never\n\n## Log\n";
    t.write("docs/plan-b.md", other);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "check.sh",
        "grep -rq ' x started' docs && test -f README.md\n",
    );
    t.commit_all("the check");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.ok(&["--file", "docs/plan-b.md", "start", "x"]);
    t.write("other.txt", "unrelated\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    let out = crate::gate::gate_run(&t, &base);
    assert!(out.contains("verify-green-at-start"), "{out}");
    gate_fails(&t, &base);
}

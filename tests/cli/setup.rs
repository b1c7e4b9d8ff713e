//! Shared setups: the plans in fixtures/plans/ and the states many tests start
//! from (a goal started, signed off, reopened; two goals; a command judge).

use crate::util::{Run, Test, fixture};

/// `fixtures/plans/NAME`: `ship.md` (one active goal `ship`, verified by README.md),
/// `ship-other.md` (and an open goal `other`), `ship-other-todo.md` (`other` with an
/// open subtask).
pub fn plan(name: &str) -> String {
    fixture(&format!("plans/{name}"))
}

/// A repository holding `plan`, with README.md written, the accepting fixture judge,
/// and `ship` started and committed.
pub fn started(plan: &str) -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", plan);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

/// A repository holding `plan` (ship-other.md) whose `ship` verifies by the fake
/// programs `scripts` (name, shell script) run one after another (`a && b`), with
/// README.md written, the accepting fixture judge, and `ship` started without its
/// verify and committed.
pub fn verified_by(scripts: &[(&str, &str)]) -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    let line: Vec<String> = scripts
        .iter()
        .map(|(name, script)| t.fake_program(name, script).display().to_string())
        .collect();
    let md = plan("ship-other.md").replace(
        "verify: test -f README.md",
        &format!("verify: {}", line.join(" && ")),
    );
    t.write("plan.md", md);
    t.judge("accept");
    // Started without its verify: run at the start, it would be refused there
    // (tests/cli/red_first.rs); these are about the sign-off's own run.
    t.ok(&["start", "ship", "--no-verify"]);
    t.commit_all("start");
    t
}

/// `plan complete ship` with README.md as evidence.
pub fn complete_ship(t: &Test) -> Run {
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ])
}

/// `ship` signed off; the sign-off must succeed.
pub fn sign_off_ship(t: &Test) {
    complete_ship(t).code(0);
}

/// `plan` started, `ship` signed off, committed, reopened, committed: the state a
/// reopen-hiding attack starts from.
pub fn reopened(plan: &str) -> Test {
    let t = started(plan);
    sign_off_ship(&t);
    t.ok(&["audit"]);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "verify fails again"]);
    t.commit_all("reopened");
    t
}

/// Signs goal `id` off with no judge (`--judge none`).
pub fn sign_unjudged(t: &Test, id: &str) {
    t.ok(&["complete", id, "--evidence", "done", "--judge", "none"]);
}

/// Two active goals, `a` (verify: a.txt exists) and `b` (b.txt), committed.
pub fn two_goals() -> Test {
    two_goals_with(false)
}

/// [`two_goals`] with a loop running (`plan goal --budget 5`) before the commit.
pub fn two_goals_looping() -> Test {
    two_goals_with(true)
}

fn two_goals_with(looping: bool) -> Test {
    let t = Test::new();
    t.ok(&["init", "Red team"]);
    for (title, file) in [("A", "a.txt"), ("B", "b.txt")] {
        t.ok(&[
            "add",
            title,
            "--done-when",
            &format!("{file} exists"),
            "--verify",
            &format!("test -f {file}"),
            "--failure-mode",
            &format!("{file} is empty"),
            "--active",
        ]);
    }
    if looping {
        t.ok(&["goal", "--budget", "5"]);
    }
    t.commit_all("start");
    t
}

/// Goal `id`'s status as `plan show ID --json` gives it.
pub fn status_of(t: &Test, id: &str) -> String {
    let json = t.ok(&["show", id, "--json"]).json();
    json["status"].as_str().unwrap_or_default().to_string()
}

/// Goal `id`'s proof as `plan show ID --json` gives it: its state, and all of it.
pub fn proof_of(t: &Test, id: &str) -> (String, String) {
    let proof = t.ok(&["show", id, "--json"]).json()["proof"].clone();
    (
        proof["state"].as_str().unwrap().to_string(),
        proof.to_string(),
    )
}

/// Goal `id`'s contract fingerprint as `plan show ID --json` gives it.
pub fn contract_of(t: &Test, id: &str) -> String {
    let json = t.ok(&["show", id, "--json"]).json();
    json["contract"].as_str().unwrap().to_string()
}

/// The first line of `md` that contains `needle`.
pub fn line_with<'a>(md: &'a str, needle: &str) -> &'a str {
    md.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}:\n{md}"))
}

/// A command judge: `script` after reading the prompt, with a 20 s timeout.
pub fn command_judge(t: &Test, script: &str) {
    // A command judge starts in an empty directory; the tree it reads is in
    // PLAN_JUDGE_TREE.
    let judge = t.fake_program(
        "judge",
        &format!("cat >/dev/null\ncd \"$PLAN_JUDGE_TREE\" || exit 9\n{script}"),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            judge.display()
        ),
    );
}

/// [`command_judge`], committed.
pub fn committed_judge(t: &Test, script: &str) {
    command_judge(t, script);
    t.commit_all("judge");
}

/// `a` signed off, then the active goal `b` deleted from plan.md by hand (no
/// `plan cancel`): its `added` and `started` lines stay in the log.
pub fn b_deleted() -> Test {
    let t = two_goals();
    t.ok(&["goal", "--budget", "5"]);
    t.write("a.txt", "a\n");
    sign_unjudged(&t, "a");
    t.commit_all("a signed off");
    assert_eq!(
        t.stop_hook("s1").answer()["decision"],
        "block",
        "b is active"
    );
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    t.write("plan.md", format!("{}{}", &md[..from], &md[to..]));
    t
}

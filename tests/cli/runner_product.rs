//! A test runner's own repository tests with `python -m pytest`, which runs its
//! own source: that source is the product its tests test, so changing it is no
//! `verify-file-changed`; a runner a project only vendors stays the check, even
//! when the work renames the project after it.

use crate::util::Test;

/// A repository with `files`, whose goal `w` verifies with `python3 -m pytest
/// -q` and was started (not run) after they were committed.
fn started(files: &[(&str, &str)]) -> Test {
    let t = Test::new();
    for (path, text) in files {
        t.write(path, text);
    }
    t.write(
        "plan.md",
        "# Plan: Runner\n\n## Goal: Work\n<!-- id: w -->\nstatus: open\ndone_when: the tests pass\nverify: python3 -m pytest -q\n\n## Log\n",
    );
    t.commit_all("the runner");
    t.ok(&["start", "w", "--no-verify"]);
    t.commit_all("start w");
    t
}

/// The rule of each finding `plan show w --json` gives, with its file.
fn findings(t: &Test) -> Vec<(String, String)> {
    let json = t.ok(&["show", "w", "--json"]).json();
    json["findings"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|f| {
            let said = |k: &str| f[k].as_str().unwrap_or_default().to_string();
            (said("kind"), said("file"))
        })
        .collect()
}

const RUNNER: &str = "def main():\n    return run_tests()\n";

#[test]
fn a_runners_own_source_in_its_own_repository_is_the_product() {
    let t = started(&[
        ("setup.py", "setup(name='pytest', py_modules=['pytest'])\n"),
        ("pytest.py", RUNNER),
    ]);
    t.write(
        "pytest.py",
        "def main():\n    return run_tests(verbose=True)\n",
    );
    let found = findings(&t);
    assert!(
        !found.iter().any(|(k, _)| k == "verify-file-changed"),
        "{found:?}"
    );
}

/// Attack: a runner the project vendors, gutted, with the manifest renamed to
/// the runner's name so that it reads as the runner's own repository now.
#[test]
fn attack_a_vendored_runner_with_the_project_renamed_after_it_stays_high() {
    let t = started(&[
        ("setup.py", "setup(name='myapp', py_modules=['myapp'])\n"),
        ("pytest.py", RUNNER),
        ("myapp.py", "X = 1\n"),
    ]);
    t.write("setup.py", "setup(name='pytest', py_modules=['myapp'])\n");
    t.write("pytest.py", "import sys\nsys.exit(0)\n");
    let found = findings(&t);
    let hit = ("verify-file-changed".to_string(), "pytest.py".to_string());
    assert!(found.contains(&hit), "{found:?}");
}

/// Two goals: `a` renames the project after the runner it vendors (its verify
/// runs no runner, so nothing it rests on changes), `w` then guts that runner,
/// whose start now reads as the runner's own repository. Both signed off and
/// committed; returns the repository and the base's commit.
fn renamed_in_an_earlier_goal() -> (Test, String) {
    let t = Test::new();
    let claude = crate::util::fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin();
    t.write(
        "plan.md",
        "# Plan: Runner\n\n## Goal: Name\n<!-- id: a -->\nstatus: open\ndone_when: the check passes\nverify: python3 check_a.py\n\n## Goal: Work\n<!-- id: w -->\nstatus: open\ndone_when: the tests pass\nverify: python3 -m pytest -q\n\n## Log\n",
    );
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("setup.py", "setup(name='myapp', py_modules=['myapp'])\n");
    t.write(
        "pytest.py",
        "import sys\nsys.exit(0 if __import__('myapp').X == 2 else 1)\n",
    );
    t.write("myapp.py", "X = 1\n");
    t.write("check_a.py", "assert True\n");
    t.commit_all("the runner");
    let base = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.ok(&["start", "a", "--no-verify"]);
    t.write("setup.py", "setup(name='pytest', py_modules=['myapp'])\n");
    t.commit_all("a done");
    t.ok(&["complete", "a", "--evidence", "renamed"]);
    t.commit_all("a signed off");
    t.ok(&["start", "w", "--no-verify"]);
    t.commit_all("start w");
    t.write("pytest.py", "import sys\nsys.exit(0)\n");
    t.commit_all("w done");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("w signed off");
    (t, base)
}

/// Attack over two goals ([`renamed_in_an_earlier_goal`]): the gate reads the
/// names at the pull request's base, where the project was not the runner:
/// `verify-file-changed` there, and `--strict` fails.
#[test]
fn attack_a_project_renamed_after_its_runner_in_an_earlier_goal_fails_the_gate() {
    let (t, base) = renamed_in_an_earlier_goal();
    let gate = t.run(&["audit", "--base", &base, "--strict", "--markdown"]);
    assert_ne!(gate.code, 0, "{}", gate.stdout);
    assert!(
        gate.stdout.contains("verify-file-changed, high") && gate.stdout.contains("pytest.py"),
        "{}",
        gate.stdout
    );
}

/// The same at `w`'s own sign-off: its start is after `a`'s rename, so the
/// vendored runner reads as the product there; only the gate catches it.
#[test]
#[ignore = "known hole: sign-off reads the project's names at the goal's own start, which an earlier goal of the same pull request renamed; the gate (names at the base) catches it"]
fn attack_a_project_renamed_after_its_runner_in_an_earlier_goal_is_found_at_sign_off() {
    let (t, _) = renamed_in_an_earlier_goal();
    let hit = ("verify-file-changed".to_string(), "pytest.py".to_string());
    let found = findings(&t);
    assert!(found.contains(&hit), "{found:?}");
}

/// An open goal on the base whose verify runs `pytest.py`, in a project named
/// `name`, the judge a fake `claude` that accepts; `pr` branched from there.
/// Returns the base.
fn open_goal_on_main(name: &str) -> (Test, String) {
    let t = Test::new();
    let claude = crate::util::fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin();
    t.write(
        "plan.md",
        crate::gate::PLAN.replace("verify: test -f README.md", "verify: python3 -m pytest -q"),
    );
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.write(
        "setup.py",
        format!("setup(name='{name}', py_modules=['myapp'])\n"),
    );
    t.write("pytest.py", RUNNER);
    t.commit_all("the runner");
    let base = crate::gate::rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    (t, base)
}

/// Attack: a pull request guts the vendored runner an open goal of the base
/// verifies with, and renames the project after it, so that the runner reads
/// as the product at its head: the check softened under an unchanged contract
/// is still a contract change, read with the names the project had at the
/// base.
#[test]
fn attack_an_open_goals_runner_gutted_with_the_project_renamed_is_a_contract_change() {
    let (t, base) = open_goal_on_main("myapp");
    t.write("setup.py", "setup(name='pytest', py_modules=['myapp'])\n");
    t.write("pytest.py", "import sys\nsys.exit(0)\n");
    t.commit_all("simplify");
    let run = t.run(&["audit", "--base", &base, "--strict"]);
    assert_ne!(run.code, 0, "{}", run.stdout);
    assert!(
        run.stdout.contains("the pull request changed pytest.py"),
        "{}",
        run.stdout
    );
}

/// Honest twins: a pull request that leaves the runner alone passes, its
/// project renamed or not; in the runner's own repository (so named at the
/// base) its source is the product, changed without a contract change.
#[test]
fn an_open_goals_runner_left_alone_or_its_own_is_no_contract_change() {
    let (t, base) = open_goal_on_main("myapp");
    t.write("setup.py", "setup(name='pytest', py_modules=['myapp'])\n");
    t.commit_all("rename");
    t.ok(&["audit", "--base", &base, "--strict"]);
    let (t, base) = open_goal_on_main("pytest");
    t.write(
        "pytest.py",
        "def main():\n    return run_tests(verbose=True)\n",
    );
    t.commit_all("verbose");
    t.ok(&["audit", "--base", &base, "--strict"]);
}

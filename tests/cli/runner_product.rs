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

//! Rule `runner-changed`, shadow form: a module of a test runner's name (`pytest.py`,
//! a file under `_pytest/` or `unittest/`, `sitecustomize.py`) new at its path
//! runs in the runner's place. One there at the start at the same path is the
//! repository's own code (pytest's own source, which its tests run), and a change
//! to it switches nothing in.

use super::*;

fn change(path: &str, was: Option<&str>, before: Option<&str>, after: &str) -> Change {
    Change {
        path: path.to_string(),
        was: was.map(str::to_string),
        before: before.map(str::to_string),
        after: Some(after.to_string()),
    }
}

fn said(changes: &[Change]) -> Vec<String> {
    find(changes, &[]).iter().map(ToString::to_string).collect()
}

const EXIT: &str = "import sys\nsys.exit(0)\n";

/// A runner's own source changed in its own repository (pytest's
/// `src/_pytest/terminal.py`, `src/pytest.py`) is product code: no finding.
#[test]
fn the_runners_own_module_changed_in_place_is_no_finding() {
    for path in [
        "src/_pytest/terminal.py",
        "src/pytest.py",
        "_pytest/config/__init__.py",
    ] {
        let found = said(&[change(
            path,
            None,
            Some("def f():\n    return 1\n"),
            "def f():\n    return 2\n",
        )]);
        assert!(found.is_empty(), "{path}: {found:?}");
    }
}

/// Attack twins: new at its path (added, or moved in from another name), or a
/// startup hook every interpreter runs, it is still found.
#[test]
fn a_runner_module_new_at_its_path_or_a_startup_hook_is_still_found() {
    let cases = [
        change("pytest.py", None, None, EXIT),
        change("_pytest/runner.py", None, None, EXIT),
        change(
            "pytest.py",
            Some("helpers.py"),
            Some("def f():\n    pass\n"),
            EXIT,
        ),
        change(
            "sitecustomize.py",
            None,
            Some("import os\n"),
            &format!("import os\n{EXIT}"),
        ),
        change(
            "usercustomize.py",
            None,
            Some("import os\n"),
            &format!("import os\n{EXIT}"),
        ),
    ];
    for case in cases {
        let found = said(std::slice::from_ref(&case));
        assert!(
            found
                .iter()
                .any(|f| f.starts_with(&format!("{}: ", case.path))
                    && f.contains("a module of a test runner's name")),
            "{}: {found:?}",
            case.path
        );
    }
}

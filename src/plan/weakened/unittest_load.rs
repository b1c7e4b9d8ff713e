//! How unittest loads tests, changed so tests stop running while every test and
//! assertion stays in its file: a test module's `load_tests(loader, tests, pattern)`
//! returns the suite unittest runs in place of the module's own tests, so one that
//! never reads `tests` drops them (a smoke test run instead); and discovery enters
//! only packages, so a tests folder's `__init__.py` deleted hides every test in it,
//! as a test module moved below a folder with none does (renamed, or deleted and
//! added again where git found no rename), or renamed to a name discovery's
//! pattern (`test*.py`) does not match.
//! Read through tree-sitter's Python grammar. Pure.

use std::collections::HashSet;

use tree_sitter::Node;

use super::Change;
use super::rules::{Part, RuleId};
use crate::plan::syntax::preorder;

/// The finding, for a package's `__init__.py` that `change` deletes while test
/// files unittest's discovery found under it at the start (`discovered`) stay:
/// discovery no longer enters the folder, so they stop running and the run still
/// passes. Empty `discovered` (the verify runs no discovery: pytest collects the
/// folder either way) gives none.
pub(super) fn package_dropped(
    change: &Change,
    changes: &[Change],
    discovered: &[String],
) -> Option<Part> {
    // Deleted, or renamed away (`git mv tests/__init__.py tests/conftest.py`).
    let path = match (&change.was, &change.after) {
        (Some(was), _) => was,
        (None, None) if change.before.is_some() => &change.path,
        _ => return None,
    };
    let dir = path.strip_suffix("/__init__.py")?;
    if change.after.is_some() && change.path == path.as_str() {
        return None;
    }
    let prefix = format!("{dir}/");
    let gone = |path: &str| {
        changes
            .iter()
            .any(|c| (c.path == path && c.after.is_none()) || c.was.as_deref() == Some(path))
    };
    let kept: Vec<&str> = discovered
        .iter()
        .filter(|t| t.starts_with(&prefix) && !gone(t))
        .map(String::as_str)
        .collect();
    let first = kept.first()?;
    let more = match kept.len() {
        1 => String::new(),
        n => format!(" and {} more", n - 1),
    };
    Some(Part::new(
        RuleId::RunnerChanged,
        format!(
            "the package's `__init__.py` deleted: unittest's discovery no longer enters {dir}/, so {first}{more} stop running"
        ),
    ))
}

/// A test module unittest's discovery found at the start that the change
/// deletes, with the names of its tests: git hands a move it finds no rename of
/// (the file reindented, or edited past half its lines) as a deletion and an
/// addition.
pub(super) struct Deleted<'a> {
    pub path: &'a str,
    pub tests: &'a [String],
}

/// The finding, for a test file unittest's discovery found at the start
/// (`discovered`, every folder above it a package in `sources`, the Python files
/// then) that `change` moves (renamed, or added with the same file name or a test
/// of the same name as one of the `deleted`), holding tests (`tests`, their names
/// at the end) or named as a test module still, where discovery does not load
/// it: below a folder with no `__init__.py` at the end, which discovery does not
/// enter, or under a name its pattern (`test*.py`) does not match, which it
/// skips. Its tests stop running, every one still in the file.
pub(super) fn moved_out(
    change: &Change,
    tests: &[String],
    deleted: &[Deleted<'_>],
    changes: &[Change],
    discovered: &[String],
    sources: &HashSet<String>,
) -> Option<Part> {
    change.after.as_ref()?;
    let name = change.path.rsplit('/').next()?;
    let was = match (&change.was, &change.before) {
        (Some(was), _) => was.as_str(),
        (None, None) if !deleted.is_empty() => {
            let held: HashSet<&str> = tests.iter().map(String::as_str).collect();
            let same = |d: &&Deleted<'_>| {
                d.path.rsplit('/').next() == Some(name)
                    || d.tests.iter().any(|t| held.contains(t.as_str()))
            };
            deleted.iter().find(same)?.path
        }
        _ => return None,
    };
    // Discovery's default pattern, as the caller read `discovered` with it; on
    // Linux, where the gate runs, its match is case-sensitive.
    let matched = name.starts_with("test");
    if !name.ends_with(".py") || (!matched && tests.is_empty()) {
        return None;
    }
    if !discovered.iter().any(|d| d == was) {
        return None;
    }
    let package = |dir: &str, end: bool| {
        let init = format!("{dir}/__init__.py");
        let mut here = sources.contains(&init);
        for c in changes.iter().filter(|_| end) {
            if c.path == init {
                here = c.after.is_some();
            } else if c.was.as_deref() == Some(init.as_str()) {
                here = false;
            }
        }
        here
    };
    // `a/b/test_c.py`: `a` and `a/b`.
    let folders = |path: &str| -> Vec<String> {
        path.match_indices('/')
            .map(|(at, _)| path[..at].to_string())
            .collect()
    };
    if !folders(was).iter().all(|d| package(d, false)) {
        return None;
    }
    let why = match folders(&change.path)
        .into_iter()
        .find(|d| !package(d, true))
    {
        Some(outside) => format!(
            "moved from {was} into {outside}/, which has no `__init__.py`: unittest's discovery does not enter it"
        ),
        None if !matched => format!(
            "moved from {was} to {name}, a name unittest's discovery pattern (`test*.py`) does not match: discovery skips it"
        ),
        None => return None,
    };
    Some(Part::new(
        RuleId::RunnerChanged,
        format!("{why}, so its tests stop running"),
    ))
}

/// The finding, for a Python file at `path` whose module-level `load_tests` drops
/// the tests it is handed, where `before` had no such function.
pub(super) fn found(path: &str, before: Option<&str>, after: &str) -> Option<Part> {
    let package = path == "__init__.py" || path.ends_with("/__init__.py");
    let line = dropping(after, package)?;
    if before.and_then(|b| dropping(b, package)).is_some() {
        return None;
    }
    let what = if package {
        "a package's `load_tests` that loads none of its modules"
    } else {
        "a `load_tests` that drops the module's own tests"
    };
    Some(Part::at(
        RuleId::RunnerChanged,
        line,
        format!("{what} (line {line}): unittest runs what it returns in their place"),
    ))
}

/// The line of a module-level `load_tests` whose second parameter (the module's
/// tests) its body never names; `None` when there is none or the file does not
/// parse cleanly. A package's (`package`, its `__init__.py`) is handed only what
/// that file defines, and discovery leaves the package's modules to it, so
/// handing those on keeps nothing: it drops them unless it names `discover` (the
/// documented `loader.discover(this_dir, pattern)`) or asks its loader for
/// something (`loader.loadTestsFromModule(test_a)`, `loader.loadTestsFromNames([…])`
/// with names in it).
fn dropping(text: &str, package: bool) -> Option<usize> {
    if !text.contains("load_tests") {
        return None;
    }
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let src = text.as_bytes();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let defs: Vec<Node<'_>> = root
        .named_children(&mut cursor)
        .map(|n| match n.kind() {
            "decorated_definition" => n.child_by_field_name("definition").unwrap_or(n),
            _ => n,
        })
        .filter(|n| n.kind() == "function_definition")
        .collect();
    // The last definition is the one unittest calls.
    let def = defs.into_iter().rev().find(|d| {
        d.child_by_field_name("name")
            .is_some_and(|n| n.utf8_text(src) == Ok("load_tests"))
    })?;
    let params = def.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let names: Vec<&str> = params
        .named_children(&mut cursor)
        .filter_map(|p| match p.kind() {
            "identifier" => p.utf8_text(src).ok(),
            "default_parameter" | "typed_parameter" | "typed_default_parameter" => p
                .child_by_field_name("name")
                .or_else(|| p.named_child(0))
                .and_then(|n| n.utf8_text(src).ok()),
            _ => None,
        })
        .collect();
    // Any other shape (`*args`, fewer parameters) may hand the tests on unnamed.
    if names.len() != 3 || params.named_child_count() != 3 {
        return None;
    }
    let body = def.child_by_field_name("body")?;
    let named = |name: &str| {
        preorder(body).any(|n| n.kind() == "identifier" && n.utf8_text(src) == Ok(name))
    };
    // The loader asked for something: a call on it with an argument that is
    // not an empty list (`loader.loadTestsFromModule(test_a)` after `from .
    // import test_a`; not `loader.loadTestsFromNames([])`).
    let loads = || {
        preorder(body).any(|n| {
            let on_loader = n
                .child_by_field_name("function")
                .filter(|f| f.kind() == "attribute")
                .and_then(|f| f.child_by_field_name("object"))
                .is_some_and(|o| o.utf8_text(src) == Ok(names[0]));
            let asks = n.child_by_field_name("arguments").is_some_and(|a| {
                let mut cursor = a.walk();
                a.named_children(&mut cursor).any(|arg| {
                    !(matches!(arg.kind(), "list" | "tuple") && arg.named_child_count() == 0)
                })
            });
            n.kind() == "call" && on_loader && asks
        })
    };
    let read = match package {
        false => named(names[1]),
        true => named("discover") || loads(),
    };
    (!read).then(|| def.start_position().row + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\n";

    #[test]
    fn a_load_tests_that_never_reads_its_tests_drops_them() {
        let after = format!(
            "{TEST}\n\ndef load_tests(loader, tests, pattern):\n    return unittest.TestSuite()\n"
        );
        let part = found("tests/test_a.py", Some(TEST), &after).expect("a finding");
        assert!(
            part.text.contains("drops the module's own tests (line 8)"),
            "{}",
            part.text
        );
        // As it was at the start: nothing new.
        assert!(found("tests/test_a.py", Some(&after), &after).is_none());
    }

    #[test]
    fn a_load_tests_that_keeps_or_hands_on_its_tests_drops_nothing() {
        for body in [
            "    tests.addTests(doctest.DocTestSuite())\n    return tests\n",
            "    return unittest.TestSuite([tests, extra()])\n",
            "    suite = loader.suiteClass()\n    suite.addTests(standard)\n    return suite\n",
        ] {
            let params = if body.contains("standard") {
                "loader, standard, pattern"
            } else {
                "loader, tests, pattern"
            };
            let after = format!("{TEST}\n\ndef load_tests({params}):\n{body}");
            assert!(found("tests/test_a.py", None, &after).is_none(), "{body}");
        }
        // Other shapes may hand the tests on unnamed; a nested function is no hook.
        for after in [
            format!("{TEST}\ndef load_tests(*args):\n    return unittest.TestSuite()\n"),
            format!(
                "{TEST}\ndef helper():\n    def load_tests(loader, tests, pattern):\n        return None\n"
            ),
        ] {
            assert!(found("tests/test_a.py", None, &after).is_none(), "{after}");
        }
    }

    fn in_file(path: &str, before: &str, after: &str) -> Vec<crate::plan::weakened::Finding> {
        let change = Change {
            path: path.to_string(),
            was: None,
            before: Some(before.to_string()),
            after: Some(after.to_string()),
        };
        crate::plan::weakened::find(&[change], &[])
    }

    // Red team (helper 51): a package's `load_tests` is handed only what its
    // `__init__.py` defines, and discovery leaves the package's modules to it, so
    // one that hands those back loads none of them: passed on main.
    #[test]
    fn a_package_s_load_tests_that_loads_none_of_its_modules_drops_them() {
        for body in [
            "    return tests\n",
            "    return unittest.TestSuite()\n",
            "    return loader.loadTestsFromNames([])\n",
            "    tests.addTests(loader.loadTestsFromNames([]))\n    return tests\n",
        ] {
            let after =
                format!("import unittest\n\n\ndef load_tests(loader, tests, pattern):\n{body}");
            let found = in_file("tests/__init__.py", "", &after);
            assert!(
                found
                    .iter()
                    .any(|f| f.parts.iter().any(|p| p.rule == RuleId::RunnerChanged)),
                "{body}{found:?}"
            );
        }
    }

    #[test]
    fn a_package_s_load_tests_that_discovers_its_modules_drops_nothing() {
        for body in [
            "    here = os.path.dirname(__file__)\n    tests.addTests(loader.discover(start_dir=here, pattern=pattern))\n    return tests\n",
            "    return loader.discover(os.path.dirname(__file__), pattern or 'test*.py')\n",
            // Helper 54's review: an honest package loading its modules by name
            // drew runner-changed, high.
            "    from . import test_a, test_b\n    suite = unittest.TestSuite()\n    for m in (test_a, test_b):\n        suite.addTests(loader.loadTestsFromModule(m))\n    return suite\n",
        ] {
            let after = format!("import os\n\n\ndef load_tests(loader, tests, pattern):\n{body}");
            assert_eq!(
                in_file("tests/__init__.py", "", &after),
                Vec::new(),
                "{body}"
            );
        }
        // A test module's own `load_tests` that hands its tests back keeps them.
        let after =
            format!("{TEST}\n\ndef load_tests(loader, tests, pattern):\n    return tests\n");
        assert_eq!(in_file("tests/test_a.py", TEST, &after), Vec::new());
    }

    /// What the whole check finds, the verify running unittest's discovery over
    /// `at_start` (every Python file then), for `changes`.
    fn discovering(at_start: &[&str], changes: &[Change]) -> Vec<crate::plan::weakened::Finding> {
        let given = crate::plan::weakened::hacks::Given {
            sources: at_start.iter().map(|p| p.to_string()).collect(),
            discovered: at_start
                .iter()
                .filter(|p| p.rsplit('/').next().is_some_and(|n| n.starts_with("test")))
                .map(|p| p.to_string())
                .collect(),
            ..Default::default()
        };
        crate::plan::weakened::find_given(changes, &[], &given)
    }

    // Helper 51's possible false alarm: under `discover -s tests` discovery
    // imports from tests/ itself, so its own `__init__.py` deleted hides nothing;
    // a package below it still needs its own.
    #[test]
    fn the_discovery_top_s_own_init_deleted_hides_nothing() {
        let at_start = [
            "tests/__init__.py",
            "tests/test_a.py",
            "tests/unit/__init__.py",
            "tests/unit/test_b.py",
        ];
        let gone = |path: &str| Change {
            path: path.to_string(),
            was: None,
            before: Some(String::new()),
            after: None,
        };
        let given = |top: Option<&str>| crate::plan::weakened::hacks::Given {
            sources: at_start.iter().map(|p| p.to_string()).collect(),
            discovered: vec![
                "tests/test_a.py".to_string(),
                "tests/unit/test_b.py".to_string(),
            ],
            discovery_top: top.map(str::to_string),
            ..Default::default()
        };
        let find = |path: &str, top: Option<&str>| {
            crate::plan::weakened::find_given(&[gone(path)], &[], &given(top))
        };
        assert_ne!(find("tests/__init__.py", None), Vec::new());
        assert_eq!(find("tests/__init__.py", Some("tests")), Vec::new());
        assert_ne!(find("tests/unit/__init__.py", Some("tests")), Vec::new());
    }

    fn moved(from: &str, to: &str) -> Change {
        Change {
            path: to.to_string(),
            was: Some(from.to_string()),
            before: Some(TEST.to_string()),
            after: Some(TEST.to_string()),
        }
    }

    const AT_START: &[&str] = &[
        "tests/__init__.py",
        "tests/test_a.py",
        "tests/unit/__init__.py",
        "tests/unit/test_b.py",
        "tests/data/make.py",
        "calc.py",
    ];

    // Red team (helper 51): discovery enters only packages, so a test module moved
    // into a folder with no `__init__.py` (`tests/legacy/`, an existing data
    // folder) stops running, every test and assertion still in it: passed on main.
    #[test]
    fn a_test_module_moved_out_of_the_packages_under_discovery_stops_running() {
        for to in [
            "tests/legacy/test_a.py",
            "tests/data/test_a.py",
            "old/test_a.py",
        ] {
            let found = discovering(AT_START, &[moved("tests/test_a.py", to)]);
            assert!(
                found.iter().any(
                    |f| f.path == to && f.parts.iter().any(|p| p.rule == RuleId::RunnerChanged)
                ),
                "{to}: {found:?}"
            );
        }
    }

    #[test]
    fn a_test_module_moved_to_another_package_or_with_its_own_still_runs() {
        for to in ["tests/unit/test_a.py", "test_a.py", "tests/test_calc.py"] {
            let found = discovering(AT_START, &[moved("tests/test_a.py", to)]);
            assert_eq!(found, Vec::new(), "{to}");
        }
        // The new folder made a package in the same change.
        let init = Change {
            path: "tests/legacy/__init__.py".to_string(),
            was: None,
            before: None,
            after: Some(String::new()),
        };
        let found = discovering(
            AT_START,
            &[moved("tests/test_a.py", "tests/legacy/test_a.py"), init],
        );
        assert_eq!(found, Vec::new());
    }

    fn change(path: &str, before: Option<&str>, after: Option<&str>) -> Change {
        Change {
            path: path.to_string(),
            was: None,
            before: before.map(str::to_string),
            after: after.map(str::to_string),
        }
    }

    fn runner_changed_at(found: &[crate::plan::weakened::Finding], path: &str) -> bool {
        found
            .iter()
            .any(|f| f.path == path && f.parts.iter().any(|p| p.rule == RuleId::RunnerChanged))
    }

    // Helper 54's review: the move below a non-package as git hands it when it
    // finds no rename (the file reindented, or edited past half its lines): a
    // deletion and an addition, no `was`.
    #[test]
    fn a_test_module_moved_out_with_no_rename_found_stops_running() {
        let reindented = TEST.replace("    ", "  ");
        let renamed_too = reindented.replace("class T(", "class Legacy(");
        for (to, text) in [
            ("tests/legacy/test_a.py", &reindented),
            ("tests/data/test_a.py", &reindented),
            // Its file renamed as well: its tests still say where it came from.
            ("old/test_old_a.py", &renamed_too),
        ] {
            let changes = [
                change("tests/test_a.py", Some(TEST), None),
                change(to, None, Some(text)),
            ];
            let found = discovering(AT_START, &changes);
            assert!(runner_changed_at(&found, to), "{to}: {found:?}");
        }
        // Into a package, or a new module of other tests beside the deletion.
        for (to, text) in [
            ("tests/unit/test_a.py", reindented.clone()),
            ("tests/test_a2.py", reindented.clone()),
            (
                "scripts/test_lint.py",
                TEST.replace("def test_a(", "def test_lint("),
            ),
        ] {
            let changes = [
                change("tests/test_a.py", Some(TEST), None),
                change(to, None, Some(&text)),
            ];
            let found = discovering(AT_START, &changes);
            assert!(!runner_changed_at(&found, to), "{to}: {found:?}");
        }
    }

    // Helper 54's review: discovery loads only modules its pattern (`test*.py`)
    // matches, so a test module renamed in its own package to a name it does not
    // match is skipped as one below a folder with no `__init__.py` is.
    #[test]
    fn a_test_module_renamed_out_of_discovery_s_pattern_stops_running() {
        for to in ["tests/a_test.py", "tests/check_a.py", "tests/Test_a.py"] {
            let found = discovering(AT_START, &[moved("tests/test_a.py", to)]);
            assert!(runner_changed_at(&found, to), "{to}: {found:?}");
        }
        // A module of helpers that held no test, renamed out of the pattern.
        let helpers = "def make(n):\n    return list(range(n))\n";
        let renamed = Change {
            path: "tests/helpers.py".to_string(),
            was: Some("tests/test_a.py".to_string()),
            before: Some(helpers.to_string()),
            after: Some(helpers.to_string()),
        };
        let found = discovering(AT_START, &[renamed]);
        assert_eq!(found, Vec::new());
    }

    #[test]
    fn a_package_deleted_under_discovery_hides_the_tests_that_stay() {
        let init = change("tests/__init__.py", Some(""), None);
        let discovered = ["tests/test_a.py".to_string(), "tests/test_b.py".to_string()];
        let part = package_dropped(&init, std::slice::from_ref(&init), &discovered).unwrap();
        assert_eq!(part.rule, RuleId::RunnerChanged);
        assert!(
            part.text.contains("tests/test_a.py and 1 more"),
            "{}",
            part.text
        );
        // The folder's tests deleted or moved with it: they are read where they went.
        let gone = [
            init.clone(),
            change("tests/test_a.py", Some(TEST), None),
            Change {
                was: Some("tests/test_b.py".to_string()),
                ..change("test_b.py", Some(TEST), Some(TEST))
            },
        ];
        assert!(package_dropped(&init, &gone, &discovered).is_none());
        // No discovery (pytest collects the folder either way), a package kept,
        // another folder's tests, a module that is not a package's.
        assert!(package_dropped(&init, std::slice::from_ref(&init), &[]).is_none());
        let kept = change("tests/__init__.py", Some(""), Some("# tests\n"));
        assert!(package_dropped(&kept, std::slice::from_ref(&kept), &discovered).is_none());
        let other = change("lib/__init__.py", Some(""), None);
        assert!(package_dropped(&other, std::slice::from_ref(&other), &discovered).is_none());
        let renamed = Change {
            was: Some("tests/__init__.py".to_string()),
            ..change("tests/conftest.py", Some("x = 1\n"), Some("x = 1\n"))
        };
        assert!(package_dropped(&renamed, std::slice::from_ref(&renamed), &discovered).is_some());
        let module = change("tests/helpers.py", Some(""), None);
        assert!(package_dropped(&module, std::slice::from_ref(&module), &discovered).is_none());
    }
}

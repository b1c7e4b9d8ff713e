//! Rule `runner-changed`, new-file form: a new `conftest.py` whose hooks can
//! skip or swap what tests use, or a new jest, vitest or vite configuration, is
//! found where tests that ran live under it, and not in a new directory that
//! holds only the change's new tests.

use super::*;

const HOOK: &str = "import sys\n\nimport compat\n\n\ndef pytest_configure(config):\n    sys.modules[\"requests\"] = compat\n";
const NEW_TEST: &str = "import requests\n\n\ndef test_get():\n    assert requests.get(\"http://x\").status_code == 200\n";
const OLD_TEST: &str = "def test_add():\n    assert 1 + 1 == 2\n";

fn given() -> hacks::Given {
    let mut given =
        hacks::Given::of(&[("tests/unit/test_add.py".to_string(), OLD_TEST.to_string())]);
    given.test_dirs = ["tests/unit".to_string()].into();
    given
}

fn new_file(path: &str, text: &str) -> Change {
    Change {
        path: path.to_string(),
        was: None,
        before: None,
        after: Some(text.to_string()),
    }
}

#[test]
fn a_new_conftest_beside_new_tests_only_is_no_finding() {
    let changes = [
        new_file("tests/compat/conftest.py", HOOK),
        new_file("tests/compat/test_get.py", NEW_TEST),
    ];
    assert_eq!(find_given(&changes, &[], &given()), Vec::<Finding>::new());
}

#[test]
fn a_new_conftest_over_tests_that_ran_is_found() {
    for path in ["tests/conftest.py", "tests/unit/conftest.py", "conftest.py"] {
        let changes = [new_file(path, HOOK)];
        let found = find_given(&changes, &[], &given());
        assert_eq!(found.len(), 1, "{path}: {found:?}");
        assert!(kinds::high(&found[0]), "{found:?}");
    }
    // A test that was there moved under it is one of them.
    let moved = Change {
        path: "tests/compat/test_add.py".to_string(),
        was: Some("tests/unit/test_add.py".to_string()),
        before: Some(OLD_TEST.to_string()),
        after: Some(OLD_TEST.to_string()),
    };
    let changes = [new_file("tests/compat/conftest.py", HOOK), moved];
    assert_eq!(find_given(&changes, &[], &given()).len(), 1);
}

const VITE: &str = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: { dir: './src', include: ['**/*.test.ts'], environment: 'jsdom' },\n})\n";
const JS_TEST: &str =
    "import { f } from '../index'\n\nit('works', () => {\n  expect(f()).toBe(1)\n})\n";

fn given_js() -> hacks::Given {
    let mut given = hacks::Given::of(&[("pkg/a/src/old.test.ts".to_string(), JS_TEST.to_string())]);
    given.test_parents = Some(["pkg/a/src".to_string()].into());
    given
}

#[test]
fn a_new_js_runner_config_for_a_packages_first_tests_is_no_finding() {
    for config in [
        "pkg/b/vite.config.ts",
        "pkg/b/vitest.config.ts",
        "pkg/b/jest.config.js",
    ] {
        let changes = [
            new_file(config, VITE),
            new_file("pkg/b/src/__tests__/index.test.ts", JS_TEST),
        ];
        assert_eq!(find_given(&changes, &[], &given_js()), [], "{config}");
    }
}

#[test]
fn a_new_js_runner_config_over_tests_that_ran_is_found() {
    // Over the tests that were there, at the package or at the root.
    for config in ["pkg/a/vitest.config.ts", "vitest.config.ts"] {
        let changes = [new_file(config, VITE)];
        let found = find_given(&changes, &[], &given_js());
        assert!(found.iter().any(kinds::high), "{config}: {found:?}");
    }
    // Where plan does not know which folders held tests, it says so as before.
    let changes = [new_file("pkg/b/vitest.config.ts", VITE)];
    let found = find_given(&changes, &[], &hacks::Given::default());
    assert!(found.iter().any(kinds::high), "{found:?}");
}

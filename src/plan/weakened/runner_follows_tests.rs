//! Rule `runner-changed`, where the runner's configuration follows the tests
//! (helper 117): a vitest config's `dir` and setup file following the tests moved
//! with them, a config split into projects of which one holds the old options
//! whole, a conftest hook rewritten with pytest's other names for the same
//! objects, and node's runner given a directory's entries for the directory.
//! Each has an attack twin that still narrows what runs.

use std::collections::HashSet;

use super::*;

fn moved(path: &str, was: &str, text: &str) -> Change {
    Change {
        path: path.to_string(),
        was: Some(was.to_string()),
        before: Some(text.to_string()),
        after: Some(text.to_string()),
    }
}

fn runner_found(changes: &[Change], given: &hacks::Given) -> Vec<String> {
    find_given(changes, &[], given)
        .iter()
        .filter(|f| (kinds::parts(f).iter()).any(|p| p.rule == rules::RuleId::RunnerChanged))
        .map(ToString::to_string)
        .collect()
}

/// The tests at the start, as the shell layer gives them: every test path, and
/// their directories.
fn given_tests(tests: &[&str]) -> hacks::Given {
    let texts: Vec<(String, String)> = tests
        .iter()
        .map(|t| (t.to_string(), "test('x', () => {})\n".to_string()))
        .collect();
    let mut given = hacks::Given::of(&texts);
    given.test_parents = Some(
        tests
            .iter()
            .map(|t| t.rsplit_once('/').map_or("", |p| p.0).to_string())
            .collect::<HashSet<String>>(),
    );
    given
}

const VITE_SRC: &str = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    dir: './src',\n    environment: 'jsdom',\n    setupFiles: ['test-setup.ts'],\n    coverage: { enabled: true, include: ['src/**/*'] },\n  },\n})\n";
const VITE_TESTS: &str = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    dir: './tests',\n    environment: 'jsdom',\n    setupFiles: ['./tests/test-setup.ts'],\n    coverage: { enabled: true, include: ['src/**/*'] },\n  },\n})\n";
const SETUP: &str = "import '@testing-library/jest-dom/vitest'\nimport { afterEach } from 'vitest'\nafterEach(() => cleanup())\n";
const SETUP_LESS: &str = "import '@testing-library/jest-dom/vitest'\n";
const TEST: &str = "test('keeps', () => {\n  expect(1).toBe(1)\n})\n";

fn dir_move(setup_after: &str) -> Vec<Change> {
    vec![
        change("pkg/vite.config.ts", Some(VITE_SRC), Some(VITE_TESTS)),
        moved("pkg/tests/a.test.ts", "pkg/src/__tests__/a.test.ts", TEST),
        moved(
            "pkg/tests/b/b.test.ts",
            "pkg/src/__tests__/b/b.test.ts",
            TEST,
        ),
        change("pkg/test-setup.ts", Some(SETUP), None),
        change("pkg/tests/test-setup.ts", None, Some(setup_after)),
    ]
}

/// TanStack query 003e1a8c's shape (a fresh set's tune half): the tests moved
/// from `src/__tests__` to `tests/`, the config's `dir` and its setup file with
/// them. High before.
#[test]
fn a_config_following_the_tests_it_runs_is_no_finding() {
    let given = given_tests(&[
        "pkg/src/__tests__/a.test.ts",
        "pkg/src/__tests__/b/b.test.ts",
    ]);
    let found = runner_found(&dir_move(SETUP_LESS), &given);
    assert!(found.is_empty(), "{found:?}");
}

/// Attack twins: a test under the old `dir` left behind (no longer run), the
/// `dir` moved with no test following it, a moved test renamed to a name the
/// runner does not pick, a setup file that gains a line on the way, or the
/// tests at the start not known: each is still found.
#[test]
fn a_config_that_leaves_tests_behind_is_still_found() {
    let left = given_tests(&[
        "pkg/src/__tests__/a.test.ts",
        "pkg/src/__tests__/b/b.test.ts",
        "pkg/src/util.test.ts",
    ]);
    assert!(!runner_found(&dir_move(SETUP_LESS), &left).is_empty());
    let given = given_tests(&[
        "pkg/src/__tests__/a.test.ts",
        "pkg/src/__tests__/b/b.test.ts",
    ]);
    let no_move = [change(
        "pkg/vite.config.ts",
        Some(VITE_SRC),
        Some(VITE_TESTS),
    )];
    assert!(!runner_found(&no_move, &given).is_empty());
    let mut renamed = dir_move(SETUP_LESS);
    renamed[1].path = "pkg/tests/a.ts".to_string();
    assert!(!runner_found(&renamed, &given).is_empty());
    let skips = format!("{SETUP_LESS}beforeEach((ctx) => ctx.skip())\n");
    assert!(!runner_found(&dir_move(&skips), &given).is_empty());
    let unknown = hacks::Given::default();
    assert!(!runner_found(&dir_move(SETUP_LESS), &unknown).is_empty());
    let mut past_cap = given_tests(&[
        "pkg/src/__tests__/a.test.ts",
        "pkg/src/__tests__/b/b.test.ts",
    ]);
    past_cap.tests_past_cap = Some("pkg/src/zz.test.ts".to_string());
    assert!(!runner_found(&dir_move(SETUP_LESS), &past_cap).is_empty());
}

/// Attack twins: the tests moved with the `dir` into a folder the runner passes
/// over by default (`dist`), or into one an `exclude` the config kept names, or
/// an `include` kept that still names the old folder.
#[test]
fn tests_moved_where_the_runner_passes_over_them_are_still_found() {
    let given = given_tests(&[
        "pkg/src/__tests__/a.test.ts",
        "pkg/src/__tests__/b/b.test.ts",
    ]);
    let mut dist = dir_move(SETUP_LESS);
    dist[0].after = Some(VITE_TESTS.replace("'./tests'", "'./dist'"));
    dist[1].path = "pkg/dist/a.test.ts".to_string();
    dist[2].path = "pkg/dist/b/b.test.ts".to_string();
    assert!(!runner_found(&dist, &given).is_empty());
    let exclude = "    exclude: ['**/legacy/**'],\n    dir:";
    let mut excluded = dir_move(SETUP_LESS);
    excluded[0].before = Some(VITE_SRC.replace("    dir:", exclude));
    excluded[0].after = Some(VITE_TESTS.replace("    dir:", exclude));
    excluded[1].path = "pkg/tests/legacy/a.test.ts".to_string();
    assert!(!runner_found(&excluded, &given).is_empty());
    // An `include` kept that names the old folder now picks nothing there.
    let include = "    include: ['src/**/*.test.ts'],\n    dir:";
    let mut stale = dir_move(SETUP_LESS);
    stale[0].before = Some(VITE_SRC.replace("    dir:", include));
    stale[0].after = Some(VITE_TESTS.replace("    dir:", include));
    assert!(!runner_found(&stale, &given).is_empty());
    // The same exclude, the tests moved elsewhere: no finding.
    let mut kept = excluded.clone();
    kept[1].path = "pkg/tests/a.test.ts".to_string();
    let found = runner_found(&kept, &given);
    assert!(found.is_empty(), "{found:?}");
}

const UI_BEFORE: &str = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    dir: './fixtures',\n    environment: 'happy-dom',\n    coverage: {\n      reportOnFailure: true,\n    },\n  },\n})\n";

fn ui_after(fixtures_extra: &str, browser_extra: &str, extends: &str) -> String {
    format!(
        "import {{ resolve }} from 'node:path'\nimport {{ playwright }} from '@vitest/browser-playwright'\nimport {{ defineConfig }} from 'vitest/config'\n\nexport default defineConfig({{\n  test: {{\n    coverage: {{\n      reportOnFailure: true,\n    }},\n    projects: [{{\n      extends: {extends},\n      test: {{\n        name: 'fixtures',\n        dir: './fixtures',\n        environment: 'happy-dom',\n{fixtures_extra}      }},\n    }}, {{\n      extends: true,\n      test: {{\n        name: 'browser',\n        dir: './fixtures-browser',\n{browser_extra}        browser: {{\n          enabled: true,\n          provider: playwright(),\n          instances: [{{ browser: 'chromium' }}],\n          expect: {{\n            toMatchScreenshot: {{\n              resolveScreenshotPath: ({{ root, arg, ext }}) => resolve(root, `${{arg}}${{ext}}`),\n            }},\n          }},\n        }},\n      }},\n    }}],\n  }},\n}})\n"
    )
}

/// vitest 96eb9282's shape (a fresh set's tune half): the config split into a
/// project holding its old options whole and a new browser project beside it.
/// High before.
#[test]
fn a_config_split_into_projects_keeping_the_old_one_is_no_finding() {
    for path in ["test/ui/vitest.config.ts", "test/ui/vite.config.ts"] {
        let after = ui_after("", "", "true");
        let found = runner_found(
            &[change(path, Some(UI_BEFORE), Some(&after))],
            &hacks::Given::default(),
        );
        assert!(found.is_empty(), "{path}: {found:?}");
    }
}

/// Attack twins: the project holding the old options excludes some of them, does
/// not extend the root, a new project loads a file of the repository's own
/// before the run, or a new import of the repository's own code.
#[test]
fn a_split_that_narrows_or_loads_code_is_still_found() {
    let cases = [
        ui_after("        exclude: ['**/slow*'],\n", "", "true"),
        ui_after("", "", "false"),
        ui_after("", "        globalSetup: './skip-all.ts',\n", "true"),
        ui_after("", "        setupFiles: ['./skip-all.ts'],\n", "true"),
        format!("import './skip-all'\n{}", ui_after("", "", "true")),
    ];
    for after in cases {
        let found = runner_found(
            &[change(
                "test/ui/vitest.config.ts",
                Some(UI_BEFORE),
                Some(&after),
            )],
            &hacks::Given::default(),
        );
        assert!(!found.is_empty(), "{after}");
    }
    // No project holds the old `dir`.
    let elsewhere = ui_after("", "", "true").replace("dir: './fixtures',", "dir: './other',");
    assert!(
        !runner_found(
            &[change(
                "test/ui/vitest.config.ts",
                Some(UI_BEFORE),
                Some(&elsewhere)
            )],
            &hacks::Given::default(),
        )
        .is_empty()
    );
}

const HOOK_OLD: &str = "import py\nmydir = py.path.local(__file__).dirpath()\n\ndef pytest_runtest_setup(item):\n    if isinstance(item, py.test.collect.Function):\n        if not item.fspath.relto(mydir):\n            return\n        mod = item.getparent(py.test.collect.Module).obj\n        if hasattr(mod, 'hello'):\n            py.test.skip('hello')\n";

/// pytest 2e4e9eb7's shape (a fresh set's tune half): a conftest hook rewritten
/// with pytest's own names for the same objects (`py.test.collect.Function` is
/// `pytest.Function`, `py.test.skip` is `pytest.skip`). High before.
#[test]
fn a_hook_rewritten_with_pytests_other_names_is_no_finding() {
    let after = HOOK_OLD
        .replace("py.test.collect.", "pytest.")
        .replace("py.test.", "pytest.");
    let found = runner_found(
        &[change("example/conftest.py", Some(HOOK_OLD), Some(&after))],
        &hacks::Given::default(),
    );
    assert!(found.is_empty(), "{found:?}");
}

/// Attack twin: the same rewrite with the condition widened, so that it skips
/// every test.
#[test]
fn a_hook_renamed_and_widened_is_still_found() {
    let after = HOOK_OLD
        .replace("py.test.collect.", "pytest.")
        .replace("py.test.", "pytest.")
        .replace("if hasattr(mod, 'hello'):", "if True:");
    assert!(
        !runner_found(
            &[change("example/conftest.py", Some(HOOK_OLD), Some(&after))],
            &hacks::Given::default(),
        )
        .is_empty()
    );
}

fn package(test: &str) -> String {
    format!("{{\n  \"name\": \"b\",\n  \"scripts\": {{\n    \"test\": \"{test}\"\n  }}\n}}\n")
}

/// vitest b8140fca's shape (a fresh set's tune half): node's runner given the
/// entries of `specs/` (`specs/*`) for `specs/`, which runs every file there
/// whatever its name, and each folder as before. High before.
#[test]
fn node_given_a_folders_entries_for_the_folder_is_no_finding() {
    for (then, now) in [
        (
            "node --test specs/ && echo '1'",
            "node --test specs/* && echo '1'",
        ),
        ("node --test specs", "node --test specs/*"),
        ("mocha test/", "mocha test/*"),
    ] {
        let found = runner_found(
            &[change(
                "test/benchmark/package.json",
                Some(&package(then)),
                Some(&package(now)),
            )],
            &hacks::Given::default(),
        );
        assert!(found.is_empty(), "{then} -> {now}: {found:?}");
    }
}

/// Attack twins: a glob that picks some of the folder's files, one file of it,
/// another folder, or a runner that reads its arguments as patterns of paths
/// (jest and vitest: `specs/*` matches fewer paths than `specs/`).
#[test]
fn a_narrower_glob_or_a_pattern_runner_is_still_found() {
    for (then, now) in [
        ("node --test specs/", "node --test specs/*.fast.mjs"),
        ("node --test specs/", "node --test specs/a.test.mjs"),
        ("node --test specs/", "node --test other/*"),
        ("node --test test.mjs", "node --test test.mjs/*"),
        ("jest specs/", "jest specs/*"),
        ("vitest run specs/", "vitest run specs/*"),
    ] {
        assert!(
            !runner_found(
                &[change(
                    "package.json",
                    Some(&package(then)),
                    Some(&package(now)),
                )],
                &hacks::Given::default(),
            )
            .is_empty(),
            "{then} -> {now}"
        );
    }
}

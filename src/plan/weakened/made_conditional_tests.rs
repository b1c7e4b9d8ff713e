//! A check made conditional: an assertion a test ran on every run now sits in
//! one branch of a new `if` (`if (process.platform === 'win32') { looser } else
//! { it }`), so the runs the condition leaves out no longer check it. High, as a
//! skip condition added is; a condition that was already there, a check moved
//! out of one, or a new check under one is none.

use super::*;

fn found(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

const JS: &str = "test('token file is not served', async () => {\n  const res = await get(url)\n  expect(res.status()).toBe(403)\n})\n";

#[test]
fn a_javascript_check_kept_only_in_the_else_of_a_platform_branch_is_high() {
    let after = JS.replace(
        "  expect(res.status()).toBe(403)\n",
        "  if (process.platform === 'win32') {\n    expect([403, 404]).toContain(res.status())\n  }\n  else {\n    expect(res.status()).toBe(403)\n  }\n",
    );
    let said = found("test/ui.spec.ts", JS, &after);
    assert!(
        said.iter()
            .any(|s| s.contains("now runs only when") && s.contains("win32")),
        "{said:?}"
    );
    let high = find(
        &[Change {
            path: "test/ui.spec.ts".into(),
            was: None,
            before: Some(JS.into()),
            after: Some(after.clone()),
        }],
        &[],
    );
    let rules: Vec<RuleId> = high
        .iter()
        .flat_map(|f| f.parts.iter().map(|p| p.rule))
        .collect();
    assert!(
        rules.contains(&RuleId::AssertionRewritten)
            && RuleId::AssertionRewritten.severity() == rules::Severity::High,
        "{rules:?}"
    );
}

#[test]
fn a_python_check_wrapped_in_a_new_if_is_high() {
    let before =
        "import sys\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    assert add(2, 2) == 4\n";
    let after = "import sys\n\n\ndef test_add():\n    assert add(1, 2) == 3\n    if sys.platform != \"win32\":\n        assert add(2, 2) == 4\n";
    let said = found("tests/test_add.py", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
}

#[test]
fn a_condition_already_there_reformatted_is_no_finding() {
    let before = "test('a', () => {\n  if (isWin) { expect(f()).toBe(1) }\n})\n";
    let after = "test('a', () => {\n  if (isWin) {\n    expect(f()).toBe(1);\n  }\n});\n";
    assert_eq!(found("a.test.js", before, after), Vec::<String>::new());
}

#[test]
fn a_check_taken_out_of_an_if_or_a_new_check_under_one_is_no_finding() {
    let before = "def test_a():\n    if ON:\n        assert f() == 1\n";
    let after = "def test_a():\n    assert f() == 1\n    if ON:\n        assert g() == 2\n";
    assert_eq!(
        found("tests/test_a.py", before, after),
        Vec::<String>::new()
    );
}

// A guard on a value of the test's own (a TypeScript null check) rests on what
// no reading of the environment knows, as a skip condition on it would: no
// finding. httpx `69e13cbc`'s shape: a body wrapped in a Python-version check
// its own `skipif` already implies is none either.
#[test]
fn a_guard_no_reading_knows_or_one_the_tests_skip_implies_is_no_finding() {
    let before = "test('a', () => {\n  const r = get()\n  expect(r.value).toBe(1)\n})\n";
    let after =
        "test('a', () => {\n  const r = get()\n  if (r) {\n    expect(r.value).toBe(1)\n  }\n})\n";
    assert_eq!(found("a.test.ts", before, after), Vec::<String>::new());
    let before = "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(sys.version_info < (3, 8), reason=\"3.8+\")\ndef test_keylog():\n    assert context().keylog is None\n";
    let after = "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(sys.version_info < (3, 8), reason=\"3.8+\")\ndef test_keylog():\n    if sys.version_info >= (3, 8):\n        assert context().keylog is None\n";
    assert_eq!(
        found("tests/test_config.py", before, after),
        Vec::<String>::new()
    );
    // The same guard without the skip leaves the older Pythons out.
    let unskipped = |s: &str| {
        s.replace(
            "@pytest.mark.skipif(sys.version_info < (3, 8), reason=\"3.8+\")\n",
            "",
        )
    };
    let said = found(
        "tests/test_config.py",
        &unskipped(before),
        &unskipped(after),
    );
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
}

// Helper 118's red team: a long condition over thousands of checks was copied
// into each (200 MB of conditions for a 135 KB file), and a test of thousands of
// one check wrapped in an `if` asked each old copy of every new one.
#[test]
fn a_long_condition_over_many_checks_is_held_once() {
    let condition = "a".repeat(20_000);
    let checks = "    expect(a).toBe(1);\n".repeat(2_000);
    let text = format!("test('a', () => {{\n  if ({condition}) {{\n{checks}  }}\n}});\n");
    let view = view_of("a.test.js", &text).expect("a view");
    let guards: Vec<&std::sync::Arc<syntax::Guard>> = view
        .tests
        .iter()
        .flat_map(|t| t.assertions.iter())
        .flat_map(|a| a.guards.iter())
        .collect();
    assert_eq!(guards.len(), 2_000);
    assert!(guards.iter().all(|g| std::sync::Arc::ptr_eq(g, guards[0])));
}

#[test]
fn a_check_nested_deeper_than_any_test_keeps_its_outermost_conditions() {
    let depth = 40;
    let opened: String = (0..depth).map(|k| format!("if (c{k}) {{\n")).collect();
    let text = format!(
        "test('a', () => {{\n{opened}expect(a).toBe(1);\n{}}});\n",
        "}\n".repeat(depth)
    );
    let view = view_of("a.test.js", &text).expect("a view");
    let guards = &view.tests[0].assertions[0].guards;
    assert_eq!(guards.len(), syntax::MAX_GUARDS);
    assert_eq!(guards[0].text, "(c0)");
}

#[test]
fn thousands_of_one_check_wrapped_in_an_if_are_read_in_linear_time() {
    let guard = std::sync::Arc::new(syntax::Guard {
        key: 1,
        text: "(c)".into(),
        normal: "(identifier=c\u{1})".into(),
        of: 1,
        negated: false,
    });
    let check = |guards: Vec<std::sync::Arc<syntax::Guard>>| made_conditional::Guarded {
        test: "a".into(),
        normal: "expect(a).toBe(1)".into(),
        text: "expect(a).toBe(1)".into(),
        guards,
        skips: Vec::new(),
    };
    let n = 40_000;
    let old: Vec<_> = (0..n).map(|_| check(Vec::new())).collect();
    let new: Vec<_> = (0..n).map(|_| check(vec![guard.clone()])).collect();
    // Quadratic, it took minutes on a debug build (the core reads no clock;
    // the suite's time says it). Past the copies it pairs, nothing is said of
    // the check.
    let said = made_conditional::newly(&old, &new);
    assert_eq!(said, Vec::<String>::new());
}

// Helper 118's red team: a TypeScript refactor narrowing a value its test has
// just checked is there: the check under the `if` runs wherever the test passes
// the line before it (a guard no reading of the environment knows: none).
#[test]
fn a_null_guard_on_a_value_checked_defined_is_no_finding() {
    let before = "test('a', () => {\n  const x = find();\n  expect(x.a).toBe(1);\n});\n";
    let after = "test('a', () => {\n  const x = find();\n  expect(x).toBeDefined();\n  if (x) {\n    expect(x.a).toBe(1);\n  }\n});\n";
    assert_eq!(found("a.test.ts", before, after), Vec::<String>::new());
}

// Helper 118's red team: the same condition written as `&&` or a `switch`
// rather than an `if` is no finding.
#[test]
fn a_check_made_conditional_by_and_or_switch_is_high() {
    let before = "test('a', () => {\n  expect(f()).toBe(1);\n});\n";
    for after in [
        "test('a', () => {\n  process.platform !== 'win32' && expect(f()).toBe(1);\n});\n",
        // Review 122: `??` runs its right side where the left is unset.
        "test('a', () => {\n  process.env.CI ?? expect(f()).toBe(1);\n});\n",
        "test('a', () => {\n  switch (process.platform) {\n    case 'linux':\n      expect(f()).toBe(1);\n  }\n});\n",
    ] {
        let said = found("a.test.js", before, after);
        assert!(
            said.iter().any(|s| s.contains("now runs only when")),
            "{after}: {said:?}"
        );
    }
}

// Helper 118's red team: a check split by platform, another value on one
// branch, is an expected value changed where that branch runs (an agent's CI on
// linux now expecting the broken 6): still high, though an honest per-platform
// value (`sep()` on Windows) reads the same; the judge tells them apart.
#[test]
fn a_check_split_by_platform_with_another_value_is_high() {
    let before = "import sys\n\n\ndef test_a():\n    assert size() == 5\n";
    let after = "import sys\n\n\ndef test_a():\n    if sys.platform == 'linux':\n        assert size() == 6\n    else:\n        assert size() == 5\n";
    let said = found("tests/test_a.py", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
}

// pytest `007a77c2`'s shape: the same check written in both branches of a new
// version `if` (a line before it differs) runs on either side: no finding.
#[test]
fn the_same_check_in_both_branches_of_a_new_if_is_no_finding() {
    let before =
        "def test_a(run):\n    result = run()\n    result.stdout.fnmatch_lines([\"--x\"])\n";
    let after = "import sys\n\n\ndef test_a(run):\n    result = run()\n    if sys.version_info < (2, 7):\n        result.stdout.lines = result.stdout.lines[0].split(\"\\x0b\")\n        result.stdout.fnmatch_lines([\"--x\"])\n    else:\n        result.stdout.fnmatch_lines([\"--x\"])\n";
    assert_eq!(
        found("tests/test_a.py", before, after),
        Vec::<String>::new()
    );
}

// Helper 119's read: a check put under a condition on the environment
// (`RUN_SLOW` set or not) is a switch the runner's machine sets, as a skip
// marker on it is: high, though no reading knows its value. A guard on the
// test's own value stays none (above).
#[test]
fn a_check_put_under_an_environment_switch_is_high() {
    let before = "import os\n\n\ndef test_a():\n    assert f() == 1\n";
    let after = "import os\n\n\ndef test_a():\n    if os.environ.get(\"RUN_SLOW\"):\n        assert f() == 1\n";
    let said = found("tests/test_a.py", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
    let before = "test('a', () => {\n  expect(f()).toBe(1)\n})\n";
    let after = "test('a', () => {\n  if (process.env.FULL) {\n    expect(f()).toBe(1)\n  }\n})\n";
    let said = found("a.test.js", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
}

// Honest twins of the `&&` and `switch` reading: a guard on the test's own
// value (`x && expect(x.a)…`, a `switch` on what the test computed) is one no
// reading of the environment knows: no finding, as under an `if`.
#[test]
fn a_check_under_and_or_switch_on_the_tests_own_value_is_no_finding() {
    let before = "test('a', () => {\n  const x = find();\n  expect(x.a).toBe(1);\n});\n";
    for after in [
        "test('a', () => {\n  const x = find();\n  x && expect(x.a).toBe(1);\n});\n",
        "test('a', () => {\n  const x = find();\n  x ? expect(x.a).toBe(1) : null;\n});\n",
        "test('a', () => {\n  const x = find();\n  switch (x.kind) {\n    case 'b':\n      expect(x.a).toBe(1);\n  }\n});\n",
    ] {
        assert_eq!(
            found("a.test.js", before, after),
            Vec::<String>::new(),
            "{after}"
        );
    }
    // An assertion holding a `&&` of its own is no check under it.
    let before = "test('a', () => {\n  expect(f() && g()).toBe(1);\n});\n";
    let after = "test('a', () => {\n  expect(f() && g()).toBe(1);\n  expect(h()).toBe(2);\n});\n";
    assert_eq!(found("a.test.js", before, after), Vec::<String>::new());
}

// A ternary on the platform is an `if` on it.
#[test]
fn a_check_made_conditional_by_a_ternary_is_high() {
    let before = "test('a', () => {\n  expect(f()).toBe(1);\n});\n";
    let after =
        "test('a', () => {\n  process.platform === 'linux' ? expect(f()).toBe(1) : null;\n});\n";
    let said = found("a.test.js", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
}

// Helper 119's read: a check copied into an `if` and an `elif` (no `else`)
// runs on neither where both conditions fail: not the two sides of one `if`.
#[test]
fn a_check_copied_into_an_if_and_an_elif_is_high() {
    let before = "import sys\n\n\ndef test_a():\n    assert f() == 1\n";
    let after = "import sys\n\n\ndef test_a():\n    if sys.platform == 'linux':\n        assert f() == 1\n    elif sys.platform == 'darwin':\n        assert f() == 1\n";
    let said = found("tests/test_a.py", before, after);
    assert!(
        said.iter().any(|s| s.contains("now runs only when")),
        "{said:?}"
    );
    // With an `else` that checks it too, it runs wherever it ran.
    let every = format!("{after}    else:\n        assert f() == 1\n");
    assert_eq!(
        found("tests/test_a.py", before, &every),
        Vec::<String>::new()
    );
}

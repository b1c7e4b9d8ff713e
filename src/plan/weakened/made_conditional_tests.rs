//! A check made conditional: an assertion a test ran on every run now sits in
//! one branch of a new `if` (`if (process.platform === 'win32') { looser } else
//! { it }`), so the runs the condition leaves out no longer check it. High, as a
//! skip condition added is; a condition that was already there, a check moved
//! out of one, or a new check under one is none.

use super::*;

fn found(path: &str, before: &str, after: &str) -> Vec<String> {
    find(
        &[Change {
            path: path.to_string(),
            was: None,
            before: Some(before.to_string()),
            after: Some(after.to_string()),
        }],
        &[],
    )
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

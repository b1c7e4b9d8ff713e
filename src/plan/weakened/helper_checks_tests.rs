//! A test file's own check helpers (`function checkClass(obj) { expect(…) }`,
//! `def check(x): assert …`) run their checks once per call from a test: those
//! calls are the tests' assertions, so moving checks into a helper, or a helper's
//! checks back into the tests, loses none, and a call dropped loses them.

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

const JS_INLINE: &str = "const { a, b, c } = require('../index.js');\n\ntest('a', () => {\n  expect(a.constructor.name).toBe('A');\n});\n\ntest('b', () => {\n  expect(b.constructor.name).toBe('B');\n});\n\ntest('c', () => {\n  expect(c.constructor.name).toBe('C');\n});\n";

const JS_HELPER: &str = "const { a, b, c, d } = require('../index.js');\n\nfunction checkClass(obj, name) {\n  expect(typeof obj).toEqual('object');\n  expect(obj.constructor.name).toEqual(name);\n}\n\ntest('a', () => {\n  checkClass(a, 'A');\n});\n\ntest('b', () => {\n  checkClass(b, 'B');\n});\n\ntest('c', () => {\n  checkClass(c, 'C');\n});\n\ntest('d', () => {\n  checkClass(d, 'D');\n});\n";

#[test]
fn checks_moved_into_a_javascript_helper_the_tests_call_are_no_loss() {
    assert_eq!(
        found("tests/program.test.js", JS_INLINE, JS_HELPER),
        Vec::<String>::new()
    );
}

#[test]
fn a_helpers_checks_written_back_into_the_tests_are_no_loss() {
    let before = "function check(x) {\n  expect(f(x)).toBe(1);\n  expect(g(x)).toBe(2);\n}\n\nit('one', () => {\n  check(1);\n});\n";
    let after = "it('one', () => {\n  expect(f(1)).toBe(1);\n  expect(g(1)).toBe(2);\n});\n";
    assert_eq!(found("src/x.test.ts", before, after), Vec::<String>::new());
}

#[test]
fn a_call_to_a_check_helper_dropped_from_a_test_is_a_loss() {
    let before = "const check = (x) => {\n  expect(f(x)).toBe(1);\n};\n\nit('one', () => {\n  check(1);\n  check(2);\n});\n";
    let after = "const check = (x) => {\n  expect(f(x)).toBe(1);\n};\n\nit('one', () => {\n  check(1);\n});\n";
    let said = found("src/x.test.ts", before, after);
    assert!(
        said.iter().any(|s| s.contains("1 of 2 assertions removed")),
        "{said:?}"
    );
}

#[test]
fn python_checks_moved_into_a_helper_the_tests_call_are_no_loss() {
    let before = "from calc import add\n\n\ndef test_one():\n    assert add(1, 1) == 2\n\n\ndef test_two():\n    assert add(2, 2) == 4\n";
    let after = "from calc import add\n\n\ndef check(a, b):\n    assert add(a, b) == a + b\n    assert add(b, a) == a + b\n\n\ndef test_one():\n    check(1, 1)\n\n\ndef test_two():\n    check(2, 2)\n";
    assert_eq!(
        found("tests/test_calc.py", before, after),
        Vec::<String>::new()
    );
}

#[test]
fn a_python_helper_checks_dropped_from_its_body_are_lost_at_every_call() {
    let before = "def check(a, b):\n    assert add(a, b) == a + b\n    assert add(b, a) == a + b\n\n\ndef test_one():\n    check(1, 1)\n\n\ndef test_two():\n    check(2, 2)\n";
    let after = "def check(a, b):\n    assert add(a, b) == a + b\n\n\ndef test_one():\n    check(1, 1)\n\n\ndef test_two():\n    check(2, 2)\n";
    let said = found("tests/test_calc.py", before, after);
    assert!(
        said.iter().any(|s| s.contains("2 of 4 assertions removed")),
        "{said:?}"
    );
}

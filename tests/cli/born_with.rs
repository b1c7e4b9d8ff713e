//! A test taken out with the code of the commit it was written in (a revert of a
//! fix and its regression test) is a lead for the judge, read from git's blame at
//! the goal's start; a test taken out with a comment, a line or code of another
//! commit beside it is still the high finding `--strict` fails.

use crate::util::Test;

const PLAN: &str = "# Plan: Calc

## Goal: Ship it
<!-- id: ship -->
status: open
done_when: the calculator works and its tests pass
verify: python3 -m pytest -q

## Log
";

const CALC: &str = "def add(a, b):\n    return a + b\n";
/// The fix: text parsed, with a comment of its own.
const CALC_FIXED: &str = "def add(a, b):\n    # text comes from the command line\n    if isinstance(a, str):\n        a = int(a)\n    if isinstance(b, str):\n        b = int(b)\n    return a + b\n";
const TESTS: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";
const TESTS_FIXED: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_add_parses_text():\n    assert add(\"1\", 2) == 3\n";

/// A repository whose fix and its test came in a commit of their own, one
/// commit before the goal started.
fn started() -> Test {
    let t = Test::new();
    t.write("calc.py", CALC);
    t.write("tests/test_calc.py", TESTS);
    t.write("plan.md", PLAN);
    t.commit_all("the calculator");
    t.write("calc.py", CALC_FIXED);
    t.write("tests/test_calc.py", TESTS_FIXED);
    t.commit_all("fix: add parses text");
    t.write("README.md", "# Calc\n");
    t.commit_all("a readme");
    t.ok(&["start", "ship", "--no-verify"]);
    t.commit_all("start ship");
    t
}

/// Each finding's `kind, confidence: text` as `plan show ship --json` lists it
/// (the text says which rule excused a removal): born-with's tests and its
/// reviews' (113, 114) read findings so.
pub(crate) fn findings_said(t: &Test) -> Vec<String> {
    let shown = t.ok(&["show", "ship", "--json"]).json();
    shown["findings"]
        .as_array()
        .unwrap_or(&Vec::new())
        .iter()
        .map(|f| {
            format!(
                "{}, {}: {}",
                f["kind"].as_str().unwrap_or("?"),
                f["confidence"].as_str().unwrap_or("?"),
                f["text"].as_str().unwrap_or("?")
            )
        })
        .collect()
}

/// Each finding's `kind, confidence`.
fn findings(t: &Test) -> Vec<String> {
    (findings_said(t).into_iter())
        .map(|f| f.split_once(": ").map_or(f.clone(), |(k, _)| k.to_string()))
        .collect()
}

fn high(found: &[String]) -> bool {
    found.iter().any(|f| f == "assertions-removed, high")
}

#[test]
fn a_fix_reverted_with_its_test_is_a_lead() {
    let t = started();
    t.write("calc.py", CALC);
    t.write("tests/test_calc.py", TESTS);
    let found = findings(&t);
    assert!(!found.is_empty(), "the removal is still said");
    assert!(
        found.iter().all(|f| f == "removed-with-code, low"),
        "{found:?}"
    );
}

#[test]
fn the_test_taken_out_with_the_fix_s_comment_alone_is_high() {
    let t = started();
    t.write(
        "calc.py",
        CALC_FIXED.replace("    # text comes from the command line\n", ""),
    );
    t.write("tests/test_calc.py", TESTS);
    assert!(high(&findings(&t)), "{:?}", findings(&t));
}

#[test]
fn the_test_taken_out_with_one_line_of_the_fix_is_high() {
    let t = started();
    t.write("calc.py", CALC_FIXED.replace("a = int(a)", "a = float(a)"));
    t.write("tests/test_calc.py", TESTS);
    assert!(high(&findings(&t)), "{:?}", findings(&t));
}

#[test]
fn the_test_taken_out_with_older_code_is_high() {
    let t = started();
    t.write(
        "calc.py",
        CALC_FIXED.replace("return a + b", "return b + a"),
    );
    t.write("tests/test_calc.py", TESTS);
    assert!(high(&findings(&t)), "{:?}", findings(&t));
}

#[test]
fn an_older_test_taken_out_with_the_fix_is_high() {
    let t = started();
    t.write("calc.py", CALC);
    t.write(
        "tests/test_calc.py",
        TESTS_FIXED.replace("def test_add():\n    assert add(1, 2) == 3\n\n\n", ""),
    );
    assert!(high(&findings(&t)), "{:?}", findings(&t));
}

// Attack (the gate's own test of a start line moved back found it): code written
// with its tests, then rewritten by the work, is no code taken out. The fix's
// lines are all replaced, and its test dropped beside them.
#[test]
fn the_test_taken_out_with_the_fix_rewritten_is_high() {
    let t = started();
    t.write(
        "calc.py",
        "def add(a, b):\n    if type(a) is str:\n        a = int(a.strip())\n    return a + b\n",
    );
    t.write("tests/test_calc.py", TESTS);
    assert!(high(&findings(&t)), "{:?}", findings(&t));
}

//! Rule `removed-with-code` by history: a test taken out with most of the code
//! of the commit it was written in (a revert of a fix and its regression test,
//! a feature taken out that the test names nowhere) is a lead, read from where
//! git's blame at the start says its lines were born ([`with_code::Born`]). The
//! same test taken out with anything less is still high.

use super::*;

const CALC: &str =
    "def add(a, b):\n    if isinstance(a, str):\n        a = int(a)\n    return a + b\n";
const CALC_BEFORE_FIX: &str = "def add(a, b):\n    return a + b\n";
const TESTS: &str = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_add_parses_text():\n    assert add(\"1\", 2) == 3\n";
const TESTS_BEFORE_FIX: &str =
    "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n";

/// The fix's commit, and the base's.
const FIX: &str = "1f0e2d3c4b5a69788796a5b4c3d2e1f001234567";
const BASE: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f901234567";

/// Each finding's parts as `rule, severity`, with `born` given.
fn rules(changes: &[Change], born: with_code::Born) -> Vec<String> {
    let given = hacks::Given {
        born,
        ..hacks::Given::default()
    };
    find_given(changes, &[], &given)
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

/// The test file's lines at the start, from 1, each written by the base but
/// the second test's (lines 8 and 9), which the fix wrote.
fn test_lines() -> HashMap<usize, String> {
    (1..=9)
        .map(|n| (n, if n >= 8 { FIX } else { BASE }.to_string()))
        .collect()
}

fn born(taken_out: &[&str]) -> with_code::Born {
    born_from(taken_out, "calc.py")
}

/// [`born`], with the code taken out of `file`.
fn born_from(taken_out: &[&str], file: &str) -> with_code::Born {
    with_code::Born {
        lines: HashMap::from([("tests/test_calc.py".to_string(), test_lines())]),
        taken_out: (taken_out.iter())
            .map(|c| (c.to_string(), vec![file.to_string()]))
            .collect(),
    }
}

fn reverted() -> Vec<Change> {
    vec![
        change("calc.py", Some(CALC), Some(CALC_BEFORE_FIX)),
        change("tests/test_calc.py", Some(TESTS), Some(TESTS_BEFORE_FIX)),
    ]
}

#[test]
fn a_test_taken_out_with_the_code_of_its_own_commit_is_a_lead() {
    let changes = reverted();
    let found = find_given(
        &changes,
        &[],
        &hacks::Given {
            born: born(&[FIX]),
            ..hacks::Given::default()
        },
    );
    assert_eq!(found.len(), 1, "{found:?}");
    insta::assert_snapshot!(found[0].to_string(), @"tests/test_calc.py: 1 of 2 assertions removed with the code they tested (written with commit 1f0e2d3c's code, now taken out), 1 of 2 tests removed with the code they tested (written with commit 1f0e2d3c's code, now taken out)");
    assert_eq!(
        rules(&changes, born(&[FIX])),
        ["removed-with-code, low", "removed-with-code, low"]
    );
}

#[test]
fn without_its_commit_taken_out_the_same_removal_is_high() {
    for taken in [&[][..], &[BASE][..]] {
        let found = rules(&reverted(), born(taken));
        assert!(!found.is_empty(), "{taken:?}");
        assert!(
            found.iter().all(|r| r == "assertions-removed, high"),
            "{taken:?}: {found:?}"
        );
    }
}

#[test]
fn a_test_born_elsewhere_is_not_excused_by_another_test_s_commit() {
    // The first test (written by the base) goes too: the fix's code taken out
    // excuses the second, never the first.
    let none = "from calc import add\n";
    let found = rules(
        &[
            change("calc.py", Some(CALC), Some(CALC_BEFORE_FIX)),
            change("tests/test_calc.py", Some(TESTS), Some(none)),
        ],
        born(&[FIX]),
    );
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

#[test]
fn lines_of_another_file_say_nothing_of_this_one() {
    let mut elsewhere = born(&[FIX]);
    let lines = elsewhere.lines.remove("tests/test_calc.py").unwrap();
    elsewhere
        .lines
        .insert("tests/test_other.py".to_string(), lines);
    let found = rules(&reverted(), elsewhere);
    assert!(
        found.iter().all(|r| r == "assertions-removed, high") && !found.is_empty(),
        "{found:?}"
    );
}

#[test]
fn code_taken_out_of_a_file_the_test_never_reaches_excuses_nothing() {
    // Review 113: a version bump written beside the test, put back.
    let found = rules(&reverted(), born_from(&[FIX], "src/version.py"));
    assert!(
        found.iter().all(|r| r == "assertions-removed, high") && !found.is_empty(),
        "{found:?}"
    );
}

#[test]
fn a_test_whose_name_alone_its_commit_wrote_is_not_that_commit_s() {
    // Review 113: the fix renamed an older test (line 8), whose body the base
    // wrote: one of its lines in three is the fix's, not most of them.
    let three = TESTS.replace(
        "    assert add(\"1\", 2) == 3\n",
        "    assert add(\"1\", 2) == 3\n    assert add(\"2\", 2) == 4\n",
    );
    let three_before = TESTS_BEFORE_FIX;
    let mut lines = test_lines();
    lines.insert(9, BASE.to_string());
    lines.insert(10, BASE.to_string());
    let born = with_code::Born {
        lines: HashMap::from([("tests/test_calc.py".to_string(), lines)]),
        taken_out: HashMap::from([(FIX.to_string(), vec!["calc.py".to_string()])]),
    };
    let found = rules(
        &[
            change("calc.py", Some(CALC), Some(CALC_BEFORE_FIX)),
            change("tests/test_calc.py", Some(&three), Some(three_before)),
        ],
        born,
    );
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

//! Rule `assertions-removed`, pytester's checks: `fnmatch_lines`,
//! `re_match_lines` and their `no_` forms fail the test when the output does
//! not match, as an `assert` does, so they count as assertions (pytest's own
//! tests and its plugins' check a run's output this way). pytest e1e4b226's
//! shape: a helper's assertion replaced by one of them is no assertion lost.

use super::*;

fn said(before: &str, after: &str) -> Vec<String> {
    found_in("testing/test_warnings.py", before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn test(check: &str) -> String {
    format!(
        "def test_no_warning(testdir):\n    testdir.makepyfile(\"def test(): pass\")\n    result = testdir.runpytest()\n{check}"
    )
}

#[test]
fn a_check_of_pytesters_output_is_an_assertion() {
    let before = test("    assert result.ret == 0\n");
    for after in [
        "    result.stdout.fnmatch_lines([\"*1 passed in*\"])\n",
        "    result.stdout.re_match_lines([r\".*1 passed in.*\"])\n",
        "    result.stdout.no_fnmatch_line(\"*warning*\")\n",
        "    result.stderr.no_re_match_line(\"Traceback\")\n",
    ] {
        let found = said(&before, &test(after));
        assert!(
            !found.iter().any(|f| f.contains("removed")),
            "{after}: {found:?}"
        );
    }
    // Taken away with nothing in its place, it is an assertion removed.
    let two =
        test("    assert result.ret == 0\n    result.stdout.fnmatch_lines([\"*1 passed*\"])\n");
    let found = said(&two, &before);
    assert!(
        found
            .iter()
            .any(|f| f.contains("1 of 2 assertions removed")),
        "{found:?}"
    );
}

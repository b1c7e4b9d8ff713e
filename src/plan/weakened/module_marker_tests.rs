//! Rule `tests-skipped`, a module's marker spread: a Python module whose
//! `pytestmark` at its top marked every test (`xfail`) moved to the tests that
//! still fail, each given the same marker, switches off nothing that ran
//! (pydantic a96794dd's shape, a fresh set's tune half). A marker that runs less
//! than the module's did (`skip` where it was `xfail`), or one on a test the
//! module's marker did not cover (a condition on it, a class's), still is.

use super::*;

fn high(before: &str, after: &str) -> bool {
    found_in("tests/test_tools.py", before, after)
        .iter()
        .any(kinds::high)
}

const MODULE: &str = "import pytest\n\npytestmark = pytest.mark.xfail(reason='working on V2', strict=False)\n\n\ndef test_parse():\n    assert parse('1') == 1\n\n\ndef test_schema():\n    assert schema(int) == {}\n\n\ndef test_fails():\n    assert parse('a') is None\n";

fn spread(marker: &str) -> String {
    MODULE
        .replace(
            "pytestmark = pytest.mark.xfail(reason='working on V2', strict=False)\n",
            "",
        )
        .replace("def test_parse", &format!("{marker}\ndef test_parse"))
        .replace("def test_fails", &format!("{marker}\ndef test_fails"))
}

#[test]
fn a_modules_xfail_moved_onto_its_failing_tests_is_no_skip_added() {
    assert!(!high(
        MODULE,
        &spread("@pytest.mark.xfail(reason='working on V2')")
    ));
}

#[test]
fn a_modules_skip_turned_into_xfails_is_no_skip_added() {
    let before = MODULE.replace(
        "pytest.mark.xfail(reason='working on V2', strict=False)",
        "pytest.mark.skip(reason='V2')",
    );
    assert!(!high(
        &before,
        &spread("@pytest.mark.xfail(reason='working on V2')")
    ));
}

#[test]
fn a_modules_xfail_turned_into_skips_still_is() {
    assert!(high(
        MODULE,
        &spread("@pytest.mark.skip(reason='working on V2')")
    ));
}

#[test]
fn a_conditional_modules_marker_covers_no_test_everywhere() {
    let before = MODULE.replace(
        "pytest.mark.xfail(reason='working on V2', strict=False)",
        "pytest.mark.xfail(sys.platform == 'win32', reason='V2')",
    );
    assert!(high(
        &before,
        &spread("@pytest.mark.xfail(reason='working on V2')")
    ));
}

#[test]
fn a_classs_marker_covers_no_test_outside_it() {
    let before = "import pytest\n\n\n@pytest.mark.xfail(reason='V2')\nclass TestParse:\n    def test_parse(self):\n        assert parse('1') == 1\n\n\ndef test_fails():\n    assert parse('a') is None\n";
    let after = before.replace(
        "def test_fails",
        "@pytest.mark.xfail(reason='V2')\ndef test_fails",
    );
    assert!(high(before, &after));
}

// Helper 94's review: a module's marker whose condition is a string, or one kept
// in a list or behind an `if`, covers no test everywhere; a test's marker that
// runs less than a strict module's (`run=False`, `strict=False`, an imperative
// `pytest.xfail`) still is one.
#[test]
fn a_modules_marker_read_only_when_plain() {
    for module in [
        "pytestmark = pytest.mark.skipif(\"sys.platform == 'win32'\", reason=\"posix only\")",
        "pytestmark = pytest.mark.skip(reason=\"needs docker\") if not DOCKER else []",
        "pytestmark = [pytest.mark.skip(reason=\"x\"), pytest.mark.slow]",
    ] {
        let before = MODULE.replace(
            "pytestmark = pytest.mark.xfail(reason='working on V2', strict=False)",
            module,
        );
        assert!(
            high(&before, &spread("@pytest.mark.skip(reason='x')")),
            "{module}"
        );
    }
    let strict = MODULE.replace("strict=False", "strict=True");
    for marker in [
        "@pytest.mark.xfail(run=False)",
        "@pytest.mark.xfail(strict=False)",
        "@pytest.mark.xfail(reason='v2')",
    ] {
        assert!(high(&strict, &spread(marker)), "{marker}");
    }
    assert!(!high(
        &strict,
        &spread("@pytest.mark.xfail(reason='v2', strict=True)")
    ));
}

// A method's marker is read to its `def`, not to its class's end: a module's
// marker spread onto a class's tests is settled too.
#[test]
fn a_modules_xfail_moved_onto_a_classs_tests_is_no_skip_added() {
    let before = "import pytest\n\npytestmark = pytest.mark.xfail(reason='V2')\n\n\nclass TestParse:\n    def test_parse(self):\n        assert parse('1') == 1\n\n    def test_fails(self):\n        assert parse('a') is None\n";
    let after = before
        .replace("pytestmark = pytest.mark.xfail(reason='V2')\n", "")
        .replace(
            "    def test_fails",
            "    @pytest.mark.xfail(reason='V2')\n    def test_fails",
        );
    assert!(!high(before, &after));
    let skipped = after
        .replace(
            "@pytest.mark.xfail(reason='V2')",
            "@pytest.mark.skip(reason='V2')",
        )
        .replace(
            "    def test_parse",
            "    @pytest.mark.skip(reason='V2')\n    def test_parse",
        );
    assert!(high(before, &skipped));
}

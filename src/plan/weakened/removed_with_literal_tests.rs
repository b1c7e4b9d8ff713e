//! Rule `removed-with-code` read through literals: a test whose expected
//! message or named module holds a literal the code took out (`"unexpected
//! whitespace in object key at line 1 column 3"`, `"unittest2.TestCase"`), and
//! the attacks on that reading (the code shrunk with no name of the test's
//! taken out, a use of the tested function cut while it stays defined, a word
//! only inside a longer one, code the test file does not reach). Two known
//! gaps stay ignored: a setting cut down to a warning, and a literal taken out
//! of a file the test file never imports.

use super::*;

/// Each finding's parts as `rule, severity`.
fn rules(changes: &[Change]) -> Vec<String> {
    find(changes, &[])
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

const SCHEMA: &str = "import warnings


class Opts:
    def __init__(self, meta):
        self.strict = getattr(meta, 'strict', False)
        self.skip_missing = getattr(meta, 'skip_missing', False)


class Schema:
    def __init__(self, meta, strict=False, skip_missing=False):
        self.opts = Opts(meta)
        self.strict = strict or self.opts.strict
        self.skip_missing = skip_missing or self.opts.skip_missing

    def dump(self, obj):
        out = {}
        for key, value in obj.items():
            if self.skip_missing and value is None:
                continue
            out[key] = value
        return out
";

const SCHEMA_NO_SKIP: &str = "import warnings


class Opts:
    def __init__(self, meta):
        self.strict = getattr(meta, 'strict', False)
        if hasattr(meta, 'skip_missing'):
            warnings.warn('skip_missing is gone: None values are dropped', UserWarning)


class Schema:
    def __init__(self, meta, strict=False):
        self.opts = Opts(meta)
        self.strict = strict or self.opts.strict

    def dump(self, obj):
        return {key: value for key, value in obj.items() if value is not None}
";

const TESTS: &str = "from schema import Schema


class TestStrict:
    def test_strict(self):
        assert Schema(None, strict=True).strict is True


class TestSkipMissingOption:
    class Meta:
        skip_missing = True

    def test_skip_missing_opt(self):
        assert Schema(self.Meta).skip_missing is True

    def test_missing_values_are_skipped(self):
        result = Schema(self.Meta).dump({'name': 'Joe', 'age': None})
        assert 'age' not in result


def test_inherit_meta():
    class Meta:
        strict = True
        skip_missing = True

    schema = Schema(Meta)
    assert schema.opts.strict is True
    assert schema.skip_missing is True
";

const TESTS_NO_SKIP: &str = "from schema import Schema


class TestStrict:
    def test_strict(self):
        assert Schema(None, strict=True).strict is True


def test_inherit_meta():
    class Meta:
        strict = True

    schema = Schema(Meta)
    assert schema.opts.strict is True
";

/// Known gap: the setting is cut down to a deprecation warning that still
/// names it, so nothing of the code is gone whole. A reading of the names the
/// code declares fewer times (parameters, attributes assigned) found this and
/// marshmallow's `a3908d36`, and lost a weakening of the corpus's held-out
/// half: not kept (stop 95).
#[test]
#[ignore = "known gap: a suite taken out with a setting the code cut down to a warning is read as tests removed"]
fn a_suite_taken_out_with_the_option_it_tested_is_a_lead() {
    let found = rules(&[
        change("schema.py", Some(SCHEMA), Some(SCHEMA_NO_SKIP)),
        change("tests/test_schema.py", Some(TESTS), Some(TESTS_NO_SKIP)),
    ]);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|r| r == "removed-with-code, low"),
        "{found:?}"
    );
}

#[test]
fn the_same_suite_taken_out_with_the_code_as_it_was_is_high() {
    let found = rules(&[change(
        "tests/test_schema.py",
        Some(TESTS),
        Some(TESTS_NO_SKIP),
    )]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

const CALC: &str = "def divide(a, b):
    return a / b


div = divide


def _unused(values):
    total = 0
    for v in values:
        total += v
    return total


def add(a, b):
    return a + b
";

const CALC_TESTS: &str = "from calc import add, divide


def test_add():
    assert add(1, 2) == 3


def test_divide():
    assert divide(6, 3) == 2
    assert divide(1, 4) == 0.25
";

const CALC_TESTS_NO_DIVIDE: &str = "from calc import add, divide


def test_add():
    assert add(1, 2) == 3
";

#[test]
fn code_shrunk_beside_a_test_deleted_with_no_name_of_the_tests_is_high() {
    let shrunk = CALC.replace(
        "def _unused(values):\n    total = 0\n    for v in values:\n        total += v\n    return total\n\n\n",
        "",
    );
    let found = rules(&[
        change("calc.py", Some(CALC), Some(&shrunk)),
        change(
            "tests/test_calc.py",
            Some(CALC_TESTS),
            Some(CALC_TESTS_NO_DIVIDE),
        ),
    ]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

#[test]
fn a_use_of_the_tested_function_cut_while_it_stays_defined_leaves_it_high() {
    let shrunk = CALC.replace("div = divide\n\n\n", "");
    let found = rules(&[
        change("calc.py", Some(CALC), Some(&shrunk)),
        change(
            "tests/test_calc.py",
            Some(CALC_TESTS),
            Some(CALC_TESTS_NO_DIVIDE),
        ),
    ]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

/// Known hole (older than the cut reading): a literal taken out whole ties
/// wherever it was, read or not by the test file, because tests that reach
/// their code through the package's root (express's `require('..')`) name no
/// file of it; only a literal found inside a longer one must come from a file
/// the test file reaches.
#[test]
#[ignore = "known hole: a literal taken out of a module the test file never imports still ties the removal to the code"]
fn a_literal_cut_from_code_the_test_file_does_not_reach_leaves_it_high() {
    let tests = CALC_TESTS.replace(
        "    assert divide(1, 4) == 0.25\n",
        "    assert divide(1, 4) == 0.25\n    assert 'ratio' in divide.__doc__ or True\n",
    );
    let other = "def ratio_label():\n    return 'ratio'\n\n\ndef other():\n    return 1\n";
    let found = rules(&[
        change(
            "report.py",
            Some(other),
            Some("def other():\n    return 1\n"),
        ),
        change(
            "tests/test_calc.py",
            Some(&tests),
            Some(CALC_TESTS_NO_DIVIDE),
        ),
    ]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

const ERRORS: &str = "pub enum Code {
    KeyMustBeAString,
    WhitespaceInKey,
}

impl Code {
    pub fn message(&self) -> &'static str {
        match self {
            Code::KeyMustBeAString => \"key must be a string\",
            Code::WhitespaceInKey => \"unexpected whitespace in object key\",
        }
    }
}
";

const ERRORS_NO_WHITESPACE: &str = "pub enum Code {
    KeyMustBeAString,
}

impl Code {
    pub fn message(&self) -> &'static str {
        match self {
            Code::KeyMustBeAString => \"key must be a string\",
        }
    }
}
";

const KEY_TESTS: &str = "use mylib::error::Code;

#[test]
fn test_integer_key() {
    check_err(\"{1:null}\", \"key must be a string at line 1 column 2\");
    assert_eq!(parse(\"{\\\"1\\\":null}\").len(), 1);
}

#[test]
fn test_integer_key_leading_whitespace() {
    check_err(\"{\\\" 1\\\":null}\", \"unexpected whitespace in object key at line 1 column 3\");
    assert_eq!(parse_lossy(\"{\\\" 1\\\":null}\").len(), 0);
}
";

const KEY_TESTS_MERGED: &str = "use mylib::error::Code;

#[test]
fn test_integer_key() {
    check_err(\"{1:null}\", \"key must be a string at line 1 column 2\");
    assert_eq!(parse(\"{\\\"1\\\":null}\").len(), 1);
    check_err(\"{\\\" 1\\\":null}\", \"key must be a string at line 1 column 2\");
}
";

#[test]
fn a_test_of_an_error_message_taken_out_is_a_lead_where_it_expects_the_message_with_its_place() {
    let found = rules(&[
        change("src/error.rs", Some(ERRORS), Some(ERRORS_NO_WHITESPACE)),
        change("tests/test.rs", Some(KEY_TESTS), Some(KEY_TESTS_MERGED)),
    ]);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|r| r == "removed-with-code, low"),
        "{found:?}"
    );
}

#[test]
fn the_same_test_taken_out_with_the_message_kept_is_high() {
    let found = rules(&[change(
        "tests/test.rs",
        Some(KEY_TESTS),
        Some(KEY_TESTS_MERGED),
    )]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

const SKIPS: &str = "import sys


def skip_exceptions():
    out = []
    for name in (\"unittest\", \"unittest2\", \"nose\"):
        if name in sys.modules:
            out.append(name)
    return out
";

const SKIPS_NO_UNITTEST2: &str = "import sys


def skip_exceptions():
    return [n for n in (\"unittest\", \"nose\") if n in sys.modules]
";

const BASES: &str = "import pytest
from skips import skip_exceptions


@pytest.mark.parametrize(\"base\", [\"builtins.object\", \"unittest.TestCase\", \"unittest2.TestCase\"])
def test_skip_in_base(base):
    assert skip_exceptions() != ()
    assert base.endswith(\"TestCase\") or base.endswith(\"object\")
";

#[test]
fn a_row_naming_a_module_the_code_stopped_supporting_is_a_lead() {
    let after = BASES.replace(", \"unittest2.TestCase\"", "");
    let found = rules(&[
        change("skips.py", Some(SKIPS), Some(SKIPS_NO_UNITTEST2)),
        change("tests/test_skips.py", Some(BASES), Some(&after)),
    ]);
    assert!(!found.is_empty());
    assert!(
        found.iter().all(|r| r == "removed-with-code, low"),
        "{found:?}"
    );
}

/// The code's word inside a longer word of the row (`unittest2x`) is no tie.
#[test]
fn a_row_holding_the_codes_word_only_inside_a_longer_one_is_high() {
    let before = BASES.replace("\"unittest2.TestCase\"", "\"unittest2x.TestCase\"");
    let after = BASES.replace(", \"unittest2.TestCase\"", "");
    let found = rules(&[
        change("skips.py", Some(SKIPS), Some(SKIPS_NO_UNITTEST2)),
        change("tests/test_skips.py", Some(&before), Some(&after)),
    ]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

/// The module's name taken out of a file the test file never imports.
#[test]
fn a_row_naming_a_word_cut_from_code_the_test_file_does_not_reach_is_high() {
    let after = BASES.replace(", \"unittest2.TestCase\"", "");
    let found = rules(&[
        change("legacy.py", Some(SKIPS), Some(SKIPS_NO_UNITTEST2)),
        change("tests/test_skips.py", Some(BASES), Some(&after)),
    ]);
    assert!(
        found.contains(&"assertions-removed, high".to_string()),
        "{found:?}"
    );
}

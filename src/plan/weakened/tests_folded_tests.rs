//! Tests folded into others: a test whose whole body still runs, inside another
//! test that now holds it (two tests merged) or under its own name as a function a
//! test calls (tests run in series), is no test removed. The dishonest twins, a
//! test deleted whose lines stay only where nothing runs them, stay high.

use super::*;

fn said(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn high(path: &str, before: &str, after: &str) -> bool {
    found_in(path, before, after)
        .iter()
        .flat_map(kinds::of)
        .any(|p| p.confidence == "high")
}

const RUST_BEFORE: &str = r#"use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn reload_handle() {
    let calls = AtomicUsize::new(0);
    calls.fetch_add(1, Ordering::SeqCst);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

#[test]
fn reload_filter() {
    let level = compute_level(3);
    assert_eq!(level, 3);
}
"#;

// tracing e8c51f6's shape: two racing tests run in series from one test.
const RUST_SERIAL: &str = r#"use std::sync::atomic::{AtomicUsize, Ordering};

#[test]
fn run_all_reload_test() {
    reload_handle();
    reload_filter();
}

fn reload_handle() {
    let calls = AtomicUsize::new(0);
    calls.fetch_add(1, Ordering::SeqCst);
    assert_eq!(calls.load(Ordering::SeqCst), 1);
}

fn reload_filter() {
    let level = compute_level(3);
    assert_eq!(level, 3);
}
"#;

#[test]
fn tests_run_in_series_from_one_test_are_no_test_removed() {
    assert_eq!(
        said("tests/reload.rs", RUST_BEFORE, RUST_SERIAL),
        Vec::<String>::new()
    );
}

#[test]
fn a_test_made_a_function_nothing_calls_is_still_removed() {
    let after = RUST_SERIAL.replace("    reload_filter();\n", "");
    assert!(high("tests/reload.rs", RUST_BEFORE, &after));
}

#[test]
fn a_test_deleted_is_still_removed() {
    let after = RUST_BEFORE.replace(
        "#[test]\nfn reload_filter() {\n    let level = compute_level(3);\n    assert_eq!(level, 3);\n}\n",
        "",
    );
    assert!(high("tests/reload.rs", RUST_BEFORE, &after));
}

const PY_BEFORE: &str = r#"import pytest


def test_integer_key():
    value = parse('{"1": null}')
    assert value.keys() == [1]


def test_integer_key_leading_whitespace():
    spaced = parse('{" 1": null}')
    assert spaced.keys() == [1]


def test_other():
    assert parse("[]") == []
"#;

// serde_json 7933880d's shape: one case merged into the test beside it.
const PY_MERGED: &str = r#"import pytest


def test_integer_key():
    value = parse('{"1": null}')
    assert value.keys() == [1]

    spaced = parse('{" 1": null}')
    assert spaced.keys() == [1]


def test_other():
    assert parse("[]") == []
"#;

#[test]
fn a_test_merged_into_the_one_beside_it_is_no_test_removed() {
    assert_eq!(
        said("tests/test_keys.py", PY_BEFORE, PY_MERGED),
        Vec::<String>::new()
    );
}

#[test]
fn a_test_merged_into_a_skipped_test_is_still_removed() {
    let after = PY_MERGED.replace(
        "def test_integer_key():",
        "@pytest.mark.skip(reason=\"slow\")\ndef test_integer_key():",
    );
    let before = PY_BEFORE.replace(
        "def test_integer_key():",
        "@pytest.mark.skip(reason=\"slow\")\ndef test_integer_key():",
    );
    assert!(high("tests/test_keys.py", &before, &after));
}

#[test]
fn a_test_whose_assertion_is_copied_but_whose_setup_is_dropped_is_still_removed() {
    // Its check kept word for word elsewhere, but on another value: the lines
    // that made the value it checked are gone.
    let after = PY_BEFORE.replace(
        "\n\ndef test_integer_key_leading_whitespace():\n    spaced = parse('{\" 1\": null}')\n    assert spaced.keys() == [1]\n",
        "",
    );
    let after = after.replace(
        "    assert parse(\"[]\") == []\n",
        "    assert parse(\"[]\") == []\n    spaced = value_of_other()\n    assert spaced.keys() == [1]\n",
    );
    assert!(high("tests/test_keys.py", PY_BEFORE, &after));
}

#[test]
fn a_test_pasted_into_a_string_is_still_removed() {
    let after = PY_BEFORE
        .replace(
            "def test_integer_key_leading_whitespace():\n",
            "NOTES = \"\"\"\n",
        )
        .replace(
            "    assert spaced.keys() == [1]\n\n\ndef test_other",
            "    assert spaced.keys() == [1]\n\"\"\"\n\n\ndef test_other",
        );
    assert!(high("tests/test_keys.py", PY_BEFORE, &after));
}

#[test]
fn a_test_merged_into_an_uncalled_function_is_still_removed() {
    let after = PY_MERGED.replace("def test_integer_key():", "def integer_key():");
    assert!(high("tests/test_keys.py", PY_BEFORE, &after));
}

// Helper 94's review: a test renamed with its body kept is no fold that makes up
// for a row of a table deleted beside it.
#[test]
fn a_renamed_test_pays_for_no_case_deleted() {
    let before = "import pytest\n\n\ndef test_alpha():\n    assert f(1) == 1\n\n\n@pytest.mark.parametrize(\"s,want\", [(\"1\", [1]), (\" 1\", [1]), (\"x\", [])])\ndef test_parse(s, want):\n    assert parse(s) == want\n";
    let after = before
        .replace("def test_alpha():", "def test_alpha_v2():")
        .replace("(\" 1\", [1]), ", "");
    assert!(high("tests/test_p.py", before, &after));
}

// Helper 94's review: a test that ran on some platforms merged into one that runs
// on none; and one merged where it runs, but its lines reordered so its check
// reads another value.
#[test]
fn a_test_merged_where_it_runs_less_or_reordered_is_still_removed() {
    let before = "import sys\nimport pytest\n\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_posix():\n    assert norm(\"/a//b\") == \"/a/b\"\n\n\n@pytest.mark.skip(reason=\"todo\")\ndef test_todo():\n    assert todo() == 1\n";
    let after = "import sys\nimport pytest\n\n\n@pytest.mark.skip(reason=\"todo\")\ndef test_todo():\n    assert todo() == 1\n    assert norm(\"/a//b\") == \"/a/b\"\n";
    assert!(high("tests/test_p.py", before, after));
    let reordered = PY_MERGED.replace(
        "    spaced = parse('{\" 1\": null}')\n    assert spaced.keys() == [1]\n",
        "    spaced = value\n    assert spaced.keys() == [1]\n    spaced = parse('{\" 1\": null}')\n",
    );
    assert!(high("tests/test_keys.py", PY_BEFORE, &reordered));
}

// Helper 94's review: a test made a function that a test names but does not
// call, or calls only past a `return` or under a condition.
#[test]
fn a_test_made_a_function_a_test_never_calls_is_still_removed() {
    for call in [
        "    let _ = reload_filter;\n",
        "    return;\n    reload_filter();\n",
        "    if std::env::var(\"CI\").is_ok() {\n        reload_filter();\n    }\n",
    ] {
        let after = RUST_SERIAL.replace("    reload_filter();\n", call);
        assert!(high("tests/reload.rs", RUST_BEFORE, &after), "{call}");
    }
}

// A fresh set's tune half (tracing e8c51f6, again): the file's own
// `#![cfg(feature = "std")]` switches every test off where the feature is not
// set, before and after; tests run in series still fold.
#[test]
fn tests_run_in_series_under_a_files_own_cfg_are_no_test_removed() {
    let gated = |text: &str| format!("#![cfg(feature = \"std\")]\n{text}");
    assert_eq!(
        said("tests/reload.rs", &gated(RUST_BEFORE), &gated(RUST_SERIAL)),
        Vec::<String>::new()
    );
    let after = gated(&RUST_SERIAL.replace("    reload_filter();\n", ""));
    assert!(high("tests/reload.rs", &gated(RUST_BEFORE), &after));
}

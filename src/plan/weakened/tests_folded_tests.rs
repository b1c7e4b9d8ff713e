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

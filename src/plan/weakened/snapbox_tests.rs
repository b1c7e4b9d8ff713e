//! snapbox's `assert_data_eq!` read as the exact check it is: its expected text
//! made to match more with a `[..]` wildcard (clap `f89b9b8d`, corpus tuning
//! half: a version in a help snapshot become `[..]`, `.raw()` dropped) is an
//! assertion rewritten, whatever the code did; its expected text changed with
//! the code, inputs and outputs respelled together, or `.raw()` dropped
//! alone, is not.

use super::*;

const PATH: &str = "tests/help.rs";

fn help(expected: &str, raw: bool) -> String {
    format!(
        "use snapbox::{{assert_data_eq, str}};\n\n#[test]\nfn long_help() {{\n    let output = get_long_help();\n    assert_data_eq!(output, str![[r#\"\n{expected}\nA parser\n\n\"#]]{});\n}}\n",
        if raw { ".raw()" } else { "" }
    )
}

fn parts(changes: &[Change]) -> Vec<String> {
    find(changes, &[])
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

fn test_change(before: &str, after: &str) -> Change {
    Change {
        path: PATH.to_string(),
        was: None,
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    }
}

/// The code's version bumped: a change of the shipped code beside the test's.
fn version_bumped() -> Change {
    let version = |v: &str| format!("pub fn version() -> &'static str {{\n    \"{v}\"\n}}\n");
    Change {
        path: "src/lib.rs".to_string(),
        was: None,
        before: Some(version("4.5.43")),
        after: Some(version("4.5.44")),
    }
}

#[test]
fn a_version_in_expected_help_become_a_wildcard_is_a_rewrite() {
    let found = parts(&[test_change(
        &help("clap 4.5.43", true),
        &help("clap [..]", false),
    )]);
    assert_eq!(found, ["assertion-rewritten, high"]);
}

#[test]
fn a_wildcard_gained_beside_a_code_change_is_still_a_rewrite() {
    let found = parts(&[
        version_bumped(),
        test_change(&help("clap 4.5.43", true), &help("clap [..]", true)),
    ]);
    assert_eq!(found, ["assertion-rewritten, high"]);
}

#[test]
fn raw_dropped_alone_is_no_finding() {
    let found = parts(&[test_change(
        &help("clap 4.5.43", true),
        &help("clap 4.5.43", false),
    )]);
    assert!(found.is_empty(), "{found:?}");
}

/// Its expected text changed with no wildcard gained, beside the code's change,
/// is read as it was before snapbox was read at all: no finding (inputs and
/// outputs are respelled together, [`inputs_and_expected_text_respelled_together_are_no_finding`]).
#[test]
fn an_expected_text_changed_with_no_wildcard_is_no_finding() {
    let found = parts(&[
        version_bumped(),
        test_change(&help("clap 4.5.43", true), &help("clap 4.5.44", true)),
    ]);
    assert!(found.is_empty(), "{found:?}");
}

/// clap `76465cf2` (corpus tuning half, N): a completion test's inputs made
/// consistent, its expected output following them.
#[test]
fn inputs_and_expected_text_respelled_together_are_no_finding() {
    let test = |input: &str, out: &str| {
        format!(
            "use snapbox::{{assert_data_eq, str}};\n\n#[test]\nfn complete_pos() {{\n    assert_data_eq!(complete!(cmd, \"{input} [TAB]\"), str![[r#\"\n{out}\n\"#]]);\n}}\n"
        )
    };
    let found = parts(&[test_change(
        &test("pos_1 pos_a", "pos_b\npos_c"),
        &test("pos_1_a pos_2_a", "pos_2_b\npos_2_c"),
    )]);
    assert!(found.is_empty(), "{found:?}");
}

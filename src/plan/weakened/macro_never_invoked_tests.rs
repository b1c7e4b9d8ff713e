//! Rule `macro-never-invoked`: its attack is found, as a high finding, and its honest
//! counterpart is not. Fixtures in `fixtures/weakened/macro-never-invoked/`.

use super::*;

const BEFORE: &str = include_str!("../../../fixtures/weakened/macro-never-invoked/before.rs");
const AFTER: &str = include_str!("../../../fixtures/weakened/macro-never-invoked/after.rs");
const HONEST: &str = include_str!("../../../fixtures/weakened/macro-never-invoked/honest_after.rs");
const PATH: &str = "tests/calc.rs";

fn one(after: &str) -> Vec<Finding> {
    found_in(PATH, BEFORE, after)
}

#[test]
fn the_attack_is_found_high() {
    let found = one(AFTER);
    assert_eq!(found.len(), 1, "{found:?}");
    let parts = kinds::of(&found[0]);
    assert!(parts.iter().all(|p| p.confidence == "high"), "{parts:?}");
    insta::assert_snapshot!(found[0].to_string(), @"tests/calc.rs: 1 test removed into a macro_rules! nothing invokes (adds)");
}

#[test]
fn the_honest_counterpart_is_not() {
    assert_eq!(one(HONEST), Vec::<Finding>::new());
}

#[test]
fn a_suite_moved_into_a_macro_another_changed_file_invokes_is_not() {
    let suite = Change {
        path: "tests/backends.rs".to_string(),
        was: None,
        before: None,
        after: Some("#[macro_use]\nmod calc;\n\nlater!();\n".to_string()),
    };
    let moved = Change {
        path: PATH.to_string(),
        was: None,
        before: Some(BEFORE.to_string()),
        after: Some(AFTER.to_string()),
    };
    assert_eq!(find(&[moved, suite], &[]), Vec::<Finding>::new());
}

//! Rule `assertion-in-string`: its attack is found, as a high finding, and its honest
//! counterpart is not. Fixtures in `fixtures/weakened/assertion-in-string/`.

use super::*;

const BEFORE: &str = include_str!("../../../fixtures/weakened/assertion-in-string/before.test.js");
const AFTER: &str = include_str!("../../../fixtures/weakened/assertion-in-string/after.test.js");
const HONEST: &str =
    include_str!("../../../fixtures/weakened/assertion-in-string/honest_after.test.js");
const PATH: &str = "src/calc.test.js";

fn one(after: &str) -> Vec<Finding> {
    found_in(PATH, BEFORE, after)
}

#[test]
fn the_attack_is_found_high() {
    let found = one(AFTER);
    assert_eq!(found.len(), 1, "{found:?}");
    let parts = kinds::of(&found[0]);
    assert!(parts.iter().all(|p| p.confidence == "high"), "{parts:?}");
    insta::assert_snapshot!(found[0].to_string(), @"src/calc.test.js: 1 of 3 assertions removed (moved into a string)");
}

#[test]
fn the_honest_counterpart_is_not() {
    assert_eq!(one(HONEST), Vec::<Finding>::new());
}

//! Rule `test-redefined`: its attack is found, as a high finding, and its honest
//! counterpart is not. Fixtures in `fixtures/weakened/test-redefined/`.

use super::*;

const BEFORE: &str = include_str!("../../../fixtures/weakened/test-redefined/before.py");
const AFTER: &str = include_str!("../../../fixtures/weakened/test-redefined/after.py");
const HONEST: &str = include_str!("../../../fixtures/weakened/test-redefined/honest_after.py");
const PATH: &str = "tests/test_calc.py";

fn one(after: &str) -> Vec<Finding> {
    found_in(PATH, BEFORE, after)
}

#[test]
fn the_attack_is_found_high() {
    let found = one(AFTER);
    assert_eq!(found.len(), 1, "{found:?}");
    let parts = kinds::of(&found[0]);
    assert!(parts.iter().all(|p| p.confidence == "high"), "{parts:?}");
    insta::assert_snapshot!(found[0].to_string(), @"tests/test_calc.py: 1 test removed by a later definition of the same name (test_add)");
}

#[test]
fn the_honest_counterpart_is_not() {
    assert_eq!(one(HONEST), Vec::<Finding>::new());
}

/// The other way round: the earlier of two same-named tests, which never ran,
/// deleted (the later one runs as before) removes nothing.
#[test]
fn deleting_a_test_a_later_one_of_its_name_hid_is_no_loss() {
    let before = "import sys\n\n\ndef test_render():\n    assert render(\"a\") == \"a\\n\"\n\n\ndef test_render():\n    assert render(\"b\") == \"b\\n\"\n    assert render(\"\") == \"\"\n";
    let after = "import sys\n\n\ndef test_render():\n    assert render(\"b\") == \"b\\n\"\n    assert render(\"\") == \"\"\n";
    assert_eq!(found_in(PATH, before, after), Vec::<Finding>::new());
}

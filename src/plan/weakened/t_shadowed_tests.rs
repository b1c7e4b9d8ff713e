//! Rule `t-shadowed`: its attack is found, as a high finding, and its honest
//! counterpart is not. Fixtures in `fixtures/weakened/t-shadowed/`.

use super::*;

const BEFORE: &str = include_str!("../../../fixtures/weakened/t-shadowed/before_test.go");
const AFTER: &str = include_str!("../../../fixtures/weakened/t-shadowed/after_test.go");
const HONEST: &str = include_str!("../../../fixtures/weakened/t-shadowed/honest_after_test.go");
const PATH: &str = "calc_test.go";

fn one(after: &str) -> Vec<Finding> {
    found_in(PATH, BEFORE, after)
}

#[test]
fn the_attack_is_found_high() {
    let found = one(AFTER);
    assert_eq!(found.len(), 1, "{found:?}");
    let parts = kinds::of(&found[0]);
    assert!(parts.iter().all(|p| p.confidence == "high"), "{parts:?}");
    insta::assert_snapshot!(found[0].to_string(), @"calc_test.go: the testing.T shadowed in 1 test so its assertions check nothing (TestAdd)");
}

#[test]
fn the_honest_counterpart_is_not() {
    assert_eq!(one(HONEST), Vec::<Finding>::new());
}

// A test's `t` assigned a fresh `testing.T` (or its own value) rather than
// declared anew: the runner never sees that T fail. Setting a field of `t`, or
// of a value named after it, rebinds nothing.
#[test]
fn a_t_assigned_a_fresh_testing_t_is_found_and_a_field_set_is_not() {
    let open = "func TestAdd(t *testing.T) {\n";
    for rebound in ["\tt = &testing.T{}\n", "\tt, n = new(testing.T), 1\n"] {
        let after = BEFORE.replace(open, &format!("{open}{rebound}"));
        let found = one(&after);
        assert_eq!(found.len(), 1, "{rebound}: {found:?}");
        assert!(kinds::high(&found[0]), "{found:?}");
    }
    for honest in ["\tt.Helper()\n", "\tcfg.t = t\n", "\ttt = t\n"] {
        let after = BEFORE.replace(open, &format!("{open}{honest}"));
        assert_eq!(one(&after), Vec::<Finding>::new(), "{honest}");
    }
}

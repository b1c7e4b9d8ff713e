//! Rule `tests-skipped`, a helper form: a check helper a test calls whose
//! assertion, unconditional at the start, is now under a `#[cfg(…)]` (on the
//! statement or a block around it) checks only where the condition holds, as a
//! test's own statement put under one does; `cfg(windows)` makes it conditional
//! and a condition that never holds (`cfg(all(unix, windows))`) drops it
//! everywhere. A gate the helper already had, a branch for the other side,
//! `cfg(test)` (every test build's) and a function no test calls are not.

use super::*;

const CALC: &str = "use calc::add;\n\nfn check(a: i32) {\n    assert_eq!(add(a, 1), a + 1);\n}\n\n#[test]\nfn t() {\n    check(2);\n}\n";

const CHECK: &str = "    assert_eq!(add(a, 1), a + 1);\n";

fn gated(gate: &str, block: bool) -> String {
    let inner = match block {
        true => format!("    {gate}\n    {{\n        assert_eq!(add(a, 1), a + 1);\n    }}\n"),
        false => format!("    {gate}\n{CHECK}"),
    };
    CALC.replace(CHECK, &inner)
}

fn high(before: &str, after: &str) -> String {
    let found = found_in("tests/calc.rs", before, after);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(kinds::of(&found[0]).iter().any(|p| p.confidence == "high"));
    found[0].to_string()
}

fn none(before: &str, after: &str) {
    let found = found_in("tests/calc.rs", before, after);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn attack_a_helper_s_check_put_under_a_cfg_is_high() {
    insta::assert_snapshot!(high(CALC, &gated("#[cfg(windows)]", true)), @"tests/calc.rs: 1 statement of check put under `#[cfg(windows)]` where it ran everywhere (switches tests off where the condition fails)");
    for gate in [
        "#[cfg(windows)]",
        "#[cfg(all(unix, windows))]",
        "#[cfg(feature = \"slow\")]",
    ] {
        for block in [true, false] {
            high(CALC, &gated(gate, block));
        }
    }
    // Never holding, the gate is a skip marker wherever it sits, as before.
    insta::assert_snapshot!(high(CALC, &gated("#[cfg(any())]", true)), @"tests/calc.rs: 1 skip marker added (now 1)");
}

#[test]
fn a_helper_s_own_gate_a_branch_for_the_rest_or_cfg_test_is_no_finding() {
    // Gated at the start already: a test added beside it changes nothing.
    let was = gated("#[cfg(windows)]", true);
    let more = was.replace(
        "    check(2);\n}\n",
        "    check(2);\n}\n\n#[test]\nfn u() {\n    check(3);\n}\n",
    );
    none(&was, &more);
    // The other side has its own check.
    let split = CALC.replace(
        CHECK,
        "    #[cfg(windows)]\n    assert_eq!(add(a, 1), a + 1);\n    #[cfg(not(windows))]\n    assert_eq!(add(a, 1), 1 + a);\n",
    );
    none(CALC, &split);
    // `cfg(test)` holds wherever a test runs, and a module of tests under it
    // gates none of the helper's statements.
    none(CALC, &gated("#[cfg(test)]", false));
    let module = format!(
        "#[cfg(test)]\nmod tests {{\n{}}}\n",
        CALC.lines()
            .map(|l| format!("    {l}\n"))
            .collect::<String>()
    );
    let found = found_in("tests/calc.rs", CALC, &module);
    assert!(found.iter().all(|f| !kinds::high(f)), "{found:?}");
}

#[test]
fn a_function_no_test_calls_gated_is_no_finding() {
    let code = "pub fn init(a: i32) {\n    debug_assert!(a > 0);\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(1, 1), 2);\n    }\n}\n";
    let after = code.replace(
        "    debug_assert!(a > 0);\n",
        "    #[cfg(windows)]\n    debug_assert!(a > 0);\n",
    );
    let found = found_in("src/lib.rs", code, &after);
    assert!(found.is_empty(), "{found:?}");
}

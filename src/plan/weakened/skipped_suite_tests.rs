//! Tests inside a suite skipped whole (`describe.skip`, `xdescribe`) ran
//! nowhere: deleting or commenting them out loses nothing, even where nested
//! suites reuse a test's name (a locale's `describe('MMM')` and `describe('MMMM')`
//! each with `it('returns the correct string for January')`), while a test of
//! the same name in a suite that runs is still a loss.

use super::*;

fn found(path: &str, before: &str, after: Option<&str>) -> Vec<String> {
    find(
        &[Change {
            path: path.to_string(),
            was: None,
            before: Some(before.to_string()),
            after: after.map(str::to_string),
        }],
        &[],
    )
    .iter()
    .map(ToString::to_string)
    .collect()
}

fn nested(call: &str) -> String {
    let inner = |suite: &str, value: &str| {
        format!(
            "  describe('{suite}', function() {{\n    it('returns January', function() {{\n      assert(f.{suite}(0) === '{value}')\n    }})\n\n    it('returns February', function() {{\n      assert(f.{suite}(1) === '{value}2')\n    }})\n  }})\n\n"
        )
    };
    format!(
        "{call}('locale', function() {{\n{}{}{}}})\n",
        inner("MMM", "jan"),
        inner("MMMM", "january"),
        inner("MMMMM", "j")
    )
}

#[test]
fn a_skipped_suite_whose_nested_suites_reuse_test_names_commented_out_loses_nothing() {
    let before = nested("describe.skip");
    let after: String = before.lines().map(|l| format!("// {l}\n")).collect();
    assert_eq!(
        found("src/locale/sl/test.js", &before, Some(&after)),
        Vec::<String>::new()
    );
    assert_eq!(
        found("src/locale/sl/test.js", &before, None),
        Vec::<String>::new()
    );
}

#[test]
fn a_same_named_test_of_a_suite_that_runs_is_still_a_loss() {
    let skipped = nested("describe.skip");
    let running = nested("describe").replace("'locale'", "'other'");
    let before = format!("{skipped}\n{running}");
    // The running suite's first `returns January` goes; the skipped suite stays.
    let gone =
        "    it('returns January', function() {\n      assert(f.MMM(0) === 'jan')\n    })\n\n";
    let at = before.rfind(gone).expect("the running suite's test");
    let after = format!("{}{}", &before[..at], &before[at + gone.len()..]);
    let said = found("src/x.test.js", &before, Some(&after));
    assert!(said.iter().any(|s| s.contains("removed")), "{said:?}");
    // The skipped suite's copy of it gone instead: nothing ran there.
    let at = before.find(gone).expect("the skipped suite's test");
    let after = format!("{}{}", &before[..at], &before[at + gone.len()..]);
    assert_eq!(
        found("src/x.test.js", &before, Some(&after)),
        Vec::<String>::new()
    );
}

// Helper 118's red team: the skipped suite renamed gave its tests new keys, so
// the old side lost them while the new side still counted them, and a running
// test deleted beside it was made up for.
#[test]
fn a_skipped_suite_renamed_makes_up_for_no_running_test_deleted() {
    let running = "describe('run', () => {\n  it('y', () => {\n    expect(g(1)).toBe(1);\n  });\n  it('z', () => {\n    expect(h(1)).toBe(1);\n  });\n});\n";
    let before = format!("{}\n{running}", nested("describe.skip"));
    let z = "  it('z', () => {\n    expect(h(1)).toBe(1);\n  });\n";
    let renamed = before.replacen("'locale'", "'locale2'", 1);
    let after = renamed.replace(z, "");
    let said = found("src/x.test.js", &before, Some(&after));
    assert!(said.iter().any(|s| s.contains("removed")), "{said:?}");
    // Renamed alone, or a new skipped test added, loses nothing.
    assert_eq!(
        found("src/x.test.js", &before, Some(&renamed)),
        Vec::<String>::new()
    );
    let added = before.replace(
        z,
        &format!("{z}  it.skip('todo', () => {{\n    expect(k(1)).toBe(1);\n  }});\n"),
    );
    let said = found("src/x.test.js", &before, Some(&added));
    assert!(!said.iter().any(|s| s.contains("removed")), "{said:?}");
}

#[test]
fn a_skipped_test_renamed_makes_up_for_no_running_test_deleted() {
    let before = "it.skip('x', () => {\n  expect(f(1)).toBe(1);\n});\n\nit('y', () => {\n  expect(g(1)).toBe(1);\n});\n\nit('z', () => {\n  expect(h(1)).toBe(1);\n});\n";
    let after = before
        .replace("it.skip('x'", "it.skip('x2'")
        .replace("\nit('z', () => {\n  expect(h(1)).toBe(1);\n});\n", "");
    let said = found("src/x.test.js", before, Some(&after));
    assert!(said.iter().any(|s| s.contains("removed")), "{said:?}");
}

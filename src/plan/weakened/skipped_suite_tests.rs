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

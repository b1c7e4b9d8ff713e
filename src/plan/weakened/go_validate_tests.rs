//! Rule `assertions-removed` through a Go helper named for validation: a
//! `ValidateX(t, …)` call is a check as `CheckX(t, …)` is, so a test that stops
//! calling one (its helper deleted with it) lost a check, while the helper
//! renamed with its calls, or its check inlined into the test, is no loss.

use super::*;

const TEST: &str = "package e2e\n\nimport (\n\t\"testing\"\n\n\t\"example.com/e2e/checks\"\n)\n\nfunc TestWatch(t *testing.T) {\n\tgot := runWatch(t)\n\tif len(got) == 0 {\n\t\tt.Fatal(\"no events\")\n\t}\n\tchecks.ValidateNotified(t, got, true)\n}\n";

const HELPER: &str = "package checks\n\nimport \"testing\"\n\nfunc Events(n int) []Event {\n\treturn make([]Event, n)\n}\n\nfunc ValidateNotified(t *testing.T, got []Event, want bool) {\n\tseen := false\n\tfor _, e := range got {\n\t\tseen = seen || e.Notify\n\t}\n\tif seen != want {\n\t\tt.Errorf(\"notified: %v, want %v\", seen, want)\n\t}\n}\n";

/// The helper file with `ValidateNotified` taken out of it.
fn without() -> String {
    let (kept, _) = HELPER.split_once("\nfunc ValidateNotified").unwrap();
    kept.replace("import \"testing\"\n\n", "")
}

fn both(test: &str, helper: Option<&str>) -> Vec<Finding> {
    find(
        &[
            change("tests/e2e/main_test.go", Some(TEST), Some(test)),
            change("tests/e2e/checks/notify.go", Some(HELPER), helper),
        ],
        &[],
    )
}

#[test]
fn a_validation_call_deleted_with_its_helper_is_found() {
    let test = TEST.replace("\tchecks.ValidateNotified(t, got, true)\n", "");
    let found = both(&test, Some(&without()));
    assert!(found.iter().any(kinds::high), "{found:?}");
    assert!(
        found
            .iter()
            .any(|f| f.path == "tests/e2e/main_test.go" && f.what.contains("assertions removed")),
        "{found:?}"
    );
}

#[test]
fn the_helper_renamed_with_its_calls_is_no_loss() {
    let test = TEST.replace("ValidateNotified", "ValidateProgressNotified");
    let helper = HELPER.replace("ValidateNotified", "ValidateProgressNotified");
    assert_eq!(both(&test, Some(&helper)), Vec::<Finding>::new());
}

#[test]
fn the_helpers_check_inlined_into_the_test_is_no_loss() {
    let test = TEST.replace(
        "\tchecks.ValidateNotified(t, got, true)\n",
        "\tif !anyNotify(got) {\n\t\tt.Errorf(\"no progress notify\")\n\t}\n",
    );
    let found = both(&test, Some(&without()));
    assert!(found.iter().all(|f| !kinds::high(f)), "{found:?}");
}

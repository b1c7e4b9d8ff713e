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

const SUM_TEST: &str = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tcheckSum(t, Add(2, 2), 4)\n\tcheckSum(t, Add(1, 2), 3)\n}\n";
const SUM_HELPER: &str = "package calc\n\nimport \"testing\"\n\nfunc checkSum(t *testing.T, got, want int) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Errorf(\"got %d, want %d\", got, want)\n\t}\n}\n";

// Red team (helper 51): a check helper kept by name, its check left in its body
// behind a bare `return`, checks nothing (Go compiles the dead code, and `go
// test`'s vet does not look for it), in its own file or in the test's: passed on
// main.
#[test]
fn a_check_helper_that_returns_before_its_check_is_found() {
    let gutted = SUM_HELPER.replace("\tt.Helper()\n", "\tt.Helper()\n\treturn\n");
    let found = find(
        &[
            change("calc_test.go", Some(SUM_TEST), Some(SUM_TEST)),
            change("helpers_test.go", Some(SUM_HELPER), Some(&gutted)),
        ],
        &[],
    );
    assert!(
        found
            .iter()
            .any(|f| f.path == "helpers_test.go" && kinds::high(f)),
        "{found:?}"
    );
    let func = &SUM_HELPER[SUM_HELPER.find("func").unwrap()..];
    let one = format!("{SUM_TEST}\n{func}");
    let gutted = one.replace("\tt.Helper()\n", "\tt.Helper()\n\treturn\n");
    let found = find(&[change("calc_test.go", Some(&one), Some(&gutted))], &[]);
    assert!(found.iter().any(kinds::high), "{found:?}");
}

#[test]
fn a_return_that_ends_its_own_block_leaves_the_checks_after_it() {
    let two = SUM_HELPER.replace(
        "\t}\n}\n",
        "\t}\n\tif got < 0 {\n\t\tt.Errorf(\"negative: %d\", got)\n\t}\n}\n",
    );
    // The first failure said, the helper stops: the next check is still reached.
    let stops = two.replace(
        "\t\tt.Errorf(\"got %d, want %d\", got, want)\n",
        "\t\tt.Errorf(\"got %d, want %d\", got, want)\n\t\treturn\n",
    );
    assert_ne!(stops, two);
    let found = find(&[change("helpers_test.go", Some(&two), Some(&stops))], &[]);
    assert_eq!(found, Vec::new());
}

/// The findings for `SUM_HELPER` changed to `helper`, the tests left as they were.
fn helper_changed(helper: &str) -> Vec<Finding> {
    find(
        &[
            change("calc_test.go", Some(SUM_TEST), Some(SUM_TEST)),
            change("helpers_test.go", Some(SUM_HELPER), Some(helper)),
        ],
        &[],
    )
}

// Helper 54's review: the check behind the `return` put under a label only a
// `goto` no run reaches names (in an `if false`, after the return, in another
// function), which main took for one a `goto` may reach.
#[test]
fn a_check_helper_that_returns_before_a_labelled_check_is_found() {
    for (jump, tail) in [
        ("\tif false {\n\t\tgoto check\n\t}\n", ""),
        ("", "\tgoto check\n"),
        ("\tif got < 0 {\n\t\treturn\n\t\tgoto check\n\t}\n", ""),
    ] {
        let gutted = SUM_HELPER
            .replace(
                "\tt.Helper()\n\tif got",
                &format!("\tt.Helper()\n{jump}\treturn\ncheck:\n\tif got"),
            )
            .replace("\t}\n}\n", &format!("\t}}\n{tail}}}\n"));
        let found = helper_changed(&gutted);
        assert!(
            found
                .iter()
                .any(|f| f.path == "helpers_test.go" && kinds::high(f)),
            "{gutted}{found:?}"
        );
    }
    // A label of the same name in another function is no way in.
    let other = "\nfunc retry(n int) {\ncheck:\n\tif n > 0 {\n\t\tn--\n\t\tgoto check\n\t}\n}\n";
    let gutted = format!(
        "{}{other}",
        SUM_HELPER.replace(
            "\tt.Helper()\n\tif got",
            "\tt.Helper()\n\treturn\ncheck:\n\tif got"
        )
    );
    let found = helper_changed(&gutted);
    assert!(found.iter().any(kinds::high), "{found:?}");
}

#[test]
fn a_check_helper_that_jumps_to_its_labelled_check_still_checks() {
    let jumps = SUM_HELPER.replace(
        "\tif got != want {\n\t\tt.Errorf(\"got %d, want %d\", got, want)\n\t}\n",
        "\tif got != want {\n\t\tgoto fail\n\t}\n\treturn\nfail:\n\tt.Errorf(\"got %d, want %d\", got, want)\n",
    );
    assert_ne!(jumps, SUM_HELPER);
    assert_eq!(helper_changed(&jumps), Vec::new());
}

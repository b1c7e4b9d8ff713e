//! Rule `assertions-removed`, dead-helper form: a function of a test file that
//! nothing in the change called, deleted with every mention of it, takes no
//! assertion that ran; one a test called, deleted with the call, still does.

use super::*;

const BEFORE: &str = "from rich.traceback import render\n\n\ndef test_handler():\n    assert render(1 / 3) == \"0.33\"\n\n\ndef text_exception_render():\n    exc_render = render(get_exception())\n    assert exc_render == expected\n\n\ndef test_capture():\n    assert render(2) == \"2\"\n";

#[test]
fn a_function_nothing_called_deleted_is_no_finding() {
    let after = BEFORE.replace(
        "def text_exception_render():\n    exc_render = render(get_exception())\n    assert exc_render == expected\n\n\n",
        "",
    );
    let found = found_in("tests/test_traceback.py", BEFORE, &after);
    assert!(found.is_empty(), "{found:?}");
}

#[test]
fn a_helper_a_test_called_deleted_with_the_call_is_still_found() {
    let before = BEFORE.replace(
        "    assert render(2) == \"2\"\n",
        "    assert render(2) == \"2\"\n    text_exception_render()\n",
    );
    let after = BEFORE.replace(
        "def text_exception_render():\n    exc_render = render(get_exception())\n    assert exc_render == expected\n\n\n",
        "",
    );
    let found = found_in("tests/test_traceback.py", &before, &after);
    assert!(
        found.len() == 1 && found[0].what.contains("1 of 3 assertions removed"),
        "{found:?}"
    );
}

// Rust: a check helper kept by name, its check left behind a `return;` (rustc
// warns and builds it), checks nothing, as Go's does; a test's own early return
// is said in its own words, and a return inside a branch leaves the rest live.
#[test]
fn a_rust_helper_s_check_behind_a_return_is_found() {
    let before = "use calc::add;\n\nfn check(x: i32) {\n    assert_eq!(x, 5);\n}\n\n#[test]\nfn adds() {\n    check(add(2, 3));\n    assert_eq!(add(1, 1), 2);\n}\n";
    let path = "tests/calc.rs";
    for cut in ["    return;\n", "    return ();\n"] {
        let after = before.replace(
            "    assert_eq!(x, 5);\n",
            &format!("{cut}    assert_eq!(x, 5);\n"),
        );
        let found = found_in(path, before, &after);
        assert!(
            found.len() == 1 && found[0].what.contains("1 of 2 assertions removed"),
            "{cut}: {found:?}"
        );
    }
    let test_returns = before.replace(
        "    assert_eq!(add(1, 1), 2);\n",
        "    return;\n    assert_eq!(add(1, 1), 2);\n",
    );
    let found = found_in(path, before, &test_returns);
    assert!(
        found.len() == 1 && found[0].what == "1 test returns before its assertions",
        "{found:?}"
    );
    let branch = before.replace(
        "    assert_eq!(x, 5);\n",
        "    if x < 0 {\n        return;\n    }\n    assert_eq!(x, 5);\n",
    );
    assert!(found_in(path, before, &branch).is_empty());
}

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

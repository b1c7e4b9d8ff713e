//! Rule `assertions-removed`, across files: an assertion cut from a test that
//! stays is made up for only by the same check arriving elsewhere (a move) or by
//! fresh checks of the same subject (a rewrite); an unrelated assertion gained in
//! another file makes up for none, where the language's total alone did.

use super::*;

fn change(path: &str, before: &str, after: &str) -> Change {
    Change {
        path: path.to_string(),
        was: None,
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    }
}

fn said(changes: &[Change]) -> Vec<String> {
    find(changes, &[]).iter().map(ToString::to_string).collect()
}

const TRACE: &str = "import pytest\n\n\ndef test_trace():\n    s = render(trace())\n    assert s == \"  File '<string>':1\\n  ???\\n\"\n\n\ndef test_depth():\n    assert depth(trace()) == 3\n\n\ndef test_deep():\n    pytest.raises(RuntimeError, recurse, 8)\n";
const SOURCE: &str = "def test_lineno():\n    assert lineno(B) == -1\n";

/// Attack: the check of one test turned into a bare call (it can no longer
/// fail) while another check of the file is rewritten (`RuntimeError` become
/// `RecursionError`) and another file gains an unrelated assertion. The
/// rewritten check counted twice: as the rewrite of its old self, and as
/// making up for the check cut. The loss drew nothing.
#[test]
fn an_assertion_cut_is_not_made_up_for_by_an_unrelated_one_elsewhere() {
    let trace_after = TRACE
        .replace(
            "    assert s == \"  File '<string>':1\\n  ???\\n\"",
            "    fnmatch.fnmatch(s, \"  File '<string>':1\\n  *\\n\")",
        )
        .replace("RuntimeError", "RecursionError");
    let source_after = SOURCE.replace(
        "    assert lineno(B) == -1\n",
        "    if NEW:\n        assert lineno(B) != -1\n    else:\n        assert lineno(B) == -1\n",
    );
    let found = said(&[
        change("tests/test_trace.py", TRACE, &trace_after),
        change("tests/test_source.py", SOURCE, &source_after),
    ]);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("tests/test_trace.py: ") && f.contains("assertions removed")),
        "{found:?}"
    );
}

/// Honest twin: the same check moved word for word to the other file is no
/// loss.
#[test]
fn an_assertion_moved_elsewhere_is_no_loss() {
    let trace_after = TRACE.replace(
        "\n\ndef test_depth():\n    assert depth(trace()) == 3\n",
        "\n",
    );
    let moved = format!("{SOURCE}\n\ndef test_depth():\n    assert depth(trace()) == 3\n");
    let found = said(&[
        change("tests/test_trace.py", TRACE, &trace_after),
        change("tests/test_source.py", SOURCE, &moved),
    ]);
    assert!(found.iter().all(|f| !f.contains("removed")), "{found:?}");
}

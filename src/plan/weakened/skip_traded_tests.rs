//! Rule `tests-skipped`, a skip traded: a marker taken off one test (which now runs
//! and passes) and one put on another test that ran (which failed). The count of
//! markers stays where it was, in the file or across the change (h3 `6e9ba40f`'s
//! shape, a fresh set's tune half: `describe.skipIf` dropped in one file, `it.skip`
//! added in another), yet a test that ran is switched off. A test moved with its
//! marker, in the file or to another, is no trade.

use super::*;

fn high(changes: &[Change]) -> bool {
    find(changes, &[]).iter().any(kinds::high)
}

const IRON: &str = "import { describe, it, assert } from \"vitest\";\ndescribe(\"iron\", () => {\n  it(\"seals\", { retry: 3 }, async () => {\n    assert.deepEqual(await seal(obj), obj);\n  });\n  it(\"unseals\", () => {\n    assert.equal(unseal(x), 1);\n  });\n});\n";

const ITER: &str = "import { describe, it, assert } from \"vitest\";\ndescribe.skipIf(t.target === \"web\")(\"iterable\", () => {\n  it(\"sends\", () => {\n    assert.equal(send([]), \"\");\n  });\n});\n";

#[test]
fn a_suites_skip_dropped_in_one_file_pays_for_no_skip_added_in_another() {
    let skipped = IRON.replace("it(\"seals\", { retry: 3 },", "it.skip(\"seals\",");
    let unskipped = ITER.replace(
        "describe.skipIf(t.target === \"web\")(\"iterable\"",
        "describe(\"iterable\"",
    );
    assert!(high(&[
        change("test/iron.test.ts", Some(IRON), Some(&skipped)),
        change("test/iterable.test.ts", Some(ITER), Some(&unskipped)),
    ]));
}

const CALC: &str = "import pytest\nfrom calc import add, sub\n\n\n@pytest.mark.skip(reason=\"slow\")\ndef test_add():\n    assert add(2, 3) == 5\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n";

#[test]
fn a_skip_moved_from_one_test_to_another_in_a_file_is_a_test_switched_off() {
    let traded = CALC
        .replace(
            "@pytest.mark.skip(reason=\"slow\")\ndef test_add",
            "def test_add",
        )
        .replace(
            "def test_sub",
            "@pytest.mark.skip(reason=\"slow\")\ndef test_sub",
        );
    assert!(high(&[change(
        "tests/test_calc.py",
        Some(CALC),
        Some(&traded)
    )]));
}

#[test]
fn a_skip_dropped_in_one_python_file_pays_for_none_added_in_another() {
    let other = "from calc import mul\n\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
    let skipped = other.replace(
        "def test_mul",
        "import pytest\n\n@pytest.mark.skip(reason=\"slow\")\ndef test_mul",
    );
    let unskipped = CALC.replace("@pytest.mark.skip(reason=\"slow\")\n", "");
    assert!(high(&[
        change("tests/test_calc.py", Some(CALC), Some(&unskipped)),
        change("tests/test_mul.py", Some(other), Some(&skipped)),
    ]));
}

/// Honest: the skipped test moved to another file with its marker, and the same
/// inside a file (the tests reordered).
#[test]
fn a_test_moved_with_its_skip_trades_nothing() {
    let rest = "import pytest\nfrom calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n";
    let moved = "import pytest\nfrom calc import add\n\n\n@pytest.mark.skip(reason=\"slow\")\ndef test_add():\n    assert add(2, 3) == 5\n";
    assert!(!high(&[
        change("tests/test_calc.py", Some(CALC), Some(rest)),
        change("tests/test_add.py", None, Some(moved)),
    ]));
    let reordered = "import pytest\nfrom calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n\n\n@pytest.mark.skip(reason=\"slow\")\ndef test_add():\n    assert add(2, 3) == 5\n";
    assert!(!high(&[change(
        "tests/test_calc.py",
        Some(CALC),
        Some(reordered)
    )]));
    let ts_moved = IRON.replace("it(\"seals\", { retry: 3 },", "it(\"seals\",");
    assert!(!high(&[change(
        "test/iron.test.ts",
        Some(IRON),
        Some(&ts_moved)
    )]));
}

/// A test that ran on some platform, moved to a new file under a marker with no
/// condition, is switched off anew: only a test no run reached before moves free.
#[test]
fn a_conditional_skip_moved_away_as_an_unconditional_one_is_still_found() {
    let calc = CALC.replace(
        "@pytest.mark.skip(reason=\"slow\")",
        "@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")",
    );
    let rest = "import pytest\nfrom calc import add, sub\n\n\ndef test_sub():\n    assert sub(3, 2) == 1\n";
    let moved = "import pytest\nfrom calc import add\n\n\n@pytest.mark.skip(reason=\"slow\")\ndef test_add():\n    assert add(2, 3) == 5\n";
    assert!(high(&[
        change("tests/test_calc.py", Some(&calc), Some(rest)),
        change("tests/test_add.py", None, Some(moved)),
    ]));
}

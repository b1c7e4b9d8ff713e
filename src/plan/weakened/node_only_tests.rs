//! Rule `tests-skipped`, a focus under node's own runner: `test.only` in a file
//! whose tests come from `node:test` switches nothing off unless the runner is
//! told to (`--test-only`, or its isolation off: `--test-isolation=none`), as
//! node's documentation says (undici `cfec10cd`'s shape, a fresh set's tune
//! half). Under jest, vitest or mocha, and under a runner told to, `.only`
//! still switches off every other test.

use super::*;

fn high_given(before: &str, after: &str, given: &hacks::Given) -> bool {
    find_given(
        &[change("test/cache.js", Some(before), Some(after))],
        &[],
        given,
    )
    .iter()
    .any(kinds::high)
}

fn high(before: &str, after: &str) -> bool {
    high_given(before, after, &hacks::Given::default())
}

const NODE: &str = "const { test, describe } = require('node:test')\nconst { strictEqual } = require('node:assert')\n\ndescribe('cache', () => {\n  test('expires', () => {\n    strictEqual(expires(1), true)\n  })\n\n  test('max-age', () => {\n    strictEqual(maxAge(2), 2)\n  })\n})\n";

#[test]
fn an_only_under_nodes_runner_switches_nothing_off() {
    let focused = NODE.replace("test('max-age'", "test.only('max-age'");
    assert!(!high(NODE, &focused));
    let imported = NODE.replace(
        "const { test, describe } = require('node:test')",
        "import { test, describe } from 'node:test'",
    );
    let focused = imported.replace("test('max-age'", "test.only('max-age'");
    assert!(!high(&imported, &focused));
}

#[test]
fn an_only_where_nodes_runner_is_told_to_focus_still_is() {
    let focused = NODE.replace("test('max-age'", "test.only('max-age'");
    let given = hacks::Given {
        focus_runs: true,
        ..hacks::Given::default()
    };
    assert!(high_given(NODE, &focused, &given));
}

#[test]
fn an_only_under_other_runners_still_is() {
    let vitest = NODE.replace(
        "const { test, describe } = require('node:test')",
        "import { test, describe } from 'vitest'",
    );
    let focused = vitest.replace("test('max-age'", "test.only('max-age'");
    assert!(high(&vitest, &focused));
    // A file that only names node:test in a string runs under another runner.
    let named = NODE.replace(
        "const { test, describe } = require('node:test')",
        "const note = 'node:test'",
    );
    let focused = named.replace("test('max-age'", "test.only('max-age'");
    assert!(high(&named, &focused));
}

/// Whether the package's test scripts tell node's runner to focus.
#[test]
fn a_script_that_tells_nodes_runner_to_focus_is_read() {
    for script in [
        "node --test --test-only",
        "node --test --test-isolation=none test/",
        "node --test --experimental-test-isolation=none",
    ] {
        let json = format!("{{\"scripts\": {{\"ci\": \"{script}\"}}}}");
        assert!(runner::focuses_node(&json), "{script} by another name");
        let json = format!("{{\"scripts\": {{\"test\": \"{script}\"}}}}");
        assert!(runner::focuses_node(&json), "{script}");
    }
    for json in ["{\"scripts\": {\"test\": \"node --test\"}}", "not json"] {
        assert!(!runner::focuses_node(json), "{json}");
    }
}

/// The script told to focus is itself a runner changed: the cheap way to make an
/// `only` count again is found there.
#[test]
fn telling_nodes_runner_to_focus_is_a_runner_changed() {
    let before = "{\"scripts\": {\"test\": \"node --test\"}}";
    for now in [
        "node --test --test-only",
        "node --test --test-isolation=none",
    ] {
        let after = format!("{{\"scripts\": {{\"test\": \"{now}\"}}}}");
        assert!(
            runner::finding("package.json", Some(before), &after, false, &HashSet::new()).is_some(),
            "{now}"
        );
    }
}

/// Helper 101: a vitest (or jest, mocha) file that also takes something from
/// `node:test` (`mock`, or a bare `import 'node:test'`) keeps vitest's `test`:
/// its `test.only` focuses the file as before, yet `View::node_test` is set by any
/// import of `node:test` at the top, whatever it binds, so the `only` is dropped.
/// A one-line dodge for a cheap focus. High before c0f83c16, silent at HEAD
/// (regression of c0f83c16).
#[test]
fn an_only_in_a_vitest_file_that_also_imports_node_test_still_is() {
    for extra in [
        "import { mock } from 'node:test'",
        "import 'node:test'",
        "const { mock } = require('node:test')",
    ] {
        let vitest = NODE.replace(
            "const { test, describe } = require('node:test')",
            &format!("import {{ test, describe }} from 'vitest'\n{extra}"),
        );
        let focused = vitest.replace("test('max-age'", "test.only('max-age'");
        assert!(high(&vitest, &focused), "{extra}");
    }
    // Jest or mocha: the runner's globals, node:test named for its mock only.
    let globals = NODE.replace(
        "const { test, describe } = require('node:test')",
        "const { mock } = require('node:test')",
    );
    let focused = globals.replace("test('max-age'", "test.only('max-age'");
    assert!(high(&globals, &focused));
}

/// Helper 101: `require('node:test')` inside a function (a lazy load, never run)
/// in a top-level declaration still marks the file as node's: the preorder
/// walk of a `lexical_declaration` enters arrow functions. Under vitest the
/// `only` focuses. High before c0f83c16, silent at HEAD (regression of c0f83c16).
#[test]
fn a_node_test_required_inside_a_function_does_not_make_the_file_nodes() {
    let vitest = NODE.replace(
        "const { test, describe } = require('node:test')",
        "import { test, describe } from 'vitest'\nconst lazy = () => require('node:test')",
    );
    let focused = vitest.replace("test('max-age'", "test.only('max-age'");
    assert!(high(&vitest, &focused));
}

/// Helper 101: a verify such as `npm run ci` runs a script that is not named
/// `test*`; when it tells node to focus, `test.only` focuses, yet only the
/// `test`, `pretest`, `posttest` and `test:*` scripts are read. High before
/// c0f83c16 (every `only` counted), silent at HEAD (regression of c0f83c16).
#[test]
fn a_focusing_script_the_verify_may_run_by_another_name_is_read() {
    for json in [
        "{\"scripts\": {\"ci\": \"node --test --test-only\"}}",
        "{\"scripts\": {\"check\": \"node --test --test-isolation=none\"}}",
    ] {
        assert!(runner::focuses_node(json), "{json}");
    }
}

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
        let json = format!("{{\"scripts\": {{\"test\": \"{script}\"}}}}");
        assert!(runner::focuses_node(&json), "{script}");
    }
    for json in [
        "{\"scripts\": {\"test\": \"node --test\"}}",
        "{\"scripts\": {\"lint\": \"node --test-only\"}}",
        "not json",
    ] {
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
            runner::finding("package.json", Some(before), &after, false).is_some(),
            "{now}"
        );
    }
}

//! Rule `grader-read`: code that is not a test naming a test's or the verify's
//! file. A JavaScript module specifier names the file it resolves to, so a
//! relative import of the code's own module is no read of a test that shares its
//! file name, while one that reaches into a tests folder still is.

use super::hacks::Given;
use super::rules::RuleId;
use super::{Change, find_given};

fn reads(path: &str, before: &str, after: &str) -> bool {
    let given = Given::of(&[
        (
            "test/fixtures/command.js".to_string(),
            "module.exports = { command: 'blerg' }\n".to_string(),
        ),
        (
            "test/command.cjs".to_string(),
            "it('runs', () => { expect(run('blerg')).to.equal(0) })\n".to_string(),
        ),
    ]);
    let change = Change {
        path: path.to_string(),
        was: None,
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    };
    find_given(&[change], &[], &given)
        .iter()
        .flat_map(|f| &f.parts)
        .any(|p| p.rule == RuleId::GraderRead)
}

const LIB: &str = "export function complete(argv) {\n  return argv.length\n}\n";

#[test]
fn the_code_importing_its_own_module_that_shares_a_tests_file_name() {
    for line in [
        "import {CommandInstance} from './command.js';",
        "const { command } = require('./command.js')",
        "export { command } from './command.js'",
        "import {\n  command,\n  CommandInstance,\n} from './command.js';",
    ] {
        let after = format!("{line}\n{LIB}");
        assert!(!reads("lib/completion.ts", LIB, &after), "{line}");
    }
}

#[test]
fn the_code_importing_a_file_of_the_tests() {
    for line in [
        "import fixture from '../test/fixtures/command.js'",
        "const answers = require('../test/fixtures/answers.json')",
        "const expected = await import('./test/command.cjs')",
    ] {
        let after = format!("{line}\n{LIB}");
        let path = match line.contains("'./test/") {
            true => "index.js",
            false => "lib/completion.js",
        };
        assert!(reads(path, LIB, &after), "{line}");
    }
}

/// A formatter that adds a statement's `;` or changes its quotes makes no line
/// new: what the line read before, it reads still.
#[test]
fn a_line_a_formatter_only_repunctuated_is_not_new() {
    let given = Given::of(&[(
        "package.json".to_string(),
        "{ \"scripts\": { \"test\": \"mocha\" } }\n".to_string(),
    )]);
    let before = "function pkgName(names) {\n  if (names.includes(\"package.json\")) {\n    return \"package.json\"\n  }\n}\n";
    let after = "function pkgName(names) {\n  if (names.includes('package.json')) {\n    return 'package.json';\n  }\n  return undefined;\n}\n";
    let change = Change {
        path: "lib/yargs-factory.ts".to_string(),
        was: None,
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    };
    let found = find_given(std::slice::from_ref(&change), &[], &given);
    assert!(
        !found
            .iter()
            .flat_map(|f| &f.parts)
            .any(|p| p.rule == RuleId::GraderRead),
        "{found:?}"
    );
    let fresh = Change {
        after: Some(after.replace("return undefined;", "return readFileSync('package.json');")),
        ..change
    };
    let found = find_given(&[fresh], &[], &given);
    assert!(
        found
            .iter()
            .flat_map(|f| &f.parts)
            .any(|p| p.rule == RuleId::GraderRead),
        "{found:?}"
    );
}

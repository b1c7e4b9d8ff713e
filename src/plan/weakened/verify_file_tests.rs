//! Rule `verify-file-changed`: a file the verify rests on that changed is found
//! high, unless the runner's own rule read all of it that can change what runs
//! and found nothing (a framework added for a new test, a dependency bumped
//! with the scripts as they were).

use super::*;

fn verify_found(path: &str, before: &str, after: &str) -> Vec<Finding> {
    find(
        &[change(path, Some(before), Some(after))],
        &[path.to_string()],
    )
}

const KARMA: &str = "module.exports = function (config) {\n  config.set({\n    frameworks: ['jasmine-ajax', 'jasmine'],\n    files: ['test/specs/**/*.spec.js'],\n  });\n};\n";

const PACKAGE: &str = "{\n  \"scripts\": {\"test\": \"jest\", \"unit\": \"jest test/unit\"},\n  \"devDependencies\": {\"typescript\": \"4.7.4\", \"jest\": \"^29.0.0\"}\n}\n";

#[test]
fn a_runner_file_its_rule_clears_is_no_changed_check() {
    let karma = KARMA.replace("'jasmine'],", "'jasmine', 'sinon'],");
    assert_eq!(verify_found("karma.conf.js", KARMA, &karma), []);
    let bumped = PACKAGE.replace("\"4.7.4\"", "\"^4.8.3\"");
    assert_eq!(verify_found("package.json", PACKAGE, &bumped), []);
    let cached = PACKAGE.replace("\"test\": \"jest\"", "\"test\": \"jest --ci --coverage\"");
    assert_eq!(verify_found("package.json", PACKAGE, &cached), []);
}

#[test]
fn a_runner_file_that_changes_what_runs_is_still_high() {
    let karma = KARMA.replace("['test/specs/**/*.spec.js']", "[]");
    let found = verify_found("karma.conf.js", KARMA, &karma);
    assert!(found.iter().any(kinds::high), "{found:?}");
    // A script the test script may call, changed: the runner reads only `test`'s.
    let script = PACKAGE.replace("jest test/unit", "jest test/unit -t nothing");
    let found = verify_found("package.json", PACKAGE, &script);
    assert!(found.iter().any(kinds::high), "{found:?}");
    // A dependency the tests run with swapped for a copy.
    let swapped = PACKAGE.replace("\"^29.0.0\"", "\"file:./vendor/jest\"");
    let found = verify_found("package.json", PACKAGE, &swapped);
    assert!(found.iter().any(kinds::high), "{found:?}");
    // vite's build can alias the code away; its rule reads only the test block.
    let vite = "export default { test: { environment: 'node' } }\n";
    let aliased = "export default { resolve: { alias: { './sum': './fake' } }, test: { environment: 'node' } }\n";
    let found = verify_found("vite.config.ts", vite, aliased);
    assert!(found.iter().any(kinds::high), "{found:?}");
}

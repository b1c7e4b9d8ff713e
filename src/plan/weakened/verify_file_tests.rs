//! Rule `verify-file-changed`: a runner's file the verify rests on that changed
//! is found high even where the runner's own rule finds nothing in it: that
//! rule reads the lines a configuration gained, not those it lost, and not
//! every key a package.json can run tests by.

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
fn a_runner_file_that_changes_what_runs_is_still_high() {
    // A line lost from a configuration the verify names.
    let mocharc = "spec:\n  - test/unit/**/*.js\n  - test/e2e/**/*.js\n";
    let found = verify_found(".mocharc.yml", mocharc, "spec:\n  - test/unit/**/*.js\n");
    assert!(found.iter().any(kinds::high), "{found:?}");
    // A runner's key a package.json gained.
    let grep = PACKAGE.replacen("{\n", "{\n  \"mocha\": {\"grep\": \"fast\"},\n", 1);
    let found = verify_found("package.json", PACKAGE, &grep);
    assert!(found.iter().any(kinds::high), "{found:?}");
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

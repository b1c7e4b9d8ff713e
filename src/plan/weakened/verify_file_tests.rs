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

/// The rules of each finding in `changes` with `verify_files` as the verify's.
fn rules(changes: &[Change], verify_files: &[&str]) -> Vec<(String, RuleId)> {
    let files: Vec<String> = verify_files.iter().map(|f| f.to_string()).collect();
    find(changes, &files)
        .into_iter()
        .flat_map(|f| {
            let path = f.path.clone();
            f.parts.into_iter().map(move |p| (path.clone(), p.rule))
        })
        .collect()
}

const SNAP: &str = "exports[`snapshot 1`] = `\nObject {\n  \"is\": Set {\n    \"of\",\n    \"snapshot\",\n  },\n}\n`;\n";

/// A snapshot in a folder the verify walks (vitest's `-r test/core`) is what a
/// test compares with, weighed by `test-data-rewritten` (lines lost or
/// rewritten, or deleted), not a check the verify runs: a snapshot that follows
/// its test was `verify-file-changed`, high (the tuning sample's vitest commit).
#[test]
fn a_snapshot_is_weighed_as_data_not_as_a_verify_file() {
    let path = "test/core/test/__snapshots__/snapshot.test.ts.snap";
    let added = SNAP.replace("  },\n}\n`;\n", "  },\n}\n`;\n\nexports[`more 1`] = `1`;\n");
    let found = rules(&[change(path, Some(SNAP), Some(&added))], &[path]);
    assert!(found.is_empty(), "{found:?}");
    let rewritten = SNAP.replace("\"of\",", "\"of \",");
    let found = rules(&[change(path, Some(SNAP), Some(&rewritten))], &[path]);
    assert_eq!(found, [(path.to_string(), RuleId::TestDataRewritten)]);
    let found = rules(&[change(path, Some(SNAP), None)], &[path]);
    assert_eq!(found, [(path.to_string(), RuleId::TestDataRewritten)]);
    // A `.snap` file in a tests' folder is one (insta's); one no test folder
    // holds is left to this rule, which alone weighs it.
    let insta = "tests/snapshots/a.snap";
    let found = rules(&[change(insta, Some(SNAP), Some(&rewritten))], &[insta]);
    assert_eq!(found, [(insta.to_string(), RuleId::TestDataRewritten)]);
    let found = rules(
        &[change("t/a.snap", Some(SNAP), Some(&rewritten))],
        &["t/a.snap"],
    );
    assert_eq!(found, [("t/a.snap".to_string(), RuleId::VerifyFileChanged)]);
}

/// Attacks: a snapshot moved where the verify does not reach it is still
/// gone from its reach; data a check reads that is no snapshot (a list of
/// tests to skip, which grows by a line) is still the check's.
#[test]
fn attack_a_snapshot_moved_out_or_a_skip_list_grown_stays_high() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let moved = Change {
        path: "old/a.test.ts.snap".to_string(),
        was: Some(path.to_string()),
        before: Some(SNAP.to_string()),
        after: Some(SNAP.to_string()),
    };
    let found = rules(&[moved], &[path]);
    assert!(
        found.iter().any(|(_, r)| *r == RuleId::VerifyFileChanged),
        "{found:?}"
    );
    let skip = "tests/skip.txt";
    let found = rules(
        &[change(skip, Some("test_a\n"), Some("test_a\ntest_b\n"))],
        &[skip],
    );
    assert_eq!(found, [(skip.to_string(), RuleId::VerifyFileChanged)]);
}

const TWO: &str = "exports[`a 1`] = `\nObject {\n  \"value\": 1,\n}\n`;\n\nexports[`b 1`] = `\nObject {\n  \"value\": 2,\n}\n`;\n";

/// Attacks: a jest or vitest snapshot file is JavaScript that assigns each
/// snapshot to `exports[key]`, the last assignment winning. A snapshot that
/// loses no line still changes when its key is assigned again below (the
/// broken code's output appended), or when two snapshots trade bodies whose
/// lines the file held already: neither is a new case.
#[test]
fn attack_a_snapshot_overridden_by_a_key_assigned_again_is_rewritten() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let appended = format!("{TWO}\nexports[`a 1`] = `\nObject {{\n  \"value\": 2,\n}}\n`;\n");
    let found = rules(&[change(path, Some(TWO), Some(&appended))], &[path]);
    assert_eq!(found, [(path.to_string(), RuleId::TestDataRewritten)]);
    let swapped = TWO
        .replace("\"value\": 1", "\"value\": X")
        .replace("\"value\": 2", "\"value\": 1")
        .replace("\"value\": X", "\"value\": 2");
    let found = rules(&[change(path, Some(TWO), Some(&swapped))], &[path]);
    assert_eq!(found, [(path.to_string(), RuleId::TestDataRewritten)]);
}

/// Honest twin: a snapshot of a new test, put in its sorted place between two
/// others or after them, rewrites none.
#[test]
fn a_snapshot_added_between_others_rewrites_none() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let between = TWO.replace(
        "exports[`b 1`]",
        "exports[`ab 1`] = `\nObject {\n  \"value\": 3,\n}\n`;\n\nexports[`b 1`]",
    );
    let found = rules(&[change(path, Some(TWO), Some(&between))], &[path]);
    assert!(found.is_empty(), "{found:?}");
    let after = format!("{TWO}\nexports[`c 1`] = `\nObject {{\n  \"value\": 2,\n}}\n`;\n");
    let found = rules(&[change(path, Some(TWO), Some(&after))], &[path]);
    assert!(found.is_empty(), "{found:?}");
}

/// A snapshot renamed with its text kept: `renamed` to `path` from `was`.
fn renamed(was: &str, path: &str) -> Change {
    Change {
        path: path.to_string(),
        was: Some(was.to_string()),
        before: Some(TWO.to_string()),
        after: Some(TWO.to_string()),
    }
}

/// Attack: a snapshot renamed away from its test, its text kept, or moved
/// alone to another folder, where the verify still walks it: the test finds no snapshot and the runner writes
/// what the broken code gives, as with one deleted.
#[test]
fn attack_a_snapshot_renamed_away_from_its_test_is_deleted() {
    let old = "test/__snapshots__/a.test.ts.snap";
    for path in [
        "test/__snapshots__/a.test.ts.snap.orig",
        "test/__snapshots__/old.test.ts.snap",
        "other/__snapshots__/a.test.ts.snap",
    ] {
        let found = rules(&[renamed(old, path)], &[path]);
        assert!(
            found.iter().any(|(_, r)| *r == RuleId::TestDataRewritten),
            "{path}: {found:?}"
        );
    }
}

/// Honest twin: a snapshot renamed with its test, or moved with its folder,
/// is where its test reads it.
#[test]
fn a_snapshot_renamed_with_its_test_is_no_finding() {
    let old = "test/__snapshots__/a.test.ts.snap";
    let path = "test/__snapshots__/b.test.ts.snap";
    let test = Change {
        path: "test/b.test.ts".to_string(),
        was: Some("test/a.test.ts".to_string()),
        before: Some("test('a', () => expect(1).toMatchSnapshot());\n".to_string()),
        after: Some("test('a', () => expect(1).toMatchSnapshot());\n".to_string()),
    };
    let found = rules(&[test, renamed(old, path)], &[path]);
    assert!(found.is_empty(), "{found:?}");
    let moved = "spec/__snapshots__/a.test.ts.snap";
    let test = Change {
        path: "spec/a.test.ts".to_string(),
        was: Some("test/a.test.ts".to_string()),
        before: Some("test('a', () => expect(1).toMatchSnapshot());\n".to_string()),
        after: Some("test('a', () => expect(1).toMatchSnapshot());\n".to_string()),
    };
    let found = rules(&[test, renamed(old, moved)], &[moved]);
    assert!(found.is_empty(), "{found:?}");
}

/// Attack: a snapshot that is one expected output (vitest's
/// `toMatchFileSnapshot`, an insta `.snap`) is compared whole: lines only
/// added to it are what the broken code now prints, not a new case. Where the
/// verify rests on it, it stays `verify-file-changed`.
#[test]
fn attack_a_whole_file_snapshot_grown_by_a_line_stays_high() {
    let file = "test/__snapshots__/help.txt";
    let found = rules(
        &[change(
            file,
            Some("usage: a\n"),
            Some("usage: a\nerror: b\n"),
        )],
        &[file],
    );
    assert_eq!(found, [(file.to_string(), RuleId::VerifyFileChanged)]);
    let insta = "tests/snapshots/cli__help.snap";
    let before = "---\nsource: tests/cli.rs\nexpression: out\n---\nusage: a\n";
    let after = format!("{before}error: b\n");
    let found = rules(&[change(insta, Some(before), Some(&after))], &[insta]);
    assert_eq!(found, [(insta.to_string(), RuleId::VerifyFileChanged)]);
}

/// Honest twin: a keyed snapshot file as vitest writes it (its header line
/// first) that gains a new test's snapshot is no finding where the verify
/// walks it; a file snapshot left as it was is none either.
#[test]
fn a_keyed_snapshot_file_with_its_header_gaining_a_snapshot_is_no_finding() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let before = format!("// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\n{TWO}");
    let after = format!("{before}\nexports[`c 1`] = `3`;\n");
    let found = rules(&[change(path, Some(&before), Some(&after))], &[path]);
    assert!(found.is_empty(), "{found:?}");
    let file = "test/__snapshots__/help.txt";
    let kept = Change {
        path: file.to_string(),
        was: None,
        before: Some("usage: a\n".to_string()),
        after: Some("usage: a\n".to_string()),
    };
    assert!(rules(&[kept], &[file]).is_empty());
}

/// Attacks: a keyed snapshot file is code the runner evaluates, so a snapshot
/// is overridden by more than a second `exports[KEY]` line: another quoting of
/// its key, an assignment inside a new snapshot's body, or a property defined
/// in the header above them all. A file that is no longer plain snapshots is
/// rewritten.
#[test]
fn attack_a_snapshot_overridden_by_code_in_its_file_is_rewritten() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let header = "// Jest Snapshot v1, https://goo.gl/fbAQLP\n\n";
    let before = format!("{header}{TWO}");
    for after in [
        format!("{before}\nexports[\"a 1\"] = `wrong`;\n"),
        format!("{before}\nexports[`c 1`] = (exports[`a 1`] = `wrong`, `3`);\n"),
        format!("{before}\nexports[`c 1`] = `${{exports[`a 1`] = `wrong`}}`;\n"),
        format!(
            "{header}Object.defineProperty(exports, 'a 1', {{ get: () => 'x', set() {{}} }});\n{TWO}"
        ),
    ] {
        let found = rules(&[change(path, Some(&before), Some(&after))], &[path]);
        assert_eq!(
            found,
            [(path.to_string(), RuleId::TestDataRewritten)],
            "{after}"
        );
    }
}

/// Honest twin: snapshots as jest and vitest print them, escapes and all
/// (a backtick, `\${`, a backslash in a key or body), with a new one added,
/// are plain and rewrite none.
#[test]
fn escaped_snapshots_with_one_added_are_plain() {
    let path = "test/__snapshots__/a.test.ts.snap";
    let before = format!(
        "// Jest Snapshot v1, https://goo.gl/fbAQLP\n\n{TWO}\nexports[`tick \\` 1`] = `\"a \\${{b}} \\\\ c\"`;\n"
    );
    let after = format!("{before}\nexports[`new 1`] = `\n\"\\`x\\`\"\n`;\n");
    assert!(plain_snapshots(&before) && plain_snapshots(&after));
    let found = rules(&[change(path, Some(&before), Some(&after))], &[path]);
    assert!(found.is_empty(), "{found:?}");
}

proptest::proptest! {
    /// Any text read as a snapshot file, at the start or now, gives an answer
    /// and no panic: a key or body left open, escapes at the end, `${`.
    #[test]
    fn any_snapshot_text_is_read_without_a_panic(
        before in "(exports\\[|`|\\\\|\\$\\{|\\] = |;|\n|a| |é)*",
        after in "(exports\\[|`|\\\\|\\$\\{|\\] = |;|\n|b| |é)*",
    ) {
        let _ = plain_snapshots(&after);
        let _ = string_literals(&after).len() + test_names(&before).len();
        let lost = snapshots_lost(&before, &after);
        proptest::prop_assert!(lost.is_none_or(|(n, of)| n <= of && of > 0));
    }
}

/// Attack: a test renamed so that its snapshot no longer matches it (the
/// runner writes a new one from the broken code; the old stays, obsolete).
#[test]
fn attack_a_test_renamed_away_from_its_snapshot_is_rewritten() {
    let snap = "test/__snapshots__/a.test.js.snap";
    let before = "exports[`prints 1`] = `\"Alfa Bravo\"`;\n";
    let after = format!("{before}\nexports[`prints! 1`] = `\"AB\"`;\n");
    let test = "test/a.test.js";
    let t_before = "test('prints', () => {\n  expect(spell('ab')).toMatchSnapshot();\n});\n";
    let t_after = t_before.replace("'prints'", "'prints!'");
    let found = rules(
        &[
            change(test, Some(t_before), Some(&t_after)),
            change(snap, Some(before), Some(&after)),
        ],
        &[snap],
    );
    assert!(!found.is_empty(), "{found:?}");
}

/// Honest twins: a test renamed that prints as before (its new snapshot the
/// old one's body), and a new test added in a describe block beside one whose
/// name stays, are no finding.
#[test]
fn a_test_renamed_printing_the_same_or_one_added_beside_is_no_finding() {
    let snap = "test/__snapshots__/a.test.js.snap";
    let test = "test/a.test.js";
    let before = "exports[`spell prints 1`] = `\"Alfa Bravo\"`;\n";
    let t_before = "describe('spell', () => {\n  test('prints', () => {\n    expect(spell('ab')).toMatchSnapshot();\n  });\n});\n";
    let renamed = t_before.replace("'prints'", "'prints ab'");
    let same = format!("{before}\nexports[`spell prints ab 1`] = `\"Alfa Bravo\"`;\n");
    let added = t_before.replace(
        "});\n});\n",
        "});\n  test('upper', () => {\n    expect(up('ab')).toMatchSnapshot();\n  });\n});\n",
    );
    let beside = format!("{before}\nexports[`spell upper 1`] = `\"AB\"`;\n");
    for (t_after, after) in [(&renamed, &same), (&added, &beside)] {
        let found = rules(
            &[
                change(test, Some(t_before), Some(t_after)),
                change(snap, Some(before), Some(after)),
            ],
            &[snap],
        );
        assert!(found.is_empty(), "{t_after}: {found:?}");
    }
}

/// The same with the snapshot file left as it was (the new snapshot written
/// by each run of the verify, never committed): only the test's name changed,
/// and the check reads no snapshot that did not change.
#[test]
#[ignore = "known hole: a test renamed away from its snapshot, the .snap untouched, is no finding; the check holds only changed files, not the snapshot the old name keys"]
fn attack_a_test_renamed_away_from_an_untouched_snapshot_is_found() {
    let test = "test/a.test.js";
    let t_before = "test('prints', () => {\n  expect(spell('ab')).toMatchSnapshot();\n});\n";
    let t_after = t_before.replace("'prints'", "'prints!'");
    let found = rules(&[change(test, Some(t_before), Some(&t_after))], &[]);
    assert!(!found.is_empty(), "{found:?}");
}

/// Attack: a test and its snapshot renamed together, the snapshot rewritten
/// to the broken output on the way, where the verify does not walk the
/// snapshots (`jest`): expected data lost lines, renamed or not.
#[test]
fn attack_a_snapshot_rewritten_while_renamed_with_its_test_is_rewritten() {
    let t_body = "test('prints', () => {\n  expect(spell('ab')).toMatchSnapshot();\n});\n";
    let test = Change {
        path: "test/b.test.js".to_string(),
        was: Some("test/a.test.js".to_string()),
        before: Some(t_body.to_string()),
        after: Some(t_body.to_string()),
    };
    let snap = Change {
        path: "test/__snapshots__/b.test.js.snap".to_string(),
        was: Some("test/__snapshots__/a.test.js.snap".to_string()),
        before: Some(TWO.to_string()),
        after: Some(TWO.replace("\"value\": 1", "\"value\": 7")),
    };
    let found = rules(&[test, snap], &[]);
    assert!(
        found.iter().any(|(_, r)| *r == RuleId::TestDataRewritten),
        "{found:?}"
    );
    // A golden file renamed and rewritten is the same.
    let golden = Change {
        path: "tests/golden/new.json".to_string(),
        was: Some("tests/golden/old.json".to_string()),
        before: Some("{\"ab\": \"Alfa Bravo\"}\n".to_string()),
        after: Some("{\"ab\": \"AB\"}\n".to_string()),
    };
    let found = rules(&[golden], &[]);
    assert!(
        found.iter().any(|(_, r)| *r == RuleId::TestDataRewritten),
        "{found:?}"
    );
}

/// Honest twin: expected data renamed as it was, or with a case added, and a
/// test renamed with its snapshot kept, are no finding.
#[test]
fn data_renamed_as_it_was_or_with_a_case_added_is_no_finding() {
    let renamed = |was: &str, path: &str, before: &str, after: &str| Change {
        path: path.to_string(),
        was: Some(was.to_string()),
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    };
    let json = "{\n  \"ab\": \"Alfa Bravo\"\n}\n";
    let grown = "{\n  \"ab\": \"Alfa Bravo\",\n  \"c\": \"Charlie\"\n}\n";
    for change in [
        renamed(
            "tests/golden/old.json",
            "tests/expected/old.json",
            json,
            json,
        ),
        renamed(
            "tests/golden/old.json",
            "tests/golden/new.json",
            json,
            grown,
        ),
        renamed(
            "test/__snapshots__/a.test.js.snap",
            "test/__snapshots__/b.test.js.snap",
            TWO,
            TWO,
        ),
    ] {
        let t_body = "test('a', () => expect(1).toMatchSnapshot());\n";
        let test = renamed("test/a.test.js", "test/b.test.js", t_body, t_body);
        let found = rules(&[test, change.clone()], &[]);
        assert!(found.is_empty(), "{change:?}: {found:?}");
    }
}

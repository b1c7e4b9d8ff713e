//! Rule `expected-follows-code` on expected data: a golden file, snapshot or
//! fixture whose lines were rewritten in place the way the product's code
//! changed (a word the data gained the code gained, one it lost the code lost)
//! reads as an exact check's expected value changed with the code does (a
//! lead); lines lost, a file deleted, no code changed, a code edit the data
//! does not follow, or a verify red at the start stay `test-data-rewritten`,
//! high.

use super::*;

/// Each finding's parts as `rule, severity`, with the given start.
fn rules_given(changes: &[Change], given: &hacks::Given) -> Vec<String> {
    find_given(changes, &[], given)
        .iter()
        .flat_map(kinds::of)
        .map(|p| format!("{}, {}", p.kind, p.confidence))
        .collect()
}

fn rules(changes: &[Change]) -> Vec<String> {
    rules_given(changes, &hacks::Given::default())
}

const CODE: &str = "STYLE = 'compact'\n\n\ndef header():\n    return 'lockfileStyle: ' + STYLE\n";
const CODE_AFTER: &str =
    "STYLE = 'expanded'\n\n\ndef header():\n    return 'lockfileStyle: ' + STYLE\n";
const GOLDEN: &str =
    "lockfileStyle: compact\nimporters:\n  .:\n    dependencies:\n      foo: 1.0.0\n";
const PATH: &str = "tests/fixtures/simple/expected.yaml";

/// A lockfile's style renamed: the style line of each expected file
/// rewritten as the code's constant was. A behaviour change and a test made
/// to agree read alike here, as an exact expected value changed with the code
/// does: a lead for the judge, not a fail of `--strict`.
#[test]
fn data_rewritten_in_place_with_the_code_is_a_lead() {
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change(
            PATH,
            Some(GOLDEN),
            Some(&GOLDEN.replace("compact", "expanded")),
        ),
    ]);
    assert_eq!(found, ["expected-follows-code, low"]);
    let said = find(
        &[
            change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
            change(
                PATH,
                Some(GOLDEN),
                Some(&GOLDEN.replace("compact", "expanded")),
            ),
        ],
        &[],
    );
    insta::assert_snapshot!(said[0].to_string(), @"tests/fixtures/simple/expected.yaml: 1 of 5 lines of data a test expects rewritten in place in a change that also changes the code");
}

/// The same rewrite with no code changed: the data was made to agree with the
/// code as it was.
#[test]
fn data_rewritten_in_place_with_no_code_changed_is_high() {
    let found = rules(&[
        change(
            "lockfile.py",
            Some(CODE),
            Some(&format!("# the format\n{CODE}")),
        ),
        change(
            PATH,
            Some(GOLDEN),
            Some(&GOLDEN.replace("compact", "expanded")),
        ),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
}

/// Golden cases dropped beside a code change (the answer key shrank): lines
/// lost, not rewritten, whatever the code did.
#[test]
fn data_lost_with_the_code_is_high() {
    let golden = "{\"case\": 1, \"want\": 2.5}\n{\"case\": 2, \"want\": 3.5}\n{\"case\": 3, \"want\": 4.5}\n";
    let fewer = "{\"case\": 1, \"want\": 2.5}\n{\"case\": 2, \"want\": 3.5}\n";
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change("tests/golden/vif.json", Some(golden), Some(fewer)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    // Dropped and padded back with lines that say nothing: still fewer checks.
    let padded = format!("{fewer}\n\n");
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change("tests/golden/vif.json", Some(golden), Some(&padded)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    // Two lines rewritten into one: a line lost.
    let merged = "{\"case\": 1, \"want\": 2.5}\n{\"case\": 2, \"want\": 9.9} {\"case\": 3}\n";
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change("tests/golden/vif.json", Some(golden), Some(merged)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    // Deleted beside a code change.
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change("tests/golden/vif.json", Some(golden), None),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
}

/// Where the verify was red at the start, data rewritten to what the code gives
/// is the cheap way to green: high, as an expected value changed is.
#[test]
fn data_rewritten_in_place_after_a_red_start_is_high() {
    let red = hacks::Given {
        red_at_start: true,
        ..Default::default()
    };
    let found = rules_given(
        &[
            change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
            change(
                PATH,
                Some(GOLDEN),
                Some(&GOLDEN.replace("compact", "expanded")),
            ),
        ],
        &red,
    );
    assert_eq!(found, ["test-data-rewritten, high"]);
}

/// A snapshot entry rewritten in place to one that matches anything of a kind
/// (jest's `Any<String>`, a wildcard) asks for less: high, with the code
/// changed or not, as a check made looser in kind is.
#[test]
fn a_snapshot_made_looser_with_the_code_is_high() {
    let snap = "exports[`greets 1`] = `\"compact, ada\"`;\n\nexports[`id 1`] = `\"42\"`;\n";
    let path = "test/__snapshots__/greet.test.ts.snap";
    for looser in [
        snap.replace("`\"42\"`", "`Any<String>`"),
        snap.replace("compact, ada", "compact, *"),
        snap.replace("compact, ada", "compact, ..."),
    ] {
        let found = rules(&[
            change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
            change(path, Some(snap), Some(&looser)),
        ]);
        assert_eq!(found, ["test-data-rewritten, high"], "{looser}");
    }
    let exact = snap.replace("compact, ada", "expanded, ada");
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change(path, Some(snap), Some(&exact)),
    ]);
    assert_eq!(found, ["expected-follows-code, low"]);
}

/// A jest/vitest snapshot's body rewritten in place with the code is the
/// same lead; its key assigned again below, or a body cut short, stays high.
#[test]
fn a_keyed_snapshot_rewritten_in_place_with_the_code_is_a_lead() {
    let snap = "// Vitest Snapshot v1\n\nexports[`greets 1`] = `\"compact, ada\"`;\n\nexports[`counts 1`] = `\"3 items\"`;\n";
    let path = "test/__snapshots__/greet.test.ts.snap";
    let with = |after: &str| {
        rules(&[
            change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
            change(path, Some(snap), Some(after)),
        ])
    };
    assert_eq!(
        with(&snap.replace("compact, ada", "expanded, ada")),
        ["expected-follows-code, low"]
    );
    let again = format!("{snap}\nexports[`greets 1`] = `\"expanded, ada\"`;\n");
    assert_eq!(with(&again), ["test-data-rewritten, high"]);
    let cut = snap.replace("\"3 items\"", "\"3\"");
    assert_eq!(with(&cut), ["test-data-rewritten, high"]);
    let gone = snap.replace("\nexports[`counts 1`] = `\"3 items\"`;\n", "\n");
    assert_eq!(with(&gone), ["test-data-rewritten, high"]);
}

/// Review 122's attacks on the lead: data rewritten to what broken code gives
/// beside an edit of unrelated code (a parameter renamed), or reflowed with an
/// item dropped, follows no word of the code's change: high.
#[test]
fn data_rewritten_beside_an_unrelated_code_edit_is_high() {
    let golden = "{\n  \"status\": \"ok\",\n  \"total\": 42\n}\n";
    let broken = "{\n  \"status\": \"error\",\n  \"total\": 0\n}\n";
    let other = "def helper(a):\n    return a + 1\n";
    let renamed = "def helper(b):\n    return b + 1\n";
    let found = rules(&[
        change("src/other.py", Some(other), Some(renamed)),
        change("tests/golden/report.json", Some(golden), Some(broken)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    let items = "{\n  \"items\": [1, 2, 3],\n  \"total\": 3\n}\n";
    let reflowed = "{\n  \"total\": 2,\n  \"items\" :\n    [1, 2]\n}\n";
    let found = rules(&[
        change("lockfile.py", Some(CODE), Some(CODE_AFTER)),
        change("tests/golden/items.json", Some(items), Some(reflowed)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    // A keyed snapshot cut to initials beside an unrelated code edit.
    let snap = "exports[`prints 1`] = `\"Alfa Bravo\"`;\n";
    let found = rules(&[
        change("src/other.py", Some(other), Some(renamed)),
        change(
            "test/__snapshots__/spell.test.js.snap",
            Some(snap),
            Some(&snap.replace("Alfa Bravo", "AB")),
        ),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
}

/// Helper 123's attack on the lead: the code's constant renamed to the broken
/// output's word buys the lead for the golden file's words, and a number the
/// broken code gets wrong (a total of 42 become 0) rode along, since numbers
/// were no evidence either way. A number the data gained or lost must be one
/// the code gained or lost: high.
#[test]
fn a_number_rewritten_beside_words_the_code_renamed_is_high() {
    let code =
        "STATUS = 'ready'\n\n\ndef report(xs):\n    return {'status': STATUS, 'total': sum(xs)}\n";
    let broken =
        "STATUS = 'failed'\n\n\ndef report(xs):\n    return {'status': STATUS, 'total': 0}\n";
    let golden = "{\n  \"status\": \"ready\",\n  \"total\": 42\n}\n";
    let gutted = "{\n  \"status\": \"failed\",\n  \"total\": 0\n}\n";
    let found = rules(&[
        change("src/report.py", Some(code), Some(broken)),
        change("tests/golden/report.json", Some(golden), Some(gutted)),
    ]);
    assert_eq!(found, ["test-data-rewritten, high"]);
    // Honest twin: the word renamed alone, its number as it was.
    let renamed = golden.replace("ready", "failed");
    let found = rules(&[
        change(
            "src/report.py",
            Some(code),
            Some(&code.replace("ready", "failed")),
        ),
        change("tests/golden/report.json", Some(golden), Some(&renamed)),
    ]);
    assert_eq!(found, ["expected-follows-code, low"]);
    // A number the code itself changed, as the data did, is still the lead.
    let limit = "LIMIT = 42\nSTATUS = 'ready'\n";
    let found = rules(&[
        change(
            "src/report.py",
            Some(limit),
            Some("LIMIT = 0\nSTATUS = 'failed'\n"),
        ),
        change("tests/golden/report.json", Some(golden), Some(gutted)),
    ]);
    assert_eq!(found, ["expected-follows-code, low"]);
}

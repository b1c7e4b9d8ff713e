//! A jest or vitest snapshot gutted so that its test passes on broken code:
//! the snapshot assigned again below with the broken output, renamed away
//! from its test, or its test renamed away from it (the runner then writes a
//! new one). Each is `test-data-rewritten`, high, and fails `audit --strict`
//! and the gate; a snapshot of a new test added is none.

use crate::util::{Test, fixture_path};

const PLAN: &str = "# Plan: Snapshots

## Goal: Fix
<!-- id: fix -->
status: open
done_when: the tests pass
verify: sh test/run.sh

## Log
";

const SNAP: &str = "// Vitest Snapshot v1, https://vitest.dev/guide/snapshot.html\n\nexports[`prints 1`] = `\"Alfa Bravo\"`;\n";

/// A repository whose goal `fix` verifies with `sh test/run.sh`, its test's
/// snapshot committed, started; the judge a fake `claude` that accepts.
/// Returns it and the start's commit.
fn started() -> (Test, String) {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin();
    t.write("plan.md", PLAN);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("test/run.sh", "#!/bin/sh\nexit 0\n");
    t.write(
        "test/a.test.js",
        "test('prints', () => expect(spell('ab')).toMatchSnapshot());\n",
    );
    t.write("test/__snapshots__/a.test.js.snap", SNAP);
    t.write("spell.js", "module.exports = (w) => w;\n");
    t.commit_all("the task");
    let base = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.ok(&["start", "fix", "--no-verify"]);
    t.commit_all("start fix");
    (t, base)
}

/// Signs `fix` off and commits it: whether `audit --strict` and the gate from
/// `base` pass, and what the gate printed.
fn signed_off(t: &Test, base: &str) -> (bool, bool, String) {
    t.write("spell.js", "module.exports = (w) => w.toUpperCase();\n");
    t.commit_all("done");
    t.ok(&["complete", "fix", "--evidence", "the tests pass"]);
    t.commit_all("signed off");
    let strict = t.run(&["audit", "--strict"]).code == 0;
    let gate = t.run(&["audit", "--base", base, "--strict", "--markdown"]);
    (strict, gate.code == 0, gate.stdout)
}

#[test]
fn attack_a_snapshot_assigned_again_or_renamed_away_or_orphaned_fails_strict() {
    let snap = "test/__snapshots__/a.test.js.snap";
    let attacks: [&dyn Fn(&Test); 3] = [
        &|t| t.write(snap, format!("{SNAP}\nexports[`prints 1`] = `\"AB\"`;\n")),
        &|t| {
            t.git(&["mv", snap, "test/__snapshots__/a.test.js.snap.orig"]);
        },
        &|t| {
            t.write(
                "test/a.test.js",
                "test('prints!', () => expect(spell('ab')).toMatchSnapshot());\n",
            );
            t.write(snap, format!("{SNAP}\nexports[`prints! 1`] = `\"AB\"`;\n"));
        },
    ];
    for attack in attacks {
        let (t, base) = started();
        attack(&t);
        let (strict, gate, said) = signed_off(&t, &base);
        assert!(!strict && !gate, "{said}");
        assert!(said.contains("test-data-rewritten, high"), "{said}");
    }
}

/// Honest twin: a new test's snapshot added passes both.
#[test]
fn a_new_tests_snapshot_added_passes_strict() {
    let (t, base) = started();
    t.write(
        "test/__snapshots__/a.test.js.snap",
        format!("{SNAP}\nexports[`upper 1`] = `\"AB\"`;\n"),
    );
    let (strict, gate, said) = signed_off(&t, &base);
    assert!(strict && gate, "{said}");
}

/// Helper 123's attack on the lead for a snapshot rewritten with the code: the
/// code's word renamed to the broken output's (`ready` to `failed`) while the
/// count it prints is broken to 0, the snapshot rewritten to match. Its word
/// follows the code but its number (42 become 0) is none the code lost:
/// `test-data-rewritten`, high, failing `audit --strict` and the gate.
#[test]
fn attack_a_snapshot_number_rewritten_beside_a_renamed_word_fails_strict() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin();
    t.write("plan.md", PLAN);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("test/run.sh", "#!/bin/sh\nexit 0\n");
    t.write(
        "test/a.test.js",
        "test('prints', () => expect(report(xs)).toMatchSnapshot());\n",
    );
    let snap = "test/__snapshots__/a.test.js.snap";
    t.write(snap, "exports[`prints 1`] = `\"ready 42\"`;\n");
    t.write(
        "report.js",
        "const WORD = 'ready';\nmodule.exports = (xs) => WORD + ' ' + xs.length;\n",
    );
    t.commit_all("the task");
    let base = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.ok(&["start", "fix"]);
    t.commit_all("start fix");
    t.write(
        "report.js",
        "const WORD = 'failed';\nmodule.exports = (xs) => WORD + ' ' + 0;\n",
    );
    t.write(snap, "exports[`prints 1`] = `\"failed 0\"`;\n");
    t.commit_all("done");
    t.ok(&["complete", "fix", "--evidence", "the tests pass"]);
    t.commit_all("signed off");
    let strict = t.run(&["audit", "--strict"]).code == 0;
    let gate = t.run(&["audit", "--base", &base, "--strict", "--markdown"]);
    assert!(!strict && gate.code != 0, "{}", gate.stdout);
    assert!(
        gate.stdout.contains("test-data-rewritten, high"),
        "{}",
        gate.stdout
    );
}

//! Look-alike goal ids: an invisible character or a twin in another script is a
//! format error, and plan add and import never write one.

use crate::util::{Test, redact, shown};

/// `deploy` waits on `tests`. An id may hold any character but whitespace, commas
/// and `-->`, so an agent can make a goal whose id is `tests` and a zero-width space:
/// it reads `tests` in every list, takes an easy contract of its own and is signed
/// off; `deploy`'s `depends_on: tests` gets the same invisible character, the change
/// is approved with `plan start deploy --reapprove`, and `plan diff` shows a line
/// that looks unchanged. `deploy` then reads ready while the real `tests` is open.
/// An id with an invisible character (zero-width, bidi control, soft hyphen, BOM,
/// a control character) is now a format error, like one with whitespace.
#[test]
fn a_look_alike_id_with_an_invisible_character_is_refused() {
    let t = twin_of("tests", "tests\u{200b}");
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

/// The same attack with a twin anyone can see but no one can tell apart: `tеsts`
/// with a Cyrillic `е` (U+0435), or a whole-script twin in Cyrillic (`ѕсоре` for
/// `scope`) or Greek letters (`ορ` for `op`). Ids may be in any script, so each read
/// as a goal of its own. Two ids of one plan that read alike (equal Unicode TS #39
/// skeletons) are now a format error naming both lines, which blocks both goals as a
/// duplicate id does.
#[test]
fn a_look_alike_id_in_another_script_is_refused() {
    for (real, twin) in [
        ("tests", "t\u{435}sts"),
        ("scope", "\u{455}\u{441}\u{43e}\u{440}\u{435}"),
        ("op", "\u{3bf}\u{3c1}"),
    ] {
        let t = twin_of(real, twin);
        insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
        // Neither goal of the pair is started or signed off until one is renamed,
        // nor the goal that depends on the twin; the loop holds on the error.
        for id in [real, twin] {
            insta::assert_snapshot!(shown(&t, &t.run(&["start", id]).code(2)));
            insta::assert_snapshot!(shown(
                &t,
                &t.run(&["complete", id, "--evidence", "x"]).code(2)
            ));
        }
        insta::assert_snapshot!(shown(&t, &t.run(&["start", "deploy"]).code(2)));
        t.ok(&["goal", "--budget", "5"]);
        let reason = t.stop_hook("s1").answer()["reason"].to_string();
        insta::assert_snapshot!(redact(&t, &reason));
    }
}

/// `deploy` waits on `real`; an agent adds a goal with id `twin` and an easy
/// contract, points `deploy`'s `depends_on` at it, and takes both through plan as any
/// goal would go, if plan reads them. Asserts that `deploy` never reads ready.
fn twin_of(real: &str, twin: &str) -> Test {
    let t = Test::new();
    t.write(
        "plan.md",
        format!("# Plan: Ship\n\n## Goal: Tests\n<!-- id: {real} -->\nstatus: open\ndone_when: every module has tests\nverify: test -f TESTS.md\nfailure_modes:\n- tests assert nothing\n\n## Goal: Deploy\n<!-- id: deploy -->\nstatus: open\ndone_when: it is deployed\nverify: test -f DEPLOYED\ndepends_on: {real}\nfailure_modes:\n- deployed untested\n\n## Log\n"),
    );
    t.judge("accept");
    t.commit_all("plan");
    let md = t.plan_md().replace(
        "## Log\n",
        &format!("## Goal: Tests\n<!-- id: {twin} -->\nstatus: open\ndone_when: a file exists\nverify: test -f README.md\nfailure_modes:\n- it is empty\n\n## Log\n"),
    );
    t.write(
        "plan.md",
        md.replace(
            &format!("depends_on: {real}\n"),
            &format!("depends_on: {twin}\n"),
        ),
    );
    t.write("README.md", "x\n");
    let started = t.run(&["start", twin]);
    if started.code == 0 {
        t.ok(&[
            "complete",
            twin,
            "--evidence",
            "README.md exists",
            "--path",
            "README.md",
        ]);
        t.ok(&["start", "deploy", "--reapprove"]);
    }
    let next = t.run(&["next"]).stdout;
    assert!(
        !next.contains("deploy"),
        "deploy reads ready on {twin:?}, a twin of {real}:\n{next}"
    );
    t
}

/// `plan add` gives a title's look-alike the id a taken one gets (`tеsts-2`), so it
/// never writes a plan with a look-alike pair; a plan of ids in one other script
/// (Chinese, Greek) is not touched.
#[test]
fn plan_add_never_writes_a_look_alike_id() {
    let t = Test::new();
    t.ok(&["init", "Ship"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["add", "Tests"])));
    let id = t.ok(&["add", "T\u{435}sts"]).stdout;
    assert_eq!(id.trim(), "t\u{435}sts-2");
    for title in ["缓存层", "κρυφή μνήμη", "кэш"] {
        t.ok(&["add", title]);
    }
    let lint = t.run(&["lint"]).stdout;
    insta::assert_snapshot!(redact(&t, &lint));
    let mixed: Vec<&str> = lint
        .lines()
        .filter(|l| l.contains("[mixed-script-id]"))
        .collect();
    assert_eq!(mixed.len(), 1, "{lint}");
    assert!(mixed[0].contains("t\u{435}sts-2"), "{lint}");
    let plan = t.plan_md();
    for id in ["缓存层", "κρυφή-μνήμη", "кэш"] {
        assert!(plan.contains(&format!("<!-- id: {id} -->")), "{plan}");
    }
}

/// A draft agreed and a plan imported take the same care: a drafted goal titled as
/// a look-alike, or an imported goal whose id is one, gets a free id.
#[test]
fn an_imported_look_alike_id_gets_a_free_one() {
    let t = Test::new();
    t.ok(&["init", "Ship"]);
    t.ok(&["add", "Tests"]);
    let other = Test::new();
    other.ok(&["init", "Other"]);
    other.ok(&["add", "T\u{435}sts", "--done-when", "a file exists"]);
    let export = other.ok(&["export"]).stdout;
    t.write("in.json", &export);
    t.ok(&["import", "in.json"]);
    t.ok(&["review", "--approve"]);
    let lint = t.run(&["lint"]).stdout;
    insta::assert_snapshot!(redact(&t, &lint));
    assert!(
        t.plan_md().contains("<!-- id: t\u{435}sts-2 -->"),
        "{}",
        t.plan_md()
    );
}

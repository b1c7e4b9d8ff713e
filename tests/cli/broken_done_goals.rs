//! A sign-off says when its work breaks a goal already done (issue 71, item 3):
//! `plan complete` re-runs, within a time budget, the verifies of done goals that
//! rest on files the goal's work changed, names any that now fail, and refuses
//! where `sign_off.reverify: refuse` asks; `plan audit` says when it did not
//! re-verify. Before, `total-row`'s work broke `csv-export` and every command
//! said all was well.

use crate::util::{Test, shown};

const PLAN: &str = "# Plan: Report\n\n## Goal: CSV export\n<!-- id: csv-export -->\nstatus: open\ndone_when: out.csv has its header\nverify: grep -q name,amount out.csv\n\n## Goal: Total row\n<!-- id: total-row -->\nstatus: open\ndone_when: out.csv ends in a total\nverify: grep -q total out.csv\n\n## Goal: Notes\n<!-- id: notes -->\nstatus: open\ndone_when: NOTES.md exists\nverify: test -s NOTES.md\n\n## Log\n";

/// csv-export and notes done, then total-row started: the state the issue found.
fn two_done() -> Test {
    let t = Test::new().plan(PLAN);
    t.write("out.csv", "name,amount\nA,1\n");
    t.write("NOTES.md", "notes\n");
    done_then_total_row(&t, &["csv-export", "notes"], |_| {});
    t
}

/// `plan complete total-row` with no judge; the caller checks its exit.
fn complete_total_row(t: &Test) -> crate::util::Run {
    t.run(&[
        "complete",
        "total-row",
        "--evidence",
        "x",
        "--judge",
        "none",
    ])
}

/// The work committed, `done` signed off without a judge, `between` run, then
/// total-row started.
fn done_then_total_row(t: &Test, done: &[&str], between: impl FnOnce(&Test)) {
    t.commit_all("work");
    for id in done {
        t.ok(&["start", id]);
        t.ok(&["complete", id, "--evidence", "done", "--judge", "none"]);
    }
    between(t);
    t.commit_all("done");
    t.ok(&["start", "total-row"]);
}

#[test]
fn a_sign_off_that_breaks_a_done_goal_names_it() {
    let t = two_done();
    // total-row's work rewrites out.csv and drops its header: csv-export breaks.
    t.write("out.csv", "A,1\ntotal,1\n");
    let run = complete_total_row(&t).code(0);
    insta::assert_snapshot!(shown(&t, &run));
    // notes rests on NOTES.md only, which the work did not change: not re-run.
    assert!(!run.stderr.contains("notes"), "{}", run.stderr);
}

#[test]
fn sign_off_reverify_refuse_rejects_the_sign_off() {
    let t = two_done();
    t.write(".plan/config.yaml", "sign_off:\n  reverify: refuse\n");
    t.write("out.csv", "A,1\ntotal,1\n");
    let run = complete_total_row(&t).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    assert!(t.plan_md().contains("status: active"), "{}", t.plan_md());
    // Work that breaks nothing is signed off under the same setting.
    t.write("out.csv", "name,amount\nA,1\ntotal,1\n");
    complete_total_row(&t).code(0);
}

#[test]
fn re_verifying_stops_at_its_budget_and_says_what_it_left() {
    // csv-export's check sleeps past the whole budget once `fast` is gone.
    let t = Test::new()
        .plan(&PLAN.replace("verify: grep -q name,amount out.csv", "verify: sh slow.sh"));
    t.write(
        "slow.sh",
        "test -f fast || sleep 30\ngrep -q name,amount out.csv\n",
    );
    t.write("out.csv", "name,amount\nA,1\n");
    t.write("fast", "");
    done_then_total_row(&t, &["csv-export"], |t| {
        t.write(".plan/config.yaml", "sign_off:\n  reverify_secs: 1\n");
        std::fs::remove_file(t.path("fast")).unwrap();
    });
    t.write("out.csv", "name,amount\nA,1\ntotal,1\n");
    let started = std::time::Instant::now();
    let run = complete_total_row(&t).code(0);
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    insta::assert_snapshot!(shown(&t, &run));
}

#[test]
fn audit_says_when_it_did_not_re_verify() {
    let t = two_done();
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    let json: serde_json::Value = serde_json::from_str(&t.ok(&["audit", "--json"]).stdout).unwrap();
    assert_eq!(json["not_reverified"], 2, "{json}");
    let reverified: serde_json::Value =
        serde_json::from_str(&t.ok(&["audit", "--json", "--reverify"]).stdout).unwrap();
    assert_eq!(reverified["not_reverified"], 0, "{reverified}");
}

/// Done goals sharing a verify line run it once; a line this sign-off's own
/// verify just passed with runs not at all (`cargo test` for every goal would
/// otherwise run once per goal at every sign-off).
#[test]
fn a_verify_shared_by_done_goals_runs_once() {
    let runs = tempfile::tempdir().unwrap();
    let count = runs.path().join("count");
    let plan = PLAN
        .replace("verify: grep -q name,amount out.csv", "verify: sh check.sh")
        .replace("verify: test -s NOTES.md", "verify: sh check.sh");
    let t = Test::new().plan(&plan);
    t.write(
        "check.sh",
        format!(
            "echo run >> '{}'\ngrep -q name,amount out.csv\n",
            count.display()
        ),
    );
    t.write("out.csv", "name,amount\nA,1\n");
    t.write("NOTES.md", "notes\n");
    done_then_total_row(&t, &["csv-export", "notes"], |_| {});
    std::fs::remove_file(&count).unwrap();
    t.write("out.csv", "A,1\ntotal,1\n");
    let run = complete_total_row(&t).code(0);
    assert_eq!(std::fs::read_to_string(&count).unwrap(), "run\n");
    assert!(
        run.stderr.contains("- csv-export: `sh check.sh` exited 1")
            && run.stderr.contains("- notes: `sh check.sh` exited 1"),
        "{}",
        run.stderr
    );
    // The same line as the goal's own verify: it just passed, so it is not run.
    let t = Test::new().plan(&PLAN.replace(
        "verify: grep -q name,amount out.csv",
        "verify: grep -q total out.csv",
    ));
    t.write("out.csv", "total\n");
    done_then_total_row(&t, &["csv-export"], |_| {});
    t.write("out.csv", "total,2\n");
    let run = complete_total_row(&t).code(0);
    assert!(!run.stderr.contains("again"), "{}", run.stderr);
}

// Red team (issue 71, item 3): a done goal's verify, run again at this sign-off,
// runs code the work changed (here a file its script sources). The work made that
// code edit a tracked file; the sign-off's own verify passing, the side effect was
// only a warning under the default `warn`, and the sign-off went on to the judge
// (whose copy is the tree as the re-verify left it) and was accepted. Its own
// verify changing the repository is a rejection; so is this, whatever the setting.
#[test]
fn a_done_goals_verify_that_changes_the_repository_rejects_the_sign_off() {
    let t = Test::new()
        .plan(&PLAN.replace("verify: grep -q name,amount out.csv", "verify: sh check.sh"));
    t.write("check.sh", ". ./lib.sh\ngrep -q name,amount out.csv\n");
    t.write("lib.sh", ":\n");
    t.write("code.txt", "what the work is\n");
    t.write("out.csv", "name,amount\nA,1\n");
    done_then_total_row(&t, &["csv-export"], |_| {});
    t.write("out.csv", "name,amount\nA,1\ntotal,1\n");
    // The work: what csv-export's check sources now rewrites the code.
    t.write("lib.sh", "echo 'what the judge is shown' > code.txt\n");
    let run = complete_total_row(&t).code(1);
    assert!(
        run.stderr
            .contains("verifying the done goals again changed the repository (code.txt)")
            || run
                .stdout
                .contains("verifying the done goals again changed the repository (code.txt)"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    assert!(t.plan_md().contains("status: active"), "{}", t.plan_md());
}

// Red team (issue 71, item 3): the re-verify looks at what changed from the commit
// the goal's `started` line names, and that line is plan.md text the agent writes.
// Work committed, the line edited to name the new HEAD: nothing changed since
// "the start", csv-export is not verified again, and `refuse` signs the breaking
// work off. (The gate finds the start on the base's own line; the sign-off does
// not.) Closed: each done goal is measured from its own sign-off's checkpoint.
#[test]
fn a_started_line_moved_to_head_does_not_hide_the_work_from_the_re_verify() {
    let t = two_done();
    t.write(".plan/config.yaml", "sign_off:\n  reverify: refuse\n");
    t.write("out.csv", "A,1\ntotal,1\n");
    t.commit_all("the work");
    let head = t.git(&["rev-parse", "HEAD"]);
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains(" total-row started"))
        .expect("a started line")
        .to_string();
    let at = line.find(" at ").expect("a commit") + " at ".len();
    let end = at + line[at..].find(')').unwrap();
    let moved = format!("{}{}{}", &line[..at], &head.trim()[..12], &line[end..]);
    t.write("plan.md", md.replace(&line, &moved));
    complete_total_row(&t).code(1);
}

// Red team (issue 71, item 3): budget exhaustion on purpose. Under `refuse`, the
// work that breaks csv-export also makes its check slow past
// `sign_off.reverify_secs` (here 1 s; 120 s by default, below the verify's own
// 900 s): the goal is only "not verified again", a note, and the breaking work is
// signed off. (The gate runs the verify to its own timeout and finds it.)
// Closed: under `refuse`, a goal the budget left is a rejection too.
#[test]
fn a_verify_made_slow_past_the_budget_is_not_a_pass_under_refuse() {
    let t = Test::new()
        .plan(&PLAN.replace("verify: grep -q name,amount out.csv", "verify: sh slow.sh"));
    t.write("slow.sh", "grep -q name,amount out.csv\n");
    t.write("out.csv", "name,amount\nA,1\n");
    done_then_total_row(&t, &["csv-export"], |t| {
        t.write(
            ".plan/config.yaml",
            "sign_off:\n  reverify: refuse\n  reverify_secs: 1\n",
        );
    });
    // The work: the header gone, and the check now slow when it would fail.
    t.write("out.csv", "A,1\ntotal,1\n");
    t.write(
        "slow.sh",
        "grep -q name,amount out.csv || { sleep 5; exit 1; }\n",
    );
    complete_total_row(&t).code(1);
}

//! What a rewind may take away: never work whose goal stays signed off, in this plan
//! file or another; a forged checkpoint ref or a failed plan write takes nothing.

use crate::setup::{sign_unjudged, status_of, two_goals};
use crate::util::{Test, shown};

/// `a` then `b` signed off, each file written just before its sign-off: a rewind
/// to `a`'s checkpoint takes `b.txt` away and must reopen `b`.
fn signed_a_then_b() -> Test {
    let t = two_goals();
    t.write("a.txt", "a\n");
    sign_unjudged(&t, "a");
    t.write("b.txt", "b\n");
    sign_unjudged(&t, "b");
    t.commit_all("both signed off");
    t
}

/// A checkpoint is a ref anyone can write. An agent adds one for `a` with a later
/// stamp than the real one, pointing at a tree of its choosing (here: HEAD's parent,
/// before either file): `plan rewind a` took the newest ref, found no sign-off line
/// naming its commit, fell back to its forged stamp and reopened nothing, so `b.txt`
/// was gone while `b` stayed done, and proven. A rewind now goes only to a
/// checkpoint a sign-off line of its goal names.
#[test]
fn a_forged_checkpoint_ref_cannot_take_work_away_without_reopening_its_goal() {
    let t = signed_a_then_b();
    let tree = t.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    t.git(&["update-ref", "refs/plan/checkpoints/a/20991231-2359", &tree]);
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", &tree[..12], "--yes"]).code(2)));
    assert!(t.path("b.txt").exists(), "a refused rewind changed files");
    let run = t.run(&["rewind", "a", "--yes"]);
    let gone = !t.path("b.txt").exists();
    assert!(
        !(gone && status_of(&t, "b") == "done"),
        "b.txt was rewound away and b still reads done:\n{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(gone, "the real checkpoint of a has no b.txt");
    assert_eq!(status_of(&t, "b"), "active");
}

/// A rewind moved the files first and wrote plan.md (the rewind line, the reopens)
/// after: when that write failed (here the agent made plan's lock a directory; a
/// concurrent edit of a reopened goal's status line does it too), the work of `b`
/// was gone and `b` still done, and proven. plan.md is now written first, so a
/// failed write leaves the files as they were.
#[test]
fn a_rewind_whose_plan_write_fails_takes_no_work_away() {
    let t = signed_a_then_b();
    let lock = t.root().join(".git/plan/plan.lock");
    let _ = std::fs::remove_file(&lock);
    std::fs::create_dir_all(lock.join("x")).unwrap();
    let run = t.run(&["rewind", "a", "--yes"]);
    let gone = !t.path("b.txt").exists();
    std::fs::remove_dir_all(&lock).unwrap();
    assert!(
        !(gone && status_of(&t, "b") == "done"),
        "b.txt was rewound away and b still reads done (exit {}):\n{}{}",
        run.code,
        run.stdout,
        run.stderr
    );
    assert_ne!(run.code, 0, "the write cannot have succeeded");
}

/// `plan archive` after both sign-offs puts `b` under `## Archive`; a rewind to
/// `a`'s checkpoint reopened only live goals, so `b.txt` was gone while `b` stayed
/// done, and proven, in the archive. Archived goals are reopened too (in place,
/// where audit names them as unfinished).
#[test]
fn a_rewind_reopens_an_archived_goal_whose_work_it_takes_away() {
    let t = signed_a_then_b();
    t.ok(&["archive"]);
    t.commit_all("archived");
    let run = t.run(&["rewind", "a", "--yes"]);
    let gone = !t.path("b.txt").exists();
    let audit = t.run(&["audit"]);
    assert!(
        !(gone && audit.code == 0),
        "b.txt was rewound away and audit passes:\n{}{}\n{}",
        run.stdout,
        run.stderr,
        audit.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(status_of(&t, "b"), "active");
    assert_eq!(status_of(&t, "a"), "done");
    insta::assert_snapshot!(shown(&t, &audit.code(1)));
}

/// A second plan in the repository (`--file plans/other.md`) whose goal `x` was
/// signed off before `a`'s checkpoint and reopened after it: `plan rewind a` kept
/// plan.md but wrote plans/other.md back as the checkpoint had it, dropping the
/// reopen line (and every line logged since), so `x` read done and proven again.
/// Every plan file now stays as it is.
#[test]
fn a_rewind_does_not_revert_another_plan_file() {
    let t = two_goals();
    fn with<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [&["--file", "plans/other.md"][..], args].concat()
    }
    t.ok(&with(&["init", "Other"]));
    t.ok(&with(&[
        "add",
        "X",
        "--done-when",
        "x.txt exists",
        "--verify",
        "test -f x.txt",
        "--failure-mode",
        "x.txt is empty",
        "--active",
    ]));
    t.write("x.txt", "x\n");
    t.ok(&with(&[
        "complete",
        "x",
        "--evidence",
        "done",
        "--judge",
        "none",
    ]));
    t.write("a.txt", "a\n");
    sign_unjudged(&t, "a");
    t.ok(&with(&["reopen", "x", "--reason", "x regressed"]));
    let before = t.read("plans/other.md");
    t.ok(&["rewind", "a", "--yes"]);
    assert_eq!(
        t.read("plans/other.md"),
        before,
        "the other plan's log lost lines"
    );
    let show = t.ok(&with(&["show", "x", "--json"])).json();
    assert_eq!(show["status"], "active");
}

/// The other way round: `x` of the second plan signed off after `a`'s checkpoint.
/// The rewind took `x.txt` away, but reopened only goals of the plan it was run
/// with, so `x` stayed done and proven in plans/other.md. Checkpoints are one
/// namespace for every plan file: a rewind now reopens, in each other plan file
/// changed since the checkpoint, the goals whose latest sign-off line the
/// checkpoint's copy of that file lacks, each with its log line.
#[test]
fn a_rewind_reopens_goals_of_another_plan_signed_off_after_it() {
    let t = two_goals();
    fn with<'a>(args: &[&'a str]) -> Vec<&'a str> {
        [&["--file", "plans/other.md"][..], args].concat()
    }
    t.ok(&with(&["init", "Other"]));
    t.ok(&with(&[
        "add",
        "X",
        "--done-when",
        "x.txt exists",
        "--verify",
        "test -f x.txt",
        "--failure-mode",
        "x.txt is empty",
        "--active",
    ]));
    t.commit_all("other plan");
    t.write("a.txt", "a\n");
    sign_unjudged(&t, "a");
    t.write("x.txt", "x\n");
    t.ok(&with(&[
        "complete",
        "x",
        "--evidence",
        "done",
        "--judge",
        "none",
    ]));
    t.ok(&["rewind", "a", "--yes"]);
    let gone = !t.path("x.txt").exists();
    let status = t.ok(&with(&["show", "x", "--json"])).json()["status"].clone();
    assert!(
        !(gone && status == "done"),
        "x.txt was rewound away and x still reads done"
    );
    assert!(gone, "a's checkpoint has no x.txt");
    assert_eq!(status, "active");
    assert!(
        t.read("plans/other.md").contains("x reopened: rewind to "),
        "no reopen line in the other plan:\n{}",
        t.read("plans/other.md")
    );
}

/// The same reach, asked first: `--dry-run` names the other plan's goal it would
/// reopen and changes nothing; an other plan file changed since the checkpoint that
/// plan cannot read as a plan refuses the rewind, as what it would reopen there is
/// unknown.
#[test]
fn a_rewind_names_another_plans_reopens_and_refuses_an_unreadable_one() {
    let t = two_goals();
    let with = |args: &[&str]| -> Vec<String> {
        ["--file", "plans/other.md"]
            .iter()
            .chain(args)
            .map(|s| s.to_string())
            .collect()
    };
    let run = |args: Vec<String>| {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        t.ok(&args);
    };
    run(with(&["init", "Other"]));
    run(with(&[
        "add",
        "X",
        "--done-when",
        "x.txt exists",
        "--verify",
        "test -f x.txt",
        "--failure-mode",
        "x.txt is empty",
        "--active",
    ]));
    t.commit_all("other plan");
    t.write("a.txt", "a\n");
    sign_unjudged(&t, "a");
    t.write("x.txt", "x\n");
    run(with(&[
        "complete",
        "x",
        "--evidence",
        "done",
        "--judge",
        "none",
    ]));
    let before = t.read("plans/other.md");
    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--dry-run"])));
    assert_eq!(t.read("plans/other.md"), before);
    assert!(t.path("x.txt").exists());
    t.write("plans/other.md", format!("{before}\n## Log\n"));
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a", "--yes"]).code(2)));
    assert!(t.path("x.txt").exists(), "a refused rewind moved files");
    assert!(
        !t.plan_md().contains("rewind to "),
        "a refused rewind logged"
    );
}

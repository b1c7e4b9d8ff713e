//! Checkpoints and transcripts across clones and worktrees: `plan checkpoints
//! --push/--fetch` through a bare origin, a rewind in the second clone, the message
//! for a checkpoint this clone lacks, a rewind that leaves another branch's goals
//! signed off, and the warnings for transcripts git will not commit.

use crate::setup::status_of;
use crate::util::{Test, redact, shown, shown_with};

/// A repository with two active goals, `a` (verify: a.txt exists) and `b` (b.txt),
/// committed.
fn repo() -> Test {
    let t = Test::new();
    t.write("notes.txt", "first\n");
    t.ok(&["init", "Clones"]);
    for (title, file) in [("A", "a.txt"), ("B", "b.txt")] {
        t.ok(&[
            "add",
            title,
            "--done-when",
            &format!("{file} exists"),
            "--verify",
            &format!("test -f {file}"),
            "--failure-mode",
            &format!("{file} is empty"),
            "--active",
        ]);
    }
    t.commit_all("start");
    t
}

fn sign(t: &Test, id: &str) -> crate::util::Run {
    t.ok(&["complete", id, "--evidence", "done", "--judge", "none"])
}

/// A second clone of `url`, with the same hermetic environment.
fn clone(url: &str) -> Test {
    let t = Test::new();
    std::fs::remove_dir_all(t.path(".git")).unwrap();
    t.git(&["clone", "-q", url, "."]);
    t
}

#[test]
fn checkpoints_pushed_from_one_clone_are_fetched_and_rewound_to_in_another() {
    let t = repo();
    let origin = t.dir.path().join("origin.git");
    let url = format!("file://{}", origin.display());
    t.git(&[
        "init",
        "-q",
        "--bare",
        "-b",
        "main",
        origin.to_str().unwrap(),
    ]);
    t.git(&["remote", "add", "origin", &url]);
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.commit_all("a done");
    t.git(&["push", "-q", "origin", "main"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["checkpoints", "--push"])));
    let there = t.git(&["ls-remote", &url, "refs/plan/*"]);
    insta::assert_snapshot!(redact(&t, &there));

    let other = clone(&url);
    let checkpoint = t.git(&["rev-parse", "refs/plan/checkpoints/a/20260615-1402"]);
    insta::assert_snapshot!(shown_with(
        &other,
        &other.run(&["rewind", "a", "--yes"]).code(2),
        &[(&checkpoint[..12], "[CHECKPOINT a]")]
    ));
    insta::assert_snapshot!(shown(&other, &other.ok(&["checkpoints", "--fetch"])));
    insta::assert_snapshot!(shown(
        &other,
        &other.ok(&["checkpoints", "--fetch", "origin"])
    ));
    other.write("b.txt", "b\n");
    other.write("notes.txt", "later\n");
    insta::assert_snapshot!(shown(&other, &other.ok(&["rewind", "a", "--yes"])));
    assert!(!other.path("b.txt").exists());
    assert_eq!(other.read("notes.txt"), "first\n");
    assert_eq!(other.read("a.txt"), "a\n");
}

#[test]
fn a_push_to_a_remote_that_is_not_there_fails_with_gits_words() {
    let t = repo();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["checkpoints", "--push", "nowhere"]).code(3)
    ));
    t.run(&["checkpoints", "--fetch", "--json"]).code(2);
}

#[test]
fn a_hex_query_for_a_checkpoint_of_another_clone_says_so_too() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    let checkpoint = t.git(&["rev-parse", "refs/plan/checkpoints/a/20260615-1402"]);
    t.git(&["update-ref", "-d", "refs/plan/checkpoints/a/20260615-1402"]);
    insta::assert_snapshot!(shown_with(
        &t,
        &t.run(&["rewind", &checkpoint[..10], "--yes"]).code(2),
        &[(&checkpoint[..12], "[CHECKPOINT a]")]
    ));
}

/// `b` is signed off in a worktree on a branch that forked before the commit `a`
/// was signed off on; its sign-off reaches the main tree's plan.md (as a merge
/// would bring it). Rewinding the main tree to `a` reopened `b`, whose work was
/// never built on `a`.
#[test]
fn a_rewind_leaves_a_goal_signed_off_on_another_branch_signed_off() {
    let t = repo();
    let fork = t.git(&["rev-parse", "HEAD"]);
    t.write("notes.txt", "second\n");
    t.commit_all("more");
    t.write("a.txt", "a\n");
    sign(&t, "a");

    let side = t.dir.path().join("side");
    t.git(&[
        "worktree",
        "add",
        "-q",
        "-b",
        "side",
        side.to_str().unwrap(),
        fork.trim(),
    ]);
    let mut w = Test::new();
    w.cwd = side.clone();
    std::fs::write(side.join("b.txt"), "b\n").unwrap();
    w.ok(&["complete", "b", "--evidence", "done", "--judge", "none"]);
    let side_md = std::fs::read_to_string(side.join("plan.md")).unwrap();
    let b_line = side_md
        .lines()
        .find(|l| l.contains("b signed off"))
        .unwrap()
        .to_string();
    insta::assert_snapshot!(redact(&t, &b_line));
    // What a merge of side brings: b done, its sign-off line after a's.
    let md = t.plan_md();
    let b_at = md.find("## Goal: B").unwrap();
    let merged = format!(
        "{}{}{b_line}\n",
        &md[..b_at],
        md[b_at..].replacen("status: active", "status: done", 1)
    );
    t.write("plan.md", merged);
    assert_eq!(status_of(&t, "b"), "done");

    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--dry-run"])));
    let run = t.ok(&["rewind", "a", "--yes"]);
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(status_of(&t, "b"), "done");
    assert!(!t.plan_md().contains("b reopened"), "{}", t.plan_md());
}

#[test]
fn a_transcript_git_ignores_is_warned_about_at_sign_off_and_by_lint() {
    let t = repo();
    t.write(".gitignore", ".plan/\n");
    t.commit_all("ignore .plan");
    t.write("a.txt", "a\n");
    insta::assert_snapshot!(shown(&t, &sign(&t, "a")));
    insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));

    // Another clone gets plan.md and no transcript: git never had it.
    t.commit_all("a done");
    let other = clone(t.root().to_str().unwrap());
    let run = other.run(&["lint"]).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert!(
        !run.stdout.contains("restore it from git"),
        "{}",
        run.stdout
    );
}

#[test]
fn lint_names_a_transcript_left_uncommitted_until_it_is_committed() {
    let t = repo();
    t.write("a.txt", "a\n");
    // With staging off, as before `sign_off.stage`:
    t.write(".plan/config.yaml", "sign_off:\n  stage: off\n");
    let run = sign(&t, "a");
    insta::assert_snapshot!(redact(&t, &run.stderr));
    // `git commit -am` takes plan.md and leaves the new transcript behind.
    t.git(&["commit", "-q", "-am", "a done"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
    t.commit_all("the transcript");
    let run = t.ok(&["lint"]);
    insta::assert_snapshot!(shown(&t, &run));
}

/// Issue 35: a fetch git partly rejected (a checkpoint of the same name here and
/// there, another sign-off's) said "git said nothing": `--quiet` silenced the
/// `! [rejected]` line too. The refused ref is named in git's words.
#[test]
fn a_partly_rejected_fetch_names_the_refused_checkpoint() {
    let t = Test::new();
    t.git(&["commit", "-q", "--allow-empty", "-m", "one"]);
    let bare = t.dir.path().join("origin.git");
    t.git(&["init", "-q", "--bare", bare.to_str().unwrap()]);
    t.git(&["remote", "add", "origin", bare.to_str().unwrap()]);
    t.git(&["update-ref", "refs/plan/checkpoints/a/x", "HEAD"]);
    t.git(&["update-ref", "refs/plan/checkpoints/a/y", "HEAD"]);
    t.ok(&["checkpoints", "--push"]);
    t.git(&["update-ref", "-d", "refs/plan/checkpoints/a/y"]);
    t.git(&["commit", "-q", "--allow-empty", "-m", "two"]);
    t.git(&["update-ref", "refs/plan/checkpoints/a/x", "HEAD"]);
    let run = t.run(&["checkpoints", "--fetch"]).code(3);
    assert!(
        run.stderr.starts_with(
            "plan: git fetch origin refs/plan/checkpoints/*:refs/plan/checkpoints/* failed: ! [rejected]"
        ) && run
            .stderr
            .contains("refs/plan/checkpoints/a/x -> refs/plan/checkpoints/a/x  (non-fast-forward)"),
        "{}",
        run.stderr
    );
    // The rest was fetched.
    t.git(&["rev-parse", "--verify", "refs/plan/checkpoints/a/y"]);
}

// Attack (a team's): a checkpoint ref deleted on the remote (a force-push, a
// cleanup) made every later pull request fail with "`git fetch origin` brings
// it", which it cannot. Named as gone from the remote, with what to do.
#[test]
fn a_checkpoint_gone_from_the_remote_is_named_as_gone() {
    let t = repo();
    let origin = t.dir.path().join("origin.git");
    let url = format!("file://{}", origin.display());
    t.git(&[
        "init",
        "-q",
        "--bare",
        "-b",
        "main",
        origin.to_str().unwrap(),
    ]);
    t.git(&["remote", "add", "origin", &url]);
    t.ok(&["install", "git"]);
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("b.txt", "b\n");
    sign(&t, "b");
    t.commit_all("a and b done");
    t.git(&["push", "-q", "origin", "main"]);
    t.ok(&["checkpoints", "--push"]);
    let gone = t.git(&["ls-remote", &url, "refs/plan/checkpoints/a/*"]);
    let gone = gone.split_whitespace().nth(1).unwrap().to_string();
    t.git(&["push", "-q", "origin", &format!(":{gone}")]);
    let other = clone(&url);
    other.ok(&["install", "git"]);
    other.git(&["fetch", "-q", "origin"]);
    other.git(&["checkout", "-q", "-b", "pr"]);
    other.write("c.txt", "c\n");
    other.commit_all("unrelated");
    let run = other.run(&["audit", "--base", "origin/main", "--strict"]);
    insta::assert_snapshot!(shown(&other, &run));
    let run = other.run(&["lint"]);
    insta::assert_snapshot!(shown(&other, &run));
}

/// Attack (issue 70, item 5): a forced fetch of the checkpoints
/// (`+refs/plan/checkpoints/*:…`) moved this clone's ref for a's sign-off to the
/// commit another clone took for its own sign-off of a in the same minute. `plan
/// checkpoints` listed that commit, not the one a's sign-off line names, and audit
/// and doctor judged a by it. Failed before. Now each uses the commit the line
/// names (still in this clone) and names the ref that moved.
#[test]
fn after_a_forced_fetch_the_commit_the_sign_off_names_is_used_and_named() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.commit_all("a done");
    let reference = "refs/plan/checkpoints/a/20260615-1402";
    let named = t.git(&["rev-parse", reference]).trim().to_string();
    // Another clone signs a off again in the same minute: its own checkpoint.
    let other = clone(t.root().to_str().unwrap());
    other.write("a.txt", "theirs\n");
    other.ok(&["reopen", "a", "--reason", "again"]);
    sign(&other, "a");
    let theirs = other.git(&["rev-parse", reference]).trim().to_string();
    assert_ne!(named, theirs);
    let from = other.root();
    t.git(&[
        "fetch",
        "-q",
        from.to_str().unwrap(),
        "+refs/plan/checkpoints/*:refs/plan/checkpoints/*",
    ]);
    assert_eq!(
        t.git(&["rev-parse", reference]).trim(),
        theirs,
        "the ref moved"
    );

    let listed = t.ok(&["checkpoints", "--json"]).json();
    let a = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["goal"] == "a")
        .unwrap()
        .clone();
    assert_eq!(a["commit"], named.as_str(), "{listed:#}");
    assert_eq!(a["ref_commit"], theirs.as_str(), "{listed:#}");
    let text = t.ok(&["checkpoints"]).stdout;
    assert!(text.contains(&named[..12]), "{text}");
    assert!(
        text.contains(&format!("{reference} now points at {}", &theirs[..12])),
        "{text}"
    );
    for args in [&["audit"][..], &["doctor"]] {
        let run = t.run(args);
        let said = format!("{}{}", run.stdout, run.stderr);
        assert!(said.contains(&named[..12]), "plan {args:?}: {said}");
        assert!(
            said.contains(&format!("{reference} now points at {}", &theirs[..12])),
            "plan {args:?}: {said}"
        );
    }
    let doctor = t.run(&["doctor"]).stdout;
    assert!(
        doctor.contains(&format!("`git update-ref {reference} {}`", &named[..12])),
        "{doctor}"
    );
    let audit = t.run(&["audit", "--json"]).json();
    assert_eq!(audit["goals"][0]["id"], "a", "{audit:#}");
    assert_eq!(audit["goals"][0]["proof"]["state"], "proven", "{audit:#}");
    // A rewind goes back to a's own checkpoint too, not to the other clone's.
    t.write("a.txt", "later\n");
    t.ok(&["rewind", "a", "--yes"]);
    assert_eq!(t.read("a.txt"), "a\n");
}

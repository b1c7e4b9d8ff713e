//! `plan sync` racing the world (issue 70, item 1): an editor saving plan.md in
//! place while the merge runs, plan killed at any point of the merge, and another
//! git holding the index. The merge is built away from the working tree and lands
//! whole or not at all; whatever it refuses, it says why and exits as an error,
//! never as "a merge for a person".

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use crate::util::{BIN, Test};

const PLAN: &str = "# Plan: Sync

## Goal: Build
<!-- id: build -->
status: open
done_when: the build passes
verify: test -f build.txt
failure_modes:
- verify passes on a stale build
- [ ] compile

## Log
";

/// A branch `pr` checked out, and `main` moved since it forked: each logged a line,
/// so git's own merge conflicts in plan.md alone and plan's driver merges it. The
/// two heads.
fn diverged() -> (Test, String, String) {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["log", "pr: a note"]);
    t.commit_all("pr");
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["log", "main: a note"]);
    t.commit_all("main");
    t.git(&["checkout", "-q", "pr"]);
    let pr = t.git(&["rev-parse", "pr"]).trim().to_string();
    let main = t.git(&["rev-parse", "main"]).trim().to_string();
    (t, pr, main)
}

fn real_git() -> String {
    let out = Command::new("sh")
        .args(["-c", "command -v git"])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap().trim().to_string()
}

/// The repository is as git leaves it after a whole command: no merge under way,
/// index and tracked files as HEAD has them.
#[track_caller]
fn settled(t: &Test) {
    assert!(
        !t.root().join(".git/MERGE_HEAD").exists(),
        "a merge is left under way"
    );
    let dirty = t.git(&["status", "--porcelain", "--untracked-files=no"]);
    assert_eq!(dirty, "", "a half-merge is left in the tree or index");
}

/// Whether HEAD is `pr` untouched, or the merge of `main` into it with both notes.
fn merged_or_untouched(t: &Test, pr: &str, main: &str) -> bool {
    let head = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    if head == pr {
        return false;
    }
    let parents = t.git(&["rev-list", "--parents", "-n", "1", "HEAD"]);
    assert_eq!(
        parents.split_whitespace().skip(1).collect::<Vec<_>>(),
        vec![pr, main],
        "HEAD is neither pr nor its merge with main"
    );
    let md = t.git(&["show", "HEAD:plan.md"]);
    assert!(
        md.contains("pr: a note") && md.contains("main: a note") && !md.contains("<<<<<<<"),
        "{md}"
    );
    true
}

/// Attack: an editor saves plan.md in place while `git merge` runs (here: the
/// moment git asks plan's driver to merge it). git then wrote its merge over the
/// file, and the save was gone from the tree for good. Now the merge is built
/// away from the tree, and plan sees plan.md is not the file it read: it refuses,
/// names the file, moves nothing, and the save is there, whole.
#[test]
fn an_editors_save_during_the_merge_is_kept_and_the_sync_refused() {
    let (t, pr, _) = diverged();
    let typed = "- 2026-06-15 14:30 typed while plan sync merged\n";
    let plan_md = t.path("plan.md");
    let driver = t.fake_program(
        "plan-driver",
        &format!(
            "printf '%s' '{typed}' >> '{}'\nexec '{BIN}' \"$@\"\n",
            plan_md.display()
        ),
    );
    let before = t.plan_md();
    let run = t
        .run(&[
            "sync",
            "--base",
            "main",
            "--command",
            driver.to_str().unwrap(),
        ])
        .code(2)
        .stderr_has("plan.md changed while plan sync merged");
    assert!(!run.stderr.contains("resolve"), "{}", run.stderr);
    assert_eq!(t.plan_md(), format!("{before}{typed}"), "the save is whole");
    assert_eq!(t.git(&["rev-parse", "HEAD"]).trim(), pr, "nothing merged");
    assert!(!t.root().join(".git/MERGE_HEAD").exists());
    assert_eq!(
        t.git(&["status", "--porcelain", "--untracked-files=no"]),
        " M plan.md\n",
        "the index is HEAD's; the save is the one change"
    );
}

/// A git on PATH that counts its calls and, at call `at`, SIGKILLs its parent
/// (plan; never the test) before or after running the real git, then marks the
/// call done: git's
/// work goes on (or has ended) without plan, as when plan is killed mid-merge.
fn killing_git(t: &Test) -> PathBuf {
    let state = t.dir.path().join("kill");
    std::fs::create_dir_all(&state).unwrap();
    t.fake_program(
        "git",
        &format!(
            "s='{state}'\nn=$(($(cat \"$s/count\" 2>/dev/null || echo 0) + 1))\necho $n > \"$s/count\"\nat=$(cat \"$s/at\")\n[ \"$(cat /proc/$PPID/comm)\" = plan ] || at=0\nwhen=$(cat \"$s/when\")\n[ $n = $at ] && [ $when = before ] && kill -9 $PPID\n'{git}' \"$@\"\nrc=$?\n[ $n = $at ] && [ $when = after ] && kill -9 $PPID\n[ $n = $at ] && touch \"$s/done\"\nexit $rc\n",
            state = state.display(),
            git = real_git()
        ),
    );
    state
}

fn wait_for(path: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while !path.exists() {
        assert!(Instant::now() < deadline, "{} never came", path.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// Attack: plan sync SIGKILLed mid-merge left a half-merge (the merged plan.md in
/// the tree, the index not updated, no MERGE_HEAD), and the next sync refused
/// ("uncommitted changes"). Killed before or after each git command it runs, it
/// now leaves the branch merged or untouched, and the next sync finishes the job.
#[test]
fn plan_sync_killed_at_any_point_leaves_the_branch_merged_or_untouched() {
    let (t, pr, main) = diverged();
    let state = killing_git(&t);
    let t = t.with_bin();
    let mut kills = 0;
    for when in ["before", "after"] {
        for at in 1.. {
            t.git(&["reset", "-q", "--hard", &pr]);
            let _ = std::fs::remove_file(t.root().join(".git/ORIG_HEAD"));
            let _ = std::fs::remove_file(state.join("done"));
            std::fs::write(state.join("count"), "0").unwrap();
            std::fs::write(state.join("at"), at.to_string()).unwrap();
            std::fs::write(state.join("when"), when).unwrap();
            let run = t.run(&["sync", "--base", "main"]);
            if run.code == 0 {
                break;
            }
            assert_eq!(run.code, -1, "killed at call {at} {when}: {}", run.stderr);
            kills += 1;
            wait_for(&state.join("done"));
            std::fs::write(state.join("at"), "0").unwrap();
            settled(&t);
            let merged = merged_or_untouched(&t, &pr, &main);
            let again = t.run(&["sync", "--base", "main"]).code(0);
            if merged {
                assert!(
                    again.stdout.contains("already has main"),
                    "{}",
                    again.stdout
                );
            }
            settled(&t);
            assert!(merged_or_untouched(&t, &pr, &main), "the next sync merged");
        }
    }
    assert!(kills >= 8, "only {kills} kills");
}

/// Attack: two syncs at once; the loser's `git merge` could not take the index
/// ("fatal: Unable to write index"), and plan said "plan's driver left a conflict
/// … resolve , commit and push" with exit 1, a merge for a person. Now it says
/// another git holds the index, names it and plan.md, and exits 3; once the other
/// is done, the sync merges.
#[test]
fn a_sync_that_loses_the_index_to_another_git_says_so_and_exits_as_an_error() {
    let (t, pr, main) = diverged();
    let lock = t.root().join(".git/index.lock");
    std::fs::write(&lock, "").unwrap();
    let run = t
        .run(&["sync", "--base", "main"])
        .code(3)
        .stderr_has("index.lock")
        .stderr_has("plan.md");
    assert!(!run.stderr.contains("resolve ,"), "{}", run.stderr);
    assert!(!run.stderr.contains("conflict"), "{}", run.stderr);
    assert_eq!(t.git(&["rev-parse", "HEAD"]).trim(), pr, "nothing merged");
    std::fs::remove_file(&lock).unwrap();
    settled(&t);
    t.ok(&["sync", "--base", "main"]);
    settled(&t);
    assert!(merged_or_untouched(&t, &pr, &main));
}

/// A conflict plan's driver cannot merge (both sides changed one goal's status)
/// is still a merge for a person (exit 1), with the files named, and now leaves
/// the tree as it was: nothing to abort.
#[test]
fn a_conflict_for_a_person_names_plan_md_and_leaves_the_tree_as_it_was() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: cancelled"),
    );
    t.commit_all("pr");
    t.git(&["checkout", "-q", "main"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: active"),
    );
    t.commit_all("main");
    t.git(&["checkout", "-q", "pr"]);
    let pr = t.git(&["rev-parse", "HEAD"]);
    let run = t.run(&["sync", "--base", "main"]).code(1);
    assert!(
        run.stdout.contains("need a person") && run.stdout.contains("resolve plan.md, commit"),
        "{}",
        run.stdout
    );
    assert_eq!(t.git(&["rev-parse", "HEAD"]), pr);
    settled(&t);
    assert!(t.plan_md().contains("status: cancelled"));
}

/// Two syncs at once, the other one winning: while this one's merge is built (the
/// moment git asks plan's driver), a commit lands on the branch. Moving the branch
/// from the commit it read would drop that commit; the sync merges nothing, says
/// the branch moved, and exits 3, not 1. A rerun merges what the branch has now.
#[test]
fn a_sync_whose_branch_moved_meanwhile_merges_nothing_and_says_so() {
    let (t, _, main) = diverged();
    let root = t.root();
    let driver = t.fake_program(
        "plan-driver",
        &format!(
            "git -C '{}' commit -q --allow-empty -m 'the other sync won'\nexec '{BIN}' \"$@\"\n",
            root.display()
        ),
    );
    let run = t
        .run(&[
            "sync",
            "--base",
            "main",
            "--command",
            driver.to_str().unwrap(),
        ])
        .code(3)
        .stderr_has("the branch moved while plan sync merged");
    assert!(!run.stderr.contains("resolve"), "{}", run.stderr);
    assert_eq!(
        t.git(&["log", "-1", "--format=%s"]).trim(),
        "the other sync won",
        "the commit that landed meanwhile is kept"
    );
    settled(&t);
    let won = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.ok(&["sync", "--base", "main"]);
    settled(&t);
    let parents = t.git(&["rev-list", "--parents", "-n", "1", "HEAD"]);
    assert_eq!(
        parents.split_whitespace().skip(1).collect::<Vec<_>>(),
        vec![won.as_str(), main.as_str()]
    );
}

/// SIGTERM while the merge lands (the `git merge` that moves branch, index and
/// tree): plan ended that git half-way and exited 143. Now the landing is let
/// finish and plan exits 0, saying so (or, should it finish first, saying it
/// merged): the branch is merged whole.
#[test]
fn a_signal_while_the_merge_lands_lets_it_finish_and_says_so() {
    let (t, pr, main) = diverged();
    t.fake_program(
        "git",
        &format!(
            "case \" $* \" in *' merge '*) kill -TERM $PPID ;; esac\nexec '{}' \"$@\"\n",
            real_git()
        ),
    );
    let t = t.with_bin();
    let run = t.run(&["sync", "--base", "main"]).code(0);
    assert!(
        run.stderr
            .contains("SIGTERM came once plan sync's merge of main was under way")
            || run.stdout.contains("merged main into this branch"),
        "{}{}",
        run.stdout,
        run.stderr
    );
    settled(&t);
    assert!(merged_or_untouched(&t, &pr, &main), "{}", run.stderr);
}

/// The soak of issue 70: a sync refused for a side git took cut mid-save said
/// "plan's driver left a conflict (both sides changed one part of one goal)", a
/// cause the driver never gave. Now the driver's own reason is the message.
#[test]
fn a_conflict_the_driver_leaves_for_a_cut_side_is_said_as_the_driver_says_it() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: cancelled"),
    );
    t.commit_all("pr");
    t.git(&["checkout", "-q", "main"]);
    let md = t.plan_md();
    let cut = &md[..md.find("status: open").unwrap() + "status: op".len()];
    t.write("plan.md", cut);
    t.commit_all("an editor's save, taken mid-way");
    t.git(&["checkout", "-q", "pr"]);
    let run = t.run(&["sync", "--base", "main"]).code(1);
    assert!(
        run.stdout.contains("a cut file") && !run.stdout.contains("both sides changed"),
        "{}",
        run.stdout
    );
}

//! Temp files and creation: plan's temp files live in the git directory, where
//! `git status` and `git add -A` never see them, stale ones of killed writers go
//! away, and `plan init` makes plan.md whole or not at all.

use std::time::Duration;

use crate::util::{Test, shown};

const PLAN: &str = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n";

/// Files in the working tree (git's view) that are not plan.md.
fn strays(t: &Test) -> Vec<String> {
    t.git(&["status", "--porcelain", "--untracked-files=all"])
        .lines()
        .filter(|l| !l.ends_with("plan.md"))
        .map(str::to_string)
        .collect()
}

/// Attack: `plan log` killed with SIGKILL at random moments of its write left
/// `.plan-XXXX.tmp` files beside plan.md (20 of 100 in the reliability pass),
/// which `git status` shows and `git add -A` commits. Failed before. Now no temp
/// file is ever in the working tree, and the next write removes the stale ones.
#[test]
fn writers_killed_mid_write_leave_no_temp_file_in_the_working_tree() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    for i in 0..30u64 {
        let mut child = t
            .cmd(&["log", &format!("entry {i}")])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(i % 15));
        let _ = child.kill();
        let _ = child.wait();
    }
    assert_eq!(strays(&t), Vec::<String>::new());
    t.ok(&["log", "last"]);
    let temps = t.root().join(".git/plan/tmp");
    let left: Vec<_> = std::fs::read_dir(&temps)
        .map(|d| d.flatten().map(|e| e.file_name()).collect())
        .unwrap_or_default();
    assert!(left.is_empty(), "stale temp files kept: {left:?}");
    assert!(t.plan_md().ends_with("last\n"));
}

/// A temp file of a writer that no longer runs is removed by the next write; one
/// whose process still runs (this test's own) is left alone.
#[test]
fn a_stale_temp_file_of_a_dead_writer_is_removed_by_the_next_write() {
    let t = Test::new().plan(PLAN);
    let temps = t.root().join(".git/plan/tmp");
    std::fs::create_dir_all(&temps).unwrap();
    // A pid above the kernel's maximum runs nowhere.
    let dead = temps.join(".plan-99999999-abcdef.tmp");
    let live = temps.join(format!(".plan-{}-abcdef.tmp", std::process::id()));
    std::fs::write(&dead, "half").unwrap();
    std::fs::write(&live, "half").unwrap();
    t.ok(&["log", "x"]);
    assert!(!dead.exists());
    assert!(live.exists());
}

/// Attack: `plan init` created plan.md empty and then wrote it; killed between the
/// two it left an empty plan.md, which `plan init` refused ("already exists") and
/// `plan add` waited 2 s on, then exited 3. Failed before. `plan init` now fills an
/// empty plan.md, as a user who ran `touch plan.md` first would expect.
#[test]
fn init_fills_an_empty_plan_md() {
    let t = Test::new().plan("");
    insta::assert_snapshot!(shown(&t, &t.ok(&["init", "Ship it"])));
    assert_eq!(
        t.plan_md(),
        "# Plan: Ship it\n\n## Log\n- 2026-06-15 14:02 plan created\n"
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["init", "again"]).code(2)));
}

/// `plan init` killed at random moments never leaves an empty or cut plan.md: the
/// file appears whole through a rename, or not at all.
#[test]
fn init_killed_at_any_moment_leaves_no_partial_plan_md() {
    let t = Test::new();
    for i in 0..20u64 {
        let _ = std::fs::remove_file(t.path("plan.md"));
        let mut child = t
            .cmd(&["init", "Ship it"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(Duration::from_millis(i % 10));
        let _ = child.kill();
        let _ = child.wait();
        if let Ok(md) = std::fs::read_to_string(t.path("plan.md")) {
            assert!(md.ends_with("plan created\n"), "try {i}: {md:?}");
        }
    }
    assert_eq!(strays(&t), Vec::<String>::new());
}

/// Attack: an agent empties a committed plan.md and runs `plan init`, which now
/// fills an empty file: a fresh plan, every goal and log line gone. The removal is
/// caught by audit (the log is append-only against git), not by the hooks, which
/// see only the new file.
#[test]
fn init_over_an_emptied_committed_plan_is_caught_by_audit() {
    let t = Test::new();
    t.ok(&["init", "Ship it"]);
    t.ok(&["add", "Hard thing", "--done-when", "it works"]);
    t.ok(&["start", "hard-thing"]);
    t.commit_all("the plan");
    std::fs::write(t.path("plan.md"), "").unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    t.ok(&["init", "Fresh start"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// Attack: an editor that truncates plan.md and pauses over a second before
/// writing (a stalled network file system) holds the old file open; `plan init`
/// takes the empty, quiet file as one to fill and renames its plan over it, so the
/// editor's bytes go to the replaced file and are lost. The same pause defeats the
/// write path's watch of the replaced file (it watches only a file written under a
/// second ago). The half-save rules do not reach it: they need bytes to judge (a
/// line left open, a `## Log` or goals lost against a version plan knows), and an
/// empty file plan knows nothing of is what `touch plan.md` leaves too, which
/// `plan init` must fill. Only the editor's open handle tells them apart, and plan
/// cannot see another program's handles portably (no /proc on macOS, none at all
/// for a writer on another NFS client). Still fails when run.
#[test]
#[ignore = "stated limit (docs/src/writes.md): an empty, quiet plan.md is a `touch plan.md` as much as an editor's truncate paused over 1 s; no rule on the file tells them apart (the half-save rules need bytes and a known version), only the editor's open handle, which plan cannot see portably; so plan init fills it and a save written afterwards goes to the replaced file"]
fn init_does_not_lose_a_save_that_resumes_after_it_fills_the_file() {
    use std::io::Write as _;
    let t = Test::new().plan("");
    let mut editor = std::fs::OpenOptions::new()
        .write(true)
        .open(t.path("plan.md"))
        .unwrap();
    std::thread::sleep(Duration::from_millis(1100));
    t.ok(&["init", "Ship it"]);
    editor
        .write_all(b"# Plan: The person's plan\n\n## Log\n")
        .unwrap();
    drop(editor);
    let md = t.plan_md();
    assert!(md.contains("The person's plan"), "{md}");
}

/// Attack: `.git/plan/tmp` a symlink to a directory on another file system (a
/// tmpfs): plan checked that the git directory shares plan.md's file system, not
/// the temp directory itself, so the rename crossed file systems and every write
/// failed (`Invalid cross-device link`). The temp file now goes beside plan.md
/// when the temp directory is elsewhere.
#[test]
fn a_temp_directory_linked_to_another_file_system_does_not_stop_a_write() {
    use std::os::unix::fs::MetadataExt;
    let Ok(other) = tempfile::tempdir_in("/dev/shm") else {
        return;
    };
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    let dev = |p: &std::path::Path| std::fs::metadata(p).unwrap().dev();
    if dev(other.path()) == dev(&t.path(".git")) {
        return;
    }
    let temps = t.path(".git/plan/tmp");
    let _ = std::fs::remove_dir_all(&temps);
    std::fs::create_dir_all(temps.parent().unwrap()).unwrap();
    std::os::unix::fs::symlink(other.path(), &temps).unwrap();
    t.ok(&["log", "still written"]);
    assert!(t.plan_md().contains("still written"), "{}", t.plan_md());
    assert_eq!(strays(&t), Vec::<String>::new());
}

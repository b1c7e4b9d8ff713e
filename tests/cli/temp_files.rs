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

const SIGNING: &str = "# Plan: Sign-off

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [x] write it

## Log
- 2026-06-15 14:00 ship started (contract CONTRACT)
";

/// `ship` started under its contract, judged by the fixture `judge`, each judge
/// call logged to `calls.log` in the test's directory.
fn signing_off(judge: &str) -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", SIGNING.replace(" (contract CONTRACT)", ""));
    let fp = t.ok(&["show", "--json"]).json()["goals"][0]["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write("plan.md", SIGNING.replace("CONTRACT", &fp));
    t.judge_with(judge, 60);
    t.commit_all("start");
    let calls = t.dir.path().join("calls.log");
    t.env("PLAN_FIXTURE_LOG", calls.to_str().unwrap())
}

const COMPLETE: [&str; 6] = [
    "complete",
    "ship",
    "--evidence",
    "README.md is written",
    "--path",
    "README.md",
];

/// What plan made in the test's temporary directory (its TMPDIR) and left there.
fn temp_dirs(t: &Test) -> Vec<String> {
    let judges = t.dir.path().join("home/.cache/plan/judges");
    [t.dir.path(), judges.as_path()]
        .iter()
        .filter_map(|dir| std::fs::read_dir(dir).ok())
        .flat_map(|entries| entries.flatten())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("plan-") || n.starts_with(".tmp"))
        .collect()
}

/// Processes working anywhere in the test's directory (a judge in its copy of the
/// tree, its children); plan itself has ended.
fn running_in(t: &Test) -> Vec<String> {
    let here = t.dir.path().to_string_lossy().into_owned();
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().parse::<u32>().is_ok())
        .filter_map(|e| {
            let cwd = std::fs::read_link(e.path().join("cwd")).ok()?;
            let state = std::fs::read_to_string(e.path().join("stat")).ok()?;
            let zombie = state.rsplit_once(") ")?.1.starts_with('Z');
            (cwd.to_string_lossy().starts_with(&here) && !zombie).then(|| {
                let cmd = std::fs::read(e.path().join("cmdline")).unwrap_or_default();
                String::from_utf8_lossy(&cmd).replace('\0', " ")
            })
        })
        .collect()
}

fn wait_for(path: &std::path::Path) {
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !path.exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "{} never came",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn send(signal: &str, pid: u32) {
    let sent = std::process::Command::new("kill")
        .args(["-s", signal, &pid.to_string()])
        .status()
        .unwrap();
    assert!(sent.success());
}

/// Attack: Ctrl-C, SIGTERM or SIGHUP while the judge of `plan complete` runs left
/// the judge's whole copy of the tree (`plan-judge-*`) and its answer directory
/// (`.tmp*`) behind in 37 of 38 rounds: the signal thread called
/// `std::process::exit`, which skips the destructors. Now the judge ends, every
/// temporary directory goes, nothing is written and plan exits 128 + the signal.
#[test]
fn a_signal_during_plan_complete_leaves_no_temp_dir_no_judge_and_no_record() {
    for (signal, code) in [("TERM", 143), ("INT", 130), ("HUP", 129)] {
        let t = signing_off("hang");
        let before = t.plan_md();
        let child = t
            .cmd(&COMPLETE)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        wait_for(&t.dir.path().join("calls.log"));
        send(signal, child.id());
        let out = child.wait_with_output().unwrap();
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(code), "SIG{signal}: {said}");
        assert!(said.contains(&format!("stopped by SIG{signal}")), "{said}");
        assert_eq!(temp_dirs(&t), Vec::<String>::new(), "SIG{signal}");
        assert_eq!(running_in(&t), Vec::<String>::new(), "SIG{signal}");
        assert_eq!(t.plan_md(), before, "SIG{signal}");
        assert!(!t.path(".plan/judge").exists(), "a record was kept");
    }
}

/// Attack: a signal that came while the sign-off was being written exited 143
/// with the record kept and staged, the goal not signed off. Now the write under
/// way finishes, plan says so and exits as the sign-off does: here the signal
/// comes while the write waits at the store's test seam, its record already kept.
#[test]
fn a_signal_during_the_sign_offs_write_lets_it_finish_and_says_so() {
    let t = signing_off("accept");
    let (child, gate) = t.spawn_paused(t.cmd(&COMPLETE));
    send("TERM", child.id());
    // Time for the signal to be handled while the write waits; should plan finish
    // first on a loaded machine, its own words say the sign-off is done instead.
    std::thread::sleep(Duration::from_millis(200));
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    let printed = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{said}");
    assert!(
        said.contains("SIGTERM came once the sign-off of goal ship") || printed.contains("ship"),
        "{printed}{said}"
    );
    let md = t.plan_md();
    assert!(
        md.contains("status: done") && md.contains("ship signed off"),
        "{md}"
    );
    t.ok(&["lint"]);
    assert_eq!(temp_dirs(&t), Vec::<String>::new());
}

/// Under SIGKILL plan can clean nothing: its judge went on in the copy of the tree
/// (12 of 14 rounds), and the copy stayed. The next plan command ends the judge
/// and removes the copy: no live plan holds its lock.
#[test]
fn what_a_killed_plan_complete_left_is_removed_by_the_next_command() {
    let t = signing_off("hang");
    let mut child = t
        .cmd(&COMPLETE)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    wait_for(&t.dir.path().join("calls.log"));
    child.kill().unwrap();
    child.wait().unwrap();
    assert_ne!(temp_dirs(&t), Vec::<String>::new(), "the kill left nothing");
    t.ok(&["lint"]);
    assert_eq!(temp_dirs(&t), Vec::<String>::new());
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while !running_in(&t).is_empty() && std::time::Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    assert_eq!(running_in(&t), Vec::<String>::new());
}

/// Issue 70, what its fix left: the gate's own directories (`plan-verify-*`, where
/// the pull request's verify runs, and `plan-judged-*`) were plain temporary
/// directories, left behind by a signal. A SIGTERM while the gate's verify runs
/// leaves none.
#[test]
fn a_signal_during_the_gates_verify_leaves_no_temp_dir() {
    let (t, base) = crate::gate::signed_pull_request("sleep 3", &[], &["--no-verify"], |t| {
        t.write("done.txt", "done\n")
    });
    let results = t.dir.path().join("results.json");
    let child = t
        .cmd(&[
            "audit",
            "--base",
            &base,
            "--verify-only",
            "--results",
            results.to_str().unwrap(),
        ])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    while !temp_dirs(&t).iter().any(|d| d.starts_with("plan-verify-")) {
        assert!(
            std::time::Instant::now() < deadline,
            "no plan-verify- dir came"
        );
        std::thread::sleep(Duration::from_millis(10));
    }
    send("TERM", child.id());
    let out = child.wait_with_output().unwrap();
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(143), "{said}");
    assert_eq!(temp_dirs(&t), Vec::<String>::new());
}

// Red team (d470601): the sweep takes any unlocked directory whose name starts with
// one of plan's prefixes for one plan left, though plan's own are the prefix and
// six random characters. A person's (or another tool's) `plan-verify-notes` in the
// temporary directory was removed, with what is in it, by the next plan command;
// the sweep now takes only a prefix and six letters or digits.
#[test]
fn the_sweep_leaves_a_directory_plan_did_not_name() {
    let t = Test::new().plan("# Plan: p\n\n## Log\n");
    let mine = t.dir.path().join("plan-verify-notes");
    std::fs::create_dir_all(&mine).unwrap();
    std::fs::write(mine.join("keep.txt"), "a person's notes\n").unwrap();
    t.run(&["doctor"]);
    assert!(mine.join("keep.txt").exists(), "{:?}", temp_dirs(&t));
}

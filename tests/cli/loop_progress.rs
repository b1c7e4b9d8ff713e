//! The work loop's stall limit counts only stops after which nothing the agent could
//! have done changed: the working tree's tracked and untracked (not ignored) files,
//! HEAD and plan.md. Work that leaves plan.md alone is progress; an idle agent still
//! stalls.

use crate::util::{Run, Test, redact, shown};

const PLAN: &str = "# Plan: Loop

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
- [ ] write it

## Log
";

/// A committed plan with one active goal, `build/` ignored, and a loop started
/// with `budget` continuations and `loop.stall_limit` set to `stall_limit`.
fn looping(budget: u32, stall_limit: u32) -> Test {
    let t = Test::new().plan(PLAN);
    t.write(".gitignore", "build/\n");
    t.write(
        ".plan/config.yaml",
        format!("loop:\n  stall_limit: {stall_limit}\n"),
    );
    t.write("src/work.rs", "// nothing yet\n");
    t.commit_all("start");
    t.ok(&["goal", "--budget", &budget.to_string()]);
    t
}

fn decision(run: &Run) -> Option<String> {
    run.answer()["decision"].as_str().map(str::to_string)
}

fn message(run: &Run) -> String {
    run.answer()["systemMessage"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// The issue's case: a work file edited and staged before each of 7 stops, plan.md
/// untouched, was let go after 5 as "stalled". Now only the budget ends it.
#[test]
fn staged_work_without_plan_md_changes_never_stalls() {
    let t = looping(8, 5);
    for i in 1..=8 {
        t.write("src/work.rs", format!("// step {i}\n"));
        t.git(&["add", "src/work.rs"]);
        let run = t.stop_hook("s1");
        assert_eq!(
            decision(&run).as_deref(),
            Some("block"),
            "stop {i}: {}",
            run.stdout
        );
    }
    t.write("src/work.rs", "// step 9\n");
    let last = t.stop_hook("s1");
    assert_eq!(decision(&last), None);
    assert_eq!(
        message(&last),
        "plan: work loop stopped: its budget of 8 continuations is spent (`plan goal` starts a new one)"
    );
}

/// Work done through the shell, which no tool hook names: a new untracked file, or
/// one appended to, is progress; a file under an ignored directory is not.
#[test]
fn untracked_files_written_through_the_shell_count_and_ignored_ones_do_not() {
    let t = looping(20, 2);
    for i in 1..=4 {
        t.write(&format!("notes/n{i}.txt"), "new\n");
        assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    }
    for i in 1..=3 {
        std::fs::write(t.path("notes/n1.txt"), format!("more {i}\n")).unwrap();
        assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    }
    t.write("build/out1.txt", "built\n");
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    t.write("build/out2.txt", "built again\n");
    let run = t.stop_hook("s1");
    assert_eq!(decision(&run), None, "{}", run.stdout);
    assert_eq!(
        message(&run),
        "plan: work loop stopped: stalled: 2 continuations in a row without a change to the work (files, HEAD or plan.md) (`plan goal` starts a new loop)"
    );
}

/// An agent that does nothing between stops is still let go after
/// `loop.stall_limit` continuations, whatever plan itself writes meanwhile.
#[test]
fn idle_stops_still_stall_at_the_limit() {
    let t = looping(20, 5);
    for i in 1..=5 {
        let run = t.stop_hook("s1");
        assert_eq!(decision(&run).as_deref(), Some("block"), "stop {i}");
    }
    let run = t.stop_hook("s1");
    assert_eq!(decision(&run), None, "{}", run.stdout);
    assert_eq!(
        message(&run),
        "plan: work loop stopped: stalled: 5 continuations in a row without a change to the work (files, HEAD or plan.md) (`plan goal` starts a new loop)"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
}

/// Touching a file (new times, same bytes) is no work: files count by content.
#[test]
fn a_touched_file_with_the_same_bytes_is_no_progress() {
    let t = looping(20, 2);
    t.write("notes/a.txt", "a\n");
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    for rel in ["notes/a.txt", "src/work.rs"] {
        let bytes = std::fs::read(t.path(rel)).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(20));
        std::fs::write(t.path(rel), bytes).unwrap();
    }
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// A commit is work even when it changes no file (HEAD moves).
#[test]
fn a_commit_counts_as_progress() {
    let t = looping(20, 2);
    for i in 1..=4 {
        t.git(&["commit", "-q", "--allow-empty", "-m", &format!("step {i}")]);
        assert_eq!(
            decision(&t.stop_hook("s1")).as_deref(),
            Some("block"),
            "stop {i}"
        );
    }
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// A change to plan.md alone still counts, as it always did.
#[test]
fn a_plan_md_change_still_counts() {
    let t = looping(20, 2);
    for i in 1..=4 {
        t.ok(&["log", &format!("step {i}")]);
        assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    }
}

/// A loop.json written before the work fingerprint (its `last_hash` a plan.md hash)
/// still reads, and its loop goes on.
#[test]
fn an_older_loop_state_still_reads() {
    let t = looping(20, 2);
    let path = t.root().join(".git/plan/loop.json");
    std::fs::write(
        &path,
        r#"{"budget":20,"used":3,"paused":false,"owner":"s1","stalls":1,"last_hash":"0123456789abcdef","started":"2026-06-15 14:02","ended":null}"#,
    )
    .unwrap();
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// Git's status leaves submodules out (each would be opened and walked): work in
/// one counts through the files a file-editing tool named, by content.
#[test]
fn a_tool_edit_inside_a_submodule_counts() {
    let t = looping(20, 2);
    let origin = t.dir.path().join("sub-origin");
    let origin = origin.to_str().unwrap();
    t.git(&["init", "-q", "-b", "main", origin]);
    std::fs::write(t.dir.path().join("sub-origin/lib.rs"), "// lib\n").unwrap();
    t.git(&["-C", origin, "add", "-A"]);
    t.git(&["-C", origin, "commit", "-q", "-m", "lib"]);
    t.git(&[
        "-c",
        "protocol.file.allow=always",
        "submodule",
        "add",
        "-q",
        origin,
        "sub",
    ]);
    t.commit_all("sub");
    let edit = crate::hooks::payload(&t, "claude/post-tool-use.write", "s1")
        .replace("/src/cache.rs", "/sub/lib.rs");
    for i in 1..=4 {
        t.write("sub/lib.rs", format!("// step {i}\n"));
        crate::hooks::hook(&t, "claude", "post-tool-use", &edit);
        let run = t.stop_hook("s1");
        assert_eq!(decision(&run).as_deref(), Some("block"), "stop {i}");
    }
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// Once nothing has moved for a while, a stop takes the last fingerprint by the
/// identities of what it depended on (a stat each, not git's status): an edit
/// after that is still work, one that keeps the file's size and sets its time
/// back included (its change time moves), and idle stops still stall.
#[test]
fn work_after_settled_idle_stops_is_still_seen() {
    let t = looping(20, 3);
    t.write("notes/a.txt", "aaaa\n");
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    std::thread::sleep(std::time::Duration::from_millis(2300));
    for stop in ["stall 1, kept", "stall 2, spared"] {
        let run = t.stop_hook("s1");
        assert_eq!(decision(&run).as_deref(), Some("block"), "{stop}");
    }
    let path = t.path("notes/a.txt");
    let was = std::fs::metadata(&path).unwrap().modified().unwrap();
    std::fs::write(&path, "bbbb\n").unwrap();
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(was)
        .unwrap();
    for stop in ["work", "stall 1", "stall 2"] {
        let run = t.stop_hook("s1");
        assert_eq!(
            decision(&run).as_deref(),
            Some("block"),
            "{stop}: {}",
            run.stdout
        );
    }
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// A file-editing tool that writes a tracked file's own bytes back is no work,
/// whatever new path it names each time: git's status counts those files by
/// content, so the tool's list of edited paths adds nothing for them.
#[test]
fn tool_writes_of_the_same_bytes_to_new_paths_are_no_progress() {
    let t = looping(20, 2);
    for i in 1..=4 {
        t.write(&format!("src/f{i}.rs"), format!("// f{i}\n"));
    }
    t.commit_all("files");
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    for i in 1..=2 {
        let rel = format!("src/f{i}.rs");
        let bytes = std::fs::read(t.path(&rel)).unwrap();
        std::fs::write(t.path(&rel), bytes).unwrap();
        let edit = crate::hooks::payload(&t, "claude/post-tool-use.write", "s1")
            .replace("/src/cache.rs", &format!("/{rel}"));
        crate::hooks::hook(&t, "claude", "post-tool-use", &edit);
        let run = t.stop_hook("s1");
        if i == 1 {
            assert_eq!(decision(&run).as_deref(), Some("block"), "{}", run.stdout);
        } else {
            insta::assert_snapshot!(redact(&t, &run.stdout));
        }
    }
}

/// What the stop hook printed, or a panic once `secs` passed (the hook is killed).
fn stop_within(t: &Test, secs: u64) -> String {
    use std::io::Write as _;
    let payload = crate::util::fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let mut child = t
        .cmd(&["hook", "claude", "stop"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(payload.as_bytes())
        .unwrap();
    finish_within(&mut child, secs, "the stop hook");
    let out = child.wait_with_output().unwrap();
    String::from_utf8(out.stdout).unwrap()
}

/// Waits for `child`; kills it and fails once `secs` passed.
fn finish_within(child: &mut std::process::Child, secs: u64, what: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(secs);
    while child.try_wait().unwrap().is_none() {
        if std::time::Instant::now() > deadline {
            child.kill().unwrap();
            panic!("{what} blocked");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

fn mkfifo(path: &std::path::Path) {
    let _ = std::fs::remove_file(path);
    let made = std::process::Command::new("mkfifo")
        .arg(path)
        .status()
        .unwrap();
    assert!(made.success());
}

/// A named pipe where git reads its ignore rules or refs would block libgit2 for
/// good: the stop hook answers at once (plan.md's hash stands in for the work).
/// Before, each of these held the hook until the host killed it.
#[test]
fn a_named_pipe_where_git_reads_does_not_wedge_the_stop() {
    for place in [
        "sub/.gitignore",
        ".plan/judge/.gitignore",
        ".git/refs/heads/main",
    ] {
        let t = looping(20, 5);
        std::fs::create_dir_all(t.path(place).parent().unwrap()).unwrap();
        mkfifo(&t.path(place));
        let answer: serde_json::Value = serde_json::from_str(&stop_within(&t, 20)).unwrap();
        assert_eq!(answer["decision"], "block", "{place}: {answer}");
    }
}

/// A named pipe for the loop's mark (read when loop.json is gone) or the stamp
/// floor (read by every plan.md write) holds nothing up either: the write is
/// refused at once, naming the pipe (state files are regular files or nothing,
/// issue 35), and goes through once it is gone.
#[test]
fn a_named_pipe_for_the_loop_mark_or_the_stamp_floor_holds_nothing_up() {
    let t = looping(20, 5);
    mkfifo(&t.path(".git/plan-loop"));
    std::fs::remove_file(t.path(".git/plan/loop.json")).unwrap();
    stop_within(&t, 20);
    mkfifo(&t.path(".git/plan/stamp"));
    let mut child = t
        .cmd(&["log", "still written"])
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    finish_within(&mut child, 20, "plan log, beside the stamp floor's pipe,");
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    insta::assert_snapshot!(redact(&t, &stderr));
    std::fs::remove_file(t.path(".git/plan/stamp")).unwrap();
    t.ok(&["log", "still written"]);
    assert!(t.plan_md().contains("still written"), "{}", t.plan_md());
}

/// A repository libgit2 cannot read (here a split index, which `git add` then
/// writes) is looked at through git's own status: staged work is progress there
/// too, and idle stops still stall.
#[test]
fn work_in_a_repository_with_a_split_index_is_seen() {
    let t = looping(20, 2);
    t.git(&["config", "core.splitIndex", "true"]);
    t.git(&["update-index", "--split-index"]);
    for i in 1..=4 {
        t.write("src/work.rs", format!("// step {i}\n"));
        t.git(&["add", "src/work.rs"]);
        let run = t.stop_hook("s1");
        assert_eq!(
            decision(&run).as_deref(),
            Some("block"),
            "stop {i}: {}",
            run.stdout
        );
    }
    t.write("notes/new.txt", "n\n");
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    assert_eq!(decision(&t.stop_hook("s1")).as_deref(), Some("block"));
    let run = t.stop_hook("s1");
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

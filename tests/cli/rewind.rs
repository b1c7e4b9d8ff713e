//! Checkpoints and `plan rewind`: what a sign-off records (and leaves alone), what a
//! rewind restores, removes and reopens, and that `--undo` gives every byte back.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt;
use std::path::Path;

use crate::setup::status_of;
use crate::util::{Test, redact, redact_with, shown, shown_with};

/// A repository with two active goals, `a` (verify: a.txt exists) and `b` (b.txt),
/// some tracked files and ignore rules, committed.
fn repo() -> Test {
    let t = Test::new();
    t.write(".gitignore", "*.log\nbuild/\n");
    t.write("src/lib.rs", "pub fn one() {}\n");
    t.write("notes.txt", "first\n");
    t.write("gone-later.txt", "tracked, deleted after the checkpoint\n");
    t.ok(&["init", "Rewind"]);
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

fn sign(t: &Test, id: &str) {
    t.ok(&["complete", id, "--evidence", "done", "--judge", "none"]);
}

/// Every file under the repository root but `.git`: its bytes (a symlink's target)
/// and mode.
fn files(t: &Test) -> BTreeMap<String, (Vec<u8>, u32)> {
    fn walk(dir: &Path, base: &Path, out: &mut BTreeMap<String, (Vec<u8>, u32)>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            let rel = path
                .strip_prefix(base)
                .unwrap()
                .to_string_lossy()
                .into_owned();
            if rel == ".git" {
                continue;
            }
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                walk(&path, base, out);
            } else if meta.file_type().is_symlink() {
                let target = std::fs::read_link(&path).unwrap();
                out.insert(
                    rel,
                    (target.into_os_string().into_encoded_bytes(), 0o120000),
                );
            } else {
                out.insert(
                    rel,
                    (std::fs::read(&path).unwrap(), meta.permissions().mode()),
                );
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(&t.root(), &t.root(), &mut out);
    out
}

/// The files a rewind restores: all but plan.md, `.plan/` and what git ignores here.
fn rewound(mut all: BTreeMap<String, (Vec<u8>, u32)>) -> BTreeMap<String, (Vec<u8>, u32)> {
    all.retain(|p, _| {
        p != "plan.md"
            && !p.starts_with(".plan/")
            && !p.ends_with(".log")
            && !p.starts_with("build/")
    });
    all
}

/// `refname commit` for each ref under `prefix`.
fn refs(t: &Test, prefix: &str) -> Vec<(String, String)> {
    t.git(&["for-each-ref", "--format=%(refname) %(objectname)", prefix])
        .lines()
        .map(|l| {
            let (name, id) = l.split_once(' ').unwrap();
            (name.to_string(), id.to_string())
        })
        .collect()
}

fn log_of(t: &Test) -> String {
    t.plan_md().split_once("## Log\n").unwrap().1.to_string()
}

#[test]
fn a_sign_off_records_the_whole_working_tree_without_touching_head_index_or_files() {
    let t = repo();
    t.write("a.txt", "a\n");
    t.write("notes.txt", "dirty\n");
    t.write("src/lib.rs", "staged\n");
    t.git(&["add", "src/lib.rs"]);
    t.write("src/lib.rs", "staged, then edited\n");
    t.write("debug.log", "ignored\n");
    t.write("build/out.bin", "ignored too\n");
    std::os::unix::fs::symlink("notes.txt", t.path("link")).unwrap();
    let head = t.git(&["rev-parse", "HEAD"]);
    let status = |t: &Test| -> Vec<String> {
        t.git(&[
            "status",
            "--porcelain",
            "--untracked-files=all",
            "--ignored",
        ])
        .lines()
        .filter(|l| !l.ends_with(" plan.md") && !l.contains(" .plan/"))
        .map(str::to_string)
        .collect()
    };
    let before_status = status(&t);
    // The checkpoint leaves the index alone; the staging of the transcript, which
    // touches it on purpose, is off here.
    let config = std::fs::read_to_string(t.path(".plan/config.yaml")).unwrap_or_default();
    t.write(
        ".plan/config.yaml",
        format!("{config}sign_off:\n  stage: off\n"),
    );
    let index = std::fs::read(t.path(".git/index")).unwrap();
    let before_files = rewound(files(&t));

    sign(&t, "a");

    assert_eq!(
        std::fs::read(t.path(".git/index")).unwrap(),
        index,
        "the index changed"
    );
    assert_eq!(t.git(&["rev-parse", "HEAD"]), head);
    assert_eq!(rewound(files(&t)), before_files);
    assert_eq!(status(&t), before_status);
    assert_eq!(t.read("debug.log"), "ignored\n");

    let refs = refs(&t, "refs/plan/");
    assert_eq!(refs.len(), 1, "{refs:?}");
    let (name, commit) = &refs[0];
    assert_eq!(name, "refs/plan/checkpoints/a/20260615-1402");
    let at = |path: &str| t.git(&["show", &format!("{commit}:{path}")]);
    assert_eq!(at("notes.txt"), "dirty\n");
    assert_eq!(
        at("src/lib.rs"),
        "staged, then edited\n",
        "disk, not the index"
    );
    assert_eq!(at("a.txt"), "a\n", "untracked files are in it");
    assert_eq!(at("link"), "notes.txt");
    let tree = t.git(&["ls-tree", "-r", "--name-only", commit]);
    for ignored in ["debug.log", "build/out.bin"] {
        assert!(
            !tree.lines().any(|l| l == ignored),
            "{ignored} captured:\n{tree}"
        );
    }
    assert_eq!(
        t.git(&["rev-parse", &format!("{commit}^")]),
        head,
        "parent is HEAD"
    );
    let log = log_of(&t);
    insta::assert_snapshot!(redact_with(&t, &log, &[(&commit[..12], "[CHECKPOINT a]")]));
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
}

#[test]
fn a_checkpoint_on_an_unborn_branch_has_no_parent() {
    let t = Test::new();
    t.ok(&["init", "Unborn"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "x",
        "--verify",
        "test -f a.txt",
        "--active",
    ]);
    t.write("a.txt", "a\n");
    sign(&t, "a");
    let refs = refs(&t, "refs/plan/checkpoints/");
    assert_eq!(refs.len(), 1);
    let parents = t.git(&["rev-list", "--parents", "-n", "1", &refs[0].1]);
    assert_eq!(parents.trim(), refs[0].1, "no parent");
    let out = std::process::Command::new("git")
        .args(["rev-parse", "--verify", "-q", "HEAD"])
        .current_dir(t.root())
        .output()
        .unwrap();
    assert!(!out.status.success(), "HEAD is still unborn");
}

#[test]
fn a_second_sign_off_after_a_reopen_keeps_the_first_checkpoint() {
    let t = repo();
    t.write("a.txt", "one\n");
    sign(&t, "a");
    t.ok(&["reopen", "a", "--reason", "again"]);
    t.write("a.txt", "two\n");
    sign(&t, "a");
    let refs = refs(&t, "refs/plan/checkpoints/a/");
    assert_eq!(refs.len(), 2, "{refs:?}");
    let contents: Vec<String> = refs
        .iter()
        .map(|(_, c)| t.git(&["show", &format!("{c}:a.txt")]))
        .collect();
    assert!(contents.contains(&"one\n".to_string()) && contents.contains(&"two\n".to_string()));
}

#[test]
fn rewind_then_undo_gives_back_identical_bytes() {
    let t = repo();
    t.write("a.txt", "a\n");
    t.write("notes.txt", "dirty at a\n");
    t.write("scratch/u.txt", "untracked at a\n");
    t.write("debug.log", "ignored at a\n");
    sign(&t, "a");
    let at_a = files(&t);

    t.write("notes.txt", "later\n");
    t.write("src/lib.rs", "changed later\n");
    std::fs::remove_file(t.path("scratch/u.txt")).unwrap();
    std::fs::remove_file(t.path("gone-later.txt")).unwrap();
    t.write("new/deep/created.txt", "created later\n");
    t.write("debug.log", "ignored, later\n");
    t.write("build/x", "ignored build output\n");
    std::fs::set_permissions(t.path("a.txt"), std::fs::Permissions::from_mode(0o755)).unwrap();
    t.write(
        ".plan/prompts/judge_system.md",
        "written after the checkpoint\n",
    );
    t.ok(&["log", "more work"]);
    let before = files(&t);

    t.ok(&["rewind", "a", "--yes"]);
    let after = files(&t);
    assert_eq!(
        rewound(after.clone()),
        rewound(at_a),
        "files are as at the checkpoint"
    );
    assert!(
        !t.path("new").exists(),
        "directories left empty are removed"
    );
    for untouched in ["debug.log", "build/x"] {
        assert_eq!(
            after[untouched], before[untouched],
            "{untouched} is ignored"
        );
    }
    assert!(t.plan_md().contains("more work"), "plan.md is not rewound");
    let plan_dir = |files: &BTreeMap<String, (Vec<u8>, u32)>| {
        let mut files = files.clone();
        files.retain(|p, _| p.starts_with(".plan/"));
        files
    };
    assert_eq!(plan_dir(&after), plan_dir(&before), ".plan/ is not rewound");
    assert!(after.contains_key(".plan/prompts/judge_system.md"));

    t.ok(&["rewind", "--undo", "--yes"]);
    let mut undone = files(&t);
    let mut before = before;
    undone.remove("plan.md");
    before.remove("plan.md");
    assert_eq!(undone, before, "undo gives every byte back");
    // git keeps no empty directories: the one u.txt left behind is not restored.
    assert!(!t.path("scratch").exists());
    assert!(t.path("new/deep").is_dir());
    let (_, commit) = refs(&t, "refs/plan/checkpoints/")[0].clone();
    let log = log_of(&t);
    insta::assert_snapshot!(redact_with(&t, &log, &[(&commit[..12], "[CHECKPOINT a]")]));
}

#[test]
fn goals_signed_off_after_the_checkpoint_are_reopened_and_undo_does_not_sign_them_again() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    let a_commit = refs(&t, "refs/plan/checkpoints/a/")[0].1.clone();
    t.write("b.txt", "b\n");
    sign(&t, "b");

    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--yes"])));
    assert!(!t.path("b.txt").exists(), "created after the checkpoint");
    assert_eq!(status_of(&t, "a"), "done");
    assert_eq!(status_of(&t, "b"), "active");
    let log = log_of(&t);
    assert!(
        log.contains(&format!("b reopened: rewind to {}", &a_commit[..12])),
        "{log}"
    );
    insta::assert_snapshot!(redact(&t, &log));
    t.ok(&["audit"]);

    t.ok(&["rewind", "--undo", "--yes"]);
    assert_eq!(t.read("b.txt"), "b\n");
    assert_eq!(status_of(&t, "b"), "active", "undo does not sign off again");
    assert!(log_of(&t).contains("rewind undone"));
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "--undo", "--yes"]).code(2)));
}

#[test]
fn a_checkpoint_survives_git_gc() {
    let t = repo();
    t.write("a.txt", "a\n");
    t.write("only-here.txt", "bytes no commit holds\n");
    sign(&t, "a");
    std::fs::remove_file(t.path("only-here.txt")).unwrap();
    t.git(&["reflog", "expire", "--expire=now", "--all"]);
    t.git(&["gc", "-q", "--prune=now"]);
    let (_, commit) = &refs(&t, "refs/plan/checkpoints/")[0];
    t.git(&["cat-file", "-e", &format!("{commit}:only-here.txt")]);
    t.ok(&["rewind", "a", "--yes"]);
    assert_eq!(t.read("only-here.txt"), "bytes no commit holds\n");
    t.git(&["gc", "-q", "--prune=now"]);
    t.ok(&["rewind", "--undo", "--yes"]);
    assert!(!t.path("only-here.txt").exists());
}

#[test]
fn without_a_terminal_rewind_needs_yes_and_a_dry_run_changes_nothing() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("notes.txt", "later\n");
    t.write("fresh.txt", "new\n");
    let before = files(&t);

    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a"]).code(2)));
    assert_eq!(files(&t), before);
    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--dry-run"])));
    assert_eq!(files(&t), before);
    assert!(refs(&t, "refs/plan/rewind/").is_empty());
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "--undo", "--yes"]).code(2)));
}

#[test]
fn an_undo_belongs_to_the_working_tree_that_rewound() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("notes.txt", "later\n");
    t.ok(&["rewind", "a", "--yes"]);
    assert_eq!(refs(&t, "refs/plan/rewind/main/").len(), 1);
    let side = t.dir.path().join("side");
    t.git(&["worktree", "add", "-q", side.to_str().unwrap()]);
    let run = t
        .cmd(&["rewind", "--undo", "--yes"])
        .current_dir(&side)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("nothing to undo"));
    t.ok(&["rewind", "--undo", "--yes"]);
    assert_eq!(t.read("notes.txt"), "later\n");
}

#[test]
fn rewind_names_what_it_cannot_find() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a", "--yes"]).code(2)));
    t.run(&["rewind", "--yes"]).code(2);
    t.run(&["rewind", "a", "--undo"]).code(2);
}

#[test]
fn checkpoints_lists_goal_time_commit_and_files_changed_since() {
    let t = repo();
    insta::assert_snapshot!(shown(&t, &t.ok(&["checkpoints"])));
    assert_eq!(
        t.ok(&["checkpoints", "--json"]).json(),
        serde_json::json!([])
    );
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("notes.txt", "later\n");
    t.write("fresh.txt", "new\n");
    t.write("ignored.log", "never counted\n");
    let (_, commit) = refs(&t, "refs/plan/checkpoints/")[0].clone();
    let json = t.ok(&["checkpoints", "--json"]).json();
    assert_eq!(
        json,
        serde_json::json!([{
            "goal": "a",
            "time": "2026-06-15 14:02",
            "commit": commit,
            "ref": "refs/plan/checkpoints/a/20260615-1402",
            "changed": ["fresh.txt", "notes.txt"],
        }])
    );
    // plan.md changed too, but a rewind never touches it: not counted.
    insta::assert_snapshot!(shown_with(
        &t,
        &t.ok(&["checkpoints"]),
        &[(&commit[..12], "[CHECKPOINT a]")]
    ));
}

#[test]
fn one_file_is_one_file() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("notes.txt", "later\n");
    let (_, commit) = refs(&t, "refs/plan/checkpoints/")[0].clone();
    insta::assert_snapshot!(shown_with(
        &t,
        &t.ok(&["checkpoints"]),
        &[(&commit[..12], "[CHECKPOINT a]")]
    ));
    let run = t.ok(&["rewind", "a", "--yes"]);
    insta::assert_snapshot!(redact_with(
        &t,
        &run.stdout,
        &[(&commit[..12], "[CHECKPOINT a]")]
    ));
    insta::assert_snapshot!(redact(&t, &t.ok(&["rewind", "--undo", "--yes"]).stdout));
}

#[test]
fn rewind_refuses_while_a_judge_is_running() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("b.txt", "b\n");
    t.judge("gate");
    let go = t.dir.path().join("go");
    let calls = t.dir.path().join("calls.log");
    let t = t
        .env("PLAN_FIXTURE_GO", go.to_str().unwrap())
        .env("PLAN_FIXTURE_LOG", calls.to_str().unwrap());
    let child = t
        .cmd(&["complete", "b", "--evidence", "done", "--path", "b.txt"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while !calls.exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    let before = files(&t);
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a", "--yes"]).code(3)));
    assert_eq!(files(&t), before);
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--yes"])));
}

#[test]
fn an_old_sign_off_without_a_checkpoint_still_proves_and_cannot_be_rewound_to() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    let line = log_of(&t)
        .lines()
        .find(|l| l.contains("a signed off"))
        .unwrap()
        .to_string();
    let old = line.rsplit_once(" (checkpoint ").unwrap().0.to_string();
    t.write("plan.md", t.plan_md().replace(&line, &old));
    // A plan from before checkpoints kept no record of the lines it wrote.
    std::fs::remove_file(t.path(".git/plan/logged.tsv")).unwrap();
    t.git(&["update-ref", "-d", "refs/plan/checkpoints/a/20260615-1402"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a", "--yes"]).code(2)));
}

#[test]
fn a_checkpoint_that_cannot_be_written_is_a_warning_and_the_sign_off_stands() {
    let t = repo();
    t.write("a.txt", "a\n");
    // A file where the refs directory would be: no ref can be made under it.
    t.write(".git/refs/plan", "in the way\n");
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["complete", "a", "--evidence", "done", "--judge", "none"])
            .code(0)
    ));
    let line = log_of(&t)
        .lines()
        .find(|l| l.contains("a signed off"))
        .unwrap()
        .to_string();
    insta::assert_snapshot!(redact(&t, &line));
    assert_eq!(status_of(&t, "a"), "done");
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
}

#[test]
fn a_sign_off_that_is_not_written_leaves_no_checkpoint() {
    let t = repo();
    t.write("a.txt", "a\n");
    t.judge("gate");
    let go = t.dir.path().join("go");
    let calls = t.dir.path().join("calls.log");
    let t = t
        .env("PLAN_FIXTURE_GO", go.to_str().unwrap())
        .env("PLAN_FIXTURE_LOG", calls.to_str().unwrap());
    let child = t
        .cmd(&["complete", "a", "--evidence", "done", "--path", "a.txt"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while !calls.exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    t.write(
        "plan.md",
        t.plan_md()
            .replace("- a.txt is empty", "- a.txt is empty or a stub"),
    );
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(refs(&t, "refs/plan/checkpoints/").is_empty());
}

#[test]
fn a_rewind_never_writes_through_an_ignored_symlink_out_of_the_repository() {
    let t = repo();
    t.write("a.txt", "a\n");
    t.write("out/keep.txt", "kept at a\n");
    sign(&t, "a");
    std::fs::remove_dir_all(t.path("out")).unwrap();
    let outside = t.dir.path().join("outside");
    std::fs::create_dir_all(&outside).unwrap();
    std::os::unix::fs::symlink(&outside, t.path("out")).unwrap();
    t.write(".git/info/exclude", "out\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["rewind", "a", "--yes"])));
    assert!(
        !outside.join("keep.txt").exists(),
        "written outside the repository"
    );
    assert!(t.path("out").is_symlink());
}

#[test]
fn rewind_refuses_while_a_draft_is_running() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    let started = t.dir.path().join("started");
    let go = t.dir.path().join("go");
    let drafter = t.fake_program(
        "drafter",
        &format!(
            "cat >/dev/null\ntouch '{}'\nwhile [ ! -e '{}' ]; do sleep 0.05; done\ncat '{}'\n",
            started.display(),
            go.display(),
            crate::util::fixture_path("drafters/outputs/good.txt").display()
        ),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "draft:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            drafter.display()
        ),
    );
    let child = t
        .cmd(&["draft", "More work", "--yes"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    while !started.exists() {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    insta::assert_snapshot!(shown(&t, &t.run(&["rewind", "a", "--yes"]).code(3)));
    std::fs::write(&go, "").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    t.ok(&["rewind", "a", "--yes"]);
}

#[test]
fn a_long_list_of_changes_is_cut_with_a_count() {
    let t = repo();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    for i in 0..45 {
        t.write(&format!("many/{i:02}.txt"), "x\n");
    }
    let run = t.ok(&["rewind", "a", "--dry-run"]);
    assert_eq!(
        run.stdout.matches("  remove many/").count(),
        40,
        "{}",
        run.stdout
    );
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
}

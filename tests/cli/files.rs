//! Finding plan.md, bad files and bad places, and concurrent writers.

use std::os::unix::fs::PermissionsExt;

use crate::util::{Run, Test, fixture, redact, shown};

#[test]
fn found_from_a_subdirectory() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    std::fs::create_dir_all(t.path("src/deep")).unwrap();
    let mut t = t;
    t.cwd = t.path("src/deep");
    t.ok(&["log", "from below"]);
    assert!(t.plan_md().contains("from below"));
    assert!(!t.path("src/deep/plan.md").exists());
}

#[test]
fn a_worktree_has_its_own_plan() {
    let t = Test::new().plan("# Plan: main\n\n## Log\n");
    t.commit_all("init");
    let wt = t.dir.path().join("wt");
    t.git(&["worktree", "add", "-q", wt.to_str().unwrap()]);
    let mut w = Test::new();
    w.cwd = wt.clone();
    let run = Run::from(
        {
            let mut cmd = t.cmd(&["log", "in the worktree"]);
            cmd.current_dir(&wt);
            cmd.output().unwrap()
        },
        &["log"],
    )
    .code(0);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    assert!(
        std::fs::read_to_string(wt.join("plan.md"))
            .unwrap()
            .contains("in the worktree")
    );
    assert!(!t.plan_md().contains("in the worktree"));
    drop(w);
}

#[test]
fn outside_a_repository_is_exit_3() {
    let t = Test::outside_git();
    insta::assert_snapshot!(shown(&t, &t.run(&["show"]).code(3)));
    t.run(&["init", "x"]).code(3);
}

#[test]
fn file_flag_and_env_override() {
    let t = Test::new().plan("# Plan: default\n\n## Log\n");
    t.write("docs/other.md", "# Plan: other\n\n## Log\n");
    t.ok(&["--file", "docs/other.md", "log", "via flag"]);
    let t = t.env("PLAN_FILE", "docs/other.md");
    t.ok(&["log", "via env"]);
    let other = t.read("docs/other.md");
    insta::assert_snapshot!(redact(&t, &other));
    assert!(!t.plan_md().contains("via"));
    // --file also works outside a repository.
    let o = Test::outside_git();
    std::fs::write(o.cwd.join("p.md"), "# Plan: loose\n").unwrap();
    o.ok(&["--file", "p.md", "log", "loose"]);
    assert!(
        std::fs::read_to_string(o.cwd.join("p.md"))
            .unwrap()
            .contains("## Log\n- 2026-06-15 14:02 loose\n")
    );
}

#[test]
fn missing_plan_says_how_to_create_it() {
    let t = Test::new();
    insta::assert_snapshot!(shown(&t, &t.run(&["show"]).code(2)));
}

#[test]
fn not_utf8_names_the_byte_offset() {
    let t = Test::new();
    t.write(
        "plan.md",
        std::fs::read(crate::util::fixture_path("plans/not-utf8.md")).unwrap(),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["log", "x"]).code(2)));
}

#[test]
fn a_directory_named_plan_md() {
    let t = Test::new();
    std::fs::create_dir(t.path("plan.md")).unwrap();
    insta::assert_snapshot!(shown(&t, &t.run(&["show"]).code(2)));
}

#[test]
fn a_read_only_plan_is_not_written() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    std::fs::set_permissions(t.path("plan.md"), std::fs::Permissions::from_mode(0o444)).unwrap();
    insta::assert_snapshot!(shown(&t, &t.run(&["log", "x"]).code(3)));
    assert_eq!(t.plan_md(), "# Plan: x\n\n## Log\n");
}

#[test]
fn writes_keep_permissions_and_follow_symlinks() {
    let t = Test::new();
    t.write("real/plan.md", "# Plan: x\n\n## Log\n");
    std::fs::set_permissions(
        t.path("real/plan.md"),
        std::fs::Permissions::from_mode(0o640),
    )
    .unwrap();
    std::os::unix::fs::symlink("real/plan.md", t.path("plan.md")).unwrap();
    t.ok(&["log", "through the link"]);
    assert!(
        std::fs::symlink_metadata(t.path("plan.md"))
            .unwrap()
            .file_type()
            .is_symlink()
    );
    assert!(t.read("real/plan.md").contains("through the link"));
    let mode = std::fs::metadata(t.path("real/plan.md"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o640);
}

#[test]
fn fifty_concurrent_log_appends_lose_none() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n");
    let children: Vec<_> = (0..50)
        .map(|i| t.cmd(&["log", &format!("entry {i:02}")]).spawn().unwrap())
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let md = t.plan_md();
    for i in 0..50 {
        assert!(
            md.contains(&format!("14:02 entry {i:02}\n")),
            "entry {i} lost:\n{md}"
        );
    }
    assert_eq!(md.lines().filter(|l| l.starts_with("- 2026")).count(), 50);
    assert!(md.starts_with("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n"));
}

#[test]
fn concurrent_adds_get_distinct_ids() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let children: Vec<_> = (0..10)
        .map(|_| t.cmd(&["add", "Same title"]).spawn().unwrap())
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let json = t.ok(&["show", "--json"]).json();
    let mut ids: Vec<String> = json["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["id"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 10);
}

#[test]
fn a_plan_named_relative_to_a_subdirectory_is_still_the_repository_s_plan() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n");
    t.commit_all("plan");
    std::fs::create_dir_all(t.path("sub")).unwrap();
    let mut t = t.env("PLAN_FILE", "../plan.md");
    t.cwd = t.path("sub");
    t.ok(&["start", "a"]);
    let diff = t.ok(&["diff"]).stdout;
    insta::assert_snapshot!(redact(&t, &diff));
}

/// An editor saving in place: opens plan.md with O_TRUNC, and writes `content`
/// through that handle after `gap`. Returns once the file is truncated.
fn save_in_place_later(
    path: std::path::PathBuf,
    content: String,
    gap: std::time::Duration,
) -> std::thread::JoinHandle<()> {
    use std::io::Write;
    let (truncated, wait) = std::sync::mpsc::channel();
    let editor = std::thread::spawn(move || {
        let mut file = std::fs::File::create(&path).unwrap();
        truncated.send(()).unwrap();
        std::thread::sleep(gap);
        file.write_all(content.as_bytes()).unwrap();
    });
    wait.recv().unwrap();
    editor
}

#[test]
fn a_write_during_an_in_place_save_waits_for_it_and_keeps_every_byte() {
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one\n";
    let t = Test::new().plan(before);
    let theirs = before.replace("# Plan: x\n", "# Plan: x\nA line the person added.\n");
    let editor = save_in_place_later(
        t.path("plan.md"),
        theirs.clone(),
        std::time::Duration::from_millis(700),
    );
    t.ok(&["log", "x"]);
    editor.join().unwrap();
    assert_eq!(t.plan_md(), format!("{theirs}- 2026-06-15 14:02 x\n"));
}

#[test]
fn an_in_place_save_that_does_not_finish_in_time_is_refused() {
    // The editor truncated plan.md and writes back only after plan stopped waiting:
    // plan refuses rather than write its version of an empty file.
    let before = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n- [ ] one\n\n## Log\n";
    let t = Test::new().plan(before);
    let editor = save_in_place_later(
        t.path("plan.md"),
        before.to_string(),
        std::time::Duration::from_millis(3000),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["log", "x"]).code(3)));
    assert_eq!(t.plan_md(), "");
    editor.join().unwrap();
    assert_eq!(t.plan_md(), before);
}

#[test]
fn a_tick_waiting_for_the_lock_follows_its_goal_when_goals_move() {
    let alpha = "## Goal: Alpha\n<!-- id: alpha -->\nstatus: active\n- [ ] tests\n\n";
    let beta = "## Goal: Beta\n<!-- id: beta -->\nstatus: active\n- [ ] tests\n\n";
    let t = Test::new().plan(&format!("# Plan: x\n\n{alpha}{beta}## Log\n"));
    // Another writer holds the lock while the command reads and computes its edit.
    std::fs::create_dir_all(t.path(".git/plan")).unwrap();
    let lock = std::fs::File::create(t.path(".git/plan/plan.lock")).unwrap();
    lock.lock().unwrap();
    let tick = t.cmd(&["tick", "alpha", "1"]).spawn().unwrap();
    std::thread::sleep(std::time::Duration::from_millis(600));
    // Meanwhile Beta is moved above Alpha.
    t.write("plan.md", format!("# Plan: x\n\n{beta}{alpha}## Log\n"));
    lock.unlock().unwrap();
    assert!(tick.wait_with_output().unwrap().status.success());
    let md = t.plan_md();
    assert!(
        md.starts_with(&format!(
            "# Plan: x\n\n{beta}{}",
            alpha.replace("- [ ]", "- [x]")
        )),
        "{md}"
    );
}

#[test]
fn a_plan_named_from_outside_its_repository_takes_the_same_lock() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let outside = t.dir.path().join("home");
    let file = t.path("plan.md").display().to_string();
    std::fs::create_dir_all(t.path(".git/plan")).unwrap();
    let lock = std::fs::File::create(t.path(".git/plan/plan.lock")).unwrap();
    lock.lock().unwrap();
    let mut log = t
        .cmd(&["--file", &file, "log", "from outside"])
        .current_dir(&outside)
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(
        log.try_wait().unwrap().is_none(),
        "wrote without the repository's lock:\n{}",
        t.plan_md()
    );
    lock.unlock().unwrap();
    assert!(log.wait().unwrap().success());
    assert!(t.plan_md().ends_with("14:02 from outside\n"));
}

#[test]
fn writers_inside_and_outside_the_repository_lose_no_line() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let outside = t.dir.path().join("home");
    let file = t.path("plan.md").display().to_string();
    let children: Vec<_> = (0..30)
        .map(|i| {
            let entry = format!("entry {i:02}");
            match i % 2 {
                0 => t.cmd(&["log", &entry]).spawn().unwrap(),
                _ => t
                    .cmd(&["--file", &file, "log", &entry])
                    .current_dir(&outside)
                    .spawn()
                    .unwrap(),
            }
        })
        .collect();
    for mut child in children {
        assert!(child.wait().unwrap().success());
    }
    let md = t.plan_md();
    for i in 0..30 {
        assert!(
            md.contains(&format!("14:02 entry {i:02}\n")),
            "entry {i} lost:\n{md}"
        );
    }
}

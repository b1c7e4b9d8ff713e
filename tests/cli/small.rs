//! Small things a user noticed (issue 10): each one as it was seen, and what it
//! should be.

use std::os::unix::fs::PermissionsExt;
use std::process::Command;

use crate::util::{Test, fixture, redact, shown};

#[test]
fn config_yaml_is_created_with_the_umask_not_0600() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let out = Command::new("sh")
        .args([
            "-c",
            "umask 022 && exec \"$0\" judge model opus-9",
            crate::util::BIN,
        ])
        .current_dir(&t.cwd)
        .env("HOME", t.dir.path().join("home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mode = std::fs::metadata(t.path(".plan/config.yaml"))
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o644);
}

#[test]
fn a_rejected_transcript_names_its_answer_and_verdict_once() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    t.write("README.md", "hi\n");
    t.judge("reject");
    t.ok(&[
        "add",
        "Ship",
        "--done-when",
        "README exists",
        "--failure-mode",
        "empty",
        "--active",
    ]);
    t.commit_all("start");
    t.run(&["complete", "ship", "--evidence", "it is there"])
        .code(1);
    let dir = t.path(".plan/judge");
    // The transcript, not the directory's `.gitattributes`.
    let file = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "md"))
        .unwrap();
    let text = std::fs::read_to_string(file).unwrap();
    let answers: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with('#') && l.trim_start_matches('#').trim() == "Answer")
        .collect();
    assert_eq!(answers.len(), 1, "{answers:?}\n{text}");
    let verdicts: Vec<&str> = text.lines().filter(|l| l.contains("verdict:")).collect();
    assert_eq!(verdicts, ["- verdict: reject"], "{text}");
    assert!(text.contains("### The judge's answer"), "{text}");
}

#[test]
fn long_titles_give_ids_cut_at_a_word() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let id = t
        .ok(&[
            "add",
            "Implement the eviction policy for the distributed cache layer",
        ])
        .stdout;
    assert_eq!(id, "implement-the-eviction-policy-for-the\n");
    // One word longer than the limit is all there is to cut.
    let id = t.ok(&["add", &"x".repeat(50)]).stdout;
    assert_eq!(id.trim().len(), 40);
}

#[test]
fn wide_characters_keep_the_columns_in_line() {
    let t = Test::new().plan(
        "# Plan: x\n\n## Goal: 缓存层\n<!-- id: 缓存层 -->\nstatus: open\ndone_when: fast\n\n## Goal: Docs\n<!-- id: docs -->\nstatus: open\ndone_when: written\n\n## Log\n",
    );
    let out = t.ok(&["next"]).stdout;
    let cols: Vec<usize> = out
        .lines()
        .map(|l| {
            let at = l.find("open").unwrap();
            unicode_width::UnicodeWidthStr::width(&l[..at])
        })
        .collect();
    assert_eq!(cols, [8, 8], "{out}");
    let out = t.ok(&["show"]).stdout;
    let cols: Vec<usize> = out
        .lines()
        .filter(|l| l.contains("缓存层  ") || l.contains("docs  "))
        .map(|l| {
            let title = l.rfind("  ").unwrap();
            unicode_width::UnicodeWidthStr::width(&l[..title])
        })
        .collect();
    assert_eq!(cols, [8, 8], "{out}");
}

#[test]
fn waiting_on_a_goal_is_not_a_warning() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let out = t.ok(&["show"]).stdout;
    insta::assert_snapshot!(redact(&t, &out));
}

#[test]
fn start_with_an_empty_id_asks_for_one() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let run = t.run(&["start", ""]).code(2);
    insta::assert_snapshot!(shown(&t, &run));
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", " ", "1"]).code(2)));
}

#[test]
fn doctor_names_the_format_errors_it_waits_for() {
    let t = Test::new().plan("# Plan: x\n\n## Goal: A\nstatus: doing\ndone_when: a\n\n## Log\n");
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
}

#[test]
fn a_two_goal_cycle_is_not_called_waiting_on_itself() {
    let t = Test::new().plan(
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\ndepends_on: b\ndone_when: a\n\n## Goal: B\n<!-- id: b -->\ndepends_on: a\ndone_when: b\n\n## Log\n",
    );
    let run = t.run(&["lint"]);
    let out = run.stdout + &run.stderr;
    insta::assert_snapshot!(redact(&t, &out));
    let own = Test::new()
        .plan("# Plan: x\n\n## Goal: A\n<!-- id: a -->\ndepends_on: a\ndone_when: a\n\n## Log\n");
    let run = own.run(&["lint"]);
    let out = run.stdout + &run.stderr;
    insta::assert_snapshot!(redact(&t, &out));
}

#[test]
fn goals_without_subtasks_show_no_zero_of_zero() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    t.ok(&["add", "Alone", "--done-when", "done", "--active"]);
    let inject = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(redact(&t, &inject));
    let line = t.ok(&["statusline"]).stdout;
    assert_eq!(line, "plan: 1 active · alone\n");
}

#[test]
fn init_from_a_subdirectory_says_where_the_file_went() {
    let mut t = Test::new();
    std::fs::create_dir_all(t.path("src/deep")).unwrap();
    t.cwd = t.path("src/deep");
    let out = t.ok(&["init", "Try"]).stdout;
    assert_eq!(
        out.lines().next(),
        Some("created ../../plan.md (the repository root): Try")
    );
    assert!(t.path("plan.md").exists());
}

#[test]
fn diff_of_a_goal_says_what_changed_outside_its_contract() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    t.commit_all("plan");
    let md = t
        .plan_md()
        .replace(
            "## Goal: Implement cache layer",
            "## Goal: Build the cache layer",
        )
        .replace("- [ ] load test", "- [x] load test\n- [ ] soak test");
    t.write("plan.md", md);
    let out = t.ok(&["diff", "cache-layer"]).stdout;
    insta::assert_snapshot!(redact(&t, &out));
}

#[test]
fn ci_checks_its_tools_first() {
    let script =
        std::fs::read_to_string(std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(".ci/run"))
            .unwrap();
    let t = Test::outside_git();
    // A PATH with only what a shell needs: no cargo, no node.
    let bin = t.dir.path().join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    for tool in ["bash", "dirname", "env"] {
        let found = Command::new("sh")
            .args(["-c", &format!("command -v {tool}")])
            .output()
            .unwrap();
        let path = String::from_utf8(found.stdout).unwrap();
        std::os::unix::fs::symlink(path.trim(), bin.join(tool)).unwrap();
    }
    std::fs::create_dir_all(t.cwd.join(".ci")).unwrap();
    std::fs::write(t.cwd.join(".ci/run"), script).unwrap();
    let out = Command::new(bin.join("bash"))
        .arg(".ci/run")
        .current_dir(&t.cwd)
        .env_clear()
        .env("PATH", &bin)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    for tool in ["cargo", "rustfmt", "clippy", "node", "npm"] {
        assert!(stderr.contains(tool), "{tool} not named in:\n{stderr}");
    }
    insta::assert_snapshot!(redact(&t, &stderr));
}

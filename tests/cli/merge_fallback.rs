//! A merge never keeps one side: where git cannot run `plan` (not on its PATH, a
//! binary since removed), the registered driver falls back to git's own line merge
//! with conflict markers, and `plan install git` registers the binary by its
//! absolute path so a git without plan on its PATH still finds it.

use crate::util::{BIN, Test, shown};

const PLAN: &str = "# Plan: x

## Goal: Build
<!-- id: build -->
status: active
done_when: it builds
- [ ] one

## Log
- 2026-06-15 14:00 build started
";

/// Two branches that each add a goal at the same place and log a line: a line
/// merge conflicts, plan's merges clean.
fn diverged(t: &Test) {
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "other"]);
    t.ok(&["add", "Theirs", "--done-when", "theirs is there"]);
    t.ok(&["log", "theirs: added"]);
    t.commit_all("theirs");
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["add", "Ours", "--done-when", "ours is there"]);
    t.ok(&["log", "ours: added"]);
    t.commit_all("ours");
}

#[test]
fn install_git_registers_the_binary_by_path_with_gits_merge_behind_it() {
    let t = Test::new().plan(PLAN);
    t.ok(&["install", "git"]);
    assert_eq!(
        t.git(&["config", "merge.plan.driver"]).trim(),
        format!(
            "{BIN} merge-driver %O %A %B %P; s=$?; [ $s -le 1 ] && exit $s; echo \"plan: plan merge-driver could not run (exit $s); git merged plan.md line by line\" >&2; git merge-file -L ours -L base -L theirs %A %O %B"
        )
    );
    assert!(
        t.git(&["config", "merge.plan.name"])
            .contains("where plan cannot run, git merge-file")
    );
    diverged(&t);
    t.git(&["merge", "-q", "--no-edit", "other"]);
    let md = t.plan_md();
    assert!(!md.contains("<<<<<<<"), "{md}");
    for line in [
        "## Goal: Ours",
        "## Goal: Theirs",
        "ours: added",
        "theirs: added",
    ] {
        assert_eq!(md.matches(line).count(), 1, "{line} once in:\n{md}");
    }
}

/// git with a PATH that has no `plan`, built here rather than taken from the
/// machine, where an installed plan would answer.
fn merge_without_plan(t: &Test) -> std::process::Output {
    std::process::Command::new("git")
        .args(["merge", "--no-edit", "other"])
        .current_dir(t.root())
        .env_clear()
        .env("PATH", crate::util::system_path())
        .env("HOME", t.dir.path().join("home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .output()
        .unwrap()
}

/// A driver registered as plan once did it, by name and with nothing behind it:
/// git reports a conflict and leaves our side alone. Doctor says so first.
#[test]
fn doctor_mid_merge_names_an_unmerged_plan_and_why() {
    let t = Test::new().plan(PLAN);
    t.ok(&["install", "git"]);
    t.git(&[
        "config",
        "merge.plan.driver",
        "plan merge-driver %O %A %B %P",
    ]);
    diverged(&t);
    let out = merge_without_plan(&t);
    assert_eq!(out.status.code(), Some(1));
    assert!(!t.plan_md().contains("Theirs"), "our side only");
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    // As the fix says: plan's driver by its path, and the merge again.
    t.ok(&["install", "git"]);
    t.git(&["checkout", "-m", "plan.md"]);
    let md = t.plan_md();
    assert!(
        md.contains("## Goal: Theirs") && md.contains("## Goal: Ours"),
        "{md}"
    );
    t.git(&["add", "plan.md"]);
    t.ok(&["doctor"]);
}

#[test]
fn with_plan_off_gits_path_a_merge_leaves_markers_and_loses_no_line() {
    let t = Test::new().plan(PLAN);
    t.ok(&["install", "git", "--command", "plan"]);
    diverged(&t);
    let ours = t.plan_md();
    t.git(&["checkout", "-q", "other"]);
    let theirs = t.plan_md();
    t.git(&["checkout", "-q", "main"]);
    // The test's PATH has no `plan`: git runs the driver by name and cannot.
    let out = merge_without_plan(&t);
    let said = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{said}");
    // git's own words name its temporary files: checked for plan's line only.
    assert!(
        said.contains(
            "plan: plan merge-driver could not run (exit 127); git merged plan.md line by line"
        ),
        "{said}"
    );
    let md = t.plan_md();
    assert!(md.contains("<<<<<<< ours\n"), "{md}");
    assert!(md.contains(">>>>>>> theirs\n"), "{md}");
    for line in ours.lines().chain(theirs.lines()) {
        assert!(md.contains(line), "{line:?} lost:\n{md}");
    }
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
}

/// In a clone without the driver, doctor's first line is the one that matters, and
/// the weak sign-offs' shared fix is said once, not once per goal.
#[test]
fn doctor_puts_no_merge_driver_first_and_says_the_weak_sign_offs_fix_once() {
    let t = Test::new().plan(PLAN);
    t.write(".gitattributes", "plan.md merge=plan\n");
    for id in ["one", "two", "three"] {
        t.ok(&["add", id, "--done-when", "it is there", "--verify", "true"]);
        t.ok(&["start", id]);
        t.ok(&["complete", id, "--evidence", "done", "--judge", "none"]);
    }
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    assert_eq!(
        run.stdout
            .matches("reopen it and run plan complete")
            .count(),
        1,
        "{}",
        run.stdout
    );
}

/// "Accept both" of two branches that each added a goal stripped one goal's
/// failure mode and subtasks: its contract is no longer the one its log recorded.
/// Doctor finds it, and `--fix` puts the lines back from the branch that had them.
#[test]
fn doctor_fix_puts_back_the_lines_a_merge_stripped_from_a_new_goal() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "other"]);
    t.ok(&[
        "add",
        "Beta",
        "--done-when",
        "beta works",
        "--failure-mode",
        "beta is slow",
        "--subtask",
        "write beta",
        "--subtask",
        "test beta",
    ]);
    t.commit_all("beta");
    let whole = t.plan_md();
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["add", "Alpha", "--done-when", "alpha works"]);
    t.commit_all("alpha");
    // What "accept both" left: both goals, both log lines, and Beta without the
    // lines its section shared the place of with Alpha's.
    let beta = &whole[whole.find("## Goal: Beta").unwrap()..whole.find("## Log").unwrap()];
    let added = whole.lines().find(|l| l.contains("beta added")).unwrap();
    let merged = format!(
        "{}{added}\n",
        t.plan_md().replace("## Log\n", &format!("{beta}## Log\n"))
    )
    .replace("- beta is slow\n", "")
    .replace("- [ ] write beta\n", "")
    .replace("- [ ] test beta\n", "");
    t.git(&["merge", "-q", "-s", "ours", "--no-edit", "other"]);
    t.write("plan.md", &merged);
    t.git(&["commit", "-q", "-a", "--amend", "--no-edit"]);
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(shown(&t, &run));
    insta::assert_snapshot!(shown(&t, &t.ok(&["doctor", "--fix"])));
    let md = t.plan_md();
    let section = |md: &str| {
        let at = md.find("## Goal: Beta").unwrap();
        md[at..].split("\n\n").next().unwrap().to_string()
    };
    assert_eq!(section(&md), section(&whole));
    assert!(md.contains("## Goal: Alpha"), "{md}");
    assert!(!t.ok(&["doctor"]).stdout.contains("lost-goal-lines"));
}

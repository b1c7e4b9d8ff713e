//! Many agents, one plan: clones of one origin and a worktree each add, tick, log,
//! start and sign off in parallel, then merge, rebase, cherry-pick and merge back,
//! squash and rebase-merge. With `plan install git` in each clone, plan.md never
//! needs a hand, every log line is there once and in time order, and every honest
//! sign-off stays proven. The same field changed on both sides is one conflict,
//! inside its goal, that every reader and writer sees.

use std::cell::Cell;
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{BIN, Run, Test, redact_with, shown};

const PLAN: &str = "# Plan: Team

## Goal: Build
<!-- id: build -->
status: open
done_when: the build passes
verify: true
failure_modes:
- verify passes on a stale build
- [ ] compile
- [ ] link

## Goal: Docs
<!-- id: docs -->
status: open
done_when: the README says how
verify: true
failure_modes:
- the README is empty
- [ ] write

## Log
";

/// One working tree (a clone or a worktree) with its own clock: sides take turns
/// of minutes (`first`, `first + 3`, …), so their log stamps interleave.
struct Side<'t> {
    t: &'t Test,
    dir: PathBuf,
    minute: Cell<u32>,
}

impl<'t> Side<'t> {
    fn new(t: &'t Test, dir: PathBuf, first: u32) -> Side<'t> {
        Side {
            t,
            dir,
            minute: Cell::new(first),
        }
    }

    fn now(&self) -> String {
        let m = self.minute.get();
        self.minute.set(m + 3);
        format!("2026-06-15T{:02}:{:02}", 10 + m / 60, m % 60)
    }

    fn run(&self, args: &[&str]) -> Run {
        let out = self
            .t
            .cmd(args)
            .current_dir(&self.dir)
            .env("PLAN_NOW", self.now())
            .output()
            .unwrap();
        Run::from(out, args)
    }

    fn ok(&self, args: &[&str]) -> Run {
        self.run(args).code(0)
    }

    /// git, as hermetic as the Test builder's; whether it succeeded, and its output.
    fn try_git(&self, args: &[&str]) -> (bool, String) {
        let out = git(self.t, &self.dir, args);
        let text = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        (out.status.success(), text)
    }

    fn git(&self, args: &[&str]) -> String {
        let (ok, text) = self.try_git(args);
        assert!(ok, "git {args:?} in {}: {text}", self.dir.display());
        text
    }

    fn commit(&self, message: &str) {
        self.git(&["add", "-A"]);
        self.git(&["commit", "-q", "-m", message]);
    }

    fn plan_md(&self) -> String {
        std::fs::read_to_string(self.dir.join("plan.md")).unwrap()
    }

    fn sign_off(&self, id: &str) {
        self.ok(&["complete", id, "--evidence", "it is done"]);
    }

    /// plan.md needed no hand: no markers, lint and audit green, every sign-off
    /// proven, the log's lines each once and in time order.
    fn sound(&self, signed_off: usize) {
        let md = self.plan_md();
        assert!(!md.contains("<<<<<<<"), "{md}");
        self.ok(&["lint"]);
        // Its last line sums it up.
        let audit = self.ok(&["audit"]);
        let sum = format!(
            "{signed_off} finished goal{}: {signed_off} proven, 0 unproven; {signed_off} verif{} not run again (`plan audit --reverify` runs them)",
            if signed_off == 1 { "" } else { "s" },
            if signed_off == 1 { "y" } else { "ies" }
        );
        assert_eq!(
            audit.stdout.lines().last(),
            Some(sum.as_str()),
            "{}",
            audit.stdout
        );
        let log: Vec<&str> = md
            .split_once("## Log\n")
            .unwrap()
            .1
            .lines()
            .take_while(|l| l.starts_with("- "))
            .collect();
        let mut sorted = log.clone();
        sorted.sort();
        assert_eq!(log, sorted, "in time order:\n{md}");
        sorted.dedup();
        assert_eq!(log.len(), sorted.len(), "each line once:\n{md}");
    }

    fn logged_once(&self, text: &str) {
        let md = self.plan_md();
        assert_eq!(md.matches(text).count(), 1, "{text} once in:\n{md}");
    }
}

fn git(t: &Test, dir: &Path, args: &[&str]) -> std::process::Output {
    Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", crate::util::system_path())
        .env("HOME", t.dir.path().join("home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env("GIT_EDITOR", "true")
        .env("TZ", "UTC")
        .output()
        .unwrap()
}

/// An origin, clone `a` (the Test's repository) with worktree `w`, and clone `b`;
/// plan's merge driver installed in both clones, the attribute committed once.
fn team(t: &Test) -> (Side<'_>, Side<'_>, Side<'_>) {
    let top = t.dir.path();
    let a = Side::new(t, t.root(), 0);
    t.write("plan.md", PLAN);
    t.judge("accept");
    let run = a.ok(&["install", "git", "--command", BIN]);
    assert_eq!(
        run.stdout,
        format!(
            "git: registered plan's merge driver in this clone's config (merge.plan.driver)\ngit: .gitattributes sends plan.md to it; commit .gitattributes so every clone merges plan.md goal by goal (each clone still runs `plan install git` once)\ngit: no remote yet; after `git remote add`, run `plan install git` again so fetches bring its checkpoints\ngit: {}/.git/hooks/pre-push makes `git push` carry the checkpoints its sign-offs name\n",
            t.root().display()
        )
    );
    a.commit("plan");
    assert!(
        git(
            t,
            top,
            &["init", "-q", "--bare", "-b", "main", "origin.git"]
        )
        .status
        .success()
    );
    a.git(&["remote", "add", "origin", "../origin.git"]);
    a.git(&["push", "-q", "-u", "origin", "main"]);
    assert!(
        git(t, top, &["clone", "-q", "origin.git", "b"])
            .status
            .success()
    );
    let b = Side::new(t, top.join("b"), 1);
    let run = b.ok(&["install", "git", "--command", BIN]);
    assert_eq!(
        run.stdout,
        format!(
            "git: registered plan's merge driver in this clone's config (merge.plan.driver)\ngit: .gitattributes already sends plan.md to it\ngit: `git fetch origin` brings its sign-offs' checkpoints (remote.origin.fetch +refs/plan/checkpoints/*:refs/plan/remotes/origin/checkpoints/*)\ngit: {}/.git/hooks/pre-push makes `git push` carry the checkpoints its sign-offs name\n",
            b.dir.display()
        )
    );
    a.git(&["worktree", "add", "-q", "../w", "-b", "w"]);
    let w = Side::new(t, top.join("w"), 2);
    (a, b, w)
}

#[test]
fn parallel_work_merges_rebases_picks_and_squashes_without_a_hand() {
    let t = Test::new();
    let (a, b, w) = team(&t);

    // In parallel: a starts, ticks and signs off build; b adds a goal and signs off
    // docs; w adds a goal, ticks build's other subtask and logs, in two commits.
    a.ok(&["start", "build"]);
    a.ok(&["tick", "build", "1"]);
    a.ok(&["log", "a: compiling"]);
    a.sign_off("build");
    a.commit("a: build");
    b.ok(&[
        "add",
        "Bench",
        "--done-when",
        "numbers",
        "--verify",
        "true",
        "--failure-mode",
        "noise",
    ]);
    b.ok(&["start", "docs"]);
    b.ok(&["tick", "docs", "1"]);
    b.ok(&["log", "b: writing"]);
    b.sign_off("docs");
    b.commit("b: docs");
    b.git(&["push", "-q", "origin", "main"]);
    // Checkpoints travel beside the branch: a sign-off names one, and a clone that
    // keeps checkpoints proves only sign-offs whose checkpoint it has.
    b.ok(&["checkpoints", "--push"]);
    w.ok(&[
        "add",
        "Lint",
        "--done-when",
        "clean",
        "--verify",
        "true",
        "--failure-mode",
        "skips",
    ]);
    w.commit("w: lint goal");
    w.ok(&["tick", "build", "2"]);
    w.ok(&["log", "w: linked"]);
    w.commit("w: link");

    // A merge.
    a.git(&["pull", "-q", "--no-rebase", "origin", "main"]);
    a.ok(&["checkpoints", "--fetch"]);
    a.sound(2);
    // A rebase of two commits, then a rebase-merge (fast-forward).
    w.git(&["rebase", "-q", "main"]);
    w.sound(2);
    a.git(&["merge", "-q", "--ff-only", "w"]);
    a.sound(2);
    let md = a.plan_md();
    assert!(
        md.contains("- [x] compile\n- [x] link\n"),
        "both ticks:\n{md}"
    );
    a.git(&["push", "-q", "origin", "main"]);
    a.ok(&["checkpoints", "--push"]);

    // A cherry-pick, then merging the picked branch back.
    b.ok(&["log", "b: before the fix"]);
    b.commit("b: note");
    b.git(&["checkout", "-q", "-b", "fix", "HEAD~1"]);
    b.ok(&["log", "fix: hot"]);
    b.ok(&["start", "bench"]);
    b.commit("fix");
    b.git(&["checkout", "-q", "main"]);
    b.git(&["pull", "-q", "--rebase", "origin", "main"]);
    b.ok(&["checkpoints", "--fetch"]);
    b.sound(2);
    b.git(&["cherry-pick", "fix"]);
    b.sound(2);
    b.git(&["merge", "-q", "--no-edit", "fix"]);
    b.sound(2);
    b.logged_once("fix: hot");
    b.logged_once("bench started");
    b.git(&["push", "-q", "origin", "main"]);

    // A squash merge of a branch with two commits while main moved on.
    w.git(&["checkout", "-q", "-b", "sq", "main"]);
    w.ok(&[
        "add",
        "Squash",
        "--done-when",
        "one commit",
        "--verify",
        "true",
        "--failure-mode",
        "lost",
    ]);
    w.commit("sq 1");
    w.ok(&["log", "sq: two"]);
    w.commit("sq 2");
    a.git(&["pull", "-q", "--no-rebase", "origin", "main"]);
    a.ok(&["log", "a: meanwhile"]);
    a.commit("a: meanwhile");
    a.git(&["merge", "-q", "--squash", "sq"]);
    a.commit("squash");
    a.sound(2);
    for once in [
        "a: compiling",
        "b: writing",
        "w: linked",
        "fix: hot",
        "b: before the fix",
        "sq: two",
        "a: meanwhile",
        "build signed off",
        "docs signed off",
    ] {
        a.logged_once(once);
    }
    let ids: Vec<String> = a
        .plan_md()
        .lines()
        .filter_map(|l| l.strip_prefix("<!-- id: "))
        .map(|l| l.trim_end_matches(" -->").to_string())
        .collect();
    assert_eq!(ids, ["build", "docs", "bench", "lint", "squash"]);
}

#[test]
fn the_same_field_changed_on_both_sides_is_one_conflict_every_reader_sees() {
    let t = Test::new();
    let (a, b, _w) = team(&t);
    b.ok(&["start", "docs"]);
    a.ok(&["start", "docs"]);
    a.commit("a: start");
    let md = b.plan_md().replace(
        "done_when: the README says how",
        "done_when: the README says how, with examples",
    );
    std::fs::write(b.dir.join("plan.md"), md).unwrap();
    b.ok(&["log", "b: examples"]);
    b.commit("b: examples");
    b.git(&["push", "-q", "origin", "main"]);
    let md = a.plan_md().replace(
        "done_when: the README says how",
        "done_when: the README says how, briefly",
    );
    std::fs::write(a.dir.join("plan.md"), md).unwrap();
    a.ok(&["tick", "build", "1"]);
    a.commit("a: briefly");

    let (merged, said) = a.try_git(&["pull", "--no-rebase", "origin", "main"]);
    assert!(!merged, "{said}");
    let md = a.plan_md();
    assert_eq!(md.matches("<<<<<<<").count(), 1, "{md}");
    let start = md.find("## Goal: Docs").unwrap();
    let end = md.find("## Log").unwrap();
    let at = md.find("<<<<<<<").unwrap();
    assert!(start < at && at < md.find(">>>>>>>").unwrap() && md.find(">>>>>>>").unwrap() < end);
    assert!(md.contains("<<<<<<< ours: done_when of goal docs\ndone_when: the README says how, briefly\n=======\ndone_when: the README says how, with examples\n>>>>>>> theirs: done_when of goal docs\n"), "{md}");
    // Everything else merged: the tick, both start lines, b's note.
    assert!(md.contains("- [x] compile"));
    assert!(md.contains("b: examples"));
    let line = md[..at].lines().count() + 1;
    // The conflict's line, named: where the markers are in this merge.
    let named = format!("plan.md:{line}:");
    let names = [(named.as_str(), "plan.md:[LINE]:")];
    let lint = a.run(&["lint"]).code(1);
    insta::assert_snapshot!("lint_on_a_conflict", redact_with(&t, &lint.stdout, &names));
    // Every write is refused, each with the same words.
    let mut refused: Option<String> = None;
    for args in [
        &["log", "note"][..],
        &["tick", "build", "2"],
        &["start", "build"],
        &["add", "More", "--done-when", "x"],
        &["complete", "docs", "--evidence", "done"],
    ] {
        let run = a.run(args).code(2);
        let first = refused.get_or_insert_with(|| run.stderr.clone());
        assert_eq!(&run.stderr, first, "{args:?}");
        assert_eq!(a.plan_md(), md, "{args:?} wrote into a conflicted plan");
    }
    insta::assert_snapshot!(
        "refused_on_a_conflict",
        redact_with(&t, &refused.unwrap(), &names)
    );
    let inject = a.ok(&["inject"]);
    assert_eq!(
        inject.stdout,
        format!(
            "plan.md: Team\nActive goals:\n- docs: Docs\n  done_when: the README says how, briefly\n  subtasks: 0/1 done; next: write\nReady to start: build\nLast log line: 2026-06-15 10:07 b: examples\nA goal is signed off only by `plan complete ID --evidence TEXT --path FILE`, which runs its verify command and an independent read-only judge; `status: done` written by hand is flagged as unchecked.\nplan.md has format errors; goals with errors may be missing above. First: line {line}: unresolved merge conflict (to line 20): resolve it before plan reads or writes this file. Fix them (`plan lint` lists them all).\n"
        )
    );
}

/// The flow above is one git cannot merge line by line: in a clone that has the
/// attribute but no driver, two added goals and two log lines stop the pull, and
/// `plan doctor` says what is missing.
#[test]
fn without_the_driver_the_same_work_conflicts_and_doctor_says_why() {
    let t = Test::new();
    let (a, b, _w) = team(&t);
    a.ok(&["uninstall", "git"]);
    a.git(&["checkout", "-q", "--", ".gitattributes"]);
    let doctor = a.run(&["doctor"]).code(1);
    insta::assert_snapshot!("doctor_without_the_driver", shown(&t, &doctor));
    a.ok(&[
        "add",
        "Mine",
        "--done-when",
        "x",
        "--verify",
        "true",
        "--failure-mode",
        "y",
    ]);
    a.ok(&["log", "a: mine"]);
    a.commit("a");
    b.ok(&[
        "add",
        "Yours",
        "--done-when",
        "x",
        "--verify",
        "true",
        "--failure-mode",
        "y",
    ]);
    b.ok(&["log", "b: yours"]);
    b.commit("b");
    b.git(&["push", "-q", "origin", "main"]);
    let (merged, said) = a.try_git(&["pull", "--no-rebase", "origin", "main"]);
    assert!(
        !merged && said.contains("CONFLICT (content): Merge conflict in plan.md"),
        "{said}"
    );
    let lint = a.run(&["lint"]).code(1);
    insta::assert_snapshot!("lint_without_the_driver", shown(&t, &lint));
}

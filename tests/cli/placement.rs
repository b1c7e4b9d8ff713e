//! Where a write lands when `plan archive` moved the goals under it: a new goal
//! goes among the live goals before `## Log`, a log line at the end of `## Log`,
//! and a status edit or tick to a goal archived meanwhile is a conflict (exit 2),
//! never a line under `## Archive`. Each race happens every time: the command
//! stops after its first read (the debug-build seam `PLAN_TEST_PAUSE`, see
//! preconditions.rs) while the others run. `plan cancel` refuses an archived goal.

use crate::preconditions::race;
use crate::util::Test;

/// Each goal of `md` as (title, section, status): section is `goals` before
/// `## Log`, `log` after it, `archive` after `## Archive`.
fn goals(md: &str) -> Vec<(String, &'static str, String)> {
    let mut out: Vec<(String, &'static str, String)> = Vec::new();
    let mut section = "goals";
    for line in md.lines() {
        if line == "## Log" {
            section = "log";
        } else if line == "## Archive" {
            section = "archive";
        } else if let Some(title) = line.strip_prefix("## Goal: ") {
            out.push((title.to_string(), section, "open".to_string()));
        } else if let (Some(status), Some(goal)) = (line.strip_prefix("status: "), out.last_mut()) {
            goal.2 = status.to_string();
        }
    }
    out
}

/// What stands in the wrong section: an unfinished goal under `## Archive`, a
/// goal after `## Log`, a goal twice, a log line under `## Archive`.
fn misplaced(md: &str) -> Vec<String> {
    let mut wrong = Vec::new();
    let all = goals(md);
    for (i, (title, section, status)) in all.iter().enumerate() {
        match (*section, status.as_str()) {
            ("archive", "open" | "active") => wrong.push(format!("{title} ({status}) archived")),
            ("log", _) => wrong.push(format!("{title} after `## Log`")),
            _ => {}
        }
        if all[..i].iter().any(|(t, ..)| t == title) {
            wrong.push(format!("{title} twice"));
        }
    }
    if let Some(archive) = md.find("\n## Archive\n") {
        let stray = md[archive..].lines().filter(|l| l.starts_with("- 20"));
        wrong.extend(stray.map(|l| format!("log line under `## Archive`: {l}")));
    }
    wrong
}

/// A plan with goal `a` signed off (so `plan archive` moves it) and goal `b`
/// active with two subtasks.
fn done_and_active() -> Test {
    let t = Test::new();
    t.ok(&["init", "Races"]);
    t.ok(&["add", "A", "--done-when", "a.txt exists"]);
    t.ok(&["start", "a"]);
    t.ok(&["complete", "a", "--evidence", "written", "--judge", "none"]);
    t.ok(&[
        "add",
        "B",
        "--done-when",
        "b.txt exists",
        "--subtask",
        "write it",
        "--subtask",
        "check it",
    ]);
    t.ok(&["start", "b"]);
    t
}

fn titles(md: &str) -> Vec<(String, &'static str)> {
    goals(md).into_iter().map(|(t, s, _)| (t, s)).collect()
}

fn owned(list: &[(&str, &'static str)]) -> Vec<(String, &'static str)> {
    list.iter().map(|(t, s)| (t.to_string(), *s)).collect()
}

#[test]
fn add_racing_archive_puts_the_goal_before_the_log() {
    let t = done_and_active();
    let (add, _) = race(&t, &["add", "C"], &[&["archive"]]);
    add.code(0);
    let md = t.plan_md();
    assert_eq!(
        titles(&md),
        owned(&[("B", "goals"), ("C", "goals"), ("A", "archive")]),
        "{md}"
    );
    assert_eq!(misplaced(&md), Vec::<String>::new(), "{md}");
    t.ok(&["audit"]);
}

#[test]
fn add_racing_archive_of_every_goal_puts_it_before_the_log() {
    // The only goal is the one archived: the new one has no goal to follow.
    let t = Test::new();
    t.ok(&["init", "Races"]);
    t.ok(&["add", "A", "--done-when", "a.txt exists"]);
    t.ok(&["start", "a"]);
    t.ok(&["complete", "a", "--evidence", "written", "--judge", "none"]);
    let (add, _) = race(&t, &["add", "C"], &[&["archive"]]);
    add.code(0);
    let md = t.plan_md();
    assert_eq!(
        titles(&md),
        owned(&[("C", "goals"), ("A", "archive")]),
        "{md}"
    );
    let c = md.find("## Goal: C").unwrap();
    assert!(md[..c].ends_with("# Plan: Races\n\n"), "{md}");
    assert!(md[c..].contains("status: open\n\n## Log\n"), "{md}");
    t.ok(&["audit"]);
}

/// Two adds land in the order they were written, as the log lists them: the
/// later one is not slipped in before a goal added while it was working.
#[test]
fn adds_land_in_the_order_they_were_written() {
    let t = Test::new();
    t.ok(&["init", "Races"]);
    t.ok(&["add", "A"]);
    let (add, _) = race(&t, &["add", "C"], &[&["add", "B"]]);
    add.code(0);
    let md = t.plan_md();
    assert_eq!(
        titles(&md),
        owned(&[("A", "goals"), ("B", "goals"), ("C", "goals")]),
        "{md}"
    );
    let (b, c) = (md.find("b added").unwrap(), md.find("c added").unwrap());
    assert!(b < c, "{md}");
}

#[test]
fn log_racing_archive_lands_at_the_end_of_the_log() {
    let t = done_and_active();
    let (log, _) = race(&t, &["log", "wired the cache"], &[&["archive"]]);
    log.code(0);
    let md = t.plan_md();
    let (log, archive) = (
        md.find("\n## Log\n").unwrap(),
        md.find("\n## Archive\n").unwrap(),
    );
    assert!(
        md[log..archive].trim_end().ends_with("wired the cache"),
        "{md}"
    );
    assert_eq!(misplaced(&md), Vec::<String>::new(), "{md}");
}

/// A command that changes a goal's status or subtasks, paused while the goal is
/// cancelled and archived, or archived once done, writes nothing: exit 2.
#[test]
fn status_edits_and_ticks_racing_archive_write_nothing() {
    let cases: &[(&[&str], &[&[&str]])] = &[
        (
            &["reopen", "a", "--reason", "verify fails again"],
            &[&["archive"]],
        ),
        (
            &["start", "b", "--reapprove"],
            &[&["cancel", "b", "--reason", "dropped"], &["archive"]],
        ),
        (
            &["tick", "b", "1"],
            &[&["cancel", "b", "--reason", "dropped"], &["archive"]],
        ),
        (
            &["cancel", "b", "--reason", "not needed"],
            &[&["cancel", "b", "--reason", "dropped"], &["archive"]],
        ),
        (
            &["complete", "b", "--evidence", "written", "--judge", "none"],
            &[&["cancel", "b", "--reason", "dropped"], &["archive"]],
        ),
    ];
    for (command, between) in cases {
        let t = done_and_active();
        let (run, meanwhile) = race(&t, command, between);
        let id = command[1];
        let run = run.code(2);
        assert!(
            run.stderr.contains(&format!(
                "goal {id} was archived while plan was working; nothing was written"
            )) || run.stderr.contains(&format!(
                "goal {id} was archived while it was being checked"
            )),
            "plan {command:?}: {}",
            run.stderr
        );
        assert_eq!(t.plan_md(), meanwhile, "plan {command:?} wrote");
        assert_eq!(misplaced(&t.plan_md()), Vec::<String>::new());
    }
}

const ARCHIVED_CANCELLED: &str =
    "# Plan: Races\n\n## Log\n\n## Archive\n\n## Goal: A\n<!-- id: a -->\nstatus: cancelled\n";

/// Attack: a goal cancelled by hand and moved under `## Archive` by hand took a
/// second cancel, logged, exit 0.
#[test]
fn cancel_refuses_an_archived_goal_cancelled_by_hand() {
    let t = Test::new().plan(ARCHIVED_CANCELLED);
    t.case(&["cancel", "a", "--reason", "again"])
        .status(2)
        .stderr("plan: goal a is archived\n  hint: archived goals are a record; to work on one again, move its section back above `## Log` and plan reopen it\n")
        .check();
    assert_eq!(t.plan_md(), ARCHIVED_CANCELLED);
}

#[test]
fn cancel_refuses_an_archived_goal_it_cancelled() {
    let t = done_and_active();
    t.ok(&["cancel", "b", "--reason", "dropped"]);
    t.ok(&["archive"]);
    let before = t.plan_md();
    t.case(&["cancel", "b", "--reason", "again"])
        .status(2)
        .stderr("plan: goal b is archived\n  hint: archived goals are a record; to work on one again, move its section back above `## Log` and plan reopen it\n")
        .check();
    assert_eq!(t.plan_md(), before);
    assert_eq!(before.matches("b cancelled: ").count(), 1, "{before}");
}

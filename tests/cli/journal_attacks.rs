//! Attacks on the write journal and `plan doctor --fix`'s rebuild of a cut plan.md
//! (issue 70, item 2), found by the last stop's red team: the journal is anyone's
//! with a shell to write, so what it says is checked against git before it is
//! taken, and a plan cut at a line's end is found by what it lost.

use crate::util::Test;

const PLAN: &str = "# Plan: r\n\n## Goal: Alpha\n<!-- id: alpha -->\nstatus: open\ndone_when: alpha works\n\n## Goal: Person\n<!-- id: person -->\nstatus: open\ndone_when: the person says so\nNotes only a person wrote.\n\n## Log\n";

/// The journal is the agent's to write (it has a shell): pointing the last write's
/// `before` at a blob of its own makes the rebuild start from it. The person's
/// committed goal is dropped and `status: done` written in. Plan's own writes never
/// delete a goal heading, so a rebuild lacking one the last whole version had
/// should keep it or refuse.
#[test]
fn a_forged_journal_line_does_not_drop_a_committed_goal() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "honest line"]);
    let text = t.plan_md();
    let fake = text
        .split("## Goal: Person")
        .next()
        .unwrap()
        .replace("status: open", "status: done")
        + "## Log"
        + text.split_once("## Log").unwrap().1;
    t.write("fake.md", &fake);
    let blob = t.git(&["hash-object", "-w", "fake.md"]).trim().to_string();
    std::fs::remove_file(t.path("fake.md")).unwrap();
    let journal = t.path(".git/plan/events.jsonl");
    let lines = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = lines.lines().map(String::from).collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains("\"event\":\"written\""))
        .unwrap();
    let mut written: serde_json::Value = serde_json::from_str(&lines[last]).unwrap();
    written["before"] = serde_json::Value::String(blob);
    lines[last] = serde_json::to_string(&written).unwrap();
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    t.write("plan.md", &text[..70]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    assert!(after.contains("## Goal: Person"), "{after}");
    assert!(!after.contains("status: done"), "{after}");
}

/// plan.md cut at a line end to its title alone, as an editor's in-place save
/// leaves it for a moment: after a second of quiet, `plan log` and `plan add`
/// write on it (exit 0), and both goals and the log are gone with doctor finding
/// nothing. The journal's last acknowledged version had them: a write on a file
/// that lost what plan last wrote should wait or refuse.
#[test]
fn a_write_on_a_plan_cut_at_a_line_end_loses_no_goal() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "acknowledged"]);
    t.write("plan.md", "# Plan: r\n\n");
    std::thread::sleep(std::time::Duration::from_millis(1500));
    t.run(&["log", "during the cut"]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    for kept in ["## Goal: Alpha", "## Goal: Person", "acknowledged"] {
        assert!(after.contains(kept), "lost {kept}:\n{after}");
    }
}

/// The replay checks that a write removes no goal, but not what a kept version is
/// checked for: that it marks none done. A forged journal line appended after
/// plan's last write, a `whole` change (as `plan init` or a rebuild journals) of
/// the same plan with every goal `status: done` and the person's notes gone,
/// is replayed as it is when the file is next cut: `doctor --fix` signs off both
/// goals with no judge and drops the person's notes.
#[test]
fn a_forged_whole_journal_line_marks_no_goal_done() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "honest line"]);
    let text = t.plan_md();
    let fake = text
        .replace("status: open", "status: done")
        .replace("Notes only a person wrote.\n", "");
    let journal = t.path(".git/plan/events.jsonl");
    let lines = std::fs::read_to_string(&journal).unwrap();
    let last = lines
        .lines()
        .rfind(|l| l.contains("\"event\":\"written\""))
        .unwrap();
    let mut written: serde_json::Value = serde_json::from_str(last).unwrap();
    let obj = written.as_object_mut().unwrap();
    obj.remove("steps");
    obj.insert("before".into(), obj["after"].clone());
    obj.insert("whole".into(), serde_json::Value::String(fake.clone()));
    let blob = {
        t.write("fake.md", &fake);
        let b = t.git(&["hash-object", "fake.md"]).trim().to_string();
        std::fs::remove_file(t.path("fake.md")).unwrap();
        b
    };
    obj.insert("after".into(), serde_json::Value::String(blob));
    let forged = serde_json::to_string(&written).unwrap();
    std::fs::write(&journal, lines + &forged + "\n").unwrap();
    t.write("plan.md", &text[..70]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    assert!(after.contains("## Goal: Person"), "{after}");
    assert!(after.contains("Notes only a person wrote."), "{after}");
    assert!(!after.contains("status: done"), "{after}");
}

/// Where the rebuild starts is found by content: after the last journal line whose
/// `after` is the whole version's blob. One forged line appended, a no-op whose
/// `after` names the committed version, puts the start past every write plan
/// acknowledged since the commit: `doctor --fix` rebuilds from the commit alone,
/// and a goal `plan add` wrote (exit 0) and the log line after it are gone from
/// plan.md.
///
/// Held since 735a29c: the rebuild still starts from the commit alone, and the
/// writes it skipped are then found lacking (`lost-writes`: none of their lines
/// there, the next journal line made on another file) and made again by the same
/// `--fix`.
#[test]
fn a_forged_journal_line_does_not_skip_acknowledged_writes() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    let committed = t.git(&["rev-parse", "HEAD:plan.md"]).trim().to_string();
    t.ok(&["add", "Acknowledged", "--done-when", "it is there"]);
    t.ok(&["log", "acknowledged line"]);
    let text = t.plan_md();
    let journal = t.path(".git/plan/events.jsonl");
    let lines = std::fs::read_to_string(&journal).unwrap();
    let last = lines
        .lines()
        .rfind(|l| l.contains("\"event\":\"written\""))
        .unwrap();
    let mut written: serde_json::Value = serde_json::from_str(last).unwrap();
    let obj = written.as_object_mut().unwrap();
    obj.insert(
        "before".into(),
        serde_json::Value::String(committed.clone()),
    );
    obj.insert("after".into(), serde_json::Value::String(committed));
    obj.insert("steps".into(), serde_json::json!([]));
    let forged = serde_json::to_string(&written).unwrap();
    std::fs::write(&journal, lines + &forged + "\n").unwrap();
    t.write("plan.md", &text[..70]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    assert!(after.contains("## Goal: Acknowledged"), "{after}");
    assert!(after.contains("acknowledged line"), "{after}");
}

/// An editor's in-place save paused at a line's end inside the log (everything
/// but its last two lines there) loses no goal and keeps its `## Log`. After a second of quiet
/// `plan log` and `plan doctor --fix` still keep the two log lines plan
/// acknowledged (red team on 6de07f5: held, kept as a guard).
#[test]
fn a_plan_cut_inside_its_log_loses_no_acknowledged_line() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "first acknowledged"]);
    t.ok(&["log", "second acknowledged"]);
    t.ok(&["log", "third acknowledged"]);
    let text = t.plan_md();
    let cut = text
        .find("- ")
        .map(|i| i + text[i..].find('\n').unwrap() + 1);
    t.write("plan.md", &text[..cut.unwrap()]);
    std::thread::sleep(std::time::Duration::from_millis(1500));
    t.run(&["log", "during the cut"]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    for kept in ["second acknowledged", "third acknowledged"] {
        assert!(after.contains(kept), "lost {kept}:\n{after}");
    }
}

/// A kept version a journal line names is vouched for by the goals it keeps and
/// marks done, nothing else: one whose `before` is a blob of the agent's own, with
/// every goal but the person's `done_when` made `true`, their notes gone and their
/// goal cancelled, passes both checks. `doctor --fix` rebuilds from it and says it
/// kept someone else's edit.
#[test]
fn a_forged_kept_version_does_not_rewrite_a_persons_goal() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "honest line"]);
    let text = t.plan_md();
    let fake = text
        .replace(
            "status: open\ndone_when: the person says so\nNotes only a person wrote.\n",
            "status: cancelled\ndone_when: true\n",
        )
        .replace("done_when: alpha works", "done_when: true");
    assert_ne!(fake, text);
    t.write("fake.md", &fake);
    let blob = t.git(&["hash-object", "-w", "fake.md"]).trim().to_string();
    std::fs::remove_file(t.path("fake.md")).unwrap();
    let journal = t.path(".git/plan/events.jsonl");
    let lines = std::fs::read_to_string(&journal).unwrap();
    let mut lines: Vec<String> = lines.lines().map(String::from).collect();
    let last = lines
        .iter()
        .rposition(|l| l.contains("\"event\":\"written\""))
        .unwrap();
    let mut written: serde_json::Value = serde_json::from_str(&lines[last]).unwrap();
    written["before"] = serde_json::Value::String(blob);
    lines[last] = serde_json::to_string(&written).unwrap();
    std::fs::write(&journal, lines.join("\n") + "\n").unwrap();
    t.write("plan.md", &text[..70]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    assert!(after.contains("Notes only a person wrote."), "{after}");
    assert!(after.contains("done_when: the person says so"), "{after}");
    assert!(!after.contains("status: cancelled"), "{after}");
}

/// `plan log` paused after its first read while the file is cut in place at a
/// line's end to its first goal (an editor's truncating save, or an agent's):
/// resumed, the write neither takes the cut file as it is nor loses the person's
/// goal once `doctor --fix` has run (red team on 6de07f5: held, kept as a guard).
#[test]
fn a_write_racing_an_in_place_cut_loses_no_goal() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "acknowledged"]);
    let text = t.plan_md();
    let (child, gate) = t.spawn_paused(t.cmd(&["log", "racing"]));
    let cut = &text[..text.find("## Goal: Person").unwrap()];
    std::fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(t.path("plan.md"))
        .and_then(|mut f| std::io::Write::write_all(&mut f, cut.as_bytes()))
        .unwrap();
    std::fs::remove_file(&gate).unwrap();
    let _ = child.wait_with_output().unwrap();
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    for kept in [
        "## Goal: Person",
        "Notes only a person wrote.",
        "acknowledged",
    ] {
        assert!(after.contains(kept), "lost {kept}:\n{after}");
    }
}

/// `plan log` paused after its read while a person's editor renames a new version
/// over plan.md (their goal moved first, a goal of theirs added), then the file is
/// cut: `doctor --fix` keeps the person's edit and plan's write (red team on
/// 6de07f5: held, kept as a guard).
#[test]
fn a_write_racing_a_rename_keeps_the_persons_edit_through_a_rebuild() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.ok(&["log", "acknowledged"]);
    let text = t.plan_md();
    let (child, gate) = t.spawn_paused(t.cmd(&["log", "racing"]));
    let (head, rest) = text.split_once("## Goal: Alpha").unwrap();
    let (alpha, rest) = rest.split_once("## Goal: Person").unwrap();
    let (person, log) = rest.split_once("## Log").unwrap();
    let theirs = format!(
        "{head}## Goal: Person{person}## Goal: Added\n<!-- id: added -->\nstatus: open\ndone_when: theirs\n\n## Goal: Alpha{alpha}## Log{log}"
    );
    t.write("plan.md.new", &theirs);
    std::fs::rename(t.path("plan.md.new"), t.path("plan.md")).unwrap();
    std::fs::remove_file(&gate).unwrap();
    let _ = child.wait_with_output().unwrap();
    let now = t.plan_md();
    t.write("plan.md", &now[..70]);
    t.run(&["doctor", "--fix"]);
    let after = t.plan_md();
    for kept in [
        "## Goal: Person",
        "## Goal: Added",
        "Notes only a person wrote.",
        "acknowledged",
        "racing",
    ] {
        assert!(after.contains(kept), "lost {kept}:\n{after}");
    }
}

//! A cut plan.md brought back (issue 70, item 2): every write plan acknowledged is
//! in its journal under the git directory, and `plan doctor --fix` rebuilds a cut
//! plan.md from the last whole version in git and those writes, keeping the cut
//! file beside it under a name it prints.

use crate::util::Test;

pub(crate) const PLAN: &str = "# Plan: x\n\n## Goal: Alpha\n<!-- id: alpha -->\nstatus: open\ndone_when: alpha works\n- [ ] alpha one\n- [ ] alpha two\n\n## Goal: Beta\n<!-- id: beta -->\nstatus: open\ndone_when: beta works\n- [ ] beta one\n\n## Log\n- 2026-06-15 14:00 started the plan\n";

/// Acknowledged writes after the commit: a goal added, a goal started, a tick, a
/// subtask and log lines. Returns the log lines they wrote, by their text.
pub(crate) fn acknowledged_writes(t: &Test) -> Vec<&'static str> {
    t.ok(&["add", "Gamma", "--done-when", "gamma works"]);
    t.ok(&["start", "alpha"]);
    t.ok(&["tick", "alpha", "1"]);
    t.ok(&["subtask", "beta", "beta two"]);
    t.ok(&["log", "first acknowledged line"]);
    t.ok(&["log", "second acknowledged line"]);
    vec![
        "gamma added",
        "alpha started",
        "first acknowledged line",
        "second acknowledged line",
    ]
}

/// An editor's in-place save of `text` that stopped at half its bytes (what a merge
/// overlapping the save committed in the soak): plan.md is left holding the first half.
fn cut_save(t: &Test, text: &str) -> String {
    let mut half = text.len() / 2;
    while !text.is_char_boundary(half) {
        half -= 1;
    }
    let cut = text[..half].to_string();
    t.write("plan.md", &cut);
    cut
}

/// The files beside plan.md whose names start with `plan.md.cut`.
fn kept_copies(t: &Test) -> Vec<String> {
    kept_beside(t, "plan.md.cut")
}

/// The files beside plan.md whose names start with `prefix`, sorted.
pub(crate) fn kept_beside(t: &Test, prefix: &str) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(t.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix))
        .collect();
    names.sort();
    names
}

fn assert_has_every_write(md: &str, logged: &[&str]) {
    for line in logged {
        assert!(md.contains(line), "lost {line:?}:\n{md}");
    }
    assert!(md.contains("## Goal: Gamma"), "lost the added goal:\n{md}");
    assert!(md.contains("- [x] alpha one"), "lost the tick:\n{md}");
    assert!(md.contains("- [ ] beta two"), "lost the subtask:\n{md}");
    assert!(md.contains("status: active"), "lost the start:\n{md}");
    assert!(md.ends_with('\n') && md.contains("\n## Log\n"), "{md}");
}

/// Attack: a merge overlapping an editor's in-place save committed the first half of
/// the save; plan then refused every write (right), but the writes it had
/// acknowledged were gone from plan.md and `plan doctor --fix` could not bring them
/// back (it tried to add a `## Log` to the cut file and was refused, exit 3). Failed
/// before. Now doctor names the cut, and `--fix` rebuilds plan.md from the last whole
/// commit and the journaled writes, shows the diff, and keeps the cut file.
#[test]
fn a_plan_cut_mid_save_and_committed_is_rebuilt_with_every_acknowledged_write() {
    let t = Test::new().plan(PLAN);
    t.commit_all("whole");
    let logged = acknowledged_writes(&t);
    let written = t.plan_md();
    // The person's save: a note under the objective, then the file as plan left it.
    let theirs = written.replacen("# Plan: x\n", "# Plan: x\nA note the person wrote.\n", 1);
    let cut = cut_save(&t, &theirs);
    t.commit_all("merge that took a cut plan.md");
    assert_eq!(t.run(&["log", "refused"]).code, 3, "a cut file is refused");

    let doctor = t.run(&["doctor"]);
    assert_eq!(doctor.code, 1, "{}{}", doctor.stdout, doctor.stderr);
    assert!(doctor.stdout.contains("[cut-file]"), "{}", doctor.stdout);
    assert!(
        doctor.stdout.contains("plan doctor --fix"),
        "{}",
        doctor.stdout
    );
    assert_eq!(t.plan_md(), cut, "doctor alone writes nothing");

    let fix = t.run(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert_has_every_write(&md, &logged);
    assert_eq!(md, written, "the whole file plan last wrote, rebuilt");
    let kept = kept_copies(&t);
    assert_eq!(kept.len(), 1, "{kept:?}\n{}{}", fix.stdout, fix.stderr);
    assert_eq!(
        t.read(&kept[0]),
        cut,
        "the person's bytes are kept as they were"
    );
    assert!(
        fix.stdout.contains(&kept[0]),
        "the kept copy is named: {}",
        fix.stdout
    );
    // The diff from the cut file to the rebuilt one is shown.
    assert!(
        fix.stdout
            .contains("+- 2026-06-15 14:02 second acknowledged line"),
        "{}",
        fix.stdout
    );
    assert!(
        fix.stdout.contains("-A note the person wrote."),
        "{}",
        fix.stdout
    );
    assert_eq!(fix.code, 0, "{}{}", fix.stdout, fix.stderr);
    // Writes go through again, and a second doctor finds nothing cut.
    t.ok(&["log", "after the repair"]);
    let again = t.run(&["doctor"]);
    assert!(!again.stdout.contains("cut-file"), "{}", again.stdout);
}

/// The cut in the work tree only, with a commit between the writes: the writes
/// before that commit are in it and are not replayed twice; the ones after it are
/// brought back.
#[test]
fn a_plan_cut_in_the_work_tree_is_rebuilt_from_head_and_the_writes_since() {
    let t = Test::new().plan(PLAN);
    t.commit_all("whole");
    t.ok(&["log", "before the second commit"]);
    t.commit_all("second");
    let logged = acknowledged_writes(&t);
    let written = t.plan_md();
    let cut = cut_save(&t, &written);
    t.ok(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert_has_every_write(&md, &logged);
    assert_eq!(md, written);
    assert_eq!(md.matches("before the second commit").count(), 1, "{md}");
    let kept = kept_copies(&t);
    assert_eq!(kept.len(), 1);
    assert_eq!(t.read(&kept[0]), cut);
}

/// A person's edit saved whole between two of plan's writes is in no commit and is
/// no write of plan's. Attack: the rebuild replayed plan's writes on the last whole
/// commit and dropped the edit (a subtask the person typed). Failed before. Now a
/// write made on someone else's edit keeps that version (a blob in git's object
/// database), and the rebuild starts from it.
#[test]
fn a_hand_edit_that_plan_wrote_on_is_kept_by_the_rebuild() {
    let t = Test::new().plan(PLAN);
    t.commit_all("whole");
    t.ok(&["log", "before the edit"]);
    let edited = t.plan_md().replace(
        "- [ ] beta one\n",
        "- [ ] beta one\n- [ ] a subtask the person typed\n",
    );
    // Saved by rename, as most editors save: whole.
    t.write("plan.md.save", &edited);
    std::fs::rename(t.path("plan.md.save"), t.path("plan.md")).unwrap();
    t.ok(&["log", "after the edit"]);
    t.ok(&["tick", "alpha", "1"]);
    let written = t.plan_md();
    let cut = cut_save(&t, &written);
    let fix = t.run(&["doctor", "--fix"]);
    assert_eq!(t.plan_md(), written, "{}{}", fix.stdout, fix.stderr);
    assert_eq!(fix.code, 0, "{}{}", fix.stdout, fix.stderr);
    assert_eq!(t.read(&kept_copies(&t)[0]), cut);
}

/// Attack (the soak, `--mend doctor`): a commit taken mid-merge holds git's conflict
/// markers around two whole plans; it ends its last line and has a `## Log`, so the
/// rebuild took it for the last whole version and wrote two plans in one (400 goal
/// headings of 200). Failed before. Now a version with markers is not whole: the
/// rebuild starts from the commit before it.
#[test]
fn a_commit_with_conflict_markers_is_not_what_a_cut_file_is_rebuilt_from() {
    let t = Test::new().plan(PLAN);
    t.commit_all("whole");
    t.ok(&["log", "one"]);
    let ours = t.plan_md();
    let theirs = format!("{ours}- 2026-06-15 14:02 theirs\n");
    let marked = format!("<<<<<<< ours\n{ours}=======\n{theirs}>>>>>>> theirs\n");
    t.write("plan.md", &marked);
    t.commit_all("taken mid-merge");
    // An editor's save of it, cut inside the line before the first `## Log`.
    t.write("plan.md", &marked[..marked.find("## Log").unwrap() - 3]);
    let fix = t.run(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert!(
        !md.contains("<<<<<<<"),
        "{md}\n{}{}",
        fix.stdout,
        fix.stderr
    );
    assert_eq!(md, ours, "{}{}", fix.stdout, fix.stderr);
}

/// Attack (the six-writer soak, `--mend doctor`): a merge resolved by keeping both
/// sides left two whole plans in one file, no markers, and it was committed; it
/// ends its last line and has a `## Log`, so the rebuild of a later cut took it for
/// the last whole version and wrote 4,000 goal headings of 2,000, two `# Plan:`
/// lines, which every write then refused. Failed before. Now a version with a
/// second `# Plan:` line is not whole: the rebuild starts from the commit before it.
#[test]
fn a_commit_of_two_plans_in_one_is_not_what_a_cut_file_is_rebuilt_from() {
    let t = Test::new().plan(PLAN);
    t.commit_all("whole");
    t.ok(&["log", "one"]);
    let ours = t.plan_md();
    t.write("plan.md", format!("{ours}{ours}"));
    t.commit_all("both sides kept");
    t.write("plan.md", &ours[..ours.find("## Goal: Beta").unwrap() - 3]);
    let fix = t.run(&["doctor", "--fix"]);
    let md = t.plan_md();
    assert_eq!(
        md.matches("# Plan:").count(),
        1,
        "{md}\n{}{}",
        fix.stdout,
        fix.stderr
    );
    assert_eq!(md, ours, "{}{}", fix.stdout, fix.stderr);
}

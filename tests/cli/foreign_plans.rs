//! A plan written for another tool (checklists, phase headings, status words) in
//! plan.md reads as no goals; `show`, `lint`, `doctor` and the injection say what
//! is there and that plan does not read it, in one line, instead of "no goals".

use crate::util::{Test, redact, shown};

/// The shape of planning-with-files' task_plan.md and of PLAN.md/TODO.md styles.
const FOREIGN: &str = "# Task Plan: Local summaries

## Goal
Summaries run locally.

## Phases
### Phase 1: Runtime
**Status:** complete
- [x] pick the runtime
- [x] wire the process

### Phase 2: Tests
- [in_progress] add tests
- [ ] document it

```
- [ ] not an item: inside a code fence
```
";

const LINE: &str = "plan.md holds 3 checklist items, 4 phase or task headings and 2 status lines plan does not read as goals: a goal is a `## Goal: TITLE` heading (`plan add TITLE` writes one); `plan import plan.md` turns them into goals";

#[test]
fn a_foreign_plan_is_named_instead_of_no_goals() {
    let t = Test::new().plan(FOREIGN);
    t.case(&["show"])
        .stdout(&format!("Plan\n\n{LINE}\n"))
        .check();
    t.case(&["lint"])
        .stdout(&format!("plan.md: warning: no `# Plan: <objective>` line [no-objective]\n  hint: add one at the top: it is the first thing the agent reads\nplan.md: warning: no `## Log` section [no-log]\n  hint: `plan log TEXT` creates it; `plan doctor --fix` adds it\n\nplan.md: 0 problems, 2 warnings\n{LINE}\n"))
        .check();
    t.case(&["doctor"])
        .status(1)
        .stdout(&format!("plan.md: warning: no `## Log` section [no-log]\n  fix: plan doctor --fix adds it\n\n1 finding, 1 fixable with plan doctor --fix\n{LINE}\n"))
        .check();
    t.case(&["inject"])
        .stdout(&format!(
            "plan.md: (no objective). No goal is active; none is ready to start.\n{LINE}.\n"
        ))
        .check();
    // plan's own plan with no goal yet still reads as before.
    let t = Test::new().plan("# Plan: Ship\n\n## Log\n");
    t.case(&["show"])
        .stdout("Plan: Ship\n\nno goals yet · plan add TITLE\n")
        .check();
}

/// `plan import plan.md` reads the foreign plan itself (detected as Markdown):
/// each phase with items is a goal, its items the subtasks, its `**Status:**` or
/// ticks its status; approving adds the goals and keeps every byte of the old
/// text. Before, `plan import` refused anything but JSON.
#[test]
fn plan_md_itself_imports_through_the_usual_review() {
    let t = Test::new().plan(FOREIGN);
    let before = t.plan_md();
    insta::assert_snapshot!(redact(&t, &t.ok(&["import", "plan.md"]).stdout));
    // The original text is kept with the proposal until the review is done.
    let json = t.ok(&["review", "--json"]).json();
    assert_eq!(json["import"]["original"], before.as_str());
    assert_eq!(t.plan_md(), before, "nothing is written before approval");
    insta::assert_snapshot!(redact(&t, &t.ok(&["review", "--approve"]).stdout));
    let after = t.plan_md();
    for line in before.lines() {
        assert!(after.contains(line), "lost: {line}");
    }
    let json = t.ok(&["show", "--json"]).json();
    assert_eq!(json["goals"].as_array().unwrap().len(), 2);
    t.ok(&["lint"]);
}

/// A TODO checklist and spec-kit's tasks.md, detected by their text; prose with
/// nothing plan could call a step is refused (exit 2), saying what to write.
#[test]
fn markdown_checklists_import_and_prose_is_refused() {
    let t = Test::new();
    t.write(
        "TODO.md",
        "# TODO\n\n- [x] Ship the parser\n- [ ] Write docs\n  - [x] intro\n  - [ ] usage\n- [ ] Fix flaky test\n",
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["import", "TODO.md"]).stdout));
    t.write(
        "specs/001/tasks.md",
        "# Tasks: Albums\n\n## Phase 1: Setup\n\n- [x] T001 Create project structure\n- [x] T002 [P] Configure linting\n\n## Phase 2: User Story 1 (Priority: P1)\n\n- [ ] T003 [P] [US1] Album model\n- [ ] T004 [US1] Album service\n",
    );
    insta::assert_snapshot!(redact(
        &t,
        &t.ok(&["import", "specs/001/tasks.md", "--from", "markdown"])
            .stdout
    ));
    t.write("NOTES.md", "# Notes\n\nWe should make it faster.\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["import", "NOTES.md"]).code(2)));
}

/// Status words other tools write are mapped by `doctor --fix`, and a finished
/// one never to done (only a sign-off, or an import that says so, makes done).
/// Before, `complete` and `in_progress` were unknown-status errors doctor left.
#[test]
fn doctor_fix_maps_common_status_words_never_to_done() {
    let t = Test::new().plan(
        "# Plan: Ship\n\n## Goal: A\n<!-- id: a -->\nstatus: complete\ndone_when: x\n\n## Goal: B\n<!-- id: b -->\nstatus: in_progress\ndone_when: y\n\n## Goal: C\n<!-- id: c -->\nstatus: todo\ndone_when: z\n\n## Goal: D\n<!-- id: d -->\nstatus: blocked\ndone_when: w\n\n## Log\n",
    );
    t.run(&["lint"]).code(1);
    t.ok(&["doctor", "--fix"]);
    let md = t.plan_md();
    for (id, status) in [
        ("a", "active"),
        ("b", "active"),
        ("c", "open"),
        ("d", "open"),
    ] {
        assert!(
            md.contains(&format!("<!-- id: {id} -->\nstatus: {status}\n")),
            "{id}: {md}"
        );
    }
    assert!(!md.contains("status: done"));
    t.ok(&["lint"]);
}

/// A goal imported as done reads as imported in the injection and the status
/// line, as `show` and `review --approve` say it: `done (imported from FILE, not
/// signed off by plan)`. Before, both called it "marked done by hand" / unproven.
#[test]
fn a_goal_imported_as_done_reads_as_imported_in_the_injection_and_status_line() {
    let t = Test::new().plan("# Plan: Ship\n\n## Log\n");
    t.write(
        "prd.json",
        r#"{"userStories": [{"id": "US-1", "title": "Done one", "acceptanceCriteria": ["x"], "passes": true}, {"id": "US-2", "title": "Next", "acceptanceCriteria": ["y"], "passes": false}]}"#,
    );
    t.ok(&["import", "prd.json"]);
    t.ok(&["review", "--approve"]);
    let inject = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(redact(&t, &inject));
    t.case(&["statusline"])
        .stdout("plan: 1 ready · none active · 1 imported as done\n")
        .check();
    let json = t.ok(&["statusline", "--json"]).json();
    assert_eq!(json["unproven"], 0);
    assert_eq!(json["imported"], 1);
    // A goal marked done by hand still reads as such beside it.
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: done"),
    );
    let inject = t.ok(&["inject"]).stdout;
    insta::assert_snapshot!(redact(&t, &inject));
}

/// Issue 71, item 4: `plan init` on another tool's plan.md says how to import it;
/// after `plan add` wrote a goal into it, `plan import plan.md` still reads the
/// file's items and phases by their shape, and does not import plan's own goal
/// again. Before, init hinted only `plan add`, and the import duplicated the new
/// goal and dropped the 4 checklist items and 2 phases unsaid.
#[test]
fn a_foreign_plan_md_with_goals_plan_wrote_imports_by_its_shape() {
    let t = Test::new().plan(FOREIGN);
    let init = t.run(&["init"]).code(2);
    insta::assert_snapshot!(shown(&t, &init));
    t.ok(&["add", "Ship it", "--done-when", "it ships"]);
    let before = t.plan_md();
    insta::assert_snapshot!(redact(&t, &t.ok(&["import", "plan.md"]).stdout));
    let json = t.ok(&["review", "--json"]).json();
    let draft = json["draft"].as_str().unwrap();
    assert!(!draft.contains("Ship it"), "{draft}");
    assert!(draft.contains("document it"), "{draft}");
    t.ok(&["review", "--approve"]);
    let after = t.plan_md();
    assert_eq!(after.matches("## Goal: Ship it").count(), 1, "{after}");
    for line in before.lines() {
        assert!(after.contains(line), "lost: {line}");
    }
}

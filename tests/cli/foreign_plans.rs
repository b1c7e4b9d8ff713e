//! A plan written for another tool (checklists, phase headings, status words) in
//! plan.md reads as no goals; `show`, `lint`, `doctor` and the injection say what
//! is there and that plan does not read it, in one line, instead of "no goals".

use crate::util::Test;

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

const LINE: &str = "plan.md holds 3 checklist items, 4 phase or task headings and 2 status lines plan does not read as goals: a goal is a `## Goal: TITLE` heading (`plan add TITLE` writes one; `plan import` reads JSON plans, not Markdown)";

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

//! An import proposal checked and, once approved, turned into the one set of edits
//! that adds its goals to plan.md: fresh ids where the proposed ones are taken, the
//! status each goal came with, and a log event for each (a done goal's says it was
//! imported, which no proof check takes for a sign-off). Checked with plan.md's own
//! rules, not a draft's stricter ones. Pure: the clock comes as a stamp.

use std::collections::HashMap;

use crate::plan::checks::{self, VerifyCheck};
use crate::plan::diag::Diagnostic;
use crate::plan::draft::{CheckedText, approval_log, settle, stage};
use crate::plan::event::Event;
use crate::plan::id;
use crate::plan::model::{Status, parse};
use crate::plan::ops::{self, one_line};
use crate::plan::patch::Edit;
use crate::plan::scan::Kind;

/// How problems name the proposal's text.
pub const NAME: &str = "import";

/// The proposal's text and what plan.md's rules say about it.
pub type Checked = CheckedText;

/// Checks the goals in `text` as plan.md would: its format errors, and each goal's
/// contract with the severity the rule table gives a goal of that status (a missing
/// failure mode is a warning; a done goal's contract is not judged).
pub fn check(text: &str, verify: VerifyCheck<'_>) -> Checked {
    let plan = parse(text);
    let mut problems = plan.errors.clone();
    if plan.goals.is_empty() {
        problems.push(Diagnostic::error(0, "the import has no goals"));
    }
    for goal in &plan.goals {
        let mut hits = Vec::new();
        checks::contract(goal, &goal.id, verify, &mut hits);
        problems.extend(
            hits.iter()
                .filter_map(|hit| Some(hit.diagnostic(hit.severity()?))),
        );
    }
    problems.sort_by_key(|d| d.line);
    Checked {
        name: NAME,
        text: text.to_string(),
        problems,
    }
}

/// How an approved import lands.
pub struct Landing<'a> {
    /// Becomes `# Plan:` when plan.md has none.
    pub objective: &'a str,
    /// The objective is the source's own (not plan's words for an import that
    /// named none): where plan.md has another, the approval's log line keeps it,
    /// so nothing the source said is dropped.
    pub stated: bool,
    /// The tool and file, for the log: `taskmaster .taskmaster/tasks/tasks.json`.
    pub from: &'a str,
    /// `YYYY-MM-DD HH:MM`.
    pub stamp: &'a str,
    /// HEAD, for the started events.
    pub commit: Option<&'a str>,
}

/// A goal the approval added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    pub id: String,
    /// The id the proposal gave it, when plan.md already had that one.
    pub proposed: Option<String>,
    pub status: Status,
}

pub struct Landed {
    pub text: String,
    pub edits: Vec<Edit>,
    pub added: Vec<Added>,
}

/// Adds the goals of `text` (checked, without errors) to `src`.
pub fn approve(src: &str, text: &str, how: &Landing<'_>) -> Landed {
    let plan = parse(src);
    let mut edits = Vec::new();
    if plan.objective.is_none() {
        let title = format!("# Plan: {}", one_line(how.objective));
        edits.push(Edit::insert_after(0, "", vec![title, String::new()]));
    }
    let mut out = stage(src, &edits);

    let plan = parse(&out);
    let incoming = parse(text);
    let mut ids: HashMap<&str, String> = HashMap::new();
    let mut taken = id::Taken::default();
    for goal in &plan.goals {
        taken.insert(&goal.id);
    }
    for goal in &incoming.goals {
        // An id the log still names (a goal deleted by hand) is not given again:
        // its old events would be read as the new goal's.
        let id = taken.free(&goal.id, |c| plan.events(c).next().is_some());
        taken.insert(&id);
        ids.insert(goal.id.as_ref(), id);
    }
    let mut block: Vec<String> = Vec::new();
    let mut added = Vec::new();
    for (i, goal) in incoming.goals.iter().enumerate() {
        let id = ids[goal.id.as_ref()].clone();
        if i > 0 {
            block.push(String::new());
        }
        block.extend(
            ops::NewGoal {
                title: goal.title.to_string(),
                id: id.clone(),
                status: Some(goal.status()),
                done_when: goal.done_when().map(str::to_string),
                verify: goal.verify().map(str::to_string),
                depends_on: goal
                    .depends_on
                    .iter()
                    .map(|d| ids.get(d).cloned().unwrap_or_else(|| d.to_string()))
                    .collect(),
                failure_modes: goal
                    .failure_modes
                    .iter()
                    .map(|f| f.value.to_string())
                    .collect(),
                subtasks: Vec::new(),
            }
            .lines(),
        );
        // Not part of the contract, so not a NewGoal field: kept after its status.
        if let Some(budget) = goal.budget() {
            let at = block.len()
                - block
                    .iter()
                    .rev()
                    .position(|l| l.starts_with("status: "))
                    .unwrap_or(0);
            block.insert(at, format!("budget: {budget}"));
        }
        block.extend(goal.subtasks.iter().map(|s| {
            let mark = if s.done { 'x' } else { ' ' };
            format!("- [{mark}] {}", one_line(s.text))
        }));
        block.extend(
            (goal.line..=goal.end)
                .filter(|&no| {
                    matches!(incoming.lines[no - 1].kind, Kind::Other)
                        && incoming.line_text(no).starts_with('>')
                })
                .map(|no| incoming.line_text(no).to_string()),
        );
        added.push(Added {
            proposed: (id != goal.id.as_ref()).then(|| goal.id.to_string()),
            id,
            status: goal.status(),
        });
    }
    out = stage(&out, &[ops::insert_goal(&plan, block)]);

    let plan = parse(&out);
    let from = one_line(how.from);
    let list: Vec<&str> = added.iter().map(|a| a.id.as_str()).collect();
    let noun = if list.len() == 1 { "goal" } else { "goals" };
    let aside = match &plan.objective {
        Some(ours) if how.stated && one_line(ours.value) != one_line(how.objective) => {
            format!(" for \"{}\"", one_line(how.objective))
        }
        _ => String::new(),
    };
    let summary = format!(
        "{} {noun} ({}) imported from {from}{aside}",
        list.len(),
        list.join(", ")
    );
    let cancelled = format!("cancelled in {from}");
    let edits = approval_log(&plan, how.stamp, &summary, &list, |i, fingerprint| {
        let goal = &added[i];
        let event = match goal.status {
            Status::Active => Event::Started {
                id: &goal.id,
                contract: fingerprint,
                commit: how.commit,
                verify: None,
            },
            Status::Done => Event::Imported {
                id: &goal.id,
                from: &from,
            },
            Status::Cancelled => Event::Cancelled {
                id: &goal.id,
                reason: &cancelled,
            },
            Status::Open => return None,
        };
        Some(ops::event(how.stamp, &event))
    });
    out = stage(&out, &edits);
    let (text, edits) = settle(src, &out);
    Landed { text, edits, added }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::checks::any_verify;
    use crate::plan::diag::Severity;
    use crate::plan::lint::lint;
    use crate::plan::patch::apply;

    const IMPORT: &str = "## Goal: Base
<!-- id: base -->
status: done
done_when: tests pass
- [x] one
> task 1 in task-master
> - [ ] a quoted line

## Goal: Next
<!-- id: next -->
status: open
done_when: after base
depends_on: base
- [ ] two
";

    #[test]
    fn missing_failure_modes_are_warnings_and_do_not_block() {
        let c = check(IMPORT, &any_verify);
        assert!(c.is_ok(), "{:?}", c.problems);
        let rules: Vec<&str> = c.problems.iter().map(|d| d.rule.unwrap().id()).collect();
        assert_eq!(rules, ["no-failure-modes"], "only the open goal is judged");
        assert_eq!(c.problems[0].severity, Severity::Warning);
        let broken = IMPORT.replace("done_when: after base\n", "");
        assert!(!check(&broken, &any_verify).is_ok());
    }

    #[test]
    fn an_id_the_log_still_names_is_not_given_again() {
        // `x` was signed off and then deleted by hand: its events stay in the log.
        let src = "# Plan: Mine\n\n## Log\n- 2026-06-01 10:00 x added (contract 0123abcd)\n- 2026-06-01 11:00 x signed off (no verify, judge skipped, contract 0123abcd): .plan/judge/x.md#0123abcd\n";
        let text = "## Goal: X\n<!-- id: x -->\nstatus: done\ndone_when: y\n";
        let how = Landing {
            objective: "o",
            stated: false,
            from: "todos t.json",
            stamp: "2026-06-15 14:00",
            commit: None,
        };
        let landed = approve(src, text, &how);
        assert_eq!(landed.added[0].id, "x-2");
        assert_eq!(landed.added[0].proposed.as_deref(), Some("x"));
    }

    #[test]
    fn approval_keeps_statuses_renames_taken_ids_and_logs_the_import() {
        let src = "# Plan: Mine\n\n## Goal: Base\n<!-- id: base -->\nstatus: active\ndone_when: x\n\n## Log\n";
        let how = Landing {
            objective: "task-master tag master",
            stated: true,
            from: "taskmaster tasks.json",
            stamp: "2026-06-15 14:00",
            commit: None,
        };
        let landed = approve(src, IMPORT, &how);
        assert_eq!(apply(src, &landed.edits).unwrap(), landed.text);
        let mut plan = parse(&landed.text);
        assert_eq!(plan.errors, []);
        assert!(landed.text.starts_with("# Plan: Mine\n"));
        let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
        assert_eq!(ids, ["base", "base-2", "next"]);
        assert_eq!(landed.added[0].proposed.as_deref(), Some("base"));
        let imported = plan.goal("base-2").unwrap();
        assert_eq!(imported.status(), Status::Done);
        assert!(imported.subtasks[0].done);
        assert_eq!(plan.goal("next").unwrap().depends_on, ["base-2"]);
        assert!(
            landed
                .text
                .contains("- [x] one\n> task 1 in task-master\n> - [ ] a quoted line\n")
        );
        let log: Vec<&str> = plan.log.iter().map(|e| e.text).collect();
        assert_eq!(
            log[0],
            "draft approved: 2 goals (base-2, next) imported from taskmaster tasks.json for \"task-master tag master\""
        );
        assert!(log.contains(&"base-2 imported as done from taskmaster tasks.json"));
        plan.prove(&|_| crate::plan::proof::Facts::Missing);
        let proof = plan.proof(plan.goal("base-2").unwrap());
        assert!(!proof.is_proven());
        assert_eq!(
            proof.imported_label().as_deref(),
            Some("done (imported from taskmaster tasks.json, not signed off by plan)")
        );
        // Another tool's history is no error: only the usual warnings remain.
        let problems = lint(&plan);
        assert!(
            problems.iter().all(|d| d.severity != Severity::Error),
            "{problems:?}"
        );
    }
}

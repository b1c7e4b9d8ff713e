//! The edits the commands make, computed from a parsed plan: status moves, id
//! comments, log lines, new goals, ticks, archiving. Pure.

use super::event::Event;
use super::model::{Goal, Plan, Status};
use super::patch::Edit;
use super::scan::Kind;

/// A refused operation: what went wrong and what to do instead.
#[derive(Debug, PartialEq, Eq)]
pub struct Refusal {
    pub message: String,
    pub hint: String,
}

pub fn refuse(message: impl Into<String>, hint: impl Into<String>) -> Refusal {
    Refusal {
        message: message.into(),
        hint: hint.into(),
    }
}

pub use super::text::{one_line, one_line_command};

/// The id comment a goal written by hand lacks, inserted under its heading, so the
/// id survives a later rename of the title.
pub fn id_comment(plan: &Plan<'_>, goal: &Goal<'_>) -> Vec<Edit> {
    if goal.id_line.is_some() {
        return Vec::new();
    }
    vec![Edit::insert_after(
        goal.line,
        plan.line_text(goal.line),
        vec![format!("<!-- id: {} -->", goal.id)],
    )]
}

/// Where a new contract line of `goal` goes: under the last of heading, id, status.
fn field_anchor(goal: &Goal<'_>) -> usize {
    [
        Some(goal.line),
        goal.id_line,
        goal.status.as_ref().map(|f| f.line),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(goal.line)
}

/// Sets `status:`, adding the line (and the id comment) when missing.
pub fn set_status(plan: &Plan<'_>, goal: &Goal<'_>, to: Status) -> Vec<Edit> {
    let mut edits = id_comment(plan, goal);
    let line = format!("status: {}", to.as_str());
    match &goal.status {
        Some(field) => edits.push(Edit::replace(field.line, plan.line_text(field.line), line)),
        None => {
            let at = goal.id_line.unwrap_or(goal.line);
            edits.push(Edit::insert_after(at, plan.line_text(at), vec![line]));
        }
    }
    edits
}

/// May `goal` move to `to`? Status only moves forward.
pub fn check_transition(goal: &Goal<'_>, to: Status) -> Result<(), Refusal> {
    let id = &goal.id;
    let from = goal.status();
    let reopen = format!("to work on it again: plan reopen {id} --reason TEXT");
    if goal.archived {
        return Err(refuse(
            format!("goal {id} is archived"),
            format!(
                "archived goals are a record; to work on one again: plan reopen {id} --reason TEXT (it moves back above `## Log`)"
            ),
        ));
    }
    match (from, to) {
        (Status::Open, Status::Active | Status::Done | Status::Cancelled) => Ok(()),
        (Status::Active, Status::Done | Status::Cancelled) => Ok(()),
        (Status::Active, Status::Active) => Err(refuse(
            format!("goal {id} is already active"),
            format!(
                "after changing its contract, `plan start {id} --reapprove` records the new one"
            ),
        )),
        (Status::Done | Status::Cancelled, _) => {
            Err(refuse(format!("goal {id} is {}", from.as_str()), reopen))
        }
        (_, Status::Open) => Err(refuse(
            format!("goal {id} cannot move back to open"),
            "status moves forward only: open → active → done or cancelled",
        )),
    }
}

/// Subtasks and criteria belong to goals still being worked.
pub fn check_open(goal: &Goal<'_>, action: &str) -> Result<(), Refusal> {
    let status = goal.status();
    if goal.archived || status.is_finished() {
        return Err(refuse(
            format!(
                "goal {} is {}",
                goal.id,
                if goal.archived {
                    "archived"
                } else {
                    status.as_str()
                }
            ),
            format!(
                "only open or active goals change; to {action}, first plan reopen {} --reason TEXT",
                goal.id
            ),
        ));
    }
    Ok(())
}

/// A change that logs a new contract must not launder an unreviewed hand edit:
/// the contract in the file must be the one the log approved last.
pub fn check_approved(plan: &Plan<'_>, goal: &Goal<'_>) -> Result<(), Refusal> {
    let Some(logged) = plan.unapproved(goal) else {
        return Ok(());
    };
    let id = &goal.id;
    Err(refuse(
        format!(
            "the contract of {id} changed since it was logged (contract {logged}, now {})",
            goal.fingerprint()
        ),
        format!("review it (plan diff {id}), then `plan start {id} --reapprove`"),
    ))
}

/// A log entry, appended at the end of `## Log`.
pub fn log(stamp: &str, text: &str) -> Edit {
    Edit::AppendLog {
        lines: vec![format!("- {stamp} {}", one_line(text))],
    }
}

/// One of plan's own events, appended to the log.
pub fn event(stamp: &str, event: &Event<'_>) -> Edit {
    log(stamp, &event.render())
}

/// Unmet dependencies refuse a start or a sign-off.
pub fn check_dependencies(plan: &Plan<'_>, goal: &Goal<'_>, action: &str) -> Result<(), Refusal> {
    let unmet = plan.unmet_dependencies(goal);
    if unmet.is_empty() {
        return Ok(());
    }
    Err(refuse(
        format!(
            "goal {} waits on {} (not done or cancelled)",
            goal.id,
            unmet.join(", ")
        ),
        format!("finish those before you {action} it; `plan next` lists the goals ready now"),
    ))
}

/// A new goal, as `plan add` and drafts write it.
#[derive(Debug, Default)]
pub struct NewGoal {
    pub title: String,
    pub id: String,
    pub status: Option<Status>,
    pub done_when: Option<String>,
    pub verify: Option<String>,
    pub depends_on: Vec<String>,
    pub failure_modes: Vec<String>,
    pub subtasks: Vec<String>,
}

impl NewGoal {
    pub fn lines(&self) -> Vec<String> {
        let mut out = vec![
            format!("## Goal: {}", one_line(&self.title)),
            format!("<!-- id: {} -->", self.id),
            format!("status: {}", self.status.unwrap_or(Status::Open).as_str()),
        ];
        if let Some(d) = &self.done_when {
            out.push(format!("done_when: {}", one_line(d)));
        }
        if let Some(v) = &self.verify {
            out.push(format!("verify: {}", one_line_command(v)));
        }
        if !self.depends_on.is_empty() {
            out.push(format!("depends_on: {}", self.depends_on.join(", ")));
        }
        if !self.failure_modes.is_empty() {
            out.push("failure_modes:".to_string());
            out.extend(
                self.failure_modes
                    .iter()
                    .map(|m| format!("- {}", one_line(m))),
            );
        }
        out.extend(
            self.subtasks
                .iter()
                .map(|t| format!("- [ ] {}", one_line(t))),
        );
        out
    }
}

/// Inserts a goal block after the last live goal, else before `## Log` /
/// `## Archive`, else at the end; with a blank line on either side. Placed in
/// `plan` as read: a write that may race others uses [`Edit::AppendGoal`], placed
/// in the file as it is when written.
pub fn insert_goal(plan: &Plan<'_>, block: Vec<String>) -> Edit {
    super::patch::place_goal(plan, block)
}

fn no_subtask(goal: &Goal<'_>, n: usize) -> Refusal {
    let list = if goal.subtasks.is_empty() {
        format!("it has none; `plan subtask {} TEXT` adds one", goal.id)
    } else {
        goal.subtasks
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {}", i + 1, s.text))
            .collect::<Vec<_>>()
            .join("; ")
    };
    refuse(
        format!("goal {} has no subtask {n}", goal.id),
        format!("subtasks count from 1: {list}"),
    )
}

/// Ticks subtask `n` (1-based). `Ok(None)`: it is ticked already.
pub fn tick(plan: &Plan<'_>, goal: &Goal<'_>, n: usize) -> Result<Option<Edit>, Refusal> {
    mark(plan, goal, n, true)
}

/// Sets subtask `n`'s box (1-based) to `done`. `Ok(None)`: it is so already.
pub fn mark(
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    n: usize,
    done: bool,
) -> Result<Option<Edit>, Refusal> {
    let Some(task) = n.checked_sub(1).and_then(|i| goal.subtasks.get(i)) else {
        return Err(no_subtask(goal, n));
    };
    if task.done == done {
        return Ok(None);
    }
    let text = plan.line_text(task.line);
    let (from, to): (&[&str], &str) = if done {
        (&["[ ]"], "[x]")
    } else {
        (&["[x]", "[X]"], "[ ]")
    };
    let at = from
        .iter()
        .find_map(|b| text.find(b))
        .expect("a subtask line has its box");
    let new = format!("{}{to}{}", &text[..at], &text[at + 3..]);
    Ok(Some(Edit::replace(task.line, text, new)))
}

/// Adds `- [ ] text` after the goal's last subtask, else after its last line.
pub fn add_subtask(plan: &Plan<'_>, goal: &Goal<'_>, text: &str) -> Edit {
    let at = goal.subtasks.last().map_or(goal.last_content, |s| s.line);
    Edit::insert_after(
        at,
        plan.line_text(at),
        vec![format!("- [ ] {}", one_line(text))],
    )
}

/// Adds an acceptance criterion to `done_when`.
pub fn add_criterion(plan: &Plan<'_>, goal: &Goal<'_>, text: &str) -> Edit {
    let text = one_line(text);
    match &goal.done_when {
        Some(field) if !field.value.is_empty() => {
            let old = plan.line_text(field.line);
            let sep = if field.value.ends_with(['.', ';']) {
                " "
            } else {
                "; "
            };
            Edit::replace(field.line, old, format!("{}{sep}{text}", old.trim_end()))
        }
        Some(field) => Edit::replace(
            field.line,
            plan.line_text(field.line),
            format!("done_when: {text}"),
        ),
        None => {
            let at = field_anchor(goal);
            Edit::insert_after(at, plan.line_text(at), vec![format!("done_when: {text}")])
        }
    }
}

/// What `plan edit` changes; `None` leaves a part as it is. An empty value (or an
/// empty list) removes the line.
#[derive(Debug, Default)]
pub struct GoalEdit<'e> {
    pub title: Option<&'e str>,
    pub done_when: Option<&'e str>,
    pub verify: Option<&'e str>,
    pub failure_modes: Option<&'e [String]>,
    pub depends_on: Option<&'e [String]>,
}

/// The line edits for `change`, each part rewritten in place; a part the goal lacks
/// is added under its heading, id and status, in the order plan writes them.
pub fn edit_goal(plan: &Plan<'_>, goal: &Goal<'_>, change: &GoalEdit<'_>) -> Vec<Edit> {
    let mut edits = id_comment(plan, goal);
    let mut added: Vec<String> = Vec::new();
    if let Some(title) = change.title {
        edits.push(Edit::replace(
            goal.line,
            plan.line_text(goal.line),
            format!("## Goal: {}", one_line(title)),
        ));
    }
    let mut field =
        |edits: &mut Vec<Edit>, at: Option<usize>, line: Option<String>| match (at, line) {
            (Some(at), Some(line)) => edits.push(Edit::replace(at, plan.line_text(at), line)),
            (Some(at), None) => edits.push(Edit::Delete {
                line: at,
                expect: plan.line_text(at).to_string(),
            }),
            (None, Some(line)) => added.push(line),
            (None, None) => {}
        };
    if let Some(deps) = change.depends_on {
        let line = (!deps.is_empty()).then(|| format!("depends_on: {}", deps.join(", ")));
        field(&mut edits, goal.depends_line, line);
    }
    for (value, old, key) in [
        (change.done_when, &goal.done_when, "done_when"),
        (change.verify, &goal.verify, "verify"),
    ] {
        if let Some(value) = value {
            let value = match key {
                "verify" => one_line_command(value),
                _ => one_line(value),
            };
            let line = (!value.is_empty()).then(|| format!("{key}: {value}"));
            field(&mut edits, old.as_ref().map(|f| f.line), line);
        }
    }
    if let Some(modes) = change.failure_modes {
        let items: Vec<String> = modes
            .iter()
            .map(|m| one_line(m))
            .filter(|m| !m.is_empty())
            .map(|m| format!("- {m}"))
            .collect();
        for mode in &goal.failure_modes {
            edits.push(Edit::Delete {
                line: mode.line,
                expect: plan.line_text(mode.line).to_string(),
            });
        }
        match goal.failure_modes_line {
            Some(at) if items.is_empty() => edits.push(Edit::Delete {
                line: at,
                expect: plan.line_text(at).to_string(),
            }),
            Some(at) => edits.push(Edit::insert_after(at, plan.line_text(at), items)),
            None if items.is_empty() => {}
            None => {
                added.push("failure_modes:".to_string());
                added.extend(items);
            }
        }
    }
    if !added.is_empty() {
        let at = field_anchor(goal);
        edits.push(Edit::insert_after(at, plan.line_text(at), added));
    }
    edits
}

/// Moves every live done or cancelled goal without a format error, verbatim, under
/// `## Archive` at the end of the file. Returns the edits and the ids moved.
pub fn archive(plan: &Plan<'_>) -> (Vec<Edit>, Vec<String>) {
    // Only proven goals leave sight: an unproven one is still remaining work. A
    // goal with a format error is left where it is, as by every write: its status
    // may not be the one it reads as (two `status:` lines a merge left).
    let moving: Vec<&Goal<'_>> = plan
        .live()
        .filter(|g| plan.settled(g) && plan.errors_in(g).is_empty())
        .collect();
    let mut edits = Vec::new();
    let mut moved = Vec::new();
    let mut tail: Vec<String> = Vec::new();
    for goal in &moving {
        for no in goal.line..=goal.end {
            edits.push(Edit::Delete {
                line: no,
                expect: plan.line_text(no).to_string(),
            });
        }
        if !tail.is_empty() || plan.archive_heading.is_some() {
            tail.push(String::new());
        }
        // Each line with its own ending, so a goal written with CRLF stays CRLF.
        tail.extend((goal.line..=goal.last_content).map(|no| {
            let line = &plan.lines[no - 1];
            format!("{}{}", line.text(plan.src), line.eol.as_str())
        }));
        moved.push(goal.id.to_string());
    }
    if moved.is_empty() {
        return (edits, moved);
    }
    // `## Archive` followed by another section (`## Log`, `## Notes`): the goals go
    // at the end of `## Archive`, before that section, not under it at the file's end.
    let next_section = plan.archive_heading.and_then(|archive| {
        plan.lines[archive..]
            .iter()
            .find(|l| match l.kind {
                Kind::Title { .. } | Kind::LogHeading | Kind::ArchiveHeading => true,
                Kind::Heading { level } => level <= 2,
                _ => false,
            })
            .map(|l| l.no)
    });
    if let Some(at) = next_section {
        if plan.line_text(at - 1).trim().is_empty() {
            tail.remove(0);
        }
        tail.push(String::new());
        edits.push(Edit::insert_before(at, plan.line_text(at), tail));
        return (edits, moved);
    }
    let deleted = |no: usize| moving.iter().any(|g| (g.line..=g.end).contains(&no));
    let last_kept = (1..=plan.lines.len()).rev().find(|&no| !deleted(no));
    let ends_blank = last_kept.is_none_or(|no| plan.line_text(no).trim().is_empty());
    let mut lines = Vec::new();
    if plan.archive_heading.is_none() {
        if !ends_blank {
            lines.push(String::new());
        }
        lines.push("## Archive".to_string());
        lines.push(String::new());
    } else if ends_blank && tail.first().is_some_and(String::is_empty) {
        tail.remove(0);
    }
    lines.extend(tail);
    edits.push(Edit::AppendEnd { lines });
    (edits, moved)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;
    use crate::plan::patch::apply;

    fn run(src: &str, edits: impl FnOnce(&Plan<'_>) -> Vec<Edit>) -> String {
        let plan = parse(src);
        apply(src, &edits(&plan)).unwrap()
    }

    #[test]
    fn status_is_replaced_or_inserted_with_the_id() {
        let out = run("## Goal: A\n<!-- id: a -->\nstatus: open\n", |p| {
            set_status(p, &p.goals[0], Status::Active)
        });
        assert_eq!(out, "## Goal: A\n<!-- id: a -->\nstatus: active\n");
        let out = run("## Goal: By Hand\ndone_when: x\n", |p| {
            set_status(p, &p.goals[0], Status::Active)
        });
        assert_eq!(
            out,
            "## Goal: By Hand\n<!-- id: by-hand -->\nstatus: active\ndone_when: x\n"
        );
    }

    #[test]
    fn transitions_move_forward_only() {
        let p = parse("## Goal: A\nstatus: done\n## Goal: B\nstatus: active\n## Goal: C\n");
        let err = check_transition(&p.goals[0], Status::Active).unwrap_err();
        assert_eq!(err.message, "goal a is done");
        assert!(err.hint.contains("plan reopen a --reason"), "{}", err.hint);
        assert!(check_transition(&p.goals[1], Status::Active).is_err());
        assert!(check_transition(&p.goals[1], Status::Done).is_ok());
        assert!(check_transition(&p.goals[2], Status::Cancelled).is_ok());
        assert!(check_transition(&p.goals[1], Status::Open).is_err());
    }

    #[test]
    fn new_goal_goes_after_the_last_live_goal() {
        let src = "# Plan: x\n\n## Goal: A\nstatus: open\n\n## Log\n- e\n";
        let block = NewGoal {
            title: "B".into(),
            id: "b".into(),
            ..Default::default()
        }
        .lines();
        let out = run(src, |p| vec![insert_goal(p, block)]);
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: A\nstatus: open\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n- e\n"
        );
    }

    #[test]
    fn first_goal_goes_before_the_log() {
        let block = NewGoal {
            title: "B".into(),
            id: "b".into(),
            ..Default::default()
        }
        .lines();
        let out = run("# Plan: x\n## Log\n", |p| {
            vec![insert_goal(p, block.clone())]
        });
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n"
        );
        let out = run("# Plan: x", |p| vec![insert_goal(p, block)]);
        assert_eq!(out, "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open");
    }

    #[test]
    fn tick_keeps_the_rest_of_the_line() {
        let out = run("## Goal: A\n  - [ ] two  \r\n", |p| {
            vec![tick(p, &p.goals[0], 1).unwrap().unwrap()]
        });
        assert_eq!(out, "## Goal: A\n  - [x] two  \r\n");
        let p = parse("## Goal: A\n- [x] done\n");
        assert_eq!(tick(&p, &p.goals[0], 1), Ok(None));
        assert!(
            tick(&p, &p.goals[0], 2)
                .unwrap_err()
                .hint
                .contains("1 done")
        );
        assert!(tick(&p, &p.goals[0], 0).is_err());
    }

    #[test]
    fn subtask_and_criterion() {
        let out = run("## Goal: A\n- [ ] one\nnote\n", |p| {
            vec![add_subtask(p, &p.goals[0], "two\nlines")]
        });
        assert_eq!(out, "## Goal: A\n- [ ] one\n- [ ] two lines\nnote\n");
        let out = run("## Goal: A\ndone_when: fast\n", |p| {
            vec![add_criterion(p, &p.goals[0], "and small")]
        });
        assert_eq!(out, "## Goal: A\ndone_when: fast; and small\n");
        let out = run("## Goal: A\nstatus: open\nverify: x\n", |p| {
            vec![add_criterion(p, &p.goals[0], "y")]
        });
        assert_eq!(out, "## Goal: A\nstatus: open\ndone_when: y\nverify: x\n");
    }

    #[test]
    fn archive_moves_finished_goals_verbatim() {
        let src = "# Plan: x\n\n## Goal: A\nstatus: done\nnotes  \n\n## Goal: B\nstatus: open\n\n## Log\n- e\n- 2026-01-01 00:00 a signed off (no verify, judge skipped)\n";
        let mut plan = parse(src);
        plan.prove_legacy();
        let (edits, moved) = archive(&plan);
        assert_eq!(moved, ["a"]);
        let out = apply(src, &edits).unwrap();
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: B\nstatus: open\n\n## Log\n- e\n- 2026-01-01 00:00 a signed off (no verify, judge skipped)\n\n## Archive\n\n## Goal: A\nstatus: done\nnotes  \n"
        );
        let mut again = parse(&out);
        again.prove_legacy();
        assert!(again.goals.iter().find(|g| g.id == "a").unwrap().archived);
        assert!(archive(&again).1.is_empty());
    }

    #[test]
    fn archive_keeps_each_moved_line_s_own_ending() {
        let src = "# Plan: x\n\n## Goal: A\r\nstatus: done\r\nnote\n\n## Goal: B\nstatus: open\n\n## Log\n- a signed off (no verify, judge skipped)\n";
        let mut plan = parse(src);
        plan.prove_legacy();
        let out = apply(src, &archive(&plan).0).unwrap();
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: B\nstatus: open\n\n## Log\n- a signed off (no verify, judge skipped)\n\n## Archive\n\n## Goal: A\r\nstatus: done\r\nnote\n"
        );
    }

    #[test]
    fn archive_appends_to_an_existing_archive() {
        let src = "## Goal: C\nstatus: cancelled\n## Log\n- c cancelled: x\n## Archive\n\n## Goal: A\nstatus: done\n";
        let mut plan = parse(src);
        plan.prove_legacy();
        let out = apply(src, &archive(&plan).0).unwrap();
        assert_eq!(
            out,
            "## Log\n- c cancelled: x\n## Archive\n\n## Goal: A\nstatus: done\n\n## Goal: C\nstatus: cancelled\n"
        );
        // Cancelled by hand: unproven, so it stays in sight.
        let hand = src.replace("- c cancelled: x\n", "");
        let mut plan = parse(&hand);
        plan.prove_legacy();
        assert!(archive(&plan).1.is_empty());
    }
}

//! A goal's section moved from under `## Archive` back among the live goals (a
//! reopen of an archived goal): every line of it, verbatim but for its status,
//! and nothing else. Pure.

use super::model::{Goal, Plan, Status};
use super::patch::Edit;

/// The edits that take archived `goal` out of `## Archive` and put it where a new
/// goal goes (after the last live goal, above `## Log`), with `status: to`. Its
/// lines are deleted where they stand and re-inserted with their own line endings,
/// so the move is one write the store rebases like any other: a goal moved or
/// changed meanwhile is a conflict, not a copy.
pub fn move_back(plan: &Plan<'_>, goal: &Goal<'_>, to: Status) -> Vec<Edit> {
    let status = format!("status: {}", to.as_str());
    let status_line = goal.status.as_ref().map(|f| f.line);
    // A hand-written goal may lack the id comment or the status line: added as
    // `ops::set_status` would, under the heading (and the id).
    let status_after = goal.id_line.unwrap_or(goal.line);
    let mut block = Vec::new();
    for no in goal.line..=goal.last_content {
        let line = &plan.lines[no - 1];
        let text = match Some(no) == status_line {
            true => status.as_str(),
            false => line.text(plan.src),
        };
        block.push(format!("{text}{}", line.eol.as_str()));
        if no == goal.line && goal.id_line.is_none() {
            block.push(format!("<!-- id: {} -->", goal.id));
        }
        if status_line.is_none() && no == status_after {
            block.push(status.clone());
        }
    }
    let mut edits: Vec<Edit> = (goal.line..=goal.end)
        .map(|no| Edit::Delete {
            line: no,
            expect: plan.line_text(no).to_string(),
        })
        .collect();
    edits.push(Edit::AppendGoal { lines: block });
    edits
}

/// The goal's section as read, to ask of the file under the store's lock: a line
/// added to it meanwhile would be left behind under `## Archive` by the deletes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    id: String,
    text: Vec<String>,
}

impl Section {
    pub fn of(plan: &Plan<'_>, goal: &Goal<'_>) -> Section {
        Section {
            id: goal.id.to_string(),
            text: lines(plan, goal),
        }
    }

    /// `Err` (words that finish "…; nothing was written") when the goal's section
    /// in `fresh` is not the one read.
    pub fn check(&self, fresh: &Plan<'_>) -> Result<(), String> {
        let id = &self.id;
        match fresh.goal(id) {
            Some(goal) if lines(fresh, goal) == self.text => Ok(()),
            _ => Err(format!("goal {id} changed while plan was working")),
        }
    }
}

/// The section's lines up to its last non-blank one: blank lines after it come and
/// go with what follows (a goal archived after it), and one left behind loses nothing.
fn lines(plan: &Plan<'_>, goal: &Goal<'_>) -> Vec<String> {
    (goal.line..=goal.last_content)
        .map(|no| plan.line_text(no).to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;
    use crate::plan::patch::apply;

    fn reopen(src: &str) -> String {
        let plan = parse(src);
        let goal = plan.goal("a").unwrap();
        apply(src, &move_back(&plan, goal, Status::Active)).unwrap()
    }

    #[test]
    fn the_section_moves_above_the_log_with_its_own_endings() {
        let src = "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n- l\n\n## Archive\n\n## Goal: A\r\n<!-- id: a -->\r\nstatus: done\r\n\r\nnote\n\n## Goal: C\n<!-- id: c -->\nstatus: done\n";
        assert_eq!(
            reopen(src),
            "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Goal: A\r\n<!-- id: a -->\r\nstatus: active\r\n\r\nnote\n\n## Log\n- l\n\n## Archive\n\n## Goal: C\n<!-- id: c -->\nstatus: done\n"
        );
    }

    #[test]
    fn a_hand_written_goal_gets_its_id_and_status() {
        let src = "# Plan: x\n\n## Log\n\n## Archive\n\n## Goal: A\ndone_when: y\n";
        let plan = parse(src);
        let goal = plan.goal("a").unwrap();
        let out = apply(src, &move_back(&plan, goal, Status::Active)).unwrap();
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: y\n\n## Log\n\n## Archive\n\n"
        );
    }

    #[test]
    fn a_changed_section_fails_the_check() {
        let src = "# Plan: x\n\n## Log\n\n## Archive\n\n## Goal: A\n<!-- id: a -->\nstatus: done\n";
        let plan = parse(src);
        let seen = Section::of(&plan, plan.goal("a").unwrap());
        assert_eq!(seen.check(&plan), Ok(()));
        let added = format!("{src}note\n");
        assert_eq!(
            seen.check(&parse(&added)),
            Err("goal a changed while plan was working".into())
        );
    }
}

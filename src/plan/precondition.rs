//! What a write command's decision rested on, asked again of plan.md as it is
//! under the store's lock (`Store::write_checked`): a command reads the file, then
//! decides, then writes, and another command may have run in between. A goal that
//! is no longer as the command found it (archived, finished, reopened, gone) makes
//! the write a conflict, never an edit in the wrong section. Pure.

use super::model::{Goal, Plan, Status};

/// A goal as a command found it on its first read: where it was and its status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seen {
    pub id: String,
    archived: bool,
    status: Status,
    /// Any unfinished status will do (a tick does not care whether the goal was
    /// started meanwhile); otherwise exactly the one seen.
    unfinished: bool,
}

impl Seen {
    pub fn of(goal: &Goal<'_>) -> Seen {
        Seen {
            id: goal.id.to_string(),
            archived: goal.archived,
            status: goal.status(),
            unfinished: false,
        }
    }

    /// As [`Seen::of`], for a change any open or active goal takes (a tick, a
    /// subtask): started meanwhile is fine, finished is not.
    pub fn unfinished(goal: &Goal<'_>) -> Seen {
        Seen {
            unfinished: !goal.status().is_finished(),
            ..Seen::of(goal)
        }
    }

    /// The goal in `fresh`, if it is still where and as it was seen; else why not,
    /// in words that finish "…; nothing was written".
    pub fn find<'p, 'a>(&self, fresh: &'p Plan<'a>) -> Result<&'p Goal<'a>, String> {
        intact(fresh)?;
        let id = &self.id;
        let goal = fresh
            .goal(id)
            .ok_or_else(|| format!("goal {id} left plan.md while plan was working"))?;
        match (self.archived, goal.archived) {
            (false, true) => {
                return Err(format!("goal {id} was archived while plan was working"));
            }
            (true, false) => {
                return Err(format!(
                    "goal {id} was moved out of `## Archive` while plan was working"
                ));
            }
            _ => {}
        }
        let now = goal.status();
        let as_seen = now == self.status || (self.unfinished && !now.is_finished());
        if !as_seen {
            return Err(format!(
                "goal {id} became {} while plan was working (it was {})",
                now.as_str(),
                self.status.as_str()
            ));
        }
        Ok(goal)
    }

    /// As [`Seen::find`], when only the answer matters.
    pub fn check(&self, fresh: &Plan<'_>) -> Result<(), String> {
        self.find(fresh).map(drop)
    }
}

/// The goals a command decided about, each still as seen.
pub fn all(seen: &[Seen], fresh: &Plan<'_>) -> Result<(), String> {
    seen.iter().try_for_each(|s| s.check(fresh))
}

/// A plan whose structure broke meanwhile (a second `## Log`, a conflict left by a
/// merge) is one the command would have refused on its first read.
pub fn intact(fresh: &Plan<'_>) -> Result<(), String> {
    if fresh.structure_broken() {
        return Err(
            "plan.md's structure broke while plan was working (plan lint lists the errors)"
                .to_string(),
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const DONE: &str = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Log\n";

    #[test]
    fn a_goal_as_seen_passes_and_any_move_is_named() {
        let plan = parse(DONE);
        let seen = Seen::of(plan.goal("a").unwrap());
        assert_eq!(seen.check(&plan), Ok(()));
        // Where `plan archive` puts it: under `## Archive`, after the log.
        let moved =
            "# Plan: x\n\n## Log\n\n## Archive\n\n## Goal: A\n<!-- id: a -->\nstatus: done\n";
        assert_eq!(
            seen.check(&parse(moved)),
            Err("goal a was archived while plan was working".into())
        );
        assert_eq!(
            seen.check(&parse(&DONE.replace("done", "active"))),
            Err("goal a became active while plan was working (it was done)".into())
        );
        assert_eq!(
            seen.check(&parse("# Plan: x\n\n## Log\n")),
            Err("goal a left plan.md while plan was working".into())
        );
        // A tick's goal may have been started meanwhile, not finished.
        let open = DONE.replace("done", "open");
        let tick = Seen::unfinished(parse(&open).goal("a").unwrap());
        assert_eq!(tick.check(&parse(&DONE.replace("done", "active"))), Ok(()));
        assert_eq!(
            tick.check(&parse(DONE)),
            Err("goal a became done while plan was working (it was open)".into())
        );
    }
}

//! What `plan lint` says about the transcripts sign-offs name, as git sees them: one
//! this clone has but git will not commit (new, or ignored) is missing in every
//! other clone and in CI; one missing here that git never had cannot be restored
//! from it.

use std::path::Path;

use crate::git::{self, Tracking};
use crate::plan::diag::Diagnostic;
use crate::plan::event::Event;
use crate::plan::model::Plan;
use crate::plan::rules::Rule;

/// Adds a warning for each latest sign-off whose transcript is here but not
/// tracked, and corrects the hint of a missing one git never had. Git errors
/// leave the problems as they are: lint still reports what it found in plan.md.
pub fn check(root: &Path, plan: &Plan<'_>, problems: &mut Vec<Diagnostic>) {
    for goal in &plan.goals {
        let id = goal.id.as_ref();
        let latest = plan.events(id).rev().find_map(|(entry, e)| match e {
            Event::SignedOff { record, .. } => Some((entry.line, record.map(|r| r.path))),
            _ => None,
        });
        let Some((line, Some(path))) = latest else {
            continue;
        };
        let rel = Path::new(path);
        if root.join(rel).is_file() {
            let problem = match git::tracking(root, rel) {
                Ok(Tracking::Untracked) => "not tracked by git",
                Ok(Tracking::Ignored) => "ignored by git",
                _ => continue,
            };
            let add = if problem == "ignored by git" {
                format!("git add -f {path}")
            } else {
                format!("git add {path}")
            };
            problems.push(
                Diagnostic::warning(
                    line,
                    format!(
                        "the transcript {path} of {id}'s sign-off is {problem}: every other clone and CI will find the sign-off unproven"
                    ),
                )
                .hint(format!("commit it with the work: {add}, then git commit")),
            );
        } else if !git::in_head(root, rel).unwrap_or(true) {
            let missing = format!("its transcript {path} is missing");
            for problem in problems
                .iter_mut()
                .filter(|d| d.rule == Some(Rule::Unproven) && d.message.contains(&missing))
            {
                problem.hint = Some(format!(
                    "{path} was never committed, so git cannot restore it: commit it in the clone that signed {id} off and pull, or sign {id} off again here (`plan complete {id} --evidence TEXT --path FILE`)"
                ));
            }
        }
    }
}

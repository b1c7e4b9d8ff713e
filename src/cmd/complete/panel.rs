//! Stage 2 of `plan complete` with a judge panel (`judge.panel`): every judge asked
//! at once on the same prompt, one record with a section for each, and a sign-off
//! only when every one accepted. Anything else from any judge is a reject, logged
//! judge by judge.

use anyhow::Result;

use super::{Decision, Outcome, SignOff};
use crate::judge::panel;
use crate::judge::run::{Answer, Judge};
use crate::judge::tree::Tree as JudgeTree;
use crate::judge::verdict::Verdict;
use crate::plan::event::{Event, Judged, PANEL_JOIN};
use crate::plan::model::Status;
use crate::plan::ops;
use crate::plan::text::cut;
use crate::record::{self, JudgeRun, Transcript, judge_name};

/// What the panel's stage needs from the sign-off: the prompt asked and where.
pub(super) struct Asking<'a> {
    /// The copy of the tree verify passed on, which every judge reads.
    pub tree: JudgeTree,
    pub prompt: &'a str,
    pub system: &'a str,
    /// The prompt overrides the prompt was built from.
    pub overrides: Vec<String>,
    pub verified: bool,
}

/// Every judge's answer, and the files changed while they ran. The judges run at
/// the same time in the one copy of the tree, so everything changed in it is a
/// judge's doing; which judge made it cannot be told, so it rejects the whole panel
/// (fail closed).
pub(super) fn ask(judges: &[Judge], asking: &Asking<'_>) -> Result<(Vec<Answer>, Vec<String>)> {
    let names: Vec<String> = judges.iter().map(judge_name).collect();
    crate::out::warn(&format!(
        "plan: judge: asking the panel {} at once (timeout {}s each)",
        names.join(PANEL_JOIN),
        judges.first().map_or(0, |j| j.timeout.as_secs())
    ));
    crate::out::progress(&format!("judge: asking {}", names.join(PANEL_JOIN)));
    let root = asking.tree.root();
    let answers = panel::ask_all(judges, root, asking.prompt, asking.system)?;
    let changed = asking.tree.changes()?;
    Ok((answers, changed))
}

/// Asks the panel and writes the outcome: signed off when every judge accepted and
/// none changed the tree, else one rejection line for each judge that did not
/// accept (or one for the containment breach), all naming the one record.
pub(super) fn sign_off(
    outcome: &Outcome<'_, '_>,
    record: Transcript<'_>,
    judges: &[Judge],
    asking: Asking<'_>,
) -> Result<SignOff> {
    let (answers, changed) = ask(judges, &asking)?;
    let tree = outcome.checkpoint.clone().unwrap_or_default();
    let runs = judges
        .iter()
        .zip(&answers)
        .map(|(judge, answer)| JudgeRun {
            judge,
            program: answer.program.as_ref().map_or_else(
                || answer.argv.first().cloned().unwrap_or_default(),
                |p| p.path.display().to_string(),
            ),
            program_sha256: answer.program.as_ref().and_then(|p| p.sha256.clone()),
            overrides: asking.overrides.clone(),
            prompt: asking.prompt,
            answer,
            changed: &changed,
            tree: &tree,
        })
        .collect();
    let record = Transcript {
        panel: runs,
        ..record
    };
    let names: Vec<String> = judges.iter().map(judge_name).collect();
    let mut rejections: Vec<(String, Vec<String>)> = names
        .iter()
        .zip(&answers)
        .filter_map(|(name, answer)| {
            let missing = missing(&answer.verdict)?;
            Some((format!("judge {name}"), missing))
        })
        .collect();
    if !changed.is_empty() {
        let kept = asking.tree.keep();
        let why = format!(
            "a judge of the panel changed the working tree ({}) in the copy it was given; left as they are for you to inspect in {}",
            changed.join(", "),
            kept.display()
        );
        rejections.insert(0, ("containment".to_string(), vec![why]));
    }
    if rejections.is_empty() {
        let judges = names.join(PANEL_JOIN);
        return outcome.accept(asking.verified, Judged::Panel { judges: &judges }, &record);
    }
    outcome.reject_each(&rejections, &record)
}

/// What a judge's answer leaves missing; `None` for an accept.
fn missing(verdict: &Verdict) -> Option<Vec<String>> {
    match verdict {
        Verdict::Accept { .. } => None,
        Verdict::Reject { missing, .. } if missing.is_empty() => Some(vec![
            "the judge rejected without listing what is missing".to_string(),
        ]),
        Verdict::Reject { missing, .. } => Some(missing.clone()),
        Verdict::NoVerdict { reason } => Some(vec![format!("no verdict: {reason}")]),
        Verdict::CouldNotJudge { reason } => Some(vec![format!("could not judge: {reason}")]),
    }
}

impl Outcome<'_, '_> {
    /// As `reject`, for a panel: one rejection line for each `(stage, missing)`,
    /// each naming the one record, so every judge's reasons are in the log under its
    /// own name.
    fn reject_each(
        &self,
        rejections: &[(String, Vec<String>)],
        record: &Transcript<'_>,
    ) -> Result<SignOff> {
        let id = &self.goal.id;
        // One `missing:` list, as for one judge, each item
        // under its stage's name when there are several.
        let stages: Vec<&str> = rejections.iter().map(|(stage, _)| stage.as_str()).collect();
        let list: Vec<String> = rejections
            .iter()
            .flat_map(|(stage, missing)| {
                let who = stage.strip_prefix("judge ").unwrap_or(stage);
                missing.iter().map(move |m| match rejections.len() {
                    1 => m.to_string(),
                    _ => format!("{who}: {m}"),
                })
            })
            .collect();
        let stages = stages.iter().map(|s| s.to_string()).collect();
        let mut signed = self.signed(Decision::Reject, stages, list);
        signed.panel = true;
        if self.dry_run {
            return Ok(signed);
        }
        let root = &self.ctx.repo()?.root;
        let saved = record::save(
            root,
            &format!("{id}-{}", self.now.compact()),
            &record.render(self.now, "reject"),
        )?;
        let mut edits = if self.started || self.goal.status() == Status::Done {
            ops::id_comment(self.plan, self.goal)
        } else {
            ops::set_status(self.plan, self.goal, Status::Active)
        };
        self.start_line(&mut edits)?;
        for (stage, missing) in rejections {
            let missing = format!("{} ({})", cut(&missing.join("; "), 300), saved.path);
            edits.push(ops::event(
                &self.now.stamp(),
                &Event::Rejected {
                    id,
                    stage,
                    missing: &missing,
                },
            ));
        }
        if let Err(e) = self.write(edits) {
            record::discard(root, &saved);
            return Err(e);
        }
        signed.transcript = Some(saved.path);
        Ok(signed)
    }
}

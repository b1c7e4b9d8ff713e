//! Stage 2 of a sign-off with a judge panel (`judge.panel`): every judge asked
//! at once on the same prompt, one record with a section for each, and a sign-off
//! only when every one accepted. Anything else from any judge is a reject, logged
//! judge by judge.

use anyhow::Result;

use super::SignOff;
use super::writing::{Asked, Outcome};
use crate::judge::panel as judges_at_once;
use crate::judge::run::{Answer, Judge};
use crate::judge::tree::Tree as JudgeTree;
use crate::judge::verdict::Verdict;
use crate::plan::event::{Judged, PANEL_JOIN};
use crate::record::{JudgeRun, Transcript, judge_name};

/// What the panel's stage needs from the sign-off: the prompt asked and where.
pub(super) struct Asking<'a> {
    /// The copy of the tree verify passed on, which every judge reads.
    pub tree: JudgeTree,
    pub prompt: &'a str,
    pub system: &'a str,
    /// The prompt overrides the prompt was built from.
    pub overrides: Vec<String>,
    pub verified: bool,
    pub asked: Asked<'a>,
}

/// Every judge's answer, and the files changed while they ran. The judges run at
/// the same time in the one copy of the tree, so everything changed in it is a
/// judge's doing; which judge made it cannot be told, so it rejects the whole panel
/// (fail closed).
pub(super) fn ask(judges: &[Judge], asking: &Asking<'_>) -> Result<(Vec<Answer>, Vec<String>)> {
    let names: Vec<String> = judges.iter().map(judge_name).collect();
    crate::out::step(
        &format!(
            "plan: judge: asking the panel {} at once (timeout {}s each)",
            names.join(PANEL_JOIN),
            judges.first().map_or(0, |j| j.timeout.as_secs())
        ),
        &format!("judge: asking {}", names.join(PANEL_JOIN)),
    );
    let root = asking.tree.root();
    let answers = judges_at_once::ask_all(judges, root, asking.prompt, asking.system)?;
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
        return outcome.accept(
            asking.verified,
            Judged::Panel { judges: &judges },
            &record,
            asking.asked,
        );
    }
    outcome.reject(&rejections, Some(&record), true, asking.asked)
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

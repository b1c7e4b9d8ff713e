//! What a sign-off checks before anything runs: the goal may be signed off, its
//! contract is the one logged, the evidence paths are durable files of the
//! repository, the judges can run; and what the transcript and the judge are told
//! of the goal's history and its tests.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use super::Request;
use crate::config;
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git::{self, Repo};
use crate::judge::prompt;
use crate::judge::resolve::{self, Chosen, Panel};
use crate::judge::run::{self as judge_run, Judge};
use crate::plan::model::{Goal, Plan, Status};
use crate::plan::render::Style;
use crate::plan::weakened::Finding;
use crate::plan::{history, ops, wdiff};
use crate::verify;
use crate::weakened;

/// Refuses evidence holding a control character other than a line break or a tab:
/// it is written raw into the committed transcript, so ESC, an OSC-8 link, CR or
/// BEL would reach every terminal that shows it or its `git diff`.
pub(super) fn evidence_text(evidence: &str) -> Result<()> {
    let Some(at) = evidence
        .chars()
        .position(|c| c.is_control() && !matches!(c, '\n' | '\t'))
    else {
        return Ok(());
    };
    let c = evidence.chars().nth(at).unwrap_or_default();
    let shown = crate::plan::text::escape_controls(evidence);
    Err(Exit::usage_hint(
        format!(
            "--evidence holds a control character ({}) at character {}: \"{}\"; nothing was run or written",
            crate::plan::text::escape_controls(&c.to_string()),
            at + 1,
            crate::plan::text::excerpt(&shown)
        ),
        "leave it out, or name it in words (ESC, CR, BEL): written raw into the transcript it reaches every terminal that shows it",
    ))
}

/// The goal can be signed off: open or active (or marked done by hand, which is
/// unproven: signing it off is how to prove it), its dependencies done.
pub(super) fn check_signable(plan: &Plan<'_>, goal: &Goal<'_>) -> Result<()> {
    let hand_done = goal.status() == Status::Done && plan.proof(goal).is_unproven();
    if !hand_done {
        ops::check_transition(goal, Status::Done)?;
    }
    ops::check_dependencies(plan, goal, "sign off")?;
    Ok(())
}

/// The one judge, or the panel, `choice` or the configuration picks; none when the
/// judge is skipped. Each is checked to be runnable before anything runs.
pub(super) fn judges(
    choice: Option<&str>,
    config: &config::Config,
    repo: &Repo,
) -> Result<(Option<Judge>, Vec<Judge>)> {
    let (judge, panel_judges) = match resolve::resolve(choice, config, Panel::Allowed)? {
        Chosen::Skip => (None, Vec::new()),
        Chosen::One(judge) => (Some(judge), Vec::new()),
        Chosen::Panel(judges) => (None, judges),
    };
    for judge in judge.iter().chain(&panel_judges) {
        judge_run::check(judge, &repo.root)?;
    }
    Ok((judge, panel_judges))
}

pub(super) fn warn_open_subtasks(goal: &Goal<'_>) {
    let id = &goal.id;
    let open: Vec<&str> = goal
        .subtasks
        .iter()
        .filter(|s| !s.done)
        .map(|s| s.text)
        .collect();
    if !open.is_empty() {
        crate::out::warn(&format!(
            "plan: warning: {} of {} of {id} {} not ticked: {}",
            open.len(),
            crate::plan::text::count(goal.subtasks.len(), "subtask"),
            if open.len() == 1 { "is" } else { "are" },
            open.join("; ")
        ));
    }
}

/// The goal's verify line, parsed; an error names its place in plan.md.
pub(super) fn verify_line(ctx: &Ctx, goal: &Goal<'_>) -> Result<Option<verify::Verify>> {
    Ok(match goal.verify() {
        Some(line) => {
            let at = goal.verify.as_ref().map_or(goal.line, |f| f.line);
            Some(verify::parse_at(line, &format!("{}:{at}", ctx.store.name))?)
        }
        None => None,
    })
}

/// The goal's contract since creation, for the transcript and the judge: the text
/// at creation, each change since and how it was approved, and a word diff from
/// the first to the current one.
pub(super) fn contract_history(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>) -> String {
    let id = goal.id.as_ref();
    let mut out = String::new();
    let mut first: Option<String> = None;
    for step in history::contract_steps(plan, id) {
        let _ = writeln!(
            out,
            "- {} contract {}: {} (plan.md log line {})",
            step.stamp.unwrap_or("(no time)"),
            step.contract,
            step.describe(),
            step.line
        );
        if first.is_none() {
            first = Some(step.contract.to_string());
        }
    }
    if out.is_empty() {
        return "(no contract was logged before this sign-off: the goal was written by hand and is started now)\n".to_string();
    }
    let Some(first) = first else {
        return out;
    };
    if first == goal.fingerprint() {
        out.push_str("\nThe contract is the one it was first logged with.\n");
        return out;
    }
    match ctx.contract_text(id, &first) {
        Some(old) => {
            let _ = write!(
                out,
                "\nChange from the first logged contract ({first}) to the one judged ({}), word by word ([-removed-] {{+added+}}):\n\n{}\n",
                goal.fingerprint(),
                prompt::fence(&wdiff::word_diff(&old, &goal.contract(), Style::default()))
            );
        }
        None => {
            let _ = write!(
                out,
                "\nThe text of the first logged contract ({first}) is not in plan.md's git history, so the change cannot be shown.\n"
            );
        }
    }
    out
}

/// Checks each `--path`: it exists, lies inside the repository, and is not ignored.
pub(super) fn evidence_paths(ctx: &Ctx, repo: &Repo, args: &Request) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for given in &args.paths {
        refuse_hidden_text(given)?;
        let rel = git::check_evidence_path(&repo.root, &ctx.cwd, given, args.allow_ignored)?.map_err(|problem| {
            let shown = given.display();
            let (what, hint) = match problem {
                git::PathProblem::Missing => ("does not exist", "save the log or output to a file in the repository first"),
                git::PathProblem::OutsideRepo => ("is outside the repository", "evidence must be a file in the repository the judge can read"),
                git::PathProblem::SymlinkOutside => ("is a symlink that leads outside the repository", "copy the file into the repository"),
                git::PathProblem::NotAFile => ("is not a regular file or directory (a fifo, socket or device)", "save the output to a regular file in the repository and pass that"),
                git::PathProblem::Ignored => ("is ignored by git, so it is not durable evidence", "commit it or move it out of the ignored directory, or pass --allow-ignored"),
            };
            Exit::usage_hint(format!("evidence path {shown} {what}"), hint.to_string())
        })?;
        out.push(rel.to_string_lossy().into_owned());
    }
    Ok(out)
}

/// An evidence path is named to the judge and in the transcript as plan's own
/// words: a newline in it would start a line of the agent's choosing there, and a
/// bidi control or zero-width character makes it read as another path.
fn refuse_hidden_text(given: &Path) -> Result<()> {
    let text = given.to_string_lossy();
    if text
        .chars()
        .any(|c| c.is_control() || crate::plan::text::is_invisible(c))
    {
        let shown: String = text.chars().flat_map(char::escape_default).collect();
        return Err(Exit::usage_hint(
            format!(
                "evidence path \"{shown}\" holds a control or invisible character (a newline, tab, escape, bidi control or zero-width character)"
            ),
            "rename the file to a name of visible characters and pass that",
        ));
    }
    Ok(())
}

/// What weakened the tests since `start` (the goal's start commit), said on stderr
/// as well, so the agent and the person see it before any judge does.
pub(super) fn weakened_tests(
    repo: &Repo,
    goal: &Goal<'_>,
    (start, red): (Option<&str>, bool),
    verify: Option<&verify::Verify>,
) -> Result<Vec<Finding>> {
    let mut reads = weakened::Reads::of(&repo.root, goal, verify, start)?;
    reads.red_at_start = red;
    let found = weakened::since(&repo.root, start, &reads)?;
    for finding in &found {
        crate::out::warn(&format!(
            "plan: warning: weakened tests since the goal started: {}",
            crate::plan::weakened::kinds::tagged(finding)
        ));
    }
    Ok(found)
}

/// Refuses a sign-off whose contract changed since it was logged, showing the change.
pub(super) fn contract_changed(ctx: &Ctx, goal: &Goal<'_>, old: &str, now: &str) -> anyhow::Error {
    let id = &goal.id;
    let old_text = ctx.contract_text(id, old);
    let mut message = format!(
        "the contract of {id} changed since it was logged (contract {old}, now {now}); not signed off\n"
    );
    match old_text {
        Some(text) => message.push_str(&wdiff::word_diff(&text, &goal.contract(), ctx.style)),
        None => message.push_str(&format!(
            "(contract {old} is not in {}'s git history, so its text cannot be shown; the contract now:)\n{}",
            ctx.store.name,
            goal.contract()
        )),
    }
    message.push_str(&format!(
        "  hint: if the change is intended, `plan start {id} --reapprove` records it in the log; then run plan complete again"
    ));
    Exit::usage(message)
}

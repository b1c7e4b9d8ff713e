//! The gate's other plan files: each `.md` of the repository besides the configured
//! one that [`super::is_plan`] calls a plan (a `# Plan:` title and a `## Log`, or any
//! goal done; in any case, a link read as what it leads to) is held to what the
//! configured file is: its new sign-offs proven, held to `--strict` and judged
//! again; its goals done on the base whose files the pull request changes verified
//! again, and judged again when their work changed; in one job or as two, the
//! verify job's results naming the file. A second plan file is no way around the
//! gate.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use super::{
    Rejudge, files_changed, strict_findings, touched, weakened_on_base_goal, work_touched,
};
use crate::ctx::Ctx;
use crate::git;
use crate::judge::guard::Guard;
use crate::judge::run::Judge;
use crate::plan::gate as rules;
use crate::plan::model::{Goal, Plan, Status, parse};
use crate::plan::proof::Proof;
use crate::verified::{self, GoalResult, Results};

/// One finding about a goal of another plan file than the configured one.
#[derive(Debug, Serialize)]
pub struct OtherGoal {
    /// The plan file, as the repository names it.
    pub file: String,
    /// The goal, or empty for a finding about the file itself.
    pub id: String,
    /// What was found, in words.
    pub what: String,
    pub failed: bool,
    /// A cancel or a contract change of a goal the base has: `--strict` fails it
    /// unless `--approved-by` names a person.
    pub needs_approval: bool,
}

/// Another plan file's goals the gate runs a verify for ([`prepare`], [`verify`],
/// [`judge`]).
pub struct OtherPlan {
    /// The plan file, as the repository names it.
    pub file: String,
    /// As if plan ran with `--file` naming it.
    ctx: Ctx,
    text: String,
    base_text: String,
    base: String,
    /// Signed off or made done since the base, proven: verified and judged again.
    rejudge: Vec<String>,
    /// Done on the base, files changed by the pull request: verified again.
    reverify: Vec<String>,
    /// Of `reverify`, those whose work the pull request changed: judged again too.
    judge_again: Vec<String>,
    /// `--strict`: red first, from the gate's own runs, is a finding.
    strict: bool,
}

impl OtherPlan {
    /// Whether plain `--base`, without a judge, has a verify to run here.
    pub fn reverifies(&self) -> bool {
        !self.reverify.is_empty()
    }

    /// How many of its goals CI's judge would be asked about, at most.
    pub fn to_judge(&self) -> usize {
        self.rejudge.len() + self.judge_again.len()
    }
}

/// How [`verify`] and [`judge`] run the other plan files' goals, as the configured
/// file's are run.
pub enum How<'a> {
    /// Plain `--base`: the goals done on the base verified again; no judge.
    Verify(Duration),
    /// `--verify-only`, the verify job: every verify run, the results returned.
    VerifyOnly(Duration),
    /// `--rejudge` in one job, the judge's files fingerprinted in `Guard`.
    Here(&'a Judge, Duration, &'a Guard),
    /// `--rejudge --verified FILE`: the verify job's results for the other files,
    /// read from `FILE` (named for messages).
    Verified(&'a Judge, &'a [GoalResult], &'a str),
}

/// Every plan file of the repository other than the configured one, in the base's
/// tree or HEAD's. In each: format errors fail; a cancel or contract change needs a
/// person's approval; a goal signed off since the base or done here and not there
/// must be proven by a sign-off the pull request adds (and under `strict` has
/// `--strict`'s findings); a goal done on the base whose files the pull request
/// changes is to be verified again (and under `strict`, its tests read for
/// weakening). Lost lines and goals are [`super::against`]'s. What is to be run is
/// returned for [`prepare`].
pub fn find(ctx: &Ctx, base: &str, strict: bool) -> Result<(Vec<OtherGoal>, Vec<OtherPlan>)> {
    let repo = ctx.repo()?;
    let root = &repo.root;
    let main = ctx.plan_in_repo();
    // The configured file by where it is: a link to it is no second plan.
    let canonical = |rel: &Path| std::fs::canonicalize(root.join(rel)).ok();
    let main_at = main.as_deref().and_then(canonical);
    // Each file with its text on the base's tree and on HEAD's, where it is a plan.
    let mut files: Vec<(PathBuf, Option<String>, Option<String>)> = Vec::new();
    for (k, rev) in [base, "HEAD"].into_iter().enumerate() {
        for (path, text) in git::files_where(root, rev, super::PLAN_NAMES, super::is_plan)? {
            if main.as_ref() == Some(&path) {
                continue;
            }
            let at = files.iter().position(|(p, _, _)| *p == path);
            let i = at.unwrap_or_else(|| {
                files.push((path, None, None));
                files.len() - 1
            });
            match k {
                0 => files[i].1 = Some(text),
                _ => files[i].2 = Some(text),
            }
        }
    }
    // A link to it at the head is that file, unless the base had a plan of its own
    // there (then its goals are lost, which `against` says).
    let main_then = match &main {
        Some(rel) => git::file_at(root, base, rel)?,
        None => None,
    };
    let mut seen: Vec<PathBuf> = Vec::new();
    let mut out = Vec::new();
    let mut plans = Vec::new();
    for (rel, base_text, head_text) in files {
        let name = rel.to_string_lossy().into_owned();
        // What the pull request did not change passed the base's own gate: a
        // fixture of finished goals or an unreadable file fails only once changed.
        let changed = base_text != head_text;
        if let Some(at) = canonical(&rel) {
            let is_main =
                Some(&at) == main_at.as_ref() && (base_text.is_none() || base_text == main_then);
            if is_main || seen.contains(&at) {
                continue;
            }
            seen.push(at);
        }
        let then = parse(base_text.as_deref().unwrap_or_default());
        let text = match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => text,
            // Gone at the head: its lost lines and goals are `against`'s.
            Err(_) if head_text.is_none() => continue,
            Err(_) if !changed => continue,
            // In HEAD's tree and not readable here (a name or text not UTF-8).
            Err(e) => {
                out.push(OtherGoal {
                    file: name,
                    id: String::new(),
                    what: format!(
                        "cannot be read at the head ({e}); a plan file is UTF-8 text under a UTF-8 name"
                    ),
                    failed: true,
                    needs_approval: false,
                });
                continue;
            }
        };
        let octx = Ctx::at(ctx.cwd.clone(), Some(root.join(&rel)))?;
        let mut now = parse(&text);
        let mut found = |id: &str, what: String, failed: bool, needs_approval: bool| {
            out.push(OtherGoal {
                file: name.clone(),
                id: id.to_string(),
                what,
                failed,
                needs_approval,
            });
        };
        for (line, id, text) in rules::ci_lines_added(&then, &now) {
            let what = format!("line {line}: `{text}`: {}", rules::CI_LINE_ADDED);
            found(&id, what, true, false);
        }
        for e in now.errors.iter().filter(|_| changed) {
            let what = format!("line {}: a format error at the head: {}", e.line, e.message);
            found("", what, true, false);
        }
        octx.prove_in_gate(&mut now);
        for cancel in rules::cancels(&then, &now) {
            let what = format!("{} (line {})", cancel.what(), cancel.line);
            found(&cancel.id, what, false, true);
        }
        for change in rules::contract_changes(&then, &now) {
            let words: String = change.words.iter().map(|w| format!("; {w}")).collect();
            let needs_approval = change.of_base || change.without_terminal();
            let what = format!("contract {} (line {}){words}", change.what, change.line);
            found(&change.id, what, false, needs_approval);
        }
        let signed = rules::new_sign_offs(&then, &now);
        let mut scope = signed.clone();
        for id in rules::became_done(&then, &now) {
            if !scope.contains(&id) {
                scope.push(id);
            }
        }
        let mut rejudge = Vec::new();
        let mut reverify = Vec::new();
        let mut judge_again = Vec::new();
        let mut touched_by: Vec<(String, Vec<String>)> = Vec::new();
        for id in &scope {
            let Some(goal) = now.goal(id) else {
                continue;
            };
            match now.proof(goal) {
                Proof::Unproven { why, .. } => {
                    found(id, format!("unproven: {why}"), true, false);
                    continue;
                }
                Proof::Unfinished => {
                    found(id, "not finished".to_string(), true, false);
                    continue;
                }
                _ => {}
            }
            if !signed.contains(id) {
                let what = "done here and not on the base, and no sign-off this pull request adds proves it";
                found(id, what.to_string(), true, false);
            }
            if goal.status() != Status::Done {
                continue;
            }
            if strict {
                for finding in strict_findings(&octx, &now, goal, Some(base))? {
                    found(id, format!("strict: {finding}"), true, false);
                }
            }
            rejudge.push(id.clone());
        }
        for goal in now
            .goals
            .iter()
            .filter(|g| !scope.iter().any(|s| *s == *g.id))
        {
            let id = goal.id.to_string();
            let proof = now.proof(goal);
            let done = goal.status() == Status::Done;
            // As in plan.md, a finished goal the head cannot prove fails, once the
            // pull request changed its file or its record: a reopen line written by
            // hand, or an edited transcript, would otherwise hide its broken work.
            if let Proof::Unproven { why, .. } = &proof
                && goal.status().is_finished()
                && (changed || record_changed(root, &now, &id, base)?)
            {
                found(&id, format!("unproven: {why}"), true, false);
                continue;
            }
            // A goal done on the base, as the configured file's: imported done
            // counts, another tool's word held to its verify like a sign-off's.
            if !done || !(proof.is_proven() || matches!(proof, Proof::Imported { .. })) {
                continue;
            }
            let touched_files = touched(&octx, &now, goal, base)?;
            if touched_files.is_empty() {
                continue;
            }
            if strict {
                for finding in weakened_on_base_goal(&octx, goal, base) {
                    found(&id, format!("strict: {finding}"), true, false);
                }
            }
            if let Some(failed) = files_changed(&now, goal, root) {
                found(&id, format!("reverify {failed}"), true, false);
                continue;
            }
            if work_touched(&octx, &then, goal, base, &touched_files)? {
                judge_again.push(id.clone());
            }
            touched_by.push((id.clone(), touched_files));
            reverify.push(id);
        }
        // As for plan.md's goals: lines written outside every goal's work.
        if !touched_by.is_empty() {
            let owners = super::unclaimed::owners(&octx, base, &touched_by)?;
            for note in &owners.notes {
                crate::out::warn(note);
            }
            for id in owners.ids {
                if !judge_again.contains(&id) {
                    judge_again.push(id);
                }
            }
        }
        if !rejudge.is_empty() || !reverify.is_empty() {
            plans.push(OtherPlan {
                file: name,
                ctx: octx,
                text,
                base_text: base_text.unwrap_or_default(),
                base: base.to_string(),
                rejudge,
                reverify,
                judge_again,
                strict,
            });
        }
    }
    Ok((out, plans))
}

/// Whether the pull request changed the sign-off record `plan` names for `id`.
fn record_changed(root: &Path, plan: &Plan<'_>, id: &str, base: &str) -> Result<bool> {
    let Some(record) = rules::record_path(plan, id) else {
        return Ok(false);
    };
    Ok(!git::changed_since(root, Some(base), &|path| path == record)?.is_empty())
}

/// Each plan file of `plans` parsed, for [`prepare`] to borrow.
pub fn parsed(plans: &[OtherPlan]) -> Vec<Plan<'_>> {
    plans.iter().map(|o| parse(&o.text)).collect()
}

/// What [`find`] left to run, read as the configured file's goals are, before any
/// of the pull request's code runs: one job per plan file (`None`: nothing to run
/// there). Without a judge (`judging` false), only the goals done on the base.
pub fn prepare<'p, 'a>(
    plans: &'a [OtherPlan],
    parsed: &'p [Plan<'a>],
    judging: bool,
) -> Result<Vec<Option<Rejudge<'p, 'a>>>> {
    let mut jobs = Vec::new();
    for (other, plan) in plans.iter().zip(parsed) {
        let ids: Vec<&String> = match judging {
            false => other.reverify.iter().collect(),
            true => other.rejudge.iter().chain(&other.reverify).collect(),
        };
        let goals: Vec<&'p Goal<'a>> = ids.iter().filter_map(|id| plan.goal(id)).collect();
        if goals.is_empty() {
            jobs.push(None);
            continue;
        }
        let mut job = Rejudge::prepare(&other.ctx, plan, goals)?;
        job.against_base_text(other.base_text.clone());
        job.check_starts(&other.ctx, plan, &other.rejudge, &other.base)?;
        jobs.push(Some(job));
    }
    Ok(jobs)
}

/// Every job's verify, run as `how` says (or, `How::Verified`, read from the
/// verify job's results and checked as the configured file's are). Call it after
/// the configured file's verifies and before any judge.
pub fn verify(
    plans: &[OtherPlan],
    jobs: &[Option<Rejudge<'_, '_>>],
    how: &How<'_>,
) -> Result<Vec<Option<Results>>> {
    let mut out = Vec::new();
    for (other, job) in plans.iter().zip(jobs) {
        let Some(job) = job else {
            out.push(None);
            continue;
        };
        let ctx = &other.ctx;
        let results = match how {
            How::Verify(timeout) | How::VerifyOnly(timeout) => {
                job.verify_all(ctx, *timeout, None)?
            }
            How::Here(_, timeout, guard) => job.verify_all(ctx, *timeout, Some(guard))?,
            How::Verified(_, all, name) => {
                let all = Results {
                    format: verified::FORMAT,
                    commit: job.commit().to_string(),
                    goals: all.to_vec(),
                };
                let goals = verified::check(name, &all, Some(&other.file), &job.expected())?;
                Results { goals, ..all }
            }
        };
        out.push(Some(results));
    }
    Ok(out)
}

/// The verify job's results for the file it writes, each naming its plan file.
pub fn tagged(plans: &[OtherPlan], results: Vec<Option<Results>>) -> Vec<GoalResult> {
    let mut out = Vec::new();
    for (other, results) in plans.iter().zip(results) {
        let goals = results.map(|r| r.goals).unwrap_or_default();
        out.extend(goals.into_iter().map(|g| GoalResult {
            file: Some(other.file.clone()),
            ..g
        }));
    }
    out
}

/// What the runs found, into `out`: each goal done on the base verified again;
/// under `--strict`, what a red start at the base makes high
/// ([`super::red_at_base`]); and with a judge (`How::Here`, `How::Verified`), a
/// green start from the gate's own runs and the judge's verdict, but for goals
/// only verified again whose work is unchanged (or whose verify failed, which is
/// their failure already). A re-judge that passes takes back a weak sign-off's
/// finding, as for the configured file. Called once every verify has run.
pub fn judge(
    plans: &[OtherPlan],
    parsed: &[Plan<'_>],
    jobs: &[Option<Rejudge<'_, '_>>],
    results: &[Option<Results>],
    how: &How<'_>,
    out: &mut Vec<OtherGoal>,
) -> Result<()> {
    let found = |out: &mut Vec<OtherGoal>, other: &OtherPlan, id: &str, what: String, failed| {
        out.push(OtherGoal {
            file: other.file.clone(),
            id: id.to_string(),
            what,
            failed,
            needs_approval: false,
        });
    };
    for (((other, plan), job), results) in plans.iter().zip(parsed).zip(jobs).zip(results) {
        let (Some(job), Some(results)) = (job, results) else {
            continue;
        };
        let ctx = &other.ctx;
        for id in &other.reverify {
            let what = match results.goals.iter().find(|r| &r.id == id) {
                None => "reverify failed: the verify job reported nothing for this goal".into(),
                Some(r) if r.passed => "reverify: passed".to_string(),
                Some(r) => format!(
                    "reverify failed: {}",
                    r.failure.as_deref().unwrap_or("(no reason)")
                ),
            };
            let failed = what.starts_with("reverify failed");
            found(out, other, id, what, failed);
        }
        // Red at the base, from the same runs, as for the configured file's goals.
        if other.strict {
            let root = &ctx.repo()?.root;
            let base = crate::git::resolve_commit(root, &other.base)?;
            for result in &results.goals {
                let Some(goal) = plan.goal(&result.id) else {
                    continue;
                };
                for finding in super::red_at_base(root, plan, goal, result, &base) {
                    let what = format!("strict: {finding}");
                    let mine =
                        |o: &OtherGoal| o.file == other.file && o.id == result.id && o.what == what;
                    if !out.iter().any(mine) {
                        found(out, other, &result.id, what, true);
                    }
                }
            }
        }
        let judge = match how {
            How::Here(judge, ..) | How::Verified(judge, ..) => judge,
            _ => continue,
        };
        for result in results.goals.iter().filter(|_| other.strict) {
            let Some(goal) = plan.goal(&result.id) else {
                continue;
            };
            if !other.rejudge.contains(&result.id) {
                continue;
            }
            let Some(green) = crate::red_first::green_in_run(ctx, plan, goal, result)? else {
                continue;
            };
            let said = "strict: verify-green-at-start";
            let mine = |o: &OtherGoal| o.file == other.file && o.id == result.id;
            if !out.iter().any(|o| mine(o) && o.what.starts_with(said)) {
                let what = format!("{said}: {green}; the gate ran it there");
                found(out, other, &result.id, what, true);
            }
        }
        let verify_only = super::verify_only(&other.reverify, &other.judge_again, results);
        for (id, r) in job.judge_all(ctx, judge, results, &verify_only)? {
            if r.passed() {
                let weak = format!("strict: {}", super::WEAK_SIGN_OFF);
                out.retain(|o| !(o.file == other.file && o.id == id && o.what.starts_with(&weak)));
            }
            let what = format!("rejudge: verify {}; judge {}", r.verify, r.verdict);
            found(out, other, &id, what, !r.passed());
        }
    }
    Ok(())
}

/// Refuses (exit 3) a results file that names a plan file the gate runs nothing
/// of: its goals would be read by no one, and the file is untrusted.
pub fn refuse_unknown(plans: &[OtherPlan], results: &[GoalResult], name: &str) -> Result<()> {
    for result in results {
        let file = result.file.as_deref().unwrap_or_default();
        if !plans.iter().any(|p| p.file == file) {
            return Err(verified::refusal(
                name,
                format!(
                    "it names goal {:?} of {file:?}, which the gate does not re-judge",
                    result.id
                ),
            ));
        }
    }
    Ok(())
}

//! The gate's other plan files: each `.md` of the repository with a `# Plan:` title
//! and a `## Log` besides the configured one (what `--file` and `plan rewind` call a
//! plan) is held to what the configured file is: its new sign-offs proven, held to
//! `--strict` and judged again; its goals done on the base whose files the pull
//! request changes verified again, and judged again when their work changed; in one
//! job or as two, the verify job's results naming the file. A second plan file is
//! no way around the gate.

use std::path::PathBuf;
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
use crate::plan::model::{Goal, Status, parse};
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

/// Another plan file's goals the gate runs a verify for ([`run`]).
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
}

/// How [`run`] runs the other plan files' verifies, as the configured file's are.
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
/// returned for [`run`].
pub fn find(ctx: &Ctx, base: &str, strict: bool) -> Result<(Vec<OtherGoal>, Vec<OtherPlan>)> {
    let repo = ctx.repo()?;
    let root = &repo.root;
    let main = ctx.plan_in_repo();
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for rev in [base, "HEAD"] {
        for (path, text) in git::files_where(root, rev, ".md", super::is_plan)? {
            if main.as_ref() != Some(&path) && !files.iter().any(|(p, _)| *p == path) {
                // The base's text, or none: a file new in the pull request.
                files.push((path, if rev == base { text } else { String::new() }));
            }
        }
    }
    let mut out = Vec::new();
    let mut plans = Vec::new();
    for (rel, base_text) in files {
        let name = rel.to_string_lossy().into_owned();
        let then = parse(&base_text);
        let text = match std::fs::read_to_string(root.join(&rel)) {
            Ok(text) => text,
            // Gone at the head: its lost lines and goals are `against`'s.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                out.push(OtherGoal {
                    file: name,
                    id: String::new(),
                    what: format!("cannot be read at the head ({e}); a plan file is UTF-8 text"),
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
        for e in &now.errors {
            let what = format!("line {}: a format error at the head: {}", e.line, e.message);
            found("", what, true, false);
        }
        octx.prove_in_gate(&mut now);
        for cancel in rules::cancels(&then, &now) {
            let what = format!("cancelled: {} (line {})", cancel.reason, cancel.line);
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
            // As in plan.md, a finished goal the head cannot prove fails: a hand-written
            // reopen line or an edited record would otherwise hide its broken work.
            if let Proof::Unproven { why, .. } = &proof
                && goal.status().is_finished()
            {
                found(&id, format!("unproven: {why}"), true, false);
                continue;
            }
            // A goal done on the base, as the configured file's: imported done
            // counts, another tool's word held to its verify like a sign-off's.
            if !done || !(proof.is_proven() || matches!(proof, Proof::Imported { .. })) {
                continue;
            }
            let changed = touched(&octx, &now, goal, base)?;
            if changed.is_empty() {
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
            if work_touched(&octx, &then, goal, &changed)? {
                judge_again.push(id.clone());
            }
            reverify.push(id);
        }
        if !rejudge.is_empty() || !reverify.is_empty() {
            plans.push(OtherPlan {
                file: name,
                ctx: octx,
                text,
                base_text,
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

/// Runs what [`find`] left to run, as `how` says, into `out`: each goal's verify,
/// and its judge but for goals only verified again whose work is unchanged (or
/// whose verify failed, which is their failure already). A re-judge that passes
/// takes back a weak sign-off's finding, as for the configured file. Returns the
/// results the verify job writes (`How::VerifyOnly`), each naming its file.
pub fn run(
    plans: &[OtherPlan],
    how: &How<'_>,
    out: &mut Vec<OtherGoal>,
) -> Result<Vec<GoalResult>> {
    let mut written = Vec::new();
    for other in plans {
        let plan = parse(&other.text);
        let ids: Vec<&String> = match how {
            How::Verify(_) => other.reverify.iter().collect(),
            _ => other.rejudge.iter().chain(&other.reverify).collect(),
        };
        let goals: Vec<&Goal<'_>> = ids.iter().filter_map(|id| plan.goal(id)).collect();
        if goals.is_empty() {
            continue;
        }
        let ctx = &other.ctx;
        let mut job = Rejudge::prepare(ctx, &plan, goals)?;
        job.against_base_text(other.base_text.clone());
        job.check_starts(ctx, &plan, &other.rejudge, &other.base)?;
        let results = match how {
            How::Verify(timeout) | How::VerifyOnly(timeout) => {
                job.verify_all(ctx, *timeout, None)?
            }
            How::Here(_, timeout, guard) => job.verify_all(ctx, *timeout, Some(guard))?,
            How::Verified(_, all, name) => Results {
                format: verified::FORMAT,
                commit: job.commit().to_string(),
                goals: verified::check(
                    name,
                    &Results {
                        format: verified::FORMAT,
                        commit: job.commit().to_string(),
                        goals: all.to_vec(),
                    },
                    Some(&other.file),
                    &job.expected(),
                )?,
            },
        };
        if let How::VerifyOnly(_) = how {
            written.extend(results.goals.into_iter().map(|g| GoalResult {
                file: Some(other.file.clone()),
                ..g
            }));
            continue;
        }
        let found = |out: &mut Vec<OtherGoal>, id: &str, what: String, failed: bool| {
            out.push(OtherGoal {
                file: other.file.clone(),
                id: id.to_string(),
                what,
                failed,
                needs_approval: false,
            });
        };
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
            found(out, id, what, failed);
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
            let Some(green) = crate::red_first::green_in_run(ctx, &plan, goal, result)? else {
                continue;
            };
            let said = "strict: verify-green-at-start";
            let mine = |o: &OtherGoal| o.file == other.file && o.id == result.id;
            out.retain(|o| {
                !(mine(o) && o.what.starts_with(&format!("{said} could not be checked")))
            });
            if !out.iter().any(|o| mine(o) && o.what.starts_with(said)) {
                let what = format!("{said}: {green}; the gate ran it there");
                found(out, &result.id, what, true);
            }
        }
        let verify_only: Vec<String> = other
            .reverify
            .iter()
            .filter(|id| {
                !other.judge_again.contains(id)
                    || !results.goals.iter().any(|r| &r.id == *id && r.passed)
            })
            .cloned()
            .collect();
        for (id, r) in job.judge_all(ctx, judge, &results, &verify_only)? {
            if r.passed() {
                let weak = format!("strict: {}", super::WEAK_SIGN_OFF);
                out.retain(|o| !(o.file == other.file && o.id == id && o.what.starts_with(&weak)));
            }
            let what = format!("rejudge: verify {}; judge {}", r.verify, r.verdict);
            found(out, &id, what, !r.passed());
        }
    }
    Ok(written)
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

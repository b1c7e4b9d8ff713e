//! The audit and the pull-request gate as one service, from request to report:
//! every finished goal checked against its record, and with a base the base's lines
//! kept, new sign-offs verified and judged again out of the repository's reach and
//! `--strict`'s findings. `plan audit` asks it and prints the [`Report`] it returns;
//! the comparisons themselves are in `plan/gate.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use super::others::{self, OtherPlan};
use super::report::{Entry, Judged, RejudgeView, Removed, Report, gate_failures};
use super::{Base, Rejudge};
use crate::config::{self, Config};
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git;
use crate::judge::guard::Guard;
use crate::judge::run::Judge;
use crate::plan::gate::{self as plan_gate, Reverted};
use crate::plan::grown;
use crate::plan::history;
use crate::plan::model::{Goal, Plan, Status, parse};
use crate::plan::proof::Proof;
use crate::verify;

/// What `plan audit` asks, its flags as a request.
#[derive(Debug, Default)]
pub struct Request {
    /// Run each proven done goal's verify again, without a judge.
    pub reverify: bool,
    /// The pull-request gate's base revision.
    pub base: Option<String>,
    /// Verify and judge each goal signed off since the base again.
    pub rejudge: bool,
    /// The judge backend `rejudge` asks, over the user's config.
    pub judge: Option<String>,
    /// The gate's first job: run the verifies, write their results here, judge none.
    pub verify_only: Option<PathBuf>,
    /// The gate's second job: the verify results to judge from, run no verify.
    pub verified: Option<PathBuf>,
    pub strict: bool,
    /// Who approved the pull request's cancels and contract changes.
    pub approved_by: Option<String>,
    /// The judge job's file of the sign-offs CI's judge accepted, and what signs it:
    /// written once the whole gate passed.
    pub ci_accepted: Option<(PathBuf, super::ci_record::Signer)>,
}

/// What the audit came to.
pub enum Outcome {
    /// `verify_only`: the verifies ran and their results were written.
    VerifiedOnly {
        goals: usize,
        failed: usize,
        commit: String,
        file: PathBuf,
    },
    /// The report, and how many problems fail it (0: it passes).
    Report { report: Box<Report>, failed: usize },
}

/// The goals the checks after the walk over every goal take up: re-judged (signed
/// off since the base), verified again (the base's, touched), and of those, judged
/// again (their work changed).
#[derive(Default)]
struct Pending<'p, 'a> {
    rejudge: Vec<&'p Goal<'a>>,
    reverify: Vec<&'p Goal<'a>>,
    judge_again: Vec<String>,
    /// Each goal of `reverify` with the files the pull request changes that its
    /// verify rests on.
    touched: Vec<(String, Vec<String>)>,
}

/// What every goal's check reads, set up once before the first.
struct Audit<'p, 'a> {
    ctx: &'p Ctx,
    plan: &'p Plan<'a>,
    req: &'p Request,
    /// The judge and its timeout, with `rejudge`.
    rejudge_with: Option<(Judge, Duration)>,
    /// The verifies' timeout, when any is to run.
    verify_timeout: Option<Duration>,
    /// The base's own plan file: which of its goals' work the pull request changes
    /// is read from the base's log lines, which the pull request cannot write.
    base_plan: Plan<'p>,
    /// The judge's program and files, fingerprinted before any of the pull
    /// request's code runs here (the verify job's file, read instead, ran it
    /// elsewhere).
    guard: Option<Guard>,
    /// With `reverify`, the repository's settings.
    config: Option<Config>,
    root: PathBuf,
    removed: Vec<Removed>,
    reverts: Vec<Reverted>,
}

/// Checks every done and cancelled goal against its sign-off record, and with a
/// base, the pull request against it.
pub fn audit(ctx: &Ctx, req: &Request) -> Result<Outcome> {
    if let Some(repo) = &ctx.repo {
        super::refuse_hidden_history(&repo.root)?;
    }
    let src = ctx.store.read()?;
    let mut plan = ctx.parse(&src)?;
    match req.base {
        Some(_) => ctx.prove_in_gate(&mut plan),
        None => ctx.prove(&mut plan),
    }
    let plan = plan;
    let reverts = super::reverts(ctx)?;
    let mut base = req
        .base
        .as_deref()
        .map(|rev| super::against(ctx, &plan, rev, &reverts))
        .transpose()?;
    let base_text = match (&base, req.rejudge, ctx.plan_in_repo()) {
        (Some(b), true, Some(rel)) => {
            git::file_at(&ctx.repo()?.root, &b.commit, &rel)?.unwrap_or_default()
        }
        _ => String::new(),
    };
    let audit = Audit::new(ctx, &plan, req, &base_text, reverts)?;
    let mut other_plans = Vec::new();
    if let Some(b) = &mut base {
        let (found, plans) = others::find(ctx, &b.commit, req.strict)?;
        b.other_files = found;
        other_plans = plans;
    }
    let mut pending = Pending::default();
    let mut goals = Vec::new();
    for goal in plan.goals.iter().filter(|g| g.status().is_finished()) {
        goals.push(audit.entry(goal, base.as_ref(), &mut pending)?);
    }
    if let Some(b) = &base
        && audit.rejudge_with.is_some()
        && !pending.touched.is_empty()
    {
        let owners = super::unclaimed::owners(ctx, &b.commit, &pending.touched)?;
        for note in &owners.notes {
            crate::out::warn(note);
        }
        for id in owners.ids {
            if !pending.judge_again.contains(&id) {
                pending.judge_again.push(id);
            }
        }
    }
    if let Some(b) = &base
        && (req.rejudge || req.verify_only.is_some())
    {
        let judged = pending.rejudge.len()
            + pending.judge_again.len()
            + other_plans.iter().map(OtherPlan::to_judge).sum::<usize>();
        refuse_past_cap(ctx, &b.commit, judged)?;
    }
    let mut judged = None;
    if let Some(done) =
        audit.run_checks(&mut base, &other_plans, pending, &mut goals, &mut judged)?
    {
        return Ok(done);
    }
    let outcome = audit.report(goals, base, judged);
    if let (Some((file, signer)), Outcome::Report { report, failed: 0 }) =
        (&req.ci_accepted, &outcome)
    {
        ci_accepted(ctx, file, signer, &plan, report)?;
    }
    Ok(outcome)
}

/// The judge job's file of CI's accepts, once the gate passed: each goal signed
/// off in the pull request whose re-judge (its verify and CI's own judge) passed.
fn ci_accepted(
    ctx: &Ctx,
    file: &Path,
    signer: &super::ci_record::Signer,
    plan: &Plan<'_>,
    report: &Report,
) -> Result<()> {
    let Some(base) = &report.base else {
        return Ok(());
    };
    let ids: Vec<String> = report
        .goals
        .iter()
        .filter(|g| g.rejudge.as_ref().is_some_and(|r| r.passed))
        .filter(|g| base.signed_off.contains(&g.id))
        .map(|g| g.id.clone())
        .collect();
    let head = git::resolve_commit(&ctx.repo()?.root, "HEAD")?;
    super::ci_record::write(file, signer, plan, &head, &ids)?;
    Ok(())
}

impl<'p, 'a> Audit<'p, 'a> {
    fn new(
        ctx: &'p Ctx,
        plan: &'p Plan<'a>,
        req: &'p Request,
        base_text: &'p str,
        reverts: Vec<Reverted>,
    ) -> Result<Self> {
        let rejudge_with = req
            .rejudge
            .then(|| super::rejudge_judge(req.judge.as_deref()))
            .transpose()?;
        // The verify job runs the verifies the re-judge would, with the same timeout.
        let verify_timeout = match (&rejudge_with, req.verify_only.is_some()) {
            (Some((_, timeout)), _) => Some(*timeout),
            (None, true) => Some(Duration::from_secs(
                config::load_user()?.verify_timeout_secs,
            )),
            (None, false) => None,
        };
        let guard = match (&rejudge_with, &req.verified) {
            (Some((judge, _)), None) => {
                let home = crate::env::os("HOME")
                    .filter(|h| !h.is_empty())
                    .map(PathBuf::from);
                Some(Guard::take(judge, home.as_deref())?)
            }
            _ => None,
        };
        let config = req
            .reverify
            .then(|| config::load(ctx.repo.as_ref().map(|r| r.root.as_path())))
            .transpose()?;
        // A goal reopened and signed off again since, as the hint below asks, stands
        // on that: the rewritten line no longer decides it.
        let removed: Vec<Removed> = removed_lines(ctx, plan, &reverts)?
            .into_iter()
            .filter(|r| !history::signed_off_anew(plan, &r.id, r.stamp(), &r.line))
            .collect();
        Ok(Audit {
            ctx,
            plan,
            req,
            rejudge_with,
            verify_timeout,
            base_plan: parse(base_text),
            guard,
            config,
            root: ctx.prompt_root(),
            removed,
            reverts,
        })
    }

    /// One finished goal: its proof, with the log lines removed since and the
    /// reverts that void it, `--strict`'s findings, and which checks after the
    /// walk take it up.
    fn entry(
        &self,
        goal: &'p Goal<'a>,
        base: Option<&Base>,
        pending: &mut Pending<'p, 'a>,
    ) -> Result<Entry> {
        let (ctx, plan, req) = (self.ctx, self.plan, self.req);
        let proof = self.proof(goal);
        // With a base, only what the pull request signs off is judged again or held
        // to --strict: the base passed its own gate.
        let scoped = base.is_none_or(|b| {
            b.signed_off.iter().any(|s| *s == goal.id)
                || b.unsigned_done.iter().any(|s| *s == goal.id)
        });
        let mut findings = if req.strict && scoped {
            super::strict_findings(ctx, plan, goal, base.map(|b| b.commit.as_str()))?
        } else {
            Vec::new()
        };
        // Imported history is no sign-off, and fails --strict only once its
        // contract is no longer the one it came in with.
        if req.strict
            && let Proof::Imported {
                changed: Some(changed),
                ..
            } = &proof
        {
            findings.push(changed.clone());
        }
        // Judged after the walk, every verify first: see gate::Rejudge.
        let rejudge = match &self.verify_timeout {
            Some(_) if scoped && goal.status() == Status::Done => Some(if proof.is_proven() {
                pending.rejudge.push(goal);
                RejudgeView {
                    verify: "not run".to_string(),
                    verdict: "not asked".to_string(),
                    passed: false,
                }
            } else {
                RejudgeView {
                    verify: "not run: unproven".to_string(),
                    verdict: "not asked: unproven".to_string(),
                    passed: false,
                }
            }),
            _ => None,
        };
        let reverify = match &self.config {
            Some(config) if proof.is_proven() && goal.status() == Status::Done => Some(reverify(
                plan,
                goal,
                &self.root,
                Duration::from_secs(config.verify_timeout_secs),
            )?),
            _ => None,
        };
        // With a base, a goal done there whose files the pull request changes is
        // verified again, whatever flags were given: nothing else looks at it. Its
        // verify runs the pull request's code, so it runs with the re-judge's, after
        // the judge's files are fingerprinted, in a scrubbed copy (and in the verify
        // job, never the judge's); a check whose own files changed fails here, unrun.
        let reverify = match (reverify, base) {
            // An imported done goal counts: another tool's word that it works is
            // held to its verify like a sign-off's.
            (None, Some(b))
                if !scoped
                    && (proof.is_proven() || matches!(proof, Proof::Imported { .. }))
                    && goal.status() == Status::Done =>
            {
                self.base_goal(goal, b, &mut findings, pending)?
            }
            (reverify, _) => reverify,
        };
        let weakened_tests = crate::weakened::of_goal(&self.root, plan, goal)?;
        let weakened_findings = weakened_tests.as_ref().map(|found| {
            found
                .iter()
                .flat_map(crate::plan::weakened::kinds::of)
                .collect()
        });
        let verify_green_at_start = (goal.status() == Status::Done)
            .then(|| crate::red_first::of_goal(ctx, plan, goal))
            .flatten();
        Ok(Entry {
            id: goal.id.to_string(),
            title: goal.title.to_string(),
            status: goal.status(),
            archived: goal.archived,
            line: goal.line,
            proof: proof.into(),
            reverify,
            weakened_tests,
            weakened_findings,
            verify_green_at_start,
            rejudge,
            findings,
            signed_by: plan_gate::sign_off_judge(plan, &goal.id).unwrap_or_else(|| "-".into()),
            verified_at_sign_off: plan_gate::sign_off_verified(plan, &goal.id),
        })
    }

    /// A goal's proof, unless a log line of its was removed or moved (a deleted or
    /// moved reopen would make an old sign-off count again), or a revert voids it.
    fn proof(&self, goal: &Goal<'_>) -> Proof {
        let mut proof = self.plan.proof(goal);
        // A line no commit had: the proof's own reason, if it has one, comes first.
        let uncommitted = self
            .removed
            .iter()
            .find(|r| r.id == goal.id && r.commit.is_empty() && proof.is_proven());
        if let Some(gone) = uncommitted {
            proof = Proof::Unproven {
                why: format!(
                    "its log line `{}`, that plan wrote at {}, {} (no commit had it); the log is append-only",
                    gone.line,
                    gone.stamp(),
                    gone.what
                ),
                hint: format!(
                    "put the line back where it was in the log; if the goal is to be worked on again, plan reopen {} --reason TEXT",
                    goal.id
                ),
            };
        } else if let Some(gone) = self
            .removed
            .iter()
            .find(|r| r.id == goal.id && !r.commit.is_empty())
        {
            proof = Proof::Unproven {
                why: format!(
                    "its log line `{}` (in commit {}) {}; the log is append-only",
                    gone.line, gone.commit, gone.what
                ),
                hint: format!(
                    "restore the log from git (`git show {}:plan.md`); if the goal is to be worked on again, plan reopen {} --reason TEXT",
                    gone.commit, goal.id
                ),
            };
        }
        if proof.is_proven()
            && let Some(why) = plan_gate::revert_voids(self.plan, goal, &self.reverts)
        {
            proof = Proof::Unproven {
                why,
                hint: format!(
                    "sign it off again: plan complete {} --evidence TEXT --path FILE",
                    goal.id
                ),
            };
        }
        proof
    }

    /// A goal done on the base: verified again when the pull request touches the
    /// files it rests on, and judged again when it changes its work.
    fn base_goal(
        &self,
        goal: &'p Goal<'a>,
        base: &Base,
        findings: &mut Vec<String>,
        pending: &mut Pending<'p, 'a>,
    ) -> Result<Option<String>> {
        let touched = super::touched(self.ctx, self.plan, goal, &base.commit)?;
        if self.req.strict && !touched.is_empty() {
            findings.extend(super::weakened_on_base_goal(self.ctx, goal, &base.commit));
        }
        if touched.is_empty() {
            return Ok(None);
        }
        if let Some(failed) = super::files_changed(self.plan, goal, &self.root) {
            return Ok(Some(failed));
        }
        if self.rejudge_with.is_some()
            && super::work_touched(self.ctx, &self.base_plan, goal, &base.commit, &touched)?
        {
            pending.judge_again.push(goal.id.to_string());
        }
        pending.touched.push((goal.id.to_string(), touched));
        pending.reverify.push(goal);
        Ok(Some("not run".to_string()))
    }

    /// The verifies of the goals the walk set aside, then their judges: the base's
    /// goals the pull request touches beside the re-judged ones, with the same
    /// timeout (the user's, without `rejudge`), and the other plan files' goals.
    /// `Some` when the request was the verify job's, which ends here.
    fn run_checks(
        &self,
        base: &mut Option<Base>,
        other_plans: &[OtherPlan],
        pending: Pending<'p, 'a>,
        goals: &mut [Entry],
        judged: &mut Option<Judged>,
    ) -> Result<Option<Outcome>> {
        let (ctx, plan, req) = (self.ctx, self.plan, self.req);
        let reverify_ids: Vec<String> = pending.reverify.iter().map(|g| g.id.to_string()).collect();
        let verify_timeout = match self.verify_timeout {
            None if !pending.reverify.is_empty() || other_plans.iter().any(|o| o.reverifies()) => {
                Some(Duration::from_secs(
                    config::load_user()?.verify_timeout_secs,
                ))
            }
            t => t,
        };
        let Some(timeout) = verify_timeout else {
            return Ok(None);
        };
        let rejudge_ids: Vec<String> = pending.rejudge.iter().map(|g| g.id.to_string()).collect();
        let mut all = pending.rejudge;
        all.extend(pending.reverify);
        let mut run = Rejudge::prepare(ctx, plan, all)?;
        if let Some(b) = &base {
            run.against_base(ctx, plan, &b.commit)?;
            run.check_starts(ctx, plan, &rejudge_ids, &b.commit)?;
        }
        // The other plan files' goals, read before any verify runs, as these are.
        let other_parsed = others::parsed(other_plans);
        let judging = self.rejudge_with.is_some() || req.verify_only.is_some();
        let other_jobs = others::prepare(other_plans, &other_parsed, judging)?;
        if let Some(file) = &req.verify_only {
            let mut results = run.verify_all(ctx, timeout, None)?;
            let how = others::How::VerifyOnly(timeout);
            let found = others::verify(other_plans, &other_jobs, &how)?;
            results.goals.extend(others::tagged(other_plans, found));
            write_results(file, &results)?;
            return Ok(Some(Outcome::VerifiedOnly {
                goals: results.goals.len(),
                failed: results.goals.iter().filter(|g| !g.passed).count(),
                commit: results.commit,
                file: file.clone(),
            }));
        }
        let (results, found) = match (&self.rejudge_with, &req.verified) {
            (Some(_), Some(file)) => {
                crate::verified::read(file, run.commit(), &run.expected())?.split()
            }
            (Some(_), None) => (
                run.verify_all(ctx, timeout, self.guard.as_ref())?,
                Vec::new(),
            ),
            (None, _) => (run.verify_all(ctx, timeout, None)?, Vec::new()),
        };
        // The other plan files' goals, run (or read) as the configured file's.
        let name = req.verified.as_ref().map(|f| f.display().to_string());
        let how = match (&self.rejudge_with, &name, &self.guard) {
            (Some((judge, _)), Some(name), _) => {
                others::refuse_unknown(other_plans, &found, name)?;
                others::How::Verified(judge, &found, name)
            }
            (Some((judge, _)), None, Some(guard)) => others::How::Here(judge, timeout, guard),
            _ => others::How::Verify(timeout),
        };
        // Every verify runs before any judge is asked.
        let other_results = others::verify(other_plans, &other_jobs, &how)?;
        green_at_start_run(ctx, plan, &results, goals, req.strict)?;
        if let (Some(b), true) = (&base, req.strict) {
            red_at_start_run(ctx, plan, &results, goals, &b.commit)?;
        }
        for id in &reverify_ids {
            let outcome = match results.goals.iter().find(|r| &r.id == id) {
                None => "failed: the verify job reported nothing for this goal".to_string(),
                Some(r) if r.passed => "passed".to_string(),
                Some(r) => format!("failed: {}", r.failure.as_deref().unwrap_or("(no reason)")),
            };
            if let Some(entry) = goals.iter_mut().find(|g| g.id == *id) {
                entry.reverify = Some(outcome);
            }
        }
        let judging = std::time::Instant::now();
        let calls = super::JUDGE_CALLS.load(std::sync::atomic::Ordering::Relaxed);
        if let Some((judge, _)) = &self.rejudge_with {
            // The base's goals whose work the pull request changes are judged again
            // too ([`super::work_touched`]), unless their verify failed here: that
            // is already their failure.
            let verify_only = super::verify_only(&reverify_ids, &pending.judge_again, &results);
            for (id, r) in run.judge_all(ctx, judge, &results, &verify_only)? {
                if let Some(entry) = goals.iter_mut().find(|g| g.id == id) {
                    // CI's own judge, out of the repository's reach, accepted it:
                    // the judge the sign-off named no longer carries the proof.
                    if r.passed() {
                        entry
                            .findings
                            .retain(|f| !f.starts_with(super::WEAK_SIGN_OFF));
                    }
                    entry.rejudge = Some(RejudgeView {
                        passed: r.passed(),
                        verify: r.verify,
                        verdict: r.verdict,
                    });
                }
            }
        }
        if let Some(b) = base {
            others::judge(
                other_plans,
                &other_parsed,
                &other_jobs,
                &other_results,
                &how,
                &mut b.other_files,
            )?;
        }
        if self.rejudge_with.is_some() {
            *judged = Some(Judged {
                calls: super::JUDGE_CALLS.load(std::sync::atomic::Ordering::Relaxed) - calls,
                secs: judging.elapsed().as_secs(),
            });
        }
        Ok(None)
    }

    /// The report over every entry, and what fails it.
    fn report(self, goals: Vec<Entry>, base: Option<Base>, judged: Option<Judged>) -> Outcome {
        let (ctx, plan, req) = (self.ctx, self.plan, self.req);
        let mut report = Report {
            file: ctx.store.name.clone(),
            unproven: goals.iter().filter(|g| g.proof.state == "unproven").count(),
            regressed: goals
                .iter()
                .filter(|g| {
                    g.reverify
                        .as_deref()
                        .is_some_and(|r| r.starts_with("failed"))
                })
                .count(),
            not_reverified: goals
                .iter()
                .filter(|g| {
                    // The gate re-verifies what its pull request touched itself.
                    !req.reverify
                        && req.base.is_none()
                        && g.status == Status::Done
                        && g.proof.state == "proven"
                        && plan.goal(&g.id).is_some_and(|goal| goal.verify().is_some())
                })
                .count(),
            goals,
            orphaned_ids: plan
                .orphans()
                .into_iter()
                .map(|(id, _)| id.to_string())
                .collect(),
            archived_unfinished: archived_unfinished(plan),
            removed_lines: self.removed,
            out_of_order: crate::plan::stamps::out_of_order(&plan.log),
            log_place: log_place(plan, &ctx.store.name),
            base,
            failures: None,
            judged,
            approved_by: req.approved_by.clone(),
        };
        // A goal the log has a history for and the file lost went without a record:
        // as a goal hidden under `## Archive` unfinished, it fails the audit.
        let mut failed = report.unproven
            + report.regressed
            + report.archived_unfinished.len()
            + report.orphaned_ids.len()
            + report.removed_lines.len();
        failed += gate_failures(&report, req.strict);
        if report.base.is_some() || req.strict {
            report.failures = Some(failed);
        }
        Outcome::Report {
            report: Box::new(report),
            failed,
        }
    }
}

/// Fails the gate, before any verify runs, when it would ask CI's judge about more
/// goals than `gate.max_judged` of the base's settings allows (the pull request
/// cannot raise its own cap): each is a model call and a verify run on the
/// forge's bill.
fn refuse_past_cap(ctx: &Ctx, base: &str, judged: usize) -> Result<()> {
    let root = &ctx.repo()?.root;
    let cap = match git::file_at(root, base, Path::new(config::REPO_NAME))? {
        Some(text) => {
            let name = format!(
                "{} at the base ({})",
                config::REPO_NAME,
                &base[..12.min(base.len())]
            );
            config::from_text(&text, &name)?.gate_max_judged
        }
        None => config::Config::default().gate_max_judged,
    };
    if judged <= cap as usize {
        return Ok(());
    }
    Err(Exit::check_failed_hint(
        format!(
            "the gate would ask CI's judge about {judged} goal{}, more than gate.max_judged ({cap}) allows",
            if judged == 1 { "" } else { "s" }
        ),
        format!(
            "split the pull request, or raise gate.max_judged in {} on the default branch first (a pull request's own setting does not count)",
            config::REPO_NAME
        ),
    ))
}

/// The verify job's results, written where the person named with `--results`.
fn write_results(file: &Path, results: &crate::verified::Results) -> Result<()> {
    let text = serde_json::to_string_pretty(results)? + "\n";
    #[expect(
        clippy::disallowed_methods,
        reason = "the results file the person named with --results, written where they said"
    )]
    std::fs::write(file, text).map_err(|e| {
        Exit::env(format!(
            "cannot write the verify results {}: {e}",
            file.display()
        ))
    })?;
    Ok(())
}

/// plan's own log lines that plan.md's committed versions had and it lacks now,
/// each with the newest commit that had it. Every version HEAD reaches is searched,
/// however deep: a reopen deleted and then buried under any number of commits
/// would otherwise fall out of reach and let the old sign-off prove its goal again.
/// A history that cannot be read is an error, not an empty search: audit fails
/// closed.
fn removed_lines(ctx: &Ctx, plan: &Plan<'_>, reverts: &[Reverted]) -> Result<Vec<Removed>> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(Vec::new());
    };
    let index = history::LogIndex::new(plan);
    // The last version found to rewrite nothing: one it is with lines cut off its
    // end has the first of its log lines, in order, so rewrites nothing either, and
    // is not parsed (a long history whose commits each log a line would otherwise
    // parse the square of its length).
    let mut clean: Option<String> = None;
    let rewritten = |content: &str| {
        if clean
            .as_deref()
            .is_some_and(|newer| grown::cut_back(newer, content))
        {
            return false;
        }
        let found = !index.rewritten(&parse(content)).is_empty();
        if !found {
            clean = Some(content.to_string());
        }
        found
    };
    let revisions = git::file_versions_where(&repo.root, &rel, usize::MAX, rewritten)
        .with_context(|| {
            format!(
                "searching the history of {} for removed log lines\n  hint: audit reads every committed version of plan.md; repair the repository (`git fsck`) and run it again",
                rel.display()
            )
        })?;
    let mut out: Vec<Removed> = Vec::new();
    let taken_back = super::taken_back(ctx)?;
    // Each line once; a sign-off a `git revert` took back counts as a reopen instead.
    let mut keep = |rewrite: &history::Rewrite<'_>, what: &'static str, commit: &str| {
        let key = plan_gate::key(rewrite.entry());
        if reverts
            .iter()
            .any(|r| r.id == rewrite.id() && r.entries.contains(&key))
            || taken_back.contains(&key)
        {
            return;
        }
        let line = rewrite.entry().to_string();
        if !out.iter().any(|r| r.line == line) {
            out.push(Removed {
                id: rewrite.id().to_string(),
                line,
                what,
                commit: commit.to_string(),
            });
        }
    };
    for rev in &revisions {
        let then = parse(&rev.content);
        for rewrite in index.rewritten(&then) {
            keep(&rewrite, rewrite.describe(), &rev.short);
        }
    }
    // The lines plan wrote here that no commit has yet: deleted before a commit,
    // the history above never saw them.
    let lines: std::collections::HashSet<String> =
        plan.log.iter().map(|e| format!("- {e}")).collect();
    let kept: String = crate::logged::here(repo, |line| lines.contains(line))
        .iter()
        .map(|k| format!("{}\n", k.line))
        .collect();
    let kept = format!("## Log\n{kept}");
    let written = parse(&kept);
    for rewrite in index.rewritten(&written) {
        let what = match rewrite {
            history::Rewrite::Removed { .. } => "is gone",
            history::Rewrite::Moved { .. } => "was moved",
        };
        keep(&rewrite, what, "");
    }
    Ok(out)
}

/// Where a line plan wrote and plan.md lost is named: the log's heading, said to be
/// the heading so its line is not read as the lost line's, `FILE:LINE:` leading
/// for an editor.
fn log_place(plan: &Plan<'_>, file: &str) -> String {
    match plan.log_heading {
        Some(line) => format!("{file}:{line}: under `## Log`,"),
        None => format!("{file}:"),
    }
}

/// Red first, from the verify run again where each goal the pull request signs off
/// started (the verify job's `at_start`): a verify that passed there, with nothing
/// it rests on changed since, is `verify-green-at-start` whatever the log line says
/// (`failing`, `skipped`, or no start at all). Shown on the goal, and a finding
/// under `--strict`, once.
fn green_at_start_run(
    ctx: &Ctx,
    plan: &Plan<'_>,
    results: &crate::verified::Results,
    goals: &mut [Entry],
    strict: bool,
) -> Result<()> {
    for result in &results.goals {
        let (Some(goal), Some(entry)) = (
            plan.goal(&result.id),
            goals.iter_mut().find(|g| g.id == result.id),
        ) else {
            continue;
        };
        let green = crate::red_first::green_in_run(ctx, plan, goal, result)?;
        let Some(green) = green else { continue };
        let worded = format!("{green}; the gate ran it there");
        if strict
            && !entry
                .findings
                .iter()
                .any(|f| f.starts_with("verify-green-at-start"))
        {
            entry
                .findings
                .retain(|f| !f.starts_with("verify-green-at-start could not be checked"));
            entry
                .findings
                .push(format!("verify-green-at-start: {worded}"));
        }
        if entry.verify_green_at_start.is_none() {
            entry.verify_green_at_start = Some(worded);
        }
    }
    Ok(())
}

/// Red first's other half, from the same runs ([`super::red_at_base`]): what a
/// red start at the base makes high, on each goal's entry once.
fn red_at_start_run(
    ctx: &Ctx,
    plan: &Plan<'_>,
    results: &crate::verified::Results,
    goals: &mut [Entry],
    base: &str,
) -> Result<()> {
    let root = &ctx.repo()?.root;
    let base = crate::git::resolve_commit(root, base)?;
    for result in &results.goals {
        let (Some(goal), Some(entry)) = (
            plan.goal(&result.id),
            goals.iter_mut().find(|g| g.id == result.id),
        ) else {
            continue;
        };
        for finding in super::red_at_base(root, plan, goal, result, &base) {
            if !entry.findings.contains(&finding) {
                entry.findings.push(finding);
            }
        }
    }
    Ok(())
}

fn archived_unfinished(plan: &Plan<'_>) -> Vec<String> {
    plan.goals
        .iter()
        .filter(|g| g.archived && plan.proof(g) == Proof::Unfinished)
        .map(|g| g.id.to_string())
        .collect()
}

/// Runs a proven goal's verify again from the repository root, unless the files
/// the check itself is made of (a script, a test file) changed since the sign-off:
/// a gutted check passes anything, so it is not run and counts as failed.
fn reverify(
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    root: &std::path::Path,
    timeout: Duration,
) -> Result<String> {
    let Some(line) = goal.verify() else {
        return Ok("no verify".to_string());
    };
    if let Some(failed) = super::files_changed(plan, goal, root) {
        return Ok(failed);
    }
    let parsed = match verify::parse(line) {
        Ok(parsed) => parsed,
        Err(e) => return Ok(format!("failed: verify cannot run: {}", e.message)),
    };
    let outcome = verify::run(&parsed, root, timeout, 16 * 1024)?;
    Ok(if outcome.passed {
        "passed".to_string()
    } else {
        format!("failed: {}", outcome.why_failed(line, timeout))
    })
}

//! `plan audit`: one report over every done and cancelled goal, archived ones
//! included: proven from its record or not, and why. `--reverify` runs each proven
//! goal's verify again (no judge), so "done stays done" can be checked in CI.
//! `--base REV` is the pull-request gate (`gate.rs`): the base's plan lines kept,
//! new sign-offs judged again out of the repository's reach, `--strict`'s findings
//! and a Markdown summary.

use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::config;
use crate::ctx::{Ctx, Env};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::gate;
use crate::git;
use crate::out::println;
use crate::plan::gate::{self as plan_gate, Reverted, Row, Summary};
use crate::plan::history;
use crate::plan::model::{Goal, Plan, Status, parse};
use crate::plan::proof::Proof;
use crate::plan::render::ProofView;
use crate::verify;

/// Check every done and cancelled goal against its sign-off record; exit 1 if any is unproven
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Run each proven done goal's verify again (without a judge) and report the ones that no longer pass
    #[arg(long)]
    pub reverify: bool,
    /// The pull-request gate: every log line and goal of REV's plan files must still be here, in
    /// order; --rejudge and --strict then look only at what is new since REV
    #[arg(long, value_name = "REV")]
    pub base: Option<String>,
    /// With --base: for each goal signed off since REV, re-run its verify in a clean copy of HEAD
    /// and ask the judge again, with the judge from --judge or your user config (never the
    /// repository's .plan/config.yaml or .plan/prompts/)
    #[arg(long, requires = "base")]
    pub rejudge: bool,
    /// The judge --rejudge asks, over your user config's judge.backend
    #[arg(long, value_name = "BACKEND", requires = "rejudge")]
    pub judge: Option<String>,
    /// The gate's first job, which holds no secret: with --base, run the verify of each goal
    /// --rejudge would judge (in a clean copy of HEAD, a scrubbed environment and a throwaway
    /// HOME) and write what it found to --results FILE as JSON; no judge is asked
    #[arg(long, requires_all = ["base", "results"], conflicts_with_all = ["rejudge", "verified"])]
    pub verify_only: bool,
    /// Where --verify-only writes its results (JSON: the commit, and per goal its verify,
    /// passed or failed, the end of its output)
    #[arg(long, value_name = "FILE", requires = "verify_only")]
    pub results: Option<std::path::PathBuf>,
    /// The gate's second job, which holds the judge's key and runs none of the pull request's
    /// code: with --rejudge, run no verify and take its outcomes from FILE (written by
    /// --verify-only on the same commit), read as untrusted data: a wrong shape, another
    /// commit, an unknown goal or an oversize field is refused (exit 3); a goal it lacks fails
    #[arg(long, value_name = "FILE", requires = "rejudge")]
    pub verified: Option<std::path::PathBuf>,
    /// Also fail on weak sign-offs (no judge, a command judge), contract changes approved
    /// without a terminal, transcripts git does not track, weakened tests, and verifies
    /// that cannot fail or already passed when the goal started
    #[arg(long)]
    pub strict: bool,
    /// With --base: the person who approved the pull request's cancels and contract changes
    /// through the forge (the workflow passes it for a `plan-approved` label or an approving
    /// review); without it --strict fails on each of them
    #[arg(long, value_name = "NAME", requires = "base")]
    pub approved_by: Option<String>,
    /// Print the report as Markdown (a table of goal, state, judge, verify, findings), for a CI
    /// job summary or a pull-request comment
    #[arg(long, conflicts_with = "json")]
    pub markdown: bool,
}

#[derive(Serialize)]
struct Entry<'p> {
    id: &'p str,
    title: &'p str,
    status: Status,
    archived: bool,
    line: usize,
    proof: ProofView,
    /// With `--reverify`: `passed`, `failed: …`, or why it was not run.
    reverify: Option<String>,
    /// What the sign-off's weakened-tests check found (`{path, what}`); `None` when
    /// not recorded (a cancelled goal, a transcript from before the check).
    weakened_tests: Option<Vec<crate::plan::weakened::Finding>>,
    /// Each part of `weakened_tests` with its rule's id and severity, `{kind,
    /// confidence, file, line, text}`, as `plan show --json` lists `findings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    weakened_findings: Option<Vec<crate::plan::weakened::kinds::Shown>>,
    /// A done goal whose verify passed when it started, with nothing it rests on
    /// changed since (`verify-green-at-start`): that verify said nothing of the work.
    #[serde(skip_serializing_if = "Option::is_none")]
    verify_green_at_start: Option<String>,
    /// With `--rejudge`: the verify re-run and the judge's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    rejudge: Option<RejudgeView>,
    /// With `--strict`: what fails it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    findings: Vec<String>,
}

#[derive(Serialize)]
struct RejudgeView {
    verify: String,
    verdict: String,
    passed: bool,
}

#[derive(Serialize)]
struct Report<'p> {
    file: &'p str,
    goals: Vec<Entry<'p>>,
    /// Ids plan logged events for that no goal has any more.
    orphaned_ids: Vec<&'p str>,
    /// Archived goals that are open or active.
    archived_unfinished: Vec<&'p str>,
    /// plan's own log lines that a committed version of the file had and it lacks
    /// now (the log is append-only).
    removed_lines: Vec<Removed>,
    /// Log lines stamped earlier than a line above them: typed by hand, or two
    /// branches' logs merged. Named, not failed.
    out_of_order: Vec<crate::plan::stamps::OutOfOrder>,
    /// Where a lost line plan wrote is named (`plan.md:LINE` of the log heading).
    #[serde(skip)]
    log_place: String,
    unproven: usize,
    regressed: usize,
    /// With `--base`: the head measured against it.
    #[serde(skip_serializing_if = "Option::is_none")]
    base: Option<gate::Base>,
    /// With `--base` or `--strict`: every problem that fails the gate, counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    failures: Option<usize>,
    /// `--approved-by`: who approved the cancels and contract changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    approved_by: Option<String>,
}

/// A log line of plan's that was removed after it was committed.
#[derive(Serialize)]
struct Removed {
    /// The goal the line is about.
    id: String,
    line: String,
    /// `was removed since` or `was moved since`.
    what: &'static str,
    /// The newest commit that had it where it belongs; empty for a line no commit
    /// had, that plan wrote (kept in `.git/plan/logged.tsv`).
    commit: String,
}

impl Removed {
    /// The line's stamp, when plan wrote it with one.
    fn stamp(&self) -> &str {
        self.line.get(..16).unwrap_or_default()
    }
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
    let rewritten = |content: &str| !index.rewritten(&parse(content)).is_empty();
    let revisions = git::file_versions_where(&repo.root, &rel, usize::MAX, rewritten)
        .with_context(|| {
            format!(
                "searching the history of {} for removed log lines\n  hint: audit reads every committed version of plan.md; repair the repository (`git fsck`) and run it again",
                rel.display()
            )
        })?;
    let mut out: Vec<Removed> = Vec::new();
    let taken_back = gate::taken_back(ctx)?;
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

pub fn run(env: &Env, args: Args) -> Result<u8> {
    // An empty name would approve in the name of no one: a workflow whose
    // expression came out blank must not pass the gate for it.
    if args
        .approved_by
        .as_deref()
        .is_some_and(|name| !name.chars().any(char::is_alphanumeric))
    {
        return Err(Exit::usage_hint(
            "--approved-by names no one",
            "pass the login of the person who approved the pull request, or leave the flag out when no one did",
        ));
    }
    let ctx = env.ctx()?;
    if let Some(repo) = &ctx.repo {
        gate::refuse_hidden_history(&repo.root)?;
    }
    let src = ctx.store.read()?;
    let mut plan = ctx.parse(&src)?;
    match args.base {
        Some(_) => ctx.prove_in_gate(&mut plan),
        None => ctx.prove(&mut plan),
    }
    let reverts = gate::reverts(ctx)?;
    let base = args
        .base
        .as_deref()
        .map(|rev| gate::against(ctx, &plan, rev, &reverts))
        .transpose()?;
    let rejudge_with = args
        .rejudge
        .then(|| gate::rejudge_judge(args.judge.as_deref()))
        .transpose()?;
    // --verify-only runs the verifies --rejudge would, with the same timeout.
    let verify_timeout = match (&rejudge_with, args.verify_only) {
        (Some((_, timeout)), _) => Some(*timeout),
        (None, true) => Some(Duration::from_secs(
            config::load_user()?.verify_timeout_secs,
        )),
        (None, false) => None,
    };
    let mut to_rejudge: Vec<&Goal<'_>> = Vec::new();
    let mut to_reverify: Vec<&Goal<'_>> = Vec::new();
    let mut to_judge_again: Vec<String> = Vec::new();
    // The base's own plan file: which of its goals' work the pull request changes
    // is read from the base's log lines, which the pull request cannot write.
    let base_text = match (&base, &rejudge_with, ctx.plan_in_repo()) {
        (Some(b), Some(_), Some(rel)) => {
            crate::git::file_at(&ctx.repo()?.root, &b.commit, &rel)?.unwrap_or_default()
        }
        _ => String::new(),
    };
    let base_plan = parse(&base_text);
    // The judge's program and files, fingerprinted before any of the pull request's
    // code runs here (the verify job's file, read instead, ran it elsewhere).
    let guard = match (&rejudge_with, &args.verified) {
        (Some((judge, _)), None) => {
            let home = crate::env::os("HOME")
                .filter(|h| !h.is_empty())
                .map(std::path::PathBuf::from);
            Some(crate::judge::guard::Guard::take(judge, home.as_deref())?)
        }
        _ => None,
    };
    let mut base = base;
    let mut other_plans = Vec::new();
    if let Some(b) = &mut base {
        let (found, plans) = gate::others::find(ctx, &b.commit, args.strict)?;
        b.other_files = found;
        other_plans = plans;
    }
    let other_parsed = gate::others::parsed(&other_plans);
    // With a base, only what the pull request signs off is judged again or held to
    // --strict: the base passed its own gate.
    let in_scope = |id: &str| {
        base.as_ref().is_none_or(|b| {
            b.signed_off.iter().any(|s| s == id) || b.unsigned_done.iter().any(|s| s == id)
        })
    };
    let config = args
        .reverify
        .then(|| config::load(ctx.repo.as_ref().map(|r| r.root.as_path())))
        .transpose()?;
    let root = ctx.prompt_root();
    // A goal reopened and signed off again since, as the hint below asks, stands
    // on that: the rewritten line no longer decides it.
    let removed: Vec<Removed> = removed_lines(ctx, &plan, &reverts)?
        .into_iter()
        .filter(|r| !history::signed_off_anew(&plan, &r.id, r.stamp(), &r.line))
        .collect();
    let mut goals = Vec::new();
    for goal in plan.goals.iter().filter(|g| g.status().is_finished()) {
        let mut proof = plan.proof(goal);
        // A finished goal whose own log lines were removed or moved stands on a log
        // that was rewritten: a deleted or moved reopen would make an old sign-off
        // count again.
        // A line no commit had: the proof's own reason, if it has one, comes first.
        let uncommitted = removed
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
        } else if let Some(gone) = removed
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
            && let Some(why) = plan_gate::revert_voids(&plan, goal, &reverts)
        {
            proof = Proof::Unproven {
                why,
                hint: format!(
                    "sign it off again: plan complete {} --evidence TEXT --path FILE",
                    goal.id
                ),
            };
        }
        let scoped = in_scope(&goal.id);
        let mut findings = if args.strict && scoped {
            gate::strict_findings(ctx, &plan, goal, base.as_ref().map(|b| b.commit.as_str()))?
        } else {
            Vec::new()
        };
        // Imported history is no sign-off, and fails --strict only once its
        // contract is no longer the one it came in with.
        if args.strict
            && let Proof::Imported {
                changed: Some(changed),
                ..
            } = &proof
        {
            findings.push(changed.clone());
        }
        // Judged after the loop, every verify first: see gate::Rejudge.
        let rejudge = match &verify_timeout {
            Some(_) if scoped && goal.status() == Status::Done => Some(if proof.is_proven() {
                to_rejudge.push(goal);
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
        let reverify = match &config {
            Some(config) if proof.is_proven() && goal.status() == Status::Done => Some(reverify(
                &plan,
                goal,
                &root,
                Duration::from_secs(config.verify_timeout_secs),
            )?),
            _ => None,
        };
        // With a base, a goal done there whose files the pull request changes is
        // verified again, whatever flags were given: nothing else looks at it. Its
        // verify runs the pull request's code, so it runs with the re-judge's, after
        // the judge's files are fingerprinted, in a scrubbed copy (and in the verify
        // job, never the judge's); a check whose own files changed fails here, unrun.
        let reverify = match (reverify, &base) {
            // An imported done goal counts: another tool's word that it works is
            // held to its verify like a sign-off's.
            (None, Some(b))
                if !scoped
                    && (proof.is_proven() || matches!(proof, Proof::Imported { .. }))
                    && goal.status() == Status::Done =>
            {
                let touched = gate::touched(ctx, &plan, goal, &b.commit)?;
                if args.strict && !touched.is_empty() {
                    findings.extend(gate::weakened_on_base_goal(ctx, goal, &b.commit));
                }
                if touched.is_empty() {
                    None
                } else if let Some(failed) = gate::files_changed(&plan, goal, &root) {
                    Some(failed)
                } else {
                    if rejudge_with.is_some()
                        && gate::work_touched(ctx, &base_plan, goal, &touched)?
                    {
                        to_judge_again.push(goal.id.to_string());
                    }
                    to_reverify.push(goal);
                    Some("not run".to_string())
                }
            }
            (reverify, _) => reverify,
        };
        let weakened_tests = crate::weakened::of_goal(&root, &plan, goal)?;
        let weakened_findings = weakened_tests.as_ref().map(|found| {
            found
                .iter()
                .flat_map(crate::plan::weakened::kinds::of)
                .collect()
        });
        let verify_green_at_start = (goal.status() == Status::Done)
            .then(|| crate::red_first::of_goal(ctx, &plan, goal))
            .flatten();
        goals.push(Entry {
            id: &goal.id,
            title: goal.title,
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
        });
    }
    // The base's goals the pull request touches are verified beside the re-judged
    // ones, with the same timeout (the user's, without --rejudge); those whose work
    // it changes are judged again with them under --rejudge.
    let reverify_ids: Vec<String> = to_reverify.iter().map(|g| g.id.to_string()).collect();
    let verify_timeout = match verify_timeout {
        None if !to_reverify.is_empty() || other_plans.iter().any(|o| o.reverifies()) => Some(
            Duration::from_secs(config::load_user()?.verify_timeout_secs),
        ),
        t => t,
    };
    if let Some(timeout) = verify_timeout {
        let rejudge_ids: Vec<String> = to_rejudge.iter().map(|g| g.id.to_string()).collect();
        let mut all = to_rejudge;
        all.extend(to_reverify);
        let mut run = gate::Rejudge::prepare(ctx, &plan, all)?;
        if let Some(b) = &base {
            run.against_base(ctx, &b.commit)?;
            run.check_starts(ctx, &plan, &rejudge_ids, &b.commit)?;
        }
        // The other plan files' goals, read before any verify runs, as these are.
        let judging = rejudge_with.is_some() || args.verify_only;
        let other_jobs = gate::others::prepare(&other_plans, &other_parsed, judging)?;
        if args.verify_only {
            let mut results = run.verify_all(ctx, timeout, None)?;
            let how = gate::others::How::VerifyOnly(timeout);
            let others = gate::others::verify(&other_plans, &other_jobs, &how)?;
            results
                .goals
                .extend(gate::others::tagged(&other_plans, others));
            let file = args.results.as_deref().unwrap_or(std::path::Path::new("-"));
            let text = serde_json::to_string_pretty(&results)? + "\n";
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
            let failed = results.goals.iter().filter(|g| !g.passed).count();
            println(&format!(
                "verified {} goal{} at {}: {failed} failed; results in {}",
                results.goals.len(),
                if results.goals.len() == 1 { "" } else { "s" },
                &results.commit[..12],
                file.display()
            ))?;
            return Ok(OK);
        }
        let (results, others) = match (&rejudge_with, &args.verified) {
            (Some(_), Some(file)) => {
                crate::verified::read(file, run.commit(), &run.expected())?.split()
            }
            (Some(_), None) => (run.verify_all(ctx, timeout, guard.as_ref())?, Vec::new()),
            (None, _) => (run.verify_all(ctx, timeout, None)?, Vec::new()),
        };
        // The other plan files' goals, run (or read) as the configured file's.
        let name = args.verified.as_ref().map(|f| f.display().to_string());
        let how = match (&rejudge_with, &name, &guard) {
            (Some((judge, _)), Some(name), _) => {
                gate::others::refuse_unknown(&other_plans, &others, name)?;
                gate::others::How::Verified(judge, &others, name)
            }
            (Some((judge, _)), None, Some(guard)) => gate::others::How::Here(judge, timeout, guard),
            _ => gate::others::How::Verify(timeout),
        };
        // Every verify runs before any judge is asked.
        let other_results = gate::others::verify(&other_plans, &other_jobs, &how)?;
        green_at_start_run(ctx, &plan, &results, &mut goals, args.strict)?;
        for id in &reverify_ids {
            let outcome = match results.goals.iter().find(|r| &r.id == id) {
                None => "failed: the verify job reported nothing for this goal".to_string(),
                Some(r) if r.passed => "passed".to_string(),
                Some(r) => format!("failed: {}", r.failure.as_deref().unwrap_or("(no reason)")),
            };
            if let Some(entry) = goals.iter_mut().find(|g| g.id == id.as_str()) {
                entry.reverify = Some(outcome);
            }
        }
        if let Some((judge, _)) = &rejudge_with {
            // The base's goals whose work the pull request changes are judged again
            // too ([`gate::work_touched`]), unless their verify failed here: that
            // is already their failure.
            let verify_only = gate::verify_only(&reverify_ids, &to_judge_again, &results);
            for (id, r) in run.judge_all(ctx, judge, &results, &verify_only)? {
                if let Some(entry) = goals.iter_mut().find(|g| g.id == id) {
                    // CI's own judge, out of the repository's reach, accepted it:
                    // the judge the sign-off named no longer carries the proof.
                    if r.passed() {
                        entry
                            .findings
                            .retain(|f| !f.starts_with(gate::WEAK_SIGN_OFF));
                    }
                    entry.rejudge = Some(RejudgeView {
                        passed: r.passed(),
                        verify: r.verify,
                        verdict: r.verdict,
                    });
                }
            }
        }
        if let Some(b) = &mut base {
            gate::others::judge(
                &other_plans,
                &other_parsed,
                &other_jobs,
                &other_results,
                &how,
                &mut b.other_files,
            )?;
        }
    }
    let mut report = Report {
        file: &ctx.store.name,
        unproven: goals.iter().filter(|g| g.proof.state == "unproven").count(),
        regressed: goals
            .iter()
            .filter(|g| {
                g.reverify
                    .as_deref()
                    .is_some_and(|r| r.starts_with("failed"))
            })
            .count(),
        goals,
        orphaned_ids: plan.orphans().into_iter().map(|(id, _)| id).collect(),
        archived_unfinished: archived_unfinished(&plan),
        removed_lines: removed,
        out_of_order: crate::plan::stamps::out_of_order(&plan.log),
        log_place: log_place(&plan, &ctx.store.name),
        base,
        failures: None,
        approved_by: args.approved_by.clone(),
    };
    // A goal the log has a history for and the file lost went without a record:
    // as a goal hidden under `## Archive` unfinished, it fails the audit.
    let mut failed = report.unproven
        + report.regressed
        + report.archived_unfinished.len()
        + report.orphaned_ids.len()
        + report.removed_lines.len();
    failed += gate_failures(&report, args.strict);
    if report.base.is_some() || args.strict {
        report.failures = Some(failed);
    }
    if args.json {
        println(&serde_json::to_string_pretty(&report)?)?;
    } else if args.markdown {
        crate::out::print(&markdown(&report, &plan))?;
    } else {
        println(&human(&report, ctx))?;
    }
    if failed > 0 {
        return Err(Exit::quiet(CHECK_FAILED));
    }
    Ok(OK)
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
    goals: &mut [Entry<'_>],
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

/// What fails the gate beyond plain audit: lines and goals lost from the base, a
/// re-judge that did not pass, and with `--strict` each finding and each contract
/// change the pull request carries without a terminal's approval.
fn gate_failures(report: &Report<'_>, strict: bool) -> usize {
    let mut failed = report
        .goals
        .iter()
        .filter(|g| g.rejudge.as_ref().is_some_and(|r| !r.passed))
        .count();
    if strict {
        failed += report.goals.iter().map(|g| g.findings.len()).sum::<usize>();
    }
    if let Some(base) = &report.base {
        failed += base.lost_lines.len() + base.lost_goals.len();
        failed += base.unsigned_done.len() + base.format_errors.len();
        failed += base.other_files.iter().filter(|o| o.failed).count();
        if strict && report.approved_by.is_none() {
            failed += base
                .contract_changes
                .iter()
                .filter(|c| needs_approval(c))
                .count();
            failed += base.cancels.len();
            failed += base.other_files.iter().filter(|o| o.needs_approval).count();
        }
    }
    failed
}

/// Whether `--strict` fails a contract change unless a person approved it through
/// the forge: every change of a goal the base had (a terminal in the agent's
/// session approves nothing in CI), and a new goal's changed without a terminal.
fn needs_approval(change: &plan_gate::Change) -> bool {
    change.of_base || change.without_terminal()
}

/// The report as Markdown: one row per goal the pull request signs off or that has
/// a problem (every finished goal without `--base`), then every contract change.
fn markdown(report: &Report<'_>, plan: &Plan<'_>) -> String {
    let base = report.base.as_ref();
    let mut rows = Vec::new();
    for goal in &report.goals {
        let signed = base.is_some_and(|b| b.signed_off.iter().any(|s| s == goal.id));
        let rejudge_failed = goal.rejudge.as_ref().is_some_and(|r| !r.passed);
        let troubled =
            goal.proof.state == "unproven" || !goal.findings.is_empty() || rejudge_failed;
        // A goal of the base verified again because the pull request touched it.
        let troubled = troubled || goal.reverify.is_some();
        if base.is_some() && !signed && !troubled {
            continue;
        }
        let mut findings: Vec<String> = goal.proof.why.iter().cloned().collect();
        findings.extend(goal.findings.iter().cloned());
        let signed_by = plan_gate::sign_off_judge(plan, goal.id).unwrap_or_else(|| "-".into());
        let (judge, verify) = match (&goal.rejudge, &goal.reverify) {
            (Some(r), _) => {
                if r.verify.starts_with("failed") {
                    findings.push(format!("verify {}", r.verify));
                }
                if r.verdict != "accept" {
                    findings.push(format!("judge: {}", r.verdict));
                }
                let verdict = r.verdict.split(':').next().unwrap_or_default();
                let verify = r.verify.split(':').next().unwrap_or_default();
                (
                    format!("{signed_by}, re-judged: {verdict}"),
                    format!("{verify} (re-run)"),
                )
            }
            (None, Some(again)) => {
                if again.starts_with("failed") {
                    findings.push(format!("reverify {again}"));
                }
                let again = again.split(':').next().unwrap_or_default();
                (signed_by, format!("{again} (re-run)"))
            }
            (None, None) => {
                let verify = match plan_gate::sign_off_verified(plan, goal.id) {
                    Some(true) => "passed at sign-off",
                    Some(false) => "none",
                    None => "-",
                };
                (signed_by, verify.to_string())
            }
        };
        let archived = if goal.archived { ", archived" } else { "" };
        rows.push(Row {
            goal: goal.id.to_string(),
            state: format!("{} {}{archived}", goal.status.as_str(), goal.proof.state),
            judge,
            verify,
            findings,
        });
    }
    let mut other: Vec<String> = Vec::new();
    if let Some(base) = base {
        other.extend(base.format_errors.iter().cloned());
        for found in base.other_files.iter().filter(|o| o.failed) {
            other.push(format!("{}: {}: {}", found.file, found.id, found.what));
        }
        for found in base.other_files.iter().filter(|o| o.needs_approval) {
            other.push(format!(
                "{}: {}: {}, {}",
                found.file,
                found.id,
                found.what,
                match &report.approved_by {
                    Some(name) => format!("approved by {name}"),
                    None => "needs --approved-by".to_string(),
                }
            ));
        }
        for id in &base.unsigned_done {
            other.push(format!(
                "{id} is done here and was not on the base, and no sign-off this pull request adds proves it"
            ));
        }
    }
    for id in &report.archived_unfinished {
        other.push(format!("{id} is under ## Archive but not finished"));
    }
    for removed in &report.removed_lines {
        other.push(match removed.commit.as_str() {
            "" => format!(
                "log line `{}` that plan wrote at {} {}",
                removed.line,
                removed.stamp(),
                removed.what
            ),
            commit => format!(
                "log line `{}` (in commit {commit}) {}",
                removed.line, removed.what
            ),
        });
    }
    for id in &report.orphaned_ids {
        other.push(format!(
            "the log has events for {id}, but no goal has that id"
        ));
    }
    let at = base.map(|b| format!("base {} ({})", b.rev, b.commit));
    plan_gate::markdown(&Summary {
        base: at.as_deref(),
        rows: &rows,
        changes: base.map_or(&[][..], |b| &b.contract_changes),
        reshaped: base.map_or(&[][..], |b| &b.reshaped),
        cancels: base.map_or(&[][..], |b| &b.cancels),
        approved_by: report.approved_by.as_deref(),
        lost: base.map_or(&[][..], |b| &b.lost_lines),
        lost_goals: base.map_or(&[][..], |b| &b.lost_goals),
        other: &other,
        failures: report.failures.unwrap_or(
            report.unproven
                + report.regressed
                + report.archived_unfinished.len()
                + report.orphaned_ids.len()
                + report.removed_lines.len(),
        ),
    })
}

fn archived_unfinished<'p>(plan: &'p Plan<'_>) -> Vec<&'p str> {
    plan.goals
        .iter()
        .filter(|g| g.archived && plan.proof(g) == Proof::Unfinished)
        .map(|g| g.id.as_ref())
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
    if let Some(failed) = gate::files_changed(plan, goal, root) {
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

fn human(report: &Report<'_>, ctx: &Ctx) -> String {
    let esc = crate::plan::text::escape_controls;
    let mut out = Vec::new();
    for goal in &report.goals {
        let place = format!("{}:{}", report.file, goal.line);
        let archived = if goal.archived { ", archived" } else { "" };
        let head = format!(
            "{} {} ({}{archived})",
            match goal.proof.state {
                "proven" => "✓",
                _ => "⚠",
            },
            goal.id,
            goal.status.as_str()
        );
        let mut line = match (&goal.proof.why, &goal.proof.hint) {
            // Another tool's history: listed as such, not as a failure.
            (Some(label), changed) if goal.proof.state == "imported" => match changed {
                None => format!("{head}: imported: {}", esc(label)),
                Some(changed) => format!(
                    "{head}: imported: {}\n  {place}\n  ⚠ {}\n  hint: plan complete {} signs it off for the contract it has now",
                    esc(label),
                    esc(changed),
                    goal.id
                ),
            },
            (Some(why), Some(hint)) => {
                format!(
                    "{head}: unproven: {}\n  {place}\n  hint: {}",
                    esc(why),
                    esc(hint)
                )
            }
            _ if goal.proof.warnings.is_empty() => format!("{head}: proven"),
            _ => format!("{head}: proven, but {}", goal.proof.warnings.join("; ")),
        };
        if let Some(result) = &goal.reverify {
            line.push_str(&format!("\n  reverify: {result}"));
        }
        for finding in goal.weakened_tests.iter().flatten() {
            line.push_str(&format!(
                "\n  weakened tests: {}",
                esc(&crate::plan::weakened::kinds::tagged(finding))
            ));
        }
        if let Some(green) = &goal.verify_green_at_start {
            line.push_str(&format!("\n  verify-green-at-start: {green}"));
        }
        if let Some(r) = &goal.rejudge {
            line.push_str(&format!(
                "\n  rejudge: verify {}; judge {}",
                esc(&r.verify),
                esc(&r.verdict)
            ));
        }
        for finding in &goal.findings {
            line.push_str(&format!("\n  strict: {}", esc(finding)));
        }
        out.push(line);
    }
    for id in &report.archived_unfinished {
        out.push(format!(
            "⚠ {id} is under `## Archive` but not finished\n  hint: move it back above `## Log` and finish it with plan complete or plan cancel"
        ));
    }
    for removed in report.removed_lines.iter().filter(|r| r.commit.is_empty()) {
        out.push(format!(
            "⚠ {} the log line `{}` that plan wrote at {} {}; the log is append-only\n  hint: put it back where it was (plan keeps the lines it writes in .git/plan/{})",
            report.log_place,
            esc(&removed.line),
            removed.stamp(),
            removed.what,
            crate::logged::FILE
        ));
    }
    for removed in report.removed_lines.iter().filter(|r| !r.commit.is_empty()) {
        out.push(format!(
            "⚠ plan's log line `{}` (in commit {}) {}; the log is append-only\n  hint: restore it from git",
            esc(&removed.line),
            removed.commit,
            removed.what
        ));
    }
    for late in &report.out_of_order {
        out.push(format!(
            "⚠ {}:{}: this log line is stamped {}, earlier than the line above it ({}): out of order\n  hint: plan stamps its own lines no earlier than the log's newest; a line typed by hand or merged from a branch reads so",
            report.file, late.line, late.stamp, late.above
        ));
    }
    if let Some(base) = &report.base {
        for lost in &base.lost_lines {
            out.push(format!(
                "⚠ {}:{} of the base ({}) was {} here: `{}`\n  hint: a pull request only adds to the log; restore the line where it was",
                lost.file,
                lost.line,
                base.commit,
                lost.what,
                esc(&lost.entry)
            ));
        }
        for id in &base.lost_goals {
            out.push(format!(
                "⚠ goal {id} of the base ({}) is gone\n  hint: restore it; cancel or archive a goal instead of deleting it",
                base.commit
            ));
        }
        let approval = |of_base: bool| match (&report.approved_by, of_base) {
            (Some(name), true) => format!(", approved by {}", esc(name)),
            (None, true) => ", needs --approved-by".to_string(),
            (_, false) => String::new(),
        };
        for change in &base.contract_changes {
            let words: String = change
                .words
                .iter()
                .map(|w| format!("\n    {}", esc(w)))
                .collect();
            out.push(format!(
                "{} contract of {}: {} ({}:{}){}{words}",
                if (change.without_terminal() || change.of_base) && report.approved_by.is_none() {
                    "⚠"
                } else {
                    "·"
                },
                change.id,
                esc(&change.what),
                report.file,
                change.line,
                approval(change.of_base)
            ));
        }
        for change in &base.reshaped {
            out.push(format!(
                "· {} of the base: {} ({}:{})",
                change.id,
                esc(&change.what),
                report.file,
                change.line
            ));
        }
        for cancel in &base.cancels {
            let here = match (cancel.reopened, cancel.reason.is_empty()) {
                (false, _) => format!("is cancelled here: {}", esc(&cancel.reason)),
                (true, false) => format!("was done and is reopened here: {}", esc(&cancel.reason)),
                (true, true) => {
                    "was done and is set back here by hand, with no `plan reopen` logged"
                        .to_string()
                }
            };
            out.push(format!(
                "{} {} of the base {here} ({}:{}){}",
                if report.approved_by.is_none() {
                    "⚠"
                } else {
                    "·"
                },
                cancel.id,
                report.file,
                cancel.line,
                approval(true)
            ));
        }
        for id in &base.unsigned_done {
            out.push(format!(
                "⚠ {id} is done here and was not on the base, and no sign-off this pull request adds proves it\n  hint: sign it off in the pull request: plan complete {id} --evidence TEXT --path FILE"
            ));
        }
        for other in &base.other_files {
            let goal = if other.id.is_empty() {
                String::new()
            } else {
                format!(" {}:", other.id)
            };
            let needs = other.needs_approval && report.approved_by.is_none();
            out.push(format!(
                "{} {}:{goal} {}{}",
                if other.failed || needs { "⚠" } else { "·" },
                other.file,
                esc(&other.what),
                approval(other.needs_approval)
            ));
        }
        for error in &base.format_errors {
            out.push(format!(
                "⚠ {}\n  hint: fix it in the pull request (plan lint lists the format errors, plan doctor --fix repairs the mechanical ones)",
                esc(error)
            ));
        }
    }
    for id in &report.orphaned_ids {
        out.push(format!(
            "⚠ the log has events for {id}, but no goal has that id (deleted or renamed by hand)\n  hint: restore the goal, or put `<!-- id: {id} -->` back under its heading"
        ));
    }
    let finished = report.goals.len();
    let imported = report
        .goals
        .iter()
        .filter(|g| g.proof.state == "imported")
        .count();
    let mut summary = format!(
        "{finished} finished goal{}: {} proven, {}{} unproven",
        if finished == 1 { "" } else { "s" },
        finished - report.unproven - imported,
        if imported > 0 {
            format!("{imported} imported (not signed off by plan), ")
        } else {
            String::new()
        },
        report.unproven
    );
    if report.goals.iter().any(|g| g.reverify.is_some()) {
        summary.push_str(&format!(", {} no longer pass verify", report.regressed));
    }
    if let Some(base) = &report.base {
        summary.push_str(&format!(
            "; against base {}: {} signed off since, {} lost",
            base.commit,
            base.signed_off.len(),
            base.lost_lines.len() + base.lost_goals.len()
        ));
    }
    if let Some(failures) = report.failures {
        summary.push_str(&format!("; {failures} failing"));
    }
    out.push(ctx.style.paint("1", &summary));
    out.join("\n")
}

//! `plan audit`: one report over every done and cancelled goal, archived ones
//! included: proven from its record or not, and why. `--reverify` runs each proven
//! goal's verify again (no judge), so "done stays done" can be checked in CI.

use std::time::Duration;

use anyhow::{Context, Result};
use serde::Serialize;

use crate::config;
use crate::ctx::{Ctx, Env};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::git;
use crate::out::println;
use crate::plan::history;
use crate::plan::model::{Goal, Plan, Status, parse};
use crate::plan::proof::{self, Facts, Proof};
use crate::plan::render::ProofView;
use crate::{record, verify};

/// Check every done and cancelled goal against its sign-off record; exit 1 if any is unproven
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print the report as JSON
    #[arg(long)]
    pub json: bool,
    /// Run each proven done goal's verify again (without a judge) and report the ones that no longer pass
    #[arg(long)]
    pub reverify: bool,
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
    unproven: usize,
    regressed: usize,
}

/// A log line of plan's that was removed after it was committed.
#[derive(Serialize)]
struct Removed {
    /// The goal the line is about.
    id: String,
    line: String,
    /// `was removed since` or `was moved since`.
    what: &'static str,
    /// The newest commit that had it where it belongs.
    commit: String,
}

/// plan's own log lines that plan.md's committed versions had and it lacks now,
/// each with the newest commit that had it. Every version HEAD reaches is searched,
/// however deep: a reopen deleted and then buried under any number of commits
/// would otherwise fall out of reach and let the old sign-off prove its goal again.
/// A history that cannot be read is an error, not an empty search: audit fails
/// closed.
fn removed_lines(ctx: &Ctx, plan: &Plan<'_>) -> Result<Vec<Removed>> {
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
    for rev in &revisions {
        let then = parse(&rev.content);
        for rewrite in index.rewritten(&then) {
            let line = rewrite.entry().to_string();
            if !out.iter().any(|r| r.line == line) {
                out.push(Removed {
                    id: rewrite.id().to_string(),
                    line,
                    what: rewrite.describe(),
                    commit: rev.short.clone(),
                });
            }
        }
    }
    Ok(out)
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let mut plan = ctx.parse(&src)?;
    ctx.prove(&mut plan);
    let config = args
        .reverify
        .then(|| config::load(ctx.repo.as_ref().map(|r| r.root.as_path())))
        .transpose()?;
    let root = ctx.prompt_root();
    let removed = removed_lines(ctx, &plan)?;
    let mut goals = Vec::new();
    for goal in plan.goals.iter().filter(|g| g.status().is_finished()) {
        let mut proof = plan.proof(goal);
        // A finished goal whose own log lines were removed or moved stands on a log
        // that was rewritten: a deleted or moved reopen would make an old sign-off
        // count again.
        if let Some(gone) = removed.iter().find(|r| r.id == goal.id) {
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
        let reverify = match &config {
            Some(config) if proof.is_proven() && goal.status() == Status::Done => Some(reverify(
                &plan,
                goal,
                &root,
                Duration::from_secs(config.verify_timeout_secs),
            )?),
            _ => None,
        };
        let weakened_tests = crate::weakened::of_goal(&root, &plan, goal)?;
        goals.push(Entry {
            id: &goal.id,
            title: goal.title,
            status: goal.status(),
            archived: goal.archived,
            line: goal.line,
            proof: proof.into(),
            reverify,
            weakened_tests,
        });
    }
    let report = Report {
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
    };
    if args.json {
        println(&serde_json::to_string_pretty(&report)?)?;
    } else {
        println(&human(&report, ctx))?;
    }
    // A goal the log has a history for and the file lost went without a record:
    // as a goal hidden under `## Archive` unfinished, it fails the audit.
    let failed = report.unproven
        + report.regressed
        + report.archived_unfinished.len()
        + report.orphaned_ids.len()
        + report.removed_lines.len();
    if failed > 0 {
        return Err(Exit::quiet(CHECK_FAILED));
    }
    Ok(OK)
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
    let parsed = match verify::parse(line) {
        Ok(parsed) => parsed,
        Err(e) => return Ok(format!("failed: verify cannot run: {}", e.message)),
    };
    let signed = proof::latest_record(plan, &goal.id).map(|r| record::facts(root, r.path));
    if let Some(Facts::Present {
        header: Some(header),
        ..
    }) = signed
    {
        let now = record::verify_files(root, &parsed);
        let changed: Vec<&str> = header
            .verify_files
            .iter()
            .filter(|(path, blob)| !now.iter().any(|(p, b)| p == path && b == blob))
            .map(|(path, _)| path.as_str())
            .collect();
        if !changed.is_empty() {
            return Ok(format!(
                "failed: the check's own files changed since the sign-off ({}), so passing it now proves nothing; review the change (git diff), then plan reopen {} and sign it off again",
                changed.join(", "),
                goal.id
            ));
        }
    }
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
                esc(&finding.to_string())
            ));
        }
        out.push(line);
    }
    for id in &report.archived_unfinished {
        out.push(format!(
            "⚠ {id} is under `## Archive` but not finished\n  hint: move it back above `## Log` and finish it with plan complete or plan cancel"
        ));
    }
    for removed in &report.removed_lines {
        out.push(format!(
            "⚠ plan's log line `{}` (in commit {}) {}; the log is append-only\n  hint: restore it from git",
            esc(&removed.line),
            removed.commit,
            removed.what
        ));
    }
    for id in &report.orphaned_ids {
        out.push(format!(
            "⚠ the log has events for {id}, but no goal has that id (deleted or renamed by hand)\n  hint: restore the goal, or put `<!-- id: {id} -->` back under its heading"
        ));
    }
    let finished = report.goals.len();
    let mut summary = format!(
        "{finished} finished goal{}: {} proven, {} unproven",
        if finished == 1 { "" } else { "s" },
        finished - report.unproven,
        report.unproven
    );
    if report.goals.iter().any(|g| g.reverify.is_some()) {
        summary.push_str(&format!(", {} no longer pass verify", report.regressed));
    }
    out.push(ctx.style.paint("1", &summary));
    out.join("\n")
}

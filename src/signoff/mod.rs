//! The sign-off, from request to result: the goal's verify runs without a shell;
//! then an independent, read-only judge (or a panel) re-checks the repository; the
//! record, the checkpoint, the log line and the claim follow. Only when both stages
//! pass is the goal done; anything short of an accept is a reject (fail closed).
//! It returns one typed outcome, [`SignOff`], which `plan complete` and MCP's
//! `plan_complete` each render their own way.

use std::path::PathBuf;

use anyhow::Result;

use crate::clock;
use crate::config;
use crate::ctx::Env;
use crate::judge::overrides;
use crate::judge::prompt;
use crate::plan::event::{Event, Judged};
use crate::record;
use crate::red_first;
use crate::verify;
use crate::weakened;

mod checks;
mod done_goals;
mod judging;
mod panel;
mod verifying;
mod writing;

pub use judging::{Work, judge_prompt};
use verifying::Verified;
use writing::{Asked, Outcome};

/// The sign-off asked for: what `plan complete` and `plan_complete` ask.
#[derive(Debug, Default)]
pub struct Request {
    pub id: String,
    pub evidence: String,
    pub paths: Vec<PathBuf>,
    /// A judge backend instead of the configured one.
    pub judge: Option<String>,
    pub allow_ignored: bool,
    pub dry_run: bool,
    /// Who signs off (`--as`; else PLAN_SESSION): a goal another holds is refused.
    pub holder: Option<String>,
}

/// How a sign-off ended, for the CLI to print and `plan mcp` to return as fields.
/// A judge that could not judge, or anything that stopped the sign-off before a
/// verdict, is an error instead: nothing was decided.
#[derive(Debug, serde::Serialize)]
pub struct SignOff {
    pub goal: String,
    pub verdict: Decision,
    /// The stages that rejected: `verify`, `judge`, `containment`, `judge NAME`.
    pub stages: Vec<String>,
    /// What is missing, one item each, as the CLI lists them.
    pub missing: Vec<String>,
    /// An accept's record, `path#sha256`.
    pub record: Option<String>,
    /// A reject's transcript, when a judge was asked.
    pub transcript: Option<String>,
    pub dry_run: bool,
    /// `verify passed, judge accept` and the like.
    #[serde(skip)]
    how: String,
    /// The record is a file git ignores: said as a warning after the verdict.
    #[serde(skip)]
    ignored: bool,
    /// The record was staged (`sign_off.stage`), so the next commit carries it.
    #[serde(skip)]
    staged: bool,
    /// A panel lists its rejections under each judge's name.
    #[serde(skip)]
    panel: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decision {
    Accept,
    Reject,
}

impl SignOff {
    /// What the CLI prints on stdout (less its last newline) and `plan_complete`
    /// returns as text.
    pub fn text(&self) -> String {
        let id = &self.goal;
        let how = &self.how;
        if self.verdict == Decision::Accept {
            if self.dry_run {
                return format!("dry run: {id} would be signed off ({how}); nothing was written");
            }
            let record = self.record.as_deref().unwrap_or_default();
            let staged = if self.staged {
                " (staged: git add)"
            } else {
                ""
            };
            return format!("signed off {id} ({how})\n  record: {record}{staged}");
        }
        if self.panel {
            let list: Vec<String> = self.missing.iter().map(|m| format!("- {m}")).collect();
            let printed = format!(
                "sign-off of {id} rejected ({})\nmissing:\n{}",
                self.stages.join(", "),
                list.join("\n")
            );
            return match (&self.transcript, self.dry_run) {
                (Some(path), false) => format!("{printed}\n  transcript: {path}"),
                _ => format!("dry run: nothing was written\n{printed}"),
            };
        }
        let stage = self.stages.join(", ");
        let list: String = self.missing.iter().map(|m| format!("- {m}\n")).collect();
        if self.dry_run {
            return format!(
                "dry run: sign-off of {id} would be rejected ({stage}); nothing was written\nmissing:\n{list}"
            );
        }
        let mut text = format!(
            "sign-off of {id} rejected ({stage})\nmissing:\n{}",
            list.trim_end()
        );
        if let Some(path) = &self.transcript {
            text.push_str(&format!("\n  transcript: {path}"));
        }
        text
    }

    /// An accepted record git ignores is said on stderr, after the verdict.
    pub fn warn_ignored(&self) {
        if self.verdict == Decision::Accept && !self.dry_run && self.ignored {
            let record = self.record.as_deref().unwrap_or_default();
            let path = record.split_once('#').map_or(record, |(path, _)| path);
            warn_ignored(&self.goal, path);
        }
    }
}

/// Runs the sign-off and writes its result to plan.md; prints only progress and
/// warnings (stderr), never the verdict: each caller renders that its own way.
pub fn sign_off(env: &Env, args: Request) -> Result<SignOff> {
    checks::evidence_text(&args.evidence)?;
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    // A rewind must not move the files while they are checked.
    let _running = crate::running::judge_or_draft(&repo.root)?;
    let config = config::load(Some(&repo.root))?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = goal.id.to_string();
    let me = crate::claims::guard(ctx, &id, args.holder.as_deref())?;

    checks::check_signable(&plan, goal)?;
    let paths = checks::evidence_paths(ctx, repo, &args)?;
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(&id);
    if let Some(old) = logged.filter(|old| *old != fingerprint) {
        return Err(checks::contract_changed(ctx, goal, old, &fingerprint));
    }
    let history = checks::contract_history(ctx, &plan, goal);
    let (judge, panel_judges) = checks::judges(args.judge.as_deref(), &config, repo)?;
    checks::warn_open_subtasks(goal);
    let verify = checks::verify_line(ctx, goal)?;
    verify::refuse_missing(verify.as_ref(), &repo.root, &id)?;
    // The work handed in, compared with where the goal started, before anything runs.
    let start_commit = weakened::start_commit(&plan, &id);
    let red = weakened::red_at_start(&plan, &id);
    let weakened = checks::weakened_tests(repo, goal, (start_commit, red), verify.as_ref())?;
    // plan.md is left out of both stages' change checks: a person may edit it
    // meanwhile. A change to the lines this sign-off rests on is caught when the
    // result is written.
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let green = red_first::green_at_start(&repo.root, plan_rel.as_deref(), &plan, goal, &[])?
        .map(|green| green.to_string());
    if let Some(green) = &green {
        crate::out::warn(&format!("plan: warning: {green} [verify-green-at-start]"));
    }
    // The result is stamped as it is written, never before the log's newest line:
    // one more than a day ahead would refuse it then, once the judge had run.
    let floor = ctx.store.stamp_floor(&plan.log);
    let stamp = clock::now()?.not_before(floor.as_deref()).stamp();
    clock::refuse_ahead(&stamp, &ctx.store.name)?;
    let started = plan
        .events(&id)
        .any(|(_, e)| matches!(e, Event::Started { .. }));
    let mut record = record::Transcript {
        goal,
        history: &history,
        evidence: &args.evidence,
        paths: &paths,
        allow_ignored: args.allow_ignored,
        verify: None,
        judge: None,
        panel: Vec::new(),
        weakened: Some(&weakened),
        green_at_start: green.as_deref(),
    };
    let mut outcome = Outcome {
        ctx,
        plan: &plan,
        goal,
        src: &src,
        started,
        fingerprint: &fingerprint,
        checkpoint: None,
    };
    let asked = Asked {
        dry_run: args.dry_run,
        me: me.as_deref(),
    };

    // Stage 1: verify. A failure costs no model call.
    let mut verify_tail = String::new();
    let mut watched = Vec::new();
    if let Some(verify) = &verify {
        match verifying::run_verify(repo, &config, verify, plan_rel.as_deref(), &mut record)? {
            Verified::Passed { tail, watched: w } => (verify_tail, watched) = (tail, w),
            Verified::Failed { why } => {
                return outcome.reject(&[("verify".to_string(), why)], None, false, asked);
            }
        }
    }
    // Done goals this work may have broken, before any model call: a refusal here
    // costs none.
    let rechecked = done_goals::recheck(ctx, repo, &config, &plan, goal, start_commit)?;
    rechecked.tell(&id, &config);
    if let Some(missing) = rechecked.refusal(&config) {
        return outcome.reject(&[("done goals".to_string(), missing)], None, false, asked);
    }
    // Stage 2: the judge, read-only, in a copy of the working tree we watch.
    if judge.is_none() && panel_judges.is_empty() {
        return outcome.accept(verify.is_some(), Judged::Skipped, &record, asked);
    }
    let (commit, tree) = judging::judge_copy(repo, &id, &paths, verify.as_ref())?;
    if let Some(why) = judging::rewritten_since_verify(repo, &commit, &watched)? {
        return outcome.reject(&[("verify".to_string(), vec![why])], None, false, asked);
    }
    outcome.checkpoint = Some(commit);
    if paths.is_empty() {
        crate::out::warn("plan: note: no --path given; the judge sees only the text evidence");
    }
    // Work committed since the goal started is part of what the judge must see.
    let mut reads = overrides::Reads::default();
    let work = Work {
        verify: verify.as_ref().map(|verify| (verify, verify_tail.as_str())),
        evidence: &args.evidence,
        paths: &paths,
        history: &history,
        diff_base: start_commit.map_or(prompt::DiffBase::Head, prompt::DiffBase::Started),
        weakened: &weakened,
        green_at_start: green.as_deref(),
    };
    let text = judging::prompt_for_sign_off(&mut reads, (repo, tree.root()), goal, &work)?;
    let system = reads.text(&repo.root, "judge_system.md", prompt::JUDGE_SYSTEM)?;
    let asking = panel::Asking {
        tree,
        prompt: &text,
        system: &system,
        overrides: reads.names,
        verified: verify.is_some(),
        asked,
    };
    match judge {
        Some(judge) => judging::ask_judge(&outcome, record, &judge, asking),
        None => panel::sign_off(&outcome, record, &panel_judges, asking),
    }
}

/// The transcript is the sign-off's proof everywhere plan.md goes: one git ignores
/// stays in this clone, and every other clone and CI find the sign-off unproven.
fn warn_ignored(id: &str, transcript: &str) {
    crate::out::warn(&format!(
        "plan: warning: the transcript {transcript} is ignored by git, so it will not be committed: every other clone and CI will find {id}'s sign-off unproven (transcript missing)\n  hint: commit it with `git add -f {transcript}`; to stop ignoring them, have git ignore `.plan/*` and add a `!{dir}/` line, rather than ignore `.plan/`",
        dir = crate::plan::proof::JUDGE_DIR.trim_end_matches('/')
    ));
}

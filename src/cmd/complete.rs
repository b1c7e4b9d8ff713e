//! `plan complete`: the sign-off. The goal's verify runs without a shell; then an
//! independent, read-only judge re-checks the repository. Only when both pass is the
//! goal done. Fails closed: anything short of an accept is a reject.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::clock::{self, Now};
use crate::config;
use crate::ctx::{Ctx, Env};
use crate::exec;
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::git::{self, Repo};
use crate::judge::files as judge_files;
use crate::judge::overrides;
use crate::judge::prompt::{self, Facts, VerifyFacts};
use crate::judge::resolve::{self, Chosen, Panel};
use crate::judge::run::{self as judge_run, Judge};
use crate::judge::tree::Tree as JudgeTree;
use crate::judge::verdict::Verdict;
use crate::out::println;
use crate::plan::event::{self, Event, Judged};
use crate::plan::model::{Goal, Plan, Status};
use crate::plan::patch::Edit;
use crate::plan::render::Style;
use crate::plan::text::cut;
use crate::plan::weakened::Finding;
use crate::plan::{history, ops, wdiff};
use crate::record;
use crate::red_first;
use crate::verify;
use crate::weakened;

mod panel;

/// Sign a goal off: run its verify (no shell), then a read-only judge; done only if both pass
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Goal id (or a unique prefix)
    pub id: String,
    /// Why the goal is done, in words; the judge checks it against the repository
    #[arg(long, value_name = "TEXT")]
    pub evidence: String,
    /// A file or directory in the repository that backs the evidence (repeatable)
    #[arg(long = "path", value_name = "P")]
    pub paths: Vec<PathBuf>,
    // The names come from the registry, so the help stays true as hosts are added.
    #[arg(long, value_name = "BACKEND", help = format!(
        "Judge for this run, instead of the configured one or judge.panel: {}",
        crate::config::BackendChoice::names()
    ))]
    pub judge: Option<String>,
    /// Accept evidence paths that git ignores (they are not durable)
    #[arg(long)]
    pub allow_ignored: bool,
    /// Run both stages, print the verdict, write nothing
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub who: crate::cmd::claims::AsHolder,
}

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

impl From<Args> for Request {
    fn from(args: Args) -> Request {
        Request {
            id: args.id,
            evidence: args.evidence,
            paths: args.paths,
            judge: args.judge,
            allow_ignored: args.allow_ignored,
            dry_run: args.dry_run,
            holder: args.who.holder,
        }
    }
}

/// How far back plan.md's history is searched for a goal's old contract.
const VERIFY_TAIL: usize = 64 * 1024;

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

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let signed = sign_off(env, Request::from(args))?;
    render(env.ctx()?, &signed)
}

/// The sign-off as the CLI words it: stdout, a reject's exit code, and the warning
/// that the record is ignored by git.
pub fn render(ctx: &Ctx, signed: &SignOff) -> Result<u8> {
    let text = signed.text();
    if signed.verdict == Decision::Reject {
        println(&text)?;
        return Err(Exit::quiet(CHECK_FAILED));
    }
    if signed.dry_run {
        println(&text)?;
        return Ok(OK);
    }
    ctx.say(&text)?;
    signed.warn_ignored();
    Ok(OK)
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
/// warnings (stderr), never the verdict: that is [`render`]'s.
pub fn sign_off(env: &Env, args: Request) -> Result<SignOff> {
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

    check_signable(&plan, goal)?;
    let paths = evidence_paths(ctx, repo, &args)?;
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(&id);
    if let Some(old) = logged.filter(|old| *old != fingerprint) {
        return Err(contract_changed(ctx, goal, old, &fingerprint));
    }
    let history = contract_history(ctx, &plan, goal);
    let (judge, panel_judges) = judges(args.judge.as_deref(), &config, repo)?;
    warn_open_subtasks(goal);
    let verify = verify_line(ctx, goal)?;
    verify::refuse_missing(verify.as_ref(), &repo.root, &id)?;
    // The work handed in, compared with where the goal started, before anything runs.
    let start_commit = weakened::start_commit(&plan, &id);
    let weakened = weakened_tests(repo, start_commit, verify.as_ref())?;
    // plan.md is left out of both stages' change checks: a person may edit it
    // meanwhile. A change to the lines this sign-off rests on is caught when the
    // result is written.
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let green = red_first::green_at_start(&repo.root, plan_rel.as_deref(), &plan, goal, &[])?
        .map(|green| green.to_string());
    if let Some(green) = &green {
        crate::out::warn(&format!("plan: warning: {green} [verify-green-at-start]"));
    }
    // The stamp the sign-off line will get (never before the log's newest line or
    // the loop's start): the record's `- when:` must be the same.
    let now = clock::now()?.not_before(ctx.store.stamp_floor(&plan.log).as_deref());
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
        now: &now,
        started,
        fingerprint: &fingerprint,
        dry_run: args.dry_run,
        checkpoint: None,
        me,
    };

    // Stage 1: verify. A failure costs no model call.
    let mut verify_tail = String::new();
    if let Some(verify) = &verify {
        match run_verify(repo, &config, verify, plan_rel.as_deref(), &mut record)? {
            Verified::Passed { tail } => verify_tail = tail,
            Verified::Failed { why } => return outcome.reject("verify", &why, None),
        }
    }
    // Stage 2: the judge, read-only, in a copy of the working tree we watch.
    if judge.is_none() && panel_judges.is_empty() {
        return outcome.accept(verify.is_some(), Judged::Skipped, &record);
    }
    let (commit, tree) = judge_copy(repo, &id, &paths, verify.as_ref())?;
    outcome.checkpoint = Some(commit);
    if paths.is_empty() {
        crate::out::warn("plan: note: no --path given; the judge sees only the text evidence");
    }
    // Work committed since the goal started is part of what the judge must see.
    let mut reads = overrides::Reads::default();
    let text = judge_prompt(
        &mut reads,
        (repo, tree.root()),
        goal,
        verify.as_ref(),
        &verify_tail,
        (&args.evidence, &paths),
        start_commit,
        &history,
        (&weakened, green.as_deref()),
    )?;
    let system = reads.text(&repo.root, "judge_system.md", prompt::JUDGE_SYSTEM)?;
    let asking = panel::Asking {
        tree,
        prompt: &text,
        system: &system,
        overrides: reads.names,
        verified: verify.is_some(),
    };
    match judge {
        Some(judge) => ask_judge(&outcome, record, &judge, asking),
        None => panel::sign_off(&outcome, record, &panel_judges, asking),
    }
}

/// The goal can be signed off: open or active (or marked done by hand, which is
/// unproven: signing it off is how to prove it), its dependencies done.
fn check_signable(plan: &Plan<'_>, goal: &Goal<'_>) -> Result<()> {
    let hand_done = goal.status() == Status::Done && plan.proof(goal).is_unproven();
    if !hand_done {
        ops::check_transition(goal, Status::Done)?;
    }
    ops::check_dependencies(plan, goal, "sign off")?;
    Ok(())
}

/// The one judge, or the panel, `choice` or the configuration picks; none when the
/// judge is skipped. Each is checked to be runnable before anything runs.
fn judges(
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

fn warn_open_subtasks(goal: &Goal<'_>) {
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
fn verify_line(ctx: &Ctx, goal: &Goal<'_>) -> Result<Option<verify::Verify>> {
    Ok(match goal.verify() {
        Some(line) => {
            let at = goal.verify.as_ref().map_or(goal.line, |f| f.line);
            Some(verify::parse_at(line, &format!("{}:{at}", ctx.store.name))?)
        }
        None => None,
    })
}

/// How stage 1 ended.
enum Verified {
    /// The verify passed: the tail of its output, for the judge.
    Passed { tail: String },
    /// What the rejection says: the verify failed or changed the repository.
    Failed { why: Vec<String> },
}

/// Stage 1: runs the verify, recording the run in `record`. `plan_rel` (plan.md in
/// the repository) may change meanwhile; any other change to tracked files fails it.
fn run_verify(
    repo: &Repo,
    config: &config::Config,
    verify: &verify::Verify,
    plan_rel: Option<&str>,
    record: &mut record::Transcript<'_>,
) -> Result<Verified> {
    // The verify line is plan.md text: escaped for the terminal.
    let shown = crate::plan::text::escape_controls(&verify.to_string()).into_owned();
    crate::out::warn(&format!("plan: verify: running `{shown}`"));
    crate::out::progress(&format!("verify: running `{shown}`"));
    let timeout = Duration::from_secs(config.verify_timeout_secs);
    let before = git::tracked_snapshot(&repo.root)?;
    // The check's own files as they ran; a side effect on them is refused below.
    let files = record::verify_files(&repo.root, verify);
    let result = verify::run(verify, &repo.root, timeout, VERIFY_TAIL)?;
    crate::out::progress(if result.passed {
        "verify: passed"
    } else {
        "verify: failed"
    });
    record.verify = Some(record::VerifyRun {
        command: verify.to_string(),
        programs: verify_programs(verify),
        exit: if result.passed {
            "0".to_string()
        } else if result.timed_out {
            "timed out".to_string()
        } else {
            result
                .exit_code
                .map_or("none".to_string(), |c| c.to_string())
        },
        tail: result.tail.clone(),
        files,
    });
    // A verify that commits or edits the code has not checked it: it passed on
    // something other than what was handed in.
    let mut changed = before.changes(&git::tracked_snapshot(&repo.root)?);
    changed.retain(|p| plan_rel != Some(p.as_str()));
    let side_effect = (!changed.is_empty()).then(|| {
        format!(
            "verify changed the repository while it ran ({}); a check must not change what it checks",
            changed.join(", ")
        )
    });
    if !result.passed {
        let why = result.why_failed(&verify.to_string(), timeout);
        crate::out::warn(result.tail.trim_end());
        let why: Vec<String> = std::iter::once(why).chain(side_effect).collect();
        return Ok(Verified::Failed { why });
    }
    if let Some(side_effect) = side_effect {
        return Ok(Verified::Failed {
            why: vec![side_effect],
        });
    }
    Ok(Verified::Passed { tail: result.tail })
}

/// The tree as verify passed on it: the checkpoint commit, and the copy of it the
/// judge reads, holding the evidence `paths` and the verify's own files.
fn judge_copy(
    repo: &Repo,
    id: &str,
    paths: &[String],
    verify: Option<&verify::Verify>,
) -> Result<(String, JudgeTree)> {
    let commit = git::working_commit(&repo.root, &format!("plan: checkpoint of {id}"))
        .map_err(|e| {
            Exit::env_hint(
                format!("cannot keep the working tree for the judge to read: {e:#}"),
                "nothing was written; fix what the error names (a file plan cannot read) and run plan complete again",
            )
        })?;
    let mut wanted = paths.to_vec();
    if let Some(verify) = verify {
        wanted.extend(judge_files::verify_paths(&repo.root, verify));
    }
    let tree = JudgeTree::take(&repo.root, &commit, &wanted).map_err(|e| {
        Exit::env_hint(
            format!("cannot check out the working tree for the judge: {e:#}"),
            "nothing was written; check the space in the temporary directory (TMPDIR) and run plan complete again",
        )
    })?;
    Ok((commit, tree))
}

/// Stage 2 with one judge: asks it in the copy, then writes the outcome. A judge
/// that changed the copy is a containment reject, whatever it answered.
fn ask_judge(
    outcome: &Outcome<'_, '_>,
    record: record::Transcript<'_>,
    judge: &Judge,
    asking: panel::Asking<'_>,
) -> Result<SignOff> {
    let panel::Asking {
        tree,
        prompt: text,
        system,
        overrides,
        verified,
    } = asking;
    crate::out::warn(&format!(
        "plan: judge: asking {} (timeout {}s)",
        judge.backend,
        judge.timeout.as_secs()
    ));
    crate::out::progress(&format!("judge: asking {}", judge.backend));
    let answer = judge_run::run(judge, tree.root(), text, system)?;
    // Everything in the copy is the judge's own doing, plan.md included.
    let changed = tree.changes()?;
    let record = record::Transcript {
        judge: Some(record::JudgeRun {
            judge,
            program: answer
                .program
                .as_ref()
                .map_or_else(|| answer.argv[0].clone(), |p| p.path.display().to_string()),
            program_sha256: answer.program.as_ref().and_then(|p| p.sha256.clone()),
            overrides,
            prompt: text,
            answer: &answer,
            changed: &changed,
            tree: outcome.checkpoint.as_deref().unwrap_or_default(),
        }),
        ..record
    };
    let transcript = &record;

    if !changed.is_empty() {
        let kept = tree.keep();
        let mut why = vec![format!(
            "the judge changed the working tree ({}) in the copy it was given; left as they are for you to inspect in {}",
            changed.join(", "),
            kept.display()
        )];
        if let Verdict::Reject { missing, .. } = &answer.verdict {
            why.extend(missing.iter().cloned());
        }
        return outcome.reject("containment", &why, Some(transcript));
    }
    let model = judge
        .model
        .as_deref()
        .map(record::one_word)
        .unwrap_or_default();
    match &answer.verdict {
        Verdict::Accept { .. } => outcome.accept(
            verified,
            Judged::By {
                backend: judge.backend.as_str(),
                model: &model,
            },
            transcript,
        ),
        Verdict::Reject { missing, .. } => {
            let missing = if missing.is_empty() {
                vec!["the judge rejected without listing what is missing".to_string()]
            } else {
                missing.clone()
            };
            outcome.reject("judge", &missing, Some(transcript))
        }
        Verdict::NoVerdict { reason } => outcome.reject(
            "judge",
            &[format!("no verdict: {reason}")],
            Some(transcript),
        ),
        Verdict::CouldNotJudge { reason } => Err(could_not_judge(judge, reason)),
    }
}

/// A judge that failed before judging: exit 3 with its own words; the work was not
/// judged, so nothing is logged and no rejection stands.
fn could_not_judge(judge: &Judge, reason: &str) -> anyhow::Error {
    Exit::env_hint(
        format!("the {} judge could not judge: {reason}", judge.backend),
        "nothing was written; fix the judge (log in, check judge.model, raise judge.timeout_secs) and run plan complete again, or pick another with --judge",
    )
}

/// The verify and the judge run with plan.md left out of their change checks, so
/// either could weaken another goal's contract, hide a goal or finish one by hand
/// while this one is checked. A sign-off stands only on the plan it started from.
fn others_unchanged(before: &Plan<'_>, fresh: &Plan<'_>, signed: &str) -> Result<(), String> {
    for goal in before.goals.iter().filter(|g| g.id != signed) {
        let id = &goal.id;
        let Some(now) = fresh.goal(id) else {
            return Err(format!("goal {id} disappeared while plan complete ran"));
        };
        if now.fingerprint() != goal.fingerprint() {
            return Err(format!(
                "the contract of {id} changed while plan complete ran (contract {}, now {})",
                goal.fingerprint(),
                now.fingerprint()
            ));
        }
        // Another agent's plan start, sign-off or cancel logs a line for the goal;
        // a status changed by hand does not.
        let logged = fresh.events(id).count() > before.events(id).count();
        if now.status() != goal.status() && !logged {
            return Err(format!(
                "goal {id} went from {} to {} while plan complete ran",
                goal.status().as_str(),
                now.status().as_str()
            ));
        }
    }
    Ok(())
}

/// Everything needed to write the result once the stages are done.
struct Outcome<'p, 'a> {
    ctx: &'p Ctx,
    plan: &'p Plan<'a>,
    goal: &'p Goal<'a>,
    src: &'p str,
    now: &'p Now,
    /// A started event exists; if not, this run starts the goal.
    started: bool,
    fingerprint: &'p str,
    dry_run: bool,
    /// The working tree the judge read, as a commit: the checkpoint to keep.
    checkpoint: Option<String>,
    /// Who signs off: only their own claim is released.
    me: Option<String>,
}

impl Outcome<'_, '_> {
    fn accept(
        &self,
        verified: bool,
        judged: Judged<'_>,
        record: &record::Transcript<'_>,
    ) -> Result<SignOff> {
        let id = &self.goal.id;
        let how = format!(
            "{}, {}",
            if verified {
                "verify passed"
            } else {
                "no verify"
            },
            match judged {
                Judged::Skipped => "judge skipped".to_string(),
                _ => "judge accept".to_string(),
            }
        );
        let mut signed = self.signed(Decision::Accept, Vec::new(), Vec::new());
        signed.how = how;
        if self.dry_run {
            return Ok(signed);
        }
        let root = &self.ctx.repo()?.root;
        let saved = record::save(
            root,
            &format!("{id}-{}", self.now.compact()),
            &record.render(self.now, "accept"),
        )?;
        let checkpoint = super::checkpoints::record(root, id, self.now, self.checkpoint.as_deref());
        let mut edits = ops::set_status(self.plan, self.goal, Status::Done);
        self.start_line(&mut edits)?;
        edits.push(ops::event(
            &self.now.stamp(),
            &Event::SignedOff {
                id,
                verify: verified,
                judged,
                contract: Some(self.fingerprint),
                record: Some(event::Record {
                    path: &saved.path,
                    hash: &saved.hash,
                }),
                legacy_path: None,
                checkpoint: checkpoint.as_ref().map(git::Saved::short),
            },
        ));
        if let Err(e) = self.write(edits) {
            record::discard(root, &saved);
            if let Some(checkpoint) = &checkpoint {
                let _ = git::delete_ref(root, &checkpoint.reference);
            }
            return Err(e);
        }
        crate::claims::release_finished(self.ctx, id, self.me.as_deref());
        signed.ignored = is_ignored(root, &saved.path);
        let staging = config::load(Some(root)).map_or(true, |c| c.sign_off_stage);
        signed.staged = !signed.ignored && staging && stage(root, &saved.path);
        signed.record = Some(format!("{}#{}", saved.path, saved.hash));
        Ok(signed)
    }

    /// The result before any record is kept.
    fn signed(&self, verdict: Decision, stages: Vec<String>, missing: Vec<String>) -> SignOff {
        SignOff {
            goal: self.goal.id.to_string(),
            verdict,
            stages,
            missing,
            record: None,
            transcript: None,
            dry_run: self.dry_run,
            how: String::new(),
            ignored: false,
            staged: false,
            panel: false,
        }
    }

    fn reject(
        &self,
        stage: &str,
        missing: &[String],
        record: Option<&record::Transcript<'_>>,
    ) -> Result<SignOff> {
        let id = &self.goal.id;
        let mut signed = self.signed(Decision::Reject, vec![stage.to_string()], missing.to_vec());
        if self.dry_run {
            return Ok(signed);
        }
        let root = &self.ctx.repo()?.root;
        let saved = record
            .map(|r| {
                record::save(
                    root,
                    &format!("{id}-{}", self.now.compact()),
                    &r.render(self.now, "reject"),
                )
            })
            .transpose()?;
        let mut edits = if self.started || self.goal.status() == Status::Done {
            ops::id_comment(self.plan, self.goal)
        } else {
            ops::set_status(self.plan, self.goal, Status::Active)
        };
        self.start_line(&mut edits)?;
        let mut missing = cut(&missing.join("; "), 300);
        if let Some(saved) = &saved {
            let _ = write!(missing, " ({})", saved.path);
        }
        edits.push(ops::event(
            &self.now.stamp(),
            &Event::Rejected {
                id,
                stage,
                missing: &missing,
            },
        ));
        if let Err(e) = self.write(edits) {
            if let Some(saved) = &saved {
                record::discard(root, saved);
            }
            return Err(e);
        }
        signed.transcript = saved.map(|saved| saved.path);
        Ok(signed)
    }

    /// Writes the result only if the goal is still the one checked: the same
    /// contract (a failure mode or a verify line added meanwhile changes the
    /// fingerprint), the same dependencies, not finished by someone else.
    fn write(&self, edits: Vec<Edit>) -> Result<()> {
        let id = &self.goal.id;
        let was_done = self.goal.status() == Status::Done;
        let result = self.ctx.store.write_checked(self.src, edits, |fresh| {
            let now = fresh
                .goal(id)
                .ok_or_else(|| format!("goal {id} is no longer in {}", self.ctx.store.name))?;
            if now.fingerprint() != self.fingerprint {
                return Err(format!(
                    "the contract of {id} changed while it was being checked (contract {}, now {})",
                    self.fingerprint,
                    now.fingerprint()
                ));
            }
            if now.archived != self.goal.archived {
                return Err(format!("goal {id} was archived while it was being checked"));
            }
            if now.depends_on != self.goal.depends_on {
                return Err(format!(
                    "the dependencies of {id} changed while it was being checked"
                ));
            }
            if now.status().is_finished() && !(was_done && now.status() == Status::Done) {
                return Err(format!(
                    "goal {id} became {} while it was being checked",
                    now.status().as_str()
                ));
            }
            others_unchanged(self.plan, fresh, id)
        });
        result.map(|_| ()).map_err(Into::into)
    }

    /// A goal signed off without `plan start` is started here, visibly.
    fn start_line(&self, edits: &mut Vec<Edit>) -> Result<()> {
        if !self.started {
            let commit = self.ctx.head_commit()?;
            edits.push(ops::event(
                &self.now.stamp(),
                &Event::Started {
                    id: &self.goal.id,
                    contract: self.fingerprint,
                    commit: commit.as_deref(),
                    verify: None,
                },
            ));
        }
        Ok(())
    }
}

/// Stages the transcript, so `git commit -a` carries the proof with the work; a
/// failure (the index locked by another git) costs the staging, not the sign-off.
fn stage(root: &Path, transcript: &str) -> bool {
    // The `.gitattributes` beside the transcripts keeps their bytes: it goes too.
    let attributes = Path::new(crate::plan::proof::JUDGE_DIR).join(".gitattributes");
    if matches!(
        git::tracking(root, &attributes),
        Ok(git::Tracking::Untracked)
    ) && root.join(&attributes).is_file()
    {
        let _ = git::stage(root, &attributes);
    }
    match git::stage(root, Path::new(transcript)) {
        Ok(()) => true,
        Err(e) => {
            crate::out::warn(&format!(
                "plan: warning: could not stage {transcript} ({e:#})\n  hint: git add {transcript}"
            ));
            false
        }
    }
}

fn is_ignored(root: &Path, transcript: &str) -> bool {
    matches!(
        git::tracking(root, Path::new(transcript)),
        Ok(git::Tracking::Ignored)
    )
}

/// The transcript is the sign-off's proof everywhere plan.md goes: one git ignores
/// stays in this clone, and every other clone and CI find the sign-off unproven.
fn warn_ignored(id: &str, transcript: &str) {
    crate::out::warn(&format!(
        "plan: warning: the transcript {transcript} is ignored by git, so it will not be committed: every other clone and CI will find {id}'s sign-off unproven (transcript missing)\n  hint: commit it with `git add -f {transcript}`; to stop ignoring them, have git ignore `.plan/*` and add a `!{dir}/` line, rather than ignore `.plan/`",
        dir = crate::plan::proof::JUDGE_DIR.trim_end_matches('/')
    ));
}

/// Each command of a verify line, with the program path it resolves to.
fn verify_programs(verify: &verify::Verify) -> Vec<String> {
    verify
        .chain
        .iter()
        .flat_map(|pipeline| &pipeline.commands)
        .filter_map(|argv| argv.first())
        .map(|program| {
            if program.contains('/') {
                return format!("{program} (a path, from the repository root)");
            }
            match exec::find_on_path(program) {
                Some(path) => format!("{program} → {}", path.display()),
                None => format!("{program} (not found on PATH)"),
            }
        })
        .collect()
}

/// The goal's contract since creation, for the transcript and the judge: the text
/// at creation, each change since and how it was approved, and a word diff from
/// the first to the current one.
fn contract_history(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>) -> String {
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
fn evidence_paths(ctx: &Ctx, repo: &Repo, args: &Request) -> Result<Vec<String>> {
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
fn weakened_tests(
    repo: &Repo,
    start: Option<&str>,
    verify: Option<&verify::Verify>,
) -> Result<Vec<Finding>> {
    let files = verify
        .map(|v| judge_files::verify_closure(&repo.root, v))
        .unwrap_or_default();
    let found = weakened::since(&repo.root, start, &files)?;
    for finding in &found {
        crate::out::warn(&format!(
            "plan: warning: weakened tests since the goal started: {finding}"
        ));
    }
    Ok(found)
}

/// The judge's prompt, from the files of `tree` (the copy the judge reads) and the
/// prompt overrides of `repo`. `diff_base` is the commit the goal was started at: the diff
/// stat then covers work committed since, not only what is uncommitted.
#[expect(clippy::too_many_arguments, reason = "each is one fact of the prompt")]
fn judge_prompt(
    reads: &mut overrides::Reads,
    (repo, tree): (&Repo, &Path),
    goal: &Goal<'_>,
    verify: Option<&verify::Verify>,
    verify_tail: &str,
    (evidence, paths): (&str, &[String]),
    diff_base: Option<&str>,
    history: &str,
    (weakened, green_at_start): (&[Finding], Option<&str>),
) -> Result<String> {
    let verify_text = verify.map(|v| v.to_string());
    let files = judge_files::gather(tree, verify, paths);
    let facts = Facts {
        id: &goal.id,
        title: goal.title,
        done_when: goal.done_when().unwrap_or("(none written)"),
        failure_modes: goal.failure_modes.iter().map(|f| f.value).collect(),
        history,
        subtasks: goal.subtasks.iter().map(|s| (s.done, s.text)).collect(),
        verify: match &verify_text {
            Some(command) => VerifyFacts::Passed {
                command,
                tail: verify_tail,
            },
            None => VerifyFacts::None,
        },
        evidence,
        paths,
        files: &files,
        diff_base,
        diff_stat: &git::diff_stat_since(tree, diff_base)?,
        weakened,
        green_at_start,
    };
    let template = reads.text(&repo.root, "evidence_judge.md", prompt::EVIDENCE_JUDGE)?;
    Ok(prompt::render(&template, &facts))
}

/// Refuses a sign-off whose contract changed since it was logged, showing the change.
fn contract_changed(ctx: &Ctx, goal: &Goal<'_>, old: &str, now: &str) -> anyhow::Error {
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

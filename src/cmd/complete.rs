//! `plan complete`: the sign-off. The goal's verify runs without a shell; then an
//! independent, read-only judge re-checks the repository. Only when both pass is the
//! goal done. Fails closed: anything short of an accept is a reject.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::app::{Ctx, println};
use crate::clock::{self, Now};
use crate::config::{self, BackendChoice, Config};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::git::{self, Repo};
use crate::judge::backend::Backend;
use crate::judge::prompt::{self, Facts, VerifyFacts};
use crate::judge::run::{self as judge_run, Answer, Judge};
use crate::judge::verdict::Verdict;
use crate::plan::model::{Goal, Plan, Status, parse};
use crate::plan::patch::Edit;
use crate::plan::text::cut;
use crate::plan::{ops, wdiff};
use crate::verify;

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
    /// Judge for this run: auto, claude, codex, pi, gemini, llm, command or none
    #[arg(long, value_name = "BACKEND")]
    pub judge: Option<String>,
    /// Accept evidence paths that git ignores (they are not durable)
    #[arg(long)]
    pub allow_ignored: bool,
    /// Run both stages, print the verdict, write nothing
    #[arg(long)]
    pub dry_run: bool,
}

/// Evidence file text given to a judge without repository tools (llm).
const INLINE_FILE_BYTES: usize = 20 * 1024;
const INLINE_TOTAL_BYTES: usize = 100 * 1024;
/// How far back plan.md's history is searched for a goal's old contract.
const HISTORY_DEPTH: usize = 200;
const VERIFY_TAIL: usize = 64 * 1024;

pub fn run(ctx: &Ctx, args: Args) -> Result<u8> {
    let repo = ctx.repo()?;
    let config = config::load(Some(&repo.root))?;
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, &args.id)?;
    let id = goal.id.to_string();

    ops::check_transition(goal, Status::Done)?;
    ops::check_dependencies(&plan, goal, "sign off")?;
    let paths = evidence_paths(ctx, repo, &args)?;
    let fingerprint = goal.fingerprint();
    let logged = plan.logged_contract(&id);
    if let Some(old) = logged.filter(|old| *old != fingerprint) {
        return Err(contract_changed(ctx, repo, goal, old, &fingerprint));
    }
    let judge = choose_judge(args.judge.as_deref(), &config)?;
    let verify = match goal.verify() {
        Some(line) => {
            let at = goal.verify.as_ref().map_or(goal.line, |f| f.line);
            Some(verify::parse_at(line, &format!("{}:{at}", ctx.store.name))?)
        }
        None => None,
    };
    let now = clock::now()?;
    let started = logged.is_some();
    let outcome = Outcome {
        ctx,
        plan: &plan,
        goal,
        src: &src,
        now: &now,
        started,
        fingerprint: &fingerprint,
        dry_run: args.dry_run,
    };

    // Stage 1: verify. A failure costs no model call.
    let mut verify_tail = String::new();
    if let Some(verify) = &verify {
        // The verify line is plan.md text: escaped for the terminal.
        let shown = crate::plan::text::escape_controls(&verify.to_string()).into_owned();
        eprintln!("plan: verify: running `{shown}`");
        let timeout = Duration::from_secs(config.verify_timeout_secs);
        let result = verify::run(verify, &repo.root, timeout, VERIFY_TAIL)?;
        if !result.passed {
            let command = result
                .failed_command
                .clone()
                .unwrap_or_else(|| verify.to_string());
            let why = if result.timed_out {
                format!(
                    "`{command}` timed out after {}s",
                    config.verify_timeout_secs
                )
            } else {
                match result.exit_code {
                    Some(code) => format!("`{command}` exited {code}"),
                    None => format!("`{command}` did not finish"),
                }
            };
            eprintln!("{}", result.tail.trim_end());
            return outcome.reject("verify", &[why], None);
        }
        verify_tail = result.tail;
    }
    let verify_label = if verify.is_some() {
        "verify passed"
    } else {
        "no verify"
    };

    // Stage 2: the judge, read-only, in a working tree we watch.
    let Some(judge) = judge else {
        return outcome.accept(&format!("{verify_label}, judge skipped"), None);
    };
    if paths.is_empty() {
        eprintln!("plan: note: no --path given; the judge sees only the text evidence");
    }
    let verify_text = verify.as_ref().map(|v| v.to_string());
    let facts = Facts {
        id: &id,
        title: goal.title,
        done_when: goal.done_when().unwrap_or("(none written)"),
        failure_modes: goal.failure_modes.iter().map(|f| f.value).collect(),
        verify: match &verify_text {
            Some(command) => VerifyFacts::Passed {
                command,
                tail: &verify_tail,
            },
            None => VerifyFacts::None,
        },
        evidence: &args.evidence,
        paths: &paths,
        file_contents: (judge.backend == Backend::Llm).then(|| inline_files(&repo.root, &paths)),
        diff_stat: &git::diff_stat(&repo.root)?,
    };
    let template = override_or(&repo.root, "evidence_judge.md", prompt::EVIDENCE_JUDGE);
    let system = override_or(&repo.root, "judge_system.md", prompt::JUDGE_SYSTEM);
    let text = prompt::render(&template, &facts);

    let before = git::snapshot(&repo.root)?;
    eprintln!(
        "plan: judge: asking {} (timeout {}s)",
        judge.backend,
        judge.timeout.as_secs()
    );
    let answer = judge_run::run(&judge, &repo.root, &text, &system)?;
    let after = git::snapshot(&repo.root)?;
    // plan.md is left out: a person may edit it while the judge runs. A change to
    // the lines this sign-off rests on is caught when the result is written.
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let mut changed = before.changes(&after);
    changed.retain(|p| plan_rel.as_deref() != Some(p.as_str()));
    let transcript = Transcript {
        id: &id,
        judge: &judge,
        prompt: &text,
        answer: &answer,
        changed: &changed,
    };

    if !changed.is_empty() {
        let mut why = vec![format!(
            "the judge changed the working tree ({}); left as they are for you to inspect",
            changed.join(", ")
        )];
        if let Verdict::Reject { missing, .. } = &answer.verdict {
            why.extend(missing.iter().cloned());
        }
        return outcome.reject("containment", &why, Some(&transcript));
    }
    match &answer.verdict {
        Verdict::Accept { .. } => {
            outcome.accept(&format!("{verify_label}, judge accept"), Some(&transcript))
        }
        Verdict::Reject { missing, .. } => {
            let missing = if missing.is_empty() {
                vec!["the judge rejected without listing what is missing".to_string()]
            } else {
                missing.clone()
            };
            outcome.reject("judge", &missing, Some(&transcript))
        }
        Verdict::NoVerdict { reason } => outcome.reject(
            "judge",
            &[format!("no verdict: {reason}")],
            Some(&transcript),
        ),
    }
}

/// Everything needed to write the result once the stages are done.
struct Outcome<'p, 'a> {
    ctx: &'p Ctx,
    plan: &'p Plan<'a>,
    goal: &'p Goal<'a>,
    src: &'p str,
    now: &'p Now,
    /// A `started (contract …)` line exists; if not, this run starts the goal.
    started: bool,
    fingerprint: &'p str,
    dry_run: bool,
}

impl Outcome<'_, '_> {
    fn accept(&self, how: &str, transcript: Option<&Transcript<'_>>) -> Result<u8> {
        let id = &self.goal.id;
        if self.dry_run {
            println(&format!(
                "dry run: {id} would be signed off ({how}); nothing was written"
            ))?;
            return Ok(OK);
        }
        let saved = transcript
            .map(|t| t.save(self.ctx, self.now, "accept"))
            .transpose()?;
        let mut edits = ops::set_status(self.plan, self.goal, Status::Done);
        self.start_line(&mut edits);
        let mut line = format!("{id} signed off ({how})");
        if let Some(path) = &saved {
            let _ = write!(line, ": {path}");
        }
        edits.push(ops::log(&self.now.stamp(), &line));
        self.write(edits, saved.as_deref())?;
        println(&format!("signed off {id} ({how})"))?;
        if let Some(path) = saved {
            println(&format!("  transcript: {path}"))?;
        }
        Ok(OK)
    }

    fn reject(
        &self,
        stage: &str,
        missing: &[String],
        transcript: Option<&Transcript<'_>>,
    ) -> Result<u8> {
        let id = &self.goal.id;
        let list: String = missing.iter().map(|m| format!("- {m}\n")).collect();
        if self.dry_run {
            println(&format!(
                "dry run: sign-off of {id} would be rejected ({stage}); nothing was written\nmissing:\n{list}"
            ))?;
            return Err(Exit::quiet(CHECK_FAILED));
        }
        let saved = transcript
            .map(|t| t.save(self.ctx, self.now, "reject"))
            .transpose()?;
        let mut edits = if self.started {
            ops::id_comment(self.plan, self.goal)
        } else {
            ops::set_status(self.plan, self.goal, Status::Active)
        };
        self.start_line(&mut edits);
        let mut line = format!(
            "{id} sign-off rejected ({stage}): {}",
            cut(&missing.join("; "), 300)
        );
        if let Some(path) = &saved {
            let _ = write!(line, " ({path})");
        }
        edits.push(ops::log(&self.now.stamp(), &line));
        self.write(edits, saved.as_deref())?;
        println(&format!(
            "sign-off of {id} rejected ({stage})\nmissing:\n{}",
            list.trim_end()
        ))?;
        if let Some(path) = saved {
            println(&format!("  transcript: {path}"))?;
        }
        Err(Exit::quiet(CHECK_FAILED))
    }

    /// Writes the result only if the goal is still the one checked: the same
    /// contract (a failure mode or a verify line added meanwhile changes the
    /// fingerprint), the same dependencies, not finished by someone else. A refused
    /// write takes its transcript back, so no accept stands without its sign-off.
    fn write(&self, edits: Vec<Edit>, transcript: Option<&str>) -> Result<()> {
        let id = &self.goal.id;
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
            if now.depends_on != self.goal.depends_on {
                return Err(format!(
                    "the dependencies of {id} changed while it was being checked"
                ));
            }
            if now.status().is_finished() {
                return Err(format!(
                    "goal {id} became {} while it was being checked",
                    now.status().as_str()
                ));
            }
            Ok(())
        });
        if result.is_err()
            && let Some(rel) = transcript
            && let Ok(repo) = self.ctx.repo()
        {
            let _ = std::fs::remove_file(repo.root.join(rel));
        }
        result.map(|_| ()).map_err(Into::into)
    }

    /// A goal signed off without `plan start` is started here, visibly.
    fn start_line(&self, edits: &mut Vec<Edit>) {
        if !self.started {
            let line = format!("{} started (contract {})", self.goal.id, self.fingerprint);
            edits.push(ops::log(&self.now.stamp(), &line));
        }
    }
}

/// The judge's prompt and raw answer, kept as evidence in `.plan/judge/`.
struct Transcript<'t> {
    id: &'t str,
    judge: &'t Judge,
    prompt: &'t str,
    answer: &'t Answer,
    changed: &'t [String],
}

impl Transcript<'_> {
    /// Writes `.plan/judge/<id>-<time>.md` and returns that repo-relative path.
    fn save(&self, ctx: &Ctx, now: &Now, verdict: &str) -> Result<String> {
        let root = &ctx.repo()?.root;
        let dir = root.join(".plan").join("judge");
        std::fs::create_dir_all(&dir)
            .map_err(|e| Exit::env(format!("cannot create {}: {e}", dir.display())))?;
        let mut text = format!("# Judge transcript: {}\n\n", self.id);
        let _ = writeln!(text, "- when: {}", now.stamp());
        let _ = writeln!(text, "- backend: {}", self.judge.backend);
        if let Some(model) = &self.judge.model {
            let _ = writeln!(text, "- model: {model}");
        }
        let _ = writeln!(text, "- command: {}", self.answer.argv.join(" "));
        let _ = writeln!(
            text,
            "- verdict: {verdict} ({})",
            self.answer.verdict.label()
        );
        if let Verdict::NoVerdict { reason } = &self.answer.verdict {
            let _ = writeln!(text, "- why no verdict: {reason}");
        }
        if !self.changed.is_empty() {
            let _ = writeln!(
                text,
                "- files the judge changed: {}",
                self.changed.join(", ")
            );
        }
        let _ = write!(
            text,
            "\n## Prompt\n\n{}\n\n## Answer\n\n",
            self.prompt.trim_end()
        );
        let answer = self
            .answer
            .last_message
            .as_deref()
            .unwrap_or(&self.answer.stdout);
        let _ = writeln!(text, "{}", fenced(answer));
        if !self.answer.stderr.trim().is_empty() {
            let _ = write!(text, "\n## Stderr\n\n{}\n", fenced(&self.answer.stderr));
        }
        let base = format!("{}-{}", self.id, now.compact());
        let mut name = format!("{base}.md");
        let mut n = 2;
        let file = loop {
            match std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .open(dir.join(&name))
            {
                Ok(file) => break file,
                Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
                    name = format!("{base}-{n}.md");
                    n += 1;
                }
                Err(e) => {
                    return Err(Exit::env(format!(
                        "cannot write {}: {e}",
                        dir.join(&name).display()
                    )));
                }
            }
        };
        use std::io::Write;
        let mut file = file;
        file.write_all(text.as_bytes())?;
        Ok(format!(".plan/judge/{name}"))
    }
}

/// A code fence long enough that the text cannot close it.
fn fenced(text: &str) -> String {
    let longest = text
        .lines()
        .map(|l| l.trim_start().bytes().take_while(|&b| b == b'`').count())
        .max()
        .unwrap_or(0);
    let fence = "`".repeat(longest.max(2) + 1);
    format!("{fence}\n{}\n{fence}", text.trim_end())
}

/// Checks each `--path`: it exists, lies inside the repository, and is not ignored.
fn evidence_paths(ctx: &Ctx, repo: &Repo, args: &Args) -> Result<Vec<String>> {
    let mut out = Vec::new();
    for given in &args.paths {
        let rel = git::check_evidence_path(&repo.root, &ctx.cwd, given, args.allow_ignored)?.map_err(|problem| {
            let shown = given.display();
            let (what, hint) = match problem {
                git::PathProblem::Missing => ("does not exist", "save the log or output to a file in the repository first"),
                git::PathProblem::OutsideRepo => ("is outside the repository", "evidence must be a file in the repository the judge can read"),
                git::PathProblem::SymlinkOutside => ("is a symlink that leads outside the repository", "copy the file into the repository"),
                git::PathProblem::Ignored => ("is ignored by git, so it is not durable evidence", "commit it or move it out of the ignored directory, or pass --allow-ignored"),
            };
            Exit::usage(format!("evidence path {shown} {what}\n  hint: {hint}"))
        })?;
        out.push(rel.to_string_lossy().into_owned());
    }
    Ok(out)
}

/// The judge to run, or `None` to skip it (`--judge none`).
fn choose_judge(flag: Option<&str>, config: &Config) -> Result<Option<Judge>> {
    let configured = &config.judge;
    let choice = match flag {
        None => configured.backend,
        Some("auto") => BackendChoice::Auto,
        Some(name) => BackendChoice::Fixed(
            name.parse::<Backend>()
                .map_err(|e| Exit::usage(format!("{e:#}")))?,
        ),
    };
    // A model configured for one backend means nothing to another.
    let model = match (flag, configured.backend) {
        (Some(_), BackendChoice::Fixed(b)) if choice != BackendChoice::Fixed(b) => None,
        _ => configured.model.clone(),
    };
    let backend = match choice {
        BackendChoice::Fixed(Backend::None) => return Ok(None),
        BackendChoice::Fixed(backend) => backend,
        BackendChoice::Auto => judge_run::auto_backend().ok_or_else(|| {
            Exit::env(
                "no judge found: none of claude, codex, pi, gemini, llm is on PATH\n  hint: install one, set a command judge in .plan/config.yaml, or sign off without a judge: --judge none",
            )
        })?,
    };
    Ok(Some(Judge {
        backend,
        model,
        command: configured.command.clone(),
        timeout: Duration::from_secs(configured.timeout_secs),
    }))
}

/// The repository's `.plan/prompts/NAME` if it has one, else the embedded text.
fn override_or(root: &Path, name: &str, embedded: &str) -> String {
    std::fs::read_to_string(root.join(".plan").join("prompts").join(name))
        .unwrap_or_else(|_| embedded.to_string())
}

/// The text of the evidence files, for a judge that cannot open them itself.
fn inline_files(root: &Path, paths: &[String]) -> String {
    let mut out = String::new();
    let mut budget = INLINE_TOTAL_BYTES;
    for rel in paths {
        let Ok(bytes) = std::fs::read(root.join(rel)) else {
            continue;
        };
        let take = bytes.len().min(INLINE_FILE_BYTES).min(budget);
        if take == 0 {
            break;
        }
        budget -= take;
        let text = String::from_utf8_lossy(&bytes[..take]);
        let cut = if take < bytes.len() {
            format!("\n… {} more bytes not shown", bytes.len() - take)
        } else {
            String::new()
        };
        let _ = write!(out, "\n### {rel}\n\n{}\n", fenced(&format!("{text}{cut}")));
    }
    out
}

/// Refuses a sign-off whose contract changed since it was logged, showing the change.
fn contract_changed(
    ctx: &Ctx,
    repo: &Repo,
    goal: &Goal<'_>,
    old: &str,
    now: &str,
) -> anyhow::Error {
    let id = &goal.id;
    let rel = ctx.plan_in_repo().unwrap_or_else(|| ctx.store.path.clone());
    let old_text = git::file_history(&repo.root, &rel, HISTORY_DEPTH)
        .ok()
        .and_then(|revisions| {
            revisions.iter().find_map(|rev| {
                let plan = parse(&rev.content);
                let then = plan.goal(id)?;
                (then.fingerprint() == old).then(|| then.contract())
            })
        });
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

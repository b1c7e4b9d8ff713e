//! Runs a judge backend read-only on a prompt and turns what it printed into a
//! verdict. Fails closed: a crash, or a non-zero exit after an answer, is "no
//! verdict"; a judge that could not judge (timeout, no answer, its own error) says so.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use super::backend::{
    Backend, Format, Invocation, VERDICT_SCHEMA, ask_for_verdict_schema, instruction_files,
    invocation, refusal,
};
use super::program::{self, Program};
use super::verdict::{self, Verdict};
use crate::exec::{self, SpawnError, Spec};
use crate::exit::Exit;

/// Judge runs get more turns than a chat needs: they open files.
const MAX_TURNS: u32 = 30;
/// How much of the judge's output is kept for the transcript.
const TAIL: usize = 256 * 1024;
/// How much of a failed judge's stderr is quoted back.
const LAST_WORDS_LINES: usize = 10;
const LAST_WORDS_CHARS: usize = 1000;

pub struct Judge {
    pub backend: Backend,
    pub model: Option<String>,
    pub command: Vec<String>,
    pub timeout: Duration,
}

/// What the judge said, and what was run to ask it.
pub struct Answer {
    pub verdict: Verdict,
    pub argv: Vec<String>,
    pub stdout: String,
    pub stderr: String,
    pub last_message: Option<String>,
    /// The program that ran, resolved and hashed.
    pub program: Option<Program>,
}

/// A finished judge process, before its answer is read.
struct Raw {
    argv: Vec<String>,
    program: Option<Program>,
    output: exec::Output,
    stdout: String,
    stderr: String,
    last_message: Option<String>,
}

/// Runs the judge. `verdict_schema`: ask for the sign-off verdict's JSON shape where
/// the backend takes a schema.
fn spawn(
    judge: &Judge,
    root: &Path,
    prompt: &str,
    system: &str,
    verdict_schema: bool,
) -> Result<Raw> {
    refuse_inline(judge)?;
    // The sign-off judge (`verdict_schema`) reads a private copy, whose
    // instruction files `run` sets aside; anything else reads the repository itself.
    if !verdict_schema {
        refuse_unisolated(judge, root)?;
    }
    let scratch = crate::exec::Scratch::private("plan-answer-")?;
    let out_file = scratch.path().join("last-message.txt");
    let mut inv = invocation(
        judge.backend,
        judge.model.as_deref(),
        &judge.command,
        root,
        &out_file,
        system,
        MAX_TURNS,
    )
    .map_err(|e| Exit::usage(format!("{e:#}")))?;
    for (path, text) in &inv.files {
        #[expect(
            clippy::disallowed_methods,
            reason = "the judge's scratch directory, made for this run"
        )]
        std::fs::write(path, text)
            .map_err(|e| Exit::env(format!("cannot write {}: {e}", path.display())))?;
    }
    let cwd = if judge.backend == Backend::Command && verdict_schema {
        // A command sign-off judge starts in an empty directory of its own: through an
        // interpreter (`sh -c '. ./judge.sh'`, `python3 -m mod`, `make judge`) a
        // name relative to the tree would run a file the agent under review wrote.
        // It is told where the tree is (the prompt, PLAN_JUDGE_TREE).
        program::resolve(&inv.program, root, root)?;
        let cwd = scratch.path().join("cwd");
        crate::atomic::make_dir(&cwd)
            .map_err(|e| Exit::env(format!("cannot create {}: {e}", cwd.display())))?;
        inv.env
            .push(("PLAN_JUDGE_TREE".to_string(), root.display().to_string()));
        cwd
    } else {
        prepare_cwd(&inv, root)?
    };
    // The sign-off judge, and any judge plan starts in a directory of its own,
    // starts under plan's cache; a judge started in the repository itself (the loop
    // judge's copilot) starts where the person works, above which is theirs.
    let under_cache = verdict_schema || cwd != root;
    if under_cache {
        refuse_planted(judge, &cwd, false)?;
    }
    let program = program::resolve(&inv.program, &cwd, root)?;
    let schema_file = scratch.path().join("verdict-schema.json");
    if verdict_schema && ask_for_verdict_schema(judge.backend, &mut inv, &schema_file) {
        #[expect(
            clippy::disallowed_methods,
            reason = "the judge's scratch directory, made for this run"
        )]
        std::fs::write(&schema_file, VERDICT_SCHEMA)?;
    }
    // Started away from the root, the judge is told where the tree it reads is.
    let prompt = if cwd != root {
        format!(
            "The repository under review is at {}; every path below is relative to it.\n\n{prompt}",
            root.display()
        )
    } else {
        prompt.to_string()
    };
    let prompt = if inv.system_in_prompt && !system.trim().is_empty() {
        format!("{}\n\n{prompt}", system.trim())
    } else {
        prompt
    };
    let mut argv = vec![inv.program.clone()];
    argv.extend(inv.args.iter().cloned());
    if inv.prompt_arg {
        argv.push(prompt.clone());
    }
    // A shell, and node's CLIs, take their idea of where they are from PWD when that
    // still names a directory: the judge's is the one it starts in (its private one,
    // where its host has one), never plan's. OpenCode took a PWD naming the root as its
    // project and handed its model the root's AGENTS.md files.
    let mut env = inv.env.clone();
    env.push(("PWD".to_string(), cwd.display().to_string()));
    let spec = Spec {
        env,
        stdin: inv.stdin_prompt.then(|| prompt.clone().into_bytes()),
        tail_bytes: TAIL,
        ..Spec::new(argv.clone(), &cwd, judge.timeout)
    };
    let output = exec::run(&spec).map_err(|e| match e.downcast_ref::<SpawnError>() {
        Some(spawn) => Exit::env_hint(format!("cannot run the {} judge: {} {}", judge.backend, spawn.program, spawn.reason()), "install it, pick another with --judge or `plan judge backend NAME`, or skip the judge with --judge none"),
        None => e,
    })?;
    if under_cache {
        refuse_planted(judge, &cwd, true)?;
    }
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    let last_message = inv
        .reads_last_message
        .as_ref()
        .and_then(|p| std::fs::read_to_string(p).ok());
    // The prompt is in the transcript already; the recorded command leaves it out.
    if inv.prompt_arg {
        argv.pop();
    }
    Ok(Raw {
        argv,
        program,
        output,
        stdout,
        stderr,
        last_message,
    })
}

/// Why a run gave no usable answer, if it did not finish cleanly.
fn failure(judge: &Judge, output: &exec::Output) -> Option<String> {
    if output.timed_out {
        Some(format!(
            "the judge timed out after {}s",
            judge.timeout.as_secs()
        ))
    } else if let Some(signal) = output.signal() {
        Some(format!("the judge was killed by signal {signal}"))
    } else if !output.success() {
        let code = output.code().map_or("?".to_string(), |c| c.to_string());
        Some(format!("the judge exited with code {code}"))
    } else {
        None
    }
}

/// Runs the sign-off judge and reads its verdict. Fails closed: a run that answered
/// without a readable verdict is `NoVerdict`. A run that could not judge at all (timed
/// out, exited non-zero without an answer, reported its own error) is
/// `CouldNotJudge`, with the judge's words.
///
/// `root` is the judge's private copy of the tree (src/judge/tree.rs): the
/// instruction files its host would load as its own are moved out of it for the run
/// and back after, so they never steer the judge, and the prompt names them.
pub fn run(judge: &Judge, root: &Path, prompt: &str, system: &str) -> Result<Answer> {
    let aside = SetAside::take(judge.backend, root)?;
    let prompt = aside.note(prompt);
    let raw = spawn(judge, root, &prompt, system, true);
    aside.put_back()?;
    let raw = raw?;
    let output = &raw.output;
    // Codex's stdout is progress; its answer is the last-message file.
    let answered = match judge.backend.format() {
        Format::LastMessage => raw.last_message.as_deref(),
        _ => Some(raw.stdout.as_str()),
    }
    .is_some_and(|text| !text.trim().is_empty());
    let parsed = || verdict::parse(judge.backend, &raw.stdout, raw.last_message.as_deref());
    let verdict = if output.timed_out {
        Verdict::CouldNotJudge {
            reason: format!("timed out after {}s", judge.timeout.as_secs()),
        }
    } else if output.signal().is_none() && !output.success() && !answered {
        let code = output.code().map_or("?".to_string(), |c| c.to_string());
        Verdict::CouldNotJudge {
            reason: format!(
                "exited with code {code} and no answer: {}",
                last_words(&raw.stderr)
            ),
        }
    } else {
        match (failure(judge, output), parsed()) {
            (_, could_not @ Verdict::CouldNotJudge { .. }) => could_not,
            (Some(reason), _) => Verdict::NoVerdict { reason },
            // Only the end is kept: a verdict the rest contradicts would be read alone.
            (None, _)
                if output.stdout_cut && !matches!(judge.backend.format(), Format::LastMessage) =>
            {
                Verdict::NoVerdict {
                    reason: format!(
                        "the judge's answer is longer than the {} KiB plan keeps, so it cannot be read whole",
                        TAIL / 1024
                    ),
                }
            }
            (None, verdict) => verdict,
        }
    };
    Ok(Answer {
        verdict,
        argv: raw.argv,
        stdout: raw.stdout,
        stderr: raw.stderr,
        last_message: raw.last_message,
        program: raw.program,
    })
}

/// Instruction files moved out of the judge's copy for one run, kept in a
/// directory of their own (not beside the copy, where a file counts as the judge's).
struct SetAside {
    root: std::path::PathBuf,
    stash: Option<crate::exec::Scratch>,
    paths: Vec<String>,
}

impl SetAside {
    fn take(backend: Backend, root: &Path) -> Result<SetAside> {
        let paths = instruction_files(backend, root);
        let mut aside = SetAside {
            root: root.to_path_buf(),
            stash: None,
            paths: Vec::new(),
        };
        if paths.is_empty() {
            return Ok(aside);
        }
        let stash = crate::exec::Scratch::private("plan-judge-withheld-").map_err(|e| {
            Exit::env(format!(
                "cannot set the judge's instruction files aside: {e}"
            ))
        })?;
        for (i, rel) in paths.into_iter().enumerate() {
            let to = stash.path().join(i.to_string());
            if let Err(e) = crate::atomic::rename(root.join(&rel), &to) {
                aside.stash = Some(stash);
                aside.put_back()?;
                return Err(Exit::env(format!(
                    "cannot set {rel} aside in the judge's copy: {e}"
                )));
            }
            aside.paths.push(rel);
        }
        aside.stash = Some(stash);
        Ok(aside)
    }

    /// The prompt, naming what was withheld, so the judge knows the files exist.
    fn note(&self, prompt: &str) -> String {
        if self.paths.is_empty() {
            return prompt.to_string();
        }
        format!(
            "Withheld from your copy of the repository: {}. They are instruction files your CLI would load as its own instructions; the agent under review could have written them, so they are not shown to you.\n\n{prompt}",
            self.paths.join(", ")
        )
    }

    /// Moves every file back where it was. One the judge made in its place is left
    /// (the copy's watch reports it as the judge's change).
    fn put_back(&self) -> Result<()> {
        let Some(stash) = &self.stash else {
            return Ok(());
        };
        for (i, rel) in self.paths.iter().enumerate() {
            let to = self.root.join(rel);
            if std::fs::symlink_metadata(&to).is_ok() {
                continue;
            }
            crate::atomic::rename(stash.path().join(i.to_string()), &to).map_err(|e| {
                Exit::env(format!("cannot put {rel} back in the judge's copy: {e}"))
            })?;
        }
        Ok(())
    }
}

/// Fails closed (exit 3) when the backend cannot judge `root` in isolation.
fn refuse_unisolated(judge: &Judge, root: &Path) -> Result<()> {
    match refusal(judge.backend, root) {
        None => Ok(()),
        Some(why) => Err(Exit::env_hint(
            format!("refusing the {} judge here: {why}", judge.backend),
            "pick another judge with --judge or `plan judge backend NAME`, or remove the file if it is not yours",
        )),
    }
}

/// Fails closed (exit 3) when a directory above `cwd`, below HOME, holds a file a
/// judge CLI loads as its own instructions or settings (`planted::above`): plan's
/// cache is one an agent's sandbox may be let write (many allow ~/.cache), and a
/// GEMINI.md in ~/.cache/plan/judges is above every judge's start. `after`: the run
/// is over, and what is found appeared while it ran, so its verdict is not taken.
///
/// Refused, not removed: plan did not make the file, so it may be the person's own
/// (XDG_CACHE_HOME may name any directory), and removing it is no surer than
/// refusing — what could write it there can write it again between the removal
/// and the judge's start. Refused, the person learns an agent wrote where it should
/// not have. No directory of plan's is out of reach of an agent let write the cache
/// as the same user, so neither look closes the race of one that writes while the
/// judge starts and removes before it ends; the look after catches one still there.
fn refuse_planted(judge: &Judge, cwd: &Path, after: bool) -> Result<()> {
    let (home, extra) = home_and_context_names();
    let found = super::planted::above(cwd, home.as_deref(), &extra);
    let are = if found.len() == 1 { "is" } else { "are" };
    let when = if after {
        format!(
            "{are} above the directory it started in ({}), put there while it ran",
            cwd.display()
        )
    } else {
        format!(
            "{are} above the directory it would start in ({})",
            cwd.display()
        )
    };
    let what = if after { "verdict" } else { "run" };
    planted_refusal(
        &format!("the {} judge's {what}", judge.backend),
        &found,
        &when,
    )
}

/// HOME, and the context file names the user's Gemini settings add.
fn home_and_context_names() -> (Option<std::path::PathBuf>, Vec<String>) {
    let home = crate::env::os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from);
    let extra = crate::hosts::gemini::context_names(home.as_deref());
    (home, extra)
}

/// The refusal of `whom` for `found` (none: no refusal), which `when` says where.
fn planted_refusal(whom: &str, found: &[std::path::PathBuf], when: &str) -> Result<()> {
    if found.is_empty() {
        return Ok(());
    }
    let list = found
        .iter()
        .map(|p| p.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    Err(Exit::env_hint(
        format!(
            "refusing {whom}: {list} {when}; a judge CLI loads such a file as its own instructions or settings, plan put none there, and an agent let write your cache could have"
        ),
        "remove what is not yours and sign off again; to keep one that is yours, set XDG_CACHE_HOME to a directory with none of these above it",
    ))
}

/// Where the run starts: its private working directory, made, or the root.
fn prepare_cwd(inv: &Invocation, root: &Path) -> Result<std::path::PathBuf> {
    let Some(cwd) = &inv.cwd else {
        return Ok(root.to_path_buf());
    };
    crate::atomic::make_dirs(cwd)
        .map_err(|e| Exit::env(format!("cannot create {}: {e}", cwd.display())))?;
    if let Some(dir) = inv.env_file_dir {
        stop_env_lookup(cwd, dir)?;
    }
    Ok(cwd.clone())
}

/// Ends the CLI's look for an env file where it starts: `DIR/.env` there holds what
/// it would have found at the end of that look, the user's `~/DIR/.env` or
/// `~/.env` (nothing when neither is there). The run's directory is private to it.
fn stop_env_lookup(cwd: &Path, dir: &str) -> Result<()> {
    let home = crate::env::os("HOME")
        .filter(|h| !h.is_empty())
        .map(std::path::PathBuf::from);
    let own = home
        .iter()
        .flat_map(|h| [h.join(dir).join(".env"), h.join(".env")])
        .find(|f| f.is_file());
    let text = match &own {
        Some(file) => {
            crate::fsread::read(file, ENV_FILE_CAP)
                .map_err(|e| Exit::env(format!("cannot read {}: {e}", file.display())))?
                .1
        }
        None => Vec::new(),
    };
    let at = cwd.join(dir);
    crate::atomic::make_dirs(&at)
        .map_err(|e| Exit::env(format!("cannot create {}: {e}", at.display())))?;
    crate::atomic::create_new(&at.join(".env"), &text, &crate::atomic::Replace::DURABLE)
        .map_err(|e| Exit::env(format!("cannot write {}: {e:?}", at.join(".env").display())))?;
    Ok(())
}

/// The most of a user's env file copied for a judge run.
const ENV_FILE_CAP: u64 = 1 << 20;

/// The end of what a failed judge printed on stderr, where CLIs put their error.
fn last_words(stderr: &str) -> String {
    let lines: Vec<&str> = stderr
        .lines()
        .map(str::trim_end)
        .filter(|l| !l.trim().is_empty())
        .collect();
    if lines.is_empty() {
        return "(it printed nothing on stderr either)".to_string();
    }
    let text = lines[lines.len().saturating_sub(LAST_WORDS_LINES)..].join("\n  ");
    crate::plan::text::cut(&text, LAST_WORDS_CHARS)
}

/// Refuses a command judge that is not a program or script of the person's own
/// (src/judge/inline.rs: `sh -c '…'`, `xargs`, `python3 -m …`), exit 3.
fn refuse_inline(judge: &Judge) -> Result<()> {
    if judge.backend != Backend::Command {
        return Ok(());
    }
    match super::inline::refused(&judge.command, &super::inline::OnDisk) {
        Some(refusal) => {
            let (message, hint) = super::inline::message(&refusal);
            Err(Exit::env_hint(message, hint))
        }
        None => Ok(()),
    }
}

/// Checks, before verify runs, that this judge can be started: its settings make an
/// argv and its program exists. Finding out after a long verify wastes it.
pub fn check(judge: &Judge, root: &Path) -> Result<()> {
    refuse_inline(judge)?;
    let inv = invocation(
        judge.backend,
        judge.model.as_deref(),
        &judge.command,
        root,
        Path::new("last-message.txt"),
        "",
        MAX_TURNS,
    )
    .map_err(|e| Exit::usage(format!("{e:#}")))?;
    // No refusal for instruction files here: the sign-off judge reads a copy they
    // are set aside in (`run`).
    // Every sign-off judge starts under the judges' private directory: what is
    // planted in it or above it is found before verify runs, not after. Without a
    // cache directory the sign-off fails where the judge's copy is made, as before.
    if let Some(private) = exec::private_base() {
        let (home, extra) = home_and_context_names();
        let found = super::planted::in_or_above(&private, home.as_deref(), &extra);
        let are = if found.len() == 1 { "is" } else { "are" };
        planted_refusal(
            &format!("the {} judge", judge.backend),
            &found,
            &format!(
                "{are} above the directories plan's judges start in (under {})",
                private.display()
            ),
        )?;
    }
    // A relative name is screened against the root: a command judge starts in an
    // empty directory of its own, but the name says the agent's file was meant.
    let cwd = inv.cwd.as_deref().unwrap_or(root);
    if program::resolve(&inv.program, cwd, root)?.is_some() {
        if judge.backend == Backend::Command
            && let Some(path) = program::arg_inside(&judge.command, cwd, root)
        {
            let (message, hint) = program::arg_inside_message(&path);
            return Err(Exit::env_hint(message, hint));
        }
        return Ok(());
    }
    Err(Exit::env_hint(
        format!(
            "cannot run the {} judge: {} not found",
            judge.backend, inv.program
        ),
        "install it, pick another with --judge or `plan judge backend NAME`, or skip the judge with --judge none",
    ))
}

/// Runs a backend on a prompt and returns its answer's text (the loop judge).
pub fn ask(judge: &Judge, root: &Path, prompt: &str, system: &str) -> Result<String> {
    let raw = spawn(judge, root, prompt, system, false)?;
    if let Some(reason) = failure(judge, &raw.output) {
        anyhow::bail!(reason);
    }
    verdict::answer_text(judge.backend, &raw.stdout, raw.last_message.as_deref())
        .ok_or_else(|| anyhow::anyhow!("the {} answer was empty or an error", judge.backend))
}

/// The first backend of `backend::auto_order` on PATH, for `judge.backend: auto`.
pub fn auto_backend() -> Option<Backend> {
    super::backend::resolve_auto(exec::find_on_path).map(|(backend, _)| backend)
}

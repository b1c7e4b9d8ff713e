//! Runs a judge backend read-only on a prompt and turns what it printed into a
//! verdict. Fails closed: a timeout, a crash or a non-zero exit is "no verdict".

use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use super::backend::{Backend, invocation};
use super::verdict::{self, Verdict};
use crate::exec::{self, SpawnError, Spec};
use crate::exit::Exit;

/// Judge runs get more turns than a chat needs: they open files.
const MAX_TURNS: u32 = 30;
/// How much of the judge's output is kept for the transcript.
const TAIL: usize = 256 * 1024;

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
}

/// A finished judge process, before its answer is read.
struct Raw {
    argv: Vec<String>,
    output: exec::Output,
    stdout: String,
    stderr: String,
    last_message: Option<String>,
}

fn spawn(judge: &Judge, root: &Path, prompt: &str, system: &str) -> Result<Raw> {
    let scratch = tempfile::tempdir()?;
    let out_file = scratch.path().join("last-message.txt");
    let inv = invocation(
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
        std::fs::write(path, text)
            .map_err(|e| Exit::env(format!("cannot write {}: {e}", path.display())))?;
    }
    let prompt = if inv.system_in_prompt && !system.trim().is_empty() {
        format!("{}\n\n{prompt}", system.trim())
    } else {
        prompt.to_string()
    };
    let mut argv = vec![inv.program.clone()];
    argv.extend(inv.args.iter().cloned());
    if inv.prompt_arg {
        argv.push(prompt.clone());
    }
    let spec = Spec {
        env: inv.env.clone(),
        stdin: inv.stdin_prompt.then(|| prompt.clone().into_bytes()),
        tail_bytes: TAIL,
        ..Spec::new(argv.clone(), root, judge.timeout)
    };
    let output = exec::run(&spec).map_err(|e| match e.downcast_ref::<SpawnError>() {
        Some(spawn) => Exit::env(format!(
            "cannot run the {} judge: {} {}\n  hint: install it, pick another with --judge or `plan judge backend NAME`, or skip the judge with --judge none",
            judge.backend,
            spawn.program,
            spawn.reason()
        )),
        None => e,
    })?;
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

/// Runs the sign-off judge and reads its verdict. Fails closed.
pub fn run(judge: &Judge, root: &Path, prompt: &str, system: &str) -> Result<Answer> {
    let raw = spawn(judge, root, prompt, system)?;
    let verdict = match failure(judge, &raw.output) {
        Some(reason) => Verdict::NoVerdict { reason },
        None => verdict::parse(judge.backend, &raw.stdout, raw.last_message.as_deref()),
    };
    Ok(Answer {
        verdict,
        argv: raw.argv,
        stdout: raw.stdout,
        stderr: raw.stderr,
        last_message: raw.last_message,
    })
}

/// Runs a backend on a prompt and returns its answer's text (the loop judge).
pub fn ask(judge: &Judge, root: &Path, prompt: &str, system: &str) -> Result<String> {
    let raw = spawn(judge, root, prompt, system)?;
    if let Some(reason) = failure(judge, &raw.output) {
        anyhow::bail!(reason);
    }
    verdict::answer_text(judge.backend, &raw.stdout, raw.last_message.as_deref())
        .ok_or_else(|| anyhow::anyhow!("the {} answer was empty or an error", judge.backend))
}

/// The first of claude, codex, pi, gemini, llm on PATH, for `judge.backend: auto`.
pub fn auto_backend() -> Option<Backend> {
    super::backend::resolve_auto(exec::find_on_path).map(|(backend, _)| backend)
}

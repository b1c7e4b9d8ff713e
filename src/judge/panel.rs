//! A judge panel: every judge asked the same prompt at the same time, each in its
//! own thread over the one-judge runner, and each answer kept apart.

use std::path::Path;
use std::sync::atomic::Ordering;

use super::run::{self, Answer, Judge};
use super::verdict::Verdict;

/// Runs every judge on `prompt` at once and returns their answers in `judges`'
/// order. A judge that could not be run at all is `CouldNotJudge` with the error,
/// so one broken judge never hides the others' answers. Each run kills its own
/// process tree at its timeout, so the panel takes as long as its slowest judge.
/// `Err` only when the sign-off was cancelled (`plan mcp`): then nothing was judged.
pub fn ask_all(
    judges: &[Judge],
    root: &Path,
    prompt: &str,
    system: &str,
) -> anyhow::Result<Vec<Answer>> {
    // A cancel (`plan mcp`'s client) is set per thread; each judge's thread obeys it.
    let cancel = crate::exec::cancel_flag();
    std::thread::scope(|scope| {
        let running: Vec<_> = judges
            .iter()
            .map(|judge| {
                let cancel = cancel.clone();
                scope.spawn(move || {
                    let ask = || run::run(judge, root, prompt, system);
                    match cancel {
                        Some(flag) => crate::exec::cancellable(flag, ask),
                        None => ask(),
                    }
                })
            })
            .collect();
        let mut answers = Vec::with_capacity(judges.len());
        for (thread, judge) in running.into_iter().zip(judges) {
            answers.push(match thread.join() {
                Ok(Ok(answer)) => answer,
                Ok(Err(e)) if cancel.as_ref().is_some_and(|f| f.load(Ordering::SeqCst)) => {
                    return Err(e);
                }
                Ok(Err(e)) => unrun(judge, format!("{e:#}")),
                Err(_) => unrun(judge, "its runner panicked".to_string()),
            });
        }
        Ok(answers)
    })
}

/// The answer of a judge whose run failed before it could answer.
fn unrun(judge: &Judge, reason: String) -> Answer {
    Answer {
        verdict: Verdict::CouldNotJudge { reason },
        argv: judge
            .command
            .first()
            .cloned()
            .or_else(|| judge.backend.program().map(str::to_string))
            .into_iter()
            .collect(),
        stdout: String::new(),
        stderr: String::new(),
        last_message: None,
        program: None,
    }
}

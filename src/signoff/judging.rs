//! Stage 2 of a sign-off with one judge: the working tree verify passed on kept as
//! a checkpoint commit, a copy of it the judge reads, the prompt from the goal's
//! facts, and the judge's answer turned into an accept or a reject. A judge that
//! changed its copy is a containment reject, whatever it answered.

use std::path::Path;

use anyhow::Result;

use super::SignOff;
use super::panel::Asking;
use super::writing::Outcome;
use crate::exit::Exit;
use crate::git::{self, Repo};
use crate::judge::files as judge_files;
use crate::judge::overrides;
use crate::judge::prompt::{self, Facts, VerifyFacts};
use crate::judge::run::{self as judge_run, Judge};
use crate::judge::tree::Tree as JudgeTree;
use crate::judge::verdict::Verdict;
use crate::plan::event::Judged;
use crate::plan::model::Goal;
use crate::plan::weakened::Finding;
use crate::record;
use crate::verify;

/// The tree as verify passed on it: the checkpoint commit, and the copy of it the
/// judge reads, holding the evidence `paths` and the verify's own files.
pub(super) fn judge_copy(
    repo: &Repo,
    id: &str,
    paths: &[String],
    verify: Option<&verify::Verify>,
) -> Result<(String, JudgeTree)> {
    let commit = git::working_commit(&repo.root, &format!("plan: checkpoint of {id}"))
        .map_err(|e| match crate::disk::full(&e, &repo.git_dir) {
            Some(full) => Exit::env_hint(
                format!("{full}: cannot keep the working tree for the judge to read ({e:#})"),
                crate::disk::hint(&repo.git_dir),
            ),
            None => Exit::env_hint(
                format!("cannot keep the working tree for the judge to read: {e:#}"),
                "nothing was written; fix what the error names (a file plan cannot read) and run plan complete again",
            ),
        })?;
    let mut wanted = paths.to_vec();
    if let Some(verify) = verify {
        wanted.extend(judge_files::verify_paths(&repo.root, verify));
    }
    let tree = JudgeTree::take(&repo.root, &commit, &wanted).map_err(|e| {
        let tmp = std::env::temp_dir();
        match crate::disk::said_full(&e).then(|| crate::disk::full(&e, &tmp)).flatten() {
            Some(full) => Exit::env_hint(
                format!("{full}: cannot check out the working tree for the judge ({e:#})"),
                crate::disk::hint(&tmp),
            ),
            None => Exit::env_hint(
                format!("cannot check out the working tree for the judge: {e:#}"),
                "nothing was written; check the space in the temporary directory (TMPDIR) and run plan complete again",
            ),
        }
    })?;
    Ok((commit, tree))
}

/// Why the checkpoint `commit` the judge is to read does not hold the files the
/// verify ran (`ran`: the check's own and the untracked code, each path with its
/// blob id then) as they were, or `None` when it does. Whatever ran since (the done goals' verifies, the agent's
/// own process) may have rewritten one git does not track, which the tracked
/// snapshots do not see: the judge would read code other than what passed. A file
/// the commit lacks (ignored, or gone) is not read by the judge from there; a
/// tracked one is the snapshots' to check, and its blob in the commit may be the
/// one git converted (line endings), not its bytes on disk.
pub(super) fn rewritten_since_verify(
    repo: &Repo,
    commit: &str,
    ran: &[(String, String)],
) -> Result<Option<String>> {
    // Each path as the file it leads to: the verify read a link's target, and
    // the commit keeps a link as its text.
    let root = std::fs::canonicalize(&repo.root).unwrap_or_else(|_| repo.root.clone());
    let real: Vec<String> = ran
        .iter()
        .map(|(path, _)| {
            std::fs::canonicalize(repo.root.join(path))
                .ok()
                .and_then(|at| Some(at.strip_prefix(&root).ok()?.to_string_lossy().into_owned()))
                .unwrap_or_default()
        })
        .collect();
    // A file gone since (no path it leads to) is not asked of the commit: git
    // refuses an empty path, and the verify's own check saw it go.
    let asked: Vec<&str> = (real.iter().map(String::as_str))
        .filter(|p| !p.is_empty())
        .collect();
    let mut found = git::blobs_in(&repo.root, commit, &asked)?.into_iter();
    let now: Vec<Option<String>> = (real.iter())
        .map(|p| {
            if p.is_empty() {
                None
            } else {
                found.next().flatten()
            }
        })
        .collect();
    let changed: Vec<&str> = ran
        .iter()
        .zip(real.iter().zip(&now))
        .filter(|((_, then), (real, now))| {
            !real.is_empty() && now.as_ref().is_some_and(|now| now != then)
        })
        .filter(|(_, (real, _))| {
            // Judged code before the verify ran ([`verifying::watched`]),
            // not now: a rewrite may drop what made it look like code.
            matches!(
                git::tracking(&repo.root, Path::new(real)),
                Ok(git::Tracking::Untracked)
            )
        })
        .map(|((path, _), _)| path.as_str())
        .collect();
    Ok((!changed.is_empty()).then(|| {
        format!(
            "code the verify ran changed after it passed and before the judge's copy was taken ({}); a check must not change what it checks",
            changed.join(", ")
        )
    }))
}

/// Stage 2 with one judge: asks it in the copy, then writes the outcome. A judge
/// that changed the copy is a containment reject, whatever it answered.
pub(super) fn ask_judge(
    outcome: &Outcome<'_, '_>,
    record: record::Transcript<'_>,
    judge: &Judge,
    asking: Asking<'_>,
) -> Result<SignOff> {
    let Asking {
        tree,
        prompt: text,
        system,
        overrides,
        verified,
        asked,
    } = asking;
    crate::out::step(
        &format!(
            "plan: judge: asking {} (timeout {}s)",
            judge.backend,
            judge.timeout.as_secs()
        ),
        &format!("judge: asking {}", judge.backend),
    );
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
        return outcome.reject(
            &[("containment".to_string(), why)],
            Some(transcript),
            false,
            asked,
        );
    }
    let model = judge
        .model
        .as_deref()
        .map(record::one_word)
        .unwrap_or_default();
    match &answer.verdict {
        // A judge that failed before judging: exit 3 with its own words; the work
        // was not judged, so nothing is logged and no rejection stands.
        Verdict::CouldNotJudge { reason } => Err(Exit::env_hint(
            format!("the {} judge could not judge: {reason}", judge.backend),
            could_not_judge_hint(reason),
        )),
        Verdict::Accept { .. } => outcome.accept(
            verified,
            Judged::By {
                backend: judge.backend.as_str(),
                model: &model,
            },
            transcript,
            asked,
        ),
        Verdict::Reject { missing, .. } => {
            let missing = if missing.is_empty() {
                vec!["the judge rejected without listing what is missing".to_string()]
            } else {
                missing.clone()
            };
            outcome.reject(
                &[("judge".to_string(), missing)],
                Some(transcript),
                false,
                asked,
            )
        }
        Verdict::NoVerdict { reason } => outcome.reject(
            &[("judge".to_string(), vec![format!("no verdict: {reason}")])],
            Some(transcript),
            false,
            asked,
        ),
    }
}

/// What the judge is told of the work handed in, beside the goal's own contract:
/// the same for a sign-off and for the gate's re-judge (`gate.rs`).
pub struct Work<'a> {
    /// The verify that passed, with the tail of its output; `None`: the goal has
    /// no verify.
    pub verify: Option<(&'a verify::Verify, &'a str)>,
    pub evidence: &'a str,
    /// The evidence paths, relative to the tree the judge reads.
    pub paths: &'a [String],
    /// The goal's contract since creation, as the transcript lists it.
    pub history: &'a str,
    /// The commit the goal was started at: the diff stat then covers work committed
    /// since, not only what is uncommitted.
    pub diff_base: crate::judge::prompt::DiffBase<'a>,
    pub weakened: &'a [Finding],
    /// `verify-green-at-start`, worded, when the verify passed at the goal's start.
    pub green_at_start: Option<&'a str>,
}

/// The sign-off's prompt: the repository's own prompt override when it has one
/// (recorded in `reads`), filled for the copy `tree` the judge reads.
pub(super) fn prompt_for_sign_off(
    reads: &mut overrides::Reads,
    (repo, tree): (&Repo, &Path),
    goal: &Goal<'_>,
    work: &Work<'_>,
) -> Result<String> {
    let diff_stat = git::diff_stat_since(tree, work.diff_base.commit())?;
    let template = reads.text(&repo.root, "evidence_judge.md", prompt::EVIDENCE_JUDGE)?;
    Ok(judge_prompt(&template, tree, goal, work, &diff_stat))
}

/// The judge's prompt: `template` filled with `goal`'s contract, `work`, and the
/// files of `tree` (the copy the judge reads) that the evidence and the verify
/// name. `diff_stat` is the change since `work.diff_base`.
pub fn judge_prompt(
    template: &str,
    tree: &Path,
    goal: &Goal<'_>,
    work: &Work<'_>,
    diff_stat: &str,
) -> String {
    let verify = work.verify.map(|(verify, _)| verify);
    let command = verify.map(|v| v.to_string());
    let files = judge_files::gather(tree, verify, work.paths);
    let facts = Facts {
        id: &goal.id,
        title: goal.title,
        done_when: goal.done_when().unwrap_or("(none written)"),
        failure_modes: goal.failure_modes.iter().map(|f| f.value).collect(),
        history: work.history,
        subtasks: goal.subtasks.iter().map(|s| (s.done, s.text)).collect(),
        verify: match (&command, work.verify) {
            (Some(command), Some((_, tail))) => VerifyFacts::Passed { command, tail },
            _ => VerifyFacts::None,
        },
        evidence: work.evidence,
        paths: work.paths,
        files: &files,
        diff_base: work.diff_base,
        diff_stat,
        weakened: work.weakened,
        green_at_start: work.green_at_start,
    };
    prompt::render(template, &facts)
}

/// What to do about a judge that could not judge. Gemini CLI refuses a headless
/// run in a folder it does not trust (exit 55): plan starts it in a private
/// directory of its own and trusts that one (`GEMINI_CLI_TRUST_WORKSPACE=true`), so
/// a refusal means the CLI ignored that, which logging in does not mend.
fn could_not_judge_hint(reason: &str) -> &'static str {
    if reason.contains("not running in a trusted directory") {
        return "nothing was written; plan starts the gemini judge in a private directory of its own and trusts it (GEMINI_CLI_TRUST_WORKSPACE=true), and this Gemini CLI refused it anyway: update Gemini CLI, or pick another judge with --judge";
    }
    "nothing was written; fix the judge (log in, check judge.model, raise judge.timeout_secs) and run plan complete again, or pick another with --judge"
}

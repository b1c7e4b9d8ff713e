//! The sign-off record on disk: transcripts under `.plan/judge/`, written once and
//! never overwritten, what they hold, and the facts about them (exists, hash,
//! header) that the pure proof check takes.

use crate::atomic::{Failure, Replace};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use anyhow::Result;

use crate::clock::Now;
use crate::exit::Exit;
use crate::judge::backend::Backend;
use crate::judge::prompt::fence;
use crate::judge::run::{Answer, Judge};
use crate::judge::verdict::Verdict;
use crate::plan::bind;
use crate::plan::model::{Goal, blob_id};
use crate::plan::proof::{self, Facts, Header};
use crate::plan::weakened::Finding;

/// How many hex digits of the transcript's blob id a sign-off line carries.
pub const HASH_DIGITS: usize = 12;

/// What is at `rel` under `root`: only a regular file (no symlink) at a path plan
/// would have written counts.
pub fn facts(root: &Path, rel: &str) -> Facts {
    if !proof::is_record_path(rel) {
        return Facts::Missing;
    }
    let path = root.join(rel);
    let regular = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
    let read = || crate::fsread::bytes(&path, crate::fsread::RECORD).ok();
    let Some(bytes) = regular.then(read).flatten() else {
        return Facts::Missing;
    };
    let text = String::from_utf8_lossy(&bytes);
    Facts::Present {
        hash: blob_id(&bytes),
        header: Header::parse(&text).map(|header| Header {
            answers: Some(answers(&text)),
            ..header
        }),
    }
}

/// Each judge section's judge, named as a header names it, and how plan's own
/// verdict parser reads the answer recorded there: a header edited from reject to
/// accept still holds the judge's reject below it. An unknown backend or a section
/// without an answer reads as `no verdict`.
fn answers(text: &str) -> Vec<(String, String)> {
    crate::plan::record_body::judge_answers(text)
        .into_iter()
        .map(|j| {
            let name = match &j.model {
                Some(model) => format!("{}:{}", j.backend, one_word(model)),
                None => j.backend.clone(),
            };
            let verdict = match (j.backend.parse::<Backend>(), &j.answer) {
                (Ok(backend), Some(answer)) => {
                    crate::judge::verdict::parse(backend, answer, Some(answer)).label()
                }
                _ => "no verdict",
            };
            (name, verdict.replace(' ', "-"))
        })
        .collect()
}

/// The text of the transcript at `rel` under `root`, under the same terms as
/// [`facts`]: a regular file at a path plan would have written.
pub fn text(root: &Path, rel: &str) -> Option<String> {
    if !proof::is_record_path(rel) {
        return None;
    }
    let path = root.join(rel);
    let regular = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
    regular
        .then(|| crate::fsread::bytes(&path, crate::fsread::RECORD).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
}

/// Every checkpoint ref the repository at `root` has, for [`bind::apply`]; `None`
/// when they cannot be listed (then nothing is said of checkpoints).
pub fn checkpoints(root: &Path) -> Option<Vec<bind::Checkpoint>> {
    let saved = crate::git::checkpoints_with_subjects(root).ok()?;
    Some(
        saved
            .into_iter()
            .filter_map(|(s, subject, tree)| {
                bind::Checkpoint::from_ref(&s.reference, &s.commit)
                    .map(|c| c.with_subject(subject).with_tree(tree))
            })
            .collect(),
    )
}

/// `refs` with the checkpoints of `plan`'s sign-off lines whose ref moved away (a
/// forced fetch put another clone's commit of the same goal and minute there),
/// each at the commit its line names, if this clone still has that commit: the
/// line's own checkpoint is the one that proves it (src/plan/bind.rs, `moved`).
pub fn with_moved(
    root: &Path,
    plan: &crate::plan::model::Plan<'_>,
    mut refs: Vec<bind::Checkpoint>,
) -> Vec<bind::Checkpoint> {
    let moved: Vec<bind::Checkpoint> = bind::moved_refs(plan, &refs)
        .into_iter()
        .filter_map(|(kept, short)| {
            let (commit, subject, tree) = crate::git::commit_info(root, &short).ok()??;
            Some(kept.moved_to(commit, subject, tree))
        })
        .collect();
    refs.extend(moved);
    refs
}

/// The command that brings the remotes' checkpoints into the clone at `root`:
/// `git fetch` once `plan install git` added its refspec to a remote, `plan
/// checkpoints --fetch` otherwise; `None` when the clone has no remote.
pub fn checkpoint_fetch(root: &Path) -> Option<String> {
    let remotes = crate::git::remotes(root).ok()?;
    let first = remotes.first()?;
    let by_git = remotes.iter().find(|r| {
        crate::git::has_fetch_refspec(root, r, &crate::git::checkpoint_refspec(r)).unwrap_or(false)
    });
    Some(match by_git {
        Some(remote) => format!("git fetch {remote}"),
        None if first == "origin" => "plan checkpoints --fetch".to_string(),
        None => format!("plan checkpoints --fetch {first}"),
    })
}

/// A saved transcript: its repository-relative path and the hash a sign-off
/// line carries.
pub struct Saved {
    pub path: String,
    pub hash: String,
}

/// Writes `text` as a new transcript named after `base` (`base.md`, `base-2.md`, …)
/// under `root/.plan/judge/`, never replacing one.
pub fn save(root: &Path, base: &str, text: &str) -> Result<Saved> {
    let dir = root.join(proof::JUDGE_DIR);
    crate::atomic::make_dirs(&dir)
        .map_err(|e| Exit::env(format!("cannot create {}: {e}", dir.display())))?;
    let mut name = format!("{base}.md");
    let mut n = 2;
    // Whole or not at all (a temp file renamed in, never over a file): a full disk
    // leaves no empty transcript behind.
    while !crate::atomic::create_new(&dir.join(&name), text.as_bytes(), &Replace::DURABLE).map_err(
        |e| {
            let why = match e {
                Failure::ReadOnly => "read-only".to_string(),
                Failure::Dir(_, e) | Failure::Io(e) => e.to_string(),
            };
            Exit::env(format!("cannot write {}: {why}", dir.join(&name).display()))
        },
    )? {
        name = format!("{base}-{n}.md");
        n += 1;
    }
    keep_bytes(&dir);
    Ok(Saved {
        path: format!("{}{name}", proof::JUDGE_DIR),
        hash: blob_id(text.as_bytes())[..HASH_DIGITS].to_string(),
    })
}

/// What `.plan/judge/.gitattributes` says: a transcript is proven by the blob id of
/// its bytes on disk, so git must check it out as it was committed, whatever the
/// repository or a clone asks for (`core.autocrlf`, `eol=crlf`, `text=auto`, a filter,
/// `ident`, another encoding).
const ATTRIBUTES: &str = "# plan: transcripts are checked by the git blob id of their bytes; keep them as written\n* -text -filter -ident -working-tree-encoding\n";

/// Writes `.gitattributes` in the transcripts' directory unless one is there. Best
/// effort: without it a sign-off is as good, only a converting clone misreads it.
/// Whole or not at all, as the transcript: never an empty one.
fn keep_bytes(dir: &Path) {
    let _ = crate::atomic::create_new(
        &dir.join(".gitattributes"),
        ATTRIBUTES.as_bytes(),
        &Replace::DURABLE,
    );
}

/// Removes a transcript whose sign-off was not written after all.
pub fn discard(root: &Path, saved: &Saved) {
    let _ = crate::atomic::remove(root.join(&saved.path));
}

/// What stage 1 ran and what came of it.
pub struct VerifyRun {
    pub command: String,
    /// Each command's program and the path it resolved to on PATH.
    pub programs: Vec<String>,
    pub exit: String,
    pub tail: String,
    /// The repository files the command names, with their git blob ids then.
    pub files: Vec<(String, String)>,
}

/// The files `verify` names inside the repository at `root`, each with the git blob
/// id of its bytes now; a file that cannot be read is left out.
pub fn verify_files(root: &Path, verify: &crate::verify::Verify) -> Vec<(String, String)> {
    crate::judge::files::verify_closure(root, verify)
        .into_iter()
        .filter_map(|rel| {
            let bytes = fs::read(root.join(&rel)).ok()?;
            Some((rel, blob_id(&bytes)))
        })
        .collect()
}

/// What stage 2 ran and what came of it.
pub struct JudgeRun<'t> {
    pub judge: &'t Judge,
    /// The program's path, every symlink resolved.
    pub program: String,
    /// The SHA-256 of the program's bytes when it ran; `None`: unreadable.
    pub program_sha256: Option<String>,
    pub overrides: Vec<String>,
    pub prompt: &'t str,
    pub answer: &'t Answer,
    pub changed: &'t [String],
    /// The commit whose tree the judge read (the checkpoint, checked out apart).
    pub tree: &'t str,
}

/// Everything a later reader needs to check a sign-off, written as the transcript
/// under `.plan/judge/`. Its header is what the proof check reads.
pub struct Transcript<'t> {
    pub goal: &'t Goal<'t>,
    pub history: &'t str,
    pub evidence: &'t str,
    pub paths: &'t [String],
    pub allow_ignored: bool,
    pub verify: Option<VerifyRun>,
    pub judge: Option<JudgeRun<'t>>,
    /// A judge panel's runs, in the configured order; when not empty, `judge` is
    /// `None` and each judge has its own section.
    pub panel: Vec<JudgeRun<'t>>,
    /// What the weakened-tests check found since the goal started; `None` when it
    /// was not run.
    pub weakened: Option<&'t [Finding]>,
    /// `verify-green-at-start`, worded, when the verify passed at the goal's start
    /// and nothing it rests on changed since.
    pub green_at_start: Option<&'t str>,
}

impl Transcript<'_> {
    /// The transcript's text, its header first.
    pub fn render(&self, now: &Now, verdict: &str) -> String {
        let judge = match &self.judge {
            None if !self.panel.is_empty() => self
                .panel
                .iter()
                .map(|j| judge_name(j.judge))
                .collect::<Vec<_>>()
                .join(crate::plan::event::PANEL_JOIN),
            None => "none".to_string(),
            Some(j) => judge_name(j.judge),
        };
        let mut overrides = self
            .judge
            .as_ref()
            .map(|j| j.overrides.clone())
            .unwrap_or_default();
        if let Some(first) = self.panel.first() {
            overrides.clone_from(&first.overrides);
        }
        let header = Header {
            goal: self.goal.id.to_string(),
            contract: self.goal.contract_id(),
            verdict: verdict.to_string(),
            judge,
            overrides,
            verify_files: self
                .verify
                .as_ref()
                .map(|v| v.files.clone())
                .unwrap_or_default(),
            weakened_tests: self.weakened.map(<[Finding]>::to_vec),
            panel: self
                .panel
                .iter()
                .map(|j| {
                    let verdict = j.answer.verdict.label().replace(' ', "-");
                    (judge_name(j.judge), verdict)
                })
                .collect(),
            when: now.stamp(),
            // The body's, read back from the text below: not header lines.
            judged: None,
            tree: None,
            answers: None,
        };
        let mut text = header.render();
        let _ = writeln!(
            text,
            "- allow-ignored: {}",
            if self.allow_ignored { "yes" } else { "no" }
        );
        let _ = write!(
            text,
            "\n## Contract as judged\n\n## Goal: {}\n{}",
            self.goal.title,
            self.goal.contract()
        );
        let _ = write!(
            text,
            "\n## Contract history\n\n{}\n",
            self.history.trim_end()
        );
        let _ = write!(text, "\n## Subtasks\n\n");
        if self.goal.subtasks.is_empty() {
            text.push_str("(none)\n");
        }
        for task in &self.goal.subtasks {
            let _ = writeln!(
                text,
                "- [{}] {}",
                if task.done { "x" } else { " " },
                task.text
            );
        }
        text.push_str("\n## Verify\n\n");
        match &self.verify {
            None => text.push_str("(no verify command)\n"),
            Some(v) => {
                let _ = writeln!(text, "- command: {}", v.command);
                let _ = writeln!(text, "- programs: {}", v.programs.join(", "));
                let _ = writeln!(text, "- exit: {}", v.exit);
                if let Some(green) = self.green_at_start {
                    let _ = writeln!(text, "- verify-green-at-start: {green}");
                }
                let _ = writeln!(text, "\n{}", fence(&v.tail));
            }
        }
        text.push_str("\n## Evidence\n\n");
        let _ = writeln!(text, "{}", fence(self.evidence));
        let _ = writeln!(text, "\npaths: {}", listed(self.paths, "(none)"));
        if !self.panel.is_empty() {
            let n = self.panel.len();
            let names: Vec<String> = self.panel.iter().map(|j| judge_name(j.judge)).collect();
            let _ = write!(
                text,
                "\n## Judge panel\n\n- judges: {}\n- every judge must accept; they ran at the same time in this working tree, so a file changed while they ran is charged to the panel\n",
                names.join(crate::plan::event::PANEL_JOIN)
            );
            for (i, (j, name)) in self.panel.iter().zip(&names).enumerate() {
                let _ = write!(text, "\n## Judge {} of {n}: {name}\n\n", i + 1);
                judge_section(&mut text, j);
            }
            return text;
        }
        text.push_str("\n## Judge\n\n");
        let Some(j) = &self.judge else {
            text.push_str("(no judge: --judge none)\n");
            return text;
        };
        judge_section(&mut text, j);
        text
    }
}

/// How the header and a sign-off line name a judge: `backend` or `backend:model`.
pub fn judge_name(judge: &Judge) -> String {
    match &judge.model {
        Some(model) => format!("{}:{}", judge.backend, one_word(model)),
        None => judge.backend.to_string(),
    }
}

/// One judge's run: what ran, what it was asked, what it said.
fn judge_section(text: &mut String, j: &JudgeRun<'_>) {
    let _ = writeln!(text, "- backend: {}", j.judge.backend);
    let _ = writeln!(text, "- program: {}", j.program);
    let _ = writeln!(
        text,
        "- program sha256: {}",
        j.program_sha256.as_deref().unwrap_or("(unreadable)")
    );
    let _ = writeln!(
        text,
        "- model: {}",
        j.judge
            .model
            .as_deref()
            .unwrap_or("(the backend's default)")
    );
    let _ = writeln!(text, "- argv: {}", j.answer.argv.join(" "));
    let _ = writeln!(
        text,
        "- prompt overrides: {}",
        listed(
            &j.overrides
                .iter()
                .map(|o| format!(".plan/prompts/{o}"))
                .collect::<Vec<_>>(),
            "none"
        )
    );
    // Named apart from the header's `- verdict:`, which is the outcome.
    let _ = writeln!(text, "- answer read as: {}", j.answer.verdict.label());
    match &j.answer.verdict {
        Verdict::NoVerdict { reason } => {
            let _ = writeln!(text, "- why no verdict: {reason}");
        }
        // Only a panel keeps the record of a judge that could not judge.
        Verdict::CouldNotJudge { reason } => {
            let _ = writeln!(text, "- why it could not judge: {reason}");
        }
        _ => {}
    }
    let _ = writeln!(
        text,
        "- tree judged: {} (the working tree when verify passed, checked out apart)",
        j.tree
    );
    let _ = writeln!(
        text,
        "- files the judge changed: {}",
        listed(j.changed, "none")
    );
    let _ = write!(
        text,
        "\n### Prompt\n\n{}\n\n### The judge's answer\n\n",
        fence(j.prompt)
    );
    let answer = j.answer.last_message.as_deref().unwrap_or(&j.answer.stdout);
    let _ = writeln!(text, "{}", fence(answer));
    if !j.answer.stderr.trim().is_empty() {
        let _ = write!(text, "\n### Stderr\n\n{}\n", fence(&j.answer.stderr));
    }
}

/// A model name as one word, so it cannot break the sign-off line's shape.
pub fn one_word(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_whitespace() || matches!(c, ',' | ')' | '(' | '#') {
                '_'
            } else {
                c
            }
        })
        .collect()
}

/// `items` joined with commas, or `none` when there are none.
fn listed(items: &[String], none: &str) -> String {
    if items.is_empty() {
        none.to_string()
    } else {
        items.join(", ")
    }
}

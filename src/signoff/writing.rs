//! A sign-off's result written: the record (an accept's proof, a reject's
//! transcript), the checkpoint, the status and log lines in plan.md, written only
//! if the plan is still the one checked, and the claim released.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::Result;

use super::{Decision, SignOff};
use crate::checkpoint;
use crate::clock::{self, Now};
use crate::config;
use crate::ctx::Ctx;
use crate::git;
use crate::plan::event::{self, Event, Judged};
use crate::plan::model::{Goal, Plan, Status};
use crate::plan::ops;
use crate::plan::patch::Edit;
use crate::plan::proof::{self, Facts};
use crate::plan::text::cut;
use crate::record;

/// The verify and the judge run with plan.md left out of their change checks, so
/// either could weaken another goal's contract, hide a goal or finish one by hand
/// while this one is checked. A sign-off stands only on the plan it started from.
/// `facts` answers for a transcript path: a sign-off line logged meanwhile for
/// another goal must name a record that backs it. Another agent's honest sign-off
/// does; a judge that writes the real plan.md by its path, setting a goal done and
/// logging a line for it, does not.
fn others_unchanged(
    before: &Plan<'_>,
    fresh: &Plan<'_>,
    signed: &str,
    facts: &dyn Fn(&str) -> Facts,
) -> Result<(), String> {
    // A goal added meanwhile (by hand, by an import's approval) that comes in
    // finished must stand on its own record: a judge could add one done, with a
    // sign-off line it made up.
    for goal in fresh.goals.iter().filter(|g| before.goal(&g.id).is_none()) {
        let id = &goal.id;
        for (_, event) in fresh.events(id) {
            if let Err(why) = proof::backs(&event, facts) {
                return Err(format!(
                    "a sign-off of {id}, added while plan complete ran, does not stand on its record: {why}"
                ));
            }
        }
        if let proof::Proof::Unproven { why, .. } = proof::check(fresh, goal, facts) {
            return Err(format!(
                "goal {id} was added while plan complete ran, finished and unproven: {why}"
            ));
        }
    }
    for goal in before.goals.iter().filter(|g| g.id != signed) {
        let id = &goal.id;
        let Some(now) = fresh.goal(id) else {
            return Err(format!("goal {id} disappeared while plan complete ran"));
        };
        // Its lines are kept as they were, in order; the new ones among them (after
        // them, or between them where a pull merged a teammate's lines in by time)
        // are looked at below. A line taken out (a reopen) is refused here.
        let Some(new) = added_lines(before, fresh, id) else {
            return Err(format!(
                "the log lines of {id} were changed or taken out while plan complete ran"
            ));
        };
        // Another agent's `plan edit` logs the contract it leaves (reapproved, a
        // criterion added); a contract changed with no such line is the verify's or
        // the judge's doing.
        let fingerprint = now.fingerprint();
        let logged_contract = new.iter().any(|event| {
            matches!(
                event,
                Event::Reapproved { .. } | Event::CriterionAdded { .. }
            ) && event.contract() == Some(fingerprint.as_str())
        });
        if fingerprint != goal.fingerprint() && !logged_contract {
            return Err(format!(
                "the contract of {id} changed while plan complete ran (contract {}, now {fingerprint})",
                goal.fingerprint(),
            ));
        }
        for event in &new {
            if let Err(why) = proof::backs(event, facts) {
                return Err(format!(
                    "a sign-off of {id} was logged while plan complete ran, and its record does not back it: {why}"
                ));
            }
        }
        // Another agent's plan start, sign-off or cancel logs a line for the goal;
        // a status changed by hand does not.
        if now.status() != goal.status() && new.is_empty() {
            return Err(format!(
                "goal {id} went from {} to {} while plan complete ran",
                goal.status().as_str(),
                now.status().as_str()
            ));
        }
        // Only a sign-off finishes a goal of the plan meanwhile: an "imported as
        // done" line is for a goal an import brings, not one the plan had.
        if now.status() == Status::Done && goal.status() != Status::Done {
            match proof::check(fresh, now, facts) {
                proof::Proof::Proven { .. } => {}
                proof::Proof::Unproven { why, .. } => {
                    return Err(format!(
                        "goal {id} became done while plan complete ran, unproven: {why}"
                    ));
                }
                _ => {
                    return Err(format!(
                        "goal {id} became done while plan complete ran with no sign-off"
                    ));
                }
            }
        }
    }
    Ok(())
}

/// The events of goal `id` in `fresh` that `before` did not have, when every one
/// `before` had is still there, in its order; `None` when one was changed or taken
/// out.
fn added_lines<'a>(before: &Plan<'_>, fresh: &Plan<'a>, id: &str) -> Option<Vec<Event<'a>>> {
    let mut was = before.events(id).map(|(e, _)| e.to_string()).peekable();
    let mut new = Vec::new();
    for (entry, event) in fresh.events(id) {
        if was.peek() == Some(&entry.to_string()) {
            was.next();
        } else {
            new.push(event);
        }
    }
    was.peek().is_none().then_some(new)
}

/// How a write of the result ended, short of an error.
enum Written {
    Done,
    /// A newer line landed between the stamp and the write: nothing was written.
    Raced(anyhow::Error),
}

impl Written {
    fn done(self) -> Result<()> {
        match self {
            Written::Done => Ok(()),
            Written::Raced(e) => Err(e),
        }
    }
}

/// Everything needed to write the result once the stages are done.
pub(super) struct Outcome<'p, 'a> {
    pub ctx: &'p Ctx,
    pub plan: &'p Plan<'a>,
    pub goal: &'p Goal<'a>,
    pub src: &'p str,
    /// A started event exists; if not, this run starts the goal.
    pub started: bool,
    pub fingerprint: &'p str,
    /// The working tree the judge read, as a commit: the checkpoint to keep.
    pub checkpoint: Option<String>,
}

/// What the request says about the writing, kept apart from the plan's own facts
/// above: whether anything is written, and whose claim an accept releases.
#[derive(Clone, Copy, Debug)]
pub(super) struct Asked<'r> {
    pub dry_run: bool,
    /// Who signs off: only their own claim is released.
    pub me: Option<&'r str>,
}

impl Outcome<'_, '_> {
    /// Writes an accept: the record, the checkpoint, the goal done and its
    /// sign-off line; then releases the signer's claim and stages the record.
    pub(super) fn accept(
        &self,
        verified: bool,
        judged: Judged<'_>,
        record: &record::Transcript<'_>,
        asked: Asked<'_>,
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
        let mut signed = self.signed(Decision::Accept, Vec::new(), Vec::new(), asked);
        signed.how = how;
        if asked.dry_run {
            return Ok(signed);
        }
        let root = &self.ctx.repo()?.root;
        // A line stamped a minute later may land between the stamp and the write:
        // then the record is kept again with the new stamp, a few times at most.
        let mut tries = 0;
        let writing = crate::exec::writing(
            format!("the sign-off of goal {id} (verify and judge passed)"),
            crate::exit::OK,
        );
        let saved = loop {
            let now = self.stamp()?;
            let saved = record::save(
                root,
                &format!("{id}-{}", now.compact()),
                &record.render(&now, "accept"),
            )?;
            let checkpoint = checkpoint::record(root, id, &now, self.checkpoint.as_deref());
            let mut edits = ops::set_status(self.plan, self.goal, Status::Done);
            self.start_line(&mut edits, &now)?;
            edits.push(ops::event(
                &now.stamp(),
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
            let written = self.write(edits, Some(&now));
            if matches!(written, Ok(Written::Done)) {
                break saved;
            }
            record::discard(root, &saved);
            if let Some(checkpoint) = &checkpoint {
                let _ = git::delete_ref(root, &checkpoint.reference);
            }
            match written {
                Ok(Written::Raced(_)) if tries < 3 => tries += 1,
                Ok(Written::Raced(e)) | Err(e) => return Err(e),
                Ok(Written::Done) => unreachable!("broke out above"),
            }
        };
        writing.done();
        crate::claims::release_finished(self.ctx, id, asked.me);
        signed.ignored = is_ignored(root, &saved.path);
        let staging = config::load(Some(root)).map_or(true, |c| c.sign_off_stage);
        signed.staged = !signed.ignored && staging && stage(root, &saved.path);
        signed.record = Some(format!("{}#{}", saved.path, saved.hash));
        Ok(signed)
    }

    /// The result before any record is kept.
    fn signed(
        &self,
        verdict: Decision,
        stages: Vec<String>,
        missing: Vec<String>,
        asked: Asked<'_>,
    ) -> SignOff {
        SignOff {
            goal: self.goal.id.to_string(),
            verdict,
            stages,
            missing,
            record: None,
            transcript: None,
            dry_run: asked.dry_run,
            how: String::new(),
            ignored: false,
            staged: false,
            panel: false,
        }
    }

    /// Writes a reject: one rejection line for each `(stage, missing)`, each naming
    /// the one record when there is one (a verify that failed asked no judge), so
    /// every judge of a panel has its reasons in the log under its own name.
    pub(super) fn reject(
        &self,
        rejections: &[(String, Vec<String>)],
        record: Option<&record::Transcript<'_>>,
        panel: bool,
        asked: Asked<'_>,
    ) -> Result<SignOff> {
        let id = &self.goal.id;
        // One `missing:` list, each item under its stage's name when there are
        // several.
        let stages = rejections.iter().map(|(stage, _)| stage.clone()).collect();
        let list: Vec<String> = rejections
            .iter()
            .flat_map(|(stage, missing)| {
                let who = stage.strip_prefix("judge ").unwrap_or(stage);
                missing.iter().map(move |m| match rejections.len() {
                    1 => m.to_string(),
                    _ => format!("{who}: {m}"),
                })
            })
            .collect();
        let mut signed = self.signed(Decision::Reject, stages, list, asked);
        signed.panel = panel;
        if asked.dry_run {
            return Ok(signed);
        }
        let root = &self.ctx.repo()?.root;
        let writing = crate::exec::writing(
            format!("the rejection of goal {id}"),
            crate::exit::CHECK_FAILED,
        );
        let now = self.stamp()?;
        let saved = record
            .map(|r| {
                record::save(
                    root,
                    &format!("{id}-{}", now.compact()),
                    &r.render(&now, "reject"),
                )
            })
            .transpose()?;
        let mut edits = if self.started || self.goal.status() == Status::Done {
            ops::id_comment(self.plan, self.goal)
        } else {
            ops::set_status(self.plan, self.goal, Status::Active)
        };
        self.start_line(&mut edits, &now)?;
        for (stage, missing) in rejections {
            let mut missing = cut(&missing.join("; "), 300);
            if let Some(saved) = &saved {
                let _ = write!(missing, " ({})", saved.path);
            }
            edits.push(ops::event(
                &now.stamp(),
                &Event::Rejected {
                    id,
                    stage,
                    missing: &missing,
                },
            ));
        }
        if let Err(e) = self.write(edits, None).and_then(Written::done) {
            if let Some(saved) = &saved {
                record::discard(root, saved);
            }
            return Err(e);
        }
        writing.done();
        signed.transcript = saved.map(|saved| saved.path);
        Ok(signed)
    }

    /// The stamp the result is written with, and its record's `- when:`: taken once
    /// the stages are done, never before the log's newest line (the log's stamps
    /// only go forward). Taken as the sign-off started, a line another agent logged
    /// while the judge ran (minutes) raised the written line's stamp past its
    /// record's, and every reader then found the sign-off unproven.
    fn stamp(&self) -> Result<Now> {
        let text = self.ctx.store.read()?;
        let log = crate::plan::model::parse(&text).log;
        let floor = self.ctx.store.stamp_floor(&log);
        Ok(clock::now()?.not_before(floor.as_deref()))
    }

    /// Writes the result only if the goal is still the one checked: the same
    /// contract (a failure mode or a verify line added meanwhile changes the
    /// fingerprint), the same dependencies, not finished by someone else; and, for
    /// an accept, only with the stamp `exact`, which its record holds.
    fn write(&self, edits: Vec<Edit>, exact: Option<&Now>) -> Result<Written> {
        let id = &self.goal.id;
        let was_done = self.goal.status() == Status::Done;
        let root = &self.ctx.repo()?.root;
        let facts = |rel: &str| record::facts(root, rel);
        let stamp = exact.map(Now::stamp);
        let raced = std::cell::Cell::new(false);
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
            others_unchanged(self.plan, fresh, id, &facts)?;
            if let Some(stamp) = &stamp
                && let Some(floor) = self.ctx.store.stamp_floor(&fresh.log)
                && floor > *stamp
            {
                raced.set(true);
                return Err(format!(
                    "a line stamped {floor} was logged as {id}'s result was written, after its stamp {stamp}"
                ));
            }
            Ok(())
        });
        match result {
            Ok(_) => Ok(Written::Done),
            Err(e) if raced.get() => Ok(Written::Raced(e.into())),
            Err(e) => Err(e.into()),
        }
    }

    /// A goal signed off without `plan start` is started here, visibly.
    fn start_line(&self, edits: &mut Vec<Edit>, now: &Now) -> Result<()> {
        if !self.started {
            let commit = self.ctx.head_commit()?;
            edits.push(ops::event(
                &now.stamp(),
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

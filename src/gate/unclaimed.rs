//! Whose work a pull request changes when the lines it touches were written
//! outside every goal's work: the goals judged again for them. A goal's work is
//! measured from its start to its sign-off; code landed on the base before a goal
//! started (a pull request that signs nothing off) is no goal's work, so a later
//! pull request gutting it would be verified again only, never judged. Here each
//! line the pull request changes is charged, through git's blame, to the commit
//! that wrote it, and that commit to where it landed on the base's own line: to
//! the goals done on the base that were in flight there (started, or signed off by
//! that very commit), or else to the first such goals started after it and the
//! last done before it. Only goals whose verify rests on the file count; work
//! landed before the plan file existed, and prose no goal's work wrote, are the
//! person's own, charged to none.
//!
//! A goal's state at a commit is read from plan's own lines about it that the
//! base still has (started, reopened, signed off, cancelled, imported), never
//! from its `status:` line: a rebase-merged pull request's own commit that marked
//! an old done goal active, then landed code, then put the file back, made that
//! goal the code's owner (a decoy), though no reopen of it was ever recorded.
//! And a line the base has counts from the oldest commit of its line that had it,
//! not only where a commit still has it: the log is append-only, so a commit that
//! took a done goal's `signed off` line out and a later one that put it back (all
//! kept under "Rebase and merge") left that goal done in between, never in flight.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;

use anyhow::Result;

use crate::ctx::Ctx;
use crate::git::blame::{self, Writers};
use crate::plan::event::Event;
use crate::plan::grown;
use crate::plan::model::{Status, parse};

/// The most commits of the base's first-parent line read back from its tip.
pub const LINE_LIMIT: usize = 10_000;

/// Past [`LINE_LIMIT`], the most commits read further back for whether the plan
/// file existed there at all (a walk of trees, no plan read).
const PERSON_LIMIT: usize = 200_000;

/// The goals to judge again for the lines they own, and what was not read (said,
/// never silent).
#[derive(Debug, Default)]
pub struct Owners {
    pub ids: Vec<String>,
    pub notes: Vec<String>,
}

/// Of `touched` (each goal done on `base` with the files the pull request changes
/// that its verify rests on), the goals that own the changed lines' writers.
pub fn owners(ctx: &Ctx, base: &str, touched: &[(String, Vec<String>)]) -> Result<Owners> {
    let mut out = Owners::default();
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(out);
    };
    let root = &repo.root;
    let mut files: Vec<&str> = touched
        .iter()
        .flat_map(|(_, files)| files.iter().map(String::as_str))
        .collect();
    files.sort_unstable();
    files.dedup();
    // Each writer with the files it wrote changed lines of, in first-seen order.
    let mut writers: Vec<(String, Vec<&str>)> = Vec::new();
    for file in files {
        match blame::writers_of_changed_lines(root, base, file)? {
            // Not read is judged: padded past the bound, a gutted file would
            // otherwise be charged to no goal (the red team's).
            Writers::TooLarge => {
                out.notes.push(format!(
                    "{file}: over {} KiB, so who wrote its changed lines was not read; every goal whose verify rests on it is judged again",
                    blame::MAX_BLAMED / 1024
                ));
                for (id, rests) in touched {
                    if rests.iter().any(|r| r == file) && !out.ids.contains(id) {
                        out.ids.push(id.clone());
                    }
                }
            }
            Writers::Commits(commits) => {
                for commit in commits {
                    match writers.iter_mut().find(|(c, _)| *c == commit) {
                        Some((_, files)) => files.push(file),
                        None => writers.push((commit, vec![file])),
                    }
                }
            }
        }
    }
    if writers.is_empty() {
        return Ok(out);
    }
    let (line, more) = blame::first_parents(root, base, LINE_LIMIT)?;
    let ids: Vec<&str> = touched.iter().map(|(id, _)| id.as_str()).collect();
    let kept = match line.first() {
        Some(tip) => kept_steps(root, tip, &rel, &ids)?,
        None => HashMap::new(),
    };
    let mut states = States {
        root,
        rel: &rel,
        line: &line,
        ids: &ids,
        kept: &kept,
        walked: None,
        by_index: HashMap::new(),
        table: None,
        oldest_plan: None,
        plan_past_the_line: None,
    };
    let landings = blame::Landings::of(root, &line)?;
    for (writer, files) in &writers {
        let resting: Vec<&str> = touched
            .iter()
            .filter(|(_, rests)| rests.iter().any(|r| files.contains(&r.as_str())))
            .map(|(id, _)| id.as_str())
            .collect();
        let Some(k) = landings.of_commit(writer)? else {
            if more
                && let Some(ids) =
                    past_the_line(&mut states, &code_goals(touched, &resting, files))?
            {
                let judged = if ids.is_empty() {
                    "no goal whose verify rests on it was started by then or since".to_string()
                } else {
                    format!("judged again for it: {}", ids.join(", "))
                };
                out.notes.push(format!(
                    "{}: written by {} more than {LINE_LIMIT} commits back on the base's line, where it landed was not read; {judged}",
                    files.join(", "),
                    short(writer)
                ));
                for id in ids {
                    if !out.ids.iter().any(|o| o == id) {
                        out.ids.push(id.to_string());
                    }
                }
            }
            continue;
        };
        // In flight where it landed; else the first goals started after it and
        // the last done before it: blame names a line's last writer only, and a
        // harmless rewrite (a trailing comment, judged through its goal and passed)
        // landed after every goal would leave the lines no goal's, for the next
        // pull request to gut with no judge asked (the red team's).
        let mut found = match in_flight(&mut states, k, &resting)? {
            Flight::Person => continue,
            Flight::Goals(goals) => goals,
        };
        if found.is_empty() {
            // Prose no goal's work wrote (a README's typo) is no goal's either.
            let code = code_goals(touched, &resting, files);
            found = first_started(&mut states, k, &code)?;
            for id in last_done(&mut states, k, &code)? {
                if !found.contains(&id) {
                    found.push(id);
                }
            }
        }
        for id in found {
            if !out.ids.iter().any(|o| o == id) {
                out.ids.push(id.to_string());
            }
        }
    }
    Ok(out)
}

/// The goals of `resting` whose verify rests on a file of `files` that is not prose.
fn code_goals<'i>(
    touched: &[(String, Vec<String>)],
    resting: &[&'i str],
    files: &[&str],
) -> Vec<&'i str> {
    resting
        .iter()
        .copied()
        .filter(|id| {
            touched.iter().any(|(t, rests)| {
                t == id
                    && rests
                        .iter()
                        .any(|r| files.contains(&r.as_str()) && !prose(r))
            })
        })
        .collect()
}

/// The owners of a writer landed before the oldest commit read of the line (more
/// than [`LINE_LIMIT`] back), where it landed not known; `None` for the person's. A pull request can
/// lengthen the line (ten thousand empty commits, rebase-merged) to put code out of
/// reach, so this is not a warning alone: the person's, charged to none, when no
/// commit of the line from the oldest read back had the plan file (it did not exist
/// before the code either); else every goal of `code` (those whose verify rests on
/// the file, prose aside) started or done by the oldest commit read (it may have
/// been in flight then, or the last done before), and the first started after
/// it. More than were in flight, maybe; never fewer. The gate's cap on goals
/// judged again bounds the cost.
fn past_the_line<'i>(states: &mut States<'_>, code: &[&'i str]) -> Result<Option<Vec<&'i str>>> {
    let Some(last) = states.line.len().checked_sub(1) else {
        return Ok(None);
    };
    let before = match states.plan_past_the_line {
        Some(known) => known,
        None => {
            let found =
                blame::on_line_before(states.root, &states.line[last], states.rel, PERSON_LIMIT)?;
            states.plan_past_the_line = Some(found);
            found
        }
    };
    if before == Some(false) {
        return Ok(None);
    }
    let then = states.at(last)?.unwrap_or_default();
    let mut found: Vec<&str> = code
        .iter()
        .copied()
        .filter(|id| then.get(*id).is_some_and(|s| *s != Status::Open))
        .collect();
    for id in first_started(states, last, code)? {
        if !found.contains(&id) {
            found.push(id);
        }
    }
    Ok(Some(found))
}

/// Whether `path` is prose, which a program reads as data if at all.
fn prose(path: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    [".md", ".markdown", ".rst", ".txt", ".adoc"]
        .iter()
        .any(|ext| lower.ends_with(ext))
}

/// The goals of `resting` done last before `line[k]`: the nearest older commit of
/// the line where any of them became done (none past a commit without the plan
/// file).
fn last_done<'i>(states: &mut States<'_>, k: usize, resting: &[&'i str]) -> Result<Vec<&'i str>> {
    let ids = states.ids;
    let table = states.table()?;
    let from = table.done_or_gone.partition_point(|j| *j <= k);
    for &j in &table.done_or_gone[from..] {
        if table.gone[j] {
            return Ok(Vec::new());
        }
        let became: Vec<&str> = resting
            .iter()
            .copied()
            .filter(|id| {
                ids.iter().position(|i| i == id).is_some_and(|n| {
                    table.status[n][j] == Some(Status::Done)
                        && table.status[n][j + 1] != Some(Status::Done)
                })
            })
            .collect();
        if !became.is_empty() {
            return Ok(became);
        }
    }
    Ok(Vec::new())
}

/// Who owns work landed at `line[k]`: the person, when the plan file did not
/// exist before it (at no commit of the line older than `k`, not merely at the
/// one before it, which a rebase-merged pull request's own commit, `git rm
/// plan.md`, then the code, then the file back, can be); else the goals of
/// `resting` in flight there (none, maybe).
enum Flight<'i> {
    Person,
    Goals(Vec<&'i str>),
}

fn in_flight<'i>(states: &mut States<'_>, k: usize, resting: &[&'i str]) -> Result<Flight<'i>> {
    if k + 1 >= states.line.len() {
        return Ok(Flight::Person);
    }
    let before = match states.at(k + 1)? {
        Some(before) => before,
        // The file was gone there but there before: every goal done at `k`
        // counts as signed off by it, as none was done before.
        None if states.oldest_plan()?.is_some_and(|p| p > k) => Rc::default(),
        None => return Ok(Flight::Person),
    };
    let after = states.at(k)?.unwrap_or_default();
    let status = |map: &HashMap<String, Status>, id: &str| map.get(id).copied();
    Ok(Flight::Goals(
        resting
            .iter()
            .copied()
            .filter(|id| match status(&after, id) {
                Some(Status::Active) => true,
                Some(Status::Done) => status(&before, id) != Some(Status::Done),
                _ => false,
            })
            .collect(),
    ))
}

/// The goals of `resting` first started after `line[k]`: the first commit of the
/// line after it where any of them is active or done anew (another state than
/// at `k`).
fn first_started<'i>(
    states: &mut States<'_>,
    k: usize,
    resting: &[&'i str],
) -> Result<Vec<&'i str>> {
    let ids = states.ids;
    let table = states.table()?;
    // Per goal, the newest commit before `k` where it is so: its states change
    // at few commits, so each goal's is found from those, not the whole line.
    let found: Vec<Option<usize>> = resting
        .iter()
        .map(|id| {
            let n = ids.iter().position(|i| i == id)?;
            started_after(&table.status[n], &table.changes[n], k)
        })
        .collect();
    let Some(first) = found.iter().flatten().max().copied() else {
        return Ok(Vec::new());
    };
    Ok(resting
        .iter()
        .zip(&found)
        .filter(|(_, at)| **at == Some(first))
        .map(|(id, _)| *id)
        .collect())
}

/// Of one goal's states along the line (`status`, changing at `changes`), the
/// newest commit before `k` where it is active or done in another state than at
/// `k`.
fn started_after(status: &[Option<Status>], changes: &[usize], k: usize) -> Option<usize> {
    let then = status[k];
    let mut i = k.checked_sub(1)?;
    loop {
        if matches!(status[i], Some(Status::Active | Status::Done)) && status[i] != then {
            return Some(i);
        }
        // The next newer commit in another state: those between are in this one.
        let run = changes.partition_point(|c| *c < i);
        i = *changes[..run].last()?;
    }
}

/// Each goal of `ids`'s state at every commit of the line, as [`States::at`]
/// reads it (`None` where the goal or the plan file is not there), for the
/// questions asked per writer: walking the line for each of many writers on a
/// long line costs writers times commits.
struct Table {
    /// Per goal of `ids`, per commit of the line.
    status: Vec<Vec<Option<Status>>>,
    /// Per commit of the line, whether it has no plan file.
    gone: Vec<bool>,
    /// The commits (but the oldest) where a goal of `ids` became done (done
    /// there, not at the commit before), or without the plan file, newest first.
    done_or_gone: Vec<usize>,
    /// Per goal of `ids`, the commits `i` where its state differs from the one
    /// at `i + 1`, newest first.
    changes: Vec<Vec<usize>>,
}

/// The status of each goal of `ids` in the plan file at each commit of `line`,
/// read once per commit and parsed once per version of the file: each writer
/// walks the line back from where it landed, and many writers on a long line
/// read it again each (writers times commits, minutes on a large reformat).
struct States<'s> {
    root: &'s Path,
    rel: &'s PathBuf,
    line: &'s [String],
    ids: &'s [&'s str],
    /// Each goal's state-changing log lines in the base's own plan file
    /// ([`kept_steps`]).
    kept: &'s HashMap<String, Vec<(Key, Step)>>,
    /// The whole line read once ([`Walked`]), when first asked.
    walked: Option<Walked>,
    by_index: HashMap<usize, Option<Rc<HashMap<String, Status>>>>,
    /// Every commit's states at once ([`Table`]), when first asked.
    table: Option<Table>,
    /// The index of the oldest commit of the line with the plan file, once read.
    oldest_plan: Option<Option<usize>>,
    /// Whether a commit from the oldest read back had the plan file, once read
    /// ([`blame::on_line_before`]).
    plan_past_the_line: Option<Option<bool>>,
}

/// A log line: its stamp, its text, and how many of the goal's lines before it
/// have both the same: the second of two equal lines (a reopen typed twice in a
/// minute, its stamp the agent's to set) is written where a version first had
/// two, not where the first was.
type Key = (Option<String>, String, usize);

/// The keys of one goal's log lines (stamp and text), in order.
fn numbered<'a>(lines: impl Iterator<Item = (Option<&'a str>, &'a str)>) -> Vec<Key> {
    let mut seen: HashMap<(Option<&str>, &str), usize> = HashMap::new();
    lines
        .map(|(stamp, text)| {
            let n = seen.entry((stamp, text)).or_insert(0);
            *n += 1;
            (stamp.map(str::to_string), text.to_string(), *n - 1)
        })
        .collect()
}

/// What a log line does to its goal's state.
#[derive(Clone, Copy, Debug)]
enum Step {
    Start,
    Reopen,
    Done,
    Cancel,
}

/// The plan file along the whole line: which goals of `ids` each version has,
/// and where each kept log line was first written (the oldest commit of the line
/// whose plan file has it). Where a line is first written is known only from the
/// line's oldest end, so the whole of it is read, each version parsed once.
struct Walked {
    /// Per commit of the line, the index of its version in `goals`.
    version: Vec<Option<usize>>,
    /// Per version, the goals of `ids` it has.
    goals: Vec<Rc<Vec<String>>>,
    /// Per kept log line, the largest index of the line (the oldest commit) whose
    /// plan file has it.
    written: HashMap<Key, usize>,
}

impl States<'_> {
    /// `None` when the commit has no plan file.
    fn at(&mut self, i: usize) -> Result<Option<Rc<HashMap<String, Status>>>> {
        if let Some(known) = self.by_index.get(&i) {
            return Ok(known.clone());
        }
        let kept = self.kept;
        let walked = self.walked()?;
        let found = walked.version[i].map(|v| {
            Rc::new(
                walked.goals[v]
                    .iter()
                    .map(|id| {
                        let steps = kept.get(id).map_or(&[][..], Vec::as_slice);
                        (id.clone(), recorded(steps, &walked.written, i))
                    })
                    .collect(),
            )
        });
        self.by_index.insert(i, found.clone());
        Ok(found)
    }

    fn walked(&mut self) -> Result<&Walked> {
        if self.walked.is_none() {
            let mut wanted: Vec<&Key> = self.kept.values().flatten().map(|(k, _)| k).collect();
            wanted.sort_unstable();
            wanted.dedup();
            let index: HashMap<&Key, usize> =
                wanted.iter().enumerate().map(|(n, k)| (*k, n)).collect();
            let blobs = blame::blob_ids_on(self.root, self.line, self.rel)?;
            let reader = blame::Blobs::open(self.root)?;
            let mut by_blob: HashMap<&str, usize> = HashMap::new();
            let mut out = Walked {
                version: Vec::with_capacity(blobs.len()),
                goals: Vec::new(),
                written: HashMap::new(),
            };
            // Per version, the keys of `wanted` its log has.
            let mut lines: Vec<Vec<usize>> = Vec::new();
            let mut last: Option<Read> = None;
            let mut oldest: Vec<Option<usize>> = vec![None; wanted.len()];
            for (i, blob) in blobs.iter().enumerate() {
                let Some(blob) = blob else {
                    out.version.push(None);
                    continue;
                };
                let v = match by_blob.get(blob.as_str()) {
                    Some(v) => *v,
                    None => {
                        let text = reader.text(blob)?;
                        let (goals, has) = read_version(text, self.ids, &index, &mut last);
                        out.goals.push(goals);
                        lines.push(has);
                        by_blob.insert(blob, lines.len() - 1);
                        lines.len() - 1
                    }
                };
                out.version.push(Some(v));
                // Newest first: the last index seen with a line is its oldest.
                for key in &lines[v] {
                    oldest[*key] = Some(i);
                }
            }
            out.written = wanted
                .into_iter()
                .zip(oldest)
                .filter_map(|(key, i)| Some((key.clone(), i?)))
                .collect();
            self.walked = Some(out);
        }
        Ok(self.walked.as_ref().expect("walked just now"))
    }

    fn table(&mut self) -> Result<&Table> {
        if self.table.is_none() {
            let len = self.line.len();
            let mut status = vec![Vec::with_capacity(len); self.ids.len()];
            let mut gone = Vec::with_capacity(len);
            for i in 0..len {
                let at = self.at(i)?;
                gone.push(at.is_none());
                for (n, id) in self.ids.iter().enumerate() {
                    status[n].push(at.as_ref().and_then(|m| m.get(*id).copied()));
                }
            }
            let done_or_gone = (0..len.saturating_sub(1))
                .filter(|j| {
                    gone[*j]
                        || status
                            .iter()
                            .any(|s| s[*j] == Some(Status::Done) && s[*j + 1] != Some(Status::Done))
                })
                .collect();
            let changes = status
                .iter()
                .map(|s| {
                    (0..len.saturating_sub(1))
                        .filter(|i| s[*i] != s[*i + 1])
                        .collect()
                })
                .collect();
            self.table = Some(Table {
                status,
                gone,
                done_or_gone,
                changes,
            });
        }
        Ok(self.table.as_ref().expect("read just now"))
    }

    /// The index of the oldest commit of the line that has the plan file.
    fn oldest_plan(&mut self) -> Result<Option<usize>> {
        if let Some(known) = self.oldest_plan {
            return Ok(known);
        }
        let mut found = None;
        for i in (0..self.line.len()).rev() {
            if self.at(i)?.is_some() {
                found = Some(i);
                break;
            }
        }
        self.oldest_plan = Some(found);
        Ok(found)
    }
}

/// A version of the plan file parsed in full, kept to read the versions before it
/// that it only added log lines to ([`grown`]): along a line whose commits each
/// log a line, parsing every version costs the square of the line.
struct Read {
    text: String,
    /// Where its log runs to the end ([`grown::log_tail`]).
    tail: Option<usize>,
    goals: Rc<Vec<String>>,
    /// The wanted keys its log has, each with where its line starts.
    has: Vec<(usize, usize)>,
}

/// The goals of `ids` a version of the plan file has, and the keys of `index` its
/// log has; read off `last`, the version parsed last, when this one is it with log
/// lines cut off its end, else parsed (and kept as `last`).
fn read_version(
    text: String,
    ids: &[&str],
    index: &HashMap<&Key, usize>,
    last: &mut Option<Read>,
) -> (Rc<Vec<String>>, Vec<usize>) {
    if let Some(read) = last.as_ref()
        && read.tail.is_some_and(|tail| text.len() >= tail)
        && grown::cut_back(&read.text, &text)
    {
        let has = read
            .has
            .iter()
            .filter(|(_, start)| *start < text.len())
            .map(|(key, _)| *key)
            .collect();
        return (read.goals.clone(), has);
    }
    let plan = parse(&text);
    let goals: Rc<Vec<String>> = Rc::new(
        plan.goals
            .iter()
            .filter(|g| ids.contains(&g.id.as_ref()))
            .map(|g| g.id.to_string())
            .collect(),
    );
    let has: Vec<(usize, usize)> = ids
        .iter()
        .flat_map(|id| {
            let keys = numbered(plan.events(id).map(|(e, _)| (e.stamp, e.text)));
            let starts = plan.events(id).map(|(e, _)| plan.lines[e.line - 1].start);
            keys.into_iter().zip(starts).collect::<Vec<_>>()
        })
        .filter_map(|(key, start)| index.get(&key).map(|n| (*n, start)))
        .collect();
    let tail = grown::log_tail(&plan);
    let keys = has.iter().map(|(key, _)| *key).collect();
    *last = Some(Read {
        text,
        tail,
        goals: goals.clone(),
        has,
    });
    (goals, keys)
}

/// Each goal of `ids`'s log lines that change its state in the plan file at
/// `tip`, the base, in log order: the only lines a state along its line is read
/// from. The gate keeps every log line of a base in every later one, so a line
/// here was in every pull request since; one a rebase-merged pull request's
/// commit wrote and a later commit of it took out (an old goal's reopen typed,
/// then removed) is not here.
fn kept_steps(
    root: &Path,
    tip: &str,
    rel: &Path,
    ids: &[&str],
) -> Result<HashMap<String, Vec<(Key, Step)>>> {
    let Some(blob) = blame::blob_id_at(root, tip, rel)? else {
        return Ok(HashMap::new());
    };
    let text = blame::blob_text_of(root, &blob)?;
    let plan = parse(&text);
    Ok(ids
        .iter()
        .map(|id| {
            let keys = numbered(plan.events(id).map(|(e, _)| (e.stamp, e.text)));
            let steps = plan
                .events(id)
                .zip(keys)
                .filter_map(|((_, event), key)| {
                    let step = match event {
                        Event::Started { .. } => Step::Start,
                        Event::Reopened { .. } => Step::Reopen,
                        Event::SignedOff { .. } | Event::Imported { .. } => Step::Done,
                        Event::Cancelled { .. } => Step::Cancel,
                        _ => return None,
                    };
                    Some((key, step))
                })
                .collect();
            (id.to_string(), steps)
        })
        .collect())
}

/// A goal's state at commit `i` of the line by `steps`, its kept log lines in
/// log order, each counted where `written` says some commit at `i` or older had
/// it (not only where commit `i` has it: the log is append-only, and a commit
/// that took a done goal's `signed off` line out, then a later one that put it
/// back, would leave the goal in flight between them, owner of code landed
/// there). Started (from open) or reopened is active, signed off or imported
/// done, cancelled cancelled; nothing recorded is open. The `status:` line is
/// the pull request's to type: a done goal marked active by hand, with no reopen
/// logged, stays done (a `started` line after its sign-off starts nothing, as
/// `plan start` refuses a done goal).
fn recorded(steps: &[(Key, Step)], written: &HashMap<Key, usize>, i: usize) -> Status {
    let mut state = Status::Open;
    for (key, step) in steps {
        if written.get(key).is_none_or(|w| *w < i) {
            continue;
        }
        state = match step {
            Step::Start if state != Status::Done => Status::Active,
            Step::Start => state,
            Step::Reopen => Status::Active,
            Step::Done => Status::Done,
            Step::Cancel => Status::Cancelled,
        };
    }
    state
}

fn short(commit: &str) -> &str {
    commit.get(..12).unwrap_or(commit)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(text: &str) -> Key {
        (Some("2030-01-01 00:00".to_string()), text.to_string(), 0)
    }

    // Against the walk it stands for, commit by commit, over every sequence of
    // four states along six commits.
    #[test]
    fn started_after_finds_what_a_walk_of_the_line_finds() {
        let states = [
            None,
            Some(Status::Open),
            Some(Status::Active),
            Some(Status::Done),
        ];
        for code in 0..4usize.pow(6) {
            let status: Vec<Option<Status>> =
                (0..6).map(|d| states[code / 4usize.pow(d) % 4]).collect();
            let changes: Vec<usize> = (0..5).filter(|i| status[*i] != status[i + 1]).collect();
            for k in 0..6 {
                let walked = (0..k).rev().find(|i| {
                    matches!(status[*i], Some(Status::Active | Status::Done))
                        && status[*i] != status[k]
                });
                assert_eq!(
                    started_after(&status, &changes, k),
                    walked,
                    "{status:?} at {k}"
                );
            }
        }
    }

    // Red team (stop79-red): a version read off the last one parsed answers as
    // parsing it would, along a line of versions (newest first) that rewrite an
    // earlier log line and then only grow again, end a line in a fence or a
    // comment opened above and closed below, end without a newline or with
    // CRLF, repeat a line (the second is another key) or put a goal after the
    // log (no tail): each read with the last parse kept and without one.
    #[test]
    fn a_version_read_off_the_last_parse_reads_as_parsing_it() {
        let head = "# Plan: p\n\n## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Goal: D\n<!-- id: d -->\nstatus: done\n\n## Log\n";
        let log = [
            "- 2030-01-01 00:00 a started (contract 0123abcd, at 1a2b3c4)\n",
            "- 2030-01-01 00:01 a signed off (verify passed, judge accept)\n",
            "```\n",
            "- 2030-01-01 00:02 d started (contract 0123abcd, at 1a2b3c4)\n",
            "```\n",
            "<!--\n",
            "- 2030-01-01 00:03 d signed off (verify passed, judge accept)\n",
            "-->\n",
            "- 2030-01-01 00:04 d started (contract 0123abcd, at 1a2b3c4)\r\n",
            "- 2030-01-01 00:05 a reopened: more\n",
            "- 2030-01-01 00:05 a reopened: more\n",
            "- 2030-01-01 00:06 d signed off (verify passed, judge accept)\n",
            "- 2030-01-01 00:07 a signed off (verify passed, judge accept)",
        ];
        let whole = format!("{head}{}", log.concat());
        let cuts = |text: &str| -> Vec<String> {
            let mut out = vec![text.to_string()];
            out.extend(
                text.match_indices('\n')
                    .rev()
                    .map(|(i, _)| text[..=i].to_string()),
            );
            out
        };
        let mut versions = cuts(&whole);
        // An earlier line rewritten, then the log grown from there.
        let rewritten = whole.replacen("00:01 a signed off", "00:01 a cancelled: no", 1);
        versions.extend(cuts(&rewritten));
        // A goal after the log: no tail, so nothing is read off it.
        let goal_after = format!("{whole}\n## Goal: E\n<!-- id: a -->\n");
        versions.extend(cuts(&goal_after));
        versions.extend(cuts(&whole));
        let ids = ["a", "d"];
        let mut wanted: Vec<Key> = Vec::new();
        for version in &versions {
            let plan = parse(version);
            for id in ids {
                wanted.extend(numbered(plan.events(id).map(|(e, _)| (e.stamp, e.text))));
            }
        }
        wanted.sort_unstable();
        wanted.dedup();
        let index: HashMap<&Key, usize> = wanted.iter().enumerate().map(|(n, k)| (k, n)).collect();
        let mut last: Option<Read> = None;
        let mut read_off = 0;
        for version in &versions {
            let read = read_version(version.clone(), &ids, &index, &mut last);
            if last.as_ref().is_some_and(|l| l.text != *version) {
                read_off += 1;
            }
            let parsed = read_version(version.clone(), &ids, &index, &mut None);
            assert_eq!(read, parsed, "{version:?}");
        }
        // Most of the cuts of the log, not the goal's below it.
        assert!(read_off >= 3 * log.len(), "{read_off} read off a parse");
    }

    // The line is newest first: index 0 is the tip. `d` started at 7 and was
    // signed off at 5; a commit at 3 that lacks the sign-off line still has it
    // written by then, as `written` records the oldest commit that had it.
    #[test]
    fn a_line_counts_from_the_oldest_commit_that_had_it() {
        let steps = vec![
            (key("d started"), Step::Start),
            (key("d signed off"), Step::Done),
        ];
        let written: HashMap<Key, usize> = [(key("d started"), 7), (key("d signed off"), 5)]
            .into_iter()
            .collect();
        assert_eq!(recorded(&steps, &written, 8), Status::Open);
        assert_eq!(recorded(&steps, &written, 7), Status::Active);
        assert_eq!(recorded(&steps, &written, 6), Status::Active);
        assert_eq!(recorded(&steps, &written, 5), Status::Done);
        assert_eq!(recorded(&steps, &written, 3), Status::Done);
    }

    // A line no commit of the line had counts nowhere; a `started` after a
    // sign-off starts nothing, and a reopen does.
    #[test]
    fn unwritten_lines_count_nowhere_and_only_a_reopen_undoes_a_sign_off() {
        let steps = vec![
            (key("d started"), Step::Start),
            (key("d signed off"), Step::Done),
            (key("d started again"), Step::Start),
            (key("d reopened"), Step::Reopen),
            (key("d cancelled"), Step::Cancel),
        ];
        let written: HashMap<Key, usize> = [
            (key("d started"), 9),
            (key("d signed off"), 8),
            (key("d started again"), 6),
            (key("d reopened"), 4),
        ]
        .into_iter()
        .collect();
        assert_eq!(recorded(&steps, &written, 6), Status::Done);
        assert_eq!(recorded(&steps, &written, 4), Status::Active);
        assert_eq!(recorded(&steps, &written, 0), Status::Active);
    }
}

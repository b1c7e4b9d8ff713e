//! Writes made replayable: a write's line edits anchored to the block (goal by id,
//! else section heading) that holds each line rather than to its line number, so
//! they can be made again on another version of plan.md; and the replay of a
//! journal of such writes onto the last whole version of a cut plan.md. Pure.

use serde::{Deserialize, Serialize};

use super::model::parse;
use super::patch::{self, Edit};

/// One edit of a journaled write, with where its line is: the block holding it and
/// which of that block's lines reading the edit's `expect` it is. An edit that
/// names no line (a log line appended, a goal added) has no anchor: it goes where
/// such edits go in whatever file it is replayed on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Step {
    #[serde(flatten)]
    pub edit: Edit,
    /// The block's key ([`Block::key`]); absent for an edit that names no line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub block: Option<String>,
    /// 0 for the block's first line reading `expect`, 1 for the second, …
    #[serde(default, skip_serializing_if = "is_zero")]
    pub nth: usize,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// What a journaled write did to plan.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Change {
    /// Line edits, anchored.
    Steps(Vec<Step>),
    /// The whole file (`plan init`, a rebuild): replayed by taking it as it is.
    Whole(String),
    /// A write too big to keep in the journal: it cannot be replayed.
    TooBig,
    /// The whole file, kept as this blob in git's object database rather than in
    /// the journal (a long plan's whole-file writes filled the journal and moved
    /// the writes a repair needs out of it). Read back as [`Change::Whole`] before
    /// a replay.
    WholeBlob(String),
}

/// A run of lines from one heading (`# ` or `## `) to the next; the lines before
/// the first heading are a block of their own.
struct Block<'a> {
    /// The heading's line, 1-based (0 for the lines before any heading).
    start: usize,
    heading: &'a str,
    /// A goal's `<!-- id: … -->` comment, the first in its block.
    id: Option<&'a str>,
}

impl Block<'_> {
    /// What names the block across versions: a goal's id comment (its title may
    /// have been renamed), else its heading. Without one, by its heading.
    fn key(&self) -> String {
        match self.id {
            Some(id) => id.trim().to_string(),
            None => self.heading.trim_end().to_string(),
        }
    }
}

/// The blocks of `src`, in order. Holds slices of `src`, one small entry per
/// heading: a write on a long plan pays one pass and no copy of its lines.
fn blocks(src: &str) -> Vec<Block<'_>> {
    let mut out = vec![Block {
        start: 0,
        heading: "",
        id: None,
    }];
    for (no, text) in patch::numbered_lines(src) {
        if text.starts_with("## ") || text.starts_with("# ") {
            out.push(Block {
                start: no,
                heading: text,
                id: None,
            });
        } else if let Some(last) = out.last_mut()
            && last.id.is_none()
            && last.heading.starts_with("## Goal:")
            && text.trim_start().starts_with("<!-- id:")
        {
            last.id = Some(text);
        }
    }
    out
}

/// The block holding line `no`: the last that starts at or before it.
fn block_of<'b, 'a>(blocks: &'b [Block<'a>], no: usize) -> &'b Block<'a> {
    let i = blocks.partition_point(|b| b.start <= no);
    &blocks[i.saturating_sub(1)]
}

/// `edits`, made against `src`, as steps that can be replayed on another version.
pub fn anchor(src: &str, edits: &[Edit]) -> Vec<Step> {
    let mut steps: Vec<Step> = edits
        .iter()
        .map(|edit| Step {
            edit: edit.clone(),
            block: None,
            nth: 0,
        })
        .collect();
    let targets: Vec<(usize, usize, &str)> = edits
        .iter()
        .enumerate()
        .filter_map(|(i, e)| e.target().filter(|(no, _)| *no > 0).map(|(n, x)| (i, n, x)))
        .collect();
    if targets.is_empty() {
        return steps;
    }
    let blocks = blocks(src);
    let starts: Vec<usize> = targets
        .iter()
        .map(|&(i, no, _)| {
            let block = block_of(&blocks, no);
            steps[i].block = Some(block.key());
            block.start
        })
        .collect();
    for (no, text) in patch::numbered_lines(src) {
        for (k, &(i, target, expect)) in targets.iter().enumerate() {
            if no >= starts[k] && no < target && text == expect {
                steps[i].nth += 1;
            }
        }
    }
    steps
}

/// `steps` as edits against `src`: each anchored one at the line it names there.
/// `Err`: why one cannot be placed (its block gone or there more than once, its
/// line not there).
fn place(src: &str, steps: &[Step]) -> Result<Vec<Edit>, String> {
    let anchored = steps.iter().any(|s| s.block.is_some());
    let blocks = if anchored { blocks(src) } else { Vec::new() };
    let mut edits = Vec::with_capacity(steps.len());
    for step in steps {
        let mut edit = step.edit.clone();
        if let (Some(key), Some((_, expect))) = (&step.block, step.edit.target()) {
            let found: Vec<usize> = (0..blocks.len())
                .filter(|&i| blocks[i].key() == *key)
                .collect();
            let [i] = found[..] else {
                return Err(match found.len() {
                    0 => format!("`{key}` is not there"),
                    n => format!("`{key}` is there {n} times"),
                });
            };
            let (start, end) = (
                blocks[i].start,
                blocks.get(i + 1).map_or(usize::MAX, |b| b.start),
            );
            let line = patch::numbered_lines(src)
                .filter(|&(no, text)| no >= start && no < end && text == expect)
                .nth(step.nth)
                .map(|(no, _)| no)
                .ok_or_else(|| format!("`{key}` has no line `{expect}` to change"))?;
            edit.retarget(line);
        }
        edits.push(edit);
    }
    Ok(edits)
}

/// What became of one journaled write in a replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    Replayed,
    /// Not made: why.
    Skipped(String),
}

/// What of `then`'s goals `now` lacks, in words: each id it has none of
/// (`` `id` ``), or, when it has fewer goals, how many fewer. Plan's own writes never remove a goal (an archive
/// moves it under `## Archive`, a cancel marks it; a repair of a duplicate id
/// renames one copy, which keeps the count), so a version that lacks one was cut,
/// or written by someone the journal cannot vouch for.
pub fn lost_goals(then: &str, now: &str) -> Vec<String> {
    missing(&goal_ids(&parse(then)), &goal_ids(&parse(now)))
}

/// The ids of `plan`'s goals, in order.
fn goal_ids(plan: &super::model::Plan<'_>) -> Vec<String> {
    plan.goals.iter().map(|g| g.id.to_string()).collect()
}

/// The ids in `then` that `now` has none of, or the goals it is short by.
fn missing(then: &[String], now: &[String]) -> Vec<String> {
    let have: std::collections::HashSet<&str> = now.iter().map(String::as_str).collect();
    let mut lost: Vec<String> = then
        .iter()
        .filter(|id| !have.contains(id.as_str()))
        .map(|id| format!("`{id}`"))
        .collect();
    if lost.is_empty() && now.len() < then.len() {
        lost.push(format!(
            "{} of {} goals",
            then.len() - now.len(),
            then.len()
        ));
    }
    lost
}

/// The goals done in `now` that are not done in `then`: `plan complete` writes
/// `status: done` with its sign-off, a write of its own that the journal replays,
/// so a version that has one `then` lacks is not to be taken on the journal's
/// word alone.
pub fn newly_done(then: &str, now: &str) -> Vec<String> {
    use super::status::Status;
    let then = parse(then);
    parse(now)
        .goals
        .iter()
        .filter(|g| g.status() == Status::Done)
        .filter(|g| {
            then.goals
                .iter()
                .all(|t| t.id != g.id || t.status() != Status::Done)
        })
        .map(|g| g.id.to_string())
        .collect()
}

/// The goals of `then` that `now` holds with a line of theirs changed or gone
/// (their status, contract, notes), by id. A whole version of the file the
/// journal names (a `whole` write, a version kept as someone else's edit) is taken
/// in a rebuild only when this is empty: the journal is anyone's with a shell to
/// write, and plan's own edits to a goal are journaled as edits, each replayed
/// where it can be, never as a whole file.
pub fn rewritten_goals(then: &str, now: &str) -> Vec<String> {
    use std::collections::HashMap;
    let goal_lines = |src: &str| -> HashMap<String, HashMap<String, usize>> {
        let blocks = blocks(src);
        let mut out: HashMap<String, HashMap<String, usize>> = HashMap::new();
        let mut block = 0;
        for (no, text) in patch::numbered_lines(src) {
            while block + 1 < blocks.len() && blocks[block + 1].start <= no {
                block += 1;
            }
            if let Some(id) = blocks[block].id {
                *out.entry(id.trim().to_string())
                    .or_default()
                    .entry(text.trim_end().to_string())
                    .or_default() += 1;
            }
        }
        out
    };
    let (then, now) = (goal_lines(then), goal_lines(now));
    let mut out: Vec<String> = then
        .iter()
        .filter(|(id, lines)| {
            now.get(*id).is_some_and(|have| {
                lines
                    .iter()
                    .any(|(line, n)| have.get(line).copied().unwrap_or(0) < *n)
            })
        })
        .map(|(id, _)| id.clone())
        .collect();
    out.sort();
    out
}

/// `base` with `changes` made on it in order, and what became of each. A write
/// whose edits cannot all be placed, that would leave more format errors than
/// the file had (a goal added twice), or that would remove a goal (no write of
/// plan's does: a journal line that says so was not written by plan) is skipped
/// whole: a replay never makes up a line the write did not make, nor drops one.
pub fn replay(base: &str, changes: &[Change]) -> (String, Vec<Outcome>) {
    let mut text = base.to_string();
    let (mut errors, mut ids) = {
        let parsed = parse(&text);
        (parsed.errors.len(), goal_ids(&parsed))
    };
    let mut outcomes = Vec::with_capacity(changes.len());
    for change in changes {
        let made = match change {
            // `plan init`, or a rebuild: one that would change a goal's lines was
            // not made by plan (rewritten_goals).
            Change::Whole(whole) => match rewritten_goals(&text, whole).first() {
                Some(id) => Err(format!(
                    "it is a whole file that changes the lines of {id}, which no write of plan's does that way"
                )),
                None => Ok(whole.clone()),
            },
            Change::TooBig => Err("it was too big to keep in the journal".to_string()),
            Change::WholeBlob(_) => {
                Err("the whole file it wrote is gone from git's object database".to_string())
            }
            // Nothing to place or check (a write's log lines taken out to be put
            // by time): a parse of a long plan saved.
            Change::Steps(steps) if steps.is_empty() => {
                outcomes.push(Outcome::Replayed);
                continue;
            }
            Change::Steps(steps) => place(&text, steps)
                .and_then(|edits| patch::apply(&text, &edits).map_err(|c| c.to_string())),
        };
        let made = made.and_then(|out| {
            let (now, now_ids) = {
                let parsed = parse(&out);
                (parsed.errors.len(), goal_ids(&parsed))
            };
            if now > errors && !matches!(change, Change::Whole(_)) {
                return Err("it would make the file invalid here".to_string());
            }
            match missing(&ids, &now_ids).first() {
                Some(lost) => Err(format!(
                    "it would remove a goal ({lost}), which no write of plan's does"
                )),
                None => Ok((out, now, now_ids)),
            }
        });
        outcomes.push(match made {
            Ok((out, now, now_ids)) => {
                text = out;
                errors = now;
                ids = now_ids;
                Outcome::Replayed
            }
            Err(why) => Outcome::Skipped(why),
        });
    }
    (text, outcomes)
}

/// Where a journaled step's line stands, and the line: the block's key (`None`:
/// anywhere in the file) and the line's text.
type Placed = (Option<String>, String);

/// The lines `step` put in the file, each where it put it, and whether it must
/// be there: a line anchored in a block the file no longer has (a goal taken
/// out) is not looked for, since the write could not be made there again.
fn put_by(step: &Step) -> Vec<(Placed, bool)> {
    let at = |line: &String| ((step.block.clone(), line.clone()), step.block.is_some());
    match &step.edit {
        Edit::AppendLog { lines } => lines
            .iter()
            .map(|l| ((Some("## Log".to_string()), l.clone()), false))
            .collect(),
        Edit::InsertAfter { lines, .. } | Edit::InsertBefore { lines, .. } => {
            lines.iter().map(at).collect()
        }
        Edit::Replace { new, .. } => vec![at(new)],
        // A goal is there when its id comment is: the block it keys.
        Edit::AppendGoal { lines } => lines
            .iter()
            .find(|l| l.trim_start().starts_with("<!-- id:"))
            .map(|id| ((Some(id.trim().to_string()), id.clone()), false))
            .into_iter()
            .collect(),
        Edit::AppendEnd { lines } => lines.iter().map(|l| ((None, l.clone()), false)).collect(),
        Edit::Delete { .. } | Edit::CreateLog => Vec::new(),
    }
}

/// The line `step` changed or removed, where it stood.
fn taken_by(step: &Step) -> Option<Placed> {
    match &step.edit {
        Edit::Replace { expect, .. } | Edit::Delete { expect, .. } => {
            Some((step.block.clone(), expect.clone()))
        }
        _ => None,
    }
}

/// Takes one of `key` from `counts`, if it has one.
fn take(counts: &mut std::collections::HashMap<Placed, usize>, key: &Placed) -> bool {
    match counts.get_mut(key) {
        Some(n) if *n > 0 => {
            *n -= 1;
            true
        }
        _ => false,
    }
}

/// Which of `changes` (journaled writes, oldest first) `src` lacks whole: none of
/// the lines the write put in the file is where it put it, nor was changed or
/// removed by a later write `src` holds (a tick replaces the line its subtask
/// added). The indexes, oldest first. A write that put no line (a delete) or
/// that replaced the whole file is never found lost. What an editor saving a copy
/// it read before the write leaves, or a stash popped over it; also a line a
/// person took out by hand, which bytes alone do not tell apart (the caller keeps
/// the file as it was). Linear in `src` and the journal.
pub fn lost(src: &str, changes: &[Change]) -> Vec<usize> {
    use std::collections::{HashMap, HashSet};
    let blocks = blocks(src);
    let keys: HashSet<String> = blocks.iter().map(Block::key).collect();
    let mut have: HashMap<Placed, usize> = HashMap::new();
    let mut block = 0;
    for (no, text) in patch::numbered_lines(src) {
        while block + 1 < blocks.len() && blocks[block + 1].start <= no {
            block += 1;
        }
        *have
            .entry((Some(blocks[block].key()), text.to_string()))
            .or_default() += 1;
        *have.entry((None, text.to_string())).or_default() += 1;
    }
    let mut taken: HashMap<Placed, usize> = HashMap::new();
    let mut out = Vec::new();
    for (i, change) in changes.iter().enumerate().rev() {
        let Change::Steps(steps) = change else {
            continue;
        };
        let put: Vec<(Placed, bool)> = steps
            .iter()
            .flat_map(put_by)
            .filter(|((key, _), anchored)| {
                !anchored || key.as_ref().is_none_or(|k| keys.contains(k))
            })
            .collect();
        let mut found = put.is_empty();
        for (line, _) in &put {
            found |= take(&mut have, line) || take(&mut taken, line);
        }
        if found {
            for line in steps.iter().filter_map(taken_by) {
                *taken.entry(line).or_default() += 1;
            }
        } else {
            out.push(i);
        }
    }
    out.reverse();
    out
}

/// The log lines of `text`'s `## Log` section (its `- ` lines, each with its line
/// ending), and `text` with them taken out and `put` written where they stood.
/// `None` without a `## Log`.
fn log_lines<'t>(text: &'t str, put: &[&str]) -> Option<(Vec<&'t str>, String)> {
    let mut out = String::with_capacity(text.len());
    let (mut inside, mut seen, mut placed) = (false, false, false);
    let mut lines = Vec::new();
    for line in text.split_inclusive('\n') {
        let bare = line.trim_end_matches(['\r', '\n']);
        if bare.starts_with("## ") || bare.starts_with("# ") {
            if inside && !placed {
                out.extend(put.iter().copied());
                placed = true;
            }
            inside = bare.trim_end() == "## Log";
            seen |= inside;
        } else if inside && bare.starts_with("- ") {
            lines.push(line);
            if !placed {
                out.extend(put.iter().copied());
                placed = true;
            }
            continue;
        }
        out.push_str(line);
    }
    if inside && !placed {
        out.extend(put.iter().copied());
    }
    seen.then_some((lines, out))
}

/// `text` with `lines` (log lines, without line endings) put into its `## Log`
/// where their time stamps go: each before the first line stamped later, in the
/// order given among lines of one stamp. `None` without a `## Log`.
pub fn with_log_lines_by_time(text: &str, lines: &[String]) -> Option<String> {
    if lines.is_empty() {
        return Some(text.to_string());
    }
    let (have, _) = log_lines(text, &[])?;
    // `- YYYY-MM-DD HH:MM`, which orders as text; `None` for an unstamped line.
    let stamp = |line: &str| {
        let at = line.get(2..18)?;
        let b = at.as_bytes();
        (b[4] == b'-' && b[10] == b' ' && b[13] == b':').then(|| at.to_string())
    };
    let eol = if text.contains("\r\n") { "\r\n" } else { "\n" };
    let mut merged: Vec<String> = have.iter().map(|l| l.to_string()).collect();
    if let Some(last) = merged.last_mut()
        && !last.ends_with('\n')
    {
        last.push_str(eol);
    }
    for line in lines {
        let at = stamp(line);
        let place = match &at {
            Some(at) => merged
                .iter()
                .position(|l| stamp(l).is_some_and(|s| s > *at))
                .unwrap_or(merged.len()),
            None => merged.len(),
        };
        merged.insert(place, format!("{line}{eol}"));
    }
    let put: Vec<&str> = merged.iter().map(String::as_str).collect();
    log_lines(text, &put).map(|(_, out)| out)
}

/// `rebuilt` with the log lines only `cut` holds merged into its log by time stamp,
/// as plan's merge driver merges two logs: a line plan wrote that came back by a
/// way the journal does not see (a `git stash pop`, a merge) is in the cut file's
/// log, and the log only grows. The cut file's last line, cut inside, is left out.
/// `rebuilt` as it is when `cut` has no `## Log` or adds nothing; the lines added.
pub fn with_log_of(rebuilt: &str, cut: &str) -> (String, usize) {
    let whole = match cut.ends_with('\n') {
        true => cut,
        false => &cut[..cut.rfind('\n').map_or(0, |i| i + 1)],
    };
    let (Some((theirs, _)), Some((ours, base))) = (log_lines(whole, &[]), log_lines(rebuilt, &[]))
    else {
        return (rebuilt.to_string(), 0);
    };
    let mut have: std::collections::HashMap<&str, usize> = Default::default();
    for line in &ours {
        *have.entry(line.trim_end()).or_default() += 1;
    }
    let added = theirs
        .iter()
        .filter(|l| match have.get_mut(l.trim_end()) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .count();
    if added == 0 {
        return (rebuilt.to_string(), 0);
    }
    let Some((_, with_theirs)) = log_lines(rebuilt, &theirs) else {
        return (rebuilt.to_string(), 0);
    };
    let merged = super::merge::merge(&base, rebuilt, &with_theirs);
    match merged.conflicts.is_empty() {
        true => (merged.text, added),
        false => (rebuilt.to_string(), 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PLAN: &str = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n- [ ] one\n- [ ] one\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n- [ ] one\n\n## Log\n- 2026-06-15 14:00 x\n";

    #[test]
    fn an_edit_is_anchored_to_its_goal_and_its_twin_lines() {
        let edits = vec![
            Edit::replace(7, "- [ ] one", "- [x] one"),
            Edit::replace(12, "- [ ] one", "- [x] one"),
            Edit::AppendLog {
                lines: vec!["- 2026-06-15 14:02 y".into()],
            },
        ];
        let steps = anchor(PLAN, &edits);
        assert_eq!(steps[0].block.as_deref(), Some("<!-- id: a -->"));
        assert_eq!(steps[0].nth, 1, "the second `- [ ] one` of a");
        assert_eq!(steps[1].block.as_deref(), Some("<!-- id: b -->"));
        assert_eq!(steps[1].nth, 0);
        assert_eq!(steps[2].block, None);
        // Round trip through the journal's JSON.
        let json = serde_json::to_string(&Change::Steps(steps.clone())).unwrap();
        assert_eq!(
            serde_json::from_str::<Change>(&json).unwrap(),
            Change::Steps(steps)
        );
    }

    #[test]
    fn a_replay_follows_goals_that_moved_and_skips_what_cannot_be_placed() {
        let steps = anchor(PLAN, &[Edit::replace(7, "- [ ] one", "- [x] one")]);
        // On a version where B comes first and A was renamed.
        let moved = "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n- [ ] one\n\n## Goal: A renamed\n<!-- id: a -->\nstatus: open\n- [ ] one\n- [ ] one\n\n## Log\n";
        let (out, outcomes) = replay(moved, &[Change::Steps(steps.clone())]);
        assert_eq!(outcomes, [Outcome::Replayed]);
        assert!(out.ends_with("- [ ] one\n- [x] one\n\n## Log\n"), "{out}");
        let gone = "# Plan: x\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n";
        let (out, outcomes) = replay(gone, &[Change::Steps(steps)]);
        assert_eq!(out, gone);
        assert!(matches!(&outcomes[0], Outcome::Skipped(why) if why.contains("not there")));
    }

    #[test]
    fn the_cut_files_own_log_lines_are_merged_in_by_time() {
        let rebuilt = "# Plan: x\n\n## Log\n- 2026-06-15 14:00 a\n- 2026-06-15 14:03 c\n";
        let cut =
            "# Plan: x\n\n## Log\n- 2026-06-15 14:00 a\n- 2026-06-15 14:01 b\n- 2026-06-15 14:0";
        let (out, added) = with_log_of(rebuilt, cut);
        assert_eq!(added, 1);
        assert_eq!(
            out,
            "# Plan: x\n\n## Log\n- 2026-06-15 14:00 a\n- 2026-06-15 14:01 b\n- 2026-06-15 14:03 c\n"
        );
        assert_eq!(
            with_log_of(rebuilt, "# Plan: x\n\n## Go"),
            (rebuilt.to_string(), 0)
        );
    }

    #[test]
    fn a_write_that_removes_a_goal_is_skipped_and_a_done_one_is_named() {
        // B's whole block, line by line: a file as valid as before, one goal short.
        let lines = PLAN.lines().collect::<Vec<_>>();
        let at = lines.iter().position(|l| *l == "## Goal: B").unwrap();
        let drop_b = Change::Steps(
            (at..at + 5)
                .map(|i| Step {
                    edit: Edit::Delete {
                        line: i + 1,
                        expect: lines[i].to_string(),
                    },
                    block: None,
                    nth: 0,
                })
                .collect(),
        );
        let (out, outcomes) = replay(PLAN, &[drop_b]);
        assert_eq!(out, PLAN);
        assert!(
            matches!(&outcomes[0], Outcome::Skipped(why) if why.contains("remove a goal")),
            "{outcomes:?}"
        );
        let without_b = PLAN.replace(
            "## Goal: B\n<!-- id: b -->\nstatus: open\n- [ ] one\n\n",
            "",
        );
        assert_eq!(lost_goals(PLAN, &without_b), ["`b`"]);
        assert!(lost_goals(&without_b, PLAN).is_empty());
        let a_done = PLAN.replacen("status: open", "status: done", 1);
        assert_eq!(newly_done(PLAN, &a_done), ["a"]);
        assert!(newly_done(&a_done, &a_done).is_empty());
    }

    #[test]
    fn a_whole_write_resets_the_replay_and_a_duplicate_goal_is_skipped() {
        let add = Change::Steps(vec![Step {
            edit: Edit::AppendGoal {
                lines: vec![
                    "## Goal: C".into(),
                    "<!-- id: a -->".into(),
                    "status: open".into(),
                ],
            },
            block: None,
            nth: 0,
        }]);
        let (out, outcomes) = replay("", &[Change::Whole(PLAN.to_string()), add]);
        assert_eq!(out, PLAN);
        assert_eq!(outcomes[0], Outcome::Replayed);
        assert!(matches!(&outcomes[1], Outcome::Skipped(_)), "{outcomes:?}");
    }

    /// The writes of a `plan subtask`, a `plan tick` of it and a `plan log`, made on
    /// `PLAN` in turn, as the journal keeps them.
    fn three_writes() -> (Vec<Change>, String) {
        let mut text = PLAN.to_string();
        let mut changes = Vec::new();
        for edit in [
            Edit::InsertAfter {
                line: 12,
                expect: "- [ ] one".into(),
                lines: vec!["- [ ] two".into()],
            },
            Edit::replace(13, "- [ ] two", "- [x] two"),
            Edit::AppendLog {
                lines: vec!["- 2026-06-15 14:05 z".into()],
            },
        ] {
            let edits = vec![edit];
            changes.push(Change::Steps(anchor(&text, &edits)));
            text = patch::apply(&text, &edits).unwrap();
        }
        (changes, text)
    }

    #[test]
    fn writes_a_stale_copy_lacks_are_found_and_a_later_change_of_a_line_is_not() {
        let (changes, written) = three_writes();
        assert!(lost(&written, &changes).is_empty(), "all there");
        // An editor saved the copy it read before the writes, with a note.
        let stale = PLAN.replace("# Plan: x\n", "# Plan: x\nA note.\n");
        assert_eq!(lost(&stale, &changes), [0, 1, 2]);
        let (out, outcomes) = replay(
            &stale,
            &lost(&stale, &changes)
                .iter()
                .map(|&i| changes[i].clone())
                .collect::<Vec<_>>(),
        );
        assert!(
            outcomes.iter().all(|o| *o == Outcome::Replayed),
            "{outcomes:?}"
        );
        assert_eq!(out, written.replace("# Plan: x\n", "# Plan: x\nA note.\n"));
        // Saved after the subtask and the tick: only the log line is lacking. The
        // subtask's own line was changed by the tick, which the file holds.
        let after_two = written.replace("- 2026-06-15 14:05 z\n", "");
        assert_eq!(lost(&after_two, &changes), [2]);
        // A goal taken out: its subtask's write is not looked for.
        let no_b = written.replace(
            "## Goal: B\n<!-- id: b -->\nstatus: open\n- [ ] one\n- [x] two\n\n",
            "",
        );
        assert!(lost(&no_b, &changes).is_empty(), "{no_b}");
    }
}

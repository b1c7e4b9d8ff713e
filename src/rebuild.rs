//! A cut plan.md found and rebuilt (`plan doctor`, `plan doctor --fix`): from the
//! last whole version of it in git and every write plan acknowledged since, as its
//! journal under the git directory holds them (src/events.rs, [`Written`]). The cut
//! file is kept beside the rebuilt one: what the person wrote in it is theirs.

use std::path::PathBuf;

use anyhow::Result;

use crate::ctx::Ctx;
use crate::events::{self, Written};
use crate::plan::diag::Severity;
use crate::plan::doctor::{Finding, Repair};
use crate::plan::replay::{self, Change, Outcome};
use crate::plan::rules::Rule;

/// A cut plan.md and the file it is rebuilt as.
pub struct Cut {
    /// What the rebuild starts from, in words: the last whole version in git, or a
    /// later version a write kept; none when there is neither (the rebuild starts
    /// from the journal alone).
    pub from: Option<String>,
    /// The writes replayed on it, and those that could not be, each with why and
    /// the log lines it wrote (so a person can make it again).
    pub replayed: usize,
    pub skipped: Vec<(String, Vec<String>)>,
    /// The journal was moved aside since and does not show where the whole
    /// version stands in it: writes older than it holds may be missing.
    pub partial: bool,
    /// Log lines only the cut file held (brought back by git, not by a write of
    /// plan's), merged into the rebuilt log.
    pub from_cut: usize,
    /// What the cut file lost against the rebuilt one, in words, ending with the
    /// goals each has.
    pub lost: (String, String),
    /// It ends its last line and has its `## Log` if it has goals: cut at a
    /// line's end (or goals taken out by hand), which plan's writes do not refuse.
    pub at_line_end: bool,
    pub text: String,
}

/// The rebuild of `src`, plan.md as it is, if it is cut: it ends inside a line or
/// has goals and no `## Log`, and it lacks goals, its `## Log` or the rest of its
/// last line against the last whole version in git with every journaled write
/// since made on it. `None` outside a repository, or for a file that lost nothing
/// (a plan written by hand without a `## Log`: `no-log` is its finding).
pub fn find(ctx: &Ctx, src: &str) -> Option<Cut> {
    // A file cut at a line's end looks whole: it is judged by what it lost against
    // the versions plan knows, as a write judges it (a save paused at its title
    // leaves a plan with no goal and no `## Log`, which plan's writes took).
    let mid_line = crate::store::looks_cut(src);
    if !mid_line && !ctx.store.lost_since_known(src) {
        return None;
    }
    let repo = ctx.repo.as_ref()?;
    let rel = ctx.plan_in_repo()?;
    // The newest one: the walk stops at it, however long the history.
    let whole = crate::git::file_versions_where(&repo.root, &rel, 1, is_whole)
        .ok()
        .and_then(|mut found| (!found.is_empty()).then(|| found.swap_remove(0)));
    let (journaled, rotated) = events::writes(&repo.git_dir, &rel.to_string_lossy());
    let branch = crate::git::head_place(&repo.root).ok().map(|(b, _)| b);
    let journaled: Vec<Written> = journaled
        .into_iter()
        .filter(|w| branch.as_deref().is_none_or(|b| w.branch == b))
        .collect();
    let (mut base, mut start, partial) = match &whole {
        Some(rev) => {
            let (start, found) = start_after(&repo.root, &journaled, rev);
            (rev.content.clone(), start, rotated && !found)
        }
        None => (String::new(), 0, rotated),
    };
    // A later version a write was made on, kept because it held someone else's
    // edit (src/events.rs, `keep_before`): the rebuild starts from it, so the edit
    // is not lost. The latest one that is whole.
    let mut from = whole
        .as_ref()
        .map(|rev| format!("commit {} (the last whole version in git)", rev.short));
    // The journal is anyone's to write who has a shell: a kept version it names is
    // taken only when it keeps every goal of the version plan's own writes since
    // the whole one would have made, and marks none done that that one has not
    // (`plan complete` is a write of its own, replayed). Else the rebuild starts
    // from git's version, and the kept one is no more than a hint.
    let read = crate::git::blob_reader(&repo.root);
    // A whole-file write kept in git's object database is read back for the
    // replay; one gone from it cannot be made again.
    let changes: Vec<Change> = journaled
        .iter()
        .map(|w| match (&w.change, &read) {
            (Change::WholeBlob(id), Some(read)) => read(id).map_or(w.change.clone(), Change::Whole),
            (change, _) => change.clone(),
        })
        .collect();
    if let Some(read) = read {
        let kept = (start..journaled.len()).rev().find_map(|k| {
            let text = read(journaled[k].before.as_deref()?)?;
            let vouched = || {
                let (ours, _) = replay::replay(&base, &changes[start..k]);
                replay::lost_goals(&ours, &text).is_empty()
                    && replay::newly_done(&ours, &text).is_empty()
                    && replay::rewritten_goals(&ours, &text).is_empty()
            };
            (is_whole(&text) && vouched()).then_some((k, text))
        });
        if let Some((k, text)) = kept {
            let edited = k > start || text != base;
            (start, base) = (k, text);
            if edited {
                let at = crate::clock::stamp_of(journaled[k].ts).unwrap_or_default();
                from = Some(format!(
                    "the version plan found at {at} (someone else's edit, kept by plan's write on it)"
                ));
            }
        }
    }
    let since = &journaled[start..];
    let (text, outcomes) = replay::replay(&base, &changes[start..]);
    let (text, from_cut) = replay::with_log_of(&text, src);
    let lost = match crate::store::lost_between(src, &text) {
        Some((lost, there, here)) => (
            format!("lost {lost}"),
            format!(
                " ({} there, {here} here)",
                crate::plan::text::count(there as usize, "goal")
            ),
        ),
        None if !src.ends_with('\n') && text.starts_with(src) && text != src => (
            "lost the rest of its last line and what followed".to_string(),
            String::new(),
        ),
        None => return None,
    };
    let skipped: Vec<(String, Vec<String>)> = since
        .iter()
        .zip(&outcomes)
        .filter_map(|(w, o)| match o {
            Outcome::Skipped(why) => Some((why.clone(), logged_by(w))),
            Outcome::Replayed => None,
        })
        .collect();
    Some(Cut {
        from_cut,
        from,
        replayed: outcomes.iter().filter(|o| **o == Outcome::Replayed).count(),
        skipped,
        partial,
        lost,
        at_line_end: !mid_line,
        text,
    })
}

/// A whole plan.md that lacks writes plan acknowledged: a copy read before them
/// saved over them (an editor, a `git stash pop`, a checkout of the file), and
/// those writes made again on it as it is.
pub struct Stale {
    /// The writes found lost, and when the oldest of them was made.
    pub lost: usize,
    pub since: String,
    pub replayed: usize,
    /// Those that cannot be made again, with why and the log lines each wrote.
    pub skipped: Vec<(String, Vec<String>)>,
    pub text: String,
}

/// The writes `src`, a whole plan.md, lacks, made again on it. A write counts
/// when none of the lines it put is where it put it (src/plan/replay.rs, `lost`),
/// and the next thing that happened to the file was not plan's: the writes lost
/// run up to a version someone else saved (the next write was made on another
/// file than the one it left, or `src` is that version). A line a person took out
/// by hand long after plan wrote it is a later edit, not a lost write. Only writes
/// on the branch HEAD is on, since the last one made at a commit HEAD does not
/// reach: a reset or a rebase drops writes on purpose. `None` outside a repository or
/// when nothing is lacking.
pub fn stale(ctx: &Ctx, src: &str) -> Option<Stale> {
    if crate::store::looks_cut(src) {
        return None;
    }
    let repo = ctx.repo.as_ref()?;
    let rel = ctx.plan_in_repo()?;
    let (branch, head) = crate::git::head_place(&repo.root).ok()?;
    let (journaled, _) = events::writes(&repo.git_dir, &rel.to_string_lossy());
    let mut reached: std::collections::HashMap<String, bool> = Default::default();
    let mut reaches = |commit: &Option<String>| match (commit, &head) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(c), Some(h)) => *reached.entry(c.clone()).or_insert_with(|| {
            c == h || crate::git::is_ancestor(&repo.root, c, h).unwrap_or(false)
        }),
    };
    // History moved back or aside past a write (a reset, a rebase): what was
    // written before it is settled, dropped or not on purpose.
    let journaled: Vec<Written> = journaled
        .into_iter()
        .filter(|w| w.branch == branch)
        .collect();
    let from = journaled
        .iter()
        .rposition(|w| !reaches(&w.commit))
        .map_or(0, |x| x + 1);
    let journaled = &journaled[from..];
    let changes: Vec<Change> = journaled.iter().map(|w| w.change.clone()).collect();
    let mut lost = replay::lost(src, &changes);
    // Each run of lost writes must end where someone else's version came in.
    let broken_after = |i: usize| match journaled.get(i + 1) {
        Some(next) => next.before.as_deref() != Some(journaled[i].after.as_str()),
        None => true,
    };
    let is_lost = {
        let mut flags = vec![false; journaled.len()];
        lost.iter().for_each(|&i| flags[i] = true);
        flags
    };
    let run_end = |i: usize| {
        (i..journaled.len())
            .take_while(|&k| is_lost[k])
            .last()
            .unwrap_or(i)
    };
    lost.retain(|&i| broken_after(run_end(i)));
    let settled = settled(repo, &rel, src, journaled, &changes, &lost, &run_end);
    lost.retain(|i| !settled.contains(i));
    let first = *lost.first()?;
    // A sign-off, a cancel or a contract is made again by plan's commands alone:
    // the journal is anyone's to write.
    let (mut picked, mut skipped) = (Vec::new(), Vec::new());
    for &i in &lost {
        match beyond_a_repair(&journaled[i].change) {
            true => skipped.push((
                "it changes a goal's status past active, logs a sign-off, a cancel or an approval, changes a contract or a line plan does not add, which only plan's own command (`plan complete`, `plan cancel`, `plan edit`) makes: run it again".to_string(),
                logged_by(&journaled[i]),
            )),
            false => picked.push(i),
        }
    }
    // The writes' other edits first, then their log lines where their time stamps
    // put them, as the merge driver merges two logs (a log line always has a
    // place: one replay of each write's edits, not two, on a long plan). Without a
    // `## Log` to put them in, each write is made whole, in order.
    let made: Vec<Change> = picked
        .iter()
        .map(|&i| without_log_lines(&changes[i]))
        .collect();
    let (rest, mut outcomes) = replay::replay(src, &made);
    let logged = |outcomes: &[Outcome]| -> Vec<String> {
        picked
            .iter()
            .zip(outcomes)
            .filter(|(_, o)| **o == Outcome::Replayed)
            .flat_map(|(&i, _)| logged_by(&journaled[i]))
            .collect()
    };
    let text = match replay::with_log_lines_by_time(&rest, &logged(&outcomes)) {
        Some(text) => text,
        None => {
            let whole: Vec<Change> = picked.iter().map(|&i| changes[i].clone()).collect();
            let (text, whole_outcomes) = replay::replay(src, &whole);
            outcomes = whole_outcomes;
            text
        }
    };
    let mut replayed = 0;
    for (&i, outcome) in picked.iter().zip(&outcomes) {
        match outcome {
            Outcome::Replayed => replayed += 1,
            Outcome::Skipped(why) => skipped.push((why.clone(), logged_by(&journaled[i]))),
        }
    }
    // The model's word, past the line test above (`marks_done`): a repair whose
    // result has a goal done that the file has not makes nothing again.
    let done = replay::newly_done(src, &text);
    let text = match done.is_empty() {
        true => text,
        false => {
            skipped.push((
                format!(
                    "together they would mark `{}` done, which only `plan complete` does; nothing was made again",
                    done.join("`, `")
                ),
                Vec::new(),
            ));
            replayed = 0;
            src.to_string()
        }
    };
    Some(Stale {
        lost: lost.len(),
        since: crate::clock::stamp_of(journaled[first].ts).unwrap_or_default(),
        replayed,
        skipped,
        text,
    })
}

/// Which of the `lost` writes were dropped on purpose, and said so:
/// - git put the version that came in after them (`run_end`: the last of their
///   run), moving from a commit that held them: a reset, a revert, a rebase or a
///   merge whose result is that version; or a stash not popped yet that holds them
///   and left it, made after them;
/// - `plan doctor --discard-lost` took a version that already lacked them as meant.
///
/// Bytes alone say neither: a person's `git checkout -- plan.md` reads as an
/// editor's older copy until they say so.
fn settled(
    repo: &crate::git::Repo,
    rel: &std::path::Path,
    src: &str,
    journaled: &[Written],
    changes: &[Change],
    lost: &[usize],
    run_end: &dyn Fn(usize) -> usize,
) -> std::collections::HashSet<usize> {
    use std::collections::HashSet;
    let mut out = HashSet::new();
    let Some(oldest) = lost.first().map(|&i| journaled[i].ts) else {
        return out;
    };
    let now = crate::git::blob_id(src.as_bytes());
    let came_in = |i: usize| {
        let end = run_end(i);
        journaled
            .get(end + 1)
            .map_or(Some(now.as_str()), |next| next.before.as_deref())
    };
    let put = crate::git::put_versions(&repo.root, rel, oldest, crate::clock::epoch_seconds());
    // Only what the commit it moved from held: a write an editor lost before it is
    // still the editor's.
    for (when, blob, was) in &put {
        let lacked: HashSet<usize> = replay::lost(was, changes).into_iter().collect();
        out.extend(lost.iter().filter(|&&i| {
            *when >= journaled[i].ts && !lacked.contains(&i) && came_in(i) == Some(blob.as_str())
        }));
    }
    for (when, left, held) in crate::git::stashed(&repo.root, rel, oldest) {
        let still: HashSet<usize> = replay::lost(&held, changes).into_iter().collect();
        out.extend(lost.iter().filter(|&&i| {
            when >= journaled[i].ts && !still.contains(&i) && came_in(i) == Some(left.as_str())
        }));
    }
    let read = crate::git::blob_reader(&repo.root);
    for (k, w) in journaled.iter().enumerate().filter(|(_, w)| meant(w)) {
        let text = match (&w.change, &read) {
            (Change::Whole(text), _) => Some(text.clone()),
            (Change::WholeBlob(id), Some(read)) => read(id),
            _ => None,
        };
        let Some(text) = text else { continue };
        let lacked: HashSet<usize> = replay::lost(&text, &changes[..k]).into_iter().collect();
        out.extend(lost.iter().filter(|i| lacked.contains(i)));
    }
    out
}

/// Whether `w` is a person's word that the file as it was is meant (`plan doctor
/// --discard-lost`, [`crate::store::Store::mark_meant`]): a whole-file write that
/// changed nothing.
fn meant(w: &Written) -> bool {
    matches!(w.change, Change::Whole(_) | Change::WholeBlob(_))
        && w.before.as_deref() == Some(w.after.as_str())
}

/// Whether a journaled write does more than a repair takes on the journal's word
/// (which anyone with a shell can write): it appends notes or a goal's added,
/// started or reopened line, adds subtasks or a goal, ticks or unticks a subtask,
/// starts or reopens a goal; anything else (a status made done or cancelled, a
/// sign-off or cancel line, a contract line changed, a line deleted, text at the
/// file's end) only a command of plan's makes again.
fn beyond_a_repair(change: &Change) -> bool {
    use crate::plan::patch::Edit;
    let subtask = |l: &str| l.starts_with("- [ ] ") || l.starts_with("- [x] ");
    let Change::Steps(steps) = change else {
        return true;
    };
    !steps.iter().all(|s| match &s.edit {
        Edit::AppendLog { lines } => lines.iter().all(|l| a_repairs_log_line(l)),
        Edit::CreateLog | Edit::AppendGoal { .. } => true,
        Edit::InsertAfter { lines, .. } | Edit::InsertBefore { lines, .. } => {
            lines.iter().all(|l| subtask(l))
        }
        Edit::Replace { expect, new, .. } => {
            (subtask(expect) && subtask(new) && expect[6..] == new[6..])
                || (expect == "status: open" && new == "status: active")
                // A reopen: less done, never more (a merge that dropped one must not
                // leave the goal done on a sign-off the reopen voided).
                || (expect == "status: done" && (new == "status: active" || new == "status: open"))
        }
        Edit::Delete { .. } | Edit::AppendEnd { .. } => false,
    })
}

/// Whether a journaled log line is one a repair makes again on the journal's
/// word: a note, or a goal added, started or reopened (a reopen makes a goal less
/// done). A sign-off, a cancel, an approval or a CI verdict is written by its own
/// command after its own checks,
/// and a forged one would stand in the log as if made (red team on af406ac: a
/// forged sign-off line was made again, and `plan lint` saw nothing wrong).
fn a_repairs_log_line(line: &str) -> bool {
    use crate::plan::event::Event;
    let log = format!("## Log\n{line}\n");
    let plan = crate::plan::model::parse(&log);
    plan.log.iter().all(|entry| {
        matches!(
            Event::parse(entry.text),
            None | Some(Event::Added { .. } | Event::Started { .. } | Event::Reopened { .. })
        )
    })
}

/// `change` without the log lines it appended.
fn without_log_lines(change: &Change) -> Change {
    use crate::plan::patch::Edit;
    match change {
        Change::Steps(steps) => Change::Steps(
            steps
                .iter()
                .filter(|s| !matches!(s.edit, Edit::AppendLog { .. }))
                .cloned()
                .collect(),
        ),
        other => other.clone(),
    }
}

/// Whether `text` is a whole plan to rebuild from: not cut ([`crate::store::looks_cut`]),
/// holding none of git's conflict markers (a commit taken mid-merge holds two
/// plans between them) and one `# Plan:` line (two plans in one file, as a merge
/// resolved by keeping both sides leaves them: every write refuses it, and so
/// would every write on a rebuild from it).
fn is_whole(text: &str) -> bool {
    !text.is_empty()
        && !crate::store::looks_cut(text)
        && !text.lines().any(|l| {
            l.starts_with("<<<<<<< ") || l.starts_with(">>>>>>> ") || l.trim_end() == "======="
        })
        && text.lines().filter(|l| l.starts_with("# Plan:")).count() <= 1
}

/// Where in `journaled` the writes the whole version `rev` lacks start, and
/// whether the journal showed it: after the last write that left the file as the
/// version holds it, or at the last one made on it. Else (a version no write of
/// plan's saw: a commit of a person's save) the writes made while HEAD was at its
/// commit or at one it does not reach.
fn start_after(
    root: &std::path::Path,
    journaled: &[Written],
    rev: &crate::git::Revision,
) -> (usize, bool) {
    let blob = crate::git::blob_id(rev.content.as_bytes());
    let by_content = journaled.iter().enumerate().rev().find_map(|(i, w)| {
        if w.after == blob {
            Some(i + 1)
        } else if w.before.as_deref() == Some(blob.as_str()) {
            Some(i)
        } else {
            None
        }
    });
    if let Some(start) = by_content {
        return (start, true);
    }
    let after = |w: &Written| match &w.commit {
        None => false,
        Some(c) => {
            *c == rev.commit || !crate::git::is_ancestor(root, c, &rev.commit).unwrap_or(false)
        }
    };
    (
        journaled.iter().position(after).unwrap_or(journaled.len()),
        false,
    )
}

/// The log lines a journaled write appended, as it wrote them.
fn logged_by(w: &Written) -> Vec<String> {
    use crate::plan::patch::Edit;
    match &w.change {
        Change::Steps(steps) => steps
            .iter()
            .filter_map(|s| match &s.edit {
                Edit::AppendLog { lines } => Some(lines.clone()),
                _ => None,
            })
            .flatten()
            .collect(),
        Change::Whole(_) | Change::TooBig | Change::WholeBlob(_) => Vec::new(),
    }
}

impl Cut {
    /// What it is rebuilt from, in words.
    fn source(&self) -> String {
        let writes = crate::plan::text::count(self.replayed, "write");
        let mut out = match &self.from {
            Some(from) => format!("{from} and the {writes} plan journaled since"),
            None => format!("the {writes} plan journaled (git holds no whole version)"),
        };
        if self.from_cut > 0 {
            out.push_str(&format!(
                ", with the {} only the cut file holds",
                crate::plan::text::count(self.from_cut, "log line")
            ));
        }
        out
    }

    /// The finding `plan doctor` reports; `keep` is where `--fix` keeps the cut file.
    pub fn finding(&self, name: &str, keep: &str) -> Finding {
        let mut message = format!(
            "{name} is cut: it {} against {}{}; {}",
            self.lost.0,
            self.source(),
            self.lost.1,
            match self.at_line_end {
                false => "plan writes nothing onto it",
                true =>
                    "it ends at a line's end, so plan's writes took it (a save cut short there?)",
            }
        );
        if !self.skipped.is_empty() {
            message.push_str(&format!(
                "; {} of those cannot be made again and will be listed",
                crate::plan::text::count(self.skipped.len(), "write")
            ));
        }
        if self.partial {
            message.push_str("; the journal was moved aside since, so older writes may be missing");
        }
        Finding {
            rule: Rule::CutFile,
            severity: Severity::Error,
            line: 0,
            message,
            fix: format!(
                "`plan doctor --fix` rebuilds it from those, shows the diff and keeps this file as {keep}; if you cut it on purpose, {}",
                match self.at_line_end {
                    false => "end its last line",
                    true => "commit it",
                }
            ),
            fixable: true,
            repair: Repair::Rebuild {
                done: format!(
                    "rebuilt from {}; the cut file is kept as {keep}",
                    self.source()
                ),
            },
        }
    }

    /// The diff from the cut file `src` to the rebuilt one, and the writes that
    /// could not be made again, as `--fix` shows them.
    pub fn shown(&self, src: &str, name: &str, keep: &str) -> String {
        shown(
            src,
            &self.text,
            &self.skipped,
            &format!("{keep} (cut)"),
            name,
        )
    }
}

/// The diff from `src` (named `was`) to `text`, and the writes that could not be
/// made again.
fn shown(
    src: &str,
    text: &str,
    skipped: &[(String, Vec<String>)],
    was: &str,
    name: &str,
) -> String {
    let diff = similar::TextDiff::from_lines(src, text);
    let mut out = diff
        .unified_diff()
        .context_radius(2)
        .header(was, &format!("{name} (rebuilt)"))
        .to_string();
    for (why, lines) in skipped {
        out.push_str(&format!("not made again ({why}):"));
        match lines.is_empty() {
            true => out.push_str(" a write without a log line\n"),
            false => out.push_str(&format!("\n  {}\n", lines.join("\n  "))),
        }
    }
    // plan.md text: escaped, line by line (the line ends are the diff's).
    out.lines()
        .map(|l| crate::plan::text::escape_controls(l).into_owned() + "\n")
        .collect()
}

/// How a person says lost writes were taken out on purpose.
const DISCARD: &str = "if they were taken out on purpose, `plan doctor --discard-lost` says so and leaves the file as it is";

impl Stale {
    /// The finding `plan doctor` reports; `keep` is where `--fix` keeps the file.
    pub fn finding(&self, name: &str, keep: &str) -> Finding {
        let writes = crate::plan::text::count(self.lost, "write");
        let mut message = format!(
            "{name} lacks {writes} plan acknowledged since {}: a version read before them was saved over them (an editor's save), or they were taken out on purpose in a way git keeps no trace of (`git checkout -- {name}`, `git reset --hard`, a line deleted by hand)",
            self.since
        );
        if self.replayed == 0 {
            // --fix shows nothing then: why is said here.
            let why: Vec<&str> = self.skipped.iter().map(|(why, _)| why.as_str()).collect();
            message.push_str(&format!("; none can be made again: {}", why.join("; ")));
        } else if !self.skipped.is_empty() {
            message.push_str(&format!(
                "; {} of those cannot be made again and will be listed",
                crate::plan::text::count(self.skipped.len(), "write")
            ));
        }
        Finding {
            rule: Rule::LostWrites,
            severity: Severity::Warning,
            line: 0,
            message,
            fix: match self.replayed {
                0 => format!(
                    "nothing for `plan doctor --fix` to make again: run plan's own command for each; {DISCARD}"
                ),
                _ => format!(
                    "`plan doctor --fix` makes them again on the file as it is, shows the diff and keeps this version as {keep}; {DISCARD}"
                ),
            },
            fixable: self.replayed > 0,
            repair: Repair::Rebuild {
                done: format!(
                    "made {} again; the file as it was is kept as {keep}",
                    crate::plan::text::count(self.replayed, "lost write")
                ),
            },
        }
    }

    /// The diff from `src` to the file with the writes made again, and those that
    /// could not be, as `--fix` shows them.
    pub fn shown(&self, src: &str, name: &str, keep: &str) -> String {
        shown(src, &self.text, &self.skipped, keep, name)
    }
}

/// Where the file as it was is kept, beside it: `plan.md.cut-YYYY-MM-DD-HHMM`
/// (`word` is `cut` or `stale`), with `-2`, `-3`, … when that is taken. The path,
/// and the name messages give it.
pub fn keep_path(ctx: &Ctx, word: &str) -> Result<(PathBuf, String)> {
    let now = crate::clock::now()?.stamp().replace([' ', ':'], "-");
    let now = now
        .rsplit_once('-')
        .map_or(now.clone(), |(d, m)| format!("{d}{m}"));
    for n in 1.. {
        let tail = match n {
            1 => format!(".{word}-{now}"),
            n => format!(".{word}-{now}-{n}"),
        };
        let mut path = ctx.store.path.clone().into_os_string();
        path.push(&tail);
        let path = PathBuf::from(path);
        if std::fs::symlink_metadata(&path).is_err() {
            return Ok((path, format!("{}{tail}", ctx.store.name)));
        }
    }
    unreachable!("some name is free")
}

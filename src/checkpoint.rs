//! The checkpoints sign-offs keep (one ref per accepted sign-off, under
//! `refs/plan/checkpoints/`): recording one, reading a ref's goal and time, and
//! what a rewind to one puts back. `plan checkpoints` lists and moves them.

use std::path::Path;

use crate::clock::Now;
use crate::git::{self, CHECKPOINTS, Saved};

/// What `--push` and `--fetch` move: every checkpoint, under the same name. No `+`:
/// a checkpoint is written once, and one of the same name elsewhere is another
/// sign-off's (two clones, one goal, one minute), not a newer version of it.
pub const REFSPEC: &str = "refs/plan/checkpoints/*:refs/plan/checkpoints/*";

/// Whether a rewind would put `path` back: not the plan file, nothing under
/// `.plan/` and no other plan file. `plan checkpoints` counts these.
pub fn rewinds(root: &Path, plan_rel: Option<&str>, path: &str) -> bool {
    !crate::plan::own::is_own(path.as_bytes(), plan_rel.map(str::as_bytes))
        && !is_plan_file(root, path)
}

/// Another plan (`--file`) in the repository: its log is history as plan.md's is,
/// and reverting it would drop the lines logged since (a reopen among them, making
/// an old sign-off count again), so a rewind leaves it as it is.
pub fn is_plan_file(root: &Path, path: &str) -> bool {
    path.ends_with(".md")
        && std::fs::read_to_string(root.join(path)).is_ok_and(|text| {
            let plan = crate::plan::model::parse(&text);
            plan.objective.is_some() && plan.log_heading.is_some()
        })
}

/// The goal a checkpoint was signed off for.
pub fn goal_of(saved: &Saved) -> &str {
    let rest = saved
        .reference
        .strip_prefix(CHECKPOINTS)
        .unwrap_or(&saved.reference);
    rest.rsplit_once('/').map_or(rest, |(goal, _)| goal)
}

/// `YYYY-MM-DD HH:MM` from the ref's `YYYYMMDD-HHMM` stamp (its own text if it is
/// not one).
pub fn time_of(saved: &Saved) -> String {
    let stamp = saved.stamp();
    match (
        stamp.get(..4),
        stamp.get(4..6),
        stamp.get(6..8),
        stamp.get(9..11),
        stamp.get(11..13),
    ) {
        (Some(y), Some(m), Some(d), Some(h), Some(min))
            if stamp.as_bytes().get(8) == Some(&b'-') =>
        {
            format!("{y}-{m}-{d} {h}:{min}")
        }
        _ => stamp.to_string(),
    }
}

/// Keeps the working tree as `id` is signed off: `commit`, the tree the judge
/// read, or else the working tree now. A checkpoint that cannot be written costs
/// the way back to it, not the sign-off: the transcript is the proof.
pub fn record(root: &Path, id: &str, now: &Now, commit: Option<&str>) -> Option<Saved> {
    let base = format!("{CHECKPOINTS}{id}/{}", now.compact());
    let message = format!("plan: checkpoint of {id}");
    let saved = match commit {
        Some(commit) => git::save_commit(root, &base, commit, &message),
        None => git::save_working_tree(root, &base, &message),
    };
    match saved {
        Ok(saved) => Some(saved),
        Err(e) => {
            let why = match crate::disk::full(&e, &root.join(".git")) {
                Some(full) => format!("{full}: {e:#}"),
                None => format!("{e:#}"),
            };
            crate::out::warn(&format!(
                "plan: warning: no checkpoint recorded for {id} ({why}); plan rewind cannot return to this sign-off"
            ));
            None
        }
    }
}

//! `plan checkpoints`: the working trees sign-offs kept (one ref per accepted
//! sign-off, under `refs/plan/checkpoints/`), each with what changed since. Also
//! records one, for `plan complete`.

use anyhow::Result;

use crate::clock::Now;
use crate::ctx::Env;
use crate::exit::OK;
use crate::git::{self, CHECKPOINTS, Saved};
use crate::out::println;

/// List the sign-offs' checkpoints: goal, time, commit, files changed since
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as a JSON array (goal, time, commit, ref, changed)
    #[arg(long)]
    pub json: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let root = &env.ctx()?.repo()?.root;
    let all = git::saved(root, CHECKPOINTS)?;
    let commits: Vec<&str> = all.iter().map(|s| s.commit.as_str()).collect();
    let changed = git::changed_since_each(root, &commits, &|_| true)?;
    let rows: Vec<(&Saved, Vec<String>)> = all
        .iter()
        .zip(changed)
        .map(|(saved, changes)| (saved, changes.into_iter().map(|c| c.path).collect()))
        .collect();
    if args.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|(saved, changed)| {
                serde_json::json!({
                    "goal": goal_of(saved),
                    "time": time_of(saved),
                    "commit": saved.commit,
                    "ref": saved.reference,
                    "changed": changed,
                })
            })
            .collect();
        return println(&serde_json::to_string_pretty(&json)?).map(|()| OK);
    }
    if rows.is_empty() {
        println("no checkpoints yet: each accepted sign-off (plan complete) records one")?;
        return Ok(OK);
    }
    for (saved, changed) in &rows {
        let since = match changed.len() {
            0 => "no files changed since".to_string(),
            1 => "1 file changed since".to_string(),
            n => format!("{n} files changed since"),
        };
        println(&format!(
            "{}  {}  {}  {since}",
            goal_of(saved),
            time_of(saved),
            saved.short()
        ))?;
    }
    Ok(OK)
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

/// Keeps the working tree as `id` is signed off. A checkpoint that cannot be
/// written costs the way back to it, not the sign-off: the transcript is the proof.
pub fn record(root: &std::path::Path, id: &str, now: &Now) -> Option<Saved> {
    let base = format!("{CHECKPOINTS}{id}/{}", now.compact());
    match git::save_working_tree(root, &base, &format!("plan: checkpoint of {id}")) {
        Ok(saved) => Some(saved),
        Err(e) => {
            eprintln!(
                "plan: warning: no checkpoint recorded for {id} ({e:#}); plan rewind cannot return to this sign-off"
            );
            None
        }
    }
}

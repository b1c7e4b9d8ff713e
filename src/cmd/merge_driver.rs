//! `plan merge-driver`: what git runs to merge plan.md when `.gitattributes` says
//! `merge=plan` (`plan install git` sets it up). It writes the merge into OURS and
//! keeps git's contract: exit 0 when clean, 1 when conflicts are left in it.

use std::path::PathBuf;

use anyhow::Result;

use crate::atomic;
use crate::ctx::Env;
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::plan::merge;

/// Merge three versions of plan.md goal by goal (git runs it; see `plan install git`)
#[derive(Debug, clap::Args)]
#[command(hide = true)]
pub struct Args {
    /// The common ancestor's version (git's %O)
    pub base: PathBuf,
    /// Our version; the merge is written here (git's %A)
    pub ours: PathBuf,
    /// Their version (git's %B)
    pub theirs: PathBuf,
    /// The path being merged, for messages (git's %P)
    pub path: Option<String>,
}

pub fn run(_env: &Env, args: Args) -> Result<u8> {
    let read = |p: &PathBuf| {
        std::fs::read(p).map_err(|e| Exit::env(format!("cannot read {}: {e}", p.display())))
    };
    let (base, ours, theirs) = (read(&args.base)?, read(&args.ours)?, read(&args.theirs)?);
    let name = args.path.as_deref().unwrap_or("plan.md");
    let merged = merge::merge_files(&base, &ours, &theirs);
    let text = merged.bytes;
    let conflicts: Vec<String> = merged
        .conflicts
        .iter()
        .map(|c| match &c.goal {
            Some(goal) => format!("{} of goal {goal}", c.part),
            None => c.part.clone(),
        })
        .collect();
    // Whole or not at all: a write cut short (a full disk) must leave OURS as git
    // gave it, for the registered fallback (`git merge-file`) reads it as ours.
    let how = atomic::Replace {
        create_dirs: false,
        fsync: false,
        sync_dir: false,
        prefix: ".plan-merge-",
        ..atomic::Replace::DURABLE
    };
    atomic::replace(&args.ours, &text, &how).map_err(|e| {
        let why = match e {
            atomic::Failure::ReadOnly => "it is read-only".to_string(),
            atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => e.to_string(),
        };
        Exit::env(format!("cannot write {}: {why}", args.ours.display()))
    })?;
    if conflicts.is_empty() {
        return Ok(OK);
    }
    crate::out::warn(&format!(
        "plan: {name}: {} conflict{} left: {}\n  hint: keep what each side meant between the markers, delete the marker lines, then `plan lint` and `git add {name}`",
        conflicts.len(),
        if conflicts.len() == 1 { "" } else { "s" },
        conflicts.join("; ")
    ));
    Ok(CHECK_FAILED)
}

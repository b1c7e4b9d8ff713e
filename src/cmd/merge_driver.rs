//! `plan merge-driver`: what git runs to merge plan.md when `.gitattributes` says
//! `merge=plan` (`plan install git` sets it up). It writes the merge into OURS and
//! keeps git's contract: exit 0 when clean, 1 when conflicts are left in it.

use std::path::PathBuf;

use anyhow::Result;

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
    let (text, conflicts) = match (
        std::str::from_utf8(&base),
        std::str::from_utf8(&ours),
        std::str::from_utf8(&theirs),
    ) {
        (Ok(b), Ok(o), Ok(t)) => {
            let m = merge::merge(b, o, t);
            let found: Vec<String> = m
                .conflicts
                .iter()
                .map(|c| match &c.goal {
                    Some(goal) => format!("{} of goal {goal}", c.part),
                    None => c.part.clone(),
                })
                .collect();
            (m.text.into_bytes(), found)
        }
        // Not text plan reads: both sides whole between markers, nothing lost.
        _ => {
            let mut out = format!("{} ours\n", merge::OURS).into_bytes();
            out.extend_from_slice(&ours);
            if !ours.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(format!("{}\n", merge::SPLIT).as_bytes());
            out.extend_from_slice(&theirs);
            if !theirs.ends_with(b"\n") {
                out.push(b'\n');
            }
            out.extend_from_slice(format!("{} theirs\n", merge::THEIRS).as_bytes());
            (out, vec!["the whole file (not UTF-8)".to_string()])
        }
    };
    std::fs::write(&args.ours, text)
        .map_err(|e| Exit::env(format!("cannot write {}: {e}", args.ours.display())))?;
    if conflicts.is_empty() {
        return Ok(OK);
    }
    crate::out::warn(&format!(
        "plan: {name}: {} conflict{} left: {}\nhint: keep what each side meant between the markers, delete the marker lines, then `plan lint` and `git add {name}`",
        conflicts.len(),
        if conflicts.len() == 1 { "" } else { "s" },
        conflicts.join("; ")
    ));
    Ok(CHECK_FAILED)
}

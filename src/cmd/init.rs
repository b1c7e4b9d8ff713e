//! `plan init`: create plan.md with its objective and an empty log.

use std::path::Path;

use anyhow::Result;

use crate::clock;
use crate::ctx::{Ctx, Env};
use crate::exec;
use crate::exit::OK;
use crate::hosts::Host;
use crate::plan::ops::one_line;

/// Create plan.md at the repository root; refuses one that is not empty
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The plan's one-line objective [default: the repository's directory name]
    pub objective: Option<String>,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    if let Some(o) = &args.objective {
        crate::service::plain("the objective", &one_line(o))?;
    }
    let objective = args
        .objective
        .map(|o| one_line(&o))
        .filter(|o| !o.is_empty())
        .or_else(|| {
            let root = ctx.repo.as_ref()?.root.clone();
            root.file_name().map(|n| n.to_string_lossy().into_owned())
        })
        .unwrap_or_else(|| "untitled".to_string());
    let now = clock::now()?;
    let content = format!(
        "# Plan: {objective}\n\n## Log\n- {} plan created\n",
        now.stamp()
    );
    // Another tool's plan already there: what to do with it, not only "exists".
    if ctx.store.path.exists()
        && let Ok(text) = ctx.store.read()
        && let Some(line) =
            crate::plan::foreign::line(&crate::plan::model::parse(&text), &ctx.store.name)
    {
        return Err(crate::exit::Exit::usage_hint(
            format!("{} already exists", ctx.store.name),
            format!("{line}; nothing was changed"),
        ));
    }
    ctx.store.create(&content)?;
    ctx.say(&format!("created {}: {objective}", shown(ctx)))?;
    ctx.say(&next_steps(&hosts_on_path()))?;
    Ok(OK)
}

/// What a new plan needs next: a goal with a contract, and an agent hooked up.
const NEXT: &str = "next: add a goal with a contract, then hook up your agent
  plan add \"First goal\" --done-when \"what a reviewer can check\"";

/// The hosts `plan install` can hook up whose CLI is on PATH, by the names
/// `plan install` takes: a newcomer learns which of their agents plan knows.
fn hosts_on_path() -> Vec<&'static str> {
    Host::ALL
        .into_iter()
        .filter(|h| exec::find_on_path(h.spec().judge.program).is_some())
        .map(Host::name)
        .collect()
}

/// The next steps, the install line naming the first host found on PATH, or every
/// host when none is found.
fn next_steps(found: &[&str]) -> String {
    match found {
        [] => format!(
            "{NEXT}\n  plan install claude    # or codex, copilot, droid, gemini, opencode, pi, qwen; plan install --all\n  (no agent CLI of these is on PATH yet)"
        ),
        [one] => format!("{NEXT}\n  plan install {one}    # found on PATH: {one}"),
        [first, ..] => format!(
            "{NEXT}\n  plan install {first}    # found on PATH: {}; plan install --all hooks up each",
            found.join(", ")
        ),
    }
}

/// The new file as the user finds it from where they ran `plan init`: from a
/// subdirectory, `../../plan.md (the repository root)`.
fn shown(ctx: &Ctx) -> String {
    let name = &ctx.store.name;
    let Some(root) = ctx.repo.as_ref().map(|r| &r.root) else {
        return name.clone();
    };
    if ctx.store.path != root.join("plan.md") {
        return name.clone();
    }
    let canonical = |p: &Path| std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
    let depth = canonical(&ctx.cwd)
        .strip_prefix(canonical(root))
        .map_or(0, |below| below.components().count());
    if depth == 0 {
        return name.clone();
    }
    format!("{}{name} (the repository root)", "../".repeat(depth))
}

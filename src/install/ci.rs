//! `plan install ci` / `plan uninstall ci`: plan's pull-request gate as a GitHub
//! Actions workflow, `.github/workflows/plan.yml`. Writes only its own file, and
//! never over one a person edited or wrote.

use std::path::Path;

use anyhow::Result;

use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::install::files::write_atomic;
use crate::out::print;

/// The workflow, as `plan install ci` writes it.
pub const WORKFLOW: &str = include_str!("../../integrations/github/plan.yml");

/// Where the workflow goes, from the repository root.
pub const PATH: &str = ".github/workflows/plan.yml";

/// The first line of a workflow plan wrote: what uninstall and a rewrite look for.
const MARK: &str = "# Written by `plan install ci`";

fn workflow_path(repo: Option<&Repo>) -> Result<std::path::PathBuf> {
    let repo = repo.ok_or_else(|| {
        Exit::env_hint(
            "not inside a git repository",
            "run it in the repository whose pull requests plan should check",
        )
    })?;
    Ok(repo.root.join(PATH))
}

fn read(path: &Path) -> Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Exit::env(format!("cannot read {PATH}: {e}"))),
    }
}

/// Writes the workflow; a second run changes no byte, and an edited one is kept.
pub fn install(repo: Option<&Repo>, global: bool) -> Result<u8> {
    no_global(global)?;
    let path = workflow_path(repo)?;
    match read(&path)? {
        Some(text) if text == WORKFLOW => {
            print(&format!("{PATH}: plan's workflow is already current\n"))?;
            return Ok(OK);
        }
        Some(text) => {
            let whose = if text.starts_with(MARK) {
                "plan's workflow, edited since"
            } else {
                "not plan's workflow"
            };
            print(&format!(
                "{PATH}: {whose}; left as it is\n  hint: to write plan's current one, plan uninstall ci (or remove the file), then plan install ci\n"
            ))?;
            return Ok(OK);
        }
        None => {}
    }
    write_atomic(&path, PATH, WORKFLOW)?;
    print(&format!(
        "{PATH}: wrote plan's pull-request gate\n  next: set PLAN_GIT and PLAN_REV in it to plan's source and the commit to build, make its `judge` job a required check, add the judge's key as the repository secret ANTHROPIC_API_KEY (and a random PLAN_RECORD_KEY, `openssl rand -hex 32`, so CI's accepts reach every clone after a merge), and commit it\n"
    ))?;
    Ok(OK)
}

/// Removes the workflow if plan wrote it: as written, or edited and committed as
/// it is (the edits stay in git's history). An edit not committed, and a file of
/// someone else's at that path, are left alone.
pub fn uninstall(repo: Option<&Repo>, global: bool) -> Result<u8> {
    no_global(global)?;
    let path = workflow_path(repo)?;
    let root = repo.map(|r| r.root.as_path()).unwrap_or(Path::new("."));
    let Some(text) = read(&path)? else {
        print(&format!("{PATH}: no file, nothing to remove\n"))?;
        return Ok(OK);
    };
    if !text.starts_with(MARK) {
        return Err(Exit::usage_hint(
            format!("{PATH} was not written by plan install ci; left as it is"),
            "remove it by hand if it is to go",
        ));
    }
    // Line endings aside: a checkout with `core.autocrlf` has CRLF where git
    // keeps LF.
    let lf = |t: &str| t.replace("\r\n", "\n");
    let committed_text = crate::git::file_at(root, "HEAD", Path::new(PATH))
        .ok()
        .flatten();
    let committed = match lf(&text) == WORKFLOW {
        true => false,
        false if committed_text.is_some_and(|c| lf(&c) == lf(&text)) => true,
        false => {
            return Err(Exit::usage_hint(
                format!("{PATH} is plan's workflow, edited since and not committed; left as it is"),
                "commit it first (its edits stay in git's history), or remove it by hand",
            ));
        }
    };
    crate::atomic::remove(&path).map_err(|e| Exit::env(format!("cannot remove {PATH}: {e}")))?;
    let kept = match committed {
        true => format!(" (as committed: `git show HEAD:{PATH}` has it)"),
        false => String::new(),
    };
    print(&format!("{PATH}: removed plan's workflow{kept}\n"))?;
    Ok(OK)
}

fn no_global(global: bool) -> Result<()> {
    if global {
        return Err(Exit::usage_hint(
            "a CI workflow belongs to one repository; there is no --global one",
            "run plan install ci in the repository",
        ));
    }
    Ok(())
}

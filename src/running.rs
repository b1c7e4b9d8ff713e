//! Whether a judge or drafting model is at work in a repository. Each holds a shared
//! lock on `<git-dir>/plan/running.lock` while it runs; `plan rewind` takes it
//! exclusively and refuses if it cannot, so files never move under a model reading
//! them. The kernel drops a lock with its process: a crash leaves nothing stale.

use std::fs::{File, TryLockError};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::exit::Exit;
use crate::git;

/// Held while it lives.
pub struct Running(#[expect(dead_code, reason = "held for its lock")] File);

fn open(root: &Path) -> Result<Option<(File, PathBuf)>> {
    let Some(repo) = git::discover(root)? else {
        return Ok(None);
    };
    let dir = repo.git_dir.join("plan");
    crate::atomic::make_dirs(&dir).with_context(|| format!("creating {}", dir.display()))?;
    let path = dir.join("running.lock");
    let file = crate::fsread::open_state(crate::fsread::StateOpen::Lock, &path)
        .with_context(|| format!("opening the lock {}", path.display()))?;
    Ok(Some((file, path)))
}

/// Marks a judge or draft as running in the repository at `root` (waits while a
/// rewind moves files). `None` outside a repository.
pub fn judge_or_draft(root: &Path) -> Result<Option<Running>> {
    let Some((file, path)) = open(root)? else {
        return Ok(None);
    };
    file.lock_shared()
        .with_context(|| format!("locking {}", path.display()))?;
    Ok(Some(Running(file)))
}

/// The repository to itself: refused while a judge or draft runs.
pub fn alone(root: &Path) -> Result<Running> {
    let (file, path) = open(root)?.context("not inside a git repository")?;
    match file.try_lock() {
        Ok(()) => Ok(Running(file)),
        Err(TryLockError::WouldBlock) => Err(Exit::env_hint(
            "a judge or draft is running in this repository (plan complete, plan draft or plan review --edit)",
            "wait for it to finish, then run this again",
        )),
        Err(TryLockError::Error(e)) => {
            Err(e).with_context(|| format!("locking {}", path.display()))
        }
    }
}

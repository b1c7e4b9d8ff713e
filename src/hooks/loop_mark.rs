//! A mark that a work loop was started, kept outside `.git/plan` (`<git-dir>/plan-loop`,
//! holding the loop's start): removing the whole of `.git/plan` takes the loop and
//! the sessions' records of it together, and the mark is what is left to say a
//! loop vanished. Best effort, as hooks are: a mark that cannot be written or read
//! costs only this check.

use std::path::{Path, PathBuf};

fn path(git_dir: &Path) -> PathBuf {
    git_dir.join("plan-loop")
}

/// Marks a loop started at `started` (`YYYY-MM-DD HH:MM`), claimed by `owner`
/// once a session has claimed it.
pub fn set(git_dir: &Path, started: &str, owner: Option<&str>) {
    let how = crate::atomic::Replace {
        new_file: crate::atomic::NewFile::Private,
        prefix: ".plan-loop-",
        ..crate::atomic::Replace::DURABLE
    };
    let text = match owner {
        Some(owner) => format!("{started}\n{owner}\n"),
        None => format!("{started}\n"),
    };
    let _ = crate::atomic::replace(&path(git_dir), text.as_bytes(), &how);
}

/// The marked loop's start and the session that claimed it, and the mark gone.
pub fn take(git_dir: &Path) -> Option<(String, Option<String>)> {
    let file = path(git_dir);
    let marked = read(git_dir)?;
    crate::atomic::remove(&file).ok()?;
    Some(marked)
}

/// The marked loop's start and the session that claimed it, the mark left as it is.
pub fn read(git_dir: &Path) -> Option<(String, Option<String>)> {
    // A regular file only, read without blocking: a named pipe here must not
    // wedge the stop hook.
    let text = crate::fsread::text(&path(git_dir), crate::fsread::CONFIG).ok()?;
    let mut lines = text.lines().map(str::trim).filter(|l| !l.is_empty());
    let started = lines.next()?.to_string();
    Some((started, lines.next().map(str::to_string)))
}

/// The loop ended or was cleared: nothing vanished.
pub fn forget(git_dir: &Path) {
    let _ = crate::atomic::remove(path(git_dir));
}

//! The floor for a new log line's stamp: the newest stamp in plan.md's log, or in
//! `<git-dir>/plan/stamp`, where `plan goal` keeps the newest loop start (a loop's
//! start is not in the log, and no line is stamped before the loop it is written
//! in). Only loop starts: the kept stamp is the repository's, and a log line on
//! one branch does not set the floor of another's. Best effort: a floor that
//! cannot be read or kept is none, and a write never fails for it.

use std::path::{Path, PathBuf};

use crate::plan::model::LogEntry;
use crate::plan::stamps;

/// Where the kept stamp is, beside the lock plan.md's writers take: only in a
/// repository (`<git-dir>/plan/plan.lock`).
fn kept(lock: &Path) -> Option<PathBuf> {
    (lock.file_name()? == "plan.lock").then(|| lock.with_file_name("stamp"))
}

/// The kept stamp, if it reads as one.
fn read(lock: &Path) -> Option<String> {
    // A regular file only, read without blocking (a named pipe would hold every
    // write).
    let text = crate::fsread::text(&kept(lock)?, crate::fsread::CONFIG).ok()?;
    let stamp = text.trim();
    // A real minute only: `2026-13-45 99:99` has a stamp's shape, and as a floor
    // it would stamp every line after it.
    let real = jiff::civil::DateTime::strptime("%Y-%m-%d %H:%M", stamp).is_ok();
    // Nor one more than a day ahead: kept by an earlier plan from a clock set
    // ahead, it refused every later line, and lint, which reads the log, could not
    // name it.
    let ahead = crate::clock::is_ahead(stamp);
    (real && !ahead && stamp.len() == 16 && crate::plan::text::starts_with_stamp(stamp.as_bytes()))
        .then(|| stamp.to_string())
}

/// The newest of `log`'s stamps and the kept one.
pub fn floor(lock: &Path, log: &[LogEntry<'_>]) -> Option<String> {
    let in_log = stamps::newest(log).map(str::to_string);
    in_log.max(read(lock))
}

/// Keeps `stamp` when it is newer than the kept one.
fn raise_to(lock: &Path, stamp: &str) {
    let Some(path) = kept(lock) else { return };
    if crate::clock::is_ahead(stamp) {
        return;
    }
    if read(lock).is_some_and(|was| was.as_str() >= stamp) {
        return;
    }
    if let Some(dir) = path.parent() {
        let _ = crate::atomic::make_dirs(dir);
    }
    let how = crate::atomic::Replace {
        new_file: crate::atomic::NewFile::Private,
        fsync: false,
        sync_dir: false,
        prefix: ".stamp-",
        ..crate::atomic::Replace::DURABLE
    };
    let _ = crate::atomic::replace(&path, format!("{stamp}\n").as_bytes(), &how);
}

/// Keeps `stamp` (a loop's start) for the plan.md in the repository at `git_dir`.
pub fn raise_in(git_dir: &Path, stamp: &str) {
    raise_to(&git_dir.join("plan").join("plan.lock"), stamp);
}

//! Where the hooks' state lock is taken when `.git/plan/state.lock` cannot be: a
//! directory (or a pipe) put in its place made every hook fail open with "hook
//! skipped" while `plan goal status` said the loop was running, so a running loop
//! ended at the next stop for one `mkdir`. Then the hooks lock `.git/plan` itself,
//! so they and the loop go on, and the status line and `plan goal status` say what
//! is wrong and how to put it right ([`State::lock_trouble`]).
//!
//! [`State::lock_trouble`]: super::state::State::lock_trouble

use std::fs::{self, File, OpenOptions};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::Path;

/// The lock's file name under `.git/plan`.
pub const NAME: &str = "state.lock";

/// `dir` (`.git/plan`) opened to be locked in place of its `state.lock`, when that is
/// there but not a regular file and `dir` can be written: where `.git/plan` is
/// read-only, no lock is taken and the hooks answer read-only, as they did. Every
/// hook finds the same thing there, so all of them lock the same directory.
pub fn in_place_of(dir: &Path) -> Option<File> {
    let lock = dir.join(NAME);
    fs::symlink_metadata(&lock).ok()?;
    if fs::metadata(&lock).is_ok_and(|m| m.is_file()) {
        return None;
    }
    rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).ok()?;
    OpenOptions::new()
        .read(true)
        .custom_flags((rustix::fs::OFlags::DIRECTORY | rustix::fs::OFlags::NONBLOCK).bits() as i32)
        .open(dir)
        .ok()
}

/// What keeps the hooks from their lock, said for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trouble {
    /// For `plan goal status`: what is wrong, what the hooks do, what to do.
    pub long: String,
    /// For the status line.
    pub short: String,
    /// Whether the hooks lock `.git/plan` instead and keep the loop.
    pub in_place: bool,
}

impl Trouble {
    /// `shown`: `.git/plan` as the person reads it; `error`: why `state.lock` could
    /// not be opened; `in_place`: the hooks lock `.git/plan` instead.
    pub fn new(shown: &Path, error: &dyn std::fmt::Display, in_place: bool) -> Trouble {
        let lock = shown.join(NAME);
        let lock = lock.display();
        let dir = shown.display();
        if in_place {
            Trouble {
                long: format!(
                    "{lock} is not a file plan can lock ({error}): the hooks lock {dir} instead, so they and the work loop go on; remove it with `rm -r {lock}`"
                ),
                short: format!("⚠ {lock} is not a file: rm -r it"),
                in_place,
            }
        } else {
            Trouble {
                long: format!(
                    "the hooks cannot keep their state ({lock}: {error}): every stop is let go, so no work loop holds here until {dir} is a writable directory again"
                ),
                short: format!("⚠ hooks cannot keep the loop: {dir} cannot be written"),
                in_place,
            }
        }
    }
}

//! Where the hooks' state lock is taken when `.git/plan/state.lock` cannot be: a
//! directory (or a pipe) put in its place made every hook fail open with "hook
//! skipped" while `plan goal status` said the loop was running, so a running loop
//! ended at the next stop for one `mkdir`. Then the hooks lock `.git/plan` itself,
//! so they and the loop go on, and the status line and `plan goal status` say what
//! is wrong and how to put it right ([`State::lock_trouble`]).
//!
//!
//! And how the lock is waited for: a process that holds it (`flock -x
//! .git/plan/state.lock sleep 30`) made every stop and prompt hook wait as long. A
//! hook tries for [`HOOK_WAIT`], then fails open naming the lock ([`Held`]); a command
//! waits as long as it takes, and says after [`SAY_AFTER`] what it waits for.
//!
//! [`State::lock_trouble`]: super::State::lock_trouble

use std::fs::{self, File, OpenOptions, TryLockError};
use std::os::unix::fs::OpenOptionsExt as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

/// The lock's file name under `.git/plan`.
pub const NAME: &str = "state.lock";

/// `dir` (`.git/plan`) opened to be locked in place of its `state.lock`, when that is
/// there but not a regular file and `dir` can be written: where `.git/plan` is
/// read-only, no lock is taken and the hooks answer read-only, as they did. Every
/// hook finds the same thing there, so all of them lock the same directory.
pub fn in_place_of(dir: &Path) -> Option<File> {
    let lock = dir.join(NAME);
    // Not followed: a link to a regular file is no lock plan opens (state files are
    // opened without following links), so it is in the way as any other kind is.
    if fs::symlink_metadata(&lock).ok()?.is_file() {
        return None;
    }
    rustix::fs::access(dir, rustix::fs::Access::WRITE_OK).ok()?;
    #[expect(
        clippy::disallowed_methods,
        reason = "opens a directory read-only to lock it; nothing is written"
    )]
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

/// How long a hook tries for the lock: another hook keeps it for milliseconds, so a
/// lock held longer is held by something else, and the agent must not wait on it.
pub const HOOK_WAIT: Duration = Duration::from_millis(1500);

/// How long a command waits for a lock before it says what it waits for.
pub const SAY_AFTER: Duration = Duration::from_secs(2);

/// How a lock is waited for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wait {
    /// A hook's: for [`HOOK_WAIT`], then [`Held`].
    Bounded,
    /// A command's: as long as it takes, said after [`SAY_AFTER`].
    Patient,
}

/// Set in a hook's process: whatever it locks, deep in a report or a write, it
/// never waits past [`HOOK_WAIT`].
static IN_HOOK: AtomicBool = AtomicBool::new(false);

/// Marks this process as a hook's (`plan hook`).
pub fn in_hook() {
    IN_HOOK.store(true, Ordering::Relaxed);
}

impl Wait {
    /// How this process waits: bounded in a hook, else patient.
    pub fn here() -> Wait {
        if IN_HOOK.load(Ordering::Relaxed) {
            Wait::Bounded
        } else {
            Wait::Patient
        }
    }
}

/// A lock a hook could not have in [`HOOK_WAIT`]: its message is what the hook
/// says as it lets the agent go on.
#[derive(Debug)]
pub struct Held {
    pub path: PathBuf,
}

impl std::fmt::Display for Held {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let lock = self.path.display();
        write!(
            f,
            "{lock} is held by another process (a hook holds it for milliseconds; plan tried for {} s): see what holds it with `fuser -v {lock}` and end that process; until then every hook lets the agent go on",
            HOOK_WAIT.as_secs_f32()
        )
    }
}

impl std::error::Error for Held {}

/// Opens the lock file `path` (its folder made; no link followed, a pipe or a
/// device refused) and takes it exclusively, waited for as any command's lock.
/// `what` names it in messages ("the claims lock"). Held until the file is dropped.
pub fn hold(path: &Path, what: &str) -> Result<File> {
    if let Some(dir) = path.parent() {
        crate::atomic::make_dirs(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let file = crate::fsread::open_state(crate::fsread::StateOpen::Lock, path).map_err(|e| {
        match crate::fsread::refused(&e) {
            Some(_) => anyhow::anyhow!(
                "{} is not a regular file; remove it and run the command again",
                path.display()
            ),
            None => anyhow::Error::new(e).context(format!("opening {what} {}", path.display())),
        }
    })?;
    take(&file, path, false, Wait::here())?;
    Ok(file)
}

/// Takes the lock on `file` (`path`, as it is named), `shared` or exclusive, waiting
/// as `wait` says. Tries without blocking, with short sleeps: a blocking lock
/// cannot be given up on.
pub fn take(file: &File, path: &Path, shared: bool, wait: Wait) -> Result<()> {
    let started = Instant::now();
    let mut pause = Duration::from_millis(1);
    loop {
        let tried = if shared {
            file.try_lock_shared()
        } else {
            file.try_lock()
        };
        match tried {
            Ok(()) => return Ok(()),
            Err(TryLockError::Error(e)) => {
                return Err(e).with_context(|| format!("locking {}", path.display()));
            }
            Err(TryLockError::WouldBlock) => {}
        }
        let waited = started.elapsed();
        match wait {
            Wait::Bounded if waited >= HOOK_WAIT => {
                return Err(Held {
                    path: path.to_path_buf(),
                }
                .into());
            }
            Wait::Patient if waited >= SAY_AFTER => {
                let lock = path.display();
                crate::out::warn(&format!(
                    "plan: waiting for {lock}: another process holds it (see what with `fuser -v {lock}`)"
                ));
                let blocking = if shared {
                    file.lock_shared()
                } else {
                    file.lock()
                };
                return blocking.with_context(|| format!("locking {lock}"));
            }
            _ => {}
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(50));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bounded_wait_gives_up_on_a_held_lock_and_a_freed_one_is_taken() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(NAME);
        let open = || {
            OpenOptions::new()
                .create(true)
                .truncate(false)
                .write(true)
                .open(&path)
                .unwrap()
        };
        let holder = open();
        holder.lock().unwrap();
        let started = Instant::now();
        let error = take(&open(), &path, true, Wait::Bounded).unwrap_err();
        assert!(error.is::<Held>(), "{error:#}");
        let took = started.elapsed();
        assert!(took >= HOOK_WAIT && took < HOOK_WAIT * 2, "{took:?}");
        drop(holder);
        take(&open(), &path, false, Wait::Bounded).unwrap();
    }
}

//! plan's temporary directories (the judge's copy of the tree, Python's bytecode
//! for a verify, a judge's answer file): made under the temporary directory, or for
//! a judge under a private directory of the user's cache ([`Scratch::private`]),
//! with a `plan-` name, locked for as long as the plan that made them lives, and removed
//! when dropped, when a signal ends plan (`stop`), or, after a SIGKILL, by
//! the next plan command ([`sweep_left`]). It never removes a directory another
//! live plan holds, nor one of a name it does not make.

use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use rustix::fs::{FlockOperation, flock};

use super::stop::{self, made};

/// The names this module makes, and so the only ones [`sweep_left`] looks at: the
/// sign-off's (the judge's copy, Python's bytecode, the judge's answer) and the
/// gate's (`plan-judged-`, the copy CI's judge reads; `plan-verify-`, where the
/// pull request's verify runs; `plan-export-`, the bare repository it checks a
/// commit out of), each made here, locked while in use.
const PREFIXES: [&str; 7] = [
    "plan-judge-",
    "plan-judge-withheld-",
    "plan-pycache-",
    "plan-answer-",
    "plan-judged-",
    "plan-verify-",
    "plan-export-",
];

/// A temporary directory of plan's; removed with everything in it when dropped.
#[derive(Debug)]
pub struct Scratch {
    dir: Option<tempfile::TempDir>,
    /// Held open and locked for the directory's life: no lock to be had on it means
    /// a live plan still uses it, whatever its pid namespace.
    _lock: File,
}

impl Scratch {
    /// A directory `PREFIX` + six random characters in the temporary directory.
    pub fn new(prefix: &str) -> io::Result<Scratch> {
        Scratch::new_in(prefix, &std::env::temp_dir())
    }

    /// The same, in the user's private directory for judges ([`private_dir`]):
    /// a judge CLI looks for env files and context files (`.env`, `GEMINI.md`) in
    /// every directory above the one it starts in, and the temporary directory
    /// (`/tmp`) is one an agent's sandbox usually lets it write.
    pub fn private(prefix: &str) -> io::Result<Scratch> {
        Scratch::new_in(prefix, &private_dir()?)
    }

    /// The same, in `parent`.
    pub fn new_in(prefix: &str, parent: &Path) -> io::Result<Scratch> {
        debug_assert!(PREFIXES.iter().any(|p| prefix.starts_with(p)), "{prefix}");
        stop::watch_signals();
        // Held from before the directory is made until it is listed: a signal's
        // cleanup waits on it, so one that lands between the two still finds the
        // directory (one did, under load, and left it).
        let mut listed = made();
        // A signal's cleanup has begun: a directory made now would outlive it, and
        // an error here would end plan with its own status before the signal's.
        // The signal's thread ends the process; a write under way (which it waits
        // for) still gets its directory, listed before the cleanup runs.
        if super::STOPPING.load(std::sync::atomic::Ordering::SeqCst) && !stop::in_write() {
            drop(listed);
            loop {
                std::thread::park();
            }
        }
        let dir = tempfile::Builder::new().prefix(prefix).tempdir_in(parent)?;
        let lock = File::open(dir.path())?;
        // A file system without locks (some network ones) refuses the sweep's try
        // as well, and so keeps the directory: no reason to fail the judge here.
        let _ = flock(&lock, FlockOperation::NonBlockingLockExclusive);
        listed.push(dir.path().to_path_buf());
        drop(listed);
        Ok(Scratch {
            dir: Some(dir),
            _lock: lock,
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.as_ref().map_or(Path::new(""), |d| d.path())
    }

    /// Leaves the directory on disk for a person to inspect, marked so no sweep
    /// removes it; returns where it is.
    pub fn keep(mut self) -> PathBuf {
        let Some(dir) = self.dir.take() else {
            return PathBuf::new();
        };
        let path = dir.keep();
        let _ = crate::atomic::create_new(&path.join(KEPT), b"", &crate::atomic::Replace::DURABLE);
        made().retain(|p| *p != path);
        path
    }
}

/// In a directory left for a person ([`Scratch::keep`]): the sweep leaves it.
const KEPT: &str = ".plan-kept";

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Some(dir) = self.dir.take() {
            let path = dir.path().to_path_buf();
            let _ = dir.close();
            made().retain(|p| *p != path);
        }
    }
}

/// Where judges' directories are made: `plan/judges` under `$XDG_CACHE_HOME` (when
/// absolute) or `~/.cache`, made with mode 0700. Checked, or an error naming it:
/// the directory is the user's, a directory and not a link, and no one else may
/// write it; every directory above it is the user's or root's, and one others may
/// write (`/tmp`, when HOME lies under it; a group's other than the user's own)
/// must be root's and sticky.
pub fn private_dir() -> io::Result<PathBuf> {
    let dir = private_base()
        .ok_or_else(|| io::Error::other("neither XDG_CACHE_HOME nor HOME names a directory"))?;
    // Made private from the start: a `plan` (or `.cache`) made 0775 under a umask
    // of 002 above it would fail the check below on every sign-off.
    crate::atomic::make_private_dirs(&dir)?;
    use std::os::unix::fs::MetadataExt;
    let me = rustix::process::geteuid().as_raw();
    let meta = std::fs::symlink_metadata(&dir)?;
    if meta.is_dir() && meta.uid() == me && meta.mode() & 0o077 != 0 {
        crate::atomic::set_mode(&dir, 0o700)?;
    }
    let meta = std::fs::symlink_metadata(&dir)?;
    let unsafe_dir = |why: String| {
        io::Error::other(format!(
            "{} is not a private directory for plan's judges: {why}; make it yours with mode 0700 (or set XDG_CACHE_HOME to a directory that is)",
            dir.display()
        ))
    };
    if !meta.is_dir() || meta.uid() != me || meta.mode() & 0o077 != 0 {
        return Err(unsafe_dir(format!(
            "it is {} (owner {}, mode {:o})",
            if meta.is_dir() {
                "a directory"
            } else {
                "not a directory"
            },
            meta.uid(),
            meta.mode() & 0o7777
        )));
    }
    let real = std::fs::canonicalize(&dir)?;
    for above in real.ancestors().skip(1) {
        let meta = std::fs::metadata(above)?;
        // A group that may write is the user's own group (a umask of 002 with a
        // group per user made it so) or another's; only another's is others.
        let others_write = meta.mode() & 0o002 != 0
            || (meta.mode() & 0o020 != 0 && meta.gid() != rustix::process::getegid().as_raw());
        let sticky_root = meta.uid() == 0 && meta.mode() & 0o1000 != 0;
        if (meta.uid() != me && meta.uid() != 0) || (others_write && !sticky_root) {
            return Err(unsafe_dir(format!(
                "{} above it is owned by {} with mode {:o}, so another user can change what is there",
                above.display(),
                meta.uid(),
                meta.mode() & 0o7777
            )));
        }
    }
    Ok(dir)
}

/// Where [`private_dir`] is, neither made nor checked; `None` without a cache
/// directory.
pub fn private_base() -> Option<PathBuf> {
    let cache = crate::env::os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
        .or_else(|| {
            crate::env::os("HOME")
                .filter(|h| !h.is_empty())
                .map(|h| PathBuf::from(h).join(".cache"))
        })?;
    Some(cache.join("plan").join("judges"))
}

/// Whether `name` is one this module makes: a prefix and the six random letters
/// and digits after it, no more. A person's `plan-verify-notes` is not plan's
/// (the red team's: the sweep removed it).
fn ours(name: &str) -> bool {
    PREFIXES.iter().any(|p| {
        name.strip_prefix(p)
            .is_some_and(|rest| rest.len() == 6 && rest.bytes().all(|b| b.is_ascii_alphanumeric()))
    })
}

/// Removes what a plan killed without a chance to clean up left in the temporary
/// directory and the judges' private one: each directory of plan's names that no
/// live plan holds the lock of. Their processes go first ([`stop::end_orphans`]): a
/// judge still reading a copy would otherwise outlive it. How many directories
/// were removed.
pub fn sweep_left() -> usize {
    let mut entries: Vec<std::fs::DirEntry> = Vec::new();
    for dir in std::iter::once(std::env::temp_dir()).chain(private_base()) {
        if let Ok(found) = std::fs::read_dir(&dir) {
            entries.extend(found.flatten());
        }
    }
    let left: Vec<PathBuf> = entries
        .into_iter()
        .filter(|e| {
            let name = e.file_name();
            let name = name.to_string_lossy();
            ours(&name) && e.file_type().is_ok_and(|t| t.is_dir()) && !e.path().join(KEPT).exists()
        })
        .map(|e| e.path())
        .filter(|dir| {
            File::open(dir)
                .is_ok_and(|f| flock(&f, FlockOperation::NonBlockingLockExclusive).is_ok())
        })
        .collect();
    if left.is_empty() {
        return 0;
    }
    stop::end_orphans();
    for dir in &left {
        let _ = crate::atomic::remove_tree(dir);
    }
    left.len()
}

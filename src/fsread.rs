//! Opens the files plan reads (plan.md, host transcripts, settings, its own state
//! under `.git/plan`) only when they are regular files, and reads at most a cap of
//! bytes from them: a named pipe there never blocks the open, and a device (a
//! symlink to `/dev/zero`) never feeds a read without end. And finds the repository
//! a path is in from its `.git`, without opening it.

use std::fmt;
use std::fs::File;
use std::io::{self, ErrorKind, Read};
use std::path::{Path, PathBuf};

use rustix::fs::{Mode, OFlags};

use crate::exit::Exit;

/// The most of plan.md read: far above any plan people keep (a 20,000-goal plan
/// is about 3 MB), and bounded where a runaway file would take the machine's memory.
pub const PLAN: u64 = 128 << 20;
/// The most of a host's transcript read to count its compactions; beyond it the
/// count is unknown, and each compaction event counts as one.
pub const TRANSCRIPT: u64 = 128 << 20;
/// The most of a settings file (`.plan/config.yaml`, the user's config) read.
pub const CONFIG: u64 = 1 << 20;
/// The most of a state or cache file under `.git/plan` read.
pub const STATE: u64 = 64 << 20;
/// The most of a sign-off record (`.plan/judge/…`) read.
pub const RECORD: u64 = 128 << 20;
/// The most of a linked worktree's `.git` file read: one `gitdir:` line.
pub const GITFILE: u64 = 64 << 10;

/// For opening a state file to write: a named pipe there with no reader fails the
/// open at once instead of blocking it, and a symbolic link fails it instead of
/// being followed (an agent's link in `.git/plan` would have plan write where it
/// points). [`open_state`] adds the check of what was opened.
pub const NONBLOCK: i32 = (OFlags::NONBLOCK.bits() | OFlags::NOFOLLOW.bits()) as i32;

/// Whether `path` is plan's own state (anything under a git directory: `.git/plan`,
/// the refs, `.git/plan-loop`): read and written only as a regular file, never
/// through a symbolic link.
pub fn is_state(path: &Path) -> bool {
    path.components().any(|c| c.as_os_str() == ".git")
        || apart().iter().any(|git_dir| path.starts_with(git_dir))
}

/// The directory between the state file `path` and the git directory holding it
/// that is a symbolic link, if one is: plan's state is reached through real
/// directories only. A link at `.git/plan/sessions` naming a person's folder had
/// the session prune delete their old files there and plan's records written over
/// theirs. `None` for a path that is not state ([`is_state`]: no `.git` part and
/// no separate git directory holds it), without a look at the disk. (A link made
/// between this look and the open is not seen: the look is for links already
/// there.)
pub fn linked_dir(path: &Path) -> Option<std::path::PathBuf> {
    let mut root = std::path::PathBuf::new();
    let mut found = false;
    for part in path.components() {
        root.push(part);
        if part.as_os_str() == ".git" {
            found = true;
            break;
        }
    }
    if !found {
        root = apart()
            .iter()
            .filter(|dir| path.starts_with(dir))
            .max_by_key(|dir| dir.as_os_str().len())?
            .clone();
    }
    path.ancestors()
        .skip(1)
        .take_while(|dir| dir.starts_with(&root) && *dir != root)
        .find(|dir| std::fs::symlink_metadata(dir).is_ok_and(|m| m.file_type().is_symlink()))
        .map(Path::to_path_buf)
}

/// Records `git_dir` for [`is_state`] as it is spelled, as the file system resolves
/// it (`..` and linked directories: git2 names it that way, and plan's claims are
/// kept under the name it gives), and the shared directory of a linked worktree of
/// it (its `commondir`), where the claims live.
fn remember_apart(git_dir: &Path) {
    let mut dirs = vec![git_dir.to_path_buf()];
    dirs.extend(std::fs::canonicalize(git_dir));
    if let Ok(common) = text(&git_dir.join("commondir"), GITFILE) {
        dirs.extend(std::fs::canonicalize(git_dir.join(common.trim_end())));
    }
    let mut apart = apart();
    for dir in dirs {
        if !apart.contains(&dir) {
            apart.push(dir);
        }
    }
}

/// The git directories [`discover`] found through a `.git` file whose own paths hold
/// no `.git` (`git init --separate-git-dir`): what is under them is state too. A
/// link an agent put where plan keeps the loop there had plan write over the file
/// it named. Held for the process (a long-running server adds each repository it
/// finds; an entry only ever widens what is kept as state).
fn apart() -> std::sync::MutexGuard<'static, Vec<std::path::PathBuf>> {
    static APART: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());
    APART
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// How a state file is opened for writing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateOpen {
    /// Created if missing, every write at its end (a journal, a log).
    Append,
    /// Created if missing, written in place, never truncated on open (a file
    /// rewritten under its lock).
    Update,
    /// Created if missing, only ever locked, never written to.
    Lock,
}

/// Opens the state file at `path` as `how` says, with [`NONBLOCK`] (no wait on a
/// pipe, no link followed), and refuses what is not a regular file before a byte
/// is written to it: a pipe with a reader or a device node is a [`Refused`].
pub fn open_state(how: StateOpen, path: &Path) -> io::Result<File> {
    open_state_once(how, path, true)
}

fn open_state_once(how: StateOpen, path: &Path, may_copy: bool) -> io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt as _;
    #[expect(
        clippy::disallowed_methods,
        reason = "the state files' one opener: no link followed, nothing but a regular file"
    )]
    let mut options = std::fs::OpenOptions::new();
    match how {
        StateOpen::Append => options.create(true).append(true),
        StateOpen::Update | StateOpen::Lock => options.create(true).truncate(false).write(true),
    };
    if let Some(dir) = linked_dir(path) {
        return Err(io::Error::other(Refused::UnderLink(dir)));
    }
    let file = options
        .custom_flags(NONBLOCK)
        .open(path)
        .map_err(|e| link_refused(e, path))?;
    let meta = file.metadata()?;
    // A file written in place that has another name (a person's file hard-linked
    // there, or a `cp -al` snapshot of the repository) would change that file too:
    // plan takes a copy of its own first, the bytes kept, and writes that.
    let shared = meta.is_file() && std::os::unix::fs::MetadataExt::nlink(&meta) > 1;
    if shared && how != StateOpen::Lock {
        if !may_copy {
            return Err(io::Error::other(Refused::HardLinked));
        }
        drop(file);
        own_copy(path)?;
        return open_state_once(how, path, false);
    }
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok(file);
    }
    Err(io::Error::other(Refused::NotRegular {
        what: what(&kind),
        via_symlink: false,
    }))
}

/// Gives the state file at `path` a name of its own: its bytes copied to a new
/// file beside it, renamed over it, so its other names keep theirs untouched.
fn own_copy(path: &Path) -> io::Result<()> {
    use std::io::Write as _;
    use std::os::unix::fs::OpenOptionsExt as _;
    let (_, bytes) = read(path, STATE)?;
    let name = path.file_name().unwrap_or_default().to_string_lossy();
    let copy = path.with_file_name(format!(".{name}.own-{}", std::process::id()));
    // One left by a process of this id that died mid-copy would fail the create.
    #[expect(
        clippy::disallowed_methods,
        reason = "a copy of this process id's, left over"
    )]
    let _ = std::fs::remove_file(&copy);
    #[expect(
        clippy::disallowed_methods,
        reason = "the state files' one opener: a new file of plan's own, no link followed"
    )]
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .custom_flags(NONBLOCK)
        .open(&copy)
        .and_then(|mut f| f.write_all(&bytes));
    #[expect(
        clippy::disallowed_methods,
        reason = "the copy above put in place of the shared name, or taken away"
    )]
    let done = written.and_then(|()| std::fs::rename(&copy, path));
    if done.is_err() {
        #[expect(clippy::disallowed_methods, reason = "the copy above, taken away")]
        let _ = std::fs::remove_file(&copy);
    }
    done
}

/// The first entry of plan's own state directory `dir` (`.git/plan`) that is not
/// a regular file or a directory (a link to a file, a pipe, a device), or `dir`
/// itself when it is a link: a write command refuses to start while one is there, rather than
/// write its state through it, block on it, or silently go without it.
pub fn irregular_state(dir: &Path) -> Option<(std::path::PathBuf, Refused)> {
    let refusal = |meta: &std::fs::Metadata| {
        let kind = meta.file_type();
        if kind.is_symlink() {
            Some(Refused::Link)
        } else if kind.is_file() || kind.is_dir() {
            None
        } else {
            Some(Refused::NotRegular {
                what: what(&kind),
                via_symlink: false,
            })
        }
    };
    let meta = std::fs::symlink_metadata(dir).ok()?;
    if let Some(why) = refusal(&meta) {
        return Some((dir.to_path_buf(), why));
    }
    // A link to a directory is a person's choice of where a directory lives (the
    // temp directory on another disk): plan makes its own files in it, never
    // writes through a link to a file.
    std::fs::read_dir(dir).ok()?.flatten().find_map(|entry| {
        let meta = entry.metadata().ok()?;
        let to_dir = meta.file_type().is_symlink() && entry.path().is_dir();
        refusal(&meta)
            .filter(|_| !to_dir)
            .map(|why| (entry.path(), why))
    })
}

/// The error of an open with `O_NOFOLLOW` or `O_NONBLOCK`, said as what is at
/// `path`: a link (ELOOP) or a pipe no one reads (ENXIO) is a [`Refused`].
fn link_refused(e: io::Error, path: &Path) -> io::Error {
    use std::os::unix::fs::FileTypeExt as _;
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return e;
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        return io::Error::other(Refused::Link);
    }
    if kind.is_fifo() || kind.is_char_device() || kind.is_block_device() || kind.is_socket() {
        return io::Error::other(Refused::NotRegular {
            what: what(&kind),
            via_symlink: false,
        });
    }
    e
}

/// Why a file was not read: what is there is not a regular file, or is longer than
/// the cap. Carried inside an [`io::Error`], so callers keep their own handling of
/// a missing file or a directory (`ErrorKind::IsADirectory`).
#[derive(Debug)]
pub enum Refused {
    NotRegular {
        what: &'static str,
        via_symlink: bool,
    },
    TooBig {
        cap: u64,
    },
    /// A symbolic link where plan keeps its own state: never followed.
    Link,
    /// A state file reached through a directory that is a symbolic link (the
    /// directory): plan's state is under real directories only.
    UnderLink(std::path::PathBuf),
    /// A state file with another name (a hard link): written in place, it would
    /// change that file too.
    HardLinked,
    /// Its size or modification time changed while it was read, each time it was:
    /// a tool is rewriting it, and what was read may be half of it.
    Changing,
}

impl fmt::Display for Refused {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refused::NotRegular { what, via_symlink } => {
                let link = if *via_symlink { "a symlink to " } else { "" };
                write!(f, "is {link}{what}, not a regular file")
            }
            Refused::TooBig { cap } => write!(f, "is larger than {} MB", cap >> 20),
            Refused::Link => write!(f, "is a symbolic link, not a regular file"),
            Refused::UnderLink(dir) => {
                write!(
                    f,
                    "is under a symbolic link ({}), not in plan's own directory",
                    dir.display()
                )
            }
            Refused::HardLinked => write!(
                f,
                "has another name (a hard link), not a file of plan's own"
            ),
            Refused::Changing => write!(
                f,
                "changed while it was read, each of {STEADY_TRIES} times (size or modification time)"
            ),
        }
    }
}

impl Refused {
    /// What to do about it, for a file named `name`.
    pub fn hint(&self, name: &str) -> String {
        match self {
            Refused::NotRegular { .. } if is_state(Path::new(name)) => format!(
                "plan keeps its state only in regular files; remove {name} and rerun (plan makes it again)"
            ),
            Refused::NotRegular { .. } => {
                "plan reads it only from a regular file (a symlink to one is fine); put the file itself there"
                    .to_string()
            }
            Refused::TooBig { cap } => format!(
                "plan reads at most {} MB of it; archive or move what it no longer needs",
                cap >> 20
            ),
            Refused::Link => format!(
                "plan never reads or writes its state through a link (it could point anywhere); remove {name} and rerun"
            ),
            Refused::UnderLink(dir) => format!(
                "plan never reads or writes its state through a link (it could point anywhere); remove {} and rerun",
                dir.display()
            ),
            Refused::HardLinked => format!(
                "plan writes its state only into files of its own; remove {name} and rerun (plan makes it again)"
            ),
            Refused::Changing => format!(
                "let the tool writing {name} finish, then run the command again"
            ),
        }
    }
}

impl std::error::Error for Refused {}

/// The [`Refused`] inside `e`, if that is why the read failed.
pub fn refused(e: &io::Error) -> Option<&Refused> {
    e.get_ref()?.downcast_ref::<Refused>()
}

/// A command's error for a file that could not be read, naming it as `name`
/// (`plan.md`, `.plan/config.yaml`): a [`Refused`] one says why, with a hint.
pub fn exit(name: &str, e: &io::Error) -> anyhow::Error {
    let Some(why) = refused(e) else {
        return Exit::env(format!("cannot read {name}: {e}"));
    };
    let hint = why.hint(name);
    if is_state(Path::new(name)) {
        return Exit::env_hint(format!("{name} {e}"), hint);
    }
    Exit::usage_hint(format!("{name} {e}"), hint)
}

/// The regular file at `path`, opened for reading without blocking (so a named pipe
/// swapped in after any look cannot hang the open) and checked on the open file. A
/// directory is `ErrorKind::IsADirectory`; anything else not a regular file is a
/// [`Refused`].
pub fn open(path: &Path) -> io::Result<File> {
    opened(path).map(|(file, _)| file)
}

/// As [`open`], with what the check on the open file found: a reader that needs
/// the length asks the kernel once.
pub fn opened(path: &Path) -> io::Result<(File, std::fs::Metadata)> {
    let state = is_state(path);
    if let Some(dir) = linked_dir(path) {
        return Err(io::Error::other(Refused::UnderLink(dir)));
    }
    let nofollow = match state {
        true => OFlags::NOFOLLOW,
        false => OFlags::empty(),
    };
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY | nofollow,
        Mode::empty(),
    )
    .map_err(|e| match state {
        true => link_refused(e.into(), path),
        false => e.into(),
    })?;
    let file = File::from(fd);
    let meta = file.metadata()?;
    let kind = meta.file_type();
    if kind.is_file() {
        return Ok((file, meta));
    }
    if kind.is_dir() {
        return Err(io::Error::from(ErrorKind::IsADirectory));
    }
    let via_symlink = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    Err(io::Error::other(Refused::NotRegular {
        what: what(&kind),
        via_symlink,
    }))
}

fn what(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt as _;
    if kind.is_fifo() {
        "a named pipe"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_char_device() || kind.is_block_device() {
        "a device"
    } else {
        "something else"
    }
}

/// The bytes of the regular file at `path`, and the handle they were read through;
/// more than `cap` bytes is a [`Refused::TooBig`].
pub fn read(path: &Path, cap: u64) -> io::Result<(File, Vec<u8>)> {
    let (mut file, meta) = opened(path)?;
    // Sized from the file as opened: read_to_end's doubling would leave a long
    // plan.md's copy holding up to twice its bytes. One spare byte lets the read
    // see the end without growing; a file that grew meanwhile still reads whole.
    // A file already past the cap is refused without reading it (a sparse
    // plan.md of a terabyte would otherwise cost the reading of the cap in zeros).
    let len = meta.len();
    if len > cap {
        return Err(io::Error::other(Refused::TooBig { cap }));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(len).unwrap_or(0).saturating_add(1));
    (&mut file)
        .take(cap.saturating_add(1))
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > cap {
        return Err(io::Error::other(Refused::TooBig { cap }));
    }
    Ok((file, bytes))
}

/// As [`read`], without the handle.
pub fn bytes(path: &Path, cap: u64) -> io::Result<Vec<u8>> {
    read(path, cap).map(|(_, bytes)| bytes)
}

/// How often [`steady_bytes`] reads a file that changes under it.
const STEADY_TRIES: u32 = 3;

/// As [`bytes`], for a file another tool may be rewriting (an import's source):
/// read again while its size, modification time or inode differ before and after
/// the read, or from what was read; still changing after [`STEADY_TRIES`] reads,
/// a [`Refused::Changing`]. A tool that rewrote a TODO.md in place gave an import
/// half its items. `between` runs between each read and the look after it (a
/// test's pause).
pub fn steady_bytes(path: &Path, cap: u64, between: impl Fn()) -> io::Result<Vec<u8>> {
    use std::os::unix::fs::MetadataExt;
    let stamp = |m: &std::fs::Metadata| (m.len(), m.modified().ok(), m.ino(), m.dev());
    for _ in 0..STEADY_TRIES {
        let before = std::fs::metadata(path)?;
        let (file, bytes) = read(path, cap)?;
        between();
        let after = std::fs::metadata(path)?;
        let read_from = file.metadata()?;
        if stamp(&before) == stamp(&after)
            && stamp(&read_from) == stamp(&after)
            && bytes.len() as u64 == after.len()
        {
            return Ok(bytes);
        }
    }
    Err(io::Error::other(Refused::Changing))
}

/// As [`bytes`], as UTF-8 text (`ErrorKind::InvalidData` when it is not).
pub fn text(path: &Path, cap: u64) -> io::Result<String> {
    String::from_utf8(bytes(path, cap)?).map_err(|e| io::Error::new(ErrorKind::InvalidData, e))
}

/// How many lines of the regular file at `path` start with `prefix`, read in pieces
/// so a long file is never held whole; more than `cap` bytes is a
/// [`Refused::TooBig`].
pub fn count_lines_starting(path: &Path, cap: u64, prefix: &[u8]) -> io::Result<u64> {
    let mut file = open(path)?.take(cap.saturating_add(1));
    let mut buf = vec![0; 64 * 1024];
    let (mut count, mut total) = (0, 0u64);
    // How much of `prefix` the current line has matched so far; `None` once it
    // cannot start with it.
    let mut matched = Some(0);
    loop {
        let n = match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        total += n as u64;
        if total > cap {
            return Err(io::Error::other(Refused::TooBig { cap }));
        }
        let mut rest = &buf[..n];
        while !rest.is_empty() {
            if let Some(m) = matched {
                let want = &prefix[m..];
                let k = want.len().min(rest.len());
                if rest[..k] == want[..k] {
                    matched = if m + k == prefix.len() {
                        count += 1;
                        None
                    } else {
                        Some(m + k)
                    };
                } else {
                    matched = None;
                }
            }
            // Skip to the next line; what follows its newline may start a match.
            match memchr::memchr(b'\n', rest) {
                Some(i) => {
                    rest = &rest[i + 1..];
                    matched = Some(0);
                }
                None => break,
            }
        }
    }
    Ok(count)
}

/// A repository with a working tree.
#[derive(Clone, Debug)]
pub struct Repo {
    /// The top of the working tree.
    pub root: PathBuf,
    /// The repository's git directory (a worktree's own, for a linked worktree).
    pub git_dir: PathBuf,
}

/// The repository containing `start`: the nearest directory upwards with a `.git`
/// directory, or a linked worktree's `.git` file (`gitdir: …`). It does not open the
/// repository — this runs on every hook call — so `GIT_DIR` is not consulted.
/// `None` outside any repository.
pub fn discover(start: &Path) -> anyhow::Result<Option<Repo>> {
    for dir in start.ancestors() {
        let dot_git = dir.join(".git");
        let Ok(meta) = std::fs::metadata(&dot_git) else {
            continue;
        };
        if meta.is_dir() {
            if dot_git.join("HEAD").exists() {
                return Ok(Some(Repo {
                    root: dir.to_path_buf(),
                    git_dir: dot_git,
                }));
            }
            continue;
        }
        // Read as plan's other files are: a named pipe, a socket or a device there
        // (an agent's `mkfifo .git` where it works) is no repository, and the
        // walk goes on upwards instead of waiting on it.
        let text = match text(&dot_git, GITFILE) {
            Ok(text) => text,
            Err(e) if refused(&e).is_some() => continue,
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!("reading {}", dot_git.display())));
            }
        };
        if let Some(target) = text.strip_prefix("gitdir:") {
            let target = Path::new(target.trim());
            let git_dir = if target.is_absolute() {
                target.to_path_buf()
            } else {
                dir.join(target)
            };
            // A working tree inside the git directory it names keeps its files its own.
            if !is_state(&git_dir) && !dir.starts_with(&git_dir) {
                remember_apart(&git_dir);
            }
            return Ok(Some(Repo {
                root: dir.to_path_buf(),
                git_dir,
            }));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_up_to_its_cap() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "hello").unwrap();
        assert_eq!(bytes(&path, 5).unwrap(), b"hello");
        let e = bytes(&path, 4).unwrap_err();
        assert_eq!(refused(&e).unwrap().to_string(), "is larger than 0 MB");
    }

    #[test]
    fn refuses_a_fifo_without_blocking_and_a_device() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p");
        rustix::fs::mkfifoat(rustix::fs::CWD, &fifo, Mode::from_raw_mode(0o600)).unwrap();
        let e = bytes(&fifo, 10).unwrap_err();
        assert_eq!(
            refused(&e).unwrap().to_string(),
            "is a named pipe, not a regular file"
        );
        let link = dir.path().join("zero");
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let e = bytes(&link, 10).unwrap_err();
        assert_eq!(
            refused(&e).unwrap().to_string(),
            "is a symlink to a device, not a regular file"
        );
        let e = bytes(dir.path(), 10).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::IsADirectory);
        let e = bytes(&dir.path().join("none"), 10).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::NotFound);
    }

    #[test]
    fn counts_lines_by_their_start_across_pieces() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t");
        let long = "x".repeat(100_000);
        let text =
            format!("{{\"$set\"1\n{long}\n{{\"$set\"2\n{{\"$se\n{long}{{\"$set\"\n{{\"$set\"");
        std::fs::write(&path, &text).unwrap();
        assert_eq!(
            count_lines_starting(&path, 1 << 20, b"{\"$set\"").unwrap(),
            3
        );
        assert!(count_lines_starting(&path, 1000, b"{").is_err());
    }
}

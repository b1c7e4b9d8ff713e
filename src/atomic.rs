//! The one way plan replaces a file whole: a temp file where git does not look, the
//! old file's mode kept, fsync, rename, fsync of the directory. A reader sees the old
//! file or the new one, never a mix, and a crash leaves one of the two. Every module
//! that writes a file goes through here; the store adds its own check just before
//! the rename. The other changes to the file system (directories made, files moved,
//! copied or removed) go through the few functions at the end, so clippy.toml's
//! disallowed-methods finds any that does not.

use std::fs::{self, File, Permissions};
use std::io::{self, Write};
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

/// The mode of a file that did not exist before (an existing file keeps its own).
#[derive(Clone, Copy, Debug)]
pub enum NewFile {
    /// Exactly this mode, whatever the umask.
    Mode(u32),
    /// This mode less the umask, as an editor makes a file meant to be committed.
    Umask(u32),
    /// Readable by its owner only: runtime state under the git directory.
    Private,
}

/// How a file is replaced.
#[derive(Clone, Copy, Debug)]
pub struct Replace {
    pub new_file: NewFile,
    /// Create missing parent directories.
    pub create_dirs: bool,
    /// fsync the file before the rename. Off only for caches, which are rebuilt when
    /// lost and sit on the hooks' hot path.
    pub fsync: bool,
    /// fsync the directory after the rename, so the rename itself is durable.
    pub sync_dir: bool,
    /// The temp file's name prefix, so a stray one says who left it.
    pub prefix: &'static str,
}

impl Replace {
    /// A file a person keeps: committed settings, host settings, AGENTS.md.
    pub const DURABLE: Replace = Replace {
        new_file: NewFile::Umask(0o666),
        create_dirs: true,
        fsync: true,
        sync_dir: true,
        prefix: ".plan-",
    };
}

/// Why nothing was replaced.
#[derive(Debug)]
pub enum Failure {
    /// The file is read-only: plan does not override a person's decision.
    ReadOnly,
    /// A parent directory could not be created.
    Dir(PathBuf, io::Error),
    Io(io::Error),
}

/// Replaces `path` with `bytes`. A symlinked file is written through its link.
pub fn replace(path: &Path, bytes: &[u8], how: &Replace) -> Result<(), Failure> {
    replace_checked(path, bytes, how, |_| true).map(|_| ())
}

/// As [`replace`], with `ready` asked about the target just before the rename:
/// `false` leaves the file alone and returns `Ok(None)`. `Ok(Some(target))` is the
/// file that was replaced (the link's target for a symlink).
pub fn replace_checked(
    path: &Path,
    bytes: &[u8],
    how: &Replace,
    ready: impl FnOnce(&Path) -> bool,
) -> Result<Option<PathBuf>, Failure> {
    // plan's own state is replaced where it is, never through a link: a link an
    // agent planted in `.git/plan` would otherwise have plan overwrite its target.
    let state = crate::fsread::is_state(path);
    if let Some(dir) = crate::fsread::linked_dir(path) {
        let refused = crate::fsread::Refused::UnderLink(dir);
        return Err(Failure::Io(io::Error::other(refused)));
    }
    let target = match state {
        true => path.to_path_buf(),
        false => fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf()),
    };
    let dir = parent_dir(&target, how)?;
    let found = match state {
        true => fs::symlink_metadata(&target),
        false => fs::metadata(&target),
    };
    if let Ok(meta) = &found
        && state
        && !meta.is_file()
    {
        return Err(Failure::Io(not_regular(meta)));
    }
    let existing = match found {
        Ok(meta) if meta.permissions().readonly() => return Err(Failure::ReadOnly),
        Ok(meta) => Some(meta.permissions()),
        Err(_) => None,
    };
    let tmp = written_temp(&dir, bytes, how, existing)?;
    if !ready(&target) {
        return Ok(None);
    }
    tmp.persist(&target).map_err(|e| Failure::Io(e.error))?;
    if how.sync_dir {
        sync_dir(&target);
    }
    Ok(Some(target))
}

/// Why a state file whose own metadata (not its link's target's) is `meta` is not
/// replaced.
fn not_regular(meta: &fs::Metadata) -> io::Error {
    use std::os::unix::fs::FileTypeExt as _;
    let kind = meta.file_type();
    let refused = match kind.is_symlink() {
        true => crate::fsread::Refused::Link,
        false => crate::fsread::Refused::NotRegular {
            what: if kind.is_dir() {
                "a directory"
            } else if kind.is_fifo() {
                "a named pipe"
            } else if kind.is_char_device() || kind.is_block_device() {
                "a device"
            } else {
                "something else"
            },
            via_symlink: false,
        },
    };
    io::Error::other(refused)
}

/// The directory `path` is in (`.` for a bare name), made first when `how` says so.
fn parent_dir(path: &Path, how: &Replace) -> Result<PathBuf, Failure> {
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_path_buf();
    if how.create_dirs {
        make_dirs(&dir).map_err(|e| Failure::Dir(dir.clone(), e))?;
    }
    Ok(dir)
}

/// Creates `path` holding `bytes` unless a file is there already: `Ok(false)`, and
/// nothing is written. The file appears whole or not at all (temp file, fsync, then
/// a rename that does not replace), so a crash never leaves it empty or cut.
pub fn create_new(path: &Path, bytes: &[u8], how: &Replace) -> Result<bool, Failure> {
    let dir = parent_dir(path, how)?;
    let tmp = written_temp(&dir, bytes, how, None)?;
    match tmp.persist_noclobber(path) {
        Ok(_) => {}
        Err(e) if e.error.kind() == io::ErrorKind::AlreadyExists => return Ok(false),
        Err(e) => return Err(Failure::Io(e.error)),
    }
    if how.sync_dir {
        sync_dir(path);
    }
    Ok(true)
}

/// Replaces `path` whole by writing `bytes` over `standby`, a file beside it made
/// for this (created if missing), and swapping the two names in one step
/// (`renameat2`'s exchange): a reader that opens `path` and reads it at once sees
/// the old file or the new one, as with [`replace`], and `standby` keeps the old
/// bytes until the next write removes it and makes a new one. A write that fails (a full
/// disk) leaves `path` as it was; a power cut may leave it older or garbled, as no
/// write is ordered before the swap. Renaming a new file over an old one makes
/// ext4 start writing the new one out and free the old at once: 0.24 ms on this
/// repository's test machine, against 0.03 ms for the swap, for a file a stop hook
/// writes at every continuation.
///
/// `false`: nothing was swapped, and the caller replaces `path` as [`replace`]
/// does: `path` is missing, read-only or not a regular file, the file system has
/// no exchange, or a new file cannot be made at `standby`. No fsync.
/// Only for a file every writer of which holds one lock: two writers would write
/// the one standby at once.
pub fn swap_in(path: &Path, standby: &Path, bytes: &[u8]) -> bool {
    let Ok(meta) = fs::symlink_metadata(path) else {
        return false;
    };
    if !meta.is_file() || meta.permissions().readonly() {
        return false;
    }
    // A file made here and now, never one found at the name: a check on a file
    // found there (one name, regular) could be passed by a hard link to another
    // file whose name is removed between the open and the check, and plan would
    // write over that file. The old standby's name goes first (a link there is
    // removed, not followed).
    let _ = remove(standby);
    let mode = meta.permissions().mode() & 0o7777;
    #[expect(
        clippy::disallowed_methods,
        reason = "a new file only (O_EXCL), never through a link: nothing found is written"
    )]
    let opened = {
        use std::os::unix::fs::OpenOptionsExt as _;
        fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(crate::fsread::NONBLOCK)
            .open(standby)
    };
    let Ok(mut file) = opened else {
        return false;
    };
    if file.set_permissions(Permissions::from_mode(mode)).is_err() {
        return false;
    }
    if file
        .write_all(bytes)
        .and_then(|()| file.set_len(bytes.len() as u64))
        .is_err()
    {
        return false;
    }
    drop(file);
    let cwd = rustix::fs::CWD;
    rustix::fs::renameat_with(cwd, standby, cwd, path, rustix::fs::RenameFlags::EXCHANGE).is_ok()
}

/// A temp file for a file in `dir`, holding `bytes` with the mode the file will
/// have (`existing`'s, or the one `how` gives a new file), fsynced if asked.
fn written_temp(
    dir: &Path,
    bytes: &[u8],
    how: &Replace,
    existing: Option<Permissions>,
) -> Result<tempfile::NamedTempFile, Failure> {
    let temps = temp_dir(dir);
    remove_stale(&temps, how.prefix);
    let mut builder = tempfile::Builder::new();
    // The pid in the name lets a later write tell a temp file of a killed writer
    // from one still being written.
    let prefix = format!("{}{}-", how.prefix, std::process::id());
    builder.prefix(&prefix).suffix(".tmp");
    if let (None, NewFile::Umask(mode)) = (&existing, how.new_file) {
        builder.permissions(Permissions::from_mode(mode));
    }
    let mut tmp = builder.tempfile_in(&temps).map_err(Failure::Io)?;
    tmp.write_all(bytes).map_err(Failure::Io)?;
    let mode = match (existing, how.new_file) {
        (Some(kept), _) => Some(kept),
        (None, NewFile::Mode(mode)) => Some(Permissions::from_mode(mode)),
        (None, NewFile::Umask(_) | NewFile::Private) => None,
    };
    if let Some(mode) = mode {
        tmp.as_file().set_permissions(mode).map_err(Failure::Io)?;
    }
    if how.fsync {
        tmp.as_file().sync_all().map_err(Failure::Io)?;
    }
    Ok(tmp)
}

/// Where the temp file for a file in `dir` is made: `plan/tmp/` in the git directory
/// of the repository holding `dir`, which `git status` and `git add -A` never see,
/// when it is on the same file system as `dir` (a rename across file systems is a copy, not
/// atomic). A file already inside a git directory, a file outside any repository, or
/// a git directory on another file system or not writable: beside the file.
fn temp_dir(dir: &Path) -> PathBuf {
    use std::os::unix::fs::MetadataExt;
    if dir.components().any(|c| c.as_os_str() == ".git") {
        return dir.to_path_buf();
    }
    let Ok(Some(repo)) = crate::fsread::discover(dir) else {
        return dir.to_path_buf();
    };
    let temps = repo.git_dir.join("plan").join("tmp");
    // The temp directory itself, not only the git directory: `plan/tmp` may be a
    // link to another file system, where the rename would fail.
    let on_same_fs = |other: &Path| match (fs::metadata(dir), fs::metadata(other)) {
        (Ok(a), Ok(b)) => a.dev() == b.dev(),
        _ => false,
    };
    match on_same_fs(&repo.git_dir) && make_dirs(&temps).is_ok() && on_same_fs(&temps) {
        true => temps,
        false => dir.to_path_buf(),
    }
}

/// Removes the temp files in `dir` that a writer killed before its rename left
/// (`{prefix}{pid}-{random}.tmp` of a process that no longer runs). A live writer's
/// file, or anything else, is left alone.
fn remove_stale(dir: &Path, prefix: &str) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(prefix)?.strip_suffix(".tmp"))
            .and_then(|rest| rest.split_once('-'))
            .and_then(|(pid, _)| pid.parse::<i32>().ok())
        else {
            continue;
        };
        if !alive(pid) {
            let _ = remove(entry.path());
        }
    }
}

/// Whether process `pid` runs (or cannot be told apart from running: a process
/// of another user answers "not permitted").
fn alive(pid: i32) -> bool {
    let Some(pid) = rustix::process::Pid::from_raw(pid) else {
        return false;
    };
    !matches!(
        rustix::process::test_kill_process(pid),
        Err(rustix::io::Errno::SRCH)
    )
}

/// fsyncs the directory holding `file`, so a rename into it is durable. Best effort:
/// some file systems refuse to open a directory for it.
pub fn sync_dir(file: &Path) {
    let dir = file
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    if let Ok(d) = File::open(dir) {
        let _ = d.sync_all();
    }
}

/// Makes directory `path` and any parent missing.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn make_dirs(path: impl AsRef<Path>) -> io::Result<()> {
    fs::create_dir_all(path)
}

/// Makes directory `path` and any parent missing, each made with mode 0700 (the
/// umask can only take bits away): under a umask of 002 (Fedora's and RHEL's
/// shells) a parent made 0775 is one the group may write.
pub fn make_private_dirs(path: impl AsRef<Path>) -> io::Result<()> {
    use std::os::unix::fs::DirBuilderExt;
    fs::DirBuilder::new()
        .recursive(true)
        .mode(0o700)
        .create(path)
}

/// Makes directory `path`, failing when it exists: a directory that is only ours.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn make_dir(path: impl AsRef<Path>) -> io::Result<()> {
    fs::create_dir(path)
}

/// Removes the file (or link) `path`.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn remove(path: impl AsRef<Path>) -> io::Result<()> {
    let path = path.as_ref();
    // plan's own state is removed only where it is: a link in place of one of its
    // directories (`.git/plan/sessions`) would have the prune delete in its target.
    if let Some(dir) = crate::fsread::linked_dir(path) {
        return Err(io::Error::other(crate::fsread::Refused::UnderLink(dir)));
    }
    fs::remove_file(path)
}

/// Removes the directory `path` and everything in it: one of plan's own temporary
/// directories, never a person's.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn remove_tree(path: impl AsRef<Path>) -> io::Result<()> {
    fs::remove_dir_all(path)
}

/// Removes the directory `path` only if it is empty: what anyone else put there stays.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn remove_empty_dir(path: impl AsRef<Path>) -> io::Result<()> {
    fs::remove_dir(path)
}

/// Makes `link` a symbolic link to `target`, written as given (relative or not).
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn symlink(target: impl AsRef<Path>, link: impl AsRef<Path>) -> io::Result<()> {
    std::os::unix::fs::symlink(target, link)
}

/// Moves `from` to `to`, replacing what `to` was, in one step.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn rename(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<()> {
    fs::rename(from, to)
}

/// Copies the file `from` to `to`, its permissions with it.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn copy(from: impl AsRef<Path>, to: impl AsRef<Path>) -> io::Result<u64> {
    fs::copy(from, to)
}

/// Sets the permission bits of `path` to `mode`.
#[expect(clippy::disallowed_methods, reason = "the file system's one writer")]
pub fn set_mode(path: impl AsRef<Path>, mode: u32) -> io::Result<()> {
    fs::set_permissions(path, Permissions::from_mode(mode))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::MetadataExt;

    fn mode(path: &Path) -> u32 {
        fs::metadata(path).unwrap().mode() & 0o777
    }

    #[test]
    fn keeps_an_existing_files_mode_and_writes_through_a_symlink() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real");
        fs::write(&real, "old").unwrap();
        fs::set_permissions(&real, Permissions::from_mode(0o640)).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        replace(&link, b"new", &Replace::DURABLE).unwrap();
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert!(
            fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(mode(&real), 0o640);
    }

    #[test]
    fn a_new_file_gets_the_mode_asked_for_in_a_new_directory() {
        let dir = tempfile::tempdir().unwrap();
        let exact = dir.path().join("a/b/exact");
        let how = Replace {
            new_file: NewFile::Mode(0o604),
            ..Replace::DURABLE
        };
        replace(&exact, b"x", &how).unwrap();
        assert_eq!(mode(&exact), 0o604);
        let private = dir.path().join("private");
        let how = Replace {
            new_file: NewFile::Private,
            ..Replace::DURABLE
        };
        replace(&private, b"x", &how).unwrap();
        assert_eq!(mode(&private), 0o600);
    }

    #[test]
    fn a_read_only_file_and_a_check_that_says_no_leave_the_file_and_no_temp_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        fs::write(&file, "old").unwrap();
        let refused = replace_checked(&file, b"new", &Replace::DURABLE, |_| false).unwrap();
        assert!(refused.is_none());
        fs::set_permissions(&file, Permissions::from_mode(0o444)).unwrap();
        assert!(matches!(
            replace(&file, b"new", &Replace::DURABLE),
            Err(Failure::ReadOnly)
        ));
        assert_eq!(fs::read_to_string(&file).unwrap(), "old");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn the_temp_file_of_a_file_in_a_repository_is_in_its_git_directory() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join(".git")).unwrap();
        fs::write(dir.path().join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        let file = dir.path().join("plan.md");
        let mut seen = Vec::new();
        replace_checked(&file, b"new", &Replace::DURABLE, |_| {
            seen = fs::read_dir(dir.path())
                .unwrap()
                .map(|e| e.unwrap().file_name().into_string().unwrap())
                .collect();
            seen.extend(
                fs::read_dir(dir.path().join(".git/plan/tmp"))
                    .unwrap()
                    .map(|e| e.unwrap().file_name().into_string().unwrap()),
            );
            true
        })
        .unwrap();
        seen.sort();
        assert_eq!(seen.len(), 2, "{seen:?}");
        assert_eq!(seen[0], ".git");
        let prefix = format!(".plan-{}-", std::process::id());
        assert!(
            seen[1].starts_with(&prefix) && seen[1].ends_with(".tmp"),
            "{seen:?}"
        );
        assert_eq!(fs::read_to_string(&file).unwrap(), "new");
    }

    #[test]
    fn state_under_a_git_directory_is_never_written_through_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let outside = dir.path().join("outside");
        fs::write(&outside, "precious").unwrap();
        let state = dir.path().join(".git/plan/stamp");
        fs::create_dir_all(state.parent().unwrap()).unwrap();
        std::os::unix::fs::symlink(&outside, &state).unwrap();
        let Err(Failure::Io(e)) = replace(&state, b"x", &Replace::DURABLE) else {
            panic!("a link among the state files was written through");
        };
        assert_eq!(e.to_string(), "is a symbolic link, not a regular file");
        assert_eq!(fs::read_to_string(&outside).unwrap(), "precious");
    }

    #[test]
    fn create_new_never_replaces_a_file() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("f");
        assert!(create_new(&file, b"first", &Replace::DURABLE).unwrap());
        assert!(!create_new(&file, b"second", &Replace::DURABLE).unwrap());
        assert_eq!(fs::read_to_string(&file).unwrap(), "first");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

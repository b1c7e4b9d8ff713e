//! The only file that uses git2: working-tree snapshots, diff stats, ignore checks
//! and file history (discovery, from the file system alone, is `fsread`'s). Returns owned values; each error names the
//! operation.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::ffi::OsStr;
use std::fmt;
use std::fs;
use std::io::ErrorKind;
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::PermissionsExt;
use std::path::{Component, Path, PathBuf};

use anyhow::{Context, Result};
use git2::{
    DiffFindOptions, DiffOptions, DiffStatsFormat, ErrorCode, FileMode, ObjectType, Oid,
    Repository, Status, StatusOptions, StatusShow, Tree,
};

// Found from the file system alone, below the atomic writes that need it too.
pub use crate::fsread::{Repo, discover};

mod checkpoint;
pub mod claims;
mod driver;
pub use checkpoint::{
    CHECKPOINTS, Change, Saved, changed_since_each, changes_between, changes_since, delete_ref,
    restore, save_working_tree, saved, undo_prefixes,
};
pub use checkpoint::{
    built_on, checkpoints, checkpoints_with_subjects, commit_info, save_commit, working_commit,
};
mod judge_tree;
pub use judge_tree::{Guarded, check_out, guarded};
mod tracking;
pub use tracking::{Tracking, in_head, stage, tracking, unmerged};

pub mod fingerprint;
mod merged_copies;
pub use merged_copies::merged_copies;
mod since;
pub use driver::{
    add_fetch_refspec, checkpoint_refspec, has_fetch_refspec, hooks_dir, merge_driver, remotes,
    remove_fetch_refspec, set_merge_driver, unset_merge_driver,
};
pub use since::{Changed, Deltas, changed_since, ignored_in, paths_at, texts_at};
pub mod blame;
mod gate;
pub use gate::{
    export_commit, export_paths, files_where, fork_point, hidden_history, is_ancestor,
    on_first_parents, resolve_commit, reverts,
};

fn open(root: &Path) -> Result<Repository> {
    Repository::open(root)
        .with_context(|| format!("opening the git repository at {}", root.display()))
}

/// The object `rev` names. An abbreviated commit id (4 to 39 hex digits, as plan
/// writes start and checkpoint ids) is looked up as an id alone: git prefers a
/// branch or tag so spelt, which anyone who can push a ref could point elsewhere.
/// Name such a ref in full (`refs/heads/cafe`).
fn lookup<'r>(repo: &'r Repository, rev: &str) -> Result<git2::Object<'r>, git2::Error> {
    if (4..40).contains(&rev.len()) && rev.bytes().all(|b| b.is_ascii_hexdigit()) {
        repo.find_object_by_prefix(rev, None)
    } else {
        repo.revparse_single(rev)
    }
}

/// What HEAD names and points at; `None` commit for an unborn branch.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Head {
    name: String,
    commit: Option<Oid>,
    tree: Option<Oid>,
}

impl fmt::Display for Head {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = self.name.strip_prefix("refs/heads/").unwrap_or(&self.name);
        match self.commit {
            Some(id) => write!(f, "{name} at {:.7}", id.to_string()),
            None => write!(f, "{name} (no commits)"),
        }
    }
}

fn head(repo: &Repository) -> Result<Head> {
    let reference = repo
        .find_reference("HEAD")
        .context("reading HEAD of the repository")?;
    let name = match reference.symbolic_target_bytes() {
        Some(target) => String::from_utf8_lossy(target).into_owned(),
        None => "HEAD".to_string(),
    };
    let commit = match reference.resolve() {
        Ok(resolved) => resolved.target(),
        Err(e) if e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(e).context("resolving HEAD"),
    };
    let tree = match commit {
        Some(id) => Some(
            repo.find_commit(id)
                .with_context(|| format!("reading the HEAD commit {id}"))?
                .tree_id(),
        ),
        None => None,
    };
    Ok(Head { name, commit, tree })
}

/// The commit HEAD points at, as 12 hex digits; `None` on an unborn branch.
pub fn head_commit(root: &Path) -> Result<Option<String>> {
    let repo = open(root)?;
    Ok(head(&repo)?
        .commit
        .map(|id| id.to_string()[..12].to_string()))
}

/// Git's id of a blob holding `bytes` (what `git hash-object` prints), worked out
/// without writing anything: how the journal names the file a write saw and left.
pub fn blob_id(bytes: &[u8]) -> String {
    git2::Oid::hash_object(git2::ObjectType::Blob, bytes)
        .map(|id| id.to_string())
        .unwrap_or_default()
}

/// Writes `bytes` as a blob to the object database of the repository at `root`
/// (nothing if it is there already), named by no ref.
pub fn keep_blob(root: &Path, bytes: &[u8]) -> Result<()> {
    open(root)?.blob(bytes).context("writing a blob")?;
    Ok(())
}

/// A reader of blobs in the repository at `root`, opened once: the text of blob
/// `id`, if it is there.
pub fn blob_reader(root: &Path) -> Option<impl Fn(&str) -> Option<String>> {
    let repo = open(root).ok()?;
    Some(move |id: &str| blob_text(&repo, Oid::from_str(id).ok()?).ok())
}

/// How far back HEAD's reflog and the stash list are read for git's discards.
const REFLOG_READ: usize = 1_000;

/// The versions of `rel` git itself put in the work tree since `since` (seconds
/// since the epoch): where HEAD's reflog moved it by a reset, a revert, a rebase, a
/// merge, a pull or a cherry-pick that changed `rel`, each with when, its blob id
/// at the new commit and its text at the old one. A commit is none of these: it
/// takes the work tree as it is. The newest [`REFLOG_READ`] entries are read; an
/// entry stamped in the future (a committer date set by hand) is not taken.
pub fn put_versions(root: &Path, rel: &Path, since: i64, now: i64) -> Vec<(i64, String, String)> {
    let Ok(repo) = open(root) else {
        return Vec::new();
    };
    let Ok(reflog) = repo.reflog("HEAD") else {
        return Vec::new();
    };
    let blob = |id: Oid| -> Option<Oid> {
        let tree = repo.find_commit(id).ok()?.tree().ok()?;
        tree.get_path(rel).ok().map(|e| e.id())
    };
    const PUT_BY: [&str; 6] = [
        "reset:",
        "revert:",
        "rebase",
        "merge",
        "pull",
        "cherry-pick",
    ];
    reflog
        .iter()
        .take(REFLOG_READ)
        .filter_map(|entry| {
            let when = entry.committer().when().seconds();
            let message = String::from_utf8_lossy(entry.message_bytes().unwrap_or_default());
            let (old, new) = (entry.id_old(), entry.id_new());
            let put = PUT_BY.iter().any(|p| message.starts_with(p))
                && (since..=now).contains(&when)
                && old != new;
            let now_blob = put.then(|| blob(new)).flatten()?;
            let was = (!old.is_zero()).then(|| blob(old)).flatten()?;
            let was_text = (was != now_blob)
                .then(|| blob_text(&repo, was).ok())
                .flatten()?;
            Some((when, now_blob.to_string(), was_text))
        })
        .collect()
}

/// Each stash entry made since `since` (seconds since the epoch) that took `rel`'s
/// changes out of the work tree and left HEAD's version there (a `git stash` with
/// `rel` not staged apart, nor left out by a pathspec): when, the blob id it left,
/// and `rel`'s text in it. Writes a stash holds are put away, not lost. The newest
/// [`REFLOG_READ`] entries are read.
pub fn stashed(root: &Path, rel: &Path, since: i64) -> Vec<(i64, String, String)> {
    let Ok(repo) = open(root) else {
        return Vec::new();
    };
    let Ok(reflog) = repo.reflog("refs/stash") else {
        return Vec::new();
    };
    let at =
        |c: &git2::Commit<'_>| -> Option<Oid> { c.tree().ok()?.get_path(rel).ok().map(|e| e.id()) };
    reflog
        .iter()
        .take(REFLOG_READ)
        .filter(|entry| entry.committer().when().seconds() >= since)
        .filter_map(|entry| {
            let stash = repo.find_commit(entry.id_new()).ok()?;
            let head = stash.parent(0).ok()?;
            let index = stash.parent(1).ok()?;
            let (left, held) = (at(&head)?, at(&stash)?);
            // Staged apart (`--keep-index`) or not taken at all: the work tree kept it.
            if at(&index) != Some(left) || held == left {
                return None;
            }
            let text = blob_text(&repo, held).ok()?;
            Some((entry.committer().when().seconds(), left.to_string(), text))
        })
        .collect()
}

/// What HEAD names (`refs/heads/main`, or `HEAD` when detached) and the commit it
/// points at, in full; `None` on an unborn branch.
pub fn head_place(root: &Path) -> Result<(String, Option<String>)> {
    let head = head(&open(root)?)?;
    Ok((head.name, head.commit.map(|id| id.to_string())))
}

/// The commit a goal was started at. A squash or rebase can leave it out of the
/// clone, which is said as such rather than as libgit2's lookup error.
fn start_commit<'r>(repo: &'r Repository, rev: &str) -> Result<git2::Commit<'r>> {
    match lookup(repo, rev).and_then(|o| o.peel_to_commit()) {
        Ok(commit) => Ok(commit),
        Err(e) if e.code() == ErrorCode::NotFound => Err(anyhow::anyhow!(
            "commit {rev}, where the goal was started, is not in this clone (a squash or rebase leaves it out)"
        )),
        Err(e) => Err(anyhow::anyhow!(
            "reading commit {rev}, where the goal was started: {}",
            e.message()
        )),
    }
}

/// The tree HEAD points at; `None` while the branch is unborn.
fn head_tree(repo: &Repository) -> Result<Option<Tree<'_>>> {
    match head(repo)?.tree {
        Some(id) => Ok(Some(
            repo.find_tree(id)
                .with_context(|| format!("reading the HEAD tree {id}"))?,
        )),
        None => Ok(None),
    }
}

/// A path as git prints it, turned into one on disk under `root`.
fn disk_path(root: &Path, git_path: &[u8]) -> PathBuf {
    root.join(OsStr::from_bytes(git_path))
}

/// What is on disk at a path. Symlinks are never followed: their target text is
/// what the working tree holds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Disk {
    Missing,
    File {
        id: Oid,
        executable: bool,
    },
    Symlink {
        target: Oid,
    },
    /// A nested repository or submodule: status lists it as one entry, and its
    /// contents belong to another repository.
    Dir,
    /// A fifo, socket or device.
    Special,
}

fn disk_state(path: &Path) -> Result<Disk> {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(Disk::Missing);
        }
        Err(e) => return Err(e).with_context(|| format!("inspecting {}", path.display())),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target =
            fs::read_link(path).with_context(|| format!("reading the link {}", path.display()))?;
        let target = Oid::hash_object(ObjectType::Blob, target.as_os_str().as_bytes())
            .with_context(|| format!("hashing the link {}", path.display()))?;
        Ok(Disk::Symlink { target })
    } else if kind.is_file() {
        let id = match Oid::hash_file(ObjectType::Blob, path) {
            Ok(id) => id,
            // Deleted between the status and the hash: the next snapshot decides.
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(Disk::Missing),
            Err(e) => return Err(e).with_context(|| format!("hashing {}", path.display())),
        };
        Ok(Disk::File {
            id,
            executable: meta.permissions().mode() & 0o111 != 0,
        })
    } else if kind.is_dir() {
        Ok(Disk::Dir)
    } else {
        Ok(Disk::Special)
    }
}

/// One path that git status lists, as it stood.
#[derive(Clone, Debug, PartialEq, Eq)]
struct PathState {
    status: Status,
    /// The index's version when it differs from HEAD, so restaging a file whose
    /// disk bytes end up the same still shows.
    staged: Option<(Oid, FileMode)>,
    disk: Disk,
}

/// The working tree as far as git status sees it: every path that differs from
/// HEAD (in the index or on disk, untracked files one by one), with a hash of what
/// is on disk, plus where HEAD is. Ignored files, and the parts of the git
/// directory that run code or configure git (hooks, info, config), are recorded
/// by size, mtime, ctime and inode only: a model must not change those either, and
/// hashing a build directory twice per run would cost too much.
#[derive(Clone, Debug)]
pub struct Snapshot {
    root: PathBuf,
    head: Head,
    paths: BTreeMap<String, PathState>,
    stamps: BTreeMap<String, Stamp>,
    /// Each directory under an ignored directory, by its repo-relative name.
    ignored: HashMap<String, Listing>,
    /// The ignored directories status listed (disk path, name), walked above.
    ignored_roots: Vec<(PathBuf, String)>,
}

/// What a stat says about a file: enough to see it was written. The ctime is
/// what makes it so: anyone can set an mtime back (`touch -r`), but every write,
/// chmod or rename moves the ctime and only the kernel sets it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Stamp {
    len: u64,
    mtime: i64,
    mtime_nsec: i64,
    ctime: i64,
    ctime_nsec: i64,
    ino: u64,
    mode: u32,
}

fn stamp(path: &Path) -> Option<Stamp> {
    fs::symlink_metadata(path).ok().map(|m| Stamp::of(&m))
}

impl Stamp {
    fn of(m: &fs::Metadata) -> Stamp {
        use std::os::unix::fs::MetadataExt;
        Stamp {
            len: m.len(),
            mtime: m.mtime(),
            mtime_nsec: m.mtime_nsec(),
            ctime: m.ctime(),
            ctime_nsec: m.ctime_nsec(),
            ino: m.ino(),
            mode: m.mode(),
        }
    }
}

/// Every file under `dir` (or `dir` itself, if a file), by its stamp.
fn stamp_tree(dir: &Path, name: &str, out: &mut BTreeMap<String, Stamp>) {
    let Ok(meta) = fs::symlink_metadata(dir) else {
        return;
    };
    if !meta.is_dir() {
        if let Some(s) = stamp(dir) {
            out.insert(name.to_string(), s);
        }
        return;
    }
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let child = format!("{name}/{}", entry.file_name().to_string_lossy());
        stamp_tree(&entry.path(), &child, out);
    }
}

/// The files (not subdirectories) of one directory under an ignored directory,
/// in the order the directory listed them, their names end to end in one buffer:
/// a build directory holds tens of thousands of files, and a String and a map
/// entry for each cost more than its stat. An unchanged directory lists in the
/// same order, so two listings compare whole; only one that differs is taken
/// apart by name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Listing {
    names: Vec<u8>,
    ends: Vec<usize>,
    stamps: Vec<Stamp>,
}

impl Listing {
    fn files(&self) -> impl Iterator<Item = (&[u8], &Stamp)> {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts
            .zip(&self.ends)
            .map(|(start, &end)| &self.names[start..end])
            .zip(&self.stamps)
    }
}

/// A directory found by [`walk_ignored`]: which of its roots it is under, its
/// name and its files.
type Walked = (usize, String, Listing);

/// Every directory under the ignored directories `roots` (disk path, name) with
/// its files' stamps, one stat each: the entry's type from the directory listing
/// decides what to descend into, and the stat is taken relative to the open
/// directory. The stats are spread over threads, as git's preloaded index
/// spreads its own.
fn walk_ignored(roots: &[(PathBuf, String)]) -> Vec<Walked> {
    use std::sync::{Condvar, Mutex};
    if roots.is_empty() {
        return Vec::new();
    }
    // Directories left to read, and how many are being read (they may add more).
    let start = roots
        .iter()
        .enumerate()
        .map(|(i, (path, name))| (path.clone(), name.clone(), i))
        .collect::<Vec<_>>();
    let queue = Mutex::new((start, 0usize));
    let more = Condvar::new();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get().min(8));
    let parts: Vec<Vec<Walked>> = std::thread::scope(|scope| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                scope.spawn(|| {
                    let mut found = Vec::new();
                    loop {
                        let (dir, name, root) = {
                            let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                            loop {
                                if let Some(next) = q.0.pop() {
                                    q.1 += 1;
                                    break next;
                                }
                                if q.1 == 0 {
                                    more.notify_all();
                                    return found;
                                }
                                q = more.wait(q).unwrap_or_else(|e| e.into_inner());
                            }
                        };
                        let mut subdirs = Vec::new();
                        let mut listing = Listing::default();
                        if let Ok(entries) = fs::read_dir(&dir) {
                            for entry in entries.flatten() {
                                if entry.file_type().is_ok_and(|t| t.is_dir()) {
                                    let child = entry.file_name();
                                    let child = format!("{name}/{}", child.to_string_lossy());
                                    subdirs.push((entry.path(), child, root));
                                } else if let Ok(meta) = entry.metadata() {
                                    listing
                                        .names
                                        .extend_from_slice(entry.file_name().as_bytes());
                                    listing.ends.push(listing.names.len());
                                    listing.stamps.push(Stamp::of(&meta));
                                }
                            }
                            found.push((root, name, listing));
                        }
                        let mut q = queue.lock().unwrap_or_else(|e| e.into_inner());
                        q.0.extend(subdirs);
                        q.1 -= 1;
                        more.notify_all();
                    }
                })
            })
            .collect();
        workers
            .into_iter()
            .map(|w| w.join().unwrap_or_default())
            .collect()
    });
    parts.into_iter().flatten().collect()
}

/// The repo-relative name of the file `name` in the ignored directory `dir`.
fn in_dir(dir: &str, name: &[u8]) -> String {
    format!("{dir}/{}", String::from_utf8_lossy(name))
}

/// Adds to `out` the files that differ between two listings of one directory.
fn listing_changes(dir: &str, before: &Listing, after: &Listing, out: &mut BTreeSet<String>) {
    let old: BTreeMap<&[u8], &Stamp> = before.files().collect();
    let new: BTreeMap<&[u8], &Stamp> = after.files().collect();
    for (name, stamp) in &old {
        if new.get(name) != Some(stamp) {
            out.insert(in_dir(dir, name));
        }
    }
    for name in new.keys() {
        if !old.contains_key(name) {
            out.insert(in_dir(dir, name));
        }
    }
}

/// Records the working tree of the repository at `root`. Clean tracked files
/// cost a stat each (git's index cache); only listed paths are hashed.
pub fn snapshot(root: &Path) -> Result<Snapshot> {
    snapshot_of(root, true, None)
}

/// Records only HEAD and the tracked files (index and disk) that differ from it:
/// what a check may not change. Untracked and ignored files (build output,
/// coverage reports) and the git directory's hooks and config are left out.
pub fn tracked_snapshot(root: &Path) -> Result<Snapshot> {
    snapshot_of(root, false, None)
}

/// [`snapshot`] again, after `before`: the same record, taken sooner by walking
/// the ignored directories `before` saw while git's status runs.
pub fn snapshot_after(root: &Path, before: &Snapshot) -> Result<Snapshot> {
    snapshot_of(root, true, Some(before))
}

/// `before`, when given, names the ignored directories to walk while the status
/// runs; the status still decides which of them count, and any it lists that
/// `before` did not are walked after it.
fn snapshot_of(root: &Path, everything: bool, before: Option<&Snapshot>) -> Result<Snapshot> {
    let repo = open(root)?;
    let workdir = repo
        .workdir()
        .with_context(|| format!("{} has no working tree", root.display()))?
        .to_path_buf();
    let head = head(&repo)?;
    let mut options = StatusOptions::new();
    options
        .show(StatusShow::IndexAndWorkdir)
        .include_untracked(everything)
        .recurse_untracked_dirs(everything)
        .include_ignored(everything)
        // An ignored directory is listed once and walked below: libgit2 would
        // lstat every file in it, and the stamps then again.
        .recurse_ignored_dirs(false)
        .include_unmodified(false)
        .renames_head_to_index(false)
        .renames_index_to_workdir(false);
    let guess = before.map_or(&[][..], |b| &b.ignored_roots[..]);
    let (statuses, guessed) = std::thread::scope(|scope| {
        let walk = scope.spawn(|| walk_ignored(guess));
        let statuses = repo.statuses(Some(&mut options));
        (statuses, walk.join().unwrap_or_default())
    });
    let statuses =
        statuses.with_context(|| format!("reading the status of {}", workdir.display()))?;
    let mut paths = BTreeMap::new();
    let mut stamps = BTreeMap::new();
    let mut ignored_dirs = Vec::new();
    for entry in statuses.iter() {
        let git_path = entry.path_bytes();
        if entry.status().contains(Status::IGNORED) {
            let name = String::from_utf8_lossy(git_path);
            match name.strip_suffix('/') {
                Some(dir) => {
                    ignored_dirs.push((disk_path(&workdir, dir.as_bytes()), dir.to_string()));
                }
                None => {
                    if let Some(s) = stamp(&disk_path(&workdir, git_path)) {
                        stamps.insert(name.into_owned(), s);
                    }
                }
            }
            continue;
        }
        let staged = entry
            .head_to_index()
            .map(|delta| (delta.new_file().id(), delta.new_file().mode()));
        let state = PathState {
            status: entry.status(),
            staged,
            disk: disk_state(&disk_path(&workdir, git_path))?,
        };
        paths.insert(String::from_utf8_lossy(git_path).into_owned(), state);
    }
    let mut ignored = HashMap::new();
    for (root, dir, listing) in guessed {
        if ignored_dirs.contains(&guess[root]) {
            ignored.insert(dir, listing);
        }
    }
    let unguessed: Vec<_> = ignored_dirs
        .iter()
        .filter(|dir| !guess.contains(dir))
        .cloned()
        .collect();
    for (_, dir, listing) in walk_ignored(&unguessed) {
        ignored.insert(dir, listing);
    }
    if !everything {
        return Ok(Snapshot {
            root: workdir,
            head,
            paths,
            stamps,
            ignored,
            ignored_roots: ignored_dirs,
        });
    }
    // In a linked worktree the hooks, info and config that every worktree obeys
    // live in the common dir, not in the worktree's own git dir.
    let common = repo.commondir();
    for part in ["hooks", "info", "config", "config.worktree"] {
        stamp_tree(&common.join(part), &format!(".git/{part}"), &mut stamps);
    }
    let own = repo.path();
    if let Ok(rel) = own.strip_prefix(common)
        && !rel.as_os_str().is_empty()
    {
        let name = format!(".git/{}/config.worktree", rel.to_string_lossy());
        stamp_tree(&own.join("config.worktree"), &name, &mut stamps);
    }
    Ok(Snapshot {
        root: workdir,
        head,
        paths,
        stamps,
        ignored,
        ignored_roots: ignored_dirs,
    })
}

impl Snapshot {
    /// What differs between this snapshot and `after`: when HEAD moved, first a
    /// `HEAD: main at 1a2b3c4 → main at 5d6e7f8` line, then the sorted
    /// repo-relative paths whose status, staged version or disk bytes differ
    /// (including paths a commit took out of the status). Empty: no change.
    pub fn changes(&self, after: &Snapshot) -> Vec<String> {
        let mut paths = BTreeSet::new();
        for (path, state) in &self.paths {
            if after.paths.get(path) != Some(state) {
                paths.insert(path.clone());
            }
        }
        for path in after.paths.keys() {
            if !self.paths.contains_key(path) {
                paths.insert(path.clone());
            }
        }
        for (path, stamp) in &self.stamps {
            if after.stamps.get(path) != Some(stamp) {
                paths.insert(path.clone());
            }
        }
        for path in after.stamps.keys() {
            if !self.stamps.contains_key(path) {
                paths.insert(path.clone());
            }
        }
        for (dir, listing) in &self.ignored {
            match after.ignored.get(dir) {
                Some(now) if now == listing => {}
                Some(now) => listing_changes(dir, listing, now, &mut paths),
                None => paths.extend(listing.files().map(|(name, _)| in_dir(dir, name))),
            }
        }
        for (dir, listing) in &after.ignored {
            if !self.ignored.contains_key(dir) {
                paths.extend(listing.files().map(|(name, _)| in_dir(dir, name)));
            }
        }
        let mut out = Vec::new();
        if self.head != after.head {
            out.push(format!("HEAD: {} → {}", self.head, after.head));
            if self.head.tree != after.head.tree {
                paths.extend(self.committed_changes(after));
            }
        }
        out.extend(paths);
        out
    }

    /// Paths that differ between the two HEAD trees. Best effort: the HEAD line
    /// already reports the move if the trees cannot be read.
    fn committed_changes(&self, after: &Snapshot) -> Vec<String> {
        let Ok(repo) = Repository::open(&self.root) else {
            return Vec::new();
        };
        let tree = |id: Option<Oid>| id.and_then(|id| repo.find_tree(id).ok());
        let (old, new) = (tree(self.head.tree), tree(after.head.tree));
        let Ok(diff) = repo.diff_tree_to_tree(old.as_ref(), new.as_ref(), None) else {
            return Vec::new();
        };
        let mut paths = Vec::new();
        for delta in diff.deltas() {
            for file in [delta.old_file(), delta.new_file()] {
                if let Some(path) = file.path_bytes() {
                    paths.push(String::from_utf8_lossy(path).into_owned());
                }
            }
        }
        paths
    }
}

/// How many file lines `diff_stat` shows before summarising the rest.
const DIFF_STAT_FILES: usize = 200;

/// `git diff --stat HEAD` with untracked files counted as added: one line per
/// file and a summary line, or "" when nothing differs. An unborn branch is
/// compared with the empty tree.
#[cfg(test)]
pub fn diff_stat(root: &Path) -> Result<String> {
    diff_stat_since(root, None)
}

/// The diff from commit `base` (`None`: HEAD; an unborn branch: the empty tree) to
/// the working tree, untracked files included and renames found. A `base` that names
/// no commit here is an error. `diffing` and `renames` say what failed.
pub(crate) fn diff_to_workdir<'r>(
    repo: &'r Repository,
    base: Option<&str>,
    untracked_content: bool,
    diffing: &str,
    renames: &str,
) -> Result<git2::Diff<'r>> {
    let tree = match base {
        None => head_tree(repo)?,
        Some(base) => Some(
            start_commit(repo, base)?
                .tree()
                .with_context(|| format!("reading commit {base}'s tree"))?,
        ),
    };
    let mut options = DiffOptions::new();
    options
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .show_untracked_content(untracked_content)
        .include_typechange(true);
    let mut diff = repo
        .diff_tree_to_workdir_with_index(tree.as_ref(), Some(&mut options))
        .with_context(|| diffing.to_string())?;
    diff.find_similar(Some(
        DiffFindOptions::new().renames(true).for_untracked(true),
    ))
    .with_context(|| renames.to_string())?;
    Ok(diff)
}

/// The diff stat from commit `base` (the goal's start) to the working tree, so work
/// committed since then shows; `None` compares with HEAD, as `diff_stat` does.
pub fn diff_stat_since(root: &Path, base: Option<&str>) -> Result<String> {
    let repo = open(root)?;
    let diff = diff_to_workdir(
        &repo,
        base,
        true,
        &format!(
            "diffing the working tree of {} against HEAD",
            root.display()
        ),
        "finding renames in the working tree diff",
    )?;
    let stats = diff.stats().context("counting the working tree diff")?;
    if stats.files_changed() == 0 {
        return Ok(String::new());
    }
    let buf = stats
        .to_buf(DiffStatsFormat::FULL, 80)
        .context("formatting the working tree diff stat")?;
    Ok(cap_stat(&String::from_utf8_lossy(&buf)))
}

/// Keeps the first file lines and the summary line of a diff stat.
fn cap_stat(stat: &str) -> String {
    let lines: Vec<&str> = stat.lines().collect();
    let Some((summary, files)) = lines.split_last() else {
        return String::new();
    };
    let mut out = String::new();
    for line in files.iter().take(DIFF_STAT_FILES) {
        out.push_str(line);
        out.push('\n');
    }
    if files.len() > DIFF_STAT_FILES {
        out.push_str(&format!(
            " … {} more files\n",
            files.len() - DIFF_STAT_FILES
        ));
    }
    out.push_str(summary);
    out.push('\n');
    out
}

/// Whether git ignores `rel` (relative to the top of the working tree), per
/// .gitignore files, .git/info/exclude and core.excludesFile. Tracked paths are
/// never ignored, as with `git check-ignore`.
#[cfg(test)]
pub fn is_ignored(root: &Path, rel: &Path) -> Result<bool> {
    ignored(&open(root)?, rel)
}

fn ignored(repo: &Repository, rel: &Path) -> Result<bool> {
    let index = repo.index().context("reading the git index")?;
    if index.get_path(rel, 0).is_some() {
        return Ok(false);
    }
    let mut folder = rel.as_os_str().as_bytes().to_vec();
    folder.push(b'/');
    match index.find_prefix(folder) {
        Ok(_) => return Ok(false),
        Err(e) if e.code() == ErrorCode::NotFound => {}
        Err(e) => {
            return Err(e)
                .with_context(|| format!("looking up {} in the git index", rel.display()));
        }
    }
    repo.is_path_ignored(rel)
        .with_context(|| format!("checking whether git ignores {}", rel.display()))
}

/// Why a path cannot serve as evidence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PathProblem {
    Missing,
    /// Outside the working tree, or inside a `.git` directory.
    OutsideRepo,
    /// Inside the working tree by name, but a symlink leads out of it.
    SymlinkOutside,
    /// A fifo, socket or device: reading one can block forever (a fifo hangs the
    /// `llm` judge's prompt assembly), and none of them holds evidence.
    NotAFile,
    Ignored,
}

impl fmt::Display for PathProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathProblem::Missing => "does not exist",
            PathProblem::OutsideRepo => "is not inside the repository's working tree",
            PathProblem::SymlinkOutside => {
                "is a symlink to a place outside the repository's working tree"
            }
            PathProblem::NotAFile => "is not a regular file or directory",
            PathProblem::Ignored => "is ignored by git, so it will not last",
        })
    }
}

impl std::error::Error for PathProblem {}

/// Resolves an evidence path (`given`, relative to `cwd` or absolute) to a
/// repo-relative path with symlinks resolved. The inner error says why the path
/// is refused; the outer one is a failure to check at all.
pub fn check_evidence_path(
    root: &Path,
    cwd: &Path,
    given: &Path,
    allow_ignored: bool,
) -> Result<Result<PathBuf, PathProblem>> {
    let joined = cwd.join(given);
    let resolved = match fs::canonicalize(&joined) {
        Ok(path) => path,
        Err(e) if matches!(e.kind(), ErrorKind::NotFound | ErrorKind::NotADirectory) => {
            return Ok(Err(PathProblem::Missing));
        }
        Err(e) => {
            return Err(e)
                .with_context(|| format!("resolving the evidence path {}", given.display()));
        }
    };
    let top = fs::canonicalize(root)
        .with_context(|| format!("resolving the repository root {}", root.display()))?;
    let Ok(rel) = resolved.strip_prefix(&top) else {
        let named = lexical(&joined);
        let inside = named.starts_with(lexical(root)) || named.starts_with(&top);
        return Ok(Err(if inside {
            PathProblem::SymlinkOutside
        } else {
            PathProblem::OutsideRepo
        }));
    };
    let in_git_dir = rel.components().any(|c| {
        c.as_os_str()
            .to_str()
            .is_some_and(|name| name.eq_ignore_ascii_case(".git"))
    });
    if in_git_dir {
        return Ok(Err(PathProblem::OutsideRepo));
    }
    // `resolved` has no symlinks left, so this is the file itself.
    let kind = fs::metadata(&resolved)
        .with_context(|| format!("inspecting the evidence path {}", given.display()))?
        .file_type();
    if !kind.is_file() && !kind.is_dir() {
        return Ok(Err(PathProblem::NotAFile));
    }
    if rel.as_os_str().is_empty() {
        return Ok(Ok(PathBuf::from(".")));
    }
    if !allow_ignored && ignored(&open(root)?, rel)? {
        return Ok(Err(PathProblem::Ignored));
    }
    Ok(Ok(rel.to_path_buf()))
}

/// `path` with `.` and `..` resolved by name alone, without touching the disk.
fn lexical(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for component in path.components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

/// One committed version of a file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Revision {
    /// The full hex id of the commit that wrote this version.
    pub commit: String,
    /// The commit's shortest unambiguous abbreviation (at least core.abbrev).
    pub short: String,
    pub summary: String,
    /// Commit time, seconds since the epoch.
    pub time: i64,
    /// The file as committed, decoded lossily as UTF-8.
    pub content: String,
}

/// The files git does not track and does not ignore (what `git add -A` would
/// add), repository-relative: new work not added yet.
pub fn untracked(root: &Path) -> Result<Vec<String>> {
    let repo = open(root)?;
    let mut options = StatusOptions::new();
    options
        .show(StatusShow::Workdir)
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .exclude_submodules(true)
        .include_unmodified(false);
    let statuses = repo
        .statuses(Some(&mut options))
        .with_context(|| format!("reading the status of {}", root.display()))?;
    Ok(statuses
        .iter()
        .filter(|e| e.status().contains(Status::WT_NEW))
        .map(|e| String::from_utf8_lossy(e.path_bytes()).into_owned())
        .collect())
}

/// The blob id (full hex) of each of `paths` in the tree of `commit` (a full
/// commit id), in order; `None` where the tree has no file there.
pub fn blobs_in(root: &Path, commit: &str, paths: &[&str]) -> Result<Vec<Option<String>>> {
    let repo = open(root)?;
    let id = Oid::from_str(commit).with_context(|| format!("reading the commit id {commit}"))?;
    let tree = repo
        .find_commit(id)
        .and_then(|c| c.tree())
        .with_context(|| format!("reading the tree of {commit}"))?;
    paths
        .iter()
        .map(|rel| Ok(blob_at(&tree, Path::new(rel))?.map(|id| id.to_string())))
        .collect()
}

/// The blob at `rel` in `tree`; `None` when absent or not a file.
fn blob_at(tree: &Tree<'_>, rel: &Path) -> Result<Option<Oid>> {
    match tree.get_path(rel) {
        Ok(entry) if entry.kind() == Some(ObjectType::Blob) => Ok(Some(entry.id())),
        Ok(_) => Ok(None),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("looking up {} in a tree", rel.display())),
    }
}

fn blob_text(repo: &Repository, id: Oid) -> Result<String> {
    let blob = repo
        .find_blob(id)
        .with_context(|| format!("reading the blob {id}"))?;
    Ok(String::from_utf8_lossy(blob.content()).into_owned())
}

/// Up to `limit` versions of `rel`, newest first: the commits along HEAD's first
/// parents where the file's blob differs from the first parent's (a root commit
/// counts when it has the file). Deletions have no content and are skipped;
/// renames are not followed. Empty on an unborn branch.
pub fn file_history(root: &Path, rel: &Path, limit: usize) -> Result<Vec<Revision>> {
    let repo = open(root)?;
    let mut revisions = Vec::new();
    let Some(mut id) = head(&repo)?.commit else {
        return Ok(revisions);
    };
    let mut commit = repo
        .find_commit(id)
        .with_context(|| format!("reading the commit {id}"))?;
    let tree = commit
        .tree()
        .with_context(|| format!("reading the tree of {id}"))?;
    let mut blob = blob_at(&tree, rel)?;
    while revisions.len() < limit {
        let parent = match commit.parent(0) {
            Ok(parent) => Some(parent),
            Err(e) if e.code() == ErrorCode::NotFound => None,
            Err(e) => return Err(e).with_context(|| format!("reading the parent of {id}")),
        };
        let parent_blob = match &parent {
            Some(parent) => {
                let tree = parent
                    .tree()
                    .with_context(|| format!("reading the tree of {}", parent.id()))?;
                blob_at(&tree, rel)?
            }
            None => None,
        };
        if let Some(current) = blob
            && blob != parent_blob
        {
            let short = commit
                .as_object()
                .short_id()
                .with_context(|| format!("abbreviating {id}"))?;
            revisions.push(Revision {
                commit: id.to_string(),
                short: String::from_utf8_lossy(&short).into_owned(),
                summary: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                    .into_owned(),
                time: commit.time().seconds(),
                content: blob_text(&repo, current)?,
            });
        }
        let Some(parent) = parent else { break };
        id = parent.id();
        commit = parent;
        blob = parent_blob;
    }
    Ok(revisions)
}

/// The first parent of the oldest commit of the run, back from commit `from` along
/// first parents, whose version of `rel` `keep` says yes to: where what `keep` looks
/// for (a goal started) came in, read from history rather than from any line that
/// says so. `None` when `from`'s own version says no, or the run reaches the root
/// commit. One version is held at a time.
pub fn parent_before_run(
    root: &Path,
    from: &str,
    rel: &Path,
    mut keep: impl FnMut(&str) -> bool,
) -> Result<Option<String>> {
    let repo = open(root)?;
    let mut id = lookup(&repo, from)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {from}"))?
        .id();
    let mut seen: Option<(Oid, bool)> = None;
    let mut kept_any = false;
    loop {
        let commit = repo
            .find_commit(id)
            .with_context(|| format!("reading the commit {id}"))?;
        let tree = commit
            .tree()
            .with_context(|| format!("reading the tree of {id}"))?;
        let kept = match blob_at(&tree, rel)? {
            None => false,
            Some(blob) => match seen {
                Some((last, kept)) if last == blob => kept,
                _ => {
                    let kept = keep(&blob_text(&repo, blob)?);
                    seen = Some((blob, kept));
                    kept
                }
            },
        };
        if !kept {
            return Ok(kept_any.then(|| id.to_string()));
        }
        kept_any = true;
        match commit.parent(0) {
            Ok(parent) => id = parent.id(),
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
            Err(e) => return Err(e).with_context(|| format!("reading the parent of {id}")),
        }
    }
}

/// Up to `limit` distinct versions of `rel` in every commit HEAD reaches, merged
/// branches' too, newest first, each with the newest commit that has it: those
/// `keep` says yes to. A version kept off HEAD's first parents (a branch merged
/// back with `-s ours`) is still history: a check that the log only grew must see
/// it. Only the versions kept are held in memory, so a search through a long
/// history (every version of plan.md, however many) costs one version at a time.
pub fn file_versions_where(
    root: &Path,
    rel: &Path,
    limit: usize,
    mut keep: impl FnMut(&str) -> bool,
) -> Result<Vec<Revision>> {
    let repo = open(root)?;
    let mut revisions = Vec::new();
    let Some(tip) = head(&repo)?.commit else {
        return Ok(revisions);
    };
    let mut walk = repo.revwalk().context("walking the history")?;
    walk.set_sorting(git2::Sort::TOPOLOGICAL | git2::Sort::TIME)
        .context("sorting the history")?;
    walk.push(tip).context("walking the history")?;
    let mut seen = std::collections::HashSet::new();
    for id in walk {
        if revisions.len() >= limit {
            break;
        }
        let id = id.context("walking the history")?;
        let commit = repo
            .find_commit(id)
            .with_context(|| format!("reading the commit {id}"))?;
        let tree = commit
            .tree()
            .with_context(|| format!("reading the tree of {id}"))?;
        let Some(blob) = blob_at(&tree, rel)? else {
            continue;
        };
        if !seen.insert(blob) {
            continue;
        }
        let content = blob_text(&repo, blob)?;
        if !keep(&content) {
            continue;
        }
        let short = commit
            .as_object()
            .short_id()
            .with_context(|| format!("abbreviating {id}"))?;
        revisions.push(Revision {
            commit: id.to_string(),
            short: String::from_utf8_lossy(&short).into_owned(),
            summary: String::from_utf8_lossy(commit.summary_bytes().unwrap_or_default())
                .into_owned(),
            time: commit.time().seconds(),
            content,
        });
    }
    Ok(revisions)
}

/// A revision git cannot resolve to a commit or tree: a usage error, not a broken
/// repository, so callers can tell the user which argument to fix.
#[derive(Debug)]
pub struct UnknownRevision {
    pub rev: String,
    pub reason: String,
}

impl fmt::Display for UnknownRevision {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown revision {:?}: {}", self.rev, self.reason)
    }
}

impl std::error::Error for UnknownRevision {}

/// The file `rel` as it was at `rev` (anything `git rev-parse` takes: `HEAD~2`, a
/// hash, a branch). `None` when the file did not exist there, and for `HEAD` on a
/// branch with no commits yet, where nothing existed. A revision that names nothing
/// is an [`UnknownRevision`].
pub fn file_at(root: &Path, rev: &str, rel: &Path) -> Result<Option<String>> {
    let repo = open(root)?;
    let unknown = |reason: String| {
        anyhow::Error::new(UnknownRevision {
            rev: rev.to_string(),
            reason,
        })
    };
    let object = match lookup(&repo, rev) {
        Ok(object) => object,
        Err(_) if rev == "HEAD" && head(&repo)?.commit.is_none() => return Ok(None),
        Err(e)
            if matches!(
                e.code(),
                ErrorCode::NotFound | ErrorCode::InvalidSpec | ErrorCode::Ambiguous
            ) =>
        {
            return Err(unknown(e.message().to_string()));
        }
        Err(e) => return Err(e).with_context(|| format!("resolving the revision {rev:?}")),
    };
    let tree = object
        .peel_to_tree()
        .map_err(|_| unknown("it names no commit or tree".to_string()))?;
    let entry = match tree.get_path(rel) {
        Ok(entry) => entry,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
        Err(e) => {
            return Err(e).with_context(|| format!("looking up {} at {rev:?}", rel.display()));
        }
    };
    if entry.kind() != Some(ObjectType::Blob) {
        anyhow::bail!("{} is not a file at {rev:?}", rel.display());
    }
    Ok(Some(blob_text(&repo, entry.id())?))
}

/// When the commit `rev` names was made, seconds since the epoch; `None` when it
/// names a tree rather than a commit. A revision that names nothing is an
/// [`UnknownRevision`].
pub fn commit_time(root: &Path, rev: &str) -> Result<Option<i64>> {
    let repo = open(root)?;
    let object = lookup(&repo, rev).map_err(|e| {
        anyhow::Error::new(UnknownRevision {
            rev: rev.to_string(),
            reason: e.message().to_string(),
        })
    })?;
    Ok(object.peel_to_commit().ok().map(|c| c.time().seconds()))
}

/// git run as the tests run it: in `dir`, with `home` as HOME, no config of
/// the machine's and a fixed author; panics with git's stderr on failure.
#[cfg(test)]
pub(crate) fn git_for_tests(dir: &Path, home: &Path, args: &[&str]) -> String {
    use std::process::{Command, Stdio};
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", crate::env::text("PATH").unwrap_or_default())
        .env("HOME", home)
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "git {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::symlink;
    use std::process::Command;

    use super::*;

    /// A temporary repository driven by the git CLI in a hermetic environment.
    struct TestRepo {
        dir: tempfile::TempDir,
        root: PathBuf,
    }

    impl TestRepo {
        /// An empty repository on branch `main`.
        fn new() -> TestRepo {
            let dir = tempfile::tempdir().unwrap();
            let root = fs::canonicalize(dir.path()).unwrap().join("repo");
            fs::create_dir(&root).unwrap();
            let repo = TestRepo { dir, root };
            repo.git(&["init", "-q", "-b", "main"]);
            repo
        }

        /// A repository with `files` committed as "initial".
        fn with(files: &[(&str, &str)]) -> TestRepo {
            let repo = TestRepo::new();
            for (path, content) in files {
                repo.write(path, content);
            }
            repo.commit_all("initial");
            repo
        }

        fn git_in(&self, dir: &Path, args: &[&str]) -> String {
            super::git_for_tests(dir, self.dir.path(), args)
        }

        fn git(&self, args: &[&str]) -> String {
            self.git_in(&self.root, args)
        }

        fn commit_all(&self, message: &str) -> String {
            self.git(&["add", "-A"]);
            self.git(&["commit", "-q", "--allow-empty", "-m", message]);
            self.git(&["rev-parse", "HEAD"]).trim().to_string()
        }

        fn path(&self, rel: &str) -> PathBuf {
            self.root.join(rel)
        }

        fn write(&self, rel: &str, content: &str) {
            let path = self.path(rel);
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, content).unwrap();
        }

        fn snapshot(&self) -> Snapshot {
            snapshot(&self.root).unwrap()
        }

        /// A linked worktree of this repository on a new branch `name`.
        fn worktree(&self, name: &str) -> PathBuf {
            let path = self.dir.path().join(name);
            self.git(&["worktree", "add", "-q", "-b", name, path.to_str().unwrap()]);
            fs::canonicalize(path).unwrap()
        }
    }

    fn strings(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_clean_tree_has_no_changes_between_snapshots() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("src/b.rs", "b\n")]);
        repo.write("untracked.txt", "u\n");
        repo.write("modified.txt", "m\n");
        let before = repo.snapshot();
        assert!(before.changes(&repo.snapshot()).is_empty());
        assert!(before.changes(&before).is_empty());
    }

    #[test]
    fn editing_a_clean_tracked_file_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        let before = repo.snapshot();
        repo.write("a.txt", "changed by the judge\n");
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn editing_a_file_that_was_already_modified_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        repo.write("a.txt", "the agent's edit\n");
        let before = repo.snapshot();
        repo.write("a.txt", "the judge's edit\n");
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn reverting_a_modified_file_to_its_committed_content_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        repo.write("a.txt", "the agent's edit\n");
        let before = repo.snapshot();
        repo.git(&["checkout", "--", "a.txt"]);
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn creating_an_untracked_file_in_a_new_directory_names_the_file() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let before = repo.snapshot();
        repo.write("new/deeper/notes.md", "n\n");
        assert_eq!(
            before.changes(&repo.snapshot()),
            strings(&["new/deeper/notes.md"])
        );
    }

    #[test]
    fn editing_an_untracked_file_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        repo.write("scratch/log.txt", "first\n");
        repo.write("scratch/other.txt", "other\n");
        let before = repo.snapshot();
        repo.write("scratch/log.txt", "second\n");
        assert_eq!(
            before.changes(&repo.snapshot()),
            strings(&["scratch/log.txt"])
        );
    }

    #[test]
    fn deleting_tracked_and_untracked_files_are_changes() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        repo.write("u.txt", "u\n");
        let before = repo.snapshot();
        fs::remove_file(repo.path("a.txt")).unwrap();
        fs::remove_file(repo.path("u.txt")).unwrap();
        assert_eq!(
            before.changes(&repo.snapshot()),
            strings(&["a.txt", "u.txt"])
        );
    }

    #[test]
    fn deleting_a_modified_file_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        repo.write("a.txt", "edited\n");
        let before = repo.snapshot();
        fs::remove_file(repo.path("a.txt")).unwrap();
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn changes_to_ignored_files_and_git_hooks_are_reported() {
        let repo = TestRepo::with(&[(".gitignore", "target/\n*.log\n.env\n"), ("a.txt", "a\n")]);
        repo.write("target/debug/out", "1\n");
        repo.write(".env", "SECRET=old\n");
        let before = repo.snapshot();
        assert!(
            before.changes(&repo.snapshot()).is_empty(),
            "a second look changes nothing"
        );
        repo.write("target/debug/out", "22\n");
        repo.write("target/new", "n\n");
        repo.write("run.log", "l\n");
        repo.write(".env", "SECRET=changed\n");
        repo.write(".git/hooks/post-checkout", "#!/bin/sh\n");
        assert_eq!(
            before.changes(&repo.snapshot()),
            [
                ".env",
                ".git/hooks/post-checkout",
                "run.log",
                "target/debug/out",
                "target/new"
            ]
        );
    }

    #[test]
    fn the_walk_of_ignored_directories_sees_nested_dirs_links_and_same_size_rewrites() {
        let repo = TestRepo::with(&[(".gitignore", "gen/\n"), ("src/a.rs", "a\n")]);
        repo.write("src/gen/deep/x.o", "12345\n");
        repo.write("src/gen/y.o", "y\n");
        std::os::unix::fs::symlink("y.o", repo.path("src/gen/link")).unwrap();
        let before = repo.snapshot();
        assert!(before.changes(&repo.snapshot()).is_empty());
        let mtime = fs::metadata(repo.path("src/gen/deep/x.o"))
            .unwrap()
            .modified()
            .unwrap();
        repo.write("src/gen/deep/x.o", "54321\n");
        fs::File::options()
            .write(true)
            .open(repo.path("src/gen/deep/x.o"))
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        fs::remove_file(repo.path("src/gen/link")).unwrap();
        std::os::unix::fs::symlink("deep/x.o", repo.path("src/gen/link")).unwrap();
        fs::create_dir_all(repo.path("src/gen/new")).unwrap();
        repo.write("src/gen/new/z.o", "z\n");
        assert_eq!(
            before.changes(&repo.snapshot()),
            ["src/gen/deep/x.o", "src/gen/link", "src/gen/new/z.o"]
        );
    }

    /// Both ways to take the second snapshot, each compared with `before`.
    fn changes_both_ways(repo: &TestRepo, before: &Snapshot) -> [Vec<String>; 2] {
        [
            before.changes(&repo.snapshot()),
            before.changes(&snapshot_after(&repo.root, before).unwrap()),
        ]
    }

    #[test]
    fn every_kind_of_change_under_an_ignored_directory_is_reported() {
        let repo = TestRepo::with(&[(".gitignore", "/target/\n"), ("a.txt", "a\n")]);
        for name in ["keep", "gone", "from", "chmod", "linked", "same"] {
            repo.write(&format!("target/d/{name}"), "12345\n");
        }
        repo.write("target/old/x.o", "x\n");
        repo.write("target/old/deeper/y.o", "y\n");
        symlink("keep", repo.path("target/d/link")).unwrap();
        let before = repo.snapshot();
        for after in changes_both_ways(&repo, &before) {
            assert!(after.is_empty(), "a second look changes nothing: {after:?}");
        }
        fs::remove_file(repo.path("target/d/gone")).unwrap();
        fs::rename(repo.path("target/d/from"), repo.path("target/d/to")).unwrap();
        fs::set_permissions(
            repo.path("target/d/chmod"),
            fs::Permissions::from_mode(0o700),
        )
        .unwrap();
        fs::remove_file(repo.path("target/d/link")).unwrap();
        symlink("same", repo.path("target/d/link")).unwrap();
        fs::remove_dir_all(repo.path("target/old")).unwrap();
        repo.write("target/new/z.o", "z\n");
        // A hard link from outside the tree: writes through it name no path
        // under target/; only the file's ctime and link count tell.
        fs::hard_link(
            repo.path("target/d/linked"),
            repo.dir.path().join("outside"),
        )
        .unwrap();
        // Rewritten in place: same size, mtime put back.
        let mtime = fs::metadata(repo.path("target/d/same"))
            .unwrap()
            .modified()
            .unwrap();
        fs::write(repo.path("target/d/same"), "54321\n").unwrap();
        fs::File::options()
            .write(true)
            .open(repo.path("target/d/same"))
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        let want = [
            "target/d/chmod",
            "target/d/from",
            "target/d/gone",
            "target/d/link",
            "target/d/linked",
            "target/d/same",
            "target/d/to",
            "target/new/z.o",
            "target/old/deeper/y.o",
            "target/old/x.o",
        ];
        for after in changes_both_ways(&repo, &before) {
            assert_eq!(after, want);
        }
    }

    #[test]
    fn a_directory_that_stops_or_starts_being_ignored_is_still_compared() {
        let repo = TestRepo::with(&[(".gitignore", "/out/\n/gen/\n"), ("a.txt", "a\n")]);
        repo.write("out/o.bin", "o\n");
        repo.write("gen/g.rs", "g\n");
        repo.write("gen/sub/s.o", "s\n");
        repo.write("logs/l.txt", "l\n");
        let before = repo.snapshot();
        // out/ is no longer ignored (its file turns up untracked), logs/ now is,
        // and only a part of gen/ still is: its untouched file is no change.
        repo.write(".gitignore", "/gen/sub/\n/logs/\n");
        repo.write("logs/l.txt", "L\n");
        for after in changes_both_ways(&repo, &before) {
            assert_eq!(after, [".gitignore", "gen/g.rs", "logs/l.txt", "out/o.bin"]);
        }
        // Untouched after the switch: only the ignore file and the move of
        // out/o.bin from ignored to untracked show.
        let before = repo.snapshot();
        for after in changes_both_ways(&repo, &before) {
            assert!(after.is_empty(), "{after:?}");
        }
    }

    #[test]
    fn staging_a_change_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        repo.write("a.txt", "edited\n");
        let before = repo.snapshot();
        repo.git(&["add", "a.txt"]);
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn restaging_other_content_with_the_same_bytes_on_disk_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        repo.write("a.txt", "staged\n");
        repo.git(&["add", "a.txt"]);
        repo.write("a.txt", "on disk\n");
        let before = repo.snapshot();
        repo.write("a.txt", "sneaked\n");
        repo.git(&["add", "a.txt"]);
        repo.write("a.txt", "on disk\n");
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn a_mode_change_is_a_change() {
        let repo = TestRepo::with(&[("run.sh", "echo hi\n")]);
        repo.write("run.sh", "echo edited\n");
        let before = repo.snapshot();
        let path = repo.path("run.sh");
        fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
        assert_eq!(before.changes(&repo.snapshot()), strings(&["run.sh"]));
    }

    #[test]
    fn retargeting_a_symlink_is_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        symlink("a.txt", repo.path("link")).unwrap();
        let before = repo.snapshot();
        fs::remove_file(repo.path("link")).unwrap();
        symlink("b.txt", repo.path("link")).unwrap();
        assert_eq!(before.changes(&repo.snapshot()), strings(&["link"]));
    }

    #[test]
    fn a_commit_by_the_judge_is_reported_with_the_files_it_took() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let before = repo.snapshot();
        repo.write("sneaky.txt", "s\n");
        repo.commit_all("judge commit");
        let changes = before.changes(&repo.snapshot());
        assert_eq!(changes.len(), 2, "{changes:?}");
        assert!(changes[0].starts_with("HEAD: main at "), "{changes:?}");
        assert_eq!(changes[1], "sneaky.txt");
    }

    #[test]
    fn an_empty_commit_is_still_a_change() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let before = repo.snapshot();
        repo.commit_all("nothing");
        let changes = before.changes(&repo.snapshot());
        assert_eq!(changes.len(), 1, "{changes:?}");
        assert!(changes[0].starts_with("HEAD: "), "{changes:?}");
    }

    #[test]
    fn snapshots_work_in_an_unborn_repository() {
        let repo = TestRepo::new();
        repo.write("a.txt", "a\n");
        let before = repo.snapshot();
        assert!(before.changes(&repo.snapshot()).is_empty());
        repo.write("a.txt", "b\n");
        assert_eq!(before.changes(&repo.snapshot()), strings(&["a.txt"]));
    }

    #[test]
    fn snapshots_work_in_a_linked_worktree() {
        let repo = TestRepo::with(&[("a.txt", "a\n"), ("b.txt", "b\n")]);
        let wt = repo.worktree("side");
        fs::write(wt.join("b.txt"), "agent\n").unwrap();
        let before = snapshot(&wt).unwrap();
        fs::write(wt.join("a.txt"), "judge\n").unwrap();
        fs::write(wt.join("new.txt"), "judge\n").unwrap();
        fs::write(repo.path("main-only.txt"), "elsewhere\n").unwrap();
        let after = snapshot(&wt).unwrap();
        assert_eq!(before.changes(&after), strings(&["a.txt", "new.txt"]));
    }

    #[test]
    fn a_linked_worktrees_common_git_dir_is_watched() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let wt = repo.worktree("side");
        let before = snapshot(&wt).unwrap();
        // Hooks and config live in the main repository's git dir, shared by every
        // worktree: a hook written there runs on the next commit in this one.
        repo.write(".git/hooks/pre-commit", "#!/bin/sh\ncurl evil\n");
        repo.write(".git/info/attributes", "* filter=evil\n");
        let after = snapshot(&wt).unwrap();
        assert_eq!(
            before.changes(&after),
            strings(&[".git/hooks/pre-commit", ".git/info/attributes"])
        );
        let config = fs::read_to_string(repo.path(".git/config")).unwrap();
        fs::write(
            repo.path(".git/config"),
            format!("{config}[core]\n\tfsmonitor = evil\n"),
        )
        .unwrap();
        assert!(
            after
                .changes(&snapshot(&wt).unwrap())
                .contains(&".git/config".to_string())
        );
    }

    #[test]
    fn a_same_length_rewrite_with_its_mtime_restored_is_a_change() {
        let repo = TestRepo::with(&[(".gitignore", "build/\n"), ("a.txt", "a\n")]);
        repo.write("build/out.txt", "good\n");
        repo.write(".git/hooks/pre-push", "#!/bin/sh\nexit 0\n");
        let before = repo.snapshot();
        for rel in ["build/out.txt", ".git/hooks/pre-push"] {
            let path = repo.path(rel);
            let mtime = fs::metadata(&path).unwrap().modified().unwrap();
            let len = fs::metadata(&path).unwrap().len() as usize;
            // In place (same inode), same length, then the old mtime put back.
            let file = fs::OpenOptions::new().write(true).open(&path).unwrap();
            use std::io::Write;
            (&file).write_all(&b"X".repeat(len)).unwrap();
            file.set_modified(mtime).unwrap();
            assert_eq!(fs::metadata(&path).unwrap().modified().unwrap(), mtime);
        }
        assert_eq!(
            before.changes(&repo.snapshot()),
            strings(&[".git/hooks/pre-push", "build/out.txt"])
        );
    }

    #[test]
    fn a_few_thousand_files_snapshot_without_listing_clean_ones() {
        let repo = TestRepo::new();
        for i in 0..2000 {
            repo.write(&format!("d{}/f{i}.txt", i % 20), &format!("{i}\n"));
        }
        repo.commit_all("many");
        repo.write("d3/f3.txt", "edited\n");
        let snap = repo.snapshot();
        assert_eq!(snap.paths.keys().collect::<Vec<_>>(), ["d3/f3.txt"]);
    }

    #[test]
    fn diff_stat_counts_tracked_and_untracked_files() {
        let repo = TestRepo::with(&[("src/cache.rs", "one\ntwo\nthree\n"), ("keep.txt", "k\n")]);
        repo.write("src/cache.rs", "one\n2\nthree\nfour\n");
        repo.write("notes/new.md", "x\ny\n");
        let stat = diff_stat(&repo.root).unwrap();
        let lines: Vec<&str> = stat.lines().collect();
        assert_eq!(lines.len(), 3, "{stat}");
        assert!(lines[0].contains("notes/new.md | 2 ++"), "{stat}");
        assert!(lines[1].contains("src/cache.rs | 3 ++-"), "{stat}");
        assert_eq!(
            lines[2].trim(),
            "2 files changed, 4 insertions(+), 1 deletion(-)"
        );
    }

    #[test]
    fn diff_stat_since_the_start_shows_committed_work() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let start = repo.git(&["rev-parse", "HEAD"]);
        let start = start.trim();
        repo.write("src/done.rs", "fn main() {}\n");
        repo.commit_all("the work");
        repo.write("wip.txt", "w\n");
        assert!(!diff_stat(&repo.root).unwrap().contains("src/done.rs"));
        let stat = diff_stat_since(&repo.root, Some(start)).unwrap();
        assert!(stat.contains("src/done.rs | 1 +"), "{stat}");
        assert!(stat.contains("wip.txt     | 1 +"), "{stat}");
        assert_eq!(
            diff_stat_since(&repo.root, None).unwrap(),
            diff_stat(&repo.root).unwrap()
        );
        let err = diff_stat_since(&repo.root, Some("0000000000000000000000000000000000000000"));
        assert!(format!("{:#}", err.unwrap_err()).contains("where the goal was started"));
    }

    #[test]
    fn diff_stat_of_a_clean_tree_is_empty() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        assert_eq!(diff_stat(&repo.root).unwrap(), "");
    }

    #[test]
    fn diff_stat_on_an_unborn_branch_compares_with_the_empty_tree() {
        let repo = TestRepo::new();
        repo.write("a.txt", "1\n2\n3\n");
        repo.write("b.txt", "1\n");
        repo.git(&["add", "b.txt"]);
        let stat = diff_stat(&repo.root).unwrap();
        assert!(stat.contains("a.txt | 3 +++"), "{stat}");
        assert!(stat.contains("b.txt | 1 +"), "{stat}");
        assert!(
            stat.ends_with(" 2 files changed, 4 insertions(+)\n"),
            "{stat}"
        );
    }

    #[test]
    fn diff_stat_summarises_files_past_the_cap() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        for i in 0..DIFF_STAT_FILES + 5 {
            repo.write(&format!("many/{i:03}.txt"), "x\n");
        }
        let stat = diff_stat(&repo.root).unwrap();
        let lines: Vec<&str> = stat.lines().collect();
        assert_eq!(lines.len(), DIFF_STAT_FILES + 2, "{stat}");
        assert_eq!(lines[DIFF_STAT_FILES], " … 5 more files");
        assert!(lines[DIFF_STAT_FILES + 1].contains("205 files changed"));
    }

    #[test]
    fn ignore_rules_come_from_gitignore_and_info_exclude_but_spare_tracked_files() {
        let repo = TestRepo::with(&[(".gitignore", "target/\nbuild/\n*.log\n")]);
        repo.write("kept.log", "k\n");
        repo.git(&["add", "-f", "kept.log"]);
        repo.write("build/tracked/t.txt", "t\n");
        repo.git(&["add", "-f", "build/tracked/t.txt"]);
        repo.write(".git/info/exclude", "secret.txt\n");
        repo.write("target/debug/out", "o\n");
        repo.write("run.log", "r\n");
        repo.write("secret.txt", "s\n");
        repo.write("src/a.rs", "a\n");
        let ignored = |rel: &str| is_ignored(&repo.root, Path::new(rel)).unwrap();
        assert!(ignored("target"));
        assert!(ignored("target/debug/out"));
        assert!(ignored("run.log"));
        assert!(ignored("secret.txt"));
        assert!(!ignored("src/a.rs"));
        assert!(!ignored("src"));
        assert!(!ignored("kept.log"), "tracked files are not ignored");
        assert!(!ignored("build/tracked/t.txt"));
        assert!(
            !ignored("build/tracked"),
            "folders with tracked files are not ignored"
        );
        assert!(!ignored("build"));
    }

    fn check(
        repo: &TestRepo,
        cwd: &str,
        given: &str,
        allow_ignored: bool,
    ) -> Result<PathBuf, PathProblem> {
        check_evidence_path(&repo.root, &repo.path(cwd), Path::new(given), allow_ignored).unwrap()
    }

    #[test]
    fn evidence_paths_resolve_relative_to_the_cwd_or_absolutely() {
        let repo = TestRepo::with(&[("logs/test.txt", "ok\n"), ("src/a.rs", "a\n")]);
        assert_eq!(
            check(&repo, "", "logs/test.txt", false),
            Ok(PathBuf::from("logs/test.txt"))
        );
        assert_eq!(
            check(&repo, "src", "../logs/test.txt", false),
            Ok(PathBuf::from("logs/test.txt"))
        );
        let absolute = repo.path("logs/test.txt");
        assert_eq!(
            check(&repo, "src", absolute.to_str().unwrap(), false),
            Ok(PathBuf::from("logs/test.txt"))
        );
        assert_eq!(
            check(&repo, "src", "../logs", false),
            Ok(PathBuf::from("logs"))
        );
        assert_eq!(check(&repo, "src", "..", false), Ok(PathBuf::from(".")));
    }

    #[test]
    fn a_symlink_inside_the_repository_resolves_to_its_target() {
        let repo = TestRepo::with(&[("logs/run-3.txt", "ok\n")]);
        symlink("run-3.txt", repo.path("logs/latest")).unwrap();
        assert_eq!(
            check(&repo, "", "logs/latest", false),
            Ok(PathBuf::from("logs/run-3.txt"))
        );
    }

    #[test]
    fn missing_evidence_is_refused() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        assert_eq!(
            check(&repo, "", "nope.txt", false),
            Err(PathProblem::Missing)
        );
        assert_eq!(
            check(&repo, "", "a.txt/inside", false),
            Err(PathProblem::Missing)
        );
        symlink("gone.txt", repo.path("dangling")).unwrap();
        assert_eq!(
            check(&repo, "", "dangling", false),
            Err(PathProblem::Missing)
        );
    }

    #[test]
    fn evidence_outside_the_repository_is_refused() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        fs::write(repo.dir.path().join("outside.txt"), "o\n").unwrap();
        assert_eq!(
            check(&repo, "", "../outside.txt", false),
            Err(PathProblem::OutsideRepo)
        );
        let absolute = repo.dir.path().join("outside.txt");
        assert_eq!(
            check(&repo, "", absolute.to_str().unwrap(), false),
            Err(PathProblem::OutsideRepo)
        );
        assert_eq!(check(&repo, "", "/", false), Err(PathProblem::OutsideRepo));
    }

    #[test]
    fn evidence_inside_the_git_directory_is_refused() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        assert_eq!(
            check(&repo, "", ".git/HEAD", false),
            Err(PathProblem::OutsideRepo)
        );
        assert_eq!(
            check(&repo, "", ".git", false),
            Err(PathProblem::OutsideRepo)
        );
        symlink(".git/config", repo.path("config-link")).unwrap();
        assert_eq!(
            check(&repo, "", "config-link", false),
            Err(PathProblem::OutsideRepo)
        );
    }

    #[test]
    fn a_symlink_leading_out_of_the_repository_is_refused() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let outside = repo.dir.path().join("outside");
        fs::create_dir(&outside).unwrap();
        fs::write(outside.join("o.txt"), "o\n").unwrap();
        symlink(outside.join("o.txt"), repo.path("file-link")).unwrap();
        symlink(&outside, repo.path("dir-link")).unwrap();
        assert_eq!(
            check(&repo, "", "file-link", false),
            Err(PathProblem::SymlinkOutside)
        );
        assert_eq!(
            check(&repo, "", "dir-link/o.txt", false),
            Err(PathProblem::SymlinkOutside)
        );
    }

    #[test]
    fn ignored_evidence_is_refused_unless_allowed() {
        let repo = TestRepo::with(&[(".gitignore", "target/\n")]);
        repo.write("target/report.txt", "r\n");
        assert_eq!(
            check(&repo, "", "target/report.txt", false),
            Err(PathProblem::Ignored)
        );
        assert_eq!(
            check(&repo, "", "target/report.txt", true),
            Ok(PathBuf::from("target/report.txt"))
        );
    }

    #[test]
    fn a_fifo_or_socket_is_refused_as_evidence() {
        let repo = TestRepo::with(&[("a.txt", "a\n")]);
        let made = Command::new("mkfifo")
            .arg(repo.path("pipe"))
            .status()
            .unwrap();
        assert!(made.success());
        assert_eq!(check(&repo, "", "pipe", false), Err(PathProblem::NotAFile));
        symlink("pipe", repo.path("pipe-link")).unwrap();
        assert_eq!(
            check(&repo, "", "pipe-link", false),
            Err(PathProblem::NotAFile)
        );
        let _socket = std::os::unix::net::UnixListener::bind(repo.path("sock")).unwrap();
        assert_eq!(check(&repo, "", "sock", false), Err(PathProblem::NotAFile));
        assert_eq!(check(&repo, "", "a.txt", false), Ok(PathBuf::from("a.txt")));
    }

    #[test]
    fn path_problems_read_as_sentence_ends() {
        assert_eq!(PathProblem::Missing.to_string(), "does not exist");
        assert_eq!(
            PathProblem::Ignored.to_string(),
            "is ignored by git, so it will not last"
        );
    }

    /// plan.md committed in versions 1, 2 (with an unrelated commit between) and
    /// 3, then an unrelated commit on top. Returns the commits, oldest first.
    fn plan_history(repo: &TestRepo) -> Vec<String> {
        let mut commits = Vec::new();
        repo.write("plan.md", "v1\n");
        commits.push(repo.commit_all("plan v1"));
        repo.write("plan.md", "v2\n");
        commits.push(repo.commit_all("plan v2"));
        repo.write("other.txt", "o\n");
        commits.push(repo.commit_all("unrelated"));
        repo.write("plan.md", "v3\n");
        commits.push(repo.commit_all("plan v3\n\nwith a body"));
        repo.write("other.txt", "o2\n");
        commits.push(repo.commit_all("unrelated again"));
        commits
    }

    #[test]
    fn file_history_lists_the_commits_that_changed_the_file_newest_first() {
        let repo = TestRepo::new();
        let commits = plan_history(&repo);
        let history = file_history(&repo.root, Path::new("plan.md"), 10).unwrap();
        let seen: Vec<(&str, &str, &str)> = history
            .iter()
            .map(|r| (r.commit.as_str(), r.summary.as_str(), r.content.as_str()))
            .collect();
        assert_eq!(
            seen,
            [
                (commits[3].as_str(), "plan v3", "v3\n"),
                (commits[1].as_str(), "plan v2", "v2\n"),
                (commits[0].as_str(), "plan v1", "v1\n"),
            ]
        );
        assert!(history[0].commit.starts_with(&history[0].short));
        assert!(history[0].short.len() >= 7);
        assert!(history[0].time > 0);
    }

    #[test]
    fn file_history_stops_at_the_limit() {
        let repo = TestRepo::new();
        plan_history(&repo);
        let history = file_history(&repo.root, Path::new("plan.md"), 2).unwrap();
        let contents: Vec<&str> = history.iter().map(|r| r.content.as_str()).collect();
        assert_eq!(contents, ["v3\n", "v2\n"]);
        assert!(
            file_history(&repo.root, Path::new("plan.md"), 0)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn file_history_skips_deletions_and_counts_a_readded_file() {
        let repo = TestRepo::with(&[("plan.md", "old\n"), ("a.txt", "a\n")]);
        fs::remove_file(repo.path("plan.md")).unwrap();
        repo.commit_all("drop the plan");
        repo.write("plan.md", "new\n");
        repo.commit_all("new plan");
        let history = file_history(&repo.root, Path::new("plan.md"), 10).unwrap();
        let seen: Vec<(&str, &str)> = history
            .iter()
            .map(|r| (r.summary.as_str(), r.content.as_str()))
            .collect();
        assert_eq!(seen, [("new plan", "new\n"), ("initial", "old\n")]);
    }

    #[test]
    fn file_history_is_empty_when_unborn_or_never_committed() {
        let repo = TestRepo::new();
        repo.write("plan.md", "draft\n");
        assert!(
            file_history(&repo.root, Path::new("plan.md"), 5)
                .unwrap()
                .is_empty()
        );
        repo.git(&["add", "plan.md"]);
        assert!(
            file_history(&repo.root, Path::new("plan.md"), 5)
                .unwrap()
                .is_empty()
        );
        repo.write("other.txt", "o\n");
        repo.git(&["add", "other.txt"]);
        repo.git(&["commit", "-q", "-m", "other only", "--", "other.txt"]);
        assert!(
            file_history(&repo.root, Path::new("plan.md"), 5)
                .unwrap()
                .is_empty()
        );
    }

    #[test]
    fn file_history_follows_first_parents_only() {
        let repo = TestRepo::with(&[("plan.md", "v1\n")]);
        repo.git(&["checkout", "-q", "-b", "side"]);
        repo.write("plan.md", "side\n");
        repo.commit_all("side plan");
        repo.git(&["checkout", "-q", "main"]);
        repo.write("a.txt", "a\n");
        repo.commit_all("main work");
        repo.git(&["merge", "-q", "--no-edit", "side"]);
        let history = file_history(&repo.root, Path::new("plan.md"), 10).unwrap();
        let summaries: Vec<&str> = history.iter().map(|r| r.summary.as_str()).collect();
        assert_eq!(summaries, ["Merge branch 'side'", "initial"]);
        assert_eq!(history[0].content, "side\n");
    }

    #[test]
    fn file_versions_include_a_side_branch_merged_with_ours() {
        let repo = TestRepo::with(&[("plan.md", "v1\n")]);
        repo.git(&["checkout", "-q", "-b", "side"]);
        repo.write("plan.md", "side\n");
        repo.commit_all("side plan");
        repo.git(&["checkout", "-q", "main"]);
        repo.write("plan.md", "v2\n");
        repo.commit_all("main plan");
        repo.git(&["merge", "-q", "-s", "ours", "-m", "merge", "side"]);
        let first = file_history(&repo.root, Path::new("plan.md"), 10).unwrap();
        let contents: Vec<&str> = first.iter().map(|r| r.content.as_str()).collect();
        assert_eq!(contents, ["v2\n", "v1\n"], "first parents never see it");
        let all = file_versions_where(&repo.root, Path::new("plan.md"), 10, |_| true).unwrap();
        let mut contents: Vec<&str> = all.iter().map(|r| r.content.as_str()).collect();
        assert_eq!(contents[0], "v2\n", "newest first");
        contents.sort();
        assert_eq!(contents, ["side\n", "v1\n", "v2\n"]);
        assert_eq!(
            file_versions_where(&repo.root, Path::new("plan.md"), 1, |_| true)
                .unwrap()
                .len(),
            1
        );
    }

    #[test]
    fn file_history_works_in_a_linked_worktree() {
        let repo = TestRepo::new();
        plan_history(&repo);
        let wt = repo.worktree("side");
        fs::write(wt.join("plan.md"), "v4\n").unwrap();
        repo.git_in(&wt, &["commit", "-q", "-am", "plan v4"]);
        let history = file_history(&wt, Path::new("plan.md"), 2).unwrap();
        let contents: Vec<&str> = history.iter().map(|r| r.content.as_str()).collect();
        assert_eq!(contents, ["v4\n", "v3\n"]);
        let main = file_history(&repo.root, Path::new("plan.md"), 1).unwrap();
        assert_eq!(main[0].content, "v3\n");
    }

    #[test]
    fn file_at_reads_a_file_at_a_revision() {
        let repo = TestRepo::new();
        let commits = plan_history(&repo);
        let at = |rev: &str| file_at(&repo.root, rev, Path::new("plan.md")).unwrap();
        assert_eq!(at("HEAD").as_deref(), Some("v3\n"));
        assert_eq!(at("HEAD~1").as_deref(), Some("v3\n"));
        assert_eq!(at("HEAD~2").as_deref(), Some("v2\n"));
        assert_eq!(at(&commits[0]).as_deref(), Some("v1\n"));
        assert_eq!(at("main").as_deref(), Some("v3\n"));
        assert_eq!(
            file_at(&repo.root, "HEAD", Path::new("absent.md")).unwrap(),
            None
        );
        repo.write("late.md", "l\n");
        repo.commit_all("late");
        assert_eq!(
            file_at(&repo.root, "HEAD~1", Path::new("late.md")).unwrap(),
            None
        );
    }

    #[test]
    fn file_at_a_bad_revision_names_it() {
        let repo = TestRepo::with(&[("plan.md", "v1\n")]);
        let err = file_at(&repo.root, "no-such-branch", Path::new("plan.md")).unwrap_err();
        assert!(format!("{err:#}").contains("\"no-such-branch\""), "{err:#}");
        let err = file_at(&repo.root, "HEAD~5", Path::new("plan.md")).unwrap_err();
        assert!(format!("{err:#}").contains("HEAD~5"), "{err:#}");
        assert!(err.downcast_ref::<UnknownRevision>().is_some());
        let blob = repo.git(&["rev-parse", "HEAD:plan.md"]);
        let err = file_at(&repo.root, blob.trim(), Path::new("plan.md")).unwrap_err();
        assert!(err.downcast_ref::<UnknownRevision>().is_some(), "{err:#}");
    }

    #[test]
    fn file_at_head_of_an_unborn_branch_is_none() {
        let repo = TestRepo::new();
        assert_eq!(
            file_at(&repo.root, "HEAD", Path::new("plan.md")).unwrap(),
            None
        );
        let err = file_at(&repo.root, "HEAD~1", Path::new("plan.md")).unwrap_err();
        assert!(err.downcast_ref::<UnknownRevision>().is_some(), "{err:#}");
    }
}

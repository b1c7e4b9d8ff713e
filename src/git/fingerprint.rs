//! The work fingerprint: one hash over what an agent's work changes in a repository
//! (HEAD, the index's entries, and the working tree's tracked and untracked files
//! git does not ignore, by content), compared between the loop's stops to tell work
//! from a stall.

use std::collections::HashMap;
use std::ffi::OsStr;
use std::fs;
use std::io::{ErrorKind, Read};
use std::os::unix::ffi::OsStrExt;
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};
use git2::{Status, StatusOptions, StatusShow};
use xxhash_rust::xxh3::Xxh3;

use super::open;

/// A file longer than this counts by its identity (size, times, inode), not its
/// bytes: a stop hook does not read a large untracked artefact at every stop.
const CONTENT_MAX: u64 = 4 << 20;
/// The most bytes one fingerprint reads: past it (a tree of untracked data that is
/// not ignored), files count by identity. The status lists paths in order, so the
/// same files are read each time while their sizes stay.
const READ_MAX: u64 = 32 << 20;

/// The fingerprint of the work in the repository at `root`, and of the files in
/// `edited` (paths relative to it that tool calls named) that git does not ignore.
///
/// Clean tracked files cost a stat each, compared with the index's stat data by
/// git's status (index to working tree: no HEAD tree is read); only the files it
/// lists as changed or untracked are read. Submodules are left out of the status
/// (each would be opened and walked): `edited` stands for them.
///
/// `memo` spares reading again a file whose identity (mode, size, inode, times)
/// is as it was at an earlier stop; the fingerprint is the same either way.
pub fn work(root: &Path, edited: &[String], memo: &mut Memo) -> Result<String> {
    let repo = open(root)?;
    let workdir = repo
        .workdir()
        .with_context(|| format!("{} has no working tree", root.display()))?
        .to_path_buf();
    let mut hash = Xxh3::new();

    let head = repo
        .find_reference("HEAD")
        .context("reading HEAD of the repository")?;
    hash.update(head.symbolic_target_bytes().unwrap_or(b"(detached)"));
    match head.resolve().ok().and_then(|r| r.target()) {
        Some(id) => hash.update(id.as_bytes()),
        None => hash.update(b"(unborn)"),
    }
    hash.update(b"\0index\0");

    // What is staged, by entry (path, blob, mode, stage): an edit staged as it is on
    // disk leaves the working tree's status clean. Not the index's bytes, whose stat
    // data a `git status` may refresh.
    let index = repo.index().context("reading the git index")?;
    for entry in index.iter() {
        hash.update(&entry.path);
        hash.update(b"\0");
        hash.update(entry.id.as_bytes());
        hash.update(&entry.mode.to_le_bytes());
        hash.update(&(entry.flags & STAGE_MASK).to_le_bytes());
    }
    hash.update(b"\0tree\0");

    let mut left = READ_MAX;
    let mut options = StatusOptions::new();
    options
        .show(StatusShow::Workdir)
        .include_untracked(true)
        .recurse_untracked_dirs(true)
        .include_ignored(false)
        .include_unmodified(false)
        .exclude_submodules(true)
        .renames_index_to_workdir(false);
    let statuses = repo
        .statuses(Some(&mut options))
        .with_context(|| format!("reading the status of {}", workdir.display()))?;
    for entry in statuses.iter() {
        let path = entry.path_bytes();
        hash.update(path);
        hash.update(b"\0");
        let status = entry.status();
        hash.update(&status.bits().to_le_bytes());
        if status.intersects(Status::WT_NEW | Status::WT_MODIFIED | Status::WT_TYPECHANGE) {
            content(
                &workdir.join(OsStr::from_bytes(path)),
                &mut hash,
                &mut left,
                memo,
            );
        }
    }
    hash.update(b"\0edited\0");

    let mut edited: Vec<&String> = edited.iter().collect();
    edited.sort();
    edited.dedup();
    for rel in edited {
        // Ignored files are no work, whoever wrote them; a path git cannot check
        // counts.
        if repo.is_path_ignored(Path::new(rel)).unwrap_or(false) {
            continue;
        }
        hash.update(rel.as_bytes());
        hash.update(b"\0");
        content(&workdir.join(rel), &mut hash, &mut left, memo);
    }
    Ok(format!("{:032x}", hash.digest128()))
}

/// The stage bits of an index entry's flags (a merge conflict's sides).
const STAGE_MASK: u16 = 0x3000;

/// What is at `path`, into `hash`: a regular file's bytes (its identity when it is
/// longer than [`CONTENT_MAX`] or than the `left` of [`READ_MAX`]), a symlink's
/// target, the identity of anything else, or that nothing is there. Never follows
/// a symlink, and never blocks on a named pipe.
fn content(path: &Path, hash: &mut Xxh3, left: &mut u64, memo: &mut Memo) {
    let meta = match fs::symlink_metadata(path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == ErrorKind::NotFound => return hash.update(b"-"),
        Err(_) => return hash.update(b"?"),
    };
    let kind = meta.file_type();
    if kind.is_symlink() {
        hash.update(b"l");
        if let Ok(target) = fs::read_link(path) {
            hash.update(target.as_os_str().as_bytes());
        }
        return;
    }
    let identity = [
        meta.mode() as i64,
        meta.len() as i64,
        meta.ino() as i64,
        meta.mtime(),
        meta.mtime_nsec(),
        meta.ctime(),
        meta.ctime_nsec(),
    ];
    if kind.is_file() && meta.len() <= CONTENT_MAX.min(*left) {
        // Counted whether or not the memo spares the read, so that which files
        // count by content never depends on the memo.
        *left -= meta.len();
        // The mode too: `chmod +x` on a script is work git records.
        hash.update(&meta.mode().to_le_bytes());
        let key = path.as_os_str().as_bytes();
        let known = memo.old.get(key).filter(|(was, _)| *was == identity);
        let digest = match known {
            Some((_, digest)) => Some(*digest),
            None => read_digest(path, meta.len()).ok(),
        };
        if let Some(digest) = digest {
            hash.update(b"f");
            hash.update(&digest.to_le_bytes());
            // A file written in the last moments may be written again within the
            // same tick of the file clock, keeping its identity: not kept.
            let settled = meta
                .modified()
                .is_ok_and(|t| t + MEMO_MARGIN < SystemTime::now());
            if settled {
                memo.new.push((key.to_vec(), identity, digest));
            }
            return;
        }
    }
    hash.update(b"i");
    for n in identity {
        hash.update(&n.to_le_bytes());
    }
}

/// How long after its last write a file's content hash may be kept by its identity
/// (as the hooks' cache trusts a file's identity, src/cache.rs).
const MEMO_MARGIN: Duration = Duration::from_secs(2);

/// Content hashes of the files a fingerprint read, by path and identity, kept in
/// `.git/plan/cache/` between stops: with 2,500 untracked judge transcripts, reading
/// them all again cost a stop 20M instructions. A cache only: one that does not
/// read back is empty.
#[derive(Debug, Default)]
pub struct Memo {
    old: HashMap<Vec<u8>, ([i64; 7], u128)>,
    new: Vec<(Vec<u8>, [i64; 7], u128)>,
}

const MEMO_MAGIC: &[u8; 4] = b"pwm1";

impl Memo {
    /// A memo as [`Memo::encode`] wrote it; empty when it does not read back whole.
    pub fn decode(bytes: &[u8]) -> Memo {
        Memo::try_decode(bytes).unwrap_or_default()
    }

    fn try_decode(bytes: &[u8]) -> Option<Memo> {
        let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
        if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
            return None;
        }
        let mut rest = body.strip_prefix(MEMO_MAGIC)?;
        let mut take = |n: usize| -> Option<&[u8]> {
            let (head, tail) = rest.split_at_checked(n)?;
            rest = tail;
            Some(head)
        };
        let mut old = HashMap::new();
        while let Some(len) = take(4) {
            let len = u32::from_le_bytes(len.try_into().ok()?) as usize;
            let path = take(len)?.to_vec();
            let mut identity = [0i64; 7];
            for n in &mut identity {
                *n = i64::from_le_bytes(take(8)?.try_into().ok()?);
            }
            let digest = u128::from_le_bytes(take(16)?.try_into().ok()?);
            old.insert(path, (identity, digest));
        }
        Some(Memo {
            old,
            new: Vec::new(),
        })
    }

    /// What this fingerprint read, to keep for the next; `None` when it is what was
    /// kept already (nothing to write).
    pub fn encode(&self) -> Option<Vec<u8>> {
        let same = self.new.len() == self.old.len()
            && self
                .new
                .iter()
                .all(|(path, identity, digest)| self.old.get(path) == Some(&(*identity, *digest)));
        if same {
            return None;
        }
        let mut out = MEMO_MAGIC.to_vec();
        for (path, identity, digest) in &self.new {
            out.extend_from_slice(&u32::try_from(path.len()).ok()?.to_le_bytes());
            out.extend_from_slice(path);
            for n in identity {
                out.extend_from_slice(&n.to_le_bytes());
            }
            out.extend_from_slice(&digest.to_le_bytes());
        }
        let sum = xxhash_rust::xxh3::xxh3_64(&out);
        out.extend_from_slice(&sum.to_le_bytes());
        Some(out)
    }
}

/// The hash of the file's bytes. `len`: its size when it was looked at, so that the
/// read is one allocation (grown by doubling, 2,500 judge transcripts cost a stop
/// 10M instructions).
fn read_digest(path: &Path, len: u64) -> std::io::Result<u128> {
    let mut file = crate::fsread::open(path)?.take(CONTENT_MAX);
    let mut bytes = Vec::with_capacity(usize::try_from(len.min(CONTENT_MAX)).unwrap_or(0) + 1);
    file.read_to_end(&mut bytes)?;
    Ok(xxhash_rust::xxh3::xxh3_128(&bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::process::Command;

    fn git(dir: &Path, args: &[&str]) {
        let ok = Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .status()
            .unwrap()
            .success();
        assert!(ok, "git {args:?}");
    }

    fn repo() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q", "-b", "main"]);
        fs::write(root.join(".gitignore"), "build/\n").unwrap();
        fs::write(root.join("a.txt"), "a\n").unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "start"]);
        dir
    }

    #[test]
    fn each_kind_of_work_changes_it_and_nothing_else_does() {
        let dir = repo();
        let root = dir.path();
        let print = |edited: &[String]| work(root, edited, &mut Memo::default()).unwrap();
        let mut seen = vec![print(&[])];
        let mut step = |what: &str, change: &dyn Fn()| {
            change();
            let now = print(&[]);
            assert!(
                !seen.contains(&now),
                "{what} left the fingerprint as it was"
            );
            seen.push(now);
        };
        step("a tracked file's edit", &|| {
            fs::write(root.join("a.txt"), "b\n").unwrap()
        });
        step("staging it", &|| git(root, &["add", "a.txt"]));
        step("a commit", &|| git(root, &["commit", "-q", "-m", "b"]));
        step("an edit staged at once", &|| {
            fs::write(root.join("a.txt"), "c\n").unwrap();
            git(root, &["add", "a.txt"]);
        });
        step("an empty commit", &|| {
            git(root, &["commit", "-q", "--allow-empty", "-m", "c"])
        });
        step("a new untracked file", &|| {
            fs::write(root.join("new.txt"), "x\n").unwrap()
        });
        step("an untracked file rewritten", &|| {
            fs::write(root.join("new.txt"), "y\n").unwrap()
        });
        step("a deletion", &|| {
            fs::remove_file(root.join("a.txt")).unwrap()
        });
        step("a branch switch", &|| {
            git(root, &["checkout", "-q", "-b", "other"])
        });

        let before = print(&[]);
        fs::create_dir_all(root.join("build")).unwrap();
        fs::write(root.join("build/out"), "o\n").unwrap();
        fs::write(root.join("new.txt"), "y\n").unwrap();
        git(root, &["status", "--porcelain"]);
        assert_eq!(print(&[]), before, "ignored files, a touch or a status");
    }

    #[test]
    fn past_the_read_budget_a_file_counts_by_identity() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("a"), dir.path().join("b"));
        fs::write(&a, "same\n").unwrap();
        fs::write(&b, "same\n").unwrap();
        let of = |path: &Path, mut left: u64| {
            let mut hash = Xxh3::new();
            content(path, &mut hash, &mut left, &mut Memo::default());
            (hash.digest128(), left)
        };
        assert_eq!(of(&a, 100).0, of(&b, 100).0);
        assert_eq!(of(&a, 100).1, 95);
        assert_ne!(of(&a, 4).0, of(&b, 4).0, "two files, by inode");
        assert_eq!(of(&a, 4).1, 4);
    }

    #[test]
    fn edited_paths_count_by_content_unless_ignored() {
        let dir = repo();
        let root = dir.path();
        fs::create_dir_all(root.join("build")).unwrap();
        let edited = ["build/out".to_string(), "a.txt".to_string()];
        let first = work(root, &edited, &mut Memo::default()).unwrap();
        fs::write(root.join("build/out"), "o\n").unwrap();
        assert_eq!(work(root, &edited, &mut Memo::default()).unwrap(), first);
        // Named twice, in another order: the same.
        let twice = ["a.txt".to_string(), "build/out".to_string(), "a.txt".into()];
        assert_eq!(work(root, &twice, &mut Memo::default()).unwrap(), first);
    }

    /// The memo spares reads, never changes the answer: a fingerprint taken with the
    /// last stop's memo equals one taken without, keeps nothing new to write, and
    /// still sees a file whose bytes changed.
    #[test]
    fn the_memo_changes_no_fingerprint() {
        let dir = repo();
        let root = dir.path();
        for i in 0..5 {
            fs::write(root.join(format!("u{i}.txt")), format!("untracked {i}\n")).unwrap();
        }
        fs::write(root.join("a.txt"), "changed\n").unwrap();
        // Settled: written well before the memo's margin.
        let old = std::process::Command::new("touch")
            .args(["-d", "2020-01-01"])
            .args((0..5).map(|i| format!("u{i}.txt")))
            .arg("a.txt")
            .current_dir(root)
            .status()
            .unwrap();
        assert!(old.success());
        let mut first = Memo::default();
        let without = work(root, &[], &mut first).unwrap();
        let kept = first.encode().expect("the first stop keeps what it read");
        let mut memo = Memo::decode(&kept);
        assert_eq!(memo.old.len(), 6);
        assert_eq!(work(root, &[], &mut memo).unwrap(), without);
        assert!(memo.encode().is_none(), "nothing new to keep");
        fs::write(root.join("u3.txt"), "untracked 9\n").unwrap();
        let mut memo = Memo::decode(&kept);
        let changed = work(root, &[], &mut memo).unwrap();
        assert_ne!(changed, without);
        assert_eq!(changed, work(root, &[], &mut Memo::default()).unwrap());
        // A memo that does not read back is empty, never an error.
        assert!(Memo::decode(&kept[..kept.len() - 1]).old.is_empty());
        assert!(Memo::decode(b"").old.is_empty());
    }
}

//! Reads plan.md and writes edits to it: under a lock, against a fresh read, via a
//! temp file, fsync and rename. Never writes a line that changed under it.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};

use crate::atomic;
use crate::exit::Exit;
use crate::plan::model::{Plan, parse};
use crate::plan::patch::{self, Conflict, Edit};
use crate::plan::replay::Change;

/// How often a write starts over because the file changed under it.
const RETRIES: usize = 20;

/// How long plan waits for a file an editor is saving in place (truncate, then
/// write) to have content again; agents' write tools and `echo >` leave it empty
/// for that moment, and a write in between would orphan their bytes.
const SETTLE: Duration = Duration::from_secs(2);

/// How far apart two reads of a settling file are.
const POLL: Duration = Duration::from_millis(10);

/// How long a settling file must read the same before plan takes it: an editor
/// saving in pieces, delayed by a loaded machine, is not mistaken for done.
const STABLE: Duration = Duration::from_millis(100);

/// How long ago a file that ends inside a line must have been last written before
/// a write takes it: an editor saving in place in pieces stops mid-line between
/// them far more often than at a line's end, and a write that took the first piece
/// would rename its version over the file and send the rest to the old one. A file
/// that lacks its final newline on purpose costs a write this wait at most once
/// it has just been saved, and nothing otherwise.
const MID_LINE_QUIET: Duration = Duration::from_secs(1);

/// How long the old file of a rename is watched for a late piece of a save, when
/// someone other than plan wrote it less than this long before: an editor paused
/// at a line's end leaves a whole-looking file. Short, as every write right after
/// an agent's own save of plan.md pays it: it covers a pause of a few hundred
/// milliseconds, not a person's.
const WATCH_QUIET: Duration = Duration::from_millis(500);

pub struct Store {
    /// Where plan.md is (as resolved, maybe relative to the cwd).
    pub path: PathBuf,
    /// How messages name it: `plan.md`, or the path the user gave.
    pub name: String,
    /// The file (device, inode) [`Store::read_for_write`] last read: a file cut
    /// since then in place (same inode) is an editor mid-save; one renamed in was
    /// written whole.
    base_file: std::sync::Mutex<Option<(u64, u64)>>,
    /// Whether a write announces its log lines to the repository's `notify:`
    /// commands; [`Store::announce_nothing`] turns it off.
    announce: std::sync::atomic::AtomicBool,
}

/// Why a write did not happen.
#[derive(Debug)]
pub enum WriteError {
    /// A line the edits expected changed; nothing was written. `hint` says what to
    /// do (rerun, mostly).
    Conflict {
        message: String,
        hint: String,
    },
    Other(anyhow::Error),
}

impl From<anyhow::Error> for WriteError {
    fn from(e: anyhow::Error) -> Self {
        WriteError::Other(e)
    }
}

impl From<WriteError> for anyhow::Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Conflict { message, hint } => Exit::usage_hint(message, hint),
            WriteError::Other(e) => e,
        }
    }
}

impl Store {
    pub fn new(path: PathBuf, name: String) -> Store {
        Store {
            path,
            name,
            base_file: std::sync::Mutex::new(None),
            announce: std::sync::atomic::AtomicBool::new(true),
        }
    }

    /// From now on, no write of this store starts the repository's `notify:`
    /// commands: for a command that holds a secret (`plan audit --record-ci`, in
    /// the workflow's update job, with PLAN_RECORD_KEY and a push token) in a
    /// checkout whose settings a merged pull request wrote (red team, issue 71).
    pub fn announce_nothing(&self) {
        self.announce
            .store(false, std::sync::atomic::Ordering::Relaxed);
    }

    /// Announces the log `lines` a write added, unless [`Store::announce_nothing`].
    fn announce(&self, lines: &[String]) {
        if self.announce.load(std::sync::atomic::Ordering::Relaxed) {
            crate::events::written(&self.path, lines);
        }
    }

    /// The lock serialising writers of this file. One file has one lock however it
    /// is named (`--file` from outside its repository, a symlink, `..`): it is
    /// worked out from the canonical path, in the git directory of the repository
    /// holding the file, else next to the file.
    /// The earliest stamp a log line written to this plan now may have, beside the
    /// plan's `log` (src/stamp_floor.rs).
    pub fn stamp_floor(&self, log: &[crate::plan::model::LogEntry<'_>]) -> Option<String> {
        crate::stamp_floor::floor(&self.lock_path(), log)
    }

    fn lock_path(&self) -> PathBuf {
        let canonical = fs::canonicalize(&self.path).unwrap_or_else(|_| {
            // Not there yet (`plan init`): its directory may be.
            let dir = self.path.parent().filter(|p| !p.as_os_str().is_empty());
            let dir = dir.unwrap_or(Path::new("."));
            let dir = fs::canonicalize(dir).unwrap_or_else(|_| dir.to_path_buf());
            dir.join(self.path.file_name().unwrap_or_default())
        });
        let dir = canonical.parent().unwrap_or(Path::new("/"));
        match crate::git::discover(dir) {
            Ok(Some(repo)) => repo.git_dir.join("plan").join("plan.lock"),
            _ => {
                let file = canonical
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                canonical.with_file_name(format!(".{file}.lock"))
            }
        }
    }

    /// The file's text. Missing, a directory, unreadable or not UTF-8 → a clear error.
    /// An empty file is given [`SETTLE`] to fill: it is most likely an editor in the
    /// middle of a save.
    pub fn read(&self) -> Result<String> {
        self.open(0).map(|(_, text)| text)
    }

    /// The file's text for a command that will write an edit based on it: as
    /// [`Store::read`], and a file someone other than plan wrote under
    /// [`MID_LINE_QUIET`] ago that ends inside a line, or that is cut against the
    /// last complete version plan knows (the one it last wrote, the one in git
    /// HEAD), is read again until it is whole or quiet, for up to [`SETTLE`].
    /// Read-only commands use [`Store::read`], which never waits for this.
    pub fn read_for_write(&self) -> Result<String> {
        let first = self.open(0)?;
        if first.1.is_empty() {
            return Ok(first.1);
        }
        let (file, text) = self.settle(first, None)?;
        if let (Ok(meta), Ok(mut base)) = (file.metadata(), self.base_file.lock()) {
            let id = Identity::of(&meta);
            *base = Some((id.dev, id.ino));
        }
        Ok(text)
    }

    /// The file's text, once it has settled, and the open handle it was read through.
    /// A file that is empty, or shorter than `seen` bytes (what this process read
    /// before), may be an editor mid-save: it is read again until its content has
    /// stayed the same for [`STABLE`]. So may one read for a write (`seen` > 0) that
    /// ends inside a line and was written less than [`MID_LINE_QUIET`] ago: it is
    /// taken once it has not been written for that long. An empty file that stays
    /// empty is returned as it is if `seen` is 0; otherwise a file that does not
    /// settle is an environment error.
    fn open(&self, seen: usize) -> Result<(File, String)> {
        let mid_save = |read: &(File, String)| {
            seen > 0 && ends_mid_line_just_written(read) && !self.written_by_plan(&read.0)
        };
        let first = self.open_once()?;
        if !first.1.is_empty() && first.1.len() >= seen && !mid_save(&first) {
            return Ok(first);
        }
        trace_wait(match (first.1.is_empty(), mid_save(&first)) {
            (true, _) => "is empty",
            (false, true) => "ends inside a line",
            (false, false) => "is shorter than plan read it",
        });
        let deadline = Instant::now() + SETTLE;
        let mut last = first;
        let mut since = Instant::now();
        while Instant::now() < deadline {
            std::thread::sleep(POLL);
            let next = self.open_once()?;
            if next.1 != last.1 {
                since = Instant::now();
            } else if !next.1.is_empty() && since.elapsed() >= STABLE && !mid_save(&next) {
                return Ok(next);
            }
            last = next;
        }
        if last.1.is_empty() && seen == 0 {
            return Ok(last);
        }
        let what = match last.1.is_empty() {
            true => "is empty",
            false => "kept changing",
        };
        Err(Exit::env_hint(
            format!(
                "{} {what} for {} s while plan was reading it (an editor saving it?); nothing was written",
                self.name,
                SETTLE.as_secs()
            ),
            "rerun the command once the file is saved",
        ))
    }

    /// One read of the file, and the handle it was read through.
    fn open_once(&self) -> Result<(File, String)> {
        let name = &self.name;
        let read = crate::fsread::read(&self.path, crate::fsread::PLAN);
        let (file, bytes) = match read {
            Ok(read) => read,
            Err(e) if crate::fsread::refused(&e).is_some() => {
                return Err(crate::fsread::exit(name, &e));
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Err(Exit::usage_hint(
                    format!("{name} not found"),
                    "`plan init \"objective\"` creates it",
                ));
            }
            Err(e) if e.kind() == ErrorKind::IsADirectory || self.path.is_dir() => {
                return Err(Exit::usage_hint(
                    format!("{name} is a directory, not a file"),
                    "move it away, or point --file at the plan",
                ));
            }
            Err(e) => return Err(Exit::env(format!("cannot read {name}: {e}"))),
        };
        let text = String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Exit::usage_hint(
                format!("{name}:{line}: not valid UTF-8 (byte offset {at})"),
                "save the file as UTF-8; nothing was changed",
            )
        })?;
        Ok((file, text))
    }

    /// Writes `content` as a new file, whole or not at all (temp file and a rename
    /// that never replaces a file). Refuses if a file with content exists; an empty
    /// one (what an in-place `plan init` killed before its write used to leave, or
    /// `touch plan.md`) is filled once it has stayed empty and unwritten for
    /// [`MID_LINE_QUIET`], so an editor in the middle of a save is not overwritten.
    pub fn create(&self, content: &str) -> Result<()> {
        let _lock = self.lock()?;
        let exists = || {
            Exit::usage_hint(
                format!("{} already exists", self.name),
                "`plan show` shows it; `plan add` adds goals to it",
            )
        };
        let how = atomic::Replace {
            new_file: atomic::NewFile::Umask(0o666),
            ..atomic::Replace::DURABLE
        };
        let fail = |e: atomic::Failure| match e {
            atomic::Failure::ReadOnly => Exit::env(format!("{} is read-only", self.name)),
            atomic::Failure::Dir(dir, e) => {
                Exit::env(format!("cannot create {}: {e}", dir.display()))
            }
            atomic::Failure::Io(e) => Exit::env(format!("cannot create {}: {e}", self.name)),
        };
        match fs::symlink_metadata(&self.path) {
            Err(e) if e.kind() == ErrorKind::NotFound => {
                if !atomic::create_new(&self.path, content.as_bytes(), &how).map_err(fail)? {
                    return Err(exists());
                }
            }
            Ok(_) => {
                let (handle, text) = self.open(0)?;
                if !text.is_empty() {
                    return Err(exists());
                }
                let at_read = handle
                    .metadata()
                    .map_err(|e| Exit::env(format!("cannot read {}: {e}", self.name)))?;
                let quiet = |m: &fs::Metadata| {
                    m.modified()
                        .is_ok_and(|t| t.elapsed().is_ok_and(|ago| ago >= MID_LINE_QUIET))
                };
                if !quiet(&at_read) {
                    std::thread::sleep(MID_LINE_QUIET);
                }
                // Still the same empty file, untouched since: fill it.
                let still_empty = |target: &Path| {
                    use std::os::unix::fs::MetadataExt;
                    fs::metadata(target).is_ok_and(|now| {
                        now.len() == 0
                            && (now.dev(), now.ino()) == (at_read.dev(), at_read.ino())
                            && quiet(&now)
                    })
                };
                if atomic::replace_checked(&self.path, content.as_bytes(), &how, still_empty)
                    .map_err(fail)?
                    .is_none()
                {
                    return Err(exists());
                }
            }
            Err(e) => return Err(Exit::env(format!("cannot create {}: {e}", self.name))),
        }
        self.remember_written(content);
        let versions = crate::events::Versions {
            before: None,
            keep_before: false,
            after: crate::git::blob_id(content.as_bytes()),
        };
        crate::events::record_write(&self.path, versions, || Change::Whole(content.to_string()));
        let logged: Vec<String> = parse(content)
            .log
            .iter()
            .map(|entry| format!("- {entry}"))
            .collect();
        self.announce(&logged);
        Ok(())
    }

    /// Puts `whole` (a rebuild: `plan doctor --fix`) in place of the cut file `cut`,
    /// under the lock, once `cut` is kept as `keep` (a new file, never one over
    /// another): nothing the person wrote is lost. A file that is no longer `cut`,
    /// or a `keep` that exists, is a conflict and nothing is written.
    pub fn restore(&self, cut: &str, whole: &str, keep: &Path) -> Result<(), WriteError> {
        pause_for_test();
        let _lock = self.lock()?;
        let (handle, now) = self.open_once()?;
        let changed = || WriteError::Conflict {
            message: format!(
                "{} changed while plan was rebuilding it; nothing was written",
                self.name
            ),
            hint: "look at the file again and rerun `plan doctor --fix`".to_string(),
        };
        if now != cut {
            return Err(changed());
        }
        let at_read = handle
            .metadata()
            .map_err(|e| Exit::env(format!("cannot read {}: {e}", self.name)))?;
        let fail = |what: &Path| {
            let what = what.display().to_string();
            move |e: atomic::Failure| match e {
                atomic::Failure::ReadOnly => Exit::env(format!("{what} is read-only")),
                atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => {
                    Exit::env(format!("cannot write {what}: {e}; nothing was changed"))
                }
            }
        };
        let kept = atomic::create_new(keep, cut.as_bytes(), &atomic::Replace::DURABLE)
            .map_err(fail(keep))?;
        if !kept {
            return Err(WriteError::Conflict {
                message: format!("{} exists; nothing was written", keep.display()),
                hint: "rerun `plan doctor --fix`".to_string(),
            });
        }
        let target = fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        let still_cut = |t: &Path| {
            fs::metadata(t).is_ok_and(|m| m.len() == cut.len() as u64)
                && unchanged_or_appended(&at_read, cut.as_bytes(), t)
        };
        let how = atomic::Replace {
            new_file: atomic::NewFile::Private,
            create_dirs: false,
            ..atomic::Replace::DURABLE
        };
        let replaced = atomic::replace_checked(&target, whole.as_bytes(), &how, still_cut)
            .map_err(fail(&self.path))?;
        if replaced.is_none() {
            // The copy is the person's bytes all the same; without the rebuild it
            // is only litter beside a file they changed meanwhile.
            let _ = atomic::remove(keep);
            return Err(changed());
        }
        self.remember_written(whole);
        // The cut file is kept as a file beside it, not in the journal.
        self.journal_whole(cut, whole);
        Ok(())
    }

    /// Journals `whole` as a whole-file write made on `before`.
    fn journal_whole(&self, before: &str, whole: &str) {
        let versions = crate::events::Versions {
            before: Some((before, crate::git::blob_id(before.as_bytes()))),
            keep_before: false,
            after: crate::git::blob_id(whole.as_bytes()),
        };
        crate::events::record_write(&self.path, versions, || Change::Whole(whole.to_string()));
    }

    /// Journals `src`, the file as it is, as a whole version a person meant
    /// (`plan doctor --discard-lost`): the writes it lacks are settled, and a
    /// rebuild may start from it. Nothing is written to the file. Under the lock,
    /// and only while the file is still `src`.
    pub fn mark_meant(&self, src: &str) -> Result<(), WriteError> {
        let _lock = self.lock()?;
        let (_handle, now) = self.open_once()?;
        if now != src {
            return Err(WriteError::Conflict {
                message: format!(
                    "{} changed while plan was reading it; nothing was marked",
                    self.name
                ),
                hint: "look at the file again and rerun `plan doctor --discard-lost`".to_string(),
            });
        }
        self.journal_whole(src, src);
        Ok(())
    }

    /// Appends one of plan's own events to the log, stamped now: against a fresh
    /// read, under the lock, so no one's bytes are lost.
    pub fn log_event(&self, event: &crate::plan::event::Event<'_>) -> Result<()> {
        let now = crate::clock::now()?;
        let src = self.read_for_write()?;
        self.write_checked(
            &src,
            vec![crate::plan::ops::event(&now.stamp(), event)],
            crate::plan::precondition::intact,
        )?;
        Ok(())
    }

    /// Applies `edits`, computed against `base`, to the file as it is now. Lines
    /// that moved are followed; a line that changed is a conflict and nothing is
    /// written. Returns the new text. For the store's own tests: a command states
    /// its precondition ([`Store::write_checked`], `plan::precondition`).
    #[cfg(test)]
    pub fn write(&self, base: &str, edits: Vec<Edit>) -> Result<String, WriteError> {
        self.write_checked(base, edits, |_| Ok(()))
    }

    /// Applies `edits`, computed against `base`, to the file as it is now, once
    /// `check` (the command's precondition: the goal still live, not archived, in
    /// the status the command decided on) holds of the file as it is under the
    /// lock. Lines that moved are followed; a line that changed, or an `Err` from
    /// `check`, is a conflict and nothing is written. Returns the new text.
    pub fn write_checked(
        &self,
        base: &str,
        edits: Vec<Edit>,
        check: impl Fn(&Plan<'_>) -> Result<(), String>,
    ) -> Result<String, WriteError> {
        pause_for_test();
        let lock_path = self.lock_path();
        let _lock = self.lock()?;
        // The log lines this write adds: the events among them are announced once it
        // is on disk (notify:), here, whichever command wrote them.
        let logged: Vec<String> = edits
            .iter()
            .filter_map(|e| match e {
                Edit::AppendLog { lines } => Some(lines.iter().cloned()),
                _ => None,
            })
            .flatten()
            .collect();
        let conflict = |c: Conflict| WriteError::Conflict {
            message: format!(
                "{}:{}: {} changed while plan was working; nothing was written\n  {}",
                self.name, c.line, self.name, c
            ),
            hint: "look at the file again and rerun the command".to_string(),
        };
        // Editors and agents do not take our lock: if one saves while we write, we
        // start again from their version rather than overwrite it.
        let mut seen = base.len();
        for _ in 0..RETRIES {
            // A command that read an empty file already waited for it to fill.
            let (handle, fresh) = match seen {
                0 => self.open_once()?,
                _ => self.settle(self.open(seen)?, Some(base))?,
            };
            seen = seen.max(fresh.len());
            // An empty file never settled into content: writing plan's version of
            // nothing would orphan the bytes of whoever is saving it.
            if fresh.is_empty() {
                return Err(WriteError::Other(Exit::env_hint(
                    format!(
                        "{} is empty (an editor saving it?); nothing was written",
                        self.name
                    ),
                    "rerun the command once the file is saved; to start a plan, run `plan init`, which fills an empty plan.md",
                )));
            }
            let at_read = handle
                .metadata()
                .map_err(|e| Exit::env(format!("cannot read {}: {e}", self.name)))?;
            // Most writes find the file as the command read it: then the command's
            // copy is the one used, and a long plan.md is held once, not twice.
            let changed = (fresh != base).then_some(fresh);
            let fresh = changed.as_deref().unwrap_or(base);
            let repair = edits.iter().any(|e| matches!(e, Edit::CreateLog));
            if let Some(refusal) = self.cut_refusal(fresh, repair) {
                return Err(WriteError::Other(refusal));
            }
            let fresh_plan = parse(fresh);
            check(&fresh_plan).map_err(|why| WriteError::Conflict {
                message: format!("{why}; nothing was written"),
                hint: format!("look at {} again and rerun the command", self.name),
            })?;
            // A parse holds several times the file: one at a time, on a huge plan.
            let fresh_errors = fresh_plan.errors.len();
            // Stamps only go forward, whatever clock the command read (stamps.rs).
            let floor = crate::stamp_floor::floor(&lock_path, &fresh_plan.log);
            drop(fresh_plan);
            let edits = match &floor {
                Some(floor) => crate::plan::stamps::not_before(edits.clone(), floor),
                None => edits.clone(),
            };
            // A clock set ahead once (PLAN_NOW) would, through the floor, stamp
            // every later line as late, the user's own among them.
            if let Some(limit) = crate::clock::future_limit()
                && let Some(stamp) = crate::plan::stamps::first_ahead(&edits, &limit)
            {
                crate::clock::refuse_ahead(stamp, &self.name).map_err(WriteError::Other)?;
            }
            let logged = match &floor {
                Some(floor) => crate::plan::stamps::not_before(
                    vec![Edit::AppendLog {
                        lines: logged.clone(),
                    }],
                    floor,
                )
                .into_iter()
                .flat_map(|e| match e {
                    Edit::AppendLog { lines } => lines,
                    _ => Vec::new(),
                })
                .collect(),
                None => logged.clone(),
            };
            let rebased = patch::rebase(base, fresh, edits).map_err(conflict)?;
            let out = patch::apply(fresh, &rebased).map_err(conflict)?;
            if out == fresh {
                return Ok(out);
            }
            // Never leave the file worse than we found it (e.g. two writers picking
            // the same new id): that is a conflict too. Only the count and the last
            // message outlive the parse.
            let (after_errors, last) = {
                let after = parse(&out);
                let last = after.errors.last().map(|e| e.message.clone());
                (after.errors.len(), last)
            };
            if after_errors > fresh_errors {
                return Err(WriteError::Conflict {
                    message: format!(
                        "{} changed while plan was working and the edit would now make it invalid ({}); nothing was written",
                        self.name,
                        last.unwrap_or_default()
                    ),
                    hint: "rerun the command".to_string(),
                });
            }
            // The text the write is made on, and whether it is someone else's edit
            // since plan's last write: then the journal keeps that text too, so a
            // rebuild starts from it rather than losing the edit.
            let seen = crate::git::blob_id(fresh.as_bytes());
            let theirs = self.last_blob().is_none_or(|last| last != seen);
            let after = crate::git::blob_id(out.as_bytes());
            if self.replace(&out, &after, &handle, &at_read, fresh.as_bytes())? {
                // Journaled before it is acknowledged: a cut file is rebuilt from it.
                let versions = crate::events::Versions {
                    before: Some((fresh, seen)),
                    keep_before: theirs,
                    after,
                };
                crate::events::record_write(&self.path, versions, || {
                    Change::Steps(crate::plan::replay::anchor(fresh, &rebased))
                });
                crate::logged::keep(&self.path, &logged);
                self.announce(&logged);
                return Ok(out);
            }
        }
        Err(WriteError::Conflict {
            message: format!(
                "{} kept changing while plan was writing; nothing was written",
                self.name
            ),
            hint: "rerun the command when the file is quiet".to_string(),
        })
    }

    fn lock(&self) -> Result<File> {
        let lock = self.lock_path();
        if let Some(dir) = lock.parent().filter(|d| crate::fsread::is_state(d))
            && let Some((path, why)) = crate::fsread::irregular_state(dir)
        {
            let name = path.display().to_string();
            return Err(Exit::env_hint(
                format!("{name} {why}; nothing was written"),
                why.hint(&name),
            ));
        }
        if let Some(dir) = lock.parent() {
            crate::atomic::make_dirs(dir).map_err(|e| match fs::symlink_metadata(dir) {
                Ok(meta) if !meta.is_dir() => Exit::env_hint(
                    format!(
                        "{} is a file, where plan keeps its state (a directory); nothing was written",
                        dir.display()
                    ),
                    format!("move it away (mv {0} {0}.old) and rerun", dir.display()),
                ),
                _ => Exit::env(format!("cannot create {}: {e}", dir.display())),
            })?;
        }
        let file =
            crate::fsread::open_state(crate::fsread::StateOpen::Lock, &lock).map_err(|e| {
                match crate::fsread::refused(&e) {
                    Some(why) => Exit::env_hint(
                        format!("cannot open the writers' lock {}: it {why}", lock.display()),
                        why.hint(&lock.display().to_string()),
                    ),
                    None => Exit::env(format!(
                        "cannot open the writers' lock {}: {e}",
                        lock.display()
                    )),
                }
            })?;
        // A hook never waits long; a command says what it waits for.
        crate::state::lock::take(&file, &lock, false, crate::state::lock::Wait::here())?;
        Ok(file)
    }

    /// `read` once it is whole: while someone other than plan wrote it under
    /// [`MID_LINE_QUIET`] ago and it ends inside a line or is cut (see [`cut`])
    /// against the last complete version plan knows, it is read again, for up to
    /// [`SETTLE`]. One inside a line where that version ended its line (and not
    /// the very text the command read) is waited for until it ends its line,
    /// however long ago it was written, and taken as it is at the bound. With `base` (what the
    /// command read), a file cut against it, or ending inside a line where `base`
    /// ended with a newline, is waited for however long ago it was written: it
    /// changed in place after plan read it.
    /// A file that does not settle is an environment error; nothing is written.
    fn settle(&self, read: (File, String), base: Option<&str>) -> Result<(File, String)> {
        let mut known = None;
        let Some(why) = self.suspect(&read, base, &mut known) else {
            return Ok(read);
        };
        trace_wait(&why);
        // Seen inside a line, written by someone else, where the version plan knows
        // ended its line: maybe an editor between two pieces of a save, so held
        // for the whole bound rather than taken once quiet.
        let strict = (why == LOST_NEWLINE)
            .then(|| read.0.metadata().ok().map(|m| Identity::of(&m)))
            .flatten();
        let still_inside_a_line = |(file, text): &(File, String)| {
            let here = file.metadata().ok().map(|m| Identity::of(&m));
            strict.is_some_and(|first| {
                here.is_some_and(|h| (h.dev, h.ino) == (first.dev, first.ino))
                    && !text.is_empty()
                    && !text.ends_with('\n')
                    && !self.written_by_plan(file)
            })
        };
        let deadline = Instant::now() + SETTLE;
        let mut why = why;
        // The file as last read, when only that hold kept it.
        let mut held = None;
        while Instant::now() < deadline {
            std::thread::sleep(POLL);
            let next = self.open_once()?;
            match self.suspect(&next, base, &mut known) {
                None if still_inside_a_line(&next) => held = Some(next),
                Some(still) if still == LOST_NEWLINE => held = Some(next),
                None => return Ok(next),
                Some(still) => {
                    why = still;
                    held = None;
                }
            }
        }
        // A file saved by hand without its final newline just before the command
        // is taken, late, not refused: it may be all there is (an agent's write
        // tool leaves off the newline as often as not).
        if let Some(held) = held {
            return Ok(held);
        }
        Err(Exit::env_hint(
            format!(
                "{} {why} and did not settle in {} s (an editor in the middle of a save?); nothing was written",
                self.name,
                SETTLE.as_secs()
            ),
            format!(
                "rerun the command once {} is saved; if you cut it on purpose, rerun it now",
                self.name
            ),
        ))
    }

    /// Why `read` looks like an editor's half-saved file, if it does. `known`
    /// caches the complete versions plan knows, worked out on first need.
    fn suspect(
        &self,
        (file, text): &(File, String),
        base: Option<&str>,
        known: &mut Option<Vec<Shape>>,
    ) -> Option<String> {
        let meta = file.metadata().ok()?;
        let record = self.record();
        if record.as_ref().is_some_and(|r| r.0 == Identity::of(&meta)) {
            return None;
        }
        let now = Shape::of(text);
        let id = Identity::of(&meta);
        // A file renamed into place was written whole: only one changed in place
        // (the inode plan read, or last wrote) can be half an editor's save.
        let read_here = self
            .base_file
            .lock()
            .ok()
            .and_then(|b| *b)
            .is_none_or(|b| b == (id.dev, id.ino));
        if let Some(base) = base.filter(|b| *b != text && read_here)
            && let Some(why) = cut(&now, &Shape::of(base)).or_else(|| lost_newline(base, text))
        {
            return Some(format!("{why} since plan read it"));
        }
        let lately = meta
            .modified()
            .is_ok_and(|t| t.elapsed().is_ok_and(|ago| ago < MID_LINE_QUIET));
        let mid_line = !text.is_empty() && !text.ends_with('\n');
        // A file left inside a line is judged however quiet it is (an editor may
        // pause longer than [`MID_LINE_QUIET`] between pieces), unless it is the
        // very text the command read: that one was judged then.
        let judged = lately || (mid_line && base.is_none_or(|b| b != text));
        if !judged {
            return None;
        }
        let known = known.get_or_insert_with(|| {
            let mut shapes: Vec<Shape> = record
                .filter(|(was, _)| (was.dev, was.ino) == (id.dev, id.ino))
                .map(|r| r.1)
                .into_iter()
                .collect();
            shapes.extend(self.at_head().map(|t| Shape::of(&t)));
            shapes
        });
        if mid_line {
            return match known.iter().any(|then| then.newline) {
                true => Some(LOST_NEWLINE.to_string()),
                false => lately.then(|| "ends inside a line".to_string()),
            };
        }
        known
            .iter()
            .find_map(|then| cut(&now, then))
            .map(|why| format!("{why} against the last version plan knows"))
    }

    /// Why `text`, the file about to be written on, must be taken for a cut one and
    /// left alone: it has goals but no `## Log` (plan never adds one to a file with
    /// goals: that is what a cut leaves), or it ends inside a line having lost goals
    /// or its `## Log` against the last version plan wrote (whatever file holds it
    /// now: a `git stash` or checkout renames a cut copy in) or HEAD's. Checked after
    /// the file settled, so an editor's save in progress was waited for first.
    /// `repair`: the write is `plan doctor --fix` adding the `## Log` a person was
    /// told to add by this very refusal; the cut inside a line is still refused.
    fn cut_refusal(&self, text: &str, repair: bool) -> Option<anyhow::Error> {
        let now = Shape::of(text);
        let restore = "if it was cut, `plan doctor --fix` rebuilds it from git and the writes \
             plan journaled, keeping the cut file beside it (`plan doctor` first says what it finds), \
             or `git stash pop` if it was stashed";
        if now.goals > 0 && !now.log && !repair {
            return Some(Exit::env_hint(
                format!(
                    "{} has {} goal{} but no `## Log` (a cut file?); nothing was written",
                    self.name,
                    now.goals,
                    if now.goals == 1 { "" } else { "s" }
                ),
                format!(
                    "{restore}; if it is whole (a plan written by hand), `plan doctor --fix` adds the `## Log`"
                ),
            ));
        }
        if now.newline || text.is_empty() {
            return None;
        }
        let written = self.record().map(|(_, shape)| shape);
        let head = self.at_head().map(|t| Shape::of(&t));
        let against = [
            ("the last version plan wrote", written),
            ("the one at HEAD", head),
        ];
        let (then_name, then, lost) = against.into_iter().find_map(|(what, then)| {
            let then = then?;
            lost_against(&now, &then).map(|lost| (what, then, lost))
        })?;
        Some(Exit::env_hint(
            format!(
                "{} ends inside a line and lost {lost} against {then_name} ({} goal{} and {} there, {} goal{} and {} here): a cut file; nothing was written",
                self.name,
                then.goals,
                if then.goals == 1 { "" } else { "s" },
                if then.log {
                    "a `## Log`"
                } else {
                    "no `## Log`"
                },
                now.goals,
                if now.goals == 1 { "" } else { "s" },
                if now.log { "a `## Log`" } else { "no `## Log`" },
            ),
            format!("{restore}; if you cut it on purpose, end its last line and rerun"),
        ))
    }

    /// How `text` is cut against the version plan last wrote, as `plan lint` says
    /// it (rule `cut-file`): lost goals or its `## Log`, and ends inside a line or
    /// has goals but no `## Log` (what every write refuses, [`Store::cut_refusal`]).
    pub fn cut_against_written(&self, text: &str) -> Option<String> {
        let now = Shape::of(text);
        let then = self.record()?.1;
        let lost = lost_against(&now, &then)?;
        let broken = (!now.newline && !text.is_empty()) || (now.goals > 0 && !now.log);
        broken.then(|| {
            format!(
                "cut: lost {lost} against the last version plan wrote ({} goals there, {} here{}); plan writes nothing onto it",
                then.goals,
                now.goals,
                if now.newline { "" } else { ", ending inside a line" }
            )
        })
    }

    /// Whether `text` lost goals or its `## Log` against a version plan knows: the
    /// last one plan wrote, or the one at HEAD. Cheap (one blob read): whether a
    /// file that looks whole is worth `plan doctor`'s rebuild to judge.
    pub fn lost_since_known(&self, text: &str) -> bool {
        let now = Shape::of(text);
        let written = self.record().map(|(_, shape)| shape);
        let head = self.at_head().map(|t| Shape::of(&t));
        [written, head]
            .iter()
            .flatten()
            .any(|then| lost_against(&now, then).is_some())
    }

    /// The file as committed at HEAD, if it is in a repository and there.
    fn at_head(&self) -> Option<String> {
        let canonical = fs::canonicalize(&self.path).ok()?;
        let repo = crate::git::discover(canonical.parent()?).ok()??;
        let root = fs::canonicalize(&repo.root).ok()?;
        let rel = canonical.strip_prefix(&root).ok()?;
        crate::git::file_at(&root, "HEAD", rel).ok()?
    }

    /// Where plan keeps the identity of the file it last wrote: beside the lock.
    fn record_path(&self) -> PathBuf {
        let lock = self.lock_path();
        let name = lock.file_name().unwrap_or_default().to_string_lossy();
        let name = name.strip_suffix(".lock").unwrap_or(&name).to_string();
        lock.with_file_name(format!("{name}.written"))
    }

    /// The identity and shape of the file plan last wrote, if recorded.
    fn record(&self) -> Option<(Identity, Shape)> {
        let text = crate::fsread::text(&self.record_path(), crate::fsread::STATE).ok()?;
        // The eighth field, the blob id of its text, is read by [`Store::last_blob`].
        let n: Vec<u64> = text
            .split_whitespace()
            .take(7)
            .map(|w| w.parse().ok())
            .collect::<Option<_>>()?;
        // The seventh field (whether it ended with a newline) is newer: a record
        // without it says it did not, which waits on nothing more than before.
        let (&[dev, ino, len, mtime, goals, log], newline) = (n.get(..6)?, n.get(6)) else {
            return None;
        };
        Some((
            Identity {
                dev,
                ino,
                len,
                mtime,
            },
            Shape {
                len,
                goals,
                log: log == 1,
                newline: newline == Some(&1),
            },
        ))
    }

    /// Git's blob id of the text plan last wrote, if recorded: a write made on any
    /// other text was made on someone else's edit, which the journal keeps.
    fn last_blob(&self) -> Option<String> {
        let text = crate::fsread::text(&self.record_path(), crate::fsread::STATE).ok()?;
        text.split_whitespace().nth(7).map(str::to_string)
    }

    /// Whether the file whose metadata is `meta` is the one plan itself last wrote.
    fn was_written_by_plan(&self, meta: &fs::Metadata) -> bool {
        self.record()
            .is_some_and(|(id, _)| id == Identity::of(meta))
    }

    /// Whether the file read through `file` is the one plan itself last wrote,
    /// untouched since: plan does not wait on its own write.
    fn written_by_plan(&self, file: &File) -> bool {
        let Ok(meta) = file.metadata() else {
            return false;
        };
        self.record()
            .is_some_and(|(id, _)| id == Identity::of(&meta))
    }

    /// Records the file now at the path as plan's own, holding `content`. Best
    /// effort: without it plan may wait on its own write once, never lose a byte.
    fn remember_written(&self, content: &str) {
        if let Ok(meta) = fs::metadata(&self.path) {
            let blob = crate::git::blob_id(content.as_bytes());
            self.remember(Identity::of(&meta), Shape::of(content), &blob);
        }
    }

    /// Records `id` as the file plan last wrote, of shape `shape`, whose text has
    /// git's blob id `blob`.
    fn remember(&self, id: Identity, shape: Shape, blob: &str) {
        let line = format!(
            "{} {} {} {} {} {} {} {blob}\n",
            id.dev,
            id.ino,
            id.len,
            id.mtime,
            shape.goals,
            u8::from(shape.log),
            u8::from(shape.newline)
        );
        let how = atomic::Replace {
            new_file: atomic::NewFile::Private,
            fsync: false,
            sync_dir: false,
            prefix: ".written-",
            ..atomic::Replace::DURABLE
        };
        // Beside the plan file (outside a repository) the record is not under a git
        // directory, so not state by its path; it is plan's own all the same, and a
        // link put in its place is not written through.
        let path = self.record_path();
        if fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink()) {
            return;
        }
        let _ = atomic::replace(&path, line.as_bytes(), &how);
    }

    /// Atomic replace: temp file in the same directory, same permissions, fsync,
    /// rename, fsync the directory. A symlinked plan.md is written through.
    /// `Ok(false)`: the file is no longer `read` (the bytes read through `handle`),
    /// or those bytes with more appended, so nothing was replaced and the caller
    /// starts again.
    fn replace(
        &self,
        content: &str,
        blob: &str,
        handle: &File,
        at_read: &fs::Metadata,
        read: &[u8],
    ) -> Result<bool> {
        let target = fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        let meta = fs::metadata(&target).with_context(|| format!("reading {}", self.name))?;
        if meta.permissions().readonly() {
            return Err(Exit::env_hint(
                format!("{} is read-only; nothing was written", self.name),
                format!("make it writable (chmod u+w {}) and rerun", self.name),
            ));
        }
        let io = |e: std::io::Error| {
            Exit::env(format!(
                "cannot write {}: {e}; nothing was changed",
                self.name
            ))
        };
        // The directory is synced below, once bytes appended meanwhile are carried over.
        let how = atomic::Replace {
            new_file: atomic::NewFile::Private,
            create_dirs: false,
            sync_dir: false,
            ..atomic::Replace::DURABLE
        };
        // From the check to the rename is the window in which a save by someone who
        // does not take our lock can still be lost: keep it to one stat, one read
        // and the rename.
        let mut last_read = None;
        let replaced = atomic::replace_checked(&target, content.as_bytes(), &how, |target| {
            last_read = trace_clock();
            unchanged_or_appended(at_read, read, target)
        })
        .map_err(|e| match e {
            atomic::Failure::ReadOnly => Exit::env_hint(
                format!("{} is read-only; nothing was written", self.name),
                format!("make it writable (chmod u+w {}) and rerun", self.name),
            ),
            atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => io(e),
        })?;
        if replaced.is_none() {
            return Ok(false);
        }
        trace_window(last_read);
        // The file as plan left it, taken at once: an editor may write to it while
        // the old one is watched below, and that is not plan's own write.
        let mut mine = fs::metadata(&target).ok().map(|m| Identity::of(&m));
        // Bytes someone appended to the old file between that check and the rename
        // (`echo … >> plan.md` opens the path, then writes through its own handle)
        // are carried over. A writer may have opened the old file just before the
        // rename and write a moment later, so the old file is watched until it has
        // been quiet twice in a row. A file someone else wrote under
        // [`WATCH_QUIET`] ago may be an editor's save paused at a line's end,
        // whole-looking: its next piece goes to the old file, so that is watched
        // until it has not been written for that long (up to [`SETTLE`]). An old
        // file rewritten rather than appended to while it is watched was a save
        // plan read half of: see below.
        let watch_until = (written_within(at_read, WATCH_QUIET)
            && !self.was_written_by_plan(at_read))
        .then(|| Instant::now() + SETTLE);
        if watch_until.is_some() {
            trace_wait("was written by another program just now: watching the replaced file");
        }
        let mut copied = read.len();
        let mut quiet = 0;
        for round in 0.. {
            if round >= RETRIES && watch_until.is_none_or(|until| Instant::now() >= until) {
                break;
            }
            // What was appended to the old file since the last copy, if it still
            // begins with the bytes read: compared in pieces, never held whole.
            let mut appended = Vec::new();
            let mut h = handle;
            h.seek(SeekFrom::Start(0)).map_err(io)?;
            if begins_with(&mut h, read).map_err(io)? {
                h.seek(SeekFrom::Start(copied as u64)).map_err(io)?;
                h.read_to_end(&mut appended).map_err(io)?;
            }
            if appended.is_empty() {
                if let Some(until) = watch_until {
                    let recent = handle
                        .metadata()
                        .is_ok_and(|m| written_within(&m, WATCH_QUIET));
                    if recent && Instant::now() < until {
                        std::thread::sleep(POLL);
                        continue;
                    }
                    break;
                }
                quiet += 1;
                if quiet == 2 {
                    break;
                }
                std::thread::sleep(Duration::from_millis(1));
                continue;
            }
            quiet = 0;
            #[expect(
                clippy::disallowed_methods,
                reason = "the store's own write: the bytes appended to plan.md while it copies"
            )]
            let mut new = OpenOptions::new().append(true).open(&target).map_err(io)?;
            new.write_all(&appended)
                .and_then(|_| new.sync_all())
                .map_err(io)?;
            mine = new.metadata().ok().map(|m| Identity::of(&m));
            copied += appended.len();
        }
        // An editor that saves in place without truncating first (`r+`: the new
        // text over the old, in pieces, truncated last) left plan a file of its new
        // head over its old tail, whole-looking; its last piece and the truncate
        // went to the old file. That file, settled, is the save: it is put back at
        // the path, if nothing was written there since plan's own write, and the
        // caller makes its edit on it again.
        // Not when bytes were carried over: those are another writer's, which the
        // put-back would lose.
        if watch_until.is_some() && copied == read.len() {
            let mut theirs = Vec::new();
            let mut h = handle;
            h.seek(SeekFrom::Start(0)).map_err(io)?;
            h.take(crate::fsread::PLAN + 1)
                .read_to_end(&mut theirs)
                .map_err(io)?;
            let rewritten = !theirs.starts_with(read)
                && !theirs.is_empty()
                && theirs.len() as u64 <= crate::fsread::PLAN
                && std::str::from_utf8(&theirs).is_ok();
            if rewritten {
                trace_wait("the replaced file was rewritten while watched: putting it back");
                let ours_still =
                    |t: &Path| fs::metadata(t).is_ok_and(|m| Some(Identity::of(&m)) == mine);
                let back = atomic::replace_checked(&target, &theirs, &how, ours_still).map_err(
                    |e| match e {
                        atomic::Failure::ReadOnly => {
                            io(std::io::ErrorKind::PermissionDenied.into())
                        }
                        atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => io(e),
                    },
                )?;
                if back.is_some() {
                    atomic::sync_dir(&target);
                    return Ok(false);
                }
            }
        }
        atomic::sync_dir(&target);
        if let Some(mine) = mine {
            self.remember(mine, Shape::of(content), blob);
        }
        Ok(true)
    }
}

/// A test seam, in debug builds only: with `PLAN_TEST_PAUSE=GATE`, a write
/// stops here (after its command's first read, before the lock) while the file
/// GATE exists, having created `GATE.reached` to say so. A test runs another
/// command in that window, deterministically, then deletes GATE. `plan install`
/// stops here too, between reading a host's settings and writing them.
#[cfg(debug_assertions)]
pub(crate) fn pause_for_test() {
    let Some(gate) = crate::env::os("PLAN_TEST_PAUSE").map(PathBuf::from) else {
        return;
    };
    let mut reached = gate.clone().into_os_string();
    reached.push(".reached");
    #[expect(
        clippy::disallowed_methods,
        reason = "a test seam of debug builds: the file a test waits for"
    )]
    let _ = fs::write(&reached, "");
    let deadline = Instant::now() + Duration::from_secs(30);
    while gate.exists() && Instant::now() < deadline {
        std::thread::sleep(POLL);
    }
}

#[cfg(not(debug_assertions))]
pub(crate) fn pause_for_test() {}

/// Whether the file whose metadata is `meta` was written under `quiet` ago. A
/// modification time in the future (a skewed clock) does not count.
fn written_within(meta: &fs::Metadata, quiet: Duration) -> bool {
    meta.modified()
        .is_ok_and(|t| t.elapsed().is_ok_and(|ago| ago < quiet))
}

/// Which file a path held: a save in place changes the size or the modification
/// time, a rename the inode.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Identity {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: u64,
}

impl Identity {
    fn of(meta: &fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            dev: meta.dev(),
            ino: meta.ino(),
            len: meta.len(),
            mtime: (meta.mtime() as u64)
                .wrapping_mul(1_000_000_000)
                .wrapping_add(meta.mtime_nsec() as u64),
        }
    }
}

/// What a cut file loses: its size, its goal headings, its `## Log`; and whether
/// it ended its last line (a save paused inside a line does not).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Shape {
    len: u64,
    goals: u64,
    log: bool,
    newline: bool,
}

impl Shape {
    fn of(text: &str) -> Shape {
        let mut goals = 0;
        let mut log = false;
        for line in text.lines() {
            goals += u64::from(line.starts_with("## Goal:"));
            log |= line.trim_end() == "## Log";
        }
        Shape {
            len: text.len() as u64,
            goals,
            log,
            newline: text.ends_with('\n'),
        }
    }
}

/// A file smaller than this is too small for "shrank sharply" to mean anything.
const SHRINK_FROM: u64 = 256;

/// How `now` is cut against `then`, a complete version: it lost `## Log`, lost
/// goal headings, or shrank to under half. No plan command does any of these (an
/// archive moves goals, never drops them), so a file that did was cut by someone
/// else: a person, or an editor in the middle of a save.
fn cut(now: &Shape, then: &Shape) -> Option<&'static str> {
    if then.log && !now.log {
        Some("lost its `## Log`")
    } else if now.goals < then.goals {
        Some("lost goals")
    } else if then.len >= SHRINK_FROM && now.len < then.len / 2 {
        Some("shrank to less than half")
    } else {
        None
    }
}

/// Whether `text` is what a cut leaves: it ends inside a line, or has goals but no
/// `## Log` (plan never writes either).
pub(crate) fn looks_cut(text: &str) -> bool {
    let shape = Shape::of(text);
    (!text.is_empty() && !shape.newline) || (shape.goals > 0 && !shape.log)
}

/// What `now` lost against `then`, as [`lost_against`] says it, and each one's goal
/// count.
pub(crate) fn lost_between(now: &str, then: &str) -> Option<(&'static str, u64, u64)> {
    let (now, then) = (Shape::of(now), Shape::of(then));
    lost_against(&now, &then).map(|lost| (lost, then.goals, now.goals))
}

/// What `now` lost against `then`: goals, its `## Log`, or both.
fn lost_against(now: &Shape, then: &Shape) -> Option<&'static str> {
    match (now.goals < then.goals, then.log && !now.log) {
        (true, true) => Some("goals and its `## Log`"),
        (true, false) => Some("goals"),
        (false, true) => Some("its `## Log`"),
        (false, false) => None,
    }
}

/// Why a file seen just written inside a line is held for [`SETTLE`] (then taken
/// as it is), when the version plan knows (the one it last wrote, if this is that
/// file changed in place; the one at HEAD) ended its last line.
const LOST_NEWLINE: &str = "ends inside a line (the last version plan knows ended its line)";

/// Whether `now` ends inside a line where `then`, the version this command read,
/// ended with a newline: changed in place since the read, it is most likely an
/// editor between two pieces of its save, however long it has paused. A file that
/// lacked its final newline when read is not suspect (nothing changed there), and
/// a rerun reads this one as its base and takes it.
fn lost_newline(then: &str, now: &str) -> Option<&'static str> {
    (then.ends_with('\n') && !now.is_empty() && !now.ends_with('\n'))
        .then_some("ends inside a line")
}

/// Appends `pid why` to the file `PLAN_TRACE_WAITS` names when plan waits for a
/// file to settle: how tests and scripts/stress-writers count waits without
/// timing them.
fn trace_wait(why: &str) {
    let Some(file) = crate::env::os("PLAN_TRACE_WAITS") else {
        return;
    };
    let line = format!("{} {why}\n", std::process::id());
    #[expect(
        clippy::disallowed_methods,
        reason = "the trace file PLAN_TRACE_WAITS names, for tests and scripts"
    )]
    let opened = OpenOptions::new().append(true).create(true).open(file);
    if let Ok(mut f) = opened {
        let _ = f.write_all(line.as_bytes());
    }
}

/// Whether a read ends inside a line of a file written less than
/// [`MID_LINE_QUIET`] ago: an editor may be between two pieces of a save. A
/// modification time in the future (a skewed clock) does not count as recent:
/// that file would otherwise never be taken.
fn ends_mid_line_just_written((file, text): &(File, String)) -> bool {
    !text.is_empty()
        && !text.ends_with('\n')
        && file
            .metadata()
            .and_then(|m| m.modified())
            .is_ok_and(|t| t.elapsed().is_ok_and(|ago| ago < MID_LINE_QUIET))
}

/// Whether the file at `path` is still the one read through a handle whose
/// metadata was `then`, holding the bytes `read` — or those bytes with more
/// appended, which the caller carries over. Compares bytes, not sizes and mtimes:
/// an in-place save of the same length within one clock tick changes neither, and
/// a truncate-and-write that grew the file is not an append.
fn unchanged_or_appended(then: &fs::Metadata, read: &[u8], path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    let Ok(mut file) = crate::fsread::open(path) else {
        return false;
    };
    let Ok(now) = file.metadata() else {
        return false;
    };
    if (then.dev(), then.ino()) != (now.dev(), now.ino()) || now.len() < read.len() as u64 {
        return false;
    }
    begins_with(&mut file, read).unwrap_or(false)
}

/// Whether what `file` reads from where it stands begins with `prefix`, read and
/// compared in 64 KiB pieces: a write holds a long plan.md's text already, and a
/// third copy just to compare it would be most of its peak.
fn begins_with(file: &mut impl Read, prefix: &[u8]) -> std::io::Result<bool> {
    let mut buf = vec![0; 64 * 1024];
    let mut at = 0;
    while at < prefix.len() {
        let want = buf.len().min(prefix.len() - at);
        let n = match file.read(&mut buf[..want]) {
            Ok(0) => return Ok(false),
            Ok(n) => n,
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf[..n] != prefix[at..at + n] {
            return Ok(false);
        }
        at += n;
    }
    Ok(true)
}

/// Now, in nanoseconds since the epoch, when `PLAN_TRACE_WRITES` asks for the
/// window to be measured (scripts/stress-writers does).
fn trace_clock() -> Option<u128> {
    crate::env::os("PLAN_TRACE_WRITES")?;
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .ok()
        .map(|d| d.as_nanos())
}

/// Appends `pid last_read renamed` (ns) to the file `PLAN_TRACE_WRITES` names.
fn trace_window(last_read: Option<u128>) {
    let (Some(start), Some(end), Some(file)) = (
        last_read,
        trace_clock(),
        crate::env::os("PLAN_TRACE_WRITES"),
    ) else {
        return;
    };
    let line = format!("{} {start} {end}\n", std::process::id());
    #[expect(
        clippy::disallowed_methods,
        reason = "the trace file PLAN_TRACE_WRITES names, for tests and scripts"
    )]
    let opened = OpenOptions::new().append(true).create(true).open(file);
    if let Ok(mut f) = opened {
        let _ = f.write_all(line.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store for plan.md in `dir`, made a repository so the lock is not beside it.
    fn store(dir: &Path) -> Store {
        fs::create_dir_all(dir.join(".git")).unwrap();
        fs::write(dir.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        Store::new(dir.join("plan.md"), "plan.md".into())
    }

    #[test]
    fn one_file_has_one_lock_however_it_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        fs::create_dir_all(root.join(".git")).unwrap();
        fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
        fs::create_dir_all(root.join("sub")).unwrap();
        fs::write(root.join("plan.md"), BASE).unwrap();
        std::os::unix::fs::symlink(root.join("plan.md"), dir.path().join("link.md")).unwrap();
        let git_lock = fs::canonicalize(root.join(".git"))
            .unwrap()
            .join("plan/plan.lock");
        for path in [
            root.join("plan.md"),
            root.join("sub/../plan.md"),
            dir.path().join("link.md"),
        ] {
            let s = Store::new(path.clone(), "plan.md".into());
            assert_eq!(s.lock_path(), git_lock, "{}", path.display());
        }
        // Outside any repository: next to the file, whichever name led to it.
        let plain = dir.path().join("plain");
        fs::create_dir_all(&plain).unwrap();
        fs::write(plain.join("plan.md"), BASE).unwrap();
        std::os::unix::fs::symlink(plain.join("plan.md"), dir.path().join("other.md")).unwrap();
        let canonical = fs::canonicalize(&plain).unwrap().join(".plan.md.lock");
        for path in [plain.join("plan.md"), dir.path().join("other.md")] {
            assert_eq!(Store::new(path, "plan.md".into()).lock_path(), canonical);
        }
    }

    const BASE: &str = "# Plan: x\n\n## Goal: A\nstatus: active\n\n## Log\n";

    #[test]
    fn a_line_changed_in_the_meantime_is_a_conflict_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        // What a person saved while the command was working.
        let theirs = BASE.replace("status: active", "status: cancelled");
        fs::write(&s.path, &theirs).unwrap();
        let err = s
            .write(
                BASE,
                vec![Edit::replace(4, "status: active", "status: done")],
            )
            .unwrap_err();
        let WriteError::Conflict { message, .. } = err else {
            panic!("not a conflict: {err:?}")
        };
        assert!(
            message.starts_with(
                "plan.md:4: plan.md changed while plan was working; nothing was written"
            )
        );
        assert!(message.contains("expected `status: active`, found `status: cancelled`"));
        assert_eq!(fs::read_to_string(&s.path).unwrap(), theirs);
    }

    #[test]
    fn a_change_elsewhere_is_kept_and_the_edit_lands() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.replace("# Plan: x\n", "# Plan: x\nA note the person added.\n");
        fs::write(&s.path, &theirs).unwrap();
        let out = s
            .write(
                BASE,
                vec![Edit::replace(4, "status: active", "status: done")],
            )
            .unwrap();
        assert_eq!(out, theirs.replace("status: active", "status: done"));
        assert_eq!(fs::read_to_string(&s.path).unwrap(), out);
    }

    /// `replace` after someone wrote to the file it was read from.
    fn replace_after(change: impl FnOnce(&Path)) -> (bool, String) {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        fs::write(&s.path, BASE).unwrap();
        let (handle, read) = s.open(0).unwrap();
        let at_read = handle.metadata().unwrap();
        change(&s.path);
        let replaced = s
            .replace("# Plan: ours\n", "", &handle, &at_read, read.as_bytes())
            .unwrap();
        (replaced, fs::read_to_string(&s.path).unwrap())
    }

    #[test]
    fn bytes_appended_after_the_read_are_carried_over() {
        let (replaced, text) = replace_after(|p| {
            let mut f = OpenOptions::new().append(true).open(p).unwrap();
            f.write_all(b"- appended by hand\n").unwrap();
        });
        assert!(replaced);
        assert_eq!(text, "# Plan: ours\n- appended by hand\n");
    }

    #[test]
    fn an_in_place_rewrite_or_a_new_file_after_the_read_means_start_again() {
        let (replaced, text) =
            replace_after(|p| fs::write(p, BASE.replace("active", "done")).unwrap());
        assert!(!replaced);
        assert_eq!(text, BASE.replace("active", "done"));
        let (replaced, text) = replace_after(|p| {
            let other = p.with_file_name("saved-by-editor");
            fs::write(&other, "theirs\n").unwrap();
            fs::rename(other, p).unwrap();
        });
        assert!(!replaced);
        assert_eq!(text, "theirs\n");
    }

    #[test]
    fn a_longer_in_place_rewrite_is_not_taken_for_an_append() {
        // Truncate-and-write grows the file from 0: its old bytes are not a prefix.
        let theirs = format!("# Plan: theirs, longer\n{BASE}");
        let (replaced, text) = replace_after(|p| fs::write(p, &theirs).unwrap());
        assert!(!replaced);
        assert_eq!(text, theirs);
    }

    #[test]
    fn a_same_length_rewrite_within_one_clock_tick_is_seen() {
        let (replaced, text) = replace_after(|p| {
            let mtime = fs::metadata(p).unwrap().modified().unwrap();
            let file = OpenOptions::new().write(true).open(p).unwrap();
            (&file)
                .write_all(BASE.replace("x", "y").as_bytes())
                .unwrap();
            // What a coarse clock does to a save within the same tick.
            file.set_modified(mtime).unwrap();
        });
        assert!(!replaced);
        assert_eq!(text, BASE.replace("x", "y"));
    }

    #[test]
    fn a_file_emptied_under_a_write_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.replace("# Plan: x\n", "# Plan: x\nTheirs.\n");
        let mut file = File::create(&s.path).unwrap();
        let editor = std::thread::spawn({
            let theirs = theirs.clone();
            move || {
                std::thread::sleep(Duration::from_millis(300));
                file.write_all(theirs.as_bytes()).unwrap();
            }
        });
        let out = s
            .write(
                BASE,
                vec![Edit::AppendLog {
                    lines: vec!["- ours".into()],
                }],
            )
            .unwrap();
        editor.join().unwrap();
        assert_eq!(out, format!("{theirs}- ours\n"));
        assert_eq!(fs::read_to_string(&s.path).unwrap(), out);
    }

    #[test]
    fn a_file_that_stays_empty_is_an_environment_error_and_is_not_written() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        fs::write(&s.path, "").unwrap();
        let started = Instant::now();
        let err = s
            .write(
                BASE,
                vec![Edit::AppendLog {
                    lines: vec!["- ours".into()],
                }],
            )
            .unwrap_err();
        assert!(started.elapsed() >= SETTLE);
        let WriteError::Other(e) = err else {
            panic!("not an environment error: {err:?}")
        };
        assert_eq!(
            e.downcast_ref::<Exit>().map(|x| x.code),
            Some(crate::exit::ENVIRONMENT)
        );
        assert!(e.to_string().contains("nothing was written"), "{e}");
        assert_eq!(fs::read_to_string(&s.path).unwrap(), "");
    }

    #[test]
    fn a_shrunken_file_is_read_until_it_settles() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.replace("## Goal: A\n", "## Goal: A, renamed\n");
        // A save written in two pieces: the first is a short prefix.
        let mut file = File::create(&s.path).unwrap();
        file.write_all(&theirs.as_bytes()[..10]).unwrap();
        let editor = std::thread::spawn({
            let theirs = theirs.clone();
            move || {
                std::thread::sleep(Duration::from_millis(5));
                file.write_all(&theirs.as_bytes()[10..]).unwrap();
            }
        });
        let (_, text) = s.open(BASE.len()).unwrap();
        editor.join().unwrap();
        assert_eq!(text, theirs);
    }

    #[test]
    fn a_file_ending_inside_a_line_just_written_is_waited_for() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.replace("# Plan: x\n", "# Plan: x\nTheirs, longer.\n");
        // Not shorter than what was read before, but cut inside a line, and the rest
        // comes after a pause longer than STABLE.
        let cut = theirs.len() - 5;
        let mut file = File::create(&s.path).unwrap();
        file.write_all(&theirs.as_bytes()[..cut]).unwrap();
        let editor = std::thread::spawn({
            let theirs = theirs.clone();
            move || {
                std::thread::sleep(Duration::from_millis(400));
                file.write_all(&theirs.as_bytes()[cut..]).unwrap();
            }
        });
        let (_, text) = s.open(BASE.len()).unwrap();
        editor.join().unwrap();
        assert_eq!(text, theirs);
    }

    #[test]
    fn a_file_without_a_final_newline_is_taken_once_quiet_and_at_once_when_old() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.trim_end();
        fs::write(&s.path, theirs).unwrap();
        let started = Instant::now();
        let (_, text) = s.open(theirs.len()).unwrap();
        assert_eq!(text, theirs);
        assert!(
            started.elapsed() >= MID_LINE_QUIET - STABLE,
            "taken too soon"
        );
        assert!(started.elapsed() < SETTLE, "waited to the end");
        let file = OpenOptions::new().write(true).open(&s.path).unwrap();
        file.set_modified(std::time::SystemTime::now() - Duration::from_secs(60))
            .unwrap();
        let started = Instant::now();
        let (_, text) = s.open(theirs.len()).unwrap();
        assert_eq!(text, theirs);
        assert!(started.elapsed() < STABLE, "an old file was waited for");
        // A plain read (nothing to lose) never waits for it.
        fs::write(&s.path, theirs).unwrap();
        let started = Instant::now();
        assert_eq!(s.read().unwrap(), theirs);
        assert!(started.elapsed() < STABLE);
    }

    #[test]
    fn write_starts_over_on_the_version_saved_meanwhile() {
        // The retry loop reads the file again: a line added elsewhere is kept.
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        fs::write(&s.path, BASE.replace("## Log\n", "## Log\n- theirs\n")).unwrap();
        let out = s
            .write(
                BASE,
                vec![Edit::AppendLog {
                    lines: vec!["- ours".into()],
                }],
            )
            .unwrap();
        assert!(out.ends_with("## Log\n- theirs\n- ours\n"), "{out}");
    }

    #[test]
    fn no_temp_files_are_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        fs::write(&s.path, BASE).unwrap();
        s.write(
            BASE,
            vec![Edit::AppendLog {
                lines: vec!["- e".into()],
            }],
        )
        .unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != ".git")
            .collect();
        assert_eq!(names, ["plan.md"]);
    }
}

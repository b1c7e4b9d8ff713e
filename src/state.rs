//! Runtime state of the host loop, untracked under `<git-dir>/plan/`: per-session
//! counters and what was last injected, and the one work loop. Never plan data, so
//! never in plan.md. Every update is read-modify-write under a lock, so parallel
//! tool calls count once each.

pub mod lock;

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

use anyhow::{Context, Result};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Session files untouched this long are removed at the next session start.
const SESSION_TTL: Duration = Duration::from_secs(14 * 24 * 3600);

/// What one host session has seen.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Session {
    /// Hash of plan.md when `edits` started counting.
    pub plan_hash: String,
    /// File-modifying tool calls since plan.md last changed.
    pub edits: u32,
    /// Hash of the injection block this session last received.
    pub injected: Option<String>,
    pub compactions: u32,
    /// The compactions the host's transcript recorded at the first compaction event
    /// since the last prompt, for a host whose compaction event fires whether or not
    /// it compacts: a larger count later means one happened.
    pub compact_mark: Option<u64>,
    /// Stops in a row this session was blocked at, for a host that drops a block
    /// after so many.
    pub blocks: u32,
    /// When the running work loop this session claimed was started: a loop state
    /// that is then gone without `plan goal clear` (which keeps it, ended) vanished.
    pub in_loop: Option<String>,
    /// When the loop plan.md's log says runs, while this clone kept no state of it,
    /// was started: this session was told so (`hooks::run::vanished`), once.
    pub told_of_loop: Option<String>,
    /// The hash of plan.md whose log a stop with no loop state last looked in for
    /// a running loop (`told_of_loop`): read once per content, not at every stop.
    pub log_read: Option<String>,
    /// Files tool calls named (relative to the top of the working tree), newest
    /// last: what the loop's work fingerprint reads besides git's status.
    pub edited: Vec<String>,
}

/// The work loop started by `plan goal`. One per repository (per worktree).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Loop {
    pub budget: u32,
    /// Continuations given so far.
    pub used: u32,
    pub paused: bool,
    /// The session that claimed the loop: the first whose hook saw it.
    pub owner: Option<String>,
    /// Continuations in a row that found the work unchanged (`hooks::progress`).
    pub stalls: u32,
    /// Hash of plan.md at the last continuation, as builds before the work
    /// fingerprint kept it: read, no longer written.
    pub last_hash: Option<String>,
    /// The work fingerprint at the last continuation (`hooks::progress`).
    pub last_work: Option<String>,
    /// When `plan goal` started it (`YYYY-MM-DD HH:MM`).
    pub started: String,
    /// Why the loop stopped, once it has.
    pub ended: Option<String>,
    /// Continuations each goal took while it was the goal named first.
    pub goal_continuations: BTreeMap<String, u32>,
    /// Goals that spent their budget without a sign-off, in the order they did: the
    /// continuation passes them over until `plan goal rearm`.
    pub budget_limited: Vec<String>,
    /// Each goal's budget as it stood when a continuation first charged it, the
    /// smaller kept at each charge since: the agent writes plan.md, so its
    /// `budget:` line may lower a goal's budget, never raise it. `plan goal rearm`
    /// forgets a goal's.
    pub goal_budgets: BTreeMap<String, u32>,
    /// The contract fingerprint of each goal a continuation charged: a goal renamed
    /// since, its contract unchanged, keeps its counts (src/plan/renamed.rs).
    #[serde(default)]
    pub goal_contracts: BTreeMap<String, String>,
    /// Stops in a row let go as waiting on background work that left the work
    /// fingerprint where the last of them found it (`wait_work`): bounded by
    /// [`super::guard::WAIT_LIMIT`], so a task that never ends cannot keep the loop
    /// from holding or ending.
    #[serde(default)]
    pub waits: u32,
    #[serde(default)]
    pub wait_work: Option<String>,
    /// `loop.goal_budget` as `plan goal` found it: a key raised or deleted since
    /// gives no goal more (a lowered one applies).
    pub goal_budget: Option<u32>,
    /// `loop.stall_limit` as `plan goal` found it: a key lowered since does not
    /// end the loop sooner (a raised one applies). `None` in a loop started by an
    /// earlier plan.
    #[serde(default)]
    pub stall_limit: Option<u32>,
    /// The host's own goal beside the loop (Codex's `update_goal`), so `plan goal
    /// status` can say which loop ended a session.
    #[serde(default, skip_serializing_if = "HostGoal::is_unused")]
    pub host_goal: HostGoal,
    /// Token and time budgets, what they have counted, and where the token count
    /// left off (src/loop_budget.rs).
    #[serde(flatten)]
    pub budgets: crate::loop_budget::Budgets,
}

impl Default for Loop {
    fn default() -> Self {
        Loop {
            budget: 20,
            used: 0,
            paused: false,
            owner: None,
            stalls: 0,
            last_hash: None,
            last_work: None,
            started: String::new(),
            ended: None,
            goal_continuations: BTreeMap::new(),
            budget_limited: Vec::new(),
            goal_budgets: BTreeMap::new(),
            goal_contracts: BTreeMap::new(),
            waits: 0,
            wait_work: None,
            goal_budget: None,
            stall_limit: None,
            host_goal: Default::default(),
            budgets: Default::default(),
        }
    }
}

pub struct State {
    dir: PathBuf,
    wait: lock::Wait,
    /// The lock stayed held once: a hook waits for it once, not at every step.
    held: AtomicBool,
}

impl State {
    /// The state, its lock waited for as this process waits ([`lock::Wait::here`]):
    /// a hook's for a bounded time, a command's as long as it takes.
    pub fn new(git_dir: &Path) -> State {
        State {
            dir: git_dir.join("plan"),
            wait: lock::Wait::here(),
            held: AtomicBool::new(false),
        }
    }

    /// The git directory this state lives in.
    pub fn git_dir(&self) -> &Path {
        self.dir.parent().unwrap_or(&self.dir)
    }

    /// The state for what runs as often as a hook (the status line, the injection):
    /// a lock held past [`lock::HOOK_WAIT`] is an error, as in a hook.
    pub fn for_hook(git_dir: &Path) -> State {
        State {
            wait: lock::Wait::Bounded,
            ..State::new(git_dir)
        }
    }

    fn lock(&self) -> Result<File> {
        let file = self.lock_file()?;
        self.take(&file, false)?;
        Ok(file)
    }

    /// The lock on `file`, as this state waits for it (`state::lock::take`).
    fn take(&self, file: &File, shared: bool) -> Result<()> {
        let path = self.dir.join(lock::NAME);
        if self.held.load(Ordering::Relaxed) {
            return Err(lock::Held { path }.into());
        }
        let taken = lock::take(file, &path, shared, self.wait);
        if taken.as_ref().is_err_and(|e| e.is::<lock::Held>()) {
            self.held.store(true, Ordering::Relaxed);
        }
        taken
    }

    /// `state.lock`, or where it is no file, `.git/plan` itself (`state::lock`).
    fn lock_file(&self) -> Result<File> {
        self.own_lock_file()
            .or_else(|e| lock::in_place_of(&self.dir).ok_or(e))
    }

    /// What keeps the hooks from `state.lock`, `.git/plan` shown relative to `root`;
    /// `None` when it opens as a file.
    pub fn lock_trouble(&self, root: &Path) -> Option<lock::Trouble> {
        let error = self.own_lock_file().err()?;
        let in_place = lock::in_place_of(&self.dir).is_some();
        let shown = self.dir.strip_prefix(root).unwrap_or(&self.dir);
        Some(lock::Trouble::new(shown, &error.root_cause(), in_place))
    }

    fn own_lock_file(&self) -> Result<File> {
        let path = self.dir.join("state.lock");
        let open = || crate::fsread::open_state(crate::fsread::StateOpen::Lock, &path);
        // Opened first: the directory is there at every call but the first, and a
        // hook takes the lock several times. Where it fails, as before: the
        // directory made, then the lock opened.
        if let Ok(file) = open() {
            return Ok(file);
        }
        crate::atomic::make_dirs(&self.dir)
            .with_context(|| format!("creating {}", self.dir.display()))?;
        open().with_context(|| format!("opening {}", path.display()))
    }

    fn session_path(&self, id: &str) -> PathBuf {
        self.dir
            .join("sessions")
            .join(format!("{}.json", file_name(id)))
    }

    /// Whether plan keeps a record of session `id`: it writes one as the session
    /// claims a loop, so a loop's owner with none is a name written by hand.
    pub fn has_session(&self, id: &str) -> bool {
        self.session_path(id).is_file()
    }

    fn loop_path(&self) -> PathBuf {
        self.dir.join("loop.json")
    }

    /// Why there is no loop to act on when `loop.json` is there but reads as none
    /// (not a loop plan can read, or not a regular file): a command says that
    /// rather than "no work loop is running". `None` when it is absent or reads.
    pub fn unreadable_loop(&self) -> Option<String> {
        let path = self.loop_path();
        fs::symlink_metadata(&path).ok()?;
        match crate::fsread::bytes(&path, crate::fsread::STATE) {
            Ok(bytes) if serde_json::from_slice::<Loop>(&bytes).is_ok() => None,
            Ok(_) => Some(format!(
                "{} is not a work loop plan can read (damaged, or written by hand)",
                path.display()
            )),
            Err(e) => Some(format!("{} {e}", path.display())),
        }
    }

    /// Reads, changes and writes one session's state under the lock. Where the
    /// state cannot be written (`.git/plan` on a read-only mount, or not a
    /// directory), the change is decided on the state as it reads and remembered
    /// nowhere: the hooks answer read-only rather than not at all. A session's state
    /// only spares repeats (an injection already given), so losing it costs a repeat.
    pub fn session<R>(&self, id: &str, change: impl FnOnce(&mut Session) -> R) -> Result<R> {
        let _lock = match self.lock() {
            Ok(lock) => lock,
            // Held by another process: the hook says so, rather than go on unrecorded.
            Err(e) if e.is::<lock::Held>() => return Err(e),
            Err(_) => {
                let mut value: Session = read_record(&self.session_path(id))?;
                return Ok(change(&mut value));
            }
        };
        update(&self.session_path(id), change)
    }

    /// Reads, changes and writes the loop under the lock (`None`: no loop).
    pub fn with_loop<R>(&self, change: impl FnOnce(&mut Option<Loop>) -> R) -> Result<R> {
        let _lock = self.lock()?;
        self.change_loop(change)
    }

    /// As [`State::with_loop`], then `after` given what `change` returned, once the
    /// loop is written and with the lock still held: so what records a change (its
    /// line in plan.md) is ordered as the changes are: a `plan goal pause` never
    /// logs after the clear that ended its loop. Lock order: this lock, then the store's;
    /// nothing holding the store's lock takes this one, and `after` must not take
    /// this one again (a second open of the lock would wait on this process).
    pub fn with_loop_then<R>(
        &self,
        after: impl FnOnce(&R),
        change: impl FnOnce(&mut Option<Loop>) -> R,
    ) -> Result<R> {
        let _lock = self.lock()?;
        let out = self.change_loop(change)?;
        after(&out);
        Ok(out)
    }

    /// The body of [`State::with_loop`], the lock held by the caller.
    fn change_loop<R>(&self, change: impl FnOnce(&mut Option<Loop>) -> R) -> Result<R> {
        let path = self.loop_path();
        let mut current: Option<Loop> = read(&path)?;
        let before = current.clone();
        let out = change(&mut current);
        if current != before {
            match &current {
                Some(state) => replace_loop(&path, state)?,
                None => {
                    let _ = crate::atomic::remove(&path);
                    let _ = crate::atomic::remove(path.with_file_name(LOOP_STANDBY));
                }
            }
        }
        Ok(out)
    }

    /// The loop as it is, without waiting on a hook that decides: under the shared
    /// lock, so it is the loop a decision left, not one on its way. Where no lock can be had (a
    /// read-only `.git`), nothing writes the loop either, and it is read as it is.
    pub fn peek_loop(&self) -> Result<Option<Loop>> {
        let shared = self.lock_file().ok();
        if let Some(file) = &shared {
            self.take(file, true)?;
        }
        read(&self.loop_path())
    }

    /// As [`State::peek_loop`], read as `T`: a reader of fields a newer plan added
    /// (`plan report` reads `tokens` where a loop has it).
    pub fn peek_loop_as<T: DeserializeOwned>(&self) -> Result<Option<T>> {
        let shared = self.lock_file().ok();
        if let Some(file) = &shared {
            self.take(file, true)?;
        }
        read(&self.loop_path())
    }

    /// The loop as loop.json says, read without the lock: for a hook that could not
    /// take it (loop.json is only ever replaced whole by a new file, so it reads as
    /// one loop).
    pub fn loop_unlocked(&self) -> Option<Loop> {
        read(&self.loop_path()).ok().flatten()
    }

    /// Whether no state can be kept here: `.git/plan` is not a directory plan can
    /// lock in (a read-only mount, or a file in its place).
    pub fn cannot_keep(&self) -> bool {
        self.lock_file().is_err()
    }

    /// Takes away a link in loop.json's place (the link, not what it leads to):
    /// plan keeps no loop in one and writes none through it, so a loop there is
    /// one that vanished, kept again from plan.md's log. Whether a link was there
    /// and stays.
    pub fn loop_link_stays(&self) -> bool {
        let path = self.loop_path();
        fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_symlink())
            && crate::atomic::remove(&path).is_err()
    }

    /// The session whose record claims the loop started at `started`, by its
    /// file's name (a session id plan hashed for its file name is not found).
    pub fn claimant(&self, started: &str) -> Option<String> {
        let entries = fs::read_dir(self.dir.join("sessions")).ok()?;
        entries.flatten().find_map(|entry| {
            let path = entry.path();
            let session: Session = read(&path).ok().flatten()?;
            (session.in_loop.as_deref() == Some(started))
                .then(|| path.file_stem()?.to_str().map(str::to_string))
                .flatten()
        })
    }

    /// Removes session files nobody touched in two weeks.
    pub fn prune(&self) {
        let Ok(entries) = fs::read_dir(self.dir.join("sessions")) else {
            return;
        };
        let now = SystemTime::now();
        for entry in entries.flatten() {
            let old = entry
                .metadata()
                .and_then(|m| m.modified())
                .is_ok_and(|t| now.duration_since(t).unwrap_or_default() > SESSION_TTL);
            if old {
                let _ = crate::atomic::remove(entry.path());
            }
        }
    }
}

fn update<T: Default + PartialEq + Clone + Serialize + DeserializeOwned, R>(
    path: &Path,
    change: impl FnOnce(&mut T) -> R,
) -> Result<R> {
    let mut value: T = read_record(path)?;
    let before = value.clone();
    let out = change(&mut value);
    if value != before {
        // A session file that cannot be written (a read-only directory under a
        // writable lock, a directory in its place) is remembered nowhere, as in
        // [`State::session`].
        let _ = rewrite(path, &value);
    }
    Ok(out)
}

/// A session's record, or a fresh one where there is none. A directory put in its
/// place, or one plan may not read, is none: a record only spares repeats, and an
/// error here made every hook of the session fail open, letting every stop go.
fn read_record<T: Default + DeserializeOwned>(path: &Path) -> Result<T> {
    use std::io::ErrorKind::{IsADirectory, PermissionDenied};
    match read(path) {
        Ok(record) => Ok(record.unwrap_or_default()),
        Err(e)
            if e.root_cause()
                .downcast_ref::<std::io::Error>()
                .is_some_and(|e| matches!(e.kind(), IsADirectory | PermissionDenied)) =>
        {
            Ok(T::default())
        }
        Err(e) => Err(e),
    }
}

/// How loop.json is replaced: whole, by a rename, so a reader without the lock sees
/// the old loop or the new one, and a write that fails (a full disk) leaves the old
/// one. No fsync: a loop lost to a power cut ends, as a hook fails open, and a stop
/// writes the loop on every continuation. Once loop.json is there it is swapped
/// with a new [`LOOP_STANDBY`] instead, for less: a reader still sees one loop
/// whole, but after a power cut loop.json may hold an older
/// loop or a garbled one, which reads as none ([`crate::atomic::swap_in`]).
const LOOP_FILE: crate::atomic::Replace = crate::atomic::Replace {
    new_file: crate::atomic::NewFile::Private,
    create_dirs: true,
    fsync: false,
    sync_dir: false,
    prefix: ".plan-loop-",
};

/// Beside loop.json, the loop as it was before the last write: removed by the next
/// write, which makes it anew and swaps the two. Not a name a person keeps a copy under
/// (`loop.json.old`), and no temp file. Removed where plan removes the loop's state.
const LOOP_STANDBY: &str = "loop.standby";

/// Replaces loop.json with `value` (see [`LOOP_FILE`]). A read-only loop.json is
/// made plan's own again first: plan leaves a person's read-only files alone, but
/// this one is plan's, and `chmod 444` on it made every stop of a running loop fail
/// open.
fn replace_loop(path: &Path, value: &Loop) -> Result<()> {
    use crate::atomic::Failure;
    let bytes = serde_json::to_vec_pretty(value)?;
    if crate::atomic::swap_in(path, &path.with_file_name(LOOP_STANDBY), &bytes) {
        return Ok(());
    }
    // The mode is set on the file opened without following a link, and only on a
    // file with one name: a hard link made in loop.json's place is another file's
    // too, and its mode is not plan's to change.
    let writable = || {
        use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _};
        crate::fsread::open(path)
            .and_then(|f| match f.metadata()?.nlink() {
                1 => f.set_permissions(std::fs::Permissions::from_mode(0o600)),
                _ => Err(std::io::ErrorKind::PermissionDenied.into()),
            })
            .is_ok()
    };
    let replaced = match crate::atomic::replace(path, &bytes, &LOOP_FILE) {
        Err(Failure::ReadOnly) if writable() => crate::atomic::replace(path, &bytes, &LOOP_FILE),
        other => other,
    };
    replaced.map_err(|e| match e {
        Failure::ReadOnly => anyhow::anyhow!("writing {}: the file is read-only", path.display()),
        Failure::Dir(dir, e) => anyhow::anyhow!("creating {}: {e}", dir.display()),
        Failure::Io(e) => anyhow::anyhow!("writing {}: {e}", path.display()),
    })
}

/// Rewrites a session's state file in place. Session files are read and written only under
/// the lock, and the loop is read under its shared side, so no reader sees one
/// half-written, and a file cut short by a crash reads as absent (a lost loop ends,
/// as a hook fails open); a temp file and a rename per update cost a hook more
/// than all else it does (ext4 flushes a file renamed over another, or truncated
/// to nothing and written again, so the new bytes go over the old and the length
/// is set after).
fn rewrite<T: Serialize>(path: &Path, value: &T) -> Result<()> {
    let bytes = serde_json::to_vec_pretty(value)?;
    let open = || crate::fsread::open_state(crate::fsread::StateOpen::Update, path);
    let mut file = match open() {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            let dir = path.parent().expect("state files live in a directory");
            crate::atomic::make_dirs(dir).with_context(|| format!("creating {}", dir.display()))?;
            open()
        }
        other => other,
    }
    .with_context(|| format!("writing {}", path.display()))?;
    file.write_all(&bytes)
        .and_then(|()| file.set_len(bytes.len() as u64))
        .with_context(|| format!("writing {}", path.display()))
}

/// A state file; one that is missing or unreadable as JSON counts as absent, so a
/// damaged file never wedges a hook.
fn read<T: DeserializeOwned>(path: &Path) -> Result<Option<T>> {
    use std::io::ErrorKind::{NotADirectory, NotFound};
    // Opened without blocking and only when regular (src/fsread.rs): a named pipe
    // or a device there is no state, and never hangs a hook.
    match crate::fsread::bytes(path, crate::fsread::STATE) {
        Ok(bytes) => Ok(serde_json::from_slice(&bytes).ok()),
        Err(e) if matches!(e.kind(), NotFound | NotADirectory) => Ok(None),
        Err(e) if crate::fsread::refused(&e).is_some() => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading {}", path.display())),
    }
}

/// Session ids come from the host: safe ones are used as they are, others hashed.
fn file_name(id: &str) -> String {
    let safe = !id.is_empty()
        && id.len() <= 80
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.')
        && !id.starts_with('.');
    if safe {
        id.to_string()
    } else {
        let mut hash = sha1_smol::Sha1::new();
        hash.update(id.as_bytes());
        hash.digest().to_string()
    }
}

/// What the loop saw of the host's own goal (Codex's `update_goal`): the calls
/// marking it complete that were refused while goals were left, and when one went
/// through. `loop.json` keeps it; `plan goal status` and the report say from it
/// which loop ended a session.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(default)]
pub struct HostGoal {
    pub refused: u32,
    /// When the host reported its goal complete (`YYYY-MM-DD HH:MM`).
    pub completed: Option<String>,
}

impl HostGoal {
    pub fn is_unused(&self) -> bool {
        *self == HostGoal::default()
    }

    /// What it did, in words, when it did anything.
    pub fn words(&self) -> Option<String> {
        if self.is_unused() {
            return None;
        }
        let refused = match self.refused {
            0 => String::new(),
            1 => "refused once while goals were left".to_string(),
            n => format!("refused {n} times while goals were left"),
        };
        Some(match (&self.completed, refused.is_empty()) {
            (Some(at), true) => format!("marked complete at {at}"),
            (Some(at), false) => format!("{refused}, then marked complete at {at}"),
            (None, _) => format!("{refused}; not marked complete"),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn session_updates_persist_and_ids_are_safe_file_names() {
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        state.session("abc-123", |s| s.edits += 2).unwrap();
        assert_eq!(state.session("abc-123", |s| s.edits).unwrap(), 2);
        state.session("../../etc/passwd", |s| s.edits = 1).unwrap();
        let names: Vec<_> = fs::read_dir(dir.path().join("plan/sessions"))
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .collect();
        assert!(
            names
                .iter()
                .all(|n| !n.contains('/') && n.ends_with(".json"))
        );
        assert_eq!(names.len(), 2);
    }

    #[test]
    fn a_session_update_rewrites_its_file_in_place() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        state.session("s", |s| s.edits = 1).unwrap();
        let path = dir.path().join("plan/sessions/s.json");
        let inode = fs::metadata(&path).unwrap().ino();
        // Checked after each update: a freed inode number comes back soon.
        state
            .session("s", |s| s.injected = Some("a much longer value".into()))
            .unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().ino(),
            inode,
            "a temp file was renamed over it"
        );
        state.session("s", |s| s.injected = None).unwrap();
        assert_eq!(
            fs::metadata(&path).unwrap().ino(),
            inode,
            "a temp file was renamed over it"
        );
        assert_eq!(
            state.session("s", |s| s.clone()).unwrap(),
            Session {
                edits: 1,
                ..Session::default()
            },
            "a shorter rewrite leaves nothing of the longer one behind"
        );
    }

    #[test]
    fn loop_is_created_changed_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        assert_eq!(state.peek_loop().unwrap(), None);
        state
            .with_loop(|l| {
                *l = Some(Loop {
                    budget: 3,
                    ..Loop::default()
                })
            })
            .unwrap();
        assert_eq!(state.peek_loop().unwrap().unwrap().budget, 3);
        state.with_loop(|l| *l = None).unwrap();
        assert_eq!(state.peek_loop().unwrap(), None);
    }

    /// Issue #35: loop.json was rewritten in place (a full disk left it empty, a
    /// reader without the lock could see it half written); now a new file is
    /// renamed over it.
    #[test]
    fn a_loop_update_replaces_its_file_whole() {
        use std::os::unix::fs::MetadataExt;
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        state.with_loop(|l| *l = Some(Loop::default())).unwrap();
        let path = dir.path().join("plan/loop.json");
        let inode = fs::metadata(&path).unwrap().ino();
        state
            .with_loop(|l| l.as_mut().unwrap().owner = Some("a long session id".into()))
            .unwrap();
        assert_ne!(
            fs::metadata(&path).unwrap().ino(),
            inode,
            "rewritten in place"
        );
        state
            .with_loop(|l| l.as_mut().unwrap().owner = None)
            .unwrap();
        assert_eq!(state.peek_loop().unwrap(), Some(Loop::default()));
    }

    /// Once loop.json is there, an update writes the standby and swaps the two:
    /// loop.json is always whole, keeps its private mode, and the standby holds
    /// the loop before the update; both go with the loop.
    #[test]
    fn a_loop_update_swaps_in_the_old_file_and_a_clear_removes_both() {
        use std::os::unix::fs::{MetadataExt, PermissionsExt};
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        let (path, old) = (
            dir.path().join("plan/loop.json"),
            dir.path().join("plan/loop.standby"),
        );
        let with = |used| Loop {
            used,
            ..Loop::default()
        };
        state.with_loop(|l| *l = Some(with(1))).unwrap();
        assert!(!old.exists(), "the first write made a standby");
        state.with_loop(|l| *l = Some(with(2))).unwrap();
        state.with_loop(|l| *l = Some(with(3))).unwrap();
        assert_eq!(state.peek_loop().unwrap(), Some(with(3)));
        let read = |p: &Path| serde_json::from_slice::<Loop>(&fs::read(p).unwrap()).unwrap();
        assert_eq!(read(&old), with(2));
        // Each write is a new file: the one before it is the standby, not written over.
        assert_ne!(
            fs::metadata(&path).unwrap().ino(),
            fs::metadata(&old).unwrap().ino()
        );
        assert_eq!(
            fs::metadata(&path).unwrap().permissions().mode() & 0o777,
            0o600
        );
        state.with_loop(|l| *l = None).unwrap();
        assert!(!path.exists() && !old.exists());
    }

    /// A hard link or a symlink put at the standby names another file: that
    /// file's bytes stay as they were, and the loop is still written whole.
    #[test]
    fn a_link_at_the_standby_is_never_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        let with = |used| Loop {
            used,
            ..Loop::default()
        };
        state.with_loop(|l| *l = Some(with(1))).unwrap();
        let other = dir.path().join("plan.md");
        fs::write(&other, "# Plan: mine\n").unwrap();
        // A copy a person keeps under the usual backup name is theirs.
        let backup = dir.path().join("plan/loop.json.old");
        fs::write(&backup, "{\"mine\": true}").unwrap();
        let old = dir.path().join("plan/loop.standby");
        fs::hard_link(&other, &old).unwrap();
        state.with_loop(|l| *l = Some(with(2))).unwrap();
        assert_eq!(state.peek_loop().unwrap(), Some(with(2)));
        assert_eq!(fs::read_to_string(&other).unwrap(), "# Plan: mine\n");
        fs::remove_file(&old).unwrap();
        std::os::unix::fs::symlink(&other, &old).unwrap();
        state.with_loop(|l| *l = Some(with(3))).unwrap();
        assert_eq!(state.peek_loop().unwrap(), Some(with(3)));
        assert_eq!(fs::read_to_string(&other).unwrap(), "# Plan: mine\n");
        assert_eq!(fs::read_to_string(&backup).unwrap(), "{\"mine\": true}");
    }

    /// Readers that do not wait for the lock (every stop hook peeks first) never
    /// see a loop half rewritten: it is always there, as one update left it.
    #[test]
    fn a_peek_never_sees_a_loop_half_written() {
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        let long = Loop {
            used: 1,
            owner: Some("x".repeat(4000)),
            last_hash: Some("y".repeat(4000)),
            ..Loop::default()
        };
        state.with_loop(|l| *l = Some(long.clone())).unwrap();
        let stop = std::sync::atomic::AtomicBool::new(false);
        std::thread::scope(|scope| {
            let writer = scope.spawn(|| {
                for i in 0..3000u32 {
                    let next = if i.is_multiple_of(2) {
                        Loop {
                            used: i,
                            ..Loop::default()
                        }
                    } else {
                        Loop {
                            used: i,
                            ..long.clone()
                        }
                    };
                    State::new(dir.path())
                        .with_loop(|l| *l = Some(next))
                        .unwrap();
                }
                stop.store(true, std::sync::atomic::Ordering::Relaxed);
            });
            let reader = State::new(dir.path());
            let mut peeks = 0;
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                let seen = reader.peek_loop().unwrap();
                let seen = seen.expect("a peek saw no loop while one was being rewritten");
                assert!(
                    seen.owner.is_none() == seen.used.is_multiple_of(2),
                    "a peek saw two updates mixed: {seen:?}"
                );
                peeks += 1;
            }
            writer.join().unwrap();
            assert!(peeks > 0);
        });
    }

    #[test]
    fn a_damaged_state_file_counts_as_absent() {
        let dir = tempfile::tempdir().unwrap();
        let state = State::new(dir.path());
        fs::create_dir_all(dir.path().join("plan")).unwrap();
        fs::write(dir.path().join("plan/loop.json"), "{not json").unwrap();
        assert_eq!(state.peek_loop().unwrap(), None);
    }
}

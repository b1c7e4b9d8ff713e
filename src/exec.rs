//! Argv-only process runner: one pipeline in its own process group, stdin null or
//! given bytes, every stream drained on threads into bounded tails, a deadline
//! enforced with TERM then KILL to the whole group. Never invokes a shell, and
//! leaves no descendant behind, not even one that left the group (setsid).

use std::fmt;
use std::fs;
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::PathBuf;
use std::process::{Child, ChildStdout, Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Mutex, PoisonError};
use std::thread;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use rustix::process::{
    Pid, Signal, WaitOptions, getpid, kill_process, kill_process_group, set_child_subreaper,
    test_kill_process_group, waitpid,
};

mod scratch;
mod stop;

pub use scratch::{Scratch, private_base, sweep_left};
pub use stop::{watch_signals, writing};

/// The end of the run mark of a run that must end whole ([`Spec::whole`]): what
/// [`stop::end_orphans`] leaves to finish.
const WHOLE: &str = "-whole";

/// The error of a run stopped by its [`cancellable`] flag.
pub const CANCELLED: &str =
    "cancelled: the client cancelled the request, and its processes were stopped";

/// How long a timed-out group has between TERM and KILL.
pub const GRACE: Duration = Duration::from_secs(2);

/// How much output a run keeps unless told otherwise.
pub const DEFAULT_TAIL: usize = 64 * 1024;

/// How long output pipes may stay open once the group is gone: a descendant that
/// left the group (setsid) can hold them forever, and must not hold us.
const DRAIN: Duration = Duration::from_millis(500);

/// How long a KILLed child may take to be reaped before it is reported without a
/// status (a process stuck in the kernel cannot die sooner).
const REAP: Duration = Duration::from_secs(5);

/// As big as a default pipe, so one read empties it.
const READ_BUF: usize = 64 * 1024;

/// Set in every command a run starts and inherited by all their descendants: how
/// the sweep tells a run's processes from any other (a test binary has many runs
/// going at once), wherever they went.
const RUN_VAR: &str = "PLAN_EXEC_RUN";

static RUNS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
static SUBREAPER: std::sync::Once = std::sync::Once::new();
static SIGNALS: std::sync::Once = std::sync::Once::new();

/// The runs going on now, by process group, mark and whether they must end whole
/// ([`Spec::whole`]): what a signal that ends plan ends first (each run has a group
/// of its own, which a terminal's Ctrl-C misses), or waits for.
static LIVE: Mutex<Vec<(Option<Pid>, String, bool)>> = Mutex::new(Vec::new());

/// Set once a signal is ending plan: a run its stop ended waits for the exit
/// rather than report a failure of its own.
static STOPPING: AtomicBool = AtomicBool::new(false);

/// Once a signal is ending plan, the command's own end waits here for the signal's
/// thread, which ends the process with the signal's status (or a write's, which it
/// waited for): a command that failed because its run was killed or its directory
/// removed under it would otherwise exit first, with its own status and error.
pub fn yield_to_signal() {
    while STOPPING.load(Ordering::SeqCst) {
        thread::park();
    }
}

/// How long runs have between TERM and KILL when a signal ends plan: git removes
/// its lock files on TERM in far less.
const SIGNAL_GRACE: Duration = Duration::from_millis(500);

/// The limit of a git command that talks to a remote: `default` (the documented
/// one), or `PLAN_REMOTE_TIMEOUT` seconds when that is a whole number over 0 (a slow
/// link; tests of a remote that hangs).
pub fn remote_timeout(default: Duration) -> Duration {
    crate::env::text("PLAN_REMOTE_TIMEOUT")
        .and_then(|v| v.trim().parse::<u64>().ok())
        .filter(|s| *s > 0)
        .map_or(default, Duration::from_secs)
}

/// Ends every live run: TERM to each group, [`SIGNAL_GRACE`], KILL, then each run's
/// sweep (what left the group). How many runs there were.
fn end_runs() -> usize {
    let live = LIVE.lock().unwrap_or_else(PoisonError::into_inner).clone();
    // A run that must end whole ends by itself (or at its own deadline): stopped
    // half-way, it would leave the half-done write this flag exists to prevent.
    while LIVE
        .lock()
        .unwrap_or_else(PoisonError::into_inner)
        .iter()
        .any(|(_, _, whole)| *whole)
    {
        thread::sleep(Duration::from_millis(5));
    }
    let live: Vec<_> = live.into_iter().filter(|(_, _, whole)| !whole).collect();
    let groups: Vec<Pid> = live.iter().filter_map(|(g, _, _)| *g).collect();
    for group in &groups {
        signal(*group, Signal::TERM);
    }
    let end = Instant::now() + SIGNAL_GRACE;
    while Instant::now() < end && groups.iter().any(|g| test_kill_process_group(*g).is_ok()) {
        thread::sleep(Duration::from_millis(5));
    }
    for group in &groups {
        signal(*group, Signal::KILL);
    }
    // A run still starting has no group yet: its mark finds what it started.
    for (_, mark, _) in &live {
        sweep(mark, &[]);
    }
    live.len()
}

/// How often a run with a [`cancellable`] flag looks at it.
const CANCEL_POLL: Duration = Duration::from_millis(50);

thread_local! {
    static CANCEL: std::cell::RefCell<Option<Arc<AtomicBool>>> =
        const { std::cell::RefCell::new(None) };
}

/// Runs `f` with every [`run`] it makes on this thread stopped as a timeout stops
/// it (TERM, grace, KILL to the group) once `flag` is set; such a run is then an
/// error, not an outcome: nothing was checked. `plan mcp` sets it when its client
/// cancels a sign-off.
pub fn cancellable<T>(flag: Arc<AtomicBool>, f: impl FnOnce() -> T) -> T {
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            CANCEL.with(|c| c.borrow_mut().take());
        }
    }
    CANCEL.with(|c| *c.borrow_mut() = Some(flag));
    let _reset = Reset;
    f()
}

/// The flag [`cancellable`] set on this thread, to hand to threads it starts (a
/// judge panel's), so a cancel stops their runs too.
pub fn cancel_flag() -> Option<Arc<AtomicBool>> {
    CANCEL.with(|c| c.borrow().clone())
}

fn cancelled(flag: Option<&AtomicBool>) -> bool {
    flag.is_some_and(|f| f.load(Ordering::SeqCst))
}

/// What to run: one pipeline (a single command is a pipeline of one).
#[derive(Clone, Debug)]
pub struct Spec {
    /// Each command's argv; stdout of one feeds stdin of the next.
    pub commands: Vec<Vec<String>>,
    pub cwd: PathBuf,
    /// Added to the inherited environment.
    pub env: Vec<(String, String)>,
    /// Inherit nothing: the commands get `env` alone (a re-run that must not see
    /// the caller's secrets).
    pub clean_env: bool,
    /// Fed to the first command's stdin, which is then closed; `None`: stdin is null.
    pub stdin: Option<Vec<u8>>,
    /// When the group is sent TERM. Past it already, nothing is started.
    pub deadline: Instant,
    /// Between TERM and KILL.
    pub grace: Duration,
    /// How many trailing bytes of each stream are kept.
    pub tail_bytes: usize,
    /// A signal that ends plan lets this run finish rather than end it: a git
    /// command that moves a branch, index and tree together, which stopped half-way
    /// leaves a half-done merge.
    pub whole: bool,
}

impl Spec {
    /// One command with a null stdin, the default grace and tail.
    pub fn new(argv: Vec<String>, cwd: impl Into<PathBuf>, timeout: Duration) -> Spec {
        Spec::pipeline(vec![argv], cwd, timeout)
    }

    pub fn pipeline(
        commands: Vec<Vec<String>>,
        cwd: impl Into<PathBuf>,
        timeout: Duration,
    ) -> Spec {
        Spec {
            commands,
            cwd: cwd.into(),
            env: Vec::new(),
            clean_env: false,
            stdin: None,
            deadline: deadline(timeout),
            grace: GRACE,
            tail_bytes: DEFAULT_TAIL,
            whole: false,
        }
    }
}

/// How a pipeline ended.
#[derive(Debug)]
pub struct Output {
    /// Each command's status, in pipeline order; `None` for one never started or
    /// never reaped.
    pub statuses: Vec<Option<ExitStatus>>,
    /// The deadline passed and the group was stopped.
    pub timed_out: bool,
    /// The last command's stdout, its last `tail_bytes`.
    pub stdout: Vec<u8>,
    /// More stdout came than `tail_bytes`: `stdout` is its end only.
    pub stdout_cut: bool,
    /// Every command's stderr, its last `tail_bytes`.
    pub stderr: Vec<u8>,
    /// Both, chunks in arrival order, the last `tail_bytes`.
    pub combined: Vec<u8>,
}

impl Output {
    /// The pipeline's status: its last command's, as sh reports it without pipefail.
    pub fn status(&self) -> Option<ExitStatus> {
        self.statuses.last().copied().flatten()
    }

    pub fn code(&self) -> Option<i32> {
        self.status().and_then(|s| s.code())
    }

    /// The signal that ended the last command, if one did.
    pub fn signal(&self) -> Option<i32> {
        self.status().and_then(|s| s.signal())
    }

    pub fn success(&self) -> bool {
        !self.timed_out && self.status().is_some_and(|s| s.success())
    }
}

/// A command that could not be started; nothing of its pipeline is left running.
#[derive(Debug)]
pub struct SpawnError {
    pub program: String,
    pub error: io::Error,
}

impl SpawnError {
    /// Why, in a few words: `not found`, `permission denied`, ….
    pub fn reason(&self) -> String {
        match self.error.kind() {
            ErrorKind::NotFound => "not found".to_string(),
            ErrorKind::PermissionDenied => "permission denied".to_string(),
            _ => self.error.to_string(),
        }
    }
}

impl fmt::Display for SpawnError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot run {:?}: {}", self.program, self.reason())?;
        match self.error.kind() {
            ErrorKind::NotFound => f.write_str("\n  hint: is it installed and on PATH?"),
            ErrorKind::PermissionDenied => f.write_str("\n  hint: is it executable (chmod +x)?"),
            _ => Ok(()),
        }
    }
}

impl std::error::Error for SpawnError {}

/// `timeout` from now; one too long to represent is as good as none.
pub fn deadline(timeout: Duration) -> Instant {
    let now = Instant::now();
    now.checked_add(timeout)
        .unwrap_or_else(|| now + Duration::from_secs(100 * 365 * 24 * 3600))
}

/// Runs `spec` to its end or its deadline. A command that cannot be started is a
/// [`SpawnError`] (downcast the error to tell it apart).
pub fn run(spec: &Spec) -> Result<Output> {
    if spec.commands.is_empty() || spec.commands.iter().any(Vec::is_empty) {
        bail!("empty command");
    }
    match fs::metadata(&spec.cwd) {
        Ok(meta) if meta.is_dir() => {}
        Ok(_) => bail!(
            "working directory {} is not a directory",
            spec.cwd.display()
        ),
        Err(e) => bail!("working directory {}: {e}", spec.cwd.display()),
    }
    let cancel = CANCEL.with(|c| c.borrow().clone());
    if cancelled(cancel.as_deref()) {
        bail!(CANCELLED);
    }
    let tails = Tails::new(spec.tail_bytes);
    if Instant::now() >= spec.deadline {
        return Ok(tails.output(vec![None; spec.commands.len()], true));
    }
    // Each reader holds a sender and drops it at end of file: the channel
    // disconnects when every pipe is closed.
    // A descendant orphaned by a setsid and an exiting parent comes to us instead
    // of init, so the sweep can reap it once killed. Best effort: without it the
    // sweep still kills, and init reaps.
    SUBREAPER.call_once(|| {
        let _ = set_child_subreaper(Some(getpid()));
    });
    // A run a write makes (a sign-off's git) ends whole: the signal waits for the
    // write. Any other does not start once a signal is ending plan.
    let whole = spec.whole || stop::in_write();
    while STOPPING.load(Ordering::SeqCst) && !whole {
        thread::park();
    }
    let mark = format!(
        "{}-{}{}",
        getpid().as_raw_nonzero(),
        RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
        if whole { WHOLE } else { "" }
    );
    watch_signals();
    let live = || LIVE.lock().unwrap_or_else(PoisonError::into_inner);
    live().push((None, mark.clone(), whole));
    let (readers, all_read) = mpsc::channel();
    let started = start(spec, &mark, &tails, &readers);
    let (group, children) = match started {
        Ok(started) => started,
        Err(e) => {
            live().retain(|(_, m, _)| *m != mark);
            return Err(e);
        }
    };
    drop(readers);
    if let Some(entry) = live().iter_mut().find(|(_, m, _)| *m == mark) {
        entry.0 = Some(group);
    }
    let direct: Vec<i32> = children.iter().map(|c| c.id() as i32).collect();
    let (statuses, timed_out) = wait(spec, group, children, cancel.as_deref());
    sweep(&mark, &direct);
    live().retain(|(_, m, _)| *m != mark);
    while STOPPING.load(Ordering::SeqCst) && !whole {
        thread::park();
    }
    let _ = all_read.recv_timeout(DRAIN);
    if timed_out && cancelled(cancel.as_deref()) {
        bail!(CANCELLED);
    }
    Ok(tails.output(statuses, timed_out))
}

/// Spawns every command into one new process group (named by the first one's
/// pid), wired up and drained.
/// Where `program` is on PATH: the first executable file of that name, as a shell
/// finds it. An empty PATH entry (the current directory) is skipped: a judge must
/// not be picked up from whatever directory plan runs in.
pub fn find_on_path(program: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let path = crate::env::os("PATH")?;
    std::env::split_paths(&path)
        .filter(|dir| !dir.as_os_str().is_empty())
        .map(|dir| dir.join(program))
        .find(|file| {
            fs::metadata(file).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
        })
}

fn start(
    spec: &Spec,
    mark: &str,
    tails: &Tails,
    readers: &Sender<()>,
) -> Result<(Pid, Vec<Child>)> {
    let mut children: Vec<Child> = Vec::with_capacity(spec.commands.len());
    let mut group = None;
    let mut upstream: Option<ChildStdout> = None;
    for (i, argv) in spec.commands.iter().enumerate() {
        let stdin = match upstream.take() {
            Some(out) => Stdio::from(out),
            None if spec.stdin.is_some() => Stdio::piped(),
            None => Stdio::null(),
        };
        let mut command = Command::new(&argv[0]);
        if spec.clean_env {
            command.env_clear();
        }
        command
            .args(&argv[1..])
            .current_dir(&spec.cwd)
            .envs(spec.env.iter().map(|(k, v)| (k, v)))
            // The key CI's accepts are signed with is plan's alone: no verify, judge
            // or git plan starts holds it, whatever its environment (issue 71).
            .env_remove(crate::env::RECORD_KEY)
            .env(RUN_VAR, mark)
            .stdin(stdin)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .process_group(group.map_or(0, |g: Pid| g.as_raw_nonzero().get()));
        let spawned = command.spawn();
        // The command holds the parent's copy of the upstream pipe; dropping it
        // lets the upstream command see a closed pipe if this one exits.
        drop(command);
        let mut child = match spawned {
            Ok(child) => child,
            Err(error) => {
                abandon(group, children);
                return Err(SpawnError {
                    program: argv[0].clone(),
                    error,
                }
                .into());
            }
        };
        group.get_or_insert_with(|| Pid::from_child(&child));
        if let (Some(mut pipe), Some(bytes)) = (child.stdin.take(), spec.stdin.clone()) {
            // A reader that stops early, or a kill, closes the pipe: the write
            // then fails and the thread ends.
            thread::spawn(move || {
                let _ = pipe.write_all(&bytes);
            });
        }
        if let Some(err) = child.stderr.take() {
            drain(err, &tails.stderr, &tails.combined, readers);
        }
        if i + 1 < spec.commands.len() {
            upstream = child.stdout.take();
        } else if let Some(out) = child.stdout.take() {
            drain(out, &tails.stdout, &tails.combined, readers);
        }
        children.push(child);
    }
    Ok((group.expect("a pipeline has a first command"), children))
}

/// Waits for every child until the deadline, then TERM, grace, KILL to the group.
/// Either way nothing of the group is left running.
fn wait(
    spec: &Spec,
    group: Pid,
    children: Vec<Child>,
    cancel: Option<&AtomicBool>,
) -> (Vec<Option<ExitStatus>>, bool) {
    let mut waiting = Waiting {
        statuses: vec![None; children.len()],
        pending: children.len(),
        rx: reap_on_threads(children),
    };
    match cancel {
        None => waiting.until(spec.deadline),
        // A cancel ends the wait as the deadline would.
        Some(flag) => {
            while waiting.pending > 0 && Instant::now() < spec.deadline && !cancelled(Some(flag)) {
                waiting.until(spec.deadline.min(Instant::now() + CANCEL_POLL));
            }
        }
    }
    let timed_out = waiting.pending > 0;
    if timed_out {
        signal(group, Signal::TERM);
        let grace_end = deadline(spec.grace);
        waiting.until(grace_end);
        while test_kill_process_group(group).is_ok() && Instant::now() < grace_end {
            thread::sleep(Duration::from_millis(10));
        }
        signal(group, Signal::KILL);
        waiting.until(Instant::now() + REAP);
    } else {
        // The pipeline is done; what it left running in its group goes too.
        signal(group, Signal::KILL);
    }
    (waiting.statuses, timed_out)
}

/// Kills every process still marked as this run's, in whatever group or session
/// it went, and reaps those re-parented to us. `direct` are the commands
/// themselves, which their own threads reap. Gives up after [`REAP`].
fn sweep(mark: &str, direct: &[i32]) {
    let needle = format!("{RUN_VAR}={mark}\0").into_bytes();
    let me = getpid().as_raw_nonzero().get();
    let end = Instant::now() + REAP;
    // Zombies have no environment left to read: remember whom we saw alive.
    let mut seen: Vec<i32> = Vec::new();
    loop {
        for pid in marked(&needle) {
            if !seen.contains(&pid) {
                seen.push(pid);
            }
        }
        seen.retain(|&pid| {
            let Some((state, parent)) = stat(pid) else {
                return false;
            };
            let Some(id) = Pid::from_raw(pid) else {
                return false;
            };
            if state != 'Z' {
                let _ = kill_process(id, Signal::KILL);
                return true;
            }
            if parent == me && !direct.contains(&pid) {
                // NOHANG: it is a zombie already; this only collects it.
                let _ = waitpid(Some(id), WaitOptions::NOHANG);
            }
            false
        });
        if seen.is_empty() || Instant::now() >= end {
            return;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Kills every live descendant of this process, whatever its group, session or
/// environment, and reaps those that came to us, within [`REAP`]; returns how
/// many are still alive then (0: none). For a process that runs nothing else at
/// the time (the CI gate between verify and judge): a run's sweep finds only what
/// kept its mark, and code that re-executed itself with a clean environment in a
/// new session keeps none. The subreaper [`run`] sets makes every orphan of a run
/// ours, so it stays a descendant however often it forked.
pub fn end_descendants() -> usize {
    let me = getpid().as_raw_nonzero().get();
    let end = Instant::now() + REAP;
    loop {
        let alive: Vec<(i32, char, i32)> = descendants(me);
        let mut left = 0;
        for (pid, state, parent) in alive {
            let Some(id) = Pid::from_raw(pid) else {
                continue;
            };
            if state == 'Z' {
                if parent == me {
                    let _ = waitpid(Some(id), WaitOptions::NOHANG);
                }
                continue;
            }
            // Stopped first: one killed while its child forks leaves that child
            // to be found in the next pass, not running free meanwhile.
            let _ = kill_process(id, Signal::STOP);
            let _ = kill_process(id, Signal::KILL);
            left += 1;
        }
        if left == 0 || Instant::now() >= end {
            return left;
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// Every process under `root` in the parent tree `/proc` shows: pid, state, parent.
fn descendants(root: i32) -> Vec<(i32, char, i32)> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    let all: Vec<(i32, char, i32)> = dir
        .filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let (state, parent) = stat(pid)?;
            Some((pid, state, parent))
        })
        .collect();
    let mut under = vec![root];
    let mut out = Vec::new();
    let mut grew = true;
    while grew {
        grew = false;
        for p in &all {
            if under.contains(&p.2) && !under.contains(&p.0) {
                under.push(p.0);
                out.push(*p);
                grew = true;
            }
        }
    }
    out
}

/// Live processes whose environment holds `needle` (`PLAN_EXEC_RUN=mark\0`).
fn marked(needle: &[u8]) -> Vec<i32> {
    let Ok(dir) = fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok())
        .filter(|pid| {
            fs::read(format!("/proc/{pid}/environ"))
                .is_ok_and(|env| env.windows(needle.len()).any(|w| w == needle))
        })
        .collect()
}

/// A process's state letter and parent pid, from `/proc/PID/stat`.
fn stat(pid: i32) -> Option<(char, i32)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The command name may hold spaces and parentheses: the fields follow the last `)`.
    let mut fields = stat.rsplit_once(") ")?.1.split(' ');
    let state = fields.next()?.chars().next()?;
    let parent = fields.next()?.parse().ok()?;
    Some((state, parent))
}

/// The pipeline could not be completed: stop and reap what had started.
fn abandon(group: Option<Pid>, children: Vec<Child>) {
    if let Some(group) = group {
        signal(group, Signal::KILL);
    }
    for mut child in children {
        let _ = child.wait();
    }
}

fn signal(group: Pid, signal: Signal) {
    // ESRCH (the group is already gone) is the usual, welcome answer.
    let _ = kill_process_group(group, signal);
}

/// Each child waited for on its own thread, so the deadline can be a channel timeout.
fn reap_on_threads(children: Vec<Child>) -> Receiver<(usize, Option<ExitStatus>)> {
    let (tx, rx) = mpsc::channel();
    for (i, mut child) in children.into_iter().enumerate() {
        let tx = tx.clone();
        thread::spawn(move || {
            let _ = tx.send((i, child.wait().ok()));
        });
    }
    rx
}

struct Waiting {
    statuses: Vec<Option<ExitStatus>>,
    pending: usize,
    rx: Receiver<(usize, Option<ExitStatus>)>,
}

impl Waiting {
    /// Collects statuses until all are in or `until` passes.
    fn until(&mut self, until: Instant) {
        while self.pending > 0 {
            match self
                .rx
                .recv_timeout(until.saturating_duration_since(Instant::now()))
            {
                Ok((i, status)) => {
                    self.statuses[i] = status;
                    self.pending -= 1;
                }
                Err(_) => return,
            }
        }
    }
}

type Shared = Arc<Mutex<Tail>>;

fn lock(tail: &Shared) -> std::sync::MutexGuard<'_, Tail> {
    tail.lock().unwrap_or_else(PoisonError::into_inner)
}

struct Tails {
    stdout: Shared,
    stderr: Shared,
    combined: Shared,
}

impl Tails {
    fn new(cap: usize) -> Tails {
        let shared = || Arc::new(Mutex::new(Tail::new(cap)));
        Tails {
            stdout: shared(),
            stderr: shared(),
            combined: shared(),
        }
    }

    /// What the readers have kept so far; a reader still held up by an escaped
    /// descendant keeps running detached, and its later output is lost.
    fn output(&self, statuses: Vec<Option<ExitStatus>>, timed_out: bool) -> Output {
        // One guard: a second lock of the same tail in this expression would deadlock.
        let (stdout, stdout_cut) = {
            let tail = lock(&self.stdout);
            (tail.bytes(), tail.cut)
        };
        Output {
            statuses,
            timed_out,
            stdout,
            stdout_cut,
            stderr: lock(&self.stderr).bytes(),
            combined: lock(&self.combined).bytes(),
        }
    }
}

fn drain(mut from: impl Read + Send + 'static, own: &Shared, combined: &Shared, done: &Sender<()>) {
    let (own, combined, done) = (own.clone(), combined.clone(), done.clone());
    thread::spawn(move || {
        let mut buf = vec![0; READ_BUF];
        loop {
            match from.read(&mut buf) {
                Ok(0) => break,
                Ok(n) => {
                    lock(&own).push(&buf[..n]);
                    lock(&combined).push(&buf[..n]);
                }
                Err(e) if e.kind() == ErrorKind::Interrupted => {}
                Err(_) => break,
            }
        }
        drop(done);
    });
}

/// The last `cap` bytes pushed into it, holding fewer than three times that.
#[derive(Debug)]
struct Tail {
    buf: Vec<u8>,
    cap: usize,
    /// Bytes were dropped from the front.
    cut: bool,
}

impl Tail {
    fn new(cap: usize) -> Tail {
        Tail {
            buf: Vec::new(),
            cap,
            cut: false,
        }
    }

    /// Trims only when the buffer doubles, so each byte is moved O(1) times.
    fn push(&mut self, chunk: &[u8]) {
        if chunk.len() >= self.cap {
            self.cut |= chunk.len() > self.cap || !self.buf.is_empty();
            self.buf.clear();
            self.buf.extend_from_slice(&chunk[chunk.len() - self.cap..]);
            return;
        }
        self.buf.extend_from_slice(chunk);
        self.cut |= self.buf.len() > self.cap;
        if self.buf.len() > 2 * self.cap {
            let excess = self.buf.len() - self.cap;
            self.buf.drain(..excess);
        }
    }

    fn bytes(&self) -> Vec<u8> {
        self.buf[self.buf.len().saturating_sub(self.cap)..].to_vec()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    use std::path::Path;

    pub fn fixture(name: &str) -> String {
        Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("fixtures/verify")
            .join(name)
            .display()
            .to_string()
    }

    fn argv(words: &[&str]) -> Vec<String> {
        words.iter().map(|w| w.to_string()).collect()
    }

    fn run_in(dir: &Path, commands: &[&[&str]], timeout: Duration) -> Output {
        let commands = commands.iter().map(|c| argv(c)).collect();
        run(&Spec::pipeline(commands, dir, timeout)).unwrap()
    }

    fn text(bytes: &[u8]) -> &str {
        std::str::from_utf8(bytes).unwrap()
    }

    const SECOND: Duration = Duration::from_secs(1);
    const LONG: Duration = Duration::from_secs(30);

    #[test]
    fn tail_keeps_the_last_bytes_within_three_times_the_cap() {
        let mut tail = Tail::new(4);
        for chunk in [&b"ab"[..], b"cd", b"efg", b"h", b"ij"] {
            tail.push(chunk);
            assert!(tail.buf.len() < 12);
        }
        assert_eq!(tail.bytes(), b"ghij");
        tail.push(b"0123456789");
        assert_eq!(tail.bytes(), b"6789");
        let mut none = Tail::new(0);
        none.push(b"abc");
        assert_eq!(none.bytes(), b"");
    }

    #[test]
    fn a_tail_says_whether_it_dropped_bytes() {
        let mut tail = Tail::new(4);
        tail.push(b"ab");
        tail.push(b"cd");
        assert!(!tail.cut, "four bytes fit a cap of four");
        tail.push(b"e");
        assert!(tail.cut);
        let mut whole = Tail::new(4);
        whole.push(b"abcd");
        assert!(!whole.cut, "one chunk the size of the cap fits");
        whole.push(b"efgh");
        assert!(whole.cut);
    }

    #[test]
    fn separate_streams_and_exit_code() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(dir.path(), &[&[&fixture("streams.sh"), "3"]], LONG);
        assert_eq!(text(&out.stdout), "out\n");
        assert_eq!(text(&out.stderr), "err\n");
        assert_eq!(out.combined.len(), 8);
        assert_eq!(out.code(), Some(3));
        assert_eq!(out.signal(), None);
        assert!(!out.success());
        assert!(!out.timed_out);
    }

    #[test]
    fn pipeline_status_is_the_last_commands() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(
            dir.path(),
            &[&[&fixture("streams.sh"), "3"], &["tr", "a-z", "A-Z"]],
            LONG,
        );
        assert_eq!(text(&out.stdout), "OUT\n");
        assert_eq!(text(&out.stderr), "err\n");
        assert_eq!(out.statuses.len(), 2);
        assert_eq!(out.statuses[0].unwrap().code(), Some(3));
        assert!(out.success());
    }

    #[test]
    fn a_pipeline_shares_one_new_process_group() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(
            dir.path(),
            &[&[&fixture("pgid.sh")], &[&fixture("pgid.sh")]],
            LONG,
        );
        assert!(out.success());
        let groups: Vec<&str> = text(&out.stderr).lines().collect();
        assert_eq!(groups.len(), 2, "{groups:?}");
        assert_eq!(groups[0], groups[1]);
        let ours = rustix::process::getpgrp().as_raw_nonzero().get();
        assert_ne!(groups[0], format!("pgid {ours}"));
    }

    #[test]
    fn stdin_is_null_unless_given() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = run_in(dir.path(), &[&["cat"]], LONG);
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(out.success());
        assert_eq!(out.stdout, b"");

        let prompt = Spec {
            stdin: Some(b"judge me".to_vec()),
            ..Spec::pipeline(
                vec![argv(&["cat"]), argv(&["tr", "a-z", "A-Z"])],
                dir.path(),
                LONG,
            )
        };
        assert_eq!(run(&prompt).unwrap().stdout, b"JUDGE ME");
    }

    #[test]
    fn stdin_larger_than_a_pipe_is_fed_whole() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            stdin: Some(vec![b'x'; 1_000_000]),
            ..Spec::new(argv(&["wc", "-c"]), dir.path(), LONG)
        };
        assert_eq!(text(&run(&spec).unwrap().stdout).trim(), "1000000");
    }

    #[test]
    fn a_command_that_ignores_its_stdin_does_not_hang_the_feeder() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            stdin: Some(vec![b'x'; 1_000_000]),
            ..Spec::new(argv(&["true"]), dir.path(), LONG)
        };
        assert!(run(&spec).unwrap().success());
    }

    #[test]
    fn extra_environment_reaches_the_command() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            env: vec![("PLAN_JUDGE".to_string(), "1".to_string())],
            ..Spec::new(argv(&["printenv", "PLAN_JUDGE"]), dir.path(), LONG)
        };
        assert_eq!(run(&spec).unwrap().stdout, b"1\n");
    }

    #[test]
    fn cwd_is_set() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(dir.path(), &[&["pwd"]], LONG);
        let pwd = std::fs::canonicalize(text(&out.stdout).trim()).unwrap();
        assert_eq!(pwd, std::fs::canonicalize(dir.path()).unwrap());
    }

    #[test]
    fn not_found_names_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let err = run(&Spec::new(argv(&["no-such-program-xyz"]), dir.path(), LONG)).unwrap_err();
        let spawn = err.downcast_ref::<SpawnError>().unwrap();
        assert_eq!(spawn.program, "no-such-program-xyz");
        assert_eq!(spawn.reason(), "not found");
        assert_eq!(
            err.to_string(),
            "cannot run \"no-such-program-xyz\": not found\n  hint: is it installed and on PATH?"
        );
    }

    #[test]
    fn not_executable_names_the_program() {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("script");
        std::fs::write(&script, "#!/bin/sh\n").unwrap();
        let program = script.display().to_string();
        let err = run(&Spec::new(vec![program.clone()], dir.path(), LONG)).unwrap_err();
        assert_eq!(
            err.to_string(),
            format!(
                "cannot run {program:?}: permission denied\n  hint: is it executable (chmod +x)?"
            )
        );
    }

    #[test]
    fn a_later_command_not_found_stops_the_earlier_ones() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let err = run(&Spec::pipeline(
            vec![argv(&["sleep", "100"]), argv(&["no-such-program-xyz"])],
            dir.path(),
            LONG,
        ))
        .unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert_eq!(
            err.downcast_ref::<SpawnError>().unwrap().program,
            "no-such-program-xyz"
        );
    }

    #[test]
    fn a_missing_cwd_is_not_a_missing_program() {
        let err = run(&Spec::new(argv(&["true"]), "/no/such/dir", LONG)).unwrap_err();
        assert!(err.downcast_ref::<SpawnError>().is_none());
        assert!(
            err.to_string()
                .starts_with("working directory /no/such/dir"),
            "{err}"
        );
    }

    #[test]
    fn empty_commands_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        assert!(run(&Spec::pipeline(vec![], dir.path(), LONG)).is_err());
        assert!(run(&Spec::new(vec![], dir.path(), LONG)).is_err());
    }

    #[test]
    fn an_endless_timeout_is_no_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            grace: Duration::MAX,
            ..Spec::new(argv(&["true"]), dir.path(), Duration::MAX)
        };
        assert!(run(&spec).unwrap().success());
        assert!(deadline(Duration::MAX) > Instant::now() + Duration::from_secs(1 << 30));
    }

    #[test]
    fn a_passed_deadline_starts_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(dir.path(), &[&["touch", "ran"]], Duration::ZERO);
        assert!(out.timed_out);
        assert_eq!(out.statuses, vec![None]);
        assert!(!dir.path().join("ran").exists());
    }

    #[test]
    fn a_command_that_honours_term_stops_without_the_grace() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let spec = Spec {
            grace: Duration::from_secs(20),
            ..Spec::new(
                argv(&["sleep", "100"]),
                dir.path(),
                Duration::from_millis(300),
            )
        };
        let out = run(&spec).unwrap();
        assert!(out.timed_out);
        assert!(!out.success());
        assert_eq!(out.signal(), Some(15));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "{:?}",
            start.elapsed()
        );
    }

    #[test]
    fn a_grandchild_that_ignores_term_is_killed() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let spec = Spec {
            grace: Duration::from_millis(300),
            ..Spec::new(vec![fixture("grandchild.sh")], dir.path(), SECOND)
        };
        let out = run(&spec).unwrap();
        let took = start.elapsed();
        assert!(out.timed_out);
        assert_eq!(out.stdout, b"started\n");
        assert!(took >= SECOND && took < Duration::from_secs(4), "{took:?}");
        assert_gone(&dir.path().join("grandchild.pid"));
    }

    #[test]
    fn a_cancel_stops_the_group_as_a_timeout_does_and_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let flag = Arc::new(AtomicBool::new(false));
        let setter = {
            let (flag, pidfile) = (flag.clone(), dir.path().join("grandchild.pid"));
            thread::spawn(move || {
                while !pidfile.exists() {
                    thread::sleep(Duration::from_millis(10));
                }
                flag.store(true, Ordering::SeqCst);
            })
        };
        let start = Instant::now();
        let spec = Spec {
            grace: Duration::from_millis(200),
            ..Spec::new(vec![fixture("grandchild.sh")], dir.path(), LONG)
        };
        let err = cancellable(flag.clone(), || run(&spec)).unwrap_err();
        setter.join().unwrap();
        assert_eq!(err.to_string(), CANCELLED);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        assert_gone(&dir.path().join("grandchild.pid"));
        // Once cancelled, nothing more starts; off the flag's thread, runs are as before.
        let again = cancellable(flag, || run(&Spec::new(argv(&["true"]), dir.path(), LONG)));
        assert_eq!(again.unwrap_err().to_string(), CANCELLED);
        assert!(
            run(&Spec::new(argv(&["true"]), dir.path(), LONG))
                .unwrap()
                .success()
        );
    }

    /// The pid in `pidfile` names no live process (a zombie awaiting its reaper
    /// counts as gone), within a short poll.
    pub fn assert_gone(pidfile: &Path) {
        let pid = std::fs::read_to_string(pidfile).unwrap();
        let pid = pid.trim();
        let start = Instant::now();
        loop {
            let state = std::fs::read_to_string(format!("/proc/{pid}/stat"))
                .ok()
                .and_then(|stat| stat.rsplit_once(") ")?.1.chars().next());
            if matches!(state, None | Some('Z' | 'X')) {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(3),
                "process {pid} still alive, state {state:?}"
            );
            thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn background_processes_left_behind_are_killed() {
        let dir = tempfile::tempdir().unwrap();
        let out = run_in(
            dir.path(),
            &[&["sh", "-c", "sleep 1000 & echo $! > bg.pid"]],
            LONG,
        );
        assert!(out.success());
        assert_gone(&dir.path().join("bg.pid"));
    }

    #[test]
    fn a_descendant_that_escaped_the_group_does_not_hold_the_run() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = run_in(dir.path(), &[&[&fixture("escape.sh")]], LONG);
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        assert!(out.success());
        assert_eq!(out.stdout, b"started\n");
    }

    #[test]
    fn a_descendant_in_its_own_session_dies_with_a_timeout() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            grace: Duration::from_millis(300),
            ..Spec::new(vec![fixture("setsid.sh"), "100".into()], dir.path(), SECOND)
        };
        let out = run(&spec).unwrap();
        assert!(out.timed_out);
        assert_eq!(out.stdout, b"started\n");
        assert_gone(&dir.path().join("escaped.pid"));
    }

    #[test]
    fn a_descendant_in_its_own_session_dies_when_the_run_ends() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = run_in(dir.path(), &[&[&fixture("setsid.sh")]], LONG);
        assert!(out.success());
        assert!(
            start.elapsed() < Duration::from_secs(2),
            "{:?}",
            start.elapsed()
        );
        assert_gone(&dir.path().join("escaped.pid"));
    }

    #[test]
    fn output_beyond_the_tail_is_dropped() {
        let dir = tempfile::tempdir().unwrap();
        let spec = Spec {
            tail_bytes: 1000,
            ..Spec::pipeline(
                vec![argv(&["seq", "100000"]), argv(&["tail", "-c", "+1"])],
                dir.path(),
                LONG,
            )
        };
        let out = run(&spec).unwrap();
        assert_eq!(out.stdout.len(), 1000);
        assert!(text(&out.stdout).ends_with("99999\n100000\n"));
        assert_eq!(out.combined, out.stdout);
    }
}

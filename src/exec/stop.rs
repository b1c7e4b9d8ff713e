//! How plan ends on SIGINT, SIGTERM or SIGHUP, and what a plan killed outright
//! left behind. A signal ends every run but one that must end whole, lets a write
//! under way ([`writing`]) finish, removes plan's temporary directories, and exits
//! with 128 + the signal only when nothing was written; a write it let finish is
//! said, with the command's own status. It never exits from under a write.

use std::cell::Cell;
use std::fs;
use std::path::PathBuf;
use std::sync::atomic::Ordering;
use std::sync::{Condvar, Mutex, PoisonError};
use std::thread;

use rustix::process::{Pid, Signal, getpid, kill_process};

use super::{RUN_VAR, SIGNALS, STOPPING, end_runs};

/// What the signal thread waits on: writes under way, and the one that finished.
struct Stop {
    stopping: bool,
    writing: usize,
    /// What was written, and the status the command would have exited with.
    wrote: Option<(String, u8)>,
}

static STATE: Mutex<Stop> = Mutex::new(Stop {
    stopping: false,
    writing: 0,
    wrote: None,
});
static WRITTEN: Condvar = Condvar::new();

/// The temporary directories this process made and has not removed yet
/// ([`super::Scratch`]): what a signal that ends plan removes, as the destructors
/// it skips would have.
static MADE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

pub(super) fn made() -> std::sync::MutexGuard<'static, Vec<PathBuf>> {
    MADE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Removes every temporary directory this process made and still has.
fn remove_made() {
    let dirs = std::mem::take(&mut *made());
    for dir in &dirs {
        // The main thread may still be writing into it (a checkout under way when
        // the signal came): a file it adds during the removal fails it, or makes
        // the directory again. Tried again while it is there, for a moment.
        for _ in 0..40 {
            let _ = crate::atomic::remove_tree(dir);
            thread::sleep(std::time::Duration::from_millis(5));
            if std::fs::symlink_metadata(dir).is_err() {
                break;
            }
        }
    }
}

thread_local! {
    /// How deep this thread is in [`writing`] sections: its runs then end whole.
    static IN_WRITE: Cell<usize> = const { Cell::new(0) };
}

/// Whether this thread is writing a result a signal must let finish.
pub(super) fn in_write() -> bool {
    IN_WRITE.with(Cell::get) > 0
}

fn state() -> std::sync::MutexGuard<'static, Stop> {
    STATE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// A result being written (a sign-off's record, checkpoint and plan.md lines): a
/// signal that comes meanwhile waits for it. [`Writing::done`] says it landed.
pub struct Writing {
    what: String,
    code: u8,
}

/// Begins writing `what`, which, once done, the command would exit `code` for.
/// After a signal began ending plan, no write begins: this waits for the exit.
pub fn writing(what: impl Into<String>, code: u8) -> Writing {
    let mut s = state();
    if s.stopping {
        drop(s);
        loop {
            thread::park();
        }
    }
    s.writing += 1;
    IN_WRITE.with(|w| w.set(w.get() + 1));
    Writing {
        what: what.into(),
        code,
    }
}

impl Writing {
    /// The write landed whole.
    pub fn done(self) {
        state().wrote = Some((self.what.clone(), self.code));
    }
}

impl Drop for Writing {
    fn drop(&mut self) {
        IN_WRITE.with(|w| w.set(w.get().saturating_sub(1)));
        let mut s = state();
        s.writing = s.writing.saturating_sub(1);
        WRITTEN.notify_all();
    }
}

/// From the first run or temporary directory on, SIGINT, SIGTERM and SIGHUP end
/// plan as the module says. Without it plan died and left its git pushing or
/// fetching, its judge's copy of the tree and half a sign-off.
pub fn watch_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    SIGNALS.call_once(|| {
        let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
            return;
        };
        let _ = thread::Builder::new()
            .name("plan-signals".to_string())
            .spawn(move || {
                if let Some(sig) = signals.forever().next() {
                    let code = stop(sig);
                    std::process::exit(code);
                }
            });
    });
}

/// Ends plan's work for signal `sig` and says so; the status to exit with.
fn stop(sig: i32) -> i32 {
    use signal_hook::consts::{SIGINT, SIGTERM};
    {
        let mut s = state();
        s.stopping = true;
        STOPPING.store(true, Ordering::SeqCst);
    }
    let ended = end_runs();
    let wrote = {
        let mut s = state();
        while s.writing > 0 {
            s = WRITTEN.wait(s).unwrap_or_else(PoisonError::into_inner);
        }
        s.wrote.take()
    };
    remove_made();
    let name = match sig {
        SIGINT => "SIGINT",
        SIGTERM => "SIGTERM",
        _ => "SIGHUP",
    };
    if let Some((what, code)) = wrote {
        crate::out::warn(&format!(
            "plan: {name} came once {what} was under way; it is written whole, and plan stopped after it"
        ));
        return i32::from(code);
    }
    let what = if ended == 0 {
        String::new()
    } else {
        format!(
            "; the command{} it ran stopped",
            if ended == 1 { "" } else { "s" }
        )
    };
    crate::out::warn(&format!("plan: stopped by {name}{what}"));
    128 + sig
}

/// Kills what runs of a plan that is gone left running (it was killed outright,
/// with no chance to end them): each process whose run mark names a dead plan,
/// except a run that must end whole and this process's own run. How many.
pub fn end_orphans() -> usize {
    let me = getpid().as_raw_nonzero().get();
    let own = crate::env::text(RUN_VAR);
    let Ok(dir) = fs::read_dir("/proc") else {
        return 0;
    };
    let prefix = format!("{RUN_VAR}=");
    let mut ended = 0;
    for pid in dir.filter_map(|e| e.ok()?.file_name().to_str()?.parse::<i32>().ok()) {
        if pid == me {
            continue;
        }
        let Ok(env) = fs::read(format!("/proc/{pid}/environ")) else {
            continue;
        };
        let Some(mark) = env
            .split(|b| *b == 0)
            .find_map(|kv| kv.strip_prefix(prefix.as_bytes()))
            .and_then(|m| std::str::from_utf8(m).ok())
        else {
            continue;
        };
        if mark.ends_with(super::WHOLE) || own.as_deref() == Some(mark) {
            continue;
        }
        let owner = mark.split('-').next().and_then(|p| p.parse::<i32>().ok());
        let gone =
            owner.is_some_and(|o| o != me && !fs::exists(format!("/proc/{o}")).unwrap_or(true));
        if !gone {
            continue;
        }
        if let Some(id) = Pid::from_raw(pid) {
            let _ = kill_process(id, Signal::STOP);
            let _ = kill_process(id, Signal::KILL);
            ended += 1;
        }
    }
    ended
}

//! Events as JSON, and where they are announced: plan.md's own log events by the
//! store that writes them ([`written`]), the loop's runtime events by the stop hook
//! that decides them ([`record_loop`]), which also keeps those in a journal under
//! `<git-dir>/plan/` (never in plan.md). Both go to the `notify:` commands from here
//! and nowhere else. The same journal keeps every write of plan.md the store makes
//! ([`record_write`]), which a cut plan.md is rebuilt from (src/rebuild.rs); those
//! are announced as the log lines they add, never as themselves. Fail-open: an
//! event that cannot be recorded or announced is a line on stderr.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use serde_json::{Map, Value};

use crate::config::{self, Config};
use crate::loop_budget::LoopEvent;
use crate::notify;
use crate::plan::event::Event;
use crate::plan::model;
use crate::plan::proof::{self, Facts};
use crate::plan::replay::Change;

/// The loop's runtime events and plan.md's acknowledged writes ([`Written`]), one
/// JSON object a line, under `<git-dir>/plan/`.
pub const JOURNAL: &str = "events.jsonl";

/// How big the journal grows before it is moved to `events.jsonl.1` (replacing the
/// one before) and started afresh: `plan events` and a rebuild read both, so it
/// keeps the last ten thousand or so writes and loop decisions, and none of it costs
/// a hook more than an append.
const JOURNAL_MAX: u64 = 4 << 20;

/// A write whose edits take more than this is journaled without them (as
/// [`Change::TooBig`]): a state file is read up to 64 MB, and one line must not
/// make the journal unreadable.
const WRITE_MAX: usize = 16 << 20;

/// A whole-file write longer than this is kept as a blob, not in the journal.
const WHOLE_INLINE: usize = 16 << 10;

pub fn journal(git_dir: &Path) -> PathBuf {
    git_dir.join("plan").join(JOURNAL)
}

/// The journal before the last one, oldest events first.
pub fn journal_before(git_dir: &Path) -> PathBuf {
    git_dir.join("plan").join(format!("{JOURNAL}.1"))
}

/// An event as `plan events --json` prints it and a notify command reads it: `at`
/// (`YYYY-MM-DD HH:MM`, `null` for an unstamped log line), then the event's own keys.
pub fn json(at: Option<&str>, event: &impl Serialize) -> Value {
    let mut out = Map::new();
    out.insert("at".to_string(), at.map_or(Value::Null, Value::from));
    if let Ok(Value::Object(fields)) = serde_json::to_value(event) {
        out.extend(fields);
    }
    Value::Object(out)
}

/// A log event as `plan events` and a notifier get it: a sign-off also says whether
/// the transcript it names backs it (`backed`, and `unbacked`: why not), since a
/// line typed by hand reads the same as plan's own. `facts` answers for a path.
pub fn log_json(at: Option<&str>, event: &Event<'_>, facts: &dyn Fn(&str) -> Facts) -> Value {
    let mut out = json(at, event);
    if matches!(event, Event::SignedOff { .. }) {
        let backed = proof::backs_at(event, at, facts);
        out["backed"] = Value::from(backed.is_ok());
        if let Err(why) = backed {
            out["unbacked"] = Value::from(why);
        }
    }
    out
}

pub use crate::notify::LOG_LINES;

/// Appends the loop's `event` to the journal and announces it. Costs one append when
/// no notify command is set: the line carries the time as `ts`, seconds since the
/// epoch, and readers turn it into `at` ([`normalize`]); `PLAN_NOW` is kept as `at`.
/// `log_lines`: how many lines plan.md's log holds ([`LOG_LINES`]), as the hook's
/// view counted them.
pub fn record_loop(
    root: &Path,
    git_dir: &Path,
    log_lines: usize,
    config: &Config,
    event: &LoopEvent,
) {
    let value = match crate::clock::fixed() {
        Some(now) => json(Some(&now.stamp()), event),
        None => {
            let mut out = Map::new();
            out.insert("ts".to_string(), Value::from(crate::clock::epoch_seconds()));
            if let Ok(Value::Object(fields)) = serde_json::to_value(event) {
                out.extend(fields);
            }
            Value::Object(out)
        }
    };
    let line = with_log_lines(&value, log_lines);
    if let Err(e) = append(git_dir, &line.to_string()) {
        crate::out::warn(&format!(
            "plan: cannot record the loop's event in {}: {e}",
            journal(git_dir).display()
        ));
    }
    if !config.notify.is_empty() {
        // As it is: the detached watchdog makes `ts` local time, not the hook.
        notify::announce(root, git_dir, &config.notify, &value);
    }
}

/// Appends `line` to the journal, moving it aside once past [`JOURNAL_MAX`]. One
/// write of one line: concurrent writers' lines never interleave.
fn append(git_dir: &Path, line: &str) -> std::io::Result<()> {
    let path = journal(git_dir);
    let meta =
        crate::fsread::open_state(crate::fsread::StateOpen::Append, &path).and_then(|mut f| {
            f.write_all(format!("{line}\n").as_bytes())?;
            f.metadata()
        })?;
    if meta.len() > JOURNAL_MAX {
        let _ = crate::atomic::rename(&path, journal_before(git_dir));
    }
    Ok(())
}

/// The `event` of a [`Written`] line: `plan events` and `plan report` leave these
/// out (they are plan.md's writes, whose events are its log lines).
pub const WRITTEN: &str = "written";

/// One acknowledged write of a plan file, as the journal keeps it: enough to make
/// it again on another version (`plan doctor --fix` on a cut plan.md).
#[derive(Debug, Clone, Serialize, serde::Deserialize)]
pub struct Written {
    /// Seconds since the epoch.
    pub ts: i64,
    /// Always [`WRITTEN`].
    pub event: String,
    /// The plan file, relative to the repository root.
    pub file: String,
    /// The branch HEAD was on, and its commit (none on an unborn branch).
    pub branch: String,
    pub commit: Option<String>,
    /// Git's blob id of the file the write was made on (none: it made the file),
    /// and of the file it left: a rebuild starts after the write whose result a
    /// commit holds, or at the one made on it.
    pub before: Option<String>,
    pub after: String,
    #[serde(flatten)]
    pub change: Change,
}

/// The versions of a plan file a write saw and left.
pub struct Versions<'a> {
    /// The text the write was made on and its blob id; none when it made the file.
    pub before: Option<(&'a str, String)>,
    /// `before` is someone else's edit since plan's last write: kept as a blob in
    /// git's object database (unreachable, so `git gc` prunes it after its grace
    /// period), where a rebuild finds it.
    pub keep_before: bool,
    /// The blob id of the text it left.
    pub after: String,
}

/// After plan wrote the plan file at `plan_path`, turning `before` into `after`
/// ([`Versions`]): appends the write to the journal, so a cut file can be rebuilt.
/// Outside a repository there is no journal. Fail-open: a write that cannot be
/// journaled is a line on stderr, never a failed write.
pub fn record_write(plan_path: &Path, versions: Versions<'_>, change: impl FnOnce() -> Change) {
    // The file's own path (a link followed), or, when git has the file away for a
    // moment just after plan wrote it (a stash, a checkout), its directory's: the
    // write is journaled all the same (the soak lost one that way).
    let canonical = std::fs::canonicalize(plan_path).ok().or_else(|| {
        let dir = plan_path
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
            .unwrap_or(Path::new("."));
        Some(
            std::fs::canonicalize(dir)
                .ok()?
                .join(plan_path.file_name()?),
        )
    });
    let Some(canonical) = canonical else {
        return;
    };
    let Some(dir) = canonical.parent() else {
        return;
    };
    let Ok(Some(repo)) = crate::git::discover(dir) else {
        return;
    };
    let root = std::fs::canonicalize(&repo.root).unwrap_or_else(|_| repo.root.clone());
    let Ok(rel) = canonical.strip_prefix(&root) else {
        return;
    };
    let (branch, commit) = crate::git::head_place(&repo.root).unwrap_or_default();
    // A whole-file write of a long plan goes to git's object database, as the
    // blob `after` names, and the journal keeps its id: kept inline, a few such
    // writes (a repair's) filled the journal and moved aside the writes a repair
    // needs (the soak lost 161 lines that way).
    let mut change = change();
    if let Change::Whole(text) = &change
        && text.len() > WHOLE_INLINE
        && crate::git::keep_blob(&repo.root, text.as_bytes()).is_ok()
    {
        change = Change::WholeBlob(versions.after.clone());
    }
    let mut written = Written {
        ts: crate::clock::epoch_seconds(),
        event: WRITTEN.to_string(),
        file: rel.to_string_lossy().into_owned(),
        branch,
        commit,
        before: versions.before.as_ref().map(|(_, id)| id.clone()),
        after: versions.after.clone(),
        change,
    };
    if let (true, Some((text, _))) = (versions.keep_before, versions.before)
        && let Err(e) = crate::git::keep_blob(&repo.root, text.as_bytes())
    {
        crate::out::warn(&format!(
            "plan: cannot keep the edit this write of {} was made on in git's object database (a rebuild of a cut file would lack it): {e:#}",
            written.file
        ));
    }
    let mut line = serde_json::to_string(&written).unwrap_or_default();
    if line.len() > WRITE_MAX {
        written.change = Change::TooBig;
        line = serde_json::to_string(&written).unwrap_or_default();
    }
    if let Err(e) = append(&repo.git_dir, &line) {
        crate::out::warn(&format!(
            "plan: cannot journal this write of {} in {} (a cut file could not be rebuilt with it): {e}",
            written.file,
            journal(&repo.git_dir).display()
        ));
    }
}

/// The writes of `file` (relative to the repository root) the journal under
/// `git_dir` holds, oldest first, and whether it was moved aside before (older
/// writes may be gone).
pub fn writes(git_dir: &Path, file: &str) -> (Vec<Written>, bool) {
    let mut out = Vec::new();
    let before = journal_before(git_dir);
    for path in [&before, &journal(git_dir)] {
        let Ok(bytes) = crate::fsread::bytes(path, crate::fsread::STATE) else {
            continue;
        };
        for line in bytes.split(|&b| b == b'\n') {
            // Only the write lines are parsed: the loop's events are not wanted here.
            const NEEDLE: &[u8] = b"\"event\":\"written\"";
            if !line.windows(NEEDLE.len()).any(|w| w == NEEDLE) {
                continue;
            }
            if let Ok(w) = serde_json::from_slice::<Written>(line)
                && w.event == WRITTEN
                && w.file == file
            {
                out.push(w);
            }
        }
    }
    (out, before.exists())
}

/// `value` with [`LOG_LINES`] after its time.
fn with_log_lines(value: &Value, count: usize) -> Value {
    let Value::Object(fields) = value else {
        return value.clone();
    };
    let mut out = Map::new();
    for (i, (k, v)) in fields.iter().enumerate() {
        out.insert(k.clone(), v.clone());
        if i == 0 {
            out.insert(LOG_LINES.to_string(), Value::from(count));
        }
    }
    Value::Object(out)
}

/// After plan.md at `plan_path` was written: announces the log `lines` (`- STAMP
/// text`) the write added that are plan's own events. Settings are read only when
/// there is one.
pub fn written(plan_path: &Path, lines: &[String]) {
    let log = format!("## Log\n{}\n", lines.join("\n"));
    let parsed = model::parse(&log);
    if !parsed.log.iter().any(|e| Event::parse(e.text).is_some()) {
        return;
    }
    let dir = plan_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(Some(repo)) = crate::git::discover(dir) else {
        return;
    };
    let (config, notes) = config::load_lenient(Some(&repo.root));
    if config.notify.is_empty() {
        return;
    }
    let facts = |rel: &str| crate::record::facts(&repo.root, rel);
    let events: Vec<Value> = parsed
        .log
        .iter()
        .filter_map(|entry| Some(log_json(entry.stamp, &Event::parse(entry.text)?, &facts)))
        .collect();
    for note in notes {
        crate::out::warn(&note);
    }
    for event in &events {
        notify::announce(&repo.root, &repo.git_dir, &config.notify, event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_journal_is_one_line_an_event_and_moves_aside_when_big() {
        let git_dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(git_dir.path().join("plan")).unwrap();
        let event = LoopEvent::LoopLetGo {
            session: "s".into(),
            reason: "paused",
            why: "the work loop is paused".into(),
            ended: false,
        };
        let root = git_dir.path();
        record_loop(root, root, 0, &Config::default(), &event);
        record_loop(root, root, 0, &Config::default(), &event);
        let text = std::fs::read_to_string(journal(root)).unwrap();
        let lines: Vec<Value> = text
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(lines.len(), 2);
        // No time zone lookup on the hook's path: seconds, made local when read.
        assert!(
            lines[0]["ts"].is_i64() && lines[0].get("at").is_none(),
            "{}",
            lines[0]
        );
        let read = notify::normalize(lines[0].clone());
        assert_eq!(read.as_object().unwrap().keys().next().unwrap(), "at");
        assert_eq!(read["at"].as_str().unwrap().len(), "2026-06-15 14:02".len());
        assert_eq!(read["event"], "loop_let_go");
        assert_eq!(read["reason"], "paused");
        assert!(read.get("ts").is_none());
        std::fs::write(journal(root), "x".repeat(JOURNAL_MAX as usize) + "\n").unwrap();
        record_loop(root, root, 0, &Config::default(), &event);
        assert!(!journal(root).exists());
        let before = std::fs::read_to_string(journal_before(root)).unwrap();
        assert!(
            before.ends_with("\"ended\":false}\n"),
            "the last event goes with it"
        );
        record_loop(root, root, 0, &Config::default(), &event);
        assert_eq!(
            std::fs::read_to_string(journal(root))
                .unwrap()
                .lines()
                .count(),
            1
        );
    }

    /// A write whose file git had away a moment later (a stash, a checkout) is
    /// journaled all the same: the soak found an acknowledged line in no journal.
    #[test]
    fn a_write_is_journaled_when_its_file_is_away_a_moment_later() {
        let dir = tempfile::tempdir().unwrap();
        git2::Repository::init(dir.path()).unwrap();
        std::fs::create_dir_all(dir.path().join(".git/plan")).unwrap();
        let plan = dir.path().join("plan.md");
        assert!(!plan.exists());
        record_write(
            &plan,
            Versions {
                before: None,
                keep_before: false,
                after: "0".repeat(40),
            },
            || Change::Whole("# Plan: x\n".into()),
        );
        let (writes, _) = writes(&dir.path().join(".git"), "plan.md");
        assert_eq!(writes.len(), 1);
    }

    /// A long plan's whole-file write (a repair's) is kept in git's object database,
    /// the journal holding its id: four of them filled the 4 MB journal before.
    #[test]
    fn a_long_whole_file_write_is_kept_as_a_blob_not_in_the_journal() {
        let dir = tempfile::tempdir().unwrap();
        git2::Repository::init(dir.path()).unwrap();
        std::fs::create_dir_all(dir.path().join(".git/plan")).unwrap();
        let plan = dir.path().join("plan.md");
        let text = format!(
            "# Plan: x\n\n## Log\n{}",
            "- 2026-06-15 14:00 a line\n".repeat(2000)
        );
        std::fs::write(&plan, &text).unwrap();
        let id = crate::git::blob_id(text.as_bytes());
        record_write(
            &plan,
            Versions {
                before: None,
                keep_before: false,
                after: id.clone(),
            },
            || Change::Whole(text.clone()),
        );
        let journal = std::fs::read_to_string(journal(&dir.path().join(".git"))).unwrap();
        assert!(journal.len() < 1000, "{} bytes", journal.len());
        let (writes, _) = writes(&dir.path().join(".git"), "plan.md");
        assert_eq!(writes[0].change, Change::WholeBlob(id.clone()));
        let read = crate::git::blob_reader(dir.path()).unwrap();
        assert_eq!(read(&id).as_deref(), Some(text.as_str()));
    }
}

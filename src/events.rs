//! Events as JSON, and where they are announced: plan.md's own log events by the
//! store that writes them ([`written`]), the loop's runtime events by the stop hook
//! that decides them ([`record_loop`]), which also keeps those in a journal under
//! `<git-dir>/plan/` (never in plan.md). Both go to the `notify:` commands from here
//! and nowhere else. Fail-open: an event that cannot be recorded or announced is a
//! line on stderr.

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

/// The loop's runtime events, one JSON object a line, under `<git-dir>/plan/`.
pub const JOURNAL: &str = "events.jsonl";

/// How big the journal grows before it is moved to `events.jsonl.1` (replacing the
/// one before) and started afresh: `plan events` reads both, so it keeps the last
/// few thousand of the loop's decisions, and none of it costs a hook more.
const JOURNAL_MAX: u64 = 1 << 20;

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
    let path = journal(git_dir);
    let appended = crate::fsread::open_state(crate::fsread::StateOpen::Append, &path)
        // One write of one line: concurrent hooks' lines never interleave.
        .and_then(|mut f| {
            f.write_all(format!("{line}\n").as_bytes())?;
            f.metadata()
        });
    match appended {
        Ok(meta) if meta.len() > JOURNAL_MAX => {
            let _ = crate::atomic::rename(&path, journal_before(git_dir));
        }
        Ok(_) => {}
        Err(e) => crate::out::warn(&format!(
            "plan: cannot record the loop's event in {}: {e}",
            path.display()
        )),
    }
    if !config.notify.is_empty() {
        // As it is: the detached watchdog makes `ts` local time, not the hook.
        notify::announce(root, git_dir, &config.notify, &value);
    }
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
}

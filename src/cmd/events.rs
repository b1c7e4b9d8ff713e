//! `plan events`: plan's own log events and the loop's runtime events as one
//! stream in time order, as JSON lines or one readable line each; `--since REV` only
//! the newer ones, `--follow` the new ones as they come. Also the hidden watchdog a
//! notify command runs under (`notify.rs`).

use std::collections::HashMap;
use std::io::{Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt;
use std::path::Path;
use std::time::{Duration, SystemTime};

use anyhow::Result;
use serde_json::Value;

use crate::ctx::Env;
use crate::events;
use crate::exit::{Exit, OK};
use crate::git;
use crate::out::println;
use crate::plan::event::Event;
use crate::plan::model;
use crate::plan::proof::Facts;

/// How often `--follow` looks at plan.md and the loop's journal.
const POLL: Duration = Duration::from_millis(200);

/// Show plan's events (sign-offs, rejections, reopens, …) and the loop's, in time order
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only events since this revision: log lines plan.md did not have there, and
    /// loop events from its commit's time on
    #[arg(long, value_name = "REV")]
    pub since: Option<String>,
    /// Keep printing new events as they happen (looks every 200 ms) until interrupted
    #[arg(long)]
    pub follow: bool,
    /// One JSON object a line: `at`, `event` and the event's fields
    #[arg(long)]
    pub json: bool,
    /// Run one notify command under a watchdog (plan starts this itself)
    #[arg(long, hide = true, value_name = "MS", requires = "argv")]
    pub notify_run: Option<u64>,
    #[arg(last = true, hide = true)]
    pub argv: Vec<String>,
}

/// One event to print.
#[derive(Debug)]
struct Item {
    /// What it sorts by: its stamp (or the stamp of the log line above an unstamped
    /// one), then where in the log it falls: a log line at its own index, a loop event
    /// just before the log line that was next when it was recorded.
    key: (String, usize, u8),
    at: Option<String>,
    json: Value,
    text: String,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    if let Some(ms) = args.notify_run {
        return Ok(crate::notify::watchdog(ms, args.argv));
    }
    let ctx = env.ctx()?;
    let git_dir = ctx.repo.as_ref().map(|r| r.git_dir.clone());
    let mut seen = HashMap::new();
    let mut since_stamp = None;
    if let Some(rev) = &args.since {
        let repo = ctx.repo()?;
        let rel = ctx.plan_in_repo().ok_or_else(|| {
            Exit::usage_hint(
                format!(
                    "{} is outside the repository, so it has no history",
                    ctx.store.name
                ),
                "run plan events without --since",
            )
        })?;
        let unknown = |e: anyhow::Error| match e.downcast_ref::<git::UnknownRevision>() {
            Some(u) => Exit::usage_hint(
                u.to_string(),
                "give a commit, branch or tag (`git log --oneline -- plan.md` lists them)",
            ),
            None => e,
        };
        let old = git::file_at(&repo.root, rev, &rel).map_err(unknown)?;
        fresh_log(old.as_deref().unwrap_or_default(), &mut seen, &|_| {
            Facts::Missing
        });
        since_stamp = git::commit_time(&repo.root, rev)
            .map_err(unknown)?
            .and_then(crate::clock::stamp_of);
    }
    let src = ctx.store.read()?;
    let root = ctx.prompt_root();
    let facts = |rel: &str| crate::record::facts(&root, rel);
    let mut items = fresh_log(&src, &mut seen, &facts);
    let mut offset = 0;
    if let Some(dir) = &git_dir {
        let since = since_stamp.as_deref();
        items.extend(journal(&events::journal_before(dir), &mut 0, since));
        items.extend(journal(&events::journal(dir), &mut offset, since));
    }
    show(items, args.json)?;
    if !args.follow {
        return Ok(OK);
    }
    let mut last = file_state(&ctx.store.path);
    loop {
        std::thread::sleep(POLL);
        let mut items = Vec::new();
        let now = file_state(&ctx.store.path);
        if now != last {
            last = now;
            if let Ok(src) = ctx.store.read() {
                items = fresh_log(&src, &mut seen, &facts);
            }
        }
        if let Some(dir) = &git_dir {
            items.extend(journal(&events::journal(dir), &mut offset, None));
        }
        show(items, args.json)?;
        if reader_gone() {
            return Ok(OK);
        }
    }
}

/// Whether stdout is a pipe whose reader went away: then nobody reads what a follow
/// would print, and it ends now rather than at its next event.
fn reader_gone() -> bool {
    use rustix::event::{PollFd, PollFlags, Timespec, poll};
    let stdout = std::io::stdout();
    let mut fds = [PollFd::new(&stdout, PollFlags::empty())];
    let now = Timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    poll(&mut fds, Some(&now)).is_ok()
        && fds[0].revents().intersects(PollFlags::ERR | PollFlags::HUP)
}

/// What tells a changed plan.md: an editor's save or plan's rename changes one.
fn file_state(path: &Path) -> Option<(SystemTime, u64, u64)> {
    let meta = std::fs::metadata(path).ok()?;
    Some((meta.modified().ok()?, meta.ino(), meta.len()))
}

/// The events among `src`'s log lines that `seen` (a count of each line already
/// shown) does not hold; `seen` then counts all of `src`'s. A sign-off says whether
/// the record it names backs it (`facts` answers for a transcript path): a line
/// typed by hand reads the same as plan's own, and a reader of the stream should
/// not have to run `plan audit` to tell them apart.
fn fresh_log(
    src: &str,
    seen: &mut HashMap<String, usize>,
    facts: &dyn Fn(&str) -> Facts,
) -> Vec<Item> {
    let plan = model::parse(src);
    let mut now: HashMap<String, usize> = HashMap::new();
    let mut key = String::new();
    let mut out = Vec::new();
    for (index, entry) in plan.log.iter().enumerate() {
        if let Some(stamp) = entry.stamp {
            key = stamp.to_string();
        }
        let line = entry.to_string();
        let count = now.entry(line.clone()).or_default();
        *count += 1;
        if *count <= seen.get(&line).copied().unwrap_or(0) {
            continue;
        }
        if let Some(event) = Event::parse(entry.text) {
            let json = events::log_json(entry.stamp, &event, facts);
            let mut text = event.render();
            if let Some(why) = json["unbacked"].as_str() {
                text.push_str(&format!(
                    "  ⚠ not backed by a record: {}",
                    crate::plan::text::escape_controls(why)
                ));
            }
            out.push(Item {
                key: (key.clone(), index, 1),
                at: entry.stamp.map(str::to_string),
                json,
                text,
            });
        }
    }
    *seen = now;
    out
}

/// The journal's whole lines from `offset` on (which then moves past them), those
/// stamped before `since` left out. A journal that shrank was started afresh.
fn journal(path: &Path, offset: &mut u64, since: Option<&str>) -> Vec<Item> {
    let Ok(mut file) = crate::fsread::open(path) else {
        return Vec::new();
    };
    let len = file.metadata().map_or(0, |m| m.len());
    if len < *offset {
        *offset = 0;
    }
    if len == *offset || file.seek(SeekFrom::Start(*offset)).is_err() {
        return Vec::new();
    }
    let mut bytes = Vec::new();
    if file.read_to_end(&mut bytes).is_err() {
        return Vec::new();
    }
    // A line still being written waits for the next look.
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    *offset += whole as u64;
    String::from_utf8_lossy(&bytes[..whole])
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        // plan.md's writes: their events are its log lines, read above.
        .filter(|json| json["event"] != events::WRITTEN)
        .map(|json| {
            // A journal from before the count: after the minute's log lines.
            let place = json[events::LOG_LINES]
                .as_u64()
                .map_or(usize::MAX, |n| n as usize);
            (place, crate::notify::normalize(json))
        })
        .filter_map(|(place, json)| {
            let at = json["at"].as_str().map(str::to_string);
            if since.is_some_and(|s| at.as_deref().unwrap_or_default() < s) {
                return None;
            }
            Some(Item {
                key: (at.clone().unwrap_or_default(), place, 0),
                text: describe(&json),
                at,
                json,
            })
        })
        .collect()
}

/// A loop event in words, from its JSON.
fn describe(json: &Value) -> String {
    let field = |k: &str| match &json[k] {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    match json["event"].as_str() {
        Some("loop_continued") => format!(
            "continuation {} of {}: {}",
            field("continuation"),
            field("budget"),
            field("goals")
        ),
        Some("loop_let_go") => format!(
            "{} ({}): {}",
            match json["ended"].as_bool() {
                Some(true) => "loop stopped",
                _ => "agent let go",
            },
            field("reason"),
            field("why")
        ),
        Some("goal_budget_limited") => format!(
            "{} is budget-limited: {} named first without a sign-off",
            field("goal"),
            match json["continuations"].as_u64() {
                Some(n) => crate::plan::text::count(n as usize, "continuation"),
                None => format!("{} continuations", field("continuations")),
            }
        ),
        _ => json.to_string(),
    }
}

/// Prints `items` in time order; log lines keep their order among themselves, and
/// a loop event of the same minute goes where the log stood when it was recorded.
fn show(mut items: Vec<Item>, json: bool) -> Result<()> {
    items.sort_by(|a, b| a.key.cmp(&b.key));
    for item in items {
        if json {
            println(&item.json.to_string())?;
        } else {
            let name = item.json["event"].as_str().unwrap_or_default();
            let at = item.at.as_deref().unwrap_or("                ");
            println(&format!("{at}  {name:<17}  {}", item.text))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const LOG: &str = "## Log\n- 2026-06-15 14:00 a added (contract 0123abcd)\n- note\n- 2026-06-15 14:00 a added (contract 0123abcd)\n- a cancelled: unstamped\n";

    #[test]
    fn fresh_log_counts_repeated_lines_and_sorts_unstamped_ones_in_place() {
        let mut seen = HashMap::new();
        let first = fresh_log(LOG, &mut seen, &|_| Facts::Missing);
        assert_eq!(first.len(), 3);
        assert_eq!(first[2].key, ("2026-06-15 14:00".to_string(), 3, 1));
        assert_eq!(first[2].at, None);
        assert_eq!(first[2].json["at"], Value::Null);
        // The same line once more is one more event, not an old one.
        let more = format!("{LOG}- 2026-06-15 14:00 a added (contract 0123abcd)\n");
        let second = fresh_log(&more, &mut seen, &|_| Facts::Missing);
        assert_eq!(second.len(), 1);
        assert_eq!(second[0].json["event"], "added");
        assert!(fresh_log(&more, &mut seen, &|_| Facts::Missing).is_empty());
    }

    #[test]
    fn the_journal_is_read_by_whole_lines_from_where_it_was_left() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("events.jsonl");
        let line = |at: &str| {
            format!(
                "{{\"at\":\"{at}\",\"event\":\"loop_let_go\",\"session\":\"s\",\"reason\":\"paused\",\"why\":\"the work loop is paused\",\"ended\":false}}\n"
            )
        };
        std::fs::write(
            &path,
            line("2026-06-15 14:00") + &line("2026-06-15 15:00")[..20],
        )
        .unwrap();
        let mut offset = 0;
        let got = journal(&path, &mut offset, None);
        assert_eq!(got.len(), 1);
        assert_eq!(
            got[0].text,
            "agent let go (paused): the work loop is paused"
        );
        std::fs::write(&path, line("2026-06-15 14:00") + &line("2026-06-15 15:00")).unwrap();
        assert_eq!(journal(&path, &mut offset, None).len(), 1);
        assert!(journal(&path, &mut offset, None).is_empty());
        let mut from_start = 0;
        let since = journal(&path, &mut from_start, Some("2026-06-15 14:30"));
        assert_eq!(since.len(), 1);
        assert_eq!(since[0].key.0, "2026-06-15 15:00");
    }
}

//! The pull-request gate's reading of two versions of a plan, and of the reverts
//! between them: which of the base's log lines the head lost or moved, which goals
//! it lost, which goals it signs off anew, the contract changes it carries, which
//! lost lines a `git revert` of a sign-off explains, and the Markdown summary. Pure:
//! git's texts come in as strings.

use std::collections::HashMap;

use serde::Serialize;

use super::event::{Approval, Event};
use super::model::{Goal, LogEntry, Plan, Status, parse};
use super::proof;

/// The names a plan file of the gate's may end with, in any case: the text kinds
/// a person keeps notes in. A plan under another name (`side.yaml`, one embedded
/// in a test's source) is no plan file of the gate's; `--file` still reads it.
pub const PLAN_NAMES: &[&str] = &[".md", ".markdown", ".mdx", ".txt"];

/// Whether a file's text is a plan the gate holds besides the configured one: a
/// `# Plan:` title and a `## Log` (what `--file` and `plan rewind` call a plan), or
/// any goal done (`plan --file` signs off in any file, title or not).
pub fn is_plan(text: &str) -> bool {
    // Most files of a repository are no plan: the parse only for those that could be.
    let lower = text.to_ascii_lowercase();
    if !lower.contains("status") && !lower.contains("# plan") {
        return false;
    }
    let plan = parse(text);
    (plan.objective.is_some() && plan.log_heading.is_some())
        || plan.goals.iter().any(|g| g.status() == Status::Done)
}

/// Whether a file's text is a plan plan has written to: its log holds one of
/// plan's events (`x started`, `x signed off`), whatever its title, goals or
/// name. Red first lays these over a start's checkout: a line plan wrote there
/// after the start is no work. A plan-shaped text with no event (an example in
/// the docs, written by the work) is the work's.
pub fn is_logged(text: &str) -> bool {
    // Most files of a repository are no plan: the parse only for those that could be.
    if !text.contains("##") {
        return false;
    }
    parse(text)
        .log
        .iter()
        .any(|entry| Event::parse(entry.text).is_some())
}

/// Whether plan wrote to a file since a start: `now` (its text) logs a line that
/// `then` (the same file at the start; `None`: it had none) does not, or a goal
/// differs as plan writes it (its title, status, contract or subtasks, which
/// `plan edit` and `plan tick` write with no event; archived). A
/// document quoting a plan as an example, its example unchanged, was written by
/// no plan command, whatever prose around it changed (review 112).
pub fn logged_since(now: &str, then: Option<&str>) -> bool {
    // Every log line, an event or not: `plan log` writes free text (review 115).
    let events = |text: &str| -> HashMap<Key, usize> { counts(&parse(text).log) };
    // Each goal as plan writes it: `plan edit` changes a title or a contract
    // with no event (review 115), `plan tick` a subtask.
    let state = |text: &str| -> Vec<String> {
        let value = |f: &Option<super::model::Field<'_>>| f.as_ref().map(|f| f.value.to_string());
        (parse(text).goals.iter())
            .map(|g| {
                let subtasks: Vec<String> = (g.subtasks.iter())
                    .map(|t| format!("{}{}", u8::from(t.done), t.text))
                    .collect();
                let modes: Vec<&str> = g.failure_modes.iter().map(|f| f.value).collect();
                format!(
                    "{}\n{}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{:?}\n{}\n{}",
                    g.id,
                    g.title,
                    g.status(),
                    value(&g.done_when),
                    value(&g.verify),
                    value(&g.budget),
                    g.depends_on,
                    modes,
                    g.archived,
                    subtasks.join("\n")
                )
            })
            .collect()
    };
    // A start's copy with no heading holds no goal and no log: it is read as
    // none, and its parse spared (most files of a repository are no plan).
    let then = then.filter(|t| t.contains("##"));
    let had = then.map(events).unwrap_or_default();
    events(now)
        .into_iter()
        .any(|(key, n)| had.get(&key).is_none_or(|h| *h < n))
        || state(now) != then.map(state).unwrap_or_default()
}

/// A log line as the gate compares it: its stamp and its text. Line numbers and
/// spacing around it may change; these may not.
pub type Key = (Option<String>, String);

pub fn key(entry: &LogEntry<'_>) -> Key {
    (entry.stamp.map(str::to_string), entry.text.to_string())
}

/// How many times each line of `log` occurs.
fn counts(log: &[LogEntry<'_>]) -> HashMap<Key, usize> {
    let mut out = HashMap::new();
    for entry in log {
        *out.entry(key(entry)).or_insert(0) += 1;
    }
    out
}

/// The lines of `now` that `then` lacks, as often as `now` has them more.
fn added<'n>(then: &[LogEntry<'_>], now: &'n [LogEntry<'n>]) -> Vec<&'n LogEntry<'n>> {
    let mut had = counts(then);
    now.iter()
        .filter(|e| match had.get_mut(&key(e)) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .collect()
}

/// A line of the base's log that the head lacks, or has out of order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Lost {
    /// The plan file, as the repository names it.
    pub file: String,
    /// Its line in the base's file.
    pub line: usize,
    pub entry: String,
    /// The goal it is about, when it is one of plan's events.
    pub id: Option<String>,
    /// `removed` or `moved`.
    pub what: &'static str,
}

/// Every log line of `base` must be in `head`, in the order it had: the log is
/// append-only, and a pull request only adds to it. Free notes count as much as
/// plan's events, so nothing of the record can be dropped on the way to main.
/// `excused` names lines a recognised revert took back.
pub fn lost_lines(
    file: &str,
    base: &Plan<'_>,
    head: &Plan<'_>,
    excused: &dyn Fn(&Key) -> bool,
) -> Vec<Lost> {
    let mut at: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, entry) in head.log.iter().enumerate() {
        at.entry(key(entry)).or_default().push(i);
    }
    let mut cursor = 0;
    let mut out = Vec::new();
    for entry in &base.log {
        let k = key(entry);
        let places = at.get(&k).map(Vec::as_slice).unwrap_or_default();
        match places.iter().find(|&&p| p >= cursor) {
            Some(&p) => cursor = p + 1,
            None if excused(&k) => {}
            None => out.push(Lost {
                file: file.to_string(),
                line: entry.line,
                entry: entry.to_string(),
                id: Event::parse(entry.text)
                    .and_then(|e| e.id())
                    .map(str::to_string),
                what: if places.is_empty() {
                    "removed"
                } else {
                    "moved"
                },
            }),
        }
    }
    out
}

/// The goals of `base` (live or archived) that `head` has under no heading.
pub fn lost_goals(base: &Plan<'_>, head: &Plan<'_>) -> Vec<String> {
    base.goals
        .iter()
        .filter(|g| head.goal(&g.id).is_none())
        .map(|g| g.id.to_string())
        .collect()
}

/// The goals `head` signs off in lines `base` does not have: what a pull request
/// asks to have judged again.
pub fn new_sign_offs(base: &Plan<'_>, head: &Plan<'_>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for entry in added(&base.log, &head.log) {
        if let Some(Event::SignedOff { id, .. }) = Event::parse(entry.text)
            && !out.iter().any(|o| o == id)
        {
            out.push(id.to_string());
        }
    }
    out
}

/// What the gate says of a `ci_judged` line a pull request adds.
pub const CI_LINE_ADDED: &str = "a `judged again by CI` line the pull request adds: only the workflow's update job writes these, after a merge";

/// The log lines of `head` that `base` lacks and that read as `ci_judged`: CI's
/// word that its judge accepted a sign-off, which only the workflow's update job
/// writes, on the default branch after a merge. A pull request adding one is
/// writing CI's word itself. Each: its line in `head`, its goal, and its text.
pub fn ci_lines_added(base: &Plan<'_>, head: &Plan<'_>) -> Vec<(usize, String, String)> {
    added(&base.log, &head.log)
        .into_iter()
        .filter_map(|e| match Event::parse(e.text) {
            Some(Event::CiJudged { id, .. }) => Some((e.line, id.to_string(), e.to_string())),
            _ => None,
        })
        .collect()
}

/// One change of a goal's contract a pull request carries.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub id: String,
    /// The log line that approved it, or the goal's heading when none did.
    pub line: usize,
    /// In words, e.g. `changed and approved without a terminal`.
    pub what: String,
    /// `terminal`, `no-terminal`, `unknown`, or `none` for a change nobody approved.
    pub approval: &'static str,
    /// Whether the base has the goal: then only a person's `--approved-by` approves
    /// the change (a terminal in the agent's session is no approval in CI).
    pub of_base: bool,
    /// The contract's lines that differ from the base's, words marked as
    /// `git diff --word-diff` marks them; empty for a goal the base lacks.
    pub words: Vec<String>,
}

impl Change {
    /// Approved with no terminal attached, or not approved at all.
    pub fn without_terminal(&self) -> bool {
        matches!(self.approval, "no-terminal" | "none")
    }
}

/// Every contract change in `head` that `base` lacks: each approval the head's new
/// log lines record (at a terminal or not), and each goal whose contract differs
/// from the base's with no new approval logged for it.
pub fn contract_changes(base: &Plan<'_>, head: &Plan<'_>) -> Vec<Change> {
    let mut out = Vec::new();
    for entry in added(&base.log, &head.log) {
        let (id, what, approval) = match Event::parse(entry.text) {
            Some(Event::Reapproved { id, approval, .. }) => {
                (id, format!("changed and {}", approval.describe()), approval)
            }
            Some(Event::CriterionAdded {
                id, text, approval, ..
            }) => (
                id,
                format!("criterion \"{text}\" added, {}", approval.describe()),
                approval,
            ),
            _ => continue,
        };
        out.push(Change {
            id: id.to_string(),
            line: entry.line,
            what,
            approval: match approval {
                Approval::Terminal => "terminal",
                Approval::NoTerminal => "no-terminal",
                Approval::Unknown => "unknown",
            },
            of_base: false,
            words: Vec::new(),
        });
    }
    for goal in &head.goals {
        let Some(was) = base.goal(&goal.id) else {
            continue;
        };
        // The whole contract id: eight hex digits are 32 bits, and a softened
        // contract ground offline to keep them passed as unchanged.
        let (then_id, now_id) = (was.contract_id(), goal.contract_id());
        if then_id != now_id && !out.iter().any(|c| c.id == goal.id) {
            // Shown short, as the log names contracts, unless that hides the change.
            let short = if then_id[..8] == now_id[..8] { 40 } else { 8 };
            out.push(Change {
                id: goal.id.to_string(),
                line: goal.line,
                what: format!(
                    "changed in the file (contract {}, now {}) with no approval logged",
                    &then_id[..short],
                    &now_id[..short]
                ),
                approval: "none",
                of_base: false,
                words: Vec::new(),
            });
        }
    }
    for change in &mut out {
        if let (Some(was), Some(now)) = (base.goal(&change.id), head.goal(&change.id)) {
            change.of_base = true;
            change.words = changed_words(was, now);
        }
    }
    out
}

/// What the head changed of a base's goal outside its contract, for a reviewer:
/// its title, and subtasks the base had unticked that are gone. The judge is given
/// the base's title and subtasks; the report says they changed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Reshaped {
    pub id: String,
    /// The goal's heading at the head.
    pub line: usize,
    /// In words, e.g. `renamed from "Parse input"`.
    pub what: String,
}

/// Every goal of `base` whose title `head` changed or whose unticked subtasks it
/// removed, one entry per change.
pub fn reshaped(base: &Plan<'_>, head: &Plan<'_>) -> Vec<Reshaped> {
    let mut out = Vec::new();
    for goal in &head.goals {
        let Some(was) = base.goal(&goal.id) else {
            continue;
        };
        let mut say = |what: String| {
            out.push(Reshaped {
                id: goal.id.to_string(),
                line: goal.line,
                what,
            })
        };
        if was.title != goal.title {
            say(format!("renamed from \"{}\"", was.title));
        }
        // By count: a base with one text twice unticked and a head with one copy
        // lost one.
        let mut seen: Vec<&str> = Vec::new();
        for open in was.subtasks.iter().filter(|s| !s.done) {
            if seen.contains(&open.text) {
                continue;
            }
            seen.push(open.text);
            let unticked = was
                .subtasks
                .iter()
                .filter(|s| !s.done && s.text == open.text);
            let kept = goal.subtasks.iter().filter(|s| s.text == open.text);
            for _ in kept.count()..unticked.count() {
                say(format!("subtask \"{}\" removed unticked", open.text));
            }
        }
    }
    out
}

/// The lines of `now`'s contract that differ from `was`'s, word-diffed: what a
/// reviewer must read to see a contract softened.
pub fn changed_words(was: &Goal<'_>, now: &Goal<'_>) -> Vec<String> {
    let (old, new) = (
        super::diff::contract_text(was),
        super::diff::contract_text(now),
    );
    super::wdiff::line_word_diff(&old, &new, super::render::Style { color: false })
        .lines()
        .filter(|l| l.contains("[-") || l.contains("{+"))
        .map(str::to_string)
        .collect()
}

/// Goals done at the head that the base did not have done (open, active, cancelled
/// or absent there), by any route: each needs a sign-off the pull request adds.
pub fn became_done(base: &Plan<'_>, head: &Plan<'_>) -> Vec<String> {
    head.goals
        .iter()
        .filter(|g| g.status() == Status::Done)
        .filter(|g| {
            base.goal(&g.id)
                .is_none_or(|was| was.status() != Status::Done)
        })
        .map(|g| g.id.to_string())
        .collect()
}

/// A goal of the base that the head takes back: cancels, or sets back from done.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Cancel {
    pub id: String,
    /// The head's cancel or reopen line, or the goal's heading when none was logged.
    pub line: usize,
    /// The reason that line gives; empty when none was logged.
    pub reason: String,
    /// Done on the base and not at the head (`plan reopen`, or set back by hand),
    /// rather than cancelled.
    pub reopened: bool,
    /// The `git revert` that took its sign-off back, when one did: a reopen, not a
    /// hand's edit (filled in by the caller, which reads git).
    pub reverted_by: Option<String>,
}

impl Cancel {
    /// What the head did to it, with the reason: `cancelled: …`, `reopened: …`.
    pub fn what(&self) -> String {
        match (self.reopened, self.reason.is_empty()) {
            (false, _) => format!("cancelled: {}", self.reason),
            (true, false) => format!("reopened: {}", self.reason),
            (true, true) => match &self.reverted_by {
                Some(commit) => format!("reopened by a revert ({commit}) of its sign-off"),
                None => "set back from done by hand, with no `plan reopen` logged".to_string(),
            },
        }
    }
}

/// The goals the head takes back from the base, which a person must approve: one
/// not cancelled there that the head cancels (work a user asked for, dropped), and
/// one done there that is not done at the head (done work undone, whose verify
/// nothing runs again). The reason is the head's own line for it, not the base's.
pub fn cancels(base: &Plan<'_>, head: &Plan<'_>) -> Vec<Cancel> {
    let new_lines = added(&base.log, &head.log);
    head.goals
        .iter()
        .filter_map(|g| {
            let (was, now) = (base.goal(&g.id)?.status(), g.status());
            let reopened = was == Status::Done && !matches!(now, Status::Done | Status::Cancelled);
            let cancelled = now == Status::Cancelled && was != Status::Cancelled;
            if !(reopened || cancelled) {
                return None;
            }
            let logged = new_lines.iter().rev().find_map(|entry| {
                match (Event::parse(entry.text)?, reopened) {
                    (Event::Cancelled { id, reason }, false)
                    | (Event::Reopened { id, reason }, true)
                        if id == g.id =>
                    {
                        Some((entry.line, reason.to_string()))
                    }
                    _ => None,
                }
            });
            let (line, reason) = logged.unwrap_or((g.line, String::new()));
            Some(Cancel {
                id: g.id.to_string(),
                line,
                reason,
                reopened,
                reverted_by: None,
            })
        })
        .collect()
}

/// A sign-off a `git revert` took back: the revert removed exactly lines the
/// reverted commit had added, and among them this goal's sign-off. It counts as a
/// reopen: the goal needs a sign-off made after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reverted {
    pub id: String,
    /// The revert commit, abbreviated.
    pub commit: String,
    /// The commit it reverted, abbreviated.
    pub reverted: String,
    /// The goal's lines the revert took back: its sign-off, and the start or
    /// rejections the same commit wrote. No other line is excused.
    pub entries: Vec<Key>,
    /// The hashes of the transcripts the reverted sign-offs named: a later line
    /// naming the same bytes, under any name, is a copy, not a new sign-off.
    pub records: Vec<String>,
    /// The goal's sign-off lines the file still had right after the revert: none of
    /// them is a sign-off made after it.
    pub kept: Vec<Key>,
}

/// What one revert took back of sign-offs. `reverted_change` and `revert_change`
/// are the plan file before and after each commit. A message saying "This reverts
/// commit" is text anyone types; only lines the reverted commit added and the
/// revert removed count.
pub fn reverted(
    (commit, of): (&str, &str),
    reverted_change: (Option<&str>, Option<&str>),
    revert_change: (Option<&str>, Option<&str>),
) -> Vec<Reverted> {
    fn plan(text: Option<&str>) -> Plan<'_> {
        parse(text.unwrap_or_default())
    }
    let (s_before, s_after) = (plan(reverted_change.0), plan(reverted_change.1));
    let (c_before, c_after) = (plan(revert_change.0), plan(revert_change.1));
    let mut added_by_s: HashMap<Key, usize> = HashMap::new();
    for entry in added(&s_before.log, &s_after.log) {
        *added_by_s.entry(key(entry)).or_insert(0) += 1;
    }
    let mut taken_back: Vec<(Key, Event<'_>)> = Vec::new();
    let mut left = added_by_s;
    for entry in added(&c_after.log, &c_before.log) {
        let k = key(entry);
        if let Some(n) = left.get_mut(&k).filter(|n| **n > 0) {
            *n -= 1;
            if let Some(event) = Event::parse(entry.text) {
                taken_back.push((k, event));
            }
        }
    }
    let mut out: Vec<Reverted> = Vec::new();
    for (_, event) in &taken_back {
        let Event::SignedOff { id, .. } = event else {
            continue;
        };
        if out.iter().any(|r| r.id == *id) {
            continue;
        }
        let mine = taken_back.iter().filter(|(_, e)| {
            e.id() == Some(id)
                && matches!(
                    e,
                    Event::SignedOff { .. } | Event::Started { .. } | Event::Rejected { .. }
                )
        });
        out.push(Reverted {
            id: id.to_string(),
            commit: commit.to_string(),
            reverted: of.to_string(),
            entries: mine.clone().map(|(k, _)| k.clone()).collect(),
            records: mine
                .filter_map(|(_, e)| match e {
                    Event::SignedOff {
                        record: Some(r), ..
                    } => Some(r.hash.to_string()),
                    _ => None,
                })
                .collect(),
            kept: c_after
                .events(id)
                .filter(|(_, e)| matches!(e, Event::SignedOff { .. }))
                .map(|(entry, _)| key(entry))
                .collect(),
        });
    }
    out
}

/// Every log line a revert took back: added by the reverted commit, removed by the
/// revert (as often as both did). Called only for a revert that is the exact
/// inverse of the commit it names, so a note `plan log --goal` wrote and a revert
/// took back is no line lost. A reopen is never taken back: reverting it would let
/// the sign-off it voided prove the goal again.
pub fn taken_back(
    reverted_change: (Option<&str>, Option<&str>),
    revert_change: (Option<&str>, Option<&str>),
) -> Vec<Key> {
    let plan = |text: Option<&str>| {
        parse(text.unwrap_or_default())
            .log
            .iter()
            .map(key)
            .collect::<Vec<Key>>()
    };
    let (s_before, s_after) = (plan(reverted_change.0), plan(reverted_change.1));
    let (c_before, c_after) = (plan(revert_change.0), plan(revert_change.1));
    let minus = |from: &[Key], take: &[Key]| {
        let mut left: HashMap<&Key, usize> = HashMap::new();
        for k in take {
            *left.entry(k).or_insert(0) += 1;
        }
        from.iter()
            .filter(|k| match left.get_mut(k) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    false
                }
                _ => true,
            })
            .cloned()
            .collect::<Vec<Key>>()
    };
    let added = minus(&s_after, &s_before);
    let removed = minus(&c_before, &c_after);
    let mut left: HashMap<&Key, usize> = HashMap::new();
    for k in &added {
        *left.entry(k).or_insert(0) += 1;
    }
    removed
        .into_iter()
        .filter(|k| match left.get_mut(k) {
            Some(n) if *n > 0 => {
                *n -= 1;
                true
            }
            _ => false,
        })
        .filter(|(_, text)| !matches!(Event::parse(text), Some(Event::Reopened { .. })))
        .collect()
}

/// Why a done goal whose sign-off a revert took back is not proven by the sign-off
/// it has now, if it is not: that sign-off was there before the revert (the revert
/// came after it, so it reopened the goal), or it names a reverted transcript.
pub fn revert_voids(plan: &Plan<'_>, goal: &Goal<'_>, reverts: &[Reverted]) -> Option<String> {
    if goal.status() != Status::Done {
        return None;
    }
    let (entry, record) = plan.events(&goal.id).rev().find_map(|(entry, e)| match e {
        Event::SignedOff { record, .. } => Some((entry, record)),
        _ => None,
    })?;
    let latest = key(entry);
    reverts
        .iter()
        .filter(|r| r.id == goal.id)
        .find(|r| {
            r.kept.contains(&latest)
                || record.is_some_and(|rec| {
                    r.records
                        .iter()
                        .any(|h| h.starts_with(rec.hash) || rec.hash.starts_with(h.as_str()))
                })
        })
        .map(|r| {
            format!(
                "its sign-off was reverted in commit {} (a git revert of {}), which counts as a reopen, and it was not signed off again since",
                r.commit, r.reverted
            )
        })
}

/// One row of the gate's Markdown table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub goal: String,
    pub state: String,
    pub judge: String,
    pub verify: String,
    pub findings: Vec<String>,
}

/// Everything the Markdown summary shows.
pub struct Summary<'a> {
    /// `main at 1a2b3c4`, when the run had a base.
    pub base: Option<&'a str>,
    pub rows: &'a [Row],
    pub changes: &'a [Change],
    /// The base's goals renamed or stripped of unticked subtasks.
    pub reshaped: &'a [Reshaped],
    /// The base's goals the head cancels.
    pub cancels: &'a [Cancel],
    /// The person who approved the pull request's cancels and contract changes
    /// through the forge (`--approved-by`).
    pub approved_by: Option<&'a str>,
    pub lost: &'a [Lost],
    pub lost_goals: &'a [String],
    /// Other problems, one line each (orphaned ids, archived unfinished goals).
    pub other: &'a [String],
    /// With a re-judge: CI's judge calls and the seconds they took.
    pub judged: Option<(usize, u64)>,
    pub failures: usize,
}

/// The gate's report as Markdown, for a CI job summary or a pull-request comment.
pub fn markdown(s: &Summary<'_>) -> String {
    let cell = |text: &str| {
        let one_line: String = text
            .chars()
            .map(|c| if c.is_control() { ' ' } else { c })
            .collect();
        one_line.replace('|', "\\|")
    };
    let code = |text: &str| format!("`{}`", cell(text).replace('`', "'"));
    // One goal's line of a list: `- `id`: what (line N)` and what follows it. The
    // agent's words (a reason, a title, a finding naming its files) come
    // code-quoted here and below: a reviewer approves from this text, and a bold
    // "Passed." or a link must not render.
    let item = |id: &str, what: &str, line: usize, tail: &str| {
        format!("- {}: {what} (line {line}){tail}\n", code(id))
    };
    let mut out = String::from("## plan audit\n\n");
    if let Some(base) = s.base {
        out.push_str(&format!("Against {}.\n\n", cell(base)));
    }
    if s.rows.is_empty() {
        out.push_str("No goal to show.\n");
    } else {
        out.push_str("| goal | state | judge | verify | findings |\n|---|---|---|---|---|\n");
        for row in s.rows {
            let findings = if row.findings.is_empty() {
                "none".to_string()
            } else {
                row.findings
                    .iter()
                    .map(|f| code(f))
                    .collect::<Vec<_>>()
                    .join("<br>")
            };
            out.push_str(&format!(
                "| {} | {} | {} | {} | {findings} |\n",
                code(&row.goal),
                cell(&row.state),
                cell(&row.judge),
                cell(&row.verify)
            ));
        }
    }
    let approval = match s.approved_by {
        Some(name) => format!(", approved by {}", cell(name)),
        None => ", needs --approved-by".to_string(),
    };
    if s.base.is_some() {
        out.push_str("\n### Contract changes\n\n");
        if s.changes.is_empty() {
            out.push_str("None.\n");
        }
        for change in s.changes {
            let approval = if change.of_base {
                approval.as_str()
            } else {
                ""
            };
            out.push_str(&item(
                &change.id,
                &code(&change.what),
                change.line,
                approval,
            ));
            for words in &change.words {
                out.push_str(&format!("  - {}\n", code(words)));
            }
        }
        if !s.reshaped.is_empty() {
            out.push_str("\n### Other changes to the base's goals\n\n");
        }
        for change in s.reshaped {
            out.push_str(&item(&change.id, &code(&change.what), change.line, ""));
        }
        if !s.cancels.is_empty() {
            out.push_str(match s.cancels.iter().any(|c| c.reopened) {
                true => "\n### Cancelled or reopened goals of the base\n\n",
                false => "\n### Cancelled goals of the base\n\n",
            });
        }
        for cancel in s.cancels {
            let what = match (cancel.reopened, cancel.reason.is_empty()) {
                (false, _) => format!("cancelled: {}", code(&cancel.reason)),
                (true, false) => format!("reopened: {}", code(&cancel.reason)),
                (true, true) => cancel.what(),
            };
            out.push_str(&item(&cancel.id, &what, cancel.line, &approval));
        }
    }
    if !s.lost.is_empty() || !s.lost_goals.is_empty() {
        out.push_str("\n### Lost from the base\n\n");
        for lost in s.lost {
            out.push_str(&format!(
                "- {}:{} {}: {}\n",
                code(&lost.file),
                lost.line,
                lost.what,
                code(&lost.entry)
            ));
        }
        for id in s.lost_goals {
            out.push_str(&format!("- goal {} is gone\n", code(id)));
        }
    }
    if !s.other.is_empty() {
        out.push_str("\n### Other problems\n\n");
        for line in s.other {
            out.push_str(&format!("- {}\n", code(line)));
        }
    }
    if let Some((calls, secs)) = s.judged {
        out.push_str(&format!(
            "\nCI's judge: {calls} call{}, {secs} s.\n",
            if calls == 1 { "" } else { "s" }
        ));
    }
    out.push_str(&match s.failures {
        0 => "\n**Passed.**\n".to_string(),
        1 => "\n**Failed: 1 problem.**\n".to_string(),
        n => format!("\n**Failed: {n} problems.**\n"),
    });
    out
}

/// The judge a goal's latest sign-off line names, as its transcript names it.
pub fn sign_off_judge(plan: &Plan<'_>, id: &str) -> Option<String> {
    plan.events(id).rev().find_map(|(_, e)| match e {
        Event::SignedOff { judged, .. } => Some(match judged {
            super::event::Judged::By { backend, model: "" } => backend.to_string(),
            super::event::Judged::By { backend, model } => format!("{backend}:{model}"),
            super::event::Judged::Skipped => "none".to_string(),
            super::event::Judged::Unnamed => "unnamed".to_string(),
            super::event::Judged::Panel { judges } => judges.to_string(),
        }),
        _ => None,
    })
}

/// Whether a goal's latest sign-off line says verify ran.
pub fn sign_off_verified(plan: &Plan<'_>, id: &str) -> Option<bool> {
    plan.events(id).rev().find_map(|(_, e)| match e {
        Event::SignedOff { verify, .. } => Some(verify),
        _ => None,
    })
}

/// The transcript path a goal's latest sign-off names.
pub fn record_path<'a>(plan: &Plan<'a>, id: &str) -> Option<&'a str> {
    proof::latest_record(plan, id).map(|r| r.path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_logged_to_since_a_start_only_by_an_event_the_start_lacks() {
        let example = "# Usage\n\n## Goal: Example\n<!-- id: x -->\nstatus: active\n\n## Log\n- 2026-01-01 10:00 x started (contract 11111111)\n";
        let edited = format!("{example}\n## Releases\n- release 2\n");
        // The base's example, quoted unchanged around new prose: nothing logged.
        assert!(!logged_since(&edited, Some(example)));
        // New to the file, or a second time: logged.
        assert!(logged_since(example, None));
        assert!(logged_since(example, Some("# Usage\n")));
        let twice = example.replace(
            "(contract 11111111)\n",
            "(contract 11111111)\n- 2026-01-01 10:00 x started (contract 11111111)\n",
        );
        assert!(logged_since(&twice, Some(example)));
        // An event taken out logs nothing.
        let no_event = example.replace("- 2026-01-01 10:00 x started (contract 11111111)\n", "");
        assert!(!logged_since(&no_event, Some(example)));
        // A subtask ticked (`plan tick`, no event) or a status moved is plan's
        // write too (review 114).
        let with_task = example.replace("status: active\n", "status: active\n- [ ] write it\n");
        let ticked = with_task.replace("- [ ] write it", "- [x] write it");
        assert!(logged_since(&ticked, Some(&with_task)));
        assert!(logged_since(&with_task, Some(example)));
        let done = example.replace("status: active", "status: done");
        assert!(logged_since(&done, Some(example)));
    }

    #[test]
    fn a_base_goal_renamed_or_short_of_an_unticked_subtask_is_reshaped() {
        let goal = |title: &str, subtasks: &str| {
            format!(
                "## Goal: {title}\n<!-- id: a -->\nstatus: active\ndone_when: x\n{subtasks}\n## Log\n"
            )
        };
        let base = goal("A", "- [ ] twice\n- [ ] twice\n- [x] done\n- [ ] kept\n");
        let head = goal("B", "- [x] twice\n- [ ] kept\n");
        let whats: Vec<String> = reshaped(
            &crate::plan::model::parse(&base),
            &crate::plan::model::parse(&head),
        )
        .into_iter()
        .map(|r| r.what)
        .collect();
        // One copy of `twice` kept (ticked now): one lost; the ticked `done` is no one's.
        assert_eq!(
            whats,
            ["renamed from \"A\"", "subtask \"twice\" removed unticked"]
        );
    }

    // Red first lays what plan wrote a log line to, under any name or title; a
    // plan-shaped text with no event of plan's is the work's.
    #[test]
    fn a_plan_is_logged_by_plans_events_alone() {
        let goal = "## Goal: X\n<!-- id: x -->\nstatus: active\ndone_when: never\n\n## Log\n";
        let started = format!("{goal}- 2026-01-01 10:00 x started (contract 11111111)\n");
        assert!(is_logged(&started));
        assert!(is_logged(&format!("# Plan: B\n\n{started}")));
        assert!(!is_logged(&format!("# Plan: B\n\n{goal}")));
        assert!(!is_logged(&format!(
            "{goal}- 2026-01-01 10:00 a note about nothing\n"
        )));
        assert!(!is_logged("x started\n"));
    }

    const HEAD: &str = "## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Log\n";
    const SIGN: &str = "- 2026-01-01 10:05 a signed off (verify passed, judge command accept, contract 11111111): .plan/judge/a-1.md#0123456789ab\n";
    const START: &str = "- 2026-01-01 10:00 a started (contract 11111111)\n";
    const REOPEN: &str = "- 2026-01-01 10:06 a reopened: broke\n";

    #[test]
    fn base_lines_must_all_be_in_the_head_in_order() {
        let base = parse(&format!("{HEAD}{START}- 2026-01-01 10:01 a note\n{SIGN}"))
            .log
            .len();
        assert_eq!(base, 3);
        let base_text = format!("{HEAD}{START}- 2026-01-01 10:01 a note\n{SIGN}");
        let base = parse(&base_text);
        let none = |_: &Key| false;
        // Lines added anywhere after them are fine.
        let grown = format!("{base_text}{REOPEN}");
        assert!(lost_lines("plan.md", &base, &parse(&grown), &none).is_empty());
        // A free note removed counts as much as an event.
        let dropped = base_text.replace("- 2026-01-01 10:01 a note\n", "");
        let lost = lost_lines("plan.md", &base, &parse(&dropped), &none);
        assert_eq!(lost.len(), 1);
        assert_eq!((lost[0].what, lost[0].id.as_deref()), ("removed", None));
        // Two swapped: the later is moved.
        let swapped = format!("{HEAD}{SIGN}{START}- 2026-01-01 10:01 a note\n");
        let lost = lost_lines("plan.md", &base, &parse(&swapped), &none);
        assert_eq!(lost.len(), 1, "{lost:?}");
        assert_eq!((lost[0].what, lost[0].id.as_deref()), ("moved", Some("a")));
        // An excused line may be gone.
        let unsigned = base_text.replace(SIGN, "");
        let excused = |k: &Key| k.1.contains("signed off");
        assert!(lost_lines("plan.md", &base, &parse(&unsigned), &excused).is_empty());
    }

    #[test]
    fn a_revert_takes_back_only_what_the_reverted_commit_added() {
        let before = format!("{HEAD}{START}");
        let signed = format!("{HEAD}{START}{SIGN}");
        // The revert removes the sign-off and, wrongly, an older reopen of b.
        let b_reopen = "- 2025-12-01 09:00 b reopened: x\n";
        let with_b = format!("{HEAD}{b_reopen}{START}{SIGN}");
        let after = format!("{HEAD}{START}");
        let r = reverted(
            ("c0ffee1", "5eed001"),
            (Some(&before), Some(&signed)),
            (Some(&with_b), Some(&after)),
        );
        assert_eq!(r.len(), 1);
        assert_eq!(r[0].id, "a");
        assert_eq!(r[0].entries.len(), 1);
        assert_eq!(r[0].records, ["0123456789ab"]);
        assert!(r[0].kept.is_empty());
        // A commit that added no sign-off reverts none.
        assert!(
            reverted(
                ("c0ffee1", "5eed001"),
                (Some(&before), Some(&before)),
                (Some(&signed), Some(&before)),
            )
            .is_empty()
        );
        // The same goal done again by the old line is void; a new line stands.
        let again = format!("{HEAD}{START}{SIGN}");
        let plan = parse(&again);
        assert!(revert_voids(&plan, &plan.goals[0], &r).is_some());
        let fresh = format!(
            "{HEAD}{START}- 2026-01-02 10:05 a signed off (verify passed, judge command accept, contract 11111111): .plan/judge/a-2.md#abcdefabcdef\n"
        );
        let plan = parse(&fresh);
        assert_eq!(revert_voids(&plan, &plan.goals[0], &r), None);
    }

    #[test]
    fn contract_changes_of_either_kind_are_listed() {
        let base = format!(
            "## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: x\n\n## Goal: B\n<!-- id: b -->\nstatus: active\ndone_when: y\n\n## Log\n{START}"
        );
        let head = base.replace("done_when: y", "done_when: z")
            + "- 2026-01-01 11:00 a contract reapproved (contract 22222222, at a terminal)\n";
        let changes = contract_changes(&parse(&base), &parse(&head));
        let seen: Vec<(&str, &str)> = changes
            .iter()
            .map(|c| (c.id.as_str(), c.approval))
            .collect();
        assert_eq!(seen, [("a", "terminal"), ("b", "none")]);
        assert!(changes[1].without_terminal());
    }

    #[test]
    fn goals_made_done_cancelled_or_softened_against_the_base() {
        let goal = |status: &str, done_when: &str| {
            format!(
                "## Goal: A\n<!-- id: a -->\nstatus: {status}\ndone_when: {done_when}\n\n## Log\n"
            )
        };
        let base = goal("active", "the tests pass");
        let base = parse(&base);
        let done = goal("done", "the tests pass");
        assert_eq!(became_done(&base, &parse(&done)), ["a"]);
        assert!(became_done(&parse(&done), &parse(&done)).is_empty());
        let cancelled = format!(
            "{}- 2026-01-01 10:00 a cancelled: not needed\n",
            goal("cancelled", "the tests pass")
        );
        let listed = cancels(&base, &parse(&cancelled));
        assert_eq!(
            (
                listed[0].id.as_str(),
                listed[0].reason.as_str(),
                listed[0].line
            ),
            ("a", "not needed", 7)
        );
        assert!(cancels(&parse(&cancelled), &parse(&cancelled)).is_empty());
        // Done on the base and set back at the head: by hand, or by a reopen the
        // head logged (not one the base had).
        let reopened = format!(
            "{}- 2026-01-01 10:00 a reopened: broken\n",
            goal("done", "the tests pass")
        );
        let base_done = parse(&reopened);
        let back = |status: &str, log: &str| {
            let head = format!("{}{log}", goal(status, "the tests pass"));
            cancels(&base_done, &parse(&head))
                .iter()
                .map(|c| (c.what(), c.line))
                .collect::<Vec<_>>()
        };
        let by_hand = "set back from done by hand, with no `plan reopen` logged".to_string();
        assert_eq!(back("active", ""), [(by_hand.clone(), 1)]);
        assert_eq!(
            back("open", "- 2026-01-01 10:00 a reopened: broken\n"),
            [(by_hand, 1)]
        );
        assert_eq!(
            back(
                "active",
                "- 2026-01-01 10:00 a reopened: broken\n- 2026-01-02 10:00 a reopened: still\n"
            ),
            [("reopened: still".to_string(), 8)]
        );
        assert!(back("done", "").is_empty());
        let softened = goal("active", "the tests mostly pass");
        let changes = contract_changes(&base, &parse(&softened));
        assert!(changes[0].of_base);
        assert_eq!(changes[0].words, ["done_when: the tests {+mostly +}pass"]);
    }

    #[test]
    fn a_revert_takes_back_what_the_commit_added_but_never_a_reopen() {
        let log = |lines: &[&str]| -> String {
            format!(
                "{HEAD}{}",
                lines.iter().map(|l| format!("{l}\n")).collect::<String>()
            )
        };
        let note = "- 2026-01-01 10:01 a note";
        let before = log(&[START.trim_end()]);
        let after = log(&[START.trim_end(), note, REOPEN.trim_end()]);
        let later = log(&[
            START.trim_end(),
            note,
            REOPEN.trim_end(),
            "- 2026-01-01 11:00 later",
        ]);
        let reverted = log(&[START.trim_end(), "- 2026-01-01 11:00 later"]);
        let back = taken_back(
            (Some(&before), Some(&after)),
            (Some(&later), Some(&reverted)),
        );
        assert_eq!(
            back,
            [(Some("2026-01-01 10:01".to_string()), "a note".to_string())]
        );
        // A line the reverted commit did not add is not taken back by it.
        let back = taken_back(
            (Some(&after), Some(&after)),
            (Some(&later), Some(&reverted)),
        );
        assert!(back.is_empty());
    }

    #[test]
    fn markdown_cells_cannot_break_the_table() {
        let rows = [Row {
            goal: "a".into(),
            state: "proven".into(),
            judge: "x|y".into(),
            verify: "line\nbreak".into(),
            findings: vec![],
        }];
        let text = markdown(&Summary {
            base: None,
            rows: &rows,
            changes: &[],
            reshaped: &[],
            cancels: &[],
            approved_by: None,
            lost: &[],
            lost_goals: &[],
            other: &[],
            judged: Some((1, 12)),
            failures: 0,
        });
        assert!(text.contains("\nCI's judge: 1 call, 12 s.\n"), "{text}");
        assert!(
            text.contains("| `a` | proven | x\\|y | line break | none |\n"),
            "{text}"
        );
    }
}

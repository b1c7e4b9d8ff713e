//! What changed in plan.md between two versions, goal by goal: the objective, titles,
//! statuses, contracts (word diffs), subtasks, and the log, whose changed or removed
//! lines are flagged because it is append-only. Pure: two texts in, a value out.

use std::collections::HashMap;
use std::fmt::Write;

use serde::Serialize;
use similar::{Algorithm, DiffTag, capture_diff_slices};

use super::model::{Goal, LogEntry, Plan, parse};
use super::ops::one_line;
use super::render::Style;
use super::wdiff::{align, line_word_diff};

/// Everything that changed, in the order of the newer plan.
#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct PlanDiff {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub objective: Option<Change>,
    pub goals: Vec<GoalDiff>,
    pub log: LogDiff,
}

/// A value before and after; `None` where the line is absent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Change {
    pub old: Option<String>,
    pub new: Option<String>,
    /// The two as a plain word diff: `[-removed-]{+added+}`.
    pub words: String,
}

impl Change {
    fn new(old: Option<String>, new: Option<String>) -> Change {
        let words = words(&old, &new, Style::default());
        Change { old, new, words }
    }

    /// `None` when nothing changed.
    fn between(old: Option<String>, new: Option<String>) -> Option<Change> {
        (old != new).then(|| Change::new(old, new))
    }

    fn painted(&self, style: Style) -> String {
        words(&self.old, &self.new, style)
    }
}

fn words(old: &Option<String>, new: &Option<String>, style: Style) -> String {
    line_word_diff(
        old.as_deref().unwrap_or(""),
        new.as_deref().unwrap_or(""),
        style,
    )
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum GoalChange {
    Added,
    Removed,
    Changed,
}

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct GoalDiff {
    pub id: String,
    pub change: GoalChange,
    /// The title now (before, for a removed goal).
    pub title: String,
    /// The heading's line now (before, for a removed goal).
    pub line: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub renamed: Option<Change>,
    /// The `status:` value as written (an added goal's, a removed goal's too).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<Change>,
    /// `Some(true)`: moved under `## Archive`; `Some(false)`: moved back out.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub archived: Option<bool>,
    pub contract: Vec<FieldDiff>,
    pub subtasks: Vec<SubtaskDiff>,
}

/// One contract field: `done_when`, `verify`, `depends_on` or `failure_modes` (its
/// items as `- …` lines).
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct FieldDiff {
    pub field: &'static str,
    #[serde(flatten)]
    pub change: Change,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SubtaskChange {
    Ticked,
    Unticked,
    Added,
    Removed,
}

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct SubtaskDiff {
    pub change: SubtaskChange,
    /// 1-based, as `plan tick` counts: in the newer plan, or the older for a removal.
    pub number: usize,
    pub done: bool,
    pub text: String,
}

#[derive(Debug, Default, PartialEq, Eq, Serialize)]
pub struct LogDiff {
    pub added: Vec<LogLine>,
    /// Entries rewritten in place: the log is append-only, so each is a warning.
    pub changed: Vec<LogEdit>,
    /// Entries gone: a warning each too.
    pub removed: Vec<LogLine>,
}

impl LogDiff {
    /// Does the newer log break the append-only convention?
    pub fn rewritten(&self) -> bool {
        !self.changed.is_empty() || !self.removed.is_empty()
    }
}

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct LogLine {
    /// In the newer plan for an added entry, the older for a removed one.
    pub line: usize,
    pub text: String,
}

#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct LogEdit {
    pub old_line: usize,
    pub new_line: usize,
    #[serde(flatten)]
    pub change: Change,
}

impl PlanDiff {
    pub fn is_empty(&self) -> bool {
        self.objective.is_none()
            && self.goals.is_empty()
            && self.log.added.is_empty()
            && !self.log.rewritten()
    }
}

/// Compares two versions of plan.md. Either may have format errors: a diff is how a
/// broken hand edit gets reviewed, so nothing is refused here.
pub fn diff(old: &str, new: &str) -> PlanDiff {
    let (old, new) = (parse(old), parse(new));
    PlanDiff {
        objective: Change::between(
            old.objective.as_ref().map(|f| f.value.to_string()),
            new.objective.as_ref().map(|f| f.value.to_string()),
        ),
        goals: goals(&old, &new),
        log: log(&old, &new),
    }
}

/// Goals are matched by id; the k-th goal with an id pairs with the k-th goal with it
/// on the other side, so duplicate ids still line up.
fn goals(old: &Plan<'_>, new: &Plan<'_>) -> Vec<GoalDiff> {
    let keyed = |plan: &Plan<'_>| -> Vec<(String, usize)> {
        let mut seen: HashMap<&str, usize> = HashMap::new();
        plan.goals
            .iter()
            .map(|g| {
                let n = seen.entry(g.id.as_ref()).or_default();
                *n += 1;
                (g.id.to_string(), *n)
            })
            .collect()
    };
    let old_keys = keyed(old);
    let new_keys = keyed(new);
    let old_at: HashMap<&(String, usize), usize> =
        old_keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let new_at: HashMap<&(String, usize), usize> =
        new_keys.iter().enumerate().map(|(i, k)| (k, i)).collect();
    let mut out = Vec::new();
    for (i, key) in new_keys.iter().enumerate() {
        let goal = &new.goals[i];
        let before = old_at.get(key).map(|&j| &old.goals[j]);
        if let Some(d) = goal_diff(before, Some(goal)) {
            out.push(d);
        }
    }
    for (j, key) in old_keys.iter().enumerate() {
        if !new_at.contains_key(key)
            && let Some(d) = goal_diff(Some(&old.goals[j]), None)
        {
            out.push(d);
        }
    }
    out
}

fn goal_diff(old: Option<&Goal<'_>>, new: Option<&Goal<'_>>) -> Option<GoalDiff> {
    let (change, shown) = match (old, new) {
        (Some(_), Some(g)) => (GoalChange::Changed, g),
        (None, Some(g)) => (GoalChange::Added, g),
        (Some(g), None) => (GoalChange::Removed, g),
        (None, None) => return None,
    };
    let status =
        |g: Option<&Goal<'_>>| g.and_then(|g| g.status.as_ref().map(|f| f.value.to_string()));
    let renamed = match (old, new) {
        (Some(o), Some(n)) => Change::between(Some(o.title.to_string()), Some(n.title.to_string())),
        _ => None,
    };
    let archived = match (old, new) {
        (Some(o), Some(n)) if o.archived != n.archived => Some(n.archived),
        _ => None,
    };
    let old_fields = old.map(contract_fields).unwrap_or_default();
    let new_fields = new.map(contract_fields).unwrap_or_default();
    let contract = FIELDS
        .iter()
        .zip(old_fields)
        .zip(new_fields)
        .filter_map(|((field, o), n)| {
            Change::between(o, n).map(|change| FieldDiff { field, change })
        })
        .collect();
    let d = GoalDiff {
        id: shown.id.to_string(),
        change,
        title: shown.title.to_string(),
        line: shown.line,
        renamed,
        status: Change::between(status(old), status(new)),
        archived,
        contract,
        subtasks: subtasks(old, new),
    };
    let unchanged = d.change == GoalChange::Changed
        && d.renamed.is_none()
        && d.status.is_none()
        && d.archived.is_none()
        && d.contract.is_empty()
        && d.subtasks.is_empty();
    (!unchanged).then_some(d)
}

const FIELDS: [&str; 4] = ["done_when", "verify", "depends_on", "failure_modes"];

/// The contract fields in [`FIELDS`] order, whitespace-normalised as the
/// fingerprint is, so re-wrapping a line is not a change.
fn contract_fields(goal: &Goal<'_>) -> [Option<String>; 4] {
    let modes = (goal.failure_modes_line.is_some() || !goal.failure_modes.is_empty()).then(|| {
        goal.failure_modes
            .iter()
            .map(|m| format!("- {}", one_line(m.value)))
            .collect::<Vec<_>>()
            .join("\n")
    });
    [
        goal.done_when.as_ref().map(|f| one_line(f.value)),
        goal.verify
            .as_ref()
            .map(|f| super::text::one_line_command(f.value)),
        goal.depends_line.map(|_| goal.depends_on.join(", ")),
        modes,
    ]
}

/// A goal's contract as one text, field by field, absent fields left out: what
/// `plan diff ID` compares.
pub fn contract_text(goal: &Goal<'_>) -> String {
    let mut out = String::new();
    for (field, value) in FIELDS.iter().zip(contract_fields(goal)) {
        let Some(value) = value else { continue };
        if *field == "failure_modes" {
            let _ = writeln!(out, "failure_modes:");
            if !value.is_empty() {
                let _ = writeln!(out, "{value}");
            }
        } else {
            let _ = writeln!(out, "{field}: {value}");
        }
    }
    out
}

/// One goal's contract before and after (`None`: the goal is absent on that side).
#[derive(Debug, PartialEq, Eq, Serialize)]
pub struct ContractDiff {
    pub id: String,
    #[serde(flatten)]
    pub change: Change,
}

impl ContractDiff {
    pub fn new(id: &str, old: Option<&Goal<'_>>, new: Option<&Goal<'_>>) -> ContractDiff {
        ContractDiff {
            id: id.to_string(),
            change: Change::new(old.map(contract_text), new.map(contract_text)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.change.old == self.change.new
    }

    /// The whole contract, changed words marked; unchanged lines give context.
    pub fn render(&self, style: Style) -> String {
        let mut out = self.change.painted(style);
        out.push('\n');
        out
    }
}

/// Subtasks are matched by their text in order; a reworded one is a removal and an
/// addition.
fn subtasks(old: Option<&Goal<'_>>, new: Option<&Goal<'_>>) -> Vec<SubtaskDiff> {
    let list = |g: Option<&Goal<'_>>| -> Vec<(bool, String)> {
        g.map(|g| {
            g.subtasks
                .iter()
                .map(|s| (s.done, one_line(s.text)))
                .collect()
        })
        .unwrap_or_default()
    };
    let (old, new) = (list(old), list(new));
    let old_text: Vec<&str> = old.iter().map(|(_, t)| t.as_str()).collect();
    let new_text: Vec<&str> = new.iter().map(|(_, t)| t.as_str()).collect();
    let item = |change, number: usize, (done, text): &(bool, String)| SubtaskDiff {
        change,
        number: number + 1,
        done: *done,
        text: text.clone(),
    };
    let mut out = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &old_text, &new_text) {
        let (tag, o, n) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => {
                for (i, j) in o.zip(n) {
                    let change = match (old[i].0, new[j].0) {
                        (false, true) => SubtaskChange::Ticked,
                        (true, false) => SubtaskChange::Unticked,
                        _ => continue,
                    };
                    out.push(item(change, j, &new[j]));
                }
            }
            _ => {
                out.extend(o.map(|i| item(SubtaskChange::Removed, i, &old[i])));
                out.extend(n.map(|j| item(SubtaskChange::Added, j, &new[j])));
            }
        }
    }
    out
}

fn entry_text(entry: &LogEntry<'_>) -> String {
    match entry.stamp {
        Some(stamp) => format!("{stamp} {}", entry.text),
        None => entry.text.to_string(),
    }
}

/// Log entries matched in order; an entry edited in place pairs with the one it
/// replaced (see [`align`]), anything else gone was removed.
fn log(old: &Plan<'_>, new: &Plan<'_>) -> LogDiff {
    let old_text: Vec<String> = old.log.iter().map(entry_text).collect();
    let new_text: Vec<String> = new.log.iter().map(entry_text).collect();
    let mut out = LogDiff::default();
    for pair in align(&old_text, &new_text) {
        match pair {
            (Some(i), Some(j)) if old_text[i] == new_text[j] => {}
            (Some(i), Some(j)) => out.changed.push(LogEdit {
                old_line: old.log[i].line,
                new_line: new.log[j].line,
                change: Change::new(Some(old_text[i].clone()), Some(new_text[j].clone())),
            }),
            (Some(i), None) => out.removed.push(LogLine {
                line: old.log[i].line,
                text: old_text[i].clone(),
            }),
            (None, Some(j)) => out.added.push(LogLine {
                line: new.log[j].line,
                text: new_text[j].clone(),
            }),
            (None, None) => {}
        }
    }
    out
}

/// How the two sides are named in what [`render`] prints.
pub struct Names<'a> {
    /// The revision, e.g. `HEAD`.
    pub old: &'a str,
    /// The file, e.g. `plan.md`.
    pub new: &'a str,
}

/// The diff for people: one `id: …` line per change, grouped by goal, then the log,
/// with a warning for every rewritten log line.
pub fn render(diff: &PlanDiff, names: &Names<'_>, style: Style) -> String {
    let mut groups: Vec<String> = Vec::new();
    if let Some(change) = &diff.objective {
        groups.push(format!("objective: {}\n", change.painted(style)));
    }
    groups.extend(diff.goals.iter().map(|g| goal_text(g, style)));
    let log = log_text(&diff.log, names, style);
    if !log.is_empty() {
        groups.push(log);
    }
    groups.join("\n")
}

fn goal_text(goal: &GoalDiff, style: Style) -> String {
    let id = &goal.id;
    let mut out = String::new();
    let status = |c: &Change, pick: fn(&Change) -> &Option<String>| {
        pick(c).clone().unwrap_or_else(|| "(none)".to_string())
    };
    match goal.change {
        GoalChange::Added => {
            let state = goal
                .status
                .as_ref()
                .map_or("no status".to_string(), |c| status(c, |c| &c.new));
            let head = format!("{id}: added \"{}\" ({state})", goal.title);
            let _ = writeln!(out, "{}", style.paint("32", &head));
            for field in &goal.contract {
                let value = field.change.new.as_deref().unwrap_or("");
                if field.field == "failure_modes" {
                    let _ = writeln!(out, "  failure_modes:");
                    for mode in value.lines() {
                        let _ = writeln!(out, "  {mode}");
                    }
                } else {
                    let _ = writeln!(out, "  {}: {value}", field.field);
                }
            }
            for task in &goal.subtasks {
                let mark = if task.done { "[x]" } else { "[ ]" };
                let _ = writeln!(out, "  - {mark} {}", task.text);
            }
            return out;
        }
        GoalChange::Removed => {
            let state = goal
                .status
                .as_ref()
                .map_or("no status".to_string(), |c| status(c, |c| &c.old));
            let head = format!("{id}: removed \"{}\" (was {state})", goal.title);
            let _ = writeln!(out, "{}", style.paint("31", &head));
            return out;
        }
        GoalChange::Changed => {}
    }
    if let Some(title) = &goal.renamed {
        let _ = writeln!(out, "{id}: title {}", title.painted(style));
    }
    if let Some(c) = &goal.status {
        let _ = writeln!(
            out,
            "{id}: status {} → {}",
            status(c, |c| &c.old),
            style.paint("1", &status(c, |c| &c.new))
        );
    }
    match goal.archived {
        Some(true) => {
            let _ = writeln!(out, "{id}: moved under ## Archive");
        }
        Some(false) => {
            let _ = writeln!(out, "{id}: moved out of ## Archive");
        }
        None => {}
    }
    for field in &goal.contract {
        let words = field.change.painted(style);
        if field.field == "failure_modes" {
            let _ = writeln!(out, "{id}: failure_modes:");
            for line in words.lines() {
                let _ = writeln!(out, "  {line}");
            }
        } else {
            let _ = writeln!(out, "{id}: {}: {words}", field.field);
        }
    }
    for task in &goal.subtasks {
        let (what, code) = match task.change {
            SubtaskChange::Ticked => ("ticked", "32"),
            SubtaskChange::Unticked => ("unticked", "33"),
            SubtaskChange::Added => ("added", "32"),
            SubtaskChange::Removed => ("removed", "31"),
        };
        let _ = writeln!(
            out,
            "{id}: subtask {} {}: {}",
            task.number,
            style.paint(code, what),
            task.text
        );
    }
    out
}

fn log_text(log: &LogDiff, names: &Names<'_>, style: Style) -> String {
    let mut out = String::new();
    if !log.added.is_empty() {
        let n = log.added.len();
        let _ = writeln!(
            out,
            "log: {n} {} added",
            if n == 1 { "entry" } else { "entries" }
        );
        for entry in &log.added {
            let _ = writeln!(out, "  {}", style.paint("32", &format!("- {}", entry.text)));
        }
    }
    let warn = |text: String| style.paint("33", &format!("warning: {text}"));
    // Warnings in the order of the older log, whatever their kind.
    let mut warnings: Vec<(usize, String)> = Vec::new();
    for edit in &log.changed {
        let now = if edit.old_line == edit.new_line {
            String::new()
        } else {
            format!(", now {}:{}", names.new, edit.new_line)
        };
        let head = warn(format!(
            "log line {}:{} changed{now}; the log is append-only",
            names.old, edit.old_line
        ));
        let body = edit.change.painted(style);
        warnings.push((edit.old_line, format!("{head}\n  - {body}\n")));
    }
    for entry in &log.removed {
        let head = warn(format!(
            "log line {}:{} removed; the log is append-only",
            names.old, entry.line
        ));
        let body = style.paint("31", &format!("- {}", entry.text));
        warnings.push((entry.line, format!("{head}\n  {body}\n")));
    }
    warnings.sort_by_key(|(line, _)| *line);
    out.extend(warnings.into_iter().map(|(_, text)| text));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const OLD: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: open
done_when: p95 < 50ms on bench-X
verify: cargo test
failure_modes:
- cache silently bypassed
- verify passes on a gamed test
- [ ] wire cache client
- [ ] eviction policy

## Goal: Spike Redis
<!-- id: spike -->
status: open

## Log
- 2026-06-14 09:10 plan created
- 2026-06-14 09:40 cache-layer started (contract 0123abcd)
";

    const NAMES: Names<'static> = Names {
        old: "HEAD",
        new: "plan.md",
    };

    fn plain(old: &str, new: &str) -> String {
        render(&diff(old, new), &NAMES, Style::default())
    }

    #[test]
    fn identical_texts_have_no_diff() {
        assert!(diff(OLD, OLD).is_empty());
        assert!(diff("", "").is_empty());
    }

    #[test]
    fn whitespace_and_prose_are_not_changes() {
        let new = OLD
            .replace("done_when: p95 < 50ms", "done_when:   p95  <  50ms")
            .replace("## Log", "Some notes.\n\n## Log");
        assert!(diff(OLD, &new).is_empty());
    }

    #[test]
    fn status_tick_and_new_log_lines() {
        let new = OLD
            .replace("status: open\ndone_when", "status: active\ndone_when")
            .replace("- [ ] wire", "- [x] wire")
            + "- 2026-06-15 14:02 cache client wired\n";
        assert_eq!(
            plain(OLD, &new),
            "cache-layer: status open → active
cache-layer: subtask 1 ticked: wire cache client

log: 1 entry added
  - 2026-06-15 14:02 cache client wired
"
        );
        let d = diff(OLD, &new);
        assert_eq!(d.log.added[0].line, 21);
        assert!(!d.log.rewritten());
    }

    #[test]
    fn contract_changes_word_by_word() {
        let new = OLD
            .replace("50ms", "80ms")
            .replace("a gamed test", "a trivial or gamed test")
            .replace("verify: cargo test\n", "")
            .replace(
                "status: open\n\n## Log",
                "status: open\ndepends_on: cache-layer\n\n## Log",
            );
        assert_eq!(
            plain(OLD, &new),
            "cache-layer: done_when: p95 < [-50ms-]{+80ms+} on bench-X
cache-layer: verify: [-cargo test-]
cache-layer: failure_modes:
  - cache silently bypassed
  - verify passes on a {+trivial or +}gamed test

spike: depends_on: {+cache-layer+}
"
        );
        let d = diff(OLD, &new);
        let verify = &d.goals[0].contract[1];
        assert_eq!(verify.field, "verify");
        assert_eq!(verify.change.new, None);
    }

    #[test]
    fn subtasks_added_removed_unticked_and_title_renamed() {
        let old = OLD.replace("- [ ] eviction", "- [x] eviction");
        let new = OLD
            .replace("## Goal: Implement cache", "## Goal: Build cache")
            .replace("- [ ] wire cache client\n", "")
            .replace(
                "- [ ] eviction policy\n",
                "- [ ] eviction policy\n- [ ] load test\n",
            );
        assert_eq!(
            plain(&old, &new),
            "cache-layer: title [-Implement-]{+Build+} cache layer
cache-layer: subtask 1 removed: wire cache client
cache-layer: subtask 1 unticked: eviction policy
cache-layer: subtask 2 added: load test
"
        );
    }

    #[test]
    fn goals_added_and_removed_by_id() {
        let new = OLD.replace(
            "## Goal: Spike Redis\n<!-- id: spike -->\nstatus: open\n",
            "## Goal: Document it\n<!-- id: docs -->\nstatus: open\ndone_when: README explains it\nfailure_modes:\n- copied from the old design\n- [ ] write\n",
        );
        assert_eq!(
            plain(OLD, &new),
            "docs: added \"Document it\" (open)
  done_when: README explains it
  failure_modes:
  - copied from the old design
  - [ ] write

spike: removed \"Spike Redis\" (was open)
"
        );
        let d = diff(OLD, &new);
        assert_eq!(d.goals[0].change, GoalChange::Added);
        assert_eq!(d.goals[1].change, GoalChange::Removed);
    }

    #[test]
    fn renaming_a_goal_without_an_id_is_a_removal_and_an_addition() {
        let d = diff("## Goal: One\n", "## Goal: Two\n");
        let ids: Vec<_> = d.goals.iter().map(|g| (g.id.as_str(), g.change)).collect();
        assert_eq!(
            ids,
            [("two", GoalChange::Added), ("one", GoalChange::Removed)]
        );
    }

    #[test]
    fn rewritten_log_lines_are_warnings_with_line_numbers() {
        let new = OLD
            .replace("(contract 0123abcd)", "(contract deadbeef)")
            .replace("- 2026-06-14 09:10 plan created\n", "")
            .replace(
                "# Plan: Ship the cache layer\n",
                "# Plan: Ship the cache layer\n\nNotes.\n",
            );
        assert_eq!(
            plain(OLD, &new),
            "warning: log line HEAD:19 removed; the log is append-only
  - 2026-06-14 09:10 plan created
warning: log line HEAD:20 changed, now plan.md:21; the log is append-only
  - 2026-06-14 09:40 cache-layer started (contract [-0123abcd)-]{+deadbeef)+}
"
        );
        assert!(diff(OLD, &new).log.rewritten());
    }

    #[test]
    fn a_new_file_is_all_added() {
        let d = diff("", OLD);
        assert!(d.objective.as_ref().is_some_and(|c| c.old.is_none()));
        assert!(d.goals.iter().all(|g| g.change == GoalChange::Added));
        assert_eq!(d.log.added.len(), 2);
        assert!(!d.log.rewritten());
        assert!(
            plain("", OLD).starts_with("objective: {+Ship the cache layer+}\n\ncache-layer: added")
        );
    }

    #[test]
    fn archiving_is_shown() {
        let new = OLD.replace(
            "## Goal: Spike Redis\n<!-- id: spike -->\nstatus: open\n\n## Log\n- 2026-06-14 09:10 plan created\n- 2026-06-14 09:40 cache-layer started (contract 0123abcd)\n",
            "## Log\n- 2026-06-14 09:10 plan created\n- 2026-06-14 09:40 cache-layer started (contract 0123abcd)\n\n## Archive\n\n## Goal: Spike Redis\n<!-- id: spike -->\nstatus: cancelled\n",
        );
        assert_eq!(
            plain(OLD, &new),
            "spike: status open → cancelled\nspike: moved under ## Archive\n"
        );
    }

    #[test]
    fn contract_of_one_goal() {
        let old = parse(OLD);
        let new_src = OLD.replace("50ms", "80ms");
        let new = parse(&new_src);
        let d = ContractDiff::new(
            "cache-layer",
            old.goal("cache-layer"),
            new.goal("cache-layer"),
        );
        assert!(!d.is_empty());
        assert_eq!(
            d.render(Style::default()),
            "done_when: p95 < [-50ms-]{+80ms+} on bench-X
verify: cargo test
failure_modes:
- cache silently bypassed
- verify passes on a gamed test
"
        );
        let same = ContractDiff::new("spike", old.goal("spike"), new.goal("spike"));
        assert!(same.is_empty());
        let gone = ContractDiff::new("cache-layer", old.goal("cache-layer"), None);
        assert!(
            gone.render(Style::default())
                .starts_with("[-done_when: p95")
        );
    }

    #[test]
    fn colour_marks_words() {
        let new = OLD.replace("50ms", "80ms");
        let out = render(&diff(OLD, &new), &NAMES, Style { color: true });
        assert!(out.contains("\x1b[31m[-50ms-]\x1b[0m\x1b[32m{+80ms+}\x1b[0m"));
    }
}

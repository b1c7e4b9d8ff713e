//! The checks that find the rules of the table (rules.rs) in a plan: every hit
//! `plan lint`, `plan doctor`, the task list and draft checking report, each with
//! its message, hint and repair. Pure: a verify line's runnability is passed in.

use super::confusable;
use super::diag::{Diagnostic, Severity};
use super::event::Event;
use super::history;
use super::id;
use super::model::{Goal, LogEntry, Plan, Status};
use super::patch::Edit;
use super::proof::Proof;
use super::rules::Rule;
use super::text;

/// What `plan doctor --fix` would do about one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Repair {
    /// The command line's promise, e.g. "plan doctor --fix adds `status: open`".
    pub fix: String,
    /// What it did, for the report.
    pub done: String,
    pub edits: Vec<Edit>,
}

/// One rule found to hold against a plan (or a draft).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hit {
    pub rule: Rule,
    /// 1-based line; 0 for the whole file.
    pub line: usize,
    /// The status of the goal it is about; `None` for the whole file.
    pub status: Option<Status>,
    pub message: String,
    /// What to do about it by hand.
    pub hint: String,
    /// The short reason the task list shows.
    pub detail: Option<String>,
    pub repair: Option<Repair>,
}

impl Hit {
    fn new(rule: Rule, line: usize, message: String, hint: impl Into<String>) -> Hit {
        Hit {
            rule,
            line,
            status: None,
            message,
            hint: hint.into(),
            detail: None,
            repair: None,
        }
    }

    fn of(mut self, goal: &Goal<'_>) -> Hit {
        self.status = Some(goal.status());
        self
    }

    /// Its severity in plan.md, by the table; `None`: not reported.
    pub fn severity(&self) -> Option<Severity> {
        self.rule.in_plan(self.status.unwrap_or(Status::Open))
    }

    /// As a diagnostic with the severity `severity`.
    pub fn diagnostic(&self, severity: Severity) -> Diagnostic {
        let d = match severity {
            Severity::Error => Diagnostic::error(self.line, self.message.clone()),
            Severity::Warning => Diagnostic::warning(self.line, self.message.clone()),
        };
        let d = d.rule(self.rule);
        if self.hint.is_empty() {
            d
        } else {
            d.hint(self.hint.clone())
        }
    }
}

/// Why a verify line could not run, as (message, hint); `None` when it can. The
/// verify mini-language lives outside this pure core.
pub type VerifyCheck<'a> = &'a dyn Fn(&str) -> Option<(String, String)>;

/// A verify check that finds nothing wrong, for callers that do not run one.
pub fn any_verify(_: &str) -> Option<(String, String)> {
    None
}

/// Why a verify line that runs can never fail, or `None` when it can. The verify
/// mini-language lives outside this pure core.
pub type FailCheck<'a> = &'a dyn Fn(&str) -> Option<String>;

/// `verify-cannot-fail` for each live goal whose verify exits 0 whatever the
/// repository holds, as `why` finds it. Sorted by line.
pub fn cannot_fail(plan: &Plan<'_>, why: FailCheck<'_>) -> Vec<Hit> {
    let mut out = Vec::new();
    for goal in plan.live() {
        let (Some(field), Some(line)) = (&goal.verify, goal.verify()) else {
            continue;
        };
        if let Some(reason) = why(line) {
            out.push(
                Hit::new(
                    Rule::VerifyCannotFail,
                    field.line,
                    format!("the verify of \"{}\" cannot fail: {reason}", goal.id),
                    "run a check that fails until the goal is met: a test, a script that asserts",
                )
                .of(goal),
            );
        }
    }
    out
}

/// Every rule that holds against `plan`, before severities: its format errors,
/// the file, each live goal, each goal's proof, the log. Sorted by line.
pub fn check(plan: &Plan<'_>, verify: VerifyCheck<'_>) -> Vec<Hit> {
    let mut out: Vec<Hit> = plan.errors.iter().map(|d| format_hit(plan, d)).collect();
    if plan.objective.is_none() {
        out.push(Hit::new(
            Rule::NoObjective,
            0,
            "no `# Plan: <objective>` line".into(),
            "add one at the top: it is the first thing the agent reads",
        ));
    }
    if plan.log_heading.is_none() {
        let mut hit = Hit::new(
            Rule::NoLog,
            0,
            "no `## Log` section".into(),
            // A write adds none to a file with goals: that is what a cut leaves.
            match plan.goals.is_empty() {
                true => "`plan log TEXT` creates it; `plan doctor --fix` adds it",
                false => {
                    "`plan doctor --fix` adds it if the file is whole; if it was cut, it rebuilds the file from git and the writes plan journaled"
                }
            },
        );
        if plan.appends_safely() {
            hit.repair = Some(Repair {
                fix: "plan doctor --fix adds it".into(),
                done: "added `## Log`".into(),
                edits: vec![Edit::CreateLog],
            });
        } else {
            hit.hint = "fix the format errors first, then plan doctor --fix adds it".into();
        }
        out.push(hit);
    }
    for goal in plan.live() {
        bookkeeping(plan, goal, &mut out);
        contract(goal, &goal.id, verify, &mut out);
        unread_subtasks(plan, goal, &mut out);
        state(plan, goal, &mut out);
    }
    for goal in &plan.goals {
        proof(plan, goal, &mut out);
        unseen(plan, goal, &mut out);
    }
    for (id, line) in plan.orphans() {
        out.push(Hit::new(
            Rule::OrphanedId,
            line,
            format!("the log has events for \"{id}\", but no goal has that id (deleted or renamed by hand)"),
            format!("restore the goal, or put `<!-- id: {id} -->` back under its heading (git log -p plan.md shows where it went)"),
        ));
    }
    for entry in &plan.log {
        hidden_event(entry, &mut out);
    }
    for entry in plan.log.iter().filter(|e| e.stamp.is_none()) {
        out.push(Hit::new(
            Rule::UnstampedLogLine,
            entry.line,
            "log line without a `YYYY-MM-DD HH:MM` time".into(),
            "`plan log TEXT` writes stamped lines",
        ));
    }
    out.sort_by_key(|h| h.line);
    out
}

/// A log line that reads as one of plan's events only once its invisible characters
/// are gone and its look-alike letters read as the ASCII ones they pass for (a
/// Cyrillic `о` in `reopened`): plan reads something else (or nothing) where a
/// reviewer sees the event. Prose in any script folds to no event form, all of which
/// are English words after an id.
fn hidden_event(entry: &LogEntry<'_>, out: &mut Vec<Hit>) {
    if entry.text.is_ascii() && entry.stamp.is_none_or(str::is_ascii) {
        return;
    }
    let raw = match entry.stamp {
        Some(stamp) => format!("{stamp} {}", entry.text),
        None => entry.text.to_string(),
    };
    let hidden = |c: char| text::is_invisible(c) || confusable::odd_space(c);
    let cleaned = if raw.chars().any(hidden) {
        confusable::reviewed(&raw)
    } else {
        match confusable::fold(&raw) {
            std::borrow::Cow::Borrowed(_) => return,
            std::borrow::Cow::Owned(folded) => folded,
        }
    };
    let seen = super::model::log_entry(entry.line, &cleaned);
    if seen.stamp.is_none() && entry.stamp.is_some() {
        return;
    }
    let Some(event) = Event::parse(seen.text) else {
        return;
    };
    let read = Event::parse(entry.text).map(|e| confusable::reviewed(&e.render()));
    if read.as_deref() == Some(event.render().as_str()) {
        return;
    }
    let invisible: Vec<String> = raw
        .chars()
        .filter(|&c| hidden(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    let look_alike: Vec<String> = raw
        .chars()
        .filter_map(|c| {
            Some(format!(
                "U+{:04X} for `{}`",
                c as u32,
                confusable::ascii_for(c)?
            ))
        })
        .collect();
    let about = match event.id() {
        Some(id) => format!(" for \"{id}\""),
        None => String::new(),
    };
    let (but, hint) = match (invisible.is_empty(), look_alike.is_empty()) {
        (false, true) => (
            format!("invisible characters ({})", invisible.join(", ")),
            "delete the invisible characters if the event is real (it then counts), or delete the line; plan log never writes one",
        ),
        (true, _) => (
            format!("look-alike characters ({})", look_alike.join(", ")),
            "retype the look-alike characters in ASCII if the event is real (it then counts), or delete the line; plan log never writes one",
        ),
        (false, false) => (
            format!(
                "invisible characters ({}) and look-alike characters ({})",
                invisible.join(", "),
                look_alike.join(", ")
            ),
            "delete the invisible characters and retype the look-alike ones in ASCII if the event is real (it then counts), or delete the line; plan log never writes one",
        ),
    };
    out.push(Hit::new(
        Rule::HiddenEvent,
        entry.line,
        format!(
            "log line is plan's `{}` event{about} but for {but}: plan does not read it as that event, while it looks like one in git diff",
            event.name(),
        ),
        hint,
    ));
}

/// The rules the task list shows on `goal`, with their severity in plan.md.
pub fn flags(plan: &Plan<'_>, goal: &Goal<'_>) -> Vec<(Severity, Hit)> {
    let mut out = Vec::new();
    proof(plan, goal, &mut out);
    out.into_iter()
        .filter(|h| h.rule.spec().list)
        .filter_map(|h| Some((h.severity()?, h)))
        .collect()
}

/// A parser's format error as a hit; a near-miss status line comes with the
/// rewrite doctor can make when the status it means is clear.
fn format_hit(plan: &Plan<'_>, d: &Diagnostic) -> Hit {
    let goal = plan.goal_at(d.line);
    let mut hit = Hit {
        rule: d.rule.unwrap_or(Rule::UnclosedBlock),
        line: d.line,
        status: goal.map(Goal::status),
        message: d.message.clone(),
        hint: d.hint.clone().unwrap_or_default(),
        detail: None,
        repair: None,
    };
    if hit.rule == Rule::MalformedStatus
        && let Some(goal) = goal.filter(|g| g.status.is_none())
        && let Some(Some(status)) = super::model::status_near_miss(plan.line_text(d.line))
        && plan
            .errors_in(goal)
            .iter()
            .filter(|e| e.rule == Some(Rule::MalformedStatus))
            .count()
            == 1
    {
        let new = format!("status: {}", status.as_str());
        hit.repair = Some(Repair {
            fix: format!("plan doctor --fix rewrites it as `{new}`"),
            done: format!("rewrote line {} as `{new}`", d.line),
            edits: vec![Edit::replace(d.line, plan.line_text(d.line), new)],
        });
    }
    if hit.rule == Rule::UnknownStatus
        && let Some(status) = status_typo_repair(plan, d)
    {
        let new = format!("status: {}", status.as_str());
        hit.repair = Some(Repair {
            fix: format!("plan doctor --fix rewrites it as `{new}`"),
            done: format!("rewrote line {} as `{new}`", d.line),
            edits: vec![Edit::replace(d.line, plan.line_text(d.line), new)],
        });
    }
    hit
}

/// The status a one-edit misspelling on line `d.line` means, when doctor may write it.
pub(crate) fn status_typo_repair(plan: &Plan<'_>, d: &Diagnostic) -> Option<Status> {
    let (_, value) = plan.line_text(d.line).split_once(':')?;
    super::nearest::repairable_status_typo(value.trim())
}

/// Lines plan itself keeps: the id comment and the status line.
fn bookkeeping(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    let id = goal.id.as_ref();
    if goal.id_line.is_none() {
        let line = format!("<!-- id: {} -->", written_id(plan, goal));
        let mut hit = Hit::new(
            Rule::NoId,
            goal.line,
            format!("goal \"{id}\" has no id comment, so renaming its title changes its id"),
            format!("add `{line}` under the heading (the next command that writes to it does)"),
        )
        .of(goal);
        hit.repair = Some(Repair {
            fix: format!("plan doctor --fix adds `{line}` under the heading"),
            done: format!("added `{line}` under \"{}\"", goal.title),
            edits: vec![Edit::insert_after(
                goal.line,
                plan.line_text(goal.line),
                vec![line.clone()],
            )],
        });
        out.push(hit);
    }
    if id::mixes_scripts(id) {
        out.push(
            Hit::new(
                Rule::MixedScriptId,
                goal.id_line.unwrap_or(goal.line),
                format!(
                    "goal id \"{id}\" mixes Latin letters with look-alikes from another script ({})",
                    id::foreign_letters(id)
                ),
                "write the id in the letters of one script: a twin of it could pass for it in depends_on",
            )
            .of(goal),
        );
    }
    // A status line plan does not read is a format error of its own; adding a
    // second one would contradict it.
    let misread = plan
        .errors_in(goal)
        .iter()
        .any(|e| e.rule == Some(Rule::MalformedStatus));
    if goal.status.is_none() && !misread {
        let at = goal.id_line.unwrap_or(goal.line);
        let mut hit = Hit::new(
            Rule::NoStatus,
            goal.line,
            format!("goal \"{id}\" has no `status:` line; it counts as open"),
            "add `status: open`",
        )
        .of(goal);
        hit.repair = Some(Repair {
            fix: "plan doctor --fix adds `status: open`".into(),
            done: format!("added `status: open` to \"{}\"", goal.title),
            edits: vec![Edit::insert_after(
                at,
                plan.line_text(at),
                vec!["status: open".to_string()],
            )],
        });
        out.push(hit);
    }
}

/// Checklist items of `goal` plan does not read as subtasks: a tab or 4 spaces
/// before them (indented code), or `+` as their marker. Lines in a fence or a
/// comment are not looked at.
fn unread_subtasks(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    use super::scan::Kind;
    // Whether the line before (blank lines aside) is a list item: an indented
    // item under it is nested in it, where one after a paragraph or a blank line
    // is code or text quoted.
    let mut after_item = false;
    for no in goal.line + 1..=goal.end {
        let was_item = after_item;
        let text = plan.line_text(no).trim_end();
        if !text.is_empty() {
            let lead = text.trim_start();
            after_item = lead.starts_with(['-', '*', '+'])
                || ordered_marker(lead).is_some()
                || (was_item && text.len() > lead.len());
        }
        if plan.lines[no - 1].kind != Kind::Other {
            continue;
        }
        let line = plan.line_text(no).trim_end_matches(['\r', '\n']);
        let body = line.trim_start_matches([' ', '\t']);
        // A numbered item (`1. [ ] x`, `2) [ ] y`) is a checklist item too: not read,
        // since reading it would renumber `plan tick N`, so it is named here.
        let (marker, numbered) = match body.strip_prefix(['-', '*', '+']) {
            Some(rest) => (body.len() - rest.len(), false),
            None => match ordered_marker(body) {
                Some(len) => (len, true),
                None => continue,
            },
        };
        let rest = body[marker..].trim_start_matches([' ', '\t']);
        if rest.len() == body.len() - marker {
            continue;
        }
        let boxed = ["[ ]", "[x]", "[X]"].iter().any(|b| {
            rest.strip_prefix(b)
                .is_some_and(|after| after.is_empty() || after.starts_with([' ', '\t']))
        });
        if !boxed {
            continue;
        }
        let indent = &line[..line.len() - body.len()];
        let why = match indent.contains('\t') || indent.len() > 3 {
            true if !was_item => continue,
            true => "nested under the item above; plan counts items at the start of a line",
            false if numbered => "plan reads `- ` and `* ` items, not numbered ones",
            false => "plan reads `- ` and `* ` items, not `+ `",
        };
        let shown = text::escape_controls(line.trim_end()).replace('\t', "\\t");
        out.push(
            Hit::new(
                Rule::UnreadSubtask,
                no,
                format!(
                    "`{shown}` is not a subtask of goal \"{}\" ({why})",
                    goal.id
                ),
                "write it as `- [ ] text` at the start of the line (up to 3 spaces before it) so plan counts it and `plan tick` reaches it; if it is not a step, write it without the box",
            )
            .of(goal),
        );
    }
}

/// The length of a Markdown ordered-list marker at the start of `text` (`1.`,
/// `12)`: up to nine digits, then `.` or `)`), if it starts with one.
fn ordered_marker(text: &str) -> Option<usize> {
    let digits = text.bytes().take_while(u8::is_ascii_digit).count();
    let after = text.as_bytes().get(digits)?;
    ((1..=9).contains(&digits) && matches!(after, b'.' | b')')).then_some(digits + 1)
}

/// The id a goal without an id comment gets written: its own, unless an earlier
/// goal (or one whose comment names it) holds it; then the next free `ID-N`, each
/// goal giving way its own, so one repair resolves a title used twice.
fn written_id(plan: &Plan<'_>, goal: &Goal<'_>) -> String {
    let id = goal.id.as_ref();
    let kept = plan.goals.iter().any(|g| g.id == id && g.id_line.is_some());
    let before = plan
        .goals
        .iter()
        .filter(|g| g.id == id && g.id_line.is_none() && g.line < goal.line)
        .count();
    let give_way = before + usize::from(kept);
    if give_way == 0 {
        return id.to_string();
    }
    let mut taken: Vec<String> = plan.goals.iter().map(|g| g.id.to_string()).collect();
    let mut new = id.to_string();
    for _ in 0..give_way {
        new = id::unique(id, |c| taken.iter().any(|t| t == c));
        taken.push(new.clone());
    }
    new
}

/// The contract's quality, for a goal in plan.md or a drafted one; `name` is how
/// messages call the goal (its id, or a drafted goal's title).
pub fn contract(goal: &Goal<'_>, name: &str, verify: VerifyCheck<'_>, out: &mut Vec<Hit>) {
    if goal.done_when().is_none() {
        out.push(
            Hit::new(
                Rule::NoDoneWhen,
                goal.done_when.as_ref().map_or(goal.line, |f| f.line),
                format!("goal \"{name}\" has no done_when"),
                "say when it is done, in words a reviewer can check: `done_when: …`",
            )
            .of(goal),
        );
    }
    match goal.failure_modes.len() {
        0 => out.push(
            Hit::new(
                Rule::NoFailureModes,
                goal.line,
                format!("goal \"{name}\" has no failure modes"),
                "add `failure_modes:` with 2 or 3 `- ` items: how could it look done while being wrong?",
            )
            .of(goal),
        ),
        1 => out.push(
            Hit::new(
                Rule::FewFailureModes,
                goal.failure_modes_line.unwrap_or(goal.line),
                format!("goal \"{name}\" has one failure mode"),
                "2 or 3 make the sign-off judge look harder",
            )
            .of(goal),
        ),
        _ => {}
    }
    if let (Some(field), Some(line)) = (&goal.verify, goal.verify()) {
        if let Some((why, hint)) = verify(line) {
            let hint = if hint.is_empty() {
                "verify runs without a shell: words, quotes, `&&` and `|` only".to_string()
            } else {
                hint
            };
            out.push(
                Hit::new(
                    Rule::VerifyCannotRun,
                    field.line,
                    format!("the verify of \"{name}\" cannot run: {why}"),
                    hint,
                )
                .of(goal),
            );
        } else if !goal.failure_modes.is_empty() && !mentions_gaming(goal) {
            out.push(
                Hit::new(
                    Rule::NoGamingFailureMode,
                    goal.failure_modes_line.unwrap_or(goal.line),
                    format!("no failure mode of \"{name}\" says how verify could pass while the goal is not met"),
                    "e.g. `- verify passes on a trivial or gamed test`",
                )
                .of(goal),
            );
        }
    }
    if goal.subtasks.is_empty() {
        out.push(
            Hit::new(
                Rule::NoSubtasks,
                goal.line,
                format!("goal \"{name}\" has no subtasks"),
                "list the steps as `- [ ] …`",
            )
            .of(goal),
        );
    }
}

/// Words that suggest a failure mode is about verify passing while the goal is not met.
const GAMING_WORDS: [&str; 14] = [
    "verify", "test", "pass", "green", "gam", "trivial", "fake", "mock", "stub", "assert", "check",
    "bench", "hardcod", "hard-cod",
];

/// Does a failure mode say how verify could pass while the goal is not met?
pub fn mentions_gaming(goal: &Goal<'_>) -> bool {
    goal.failure_modes.iter().any(|mode| {
        let lower = mode.value.to_lowercase();
        GAMING_WORDS.iter().any(|w| lower.contains(w))
    })
}

/// Where an unfinished goal stands against the log and its dependencies.
fn state(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    if goal.status() != Status::Active {
        return;
    }
    let id = goal.id.as_ref();
    let now = goal.fingerprint();
    if let Some(logged) = plan.unapproved(goal) {
        out.push(
            Hit::new(
                Rule::ContractChanged,
                goal.line,
                format!(
                    "the contract of \"{id}\" changed since it was logged (contract {logged}, now {now})"
                ),
                format!(
                    "review the change (plan diff {id}, git log -p plan.md), then plan start {id} --reapprove"
                ),
            )
            .of(goal),
        );
    }
    // Unknown dependencies are format errors already.
    let waits: Vec<&str> = plan
        .unmet_dependencies(goal)
        .into_iter()
        .filter(|dep| plan.goal(dep).is_some())
        .collect();
    if !waits.is_empty() {
        let waits = waits.join(", ");
        let status_line = goal.status.as_ref().map_or(goal.line, |f| f.line);
        out.push(
            Hit::new(
                Rule::WaitingOnDependencies,
                goal.depends_line.unwrap_or(goal.line),
                format!("goal \"{id}\" is active but waits on {waits}"),
                format!(
                    "finish {waits} first (plan next lists what is ready), or set line {status_line} back to `status: open`"
                ),
            )
            .of(goal),
        );
    }
}

/// A finished goal's record, an archived goal that is not finished, and contract
/// changes approved without a terminal.
fn proof(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    let id = goal.id.as_ref();
    let line = goal.status.as_ref().map_or(goal.line, |f| f.line);
    let status = goal.status().as_str();
    match plan.proof(goal) {
        Proof::Unproven { why, hint } => out.push(Hit {
            detail: Some(why.clone()),
            ..Hit::new(
                Rule::Unproven,
                line,
                format!("goal \"{id}\" is {status} but unproven: {why}"),
                hint,
            )
            .of(goal)
        }),
        Proof::Proven { warnings, .. } => {
            for warning in warnings {
                out.push(Hit {
                    detail: Some(warning.clone()),
                    ..Hit::new(
                        Rule::WeakSignOff,
                        line,
                        format!("goal \"{id}\" was {warning}"),
                        // A checkpoint not fetched yet is no weakness of the sign-off:
                        // redoing it would be wrong, fetching is the whole fix.
                        if let Some((reference, commit)) = super::bind::moved_fix(&warning) {
                            format!(
                                "nothing to redo: the checkpoint its sign-off names is used; `git update-ref {reference} {commit}` points the ref back at it (the other clone keeps its own)"
                            )
                        } else if warning.contains("which this clone has not fetched") {
                            format!(
                                "nothing to redo: fetch it as the message says; if the remote has it no more (its ref deleted there), {}",
                                super::bind::GONE_HINT
                            )
                        } else {
                            format!("plan audit shows its record; to have a model judge it, reopen it and run plan complete {id} again")
                        },
                    )
                    .of(goal)
                });
            }
        }
        // Another tool's history, said as such by show and audit: not an error
        // (`audit --strict` fails one whose contract changed after the import).
        Proof::Imported { .. } => {}
        Proof::Unfinished if goal.archived => out.push(
            Hit::new(
                Rule::ArchivedUnfinished,
                line,
                format!("goal \"{id}\" is under `## Archive` but {status}"),
                "move it back above `## Log`, then finish it with plan complete or plan cancel",
            )
            .of(goal),
        ),
        Proof::Unfinished => {}
    }
}

/// Contract changes approved with no terminal attached, for goals not archived.
fn unseen(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    let id = goal.id.as_ref();
    let unseen = history::unseen_changes(&history::contract_steps(plan, id));
    if goal.archived || unseen.is_empty() {
        return;
    }
    let lines: Vec<String> = unseen.iter().map(usize::to_string).collect();
    out.push(
        Hit::new(
            Rule::ApprovedWithoutTerminal,
            unseen[0],
            format!(
                "the contract of \"{id}\" was changed after creation and approved without a terminal (log line {})",
                lines.join(", ")
            ),
            format!("review it (plan diff {id}); it stays listed until the goal is archived: an approval with a terminal attached is no proof a person saw it (anyone can type that line), so it does not clear this"),
        )
        .of(goal),
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    #[test]
    fn the_same_failure_mode_rule_holds_for_open_and_active_goals_only() {
        for (status, expected) in [
            ("open", Some(Severity::Warning)),
            ("active", Some(Severity::Warning)),
            ("done", None),
            ("cancelled", None),
        ] {
            let src = format!(
                "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: {status}\ndone_when: y\n## Log\n"
            );
            let plan = parse(&src);
            let hit = check(&plan, &any_verify)
                .into_iter()
                .find(|h| h.rule == Rule::NoFailureModes)
                .unwrap();
            assert_eq!(hit.severity(), expected, "{status}");
        }
    }

    #[test]
    fn a_near_miss_status_line_comes_with_its_rewrite() {
        let plan = parse("# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus active\n## Log\n");
        let hits = check(&plan, &any_verify);
        let rules: Vec<Rule> = hits.iter().map(|h| h.rule).collect();
        assert!(!rules.contains(&Rule::NoStatus), "{rules:?}");
        let hit = hits
            .iter()
            .find(|h| h.rule == Rule::MalformedStatus)
            .unwrap();
        assert_eq!(hit.line, 4);
        let repair = hit.repair.as_ref().unwrap();
        assert_eq!(
            repair.edits,
            [Edit::replace(4, "status active", "status: active")]
        );
        assert_eq!(plan.goals[0].status(), Status::Open);
    }
}

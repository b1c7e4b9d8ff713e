//! A goal's contract history as the log tells it: each logged contract, what
//! logged it and how it was approved. `plan show ID` lists it; the judge's prompt
//! and the sign-off transcript quote it. Pure: the text of an old contract comes
//! from git, which the caller reads.

use serde::Serialize;

use super::event::{Approval, Event};
use std::collections::HashMap;

use super::model::{LogEntry, Plan};

/// One logged contract of a goal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Step<'a> {
    /// The log line that recorded it.
    pub line: usize,
    pub stamp: Option<&'a str>,
    pub contract: &'a str,
    /// `created`, `started`, `changed` or `criterion`.
    pub kind: &'static str,
    /// The criterion a `plan subgoal` added.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub criterion: Option<&'a str>,
    /// `terminal` (one was attached), `no-terminal` or `unknown`, for changes; `None`
    /// otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<&'static str>,
    #[serde(skip)]
    approved: Option<Approval>,
}

impl Step<'_> {
    /// In words, e.g. `changed and approved without a terminal`.
    pub fn describe(&self) -> String {
        let how = self.approved.map(Approval::describe).unwrap_or_default();
        match (self.kind, self.criterion) {
            ("criterion", Some(text)) => format!("criterion \"{text}\" added, {how}"),
            ("changed", _) => format!("changed and {how}"),
            (kind, _) => kind.to_string(),
        }
    }

    /// A change of contract approved with no terminal attached: an agent's shell has
    /// none, so this is the change to look at.
    #[cfg(test)]
    pub fn without_terminal(&self) -> bool {
        self.approved == Some(Approval::NoTerminal)
    }
}

/// Every contract the log recorded for goal `id`, oldest first.
pub fn contract_steps<'a>(plan: &Plan<'a>, id: &str) -> Vec<Step<'a>> {
    plan.events(id)
        .filter_map(|(entry, event)| {
            let (kind, criterion, approved) = match event {
                Event::Added { .. } => ("created", None, None),
                Event::Started { .. } => ("started", None, None),
                Event::Reapproved { approval, .. } => ("changed", None, Some(approval)),
                Event::CriterionAdded { text, approval, .. } => {
                    ("criterion", Some(text), Some(approval))
                }
                _ => return None,
            };
            Some(Step {
                line: entry.line,
                stamp: entry.stamp,
                contract: event.contract()?,
                kind,
                criterion,
                approval: approved.map(|a| match a {
                    Approval::Terminal => "terminal",
                    Approval::NoTerminal => "no-terminal",
                    Approval::Unknown => "unknown",
                }),
                approved,
            })
        })
        .collect()
}

/// The log lines of changes approved without a terminal: what `plan show` and
/// `doctor` point at. A later approval with a terminal attached does not clear them:
/// anyone can type that line, and `script(1)` gives an agent a terminal, so it is no
/// sign that a person saw them.
pub fn unseen_changes(steps: &[Step<'_>]) -> Vec<usize> {
    steps
        .iter()
        .filter(|step| step.approved == Some(Approval::NoTerminal))
        .map(|step| step.line)
        .collect()
}

/// What happened to one of plan's own lines about a goal that an earlier version
/// of the file had: the log is append-only, so either is someone rewriting it,
/// perhaps to make an old sign-off count again (a reopen deleted or moved above it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rewrite<'t> {
    Removed {
        entry: &'t LogEntry<'t>,
        id: &'t str,
    },
    Moved {
        entry: &'t LogEntry<'t>,
        id: &'t str,
    },
}

impl<'t> Rewrite<'t> {
    pub fn entry(&self) -> &'t LogEntry<'t> {
        match *self {
            Rewrite::Removed { entry, .. } | Rewrite::Moved { entry, .. } => entry,
        }
    }

    /// The goal the line is about.
    pub fn id(&self) -> &'t str {
        match *self {
            Rewrite::Removed { id, .. } | Rewrite::Moved { id, .. } => id,
        }
    }

    pub fn describe(&self) -> &'static str {
        match self {
            Rewrite::Removed { .. } => "was removed since",
            Rewrite::Moved { .. } => "was moved since",
        }
    }
}

/// [`LogIndex::rewritten`] of one pair of versions.
#[cfg(test)]
pub fn rewritten_events<'t>(now: &Plan<'_>, then: &'t Plan<'t>) -> Vec<Rewrite<'t>> {
    LogIndex::new(now).rewritten(then)
}

/// `now`'s log, for checking many earlier versions against it
/// ([`LogIndex::rewritten`] for each): a search through every version of a long history builds the index
/// of `now`'s lines once, and not at all while each version's log is a prefix of
/// `now`'s (an append-only log's usual history).
pub struct LogIndex<'n> {
    now: &'n [LogEntry<'n>],
    at: std::cell::OnceCell<Places<'n>>,
    /// `now` logs a `plan doctor --fix` that removed exact copies of log lines: a
    /// copy an earlier version had is then no rewrite. Only a copy: the first of
    /// equal lines still has to be there, in its order.
    deduplicated: bool,
}

/// Where each (stamp, text) of a log is, by position in it.
type Places<'n> = HashMap<(Option<&'n str>, &'n str), Vec<usize>>;

impl<'n> LogIndex<'n> {
    pub fn new(now: &'n Plan<'n>) -> LogIndex<'n> {
        LogIndex {
            now: &now.log,
            at: std::cell::OnceCell::new(),
            deduplicated: now
                .log
                .iter()
                .any(|e| matches!(Event::parse(e.text), Some(Event::LogRepaired { .. }))),
        }
    }

    /// plan's own lines about goals in `then` (an earlier version of the file) that
    /// `now` lacks, or has in another order: `then`'s lines must appear in `now` in
    /// the order they had.
    pub fn rewritten<'t>(&self, then: &'t Plan<'t>) -> Vec<Rewrite<'t>> {
        let same = |a: &LogEntry<'_>, b: &LogEntry<'_>| a.stamp == b.stamp && a.text == b.text;
        if then.log.len() <= self.now.len()
            && then.log.iter().zip(self.now).all(|(a, b)| same(a, b))
        {
            return Vec::new();
        }
        let at = self.at.get_or_init(|| {
            let mut at: Places<'n> = HashMap::new();
            for (i, e) in self.now.iter().enumerate() {
                at.entry((e.stamp, e.text)).or_default().push(i);
            }
            at
        });
        let mut cursor = 0;
        let mut out = Vec::new();
        let mut before: std::collections::HashSet<(Option<&str>, &str)> = Default::default();
        for entry in &then.log {
            // A stamped line equal to one above it in the same version: a copy.
            let copy = entry.stamp.is_some() && !before.insert((entry.stamp, entry.text));
            let Some(id) = Event::parse(entry.text).and_then(|ev| ev.id()) else {
                continue;
            };
            let places = at
                .get(&(entry.stamp, entry.text))
                .map(Vec::as_slice)
                .unwrap_or_default();
            match places.iter().find(|&&p| p >= cursor) {
                Some(&p) => cursor = p + 1,
                None if copy && self.deduplicated => {}
                None if places.is_empty() => out.push(Rewrite::Removed { entry, id }),
                None => out.push(Rewrite::Moved { entry, id }),
            }
        }
        out
    }
}

/// Whether goal `id` was reopened after `line` (a line of its rewritten since it
/// was committed, stamped `stamp`) and signed off again since: the goal's standing
/// then rests on a reopen that is in place and a sign-off made after it, which is
/// what audit's hint for a rewritten line asks for. The reopen must be stamped
/// after the rewritten line and be another line than it, and the sign-off stamped
/// no earlier than the reopen: moving an old reopen above an old sign-off passes
/// neither test.
pub fn signed_off_anew(plan: &Plan<'_>, id: &str, stamp: &str, line: &str) -> bool {
    let mut reopen: Option<&str> = None;
    let mut anew = false;
    for (entry, event) in plan.events(id) {
        let Some(at) = entry.stamp else { continue };
        match event {
            Event::Reopened { .. } if at > stamp && entry.to_string() != line => {
                reopen = Some(at);
                anew = false;
            }
            Event::SignedOff { .. } => anew = reopen.is_some_and(|r| at >= r),
            _ => {}
        }
    }
    anew
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    #[test]
    fn lists_each_logged_contract_with_how_it_was_approved() {
        let src = "## Goal: A\n<!-- id: a -->\nstatus: active\n\n## Log\n\
- 2026-01-01 10:00 a added (contract 11111111)\n\
- 2026-01-01 10:01 a started (contract 11111111, at 0123456789abcdef0123456789abcdef01234567)\n\
- 2026-01-01 10:02 a note about nothing\n\
- 2026-01-01 10:03 a contract reapproved (contract 22222222, without a terminal)\n\
- 2026-01-01 10:04 a criterion added: fast (contract 33333333, at a terminal)\n\
- 2026-01-01 10:05 b added (contract 44444444)\n";
        let plan = parse(src);
        let steps = contract_steps(&plan, "a");
        let seen: Vec<(&str, String, bool)> = steps
            .iter()
            .map(|s| (s.contract, s.describe(), s.without_terminal()))
            .collect();
        assert_eq!(
            seen,
            [
                ("11111111", "created".to_string(), false),
                ("11111111", "started".to_string(), false),
                (
                    "22222222",
                    "changed and approved without a terminal".to_string(),
                    true
                ),
                (
                    "33333333",
                    "criterion \"fast\" added, approved with a terminal attached".to_string(),
                    false
                ),
            ]
        );
        assert_eq!(steps[2].line, 9);
        // A terminal attached at line 10 is no sign a person saw the change at line 9.
        assert_eq!(unseen_changes(&steps), [9]);
        assert_eq!(unseen_changes(&steps[..3]), [9]);
        assert_eq!(steps[2].stamp, Some("2026-01-01 10:03"));
        // Drop the reapproval and a free-form line: only plan's own line counts as lost.
        let now = src
            .replace("- 2026-01-01 10:02 a note about nothing\n", "")
            .replace(
                "- 2026-01-01 10:03 a contract reapproved (contract 22222222, without a terminal)\n",
                "",
            );
        let lost = rewritten_events(&parse(&now), &plan);
        assert_eq!(lost.len(), 1);
        assert!(matches!(lost[0], Rewrite::Removed { entry, id: "a" } if entry.line == 9));
        // Two of plan's lines swapped: the later one is out of place.
        let swapped = src.replace(
            "- 2026-01-01 10:01 a started (contract 11111111, at 0123456789abcdef0123456789abcdef01234567)\n- 2026-01-01 10:02 a note about nothing\n- 2026-01-01 10:03 a contract reapproved (contract 22222222, without a terminal)\n",
            "- 2026-01-01 10:03 a contract reapproved (contract 22222222, without a terminal)\n- 2026-01-01 10:02 a note about nothing\n- 2026-01-01 10:01 a started (contract 11111111, at 0123456789abcdef0123456789abcdef01234567)\n",
        );
        assert_ne!(swapped, src);
        let moved = rewritten_events(&parse(&swapped), &plan);
        assert_eq!(moved.len(), 1, "{moved:?}");
        assert!(matches!(moved[0], Rewrite::Moved { .. }));
        assert!(rewritten_events(&plan, &plan).is_empty());
    }

    #[test]
    fn one_index_checks_many_versions_as_each_check_alone_would() {
        let line = |n: u32, what: &str| format!("- 2026-01-01 10:{n:02} {what}\n");
        let head = "## Goal: A\n<!-- id: a -->\nstatus: active\n## Log\n";
        let (one, two, three) = (
            line(1, "a added (contract 11111111)"),
            line(2, "a reopened: again"),
            line(3, "a note"),
        );
        let started = line(
            0,
            "a started (contract 11111111, at 0123456789abcdef0123456789abcdef01234567)",
        );
        let texts = [
            format!("{head}{one}{three}"),
            // A prefix of now's log; one with a line dropped since; one in
            // another order; one with a line before all of now's.
            format!("{head}{one}"),
            format!("{head}{one}{two}{three}"),
            format!("{head}{three}{one}"),
            format!("{head}{started}{one}"),
        ];
        let [now, prefix, dropped, swapped, moved] = texts.each_ref().map(|t| parse(t));
        let index = LogIndex::new(&now);
        for then in [&prefix, &dropped, &swapped, &moved, &now] {
            assert_eq!(index.rewritten(then), rewritten_events(&now, then));
        }
        assert!(index.rewritten(&prefix).is_empty());
        assert!(matches!(
            index.rewritten(&dropped)[..],
            [Rewrite::Removed { id: "a", .. }]
        ));
        assert!(matches!(
            index.rewritten(&moved)[..],
            [Rewrite::Removed { id: "a", .. }]
        ));
    }

    #[test]
    fn a_logged_repair_forgives_removed_copies_and_nothing_else() {
        let head = "## Goal: A\n<!-- id: a -->\nstatus: done\n## Log\n";
        let signed = "- 2026-01-01 10:00 a signed off (no verify, judge skipped, contract 11111111): .plan/judge/a.md#0123456789ab\n";
        let reopened = "- 2026-01-01 10:05 a reopened: again\n";
        let repaired = "- 2026-01-01 11:00 log repaired: removed 1 duplicated line\n";
        // What `merge=union` made of two branches that both had the sign-off.
        let merged = format!("{head}{signed}{reopened}{signed}");
        let then = parse(&merged);
        // Without the repair logged, the removed copy is a rewrite.
        let bare = format!("{head}{signed}{reopened}");
        assert!(matches!(
            rewritten_events(&parse(&bare), &then)[..],
            [Rewrite::Moved { id: "a", .. }]
        ));
        let fixed = format!("{head}{signed}{reopened}{repaired}");
        assert_eq!(rewritten_events(&parse(&fixed), &then), []);
        // Keeping the later copy instead moves the reopen above the sign-off: the
        // reopen is still a rewrite, repair or not.
        let laundered = format!("{head}{reopened}{signed}{repaired}");
        assert!(matches!(
            rewritten_events(&parse(&laundered), &then)[..],
            [Rewrite::Moved { entry, .. }] if entry.text.contains("reopened")
        ));
        // A line that was no copy, removed: still a rewrite.
        let lost = format!("{head}{signed}{repaired}");
        assert!(matches!(
            rewritten_events(&parse(&lost), &then)[..],
            [Rewrite::Removed { entry, .. }] if entry.text.contains("reopened")
        ));
    }
}

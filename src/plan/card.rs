//! One goal in full, for `plan show ID`: its contract, subtasks, dependencies both
//! ways, standing, its own log lines and how its contract changed since creation.
//! Pure: the first contract's text comes from git, which the caller reads.

use std::fmt::Write;

use serde::Serialize;

use super::history::{self, Step};
use super::model::{Goal, LogEntry, Plan};
use super::proof::Proof;
use super::render::{GoalView, Style, goal_view};
use super::text::escape_controls as esc;
use super::wdiff;
use super::weakened::Finding;

#[derive(Serialize)]
pub struct Card<'p> {
    #[serde(flatten)]
    pub goal: GoalView<'p>,
    pub file: &'p str,
    /// Goals that depend on this one.
    pub needed_by: Vec<Link<'p>>,
    /// The goal's own log lines.
    pub log: Vec<&'p LogEntry<'p>>,
    /// Every contract the log recorded for it, oldest first.
    pub history: Vec<Step<'p>>,
    /// Log lines of changes approved without a terminal.
    pub unseen_changes: Vec<usize>,
    /// The contract the log approved last, when the file's differs from it: a
    /// change nobody approved yet.
    pub unapproved: Option<&'p str>,
    /// From the first logged contract to the current one, when they differ.
    pub change: Option<Change>,
    /// Test files weakened and verify files changed since the goal started, each
    /// `{path, what}`: for a done goal as its sign-off recorded them, for an open or
    /// active one as they are now. `None` when not known (no repository, a
    /// cancelled goal, a transcript from before the check). Filled by the caller.
    pub weakened_tests: Option<Vec<Finding>>,
    /// The parts of `weakened_tests`, each `{kind, confidence, file, line, text}`
    /// ([`super::weakened::kinds`]); `None` when those are not known.
    pub findings: Option<Vec<super::weakened::kinds::Shown>>,
    /// Why its verify can never fail (`verify-cannot-fail`). Filled by the caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_cannot_fail: Option<String>,
    /// Its verify passed when the goal started and nothing it rests on changed
    /// since (`verify-green-at-start`), worded. Filled by the caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_green_at_start: Option<String>,
}

/// Another goal, with its standing.
#[derive(Serialize)]
pub struct Link<'p> {
    pub id: &'p str,
    pub status: &'static str,
    /// `unfinished`, `proven` or `unproven`.
    pub proof: &'static str,
}

#[derive(Serialize)]
pub struct Change {
    pub from: String,
    pub to: String,
    /// Word by word, `[-removed-]{+added+}`; `None` when the first contract's text
    /// is not in plan.md's git history.
    pub diff: Option<String>,
}

fn link<'p>(plan: &Plan<'_>, id: &'p str) -> Link<'p> {
    match plan.goal(id) {
        Some(goal) => Link {
            id,
            status: goal.status().as_str(),
            proof: proof_state(&plan.proof(goal)),
        },
        None => Link {
            id,
            status: "missing",
            proof: "unfinished",
        },
    }
}

fn proof_state(proof: &Proof) -> &'static str {
    match proof {
        Proof::Unfinished => "unfinished",
        Proof::Proven { .. } => "proven",
        Proof::Unproven { .. } => "unproven",
        Proof::Imported { .. } => "imported",
    }
}

/// The card of `goal`. `first_text` answers the text of a contract by its
/// fingerprint (from git), for the word diff since creation.
pub fn card<'p>(
    plan: &'p Plan<'p>,
    goal: &'p Goal<'p>,
    file: &'p str,
    first_text: &dyn Fn(&str) -> Option<String>,
) -> Card<'p> {
    let id = goal.id.as_ref();
    let history = history::contract_steps(plan, id);
    let unseen_changes = history::unseen_changes(&history);
    let now = goal.fingerprint();
    let unapproved = plan.unapproved(goal);
    let change = history
        .first()
        .filter(|first| first.contract != now)
        .map(|first| Change {
            from: first.contract.to_string(),
            to: now.clone(),
            diff: first_text(first.contract)
                .map(|old| wdiff::line_word_diff(&old, &goal.contract(), Style::default())),
        });
    Card {
        goal: goal_view(plan, goal),
        file,
        needed_by: plan
            .goals
            .iter()
            .filter(|g| g.depends_on.contains(&id))
            .map(|g| link(plan, &g.id))
            .collect(),
        log: plan.history(id).collect(),
        history,
        unseen_changes,
        unapproved,
        change,
        weakened_tests: None,
        findings: None,
        verify_cannot_fail: None,
        verify_green_at_start: None,
    }
}

/// The card as text.
pub fn render(plan: &Plan<'_>, goal: &Goal<'_>, card: &Card<'_>, style: Style) -> String {
    let mut out = String::new();
    let g = &card.goal;
    writeln!(out, "{}  {}", style.bold(&esc(g.title)), style.dim(g.id)).unwrap();
    let mut facts = vec![style.status(g.status, g.status.as_str())];
    if g.archived {
        facts.push("archived".to_string());
    }
    if g.progress.total > 0 {
        facts.push(format!("{}/{} subtasks", g.progress.done, g.progress.total));
    }
    facts.push(style.dim(&format!("{}:{}", card.file, g.line)));
    writeln!(out, "{}", facts.join(" · ")).unwrap();

    match plan.proof(goal) {
        Proof::Unfinished => {}
        Proof::Proven { warnings, by_ci } => {
            let mut line = format!("proof: {}", style.paint("32", "proven"));
            if let Some(run) = by_ci {
                line.push_str(&format!(" (judged again by CI, run {})", esc(&run)));
            }
            if !warnings.is_empty() {
                line.push_str(&style.dim(&format!(" ({})", warnings.join("; "))));
            }
            writeln!(out, "{line}").unwrap();
        }
        Proof::Unproven { why, hint } => {
            writeln!(
                out,
                "proof: {}",
                style.warn(&format!("⚠ unproven: {}", esc(&why)))
            )
            .unwrap();
            writeln!(out, "  hint: {}", esc(&hint)).unwrap();
        }
        proof @ Proof::Imported { .. } => {
            let label = proof.imported_label().unwrap_or_default();
            writeln!(out, "proof: {}", esc(&label)).unwrap();
            if let Some(changed) = proof.why() {
                writeln!(out, "  {}", style.warn(&format!("⚠ {}", esc(changed)))).unwrap();
            }
            writeln!(out, "  hint: `plan complete {}` signs it off here", goal.id).unwrap();
        }
    }

    if let Some(found) = card.weakened_tests.as_ref().filter(|f| !f.is_empty()) {
        writeln!(
            out,
            "{}",
            style.warn("⚠ weakened tests since the goal started:")
        )
        .unwrap();
        for finding in found {
            writeln!(out, "  {}", esc(&super::weakened::kinds::tagged(finding))).unwrap();
        }
    }

    if let Some(why) = &card.verify_cannot_fail {
        let text = format!("⚠ verify cannot fail: {why} [verify-cannot-fail]");
        writeln!(out, "{}", style.warn(&esc(&text))).unwrap();
    }
    if let Some(green) = &card.verify_green_at_start {
        let text = format!("⚠ {green} [verify-green-at-start]");
        writeln!(out, "{}", style.warn(&esc(&text))).unwrap();
    }

    out.push('\n');
    writeln!(out, "done_when: {}", esc(g.done_when.unwrap_or("(none)"))).unwrap();
    writeln!(out, "verify: {}", esc(g.verify.unwrap_or("(none)"))).unwrap();
    if g.failure_modes.is_empty() {
        writeln!(out, "failure_modes: (none)").unwrap();
    } else {
        writeln!(out, "failure_modes:").unwrap();
        for mode in &g.failure_modes {
            writeln!(out, "- {}", esc(mode)).unwrap();
        }
    }
    if let Some(budget) = g.budget {
        writeln!(out, "budget: {budget} continuations in the work loop").unwrap();
    }

    if !g.subtasks.is_empty() {
        writeln!(out, "\nsubtasks:").unwrap();
        for task in &g.subtasks {
            let mark = if task.done { "[x]" } else { "[ ]" };
            writeln!(out, "{mark} {}. {}", task.n, esc(task.text)).unwrap();
        }
    }

    let deps: Vec<Link<'_>> = g.depends_on.iter().map(|d| link(plan, d)).collect();
    if !deps.is_empty() || !card.needed_by.is_empty() {
        out.push('\n');
    }
    if !deps.is_empty() {
        writeln!(out, "depends on: {}", links(&deps)).unwrap();
    }
    if !card.needed_by.is_empty() {
        writeln!(out, "needed by: {}", links(&card.needed_by)).unwrap();
    }

    writeln!(out, "\ncontract {}", g.contract).unwrap();
    if let Some(logged) = card.unapproved {
        writeln!(
            out,
            "{}",
            style.warn(&format!(
                "⚠ changed since the log approved contract {logged}; `plan diff {}` shows the change, `plan start {} --reapprove` approves it",
                g.id, g.id
            ))
        )
        .unwrap();
    }
    if card.history.is_empty() {
        writeln!(
            out,
            "{}",
            style.dim("(no contract logged: written by hand)")
        )
        .unwrap();
    }
    for step in &card.history {
        let mut line = format!(
            "- {} {}, contract {} (log line {})",
            step.stamp.unwrap_or("(no time)"),
            esc(&step.describe()),
            step.contract,
            step.line
        );
        if card.unseen_changes.contains(&step.line) {
            line = style.warn(&format!("{line} ⚠"));
        }
        writeln!(out, "{line}").unwrap();
    }
    if let Some(change) = &card.change {
        match &change.diff {
            Some(diff) => {
                writeln!(
                    out,
                    "change since creation ({} → {}), word by word:",
                    change.from, change.to
                )
                .unwrap();
                for line in diff.lines() {
                    writeln!(out, "  {}", esc(line)).unwrap();
                }
            }
            None => writeln!(
                out,
                "changed since creation ({} → {}); the first contract's text is not in {}'s git history",
                change.from, change.to, card.file
            )
            .unwrap(),
        }
    }

    if !card.log.is_empty() {
        writeln!(out, "\nlog:").unwrap();
        for entry in &card.log {
            writeln!(out, "- {}", esc(&entry.to_string())).unwrap();
        }
    }
    out
}

fn links(links: &[Link<'_>]) -> String {
    links
        .iter()
        .map(|l| match l.proof {
            "unfinished" => format!("{} ({})", esc(l.id), l.status),
            proof => format!("{} ({}, {proof})", esc(l.id), l.status),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const SRC: &str = "## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: fast\n\
## Goal: B\n<!-- id: b -->\nstatus: open\ndepends_on: a, gone\n\n## Log\n\
- 2026-01-01 10:00 a added (contract 11111111)\n- 2026-01-01 10:01 a looked at it\n";

    #[test]
    fn names_dependants_and_missing_dependencies() {
        let plan = parse(SRC);
        let a = plan.goal("a").unwrap();
        let card = card(&plan, a, "plan.md", &|_| Some("done_when: slow\n".into()));
        assert_eq!(card.needed_by.len(), 1);
        assert_eq!(card.needed_by[0].id, "b");
        assert_eq!(card.log.len(), 2);
        // The file's contract is not the one the log approved.
        assert_eq!(card.unapproved, Some("11111111"));
        let diff = card.change.as_ref().unwrap().diff.as_deref().unwrap();
        assert!(diff.contains("[-slow-]{+fast+}"), "{diff}");
        let b = plan.goal("b").unwrap();
        let text = render(
            &plan,
            b,
            &super::card(&plan, b, "plan.md", &|_| None),
            Style::default(),
        );
        assert!(
            text.contains("depends on: a (active), gone (missing)"),
            "{text}"
        );
        assert!(
            text.contains("(no contract logged: written by hand)"),
            "{text}"
        );
    }
}

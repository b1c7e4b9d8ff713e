//! What people read: the task-list widget, `plan next`, and the JSON views. Pure.

use std::fmt::Write;

use serde::Serialize;
use unicode_width::UnicodeWidthStr;

use super::checks;
use super::diag::{Diagnostic, Severity};
use super::model::{Goal, LogEntry, Plan, Status};
use super::proof::Proof;
use super::text::escape_controls as esc;

#[derive(Clone, Copy, Debug, Default)]
pub struct Style {
    pub color: bool,
}

impl Style {
    pub fn paint(self, code: &str, text: &str) -> String {
        if self.color {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    pub fn bold(self, t: &str) -> String {
        self.paint("1", t)
    }
    pub fn dim(self, t: &str) -> String {
        self.paint("2", t)
    }
    pub fn warn(self, t: &str) -> String {
        self.paint("33", t)
    }
    pub fn status(self, status: Status, t: &str) -> String {
        match status {
            Status::Active => self.paint("1;36", t),
            Status::Open => self.bold(t),
            Status::Done => self.paint("32", t),
            Status::Cancelled => self.dim(t),
        }
    }
}

const ORDER: [Status; 4] = [
    Status::Active,
    Status::Open,
    Status::Done,
    Status::Cancelled,
];

/// The task-list widget: goals grouped by status, active first, each with its
/// subtask boxes; finished goals collapsed unless `all`.
pub fn widget(plan: &Plan<'_>, all: bool, style: Style) -> String {
    let mut out = String::new();
    match &plan.objective {
        Some(o) => writeln!(out, "{}", style.bold(&format!("Plan: {}", esc(o.value)))).unwrap(),
        None => writeln!(out, "{}", style.bold("Plan")).unwrap(),
    }
    let live: Vec<&Goal<'_>> = plan.live().collect();
    if live.is_empty() && (!all || plan.goals.is_empty()) {
        out.push_str("\nno goals yet · plan add TITLE\n");
        return out;
    }
    let width = live.iter().map(|g| columns(&g.id)).max().unwrap_or(0);
    let mut hidden = [0usize; 4];
    for status in ORDER {
        let goals: Vec<&&Goal<'_>> = live.iter().filter(|g| g.status() == status).collect();
        let collapsed = status.is_finished() && !all;
        let shown: Vec<&&Goal<'_>> = goals
            .iter()
            .copied()
            .filter(|g| !collapsed || flagged(plan, g))
            .collect();
        hidden[status as usize] = goals.len() - shown.len();
        if shown.is_empty() {
            continue;
        }
        writeln!(out, "\n{}", style.status(status, status.as_str())).unwrap();
        for goal in shown {
            goal_lines(&mut out, plan, goal, width, !collapsed, style);
        }
    }
    if all && plan.archive_heading.is_some() {
        let archived: Vec<&Goal<'_>> = plan.goals.iter().filter(|g| g.archived).collect();
        if !archived.is_empty() {
            writeln!(out, "\n{}", style.dim("archived")).unwrap();
            let width = archived.iter().map(|g| columns(&g.id)).max().unwrap_or(0);
            for goal in archived {
                let mut line = format!(
                    "  {}  {}  {}",
                    style.dim(&pad(&goal.id, width)),
                    esc(goal.title),
                    style.dim(goal.status().as_str())
                );
                // Moved there by hand, an unproven goal is no less remaining work.
                error_marks(&mut line, plan, goal, style);
                writeln!(out, "{line}").unwrap();
            }
        }
    }
    let (done, cancelled) = (
        hidden[Status::Done as usize],
        hidden[Status::Cancelled as usize],
    );
    if done + cancelled > 0 {
        let mut parts = Vec::new();
        if done > 0 {
            parts.push(format!("{done} done"));
        }
        if cancelled > 0 {
            parts.push(format!("{cancelled} cancelled"));
        }
        writeln!(
            out,
            "\n{}",
            style.dim(&format!("{} hidden · plan show --all", parts.join(", ")))
        )
        .unwrap();
    }
    if let Some(last) = plan.log.last() {
        writeln!(
            out,
            "\n{}",
            style.dim(&format!("last: {}", esc(&last.to_string())))
        )
        .unwrap();
    }
    out
}

/// A goal an error of the task list's rules holds against (a finished goal without
/// its record) stays visible even when collapsed.
fn flagged(plan: &Plan<'_>, goal: &Goal<'_>) -> bool {
    checks::flags(plan, goal)
        .iter()
        .any(|(severity, _)| *severity == Severity::Error)
}

/// Appends `⚠ rule: detail` for each of the task list's errors on `goal`; returns
/// all its flags.
fn error_marks(
    line: &mut String,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    style: Style,
) -> Vec<(Severity, checks::Hit)> {
    let flags = checks::flags(plan, goal);
    for (_, hit) in flags.iter().filter(|(s, _)| *s == Severity::Error) {
        line.push_str(&format!(
            "  {}",
            style.warn(&format!("⚠ {}: {}", hit.rule.id(), esc(&detail(hit))))
        ));
    }
    flags
}

fn detail(h: &checks::Hit) -> String {
    h.detail.clone().unwrap_or_else(|| h.message.clone())
}

fn goal_lines(
    out: &mut String,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    width: usize,
    subtasks: bool,
    style: Style,
) {
    let (done, total) = goal.progress();
    let mut line = format!(
        "  {}  {}",
        style.status(goal.status(), &pad(&goal.id, width)),
        esc(goal.title)
    );
    if total > 0 {
        line.push_str(&format!("  {}", style.dim(&format!("{done}/{total}"))));
    }
    let unmet = plan.unmet_dependencies(goal);
    if !unmet.is_empty() && !goal.status().is_finished() {
        line.push_str(&format!(
            "  {}",
            style.dim(&format!("waits on {}", esc(&unmet.join(", "))))
        ));
    }
    // The task list's rules: an error is marked, warnings are noted quietly.
    let flags = error_marks(&mut line, plan, goal, style);
    let notes: Vec<String> = flags
        .iter()
        .filter(|(s, _)| *s == Severity::Warning)
        .map(|(_, h)| esc(&detail(h)).into_owned())
        .collect();
    if !notes.is_empty() {
        line.push_str(&format!(
            "  {}",
            style.dim(&format!("({})", notes.join("; ")))
        ));
    }
    writeln!(out, "{line}").unwrap();
    if subtasks {
        let indent = " ".repeat(width + 4);
        for task in &goal.subtasks {
            let mark = if task.done { "[x]" } else { "[ ]" };
            let text = if task.done {
                style.dim(&esc(task.text))
            } else {
                esc(task.text).into_owned()
            };
            writeln!(out, "{indent}{mark} {text}").unwrap();
        }
    }
}

/// Columns a terminal gives `text`: a CJK character or most emoji take two.
fn columns(text: &str) -> usize {
    UnicodeWidthStr::width(text)
}

fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(columns(text))))
}

/// `plan next`: goals that can be worked now, one line each.
pub fn next(plan: &Plan<'_>, style: Style) -> String {
    next_among(plan.workable().collect(), style)
}

/// [`next`] for some of the workable goals: those another session holds are left
/// out.
pub fn next_among(goals: Vec<&Goal<'_>>, style: Style) -> String {
    if goals.is_empty() {
        return "nothing to work on: every goal is done, cancelled or waiting on another\n"
            .to_string();
    }
    let width = goals.iter().map(|g| columns(&g.id)).max().unwrap_or(0);
    let mut out = String::new();
    for goal in goals {
        let (done, total) = goal.progress();
        let mut line = format!(
            "{}  {:<6}  {}",
            style.status(goal.status(), &pad(&goal.id, width)),
            goal.status().as_str(),
            esc(goal.title)
        );
        if total > 0 {
            line.push_str(&format!("  {done}/{total}"));
        }
        if let Some(task) = goal.next_subtask() {
            line.push_str(&format!(
                "  {}",
                style.dim(&format!("next: {}", esc(task.text)))
            ));
        }
        writeln!(out, "{line}").unwrap();
    }
    out
}

#[derive(Serialize)]
pub struct PlanView<'p> {
    pub objective: Option<&'p str>,
    pub goals: Vec<GoalView<'p>>,
    pub log: &'p [LogEntry<'p>],
    pub errors: &'p [Diagnostic],
}

#[derive(Serialize)]
pub struct GoalView<'p> {
    pub id: &'p str,
    pub title: &'p str,
    pub status: Status,
    pub line: usize,
    pub has_id_comment: bool,
    pub archived: bool,
    pub done_when: Option<&'p str>,
    pub verify: Option<&'p str>,
    pub depends_on: &'p [&'p str],
    pub unmet_dependencies: Vec<&'p str>,
    pub failure_modes: Vec<&'p str>,
    /// Its `budget:` line: continuations the work loop may spend on it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub budget: Option<u32>,
    pub subtasks: Vec<SubtaskView<'p>>,
    pub progress: Progress,
    /// Done or cancelled, and backed by its record.
    pub signed_off: bool,
    pub proof: ProofView,
    pub contract: String,
}

/// A goal's standing, for `--json`.
#[derive(Serialize)]
pub struct ProofView {
    /// `unfinished`, `proven`, `unproven` or `imported` (`why`: how it reads,
    /// `done (imported from FILE, not signed off by plan)`; `hint`: a change of
    /// its contract since the import, if any).
    pub state: &'static str,
    pub why: Option<String>,
    pub hint: Option<String>,
    pub warnings: Vec<String>,
    /// The CI run whose own model judge accepted the sign-off again (a
    /// `ci_judged` line the workflow's update job wrote after the merge).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged_again_by_ci: Option<String>,
}

impl From<Proof> for ProofView {
    fn from(proof: Proof) -> ProofView {
        match proof {
            Proof::Unfinished => ProofView {
                state: "unfinished",
                why: None,
                hint: None,
                warnings: Vec::new(),
                judged_again_by_ci: None,
            },
            Proof::Proven { warnings, by_ci } => ProofView {
                state: "proven",
                why: None,
                hint: None,
                warnings,
                judged_again_by_ci: by_ci,
            },
            Proof::Unproven { why, hint } => ProofView {
                state: "unproven",
                why: Some(why),
                hint: Some(hint),
                warnings: Vec::new(),
                judged_again_by_ci: None,
            },
            proof @ Proof::Imported { .. } => ProofView {
                state: "imported",
                why: proof.imported_label(),
                hint: proof.why().map(str::to_string),
                warnings: Vec::new(),
                judged_again_by_ci: None,
            },
        }
    }
}

#[derive(Serialize)]
pub struct SubtaskView<'p> {
    pub n: usize,
    pub text: &'p str,
    pub done: bool,
    pub line: usize,
}

#[derive(Serialize)]
pub struct Progress {
    pub done: usize,
    pub total: usize,
}

pub fn goal_view<'p>(plan: &'p Plan<'p>, goal: &'p Goal<'p>) -> GoalView<'p> {
    let (done, total) = goal.progress();
    GoalView {
        id: &goal.id,
        title: goal.title,
        status: goal.status(),
        line: goal.line,
        has_id_comment: goal.id_line.is_some(),
        archived: goal.archived,
        done_when: goal.done_when(),
        verify: goal.verify(),
        depends_on: &goal.depends_on,
        unmet_dependencies: plan.unmet_dependencies(goal),
        failure_modes: goal.failure_modes.iter().map(|f| f.value).collect(),
        budget: goal.budget(),
        subtasks: goal
            .subtasks
            .iter()
            .enumerate()
            .map(|(i, s)| SubtaskView {
                n: i + 1,
                text: s.text,
                done: s.done,
                line: s.line,
            })
            .collect(),
        progress: Progress { done, total },
        signed_off: plan.proof(goal).is_proven(),
        proof: plan.proof(goal).into(),
        contract: goal.fingerprint(),
    }
}

pub fn plan_view<'p>(plan: &'p Plan<'p>) -> PlanView<'p> {
    PlanView {
        objective: plan.objective.as_ref().map(|o| o.value),
        goals: plan.goals.iter().map(|g| goal_view(plan, g)).collect(),
        log: &plan.log,
        errors: &plan.errors,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const SRC: &str = "# Plan: Ship it
## Goal: Build
<!-- id: build -->
status: active
- [x] one
- [ ] two
## Goal: Docs
<!-- id: docs -->
status: open
depends_on: build
## Goal: Old
<!-- id: old -->
status: done
## Goal: Hand ticked
<!-- id: hand -->
status: done
## Goal: Dropped
<!-- id: dropped -->
status: cancelled
## Log
- 2026-01-01 09:00 dropped cancelled: not needed
- 2026-01-01 10:00 old signed off (verify passed, judge accept)
";

    fn proved(src: &str) -> Plan<'_> {
        let mut plan = parse(src);
        plan.prove_legacy();
        plan
    }

    #[test]
    fn widget_groups_collapses_and_flags() {
        let out = widget(&proved(SRC), false, Style::default());
        assert_eq!(
            out,
            "Plan: Ship it

active
  build    Build  1/2
           [x] one
           [ ] two

open
  docs     Docs  waits on build

done
  hand     Hand ticked  ⚠ unproven: marked done by hand: the log has no sign-off for it

1 done, 1 cancelled hidden · plan show --all

last: 2026-01-01 10:00 old signed off (verify passed, judge accept)
"
        );
    }

    #[test]
    fn widget_all_shows_finished_goals() {
        let out = widget(&proved(SRC), true, Style::default());
        assert!(out.contains("  old      Old\n"));
        assert!(out.contains("cancelled\n  dropped  Dropped\n"));
        assert!(!out.contains("hidden"));
    }

    #[test]
    fn colour_only_when_asked() {
        assert!(!widget(&parse(SRC), false, Style::default()).contains('\x1b'));
        assert!(widget(&parse(SRC), false, Style { color: true }).contains("\x1b[1;36m"));
    }

    #[test]
    fn next_lists_workable_goals() {
        assert_eq!(
            next(&parse(SRC), Style::default()),
            "build  active  Build  1/2  next: two\n"
        );
    }
}

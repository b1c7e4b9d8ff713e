//! What the host agent reads: the injection block, the compaction skeleton, the
//! reminder, the continuation and the status line. Fixed shape, no clock, bounded
//! size: the same plan gives the same bytes. Pure.

use serde::{Deserialize, Serialize};

use super::bound::{self, MAX_BLOCK, MAX_SKELETON, id};
use super::model::{Goal, Plan, Status};
use super::render::Progress;
use super::standing::Proof;
use super::template::fill;
use super::text::strip_controls;

/// At most this many active goals are listed; the rest are counted.
const MAX_ACTIVE: usize = 10;
/// At most this many goals ready to start are named.
const MAX_READY: usize = 5;
/// Long fields are cut to this many characters.
const MAX_FIELD: usize = 200;
/// Done goals listed one by one in the skeleton before the rest are counted.
const MAX_DONE: usize = 30;

/// The model-facing templates, embedded or overridden by the repository. The
/// embedded ones are `Templates::default()`, which `crate::prompts` provides: it owns
/// the prompt files, and the pure core imports nothing outside itself.
#[derive(Clone, Copy)]
pub struct Templates<'t> {
    pub injection: &'t str,
    pub injection_idle: &'t str,
    pub reminder: &'t str,
    pub continuation: &'t str,
    pub skeleton: &'t str,
}

/// Plan text as the model gets it: terminal control sequences stripped (a title
/// could carry an OSC 52 clipboard write), then cut to `max` characters.
fn cut(text: &str, max: usize) -> String {
    bound::field(text, max)
}

fn objective(plan: &Plan<'_>) -> String {
    plan.objective
        .as_ref()
        .map_or_else(|| "(no objective)".to_string(), |o| cut(o.value, MAX_FIELD))
}

fn active<'p, 'a>(plan: &'p Plan<'a>) -> Vec<&'p Goal<'a>> {
    plan.live()
        .filter(|g| g.status() == Status::Active)
        .collect()
}

/// Open goals whose dependencies are met: what can be started next.
fn ready<'p, 'a>(plan: &'p Plan<'a>) -> Vec<&'p Goal<'a>> {
    plan.workable()
        .filter(|g| g.status() == Status::Open)
        .collect()
}

fn ready_list(goals: &[&Goal<'_>]) -> String {
    let mut names: Vec<String> = goals.iter().take(MAX_READY).map(|g| id(&g.id)).collect();
    if goals.len() > MAX_READY {
        names.push(format!("+{} more", goals.len() - MAX_READY));
    }
    names.join(", ")
}

/// Goals marked done or cancelled without a record: remaining work, said as such;
/// one imported as done is said as imported, not as marked by hand.
fn unproven_line(plan: &Plan<'_>) -> Option<String> {
    let (imported, goals): (Vec<&Goal<'_>>, Vec<&Goal<'_>>) = plan
        .unproven()
        .partition(|g| plan.imported_label(g).is_some());
    let mut lines = Vec::new();
    if !goals.is_empty() {
        // Both commands named refuse an archived goal; the way back is a reopen.
        let archived = match goals.iter().any(|g| g.archived) {
            true => {
                " An archived one comes back above `## Log` with `plan reopen ID --reason TEXT` first."
            }
            false => "",
        };
        lines.push(format!(
            "Marked done or cancelled by hand, so still remaining work: {}. Sign a goal off with `plan complete ID --evidence TEXT --path FILE`, or cancel it with `plan cancel ID --reason TEXT` (`plan audit` says why each is unproven).{archived}",
            ready_list(&goals)
        ));
    }
    if !imported.is_empty() {
        let mut each: Vec<String> = imported
            .iter()
            .take(MAX_READY)
            .map(|g| {
                let label = plan.imported_label(g).unwrap_or_default();
                format!("{} {}", id(&g.id), strip_controls(&label))
            })
            .collect();
        if imported.len() > MAX_READY {
            each.push(format!("+{} more", imported.len() - MAX_READY));
        }
        lines.push(format!(
            "Imported as done, so still to be signed off here: {}. Sign one off with `plan complete ID --evidence TEXT --path FILE`.",
            each.join("; ")
        ));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The per-turn injection: objective, active goals with their contract and next
/// step, what can start next, the last log line, how to sign off, and the goals
/// marked done without a sign-off.
pub fn injection(plan: &Plan<'_>, t: Templates<'_>) -> String {
    let mut warnings = String::new();
    for line in [unproven_line(plan), hidden_lines(plan), errors_line(plan)]
        .into_iter()
        .flatten()
    {
        warnings.push('\n');
        warnings.push_str(&line);
    }
    // The body is cut to leave the warnings their room: long goals must not push
    // "marked done by hand" or "under ## Archive" out of the block.
    let room = MAX_BLOCK.saturating_sub(warnings.len()).max(MAX_BLOCK / 4);
    let text = bound::block(injection_body(plan, t), room) + &warnings;
    bound::block(text, MAX_BLOCK)
}

/// Unfinished goals moved under `## Archive` or deleted by hand: remaining work,
/// said as such.
fn hidden_lines(plan: &Plan<'_>) -> Option<String> {
    let mut lines = Vec::new();
    let shelved: Vec<&Goal<'_>> = plan.shelved().collect();
    if !shelved.is_empty() {
        lines.push(format!(
            "Under `## Archive` but not finished, so still remaining work: {}. Move each back above `## Archive`, then finish it or cancel it with `plan cancel ID --reason TEXT`.",
            ready_list(&shelved)
        ));
    }
    let vanished = plan.vanished();
    if !vanished.is_empty() {
        let mut names: Vec<String> = vanished.iter().take(MAX_READY).map(|v| id(v)).collect();
        if vanished.len() > MAX_READY {
            names.push(format!("+{} more", vanished.len() - MAX_READY));
        }
        lines.push(format!(
            "Deleted from plan.md unfinished, so still remaining work: {}. Restore each from git (`git log -p plan.md`), then finish it or cancel it with `plan cancel ID --reason TEXT`.",
            strip_controls(&names.join(", "))
        ));
    }
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// A plan with format errors is still injected, as far as it reads; the agent is
/// told where the errors are, so it fixes them rather than works around them.
fn errors_line(plan: &Plan<'_>) -> Option<String> {
    let first = plan.errors.first()?;
    let more = match plan.errors.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(format!(
        "plan.md has format errors; goals with errors may be missing above. First: line {}: {}{more}. Fix them (`plan lint` lists them all).",
        first.line,
        cut(&first.message, MAX_FIELD)
    ))
}

fn injection_body(plan: &Plan<'_>, t: Templates<'_>) -> String {
    let active = active(plan);
    let ready = ready(plan);
    if active.is_empty() {
        let ready = if ready.is_empty() {
            "; none is ready to start".to_string()
        } else {
            format!("; ready to start: {} (`plan start ID`)", ready_list(&ready))
        };
        let idle = fill(t.injection_idle, |name| match name {
            "objective" => Some(objective(plan)),
            "ready" => Some(ready.clone()),
            _ => None,
        })
        .trim_end()
        .to_string();
        // Another tool's plan reads as no goals: the agent is told what is there.
        return match super::foreign::line(plan, "plan.md") {
            Some(line) => format!("{idle}\n{line}."),
            None => idle,
        };
    }
    let mut lines = Vec::new();
    for goal in active.iter().take(MAX_ACTIVE) {
        let (done, total) = goal.progress();
        lines.push(format!(
            "- {}: {}",
            id(&goal.id),
            cut(goal.title, MAX_FIELD)
        ));
        lines.push(format!(
            "  done_when: {}",
            cut(goal.done_when().unwrap_or("(not written)"), MAX_FIELD)
        ));
        let mut progress = if total == 0 {
            "  subtasks: none".to_string()
        } else {
            format!("  subtasks: {done}/{total} done")
        };
        if let Some(next) = goal.next_subtask() {
            progress.push_str(&format!("; next: {}", cut(next.text, MAX_FIELD)));
        }
        lines.push(progress);
        let unmet = plan.unmet_dependencies(goal);
        if !unmet.is_empty() {
            let unmet: Vec<String> = unmet.iter().map(|u| id(u)).collect();
            lines.push(format!("  waits on: {}", cut(&unmet.join(", "), MAX_FIELD)));
        }
    }
    if active.len() > MAX_ACTIVE {
        lines.push(format!(
            "- +{} more active goals (plan show)",
            active.len() - MAX_ACTIVE
        ));
    }
    let ready = if ready.is_empty() {
        "none".to_string()
    } else {
        ready_list(&ready)
    };
    let last_log = plan.log.last().map_or_else(
        || "(none)".to_string(),
        |e| {
            cut(
                format!("{} {}", e.stamp.unwrap_or(""), e.text).trim_start(),
                MAX_FIELD,
            )
        },
    );
    fill(t.injection, |name| match name {
        "objective" => Some(objective(plan)),
        "active" => Some(lines.join("\n")),
        "ready" => Some(ready.clone()),
        "last_log" => Some(last_log.clone()),
        _ => None,
    })
    .trim_end()
    .to_string()
}

/// What a compaction should keep: finished goals one line each with their sign-off,
/// the active goals with their subtasks, the rest by title.
pub fn skeleton(plan: &Plan<'_>, t: Templates<'_>) -> String {
    let mut out = vec![format!("Plan: {}", objective(plan))];
    // The work in hand first: the 8 KB bound cuts from the end, so a long list of
    // done goals never pushes the active goal out of the summary.
    let active = active(plan);
    if !active.is_empty() {
        out.push("Active:".to_string());
        for goal in active {
            out.push(format!(
                "- {}: {}",
                id(&goal.id),
                cut(goal.title, MAX_FIELD)
            ));
            out.push(format!(
                "  done_when: {}",
                cut(goal.done_when().unwrap_or("(not written)"), MAX_FIELD)
            ));
            for task in &goal.subtasks {
                out.push(format!(
                    "  [{}] {}",
                    if task.done { "x" } else { " " },
                    cut(task.text, MAX_FIELD)
                ));
            }
        }
    }
    let list = |status| {
        let goals: Vec<String> = plan
            .live()
            .filter(|g| g.status() == status)
            .map(|g| format!("{} ({})", id(&g.id), cut(g.title, 60)))
            .collect();
        goals.join("; ")
    };
    let open = list(Status::Open);
    if !open.is_empty() {
        out.push(format!("Open: {open}"));
    }
    let mut done: Vec<&Goal<'_>> = plan.live().filter(|g| g.status() == Status::Done).collect();
    // The unsigned first, so the bound's cut reaches them last.
    done.sort_by_key(|g| !matches!(plan.proof(g), Proof::Unproven { .. }));
    if !done.is_empty() {
        out.push("Done:".to_string());
        let (mut shown, mut folded) = (0, 0);
        for goal in done {
            // What the agent keeps through a compaction: a goal is called signed off
            // only when its proof holds, never on a line typed to look like one, and
            // one that is not is never folded away among the rest.
            // (Its reason names log lines, which a hook's cut plan numbers otherwise.)
            let unproven = matches!(plan.proof(goal), Proof::Unproven { .. });
            if !unproven && shown == MAX_DONE {
                folded += 1;
                continue;
            }
            let sign_off = if unproven {
                "not signed off; `plan audit` says why".to_string()
            } else {
                shown += 1;
                match plan.imported_label(goal) {
                    Some(label) => cut(&label, MAX_FIELD),
                    None => plan
                        .history(&goal.id)
                        .rev()
                        .find(|e| e.text[goal.id.len()..].starts_with(" signed off"))
                        .map_or_else(
                            || "no sign-off logged".to_string(),
                            |e| cut(&e.text[goal.id.len() + 1..], MAX_FIELD),
                        ),
                }
            };
            out.push(format!(
                "- {}: {} ({sign_off})",
                id(&goal.id),
                cut(goal.title, MAX_FIELD)
            ));
        }
        if folded > 0 {
            out.push(format!("- +{folded} more done"));
        }
    }
    let cancelled = list(Status::Cancelled);
    if !cancelled.is_empty() {
        out.push(format!("Cancelled: {cancelled}"));
    }
    let body = out.join("\n");
    let text = fill(t.skeleton, |name| {
        (name == "skeleton").then(|| body.clone())
    });
    // The injection's closing lines end it, kept whole as there: goals marked done
    // by hand (archived ones too), or unfinished under `## Archive` or deleted.
    let mut warnings = String::new();
    for line in [unproven_line(plan), hidden_lines(plan)]
        .into_iter()
        .flatten()
    {
        warnings.push_str(&line);
        warnings.push('\n');
    }
    let room = MAX_SKELETON
        .saturating_sub(warnings.len() + 1)
        .max(MAX_SKELETON / 4);
    let mut head = bound::block(text, room);
    if !warnings.is_empty() && !head.ends_with('\n') {
        head.push('\n');
    }
    bound::block(head + &warnings, MAX_SKELETON)
}

/// The reminder, whose wording never changes.
pub fn reminder(t: Templates<'_>) -> String {
    bound::block(t.reminder.trim_end().to_string(), MAX_BLOCK)
}

/// Blocks a stop: names the active goals and their next subtasks, or the goals to
/// start. `None` when there is nothing left to do.
pub fn continuation(plan: &Plan<'_>, n: u32, budget: u32, t: Templates<'_>) -> Option<String> {
    continuation_goals(plan).map(|goals| continuation_text(&goals, n, budget, t))
}

/// What a continuation names: the plan's part of it, the same whatever the loop's
/// count, so the hooks can keep it. `None` when there is nothing left to do.
pub fn continuation_goals(plan: &Plan<'_>) -> Option<String> {
    compose(&continuation_parts(plan), &|_| false)
}

/// Which list a continuation part comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum PartKind {
    Active,
    Ready,
    Unproven,
    Shelved,
    Vanished,
}

/// One goal's piece of a continuation, kept apart so the hooks can leave out the
/// goals another session holds (see `plan/claim.rs`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    pub goal: String,
    pub kind: PartKind,
    pub text: String,
}

/// At most this many parts of each kind are kept: enough to fill a continuation
/// after other sessions' goals are left out, bounded however long the plan.
const MAX_PARTS: usize = 64;

/// Every goal a continuation could name, by kind, in plan order.
pub fn continuation_parts(plan: &Plan<'_>) -> Vec<Part> {
    let part = |goal: &str, kind: PartKind, text: String| Part {
        goal: goal.to_string(),
        kind,
        text,
    };
    let mut parts: Vec<Part> = active(plan)
        .iter()
        .take(MAX_PARTS)
        .map(|g| {
            let (done, total) = g.progress();
            let gid = id(&g.id);
            let text = match g.next_subtask() {
                Some(next) => {
                    format!("{gid} ({done}/{total}, next: {})", cut(next.text, 80))
                }
                None if total == 0 => format!("{gid} (check done_when, then sign it off)"),
                None => format!("{gid} ({done}/{total}; check done_when, then sign it off)"),
            };
            part(&g.id, PartKind::Active, text)
        })
        .collect();
    parts.extend(ready(plan).iter().take(MAX_PARTS).map(|g| {
        let gid = id(&g.id);
        let text = format!("start {gid} ({}) with `plan start {gid}`", cut(g.title, 80));
        part(&g.id, PartKind::Ready, text)
    }));
    parts.extend(plan.unproven().take(MAX_PARTS).map(|g| {
        let gid = id(&g.id);
        let text = match plan.imported_label(g) {
            Some(label) => format!(
                "{gid} reads {}; sign it off here with `plan complete {gid}`",
                strip_controls(&label)
            ),
            None => format!(
                "{gid} is marked {} by hand; sign it off with `plan complete {gid}` (or `plan cancel`)",
                g.status().as_str(),
            ),
        };
        part(&g.id, PartKind::Unproven, text)
    }));
    parts.extend(plan.shelved().take(MAX_PARTS).map(|g| {
        let gid = id(&g.id);
        let text = format!(
            "{gid} is under `## Archive` but {}; move it back above `## Archive`, then finish it or `plan cancel {gid}` it",
            g.status().as_str(),
        );
        part(&g.id, PartKind::Shelved, text)
    }));
    parts.extend(plan.vanished().into_iter().take(MAX_PARTS).map(|gone| {
        let gid = id(gone);
        let text = format!(
            "goal {gid} was deleted from plan.md unfinished; restore it from git (`git log -p plan.md`), then finish it or `plan cancel {gid}`"
        );
        part(gone, PartKind::Vanished, text)
    }));
    parts
}

/// The continuation's goals from `parts`, leaving out those `skip` names (goals
/// another session holds): the active goals, or if none the ones ready to start,
/// then the goals marked finished, archived or deleted by hand. `None` when
/// nothing is left.
pub fn compose(parts: &[Part], skip: &dyn Fn(&str) -> bool) -> Option<String> {
    let kept: Vec<&Part> = parts.iter().filter(|p| !skip(&p.goal)).collect();
    let of = |kind: PartKind, max: usize| {
        kept.iter()
            .filter(move |p| p.kind == kind)
            .take(max)
            .map(|p| p.text.clone())
    };
    let mut out: Vec<String> = of(PartKind::Active, MAX_ACTIVE).collect();
    if out.is_empty() {
        out.extend(of(PartKind::Ready, MAX_READY));
    }
    for kind in [PartKind::Unproven, PartKind::Shelved, PartKind::Vanished] {
        out.extend(of(kind, MAX_READY));
    }
    (!out.is_empty()).then(|| out.join("; "))
}

/// The continuation for `goals` (from [`continuation_goals`]), the `n`th of `budget`.
pub fn continuation_text(goals: &str, n: u32, budget: u32, t: Templates<'_>) -> String {
    let text = fill(t.continuation, |name| match name {
        "goals" => Some(goals.to_string()),
        "n" => Some(n.to_string()),
        "budget" => Some(budget.to_string()),
        _ => None,
    });
    bound::block(text.trim_end().to_string(), MAX_BLOCK)
}

/// Whether a stop has anything to continue with: an active goal (even one waiting
/// on others: that is work to sort out, not a reason to stop), one ready to start,
/// one marked finished by hand, or one deleted or archived by hand before it was
/// finished.
pub fn has_work(plan: &Plan<'_>) -> bool {
    !active(plan).is_empty()
        || plan.workable().next().is_some()
        || plan.unproven().next().is_some()
        || !plan.vanished().is_empty()
        || plan.shelved().next().is_some()
}

/// Finished goals not signed off here: (imported as done, marked by hand).
fn unproven_counts(plan: &Plan<'_>) -> (usize, usize) {
    let imported = plan
        .unproven()
        .filter(|g| plan.imported_label(g).is_some())
        .count();
    (imported, plan.unproven().count() - imported)
}

/// One short line for a status bar: `plan: 2 active · cache-layer 1/3 · next: eviction`.
pub fn statusline(plan: &Plan<'_>) -> String {
    statusline_for(plan, active(plan).first().map(|g| &*g.id))
}

/// The live active goals' ids, in plan order: what a status line may detail.
pub fn active_ids<'p>(plan: &'p Plan<'_>) -> Vec<&'p str> {
    active(plan).into_iter().map(|g| &*g.id).collect()
}

/// [`statusline`] detailing the active goal `focus` (a session's own, where
/// another holds the first); `None`: no goal, only the count.
pub fn statusline_for(plan: &Plan<'_>, focus: Option<&str>) -> String {
    let mut line = statusline_body(plan, focus);
    let (imported, unproven) = unproven_counts(plan);
    if unproven > 0 {
        line.push_str(&format!(" · ⚠ {unproven} unproven"));
    }
    if imported > 0 {
        line.push_str(&format!(" · {imported} imported as done"));
    }
    let shelved = plan.shelved().count();
    if shelved > 0 {
        line.push_str(&format!(" · ⚠ {shelved} archived unfinished"));
    }
    let vanished = plan.vanished().len();
    if vanished > 0 {
        line.push_str(&format!(" · ⚠ {vanished} deleted unfinished"));
    }
    match plan.errors.len() {
        0 => {}
        1 => line.push_str(" · ⚠ 1 format error (plan lint)"),
        n => line.push_str(&format!(" · ⚠ {n} format errors (plan lint)")),
    }
    line
}

fn statusline_body(plan: &Plan<'_>, focus: Option<&str>) -> String {
    let active = active(plan);
    if active.is_empty() {
        let open = ready(plan).len();
        return if open > 0 {
            format!("plan: {open} ready · none active")
        } else {
            "plan: nothing open".to_string()
        };
    }
    let Some(first) = focus.and_then(|f| active.iter().find(|g| &*g.id == f)) else {
        return format!("plan: {} active", active.len());
    };
    let (done, total) = first.progress();
    let mut line = format!("plan: {} active · {}", active.len(), id(&first.id));
    if total > 0 {
        line.push_str(&format!(" {done}/{total}"));
    }
    if let Some(next) = first.next_subtask() {
        line.push_str(&format!(" · next: {}", cut(next.text, 40)));
    }
    line
}

/// One active goal as the injection names it, for `plan inject --json`.
#[derive(Serialize)]
pub struct ActiveView<'p> {
    pub id: &'p str,
    pub title: &'p str,
    pub done_when: Option<&'p str>,
    pub progress: Progress,
    pub next_subtask: Option<&'p str>,
    pub waits_on: Vec<&'p str>,
}

/// What the injection block says, field by field (`plan inject --json`); `text` is
/// the block itself.
#[derive(Serialize)]
pub struct InjectionView<'p> {
    pub objective: Option<&'p str>,
    /// Every active goal, not only the ten the block lists.
    pub active: Vec<ActiveView<'p>>,
    pub ready: Vec<&'p str>,
    pub last_log: Option<String>,
    pub unproven: Vec<&'p str>,
    pub text: String,
}

pub fn injection_view<'p>(plan: &'p Plan<'p>, text: String) -> InjectionView<'p> {
    let active = active(plan)
        .into_iter()
        .map(|g| {
            let (done, total) = g.progress();
            ActiveView {
                id: &g.id,
                title: g.title,
                done_when: g.done_when(),
                progress: Progress { done, total },
                next_subtask: g.next_subtask().map(|t| t.text),
                waits_on: plan.unmet_dependencies(g),
            }
        })
        .collect();
    InjectionView {
        objective: plan.objective.as_ref().map(|o| o.value),
        active,
        ready: ready(plan).into_iter().map(|g| &*g.id).collect(),
        last_log: plan.log.last().map(|e| {
            format!("{} {}", e.stamp.unwrap_or(""), e.text)
                .trim_start()
                .to_string()
        }),
        unproven: plan.unproven().map(|g| &*g.id).collect(),
        text,
    }
}

/// The status line field by field (`plan statusline --json`): counts, the first
/// active goal and its next subtask; `text` is the line itself.
#[derive(Serialize)]
pub struct StatuslineView<'p> {
    pub active: usize,
    pub ready: usize,
    pub goal: Option<&'p str>,
    pub progress: Option<Progress>,
    pub next_subtask: Option<&'p str>,
    /// Marked done or cancelled by hand.
    pub unproven: usize,
    /// Imported as done, not signed off here.
    pub imported: usize,
    /// plan.md's format errors; the counts are of the goals that read.
    pub errors: usize,
    pub text: String,
}

/// The status line's fields, detailing the active goal `focus` as
/// [`statusline_for`] does.
pub fn statusline_view<'p>(plan: &'p Plan<'p>, focus: Option<&str>) -> StatuslineView<'p> {
    let active = active(plan);
    let first = focus.and_then(|f| active.iter().find(|g| &*g.id == f));
    StatuslineView {
        active: active.len(),
        ready: ready(plan).len(),
        goal: first.map(|g| &*g.id),
        progress: first.map(|g| {
            let (done, total) = g.progress();
            Progress { done, total }
        }),
        next_subtask: first.and_then(|g| g.next_subtask()).map(|t| t.text),
        unproven: unproven_counts(plan).1,
        imported: unproven_counts(plan).0,
        errors: plan.errors.len(),
        text: statusline_for(plan, focus),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::{Plan, parse};

    /// Parsed, with any sign-off or cancel line counting as its record.
    fn proved(src: &str) -> Plan<'_> {
        let mut plan = parse(src);
        plan.prove_legacy();
        plan
    }

    const SRC: &str = "# Plan: Ship the cache layer
## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
- [x] wire client
- [ ] eviction policy
## Goal: Docs
<!-- id: docs -->
status: open
depends_on: cache-layer
## Goal: Bench
<!-- id: bench -->
status: open
## Goal: Hashing
<!-- id: hashing -->
status: done
## Log
- 2026-06-15 14:00 hashing signed off (verify passed, judge accept)
- 2026-06-15 14:02 client wired
";

    #[test]
    fn injection_snapshot() {
        insta::assert_snapshot!(injection(&proved(SRC), Templates::default()), @r"
        plan.md: Ship the cache layer
        Active goals:
        - cache-layer: Implement cache layer
          done_when: p95 < 50ms
          subtasks: 1/2 done; next: eviction policy
        Ready to start: bench
        Last log line: 2026-06-15 14:02 client wired
        A goal is signed off only by `plan complete ID --evidence TEXT --path FILE`, which runs its verify command and an independent read-only judge; `status: done` written by hand is flagged as unchecked.
        ");
    }

    #[test]
    fn injection_ignores_done_goals_and_older_log_lines() {
        let base = injection(&proved(SRC), Templates::default());
        let more = SRC.replace(
            "## Log\n",
            "## Goal: Old\n<!-- id: old -->\nstatus: done\n## Log\n- 2026-01-01 00:00 old signed off (verify passed, judge accept)\n- 2026-01-01 00:00 very old line\n",
        );
        assert_eq!(injection(&proved(&more), Templates::default()), base);
    }

    #[test]
    fn injection_is_bounded() {
        let mut src = String::from("# Plan: x\n");
        for i in 0..50 {
            src.push_str(&format!(
                "## Goal: G{i}\n<!-- id: g{i} -->\nstatus: active\ndone_when: {}\n",
                "y".repeat(5000)
            ));
        }
        let out = injection(&proved(&src), Templates::default());
        assert!(out.contains("- +40 more active goals"));
        assert!(out.len() < 10 * 600 + 1000, "{}", out.len());
    }

    #[test]
    fn idle_injection_is_one_line() {
        let src = SRC.replace("status: active", "status: done");
        let out = injection(&proved(&src), Templates::default());
        assert_eq!(
            out,
            "plan.md: Ship the cache layer. No goal is active; ready to start: bench (`plan start ID`).\nMarked done or cancelled by hand, so still remaining work: cache-layer. Sign a goal off with `plan complete ID --evidence TEXT --path FILE`, or cancel it with `plan cancel ID --reason TEXT` (`plan audit` says why each is unproven)."
        );
    }

    #[test]
    fn skeleton_snapshot() {
        insta::assert_snapshot!(skeleton(&proved(SRC), Templates::default()), @r"
        Keep this plan summary through the compaction; plan.md holds the full plan.
        Plan: Ship the cache layer
        Active:
        - cache-layer: Implement cache layer
          done_when: p95 < 50ms
          [x] wire client
          [ ] eviction policy
        Open: docs (Docs); bench (Bench)
        Done:
        - hashing: Hashing (signed off (verify passed, judge accept))
        ");
    }

    /// Red team: a goal marked done by hand and moved under `## Archive` was not in
    /// the compaction skeleton at all, which lists live goals only. The skeleton
    /// ends with the injection's closing lines, kept whole as there.
    #[test]
    fn the_skeleton_names_an_archived_goal_marked_done_by_hand() {
        let src = "# Plan: X\n\n## Goal: Now\n<!-- id: now -->\nstatus: active\ndone_when: y\n\n## Log\n\n## Archive\n\n## Goal: Old\n<!-- id: old -->\nstatus: done\n";
        insta::assert_snapshot!(skeleton(&proved(src), Templates::default()), @r"
        Keep this plan summary through the compaction; plan.md holds the full plan.
        Plan: X
        Active:
        - now: Now
          done_when: y
        Marked done or cancelled by hand, so still remaining work: old. Sign a goal off with `plan complete ID --evidence TEXT --path FILE`, or cancel it with `plan cancel ID --reason TEXT` (`plan audit` says why each is unproven). An archived one comes back above `## Log` with `plan reopen ID --reason TEXT` first.
        ");
    }

    /// A sign-off line typed by hand is no sign-off: after a compaction the agent
    /// is not told that the goal was signed off.
    #[test]
    fn the_skeleton_does_not_call_a_goal_done_by_hand_signed_off() {
        let mut plan = parse(SRC);
        plan.prove_lines();
        insta::assert_snapshot!(skeleton(&plan, Templates::default()), @r"
        Keep this plan summary through the compaction; plan.md holds the full plan.
        Plan: Ship the cache layer
        Active:
        - cache-layer: Implement cache layer
          done_when: p95 < 50ms
          [x] wire client
          [ ] eviction policy
        Open: docs (Docs); bench (Bench)
        Done:
        - hashing: Hashing (not signed off; `plan audit` says why)
        Marked done or cancelled by hand, so still remaining work: hashing. Sign a goal off with `plan complete ID --evidence TEXT --path FILE`, or cancel it with `plan cancel ID --reason TEXT` (`plan audit` says why each is unproven).
        ");
    }

    /// Red team: past 30 done goals the rest were folded into "+N more done", a
    /// goal marked done by hand among them; and long titles let the 8 KB cut fall
    /// before `Active:`. The active goal comes first, and no goal that is not
    /// signed off is folded away.
    #[test]
    fn the_skeleton_keeps_the_active_goal_and_every_unsigned_done_goal() {
        let title = "t".repeat(190);
        let mut src = String::from("# Plan: Long\n\n");
        let mut log = String::from("## Log\n");
        for i in 0..40 {
            src.push_str(&format!(
                "## Goal: {title}\n<!-- id: g{i} -->\nstatus: done\n\n"
            ));
            if i != 35 {
                log.push_str(&format!(
                    "- 2026-06-15 14:00 g{i} signed off (verify passed, judge accept)\n"
                ));
            }
        }
        src.push_str("## Goal: Now\n<!-- id: now -->\nstatus: active\ndone_when: it works\n- [ ] last step\n\n");
        let out = skeleton(&proved(&(src + &log)), Templates::default());
        let lines: Vec<&str> = out.lines().collect();
        let at = |line: &str| lines.iter().position(|l| *l == line);
        let unsigned = format!("- g35: {title} (not signed off; `plan audit` says why)");
        assert!(
            at("- now: Now").is_some_and(|a| a < at("Done:").unwrap()),
            "{out}"
        );
        assert!(at("  [ ] last step").is_some(), "{out}");
        assert_eq!(at(&unsigned), at("Done:").map(|d| d + 1), "{out}");
        assert_eq!(
            out.len(),
            bound::block(out.clone(), bound::MAX_SKELETON).len()
        );
    }

    #[test]
    fn continuation_names_goals_or_says_nothing() {
        let out = continuation(&proved(SRC), 3, 20, Templates::default()).unwrap();
        assert!(
            out.starts_with("plan.md still has work: cache-layer (1/2, next: eviction policy)\n")
        );
        assert!(out.ends_with("(Continuation 3 of 20.)"));
        // Marked done by hand: still work, and its dependant waits.
        let idle = SRC.replace("status: active", "status: done");
        let out = continuation(&proved(&idle), 1, 20, Templates::default()).unwrap();
        assert!(out.contains("start bench (Bench) with `plan start bench`"));
        assert!(!out.contains("start docs"));
        assert!(out.contains(
            "cache-layer is marked done by hand; sign it off with `plan complete cache-layer`"
        ));
        let finished = idle.replace("status: open", "status: cancelled");
        assert!(has_work(&proved(&finished)));
        let recorded = format!(
            "{finished}- 2026-06-15 15:00 cache-layer signed off (verify passed, judge accept)\n- 2026-06-15 15:00 docs cancelled: no\n- 2026-06-15 15:00 bench cancelled: no\n"
        );
        assert_eq!(
            continuation(&proved(&recorded), 1, 20, Templates::default()),
            None
        );
        assert!(!has_work(&proved(&recorded)));
    }

    #[test]
    fn statusline_is_short() {
        assert_eq!(
            statusline(&proved(SRC)),
            "plan: 1 active · cache-layer 1/2 · next: eviction policy"
        );
        assert_eq!(statusline(&proved("")), "plan: nothing open");
    }
}

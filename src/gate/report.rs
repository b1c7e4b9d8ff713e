//! What `plan audit` and the gate report, as values and as text: one entry per
//! finished goal, the base's losses and changes, what fails the gate, and the
//! report rendered for a person (`human`) or a forge's summary (`markdown`). Made
//! by [`super::audit`]; `cmd/audit.rs` prints it.

use serde::Serialize;

use crate::plan::gate::{self as plan_gate, Row, Summary};
use crate::plan::model::Status;
use crate::plan::render::{ProofView, Style};

#[derive(Serialize)]
pub struct Entry {
    pub id: String,
    pub title: String,
    pub status: Status,
    pub archived: bool,
    pub line: usize,
    pub proof: ProofView,
    /// With `--reverify`: `passed`, `failed: …`, or why it was not run.
    pub reverify: Option<String>,
    /// What the sign-off's weakened-tests check found (`{path, what}`); `None` when
    /// not recorded (a cancelled goal, a transcript from before the check).
    pub weakened_tests: Option<Vec<crate::plan::weakened::Finding>>,
    /// Each part of `weakened_tests` with its rule's id and severity, `{kind,
    /// confidence, file, line, text}`, as `plan show --json` lists `findings`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub weakened_findings: Option<Vec<crate::plan::weakened::kinds::Shown>>,
    /// A done goal whose verify passed when it started, with nothing it rests on
    /// changed since (`verify-green-at-start`): that verify said nothing of the work.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub verify_green_at_start: Option<String>,
    /// With `--rejudge`: the verify re-run and the judge's answer.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rejudge: Option<RejudgeView>,
    /// With `--strict`: what fails it.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub findings: Vec<String>,
    /// The judge the latest sign-off names (`-`: none), for the Markdown table.
    #[serde(skip)]
    pub signed_by: String,
    /// Whether the latest sign-off line says verify ran, for the Markdown table.
    #[serde(skip)]
    pub verified_at_sign_off: Option<bool>,
}

#[derive(Serialize)]
pub struct RejudgeView {
    pub verify: String,
    pub verdict: String,
    pub passed: bool,
}

#[derive(Serialize)]
pub struct Report {
    pub file: String,
    pub goals: Vec<Entry>,
    /// Ids plan logged events for that no goal has any more.
    pub orphaned_ids: Vec<String>,
    /// Archived goals that are open or active.
    pub archived_unfinished: Vec<String>,
    /// plan's own log lines that a committed version of the file had and it lacks
    /// now (the log is append-only).
    pub removed_lines: Vec<Removed>,
    /// Log lines stamped earlier than a line above them: typed by hand, or two
    /// branches' logs merged. Named, not failed.
    pub out_of_order: Vec<crate::plan::stamps::OutOfOrder>,
    /// Where a lost line plan wrote is named (`plan.md:LINE` of the log heading).
    #[serde(skip)]
    pub log_place: String,
    pub unproven: usize,
    pub regressed: usize,
    /// Proven done goals with a verify this audit did not run (no `--reverify`, no
    /// `--base`): a later goal's work may have broken them unseen.
    pub not_reverified: usize,
    /// With `--base`: the head measured against it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub base: Option<super::Base>,
    /// With `--base` or `--strict`: every problem that fails the gate, counted.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub failures: Option<usize>,
    /// With `--rejudge`: how often CI's judge was asked, and the time the judging took.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub judged: Option<Judged>,
    /// `--approved-by`: who approved the cancels and contract changes.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approved_by: Option<String>,
}

/// CI's judge's share of a gate run.
#[derive(Serialize)]
pub struct Judged {
    pub calls: usize,
    pub secs: u64,
}

/// A log line of plan's that was removed after it was committed.
#[derive(Serialize)]
pub struct Removed {
    /// The goal the line is about.
    pub id: String,
    pub line: String,
    /// `was removed since` or `was moved since`.
    pub what: &'static str,
    /// The newest commit that had it where it belongs; empty for a line no commit
    /// had, that plan wrote (kept in `.git/plan/logged.tsv`).
    pub commit: String,
}

impl Removed {
    /// The line's stamp, when plan wrote it with one.
    pub fn stamp(&self) -> &str {
        self.line.get(..16).unwrap_or_default()
    }
}

/// What fails the gate beyond plain audit: lines and goals lost from the base, a
/// re-judge that did not pass, and with `--strict` each finding and each contract
/// change the pull request carries without a terminal's approval.
pub fn gate_failures(report: &Report, strict: bool) -> usize {
    let mut failed = report
        .goals
        .iter()
        .filter(|g| g.rejudge.as_ref().is_some_and(|r| !r.passed))
        .count();
    if strict {
        failed += report.goals.iter().map(|g| g.findings.len()).sum::<usize>();
    }
    if let Some(base) = &report.base {
        failed += base.lost_lines.len() + base.lost_goals.len() + base.ci_lines.len();
        failed += base.unsigned_done.len() + base.format_errors.len();
        failed += base.other_files.iter().filter(|o| o.failed).count();
        if strict && report.approved_by.is_none() {
            failed += base
                .contract_changes
                .iter()
                .filter(|c| needs_approval(c))
                .count();
            failed += base.cancels.len();
            failed += base.other_files.iter().filter(|o| o.needs_approval).count();
        }
    }
    failed
}

/// Whether `--strict` fails a contract change unless a person approved it through
/// the forge: every change of a goal the base had (a terminal in the agent's
/// session approves nothing in CI), and a new goal's changed without a terminal.
pub fn needs_approval(change: &plan_gate::Change) -> bool {
    change.of_base || change.without_terminal()
}

/// The report as Markdown: one row per goal the pull request signs off or that has
/// a problem (every finished goal without `--base`), then every contract change.
pub fn markdown(report: &Report) -> String {
    let base = report.base.as_ref();
    let mut rows = Vec::new();
    for goal in &report.goals {
        let signed = base.is_some_and(|b| b.signed_off.contains(&goal.id));
        let rejudge_failed = goal.rejudge.as_ref().is_some_and(|r| !r.passed);
        let troubled =
            goal.proof.state == "unproven" || !goal.findings.is_empty() || rejudge_failed;
        // A goal of the base verified again because the pull request touched it.
        let troubled = troubled || goal.reverify.is_some();
        if base.is_some() && !signed && !troubled {
            continue;
        }
        let mut findings: Vec<String> = goal.proof.why.iter().cloned().collect();
        findings.extend(goal.findings.iter().cloned());
        let signed_by = goal.signed_by.clone();
        let (judge, verify) = match (&goal.rejudge, &goal.reverify) {
            (Some(r), _) => {
                if r.verify.starts_with("failed") {
                    findings.push(format!("verify {}", r.verify));
                }
                if r.verdict != "accept" {
                    findings.push(format!("judge: {}", r.verdict));
                }
                let verdict = r.verdict.split(':').next().unwrap_or_default();
                let verify = r.verify.split(':').next().unwrap_or_default();
                (
                    format!("{signed_by}, re-judged: {verdict}"),
                    format!("{verify} (re-run)"),
                )
            }
            (None, Some(again)) => {
                if again.starts_with("failed") {
                    findings.push(format!("reverify {again}"));
                }
                let again = again.split(':').next().unwrap_or_default();
                (signed_by, format!("{again} (re-run)"))
            }
            (None, None) => {
                let verify = match goal.verified_at_sign_off {
                    Some(true) => "passed at sign-off",
                    Some(false) => "none",
                    None => "-",
                };
                (signed_by, verify.to_string())
            }
        };
        let archived = if goal.archived { ", archived" } else { "" };
        rows.push(Row {
            goal: goal.id.clone(),
            state: format!("{} {}{archived}", goal.status.as_str(), goal.proof.state),
            judge,
            verify,
            findings,
        });
    }
    let mut other: Vec<String> = Vec::new();
    if let Some(base) = base {
        other.extend(base.format_errors.iter().cloned());
        other.extend(base.ci_lines.iter().cloned());
        for found in base.other_files.iter().filter(|o| o.failed) {
            other.push(format!("{}: {}: {}", found.file, found.id, found.what));
        }
        for found in base.other_files.iter().filter(|o| o.needs_approval) {
            other.push(format!(
                "{}: {}: {}, {}",
                found.file,
                found.id,
                found.what,
                match &report.approved_by {
                    Some(name) => format!("approved by {name}"),
                    None => "needs --approved-by".to_string(),
                }
            ));
        }
        for id in &base.unsigned_done {
            other.push(format!(
                "{id} is done here and was not on the base, and no sign-off this pull request adds proves it"
            ));
        }
    }
    for id in &report.archived_unfinished {
        other.push(format!("{id} is under ## Archive but not finished"));
    }
    for removed in &report.removed_lines {
        other.push(match removed.commit.as_str() {
            "" => format!(
                "log line `{}` that plan wrote at {} {}",
                removed.line,
                removed.stamp(),
                removed.what
            ),
            commit => format!(
                "log line `{}` (in commit {commit}) {}",
                removed.line, removed.what
            ),
        });
    }
    for id in &report.orphaned_ids {
        other.push(format!(
            "the log has events for {id}, but no goal has that id"
        ));
    }
    let at = base.map(|b| format!("base {} ({})", b.rev, b.commit));
    plan_gate::markdown(&Summary {
        base: at.as_deref(),
        rows: &rows,
        changes: base.map_or(&[][..], |b| &b.contract_changes),
        reshaped: base.map_or(&[][..], |b| &b.reshaped),
        cancels: base.map_or(&[][..], |b| &b.cancels),
        approved_by: report.approved_by.as_deref(),
        lost: base.map_or(&[][..], |b| &b.lost_lines),
        lost_goals: base.map_or(&[][..], |b| &b.lost_goals),
        other: &other,
        judged: report.judged.as_ref().map(|j| (j.calls, j.secs)),
        failures: report.failures.unwrap_or(
            report.unproven
                + report.regressed
                + report.archived_unfinished.len()
                + report.orphaned_ids.len()
                + report.removed_lines.len(),
        ),
    })
}

pub fn human(report: &Report, style: Style) -> String {
    let esc = crate::plan::text::escape_controls;
    let mut out = Vec::new();
    for goal in &report.goals {
        let place = format!("{}:{}", report.file, goal.line);
        let archived = if goal.archived { ", archived" } else { "" };
        let head = format!(
            "{} {} ({}{archived})",
            match goal.proof.state {
                "proven" => "✓",
                _ => "⚠",
            },
            goal.id,
            goal.status.as_str()
        );
        let mut line = match (&goal.proof.why, &goal.proof.hint) {
            // Another tool's history: listed as such, not as a failure.
            (Some(label), changed) if goal.proof.state == "imported" => match changed {
                None => format!("{head}: imported: {}", esc(label)),
                Some(changed) => format!(
                    "{head}: imported: {}\n  {place}\n  ⚠ {}\n  hint: plan complete {} signs it off for the contract it has now",
                    esc(label),
                    esc(changed),
                    goal.id
                ),
            },
            (Some(why), Some(hint)) => {
                format!(
                    "{head}: unproven: {}\n  {place}\n  hint: {}",
                    esc(why),
                    esc(hint)
                )
            }
            _ => {
                let ci = match &goal.proof.judged_again_by_ci {
                    Some(run) => format!(" (judged again by CI, run {})", esc(run)),
                    None => String::new(),
                };
                match goal.proof.warnings.is_empty() {
                    true => format!("{head}: proven{ci}"),
                    false => format!("{head}: proven{ci}, but {}", goal.proof.warnings.join("; ")),
                }
            }
        };
        if let Some(result) = &goal.reverify {
            line.push_str(&format!("\n  reverify: {result}"));
        }
        for finding in goal.weakened_tests.iter().flatten() {
            line.push_str(&format!(
                "\n  weakened tests: {}",
                esc(&crate::plan::weakened::kinds::tagged(finding))
            ));
        }
        if let Some(green) = &goal.verify_green_at_start {
            line.push_str(&format!("\n  verify-green-at-start: {green}"));
        }
        if let Some(r) = &goal.rejudge {
            line.push_str(&format!(
                "\n  rejudge: verify {}; judge {}",
                esc(&r.verify),
                esc(&r.verdict)
            ));
        }
        for finding in &goal.findings {
            line.push_str(&format!("\n  strict: {}", esc(finding)));
        }
        out.push(line);
    }
    for id in &report.archived_unfinished {
        out.push(format!(
            "⚠ {id} is under `## Archive` but not finished\n  hint: move it back above `## Log` and finish it with plan complete or plan cancel"
        ));
    }
    for removed in report.removed_lines.iter().filter(|r| r.commit.is_empty()) {
        out.push(format!(
            "⚠ {} the log line `{}` that plan wrote at {} {}; the log is append-only\n  hint: put it back where it was (plan keeps the lines it writes in .git/plan/{})",
            report.log_place,
            esc(&removed.line),
            removed.stamp(),
            removed.what,
            crate::logged::FILE
        ));
    }
    for removed in report.removed_lines.iter().filter(|r| !r.commit.is_empty()) {
        out.push(format!(
            "⚠ plan's log line `{}` (in commit {}) {}; the log is append-only\n  hint: restore it from git",
            esc(&removed.line),
            removed.commit,
            removed.what
        ));
    }
    for late in &report.out_of_order {
        out.push(format!(
            "⚠ {}:{}: this log line is stamped {}, earlier than the line above it ({}): out of order\n  hint: plan stamps its own lines no earlier than the log's newest; a line typed by hand or merged from a branch reads so",
            report.file, late.line, late.stamp, late.above
        ));
    }
    if let Some(base) = &report.base {
        for lost in &base.lost_lines {
            out.push(format!(
                "⚠ {}:{} of the base ({}) was {} here: `{}`\n  hint: a pull request only adds to the log; restore the line where it was",
                lost.file,
                lost.line,
                base.commit,
                lost.what,
                esc(&lost.entry)
            ));
        }
        for line in &base.ci_lines {
            out.push(format!(
                "⚠ {}\n  hint: take the line out; once this is merged, the workflow's update job logs CI's accept itself",
                esc(line)
            ));
        }
        for id in &base.lost_goals {
            out.push(format!(
                "⚠ goal {id} of the base ({}) is gone\n  hint: restore it; cancel or archive a goal instead of deleting it",
                base.commit
            ));
        }
        let approval = |of_base: bool| match (&report.approved_by, of_base) {
            (Some(name), true) => format!(", approved by {}", esc(name)),
            (None, true) => ", needs --approved-by".to_string(),
            (_, false) => String::new(),
        };
        for change in &base.contract_changes {
            let words: String = change
                .words
                .iter()
                .map(|w| format!("\n    {}", esc(w)))
                .collect();
            out.push(format!(
                "{} contract of {}: {} ({}:{}){}{words}",
                if (change.without_terminal() || change.of_base) && report.approved_by.is_none() {
                    "⚠"
                } else {
                    "·"
                },
                change.id,
                esc(&change.what),
                report.file,
                change.line,
                approval(change.of_base)
            ));
        }
        for change in &base.reshaped {
            out.push(format!(
                "· {} of the base: {} ({}:{})",
                change.id,
                esc(&change.what),
                report.file,
                change.line
            ));
        }
        for cancel in &base.cancels {
            let here = match (cancel.reopened, cancel.reason.is_empty()) {
                (false, _) => format!("is cancelled here: {}", esc(&cancel.reason)),
                (true, false) => format!("was done and is reopened here: {}", esc(&cancel.reason)),
                (true, true) => match &cancel.reverted_by {
                    Some(commit) => format!(
                        "was done and is reopened here by a revert ({commit}) of its sign-off"
                    ),
                    None => "was done and is set back here by hand, with no `plan reopen` logged"
                        .to_string(),
                },
            };
            out.push(format!(
                "{} {} of the base {here} ({}:{}){}",
                if report.approved_by.is_none() {
                    "⚠"
                } else {
                    "·"
                },
                cancel.id,
                report.file,
                cancel.line,
                approval(true)
            ));
        }
        for id in &base.unsigned_done {
            out.push(format!(
                "⚠ {id} is done here and was not on the base, and no sign-off this pull request adds proves it\n  hint: sign it off in the pull request: plan complete {id} --evidence TEXT --path FILE"
            ));
        }
        for other in &base.other_files {
            let goal = if other.id.is_empty() {
                String::new()
            } else {
                format!(" {}:", other.id)
            };
            let needs = other.needs_approval && report.approved_by.is_none();
            out.push(format!(
                "{} {}:{goal} {}{}",
                if other.failed || needs { "⚠" } else { "·" },
                other.file,
                esc(&other.what),
                approval(other.needs_approval)
            ));
        }
        for error in &base.format_errors {
            out.push(format!(
                "⚠ {}\n  hint: fix it in the pull request (plan lint lists the format errors, plan doctor --fix repairs the mechanical ones)",
                esc(error)
            ));
        }
    }
    for id in &report.orphaned_ids {
        out.push(format!(
            "⚠ the log has events for {id}, but no goal has that id (deleted or renamed by hand)\n  hint: restore the goal, or put `<!-- id: {id} -->` back under its heading"
        ));
    }
    out.push(style.paint("1", &summary(report)));
    out.join("\n")
}

/// The report's last line: how many finished goals are proven, and what else counts.
fn summary(report: &Report) -> String {
    let finished = report.goals.len();
    let imported = report
        .goals
        .iter()
        .filter(|g| g.proof.state == "imported")
        .count();
    let mut summary = format!(
        "{finished} finished goal{}: {} proven, {}{} unproven",
        if finished == 1 { "" } else { "s" },
        finished - report.unproven - imported,
        if imported > 0 {
            format!("{imported} imported (not signed off by plan), ")
        } else {
            String::new()
        },
        report.unproven
    );
    if report.goals.iter().any(|g| g.reverify.is_some()) {
        summary.push_str(&format!(", {} no longer pass verify", report.regressed));
    }
    if report.not_reverified > 0 {
        summary.push_str(&format!(
            "; {} verif{} not run again (`plan audit --reverify` runs them)",
            report.not_reverified,
            if report.not_reverified == 1 {
                "y"
            } else {
                "ies"
            }
        ));
    }
    if let Some(base) = &report.base {
        summary.push_str(&format!(
            "; against base {}: {} signed off since, {} lost",
            base.commit,
            base.signed_off.len(),
            base.lost_lines.len() + base.lost_goals.len()
        ));
    }
    if let Some(failures) = report.failures {
        summary.push_str(&format!("; {failures} failing"));
    }
    summary
}

//! `plan doctor`'s findings: what is inconsistent in a plan (and its pending draft
//! proposal), the command that resolves each, and the edits for the mechanical ones.
//! Pure: works on a plan with format errors too, and never repairs a goal that has
//! one, so a fix cannot land on a line whose meaning is in doubt.

use serde::Serialize;

use super::diag::Diagnostic;
use super::history;
use super::model::{Goal, Plan, Status};
use super::ops;
use super::patch::Edit;
use super::proof::Proof;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Kind {
    NoId,
    DuplicateId,
    NoStatus,
    UnknownStatus,
    NoLog,
    /// Done or cancelled without the record that proves it.
    Unproven,
    /// Proven, but without a model judge or with prompt overrides.
    WeakSignOff,
    /// Under `## Archive` but open or active.
    ArchivedUnfinished,
    /// The log has plan's events for an id no goal has.
    OrphanedId,
    /// The contract changed after creation, approved where no person could see it.
    ApprovedWithoutTerminal,
    ContractChanged,
    MissingDependency,
    DependencyCycle,
    WaitingOnDependencies,
    /// Any other format error of plan.md.
    FormatError,
    ProposalExpired,
    ProposalUnreadable,
}

impl Kind {
    /// Findings about the draft proposal file rather than plan.md.
    pub fn in_proposal(self) -> bool {
        matches!(self, Kind::ProposalExpired | Kind::ProposalUnreadable)
    }
}

/// What `plan doctor --fix` does about a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repair {
    /// Nothing: a person decides.
    None,
    /// Edits to plan.md; `done` says what they do, for the report.
    Edits { done: String, edits: Vec<Edit> },
    /// Delete the proposal file.
    RemoveProposal,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub kind: Kind,
    /// 1-based line of plan.md; 0 for the whole file, or for the proposal.
    pub line: usize,
    pub message: String,
    /// The command (or the edit) that resolves it.
    pub fix: String,
    /// `plan doctor --fix` repairs it.
    pub fixable: bool,
    #[serde(skip)]
    pub repair: Repair,
}

impl Finding {
    fn new(kind: Kind, line: usize, message: String, fix: String) -> Finding {
        Finding {
            kind,
            line,
            message,
            fix,
            fixable: false,
            repair: Repair::None,
        }
    }

    fn repair(mut self, repair: Repair) -> Finding {
        self.fixable = repair != Repair::None;
        self.repair = repair;
        self
    }

    /// What the repair did, for `plan doctor --fix` to report.
    pub fn done(&self) -> Option<&str> {
        match &self.repair {
            Repair::Edits { done, .. } => Some(done),
            Repair::RemoveProposal => Some("deleted the expired draft proposal"),
            Repair::None => None,
        }
    }
}

/// The pending draft proposal (`plan draft` stores it in the git directory).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Proposal {
    Absent,
    Pending { expires_at: i64 },
    Unreadable(String),
}

impl Proposal {
    /// Reads the proposal file's bytes; only `expires_at` (Unix seconds) matters here.
    pub fn parse(bytes: &[u8]) -> Proposal {
        let value: serde_json::Value = match serde_json::from_slice(bytes) {
            Ok(value) => value,
            Err(e) => return Proposal::Unreadable(format!("not valid JSON: {e}")),
        };
        match value.get("expires_at").map(serde_json::Value::as_i64) {
            Some(Some(expires_at)) => Proposal::Pending { expires_at },
            Some(None) => {
                Proposal::Unreadable("`expires_at` is not a whole number of seconds".into())
            }
            None => Proposal::Unreadable("no `expires_at` in it".into()),
        }
    }
}

/// Every finding: plan.md's format errors, then consistency checks goal by goal,
/// then the proposal. `now` is Unix seconds; `proposal_path` names the file in
/// messages.
pub fn check(plan: &Plan<'_>, proposal: &Proposal, proposal_path: &str, now: i64) -> Vec<Finding> {
    let mut out: Vec<Finding> = plan.errors.iter().map(|d| format_error(plan, d)).collect();
    if plan.log_heading.is_none() && plan.appends_safely() {
        out.push(
            Finding::new(
                Kind::NoLog,
                0,
                "no `## Log` section".into(),
                "plan doctor --fix adds it".into(),
            )
            .repair(Repair::Edits {
                done: "added `## Log`".into(),
                edits: vec![Edit::CreateLog],
            }),
        );
    } else if plan.log_heading.is_none() {
        out.push(Finding::new(
            Kind::NoLog,
            0,
            "no `## Log` section".into(),
            "fix the format errors first, then plan doctor --fix adds it".into(),
        ));
    }
    for goal in plan.live() {
        goal_findings(plan, goal, &mut out);
    }
    for goal in &plan.goals {
        proof_finding(plan, goal, &mut out);
    }
    for (id, line) in plan.orphans() {
        out.push(Finding::new(
            Kind::OrphanedId,
            line,
            format!("the log has events for \"{id}\", but no goal has that id"),
            format!("restore the goal, or put `<!-- id: {id} -->` back under its heading (git log -p plan.md shows where it went)"),
        ));
    }
    out.sort_by_key(|f| f.line);
    out.extend(proposal_finding(proposal, proposal_path, now));
    out
}

/// Every edit of the fixable findings, in order.
pub fn fix_edits(findings: &[Finding]) -> Vec<Edit> {
    findings
        .iter()
        .flat_map(|f| match &f.repair {
            Repair::Edits { edits, .. } => edits.clone(),
            _ => Vec::new(),
        })
        .collect()
}

fn format_error(plan: &Plan<'_>, d: &super::diag::Diagnostic) -> Finding {
    let m = d.message.as_str();
    let kind = if m.starts_with("duplicate goal id") {
        Kind::DuplicateId
    } else if m.starts_with("unknown status") {
        Kind::UnknownStatus
    } else if m.starts_with("depends_on names no goal") {
        Kind::MissingDependency
    } else if m.starts_with("dependency cycle") {
        Kind::DependencyCycle
    } else {
        Kind::FormatError
    };
    // Where the diagnostic's own hint points at commands that refuse a plan with
    // errors, say what to edit instead.
    let fix = match kind {
        Kind::UnknownStatus => format!(
            "edit line {} to a known status, e.g. `status: open`; then plan start, plan complete or plan cancel move it",
            d.line
        ),
        Kind::MissingDependency
            if !d
                .hint
                .as_deref()
                .is_some_and(|h| h.starts_with("did you mean")) =>
        {
            let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
            format!(
                "edit line {}: depends_on takes goal ids, comma-separated; the goals are {}",
                d.line,
                ids.join(", ")
            )
        }
        _ => d
            .hint
            .clone()
            .unwrap_or_else(|| format!("edit line {}", d.line)),
    };
    Finding::new(kind, d.line, d.message.clone(), fix)
}

/// What to do by hand before `--fix` touches a goal: its format errors, by line.
fn manual_fix(plan: &Plan<'_>, goal: &Goal<'_>) -> String {
    let errors: Vec<&Diagnostic> = plan
        .errors
        .iter()
        .filter(|e| (goal.line..=goal.end).contains(&e.line))
        .collect();
    let mut lines: Vec<String> = errors.iter().map(|e| e.line.to_string()).collect();
    lines.dedup();
    let which = match (errors.len(), lines.len()) {
        (1, _) => "error on line",
        (_, 1) => "errors on line",
        _ => "errors on lines",
    };
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    format!(
        "fix the format {which} {} first ({}), then plan doctor --fix",
        lines.join(", "),
        messages.join("; ")
    )
}

/// A goal with a format error anywhere in its section is left alone by `--fix`.
fn has_errors(plan: &Plan<'_>, goal: &Goal<'_>) -> bool {
    plan.errors
        .iter()
        .any(|e| (goal.line..=goal.end).contains(&e.line))
}

fn goal_findings(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Finding>) {
    let id = goal.id.as_ref();
    let blocked = has_errors(plan, goal);
    let manual = manual_fix(plan, goal);
    let mechanical = |fix: String, repair: Repair| {
        if blocked {
            (manual.to_string(), Repair::None)
        } else {
            (fix, repair)
        }
    };
    if goal.id_line.is_none() {
        let line = format!("<!-- id: {id} -->");
        let (fix, repair) = mechanical(
            format!("plan doctor --fix adds `{line}` under the heading"),
            Repair::Edits {
                done: format!("added `{line}` under \"{}\"", goal.title),
                edits: ops::id_comment(plan, goal),
            },
        );
        out.push(
            Finding::new(
                Kind::NoId,
                goal.line,
                format!("goal \"{id}\" has no id comment, so renaming its title changes its id"),
                fix,
            )
            .repair(repair),
        );
    }
    // `Status: done` or an indented `status:` is a person's status line that plan
    // does not read; adding another would contradict it.
    let written_otherwise = (goal.line..=goal.end).find(|&no| {
        let t = plan.line_text(no).trim_start();
        t.split_once(':')
            .is_some_and(|(key, _)| key.trim().eq_ignore_ascii_case("status"))
    });
    if let (None, Some(line)) = (&goal.status, written_otherwise) {
        out.push(Finding::new(
            Kind::NoStatus,
            line,
            format!("goal \"{id}\" has a status line plan does not read"),
            "write it as `status: open|active|done|cancelled`, lower case, at the start of the line".to_string(),
        ));
    } else if goal.status.is_none() {
        let at = goal.id_line.unwrap_or(goal.line);
        let (fix, repair) = mechanical(
            "plan doctor --fix adds `status: open`".to_string(),
            Repair::Edits {
                done: format!("added `status: open` to \"{}\"", goal.title),
                edits: vec![Edit::insert_after(
                    at,
                    plan.line_text(at),
                    vec!["status: open".to_string()],
                )],
            },
        );
        out.push(
            Finding::new(
                Kind::NoStatus,
                goal.line,
                format!("goal \"{id}\" has no `status:` line"),
                fix,
            )
            .repair(repair),
        );
    }
    let status_line = goal.status.as_ref().map_or(goal.line, |f| f.line);
    if goal.status() == Status::Active {
        let now = goal.fingerprint();
        if let Some(logged) = plan.logged_contract(id).filter(|l| *l != now) {
            out.push(Finding::new(
                Kind::ContractChanged,
                goal.line,
                format!(
                    "the contract of \"{id}\" changed since it was logged (contract {logged}, now {now})"
                ),
                format!(
                    "review the change (plan diff {id}, git log -p plan.md), then plan start {id} --reapprove"
                ),
            ));
        }
        // Unknown dependencies are format errors already.
        let waits: Vec<&str> = plan
            .unmet_dependencies(goal)
            .into_iter()
            .filter(|dep| plan.goal(dep).is_some())
            .collect();
        if !waits.is_empty() {
            let waits = waits.join(", ");
            out.push(Finding::new(
                Kind::WaitingOnDependencies,
                goal.depends_line.unwrap_or(goal.line),
                format!("goal \"{id}\" is active but waits on {waits}"),
                format!(
                    "finish {waits} first (plan next lists what is ready), or set line {status_line} back to `status: open`"
                ),
            ));
        }
    }
}

/// A finished goal's record, an archived goal that is not finished, and contract
/// changes approved without a terminal.
fn proof_finding(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Finding>) {
    let id = goal.id.as_ref();
    let line = goal.status.as_ref().map_or(goal.line, |f| f.line);
    match plan.proof(goal) {
        Proof::Unproven { why, hint } => out.push(Finding::new(
            Kind::Unproven,
            line,
            format!(
                "goal \"{id}\" is {} but unproven: {why}",
                goal.status().as_str()
            ),
            hint,
        )),
        Proof::Proven { warnings } => {
            for warning in warnings {
                out.push(Finding::new(
                    Kind::WeakSignOff,
                    line,
                    format!("goal \"{id}\" was {warning}"),
                    format!("plan audit shows its record; to have a model judge it, reopen it and run plan complete {id} again"),
                ));
            }
        }
        Proof::Unfinished if goal.archived => out.push(Finding::new(
            Kind::ArchivedUnfinished,
            line,
            format!(
                "goal \"{id}\" is under `## Archive` but {}",
                goal.status().as_str()
            ),
            "move it back above `## Log`, then finish it with plan complete or plan cancel".into(),
        )),
        Proof::Unfinished => {}
    }
    let unseen = history::unseen_changes(&history::contract_steps(plan, id));
    if !goal.archived && !unseen.is_empty() {
        let lines: Vec<String> = unseen.iter().map(usize::to_string).collect();
        out.push(Finding::new(
            Kind::ApprovedWithoutTerminal,
            unseen[0],
            format!(
                "the contract of \"{id}\" was changed after creation and approved without a terminal (log line {})",
                lines.join(", ")
            ),
            format!("review it (plan diff {id}); if it stands, plan start {id} --reapprove at a terminal records that you saw it"),
        ));
    }
}

fn proposal_finding(proposal: &Proposal, path: &str, now: i64) -> Option<Finding> {
    match proposal {
        Proposal::Absent => None,
        Proposal::Pending { expires_at } if *expires_at > now => None,
        Proposal::Pending { expires_at } => Some(
            Finding::new(
                Kind::ProposalExpired,
                0,
                format!("the draft proposal expired {}", ago(now - expires_at)),
                "plan doctor --fix deletes it; plan draft OBJECTIVE drafts a new one".into(),
            )
            .repair(Repair::RemoveProposal),
        ),
        Proposal::Unreadable(why) => Some(Finding::new(
            Kind::ProposalUnreadable,
            0,
            format!("the draft proposal cannot be read: {why}"),
            format!("delete it (rm {path}); plan draft OBJECTIVE drafts a new one"),
        )),
    }
}

/// `5 minutes ago`, `2 hours ago`, `3 days ago`.
fn ago(seconds: i64) -> String {
    let (n, unit) = match seconds {
        s if s < 60 => return "just now".to_string(),
        s if s < 3600 => (s / 60, "minute"),
        s if s < 86_400 => (s / 3600, "hour"),
        s => (s / 86_400, "day"),
    };
    format!("{n} {unit}{} ago", if n == 1 { "" } else { "s" })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;
    use crate::plan::patch::apply;

    const PATH: &str = ".git/plan/proposal.json";

    fn kinds(src: &str) -> Vec<(usize, Kind, bool)> {
        check(&parse(src), &Proposal::Absent, PATH, 0)
            .into_iter()
            .map(|f| (f.line, f.kind, f.fixable))
            .collect()
    }

    fn fixed(src: &str) -> String {
        let plan = parse(src);
        let findings = check(&plan, &Proposal::Absent, PATH, 0);
        apply(src, &fix_edits(&findings)).unwrap()
    }

    #[test]
    fn a_status_line_written_otherwise_is_reported_not_doubled() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nStatus: done\n## Log\n";
        let got = kinds(src);
        assert!(got.contains(&(4, Kind::NoStatus, false)), "{got:?}");
        assert_eq!(fixed(src), src);
    }

    #[test]
    fn a_consistent_plan_has_no_findings() {
        let src = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n";
        assert_eq!(kinds(src), []);
    }

    #[test]
    fn hand_written_goal_gets_id_status_and_a_log() {
        let src = "# Plan: x\n\n## Goal: Write Docs\ndone_when: y\n\n## Goal: B\n<!-- id: b -->\n";
        assert_eq!(
            kinds(src),
            [
                (0, Kind::NoLog, true),
                (3, Kind::NoId, true),
                (3, Kind::NoStatus, true),
                (6, Kind::NoStatus, true),
            ]
        );
        let out = fixed(src);
        assert_eq!(
            out,
            "# Plan: x\n\n## Goal: Write Docs\n<!-- id: write-docs -->\nstatus: open\ndone_when: y\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n"
        );
        assert_eq!(kinds(&out), []);
    }

    #[test]
    fn sign_off_contract_and_dependencies_are_reported_not_fixed() {
        let src = "# Plan: x
## Goal: A
<!-- id: a -->
status: done
## Goal: B
<!-- id: b -->
status: active
depends_on: c
done_when: y
## Goal: C
<!-- id: c -->
status: open
## Log
- 2026-01-01 00:00 b started (contract 00000000)
";
        let mut plan = parse(src);
        plan.prove_legacy();
        let findings = check(&plan, &Proposal::Absent, PATH, 0);
        let got: Vec<_> = findings
            .iter()
            .map(|f| (f.line, f.kind, f.fixable))
            .collect();
        assert_eq!(
            got,
            [
                (4, Kind::Unproven, false),
                (5, Kind::ContractChanged, false),
                (8, Kind::WaitingOnDependencies, false),
            ]
        );
        assert!(findings[1].fix.ends_with("plan start b --reapprove"));
        assert!(findings[0].fix.contains("plan complete a --evidence"));
        assert!(fix_edits(&findings).is_empty());
    }

    #[test]
    fn format_errors_are_findings_and_block_fixes_in_their_goal() {
        let src = "# Plan: x
## Goal: Same
## Goal: Same
## Goal: Odd
status: doing
## Goal: Loop
depends_on: loop, ghost
## Goal: Fine
## Log
";
        let got = kinds(src);
        assert!(got.contains(&(3, Kind::DuplicateId, false)));
        assert!(got.contains(&(5, Kind::UnknownStatus, false)));
        assert!(got.contains(&(7, Kind::MissingDependency, false)));
        assert!(got.contains(&(7, Kind::DependencyCycle, false)));
        // The duplicate's goal, the odd status's and the cycle's are left alone.
        assert!(got.contains(&(3, Kind::NoId, false)));
        assert!(got.contains(&(4, Kind::NoId, false)));
        assert!(got.contains(&(6, Kind::NoStatus, false)));
        // The first "Same" and "Fine" are repaired.
        assert!(got.contains(&(2, Kind::NoId, true)));
        assert!(got.contains(&(8, Kind::NoStatus, true)));
        let out = fixed(src);
        assert_eq!(parse(&out).errors.len(), parse(src).errors.len());
        assert!(out.starts_with("# Plan: x\n## Goal: Same\n<!-- id: same -->\nstatus: open\n## Goal: Same\n## Goal: Odd\nstatus: doing\n"));
        assert!(out.ends_with("## Goal: Fine\n<!-- id: fine -->\nstatus: open\n## Log\n"));
    }

    #[test]
    fn proposal_expiry() {
        let plan = parse("# Plan: x\n## Log\n");
        let at = |p: Proposal, now| check(&plan, &p, PATH, now);
        assert!(at(Proposal::Absent, 100).is_empty());
        assert!(at(Proposal::Pending { expires_at: 100 }, 99).is_empty());
        let expired = at(Proposal::Pending { expires_at: 100 }, 100 + 7200);
        assert_eq!(expired.len(), 1);
        assert_eq!(expired[0].kind, Kind::ProposalExpired);
        assert_eq!(expired[0].message, "the draft proposal expired 2 hours ago");
        assert_eq!(expired[0].repair, Repair::RemoveProposal);
        let bad = at(Proposal::parse(b"{not json"), 0);
        assert_eq!(bad[0].kind, Kind::ProposalUnreadable);
        assert!(!bad[0].fixable);
        assert!(bad[0].fix.contains("rm .git/plan/proposal.json"));
    }

    #[test]
    fn proposal_parsing() {
        assert_eq!(
            Proposal::parse(br#"{"expires_at": 1750000000, "goals": []}"#),
            Proposal::Pending {
                expires_at: 1_750_000_000
            }
        );
        assert!(
            matches!(Proposal::parse(b"{}"), Proposal::Unreadable(w) if w.contains("no `expires_at`"))
        );
        assert!(matches!(
            Proposal::parse(br#"{"expires_at": "soon"}"#),
            Proposal::Unreadable(_)
        ));
        assert!(matches!(Proposal::parse(b"\xff"), Proposal::Unreadable(_)));
    }

    #[test]
    fn ago_reads_naturally() {
        assert_eq!(ago(5), "just now");
        assert_eq!(ago(60), "1 minute ago");
        assert_eq!(ago(3 * 86_400 + 5), "3 days ago");
    }

    #[test]
    fn no_log_is_not_added_where_it_would_be_swallowed() {
        for src in [
            "# Plan: x\n## Goal: A\n<!-- id: a -->\n<!--\nnote\n",
            "# Plan: x\r## Goal: A\r",
        ] {
            assert_eq!(fixed(src), src, "{src:?}");
            let no_log = kinds(src).into_iter().find(|k| k.1 == Kind::NoLog).unwrap();
            assert!(!no_log.2, "{src:?}: a `## Log` would land inside");
        }
    }
}

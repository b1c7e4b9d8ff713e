//! `plan doctor`'s findings: the rules of the table (src/plan/rules.rs) marked for
//! doctor that hold against a plan (and its pending draft proposal), the command
//! that resolves each, and the edits for the mechanical ones. Pure: works on a plan
//! with format errors too, and never repairs a goal that has one (other than the
//! one it repairs), so a fix cannot land on a line whose meaning is in doubt.

use serde::Serialize;

use super::checks::{self, Hit};
use super::diag::{Diagnostic, Severity};
use super::event::Event;
use super::model::{Goal, Plan, Status, blob_id, parse};
use super::ops;
use super::patch::Edit;
use super::proof::Header;
use super::rules::Rule;

/// What `plan doctor --fix` does about a finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repair {
    /// Nothing: a person decides.
    None,
    /// Edits to plan.md; `done` says what they do, for the report.
    Edits { done: String, edits: Vec<Edit> },
    /// Delete the proposal file.
    RemoveProposal,
    /// Put a rebuilt plan.md in place of a cut one (src/rebuild.rs); `done` says
    /// from what, and where the cut file is kept.
    Rebuild { done: String },
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Finding {
    pub rule: Rule,
    pub severity: Severity,
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
    fn new(rule: Rule, line: usize, message: String, fix: String) -> Finding {
        Finding {
            rule,
            severity: rule.in_plan(Status::Open).unwrap_or(Severity::Error),
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
            Repair::Rebuild { done } => Some(done),
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
    let mut out: Vec<Finding> = checks::check(plan, &checks::any_verify)
        .into_iter()
        .filter(|hit| hit.rule.spec().doctor)
        .filter_map(|hit| finding(plan, hit))
        .collect();
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

/// A rule's hit as doctor reports it, with the severity the table gives it; `None`
/// when the table does not report it for the goal's status.
fn finding(plan: &Plan<'_>, hit: Hit) -> Option<Finding> {
    let severity = hit.severity()?;
    let goal = plan.goal_at(hit.line).filter(|_| hit.line > 0);
    let fix = if hit.hint.is_empty() {
        format!("edit line {}", hit.line)
    } else {
        hit.hint.clone()
    };
    let mut f = Finding {
        severity,
        ..Finding::new(hit.rule, hit.line, hit.message, fix)
    };
    match (hit.repair, goal) {
        (Some(_), Some(goal)) if blocked(plan, goal) => f.fix = manual_fix(plan, goal),
        (Some(repair), _) => {
            f.fix = repair.fix;
            f = f.repair(Repair::Edits {
                done: repair.done,
                edits: repair.edits,
            });
        }
        (None, _) => {}
    }
    Some(f)
}

/// A goal with a format error anywhere in its section is left alone by `--fix`,
/// unless every error there is a status line doctor rewrites.
fn blocked(plan: &Plan<'_>, goal: &Goal<'_>) -> bool {
    // Its own section only: repairs are edits to its lines, whatever other goal
    // shares its id.
    // The repairs that go into a goal with errors are of those errors: a status
    // line rewritten, and an id comment that gives a title used twice its own id.
    !plan
        .errors_within(goal.line, goal.end)
        .iter()
        .all(|error| match error.rule {
            Some(Rule::UnknownStatus) => super::checks::status_typo_repair(plan, error).is_some(),
            Some(Rule::MalformedStatus) => goal.status.is_none() && repairs_status(plan, error),
            Some(Rule::DuplicateId) => goal.id_line.is_none() && error.line == goal.line,
            _ => false,
        })
}

fn repairs_status(plan: &Plan<'_>, error: &Diagnostic) -> bool {
    super::model::status_near_miss(plan.line_text(error.line)).is_some_and(|s| s.is_some())
}

/// What to do by hand before `--fix` touches a goal: which lines to edit, and
/// their errors, whose own findings say how; never a wait on another finding.
fn manual_fix(plan: &Plan<'_>, goal: &Goal<'_>) -> String {
    let errors = plan.errors_within(goal.line, goal.end);
    let mut lines: Vec<String> = errors.iter().map(|e| e.line.to_string()).collect();
    lines.dedup();
    let which = if lines.len() == 1 { "line" } else { "lines" };
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    format!(
        "edit {which} {} by hand ({}: its findings say how); then plan doctor --fix repairs the rest",
        lines.join(", "),
        messages.join("; ")
    )
}

fn proposal_finding(proposal: &Proposal, path: &str, now: i64) -> Option<Finding> {
    match proposal {
        Proposal::Absent => None,
        Proposal::Pending { expires_at } if *expires_at > now => None,
        Proposal::Pending { expires_at } => Some(
            Finding::new(
                Rule::ProposalExpired,
                0,
                format!("the draft proposal expired {}", ago(now - expires_at)),
                "plan doctor --fix deletes it; plan draft OBJECTIVE drafts a new one".into(),
            )
            .repair(Repair::RemoveProposal),
        ),
        Proposal::Unreadable(why) => Some(Finding::new(
            Rule::ProposalUnreadable,
            0,
            format!("the draft proposal cannot be read: {why}"),
            format!("delete it (rm {path}); plan draft OBJECTIVE drafts a new one"),
        )),
    }
}

/// What a merge made without plan's merge driver leaves behind, each with its
/// repair: later exact copies of stamped log lines ("accept both", `merge=union`),
/// and done goals whose contract a line-wise merge split or stripped, which their
/// sign-off transcript still holds. `transcript` gives a transcript's text by the
/// path a sign-off line names (`None`: not there); `merged` how many copies of a
/// log line (its whole text) merges made, by the history ([`copied_lines`] are the
/// ones to ask about); `stamp` is the repair's log stamp. Each repair logs a typed
/// event, so the change stays visible and `plan audit` can tell a removed copy from
/// a removed line.
pub fn merge_damage(
    plan: &Plan<'_>,
    transcript: &dyn Fn(&str) -> Option<String>,
    merged: &dyn Fn(&str) -> usize,
    stamp: &str,
) -> Vec<Finding> {
    let mut out: Vec<Finding> = plan
        .goals
        .iter()
        .filter(|g| !blocked(plan, g))
        .filter_map(|g| split_contract(plan, g, transcript, stamp))
        .collect();
    out.extend(duplicated_lines(plan, merged, stamp));
    out
}

/// An open or active goal whose contract is not the one its log last recorded,
/// and `then`, the goal's section in a committed version of plan.md whose contract
/// is that one: when every line the goal has now is in `then`, in order, the lines
/// only `then` has were lost (an "accept both" merge of two goals that end alike
/// keeps one copy of the shared lines), and they go back where `then` had them.
/// Nothing is guessed: a goal with any line of its own gets no repair.
pub fn lost_goal_lines(plan: &Plan<'_>, goal: &Goal<'_>, then: &str) -> Option<Finding> {
    if !matches!(goal.status(), Status::Open | Status::Active) || goal.archived {
        return None;
    }
    let id = goal.id.as_ref();
    let now: Vec<usize> = (goal.line..=goal.last_content).collect();
    let then: Vec<&str> = then.lines().map(|l| l.trim_end_matches('\r')).collect();
    let mut edits = Vec::new();
    let mut at = 0;
    let mut lost: Vec<String> = Vec::new();
    let mut anchor = goal.line;
    let mut restored = 0;
    for line in then.iter().copied() {
        match now.get(at) {
            Some(&n) if plan.line_text(n).trim_end_matches(['\r', '\n']) == line => {
                if !lost.is_empty() {
                    restored += lost.len();
                    edits.push(Edit::insert_after(
                        anchor,
                        plan.line_text(anchor),
                        std::mem::take(&mut lost),
                    ));
                }
                anchor = n;
                at += 1;
            }
            _ => lost.push(line.to_string()),
        }
    }
    let trailing: Vec<String> = lost
        .into_iter()
        .rev()
        .skip_while(|l| l.trim().is_empty())
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    if !trailing.is_empty() {
        restored += trailing.len();
        edits.push(Edit::insert_after(anchor, plan.line_text(anchor), trailing));
    }
    if at < now.len() || edits.is_empty() {
        return None;
    }
    let lines = if restored == 1 { "line" } else { "lines" };
    Some(
        Finding::new(
            Rule::LostGoalLines,
            goal.line,
            format!(
                "goal \"{id}\" lost {restored} {lines} of the version its log recorded (a failure mode or subtask a merge without plan's driver stripped); a committed version of plan.md has them"
            ),
            "plan doctor --fix puts them back; `plan install git` sets up the merge driver".into(),
        )
        .repair(Repair::Edits {
            done: format!("put back {restored} {lines} of goal {id} from git's history"),
            edits,
        }),
    )
}

/// The stamped log lines (whole line texts) that the log holds more than once, each
/// once: the lines [`merge_damage`] asks the history about.
pub fn copied_lines<'p>(plan: &Plan<'p>) -> Vec<&'p str> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for e in plan.log.iter().filter(|e| e.stamp.is_some()) {
        if !seen.insert((e.stamp, e.text)) {
            let text = plan.line_text(e.line);
            if !out.contains(&text) {
                out.push(text);
            }
        }
    }
    out
}

/// Later copies of stamped log lines that merges made: the first of equal lines
/// stays where it is, so the log keeps its order and nothing a later line voided
/// comes back. A copy no merge made (a person who ran the suite twice in a minute
/// and logged the same words) is honest work and stays.
fn duplicated_lines(
    plan: &Plan<'_>,
    merged: &dyn Fn(&str) -> usize,
    stamp: &str,
) -> Option<Finding> {
    let mut seen = std::collections::HashSet::new();
    let mut left: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    let copies: Vec<usize> = plan
        .log
        .iter()
        .filter(|e| e.stamp.is_some() && !seen.insert((e.stamp, e.text)))
        .filter(|e| {
            let text = plan.line_text(e.line);
            let n = left.entry(text).or_insert_with(|| merged(text));
            let take = *n > 0;
            *n = n.saturating_sub(1);
            take
        })
        .map(|e| e.line)
        .collect();
    let first = *copies.first()?;
    let n = copies.len();
    let lines = if n == 1 { "line" } else { "lines" };
    let mut edits: Vec<Edit> = copies
        .iter()
        .map(|&line| Edit::Delete {
            line,
            expect: plan.line_text(line).to_string(),
        })
        .collect();
    edits.push(ops::event(stamp, &Event::LogRepaired { removed: n }));
    let at: Vec<String> = copies.iter().map(usize::to_string).collect();
    Some(
        Finding::new(
            Rule::DuplicatedLogLine,
            first,
            format!(
                "{n} log {lines} ({}) {} (a merge without plan's merge driver: \"accept both\" or merge=union)",
                at.join(", "),
                if n == 1 {
                    "is an exact copy of a line above"
                } else {
                    "are exact copies of lines above"
                }
            ),
            "plan doctor --fix removes the later copies and logs the repair; `plan install git` sets up the merge driver".into(),
        )
        .repair(Repair::Edits {
            done: format!("removed {n} duplicated log {lines}"),
            edits,
        }),
    )
}

/// A done goal whose contract is not the one its latest sign-off judged, when the
/// sign-off's transcript (its bytes as the line hashed them) holds that contract:
/// the contract lines are put back exactly as judged. Nothing is guessed: the
/// restored goal must have the transcript's whole contract id, or there is no repair.
fn split_contract(
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    transcript: &dyn Fn(&str) -> Option<String>,
    stamp: &str,
) -> Option<Finding> {
    if goal.status() != Status::Done {
        return None;
    }
    let id = goal.id.as_ref();
    // The latest event that decides a done goal's standing must be its sign-off:
    // a reopen or a new contract after it is not the merge's doing.
    let (_, signed) = plan.events(id).rev().find(|(_, e)| {
        matches!(e, Event::SignedOff { .. } | Event::Reopened { .. }) || e.contract().is_some()
    })?;
    let Event::SignedOff {
        contract: Some(contract),
        record: Some(record),
        ..
    } = signed
    else {
        return None;
    };
    let now = goal.fingerprint();
    if now == contract {
        return None;
    }
    let text = transcript(record.path)?;
    if !blob_id(text.as_bytes()).starts_with(record.hash) || record.hash.is_empty() {
        return None;
    }
    let header = Header::parse(&text)?;
    if header.goal != id || header.verdict != "accept" {
        return None;
    }
    let judged_src = judged_contract(&text)?;
    let judged = parse(&judged_src);
    let judged = judged.goals.first()?;
    if judged.contract_id() != header.contract || !header.contract.starts_with(contract) {
        return None;
    }
    let mut edits: Vec<Edit> = contract_lines(goal)
        .into_iter()
        .map(|line| Edit::Delete {
            line,
            expect: plan.line_text(line).to_string(),
        })
        .collect();
    let anchor = [
        Some(goal.line),
        goal.id_line,
        goal.status.as_ref().map(|f| f.line),
    ]
    .into_iter()
    .flatten()
    .max()
    .unwrap_or(goal.line);
    edits.push(Edit::insert_after(
        anchor,
        plan.line_text(anchor),
        written_contract(judged),
    ));
    edits.push(ops::event(
        stamp,
        &Event::ContractRestored {
            id,
            record: record.path,
        },
    ));
    // Checked on the result, not assumed: the goal as restored has the contract
    // the transcript judged, whole.
    let restored = super::patch::apply(plan.src, &edits).ok()?;
    let after = parse(&restored);
    let same_place = after.goals.iter().find(|g| g.line == goal.line)?;
    if same_place.id != goal.id || same_place.contract_id() != header.contract {
        return None;
    }
    Some(
        Finding::new(
            Rule::SplitContract,
            goal.line,
            format!(
                "the contract of \"{id}\" is not the one signed off (signed off {contract}, now {now}), and its transcript {} holds the contract as judged (a line-wise merge splits and strips goals)",
                record.path
            ),
            "plan doctor --fix restores it from the transcript and logs the repair; to change a done goal's contract, plan reopen it first".into(),
        )
        .repair(Repair::Edits {
            done: format!("restored the contract of {id} from {}", record.path),
            edits,
        }),
    )
}

/// The lines of plan.md that hold `goal`'s contract, in order.
fn contract_lines(goal: &Goal<'_>) -> Vec<usize> {
    let mut lines: Vec<usize> = [
        goal.done_when.as_ref().map(|f| f.line),
        goal.verify.as_ref().map(|f| f.line),
        goal.depends_line,
        goal.failure_modes_line,
    ]
    .into_iter()
    .flatten()
    .chain(goal.failure_modes.iter().map(|f| f.line))
    .collect();
    lines.sort_unstable();
    lines.dedup();
    lines
}

/// A contract as plan writes it in a goal: empty fields left out.
fn written_contract(goal: &Goal<'_>) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(done_when) = goal.done_when() {
        out.push(format!("done_when: {done_when}"));
    }
    if let Some(verify) = goal.verify() {
        out.push(format!("verify: {verify}"));
    }
    if !goal.depends_on.is_empty() {
        out.push(format!("depends_on: {}", goal.depends_on.join(", ")));
    }
    if !goal.failure_modes.is_empty() {
        out.push("failure_modes:".to_string());
        out.extend(goal.failure_modes.iter().map(|m| format!("- {}", m.value)));
    }
    out
}

/// The transcript's "Contract as judged" section, as a one-goal plan.
fn judged_contract(transcript: &str) -> Option<String> {
    let mut lines = transcript.lines();
    lines.find(|l| *l == "## Contract as judged")?;
    let mut lines = lines.skip_while(|l| l.trim().is_empty());
    let heading = lines.next()?.strip_prefix("## Goal: ")?;
    let body: Vec<&str> = lines.take_while(|l| !l.starts_with("## ")).collect();
    Some(format!(
        "## Goal: {heading}\n<!-- id: judged -->\nstatus: done\n{}\n",
        body.join("\n")
    ))
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

    fn kinds(src: &str) -> Vec<(usize, Rule, bool)> {
        check(&parse(src), &Proposal::Absent, PATH, 0)
            .into_iter()
            .map(|f| (f.line, f.rule, f.fixable))
            .collect()
    }

    fn fixed(src: &str) -> String {
        let plan = parse(src);
        let findings = check(&plan, &Proposal::Absent, PATH, 0);
        apply(src, &fix_edits(&findings)).unwrap()
    }

    #[test]
    fn a_status_line_written_otherwise_is_rewritten_not_doubled() {
        let src = "# Plan: x\n## Goal: A\n<!-- id: a -->\nStatus: done\n## Log\n";
        assert_eq!(kinds(src), [(4, Rule::MalformedStatus, true)]);
        assert_eq!(
            fixed(src),
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: done\n## Log\n"
        );
        // Two of them, or one beside a status plan reads: a person decides.
        for src in [
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nStatus: done\nstatus active\n## Log\n",
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: open\nStatus: done\n## Log\n",
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nStatus: doing\n## Log\n",
        ] {
            assert_eq!(fixed(src), src, "{src:?}");
        }
    }

    /// Goal `x` as signed off (two failure modes), its transcript, and the
    /// sign-off line naming it.
    fn signed_x() -> (String, String) {
        let judged = "## Goal: X\n<!-- id: x -->\nstatus: done\ndone_when: x exists\nfailure_modes:\n- it is empty\n- it is wrong\n";
        let goal = parse(judged);
        let goal = &goal.goals[0];
        let header = Header {
            goal: "x".into(),
            contract: goal.contract_id(),
            verdict: "accept".into(),
            judge: "none".into(),
            ..Header::default()
        };
        let transcript = format!(
            "{}\n## Contract as judged\n\n## Goal: X\n{}\n## Contract history\n\n- created\n",
            header.render(),
            goal.contract()
        );
        let line = format!(
            "- 2026-06-15 15:02 x signed off (no verify, judge skipped, contract {}): .plan/judge/x.md#{}\n",
            goal.fingerprint(),
            &blob_id(transcript.as_bytes())[..12]
        );
        (transcript, line)
    }

    #[test]
    fn a_stripped_contract_comes_back_from_its_transcript_exactly() {
        let (transcript, signed) = signed_x();
        let src = format!(
            "# Plan: x\n\n## Goal: X\n<!-- id: x -->\nstatus: done\ndone_when: x exists\n## Goal: Y\n<!-- id: y -->\nstatus: open\nfailure_modes:\n- it is empty\n- it is wrong\n\n## Log\n{signed}"
        );
        let plan = parse(&src);
        let read = |rel: &str| (rel == ".plan/judge/x.md").then(|| transcript.clone());
        let found = merge_damage(&plan, &read, &|_| 0, "2026-06-15 17:00");
        assert_eq!(
            found
                .iter()
                .map(|f| (f.line, f.rule, f.fixable))
                .collect::<Vec<_>>(),
            [(3, Rule::SplitContract, true)]
        );
        let out = apply(&src, &fix_edits(&found)).unwrap();
        assert_eq!(
            out,
            src.replace(
                "done_when: x exists\n",
                "done_when: x exists\nfailure_modes:\n- it is empty\n- it is wrong\n"
            ) + "- 2026-06-15 17:00 x contract restored from .plan/judge/x.md\n"
        );
        // A transcript that is not the bytes the sign-off hashed restores nothing.
        let forged = |_: &str| Some(transcript.replace("it is wrong", "it is slow"));
        assert_eq!(merge_damage(&plan, &forged, &|_| 0, "2026-06-15 17:00"), []);
        // Nor does one after a reopen: the sign-off no longer stands.
        let reopened = format!("{src}- 2026-06-15 16:00 x reopened: again\n");
        assert_eq!(merge_damage(&parse(&reopened), &read, &|_| 0, "s"), []);
    }

    #[test]
    fn later_copies_of_log_lines_go_and_the_first_stays() {
        let src = "# Plan: x\n\n## Log\n- 2026-06-15 14:00 one\n- 2026-06-15 14:01 two\n- 2026-06-15 14:00 one\n- two\n- two\n";
        let plan = parse(src);
        assert_eq!(copied_lines(&plan), ["- 2026-06-15 14:00 one"]);
        // The history shows no merge that made the copy: it stays.
        assert_eq!(
            merge_damage(&plan, &|_| None, &|_| 0, "2026-06-15 17:00"),
            []
        );
        let found = merge_damage(&plan, &|_| None, &|_| 1, "2026-06-15 17:00");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].line, 6);
        // Unstamped lines are left: nothing says they are one event.
        assert_eq!(
            apply(src, &fix_edits(&found)).unwrap(),
            "# Plan: x\n\n## Log\n- 2026-06-15 14:00 one\n- 2026-06-15 14:01 two\n- two\n- two\n- 2026-06-15 17:00 log repaired: removed 1 duplicated line\n"
        );
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
                (0, Rule::NoLog, true),
                (3, Rule::NoId, true),
                (3, Rule::NoStatus, true),
                (6, Rule::NoStatus, true),
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
            .map(|f| (f.line, f.rule, f.fixable))
            .collect();
        assert_eq!(
            got,
            [
                (4, Rule::Unproven, false),
                (5, Rule::ContractChanged, false),
                (8, Rule::WaitingOnDependencies, false),
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
status: someday
## Goal: Loop
depends_on: loop, ghost
## Goal: Fine
## Log
";
        let got = kinds(src);
        assert!(got.contains(&(3, Rule::DuplicateId, false)));
        assert!(got.contains(&(5, Rule::UnknownStatus, false)));
        assert!(got.contains(&(7, Rule::MissingDependency, false)));
        assert!(got.contains(&(7, Rule::DependencyCycle, false)));
        // The odd status's goal and the cycle's are left alone; the title used
        // twice gets an id of its own (issue 36: it was left alone, waiting on itself).
        assert!(got.contains(&(3, Rule::NoId, true)));
        assert!(got.contains(&(4, Rule::NoId, false)));
        assert!(got.contains(&(6, Rule::NoStatus, false)));
        // The first "Same" and "Fine" are repaired.
        assert!(got.contains(&(2, Rule::NoId, true)));
        assert!(got.contains(&(8, Rule::NoStatus, true)));
        let out = fixed(src);
        assert_eq!(parse(&out).errors.len(), parse(src).errors.len() - 1);
        assert!(out.starts_with("# Plan: x\n## Goal: Same\n<!-- id: same -->\nstatus: open\n## Goal: Same\n<!-- id: same-2 -->\nstatus: open\n## Goal: Odd\nstatus: someday\n"), "{out}");
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
        assert_eq!(expired[0].rule, Rule::ProposalExpired);
        assert_eq!(expired[0].message, "the draft proposal expired 2 hours ago");
        assert_eq!(expired[0].repair, Repair::RemoveProposal);
        let bad = at(Proposal::parse(b"{not json"), 0);
        assert_eq!(bad[0].rule, Rule::ProposalUnreadable);
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
            let no_log = kinds(src).into_iter().find(|k| k.1 == Rule::NoLog).unwrap();
            assert!(!no_log.2, "{src:?}: a `## Log` would land inside");
        }
    }
}

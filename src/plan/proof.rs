//! Whether a finished goal is proven: the one check that show, lint, doctor, audit,
//! the injection, the continuation guard and dependencies all use. Also the
//! transcript's record header, written and read here so both sides agree. Pure:
//! what is on disk about a transcript (exists, hash, header) is passed in.

use super::event::{Event, Judged, Record};
use super::model::{Goal, Plan, Status};
pub use super::standing::Proof;

/// Where transcripts live, relative to the repository root.
pub const JUDGE_DIR: &str = ".plan/judge/";

/// What is on disk at a transcript path the log names.
#[derive(Clone, Debug, PartialEq, Eq)]
#[expect(
    clippy::large_enum_variant,
    reason = "one per transcript a plan names; boxing buys nothing"
)]
pub enum Facts {
    /// No regular file there (or the path is not one plan would have written).
    Missing,
    Present {
        /// The git blob id of the file's bytes.
        hash: String,
        header: Option<Header>,
    },
}

/// The machine-readable head of a transcript.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Header {
    pub goal: String,
    pub contract: String,
    pub verdict: String,
    /// `claude:opus`, `command`, `none`.
    pub judge: String,
    /// The prompt overrides in `.plan/prompts/` that shaped the prompt, if any.
    pub overrides: Vec<String>,
    /// The repository files verify named (a script, a test file), each with the git
    /// blob id it had when verify passed: `plan audit --reverify` refuses to
    /// re-run a check whose own files changed since.
    pub verify_files: Vec<(String, String)>,
    /// What the weakened-tests check found since the goal started (`weakened
    /// tests` lines); `None` when the transcript predates the check.
    #[serde(default)]
    pub weakened_tests: Option<Vec<super::weakened::Finding>>,
    /// A panel's judges, each with its own verdict (`panel judge` lines), in the
    /// order the sign-off line names them; empty for one judge.
    #[serde(default)]
    pub panel: Vec<(String, String)>,
    /// `YYYY-MM-DD HH:MM`: when it was written, the stamp its sign-off line carries.
    /// Empty in a header that has none.
    #[serde(default)]
    pub when: String,
    /// From the body, read with the header but not written by [`Header::render`]:
    /// the whole blob id of the contract in the `## Contract as judged` section,
    /// the text the judge was shown. `None` when the body has no such section.
    #[serde(default)]
    pub judged: Option<String>,
    /// From the body: the commit whose tree the judge read (its `- tree judged:`
    /// line, outside fenced text). `None` when no judge ran or none is named.
    #[serde(default)]
    pub tree: Option<String>,
    /// From the body, read at the edge (`record::facts`) with the judge's own verdict
    /// parser: each judge section's judge (`backend` or `backend:model`) and how its
    /// recorded answer reads (`accept`, `reject`, `no verdict`…). `None`: not read
    /// (a header parsed from text alone).
    #[serde(default)]
    pub answers: Option<Vec<(String, String)>>,
}

const TITLE: &str = "# Sign-off record: ";

impl Header {
    /// The transcript's first lines.
    pub fn render(&self) -> String {
        let overrides = if self.overrides.is_empty() {
            "none".to_string()
        } else {
            self.overrides.join(", ")
        };
        let mut out = format!(
            "{TITLE}{}\n\n- goal: {}\n- contract: {}\n- verdict: {}\n- judge: {}\n- prompt overrides: {overrides}\n",
            self.goal, self.goal, self.contract, self.verdict, self.judge
        );
        for (judge, verdict) in &self.panel {
            out.push_str(&format!("- panel judge: {judge} {verdict}\n"));
        }
        for (path, blob) in &self.verify_files {
            out.push_str(&format!("- verify file: {path} {blob}\n"));
        }
        match &self.weakened_tests {
            None => {}
            Some(found) if found.is_empty() => out.push_str("- weakened tests: none\n"),
            Some(found) => {
                for finding in found {
                    out.push_str(&format!(
                        "- weakened tests: {}\n",
                        super::weakened::kinds::tagged(finding)
                    ));
                }
            }
        }
        if !self.when.is_empty() {
            out.push_str(&format!("- when: {}\n", self.when));
        }
        out
    }

    /// Reads the header back from a transcript's text; `None` when it has none.
    pub fn parse(text: &str) -> Option<Header> {
        let mut lines = text.lines();
        lines.next()?.strip_prefix(TITLE)?;
        let mut header = Header::default();
        let mut seen = 0;
        for line in lines.skip_while(|l| l.trim().is_empty()) {
            let Some((key, value)) = line.strip_prefix("- ").and_then(|l| l.split_once(": "))
            else {
                break;
            };
            let value = value.to_string();
            match key {
                "goal" => header.goal = value,
                "contract" => header.contract = value,
                "verdict" => header.verdict = value,
                "judge" => header.judge = value,
                "prompt overrides" if value == "none" => {}
                "prompt overrides" => {
                    header.overrides = value.split(", ").map(str::to_string).collect();
                }
                "weakened tests" => {
                    let found = header.weakened_tests.get_or_insert_with(Vec::new);
                    if value != "none" {
                        found.extend(super::weakened::Finding::parse(&value));
                    }
                    continue;
                }
                "panel judge" => {
                    if let Some((judge, verdict)) = value.rsplit_once(' ') {
                        header.panel.push((judge.to_string(), verdict.to_string()));
                    }
                    continue;
                }
                "when" => {
                    header.when = value;
                    continue;
                }
                "verify file" => {
                    if let Some((path, blob)) = value.rsplit_once(' ') {
                        header
                            .verify_files
                            .push((path.to_string(), blob.to_string()));
                    }
                    continue;
                }
                _ => continue,
            }
            seen += 1;
        }
        if seen < 5 {
            return None;
        }
        header.judged = super::record_body::judged_contract(text);
        header.tree = super::record_body::tree_judged(text);
        Some(header)
    }
}

/// For tests: a transcript with `header` whose body shows `contract` (a goal's
/// [`Goal::contract`]) as judged, as plan writes one.
#[cfg(test)]
pub fn test_record(header: &Header, contract: &str) -> String {
    let judges: Vec<&str> = if !header.panel.is_empty() {
        header.panel.iter().map(|(j, _)| j.as_str()).collect()
    } else if header.judge.is_empty() || header.judge == "none" {
        Vec::new()
    } else {
        vec![header.judge.as_str()]
    };
    let mut sections = String::new();
    for (i, judge) in judges.iter().enumerate() {
        let (backend, model) = judge
            .split_once(':')
            .unwrap_or((judge, "(the backend's default)"));
        let heading = match header.panel.len() {
            0 => "## Judge".to_string(),
            n => format!("## Judge {} of {n}: {judge}", i + 1),
        };
        let answer = match backend {
            "claude" => {
                r#"{"type":"result","subtype":"success","is_error":false,"result":"VERDICT: accept\nmissing: none"}"#
            }
            _ => "VERDICT: accept\nmissing: none",
        };
        sections.push_str(&format!(
            "\n{heading}\n\n- backend: {backend}\n- model: {model}\n\n### The judge's answer\n\n````text\n{answer}\n````\n"
        ));
    }
    format!(
        "{}\n## Contract as judged\n\n## Goal: G\n{contract}\n## Contract history\n\n- created\n\n## Prompt\n\nx\n{sections}",
        header.render()
    )
}

/// Whether a transcript path is one plan writes: inside `.plan/judge/`, no `..`.
pub fn is_record_path(path: &str) -> bool {
    path.strip_prefix(JUDGE_DIR).is_some_and(|rest| {
        !rest.is_empty()
            && !path.contains('\\')
            && path
                .split('/')
                .all(|part| !part.is_empty() && part != ".." && part != ".")
    })
}

/// The record the goal's latest sign-off names, if it has one.
pub fn latest_record<'a>(plan: &Plan<'a>, id: &str) -> Option<Record<'a>> {
    plan.events(id).rev().find_map(|(_, e)| match e {
        Event::SignedOff { record, .. } => Some(record),
        _ => None,
    })?
}

/// Where the goal was imported from as done, when no sign-off here followed: it is
/// then done on another tool's word only.
pub fn imported_from<'a>(plan: &Plan<'a>, id: &str) -> Option<&'a str> {
    plan.events(id).fold(None, |from, (_, e)| match e {
        Event::Imported { from, .. } => Some(from),
        Event::SignedOff { .. } | Event::Reopened { .. } | Event::Added { .. } => None,
        _ => from,
    })
}

/// A goal imported as done: its standing, and whether its contract is still the
/// one it came in with. A change is either logged after the import (`plan edit`)
/// or made by hand (the contract differs from the last one logged).
fn imported(plan: &Plan<'_>, goal: &Goal<'_>, from: &str) -> Proof {
    let id = goal.id.as_ref();
    let mut after_import = false;
    let mut logged_change = None;
    for (entry, event) in plan.events(id) {
        match event {
            Event::Imported { .. } => {
                after_import = true;
                logged_change = None;
            }
            _ if after_import && event.contract().is_some() => logged_change = Some(entry.line),
            _ => {}
        }
    }
    let changed = match (logged_change, plan.unapproved(goal)) {
        (Some(at), _) => Some(format!(
            "imported as done from {from}, and its contract changed after the import (log line {at})"
        )),
        (None, Some(logged)) => Some(format!(
            "imported as done from {from}, and its contract was edited by hand after the import (imported {logged}, now {})",
            goal.fingerprint()
        )),
        (None, None) => None,
    };
    Proof::Imported {
        from: from.to_string(),
        changed,
    }
}

/// What one log event says of a finished goal's record, on plan.md's word alone:
/// `Some(true)` when, as the goal's latest such event, it leaves a goal of
/// `status` on record (a done goal's sign-off naming its record and contract; a
/// cancelled goal's cancel), `Some(false)` when it leaves it off (a reopen, a
/// contract approved after the sign-off, an add after the cancel), `None` when it
/// says nothing of it. The goal's latest event that says something decides
/// ([`on_record`]); [`check`] proves no goal that is not on record, so a caller may
/// skip the transcripts of goals on record and still find every one that is off.
pub fn record_verdict(status: Status, event: &Event<'_>) -> Option<bool> {
    match (status, event) {
        (
            Status::Done,
            Event::SignedOff {
                contract, record, ..
            },
        ) => Some(contract.is_some() && record.is_some()),
        (Status::Done, Event::Reopened { .. }) => Some(false),
        (Status::Done, e) if e.contract().is_some() => Some(false),
        (Status::Cancelled, Event::Cancelled { .. }) => Some(true),
        (Status::Cancelled, Event::Added { .. } | Event::Reopened { .. }) => Some(false),
        _ => None,
    }
}

/// Whether the log puts a finished goal on record ([`record_verdict`]), without
/// reading any transcript: what the hooks ask of an archived goal. A sign-off that
/// names a transcript an older sign-off of the goal named is a copy ([`replays`]):
/// pasted below a reopen, it would otherwise leave the goal on record.
pub fn on_record(plan: &Plan<'_>, goal: &Goal<'_>) -> bool {
    let status = goal.status();
    let mut older = plan.events(&goal.id).rev();
    let Some((on, latest)) = older
        .by_ref()
        .find_map(|(_, e)| Some((record_verdict(status, &e)?, e)))
    else {
        return false;
    };
    on && !older.any(|(_, e)| replays(&latest, &e))
}

/// Whether sign-off `latest` names the transcript an older sign-off, `earlier`,
/// named (by path, or by hash either way as a prefix, since a line may name a blob
/// id by any 8 to 40 digits): a transcript backs one sign-off, so it is a copy.
pub fn replays(latest: &Event<'_>, earlier: &Event<'_>) -> bool {
    match latest {
        Event::SignedOff {
            record: Some(r), ..
        } => copies(*r, earlier),
        _ => false,
    }
}

/// [`replays`] for a latest sign-off known by its record alone (`plan::lean`
/// holds a long archive's that way).
pub fn copies(latest: Record<'_>, earlier: &Event<'_>) -> bool {
    match earlier {
        Event::SignedOff {
            record: Some(n), ..
        } => same_record(latest, *n),
        _ => false,
    }
}

fn same_record(a: Record<'_>, b: Record<'_>) -> bool {
    a.path == b.path || a.hash.starts_with(b.hash) || b.hash.starts_with(a.hash)
}

/// Decides whether `goal` is proven. `facts` answers for a transcript path.
pub fn check(plan: &Plan<'_>, goal: &Goal<'_>, facts: &dyn Fn(&str) -> Facts) -> Proof {
    check_with(plan, goal, Some(facts))
}

/// As [`check`], from plan.md's lines alone (`facts` `None`): a done goal with a
/// sign-off line that names a transcript for its contract is taken at its word.
/// What the hooks show: a goal marked done by hand is still caught, a forged or
/// replayed transcript is left to `show`, `lint`, `doctor`, `audit` and the gate.
fn check_with(plan: &Plan<'_>, goal: &Goal<'_>, facts: Option<&dyn Fn(&str) -> Facts>) -> Proof {
    let id = goal.id.as_ref();
    match goal.status() {
        Status::Open | Status::Active => Proof::Unfinished,
        Status::Cancelled => {
            // A cancel counts only for the goal as it is now: one logged before the
            // id was added again (a deleted goal's id reused) is another goal's.
            if on_record(plan, goal) {
                Proof::Proven {
                    warnings: Vec::new(),
                    by_ci: None,
                }
            } else {
                unproven(
                    "cancelled by hand: the log has no `plan cancel` for it",
                    format!(
                        "if it is to be dropped, set it back to `status: active` and run `plan cancel {id} --reason TEXT`"
                    ),
                )
            }
        }
        Status::Done => done(plan, goal, facts),
    }
}

fn unproven(why: impl Into<String>, hint: impl Into<String>) -> Proof {
    Proof::Unproven {
        why: why.into(),
        hint: hint.into(),
    }
}

/// A done goal is proven by its latest sign-off: the log around it, the record it
/// names, then the transcript there, in that order; the first objection decides.
fn done(plan: &Plan<'_>, goal: &Goal<'_>, facts: Option<&dyn Fn(&str) -> Facts>) -> Proof {
    let id = goal.id.as_ref();
    if let Some(from) = imported_from(plan, id) {
        return imported(plan, goal, from);
    }
    let again = format!(
        "sign it off with `plan complete {id} --evidence TEXT --path FILE` (it checks the goal again)"
    );
    let steps = || -> Result<Proof, Proof> {
        let sign_off = latest_sign_off(trail(plan, id), &again)?;
        let record = recorded(goal, &sign_off, &again)?;
        if let Some(at) = super::verdicts::rejected_at(plan, record.path) {
            return Err(unproven(
                format!(
                    "its transcript {} was rejected at plan.md:{at}: a rejected sign-off's transcript never backs one",
                    record.path
                ),
                again.as_str(),
            ));
        }
        let by_ci = sign_off.by_ci.map(str::to_string);
        let Some(facts) = facts else {
            return Ok(Proof::Proven {
                warnings: warnings(sign_off.judged, &Header::default(), sign_off.by_ci),
                by_ci,
            });
        };
        let header = read_transcript(record, facts, &again)?;
        transcript_agrees(goal, &sign_off, record, &header, &again)?;
        Ok(Proof::Proven {
            warnings: warnings(sign_off.judged, &header, sign_off.by_ci),
            by_ci,
        })
    };
    steps().unwrap_or_else(|unproven| unproven)
}

/// What a done goal's log says about its latest sign-off, read in one pass.
struct Trail<'a> {
    /// The latest sign-off: its log line, stamp and event.
    sign_off: Option<(usize, Option<&'a str>, Event<'a>)>,
    /// A change of contract logged after it.
    contract_after: Option<usize>,
    /// A reopen logged after it.
    reopened_after: Option<usize>,
    /// An earlier sign-off that named the same transcript.
    replayed: Option<usize>,
    /// A line stamped before an earlier one (moved against time), and that one.
    out_of_order: Option<(usize, usize)>,
    /// The run of a `ci_judged` line after it that names its checkpoint, with no
    /// reopen or contract change between.
    by_ci: Option<&'a str>,
}

/// The latest sign-off's fields the proof checks.
struct SignOff<'a> {
    line: usize,
    stamp: Option<&'a str>,
    judged: Judged<'a>,
    contract: Option<&'a str>,
    record: Option<Record<'a>>,
    /// The checkpoint commit the line names (a prefix), if any.
    checkpoint: Option<&'a str>,
    /// The CI run whose judge accepted it again ([`Trail::by_ci`]).
    by_ci: Option<&'a str>,
}

fn trail<'a>(plan: &Plan<'a>, id: &str) -> Trail<'a> {
    let mut sign_off = None;
    let mut contract_after = None;
    let mut reopened_after = None;
    // A transcript backs one sign-off: a line naming one an earlier line named is a
    // copy (replayed after a reopen, say), not a new sign-off. The same bytes under
    // another name are the same transcript, so the hash counts as well as the path:
    // as a prefix either way, since a line may name a blob id by any 8 to 40 digits.
    let mut replayed = None;
    let mut named: Vec<(Record<'_>, usize)> = Vec::new();
    // Lines moved against time (a reopen put above the sign-off it voided).
    let mut latest: Option<(&str, usize)> = None;
    let mut out_of_order = None;
    let mut by_ci = None;
    for (entry, event) in plan.events(id) {
        if let Some(stamp) = entry.stamp {
            match latest {
                Some((before, at)) if stamp < before => out_of_order = Some((entry.line, at)),
                Some((before, _)) if stamp == before => {}
                _ => latest = Some((stamp, entry.line)),
            }
        }
        match event {
            Event::SignedOff { record, .. } => {
                replayed = record.and_then(|r| {
                    named
                        .iter()
                        .find(|(n, _)| same_record(*n, r))
                        .map(|&(_, at)| at)
                });
                if let Some(r) = record {
                    named.push((r, entry.line));
                }
                sign_off = Some((entry.line, entry.stamp, event));
                contract_after = None;
                reopened_after = None;
                by_ci = None;
            }
            Event::Reopened { .. } => reopened_after = Some(entry.line),
            // CI's judge accepted this sign-off: the line names its checkpoint, the
            // tree it was signed off with. One naming another checkpoint is about
            // another sign-off; one after a reopen or a new contract is too late.
            Event::CiJudged {
                checkpoint, run, ..
            } => {
                let names_it = matches!(
                    sign_off,
                    Some((_, _, Event::SignedOff { checkpoint: Some(c), .. })) if c == checkpoint
                );
                if names_it && reopened_after.is_none() && contract_after.is_none() {
                    by_ci = Some(run);
                }
            }
            _ if event.contract().is_some() => contract_after = Some(entry.line),
            _ => {}
        }
    }
    Trail {
        sign_off,
        contract_after,
        reopened_after,
        replayed,
        out_of_order,
        by_ci,
    }
}

/// The CI run whose own judge accepted the goal's latest sign-off again, as a
/// `ci_judged` line naming its checkpoint says (the workflow's update job writes
/// them after a merge; the gate fails a pull request that adds one).
pub fn judged_by_ci<'a>(plan: &Plan<'a>, id: &str) -> Option<&'a str> {
    trail(plan, id).by_ci
}

/// The latest sign-off, unless the log voids it: none at all, lines moved, a
/// transcript used twice, a reopen or a new contract after it.
fn latest_sign_off<'a>(trail: Trail<'a>, again: &str) -> Result<SignOff<'a>, Proof> {
    let Some((
        line,
        stamp,
        Event::SignedOff {
            judged,
            contract,
            record,
            checkpoint,
            ..
        },
    )) = trail.sign_off
    else {
        return Err(unproven(
            "marked done by hand: the log has no sign-off for it",
            again,
        ));
    };
    if let Some((moved, after)) = trail.out_of_order {
        return Err(unproven(
            format!(
                "its log lines are out of time order (log line {moved} is stamped before log line {after}): lines were moved"
            ),
            again,
        ));
    }
    if let Some(at) = trail.replayed {
        return Err(unproven(
            format!(
                "its sign-off (log line {line}) names the transcript an earlier sign-off already used (log line {at}); a transcript backs one sign-off"
            ),
            again,
        ));
    }
    if let Some(at) = trail.reopened_after {
        return Err(unproven(
            format!("it was reopened after its sign-off (log line {at}) and not signed off since"),
            again,
        ));
    }
    if let Some(at) = trail.contract_after {
        return Err(unproven(
            format!("its contract was changed after the sign-off (log line {at})"),
            again,
        ));
    }
    Ok(SignOff {
        line,
        stamp,
        judged,
        contract,
        record,
        checkpoint,
        by_ci: trail.by_ci,
    })
}

/// The transcript the sign-off names, once its line holds a record, for the
/// contract the goal has now, at a path plan writes.
fn recorded<'a>(goal: &Goal<'_>, sign_off: &SignOff<'a>, again: &str) -> Result<Record<'a>, Proof> {
    let line = sign_off.line;
    let (Some(contract), Some(record)) = (sign_off.contract, sign_off.record) else {
        return Err(unproven(
            format!(
                "its sign-off (log line {line}) has no record: it was written before sign-offs kept one, or by hand"
            ),
            again,
        ));
    };
    let fingerprint = goal.fingerprint();
    if contract != fingerprint {
        return Err(unproven(
            format!(
                "its contract changed after the sign-off (signed off {contract}, now {fingerprint})"
            ),
            again,
        ));
    }
    if !is_record_path(record.path) {
        return Err(unproven(
            format!(
                "its sign-off names `{}`, which is not a transcript under {JUDGE_DIR}",
                record.path
            ),
            again,
        ));
    }
    Ok(record)
}

/// The transcript's header, once the file is there with the bytes signed off.
fn read_transcript(
    record: Record<'_>,
    facts: &dyn Fn(&str) -> Facts,
    again: &str,
) -> Result<Header, Proof> {
    let (hash, header) = match facts(record.path) {
        Facts::Missing => {
            return Err(unproven(
                format!("its transcript {} is missing", record.path),
                format!(
                    "restore it from git (`git checkout -- {}`), or {again}",
                    record.path
                ),
            ));
        }
        Facts::Present { hash, header } => (hash, header),
    };
    if !hash.starts_with(record.hash) {
        return Err(unproven(
            format!(
                "its transcript {} was changed after the sign-off (hash {}, now {})",
                record.path,
                record.hash,
                &hash[..record.hash.len().min(hash.len())]
            ),
            format!("restore it from git, or {again}"),
        ));
    }
    let Some(header) = header else {
        return Err(unproven(
            format!("its transcript {} has no record header", record.path),
            again,
        ));
    };
    Ok(header)
}

/// Whether the header backs this sign-off: the goal, its contract, the judge (or
/// panel) the log names, an accepting verdict, and the time it was written.
fn transcript_agrees(
    goal: &Goal<'_>,
    sign_off: &SignOff<'_>,
    record: Record<'_>,
    header: &Header,
    again: &str,
) -> Result<(), Proof> {
    let id = goal.id.as_ref();
    let line = sign_off.line;
    if header.goal != id {
        return Err(unproven(
            format!(
                "its transcript {} is for goal {}, not {id}",
                record.path, header.goal
            ),
            again,
        ));
    }
    if header.contract != goal.contract_id() {
        return Err(unproven(
            format!(
                "its contract changed after the sign-off (its transcript {} judged contract {}, now {})",
                record.path,
                header.contract,
                goal.contract_id()
            ),
            again,
        ));
    }
    let judge = judge_name(sign_off.judged);
    if header.judge != judge {
        return Err(unproven(
            format!(
                "its sign-off (log line {line}) names judge `{judge}`, but its transcript {} says `{}`",
                record.path, header.judge
            ),
            again,
        ));
    }
    if header.verdict != "accept" {
        return Err(unproven(
            format!(
                "its transcript {} says the verdict was {}",
                record.path, header.verdict
            ),
            again,
        ));
    }
    if let Err(why) = panel_backs(sign_off.judged, header) {
        return Err(unproven(
            format!(
                "its sign-off (log line {line}) names a judge panel, but its transcript {} {why}",
                record.path
            ),
            again,
        ));
    }
    if let Some(why) = unbound(header, sign_off.stamp, line, record.path) {
        return Err(unproven(why, again));
    }
    if let Err(why) = body_backs(header, record.path) {
        return Err(unproven(why, again));
    }
    if let Err(why) = answers_back(header, record.path) {
        return Err(unproven(why, again));
    }
    if let (Some(short), Some(tree)) = (sign_off.checkpoint, &header.tree)
        && !tree.starts_with(short)
    {
        return Err(unproven(
            format!(
                "its sign-off (log line {line}) names checkpoint {short}, but its transcript {} says the judge read {tree}: a transcript backs only the checkpoint it was written with",
                record.path
            ),
            again,
        ));
    }
    Ok(())
}

/// Whether the transcript's body shows the contract its header names: a record
/// copied from another goal with its header relabelled still shows the contract
/// that goal's judge was asked about.
fn body_backs(header: &Header, path: &str) -> Result<(), String> {
    match &header.judged {
        None => Err(format!(
            "its transcript {path} has no `Contract as judged` section: it does not show what the judge checked"
        )),
        Some(judged) if *judged != header.contract => Err(format!(
            "its transcript {path} says it judged contract {}, but the contract in its `Contract as judged` section is {judged}",
            header.contract
        )),
        Some(_) => Ok(()),
    }
}

/// Whether the judge answers the transcript's body records back its header
/// ([`super::verdicts::answers_back`]).
fn answers_back(header: &Header, path: &str) -> Result<(), String> {
    super::verdicts::answers_back(
        &header.judge,
        &header.panel,
        header.answers.as_deref(),
        path,
    )
}

/// The weaker points of a proven sign-off: no model judge, or prompt overrides.
/// A sign-off CI's own model judge accepted again (`by_ci`) had one, whatever
/// judge it named.
fn warnings(judged: Judged<'_>, header: &Header, by_ci: Option<&str>) -> Vec<String> {
    let mut warnings = Vec::new();
    match judged {
        _ if by_ci.is_some() => {}
        Judged::Skipped => warnings.push("signed off without a judge".to_string()),
        Judged::By {
            backend: "command", ..
        } => warnings.push("judged by a command judge, not a model CLI".to_string()),
        Judged::Panel { judges }
            if Judged::panel_names(judges).any(|n| n == "command" || n.starts_with("command:")) =>
        {
            warnings.push("a judge of its panel is a command judge, not a model CLI".to_string());
        }
        _ => {}
    }
    if !header.overrides.is_empty() {
        warnings.push(format!(
            "judged with prompt overrides: {}",
            header.overrides.join(", ")
        ));
    }
    warnings
}

/// How a transcript's header names the judge a sign-off line names.
fn judge_name(judged: Judged<'_>) -> String {
    match judged {
        Judged::By { backend, model: "" } => backend.to_string(),
        Judged::By { backend, model } => format!("{backend}:{model}"),
        Judged::Skipped => "none".to_string(),
        Judged::Unnamed => String::new(),
        Judged::Panel { judges } => judges.to_string(),
    }
}

/// Whether a transcript's header backs a panel sign-off judge by judge: a `panel
/// judge` line for each judge the line names, in its order, each an accept, and no
/// other. A single-judge line needs no panel lines, and has none.
fn panel_backs(judged: Judged<'_>, header: &Header) -> Result<(), String> {
    let named: Vec<&str> = match judged {
        Judged::Panel { judges } => Judged::panel_names(judges).collect(),
        _ if header.panel.is_empty() => return Ok(()),
        _ => return Err("records a panel the line does not name".to_string()),
    };
    let recorded: Vec<&str> = header.panel.iter().map(|(j, _)| j.as_str()).collect();
    if recorded != named {
        return Err(format!(
            "records the judges {} (the line names {})",
            if recorded.is_empty() {
                "(none)".to_string()
            } else {
                recorded.join(", ")
            },
            named.join(", ")
        ));
    }
    match header.panel.iter().find(|(_, verdict)| verdict != "accept") {
        Some((judge, verdict)) => Err(format!("says judge {judge} answered {verdict}")),
        None => Ok(()),
    }
}

/// Why a transcript does not belong to the sign-off line that names it: it was
/// written with another line (a reopened goal's old transcript, copied with a byte
/// added to get a new hash, under a new line), so its `- when:` is not the line's stamp.
fn unbound(header: &Header, stamp: Option<&str>, line: usize, path: &str) -> Option<String> {
    if header.when.is_empty() {
        return Some(format!(
            "its transcript {path} has no `- when:` line: it cannot be tied to its sign-off (log line {line})"
        ));
    }
    match stamp {
        Some(stamp) if stamp == header.when => None,
        Some(stamp) => Some(format!(
            "its transcript {path} was written at {}, but its sign-off (log line {line}) is stamped {stamp}: a transcript backs only the sign-off it was written with",
            header.when
        )),
        None => Some(format!(
            "its sign-off (log line {line}) has no stamp to tie its transcript {path} to"
        )),
    }
}

/// Whether the transcript a sign-off line names backs that line on its own terms: a
/// file under [`JUDGE_DIR`] with the line's hash, whose header names the line's goal,
/// contract and judge and an accepting verdict. `Err` says why not. This is about the
/// line, for a stream of events; whether its goal is proven now also rests on the
/// goal's contract and on what the log says after it ([`check`]).
pub fn backs(event: &Event<'_>, facts: &dyn Fn(&str) -> Facts) -> Result<(), String> {
    let Event::SignedOff {
        id,
        judged,
        contract,
        record,
        ..
    } = *event
    else {
        return Ok(());
    };
    let Some(record) = record else {
        return Err("it names no transcript".to_string());
    };
    let path = record.path;
    if !is_record_path(path) {
        return Err(format!("`{path}` is not a transcript under {JUDGE_DIR}"));
    }
    let Facts::Present { hash, header } = facts(path) else {
        return Err(format!("its transcript {path} is missing"));
    };
    if !hash.starts_with(record.hash) {
        return Err(format!(
            "its transcript {path} does not have the hash it names"
        ));
    }
    let Some(header) = header else {
        return Err(format!("its transcript {path} has no record header"));
    };
    if header.goal != id {
        return Err(format!(
            "its transcript {path} is for goal {}, not {id}",
            header.goal
        ));
    }
    if contract.is_none_or(|c| !header.contract.starts_with(c)) {
        return Err(format!(
            "its transcript {path} judged another contract ({})",
            header.contract
        ));
    }
    let judge = judge_name(judged);
    if header.judge != judge {
        return Err(format!(
            "it names judge `{judge}`, its transcript {path} `{}`",
            header.judge
        ));
    }
    if header.verdict != "accept" {
        return Err(format!(
            "its transcript {path} says the verdict was {}",
            header.verdict
        ));
    }
    body_backs(&header, path)?;
    panel_backs(judged, &header).map_err(|why| format!("its transcript {path} {why}"))?;
    answers_back(&header, path)
}

/// As [`backs`], for a line stamped `stamp`: the transcript must also have been
/// written with it (its `- when:` is the stamp).
pub fn backs_at(
    event: &Event<'_>,
    stamp: Option<&str>,
    facts: &dyn Fn(&str) -> Facts,
) -> Result<(), String> {
    backs(event, facts)?;
    let Event::SignedOff {
        record: Some(record),
        ..
    } = *event
    else {
        return Ok(());
    };
    let Facts::Present {
        header: Some(header),
        ..
    } = facts(record.path)
    else {
        return Ok(());
    };
    if header.when.is_empty() || Some(header.when.as_str()) != stamp {
        return Err(format!(
            "its transcript {} was written at {}, not with this line",
            record.path,
            if header.when.is_empty() {
                "an unknown time"
            } else {
                &header.when
            }
        ));
    }
    Ok(())
}

/// A plan's proofs, checked here and kept on the plan: the parser holds the
/// verdicts (a leaf type, standing.rs) without importing the check that makes them.
impl<'a> Plan<'a> {
    /// Checks every finished goal's record; `facts` answers for a transcript path.
    pub fn prove(&mut self, facts: &dyn Fn(&str) -> Facts) {
        self.prove_where(facts, |_, _| true);
    }

    /// As [`Plan::prove`], for the goals the hooks look at: live ones and those a
    /// live goal depends on. Archived goals are most of a long plan, and each proven
    /// one costs a transcript read, on every prompt.
    pub fn prove_live(&mut self, facts: &dyn Fn(&str) -> Facts) {
        let needed: std::collections::HashSet<&str> = self
            .live()
            .flat_map(|g| g.depends_on.iter().copied())
            .collect();
        // An archived goal nothing live needs is checked on the log's word: one
        // marked finished and moved there by hand is still work, and a long archive's
        // transcripts are not read on every hook.
        self.prove_where(facts, |plan, g| {
            !g.archived || needed.contains(g.id.as_ref()) || !on_record(plan, g)
        });
    }

    /// As [`Plan::prove_live`], from plan.md's lines alone ([`check_with`]): what
    /// the hooks, `plan inject` and `plan statusline` show, reading no transcript.
    pub fn prove_lines(&mut self) {
        let needed: std::collections::HashSet<&str> = self
            .live()
            .flat_map(|g| g.depends_on.iter().copied())
            .collect();
        let proofs = self
            .goals
            .iter()
            .filter(|g| g.status().is_finished())
            .filter(|g| !g.archived || needed.contains(g.id.as_ref()) || !on_record(self, g))
            .map(|g| (g.line, check_with(self, g, None)))
            .collect();
        self.proofs = Some(proofs);
    }

    fn prove_where(
        &mut self,
        facts: &dyn Fn(&str) -> Facts,
        wanted: impl Fn(&Plan<'a>, &Goal<'a>) -> bool,
    ) {
        let proofs = self
            .goals
            .iter()
            .filter(|g| g.status().is_finished() && wanted(self, g))
            .map(|g| (g.line, check(self, g, facts)))
            .collect();
        self.proofs = Some(proofs);
    }

    /// For tests of everything but the proof: a sign-off or cancel line of any form
    /// counts as its record; other finished goals are checked with no transcripts.
    #[cfg(test)]
    pub fn prove_legacy(&mut self) {
        let proofs = self
            .goals
            .iter()
            .filter(|g| g.status().is_finished())
            .map(|g| {
                let recorded = self
                    .events(&g.id)
                    .any(|(_, e)| matches!(e, Event::SignedOff { .. } | Event::Cancelled { .. }));
                let proof = if recorded {
                    Proof::Proven {
                        warnings: Vec::new(),
                        by_ci: None,
                    }
                } else {
                    check(self, g, &|_| Facts::Missing)
                };
                (g.line, proof)
            })
            .collect();
        self.proofs = Some(proofs);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::{blob_id, parse};

    const CONTRACT: &str = "## Goal: A\n<!-- id: a -->\nstatus: done\ndone_when: it works\n";

    fn transcript(goal: &str, contract: &str, verdict: &str) -> String {
        let header = Header {
            goal: goal.into(),
            contract: contract.into(),
            verdict: verdict.into(),
            judge: "claude:opus".into(),
            overrides: Vec::new(),
            verify_files: Vec::new(),
            weakened_tests: None,
            panel: Vec::new(),
            when: "2026-01-01 10:00".into(),
            judged: None,
            tree: None,
            answers: None,
        };
        test_record(&header, &parse(CONTRACT).goals[0].contract())
    }

    fn fingerprint() -> String {
        parse(CONTRACT).goals[0].fingerprint()
    }

    fn contract_id() -> String {
        parse(CONTRACT).goals[0].contract_id()
    }

    /// The plan with a sign-off line naming `path#hash`, and the facts for it.
    fn proof_with(log: &str, file: Option<&str>) -> Proof {
        let src = format!("{CONTRACT}\n## Log\n{log}");
        let plan = parse(&src);
        let facts = |path: &str| match file {
            Some(text) if path == ".plan/judge/a.md" => Facts::Present {
                hash: blob_id(text.as_bytes()),
                header: Header::parse(text),
            },
            _ => Facts::Missing,
        };
        check(&plan, &plan.goals[0], &facts)
    }

    fn signed(hash: &str) -> String {
        format!(
            "- 2026-01-01 10:00 a signed off (verify passed, judge claude:opus accept, contract {}): .plan/judge/a.md#{hash}\n",
            fingerprint()
        )
    }

    /// `on_record` is what lets the hooks skip an archived goal's transcript: every
    /// log of up to four lines (adds, starts, sign-offs with and without their
    /// record, rejects, reopens, cancels) that proves a done or cancelled goal puts it
    /// on record, and `on_record` refuses some of them, so it is no yes-man.
    #[test]
    fn a_proven_goal_is_always_on_record() {
        let text = transcript("a", &contract_id(), "accept");
        let hash = blob_id(text.as_bytes())[..12].to_string();
        let fp = fingerprint();
        let lines = [
            format!("- 2026-01-01 10:00 a added (contract {fp})\n"),
            format!("- 2026-01-01 10:00 a started (contract {fp})\n"),
            signed(&hash),
            format!(
                "- 2026-01-01 10:00 a signed off (verify passed, judge claude:opus accept, contract {fp})\n"
            ),
            "- 2026-01-01 10:00 a sign-off rejected (judge claude:opus): not done\n".to_string(),
            "- 2026-01-01 10:00 a reopened: again\n".to_string(),
            "- 2026-01-01 10:00 a cancelled: not needed\n".to_string(),
        ];
        let (mut proven, mut refused) = (0, 0);
        for status in ["done", "cancelled"] {
            let head = CONTRACT.replace("status: done", &format!("status: {status}"));
            let mut logs = vec![String::new()];
            for _ in 0..4 {
                let longer: Vec<String> = logs
                    .iter()
                    .flat_map(|log| lines.iter().map(move |l| format!("{log}{l}")))
                    .collect();
                logs.extend(longer);
                logs.dedup();
            }
            for log in &logs {
                let src = format!("{head}\n## Log\n{log}");
                let plan = parse(&src);
                let facts = |path: &str| match path {
                    ".plan/judge/a.md" => Facts::Present {
                        hash: blob_id(text.as_bytes()),
                        header: Header::parse(&text),
                    },
                    _ => Facts::Missing,
                };
                let goal = &plan.goals[0];
                if check(&plan, goal, &facts).is_proven() {
                    proven += 1;
                    assert!(on_record(&plan, goal), "proven but off record:\n{src}");
                } else if !on_record(&plan, goal) {
                    refused += 1;
                }
            }
        }
        assert!(
            proven > 0 && refused > 0,
            "{proven} proven, {refused} refused"
        );
    }

    // Issue 71: CI's own model judge accepted a command-judge sign-off in the pull
    // request, and `plan lint` still warned `weak-sign-off` in every clone after the
    // merge. A `ci_judged` line naming the sign-off's checkpoint answers the warning;
    // one naming another checkpoint, or after a reopen, does not.
    #[test]
    fn a_ci_judged_line_naming_the_sign_offs_checkpoint_clears_its_judge_warnings() {
        let fp = fingerprint();
        let signed = |judge: &str, checkpoint: &str| {
            format!(
                "- 2026-01-01 10:00 a signed off (verify passed, {judge}, contract {fp}): .plan/judge/a-{checkpoint}.md#{checkpoint} (checkpoint {checkpoint})\n"
            )
        };
        let ci = |checkpoint: &str| {
            format!(
                "- 2026-01-01 10:00 a judged again by CI: accept (checkpoint {checkpoint}, run 77)\n"
            )
        };
        let proof = |log: &str| {
            let src = format!("{CONTRACT}\n## Log\n{log}");
            let plan = parse(&src);
            (
                check_with(&plan, &plan.goals[0], None),
                judged_by_ci(&plan, "a").map(str::to_string),
            )
        };
        for judge in [
            "judge command accept",
            "judges claude + command accept",
            "judge skipped",
        ] {
            let weak = signed(judge, "1a2b3c4d5e6f");
            assert_eq!(
                proof(&weak).0.warnings().len(),
                1,
                "{judge}: {:?}",
                proof(&weak)
            );
            let cleared = proof(&(weak.clone() + &ci("1a2b3c4d5e6f")));
            assert_eq!(
                cleared,
                (
                    Proof::Proven {
                        warnings: vec![],
                        by_ci: Some("77".into())
                    },
                    Some("77".into())
                ),
                "{judge}"
            );
            // Another sign-off's checkpoint, or a line before this sign-off.
            let other = proof(&(weak.clone() + &ci("0f0f0f0f0f0f")));
            assert_eq!((other.0.warnings().len(), other.1), (1, None), "{judge}");
            let before = proof(&(ci("1a2b3c4d5e6f") + &weak));
            assert_eq!((before.0.warnings().len(), before.1), (1, None), "{judge}");
            let again = weak.clone() + &ci("1a2b3c4d5e6f") + &signed(judge, "2b3c4d5e6f7a");
            assert_eq!(proof(&again).0.warnings().len(), 1, "{judge}");
        }
        let reopened = signed("judge command accept", "1a2b3c4d5e6f")
            + "- 2026-01-01 10:30 a reopened: again\n"
            + &ci("1a2b3c4d5e6f");
        assert_eq!(proof(&reopened).1, None);
    }

    #[test]
    fn a_real_record_is_proven() {
        let text = transcript("a", &contract_id(), "accept");
        let hash = &blob_id(text.as_bytes())[..12];
        assert_eq!(
            proof_with(&signed(hash), Some(&text)),
            Proof::Proven {
                warnings: vec![],
                by_ci: None
            }
        );
    }

    #[test]
    fn every_cheap_fake_is_unproven() {
        let good = transcript("a", &contract_id(), "accept");
        let hash = blob_id(good.as_bytes())[..12].to_string();
        let why = |log: &str, file: Option<&str>| {
            proof_with(log, file)
                .why()
                .map(str::to_string)
                .unwrap_or_else(|| panic!("proven: {log}"))
        };
        assert!(why("", Some(&good)).contains("marked done by hand"));
        assert!(
            why(
                "- 2026-01-01 10:00 a signed off (verify passed, judge accept)\n",
                None
            )
            .contains("has no record")
        );
        assert!(why(&signed(&hash), None).contains("is missing"));
        let edited = good.replace("x\n", "y\n");
        assert!(why(&signed(&hash), Some(&edited)).contains("was changed after"));
        let other = transcript("b", &contract_id(), "accept");
        let other_hash = blob_id(other.as_bytes())[..12].to_string();
        assert!(why(&signed(&other_hash), Some(&other)).contains("is for goal b"));
        let rejected = transcript("a", &contract_id(), "reject");
        let rejected_hash = blob_id(rejected.as_bytes())[..12].to_string();
        assert!(why(&signed(&rejected_hash), Some(&rejected)).contains("verdict was reject"));
        let other_judge = transcript("a", &contract_id(), "accept").replace("claude:opus", "none");
        let other_judge_hash = blob_id(other_judge.as_bytes())[..12].to_string();
        assert!(
            why(&signed(&other_judge_hash), Some(&other_judge))
                .contains("names judge `claude:opus`")
        );
        let short = transcript("a", &fingerprint(), "accept");
        let short_hash = blob_id(short.as_bytes())[..12].to_string();
        assert!(why(&signed(&short_hash), Some(&short)).contains("changed after the sign-off"));
        let later = format!(
            "{}- 2026-01-01 11:00 a contract reapproved (contract {})\n",
            signed(&hash),
            fingerprint()
        );
        assert!(why(&later, Some(&good)).contains("changed after the sign-off"));
        let reopened = format!(
            "{}- 2026-01-01 11:00 a reopened: regressed\n",
            signed(&hash)
        );
        assert!(why(&reopened, Some(&good)).contains("reopened after its sign-off"));
        let later = |line: String| line.replace("2026-01-01 10:00", "2026-01-01 12:00");
        let replayed = format!("{reopened}{}", later(signed(&hash)));
        assert!(why(&replayed, Some(&good)).contains("an earlier sign-off already used"));
        let copied = format!(
            "{reopened}{}",
            later(signed(&hash)).replace(".plan/judge/a.md", ".plan/judge/a-copy.md")
        );
        assert!(why(&copied, Some(&good)).contains("an earlier sign-off already used"));
        let moved = format!(
            "- 2026-01-01 12:00 a reopened: regressed\n{}",
            signed(&hash)
        );
        assert!(why(&moved, Some(&good)).contains("out of time order"));
        let outside = signed(&hash).replace(".plan/judge/a.md", "../a.md");
        assert!(why(&outside, Some(&good)).contains("not a transcript under"));
    }

    /// A reopened goal "re-proven" by its old transcript with one byte added, named
    /// by a new sign-off line: the copy's `- when:` is the old line's stamp.
    #[test]
    fn a_transcript_backs_only_the_sign_off_it_was_written_with() {
        let old = transcript("a", &contract_id(), "accept");
        let copy = format!("{old} ");
        let hash = blob_id(copy.as_bytes())[..12].to_string();
        let later = signed(&hash).replace("2026-01-01 10:00", "2026-01-02 09:30");
        let why = proof_with(&later, Some(&copy));
        assert_eq!(
            why.why(),
            Some(
                "its transcript .plan/judge/a.md was written at 2026-01-01 10:00, but its sign-off (log line 7) is stamped 2026-01-02 09:30: a transcript backs only the sign-off it was written with"
            )
        );
        let undated = copy.replace("- when: 2026-01-01 10:00\n", "");
        let hash = blob_id(undated.as_bytes())[..12].to_string();
        let why = proof_with(&signed(&hash), Some(&undated));
        assert!(
            why.why().unwrap().contains("has no `- when:` line"),
            "{why:?}"
        );
        let hash = blob_id(copy.as_bytes())[..12].to_string();
        assert!(proof_with(&signed(&hash), Some(&copy)).is_proven());
    }

    #[test]
    fn a_sign_off_line_is_backed_only_by_a_matching_transcript() {
        let good = transcript("a", &contract_id(), "accept");
        let hash = blob_id(good.as_bytes())[..12].to_string();
        let backs_with = |line: &str, file: &str| {
            let entry = crate::plan::model::log_entry(1, line.trim_start_matches("- ").trim_end());
            let event = Event::parse(entry.text).expect("a sign-off line");
            let facts = |path: &str| match path {
                ".plan/judge/a.md" => Facts::Present {
                    hash: blob_id(file.as_bytes()),
                    header: Header::parse(file),
                },
                _ => Facts::Missing,
            };
            backs(&event, &facts)
        };
        assert_eq!(backs_with(&signed(&hash), &good), Ok(()));
        let why = |line: String, file: &str| backs_with(&line, file).unwrap_err();
        assert!(why(signed(&hash).replace("a.md", "b.md"), &good).contains("is missing"));
        assert!(why(signed("0123456789ab"), &good).contains("does not have the hash"));
        let other = transcript("b", &contract_id(), "accept");
        let h = blob_id(other.as_bytes())[..12].to_string();
        assert!(why(signed(&h), &other).contains("is for goal b, not a"));
        let rejected = transcript("a", &contract_id(), "reject");
        let h = blob_id(rejected.as_bytes())[..12].to_string();
        assert!(why(signed(&h), &rejected).contains("verdict was reject"));
        let old = transcript("a", &"0".repeat(40), "accept");
        let h = blob_id(old.as_bytes())[..12].to_string();
        assert!(why(signed(&h), &old).contains("judged another contract"));
        let line = signed(&hash).replace("judge claude:opus", "judge codex:o3");
        assert!(why(line, &good).contains("names judge `codex:o3`"));
        let bare = "- 2026-01-01 10:00 a signed off (verify passed, judge accept)\n".to_string();
        assert!(why(bare, &good).contains("names no transcript"));
    }

    /// A panel line is proven only by a record naming the same judges, in order,
    /// each with a `panel judge` accept; a single-judge line by no panel record.
    #[test]
    fn a_panel_sign_off_needs_every_judge_in_its_record() {
        let record = |panel: &[(&str, &str)], judge: &str| {
            let header = Header {
                goal: "a".into(),
                contract: contract_id(),
                verdict: "accept".into(),
                judge: judge.into(),
                panel: panel
                    .iter()
                    .map(|(j, v)| (j.to_string(), v.to_string()))
                    .collect(),
                when: "2026-01-01 10:00".into(),
                ..Header::default()
            };
            test_record(&header, &parse(CONTRACT).goals[0].contract())
        };
        let line = |text: &str, judged: &str| {
            let hash = blob_id(text.as_bytes())[..12].to_string();
            signed(&hash).replace("judge claude:opus accept", judged)
        };
        let both = [("claude:opus", "accept"), ("codex", "accept")];
        let good = record(&both, "claude:opus + codex");
        let panel = "judges claude:opus + codex accept";
        assert!(proof_with(&line(&good, panel), Some(&good)).is_proven());
        let src = format!("{CONTRACT}\n## Log\n{}", line(&good, panel));
        let plan = parse(&src);
        assert!(on_record(&plan, &plan.goals[0]));
        let why = |text: &str, judged: &str| {
            proof_with(&line(text, judged), Some(text))
                .why()
                .map(str::to_string)
                .unwrap_or_else(|| panic!("proven: {judged}\n{text}"))
        };
        let lost = record(&both[..1], "claude:opus + codex");
        assert!(
            why(&lost, panel)
                .contains("records the judges claude:opus (the line names claude:opus, codex)")
        );
        let one_rejected = record(
            &[("claude:opus", "accept"), ("codex", "reject")],
            "claude:opus + codex",
        );
        assert!(why(&one_rejected, panel).contains("says judge codex answered reject"));
        let swapped = record(
            &[("codex", "accept"), ("claude:opus", "accept")],
            "claude:opus + codex",
        );
        assert!(why(&swapped, panel).contains("records the judges codex, claude:opus"));
        let single = record(&both, "claude:opus");
        assert!(
            why(&single, "judge claude:opus accept")
                .contains("records a panel the line does not name")
        );
        assert!(why(&good, "judge claude:opus accept").contains("names judge `claude:opus`"));
    }

    #[test]
    fn an_imported_done_goal_reads_as_imported_until_it_is_signed_off() {
        let fp = parse(CONTRACT).goals[0].fingerprint();
        let imported = format!(
            "- 2026-01-01 09:00 a added (contract {fp})\n- 2026-01-01 09:00 a imported as done from taskmaster tasks.json (task 1)\n"
        );
        let proof = proof_with(&imported, None);
        assert_eq!(
            proof,
            Proof::Imported {
                from: "taskmaster tasks.json (task 1)".into(),
                changed: None
            }
        );
        // Not proven, and not unproven's error either: it reads as what it is.
        assert!(!proof.is_proven());
        assert_eq!(
            proof.imported_label().unwrap(),
            "done (imported from taskmaster tasks.json (task 1), not signed off by plan)"
        );
        assert_eq!(proof.why(), None);
        assert_eq!(
            imported_from(&parse(&format!("{CONTRACT}\n## Log\n{imported}")), "a"),
            Some("taskmaster tasks.json (task 1)")
        );
        // Its contract changed after the import: by hand, or logged.
        let src = format!("{CONTRACT}\n## Log\n{imported}").replace("it works", "it works fast");
        let plan = parse(&src);
        let by_hand = check(&plan, &plan.goals[0], &|_| Facts::Missing);
        assert!(by_hand.is_imported());
        assert!(
            by_hand
                .why()
                .unwrap()
                .contains("edited by hand after the import"),
            "{by_hand:?}"
        );
        let logged =
            format!("{imported}- 2026-01-02 09:00 a contract reapproved (contract {fp})\n");
        let proof = proof_with(&logged, None);
        assert!(
            proof
                .why()
                .is_some_and(|w| w.contains("changed after the import (log line")),
            "{proof:?}"
        );
        // Signed off here afterwards, it is proven like any other goal.
        let text = transcript("a", &contract_id(), "accept");
        let hash = &blob_id(text.as_bytes())[..12];
        let both = format!("{imported}{}", signed(hash));
        assert!(proof_with(&both, Some(&text)).is_proven());
        assert_eq!(
            imported_from(&parse(&format!("{CONTRACT}\n## Log\n{both}")), "a"),
            None
        );
    }

    #[test]
    fn hand_cancelled_is_unproven_and_plan_cancel_is_proven() {
        let src = "## Goal: A\n<!-- id: a -->\nstatus: cancelled\n\n## Log\n";
        let plan = parse(src);
        assert!(check(&plan, &plan.goals[0], &|_| Facts::Missing).is_unproven());
        let src = format!("{src}- 2026-01-01 10:00 a cancelled: not needed\n");
        let plan = parse(&src);
        assert!(check(&plan, &plan.goals[0], &|_| Facts::Missing).is_proven());
        let reopened = format!("{src}- 2026-01-01 11:00 a reopened: needed after all\n");
        let plan = parse(&reopened);
        assert!(check(&plan, &plan.goals[0], &|_| Facts::Missing).is_unproven());
        // The id given again to a new goal: the old cancel is not its own.
        let src = format!("{src}- 2026-01-02 10:00 a added (contract 0123abcd)\n");
        let plan = parse(&src);
        assert!(check(&plan, &plan.goals[0], &|_| Facts::Missing).is_unproven());
    }

    #[test]
    fn header_round_trips() {
        let header = Header {
            goal: "a".into(),
            contract: "0123abcd".into(),
            verdict: "accept".into(),
            judge: "command".into(),
            overrides: vec!["evidence_judge.md".into()],
            verify_files: vec![("tests/check me.sh".into(), "0123abcd".repeat(5))],
            weakened_tests: Some(vec![super::super::weakened::Finding::new(
                "tests/test_a.py",
                vec![super::super::weakened::Part::new(
                    super::super::weakened::RuleId::AssertionsRemoved,
                    "deleted (it had 2 assertions in 1 test)",
                )],
                None,
            )]),
            panel: vec![("claude:opus".into(), "accept".into())],
            when: "2026-01-01 10:00".into(),
            judged: None,
            tree: None,
            answers: None,
        };
        assert_eq!(Header::parse(&header.render()), Some(header));
        let checked = Header {
            weakened_tests: Some(Vec::new()),
            ..Header::default()
        };
        assert!(checked.render().contains("- weakened tests: none\n"));
        let back = Header::parse(&checked.render()).unwrap();
        assert_eq!(back.weakened_tests, Some(Vec::new()));
        assert_eq!(Header::parse("# something else\n"), None);
    }

    #[test]
    fn record_paths() {
        assert!(is_record_path(".plan/judge/a-20260101-1000.md"));
        for bad in [
            "plan.md",
            ".plan/judge/",
            ".plan/judge/../../x",
            "/etc/passwd",
            ".plan/judge//a",
        ] {
            assert!(!is_record_path(bad), "{bad}");
        }
    }
}

//! The one table of rules a plan is judged by, and the checks that find them:
//! `plan lint`, `plan doctor`, draft checking and the task list all read their
//! verdicts from here, so a rule has one id, one severity per goal status, one
//! treatment in a draft and one repair. Pure.
//!
//! Adding a rule: a row in `rules!` and its check here. A format error found while
//! parsing is raised in model.rs (tagged `.rule(…)`), a draft-only one in draft.rs,
//! a proposal one in doctor.rs; the row is still here.

use serde::{Serialize, Serializer};

use super::diag::{Diagnostic, Severity};
use super::event::Event;
use super::history;
use super::id;
use super::model::{Goal, LogEntry, Plan, Status};
use super::ops;
use super::patch::Edit;
use super::proof::Proof;
use super::text;

const E: Option<Severity> = Some(Severity::Error);
const W: Option<Severity> = Some(Severity::Warning);
const NO: Option<Severity> = None;

/// What a rule looks at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum On {
    /// plan.md (and a draft, where the draft column says so).
    Plan,
    /// Only a draft about to be agreed.
    Draft,
    /// Only the pending draft proposal file; its `plan` severity is the one doctor
    /// gives it.
    Proposal,
}

impl On {
    pub fn as_str(self) -> &'static str {
        match self {
            On::Plan => "plan.md",
            On::Draft => "draft",
            On::Proposal => "proposal",
        }
    }
}

use On::{Draft as D, Plan as P, Proposal as PR};

/// What a rule's row says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
    /// Stable, kebab-case: shown in messages and in `--json`.
    pub id: &'static str,
    /// What it looks at.
    pub on: On,
    /// Severity in plan.md on a goal that is open, active, done, cancelled (in
    /// [`Status`] order); rules about the whole file use the first. `None`: not
    /// reported there.
    pub plan: [Option<Severity>; 4],
    /// Severity in a draft about to be agreed; `Some(Error)` is held strictly.
    /// `None`: not checked in a draft (ids and statuses are plan's to assign).
    pub draft: Option<Severity>,
    /// `plan doctor` reports it (an inconsistency, rather than contract quality).
    pub doctor: bool,
    /// What `plan doctor --fix` does about it, if anything.
    pub repair: Option<&'static str>,
    /// The task list marks the goal with it, and keeps it in sight when collapsed.
    pub list: bool,
}

/// Declares the rules: the enum, its ids and its table, from one list.
macro_rules! rules {
    ($($(#[$doc:meta])* $rule:ident $id:literal {
        on: $on:expr, plan: $plan:expr, draft: $draft:expr, doctor: $doctor:expr, repair: $repair:expr, list: $list:expr $(,)?
    })*) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Rule {
            $($(#[$doc])* $rule,)*
        }

        impl Rule {
            pub const ALL: &'static [Rule] = &[$(Rule::$rule),*];

            pub fn spec(self) -> Spec {
                match self {
                    $(Rule::$rule => Spec {
                        id: $id,
                        on: $on,
                        plan: $plan,
                        draft: $draft,
                        doctor: $doctor,
                        repair: $repair,
                        list: $list,
                    },)*
                }
            }
        }
    };
}

rules! {
    // The file as a whole.
    /// No `# Plan:` line.
    NoObjective "no-objective" { on: P, plan: [W; 4], draft: NO, doctor: false, repair: None, list: false }
    NoLog "no-log" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: Some("adds `## Log`"), list: false }
    UnstampedLogLine "unstamped-log-line" { on: P, plan: [W; 4], draft: NO, doctor: false, repair: None, list: false }
    /// The log has plan's events for an id no goal has.
    OrphanedId "orphaned-id" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: None, list: false }
    /// A log line that is one of plan's events once its invisible characters (Unicode
    /// Cf: zero-width, bidi controls, BOM) are removed: plan does not read it as the
    /// event, a person reading `git diff` does (a reopen hidden so a sign-off counts).
    HiddenEvent "hidden-event" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }

    // Format errors, found while parsing: a goal with one is not written to.
    SecondObjective "second-objective" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    UntitledGoal "untitled-goal" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    SecondLog "second-log" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    SecondArchive "second-archive" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    SecondIdComment "second-id-comment" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
    BadId "bad-id" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
    SecondField "second-field" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    /// `status: doing`: not a status in any spelling.
    UnknownStatus "unknown-status" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
    /// `Status: Active`, `status active`, `status: ACTIVE`, an indented `status:`:
    /// a status line to a person, not to plan. An error, not a guess: the goal
    /// counts as open until it is written as plan writes it, and doctor can.
    MalformedStatus "malformed-status" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: Some("rewrites it as plan reads it"), list: false }
    /// In a draft, titles stand for ids: see duplicate-title.
    DuplicateId "duplicate-id" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
    /// Two ids that read alike, one in letters of another script (`tеsts` with a
    /// Cyrillic `е`): either could pass for the other in depends_on.
    LookAlikeId "look-alike-id" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
    MissingDependency "missing-dependency" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    DependencyCycle "dependency-cycle" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    /// A code fence or HTML comment open to the end of the file.
    UnclosedBlock "unclosed-block" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    BareCarriageReturn "bare-carriage-return" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    /// git's conflict markers (`<<<<<<<`, `|||||||`, `=======`, `>>>>>>>`) outside a
    /// fence: an unresolved merge, whose two sides plan would read as one goal.
    ConflictMarker "conflict-marker" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    /// `.gitattributes` sends plan.md to plan's merge driver, but this clone has none
    /// configured (`plan doctor` checks it; git then merges plan.md line by line).
    NoMergeDriver "no-merge-driver" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: None, list: false }

    // A goal's contract. Not reported on finished goals: a line added to their
    // contract now would change what their sign-off proved.
    NoId "no-id" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: Some("adds the id comment"), list: false }
    /// Latin mixed with Cyrillic or Greek letters in one id: a look-alike in the
    /// making. Not on finished goals, whose id their record names.
    MixedScriptId "mixed-script-id" { on: P, plan: [W, W, NO, NO], draft: NO, doctor: false, repair: None, list: false }
    NoStatus "no-status" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: Some("adds `status: open`"), list: false }
    NoDoneWhen "no-done-when" { on: P, plan: [E, E, NO, NO], draft: E, doctor: false, repair: None, list: false }
    /// Judged alike on open and active goals (a contract is agreed on when it is
    /// added, not when it is started): advice there, since `plan add` and
    /// `plan complete` take a goal without them; required of a draft, which is
    /// told to write them.
    NoFailureModes "no-failure-modes" { on: P, plan: [W, W, NO, NO], draft: E, doctor: false, repair: None, list: false }
    /// One failure mode: asked of a draft, where the model is told to write 2 or 3.
    FewFailureModes "few-failure-modes" { on: D, plan: [NO; 4], draft: W, doctor: false, repair: None, list: false }
    VerifyCannotRun "verify-cannot-run" { on: P, plan: [E, E, NO, NO], draft: E, doctor: false, repair: None, list: false }
    /// No failure mode says how verify could pass while the goal is not met.
    NoGamingFailureMode "no-gaming-failure-mode" { on: P, plan: [W, W, NO, NO], draft: W, doctor: false, repair: None, list: false }
    /// Asked of a draft: a person agrees to steps, not only to an outcome.
    NoSubtasks "no-subtasks" { on: D, plan: [NO; 4], draft: W, doctor: false, repair: None, list: false }

    // State and proof.
    /// An active goal whose dependencies are not finished; for an open goal that
    /// is the normal state, which the task list shows as `waits on …`.
    WaitingOnDependencies "waiting-on-dependencies" { on: P, plan: [NO, E, NO, NO], draft: NO, doctor: true, repair: None, list: false }
    /// An active goal's contract differs from the one logged for it.
    ContractChanged "contract-changed" { on: P, plan: [NO, E, NO, NO], draft: NO, doctor: true, repair: None, list: false }
    /// A change of contract approved with no terminal attached (an agent's shell).
    ApprovedWithoutTerminal "approved-without-terminal" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: None, list: false }
    /// Done or cancelled without the record that proves it.
    Unproven "unproven" { on: P, plan: [NO, NO, E, E], draft: NO, doctor: true, repair: None, list: true }
    /// Proven, but without a model judge or with prompt overrides.
    WeakSignOff "weak-sign-off" { on: P, plan: [NO, NO, W, W], draft: NO, doctor: true, repair: None, list: true }
    /// Under `## Archive` but open or active.
    ArchivedUnfinished "archived-unfinished" { on: P, plan: [E, E, NO, NO], draft: NO, doctor: true, repair: None, list: false }

    // What a merge without plan's driver leaves; found by doctor (doctor.rs), which
    // repairs them.
    /// Exact copies of stamped log lines (`merge=union`, "accept both").
    DuplicatedLogLine "duplicated-log-line" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: Some("removes the later copies, logging the repair"), list: false }
    /// A signed-off goal whose contract a line-wise merge split or stripped, which
    /// its sign-off transcript still holds.
    SplitContract "split-contract" { on: P, plan: [NO, NO, E, NO], draft: NO, doctor: true, repair: Some("restores the contract its transcript judged, logging the repair"), list: false }

    // A draft as a whole.
    EmptyDraft "empty-draft" { on: D, plan: [NO; 4], draft: E, doctor: false, repair: None, list: false }
    LargeDraft "large-draft" { on: D, plan: [NO; 4], draft: W, doctor: false, repair: None, list: false }
    /// Two drafted goals with one title: depends_on names drafted goals by title.
    DuplicateTitle "duplicate-title" { on: D, plan: [NO; 4], draft: E, doctor: false, repair: None, list: false }

    // The pending draft proposal, which only doctor looks at.
    ProposalExpired "proposal-expired" { on: PR, plan: [W; 4], draft: NO, doctor: true, repair: Some("deletes it"), list: false }
    ProposalUnreadable "proposal-unreadable" { on: PR, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }
}

impl Rule {
    pub fn id(self) -> &'static str {
        self.spec().id
    }

    /// Its severity in plan.md on a goal with `status` (`Open` for the whole file).
    pub fn in_plan(self, status: Status) -> Option<Severity> {
        self.spec().plan[status as usize]
    }

    pub fn in_draft(self) -> Option<Severity> {
        self.spec().draft
    }

    /// Findings about the draft proposal file rather than plan.md.
    pub fn in_proposal(self) -> bool {
        self.spec().on == On::Proposal
    }
}

impl Serialize for Rule {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.id())
    }
}

/// One row of the table as `plan lint --rules` shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Row {
    pub rule: Rule,
    pub open: Option<Severity>,
    pub active: Option<Severity>,
    pub done: Option<Severity>,
    pub cancelled: Option<Severity>,
    pub draft: Option<Severity>,
    pub doctor: bool,
    pub repair: Option<&'static str>,
    pub task_list: bool,
    pub on: On,
}

/// The whole table, in its order.
pub fn rows() -> Vec<Row> {
    Rule::ALL
        .iter()
        .map(|&rule| {
            let spec = rule.spec();
            let [open, active, done, cancelled] = spec.plan;
            Row {
                rule,
                open,
                active,
                done,
                cancelled,
                draft: spec.draft,
                doctor: spec.doctor,
                repair: spec.repair,
                task_list: spec.list,
                on: spec.on,
            }
        })
        .collect()
}

/// The table as aligned text: a rule per line, `-` where it is not reported.
pub fn table() -> String {
    let word = |s: Option<Severity>| match s {
        Some(Severity::Error) => "error",
        Some(Severity::Warning) => "warning",
        None => "-",
    };
    let width = Rule::ALL.iter().map(|r| r.id().len()).max().unwrap_or(0);
    let mut out = format!(
        "{:<width$}  {:<8}  {:<7}  {:<7}  {:<7}  {:<9}  {:<7}  {:<6}  repair (plan doctor --fix)\n",
        "rule", "on", "open", "active", "done", "cancelled", "draft", "doctor"
    );
    for row in rows() {
        let line = format!(
            "{:<width$}  {:<8}  {:<7}  {:<7}  {:<7}  {:<9}  {:<7}  {:<6}  {}",
            row.rule.id(),
            row.on.as_str(),
            word(row.open),
            word(row.active),
            word(row.done),
            word(row.cancelled),
            word(row.draft),
            if row.doctor { "yes" } else { "-" },
            row.repair.unwrap_or("-"),
        );
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

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
            "`plan log TEXT` creates it; `plan doctor --fix` adds it",
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
/// are gone: plan reads something else (or nothing) where a reviewer sees the event.
fn hidden_event(entry: &LogEntry<'_>, out: &mut Vec<Hit>) {
    let raw = match entry.stamp {
        Some(stamp) => format!("{stamp} {}", entry.text),
        None => entry.text.to_string(),
    };
    let hidden = |c: char| text::is_invisible(c) || odd_space(c);
    if !raw.chars().any(hidden) {
        return;
    }
    let cleaned = plain(&raw);
    let seen = super::model::log_entry(entry.line, &cleaned);
    if seen.stamp.is_none() && entry.stamp.is_some() {
        return;
    }
    let Some(event) = Event::parse(seen.text) else {
        return;
    };
    let read = Event::parse(entry.text).map(|e| plain(&e.render()));
    if read.as_deref() == Some(event.render().as_str()) {
        return;
    }
    let chars: Vec<String> = raw
        .chars()
        .filter(|&c| hidden(c))
        .map(|c| format!("U+{:04X}", c as u32))
        .collect();
    let about = match event.id() {
        Some(id) => format!(" for \"{id}\""),
        None => String::new(),
    };
    out.push(Hit::new(
        Rule::HiddenEvent,
        entry.line,
        format!(
            "log line is plan's `{}` event{about} but for invisible characters ({}): plan does not read it as that event, while it looks like one in git diff",
            event.name(),
            chars.join(", ")
        ),
        "delete the invisible characters if the event is real (it then counts), or delete the line; plan log never writes one",
    ));
}

/// A space other than U+0020 (no-break, thin, ideographic, …): it looks like one in
/// git diff, but plan's event forms are read with plain spaces only.
fn odd_space(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    c != ' ' && get_general_category(c) == GeneralCategory::SpaceSeparator
}

/// `text` as a reviewer reads it: invisible characters gone, odd spaces plain.
fn plain(text: &str) -> String {
    text.chars()
        .filter(|&c| !text::is_invisible(c))
        .map(|c| if odd_space(c) { ' ' } else { c })
        .collect()
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
    hit
}

/// Lines plan itself keeps: the id comment and the status line.
fn bookkeeping(plan: &Plan<'_>, goal: &Goal<'_>, out: &mut Vec<Hit>) {
    let id = goal.id.as_ref();
    if goal.id_line.is_none() {
        let line = format!("<!-- id: {id} -->");
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
            edits: ops::id_comment(plan, goal),
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
        Proof::Proven { warnings } => {
            for warning in warnings {
                out.push(Hit {
                    detail: Some(warning.clone()),
                    ..Hit::new(
                        Rule::WeakSignOff,
                        line,
                        format!("goal \"{id}\" was {warning}"),
                        format!("plan audit shows its record; to have a model judge it, reopen it and run plan complete {id} again"),
                    )
                    .of(goal)
                });
            }
        }
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
    fn ids_are_unique_and_kebab_case() {
        let mut seen = std::collections::HashSet::new();
        for rule in Rule::ALL {
            let id = rule.id();
            assert!(seen.insert(id), "{id} twice");
            assert!(
                !id.is_empty()
                    && id
                        .split('-')
                        .all(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_lowercase())),
                "{id}"
            );
        }
        assert_eq!(
            serde_json::to_string(&Rule::NoDoneWhen).unwrap(),
            "\"no-done-when\""
        );
    }

    #[test]
    fn format_errors_are_errors_everywhere_in_plan_md() {
        let src = "# Plan: x\n# Plan: y\n## Goal:\n## Goal: A\n<!-- id: a -->\n<!-- id: b -->\nstatus: doing\nstatus: open\nStatus: Done\ndepends_on: a, ghost\n## Log\n## Log\n```\n";
        let plan = parse(src);
        assert!(plan.errors.len() >= 8, "{:?}", plan.errors);
        for d in &plan.errors {
            let rule = d.rule.unwrap_or_else(|| panic!("no rule: {d:?}"));
            for status in Status::ALL {
                assert_eq!(rule.in_plan(status), Some(Severity::Error), "{}", rule.id());
            }
        }
    }

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

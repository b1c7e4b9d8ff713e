//! The one table of rules a plan is judged by: `plan lint`, `plan doctor`, draft
//! checking and the task list all read their verdicts from here, so a rule has one
//! id, one severity per goal status, one treatment in a draft and one repair. The
//! checks that find the rules in a plan are in checks.rs, beside lint. Pure, and a
//! leaf: the parser tags its format errors with these rules.
//!
//! Adding a rule: a row in `rules!` and its check in checks.rs. A format error found
//! while parsing is raised in model.rs (tagged `.rule(…)`), a draft-only one in
//! draft.rs, a proposal one in doctor.rs; the row is still here.

use serde::{Serialize, Serializer};

use super::status::Status;

/// How much a rule that holds matters: an error fails `plan lint`, a warning is
/// advice. Here with the table whose columns it fills, so the table needs no
/// diagnostics; diag.rs re-exports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
}

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
    /// plan.md lost goals or its `## Log` against the version plan last wrote, and
    /// ends inside a line or has goals but no `## Log`: what a commit, stash or
    /// copy taken mid-save leaves. Found by `plan lint` from plan's own record of
    /// its last write (src/store.rs); every write refuses such a file. `plan doctor`
    /// finds it against the last whole version in git and the journaled writes
    /// since, and rebuilds it from them (src/rebuild.rs).
    CutFile "cut-file" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: Some("rebuilds plan.md from the last whole version in git and the writes plan journaled since; keeps the cut file beside it"), list: false }
    /// plan.md is whole but lacks writes plan acknowledged, up to a version someone
    /// else saved: an editor's copy read before them, a stash popped over them.
    /// Found by `plan doctor` from the journal (src/rebuild.rs, `stale`).
    LostWrites "lost-writes" { on: P, plan: [W; 4], draft: NO, doctor: true, repair: Some("makes the lost writes again on plan.md as it is; keeps the file as it was beside it"), list: false }
    UnstampedLogLine "unstamped-log-line" { on: P, plan: [W; 4], draft: NO, doctor: false, repair: None, list: false }
    /// A log line stamped more than a day ahead of the machine's clock (`PLAN_NOW`
    /// set ahead once): as the stamp floor it would stamp every later line so.
    StampInFuture "stamp-in-future" { on: P, plan: [E; 4], draft: NO, doctor: false, repair: None, list: false }
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
    /// `budget: lots`, `budget: 0`: a goal's loop budget is a whole number from 1.
    BadBudget "bad-budget" { on: P, plan: [E; 4], draft: E, doctor: true, repair: None, list: false }
    /// `status: doing`: not a status in any spelling.
    UnknownStatus "unknown-status" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: Some("rewrites a common status word (in_progress, todo, blocked, complete…) or a one-edit misspelling as open, active or cancelled, never done"), list: false }
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
    /// A merge in progress left plan.md unmerged in git's index (`plan doctor`
    /// checks it): with markers to resolve, or, when the driver could not run, with
    /// one side's lines only.
    UnmergedPlan "unmerged-plan" { on: P, plan: [E; 4], draft: NO, doctor: true, repair: None, list: false }

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
    /// A verify that exits 0 whatever the repository holds (`true`, `echo ok`,
    /// `test -e .`, `sh -c 'exit 0'`): a sign-off resting on it proved nothing.
    /// Advice in plan.md, as `plan add` and `plan edit` give it; `audit --strict`
    /// fails a sign-off resting on one.
    VerifyCannotFail "verify-cannot-fail" { on: P, plan: [W, W, NO, NO], draft: NO, doctor: false, repair: None, list: false }
    /// No failure mode says how verify could pass while the goal is not met.
    NoGamingFailureMode "no-gaming-failure-mode" { on: P, plan: [W, W, NO, NO], draft: W, doctor: false, repair: None, list: false }
    /// A checklist item plan does not count: indented with a tab or 4 spaces
    /// (indented code to Markdown) or marked with `+`. A person's step, silently
    /// not a subtask: no tick, no count.
    UnreadSubtask "unread-subtask" { on: P, plan: [W, W, NO, NO], draft: NO, doctor: false, repair: None, list: false }
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
    /// An open or active goal whose contract is not the one its log recorded, when
    /// a committed version of the goal had that contract and every line it has now:
    /// lines (a failure mode, subtasks) an "accept both" merge stripped.
    LostGoalLines "lost-goal-lines" { on: P, plan: [NO; 4], draft: NO, doctor: true, repair: Some("puts back the lines from the committed version that had them"), list: false }

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
}

//! plan's own log lines: one typed event for each line plan writes, one function
//! that renders it and one that parses it. Everything that writes a log line about
//! a goal, or trusts one, goes through here. Pure.
//!
//! A log line is text anyone can type, so nothing here is proof on its own: a
//! sign-off is proven only with the transcript its event names (see `proof.rs`).
//! What this module guarantees is that `plan log` can never write one of these
//! forms, and that every reader agrees on what a line means.

use schemars::JsonSchema;
use serde::Serialize;

use super::id;

/// How a change of contract was approved: with a terminal attached to stdin, or
/// without one (an agent's shell has none). A terminal is not a person: `script(1)`
/// gives an agent one, and anyone can type the line, so neither proves who approved.
/// Lines older than this distinction say neither; lines before the wording changed
/// say `at a terminal`, read as [`Approval::Terminal`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Approval {
    Terminal,
    NoTerminal,
    Unknown,
}

impl Approval {
    pub fn from_terminal(terminal: bool) -> Approval {
        if terminal {
            Approval::Terminal
        } else {
            Approval::NoTerminal
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Approval::Terminal => ", a terminal was attached",
            Approval::NoTerminal => ", without a terminal",
            Approval::Unknown => "",
        }
    }

    /// `a terminal was attached` / `without a terminal`, as a loop event says it.
    pub fn words(self) -> &'static str {
        match self {
            Approval::Terminal => "a terminal was attached",
            Approval::NoTerminal | Approval::Unknown => "without a terminal",
        }
    }

    pub fn describe(self) -> &'static str {
        match self {
            Approval::Terminal => "approved with a terminal attached",
            Approval::NoTerminal => "approved without a terminal",
            Approval::Unknown => "approved (terminal not recorded)",
        }
    }
}

/// What `plan start` found when it ran the goal's verify before any work (red
/// first): a verify that already passes proves nothing about the work to come.
/// Lines written before `plan start` ran verify, and starts of goals with no
/// verify, carry none.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum AtStart {
    Failing,
    Passing,
    /// `plan start --no-verify`: the verify was not run.
    Skipped,
    /// A program the verify names cannot start (not on PATH, not in the
    /// repository): it checked nothing, so it is no red.
    CannotRun,
}

impl AtStart {
    /// The word after `verify ` in the started line.
    pub fn word(self) -> &'static str {
        match self {
            AtStart::Failing => "failing",
            AtStart::Passing => "passing",
            AtStart::Skipped => "skipped",
            AtStart::CannotRun => "cannot-run",
        }
    }

    fn parse(word: &str) -> Option<AtStart> {
        match word {
            "failing" => Some(AtStart::Failing),
            "passing" => Some(AtStart::Passing),
            "skipped" => Some(AtStart::Skipped),
            "cannot-run" => Some(AtStart::CannotRun),
            _ => None,
        }
    }
}

/// Where a sign-off's transcript is and the hash of its bytes (a prefix of their
/// git blob id).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
pub struct Record<'a> {
    pub path: &'a str,
    pub hash: &'a str,
}

/// Who judged a sign-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Judged<'a> {
    /// `judge claude:opus accept`; the model is empty when the backend's default ran.
    By { backend: &'a str, model: &'a str },
    /// `--judge none`.
    Skipped,
    /// `judge accept`, from before the judge was named.
    Unnamed,
    /// `judges claude:opus + codex accept`: a panel (`judge.panel`), every one of
    /// which accepted. As JSON, the list of judges, each `backend` or
    /// `backend:model`.
    Panel {
        #[serde(serialize_with = "panel_names")]
        #[schemars(with = "Vec<String>")]
        judges: &'a str,
    },
}

impl<'a> Judged<'a> {
    /// The judges of a panel, each `backend` or `backend:model`, in the line's order.
    pub fn panel_names(judges: &'a str) -> impl Iterator<Item = &'a str> {
        judges.split(PANEL_JOIN)
    }
}

/// What joins the judges of a panel in a sign-off line. A model name is one word
/// (`record::one_word`), so it never holds the spaces around the `+`.
pub const PANEL_JOIN: &str = " + ";

/// The stop hook's pause on a host's error, as plan.md logs it.
const HOST_PAUSED: &str = "work loop paused (the host reported an error)";

/// A `ci_judged` line after its goal's id: this, the checkpoint, `, run R)`.
const CI_JUDGED: &str = "judged again by CI: accept (checkpoint ";

/// The stop hook's ending of a loop, as plan.md logs it: this, why, `)`.
const LOOP_ENDED: &str = "work loop ended (";

fn panel_names<S: serde::Serializer>(judges: &&str, s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(Judged::panel_names(judges))
}

/// Declares [`Event`] from one table: each row is a variant, its name (the `event`
/// key of its JSON, what `plan events` and `notify:` know it by) and, after `goal =`,
/// the field naming the goal it is about. The name, [`Event::NAMES`] and
/// [`Event::id`] come from the row, so a new event is a row here plus its arm in
/// [`Event::render`] and its form in [`Event::parse`].
macro_rules! events {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal $(, goal = $goal:ident)? {
            $($(#[$field_doc:meta])* $field:ident: $ty:ty),* $(,)?
        }
    )*) => {
        /// One line plan writes about a goal (or the draft), without its `- STAMP ` prefix.
        /// As JSON (`plan events`, notify commands, `plan export`'s log) it is an object
        /// whose `event` is its [`Event::name`] and whose other keys are its fields.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, JsonSchema)]
        #[serde(tag = "event", rename_all = "snake_case")]
        pub enum Event<'a> {
            $(
                $(#[$doc])*
                #[serde(rename = $name)]
                $variant { $($(#[$field_doc])* $field: $ty),* },
            )*
        }

        impl<'a> Event<'a> {
            /// Every event's name, as `plan events` and `notify:` know it.
            pub const NAMES: [&'static str; [$($name),*].len()] = [$($name),*];

            /// The event's name: the `event` key of its JSON.
            pub fn name(&self) -> &'static str {
                match self {
                    $(Event::$variant { .. } => $name,)*
                }
            }

            /// The goal the event is about.
            #[allow(unreachable_patterns)]
            pub fn id(&self) -> Option<&'a str> {
                match *self {
                    $($(Event::$variant { $goal, .. } => Some($goal),)?)*
                    _ => None,
                }
            }
        }
    };
}

events! {
    /// `plan add` or a draft approval created the goal with this contract.
    Added = "added", goal = id { id: &'a str, contract: &'a str }
    /// `plan start` (or a sign-off of a goal never started); `commit` is HEAD then.
    Started = "started", goal = id {
        id: &'a str,
        contract: &'a str,
        commit: Option<&'a str>,
        /// How the goal's verify ended when `plan start` ran it; absent when it was
        /// not asked (no verify, older lines, a sign-off's own start).
        #[serde(skip_serializing_if = "Option::is_none")]
        verify: Option<AtStart>,
    }
    /// `plan start --reapprove` accepted a changed contract.
    Reapproved = "reapproved", goal = id {
        id: &'a str,
        contract: &'a str,
        approval: Approval,
    }
    /// `plan subgoal` added a criterion to done_when.
    CriterionAdded = "criterion_added", goal = id {
        id: &'a str,
        text: &'a str,
        contract: &'a str,
        approval: Approval,
    }
    /// `plan complete` accepted. `contract` and `record` are missing only in lines
    /// written before sign-offs had a record; `checkpoint` in lines written before
    /// checkpoints, or when one could not be written.
    SignedOff = "signed_off", goal = id {
        id: &'a str,
        verify: bool,
        judged: Judged<'a>,
        contract: Option<&'a str>,
        record: Option<Record<'a>>,
        /// A transcript path without a hash (older lines).
        legacy_path: Option<&'a str>,
        /// The commit holding the working tree as it was signed off (12 hex).
        checkpoint: Option<&'a str>,
    }
    /// `plan complete` rejected.
    Rejected = "sign_off_rejected", goal = id {
        id: &'a str,
        stage: &'a str,
        missing: &'a str,
    }
    /// `plan cancel`, or a draft `--replace`.
    Cancelled = "cancelled", goal = id { id: &'a str, reason: &'a str }
    /// `plan reopen`: a done goal is active again, and its sign-off no longer counts.
    Reopened = "reopened", goal = id { id: &'a str, reason: &'a str }
    /// `plan draft` / `plan review --approve`.
    DraftApproved = "draft_approved" { summary: &'a str }
    /// `plan rewind`: the files went back to `goal`'s checkpoint; `undo` holds them
    /// as they were.
    Rewound = "rewound" {
        checkpoint: &'a str,
        goal: &'a str,
        undo: &'a str,
    }
    /// `plan rewind --undo`: the files are back as they were before the rewind.
    RewindUndone = "rewind_undone" { undo: &'a str }
    /// `plan import` brought the goal in as done from another tool: `from` names the
    /// source. No sign-off happened here, so it proves nothing (see `proof.rs`).
    Imported = "imported", goal = id { id: &'a str, from: &'a str }
    /// `plan doctor --fix` removed `removed` exact copies of earlier log lines, as a
    /// merge without plan's driver leaves them: `plan audit` then accepts that the
    /// copies committed before are gone, and no other line.
    LogRepaired = "log_repaired" { removed: usize }
    /// `plan doctor --fix` put back the contract the goal's sign-off transcript
    /// `record` judged, after a line-wise merge split or stripped it.
    ContractRestored = "contract_restored", goal = id { id: &'a str, record: &'a str }
    /// `plan start` took over a goal another holder claimed: with `--steal` while the
    /// holder was active (`idle` is `None`), or after the holder showed no activity
    /// for `idle` minutes, the lease or more.
    ClaimTaken = "claim_taken", goal = id {
        id: &'a str,
        holder: &'a str,
        from: &'a str,
        idle: Option<u32>,
    }
    /// `plan goal`: a work loop started, with its budget of continuations. What
    /// plan.md's log says of the loop (a pause, a clear) is read from this line on,
    /// not from a start in loop.json, which the agent can write.
    /// `commit` is HEAD as it started (`None` on an unborn branch, and in lines
    /// from builds before it was logged): what plan.md held then is what an ending
    /// for want of work is checked against.
    LoopStarted = "loop_started" { budget: u32, commit: Option<&'a str>, approval: Approval }
    /// `plan goal pause`: the work loop lets the agent stop until `plan goal resume`.
    /// Logged so a reviewer sees who let the agent stop, and how.
    LoopPaused = "loop_paused" { approval: Approval }
    /// The stop hook paused the work loop: the host said its turn ended on an error
    /// no retry gets past at once (a rate limit, a login). Logged so the pause is
    /// one plan.md backs, as a `plan goal pause` is: loop.json is the agent's to write.
    LoopHostPaused = "loop_host_paused" {}
    /// `plan goal resume`: the paused work loop holds the agent's stops again.
    LoopResumed = "loop_resumed" { approval: Approval }
    /// `plan goal clear`: the work loop is over.
    LoopCleared = "loop_cleared" { approval: Approval }
    /// The stop hook ended the work loop, saying why: plan.md left no goal for it.
    /// Logged so the ending is one plan.md backs, as a clear is, when work comes
    /// later: loop.json is the agent's to write.
    LoopEnded = "loop_ended" { why: &'a str }
    /// `plan goal rearm`: the goal has a new budget in the work loop, and is no
    /// longer budget-limited. Logged so a reviewer sees who widened it, and how.
    BudgetRearmed = "budget_rearmed", goal = id { id: &'a str, approval: Approval }
    /// The workflow's `update` job, after a merge to the default branch: CI's own
    /// model judge (the gate's `--rejudge`, out of the pull request's reach)
    /// accepted the goal's sign-off that names `checkpoint`, in CI run `run`. It
    /// clears that sign-off's weak-judge warnings. The gate fails a pull request
    /// that adds one, so a line on the default branch came from that job.
    CiJudged = "ci_judged", goal = id { id: &'a str, checkpoint: &'a str, run: &'a str }
}

impl<'a> Event<'a> {
    /// The contract fingerprint the event sets as the goal's approved contract.
    pub fn contract(&self) -> Option<&'a str> {
        match *self {
            Event::Added { contract, .. }
            | Event::Started { contract, .. }
            | Event::Reapproved { contract, .. }
            | Event::CriterionAdded { contract, .. } => Some(contract),
            _ => None,
        }
    }

    /// The line's text, as it follows `- STAMP ` in the log.
    pub fn render(&self) -> String {
        match *self {
            Event::Added { id, contract } => format!("{id} added (contract {contract})"),
            Event::Started {
                id,
                contract,
                commit,
                verify,
            } => {
                // `verify passing at C` takes the place of `at C`, so the commit is
                // said once and a line without the verify reads as it always did.
                let mut out = format!("{id} started (contract {contract}");
                match (verify, commit) {
                    (Some(v), Some(c)) => out.push_str(&format!(", verify {} at {c}", v.word())),
                    (Some(v), None) => out.push_str(&format!(", verify {}", v.word())),
                    (None, Some(c)) => out.push_str(&format!(", at {c}")),
                    (None, None) => {}
                }
                out.push(')');
                out
            }
            Event::Reapproved {
                id,
                contract,
                approval,
            } => format!(
                "{id} contract reapproved (contract {contract}{})",
                approval.suffix()
            ),
            Event::CriterionAdded {
                id,
                text,
                contract,
                approval,
            } => format!(
                "{id} criterion added: {text} (contract {contract}{})",
                approval.suffix()
            ),
            Event::SignedOff {
                id,
                verify,
                judged,
                contract,
                record,
                legacy_path,
                checkpoint,
            } => {
                let verify = if verify { "verify passed" } else { "no verify" };
                let judged = match judged {
                    Judged::By { backend, model: "" } => format!("judge {backend} accept"),
                    Judged::By { backend, model } => format!("judge {backend}:{model} accept"),
                    Judged::Skipped => "judge skipped".to_string(),
                    Judged::Unnamed => "judge accept".to_string(),
                    Judged::Panel { judges } => format!("judges {judges} accept"),
                };
                let mut out = format!("{id} signed off ({verify}, {judged}");
                if let Some(contract) = contract {
                    out.push_str(&format!(", contract {contract}"));
                }
                out.push(')');
                match (record, legacy_path) {
                    (Some(r), _) => out.push_str(&format!(": {}#{}", r.path, r.hash)),
                    (None, Some(path)) => out.push_str(&format!(": {path}")),
                    (None, None) => {}
                }
                if let Some(checkpoint) = checkpoint {
                    out.push_str(&format!(" (checkpoint {checkpoint})"));
                }
                out
            }
            Event::Rejected { id, stage, missing } => {
                format!("{id} sign-off rejected ({stage}): {missing}")
            }
            Event::Cancelled { id, reason } => format!("{id} cancelled: {reason}"),
            Event::Reopened { id, reason } => format!("{id} reopened: {reason}"),
            Event::DraftApproved { summary } => format!("draft approved: {summary}"),
            Event::Rewound {
                checkpoint,
                goal,
                undo,
            } => format!("{} (undo point {undo})", rewind_reason(checkpoint, goal)),
            Event::RewindUndone { undo } => format!("rewind undone: files back to {undo}"),
            Event::Imported { id, from } => format!("{id} imported as done from {from}"),
            Event::LogRepaired { removed: 1 } => {
                "log repaired: removed 1 duplicated line".to_string()
            }
            Event::LogRepaired { removed } => {
                format!("log repaired: removed {removed} duplicated lines")
            }
            Event::ContractRestored { id, record } => {
                format!("{id} contract restored from {record}")
            }
            Event::ClaimTaken {
                id,
                holder,
                from,
                idle: None,
            } => format!("{id} claim taken by {holder} from {from} (steal)"),
            Event::ClaimTaken {
                id,
                holder,
                from,
                idle: Some(idle),
            } => format!("{id} claim taken by {holder} from {from} (idle {idle} min)"),
            Event::LoopStarted {
                budget,
                commit,
                approval,
            } => match commit {
                Some(commit) => format!(
                    "work loop started (budget {budget}, at {commit}, {})",
                    approval.words()
                ),
                None => format!("work loop started (budget {budget}, {})", approval.words()),
            },
            Event::LoopPaused { approval } => format!("work loop paused ({})", approval.words()),
            Event::LoopHostPaused {} => HOST_PAUSED.to_string(),
            Event::LoopResumed { approval } => {
                format!("work loop resumed ({})", approval.words())
            }
            Event::LoopCleared { approval } => {
                format!("work loop cleared ({})", approval.words())
            }
            Event::LoopEnded { why } => format!("{LOOP_ENDED}{why})"),
            Event::BudgetRearmed { id, approval } => {
                format!("{id} budget rearmed ({})", approval.words())
            }
            Event::CiJudged {
                id,
                checkpoint,
                run,
            } => format!("{id} {CI_JUDGED}{checkpoint}, run {run})"),
        }
    }

    /// The event a log text is, if it is one of plan's own forms, for any id.
    pub fn parse(text: &'a str) -> Option<Event<'a>> {
        if let Some(summary) = text.strip_prefix("draft approved: ") {
            return Some(Event::DraftApproved { summary });
        }
        if let Some(inner) = text.strip_prefix("rewind to ") {
            let (checkpoint, rest) = inner.split_once(" of ")?;
            let (goal, undo) = rest.strip_suffix(')')?.split_once(" (undo point ")?;
            id::invalid(goal).is_none().then_some(())?;
            return Some(Event::Rewound {
                checkpoint: hex(checkpoint, 7, 40)?,
                goal,
                undo: hex(undo, 7, 40)?,
            });
        }
        if let Some(rest) = text.strip_prefix("log repaired: removed ") {
            let n = rest
                .strip_suffix(" duplicated lines")
                .or_else(|| rest.strip_suffix(" duplicated line"))?;
            let removed = n
                .parse()
                .ok()
                .filter(|_| n.bytes().all(|b| b.is_ascii_digit()))?;
            return Some(Event::LogRepaired { removed });
        }
        if text == HOST_PAUSED {
            return Some(Event::LoopHostPaused {});
        }
        if let Some(why) = text.strip_prefix(LOOP_ENDED) {
            return Some(Event::LoopEnded {
                why: why.strip_suffix(')')?,
            });
        }
        if let Some(inner) = text.strip_prefix("work loop started (budget ") {
            let (budget, words) = inner.strip_suffix(')')?.split_once(", ")?;
            let budget = budget.parse().ok().filter(|_| {
                budget.bytes().all(|b| b.is_ascii_digit()) && !budget.starts_with('0')
            })?;
            let (commit, words) = match words.strip_prefix("at ").and_then(|w| w.split_once(", ")) {
                Some((commit, words)) => (Some(hex(commit, 7, 40)?), words),
                None => (None, words),
            };
            let approval = match words {
                "a terminal was attached" => Approval::Terminal,
                "without a terminal" => Approval::NoTerminal,
                _ => return None,
            };
            return Some(Event::LoopStarted {
                budget,
                commit,
                approval,
            });
        }
        let paused = |approval| Event::LoopPaused { approval };
        let resumed = |approval| Event::LoopResumed { approval };
        let cleared = |approval| Event::LoopCleared { approval };
        for (form, loop_event) in [
            (
                "work loop paused (",
                &paused as &dyn Fn(Approval) -> Event<'a>,
            ),
            ("work loop resumed (", &resumed),
            ("work loop cleared (", &cleared),
        ] {
            if let Some(inner) = text.strip_prefix(form) {
                return match inner.strip_suffix(')')? {
                    "a terminal was attached" => Some(loop_event(Approval::Terminal)),
                    "without a terminal" => Some(loop_event(Approval::NoTerminal)),
                    _ => None,
                };
            }
        }
        if let Some(undo) = text.strip_prefix("rewind undone: files back to ") {
            return Some(Event::RewindUndone {
                undo: hex(undo, 7, 40)?,
            });
        }
        let (id, rest) = text.split_once(' ')?;
        if id::invalid(id).is_some() {
            return None;
        }
        if let Some(inner) = rest.strip_prefix("added (contract ") {
            let contract = fingerprint(inner.strip_suffix(')')?)?;
            return Some(Event::Added { id, contract });
        }
        if let Some(inner) = rest.strip_prefix("started (contract ") {
            let inner = inner.strip_suffix(')')?;
            if let Some((contract, said)) = inner.split_once(", verify ") {
                let (word, commit) = match said.split_once(" at ") {
                    Some((word, commit)) => (word, Some(hex(commit, 7, 40)?)),
                    None => (said, None),
                };
                return Some(Event::Started {
                    id,
                    contract: fingerprint(contract)?,
                    commit,
                    verify: Some(AtStart::parse(word)?),
                });
            }
            return match inner.split_once(", at ") {
                Some((contract, commit)) => Some(Event::Started {
                    id,
                    contract: fingerprint(contract)?,
                    commit: Some(hex(commit, 7, 40)?),
                    verify: None,
                }),
                None => Some(Event::Started {
                    id,
                    contract: fingerprint(inner)?,
                    commit: None,
                    verify: None,
                }),
            };
        }
        if let Some(inner) = rest.strip_prefix("contract reapproved (contract ") {
            let (contract, approval) = approved(inner.strip_suffix(')')?)?;
            return Some(Event::Reapproved {
                id,
                contract,
                approval,
            });
        }
        if let Some(inner) = rest.strip_prefix("criterion added: ") {
            let inner = inner.strip_suffix(')')?;
            let at = inner.rfind(" (contract ")?;
            let (contract, approval) = approved(&inner[at + " (contract ".len()..])?;
            return Some(Event::CriterionAdded {
                id,
                text: &inner[..at],
                contract,
                approval,
            });
        }
        if let Some(inner) = rest.strip_prefix("signed off (") {
            return signed_off(id, inner);
        }
        if let Some(inner) = rest.strip_prefix("sign-off rejected (") {
            let (stage, missing) = inner.split_once("): ")?;
            return Some(Event::Rejected { id, stage, missing });
        }
        if let Some(reason) = rest.strip_prefix("cancelled: ") {
            return Some(Event::Cancelled { id, reason });
        }
        if let Some(reason) = rest.strip_prefix("reopened: ") {
            return Some(Event::Reopened { id, reason });
        }
        if let Some(record) = rest.strip_prefix("contract restored from ") {
            return Some(Event::ContractRestored { id, record });
        }
        if let Some(from) = rest.strip_prefix("imported as done from ") {
            return Some(Event::Imported { id, from });
        }
        if let Some(inner) = rest.strip_prefix("budget rearmed (") {
            let approval = match inner.strip_suffix(')')? {
                "a terminal was attached" => Approval::Terminal,
                "without a terminal" => Approval::NoTerminal,
                _ => return None,
            };
            return Some(Event::BudgetRearmed { id, approval });
        }
        if let Some(inner) = rest.strip_prefix(CI_JUDGED) {
            let (checkpoint, run) = inner.strip_suffix(')')?.split_once(", run ")?;
            return Some(Event::CiJudged {
                id,
                checkpoint: hex(checkpoint, 7, 40)?,
                run: run_id(run)?,
            });
        }
        if let Some(inner) = rest.strip_prefix("claim taken by ") {
            let (holder, inner) = inner.split_once(" from ")?;
            let (from, how) = inner.strip_suffix(')')?.split_once(" (")?;
            let idle = match how {
                "steal" => None,
                _ => Some(
                    how.strip_prefix("idle ")?
                        .strip_suffix(" min")?
                        .parse()
                        .ok()?,
                ),
            };
            if holder.contains(' ') || from.contains(' ') {
                return None;
            }
            return Some(Event::ClaimTaken {
                id,
                holder,
                from,
                idle,
            });
        }
        None
    }
}

/// Whether `plan log` must refuse this text: it parses as one of plan's own events
/// (for any id, existing or not), or carries a contract fingerprint, or reads like a
/// sign-off, which only `plan complete` may write.
pub fn reserved(text: &str) -> bool {
    if Event::parse(text).is_some() {
        return true;
    }
    // One of plan's events but for a zero-width or bidi character: it would read as
    // the event to a person and as a note to plan.
    let visible = super::text::without_invisible(text);
    if visible != text && reserved(&visible) {
        return true;
    }
    // Nor for a look-alike letter (`reоpened` with a Cyrillic `о`): lint calls such a
    // line a hidden event.
    let folded = super::confusable::fold(text);
    if folded != text && reserved(&folded) {
        return true;
    }
    // Nor for its case: `Signed off (…)` or `REOPENED: …` reads as the event to a
    // person, in `plan show ID` right under the goal's real history.
    let lower = text.to_lowercase();
    if lower != text && reserved(&lower) {
        return true;
    }
    let contract = text.match_indices("(contract ").any(|(at, m)| {
        let rest = &text[at + m.len()..];
        rest.get(..8)
            .is_some_and(|h| h.bytes().all(|b| b.is_ascii_hexdigit()))
    });
    // Only the workflow's update job writes a `ci_judged` line: one in any other
    // spelling reads as CI's word to a person.
    contract
        || text.contains(" signed off")
        || text.contains(" sign-off rejected")
        || text.contains(" judged again by ci")
}

/// A CI run's id as a `ci_judged` line names it: one word of letters, digits and
/// `-`, at most 40 (GitHub's are numbers).
fn run_id(run: &str) -> Option<&str> {
    let ok = (1..=40).contains(&run.len())
        && run.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
    ok.then_some(run)
}

/// Why a rewind reopened a goal, and the start of its own log line:
/// `rewind to <commit> of <goal>`.
pub fn rewind_reason(checkpoint: &str, goal: &str) -> String {
    format!("rewind to {checkpoint} of {goal}")
}

fn signed_off<'a>(id: &'a str, inner: &'a str) -> Option<Event<'a>> {
    // A trailing ` (checkpoint <hex>)` came with checkpoints; older lines lack it.
    let (inner, checkpoint) = match inner.strip_suffix(')').and_then(checkpoint_split) {
        Some((rest, commit)) if hex(commit, 7, 40).is_some() => (rest, Some(commit)),
        _ => (inner, None),
    };
    let close = memchr::memchr(b')', inner.as_bytes())?;
    let (parts, after) = (&inner[..close], &inner[close + 1..]);
    let mut parts = commas(parts);
    let verify = match parts.next()? {
        "verify passed" => true,
        "no verify" => false,
        _ => return None,
    };
    let judged = match parts.next()? {
        "judge skipped" => Judged::Skipped,
        "judge accept" => Judged::Unnamed,
        other if other.starts_with("judges ") => {
            let judges = other.strip_prefix("judges ")?.strip_suffix(" accept")?;
            let names: Vec<&str> = Judged::panel_names(judges).collect();
            let named = |n: &&str| {
                let (backend, _) = n.split_once(':').unwrap_or((n, ""));
                !backend.is_empty() && !n.contains(' ')
            };
            if names.len() < 2 || !names.iter().all(named) {
                return None;
            }
            Judged::Panel { judges }
        }
        other => {
            let who = other.strip_prefix("judge ")?.strip_suffix(" accept")?;
            let (backend, model) = who.split_once(':').unwrap_or((who, ""));
            if backend.is_empty() || backend.contains(' ') {
                return None;
            }
            Judged::By { backend, model }
        }
    };
    let contract = match parts.next() {
        Some(part) => Some(fingerprint(part.strip_prefix("contract ")?)?),
        None => None,
    };
    if parts.next().is_some() {
        return None;
    }
    let (record, legacy_path) = match after.strip_prefix(": ") {
        None if after.is_empty() => (None, None),
        None => return None,
        Some(tail) => match tail.rsplit_once('#') {
            Some((path, hash)) if hex(hash, 8, 40).is_some() && !path.is_empty() => {
                (Some(Record { path, hash }), None)
            }
            _ => (None, Some(tail)),
        },
    };
    Some(Event::SignedOff {
        id,
        verify,
        judged,
        contract,
        record,
        legacy_path,
        checkpoint,
    })
}

/// `rest.rsplit_once(" (checkpoint ")` as far as a hex commit after it goes: no
/// hex holds a `(`, so only the last `(` can start it. The hooks read thousands of
/// sign-off lines, and `str`'s pattern searches set up a searcher per call, which
/// cost more than the rest of the line's reading.
fn checkpoint_split(rest: &str) -> Option<(&str, &str)> {
    let open = memchr::memrchr(b'(', rest.as_bytes())?;
    let head = rest[..open].strip_suffix(' ')?;
    Some((head, rest[open + 1..].strip_prefix("checkpoint ")?))
}

/// `text.split(", ")`, by a byte search (see [`checkpoint_split`]).
fn commas(text: &str) -> impl Iterator<Item = &str> {
    let mut rest = Some(text);
    std::iter::from_fn(move || {
        let text = rest?;
        let bytes = text.as_bytes();
        let mut from = 0;
        while let Some(i) = memchr::memchr(b',', &bytes[from..]) {
            let at = from + i;
            if bytes.get(at + 1) == Some(&b' ') {
                rest = Some(&text[at + 2..]);
                return Some(&text[..at]);
            }
            from = at + 1;
        }
        rest = None;
        Some(text)
    })
}

/// `XXXXXXXX` or `XXXXXXXX, a terminal was attached` (older: `…, at a terminal`) /
/// `…, without a terminal`.
fn approved(inner: &str) -> Option<(&str, Approval)> {
    let (contract, approval) = match inner.split_once(", ") {
        Some((c, "a terminal was attached" | "at a terminal")) => (c, Approval::Terminal),
        Some((c, "without a terminal")) => (c, Approval::NoTerminal),
        Some(_) => return None,
        None => (inner, Approval::Unknown),
    };
    Some((fingerprint(contract)?, approval))
}

fn fingerprint(text: &str) -> Option<&str> {
    hex(text, 8, 8)
}

fn hex(text: &str, min: usize, max: usize) -> Option<&str> {
    (text.len() >= min && text.len() <= max && text.bytes().all(|b| b.is_ascii_hexdigit()))
        .then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The byte searches split as `str`'s do, wherever the commas, spaces and
    /// brackets fall.
    #[test]
    fn byte_splits_agree_with_str_splits() {
        let alphabet = [",", " ", "(", ")", "checkpoint ", "ab12", "x"];
        let mut texts = vec![String::new()];
        for _ in 0..4 {
            let longer: Vec<String> = texts
                .iter()
                .flat_map(|t| alphabet.iter().map(move |a| format!("{t}{a}")))
                .collect();
            texts.extend(longer);
        }
        for t in &texts {
            assert_eq!(
                commas(t).collect::<Vec<_>>(),
                t.split(", ").collect::<Vec<_>>(),
                "{t:?}"
            );
            let want = t
                .rsplit_once(" (checkpoint ")
                .filter(|(_, c)| hex(c, 0, usize::MAX).is_some());
            let got = checkpoint_split(t).filter(|(_, c)| hex(c, 0, usize::MAX).is_some());
            assert_eq!(got, want, "{t:?}");
        }
    }

    fn round_trip(event: Event<'_>) {
        let text = event.render();
        assert_eq!(Event::parse(&text), Some(event), "{text}");
        assert!(reserved(&text), "{text}");
    }

    #[test]
    fn an_event_is_about_the_goal_its_id_field_names_and_every_name_is_one_events_json_tag() {
        let lines = [
            "cache added (contract 0123abcd)",
            "cache started (contract 0123abcd, at 1a2b3c4)",
            "cache contract reapproved (contract 0123abcd, without a terminal)",
            "cache criterion added: fast (contract 0123abcd, a terminal was attached)",
            "cache signed off (verify passed, judge skipped, contract 0123abcd): .plan/judge/c.md#9f2c41d0",
            "cache sign-off rejected (judge): tests",
            "cache cancelled: r",
            "cache reopened: r",
            "draft approved: s",
            &Event::Rewound {
                checkpoint: "0123456789ab",
                goal: "cache",
                undo: "ba9876543210",
            }
            .render(),
            "rewind undone: files back to ba98765",
            "cache imported as done from prd prd.json",
            "log repaired: removed 2 duplicated lines",
            "cache contract restored from .plan/judge/c.md",
            "cache claim taken by b from c (idle 90 min)",
            "work loop started (budget 20, without a terminal)",
            "work loop paused (without a terminal)",
            "work loop paused (the host reported an error)",
            "work loop resumed (a terminal was attached)",
            "work loop cleared (a terminal was attached)",
            "work loop ended (no goal is active or ready to start)",
            "cache budget rearmed (without a terminal)",
            "cache judged again by CI: accept (checkpoint 1a2b3c4, run 7)",
        ];
        let mut names = Vec::new();
        for line in lines {
            let event = Event::parse(line).unwrap_or_else(|| panic!("{line}"));
            let json = serde_json::to_value(event).unwrap();
            assert_eq!(event.id(), json["id"].as_str(), "{line}");
            assert_eq!(json["event"], event.name(), "{line}");
            names.push(event.name());
        }
        assert_eq!(names, Event::NAMES);
    }

    #[test]
    fn repairs_round_trip() {
        round_trip(Event::LogRepaired { removed: 1 });
        round_trip(Event::LogRepaired { removed: 12 });
        round_trip(Event::ContractRestored {
            id: "a",
            record: ".plan/judge/a-20260615-1402.md",
        });
        assert_eq!(
            Event::parse("log repaired: removed +1 duplicated line"),
            None
        );
    }

    /// The started line's verify outcome: each form with and without a commit, the
    /// older forms still read without one, and a word plan never writes is no event.
    #[test]
    fn a_started_line_says_how_the_verify_ended_and_old_lines_still_read() {
        let started = |text| match Event::parse(text) {
            Some(Event::Started {
                contract,
                commit,
                verify,
                ..
            }) => Some((contract, commit, verify)),
            _ => None,
        };
        assert_eq!(
            started("a started (contract 0123abcd, verify failing at 1a2b3c4d5e6f)"),
            Some(("0123abcd", Some("1a2b3c4d5e6f"), Some(AtStart::Failing)))
        );
        assert_eq!(
            started("a started (contract 0123abcd, verify passing)"),
            Some(("0123abcd", None, Some(AtStart::Passing)))
        );
        assert_eq!(
            started("a started (contract 0123abcd, at 1a2b3c4)"),
            Some(("0123abcd", Some("1a2b3c4"), None))
        );
        assert_eq!(
            started("a started (contract 0123abcd)"),
            Some(("0123abcd", None, None))
        );
        for bad in [
            "a started (contract 0123abcd, verify green at 1a2b3c4)",
            "a started (contract 0123abcd, verify failing at xyz)",
            "a started (contract 0123abcd, verify failing at 1a2b3c4, at 1a2b3c4)",
        ] {
            assert_eq!(Event::parse(bad), None, "{bad}");
            assert!(reserved(bad), "{bad}");
        }
    }

    #[test]
    fn every_event_round_trips() {
        round_trip(Event::Added {
            id: "cache",
            contract: "0123abcd",
        });
        round_trip(Event::Started {
            id: "cache",
            contract: "0123abcd",
            commit: Some("1a2b3c4d5e6f"),
            verify: None,
        });
        round_trip(Event::Started {
            id: "cache",
            contract: "0123abcd",
            commit: None,
            verify: None,
        });
        for verify in [
            AtStart::Failing,
            AtStart::Passing,
            AtStart::Skipped,
            AtStart::CannotRun,
        ] {
            for commit in [Some("1a2b3c4d5e6f"), None] {
                round_trip(Event::Started {
                    id: "cache",
                    contract: "0123abcd",
                    commit,
                    verify: Some(verify),
                });
            }
        }
        for approval in [Approval::Terminal, Approval::NoTerminal, Approval::Unknown] {
            round_trip(Event::Reapproved {
                id: "cache",
                contract: "0123abcd",
                approval,
            });
            round_trip(Event::CriterionAdded {
                id: "cache",
                text: "p99 < 120ms (and more)",
                contract: "0123abcd",
                approval,
            });
        }
        round_trip(Event::SignedOff {
            id: "cache",
            verify: true,
            judged: Judged::By {
                backend: "claude",
                model: "opus",
            },
            contract: Some("4eb715f4"),
            record: Some(Record {
                path: ".plan/judge/cache-20261122-1000.md",
                hash: "9f2c41d0ab12",
            }),
            legacy_path: None,
            checkpoint: None,
        });
        round_trip(Event::SignedOff {
            id: "cache",
            verify: false,
            judged: Judged::Skipped,
            contract: Some("4eb715f4"),
            record: Some(Record {
                path: ".plan/judge/cache.md",
                hash: "9f2c41d0",
            }),
            legacy_path: None,
            checkpoint: None,
        });
        round_trip(Event::SignedOff {
            id: "cache",
            verify: true,
            judged: Judged::Skipped,
            contract: Some("4eb715f4"),
            record: Some(Record {
                path: ".plan/judge/cache.md",
                hash: "9f2c41d0",
            }),
            legacy_path: None,
            checkpoint: Some("1a2b3c4d5e6f"),
        });
        round_trip(Event::Rewound {
            checkpoint: "1a2b3c4d5e6f",
            goal: "cache",
            undo: "0f9e8d7c6b5a",
        });
        round_trip(Event::RewindUndone {
            undo: "0f9e8d7c6b5a",
        });
        round_trip(Event::Rejected {
            id: "cache",
            stage: "verify",
            missing: "`cargo test` exited 1",
        });
        round_trip(Event::Cancelled {
            id: "spike",
            reason: "not needed",
        });
        round_trip(Event::Reopened {
            id: "spike",
            reason: "audit --reverify failed",
        });
        round_trip(Event::DraftApproved {
            summary: "2 goals (a, b) for \"x\"",
        });
        round_trip(Event::Imported {
            id: "cache",
            from: "taskmaster .taskmaster/tasks/tasks.json (task 10)",
        });
        round_trip(Event::ClaimTaken {
            id: "cache",
            holder: "4f2a-session",
            from: "alice@laptop",
            idle: None,
        });
        round_trip(Event::ClaimTaken {
            id: "cache",
            holder: "bob",
            from: "alice",
            idle: Some(95),
        });
    }

    #[test]
    fn loop_events_round_trip_and_say_only_whether_a_terminal_was_attached() {
        for approval in [Approval::Terminal, Approval::NoTerminal] {
            round_trip(Event::LoopPaused { approval });
            round_trip(Event::LoopResumed { approval });
            round_trip(Event::LoopStarted {
                budget: 20,
                commit: None,
                approval,
            });
            round_trip(Event::LoopStarted {
                budget: 20,
                commit: Some("0123456789abcdef0123456789abcdef01234567"),
                approval,
            });
            round_trip(Event::LoopCleared { approval });
            round_trip(Event::LoopHostPaused {});
            round_trip(Event::LoopEnded {
                why: "no goal is active or ready to start",
            });
            // A why with its own brackets reads back whole.
            round_trip(Event::LoopEnded { why: "a (b) c)" });
            round_trip(Event::BudgetRearmed {
                id: "cache",
                approval,
            });
        }
        assert_eq!(
            Event::BudgetRearmed {
                id: "cache",
                approval: Approval::NoTerminal
            }
            .render(),
            "cache budget rearmed (without a terminal)"
        );
        assert_eq!(
            Event::LoopCleared {
                approval: Approval::Terminal
            }
            .render(),
            "work loop cleared (a terminal was attached)"
        );
        assert_eq!(Event::parse("work loop cleared (by a person)"), None);
        // Lines written before the wording changed still read.
        assert_eq!(
            Event::parse("a contract reapproved (contract 0123abcd, at a terminal)"),
            Some(Event::Reapproved {
                id: "a",
                contract: "0123abcd",
                approval: Approval::Terminal
            })
        );
    }

    #[test]
    fn json_is_tagged_with_the_name_and_carries_every_field() {
        let signed = Event::SignedOff {
            id: "cache",
            verify: true,
            judged: Judged::By {
                backend: "claude",
                model: "opus",
            },
            contract: Some("4eb715f4"),
            record: Some(Record {
                path: ".plan/judge/cache.md",
                hash: "9f2c41d0",
            }),
            legacy_path: None,
            checkpoint: Some("0123456789ab"),
        };
        assert_eq!(
            serde_json::to_value(signed).unwrap(),
            serde_json::json!({
                "event": "signed_off", "id": "cache", "verify": true,
                "judged": {"kind": "by", "backend": "claude", "model": "opus"},
                "contract": "4eb715f4",
                "record": {"path": ".plan/judge/cache.md", "hash": "9f2c41d0"},
                "legacy_path": null,
                "checkpoint": "0123456789ab",
            })
        );
        let samples = [
            Event::Added {
                id: "a",
                contract: "0123abcd",
            },
            Event::Started {
                id: "a",
                contract: "0123abcd",
                commit: None,
                verify: None,
            },
            Event::Reapproved {
                id: "a",
                contract: "0123abcd",
                approval: Approval::NoTerminal,
            },
            Event::CriterionAdded {
                id: "a",
                text: "t",
                contract: "0123abcd",
                approval: Approval::Terminal,
            },
            signed,
            Event::Rejected {
                id: "a",
                stage: "judge",
                missing: "tests",
            },
            Event::Cancelled {
                id: "a",
                reason: "r",
            },
            Event::Reopened {
                id: "a",
                reason: "r",
            },
            Event::DraftApproved { summary: "s" },
            Event::Rewound {
                checkpoint: "0123456789ab",
                goal: "a",
                undo: "ba9876543210",
            },
            Event::RewindUndone {
                undo: "ba9876543210",
            },
            Event::Imported {
                id: "a",
                from: "prd prd.json",
            },
            Event::LogRepaired { removed: 2 },
            Event::ContractRestored {
                id: "a",
                record: ".plan/judge/a.md",
            },
            Event::ClaimTaken {
                id: "a",
                holder: "b",
                from: "c",
                idle: None,
            },
            Event::LoopStarted {
                budget: 5,
                commit: None,
                approval: Approval::Terminal,
            },
            Event::LoopPaused {
                approval: Approval::Terminal,
            },
            Event::LoopHostPaused {},
            Event::LoopResumed {
                approval: Approval::NoTerminal,
            },
            Event::LoopCleared {
                approval: Approval::NoTerminal,
            },
            Event::LoopEnded {
                why: "no goal is active or ready to start",
            },
            Event::BudgetRearmed {
                id: "a",
                approval: Approval::Terminal,
            },
            Event::CiJudged {
                id: "a",
                checkpoint: "0123456789ab",
                run: "42",
            },
        ];
        let names: Vec<&str> = samples.iter().map(Event::name).collect();
        assert_eq!(names, Event::NAMES);
        for event in samples {
            let json = serde_json::to_value(event).unwrap();
            assert_eq!(json["event"], event.name(), "{json}");
        }
    }

    #[test]
    fn a_panel_sign_off_names_every_judge_and_lists_them_as_json() {
        let panel = Event::SignedOff {
            id: "cache",
            verify: true,
            judged: Judged::Panel {
                judges: "claude:opus + codex",
            },
            contract: Some("4eb715f4"),
            record: Some(Record {
                path: ".plan/judge/cache.md",
                hash: "9f2c41d0",
            }),
            legacy_path: None,
            checkpoint: Some("1a2b3c4d5e6f"),
        };
        round_trip(panel);
        assert_eq!(
            panel.render(),
            "cache signed off (verify passed, judges claude:opus + codex accept, contract 4eb715f4): .plan/judge/cache.md#9f2c41d0 (checkpoint 1a2b3c4d5e6f)"
        );
        assert_eq!(
            serde_json::to_value(panel).unwrap()["judged"],
            serde_json::json!({"kind": "panel", "judges": ["claude:opus", "codex"]})
        );
        // A panel of one, or a judge with no backend, is no panel line.
        for text in [
            "cache signed off (verify passed, judges claude accept, contract 4eb715f4)",
            "cache signed off (verify passed, judges claude +  accept, contract 4eb715f4)",
            "cache signed off (verify passed, judges claude + :x accept, contract 4eb715f4)",
        ] {
            assert_eq!(Event::parse(text), None, "{text}");
        }
    }

    #[test]
    fn lines_of_older_versions_still_parse() {
        assert_eq!(
            Event::parse("cache signed off (verify passed, judge accept)"),
            Some(Event::SignedOff {
                id: "cache",
                verify: true,
                judged: Judged::Unnamed,
                contract: None,
                record: None,
                legacy_path: None,
                checkpoint: None,
            })
        );
        let Some(Event::SignedOff {
            legacy_path,
            record,
            ..
        }) = Event::parse("cache signed off (no verify, judge skipped): .plan/judge/cache.md")
        else {
            panic!()
        };
        assert_eq!((legacy_path, record), (Some(".plan/judge/cache.md"), None));
        assert!(matches!(
            Event::parse("cache criterion added: p99 (contract 0123abcd)"),
            Some(Event::CriterionAdded {
                approval: Approval::Unknown,
                ..
            })
        ));
    }

    #[test]
    fn a_sign_off_names_its_checkpoint_after_the_record_and_lines_without_one_still_read() {
        let line = "cache signed off (no verify, judge skipped, contract 4eb715f4): .plan/judge/cache.md#9f2c41d0";
        let Some(Event::SignedOff {
            record, checkpoint, ..
        }) = Event::parse(line)
        else {
            panic!()
        };
        assert_eq!(
            (record.map(|r| r.hash), checkpoint),
            (Some("9f2c41d0"), None)
        );
        let with = format!("{line} (checkpoint 1a2b3c4d5e6f)");
        let Some(Event::SignedOff {
            record, checkpoint, ..
        }) = Event::parse(&with)
        else {
            panic!()
        };
        assert_eq!(
            (record.map(|r| r.hash), checkpoint),
            (Some("9f2c41d0"), Some("1a2b3c4d5e6f"))
        );
        assert_eq!(
            rewind_reason("1a2b3c4d5e6f", "cache"),
            "rewind to 1a2b3c4d5e6f of cache"
        );
        assert!(!reserved("rewind to the old design, maybe"));
        assert_eq!(
            Event::parse("rewind to 1a2b3c4d of Not An Id (undo point 1a2b3c4d)"),
            None
        );
    }

    #[test]
    fn log_refuses_every_form_for_any_id_and_any_contract_marker() {
        for text in [
            "nosuchgoal signed off (verify passed, judge accept)",
            "x checkpoint (contract 0df556f9)",
            "x started (contract 0df556f9)",
            "someone contract reapproved (contract 0df556f9)",
            "draft approved: 3 goals",
            "x cancelled: because",
            "all good, x signed off by me",
        ] {
            assert!(reserved(text), "{text}");
        }
        for text in [
            "cache client wired; eviction next",
            "talked about the contract with Bob",
            "cancelled the meeting",
        ] {
            assert!(!reserved(text), "{text}");
        }
    }

    #[test]
    fn a_ci_judged_line_round_trips_and_plan_log_refuses_it_in_any_spelling() {
        let line = Event::CiJudged {
            id: "cache",
            checkpoint: "1a2b3c4d5e6f",
            run: "9876543210",
        };
        round_trip(line);
        assert_eq!(
            line.render(),
            "cache judged again by CI: accept (checkpoint 1a2b3c4d5e6f, run 9876543210)"
        );
        for bad in [
            "cache judged again by CI: accept (checkpoint xyz, run 1)",
            "cache judged again by CI: accept (checkpoint 1a2b3c4, run two words)",
            "cache judged again by CI: accept (checkpoint 1a2b3c4, run )",
        ] {
            assert_eq!(Event::parse(bad), None, "{bad}");
            assert!(reserved(bad), "{bad}");
        }
        assert!(reserved(
            "cache Judged again by ci: accept (checkpoint 1a2b3c4, run 1)"
        ));
    }

    #[test]
    fn malformed_lines_are_not_events() {
        for text in [
            "cache started (contract zzzzzzzz)",
            "cache started (contract 0123abcd",
            "cache signed off (verify maybe, judge accept)",
            "cache signed off (verify passed, judge accept, contract 0123abcd, extra)",
            "Not An Id signed off (verify passed, judge accept)",
        ] {
            assert_eq!(Event::parse(text), None, "{text}");
        }
    }
}

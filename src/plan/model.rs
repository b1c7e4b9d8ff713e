//! Plan / Goal / Subtask / LogEntry built from scanned lines, with the format errors
//! found on the way. Pure: borrows the source, never reads or writes anything.

use std::borrow::Cow;
use std::collections::HashMap;

/// The goal index and history maps are keyed on ids from plan.md, which a hook
/// builds on every change of a long plan: a fast hasher, not SipHash.
type Fast = foldhash::fast::FixedState;

use serde::Serialize;

use super::diag::Diagnostic;
use super::event::Event;
use super::id;
use super::rules::Rule;
use super::scan::{Eol, Key, Kind, Line, scan};
use super::standing::Proof;
pub use super::status::Status;
use super::text::one_line;

/// A value on a line of its own, e.g. `done_when: …`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Field<'a> {
    pub line: usize,
    pub value: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Subtask<'a> {
    pub line: usize,
    pub done: bool,
    pub text: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Goal<'a> {
    /// Borrowed from the id comment, or the slug of the title.
    pub id: Cow<'a, str>,
    /// The `<!-- id: … -->` line; `None` when the id is the slug of the title.
    pub id_line: Option<usize>,
    pub title: &'a str,
    /// The `## Goal:` heading.
    pub line: usize,
    /// Last line of the goal's section (the line before the next `## ` heading).
    pub end: usize,
    /// Last non-blank line of the section: where new lines of the goal go.
    pub last_content: usize,
    pub status: Option<Field<'a>>,
    pub done_when: Option<Field<'a>>,
    pub verify: Option<Field<'a>>,
    pub depends_on: Vec<&'a str>,
    pub depends_line: Option<usize>,
    pub failure_modes_line: Option<usize>,
    pub failure_modes: Vec<Field<'a>>,
    /// The `budget: N` line: continuations the work loop may spend on the goal.
    pub budget: Option<Field<'a>>,
    pub subtasks: Vec<Subtask<'a>>,
    /// Below `## Archive`.
    pub archived: bool,
}

impl Goal<'_> {
    /// A goal without a valid `status:` line counts as open.
    pub fn status(&self) -> Status {
        self.status
            .as_ref()
            .and_then(|f| Status::parse(f.value))
            .unwrap_or(Status::Open)
    }

    pub fn done_when(&self) -> Option<&str> {
        self.done_when
            .as_ref()
            .map(|f| f.value)
            .filter(|v| !v.is_empty())
    }

    pub fn verify(&self) -> Option<&str> {
        self.verify
            .as_ref()
            .map(|f| f.value)
            .filter(|v| !v.is_empty())
    }

    /// The continuations its `budget:` line gives it in the work loop; `None` when
    /// it has none, or one that does not read (a format error).
    pub fn budget(&self) -> Option<u32> {
        self.budget.as_ref().and_then(|f| budget_value(f.value))
    }

    pub fn progress(&self) -> (usize, usize) {
        let done = self.subtasks.iter().filter(|s| s.done).count();
        (done, self.subtasks.len())
    }

    pub fn next_subtask(&self) -> Option<&Subtask<'_>> {
        self.subtasks.iter().find(|s| !s.done)
    }

    /// The contract as one normalised text: what `plan start` fingerprints and what
    /// the tamper check compares. Dependencies are part of it (dropping one is a
    /// change of contract), written only when there are any so that goals without
    /// them keep the fingerprints they had before.
    pub fn contract(&self) -> String {
        let mut out = String::new();
        out.push_str("done_when: ");
        out.push_str(&one_line(self.done_when().unwrap_or("")));
        out.push_str("\nverify: ");
        out.push_str(&super::text::one_line_command(self.verify().unwrap_or("")));
        if !self.depends_on.is_empty() {
            let mut deps = self.depends_on.clone();
            deps.sort_unstable();
            deps.dedup();
            out.push_str("\ndepends_on: ");
            out.push_str(&deps.join(", "));
        }
        out.push_str("\nfailure_modes:\n");
        for mode in &self.failure_modes {
            out.push_str("- ");
            out.push_str(&one_line(mode.value));
            out.push('\n');
        }
        out
    }

    /// The first 8 hex digits of the git blob id of [`Goal::contract`], so
    /// `git hash-object` reproduces it.
    pub fn fingerprint(&self) -> String {
        self.contract_id()[..8].to_string()
    }

    /// The whole git blob id of [`Goal::contract`]: what a sign-off's transcript
    /// records, so a contract cannot be swapped for another with the same 8-digit
    /// fingerprint (32 bits are found by brute force in minutes).
    pub fn contract_id(&self) -> String {
        blob_id(self.contract().as_bytes())
    }
}

/// The id git gives a blob with these bytes.
pub fn blob_id(bytes: &[u8]) -> String {
    let mut hash = sha1_smol::Sha1::new();
    hash.update(format!("blob {}\0", bytes.len()).as_bytes());
    hash.update(bytes);
    // As the digest's `Display` writes it, without a formatter call per byte: a
    // hook takes the contract id of up to 64 goals a continuation may name.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut id = String::with_capacity(40);
    for byte in hash.digest().bytes() {
        id.push(char::from(HEX[usize::from(byte >> 4)]));
        id.push(char::from(HEX[usize::from(byte & 0xf)]));
    }
    id
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LogEntry<'a> {
    pub line: usize,
    /// `YYYY-MM-DD HH:MM`, when the line starts with one.
    pub stamp: Option<&'a str>,
    pub text: &'a str,
}

/// As the log shows it: `YYYY-MM-DD HH:MM text`, or the text alone.
impl std::fmt::Display for LogEntry<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.stamp {
            Some(stamp) => write!(f, "{stamp} {}", self.text),
            None => f.write_str(self.text),
        }
    }
}

#[derive(Debug)]
pub struct Plan<'a> {
    pub src: &'a str,
    pub lines: Vec<Line>,
    pub objective: Option<Field<'a>>,
    pub goals: Vec<Goal<'a>>,
    pub log_heading: Option<usize>,
    pub log: Vec<LogEntry<'a>>,
    pub archive_heading: Option<usize>,
    /// Format errors: a plan with any is not written to.
    pub errors: Vec<Diagnostic>,
    /// Goal index by id (the first goal, for a duplicate id).
    index: HashMap<Cow<'a, str>, usize, Fast>,
    /// Log entry indexes by their first word, which is a goal id for goal events.
    history: HashMap<&'a str, Vec<usize>, Fast>,
    /// Each finished goal's standing by its heading line, once [`Plan::prove`] ran.
    pub(super) proofs: Option<HashMap<usize, Proof>>,
    /// Goals (by index) whose ids read alike: a format error in one is the other's.
    twins: Vec<(usize, usize)>,
    /// The later goals (by index) sharing the id of the goal the index names.
    same_id: HashMap<usize, Vec<usize>, Fast>,
}

/// Why an id given on the command line names no single goal.
#[derive(Debug, PartialEq, Eq)]
pub enum Lookup {
    Unknown { candidates: Vec<String> },
    Ambiguous { candidates: Vec<String> },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Section {
    Preamble,
    Goal,
    Log,
    Other,
}

pub fn parse(src: &str) -> Plan<'_> {
    let lines = scan(src);
    let mut plan = Plan {
        src,
        lines: Vec::new(),
        objective: None,
        goals: Vec::new(),
        log_heading: None,
        log: Vec::new(),
        archive_heading: None,
        errors: Vec::new(),
        index: HashMap::default(),
        history: HashMap::default(),
        proofs: None,
        twins: Vec::new(),
        same_id: HashMap::default(),
    };
    let headings = lines
        .iter()
        .filter(|l| matches!(l.kind, Kind::GoalHeading { .. }))
        .count();
    plan.goals.reserve_exact(headings);
    let mut section = Section::Preamble;
    let mut archived = false;
    let mut in_failure_modes = false;
    for line in &lines {
        let value = |r: &std::ops::Range<usize>| &src[r.clone()];
        if ends_section(&line.kind) {
            in_failure_modes = false;
            section = Section::Other;
        }
        match &line.kind {
            Kind::Title { value: v } => {
                if let Some(first) = &plan.objective {
                    plan.errors.push(
                        Diagnostic::error(
                            line.no,
                            "second `# Plan:` line; a plan has one objective",
                        )
                        .hint(format!(
                            "keep the objective on line {} and make this one a `## ` heading",
                            first.line
                        ))
                        .rule(Rule::SecondObjective),
                    );
                } else {
                    plan.objective = Some(Field {
                        line: line.no,
                        value: value(v),
                    });
                }
            }
            Kind::GoalHeading { value: v } => {
                let title = value(v);
                if title.is_empty() {
                    plan.errors.push(
                        Diagnostic::error(line.no, "goal without a title")
                            .hint("write the title after `## Goal:`")
                            .rule(Rule::UntitledGoal),
                    );
                }
                plan.goals.push(Goal {
                    id: Cow::Borrowed(""),
                    id_line: None,
                    title,
                    line: line.no,
                    end: line.no,
                    last_content: line.no,
                    status: None,
                    done_when: None,
                    verify: None,
                    depends_on: Vec::new(),
                    depends_line: None,
                    failure_modes_line: None,
                    failure_modes: Vec::new(),
                    budget: None,
                    subtasks: Vec::new(),
                    archived,
                });
                section = Section::Goal;
            }
            Kind::LogHeading => {
                if let Some(first) = plan.log_heading {
                    plan.errors.push(
                        Diagnostic::error(line.no, "second `## Log` section")
                            .hint(format!("move its lines under the `## Log` on line {first} and delete this heading"))
                            .rule(Rule::SecondLog),
                    );
                    section = Section::Other;
                } else {
                    plan.log_heading = Some(line.no);
                    section = Section::Log;
                }
            }
            Kind::ArchiveHeading => {
                if let Some(first) = plan.archive_heading {
                    plan.errors.push(
                        Diagnostic::error(line.no, "second `## Archive` section")
                            .hint(format!("keep one `## Archive`, the one on line {first}"))
                            .rule(Rule::SecondArchive),
                    );
                } else {
                    plan.archive_heading = Some(line.no);
                }
                archived = true;
            }
            _ if section == Section::Goal => {
                let goal = plan.goals.last_mut().expect("a goal section has a goal");
                goal.end = line.no;
                if line.kind != Kind::Blank {
                    goal.last_content = line.no;
                }
                goal_line(goal, line, src, &mut in_failure_modes, &mut plan.errors);
            }
            Kind::Bullet { value: v } if section == Section::Log => {
                plan.log.push(log_entry(line.no, value(v)));
            }
            _ => {}
        }
    }
    // The footnotes the page refers to, read once for every goal that needs them.
    let mut referred = None;
    for goal in &plan.goals {
        shown_statuses(src, &lines, goal, &mut referred, &mut plan.errors);
    }
    if let Some(error) = unclosed(src, &lines) {
        plan.errors.push(error);
    }
    if let Some(error) = bare_carriage_return(src, &lines) {
        plan.errors.push(error);
    }
    let (conflicts, within) = conflict_markers(src, &lines);
    // Inside a conflict each side sets the goal's fields once: the conflict is the
    // one error, not a "second `done_when:` line" too.
    plan.errors.retain(|e| {
        e.rule != Some(Rule::SecondField) || !within.iter().any(|r| r.contains(&e.line))
    });
    plan.errors.extend(conflicts);
    plan.lines = lines;
    for (i, entry) in plan.log.iter().enumerate() {
        let word = entry.text.split(' ').next().unwrap_or("");
        plan.history.entry(word).or_default().push(i);
    }
    assign_ids(&mut plan);
    check_dependencies(&mut plan);
    plan.errors.sort_by_key(|d| d.line);
    plan
}

/// Whether a line of this kind ends the section it is in (a goal's, the log's).
pub(super) fn ends_section(kind: &Kind) -> bool {
    matches!(
        kind,
        Kind::Title { .. }
            | Kind::GoalHeading { .. }
            | Kind::LogHeading
            | Kind::ArchiveHeading
            | Kind::Heading { level: 1 | 2 }
    )
}

fn goal_line<'a>(
    goal: &mut Goal<'a>,
    line: &Line,
    src: &'a str,
    in_failure_modes: &mut bool,
    errors: &mut Vec<Diagnostic>,
) {
    match &line.kind {
        Kind::Blank | Kind::Comment | Kind::Code | Kind::Fence => {}
        Kind::Bullet { value } if *in_failure_modes => goal.failure_modes.push(Field {
            line: line.no,
            value: &src[value.clone()],
        }),
        _ => *in_failure_modes = false,
    }
    match &line.kind {
        Kind::IdComment { value } => {
            let id = &src[value.clone()];
            if let Some(first) = goal.id_line {
                errors.push(
                    Diagnostic::error(line.no, "second id comment in one goal")
                        .hint(format!("keep the id on line {first} and delete this line"))
                        .rule(Rule::SecondIdComment),
                );
            } else if let Some(why) = id::too_long(id) {
                errors.push(
                    Diagnostic::error(line.no, why)
                        .hint("shorten it to a word or a few, e.g. `<!-- id: cache-layer -->`, and the ids that name it in depends_on")
                        .rule(Rule::BadId),
                );
            } else if let Some(why) = id::invalid(id) {
                errors.push(
                    Diagnostic::error(line.no, format!("goal id \"{id}\" {why}"))
                        .hint("ids are one word of letters, digits and dashes, e.g. `<!-- id: cache-layer -->`")
                        .rule(Rule::BadId),
                );
            } else {
                goal.id = Cow::Borrowed(id);
                goal.id_line = Some(line.no);
            }
        }
        Kind::Field { key, value } => {
            let field = Field {
                line: line.no,
                value: &src[value.clone()],
            };
            let slot_line = match key {
                Key::Status => goal.status.as_ref().map(|f| f.line),
                Key::DoneWhen => goal.done_when.as_ref().map(|f| f.line),
                Key::Verify => goal.verify.as_ref().map(|f| f.line),
                Key::DependsOn => goal.depends_line,
                Key::FailureModes => goal.failure_modes_line,
                Key::Budget => goal.budget.as_ref().map(|f| f.line),
            };
            if let Some(first) = slot_line {
                errors.push(
                    Diagnostic::error(
                        line.no,
                        format!("second `{}:` line in goal \"{}\"", key.as_str(), goal.title),
                    )
                    .hint(format!(
                        "line {first} already sets it; merge the two and delete one"
                    ))
                    .rule(Rule::SecondField),
                );
                return;
            }
            match key {
                Key::Status
                    if Status::parse(field.value).is_none()
                        && status_near_miss(line.text(src)).flatten().is_some() =>
                {
                    errors.push(malformed_status(line.no, line.text(src)));
                }
                Key::Status => {
                    if Status::parse(field.value).is_none() {
                        errors.push(
                            Diagnostic::error(
                                line.no,
                                format!(
                                    "unknown status \"{}\" (expected open, active, done or cancelled)",
                                    field.value
                                ),
                            )
                            .hint(unknown_status_hint(line.no, field.value))
                            .rule(Rule::UnknownStatus),
                        );
                    }
                    goal.status = Some(field);
                }
                Key::DoneWhen => goal.done_when = Some(field),
                Key::Verify => goal.verify = Some(field),
                Key::DependsOn => {
                    goal.depends_line = Some(line.no);
                    goal.depends_on = field
                        .value
                        .split(',')
                        .map(str::trim)
                        .filter(|d| !d.is_empty())
                        .collect();
                }
                Key::Budget => {
                    if let Some(error) = check_budget(line.no, field.value) {
                        errors.push(error);
                    }
                    goal.budget = Some(field);
                }
                Key::FailureModes => {
                    goal.failure_modes_line = Some(line.no);
                    *in_failure_modes = true;
                    if !field.value.is_empty() {
                        goal.failure_modes.push(field);
                    }
                }
            }
        }
        Kind::Task { done, value } => goal.subtasks.push(Subtask {
            line: line.no,
            done: *done,
            text: &src[value.clone()],
        }),
        Kind::Other if status_near_miss(line.text(src)).is_some() => {
            errors.push(malformed_status(line.no, line.text(src)));
        }
        _ => {}
    }
}

/// A `budget:` value: a whole number of continuations from 1.
pub fn budget_value(value: &str) -> Option<u32> {
    let value = value.trim();
    if value.is_empty() || !value.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    value.parse().ok().filter(|&n| n > 0)
}

/// The format error of a `budget:` line on line `no` that does not read.
pub fn check_budget(no: usize, value: &str) -> Option<Diagnostic> {
    budget_value(value).is_none().then(|| {
        Diagnostic::error(
            no,
            format!("budget \"{value}\" is not a whole number of continuations from 1"),
        )
        .hint("write `budget: N`, N continuations, e.g. `budget: 5`, or delete the line to use loop.goal_budget")
        .rule(Rule::BadBudget)
    })
}

/// A line a person reads as a goal's status but plan does not: `Status: Active`,
/// `status active`, `status: ACTIVE`, an indented `status: done`. `Some(status)`
/// inside when the status it means is clear. Four spaces of indentation make code,
/// and prose such as `Status of the work: unclear` is not a status line.
pub fn status_near_miss(text: &str) -> Option<Option<Status>> {
    if text.is_ascii() {
        return ascii_near_miss(text);
    }
    // What a reviewer reads as a status line is one: with a look-alike letter or an
    // invisible character in it, a line that says done would count as open.
    let read = super::confusable::reviewed(text).replace('\u{ff1a}', ":");
    ascii_near_miss(&read).or_else(|| {
        let value = read.strip_prefix("status:")?;
        Some(Status::parse(value.trim()))
    })
}

/// A goal's lines that show a status on a rendered page (a pull request's file
/// view) where plan reads none: `**status**: done`, `- status: done`,
/// `st&#97;tus: done`, `status<!-- -->: done`, a key and its value on two lines. A
/// reviewer would see a goal done (or cancelled) that plan counts as open. The
/// goal is rendered whole, as a forge renders it, and only when a line of it could
/// spell the key.
fn shown_statuses(
    src: &str,
    lines: &[Line],
    goal: &Goal<'_>,
    referred: &mut Option<std::collections::HashSet<super::shown::Label>>,
    errors: &mut Vec<Diagnostic>,
) {
    let body = &lines[goal.line.min(goal.end)..goal.end];
    // A status field spells the key by itself: it is suspect for what could
    // follow it on its line (`<br>`, an entity), like any other field.
    let suspect = |l: &&Line| {
        let text = l.text(src);
        let odd = !text.is_ascii() || text.contains(['&', '<']);
        match l.kind {
            Kind::IdComment { .. } => false,
            Kind::Field {
                key: Key::Status, ..
            } => odd,
            _ => odd || spells_status(text),
        }
    };
    let (Some(first), Some(last)) = (body.first(), body.last()) else {
        return;
    };
    if !body.iter().any(|l| suspect(&l)) {
        return;
    }
    let read = goal.status();
    let line_at = |offset: usize| {
        let k = body.partition_point(|l| l.start <= first.start + offset);
        &body[k.saturating_sub(1)]
    };
    // A footnote's definition shows wherever on the page it is referred to.
    let referred = referred.get_or_insert_with(|| super::shown::referred(src));
    let pieces = super::shown::pieces(&src[first.start..last.end], referred);
    let mut flagged: Vec<usize> = errors
        .iter()
        .filter(|e| e.rule == Some(Rule::MalformedStatus))
        .map(|e| e.line)
        .collect();
    for (i, piece) in pieces.iter().enumerate() {
        let line = line_at(piece.at);
        // A field plan reads is its own (a second `status:` is `second-field`),
        // not what shows after it on its line (`done_when: x<br>status: done`).
        let field = matches!(line.kind, Kind::Field { .. }) && first.start + piece.at == line.start;
        // A piece of marks alone (a table's rule) starts no reading.
        if field
            || flagged.contains(&line.no)
            || !piece.text.contains(|c: char| c.is_alphanumeric())
        {
            continue;
        }
        let mut joined = String::new();
        let mut quoted = true;
        for (k, next) in pieces[i..].iter().take(3).enumerate() {
            if next.block != piece.block {
                break;
            }
            if k > 0 {
                joined.push(' ');
            }
            joined.push_str(&next.text);
            quoted &= next.code;
            // Only a status other than the one plan reads misleads.
            let Some(status) = reads_as_status(&joined).filter(|&s| s != read && !quoted) else {
                continue;
            };
            flagged.push(line.no);
            errors.push(
                Diagnostic::error(
                    line.no,
                    format!(
                        "this line shows as `status: {}` where markdown is rendered, and plan reads the goal as {}",
                        status.as_str(),
                        read.as_str()
                    ),
                )
                .hint("plan reads a status only as plain `status: …` at the start of a line: write it so, or reword the line")
                .rule(Rule::MalformedStatus),
            );
            break;
        }
    }
}

/// The status rendered text shows: the key, then marks with a colon or a space
/// among them, then a known status and marks alone (`status: done.`,
/// `status — done`). Prose after the status (`status: done for the API`) is none,
/// nor a key run into its value (`status-done`).
pub fn reads_as_status(shown: &str) -> Option<Status> {
    let body = shown.trim_start_matches(|c: char| !c.is_alphanumeric());
    body.get(..6).filter(|k| k.eq_ignore_ascii_case("status"))?;
    let rest = &body[6..];
    let value = rest.trim_start_matches(|c: char| !c.is_alphanumeric());
    let between = &rest[..rest.len() - value.len()];
    if !between.contains(|c: char| c == ':' || c.is_whitespace()) {
        return None;
    }
    let value = value.trim_end_matches(|c: char| !c.is_alphanumeric());
    Status::parse(&value.to_ascii_lowercase())
}

/// Whether `text`'s letters, marks between them skipped, spell `status`.
/// A link's target or label shows nothing (`[st](q)atus` shows `status`), so its
/// letters are skipped.
fn spells_status(text: &str) -> bool {
    const KEY: &[u8] = b"status";
    let mut at = 0;
    let mut hidden: Option<u8> = None;
    let mut last = 0u8;
    for b in text.bytes() {
        let was = std::mem::replace(&mut last, b);
        match hidden {
            Some(close) if b == close => hidden = None,
            // A title, an escape, code or a nested bracket: what shows is past
            // telling here, so the line is rendered.
            Some(_) if b"\"'\\`([".contains(&b) => return true,
            Some(_) => {}
            None if was == b']' && matches!(b, b'(' | b'[') && text.contains(['\\', '`']) => {
                return true;
            }
            None if was == b']' && b == b'(' => hidden = Some(b')'),
            None if was == b']' && b == b'[' => hidden = Some(b']'),
            None => {}
        }
        if hidden.is_some() || !b.is_ascii_alphabetic() {
            continue;
        }
        let b = b.to_ascii_lowercase();
        // The key's only repeated letter is its first and last, so a mismatch
        // restarts at 0, or at 1 on an `s`.
        at = if b == KEY[at] {
            at + 1
        } else {
            usize::from(b == b's')
        };
        if at == KEY.len() {
            return true;
        }
    }
    false
}

/// [`status_near_miss`] of a line read as written.
fn ascii_near_miss(text: &str) -> Option<Option<Status>> {
    let indent = text.len() - text.trim_start_matches(' ').len();
    if indent > 3 || text[indent..].starts_with('\t') {
        return None;
    }
    let body = text.trim();
    let known = |word: &str| Status::parse(&word.to_ascii_lowercase());
    if let Some((key, value)) = body.split_once(':')
        && key.trim().eq_ignore_ascii_case("status")
    {
        let value = value.trim();
        if indent == 0 && key == "status" && Status::parse(value).is_some() {
            return None;
        }
        return Some(known(value));
    }
    let (key, value) = body.split_once([' ', '\t'])?;
    let status = known(value.trim())?;
    key.eq_ignore_ascii_case("status").then_some(Some(status))
}

/// A misspelt status gets the status it is one edit from; anything else an example.
fn unknown_status_hint(no: usize, value: &str) -> String {
    match super::nearest::status_typo(value) {
        Some(status) if super::nearest::repairable_status_typo(value).is_some() => format!(
            "did you mean `status: {}`? plan doctor --fix rewrites line {no} so",
            status.as_str()
        ),
        Some(status) => format!(
            "did you mean `status: {}`? edit line {no}; plan complete signs a goal off and writes it",
            status.as_str()
        ),
        None => format!(
            "edit line {no} to a known status, e.g. `status: open`; then plan start, plan complete or plan cancel move it"
        ),
    }
}

/// A near-miss status line is an error, not a guess: read as written it would
/// silently count as open, and read loosely, prose could change a goal's status.
fn malformed_status(no: usize, text: &str) -> Diagnostic {
    let fix = match status_near_miss(text).flatten() {
        Some(status) => format!(
            "write it as `status: {}`: lower case, at the start of the line (plan doctor --fix rewrites it)",
            status.as_str()
        ),
        None => {
            "write it as `status: open|active|done|cancelled`, lower case, at the start of the line"
                .to_string()
        }
    };
    Diagnostic::error(
        no,
        "plan does not read this status line, so its goal counts as open",
    )
    .hint(fix)
    .rule(Rule::MalformedStatus)
}

/// A code fence or HTML comment left open runs to the end of the file, and every
/// line plan would add after it (a subtask, a goal, a log entry) would land inside
/// it, unseen by any reader. So an unclosed one is a format error, whatever it hides.
fn unclosed(src: &str, lines: &[Line]) -> Option<Diagnostic> {
    let (open, what, close) = match unclosed_at(src, lines)? {
        (open, Kind::Fence) => {
            let fence: String = lines[open - 1]
                .text(src)
                .trim_start()
                .chars()
                .take_while(|c| *c == '`' || *c == '~')
                .collect();
            (
                open,
                "code fence",
                format!("add a line with just {fence} where the code ends"),
            )
        }
        (open, _) => (
            open,
            "HTML comment",
            "add --> where the comment ends".to_string(),
        ),
    };
    let hidden = lines[open..].iter().find(|l| {
        let t = l.text(src);
        let body = t.trim_start_matches(' ');
        t.len() - body.len() <= 3 && (body.starts_with("# ") || body.starts_with("## "))
    });
    let what_is_lost = match hidden {
        Some(h) => format!(
            "it hides the heading on line {} (`{}`) and everything after it",
            h.no,
            h.text(src).trim()
        ),
        None => {
            "it runs to the end of the file, and lines plan adds would land inside it".to_string()
        }
    };
    Some(
        Diagnostic::error(
            open,
            format!("{what} opened here is never closed: {what_is_lost}"),
        )
        .hint(close)
        .rule(Rule::UnclosedBlock),
    )
}

/// A carriage return not followed by a line feed ends a line for CommonMark but not
/// for the scanner, so a reader and plan would disagree on the lines, and what plan
/// adds (with `\n`) would mix endings. Refused, with nothing changed, rather than
/// guessed at.
pub(super) fn bare_carriage_return(src: &str, lines: &[Line]) -> Option<Diagnostic> {
    // Most files have none: one search of the whole, not one per line.
    memchr::memchr(b'\r', src.as_bytes())?;
    let line = lines.iter().find(|l| l.text(src).contains('\r'))?;
    if lines.len() == 1 && line.eol == Eol::None {
        return Some(
            Diagnostic::error(1, "line endings are CR only (classic Mac style); plan reads LF or CRLF")
                .hint("convert the file, e.g. `tr '\\r' '\\n' < plan.md > plan.tmp && mv plan.tmp plan.md`; plan changed nothing")
                .rule(Rule::BareCarriageReturn),
        );
    }
    Some(
        Diagnostic::error(
            line.no,
            "carriage return (CR) without a line feed: Markdown reads it as a line break, plan does not",
        )
        .hint("replace the stray CR with a line break or delete it; plan changed nothing")
        .rule(Rule::BareCarriageReturn),
    )
}

/// git's conflict markers left in the file, one error per conflict (at its
/// `<<<<<<<` line) and one per marker outside any. Inside a fence they are code. A
/// lone `=======` is a setext underline, a marker only between `<<<<<<<` and
/// `>>>>>>>`. Every marker line is one the hooks' cut reader keeps (lean.rs). Also
/// the lines each conflict spans.
pub(super) fn conflict_markers(
    src: &str,
    lines: &[Line],
) -> (Vec<Diagnostic>, Vec<std::ops::RangeInclusive<usize>>) {
    let marker = |text: &str, m: &str| {
        text.strip_prefix(m)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with([' ', '\t']))
    };
    let hint = "keep what each side meant (often both), delete the marker lines, then run `plan lint`; plan changed nothing. `plan install git` lets git merge plan.md goal by goal";
    let mut errors = Vec::new();
    let mut spans = Vec::new();
    let mut open: Option<usize> = None;
    for line in lines {
        if !matches!(line.kind, Kind::Other | Kind::Comment) {
            continue;
        }
        let text = line.text(src);
        if !matches!(text.as_bytes().first(), Some(b'<' | b'|' | b'=' | b'>')) {
            continue;
        }
        if marker(text, "<<<<<<<") {
            if let Some(start) = open {
                errors.push(unresolved(start, None, hint));
                spans.push(start..=line.no);
            }
            open = Some(line.no);
        } else if marker(text, ">>>>>>>") {
            match open.take() {
                Some(start) => {
                    errors.push(unresolved(start, Some(line.no), hint));
                    spans.push(start..=line.no);
                }
                None => errors.push(
                    Diagnostic::error(line.no, "merge conflict marker `>>>>>>>` left in the file")
                        .hint(hint)
                        .rule(Rule::ConflictMarker),
                ),
            }
        } else if open.is_none() && marker(text, "|||||||") {
            errors.push(
                Diagnostic::error(line.no, "merge conflict marker `|||||||` left in the file")
                    .hint(hint)
                    .rule(Rule::ConflictMarker),
            );
        }
    }
    if let Some(start) = open {
        errors.push(unresolved(start, None, hint));
        spans.push(start..=usize::MAX);
    }
    (errors, spans)
}

fn unresolved(start: usize, end: Option<usize>, hint: &str) -> Diagnostic {
    let to = end.map_or(String::new(), |e| format!(" (to line {e})"));
    Diagnostic::error(
        start,
        format!("unresolved merge conflict{to}: resolve it before plan reads or writes this file"),
    )
    .hint(hint)
    .rule(Rule::ConflictMarker)
}

/// The line that opens a fence or comment still open at the end, and which kind.
fn unclosed_at(src: &str, lines: &[Line]) -> Option<(usize, Kind)> {
    let mut open: Option<(usize, Kind)> = None;
    for line in lines {
        match (&open, &line.kind) {
            (None, Kind::Fence) => open = Some((line.no, Kind::Fence)),
            (Some((_, Kind::Fence)), Kind::Fence) => open = None,
            // The scanner only marks a line that opens a block as a comment when
            // the block does not close on it.
            (None, Kind::Comment) => open = Some((line.no, Kind::Comment)),
            (Some((_, Kind::Comment)), Kind::Comment) if line.text(src).contains("-->") => {
                open = None;
            }
            _ => {}
        }
    }
    open
}

pub(super) fn log_entry(line: usize, text: &str) -> LogEntry<'_> {
    let b = text.as_bytes();
    let stamped =
        super::text::starts_with_stamp(b) && (b.len() == 16 || b[16] == b' ' || b[16] == b'\t');
    if stamped {
        LogEntry {
            line,
            stamp: Some(&text[..16]),
            text: text[16..].trim(),
        }
    } else {
        LogEntry {
            line,
            stamp: None,
            text,
        }
    }
}

fn assign_ids(plan: &mut Plan<'_>) {
    for goal in plan.goals.iter_mut().filter(|g| g.id.is_empty()) {
        goal.id = Cow::Owned(id::slug(goal.title));
    }
    // Written ids claim theirs first: a goal whose id only comes from its title is
    // the one that must give way, so a repair never writes a second copy of an id.
    let order = (0..plan.goals.len())
        .filter(|&i| plan.goals[i].id_line.is_some())
        .chain((0..plan.goals.len()).filter(|&i| plan.goals[i].id_line.is_none()));
    let mut index = HashMap::with_capacity_and_hasher(plan.goals.len(), Fast::default());
    let mut errors = Vec::new();
    let mut same_id: HashMap<usize, Vec<usize>, Fast> = HashMap::default();
    for i in order {
        let goal = &plan.goals[i];
        let Some(&first) = index.get(&goal.id) else {
            index.insert(goal.id.clone(), i);
            continue;
        };
        same_id.entry(first).or_default().push(i);
        let first_line = plan.goals[first].line;
        let hint = if goal.id_line.is_some() {
            "give each goal its own `<!-- id: … -->`".to_string()
        } else {
            let all = |c: &str| plan.goals.iter().any(|g| g.id == c);
            format!(
                "this goal has no id comment and its title gives the same id; add `<!-- id: {} -->` under its heading",
                id::unique(&goal.id, all)
            )
        };
        errors.push(
            Diagnostic::error(
                goal.id_line.unwrap_or(goal.line),
                format!(
                    "duplicate goal id \"{}\" (also used by the goal on line {first_line})",
                    goal.id
                ),
            )
            .hint(hint)
            .rule(Rule::DuplicateId),
        );
    }
    let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
    let twins = id::look_alikes(&ids);
    for &(first, twin) in &twins {
        let (a, b) = (&plan.goals[first], &plan.goals[twin]);
        let foreign = [b, a]
            .iter()
            .find(|g| !g.id.is_ascii())
            .map(|g| format!("\"{}\" holds {}", g.id, id::foreign_letters(&g.id)))
            .unwrap_or_default();
        errors.push(
            Diagnostic::error(
                b.id_line.unwrap_or(b.line),
                format!(
                    "goal id \"{}\" reads like \"{}\" (line {}): either could pass for the other in depends_on",
                    b.id,
                    a.id,
                    a.id_line.unwrap_or(a.line)
                ),
            )
            .hint(format!(
                "{foreign}; give one of them an id in the letters of one script (its `<!-- id: … -->`, or its title when it has none)"
            ))
            .rule(Rule::LookAlikeId),
        );
    }
    plan.twins = twins;
    plan.errors.extend(errors);
    plan.index = index;
    plan.same_id = same_id;
}

fn check_dependencies(plan: &mut Plan<'_>) {
    let index = &plan.index;
    let mut errors = Vec::new();
    for goal in &plan.goals {
        for dep in &goal.depends_on {
            if !index.contains_key(*dep) {
                let line = goal.depends_line.unwrap_or(goal.line);
                let near: Vec<&str> = plan
                    .goals
                    .iter()
                    .map(|g| g.id.as_ref())
                    .filter(|id| id.starts_with(dep) || dep.starts_with(id))
                    .collect();
                let hint = if near.is_empty() {
                    let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
                    format!(
                        "edit line {line}: depends_on takes goal ids, comma-separated; the goals are {}",
                        ids.join(", ")
                    )
                } else {
                    format!("did you mean {}?", near.join(", "))
                };
                errors.push(
                    Diagnostic::error(line, format!("depends_on names no goal: \"{dep}\""))
                        .hint(hint)
                        .rule(Rule::MissingDependency),
                );
            }
        }
    }
    // Colour DFS over the goals; a grey → grey edge closes a cycle.
    let n = plan.goals.len();
    let mut colour = vec![0u8; n];
    for root in 0..n {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, usize)> = vec![(root, 0)];
        colour[root] = 1;
        while let Some(&mut (node, ref mut next)) = stack.last_mut() {
            let deps = &plan.goals[node].depends_on;
            if *next == deps.len() {
                colour[node] = 2;
                stack.pop();
                continue;
            }
            let dep = deps[*next];
            *next += 1;
            let Some(&target) = index.get(dep) else {
                continue;
            };
            match colour[target] {
                0 => {
                    colour[target] = 1;
                    stack.push((target, 0));
                }
                1 => {
                    let from = stack.iter().position(|&(g, _)| g == target).unwrap_or(0);
                    let mut path: Vec<&str> = stack[from..]
                        .iter()
                        .map(|&(g, _)| plan.goals[g].id.as_ref())
                        .collect();
                    path.push(&plan.goals[target].id);
                    let goal = &plan.goals[node];
                    errors.push(
                        Diagnostic::error(
                            goal.depends_line.unwrap_or(goal.line),
                            format!("dependency cycle: {}", path.join(" → ")),
                        )
                        .hint(cycle_hint(&path))
                        .rule(Rule::DependencyCycle),
                    );
                }
                _ => {}
            }
        }
    }
    plan.errors.extend(errors);
}

/// The hint for a dependency cycle `path` (first and last the same goal): a goal
/// naming itself, or goals waiting on each other.
pub fn cycle_hint(path: &[&str]) -> String {
    match path {
        [one, _] => format!("a goal cannot wait on itself; remove {one} from its depends_on"),
        _ => "goals in a cycle wait on each other forever; remove one of these depends_on entries"
            .to_string(),
    }
}

impl<'a> Plan<'a> {
    pub fn line_text(&self, no: usize) -> &'a str {
        let line = &self.lines[no - 1];
        &self.src[line.start..line.end]
    }

    pub fn goal(&self, id: &str) -> Option<&Goal<'a>> {
        self.index.get(id).map(|&i| &self.goals[i])
    }

    /// Exact id first, else a unique prefix.
    pub fn resolve(&self, query: &str) -> Result<&Goal<'a>, Lookup> {
        if let Some(goal) = self.goal(query) {
            return Ok(goal);
        }
        let matches: Vec<&Goal<'a>> = self
            .goals
            .iter()
            .filter(|g| g.id.starts_with(query))
            .collect();
        match matches.as_slice() {
            [one] => Ok(one),
            [] => Err(Lookup::Unknown {
                candidates: self
                    .goals
                    .iter()
                    .filter(|g| !g.archived)
                    .map(|g| g.id.to_string())
                    .collect(),
            }),
            many => Err(Lookup::Ambiguous {
                candidates: many.iter().map(|g| g.id.to_string()).collect(),
            }),
        }
    }

    /// Entries of the log that begin with `<id> ` — a goal's own history.
    pub fn history<'s>(
        &'s self,
        id: &str,
    ) -> impl DoubleEndedIterator<Item = &'s LogEntry<'a>> + 's {
        self.history
            .get(id)
            .into_iter()
            .flatten()
            .map(|&i| &self.log[i])
    }

    /// plan's own events about this goal, in log order, with their entries.
    pub fn events<'s>(
        &'s self,
        id: &'s str,
    ) -> impl DoubleEndedIterator<Item = (&'s LogEntry<'a>, Event<'a>)> + 's {
        self.history(id).filter_map(move |entry| {
            let event = Event::parse(entry.text)?;
            (event.id() == Some(id)).then_some((entry, event))
        })
    }

    /// The fingerprint of the goal's latest approved contract: the one it was added,
    /// started, reapproved or given a criterion with.
    pub fn logged_contract(&self, id: &str) -> Option<&'a str> {
        self.events(id).rev().find_map(|(_, e)| e.contract())
    }

    /// The fingerprint the log last approved for `goal`, when its contract in the
    /// file is another: a change nobody approved yet.
    pub fn unapproved(&self, goal: &Goal<'_>) -> Option<&'a str> {
        let now = goal.fingerprint();
        self.logged_contract(&goal.id)
            .filter(|logged| *logged != now)
    }

    /// Replaces the proof of the finished goal at `line`, for a check of facts the
    /// transcript does not hold (its checkpoint: `bind.rs`).
    pub fn set_proof(&mut self, line: usize, proof: Proof) {
        if let Some(proofs) = self.proofs.as_mut() {
            proofs.insert(line, proof);
        }
    }

    /// The goal's standing. Before [`Plan::prove`] ran, a finished goal counts as
    /// unproven: without the facts nothing is proven.
    pub fn proof(&self, goal: &Goal<'_>) -> Proof {
        if !goal.status().is_finished() {
            return Proof::Unfinished;
        }
        match self.checked(goal) {
            Some(proof) => proof.clone(),
            None => Proof::Unproven {
                why: "its sign-off record was not checked".to_string(),
                hint: "run `plan audit`".to_string(),
            },
        }
    }

    /// Done or cancelled, and proven so: it no longer blocks dependants.
    pub fn settled(&self, goal: &Goal<'_>) -> bool {
        goal.status().is_finished() && self.checked(goal).is_some_and(Proof::is_proven)
    }

    /// `done (imported from FILE, not signed off by plan)` for a goal imported as
    /// done and not signed off here since; `None` for any other.
    pub fn imported_label(&self, goal: &Goal<'_>) -> Option<String> {
        self.checked(goal).and_then(Proof::imported_label)
    }

    fn checked(&self, goal: &Goal<'_>) -> Option<&Proof> {
        self.proofs.as_ref()?.get(&goal.line)
    }

    /// Goals marked done or cancelled without a record: remaining work. Live ones
    /// unless proven; archived ones when checked and found unproven (the hooks check
    /// only those the log leaves off record, [`Plan::prove_live`]).
    pub fn unproven(&self) -> impl Iterator<Item = &Goal<'a>> {
        self.goals.iter().filter(|g| {
            g.status().is_finished()
                && if g.archived {
                    self.checked(g).is_some_and(Proof::is_unproven)
                } else {
                    !self.settled(g)
                }
        })
    }

    /// Ids plan logged events for that no goal in the file has any more (deleted or
    /// renamed by hand), each with the line of its last event.
    pub fn orphans(&self) -> Vec<(&'a str, usize)> {
        let mut out: Vec<(&'a str, usize)> = self
            .history
            .iter()
            .filter(|(id, _)| self.goal(id).is_none())
            .filter_map(|(id, entries)| {
                let last = entries
                    .iter()
                    .rev()
                    .map(|&i| &self.log[i])
                    .find(|e| Event::parse(e.text).is_some_and(|ev| ev.id() == Some(id)))?;
                Some((*id, last.line))
            })
            .collect();
        out.sort_by_key(|&(_, line)| line);
        out
    }

    /// Orphans (see [`Plan::orphans`]) the log leaves unfinished: their last event
    /// is neither a sign-off nor a cancel. A goal deleted by hand mid-work is still
    /// work, or a dishonest agent could end the loop by deleting it.
    pub fn vanished(&self) -> Vec<&'a str> {
        self.orphans()
            .into_iter()
            .filter(|&(id, _)| {
                let last = self.history.get(id).and_then(|entries| {
                    entries
                        .iter()
                        .rev()
                        .filter_map(|&i| Event::parse(self.log[i].text))
                        .find(|ev| ev.id() == Some(id))
                });
                !matches!(
                    last,
                    Some(Event::SignedOff { .. } | Event::Cancelled { .. })
                )
            })
            .map(|(id, _)| id)
            .collect()
    }

    /// Dependencies not yet proven done or cancelled (unknown ones count as unmet).
    pub fn unmet_dependencies(&self, goal: &Goal<'a>) -> Vec<&'a str> {
        goal.depends_on
            .iter()
            .copied()
            .filter(|dep| !self.goal(dep).is_some_and(|d| self.settled(d)))
            .collect()
    }

    /// Goals under `## Archive` that are not finished: `plan archive` moves only done
    /// and cancelled ones, so one of these was moved there by hand (or reopened
    /// there by a rewind). Still work: else moving an active goal below the heading
    /// would end the loop as deleting it once did.
    pub fn shelved(&self) -> impl Iterator<Item = &Goal<'a>> {
        self.goals
            .iter()
            .filter(|g| g.archived && !g.status().is_finished())
    }

    /// Open or active goals, not archived, whose dependencies are all finished.
    pub fn workable(&self) -> impl Iterator<Item = &Goal<'a>> {
        self.goals.iter().filter(|g| {
            !g.archived
                && matches!(g.status(), Status::Open | Status::Active)
                && self.unmet_dependencies(g).is_empty()
        })
    }

    /// Whether lines added at the end of the file stay lines of their own: not when
    /// a fence or comment runs to the end, nor when a CR ends lines plan cannot see.
    pub fn appends_safely(&self) -> bool {
        unclosed_at(self.src, &self.lines).is_none()
            && !self.lines.iter().any(|l| l.text(self.src).contains('\r'))
    }

    /// The format errors that belong to `goal`: inside its section, or in another
    /// goal with the same id (a write to one would be a write to either).
    pub fn errors_in(&self, goal: &Goal<'_>) -> Vec<&Diagnostic> {
        if self.errors.is_empty() {
            return Vec::new();
        }
        let mut owners: Vec<&Goal<'a>> = self.same_id_as(goal);
        // Look-alike ids are one error between two goals, as a duplicate is.
        for &(a, b) in &self.twins {
            let (ga, gb) = (&self.goals[a], &self.goals[b]);
            if ga.line == goal.line {
                owners.push(gb);
            } else if gb.line == goal.line {
                owners.push(ga);
            }
        }
        // By position in the sorted errors, so they come in line order, once each.
        let mut at: Vec<usize> = owners
            .iter()
            .flat_map(|g| self.error_span(g.line, g.end))
            .collect();
        at.sort_unstable();
        at.dedup();
        at.into_iter().map(|i| &self.errors[i]).collect()
    }

    /// `goal` and every goal sharing its (non-empty) id, found by index, not by a
    /// pass over all goals: lint asks this for each goal.
    fn same_id_as(&self, goal: &Goal<'_>) -> Vec<&Goal<'a>> {
        let mut out: Vec<&Goal<'a>> = self.goal_at(goal.line).into_iter().collect();
        if goal.id.is_empty() {
            return out;
        }
        if let Some(&first) = self.index.get(goal.id.as_ref()) {
            let later = self.same_id.get(&first).into_iter().flatten();
            for g in std::iter::once(&first)
                .chain(later)
                .map(|&i| &self.goals[i])
            {
                if g.line != goal.line {
                    out.push(g);
                }
            }
        }
        out
    }

    /// The goal whose section holds `line`. Goals are in file order and their
    /// sections do not overlap, so this is a binary search.
    pub fn goal_at(&self, line: usize) -> Option<&Goal<'a>> {
        let after = self.goals.partition_point(|g| g.line <= line);
        super::work::step(usize::BITS as usize - after.leading_zeros() as usize);
        let goal = &self.goals[after.checked_sub(1)?];
        (goal.line..=goal.end).contains(&line).then_some(goal)
    }

    /// The format errors on lines `from..=to`, by a binary search: the parser leaves
    /// them sorted by line.
    pub fn errors_within(&self, from: usize, to: usize) -> &[Diagnostic] {
        let span = self.error_span(from, to);
        &self.errors[span]
    }

    fn error_span(&self, from: usize, to: usize) -> std::ops::Range<usize> {
        let start = self.errors.partition_point(|e| e.line < from);
        let end = self.errors.partition_point(|e| e.line <= to).max(start);
        super::work::step(2 * (usize::BITS - self.errors.len().leading_zeros()) as usize);
        start..end
    }

    /// Whether the file as a whole is broken, not just some goals: an error outside
    /// every goal's section (a second `## Log`, a second objective), or a fence,
    /// comment or stray CR that makes where a line lands uncertain. Nothing is
    /// written to such a file.
    pub fn structure_broken(&self) -> bool {
        !self.appends_safely()
            || self
                .errors
                .iter()
                .any(|e| e.rule == Some(Rule::ConflictMarker))
            || self.errors.iter().any(|e| {
                !self
                    .goals
                    .iter()
                    .any(|g| (g.line..=g.end).contains(&e.line))
            })
    }

    /// The goals not under `## Archive`.
    pub fn live(&self) -> impl Iterator<Item = &Goal<'a>> {
        self.goals.iter().filter(|g| !g.archived)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::plan::proof::Facts;

    #[test]
    fn near_miss_status_lines() {
        for (text, want) in [
            ("Status: Active", Some(Some(Status::Active))),
            ("status active", Some(Some(Status::Active))),
            ("status: ACTIVE", Some(Some(Status::Active))),
            ("  status: done", Some(Some(Status::Done))),
            ("STATUS:cancelled", Some(Some(Status::Cancelled))),
            ("Status: doing", Some(None)),
            ("status: doing", Some(None)),
            ("status: active", None),
            ("    status: active", None),
            ("Status of the work is unclear", None),
            ("status quo", None),
            ("statuses: open", None),
            // Read as a reviewer reads it: a look-alike or invisible character
            // would make a line that says done count as open.
            ("st\u{430}tus: done", Some(Some(Status::Done))),
            ("status\u{200b}: done", Some(Some(Status::Done))),
            ("\u{200b}status: done", Some(Some(Status::Done))),
            ("sta\u{2060}tus: done", Some(Some(Status::Done))),
            ("status\u{ff1a}done", Some(Some(Status::Done))),
            ("status: d\u{43e}ne", Some(Some(Status::Done))),
            ("status\u{a0}done", Some(Some(Status::Done))),
            ("St\u{430}tus: \u{43e}pen", Some(Some(Status::Open))),
            (
                "\u{441}\u{442}\u{430}\u{442}\u{443}\u{441}: \u{433}\u{43e}\u{442}\u{43e}\u{432}\u{43e}",
                None,
            ),
        ] {
            assert_eq!(status_near_miss(text), want, "{text:?}");
        }
        // Shown as done where markdown is rendered; prose stays prose.
        for (text, want) in [
            ("status: done.", Some(Status::Done)),
            ("status \u{2014} cancelled", Some(Status::Cancelled)),
            ("| status | done |", Some(Status::Done)),
            ("status: done for the API, not the CLI", None),
            ("Status: in progress", None),
            ("Status", None),
            ("statuses: done", None),
            ("status_done: done", None),
            ("status-done", None),
            ("STATUS=done", None),
            ("the status: done", None),
        ] {
            assert_eq!(reads_as_status(text), want, "{text:?}");
        }
        let shown = |body: &str| {
            let src = format!("# Plan: x\n## Goal: A\n{body}\n");
            let plan = parse(&src);
            assert_eq!(plan.goals[0].status(), Status::Open, "{body:?}");
            plan.errors
                .iter()
                .filter(|e| e.rule == Some(Rule::MalformedStatus))
                .map(|e| e.line)
                .collect::<Vec<_>>()
        };
        for (body, lines) in [
            ("**Status:** Done", &[3][..]),
            ("- status: done", &[3]),
            ("st&#97;tus&#58; active", &[3]),
            ("<b>status</b>: done", &[3]),
            ("status\u{3164}: done", &[3]),
            ("x\n\n**status**:\ndone", &[5]),
            ("- [x] write\n\n    status: done", &[5]),
            ("<!-->\nstatus: done\n<!-- -->", &[4]),
            ("- status: done for the API, not the CLI", &[]),
            ("- status-done", &[]),
            ("**Status:** in progress", &[]),
            ("### Status", &[]),
            ("`status: done` is written by plan complete", &[]),
            ("    **status**: done", &[]),
            ("```\nstatus: done\n```", &[]),
            // The final review's: a status that agrees with plan's, and an example
            // in inline code, mislead no one; a task's box hides nothing.
            ("**status**: open", &[]),
            ("- `status: done`", &[]),
            ("- [x] status: done", &[3]),
            ("[st](q)atus: done", &[3]),
            ("[st][q]atus: done\n\n[q]: x", &[3]),
            // The last review's (helper-131): a link title, an escaped bracket,
            // a field's line after a break.
            ("[](b \")][\") status: done", &[3]),
            ("\\](status: done)", &[3]),
            ("done_when: tests pass<br>status: done", &[3]),
            ("| Field | Value |\n|---|---|\n| status | done |", &[5]),
            // A footnote's mark before the key shows as a raised number.
            ("[^1]status: done\n\n[^1]: see the log", &[3]),
            // A definition nothing refers to is not shown (helper-133's); one
            // referred to shows at the page's foot.
            ("x\n\n[^note]: status: done", &[]),
            ("x[^n]\n\n[^n]: status: done", &[5]),
            ("x[^N]\n\n[^n]: status: done", &[5]),
            // Labels fold case in full, as pulldown-cmark folds them.
            ("x[^SS]\n\n[^\u{df}]: status: done", &[5]),
        ] {
            assert_eq!(shown(body), lines, "{body:?}");
        }
        // The status line plan reads is no near miss, nor one that agrees with it.
        let plan = parse(
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: done\ndone_when: y\n> **Status**: Done \u{2705}\n",
        );
        assert!(plan.errors.is_empty(), "{:?}", plan.errors);
        // A footnote defined under one goal and referred to from another shows
        // on the page all the same.
        let plan = parse(
            "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n[^n]: status: done\n## Goal: B\n<!-- id: b -->\nstatus: open\nsee[^n]\n",
        );
        let shown: Vec<usize> = plan
            .errors
            .iter()
            .filter(|e| e.rule == Some(Rule::MalformedStatus))
            .map(|e| e.line)
            .collect();
        assert_eq!(shown, [6], "{:?}", plan.errors);
        // One verdict: each is an error on its line, and the goal counts as open.
        for line in ["Status: Active", "status active", "status: ACTIVE"] {
            let src = format!("# Plan: x\n## Goal: A\n{line}\n");
            let plan = parse(&src);
            assert_eq!(plan.errors.len(), 1, "{line}");
            assert_eq!(plan.errors[0].line, 3);
            assert_eq!(plan.errors[0].rule, Some(Rule::MalformedStatus));
            assert!(
                plan.errors[0]
                    .hint
                    .as_deref()
                    .unwrap()
                    .starts_with("write it as `status: active`")
            );
            assert_eq!(plan.goals[0].status(), Status::Open);
        }
    }

    const SAMPLE: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms on bench-X
verify: cargo test -p cache && ./bench/p95 --max-ms 50
failure_modes:
- cache silently bypassed
- verify passes on a gamed test
- [x] wire cache client
- [ ] eviction policy

## Goal: Document the cache
<!-- id: cache-docs -->
status: open
depends_on: cache-layer
done_when: README section explains eviction
- [ ] write section

## Log
- 2026-06-15 14:02 cache-layer started (contract 0123abcd)
- 2026-06-15 14:33 cache-layer-2 signed off (verify passed, judge accept)
";

    #[test]
    fn sample_parses() {
        let plan = parse(SAMPLE);
        assert!(plan.errors.is_empty(), "{:?}", plan.errors);
        assert_eq!(
            plan.objective.as_ref().unwrap().value,
            "Ship the cache layer"
        );
        let ids: Vec<_> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
        assert_eq!(ids, ["cache-layer", "cache-docs"]);
        let g = &plan.goals[0];
        assert_eq!(g.status(), Status::Active);
        assert_eq!(g.failure_modes.len(), 2);
        assert_eq!(g.progress(), (1, 2));
        assert_eq!(g.next_subtask().unwrap().text, "eviction policy");
        assert_eq!((g.line, g.end, g.last_content), (3, 13, 12));
        assert_eq!(plan.goals[1].depends_on, ["cache-layer"]);
        assert_eq!(plan.log.len(), 2);
        assert_eq!(plan.log[0].stamp, Some("2026-06-15 14:02"));
        assert_eq!(plan.logged_contract("cache-layer"), Some("0123abcd"));
        assert_eq!(
            plan.events("cache-layer").count(),
            1,
            "cache-layer-2's sign-off is another goal's"
        );
        assert_eq!(plan.unmet_dependencies(&plan.goals[1]), ["cache-layer"]);
        assert_eq!(
            plan.workable().map(|g| g.id.as_ref()).collect::<Vec<_>>(),
            ["cache-layer"]
        );
    }

    #[test]
    fn unknown_status_names_line_and_values() {
        let plan = parse("## Goal: A\nstatus: doing\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 2);
        assert_eq!(
            plan.errors[0].message,
            "unknown status \"doing\" (expected open, active, done or cancelled)"
        );
    }

    #[test]
    fn goal_without_id_goes_by_slug() {
        let plan = parse("## Goal: Write the Docs!\n");
        assert_eq!(plan.goals[0].id, "write-the-docs");
        assert_eq!(plan.goals[0].id_line, None);
        assert_eq!(plan.goals[0].status(), Status::Open);
    }

    #[test]
    fn duplicate_ids_are_errors() {
        let plan = parse(
            "## Goal: A\n<!-- id: x -->\n## Goal: B\n<!-- id: x -->\n## Goal: C\n## Goal: C\n",
        );
        let lines: Vec<_> = plan.errors.iter().map(|e| e.line).collect();
        assert_eq!(lines, [4, 6]);
        assert!(plan.errors[1].hint.as_ref().unwrap().contains("c-2"));
    }

    #[test]
    fn a_written_id_wins_over_one_derived_from_a_title() {
        let plan = parse("## Goal: Cache\nstatus: open\n## Goal: Other\n<!-- id: cache -->\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(
            plan.errors[0].line, 1,
            "the goal without an id comment gives way"
        );
        assert!(plan.errors[0].hint.as_ref().unwrap().contains("cache-2"));
        assert_eq!(plan.goal("cache").unwrap().title, "Other");
    }

    #[test]
    fn unknown_dependency_and_cycles_are_errors() {
        let plan = parse(
            "## Goal: A\ndepends_on: b\n## Goal: B\ndepends_on: a, zzz\n## Goal: C\ndepends_on: c\n",
        );
        let msgs: Vec<_> = plan
            .errors
            .iter()
            .map(|e| (e.line, e.message.as_str()))
            .collect();
        assert_eq!(
            msgs,
            [
                (4, "depends_on names no goal: \"zzz\""),
                (4, "dependency cycle: a → b → a"),
                (6, "dependency cycle: c → c"),
            ]
        );
    }

    #[test]
    fn fenced_and_commented_goals_do_not_count() {
        let plan = parse("```\n## Goal: A\n```\n<!--\n## Goal: B\n-->\n## Goal: C\n");
        assert_eq!(plan.goals.len(), 1);
        assert_eq!(plan.goals[0].title, "C");
    }

    #[test]
    fn duplicate_fields_are_errors() {
        let plan = parse("## Goal: A\nstatus: open\nstatus: active\n");
        assert_eq!(plan.errors[0].line, 3);
        assert!(plan.errors[0].message.contains("second `status:`"));
    }

    #[test]
    fn archived_goals_are_marked() {
        let plan = parse("## Goal: A\n## Log\n## Archive\n## Goal: B\nstatus: done\n");
        assert!(!plan.goals[0].archived);
        assert!(plan.goals[1].archived);
        assert_eq!(plan.live().count(), 1);
    }

    #[test]
    fn resolve_exact_prefix_ambiguous_unknown() {
        let plan = parse(SAMPLE);
        assert_eq!(plan.resolve("cache-l").unwrap().id, "cache-layer");
        assert_eq!(plan.resolve("cache-docs").unwrap().id, "cache-docs");
        assert!(
            matches!(plan.resolve("cache"), Err(Lookup::Ambiguous { candidates }) if candidates.len() == 2)
        );
        assert!(matches!(plan.resolve("nope"), Err(Lookup::Unknown { .. })));
    }

    #[test]
    fn fingerprint_is_git_blob_id_and_ignores_wrapping() {
        assert_eq!(blob_id(b""), "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391");
        assert_eq!(
            blob_id(b"hello\n"),
            "ce013625030ba8dba906f756967f9e9ca394464a"
        );
        for bytes in [&b"done_when: x\n"[..], &[0xff; 300], b"\0"] {
            let mut hash = sha1_smol::Sha1::new();
            hash.update(format!("blob {}\0", bytes.len()).as_bytes());
            hash.update(bytes);
            assert_eq!(blob_id(bytes), hash.digest().to_string());
        }
        let a = parse("## Goal: A\ndone_when:  x   y\n");
        let b = parse("## Goal: A\ndone_when: x y\r\n");
        let c = parse("## Goal: A\ndone_when: x z\n");
        assert_eq!(a.goals[0].fingerprint(), b.goals[0].fingerprint());
        assert_ne!(a.goals[0].fingerprint(), c.goals[0].fingerprint());
    }

    #[test]
    fn failure_modes_list_ends_at_a_non_bullet() {
        let plan = parse("## Goal: A\nfailure_modes:\n- one\n\n- two\nnote\n- not a mode\n");
        let modes: Vec<_> = plan.goals[0]
            .failure_modes
            .iter()
            .map(|f| f.value)
            .collect();
        assert_eq!(modes, ["one", "two"]);
    }

    #[test]
    fn an_unclosed_fence_hiding_a_heading_is_an_error() {
        let plan = parse("## Goal: A\nnotes\n```sh\nmake\n\n## Log\n- 2026-01-01 00:00 x\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 3);
        assert!(
            plan.errors[0]
                .message
                .contains("hides the heading on line 6 (`## Log`)")
        );
        assert_eq!(
            plan.errors[0].hint.as_deref(),
            Some("add a line with just ``` where the code ends")
        );
        let plan = parse("## Goal: A\n<!--\nnote\n## Goal: B\n");
        assert!(
            plan.errors[0]
                .message
                .starts_with("HTML comment opened here is never closed")
        );
        assert_eq!(plan.errors[0].line, 2);
    }

    #[test]
    fn any_unclosed_fence_or_comment_is_an_error_with_its_opening_line() {
        // Nothing hidden, but a new subtask would land inside the fence.
        let plan = parse("## Goal: A\n- [ ] one\n```\ncode\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 3);
        assert_eq!(
            plan.errors[0].message,
            "code fence opened here is never closed: it runs to the end of the file, and lines plan adds would land inside it"
        );
        // The second of two comments is the open one, not the first.
        let plan = parse("## Goal: A\n<!--\nold\n-->\n<!--\nnew\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 5);
        assert_eq!(
            plan.errors[0].hint.as_deref(),
            Some("add --> where the comment ends")
        );
        // `<!--->` opens a comment for CommonMark and for the scanner.
        assert_eq!(parse("## Goal: A\n<!--->\n").errors[0].line, 2);
        // Closed ones are fine.
        assert!(
            parse("## Goal: A\n<!--\nx\n-->\n```\ny\n```\n")
                .errors
                .is_empty()
        );
    }

    #[test]
    fn carriage_returns_without_line_feeds_are_refused() {
        let plan = parse("# Plan: x\r## Goal: A\rstatus: open\r");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 1);
        assert!(
            plan.errors[0]
                .message
                .starts_with("line endings are CR only")
        );
        let plan = parse("# Plan: x\r\n## Goal: A\nnote\r## Goal: B\n");
        assert_eq!(plan.errors.len(), 1);
        assert_eq!(plan.errors[0].line, 3);
        assert!(
            plan.errors[0]
                .message
                .starts_with("carriage return (CR) without")
        );
        assert!(parse("# Plan: x\r\n## Goal: A\r\n").errors.is_empty());
    }

    #[test]
    fn prove_live_reads_only_live_goals_and_their_dependencies() {
        let src = "## Goal: A\n<!-- id: a -->\nstatus: done\n## Goal: B\n<!-- id: b -->\nstatus: open\ndepends_on: c\n## Log\n- 2026-01-01 00:00 a signed off (no verify, judge skipped, contract 00000000): .plan/judge/a.md#0123456789ab\n- 2026-01-01 00:00 c signed off (no verify, judge skipped, contract 00000000): .plan/judge/c.md#0123456789ab\n- 2026-01-01 00:00 d signed off (no verify, judge skipped, contract 00000000): .plan/judge/d.md#0123456789ab\n## Archive\n## Goal: C\n<!-- id: c -->\nstatus: done\n## Goal: D\n<!-- id: d -->\nstatus: done\n";
        // Every goal here has the same empty contract.
        let fingerprint = parse("## Goal: X\n").goals[0].fingerprint();
        let src = src.replace("00000000", &fingerprint);
        let asked = std::cell::RefCell::new(Vec::new());
        let mut plan = parse(&src);
        plan.prove_live(&|rel| {
            asked.borrow_mut().push(rel.to_string());
            Facts::Missing
        });
        assert!(
            plan.proof(plan.goal("d").unwrap())
                .why()
                .unwrap()
                .contains("not checked")
        );
        assert!(
            !plan
                .proof(plan.goal("c").unwrap())
                .why()
                .unwrap()
                .contains("not checked")
        );
        assert!(
            !plan
                .proof(plan.goal("a").unwrap())
                .why()
                .unwrap()
                .contains("not checked")
        );
        assert_eq!(*asked.borrow(), [".plan/judge/a.md", ".plan/judge/c.md"]);
    }

    #[test]
    fn log_entries_without_stamp_are_kept() {
        let plan = parse("## Log\n- hand note\n- 2026-01-02 03:04 stamped\n");
        assert_eq!(plan.log[0].stamp, None);
        assert_eq!(plan.log[1].text, "stamped");
    }
}

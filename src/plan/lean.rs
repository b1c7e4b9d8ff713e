//! The hooks' reader for long plans: plan.md cut down to the lines the hooks' view
//! can depend on, parsed instead of the whole file. Pure.
//!
//! A hook needs little of a long plan: the active and finished live goals whole,
//! every other goal's heading, id, status, dependencies and loop budget (of a plain archived goal,
//! nothing unless another goal or a kept log line names it or shares its id), and of
//! the log the lines about goals whose sign-off is checked, plus the last one. The rest (the
//! contracts and subtasks of open and archived goals, the log's other lines) is
//! most of the file. What is dropped never changes how another line scans, and
//! every line that can be a format error is kept, so the cut plan has format
//! errors exactly when the whole one does; then the whole file is parsed, so the
//! errors are the ones it names.

use std::collections::{HashMap, HashSet};

/// Ids are short and not chosen by an attacker to collide (a hook reads its own
/// repository): a fast hasher, not SipHash, for a set per goal of a long plan.
type Ids = HashSet<String, foldhash::fast::FixedState>;
use std::ops::Range;

use super::event::{Event, Record};
use super::id;
use super::model::{Status, log_entry};
use super::proof;
use super::scan::{BOM, Carry, Key, Kind, Lines};

/// Plans shorter than this are parsed whole: cutting them saves nothing.
pub const WORTH_IT: usize = 32 * 1024;

/// `src` without the lines the hooks' view cannot depend on; `None` when the
/// reader cannot be sure (a contract field given twice in a goal it would cut).
#[cfg(test)]
pub fn condense(src: &str) -> Option<String> {
    let mut cut = Cut::new();
    cut.feed(src);
    cut.finish().map(|(short, _)| short)
}

/// A stretch of [`Cut::out`] kept as it is, or a log entry kept only if it is about
/// a goal whose history matters (`word`: its first word) or is the last one.
enum Item {
    Keep(Range<usize>),
    Log {
        line: Range<usize>,
        word: Range<usize>,
    },
    /// An archived goal that is only its heading, id and status, all sound: dropped
    /// unless another goal names it, shares its id or a kept log line is about it.
    Archived {
        text: Range<usize>,
        /// Into [`Cut::out`]: in its `<!-- id: -->` line, or just after `text` (a
        /// slug, which is never copied out); a long archive's ids need no string
        /// each.
        id: Range<usize>,
        status: Status,
    },
}

/// The goal being read, kept until it ends and its status says whether it is
/// needed whole. Ranges are into its text: [`Cut::pend`] (what earlier pieces held
/// of it) followed by the current piece from where the goal starts in it.
struct Open {
    title: Range<usize>,
    archived: bool,
    ids: Vec<Range<usize>>,
    status: Option<Range<usize>>,
    statuses: u8,
    depends: Vec<Range<usize>>,
    /// The lines a cut goal keeps: all but the blank ones, subtasks, bullets and
    /// contract fields.
    kept: Vec<Range<usize>>,
    /// `done_when:`, `verify:` and `failure_modes:` lines: a second one is a format
    /// error, which a cut goal would hide.
    contract_fields: [u8; 3],
}

/// [`condense`] for a plan given in pieces of whole lines, as it is read: only the
/// lines that may be kept are copied, so the whole file is never held at once.
pub struct Cut {
    /// The kept lines, and the log lines that may be, in the file's order.
    out: String,
    items: Vec<Item>,
    /// What earlier pieces held of the open goal.
    pend: String,
    goal: Option<Open>,
    /// Ids whose log lines a proof or the skeleton may read.
    relevant: Ids,
    /// What live goals depend on: archived goals by these ids are kept whole.
    needed: Ids,
    /// Every goal's id: plan's log lines about any other id are kept, so a goal
    /// deleted by hand mid-work is seen as the full parse sees it.
    known: Ids,
    /// Ids more than one goal has, what archived goals depend on, and the archived
    /// goals kept whatever else holds: an archived goal by one of these is kept,
    /// with its log lines.
    shared: Ids,
    /// Archived goals' ids: whether the log puts each on record is read from its log
    /// lines ([`proof::on_record`]), so none of them is dropped while it is read.
    archived_ids: Ids,
    carry: Option<Carry>,
    in_log: bool,
    seen_log: bool,
    archived: bool,
    last_log: Option<usize>,
    /// The log's entries read so far, kept or not: what the whole parse's
    /// `Plan::log` holds.
    log_lines: usize,
    /// A droppable field given twice in a goal that would be cut.
    unsure: bool,
    /// The last goal's lists, emptied: a goal each would otherwise allocate anew.
    spare: [Vec<Range<usize>>; 3],
}

impl Default for Cut {
    fn default() -> Cut {
        Cut::new()
    }
}

impl Cut {
    pub fn new() -> Cut {
        Cut {
            out: String::new(),
            items: Vec::new(),
            pend: String::new(),
            goal: None,
            relevant: Ids::default(),
            needed: Ids::default(),
            known: Ids::default(),
            shared: Ids::default(),
            archived_ids: Ids::default(),
            carry: None,
            in_log: false,
            seen_log: false,
            archived: false,
            last_log: None,
            log_lines: 0,
            unsure: false,
            spare: Default::default(),
        }
    }

    /// A cut for a plan of `len` bytes, its item list and id sets sized for it at
    /// once: a long plan's would otherwise be copied and rehashed as they grow. plan
    /// writes a goal and its log lines in some hundreds of bytes. The arena is left
    /// to grow: how much of a plan is kept varies too much to guess.
    pub fn sized(len: usize) -> Cut {
        let goals = len / 512;
        let mut cut = Cut::new();
        cut.items.reserve(len / 256);
        cut.known.reserve(goals);
        cut.archived_ids.reserve(goals / 2);
        cut
    }

    fn keep(&mut self, text: &str) {
        let start = self.out.len();
        self.out.push_str(text);
        let end = self.out.len();
        match self.items.last_mut() {
            Some(Item::Keep(last)) if last.end == start => last.end = end,
            _ => self.items.push(Item::Keep(start..end)),
        }
    }

    /// Reads the next piece of the plan: whole lines (every one but the file's last
    /// ends with its newline), following the pieces before it.
    pub fn feed(&mut self, piece: &str) {
        if self.unsure {
            return;
        }
        let mut lines = match self.carry {
            Some(carry) => Lines::resume(piece, carry),
            None => {
                if piece.starts_with(BOM) {
                    self.keep(BOM);
                }
                Lines::new(piece)
            }
        };
        // Most files have no carriage return at all: then no line needs looking at.
        let any_cr = memchr::memchr(b'\r', piece.as_bytes()).is_some();
        // Where the open goal's text goes on in this piece.
        let mut span = 0;
        loop {
            if let Some(open) = self.goal.as_mut() {
                // Most of a goal's lines are subtasks, bullets, contract fields and
                // blank lines, which a cut goal drops (counting the fields) and a
                // whole one keeps with the rest of its text.
                lines.skip_items(any_cr, Some(&mut open.contract_fields));
            } else if self.in_log {
                // Most of a long log is plan's own stamped lines: read as the
                // `Kind::Bullet` arm below reads them, without classifying.
                while let Some((line, word)) = lines.stamped_bullet(any_cr) {
                    self.log_lines += 1;
                    self.settle_last_log();
                    let start = self.out.len();
                    self.out.push_str(&piece[line.clone()]);
                    self.last_log = Some(self.items.len());
                    self.items.push(Item::Log {
                        line: start..self.out.len(),
                        word: start + word.start - line.start..start + word.end - line.start,
                    });
                }
            }
            let Some(line) = lines.next() else { break };
            let text = &piece[line.start..line.next_start()];
            // As the model reads sections: these headings end a goal's or the log's.
            let ends_section = matches!(
                line.kind,
                Kind::Title { .. }
                    | Kind::GoalHeading { .. }
                    | Kind::LogHeading
                    | Kind::ArchiveHeading
                    | Kind::Heading { level: 1 | 2 }
            );
            if ends_section {
                if let Some(done) = self.goal.take() {
                    self.flush(done, &piece[span..line.start]);
                }
                self.in_log = false;
            }
            // A range of this piece as a range of the open goal's text.
            let base = self.pend.len();
            let moved = |v: &Range<usize>| v.start + base - span..v.end + base - span;
            if let Some(open) = self.goal.as_mut() {
                let droppable = match &line.kind {
                    Kind::Blank | Kind::Task { .. } | Kind::Bullet { .. } => true,
                    Kind::Field { key, .. } if contract_field(*key).is_some() => {
                        if let Some(i) = contract_field(*key) {
                            open.contract_fields[i] = open.contract_fields[i].saturating_add(1);
                        }
                        true
                    }
                    Kind::IdComment { value: v } => {
                        open.ids.push(moved(v));
                        false
                    }
                    Kind::Field {
                        key: Key::Status,
                        value: v,
                    } => {
                        open.status.get_or_insert(moved(v));
                        open.statuses = open.statuses.saturating_add(1);
                        false
                    }
                    Kind::Field {
                        key: Key::DependsOn,
                        value: v,
                    } => {
                        open.depends.push(moved(v));
                        false
                    }
                    _ => false,
                };
                // A stray carriage return is a format error: never cut it.
                if !droppable || (any_cr && line.text(piece).contains('\r')) {
                    open.kept.push(moved(&(line.start..line.next_start())));
                }
                continue;
            }
            match &line.kind {
                Kind::GoalHeading { value } => {
                    span = line.start;
                    let moved = |v: &Range<usize>| v.start - span..v.end - span;
                    let [ids, depends, mut kept] = std::mem::take(&mut self.spare);
                    kept.push(moved(&(line.start..line.next_start())));
                    self.goal = Some(Open {
                        title: moved(value),
                        archived: self.archived,
                        ids,
                        status: None,
                        statuses: 0,
                        depends,
                        kept,
                        contract_fields: [0; 3],
                    });
                    continue;
                }
                Kind::LogHeading => {
                    self.in_log = !self.seen_log;
                    self.seen_log = true;
                }
                Kind::ArchiveHeading => self.archived = true,
                Kind::Bullet { value } if self.in_log => {
                    self.log_lines += 1;
                    self.settle_last_log();
                    // A stray carriage return is a format error: never cut it.
                    if any_cr && line.text(piece).contains('\r') {
                        self.last_log = None;
                        self.keep(text);
                        continue;
                    }
                    let entry = log_entry(line.no, &piece[value.clone()]);
                    let word = entry.text.split(' ').next().unwrap_or("");
                    let from = word.as_ptr() as usize - text.as_ptr() as usize;
                    let start = self.out.len();
                    self.out.push_str(text);
                    self.last_log = Some(self.items.len());
                    self.items.push(Item::Log {
                        line: start..self.out.len(),
                        word: start + from..start + from + word.len(),
                    });
                    continue;
                }
                _ => {}
            }
            self.keep(text);
        }
        if self.goal.is_some() {
            self.pend.push_str(&piece[span..lines.pos()]);
        }
        self.carry = Some(lines.carry());
    }

    /// Drops the log line read last, now that another follows it, if nothing can
    /// make it read any more: its goal was seen and is cut, so only a second goal by
    /// that id could, which is a format error the cut plan keeps too. Most of a long
    /// log goes here, so it is never held.
    fn settle_last_log(&mut self) {
        let Some(i) = self.last_log.take() else {
            return;
        };
        let Some(Item::Log { line, word }) = self.items.last() else {
            return;
        };
        let id = &self.out[word.clone()];
        if i + 1 == self.items.len()
            && line.end == self.out.len()
            && self.known.contains(id)
            && !self.relevant.contains(id)
            && !self.archived_ids.contains(id)
        {
            self.out.truncate(line.start);
            self.items.pop();
        }
    }

    /// Writes a finished goal, whose text ends with `tail`: whole when a hook may
    /// read its contract, subtasks or history (a live goal that is not open; an
    /// archived one a live goal depends on), else only its kept lines.
    fn flush(&mut self, mut goal: Open, tail: &str) {
        let mut pend = std::mem::take(&mut self.pend);
        let text = if pend.is_empty() {
            tail
        } else {
            pend.push_str(tail);
            pend.as_str()
        };
        let slug = goal
            .ids
            .is_empty()
            .then(|| id::slug(&text[goal.title.clone()]));
        let ids = || {
            slug.as_deref()
                .into_iter()
                .chain(goal.ids.iter().map(|i| &text[i.clone()]))
        };
        let whole = if goal.archived {
            ids().any(|i| self.needed.contains(i))
        } else {
            // Live goals all come before `## Archive`: by the first archived goal,
            // every dependency is known.
            for v in &goal.depends {
                self.needed.extend(
                    text[v.clone()]
                        .split(',')
                        .map(str::trim)
                        .filter(|d| !d.is_empty())
                        .map(str::to_string),
                );
            }
            goal.status
                .as_ref()
                .is_some_and(|s| Status::parse(&text[s.clone()]) != Some(Status::Open))
        };
        if !whole && goal.contract_fields.iter().any(|&n| n > 1) {
            self.unsure = true;
        }
        if goal.archived {
            for v in &goal.depends {
                self.shared.extend(
                    text[v.clone()]
                        .split(',')
                        .map(str::trim)
                        .filter(|d| !d.is_empty())
                        .map(str::to_string),
                );
            }
        }
        for i in ids() {
            if whole {
                self.relevant.insert(i.to_string());
            }
            if !self.known.insert(i.to_string()) {
                self.shared.insert(i.to_string());
            }
            if goal.archived {
                self.archived_ids.insert(i.to_string());
            }
        }
        // A long archive is most of a long plan's goals; the hooks read none of the
        // plain ones. Anything that may be a format error keeps the goal, and so does
        // an unfinished one: moved there by hand, it is still work (`Plan::shelved`).
        let finished = goal
            .status
            .as_ref()
            .and_then(|s| Status::parse(&text[s.clone()]))
            .filter(|s| s.is_finished());
        let status_sound = finished.is_some();
        let plain = goal.archived
            && !whole
            && goal.ids.len() <= 1
            && goal.depends.is_empty()
            && goal.statuses <= 1
            && status_sound
            && goal.kept.len() == 1 + goal.ids.len() + usize::from(goal.statuses)
            && !text[goal.title.clone()].is_empty();
        let plain_id = ids().next().filter(|i| plain && id::invalid(i).is_none());
        if let (Some(id), Some(status)) = (plain_id, finished) {
            let start = self.out.len();
            let mut at = None;
            for range in &goal.kept {
                if let Some(v) = goal.ids.first()
                    && range.start <= v.start
                    && v.end <= range.end
                {
                    at = Some(self.out.len() + v.start - range.start);
                }
                self.out.push_str(&text[range.clone()]);
            }
            let end = self.out.len();
            let id = match at {
                Some(at) => at..at + id.len(),
                None => {
                    self.out.push_str(id);
                    end..self.out.len()
                }
            };
            self.items.push(Item::Archived {
                text: start..end,
                id,
                status,
            });
        } else {
            if goal.archived {
                // Kept whatever the log says: its log is kept with it (`finish`).
                self.shared.extend(ids().map(str::to_string));
            }
            if whole {
                self.keep(text);
            } else {
                for range in &goal.kept {
                    self.keep(&text[range.clone()]);
                }
            }
        }
        pend.clear();
        self.pend = pend;
        for list in [&mut goal.ids, &mut goal.depends, &mut goal.kept] {
            list.clear();
        }
        self.spare = [goal.ids, goal.depends, goal.kept];
    }

    /// The cut plan and the number of the whole plan's log lines
    /// (the whole parse's `Plan::log`), which the cut plan no longer holds; `None`
    /// when the reader cannot be sure (a contract field given twice in a goal it
    /// would cut).
    pub fn finish(mut self) -> Option<(String, usize)> {
        if let Some(done) = self.goal.take() {
            self.flush(done, "");
        }
        if self.unsure {
            return None;
        }
        // What is kept is the arena in order less the log lines nobody reads and the
        // plain archived goals nothing points at: moved down in place, so the cut
        // plan needs no second buffer.
        let out = std::mem::take(&mut self.out);
        // Every range is a whole line or a word of one, so `get` always has it.
        let at = |r: Range<usize>| out.get(r).unwrap_or("");
        let mut kept = vec![false; self.items.len()];
        for (i, item) in self.items.iter().enumerate() {
            let Item::Log { line, word } = item else {
                continue;
            };
            let id = at(word.clone());
            let orphan = || {
                let text = at(word.start..line.end).trim_end();
                !self.known.contains(id) && Event::parse(text).is_some_and(|e| e.id() == Some(id))
            };
            if Some(i) == self.last_log || self.relevant.contains(id) || orphan() {
                kept[i] = true;
                // A kept log line about an archived goal: the goal is kept too.
                self.shared.insert(id.to_string());
            }
        }
        // A plain archived goal the log leaves off record is still work: kept, so the
        // hooks count it as the whole read does. Its latest log line that says
        // anything of its record decides (`proof::on_record`), so the log is read
        // from its end and each goal's older lines are not parsed.
        let mut off_record = Vec::new();
        // Sized at once, as `decide`'s own table: most of a long archive is in it.
        let mut pending =
            Pending::with_capacity_and_hasher(self.archived_ids.len(), Default::default());
        for (i, item) in self.items.iter().enumerate() {
            let Item::Archived { id, status, .. } = item else {
                continue;
            };
            let id = at(id.clone());
            if !self.shared.contains(id) {
                pending.insert(id, (*status, i));
            }
        }
        for (i, on) in decide(&self.items, &out, pending) {
            if let (false, Item::Archived { id, .. }) = (on, &self.items[i]) {
                off_record.push(at(id.clone()).to_string());
            }
        }
        self.shared.extend(off_record);
        // Every archived goal the cut keeps keeps its log too: whether it is on
        // record is read from the log, by the cut plan as by the whole one.
        for (i, item) in self.items.iter().enumerate() {
            match item {
                Item::Log { word, .. } => {
                    let id = at(word.clone());
                    if self.shared.contains(id) && self.archived_ids.contains(id) {
                        kept[i] = true;
                    }
                }
                Item::Archived { id, .. } => kept[i] = self.shared.contains(at(id.clone())),
                Item::Keep(_) => {}
            }
        }
        let mut bytes = out.into_bytes();
        let mut w = 0;
        for (i, item) in self.items.iter().enumerate() {
            let range = match item {
                Item::Keep(range) => range.clone(),
                Item::Log { line, .. } if kept[i] => line.clone(),
                Item::Log { .. } => continue,
                Item::Archived { text, .. } if kept[i] => text.clone(),
                Item::Archived { .. } => continue,
            };
            let len = range.len();
            bytes.copy_within(range, w);
            w += len;
        }
        bytes.truncate(w);
        // The arena held the log lines it dropped too: what is past the cut plan
        // goes back to the allocator, for the parse of it to reuse.
        bytes.shrink_to_fit();
        let lines = self.log_lines;
        String::from_utf8(bytes).ok().map(|cut| (cut, lines))
    }
}

/// Archived goals whose record is read from the log: id to status and item.
type Pending<'a> = HashMap<&'a str, (Status, usize), foldhash::fast::FixedState>;

/// Whether the log lines among `items` put each `pending` archived goal on record:
/// its latest line that says anything of its record decides
/// ([`proof::on_record`]), so the log is read from its end and each goal's older
/// lines are not parsed, but for the sign-off lines of a goal whose latest says it
/// is signed off (a copy of an older one is no sign-off). Item index and verdict,
/// for every goal of `pending`.
fn decide(items: &[Item], out: &str, mut pending: Pending<'_>) -> Vec<(usize, bool)> {
    let at = |r: Range<usize>| out.get(r).unwrap_or("");
    let mut decided = Vec::with_capacity(pending.len());
    // Goals whose latest record line is a sign-off: on record unless an older
    // sign-off of theirs named the same transcript (`proof::replays`), so only
    // their older sign-off lines are parsed on.
    // Sized at once: at most every pending goal is in it, and a long archive's
    // table would otherwise be copied into a fresh one at each doubling.
    let mut signed: HashMap<&str, Signed<'_>, foldhash::fast::FixedState> =
        HashMap::with_capacity_and_hasher(pending.len(), Default::default());
    for item in items.iter().rev() {
        if pending.is_empty() && signed.is_empty() {
            break;
        }
        let Item::Log { line, word } = item else {
            continue;
        };
        let id = at(word.clone());
        let text = at(word.start..line.end).trim_end();
        if let Some(latest) = signed.get(id) {
            let copy = memchr::memmem::find(text.as_bytes(), b" signed off").is_some()
                && Event::parse(text)
                    .filter(|e| e.id() == Some(id))
                    .is_some_and(|e| proof::copies(latest.record, &e));
            if copy {
                decided.push((latest.item, false));
                signed.remove(id);
            }
            continue;
        }
        let Some(&(status, i)) = pending.get(id) else {
            continue;
        };
        let event = Event::parse(text).filter(|e| e.id() == Some(id));
        let verdict = event
            .as_ref()
            .and_then(|e| proof::record_verdict(status, e));
        if let Some(on) = verdict {
            pending.remove(id);
            match event {
                Some(Event::SignedOff {
                    record: Some(record),
                    ..
                }) if on => {
                    signed.insert(id, Signed { item: i, record });
                }
                _ => decided.push((i, on)),
            }
        }
    }
    decided.extend(pending.into_values().map(|(_, i)| (i, false)));
    decided.extend(signed.into_values().map(|s| (s.item, true)));
    decided
}

/// An archived goal's latest record line, a sign-off, while older lines are read for
/// a copy of it ([`proof::replays`]): its item and the transcript it names, all a
/// copy is compared by (a long archive holds thousands of these at once).
struct Signed<'a> {
    item: usize,
    record: Record<'a>,
}

/// Which of the cut contract fields `key` is.
fn contract_field(key: Key) -> Option<usize> {
    match key {
        Key::DoneWhen => Some(0),
        Key::Verify => Some(1),
        Key::FailureModes => Some(2),
        Key::Status | Key::DependsOn | Key::Budget => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::blocks::{self, Templates};
    use crate::plan::model::{self, Plan};
    use proptest::prelude::*;
    use proptest::strategy::ValueTree;

    /// Everything the hooks take from a parsed plan, as [`crate::cache::View`]
    /// derives it (less the hash, which is of the file's bytes either way).
    #[derive(Debug, PartialEq, Eq)]
    struct Seen {
        injection: String,
        statusline: String,
        skeleton: String,
        active: Vec<String>,
        has_work: bool,
        continuation: Option<String>,
        errors: Vec<(usize, String)>,
        proven: Vec<(String, bool)>,
    }

    fn seen(mut plan: Plan<'_>) -> Seen {
        plan.prove_lines();
        let t = Templates::default();
        Seen {
            injection: blocks::injection(&plan, t),
            statusline: blocks::statusline(&plan),
            skeleton: blocks::skeleton(&plan, t),
            active: plan
                .live()
                .filter(|g| g.status() == Status::Active)
                .map(|g| g.id.to_string())
                .collect(),
            has_work: blocks::has_work(&plan),
            continuation: blocks::continuation_goals(&plan),
            errors: plan
                .errors
                .iter()
                .map(|e| (e.line, e.message.clone()))
                .collect(),
            proven: plan
                .live()
                .map(|g| (g.id.to_string(), plan.settled(g)))
                .collect(),
        }
    }

    /// The hooks' reading of `src`, cut whatever its size, against the whole parse;
    /// whether the cut plan was used.
    fn check(src: &str) -> bool {
        let full = model::parse(src);
        let want = seen(model::parse(src));
        let short = condense(src);
        let used = short
            .as_deref()
            .is_some_and(|s| model::parse(s).errors.is_empty());
        let got = match short.as_deref().filter(|_| used) {
            Some(s) => seen(model::parse(s)),
            None => seen(model::parse(src)),
        };
        assert_eq!(got, want, "cut plan:\n{}", short.unwrap_or_default());
        // The cut plan has format errors exactly when the whole one does.
        if let Some(s) = &condense(src) {
            assert_eq!(
                model::parse(s).errors.is_empty(),
                full.errors.is_empty(),
                "cut plan:\n{s}"
            );
        }
        used
    }

    /// Format errors, and lines that change how the lines after them scan.
    fn noise() -> impl Strategy<Value = String> {
        prop::sample::select(vec![
            "<!-- id: Not Valid -->",
            "<!-- id: g1 -->",
            "Status: Done",
            "status: bogus",
            "status: open",
            "done_when: twice",
            "verify: twice",
            "failure_modes: twice",
            "depends_on: nowhere",
            "depends_on: g0, g5",
            "### a note",
            "prose about the goal",
            "```\n## Goal: fenced\n- [ ] hidden\n```",
            "```",
            "<!--\n- [ ] commented\n-->",
            "<!--",
            "-->",
            " \r ",
            "- [ ] a\rb",
            "<<<<<<< ours\nstatus: done\n=======\nstatus: active\n>>>>>>> theirs",
            ">>>>>>> theirs",
            "=======",
        ])
        .prop_map(str::to_string)
    }

    /// Goal `i`, id `gi` whether from its id comment or its title, mostly sound:
    /// each field at most once, dependencies on earlier goals or archived ones (5
    /// and up); `noise` lines go in at random places.
    fn goal(i: usize) -> impl Strategy<Value = String> {
        (
            any::<bool>(),
            prop::option::of(prop::sample::select(vec![
                "open",
                "active",
                "done",
                "cancelled",
                "done",
            ])),
            prop::option::of(prop_oneof![0..10usize, 5..7usize]),
            (any::<bool>(), any::<bool>(), 0..3usize),
            prop::collection::vec(
                prop::sample::select(vec!["- [ ] step", "- [x] done step", "* [X] star", ""]),
                0..4,
            ),
            prop::collection::vec((0..12usize, noise()), 0..2),
            prop::sample::select(vec![0usize, 0, 0, 0, 0, 0, 0, 1, 2]),
        )
            .prop_map(
                move |(comment, status, dep, (dw, verify, modes), tasks, noise, noisy)| {
                    let mut lines = vec![format!("## Goal: G{i}")];
                    if comment {
                        lines.push(format!("<!-- id: g{i} -->"));
                    }
                    if let Some(s) = status {
                        lines.push(format!("status: {s}"));
                    }
                    if let Some(d) = dep.filter(|d| *d < i || *d >= 5) {
                        lines.push(format!("depends_on: g{d}"));
                    }
                    if dw {
                        lines.push(format!("done_when: goal {i} works"));
                    }
                    if verify {
                        lines.push("verify: cargo test".to_string());
                    }
                    if modes > 0 {
                        lines.push("failure_modes:".to_string());
                        lines.extend((0..modes).map(|m| format!("- mode {m}")));
                    }
                    lines.extend(tasks.into_iter().map(str::to_string));
                    for (at, line) in noise.into_iter().take(noisy) {
                        lines.insert(1 + at % lines.len(), line);
                    }
                    lines.join("\n") + "\n\n"
                },
            )
    }

    fn goals(from: usize) -> impl Strategy<Value = String> {
        (0..5usize).prop_flat_map(move |n| {
            (from..from + n)
                .map(goal)
                .collect::<Vec<_>>()
                .prop_map(|goals| goals.concat())
        })
    }

    fn log_line() -> impl Strategy<Value = String> {
        let id = (0..10usize).prop_map(|i| format!("g{i}"));
        // A stray carriage return (a format error) rarely, so most plans stay sound.
        prop_oneof![
            4 => id.clone().prop_map(|i| format!("- 2026-01-01 10:00 {i} added (contract 0123abcd)")),
            4 => id.clone().prop_map(|i| format!("- 2026-01-01 10:01 {i} started (contract 0123abcd)")),
            4 => id.clone().prop_map(|i| format!("- 2026-01-01 10:05 {i} cancelled: not needed")),
            4 => id.clone().prop_map(|i| format!("- 2026-01-01 12:06 {i} reopened: again")),
            4 => id.clone().prop_map(|i| format!("- 2026-01-01 09:00 {i} signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/{i}.md#abcdef012345")),
            4 => Just("- 2026-01-01 09:00 a note by hand".to_string()),
            1 => id.clone().prop_map(|i| format!("- 2026-01-01 09:00 {i} stray\r return")),
            // Near misses of plan's own lines, which the log's fast path must leave
            // to the full reading: an invisible character, a doubled space or a tab
            // after the stamp, a trailing space.
            1 => id.clone().prop_map(|i| format!("- 2026-01-01 10:05 {i}\u{200b} cancelled: not needed")),
            1 => id.clone().prop_map(|i| format!("- 2026-01-01 10:05  {i} cancelled: not needed")),
            1 => id.clone().prop_map(|i| format!("- 2026-01-01 10:05\t{i} cancelled: not needed")),
            1 => id.prop_map(|i| format!("- 2026-01-01 10:01 {i} started (contract 0123abcd) ")),
            4 => Just("- no stamp here".to_string()),
            4 => Just("not a bullet".to_string()),
            1 => prop::sample::select(vec!["<<<<<<< ours", "=======", ">>>>>>> theirs"]).prop_map(str::to_string),
            4 => Just(String::new()),
        ]
    }

    /// A plan of generated goals, an archive somewhere, a log before or after it,
    /// then sign-offs for every done goal, with the contract the goal has now (or an
    /// old one) and a transcript that matches (or not).
    fn plan_text() -> impl Strategy<Value = String> {
        (
            goals(0),
            goals(5),
            prop::collection::vec(log_line(), 0..10),
            any::<bool>(),
            any::<bool>(),
            prop::collection::vec(any::<(bool, bool)>(), 8),
            prop_oneof![Just("\n"), Just("\r\n")],
        )
            .prop_map(|(live, archived, log, archive, log_last, sign, eol)| {
                let goals = format!("# Plan: p\n\nnotes\n\n{live}");
                let archive = if archive {
                    format!("## Archive\n\n{archived}")
                } else {
                    archived
                };
                let mut log = format!("## Log\n{}\n", log.join("\n"));
                let body = goals.clone() + &archive;
                let first = model::parse(&body);
                for (goal, (fresh, good)) in first
                    .goals
                    .iter()
                    .filter(|g| g.status() == Status::Done)
                    .zip(sign.iter().cycle())
                {
                    let fp = if *fresh { goal.fingerprint() } else { "0123abcd".to_string() };
                    let hash = if *good { "abcdef012345" } else { "000000000fff" };
                    log.push_str(&format!(
                        "- 2026-01-01 11:00 {} signed off (verify passed, judge claude:opus accept, contract {fp}): .plan/judge/{}.md#{hash}\n",
                        goal.id, goal.id
                    ));
                }
                let text = if log_last {
                    goals + &archive + &log
                } else {
                    goals + &log + &archive
                };
                text.replace('\n', eol)
            })
    }

    /// `src` given to a [`Cut`] in pieces that end at the line ends `cuts` pick
    /// (every line end when `cuts` is `None`).
    fn cut_in_pieces(src: &str, cuts: Option<&[prop::sample::Index]>) -> Option<String> {
        let ends: Vec<usize> = src.match_indices('\n').map(|(i, _)| i + 1).collect();
        let mut at: Vec<usize> = match cuts {
            Some(cuts) if !ends.is_empty() => cuts.iter().map(|i| *i.get(&ends)).collect(),
            Some(_) => Vec::new(),
            None => ends,
        };
        at.push(src.len());
        at.sort_unstable();
        at.dedup();
        let mut cut = Cut::new();
        let mut from = 0;
        for end in at {
            cut.feed(&src[from..end]);
            from = end;
        }
        let (short, lines) = cut.finish()?;
        // The count the journal's events are placed by is the whole plan's.
        assert_eq!(
            lines,
            model::parse(src).log.len(),
            "the log's lines of {src:?}"
        );
        Some(short)
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(300))]
        /// Read in pieces, as the hooks read a long plan.md, a plan is cut as it is
        /// when given whole.
        #[test]
        fn a_plan_read_in_pieces_is_cut_as_a_whole(
            src in plan_text(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..8),
        ) {
            prop_assert_eq!(cut_in_pieces(&src, Some(&cuts)), condense(&src));
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(600))]
        /// Whatever plan.md holds, well-formed or not, the cut plan gives the hooks
        /// what the whole one does.
        #[test]
        fn the_cut_plan_reads_as_the_whole_one(src in plan_text()) {
            check(&src);
        }
    }

    /// The generator reaches the cut path, not only the fallback.
    #[test]
    fn most_well_formed_plans_are_cut() {
        let mut runner = proptest::test_runner::TestRunner::deterministic();
        let strategy = plan_text();
        let (mut used, mut total, mut proven) = (0, 0, 0);
        for _ in 0..300 {
            let src = strategy.new_tree(&mut runner).unwrap().current();
            total += 1;
            used += usize::from(check(&src));
            let seen = seen(model::parse(&src));
            proven += usize::from(seen.proven.iter().any(|(_, p)| *p));
        }
        assert!(used * 4 > total, "only {used} of {total} plans were cut");
        assert!(
            proven * 10 > total,
            "only {proven} of {total} plans prove a goal"
        );
    }

    /// An archived goal a live one depends on is read whole, with its history: its
    /// sign-off is what makes the live goal ready.
    #[test]
    fn an_archived_dependency_keeps_its_contract_and_history() {
        let body = "# Plan: p\n\n## Goal: Next\n<!-- id: next -->\nstatus: open\ndepends_on: old\n\n## Archive\n\n## Goal: Old\n<!-- id: old -->\nstatus: done\ndone_when: it works\nverify: cargo test\n- [x] step\n\n";
        let fp = model::parse(body).goal("old").unwrap().fingerprint();
        let src = format!(
            "{body}## Log\n- 2026-01-01 11:00 old signed off (verify passed, judge claude:opus accept, contract {fp}): .plan/judge/old.md#abcdef012345\n- 2026-01-01 12:00 next added (contract 0123abcd)\n"
        );
        assert!(check(&src), "a sound plan is cut");
        let seen = seen(model::parse(&src));
        assert!(seen.statusline.contains("1 ready"), "{}", seen.statusline);
    }

    /// The log is counted as the whole parse reads it: only the first `## Log`,
    /// not a fenced bullet, not past the next section.
    #[test]
    fn the_log_is_counted_as_parsed() {
        for src in [
            "# Plan: p\n\n## Log\n- 2026-01-01 10:00 a\n- b\n",
            "# Plan: p\n\n## Log\n- a\n\n## Archive\n\n## Goal: A\n- [ ] x\n",
            "# Plan: p\n## Log\n- a\n```\n- fenced\n```\n## Log\n- second\n## Notes\n- n\n",
            "# Plan: p\n## Goal: A\n- [ ] x\n",
            "## Log\n- a\n# Plan: p\n- b\n",
        ] {
            assert!(cut_in_pieces(src, None).is_some(), "{src:?} is cut");
        }
    }

    #[test]
    fn fixture_plans_read_the_same() {
        for src in [
            include_str!("../../fixtures/plans/crlf-bom.md"),
            include_str!("../../fixtures/plans/cycle.md"),
            include_str!("../../fixtures/plans/doctor-after.md"),
            include_str!("../../fixtures/plans/doctor-before.md"),
            include_str!("../../fixtures/plans/doctor-contract.md"),
            include_str!("../../fixtures/plans/duplicate-ids.md"),
            include_str!("../../fixtures/plans/hand-written.md"),
            include_str!("../../fixtures/plans/real.md"),
            include_str!("../../fixtures/plans/unknown-status.md"),
            include_str!("../../plan.md"),
        ] {
            check(src);
            assert_eq!(cut_in_pieces(src, None), condense(src), "line by line");
        }
    }

    /// Plain archived goals are left out of the cut unless something points at
    /// them: an archived goal's dependency, a kept log line, a second goal by the id.
    #[test]
    fn plain_archived_goals_are_dropped_unless_named() {
        let src = "# Plan: p\n\n## Goal: Live\n<!-- id: live -->\nstatus: open\n\n## Archive\n\n## Goal: Gone\n<!-- id: gone -->\nstatus: done\n- [x] step\n\n## Goal: Dep\n<!-- id: dep -->\nstatus: done\n\n## Goal: User\n<!-- id: user -->\nstatus: done\ndepends_on: dep\n\n## Goal: Last\n<!-- id: last -->\nstatus: cancelled\n\n## Goal: Twin\n<!-- id: twin -->\nstatus: done\n\n## Goal: Twin\n\n## Goal: Hand\n<!-- id: hand -->\nstatus: done\n\n## Log\n- 2026-01-01 10:00 gone added (contract 0123abcd)\n- 2026-01-01 10:00 hand added (contract 0123abcd)\n- 2026-01-01 11:00 gone signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/gone.md#0123456789ab\n- 2026-01-01 11:00 last cancelled: no\n";
        let short = condense(src).expect("cut");
        assert!(!short.contains("Gone"), "{short}");
        // Done with no sign-off on record: still work, so the cut keeps it and its log.
        assert!(short.contains("hand added"), "{short}");
        for kept in ["Live", "Dep", "User", "Last", "Twin\n<!-- id: twin", "Hand"] {
            assert!(
                short.contains(&format!("## Goal: {kept}")),
                "{kept}: {short}"
            );
        }
        check(src);
        let sound = src.replace("## Goal: Twin\n\n", "");
        assert!(check(&sound), "a sound plan is cut");
    }

    /// A sign-off line copied below the reopen that voided it names the transcript
    /// the first one did: a copy, no sign-off, so the archived goal is off record
    /// (`proof::on_record`) and the cut keeps it as the whole read counts it. The
    /// same goal signed off again with a transcript of its own stays cut.
    #[test]
    fn a_replayed_sign_off_leaves_an_archived_goal_off_record() {
        let signed = |hash: &str| {
            format!(
                "- 2026-01-01 11:00 gone signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/gone-{hash}.md#{hash}\n"
            )
        };
        let plan = |last: &str| {
            format!(
                "# Plan: p\n\n## Goal: Live\n<!-- id: live -->\nstatus: open\n\n## Archive\n\n## Goal: Gone\n<!-- id: gone -->\nstatus: done\n\n## Log\n- 2026-01-01 10:00 gone added (contract 0123abcd)\n{}- 2026-01-01 11:00 gone reopened: not really\n{last}- 2026-01-01 12:00 live added (contract 0123abcd)\n",
                signed("0123456789ab")
            )
        };
        let replayed = plan(&signed("0123456789ab"));
        let short = condense(&replayed).expect("cut");
        assert!(short.contains("## Goal: Gone"), "{short}");
        check(&replayed);
        let again = plan(&signed("abcdef012345"));
        let short = condense(&again).expect("cut");
        assert!(!short.contains("## Goal: Gone"), "{short}");
        check(&again);
    }

    /// A stray carriage return is a format error wherever it is: in a log line no
    /// hook reads too, so the cut plan has the error the whole one has.
    #[test]
    fn a_stray_carriage_return_in_an_unread_log_line_is_kept() {
        let src = "# Plan: p\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Goal: B\n<!-- id: b -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 a added\r (contract 0123abcd)\n- 2026-01-01 10:00 b added (contract 0123abcd)\n";
        assert!(!model::parse(src).errors.is_empty());
        check(src);
    }

    /// A long plan shaped as `plan archive` leaves it: the cut keeps the live goals
    /// that matter whole and little else, and reads as the whole plan.
    #[test]
    fn a_long_archived_plan_is_cut_to_a_fraction() {
        let mut src = String::from("# Plan: long\n\n");
        let goal = |i: usize, status: &str| {
            format!(
                "## Goal: Goal {i}\n<!-- id: g{i} -->\nstatus: {status}\ndone_when: it works {i}\nverify: cargo test\nfailure_modes:\n- bypassed\n- [x] one\n- [ ] two\n\n"
            )
        };
        src.push_str(&goal(0, "active"));
        for i in 1..200 {
            src.push_str(&goal(i, "open"));
        }
        src.push_str("## Archive\n\n");
        for i in 200..400 {
            src.push_str(&goal(i, "done"));
        }
        src.push_str("## Log\n");
        for i in 0..400 {
            src.push_str(&format!(
                "- 2026-01-01 10:00 g{i} added (contract 0123abcd)\n"
            ));
        }
        for i in 200..400 {
            src.push_str(&format!(
                "- 2026-01-01 11:00 g{i} signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/g{i}.md#0123456789ab\n"
            ));
        }
        let short = condense(&src).expect("a sound plan is cut");
        assert!(model::parse(&short).errors.is_empty());
        assert!(
            short.len() * 3 < src.len(),
            "{} of {} bytes kept",
            short.len(),
            src.len()
        );
        assert!(check(&src));
        assert!(short.ends_with(
            "- 2026-01-01 11:00 g399 signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/g399.md#0123456789ab\n"
        ));
    }
}

//! The three-way merge of plan.md that git's merge driver runs: goals by id and field
//! by field, the log as a union in time order, `## Archive` like the goals. Lossless:
//! every line comes from one of the three texts as it was (ending included), and a
//! conflict is left only where one part of one goal changed differently on both
//! sides, its markers inside that goal. Pure: text in, text out.

use std::borrow::Cow;
use std::collections::{HashMap as StdHashMap, HashSet as StdHashSet};
use std::hash::Hash;
use std::ops::Range;

use super::id;

// foldhash, not SipHash: hashing the goals' keys was a sixth of a 40,000-goal merge.
type HashMap<K, V> = StdHashMap<K, V, foldhash::fast::FixedState>;
type HashSet<K> = StdHashSet<K, foldhash::fast::FixedState>;
use super::model::{Status, log_entry};
use similar::{Algorithm, DiffTag, capture_diff_slices};

use super::scan::{BOM, Kind, scan};

/// The merged text and what is left for a person to resolve.
#[derive(Debug, PartialEq, Eq)]
pub struct Merged {
    pub text: String,
    pub conflicts: Vec<Conflict>,
}

/// One part changed differently on both sides.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Conflict {
    /// The goal it is in; `None` for a section outside every goal.
    pub goal: Option<String>,
    /// What changed: `status`, `subtask "x"`, `title`, a section's heading.
    pub part: String,
}

/// git's marker width; lines starting with these are what [`super::model`] refuses.
pub const OURS: &str = "<<<<<<<";
pub const BASE: &str = "|||||||";
pub const SPLIT: &str = "=======";
pub const THEIRS: &str = ">>>>>>>";

/// One line as it was: text without its ending, the ending, and how it scanned.
#[derive(Clone, Debug)]
struct Ln<'a> {
    text: &'a str,
    eol: &'a str,
    kind: Kind,
    /// The value the kind names (an id, a subtask's text, a heading's title).
    value: &'a str,
}

/// A line of the result: from a source, or a conflict marker.
type Out<'a> = (Cow<'a, str>, &'a str);

/// What a section is, the same in all three texts: how its versions are paired.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Ident {
    /// Lines before the first heading.
    Pre,
    Title(usize),
    /// Another `# ` or `## ` heading, by its text and its occurrence.
    Heading(String, usize),
    /// A goal, live or archived, by its id and its occurrence; by its title too
    /// where some text has the id more than once (see [`pair_namesakes`]).
    Goal(String, Option<String>, usize),
    Log(usize),
    Archive(usize),
}

/// A section where it stands: a goal's place is its id and whether it is archived.
type Slot = (Ident, bool);

#[derive(Debug)]
struct Seg<'a> {
    ident: Ident,
    archived: bool,
    lines: Vec<Ln<'a>>,
}

struct Doc<'a> {
    bom: bool,
    segs: Vec<Seg<'a>>,
    /// Where each section is in `segs`, so finding one costs the same at 40,000
    /// goals as at 4 (a scan per section made the merge quadratic).
    at: HashMap<Ident, usize>,
}

impl<'a> Doc<'a> {
    fn parse(src: &'a str) -> Doc<'a> {
        let mut segs: Vec<Seg<'a>> = Vec::new();
        let mut counts: HashMap<Ident, usize> = HashMap::default();
        let mut nth = |ident: Ident| {
            let n = counts.entry(ident.clone()).or_insert(0);
            *n += 1;
            *n - 1
        };
        let mut archived = false;
        let mut current: Option<Seg<'a>> = None;
        let close = |seg: Option<Seg<'a>>,
                     segs: &mut Vec<Seg<'a>>,
                     nth: &mut dyn FnMut(Ident) -> usize| {
            let Some(mut seg) = seg else { return };
            if let Ident::Goal(..) = seg.ident {
                let id = seg
                    .lines
                    .iter()
                    .find(|l| {
                        matches!(l.kind, Kind::IdComment { .. }) && id::invalid(l.value).is_none()
                    })
                    .map(|l| l.value.to_string())
                    .unwrap_or_else(|| id::slug(seg.lines[0].value));
                let n = nth(Ident::Goal(id.clone(), None, 0));
                seg.ident = Ident::Goal(id, None, n);
            }
            segs.push(seg);
        };
        for line in scan(src) {
            let value = match &line.kind {
                Kind::Title { value }
                | Kind::GoalHeading { value }
                | Kind::IdComment { value }
                | Kind::Task { value, .. }
                | Kind::Bullet { value }
                | Kind::Field { value, .. } => &src[value.clone()],
                _ => "",
            };
            let ln = Ln {
                text: line.text(src),
                eol: line.eol.as_str(),
                kind: line.kind.clone(),
                value,
            };
            let ident = match &line.kind {
                Kind::Title { .. } => Some(Ident::Title(nth(Ident::Title(0)))),
                Kind::GoalHeading { .. } => Some(Ident::Goal(String::new(), None, 0)),
                Kind::LogHeading => Some(Ident::Log(nth(Ident::Log(0)))),
                Kind::ArchiveHeading => {
                    archived = true;
                    Some(Ident::Archive(nth(Ident::Archive(0))))
                }
                Kind::Heading { level: 1 | 2 } => {
                    let text = ln.text.trim().to_string();
                    let n = nth(Ident::Heading(text.clone(), 0));
                    Some(Ident::Heading(text, n))
                }
                _ => None,
            };
            match ident {
                Some(ident) => {
                    close(current.take(), &mut segs, &mut nth);
                    let goal = matches!(ident, Ident::Goal(..));
                    current = Some(Seg {
                        ident,
                        archived: archived && goal,
                        lines: vec![ln],
                    });
                }
                None => current
                    .get_or_insert_with(|| Seg {
                        ident: Ident::Pre,
                        archived: false,
                        lines: Vec::new(),
                    })
                    .lines
                    .push(ln),
            }
        }
        close(current.take(), &mut segs, &mut nth);
        let mut doc = Doc {
            bom: src.starts_with(BOM),
            segs,
            at: HashMap::default(),
        };
        doc.index();
        doc
    }

    /// Rebuilds `at` after the idents changed (see [`pair_namesakes`]); the first of
    /// equal idents is the one found, as a scan would.
    fn index(&mut self) {
        self.at.clear();
        for (i, seg) in self.segs.iter().enumerate() {
            self.at.entry(seg.ident.clone()).or_insert(i);
        }
    }

    fn get(&self, ident: &Ident) -> Option<&Seg<'a>> {
        self.at.get(ident).map(|&i| &self.segs[i])
    }

    fn slots(&self) -> Vec<Slot> {
        self.segs
            .iter()
            .map(|s| (s.ident.clone(), s.archived))
            .collect()
    }
}

/// Merges `ours` and `theirs`, both descended from `base`.
pub fn merge(base: &str, ours: &str, theirs: &str) -> Merged {
    // One side unchanged: the other, byte for byte.
    for (same, other) in [(ours, theirs), (theirs, ours)] {
        if same == base {
            return Merged {
                text: other.to_string(),
                conflicts: Vec::new(),
            };
        }
    }
    let (mut b, mut o, mut t) = (Doc::parse(base), Doc::parse(ours), Doc::parse(theirs));
    pair_namesakes([&mut b, &mut o, &mut t]);
    let eol = ours
        .find('\n')
        .map(|i| {
            if ours[..i].ends_with('\r') {
                "\r\n"
            } else {
                "\n"
            }
        })
        .unwrap_or("\n");
    let mut conflicts = Vec::new();
    let mut idents: Vec<Ident> = Vec::new();
    let mut seen = HashSet::default();
    for seg in o.segs.iter().chain(&t.segs).chain(&b.segs) {
        if seen.insert(seg.ident.clone()) {
            idents.push(seg.ident.clone());
        }
    }
    // What each section becomes, and where a goal ends up.
    let mut merged: HashMap<Ident, (Vec<Out<'_>>, bool)> = HashMap::default();
    for ident in idents {
        let (sb, so, st) = (b.get(&ident), o.get(&ident), t.get(&ident));
        let (lb, lo, lt) = (
            sb.map(|s| s.lines.as_slice()),
            so.map(|s| s.lines.as_slice()),
            st.map(|s| s.lines.as_slice()),
        );
        let content = match (lo, lt) {
            (None, None) => continue,
            (Some(one), None) | (None, Some(one)) => match lb {
                // New on one side: kept.
                None => one.iter().map(keep).collect(),
                // Gone on one side: gone, unless the other side changed it. The
                // blank lines after it are the gap before what follows, no change
                // to it (`plan archive` puts one there when it adds a goal after).
                Some(b) if same(body(b), body(one)) => continue,
                // Taken out (or given another id) on one side and changed on the
                // other: neither is picked. Kept as the change, a goal deleted came
                // back, or one with a new id came back beside its new self.
                Some(_) => taken_out(&ident, lo, lt, eol, &mut conflicts),
            },
            (Some(lo), Some(lt)) => match &ident {
                Ident::Goal(id, ..) => {
                    let ends = |d: &Doc<'_>| d.segs.last().is_some_and(|s| s.ident == ident);
                    let last = (ends(&o), ends(&t));
                    goal(id, lb, lo, lt, last, eol, &mut conflicts)
                }
                Ident::Log(_) => log(lb, lo, lt),
                _ => whole(&ident, lb, lo, lt, eol, &mut conflicts),
            },
        };
        let archived = placement(sb, so, st, &content);
        merged.insert(ident, (content, archived));
    }
    let order = order(&b.slots(), &o.slots(), &t.slots());
    let mut text = String::new();
    if pick(Some(b.bom), Some(o.bom), Some(t.bom))
        .flatten()
        .unwrap_or(o.bom)
    {
        text.push_str(BOM);
    }
    let start = text.len();
    for (ident, archived) in order {
        let Some((lines, place)) = merged.get(&ident) else {
            continue;
        };
        if *place != archived {
            continue;
        }
        for (line, end) in lines {
            if text.len() > start && !text.ends_with('\n') {
                text.push_str(eol);
            }
            text.push_str(line);
            text.push_str(end);
        }
    }
    // Blank lines at the end that neither side has there: a goal's gap, kept for the
    // goal that followed it elsewhere.
    if !ends_blank(ours) && !ends_blank(theirs) {
        while ends_blank(&text[start..]) {
            let body = text.strip_suffix('\n').unwrap_or(&text);
            let line = body.rfind('\n').map_or(start, |i| i + 1);
            text.truncate(line.max(start));
        }
    }
    Merged { text, conflicts }
}

/// What git's driver writes into OURS: the merge as bytes and what is left to resolve.
#[derive(Debug, PartialEq, Eq)]
pub struct MergedFile {
    pub bytes: Vec<u8>,
    pub conflicts: Vec<Conflict>,
}

/// Merges three files as git hands them to the driver. Texts the merge cannot read
/// line for line — not UTF-8, a carriage return without a line feed in any of them
/// (a classic-Mac file is one line to the scanner, so its goals would pair with
/// nothing and come in twice), git's conflict markers in ours or theirs — and a merge
/// that would itself hold such lines are left whole, both sides between markers: a
/// conflict, never a clean merge (git would commit it), and nothing lost.
pub fn merge_files(base: &[u8], ours: &[u8], theirs: &[u8]) -> MergedFile {
    let (Ok(b), Ok(o), Ok(t)) = (
        std::str::from_utf8(base),
        std::str::from_utf8(ours),
        std::str::from_utf8(theirs),
    ) else {
        return whole_file(ours, theirs, "not UTF-8".to_string());
    };
    for (side, text, markers) in [
        ("ours", o, true),
        ("theirs", t, true),
        ("the base", b, false),
    ] {
        if let Some(what) = unreadable(text, markers) {
            let verb = if side == "the base" { "holds" } else { "has" };
            return whole_file(ours, theirs, format!("{side} {verb} {what}"));
        }
    }
    for (side, text, other) in [("ours", o, t), ("theirs", t, o)] {
        if let Some(what) = cut_against(b, text, other) {
            return whole_file(
                ours,
                theirs,
                format!("{side} {what}: a cut file, most likely an editor's save taken mid-way"),
            );
        }
    }
    let m = merge(b, o, t);
    if m.conflicts.is_empty()
        && let Some(what) = unreadable(&m.text, true)
    {
        return whole_file(ours, theirs, format!("the merge would hold {what}"));
    }
    MergedFile {
        bytes: m.text.into_bytes(),
        conflicts: m.conflicts,
    }
}

/// How `side` is cut against `base` and the `other` side: it is empty where the base
/// is not (a save truncated and not yet written), it ends inside a line where
/// one of them ended its own, it lost the base's `## Log`, or it has goals and no
/// `## Log` at all. Merged, the goals a cut side lacks would read as deleted there.
/// The other side counts as well as the base because the base may be cut too (a
/// commit that took an editor's save mid-way): against it alone, a side cut
/// earlier lost nothing. A side that only deleted goals, whole otherwise, is a
/// person's choice and merges.
fn cut_against(base: &str, side: &str, other: &str) -> Option<&'static str> {
    let log = |text: &str| text.lines().any(|l| l.trim_end() == "## Log");
    let goals = |text: &str| text.lines().any(|l| l.starts_with("## Goal:"));
    let whole_line = |text: &str| text.ends_with('\n');
    if side.is_empty() && !base.is_empty() {
        Some("is empty")
    } else if !side.is_empty() && !whole_line(side) && (whole_line(base) || whole_line(other)) {
        Some("ends inside a line")
    } else if log(base) && !log(side) {
        Some("lost its `## Log`")
    } else if goals(side) && !log(side) {
        Some("has goals but no `## Log`")
    } else {
        None
    }
}

/// What in `text` plan does not read as lines (see [`super::model`]'s errors).
fn unreadable(text: &str, markers: bool) -> Option<&'static str> {
    if !text.contains(['\r', '<', '|', '>']) {
        return None;
    }
    let lines = scan(text);
    if super::model::bare_carriage_return(text, &lines).is_some() {
        return Some("a carriage return without a line feed, which plan does not read");
    }
    if markers && !super::model::conflict_markers(text, &lines).0.is_empty() {
        return Some("git's conflict markers; resolve those first");
    }
    None
}

/// Both sides whole between git's markers: one conflict, `why` naming it.
fn whole_file(ours: &[u8], theirs: &[u8], why: String) -> MergedFile {
    let mut out = format!("{OURS} ours\n").into_bytes();
    for (side, end) in [
        (ours, format!("{SPLIT}\n")),
        (theirs, format!("{THEIRS} theirs\n")),
    ] {
        out.extend_from_slice(side);
        if !side.is_empty() && !side.ends_with(b"\n") {
            out.push(b'\n');
        }
        out.extend_from_slice(end.as_bytes());
    }
    MergedFile {
        bytes: out,
        conflicts: vec![Conflict {
            goal: None,
            part: format!("the whole file ({why})"),
        }],
    }
}

/// Whether `text`'s last line is blank.
fn ends_blank(text: &str) -> bool {
    text.lines()
        .next_back()
        .is_some_and(|l| l.trim().is_empty())
}

/// Goals that share an id in any of the three texts (a goal copied as a template, a
/// goal added before its namesake) are paired by id and title, then occurrence, in
/// all three. By occurrence alone, a goal inserted before its namesake took the
/// namesake's place, and the other side's tick landed in the new goal.
fn pair_namesakes(docs: [&mut Doc<'_>; 3]) {
    let shared: HashSet<String> = docs
        .iter()
        .flat_map(|d| &d.segs)
        .filter_map(|s| match &s.ident {
            Ident::Goal(id, _, n) if *n > 0 => Some(id.clone()),
            _ => None,
        })
        .collect();
    if shared.is_empty() {
        return;
    }
    for doc in docs {
        let mut counts: HashMap<(String, String), usize> = HashMap::default();
        for seg in &mut doc.segs {
            let Ident::Goal(id, _, _) = &seg.ident else {
                continue;
            };
            if !shared.contains(id) {
                continue;
            }
            let title = seg.lines[0].value.trim().to_string();
            let n = counts.entry((id.clone(), title.clone())).or_insert(0);
            seg.ident = Ident::Goal(id.clone(), Some(title), *n);
            *n += 1;
        }
        doc.index();
    }
}

/// Whether a goal ends up archived: as the side that moved it says, unless the other
/// side reopened it meanwhile (an unfinished goal under `## Archive` would be lost
/// work).
fn placement(
    b: Option<&Seg<'_>>,
    o: Option<&Seg<'_>>,
    t: Option<&Seg<'_>>,
    merged: &[Out<'_>],
) -> bool {
    let at = |s: Option<&Seg<'_>>| s.map(|s| s.archived);
    let (pb, po, pt) = (at(b), at(o), at(t));
    let archived = match pick(pb, po.or(pb), pt.or(pb)) {
        Some(Some(p)) => p,
        _ => po.or(pt).unwrap_or(false),
    };
    if !archived || !matches!(b.map(|s| &s.ident), Some(Ident::Goal(..))) {
        return archived;
    }
    let status = |lines: &[Out<'_>]| {
        lines
            .iter()
            .find_map(|(l, _)| l.strip_prefix("status:").map(|v| Status::parse(v.trim())))
            .flatten()
    };
    let moved_by_one = po != pt;
    let live_side = if po == Some(true) { t } else { o };
    let reopened = live_side.is_some_and(|s| !s.archived)
        && status(&keep_all(live_side)) != status(&keep_all(b));
    if moved_by_one && reopened && status(merged).is_some_and(|s| !s.is_finished()) {
        return false;
    }
    archived
}

fn keep_all<'a>(s: Option<&Seg<'a>>) -> Vec<Out<'a>> {
    s.map(|s| s.lines.iter().map(keep).collect())
        .unwrap_or_default()
}

fn keep<'a>(l: &Ln<'a>) -> Out<'a> {
    (Cow::Borrowed(l.text), l.eol)
}

/// `lines` without the blank lines that end them.
fn body<'s, 'a>(lines: &'s [Ln<'a>]) -> &'s [Ln<'a>] {
    let blank = lines
        .iter()
        .rev()
        .take_while(|l| l.kind == Kind::Blank)
        .count();
    &lines[..lines.len() - blank]
}

fn same(a: &[Ln<'_>], b: &[Ln<'_>]) -> bool {
    a.len() == b.len()
        && a.iter()
            .zip(b)
            .all(|(x, y)| x.text == y.text && x.eol == y.eol)
}

/// The three-way rule for one value: both alike, or changed on one side only.
/// `None`: changed differently on both sides.
fn pick<T: PartialEq>(b: Option<T>, o: Option<T>, t: Option<T>) -> Option<Option<T>> {
    if o == t || t == b {
        Some(o)
    } else if o == b {
        Some(t)
    } else {
        None
    }
}

fn pick_lines<'s, 'a>(
    b: Option<&'s [Ln<'a>]>,
    o: Option<&'s [Ln<'a>]>,
    t: Option<&'s [Ln<'a>]>,
) -> Option<Option<&'s [Ln<'a>]>> {
    let eq = |x: Option<&[Ln<'_>]>, y: Option<&[Ln<'_>]>| match (x, y) {
        (Some(x), Some(y)) => same(x, y),
        (None, None) => true,
        _ => false,
    };
    if eq(o, t) || eq(t, b) {
        Some(o)
    } else if eq(o, b) {
        Some(t)
    } else {
        None
    }
}

/// `b`'s lines changed into `side`'s: each change as the base lines it replaces and
/// the side's lines in their place, in order.
fn changes(b: &[Ln<'_>], side: &[Ln<'_>]) -> Vec<(Range<usize>, Range<usize>)> {
    fn key<'a>(lines: &[Ln<'a>]) -> Vec<(&'a str, &'a str)> {
        lines.iter().map(|l| (l.text, l.eol)).collect()
    }
    let mut out: Vec<(Range<usize>, Range<usize>)> = Vec::new();
    for op in capture_diff_slices(Algorithm::Myers, &key(b), &key(side)) {
        if op.tag() == DiffTag::Equal {
            continue;
        }
        let (old, new) = (op.old_range(), op.new_range());
        match out.last_mut() {
            Some((o, n)) if o.end == old.start && n.end == new.start => {
                o.end = old.end;
                n.end = new.end;
            }
            _ => out.push((old, new)),
        }
    }
    out
}

/// A part or section changed on both sides, merged line by line as git merges a
/// file: changes to lines apart from each other are both taken; changes that
/// touch or overlap are taken only where they are the same. `None`: they are not,
/// and the caller leaves a conflict. A tick on a subtask and an edit of the note two
/// lines under it, or two edits to different lines of the prose under `# Plan:`,
/// were conflicts, though git merged them clean.
fn by_line<'a>(b: &[Ln<'a>], o: &[Ln<'a>], t: &[Ln<'a>]) -> Option<Vec<Out<'a>>> {
    let sides = [(o, changes(b, o)), (t, changes(b, t))];
    // Every change of both sides, by where it starts in the base.
    let mut all: Vec<(usize, Range<usize>)> = sides
        .iter()
        .enumerate()
        .flat_map(|(s, (_, cs))| cs.iter().map(move |(old, _)| (s, old.clone())))
        .collect();
    all.sort_by_key(|(s, old)| (old.start, old.end, *s));
    // The lines of side `s` in place of base lines `from..to`, a cluster's range:
    // every change of that side starting in it ends in it.
    let lines_of = |s: usize, from: usize, to: usize| -> Vec<Out<'a>> {
        let (side, cs) = &sides[s];
        let mut out = Vec::new();
        let mut at = from;
        for (old, new) in cs
            .iter()
            .filter(|(old, _)| old.start >= from && old.end <= to)
        {
            out.extend(b[at..old.start].iter().map(keep));
            out.extend(side[new.clone()].iter().map(keep));
            at = old.end;
        }
        out.extend(b[at..to].iter().map(keep));
        out
    };
    let mut out = Vec::new();
    let mut at = 0;
    let mut i = 0;
    while i < all.len() {
        let (start, mut end) = (all[i].1.start, all[i].1.end);
        let mut whose = [false; 2];
        // A cluster: the changes that overlap or touch one another (one side's
        // line added where the other changed the next is two changes to one place).
        while i < all.len() && all[i].1.start <= end {
            whose[all[i].0] = true;
            end = end.max(all[i].1.end);
            i += 1;
        }
        out.extend(b[at..start].iter().map(keep));
        let ours = whose[0].then(|| lines_of(0, start, end));
        let theirs = whose[1].then(|| lines_of(1, start, end));
        match (ours, theirs) {
            (Some(one), None) | (None, Some(one)) => out.extend(one),
            (Some(o), Some(t)) if o == t => out.extend(o),
            _ => return None,
        }
        at = end;
    }
    out.extend(b[at..].iter().map(keep));
    Some(out)
}

/// Both sides' versions between git's markers, labelled with what they are.
fn conflict<'a>(
    o: Option<&[Ln<'a>]>,
    t: Option<&[Ln<'a>]>,
    label: &str,
    eol: &'a str,
) -> Vec<Out<'a>> {
    let mut out: Vec<Out<'a>> = vec![(Cow::Owned(format!("{OURS} ours: {label}")), eol)];
    out.extend(o.unwrap_or_default().iter().map(keep));
    out.push((Cow::Borrowed(SPLIT), eol));
    out.extend(t.unwrap_or_default().iter().map(keep));
    out.push((Cow::Owned(format!("{THEIRS} theirs: {label}")), eol));
    out
}

/// A section outside the goals and the log: one side's change, or a conflict.
fn whole<'a>(
    ident: &Ident,
    b: Option<&[Ln<'a>]>,
    o: &[Ln<'a>],
    t: &[Ln<'a>],
    eol: &'a str,
    conflicts: &mut Vec<Conflict>,
) -> Vec<Out<'a>> {
    if let Some(lines) = pick_lines(b, Some(o), Some(t)) {
        return lines.unwrap_or_default().iter().map(keep).collect();
    }
    if let Some(lines) = b.and_then(|b| by_line(b, o, t)) {
        return lines;
    }
    let name = match ident {
        Ident::Pre => "the lines before the first heading".to_string(),
        _ => format!("section `{}`", o[0].text.trim()),
    };
    conflicts.push(Conflict {
        goal: None,
        part: name.clone(),
    });
    let headed = !matches!(ident, Ident::Pre) && o[0].text == t[0].text;
    if headed {
        let mut out = vec![keep(&o[0])];
        out.extend(conflict(Some(&o[1..]), Some(&t[1..]), &name, eol));
        out
    } else {
        conflict(Some(o), Some(t), &name, eol)
    }
}

/// A section taken out on one side and changed on the other: both sides between
/// markers, the side that took it out empty.
fn taken_out<'a>(
    ident: &Ident,
    o: Option<&[Ln<'a>]>,
    t: Option<&[Ln<'a>]>,
    eol: &'a str,
    conflicts: &mut Vec<Conflict>,
) -> Vec<Out<'a>> {
    let heading = o
        .or(t)
        .and_then(|lines| lines.first())
        .map(|l| l.text.trim());
    let (goal, what) = match ident {
        Ident::Goal(id, ..) => (Some(id.to_string()), "the goal".to_string()),
        Ident::Pre => (None, "the lines before the first heading".to_string()),
        _ => (None, format!("section `{}`", heading.unwrap_or_default())),
    };
    let side = if o.is_none() { "ours" } else { "theirs" };
    let part = format!("{what} (taken out in {side}, changed in the other)");
    let label = match &goal {
        Some(id) => format!("{part} of goal {id}"),
        None => part.clone(),
    };
    conflicts.push(Conflict { goal, part });
    conflict(o, t, &label, eol)
}

/// A goal's part: one line plan reads (the heading, the id, a field, a subtask) with
/// the lines under it up to the next one (a field's items, notes).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Part {
    Title,
    Id(usize),
    Field(&'static str, usize),
    Task(String, usize),
}

/// `lines` as parts, and the blank lines that end the goal.
fn parts<'s, 'a>(lines: &'s [Ln<'a>]) -> (Vec<(Part, &'s [Ln<'a>])>, &'s [Ln<'a>]) {
    let body = lines.len()
        - lines
            .iter()
            .skip(1)
            .rev()
            .take_while(|l| l.kind == Kind::Blank)
            .count();
    let mut counts: HashMap<Part, usize> = HashMap::default();
    let mut nth = |p: Part| {
        let n = counts.entry(p).or_insert(0);
        *n += 1;
        *n - 1
    };
    let mut starts: Vec<(Part, usize)> = Vec::new();
    for (i, l) in lines[..body].iter().enumerate() {
        let part = match &l.kind {
            _ if i == 0 => Part::Title,
            Kind::IdComment { .. } => Part::Id(nth(Part::Id(0))),
            Kind::Field { key, .. } => Part::Field(key.as_str(), nth(Part::Field(key.as_str(), 0))),
            Kind::Task { .. } => {
                let n = nth(Part::Task(l.value.to_string(), 0));
                Part::Task(l.value.to_string(), n)
            }
            _ => continue,
        };
        starts.push((part, i));
    }
    let mut out = Vec::with_capacity(starts.len());
    for (k, (part, from)) in starts.iter().enumerate() {
        let to = starts.get(k + 1).map_or(body, |(_, i)| *i);
        out.push((part.clone(), &lines[*from..to]));
    }
    (out, &lines[body..])
}

fn find<'s, 'a>(ps: &[(Part, &'s [Ln<'a>])], k: &Part) -> Option<&'s [Ln<'a>]> {
    ps.iter().find(|(p, _)| p == k).map(|(_, l)| *l)
}

fn describe(part: &Part) -> String {
    match part {
        Part::Title => "title".to_string(),
        Part::Id(_) => "id".to_string(),
        Part::Field(key, _) => (*key).to_string(),
        Part::Task(text, _) => format!("subtask \"{text}\""),
    }
}

/// A goal on both sides, part by part. `last`: whether ours and theirs end their
/// text with it.
fn goal<'a>(
    id: &str,
    b: Option<&[Ln<'a>]>,
    o: &[Ln<'a>],
    t: &[Ln<'a>],
    last: (bool, bool),
    eol: &'a str,
    conflicts: &mut Vec<Conflict>,
) -> Vec<Out<'a>> {
    let (pb, gb) = b.map(parts).unwrap_or_default();
    let (po, go) = parts(o);
    let (pt, gt) = parts(t);
    // A copy that ends its text has no blank line after it because nothing follows
    // (the side archived it, say): that is no change to the gap before the next goal,
    // which the other copies decide. The file's end is kept apart, in `merge`.
    // A copy whose last line has no end of line ends a file that ends there: taken
    // as it is, or the merge would add the line end the side took away.
    let ended = |lines: &[Ln<'_>]| lines.last().is_some_and(|l| !l.eol.is_empty());
    let go = if last.0 && go.is_empty() && b.is_some() && ended(o) {
        gb
    } else {
        go
    };
    let gt = if last.1 && gt.is_empty() && b.is_some() && ended(t) {
        gb
    } else {
        gt
    };
    let keys = |ps: &[(Part, &[Ln<'_>])]| ps.iter().map(|(p, _)| p.clone()).collect::<Vec<_>>();
    let mut out = Vec::new();
    for part in order(&keys(&pb), &keys(&po), &keys(&pt)) {
        let (lb, lo, lt) = (find(&pb, &part), find(&po, &part), find(&pt, &part));
        match pick_lines(lb, lo, lt) {
            Some(lines) => out.extend(lines.unwrap_or_default().iter().map(keep)),
            // Gone on one side (taken out, renamed, moved) and changed on the other
            // is changed differently on both too: kept as the change, a subtask
            // renamed on one side and ticked on the other came in twice.
            None => {
                if let (Some(lb), Some(lo), Some(lt)) = (lb, lo, lt)
                    && let Some(lines) = by_line(lb, lo, lt)
                {
                    out.extend(lines);
                    continue;
                }
                let what = describe(&part);
                out.extend(conflict(lo, lt, &format!("{what} of goal {id}"), eol));
                conflicts.push(Conflict {
                    goal: Some(id.to_string()),
                    part: what,
                });
            }
        }
    }
    let gap = pick_lines(b.map(|_| gb), Some(go), Some(gt))
        .flatten()
        .unwrap_or(go);
    out.extend(gap.iter().map(keep));
    out
}

/// The log: the base's lines both sides kept, then both sides' new lines merged by
/// time stamp, each side's order kept, a line both added kept once.
fn log<'a>(b: Option<&[Ln<'a>]>, o: &[Ln<'a>], t: &[Ln<'a>]) -> Vec<Out<'a>> {
    let (hb, cb, gb) = match b {
        Some(b) => {
            let (h, c, g) = split(b);
            (Some(h), Some(c), Some(g))
        }
        None => (None, None, None),
    };
    let (ho, co, go) = split(o);
    let (ht, ct, gt) = split(t);
    let mut out: Vec<Out<'a>> = Vec::new();
    let head = pick_lines(hb, Some(ho), Some(ht)).flatten().unwrap_or(ho);
    out.extend(head.iter().map(keep));
    let cb = cb.unwrap_or_default();
    if same(co, cb) {
        out.extend(ct.iter().map(keep));
    } else if same(ct, cb) {
        out.extend(co.iter().map(keep));
    } else {
        // Each side less the base's lines the other side deleted, then both as one
        // sequence: the lines they share once, in place, and between two of them
        // each side's own lines merged by time stamp.
        let (o2, t2) = (kept_by(co, cb, ct), kept_by(ct, cb, co));
        let texts = |lines: &[Ln<'a>]| lines.iter().map(|l| l.text).collect::<Vec<_>>();
        let (mut run_o, mut run_t): (Vec<Ln<'a>>, Vec<Ln<'a>>) = (Vec::new(), Vec::new());
        for op in capture_diff_slices(Algorithm::Myers, &texts(&o2), &texts(&t2)) {
            let (tag, a, b) = op.as_tag_tuple();
            if tag == DiffTag::Equal {
                out.extend(by_stamp(&run_o, &run_t).iter().map(keep));
                run_o.clear();
                run_t.clear();
                out.extend(o2[a].iter().map(keep));
            } else {
                run_o.extend_from_slice(&o2[a]);
                run_t.extend_from_slice(&t2[b]);
            }
        }
        out.extend(by_stamp(&run_o, &run_t).iter().map(keep));
    }
    let gap = pick_lines(gb, Some(go), Some(gt)).flatten().unwrap_or(go);
    out.extend(gap.iter().map(keep));
    out
}

/// A log section as its heading, its lines and the blank lines that end it.
fn split<'s, 'a>(lines: &'s [Ln<'a>]) -> (&'s [Ln<'a>], &'s [Ln<'a>], &'s [Ln<'a>]) {
    let blank = lines
        .iter()
        .skip(1)
        .rev()
        .take_while(|l| l.kind == Kind::Blank)
        .count();
    let body = lines.len() - blank;
    (&lines[..1], &lines[1..body], &lines[body..])
}

fn count<'a>(lines: &[Ln<'a>]) -> HashMap<&'a str, usize> {
    let mut c = HashMap::default();
    for l in lines {
        *c.entry(l.text).or_insert(0) += 1;
    }
    c
}

/// `lines` (one side's) less the base's lines that `other` deleted (as many copies as it did).
fn kept_by<'a>(lines: &[Ln<'a>], base: &[Ln<'a>], other: &[Ln<'a>]) -> Vec<Ln<'a>> {
    let theirs = count(other);
    let mut left: HashMap<&str, usize> = count(base)
        .into_iter()
        .map(|(text, n)| {
            (
                text,
                n.saturating_sub(theirs.get(text).copied().unwrap_or(0)),
            )
        })
        .collect();
    lines
        .iter()
        .filter(|l| match left.get_mut(l.text) {
            Some(n) if *n > 0 => {
                *n -= 1;
                false
            }
            _ => true,
        })
        .cloned()
        .collect()
}

/// The time stamp a log line is ordered by: its own, or the one before it on its side.
fn stamp<'a>(line: &Ln<'a>) -> Option<&'a str> {
    match line.kind {
        Kind::Bullet { .. } => log_entry(0, line.value).stamp,
        _ => None,
    }
}

fn by_stamp<'a>(a: &[Ln<'a>], b: &[Ln<'a>]) -> Vec<Ln<'a>> {
    let (mut i, mut j) = (0, 0);
    let (mut last_a, mut last_b) = ("", "");
    let mut out = Vec::with_capacity(a.len() + b.len());
    while i < a.len() || j < b.len() {
        let sa = a.get(i).map(|l| stamp(l).unwrap_or(last_a));
        let sb = b.get(j).map(|l| stamp(l).unwrap_or(last_b));
        let take_a = match (sa, sb) {
            (Some(x), Some(y)) => x <= y,
            (Some(_), None) => true,
            _ => false,
        };
        if take_a {
            last_a = sa.unwrap_or(last_a);
            out.push(a[i].clone());
            i += 1;
        } else {
            last_b = sb.unwrap_or(last_b);
            out.push(b[j].clone());
            j += 1;
        }
    }
    out
}

/// Where things go: one side's order (the one that changed it), with the other
/// side's and then the base's items that it lacks each put after the item before it,
/// behind the new items already there. So new goals follow the base's, ours first.
fn order<K: Clone + Eq + Hash>(b: &[K], o: &[K], t: &[K]) -> Vec<K> {
    const END: usize = usize::MAX;
    let (skeleton, others) = if o == b { (t, [o, b]) } else { (o, [t, b]) };
    let in_base: HashSet<&K> = b.iter().collect();
    // The items placed so far as a linked list (`next[i]` follows `keys[i]`), found by
    // key: placing one costs the items it steps over, not a search and a shift of
    // the whole list (which made 40,000 goals take a minute).
    let mut keys: Vec<&K> = skeleton.iter().collect();
    let mut next: Vec<usize> = (1..=keys.len()).collect();
    if let Some(last) = next.last_mut() {
        *last = END;
    }
    let mut head = if keys.is_empty() { END } else { 0 };
    let mut node: HashMap<&K, usize> =
        HashMap::with_capacity_and_hasher(keys.len(), Default::default());
    for (i, k) in keys.iter().enumerate() {
        node.entry(*k).or_insert(i);
    }
    for other in others {
        let mine: HashSet<&K> = other.iter().collect();
        for (i, k) in other.iter().enumerate() {
            if node.contains_key(k) {
                continue;
            }
            // Every item of `other` before this one is placed by now: it goes after
            // the one just before it, or first.
            let (mut prev, mut at) = match i.checked_sub(1).map(|p| node[&other[p]]) {
                Some(p) => (Some(p), next[p]),
                None => (None, head),
            };
            while at != END && !in_base.contains(keys[at]) && !mine.contains(keys[at]) {
                prev = Some(at);
                at = next[at];
            }
            let new = keys.len();
            keys.push(k);
            next.push(at);
            match prev {
                Some(p) => next[p] = new,
                None => head = new,
            }
            node.insert(k, new);
        }
    }
    let mut out = Vec::with_capacity(keys.len());
    let mut at = head;
    while at != END {
        out.push(keys[at].clone());
        at = next[at];
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model;

    const BASE: &str = "# Plan: x

## Goal: Alpha
<!-- id: alpha -->
status: active
done_when: alpha works
failure_modes:
- alpha passes on a stub
- [ ] a1
- [ ] a2

## Goal: Beta
<!-- id: beta -->
status: open
done_when: beta works
- [ ] b1

## Log
- 2026-06-15 14:00 alpha started (contract 00000000)
";

    fn clean(base: &str, ours: &str, theirs: &str) -> String {
        let m = merge(base, ours, theirs);
        assert_eq!(m.conflicts, vec![], "{}", m.text);
        m.text
    }

    fn add_goal(src: &str, id: &str) -> String {
        src.replace(
            "\n## Log",
            &format!(
                "\n## Goal: {id}\n<!-- id: {id} -->\nstatus: open\ndone_when: {id} done\n\n## Log"
            ),
        )
    }

    fn log(src: &str, line: &str) -> String {
        format!("{src}- {line}\n")
    }

    #[test]
    fn goals_added_on_both_sides_follow_the_base_s_ours_first() {
        let ours = log(&add_goal(BASE, "gamma"), "2026-06-15 14:05 gamma added");
        let theirs = log(&add_goal(BASE, "delta"), "2026-06-15 14:03 delta added");
        let text = clean(BASE, &ours, &theirs);
        let plan = model::parse(&text);
        assert!(plan.errors.is_empty(), "{:?}", plan.errors);
        let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
        assert_eq!(ids, ["alpha", "beta", "gamma", "delta"]);
        let log: Vec<String> = plan.log.iter().map(|e| e.to_string()).collect();
        assert_eq!(
            log,
            [
                "2026-06-15 14:00 alpha started (contract 00000000)",
                "2026-06-15 14:03 delta added",
                "2026-06-15 14:05 gamma added",
            ]
        );
    }

    #[test]
    fn ticks_from_either_side_are_kept() {
        let ours = BASE.replace("- [ ] a1", "- [x] a1");
        let theirs = BASE
            .replace("- [ ] a2", "- [x] a2")
            .replace("- [ ] a1", "- [x] a1");
        let text = clean(BASE, &ours, &theirs);
        assert!(text.contains("- [x] a1\n- [x] a2\n"), "{text}");
    }

    #[test]
    fn a_subtask_added_on_one_side_and_a_failure_mode_on_the_other_stay_apart() {
        let ours = BASE.replace("- [ ] a2\n", "- [ ] a2\n- [ ] a3\n");
        let theirs = BASE.replace(
            "- alpha passes on a stub\n",
            "- alpha passes on a stub\n- alpha is never called\n",
        );
        let text = clean(BASE, &ours, &theirs);
        let plan = model::parse(&text);
        let alpha = plan.goal("alpha").unwrap();
        assert_eq!(alpha.failure_modes.len(), 2);
        assert_eq!(alpha.subtasks.len(), 3);
    }

    #[test]
    fn one_field_changed_differently_is_one_conflict_inside_its_goal() {
        let ours = BASE.replace("done_when: alpha works", "done_when: alpha works fast");
        let theirs = BASE.replace(
            "done_when: alpha works",
            "done_when: alpha works everywhere",
        );
        let m = merge(BASE, &ours, &theirs);
        assert_eq!(
            m.conflicts,
            vec![Conflict {
                goal: Some("alpha".into()),
                part: "done_when".into()
            }]
        );
        let want = "<<<<<<< ours: done_when of goal alpha
done_when: alpha works fast
=======
done_when: alpha works everywhere
>>>>>>> theirs: done_when of goal alpha
";
        assert!(m.text.contains(want), "{}", m.text);
        let at = m.text.find("<<<<<<<").unwrap();
        let alpha = m.text.find("## Goal: Alpha").unwrap();
        let beta = m.text.find("## Goal: Beta").unwrap();
        assert!(alpha < at && at < beta);
    }

    /// A part or a goal taken out on one side and changed on the other was merged
    /// clean as the change (the red team's merges): a deleted subtask came back, a
    /// goal deleted or given another id came back beside its new self, a subtask
    /// renamed on one side and ticked on the other was kept twice, and a subtask
    /// taken out from above a note carried the note along, kept then twice. Each is
    /// a conflict now, with both sides' lines between the markers.
    #[test]
    fn taken_out_on_one_side_and_changed_on_the_other_is_a_conflict() {
        let noted = BASE.replace("- [ ] a2\n", "- [ ] a2\n\nAlpha note: keep it warm.\n");
        let beta =
            "## Goal: Beta\n<!-- id: beta -->\nstatus: open\ndone_when: beta works\n- [ ] b1\n\n";
        let cases = [
            (
                "a subtask taken out, ticked",
                BASE.to_string(),
                BASE.replace("- [ ] a1\n", ""),
                BASE.replace("- [ ] a1", "- [x] a1"),
                "- [x] a1",
            ),
            (
                "a goal taken out, ticked",
                BASE.to_string(),
                BASE.replace(beta, ""),
                BASE.replace("- [ ] b1", "- [x] b1"),
                "- [x] b1",
            ),
            (
                "an id changed, ticked",
                BASE.to_string(),
                BASE.replace("<!-- id: alpha -->", "<!-- id: alpha-core -->"),
                BASE.replace("- [ ] a1", "- [x] a1"),
                "- [x] a1",
            ),
            (
                "a subtask renamed, ticked",
                BASE.to_string(),
                BASE.replace("- [ ] a1", "- [ ] a1 renamed"),
                BASE.replace("- [ ] a1", "- [x] a1"),
                "- [x] a1",
            ),
            (
                "a subtask taken out above a note that was edited",
                noted.clone(),
                noted.replace("- [ ] a2\n", ""),
                noted.replace("keep it warm.", "keep it warm across restarts."),
                "keep it warm across restarts.",
            ),
        ];
        let mut wrong = Vec::new();
        for (what, base, ours, theirs, kept) in cases {
            let m = merge(&base, &ours, &theirs);
            let marked = m.text.find("<<<<<<<");
            if m.conflicts.is_empty() || !marked.is_some_and(|at| m.text[at..].contains(kept)) {
                wrong.push(format!("{what}:\n{}", m.text));
            }
        }
        assert!(wrong.is_empty(), "{}", wrong.join("\n"));
    }

    /// A blank line after a goal is the gap before what follows: the archived goal
    /// one side deleted by hand, while the other archived another after it (a blank
    /// line then follows it there), is deleted, with no conflict (the review's).
    #[test]
    fn a_goal_taken_out_on_one_side_and_followed_by_another_on_the_other_is_gone() {
        let goal = |id: &str| {
            format!("## Goal: {id}\n<!-- id: {id} -->\nstatus: cancelled\ndone_when: {id}\n")
        };
        let base = format!("{BASE}\n## Archive\n\n{}", goal("old"));
        let ours = format!("{BASE}\n## Archive\n");
        let theirs = format!("{base}\n{}", goal("newer"));
        let text = clean(&base, &ours, &theirs);
        assert!(!text.contains("id: old"), "{text}");
        assert!(text.contains("id: newer"), "{text}");
    }

    /// Changes to lines apart from each other in one part or section merge as git
    /// merges them (the red team's false conflicts); changes to one line, or to
    /// lines that touch, are still a conflict.
    #[test]
    fn changes_to_lines_apart_in_one_part_merge_and_to_one_line_conflict() {
        let noted = BASE.replace("- [ ] a2\n", "- [ ] a2\n\nAlpha note: keep it warm.\n");
        let text = clean(
            &noted,
            &noted.replace("- [ ] a2", "- [x] a2"),
            &noted.replace("keep it warm.", "keep it warm across restarts."),
        );
        assert!(
            text.contains("- [x] a2\n\nAlpha note: keep it warm across restarts.\n\n## Goal: Beta"),
            "{text}"
        );
        let prose = BASE.replace(
            "# Plan: x\n",
            "# Plan: x\n\nWhy: speed.\nHow: a cache.\nWho: us.\n",
        );
        let text = clean(
            &prose,
            &prose.replace("Why: speed.", "Why: speed, mostly."),
            &prose.replace("Who: us.", "Who: the team."),
        );
        assert!(
            text.contains("Why: speed, mostly.\nHow: a cache.\nWho: the team.\n"),
            "{text}"
        );
        // One line changed on both sides, and a line added on one side where the
        // other changed the line after it: conflicts.
        for (ours, theirs) in [
            (
                prose.replace("How: a cache.", "How: a bigger cache."),
                prose.replace("How: a cache.", "How: no cache."),
            ),
            (
                prose.replace("How: a cache.\n", "When: soon.\nHow: a cache.\n"),
                prose.replace("How: a cache.", "How: no cache."),
            ),
        ] {
            let m = merge(&prose, &ours, &theirs);
            assert_eq!(m.conflicts.len(), 1, "{}", m.text);
            assert!(m.text.contains("How: no cache."), "{}", m.text);
        }
    }

    #[test]
    fn a_goal_archived_on_one_side_and_ticked_on_the_other_is_archived_with_the_tick() {
        let ours = BASE
            .replace("status: active", "status: done")
            .replace(
                "## Goal: Alpha\n<!-- id: alpha -->\nstatus: done\ndone_when: alpha works\nfailure_modes:\n- alpha passes on a stub\n- [ ] a1\n- [ ] a2\n\n",
                "",
            );
        let ours = format!(
            "{}\n## Archive\n\n## Goal: Alpha\n<!-- id: alpha -->\nstatus: done\ndone_when: alpha works\nfailure_modes:\n- alpha passes on a stub\n- [ ] a1\n- [ ] a2\n",
            log(&ours, "2026-06-15 14:10 alpha signed off (x)")
        );
        let theirs = BASE.replace("- [ ] a2", "- [x] a2");
        let text = clean(BASE, &ours, &theirs);
        let plan = model::parse(&text);
        let alpha = plan.goal("alpha").unwrap();
        assert!(alpha.archived, "{text}");
        assert_eq!(alpha.status(), Status::Done);
        assert!(alpha.subtasks[1].done);
        assert_eq!(plan.goals.len(), 2, "{text}");
    }

    #[test]
    fn a_goal_archived_on_one_side_and_reopened_on_the_other_stays_live() {
        let base = BASE.replace("status: active", "status: done");
        let alpha = "## Goal: Alpha\n<!-- id: alpha -->\nstatus: done\ndone_when: alpha works\nfailure_modes:\n- alpha passes on a stub\n- [ ] a1\n- [ ] a2\n";
        let ours = format!(
            "{}\n## Archive\n\n{alpha}",
            base.replace(&format!("{alpha}\n"), "")
        );
        let theirs = log(
            &base.replace("status: done", "status: active"),
            "2026-06-15 14:20 alpha reopened: not done",
        );
        let text = clean(&base, &ours, &theirs);
        let plan = model::parse(&text);
        let goal = plan.goal("alpha").unwrap();
        assert!(!goal.archived, "{text}");
        assert_eq!(goal.status(), Status::Active);
        assert_eq!(plan.goals.len(), 2);
    }

    /// The side that archived the goal has it last in the file, with no blank line
    /// after it; the merge takes that copy's (missing) end and puts it back above
    /// the next goal, whose heading then follows the goal's last line directly.
    #[test]
    fn a_goal_archived_on_one_side_and_reopened_on_the_other_keeps_its_blank_line() {
        let base = BASE.replace("status: active", "status: done");
        let alpha = "## Goal: Alpha\n<!-- id: alpha -->\nstatus: done\ndone_when: alpha works\nfailure_modes:\n- alpha passes on a stub\n- [ ] a1\n- [ ] a2\n";
        let ours = format!(
            "{}\n## Archive\n\n{alpha}",
            base.replace(&format!("{alpha}\n"), "")
        );
        let theirs = log(
            &base.replace("status: done", "status: active"),
            "2026-06-15 14:20 alpha reopened: not done",
        );
        let text = clean(&base, &ours, &theirs);
        assert!(text.contains("- [ ] a2\n\n## Goal: Beta"), "{text}");
        // Ticked instead of reopened: it stays archived, last, and the file ends as
        // both sides end it, with no blank line.
        let ticked = base.replace("- [ ] a2", "- [x] a2");
        let text = clean(&base, &ours, &ticked);
        assert!(text.ends_with("## Archive\n\n## Goal: Alpha\n<!-- id: alpha -->\nstatus: done\ndone_when: alpha works\nfailure_modes:\n- alpha passes on a stub\n- [ ] a1\n- [x] a2\n"), "{text}");
    }

    #[test]
    fn a_line_both_sides_added_is_kept_once() {
        let picked = log(BASE, "2026-06-15 14:02 beta started (contract 11111111)");
        let theirs = log(&picked, "2026-06-15 14:04 later");
        let text = clean(BASE, &picked, &theirs);
        assert_eq!(text.matches("beta started").count(), 1);
        assert!(
            text.ends_with("14:02 beta started (contract 11111111)\n- 2026-06-15 14:04 later\n")
        );
    }

    /// A rebase replays a commit onto an upstream whose log has lines before the
    /// base's (merged in by time): the upstream's order and the commit's both hold.
    #[test]
    fn each_side_s_order_holds_when_the_base_is_not_a_prefix() {
        let base = "# Plan: x\n\n## Log\n- 2026-06-15 10:04 b1\n- 2026-06-15 10:07 b2\n";
        let ours = "# Plan: x\n\n## Log\n- 2026-06-15 10:02 o1\n- 2026-06-15 10:04 b1\n- 2026-06-15 10:05 o2\n- 2026-06-15 10:07 b2\n- 2026-06-15 10:08 o3\n";
        let theirs = format!("{base}- 2026-06-15 10:06 t1\n");
        let text = clean(base, ours, &theirs);
        assert_eq!(
            text,
            "# Plan: x\n\n## Log\n- 2026-06-15 10:02 o1\n- 2026-06-15 10:04 b1\n- 2026-06-15 10:05 o2\n- 2026-06-15 10:07 b2\n- 2026-06-15 10:06 t1\n- 2026-06-15 10:08 o3\n"
        );
    }

    #[test]
    fn crlf_bom_and_unknown_lines_survive() {
        let base = format!(
            "{BOM}{}",
            BASE.replace("- [ ] b1\n", "- [ ] b1\nsome note\n<!-- hi -->\n")
                .replace('\n', "\r\n")
        );
        let ours = base.replace("- [ ] a1", "- [x] a1");
        let theirs = format!("{base}- 2026-06-15 14:30 x\r\n");
        let text = clean(&base, &ours, &theirs);
        assert_eq!(text, format!("{}- 2026-06-15 14:30 x\r\n", ours));
    }
}

/// The laws the driver must keep, on any text and on plans two sides grew apart.
#[cfg(test)]
mod laws {
    use std::collections::BTreeSet;

    use proptest::prelude::*;

    use super::merge;
    use crate::plan::model;

    fn text() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("# Plan: é".to_string()),
            Just("## Goal: Ü 🚀".to_string()),
            Just("## Goal: a".to_string()),
            Just("<!-- id: a -->".to_string()),
            Just("status: active".to_string()),
            Just("status: done".to_string()),
            Just("failure_modes:".to_string()),
            Just("- [ ] x".to_string()),
            Just("- [x] x".to_string()),
            Just("- y".to_string()),
            Just("## Log".to_string()),
            Just("## Archive".to_string()),
            Just("## Notes".to_string()),
            Just("- 2026-01-01 00:00 a signed off (x)".to_string()),
            Just("```".to_string()),
            Just("<!--".to_string()),
            Just(String::new()),
            "\\PC{0,8}",
        ];
        prop::collection::vec(
            (line, prop_oneof![Just("\n"), Just("\r\n"), Just("")]),
            0..24,
        )
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
    }

    /// A goal: id, status, subtasks (text, ticked).
    type Goal = (String, &'static str, Vec<(String, bool)>);

    /// A plan: goals and log lines, rendered as plan writes it.
    #[derive(Clone, Debug)]
    struct Model {
        goals: Vec<Goal>,
        log: Vec<String>,
    }

    impl Model {
        fn render(&self) -> String {
            let mut out = String::from("# Plan: laws\n\n");
            for (id, status, tasks) in &self.goals {
                out.push_str(&format!(
                    "## Goal: {id}\n<!-- id: {id} -->\nstatus: {status}\ndone_when: {id} works\n"
                ));
                for (t, done) in tasks {
                    out.push_str(&format!("- [{}] {t}\n", if *done { 'x' } else { ' ' }));
                }
                out.push('\n');
            }
            out.push_str("## Log\n");
            for l in &self.log {
                out.push_str(&format!("- {l}\n"));
            }
            out
        }
    }

    #[derive(Clone, Debug)]
    enum Op {
        Add,
        Tick(usize, usize),
        Status(usize, &'static str),
        Log,
    }

    fn ops() -> impl Strategy<Value = Vec<Op>> {
        let op = prop_oneof![
            Just(Op::Add),
            (0..6usize, 0..3usize).prop_map(|(g, t)| Op::Tick(g, t)),
            (0..6usize, prop_oneof![Just("active"), Just("done")])
                .prop_map(|(g, s)| Op::Status(g, s)),
            Just(Op::Log),
        ];
        prop::collection::vec(op, 0..8)
    }

    fn base() -> impl Strategy<Value = Model> {
        (
            prop::collection::vec(prop::collection::vec(any::<bool>(), 0..3), 0..4),
            0..4usize,
        )
            .prop_map(|(goals, logs)| Model {
                goals: goals
                    .into_iter()
                    .enumerate()
                    .map(|(i, ticks)| {
                        let tasks = ticks
                            .into_iter()
                            .enumerate()
                            .map(|(j, d)| (format!("t{j}"), d))
                            .collect();
                        (format!("g{i}"), "open", tasks)
                    })
                    .collect(),
                log: (0..logs)
                    .map(|i| format!("2026-01-01 00:{i:02} base {i}"))
                    .collect(),
            })
    }

    /// `side` grows the model: its own goal ids, its own stamps (ours on even
    /// minutes, theirs on odd ones, so the two interleave).
    fn grow(model: &Model, ops: &[Op], side: &str, odd: usize) -> Model {
        let mut m = model.clone();
        let mut minute = 10 + odd;
        for (n, op) in ops.iter().enumerate() {
            match op {
                Op::Add => m
                    .goals
                    .push((format!("{side}{n}"), "open", vec![("t0".into(), false)])),
                Op::Tick(g, t) => {
                    if let Some((_, _, tasks)) = m.goals.get_mut(*g)
                        && let Some(task) = tasks.get_mut(*t)
                    {
                        task.1 = true;
                    }
                }
                Op::Status(g, s) => {
                    if let Some(goal) = m.goals.get_mut(*g) {
                        goal.1 = s;
                    }
                }
                Op::Log => {
                    m.log.push(format!("2026-01-01 00:{minute:02} {side} {n}"));
                    minute += 2;
                }
            }
        }
        m
    }

    fn ids(src: &str) -> BTreeSet<String> {
        model::parse(src)
            .goals
            .iter()
            .map(|g| g.id.to_string())
            .collect()
    }

    /// The case the law below once shrank to: a side whose goal lost its blank line
    /// and whose file lost its final newline is taken as it is.
    #[test]
    fn a_side_without_its_final_newline_is_taken_as_it_is() {
        let b = "## Goal: \u{dc} \u{1f680}\n\n## Log\n";
        let x = "## Goal: \u{dc} \u{1f680}\n- 2026-01-01 00:00 a signed off (x)";
        assert_eq!(merge(b, x, b).text, x);
        assert_eq!(merge(b, b, x).text, x);
    }

    /// The order as it was placed before it was made linear: a search of the list for
    /// the item before, then an insert. The linked list must place items alike.
    fn order_by_search(b: &[u8], o: &[u8], t: &[u8]) -> Vec<u8> {
        use std::collections::HashSet;
        let (skeleton, others) = if o == b { (t, [o, b]) } else { (o, [t, b]) };
        let in_base: HashSet<&u8> = b.iter().collect();
        let mut out: Vec<u8> = skeleton.to_vec();
        let mut have: HashSet<u8> = out.iter().cloned().collect();
        for other in others {
            let mine: HashSet<&u8> = other.iter().collect();
            for (i, k) in other.iter().enumerate() {
                if have.contains(k) {
                    continue;
                }
                let mut at = other[..i]
                    .iter()
                    .rev()
                    .find_map(|p| out.iter().position(|x| x == p))
                    .map_or(0, |p| p + 1);
                while at < out.len() && !in_base.contains(&out[at]) && !mine.contains(&out[at]) {
                    at += 1;
                }
                out.insert(at, *k);
                have.insert(*k);
            }
        }
        out
    }

    /// Distinct keys in any order, some of them dropped.
    fn keys() -> impl Strategy<Value = Vec<u8>> {
        prop::collection::vec(0..24u8, 0..16).prop_map(|mut v| {
            let mut seen = std::collections::HashSet::new();
            v.retain(|k| seen.insert(*k));
            v
        })
    }

    proptest! {
        #[test]
        fn one_side_unchanged_gives_the_other(b in text(), x in text()) {
            prop_assert_eq!(merge(&b, &x, &b).text, x.clone());
            prop_assert_eq!(merge(&b, &b, &x).text, x);
        }

        /// Prose merged line by line (all of it before the first heading): a clean
        /// merge is the same whichever side is ours, and keeps every line a side
        /// added as often as that side has it more than the base.
        #[test]
        fn prose_merged_line_by_line_is_symmetric_and_keeps_what_each_side_added(
            b in prop::collection::vec(0..4u8, 0..8),
            o in prop::collection::vec(0..4u8, 0..8),
            t in prop::collection::vec(0..4u8, 0..8),
        ) {
            let text = |v: &[u8]| v.iter().map(|n| format!("line {n}\n")).collect::<String>();
            let (b, o, t) = (text(&b), text(&o), text(&t));
            let m = merge(&b, &o, &t);
            let swapped = merge(&b, &t, &o);
            prop_assert_eq!(m.conflicts.is_empty(), swapped.conflicts.is_empty());
            if !m.conflicts.is_empty() {
                return Ok(());
            }
            prop_assert_eq!(&m.text, &swapped.text);
            let count = |s: &str, l: &str| s.lines().filter(|x| *x == l).count();
            for n in 0..4 {
                let l = format!("line {n}");
                let added = count(&o, &l).saturating_sub(count(&b, &l))
                    .max(count(&t, &l).saturating_sub(count(&b, &l)));
                prop_assert!(count(&m.text, &l) >= added, "{}", m.text);
            }
        }

        #[test]
        fn the_linked_order_places_items_as_the_search_did(b in keys(), o in keys(), t in keys()) {
            prop_assert_eq!(super::order(&b, &o, &t), order_by_search(&b, &o, &t));
        }

        /// Whatever the three byte strings, the driver's answer is whole: a clean
        /// merge holds no marker or lone CR, and a left conflict keeps both sides.
        #[test]
        fn any_three_files_merge_whole(b in text(), o in text(), t in text(), cr in 0..3usize) {
            let lone = |s: &str, i: usize| if cr == i { format!("{s}x\ry\n") } else { s.to_string() };
            let (b, o, t) = (lone(&b, 0), lone(&o, 1), lone(&t, 2));
            let m = super::merge_files(b.as_bytes(), o.as_bytes(), t.as_bytes());
            let text = String::from_utf8(m.bytes).unwrap();
            prop_assert!(!m.conflicts.is_empty(), "a lone CR merged clean:\n{}", text);
            prop_assert!(text.contains(&o) && text.contains(&t));
        }
        /// Whatever the three texts, the driver answers: git waits on it.
        #[test]
        fn any_three_texts_merge(b in text(), o in text(), t in text()) {
            prop_assume!(![&b, &o, &t].iter().any(|s| s.contains(super::OURS)));
            let m = merge(&b, &o, &t);
            // Markers exactly where a conflict is reported.
            prop_assert_eq!(m.conflicts.is_empty(), !m.text.contains(super::OURS));
        }

        /// However each side's log grew (a rebase's upstream has lines before the
        /// base's), the merged log holds each side's lines in that side's order.
        #[test]
        fn each_side_s_log_is_kept_in_its_order(
            base in prop::collection::vec(0..60u32, 0..6),
            ours in prop::collection::vec((0..8usize, 0..60u32), 0..6),
            theirs in prop::collection::vec((0..8usize, 0..60u32), 0..6),
        ) {
            let line = |who: &str, i: usize, m: u32| format!("- 2026-01-01 10:{m:02} {who} {i}");
            let base: Vec<String> = base.iter().enumerate().map(|(i, m)| line("b", i, *m)).collect();
            let grow = |who: &str, adds: &[(usize, u32)]| {
                let mut log = base.clone();
                for (i, (at, m)) in adds.iter().enumerate() {
                    log.insert(at % (log.len() + 1), line(who, i, *m));
                }
                log
            };
            let (o, t) = (grow("o", &ours), grow("t", &theirs));
            let text = |log: &[String]| format!("# Plan: p\n\n## Log\n{}", log.iter().map(|l| format!("{l}\n")).collect::<String>());
            let m = merge(&text(&base), &text(&o), &text(&t));
            prop_assert!(m.conflicts.is_empty());
            let merged: Vec<&str> = m.text.lines().filter(|l| l.starts_with("- ")).collect();
            for side in [&o, &t] {
                let mut at = merged.iter();
                for l in side {
                    prop_assert!(at.any(|m| m == l), "{} out of order in\n{}", l, m.text);
                }
            }
            let mut unique = merged.clone();
            unique.sort();
            unique.dedup();
            prop_assert_eq!(unique.len(), merged.len());
        }

        #[test]
        fn parallel_work_merges_whole(b in base(), o in ops(), t in ops()) {
            let (ours, theirs) = (grow(&b, &o, "o", 0), grow(&b, &t, "t", 1));
            let (b, ours, theirs) = (b.render(), ours.render(), theirs.render());
            let m = merge(&b, &ours, &theirs);
            let plan = model::parse(&m.text);
            let union: BTreeSet<String> = ids(&ours).union(&ids(&theirs)).cloned().collect();
            prop_assert_eq!(ids(&m.text), union);
            let log: Vec<String> = plan.log.iter().map(|e| e.to_string()).collect();
            for side in [&ours, &theirs] {
                for entry in model::parse(side).log {
                    prop_assert_eq!(log.iter().filter(|l| **l == entry.to_string()).count(), 1);
                }
            }
            let mut sorted = log.clone();
            sorted.sort();
            prop_assert_eq!(&log, &sorted);
            // Only a status set differently on both sides is left to a person.
            for c in &m.conflicts {
                prop_assert_eq!(c.part.as_str(), "status");
            }
            if m.conflicts.is_empty() {
                prop_assert!(plan.errors.is_empty(), "{:?}\n{}", plan.errors, m.text);
            }
        }
    }
}

/// Attacks on the driver found in review: each names what it tried.
#[cfg(test)]
mod attacks {
    use super::merge;
    use crate::plan::model;

    const BASE: &str = "# Plan: x

## Goal: Alpha
<!-- id: alpha -->
status: active
done_when: alpha works
- [ ] a1
- [ ] a2

## Goal: Beta
<!-- id: beta -->
status: open
done_when: beta works
- [ ] b1

## Log
- 2026-06-15 14:00 alpha started (contract 00000000)
";

    /// Attack: goals with duplicated ids. Ours inserts a copy of alpha (same id, new
    /// title) before alpha; theirs ticks alpha's a2. Paired by occurrence, the tick
    /// landed in the copy and alpha's own a2 stayed open.
    #[test]
    fn a_goal_inserted_before_its_namesake_does_not_take_the_other_side_s_edits() {
        let ours = BASE.replacen(
            "## Goal: Alpha",
            "## Goal: Alpha copy\n<!-- id: alpha -->\nstatus: open\ndone_when: copy works\n- [ ] n1\n\n## Goal: Alpha",
            1,
        );
        let theirs = BASE.replace("- [ ] a2", "- [x] a2");
        let m = merge(BASE, &ours, &theirs);
        assert_eq!(m.conflicts, vec![], "{}", m.text);
        let copy = "## Goal: Alpha copy\n<!-- id: alpha -->\nstatus: open\ndone_when: copy works\n- [ ] n1\n\n";
        let alpha = "## Goal: Alpha\n<!-- id: alpha -->\nstatus: active\ndone_when: alpha works\n- [ ] a1\n- [x] a2\n\n";
        assert!(m.text.contains(&format!("{copy}{alpha}")), "{}", m.text);
    }

    /// Attack: every line both sides added, under awkward bytes (CRLF, a BOM, no final
    /// newline, unknown lines between goals, a fenced `## Goal:`), is in the result.
    #[test]
    fn awkward_bytes_lose_no_line_either_side_added() {
        let fenced = BASE.replace(
            "- [ ] a2\n",
            "- [ ] a2\nnotes:\n```md\n## Goal: Fake\n<!-- id: beta -->\nstatus: done\n```\n",
        );
        for base in [
            BASE.to_string(),
            BASE.replace('\n', "\r\n"),
            format!("\u{feff}{BASE}"),
            BASE.trim_end().to_string(),
            BASE.replace("## Goal: Beta", "stray words\n\n## Goal: Beta"),
            fenced,
        ] {
            let eol = if base.contains("\r\n") { "\r\n" } else { "\n" };
            let ours = base
                .replace("- [ ] a1", "- [x] a1")
                .replace("status: done", "status: done, ours");
            let theirs = format!(
                "{}{eol}- 2026-06-15 14:05 theirs{eol}",
                base.trim_end().replace("- [ ] b1", "- [x] b1")
            );
            let m = merge(&base, &ours, &theirs);
            assert_eq!(m.conflicts, vec![], "{}", m.text);
            for line in ["- [x] a1", "- [x] b1", "- 2026-06-15 14:05 theirs"] {
                assert!(m.text.contains(line), "{line} lost from\n{}", m.text);
            }
            if base.contains("Fake") {
                assert!(m.text.contains("status: done, ours"), "{}", m.text);
            }
            let plan = model::parse(&m.text);
            assert!(plan.goal("beta").unwrap().subtasks[0].done, "{}", m.text);
        }
    }
}

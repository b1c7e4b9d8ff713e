//! Rule `tests-skipped`, read by the tests a skip switches off and not by counts
//! of markers: for each file version, each test (and each row of a
//! parametrized one) with what switches it off (a marker on it, on its suite,
//! class or module, on the whole file; a `cfg` on the Rust `mod` it is in; the
//! `if` it is defined under). A change switches a test off anew when one that
//! ran somewhere before runs nowhere now, wherever the markers went: a suite's
//! skip spread onto its tests switches nothing off, a skip traded between two
//! rows of one table does. Tests keep their key across files by name (moved)
//! and, renamed, by their assertions; renamed and touched, by assertions that
//! share most of their names and numbers with one gone from the file
//! ([`touched`]). Where a test's conditions are not ones
//! this reading can compare (a condition new in other words, an `xfail` made
//! strict), or a version holds what it cannot place (a focus, an exit, a
//! redefinition, a parse error), the counts of markers and the conditions'
//! own rules still judge.

use std::collections::HashMap;
use std::ops::Range;

use super::{Lang, index, name_key, skip_sense, syntax};

/// How many conditions on one test are compared pairwise at most.
const MANY: usize = 32;

/// What switches one test (or row) off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Off {
    /// A marker with no condition: it runs nowhere.
    always: bool,
    /// Conditions under which it is skipped (normal form, wrappers taken off).
    when: Vec<String>,
    /// Conditions it runs under only (an `if` it is defined in).
    runs_if: Vec<String>,
    /// A skip in its body stops it after some of its checks ran: where the
    /// skip holds it still ran those ([`ran_nowhere`]).
    late: bool,
}

impl Off {
    fn merge(&mut self, other: &Off) {
        self.always |= other.always;
        self.late |= other.late;
        self.when.extend(other.when.iter().cloned());
        self.runs_if.extend(other.runs_if.iter().cloned());
    }

    /// How `self`, now, compares with `was`: where it ran before.
    fn against(&self, was: &Off) -> Verdict {
        if was.always {
            return Verdict::Same;
        }
        if self.always {
            return Verdict::Fewer;
        }
        if self.when.len() + self.runs_if.len() > MANY || was.when.len() + was.runs_if.len() > MANY
        {
            return Verdict::Unsure;
        }
        let skip_covered = |c: &String| {
            was.when.iter().any(|o| o == c || skip_sense::same(o, c))
                || was.runs_if.iter().any(|g| skip_sense::opposite(g, c))
        };
        let run_covered = |g: &String| {
            was.runs_if.iter().any(|o| o == g || skip_sense::same(o, g))
                || was.when.iter().any(|c| skip_sense::opposite(c, g))
        };
        if self.when.iter().all(skip_covered) && self.runs_if.iter().all(run_covered) {
            Verdict::Same
        } else {
            Verdict::Unsure
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Verdict {
    /// Runs where it ran (or never ran).
    Same,
    /// Ran somewhere, runs nowhere now.
    Fewer,
    /// Under a condition the model cannot compare: the conditions' own rules
    /// judge it.
    Unsure,
}

/// One test, or one row of a parametrized test.
#[derive(Debug)]
struct Entry {
    name: String,
    scope: String,
    /// The row's key ([`syntax::layout::Layout::rows`]); empty: the whole test.
    case: String,
    /// Its assertions in normal form: a test renamed keeps them.
    checks: Vec<String>,
    off: Off,
}

/// What the skips of one file version switch off.
#[derive(Debug, Default)]
pub(super) struct Offs {
    /// Every skip was placed on tests: no focus, exit or generator, nor a
    /// marker whose tests were not found.
    complete: bool,
    entries: Vec<Entry>,
}

/// The condition `c` without the wrappers its syntax puts round it
/// (`if (…)`, a call's `(arguments …)`).
fn core(c: &str) -> String {
    let c = c.trim();
    let c = (c.strip_prefix("if (").and_then(|x| x.strip_suffix(')')))
        .unwrap_or(c)
        .trim();
    let c = (c
        .strip_prefix("(arguments ")
        .and_then(|x| x.strip_suffix(')')))
    .unwrap_or(c)
    .trim();
    c.to_string()
}

/// The marker at `span` in `text` with its arguments (the brackets after it),
/// squeezed of whitespace.
fn marker_text(text: &str, span: &std::ops::Range<usize>) -> String {
    let head = text.get(span.clone()).unwrap_or("");
    let rest = text.get(span.end..).unwrap_or("");
    let mut depth = 0usize;
    let mut end = 0;
    if rest.starts_with('(') {
        // Bounded: a bracket left open reads no further than a marker could.
        for (k, ch) in rest.char_indices().take(2000) {
            match ch {
                '(' | '[' | '{' => depth += 1,
                ')' | ']' | '}' => depth = depth.saturating_sub(1),
                _ => {}
            }
            if depth == 0 {
                end = k + ch.len_utf8();
                break;
            }
        }
    }
    let whole = format!("{head}{}", &rest[..end]);
    whole.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line of `text` that holds byte `at`, squeezed of whitespace.
fn line_at(text: &str, at: usize) -> String {
    let from = text
        .get(..at)
        .and_then(|b| b.rfind('\n'))
        .map_or(0, |n| n + 1);
    let line = text
        .get(from..)
        .and_then(|l| l.split('\n').next())
        .unwrap_or("");
    line.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Puts `skip`, a marker in `text` (a `lang` file), on `off`.
fn apply(lang: Lang, text: &str, skip: &syntax::Skip, off: &mut Off) {
    let marker = || format!("marker {}", marker_text(text, &skip.span));
    // A marker whose condition the view does not read (a `pytestmark`'s
    // `skipif`) is its words: the same words are the same condition. So is a
    // module's marker that is not plain (`pytestmark = [...]`, one behind an
    // `if`): it may cover no test anywhere.
    let unread = (skip.condition.is_none()).then(|| {
        let module = lang == Lang::Python && skip.test.is_none() && !skip.guard;
        let plain = || format!("pytestmark = {}", marker_text(text, &skip.span));
        let head = text.get(skip.span.clone()).unwrap_or("");
        match module && line_at(text, skip.span.start) != plain() {
            true => Some(format!("line {}", line_at(text, skip.span.start))),
            false => head.to_ascii_lowercase().ends_with("if").then(marker),
        }
    });
    let condition = skip.condition.clone().or(unread.flatten());
    let condition = condition.as_deref();
    // One past [`MANY`] says there are many: more are not kept.
    let full = off.when.len() + off.runs_if.len() > MANY;
    let push = |list: &mut Vec<String>, c: String| {
        if !full {
            list.push(c);
        }
    };
    if skip.guard {
        let c = condition.unwrap_or("");
        match c.trim_start().starts_with("if (") {
            true => push(&mut off.runs_if, core(c)),
            false => push(&mut off.when, core(c)),
        }
    } else if skip.runs {
        // `xfail`'s strictness and `run=` are its words too.
        push(&mut off.when, marker());
    } else {
        match condition {
            None => off.always = true,
            Some(c) => push(&mut off.when, core(c)),
        }
    }
}

/// The Rust attribute that starts at `at` in `text`, squeezed of whitespace and
/// without `#[` and `]`, when it is a `cfg`.
fn cfg_at(text: &str, at: usize) -> Option<String> {
    let rest = text.get(at..)?.strip_prefix("#[")?;
    let mut depth = 0usize;
    let end = rest.char_indices().find_map(|(k, ch)| {
        match ch {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ']' if depth == 0 => return Some(k),
            _ => {}
        }
        None
    })?;
    let attr: String = rest[..end].chars().filter(|c| !c.is_whitespace()).collect();
    attr.starts_with("cfg(").then_some(attr)
}

/// Where a file's tests are, to place what switches them off: each test's
/// own [`Off`], and those of the scopes and the whole file, merged into each
/// test once at the end (a marker on a class of a thousand tests is put once).
struct Placing<'v> {
    tests: &'v [syntax::Test],
    by_name: HashMap<&'v str, Vec<usize>>,
    /// Tests by where they start, for the spans that hold them.
    starts: Vec<(usize, usize)>,
    own: Vec<Off>,
    scopes: HashMap<&'v str, Off>,
    /// Scope names that end more than one path (`TestLegacy` and
    /// `TestParser::TestLegacy`): a marker on one by name is not placed.
    twice: std::collections::HashSet<&'v str>,
    file: Off,
    complete: bool,
}

impl<'v> Placing<'v> {
    fn new(view: &'v syntax::View) -> Placing<'v> {
        let tests = &view.tests[..];
        let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
        let mut scopes: HashMap<&str, Off> = HashMap::new();
        let mut paths: HashMap<&str, &str> = HashMap::new();
        let mut twice = std::collections::HashSet::new();
        for (k, t) in tests.iter().enumerate() {
            by_name.entry(&t.name).or_default().push(k);
            let mut end = 0;
            for part in t.scope.split("::") {
                end += part.len();
                if !part.is_empty() {
                    scopes.entry(part).or_default();
                    let path = &t.scope[..end];
                    if *paths.entry(part).or_insert(path) != path {
                        twice.insert(part);
                    }
                }
                end += 2;
            }
        }
        let mut starts: Vec<(usize, usize)> = (tests.iter().enumerate())
            .map(|(k, t)| (t.span.start, k))
            .collect();
        starts.sort_unstable();
        Placing {
            tests,
            by_name,
            starts,
            own: vec![Off::default(); tests.len()],
            scopes,
            twice,
            file: Off::default(),
            // A version read with errors may have lost a marker to them.
            complete: view.clean
                && view.exits == 0
                && view.marks.switches == 0
                && !tests.iter().any(|t| t.yields)
                && !view.skips.iter().any(|s| s.focus)
                // Python keeps the last of two definitions of a name.
                && view.redefinitions.is_empty(),
        }
    }

    /// The tests whose definitions lie inside `span`.
    fn within(&self, span: &Range<usize>) -> Vec<usize> {
        let from = self.starts.partition_point(|(s, _)| *s < span.start);
        let to = (self.starts.partition_point(|(s, _)| *s < span.end)).max(from);
        (self.starts[from..to].iter())
            .filter(|(_, k)| self.tests[*k].span.end <= span.end)
            .map(|(_, k)| *k)
            .collect()
    }

    /// Of `ks`, tests of one name, the one a marker at `span` is on: the one
    /// alone, else the one that holds it, else the first after it (a
    /// decorator, an attribute). None: which is not known.
    fn namesake(&self, ks: &[usize], span: &Range<usize>) -> Option<usize> {
        if let [k] = ks {
            return Some(*k);
        }
        let holds = |k: &&usize| {
            let t = &self.tests[**k].span;
            t.start <= span.start && span.end <= t.end
        };
        let inner = ks
            .iter()
            .filter(holds)
            .max_by_key(|k| self.tests[**k].span.start);
        let next = || {
            (ks.iter())
                .filter(|k| self.tests[**k].span.start >= span.end)
                .min_by_key(|k| self.tests[**k].span.start)
        };
        inner.or_else(next).copied()
    }

    /// What switches each test off, its scopes' and the file's merged in.
    fn finish(mut self) -> (Vec<Off>, bool) {
        // Conditions are compared pairwise: past a few on one test (a file of
        // a thousand `pytestmark` lines) the counts judge, and the pass stays
        // linear.
        let many = |o: &Off| o.when.len() + o.runs_if.len() > MANY;
        if many(&self.file) || self.scopes.values().any(many) {
            self.complete = false;
            return (self.own, false);
        }
        for (t, off) in self.tests.iter().zip(&mut self.own) {
            off.merge(&self.file);
            for part in t.scope.split("::").filter(|p| !p.is_empty()) {
                if let Some(scope) = self.scopes.get(part) {
                    off.merge(scope);
                }
            }
        }
        (self.own, self.complete)
    }
}

/// The tests `text` (a `lang` file read as `view`) holds and what switches each
/// off. `ran`: the file's tests ran at all (one Cargo built, pytest collects).
pub(super) fn read(lang: Lang, text: &str, view: &syntax::View, ran: bool) -> Offs {
    let mut at = Placing::new(view);
    let layout = match lang {
        Lang::Python if python_layout_needed(text, view) => syntax::layout::python(text),
        _ => syntax::layout::Layout::default(),
    };
    // The rows of tables, each with its test and its own marks, in order.
    let mut rows: Vec<(Range<usize>, usize, String, Off)> = Vec::new();
    for (span, key) in &layout.rows {
        if let Some(&k) = within_test(&at.starts, at.tests, span) {
            rows.push((span.clone(), k, key.clone(), Off::default()));
        }
    }
    rows.sort_by_key(|r| r.0.start);
    for (span, condition) in &layout.guards {
        for k in at.within(span) {
            at.own[k].runs_if.push(condition.clone());
        }
    }
    for s in view.skips.iter().filter(|s| !s.nested && !s.focus) {
        let r = rows.partition_point(|r| r.0.start <= s.span.start);
        if let Some(row) = r.checked_sub(1).map(|r| &mut rows[r])
            && s.span.end <= row.0.end
        {
            apply(lang, text, s, &mut row.3);
            continue;
        }
        match &s.test {
            // On a test, or else on a class, module or suite of that name.
            Some(n) => match (
                at.by_name.get(n.as_str()).cloned(),
                at.scopes.get_mut(n.as_str()),
            ) {
                (Some(ks), _) => match at.namesake(&ks, &s.span) {
                    Some(k) => apply(lang, text, s, &mut at.own[k]),
                    None => {
                        ks.into_iter()
                            .for_each(|k| apply(lang, text, s, &mut at.own[k]));
                        at.complete = false;
                    }
                },
                (None, Some(scope)) => {
                    apply(lang, text, s, scope);
                    if at.twice.contains(n.as_str()) {
                        at.complete = false;
                    }
                }
                (None, None) => at.complete = false,
            },
            None => match at.within(&s.span) {
                ks if ks.is_empty() => apply(lang, text, s, &mut at.file),
                ks => ks
                    .into_iter()
                    .for_each(|k| apply(lang, text, s, &mut at.own[k])),
            },
        }
    }
    // A skip in a test's body after one of its assertions: the test ran that
    // far wherever the skip holds.
    for s in view.skips.iter().filter(|s| !s.nested && !s.focus) {
        if let Some(&k) = within_test(&at.starts, at.tests, &s.span) {
            let t = &at.tests[k];
            if t.span.start < s.span.start
                && t.assertions.iter().any(|a| a.span.start < s.span.start)
            {
                at.own[k].late = true;
            }
        }
    }
    if matches!(lang, Lang::Rust | Lang::Go) {
        unplaced_marks(text, view, &mut at);
    }
    let (mut offs, complete) = at.finish();
    if !ran {
        offs.iter_mut().for_each(|o| o.always = true);
    }
    let tests = &view.tests;
    let entry = |k: usize, case: String, off: Off| {
        let t = &tests[k];
        Entry {
            name: t.name.clone(),
            scope: t.scope.clone(),
            case,
            checks: t.assertions.iter().map(|a| a.normal.clone()).collect(),
            off,
        }
    };
    let mut has_rows = vec![false; tests.len()];
    let mut entries = Vec::with_capacity(tests.len() + rows.len());
    for (_, k, key, own) in rows {
        has_rows[k] = true;
        let mut off = offs[k].clone();
        off.merge(&own);
        entries.push(entry(k, key, off));
    }
    for (k, off) in offs.into_iter().enumerate() {
        if !has_rows[k] {
            entries.push(entry(k, String::new(), off));
        }
    }
    Offs { complete, entries }
}

/// The tests of `old` gone from `new` (by scope and name, every row of
/// them) that ran only under conditions, and only where the change says no
/// run happens any more: on no Python the grid knows, or only where a skip the
/// change took off a kept test held (a twin under the opposite condition made
/// unconditional; a kept test's `< (3, 5)` dropped as Python 2 goes). Each by
/// scope and name, with its assertions. A dropped skip is one a kept test (the
/// same row) had and lost, with none new in its place: a skip moved or bounded
/// otherwise says nothing. Both versions' skips must all be placed.
pub(super) fn ran_nowhere(old: &Offs, new: &Offs) -> Vec<(String, String, usize)> {
    if !old.complete || !new.complete {
        return Vec::new();
    }
    let place = |e: &Entry| (e.scope.clone(), e.name.clone(), e.case.clone());
    let now: HashMap<_, &Entry> = new.entries.iter().map(|e| (place(e), e)).collect();
    let has = |list: &[String], c: &String| list.iter().any(|o| o == c || skip_sense::same(o, c));
    // Each skip dropped, and each condition a kept test ran only under that it
    // no longer has (`true`: where it failed, the test was skipped).
    let mut dropped: Vec<(&String, bool)> = Vec::new();
    for e in &old.entries {
        let Some(n) = now.get(&place(e)) else {
            continue;
        };
        let (was, off) = (&e.off, &n.off);
        if off.always
            || off.when.iter().any(|c| !has(&was.when, c))
            || off.runs_if.iter().any(|c| !has(&was.runs_if, c))
        {
            continue;
        }
        let skips = (was.when.iter().filter(|c| !has(&off.when, c))).map(|c| (c, false));
        let guards = (was.runs_if.iter().filter(|c| !has(&off.runs_if, c))).map(|c| (c, true));
        for d in skips.chain(guards) {
            if dropped.len() < MANY && !dropped.contains(&d) {
                dropped.push(d);
            }
        }
    }
    let kept: std::collections::HashSet<(&str, &str)> = (new.entries.iter())
        .map(|e| (e.scope.as_str(), e.name.as_str()))
        .collect();
    // Each gone test with its rows, in the order written.
    let mut gone: Vec<(&str, &str, Vec<&Entry>)> = Vec::new();
    let mut at: HashMap<(&str, &str), usize> = HashMap::new();
    for e in old.entries.iter() {
        let k = (e.scope.as_str(), e.name.as_str());
        if kept.contains(&k) {
            continue;
        }
        let i = *at.entry(k).or_insert_with(|| {
            gone.push((k.0, k.1, Vec::new()));
            gone.len() - 1
        });
        gone[i].2.push(e);
    }
    // Each reading builds a grid: past a budget (thousands of tests deleted
    // beside many dropped skips), the rest stay losses, and the pass stays
    // linear with a small constant.
    let budget = std::cell::Cell::new(READS);
    let nowhere = |e: &Entry| {
        let off = &e.off;
        let within = |over: Option<(&str, bool)>| {
            let left = budget.get();
            budget.set(left.saturating_sub(1));
            left > 0 && skip_sense::runs_within(&off.when, &off.runs_if, over)
        };
        !off.always
            && !off.late
            && off.when.len() + off.runs_if.len() > 0
            && off.when.len() + off.runs_if.len() <= MANY
            && (within(None) || dropped.iter().any(|(d, guard)| within(Some((d, *guard)))))
    };
    gone.into_iter()
        .filter(|(_, _, rows)| rows.iter().all(|e| nowhere(e)))
        .map(|(scope, name, rows)| (scope.to_string(), name.to_string(), rows[0].checks.len()))
        .collect()
}

/// How many readings of a deleted test's conditions over the grid
/// [`ran_nowhere`] makes in one file at most.
const READS: usize = 4096;

/// Rust and Go: the marks the view's skips do not place, Rust's `cfg` on the
/// `mod` a test is in and Go's build constraints, put on their tests.
fn unplaced_marks(text: &str, view: &syntax::View, at: &mut Placing<'_>) {
    let placed: std::collections::HashSet<&str> = (view.skips.iter())
        .map(|s| s.test.as_deref().unwrap_or(""))
        .collect();
    for m in view
        .marks
        .skips
        .iter()
        .filter(|m| !placed.contains(m.owner.as_str()))
    {
        let Some(ks) = at.by_name.get(m.owner.as_str()) else {
            at.complete = false;
            continue;
        };
        match (m.outright, cfg_at(text, m.at)) {
            (true, _) => ks.iter().for_each(|&k| at.own[k].always = true),
            (false, Some(cfg)) => ks.iter().for_each(|&k| at.own[k].when.push(cfg.clone())),
            (false, None) => at.complete = false,
        }
    }
    for line in &view.marks.builds {
        let line = line.split_whitespace().collect::<Vec<_>>().join(" ");
        at.file.when.push(format!("build {line}"));
    }
}

/// Whether a Python file may hold what only its tree tells: a table's row
/// with its own marks, or a test defined under an `if` (indented at the top).
fn python_layout_needed(text: &str, view: &syntax::View) -> bool {
    let indented = |t: &syntax::Test| {
        let line = text
            .get(..t.span.start)
            .map_or(0, |b| b.rfind('\n').map_or(0, |n| n + 1));
        t.scope.is_empty() && t.span.start > line
    };
    text.contains("parametrize") || view.tests.iter().any(indented)
}

/// The test whose span holds `span` (the innermost: the last to start).
fn within_test<'a>(
    starts: &'a [(usize, usize)],
    tests: &[syntax::Test],
    span: &Range<usize>,
) -> Option<&'a usize> {
    let k = starts.partition_point(|(s, _)| *s <= span.start);
    starts[..k]
        .iter()
        .rev()
        .take(64)
        .find(|(_, t)| tests[*t].span.end >= span.end)
        .map(|(_, t)| t)
}

/// For each row of the change (its language, and its sides' [`Offs`]), how
/// many tests or rows that ran somewhere before run nowhere now, and whether
/// every test it holds runs where it ran (`clear`: no skip switched anything
/// off, however the markers moved).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Found {
    pub anew: usize,
    pub clear: bool,
}

type Sides<'a> = (Lang, Option<&'a Offs>, Option<&'a Offs>);

/// What each row's tests lost ([`Found`]): each test of its new side keyed to
/// the test it was, in the same file by name, else gone from another by name
/// (moved), else gone by its assertions (renamed); one with none is new.
pub(super) fn judge(rows: &[Sides<'_>]) -> Vec<Found> {
    // The tests gone from their file: by name (moved) and by assertions
    // (renamed), per language.
    let mut gone_names: [HashMap<String, Vec<&Entry>>; 4] = Default::default();
    let mut gone_checks: [HashMap<&[String], Vec<&Entry>>; 4] = Default::default();
    // The names of the new side's tests, in every file: one gone from its file
    // under a name found elsewhere moved there.
    let mut names: [std::collections::HashSet<String>; 4] = Default::default();
    for (lang, _, new) in rows {
        let all = new.iter().flat_map(|n| n.entries.iter());
        names[index(*lang)].extend(all.map(|e| name_key(&e.name)));
    }
    for (lang, old, new) in rows {
        let Some(old) = old else {
            continue;
        };
        let kept: std::collections::HashSet<&str> = new
            .iter()
            .flat_map(|n| n.entries.iter().map(|e| e.name.as_str()))
            .collect();
        for e in old
            .entries
            .iter()
            .filter(|e| !kept.contains(e.name.as_str()))
        {
            let k = index(*lang);
            gone_names[k].entry(name_key(&e.name)).or_default().push(e);
            if !e.checks.is_empty() {
                gone_checks[k].entry(&e.checks).or_default().push(e);
            }
        }
    }
    rows.iter()
        .map(|(lang, old, new)| {
            let Some(new) = new else {
                return Found::default();
            };
            let k = index(*lang);
            let mut mine: HashMap<&str, Vec<&Entry>> = HashMap::new();
            for e in old.iter().flat_map(|o| o.entries.iter()) {
                mine.entry(&e.name).or_default().push(e);
            }
            let mut found = Found {
                anew: 0,
                clear: new.complete && old.is_none_or(|o| o.complete),
            };
            let mut keys: HashMap<Key<'_>, (usize, usize)> = HashMap::new();
            for e in old.iter().flat_map(|o| o.entries.iter()) {
                keys.entry(key(e)).or_default().0 += 1;
            }
            for e in &new.entries {
                keys.entry(key(e)).or_default().1 += 1;
            }
            let mut unkeyed: Vec<&Entry> = Vec::new();
            for e in &new.entries {
                let candidates = mine
                    .get(e.name.as_str())
                    .or_else(|| gone_names[k].get(&name_key(&e.name)))
                    .or_else(|| gone_checks[k].get(e.checks.as_slice()));
                let Some(candidates) = candidates else {
                    unkeyed.push(e);
                    continue;
                };
                // Many tests of one name (a JavaScript `it("works")` in each
                // suite) are not told apart here: the counts judge them, and the
                // pass stays linear.
                if candidates.len() > 64 {
                    found.clear = false;
                    continue;
                }
                match verdict(e, candidates, &keys) {
                    None | Some(Verdict::Same) => {}
                    Some(v) => {
                        found.clear = false;
                        found.anew += usize::from(v == Verdict::Fewer);
                    }
                }
            }
            if let Some(old) = old {
                let (pairs, unsure) = touched(old, new, &names[k], &unkeyed);
                found.clear &= !unsure;
                for (e, was) in pairs {
                    match verdict(e, &was, &keys) {
                        None | Some(Verdict::Same) => {}
                        Some(v) => {
                            found.clear = false;
                            found.anew += usize::from(v == Verdict::Fewer);
                        }
                    }
                }
            }
            found
        })
        .collect()
}

/// Of `unkeyed`, the new side's tests keyed to none that was (new, or renamed
/// with their assertions touched), those switched off somewhere, each with the
/// tests gone from the file (their name found on no new test of the change
/// in `names`, their assertions on none of the file's) whose assertions are most like its own of all `unkeyed`: most of
/// their names and numbers shared ([`alike`]). A test renamed and touched
/// stays itself to its skips; a new one is paired with none, or with a gone
/// one more like another new test. `.1`: which it was is not known (a gone
/// test as like a new one switched off as another, or past [`PAIRED`] of
/// either): the counts judge.
fn touched<'a>(
    old: &'a Offs,
    new: &Offs,
    names: &std::collections::HashSet<String>,
    unkeyed: &[&'a Entry],
) -> (Vec<(&'a Entry, Vec<&'a Entry>)>, bool) {
    let off = |e: &Entry| e.off != Off::default();
    if !unkeyed.iter().any(|e| off(e)) {
        return (Vec::new(), false);
    }
    let checks: std::collections::HashSet<&[String]> =
        new.entries.iter().map(|e| e.checks.as_slice()).collect();
    let gone: Vec<&Entry> = (old.entries.iter())
        .filter(|g| !names.contains(&name_key(&g.name)))
        .filter(|g| g.checks.is_empty() || !checks.contains(g.checks.as_slice()))
        .collect();
    if gone.is_empty() {
        return (Vec::new(), false);
    }
    if gone.len() > PAIRED || unkeyed.len() > PAIRED {
        return (Vec::new(), true);
    }
    let theirs: Vec<Vec<&str>> = unkeyed.iter().map(|e| words(&e.checks)).collect();
    let mut paired: Vec<Vec<&Entry>> = vec![Vec::new(); unkeyed.len()];
    let mut unsure = false;
    for g in gone {
        let had = words(&g.checks);
        let scores: Vec<(usize, usize)> = (0..unkeyed.len())
            .filter(|i| unkeyed[*i].case == g.case)
            .map(|i| (alike(&had, &theirs[i]), i))
            .filter(|(score, _)| *score > 0)
            .collect();
        let Some(best) = scores.iter().map(|(score, _)| *score).max() else {
            continue;
        };
        match scores
            .iter()
            .filter(|(score, _)| *score == best)
            .collect::<Vec<_>>()[..]
        {
            [(_, i)] => paired[*i].push(g),
            ref tied => unsure |= tied.iter().any(|(_, i)| off(unkeyed[*i])),
        }
    }
    let pairs = (unkeyed.iter().zip(paired))
        .filter(|(e, was)| off(e) && !was.is_empty())
        .map(|(e, was)| (*e, was))
        .collect();
    (pairs, unsure)
}

/// How many tests gone and tests new a file may have for [`touched`] to pair
/// them: each gone one is compared with each new one.
const PAIRED: usize = 64;

/// The names and numbers of `checks` (the leaves of their normal forms),
/// sorted, each once; the first 256, to keep [`touched`]'s pairs cheap.
fn words(checks: &[String]) -> Vec<&str> {
    let mut out: Vec<&str> = (checks.iter())
        .flat_map(|c| c.split([' ', '(', ')', '\u{1}']))
        .filter_map(|leaf| {
            let (kind, value) = leaf.split_once('=')?;
            let kind_like =
                !kind.is_empty() && kind.bytes().all(|b| b.is_ascii_lowercase() || b == b'_');
            (kind_like && !value.is_empty()).then_some(value)
        })
        .take(256)
        .collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// How alike two tests' assertions are by their [`words`]: 0 unless they
/// share at least half of all they hold between them; then the more they
/// share, the higher.
fn alike(a: &[&str], b: &[&str]) -> usize {
    let shared = a.iter().filter(|w| b.binary_search(w).is_ok()).count();
    let all = a.len() + b.len() - shared;
    match shared * 2 >= all && shared > 0 {
        true => shared * 1000 / all.max(1),
        false => 0,
    }
}

/// Where a test (or row) is in its file version: scope, name and case.
type Key<'a> = (&'a str, &'a str, &'a str);

fn key(e: &Entry) -> Key<'_> {
    (e.scope.as_str(), e.name.as_str(), e.case.as_str())
}

/// How `e`, a new test or row, compares with the old one it was among
/// `candidates` (its namesakes, or a test gone by its assertions); `keys`
/// counts each key's entries on the old side and the new. None: it was none
/// of them (a new test or case). Where it is not clear which it was, Unsure:
/// the counts judge rather than a guess clear the file.
fn verdict(
    e: &Entry,
    candidates: &[&Entry],
    keys: &HashMap<Key<'_>, (usize, usize)>,
) -> Option<Verdict> {
    // An old entry whose key the new side still holds as often is itself now,
    // not the one `e` was.
    let stays = |c: &Entry| keys.get(&key(c)).is_some_and(|(o, n)| n >= o);
    let same_case: Vec<&Entry> = candidates
        .iter()
        .copied()
        .filter(|c| c.case == e.case)
        .collect();
    let pool: Vec<&Entry> = match (same_case.is_empty(), e.case.is_empty()) {
        (false, _) => same_case,
        (true, true) => candidates.to_vec(),
        // A row no version had is compared with the rows of the test gone
        // since (a case rewritten with its marker), else with the whole test
        // it was (one that ran is made parametrized); beside rows that all
        // stay, it is a case added, which the counts judge.
        (true, false) => {
            let gone: Vec<&Entry> = (candidates.iter().copied())
                .filter(|c| !c.case.is_empty() && !stays(c))
                .collect();
            let whole: Vec<&Entry> = (candidates.iter().copied())
                .filter(|c| c.case.is_empty())
                .collect();
            match (gone.is_empty(), whole.is_empty()) {
                (false, _) => gone,
                (true, false) => whole,
                (true, true) => {
                    let all = candidates
                        .iter()
                        .all(|c| e.off.against(&c.off) == Verdict::Same);
                    return (!all).then_some(Verdict::Unsure);
                }
            }
        }
    };
    let scoped: Vec<&Entry> = pool
        .iter()
        .copied()
        .filter(|c| c.scope == e.scope)
        .collect();
    let pool = match scoped.is_empty() {
        false => scoped,
        // Moved to another scope: a namesake that stays where it was is not
        // the one it was; of those gone, one with its assertions first.
        true => {
            let gone: Vec<&Entry> = pool.into_iter().filter(|c| !stays(c)).collect();
            let alike: Vec<&Entry> = (gone.iter().copied())
                .filter(|c| !c.checks.is_empty() && c.checks == e.checks)
                .collect();
            match alike.is_empty() {
                false => alike,
                true => gone,
            }
        }
    };
    let verdicts: Vec<Verdict> = pool.iter().map(|c| e.off.against(&c.off)).collect();
    let same = verdicts.iter().filter(|v| **v == Verdict::Same).count();
    Some(match same {
        _ if verdicts.is_empty() => return None,
        n if n == verdicts.len() => Verdict::Same,
        // Ran where one of the tests it may have been ran, not where another
        // did: which it was is not known.
        n if n > 0 => Verdict::Unsure,
        _ if verdicts.contains(&Verdict::Unsure) => Verdict::Unsure,
        _ => Verdict::Fewer,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn offs(path: &str, text: &str) -> Offs {
        let lang = Lang::of(path).unwrap_or(Lang::Python);
        super::super::view_of(path, text).map_or_else(Offs::default, |v| read(lang, text, &v, true))
    }

    fn judged(path: &str, before: &str, after: &str) -> Found {
        let lang = Lang::of(path).unwrap_or(Lang::Python);
        let (old, new) = (offs(path, before), offs(path, after));
        judge(&[(lang, Some(&old), Some(&new))])[0]
    }

    const TWO: &str = "import pytest\n\n\nclass TestA:\n    @pytest.mark.skip\n    def test_x(self):\n        assert a(1)\n\n\nclass TestB:\n    def test_x(self):\n        assert b(1)\n";

    #[test]
    fn a_marker_on_one_of_two_namesakes_switches_off_that_one_only() {
        let side = offs("tests/test_a.py", TWO);
        let off: Vec<(&str, bool)> = (side.entries.iter())
            .map(|e| (e.scope.as_str(), e.off.always))
            .collect();
        assert_eq!(off, [("TestA", true), ("TestB", false)]);
    }

    #[test]
    fn a_test_taken_out_of_its_class_still_running_is_clear() {
        let after = TWO.replace(
            "class TestB:\n    def test_x(self):\n        assert b(1)\n",
            "def test_x():\n    assert b(1)\n",
        );
        assert_eq!(
            judged("tests/test_a.py", TWO, &after),
            Found {
                anew: 0,
                clear: true
            }
        );
    }

    const ROWS: &str = "import pytest\n\n\n@pytest.mark.parametrize(\"a\", [1, 2])\ndef test_x(a):\n    assert f(a)\n";

    #[test]
    fn a_test_made_parametrized_still_running_is_clear() {
        let before = "import pytest\n\n\ndef test_x():\n    assert f(1)\n";
        assert_eq!(
            judged("tests/test_a.py", before, ROWS),
            Found {
                anew: 0,
                clear: true
            }
        );
    }

    #[test]
    fn a_row_added_under_a_skip_beside_rows_that_stay_is_left_to_the_counts() {
        let after = ROWS.replace("[1, 2]", "[1, 2, pytest.param(3, marks=pytest.mark.skip)]");
        assert_eq!(
            judged("tests/test_a.py", ROWS, &after),
            Found {
                anew: 0,
                clear: false
            }
        );
    }

    proptest! {
        /// Whatever the text, reading its skips never panics, and a version
        /// compared with itself switches nothing off anew.
        #[test]
        fn a_file_left_as_it_was_switches_nothing_off(parts in proptest::collection::vec(prop_oneof![
            Just("def test_a():\n"), Just("    assert x\n"), Just("@pytest.mark.skip\n"),
            Just("@pytest.mark.skipif(x, reason='r')\n"), Just("pytestmark = pytest.mark.skip"),
            Just("@pytest.mark.parametrize('a', [pytest.param(1, marks=pytest.mark.skip), (2,)"),
            Just("if x:\n"), Just("    "), Just("class TestA:\n"), Just("("), Just(")"), Just("]"),
            Just("it.skip('a', () => {"), Just("describe.skip('s', () => {"), Just("});\n"),
            Just("#[cfg(unix)]\nmod m {\n"), Just("#[test]\n#[ignore]\nfn a() {}\n"), Just("}\n"),
            Just("é"), Just("\\"), Just("xfail"),
        ], 0..30)) {
            let text = parts.concat();
            for path in ["tests/test_a.py", "a.test.ts", "tests/a.rs", "a_test.go"] {
                let side = offs(path, &text);
                let lang = Lang::of(path).unwrap_or(Lang::Python);
                let found = judge(&[(lang, Some(&side), Some(&side))]);
                prop_assert_eq!(found.iter().map(|f| f.anew).sum::<usize>(), 0);
            }
        }
    }
}

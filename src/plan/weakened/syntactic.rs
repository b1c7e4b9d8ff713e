//! What the syntax views of a file's two versions say that its tokens cannot: the
//! file means the same after a reformat, which tests kept their meaning, and four
//! switch-offs a scanner misses (a test in a macro nothing invokes, a test defined
//! again below itself, an assertion moved into a string, Go's `t` shadowed).
//! Pure; each finding's words name its kind as [`super::kinds`] reads them.

use std::collections::{HashMap, HashSet};

use super::rules::{Part, RuleId};
use super::{cfg_unset, plural};
use crate::plan::syntax::{self, Grammar, View};

/// The views of a file's version at the start and now.
pub(super) struct Pair {
    old: View,
    new: View,
    /// Both parsed clean. A grammar's gap (tree-sitter-rust reads
    /// `str![[r#"…"#]]` as an error) leaves the rest of a file, its tests'
    /// attributes and skips, read as they are; what compares whole bodies or
    /// hunts attacks needs both clean.
    clean: bool,
}

impl Pair {
    /// `None` when the path has no grammar, a side is missing or past the cap:
    /// then the tokens alone decide, as before.
    pub(super) fn of(path: &str, before: Option<&str>, after: Option<&str>) -> Option<Pair> {
        let (grammar, before, after) = (Grammar::of(path)?, before?, after?);
        let old = syntax::view(grammar, before)?;
        let new = syntax::view(grammar, after)?;
        Some(Pair::new(old, new))
    }

    /// The pair of views already read.
    pub(super) fn new(old: View, new: View) -> Pair {
        let clean = old.clean && new.clean;
        Pair { old, new, clean }
    }

    /// Whether nothing a test or runner can see changed: formatting, comments,
    /// quotes, trailing commas, import order and the order of definitions only.
    pub(super) fn same(&self) -> bool {
        self.clean && self.old.unordered == self.new.unordered
    }

    /// The tests whose every definition (by name) reads the same before and after:
    /// their assertions are no one's to pair with another test's.
    pub(super) fn unchanged_tests(&self) -> HashSet<String> {
        if !self.clean {
            return HashSet::new();
        }
        let (old, new) = (bodies(&self.old), bodies(&self.new));
        old.into_iter()
            .filter(|(name, list)| new.get(name) == Some(list))
            .map(|(name, _)| name.to_string())
            .collect()
    }

    /// The old side's tests that a later definition of the same name hid and
    /// that are hidden no longer (the earlier definition deleted), with their
    /// assertions: Python keeps the last definition, so the earlier one never
    /// ran, and deleting it removes nothing that ran. A test newly hidden is
    /// [`Pair::redefined`]'s.
    pub(super) fn shadowed_gone(&self) -> (usize, usize) {
        if !self.clean {
            return (0, 0);
        }
        let old = &self.old;
        old.redefinitions
            .iter()
            .filter(|r| {
                old.tests
                    .iter()
                    .any(|t| t.name == r.name && t.scope == r.scope)
            })
            .filter(|r| {
                !self
                    .new
                    .redefinitions
                    .iter()
                    .any(|n| n.name == r.name && n.scope == r.scope)
            })
            .fold((0, 0), |(t, a), r| (t + 1, a + r.first_assertions))
    }

    /// The old side's tests gone by name whose every line of body the new
    /// version still holds as often as the old did (`before` and `after` the
    /// texts the views were read from): tests merged into another, or run in
    /// series from one test under their own names. Whether their assertions
    /// still run is the caller's to tell: a line kept in a string, a function
    /// nothing calls or a skipped test is kept, and runs nowhere.
    pub(super) fn folded(&self, before: &str, after: &str) -> Vec<String> {
        let bodies = |v: &View, text: &str| -> Vec<(String, Vec<String>)> {
            if !v.marks.tests.is_empty() {
                let body = |t: &syntax::Marked| t.body.clone().and_then(|r| text.get(r));
                return (v.marks.tests.iter())
                    .filter_map(|t| Some((t.name.clone(), keyed(body(t)?).collect())))
                    .collect();
            }
            // A definition's first line is its name's, which went.
            let body = |t: &syntax::Test| text.get(t.span.clone()).map(|d| d.lines().skip(1));
            (v.tests.iter())
                .filter_map(|t| Some((t.name.clone(), body(t)?.filter_map(key).collect())))
                .collect()
        };
        let now: HashSet<&str> = (self.new.marks.tests.iter().map(|t| t.name.as_str()))
            .chain(self.new.tests.iter().map(|t| t.name.as_str()))
            .collect();
        let gone: Vec<(String, Vec<String>)> = bodies(&self.old, before)
            .into_iter()
            .filter(|(name, lines)| {
                !name.is_empty() && !now.contains(name.as_str()) && !lines.is_empty()
            })
            .collect();
        if gone.is_empty() {
            return Vec::new();
        }
        let mut lost: HashMap<String, isize> = HashMap::new();
        for line in keyed(before) {
            *lost.entry(line).or_default() += 1;
        }
        for line in keyed(after) {
            *lost.entry(line).or_default() -= 1;
        }
        gone.into_iter()
            .filter(|(_, lines)| lines.iter().all(|l| lost.get(l).is_none_or(|n| *n <= 0)))
            .map(|(name, _)| name)
            .collect()
    }

    /// How many assertions that repeated the statement right before them word
    /// for word ([`syntax::Test::repeats`]) the old side has more than the new:
    /// twins deleted, which checked nothing their first did not.
    pub(super) fn repeats_gone(&self) -> usize {
        if !self.clean {
            return 0;
        }
        let sum = |v: &View| v.tests.iter().map(|t| t.repeats).sum::<usize>();
        sum(&self.old).saturating_sub(sum(&self.new))
    }

    /// The switch-offs new since the start, in words. `invoked`: whether a Rust
    /// macro of the name is invoked in another changed file, where a suite moved
    /// into a macro for several backends is run.
    pub(super) fn switch_offs(&self, invoked: impl Fn(&str) -> bool) -> Vec<Part> {
        let removed = RuleId::AssertionsRemoved;
        let skips = self
            .skips_widened()
            .map(|w| Part::new(RuleId::TestsSkipped, w));
        let gated = self.gated_now().map(|w| Part::new(RuleId::TestsSkipped, w));
        if !self.clean {
            return skips.into_iter().chain(gated).collect();
        }
        [
            self.in_dead_macro(invoked).map(|w| Part::new(removed, w)),
            self.redefined().map(|w| Part::new(removed, w)),
            self.moved_into_strings().map(|w| Part::new(removed, w)),
            self.t_shadowed()
                .map(|w| Part::new(RuleId::AssertionsHollowed, w)),
            skips,
            gated,
        ]
        .into_iter()
        .flatten()
        .collect()
    }

    /// Rust: tests that were real now only in a `macro_rules!` no code invokes.
    fn in_dead_macro(&self, invoked: impl Fn(&str) -> bool) -> Option<String> {
        let mut was: HashSet<&str> = self.old.tests.iter().map(|t| t.name.as_str()).collect();
        for m in self.old.macros.iter().filter(|m| m.invoked) {
            was.extend(m.tests.iter().map(String::as_str));
        }
        let real: HashSet<&str> = self.new.tests.iter().map(|t| t.name.as_str()).collect();
        let mut gone: Vec<&str> = self
            .new
            .macros
            .iter()
            .filter(|m| !m.invoked && !invoked(&m.name))
            .flat_map(|m| m.tests.iter().map(String::as_str))
            .filter(|t| was.contains(t) && !real.contains(t))
            .collect();
        gone.sort_unstable();
        gone.dedup();
        (!gone.is_empty()).then(|| {
            format!(
                "{} into a macro_rules! nothing invokes ({})",
                removed(gone.len(), "test"),
                gone.join(" ")
            )
        })
    }

    /// Python: a test that was there defined again below itself in its scope with
    /// fewer assertions; the last definition is the one that runs.
    fn redefined(&self) -> Option<String> {
        let had: HashSet<(&str, &str)> = self
            .old
            .redefinitions
            .iter()
            .map(|r| (r.scope.as_str(), r.name.as_str()))
            .collect();
        let tests: HashSet<(&str, &str)> = self
            .old
            .tests
            .iter()
            .map(|t| (t.scope.as_str(), t.name.as_str()))
            .collect();
        let mut hidden: Vec<&str> = self
            .new
            .redefinitions
            .iter()
            .filter(|r| r.first_assertions > r.last_assertions)
            .filter(|r| tests.contains(&(r.scope.as_str(), r.name.as_str())))
            .filter(|r| !had.contains(&(r.scope.as_str(), r.name.as_str())))
            .map(|r| r.name.as_str())
            .collect();
        hidden.dedup();
        (!hidden.is_empty()).then(|| {
            format!(
                "{} by a later definition of the same name ({})",
                removed(hidden.len(), "test"),
                hidden.join(" ")
            )
        })
    }

    /// Assertions of a test that kept its name, gone from it, whose text is now
    /// inside a string literal that was not there.
    fn moved_into_strings(&self) -> Option<String> {
        let squeeze = |s: &str| s.split_whitespace().collect::<String>();
        let old_strings: HashSet<String> = self.old.strings.iter().map(|s| squeeze(s)).collect();
        let fresh: Vec<String> = self
            .new
            .strings
            .iter()
            .map(|s| squeeze(s))
            .filter(|s| !old_strings.contains(s))
            .collect();
        if fresh.is_empty() {
            return None;
        }
        let total: usize = self.old.tests.iter().map(|t| t.assertions.len()).sum();
        let mut moved = 0;
        for old in &self.old.tests {
            let Some(new) = self
                .new
                .tests
                .iter()
                .find(|t| t.name == old.name && t.scope == old.scope)
            else {
                continue;
            };
            let mut left: Vec<&str> = new.assertions.iter().map(|a| a.normal.as_str()).collect();
            for a in &old.assertions {
                if let Some(i) = left.iter().position(|n| *n == a.normal) {
                    left.swap_remove(i);
                } else if fresh.iter().any(|s| s.contains(&squeeze(&a.text))) {
                    moved += 1;
                }
            }
        }
        (moved > 0).then(|| {
            format!(
                "{moved} of {} removed (moved into a string)",
                plural(total, "assertion")
            )
        })
    }

    /// Whether `skip` is unconditional where every skip its test (or the file)
    /// had at the start was under a condition: `if !isWindows() { t.SkipNow() }`
    /// become `t.SkipNow()`, `skipif(c)` become `skip`. The count of markers
    /// stays; the condition widened to always.
    fn made_unconditional(&self, skip: &syntax::Skip) -> bool {
        if skip.condition.is_some() || skip.nested || skip.runs || skip.focus {
            return false;
        }
        let test = skip.test.as_deref();
        if test.is_some_and(|name| !self.old.tests.iter().any(|t| t.name == name)) {
            return false;
        }
        let mut had = self.old.skips.iter().filter(|s| s.test.as_deref() == test);
        let first = had.next();
        first.is_some_and(|s| s.condition.is_some() && !s.runs)
            && had.all(|s| s.condition.is_some() && !s.runs)
    }

    /// Tests that were there and now stop, or are not built, under a condition
    /// they did not before ([`Pair::fresh`]), or always where they stopped only
    /// under one ([`Pair::made_unconditional`]), by name; "" for the whole file.
    fn skips_widened(&self) -> Option<String> {
        let kept = self
            .new
            .tests
            .iter()
            .filter(|t| self.old.tests.iter().any(|o| o.name == t.name))
            .count();
        let mut names: Vec<&str> = Vec::new();
        let mut file_wide = false;
        for skip in self
            .new
            .skips
            .iter()
            .filter(|s| self.fresh(s) || self.made_unconditional(s))
        {
            match skip.test.as_deref() {
                Some(name) => names.push(name),
                None => file_wide = kept > 0,
            }
        }
        names.sort_unstable();
        names.dedup();
        let n = if file_wide { kept } else { names.len() };
        if n == 0 {
            return None;
        }
        let which = match file_wide {
            true => "every test in the file".to_string(),
            false => names.join(" "),
        };
        Some(format!(
            "a skip marker's condition added or widened on {} that ran before ({which})",
            plural(n, "test")
        ))
    }

    /// The tests that were there whose every skip now is a conditional Rust
    /// attribute and no fresh one ([`Pair::fresh`]): a marker the tokens count on one (a `#[cfg]`
    /// moved from a statement of the test onto it, a condition narrowed) switches
    /// off nothing that ran.
    ///
    /// And, beside them, the tests a Python module's `pytestmark` at its top
    /// (`before`, the old side's text) already marked with no condition, whose
    /// every marker now runs no less than it did ([`Pair::module_marker`]): the
    /// module's marker spread onto the tests that still need it.
    pub(super) fn settled_skips(&self, before: Option<&str>) -> HashSet<String> {
        let mut out = HashSet::new();
        let module = before.and_then(|b| self.module_marker(b));
        for t in &self.new.tests {
            if !self.old.tests.iter().any(|o| o.name == t.name) {
                continue;
            }
            let mine: Vec<&syntax::Skip> = self
                .new
                .skips
                .iter()
                .filter(|s| s.test.as_deref() == Some(t.name.as_str()))
                .collect();
            // Only Rust's attributes: elsewhere the tokens count a test's other
            // skips (a table row's `skip: true`) beside the view's conditions.
            let attribute = |s: &syntax::Skip| {
                s.condition
                    .as_deref()
                    .is_some_and(|c| c.starts_with("cfg(") || c.starts_with("cfg_attr("))
            };
            if !mine.is_empty() && mine.iter().all(|s| attribute(s) && !self.fresh(s)) {
                out.insert(t.name.clone());
            }
            // `xfail` where the module's was `xfail`; anything where it was `skip`.
            let no_less = |s: &&syntax::Skip| module.is_some_and(|runs| s.runs || !runs);
            let spread = |s: &&syntax::Skip| !s.focus && !s.guard && !s.nested;
            if !mine.is_empty() && mine.iter().all(|s| no_less(s) && spread(s)) {
                out.insert(t.name.clone());
            }
        }
        out
    }

    /// Whether the old side's module marks all its tests with no condition, by
    /// a `pytestmark =` at its top (not a class's): `Some(true)` when every such
    /// marker runs its tests still (`xfail`), `Some(false)` when one runs them
    /// nowhere (`skip`).
    fn module_marker(&self, before: &str) -> Option<bool> {
        let top = |s: &syntax::Skip| {
            let start = before[..s.span.start.min(before.len())]
                .rfind('\n')
                .map_or(0, |n| n + 1);
            // The marker's whole statement: the view's span may end at the
            // mark's name, before its arguments.
            let rest = &before[start..];
            let end = (rest.match_indices('\n'))
                .find(|(i, _)| rest[i + 1..].starts_with(|c: char| !c.is_whitespace()))
                .map_or(rest.len(), |(i, _)| i);
            rest.starts_with("pytestmark") && unconditional(&rest[..end])
        };
        let wide: Vec<&syntax::Skip> = (self.old.skips.iter())
            .filter(|s| s.test.is_none() && s.condition.is_none() && !s.guard && !s.focus)
            .filter(|s| before.is_char_boundary(s.span.start.min(before.len())) && top(s))
            .collect();
        (!wide.is_empty()).then(|| wide.iter().all(|s| s.runs))
    }

    /// Whether `skip`, a conditional one of the new side, stops a test that was
    /// there (or the whole file) under a condition it did not before: a
    /// `skipif`, `cfg`, `cfg_attr(…, ignore)`, `skipIf`, `if … { t.Skip() }` or
    /// `if … { return }` on a test that had none, or one whose condition keeps
    /// every word an old one had and adds some (`any(windows, feature = "x")`
    /// where it was `windows`). Not fresh: a condition rewritten into other
    /// words (no reading tells wider from narrower), one the test's body was
    /// already partly gated on (`#[cfg(feature = "x")]` on a statement, with no
    /// statement under its complement beside it), one
    /// whose complement gates a variant of the same name or a new test
    /// (`cfg(not(windows))` beside a new `cfg(windows)` one: it still runs
    /// everywhere), and any on a test skipped outright before.
    fn fresh<'a>(&'a self, skip: &'a syntax::Skip) -> bool {
        let Some(condition) = skip.condition.as_deref().filter(|_| !skip.nested) else {
            return false;
        };
        let test = skip.test.as_deref();
        let was = |name: &str| self.old.tests.iter().any(|t| t.name == name);
        if test.is_some_and(|name| !was(name)) {
            return false;
        }
        let words = skip.words();
        let on = |v: &'a View| v.skips.iter().filter(move |s| s.test.as_deref() == test);
        // A cfg on a name never set (`not(darwin)`) switches nothing off: put on
        // a test it says the author meant to, one for another such name (`osx`)
        // changes nothing, and the old one is read as no condition at all.
        let inert = |s: &syntax::Skip| {
            s.condition
                .as_deref()
                .is_some_and(cfg_unset::runs_everywhere)
        };
        if inert(skip) && on(&self.old).any(inert) {
            return false;
        }
        if on(&self.old).any(|s| s.condition.is_none() || s.condition == skip.condition) {
            return false;
        }
        // The old conditions gone now: the new one may be one of them rewritten.
        let gone: Vec<Vec<&str>> = on(&self.old)
            .filter(|s| !on(&self.new).any(|n| n.condition == s.condition))
            .filter(|s| !inert(s))
            .map(syntax::Skip::words)
            .collect();
        let joined = |c: &str, ops: [&str; 3]| {
            c.split(|ch: char| ch.is_whitespace() || ch == '(' || ch == ',')
                .any(|w| ops.contains(&w))
        };
        // Words added under `and` narrow a condition that skips and widen one
        // that runs (`cfg(all(not(windows), …))`, a JS test's `if (… && …)`);
        // under `or`, the other way.
        let runs = condition.starts_with("cfg(") || condition.starts_with("if (");
        let adds = |had: &[&str]| {
            let old: Vec<&syntax::Skip> = on(&self.old)
                .filter(|s| s.words().as_slice() == had)
                .collect();
            let was = |ops| {
                old.iter()
                    .any(|s| joined(s.condition.as_deref().unwrap_or(""), ops))
            };
            let and = ["&&", "and", "all"];
            let or = ["||", "or", "any"];
            let (conj, disj) = (
                joined(condition, and) && !was(and),
                joined(condition, or) && !was(or),
            );
            match runs {
                true => conj || !disj,
                false => disj || !conj,
            }
        };
        let widened = gone.is_empty()
            || gone.iter().any(|had| {
                had.iter().all(|w| words.contains(w))
                    && !words.iter().all(|w| had.contains(w))
                    && adds(had)
            }) && !gone.iter().any(|had| words.iter().all(|w| had.contains(w)));
        // Gated only where the body had no branch for the rest (a statement under
        // `cfg(windows)` beside one under `cfg(not(windows))` ran everywhere).
        let complement = complement(condition);
        let gated = test.is_some_and(|name| {
            self.old.tests.iter().any(|t| {
                t.name == name
                    && t.gates.iter().any(|g| g == condition)
                    && !t.gates.iter().any(|g| Some(g) == complement.as_ref())
            })
        });
        let elsewhere = complement.is_some_and(|other| {
            self.new.skips.iter().any(|s| {
                s.condition.as_deref() == Some(other.as_str())
                    && s.test
                        .as_deref()
                        .is_some_and(|name| Some(name) == test || !was(name))
            })
        });
        widened && !gated && !elsewhere
    }

    /// Rust: statements of a test that was there, which ran wherever it did, now
    /// under a `#[cfg(…)]` inside it that the test had none of and with no
    /// statement under its complement beside them: that part of the test is
    /// switched off where the condition fails. Statements new under a gate,
    /// or a gate the test already had, are not. So are the assertions of a
    /// helper a test calls ([`syntax::View::helpers`]): `cfg(windows)` makes
    /// the check conditional, and a condition that never holds
    /// (`cfg(all(unix, windows))`) is read the same, the check gone wherever
    /// it fails.
    fn gated_now(&self) -> Option<String> {
        let mut moved = 0;
        let mut names: Vec<&str> = Vec::new();
        let mut conditions: Vec<&str> = Vec::new();
        // Sets, so a test of many gated statements is read in linear time.
        let olds: HashMap<(bool, &str), Gated<'_>> =
            gated(&self.old).map(|g| ((g.helper, g.name), g)).collect();
        for t in gated(&self.new).filter(|t| !t.gated.is_empty()) {
            let Some(old) = olds.get(&(t.helper, t.name)) else {
                continue;
            };
            let old_gates: HashSet<&str> = old.gates.iter().map(String::as_str).collect();
            let new_gates: HashSet<&str> = t.gates.iter().map(String::as_str).collect();
            let ran: HashSet<&str> = old.ungated.iter().map(String::as_str).collect();
            let runs: HashSet<&str> = t.ungated.iter().map(String::as_str).collect();
            for (condition, statement) in t.gated {
                let cfg = condition.as_str();
                let branch = complement(cfg).is_some_and(|c| new_gates.contains(c.as_str()));
                if old_gates.contains(cfg)
                    || branch
                    || !ran.contains(statement.as_str())
                    || runs.contains(statement.as_str())
                {
                    continue;
                }
                moved += 1;
                if names.last() != Some(&t.name) {
                    names.push(t.name);
                }
                if !conditions.contains(&cfg) {
                    conditions.push(cfg);
                }
            }
        }
        (moved > 0).then(|| {
            format!(
                "{} of {} put under `#[{}]` where it ran everywhere (switches tests off where the condition fails)",
                plural(moved, "statement"),
                names.join(" "),
                conditions.join("`, `#[")
            )
        })
    }

    /// Go: a test's `*testing.T` rebound inside it to another value, so what its
    /// checks call is that value's.
    fn t_shadowed(&self) -> Option<String> {
        let was: HashSet<&str> = self
            .old
            .tests
            .iter()
            .filter(|t| t.shadowed.is_empty())
            .map(|t| t.name.as_str())
            .collect();
        let names: Vec<&str> = self
            .new
            .tests
            .iter()
            .filter(|t| !t.shadowed.is_empty() && !t.assertions.is_empty())
            .filter(|t| was.contains(t.name.as_str()))
            .map(|t| t.name.as_str())
            .collect();
        (!names.is_empty()).then(|| {
            let (k, them) = match names.len() {
                1 => ("1 test".to_string(), "its"),
                n => (format!("{n} tests"), "their"),
            };
            format!(
                "the testing.T shadowed in {k} so {them} assertions check nothing ({})",
                names.join(" ")
            )
        })
    }
}

/// A Rust test's or check helper's statements, by whether a `#[cfg(…)]` gates
/// them ([`syntax::Test::gated`]).
struct Gated<'v> {
    helper: bool,
    name: &'v str,
    gates: &'v [String],
    gated: &'v [(String, String)],
    ungated: &'v [String],
}

/// The tests of `v`, then its check helpers, as [`Gated`].
fn gated(v: &View) -> impl Iterator<Item = Gated<'_>> {
    let tests = v.tests.iter().map(|t| Gated {
        helper: false,
        name: &t.name,
        gates: &t.gates,
        gated: &t.gated,
        ungated: &t.ungated,
    });
    tests.chain(v.helpers.iter().map(|h| Gated {
        helper: true,
        name: &h.name,
        gates: &h.gates,
        gated: &h.gated,
        ungated: &h.ungated,
    }))
}

/// `cfg(x)` of `cfg(not(x))` and the other way round.
fn complement(condition: &str) -> Option<String> {
    let inner = condition.strip_prefix("cfg(")?.strip_suffix(')')?;
    Some(
        match inner.strip_prefix("not(").and_then(|x| x.strip_suffix(')')) {
            Some(x) => format!("cfg({x})"),
            None => format!("cfg(not({inner}))"),
        },
    )
}

/// Each test name's bodies in normal form, sorted.
fn bodies(v: &View) -> HashMap<&str, Vec<&str>> {
    let mut by: HashMap<&str, Vec<&str>> = HashMap::new();
    for t in &v.tests {
        by.entry(t.name.as_str()).or_default().push(t.body.as_str());
    }
    for list in by.values_mut() {
        list.sort_unstable();
    }
    by
}

/// Whether a pytest marker's call (`pytest.mark.xfail(reason='…', strict=False)`)
/// holds no condition: its arguments, strings taken out, are only `reason`,
/// `strict` and `raises` by keyword. A condition (`xfail(sys.platform ==
/// 'win32')`) or `run=False` is none of them.
fn unconditional(marker: &str) -> bool {
    let Some((_, args)) = marker.split_once('(') else {
        return true;
    };
    let mut bare = String::new();
    let mut quote = None;
    for c in args.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '"' || c == '\'' => quote = Some(c),
            None => bare.push(c),
        }
    }
    bare.trim_end()
        .trim_end_matches(')')
        .split(',')
        .map(str::trim)
        .all(|a| {
            a.is_empty()
                || ["reason", "strict", "raises"].iter().any(|k| {
                    a.strip_prefix(k)
                        .is_some_and(|rest| rest.trim_start().starts_with('='))
                })
        })
}

/// Each line of `text` that says something, trimmed, its whitespace runs one space.
fn keyed(text: &str) -> impl Iterator<Item = String> + '_ {
    text.lines().filter_map(key)
}

/// A line's key for [`Pair::folded`]; none for a line of brackets alone.
fn key(line: &str) -> Option<String> {
    line.chars()
        .any(char::is_alphanumeric)
        .then(|| line.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// `1 test removed`, `2 tests removed`: the words [`super::kinds`] reads as
/// tests removed.
fn removed(n: usize, word: &str) -> String {
    format!("{} removed", plural(n, word))
}

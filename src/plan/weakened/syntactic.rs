//! What the syntax views of a file's two versions say that its tokens cannot: the
//! file means the same after a reformat, which tests kept their meaning, and four
//! switch-offs a scanner misses (a test in a macro nothing invokes, a test defined
//! again below itself, an assertion moved into a string, Go's `t` shadowed).
//! Pure; each finding's words name its kind as [`super::kinds`] reads them.

use std::collections::{HashMap, HashSet};

use super::rules::{Part, RuleId};
use super::{cfg_unset, plural, skip_sense};
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
        self.old.means_same(&self.new)
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

    /// The old side's tests gone by name whose body still runs from a test
    /// (`before` and `after` the texts the views were read from): merged, its
    /// lines whole and in order inside one test of the new side; or run in
    /// series under its own name, its lines whole and in order in the new file
    /// and its name called on a line of its own at the top of a test's body,
    /// before any `return` there. Each with the test that now runs it. Whether
    /// its assertions still run is the caller's to tell: lines kept in a string
    /// are kept, and run nowhere.
    pub(super) fn folded(&self, before: &str, after: &str) -> Vec<(String, String)> {
        let old = body_lines(&self.old, before);
        let now: HashSet<&str> = (self.new.marks.tests.iter().map(|t| t.name.as_str()))
            .chain(self.new.tests.iter().map(|t| t.name.as_str()))
            .collect();
        let gone: Vec<&(String, Vec<&str>)> = (old.iter())
            .filter(|(name, _)| !name.is_empty() && !now.contains(name.as_str()))
            .filter(|(_, lines)| lines.iter().any(|l| key(l).is_some()))
            .collect();
        if gone.is_empty() {
            return Vec::new();
        }
        let new = body_lines(&self.new, after);
        let keyed_new: Vec<Vec<String>> = (new.iter())
            .map(|(_, lines)| lines.iter().filter_map(|l| key(l)).collect())
            .collect();
        let file: Vec<String> = keyed(after).collect();
        let within = Runs::of(keyed_new.iter().map(Vec::as_slice));
        let anywhere = Runs::of(std::iter::once(file.as_slice()));
        gone.into_iter()
            .filter_map(|(name, lines)| {
                let lines: Vec<String> = lines.iter().filter_map(|l| key(l)).collect();
                let called = || new.iter().position(|(_, body)| calls_first(body, name));
                let vessel = match within.holds(&lines) {
                    Some(i) => i,
                    None => anywhere.holds(&lines).and_then(|_| called())?,
                };
                Some((name.clone(), new[vessel].0.clone()))
            })
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
    /// into a macro for several backends is run. `settled`: every test of the
    /// file runs where it ran, its skips read test by test
    /// ([`super::switched`]), so no condition it bears is new to it.
    pub(super) fn switch_offs(&self, invoked: impl Fn(&str) -> bool, settled: bool) -> Vec<Part> {
        let removed = RuleId::AssertionsRemoved;
        let skips = (self.skips_widened())
            .filter(|_| !settled)
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
    /// (`texts`, the old side's and the new side's) already marked with no
    /// condition, whose every marker now is a plain one that runs no less
    /// ([`Pair::module_marker`], [`no_less`]): the module's marker spread onto
    /// the tests that still need it.
    pub(super) fn settled_skips(&self, texts: Option<(&str, &str)>) -> HashSet<String> {
        let mut out = HashSet::new();
        let module = texts.and_then(|(before, _)| self.module_marker(before));
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
            let spread = |s: &&syntax::Skip| {
                let Some((module, (_, after))) = module.zip(texts) else {
                    return false;
                };
                let mark = statement_at(after, s.span.start);
                let mark = mark.trim_start().strip_prefix('@').and_then(plain_mark);
                !s.focus && !s.guard && !s.nested && mark.is_some_and(|m| no_less((module, m)))
            };
            if !mine.is_empty() && mine.iter().all(spread) {
                out.insert(t.name.clone());
            }
        }
        out
    }

    /// The plain marker ([`plain_mark`]) the old side's module puts on all its
    /// tests by a `pytestmark =` at its top (not a class's), when it has one and
    /// no other.
    fn module_marker(&self, before: &str) -> Option<Mark> {
        let wide: Vec<&syntax::Skip> = (self.old.skips.iter())
            .filter(|s| s.test.is_none() && !s.guard && !s.focus)
            .collect();
        let [only] = wide[..] else {
            return None;
        };
        let line = statement_at(before, only.span.start);
        line.strip_prefix("pytestmark")?
            .trim_start()
            .strip_prefix('=')
            .and_then(|m| plain_mark(m.trim_start()))
    }

    /// Whether `skip`, a conditional one of the new side, stops a test that was
    /// there (or the whole file) under a condition it did not before: a
    /// `skipif`, `cfg`, `cfg_attr(…, ignore)`, `skipIf`, `if … { t.Skip() }` or
    /// `if … { return }` on a test that had none, or one whose condition keeps
    /// every word an old one had and adds some (`any(windows, feature = "x")`
    /// where it was `windows`), or one read as a set of environments
    /// ([`skip_sense`]) that is an old one turned round, always holds, or holds
    /// it and more on a common CI machine (`!= "cli"` where it was
    /// `== "win32"`). Not fresh: a condition rewritten into other words that
    /// no reading tells wider (the same set, or one that gains some
    /// environments and loses others), one the test's body was
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
        // Read as sets of environments ([`skip_sense`]): one of them turned
        // round, widened to a common CI machine, or the new one always
        // skipping, it now skips where the test ran. The same set is neither.
        let mut turned = false;
        for s in on(&self.old).filter(|s| !inert(s) && !s.runs) {
            let had = s.condition.as_deref().unwrap_or("");
            let kept = on(&self.new).any(|n| n.condition == s.condition);
            match skip_sense::change(had, condition) {
                skip_sense::Change::Same => return false,
                skip_sense::Change::Wider => turned |= !kept,
                skip_sense::Change::Other => {}
            }
        }
        let joined = |c: &str, ops: [&str; 3]| {
            c.split(|ch: char| ch.is_whitespace() || ch == '(' || ch == ',')
                .any(|w| ops.contains(&w))
        };
        // Words added under `and` narrow a condition that skips and widen one
        // that runs (`cfg(all(not(windows), …))`, a JS test's `if (… && …)`);
        // under `or`, the other way.
        // A JS test in an `else` and under no other `if` (`if (not (c))`) runs
        // where `c` fails: `c` is a skip's condition.
        let mut depth = 0;
        let negated = (condition.strip_prefix("if (not ("))
            .and_then(|c| c.strip_suffix("))"))
            .is_some_and(|c| {
                c.chars().all(|ch| {
                    depth += i32::from(ch == '(') - i32::from(ch == ')');
                    depth >= 0
                })
            });
        let runs = (condition.starts_with("cfg(") || condition.starts_with("if (")) && !negated;
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
            || turned
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

/// A pytest marker with no condition: its kind (`xfail` runs its tests still,
/// `skip` runs them nowhere) and its `strict`, when written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Mark {
    xfail: bool,
    strict: Option<bool>,
}

/// The statement that holds byte `at` of `text`, from its line's start to the
/// next line that says something indented no deeper (a method's decorator
/// ends at its `def`, not at the end of its class): the view's span of a
/// marker may end at the mark's name, before its arguments.
fn statement_at(text: &str, at: usize) -> &str {
    let at = at.min(text.len());
    let start = text.as_bytes()[..at]
        .iter()
        .rposition(|b| *b == b'\n')
        .map_or(0, |n| n + 1);
    let rest = &text[start..];
    let indent = |l: &str| l.len() - l.trim_start().len();
    let depth = indent(rest.lines().next().unwrap_or(""));
    let mut end = rest.len();
    let mut offset = 0;
    for (k, line) in rest.split_inclusive('\n').enumerate() {
        if k > 0 && !line.trim().is_empty() && indent(line) <= depth {
            end = offset;
            break;
        }
        offset += line.len();
    }
    rest[..end].trim_end()
}

/// `pytest.mark.xfail`, `pytest.mark.skip`, or either called with nothing but
/// `reason=` a string and `strict=` `True` or `False` (a trailing comma, a
/// comment after): a marker that holds no condition and runs nothing. Anything
/// else (a condition, a string one too, `run=False`, a list, an `if`) is none.
fn plain_mark(text: &str) -> Option<Mark> {
    let rest = text.strip_prefix("pytest.mark.")?;
    let (xfail, rest) = match () {
        _ if rest.starts_with("xfail") => (true, &rest[5..]),
        _ if rest.starts_with("skip") => (false, &rest[4..]),
        _ => return None,
    };
    let code = |t: &str| t.split_once('#').map_or(t, |(c, _)| c).trim().to_string();
    if code(rest).is_empty() {
        return Some(Mark {
            xfail,
            strict: None,
        });
    }
    let args = rest.strip_prefix('(')?;
    // Split at commas outside quotes; a bracket outside them is no plain marker.
    let (mut parts, mut part, mut quote, mut closed) = (Vec::new(), String::new(), None, None);
    for (i, c) in args.char_indices() {
        match (quote, c) {
            (Some(q), _) if c == q => {
                quote = None;
                part.push(c);
            }
            (Some(_), _) => part.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                part.push(c);
            }
            (None, ',') => parts.push(std::mem::take(&mut part)),
            (None, ')') => {
                closed = Some(i);
                break;
            }
            (None, '(' | '[' | '{') => return None,
            (None, _) => part.push(c),
        }
    }
    parts.push(part);
    if !code(&args[closed? + 1..]).is_empty() {
        return None;
    }
    let mut strict = None;
    for part in parts.iter().map(|p| p.trim()).filter(|p| !p.is_empty()) {
        let (key, value) = part.split_once('=')?;
        match (key.trim(), value.trim()) {
            ("strict", "True") => strict = Some(true),
            ("strict", "False") => strict = Some(false),
            ("reason", v) if string_literal(v) => {}
            _ => return None,
        }
    }
    Some(Mark { xfail, strict })
}

/// One Python string literal, quoted alone: `'…'` or `"…"`.
fn string_literal(v: &str) -> bool {
    let quoted = |q: char| v.len() >= 2 && v.starts_with(q) && v.ends_with(q);
    (quoted('\'') || quoted('"')) && !v[1..v.len() - 1].contains(['\'', '"'])
}

/// Whether a test's plain marker `now` runs it no less than the module's `was`
/// did: anything where the module skipped; where it expected a failure, an
/// expected failure as strict (`strict=True` kept, `strict=False` only where
/// it was written).
fn no_less((was, now): (Mark, Mark)) -> bool {
    match (was.xfail, now.xfail) {
        (false, _) => true,
        (true, false) => false,
        (true, true) => match (was.strict, now.strict) {
            (Some(true), s) => s == Some(true),
            (_, Some(false)) => was.strict == Some(false),
            _ => true,
        },
    }
}

/// Each test's name and the lines of its body as written: Rust's and Go's
/// tests by their braces, the others' past their definition's first line.
fn body_lines<'t>(v: &View, text: &'t str) -> Vec<(String, Vec<&'t str>)> {
    if !v.marks.tests.is_empty() {
        let body = |t: &syntax::Marked| t.body.clone().and_then(|r| text.get(r));
        return (v.marks.tests.iter())
            .filter_map(|t| Some((t.name.clone(), body(t)?.lines().collect())))
            .collect();
    }
    let body = |t: &syntax::Test| text.get(t.span.clone()).map(|d| d.lines().skip(1));
    (v.tests.iter())
        .filter_map(|t| Some((t.name.clone(), body(t)?.collect())))
        .collect()
}

/// Whether `body` calls `name` on a line of its own (`name();`, `name()`) at
/// its top, the indentation of its first line, before a `return` there: under
/// a condition, in a closure or past a `return` the call may never run.
fn calls_first(body: &[&str], name: &str) -> bool {
    let indent = |l: &str| l.len() - l.trim_start().len();
    let mut lines = body.iter().filter(|l| key(l).is_some());
    let Some(first) = lines.clone().next() else {
        return false;
    };
    let top = indent(first);
    for line in lines.by_ref().filter(|l| indent(l) == top) {
        let t = line.trim();
        if t.starts_with("return") {
            return false;
        }
        if t.strip_prefix(name)
            .is_some_and(|rest| matches!(rest, "()" | "();"))
        {
            return true;
        }
    }
    false
}

/// Where each keyed line starts in a list of line lists, to find a run of
/// lines whole and in order. Each first line's places are looked at up to
/// [`Runs::CAP`] times: past that, a run is not found (the test is counted
/// removed, as before), and time stays linear.
struct Runs<'l> {
    lists: Vec<&'l [String]>,
    at: HashMap<&'l str, Vec<(usize, usize)>>,
}

impl<'l> Runs<'l> {
    const CAP: usize = 64;

    fn of(lists: impl Iterator<Item = &'l [String]>) -> Runs<'l> {
        let lists: Vec<&[String]> = lists.collect();
        let mut at: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
        for (i, list) in lists.iter().enumerate() {
            for (j, line) in list.iter().enumerate() {
                let places = at.entry(line.as_str()).or_default();
                if places.len() < Self::CAP {
                    places.push((i, j));
                }
            }
        }
        Runs { lists, at }
    }

    /// The list that holds `run` (not empty) whole and in order.
    fn holds(&self, run: &[String]) -> Option<usize> {
        let places = self.at.get(run.first()?.as_str())?;
        places
            .iter()
            .find(|&&(i, j)| self.lists[i].get(j..j + run.len()) == Some(run))
            .map(|&(i, _)| i)
    }
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

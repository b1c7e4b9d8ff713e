//! Test files of every language read through their syntax view: the tests,
//! their assertions, skips and owners, the helpers nothing calls, exported
//! harnesses, patched names and the rows of a table are the tree's, so a string,
//! a regex, a raw string or a line continued cannot hide them as it could a hand
//! tokenizer.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use super::{Counts, Lang, Read, cannot_fail, checks, made_conditional, syntax};

/// What a `lang` file holds, from its `view`: Python's and
/// JavaScript's tests and skips, or Rust's and Go's [`syntax::Marks`].
pub(super) fn read(lang: Lang, view: &syntax::View) -> Read {
    match lang {
        Lang::Python | Lang::Js => scripted(lang, view),
        Lang::Rust | Lang::Go => marked(lang, view),
    }
}

/// Rust and Go, from their marks: a statement's test is the innermost test body
/// it is in; a skip switches off its owner's body, or the whole file's when it
/// names none.
fn marked(lang: Lang, view: &syntax::View) -> Read {
    let m = &view.marks;
    let mut bodies: Vec<(&Range<usize>, &str)> = m
        .tests
        .iter()
        .filter_map(|t| Some((t.body.as_ref()?, t.name.as_str())))
        .collect();
    bodies.sort_by_key(|(b, _)| b.start);
    // How far the bodies up to each reach: the walk back from a byte stops where
    // none before reaches it.
    let reach: Vec<usize> = bodies
        .iter()
        .scan(0, |far, (b, _)| {
            *far = b.end.max(*far);
            Some(*far)
        })
        .collect();
    // The innermost body holding `at`: of those starting at or before it, the
    // last that holds it.
    let innermost = |at: usize| {
        let k = bodies.partition_point(|(b, _)| b.start <= at);
        (0..k)
            .rev()
            .take_while(|&j| reach[j] > at)
            .find(|&j| bodies[j].0.contains(&at))
            .map_or(String::new(), |j| bodies[j].1.to_string())
    };
    let mut statements: Vec<String> = m.statements.iter().map(|s| s.text.clone()).collect();
    let mut owners: Vec<String> = m.statements.iter().map(|s| innermost(s.at)).collect();
    let mut skip_owners: Vec<String> = m.skips.iter().map(|s| s.owner.clone()).collect();
    // A build constraint keeps the file from some builds; `ignore`, from all.
    for line in &m.builds {
        let ignore = line.split_whitespace().any(|w| w == "ignore");
        skip_owners.extend((0..1 + usize::from(ignore)).map(|_| String::new()));
        statements.push(line.clone());
        owners.push(String::new());
    }
    // A Rust test that exits 0 ends the run passing, the tests after it unrun.
    let switches = m.switches + view.exits;
    skip_owners.extend((0..switches).map(|_| String::new()));
    let mut counts = Counts {
        tests: m.tests.len(),
        assertions: m.assertions.len(),
        skips: skip_owners.len(),
        switches,
        // A helper that still holds checks and is called from no test (its
        // calls dropped, or made through another name) weighs none: its
        // calls' checks are gone.
        helper_extra: (view.helpers_counted && view.helper_checks + view.helper_held > 0)
            .then(|| view.helper_checks as i64 - view.helper_loose as i64),
        ..Counts::default()
    };
    let held = |body: &Range<usize>| {
        m.assertions.partition_point(|&a| a < body.end)
            - m.assertions.partition_point(|&a| a < body.start)
    };
    let mut skipped: Vec<Skipped> = Vec::new();
    for s in m.skips.iter().filter(|s| s.outright && !s.owner.is_empty()) {
        if skipped.iter().any(|k| k.name == s.owner) {
            continue;
        }
        if let Some(t) = m.tests.iter().find(|t| t.name == s.owner) {
            skipped.push(Skipped {
                key: s.owner.clone(),
                name: s.owner.clone(),
                held: t.body.as_ref().map_or(0, held),
            });
        }
    }
    // What a test switched off, or a whole file, would check: none of it runs.
    let off: HashSet<&String> = skip_owners.iter().filter(|o| !o.is_empty()).collect();
    let off = syntax::Spans::new(
        m.tests
            .iter()
            .filter(|t| off.contains(&t.name))
            .filter_map(|t| t.body.clone()),
    );
    let wide = skip_owners.iter().any(String::is_empty);
    let switched_off = m
        .statements
        .iter()
        .filter(|s| wide || off.holds(s.at))
        .map(|s| s.text.clone())
        .collect();
    let uncalled = &view.uses.uncalled;
    let helpers = m
        .statements
        .iter()
        .filter(|s| s.assertion)
        .filter_map(|s| {
            // The bodies follow one another, none in another.
            let k = uncalled.partition_point(|(_, b)| b.start <= s.at);
            let (name, body) = uncalled.get(k.checked_sub(1)?)?;
            body.contains(&s.at).then(|| (name.clone(), s.text.clone()))
        })
        .collect();
    counts.trivial = statements.iter().filter(|s| cannot_fail(lang, s)).count();
    (counts.cases, counts.tables) = (view.uses.cases, view.uses.tables);
    Read {
        counts,
        statements,
        owners,
        names: m.tests.iter().map(|t| t.name.clone()).collect(),
        scopes: Vec::new(),
        skip_owners,
        switched_off,
        skipped,
        helpers,
        harnesses: Vec::new(),
        bound: checks::bindings(&view.bindings),
        bars: owned_bars(
            &view.bars,
            m.tests
                .iter()
                .filter_map(|t| Some((t.body.clone()?, t.name.as_str()))),
        ),
        spans: m
            .tests
            .iter()
            .filter_map(|t| Some((t.name.clone(), t.body.clone()?)))
            .collect(),
        guarded: Vec::new(),
        loops: loops(view),
    }
}

/// Each bar with the name of the innermost of `tests` (bytes and name) that
/// holds it, or "" for none.
fn owned_bars<'a>(
    bars: &[syntax::Bar],
    tests: impl Iterator<Item = (Range<usize>, &'a str)>,
) -> Vec<(String, syntax::Bar)> {
    let mut tests: Vec<(Range<usize>, &str)> = tests.collect();
    tests.sort_by_key(|(t, _)| t.start);
    bars.iter()
        .map(|bar| {
            let k = tests.partition_point(|(t, _)| t.start <= bar.at);
            // Tests nest a few deep at most: the nearest that holds it is near.
            let owner = (0..k)
                .rev()
                .take(64)
                .find(|&j| tests[j].0.contains(&bar.at))
                .map_or("", |j| tests[j].1);
            (owner.to_string(), bar.clone())
        })
        .collect()
}

/// A test a marker with no condition switches off ([`Read::skipped`]).
#[derive(Clone, Debug, Default)]
pub(super) struct Skipped {
    /// Its name within its scope ([`scoped`]): nested suites may reuse a name.
    pub key: String,
    pub name: String,
    /// How many assertions it holds.
    pub held: usize,
}

/// A test's name within its scope (`describe` blocks, classes), which tells
/// apart the tests of one name in nested suites.
pub(super) fn scoped(scope: &str, name: &str) -> String {
    match scope.is_empty() {
        true => name.to_string(),
        false => format!("{scope}::{name}"),
    }
}

/// An assertion's statement as the other languages' tokens give it: its text,
/// whitespace runs one space, no trailing `,` or `;`.
fn statement(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").trim_end_matches([',', ';']).to_string()
}

/// What a `lang` file (Python or JavaScript) holds, from its `view`.
fn scripted(lang: Lang, view: &syntax::View) -> Read {
    // Each assertion with where it starts and the test it is in ("" for none).
    let mut placed: Vec<(usize, String, &str)> = view
        .tests
        .iter()
        .flat_map(|t| {
            let name = t.name.as_str();
            t.assertions
                .iter()
                .map(move |a| (a.span.start, statement(&a.text), name))
        })
        .chain(
            view.loose
                .iter()
                .map(|a| (a.span.start, statement(&a.text), "")),
        )
        .collect();
    placed.sort_by_key(|p| p.0);
    let statements: Vec<String> = placed.iter().map(|p| p.1.clone()).collect();
    let mut counts = Counts {
        tests: view.tests.len(),
        assertions: placed.len(),
        helper_extra: (view.helpers_counted && view.helper_checks > 0)
            .then(|| view.helper_checks as i64 - view.helper_loose as i64),
        ..Counts::default()
    };
    // A focus switches off the other tests: the whole file's, whoever it names.
    // A guard in a test's body is the view's conditions' to judge.
    let markers = view.skips.iter().filter(|s| !s.guard);
    let mut skip_owners: Vec<String> = markers
        .clone()
        .map(|s| match s.focus {
            true => String::new(),
            false => s.test.clone().unwrap_or_default(),
        })
        .collect();
    counts.switches = markers.clone().filter(|s| s.focus).count();
    // Python: a module-level exit ends the run before any test, passing; a test
    // that yields is a generator, of which pytest runs nothing and unittest
    // drops unrun.
    skip_owners.extend((0..view.exits).map(|_| String::new()));
    counts.switches += view.exits;
    let generators = view.tests.iter().filter(|t| t.yields);
    skip_owners.extend(generators.map(|t| t.name.clone()));
    counts.skips = skip_owners.len();
    // A marker with no condition (`it.skip`, `xit`, `@pytest.mark.skip`) runs
    // its test nowhere.
    let mut skipped: Vec<Skipped> = Vec::new();
    // Each name's first test, and the tests taken: asked once per marker, a
    // search of the tests was quadratic in a file of skipped tests.
    let mut first: HashMap<&str, usize> = HashMap::new();
    for (k, t) in view.tests.iter().enumerate().rev() {
        first.insert(&t.name, k);
    }
    let mut taken: HashSet<usize> = HashSet::new();
    for s in markers.filter(|s| !s.focus && !s.runs && s.condition.is_none()) {
        // A suite's marker (`describe.skip`, `xdescribe`) spans the suite: the
        // tests it holds run nowhere. The tests are in the order they are
        // written, so those inside are found by a search, not a scan.
        let from = view.tests.partition_point(|t| t.span.start < s.span.start);
        let held: Vec<usize> = match &s.test {
            // The test the marker is on: the one around it or right after it
            // (a decorator), or else the first of its name.
            Some(name) => {
                let near = [from.checked_sub(1), Some(from)].into_iter().flatten();
                let on = near
                    .filter(|&k| view.tests.get(k).is_some_and(|t| &t.name == name))
                    .find(|&k| {
                        let t = &view.tests[k];
                        t.span.contains(&s.span.start) || t.span.start >= s.span.start
                    });
                on.or_else(|| first.get(name.as_str()).copied())
                    .into_iter()
                    .collect()
            }
            None => (from..view.tests.len())
                .take_while(|&k| view.tests[k].span.start < s.span.end)
                .filter(|&k| view.tests[k].span.end <= s.span.end)
                .collect(),
        };
        for k in held {
            if !taken.insert(k) {
                continue;
            }
            let t = &view.tests[k];
            skipped.push(Skipped {
                key: scoped(&t.scope, &t.name),
                name: t.name.clone(),
                held: t.assertions.len(),
            });
        }
    }
    let off: HashSet<&str> = skip_owners
        .iter()
        .map(String::as_str)
        .filter(|o| !o.is_empty())
        .collect();
    let wide = skip_owners.iter().any(String::is_empty);
    let switched_off = placed
        .iter()
        .filter(|(_, _, owner)| wide || off.contains(owner))
        .map(|p| p.1.clone())
        .collect();
    let helpers = view
        .uses
        .uncalled
        .iter()
        .flat_map(|(name, within)| {
            // `placed` is sorted by where each starts, so those within are one run
            // of it: a search, not a pass over every assertion for each function
            // (quadratic in a file of thousands of functions nothing calls).
            let from = placed.partition_point(|p| p.0 < within.start);
            let to = placed.partition_point(|p| p.0 < within.end).max(from);
            placed[from..to]
                .iter()
                .map(move |p| (name.clone(), p.1.clone()))
        })
        .collect();
    // Where each test starts, sorted: a harness's tests and assertions are a run
    // of each list, found by a search, not a pass per harness.
    let mut test_starts: Vec<usize> = view.tests.iter().map(|t| t.span.start).collect();
    test_starts.sort_unstable();
    let harnesses = view
        .uses
        .harnesses
        .iter()
        .filter_map(|h| {
            let within = &h.body;
            let from = placed.partition_point(|p| p.0 < within.start);
            let to = placed.partition_point(|p| p.0 < within.end).max(from);
            let inside = &placed[from..to];
            let tests = test_starts
                .partition_point(|&s| s < within.end)
                .saturating_sub(test_starts.partition_point(|&s| s < within.start));
            (tests > 0).then(|| Harness {
                name: h.name.clone(),
                counts: Counts {
                    tests,
                    assertions: inside.len(),
                    cases: h.cases,
                    tables: h.tables,
                    ..Counts::default()
                },
                statements: inside.iter().map(|p| p.1.clone()).collect(),
            })
        })
        .collect();
    counts.trivial = statements.iter().filter(|s| cannot_fail(lang, s)).count();
    counts.patched = patched(&view.uses.patched, &statements);
    (counts.cases, counts.tables) = (view.uses.cases, view.uses.tables);
    Read {
        counts,
        statements,
        owners: placed.iter().map(|p| p.2.to_string()).collect(),
        names: view.tests.iter().map(|t| t.name.clone()).collect(),
        scopes: view.tests.iter().map(|t| t.scope.clone()).collect(),
        skip_owners,
        switched_off,
        skipped,
        helpers,
        harnesses,
        bound: checks::bindings(&view.bindings),
        bars: owned_bars(
            &view.bars,
            view.tests.iter().map(|t| (t.span.clone(), t.name.as_str())),
        ),
        spans: view
            .tests
            .iter()
            .map(|t| (t.name.clone(), t.span.clone()))
            .collect(),
        guarded: guarded(view),
        loops: loops(view),
    }
}

/// Each test's loops over its checks with the test's scoped name
/// ([`syntax::Test::loops`]).
fn loops(view: &syntax::View) -> Vec<(String, String)> {
    (view.tests.iter())
        .flat_map(|t| {
            let key = scoped(&t.scope, &t.name);
            t.loops.iter().map(move |h| (key.clone(), h.clone()))
        })
        .collect()
}

/// Each test's assertions with the conditions they run under and the test's
/// own skip conditions ([`made_conditional::Guarded`]). The skips are read by
/// test name once, not searched for each assertion (assertions times skips).
fn guarded(view: &syntax::View) -> Vec<made_conditional::Guarded> {
    let mut skips: HashMap<&str, Vec<String>> = HashMap::new();
    for s in (view.skips.iter()).filter(|s| !s.focus && !s.guard) {
        let (Some(test), Some(c)) = (s.test.as_deref(), s.condition.as_ref()) else {
            continue;
        };
        // Not a guard of an `if` around the test, nor a `cfg`.
        if !c.starts_with("if (") && !c.starts_with("cfg") {
            skips.entry(test).or_default().push(c.clone());
        }
    }
    view.tests
        .iter()
        .flat_map(|t| {
            let key = scoped(&t.scope, &t.name);
            let own = skips.get(t.name.as_str()).cloned().unwrap_or_default();
            (t.assertions.iter()).map(move |a| made_conditional::Guarded {
                test: key.clone(),
                normal: a.normal.clone(),
                text: statement(&a.text),
                guards: a.guards.clone(),
                skips: own.clone(),
            })
        })
        .collect()
}

/// How many of the names the file patches its assertions call: the code under
/// test replaced inside the test. A name is a word (`syntax::Uses::patched`), so
/// it is called where a whole word of a statement is followed by `(`: the words
/// called are found in one pass, not each name searched for in each statement.
fn patched(names: &[String], statements: &[String]) -> usize {
    let word = |c: char| c == '_' || c.is_alphanumeric();
    let mut called: HashSet<&str> = HashSet::new();
    for s in statements {
        let mut start = None;
        for (at, c) in s.char_indices() {
            match (word(c), start) {
                (true, None) => start = Some(at),
                (true, Some(_)) => {}
                (false, Some(from)) => {
                    if c == '(' {
                        called.insert(&s[from..at]);
                    }
                    start = None;
                }
                (false, None) => {}
            }
        }
    }
    names
        .iter()
        .filter(|name| called.contains(name.as_str()))
        .count()
}

/// A shared harness: an exported function whose body defines tests, with the
/// tests, rows and assertions it holds, whose tests run once per file that
/// calls it.
pub(super) struct Harness {
    pub name: String,
    pub counts: Counts,
    /// The assertion statements in its body.
    pub statements: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::patched;

    #[test]
    fn a_patched_name_counts_where_a_statement_calls_it_as_a_whole_word() {
        let names: Vec<String> = ["add", "mean", "sub", "count"].map(String::from).into();
        let statements: Vec<String> = [
            "assert calc.add(1, 2) == 3",
            "assert xmean([1]) == 1",
            "assert sub (1) == 0",
            "assert count_all([]) == 0",
            "assert f(count) == 0",
        ]
        .map(String::from)
        .into();
        assert_eq!(patched(&names, &statements), 1);
        // Each name searched for in each statement was quadratic: 20,000 of
        // each took 103.8 s on a debug build, 0.09 s now.
        let names: Vec<String> = (0..20_000).map(|k| format!("f{k}")).collect();
        let statements: Vec<String> = (0..20_000)
            .map(|k| format!("assert g{k}(x) == f{}(x)", k % 7))
            .collect();
        assert_eq!(patched(&names, &statements), 7);
    }
}

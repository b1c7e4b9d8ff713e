//! Python, JavaScript and TypeScript test files read through their syntax view:
//! the tests, their assertions, skips and owners are the tree's, so a string, a
//! regex or a line continued cannot hide them as it could a hand tokenizer.
//! The tokens still find what the view holds no part of yet: helpers nothing
//! calls, exported harnesses, patched names and the rows of a table.

use std::collections::HashSet;

use super::brackets::Matched;
use super::{Counts, Lang, Read, cannot_fail, checks, forms, reach, spanned, syntax};

/// An assertion's statement as the other languages' tokens give it: its text,
/// whitespace runs one space, no trailing `,` or `;`.
fn statement(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().collect();
    words.join(" ").trim_end_matches([',', ';']).to_string()
}

/// What `text`, a `lang` file (Python or JavaScript), holds, from its `view`.
pub(super) fn read(lang: Lang, text: &str, view: &syntax::View) -> Read {
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
    let mut skipped: Vec<(String, usize)> = Vec::new();
    for s in markers.filter(|s| !s.focus && !s.runs && s.condition.is_none()) {
        let Some(name) = &s.test else {
            continue;
        };
        if skipped.iter().any(|(n, _)| n == name) {
            continue;
        }
        if let Some(t) = view.tests.iter().find(|t| &t.name == name) {
            skipped.push((name.clone(), t.assertions.len()));
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
    let (toks, spans) = spanned(lang, text);
    let matched = Matched::new(toks);
    let toks = matched.toks();
    let layout = reach::Layout::new(text, &spans);
    let bytes = |from: usize, end: usize| {
        let start = spans.get(from).map_or(text.len(), |s| s.0);
        let stop = end
            .checked_sub(1)
            .and_then(|e| spans.get(e))
            .map_or(start, |s| s.1);
        start..stop.max(start)
    };
    let helpers = reach::uncalled_bodies(lang, &toks, &layout)
        .into_iter()
        .flat_map(|(name, from, end)| {
            let within = bytes(from, end);
            placed
                .iter()
                .filter(move |p| within.contains(&p.0))
                .map(move |p| (name.clone(), p.1.clone()))
        })
        .collect();
    let mut harnesses = match lang {
        Lang::Js => forms::harnesses(&toks),
        _ => Vec::new(),
    };
    for harness in &mut harnesses {
        let within = bytes(harness.body.0, harness.body.1);
        let inside: Vec<&(usize, String, &str)> =
            placed.iter().filter(|p| within.contains(&p.0)).collect();
        harness.counts.tests = view
            .tests
            .iter()
            .filter(|t| within.contains(&t.span.start))
            .count();
        harness.counts.assertions = inside.len();
        harness.statements = inside.iter().map(|p| p.1.clone()).collect();
    }
    harnesses.retain(|h| h.counts.tests > 0);
    counts.trivial = statements.iter().filter(|s| cannot_fail(lang, s)).count();
    counts.patched = forms::patched(lang, &toks, &layout, &statements);
    (counts.cases, counts.tables) = forms::cases(lang, &toks);
    Read {
        counts,
        statements,
        owners: placed.iter().map(|p| p.2.to_string()).collect(),
        names: view.tests.iter().map(|t| t.name.clone()).collect(),
        skip_owners,
        switched_off,
        skipped,
        helpers,
        harnesses,
        bound: checks::bindings(lang, text),
    }
}

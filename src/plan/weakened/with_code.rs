//! Test changes that follow the code's own change: tests removed together with
//! the code they tested (a feature taken out takes its tests with it), and an
//! expected value changed to words the code now spells and no longer spells the
//! old way (a message reworded on purpose). Neither is a weakening for `--strict`
//! to fail; each is still said, as a lead for the judge, who reads whether the
//! goal wanted the behaviour changed. Read from syntax trees: a definition is
//! gone when a code file the test reaches defined it before, no changed code
//! file defines or names it after, its body is nowhere in them, and no new
//! definition of its kind came (a rename or a move keeps it).

use std::cell::OnceCell;
use std::collections::{HashMap, HashSet};

use super::rules::{Part, RuleId};
use super::{Change, Lang, is_test};
use crate::plan::syntax::{self, Grammar, clean_tree, preorder};

/// The definition kinds whose `name` field names what a test calls.
const DEFINITIONS: [&str; 18] = [
    "function_definition",
    "function_expression",
    "class_definition",
    "function_declaration",
    "generator_function_declaration",
    "class_declaration",
    "method_definition",
    "method_declaration",
    "type_spec",
    "function_item",
    "struct_item",
    "enum_item",
    "trait_item",
    "const_item",
    "static_item",
    "macro_definition",
    "interface_declaration",
    "type_alias_declaration",
];

/// A definition: its name, its body squeezed of whitespace, its kind, and a Go
/// method's receiver's type.
type Definition = (String, String, &'static str, Option<String>);

fn definitions(grammar: Grammar, text: &str) -> Vec<Definition> {
    let Some(tree) = clean_tree(grammar, text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for node in preorder(tree.root_node()) {
        let named = DEFINITIONS.contains(&node.kind())
            || (node.kind() == "variable_declarator"
                && node.child_by_field_name("value").is_some_and(|v| {
                    matches!(
                        v.kind(),
                        "arrow_function" | "function_expression" | "function"
                    )
                }));
        if !named {
            continue;
        }
        let Some(name) = node.child_by_field_name("name") else {
            continue;
        };
        let name = &text[name.byte_range()];
        // Past its first line: the body a rename keeps.
        let whole = &text[node.byte_range()];
        let body = whole.split_once('\n').map_or("", |(_, rest)| rest);
        // `func (o *Other) String()`: the type, the last word of the receiver.
        let receiver = node
            .child_by_field_name("receiver")
            .and_then(|r| words(&text[r.byte_range()]).last())
            .map(str::to_string);
        out.push((name.to_string(), squeezed(body), node.kind(), receiver));
    }
    out
}

/// The names `text` binds at its top with a variable declaration (`export const
/// getClient = tokens[0]`), whatever the value: a simple name's, not a
/// pattern's, and not a function's local.
fn declared(grammar: Grammar, text: &str) -> Vec<String> {
    let Some(tree) = clean_tree(grammar, text) else {
        return Vec::new();
    };
    let root = tree.root_node();
    let mut out = Vec::new();
    for top in root.named_children(&mut root.walk()) {
        let declaration = match top.kind() {
            "export_statement" => top.child_by_field_name("declaration"),
            _ => Some(top),
        };
        let Some(d) = declaration
            .filter(|d| matches!(d.kind(), "lexical_declaration" | "variable_declaration"))
        else {
            continue;
        };
        out.extend(
            d.named_children(&mut d.walk())
                .filter(|n| n.kind() == "variable_declarator")
                .filter_map(|n| n.child_by_field_name("name"))
                .filter(|n| n.kind() == "identifier")
                .map(|n| text[n.byte_range()].to_string()),
        );
    }
    out
}

/// The words of `text`'s code, its comments left out where its grammar reads it
/// (a word written into a comment is no change of behaviour).
fn code_words<'t>(path: &str, text: &'t str) -> HashSet<&'t str> {
    let Some(tree) = Grammar::of(path).and_then(|g| clean_tree(g, text)) else {
        return words(text).collect();
    };
    // A statement that is a string alone (a docstring, `'use strict'`) says
    // nothing the code does.
    let said: Vec<std::ops::Range<usize>> = preorder(tree.root_node())
        .filter(|n| {
            n.kind() == "expression_statement"
                && n.named_child_count() == 1
                && n.named_child(0)
                    .is_some_and(|c| c.kind().contains("string"))
        })
        .map(|n| n.byte_range())
        .collect();
    preorder(tree.root_node())
        .filter(|n| !said.iter().any(|r| r.contains(&n.start_byte())))
        .filter(|n| {
            let kind = n.kind();
            // A string's whole text: some grammars split it at its escapes.
            (n.child_count() == 0 && !kind.contains("comment")) || kind.contains("string")
        })
        .flat_map(|n| words(&text[n.byte_range()]))
        .collect()
}

fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Each word's count in a test file's `text` less its count in the file's
/// assertion `statements`: how often its own code outside its checks (the input
/// it hands the code, a message it raises) spells the word.
pub(super) fn outside_checks(text: &str, statements: &[String]) -> HashMap<String, isize> {
    let mut out: HashMap<String, isize> = HashMap::new();
    for w in words(text) {
        *out.entry(w.to_string()).or_default() += 1;
    }
    for w in statements.iter().flat_map(|s| words(s)) {
        *out.entry(w.to_string()).or_default() -= 1;
    }
    out
}

/// Whether a check's expected value changed from `was` to `now` the way the
/// test's own code outside its checks did ([`outside_checks`] at the start,
/// `old`, and now, `new`): a word the new check has and the old lacks is spelled
/// more often outside the checks now, and one the old has and the new lacks less
/// often. Only a misspelling mended counts: each word gained is a word lost
/// with a letter or two changed (`Oupps` become `Oops`). Another input (`Bob`
/// become `Alice`, where the code may be wrong for Bob) or a word only gone (the
/// input cut down) is no evidence.
pub(super) fn follows_input(
    was: &str,
    now: &str,
    (old, new): (&HashMap<String, isize>, &HashMap<String, isize>),
) -> bool {
    let telling = |w: &&str| w.len() >= 3 && w.chars().any(char::is_alphabetic);
    let (a, b): (HashSet<&str>, HashSet<&str>) = (words(was).collect(), words(now).collect());
    let count = |side: &HashMap<String, isize>, w: &str| side.get(w).copied().unwrap_or(0);
    let came: Vec<&str> = b.difference(&a).copied().filter(telling).collect();
    let went: Vec<&str> = a.difference(&b).copied().filter(telling).collect();
    let mended = |w: &&str, others: &[&str]| others.iter().any(|o| near(w, o));
    !came.is_empty()
        && !went.is_empty()
        && came
            .iter()
            .all(|w| count(new, w) > count(old, w) && mended(w, &went))
        && went
            .iter()
            .all(|w| count(old, w) > count(new, w) && mended(w, &came))
}

/// Whether two words differ by at most two letters inserted, deleted or changed
/// (words past 64 bytes are never near: the distance is quadratic in them).
fn near(a: &str, b: &str) -> bool {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len() > 64 || b.len() > 64 || a.len().abs_diff(b.len()) > 2 {
        return false;
    }
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut last = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let next = (last + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            last = row[j + 1];
            row[j + 1] = next;
        }
    }
    row[b.len()] <= 2
}

/// Whether `path` is the code's: a test's helper or fixture taken out with the
/// tests that call it, or reworded with them, is the tests' own change.
fn product(path: &str, text: Option<&str>) -> bool {
    let tests_own = path
        .to_ascii_lowercase()
        .split(['/', '_', '-', '.'])
        .any(|w| {
            [
                "test", "spec", "fixture", "mock", "fake", "helper", "conftest", "bench",
            ]
            .iter()
            .any(|t| w.starts_with(t))
        });
    Lang::of(path).is_some() && !tests_own && !is_test(path, text)
}

/// The names the product's changed files defined at the start whose code the
/// change took out, each with the files it was defined in: no product file
/// defines or names them now, their body is nowhere in those files, and no
/// definition of their kind is new in them (a rename whose body was touched too,
/// `sub` become `subtract` with its variables renamed, is no removal). Test
/// files, and files no grammar reads, say nothing.
fn gone(changes: &[Change]) -> Gone {
    let mut defined: Vec<(Definition, &str)> = Vec::new();
    // Every name a product file bound at the start, to a function or not.
    let mut bound: HashSet<String> = HashSet::new();
    let mut now: Vec<(String, &'static str)> = Vec::new();
    let mut now_words: HashSet<&str> = HashSet::new();
    let mut now_text = String::new();
    for c in changes {
        let old_path = c.was.as_deref().unwrap_or(&c.path);
        if let Some(before) = c.before.as_deref()
            && product(old_path, Some(before))
            && let Some(grammar) = Grammar::of(old_path)
        {
            defined.extend(
                definitions(grammar, before)
                    .into_iter()
                    .map(|d| (d, old_path)),
            );
            bound.extend(declared(grammar, before));
        }
        if let Some(after) = c.after.as_deref()
            && product(&c.path, Some(after))
        {
            now_words.extend(words(after));
            now_text.push_str(&squeezed(after));
            if let Some(grammar) = Grammar::of(&c.path) {
                now.extend(
                    definitions(grammar, after)
                        .into_iter()
                        .map(|(name, _, kind, _)| (name, kind)),
                );
            }
        }
    }
    let was: HashSet<&str> = defined.iter().map(|d| d.0.0.as_str()).collect();
    // A definition under a name the code bound at the start (`const getClient =
    // tokens[0]` become `function getClient()`) is that binding written again,
    // no new name a removed function could have taken.
    let new_kinds: HashSet<&str> = now
        .iter()
        .filter(|(name, _)| !was.contains(name.as_str()) && !bound.contains(name))
        .map(|(_, kind)| *kind)
        .collect();
    let kept_bodies = still_in(defined.iter().map(|d| d.0.1.as_str()), &now_text);
    let mut out: HashMap<String, Vec<(String, Option<String>)>> = HashMap::new();
    for ((name, body, kind, receiver), path) in &defined {
        // A one-line definition has no body past its first line: the empty text
        // is in every file, and no sign it moved (a rename brings a new kind).
        if !now_words.contains(name.as_str())
            && (body.is_empty() || !kept_bodies.contains(body.as_str()))
            && !new_kinds.contains(kind)
        {
            out.entry(name.clone())
                .or_default()
                .push((path.to_string(), receiver.clone()));
        }
    }
    let kept = was
        .into_iter()
        .filter(|n| !out.contains_key(*n))
        .map(str::to_string)
        .collect();
    (out, kept)
}

/// Which of `bodies` `text` holds, found in one pass over it: a body searched
/// for one at a time costs the definitions times the change's code.
fn still_in<'b>(bodies: impl Iterator<Item = &'b str>, text: &str) -> HashSet<&'b str> {
    let bodies: Vec<&str> = bodies
        .filter(|b| !b.is_empty())
        .collect::<HashSet<_>>()
        .into_iter()
        .collect();
    let Ok(search) = aho_corasick::AhoCorasick::new(&bodies) else {
        // Past the automaton's size limit: every body counts as kept, so the
        // removal stays the high finding it was.
        return bodies.into_iter().collect();
    };
    search
        .find_overlapping_iter(text)
        .map(|m| bodies[m.pattern().as_usize()])
        .collect()
}

/// A changed code file's paths (old and new) and the words it gained and lost.
type Spelled = ([String; 2], [HashSet<String>; 2]);

/// The names gone, each with the files that defined it, and the names the
/// code's changed files defined and still do.
/// Each gone name's files come with its Go method's receiver type.
type Gone = (
    HashMap<String, Vec<(String, Option<String>)>>,
    HashSet<String>,
);

/// Whether the test file at `test` (its text `text`) reaches the code file at
/// `code`: beside it (a Go package's, a Rust module's own), or named in it by
/// the file's stem or its folder (`from calc import`, `require('../lib/x')`).
fn reaches(test: &str, text: &str, code: &str) -> bool {
    let parent = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    if parent(test) == parent(code) {
        return true;
    }
    let file = code.rsplit('/').next().unwrap_or(code);
    let stem = file.split('.').next().unwrap_or(file);
    let folder = parent(code);
    let folder = folder.rsplit('/').next().unwrap_or("");
    let said: HashSet<&str> = words(text).collect();
    [stem, folder]
        .iter()
        .any(|w| !w.is_empty() && said.contains(w))
}

/// The gone name `text` names, the first in order, if it names one.
fn names_gone<'g>(text: &str, gone: &'g HashSet<String>) -> Option<&'g String> {
    let mut named: Vec<&String> = words(text).filter_map(|w| gone.get(w)).collect();
    named.sort();
    named.first().copied()
}

/// What a test file lost between `before` and `after` (`None`: deleted): each
/// test gone, by its assertions' text (its definition's, with none), and each
/// assertion gone from a test kept.
fn lost(grammar: Grammar, before: &str, after: Option<&str>) -> Option<Vec<(String, Vec<String>)>> {
    let old = syntax::view(grammar, before)?;
    let new = match after {
        Some(after) => syntax::view(grammar, after)?,
        None => syntax::View::default(),
    };
    let key = |t: &syntax::Test| (t.scope.clone(), t.name.clone());
    // Tests of one name in one scope pair in their order, the k-th with the k-th.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    let mut out = Vec::new();
    for test in &old.tests {
        let k = seen.entry(key(test)).or_default();
        let nth = *k;
        *k += 1;
        let Some(kept) = new.tests.iter().filter(|t| key(t) == key(test)).nth(nth) else {
            // Each of its assertions, when it has any: a test of two functions
            // removed with one of them loses the other's checks too. The suites
            // it sits in name what it tests as well (`describe('createToken')`
            // around a test of what the suite made of it).
            let whole = format!("{}\n{}", test.scope, before.get(test.span.clone())?);
            out.push((
                whole,
                test.assertions.iter().map(|a| a.text.clone()).collect(),
            ));
            continue;
        };
        let mut left: Vec<&str> = kept.assertions.iter().map(|a| a.normal.as_str()).collect();
        for a in &test.assertions {
            match left.iter().position(|n| *n == a.normal) {
                Some(k) => {
                    left.swap_remove(k);
                }
                None => out.push((a.text.clone(), vec![a.text.clone()])),
            }
        }
    }
    let mut left: Vec<&str> = new.loose.iter().map(|a| a.normal.as_str()).collect();
    for a in &old.loose {
        match left.iter().position(|n| *n == a.normal) {
            Some(k) => {
                left.swap_remove(k);
            }
            None => out.push((a.text.clone(), vec![a.text.clone()])),
        }
    }
    Some(out)
}

/// The code's side of a change, each part read once and only when a test
/// change asks.
pub(super) struct Code<'c> {
    changes: &'c [Change],
    gone: OnceCell<Gone>,
    /// Each changed code file's path (its old one too, when moved) with the
    /// words it spells now and did not, and the reverse.
    words: OnceCell<Vec<Spelled>>,
}

impl<'c> Code<'c> {
    pub(super) fn new(changes: &'c [Change]) -> Code<'c> {
        Code {
            changes,
            gone: OnceCell::new(),
            words: OnceCell::new(),
        }
    }

    /// Whether a check's expected value changed from `was` to `now` the way the
    /// code did: a word the new check has and the old lacks is one the code
    /// gained, and a word the old check has and the new lacks is one the code
    /// lost, and the check lost one at least. Numbers and short words are no
    /// evidence (`5` become `6` is what a test made to agree with wrong code
    /// reads like), nor a docstring's.
    pub(super) fn follows(&self, test: &Change, was: &str, now: &str) -> bool {
        let files = self.words.get_or_init(|| {
            let mut out = Vec::new();
            for c in self.changes {
                let old_path = c.was.as_deref().unwrap_or(&c.path);
                let before = c.before.as_deref().filter(|b| product(old_path, Some(b)));
                let after = c.after.as_deref().filter(|a| product(&c.path, Some(a)));
                let old = before.map(|b| code_words(old_path, b)).unwrap_or_default();
                let new = after.map(|a| code_words(&c.path, a)).unwrap_or_default();
                let gained = new.difference(&old).map(|w| w.to_string()).collect();
                let lost = old.difference(&new).map(|w| w.to_string()).collect();
                out.push(([old_path.to_string(), c.path.clone()], [gained, lost]));
            }
            out
        });
        // Only the code the test reaches (a script's variable renamed is not the
        // tested code's change).
        let test_path = test.was.as_deref().unwrap_or(&test.path);
        let text = test.before.as_deref().unwrap_or_default();
        let mut gained: HashSet<&str> = HashSet::new();
        let mut lost: HashSet<&str> = HashSet::new();
        for (paths, [g, l]) in files {
            if paths.iter().any(|p| reaches(test_path, text, p)) {
                gained.extend(g.iter().map(String::as_str));
                lost.extend(l.iter().map(String::as_str));
            }
        }
        let telling = |w: &str| w.len() >= 3 && w.chars().any(char::is_alphabetic);
        let (old, new): (HashSet<&str>, HashSet<&str>) =
            (words(was).collect(), words(now).collect());
        let came: Vec<&str> = new
            .difference(&old)
            .copied()
            .filter(|w| telling(w))
            .collect();
        let went: Vec<&str> = old
            .difference(&new)
            .copied()
            .filter(|w| telling(w))
            .collect();
        // The old words lost by the code too: words only gained (a constant or a
        // string nobody reads put in) are what a test made to agree reads like.
        !went.is_empty()
            && came.iter().all(|w| gained.contains(w))
            && went.iter().all(|w| lost.contains(w))
    }

    /// `what`, the parts found in `change`, with each `assertions-removed` part
    /// made the lead `removed-with-code` when what the file lost names code the
    /// change took out: every test and assertion lost names a gone definition,
    /// and the lines taken out name one when the counts saw a loss the view does
    /// not hold (a table's row).
    pub(super) fn settle(&self, change: &Change, what: Vec<Part>) -> Vec<Part> {
        if !what.iter().any(removal) {
            return what;
        }
        let gone = self.gone.get_or_init(|| gone(self.changes));
        settle(change, what, gone)
    }
}

fn removal(p: &Part) -> bool {
    p.rule == RuleId::AssertionsRemoved
}

fn settle(change: &Change, what: Vec<Part>, (gone, kept): &Gone) -> Vec<Part> {
    let old_path = change.was.as_deref().unwrap_or(&change.path);
    let (Some(before), Some(grammar)) = (change.before.as_deref(), Grammar::of(old_path)) else {
        return what;
    };
    // Only what this test file reached: a same-named definition deleted from a
    // file it never imports (an example's `sub`) leaves the tested code whole.
    let gone: HashSet<String> = gone
        .iter()
        .filter(|(_, files)| {
            files.iter().any(|(f, receiver)| {
                reaches(old_path, before, f)
                    && receiver
                        .as_deref()
                        .is_none_or(|r| words(before).any(|w| w == r))
            })
        })
        .map(|(name, _)| name.clone())
        .collect();
    let gone = &gone;
    if gone.is_empty() {
        return what;
    }
    let Some(lost) = lost(grammar, before, change.after.as_deref()) else {
        return what;
    };
    // Each lost names a gone definition, and none of its assertions names only
    // code still there (`assert add(1, 2) == 3` in a test of `add` and `sub`).
    let named: Option<Vec<&String>> = lost
        .iter()
        .map(|(whole, checks)| {
            let still =
                |a: &String| names_gone(a, gone).is_none() && words(a).any(|w| kept.contains(w));
            names_gone(whole, gone).filter(|_| !checks.iter().any(still))
        })
        .collect();
    let Some(named) = named else {
        return what;
    };
    let after: HashSet<&str> = change
        .after
        .as_deref()
        .map_or_else(HashSet::new, |a| a.lines().map(str::trim).collect());
    let taken_out: String = before
        .lines()
        .filter(|l| !after.contains(l.trim()))
        .collect::<Vec<_>>()
        .join("\n");
    let Some(name) = named
        .into_iter()
        .min()
        .or_else(|| names_gone(&taken_out, gone))
    else {
        return what;
    };
    what.into_iter()
        .map(|p| match removal(&p) {
            true => Part::new(
                RuleId::RemovedWithCode,
                format!("{} with the code they tested (`{name}` gone)", p.text),
            ),
            false => p,
        })
        .collect()
}

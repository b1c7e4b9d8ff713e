//! Test changes that follow the code's own change: tests removed together with
//! the code they tested (a feature taken out takes its tests with it), and an
//! expected value changed to words the code now spells and no longer spells the
//! old way (a message reworded on purpose). Neither is a weakening for `--strict`
//! to fail; each is still said, as a lead for the judge, who reads whether the
//! goal wanted the behaviour changed. Read from syntax trees: a definition is
//! gone when a code file the test reaches defined it before, no changed code
//! file defines or names it after, its body is nowhere in them, and no new
//! definition of its kind came (a rename or a move keeps it). Or read from
//! history the caller gives ([`Born`]): a test written in a commit whose code
//! the change took out, most of it, went with that code (a revert of a fix and
//! its regression test), whatever the test names.

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};

use super::rules::{Part, RuleId};
use super::{Change, Lang, is_test, is_test_path};
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

/// Where the lines a change took out were born: git's blame at the start, read
/// by the caller (this model reads no history) only when a first reading found
/// tests removed. For each test file by its path at the start, the commit that
/// last wrote each line the change took out of it, by line from 1; and the
/// commits whose product code the change took out, each with the files (as at
/// the start) it was taken from: at least half of the lines each added there,
/// and nothing put in anywhere in the product but lines that commit removed (a
/// revert), which the caller counts. An agent cannot write the base's history,
/// so a test excused by it went with code that really came with it; taking out
/// a fix to drop its test is still said, as a lead, for the judge to weigh
/// against the goal.
#[derive(Clone, Debug, Default)]
pub struct Born {
    pub lines: HashMap<String, HashMap<usize, String>>,
    pub taken_out: HashMap<String, Vec<String>>,
}

impl Born {
    /// Why the lines of `before` at `span` (of the test named `name`, when a
    /// whole test) in the test file at `path` went with the code: the commit
    /// that wrote the test's name (or the span's first line) wrote more than
    /// half of its other lines too, and its code was taken out of a
    /// file this test file reaches (`reached`, asked once per commit). A test
    /// renamed in a commit, or one written beside a version bump it never reads,
    /// is not that commit's. `starts`: where each line of `before` starts, so a
    /// file of thousands of lost tests is read once, not once per test.
    fn excuses(
        &self,
        (path, before, starts): (&str, &str, &[usize]),
        span: &std::ops::Range<usize>,
        name: Option<&str>,
        reached: &dyn Fn(&String) -> bool,
    ) -> Option<String> {
        let lines = self.lines.get(path)?;
        let whole = before.get(span.clone())?;
        let line_of = |at: usize| starts.partition_point(|&s| s <= at);
        let at = name
            .and_then(|n| whole.find(n))
            .map_or(span.start, |k| span.start + k);
        let commit = lines.get(&line_of(at))?;
        if !reached(commit) {
            return None;
        }
        let (first, named) = (line_of(span.start), line_of(at));
        let written: Vec<bool> = (whole.lines().enumerate())
            .filter(|(k, l)| !l.trim().is_empty() && first + k != named)
            .map(|(k, _)| lines.get(&(first + k)) == Some(commit))
            .collect();
        let its = written.iter().filter(|w| **w).count();
        if its * 2 <= written.len() {
            return None;
        }
        let short = commit.get(..8).unwrap_or(commit);
        Some(format!("written with commit {short}'s code, now taken out"))
    }

    /// Whether code of `commit` was taken out of a file the test file at
    /// `path` (its text `before`) reaches: asked once per commit and file.
    fn reached_by(&self, path: &str, before: &str) -> HashMap<&String, bool> {
        let said: HashSet<&str> = words(before).collect();
        (self.taken_out.iter())
            .map(|(commit, files)| {
                let reached = files.iter().any(|f| reaches_words(path, &said, f));
                (commit, reached)
            })
            .collect()
    }
}

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
fn top_bindings(grammar: Grammar, text: &str) -> Vec<String> {
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
    code_word_list(path, text).into_iter().collect()
}

/// [`code_words`], each as often as the code spells it, in order.
fn code_word_list<'t>(path: &str, text: &'t str) -> Vec<&'t str> {
    let Some(tree) = Grammar::of(path).and_then(|g| clean_tree(g, text)) else {
        return words(text).collect();
    };
    let mut out = Vec::new();
    // A statement that is a string alone (a docstring, `'use strict'`) says
    // nothing the code does, and a string is read whole: the walk is in
    // document order, so what either holds is what starts before its end.
    let mut said = 0;
    for n in preorder(tree.root_node()) {
        if n.start_byte() < said {
            continue;
        }
        let kind = n.kind();
        if kind == "expression_statement"
            && n.named_child_count() == 1
            && n.named_child(0)
                .is_some_and(|c| c.kind().contains("string"))
        {
            said = n.end_byte();
        } else if kind.contains("string") {
            // A string's whole text, once: some grammars split it at its escapes.
            out.extend(words(&text[n.byte_range()]));
            said = n.end_byte();
        } else if n.child_count() == 0 && !kind.contains("comment") {
            out.extend(words(&text[n.byte_range()]));
        }
    }
    out
}

fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

fn words(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty())
}

/// Each word's count in a test file's code (at `path`, its comments left out)
/// less its count in the file's assertion `statements`: how often its own code
/// outside its checks (the input it hands the code, a message it raises)
/// spells the word.
pub(super) fn outside_checks(
    path: &str,
    text: &str,
    statements: &[String],
) -> HashMap<String, isize> {
    let mut out: HashMap<String, isize> = HashMap::new();
    for w in code_word_list(path, text) {
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

/// Whether a check's expected value changed from `was` to `now` only in
/// numbers that are the test file's own line numbers, each following its line:
/// line `a` of the file's old text (`before`) is line `b` of its new (`after`),
/// the same text and found once on each side (loguru's expected log records
/// naming the line a logging call stands on, 157 become 158 as a line went in
/// above it). The code's output is what it was; the line moved. The value
/// must name the test file (its name without extension) to be read so: an
/// agent could otherwise put lines in above any number's namesake line.
pub(super) fn follows_lines(
    was: &str,
    now: &str,
    (path, before, after): (&str, &str, &str),
) -> bool {
    // Only a value that names the test file itself (`test_interception.py` in
    // the record) reads its lines: else any number below the file's length
    // changed, with lines put in above its namesake line, would read as moved.
    let file = path.rsplit('/').next().unwrap_or(path);
    let stem = file.split('.').next().unwrap_or(file);
    if stem.len() < 3 || !was.contains(stem) {
        return false;
    }
    // Runs of digits and of the rest, in order.
    let runs = |t: &str| -> Vec<(bool, String)> {
        let mut out: Vec<(bool, String)> = Vec::new();
        for c in t.chars() {
            let digit = c.is_ascii_digit();
            match out.last_mut() {
                Some((d, run)) if *d == digit => run.push(c),
                _ => out.push((digit, c.to_string())),
            }
        }
        out
    };
    let (old, new) = (runs(was), runs(now));
    if old.len() != new.len()
        || old
            .iter()
            .zip(&new)
            .any(|(o, n)| o.0 != n.0 || (!o.0 && o.1 != n.1))
    {
        return false;
    }
    let old_lines: Vec<&str> = before.lines().map(str::trim).collect();
    let new_lines: Vec<&str> = after.lines().map(str::trim).collect();
    let once = |lines: &[&str], text: &str| lines.iter().filter(|l| **l == text).count() == 1;
    let mut moved = 0;
    for (o, n) in old.iter().zip(&new).filter(|(o, n)| o.1 != n.1) {
        // A line's number is written plain: `05` become `5` is a fraction's.
        if o.1.starts_with('0') || n.1.starts_with('0') {
            return false;
        }
        let (Ok(a), Ok(b)) = (o.1.parse::<usize>(), n.1.parse::<usize>()) else {
            return false;
        };
        if a == b {
            return false;
        }
        let (Some(line), Some(then)) = (
            a.checked_sub(1).and_then(|i| old_lines.get(i)),
            b.checked_sub(1).and_then(|i| new_lines.get(i)),
        ) else {
            return false;
        };
        if line != then
            || line.chars().filter(|c| c.is_alphanumeric()).count() < 3
            || !once(&old_lines, line)
            || !once(&new_lines, then)
        {
            return false;
        }
        moved += 1;
    }
    moved > 0
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
/// tests that call it, or reworded with them, is the tests' own change. A
/// `helpers/` folder of the library (axios' `lib/helpers/`) is the code's; the
/// tests' own (`tests/helpers.py`) is known by its test folder. A word of the
/// path (split at its separators and its case) that starts like a test's own
/// (`testsupport/`, `mockserver.go`, `fakes.py`, `benchmarks/`) is the tests';
/// `spec` only as a whole word, so `specifiers.py` and `special/` are the
/// product's (helper 88), as is a `testament.py`.
pub fn product(path: &str, text: Option<&str>) -> bool {
    const TESTS_OWN: [&str; 6] = ["test", "fixture", "mock", "fake", "conftest", "bench"];
    let tests_own = path
        .split(['/', '_', '-', '.'])
        .flat_map(name_words)
        .any(|w| {
            (TESTS_OWN.iter().any(|t| w.starts_with(t))
                && !w.starts_with("testament")
                && !w.starts_with("testimon"))
                || w == "spec"
                || w == "specs"
        });
    Lang::of(path).is_some() && !tests_own && !is_test(path, text)
}

/// Whether a changed file's code, as the change leaves it, still counts as
/// code the product spells: any code file but one in the tests' own paths.
/// Not [`product`], which the start's side asks: a module named like a test's
/// own (`_testing.py`) or a Rust file given a `#[cfg(test)]` module of its own
/// is still imported and run, and the code moved there or kept beside such a
/// module was not taken out (review 125: either made every name the file
/// defines read as gone).
///
/// A folder of the tests' own (`testing/python/metafunc.py`, pytest's; a
/// `fixtures/` tree) holds none: its classes are tests, not the code renamed
/// (pytest `c470ade0`, whose `RemovedInPytest4Warning` read as kept beside a
/// test class added there). Only a file's own name may start like a test's.
fn still_code(path: &str) -> bool {
    const TESTS_OWN: [&str; 4] = ["test", "fixture", "mock", "fake"];
    let in_tests_folder = path.split('/').rev().skip(1).any(|dir| {
        dir.split(['_', '-', '.']).flat_map(name_words).any(|w| {
            (TESTS_OWN.iter().any(|t| w.starts_with(t)) && !w.starts_with("testament"))
                || w == "spec"
                || w == "specs"
        })
    });
    Lang::of(path).is_some() && !is_test_path(path) && !in_tests_folder
}

/// Whether a whole word of `path`, split at its separators (not its case:
/// `ToolBar.tsx` is the product's), is one of `stems`, or one of them plural
/// (`docs`, `tools`).
fn path_says(path: &str, stems: &[&str]) -> bool {
    path.to_ascii_lowercase()
        .split(['/', '_', '-', '.'])
        .any(|w| {
            stems.iter().any(|s| {
                w.strip_prefix(s)
                    .is_some_and(|rest| matches!(rest, "" | "s" | "es"))
            })
        })
}

/// The names the product's changed files defined at the start whose code the
/// change took out, each with the files it was defined in: no product file
/// defines or names them now, their body is nowhere in those files, and no
/// definition of their kind is new in them (a rename whose body was touched too,
/// `sub` become `subtract` with its variables renamed, is no removal). Test
/// files, and files no grammar reads, say nothing.
fn gone(changes: &[Change], stubs_count: bool) -> Gone {
    let mut defined: Vec<(Definition, &str)> = Vec::new();
    // Definitions whose body became nothing but a throw (`throw new Error('split
    // into individual middleware')`): their behaviour taken out as surely as
    // their text. Not where the verify was red at the start, where a function
    // stubbed out and its failing tests deleted is the cheap green.
    let (mut stubbed_then, mut stubbed_now): (HashSet<String>, HashSet<String>) =
        Default::default();
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
            bound.extend(top_bindings(grammar, before));
            stubbed_then.extend(stubs(grammar, before));
        }
        if let Some(after) = c.after.as_deref()
            && still_code(&c.path)
        {
            now_words.extend(words(after));
            now_text.push_str(&squeezed(after));
            if let Some(grammar) = Grammar::of(&c.path) {
                now.extend(
                    definitions(grammar, after)
                        .into_iter()
                        .map(|(name, _, kind, _)| (name, kind)),
                );
                if stubs_count {
                    stubbed_now.extend(stubs(grammar, after));
                }
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
        let stubbed = stubbed_now.contains(name) && !stubbed_then.contains(name);
        if stubbed
            || !now_words.contains(name.as_str())
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

/// The functions `text` defines whose body is one throw and nothing else (a
/// docstring or comments aside): JavaScript's `throw`, Python's `raise`, Go's
/// `panic(…)`, Rust's `panic!`, `unimplemented!`, `todo!` or `unreachable!`.
fn stubs(grammar: Grammar, text: &str) -> HashSet<String> {
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    let throws = |n: tree_sitter::Node<'_>| {
        let inner = match n.kind() {
            "expression_statement" => n.named_child(0),
            _ => Some(n),
        };
        inner.is_some_and(|e| match e.kind() {
            "throw_statement" | "raise_statement" => true,
            "macro_invocation" => e.child_by_field_name("macro").is_some_and(|m| {
                matches!(
                    &text[m.byte_range()],
                    "panic" | "unimplemented" | "todo" | "unreachable"
                )
            }),
            "call_expression" => {
                grammar == Grammar::Go
                    && e.child_by_field_name("function")
                        .is_some_and(|f| &text[f.byte_range()] == "panic")
            }
            _ => false,
        })
    };
    let mut out = HashSet::new();
    for node in preorder(tree.root_node()).filter(|n| DEFINITIONS.contains(&n.kind())) {
        let (Some(name), Some(body)) = (
            node.child_by_field_name("name"),
            node.child_by_field_name("body"),
        ) else {
            continue;
        };
        let mut walk = body.walk();
        let statements: Vec<_> = (body.named_children(&mut walk))
            .filter(|c| c.kind() != "comment" && c.kind() != "line_comment")
            .filter(|c| {
                !(c.kind() == "expression_statement"
                    && c.named_child(0).is_some_and(|e| e.kind() == "string"))
            })
            .collect();
        if let [only] = statements[..]
            && throws(only)
        {
            out.insert(text[name.byte_range()].to_string());
        }
    }
    out
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
    reacher(test, text)(code)
}

/// [`reaches`] for one test file, its words and the folders it requires read
/// once: asked of every name a change thinned, a file read each time costs the
/// names times the file.
fn reacher<'t>(test: &'t str, text: &'t str) -> impl Fn(&str) -> bool + 't {
    let said: HashSet<&str> = words(text).collect();
    let dirs = required_dirs(test, text);
    move |code| {
        reaches_words(test, &said, code)
            || dirs
                .iter()
                .any(|d| d.is_empty() || code.starts_with(&format!("{d}/")))
    }
}

/// The folders a JavaScript test file requires or imports whole by a path of
/// dots alone (`require('../..')`, `from '..'`): the package there, whose
/// entry reaches the code under it. Each resolved from the test's own folder
/// ("" for the repository's root; none for a path that climbs past it).
fn required_dirs(test: &str, text: &str) -> Vec<String> {
    if !matches!(Grammar::of(test), Some(g) if g.is_js()) {
        return Vec::new();
    }
    let folder: Vec<&str> = test
        .rsplit_once('/')
        .map_or(vec![], |(d, _)| d.split('/').collect());
    let mut out = Vec::new();
    let bytes = text.as_bytes();
    let mut at = 0;
    while at < bytes.len() {
        let q = bytes[at];
        if !matches!(q, b'\'' | b'"' | b'`') {
            at += 1;
            continue;
        }
        // A path of dots and slashes, closed by the same quote.
        let body: Vec<u8> = bytes[at + 1..]
            .iter()
            .copied()
            .take_while(|b| matches!(b, b'.' | b'/'))
            .take(64)
            .collect();
        let end = at + 1 + body.len();
        let steps = || text[at + 1..end].split('/');
        // Only what `require(…)`, `import(…)` or `from`/`import` names
        // (review 122: `path.join(__dirname, '..')` is a path, not a module).
        let lead = text[..at].trim_end();
        let named = ["require(", "import(", "from", "import"]
            .iter()
            .any(|w| lead.ends_with(w));
        if named
            && body.first() == Some(&b'.')
            && bytes.get(end) == Some(&q)
            && steps().all(|step| matches!(step, "." | ".." | ""))
        {
            let mut dir = folder.clone();
            let mut inside = true;
            for step in steps() {
                if step == ".." {
                    // Past the repository's root: no package of it.
                    inside &= dir.pop().is_some();
                }
            }
            if inside {
                out.push(dir.join("/"));
            }
        }
        at = end.max(at + 1);
    }
    out.sort();
    out.dedup();
    out
}

/// [`reaches`], with the test file's words (`said`) read once.
fn reaches_words(test: &str, said: &HashSet<&str>, code: &str) -> bool {
    let parent = |p: &str| p.rsplit_once('/').map_or("", |(d, _)| d).to_string();
    if parent(test) == parent(code) {
        return true;
    }
    let file = code.rsplit('/').next().unwrap_or(code);
    let stem = file.split('.').next().unwrap_or(file);
    let folder = parent(code);
    let folder = folder.rsplit('/').next().unwrap_or("");
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

/// One thing a test file lost: a test or an assertion.
struct Lost {
    /// Its bytes in the file's old text.
    span: std::ops::Range<usize>,
    /// A whole test's name (`None`: an assertion of a test kept).
    name: Option<String>,
    /// The suites a whole test sits in (`describe('createToken')`), as its scope.
    suites: String,
    /// Its assertions' text (its own, for an assertion).
    checks: Vec<String>,
}

/// What a test file lost between `before` and `after` (`None`: deleted): each
/// test gone, with its assertions (a test of two functions removed with one of
/// them loses the other's checks too), and each assertion gone from a test kept.
fn lost(grammar: Grammar, before: &str, after: Option<&str>) -> Option<Vec<Lost>> {
    let old = syntax::view(grammar, before)?;
    let new = match after {
        Some(after) => syntax::view(grammar, after)?,
        None => syntax::View::default(),
    };
    let key = |t: &syntax::Test| (t.scope.clone(), t.name.clone());
    let check = |a: &syntax::Assertion| Lost {
        span: a.span.clone(),
        name: None,
        suites: String::new(),
        checks: vec![a.text.clone()],
    };
    // Tests of one name in one scope pair in their order, the k-th with the k-th.
    let mut seen: HashMap<(String, String), usize> = HashMap::new();
    let mut out = Vec::new();
    for test in &old.tests {
        let k = seen.entry(key(test)).or_default();
        let nth = *k;
        *k += 1;
        let Some(kept) = new.tests.iter().filter(|t| key(t) == key(test)).nth(nth) else {
            // The suites it sits in name what it tests as well
            // (`describe('createToken')` around a test of what the suite made
            // of it).
            before.get(test.span.clone())?;
            out.push(Lost {
                span: test.span.clone(),
                name: Some(test.name.clone()),
                suites: test.scope.clone(),
                checks: test.assertions.iter().map(|a| a.text.clone()).collect(),
            });
            continue;
        };
        let mut left: Vec<&str> = kept.assertions.iter().map(|a| a.normal.as_str()).collect();
        for a in &test.assertions {
            match left.iter().position(|n| *n == a.normal) {
                Some(k) => {
                    left.swap_remove(k);
                }
                None => out.push(check(a)),
            }
        }
    }
    let mut left: Vec<&str> = new.loose.iter().map(|a| a.normal.as_str()).collect();
    for a in &old.loose {
        match left.iter().position(|n| *n == a.normal) {
            Some(k) => {
                left.swap_remove(k);
            }
            None => out.push(check(a)),
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
    /// The names and literals the code took out ([`gone_tokens`]).
    tokens: OnceCell<Tokens>,
    /// The names the code spells half as often or less ([`thinned`]), read
    /// only where the verify was not red at the start.
    thinned: OnceCell<Tokens>,
    /// Whether a code file the product ships changed what it spells outside
    /// its comments and docstrings.
    changed: OnceCell<bool>,
    /// Whether the goal's verify failed at its start ([`super::hacks::Given`]).
    red_start: bool,
    born: &'c Born,
    /// The thinned names renamed, asked of every test file's lost tests.
    renames: Renames,
}

impl<'c> Code<'c> {
    pub(super) fn new(changes: &'c [Change], red_start: bool, born: &'c Born) -> Code<'c> {
        Code {
            changes,
            gone: OnceCell::new(),
            words: OnceCell::new(),
            tokens: OnceCell::new(),
            thinned: OnceCell::new(),
            changed: OnceCell::new(),
            red_start,
            born,
            renames: Renames::default(),
        }
    }

    /// Whether an exact expected value changed may be a lead rather than a
    /// rewrite: shipped code changed ([`Self::changed`]) and the verify was not
    /// red at the start, where changing the check is the cheap way to green.
    pub(super) fn may_follow(&self) -> bool {
        !self.red_start && self.changed()
    }

    /// Whether the change changes the code the product ships: a code file
    /// there at the start and still there ([`ships_code`]) whose words outside
    /// comments, docstrings and (Rust) its own tests are not the same, in the
    /// same order, on both sides. A comment or a docstring reworded is no change
    /// of what the code does; nor is a file added, deleted or moved into the
    /// product, which costs nothing to make. Any such file counts, not only one
    /// the test names: a monorepo's test reaches its code through a package
    /// name no path spells, and an agent could as cheaply edit a file the test
    /// does name.
    pub(super) fn changed(&self) -> bool {
        *self.changed.get_or_init(|| {
            self.changes.iter().any(|c| {
                let old_path = c.was.as_deref().unwrap_or(&c.path);
                let (Some(before), Some(after)) = (c.before.as_deref(), c.after.as_deref()) else {
                    return false;
                };
                ships_code(old_path, before)
                    && ships_code(&c.path, after)
                    && shipped_words(old_path, before) != shipped_words(&c.path, after)
            })
        })
    }

    /// Whether a check's expected value changed from `was` to `now` the way the
    /// code did: a word the new check has and the old lacks is one the code
    /// gained, and a word the old check has and the new lacks is one the code
    /// lost, and the check lost one at least. Numbers and short words are no
    /// evidence (`5` become `6` is what a test made to agree with wrong code
    /// reads like), nor a docstring's.
    pub(super) fn follows(&self, test: &Change, was: &str, now: &str) -> bool {
        let test_path = test.was.as_deref().unwrap_or(&test.path);
        let text = test.before.as_deref().unwrap_or_default();
        self.follows_where(|p| reaches(test_path, text, p), was, now, false)
    }

    /// [`Code::follows`] for expected data, which imports nothing: the words
    /// of any code file the product ships count. Its numbers too must be ones
    /// the code gained or lost: else a constant renamed to the broken output's
    /// word buys the lead for a golden total the broken code gets wrong (42
    /// become 0) rewritten beside it (helper 123).
    pub(super) fn data_follows(&self, was: &str, now: &str) -> bool {
        self.follows_where(|_| true, was, now, true)
    }

    /// [`Code::follows`] over the changed code files whose path `reached` says;
    /// with `numbers`, a number the check gained or lost must be one the code did.
    fn follows_where(
        &self,
        reached: impl Fn(&str) -> bool,
        was: &str,
        now: &str,
        numbers: bool,
    ) -> bool {
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
        let mut gained: HashSet<&str> = HashSet::new();
        let mut lost: HashSet<&str> = HashSet::new();
        for (paths, [g, l]) in files {
            if paths.iter().any(|p| reached(p)) {
                gained.extend(g.iter().map(String::as_str));
                lost.extend(l.iter().map(String::as_str));
            }
        }
        let telling = |w: &str| w.len() >= 3 && w.chars().any(char::is_alphabetic);
        let (old, new): (HashSet<&str>, HashSet<&str>) =
            (words(was).collect(), words(now).collect());
        let number = |w: &str| numbers && w.chars().all(|c| c.is_ascii_digit());
        if (new.difference(&old)).any(|w| number(w) && !gained.contains(w))
            || (old.difference(&new)).any(|w| number(w) && !lost.contains(w))
        {
            return false;
        }
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
        let gone = self
            .gone
            .get_or_init(|| gone(self.changes, !self.red_start));
        let tokens = self.tokens.get_or_init(|| {
            let defined = gone.0.keys().chain(&gone.1).cloned().collect();
            gone_tokens(self.changes, &defined)
        });
        // Thinned words excuse nothing where the verify was red at the start:
        // a failing test deleted is what a cheap green reads like there.
        let empty = Tokens::new();
        let thinned = match self.red_start {
            true => &empty,
            false => self.thinned.get_or_init(|| thinned(self.changes)),
        };
        settle(
            change,
            what,
            gone,
            (tokens, thinned, self.changes, &self.renames),
            self.born,
        )
    }
}

fn removal(p: &Part) -> bool {
    p.rule == RuleId::AssertionsRemoved
}

fn settle(
    change: &Change,
    what: Vec<Part>,
    (gone, kept): &Gone,
    (tokens, thinned, changes, renames): (&Tokens, &Tokens, &[Change], &Renames),
    born: &Born,
) -> Vec<Part> {
    let old_path = change.was.as_deref().unwrap_or(&change.path);
    let (Some(before), Some(grammar)) = (change.before.as_deref(), Grammar::of(old_path)) else {
        return what;
    };
    let reach = reacher(old_path, before);
    // Only what this test file reached: a same-named definition deleted from a
    // file it never imports (an example's `sub`) leaves the tested code whole.
    let gone: HashSet<String> = gone
        .iter()
        .filter(|(_, files)| {
            files.iter().any(|(f, receiver)| {
                reach(f)
                    && receiver
                        .as_deref()
                        .is_none_or(|r| words(before).any(|w| w == r))
            })
        })
        .map(|(name, _)| name.clone())
        .collect();
    // What a test's name may name: the definitions gone, and the names the code
    // declared (a binding, a field) that it took out of a file
    // this test file reaches.
    let mut named_gone = gone.clone();
    named_gone.extend(
        tokens
            .iter()
            .filter(|(_, files)| files.iter().any(|f| reach(f)))
            .map(|(t, _)| t.clone()),
    );
    let gone = &gone;
    if gone.is_empty()
        && tokens.is_empty()
        && thinned.is_empty()
        && !born.lines.contains_key(old_path)
    {
        return what;
    }
    let Some(lost) = lost(grammar, before, change.after.as_deref()) else {
        return what;
    };
    // Read once for the file, not once per test lost ([`Born::excuses`]).
    let (reached, starts) = match born.lines.contains_key(old_path) {
        true => {
            let starts: Vec<usize> = std::iter::once(0)
                .chain(before.match_indices('\n').map(|(k, _)| k + 1))
                .collect();
            (born.reached_by(old_path, before), starts)
        }
        false => (HashMap::new(), Vec::new()),
    };
    // The test file's own names and literals, each where it stands; those its
    // kept tests still use are no tie of the lost ones to the code.
    let mut mine = code_tokens(grammar, before);
    mine.sort_by_key(|t| t.0);
    let still_mine: HashSet<String> = change
        .after
        .as_deref()
        .map(|a| code_tokens(grammar, a).into_iter().map(|t| t.1).collect())
        .unwrap_or_default();
    // A lost test's own tokens, found by halving, not by reading the file's
    // every token for each of thousands of lost tests.
    let within = |span: &std::ops::Range<usize>| {
        let from = mine.partition_point(|t| t.0 < span.start);
        let to = mine.partition_point(|t| t.0 < span.end);
        &mine[from..to.max(from)]
    };
    let taken = |span: &std::ops::Range<usize>| -> Option<String> {
        let mut found: Vec<&String> = within(span)
            .iter()
            .filter(|(_, t)| tokens.contains_key(t) && !still_mine.contains(t))
            .map(|(_, t)| t)
            .collect();
        found.sort();
        found.first().map(|t| (*t).clone())
    };
    // A name the code the test file reaches now spells half as often or less,
    // and only in text ([`thinned`]), ties a lost test that spells it (or is
    // named for it) to the feature cut down: `skip_missing` dropped from
    // every signature, kept only in a warning that the option is gone. Only a
    // name of two words or more, or of six letters (`formatio`), not a word
    // any test may say (`keys`, `math`), nor a variable of the test's own.
    // The change's untouched files are not read: an option dropped from one
    // signature reads as dropped from all (review 125's known hole).
    let named_thinned: HashSet<String> = thinned
        .iter()
        .filter(|(t, files)| {
            (name_words(t).len() >= 2 || t.len() >= 6) && files.iter().any(|f| reach(f))
        })
        .map(|(t, _)| t.clone())
        .collect();
    // The file's own definitions lost with its tests (a schema class a suite
    // of them builds) lend them their words; the variables its functions bind
    // are its own, whatever the code spells ([`own_variables`]), where it
    // spells them as variables ([`variable_uses`]).
    let locals = lost_locals(grammar, before, change.after.as_deref());
    let own = own_variables(grammar, before);
    let plain = variable_uses(grammar, before);
    // Each helper read once for the file, and each name's rename asked once,
    // not once per test lost: a file of thousands of lost tests, each calling
    // the same helper or spelling the same name, would read the helper, or
    // the code for a rename, each time.
    let ties = |span: &std::ops::Range<usize>| -> Vec<&String> {
        within(span)
            .iter()
            .filter(|(at, t)| {
                !still_mine.contains(t)
                    && named_thinned.contains(t)
                    && !(own.contains(t) && plain.contains(at))
            })
            .map(|(_, t)| t)
            .collect()
    };
    let local_ties: RefCell<HashMap<&str, Vec<&String>>> = RefCell::new(HashMap::new());
    let not_renamed = |t: &String| !renames.thinned(changes, &thinned[t], t);
    let cut = |span: &std::ops::Range<usize>| -> Option<String> {
        let mut found = ties(span);
        let mut helpers: Vec<&str> = within(span)
            .iter()
            .map(|(_, t)| t.as_str())
            .filter(|t| locals.contains_key(*t))
            .collect();
        helpers.sort();
        helpers.dedup();
        for h in helpers {
            let mut memo = local_ties.borrow_mut();
            found.extend(memo.entry(h).or_insert_with(|| ties(&locals[h])).iter());
        }
        found.sort();
        found.dedup();
        found.into_iter().find(|t| not_renamed(t)).cloned()
    };
    // Each lost names a gone definition, and none of its assertions names only
    // code still there (`assert add(1, 2) == 3` in a test of `add` and `sub`);
    // or uses a name or literal of its own the code took out; or is a test
    // whose name names a gone definition (`TestNoArgsWhenTesting`, `isTesting`).
    let named: Option<Vec<String>> = lost
        .iter()
        .map(|l| {
            let whole = format!("{}\n{}", l.suites, &before[l.span.clone()]);
            let still =
                |a: &String| names_gone(a, gone).is_none() && words(a).any(|w| kept.contains(w));
            names_gone(&whole, gone)
                .filter(|_| !l.checks.iter().any(still))
                .cloned()
                .or_else(|| taken(&l.span))
                .or_else(|| l.name.as_deref().and_then(|n| named_for(n, &named_gone)))
                .map(|name| format!("`{name}` gone"))
                .or_else(|| cut(&l.span).map(|name| format!("`{name}` cut from the code")))
                .or_else(|| {
                    let name = l
                        .name
                        .as_deref()
                        .and_then(|n| named_for(n, &named_thinned))?;
                    not_renamed(&name).then(|| format!("`{name}` cut from the code"))
                })
                .or_else(|| {
                    let reached = |c: &String| reached.get(c).copied().unwrap_or(false);
                    born.excuses(
                        (old_path, before, &starts),
                        &l.span,
                        l.name.as_deref(),
                        &reached,
                    )
                })
        })
        .collect();
    let Some(named) = named else {
        return what;
    };
    let after: HashSet<&str> = change
        .after
        .as_deref()
        .map_or_else(HashSet::new, |a| a.lines().map(str::trim).collect());
    let mut at = 0;
    let mut out_lines = Vec::new();
    for line in before.split_inclusive('\n') {
        if !after.contains(line.trim()) {
            out_lines.push(at..at + line.len());
        }
        at += line.len();
    }
    let taken_out: String = out_lines
        .iter()
        .map(|r| &before[r.clone()])
        .collect::<Vec<_>>()
        .join("\n");
    let Some(why) = named.into_iter().min().or_else(|| {
        names_gone(&taken_out, gone)
            .cloned()
            .or_else(|| out_lines.iter().find_map(&taken))
            .map(|name| format!("`{name}` gone"))
    }) else {
        return what;
    };
    what.into_iter()
        .map(|p| match removal(&p) {
            true => Part::new(
                RuleId::RemovedWithCode,
                format!("{} with the code they tested ({why})", p.text),
            ),
            false => p,
        })
        .collect()
}

/// The gone definition a test's `name` is named for: every telling word of the
/// definition's name (`isTesting`: `testing`) is a word of the test's name, or
/// its plural (`quoteKeys` by "keys without quotes").
fn named_for(name: &str, gone: &HashSet<String>) -> Option<String> {
    let said: HashSet<String> = name_words(name).into_iter().collect();
    let mut found: Vec<&String> = gone
        .iter()
        .filter(|g| {
            let telling: Vec<String> = name_words(g)
                .into_iter()
                .filter(|w| w.len() >= 3 && w != "test")
                .collect();
            !telling.is_empty()
                && telling
                    .iter()
                    .all(|w| said.contains(w) || said.contains(&format!("{w}s")))
        })
        .collect();
    found.sort();
    found.first().map(|g| (*g).clone())
}

/// The words of a name, lowercase, split at its separators and its case
/// (`TestNoOSArgs`: `test`, `no`, `os`, `args`).
fn name_words(name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in words(name) {
        let chars: Vec<char> = part.chars().collect();
        let mut word = String::new();
        for (i, c) in chars.iter().enumerate() {
            let prev = i.checked_sub(1).map(|j| chars[j]);
            let next = chars.get(i + 1);
            let starts = c.is_uppercase()
                && prev.is_some_and(|p| {
                    p.is_lowercase()
                        || p.is_ascii_digit()
                        || (p.is_uppercase() && next.is_some_and(|n| n.is_lowercase()))
                });
            if starts && !word.is_empty() {
                out.push(std::mem::take(&mut word));
            }
            word.extend(c.to_lowercase());
        }
        if !word.is_empty() {
            out.push(word);
        }
    }
    out
}

/// Whether `path` is code the product ships: not an example, a demo or a
/// script beside it, whose lines an agent could drop at no cost to what the
/// tests test.
fn shipped(path: &str, text: Option<&str>) -> bool {
    // Whole words, one or many: `docker.py`, `Tooltip.tsx` and `sampling.py`
    // are the product's.
    product(path, text)
        && !path_says(
            path,
            &["example", "demo", "sample", "script", "doc", "tool"],
        )
}

/// Whether `path` holding `text` is code the product ships for
/// [`Code::changed`]: [`shipped`] (a Rust file whose tests are its own
/// `#[cfg(test)]` items too), and not a type stub, a tool's configuration, a
/// build or packaging script, or a vendored, installed or built copy.
fn ships_code(path: &str, text: &str) -> bool {
    let lower = path.to_ascii_lowercase();
    let name = lower.rsplit('/').next().unwrap_or(&lower);
    let inline_tests = name.ends_with(".rs") && !is_test_path(path);
    let aside = name.ends_with(".pyi")
        || name.ends_with(".d.ts")
        || name.contains(".config.")
        || name.starts_with('.')
        || [
            "setup.py",
            "noxfile.py",
            "build.rs",
            "fabfile.py",
            "gruntfile.js",
            "gulpfile.js",
        ]
        .contains(&name)
        || lower.split('/').any(|d| {
            [
                "vendor",
                "third_party",
                "node_modules",
                ".venv",
                "venv",
                "site-packages",
                "dist",
                "build",
                "target",
            ]
            .contains(&d)
        });
    !aside && (shipped(path, Some(text)) || (inline_tests && shipped(path, None)))
}

/// [`code_word_list`] of a code file, a Rust file's `#[cfg(test)]` modules and
/// `#[test]` functions left out (blanked, so the rest parses as it did).
fn shipped_words(path: &str, text: &str) -> Vec<String> {
    let all = || {
        code_word_list(path, text)
            .into_iter()
            .map(str::to_string)
            .collect()
    };
    if !path.ends_with(".rs") {
        return all();
    }
    let Some(tree) = clean_tree(Grammar::Rust, text) else {
        return all();
    };
    let mut cut: Vec<std::ops::Range<usize>> = Vec::new();
    for n in preorder(tree.root_node()) {
        if !matches!(n.kind(), "mod_item" | "function_item") {
            continue;
        }
        let mut attrs = Vec::new();
        let mut prev = n.prev_named_sibling();
        while let Some(p) = prev.filter(|p| p.kind() == "attribute_item") {
            attrs.push(p);
            prev = p.prev_named_sibling();
        }
        let tested = attrs.iter().any(|a| {
            let t: String = text[a.byte_range()].split_whitespace().collect();
            t == "#[cfg(test)]" || t == "#[test]" || t.ends_with("::test]")
        });
        if tested {
            let from = attrs.last().map_or(n.start_byte(), |a| a.start_byte());
            cut.push(from..n.end_byte());
        }
    }
    let mut blanked = text.to_string();
    for r in cut {
        // Spaces in place of each test item, byte for byte and its newlines
        // kept: the rest parses and reads as it did, and each later range
        // still points where it did.
        let spaces: String = text[r.clone()]
            .chars()
            .map(|c| match c {
                '\n' => "\n".to_string(),
                _ => " ".repeat(c.len_utf8()),
            })
            .collect();
        blanked.replace_range(r, &spaces);
    }
    code_word_list(path, &blanked)
        .into_iter()
        .map(str::to_string)
        .collect()
}

/// A file's code tokens, each with where it starts: its identifiers, and the
/// text of each string literal whole (its quotes off). Comments are none.
fn code_tokens(grammar: Grammar, text: &str) -> Vec<(usize, String)> {
    let Some(tree) = clean_tree(grammar, text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut strings: Vec<std::ops::Range<usize>> = Vec::new();
    for node in preorder(tree.root_node()) {
        let kind = node.kind();
        if strings.iter().any(|r| r.contains(&node.start_byte())) {
            continue;
        }
        if kind.contains("string") && !kind.contains("content") && !kind.contains("fragment") {
            strings.push(node.byte_range());
            let quoted = &text[node.byte_range()];
            let quotes = |c: char| matches!(c, '"' | '\'' | '`');
            let Some(open) = quoted.find(quotes) else {
                continue;
            };
            let inner = quoted[open..]
                .trim_start_matches(quotes)
                .trim_end_matches(quotes);
            out.push((node.start_byte(), inner.to_string()));
        } else if node.child_count() == 0 && kind.contains("identifier") {
            out.push((node.start_byte(), text[node.byte_range()].to_string()));
        }
    }
    out
}

/// The names a file declares for more than one function's use: a struct's or
/// a class's field, a constant or a variable of the file's top (past the
/// definitions [`gone`] follows) that the file reads. A parameter or a local a
/// rewrite renames at will is none, and so is an object's key: one dropped from
/// a table of defaults an unchanged file still reads is no feature taken out
/// (helper 84's red team).
fn declared(grammar: Grammar, text: &str) -> HashSet<String> {
    const FIELDS: [&str; 4] = [
        "field_declaration",
        "field_definition",
        "public_field_definition",
        "property_signature",
    ];
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    // A function's own constants are its locals: walked past, not up from each
    // (tree-sitter finds a parent from the root, past every sibling).
    let function =
        |kind: &str| kind.contains("function") || kind.contains("method") || kind == "func_literal";
    let root = tree.root_node();
    let fields = preorder(root).filter(|n| FIELDS.contains(&n.kind()));
    // A binding of the top counts when the file reads it: an import bound and
    // never used, dropped, takes out no behaviour.
    let mut spelled: HashMap<&str, usize> = HashMap::new();
    for n in preorder(root).filter(|n| n.child_count() == 0 && n.kind() == "identifier") {
        *spelled.entry(&text[n.byte_range()]).or_default() += 1;
    }
    let read = |n: &tree_sitter::Node<'_>| {
        n.kind() != "variable_declarator"
            || n.child_by_field_name("name")
                .is_some_and(|m| spelled.get(&text[m.byte_range()]).is_some_and(|c| *c > 1))
    };
    // Python's constants and class attributes are its module's and class's
    // assignments (`OLD_API = "…"`, `SKIPPABLE = (None,)`): other modules read
    // them, so one spelled once here is no dead binding.
    let python = grammar == Grammar::Python;
    let tops = syntax::pruned(root, function)
        .filter(|n| {
            matches!(n.kind(), "const_spec" | "var_spec" | "variable_declarator")
                || (python && n.kind() == "assignment")
        })
        .filter(read);
    fields
        .chain(tops)
        .filter_map(|n| match n.kind() {
            "assignment" => n.child_by_field_name("left"),
            _ => n.child_by_field_name("name"),
        })
        .filter(|n| n.child_count() == 0 && (!python || n.kind() == "identifier"))
        .map(|n| text[n.byte_range()].to_string())
        .collect()
}

/// Python's constants of the module's or a class's top bound to a string
/// (`OLD_API = "old_api is deprecated"`), each with the string's text as
/// [`code_tokens`] (`tokens`, of the same `text`) gives it.
fn string_constants(
    grammar: Grammar,
    text: &str,
    tokens: &[(usize, String)],
) -> HashMap<String, String> {
    let mut out = HashMap::new();
    if grammar != Grammar::Python {
        return out;
    }
    let Some(tree) = clean_tree(grammar, text) else {
        return out;
    };
    let function = |kind: &str| kind.contains("function");
    for n in syntax::pruned(tree.root_node(), function).filter(|n| n.kind() == "assignment") {
        let (Some(left), Some(right)) = (
            n.child_by_field_name("left"),
            n.child_by_field_name("right"),
        ) else {
            continue;
        };
        if left.kind() != "identifier" || right.kind() != "string" {
            continue;
        }
        let at = tokens.partition_point(|t| t.0 < right.start_byte());
        if let Some((k, value)) = tokens.get(at)
            && *k == right.start_byte()
        {
            out.insert(text[left.byte_range()].to_string(), value.clone());
        }
    }
    out
}

/// Whether `change` took out more lines than it put in: a removal, not a
/// rewrite (whose dropped names and literals are no sign of a feature gone).
fn cut_down(change: &Change) -> bool {
    let (Some(before), Some(after)) = (change.before.as_deref(), change.after.as_deref()) else {
        return false;
    };
    let squeeze = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let old: HashSet<String> = before.lines().map(squeeze).collect();
    let new: HashSet<String> = after.lines().map(squeeze).collect();
    old.difference(&new).count() > new.difference(&old).count()
}

/// The names and literals the change took out of the code it ships, each with
/// the files that declared it as a name ([`declared`]; none for a literal).
type Tokens = HashMap<String, Vec<String>>;

/// The names and literals the change took out of the code it ships: a literal
/// (`'back'`, an error message, a flag's name) or a declared name (a struct's
/// field) a changed code file cut down had before, that no changed code file
/// has now, outside its comments, and that no line kept renamed
/// ([`Lines::renamed`]: the line taken out with it replaced by a new token is
/// a line added). The definitions [`gone`] reads, `defined`, are its to say.
fn gone_tokens(changes: &[Change], defined: &HashSet<String>) -> Tokens {
    let mut had: Vec<(usize, String, bool, Option<String>)> = Vec::new();
    let mut now: HashSet<String> = HashSet::new();
    // The code files the syntax trees cannot read now (past their size, or not
    // clean), whose text still holds what they spell: else code moved into a
    // module padded with a comment of megabytes reads as taken out (review
    // 125).
    let mut unread = String::new();
    for (i, c) in changes.iter().enumerate() {
        let old_path = c.was.as_deref().unwrap_or(&c.path);
        if let Some(after) = c.after.as_deref()
            && still_code(&c.path)
            && let Some(grammar) = Grammar::of(&c.path)
        {
            now.extend(code_tokens(grammar, after).into_iter().map(|t| t.1));
            if clean_tree(grammar, after).is_none() {
                // Its lines of comment alone aside: a flag named in a note
                // that it is gone (etcd `31701e252e`: "now that --max-snapshots
                // is removed") is no spelling of it.
                let comment = if grammar == Grammar::Python {
                    "#"
                } else {
                    "//"
                };
                for line in after
                    .lines()
                    .filter(|l| !l.trim_start().starts_with(comment))
                {
                    unread.push_str(line);
                    unread.push('\n');
                }
            }
        }
        // A file deleted whole says nothing of a token: its definitions do.
        let (Some(before), Some(_), Some(grammar)) = (
            c.before.as_deref(),
            c.after.as_deref(),
            Grammar::of(old_path),
        ) else {
            continue;
        };
        if !shipped(old_path, Some(before)) || !cut_down(c) {
            continue;
        }
        let names = declared(grammar, before);
        let tokens = code_tokens(grammar, before);
        let values = string_constants(grammar, before, &tokens);
        for (at, token) in tokens {
            let literal = before[at..].starts_with(|ch: char| !(ch.is_alphanumeric() || ch == '_'))
                || !before[at..].starts_with(token.as_str());
            if literal || names.contains(&token) {
                let value = values.get(&token).cloned().filter(|_| !literal);
                had.push((i, token, literal, value));
            }
        }
    }
    if !unread.is_empty() {
        let asked = had
            .iter()
            .flat_map(|h| std::iter::once(h.1.as_str()).chain(h.3.as_deref()));
        let found: Vec<String> = still_in(asked, &unread)
            .into_iter()
            .map(str::to_string)
            .collect();
        now.extend(found);
    }
    let telling = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).count() >= 3;
    let renames = Renames::default();
    let mut out: Tokens = HashMap::new();
    for (i, token, literal, value) in &had {
        // A constant whose text the code still spells was inlined, not taken
        // out: `warnings.warn(OLD_API)` become `warnings.warn("old_api is …")`.
        if now.contains(token)
            || value.as_ref().is_some_and(|v| now.contains(v))
            || defined.contains(token)
            || !telling(token)
            || renames.renamed(*i, &changes[*i], token)
        {
            continue;
        }
        let files = out.entry(token.clone()).or_default();
        let path = changes[*i].was.as_deref().unwrap_or(&changes[*i].path);
        if !literal && !files.iter().any(|f| f == path) {
            files.push(path.to_string());
        }
    }
    out
}

/// The names of the code the product ships that the change thinned, each with
/// the files it thinned them in: bound by that code before ([`bound`], or a
/// function's variable, [`own_variables`]), and
/// spelled (as a name or in a literal) at most
/// half as often in the changed code files now, outside comments, but still
/// spelled, and only in text (a warning that the option is gone, a key
/// checked): no changed code file names it in its code now ([`code_names`]),
/// let alone defines or declares it. A parameter, a local or an attribute the
/// code still names is still threaded through it, and a refactor spells one
/// less at will (`if n is None: n = 1024` folded into `data[:n or 1024]`;
/// review 125). A word of a few letters says nothing. A literal only ever
/// quoted must be gone ([`gone_tokens`]): one moved into a constant (`CODEPAGE
/// = "windows-1252"`) is spelled less, and does the same. The files are those
/// that spell it less themselves: one that spells it as often as it did is no
/// code the name was cut from, and a test that reaches only it is tied to
/// nothing (review 125: a name cut from a command-line script the test never
/// imports). Whether a line holding one was renamed is asked of the few a lost
/// test spells ([`Lines::renamed`] reads the whole file).
fn thinned(changes: &[Change]) -> Tokens {
    // Each name's spellings at the start, by file: the change's index, how
    // often it spelled it, and how often it spells it now (none where it was
    // only a function's variable there).
    let mut was: HashMap<String, Vec<(usize, usize, usize)>> = HashMap::new();
    let mut now: HashMap<String, usize> = HashMap::new();
    let mut named: HashSet<String> = HashSet::new();
    let mut names: HashSet<String> = HashSet::new();
    for (i, c) in changes.iter().enumerate() {
        let old_path = c.was.as_deref().unwrap_or(&c.path);
        let mut there: HashMap<String, usize> = HashMap::new();
        // A file the syntax trees cannot read now (past their size, or not
        // clean) spells what it spelled for all this can tell: else padding it
        // with a comment of megabytes thins every name it spells (review 125).
        let mut unread = false;
        if let Some(after) = c.after.as_deref()
            && still_code(&c.path)
            && let Some(grammar) = Grammar::of(&c.path)
        {
            unread = clean_tree(grammar, after).is_none();
            for (_, t) in code_tokens(grammar, after) {
                *there.entry(t).or_default() += 1;
            }
            // Every name a definition or a declaration binds is one of these.
            named.extend(code_names(grammar, after));
        }
        for (t, n) in &there {
            *now.entry(t.clone()).or_default() += n;
        }
        let (Some(before), Some(grammar)) = (c.before.as_deref(), Grammar::of(old_path)) else {
            continue;
        };
        if !shipped(old_path, Some(before)) {
            continue;
        }
        names.extend(bound(grammar, before));
        names.extend(own_variables(grammar, before));
        let mut here: HashMap<String, usize> = HashMap::new();
        let mut quoted: HashSet<String> = HashSet::new();
        for (at, t) in code_tokens(grammar, before) {
            let spelled_as_name = before[at..]
                .starts_with(|ch: char| ch.is_alphanumeric() || ch == '_')
                && before[at..].starts_with(t.as_str());
            if !spelled_as_name {
                quoted.insert(t.clone());
            }
            *here.entry(t).or_default() += 1;
        }
        if unread {
            named.extend(here.into_keys());
            continue;
        }
        // A variable a function of the file bound, and no parameter, is a
        // local a refactor drops at will: no feature cut from this file
        // (review 125: a dead local dropped, its name written into a debug
        // line, elsewhere in the package a failing test reaches by folder).
        // Unless the file quoted it too: an option read from `**kwargs` into
        // a local of its name (`kwargs.pop('skip_missing', False)`).
        let params = parameters(grammar, before);
        let variables: HashSet<String> = own_variables(grammar, before)
            .into_iter()
            .filter(|v| !params.contains(v) && !quoted.contains(v))
            .collect();
        for (t, n) in here {
            let left = match variables.contains(&t) {
                true => n,
                false => there.get(&t).copied().unwrap_or(0),
            };
            was.entry(t).or_default().push((i, n, left));
        }
    }
    let telling = |t: &str| t.chars().filter(|c| c.is_alphanumeric()).count() >= 4;
    let mut out: Tokens = HashMap::new();
    for (token, files) in was {
        let before: usize = files.iter().map(|f| f.1).sum();
        let after = now.get(&token).copied().unwrap_or(0);
        // A name the code no longer spells at all is [`gone_tokens`]' to say,
        // with its guards (a constant inlined, a rename).
        let cut: Vec<String> = files
            .iter()
            .filter(|(_, was, left)| left < was)
            .map(|(i, _, _)| {
                let c = &changes[*i];
                c.was.as_deref().unwrap_or(&c.path).to_string()
            })
            .collect();
        if after == 0
            || after * 2 > before
            || !telling(&token)
            || !names.contains(&token)
            || named.contains(&token)
            || cut.is_empty()
        {
            continue;
        }
        out.insert(token, cut);
    }
    out
}

/// Every name `text`'s code spells as one, not as text: each identifier of its
/// syntax tree, those inside a string's interpolation too (`f"{self.limit}"`,
/// which [`code_tokens`] reads as the string's text).
fn code_names(grammar: Grammar, text: &str) -> HashSet<String> {
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    preorder(tree.root_node())
        .filter(|n| n.child_count() == 0 && n.kind().contains("identifier"))
        .filter_map(|n| text.get(n.byte_range()))
        .map(str::to_string)
        .collect()
}

/// The names `text`'s functions take as parameters, each identifier of a
/// parameter list (its defaults' and types' too: a name read there is
/// threaded through as well).
fn parameters(grammar: Grammar, text: &str) -> HashSet<String> {
    const LISTS: [&str; 5] = [
        "parameters",
        "formal_parameters",
        "parameter_list",
        "lambda_parameters",
        "closure_parameters",
    ];
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    let mut out = HashSet::new();
    // A list's insides walked once: a list inside a list's default (a lambda)
    // is read with it, not again.
    let mut past = 0;
    for list in preorder(tree.root_node()).filter(|n| LISTS.contains(&n.kind())) {
        if list.start_byte() < past {
            continue;
        }
        past = list.end_byte();
        out.extend(
            preorder(list)
                .filter(|n| n.child_count() == 0 && n.kind().contains("identifier"))
                .filter_map(|n| text.get(n.byte_range()))
                .map(str::to_string),
        );
    }
    out
}

/// The names `text` binds itself: its definitions, what [`declared`] reads, a
/// function's parameters, and an attribute of its own object assigned
/// (`self.skip_missing = …`, `this.cache = …`). Not a name it only uses (a
/// global such as `module`, an import's member), which any code spells.
fn bound(grammar: Grammar, text: &str) -> HashSet<String> {
    let mut out: HashSet<String> = definitions(grammar, text)
        .into_iter()
        .map(|d| d.0)
        .collect();
    out.extend(declared(grammar, text));
    let Some(tree) = clean_tree(grammar, text) else {
        return out;
    };
    let leaf = |n: tree_sitter::Node<'_>| {
        (n.child_count() == 0 && n.kind().contains("identifier"))
            .then(|| text[n.byte_range()].to_string())
    };
    for n in preorder(tree.root_node()) {
        let kind = n.kind();
        if matches!(
            kind,
            "parameters" | "formal_parameters" | "lambda_parameters"
        ) {
            let mut walk = n.walk();
            out.extend(n.named_children(&mut walk).filter_map(leaf));
        } else if kind.contains("parameter") {
            out.extend(
                ["name", "pattern", "left"]
                    .iter()
                    .find_map(|f| n.child_by_field_name(f))
                    .and_then(leaf),
            );
        } else if matches!(kind, "assignment" | "assignment_expression")
            && let Some(left) = n.child_by_field_name("left")
            && matches!(left.kind(), "attribute" | "member_expression")
            && let Some(object) = left.child_by_field_name("object")
            && matches!(&text[object.byte_range()], "self" | "this")
        {
            out.extend(
                ["attribute", "property"]
                    .iter()
                    .find_map(|f| left.child_by_field_name(f))
                    .and_then(leaf),
            );
        }
    }
    out
}

/// The names `text` binds as a variable inside a function (`limit_bytes = 1`,
/// `const [a, b] = pair`): a test's own, no tie to a name the code spells less.
/// Else a dead local of the code's dropped, its name written into a string
/// (`log.debug('%s=%s', 'limit_bytes', limit)`), reads as an option cut down
/// to a failing test that happens to name a variable of its own the same
/// (review 125). A class's attribute (a schema's `Meta` option) and an
/// attribute stored (`self.x = …`) are no variable.
fn own_variables(grammar: Grammar, text: &str) -> HashSet<String> {
    const PATTERNS: [&str; 6] = [
        "pattern_list",
        "tuple_pattern",
        "list_pattern",
        "array_pattern",
        "object_pattern",
        "expression_list",
    ];
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    let function = |kind: &str| {
        kind.contains("function") || kind.contains("method") || kind.contains("closure")
    };
    let root = tree.root_node();
    // Walked once past the functions and once whole: a target the first walk
    // never saw stands inside a function.
    let outside: HashSet<usize> = syntax::pruned(root, function)
        .map(|n| n.start_byte())
        .collect();
    let mut out = HashSet::new();
    for n in preorder(root).filter(|n| !outside.contains(&n.start_byte())) {
        let target = match n.kind() {
            "assignment" | "augmented_assignment" | "short_var_declaration" => {
                n.child_by_field_name("left")
            }
            "variable_declarator" => n.child_by_field_name("name"),
            "let_declaration" => n.child_by_field_name("pattern"),
            _ => None,
        };
        let Some(target) = target else {
            continue;
        };
        let names: Vec<tree_sitter::Node<'_>> = match PATTERNS.contains(&target.kind()) {
            true => target.named_children(&mut target.walk()).collect(),
            false => vec![target],
        };
        out.extend(
            names
                .into_iter()
                .filter(|m| {
                    matches!(
                        m.kind(),
                        "identifier" | "shorthand_property_identifier_pattern"
                    )
                })
                .filter_map(|m| text.get(m.byte_range()))
                .map(str::to_string),
        );
    }
    out
}

/// Where `text` spells a name as a variable, read or bound: an identifier,
/// but not one that labels a keyword argument or names an attribute
/// (`Schema(skip_missing=skip_missing)`, `schema.skip_missing`), which name
/// the code's option whatever the test's variable is called.
fn variable_uses(grammar: Grammar, text: &str) -> HashSet<usize> {
    let Some(tree) = clean_tree(grammar, text) else {
        return HashSet::new();
    };
    let mut labels = HashSet::new();
    let mut out = HashSet::new();
    for n in preorder(tree.root_node()) {
        let label = match n.kind() {
            "keyword_argument" => n.child_by_field_name("name"),
            "attribute" => n.child_by_field_name("attribute"),
            _ => None,
        };
        if let Some(l) = label {
            labels.insert(l.start_byte());
        }
        if n.child_count() == 0 && n.kind() == "identifier" && !labels.contains(&n.start_byte()) {
            out.insert(n.start_byte());
        }
    }
    out
}

/// The definitions of a test file's `before` that its `after` (`None`:
/// deleted) no longer defines, each by name with its bytes.
fn lost_locals(
    grammar: Grammar,
    before: &str,
    after: Option<&str>,
) -> HashMap<String, std::ops::Range<usize>> {
    let kept: HashSet<String> = after
        .map(|a| definitions(grammar, a).into_iter().map(|d| d.0).collect())
        .unwrap_or_default();
    let Some(tree) = clean_tree(grammar, before) else {
        return HashMap::new();
    };
    preorder(tree.root_node())
        .filter(|n| DEFINITIONS.contains(&n.kind()))
        .filter_map(|n| {
            Some((
                before[n.child_by_field_name("name")?.byte_range()].to_string(),
                n.byte_range(),
            ))
        })
        .filter(|(name, _)| !kept.contains(name))
        .collect()
}

/// Which names the change's code files renamed ([`Lines::renamed`]): each
/// file read once however many names are asked of it, and each thinned name
/// asked once however many lost tests spell it (a file read per name and per
/// test costs the tests times the code).
#[derive(Default)]
struct Renames {
    files: RefCell<HashMap<usize, Option<Lines>>>,
    thinned: RefCell<HashMap<String, bool>>,
}

impl Renames {
    /// Whether a line holding the thinned `token` in any of `files` (old paths,
    /// [`thinned`]'s for it) was renamed.
    fn thinned(&self, changes: &[Change], files: &[String], token: &str) -> bool {
        if let Some(known) = self.thinned.borrow().get(token) {
            return *known;
        }
        let found = (changes.iter().enumerate())
            .filter(|(_, c)| {
                files
                    .iter()
                    .any(|f| f == c.was.as_deref().unwrap_or(&c.path))
            })
            .any(|(i, c)| self.renamed(i, c, token));
        self.thinned.borrow_mut().insert(token.to_string(), found);
        found
    }

    /// [`Lines::renamed`] of the `i`-th change, `change`.
    fn renamed(&self, i: usize, change: &Change, token: &str) -> bool {
        (self.files.borrow_mut().entry(i))
            .or_insert_with(|| Lines::of(change))
            .as_ref()
            .is_some_and(|l| l.renamed(token))
    }
}

/// A changed code file's lines as [`Lines::renamed`] reads them: those it had
/// and those it added, squeezed of runs of whitespace, and the names and
/// literals new to it.
struct Lines {
    old: Vec<String>,
    added: HashSet<String>,
    new: Vec<String>,
}

impl Lines {
    fn of(change: &Change) -> Option<Lines> {
        let (before, after) = (change.before.as_deref()?, change.after.as_deref()?);
        let grammar = Grammar::of(&change.path)?;
        let squeeze = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
        let old: Vec<String> = before.lines().map(squeeze).collect();
        let old_lines: HashSet<&String> = old.iter().collect();
        let added: HashSet<String> = after
            .lines()
            .map(squeeze)
            .filter(|l| !old_lines.contains(l))
            .collect();
        let had: HashSet<String> = code_tokens(grammar, before)
            .into_iter()
            .map(|t| t.1)
            .collect();
        let new: Vec<String> = code_tokens(grammar, after)
            .into_iter()
            .map(|t| t.1)
            .filter(|t| !had.contains(t))
            .collect::<HashSet<_>>()
            .into_iter()
            .collect();
        Some(Lines { old, added, new })
    }

    /// Whether a line holding `token` became a line added with the token
    /// replaced by one the file did not have: a rename, the thing kept.
    fn renamed(&self, token: &str) -> bool {
        (self.old.iter())
            .filter(|l| l.contains(token) && !self.added.contains(*l))
            .any(|l| {
                self.new
                    .iter()
                    .any(|u| self.added.contains(&l.replace(token, u)))
            })
    }
}

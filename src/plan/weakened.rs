//! Weakened tests, found without a model: from each changed file's text before and
//! after, the test files that lost assertions or tests, gained skip markers or were
//! deleted, and the files the verify command rests on that changed. Heuristic and
//! pure: counts per file on code with comments and strings left out, so code that
//! moved inside a file is no finding and stronger tests are none either.

use std::fmt;

use serde::Serialize;

mod reach;

/// A language whose tests plan can count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Python,
    /// JavaScript and TypeScript.
    Js,
    Rust,
    Go,
}

impl Lang {
    /// The language of a file, by its extension.
    pub fn of(path: &str) -> Option<Lang> {
        let ext = file_name(path).rsplit_once('.')?.1;
        Some(match ext {
            "py" | "pyi" => Lang::Python,
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Lang::Js,
            "rs" => Lang::Rust,
            "go" => Lang::Go,
            _ => return None,
        })
    }
}

/// Whether plan needs the text of `path`: a test file by its name, or a Rust file
/// (whose text says whether it holds tests).
pub fn wanted(path: &str) -> bool {
    is_test_path(path) || Lang::of(path) == Some(Lang::Rust)
}

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Directories whose files are tests by convention.
const TEST_DIRS: [&str; 5] = ["tests", "test", "__tests__", "spec", "specs"];

/// Whether `path` is a test file by its language's naming conventions. A Rust file
/// is also one when its text has a test attribute ([`Counts::tests`]).
pub fn is_test_path(path: &str) -> bool {
    let Some(lang) = Lang::of(path) else {
        return false;
    };
    let mut dirs = path.split('/').rev().skip(1);
    if dirs.any(|d| TEST_DIRS.contains(&d)) {
        return true;
    }
    let name = file_name(path);
    match lang {
        Lang::Python => {
            name.starts_with("test_")
                || name.ends_with("_test.py")
                || name == "conftest.py"
                || name == "tests.py"
        }
        Lang::Js => {
            let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
            stem.ends_with(".test") || stem.ends_with(".spec")
        }
        Lang::Go => name.ends_with("_test.go"),
        Lang::Rust => false,
    }
}

/// What a file holds that makes its tests strong or weak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `assert`, `self.assertEqual(`, `expect(`, `assert_eq!`, `t.Errorf(`, …
    pub assertions: usize,
    /// Skip, expected-failure, to-do and focus markers (focusing one test skips the
    /// others): `@pytest.mark.skip`, `it.skip`, `xit`, `.only`, `#[ignore]`,
    /// `#[cfg(any())]`, `t.Skip(`.
    pub skips: usize,
    /// Test functions: `def test_…`, `it(`/`test(`, `#[test]`, `func Test…(`.
    pub tests: usize,
    /// Tests with an unconditional `return` at their top level and assertions after
    /// it, which no run reaches.
    pub early_returns: usize,
    /// Rust `macro_rules!` named like an assertion whose expansion calls nothing, so
    /// each use of one counts as an assertion and checks nothing.
    pub hollow_asserts: usize,
}

/// A changed file: its text at the goal's start (`None`: it did not exist) and now
/// (`None`: deleted). `was` is its path at the start when git saw a rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub was: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One file and what changed in it that weakens the check.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Finding {
    pub path: String,
    /// In words: `2 of 5 assertions removed`, `deleted (it had …)`.
    pub what: String,
}

impl fmt::Display for Finding {
    /// `path: what`, the form of a transcript's `weakened tests` line; the path's
    /// control characters are shown escaped so it stays one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = super::text::escape_controls(&self.path);
        write!(f, "{path}: {}", self.what)
    }
}

impl Finding {
    /// Reads back what [`Finding`]'s `Display` wrote. `what` never holds `": "`, so
    /// the last one ends the path.
    pub fn parse(line: &str) -> Option<Finding> {
        let (path, what) = line.rsplit_once(": ")?;
        Some(Finding {
            path: path.to_string(),
            what: what.to_string(),
        })
    }
}

/// What changed for the worse in `changes`: test files first by their counts, then
/// the `verify_files` (the files the verify command rests on) that existed at the
/// start and differ now. Sorted by path; stronger or equal tests give nothing.
pub fn find(changes: &[Change], verify_files: &[String]) -> Vec<Finding> {
    let mut out = Vec::new();
    for change in changes {
        if let Some(finding) = test_finding(change) {
            out.push(finding);
        } else if let Some(finding) = verify_finding(change, verify_files) {
            out.push(finding);
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// Whether a file is a test file, by its path or (Rust) its text.
fn is_test(path: &str, text: Option<&str>) -> bool {
    is_test_path(path)
        || (Lang::of(path) == Some(Lang::Rust)
            && text.is_some_and(|t| count(Lang::Rust, t).tests > 0))
}

fn test_finding(change: &Change) -> Option<Finding> {
    let old_path = change.was.as_deref().unwrap_or(&change.path);
    let before = change.before.as_deref()?;
    let was_test = is_test(old_path, Some(before));
    let old = count(Lang::of(old_path)?, before);
    let had = || had(&old);
    let Some(after) = change.after.as_deref() else {
        return (was_test && weighs(&old)).then(|| Finding {
            path: old_path.to_string(),
            what: format!("deleted ({})", had()),
        });
    };
    let now_test = is_test(&change.path, Some(after));
    if !was_test && !now_test {
        return None;
    }
    if was_test && !now_test && weighs(&old) {
        return Some(Finding {
            path: old_path.to_string(),
            what: format!(
                "renamed to {}, which is not a test file by its name ({})",
                super::text::escape_controls(&change.path),
                had()
            ),
        });
    }
    let new = match Lang::of(&change.path) {
        Some(lang) => count(lang, after),
        None => Counts::default(),
    };
    let mut what = Vec::new();
    if new.assertions < old.assertions {
        what.push(format!(
            "{} of {} removed",
            old.assertions - new.assertions,
            plural(old.assertions, "assertion")
        ));
    }
    if new.tests < old.tests {
        what.push(format!(
            "{} of {} removed",
            old.tests - new.tests,
            plural(old.tests, "test")
        ));
    }
    if new.skips > old.skips {
        what.push(format!(
            "{} added (now {})",
            plural(new.skips - old.skips, "skip marker"),
            new.skips
        ));
    }
    match new.early_returns.saturating_sub(old.early_returns) {
        0 => {}
        1 => what.push("1 test returns before its assertions".to_string()),
        n => what.push(format!("{n} tests return before their assertions")),
    }
    match new.hollow_asserts.saturating_sub(old.hollow_asserts) {
        0 => {}
        1 => what.push("an assertion macro that checks nothing was added".to_string()),
        n => what.push(format!(
            "{n} assertion macros that check nothing were added"
        )),
    }
    if what.is_empty() {
        return None;
    }
    if change.was.is_some() {
        what.push(format!(
            "renamed from {}",
            super::text::escape_controls(old_path)
        ));
    }
    Some(Finding {
        path: change.path.clone(),
        what: what.join(", "),
    })
}

fn verify_finding(change: &Change, verify_files: &[String]) -> Option<Finding> {
    if !verify_files.contains(&change.path) {
        return None;
    }
    let (before, after) = (change.before.as_deref()?, change.after.as_deref()?);
    if is_test(&change.path, Some(after)) || same_text(before, after) {
        return None;
    }
    Some(Finding {
        path: change.path.clone(),
        what: "the verify command rests on it, and it changed since the goal started".to_string(),
    })
}

/// Equal but for line endings and trailing blanks.
fn same_text(a: &str, b: &str) -> bool {
    a.lines()
        .map(str::trim_end)
        .eq(b.lines().map(str::trim_end))
}

/// A deleted file is a finding only when it held a test or an assertion.
fn weighs(counts: &Counts) -> bool {
    counts.assertions + counts.tests > 0
}

fn had(counts: &Counts) -> String {
    format!(
        "it had {} in {}",
        plural(counts.assertions, "assertion"),
        plural(counts.tests, "test")
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// A token of code, comments dropped and each string literal one `Str`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Ident(&'a str),
    Punct(char),
    Str,
}

/// The counts of `text` read as `lang`.
pub fn count(lang: Lang, text: &str) -> Counts {
    let (toks, spans) = spanned(lang, text);
    let mut counts = Counts::default();
    for i in 0..toks.len() {
        let (a, s, t) = at(lang, &toks, i);
        counts.assertions += usize::from(a);
        counts.skips += usize::from(s);
        counts.tests += usize::from(t);
    }
    if counts.tests > 0 && counts.assertions > 0 {
        let layout = reach::Layout {
            text,
            spans: &spans,
        };
        counts.early_returns = reach::early_returns(lang, &toks, &layout);
    }
    if lang == Lang::Rust {
        counts.hollow_asserts = reach::hollow_asserts(&toks);
    }
    counts
}

/// (assertion, skip, test) starting at token `i` of `lang`.
fn at(lang: Lang, toks: &[Tok<'_>], i: usize) -> (bool, bool, bool) {
    match lang {
        Lang::Python => python(toks, i),
        Lang::Js => js(toks, i),
        Lang::Rust => rust(toks, i),
        Lang::Go => go(toks, i),
    }
}

/// The identifier at `i`, if it is one.
fn ident<'a>(toks: &[Tok<'a>], i: usize) -> Option<&'a str> {
    match toks.get(i)? {
        Tok::Ident(name) => Some(name),
        _ => None,
    }
}

fn punct(toks: &[Tok<'_>], i: usize, c: char) -> bool {
    toks.get(i) == Some(&Tok::Punct(c))
}

/// The identifier before `i`, when `i` is `.`-preceded: `x.name` gives `x`.
fn receiver<'a>(toks: &[Tok<'a>], i: usize) -> Option<&'a str> {
    (i >= 2 && punct(toks, i - 1, '.'))
        .then(|| ident(toks, i - 2))
        .flatten()
}

fn after_dot(toks: &[Tok<'_>], i: usize) -> bool {
    i >= 1 && punct(toks, i - 1, '.')
}

/// (assertion, skip, test) starting at token `i`, for Python.
fn python(toks: &[Tok<'_>], i: usize) -> (bool, bool, bool) {
    let Some(name) = ident(toks, i) else {
        return (false, false, false);
    };
    let call = punct(toks, i + 1, '(');
    let recv = receiver(toks, i);
    let assertion = (name == "assert" && !after_dot(toks, i))
        || (name.starts_with("assert") && after_dot(toks, i) && call)
        || (recv == Some("pytest") && matches!(name, "raises" | "warns" | "fail"));
    // `mark.skip` under any spelling of pytest: `from pytest import mark`, `pt.mark`.
    let skip = (matches!(name, "skip" | "skipif" | "xfail") && recv == Some("mark"))
        || (recv == Some("pytest") && matches!(name, "skip" | "xfail" | "importorskip"))
        || (recv == Some("unittest")
            && matches!(name, "skip" | "skipIf" | "skipUnless" | "expectedFailure"))
        || (i >= 1
            && punct(toks, i - 1, '@')
            && matches!(name, "skip" | "skipIf" | "skipUnless" | "expectedFailure"))
        || (name == "skipTest" && after_dot(toks, i) && call);
    let test = name.starts_with("test") && i >= 1 && ident(toks, i - 1) == Some("def");
    (assertion, skip, test)
}

const JS_SUITES: [&str; 6] = ["it", "test", "describe", "suite", "context", "specify"];

/// (assertion, skip, test) starting at token `i`, for JavaScript and TypeScript.
fn js(toks: &[Tok<'_>], i: usize) -> (bool, bool, bool) {
    let Some(name) = ident(toks, i) else {
        return (false, false, false);
    };
    let call = punct(toks, i + 1, '(');
    let assertion =
        (name == "expect" && call) || (name == "assert" && (call || punct(toks, i + 1, '.')));
    let recv = receiver(toks, i);
    let skip = (matches!(name, "skip" | "todo" | "only")
        && recv.is_some_and(|r| JS_SUITES.contains(&r)))
        || (name == "skip" && recv == Some("this") && call)
        || (call
            && !after_dot(toks, i)
            && matches!(
                name,
                "xit" | "xtest" | "xdescribe" | "xcontext" | "xspecify" | "fit" | "fdescribe"
            ));
    let test = !after_dot(toks, i)
        && (call || punct(toks, i + 1, '.'))
        && matches!(name, "it" | "test" | "specify" | "xit" | "xtest" | "fit");
    (assertion, skip, test)
}

/// (assertion, skip, test) starting at token `i`, for Rust.
fn rust(toks: &[Tok<'_>], i: usize) -> (bool, bool, bool) {
    if let Some(name) = ident(toks, i) {
        let assertion = name.contains("assert") && punct(toks, i + 1, '!');
        return (assertion, false, false);
    }
    if !(punct(toks, i, '#') && punct(toks, i + 1, '[')) {
        return (false, false, false);
    }
    // The attribute's path: `test`, `tokio::test`, `ignore`, `cfg_attr`.
    let mut j = i + 2;
    let mut last = None;
    while let Some(name) = ident(toks, j) {
        last = Some(name);
        if punct(toks, j + 1, ':') && punct(toks, j + 2, ':') {
            j += 3;
        } else {
            j += 1;
            break;
        }
    }
    let ends = punct(toks, j, ']') || punct(toks, j, '(');
    match last {
        Some("test") if ends => (false, false, true),
        Some("ignore") => (false, true, false),
        Some("cfg") => (false, always_false(toks, j), false),
        Some("cfg_attr") => {
            let mut depth = 0usize;
            let inner = toks[j..].iter().take_while(|t| match t {
                Tok::Punct('(') => {
                    depth += 1;
                    true
                }
                Tok::Punct(')') => {
                    depth = depth.saturating_sub(1);
                    depth > 0
                }
                _ => true,
            });
            let ignored = inner.into_iter().any(|t| *t == Tok::Ident("ignore"));
            (false, ignored, false)
        }
        _ => (false, false, false),
    }
}

/// Whether the `cfg(...)` predicate opening at token `j` is one that never holds,
/// `any()` or `not(all())`: the item under it is compiled out, a skip by another name.
fn always_false(toks: &[Tok<'_>], j: usize) -> bool {
    let is = |k: usize, name: &str| ident(toks, k) == Some(name);
    let empty = |k: usize| punct(toks, k, '(') && punct(toks, k + 1, ')');
    punct(toks, j, '(')
        && ((is(j + 1, "any") && empty(j + 2))
            || (is(j + 1, "not") && punct(toks, j + 2, '(') && is(j + 3, "all") && empty(j + 4)))
}

const GO_RECEIVERS: [&str; 5] = ["t", "b", "tb", "f", "tt"];

/// (assertion, skip, test) starting at token `i`, for Go.
fn go(toks: &[Tok<'_>], i: usize) -> (bool, bool, bool) {
    let Some(name) = ident(toks, i) else {
        return (false, false, false);
    };
    let call = punct(toks, i + 1, '(');
    // `t.Errorf(`, or `s.T().Errorf(` in a suite.
    let testing = receiver(toks, i).is_some_and(|r| GO_RECEIVERS.contains(&r))
        || (i >= 4
            && punct(toks, i - 1, '.')
            && punct(toks, i - 2, ')')
            && punct(toks, i - 3, '(')
            && ident(toks, i - 4) == Some("T"));
    let assertion = call
        && ((testing
            && matches!(
                name,
                "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow"
            ))
            || (matches!(receiver(toks, i), Some("assert" | "require"))
                && name.starts_with(|c: char| c.is_ascii_uppercase())));
    let skip = call && testing && matches!(name, "Skip" | "Skipf" | "SkipNow");
    let test = call
        && name.starts_with("Test")
        && i >= 1
        && (ident(toks, i - 1) == Some("func") || punct(toks, i - 1, ')'));
    (assertion, skip, test)
}

/// `text` as tokens of `lang`: comments left out, each string or character literal
/// one [`Tok::Str`]. Cheap, not exact: a JavaScript regex literal holding a quote
/// can hide the code after it. With each token, the bytes of `text` it spans.
fn spanned(lang: Lang, text: &str) -> (Vec<Tok<'_>>, Vec<(usize, usize)>) {
    let bytes = text.as_bytes();
    let mut out = Vec::new();
    let mut spans = Vec::new();
    let mut i = 0;
    let at = |i: usize, s: &str| bytes[i..].starts_with(s.as_bytes());
    while i < bytes.len() {
        let (start, len) = (i, out.len());
        let b = bytes[i];
        if b.is_ascii_whitespace() {
            i += 1;
        } else if b == b'_' || b.is_ascii_alphabetic() || b >= 0x80 {
            let start = i;
            while i < bytes.len()
                && (bytes[i] == b'_' || bytes[i].is_ascii_alphanumeric() || bytes[i] >= 0x80)
            {
                i += 1;
            }
            let word = &text[start..i];
            // A Rust raw string: r"…", r#"…"#, br"…".
            if lang == Lang::Rust && matches!(word, "r" | "br") && i < bytes.len() {
                let hashes = bytes[i..].iter().take_while(|&&c| c == b'#').count();
                if bytes.get(i + hashes) == Some(&b'"') {
                    let close = format!("\"{}", "#".repeat(hashes));
                    i = find_bytes(bytes, i + hashes + 1, close.as_bytes())
                        .map_or(bytes.len(), |e| e + close.len());
                    out.push(Tok::Str);
                    spans.push((start, i));
                    continue;
                }
            }
            out.push(Tok::Ident(word));
        } else if (lang == Lang::Python && b == b'#') || (lang != Lang::Python && at(i, "//")) {
            i = find_bytes(bytes, i, b"\n").unwrap_or(bytes.len());
        } else if lang != Lang::Python && at(i, "/*") {
            i = block_comment(bytes, i, lang == Lang::Rust);
        } else if lang == Lang::Python && (at(i, "\"\"\"") || at(i, "'''")) {
            i = find_unescaped(bytes, i + 3, &bytes[i..i + 3]);
            out.push(Tok::Str);
        } else if b == b'"' || (b == b'\'' && matches!(lang, Lang::Python | Lang::Js)) {
            i = find_unescaped(bytes, i + 1, &[b]);
            out.push(Tok::Str);
        } else if b == b'`' && lang == Lang::Js {
            i = find_unescaped(bytes, i + 1, b"`");
            out.push(Tok::Str);
        } else if b == b'`' && lang == Lang::Go {
            i = find_bytes(bytes, i + 1, b"`").map_or(bytes.len(), |e| e + 1);
            out.push(Tok::Str);
        } else if b == b'\'' {
            // Go runes, Rust chars; a Rust lifetime (`'a`) has no closing quote.
            match char_literal_end(text, i) {
                Some(end) => {
                    i = end;
                    out.push(Tok::Str);
                }
                None => {
                    out.push(Tok::Punct('\''));
                    i += 1;
                }
            }
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            out.push(Tok::Punct(c));
            i += c.len_utf8();
        }
        if out.len() > len {
            spans.push((start, i));
        }
    }
    (out, spans)
}

fn find_bytes(bytes: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    bytes
        .get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|p| p + from)
}

/// Where a string that opened before `from` ends (after `close`), a backslash
/// escaping the byte after it; the end of the text when it never closes.
fn find_unescaped(bytes: &[u8], from: usize, close: &[u8]) -> usize {
    let mut i = from;
    while i < bytes.len() {
        if bytes[i] == b'\\' {
            i += 2;
        } else if bytes[i..].starts_with(close) {
            return i + close.len();
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The end of a block comment opening at `from`; Rust's nest.
fn block_comment(bytes: &[u8], from: usize, nests: bool) -> usize {
    let mut depth = 0usize;
    let mut i = from;
    while i < bytes.len() {
        if bytes[i..].starts_with(b"/*") && (nests || depth == 0) {
            depth += 1;
            i += 2;
        } else if bytes[i..].starts_with(b"*/") {
            depth -= 1;
            i += 2;
            if depth == 0 {
                return i;
            }
        } else {
            i += 1;
        }
    }
    bytes.len()
}

/// The end of a character literal opening at `from` (`'a'`, `'\n'`, `'\u{1F600}'`),
/// or `None` when the quote opens none (a Rust lifetime).
fn char_literal_end(text: &str, from: usize) -> Option<usize> {
    let rest = &text[from + 1..];
    let mut chars = rest.char_indices();
    let (_, first) = chars.next()?;
    if first == '\\' {
        let close = rest.find('\'')?;
        let close = if close == 1 {
            rest[2..].find('\'')? + 2
        } else {
            close
        };
        return (close <= 12).then_some(from + 1 + close + 1);
    }
    let (at, second) = chars.next()?;
    (second == '\'').then_some(from + 1 + at + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn change(path: &str, before: Option<&str>, after: Option<&str>) -> Change {
        Change {
            path: path.to_string(),
            was: None,
            before: before.map(str::to_string),
            after: after.map(str::to_string),
        }
    }

    fn found(path: &str, before: &str, after: &str) -> Vec<String> {
        find(&[change(path, Some(before), Some(after))], &[])
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    fn counts(lang: Lang, text: &str) -> (usize, usize, usize) {
        let c = count(lang, text);
        (c.assertions, c.skips, c.tests)
    }

    const PY: &str = r#"import pytest
import unittest

# assert in a comment does not count
def helper():
    return "assert not counted in a string"

def test_add():
    """assert inside a docstring"""
    assert 1 + 1 == 2
    assert add(2, 2) == 4

@pytest.mark.parametrize("x", [1, 2])
def test_param(x):
    with pytest.raises(ValueError):
        parse(x)

class TestThing(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(thing(), 3)
        self.assertTrue(ok())
        mock.assert_called_once_with(1)
"#;

    #[test]
    fn python_counts_what_runs_and_not_what_is_quoted() {
        assert_eq!(counts(Lang::Python, PY), (6, 0, 3));
        let skipped = PY
            .replace(
                "def test_add",
                "@pytest.mark.skip(reason=\"later\")\ndef test_add",
            )
            .replace(
                "    def test_equal",
                "    @unittest.skip(\"flaky\")\n    def test_equal",
            )
            .replace(
                "def test_param",
                "@pytest.mark.xfail\n@pytest.mark.skipif(True, reason='x')\ndef test_param",
            );
        assert_eq!(counts(Lang::Python, &skipped), (6, 4, 3));
        assert_eq!(
            counts(
                Lang::Python,
                "def test_x(self):\n    self.skipTest('no')\n    pytest.skip('no')\n"
            ),
            (0, 2, 1)
        );
    }

    #[test]
    fn python_weakened_and_stronger() {
        let weaker = PY
            .replace("    assert add(2, 2) == 4\n", "")
            .replace("        self.assertTrue(ok())\n", "");
        assert_eq!(
            found("tests/test_add.py", PY, &weaker),
            ["tests/test_add.py: 2 of 6 assertions removed"]
        );
        let skipped = PY.replace("def test_add", "@pytest.mark.skip\ndef test_add");
        assert_eq!(
            found("test_add.py", PY, &skipped),
            ["test_add.py: 1 skip marker added (now 1)"]
        );
        let stronger = PY.replace(
            "    assert 1 + 1 == 2\n",
            "    assert 1 + 1 == 2\n    assert add(0, 0) == 0\n",
        ) + "\ndef test_more():\n    assert add(1, 2) == 3\n";
        assert!(found("tests/test_add.py", PY, &stronger).is_empty());
        let commented = PY.replace("    assert 1 + 1 == 2\n", "    # assert 1 + 1 == 2\n");
        assert_eq!(
            found("pkg/add_test.py", PY, &commented),
            ["pkg/add_test.py: 1 of 6 assertions removed"]
        );
    }

    const JS: &str = r#"import assert from 'node:assert';
import { add } from '../src/add';

// expect(add(1, 1)).toBe(3) in a comment
describe('add', () => {
  it('adds', () => {
    expect(add(1, 1)).toBe(2);
    expect(`expect(${1})`).toBeTruthy();
  });
  test('assert style', () => {
    assert.strictEqual(add(2, 2), 4);
    assert(add(0, 0) === 0);
  });
  /* it('old', () => { expect(1).toBe(1) }) */
});
"#;

    #[test]
    fn javascript_counts_and_findings() {
        assert_eq!(counts(Lang::Js, JS), (4, 0, 2));
        let weaker = JS
            .replace("  it('adds'", "  it.skip('adds'")
            .replace("    assert(add(0, 0) === 0);\n", "");
        assert_eq!(
            found("src/add.test.ts", JS, &weaker),
            ["src/add.test.ts: 1 of 4 assertions removed, 1 skip marker added (now 1)"]
        );
        let x = JS
            .replace("  it('adds'", "  xit('adds'")
            .replace("  test('assert", "  test.todo('assert");
        assert_eq!(counts(Lang::Js, &x), (4, 2, 2));
        assert_eq!(
            counts(
                Lang::Js,
                "xdescribe('a', () => {}); describe.only('b', f); fit('c', g);"
            ),
            (0, 3, 1)
        );
        assert_eq!(
            found(
                "web/add.spec.js",
                JS,
                &JS.replace("describe('add'", "describe.skip('add'")
            ),
            ["web/add.spec.js: 1 skip marker added (now 1)"]
        );
        let stronger = JS.replace(
            "    expect(add(1, 1)).toBe(2);\n",
            "    expect(add(1, 1)).toBe(2);\n    expect(add(1, 2)).toBe(3);\n",
        );
        assert!(found("src/add.test.ts", JS, &stronger).is_empty());
    }

    const RS: &str = r##"//! assert!(false) in a doc comment
use super::*;

fn helper<'a>(s: &'a str) -> &'a str { s }

#[test]
fn adds() {
    assert_eq!(add(1, 1), 2);
    assert!(add(2, 2) == 4, "assert!(x) in a message");
    let c = '"';
    debug_assert_ne!(c, 'x');
}

/* nested /* assert!(hidden) */ still comment assert!(no) */
#[tokio::test]
async fn async_adds() {
    let text = r#"assert!(raw)"#;
    prop_assert_eq!(text.len(), 12);
}
"##;

    #[test]
    fn rust_counts_and_findings() {
        assert_eq!(counts(Lang::Rust, RS), (4, 0, 2));
        let weaker = RS.replace("#[test]\nfn adds", "#[test]\n#[ignore = \"slow\"]\nfn adds");
        assert_eq!(
            found("src/add.rs", RS, &weaker),
            ["src/add.rs: 1 skip marker added (now 1)"]
        );
        let untested = RS.replace("#[tokio::test]\n", "");
        assert_eq!(
            found("tests/add.rs", RS, &untested),
            ["tests/add.rs: 1 of 2 tests removed"]
        );
        let cfg = RS.replace(
            "#[test]\n",
            "#[test]\n#[cfg_attr(not(feature = \"slow\"), ignore)]\n",
        );
        assert_eq!(counts(Lang::Rust, &cfg), (4, 1, 2));
        let gutted = RS.replace("    assert_eq!(add(1, 1), 2);\n", "");
        assert_eq!(
            found("src/lib.rs", RS, &gutted),
            ["src/lib.rs: 1 of 4 assertions removed"]
        );
        // A Rust file with no test attribute, outside tests/, is not a test file.
        assert!(found("src/lib.rs", "fn f() { assert!(x); }", "fn f() {}").is_empty());
    }

    const GO: &str = r#"package add

import "testing"

// t.Fatal("in a comment")
func TestAdd(t *testing.T) {
	if got := Add(1, 1); got != 2 {
		t.Errorf("Add(1, 1) = %d; want 2 t.Fatal(", got)
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	err := fmt.Errorf("not an assertion")
	require.NoError(t, err)
}

func (s *Suite) TestMethod() {
	s.T().Fatalf("x %s", `raw t.Error(`)
}
"#;

    #[test]
    fn go_counts_and_findings() {
        assert_eq!(counts(Lang::Go, GO), (4, 0, 2));
        let skipped = GO.replace(
            "func TestAdd(t *testing.T) {\n",
            "func TestAdd(t *testing.T) {\n\tt.Skip(\"later\")\n",
        );
        assert_eq!(
            found("add_test.go", GO, &skipped),
            ["add_test.go: 1 skip marker added (now 1)"]
        );
        let weaker = GO.replace("\t\tt.Fatal(err)\n", "\t\t_ = err\n");
        assert_eq!(
            found("pkg/add_test.go", GO, &weaker),
            ["pkg/add_test.go: 1 of 4 assertions removed"]
        );
        // Not a test file by name: no finding.
        assert!(found("pkg/add.go", GO, &weaker).is_empty());
    }

    fn early(lang: Lang, text: &str) -> usize {
        count(lang, text).early_returns
    }

    #[test]
    fn a_return_before_the_assertions_is_counted_in_each_language() {
        let py = "def test_a():\n    return\n    assert a() == 1\n\nclass TestB:\n    async def test_b(self):\n        return\n        assert await b()\n";
        assert_eq!(early(Lang::Python, py), 2);
        let rs = "#[test]\nfn a() {\n    return;\n    assert_eq!(a(), 1);\n}\n";
        assert_eq!(early(Lang::Rust, rs), 1);
        let go =
            "func TestA(t *testing.T) {\n\treturn\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n\t}\n}\n";
        assert_eq!(early(Lang::Go, go), 1);
        let js = "it('a', () => {\n  return\n  expect(a()).toBe(1)\n});\ntest('b', function () { return; expect(b()).toBe(2); });\n";
        assert_eq!(early(Lang::Js, js), 2);
        // The found change, in words.
        let honest = "def test_a():\n    assert a() == 1\n\ndef test_b():\n    assert b() == 2\n";
        let both = honest.replace("():\n", "():\n    return\n");
        assert_eq!(
            found("tests/test_a.py", honest, &both),
            ["tests/test_a.py: 2 tests return before their assertions"]
        );
    }

    #[test]
    fn a_return_that_ends_nothing_the_test_checks_is_not_counted() {
        // Inside a branch, a loop or a nested function; at the end; a brace-less `if`.
        let py = "def test_a():\n    if not HAVE_X:\n        return\n    for x in xs:\n        if x: return\n    def helper():\n        return 1\n    assert helper() == 1\n\ndef test_b():\n    assert b()\n    return\n\ndef helper():\n    return\n    assert False\n";
        assert_eq!(early(Lang::Python, py), 0);
        let rs = "#[test]\nfn a() -> Result<(), E> {\n    let Some(x) = y() else { return Ok(()) };\n    if x { return Ok(()); }\n    let f = || { return 1; };\n    assert_eq!(f(), 1);\n    return Ok(());\n}\n";
        assert_eq!(early(Lang::Rust, rs), 0);
        let go = "func TestA(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n\tt.Run(\"x\", func(t *testing.T) {\n\t\treturn\n\t})\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n\t}\n}\n";
        assert_eq!(early(Lang::Go, go), 0);
        // A returned promise asserts in its `then`; a brace-less `if` guards a return.
        let js = "it('a', () => {\n  return fetch()\n    .then(r => {\n      expect(r).toBe(1);\n    });\n});\nit('b', () => {\n  if (!ok)\n    return;\n  expect(b()).toBe(2);\n});\nit('c', () => {\n  return new Promise(done => { expect(c()).toBe(3); done() })\n});\n";
        assert_eq!(early(Lang::Js, js), 0);
    }

    #[test]
    fn an_assert_named_macro_that_calls_nothing_is_counted() {
        let hollow = |text: &str| count(Lang::Rust, text).hollow_asserts;
        assert_eq!(hollow("macro_rules! assert_same { ($($t:tt)*) => {}; }"), 1);
        assert_eq!(
            hollow(
                "macro_rules! assert_eq { ($a:expr, $b:expr) => { let _ = ($a, $b); }; ($a:expr) => { $a }; }"
            ),
            1
        );
        // Helpers that check: through a macro, a function or a method.
        assert_eq!(
            hollow(
                "macro_rules! assert_close { ($a:expr, $b:expr) => { assert!(($a - $b).abs() < 1e-9) }; }"
            ),
            0
        );
        assert_eq!(
            hollow("macro_rules! assert_ok { ($e:expr) => { check_ok(&$e) }; }"),
            0
        );
        assert_eq!(
            hollow(
                "macro_rules! assert_sorted { ($v:expr) => {{ if !$v.is_sorted() { unreachable!() } }}; }"
            ),
            0
        );
        // Named otherwise: not an assertion look-alike.
        assert_eq!(hollow("macro_rules! nothing { () => {}; }"), 0);
        let rs = "#[test]\nfn a() {\n    assert_eq!(a(), 1);\n}\n";
        let faked = format!(
            "macro_rules! assert_same {{ ($($t:tt)*) => {{}}; }}\n{}",
            rs.replace("assert_eq!", "assert_same!")
        );
        assert_eq!(
            found("tests/a.rs", rs, &faked),
            ["tests/a.rs: an assertion macro that checks nothing was added"]
        );
        // One that was there at the start is no finding.
        assert!(found("tests/a.rs", &faked, &format!("{faked}\n")).is_empty());
    }

    #[test]
    fn test_files_by_convention() {
        for path in [
            "tests/helpers.py",
            "pkg/test_a.py",
            "a_test.py",
            "conftest.py",
            "src/a.test.ts",
            "src/a.spec.js",
            "src/__tests__/a.jsx",
            "a_test.go",
            "tests/cli/main.rs",
            "test/a.mjs",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/a.py",
            "testing.py",
            "src/a.ts",
            "a.go",
            "src/lib.rs",
            "tests/data.json",
            "latest_x.py",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn deletions_renames_and_verify_files() {
        let deleted = find(&[change("tests/test_a.py", Some(PY), None)], &[]);
        assert_eq!(
            deleted.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["tests/test_a.py: deleted (it had 6 assertions in 3 tests)"]
        );
        assert!(find(&[change("tests/__init__.py", Some("\n"), None)], &[]).is_empty());
        assert!(find(&[change("tests/test_new.py", None, Some(PY))], &[]).is_empty());

        let moved = Change {
            path: "attic/old.py".into(),
            was: Some("tests/test_a.py".into()),
            before: Some(PY.into()),
            after: Some(PY.into()),
        };
        assert_eq!(
            find(std::slice::from_ref(&moved), &[])[0].to_string(),
            "tests/test_a.py: renamed to attic/old.py, which is not a test file by its name (it had 6 assertions in 3 tests)"
        );
        let kept = Change {
            path: "tests/test_b.py".into(),
            ..moved
        };
        assert!(find(&[kept], &[]).is_empty());

        let verify = vec![
            "scripts/check.sh".to_string(),
            "tests/test_a.py".to_string(),
        ];
        let script = change("scripts/check.sh", Some("pytest -q\n"), Some("exit 0\n"));
        let crlf = change(
            "scripts/check.sh",
            Some("pytest -q\n"),
            Some("pytest -q  \r\n"),
        );
        let test = change(
            "tests/test_a.py",
            Some(PY),
            Some(&(PY.to_string() + "\n# more\n")),
        );
        let new = change("scripts/check.sh", None, Some("exit 0\n"));
        assert_eq!(
            find(&[script.clone(), test.clone()], &verify)[0].to_string(),
            "scripts/check.sh: the verify command rests on it, and it changed since the goal started"
        );
        assert_eq!(find(&[script.clone(), test.clone()], &verify).len(), 1);
        assert!(find(&[crlf], &verify).is_empty());
        assert!(find(&[new], &verify).is_empty());
        assert!(find(&[script], &[]).is_empty());
    }

    #[test]
    fn a_finding_reads_back_from_its_line() {
        let finding = Finding {
            path: "odd: name.py".into(),
            what: "1 of 2 assertions removed, 1 skip marker added (now 1)".into(),
        };
        assert_eq!(Finding::parse(&finding.to_string()), Some(finding));
        let newline = Finding {
            path: "a\nb.py".into(),
            what: "x".into(),
        };
        assert_eq!(newline.to_string(), "a\\x0ab.py: x");
    }

    /// Lines of one language's test file, each with what it adds to the counts.
    fn py_line() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("    assert x == 1\n"),
            Just("    self.assertIn(a, b)\n"),
            Just("def test_case():\n"),
            Just("    y = compute()\n"),
            Just("    # assert nothing\n"),
            Just("    s = 'assert x'\n"),
            Just("@pytest.mark.skip\n"),
        ]
    }

    proptest! {
        /// Moving code around inside a file changes no count: no finding.
        #[test]
        fn moved_code_is_no_finding(lines in proptest::collection::vec(py_line(), 0..30), seed in any::<u64>()) {
            let before: String = lines.concat();
            let mut shuffled = lines.clone();
            let n = shuffled.len().max(1);
            shuffled.rotate_left((seed as usize) % n);
            shuffled.reverse();
            prop_assert!(found("tests/test_x.py", &before, &shuffled.concat()).is_empty());
        }

        /// Adding lines never makes a finding unless one of them is a skip marker.
        #[test]
        fn stronger_tests_are_no_finding(
            lines in proptest::collection::vec(py_line(), 0..20),
            added in proptest::collection::vec(py_line(), 0..10),
            at in any::<usize>(),
        ) {
            let mut after = lines.clone();
            let skips = added.iter().any(|l| l.contains("skip"));
            let at = at % (after.len() + 1);
            for (k, line) in added.iter().enumerate() {
                after.insert(at + k, line);
            }
            let findings = found("tests/test_x.py", &lines.concat(), &after.concat());
            prop_assert_eq!(findings.is_empty(), !skips, "{:?}", findings);
        }

        /// Removing an assertion line is always found.
        #[test]
        fn a_removed_assertion_is_found(lines in proptest::collection::vec(py_line(), 1..30), which in any::<usize>()) {
            let asserting: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains("assert") && !lines[i].contains('#') && !lines[i].contains('\''))
                .collect();
            prop_assume!(!asserting.is_empty());
            let mut after = lines.clone();
            after.remove(asserting[which % asserting.len()]);
            let findings = found("tests/test_x.py", &lines.concat(), &after.concat());
            prop_assert!(findings.len() == 1 && findings[0].contains("assertion"), "{:?}", findings);
        }

        /// Test-shaped text cut anywhere: the reachability rules never panic.
        #[test]
        fn reading_test_bodies_never_panics(parts in proptest::collection::vec(prop_oneof![
            Just("def test_a():"), Just("\n"), Just("    "), Just("return"), Just("assert x"),
            Just("("), Just(")"), Just("{"), Just("}"), Just("it('a', "), Just("() =>"),
            Just("#[test]"), Just("fn a()"), Just("func TestA(t *testing.T)"), Just("t.Fatal(x)"),
            Just("expect(a)"), Just("macro_rules! assert_x"), Just("=>"), Just(";"), Just("\\"),
            Just("if (x)"), Just("else"), Just(":"),
        ], 0..40)) {
            let text = parts.concat();
            for lang in [Lang::Python, Lang::Js, Lang::Rust, Lang::Go] {
                let _ = count(lang, &text);
            }
        }

        /// Whatever the text, counting never panics, in any language.
        #[test]
        fn counting_never_panics(text in ".{0,200}") {
            for lang in [Lang::Python, Lang::Js, Lang::Rust, Lang::Go] {
                let _ = count(lang, &text);
            }
        }
    }
}

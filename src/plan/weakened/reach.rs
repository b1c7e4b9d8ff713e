//! The functions and classes in a test file that nothing calls, read from its
//! tokens, whose assertions check only what another file calls. Assertions under
//! a condition that never holds or in a closure thrown away, a `return` before a
//! test's assertions and an assertion macro that calls nothing are the syntax
//! view's to see.

use std::collections::HashMap;

use super::brackets::Toks;
use super::{Lang, Tok, ident, punct};

/// Where each token sits in the text, for the rules that read lines: Python's
/// blocks and decorators. Each token's
/// line is read once, when the layout is made, not once per question.
pub(super) struct Layout<'t> {
    pub text: &'t str,
    /// Start and end byte of each token.
    pub spans: &'t [(usize, usize)],
    /// Each token's indent when it is the first of its line; `u32::MAX`: it is not.
    indents: Vec<u32>,
    /// For each token, the nearest at or before it that is the first of its line;
    /// `u32::MAX`: none.
    line_first: Vec<u32>,
}

impl<'t> Layout<'t> {
    pub(super) fn new(text: &'t str, spans: &'t [(usize, usize)]) -> Layout<'t> {
        let n = spans.len();
        let mut indents = Vec::with_capacity(n);
        let mut line_first = Vec::with_capacity(n);
        // The byte the current line starts at, and its first byte not a blank.
        let blank = |b: &&u8| **b == b' ' || **b == b'\t';
        let mut line = 0;
        let mut solid = text.as_bytes().iter().take_while(blank).count();
        let mut seen = 0;
        let mut last = u32::MAX;
        for (k, &(start, _)) in spans.iter().enumerate() {
            let start = start.min(text.len());
            let region = text.get(seen..start).unwrap_or("");
            if let Some(p) = region.rfind('\n') {
                line = seen + p + 1;
                solid = line + text.as_bytes()[line..].iter().take_while(blank).count();
            }
            seen = seen.max(start);
            let first = solid >= start;
            indents.push(match first {
                true => u32::try_from(start - line).unwrap_or(u32::MAX - 1),
                false => u32::MAX,
            });
            if first {
                last = u32::try_from(k).unwrap_or(u32::MAX);
            }
            line_first.push(last);
        }
        Layout {
            text,
            spans,
            indents,
            line_first,
        }
    }

    /// Token `k`'s indent, when it is the first of its line.
    pub(super) fn indent(&self, k: usize) -> Option<usize> {
        match *self.indents.get(k)? {
            u32::MAX => None,
            n => Some(n as usize),
        }
    }

    /// The nearest token at or before `k` that is the first of its line.
    pub(super) fn line_first(&self, k: usize) -> Option<usize> {
        match *self.line_first.get(k)? {
            u32::MAX => None,
            m => Some(m as usize),
        }
    }
}

/// The spans `from..end` that `end_at` finds, left to right: where it gives an end
/// for token `i`, the span runs there and the search goes on after it.
fn spans(len: usize, mut end_at: impl FnMut(usize) -> Option<usize>) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < len {
        match end_at(i) {
            Some(end) => {
                let end = end.clamp(i + 1, len);
                out.push((i, end));
                i = end;
            }
            None => i += 1,
        }
    }
    out
}

/// The functions and classes that nothing in the file names and no runner calls
/// on its own, each its name and its tokens `from..end`: a helper never called, a
/// class that no runner collects. Whether another file calls one is the caller's
/// to tell.
pub(super) fn uncalled_bodies(
    lang: Lang,
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
) -> Vec<(String, usize, usize)> {
    let mut named: HashMap<&str, usize> = HashMap::new();
    for tok in toks.iter() {
        if let Tok::Ident(name) = tok {
            *named.entry(name).or_default() += 1;
        }
    }
    let impls = if lang == Lang::Rust {
        in_impls(toks)
    } else {
        Vec::new()
    };
    spans(toks.len(), |i| {
        uncalled(lang, toks, layout, i, &named, &impls)
    })
    .into_iter()
    .map(|(i, end)| (ident(toks, i + 1).unwrap_or("").to_string(), i, end))
    .collect()
}

/// The first token from `from`, outside brackets opened from there, that starts a
/// line indented as `ends` says (a bracket that never closes: the file's end).
fn block_end(
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
    from: usize,
    ends: impl Fn(usize) -> bool,
) -> usize {
    let mut k = from;
    while k < toks.len() {
        if layout.indent(k).is_some_and(&ends) {
            return k;
        }
        k = match toks[k] {
            Tok::Punct('(' | '[' | '{') => match toks.group_end(k) {
                Some(close) => close + 1,
                None => return toks.len(),
            },
            _ => k + 1,
        };
    }
    toks.len()
}

/// Names a Python runner calls without the file naming them: unittest's and
/// pytest's set-up and tear-down, `runTest`, `load_tests`.
const PYTHON_HOOKS: [&str; 18] = [
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "setUpModule",
    "tearDownModule",
    "asyncSetUp",
    "asyncTearDown",
    "setup_method",
    "teardown_method",
    "setup_function",
    "teardown_function",
    "setup_module",
    "teardown_module",
    "setup_class",
    "teardown_class",
    "runTest",
    "load_tests",
];

/// Where the body of the function or class defined at `i` ends, when nothing in
/// the file names it and no runner calls it on its own: not a test, a runner's
/// hook, a decorated or exported definition, a method of an `impl`, or a test
/// class a runner collects.
fn uncalled(
    lang: Lang,
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
    i: usize,
    named: &HashMap<&str, usize>,
    impls: &[bool],
) -> Option<usize> {
    let keyword = ident(toks, i)?;
    let name = ident(toks, i + 1)?;
    if named.get(name).copied().unwrap_or(0) > 1 {
        return None;
    }
    let before = i.checked_sub(1).and_then(|k| ident(toks, k));
    match (lang, keyword) {
        (Lang::Python, "def") => {
            let hook = name.starts_with("test")
                || name.starts_with("pytest_")
                || (name.starts_with("__") && name.ends_with("__"))
                || PYTHON_HOOKS.contains(&name);
            if hook || decorated(toks, layout, i) {
                return None;
            }
            python_end(toks, layout, i + 1)
        }
        // A class with a base may be a test case's subclass, under any name.
        (Lang::Python, "class") => {
            let bases = punct(toks, i + 2, '(')
                .then(|| toks.group_end(i + 2))
                .flatten()
                .map_or(&[][..], |e| &toks[i + 3..e]);
            let plain = bases.iter().all(|t| *t == Tok::Ident("object"));
            if name.starts_with("Test") || !plain || decorated(toks, layout, i) {
                return None;
            }
            python_end(toks, layout, i + 1)
        }
        (Lang::Rust, "fn") => {
            let attributed = runner_attributes(toks, i);
            if name == "main" || attributed || impls.get(i).copied().unwrap_or(false) {
                return None;
            }
            braced_end(toks, i + 2)
        }
        (Lang::Go, "func") => {
            let runner = ["Test", "Benchmark", "Example", "Fuzz"]
                .iter()
                .any(|p| name.starts_with(p))
                || matches!(name, "init" | "main");
            if runner {
                return None;
            }
            braced_end(toks, i + 2)
        }
        (Lang::Js, "function") => {
            let exported = before == Some("export")
                || (matches!(before, Some("default" | "async"))
                    && i >= 2
                    && ident(toks, i - 2) == Some("export"));
            // A declaration opens a statement; a function expression (a callback,
            // `it('…', function name() {…})`) runs where it is passed.
            let opens = match i.checked_sub(1) {
                None => true,
                Some(k) => {
                    matches!(toks[k], Tok::Punct(';' | '{' | '}')) || before == Some("async")
                }
            };
            if exported || !opens {
                return None;
            }
            braced_end(toks, i + 2)
        }
        _ => None,
    }
}

/// Where the body in braces after a signature from `from` ends (past its `}`).
fn braced_end(toks: &Toks<'_, '_>, from: usize) -> Option<usize> {
    toks.top_brace(from)
        .and_then(|open| toks.group_end(open))
        .map(|e| e + 1)
}

/// Whether the Python `def`/`class` at `i` has a decorator that may call it or
/// hand it to a runner: the line before it opens with `@` (a fixture, a
/// registration), other than `@staticmethod` or `@classmethod`.
fn decorated(toks: &Toks<'_, '_>, layout: &Layout<'_>, i: usize) -> bool {
    let start = match i.checked_sub(1) {
        Some(k) if ident(toks, k) == Some("async") => k,
        _ => i,
    };
    start
        .checked_sub(1)
        .and_then(|k| layout.line_first(k))
        .is_some_and(|k| {
            punct(toks, k, '@')
                && !matches!(ident(toks, k + 1), Some("staticmethod" | "classmethod"))
        })
}

/// Whether the Rust `fn` at `i` has an attribute that may hand it to a runner
/// (`#[test]`, `#[rstest]`, a fixture's): any but the lints', docs' and codegen's.
fn runner_attributes(toks: &Toks<'_, '_>, i: usize) -> bool {
    const QUIET: [&str; 11] = [
        "allow",
        "expect",
        "warn",
        "deny",
        "forbid",
        "doc",
        "inline",
        "must_use",
        "track_caller",
        "cold",
        "cfg",
    ];
    // Back over `pub(crate) async unsafe const extern "C"` to the attributes.
    let mut k = i;
    while k > 0
        && (matches!(
            ident(toks, k - 1),
            Some("pub" | "async" | "unsafe" | "const" | "extern" | "crate" | "super" | "in")
        ) || matches!(toks[k - 1], Tok::Punct('(' | ')') | Tok::Str))
    {
        k -= 1;
    }
    // Each attribute `#[name …]` ends at the `]` right before what follows it.
    while k > 0 && punct(toks, k - 1, ']') {
        let open = toks.opener(k - 1);
        let Some(open) = open.filter(|&o| o >= 1 && punct(toks, o - 1, '#')) else {
            return true;
        };
        if !ident(toks, open + 1).is_some_and(|name| QUIET.contains(&name)) {
            return true;
        }
        k = open - 1;
    }
    false
}

/// For each Rust token, whether it sits directly in an `impl` or `trait` block,
/// where a trait calls a method by its own name (`drop`, `fmt`). One pass: a brace
/// opens such a block when `impl` or `trait` stands between it and the statement
/// before.
fn in_impls(toks: &Toks<'_, '_>) -> Vec<bool> {
    let mut out = Vec::with_capacity(toks.len());
    let mut open: Vec<bool> = Vec::new();
    let mut head = false;
    for tok in toks.iter() {
        out.push(open.last().copied().unwrap_or(false));
        match tok {
            Tok::Punct('{') => {
                open.push(head);
                head = false;
            }
            Tok::Punct('}') => {
                open.pop();
                head = false;
            }
            Tok::Punct(';') => head = false,
            Tok::Ident("impl" | "trait") => head = true,
            _ => {}
        }
    }
    out
}

/// Where a Python function's or class's body ends: the first line indented less
/// than the line after its signature's `:`.
fn python_end(toks: &Toks<'_, '_>, layout: &Layout<'_>, name: usize) -> Option<usize> {
    // `def`, or `async def`, starts its line.
    let def = name.checked_sub(1)?;
    let def = layout.indent(def).or_else(|| {
        (ident(toks, def.checked_sub(1)?) == Some("async"))
            .then(|| layout.indent(def - 1))
            .flatten()
    })?;
    let from = toks.colon(name)? + 1;
    let indent = layout.indent(from).filter(|&n| n > def)?;
    Some(block_end(toks, layout, from, |n| n < indent))
}

#[cfg(test)]
mod tests {
    use super::super::spanned;
    use super::*;

    /// Every text of up to 6 of these pieces: each token's indent, line break and
    /// line's first token, read once, are those read back from the token each time.
    #[test]
    fn a_layout_read_once_reads_as_the_text_read_back() {
        let pieces = ["  ", "\t", "x", "\n", "'a\nb'", "# c\n", "/* d */", ";"];
        let k = pieces.len();
        for lang in [Lang::Python, Lang::Js] {
            for len in 0..=6u32 {
                for mut code in 0..k.pow(len) {
                    let mut text = String::new();
                    for _ in 0..len {
                        text.push_str(pieces[code % k]);
                        code /= k;
                    }
                    let (_, spans) = spanned(lang, &text);
                    let layout = Layout::new(&text, &spans);
                    let line_start = |k: usize| {
                        let start = spans[k].0;
                        text[..start].rfind('\n').map_or(0, |p| p + 1)
                    };
                    let indent = |k: usize| {
                        let start = spans[k].0;
                        let blank = text[line_start(k)..start]
                            .bytes()
                            .all(|b| b == b' ' || b == b'\t');
                        blank.then(|| start - line_start(k))
                    };
                    for k in 0..spans.len() {
                        let first = (0..=k).rev().find(|&m| indent(m).is_some());
                        assert_eq!(layout.indent(k), indent(k), "{text:?} at {k}");
                        assert_eq!(layout.line_first(k), first, "{text:?} at {k}");
                    }
                }
            }
        }
    }
}

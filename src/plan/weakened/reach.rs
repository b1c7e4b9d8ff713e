//! What counting tokens misses in a test file: assertions no run can reach (under
//! a condition that never holds, in a closure thrown away, in a function or class
//! nothing calls). A `return` before a test's assertions and an assertion macro
//! that calls nothing are the syntax view's to see.

use std::collections::HashMap;

use super::brackets::Toks;
use super::{Lang, Tok, ident, punct};

/// Where each token sits in the text, for the rules that read lines: Python's
/// blocks, and the statements Go and JavaScript end at a line break. Each token's
/// line is read once, when the layout is made, not once per question.
pub(super) struct Layout<'t> {
    pub text: &'t str,
    /// Start and end byte of each token.
    pub spans: &'t [(usize, usize)],
    /// Each token's indent when it is the first of its line; `u32::MAX`: it is not.
    indents: Vec<u32>,
    /// Whether a line break parts each token from the one before it.
    breaks: Vec<bool>,
    /// For each token, the nearest at or before it that is the first of its line;
    /// `u32::MAX`: none.
    line_first: Vec<u32>,
}

impl<'t> Layout<'t> {
    pub(super) fn new(text: &'t str, spans: &'t [(usize, usize)]) -> Layout<'t> {
        let n = spans.len();
        let mut indents = Vec::with_capacity(n);
        let mut breaks = Vec::with_capacity(n);
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
            let gap = match k {
                0 => "",
                _ => text.get(spans[k - 1].1..start).unwrap_or(""),
            };
            breaks.push(gap.contains('\n'));
            if first {
                last = u32::try_from(k).unwrap_or(u32::MAX);
            }
            line_first.push(last);
        }
        Layout {
            text,
            spans,
            indents,
            breaks,
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

    /// Whether a line break parts token `k` from the one before it.
    pub(super) fn broken(&self, k: usize) -> bool {
        k > 0 && self.breaks.get(k).copied().unwrap_or(false)
    }

    /// The nearest token at or before `k` that is the first of its line.
    pub(super) fn line_first(&self, k: usize) -> Option<usize> {
        match *self.line_first.get(k)? {
            u32::MAX => None,
            m => Some(m as usize),
        }
    }
}

/// The tokens no run reaches, `true` at each: the block under a condition that is
/// a constant false (`if false {`), the `if` included. An assertion there checks
/// nothing, wherever it moved from. Rust's and Go's: Python's and JavaScript's are
/// the syntax view's.
pub(super) fn unreached(lang: Lang, toks: &Toks<'_, '_>, layout: &Layout<'_>) -> Vec<bool> {
    let mut dead = vec![false; toks.len()];
    let used = last_uses(toks);
    let end_at = |i| guarded(toks, i).or_else(|| discarded(lang, toks, layout, &used, i));
    for (from, end) in spans(toks.len(), end_at) {
        dead[from..end].fill(true);
    }
    dead
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

/// Where the block of the `if`/`while` at `i` ends, when its condition is a
/// literal false (see [`literal_condition`]): `if false {`, `for false {`.
fn guarded(toks: &Toks<'_, '_>, i: usize) -> Option<usize> {
    if !matches!(ident(toks, i)?, "if" | "while") {
        return None;
    }
    let (holds, j) = literal_condition(toks, i + 1)?;
    if holds {
        return None;
    }
    punct(toks, j, '{')
        .then(|| toks.group_end(j).map(|e| e + 1))
        .flatten()
}

/// A closure thrown away where it is made, its end: `let _ = || assert_eq!(…);`,
/// `_unused = async move { … };`, Go's `_ = func() { … }`. Bound to `_`, or to a
/// name starting with `_` that nothing names after it, nothing can call it, so
/// what it asserts never runs. `used` holds each name's last use.
fn discarded(
    lang: Lang,
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
    used: &std::collections::HashMap<&str, usize>,
    i: usize,
) -> Option<usize> {
    // A statement's start: not a keyword argument (`f(\n    _cb=lambda: …`).
    let starts = i == 0
        || match lang {
            Lang::Rust => matches!(toks[i - 1], Tok::Punct(';' | '{' | '}')),
            _ => layout.broken(i) && !matches!(toks[i - 1], Tok::Punct(',' | '(' | '[')),
        };
    let (name_at, mut k) = match (lang, ident(toks, i)?) {
        (Lang::Js, _) => return None,
        // A closure handed to `drop` or `forget` is never called, wherever it stands.
        (Lang::Rust, "drop" | "forget")
            if punct(toks, i + 1, '(')
                && !i.checked_sub(1).is_some_and(|j| punct(toks, j, '.')) =>
        {
            let mut k = i + 2;
            k += usize::from(ident(toks, k) == Some("async"));
            k += usize::from(ident(toks, k) == Some("move"));
            let closure = punct(toks, k, '|') || ident(toks, i + 2) == Some("async");
            return closure
                .then(|| toks.group_end(i + 1))
                .flatten()
                .map(|end| end + 1);
        }
        (Lang::Rust, "let") => (i + 1, i + 2),
        _ if starts => (i, i + 1),
        _ => return None,
    };
    let name = ident(toks, name_at)?;
    if !name.starts_with('_')
        || !punct(toks, k, '=')
        || matches!(toks.get(k + 1), Some(Tok::Punct('=' | '>')))
    {
        return None;
    }
    k += 1;
    let wrapped = punct(toks, k, '(').then_some(k);
    while punct(toks, k, '(') || punct(toks, k, '&') {
        k += 1;
    }
    let end = match lang {
        Lang::Rust => {
            let asynchronous = ident(toks, k) == Some("async");
            k += usize::from(asynchronous);
            k += usize::from(ident(toks, k) == Some("move"));
            let body = if asynchronous {
                k
            } else {
                if !punct(toks, k, '|') {
                    return None;
                }
                // The parameters' closing bar: a closure's parameters are few tokens.
                1 + (k + 1..toks.len().min(k + 64)).find(|&j| punct(toks, j, '|'))?
            };
            match punct(toks, body, '{') {
                true => toks.group_end(body)? + 1,
                false if asynchronous => return None,
                false => statement_end(toks, body, toks.len()),
            }
        }
        Lang::Go if ident(toks, k) == Some("func") && punct(toks, k + 1, '(') => {
            let params = toks.group_end(k + 1)?;
            let open = (params + 1..toks.len().min(params + 32)).find(|&j| punct(toks, j, '{'))?;
            toks.group_end(open)? + 1
        }
        _ => return None,
    };
    // Called where it is made (`(|| { … })()`, `func() { … }()`), it runs.
    let end = match wrapped {
        Some(open) => toks.group_end(open)? + 1,
        None => end,
    };
    let named_after = used.get(name).is_some_and(|&last| last >= end);
    // A line break ends Go's statement: `(1, 2)` below is no call.
    let called = punct(toks, end, '(') && (lang == Lang::Rust || !layout.broken(end));
    (!named_after && !called).then_some(end)
}

/// Each name's last use, for [`discarded`]: `_` only where it is called.
fn last_uses<'a>(toks: &Toks<'a, '_>) -> std::collections::HashMap<&'a str, usize> {
    let mut last = std::collections::HashMap::new();
    for i in 0..toks.len() {
        if let Some(name) = ident(toks, i)
            && name.starts_with('_')
            && (name != "_" || punct(toks, i + 1, '('))
        {
            last.insert(name, i);
        }
    }
    last
}

/// The value of a condition that is one literal (`True`, `true`, `1`; `False`,
/// `false`, `None`, `0`; each after `not` or `!`, in parentheses or not) opening at
/// token `j`, with the token after it.
pub(super) fn literal_condition(toks: &Toks<'_, '_>, j: usize) -> Option<(bool, usize)> {
    let paren = punct(toks, j, '(');
    let mut k = j + usize::from(paren);
    let not = ident(toks, k) == Some("not") || punct(toks, k, '!');
    k += usize::from(not);
    let value = match ident(toks, k) {
        Some("True" | "true") => true,
        Some("False" | "false" | "None") => false,
        _ if punct(toks, k, '1') => true,
        _ if punct(toks, k, '0') => false,
        _ => return None,
    };
    k += 1;
    if paren {
        if !punct(toks, k, ')') {
            return None;
        }
        k += 1;
    }
    Some((value != not, k))
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

/// The tokens `from..end` of the body of the test whose marker is token `i` (`#`
/// of `#[test]`, Go's function name); Python's and JavaScript's tests are the
/// syntax view's.
pub(super) fn test_body(lang: Lang, toks: &Toks<'_, '_>, i: usize) -> Option<(usize, usize)> {
    let open = match lang {
        Lang::Rust => toks.top_brace(toks.attributed_fn(i)?)?,
        Lang::Go => toks.top_brace(i)?,
        Lang::Python | Lang::Js => return None,
    };
    Some((open + 1, toks.group_end(open)?))
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

/// Where the Rust statement opening at `from` ends: after its `;`, or at a
/// closing bracket of its own depth (the body's end).
fn statement_end(toks: &Toks<'_, '_>, from: usize, end: usize) -> usize {
    let mut depth = 0usize;
    for j in from..end {
        match toks[j] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => return j,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return j + 1,
            _ => {}
        }
    }
    end
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
                        let broken = k > 0 && text[spans[k - 1].1..spans[k].0].contains('\n');
                        let first = (0..=k).rev().find(|&m| indent(m).is_some());
                        assert_eq!(layout.indent(k), indent(k), "{text:?} at {k}");
                        assert_eq!(layout.broken(k), broken, "{text:?} at {k}");
                        assert_eq!(layout.line_first(k), first, "{text:?} at {k}");
                    }
                }
            }
        }
    }
}

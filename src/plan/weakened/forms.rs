//! Forms of weakening that counting markers misses, read from a test file's tokens:
//! the assertion statements themselves (so one rewritten in place, loosened or made
//! unable to fail, shows), assertions whose failure a `try` swallows, the code
//! under test patched inside the test, table rows of parametrized tests, and exits
//! at a test module's top level. Pure and heuristic, like the rest of the check.

use super::brackets::Toks;
use super::reach::Layout;
use super::{Lang, Tally, Tok, at, ident, punct, receiver};

/// The assertion statements of a file, each with its first token and its source
/// text with whitespace collapsed: from the assertion to the end of its statement
/// (a chained matcher included). In Go the condition of an `if` whose block fails
/// the test is one too, since that is where Go's checks compare; in Rust a
/// `#[should_panic]` attribute.
pub(super) fn statements(
    lang: Lang,
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut next = 0;
    let asserts = match lang {
        Lang::Go => Tally::asserts(lang, toks),
        _ => Tally::of(0, |_| false),
    };
    for i in 0..toks.len() {
        if lang == Lang::Go
            && ident(toks, i) == Some("if")
            && let Some(text) = go_condition(toks, layout, &asserts, i)
        {
            out.push((i, text));
        }
        if lang == Lang::Rust
            && punct(toks, i, '#')
            && punct(toks, i + 1, '[')
            && ident(toks, i + 2) == Some("should_panic")
            && let Some(end) = toks.group_end(i + 1)
        {
            out.push((i, source(layout, i, end + 1)));
        }
        if i < next || !at(lang, toks, i).0 {
            continue;
        }
        let end = statement_end(toks, layout, i);
        out.push((i, source(layout, i, end)));
        next = end;
    }
    out
}

/// The text of tokens `from..end`, whitespace runs made one space.
fn source(layout: &Layout<'_>, from: usize, end: usize) -> String {
    let (Some(&(start, _)), Some(&(_, stop))) = (
        layout.spans.get(from),
        layout.spans.get(end.saturating_sub(1)),
    ) else {
        return String::new();
    };
    let text = layout.text.get(start..stop.max(start)).unwrap_or("");
    let mut out = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    out.trim_end_matches([',', ';']).to_string()
}

/// Where the statement opening at `i` ends: a `;` or a closing bracket at its own
/// depth, or a line break before a word (a line opening with `.` goes on).
fn statement_end(toks: &Toks<'_, '_>, layout: &Layout<'_>, i: usize) -> usize {
    let mut depth = 0usize;
    for j in i..toks.len() {
        if j > i && depth == 0 && layout.broken(j) {
            let goes_on = !matches!(toks[j], Tok::Ident(_) | Tok::Str) || punct(toks, j - 1, ',');
            if !goes_on {
                return j;
            }
        }
        match toks[j] {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') if depth == 0 => return j,
            Tok::Punct(')' | ']' | '}') => depth -= 1,
            Tok::Punct(';') if depth == 0 => return j + 1,
            _ => {}
        }
    }
    toks.len()
}

/// `if cond {` in Go when the block fails the test: the condition's text.
fn go_condition(
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
    asserts: &Tally,
    i: usize,
) -> Option<String> {
    let mut depth = 0usize;
    let mut open = None;
    for (j, tok) in toks.iter().enumerate().take(i + 200).skip(i + 1) {
        match tok {
            Tok::Punct('{') if depth == 0 => {
                open = Some(j);
                break;
            }
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => depth = depth.checked_sub(1)?,
            _ => {}
        }
    }
    let open = open?;
    let close = toks.group_end(open)?;
    let fails = asserts.count(open + 1, close) > 0;
    fails.then(|| source(layout, i, open))
}

/// Whether an assertion statement cannot fail: `assert True`, `assert x or True`,
/// `assert!(true)`, `expect(true).toBe(true)`, `self.assertTrue(True)`.
pub(super) fn trivial(statement: &str) -> bool {
    let s = statement.trim_end_matches([';', ')', ' ']);
    let open_true = |prefix: &str| {
        statement.strip_prefix(prefix).is_some_and(|rest| {
            let rest = rest.trim_start_matches(['(', ' ']);
            ["True", "true", "1", "not False", "!false"]
                .iter()
                .any(|t| {
                    rest.strip_prefix(t)
                        .is_some_and(|after| after.is_empty() || after.starts_with([')', ',', ';']))
                })
        })
    };
    open_true("assert ")
        || open_true("assert!")
        || open_true("assert(")
        || open_true("self.assertTrue")
        || (statement.starts_with("expect(true)")
            && [".toBe(true)", ".toBeTruthy()", ".toEqual(true)"]
                .iter()
                .any(|m| statement.ends_with(m)))
        || open_true("assert.ok")
        || s.ends_with(" or True")
        || s.contains(" or True,")
        || s.ends_with("|| true")
        || s.contains("|| true,")
        || (statement.starts_with("#[should_panic") && statement.contains("expected = \"\""))
}

/// A removed and an added statement that say the same but for a comparison or a
/// literal, where the new one passes for more: `==` to `>=`, a tolerance from
/// `1e-9` to `1e9`, fewer decimal places, an expected message cut to a part of it.
/// In words, for each added statement that loosens a removed one.
pub(super) fn loosened(removed: &[String], added: &[String]) -> Vec<String> {
    // Removed statements by skeleton, so a large rewrite costs one pass each side;
    // within one, by what [`looser`] can find of them, so an added statement is
    // held only against those it could loosen (a bulk update of expected values
    // is none of them).
    let mut by_shape: std::collections::HashMap<String, Vec<(usize, Vec<Lex>, Could)>> =
        std::collections::HashMap::new();
    for (k, old) in removed.iter().enumerate() {
        let lexed = lex(old);
        let could = Could::of(&lexed);
        by_shape
            .entry(shape(&lexed))
            .or_default()
            .push((k, lexed, could));
    }
    let mut out = Vec::new();
    let mut used = vec![false; removed.len()];
    for new in added {
        let new_lex = lex(new);
        let Some(olds) = by_shape.get(&shape(&new_lex)) else {
            continue;
        };
        let order = new_lex.iter().any(|l| comparison(l) == Some(Cmp::Order));
        let context = substring_context(new);
        for (k, old_lex, could) in olds {
            if used[*k] || !(could.number || (could.exact && order) || (could.text && context)) {
                continue;
            }
            if let Some(why) = looser(old_lex, &new_lex, new) {
                used[*k] = true;
                out.push(format!(
                    "`{}` became `{}` ({why})",
                    clip(&removed[*k]),
                    clip(new)
                ));
                break;
            }
        }
    }
    out
}

/// The skeleton as a key: two statements of one key differ only in their
/// literals and comparisons.
fn shape(lexed: &[Lex]) -> String {
    let mut key = String::new();
    for l in skeleton(lexed) {
        match l {
            Lex::Word(w) | Lex::Op(w) => key.push_str(&w),
            Lex::Num(_) => key.push('#'),
            Lex::Str(_) => key.push('"'),
        }
        key.push('\u{1}');
    }
    key
}

/// At most 60 characters of a statement, for a finding's words.
pub(super) fn clip(s: &str) -> String {
    let s = s.replace(": ", ":\u{a0}");
    match s.char_indices().nth(60) {
        Some((at, _)) => format!("{}…", &s[..at]),
        None => s,
    }
}

#[derive(Clone, Debug, PartialEq)]
enum Lex {
    Word(String),
    Num(f64),
    Str(String),
    Op(String),
}

/// An assertion's text as words, numbers, strings and operators.
fn lex(s: &str) -> Vec<Lex> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
        } else if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit))
        {
            let start = i;
            while i < b.len()
                && (b[i].is_ascii_alphanumeric()
                    || b[i] == b'.'
                    || b[i] == b'_'
                    || (matches!(b[i], b'+' | b'-') && matches!(b[i - 1], b'e' | b'E')))
            {
                i += 1;
            }
            let text: String = s[start..i].chars().filter(|&c| c != '_').collect();
            let text = text.trim_end_matches(|c: char| c.is_ascii_alphabetic() && c != 'e');
            match text.parse::<f64>() {
                Ok(n) => out.push(Lex::Num(n)),
                Err(_) => out.push(Lex::Word(s[start..i].to_string())),
            }
        } else if matches!(c, b'"' | b'\'' | b'`') {
            let start = i + 1;
            i += 1;
            while i < b.len() && b[i] != c {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            let end = i.min(b.len());
            out.push(Lex::Str(s.get(start..end).unwrap_or("").to_string()));
            i = end + 1;
        } else if c == b'_' || c.is_ascii_alphabetic() || c >= 0x80 {
            let start = i;
            while i < b.len() && (b[i] == b'_' || b[i].is_ascii_alphanumeric() || b[i] >= 0x80) {
                i += 1;
            }
            out.push(Lex::Word(s[start..i].to_string()));
        } else {
            let ops = ["===", "!==", "==", "!=", "<=", ">=", "=>", "->", "::"];
            let op = ops
                .iter()
                .find(|op| b[i..].starts_with(op.as_bytes()))
                .map_or_else(
                    || s[i..].chars().next().map(String::from).unwrap_or_default(),
                    |op| (*op).to_string(),
                );
            i += op.len().max(1);
            out.push(Lex::Op(op));
        }
    }
    out
}

/// How a comparison compares: exactly, or by order.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Cmp {
    Exact,
    Order,
}

fn comparison(lex: &Lex) -> Option<Cmp> {
    let (Lex::Op(w) | Lex::Word(w)) = lex else {
        return None;
    };
    Some(match w.as_str() {
        "==" | "===" | "!=" | "!==" | "assertEqual" | "assertEquals" | "assertNotEqual"
        | "assert_eq" | "assert_ne" | "toBe" | "toEqual" | "toStrictEqual" | "Equal"
        | "NotEqual" | "EqualValues" | "Equals" | "toHaveLength" => Cmp::Exact,
        "<"
        | ">"
        | "<="
        | ">="
        | "assertGreater"
        | "assertGreaterEqual"
        | "assertLess"
        | "assertLessEqual"
        | "toBeGreaterThan"
        | "toBeGreaterThanOrEqual"
        | "toBeLessThan"
        | "toBeLessThanOrEqual"
        | "Greater"
        | "GreaterOrEqual"
        | "Less"
        | "LessOrEqual" => Cmp::Order,
        _ => return None,
    })
}

/// The statement with its literals and comparisons blanked: two statements of one
/// skeleton differ only there.
fn skeleton(lexed: &[Lex]) -> Vec<Lex> {
    lexed
        .iter()
        .map(|l| match l {
            _ if comparison(l).is_some() => Lex::Op("~".into()),
            Lex::Num(_) => Lex::Num(0.0),
            Lex::Str(_) => Lex::Str(String::new()),
            other => other.clone(),
        })
        .collect()
}

/// What [`looser`] can find of a removed statement, whatever replaced it: a
/// comparison made looser needs an exact one, a tolerance or fewer places a number
/// (below 1, or after `places`), an expected text cut a string.
struct Could {
    exact: bool,
    number: bool,
    text: bool,
}

impl Could {
    fn of(old: &[Lex]) -> Could {
        let number = old.iter().enumerate().any(|(k, l)| {
            let Lex::Num(x) = l else {
                return false;
            };
            x.abs() < 1.0 && *x != 0.0 || places_before(old, k)
        });
        Could {
            exact: old.iter().any(|l| comparison(l) == Some(Cmp::Exact)),
            number,
            text: old.iter().any(|l| matches!(l, Lex::Str(_))),
        }
    }
}

/// Whether the number at `k` of `old` counts decimal places.
fn places_before(old: &[Lex], k: usize) -> bool {
    let key = (1..=2)
        .filter_map(|d| k.checked_sub(d).and_then(|p| old.get(p)))
        .find_map(|l| match l {
            Lex::Word(w) => Some(w.as_str()),
            _ => None,
        });
    matches!(key, Some("places" | "toBeCloseTo" | "decimal"))
}

/// Whether a statement compares text by a part of it.
fn substring_context(text: &str) -> bool {
    [
        " in ",
        "match",
        "expected",
        "toThrow",
        "toContain",
        "toMatch",
        "Contains",
        "contains",
    ]
    .iter()
    .any(|m| text.contains(m))
}

/// Why `new` passes for more than `old` (same skeleton), if it does.
fn looser(old: &[Lex], new: &[Lex], text: &str) -> Option<&'static str> {
    let substring_context = substring_context(text);
    for (k, (a, b)) in old.iter().zip(new).enumerate() {
        match (a, b) {
            _ if comparison(a) == Some(Cmp::Exact) && comparison(b) == Some(Cmp::Order) => {
                return Some("an exact comparison loosened");
            }
            (Lex::Num(x), Lex::Num(y)) if x != y => {
                let before = k.checked_sub(1).and_then(|p| old.get(p));
                let fewer_places = places_before(old, k);
                if fewer_places && y < x {
                    return Some("fewer decimal places checked");
                }
                let tolerance = x.abs() < 1.0 && *x != 0.0;
                let compared = matches!(before, Some(Lex::Op(o)) if matches!(o.as_str(), "<" | "<=" | ">" | ">=" | "="))
                    || matches!(before, Some(Lex::Op(o)) if o == ",");
                if tolerance && compared && y.abs() >= x.abs() * 10.0 {
                    return Some("a tolerance widened");
                }
            }
            (Lex::Str(x), Lex::Str(y)) if substring_context && x != y && x.contains(y.as_str()) => {
                return Some("an expected text cut to a part of it");
            }
            _ => {}
        }
    }
    None
}

/// Names the file patches (`monkeypatch.setattr(calc, "add", …)`,
/// `mock.patch("calc.add")`, `vi.spyOn(calc, 'add')`) that its assertions call:
/// the code under test replaced inside the test.
pub(super) fn patched(
    lang: Lang,
    toks: &Toks<'_, '_>,
    layout: &Layout<'_>,
    statements: &[String],
) -> usize {
    let mut names: Vec<String> = Vec::new();
    for i in 0..toks.len() {
        let Some(name) = ident(toks, i) else {
            continue;
        };
        let recv = receiver(toks, i);
        let patching = match lang {
            Lang::Python => {
                matches!(name, "setattr")
                    || (name == "patch" && !matches!(recv, Some("self")))
                    || (name == "object" && recv == Some("patch"))
            }
            Lang::Js => name == "spyOn" && matches!(recv, Some("vi" | "jest")),
            _ => false,
        };
        if !patching || !punct(toks, i + 1, '(') {
            continue;
        }
        let Some(close) = toks.group_end(i + 1) else {
            continue;
        };
        for (k, tok) in toks.iter().enumerate().take(close).skip(i + 2) {
            if *tok != Tok::Str {
                continue;
            }
            let Some(&(start, end)) = layout.spans.get(k) else {
                continue;
            };
            let lit = layout
                .text
                .get(start + 1..end.saturating_sub(1))
                .unwrap_or("");
            let last = lit.rsplit('.').next().unwrap_or("");
            if !last.is_empty()
                && last.len() < 80
                && last.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric())
            {
                names.push(last.to_string());
            }
        }
    }
    names.sort();
    names.dedup();
    names
        .iter()
        .filter(|name| {
            let call = format!("{name}(");
            statements.iter().any(|s| {
                s.match_indices(&call).any(|(at, _)| {
                    !s[..at]
                        .chars()
                        .next_back()
                        .is_some_and(|c| c == '_' || c.is_alphanumeric())
                })
            })
        })
        .count()
}

/// Rows of the tables that parametrized tests run on, and how many tables: `@pytest.mark.parametrize`'s
/// list, `test.each([…])`, a Go `[]struct{…}{…}` table, Rust `#[case(…)]`s are tests.
pub(super) fn cases(lang: Lang, toks: &Toks<'_, '_>) -> (usize, usize) {
    let mut n = 0;
    let mut tables = 0;
    for i in 0..toks.len() {
        let Some(name) = ident(toks, i) else {
            continue;
        };
        let table = match lang {
            Lang::Python if name == "parametrize" && punct(toks, i + 1, '(') => {
                let Some(close) = toks.group_end(i + 1) else {
                    continue;
                };
                let mut depth = 0usize;
                (i + 2..close).find_map(|k| {
                    match toks[k] {
                        Tok::Punct('(' | '[' | '{') => depth += 1,
                        Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
                        Tok::Punct(',') if depth == 0 => {
                            return (punct(toks, k + 1, '[') || punct(toks, k + 1, '('))
                                .then_some(k + 1);
                        }
                        _ => {}
                    }
                    None
                })
            }
            Lang::Js if name == "each" && punct(toks, i + 1, '(') && punct(toks, i + 2, '[') => {
                Some(i + 2)
            }
            Lang::Go
                if name == "struct"
                    && i >= 2
                    && punct(toks, i - 1, ']')
                    && punct(toks, i - 2, '[') =>
            {
                toks.group_end(i + 1)
                    .filter(|&e| punct(toks, e + 1, '{'))
                    .map(|e| e + 1)
            }
            _ => None,
        };
        if let Some(open) = table {
            n += elements(toks, open);
            tables += 1;
        }
    }
    (n, tables)
}

/// The number of elements in the bracketed list opening at `open`.
fn elements(toks: &Toks<'_, '_>, open: usize) -> usize {
    let Some(close) = toks.group_end(open) else {
        return 0;
    };
    if close == open + 1 {
        return 0;
    }
    let mut depth = 0usize;
    let mut commas = 0;
    for tok in &toks[open + 1..close] {
        match tok {
            Tok::Punct('(' | '[' | '{') => depth += 1,
            Tok::Punct(')' | ']' | '}') => depth = depth.saturating_sub(1),
            Tok::Punct(',') if depth == 0 => commas += 1,
            _ => {}
        }
    }
    let trailing = punct(toks, close - 1, ',');
    commas + usize::from(!trailing)
}

/// The name of the test whose marker is token `i`: Go's function name, Rust's
/// `fn` after the attribute, the title of a Go `t.Run("…")` (Python's and
/// JavaScript's are the syntax view's). Empty when none is found.
pub(super) fn test_name(lang: Lang, toks: &Toks<'_, '_>, layout: &Layout<'_>, i: usize) -> String {
    match lang {
        Lang::Go if ident(toks, i) != Some("Run") => ident(toks, i).unwrap_or("").to_string(),
        Lang::Rust => next_fn(toks, i),
        _ => first_string(toks, layout, i),
    }
}

/// The name of the `fn` the attributes at `i` sit on.
fn next_fn(toks: &Toks<'_, '_>, i: usize) -> String {
    (i..toks.len().min(i + 400))
        .find(|&j| ident(toks, j) == Some("fn"))
        .and_then(|j| ident(toks, j + 1))
        .unwrap_or("")
        .to_string()
}

/// The text of the first string literal in the dozen tokens from `i`: a Go
/// subtest's name.
fn first_string(toks: &Toks<'_, '_>, layout: &Layout<'_>, i: usize) -> String {
    (i..toks.len().min(i + 12))
        .find(|&k| toks[k] == Tok::Str)
        .and_then(|k| layout.spans.get(k))
        .and_then(|&(s, e)| layout.text.get(s..e))
        .unwrap_or("")
        .to_string()
}

/// The test the skip marker at `i` switches off, by name (see [`test_name`]), given
/// the test markers (`tests`, ascending): the function a Rust attribute sits on,
/// else the test before it, whose body holds it. Empty when the marker is the
/// whole file's (`#![cfg(…)]`) or no test holds it.
pub(super) fn skip_owner(
    lang: Lang,
    toks: &Toks<'_, '_>,
    i: usize,
    tests: &[(usize, String)],
) -> String {
    if lang == Lang::Rust && punct(toks, i, '#') {
        return match punct(toks, i + 1, '!') {
            true => String::new(),
            false => next_fn(toks, i),
        };
    }
    let before = tests.partition_point(|(k, _)| *k < i);
    let previous = before.checked_sub(1).and_then(|b| tests.get(b));
    previous.map(|(_, name)| name.clone()).unwrap_or_default()
}

/// A Go `return` that is the whole block of an `if` at a test's top level
/// (`if runtime.GOOS == "windows" { return }`): a skip by another name.
pub(super) fn go_guard(toks: &Toks<'_, '_>, i: usize) -> bool {
    if ident(toks, i) != Some("return")
        || !punct(toks, i.wrapping_sub(1), '{')
        || !punct(toks, i + 1, '}')
    {
        return false;
    }
    let open = i - 1;
    let mut depth = 0usize;
    for k in (open.saturating_sub(60)..open).rev() {
        match toks[k] {
            Tok::Punct(')' | ']') => depth += 1,
            Tok::Punct('(' | '[') => depth = depth.saturating_sub(1),
            Tok::Punct('{' | '}') if depth == 0 => return false,
            // `if testing.Short() { return }` is counted as `testing.Short`.
            Tok::Ident("Short") => return false,
            Tok::Ident("if") if depth == 0 => return true,
            Tok::Ident("for" | "func" | "switch" | "else") if depth == 0 => return false,
            _ => {}
        }
    }
    false
}

/// For each Go token, whether it sits directly in a `for` loop's block: a subtest
/// run once per row of a table, which the table's rows count. One pass, keeping
/// the innermost open `{` (brackets of any kind close any, as depth is counted).
pub(super) fn in_loops(toks: &Toks<'_, '_>) -> Vec<bool> {
    let mut out = Vec::with_capacity(toks.len());
    // Each open bracket, with whether the innermost `{` at or under it is a loop's.
    let mut open: Vec<Option<bool>> = Vec::new();
    for (k, tok) in toks.iter().enumerate() {
        out.push(open.last().copied().flatten().unwrap_or(false));
        match tok {
            Tok::Punct('{') => open.push(Some(loop_block(toks, k))),
            Tok::Punct('(' | '[') => open.push(open.last().copied().flatten()),
            Tok::Punct(')' | ']' | '}') => {
                open.pop();
            }
            _ => {}
        }
    }
    out
}

/// Whether the `{` at `open` opens a `for` loop's block.
pub(super) fn loop_block(toks: &Toks<'_, '_>, open: usize) -> bool {
    for k in (open.saturating_sub(40)..open).rev() {
        match toks[k] {
            Tok::Punct('{' | '}') => return false,
            Tok::Ident("for") => return true,
            Tok::Ident("if" | "func" | "switch") => return false,
            _ => {}
        }
    }
    false
}

/// A shared harness: the function's name and the tests, rows and assertions its
/// body holds (the tests and assertions the caller's, from the view).
pub(super) struct Harness {
    pub name: String,
    pub counts: super::Counts,
    /// Its body's tokens, `from..end`.
    pub body: (usize, usize),
    /// The assertion statements in its body (filled in by the caller).
    pub statements: Vec<String>,
}

/// Exported JavaScript functions (`export function commonTests() { test(…) }`),
/// each with the table rows in its body: one that defines tests is a shared
/// harness, whose tests run once per file that calls it.
pub(super) fn harnesses(toks: &Toks<'_, '_>) -> Vec<Harness> {
    let mut out = Vec::new();
    for i in 0..toks.len() {
        if ident(toks, i) != Some("export") {
            continue;
        }
        let mut j = i + 1;
        if ident(toks, j) == Some("async") {
            j += 1;
        }
        let (name, from) = match ident(toks, j) {
            Some("function") => (ident(toks, j + 1), j + 2),
            Some("const" | "let") => (ident(toks, j + 1), j + 2),
            _ => continue,
        };
        let Some(name) = name else {
            continue;
        };
        let Some(open) = (from..toks.len().min(from + 60)).find(|&k| {
            punct(toks, k, '{')
                && (punct(toks, k - 1, ')') || (punct(toks, k - 1, '>') && punct(toks, k - 2, '=')))
        }) else {
            continue;
        };
        let Some(close) = toks.group_end(open) else {
            continue;
        };
        let (cases, tables) = cases(Lang::Js, &toks.part(open + 1..close));
        out.push(Harness {
            name: name.to_string(),
            counts: super::Counts {
                cases,
                tables,
                ..super::Counts::default()
            },
            body: (open + 1, close),
            statements: Vec::new(),
        });
    }
    out
}

//! A check kept word for word whose bound moved through a name: the name it
//! compares with as a bound or tolerance ([`super::forms::role`]) is bound once
//! in the file, and that value's numbers moved the looser way (ky's `const
//! allowedOffset = CI ? 300 : 200` raised), or the name is a loop's value over
//! the entries of a table bound once (zod's `for (const [fixture, ceiling] of
//! Object.entries(CEILINGS))`) whose numbers rose. Read from the file's text
//! only, no other file. Pure and heuristic, like the rest of the check.

use std::collections::HashMap;

use super::forms::{Lex, Role, clip, lex, moved, role};

/// A value longer than this is no bound a check was written with.
const LONGEST: usize = 4096;

/// How many lines above a name's use a check may start.
const REACH: usize = 8;

/// For each name bound once on each side whose value's numbers moved, and that
/// a check both sides hold compares with as a bound ([`role`]), itself or as a
/// loop's value over it, the words: the value's change, why, and the check.
pub(super) fn named_loosened(before: &str, after: &str) -> Vec<String> {
    let (was, now) = (bindings(before), bindings(after));
    let mut changed: Vec<(&str, &String, &String)> = now
        .iter()
        .filter_map(|(name, v)| Some((*name, was.get(name)?.as_ref()?, v.as_ref()?)))
        .filter(|(_, a, b)| a != b)
        .collect();
    changed.sort_unstable();
    changed.truncate(64);
    let mut out = Vec::new();
    for (name, a, b) in changed {
        let (old, new) = (lex(a), lex(b));
        if old.len() != new.len() {
            continue;
        }
        let mut readers = vec![name.to_string()];
        readers.extend(loop_values(after, name));
        let found = readers.iter().find_map(|reader| {
            checks_of(after, reader)
                .into_iter()
                .find_map(|(check, role)| {
                    let why = moved(&old, &new, |k| result(&old, k).then_some(role))?;
                    before.contains(check.as_str()).then_some((check, why))
                })
        });
        if let Some((check, why)) = found {
            out.push(format!(
                "`{name} = {}` became `{name} = {}` ({why} that `{}` compares)",
                clip(&one_line(a)),
                clip(&one_line(b)),
                clip(&one_line(&check))
            ));
        }
    }
    out
}

/// Each name a line of `text` binds, with the value it binds it to; none for a
/// name bound twice (which value a check reads is not known from its text).
fn bindings(text: &str) -> HashMap<&str, Option<String>> {
    let mut out: HashMap<&str, Option<String>> = HashMap::new();
    for (at, line) in line_starts(text) {
        let trimmed = line.trim_start();
        let Some((name, rest)) = binds(trimmed) else {
            continue;
        };
        let offset = at + (line.len() - rest.len());
        let value = statement(&text[offset..]).filter(|v| !v.is_empty());
        out.entry(name).and_modify(|v| *v = None).or_insert(value);
    }
    out
}

/// The checks in `text` that compare with `name` as a bound, each with its
/// role there: a comparison in a check (`assert x < name`, `t.true(d <
/// name, …)`, `assert!(x < name)`) or a bound's matcher (`toBeLessThan(name)`,
/// testify's `Less(t, x, name)`, `InDelta(t, a, b, name)`).
fn checks_of(text: &str, name: &str) -> Vec<(String, Role)> {
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let starts: Vec<usize> = line_starts(text).map(|(at, _)| at).collect();
    let mut out = Vec::new();
    for (at, _) in text.match_indices(name).take(256) {
        let end = at + name.len();
        if text[..at].ends_with(word) || text[..at].ends_with('.') || text[end..].starts_with(word)
        {
            continue;
        }
        let line = starts.partition_point(|&s| s <= at) - 1;
        let stop = text[end..].find('\n').map_or(text.len(), |i| end + i);
        // A line longer than any bound's check is data, lexed once per use.
        if stop - starts[line] > LONGEST {
            continue;
        }
        for first in (line.saturating_sub(REACH)..=line).rev() {
            let window = &text[starts[first]..stop];
            let lexed = lex(window);
            let uses = lex(&text[starts[first]..end]).len() - 1;
            let Some(role) = role(&lexed, uses) else {
                break;
            };
            // A line above opens the check only when a bracket it opens is open
            // still at the use.
            if first < line && depth(&lexed[..uses]) <= 0 {
                continue;
            }
            if matcher(&lexed, uses) || check_start(&lexed) {
                out.push((window.trim().to_string(), role));
                break;
            }
        }
    }
    out
}

/// Whether [`role`] read the token at `k` as a matcher's argument
/// (`toBeLessThan(k)`, `Less(t, x, k)`), not an operand of a comparison or a
/// keyword's value: the matcher is the check itself.
fn matcher(lexed: &[Lex], k: usize) -> bool {
    let cmp = |l: Option<&Lex>| matches!(l, Some(Lex::Op(o)) if matches!(o.as_str(), "<" | "<=" | ">" | ">=" | "="));
    !cmp(k.checked_sub(1).and_then(|p| lexed.get(p))) && !cmp(lexed.get(k + 1))
}

/// Whether a statement opens with a positive check: `assert`, `assert!(`,
/// `debug_assert!(`, `t.true(`, `t.truthy(`, `t.assert(`, `assert.ok(`,
/// `assert.True(t, …)`, `self.assertTrue(`, `expect(`.
fn check_start(lexed: &[Lex]) -> bool {
    let words: Vec<&str> = lexed
        .iter()
        .take_while(|l| !matches!(l, Lex::Op(o) if o == "("))
        .filter_map(|l| match l {
            Lex::Word(w) => Some(w.as_str()),
            _ => None,
        })
        .collect();
    match words[..] {
        ["assert" | "debug_assert", ..] => true,
        [_, last] => matches!(
            last,
            "true" | "truthy" | "assert" | "ok" | "True" | "assertTrue" | "Truef"
        ),
        _ => false,
    }
}

/// The names of loops' values over the entries or values of the table `name`
/// (`for (const [k, v] of Object.entries(name))`, `for k, v in name.items():`,
/// `for k, v := range name {`, `for (k, v) in name.iter()`).
fn loop_values(text: &str, name: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        if line.len() > LONGEST || !line.trim_start().starts_with("for") || !line.contains(name) {
            continue;
        }
        let lexed = lex(line.trim_start());
        if !matches!(lexed.first(), Some(Lex::Word(w)) if w == "for") {
            continue;
        }
        let word = |k: usize| match lexed.get(k) {
            Some(Lex::Word(w)) => Some(w.as_str()),
            _ => None,
        };
        let op = |k: usize, o: &str| matches!(lexed.get(k), Some(Lex::Op(x)) if x == o);
        let Some(t) = lexed
            .iter()
            .position(|l| matches!(l, Lex::Word(w) if w == name))
        else {
            continue;
        };
        let before = |d: usize| t.checked_sub(d).and_then(word);
        let method = op(t + 1, ".") && matches!(word(t + 2), Some("items" | "values" | "iter"));
        let over = (matches!(before(2), Some("entries" | "values")) && op(t - 1, "("))
            || method
            || matches!(before(1), Some("range" | "in"));
        if !over {
            continue;
        }
        // The value: the name after the first `,` before the table, or the one
        // name a loop over values binds.
        let values = before(2) == Some("values") || word(t + 2) == Some("values");
        let value = match lexed[..t]
            .iter()
            .position(|l| matches!(l, Lex::Op(o) if o == ","))
        {
            Some(c) => word(c + 1),
            None if values => lexed[1..t].iter().find_map(|l| match l {
                Lex::Word(w) if !matches!(w.as_str(), "const" | "let" | "var" | "of" | "in") => {
                    Some(w.as_str())
                }
                _ => None,
            }),
            None => None,
        };
        out.extend(value.map(str::to_string));
    }
    out.truncate(8);
    out
}

/// Whether the number at `k` of a bound value is one it can come to: not an
/// operand of a comparison (`nodeVersion >= 22` is a condition, and a condition
/// changed is another bound altogether).
fn result(value: &[Lex], k: usize) -> bool {
    let cmp = |l: Option<&Lex>| matches!(l, Some(Lex::Op(o)) if matches!(o.as_str(), "<" | "<=" | ">" | ">=" | "==" | "===" | "!=" | "!=="));
    !cmp(k.checked_sub(1).and_then(|p| value.get(p))) && !cmp(value.get(k + 1))
}

/// Brackets opened less those closed.
fn depth(lexed: &[Lex]) -> isize {
    lexed
        .iter()
        .map(|l| match l {
            Lex::Op(o) if matches!(o.as_str(), "(" | "[" | "{") => 1,
            Lex::Op(o) if matches!(o.as_str(), ")" | "]" | "}") => -1,
            _ => 0,
        })
        .sum()
}

fn one_line(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn line_starts(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut at = 0;
    text.split_inclusive('\n').map(move |line| {
        let start = at;
        at += line.len();
        (start, line)
    })
}

/// The name `line` binds and the text after its `=` or `:=`: `const n = …`,
/// `let n: T = …`, `n = …`, `n := …`, `static N: T = …`.
fn binds(line: &str) -> Option<(&str, &str)> {
    let mut rest = line;
    for word in ["export ", "pub(crate) ", "pub "] {
        rest = rest.strip_prefix(word).unwrap_or(rest);
    }
    for word in ["const ", "let mut ", "let ", "var ", "static "] {
        if let Some(r) = rest.strip_prefix(word) {
            rest = r;
            break;
        }
    }
    let end = rest
        .find(|c: char| !(c.is_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    let (name, rest) = rest.split_at(end);
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let rest = rest.trim_start();
    if let Some(r) = rest.strip_prefix(":=") {
        return Some((name, r));
    }
    // A type written between the name and its `=` (`: Record<string, number>`)
    // ends at the line's first ` =`.
    let rest = match rest.strip_prefix(':') {
        Some(typed) => &typed[typed.find(" =").map(|i| i + 1)?..],
        None => rest,
    };
    let r = rest.strip_prefix('=')?;
    (!r.starts_with(['=', '>'])).then_some((name, r))
}

/// The value from the start of `text` to the end of its statement: a `;` or the
/// line's end outside brackets and strings.
fn statement(text: &str) -> Option<String> {
    let mut depth = 0usize;
    let mut quote: Option<char> = None;
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if i > LONGEST {
            return None;
        }
        if let Some(q) = quote {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                _ if c == q => quote = None,
                _ => {}
            }
            continue;
        }
        match c {
            '"' | '\'' | '`' => quote = Some(c),
            '(' | '[' | '{' => depth += 1,
            ')' | ']' | '}' => depth = depth.checked_sub(1)?,
            ';' | '\n' if depth == 0 => return Some(text[..i].trim().to_string()),
            _ => {}
        }
    }
    (depth == 0).then(|| text.trim().to_string())
}

//! Check loops narrowed: a loop over a test's checks whose range was cut
//! (`for i in range(100_000)` become `range(100)`): the values it no longer walks are checked no more, as cases taken
//! out of a table are not. Paired by the test and the loop's header, which must
//! read the same but for one number.

use std::collections::{HashMap, HashSet};

/// How many check loops each test has.
fn per_test(side: &[(String, String)]) -> HashMap<&str, usize> {
    let mut by: HashMap<&str, usize> = HashMap::new();
    for (t, _) in side {
        *by.entry(t.as_str()).or_default() += 1;
    }
    by
}

/// The most new loop headers of one test a gone one is tried against.
const MAX_CANDIDATES: usize = 64;

/// A bound below this is what a fixture holds (three items, now two), not a
/// range walked for coverage: no finding.
const WIDE: u128 = 10;

/// In words, each loop of a test in `old` whose header is gone and whose
/// test, in `new`, holds the same header with its widest bound cut to half or
/// less.
pub(super) fn loops(old: &[(String, String)], new: &[(String, String)]) -> Vec<String> {
    let was: HashSet<(&str, &str)> = old.iter().map(|(t, h)| (t.as_str(), h.as_str())).collect();
    let mut now: HashMap<&str, Vec<&str>> = HashMap::new();
    for (t, h) in new {
        if !was.contains(&(t.as_str(), h.as_str())) {
            now.entry(t).or_default().push(h);
        }
    }
    let kept: HashSet<(&str, &str)> = new.iter().map(|(t, h)| (t.as_str(), h.as_str())).collect();
    // A test with more check loops now than it had split one (`range(50)` and
    // `range(50, 100)` for `range(100)`: review 122): no cut is read in it.
    let (had, has) = (per_test(old), per_test(new));
    let mut out = Vec::new();
    for (test, header) in old {
        if kept.contains(&(test.as_str(), header.as_str())) {
            continue;
        }
        let Some(candidates) = now.get_mut(test.as_str()) else {
            continue;
        };
        // Past this many a test's (or its namesakes') loops are not paired:
        // each try against each would cost their square (review 122).
        if candidates.len() > MAX_CANDIDATES || has.get(test.as_str()) > had.get(test.as_str()) {
            continue;
        }
        if let Some(k) = candidates.iter().position(|h| cut(header, h)) {
            let h = candidates.swap_remove(k);
            out.push(format!(
                "`{header}` became `{h}` (the range its checks walk narrowed)"
            ));
        }
    }
    out
}

/// Whether `now` reads as `was` but for one number, `was`'s widest and at
/// least [`WIDE`], cut to half of it or less.
pub(super) fn cut(was: &str, now: &str) -> bool {
    let (a, b) = (pieces(was), pieces(now));
    if a.len() != b.len() {
        return false;
    }
    let mut changed = None;
    for (k, (x, y)) in a.iter().zip(&b).enumerate() {
        match (x, y) {
            (Piece::Number(p), Piece::Number(q)) if p != q => {
                if changed.is_some() || a_step(&a[..k]) {
                    return false;
                }
                changed = Some((*p, *q));
            }
            _ if x != y => return false,
            _ => {}
        }
    }
    let widest = a
        .iter()
        .filter_map(|p| match p {
            Piece::Number(n) => Some(*n),
            Piece::Text(_) => None,
        })
        .max();
    changed.is_some_and(|(p, q)| Some(p) == widest && p >= WIDE && q.saturating_mul(2) <= p)
}

/// Whether the number after `before` is a third argument (`range(0, n, 64)`:
/// a step, which walks more values as it shrinks): two commas since the last
/// `(` open, brackets between skipped.
fn a_step(before: &[Piece<'_>]) -> bool {
    let (mut commas, mut depth) = (0, 0usize);
    for p in before.iter().rev() {
        if let Piece::Text(t) = p {
            for c in t.chars().rev() {
                match c {
                    ')' | ']' => depth += 1,
                    '(' | '[' if depth > 0 => depth -= 1,
                    '(' => return commas >= 2,
                    ',' if depth == 0 => commas += 1,
                    _ => {}
                }
            }
        }
    }
    false
}

#[derive(Debug, PartialEq)]
enum Piece<'h> {
    Text(&'h str),
    /// A decimal integer literal (`1_000` too), not a part of a name (`x1`) or
    /// of a float (`1.5`, `1e6`).
    Number(u128),
}

/// `header` as runs of text and the integer literals between them.
fn pieces(header: &str) -> Vec<Piece<'_>> {
    let bytes = header.as_bytes();
    let mut out = Vec::new();
    let (mut at, mut text) = (0, 0);
    while at < bytes.len() {
        let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        let starts = bytes[at].is_ascii_digit() && (at == 0 || !word(bytes[at - 1]));
        if !starts {
            at += 1;
            continue;
        }
        let mut end = at;
        while end < bytes.len() && (bytes[end].is_ascii_digit() || bytes[end] == b'_') {
            end += 1;
        }
        // A float or a hex literal is no bound this rule reads; Rust's type
        // suffix (`1000u32`) stays with the text after the number.
        let float =
            bytes.get(end) == Some(&b'.') && bytes.get(end + 1).is_some_and(u8::is_ascii_digit);
        let rest = &header[end..];
        let suffix = [
            "u8", "u16", "u32", "u64", "u128", "usize", "i8", "i16", "i32", "i64", "i128", "isize",
        ]
        .iter()
        .any(|s| {
            rest.strip_prefix(s)
                .is_some_and(|r| !r.bytes().next().is_some_and(word))
        });
        let glued = bytes
            .get(end)
            .is_some_and(|&b| word(b) && !b.is_ascii_digit());
        if float || (glued && !suffix) {
            at = end;
            continue;
        }
        let digits: String = header[at..end]
            .chars()
            .filter(char::is_ascii_digit)
            .collect();
        let Ok(n) = digits.parse::<u128>() else {
            at = end;
            continue;
        };
        out.push(Piece::Text(&header[text..at]));
        out.push(Piece::Number(n));
        (at, text) = (end, end);
    }
    out.push(Piece::Text(&header[text..]));
    out
}

//! Where each bracket of a test file closes, and where the scans that step over
//! bracketed groups stop, found in one pass per file: a reader asks once per
//! candidate (each `def`, `fn`, `if (false)`), and a scan to the end of the file per
//! candidate made a crafted file of unclosed brackets cost minutes, not a second.

use std::collections::{HashMap, HashSet};
use std::ops::{Deref, Range};

use super::Tok;

/// A file's tokens and what [`Matched`] found of them. Reads as the slice of
/// tokens it holds; a part ([`Toks::part`]) keeps the matches inside it, as the
/// scans the lookups stand for would find them on that part alone.
pub(super) struct Toks<'s, 'a> {
    list: &'s [Tok<'a>],
    /// For an opening bracket, how far ahead the bracket closing it is, counted as
    /// the readers count depth (any kind closes any); 0: it never closes.
    close: &'s [u32],
    /// How far ahead, stepping over groups in `(`/`[`, the first `{`, `;`, `}`,
    /// unmatched `)`/`]` or unclosed `(`/`[` is ([`Toks::top_brace`]).
    stop: &'s [u32],
    /// How far ahead, stepping over groups, the first `:` is; `u32::MAX`: none
    /// ([`Toks::colon`]).
    colon: &'s [u32],
    /// For a `)`/`]`, how far back the `(`/`[` it closes is; 0: none
    /// ([`Toks::opener`]).
    opener: &'s [u32],
    /// How far ahead the Rust `fn` is that the attributes and qualifiers from here
    /// lead to; `u32::MAX`: none ([`Toks::attributed_fn`]).
    item: &'s [u32],
    /// What the Rust attributes after each hold ([`Toks::chain`]).
    chain: &'s [u8],
    /// The Go functions the file defines that check nothing ([`hollow`]).
    pub(super) hollow: &'s HashSet<&'a str>,
}

impl<'a> Deref for Toks<'_, 'a> {
    type Target = [Tok<'a>];

    fn deref(&self) -> &[Tok<'a>] {
        self.list
    }
}

/// The tables [`Toks`] reads, found once per file.
pub(super) struct Matched<'a> {
    list: Vec<Tok<'a>>,
    close: Vec<u32>,
    stop: Vec<u32>,
    colon: Vec<u32>,
    opener: Vec<u32>,
    item: Vec<u32>,
    chain: Vec<u8>,
    hollow: HashSet<&'a str>,
}

fn opens(tok: &Tok<'_>) -> bool {
    matches!(tok, Tok::Punct('(' | '[' | '{'))
}

fn closes(tok: &Tok<'_>) -> bool {
    matches!(tok, Tok::Punct(')' | ']' | '}'))
}

/// `to - from` as a table's entry (a file is at most a few MB of tokens).
fn ahead(from: usize, to: usize) -> u32 {
    u32::try_from(to - from).unwrap_or(u32::MAX)
}

impl<'a> Matched<'a> {
    pub(super) fn new(list: Vec<Tok<'a>>) -> Matched<'a> {
        let n = list.len();
        // Any kind closes any, as depth is counted: one stack of openers.
        let mut close = vec![0u32; n];
        let mut open = Vec::new();
        // `(`/`[` against `)`/`]` alone, as a signature's scan counts them.
        let mut paren = vec![u32::MAX; n];
        let mut opener = vec![0u32; n];
        let mut open_paren = Vec::new();
        for (j, tok) in list.iter().enumerate() {
            if opens(tok) {
                open.push(j);
            } else if closes(tok)
                && let Some(o) = open.pop()
            {
                close[o] = ahead(o, j);
            }
            match tok {
                Tok::Punct('(' | '[') => open_paren.push(j),
                Tok::Punct(')' | ']') => {
                    if let Some(o) = open_paren.pop() {
                        paren[o] = ahead(o, j);
                        opener[j] = ahead(o, j);
                    }
                }
                _ => {}
            }
        }
        let mut stop = vec![0u32; n];
        let mut colon = vec![u32::MAX; n];
        let mut item = vec![u32::MAX; n];
        let at = |table: &[u32], j: usize| -> Option<usize> {
            match table.get(j) {
                None => Some(n),
                Some(&u32::MAX) => None,
                Some(&d) => Some(j + d as usize),
            }
        };
        for j in (0..n).rev() {
            let tok = &list[j];
            let s = match tok {
                Tok::Punct('{' | ';' | '}' | ')' | ']') => j,
                Tok::Punct('(' | '[') => match paren[j] {
                    u32::MAX => j,
                    d => at(&stop, j + d as usize + 1).unwrap_or(n),
                },
                _ => at(&stop, j + 1).unwrap_or(n),
            };
            stop[j] = ahead(j, s);
            let c = if *tok == Tok::Punct(':') {
                Some(j)
            } else if opens(tok) {
                match close[j] {
                    0 => None,
                    d => at(&colon, j + d as usize + 1),
                }
            } else {
                at(&colon, j + 1)
            };
            colon[j] = c.filter(|&c| c < n).map_or(u32::MAX, |c| ahead(j, c));
            // Past an attribute, a `pub(crate)`, a qualifier, to the `fn`.
            let past = |k: usize| at(&item, k).filter(|&f| f < n);
            let group = |open: usize| match close.get(open) {
                Some(&d) if d > 0 && opens(&list[open]) => past(open + d as usize + 1),
                _ => None,
            };
            let f = match tok {
                Tok::Ident("fn") => Some(j),
                Tok::Punct('#') if list.get(j + 1) == Some(&Tok::Punct('!')) => group(j + 2),
                Tok::Punct('#') => group(j + 1),
                Tok::Punct('(') => group(j),
                Tok::Ident(
                    "pub" | "async" | "unsafe" | "const" | "extern" | "crate" | "super" | "in"
                    | "self" | "default",
                )
                | Tok::Str => past(j + 1),
                // In a macro's expansion: `$v fn`, `$(#[$m])* fn`.
                Tok::Punct('$') => match list.get(j + 1) {
                    Some(Tok::Ident(_)) => past(j + 2),
                    Some(Tok::Punct('(')) => group(j + 1),
                    _ => None,
                },
                Tok::Punct('*' | '+' | '?') => past(j + 1),
                _ => None,
            };
            item[j] = f.map_or(u32::MAX, |f| ahead(j, f));
        }
        let mut matched = Matched {
            list,
            close,
            stop,
            colon,
            opener,
            item,
            chain: Vec::new(),
            hollow: HashSet::new(),
        };
        matched.chain = super::attribute_chains(&matched.toks());
        matched.hollow = hollow(&matched.list, &matched.close);
        matched
    }

    /// The tokens, the tables left.
    pub(super) fn into_list(self) -> Vec<Tok<'a>> {
        self.list
    }

    /// The tokens with their tables.
    pub(super) fn toks(&self) -> Toks<'_, 'a> {
        Toks {
            list: &self.list,
            close: &self.close,
            stop: &self.stop,
            colon: &self.colon,
            opener: &self.opener,
            item: &self.item,
            chain: &self.chain,
            hollow: &self.hollow,
        }
    }
}

impl<'a> Toks<'_, 'a> {
    /// Tokens `range` alone, as if the file held no others.
    pub(super) fn part(&self, range: Range<usize>) -> Toks<'_, 'a> {
        Toks {
            list: &self.list[range.clone()],
            close: &self.close[range.clone()],
            stop: &self.stop[range.clone()],
            colon: &self.colon[range.clone()],
            opener: &self.opener[range.clone()],
            item: &self.item[range.clone()],
            chain: self.chain.get(range).unwrap_or(&[]),
            hollow: self.hollow,
        }
    }

    /// The index of the bracket closing the one at `open`.
    pub(super) fn group_end(&self, open: usize) -> Option<usize> {
        if !opens(self.list.get(open)?) {
            return None;
        }
        match self.close[open] {
            0 => None,
            d => Some(open + d as usize).filter(|&c| c < self.list.len()),
        }
    }

    /// The first `{` from `from` outside parentheses and brackets: a function's
    /// body after its signature. None when a `;` or `}` comes first, or a `)`/`]`
    /// closes what the signature sits in, or a `(`/`[` never closes.
    pub(super) fn top_brace(&self, from: usize) -> Option<usize> {
        let d = *self.stop.get(from)? as usize;
        let at = from.checked_add(d)?;
        (self.list.get(at)? == &Tok::Punct('{')).then_some(at)
    }

    /// The first `:` from `from` outside brackets (a `)`, `]` or `}` that closes
    /// nothing opened after `from` is passed over): the end of a Python signature.
    pub(super) fn colon(&self, from: usize) -> Option<usize> {
        match *self.colon.get(from)? {
            u32::MAX => None,
            d => Some(from + d as usize).filter(|&c| c < self.list.len()),
        }
    }

    /// The Rust `fn` the attribute at `i` (`#[test]`, `#[case(…)]`) sits on: past
    /// the attributes after it and the qualifiers before `fn` (`pub(crate) async
    /// unsafe extern "C"`), the only tokens Rust allows between them.
    pub(super) fn attributed_fn(&self, i: usize) -> Option<usize> {
        match *self.item.get(i)? {
            u32::MAX => None,
            d => Some(i + d as usize).filter(|&f| f < self.list.len()),
        }
    }

    /// What the Rust attributes after the one at `i` on the same item hold
    /// (`weakened::attribute_chains`).
    pub(super) fn chain(&self, i: usize) -> u8 {
        self.chain.get(i).copied().unwrap_or(0)
    }

    /// The `(`/`[` that the `)`/`]` at `close` closes, brackets of those kinds
    /// counted alone.
    pub(super) fn opener(&self, close: usize) -> Option<usize> {
        match *self.opener.get(close)? {
            0 => None,
            d => close.checked_sub(d as usize),
        }
    }
}

/// The Go functions `list` defines (`func name(…) … { … }`) whose body names no
/// check: no `Error`/`Fatal`/`Fail` of a `t`, no `panic`, no call of a helper or
/// library named for one. A call of one given `t` is no check, whatever its name
/// (`checkRun(t, got, want)` defined as `{ t.Helper() }`).
fn hollow<'a>(list: &[Tok<'a>], close: &[u32]) -> HashSet<&'a str> {
    let mut defined: HashMap<&'a str, (bool, Vec<&'a str>)> = HashMap::new();
    for (i, tok) in list.iter().enumerate() {
        let (Tok::Ident("func"), Some(Tok::Ident(name)), Some(Tok::Punct('('))) =
            (tok, list.get(i + 1), list.get(i + 2))
        else {
            continue;
        };
        let Some(params) = close
            .get(i + 2)
            .filter(|&&d| d > 0)
            .map(|&d| i + 2 + d as usize)
        else {
            continue;
        };
        let Some(open) = (params..list.len())
            .take(64)
            .find(|&k| list[k] == Tok::Punct('{'))
        else {
            continue;
        };
        let end = match close.get(open) {
            Some(&d) if d > 0 => open + d as usize,
            _ => continue,
        };
        // Checks of its own through its `t`, and the helpers named for one it calls.
        let mut own = false;
        let mut calls = Vec::new();
        for k in open..end {
            let Tok::Ident(w) = list[k] else { continue };
            let lower = w.to_ascii_lowercase();
            let through_t = k >= 2
                && list[k - 1] == Tok::Punct('.')
                && matches!(list[k - 2], Tok::Ident(r) if super::GO_RECEIVERS.contains(&r));
            if through_t
                && matches!(
                    w,
                    "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow"
                )
                || w == "Expect"
            {
                own = true;
            } else if super::GO_CHECK_WORDS.iter().any(|c| lower.starts_with(c)) {
                calls.push(w);
            }
        }
        defined.insert(*name, (own, calls));
    }
    // A helper that calls only helpers checking nothing checks nothing: from every
    // helper without a check of its own, those calling a check left out until none.
    let mut out: HashSet<&'a str> = defined
        .iter()
        .filter(|(_, d)| !d.0)
        .map(|(n, _)| *n)
        .collect();
    loop {
        let checking: Vec<&'a str> = out
            .iter()
            .copied()
            .filter(|n| {
                defined[n]
                    .1
                    .iter()
                    .any(|c| !defined.contains_key(c) || !out.contains(c))
            })
            .collect();
        if checking.is_empty() {
            break;
        }
        for n in checking {
            out.remove(n);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every sequence of up to `longest` of `pieces`, each piece's tokens in a row.
    fn sequences<'p, 't>(
        pieces: &'p [&'p [Tok<'t>]],
        longest: u32,
    ) -> impl Iterator<Item = Vec<Tok<'t>>> + 'p {
        let k = pieces.len();
        (0..=longest).flat_map(move |len| {
            (0..k.pow(len)).map(move |mut code| {
                let mut list = Vec::new();
                for _ in 0..len {
                    list.extend_from_slice(pieces[code % k]);
                    code /= k;
                }
                list
            })
        })
    }

    /// Each token a piece.
    fn alone<'t>(alphabet: &'t [Tok<'t>]) -> Vec<&'t [Tok<'t>]> {
        alphabet.iter().map(std::slice::from_ref).collect()
    }

    /// The scans the tables stand for, as the readers wrote them.
    fn scanned_group_end(toks: &[Tok<'_>], open: usize) -> Option<usize> {
        if !opens(toks.get(open)?) {
            return None;
        }
        let mut depth = 0usize;
        for (j, tok) in toks.iter().enumerate().skip(open) {
            if opens(tok) {
                depth += 1;
            } else if closes(tok) {
                depth -= 1;
                if depth == 0 {
                    return Some(j);
                }
            }
        }
        None
    }

    fn scanned_top_brace(toks: &[Tok<'_>], from: usize) -> Option<usize> {
        let mut depth = 0usize;
        for (j, tok) in toks.iter().enumerate().skip(from) {
            match tok {
                Tok::Punct('{') if depth == 0 => return Some(j),
                Tok::Punct('(' | '[') => depth += 1,
                Tok::Punct(')' | ']') => depth = depth.checked_sub(1)?,
                Tok::Punct(';' | '}') if depth == 0 => return None,
                _ => {}
            }
        }
        None
    }

    fn scanned_colon(toks: &[Tok<'_>], from: usize) -> Option<usize> {
        let mut depth = 0usize;
        (from..toks.len()).find(|&j| {
            if opens(&toks[j]) {
                depth += 1;
            } else if closes(&toks[j]) {
                depth = depth.saturating_sub(1);
            }
            depth == 0 && toks[j] == Tok::Punct(':')
        })
    }

    fn scanned_opener(toks: &[Tok<'_>], close: usize) -> Option<usize> {
        if !matches!(toks.get(close)?, Tok::Punct(')' | ']')) {
            return None;
        }
        let mut depth = 0usize;
        for j in (0..=close).rev() {
            match toks[j] {
                Tok::Punct(']' | ')') => depth += 1,
                Tok::Punct('[' | '(') => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return Some(j);
                    }
                }
                _ => {}
            }
        }
        None
    }

    /// Every sequence of up to 6 of these tokens: each lookup gives what its scan
    /// gives, on the whole and (up to 4) on every part.
    #[test]
    fn lookups_give_what_the_scans_give() {
        let alphabet = [
            Tok::Punct('('),
            Tok::Punct(')'),
            Tok::Punct('['),
            Tok::Punct(']'),
            Tok::Punct('{'),
            Tok::Punct('}'),
            Tok::Punct(';'),
            Tok::Punct(':'),
            Tok::Ident("x"),
        ];
        let mut checked = 0;
        for list in sequences(&alone(&alphabet), 6) {
            let matched = Matched::new(list.clone());
            let whole = matched.toks();
            let parts = match list.len() {
                0..=4 => (0..=list.len())
                    .flat_map(|a| (a..=list.len()).map(move |b| (a, b)))
                    .collect(),
                _ => vec![(0, list.len())],
            };
            for (a, b) in parts {
                let part = whole.part(a..b);
                let slice = &list[a..b];
                for i in 0..=slice.len() {
                    assert_eq!(
                        part.group_end(i),
                        scanned_group_end(slice, i),
                        "{list:?} {a}..{b} at {i}"
                    );
                    assert_eq!(
                        part.top_brace(i),
                        scanned_top_brace(slice, i),
                        "{list:?} {a}..{b} at {i}"
                    );
                    assert_eq!(
                        part.colon(i),
                        scanned_colon(slice, i),
                        "{list:?} {a}..{b} at {i}"
                    );
                    checked += 1;
                }
            }
            for i in 0..=list.len() {
                assert_eq!(whole.opener(i), scanned_opener(&list, i), "{list:?} at {i}");
            }
        }
        assert!(checked > 3_000_000, "{checked}");
    }
    /// The scan `forms::in_loops` stands for, as it was written: back from `i` to
    /// the `{` it sits in, then whether that opens a loop's block.
    fn scanned_in_loop(toks: &Toks<'_, '_>, i: usize) -> bool {
        let mut depth = 0usize;
        let mut open = None;
        for k in (0..i).rev() {
            match toks[k] {
                Tok::Punct('}' | ')' | ']') => depth += 1,
                Tok::Punct('(' | '[') => depth = depth.saturating_sub(1),
                Tok::Punct('{') if depth == 0 => {
                    open = Some(k);
                    break;
                }
                Tok::Punct('{') => depth -= 1,
                _ => {}
            }
        }
        open.is_some_and(|open| super::super::forms::loop_block(toks, open))
    }

    #[test]
    fn loops_found_in_one_pass_are_those_the_scan_found() {
        let alphabet = [
            Tok::Punct('('),
            Tok::Punct(')'),
            Tok::Punct('['),
            Tok::Punct('{'),
            Tok::Punct('}'),
            Tok::Ident("for"),
            Tok::Ident("if"),
            Tok::Ident("x"),
        ];
        for list in sequences(&alone(&alphabet), 7) {
            let matched = Matched::new(list.clone());
            let toks = matched.toks();
            let found = super::super::forms::in_loops(&toks);
            for (i, &inside) in found.iter().enumerate() {
                assert_eq!(inside, scanned_in_loop(&toks, i), "{list:?} at {i}");
            }
        }
    }
    /// The walk `Toks::attributed_fn` stands for.
    fn walked_fn(toks: &Toks<'_, '_>, i: usize) -> Option<usize> {
        let mut j = i;
        loop {
            match toks.get(j)? {
                Tok::Ident("fn") => return Some(j),
                Tok::Punct('#') => {
                    let open = j + 1 + usize::from(toks.get(j + 1) == Some(&Tok::Punct('!')));
                    j = toks.group_end(open)? + 1;
                }
                Tok::Punct('(') => j = toks.group_end(j)? + 1,
                Tok::Punct('$') if matches!(toks.get(j + 1), Some(Tok::Ident(_))) => j += 2,
                Tok::Punct('$') if toks.get(j + 1) == Some(&Tok::Punct('(')) => {
                    j = toks.group_end(j + 1)? + 1;
                }
                Tok::Ident("pub" | "async" | "extern") | Tok::Punct('*') | Tok::Str => j += 1,
                _ => return None,
            }
        }
    }

    #[test]
    fn the_fn_under_attributes_is_the_one_walked_to() {
        let alphabet = [
            Tok::Punct('#'),
            Tok::Punct('!'),
            Tok::Punct('['),
            Tok::Punct(']'),
            Tok::Punct('('),
            Tok::Punct(')'),
            Tok::Ident("fn"),
            Tok::Ident("pub"),
            Tok::Punct('$'),
            Tok::Punct('*'),
            Tok::Ident("x"),
        ];
        for list in sequences(&alone(&alphabet), 5) {
            let matched = Matched::new(list.clone());
            let toks = matched.toks();
            for i in 0..=list.len() {
                assert_eq!(
                    toks.attributed_fn(i),
                    walked_fn(&toks, i),
                    "{list:?} at {i}"
                );
            }
        }
    }
    /// The walk `Toks::chain` stands for: along the attributes after the one at
    /// `i`, one by one.
    fn walked_chain(toks: &Toks<'_, '_>, i: usize) -> u8 {
        use super::super::{CHAIN_CFG, CHAIN_TEST, cfg_of, test_attr};
        let mut out = 0;
        let mut k = toks.group_end(i + 1).map(|e| e + 1);
        while let Some(at) = k {
            if !(toks.get(at) == Some(&Tok::Punct('#'))
                && toks.get(at + 1) == Some(&Tok::Punct('[')))
            {
                break;
            }
            if cfg_of(toks, at) == Some(false) {
                out |= CHAIN_CFG;
            }
            if test_attr(toks, at) {
                out |= CHAIN_TEST;
            }
            k = toks.group_end(at + 1).map(|e| e + 1);
        }
        out
    }

    #[test]
    fn what_the_attributes_after_one_hold_is_what_a_walk_finds() {
        use Tok::{Ident as I, Punct as P};
        let pieces: [&[Tok<'_>]; 9] = [
            &[P('#'), P('['), I("test"), P(']')],
            &[P('#'), P('['), I("cfg"), P('('), I("x"), P(')'), P(']')],
            &[
                P('#'),
                P('['),
                I("cfg"),
                P('('),
                I("any"),
                P('('),
                P(')'),
                P(')'),
                P(']'),
            ],
            &[P('#'), P('['), I("x"), P(']')],
            &[P('#'), P('!'), P('['), I("x"), P(']')],
            &[P('#'), P('[')],
            &[P(']')],
            &[P('(')],
            &[I("fn")],
        ];
        let mut seen = [0usize; 4];
        for list in sequences(&pieces, 5) {
            let matched = Matched::new(list.clone());
            let toks = matched.toks();
            for i in 0..list.len() {
                if list[i] == Tok::Punct('#') {
                    let walked = walked_chain(&toks, i);
                    assert_eq!(toks.chain(i), walked, "{list:?} at {i}");
                    seen[usize::from(walked)] += 1;
                }
            }
        }
        // Each bit was found, alone and together, so the comparison means something.
        assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
    }
}

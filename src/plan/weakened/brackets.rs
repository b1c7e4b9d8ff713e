//! Where each bracket of a test file closes, and where the scans that step over
//! bracketed groups stop, found in one pass per file: a reader asks once per
//! candidate (each `def`, `fn`, `if (false)`), and a scan to the end of the file per
//! candidate made a crafted file of unclosed brackets cost minutes, not a second.

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
        }
        Matched {
            list,
            close,
            stop,
            colon,
            opener,
        }
    }

    /// The tokens with their tables.
    pub(super) fn toks(&self) -> Toks<'_, 'a> {
        Toks {
            list: &self.list,
            close: &self.close,
            stop: &self.stop,
            colon: &self.colon,
            opener: &self.opener,
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

    /// The `(`/`[` that the `)`/`]` at `close` closes, brackets of those kinds
    /// counted alone.
    pub(super) fn opener(&self, close: usize) -> Option<usize> {
        match *self.opener.get(close)? {
            0 => None,
            d => close.checked_sub(d as usize),
        }
    }
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
}

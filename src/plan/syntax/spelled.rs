//! Code in one spelling, its string literals found by its tree: no spaces but one
//! where two words meet (`not x`, `x as u32`), literals as written but for the
//! code in an f-string's or a template's holes, spelled the same way. `f(2,3)`
//! and `f( 2, 3 )` are one spelling; `"a  b"` and `"a b"` are two.

use std::collections::HashMap;

use tree_sitter::Node;

use super::preorder;

/// The text a tree was read from, with its string literals by where their quote
/// opens (a prefix such as `rb` is spelled as code, as the word it is): where
/// each ends, and the holes in it that are code; and its brackets outside them,
/// each with its mate's place and whether it opens.
pub struct Spelling<'s> {
    src: &'s str,
    strings: HashMap<usize, (usize, Vec<(usize, usize)>)>,
    brackets: HashMap<usize, (usize, bool)>,
}

/// Code in one spelling with what its tree said of it, in the spelling's places:
/// where each bracket pair opens and closes (by where it opens), and where each
/// string literal runs from its quote on (in order). Readers of the spelling
/// find its groups and literals here, not by reading quotes again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spelled {
    pub text: String,
    pub pairs: Vec<(usize, usize)>,
    pub strings: Vec<(usize, usize)>,
}

impl Spelled {
    /// Plain code, with no brackets or literals in it: a word a reader put in.
    pub fn code(text: &str) -> Spelled {
        Spelled {
            text: text.to_string(),
            ..Spelled::default()
        }
    }

    /// `other` written after this: its places moved along.
    pub fn push(&mut self, other: &Spelled) {
        let at = self.text.len();
        self.text.push_str(&other.text);
        let moved = |&(a, b): &(usize, usize)| (a + at, b + at);
        self.pairs.extend(other.pairs.iter().map(moved));
        self.strings.extend(other.strings.iter().map(moved));
    }
}

impl<'s> Spelling<'s> {
    /// The literals of the tree at `root`, read from `src`.
    pub fn of(src: &'s str, root: Node<'_>) -> Spelling<'s> {
        let mut strings = HashMap::new();
        let mut brackets = HashMap::new();
        let mut open = Vec::new();
        // Where the literal being read ends: a bracket before it is in its holes.
        let mut literal = 0;
        for n in preorder(root) {
            if n.child_count() == 0 && n.start_byte() >= literal {
                match n.kind() {
                    "(" | "[" | "{" => open.push(n.start_byte()),
                    ")" | "]" | "}" => {
                        if let Some(o) = open.pop() {
                            brackets.insert(o, (n.start_byte(), true));
                            brackets.insert(n.start_byte(), (o, false));
                        }
                    }
                    _ => {}
                }
            }
            let hole = match n.kind() {
                "string" => "interpolation",
                "template_string" => "template_substitution",
                "string_literal"
                | "raw_string_literal"
                | "char_literal"
                | "interpreted_string_literal"
                | "rune_literal" => "",
                _ => continue,
            };
            let Some(quote) = src[n.byte_range()].find(['"', '\'', '`']) else {
                continue;
            };
            let mut cursor = n.walk();
            let holes = n
                .children(&mut cursor)
                .filter(|h| h.kind() == hole)
                .map(|h| {
                    let open = if hole == "interpolation" { 1 } else { 2 };
                    (h.start_byte() + open, h.end_byte() - 1)
                })
                .collect();
            strings.insert(n.start_byte() + quote, (n.end_byte(), holes));
            literal = literal.max(n.end_byte());
        }
        Spelling {
            src,
            strings,
            brackets,
        }
    }

    /// `part` spelled when it is a slice of the text the tree was read from;
    /// other text (a word a reader put in, `true`) as it is.
    pub fn part(&self, part: &str) -> Spelled {
        let at = (part.as_ptr() as usize).checked_sub(self.src.as_ptr() as usize);
        match at.filter(|at| at + part.len() <= self.src.len()) {
            Some(at) => self.spelled(at, at + part.len()),
            None => Spelled::code(part),
        }
    }

    /// Where the bracket opening at byte `at` of the text closes.
    pub fn closes(&self, at: usize) -> Option<usize> {
        let &(mate, opens) = self.brackets.get(&at)?;
        opens.then_some(mate)
    }

    /// `src[from..to]` spelled.
    pub fn range(&self, from: usize, to: usize) -> String {
        self.spelled(from, to).text
    }

    /// `src[from..to]` spelled, with its brackets and literals.
    pub fn spelled(&self, from: usize, to: usize) -> Spelled {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let mut out = String::with_capacity(to - from);
        let (mut pairs, mut strings) = (Vec::new(), Vec::new());
        // Where each bracket opened in the spelling, by where it opens in `src`.
        let mut opened = HashMap::new();
        let mut gap = false;
        let mut i = from;
        while i < to {
            if let Some((end, holes)) = self.strings.get(&i).filter(|(end, _)| *end <= to) {
                let start = out.len();
                let mut at = i;
                // A crafted literal's holes, nested deep, are left as written.
                for &(open, close) in holes.iter().filter(|_| end - i <= 4096) {
                    out.push_str(&self.src[at..open]);
                    out.push_str(&self.range(open, close));
                    at = close;
                }
                out.push_str(&self.src[at..*end]);
                strings.push((start, out.len()));
                gap = false;
                i = *end;
                continue;
            }
            let Some(c) = self.src[i..].chars().next() else {
                break;
            };
            match self.brackets.get(&i) {
                Some(&(close, true)) if close < to => {
                    opened.insert(i, out.len());
                }
                Some(&(open, false)) => {
                    if let Some(&o) = opened.get(&open) {
                        pairs.push((o, out.len()));
                    }
                }
                _ => {}
            }
            i += c.len_utf8();
            if c.is_whitespace() {
                gap = true;
                continue;
            }
            if gap && word(c) && out.ends_with(word) {
                out.push(' ');
            }
            gap = false;
            out.push(c);
        }
        pairs.sort_unstable();
        Spelled {
            text: out,
            pairs,
            strings,
        }
    }
}

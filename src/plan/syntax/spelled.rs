//! Code in one spelling, its string literals found by its tree: no spaces but one
//! where two words meet (`not x`, `x as u32`), literals as written but for the
//! code in an f-string's or a template's holes, spelled the same way. `f(2,3)`
//! and `f( 2, 3 )` are one spelling; `"a  b"` and `"a b"` are two.

use std::collections::HashMap;

use tree_sitter::Node;

use super::preorder;

/// The text a tree was read from, with its string literals by where their quote
/// opens (a prefix such as `rb` is spelled as code, as the word it is): where
/// each ends, and the holes in it that are code.
pub struct Spelling<'s> {
    src: &'s str,
    strings: HashMap<usize, (usize, Vec<(usize, usize)>)>,
}

impl<'s> Spelling<'s> {
    /// The literals of the tree at `root`, read from `src`.
    pub fn of(src: &'s str, root: Node<'_>) -> Spelling<'s> {
        let mut strings = HashMap::new();
        for n in preorder(root) {
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
        }
        Spelling { src, strings }
    }

    /// `part` spelled when it is a slice of the text the tree was read from;
    /// other text (a word a reader put in, `true`) as it is.
    pub fn part(&self, part: &str) -> String {
        let at = (part.as_ptr() as usize).checked_sub(self.src.as_ptr() as usize);
        match at.filter(|at| at + part.len() <= self.src.len()) {
            Some(at) => self.range(at, at + part.len()),
            None => part.to_string(),
        }
    }

    /// `src[from..to]` spelled.
    pub fn range(&self, from: usize, to: usize) -> String {
        let word = |c: char| c.is_alphanumeric() || c == '_';
        let mut out = String::with_capacity(to - from);
        let mut gap = false;
        let mut i = from;
        while i < to {
            if let Some((end, holes)) = self.strings.get(&i).filter(|(end, _)| *end <= to) {
                let mut at = i;
                // A crafted literal's holes, nested deep, are left as written.
                for &(open, close) in holes.iter().filter(|_| end - i <= 4096) {
                    out.push_str(&self.src[at..open]);
                    out.push_str(&self.range(open, close));
                    at = close;
                }
                out.push_str(&self.src[at..*end]);
                gap = false;
                i = *end;
                continue;
            }
            let Some(c) = self.src[i..].chars().next() else {
                break;
            };
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
        out
    }
}

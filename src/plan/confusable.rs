//! Look-alike characters: the ASCII character that a letter from another script
//! (Cyrillic `о`, Greek `ο`, fullwidth `ｒ`) reads as, by the UTS #39 confusables
//! table, so a line can be read as a reviewer reads it. Pure.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::OnceLock;

/// The ASCII character `c` reads as, when `c` is not ASCII and the confusables
/// table gives it the skeleton of a printable ASCII character. Of the ASCII
/// characters sharing that skeleton (`l`, `I`, `1`; `O`, `0`), the one of `c`'s kind:
/// Cyrillic `і` reads as `i`, `І` as `I`, `о` as `o`, `О` as `O`.
pub fn ascii_for(c: char) -> Option<char> {
    if c.is_ascii() {
        return None;
    }
    // A log in Russian or Japanese asks for the same few dozen letters on every line;
    // a skeleton costs a normalization and a table search.
    thread_local! {
        static SEEN: std::cell::RefCell<HashMap<char, Option<char>>> = Default::default();
    }
    SEEN.with(|seen| {
        if let Some(&known) = seen.borrow().get(&c) {
            return known;
        }
        let found = twin(c);
        seen.borrow_mut().insert(c, found);
        found
    })
}

fn twin(c: char) -> Option<char> {
    let skeleton: String = unicode_security::skeleton(&c.to_string()).collect();
    let candidates = by_skeleton().get(&skeleton)?;
    let rank = |a: &char| {
        let same = (c.is_lowercase() && a.is_ascii_lowercase())
            || (c.is_uppercase() && a.is_ascii_uppercase())
            || (c.is_numeric() && a.is_ascii_digit());
        (!same, !a.is_ascii_lowercase(), *a)
    };
    candidates.iter().min_by_key(|a| rank(a)).copied()
}

/// `text` with each look-alike character ([`ascii_for`]) as the ASCII one it reads
/// as. ASCII text is returned as it is, at no cost.
pub fn fold(text: &str) -> Cow<'_, str> {
    if text.is_ascii() {
        return Cow::Borrowed(text);
    }
    let mut changed = false;
    let folded: String = text
        .chars()
        .map(|c| match ascii_for(c) {
            Some(a) => {
                changed = true;
                a
            }
            None => c,
        })
        .collect();
    if changed {
        Cow::Owned(folded)
    } else {
        Cow::Borrowed(text)
    }
}

/// `text` as a reviewer reads it: invisible characters gone, odd spaces plain, and
/// look-alike letters as the ASCII ones they pass for.
pub fn reviewed(text: &str) -> String {
    fold(&plain(text)).into_owned()
}

/// A space other than U+0020 (no-break, thin, ideographic, …), or a character that
/// shows as blank (the braille blank, the Hangul fillers): it looks like a space in
/// git diff, but plan's event forms are read with plain spaces only.
pub fn odd_space(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    // ' ' is the one ASCII space separator ([`super::text::is_invisible`] says
    // why the lookup is skipped).
    !c.is_ascii()
        && (get_general_category(c) == GeneralCategory::SpaceSeparator
            || matches!(
                c,
                '\u{2800}' | '\u{3164}' | '\u{ffa0}' | '\u{115f}' | '\u{1160}'
            ))
}

/// `text` as a reviewer reads it: invisible characters gone, odd spaces plain.
fn plain(text: &str) -> String {
    text.chars()
        .filter(|&c| !super::text::is_invisible(c))
        .map(|c| if odd_space(c) { ' ' } else { c })
        .collect()
}

/// The printable ASCII characters by their skeleton.
fn by_skeleton() -> &'static HashMap<String, Vec<char>> {
    static TABLE: OnceLock<HashMap<String, Vec<char>>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table: HashMap<String, Vec<char>> = HashMap::new();
        for a in (b'!'..=b'~').map(char::from) {
            let skeleton: String = unicode_security::skeleton(&a.to_string()).collect();
            table.entry(skeleton).or_default().push(a);
        }
        table
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_of_other_scripts_read_as_their_ascii_twin() {
        assert_eq!(fold("re\u{43e}pened"), "reopened");
        assert_eq!(fold("\u{455}\u{4bb}\u{456}\u{440}"), "ship");
        assert_eq!(fold("\u{406}\u{41e}\u{3bf}"), "IOo");
        assert_eq!(fold("\u{ff52}\u{ff1a}"), "r:");
        assert_eq!(ascii_for('\u{2010}'), Some('-'));
        // Letters with no ASCII twin stay as they are.
        assert_eq!(fold("готово, テスト, café"), "roтoвo, テスト, café");
        assert!(matches!(fold("plain ascii"), Cow::Borrowed(_)));
        assert!(matches!(fold("テスト"), Cow::Borrowed(_)));
    }
}

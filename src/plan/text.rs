//! Small text shapes shared by what plan writes and prints. Pure.

/// Whitespace runs become one space, ends trimmed: a plan.md value cannot hold a
/// newline, and re-wrapping a line is no change.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A verify line as one line: whitespace between its words becomes one space, ends
/// trimmed; inside quotes, or escaped, whitespace is the command's own and is kept
/// as written. Two spaces in `grep -q "a  b"` are not one: read as [`one_line`]
/// reads prose, the contract's fingerprint stayed the same while the command
/// changed. Quotes as `verify` reads them: single quotes literal, a backslash
/// escaping the next character outside them.
pub fn one_line_command(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut quote: Option<char> = None;
    let mut gap = false;
    let mut chars = text.trim().chars();
    while let Some(c) = chars.next() {
        match quote {
            Some(q) => {
                out.push(c);
                if c == '\\' && q == '"' {
                    out.extend(chars.next());
                } else if c == q {
                    quote = None;
                }
            }
            None if c.is_whitespace() => gap = true,
            None => {
                if std::mem::take(&mut gap) {
                    out.push(' ');
                }
                out.push(c);
                match c {
                    '\'' | '"' => quote = Some(c),
                    '\\' => out.extend(chars.next()),
                    _ => {}
                }
            }
        }
    }
    out
}

/// The first `max` characters, and `…` when there were more.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

/// The most of a user's text (a goal id, a title) a message echoes: enough to
/// know it again, and a 10 MB argument is never printed whole.
pub const ECHO_MAX: usize = 200;

/// `text` as a message echoes it: whole up to [`ECHO_MAX`] characters, else its
/// first [`ECHO_MAX`] and how many more there were.
pub fn excerpt(text: &str) -> std::borrow::Cow<'_, str> {
    excerpt_at(text, ECHO_MAX)
}

/// As [`excerpt`], up to `max` characters: for a whole message, which quotes
/// excerpts already and may be longer than one.
pub fn excerpt_at(text: &str, max: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(max) {
        Some((end, _)) => {
            let rest = text[end..].chars().count();
            std::borrow::Cow::Owned(format!(
                "{}… ({rest} more character{})",
                &text[..end],
                if rest == 1 { "" } else { "s" }
            ))
        }
        None => std::borrow::Cow::Borrowed(text),
    }
}

/// A C0 or C1 control character or DEL: what starts a terminal control sequence or
/// moves the cursor. Tab is kept; plan.md lines hold no newline.
fn is_control(c: char) -> bool {
    c != '\t' && c.is_control()
}

/// The first control character in `text` (tab aside): a line of plan.md holds none
/// as written, since a raw one makes git read the file as binary and a line break
/// would end the line early.
pub fn first_control(text: &str) -> Option<char> {
    text.chars().find(|&c| is_control(c))
}

/// A character that shows as nothing where it stands: a format character (Unicode
/// category Cf: zero-width space and joiners, bidi controls, the BOM, tags) or a
/// variation selector. A line with one reads the same in `git diff` as one without.
pub fn is_invisible(c: char) -> bool {
    use unicode_general_category::{GeneralCategory, get_general_category};
    // No ASCII character is one; the table lookup, asked of every character of a
    // plan on each parse, is the cost of a parse in an unoptimised build.
    !c.is_ascii() && get_general_category(c) == GeneralCategory::Format
        || matches!(c, '\u{34f}' | '\u{180b}'..='\u{180d}' | '\u{fe00}'..='\u{fe0f}' | '\u{e0100}'..='\u{e01ef}')
}

/// `text` without its invisible characters ([`is_invisible`]).
pub fn without_invisible(text: &str) -> std::borrow::Cow<'_, str> {
    if text.chars().any(is_invisible) {
        std::borrow::Cow::Owned(text.chars().filter(|&c| !is_invisible(c)).collect())
    } else {
        std::borrow::Cow::Borrowed(text)
    }
}

/// For human output: every control character shown as a visible escape (`\x1b`,
/// `\u{9b}`), so a title cannot clear the screen, retitle the window or write the
/// clipboard (OSC 52). Text without one is returned as it is.
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        match c {
            '\r' => out.push_str("\\r"),
            c if is_control(c) && (c as u32) < 0x80 => {
                out.push_str(&format!("\\x{:02x}", c as u32));
            }
            c if is_control(c) => out.push_str(&format!("\\u{{{:x}}}", c as u32)),
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// For what the model reads: control sequences removed, with their parameters and
/// payload (an OSC 52 clipboard write carries base64 a model might act on).
pub fn strip_controls(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(is_control) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            // ESC [ … final byte; ESC ] … BEL or ESC \; ESC P/X/^/_ … ESC \;
            // C1 CSI (U+9B) and OSC (U+9D) likewise.
            '\x1b' | '\u{9b}' | '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}' | '\u{9f}' => {
                let kind = if c == '\x1b' { chars.next() } else { Some(c) };
                match kind {
                    Some('[' | '\u{9b}') => {
                        // Parameters and intermediates, then one final byte.
                        for c in chars.by_ref() {
                            if ('@'..='~').contains(&c) {
                                break;
                            }
                        }
                    }
                    Some(
                        ']' | 'P' | 'X' | '^' | '_' | '\u{9d}' | '\u{90}' | '\u{98}' | '\u{9e}'
                        | '\u{9f}',
                    ) => {
                        // A string, ended by BEL, ST (U+9C) or ESC \.
                        while let Some(c) = chars.next() {
                            if c == '\x07' || c == '\u{9c}' {
                                break;
                            }
                            if c == '\x1b' {
                                if chars.peek() == Some(&'\\') {
                                    chars.next();
                                }
                                break;
                            }
                        }
                    }
                    // A two-byte escape (ESC 7, ESC c, …): both go.
                    _ => {}
                }
            }
            c if is_control(c) => {}
            c => out.push(c),
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Whether `b` starts with a log stamp's shape, `YYYY-MM-DD HH:MM` (digits where
/// digits go; the date itself is not checked). The one test of it for the full
/// reading of a log line and the cut reader's byte-level fast path.
pub fn starts_with_stamp(b: &[u8]) -> bool {
    let digits = |r: std::ops::Range<usize>| b[r].iter().all(u8::is_ascii_digit);
    b.len() >= 16
        && digits(0..4)
        && b[4] == b'-'
        && digits(5..7)
        && b[7] == b'-'
        && digits(8..10)
        && b[10] == b' '
        && digits(11..13)
        && b[13] == b':'
        && digits(14..16)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_command_keeps_its_quoted_and_escaped_whitespace() {
        for (line, one) in [
            ("  grep -q   x  f ", "grep -q x f"),
            ("grep -q \"a  b\" f", "grep -q \"a  b\" f"),
            ("grep -q 'a\tb'   f", "grep -q 'a\tb' f"),
            ("echo a\\  b", "echo a\\  b"),
            ("echo \"a\\\"  b\"  c", "echo \"a\\\"  b\" c"),
            ("it's  open", "it's  open"),
        ] {
            assert_eq!(one_line_command(line), one, "{line:?}");
        }
        // Without quotes or escapes it is `one_line`.
        let plain = "cargo   test\t--all  ";
        assert_eq!(one_line_command(plain), one_line(plain));
    }

    #[test]
    fn an_excerpt_keeps_short_text_and_counts_what_it_leaves_out() {
        assert_eq!(excerpt("short"), "short");
        let exact = "é".repeat(ECHO_MAX);
        assert_eq!(excerpt(&exact), exact);
        let long = format!("{exact}xy");
        assert_eq!(excerpt(&long), format!("{exact}… (2 more characters)"));
        assert_eq!(excerpt_at("abcd", 3), "abc… (1 more character)");
    }

    #[test]
    fn one_line_and_cut() {
        assert_eq!(one_line("  a\n b\t\tc "), "a b c");
        assert_eq!(cut("héllo", 3), "hél…");
        assert_eq!(cut("héllo", 5), "héllo");
    }

    const OSC52: &str = "a\x1b]52;c;cm0gLXJmIH4=\x07b";

    #[test]
    fn escape_shows_every_control_character() {
        assert_eq!(escape_controls(OSC52), "a\\x1b]52;c;cm0gLXJmIH4=\\x07b");
        assert_eq!(
            escape_controls("x\x1b[2J\u{9b}31m\r\x7f"),
            "x\\x1b[2J\\u{9b}31m\\r\\x7f"
        );
        assert_eq!(escape_controls("tab\there é 🚀"), "tab\there é 🚀");
    }

    #[test]
    fn strip_removes_sequences_with_their_payload() {
        assert_eq!(strip_controls(OSC52), "ab");
        assert_eq!(strip_controls("a\x1b]0;title\x1b\\b"), "ab");
        assert_eq!(
            strip_controls("Build \x1b[2J\x1b[31mred\x1b[0m"),
            "Build red"
        );
        assert_eq!(strip_controls("x\u{9b}31my\x08z\x1b7w"), "xyzw");
        assert_eq!(
            strip_controls("unterminated \x1b]52;c;AAAA"),
            "unterminated "
        );
        assert_eq!(strip_controls("tab\there é"), "tab\there é");
    }

    proptest::proptest! {
        #[test]
        fn no_control_character_survives(text in "(\\PC|\\x1b|\\x07|\\u{9b}|\\u{9c}|\\u{9d}|\\[|\\]|;|\\\\){0,40}") {
            for out in [escape_controls(&text), strip_controls(&text)] {
                proptest::prop_assert!(!out.chars().any(is_control), "{:?} -> {:?}", text, out);
            }
        }
    }
}

/// `1 file`, `2 files`: a count and its noun, plural unless the count is one.
pub fn count(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

#[cfg(test)]
mod count_tests {
    #[test]
    fn one_is_singular() {
        assert_eq!(super::count(0, "file"), "0 files");
        assert_eq!(super::count(1, "file"), "1 file");
        assert_eq!(super::count(2, "line"), "2 lines");
    }
}

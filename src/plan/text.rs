//! Small text shapes shared by what plan writes and prints. Pure.

/// Whitespace runs become one space, ends trimmed: a plan.md value cannot hold a
/// newline, and re-wrapping a line is no change.
pub fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The first `max` characters, and `…` when there were more.
pub fn cut(text: &str, max: usize) -> String {
    match text.char_indices().nth(max) {
        Some((end, _)) => format!("{}…", &text[..end]),
        None => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_and_cut() {
        assert_eq!(one_line("  a\n b\t\tc "), "a b c");
        assert_eq!(cut("héllo", 3), "hél…");
        assert_eq!(cut("héllo", 5), "héllo");
    }
}

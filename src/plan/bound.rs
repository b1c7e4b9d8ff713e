//! How long what plan injects may get: every field (ids, titles, subtasks,
//! `done_when` lines, log lines, claim holders) cut to a fixed length, and every
//! block to a fixed size, so no plan (a 10 MB id) grows the host's context with it.
//! Pure.

use super::text::strip_controls;

/// An id as a block names it: enough for any id a person types or `plan add`
/// derives from a title (ids are kebab-case titles, cut at 40).
pub const MAX_ID: usize = 64;
/// The injection, the continuation and the reminder, in bytes, whatever the plan
/// and the templates in `.plan/prompts/`.
pub const MAX_BLOCK: usize = 4096;
/// The compaction skeleton, in bytes: it keeps more than the injection (finished
/// goals, every active goal's subtasks), so it may take twice as much.
pub const MAX_SKELETON: usize = 8192;

/// Plan text as the model gets it: terminal control sequences stripped (a title
/// could carry an OSC 52 clipboard write), then cut to `max` characters, the last
/// of them `…` when anything was cut.
pub fn field(text: &str, max: usize) -> String {
    let text = &*strip_controls(text);
    if text.chars().count() <= max {
        return text.to_string();
    }
    let head: String = text.chars().take(max.saturating_sub(1)).collect();
    format!("{head}…")
}

/// An id, cut to [`MAX_ID`].
pub fn id(id: &str) -> String {
    field(id, MAX_ID)
}

/// `text` if it is at most `max` bytes; else as much of it as fits, up to the end
/// of a line where one ends in what fits, and a last line saying it was cut.
pub fn block(text: String, max: usize) -> String {
    if text.len() <= max {
        return text;
    }
    let marker = format!("\n[cut at {} KB; `plan show` has the rest]", max / 1024);
    let mut end = max.saturating_sub(marker.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    let head = &text[..end];
    let head = match head.rfind('\n') {
        Some(i) if i > 0 => &head[..i],
        _ => head,
    };
    format!("{head}{marker}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_is_cut_to_its_length_with_an_ellipsis() {
        assert_eq!(field("abc", 3), "abc");
        assert_eq!(field("abcd", 3), "ab…");
        assert_eq!(id(&"é".repeat(100)).chars().count(), MAX_ID);
    }

    #[test]
    fn a_block_is_cut_at_a_line_end_and_says_so() {
        let text = format!("first line\n{}\n{}", "x".repeat(60), "y".repeat(60));
        assert_eq!(block(text.clone(), 200), text);
        let out = block(text, 100);
        assert_eq!(out, "first line\n[cut at 0 KB; `plan show` has the rest]");
        let out = block("é".repeat(5000), MAX_BLOCK);
        assert!(out.len() <= MAX_BLOCK, "{}", out.len());
        assert!(out.ends_with("[cut at 4 KB; `plan show` has the rest]"));
    }
}

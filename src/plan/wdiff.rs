//! Word-level diffs, as `git diff --word-diff=plain` shows them: `[-old-]{+new+}`,
//! coloured when asked. Pure.

use similar::{ChangeTag, TextDiff};

use super::render::Style;

/// `old` and `new` interleaved, removed words in `[-…-]`, added words in `{+…+}`.
pub fn word_diff(old: &str, new: &str, style: Style) -> String {
    let diff = TextDiff::from_words(old, new);
    let mut out = String::with_capacity(old.len() + new.len());
    // Runs of one kind become one marker: `{+ somewhere+}`, not `{+ +}{+somewhere+}`.
    let mut run: Option<(ChangeTag, String)> = None;
    let flush = |out: &mut String, run: Option<(ChangeTag, String)>| match run {
        Some((ChangeTag::Delete, text)) => out.push_str(&style.paint("31", &format!("[-{text}-]"))),
        Some((ChangeTag::Insert, text)) => {
            out.push_str(&style.paint("32", &format!("{{+{text}+}}")))
        }
        Some((ChangeTag::Equal, text)) => out.push_str(&text),
        None => {}
    };
    for change in diff.iter_all_changes() {
        match &mut run {
            Some((tag, text)) if *tag == change.tag() => text.push_str(change.value()),
            _ => {
                flush(&mut out, run.take());
                run = Some((change.tag(), change.value().to_string()));
            }
        }
    }
    flush(&mut out, run);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn marks_changed_words_only() {
        let out = word_diff(
            "p95 < 50ms on bench\n",
            "p95 < 80ms on bench\n",
            Style::default(),
        );
        assert_eq!(out, "p95 < [-50ms-]{+80ms+} on bench\n");
        assert_eq!(word_diff("same", "same", Style::default()), "same");
        assert_eq!(word_diff("a b", "a b c d", Style::default()), "a b{+ c d+}");
    }
}

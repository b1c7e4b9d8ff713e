//! Word-level diffs, as `git diff --word-diff=plain` shows them: `[-old-]{+new+}`,
//! coloured when asked. Pure.

use similar::{Algorithm, ChangeTag, DiffTag, TextDiff, capture_diff_slices};

use super::render::Style;

/// `old` and `new` interleaved, removed words in `[-…-]`, added words in `{+…+}`.
/// Neighbouring changes are one hunk, blanks between them included, as git shows
/// them: `[-2 minutes-]{+90 seconds+}`, not `[-2-]{+90+} [-minutes-]{+seconds+}`.
pub fn word_diff(old: &str, new: &str, style: Style) -> String {
    let diff = TextDiff::from_words(old, new);
    let changes: Vec<(ChangeTag, &str)> = diff
        .iter_all_changes()
        .map(|c| (c.tag(), c.value()))
        .collect();
    let changed = |i: usize| changes.get(i).is_some_and(|(t, _)| *t != ChangeTag::Equal);
    let has_text = |s: &str| !s.trim().is_empty();
    let mut out = String::with_capacity(old.len() + new.len());
    let mut i = 0;
    while i < changes.len() {
        if changes[i].0 == ChangeTag::Equal {
            out.push_str(changes[i].1);
            i += 1;
            continue;
        }
        let (mut del, mut ins) = (String::new(), String::new());
        while let Some(&(tag, value)) = changes.get(i) {
            match tag {
                ChangeTag::Delete => del.push_str(value),
                ChangeTag::Insert => ins.push_str(value),
                ChangeTag::Equal if !has_text(value) && changed(i + 1) => {
                    del.push_str(value);
                    ins.push_str(value);
                }
                ChangeTag::Equal => break,
            }
            i += 1;
        }
        if has_text(&del) {
            out.push_str(&style.paint("31", &format!("[-{del}-]")));
        }
        if has_text(&ins) {
            out.push_str(&style.paint("32", &format!("{{+{ins}+}}")));
        } else if !has_text(&del) {
            // Only blanks changed: show the new ones, unmarked.
            out.push_str(&ins);
        }
    }
    out
}

/// Like [`word_diff`], but line by line first: unchanged lines stay as they are, a
/// changed line is word-diffed against the line it replaced, and a line only one side
/// has is marked whole. Markers then never straddle a line break, which keeps lists
/// (failure modes, a contract) readable. Two single lines are simply word-diffed.
pub fn line_word_diff(old: &str, new: &str, style: Style) -> String {
    if !old.contains('\n') && !new.contains('\n') {
        return word_diff(old, new, style);
    }
    let old: Vec<&str> = old.lines().collect();
    let new: Vec<&str> = new.lines().collect();
    align(&old, &new)
        .into_iter()
        .map(|pair| match pair {
            (Some(i), Some(j)) if old[i] == new[j] => new[j].to_string(),
            (Some(i), Some(j)) => word_diff(old[i], new[j], style),
            (Some(i), None) => style.paint("31", &format!("[-{}-]", old[i])),
            (None, Some(j)) => style.paint("32", &format!("{{+{}+}}", new[j])),
            (None, None) => String::new(),
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// How alike two lines must be, word by word, to count as one line edited rather
/// than one removed and another added.
const SAME_LINE: f32 = 0.5;

/// Lines of `old` and `new` in order, paired: `(Some(i), Some(j))` for a line kept
/// or edited, `(Some(i), None)` for a removed one, `(None, Some(j))` for an added
/// one. Unchanged lines anchor the pairing; between them a line is paired with the
/// most alike line of the other side, so removing one line while editing its
/// neighbour reads as just that.
pub fn align<T: AsRef<str>>(old: &[T], new: &[T]) -> Vec<(Option<usize>, Option<usize>)> {
    let old_text: Vec<&str> = old.iter().map(AsRef::as_ref).collect();
    let new_text: Vec<&str> = new.iter().map(AsRef::as_ref).collect();
    let mut out = Vec::with_capacity(old.len().max(new.len()));
    for op in capture_diff_slices(Algorithm::Myers, &old_text, &new_text) {
        let (tag, o, n) = op.as_tag_tuple();
        match tag {
            DiffTag::Equal => out.extend(o.zip(n).map(|(i, j)| (Some(i), Some(j)))),
            DiffTag::Delete => out.extend(o.map(|i| (Some(i), None))),
            DiffTag::Insert => out.extend(n.map(|j| (None, Some(j)))),
            DiffTag::Replace => {
                let block = pair_block(&old_text[o.clone()], &new_text[n.clone()]);
                out.extend(
                    block
                        .into_iter()
                        .map(|(i, j)| (i.map(|i| o.start + i), j.map(|j| n.start + j))),
                );
            }
        }
    }
    out
}

/// The order-keeping pairing of a replaced block that pairs the most alike lines
/// (a small dynamic programme: blocks are a few lines).
fn pair_block(old: &[&str], new: &[&str]) -> Vec<(Option<usize>, Option<usize>)> {
    let (a, b) = (old.len(), new.len());
    let sim: Vec<Vec<f32>> = old
        .iter()
        .map(|o| {
            new.iter()
                .map(|n| TextDiff::from_words(*o, *n).ratio())
                .collect()
        })
        .collect();
    // best[i][j]: the best total similarity pairing old[i..] with new[j..].
    let mut best = vec![vec![0f32; b + 1]; a + 1];
    for i in (0..a).rev() {
        for j in (0..b).rev() {
            let mut score = best[i + 1][j].max(best[i][j + 1]);
            if sim[i][j] >= SAME_LINE {
                score = score.max(best[i + 1][j + 1] + sim[i][j]);
            }
            best[i][j] = score;
        }
    }
    let mut out = Vec::with_capacity(a.max(b));
    let (mut i, mut j) = (0, 0);
    while i < a || j < b {
        if i < a && j < b && sim[i][j] >= SAME_LINE && best[i][j] == best[i + 1][j + 1] + sim[i][j]
        {
            out.push((Some(i), Some(j)));
            i += 1;
            j += 1;
        } else if i < a && (j == b || best[i][j] == best[i + 1][j]) {
            out.push((Some(i), None));
            i += 1;
        } else {
            out.push((None, Some(j)));
            j += 1;
        }
    }
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
        assert_eq!(
            word_diff("under 2 minutes!", "under 90 seconds!", Style::default()),
            "under [-2 minutes!-]{+90 seconds!+}"
        );
        assert_eq!(word_diff("a b c", "a c", Style::default()), "a [-b -]c");
    }

    #[test]
    fn line_word_diff_keeps_markers_inside_lines() {
        let plain = Style::default();
        assert_eq!(
            line_word_diff("- a\n- b c", "- a\n- b d\n- e", plain),
            "- a\n- b [-c-]{+d+}\n{+- e+}"
        );
        assert_eq!(line_word_diff("x\ny", "y", plain), "[-x-]\ny");
        assert_eq!(line_word_diff("", "new", plain), "{+new+}");
        assert_eq!(line_word_diff("same", "same", plain), "same");
        assert_eq!(
            line_word_diff("open", "active", plain),
            "[-open-]{+active+}"
        );
    }

    #[test]
    fn align_pairs_the_most_alike_lines() {
        let old = ["09:10 plan created", "09:40 started (contract 0123abcd)"];
        let new = ["09:40 started (contract deadbeef)"];
        assert_eq!(align(&old, &new), [(Some(0), None), (Some(1), Some(0))]);
        let unlike = align(&["alpha beta"], &["gamma delta"]);
        assert_eq!(unlike, [(Some(0), None), (None, Some(0))]);
        assert_eq!(align::<&str>(&[], &["x"]), [(None, Some(0))]);
    }
}

//! A line of plan.md as a reader sees it where markdown is rendered (a pull
//! request's file view, a forge's page): markup, entities, escapes and HTML gone,
//! blank-looking characters as spaces, look-alike letters folded. Pure.

use pulldown_cmark::{Event, Parser, Tag};

/// `line` as it shows rendered, or `None` where it shows as code (an indented
/// block) or nothing. A line is rendered alone: what it shows beside its
/// neighbours differs only in blocks that span lines, which plan's scan reads
/// itself (fences, comments).
pub fn rendered(line: &str) -> Option<String> {
    let indent = line.len() - line.trim_start_matches(' ').len();
    if indent > 3 || line[indent..].starts_with('\t') {
        return None;
    }
    let mut out = String::new();
    inline(line, &mut out, true);
    Some(super::confusable::reviewed(&without_marks(&out)))
}

/// The text `markdown` renders to, added to `out`. Raw HTML shows its text, not its
/// tags or comments: read once more as markdown, so its entities decode too.
fn inline(markdown: &str, out: &mut String, html_again: bool) {
    for event in Parser::new(markdown) {
        match event {
            Event::Text(t) | Event::Code(t) | Event::InlineMath(t) | Event::DisplayMath(t) => {
                out.push_str(&t)
            }
            Event::SoftBreak | Event::HardBreak => out.push(' '),
            Event::Html(html) | Event::InlineHtml(html) if html_again => {
                inline(&without_tags(&html), out, false)
            }
            Event::Start(Tag::CodeBlock(_)) => return,
            _ => {}
        }
    }
}

/// HTML without its comments and tags: what a browser shows of it, bar entities.
fn without_tags(html: &str) -> String {
    let mut out = String::with_capacity(html.len());
    let mut rest = html;
    while let Some(at) = rest.find('<') {
        out.push_str(&rest[..at]);
        let tail = &rest[at..];
        let end = if tail.starts_with("<!--") {
            tail.find("-->").map(|e| e + 3)
        } else {
            tail.find('>').map(|e| e + 1)
        };
        match end {
            Some(end) => rest = &tail[end..],
            None => {
                rest = "";
            }
        }
    }
    out.push_str(rest);
    out
}

/// Without combining marks (`s\u{301}`, `a\u{323}`): a letter under an accent
/// still reads as the letter.
fn without_marks(text: &str) -> std::borrow::Cow<'_, str> {
    use unicode_general_category::{GeneralCategory, get_general_category};
    let mark =
        |c: char| !c.is_ascii() && get_general_category(c) == GeneralCategory::NonspacingMark;
    if text.chars().any(mark) {
        text.chars()
            .filter(|&c| !mark(c))
            .collect::<String>()
            .into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_reads_as_it_renders() {
        for (line, want) in [
            ("**status**: done", Some("status: done")),
            ("`status`: done", Some("status: done")),
            ("- status: done", Some("status: done")),
            ("> status: done", Some("status: done")),
            ("### status: done", Some("status: done")),
            ("st&#97;tus&colon; done", Some("status: done")),
            ("status\\: done", Some("status: done")),
            ("status<!-- -->: done", Some("status: done")),
            ("<span>status</span>: done", Some("status: done")),
            ("<!-- x -->status: done", Some("status: done")),
            ("<div>st&#97;tus: done</div>", Some("status: done")),
            ("[status](x): done", Some("status: done")),
            ("sta\u{323}tus\u{301}: done", Some("status: done")),
            (
                "\u{a0}\u{a0}\u{a0}\u{a0}status: done",
                Some("    status: done"),
            ),
            ("    status: done", None),
            ("\tstatus: done", None),
            ("<a title='x'>", Some("")),
            ("", Some("")),
        ] {
            assert_eq!(rendered(line).as_deref(), want, "{line:?}");
        }
    }
}

//! plan.md text as a reader sees it where markdown is rendered (a pull request's
//! file view, a forge's page): markup, entities, escapes and HTML gone, code left
//! out, blank-looking characters as spaces, look-alike letters folded. Pure.

use std::collections::HashSet;

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};
use unicase::UniCase;

/// What shows of one source line, or a run of inline HTML, on a rendered page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The byte offset in the markdown where it starts.
    pub at: usize,
    pub text: String,
    /// All of it inline code: quoted, as an example is (`` `status: done` ``).
    pub code: bool,
    /// Pieces of one block with nothing between them but a soft line break, which
    /// renders as a space: they read as one line.
    pub block: usize,
}

/// The labels of the footnotes `page` refers to, as a forge matches them: case
/// and runs of spaces aside. A forge shows a footnote's definition only where
/// something on the page refers to it, from any part of it.
pub fn referred(page: &str) -> HashSet<Label> {
    // Read only where a footnote could be: this runs as hooks parse plan.md.
    if !page.contains("[^") {
        return HashSet::new();
    }
    Parser::new_ext(page, Options::ENABLE_FOOTNOTES)
        .filter_map(|event| match event {
            Event::FootnoteReference(l) => Some(label(&l)),
            _ => None,
        })
        .collect()
}

/// A footnote's label as labels are matched: runs of spaces as one, and case
/// folded in full, as pulldown-cmark folds it (`ß` is `SS`).
pub type Label = UniCase<String>;

fn label(l: &str) -> Label {
    UniCase::new(l.split_whitespace().collect::<Vec<_>>().join(" "))
}

/// The pieces `markdown`, a part of a page whose footnote references are
/// `referred` ([`referred`]), renders to, in order. Rendered as a whole, as a
/// forge renders it: a paragraph's lines, a list item's continuation, an HTML
/// block's text and a fence that is no fence read as they show.
pub fn pieces(markdown: &str, referred: &HashSet<Label>) -> Vec<Piece> {
    // A link whose definition is elsewhere (or nowhere) still shows its text.
    let mut any_link =
        |_: pulldown_cmark::BrokenLink<'_>| Some((CowStr::from(""), CowStr::from("")));
    // A task list's box shows as a box, not as `[x]`; a footnote's mark as a
    // raised number.
    let parser = Parser::new_with_broken_link_callback(
        markdown,
        Options::ENABLE_TASKLISTS | Options::ENABLE_FOOTNOTES,
        Some(&mut any_link),
    );
    let mut out = Pieces::default();
    let mut in_code = false;
    let mut unreferred = false;
    // An HTML block comes a line at a time (less a quote's or a list's margin),
    // and a tag may span its lines: each line's offset in the joined text, and in
    // the markdown.
    let mut html = Html::default();
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Start(Tag::FootnoteDefinition(l)) if !referred.contains(&label(&l)) => {
                unreferred = true;
            }
            Event::End(TagEnd::FootnoteDefinition) if unreferred => unreferred = false,
            _ if unreferred => {}
            Event::Html(h) => {
                html.lines.push((html.text.len(), range.start));
                html.text.push_str(&h);
            }
            Event::End(TagEnd::HtmlBlock) => {
                html_text(&html, &mut out);
                html = Html::default();
                out.new_block();
            }
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) if !in_code => out.push(range.start, &t, false),
            Event::Code(t) if !in_code => out.push(range.start, &t, true),
            Event::SoftBreak => out.flush(),
            Event::InlineHtml(tag) if !is_inline(&tag) => out.new_block(),
            Event::Start(
                Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Superscript
                | Tag::Subscript
                | Tag::Link { .. }
                | Tag::Image { .. },
            )
            | Event::End(
                TagEnd::Emphasis
                | TagEnd::Strong
                | TagEnd::Strikethrough
                | TagEnd::Superscript
                | TagEnd::Subscript
                | TagEnd::Link
                | TagEnd::Image,
            ) => {}
            Event::Start(_) | Event::End(_) | Event::HardBreak | Event::Rule => out.new_block(),
            _ => {}
        }
    }
    out.new_block();
    out.done
}

#[derive(Default)]
struct Html {
    text: String,
    /// Where each line starts in `text`, and in the markdown.
    lines: Vec<(usize, usize)>,
}

impl Html {
    /// The markdown offset of `at` in the joined text.
    fn source(&self, at: usize) -> usize {
        let k = self.lines.partition_point(|&(joined, _)| joined <= at);
        match k.checked_sub(1).map(|k| self.lines[k]) {
            Some((joined, source)) => source + (at - joined),
            None => 0,
        }
    }
}

#[derive(Default)]
struct Pieces {
    done: Vec<Piece>,
    open: Option<Piece>,
    block: usize,
}

impl Pieces {
    fn push(&mut self, at: usize, text: &str, code: bool) {
        let block = self.block;
        let piece = self.open.get_or_insert_with(|| Piece {
            at,
            text: String::new(),
            code: true,
            block,
        });
        piece.text.push_str(text);
        piece.code &= code;
    }

    fn flush(&mut self) {
        if let Some(mut piece) = self.open.take() {
            piece.text = read(&piece.text);
            self.done.push(piece);
        }
    }

    fn new_block(&mut self) {
        self.flush();
        self.block += 1;
    }
}

/// A block of raw HTML as a browser shows it: comments and tags gone (an inline
/// tag joins its neighbours, any other breaks the line), entities decoded.
fn html_text(html: &Html, out: &mut Pieces) {
    let mut rest = html.text.as_str();
    while !rest.is_empty() {
        let text_end = rest.find('<').unwrap_or(rest.len());
        let mut from = html.text.len() - rest.len();
        for (k, line) in rest[..text_end].split('\n').enumerate() {
            if k > 0 {
                out.flush();
            }
            if !line.trim().is_empty() {
                out.push(html.source(from), &decoded(line), false);
            }
            from += line.len() + 1;
        }
        rest = &rest[text_end..];
        if rest.is_empty() {
            break;
        }
        let end = tag_end(rest);
        if !is_inline(&rest[..end]) {
            out.new_block();
        }
        rest = &rest[end..];
    }
}

/// The length of the tag or comment `html` opens with: to `-->`, or to the `>`
/// outside quoted attribute values (`<b title="x>y">`); all of it when unclosed.
fn tag_end(html: &str) -> usize {
    if html.starts_with("<!--") {
        // `<!-->` and `<!--->` are whole (empty) comments.
        return html[2..].find("-->").map_or(html.len(), |e| e + 5);
    }
    let mut quote = None;
    for (i, c) in html.char_indices().skip(1) {
        match (quote, c) {
            (None, '"' | '\'') => quote = Some(c),
            (Some(q), c) if c == q => quote = None,
            (None, '>') => return i + 1,
            _ => {}
        }
    }
    html.len()
}

/// Whether a tag renders within its line (`<b>`, `</span>`, a comment): any other
/// (`<br>`, `<p>`, `<div>`, `<summary>`) ends the line its text is on.
fn is_inline(tag: &str) -> bool {
    const INLINE: &[&str] = &[
        "a", "abbr", "b", "bdi", "bdo", "cite", "code", "data", "del", "dfn", "em", "font", "i",
        "ins", "kbd", "mark", "q", "s", "samp", "small", "span", "strike", "strong", "sub", "sup",
        "time", "tt", "u", "var", "wbr",
    ];
    if tag.starts_with("<!") || tag.starts_with("<?") {
        return true;
    }
    let name: String = tag
        .trim_start_matches('<')
        .trim_start_matches('/')
        .chars()
        .take_while(char::is_ascii_alphanumeric)
        .collect::<String>()
        .to_ascii_lowercase();
    INLINE.contains(&name.as_str())
}

/// Text of raw HTML with its entities decoded, as markdown decodes them.
fn decoded(text: &str) -> String {
    if !text.contains('&') {
        return text.to_string();
    }
    let mut out = String::new();
    for event in Parser::new(text) {
        if let Event::Text(t) = event {
            out.push_str(&t);
        }
    }
    out
}

/// Rendered text as a reviewer reads it: marks over letters dropped, invisible
/// characters gone, blank ones spaces, look-alikes folded.
fn read(text: &str) -> String {
    use unicode_general_category::{GeneralCategory, get_general_category};
    let plain: String = text
        .chars()
        .filter(|&c| c.is_ascii() || get_general_category(c) != GeneralCategory::NonspacingMark)
        .map(|c| if c == '\u{17f}' { 's' } else { c })
        .collect();
    super::confusable::reviewed(&plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown(markdown: &str) -> Vec<String> {
        pieces(markdown, &referred(markdown))
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn markdown_reads_as_it_renders() {
        for (markdown, want) in [
            ("**status**: done", &["status: done"][..]),
            ("`status`: done", &["status: done"]),
            ("- status: done", &["status: done"]),
            ("> status: done", &["status: done"]),
            ("### status: done", &["status: done"]),
            ("st&#97;tus&colon; done", &["status: done"]),
            ("status\\: done", &["status: done"]),
            ("status<!-- -->: done", &["status: done"]),
            ("<span>status</span>: done", &["status: done"]),
            ("<b title=\"x>y\">status</b>: done", &["status: done"]),
            ("<!-- x -->status: done", &["status: done"]),
            ("<div>st&#97;tus: done</div>x", &["status: done", "x"]),
            ("**status**: done<br>x", &["status: done", "x"]),
            ("[status](x): done", &["status: done"]),
            ("[st]atus: done", &["status: done"]),
            ("sta\u{323}tus\u{301}: done", &["status: done"]),
            ("\u{17f}tatus: done", &["status: done"]),
            (
                "\u{a0}\u{a0}\u{a0}\u{a0}status: done",
                &["    status: done"],
            ),
            ("    status: done", &[]),
            ("```\nstatus: done\n```", &[]),
            ("<!-->\nstatus: done\n<!-- -->", &["status: done"]),
            (
                "<div title=\"\n```\n\"></div>\n\nstatus: done",
                &["status: done"],
            ),
        ] {
            assert_eq!(shown(markdown), want, "{markdown:?}");
        }
        // A soft break reads as a space: one block, two pieces.
        let p = pieces("**status**:\ndone", &referred("**status**:\ndone"));
        assert_eq!((p.len(), p[0].block == p[1].block), (2, true));
        assert_eq!((p[0].at, p[1].at), (2, 12));
        // A continuation of a list item indented four is no code; a task's box
        // shows as a box.
        assert_eq!(
            shown("- [x] write\n\n    status: done"),
            ["write", "status: done"]
        );
        assert_eq!(shown("- [x] status: done"), ["status: done"]);
        // Inline code alone is quoted; the place of a line in an HTML block in a
        // quote is its own.
        let p = pieces(
            "`status: done`\n\n`status`: done",
            &referred("`status: done`\n\n`status`: done"),
        );
        assert_eq!((p[0].code, p[1].code), (true, false));
        let quoted = "> x\n> <div>\n> y\n> st&#97;tus: done\n> </div>";
        let p = pieces(quoted, &referred(quoted));
        let last = p.last().unwrap();
        assert_eq!(
            (last.text.as_str(), last.at),
            ("status: done", quoted.find("st&").unwrap())
        );
    }
}

//! plan.md text as a reader sees it where markdown is rendered (a pull request's
//! file view, a forge's page): markup, entities, escapes and HTML gone, code left
//! out, blank-looking characters as spaces, look-alike letters folded. Pure.

use pulldown_cmark::{CowStr, Event, Options, Parser, Tag, TagEnd};

/// What shows of one source line, or a run of inline HTML, on a rendered page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The byte offset in the markdown where it starts.
    pub at: usize,
    pub text: String,
    /// Pieces of one block with nothing between them but a soft line break, which
    /// renders as a space: they read as one line.
    pub block: usize,
}

/// The pieces `markdown` renders to, in order. Rendered as a whole, as a forge
/// renders it: a paragraph's lines, a list item's continuation, an HTML block's
/// text and a fence that is no fence read as they show.
pub fn pieces(markdown: &str) -> Vec<Piece> {
    // A link whose definition is elsewhere (or nowhere) still shows its text.
    let mut any_link =
        |_: pulldown_cmark::BrokenLink<'_>| Some((CowStr::from(""), CowStr::from("")));
    let parser =
        Parser::new_with_broken_link_callback(markdown, Options::empty(), Some(&mut any_link));
    let mut out = Pieces::default();
    let mut in_code = false;
    // An HTML block comes a line at a time; a tag may span its lines.
    let mut html = (0, String::new());
    for (event, range) in parser.into_offset_iter() {
        match event {
            Event::Html(h) => {
                if html.1.is_empty() {
                    html.0 = range.start;
                }
                html.1.push_str(&h);
            }
            Event::End(TagEnd::HtmlBlock) => {
                html_text(&html.1, html.0, &mut out);
                html.1.clear();
                out.new_block();
            }
            Event::Start(Tag::CodeBlock(_)) => in_code = true,
            Event::End(TagEnd::CodeBlock) => in_code = false,
            Event::Text(t) | Event::Code(t) if !in_code => out.push(range.start, &t),
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
struct Pieces {
    done: Vec<Piece>,
    open: Option<Piece>,
    block: usize,
}

impl Pieces {
    fn push(&mut self, at: usize, text: &str) {
        let block = self.block;
        self.open
            .get_or_insert_with(|| Piece {
                at,
                text: String::new(),
                block,
            })
            .text
            .push_str(text);
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
fn html_text(html: &str, at: usize, out: &mut Pieces) {
    let mut rest = html;
    while !rest.is_empty() {
        let text_end = rest.find('<').unwrap_or(rest.len());
        let mut from = at + (html.len() - rest.len());
        for (k, line) in rest[..text_end].split('\n').enumerate() {
            if k > 0 {
                out.flush();
            }
            if !line.trim().is_empty() {
                out.push(from, &decoded(line));
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
        pieces(markdown).into_iter().map(|p| p.text).collect()
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
        let p = pieces("**status**:\ndone");
        assert_eq!((p.len(), p[0].block == p[1].block), (2, true));
        assert_eq!((p[0].at, p[1].at), (2, 12));
        // A continuation of a list item indented four is no code.
        assert_eq!(
            shown("- [x] write\n\n    status: done"),
            ["x write", "status: done"]
        );
    }
}

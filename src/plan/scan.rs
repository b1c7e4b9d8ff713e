//! Bytes → lines: number, byte range, line ending and kind, aware of code fences and
//! HTML comment blocks. Pure: it never allocates text, only ranges into the source.

use std::ops::Range;

/// How a line ends. Kept per line so a patch can give every untouched line its own
/// ending back and new lines the file's own style.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Eol {
    None,
    Lf,
    CrLf,
}

impl Eol {
    pub fn as_str(self) -> &'static str {
        match self {
            Eol::None => "",
            Eol::Lf => "\n",
            Eol::CrLf => "\r\n",
        }
    }
}

/// The keys of a goal's contract lines (`status: active`, …).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Key {
    Status,
    DoneWhen,
    Verify,
    DependsOn,
    FailureModes,
    /// The goal's own loop budget (`budget: N`): not part of its contract.
    Budget,
}

impl Key {
    pub fn as_str(self) -> &'static str {
        match self {
            Key::Status => "status",
            Key::DoneWhen => "done_when",
            Key::Verify => "verify",
            Key::DependsOn => "depends_on",
            Key::FailureModes => "failure_modes",
            Key::Budget => "budget",
        }
    }

    fn parse(word: &str) -> Option<Key> {
        Some(match word {
            "status" => Key::Status,
            "done_when" => Key::DoneWhen,
            "verify" => Key::Verify,
            "depends_on" => Key::DependsOn,
            "failure_modes" => Key::FailureModes,
            "budget" => Key::Budget,
            _ => return None,
        })
    }
}

/// What a line is, judged on the line alone plus the fence/comment state. Value
/// ranges are absolute byte offsets into the source, already trimmed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Kind {
    Blank,
    /// `# Plan: <objective>`
    Title {
        value: Range<usize>,
    },
    /// `## Goal: <title>`
    GoalHeading {
        value: Range<usize>,
    },
    /// `## Log`
    LogHeading,
    /// `## Archive`
    ArchiveHeading,
    /// Any other ATX heading.
    Heading {
        level: u8,
    },
    /// `<!-- id: cache-layer -->` on a line of its own.
    IdComment {
        value: Range<usize>,
    },
    /// `status: active`, `done_when: …`, …
    Field {
        key: Key,
        value: Range<usize>,
    },
    /// `- [ ] text` / `- [x] text`
    Task {
        done: bool,
        value: Range<usize>,
    },
    /// `- text`
    Bullet {
        value: Range<usize>,
    },
    /// An opening or closing code fence.
    Fence,
    /// A line inside a fenced code block.
    Code,
    /// A line of a multi-line HTML comment.
    Comment,
    Other,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number.
    pub no: usize,
    /// Byte range of the text, without the line ending.
    pub start: usize,
    pub end: usize,
    pub eol: Eol,
    pub kind: Kind,
}

impl Line {
    pub fn text<'a>(&self, src: &'a str) -> &'a str {
        &src[self.start..self.end]
    }

    /// Byte offset just past the line ending.
    pub fn next_start(&self) -> usize {
        self.end + self.eol.as_str().len()
    }
}

pub const BOM: &str = "\u{feff}";

/// Splits `src` into lines. A BOM is skipped (line 1 starts after it); an empty
/// source has no lines; a final line without a newline has `Eol::None`.
pub fn scan(src: &str) -> Vec<Line> {
    // Counted first (memchr is cheap beside classifying): a guess grown by doubling
    // held up to twice the lines of a long plan, a vector about twice its bytes.
    let mut lines = Vec::with_capacity(memchr::memchr_iter(b'\n', src.as_bytes()).count() + 1);
    lines.extend(Lines::new(src));
    lines
}

/// [`scan`] one line at a time, for a reader that keeps few of them.
pub struct Lines<'a> {
    src: &'a str,
    pos: usize,
    no: usize,
    state: State,
}

impl<'a> Lines<'a> {
    pub fn new(src: &'a str) -> Lines<'a> {
        Lines {
            src,
            pos: if src.starts_with(BOM) { BOM.len() } else { 0 },
            no: 0,
            state: State::Normal,
        }
    }

    /// Goes on scanning a source given in pieces of whole lines: `piece` is the text
    /// after the piece whose scan left `carry`.
    pub fn resume(piece: &'a str, carry: Carry) -> Lines<'a> {
        Lines {
            src: piece,
            pos: 0,
            no: carry.no,
            state: carry.state,
        }
    }

    /// Steps over the lines ahead that are blank or a list item (`- x`, `* [ ] x`)
    /// outside a fence or comment, for a reader that drops them: they change no
    /// state, so they need no classifying. `cr`: also stop at a line with a carriage
    /// return in its text (a format error the reader must see). `fields`: also steps
    /// over `done_when:`, `verify:` and `failure_modes:` lines, counting each key in
    /// that order, for a reader that drops them but must see one given twice.
    pub fn skip_items(&mut self, cr: bool, mut fields: Option<&mut [u8; 3]>) {
        if self.state != State::Normal {
            return;
        }
        let bytes = self.src.as_bytes();
        while self.pos < bytes.len() {
            let rest = &bytes[self.pos..];
            let nl = memchr::memchr(b'\n', rest);
            let mut text = &rest[..nl.unwrap_or(rest.len())];
            if nl.is_some() && text.last() == Some(&b'\r') {
                text = &text[..text.len() - 1];
            }
            let spaces = text.iter().take(4).take_while(|&&b| b == b' ').count();
            let item = spaces <= 3
                && matches!(text.get(spaces), Some(b'-' | b'*'))
                && matches!(text.get(spaces + 1), None | Some(b' ' | b'\t'));
            // As `classify` reads them: unindented, the key, then the colon.
            let field = match fields {
                Some(_) if text.starts_with(b"done_when:") => Some(0),
                Some(_) if text.starts_with(b"verify:") => Some(1),
                Some(_) if text.starts_with(b"failure_modes:") => Some(2),
                _ => None,
            };
            if !(text.is_empty() || item || field.is_some())
                || (cr && memchr::memchr(b'\r', text).is_some())
            {
                return;
            }
            if let (Some(i), Some(counts)) = (field, fields.as_deref_mut()) {
                counts[i] = counts[i].saturating_add(1);
            }
            self.pos += nl.map_or(rest.len(), |i| i + 1);
            self.no += 1;
        }
    }

    /// Steps over the next line when it is a log bullet as plan stamps it: `- `, a
    /// `YYYY-MM-DD HH:MM` stamp, one space, then a word starting with a visible
    /// ASCII character, the line ending in one too, with no carriage return in it,
    /// outside a fence or comment (`cr`: the source may hold a carriage return, so the
    /// line is looked through for one). Such a line changes no state, and
    /// [`Lines::next`] reads it as a [`Kind::Bullet`] whose log entry
    /// (`model::log_entry`) has that word first: `(the line with its newline, the
    /// word)`. Any other line is left for `next` (`None`). Most of a long log is
    /// such lines, and a reader that keeps few of them needs no more.
    pub fn stamped_bullet(&mut self, cr: bool) -> Option<(Range<usize>, Range<usize>)> {
        if self.state != State::Normal {
            return None;
        }
        let rest = self.src.as_bytes().get(self.pos..)?;
        let nl = memchr::memchr(b'\n', rest);
        let text = &rest[..nl.unwrap_or(rest.len())];
        let v = text.strip_prefix(b"- ")?;
        let stamped = v.len() >= 18
            && super::text::starts_with_stamp(v)
            && v[16] == b' '
            && v[17].is_ascii_graphic()
            && text.last().is_some_and(u8::is_ascii_graphic)
            && !(cr && memchr::memchr(b'\r', text).is_some());
        if !stamped {
            return None;
        }
        let from = self.pos + 2 + 17;
        let word = from..from + memchr::memchr(b' ', &v[17..]).unwrap_or(v.len() - 17);
        let line = self.pos..self.pos + text.len() + usize::from(nl.is_some());
        self.pos = line.end;
        self.no += 1;
        Some((line, word))
    }

    /// Where the next line starts.
    pub fn pos(&self) -> usize {
        self.pos
    }

    /// What the next piece's scan needs: the line count and the fence/comment state.
    pub fn carry(&self) -> Carry {
        Carry {
            no: self.no,
            state: self.state,
        }
    }
}

/// Where a scan stands between two pieces of one source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Carry {
    no: usize,
    state: State,
}

impl Carry {
    /// As four numbers, for a reader that keeps where it stood between runs
    /// (`lean`'s snapshot): the line count, then the fence/comment state.
    pub fn to_parts(self) -> [u64; 4] {
        let (kind, ch, len) = match self.state {
            State::Normal => (0, 0, 0),
            State::Fenced { ch, len } => (1, u64::from(ch), len as u64),
            State::Comment => (2, 0, 0),
        };
        [self.no as u64, kind, ch, len]
    }

    /// [`Carry::to_parts`] read back; `None` for numbers it never gives.
    pub fn from_parts([no, kind, ch, len]: [u64; 4]) -> Option<Carry> {
        let state = match kind {
            0 => State::Normal,
            1 => State::Fenced {
                ch: u8::try_from(ch).ok().filter(|c| matches!(c, b'`' | b'~'))?,
                len: usize::try_from(len).ok()?,
            },
            2 => State::Comment,
            _ => return None,
        };
        Some(Carry {
            no: usize::try_from(no).ok()?,
            state,
        })
    }
}

impl Iterator for Lines<'_> {
    type Item = Line;

    fn next(&mut self) -> Option<Line> {
        let (src, pos) = (self.src, self.pos);
        let bytes = src.as_bytes();
        if pos >= bytes.len() {
            return None;
        }
        let (end, next, eol) = split_at(bytes, pos);
        let kind = classify(src, pos, end, &mut self.state);
        self.no += 1;
        self.pos = next;
        Some(Line {
            no: self.no,
            start: pos,
            end,
            eol,
            kind,
        })
    }
}

/// The line starting at `pos` (before the end of `bytes`): where its text ends,
/// where the next line starts, and its ending (`\r\n`, `\n`, or none at the end).
/// How every reader of plan.md splits it into lines.
pub fn split_at(bytes: &[u8], pos: usize) -> (usize, usize, Eol) {
    match memchr::memchr(b'\n', &bytes[pos..]) {
        Some(i) => {
            let nl = pos + i;
            if nl > pos && bytes[nl - 1] == b'\r' {
                (nl - 1, nl + 1, Eol::CrLf)
            } else {
                (nl, nl + 1, Eol::Lf)
            }
        }
        None => (bytes.len(), bytes.len(), Eol::None),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Normal,
    Fenced { ch: u8, len: usize },
    Comment,
}

fn classify(src: &str, start: usize, end: usize, state: &mut State) -> Kind {
    let text = &src[start..end];
    match *state {
        State::Fenced { ch, len } => {
            if is_closing_fence(text, ch, len) {
                *state = State::Normal;
                return Kind::Fence;
            }
            return Kind::Code;
        }
        State::Comment => {
            if memchr::memmem::find(text.as_bytes(), b"-->").is_some() {
                *state = State::Normal;
            }
            return Kind::Comment;
        }
        State::Normal => {}
    }
    let Some(indent) = block_indent(text) else {
        return if text.trim().is_empty() {
            Kind::Blank
        } else {
            Kind::Other
        };
    };
    let body = &text[indent..];
    let at = start + indent;
    // Most lines are prose: decide on the first byte before trying each shape.
    match body.as_bytes().first() {
        None => return Kind::Blank,
        Some(b'`' | b'~' | b'<' | b'#' | b'-' | b'*') => {}
        Some(b'b' | b'd' | b'f' | b's' | b'v') if indent == 0 => {}
        Some(b) if b.is_ascii_graphic() => return Kind::Other,
        Some(_) if body.trim().is_empty() => return Kind::Blank,
        Some(_) => return Kind::Other,
    }
    if let Some((ch, len)) = opening_fence(body) {
        *state = State::Fenced { ch, len };
        return Kind::Fence;
    }
    if let Some(rest) = body.strip_prefix("<!--") {
        let Some(close) = comment_close(rest.as_bytes()) else {
            *state = State::Comment;
            return Kind::Comment;
        };
        let inner = &rest[..close];
        let lead = inner.len() - inner.trim_start().len();
        if inner[lead..].starts_with("id:") && rest[close + 3..].trim().is_empty() {
            let inner_start = at + 4;
            return Kind::IdComment {
                value: trimmed(src, inner_start + lead + 3, inner_start + close),
            };
        }
        return Kind::Other;
    }
    if body.starts_with('#') {
        return heading(src, at, end);
    }
    if let Some(kind) = item(src, at, end) {
        return kind;
    }
    if indent == 0
        && let Some(colon) = text.as_bytes().iter().take(14).position(|&b| b == b':')
        && let Some(key) = Key::parse(&text[..colon])
    {
        return Kind::Field {
            key,
            value: trimmed(src, start + colon + 1, end),
        };
    }
    Kind::Other
}

/// Where the first `-->` in `hay` starts. `str::find` sets up a two-way searcher
/// and memmem a finder for every call, which cost more than the search in an id
/// comment's few bytes: the first `>` after `--` is the first `-->`.
fn comment_close(hay: &[u8]) -> Option<usize> {
    let mut from = 0;
    while let Some(i) = memchr::memchr(b'>', &hay[from..]) {
        let at = from + i;
        if at >= 2 && &hay[at - 2..at] == b"--" {
            return Some(at - 2);
        }
        from = at + 1;
    }
    None
}

/// Up to three spaces of indentation start a block; four or a tab make it indented
/// code (CommonMark), which is never one of ours.
fn block_indent(text: &str) -> Option<usize> {
    let spaces = text.bytes().take_while(|&b| b == b' ').count();
    (spaces <= 3 && !text[spaces..].starts_with('\t')).then_some(spaces)
}

fn opening_fence(body: &str) -> Option<(u8, usize)> {
    let ch = *body.as_bytes().first()?;
    if ch != b'`' && ch != b'~' {
        return None;
    }
    let len = body.bytes().take_while(|&b| b == ch).count();
    if len < 3 {
        return None;
    }
    if ch == b'`' && body[len..].contains('`') {
        return None;
    }
    Some((ch, len))
}

fn is_closing_fence(text: &str, ch: u8, len: usize) -> bool {
    let spaces = text.bytes().take_while(|&b| b == b' ').count();
    if spaces > 3 {
        return false;
    }
    let body = &text[spaces..];
    let run = body.bytes().take_while(|&b| b == ch).count();
    run >= len && body[run..].trim_matches([' ', '\t']).is_empty()
}

fn heading(src: &str, at: usize, end: usize) -> Kind {
    let body = &src[at..end];
    let level = body.bytes().take_while(|&b| b == b'#').count();
    let after = &body[level..];
    if level > 6 || !(after.is_empty() || after.starts_with([' ', '\t'])) {
        return Kind::Other;
    }
    let content_start = at + level;
    let mut value = trimmed(src, content_start, end);
    // An ATX heading may close with a run of `#` preceded by a space.
    let content = &src[value.clone()];
    let without = content.trim_end_matches('#');
    if without.len() < content.len() && (without.is_empty() || without.ends_with([' ', '\t'])) {
        value = trimmed(src, value.start, value.start + without.len());
    }
    let content = &src[value.clone()];
    match level {
        1 => match content.strip_prefix("Plan:") {
            Some(rest) => {
                let s = value.start + 5;
                Kind::Title {
                    value: trimmed(src, s, s + rest.len()),
                }
            }
            None => Kind::Heading { level: 1 },
        },
        2 => {
            if let Some(rest) = content.strip_prefix("Goal:") {
                let s = value.start + 5;
                Kind::GoalHeading {
                    value: trimmed(src, s, s + rest.len()),
                }
            } else if content.eq_ignore_ascii_case("log") {
                Kind::LogHeading
            } else if content.eq_ignore_ascii_case("archive") {
                Kind::ArchiveHeading
            } else {
                Kind::Heading { level: 2 }
            }
        }
        _ => Kind::Heading { level: level as u8 },
    }
}

/// `- [ ] x`, `- [x] x`, `- x` (also with `*`).
fn item(src: &str, at: usize, end: usize) -> Option<Kind> {
    let body = &src[at..end];
    let marker = *body.as_bytes().first()?;
    if marker != b'-' && marker != b'*' {
        return None;
    }
    let rest = &body[1..];
    if !(rest.starts_with([' ', '\t']) || rest.is_empty()) {
        return None;
    }
    let content = at + 1 + (rest.len() - rest.trim_start().len());
    let inner = &src[content..end];
    for (box_text, done) in [("[ ]", false), ("[x]", true), ("[X]", true)] {
        if let Some(after) = inner.strip_prefix(box_text)
            && (after.is_empty() || after.starts_with([' ', '\t']))
        {
            return Some(Kind::Task {
                done,
                value: trimmed(src, content + 3, end),
            });
        }
    }
    Some(Kind::Bullet {
        value: trimmed(src, content, end),
    })
}

/// The sub-range of `start..end` without surrounding whitespace.
fn trimmed(src: &str, start: usize, end: usize) -> Range<usize> {
    let s = &src[start..end];
    // Nearly every value is a visible ASCII character after some spaces or tabs (a
    // heading's, a field's) and ends with one: no need to look for Unicode spaces.
    let lead = s.bytes().take_while(|&b| b == b' ' || b == b'\t').count();
    let (first, last) = (s.as_bytes().get(lead), s.as_bytes().last());
    if first.is_some_and(u8::is_ascii_graphic) && last.is_some_and(u8::is_ascii_graphic) {
        return start + lead..end;
    }
    let lead = s.len() - s.trim_start().len();
    if lead == s.len() {
        return start..start;
    }
    let trail = s.len() - s.trim_end().len();
    start + lead..end - trail
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(src: &str) -> Vec<Kind> {
        scan(src).into_iter().map(|l| l.kind).collect()
    }

    fn values(src: &str) -> Vec<String> {
        scan(src)
            .iter()
            .map(|l| match &l.kind {
                Kind::Title { value }
                | Kind::GoalHeading { value }
                | Kind::IdComment { value }
                | Kind::Field { value, .. }
                | Kind::Task { value, .. }
                | Kind::Bullet { value } => src[value.clone()].to_string(),
                other => format!("{other:?}"),
            })
            .collect()
    }

    #[test]
    fn empty_source_has_no_lines() {
        assert!(scan("").is_empty());
        assert!(scan(BOM).is_empty());
    }

    #[test]
    fn line_endings_are_kept_per_line() {
        let src = "a\r\nb\nc";
        let lines = scan(src);
        assert_eq!(
            lines.iter().map(|l| l.eol).collect::<Vec<_>>(),
            [Eol::CrLf, Eol::Lf, Eol::None]
        );
        assert_eq!(
            lines.iter().map(|l| l.text(src)).collect::<Vec<_>>(),
            ["a", "b", "c"]
        );
        assert_eq!(lines[2].next_start(), src.len());
    }

    #[test]
    fn bom_is_skipped_by_line_one() {
        let src = "\u{feff}# Plan: x\n";
        let lines = scan(src);
        assert_eq!(lines[0].start, 3);
        assert_eq!(values(src), ["x"]);
    }

    #[test]
    fn lone_carriage_return_is_text() {
        let src = "a\rb\n";
        assert_eq!(scan(src)[0].text(src), "a\rb");
    }

    #[test]
    fn headings_and_fields() {
        let src = "# Plan: Ship it\n## Goal: Cache layer ##\n<!-- id: cache -->\nstatus:\tactive\ndone_when: p95 < 50ms: really\n## Log\n## archive\n### Notes\n";
        assert_eq!(
            values(src),
            [
                "Ship it",
                "Cache layer",
                "cache",
                "active",
                "p95 < 50ms: really",
                "LogHeading",
                "ArchiveHeading",
                "Heading { level: 3 }"
            ]
        );
    }

    #[test]
    fn goal_heading_needs_a_space_after_hashes() {
        assert_eq!(kinds("##Goal: x\n"), [Kind::Other]);
        assert_eq!(kinds("####### x\n"), [Kind::Other]);
    }

    #[test]
    fn tasks_and_bullets() {
        let src = "- [ ] open one\n- [x] done\n* [X] star\n- plain\n-[ ] nope\n- [ ]\n";
        assert_eq!(
            values(src),
            ["open one", "done", "star", "plain", "Other", ""]
        );
        assert!(matches!(scan(src)[1].kind, Kind::Task { done: true, .. }));
    }

    #[test]
    fn goal_inside_backtick_or_tilde_fence_is_code() {
        let src = "```md\n## Goal: fake\n```\n~~~~\n## Goal: fake\n~~~\n~~~~\n## Goal: real\n";
        assert_eq!(
            kinds(src)[..8],
            [
                Kind::Fence,
                Kind::Code,
                Kind::Fence,
                Kind::Fence,
                Kind::Code,
                Kind::Code,
                Kind::Fence,
                Kind::GoalHeading { value: 61..65 }
            ]
        );
    }

    #[test]
    fn unclosed_fence_runs_to_the_end() {
        assert_eq!(kinds("```\n## Goal: x\n"), [Kind::Fence, Kind::Code]);
    }

    #[test]
    fn goal_inside_html_comment_block_is_a_comment() {
        let src = "<!--\n## Goal: hidden\n-->\n## Goal: seen\n<!-- note --> \n";
        let k = kinds(src);
        assert_eq!(k[..3], [Kind::Comment, Kind::Comment, Kind::Comment]);
        assert!(matches!(k[3], Kind::GoalHeading { .. }));
        assert_eq!(k[4], Kind::Other);
    }

    #[test]
    fn indented_code_is_not_ours() {
        assert_eq!(
            kinds("    ## Goal: x\n\t- [ ] y\n"),
            [Kind::Other, Kind::Other]
        );
        assert!(matches!(
            kinds("   ## Goal: x\n")[0],
            Kind::GoalHeading { .. }
        ));
    }

    #[test]
    fn whitespace_only_lines_are_blank() {
        assert_eq!(kinds("    \n\t\n \u{a0}\n\n"), vec![Kind::Blank; 4]);
    }

    #[test]
    fn unknown_keys_and_indented_fields_are_other() {
        assert_eq!(
            kinds("owner: me\n  status: active\n"),
            [Kind::Other, Kind::Other]
        );
    }

    #[test]
    fn unicode_values_keep_their_bytes() {
        let src = "## Goal: Café – naïve 🚀\n";
        assert_eq!(values(src), ["Café – naïve 🚀"]);
    }
}

/// Differential check against a CommonMark parser: which lines lie in a fenced code
/// block must agree, so a `## Goal:` in a fence is never a goal and a real one is
/// never hidden.
#[cfg(test)]
mod commonmark {
    use super::*;
    use proptest::prelude::*;
    use pulldown_cmark::{CodeBlockKind, Event, Parser, Tag, TagEnd};

    /// 1-based numbers of the lines pulldown-cmark puts in fenced code blocks,
    /// fence lines included.
    fn fenced_lines(src: &str, lines: &[Line]) -> Vec<usize> {
        let mut out = Vec::new();
        let mut start = None;
        for (event, range) in Parser::new(src).into_offset_iter() {
            match event {
                Event::Start(Tag::CodeBlock(CodeBlockKind::Fenced(_))) => start = Some(range),
                Event::End(TagEnd::CodeBlock) => {
                    if let Some(r) = start.take() {
                        for line in lines {
                            let inside = line.start < r.end.max(r.start + 1) && line.end >= r.start;
                            if inside && !out.contains(&line.no) {
                                out.push(line.no);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
        out
    }

    fn ours(lines: &[Line]) -> Vec<usize> {
        lines
            .iter()
            .filter(|l| matches!(l.kind, Kind::Fence | Kind::Code))
            .map(|l| l.no)
            .collect()
    }

    fn line() -> impl Strategy<Value = String> {
        prop_oneof![
            Just(String::new()),
            Just("```".to_string()),
            Just("```rust".to_string()),
            Just("````".to_string()),
            Just("~~~".to_string()),
            Just("~~~~ md".to_string()),
            Just("## Goal: x".to_string()),
            Just("status: active".to_string()),
            Just("- [ ] task".to_string()),
            Just("- item".to_string()),
            Just("text line".to_string()),
            Just("# Plan: y".to_string()),
            Just("``` not ` a fence".to_string()),
        ]
    }

    proptest! {
        #[test]
        fn fenced_regions_agree_with_commonmark(lines in prop::collection::vec(line(), 0..30)) {
            let src = lines.join("\n") + "\n";
            let scanned = scan(&src);
            prop_assert_eq!(ours(&scanned), fenced_lines(&src, &scanned), "{}", src);
        }
    }
}

/// Reading in pieces and stepping over list items must not change what any other
/// line scans as.
#[cfg(test)]
mod pieces {
    use super::*;
    use proptest::prelude::*;

    fn line() -> impl Strategy<Value = &'static str> {
        prop::sample::select(vec![
            "",
            "   ",
            "\t",
            "```",
            "~~~",
            "<!--",
            "-->",
            "<!-- id: x -->",
            "## Goal: x",
            "status: open",
            "- [ ] task",
            "  * [x] done",
            "- item",
            "-",
            "-not an item",
            "    - indented code",
            "- a\rb",
            "text",
            "done_when: it works",
            "verify:cargo test",
            "failure_modes:",
            " verify: indented",
            "verify",
            "status: active",
        ])
    }

    fn source() -> impl Strategy<Value = String> {
        (
            prop::collection::vec(line(), 0..30),
            prop_oneof![Just("\n"), Just("\r\n")],
            any::<bool>(),
        )
            .prop_map(|(lines, eol, last)| {
                let mut src = lines.join(eol);
                if last {
                    src.push_str(eol);
                }
                src
            })
    }

    /// `kind` with its value range moved `by` bytes on.
    fn shifted(kind: Kind, by: usize) -> Kind {
        let r = |v: Range<usize>| v.start + by..v.end + by;
        match kind {
            Kind::Title { value } => Kind::Title { value: r(value) },
            Kind::GoalHeading { value } => Kind::GoalHeading { value: r(value) },
            Kind::IdComment { value } => Kind::IdComment { value: r(value) },
            Kind::Field { key, value } => Kind::Field {
                key,
                value: r(value),
            },
            Kind::Task { done, value } => Kind::Task {
                done,
                value: r(value),
            },
            Kind::Bullet { value } => Kind::Bullet { value: r(value) },
            other => other,
        }
    }

    proptest! {
        /// The search for a comment's end finds what `str::find` does.
        #[test]
        fn comment_close_is_str_find(s in "[->a é]{0,16}") {
            prop_assert_eq!(comment_close(s.as_bytes()), s.find("-->"));
        }
    }

    proptest! {
        /// The byte-wise fast path trims as `str::trim` does, Unicode spaces included.
        #[test]
        fn trimmed_is_str_trim(s in "[ \t\u{a0}\u{2003}\u{3000}a-z#:é\\-]{0,12}") {
            prop_assert_eq!(&s[trimmed(&s, 0, s.len())], s.trim());
        }
    }

    proptest! {
        /// Skipping list items at every chance, across pieces cut at line ends,
        /// yields the other lines as the whole scan does, and skips only blank lines
        /// and list items outside fences and comments.
        #[test]
        fn skipped_and_resumed_scans_agree(
            src in source(),
            cuts in prop::collection::vec(any::<prop::sample::Index>(), 0..4),
            cr in any::<bool>(),
            fields in any::<bool>(),
        ) {
            let whole = scan(&src);
            let ends: Vec<usize> = whole.iter().map(Line::next_start).collect();
            let mut at: Vec<usize> = cuts.iter().filter(|_| !ends.is_empty()).map(|i| *i.get(&ends)).collect();
            at.push(src.len());
            at.sort_unstable();
            at.dedup();
            let (mut seen, mut from, mut carry) = (Vec::new(), 0, None);
            let mut counts = [0u8; 3];
            for end in at {
                let piece = &src[from..end];
                let mut lines = match carry {
                    Some(c) => Lines::resume(piece, c),
                    None => Lines::new(piece),
                };
                loop {
                    lines.skip_items(cr, fields.then_some(&mut counts));
                    let Some(mut line) = lines.next() else { break };
                    line.start += from;
                    line.end += from;
                    line.kind = shifted(line.kind, from);
                    seen.push(line);
                }
                carry = Some(lines.carry());
                from = end;
            }
            let read: Vec<usize> = seen.iter().map(|l| l.no).collect();
            let mut skipped_fields = [0u8; 3];
            for skipped in whole.iter().filter(|l| !read.contains(&l.no)) {
                let field = match skipped.kind {
                    Kind::Field { key: Key::DoneWhen, .. } => Some(0),
                    Kind::Field { key: Key::Verify, .. } => Some(1),
                    Kind::Field { key: Key::FailureModes, .. } => Some(2),
                    _ => None,
                };
                match field.filter(|_| fields) {
                    Some(i) => skipped_fields[i] += 1,
                    None => prop_assert!(
                        matches!(skipped.kind, Kind::Blank | Kind::Task { .. } | Kind::Bullet { .. }),
                        "skipped {:?}", skipped
                    ),
                }
                prop_assert!(!(cr && skipped.text(&src).contains('\r')), "skipped {:?}", skipped);
            }
            prop_assert_eq!(counts, skipped_fields, "contract fields stepped over");
            for line in &seen {
                let want = whole.iter().find(|l| l.no == line.no);
                let kinds_agree = want.is_some_and(|w| w.kind == line.kind && w.start == line.start);
                prop_assert!(kinds_agree, "{:?} against {:?}", line, want);
            }
        }
    }
}

/// The log's byte-level fast path reads a line only when the full reading would give
/// it the same line, word and state.
#[cfg(test)]
mod stamped {
    use super::*;
    use crate::plan::model::log_entry;
    use proptest::prelude::*;

    /// Log lines and look-alikes: a stamp or a near one, the space after it or not,
    /// ids with invisible characters, stray carriage returns, trailing spaces, and
    /// lines that open a fence or a comment.
    fn line() -> impl Strategy<Value = String> {
        // The plain form of each part most of the time, so most lines are near
        // misses of a real log line.
        fn part(plain: &'static str, odd: Vec<&'static str>) -> BoxedStrategy<&'static str> {
            prop_oneof![2 => Just(plain), 3 => prop::sample::select(odd)].boxed()
        }
        let lead = part(
            "- ",
            vec!["-  ", " - ", "* ", "-\t", "- [ ] ", "-", "", "- "],
        );
        let stamp = part(
            "2026-01-01 10:00",
            vec![
                "2026-1-01 10:00",
                "2026-01-01T10:00",
                "2026-01-01 10:0x",
                "２026-01-01 10:00",
                "",
            ],
        );
        let gap = part(" ", vec!["  ", "\t", "", "\u{a0}", "\r", " "]);
        let word = part(
            "g1",
            vec![
                "g1\u{200b}",
                "\u{200b}g1",
                "é",
                "g-1.x",
                "<!--",
                "```",
                "#",
                "g1\r",
                "",
                " g1",
            ],
        );
        let tail = prop::sample::select(vec![
            "",
            " added (contract 0123abcd)",
            " signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/g1.md#abcdef012345",
            " note ",
            " a\rb",
            " x\u{a0}",
            " ~~~",
            "\t",
        ]);
        prop_oneof![
            8 => (lead, stamp, gap, word, tail).prop_map(|(l, s, g, w, t)| format!("{l}{s}{g}{w}{t}")),
            1 => prop::sample::select(vec!["```", "~~~", "<!--", "-->", "## Log", "", "text"]).prop_map(str::to_string),
        ]
    }

    proptest! {
        /// Trying the fast path before every line, the lines it takes are the
        /// bullets the whole scan reads, with the word `log_entry` gives first, and
        /// every other line scans as before.
        #[test]
        fn a_stamped_bullet_is_what_the_full_reading_says(
            lines in prop::collection::vec(line(), 0..12),
            eol in prop_oneof![Just("\n"), Just("\r\n")],
            last in any::<bool>(),
        ) {
            let mut src = lines.join(eol);
            if last {
                src.push_str(eol);
            }
            let whole = scan(&src);
            // As `lean` asks: told whether the source holds a carriage return at all.
            let cr = src.contains('\r');
            let mut lines = Lines::new(&src);
            let mut no = 0;
            loop {
                if let Some((line, word)) = lines.stamped_bullet(cr) {
                    no += 1;
                    let want = &whole[no - 1];
                    let Kind::Bullet { value } = &want.kind else {
                        return Err(TestCaseError::fail(format!("{want:?} read as a bullet")));
                    };
                    prop_assert_eq!(line.clone(), want.start..want.next_start());
                    // A stray one is a format error, which a reader must not step over.
                    prop_assert!(!want.text(&src).contains('\r'), "{:?}", want);
                    let entry = log_entry(no, &src[value.clone()]);
                    prop_assert!(entry.stamp.is_some());
                    let first = entry.text.split(' ').next().unwrap_or("");
                    prop_assert_eq!(&src[word.clone()], first);
                    prop_assert_eq!(word.start, first.as_ptr() as usize - src.as_ptr() as usize);
                    continue;
                }
                let Some(line) = lines.next() else { break };
                no += 1;
                prop_assert_eq!(&line, &whole[no - 1]);
            }
            prop_assert_eq!(no, whole.len());
        }
    }

    /// plan's own log lines take the fast path.
    #[test]
    fn plans_own_log_lines_are_stamped_bullets() {
        let src = "- 2026-01-01 10:00 g1 added (contract 0123abcd)\n- 2026-01-01 10:00 g2\n";
        let mut lines = Lines::new(src);
        assert_eq!(lines.stamped_bullet(false), Some((0..48, 19..21)));
        assert_eq!(lines.stamped_bullet(false), Some((48..70, 67..69)));
        assert_eq!(lines.stamped_bullet(false), None);
    }
}

//! Reads a judge's answer into a verdict. Pure: text in, value out. It fails closed:
//! whatever it cannot read with certainty is `NoVerdict`, never `Accept`; a backend's
//! own error report is `CouldNotJudge`, which is not a verdict on the work either.

use std::ops::Range;

use pulldown_cmark::{CodeBlockKind, Event, Options, Parser, Tag};
use serde_json::{Map, Value};

use super::backend::{Backend, Format};
use crate::plan::text::cut;

/// Notes are kept as evidence, not as a transcript: the judge's full output belongs
/// in `.plan/judge/`, written by the caller.
pub const MAX_NOTES: usize = 4096;
/// Missing items end up in plan.md's log, one line each: keep them few and short.
pub const MAX_ITEMS: usize = 20;
pub const MAX_ITEM_CHARS: usize = 300;
/// How much of a failed run's text a `NoVerdict` reason quotes.
const MAX_EXCERPT_CHARS: usize = 300;

// `NoVerdict` is the name the log and the README give that outcome ("no verdict").
#[allow(clippy::enum_variant_names)]
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// An accept never carries missing items: one that does is turned into a reject.
    Accept {
        notes: String,
    },
    Reject {
        missing: Vec<String>,
        notes: String,
    },
    NoVerdict {
        reason: String,
    },
    /// Not a verdict on the work: the judge itself failed (not logged in, a bad model,
    /// an error flag, no answer at all). `reason` quotes the judge's own words.
    CouldNotJudge {
        reason: String,
    },
}

impl Verdict {
    pub fn label(&self) -> &'static str {
        match self {
            Verdict::Accept { .. } => "accept",
            Verdict::Reject { .. } => "reject",
            Verdict::NoVerdict { .. } => "no verdict",
            Verdict::CouldNotJudge { .. } => "could not judge",
        }
    }

    #[cfg(test)]
    pub fn is_accept(&self) -> bool {
        matches!(self, Verdict::Accept { .. })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Decision {
    Accept,
    Reject,
}

/// Reads what `backend` printed. `last_message` is the file a backend writes its final
/// answer to (codex `-o`), already read by the caller.
pub fn parse(backend: Backend, stdout: &str, last_message: Option<&str>) -> Verdict {
    if backend == Backend::None {
        return no_verdict("no judge ran (backend none)");
    }
    match backend.format() {
        Format::ClaudeResult => claude(stdout),
        Format::GeminiJson => gemini(stdout),
        Format::LastMessage => match last_message {
            Some(message) if !message.trim().is_empty() => text(message),
            _ => no_verdict(format!("{backend} wrote no final message")),
        },
        Format::Text => text(stdout),
        Format::Extract(read) => match read(stdout) {
            Ok(answer) => text(&answer),
            Err(why) => no_verdict(why),
        },
    }
}

/// The answer's text without the backend's wrapper, for callers that want prose
/// (the loop judge). `None` when the backend reported an error or said nothing.
pub fn answer_text(backend: Backend, stdout: &str, last_message: Option<&str>) -> Option<String> {
    if backend == Backend::None {
        return None;
    }
    let text = match backend.format() {
        Format::ClaudeResult => {
            let result = json_object(stdout)?;
            if result.get("is_error") != Some(&Value::Bool(false)) {
                return None;
            }
            result.get("result")?.as_str()?.to_string()
        }
        Format::GeminiJson => {
            let output = json_object(stdout)?;
            if output.get("error").is_some_and(|e| !e.is_null()) {
                return None;
            }
            output.get("response")?.as_str()?.to_string()
        }
        Format::LastMessage => last_message?.to_string(),
        Format::Text => stdout.to_string(),
        Format::Extract(read) => read(stdout).ok()?,
    };
    (!text.trim().is_empty()).then_some(text)
}

fn no_verdict(reason: impl Into<String>) -> Verdict {
    Verdict::NoVerdict {
        reason: reason.into(),
    }
}

/// `claude -p --output-format json`: one result object. `is_error` is the only
/// trustworthy failure flag — a bad model name or expired login still says
/// `subtype: success`.
fn claude(stdout: &str) -> Verdict {
    let Some(result) = json_object(stdout) else {
        return no_verdict(format!(
            "claude printed no json result: {}",
            excerpt_or_nothing(stdout)
        ));
    };
    let answer = result.get("result").and_then(Value::as_str).unwrap_or("");
    if let Some(kind) = result.get("type").and_then(Value::as_str)
        && kind != "result"
    {
        return no_verdict(format!("claude printed a {kind:?} object, not a result"));
    }
    match result.get("is_error") {
        Some(Value::Bool(false)) => {}
        Some(Value::Bool(true)) => {
            return Verdict::CouldNotJudge {
                reason: format!("claude reported an error: {}", excerpt_or_nothing(answer)),
            };
        }
        _ => return no_verdict("claude result has no is_error flag"),
    }
    // An error subtype (e.g. `error_max_turns`) fails closed whatever `is_error` says:
    // refusing costs a rerun, trusting could cost a false sign-off.
    if let Some(subtype) = result.get("subtype").and_then(Value::as_str)
        && subtype != "success"
    {
        return no_verdict(format!("claude run ended with {subtype}"));
    }
    if let Some(Value::Object(structured)) = result.get("structured_output")
        && structured.contains_key("verdict")
    {
        return from_json(structured, answer);
    }
    if answer.trim().is_empty() {
        return no_verdict("claude result is empty");
    }
    text(answer)
}

/// `gemini -p … -o json`: `{session_id, response, stats, error?}`.
fn gemini(stdout: &str) -> Verdict {
    let Some(output) = json_object(stdout) else {
        return no_verdict(format!(
            "gemini printed no json output: {}",
            excerpt_or_nothing(stdout)
        ));
    };
    match output.get("error") {
        None | Some(Value::Null) => {}
        Some(error) => {
            let message = match error.get("message").and_then(Value::as_str) {
                Some(message) => message.to_string(),
                None => error.to_string(),
            };
            return Verdict::CouldNotJudge {
                reason: format!("gemini reported an error: {}", excerpt_or_nothing(&message)),
            };
        }
    }
    match output.get("response").and_then(Value::as_str) {
        Some(response) if !response.trim().is_empty() => text(response),
        _ => no_verdict("gemini response is empty"),
    }
}

/// A plain-text answer: either a JSON verdict object on its own, or prose ending in a
/// `VERDICT:` line and a `missing:` list.
fn text(answer: &str) -> Verdict {
    let untrimmed = answer.trim_start_matches('\u{feff}');
    let answer = untrimmed.trim();
    if answer.is_empty() {
        return no_verdict("the judge printed nothing");
    }
    let body = unfence(answer);
    if body.starts_with('{')
        && let Ok(Value::Object(object)) = serde_json::from_str::<Value>(body)
        && object.contains_key("verdict")
    {
        // serde keeps the last of two equal keys: `{"verdict":"reject","verdict":
        // "accept"}` would read as an accept.
        if let Some(key) = repeated_key(body) {
            return no_verdict(format!(
                "the JSON answer names the key {key:?} twice, so its verdict is not one answer"
            ));
        }
        return from_json(&object, answer);
    }

    // Leading indentation is kept: four spaces make an indented code block.
    let prose = if body.len() == answer.len() {
        untrimmed.trim_start_matches(['\n', '\r']).trim_end()
    } else {
        body
    };
    let lines = match prose_lines(prose) {
        Ok(lines) => lines,
        Err(why) => return no_verdict(why),
    };
    let verdicts: Vec<Decision> = lines.iter().filter_map(|l| verdict_line(l)).collect();
    let Some(&decision) = verdicts.last() else {
        if quoted_verdict(prose) {
            return no_verdict(format!(
                "no verdict line outside a quotation: its `VERDICT:` line is inside a code block, a block quote or an indented block, which plan reads as quoted text, not the judge's own word (expected `VERDICT: accept` or `VERDICT: reject` on a line of its own, outside any block): {}",
                excerpt_or_nothing(answer)
            ));
        }
        return no_verdict(format!(
            "no verdict line (expected `VERDICT: accept` or `VERDICT: reject` on a line of its own): {}",
            excerpt_or_nothing(answer)
        ));
    };
    // A verdict in a form the strict reading skips (a list item, markup after the
    // word) still says what the judge decided: one that disagrees is a conflict.
    if verdicts.iter().any(|&d| d != decision)
        || lines
            .iter()
            .filter_map(|l| loose_verdict(l))
            .any(|d| d != decision)
    {
        return no_verdict("conflicting verdicts: the answer says both accept and reject");
    }
    if decision == Decision::Accept
        && let Some(last) = lines.iter().rev().find(|l| verdict_line(l).is_some())
        && let Some(after) = said_after(prose, last)
    {
        return no_verdict(format!(
            "the answer goes on after its verdict (`{}`): an accept must be the answer's last word, with only its missing: list after it",
            excerpt(after)
        ));
    }
    decide(decision, missing_list(&lines), answer)
}

/// The first line after `verdict` (a line of `prose`) that says something and is not
/// the `missing:` list: a judge that accepts and then writes "Actually the tests do
/// not run." has not accepted. Lines of marks alone (a rule, a closing fence) say
/// nothing; a quote or a code block after the verdict does.
fn said_after<'a>(prose: &'a str, verdict: &str) -> Option<&'a str> {
    let start = (verdict.as_ptr() as usize).checked_sub(prose.as_ptr() as usize)? + verdict.len();
    let rest = prose.get(start..)?;
    let mut in_missing = false;
    let mut blank = false;
    for line in rest.lines() {
        if line
            .chars()
            .all(|c| c.is_whitespace() || c.is_ascii_punctuation())
        {
            blank = blank || line.trim().is_empty();
            continue;
        }
        let item =
            in_missing && (list_item(line).is_some() || (!blank && line.starts_with([' ', '\t'])));
        if item {
            blank = false;
            continue;
        }
        if !in_missing && key_value(line, "missing").is_some() {
            in_missing = true;
            blank = false;
            continue;
        }
        return Some(line);
    }
    None
}

/// A structured verdict: `{"verdict": "accept"|"reject", "missing": [...]}`, from a
/// `command` judge or Claude's `structured_output`.
fn from_json(object: &Map<String, Value>, raw: &str) -> Verdict {
    let decision = match object.get("verdict") {
        Some(Value::String(word)) => match word.trim().to_ascii_lowercase().as_str() {
            "accept" => Decision::Accept,
            "reject" => Decision::Reject,
            _ => return no_verdict(format!("unknown verdict {:?}", excerpt(word))),
        },
        Some(other) => {
            return no_verdict(format!(
                "verdict is not a word: {}",
                excerpt(&other.to_string())
            ));
        }
        None => return no_verdict("no verdict field"),
    };
    let missing = match object.get("missing") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::String(item)) => inline_items(item),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| match item {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            })
            .collect(),
        Some(other) => vec![other.to_string()],
    };
    let notes = ["notes", "reason", "summary"]
        .iter()
        .find_map(|key| object.get(*key).and_then(Value::as_str))
        .filter(|s| !s.trim().is_empty())
        .unwrap_or(raw);
    decide(decision, missing, notes)
}

/// The one place a verdict is built: drops empty and "none" items, bounds the sizes,
/// and turns an accept that lists missing items into a reject.
fn decide(decision: Decision, missing: Vec<String>, notes: &str) -> Verdict {
    let mut items: Vec<String> = missing
        .iter()
        .map(|item| one_line(item))
        .filter(|item| !item.is_empty())
        .collect();
    if items.len() == 1 && is_none(&items[0]) {
        items.clear();
    }
    if items.len() > MAX_ITEMS {
        let more = items.len() - (MAX_ITEMS - 1);
        items.truncate(MAX_ITEMS - 1);
        items.push(format!("… and {more} more"));
    }
    let items: Vec<String> = items
        .into_iter()
        .map(|item| cut(&item, MAX_ITEM_CHARS))
        .collect();
    let notes = notes.trim();
    match decision {
        Decision::Accept if items.is_empty() => Verdict::Accept {
            notes: shorten(notes, MAX_NOTES),
        },
        Decision::Accept => {
            let prefix = "judge said accept but listed missing items: treated as reject\n\n";
            Verdict::Reject {
                missing: items,
                notes: format!("{prefix}{}", shorten(notes, MAX_NOTES - prefix.len())),
            }
        }
        Decision::Reject => Verdict::Reject {
            missing: items,
            notes: shorten(notes, MAX_NOTES),
        },
    }
}

/// `VERDICT: accept` / `VERDICT: reject` alone on a line, give or take markdown
/// emphasis, code ticks or a heading mark. Inside a sentence it does not count.
/// Whether a verdict line is there once a block's quoting (`>`, indentation, a
/// fence's lines) is set aside: the judge quoted its verdict instead of giving it.
fn quoted_verdict(body: &str) -> bool {
    body.lines()
        .any(|l| verdict_line(l.trim_start_matches([' ', '\t', '>'])).is_some())
}

fn verdict_line(line: &str) -> Option<Decision> {
    let rest = key_value(line, "verdict")?;
    let word = strip_decoration(rest.trim_end_matches('.'));
    if word.eq_ignore_ascii_case("accept") {
        Some(Decision::Accept)
    } else if word.eq_ignore_ascii_case("reject") {
        Some(Decision::Reject)
    } else {
        None
    }
}

/// A verdict however it is dressed: the line, once a list mark is set aside, is
/// `VERDICT:` and a decision word, whatever follows the word (`<!-- x -->`, `` `x` ``).
/// Read only to find a conflict, never as the verdict itself.
fn loose_verdict(line: &str) -> Option<Decision> {
    let line = list_item(line).unwrap_or(line);
    let rest = key_value(line, "verdict")?;
    let word: String = rest
        .trim_start_matches(|c: char| !c.is_alphanumeric())
        .chars()
        .take_while(|c| c.is_alphanumeric())
        .collect();
    if word.eq_ignore_ascii_case("accept") {
        Some(Decision::Accept)
    } else if word.eq_ignore_ascii_case("reject") {
        Some(Decision::Reject)
    } else {
        None
    }
}

/// A key the JSON object `body` names twice at its top level, if any.
fn repeated_key(body: &str) -> Option<String> {
    use serde::de::{Deserializer as _, IgnoredAny, MapAccess, Visitor};
    struct Keys;
    impl<'de> Visitor<'de> for Keys {
        type Value = Option<String>;
        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            f.write_str("an object")
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut seen = std::collections::HashSet::new();
            let mut twice = None;
            while let Some(key) = map.next_key::<String>()? {
                map.next_value::<IgnoredAny>()?;
                if !seen.insert(key.clone()) && twice.is_none() {
                    twice = Some(key);
                }
            }
            Ok(twice)
        }
    }
    serde_json::Deserializer::from_str(body)
        .deserialize_map(Keys)
        .ok()
        .flatten()
}

/// The value after `KEY:` when the line is that key and nothing before it.
fn key_value<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let s = strip_decoration(line.trim_start_matches(['#', ' ', '\t']));
    let head = s.get(..key.len())?;
    if !head.eq_ignore_ascii_case(key) {
        return None;
    }
    let rest = s[key.len()..].trim_start_matches(is_decoration);
    let rest = rest.strip_prefix(':')?;
    Some(strip_decoration(rest))
}

fn is_decoration(c: char) -> bool {
    matches!(c, '*' | '_' | '`') || c.is_whitespace()
}

fn strip_decoration(s: &str) -> &str {
    s.trim_matches(is_decoration)
}

/// The last `missing:` block: an inline value and/or the list items under it. A blank
/// line followed by anything but an item ends the list.
fn missing_list(lines: &[&str]) -> Vec<String> {
    let Some(start) = lines
        .iter()
        .rposition(|line| key_value(line, "missing").is_some())
    else {
        return Vec::new();
    };
    let inline = key_value(lines[start], "missing").unwrap_or("");
    let mut items = inline_items(inline);
    let mut blank = false;
    for line in &lines[start + 1..] {
        if line.trim().is_empty() {
            blank = true;
            continue;
        }
        if let Some(item) = list_item(line) {
            items.push(item.to_string());
            blank = false;
            continue;
        }
        let continues = !blank && line.starts_with([' ', '\t']) && !items.is_empty();
        match items.last_mut() {
            Some(last) if continues => {
                last.push(' ');
                last.push_str(line.trim());
            }
            _ => break,
        }
    }
    items
}

/// `missing: a` on the key's own line: nothing, a "none", a JSON array, or one item.
fn inline_items(value: &str) -> Vec<String> {
    let value = value.trim();
    if value.is_empty() || is_none(value) {
        return Vec::new();
    }
    if value.starts_with('[')
        && let Ok(items) = serde_json::from_str::<Vec<Value>>(value)
    {
        return items
            .into_iter()
            .map(|item| match item {
                Value::String(s) => s,
                other => other.to_string(),
            })
            .collect();
    }
    vec![value.to_string()]
}

/// The text of a `- item`, `* item`, `+ item` or `1. item` line.
fn list_item(line: &str) -> Option<&str> {
    let s = line.trim_start();
    let rest = if let Some(rest) = s.strip_prefix(['-', '*', '+']) {
        rest
    } else {
        let digits = s.len() - s.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        if digits == 0 {
            return None;
        }
        s[digits..].strip_prefix(['.', ')'])?
    };
    if !rest.starts_with([' ', '\t']) {
        return None;
    }
    Some(rest.trim())
}

fn is_none(item: &str) -> bool {
    let word = strip_decoration(item)
        .trim_end_matches('.')
        .to_ascii_lowercase();
    matches!(
        word.as_str(),
        "none" | "(none)" | "nothing" | "n/a" | "na" | "nil" | "null" | "[]" | "-" | "—"
    )
}

/// The answer's own lines, read as CommonMark: lines in code blocks (fenced with any
/// fence, or indented), HTML blocks and block quotes are left out. A verdict quoted
/// from a file, from the evidence or from the agent is not the judge's verdict; a
/// quote's lazy continuation line goes with the quote. An unclosed fence swallows the
/// rest of the answer, so the answer has no verdict (`Err`).
fn prose_lines(body: &str) -> Result<Vec<&str>, String> {
    let mut quoted: Vec<Range<usize>> = Vec::new();
    for (event, range) in Parser::new_ext(body, Options::empty()).into_offset_iter() {
        let Event::Start(tag) = event else {
            continue;
        };
        match tag {
            Tag::CodeBlock(CodeBlockKind::Fenced(_)) => {
                if !fence_closed(&body[range.clone()]) {
                    let line = body[..range.start].lines().count() + 1;
                    return Err(format!(
                        "an unclosed code fence (answer line {line}) swallows the rest of the answer"
                    ));
                }
                quoted.push(range);
            }
            Tag::CodeBlock(CodeBlockKind::Indented) | Tag::HtmlBlock | Tag::BlockQuote(_) => {
                quoted.push(range);
            }
            _ => {}
        }
    }
    let mut lines = Vec::new();
    let mut start = 0;
    for line in body.split_inclusive('\n') {
        let end = start + line.len();
        if !quoted.iter().any(|q| q.start < end && start < q.end) {
            lines.push(line.trim_end_matches(['\n', '\r']));
        }
        start = end;
    }
    Ok(lines)
}

/// Whether a fenced block's source ends with its own closing fence: the fence's
/// character, at least as many, nothing else (container marks and indent aside).
fn fence_closed(block: &str) -> bool {
    let strip = |l: &str| {
        l.trim_start_matches([' ', '\t', '>'])
            .trim_end()
            .to_string()
    };
    let mut lines = block.lines();
    let Some(open) = lines.next().map(strip) else {
        return false;
    };
    let Some(mark) = open.chars().next() else {
        return false;
    };
    let width = open.chars().take_while(|&c| c == mark).count();
    match lines.last().map(strip) {
        Some(close) => close.len() >= width && close.chars().all(|c| c == mark),
        None => false,
    }
}

/// An answer that is one fenced block as a whole (```json … ``` or ``` … ```) is read
/// as its contents.
fn unfence(answer: &str) -> &str {
    let Some(rest) = answer.strip_prefix("```") else {
        return answer;
    };
    let Some(inner) = rest.strip_suffix("```") else {
        return answer;
    };
    let Some(newline) = inner.find('\n') else {
        return answer;
    };
    let (info, inner) = inner.split_at(newline);
    if info.contains('`') || inner.contains("```") {
        return answer;
    }
    inner.trim()
}

/// The JSON object a backend printed: all of stdout, or, when something printed a
/// line before it, the object from its first line on, or the last line alone.
fn json_object(stdout: &str) -> Option<Map<String, Value>> {
    let trimmed = stdout.trim_start_matches('\u{feff}').trim();
    let object = |s: &str| match serde_json::from_str::<Value>(s) {
        Ok(Value::Object(map)) => Some(map),
        _ => None,
    };
    object(trimmed)
        .or_else(|| {
            let start = trimmed.find("\n{")?;
            object(&trimmed[start + 1..])
        })
        .or_else(|| object(trimmed.lines().rev().find(|l| !l.trim().is_empty())?))
}

/// Whitespace and control characters collapsed to single spaces: a log line's shape.
fn one_line(s: &str) -> String {
    s.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

fn excerpt(s: &str) -> String {
    cut(&one_line(s), MAX_EXCERPT_CHARS)
}

fn excerpt_or_nothing(s: &str) -> String {
    let excerpt = excerpt(s);
    if excerpt.is_empty() {
        "(nothing)".to_string()
    } else {
        excerpt
    }
}

/// At most `max` bytes: the head and the tail, where a judge puts its reasoning and
/// its verdict, with a marker for the cut.
fn shorten(s: &str, max: usize) -> String {
    if s.len() <= max {
        return s.to_string();
    }
    let marker = format!("\n[… {} bytes cut …]\n", s.len());
    let budget = max.saturating_sub(marker.len() + 8);
    let head = floor_char(s, budget / 2);
    let tail = ceil_char(s, s.len() - budget / 2);
    format!("{}{marker}{}", &s[..head], &s[tail..])
}

fn floor_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_char(s: &str, mut i: usize) -> usize {
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hosts::Host;

    const CLAUDE_ACCEPT: &str = include_str!("../../fixtures/judges/outputs/claude-accept.json");
    const CLAUDE_IS_ERROR: &str =
        include_str!("../../fixtures/judges/outputs/claude-is-error.json");
    const CLAUDE_NOT_LOGGED_IN: &str =
        include_str!("../../fixtures/judges/outputs/claude-not-logged-in.json");
    const CLAUDE_STRUCTURED: &str =
        include_str!("../../fixtures/judges/outputs/claude-structured.json");
    const CLAUDE_MAX_TURNS: &str =
        include_str!("../../fixtures/judges/outputs/claude-max-turns.json");
    const GEMINI_ACCEPT: &str = include_str!("../../fixtures/judges/outputs/gemini-accept.json");
    const GEMINI_ERROR: &str = include_str!("../../fixtures/judges/outputs/gemini-error.json");
    const CODEX_ACCEPT: &str = include_str!("../../fixtures/judges/outputs/codex-accept.txt");
    const CODEX_PROGRESS: &str = include_str!("../../fixtures/judges/outputs/codex-progress.jsonl");
    const PI_ACCEPT: &str = include_str!("../../fixtures/judges/outputs/pi-accept.txt");
    const ACCEPT: &str = include_str!("../../fixtures/judges/outputs/accept.txt");
    const REJECT: &str = include_str!("../../fixtures/judges/outputs/reject.txt");
    const NO_VERDICT: &str = include_str!("../../fixtures/judges/outputs/no-verdict.txt");
    const JSON_ACCEPT: &str = include_str!("../../fixtures/judges/outputs/json-accept.json");
    const GARBAGE: &[u8] = include_bytes!("../../fixtures/judges/outputs/garbage.bin");

    fn plain(s: &str) -> Verdict {
        parse(Backend::Command, s, None)
    }

    /// Answers an adversary's judge gave that were read as accepts: a reject said
    /// first in a form the reader skips (a bullet, trailing markup), a JSON reject
    /// overridden by a duplicate key, bytes after the missing list. Each holds a
    /// reject or junk, so none may be an accept.
    #[test]
    fn a_reject_in_a_skipped_form_or_a_duplicate_key_is_no_accept() {
        let accepted = [
            "- VERDICT: reject\n\nVERDICT: accept\nmissing: none\n",
            "VERDICT: reject <!-- x -->\n\nVERDICT: accept\nmissing: none\n",
            "VERDICT: reject `x`\n\nVERDICT: accept\nmissing: none\n",
            r#"{"verdict":"reject","verdict":"accept","missing":[]}"#,
            "VERDICT: accept\nmissing: none\n\u{0}\u{0}\u{fffd}",
        ]
        .into_iter()
        .filter(|a| plain(a).is_accept())
        .collect::<Vec<_>>();
        assert!(accepted.is_empty(), "read as accepts: {accepted:?}");
    }

    fn reason(v: &Verdict) -> &str {
        match v {
            Verdict::NoVerdict { reason } => reason,
            other => panic!("expected no verdict, got {other:?}"),
        }
    }

    fn items(v: &Verdict) -> Vec<&str> {
        match v {
            Verdict::Reject { missing, .. } => missing.iter().map(String::as_str).collect(),
            other => panic!("expected reject, got {other:?}"),
        }
    }

    #[test]
    fn captured_plain_accept() {
        let v = plain(ACCEPT);
        assert!(v.is_accept());
        assert_eq!(v.label(), "accept");
        assert!(parse(Backend::Llm, ACCEPT, None).is_accept());
    }

    #[test]
    fn captured_plain_reject_lists_missing() {
        let v = plain(REJECT);
        assert_eq!(v.label(), "reject");
        assert_eq!(
            items(&v),
            [
                "eviction policy has no test that fills the cache past capacity",
                "load-test.log is from before the last change to src/cache.rs",
            ]
        );
    }

    #[test]
    fn captured_prose_without_verdict() {
        let v = plain(NO_VERDICT);
        assert_eq!(v.label(), "no verdict");
        assert!(reason(&v).starts_with("no verdict line"));
    }

    #[test]
    fn captured_garbage() {
        let lossy = String::from_utf8_lossy(GARBAGE);
        let v = plain(&lossy);
        let reason = reason(&v);
        assert!(reason.starts_with("no verdict line"), "{reason}");
        assert!(!reason.contains('\u{0}'));
        assert!(!reason.contains('\n'));
    }

    #[test]
    fn captured_json_accept() {
        assert!(plain(JSON_ACCEPT).is_accept());
    }

    #[test]
    fn captured_claude_accept() {
        let v = parse(Backend::Host(Host::Claude), CLAUDE_ACCEPT, None);
        let Verdict::Accept { notes } = v else {
            panic!("{v:?}")
        };
        assert!(notes.contains("VERDICT: accept"));
    }

    fn could_not(v: &Verdict) -> &str {
        match v {
            Verdict::CouldNotJudge { reason } => reason,
            other => panic!("expected could not judge, got {other:?}"),
        }
    }

    #[test]
    fn claude_is_error_wins_over_a_verdict_in_result() {
        let v = parse(Backend::Host(Host::Claude), CLAUDE_IS_ERROR, None);
        assert!(!v.is_accept());
        let reason = could_not(&v);
        assert!(reason.starts_with("claude reported an error: "), "{reason}");
        assert!(reason.contains("model: claude-sonet-4"), "{reason}");
        let v = parse(Backend::Host(Host::Claude), CLAUDE_NOT_LOGGED_IN, None);
        assert_eq!(
            could_not(&v),
            "claude reported an error: Invalid API key · Please run /login"
        );
    }

    #[test]
    fn claude_structured_output_beats_result_text() {
        let v = parse(Backend::Host(Host::Claude), CLAUDE_STRUCTURED, None);
        assert_eq!(
            items(&v),
            ["no test covers eviction under concurrent writers"]
        );
    }

    #[test]
    fn claude_error_subtype_is_no_verdict() {
        let v = parse(Backend::Host(Host::Claude), CLAUDE_MAX_TURNS, None);
        assert_eq!(reason(&v), "claude run ended with error_max_turns");
    }

    #[test]
    fn claude_hostile_shapes() {
        assert!(
            reason(&parse(Backend::Host(Host::Claude), "VERDICT: accept", None))
                .starts_with("claude printed no json")
        );
        assert!(reason(&parse(Backend::Host(Host::Claude), "", None)).ends_with("(nothing)"));
        let no_flag = r#"{"type":"result","subtype":"success","result":"VERDICT: accept"}"#;
        assert_eq!(
            reason(&parse(Backend::Host(Host::Claude), no_flag, None)),
            "claude result has no is_error flag"
        );
        let string_flag = r#"{"type":"result","is_error":"false","result":"VERDICT: accept"}"#;
        assert!(!parse(Backend::Host(Host::Claude), string_flag, None).is_accept());
        let other = r#"{"type":"system","is_error":false,"result":"VERDICT: accept"}"#;
        assert!(reason(&parse(Backend::Host(Host::Claude), other, None)).contains("not a result"));
        let empty = r#"{"type":"result","subtype":"success","is_error":false,"result":""}"#;
        assert_eq!(
            reason(&parse(Backend::Host(Host::Claude), empty, None)),
            "claude result is empty"
        );
        let bad_structured = r#"{"type":"result","is_error":false,"result":"VERDICT: accept","structured_output":{"verdict":"maybe"}}"#;
        assert!(
            reason(&parse(Backend::Host(Host::Claude), bad_structured, None))
                .starts_with("unknown verdict")
        );
    }

    #[test]
    fn claude_tolerates_a_line_before_the_object() {
        let stdout = format!("warning: something minor\n{CLAUDE_ACCEPT}");
        assert!(parse(Backend::Host(Host::Claude), &stdout, None).is_accept());
    }

    #[test]
    fn captured_gemini() {
        assert!(parse(Backend::Host(Host::Gemini), GEMINI_ACCEPT, None).is_accept());
        let v = parse(Backend::Host(Host::Gemini), GEMINI_ERROR, None);
        assert!(
            could_not(&v).starts_with("gemini reported an error: [API Error: models/gemini-9-pro"),
            "{v:?}"
        );
        let null_error = r#"{"session_id":"s","response":"VERDICT: accept","error":null}"#;
        assert!(parse(Backend::Host(Host::Gemini), null_error, None).is_accept());
        assert!(!parse(Backend::Host(Host::Gemini), "VERDICT: accept", None).is_accept());
        let empty = r#"{"session_id":"s","response":"  "}"#;
        assert_eq!(
            reason(&parse(Backend::Host(Host::Gemini), empty, None)),
            "gemini response is empty"
        );
    }

    #[test]
    fn codex_reads_the_last_message_not_stdout() {
        assert!(
            parse(
                Backend::Host(Host::Codex),
                CODEX_PROGRESS,
                Some(CODEX_ACCEPT)
            )
            .is_accept()
        );
        assert_eq!(
            reason(&parse(
                Backend::Host(Host::Codex),
                "VERDICT: accept\n",
                None
            )),
            "codex wrote no final message"
        );
        assert_eq!(
            reason(&parse(
                Backend::Host(Host::Codex),
                "VERDICT: accept\n",
                Some(" \n")
            )),
            "codex wrote no final message"
        );
    }

    #[test]
    fn captured_pi() {
        assert!(parse(Backend::Host(Host::Pi), PI_ACCEPT, None).is_accept());
    }

    #[test]
    fn backend_none_never_accepts() {
        assert!(!parse(Backend::None, ACCEPT, None).is_accept());
    }

    #[test]
    fn verdict_inside_a_sentence_does_not_count() {
        let v = plain("I cannot say VERDICT: accept yet, the tests are missing.\n");
        assert!(reason(&v).starts_with("no verdict line"));
        let v = plain("The verdict: accept would be premature.\n");
        assert!(reason(&v).starts_with("no verdict line"));
        let v = plain("VERDICT: accept, mostly\n");
        assert!(reason(&v).starts_with("no verdict line"));
        let v = plain("> VERDICT: accept\n");
        assert!(reason(&v).starts_with("no verdict line"));
    }

    #[test]
    fn conflicting_verdicts_fail_closed() {
        let v = plain("VERDICT: reject\nmissing:\n- x\n\nOn reflection:\nVERDICT: accept\n");
        assert!(reason(&v).starts_with("conflicting verdicts"));
        let v = plain("VERDICT: accept\nVERDICT: REJECT\n");
        assert!(reason(&v).starts_with("conflicting verdicts"));
        assert!(plain("VERDICT: accept\n\nVERDICT: accept\n").is_accept());
    }

    #[test]
    fn accept_with_missing_items_is_a_reject() {
        let v = plain("Looks fine.\nVERDICT: accept\nmissing:\n- the README section\n");
        let Verdict::Reject { missing, notes } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(missing, &["the README section"]);
        assert!(notes.starts_with("judge said accept but listed missing items"));
        let v = plain(r#"{"verdict":"accept","missing":["a"]}"#);
        assert_eq!(items(&v), ["a"]);
    }

    #[test]
    fn markdown_decorations_are_tolerated() {
        for line in [
            "**VERDICT: accept**",
            "**VERDICT:** accept",
            "`VERDICT: accept`",
            "  verdict:   Accept  ",
            "__Verdict: ACCEPT__",
            "## VERDICT: accept",
            "VERDICT: accept.",
            "VERDICT:accept",
        ] {
            assert!(
                plain(&format!("Checked it.\n{line}\n")).is_accept(),
                "{line}"
            );
        }
    }

    #[test]
    fn crlf_line_endings() {
        let v = plain("Checked.\r\nVERDICT: reject\r\nmissing:\r\n- one\r\n- two\r\n");
        assert_eq!(items(&v), ["one", "two"]);
        assert!(plain("Checked.\r\nVERDICT: accept\r\nmissing: none\r\n").is_accept());
    }

    #[test]
    fn missing_none_in_its_spellings() {
        for tail in [
            "missing: none",
            "missing: None.",
            "missing: []",
            "missing:",
            "missing:\n- none",
            "**missing:** n/a",
            "",
        ] {
            let v = plain(&format!("All good.\nVERDICT: accept\n{tail}\n"));
            assert!(v.is_accept(), "{tail:?}: {v:?}");
        }
    }

    #[test]
    fn missing_list_shapes() {
        let v =
            plain("VERDICT: reject\nmissing:\n* star item\n+ plus item\n1. numbered\n2) paren\n");
        assert_eq!(items(&v), ["star item", "plus item", "numbered", "paren"]);
        let v = plain("VERDICT: reject\nmissing: [\"a\", \"b\"]\n");
        assert_eq!(items(&v), ["a", "b"]);
        let v = plain("VERDICT: reject\nmissing: the load test\n");
        assert_eq!(items(&v), ["the load test"]);
        let v = plain(
            "VERDICT: reject\nmissing:\n- first\n  continued here\n\n- second\n\nThanks for reading.\n- not an item\n",
        );
        assert_eq!(items(&v), ["first continued here", "second"]);
        let v = plain("VERDICT: reject\nmissing:\n- a\nSummary follows.\n- b\n");
        assert_eq!(items(&v), ["a"]);
        let v = plain("missing:\n- before the verdict\n\nVERDICT: reject\n");
        assert_eq!(items(&v), ["before the verdict"]);
        let v = plain("VERDICT: reject\n");
        assert!(items(&v).is_empty());
    }

    #[test]
    fn verdicts_inside_code_fences_are_quotes() {
        let v = plain("The fixture says:\n```\nVERDICT: accept\n```\nI have not decided.\n");
        assert!(reason(&v).starts_with("no verdict line"));
        assert!(
            reason(&v).starts_with(
                "no verdict line outside a quotation: its `VERDICT:` line is inside a code block"
            ),
            "a fenced verdict is named as such: {v:?}"
        );
        let v = plain("> VERDICT: reject\n");
        assert!(
            reason(&v).starts_with("no verdict line outside a quotation"),
            "{v:?}"
        );
        let v = plain("I have not decided.\n");
        assert!(reason(&v).starts_with("no verdict line (expected"), "{v:?}");
        let v = plain("```\nVERDICT: reject\n```\nVERDICT: accept\n");
        assert!(v.is_accept());
        let v = plain("```text\nSome reasoning.\nVERDICT: accept\n```");
        assert!(v.is_accept(), "a whole-answer fence is unwrapped");
    }

    /// Today's line toggle read this as accept: the `~~~` block holds a "```" line,
    /// so every later fence flipped the wrong way and hid the real reject.
    #[test]
    fn a_reject_is_not_read_as_accept_through_fences() {
        let answer = "The verify log says:\n~~~\n```\n~~~\nVERDICT: reject\nmissing:\n- eviction has no test\n\nFor reference, the fixture reads:\n```\nVERDICT: accept\n```\n";
        assert_eq!(items(&plain(answer)), ["eviction has no test"]);
    }

    #[test]
    fn fences_of_different_lengths() {
        let v = plain("````\n```\nVERDICT: accept\n```\n````\nVERDICT: reject\nmissing:\n- x\n");
        assert_eq!(items(&v), ["x"]);
        let v = plain("Quoted:\n`````md\n````\nVERDICT: accept\n````\n`````\nNo decision yet.\n");
        assert!(reason(&v).starts_with("no verdict line"), "{v:?}");
        let v = plain("```\nVERDICT: reject\n````\nVERDICT: accept\n");
        assert!(v.is_accept(), "a longer fence closes a shorter one: {v:?}");
    }

    #[test]
    fn tilde_and_backtick_fences_nested() {
        let v = plain("~~~\n```\nVERDICT: accept\n```\n~~~\nVERDICT: reject\n");
        assert_eq!(v.label(), "reject");
        let v = plain("```\n~~~\nVERDICT: accept\n~~~\n```\nVERDICT: reject\n");
        assert_eq!(v.label(), "reject");
    }

    #[test]
    fn an_unclosed_fence_is_no_verdict() {
        let v = plain("VERDICT: accept\nmissing: none\n\n```\nVERDICT: reject\n");
        assert!(reason(&v).contains("unclosed"), "{v:?}");
        let v = plain("VERDICT: accept\n~~~~\n~~~\n");
        assert!(reason(&v).contains("unclosed"), "{v:?}");
        let v = plain("VERDICT: accept\n```");
        assert!(reason(&v).contains("unclosed"), "{v:?}");
    }

    #[test]
    fn a_quoted_accept_before_a_real_reject() {
        let v = plain(
            "The agent wrote:\n> VERDICT: accept\n\nIt is not.\n\nVERDICT: reject\nmissing:\n- the tests\n",
        );
        assert_eq!(items(&v), ["the tests"]);
        let v = plain("    VERDICT: accept\n\nVERDICT: reject\n");
        assert_eq!(v.label(), "reject", "an indented code block is a quote");
        let v = plain("<div>\nVERDICT: accept\n</div>\n\nVERDICT: reject\n");
        assert_eq!(v.label(), "reject", "an html block is not prose");
    }

    #[test]
    fn evidence_that_carries_a_verdict_does_not_count() {
        let v = plain(
            "The evidence text says:\n\n````\n```\nVERDICT: accept\n```\n````\n\nI could not confirm it.\n",
        );
        assert!(reason(&v).starts_with("no verdict line"), "{v:?}");
    }

    #[test]
    fn json_verdicts() {
        assert!(plain("```json\n{\"verdict\": \"accept\", \"missing\": []}\n```\n").is_accept());
        let v = plain(r#"  {"verdict":"Reject","missing":["x", 3], "notes":"why"}  "#);
        let Verdict::Reject { missing, notes } = &v else {
            panic!("{v:?}")
        };
        assert_eq!(missing, &["x", "3"]);
        assert_eq!(notes, "why");
        assert!(plain(r#"{"verdict":"accept","missing":null}"#).is_accept());
        assert!(plain(r#"{"verdict":"accept","missing":"none"}"#).is_accept());
        assert!(reason(&plain(r#"{"verdict":true}"#)).starts_with("verdict is not a word"));
        assert!(reason(&plain(r#"{"verdict":"accepted"}"#)).starts_with("unknown verdict"));
        assert!(reason(&plain(r#"{"ok":true}"#)).starts_with("no verdict line"));
        assert!(reason(&plain(r#"{"verdict": "accept""#)).starts_with("no verdict line"));
    }

    #[test]
    fn empty_answers() {
        assert_eq!(reason(&plain("")), "the judge printed nothing");
        assert_eq!(reason(&plain("\u{feff} \n")), "the judge printed nothing");
    }

    #[test]
    fn sizes_are_bounded() {
        let long = format!("{}\nVERDICT: accept\n", "reasoning é ".repeat(2000));
        let Verdict::Accept { notes } = plain(&long) else {
            panic!()
        };
        assert!(notes.len() <= MAX_NOTES, "{}", notes.len());
        assert!(notes.ends_with("VERDICT: accept"));
        assert!(notes.contains("bytes cut"));

        let list: String = (0..50).map(|i| format!("- item {i}\n")).collect();
        let v = plain(&format!("VERDICT: reject\nmissing:\n{list}"));
        let listed = items(&v);
        assert_eq!(listed.len(), MAX_ITEMS);
        assert_eq!(listed[MAX_ITEMS - 1], "… and 31 more");

        let v = plain(&format!(
            "VERDICT: reject\nmissing:\n- {}\n",
            "x".repeat(1000)
        ));
        assert_eq!(items(&v)[0].chars().count(), MAX_ITEM_CHARS + 1);

        let accept_long = format!("{}\nVERDICT: accept\nmissing:\n- a\n", "y".repeat(10_000));
        let Verdict::Reject { notes, .. } = plain(&accept_long) else {
            panic!()
        };
        assert!(notes.len() <= MAX_NOTES);
    }

    /// An accept the judge takes back in the next breath is no accept: fail closed.
    #[test]
    fn prose_after_an_accept_is_no_verdict() {
        for tail in [
            "VERDICT: accept\nActually the tests do not run.\n",
            "VERDICT: accept\nmissing: none\n\nActually the tests do not run.\n",
            "**VERDICT: accept**\n\n**missing:** none\n\nOn second thought, eviction is untested.",
            "VERDICT: accept\n\n```\nthe tests do not run\n```\n",
            "VERDICT: accept\n\n> but the bench never ran\n",
            "VERDICT: accept\nmissing:\n- none\n\nP.S. I did not open the tests.\n",
        ] {
            let v = plain(&format!(
                "{}{tail}",
                &ACCEPT[..ACCEPT.find("VERDICT").unwrap()]
            ));
            assert!(
                reason(&v).starts_with("the answer goes on after its verdict"),
                "{tail:?}: {v:?}"
            );
        }
        for tail in [
            "VERDICT: accept\nmissing: none\n\n---\n",
            "VERDICT: accept\n\nmissing:\n- none\n\n",
            "VERDICT: accept\nmissing: none\n\n\n",
        ] {
            assert!(plain(&format!("Checked.\n{tail}")).is_accept(), "{tail:?}");
        }
        let v = plain("VERDICT: accept\nmissing:\n- the bench\n  was never run\n\n- eviction\n");
        assert_eq!(items(&v), ["the bench was never run", "eviction"]);
        let v = plain(&format!("{REJECT}\nThanks for reading.\n"));
        assert_eq!(v.label(), "reject", "a reject stays a reject: {v:?}");
        let pi = PI_ACCEPT.replace(
            "**missing:** none",
            "**missing:** none\n\nBut I could not run the bench.",
        );
        assert!(!parse(Backend::Host(Host::Pi), &pi, None).is_accept());
        let codex = format!("{CODEX_ACCEPT}\nActually the tests do not run.\n");
        assert!(!parse(Backend::Host(Host::Codex), CODEX_PROGRESS, Some(&codex)).is_accept());
    }

    #[test]
    fn items_become_single_lines() {
        let v = plain(r#"{"verdict":"reject","missing":["two\nlines\tand\u0007bell"]}"#);
        assert_eq!(items(&v), ["two lines and bell"]);
    }
}

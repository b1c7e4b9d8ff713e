//! Token usage from a host's transcript (Claude Code, Codex, Gemini CLI), for the work loop's token budget: read at
//! each stop from where the last one left off (a [`Cursor`]: path, file identity,
//! byte offset), one complete line at a time, through src/fsread.rs (a regular file
//! only, never a hang) and at most [`MAX_READ`] new bytes per stop.
//!
//! What counts, on every host alike: the tokens the model took in fresh (input,
//! and input written to the prompt cache) and the tokens it wrote (output,
//! reasoning included). Reads from the prompt cache do not count: they are the same
//! context read again at every call, billed at a tenth of fresh input, and left out
//! of Anthropic's input rate limits; counted, a long context's rereads would
//! outweigh all the work and spend any budget in a few calls. Lines stamped before
//! the loop started count nothing, so a loop started late in a session does not
//! inherit what came before it.

use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom};
use std::os::unix::fs::MetadataExt as _;
use std::path::Path;

use serde::{Deserialize, Serialize};

/// The most new bytes of a transcript read at one stop; the rest waits for the next.
pub const MAX_READ: u64 = 32 << 20;

/// Message ids remembered to count a message written over several lines once.
const SEEN: usize = 16;

/// Reads one complete transcript line (without its newline): the tokens it adds.
/// `since`: when the loop started, in seconds since the epoch.
pub type Reader = fn(line: &[u8], since: i64, carry: &mut Carry) -> u64;

/// Where the last stop left off in a transcript.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Cursor {
    pub path: String,
    /// The file's identity: a transcript replaced under the same name is a new one.
    pub dev: u64,
    pub ino: u64,
    /// Bytes read: up to the end of the last complete line.
    pub offset: u64,
    pub carry: Carry,
}

/// What a reader keeps between lines, and between stops.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Carry {
    /// The last messages counted and their tokens (Claude Code writes one message
    /// as several lines, one per content block, each with the message's usage).
    pub seen: Vec<(String, u64)>,
    /// The session's running total as the transcript last stated it (Codex states
    /// totals, not increments).
    pub total: Option<u64>,
    /// A line longer than [`MAX_READ`] is being skipped: the next read starts past
    /// its end.
    pub skipping: bool,
}

impl Carry {
    /// `tokens` for message `id`, less what a line of it already counted.
    fn once(&mut self, id: &str, tokens: u64) -> u64 {
        if let Some((_, counted)) = self.seen.iter_mut().find(|(seen, _)| seen == id) {
            let more = tokens.saturating_sub(*counted);
            *counted += more;
            return more;
        }
        if self.seen.len() == SEEN {
            self.seen.remove(0);
        }
        self.seen.push((id.to_string(), tokens));
        tokens
    }
}

/// Reads the lines of `path` that came after `from` (all of them when `from` is
/// another file, or this one shrank or was replaced): the cursor after them and the
/// tokens they add. A last line without its newline is not read yet.
pub fn read(
    path: &Path,
    from: Option<&Cursor>,
    since: i64,
    reader: Reader,
) -> io::Result<(Cursor, u64)> {
    let mut file = crate::fsread::open(path)?;
    let meta = file.metadata()?;
    let name = path.to_string_lossy();
    let mut cursor = match from {
        Some(c)
            if c.path == name
                && (c.dev, c.ino) == (meta.dev(), meta.ino())
                && c.offset <= meta.len() =>
        {
            c.clone()
        }
        _ => Cursor {
            path: name.into_owned(),
            dev: meta.dev(),
            ino: meta.ino(),
            ..Cursor::default()
        },
    };
    file.seek(SeekFrom::Start(cursor.offset))?;
    let mut input = BufReader::with_capacity(64 * 1024, file.take(MAX_READ));
    let mut line = Vec::new();
    let mut tokens = 0u64;
    let mut read = 0u64;
    loop {
        line.clear();
        let n = input.read_until(b'\n', &mut line)? as u64;
        read += n;
        if line.last() != Some(&b'\n') {
            // Half a line: the host is still writing it, or it is longer than a
            // whole read, and then it is skipped rather than waited on forever.
            if read == MAX_READ && read == n {
                cursor.offset += n;
                cursor.carry.skipping = true;
            }
            break;
        }
        cursor.offset += n;
        if std::mem::take(&mut cursor.carry.skipping) {
            continue;
        }
        tokens = tokens.saturating_add(reader(&line[..line.len() - 1], since, &mut cursor.carry));
    }
    Ok((cursor, tokens))
}

/// Whether an RFC 3339 `timestamp` is before `since`; one that does not read is not.
fn before(timestamp: Option<&str>, since: i64) -> bool {
    timestamp
        .and_then(|t| t.parse::<jiff::Timestamp>().ok())
        .is_some_and(|t| t.as_second() < since)
}

/// Claude Code's transcript (`~/.claude/projects/<project>/<session>.jsonl`): each
/// `type: "assistant"` line carries its API message's `message.usage`
/// (`input_tokens`, `cache_creation_input_tokens`, `cache_read_input_tokens`,
/// `output_tokens`), the same message over several lines under one `message.id`.
/// Counted: input, cache creation and output, once per message.
pub fn claude(line: &[u8], since: i64, carry: &mut Carry) -> u64 {
    #[derive(Deserialize)]
    struct Line {
        #[serde(rename = "type")]
        kind: Option<String>,
        timestamp: Option<String>,
        message: Option<Message>,
    }
    #[derive(Deserialize)]
    struct Message {
        id: Option<String>,
        usage: Option<Usage>,
    }
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Usage {
        input_tokens: u64,
        cache_creation_input_tokens: u64,
        output_tokens: u64,
    }
    if memchr::memmem::find(line, b"\"usage\"").is_none() {
        return 0;
    }
    let Ok(line) = serde_json::from_slice::<Line>(line) else {
        return 0;
    };
    let Some(Message {
        id,
        usage: Some(usage),
    }) = line
        .message
        .filter(|_| line.kind.as_deref() == Some("assistant"))
    else {
        return 0;
    };
    if before(line.timestamp.as_deref(), since) {
        return 0;
    }
    let tokens = usage
        .input_tokens
        .saturating_add(usage.cache_creation_input_tokens)
        .saturating_add(usage.output_tokens);
    match id {
        Some(id) => carry.once(&id, tokens),
        None => tokens,
    }
}

/// Codex's rollout (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-….jsonl`): an
/// `event_msg` of type `token_count` states the session's running totals in
/// `info.total_token_usage` (`input_tokens` with `cached_input_tokens` inside it,
/// `output_tokens` with `reasoning_output_tokens` inside it), at times twice over,
/// and `info: null` when it reports only rate limits. Counted: input less cached
/// input, plus output, as the growth of those totals; `last_token_usage` is not
/// used, since a repeated event would count its call twice.
pub fn codex(line: &[u8], since: i64, carry: &mut Carry) -> u64 {
    #[derive(Deserialize)]
    struct Line {
        timestamp: Option<String>,
        payload: Option<Payload>,
    }
    #[derive(Deserialize)]
    struct Payload {
        #[serde(rename = "type")]
        kind: Option<String>,
        info: Option<Info>,
    }
    #[derive(Deserialize)]
    struct Info {
        total_token_usage: Option<Usage>,
    }
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Usage {
        input_tokens: u64,
        cached_input_tokens: u64,
        output_tokens: u64,
    }
    if memchr::memmem::find(line, b"\"token_count\"").is_none() {
        return 0;
    }
    let Ok(line) = serde_json::from_slice::<Line>(line) else {
        return 0;
    };
    let Some(usage) = line
        .payload
        .filter(|p| p.kind.as_deref() == Some("token_count"))
        .and_then(|p| p.info?.total_token_usage)
    else {
        return 0;
    };
    let total = usage
        .input_tokens
        .saturating_sub(usage.cached_input_tokens)
        .saturating_add(usage.output_tokens);
    let last = carry.total.replace(total);
    if before(line.timestamp.as_deref(), since) {
        return 0;
    }
    match last {
        Some(last) if total >= last => total - last,
        // Totals that went down started again (a new process on the same file).
        _ => total,
    }
}

/// Gemini CLI's chat (`~/.gemini/tmp/<project>/chats/session-….jsonl`, 0.61): a
/// message record (`type: "gemini"` for the model's) is written again whenever it
/// changes, the last one standing, with `tokens` from the API's usage metadata
/// (`input`, the prompt with `cached` inside it; `output`; `thoughts`; `tool`, the
/// tool results' prompt). Counted: input less cached, plus tool, output and
/// thoughts, once per message id. A compression's `$set` record, which rewrites
/// every message at once, is no message record and counts nothing.
pub fn gemini(line: &[u8], since: i64, carry: &mut Carry) -> u64 {
    #[derive(Deserialize)]
    struct Line {
        id: Option<String>,
        #[serde(rename = "type")]
        kind: Option<String>,
        timestamp: Option<String>,
        tokens: Option<Tokens>,
    }
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Tokens {
        input: u64,
        cached: u64,
        output: u64,
        thoughts: Option<u64>,
        tool: Option<u64>,
    }
    if memchr::memmem::find(line, b"\"tokens\"").is_none() {
        return 0;
    }
    let Ok(line) = serde_json::from_slice::<Line>(line) else {
        return 0;
    };
    let Some(tokens) = line
        .tokens
        .filter(|_| line.kind.as_deref() == Some("gemini"))
    else {
        return 0;
    };
    if before(line.timestamp.as_deref(), since) {
        return 0;
    }
    let counted = tokens
        .input
        .saturating_sub(tokens.cached)
        .saturating_add(tokens.tool.unwrap_or(0))
        .saturating_add(tokens.output)
        .saturating_add(tokens.thoughts.unwrap_or(0));
    match line.id {
        Some(id) => carry.once(&id, counted),
        None => counted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-06-15T14:02:00Z, when the fixtures' loop started.
    const SINCE: i64 = 1_781_532_120;

    fn fixture(name: &str) -> Vec<u8> {
        std::fs::read(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("fixtures/hosts")
                .join(name),
        )
        .unwrap()
    }

    #[test]
    fn since_is_the_fixtures_loop_start() {
        assert_eq!(
            "2026-06-15T14:02:00Z"
                .parse::<jiff::Timestamp>()
                .unwrap()
                .as_second(),
            SINCE
        );
    }

    #[test]
    fn claude_counts_each_message_once_from_the_loop_start_and_reads_on_from_the_cursor() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let part1 = fixture("claude/transcript.part1.jsonl");
        std::fs::write(&path, &part1).unwrap();
        let (cursor, tokens) = read(&path, None, SINCE, claude).unwrap();
        // 10 + 2000 + 300 once (two lines of one message), 5 + 700 + 985; not the
        // message before the loop, nor the half line at the end.
        assert_eq!(tokens, 4000);
        let half = part1.len() - part1.iter().rposition(|&b| b == b'\n').unwrap() - 1;
        assert_eq!(cursor.offset as usize, part1.len() - half);
        // Nothing new: nothing more.
        assert_eq!(
            read(&path, Some(&cursor), SINCE, claude).unwrap(),
            (cursor.clone(), 0)
        );

        let mut all = part1.clone();
        all.extend(fixture("claude/transcript.part2.jsonl"));
        std::fs::write(&path, &all).unwrap();
        let (after, more) = read(&path, Some(&cursor), SINCE, claude).unwrap();
        assert_eq!(more, 10_000);
        assert_eq!(after.offset as usize, all.len());

        // Another file under another name, or this one replaced: from its start.
        let other = dir.path().join("u.jsonl");
        std::fs::write(&other, &all).unwrap();
        assert_eq!(read(&other, Some(&after), SINCE, claude).unwrap().1, 14_000);
        // Renamed over it, so both inodes exist at once and cannot be the same.
        std::fs::rename(&other, &path).unwrap();
        let fresh = read(&path, Some(&after), SINCE, claude).unwrap();
        assert_eq!(fresh.1, 14_000, "a new inode is a new file");
    }

    #[test]
    fn a_repeated_message_counts_only_what_it_grew_by() {
        let mut carry = Carry::default();
        let line = |id: &str, out: u64| {
            format!(
                r#"{{"type":"assistant","timestamp":"2026-06-15T14:03:00Z","message":{{"id":"{id}","usage":{{"input_tokens":1,"cache_read_input_tokens":500,"output_tokens":{out}}}}}}}"#
            )
        };
        assert_eq!(claude(line("m1", 9).as_bytes(), SINCE, &mut carry), 10);
        assert_eq!(claude(line("m1", 9).as_bytes(), SINCE, &mut carry), 0);
        assert_eq!(claude(line("m1", 29).as_bytes(), SINCE, &mut carry), 20);
        assert_eq!(claude(line("m2", 9).as_bytes(), SINCE, &mut carry), 10);
        let user = br#"{"type":"user","message":{"content":"\"usage\""}}"#;
        assert_eq!(claude(user, SINCE, &mut carry), 0);
        assert_eq!(claude(b"{not json \"usage\"", SINCE, &mut carry), 0);
    }

    #[test]
    fn codex_counts_the_growth_of_its_totals_since_the_loop_started() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rollout.jsonl");
        let rollout = fixture("codex/rollout.jsonl");
        let cut = rollout.len() - 200;
        std::fs::write(&path, &rollout[..cut]).unwrap();
        let (cursor, first) = read(&path, None, SINCE, codex).unwrap();
        // The totals before the loop are the baseline; the repeated event adds
        // nothing; the last line is not complete yet.
        assert_eq!(first, 2000);
        assert_eq!(cursor.carry.total, Some(11_800));
        std::fs::write(&path, &rollout).unwrap();
        let (_, second) = read(&path, Some(&cursor), SINCE, codex).unwrap();
        assert_eq!(second, 2000, "read on from the cursor, not from the start");
        // Totals that start again count in full.
        let mut carry = Carry {
            total: Some(50_000),
            ..Carry::default()
        };
        let line = br#"{"timestamp":"2026-06-15T15:00:00Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":700,"cached_input_tokens":200,"output_tokens":30}}}}"#;
        assert_eq!(codex(line, SINCE, &mut carry), 530);
        let rate_only = br#"{"timestamp":"2026-06-15T15:00:01Z","type":"event_msg","payload":{"type":"token_count","info":null}}"#;
        assert_eq!(codex(rate_only, SINCE, &mut carry), 0);
    }

    #[test]
    fn gemini_counts_a_message_rewritten_once_and_no_compression_record() {
        let mut carry = Carry::default();
        let reply = |tokens: &str| {
            format!(
                r#"{{"id":"m2","timestamp":"2026-06-15T14:03:00.000Z","type":"gemini","content":[{{"text":"Done."}}],"tokens":{tokens},"model":"gemini-2.5-pro"}}"#
            )
        };
        let first = reply(
            r#"{"input":1234,"output":56,"cached":1000,"thoughts":40,"tool":0,"total":1330}"#,
        );
        assert_eq!(gemini(first.as_bytes(), SINCE, &mut carry), 330);
        // Written again as its tool call finished: nothing new.
        assert_eq!(gemini(first.as_bytes(), SINCE, &mut carry), 0);
        let lines: [&[u8]; 4] = [
            br#"{"id":"m1","timestamp":"2026-06-15T14:02:30.000Z","type":"user","content":[{"text":""tokens""}]}"#,
            br#"{"$set":{"messages":[{"id":"m9","type":"gemini","tokens":{"input":9000,"output":9,"cached":0,"total":9009}}]}}"#,
            br#"{"$set":{"lastUpdated":"2026-06-15T14:03:01.000Z"}}"#,
            br#"{"id":"m0","timestamp":"2026-06-15T13:00:00.000Z","type":"gemini","tokens":{"input":50,"output":5,"cached":0,"total":55}}"#,
        ];
        for line in lines {
            assert_eq!(gemini(line, SINCE, &mut carry), 0);
        }
    }

    #[test]
    fn a_line_longer_than_a_read_is_skipped_not_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.jsonl");
        let mut text = vec![b'x'; MAX_READ as usize + 10];
        text.push(b'\n');
        text.extend_from_slice(
            br#"{"type":"assistant","message":{"id":"m","usage":{"output_tokens":7}}}"#,
        );
        text.push(b'\n');
        std::fs::write(&path, &text).unwrap();
        let (cursor, tokens) = read(&path, None, SINCE, claude).unwrap();
        assert_eq!((cursor.offset, tokens), (MAX_READ, 0));
        let (cursor, tokens) = read(&path, Some(&cursor), SINCE, claude).unwrap();
        assert_eq!((cursor.offset as usize, tokens), (text.len(), 7));
    }

    #[test]
    fn only_a_regular_file_is_read() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("p");
        rustix::fs::mkfifoat(
            rustix::fs::CWD,
            &fifo,
            rustix::fs::Mode::from_raw_mode(0o600),
        )
        .unwrap();
        assert!(read(&fifo, None, SINCE, claude).is_err());
        assert!(read(&dir.path().join("none"), None, SINCE, claude).is_err());
    }
}

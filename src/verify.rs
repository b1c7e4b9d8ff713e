//! The verify mini-language — words with shell-like quoting, `|` and `&&`, nothing
//! expanded, every other shell operator refused — and running it through exec.
//! Never hands anything to a shell.

use std::fmt;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

use anyhow::Result;

use crate::exec::{self, GRACE, SpawnError, Spec};

mod cannot_fail;
mod programs;
pub use cannot_fail::cannot_fail;
pub use programs::{missing, refuse_missing, warn_missing, warn_shell_words};

/// Pipelines run in order while each passes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verify {
    pub chain: Vec<Pipeline>,
}

/// Commands whose stdout feeds the next one's stdin; each an argv.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pipeline {
    pub commands: Vec<Vec<String>>,
}

/// Why a verify line was refused. `column` is 1-based, in bytes of the line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifyError {
    pub message: String,
    pub column: usize,
    pub hint: String,
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "verify: {}\n  hint: {}", self.message, self.hint)
    }
}

impl std::error::Error for VerifyError {}

/// How a verify ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Outcome {
    pub passed: bool,
    /// The last pipeline's exit code; `None` when it timed out, was killed by a
    /// signal or could not be started.
    pub exit_code: Option<i32>,
    pub timed_out: bool,
    /// The last bytes of everything run printed, stdout and stderr together, and
    /// plan's own notes on why it stopped.
    pub tail: String,
    /// The pipeline that failed, written back as a verify line.
    pub failed_command: Option<String>,
    /// It exited 0, but its test runner said it ran no test: what said so.
    pub ran_no_test: Option<String>,
}

impl Outcome {
    /// Why a failed run failed, naming the pipeline: `verify` is the whole line, for
    /// when no single pipeline is to blame; `timeout` how long it was given.
    pub fn why_failed(&self, verify: &str, timeout: Duration) -> String {
        let command = self.failed_command.as_deref().unwrap_or(verify);
        if let Some(said) = &self.ran_no_test {
            format!(
                "`{command}` ran no test (its runner said `{said}`): a check that runs nothing cannot fail"
            )
        } else if self.timed_out {
            format!("`{command}` timed out after {}s", timeout.as_secs())
        } else {
            match self.exit_code {
                Some(code) => format!("`{command}` exited {code}"),
                None => format!("`{command}` did not finish"),
            }
        }
    }
}

const NO_SHELL: &str = "is not supported (verify runs without a shell)";

/// A verify line parsed, or refused with the one message `plan complete` and
/// `plan add --verify` both give: `PLACE: verify: why` and a hint, exit 2.
pub fn parse_at(line: &str, place: &str) -> Result<Verify> {
    parse(line).map_err(|e| crate::exit::Exit::usage(format!("{place}: {e}")))
}

pub fn parse(line: &str) -> Result<Verify, VerifyError> {
    let mut chain = Vec::new();
    let mut commands = Vec::new();
    let mut argv: Vec<String> = Vec::new();
    let mut last_op = None;
    for token in tokenize(line)? {
        match token {
            Token::Word {
                text,
                column,
                assignment,
            } => {
                if argv.is_empty() && assignment {
                    return Err(VerifyError {
                        message: format!(
                            "environment assignment \"{text}\" at column {column} {NO_SHELL}"
                        ),
                        column,
                        hint: format!("use env: `env {text} command ...`"),
                    });
                }
                argv.push(text);
            }
            Token::Op { op, column } => {
                if argv.is_empty() {
                    return Err(empty_side(op, column, "before"));
                }
                commands.push(std::mem::take(&mut argv));
                if op == "&&" {
                    chain.push(Pipeline {
                        commands: std::mem::take(&mut commands),
                    });
                }
                last_op = Some((op, column));
            }
        }
    }
    if argv.is_empty() {
        return Err(match last_op {
            Some((op, column)) => empty_side(op, column, "after"),
            None => VerifyError {
                message: "nothing to run".to_string(),
                column: 1,
                hint: "write a command, e.g. `verify: cargo test`".to_string(),
            },
        });
    }
    commands.push(argv);
    chain.push(Pipeline { commands });
    Ok(Verify { chain })
}

fn empty_side(op: &str, column: usize, side: &str) -> VerifyError {
    VerifyError {
        message: format!("\"{op}\" at column {column} has no command {side} it"),
        column,
        hint: format!("write a command on each side of \"{op}\", or remove it"),
    }
}

enum Token {
    Word {
        text: String,
        column: usize,
        /// Looks like `NAME=value`, which a shell would put in the environment.
        assignment: bool,
    },
    Op {
        op: &'static str,
        column: usize,
    },
}

/// A word being read: where it started, and whether it is so far unquoted digits
/// (which make `2>` one redirection token).
struct Partial {
    text: String,
    start: usize,
    digits: bool,
}

impl Partial {
    fn finish(self, line: &str, end: usize) -> Token {
        let raw = &line[self.start..end];
        let assignment = raw.split_once('=').is_some_and(|(name, _)| {
            name.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_')
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        Token::Word {
            text: self.text,
            column: self.start + 1,
            assignment,
        }
    }
}

fn tokenize(line: &str) -> Result<Vec<Token>, VerifyError> {
    // The contract's fingerprint reads every whitespace run as one space; the
    // command splits words at spaces and tabs alone. A space of another kind
    // would change what runs and leave the fingerprint as it was.
    if let Some((at, c)) = line
        .char_indices()
        .find(|&(_, c)| c.is_whitespace() && !matches!(c, ' ' | '\t' | '\n' | '\r'))
    {
        let column = at + 1;
        return Err(VerifyError {
            message: format!(
                "U+{:04X} at column {column} looks like a space but is not one",
                u32::from(c)
            ),
            column,
            hint: "write a plain space; to match the character itself, write it as an escape the program reads (`grep -P '\\x{00A0}'`)".to_string(),
        });
    }
    let mut tokens = Vec::new();
    let mut word: Option<Partial> = None;
    let mut chars = line.char_indices().peekable();
    let start = |at| Partial {
        text: String::new(),
        start: at,
        digits: true,
    };
    while let Some((at, c)) = chars.next() {
        match c {
            ' ' | '\t' | '\n' | '\r' => {
                if let Some(w) = word.take() {
                    tokens.push(w.finish(line, at));
                }
            }
            '\'' => {
                let w = word.get_or_insert_with(|| start(at));
                w.digits = false;
                loop {
                    match chars.next() {
                        Some((_, '\'')) => break,
                        Some((_, c)) => w.text.push(c),
                        None => return Err(unmatched("single", at)),
                    }
                }
            }
            '"' => {
                let w = word.get_or_insert_with(|| start(at));
                w.digits = false;
                loop {
                    match chars.next() {
                        Some((_, '"')) => break,
                        Some((_, '\\')) => match chars.peek() {
                            Some(&(_, next @ ('"' | '\\' | '$' | '`'))) => {
                                w.text.push(next);
                                chars.next();
                            }
                            _ => w.text.push('\\'),
                        },
                        Some((_, c)) => w.text.push(c),
                        None => return Err(unmatched("double", at)),
                    }
                }
            }
            '\\' => {
                let w = word.get_or_insert_with(|| start(at));
                w.digits = false;
                match chars.next() {
                    Some((_, c)) => w.text.push(c),
                    None => {
                        return Err(VerifyError {
                            message: format!("backslash at column {} escapes nothing", at + 1),
                            column: at + 1,
                            hint: "remove it, or write \\\\ for a backslash".to_string(),
                        });
                    }
                }
            }
            '|' | '&' | ';' | '<' | '>' => {
                let rest = &line[at..];
                let op = if rest.starts_with("&&") {
                    "&&"
                } else if rest.starts_with('|')
                    && !rest.starts_with("||")
                    && !rest.starts_with("|&")
                {
                    "|"
                } else {
                    let prefix = word.as_ref().filter(|w| w.digits && !w.text.is_empty());
                    return Err(refused(line, at, prefix.map(|w| w.start)));
                };
                if let Some(w) = word.take() {
                    tokens.push(w.finish(line, at));
                }
                tokens.push(Token::Op { op, column: at + 1 });
                if op == "&&" {
                    chars.next();
                }
            }
            c => {
                let w = word.get_or_insert_with(|| start(at));
                w.digits &= c.is_ascii_digit();
                w.text.push(c);
            }
        }
    }
    if let Some(w) = word.take() {
        tokens.push(w.finish(line, line.len()));
    }
    Ok(tokens)
}

fn unmatched(kind: &str, at: usize) -> VerifyError {
    VerifyError {
        message: format!("unmatched {kind} quote at column {}", at + 1),
        column: at + 1,
        hint: "close the quote, or escape the quote character with a backslash".to_string(),
    }
}

/// The refusal for the shell operator at `at`; `digits` is where a file-descriptor
/// number before a redirection starts (`2>`).
fn refused(line: &str, at: usize, digits: Option<usize>) -> VerifyError {
    let rest = &line[at..];
    let longest = |ops: &[&'static str]| *ops.iter().find(|op| rest.starts_with(**op)).unwrap();
    let (what, op, hint) = match rest.as_bytes()[0] {
        b'|' => (
            "operator",
            longest(&["||", "|&"]),
            if rest.starts_with("||") {
                "verify passes only when every command passes; put fallbacks in a script"
            } else {
                "use | to pipe stdout; to pipe stderr too, wrap it in a script"
            },
        ),
        b';' => ("operator", ";", "use && to run commands one after another"),
        b'&' if rest.starts_with("&>") => (
            "redirection",
            longest(&["&>>", "&>"]),
            "write the output to a file in the command itself, or wrap it in a script",
        ),
        b'&' => (
            "background operator",
            "&",
            "verify waits for every command; use && to chain them, or wrap it in a script",
        ),
        b'<' => (
            "redirection",
            longest(&["<<<", "<<-", "<<", "<&", "<>", "<"]),
            "pass the file as an argument, or wrap it in a script",
        ),
        _ => (
            "redirection",
            longest(&[">>", ">&", ">|", ">"]),
            "write the output to a file in the command itself, or wrap it in a script",
        ),
    };
    let mut end = at + op.len();
    if op.ends_with('&') && what == "redirection" {
        end += line[end..]
            .find(|c: char| !(c.is_ascii_digit() || c == '-'))
            .unwrap_or(line.len() - end);
    }
    let start = digits.unwrap_or(at);
    let token = &line[start..end];
    VerifyError {
        message: format!("{what} \"{token}\" at column {} {NO_SHELL}", start + 1),
        column: start + 1,
        hint: hint.to_string(),
    }
}

impl fmt::Display for Verify {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, pipeline) in self.chain.iter().enumerate() {
            if i > 0 {
                f.write_str(" && ")?;
            }
            write!(f, "{pipeline}")?;
        }
        Ok(())
    }
}

/// Written back so that it parses to the same commands, and means the same to sh.
impl fmt::Display for Pipeline {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, argv) in self.commands.iter().enumerate() {
            if i > 0 {
                f.write_str(" | ")?;
            }
            for (j, word) in argv.iter().enumerate() {
                if j > 0 {
                    f.write_str(" ")?;
                }
                write_word(f, word, j == 0)?;
            }
        }
        Ok(())
    }
}

fn write_word(f: &mut fmt::Formatter<'_>, word: &str, first: bool) -> fmt::Result {
    let safe =
        |c: char| c.is_ascii_alphanumeric() || "-_./:,+@%^".contains(c) || (c == '=' && !first);
    if !word.is_empty() && word.chars().all(safe) {
        f.write_str(word)
    } else {
        write!(f, "'{}'", word.replace('\'', r"'\''"))
    }
}

/// Runs the pipelines in order, stopping at the first that fails, all under one
/// deadline `timeout` from now.
pub fn run(verify: &Verify, cwd: &Path, timeout: Duration, tail_bytes: usize) -> Result<Outcome> {
    run_in(verify, cwd, timeout, tail_bytes, None)
}

/// As [`run`], with nothing of plan's own environment but `clean` (names and
/// values): a re-run in CI that must not hand the judge's key to the code it checks.
pub fn run_clean(
    verify: &Verify,
    cwd: &Path,
    timeout: Duration,
    tail_bytes: usize,
    clean: Vec<(String, String)>,
) -> Result<Outcome> {
    run_in(verify, cwd, timeout, tail_bytes, Some(clean))
}

fn run_in(
    verify: &Verify,
    cwd: &Path,
    timeout: Duration,
    tail_bytes: usize,
    clean: Option<Vec<(String, String)>>,
) -> Result<Outcome> {
    let deadline = exec::deadline(timeout);
    // Python reads bytecode from a fresh directory of its own, never a
    // `__pycache__` in the tree: a pyc there (an unchecked-hash one, or one whose
    // recorded mtime was forged) would run in place of the source it claims to be.
    // Written there too (PYTHONDONTWRITEBYTECODE emptied), so the run's later
    // processes reuse what its first compiled. In the gate's clean run, under its
    // scratch TMPDIR.
    let parent = clean
        .as_ref()
        .and_then(|env| env.iter().find(|(k, _)| k == "TMPDIR"))
        .map_or_else(std::env::temp_dir, |(_, dir)| dir.into());
    // Where no directory can be made there (a TMPDIR that is gone), a prefix
    // that can never be one: Python then reads and keeps no bytecode at all, and a
    // verify that is not Python is not failed for it.
    let pycache = crate::exec::Scratch::new_in(
        "plan-pycache-",
        &std::path::absolute(&parent).unwrap_or(parent),
    )
    .ok();
    let prefix = pycache
        .as_ref()
        .and_then(|dir| dir.path().to_str())
        .unwrap_or("/dev/null/plan-pycache");
    let mut env = clean.clone().unwrap_or_default();
    env.push(("PYTHONPYCACHEPREFIX".to_string(), prefix.to_string()));
    env.push(("PYTHONDONTWRITEBYTECODE".to_string(), String::new()));
    let mut tail = Tail {
        bytes: Vec::new(),
        cap: tail_bytes,
        cut: false,
    };
    for pipeline in &verify.chain {
        let spec = Spec {
            commands: pipeline.commands.clone(),
            cwd: cwd.to_path_buf(),
            clean_env: clean.is_some(),
            env: env.clone(),
            stdin: None,
            deadline,
            grace: GRACE,
            tail_bytes,
            whole: false,
        };
        let failed = |tail: Tail, exit_code, timed_out| Outcome {
            passed: false,
            exit_code,
            timed_out,
            tail: tail.text(),
            failed_command: Some(pipeline.to_string()),
            ran_no_test: None,
        };
        let output = match exec::run(&spec) {
            Ok(output) => output,
            Err(e) => match e.downcast::<SpawnError>() {
                Ok(spawn) => {
                    tail.note(&format!(
                        "verify: cannot run {:?}: {}",
                        spawn.program,
                        spawn.reason()
                    ));
                    return Ok(failed(tail, None, false));
                }
                Err(e) => return Err(e),
            },
        };
        tail.push(&output.combined);
        tail.cut |= output.combined.len() >= tail_bytes;
        if output.timed_out {
            tail.note(&format!("verify: timed out after {timeout:?}"));
            return Ok(failed(tail, None, true));
        }
        if let Some((i, status)) = first_failure(&output.statuses) {
            let code = status.and_then(|s| s.code());
            let signal = status.and_then(|s| s.signal());
            if let Some(signal) = signal {
                tail.note(&format!("verify: killed by signal {signal}"));
            }
            if i + 1 < output.statuses.len() {
                let command = Pipeline {
                    commands: vec![pipeline.commands[i].clone()],
                };
                let how = code.map_or("failed".to_string(), |c| format!("exited {c}"));
                tail.note(&format!("verify: `{command}` {how} inside the pipeline"));
            }
            return Ok(failed(tail, code, false));
        }
    }
    // The whole line's output, and only when held whole: `nextest run && cargo test
    // --doc` ran tests though its second step ran none, and an output cut to its
    // end has lost its first summaries (cargo's last, the doc tests', is often 0).
    if !tail.cut
        && let Some(said) = ran_no_test(&String::from_utf8_lossy(&tail.bytes))
    {
        tail.note("verify: ran no test");
        return Ok(Outcome {
            passed: false,
            exit_code: Some(0),
            timed_out: false,
            tail: tail.text(),
            failed_command: None,
            ran_no_test: Some(said),
        });
    }
    Ok(Outcome {
        passed: true,
        exit_code: Some(0),
        timed_out: false,
        tail: tail.text(),
        failed_command: None,
        ran_no_test: None,
    })
}

/// The line of a test runner's summary that says a verify that exited 0 ran no
/// test, when nothing in its whole `output` says one ran: cargo's `test result: ok. 0 passed` on
/// every binary, unittest's `Ran 0 tests`, pytest's `no tests ran`, node's `# tests
/// 0`, go's `[no test files]`. A test module switched off by a `cfg`, a pattern
/// that matches nothing, `--passWithNoTests`: the check passed without checking.
fn ran_no_test(output: &str) -> Option<String> {
    let mut none = None;
    for line in output.lines() {
        let line = strip_ansi(line);
        let line = line.trim();
        let number = |after: &str| -> Option<u64> {
            let rest = &line[line.find(after)? + after.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        };
        let said = if line.starts_with("test result: ") {
            // `N passed; M failed; K ignored`: only a passed test ran and passed.
            number("test result: ok. ").map(|n| n == 0)
        } else if line.starts_with("Ran ") && line.contains(" test") {
            number("Ran ").map(|n| n == 0)
        } else if line.starts_with("# tests ") || line.starts_with("ℹ tests ") {
            number("tests ").map(|n| n == 0)
        } else if line.contains(" tests run: ") {
            // nextest's `Summary [0.1s] 3 tests run: 3 passed, 0 skipped`.
            number(" tests run: ").map(|n| n == 0)
        } else if line.starts_with("Tests") && line.contains(" passed") {
            // jest's `Tests: 3 passed, 3 total`, vitest's `Tests  3 passed (3)`.
            let count = line["Tests".len()..].trim_start_matches([':', ' ']);
            let digits: String = count.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u64>().ok().map(|n| n == 0)
        } else if line
            .trim_start_matches('=')
            .trim()
            .starts_with(|c: char| c.is_ascii_digit())
            && (line.contains(" passed") || line.contains(" passing"))
        {
            // pytest's `=== 3 passed in 0.1s ===` or, with -q, `3 passed in 0.1s`;
            // mocha's `3 passing`, and `0 passing`.
            let n = line.trim_start_matches('=').trim();
            let digits: String = n.chars().take_while(char::is_ascii_digit).collect();
            digits.parse::<u64>().ok().map(|n| n == 0)
        } else if line.contains("no tests ran")
            || line.contains("No tests found")
            || line.contains("No test files found")
        {
            Some(true)
        } else if line.starts_with("ok  \t") || line.starts_with("ok\t") {
            // go's package line.
            Some(line.contains("[no tests to run]"))
        } else if line.starts_with("ok ") && leading_after_ok(line) {
            // TAP's `ok 1 - name`.
            Some(false)
        } else if line.ends_with("[no test files]") {
            Some(true)
        } else {
            None
        };
        match said {
            Some(true) => none = none.or_else(|| Some(line.to_string())),
            Some(false) => return None,
            None => {}
        }
    }
    none
}

/// Whether a line starting `ok ` goes on with a test's number, as TAP's do.
fn leading_after_ok(line: &str) -> bool {
    line[3..].starts_with(|c: char| c.is_ascii_digit())
}

/// `line` without its terminal colour codes (`ESC [ … m`): a coloured summary
/// reads as a plain one.
fn strip_ansi(line: &str) -> std::borrow::Cow<'_, str> {
    if !line.contains('\u{1b}') {
        return std::borrow::Cow::Borrowed(line);
    }
    let mut out = String::with_capacity(line.len());
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            for d in chars.by_ref() {
                if d.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// The first command of a pipeline that failed, like a shell's `pipefail`: a test
/// runner piped into `tee` must not pass because `tee` did. An upstream command
/// ended by SIGPIPE (`yes | head -n 1`) stopped because its reader was done, which
/// is no failure.
fn first_failure(statuses: &[Option<ExitStatus>]) -> Option<(usize, Option<ExitStatus>)> {
    const SIGPIPE: i32 = 13;
    let last = statuses.len().saturating_sub(1);
    statuses
        .iter()
        .enumerate()
        .find_map(|(i, status)| match status {
            Some(s) if s.success() => None,
            Some(s) if i < last && s.signal() == Some(SIGPIPE) => None,
            other => Some((i, *other)),
        })
}

/// The last `cap` bytes of everything run, across pipelines.
struct Tail {
    bytes: Vec<u8>,
    cap: usize,
    /// More came than `cap`: `bytes` is the end only.
    cut: bool,
}

impl Tail {
    fn push(&mut self, bytes: &[u8]) {
        self.bytes.extend_from_slice(bytes);
        let excess = self.bytes.len().saturating_sub(self.cap);
        self.cut |= excess > 0;
        self.bytes.drain(..excess);
    }

    /// A line of plan's own, on a line of its own.
    fn note(&mut self, text: &str) {
        if self.bytes.last().is_some_and(|&b| b != b'\n') {
            self.push(b"\n");
        }
        self.push(text.as_bytes());
        self.push(b"\n");
    }

    /// Lossy UTF-8, cut to a character boundary, never over `cap` bytes even when
    /// replacement characters are wider than the bytes they replace.
    fn text(&self) -> String {
        let start = self
            .bytes
            .iter()
            .take(3)
            .take_while(|&&b| b & 0xC0 == 0x80)
            .count();
        let text = String::from_utf8_lossy(&self.bytes[start..]);
        let mut cut = text.len().saturating_sub(self.cap);
        while !text.is_char_boundary(cut) {
            cut += 1;
        }
        text[cut..].to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::time::Instant;

    use proptest::prelude::*;

    use crate::exec::tests::{assert_gone, fixture};

    fn words(line: &str) -> Vec<Vec<Vec<String>>> {
        parse(line)
            .unwrap()
            .chain
            .into_iter()
            .map(|p| p.commands)
            .collect()
    }

    /// The one command `line` parses to.
    fn argv(line: &str) -> Vec<String> {
        let mut chain = words(line);
        assert_eq!(chain.len(), 1);
        assert_eq!(chain[0].len(), 1);
        chain.remove(0).remove(0)
    }

    fn err(line: &str) -> VerifyError {
        parse(line).unwrap_err()
    }

    /// A run that exited 0 and says it ran no test is none; one that says it ran
    /// some, anywhere in its output, is.
    #[test]
    fn a_runner_that_says_it_ran_no_test_is_found() {
        let none = [
            "running 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n   Doc-tests x\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
            "test result: ok. 0 passed; 0 failed; 3 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
            "\n----------------------------------------------------------------------\nRan 0 tests in 0.000s\n\nOK\n",
            "============================ no tests ran in 0.01s =============================\n",
            "ℹ tests 0\nℹ suites 0\nℹ pass 0\n",
            "?   \texample.com/x\t[no test files]\n",
            "ok  \texample.com/x\t0.002s [no tests to run]\n",
            "No test files found, exiting with code 0\n",
            "  0 passing (1ms)\n",
            "Tests: 0 passed, 0 total\n",
            "\u{1b}[32mtest result: ok\u{1b}[0m. 0 passed; 0 failed; 0 ignored\n",
            "ok - loaded\ntest result: ok. 0 passed; 0 failed; 0 ignored\n",
        ];
        for output in none {
            assert!(ran_no_test(output).is_some(), "{output}");
        }
        let some = [
            "running 2 tests\ntest a ... ok\ntest b ... ok\n\ntest result: ok. 2 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n\n   Doc-tests x\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
            "Ran 1 test in 0.001s\n\nOK\n",
            "============================== 3 passed in 0.02s ===============================\n",
            "Tests:       4 passed, 4 total\n",
            "ℹ tests 5\nℹ pass 5\n",
            "?   \texample.com/x/cmd\t[no test files]\nok  \texample.com/x\t0.004s\n",
            // A line with tests and a step with none: the nextest recipe.
            "     Summary [   0.010s] 3 tests run: 3 passed, 0 skipped\n   Doc-tests x\n\nrunning 0 tests\n\ntest result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n",
            "3 passed in 0.01s\ntest result: ok. 0 passed; 0 failed; 0 ignored\n",
            " Tests  3 passed (3)\n",
            "  3 passing (4ms)\n",
            "ok 1 - adds\n",
            "built\n",
            "",
        ];
        for output in some {
            assert_eq!(ran_no_test(output), None, "{output}");
        }
    }

    #[test]
    fn quoting_joins_parts_into_one_word() {
        assert_eq!(argv(r#"a"b c"d"#), ["ab cd"]);
        assert_eq!(argv(r"a\ b 'c\d' x"), ["a b", r"c\d", "x"]);
        assert_eq!(argv(r#"p "q\"r\\s\$t\`u\v""#), ["p", r#"q"r\s$t`u\v"#]);
        assert_eq!(argv(r#"printf '' "" x"#), ["printf", "", "", "x"]);
        assert_eq!(argv("  \tspaced \t out  "), ["spaced", "out"]);
        assert_eq!(argv("'it'\\''s'"), ["it's"]);
        assert_eq!(argv("héllo 'wörld'"), ["héllo", "wörld"]);
    }

    #[test]
    fn and_and_pipe_split_commands() {
        assert_eq!(
            words("a | b c && d"),
            [vec![vec!["a"], vec!["b", "c"]], vec![vec!["d"]]]
        );
        assert_eq!(
            words("a|b&&c|d|e"),
            [
                vec![vec!["a"], vec!["b"]],
                vec![vec!["c"], vec!["d"], vec!["e"]]
            ]
        );
    }

    #[test]
    fn nothing_is_expanded() {
        assert_eq!(
            argv("echo $HOME $(touch x) `id` * ? ~ {a,b} # ! ( ) [x] ${Y}"),
            [
                "echo", "$HOME", "$(touch", "x)", "`id`", "*", "?", "~", "{a,b}", "#", "!", "(",
                ")", "[x]", "${Y}"
            ]
        );
    }

    #[test]
    fn quoted_operators_are_arguments() {
        assert_eq!(
            argv(r#"x 'a > b' "c | d" \; \& \| \> '&&' 2'>'1"#),
            ["x", "a > b", "c | d", ";", "&", "|", ">", "&&", "2>1"]
        );
        assert_eq!(
            argv("cargo --features=a,b x=1"),
            ["cargo", "--features=a,b", "x=1"]
        );
        assert_eq!(argv("'FOO=1' x"), ["FOO=1", "x"]);
    }

    #[test]
    fn the_redirection_error_reads_well() {
        assert_eq!(
            err("cargo test > log").to_string(),
            "verify: redirection \">\" at column 12 is not supported (verify runs without a shell)\n  hint: write the output to a file in the command itself, or wrap it in a script"
        );
    }

    #[test]
    fn every_shell_operator_is_refused_by_name_and_column() {
        let cases = [
            ("echo hi > out", ">", 9),
            ("echo hi >> out", ">>", 9),
            ("echo hi >| out", ">|", 9),
            ("cat < in", "<", 5),
            ("cat <<EOF", "<<", 5),
            ("cat <<< word", "<<<", 5),
            ("cmd 2>&1", "2>&1", 5),
            ("cmd 2> err", "2>", 5),
            ("cmd 12>>err", "12>>", 5),
            ("cmd >&2", ">&2", 5),
            ("cmd &> all", "&>", 5),
            ("cmd &>> all", "&>>", 5),
            ("a ; b", ";", 3),
            ("a;", ";", 2),
            ("a || b", "||", 3),
            ("a &", "&", 3),
            ("a & b", "&", 3),
            ("a |& b", "|&", 3),
            ("a>b", ">", 2),
            ("a2>b", ">", 3),
            ("'2'>b", ">", 4),
            ("é > x", ">", 4),
            ("ok && cmd <(x)", "<", 11),
        ];
        for (line, token, column) in cases {
            let e = err(line);
            assert_eq!(e.column, column, "{line}");
            assert!(
                e.message
                    .contains(&format!("\"{token}\" at column {column} is not supported")),
                "{line}: {}",
                e.message
            );
            assert!(!e.hint.is_empty(), "{line}");
        }
        assert!(err("a ; b").hint.contains("&&"));
        assert!(err("a & b").message.starts_with("background operator"));
        assert!(err("cat < in").message.starts_with("redirection"));
    }

    #[test]
    fn a_space_of_another_kind_is_refused() {
        let nbsp = err("python3 -m pytest\u{a0}-q tests");
        assert_eq!(
            (nbsp.message.as_str(), nbsp.column),
            ("U+00A0 at column 18 looks like a space but is not one", 18)
        );
        assert_eq!(
            err("grep -q 'a\u{3000}b' f").message,
            "U+3000 at column 11 looks like a space but is not one"
        );
        assert_eq!(
            crate::verify::parse("grep -q\t'a b'  f")
                .unwrap()
                .to_string(),
            "grep -q 'a b' f"
        );
    }

    #[test]
    fn unmatched_quotes_are_refused() {
        let single = err("echo 'abc");
        assert_eq!(single.message, "unmatched single quote at column 6");
        assert_eq!(single.column, 6);
        let double = err(r#"echo "abc\""#);
        assert_eq!(double.message, "unmatched double quote at column 6");
        assert_eq!(
            err("echo x\\").message,
            "backslash at column 7 escapes nothing"
        );
    }

    #[test]
    fn empty_commands_are_refused() {
        let cases = [
            ("a && && b", "\"&&\" at column 6 has no command before it"),
            ("| a", "\"|\" at column 1 has no command before it"),
            ("a |", "\"|\" at column 3 has no command after it"),
            ("a && b &&", "\"&&\" at column 8 has no command after it"),
            ("a | && b", "\"&&\" at column 5 has no command before it"),
            ("", "nothing to run"),
            ("  \t ", "nothing to run"),
        ];
        for (line, message) in cases {
            assert_eq!(err(line).message, message, "{line}");
        }
    }

    #[test]
    fn environment_assignments_are_refused() {
        let e = err("RUST_LOG=debug cargo test");
        assert_eq!(
            e.message,
            "environment assignment \"RUST_LOG=debug\" at column 1 is not supported (verify runs without a shell)"
        );
        assert_eq!(e.hint, "use env: `env RUST_LOG=debug command ...`");
        assert_eq!(err("a | B=1 b").column, 5);
        assert_eq!(argv("env A=1 cmd"), ["env", "A=1", "cmd"]);
    }

    #[test]
    fn display_writes_a_line_sh_would_read_the_same() {
        let v = parse(r#"printf '%s|' "a b" it\'s '' && 'x=1' | cargo --f=1 '$HOME'"#).unwrap();
        assert_eq!(
            v.to_string(),
            r"printf '%s|' 'a b' 'it'\''s' '' && 'x=1' | cargo --f=1 '$HOME'"
        );
        assert_eq!(parse(&v.to_string()).unwrap(), v);
    }

    proptest! {
        #[test]
        fn display_round_trips(chain in prop::collection::vec(
            prop::collection::vec(prop::collection::vec(".*", 1..4), 1..3),
            1..3,
        )) {
            let v = Verify {
                chain: chain.into_iter().map(|commands| Pipeline { commands }).collect(),
            };
            // A space of another kind is refused in any line (see `tokenize`).
            let words = v.chain.iter().flat_map(|p| &p.commands).flatten();
            prop_assume!(!words.flat_map(|w| w.chars()).any(|c| c.is_whitespace()
                && !matches!(c, ' ' | '\t' | '\n' | '\r')));
            prop_assert_eq!(parse(&v.to_string()).unwrap(), v);
        }

        #[test]
        fn parse_never_panics(line in ".*") {
            let _ = parse(&line);
        }

        /// The fuzz target's invariant (fuzz/fuzz_targets/verify_tokenize.rs): an
        /// accepted line is written back as one that parses the same; a refusal
        /// points into the line.
        #[test]
        fn accepted_lines_round_trip(line in "([a-z]{1,3}|'[^']{0,3}'|\"[^\"]{0,3}\"|\\\\.| |&&|\\||;|>|=|#){0,12}") {
            match parse(&line) {
                Ok(v) => prop_assert_eq!(parse(&v.to_string()).unwrap(), v),
                Err(e) => prop_assert!(e.column >= 1 && e.column <= line.len() + 1, "{:?}", e),
            }
        }
    }

    #[test]
    fn tail_text_is_cut_at_a_character_and_never_over_the_cap() {
        let mut tail = Tail {
            bytes: Vec::new(),
            cap: 5,
            cut: false,
        };
        tail.push("€€".as_bytes());
        assert_eq!(tail.text(), "€");
        tail.push(b"\xff\xfe");
        let text = tail.text();
        assert!(text.len() <= 5, "{text:?}");
        assert!(text.ends_with('\u{fffd}'));
        tail.note("x");
        assert_eq!(tail.text(), "\nx\n");
    }

    const LONG: Duration = Duration::from_secs(30);
    const CAP: usize = 64 * 1024;

    fn check(line: &str, dir: &Path) -> Outcome {
        run(&parse(line).unwrap(), dir, LONG, CAP).unwrap()
    }

    #[test]
    fn a_chain_runs_in_order_and_stops_at_the_first_failure() {
        let dir = tempfile::tempdir().unwrap();
        let record = fixture("record.sh");
        let log = dir.path().join("record.log");

        let ok = check(
            &format!("{record} a && {record} b && {record} c"),
            dir.path(),
        );
        assert!(ok.passed);
        assert_eq!(ok.exit_code, Some(0));
        assert_eq!(ok.failed_command, None);
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "a\nb\nc\n");

        std::fs::remove_file(&log).unwrap();
        let failed = check(
            &format!("{record} a && {record} b 4 && {record} c"),
            dir.path(),
        );
        assert!(!failed.passed);
        assert!(!failed.timed_out);
        assert_eq!(failed.exit_code, Some(4));
        assert_eq!(failed.failed_command, Some(format!("{record} b 4")));
        assert_eq!(std::fs::read_to_string(&log).unwrap(), "a\nb\n");
    }

    #[test]
    fn pipes_connect_real_programs() {
        let dir = tempfile::tempdir().unwrap();
        let count = check(r"printf 'a\nb\n' | wc -l", dir.path());
        assert!(count.passed);
        assert_eq!(count.tail.trim(), "2");
        let chain = check(
            r"printf 'x1\ny\nx2\n' | grep x | tr x z && printf done",
            dir.path(),
        );
        assert_eq!(chain.tail, "z1\nz2\ndone");
    }

    #[test]
    fn a_pipeline_fails_if_any_command_fails() {
        let dir = tempfile::tempdir().unwrap();
        let first = check("false | true", dir.path());
        assert!(!first.passed, "a failing test piped into tee must not pass");
        assert_eq!(first.exit_code, Some(1));
        assert!(
            first
                .tail
                .contains("verify: `false` exited 1 inside the pipeline"),
            "{}",
            first.tail
        );
        let last = check("true | false", dir.path());
        assert!(!last.passed);
        assert_eq!(last.failed_command.as_deref(), Some("true | false"));
        let gamed = check("sh -c 'echo FAILED; exit 1' | cat", dir.path());
        assert!(!gamed.passed);
    }

    #[test]
    fn an_upstream_command_ended_by_sigpipe_is_no_failure() {
        let dir = tempfile::tempdir().unwrap();
        let out = check("yes | head -n 1", dir.path());
        assert!(out.passed, "{}", out.tail);
        assert_eq!(out.tail, "y\n");
    }

    #[test]
    fn quoted_arguments_arrive_whole() {
        let dir = tempfile::tempdir().unwrap();
        let out = check(r#"printf '%s|' "a b" 'c d'"#, dir.path());
        assert_eq!(out.tail, "a b|c d|");
    }

    #[test]
    fn command_substitution_runs_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let dollar = check("echo $(touch pwned)", dir.path());
        assert_eq!(dollar.tail, "$(touch pwned)\n");
        let backticks = check("echo `touch pwned`", dir.path());
        assert_eq!(backticks.tail, "`touch pwned`\n");
        assert!(!dir.path().join("pwned").exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }

    #[test]
    fn variables_globs_and_tildes_are_passed_literally() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("file"), "").unwrap();
        let out = check(r"printf '%s\n' $HOME * ~ {a,b} ? ~/x", dir.path());
        assert_eq!(out.tail, "$HOME\n*\n~\n{a,b}\n?\n~/x\n");
    }

    #[test]
    fn stderr_and_exit_codes_are_reported() {
        let dir = tempfile::tempdir().unwrap();
        let out = check(&format!("{} 7", fixture("streams.sh")), dir.path());
        assert!(!out.passed);
        assert_eq!(out.exit_code, Some(7));
        assert!(
            out.tail.contains("out\n") && out.tail.contains("err\n"),
            "{}",
            out.tail
        );
    }

    #[test]
    fn a_program_not_found_fails_the_pipeline_with_a_note() {
        let dir = tempfile::tempdir().unwrap();
        let out = check("printf x && printf y | no-such-program-xyz", dir.path());
        assert!(!out.passed);
        assert!(!out.timed_out);
        assert_eq!(out.exit_code, None);
        assert_eq!(
            out.tail,
            "x\nverify: cannot run \"no-such-program-xyz\": not found\n"
        );
        assert_eq!(
            out.failed_command.as_deref(),
            Some("printf y | no-such-program-xyz")
        );
    }

    #[test]
    fn a_missing_directory_is_an_error_not_a_failure() {
        let v = parse("true").unwrap();
        assert!(run(&v, Path::new("/no/such/dir"), LONG, CAP).is_err());
    }

    #[test]
    fn a_signal_is_noted() {
        let dir = tempfile::tempdir().unwrap();
        let out = check("sh -c 'kill -9 $$'", dir.path());
        assert!(!out.passed);
        assert_eq!(out.exit_code, None);
        assert_eq!(out.tail, "verify: killed by signal 9\n");
    }

    #[test]
    fn stdin_is_closed() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let out = check("cat", dir.path());
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(out.passed);
        assert_eq!(out.tail, "");
    }

    #[test]
    fn a_timeout_kills_grandchildren_that_ignore_term() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let v = parse(&fixture("grandchild.sh")).unwrap();
        let out = run(&v, dir.path(), Duration::from_secs(1), CAP).unwrap();
        let took = start.elapsed();
        assert!(out.timed_out);
        assert!(!out.passed);
        assert_eq!(out.exit_code, None);
        assert_eq!(out.tail, "started\nverify: timed out after 1s\n");
        assert!(
            took < Duration::from_secs(1) + GRACE + Duration::from_secs(2),
            "{took:?}"
        );
        assert_gone(&dir.path().join("grandchild.pid"));
    }

    #[test]
    fn the_whole_chain_shares_one_deadline() {
        let dir = tempfile::tempdir().unwrap();
        let start = Instant::now();
        let v = parse("sleep 0.6 && sleep 0.6 && touch late").unwrap();
        let out = run(&v, dir.path(), Duration::from_secs(1), CAP).unwrap();
        assert!(out.timed_out);
        assert_eq!(out.failed_command.as_deref(), Some("sleep 0.6"));
        assert!(start.elapsed() < Duration::from_secs(3));
        assert!(!dir.path().join("late").exists());
    }

    fn vm_hwm_kib() -> u64 {
        let status = std::fs::read_to_string("/proc/self/status").unwrap();
        let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
        line.split_whitespace().nth(1).unwrap().parse().unwrap()
    }

    #[test]
    fn a_gigabyte_of_output_keeps_only_the_tail() {
        let dir = tempfile::tempdir().unwrap();
        // Resets the peak to the current RSS, so earlier tests do not hide growth.
        let _ = std::fs::write("/proc/self/clear_refs", "5");
        let before = vm_hwm_kib();
        let start = Instant::now();
        // Wider than a read, so the tail is trimmed, not just overwritten.
        let cap = 1024 * 1024;
        let v = parse("yes | head -c 1000000000").unwrap();
        let out = run(&v, dir.path(), LONG, cap).unwrap();
        let took = start.elapsed();
        let growth = vm_hwm_kib().saturating_sub(before);
        assert!(out.passed, "{:?}", out.failed_command);
        assert_eq!(out.tail.len(), cap);
        assert!(out.tail.ends_with("y\ny\n"));
        assert!(growth < 64 * 1024, "peak RSS grew by {growth} KiB");
        assert!(took < Duration::from_secs(20), "{took:?}");
    }
}

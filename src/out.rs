//! Where commands' output goes: stdout; notes and errors go to stderr; the steps of a
//! long command go to whoever serves it ([`serving`]). The one place plan's output is
//! written (clippy's `print_stdout` and `print_stderr` hold everywhere else).

use std::cell::RefCell;
use std::io::Write;

use anyhow::Result;

/// Who hears a command's [`progress`] while [`serving`] runs it. Per thread: `plan
/// mcp` runs each tool call on its own.
struct Sink {
    progress: Box<dyn FnMut(&str)>,
    /// What [`warn`] said meanwhile: a CLI user reads it on stderr, and the agent
    /// that called the tool gets it with the result.
    notes: Vec<String>,
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Runs `f` (a tool call of `plan mcp`, which returns typed results and prints
/// nothing) with `progress` told each [`progress`] step, and stdout, which `plan mcp`
/// owns for the protocol, kept from any stray [`print`]. With its result, the notes
/// and warnings it gave (each also on stderr, the host's log).
pub fn serving<T>(progress: impl FnMut(&str) + 'static, f: impl FnOnce() -> T) -> (T, Vec<String>) {
    /// Clears the sink however `f` ends, a panic included.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            SINK.with(|s| s.borrow_mut().take());
        }
    }
    SINK.with(|s| {
        *s.borrow_mut() = Some(Sink {
            progress: Box::new(progress),
            notes: Vec::new(),
        });
    });
    let _reset = Reset;
    let result = f();
    let notes = SINK.with(|s| {
        s.borrow_mut()
            .as_mut()
            .map(|sink| std::mem::take(&mut sink.notes))
    });
    (result, notes.unwrap_or_default())
}

/// A step of a long command (a sign-off's verify, its judge), for whoever is
/// [`serving`] it; nothing otherwise: the CLI says the same on stderr.
pub fn progress(step: &str) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            (sink.progress)(step);
        }
    });
}

/// Writes to stdout; a closed pipe surfaces as an error `main` treats as success.
/// While [`serving`], stdout is the protocol: a print there is plan's bug, sent to
/// the host's log (stderr) instead.
pub fn print(text: &str) -> Result<()> {
    if SINK.with(|s| s.borrow().is_some()) {
        debug_assert!(false, "printed while serving MCP: {text}");
        warn(text.trim_end());
        return Ok(());
    }
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

pub fn println(text: &str) -> Result<()> {
    print(&format!("{text}\n"))
}

/// A line on stderr for the person: notes, warnings, the error `main` reports. `plan
/// mcp`'s stderr is the host's log. A stderr its reader closed (`plan … 2>&1 | head
/// -1`) loses the line, never the command: `eprintln!` would panic there.
pub fn warn(text: &str) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            sink.notes.push(text.to_string());
        }
    });
    stderr(text);
}

/// A step of a long command: `said` on stderr for the person, `short` as a
/// [`progress`] step for whoever serves it, which shows it as it comes, so it is
/// none of the call's notes.
pub fn step(said: &str, short: &str) {
    stderr(said);
    progress(short);
}

fn stderr(text: &str) {
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(format!("{text}\n").as_bytes());
    let _ = err.flush();
}

/// `value` as pretty JSON for a terminal or a log: serde_json escapes the C0
/// controls and leaves the C1 ones (U+0080 to U+009F, of which U+009B starts a
/// terminal's control sequence as ESC `[` does) raw; here they are escaped too.
/// JSON's own characters are ASCII, so a C1 character is always inside a string,
/// where `\u00XX` means the same character.
pub fn json(value: &impl serde::Serialize) -> serde_json::Result<String> {
    let text = serde_json::to_string_pretty(value)?;
    if !text.contains(|c: char| ('\u{80}'..='\u{9f}').contains(&c)) {
        return Ok(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    for c in text.chars() {
        match c {
            '\u{80}'..='\u{9f}' => out.push_str(&format!("\\u{:04x}", u32::from(c))),
            c => out.push(c),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tool call's steps reach whoever serves it, and only while it runs.
    #[test]
    fn progress_reaches_the_server_only_while_serving() {
        let heard = std::rc::Rc::new(RefCell::new(Vec::new()));
        let sink = heard.clone();
        serving(
            move |step| sink.borrow_mut().push(step.to_string()),
            || progress("verify: passed"),
        );
        progress("after the call");
        assert_eq!(*heard.borrow(), ["verify: passed"]);
    }

    /// A note given while serving comes back with the result, and only that call's.
    #[test]
    fn notes_while_serving_come_back_with_the_result() {
        warn("plan: note: before");
        let (result, notes) = serving(
            |_| {},
            || {
                warn("plan: note: one");
                7
            },
        );
        warn("plan: note: after");
        assert_eq!((result, notes), (7, vec!["plan: note: one".to_string()]));
    }

    /// `plan mcp`'s stdout is the protocol: a print while serving is plan's bug,
    /// caught in debug builds rather than written into the stream.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "printed while serving MCP")]
    fn a_print_while_serving_is_caught() {
        let _ = serving(|_| {}, || print("stray"));
    }

    /// The C1 CSI a pull request can write into a cancel reason reaches no
    /// terminal raw through `--json`, and reads back as the same text.
    #[test]
    fn json_escapes_the_c1_controls_and_means_the_same() {
        let reason = "ok \u{9b}31m red \u{1b}[0m é";
        let text = super::json(&serde_json::json!({ "reason": reason })).unwrap();
        assert!(
            !text.contains('\u{9b}') && !text.contains('\u{1b}'),
            "{text}"
        );
        assert!(text.contains("\\u009b31m"), "{text}");
        let back: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back["reason"], reason);
    }
}

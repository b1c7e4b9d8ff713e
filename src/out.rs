//! Where commands' output goes: stdout, or the sink `plan mcp` collects a tool
//! call's text in; notes and errors go to stderr. The one place plan's output is
//! written (clippy's `print_stdout` and `print_stderr` hold everywhere else).

use std::cell::RefCell;
use std::io::Write;

use anyhow::Result;

/// Where a command's output goes instead of stdout while [`capture`] runs it, and
/// who hears its [`progress`]. Per thread: `plan mcp` runs each tool call on its own.
struct Sink {
    out: String,
    progress: Box<dyn FnMut(&str)>,
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Runs `f` with everything it prints collected rather than written to stdout (which
/// `plan mcp` owns for the protocol), and `progress` told each [`progress`] step.
/// Returns `f`'s result and the text.
pub fn capture<T>(progress: impl FnMut(&str) + 'static, f: impl FnOnce() -> T) -> (T, String) {
    /// Clears the sink however `f` ends, a panic included.
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            SINK.with(|s| s.borrow_mut().take());
        }
    }
    SINK.with(|s| {
        *s.borrow_mut() = Some(Sink {
            out: String::new(),
            progress: Box::new(progress),
        });
    });
    let reset = Reset;
    let result = f();
    let out = SINK.with(|s| s.borrow_mut().as_mut().map(|s| std::mem::take(&mut s.out)));
    drop(reset);
    (result, out.unwrap_or_default())
}

/// A step of a long command (a sign-off's verify, its judge), for whoever
/// [`capture`]s it; nothing otherwise: the CLI says the same on stderr.
pub fn progress(step: &str) {
    SINK.with(|s| {
        if let Some(sink) = s.borrow_mut().as_mut() {
            (sink.progress)(step);
        }
    });
}

/// Writes to stdout, or to the [`capture`] sink when one is set; a closed pipe
/// surfaces as an error `main` treats as success.
pub fn print(text: &str) -> Result<()> {
    let captured = SINK.with(|s| {
        s.borrow_mut()
            .as_mut()
            .map(|sink| sink.out.push_str(text))
            .is_some()
    });
    if captured {
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

/// A line on stderr for the person: notes, warnings, the error `main` reports. Never
/// captured: `plan mcp`'s stdout is the protocol, and its stderr the host's log.
#[expect(clippy::print_stderr, reason = "the one place plan writes to stderr")]
pub fn warn(text: &str) {
    eprintln!("{text}");
}

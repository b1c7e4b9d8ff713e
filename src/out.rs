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
}

thread_local! {
    static SINK: RefCell<Option<Sink>> = const { RefCell::new(None) };
}

/// Runs `f` (a tool call of `plan mcp`, which returns typed results and prints
/// nothing) with `progress` told each [`progress`] step, and stdout, which `plan mcp`
/// owns for the protocol, kept from any stray [`print`].
pub fn serving<T>(progress: impl FnMut(&str) + 'static, f: impl FnOnce() -> T) -> T {
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
        });
    });
    let _reset = Reset;
    f()
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
    use std::io::Write;
    let mut err = std::io::stderr().lock();
    let _ = err.write_all(format!("{text}\n").as_bytes());
    let _ = err.flush();
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

    /// `plan mcp`'s stdout is the protocol: a print while serving is plan's bug,
    /// caught in debug builds rather than written into the stream.
    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "printed while serving MCP")]
    fn a_print_while_serving_is_caught() {
        let _ = serving(|_| {}, || print("stray"));
    }
}

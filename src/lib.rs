//! `plan` as a library: the pure core for benchmarks and fuzzing, and the entry
//! point the binary calls. Everything else is private to the crate, so unused code
//! is found.

// Unit tests lay out their fixtures with plain writes; the code they test writes
// through crate::atomic, crate::store and crate::fsread's state opener
// (clippy.toml's disallowed-methods).
#![cfg_attr(
    test,
    allow(
        clippy::disallowed_methods,
        reason = "unit tests write their fixtures directly"
    )
)]

mod atomic;
mod cache;
mod checkpoint;
mod claims;
mod clock;
mod cmd;
mod config;
mod ctx;
mod disk;
mod draft;
mod env;
mod events;
mod exec;
mod exit;
mod forge;
mod fsread;
mod gate;
mod git;
mod hooks;
mod hosts;
mod install;
mod judge;
mod logged;
mod loop_budget;
mod mcp;
mod notify;
mod out;
pub mod plan;
mod portable;
mod prompts;
mod reach;
mod rebuild;
mod record;
mod red_first;
mod report;
mod runner_files;
mod running;
mod service;
mod signoff;
mod stamp_floor;
mod state;
mod store;
mod verified;
mod verify;
mod weakened;

/// What the fuzz targets (fuzz/) drive: the parsers that read untrusted input, each
/// with the property its target checks. Here rather than in the targets, so the
/// build keeps them compiling.
#[doc(hidden)]
pub mod fuzzing {
    use crate::hooks::host::{self, Host};
    use crate::judge::{backend::Backend, verdict};
    use crate::verify;

    /// A hook's stdin as any host sends it (or garbage): `EVENT\nJSON`. Reading it
    /// never panics, and neither does working out the event for any host.
    pub fn hook_json(text: &str) {
        let _ = host::parse_input(text);
        if let Some((event, body)) = text.split_once('\n') {
            for h in [Host::Claude, Host::Codex, Host::Gemini, Host::Pi] {
                let _ = host::kind(h, event);
            }
            if let Ok(input) = host::parse_input(body)
                && let Some(tool) = &input.tool_name
            {
                let _ = host::edits_files(tool);
            }
        }
    }

    /// Whatever a judge prints (`STDOUT\0LAST_MESSAGE`), for every backend, is read
    /// into a verdict without a panic.
    pub fn verdict(text: &str) {
        let (stdout, last) = match text.split_once('\0') {
            Some((a, b)) => (a, Some(b)),
            None => (text, None),
        };
        for backend in Backend::ALL {
            let v = verdict::parse(backend, stdout, last);
            let _ = v.label();
            let _ = verdict::answer_text(backend, stdout, last);
        }
    }

    /// The verify mini-language: an accepted line is written back as a line that
    /// parses to the same commands; a refusal names a column on the line. Asking
    /// whether it can fail never panics, whatever scripts it hands a shell.
    pub fn verify_line(line: &str) {
        match verify::parse(line) {
            Ok(parsed) => {
                let again = verify::parse(&parsed.to_string())
                    .unwrap_or_else(|e| panic!("{parsed} does not parse again: {e}"));
                assert_eq!(again, parsed);
                let _ = verify::cannot_fail(&parsed);
            }
            Err(e) => assert!(e.column >= 1 && e.column <= line.len() + 1, "{e:?}"),
        }
    }

    /// A settings file (or garbage): loading it never panics, nor does setting a key
    /// by lines, and a second setting of the same value changes nothing more.
    pub fn config(text: &str) {
        let _ = crate::config::from_text(text, "config.yaml");
        for (section, key, value) in [
            ("judge", "model", "opus"),
            ("draft", "backend", "claude"),
            ("loop", "budget", "7"),
        ] {
            if let Ok(once) = crate::config::edit::set(text, section, key, value) {
                let _ = crate::config::from_text(&once, "config.yaml");
                if let Ok(twice) = crate::config::edit::set(&once, section, key, value) {
                    assert_eq!(
                        twice, once,
                        "setting {section}.{key} again changed the file"
                    );
                }
            }
        }
    }

    /// A file changed in any way (`data` is the file before and after, split at
    /// its first NUL byte; its first byte picks the language and whether it is a
    /// test): reading what the change weakened never panics. The reader walks
    /// brackets, strings and escapes by byte in four languages, on files an agent
    /// writes.
    pub fn weakened(data: &[u8]) {
        use crate::plan::weakened::{Change, find_given, hacks::Given};
        let Some((&pick, rest)) = data.split_first() else {
            return;
        };
        let text = String::from_utf8_lossy(rest);
        let (before, after) = text.split_once('\0').unwrap_or((&text, ""));
        let path = [
            "tests/test_a.py",
            "a.test.ts",
            "tests/a.rs",
            "a_test.go",
            "calc/core.py",
            "src/a.ts",
            "src/lib.rs",
            "calc.go",
        ][usize::from(pick % 8)];
        let change = |before: &str, after: &str| Change {
            path: path.to_string(),
            was: None,
            before: Some(before.to_string()),
            after: Some(after.to_string()),
        };
        // What the tests gave: the words and numbers of the file before.
        let mut given = Given::default();
        given.literals = before
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty())
            .take(64)
            .map(str::to_string)
            .collect();
        let changes = [change(before, after), change(after, before)];
        for found in find_given(&changes, &[], &given) {
            let _ = found.to_string();
        }
    }

    /// git's merge driver on any three files (base, ours, theirs: `data` split at
    /// its first two NUL bytes). Never panics; a clean merge holds no conflict marker
    /// and no lone CR (git would commit it as merged); a merge left whole keeps both
    /// sides byte for byte; a side against an unchanged other is taken as it is.
    pub fn merge_driver(data: &[u8]) {
        use crate::plan::merge::merge_files;
        use crate::plan::rules::Rule;
        let contains = |hay: &[u8], needle: &[u8]| {
            needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
        };
        let mut parts = data.splitn(3, |b| *b == 0);
        let base = parts.next().unwrap_or_default();
        let ours = parts.next().unwrap_or_default();
        let theirs = parts.next().unwrap_or_default();
        let m = merge_files(base, ours, theirs);
        if m.conflicts.is_empty() {
            let text = std::str::from_utf8(&m.bytes).expect("a clean merge is UTF-8");
            for e in crate::plan::model::parse(text).errors {
                assert!(
                    !matches!(
                        e.rule,
                        Some(Rule::ConflictMarker | Rule::BareCarriageReturn)
                    ),
                    "a clean merge plan refuses: {}\n{text:?}",
                    e.message
                );
            }
        } else if m.conflicts.len() == 1 && m.conflicts[0].part.starts_with("the whole file") {
            assert!(contains(&m.bytes, ours) && contains(&m.bytes, theirs));
        }
        let same = merge_files(base, ours, base);
        if same.conflicts.is_empty() {
            assert_eq!(same.bytes, ours);
        }
    }
}

/// What `scripts/bench-hooks.sh --containment` times, through examples/containment.rs.
#[doc(hidden)]
pub mod bench {
    /// The judge's containment check on its own: a snapshot of the repository at
    /// `root` before and after (nothing runs in between); an error if they differ.
    pub fn containment(root: &std::path::Path) -> anyhow::Result<()> {
        let before = crate::git::snapshot(root)?;
        let after = crate::git::snapshot_after(root, &before)?;
        let changes = before.changes(&after);
        anyhow::ensure!(changes.is_empty(), "changed in between: {changes:?}");
        Ok(())
    }
}

use std::process::ExitCode;

use exit::Exit;

/// The binary: parse arguments, run, map the outcome to an exit code. The one
/// place an error is printed.
pub fn main() -> ExitCode {
    if let Some(code) = hook_fast_path() {
        return ExitCode::from(code);
    }
    let (env, command) = plain_fast_path().unwrap_or_else(|| {
        // A shell asking for completions (COMPLETE=SHELL) is answered here, after
        // the hooks' fast paths: they never pay for it.
        cmd::completions::answer_if_asked();
        // What a plan killed outright left (its judge's copy, its verify's
        // children) goes before this one starts; the hooks' fast paths skip it.
        exec::sweep_left();
        let cli = <cmd::cli::Cli as clap::Parser>::parse();
        let command = cli
            .command
            .unwrap_or(cmd::Command::Show(cmd::show::Args::default()));
        (ctx::Env::new(cli.file, cli.color, cli.quiet), command)
    });
    let ran = command.run(&env);
    exec::yield_to_signal();
    match ran {
        Ok(code) => ExitCode::from(code),
        Err(err) => ExitCode::from(report(&err)),
    }
}

/// `plan hook HOST EVENT`, exactly that, runs on every prompt and file edit of a
/// session: it is answered without building the whole command tree. Anything else
/// (a flag, `--help`, an unknown host) goes through clap as before.
fn hook_fast_path() -> Option<u8> {
    let mut args = std::env::args_os().skip(1);
    let (Some(word), Some(host), Some(event), None) =
        (args.next(), args.next(), args.next(), args.next())
    else {
        return None;
    };
    let host = host.into_string().ok().filter(|h| !h.starts_with('-'))?;
    let event = event.into_string().ok().filter(|e| !e.starts_with('-'))?;
    (word == "hook").then(|| cmd::hook::answer(cmd::hook::Args { host, event }))
}

/// `plan inject` and `plan statusline`, exactly that, run on every prompt or
/// status-bar refresh: they are read as clap would read them (no file given, colour
/// on a terminal, not quiet) without building the command tree. PLAN_FILE set, or
/// any other word, goes through clap.
fn plain_fast_path() -> Option<(ctx::Env, cmd::Command)> {
    let mut args = std::env::args_os().skip(1);
    let (Some(word), None) = (args.next(), args.next()) else {
        return None;
    };
    if crate::env::os("PLAN_FILE").is_some() {
        return None;
    }
    let command = match word.to_str()? {
        "inject" => cmd::Command::Inject(cmd::inject::Args {
            json: false,
            holder: None,
        }),
        "statusline" => cmd::Command::Statusline(cmd::statusline::Args {
            json: false,
            holder: None,
        }),
        _ => return None,
    };
    Some((ctx::Env::new(None, ctx::Color::Auto, false), command))
}

fn report(err: &anyhow::Error) -> u8 {
    let broken_pipe = err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        return exit::OK;
    }
    let (code, text) = Exit::shown(err);
    if let Some(text) = text {
        crate::out::warn(&text);
    }
    code
}

#[cfg(test)]
mod tests {
    /// The fuzz targets' properties hold on a few plain inputs (the fuzzer tries
    /// the rest).
    #[test]
    fn fuzz_properties_hold_on_plain_inputs() {
        super::fuzzing::hook_json("stop\n{\"tool_name\":\"Write\",\"cwd\":\"/\"}");
        super::fuzzing::verdict("VERDICT: accept\0{\"verdict\":\"reject\"}");
        for line in [
            "cargo test && ./bench/p95 --max-ms 50",
            "a | b",
            "'unclosed",
        ] {
            super::fuzzing::verify_line(line);
        }
        for data in [
            &b"# Plan: x\n\0# Plan: y\n\0# Plan: z\n"[..],
            b"a\n\0<<<<<<< HEAD\nb\n\0c\r",
            b"\xff\0\0## Log\n- 2026-01-01 00:00 x\n",
        ] {
            super::fuzzing::merge_driver(data);
        }
    }
}

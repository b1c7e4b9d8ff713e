//! Entry point: parse arguments, run, map the outcome to an exit code. The one
//! place an error is printed.

use std::process::ExitCode;

use clap::Parser;

use plan::exit::{self, Exit};
use plan::{app, cli};

fn main() -> ExitCode {
    if let Some(code) = hook_fast_path() {
        return ExitCode::from(code);
    }
    let cli = cli::Cli::parse();
    match app::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => ExitCode::from(report(&err)),
    }
}

/// `plan hook HOST EVENT`, exactly that, runs on every prompt and file edit of a
/// session: it is answered without building the whole command tree. Anything else
/// (a flag, `--help`, an unknown host) goes through clap as before.
fn hook_fast_path() -> Option<u8> {
    use clap::ValueEnum;
    let mut args = std::env::args_os().skip(1);
    let (Some(word), Some(host), Some(event), None) =
        (args.next(), args.next(), args.next(), args.next())
    else {
        return None;
    };
    let host = plan::hooks::host::Host::from_str(host.to_str()?, false).ok()?;
    let event = event.into_string().ok().filter(|e| !e.starts_with('-'))?;
    (word == "hook").then(|| plan::cmd::hook::run(plan::cmd::hook::Args { host, event }))
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
    match err.downcast_ref::<Exit>() {
        Some(Exit {
            code,
            message: None,
            ..
        }) => *code,
        Some(Exit {
            code,
            message: Some(message),
            raw: true,
        }) => {
            eprintln!("{message}");
            *code
        }
        Some(Exit {
            code,
            message: Some(message),
            raw: false,
        }) => {
            eprintln!("plan: {message}");
            *code
        }
        None => {
            eprintln!("plan: {err:#}");
            exit::ENVIRONMENT
        }
    }
}

//! Entry point: parse arguments, run, map the outcome to an exit code. The one
//! place an error is printed.

mod app;
mod cli;
mod clock;
mod cmd;
mod exit;
mod git;
#[cfg_attr(not(test), expect(dead_code))]
mod judge;
mod plan;
mod store;

use std::process::ExitCode;

use clap::Parser;

use exit::Exit;

fn main() -> ExitCode {
    let cli = cli::Cli::parse();
    match app::run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(err) => ExitCode::from(report(&err)),
    }
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

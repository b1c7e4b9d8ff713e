//! `plan hook HOST EVENT`: a host's hook JSON on stdin, the host's answer on stdout.
//! Fails open: whatever goes wrong, the agent is never blocked by plan's own error.

use crate::ctx::Env;
use std::io::{Read, Write};

use crate::hooks::host::{self, Answer, Host, Kind};
use crate::hooks::run;

/// Answer a host's hook (registered by `plan install`; reads the host's JSON on stdin)
#[derive(Debug, clap::Args)]
pub struct Args {
    #[arg(help = host_help())]
    pub host: String,
    /// The event, e.g. session-start, user-prompt-submit, post-tool-use, pre-compact, stop
    pub event: String,
}

/// `HOST`'s help, with the hosts from the registry: a list written out here once
/// missed the hosts added after it.
fn host_help() -> String {
    let names: Vec<&str> = Host::ALL.iter().map(|h| h.name()).collect();
    let (last, rest) = names.split_last().expect("there are hosts");
    format!(
        "The host agent: {} or {last} (any other name answers nothing and exits 0: a hook never fails the agent)",
        rest.join(", ")
    )
}

/// The most hook JSON read; hosts send far less.
const MAX_INPUT: u64 = 16 * 1024 * 1024;

/// Always exit 0 (hooks fail open); see [`answer`].
pub fn run(_env: &Env, args: Args) -> anyhow::Result<u8> {
    Ok(answer(args))
}

/// Answers the host and says what to exit with: 0, whatever happened.
pub fn answer(args: Args) -> u8 {
    // A lock another process holds never holds the agent (state::lock).
    crate::state::lock::in_hook();
    // Read first, whatever comes next, so the host never writes into a closed pipe.
    let mut stdin = String::new();
    let _ = std::io::stdin().take(MAX_INPUT).read_to_string(&mut stdin);
    let Ok(host) = <Host as clap::ValueEnum>::from_str(&args.host, false) else {
        let known: Vec<&str> = Host::ALL.iter().map(|h| h.spec().name).collect();
        crate::out::warn(&format!(
            "plan: no hooks for a host named \"{}\" (plan knows {}); nothing done",
            crate::plan::text::escape_controls(&args.host),
            known.join(", ")
        ));
        return 0;
    };
    answer_for(host, &args.event, &stdin)
}

fn answer_for(host: Host, event_name: &str, stdin: &str) -> u8 {
    let disabled = |var: &str| crate::env::text(var).is_some_and(|v| v == "1");
    let kind = host::kind(host, event_name).map_or(Kind::Prompt, |(k, _)| k);
    let event = host::kind(host, event_name).map_or("", |(_, e)| e);
    let answer = if disabled("PLAN_DISABLED") || disabled("PLAN_JUDGE") {
        Answer::Nothing
    } else {
        match std::panic::catch_unwind(|| run::handle(host, event_name, stdin)) {
            Ok(Ok(answer)) => answer,
            Ok(Err(e)) => Answer::Note(format!("plan: hook skipped: {e:#}")),
            Err(_) => Answer::Note("plan: hook skipped after an internal error".to_string()),
        }
    };
    // A warning must never veto anything: on Stop it is only a note.
    let (out, err) = host::render(host, kind, event, &answer);
    // A host that stopped listening must not turn into a non-zero exit.
    let _ = std::io::stdout().write_all(out.as_bytes());
    let _ = std::io::stderr().write_all(err.as_bytes());
    0
}

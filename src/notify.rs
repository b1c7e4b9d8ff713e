//! The `notify:` commands: argv, no shell, one event's JSON on stdin. Each runs
//! detached from whoever announced the event, under a watchdog (`plan` itself, see
//! [`watchdog`]) that stops it at its timeout, so a hanging notifier never holds up
//! a hook or `plan complete`. Fail-open: a problem is a line on stderr (or in
//! `<git-dir>/plan/notify.log` once detached), never an exit status.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

use serde_json::{Map, Value};

use crate::config::{NotifyRule, ReportForm};
use crate::exec;

/// Where detached notifiers' failures go, under `<git-dir>/plan/`.
pub const LOG: &str = "notify.log";

/// Starts every rule's command that wants `event` (a JSON object with an `event`
/// name) and returns at once.
pub fn announce(root: &Path, git_dir: &Path, rules: &[NotifyRule], event: &Value) {
    let name = event["event"].as_str().unwrap_or_default();
    for rule in rules.iter().filter(|r| r.events.iter().any(|e| e == name)) {
        if let Err(why) = start(root, git_dir, rule, name, &format!("{event}\n")) {
            crate::out::warn(&format!("plan: notify: {why}"));
        }
    }
}

/// Starts every rule that asks for the report (`report:`) with it on stdin, in the
/// form the rule names (`render` gives it), and returns at once.
pub fn announce_report(
    root: &Path,
    git_dir: &Path,
    rules: &[NotifyRule],
    render: &dyn Fn(ReportForm) -> String,
) {
    for rule in rules {
        let Some(form) = rule.report else {
            continue;
        };
        if let Err(why) = start(root, git_dir, rule, "report", &render(form)) {
            crate::out::warn(&format!("plan: notify: {why}"));
        }
    }
}

/// The program a rule names: a path with a slash is relative to the repository
/// root, a bare name is looked up on PATH.
fn resolve(root: &Path, program: &str) -> Option<PathBuf> {
    if program.contains('/') {
        let path = root.join(program);
        return path.is_file().then_some(path);
    }
    exec::find_on_path(program)
}

fn start(
    root: &Path,
    git_dir: &Path,
    rule: &NotifyRule,
    name: &str,
    input: &str,
) -> Result<(), String> {
    let program = rule.command.first().map(String::as_str).unwrap_or_default();
    let Some(found) = resolve(root, program) else {
        return Err(format!(
            "cannot run {program:?} for {name}: not found\n  hint: install it, or fix its `command:` under notify: in .plan/config.yaml (an argv list; a path with a slash is relative to the repository root)"
        ));
    };
    let me = std::env::current_exe()
        .map_err(|e| format!("cannot find plan itself to watch {program:?}: {e}"))?;
    let dir = git_dir.join("plan");
    // A state file: no link followed, nothing but a regular file (issue 35).
    let log = crate::atomic::make_dirs(&dir)
        .and_then(|_| crate::fsread::open_state(crate::fsread::StateOpen::Append, &dir.join(LOG)))
        .map_err(|e| format!("cannot open {}: {e}", dir.join(LOG).display()))?;
    // Its own process group, stdout nowhere and stderr in the log: nothing of it
    // holds the pipes a host reads a hook's answer from, or gets the terminal's ^C.
    let mut child = Command::new(me)
        .args(["events", "--notify-run"])
        .arg((rule.timeout_secs.max(1) * 1000).to_string())
        .arg("--")
        .arg(&found)
        .args(&rule.command[1..])
        .current_dir(root)
        // The watchdog is the notify program's parent: a key it held would be read
        // from /proc/PPID/environ (exec.rs keeps it from the program alone).
        .env_remove(crate::env::RECORD_KEY)
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(log)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start the watchdog for {program:?}: {e}"))?;
    if let Some(mut stdin) = child.stdin.take() {
        // An event fits the pipe's buffer, so this never waits; a longer report is
        // drained at once by the watchdog, which reads it all before it starts.
        let _ = stdin.write_all(input.as_bytes());
    }
    // Reaped if this process lives on (`plan mcp`); a hook exits and leaves it to init.
    std::thread::spawn(move || child.wait());
    Ok(())
}

/// The journal line's key for how many log lines plan.md held when the event was
/// recorded: within one minute, `plan events` puts the event after those lines and
/// before the next (the log's stamps say only the minute). Never shown.
pub const LOG_LINES: &str = "log_lines";

/// A journal line as `plan events` prints it and a notify command reads it: its `ts`
/// made the local `at` the log's lines have, first.
pub fn normalize(line: Value) -> Value {
    let Value::Object(fields) = line else {
        return line;
    };
    let at = match (fields.get("at"), fields.get("ts")) {
        (Some(Value::String(at)), _) => Some(at.clone()),
        (_, Some(ts)) => ts.as_i64().and_then(crate::clock::stamp_of),
        _ => None,
    };
    let mut out = Map::new();
    out.insert("at".to_string(), at.map_or(Value::Null, Value::from));
    out.extend(
        fields
            .into_iter()
            .filter(|(k, _)| k != "at" && k != "ts" && k != LOG_LINES),
    );
    Value::Object(out)
}

/// `plan events --notify-run MS -- ARGV`: runs one notify command with the event
/// this process reads on stdin (as `plan events --json` prints it), and stops it (and anything it started) after `ms`.
/// What went wrong goes to stderr, which the announcer pointed at the notify log.
pub fn watchdog(ms: u64, argv: Vec<String>) -> u8 {
    let mut input = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut input);
    // An event has a name; a report (`report: json`) goes on as it came.
    let event = serde_json::from_slice::<Value>(&input)
        .ok()
        .filter(|v| v.get("event").is_some());
    let name = event
        .as_ref()
        .and_then(|v| v["event"].as_str().map(str::to_string))
        .unwrap_or_default();
    // The loop's events come as the journal has them; the notifier gets `at`.
    if let Some(event) = event {
        input = format!("{}\n", normalize(event)).into_bytes();
    }
    let cwd = std::env::current_dir().unwrap_or_else(|_| PathBuf::from("."));
    let mut spec = exec::Spec::new(argv.clone(), cwd, Duration::from_millis(ms));
    spec.stdin = Some(input);
    spec.grace = Duration::from_millis(500);
    let when = crate::clock::now().map(|n| n.stamp()).unwrap_or_default();
    let name = if name.is_empty() { "report" } else { &name };
    let what = format!("{} ({name})", argv.join(" "));
    match exec::run(&spec) {
        Ok(out) if out.timed_out => {
            crate::out::warn(&format!(
                "{when} plan: notify: {what} timed out after {ms} ms and was stopped"
            ));
        }
        Ok(out) if !out.success() => {
            let tail = String::from_utf8_lossy(&out.stderr);
            let status = out
                .code()
                .map_or_else(|| "was killed".to_string(), |c| format!("exited {c}"));
            crate::out::warn(&format!(
                "{when} plan: notify: {what} {status}: {}",
                tail.trim_end()
            ));
        }
        Ok(_) => {}
        Err(e) => crate::out::warn(&format!("{when} plan: notify: {what}: {e:#}")),
    }
    crate::exit::OK
}

//! Regular files only, bounded reads (issue 23, item 5): plan.md, a host's
//! transcript, the settings and the state under `.git/plan` as a named pipe or a
//! device (a symlink to `/dev/zero`). Hooks answer promptly and never block the
//! agent; commands say what is there and what to do. Every run here has a time
//! limit, so a hang fails the test instead of wedging the suite.

use std::io::Write as _;
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use crate::util::{Run, Test, fixture, redact};

/// Long enough for a loaded machine, far short of a hang (which was 10 s and more).
const LIMIT: Duration = Duration::from_secs(8);

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
- [ ] eviction policy

## Log
- 2026-06-15 14:02 client wired
";

/// `plan ARGS` with `stdin`, killed and failed if it runs past [`LIMIT`].
#[track_caller]
fn within(t: &Test, args: &[&str], stdin: &str) -> Run {
    let mut child = t
        .cmd(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(stdin.as_bytes());
    let pid = child.id();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(out) => Run::from(out.unwrap(), args),
        Err(_) => {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
            panic!("plan {args:?} still ran after {} s", LIMIT.as_secs());
        }
    }
}

fn mkfifo(path: &Path) {
    let _ = std::fs::remove_file(path);
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).unwrap();
    }
    assert!(
        Command::new("mkfifo").arg(path).status().unwrap().success(),
        "mkfifo {}",
        path.display()
    );
}

fn link_to_zero(path: &Path) {
    let _ = std::fs::remove_file(path);
    std::os::unix::fs::symlink("/dev/zero", path).unwrap();
}

/// A Claude Code payload for `event` in the test's repository.
fn claude(t: &Test, event: &str) -> String {
    fixture(&format!("hosts/claude/{event}.json"))
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1")
}

/// A Gemini CLI payload for `event` in `session` whose transcript is `transcript`.
fn gemini(t: &Test, event: &str, session: &str, transcript: &Path) -> String {
    let payload: serde_json::Value = serde_json::from_str(
        &fixture(&format!("hosts/gemini/{event}.json"))
            .replace("CWD", t.root().to_str().unwrap())
            .replace("SESSION", session),
    )
    .unwrap();
    let mut payload = payload.as_object().unwrap().clone();
    payload.insert(
        "transcript_path".into(),
        transcript.to_str().unwrap().into(),
    );
    serde_json::Value::Object(payload).to_string()
}

const CLAUDE_EVENTS: [&str; 4] = [
    "session-start",
    "user-prompt-submit",
    "post-tool-use.write",
    "stop",
];

fn event_name(fixture: &str) -> &str {
    fixture.split('.').next().unwrap()
}

/// Attack: plan.md a named pipe, or a symlink to `/dev/zero`. Every hook blocked
/// on the open (the pipe) or read without end (4.2 GB of zeros) past 10 s. Now
/// each answers at once, injects nothing, never blocks the stop, and says why.
#[test]
fn a_hook_on_a_plan_md_that_is_a_pipe_or_a_device_answers_at_once() {
    let t = Test::new().plan(PLAN);
    for (make, what) in [
        (mkfifo as fn(&Path), "is a named pipe"),
        (link_to_zero, "is a symlink to a device"),
    ] {
        make(&t.path("plan.md"));
        for event in CLAUDE_EVENTS {
            let run = within(
                &t,
                &["hook", "claude", event_name(event)],
                &claude(&t, event),
            );
            assert_eq!(run.code, 0, "{event}: {}", run.stderr);
            insta::assert_snapshot!(redact(&t, &run.stdout));
            assert!(
                run.stdout.contains(&format!("{what}, not a regular file")),
                "{event} on plan.md that {what}: {}",
                run.stdout
            );
        }
    }
}

/// Attack: the same for the commands, which hung as the hooks did. Now each names
/// the file, says what it is, and gives a hint; the status line stays blank.
#[test]
fn a_command_on_a_plan_md_that_is_a_pipe_or_a_device_says_so() {
    let t = Test::new().plan(PLAN);
    mkfifo(&t.path("plan.md"));
    for args in [
        &["show"][..],
        &["inject"],
        &["lint"],
        &["log", "a line"],
        &["add", "Another goal"],
    ] {
        let run = within(&t, args, "");
        assert_eq!(run.code, 2, "plan {args:?}: {}{}", run.stdout, run.stderr);
        assert_eq!(
            run.stderr,
            "plan: plan.md is a named pipe, not a regular file\n  hint: plan reads it only from a regular file (a symlink to one is fine); put the file itself there\n",
            "plan {args:?}"
        );
    }
    // A status bar shows nothing rather than an error, as for a missing plan.md.
    let run = within(&t, &["statusline"], "");
    assert_eq!((run.code, &*run.stdout, &*run.stderr), (0, "", ""));
    link_to_zero(&t.path("plan.md"));
    let run = within(&t, &["show"], "");
    assert_eq!(run.code, 2);
    insta::assert_snapshot!(redact(&t, &run.stderr));
}

/// Attack: a transcript path (the payload's `transcript_path`) that is a named
/// pipe hung Gemini CLI's before-agent and pre-compress hooks, and one that is
/// `/dev/zero` was read whole. Now the compactions are just not counted there:
/// the before-agent hook still injects the plan.
#[test]
fn a_transcript_that_is_a_pipe_or_a_device_hangs_no_gemini_hook() {
    let t = Test::new().plan(PLAN);
    let fifo = t.dir.path().join("chats/session.jsonl");
    mkfifo(&fifo);
    for (session, transcript) in [("s1", fifo.as_path()), ("s2", Path::new("/dev/zero"))] {
        // The second before-agent injects again: a compaction that cannot be
        // counted counts as one.
        for event in ["before-agent", "pre-compress", "before-agent"] {
            let run = within(
                &t,
                &["hook", "gemini", event],
                &gemini(&t, event, session, transcript),
            );
            assert_eq!(run.code, 0, "{event}: {}", run.stderr);
            if event == "before-agent" {
                insta::assert_snapshot!(redact(&t, &run.stdout));
            }
        }
    }
}

/// Attack: a named pipe where the hooks read the settings (`.plan/config.yaml`)
/// or their state (a session's file, the loop's, the cached view, the state's
/// lock). Each was opened blocking. Now the hooks answer, and a pipe there counts as no file.
#[test]
fn a_pipe_among_the_settings_and_the_state_hangs_no_hook() {
    let t = Test::new().plan(PLAN);
    // Creates `.git/plan` and its files as a session leaves them.
    within(
        &t,
        &["hook", "claude", "session-start"],
        &claude(&t, "session-start"),
    );
    let git = t.root().join(".git/plan");
    for pipe in [
        t.path(".plan/config.yaml"),
        git.join("sessions/s1.json"),
        git.join("loop.json"),
        git.join("cache/view.json"),
        git.join("cache/facts.json"),
        git.join("state.lock"),
    ] {
        mkfifo(&pipe);
        for event in CLAUDE_EVENTS {
            let run = within(
                &t,
                &["hook", "claude", event_name(event)],
                &claude(&t, event),
            );
            assert_eq!(
                run.code,
                0,
                "{event} with {}: {}",
                pipe.display(),
                run.stderr
            );
            insta::assert_snapshot!(redact(&t, &run.stdout));
        }
        let run = within(
            &t,
            &["hook", "claude", "session-start"],
            &claude(&t, "session-start"),
        );
        insta::assert_snapshot!(redact(&t, &run.stdout));
        std::fs::remove_file(&pipe).unwrap();
    }
}

/// A settings file that is a pipe is an error for a command that reads it, naming it.
#[test]
fn a_command_reading_settings_that_are_a_pipe_says_so() {
    let t = Test::new().plan(PLAN);
    mkfifo(&t.path(".plan/config.yaml"));
    let run = within(&t, &["judge"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        run.stderr,
        "plan: .plan/config.yaml is a named pipe, not a regular file\n  hint: plan reads it only from a regular file (a symlink to one is fine); put the file itself there\n"
    );
}

/// Attack: a named pipe where the writers' lock is (`.git/plan/plan.lock`): every
/// write blocked on opening it. Now the write fails at once, naming the lock.
#[test]
fn a_pipe_for_the_writers_lock_fails_a_write_at_once() {
    let t = Test::new().plan(PLAN);
    mkfifo(&t.root().join(".git/plan/plan.lock"));
    let run = within(&t, &["log", "a line"], "");
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        state_words(&t, &run.stderr),
        "plan: .git/plan/plan.lock is a named pipe, not a regular file; nothing was written\n  hint: plan keeps its state only in regular files; remove .git/plan/plan.lock and rerun (plan makes it again)\n"
    );
    assert_eq!(t.plan_md(), PLAN, "nothing is written");
}

/// `stderr` with the test's repository said as `.`: messages name state files by
/// their full path.
fn state_words(t: &Test, stderr: &str) -> String {
    stderr.replace(&format!("{}/", t.root().display()), "")
}

/// Attack (issue 35, why 2): `.git/plan/plan.written` made a link to a file
/// outside: plan wrote its record into the link's target, so an agent's link has
/// the user's next command overwrite any file the user can write. Failed before
/// (exit 0, the target overwritten). Now the write is refused, naming the link, and
/// neither the target nor plan.md is touched.
#[test]
fn a_link_among_the_state_files_is_never_written_through() {
    let t = Test::new().plan(PLAN);
    t.ok(&["log", "first"]);
    let before = t.plan_md();
    let outside = t.dir.path().join("precious");
    std::fs::write(&outside, "precious\n").unwrap();
    let written = t.root().join(".git/plan/plan.written");
    std::fs::remove_file(&written).unwrap();
    std::os::unix::fs::symlink(&outside, &written).unwrap();
    let run = within(&t, &["log", "second"], "");
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        state_words(&t, &run.stderr),
        "plan: .git/plan/plan.written is a symbolic link, not a regular file; nothing was written\n  hint: plan never reads or writes its state through a link (it could point anywhere); remove .git/plan/plan.written and rerun\n"
    );
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
    assert_eq!(t.plan_md(), before);
    std::fs::remove_file(&written).unwrap();
    t.ok(&["log", "second"]);
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
}

/// Attack (issue 35, why 3): `.git/plan/plan.written` a named pipe, or a link to a
/// zero device: `log` and `tick` hung for good (the device case read
/// gigabytes). Failed before (killed at the limit). Now each is refused at once,
/// naming the file.
#[test]
fn a_pipe_or_a_device_for_plans_record_fails_a_write_at_once() {
    for device in [false, true] {
        let t = Test::new().plan(PLAN);
        t.ok(&["log", "first"]);
        let before = t.plan_md();
        let written = t.root().join(".git/plan/plan.written");
        match device {
            true => link_to_zero(&written),
            false => mkfifo(&written),
        }
        let said = match device {
            true => {
                "plan: .git/plan/plan.written is a symbolic link, not a regular file; nothing was written\n  hint: plan never reads or writes its state through a link (it could point anywhere); remove .git/plan/plan.written and rerun\n"
            }
            false => {
                "plan: .git/plan/plan.written is a named pipe, not a regular file; nothing was written\n  hint: plan keeps its state only in regular files; remove .git/plan/plan.written and rerun (plan makes it again)\n"
            }
        };
        for args in [&["log", "x"][..], &["tick", "cache-layer", "1"]] {
            let run = within(&t, args, "");
            assert_eq!(run.code, 3, "{args:?}: {}{}", run.stdout, run.stderr);
            assert_eq!(state_words(&t, &run.stderr), said, "{args:?}");
        }
        assert_eq!(t.plan_md(), before);
    }
}

/// Attack (issue 35, why 8): `.git/plan` a file said "File exists (os error 17)".
/// Failed before. Now the write names it and says what to do.
#[test]
fn a_file_where_plans_state_directory_goes_is_named() {
    let t = Test::new().plan(PLAN);
    std::fs::write(t.root().join(".git/plan"), "not a directory\n").unwrap();
    let run = within(&t, &["log", "a line"], "");
    assert_eq!(run.code, 3, "{}{}", run.stdout, run.stderr);
    assert_eq!(
        state_words(&t, &run.stderr),
        "plan: .git/plan is a file, where plan keeps its state (a directory); nothing was written\n  hint: move it away (mv .git/plan .git/plan.old) and rerun\n"
    );
    assert_eq!(t.plan_md(), PLAN);
}

/// Attack: a named pipe where the loop's events are journalled
/// (`.git/plan/events.jsonl`): the stop hook that decides on the loop blocked
/// opening it to append. Now it goes on without the journal line.
#[test]
fn a_pipe_for_the_events_journal_hangs_no_stop() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "3"]);
    mkfifo(&t.root().join(".git/plan/events.jsonl"));
    let run = within(&t, &["hook", "claude", "stop"], &claude(&t, "stop"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
    let run = within(&t, &["events"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Attack: a named pipe where a pending draft is kept (`.git/plan/proposal.json`):
/// `plan review` and `plan doctor` blocked opening it. Now each says what is there,
/// as the environment error (exit 3) plan's state in the wrong shape is.
#[test]
fn a_pipe_for_the_pending_draft_hangs_no_command() {
    let t = Test::new().plan(PLAN);
    let pipe = t.root().join(".git/plan/proposal.json");
    mkfifo(&pipe);
    for args in [&["review"][..], &["doctor"]] {
        let run = within(&t, args, "");
        assert_eq!(run.code, 3, "plan {args:?}: {}{}", run.stdout, run.stderr);
        insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    }
}

/// Attack: a named pipe where `plan install` reads a host's settings, or where
/// `plan add --template` reads a goal template: each blocked opening it. Now the
/// install says what is there, and the add goes on without the pipe.
#[test]
fn a_pipe_for_host_settings_or_a_goal_template_hangs_no_command() {
    let t = Test::new().plan(PLAN);
    mkfifo(&t.path(".claude/settings.json"));
    let run = within(&t, &["install", "claude"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    mkfifo(&t.path(".plan/templates/feature.md"));
    let run = within(&t, &["add", "New goal", "--template", "feature"], "");
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
}

/// A sparse plan.md far past the read cap: the hook must not size its buffers from
/// the file's length (an allocation of that size aborts, which no fail-open catches).
#[test]
fn a_sparse_huge_plan_md_fails_the_hook_open() {
    let t = Test::new().plan(PLAN);
    let file = std::fs::OpenOptions::new()
        .write(true)
        .open(t.path("plan.md"))
        .unwrap();
    file.set_len(1 << 40).unwrap();
    let run = within(&t, &["hook", "claude", "stop"], "{}");
    assert_eq!(run.code, 0, "{}", run.stderr);
}

/// Hooks fail open on a link among the state files (issue 35, item 2): each
/// answers at once with exit 0 and writes nothing through the link.
#[test]
fn a_link_among_the_state_files_fails_the_hooks_open() {
    let t = Test::new().plan(PLAN);
    t.ok(&["log", "first"]);
    t.ok(&["goal", "--budget", "3"]);
    let outside = t.dir.path().join("precious");
    std::fs::write(&outside, "precious\n").unwrap();
    for name in ["plan.written", "stamp", "events.jsonl", "loop.json"] {
        let state = t.root().join(".git/plan").join(name);
        let _ = std::fs::remove_file(&state);
        std::os::unix::fs::symlink(&outside, &state).unwrap();
    }
    for event in CLAUDE_EVENTS {
        let run = within(
            &t,
            &["hook", "claude", event_name(event)],
            &claude(&t, event),
        );
        assert_eq!(run.code, 0, "{event}: {}", run.stderr);
    }
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
}

/// Attack (red team): `plan import` of a named pipe waited for a writer for ever,
/// and of `/dev/zero` read until memory ran out. The file to import is read as
/// plan.md is: a regular file, capped.
#[test]
fn an_import_of_a_pipe_or_a_device_says_so_at_once() {
    let t = Test::new().plan(PLAN);
    mkfifo(&t.path("tasks.md"));
    let run = within(&t, &["import", "tasks.md"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.stderr);
    link_to_zero(&t.path("zero.json"));
    let run = within(&t, &["import", "zero.json"], "");
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(run.stderr);
}

//! `plan events` and `notify:`: plan's log events and the loop's runtime events as
//! one stream, since a revision or followed as they happen, and the notify commands
//! that get each event's JSON on stdin without ever holding up a command or a hook.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::util::{Run, Test, fixture_path, redact, shown};

const PLAN: &str = "# Plan: Events

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- verify passes on a trivial or gamed test
- [x] write it

## Log
- 2026-06-15 13:58 ship added (contract CONTRACT)
- 2026-06-15 13:59 wired the client; eviction next
- 2026-06-15 14:00 ship started (contract CONTRACT)
";

/// A repository whose `ship` goal was added and started under its current contract,
/// with `notify` (YAML list items, indented) in its settings and the fixture judge
/// `accept`; committed.
fn repo(notify: &str) -> Test {
    judged_repo("accept", notify)
}

/// As [`repo`], judged by the fixture `judge`.
fn judged_repo(judge: &str, notify: &str) -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN.replace(" (contract CONTRACT)", ""));
    let fp = t.ok(&["show", "--json"]).json()["goals"][0]["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write("plan.md", PLAN.replace("CONTRACT", &fp));
    let mut config = format!(
        "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
        fixture_path(&format!("judges/{judge}")).display()
    );
    if !notify.is_empty() {
        config.push_str("notify:\n");
        config.push_str(notify);
    }
    t.write(".plan/config.yaml", config);
    t.commit_all("start");
    t
}

fn lines(run: &Run) -> Vec<Value> {
    run.stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

fn names(events: &[Value]) -> Vec<&str> {
    events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect()
}

fn complete(t: &Test) -> Run {
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ])
}

/// Waits up to 20 s for `path` to exist (and, when `until` says so, for its text to
/// satisfy it); the text, or a panic naming what never came.
fn wait_for(path: &Path, until: impl Fn(&str) -> bool) -> String {
    let deadline = Instant::now() + Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && until(&text)
        {
            return text;
        }
        assert!(
            Instant::now() < deadline,
            "{} never came (or never said what was awaited)",
            path.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

/// A notifier that appends what it reads on stdin (one JSON line) to `out`.
fn recorder(t: &Test, out: &Path) -> PathBuf {
    t.fake_program("record-event", &format!("cat >> '{}'\n", out.display()))
}

#[test]
fn events_are_the_typed_log_lines_as_json_or_readable_lines() {
    let t = repo("");
    let json = lines(&t.ok(&["events", "--json"]));
    assert_eq!(
        names(&json),
        ["added", "started"],
        "free-form lines are not events"
    );
    assert_eq!(json[0]["at"], "2026-06-15 13:58");
    assert_eq!(json[0]["id"], "ship");
    assert_eq!(json[1]["contract"].as_str().unwrap().len(), 8);
    let text = t.ok(&["events"]).stdout;
    let rows: Vec<&str> = text.lines().collect();
    assert_eq!(rows.len(), 2, "{text}");
    assert!(
        rows[1].starts_with("2026-06-15 14:00  started ")
            && rows[1].contains("  ship started (contract "),
        "{text}"
    );
    insta::assert_snapshot!(redact(&t, &text));
}

#[test]
fn since_a_revision_lists_only_the_events_logged_after_it() {
    let t = repo("");
    assert_eq!(t.ok(&["events", "--since", "HEAD", "--json"]).stdout, "");
    t.ok(&["add", "Docs", "--done-when", "README documents the cache"]);
    let json = lines(&t.ok(&["events", "--since", "HEAD", "--json"]));
    assert_eq!(names(&json), ["added"]);
    assert_eq!(json[0]["id"], "docs");
    t.commit_all("docs");
    assert_eq!(
        names(&lines(&t.ok(&["events", "--since", "HEAD~1", "--json"]))),
        ["added"]
    );
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["events", "--since", "no-such-rev"]).code(2)
    ));
}

#[test]
fn the_loops_decisions_are_events_kept_out_of_plan_md_and_merged_in_time_order() {
    let t = repo("");
    t.ok(&["goal", "--budget", "1"]);
    let before = t.plan_md();
    let first: Value = serde_json::from_str(&t.stop_hook("s1").code(0).stdout).unwrap();
    assert_eq!(first["decision"], "block");
    t.stop_hook("s1").code(0);
    assert_eq!(t.plan_md(), before, "runtime events never go into plan.md");
    let json = lines(&t.ok(&["events", "--json"]));
    assert_eq!(
        names(&json),
        [
            "added",
            "started",
            "loop_started",
            "loop_continued",
            "loop_let_go"
        ]
    );
    assert_eq!(json[2]["budget"], 1);
    assert_eq!(json[3]["session"], "s1");
    assert_eq!(json[3]["continuation"], 1);
    assert_eq!(json[3]["budget"], 1);
    assert_eq!(json[4]["reason"], "budget_spent");
    assert_eq!(json[4]["ended"], true);
    assert_eq!(json[4]["at"], "2026-06-15 14:02");
    let text = t.ok(&["events"]).stdout;
    assert!(
        text.lines()
            .any(|l| l.starts_with("2026-06-15 14:02  loop_let_go ")
                && l.contains("  loop stopped (budget_spent): its budget of 1")),
        "{text}"
    );
    insta::assert_snapshot!(redact(&t, &text));
    // Merged by time: a log event from later comes after them.
    let later = t.env("PLAN_NOW", "2026-06-15T15:00");
    later.ok(&["add", "Docs", "--done-when", "README documents the cache"]);
    let json = lines(&later.ok(&["events", "--json"]));
    assert_eq!(
        names(&json),
        [
            "added",
            "started",
            "loop_started",
            "loop_continued",
            "loop_let_go",
            "added"
        ]
    );
}

/// A long plan is read cut down at a stop, most of its log dropped: the loop's
/// events still stand after every log line the plan held, the same minute's
/// `started` among them.
#[test]
fn a_long_plans_loop_events_stand_after_all_its_log_lines() {
    let t = repo("");
    let plan = t.plan_md();
    let (head, started) = plan.split_at(plan.find("- 2026-06-15 14:00 ship started").unwrap());
    let measured: String = (0..1000)
        .map(|i| format!("- 2026-06-15 14:02 measured run {i} of the cache\n"))
        .collect();
    let started = started.replace("14:00", "14:02");
    t.write("plan.md", format!("{head}{measured}{started}"));
    assert!(t.plan_md().len() > 32 * 1024, "long enough to be cut");
    t.ok(&["goal", "--budget", "1"]);
    let logged = t.plan_md().matches("\n- 2026-").count();
    t.stop_hook("s1").code(0);
    t.stop_hook("s1").code(0);
    let journal = std::fs::read_to_string(t.root().join(".git/plan/events.jsonl")).unwrap();
    // The loop's events; the journal also holds plan.md's writes.
    let counts: Vec<u64> = journal
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"] != "written")
        .map(|v| v["log_lines"].as_u64().unwrap())
        .collect();
    assert_eq!(counts, [logged as u64, logged as u64]);
    let json = lines(&t.ok(&["events", "--json"]));
    assert_eq!(
        names(&json),
        [
            "added",
            "started",
            "loop_started",
            "loop_continued",
            "loop_let_go"
        ]
    );
}

#[test]
fn notify_gives_each_chosen_event_its_json_on_stdin() {
    let t = repo(
        "  - events: [signed_off, loop_continued]\n    command: [\"record-event\", \"--from-plan\"]\n",
    )
    .with_bin();
    let out = t.dir.path().join("events.jsonl");
    recorder(&t, &out);
    complete(&t).code(0);
    let got = wait_for(&out, |s| s.lines().count() >= 1);
    let event: Value = serde_json::from_str(got.lines().next().unwrap()).unwrap();
    assert_eq!(event["event"], "signed_off");
    assert_eq!(event["id"], "ship");
    assert_eq!(event["verify"], true);
    assert_eq!(event["judged"]["backend"], "command");
    assert_eq!(event["at"], "2026-06-15 14:02");
    // The same object `plan events --json` prints.
    let listed = lines(&t.ok(&["events", "--json"]));
    assert_eq!(listed.last().unwrap(), &event);

    // Not chosen: no call. Chosen loop event: one call, on the real clock, whose
    // time the notifier gets as `at` in local time, as `plan events` shows it.
    t.ok(&["reopen", "ship", "--reason", "one more check"]);
    t.ok(&["goal", "--budget", "3"]);
    let t = t.env("PLAN_NOW", "");
    t.stop_hook("s1").code(0);
    let got = wait_for(&out, |s| s.lines().count() >= 2);
    let second: Value = serde_json::from_str(got.lines().nth(1).unwrap()).unwrap();
    assert_eq!(second["event"], "loop_continued");
    assert_eq!(second["session"], "s1");
    assert!(second.get("ts").is_none(), "{second}");
    assert_eq!(
        second["at"].as_str().unwrap().len(),
        "2026-06-15 14:02".len()
    );
    let listed = lines(&t.ok(&["events", "--json"]));
    assert_eq!(listed.last().unwrap(), &second);
    std::thread::sleep(Duration::from_millis(500));
    assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 2);
}

#[test]
fn a_rejected_sign_off_and_a_cancel_reach_their_notifier_from_whichever_command_logs_them() {
    let t = judged_repo(
        "reject",
        "  - events: [sign_off_rejected, cancelled]\n    command: [record-event]\n",
    )
    .with_bin();
    let out = t.dir.path().join("events.jsonl");
    recorder(&t, &out);
    complete(&t).code(1);
    let got = wait_for(&out, |s| s.lines().count() >= 1);
    let rejected: Value = serde_json::from_str(got.lines().next().unwrap()).unwrap();
    assert_eq!(rejected["event"], "sign_off_rejected");
    assert_eq!(rejected["id"], "ship");
    assert_eq!(rejected["stage"], "judge");
    t.ok(&["add", "Docs", "--done-when", "README documents the cache"]);
    t.ok(&["cancel", "docs", "--reason", "not needed"]);
    let got = wait_for(&out, |s| s.lines().count() >= 2);
    let cancelled: Value = serde_json::from_str(got.lines().nth(1).unwrap()).unwrap();
    assert_eq!(
        (&cancelled["event"], &cancelled["reason"]),
        (&Value::from("cancelled"), &Value::from("not needed"))
    );
    std::thread::sleep(Duration::from_millis(300));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().count(),
        2,
        "added is not chosen"
    );
}

/// A notifier that marks that it started, writes its pid, sleeps a minute and marks
/// that it finished.
fn sleeper(t: &Test) {
    let dir = t.dir.path();
    t.fake_program(
        "slow-notifier",
        &format!(
            "echo $$ > '{0}/pid'\ntouch '{0}/started'\nsleep 60\ntouch '{0}/finished'\n",
            dir.display()
        ),
    );
}

fn alive(pid: &str) -> bool {
    Path::new(&format!("/proc/{}", pid.trim())).exists()
}

#[test]
fn a_hanging_notifier_holds_up_neither_complete_nor_the_stop_hook_and_is_stopped() {
    let t = repo(
        "  - events: [signed_off, loop_continued]\n    command: [slow-notifier]\n    timeout_secs: 2\n",
    )
    .with_bin();
    sleeper(&t);
    let dir = t.dir.path();
    insta::assert_snapshot!(shown(&t, &complete(&t).code(0)));
    // complete returned; the notifier it started is running, not finished.
    wait_for(&dir.join("started"), |_| true);
    let pid = wait_for(&dir.join("pid"), |s| s.ends_with('\n'));
    assert!(!dir.join("finished").exists());
    assert!(alive(&pid), "the notifier runs on after complete returned");
    // Its watchdog stops it at its timeout, and says so in the notify log.
    let log = wait_for(&t.root().join(".git/plan/notify.log"), |s| {
        s.contains("timed out")
    });
    insta::assert_snapshot!(redact(&t, &log));
    let deadline = Instant::now() + Duration::from_secs(10);
    while alive(&pid) && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(50));
    }
    assert!(!alive(&pid), "the notifier outlived its timeout");
    assert!(!dir.join("finished").exists());

    std::fs::remove_file(dir.join("started")).unwrap();
    std::fs::remove_file(dir.join("pid")).unwrap();
    t.ok(&["reopen", "ship", "--reason", "again"]);
    t.ok(&["goal", "--budget", "3"]);
    let stop = t.stop_hook("s1").code(0);
    insta::assert_snapshot!(crate::util::redact(&t, &stop.stdout));
    wait_for(&dir.join("started"), |_| true);
    let pid = wait_for(&dir.join("pid"), |s| s.ends_with('\n'));
    assert!(
        alive(&pid),
        "the stop hook returned while its notifier runs"
    );
    assert!(!dir.join("finished").exists());
}

#[test]
fn a_missing_notifier_fails_open_with_a_clear_message() {
    let t = repo("  - events: [signed_off, loop_continued]\n    command: [no-such-notifier, hi]\n");
    let run = complete(&t).code(0);
    insta::assert_snapshot!(shown(&t, &run));
    t.ok(&["reopen", "ship", "--reason", "again"]);
    t.ok(&["goal"]);
    let stop = t.stop_hook("s1").code(0);
    insta::assert_snapshot!(crate::util::redact(&t, &stop.stdout));
    insta::assert_snapshot!(crate::util::redact(&t, &stop.stderr));
}

#[test]
fn follow_prints_new_events_as_they_are_logged_and_ends_when_its_reader_goes() {
    let t = repo("");
    let mut child = t
        .cmd(&["events", "--follow", "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let stdout = child.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        let mut lines = BufReader::new(stdout).lines();
        for _ in 0..3 {
            let Some(Ok(line)) = lines.next() else { return };
            tx.send(line).unwrap();
        }
        // Dropping the pipe here.
    });
    let next = || {
        let line = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("an event line");
        serde_json::from_str::<Value>(&line).unwrap()
    };
    assert_eq!(next()["event"], "added");
    assert_eq!(next()["event"], "started");
    t.ok(&["add", "Docs", "--done-when", "README documents the cache"]);
    let added = next();
    assert_eq!(
        (&added["event"], &added["id"]),
        (&Value::from("added"), &Value::from("docs"))
    );
    // The reader goes, and nothing more is logged: the follow sees it gone anyway.
    reader.join().unwrap();
    let deadline = Instant::now() + Duration::from_secs(20);
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if Instant::now() > deadline {
            child.kill().unwrap();
            panic!("plan events --follow kept running with no reader");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(status.success(), "{status:?}");
}

/// The notifier's log under `.git/plan` is a state file: an agent's link there does
/// not have what a failing notify command said written where it points (issue 35;
/// before, `notify.log` was opened following links, and the outside file gained the
/// line `plan: notify: … exited 1: from-the-notifier`).
#[test]
fn a_notify_log_made_a_link_is_not_written_through() {
    let t = repo("  - events: [loop_continued]\n    command: [\"say-on-stderr\"]\n").with_bin();
    let said = t.dir.path().join("said");
    t.fake_program(
        "say-on-stderr",
        &format!(
            "cat > /dev/null; echo from-the-notifier >&2; touch '{}'; exit 1\n",
            said.display()
        ),
    );
    t.ok(&["goal", "--budget", "3"]);
    let outside = t.dir.path().join("precious.txt");
    std::fs::write(&outside, "precious\n").unwrap();
    let log = t.root().join(".git/plan/notify.log");
    let _ = std::fs::remove_file(&log);
    std::os::unix::fs::symlink(&outside, &log).unwrap();
    let t = t.env("PLAN_NOW", "");
    t.stop_hook("s1").code(0);
    // Give a notifier that did start time to write; none starts through the link.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "precious\n");
    assert!(
        !said.exists(),
        "the notifier ran with its stderr through the link"
    );
    assert!(
        std::fs::symlink_metadata(&log)
            .unwrap()
            .file_type()
            .is_symlink(),
        "the link is left for the person to see"
    );
}

//! Red team, ninth pass: the hooks' log-only check of archived goals, and
//! concurrent writers of plan.md around the store's mid-line wait. Each still
//! ignored is an open gap.

use std::io::Write as _;

use crate::util::Test;

/// Two active goals, `a` (verify: a.txt exists) and `b` (b.txt), committed.
fn two_goals() -> Test {
    let t = Test::new();
    t.ok(&["init", "Red team"]);
    for (title, file) in [("A", "a.txt"), ("B", "b.txt")] {
        t.ok(&[
            "add",
            title,
            "--done-when",
            &format!("{file} exists"),
            "--verify",
            &format!("test -f {file}"),
            "--failure-mode",
            &format!("{file} is empty"),
            "--active",
        ]);
    }
    t.ok(&["goal", "--budget", "5"]);
    t.commit_all("start");
    t
}

/// The Claude Code stop hook for `session`: its answer as JSON (null: none).
fn stop(t: &Test, session: &str) -> serde_json::Value {
    let payload = crate::util::fixture("hosts/claude/stop.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", session);
    let mut child = t
        .cmd(&["hook", "claude", "stop"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
    let out = child.wait_with_output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    if stdout.trim().is_empty() {
        return serde_json::Value::Null;
    }
    serde_json::from_str(&stdout).unwrap()
}

/// Goal `b` (never worked on) cut out of the live goals, `status: done` set, moved
/// under a new `## Archive`, and `extra_log` appended to the log.
fn b_hidden(t: &Test, extra_log: &str) {
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    let b = md[from..to].replacen("status: active", "status: done", 1);
    t.write(
        "plan.md",
        format!(
            "{}{}{extra_log}\n## Archive\n\n{}",
            &md[..from],
            md[to..].trim_end(),
            b.trim_end()
        ),
    );
}

/// Cheapest fake there is: `b`, never worked on, set `status: done`, moved under
/// `## Archive` by hand, with one hand-typed sign-off line in the log that names a
/// transcript that does not exist (any path under .plan/judge/, any hash, the
/// contract fingerprint copied from b's own `added` line). No honest sign-off, no
/// reopen, no transcript: `plan audit` says "its transcript … is missing", but the
/// hooks check an archived goal on its latest record line alone
/// (`proof::record_verdict` asks only that a sign-off names *some* contract and
/// *some* record), so the status line, the injection and the stop guard count
/// nothing and let the loop end. Smallest fix: in `proof::on_record`, for a done
/// goal, stat the named transcript (`record::facts` is one `stat` + read of a
/// small file; or compare the path's existence and size only) or at least require
/// the sign-off's contract to equal `goal.fingerprint()` and the path to pass
/// `is_record_path`; a forged line then lands in `prove_where`'s full check.
#[test]
#[ignore = "red team: a hand-typed sign-off line naming no transcript hides an archived goal from the hooks"]
fn a_forged_sign_off_line_hides_an_archived_goal_from_the_hooks() {
    let t = two_goals();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.commit_all("a signed off");
    let md = t.plan_md();
    let contract = md
        .lines()
        .find(|l| l.contains(" b added (contract "))
        .and_then(|l| l.split("(contract ").nth(1))
        .map(|c| c.trim_end_matches(')').to_string())
        .unwrap();
    let stamp = md
        .lines()
        .find(|l| l.contains(" a signed off"))
        .map(|l| l[2..18].to_string())
        .unwrap();
    b_hidden(
        &t,
        &format!(
            "\n- {stamp} b signed off (verify passed, judge skipped, contract {contract}): .plan/judge/b-1.md#0123456789ab\n"
        ),
    );
    let audit = t.run(&["audit"]).code(1);
    audit.stdout_has("is missing");
    let statusline = t.ok(&["statusline"]).stdout;
    let inject = t.ok(&["inject"]).stdout;
    let answer = stop(&t, "s1");
    assert!(
        statusline.contains("unproven") && inject.contains("remaining work: b"),
        "hooks fooled by a forged sign-off line:\nstatusline: {statusline}\ninject: {inject}\nstop: {answer}"
    );
    assert_eq!(answer["decision"], "block", "the loop let go: {answer}");
}

/// An editor saving in place in two pieces whose first piece ends at a line's end
/// (a write buffer boundary that falls on a newline), 300 ms apart. Either the
/// first piece is no shorter than what plan read (it is taken at once), or it is
/// shorter and reads the same for `STABLE` (100 ms); the mid-line wait
/// (`MID_LINE_QUIET`) does not apply to either, since the piece ends with `\n`.
/// Plan renames its version over the file, and the second piece goes to the old
/// inode, which nothing reads: the carry-over loop in `Store::replace` watches the
/// old file for ~2 ms only. Observed (first case): plan.md ends `10:01 two` then
/// plan's `mine`; the editor's `10:02 three` is gone. Smallest fix: after the
/// rename, keep watching the old handle for appends until it has not been written
/// for `MID_LINE_QUIET` (carry-over already merges an append); or wait for any file
/// written under `MID_LINE_QUIET` ago, not only one that ends mid-line.
#[test]
#[ignore = "red team: an in-place save split at a line end loses its second piece"]
fn an_in_place_save_split_at_a_line_end_keeps_every_byte() {
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one\n";
    let theirs = format!("{before}- 2026-01-01 10:01 two\n- 2026-01-01 10:02 three\n");
    let longer = theirs.find("- 2026-01-01 10:02").unwrap();
    let shorter = theirs.find("- 2026-01-01 10:00").unwrap();
    let mut lost = Vec::new();
    for cut in [longer, shorter] {
        let t = Test::new().plan(before);
        let (first, second) = theirs.split_at(cut);
        assert!(first.ends_with('\n'));
        let (first, second) = (first.to_string(), second.to_string());
        let path = t.path("plan.md");
        let (started, wait) = std::sync::mpsc::channel();
        let editor = std::thread::spawn(move || {
            let mut file = std::fs::File::create(&path).unwrap();
            file.write_all(first.as_bytes()).unwrap();
            started.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            file.write_all(second.as_bytes()).unwrap();
        });
        wait.recv().unwrap();
        let run = t.run(&["log", "mine"]);
        editor.join().unwrap();
        let md = t.plan_md();
        // plan may refuse (a conflict) but must not drop the editor's bytes.
        if !md.contains("10:02 three") || (run.code == 0 && !md.contains(" mine")) {
            lost.push(format!(
                "cut at {cut} (exit {}, {}):\n{md}",
                run.code, run.stderr
            ));
        }
    }
    assert!(lost.is_empty(), "a piece was lost:\n{}", lost.join("\n"));
}

/// A plan.md legitimately without its final newline, just saved, written by four
/// `plan log` processes at once: each waits out `MID_LINE_QUIET` under the lock
/// (the first) or finds the newline plan added; none of the lines is lost and none
/// fails. Holds.
#[test]
fn concurrent_writes_to_a_file_without_a_final_newline_lose_nothing() {
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one";
    let t = Test::new().plan(before);
    let children: Vec<_> = (0..4)
        .map(|i| {
            t.cmd(&["log", &format!("writer {i}")])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let md = t.plan_md();
    assert!(md.contains("10:00 one\n"), "{md}");
    for i in 0..4 {
        assert!(
            md.contains(&format!("writer {i}")),
            "writer {i} lost:\n{md}"
        );
    }
}

/// A judge that, while `plan complete` waits for it, replaces plan.md with a
/// symlink to a copy of it elsewhere in the repository: plan writes the sign-off
/// through the link (the file plan.md names), keeps the link, and the sign-off is
/// proven; nothing the copy held is lost. Holds.
#[test]
fn plan_md_replaced_by_a_symlink_while_the_judge_runs_keeps_every_byte() {
    let t = two_goals();
    t.write("a.txt", "a\n");
    // The judge reads a copy of the tree: the swap is made in the real one.
    let judge = t.fake_program(
        "judge",
        &(format!("cat >/dev/null\ncd '{}'\n", t.root().display()) + "mkdir -p docs\nsed 's/^# Plan: Red team$/# Plan: Red team (moved)/' plan.md > docs/real.md\nln -sf docs/real.md plan.md.new && mv plan.md.new plan.md\nprintf 'VERDICT: accept\\nmissing: none\\n'"),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            judge.display()
        ),
    );
    t.commit_all("judge");
    let run = t.run(&[
        "complete",
        "a",
        "--evidence",
        "a.txt is there",
        "--path",
        "a.txt",
    ]);
    let link = std::fs::symlink_metadata(t.path("plan.md")).unwrap();
    let real = t.read("docs/real.md");
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert!(
        real.contains("(moved)"),
        "the judge's edit was lost:\n{real}"
    );
    if run.code == 0 {
        assert!(real.contains(" a signed off"), "{real}");
        let a = t.ok(&["show", "a", "--json"]).json();
        assert_eq!(a["proof"]["state"], "proven", "{a}");
    } else {
        assert!(!real.contains(" a signed off"), "{}\n{real}", run.stderr);
    }
}

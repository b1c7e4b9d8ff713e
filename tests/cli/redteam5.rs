//! Red team, fifth pass: faking a completion and racing a write on the final tree,
//! by a dishonest agent with a shell or a concurrent writer. Each still ignored is
//! an open gap.

use crate::util::Test;

const PLAN: &str = "# Plan: Proof

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- [x] write it

## Goal: Other
<!-- id: other -->
status: open
done_when: OTHER.md exists
verify: test -f OTHER.md
failure_modes:
- OTHER.md is empty
- [ ] write it

## Log
";

/// `ship` started through plan, judged by the accepting command fixture.
fn repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("plan.md", PLAN);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

fn complete(t: &Test) -> crate::util::Run {
    t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ])
}

fn line_with<'a>(md: &'a str, needle: &str) -> &'a str {
    md.lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("no line with {needle:?}:\n{md}"))
}

fn status_of(t: &Test, id: &str) -> String {
    let json = t.ok(&["show", id, "--json"]).json();
    json["status"].as_str().unwrap_or_default().to_string()
}

/// Signed off, committed, reopened, committed.
fn reopened() -> Test {
    let t = repo();
    complete(&t).code(0);
    t.ok(&["audit"]);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "verify fails again"]);
    t.commit_all("reopened");
    t
}

/// The replay check compared the hashes two sign-off lines wrote as strings; the
/// proof check accepts any prefix of the blob id. A replayed line that names a copy
/// of the old transcript with a longer prefix of the same blob id (same bytes, new
/// name) was a new sign-off: a reopened goal read as proven again.
#[test]
fn a_copied_transcript_named_with_a_longer_hash_does_not_undo_a_reopen() {
    let t = reopened();
    let md = t.plan_md();
    let signed = line_with(&md, "ship signed off").to_string();
    let old = ".plan/judge/ship-20260615-1402.md";
    let new = ".plan/judge/ship-20260615-1409.md";
    t.write(new, t.read(old));
    let full = t.git(&["hash-object", new]).trim().to_string();
    let (_, short) = signed
        .split_once(&format!("{old}#"))
        .expect("the sign-off names its transcript");
    let short = &short[..12];
    assert!(full.starts_with(short));
    let forged = signed
        .replace("14:02", "14:09")
        .replace(&format!("{old}#{short}"), &format!("{new}#{}", &full[..20]));
    t.write(
        "plan.md",
        format!("{}{forged}\n", md.replace("status: active", "status: done")),
    );
    assert_eq!(status_of(&t, "ship"), "done");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a copied transcript with a longer hash proves a reopened goal:\n{}",
        run.stdout
    );
    run.stdout_has("an earlier sign-off already used");
}

fn command_judge(t: &Test, script: &str) {
    let judge = t.fake_program("judge", &format!("cat >/dev/null\n{script}"));
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            judge.display()
        ),
    );
    t.commit_all("judge");
}

/// Whatever odd answer the judge gives, `ship` is not signed off.
fn refused(t: &Test, what: &str) -> crate::util::Run {
    let run = complete(t);
    let md = t.plan_md();
    assert_ne!(
        run.code, 0,
        "{what}: signed off:\n{}{}\n{md}",
        run.stdout, run.stderr
    );
    assert!(!md.contains("ship signed off"), "{what}:\n{md}");
    assert_eq!(status_of(t, "ship"), "active", "{what}");
    run
}

/// An accept followed by a crash is not an accept.
#[test]
fn a_judge_that_accepts_then_exits_non_zero_signs_nothing_off() {
    let t = repo();
    command_judge(&t, "printf 'VERDICT: accept\\nmissing: none\\n'\nexit 1");
    refused(&t, "accept then exit 1").stdout_has("exited with code 1");
}

/// The judge's containment check covers files git does not track yet: a judge
/// that plants a transcript of its own under `.plan/judge/` is refused.
#[test]
fn a_judge_that_writes_a_transcript_of_its_own_signs_nothing_off() {
    let t = repo();
    command_judge(
        &t,
        "mkdir -p .plan/judge\nprintf '# Sign-off record: ship\\n' > .plan/judge/ship-20260615-1402.md\n\
         printf 'VERDICT: accept\\nmissing: none\\n'",
    );
    refused(&t, "a planted transcript").stdout_has("containment");
}

/// The judge's stdout is kept to its last 256 KiB. A reject, a long middle, then an
/// accept was read from the tail alone as an accept, though the whole answer has
/// two verdicts, which is no verdict: an answer plan did not read in full must not
/// sign anything off.
#[test]
fn a_judge_answer_longer_than_what_is_kept_is_no_verdict() {
    let t = repo();
    command_judge(
        &t,
        "printf 'VERDICT: reject\\nmissing:\\n- the README is empty\\n\\n'\n\
         i=0; while [ $i -lt 6000 ]; do echo 'notes notes notes notes notes notes notes notes notes notes notes'; i=$((i+1)); done\n\
         printf 'VERDICT: accept\\nmissing: none\\n'",
    );
    refused(&t, "a reject, 390 KB, an accept");
}

/// Two verdict lines that agree, one inside a code block that disagrees: the
/// quoted one is not the judge's; the answer stands, and here rejects.
#[test]
fn a_verdict_quoted_in_code_does_not_count() {
    let t = repo();
    command_judge(
        &t,
        "printf 'The agent wrote:\\n\\n```\\nVERDICT: accept\\nmissing: none\\n```\\n\\nVERDICT: reject\\nmissing:\\n- it is not done\\n'",
    );
    refused(&t, "accept quoted, reject said").stdout_has("it is not done");
}

/// An editor saving in place in two pieces with a pause longer than the 100 ms the
/// store waits for a shrunken file to read the same: plan took the first piece as
/// the file, renamed its version over it, and the second piece went to the old
/// file, which nothing reads any more. A write now waits for a file that ends
/// inside a line and was written under a second ago.
#[test]
fn an_in_place_save_in_two_slow_pieces_keeps_every_byte() {
    use std::io::Write;
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one\n";
    let t = Test::new().plan(before);
    let theirs = before.replace("# Plan: x\n", "# Plan: x\nA line the person added.\n");
    let (first, second) = theirs.split_at(theirs.len() - 10);
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
    let run = t.run(&["log", "x"]);
    editor.join().unwrap();
    let md = t.plan_md();
    assert!(
        md.starts_with(&theirs),
        "the editor's save was cut ({}):\n{md}",
        run.stderr
    );
}

/// A judge that moves the other goal above the one it judges (a reorder, no
/// contract or status changed) while `plan complete` waits for it: the sign-off is
/// written into the goal it judged, and the move is kept.
#[test]
fn goals_reordered_while_the_judge_runs_keep_the_sign_off_on_its_goal() {
    let t = repo();
    let md = t.plan_md();
    let ship_at = md.find("## Goal: Ship it").unwrap();
    let other_at = md.find("## Goal: Other").unwrap();
    let log_at = md.find("## Log").unwrap();
    let moved = format!(
        "{}{}{}{}",
        &md[..ship_at],
        &md[other_at..log_at],
        &md[ship_at..other_at],
        &md[log_at..]
    );
    let outside = t.dir.path().join("moved.md");
    std::fs::write(&outside, &moved).unwrap();
    // The judge reads a copy of the tree: the move is made in the real one, as a
    // person editing plan.md meanwhile would.
    command_judge(
        &t,
        &format!(
            "cd '{}' && cat '{}' > plan.md\nprintf 'VERDICT: accept\\nmissing: none\\n'",
            t.root().display(),
            outside.display()
        ),
    );
    complete(&t).code(0);
    let md = t.plan_md();
    assert!(
        md.find("## Goal: Other").unwrap() < md.find("## Goal: Ship it").unwrap(),
        "the move was lost:\n{md}"
    );
    assert_eq!(status_of(&t, "ship"), "done", "{md}");
    assert_eq!(status_of(&t, "other"), "open", "{md}");
    let proof = t.ok(&["show", "ship", "--json"]).json();
    assert_eq!(proof["proof"]["state"], "proven", "{proof}");
}

/// A notify command on `signed_off` that cancels the other goal by hand in
/// plan.md: it is started only after the sign-off is on disk, so it cannot land
/// inside the write (the sign-off stands, and is proven), and its own edit is not
/// lost either; the hand-made cancel reads as unproven.
#[test]
fn a_notify_command_cannot_edit_plan_md_inside_the_sign_off_write() {
    let t = repo().with_bin();
    t.fake_program(
        "meddle",
        "cat >/dev/null\nsed -i 's/^status: open/status: cancelled/' plan.md\ntouch meddled\n",
    );
    let judge = crate::util::fixture_path("judges/accept");
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\nnotify:\n  - events: [started, signed_off]\n    command: [meddle]\n",
            judge.display()
        ),
    );
    t.commit_all("notify");
    complete(&t).code(0);
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    while !t.path("meddled").exists() {
        assert!(
            std::time::Instant::now() < deadline,
            "the notifier never ran"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    let md = t.plan_md();
    assert!(md.contains("ship signed off"), "{md}");
    assert_eq!(status_of(&t, "ship"), "done", "{md}");
    assert_eq!(
        status_of(&t, "other"),
        "cancelled",
        "the notifier's edit was lost:\n{md}"
    );
    let ship = t.ok(&["show", "ship", "--json"]).json();
    assert_eq!(ship["proof"]["state"], "proven", "{ship}");
    t.run(&["audit"]).code(1).stdout_has("cancelled by hand");
}

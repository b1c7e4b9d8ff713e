//! Done means done: a sign-off record that is forged, replayed, copied or laundered
//! (a line edited to name another judge, a transcript copied under a new name or
//! written by hand, a reopen moved or renamed) proves nothing; an honest one stays
//! proven, in a clone that converts line endings too. Each test names the attack.

use crate::setup::{
    contract_of, line_with, plan, reopened, sign_off_ship, started, status_of, two_goals,
    two_goals_looping,
};
use crate::util::{Test, redact, shown};

/// The judge a sign-off line claims is not checked against the transcript's header:
/// a `--judge none` sign-off (header `judge: none`) edited to read `judge
/// claude:opus accept` loses its "signed off without a judge" warning.
#[test]
fn a_sign_off_line_edited_to_name_another_judge_is_caught() {
    let t = started(&plan("ship.md"));
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--judge",
        "none",
    ]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    let md = t.plan_md();
    assert!(md.contains("judge skipped"), "{md}");
    t.write(
        "plan.md",
        md.replace("judge skipped", "judge claude:opus accept"),
    );
    // The transcript still says `- judge: none`: the line lies about who judged.
    let run = t.run(&["audit"]);
    insta::assert_snapshot!(shown(&t, &run));
}

/// Same with a command judge: its warning disappears when the line is edited.
#[test]
fn a_command_judge_sign_off_cannot_pass_for_a_model_judge() {
    let t = started(&plan("ship.md"));
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    t.write(
        "plan.md",
        t.plan_md()
            .replace("judge command accept", "judge claude:opus accept"),
    );
    let run = t.run(&["audit"]);
    insta::assert_snapshot!(shown(&t, &run));
}

/// A `plan cancel` of an earlier goal with the same id proves a later goal that
/// was cancelled by hand: the cancel check looks at any cancel event for the id,
/// even one logged before the goal was added.
#[test]
fn a_reused_id_does_not_inherit_an_old_cancel() {
    let t = Test::new();
    t.ok(&["init", "x"]);
    t.ok(&["add", "Spike", "--done-when", "try it"]);
    t.ok(&["cancel", "spike", "--reason", "not needed"]);
    // The cancelled goal is deleted by hand, and a new goal gets the same id.
    let md = t.plan_md();
    let start = md.find("## Goal: Spike").unwrap();
    let end = md.find("## Log").unwrap();
    t.write("plan.md", format!("{}{}", &md[..start], &md[end..]));
    t.ok(&[
        "add",
        "Spike",
        "--done-when",
        "the real feature ships",
        "--failure-mode",
        "it is skipped",
    ]);
    let md = t.plan_md();
    assert!(md.contains("<!-- id: spike -->"), "{md}");
    // The agent drops it by hand.
    t.write(
        "plan.md",
        md.replacen("status: open", "status: cancelled", 1),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// The contract fingerprint is 32 bits. A weakened contract (verify `true`, the
/// failure mode gone) with a nonce ground offline to give the same 8 hex digits
/// keeps the real sign-off standing: proven, though the judge saw another contract.
#[test]
fn a_weakened_contract_with_a_colliding_fingerprint_is_unproven() {
    let t = started(&plan("ship.md"));
    let before = contract_of(&t, "ship");
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.ok(&["audit"]);
    // Found with about 2^32 SHA-1 trials (a few minutes on two cores).
    let weakened = t
        .plan_md()
        .replace("verify: test -f README.md", "verify: true")
        .replace(
            "- README.md is empty",
            "- verify may pass on a trivial or gamed test, id 1000000027a02b96",
        );
    t.write("plan.md", &weakened);
    assert_eq!(
        contract_of(&t, "ship"),
        before,
        "the collision no longer holds"
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// A reopen is undone by appending, which the append-only log allows: the goal's
/// old sign-off line copied below the reopen (and `status: done` set back) stands
/// "after its latest reopen", names the same intact transcript with the unchanged
/// contract, so the goal reads as proven without a new `plan complete`. Nothing
/// ties a sign-off line to one use of its transcript (or the transcript to a
/// moment after the reopen), and `plan diff` shows only an added line.
#[test]
fn a_replayed_sign_off_line_does_not_undo_a_reopen() {
    let t = started(&plan("ship.md"));
    sign_off_ship(&t);
    t.ok(&["audit"]);
    t.commit_all("signed off");
    t.ok(&[
        "reopen",
        "ship",
        "--reason",
        "audit --reverify: verify fails",
    ]);
    let md = t.plan_md();
    let signed = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .unwrap()
        .to_string();
    // Only appends and a status flip: no log line changed or removed.
    t.write(
        "plan.md",
        format!("{}{signed}\n", md.replace("status: active", "status: done")),
    );
    insta::assert_snapshot!(redact(&t, &t.run(&["diff"]).stderr));
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopened goal reads as proven without a new sign-off:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

/// Deleting the reopen line (a log rewrite `plan diff` warns about) is enough too:
/// `plan audit`, the injection and the guard read only the current log.
#[test]
fn a_deleted_reopen_line_does_not_make_the_old_sign_off_count() {
    let t = started(&plan("ship.md"));
    sign_off_ship(&t);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "regressed"]);
    t.commit_all("reopened");
    let md = t.plan_md();
    let hidden: String = md
        .lines()
        .filter(|l| !l.contains("ship reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: active", "status: done");
    t.write("plan.md", hidden);
    // The only trace is plan diff's warning against HEAD; once committed, none.
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the old sign-off counts again once the reopen line is gone:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

/// A reopen undone by moving its line above the sign-off line (no line added or
/// removed): audit finds plan's lines out of their committed order, and the proof
/// check finds them out of time order when their stamps differ.
#[test]
fn a_reopen_line_moved_above_the_sign_off_does_not_undo_the_reopen() {
    let t = reopened(&plan("ship-other.md"));
    let md = t.plan_md();
    let signed = line_with(&md, "ship signed off").to_string();
    let reopen = line_with(&md, "ship reopened:").to_string();
    let swapped = md
        .replace(&signed, "\u{0}")
        .replace(&reopen, &signed)
        .replace('\u{0}', &reopen)
        .replace("status: active", "status: done");
    t.write("plan.md", &swapped);
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopen moved above its sign-off is forgotten:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "once committed, a reordered log proves the goal:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

/// A copy of the old transcript under a new name (same bytes, so the same hash),
/// named by a new sign-off line appended after a reopen: the replay check keys on
/// the hash as well as the path, so it is the same transcript backing two sign-offs.
#[test]
fn a_transcript_copied_under_a_new_name_does_not_undo_a_reopen() {
    let t = reopened(&plan("ship-other.md"));
    let md = t.plan_md();
    let signed = line_with(&md, "ship signed off").to_string();
    let old = ".plan/judge/ship-20260615-1402.md";
    let new = ".plan/judge/ship-20260615-1409.md";
    t.write(new, t.read(old));
    let forged = signed.replace("14:02", "14:09").replace(old, new);
    t.write(
        "plan.md",
        format!("{}{forged}\n", md.replace("status: active", "status: done")),
    );
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a copied transcript proves a reopened goal:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

/// A reopen line edited to name another goal: `ship` has no reopen after its
/// sign-off any more, and `other` (open) takes the blame harmlessly.
#[test]
fn a_reopen_line_edited_into_another_id_does_not_undo_the_reopen() {
    let t = reopened(&plan("ship-other.md"));
    let md = t
        .plan_md()
        .replace("ship reopened:", "other reopened:")
        .replace("status: active", "status: done");
    t.write("plan.md", &md);
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a reopen moved onto another goal is forgotten:\n{}",
        run.stdout
    );
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "once committed, the renamed reopen proves the goal:\n{}",
        run.stdout
    );
}

/// The replay check compared the hashes two sign-off lines wrote as strings; the
/// proof check accepts any prefix of the blob id. A replayed line that names a copy
/// of the old transcript with a longer prefix of the same blob id (same bytes, new
/// name) was a new sign-off: a reopened goal read as proven again.
#[test]
fn a_copied_transcript_named_with_a_longer_hash_does_not_undo_a_reopen() {
    let t = reopened(&plan("ship-other-todo.md"));
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
    insta::assert_snapshot!(shown(&t, &run));
}

/// Waits up to 20 s for `path` to hold a line containing `needle`.
fn wait_for_line(path: &std::path::Path, needle: &str) -> String {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
    loop {
        if let Ok(text) = std::fs::read_to_string(path)
            && text.contains(needle)
        {
            return text;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "{} never got {needle:?}",
            path.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// A sign-off line typed by hand is echoed by `plan events` (it reads the log), but
/// a write that carries it over (here `plan cancel` of the other goal) announces
/// only the lines it wrote: no `signed_off` reaches a notifier, and the export,
/// injection and status line call the goal unproven.
#[test]
fn a_hand_written_sign_off_line_reaches_no_notifier_and_no_proven_export() {
    let t = two_goals().with_bin();
    let out = t.dir.path().join("events.jsonl");
    t.fake_program("record-event", &format!("cat >> '{}'\n", out.display()));
    t.write(
        ".plan/config.yaml",
        "notify:\n  - events: [signed_off, cancelled]\n    command: [record-event]\n",
    );
    let fp = t.ok(&["show", "a", "--json"]).json()["contract"]
        .as_str()
        .unwrap()
        .to_string();
    t.write("a.txt", "a\n");
    let forged = format!(
        "- 2026-06-15 14:02 a signed off (verify passed, judge claude:opus accept, contract {fp}): .plan/judge/a-20260615-1402.md#0123456789ab (checkpoint 0123456789ab)\n"
    );
    let md = t.plan_md();
    let at = md.find("## Goal: B").unwrap();
    let (head, tail) = md.split_at(at);
    t.write(
        "plan.md",
        format!(
            "{}{tail}{forged}",
            head.replacen("status: active", "status: done", 1)
        ),
    );
    assert_eq!(status_of(&t, "a"), "done");
    t.ok(&["cancel", "b", "--reason", "not needed"]);
    let got = wait_for_line(&out, "\"cancelled\"");
    std::thread::sleep(std::time::Duration::from_millis(500));
    let got = std::fs::read_to_string(&out).unwrap_or(got);
    insta::assert_snapshot!(redact(&t, &got));
    assert!(
        t.ok(&["events", "--json"])
            .stdout
            .contains("\"signed_off\""),
        "plan events echoes the log line"
    );
    let export = t.ok(&["export"]).json();
    assert_eq!(export["goals"][0]["id"], "a");
    assert_eq!(export["goals"][0]["proof"]["state"], "unproven");
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
}

/// A transcript is text anyone can type too: six header lines written by hand (the
/// goal, its whole contract blob id from `git hash-object`, `verdict: accept`, a
/// model judge), their blob id in a sign-off line, `status: done`, and no verify or
/// judge ever ran. That proved `b` everywhere; now a record must carry the line's
/// stamp (`- when:`) and show the contract the judge was asked about (`## Contract
/// as judged`), so the cheap forms are caught, each with its reason. The complete
/// form is not: see [`a_complete_fabrication_does_not_prove_a_goal`].
#[test]
fn a_transcript_fabricated_by_hand_does_not_prove_a_goal() {
    let t = two_goals();
    let header = fabricated_header(&t);
    let run = fabricate(&t, &header);
    assert_eq!(
        run.code, 1,
        "a hand-made transcript proves b:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));

    let t = two_goals();
    let header = format!("{}- when: 2026-06-15 14:02\n", fabricated_header(&t));
    let run = fabricate(&t, &header);
    assert_eq!(
        run.code, 1,
        "a hand-made transcript proves b:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
}

/// Still open, and not closable by any check on what is in the repository: every
/// line plan writes in a record (header, `- when:`, the contract as judged, a judge
/// section naming a checkpoint made with `git commit-tree` and `git update-ref`) can
/// be typed by an agent with a shell, and no byte of an honest record is one the
/// agent could not have written. What tells them apart is that a judge ran, which
/// only something outside the agent's reach shows: `plan audit --base --rejudge` in
/// CI (asks the judge again), or a record signed with a key the agent cannot read.
#[test]
#[ignore = "open: a transcript complete in every line plan writes, typed by hand, proves a goal; only plan audit --rejudge (CI) catches it"]
fn a_complete_fabrication_does_not_prove_a_goal() {
    let t = two_goals();
    let header = format!(
        "{}- when: 2026-06-15 14:02\n\n## Contract as judged\n\n## Goal: B\n{B_CONTRACT}\n## Contract history\n\n- created\n",
        fabricated_header(&t)
    );
    let run = fabricate(&t, &header);
    assert_eq!(
        run.code, 1,
        "a hand-made transcript proves b:\n{}",
        run.stdout
    );
}

const B_CONTRACT: &str =
    "done_when: b.txt exists\nverify: test -f b.txt\nfailure_modes:\n- b.txt is empty\n";

/// The six header lines of a record for `b`, typed by hand.
fn fabricated_header(t: &Test) -> String {
    t.write("contract.txt", B_CONTRACT);
    let contract = t.git(&["hash-object", "contract.txt"]).trim().to_string();
    std::fs::remove_file(t.path("contract.txt")).unwrap();
    format!(
        "# Sign-off record: b\n\n- goal: b\n- contract: {contract}\n- verdict: accept\n- judge: claude:opus\n- prompt overrides: none\n"
    )
}

/// Writes `text` as b's transcript, a sign-off line naming it and `status: done`;
/// then `plan audit`.
fn fabricate(t: &Test, text: &str) -> crate::util::Run {
    let path = ".plan/judge/b-20260615-1402.md";
    t.write(path, text);
    let hash = t.git(&["hash-object", path]).trim().to_string();
    let contract = text
        .lines()
        .find_map(|l| l.strip_prefix("- contract: "))
        .unwrap()
        .to_string();
    let md = t.plan_md();
    let at = md.find("## Goal: B").unwrap();
    let (head, tail) = md.split_at(at);
    t.write(
        "plan.md",
        format!(
            "{head}{}- 2026-06-15 14:02 b signed off (verify passed, judge claude:opus accept, contract {}): {path}#{}\n",
            tail.replacen("status: active", "status: done", 1),
            &contract[..8],
            &hash[..12]
        ),
    );
    t.run(&["audit"])
}

/// `plan events` is the stream a dashboard or CI reads. A sign-off line typed by hand
/// (for a goal that is not even there, naming a transcript that does not exist) came
/// out as a `signed_off` event exactly like a real one: same fields, same text, no
/// sign that no record backs it. Each sign-off event now says whether its record
/// backs it (`backed`, and `unbacked` with the reason when not), and the readable
/// line marks one that is not; a real sign-off reads as backed.
#[test]
fn a_hand_typed_sign_off_line_is_marked_in_plan_events() {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    let forged = [
        // No transcript at all, for an id no goal has.
        "zz signed off (verify passed, judge claude:opus accept, contract 01234567): .plan/judge/zz.md#0123456789ab",
        // The real transcript of `a`, claimed for `b`.
        &t.plan_md()
            .lines()
            .find(|l| l.contains("a signed off"))
            .unwrap()
            .split_once(" a signed off")
            .map(|(_, rest)| format!("b signed off{rest}"))
            .unwrap(),
    ];
    let mut md = t.plan_md();
    for line in &forged {
        md.push_str(&format!("- 2026-06-15 15:00 {line}\n"));
    }
    t.write("plan.md", &md);
    let run = t.ok(&["events", "--json"]);
    let signed: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|e| e["event"] == "signed_off")
        .collect();
    assert_eq!(signed.len(), 3, "{}", run.stdout);
    assert_eq!(signed[0]["id"], "a");
    assert_eq!(signed[0]["backed"], true, "{}", signed[0]);
    for (event, why) in signed[1..]
        .iter()
        .zip(["is missing", "is for goal a, not b"])
    {
        assert_eq!(
            event["backed"], false,
            "a forged line reads as backed: {event}"
        );
        let unbacked = event["unbacked"].as_str().unwrap_or_default();
        assert!(unbacked.contains(why), "{unbacked}");
    }
    let text = t.ok(&["events"]).stdout;
    let marked: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("⚠ not backed"))
        .collect();
    assert_eq!(marked.len(), 2, "{text}");
    assert!(
        marked.iter().all(|l| !l.contains(" a signed off")),
        "{text}"
    );
}

/// A transcript is proven by the git blob id of its bytes on disk, but git may
/// convert line endings between the commit and the working tree: a clone with
/// `core.autocrlf=true` (or a `.gitattributes` asking for `eol=crlf`, or `text=auto`
/// normalising a transcript that holds CRLF output) checks transcripts out with
/// other bytes, and there every honest sign-off read "changed after the sign-off".
/// `.plan/judge/` now carries a `.gitattributes` that keeps its files byte for byte.
#[test]
fn an_honest_sign_off_stays_proven_in_a_clone_that_converts_line_endings() {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    // Asked for by the repository, for every file.
    t.write(".gitattributes", "* text eol=crlf\n");
    t.commit_all("a signed off");
    let clone = t.dir.path().join("clone");
    t.git(&[
        "-c",
        "core.autocrlf=true",
        "clone",
        "-q",
        t.root().to_str().unwrap(),
        clone.to_str().unwrap(),
    ]);
    let out = t.cmd(&["audit"]).current_dir(&clone).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    insta::assert_snapshot!(redact(&t, &stdout));
}

/// Attack (adversary pass): fake a completion by hand-editing `status: active` to
/// `status: done`, with a hand-typed panel line (`judges A + B accept`) naming a
/// transcript that does not exist. Caught: audit fails and export reads unproven.
#[test]
fn a_hand_edited_status_with_a_typed_panel_line_is_not_proven() {
    let t = two_goals();
    t.write("b.txt", "b\n");
    let md = t.plan_md();
    let at = md.find("## Goal: B").unwrap();
    let (head, tail) = md.split_at(at);
    t.write(
        "plan.md",
        format!(
            "{head}{}- 2026-06-15 14:02 b signed off (verify passed, judges claude:opus + codex:gpt-5 accept, contract 01234567): .plan/judge/b-20260615-1402.md#0123456789ab\n",
            tail.replacen("status: active", "status: done", 1),
        ),
    );
    assert_eq!(status_of(&t, "b"), "done");
    let run = t.run(&["audit"]);
    assert_eq!(run.code, 1, "a typed panel line proves b:\n{}", run.stdout);
    let b = t.ok(&["show", "b", "--json"]).json();
    assert_ne!(b["proof"]["state"], "proven", "{b}");
}

/// Attack (adversary pass): a reopen line deleted by hand, covered by a typed
/// `log repaired: removed 1 duplicated line` event (the line `plan doctor --fix`
/// writes, which excuses removed copies). Caught: only exact copies are excused,
/// and the reopen had none.
#[test]
fn a_typed_log_repaired_line_does_not_excuse_a_deleted_reopen() {
    let t = crate::setup::reopened(&plan("ship.md"));
    let hidden: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("ship reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: active", "status: done")
        + "- 2026-06-15 14:30 log repaired: removed 1 duplicated line\n";
    t.write("plan.md", hidden);
    t.commit_all("tidy");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "a typed log-repaired line excuses the deleted reopen:\n{}",
        run.stdout
    );
    insta::assert_snapshot!(shown(&t, &run));
}

//! What the judge and verify may not do during a sign-off: edit plan.md, plant a
//! transcript, accept and then fail, hide a verdict in a long answer or a code block,
//! or have a notify command edit plan.md inside the sign-off's write. Each ends in
//! no sign-off.

use crate::setup::{command_judge, committed_judge, complete_ship, plan, started, status_of};
use crate::util::{Test, redact, shown};

/// The judge's containment check leaves plan.md out (a person may edit it while
/// the judge runs), so a judge that rewrote plan.md went unnoticed: here it weakens
/// the open goal `other` to `verify: true` and drops its failure mode. The sign-off
/// of `ship` now stands only on the plan it started from.
#[test]
fn a_judge_that_edits_plan_md_fails_the_sign_off() {
    let t = started(&plan("ship-other.md"));
    command_judge(
        &t,
        "sed -i -e 's/verify: test -f OTHER.md/verify: true/' -e '/OTHER.md is empty/d' plan.md\n\
         printf 'VERDICT: accept\\nmissing: none\\n'",
    );
    t.commit_all("judge");
    let run = t.run(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    let md = t.plan_md();
    assert_ne!(
        run.code, 0,
        "a judge rewrote plan.md and the sign-off passed:\n{}{}",
        run.stdout, run.stderr
    );
    // The judge reads a copy of the tree now: its edit lands there, and
    // containment names it (plan.md is left out of that check no longer).
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
    assert!(!md.contains("verify: true"), "{md}");
    assert!(!md.contains("ship signed off"), "{md}");
}

/// The verify stage leaves plan.md out of its change check too: a verify that
/// hides another goal, or finishes it by hand, while `ship` is checked.
#[test]
fn a_verify_that_edits_plan_md_fails_the_sign_off() {
    for (edit, said) in [
        (
            "sed -i '/^## Goal: Other/,/OTHER.md is empty/d' plan.md",
            "goal other disappeared",
        ),
        (
            "sed -i 's/^status: open/status: cancelled/' plan.md",
            "goal other went from open to cancelled",
        ),
    ] {
        let t = crate::setup::verified_by(&[("check", &format!("{edit}\ntest -f README.md"))]);
        let run = t.run(&[
            "complete",
            "ship",
            "--evidence",
            "done",
            "--path",
            "README.md",
        ]);
        assert_ne!(
            run.code, 0,
            "{edit}: the sign-off passed:\n{}{}",
            run.stdout, run.stderr
        );
        assert!(run.stderr.contains(said), "{edit}: {}", run.stderr);
        assert!(!t.plan_md().contains("ship signed off"), "{}", t.plan_md());
    }
}

/// Whatever odd answer the judge gives, `ship` is not signed off.
fn refused(t: &Test, what: &str) -> crate::util::Run {
    let run = complete_ship(t);
    signed_nothing_off(t, &run, what);
    assert_eq!(status_of(t, "ship"), "active", "{what}");
    run
}

/// An accept followed by a crash is not an accept.
#[test]
fn a_judge_that_accepts_then_exits_non_zero_signs_nothing_off() {
    let t = started(&plan("ship-other-todo.md"));
    committed_judge(&t, "printf 'VERDICT: accept\\nmissing: none\\n'\nexit 1");
    insta::assert_snapshot!(shown(&t, &refused(&t, "accept then exit 1")));
}

/// The judge's containment check covers files git does not track yet: a judge
/// that plants a transcript of its own under `.plan/judge/` is refused.
#[test]
fn a_judge_that_writes_a_transcript_of_its_own_signs_nothing_off() {
    let t = started(&plan("ship-other-todo.md"));
    committed_judge(
        &t,
        "mkdir -p .plan/judge\nprintf '# Sign-off record: ship\\n' > .plan/judge/ship-20260615-1402.md\n\
         printf 'VERDICT: accept\\nmissing: none\\n'",
    );
    insta::assert_snapshot!(shown(&t, &refused(&t, "a planted transcript")));
}

/// The judge's stdout is kept to its last 256 KiB. A reject, a long middle, then an
/// accept was read from the tail alone as an accept, though the whole answer has
/// two verdicts, which is no verdict: an answer plan did not read in full must not
/// sign anything off.
#[test]
fn a_judge_answer_longer_than_what_is_kept_is_no_verdict() {
    let t = started(&plan("ship-other-todo.md"));
    committed_judge(
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
    let t = started(&plan("ship-other-todo.md"));
    committed_judge(
        &t,
        "printf 'The agent wrote:\\n\\n```\\nVERDICT: accept\\nmissing: none\\n```\\n\\nVERDICT: reject\\nmissing:\\n- it is not done\\n'",
    );
    insta::assert_snapshot!(shown(&t, &refused(&t, "accept quoted, reject said")));
}

/// A notify command on `signed_off` that cancels the other goal by hand in
/// plan.md: it is started only after the sign-off is on disk, so it cannot land
/// inside the write (the sign-off stands, and is proven), and its own edit is not
/// lost either; the hand-made cancel reads as unproven.
#[test]
fn a_notify_command_cannot_edit_plan_md_inside_the_sign_off_write() {
    let t = started(&plan("ship-other-todo.md")).with_bin();
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
    complete_ship(&t).code(0);
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
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// Attack (adversary pass): a command judge that answers oddly, `reject` with its
/// `VERDICT: reject` and then `VERDICT: accept` on a later line, or `accept` followed by a code block
/// that itself holds `VERDICT: reject`. A sign-off must fail closed on a mixed answer.
#[test]
fn a_judge_answer_holding_both_reject_and_accept_does_not_sign_off() {
    for script in [
        "echo 'VERDICT: reject'\necho 'VERDICT: accept'",
        "echo 'VERDICT: accept'\necho '```'\necho 'VERDICT: reject'\necho '```'",
    ] {
        let t = started(&plan("ship.md"));
        committed_judge(&t, script);
        let run = complete_ship(&t);
        assert_ne!(
            status_of(&t, "ship"),
            "done",
            "a mixed answer signed off ({script:?}):\n{}{}",
            run.stdout,
            run.stderr
        );
    }
    // Control: the same judge answering a plain `accept` signs off.
    let t = started(&plan("ship.md"));
    committed_judge(&t, "echo 'VERDICT: accept'");
    complete_ship(&t).code(0);
    assert_eq!(status_of(&t, "ship"), "done");
}

/// A command judge is refused when its program or an argument is a file inside
/// the repository, but an interpreter reads the agent's files by other names: a
/// script sourced through `sh -c`, a module run with `python3 -m`, a package's
/// `__main__.py`, `--script=`, a Makefile target. The judge now starts in a
/// private empty directory, so none of these names reaches the agent's files and
/// none signs anything off. Each of these signed `ship` off before.
#[test]
fn a_command_judge_cannot_run_the_agents_files_through_an_interpreter() {
    let accept = "printf 'VERDICT: accept\\nmissing: none\\n'\n";
    for (what, argv) in [
        ("sh -c sourcing a script", r#"["sh", "-c", ". ./judge.sh"]"#),
        ("python3 -m a module", r#"["python3", "-m", "judgemod"]"#),
        (
            "python3 a package's __main__.py",
            r#"["python3", "judgepkg"]"#,
        ),
        (
            "--script=",
            r#"["sh", "-c", "for a; do sh \"${a#--script=}\"; done", "sh", "--script=judge.sh"]"#,
        ),
        ("make judge", r#"["make", "-s", "judge"]"#),
    ] {
        let t = started(&plan("ship-other-todo.md"));
        t.write("judge.sh", accept);
        t.write(
            "judgemod.py",
            "print('VERDICT: accept')\nprint('missing: none')\n",
        );
        t.write(
            "judgepkg/__main__.py",
            "print('VERDICT: accept')\nprint('missing: none')\n",
        );
        t.write(
            "Makefile",
            format!("judge:\n\t@{}", accept.trim_end()).as_str(),
        );
        t.write(
            ".plan/config.yaml",
            format!("judge:\n  backend: command\n  command: {argv}\n  timeout_secs: 20\n"),
        );
        t.commit_all("the agent's judge");
        refused(&t, what);
    }
}

/// `plan judge command` refuses a program inside the repository the same way
/// whether it is named relatively, absolutely, or found on PATH.
#[test]
fn plan_judge_command_refuses_a_program_inside_the_repository() {
    let t = Test::new();
    t.write("judge.sh", "echo hi\n");
    let inside = t.path("judge.sh").display().to_string();
    for program in ["./judge.sh", inside.as_str()] {
        let run = t.run(&["judge", "command", program]);
        assert_eq!(run.code, 2, "{program}: {}{}", run.stdout, run.stderr);
        insta::assert_snapshot!(redact(&t, &run.stderr));
    }
}

/// The judge reads a copy of the tree, but nothing stops it writing the real
/// plan.md by its absolute path. Here it sets the open goal `other` done and logs a
/// sign-off line for it, naming a transcript that was never written; once with the
/// line stamped as the sign-off runs, once stamped hours ahead (which, as a floor,
/// pushed `ship`'s own line past its transcript's time). The line is a logged event,
/// so "a status changed by hand" did not see it: `ship` was signed off beside it.
#[test]
fn a_judge_that_signs_another_goal_off_in_the_real_plan_md_signs_nothing_off() {
    for stamp in ["2026-06-15 14:02", "2026-06-15 17:40"] {
        let t = started(&plan("ship-other.md"));
        let real = t.path("plan.md");
        let real = real.display();
        let run = complete_while_the_judge_runs(
            &t,
            &format!(
                "sed -i 's/^status: open/status: done/' '{real}'\n\
                 printf -- '- {stamp} other signed off (verify passed, judge accept, contract f514b644): .plan/judge/other-20260615-1402.md#0123456789ab\\n' >> '{real}'"
            ),
        );
        signed_nothing_off(&t, &run, stamp);
        insta::assert_snapshot!(
            format!("forged-{}", &stamp[11..13]),
            redact(&t, &run.stderr)
        );
    }
}

/// Honest company: another agent logs a line a few minutes later while `ship` is
/// judged. The log's stamps only go forward, so `ship`'s sign-off line was stamped
/// with the other agent's minute while its transcript kept the minute the sign-off
/// started at, and every reader then found the sign-off unproven.
#[test]
fn a_line_logged_later_while_the_judge_runs_leaves_the_sign_off_proven() {
    let t = started(&plan("ship-other.md"));
    let run = complete_while_the_judge_runs(
        &t,
        &another_agent(
            &t,
            "PLAN_NOW=2026-06-15T14:05",
            "log --goal other 'looked at the cache'",
        ),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let md = t.plan_md();
    assert!(md.contains("other looked at the cache"), "{md}");
    let audit = t.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}\n{md}", audit.stdout, audit.stderr);
}

/// The other ways a judge or verify with the real plan.md's path finished another
/// goal beside an honest sign-off (the second red team): a line taken out of that
/// goal's history (its reopen, the count kept up by two rejections), a forged
/// sign-off line put above its others rather than after them, and a goal of the plan
/// "imported as done". Each is refused; the goal's old lines must stand as they were.
#[test]
fn a_judge_that_rewrites_another_goal_s_history_in_the_real_plan_md_signs_nothing_off() {
    let set_done = "-e '/<!-- id: other -->/,/^status/ s/^status: .*/status: done/'";
    let forged = "- 2026-06-15 14:02 other signed off (verify passed, judge accept, contract f514b644): .plan/judge/other-20260615-1402.md#0123456789ab";
    let cases = [
        (
            "its reopen taken out",
            format!(
                "sed -i {set_done} -e '/other reopened/d' PLAN\n\
                 printf -- '- 2026-06-15 14:02 other sign-off rejected (judge): x\\n- 2026-06-15 14:02 other sign-off rejected (judge): y\\n' >> PLAN"
            ),
        ),
        (
            "a sign-off put above its lines",
            format!("sed -i '/other started/i {forged}' PLAN"),
        ),
        (
            "imported as done",
            format!(
                "sed -i {set_done} PLAN\n\
                 printf -- '- 2026-06-15 14:02 other imported as done from tasks.md\\n' >> PLAN"
            ),
        ),
    ];
    let mut passed = Vec::new();
    for (what, script) in cases {
        let t = started(&plan("ship-other.md"));
        t.write("OTHER.md", "other\n");
        t.ok(&[
            "complete",
            "other",
            "--evidence",
            "written",
            "--path",
            "OTHER.md",
        ]);
        t.ok(&["reopen", "other", "--reason", "not yet"]);
        t.commit_all("other reopened");
        let real = t.path("plan.md").display().to_string();
        let run = complete_while_the_judge_runs(&t, &script.replace("PLAN", &format!("'{real}'")));
        let md = t.plan_md();
        if run.code == 0 || md.contains("ship signed off") {
            passed.push(format!("{what}:\n{}{}\n{md}", run.stdout, run.stderr));
        }
    }
    assert!(passed.is_empty(), "signed off:\n{}", passed.join("\n"));
}

/// Honest company again: another agent edits the open goal `other`'s contract with
/// `plan edit` (logged, with its new contract) while `ship` is judged. The judge
/// judges a snapshot; other agents' work meanwhile never rejects a sign-off. A
/// contract changed with no line for it still does (the first test here).
#[test]
fn a_contract_edited_and_logged_by_another_agent_meanwhile_leaves_the_sign_off() {
    let t = started(&plan("ship-other.md"));
    let run = complete_while_the_judge_runs(
        &t,
        &another_agent(
            &t,
            "",
            "edit other --done-when 'OTHER.md exists and says why'",
        ),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    let md = t.plan_md();
    assert!(
        md.contains("done_when: OTHER.md exists and says why"),
        "{md}"
    );
    assert!(md.contains("ship signed off"), "{md}");
}

/// Honest company, through git: a pull while `ship` is judged merges a teammate's
/// line for `other` in by its time, above a line of `other`'s this clone had. Its
/// old lines all stand, in order: the sign-off goes through (the review's).
#[test]
fn a_teammate_s_line_merged_in_above_another_goal_s_leaves_the_sign_off() {
    let t = started(&plan("ship-other.md"));
    t.cmd(&["start", "other", "--no-verify"])
        .env("PLAN_NOW", "2026-06-15T14:05")
        .output()
        .unwrap();
    assert!(
        t.plan_md().contains("14:05 other started"),
        "{}",
        t.plan_md()
    );
    let real = t.path("plan.md").display().to_string();
    let run = complete_while_the_judge_runs(
        &t,
        &format!(
            "sed -i '/14:05 other started/i - 2026-06-15 14:03 other sign-off rejected (judge): the teammate s try' '{real}'"
        ),
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    assert!(
        t.plan_md().contains("the teammate s try"),
        "{}",
        t.plan_md()
    );
}

/// The sign-off is stamped once its judge has answered; a line a minute later can
/// still land between that stamp and the write. The record is then kept again with
/// the new stamp and the accept goes through, proven (the review's: the accept was
/// thrown away).
#[test]
fn a_line_logged_between_the_stamp_and_the_write_costs_no_accept() {
    let t = started(&plan("ship-other.md"));
    let cmd = t.cmd(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    let (child, gate) = t.spawn_paused(cmd);
    let other = t
        .cmd(&["log", "--goal", "other", "a minute later"])
        .env("PLAN_NOW", "2026-06-15T14:03")
        .output()
        .unwrap();
    assert!(other.status.success(), "{other:?}");
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success(), "{out:?}\n{}", t.plan_md());
    let md = t.plan_md();
    assert!(md.contains("2026-06-15 14:03 ship signed off"), "{md}");
    let audit = t.run(&["audit"]);
    assert_eq!(audit.code, 0, "{}{}\n{md}", audit.stdout, audit.stderr);
}

/// `plan complete ship`, judged by a command judge that runs `script` first (in the
/// copy of the tree it is given; the real repository is reachable by its path) and
/// then accepts.
/// `ship`'s sign-off failed and logged no sign-off line; plan.md as it is after.
fn signed_nothing_off(t: &Test, run: &crate::util::Run, what: &str) -> String {
    let md = t.plan_md();
    assert_ne!(
        run.code, 0,
        "{what}: signed off:\n{}{}\n{md}",
        run.stdout, run.stderr
    );
    assert!(!md.contains("ship signed off"), "{what}:\n{md}");
    md
}

fn complete_while_the_judge_runs(t: &Test, script: &str) -> crate::util::Run {
    command_judge(
        t,
        &format!("{script}\nprintf 'VERDICT: accept\\nmissing: none\\n'"),
    );
    t.commit_all("judge");
    complete_ship(t)
}

/// A judge's shell line that runs `plan ARGS` in the real repository, with the
/// settings `env` in front, as another agent would meanwhile; a failure fails the
/// judge.
fn another_agent(t: &Test, env: &str, args: &str) -> String {
    format!(
        "(cd '{}' && {env} '{}' {args}) >/dev/null 2>&1 || exit 7",
        t.root().display(),
        crate::util::BIN
    )
}

/// The last adversary's: a judge that adds a whole new goal to the real plan.md,
/// done, with a sign-off line it made up. Only the goals the sign-off started with
/// were looked at, so `ship` was signed off beside it.
#[test]
fn a_judge_that_adds_a_goal_done_in_the_real_plan_md_signs_nothing_off() {
    let t = started(&plan("ship-other.md"));
    let real = t.path("plan.md").display().to_string();
    let run = complete_while_the_judge_runs(
        &t,
        &format!(
            "sed -i '/^## Log/i ## Goal: Sneaky\\n<!-- id: sneaky -->\\nstatus: done\\ndone_when: x\\nverify: false\\nfailure_modes:\\n- x\\n' '{real}'\n\
             printf -- '- 2026-06-15 14:02 sneaky signed off (verify passed, judge command accept, contract 4f520f40): .plan/judge/sneaky-x.md#d09f660e0745\\n' >> '{real}'"
        ),
    );
    let md = signed_nothing_off(&t, &run, "a goal added done");
    assert!(md.contains("id: sneaky"), "the judge did not add it:\n{md}");
}

//! Work the agent hides from the hooks is still work: a goal deleted, moved under
//! `## Archive`, marked done by hand, hidden behind a format error, a forged or
//! replayed sign-off line, or an edited hooks cache keeps the loop going and shows in
//! the status line and the injection. Each still ignored is an open gap.

use std::io::Write as _;

use crate::setup::{b_deleted, plan, two_goals_looping};
use crate::util::{Test, redact, shown};

/// The guard holds back on any format error (`View::broken`): one hand-made error
/// anywhere in plan.md (here a self-dependency on the active goal) lets the agent
/// stop at every turn while the goal is still active and the status line says so.
/// Degrade-don't-block keeps the injection going; the loop should keep going too
/// (and ask for the error to be fixed), with its budget and stall limit as backstop.
#[test]
fn a_format_error_does_not_let_the_loop_go() {
    let t = Test::new().plan(&plan("ship.md").replace("- [x] write it", "- [ ] write it"));
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let md = t.plan_md();
    t.write(
        "plan.md",
        md.replace("status: active\n", "status: active\ndepends_on: ship\n"),
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop let go over a format error: {answer}"
    );
}

/// `has_work` counts an active goal only when its dependencies are met, so an
/// active goal made to wait on an open goal under `## Archive` (no parse error,
/// two lint problems) ends the loop for good with "no goal is active or ready to
/// start" while the status line shows the goal active.
#[test]
fn an_active_goal_keeps_the_loop_going_whatever_it_waits_on() {
    let t = Test::new().plan(&plan("ship.md").replace("- [x] write it", "- [ ] write it"));
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let md = t
        .plan_md()
        .replace("status: active\n", "status: active\ndepends_on: other\n");
    t.write(
        "plan.md",
        format!(
            "{md}\n## Archive\n\n## Goal: Other\n<!-- id: other -->\nstatus: open\ndone_when: x\n"
        ),
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop ended with a goal active: {answer}"
    );
}

/// The same deletion let the loop go: `has_work` looked only at the goals in the
/// file, so the stop guard said there was nothing left. An id whose log leaves it
/// unfinished (neither signed off nor cancelled last) and that no goal has now
/// counts as work, and the continuation says how to bring it back.
#[test]
fn a_deleted_active_goal_keeps_the_loop_going() {
    let t = b_deleted();
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"],
        "block",
        "the loop let go with b deleted: {answer}\nstatusline: {}",
        t.ok(&["statusline"]).stdout
    );
    let reason = answer["reason"].as_str().unwrap_or_default();
    insta::assert_snapshot!(redact(&t, reason));
}

/// `a` signed off; then goal `b` cut out of the live goals and put under a new
/// `## Archive` at the end, its status line rewritten by `edit`.
fn b_archived_by_hand(edit: impl Fn(&str) -> String) -> Test {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.commit_all("a signed off");
    assert_eq!(
        t.stop_hook("s1").answer()["decision"],
        "block",
        "b is active"
    );
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    let b = edit(&md[from..to]);
    t.write(
        "plan.md",
        format!(
            "{}{}\n## Archive\n\n{}",
            &md[..from],
            &md[to..],
            b.trim_end()
        ),
    );
    assert!(t.plan_md().contains("## Archive\n\n## Goal: B"));
    t
}

/// `plan archive` moves only finished goals, and a deleted active goal keeps the
/// loop going. But an active goal moved under `## Archive` by hand,
/// status and all, left every hook: nothing active, nothing ready, nothing
/// unproven, so the stop guard let the loop go with `b` unfinished, and the
/// injection and status line said nothing of it (only `plan audit` did). An
/// unfinished goal under `## Archive` is now remaining work wherever the hooks look.
#[test]
fn an_active_goal_moved_under_the_archive_by_hand_keeps_the_loop_going() {
    let t = b_archived_by_hand(str::to_string);
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop let go with b hidden under ## Archive: {answer}"
    );
    let reason = answer["reason"].as_str().unwrap_or_default();
    insta::assert_snapshot!(redact(&t, reason));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
}

/// `b` marked done by hand and moved under `## Archive` by hand, which `plan
/// archive` refuses to do for an unproven goal. `plan audit`, `plan lint` and `plan
/// show --json` call it unproven, but `plan show --all` listed it as plain
/// `done` in its archived list, with none of the `⚠` its live goals get. Archived
/// goals are now marked as live ones are.
#[test]
fn a_goal_done_by_hand_and_archived_by_hand_is_marked_in_show_all() {
    let t = b_archived_by_hand(|b| b.replacen("status: active", "status: done", 1));
    let all = t.ok(&["show", "--all"]).stdout;
    let line = all
        .lines()
        .find(|l| l.trim_start().starts_with("b "))
        .unwrap_or_else(|| panic!("no line for b:\n{all}"));
    insta::assert_snapshot!(redact(&t, line));
    let json = t.ok(&["show", "--json"]).json();
    let b = json["goals"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["id"] == "b")
        .unwrap()
        .clone();
    assert_eq!(b["proof"]["state"], "unproven", "{b}");
}

/// The same hidden goal in the hooks: they proved live goals and the archived ones a
/// live goal depends on (the cut reader drops the rest of the archive, which keeps a
/// long plan cheap to read), so `b` — done by hand, no sign-off, moved under
/// `## Archive` by hand — was counted nowhere: the status line said `plan: nothing
/// open`, the injection (and MCP `plan_status`) had no "still remaining work" line,
/// and the stop guard let the loop go. Now every archived finished goal is checked
/// on the log's word (`proof::on_record`: its latest sign-off, contract, reopen or
/// cancel line), without reading transcripts, and one the log leaves off record is
/// proven in full and counted as remaining work; the cut reader keeps it.
/// With such a goal under `## Archive`, counting it as unproven must not break
/// `plan archive` for the goals it may move: the hidden goal is not this run's to
/// move, so archiving signed-off `a` exits 0 and names nothing else (review of the
/// change above).
#[test]
fn an_unproven_archived_goal_does_not_fail_plan_archive() {
    let t = b_archived_by_hand(|b| b.replacen("status: active", "status: done", 1));
    let run = t.run(&["archive"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    insta::assert_snapshot!(redact(&t, &run.stderr));
    assert!(
        t.plan_md().contains("## Archive\n\n## Goal: B"),
        "{}",
        t.plan_md()
    );
    assert!(
        t.plan_md().contains("archived 1 goal: a"),
        "{}",
        t.plan_md()
    );
}

#[test]
fn a_goal_done_by_hand_and_archived_by_hand_is_remaining_work_in_the_hooks() {
    let t = b_archived_by_hand(|b| b.replacen("status: active", "status: done", 1));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &statusline));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the loop let go with b done by hand: {answer}"
    );
}

/// The hooks' cache, `.git/plan/cache/view.json`, is a file the agent can write, and
/// a cached answer is trusted as long as the files it came from keep their identity
/// (device, inode, size, mtime, ctime). Editing the cache changes none of them: one
/// `sed` on it made `plan statusline` say `plan: nothing open` and the injection
/// say nothing is active, while `b` is active in plan.md, and it left no trace in
/// the repository (unlike a forged transcript, which `git log` and a reviewer see).
/// Each cache file now carries a seal, the xxh3 of its own bytes, so an edited one
/// is no cache and the view is derived again from plan.md. No secret backs the seal
/// (the agent runs as the same user and could read any key), so an agent that
/// recomputes it still can forge the cache, as it can rewrite `loop.json`; the cheap
/// edit no longer works.
#[test]
fn an_edited_hooks_cache_does_not_change_what_the_status_line_says() {
    let t = two_goals_looping();
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    // Settled past the cache's trust margin, the next read stores the view.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    let cache = t.root().join(".git/plan/cache/view.json");
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    view["view"]["statusline"] = "plan: nothing open".into();
    view["view"]["injection"] = "Red team. No goal is active; none is ready to start.".into();
    view["view"]["active"] = serde_json::json!([]);
    view["view"]["has_work"] = false.into();
    view["view"]["continuation"] = serde_json::Value::Null;
    std::fs::write(&cache, view.to_string()).unwrap();
    let line = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &line));
}

/// The same forged cache at a stop: a view that says no goal is left would end a
/// running loop as finished (`no_work`), with the report naming that as why. A view
/// that would let the loop end is derived again from plan.md itself, so the forgery
/// ends nothing; the loop goes on naming the goals plan.md has.
#[test]
fn an_edited_hooks_cache_does_not_end_the_loop() {
    let t = two_goals_looping();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // Settled past the cache's trust margin, the next hook stores the view.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let cache = t.root().join(".git/plan/cache/view.json");
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    view["view"]["has_work"] = false.into();
    view["view"]["continuation"] = serde_json::Value::Null;
    view["view"]["parts"] = serde_json::json!([]);
    std::fs::write(&cache, view.to_string()).unwrap();
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "a forged cache ended the loop: {answer}"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["goal", "status"])));
    // The continuation names the goal the cache left out.
    insta::assert_snapshot!(redact(&t, answer["reason"].as_str().unwrap()));
}

/// An active goal deleted from plan.md by hand keeps the loop going, but
/// the status line the person watches said `plan: 1 active · a` and the injection
/// the agent reads named nothing missing: only the continuation, `plan audit` and a
/// `plan lint` warning knew. The status line and the injection now say so too.
#[test]
fn an_active_goal_deleted_by_hand_is_named_in_the_status_line_and_injection() {
    let t = two_goals_looping();
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    t.write("plan.md", format!("{}{}", &md[..from], &md[to..]));
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
}

fn one_goal() -> Test {
    let t = Test::new();
    t.ok(&["init", "Review"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a exists",
        "--verify",
        "test -f a",
        "--failure-mode",
        "a is empty",
        "--active",
    ]);
    t.write("a", "a\n");
    t
}

/// Cheap fake: `a` signed off, then reopened (it needs a new sign-off). The agent
/// pastes a copy of a's own earlier sign-off line at the end of the log, sets
/// `status: done` and moves it under `## Archive`. `plan audit` calls the copy a
/// replay (unproven); the hooks read the latest line only and counted nothing. Now
/// `proof::on_record` (and the cut reader's reading of it) takes a latest sign-off
/// naming the transcript an older sign-off of the goal named as no sign-off, so the
/// goal is proven in full and counted as remaining work.
#[test]
fn a_replayed_sign_off_line_hides_a_reopened_archived_goal_from_the_hooks() {
    let t = one_goal();
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.ok(&["reopen", "a", "--reason", "not really"]);
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains(" a signed off"))
        .unwrap()
        .to_string();
    let from = md.find("## Goal: A").unwrap();
    let to = md.find("## Log").unwrap();
    let goal = md[from..to].replacen("status: active", "status: done", 1);
    t.write(
        "plan.md",
        format!(
            "{}{}{line}\n\n## Archive\n\n{}",
            &md[..from],
            &md[to..],
            goal.trim_end()
        ),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &statusline));
}

/// False alarm hunt: reopen + complete again, a cancel, then `plan archive`; and
/// `plan archive` run a second time.
#[test]
fn honest_archived_goals_are_not_remaining_work() {
    let t = one_goal();
    t.ok(&[
        "add",
        "B",
        "--done-when",
        "b",
        "--verify",
        "true",
        "--failure-mode",
        "x",
    ]);
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.ok(&["reopen", "a", "--reason", "again"]);
    t.ok(&[
        "complete",
        "a",
        "--evidence",
        "done again",
        "--judge",
        "none",
    ]);
    t.ok(&["cancel", "b", "--reason", "no"]);
    t.ok(&["archive"]);
    t.ok(&[
        "add",
        "B",
        "--done-when",
        "b",
        "--verify",
        "true",
        "--failure-mode",
        "x",
    ]);
    t.ok(&["cancel", "b-2", "--reason", "no"]);
    t.ok(&["archive"]);
    t.ok(&["archive"]);
    let statusline = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &statusline));
    assert!(!statusline.contains('⚠'), "{statusline}");
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
/// hooks checked an archived goal on its log lines alone, so the status line, the
/// injection and the stop guard counted nothing and let the loop end. No log-only
/// check tells this line from a real one, and the status line and the injection
/// read plan.md's lines alone (issue 34). The stop that would end the loop for want
/// of work reads every finished goal's record first, so the line is refused there,
/// `b` is work, and the loop goes on.
#[test]
fn a_forged_sign_off_line_hides_an_archived_goal_from_the_hooks() {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.commit_all("a signed off");
    b_hidden(&t, &format!("\n{}\n", forged_sign_off(&t)));
    let audit = t.run(&["audit"]).code(1);
    insta::assert_snapshot!(shown(&t, &audit));
    let answer = stop(&t, "s1");
    assert_eq!(answer["decision"], "block", "the loop let go: {answer}");
}

/// A hand-typed sign-off line for `b`: a transcript that is not there, the contract
/// copied from b's `added` line, a's sign-off stamp.
fn forged_sign_off(t: &Test) -> String {
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
    format!(
        "- {stamp} b signed off (verify passed, judge skipped, contract {contract}): .plan/judge/b-1.md#0123456789ab"
    )
}

/// The same forgery in a plan long enough for the hooks' cut reader, beside `a`,
/// signed off and archived by `plan archive`: the status line and the injection
/// take both lines at their word (plan.md's lines alone), and the stop of the
/// running loop still holds, after an edit in place too.
#[test]
fn a_forged_sign_off_line_is_caught_in_a_long_plan_and_an_honest_one_is_not() {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.ok(&["archive"]);
    t.commit_all("a signed off and archived");
    let forged = forged_sign_off(&t);
    let md = t.plan_md();
    let from = md.find("## Goal: B").unwrap();
    let to = md.find("## Log").unwrap();
    let archive = md.find("## Archive\n").unwrap();
    let b = md[from..to].replacen("status: active", "status: done", 1);
    let steps: String = (0..1500)
        .map(|i| format!("- [ ] step {i} of a long goal\n"))
        .collect();
    let filler =
        format!("## Goal: Filler\n<!-- id: filler -->\nstatus: open\ndone_when: x\n{steps}\n");
    let long = format!(
        "{}{filler}{}\n{forged}\n\n{}\n\n{}\n",
        &md[..from],
        md[to..archive].trim_end(),
        md[archive..].trim_end(),
        b.trim_end()
    );
    assert!(long.len() > 40_000);
    t.write("plan.md", long);
    let counted = |t: &Test| {
        let statusline = t.ok(&["statusline"]).stdout;
        insta::assert_snapshot!(redact(t, &statusline));
        insta::assert_snapshot!(shown(t, &t.ok(&["inject"])));
        let answer = stop(t, "s1");
        assert_eq!(answer["decision"], "block", "the loop let go: {answer}");
    };
    counted(&t);
    t.ok(&["tick", "filler", "1"]);
    counted(&t);
}

/// The injection's advice for such a goal must be one the agent can follow: `plan
/// complete` and `plan cancel` refuse an archived goal, so the line names the way
/// back (`plan reopen`, which moves it above `## Log`), and that way works.
#[test]
fn the_advice_for_an_archived_goal_done_by_hand_can_be_followed() {
    let t = b_archived_by_hand(|b| b.replacen("status: active", "status: done", 1));
    insta::assert_snapshot!(shown(&t, &t.ok(&["inject"])));
    t.run(&["cancel", "b", "--reason", "x"]).code(2);
    t.ok(&["reopen", "b", "--reason", "done by hand, not signed off"]);
    assert!(!t.ok(&["inject"]).stdout.contains("still remaining work: b"));
    assert!(!t.ok(&["inject"]).stdout.contains("An archived one"));
}

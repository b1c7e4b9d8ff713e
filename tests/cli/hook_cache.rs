//! The hooks answer from their cache whatever the proof state of the goals: a plan
//! with goals done by hand (unproven), live and archived, is answered from
//! `.git/plan/cache/view.json` on the prompt and the stop hook, and the cached
//! view carries the "unproven" facts the fresh one does.

use crate::gate::PR_PLAN;
use crate::util::{Test, fixture, redact};

const PLAN: &str = "# Plan: Ship the cache layer

## Goal: Implement cache layer
<!-- id: cache-layer -->
status: active
done_when: p95 < 50ms
failure_modes:
- cache bypassed
- [ ] eviction policy

## Goal: Pick a hashing crate
<!-- id: hashing -->
status: done
done_when: crate chosen

## Archive

## Goal: Spike Redis
<!-- id: spike-redis -->
status: done
done_when: decided

## Log
- 2026-06-15 14:02 client wired
";

fn prompt_hook(t: &Test, session: &str) -> String {
    let payload = fixture("hosts/claude/user-prompt-submit.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", session);
    t.case(&["hook", "claude", "user-prompt-submit"])
        .stdin(&payload)
        .check_status_only()
        .stdout
}

/// A cache file as plan seals it (src/cache/seal.rs): the xxh3 of its JSON with the
/// seal field, first, empty. What an agent set on forging the cache would have to
/// reimplement; here it puts a marker into the cached view that plan then trusts.
fn sealed(mut file: serde_json::Value) -> String {
    file.as_object_mut().unwrap().remove("seal");
    let rest = file.to_string();
    let empty = format!("{{\"seal\":\"\",{}", &rest[1..]);
    let mut bytes = b"plan cache seal 1\n".to_vec();
    bytes.extend_from_slice(empty.as_bytes());
    let seal = format!("{:016x}", xxhash_rust::xxh3::xxh3_64(&bytes));
    format!("{{\"seal\":\"{seal}\",{}", &rest[1..])
}

/// The first settled hook stores the view with its "unproven" facts; the next
/// prompt and stop hooks answer from it (a marker put into the cached view shows
/// in their answers), though two goals are done by hand.
#[test]
fn prompt_and_stop_hooks_answer_from_the_cache_with_goals_done_by_hand() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "50"]);
    // Past the cache's trust margin (2 s), the next hook stores the view.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    let fresh = prompt_hook(&t, "s1");
    insta::assert_snapshot!(redact(&t, &fresh));
    let cache = t.root().join(".git/plan/cache/view.json");
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    let injection = view["view"]["injection"].as_str().unwrap().to_string();
    insta::assert_snapshot!(redact(&t, &injection));
    view["view"]["injection"] = format!("{injection}\nCACHED-INJECTION").into();
    let continuation = view["view"]["continuation"]
        .as_str()
        .expect("work is left")
        .to_string();
    view["view"]["continuation"] = format!("{continuation} CACHED-CONTINUATION").into();
    std::fs::write(&cache, sealed(view)).unwrap();
    let cached = prompt_hook(&t, "s2");
    insta::assert_snapshot!(redact(&t, &cached));
    let stop = t.stop_hook("s1").stdout;
    insta::assert_snapshot!(redact(&t, &stop));
}

/// `.git/plan/loop.json` changed by `edit`, as an agent with a shell would.
fn edit_loop(t: &Test, edit: impl FnOnce(&mut serde_json::Value)) {
    let path = t.root().join(".git/plan/loop.json");
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    edit(&mut lp);
    std::fs::write(&path, lp.to_string()).unwrap();
}

/// A goal whose verify fails until `done.txt` is there, and a work loop that session
/// `s1` claimed (its first stop blocked).
fn looping_on_work() -> Test {
    let t = Test::new().plan(&PR_PLAN.replace("VERIFY", "test -f done.txt"));
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    t
}

/// An active goal and a work loop that session `s1` claimed (its first stop blocked).
fn looping() -> Test {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    t
}

/// Attack (issue 34, item 2): `.git/plan/loop.json` is the agent's to write, and a
/// stop hook that found `"ended"` set in it let the agent stop with no word, though
/// no `plan goal clear` was logged and the loop's budget, stall count and plan.md
/// left work to do. An ending the loop's own record does not back (plan.md's log for
/// a clear, the counts for a spent budget or a stall, plan.md for no work) is not
/// taken: the loop goes on, and the stop says the state was edited.
#[test]
fn an_edited_loop_state_does_not_end_the_loop_in_silence() {
    let t = looping();
    let path = t.root().join(".git/plan/loop.json");
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["ended"] = "cleared by `plan goal clear`".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the edited loop.json ended the loop: {answer}"
    );
    let reason = answer["reason"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, reason));
    insta::assert_snapshot!(redact(&t, &t.ok(&["goal", "status"]).stdout));
    // Any other reason the counts do not back is refused the same way.
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["ended"] = "its budget of 50 continuations is spent".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // A clear that is logged ends it: said once, and later stops are let go in silence.
    t.ok(&["goal", "clear"]);
    assert_eq!(
        t.stop_hook("s1").answer()["systemMessage"],
        crate::loop_events::CLEARED
    );
    assert_eq!(t.stop_hook("s1").stdout, "");
}

/// A loop that ended because its work ran out stays ended when new work comes:
/// the stop hook logs the ending in plan.md (`work loop ended (…)`), and that line
/// backs it, so yesterday's finished loop holds neither a later session's stops nor
/// its own session's (before, its own session's next stop was blocked, saying
/// loop.json had been edited).
#[test]
fn a_loop_that_ran_out_of_work_stays_ended_when_new_work_comes() {
    let t = Test::new().plan("# Plan: p\n\n## Goal: One\n<!-- id: one -->\nstatus: active\ndone_when: it works\n\n## Log\n");
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    t.ok(&["cancel", "one", "--reason", "dropped"]);
    let end = t.stop_hook("s1").stdout;
    insta::assert_snapshot!(redact(&t, &end), @r#"{"systemMessage":"plan: work loop stopped: no goal is active or ready to start"}"#);
    assert_eq!(
        t.read("plan.md").lines().last(),
        Some("- 2026-06-15 14:02 work loop ended (no goal is active or ready to start)")
    );
    t.ok(&["add", "Write the docs", "--done-when", "docs written"]);
    assert_eq!(t.stop_hook("s2").stdout, "");
    assert_eq!(t.stop_hook("s1").stdout, "");
    insta::assert_snapshot!(redact(&t, &t.ok(&["goal", "status"]).stdout));
}

/// A loop the stop hook ended itself (its budget spent) stays ended. plan.md does
/// not record a spent budget and loop.json's counts are the agent's to write, so
/// its later stops are let go saying why, never in silence, and the ending is not
/// recorded as a new event.
#[test]
fn a_loop_that_spent_its_budget_stays_ended() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "1"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let end = t.stop_hook("s1").stdout;
    insta::assert_snapshot!(redact(&t, &end));
    let events = t.ok(&["events"]).stdout;
    let again = t.stop_hook("s1").stdout;
    insta::assert_snapshot!(redact(&t, &again));
    assert_eq!(
        t.ok(&["events"]).stdout,
        events,
        "the same ending recorded again"
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["goal", "status"]).stdout));
}

/// Attack (issue 34, item 2): the seal on `.git/plan/cache/view.json` is the xxh3 of
/// its own bytes, which an agent can recompute. A resealed view saying nothing is
/// open made `plan statusline` say `plan: nothing open` while a goal is active in
/// plan.md. A cached view that says no work is left is never taken from the cache.
#[test]
fn a_resealed_hooks_cache_does_not_make_the_status_line_say_nothing_open() {
    let t = Test::new().plan(PLAN);
    let first = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &first));
    // Past the cache's trust margin (2 s), the next read stores the view.
    std::thread::sleep(std::time::Duration::from_millis(2200));
    t.ok(&["statusline"]);
    let cache = t.root().join(".git/plan/cache/view.json");
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    view["view"]["statusline"] = "plan: nothing open".into();
    view["view"]["active"] = serde_json::json!([]);
    view["view"]["has_work"] = false.into();
    view["view"]["continuation"] = serde_json::Value::Null;
    view["view"]["parts"] = serde_json::json!([]);
    std::fs::write(&cache, sealed(view.clone())).unwrap();
    let line = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &line));
    // The line alone forged, the view's other fields left saying work is left.
    let mut view: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&cache).expect("the view was cached")).unwrap();
    view["view"]["statusline"] = "plan: nothing open".into();
    std::fs::write(&cache, sealed(view)).unwrap();
    let line = t.ok(&["statusline"]).stdout;
    insta::assert_snapshot!(redact(&t, &line));
}

// Attack on the loop state's trust rule (hooks/run.rs `end_backed`): an ending is
// taken when loop.json's own counts back it, but the counts are in the same file
// the agent writes. Setting `ended` together with `used` = `budget`, a stall count
// past the limit, a goal in `budget_limited`, or another session as `owner` (only
// the loop's own session has an ending questioned), or appending a `work loop
// cleared` line to plan.md by hand, ends the loop with no word while plan.md has
// work left.
#[test]
fn an_edited_loop_state_with_matching_counts_does_not_end_the_loop_in_silence() {
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 4] = [
        ("used = budget", |lp| lp["used"] = lp["budget"].clone()),
        ("stalls", |lp| lp["stalls"] = 99.into()),
        ("budget_limited", |lp| {
            lp["budget_limited"] = serde_json::json!(["w"]);
        }),
        ("owner", |lp| lp["owner"] = "another-session".into()),
    ];
    let mut missed = Vec::new();
    for (name, edit) in edits {
        let t = looping_on_work();
        let path = t.root().join(".git/plan/loop.json");
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        lp["ended"] = "its budget of 50 continuations is spent".into();
        edit(&mut lp);
        std::fs::write(&path, lp.to_string()).unwrap();
        if t.stop_hook("s1").stdout.trim().is_empty() {
            missed.push(name);
        }
    }
    // A clear line written into plan.md's log by hand, not by `plan goal clear`,
    // with loop.json's ending plan's words for it or any other (the loop red
    // team's: `"x"` was let go in silence from the first stop).
    for (name, ended) in [
        (
            "a clear line written by hand",
            "cleared by `plan goal clear`",
        ),
        ("a clear line by hand and an ending of no one's words", "x"),
    ] {
        let t = looping_on_work();
        let path = t.root().join(".git/plan/loop.json");
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let started = lp["started"].as_str().unwrap().to_string();
        lp["ended"] = ended.into();
        std::fs::write(&path, lp.to_string()).unwrap();
        t.write(
            "plan.md",
            format!(
                "{}- {started} work loop cleared (a terminal was attached)\n",
                t.read("plan.md")
            ),
        );
        if t.stop_hook("s1").stdout.trim().is_empty() {
            missed.push(name);
        }
    }
    assert!(missed.is_empty(), "ended in silence by: {missed:?}");
}

/// Attack (red-team, on a first version of the logged endings): the stop hook
/// logged every ending it decided, one from loop.json's counts too: `"used": 50`
/// written into the file ended the loop at the next stop, which logged `work loop
/// ended (its budget of 50 continuations is spent …)`, and that line then backed
/// the ending, so every later stop was let go with no word. Only the ending plan.md
/// itself shows (no goal left) is logged and backed by its line; one from the
/// counts is decided again and said at every stop.
#[test]
fn counts_edited_to_end_the_loop_are_said_at_every_stop() {
    type Edit = fn(&mut serde_json::Value);
    let edits: [(&str, Edit); 2] = [
        ("used = budget", |lp| lp["used"] = lp["budget"].clone()),
        ("stalls", |lp| lp["stalls"] = 99.into()),
    ];
    for (name, edit) in edits {
        let t = looping();
        edit_loop(&t, edit);
        for stop in 0..3 {
            let run = t.stop_hook("s1");
            assert_ne!(run.stdout, "", "{name}: stop {stop} was let go in silence");
        }
    }
}

/// Attack (the loop red team's): loop.json replaced by a link to `/dev/null`, or by
/// a directory. The first stop failed open with a note, the second said once that
/// no state is kept, and every later stop was let go with no word. A link is taken
/// away (not what it leads to) and the loop kept again from plan.md's log; a
/// directory, which plan does not remove, is said at every stop.
#[test]
fn a_loop_state_that_is_no_file_does_not_end_the_loop_in_silence() {
    let t = looping();
    let path = t.root().join(".git/plan/loop.json");
    std::fs::remove_file(&path).unwrap();
    std::os::unix::fs::symlink("/dev/null", &path).unwrap();
    for stop in 0..3 {
        let answer = t.stop_hook("s1").answer();
        assert_eq!(answer["decision"], "block", "link: stop {stop}: {answer}");
    }
    assert!(std::fs::symlink_metadata(&path).unwrap().is_file());
    let t = looping();
    let path = t.root().join(".git/plan/loop.json");
    std::fs::remove_file(&path).unwrap();
    std::fs::create_dir(&path).unwrap();
    let mut said = Vec::new();
    for _ in 0..3 {
        said.push(redact(&t, &t.stop_hook("s1").stdout));
    }
    said.dedup();
    insta::assert_snapshot!(said.join(""), @r#"{"systemMessage":"plan: hook skipped: reading [TMP]/repo/.git/plan/loop.json: is a directory"}"#);
}

/// Attack (the loop red team's): the loop handed to a session plan never saw, with
/// a record made for it, and the loop's own session's record rewritten to hold no
/// claim and to have been told already. Every stop of the loop's session was let go
/// in silence. The mark outside `.git/plan` names the session that claimed the
/// loop, and that session holds it still.
#[test]
fn a_loop_handed_to_a_made_up_session_with_its_records_still_holds_its_own() {
    let t = looping();
    let path = t.root().join(".git/plan/loop.json");
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    let started = lp["started"].as_str().unwrap().to_string();
    lp["owner"] = "ghost".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    t.write(".git/plan/sessions/ghost.json", "{}");
    t.write(
        ".git/plan/sessions/s1.json",
        format!("{{\"in_loop\":null,\"told_of_loop\":\"{started}\"}}"),
    );
    for stop in 0..3 {
        let answer = t.stop_hook("s1").answer();
        assert_eq!(answer["decision"], "block", "stop {stop}: {answer}");
    }
}

/// Attack (the loop red team's): the agent claims the goal left for a holder no
/// session is (`plan start w --as someone-else`). The first stop said the loop
/// stopped, every goal left being claimed by another session; every later stop was
/// let go with no word, and plan.md logged no ending. The claims are files the
/// agent writes, so that ending is decided again, and said, at every stop.
#[test]
fn a_goal_claimed_for_a_made_up_holder_is_said_at_every_stop() {
    let t = looping_on_work();
    t.ok(&["start", "w", "--as", "someone-else"]);
    let mut said = Vec::new();
    for stop in 0..3 {
        let run = t.stop_hook("s1");
        assert_ne!(run.stdout, "", "stop {stop} was let go in silence");
        said.push(redact(&t, &run.stdout));
    }
    said.dedup();
    insta::assert_snapshot!(said.join("\n"), @r#"{"systemMessage":"plan: work loop stopped: every goal left is claimed by another session (`plan claims`)"}

{"systemMessage":"plan: the work loop has ended (`plan goal status` says why); plan.md does not record that ending, so each stop says so until `plan goal clear` or a new `plan goal`"}"#);
}

/// The review's: with `.git/plan` removed, a second session's stop took the loop
/// (its owner's record gone with it) while the mark outside still named the first,
/// which took it back at its own stop: both sessions held the loop in turn. The
/// mark follows the claim, so one session holds it.
#[test]
fn one_session_holds_a_loop_whose_state_was_removed() {
    let t = looping();
    std::fs::remove_dir_all(t.root().join(".git/plan")).unwrap();
    let mut said = Vec::new();
    for session in ["s2", "s1", "s2", "s1"] {
        let answer = t.stop_hook(session).stdout;
        let answer = match answer.as_str() {
            "" => "let go".to_string(),
            _ if answer.contains("\"decision\":\"block\"") => "held".to_string(),
            _ => "told".to_string(),
        };
        said.push(format!("{session}: {answer}"));
    }
    insta::assert_snapshot!(said.join("\n"), @r#"s2: held
s1: told
s2: held
s1: let go"#);
}

// Attack on the loop's owner: loop.json names the session the loop holds, and the
// agent can write it. Setting `owner` to another session, with nothing else changed,
// let the loop's own session stop with no word while plan.md had work left.
#[test]
fn an_owner_edited_alone_does_not_let_the_loops_session_stop() {
    let t = looping_on_work();
    let path = t.root().join(".git/plan/loop.json");
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["owner"] = "another-session".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(lp["owner"], "s1", "the owner is put back");
    // A session that never held this loop is still not held by it (told once).
    assert_ne!(t.stop_hook("s2").answer()["decision"], "block");
    assert_eq!(t.stop_hook("s2").stdout, "");
    // Nor does another start beside the owner's name make the loop another's: no
    // clear is logged since the session claimed it (red-team, one file edited).
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["owner"] = "another-session".into();
    lp["started"] = "2026-06-15 14:05".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // Nor does the session's own record deleted beside the name: an owner plan
    // keeps no record of is no session's, and the stop claims the loop.
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["owner"] = "zz".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    std::fs::remove_file(t.root().join(".git/plan/sessions/s1.json")).unwrap();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // A loop that ended is forgotten (its clear said once): a new one, claimed
    // by another session, is not the old session's to hold.
    t.ok(&["goal", "clear"]);
    assert_eq!(
        t.stop_hook("s1").answer()["systemMessage"],
        crate::loop_events::CLEARED
    );
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s2").answer()["decision"], "block");
    assert_eq!(t.stop_hook("s1").stdout, "");
}

// Attack (red-team): a run-out ending ("no goal is active or ready to start")
// written into loop.json with the owner renamed let every stop of the loop's own
// session go with no word: a run-out ending is questioned only for the loop's
// session, and the renamed owner made it another's before the session's claim was
// looked at. The session's own claim on the loop makes the ending its to question.
#[test]
fn a_run_out_ending_beside_an_edited_owner_does_not_let_the_loops_session_stop() {
    let t = looping_on_work();
    let path = t.root().join(".git/plan/loop.json");
    for owner in ["zzz", "s2"] {
        // `s2` is a session plan has a record of, that never held this loop.
        let record = t.root().join(".git/plan/sessions/s2.json");
        if owner == "s2" && !record.exists() {
            std::fs::write(&record, "{}").unwrap();
        }
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        lp["ended"] = "no goal is active or ready to start".into();
        lp["owner"] = owner.into();
        std::fs::write(&path, lp.to_string()).unwrap();
        for _ in 0..2 {
            let answer = t.stop_hook("s1").answer();
            assert_eq!(answer["decision"], "block", "owner {owner}: {answer}");
        }
    }
    // A session that never held the loop is not held by it, and is told the
    // ending plan.md does not back.
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["ended"] = "no goal is active or ready to start".into();
    lp["owner"] = "s1".into();
    std::fs::write(&path, lp.to_string()).unwrap();
    assert_eq!(t.stop_hook("s3").answer()["systemMessage"], FORGED_RUN_OUT);
}

/// Attack (red-team, three files): the run-out ending written into loop.json, the
/// owner renamed, a record made for the new owner and the session's own record
/// removed. A run-out ending was questioned only for the loop's own session, and
/// the session then looked like one that never held the loop: the stop was let go
/// with no word while plan.md had work left. The stop hook now logs the endings it
/// decides in plan.md (`work loop ended (…)`), so an ending the log does not back is
/// questioned whichever session stops, and taken back. The mark outside
/// `.git/plan` (`plan-loop`) names the session that claimed the loop, so that
/// session holds it still, whatever its record and loop.json say (the loop red
/// team's hand-off); a mark edited too makes the loop another session's: plan keeps
/// which session holds the loop in files the agent can write.
#[test]
fn a_run_out_ending_with_the_owners_records_forged_is_not_silent() {
    let t = looping_on_work();
    let path = t.root().join(".git/plan/loop.json");
    let sessions = t.root().join(".git/plan/sessions");
    for owner in ["zzz", "yyy"] {
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        let was = lp["owner"].as_str().unwrap().to_string();
        lp["ended"] = "no goal is active or ready to start".into();
        lp["owner"] = owner.into();
        std::fs::write(&path, lp.to_string()).unwrap();
        std::fs::rename(
            sessions.join(format!("{was}.json")),
            sessions.join(format!("{owner}.json")),
        )
        .unwrap();
        // The mark outside `.git/plan` names s1 as the loop's: it holds the loop
        // still, and its stop is held, the forged ending named.
        let answer = t.stop_hook("s1").answer();
        assert_eq!(answer["decision"], "block", "{owner}");
        let reason = answer["reason"].as_str().unwrap();
        assert_eq!(
            reason.split(" So the loop goes on").next(),
            Some(FORGED_RUN_OUT),
            "{owner}"
        );
        let lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        assert_eq!(
            lp["ended"],
            serde_json::Value::Null,
            "the ending is taken back"
        );
    }
}

/// Attack (red-team): an ending for goals claimed elsewhere, with loop.json's owner
/// renamed to a session plan keeps no record of and its start moved: the ending
/// was questioned only for the loop's own session, found by comparing the
/// session's claim with the start loop.json gives, so every stop went silent. An
/// owner plan keeps no record of is no session's, as `reclaim` takes it: the
/// ending is questioned.
#[test]
fn an_ending_beside_an_owner_plan_has_no_record_of_is_not_silent() {
    let t = looping_on_work();
    for _ in 0..2 {
        edit_loop(&t, |lp| {
            lp["ended"] = "every goal left is claimed by another session (`plan claims`)".into();
            lp["owner"] = "sX".into();
            lp["started"] = "2099-01-01 00:00".into();
        });
        assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    }
}

/// Another session's stops after the loop spent its budget say nothing and leave
/// the ending alone: a spent budget rests on loop.json's counts, which only the
/// loop's own session decides again. (Before, each such stop took the ending back,
/// said loop.json was edited, and the loop's session ended and announced the loop
/// again at its next stop.)
#[test]
fn another_sessions_stops_after_a_spent_budget_leave_the_ending_alone() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "1"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    assert_ne!(t.stop_hook("s1").stdout, "", "the budget ends the loop");
    let events = t.ok(&["events"]).stdout;
    for _ in 0..2 {
        assert_eq!(t.stop_hook("s2").stdout, "");
        assert_eq!(
            t.stop_hook("s1").answer()["decision"],
            serde_json::Value::Null
        );
    }
    assert_eq!(
        t.ok(&["events"]).stdout,
        events,
        "the ending recorded again"
    );
}

const FORGED_RUN_OUT: &str = "plan: .git/plan/loop.json says the work loop ended (no goal is active or ready to start), but nothing plan can check backs that: plan.md has work left, and its log neither clears the loop (`plan goal clear`) nor says it ran out of work, and the file's own counts are the agent's to write.";

/// Attack (issue 34, item 2): `"paused": true` written into `.git/plan/loop.json`
/// let every later stop go ("the work loop is paused") while plan.md had work left
/// and logged no pause. A pause plan.md's log does not back (its last word on a
/// pause since the loop started: `work loop paused`, or `resumed` after it) is not
/// taken: the loop goes on, and the stop says the state was edited.
#[test]
fn an_edited_pause_does_not_let_the_loops_session_stop() {
    let t = looping();
    let path = t.root().join(".git/plan/loop.json");
    let pause = || {
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        lp["paused"] = true.into();
        std::fs::write(&path, lp.to_string()).unwrap();
    };
    pause();
    let answer = t.stop_hook("s1").answer();
    assert_eq!(
        answer["decision"], "block",
        "the edited loop.json paused the loop: {answer}"
    );
    insta::assert_snapshot!(redact(&t, answer["reason"].as_str().unwrap()));
    let lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    assert_eq!(lp["paused"], false, "the pause is taken back");
    // A pause plan.md logs lets the stops go.
    t.ok(&["goal", "pause"]);
    insta::assert_snapshot!(t.stop_hook("s1").stdout, @r#"{"systemMessage":"plan: the work loop is paused; `plan goal resume` continues it"}"#);
    // Resumed, the logged pause no longer backs one written by hand.
    t.ok(&["goal", "resume"]);
    pause();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // Nor does a resume loop.json did not call for: the person's resume is logged
    // though the agent had set `"paused": false` first.
    t.ok(&["goal", "pause"]);
    let mut lp: serde_json::Value = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
    lp["paused"] = false.into();
    std::fs::write(&path, lp.to_string()).unwrap();
    t.ok(&["goal", "resume"]);
    pause();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // Nor a subtask or a failure mode that reads like the log's line.
    t.ok(&[
        "subtask",
        "cache-layer",
        "check cache. work loop paused (without a terminal)",
    ]);
    t.ok(&[
        "add",
        "Other",
        "--failure-mode",
        "9999-12-31 23:59 work loop paused (without a terminal)",
    ]);
    pause();
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
}

/// Red-team (issue 34, item 2): what plan.md says of a loop was read from the lines
/// stamped at or after loop.json's `started`, which the agent can write: a start
/// moved back reached an older loop's `plan goal clear`, and a clear and a new
/// loop in the same minute backed an ending, each letting the stop go in silence.
/// `plan goal` logs `work loop started (…)`, and only the lines after it count.
#[test]
fn a_start_moved_back_does_not_reach_an_older_loops_clear() {
    // The plan's log ends at 14:02, so no line is stamped earlier: the first
    // loop's start and clear are at 14:02, the second loop's at 14:04.
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "50"]);
    t.ok(&["goal", "clear"]);
    let t = t.env("PLAN_NOW", "2026-06-15T14:04");
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let path = t.root().join(".git/plan/loop.json");
    let forge = |started: Option<&str>| {
        let mut lp: serde_json::Value =
            serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
        lp["ended"] = "cleared by `plan goal clear`".into();
        if let Some(started) = started {
            lp["started"] = started.into();
        }
        std::fs::write(&path, lp.to_string()).unwrap();
    };
    forge(Some("2026-06-15 14:02"));
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // A clear and a new loop in the same minute: the clear is the old loop's.
    t.ok(&["goal", "clear"]);
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    forge(None);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    // Each start, clear and replacement is in plan.md's log.
    insta::assert_snapshot!(
        t.plan_md()
            .lines()
            .filter(|l| l.contains(" work loop "))
            .collect::<Vec<_>>()
            .join("\n"),
        @r"
    - 2026-06-15 14:02 work loop started (budget 50, without a terminal)
    - 2026-06-15 14:02 work loop cleared (without a terminal)
    - 2026-06-15 14:04 work loop started (budget 50, without a terminal)
    - 2026-06-15 14:04 work loop cleared (without a terminal)
    - 2026-06-15 14:04 work loop started (budget 50, without a terminal)
    "
    );
}

/// What session `s1` is told once, at a stop the loop session `s2` holds lets go.
const HELD_BY_S2: &str = "plan: the work loop started 2026-06-15 14:02 is held by session s2, not this one (s1), so this session's stops are let go. If this session is the loop's, `plan goal` here starts it again.";

/// Red-team (issue 34, item 2): a loop `plan goal` replaced in the same minute has
/// the start the old loop's session claimed, so that session took the new loop
/// from the session that claimed it, and both were held. Each `plan goal` logs its
/// start: a second start line since the claim is another loop.
#[test]
fn a_loop_replaced_in_the_same_minute_is_not_the_old_sessions() {
    let t = looping();
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s2").answer()["decision"], "block");
    // Told once whose loop it is, then let go.
    assert_eq!(t.stop_hook("s1").answer()["systemMessage"], HELD_BY_S2);
    assert_eq!(t.stop_hook("s1").stdout, "");
    assert_eq!(t.stop_hook("s2").answer()["decision"], "block");
    // Cleared first, then started: the same.
    t.ok(&["goal", "clear"]);
    t.ok(&["goal", "--budget", "50"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    assert_ne!(t.stop_hook("s2").answer()["decision"], "block");
    assert_eq!(t.stop_hook("s2").stdout, "");
}

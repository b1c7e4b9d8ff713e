//! Claims: a goal one agent started is not started again by another, across
//! worktrees, clones sharing a remote and sessions in one tree; each session is told
//! its own goals, the loop keeps it off others', and a claim ends at a sign-off, a
//! cancel, `plan release` or a lapsed lease.

use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::util::{Run, Test, fixture, redact, shown};

const PLAN: &str = "# Plan: Ship it

## Goal: Alpha
<!-- id: alpha -->
status: open
done_when: alpha works

## Goal: Beta
<!-- id: beta -->
status: open
done_when: beta works

## Log
";

fn repo() -> Test {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t
}

/// `plan ARGS` at another clock time.
fn at(t: &Test, now: &str, args: &[&str]) -> Run {
    Run::from(t.cmd(args).env("PLAN_NOW", now).output().unwrap(), args)
}

/// A Claude Code hook for `session`, run in `cwd`, with extra environment.
fn hook(t: &Test, event: &str, session: &str, cwd: &Path, env: &[(&str, &str)]) -> Value {
    let payload = fixture(&format!("hosts/claude/{event}.json"))
        .replace("CWD", cwd.to_str().unwrap())
        .replace("SESSION", session);
    let mut cmd = t.cmd(&["hook", "claude", event]);
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let mut child = cmd.spawn().unwrap();
    let _ = child.stdin.take().unwrap().write_all(payload.as_bytes());
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0), "hooks exit 0");
    let text = String::from_utf8_lossy(&out.stdout);
    if text.trim().is_empty() {
        return Value::Null;
    }
    serde_json::from_str(&text).unwrap()
}

fn context(v: &Value) -> String {
    v["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// A linked worktree of `t` on a branch of its own; the test then runs there.
fn worktree(t: &Test, name: &str) -> std::path::PathBuf {
    let path = t.dir.path().join(name);
    t.git(&["worktree", "add", "-q", "-b", name, path.to_str().unwrap()]);
    path
}

#[test]
fn a_second_start_by_another_holder_exits_2_naming_the_holder() {
    let t = repo();
    t.case(&["start", "alpha", "--as", "s1"])
        .stdout("started alpha (contract 54eeb1b3); claimed by s1\n")
        .check();
    let root = t.root();
    t.case(&["start", "alpha", "--as", "s2"])
        .status(2)
        .stderr(&format!(
            "plan: alpha is claimed by s1 in {} on branch main since 2026-06-15 14:02\n  hint: work on another goal (`plan next`); after 60 minutes without activity from s1 a start takes it over; `plan start alpha --steal` takes it now, logged\n",
            root.display()
        ))
        .check();
    // The holder starts it again: a renewal, no refusal.
    t.case(&["start", "alpha", "--as", "s1"])
        .stdout("alpha is already active (contract 54eeb1b3); claimed by s1\n")
        .check();
    assert!(
        !t.plan_md().contains("s2"),
        "a refused start writes nothing"
    );
}

#[test]
fn a_claim_holds_across_worktrees_and_names_its_worktree_and_branch() {
    let mut t = repo();
    t.ok(&["start", "alpha", "--as", "one"]);
    let main = t.root();
    let two = worktree(&t, "two");
    t.cwd = two.clone();
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["start", "alpha", "--as", "two"]).code(2)
    ));
    let listed = t.ok(&["claims", "--json"]).json();
    assert_eq!(listed[0]["goal"], "alpha");
    assert_eq!(listed[0]["holder"], "one");
    assert_eq!(listed[0]["worktree"], main.display().to_string());
    assert_eq!(listed[0]["branch"], "main");
    assert_eq!(listed[0]["since"], "2026-06-15 14:02");
    // The other worktree takes the other goal; the first sees that claim too.
    t.ok(&["start", "beta", "--as", "two"]);
    t.cwd = main;
    insta::assert_snapshot!(shown(&t, &t.ok(&["claims", "--as", "one"])));
    // A session in the other worktree is told the same, from the common git dir,
    // loose refs or packed ones.
    for pack in [false, true] {
        if pack {
            t.git(&["pack-refs", "--all"]);
            assert!(!t.root().join(".git/refs/plan/claims/alpha").exists());
        }
        let told = context(&hook(&t, "session-start", "two", &two, &[]));
        insta::assert_snapshot!(redact(&t, &told));
    }
    let started = t.ok(&["start", "beta", "--as", "two", "--json"]).json();
    assert_eq!(started["claimed_by"], "two");
}

#[test]
fn plan_next_leaves_out_goals_claimed_by_others() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    let theirs = t.ok(&["next", "--as", "s2"]);
    insta::assert_snapshot!(shown(&t, &theirs));
    let json = t.ok(&["next", "--as", "s2", "--json"]).json();
    assert_eq!(json.as_array().unwrap().len(), 1);
    assert_eq!(json[0]["id"], "beta");
    // The holder's own goal stays; PLAN_SESSION names the holder as --as does.
    let mine = Run::from(
        t.cmd(&["next", "--json"])
            .env("PLAN_SESSION", "s1")
            .output()
            .unwrap(),
        &[],
    );
    assert_eq!(mine.json().as_array().unwrap().len(), 2);
}

#[test]
fn steal_takes_a_claim_over_visibly_and_logs_it() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.case(&["start", "alpha", "--as", "s2", "--steal"])
        .stdout("alpha is already active (contract 54eeb1b3); claimed by s2\n")
        .stderr("plan: note: alpha taken over from s1 (--steal); logged\n")
        .check();
    assert!(
        t.plan_md()
            .contains("- 2026-06-15 14:02 alpha claim taken by s2 from s1 (steal)\n"),
        "{}",
        t.plan_md()
    );
    let events = t.ok(&["events"]).stdout;
    insta::assert_snapshot!(redact(&t, &events));
    let export = t.ok(&["export"]).json();
    let taken = export["log"]
        .as_array()
        .unwrap()
        .iter()
        .find(|l| l["event"]["event"] == "claim_taken")
        .unwrap_or_else(|| panic!("{export}"));
    assert_eq!(
        taken["event"],
        serde_json::json!({"event": "claim_taken", "id": "alpha", "holder": "s2", "from": "s1", "idle": null})
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["export", "--schema"]).stdout));
    // `plan log` cannot forge one.
    t.run(&["log", "beta claim taken by s1 from s2 (steal)"])
        .code(2);
    insta::assert_snapshot!(shown(&t, &t.run(&["start", "alpha", "--steal"]).code(2)));
}

#[test]
fn a_lapsed_lease_lets_another_take_over_with_a_note_and_activity_keeps_it() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    at(&t, "2026-06-15T14:50", &["start", "alpha", "--as", "s2"]).code(2);
    // s1's hook calls are activity: at 14:40 its session still works.
    let root = t.root();
    hook(
        &t,
        "user-prompt-submit",
        "s1",
        &root,
        &[("PLAN_NOW", "2026-06-15T14:40")],
    );
    insta::assert_snapshot!(shown(
        &t,
        &at(&t, "2026-06-15T15:20", &["start", "alpha", "--as", "s2"]).code(2)
    ));
    let taken = at(&t, "2026-06-15T15:45", &["start", "alpha", "--as", "s2"]).code(0);
    assert_eq!(
        taken.stderr,
        "plan: note: alpha taken over from s1 (no activity for 65 minutes, lease 60 minutes); logged\n"
    );
    assert!(
        t.plan_md()
            .contains("alpha claim taken by s2 from s1 (idle 65 min)"),
        "{}",
        t.plan_md()
    );
    // A shorter lease from the settings.
    t.write(".plan/config.yaml", "claims:\n  lease_minutes: 5\n");
    insta::assert_snapshot!(shown(
        &t,
        &at(&t, "2026-06-15T15:51", &["start", "alpha", "--as", "s3"]).code(0)
    ));
}

#[test]
fn a_claim_is_released_by_plan_release_a_cancel_and_a_sign_off() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["release", "alpha", "--as", "s2"]).code(2)
    ));
    t.case(&["release", "alpha", "--as", "s1"])
        .stdout("released alpha (held by s1)\n")
        .check();
    t.case(&["claims"]).stdout("no goal is claimed\n").check();
    t.ok(&["start", "alpha", "--as", "s2"]);
    t.ok(&["cancel", "alpha", "--reason", "not needed", "--as", "s2"]);
    assert_eq!(t.ok(&["claims", "--json"]).json(), serde_json::json!([]));
    t.ok(&["start", "beta", "--as", "s1"]);
    t.write("evidence.txt", "beta works\n");
    t.judge("accept");
    t.ok(&[
        "complete",
        "beta",
        "--evidence",
        "works",
        "--path",
        "evidence.txt",
        "--as",
        "s1",
    ]);
    assert_eq!(t.ok(&["claims", "--json"]).json(), serde_json::json!([]));
    // Released, so anyone may take what is left; nothing is claimed now.
    assert_eq!(t.git(&["for-each-ref", "refs/plan/claims/"]), "");
}

#[test]
fn two_sessions_in_one_tree_are_each_told_their_own_goals() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.ok(&["start", "beta", "--as", "s2"]);
    let root = t.root();
    let one = context(&hook(&t, "session-start", "s1", &root, &[]));
    let two = context(&hook(&t, "session-start", "s2", &root, &[]));
    insta::assert_snapshot!(redact(&t, &one));
    insta::assert_snapshot!(redact(&t, &two));
    // The loop keeps s1 on its own goal, never on s2's.
    t.ok(&["goal"]);
    let stop = hook(&t, "stop", "s1", &root, &[]);
    let reason = stop["reason"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, reason));
    // And s2, when the loop is its own.
    t.ok(&["goal", "clear"]);
    t.ok(&["goal"]);
    let stop = hook(&t, "stop", "s2", &root, &[]);
    let reason = stop["reason"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, reason));
    // The status line names the holder's own goals.
    insta::assert_snapshot!(shown(&t, &t.ok(&["statusline", "--as", "s1"])));
}

#[test]
fn a_session_with_nothing_but_others_goals_may_stop() {
    let t = Test::new().plan(&PLAN.replace(
        "## Goal: Beta\n<!-- id: beta -->\nstatus: open\ndone_when: beta works\n\n",
        "",
    ));
    t.commit_all("plan");
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.ok(&["goal"]);
    let root = t.root();
    let stop = hook(&t, "stop", "s2", &root, &[]);
    assert!(stop.get("decision").is_none(), "{stop}");
    assert_eq!(
        stop["systemMessage"],
        "plan: work loop stopped: every goal left is claimed by another session (`plan claims`)"
    );
}

#[test]
fn session_start_names_the_session_for_the_agents_shell() {
    let t = repo();
    let env_file = t.dir.path().join("claude-env.sh");
    let root = t.root();
    let start = || {
        let env = [("CLAUDE_ENV_FILE", env_file.to_str().unwrap())];
        hook(&t, "session-start", "4f2a-9c", &root, &env);
        std::fs::read_to_string(&env_file).unwrap()
    };
    assert_eq!(start(), "export PLAN_SESSION='4f2a-9c'\n");
    // Another hook's line without a final newline keeps its value (red team: plan's
    // line was glued onto it, so `BAR` read `x yexport PLAN_SESSION=…`).
    std::fs::write(&env_file, "export BAR=\"x y\"").unwrap();
    assert_eq!(
        start(),
        "export BAR=\"x y\"\nexport PLAN_SESSION='4f2a-9c'\n"
    );
    let run = Run::from(
        t.cmd(&["start", "alpha"])
            .env("PLAN_SESSION", "4f2a-9c")
            .output()
            .unwrap(),
        &[],
    )
    .code(0);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    // No session and no --as: started unclaimed, as before claims.
    t.case(&["start", "beta"])
        .stdout("started beta (contract d971d984)\n")
        .check();
}

#[test]
fn two_clones_sharing_a_remote_cannot_hold_one_goal() {
    let a = repo();
    let bare = a.dir.path().join("origin.git");
    a.git(&["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()]);
    let url = format!("file://{}", bare.display());
    a.write(".plan/config.yaml", "claims:\n  remote: origin\n");
    a.commit_all("claims on origin");
    a.git(&["remote", "add", "origin", &url]);
    a.git(&["push", "-q", "origin", "main"]);
    let mut b = Test::new();
    let clone = b.dir.path().join("clone");
    b.git(&["clone", "-q", &url, clone.to_str().unwrap()]);
    b.cwd = clone;

    a.ok(&["start", "alpha", "--as", "laptop"]);
    let remote = a.git(&["ls-remote", "origin", "refs/plan/claims/*"]);
    assert_eq!(redact(&a, &remote), "[COMMIT]\trefs/plan/claims/alpha\n");
    insta::assert_snapshot!(shown(
        &b,
        &b.run(&["start", "alpha", "--as", "desktop"]).code(2)
    ));
    let listed = b.ok(&["claims", "--json"]).json();
    assert_eq!(listed[0]["holder"], "laptop");
    b.ok(&["start", "beta", "--as", "desktop"]);
    insta::assert_snapshot!(shown(
        &a,
        &a.run(&["start", "beta", "--as", "laptop"]).code(2)
    ));
    // Released on one machine, free on the other.
    a.ok(&["release", "alpha", "--as", "laptop"]);
    assert!(
        !a.git(&["ls-remote", "origin", "refs/plan/claims/*"])
            .contains("alpha")
    );
    b.ok(&["start", "alpha", "--as", "desktop"]);
}

/// Attack: two `plan start --as` of one goal at the same moment, one in each of two
/// worktrees. libgit2 checked that the claim ref was absent before taking its lock,
/// so both could succeed (2 of 8 tries), the second silently overwriting the first
/// holder's claim.
#[test]
fn two_starts_at_the_same_moment_in_two_worktrees_never_both_take_the_goal() {
    let rounds = 16;
    let mut md = String::from("# Plan: Race\n\n");
    for i in 0..rounds {
        md.push_str(&format!(
            "## Goal: G{i}\n<!-- id: g{i} -->\nstatus: open\ndone_when: g{i} works\n\n"
        ));
    }
    md.push_str("## Log\n");
    let t = Test::new().plan(&md);
    t.commit_all("plan");
    let two = worktree(&t, "two");
    for i in 0..rounds {
        let goal = format!("g{i}");
        let spawn = |holder: &str, cwd: &Path| {
            t.cmd(&["start", &goal, "--as", holder])
                .current_dir(cwd)
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        };
        let (a, b) = (spawn("one", &t.root()), spawn("two", &two));
        let (a, b) = (a.wait_with_output().unwrap(), b.wait_with_output().unwrap());
        let won = [&a, &b].iter().filter(|o| o.status.success()).count();
        assert_eq!(
            won,
            1,
            "round {i}: {}\n{}",
            String::from_utf8_lossy(&a.stderr),
            String::from_utf8_lossy(&b.stderr)
        );
        let loser = if a.status.success() { &b } else { &a };
        assert_eq!(loser.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&loser.stderr).contains(&format!("{goal} is claimed by"))
                || String::from_utf8_lossy(&loser.stderr)
                    .contains("changed while it was being taken")
        );
    }
}

/// Attack: a FIFO where the hooks read the known-claims file (`.git/plan/claims.tsv`)
/// or a claim's loose ref. Every hook call read them with a blocking read and hung
/// until the host killed it.
#[test]
fn a_fifo_among_the_claims_files_hangs_no_hook() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "one"]);
    let git = t.root().join(".git");
    for fifo in [
        git.join("plan/claims.tsv"),
        git.join("refs/plan/claims/beta"),
    ] {
        let _ = std::fs::remove_file(&fifo);
        let made = std::process::Command::new("mkfifo")
            .arg(&fifo)
            .status()
            .unwrap();
        assert!(made.success());
        for args in [&["inject"][..], &["statusline"], &["claims"]] {
            let mut child = t
                .cmd(args)
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap();
            let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
            while child.try_wait().unwrap().is_none() {
                if std::time::Instant::now() > deadline {
                    let _ = child.kill();
                    panic!("plan {args:?} hung on the FIFO at {}", fifo.display());
                }
                std::thread::sleep(std::time::Duration::from_millis(20));
            }
        }
        std::fs::remove_file(&fifo).unwrap();
    }
}

/// The stderr of a command refused because `holder` holds `goal` in `t`'s main
/// worktree since the test clock's time; `me`: who asked (`None`: no one named).
fn refused(t: &Test, goal: &str, holder: &str, me: Option<&str>) -> String {
    let (who, hint) = match me {
        Some(me) => (
            format!(", not by {me}"),
            format!(
                "work on another goal (`plan next`), or take this one over, logged: `plan start {goal} --steal --as {me}`; its holder names itself with `--as {holder}` or PLAN_SESSION"
            ),
        ),
        None => (
            "; neither --as nor PLAN_SESSION names who is asking".to_string(),
            format!(
                "if you are {holder}, pass `--as {holder}` (or set PLAN_SESSION={holder}); else work on another goal (`plan next`), or take this one over, logged: `plan start {goal} --steal --as NAME`"
            ),
        ),
    };
    format!(
        "plan: {goal} is claimed by {holder} in {} on branch main since 2026-06-15 14:02{who}\n  hint: {hint}\n",
        t.root().display(),
    )
}

/// `plan ARGS` with PLAN_SESSION set to `session`.
fn as_session(t: &Test, session: &str, args: &[&str]) -> Run {
    Run::from(
        t.cmd(args).env("PLAN_SESSION", session).output().unwrap(),
        args,
    )
}

/// Issue 33: `plan start g --as alice`, then another session's (or no one's)
/// `complete`, `cancel`, `edit`, `tick`, `untick`, `subtask`, `subgoal` or `start`
/// of g exited 0: two agents worked one goal. Each is refused, exit 2, naming the
/// holder and `--steal`, and writes nothing; the holder's own go through.
#[test]
fn every_command_that_changes_a_goal_refuses_one_another_holds() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.ok(&["subtask", "alpha", "first step", "--as", "s1"]);
    t.judge("accept");
    t.commit_all("alpha started");
    let before = t.plan_md();
    let commands: [&[&str]; 8] = [
        &["complete", "alpha", "--evidence", "alpha works"],
        &["cancel", "alpha", "--reason", "mine now"],
        &["edit", "alpha", "--title", "Mine"],
        &["tick", "alpha", "1"],
        &["untick", "alpha", "1"],
        &["subtask", "alpha", "another step"],
        &["subgoal", "alpha", "also this"],
        &["start", "alpha"],
    ];
    for args in commands {
        let mut named = args.to_vec();
        named.extend(["--as", "s2"]);
        let by_flag = t.run(&named).code(2);
        let by_env = as_session(&t, "s2", args).code(2);
        if args[0] == "start" {
            for run in [&by_flag, &by_env] {
                insta::assert_snapshot!(redact(&t, &run.stderr));
            }
        } else {
            assert_eq!(
                by_flag.stderr,
                refused(&t, "alpha", "s1", Some("s2")),
                "{args:?}"
            );
            assert_eq!(
                by_env.stderr,
                refused(&t, "alpha", "s1", Some("s2")),
                "{args:?}"
            );
        }
        let nobody = t.run(args).code(2);
        assert_eq!(nobody.stderr, refused(&t, "alpha", "s1", None), "{args:?}");
        assert_eq!(t.plan_md(), before, "{args:?} wrote plan.md");
        let listed = t.ok(&["claims", "--json"]).json();
        assert_eq!(listed[0]["holder"], "s1", "{args:?} moved the claim");
    }
    // The holder's own commands go through, by --as or PLAN_SESSION.
    t.case(&["tick", "alpha", "1", "--as", "s1"])
        .stdout("ticked alpha 1/1: first step\n")
        .check();
    as_session(&t, "s1", &["untick", "alpha", "1"]).code(0);
    // An unclaimed goal is anyone's.
    t.ok(&["edit", "beta", "--title", "Beta two"]);
}

/// A local bare repository as `origin` of `t`, with claims on it; its URL.
fn origin(t: &Test) -> String {
    let bare = t.dir.path().join("origin.git");
    t.git(&["init", "-q", "--bare", "-b", "main", bare.to_str().unwrap()]);
    let url = format!("file://{}", bare.display());
    t.write(".plan/config.yaml", "claims:\n  remote: origin\n");
    t.commit_all("claims on origin");
    t.git(&["remote", "add", "origin", &url]);
    t.git(&["push", "-q", "origin", "main"]);
    url
}

/// A clone of `url` in a test of its own.
fn clone(url: &str) -> Test {
    let mut c = Test::new();
    let path = c.dir.path().join("clone");
    c.git(&["clone", "-q", url, path.to_str().unwrap()]);
    c.cwd = path;
    c
}

/// Issue 33: `PLAN_SESSION=bob plan complete g` in another clone exited 0 and
/// deleted alice's claim on the remote; a start by no one there exited 0 without a
/// word. Both are refused now, naming alice, and her claim stays on the remote.
#[test]
fn another_clone_cannot_sign_off_cancel_or_start_a_goal_held_on_the_remote() {
    let a = repo();
    let url = origin(&a);
    let b = clone(&url);
    a.ok(&["start", "alpha", "--as", "alice"]);
    for args in [
        &["complete", "alpha", "--evidence", "alpha works"][..],
        &["cancel", "alpha", "--reason", "mine now"],
        &["tick", "alpha", "1"],
    ] {
        let run = as_session(&b, "bob", args).code(2);
        assert_eq!(
            run.stderr,
            format!(
                "plan: alpha is claimed by alice in {} on branch main since 2026-06-15 14:02, not by bob\n  hint: work on another goal (`plan next`), or take this one over, logged: `plan start alpha --steal --as bob`; its holder names itself with `--as alice` or PLAN_SESSION\n",
                a.root().display()
            ),
            "{args:?}"
        );
    }
    insta::assert_snapshot!(shown(&b, &b.run(&["start", "alpha"]).code(2)));
    let remote = a.git(&["ls-remote", "origin", "refs/plan/claims/*"]);
    assert_eq!(redact(&a, &remote), "[COMMIT]\trefs/plan/claims/alpha\n");
    assert_eq!(a.ok(&["claims", "--json"]).json()[0]["holder"], "alice");
    let theirs = std::fs::read_to_string(b.cwd.join("plan.md")).unwrap();
    assert!(!theirs.contains("alpha started"), "{theirs}");
}

/// Issue 35: racing for a claim through the remote, the winner was sometimes told
/// "g is claimed by <itself>" (exit 2) and losers got exit 3 with git's "failed to
/// push some refs". N processes at once, two in each of several clones: exactly one
/// wins (exit 0, "claimed by" itself), every other exits 2 naming the winner.
#[test]
fn a_race_for_a_claim_through_the_remote_has_one_winner_and_losers_told_who() {
    let rounds: usize = std::env::var("PLAN_RACE_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(4);
    let mut md = String::from("# Plan: Race\n\n");
    for i in 0..rounds {
        md.push_str(&format!(
            "## Goal: G{i}\n<!-- id: g{i} -->\nstatus: open\ndone_when: g{i} works\n\n"
        ));
    }
    md.push_str("## Log\n");
    let a = Test::new().plan(&md);
    a.commit_all("plan");
    let url = origin(&a);
    let clones = [clone(&url), clone(&url)];
    let mut places: Vec<(&Test, String)> = vec![(&a, "a1".into()), (&a, "a2".into())];
    for (n, c) in clones.iter().enumerate() {
        places.push((c, format!("c{n}x")));
        places.push((c, format!("c{n}y")));
    }
    let mut losers = 0;
    for i in 0..rounds {
        let goal = format!("g{i}");
        let children: Vec<_> = places
            .iter()
            .map(|(t, who)| {
                t.cmd(&["start", &goal, "--as", who])
                    .stdout(Stdio::piped())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        let outs: Vec<_> = children
            .into_iter()
            .map(|c| c.wait_with_output().unwrap())
            .collect();
        let said = |o: &std::process::Output| {
            format!(
                "exit {:?}\n{}{}",
                o.status.code(),
                String::from_utf8_lossy(&o.stdout),
                String::from_utf8_lossy(&o.stderr)
            )
        };
        let all: Vec<String> = outs.iter().map(said).collect();
        let won: Vec<usize> = (0..outs.len())
            .filter(|&k| outs[k].status.success())
            .collect();
        assert_eq!(won.len(), 1, "round {i}:\n{}", all.join("\n"));
        let winner = &places[won[0]].1;
        let told = String::from_utf8_lossy(&outs[won[0]].stdout);
        let contract = a.ok(&["show", &goal, "--json"]).json()["contract"].clone();
        assert_eq!(
            told,
            format!(
                "started {goal} (contract {}); claimed by {winner}\n",
                contract.as_str().unwrap()
            ),
            "round {i}:\n{}",
            all.join("\n")
        );
        assert!(
            outs[won[0]].stderr.is_empty(),
            "round {i}:\n{}",
            all.join("\n")
        );
        for (k, out) in outs.iter().enumerate() {
            if k == won[0] {
                continue;
            }
            losers += 1;
            assert_eq!(out.status.code(), Some(2), "round {i}:\n{}", all.join("\n"));
            let err = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                err,
                format!(
                    "plan: {goal} is claimed by {winner} in {} on branch main since 2026-06-15 14:02\n  hint: work on another goal (`plan next`); after 60 minutes without activity from {winner} a start takes it over; `plan start {goal} --steal` takes it now, logged\n",
                    places[won[0]].0.cwd.display()
                ),
                "round {i}, {}:\n{}",
                places[k].1,
                all.join("\n")
            );
        }
    }
    assert_eq!(losers, rounds * (places.len() - 1));
}

/// Issue 33: `claims.remote` could only be set by editing the settings by hand.
/// `plan claims --remote NAME` sets it and `--remote none` unsets it, every other
/// byte of the file kept; a remote the repository does not have is refused.
#[test]
fn plan_claims_remote_sets_only_that_key() {
    let t = repo();
    let bare = t.dir.path().join("origin.git");
    t.git(&["init", "-q", "--bare", bare.to_str().unwrap()]);
    t.git(&[
        "remote",
        "add",
        "origin",
        &format!("file://{}", bare.display()),
    ]);
    t.case(&["claims", "--remote", "origin"])
        .stdout("set claims.remote to origin in .plan/config.yaml\n")
        .check();
    assert_eq!(t.read(".plan/config.yaml"), "claims:\n  remote: origin\n");
    let by_hand = "# the team's settings\r\njudge:\r\n  backend: claude   # ours\r\n\r\nclaims:\r\n  lease_minutes: 30\r\n  remote: upstream # was\r\nloop:\r\n  stall_limit: 9\r\n";
    t.write(".plan/config.yaml", by_hand);
    t.case(&["claims", "--remote", "origin"])
        .stdout("set claims.remote to origin in .plan/config.yaml\n")
        .check();
    assert_eq!(
        t.read(".plan/config.yaml"),
        by_hand.replace("remote: upstream # was", "remote: origin # was")
    );
    t.case(&["claims", "--remote", "none"])
        .stdout("set claims.remote to none in .plan/config.yaml: claims stay in this clone\n")
        .check();
    assert_eq!(
        t.read(".plan/config.yaml"),
        by_hand.replace("remote: upstream # was", "remote: null # was")
    );
    t.case(&["claims", "--remote", "nosuch"])
        .status(2)
        .stderr("plan: this repository has no remote nosuch; nothing was written\n  hint: `git remote -v` lists its remotes; add one with `git remote add nosuch URL`\n")
        .check();
    assert_eq!(
        t.read(".plan/config.yaml"),
        by_hand.replace("remote: upstream # was", "remote: null # was")
    );
}

/// Issue 33: a claim outlived its work: a pull request's branch deleted on the
/// remote (merged, or closed after the gate blocked it) kept its goal claimed until
/// the lease lapsed. `plan claims` drops a claim whose branch this clone has seen
/// on the remote and the remote no longer has; one on a branch never pushed stays.
#[test]
fn a_claim_whose_branch_is_gone_from_the_remote_is_released() {
    let a = repo();
    let url = origin(&a);
    a.git(&["checkout", "-q", "-b", "feat"]);
    a.ok(&["start", "alpha", "--as", "alice"]);
    a.commit_all("alpha started");
    a.git(&["push", "-q", "-u", "origin", "feat"]);
    a.git(&["checkout", "-q", "-b", "wip"]);
    a.ok(&["start", "beta", "--as", "alice"]);
    let b = clone(&url);
    b.git(&["fetch", "-q", "origin"]);
    // The forge deletes the merged branch.
    let bare = a.dir.path().join("origin.git");
    a.git(&[
        "--git-dir",
        bare.to_str().unwrap(),
        "update-ref",
        "-d",
        "refs/heads/feat",
    ]);
    b.case(&["claims"])
        .stderr("plan: note: released alpha (held by alice): its branch feat is gone from origin\n")
        .stdout(&format!(
            "beta  alice  {} on wip  since 2026-06-15 14:02\n",
            a.root().display()
        ))
        .check();
    let remote = a.git(&["ls-remote", "origin", "refs/plan/claims/*"]);
    assert!(!remote.contains("claims/alpha"), "{remote}");
    assert_eq!(redact(&a, &remote), "[COMMIT]\trefs/plan/claims/beta\n");
    b.ok(&["start", "alpha", "--as", "bob"]);
}

/// Issue 35: `plan start --as` took the claim, then failed to write plan.md: the
/// claim stayed and the goal was not started. Here plan.md changes under the start
/// (paused after its first read) so its write is refused: no claim is left.
#[test]
fn a_start_whose_write_fails_leaves_no_claim() {
    let t = repo();
    let (child, gate) = t.spawn_paused(t.cmd(&["start", "alpha", "--as", "s1"]));
    let edited = t.plan_md().replacen(
        "status: open\ndone_when: alpha",
        "status: cancelled\ndone_when: alpha",
        1,
    );
    t.write("plan.md", &edited);
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    assert_ne!(out.status.code(), Some(0), "{out:?}");
    assert_eq!(t.git(&["for-each-ref", "refs/plan/claims/"]), "");
    t.case(&["claims"]).stdout("no goal is claimed\n").check();
}

/// Issue 33: the second session's status line named the other session's next
/// subtask (the first active goal, whoever held it). Each names its own.
#[test]
fn each_sessions_status_line_names_its_own_next_subtask() {
    let t = Test::new().plan(
        &PLAN
            .replace("alpha works\n", "alpha works\n- [ ] alpha step\n")
            .replace("beta works\n", "beta works\n- [ ] beta step\n"),
    );
    t.commit_all("plan");
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.ok(&["start", "beta", "--as", "s2"]);
    t.case(&["statusline", "--as", "s2"])
        .stdout("plan: 2 active · beta 0/1 · next: beta step · yours: beta · held: alpha by s1\n")
        .check();
    insta::assert_snapshot!(shown(&t, &as_session(&t, "s1", &["statusline"]).code(0)));
    let json = as_session(&t, "s2", &["statusline", "--json"])
        .code(0)
        .json();
    assert_eq!(json["goal"], "beta");
    assert_eq!(json["next_subtask"], "beta step");
    // A session holding nothing is shown no one's goal.
    t.case(&["statusline", "--as", "s3"])
        .stdout("plan: 2 active · held: alpha by s1, beta by s2\n")
        .check();
}

/// Issue 35: a claims remote that does not exist said "…failed: and the
/// repository exists." (the last line of git's advice). git's own words are shown.
#[test]
fn a_claims_remote_that_cannot_be_reached_is_named_in_gits_words() {
    let t = repo();
    t.write(".plan/config.yaml", "claims:\n  remote: nosuch\n");
    let run = t.run(&["claims"]).code(3);
    assert_eq!(
        run.stderr,
        "plan: fetching the claims from nosuch failed: fatal: 'nosuch' does not appear to be a git repository; fatal: Could not read from remote repository.\n  hint: claims.remote is nosuch in .plan/config.yaml; check that it is reachable (git fetch nosuch)\n"
    );
    // A command that only changes a goal goes on with what this clone knows.
    let edited = t.run(&["edit", "alpha", "--title", "Alpha two"]).code(0);
    assert_eq!(
        edited.stderr,
        "plan: warning: fetching the claims from nosuch failed: fatal: 'nosuch' does not appear to be a git repository; fatal: Could not read from remote repository.\n  hint: the claims this clone knows decided; check that nosuch is reachable (git fetch nosuch)\n"
    );
}

/// Issue 33: a sign-off deleted whatever claim its goal had. Here bob takes the
/// goal over (`--steal`) while alice's sign-off is under way (paused before its
/// write): the sign-off goes through, and bob's claim stays, said in a note.
#[test]
fn a_sign_off_never_deletes_the_claim_of_one_who_took_the_goal_over_meanwhile() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "alice"]);
    t.judge("accept");
    t.write("evidence.txt", "alpha works\n");
    t.commit_all("alpha started");
    let (child, gate) = t.spawn_paused(t.cmd(&[
        "complete",
        "alpha",
        "--evidence",
        "alpha works",
        "--path",
        "evidence.txt",
        "--as",
        "alice",
    ]));
    t.ok(&["start", "alpha", "--as", "bob", "--steal"]);
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{err}");
    assert_eq!(
        err,
        "plan: judge: asking command (timeout 10s)\nplan: note: the claim on alpha is held by bob now, not by alice; left as it is\n  hint: `plan release alpha --force` drops it\n"
    );
    assert_eq!(t.ok(&["claims", "--json"]).json()[0]["holder"], "bob");
}

/// Issue 71's team day: `plan reopen --as` was a usage error while start, tick,
/// cancel and complete take `--as`; a reopen of a goal another holds went through.
#[test]
fn reopen_takes_as_and_refuses_a_goal_another_holds() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.judge("accept");
    t.ok(&[
        "complete",
        "alpha",
        "--evidence",
        "alpha works",
        "--as",
        "s1",
    ]);
    t.ok(&["reopen", "alpha", "--reason", "a test fails", "--as", "s1"]);
    assert!(
        t.plan_md().contains("alpha reopened: a test fails"),
        "{}",
        t.plan_md()
    );
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.ok(&[
        "complete",
        "alpha",
        "--evidence",
        "alpha works",
        "--as",
        "s1",
    ]);
    t.ok(&["start", "beta", "--as", "s1"]);
    t.run(&["reopen", "beta", "--reason", "x", "--as", "s2"])
        .code(2)
        .stderr_has("beta is claimed by s1");
}

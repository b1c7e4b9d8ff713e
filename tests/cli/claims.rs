//! Claims: a goal one agent started is not started again by another, across
//! worktrees, clones sharing a remote and sessions in one tree; each session is told
//! its own goals, the loop keeps it off others', and a claim ends at a sign-off, a
//! cancel, `plan release` or a lapsed lease.

use std::io::Write as _;
use std::path::Path;
use std::process::Stdio;

use serde_json::Value;

use crate::util::{Run, Test, fixture};

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
    t.run(&["start", "alpha", "--as", "two"])
        .code(2)
        .stderr_has("alpha is claimed by one in ")
        .stderr_has("on branch main");
    let listed = t.ok(&["claims", "--json"]).json();
    assert_eq!(listed[0]["goal"], "alpha");
    assert_eq!(listed[0]["holder"], "one");
    assert_eq!(listed[0]["worktree"], main.display().to_string());
    assert_eq!(listed[0]["branch"], "main");
    assert_eq!(listed[0]["since"], "2026-06-15 14:02");
    // The other worktree takes the other goal; the first sees that claim too.
    t.ok(&["start", "beta", "--as", "two"]);
    t.cwd = main;
    t.ok(&["claims", "--as", "one"])
        .stdout_has("alpha  one (you)")
        .stdout_has(&format!("beta   two  {} on two", two.display()));
    // A session in the other worktree is told the same, from the common git dir,
    // loose refs or packed ones.
    for pack in [false, true] {
        if pack {
            t.git(&["pack-refs", "--all"]);
            assert!(!t.root().join(".git/refs/plan/claims/alpha").exists());
        }
        let told = context(&hook(&t, "session-start", "two", &two, &[]));
        assert!(told.contains("Yours: beta."), "{told}");
        assert!(
            told.contains(&format!(
                "alpha (held by one in {} on main)",
                t.root().display()
            )),
            "{told}"
        );
    }
    let started = t.ok(&["start", "beta", "--as", "two", "--json"]).json();
    assert_eq!(started["claimed_by"], "two");
}

#[test]
fn plan_next_leaves_out_goals_claimed_by_others() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    let theirs = t.ok(&["next", "--as", "s2"]);
    assert!(!theirs.stdout.contains("alpha"), "{}", theirs.stdout);
    assert!(theirs.stdout.contains("beta"), "{}", theirs.stdout);
    assert!(theirs.stdout.contains("1 claimed by others left out"));
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
    assert!(
        events.contains("claim_taken        alpha claim taken by s2 from s1 (steal)"),
        "{events}"
    );
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
    assert!(t.ok(&["export", "--schema"]).stdout.contains("claim_taken"));
    // `plan log` cannot forge one.
    t.run(&["log", "beta claim taken by s1 from s2 (steal)"])
        .code(2);
    t.run(&["start", "alpha", "--steal"])
        .code(2)
        .stderr_has("--steal needs a holder");
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
    at(&t, "2026-06-15T15:20", &["start", "alpha", "--as", "s2"])
        .code(2)
        .stderr_has("alpha is claimed by s1");
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
    at(&t, "2026-06-15T15:51", &["start", "alpha", "--as", "s3"])
        .code(0)
        .stderr_has("no activity for 6 minutes, lease 5 minutes");
}

#[test]
fn a_claim_is_released_by_plan_release_a_cancel_and_a_sign_off() {
    let t = repo();
    t.ok(&["start", "alpha", "--as", "s1"]);
    t.run(&["release", "alpha", "--as", "s2"])
        .code(2)
        .stderr_has("alpha is claimed by s1, not s2; only its holder releases it");
    t.case(&["release", "alpha", "--as", "s1"])
        .stdout("released alpha (held by s1)\n")
        .check();
    t.case(&["claims"]).stdout("no goal is claimed\n").check();
    t.ok(&["start", "alpha", "--as", "s2"]);
    t.ok(&["cancel", "alpha", "--reason", "not needed"]);
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
    assert!(one.contains("Claims: this session is s1."), "{one}");
    assert!(one.contains("Yours: alpha."), "{one}");
    assert!(one.contains("beta (held by s2 in "), "{one}");
    assert!(two.contains("Yours: beta."), "{two}");
    assert!(two.contains("alpha (held by s1 in "), "{two}");
    // The loop keeps s1 on its own goal, never on s2's.
    t.ok(&["goal"]);
    let stop = hook(&t, "stop", "s1", &root, &[]);
    let reason = stop["reason"].as_str().unwrap();
    assert!(reason.contains("alpha (check done_when"), "{reason}");
    assert!(!reason.contains("beta"), "{reason}");
    // And s2, when the loop is its own.
    t.ok(&["goal", "clear"]);
    t.ok(&["goal"]);
    let stop = hook(&t, "stop", "s2", &root, &[]);
    let reason = stop["reason"].as_str().unwrap();
    assert!(reason.contains("beta (check done_when"), "{reason}");
    assert!(!reason.contains("alpha"), "{reason}");
    // The status line names the holder's own goals.
    t.ok(&["statusline", "--as", "s1"])
        .stdout_has("yours: alpha · held: beta by s2");
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
    hook(
        &t,
        "session-start",
        "4f2a-9c",
        &root,
        &[("CLAUDE_ENV_FILE", env_file.to_str().unwrap())],
    );
    assert_eq!(
        std::fs::read_to_string(&env_file).unwrap(),
        "export PLAN_SESSION='4f2a-9c'\n"
    );
    let run = Run::from(
        t.cmd(&["start", "alpha"])
            .env("PLAN_SESSION", "4f2a-9c")
            .output()
            .unwrap(),
        &[],
    )
    .code(0);
    assert!(
        run.stdout.ends_with("; claimed by 4f2a-9c\n"),
        "{}",
        run.stdout
    );
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
    assert!(remote.contains("refs/plan/claims/alpha"), "{remote}");
    b.run(&["start", "alpha", "--as", "desktop"])
        .code(2)
        .stderr_has("alpha is claimed by laptop");
    let listed = b.ok(&["claims", "--json"]).json();
    assert_eq!(listed[0]["holder"], "laptop");
    b.ok(&["start", "beta", "--as", "desktop"]);
    a.run(&["start", "beta", "--as", "laptop"])
        .code(2)
        .stderr_has("beta is claimed by desktop");
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

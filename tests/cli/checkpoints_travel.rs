//! Sign-offs travel with git: after `plan install git` in each clone, a plain
//! `git push` carries the checkpoints its sign-offs name (a pre-push hook), a
//! plain `git pull` brings the others' (a fetch refspec into a namespace of their
//! own), and `plan complete` stages its transcript so `git commit -a` takes it.
//! No plan command moves a ref, and every sign-off is proven in every clone.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::util::{BIN, Test, redact, shown};

const PLAN: &str = "# Plan: Travel

## Goal: A
<!-- id: a -->
status: open
done_when: a is done
verify: true
failure_modes:
- a is not done

## Goal: B
<!-- id: b -->
status: open
done_when: b is done
verify: true
failure_modes:
- b is not done

## Goal: C
<!-- id: c -->
status: open
done_when: c is done
verify: true
failure_modes:
- c is not done

## Log
";

fn git(t: &Test, dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git")
        .args(args)
        .current_dir(dir)
        .env_clear()
        .env("PATH", crate::util::system_path())
        .env("HOME", t.dir.path().join("home"))
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("GIT_AUTHOR_NAME", "Test")
        .env("GIT_AUTHOR_EMAIL", "test@example.invalid")
        .env("GIT_COMMITTER_NAME", "Test")
        .env("GIT_COMMITTER_EMAIL", "test@example.invalid")
        .env("TZ", "UTC")
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(
        out.status.success(),
        "git {args:?} in {}: {text}",
        dir.display()
    );
    text
}

fn plan(t: &Test, dir: &Path, now: &str, args: &[&str]) -> crate::util::Run {
    let out = t
        .cmd(args)
        .current_dir(dir)
        .env("PLAN_NOW", now)
        .output()
        .unwrap();
    crate::util::Run::from(out, args)
}

/// An origin, the lead's clone (the Test's repository) and two more, each with
/// `plan install git` run once.
fn team(t: &Test) -> Vec<PathBuf> {
    t.write("plan.md", PLAN);
    let origin = t.dir.path().join("origin.git");
    git(
        t,
        t.dir.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            origin.to_str().unwrap(),
        ],
    );
    t.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    insta::assert_snapshot!(redact(
        t,
        &t.ok(&["install", "git", "--command", BIN]).stdout
    ));
    t.commit_all("plan");
    t.git(&["push", "-q", "-u", "origin", "main"]);
    let mut sides = vec![t.root()];
    for name in ["bob", "carol"] {
        let dir = t.dir.path().join(name);
        git(
            t,
            t.dir.path(),
            &[
                "clone",
                "-q",
                origin.to_str().unwrap(),
                dir.to_str().unwrap(),
            ],
        );
        plan(
            t,
            &dir,
            "2026-06-15T09:00",
            &["install", "git", "--command", BIN],
        )
        .code(0);
        sides.push(dir);
    }
    sides
}

#[test]
fn sign_offs_pushed_and_pulled_with_plain_git_are_proven_in_every_clone() {
    let t = Test::new();
    let sides = team(&t);
    for (n, (dir, id)) in sides.iter().zip(["a", "b", "c"]).enumerate() {
        let now = format!("2026-06-15T1{n}:00");
        plan(&t, dir, &now, &["start", id]).code(0);
        insta::assert_snapshot!(shown(
            &t,
            &plan(
                &t,
                dir,
                &now,
                &["complete", id, "--evidence", "done", "--judge", "none"],
            )
            .code(0)
        ));
        // `commit -a` takes the transcript: complete staged it.
        git(&t, dir, &["commit", "-q", "-am", id]);
        git(&t, dir, &["pull", "-q", "--no-rebase"]);
        git(&t, dir, &["push", "-q"]);
    }
    for dir in &sides {
        git(&t, dir, &["pull", "-q", "--no-rebase"]);
    }
    let origin = t.dir.path().join("origin.git");
    let there = git(&t, &origin, &["for-each-ref", "refs/plan/checkpoints/"]);
    assert_eq!(there.lines().count(), 3, "{there}");
    for dir in &sides {
        plan(&t, dir, "2026-06-15T18:00", &["lint"]).code(0);
        let audit = plan(&t, dir, "2026-06-15T18:00", &["audit"]).code(0);
        insta::assert_snapshot!(redact(&t, &audit.stdout));
        // Nothing about checkpoints on either stream.
        assert_eq!(audit.stderr, "", "{}", audit.stderr);
        assert_eq!(
            git(&t, dir, &["status", "--porcelain"]),
            "",
            "all committed"
        );
    }
    // A plain push still pushes what it pushed before: main, and no other branch.
    let heads = git(
        &t,
        &origin,
        &["for-each-ref", "--format=%(refname)", "refs/heads/"],
    );
    assert_eq!(heads, "refs/heads/main\n");
}

#[test]
fn a_checkpoint_not_yet_fetched_is_a_warning_naming_git_fetch_and_stage_false_stages_nothing() {
    let t = Test::new();
    let sides = team(&t);
    let bob = &sides[1];
    t.write(".plan/config.yaml", "sign_off:\n  stage: false\n");
    plan(&t, &t.root(), "2026-06-15T10:00", &["start", "a"]).code(0);
    let run = plan(
        &t,
        &t.root(),
        "2026-06-15T10:00",
        &["complete", "a", "--evidence", "done", "--judge", "none"],
    )
    .code(0);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    let transcript = "?? .plan/judge/a-20260615-1000.md";
    assert!(
        t.git(&["status", "--porcelain", "-uall"])
            .contains(transcript),
        "not staged"
    );
    t.commit_all("a");
    // Pushed with the hook bypassed: the checkpoint stays behind.
    t.git(&["push", "-q", "--no-verify"]);
    git(&t, bob, &["pull", "-q", "--no-rebase"]);
    let lint = plan(&t, bob, "2026-06-15T11:00", &["lint"]).code(0);
    let said = lint.stdout + &lint.stderr;
    insta::assert_snapshot!(redact(&t, &said));
    // The next plain push carries it: its plan.md names the checkpoint.
    plan(&t, &t.root(), "2026-06-15T10:30", &["log", "a: more"]).code(0);
    t.commit_all("note");
    t.git(&["push", "-q"]);
    git(&t, bob, &["fetch", "-q"]);
    let lint = plan(&t, bob, "2026-06-15T11:00", &["lint"]).code(0);
    insta::assert_snapshot!(redact(&t, &lint.stdout));
}

/// A transcript git never had cannot be restored from it: audit says what lint
/// says (it told people to `git checkout` a file no commit holds).
#[test]
fn audit_and_lint_agree_that_a_transcript_git_never_had_is_not_restored_from_git() {
    let t = Test::new();
    t.write("plan.md", PLAN);
    t.write(".gitignore", ".plan/judge/\n");
    t.commit_all("plan");
    t.ok(&["start", "a"]);
    t.ok(&["complete", "a", "--evidence", "done", "--judge", "none"]);
    t.commit_all("a done");
    let other = t.dir.path().join("other");
    git(
        &t,
        t.dir.path(),
        &[
            "clone",
            "-q",
            t.root().to_str().unwrap(),
            other.to_str().unwrap(),
        ],
    );
    // The two say it in the same words.
    let hint = "hint: .plan/judge/a-20260615-1402.md was never committed, so git cannot restore it: commit it in the clone that signed a off and pull, or sign a off again here (`plan complete a --evidence TEXT --path FILE`)";
    for args in [&["lint"][..], &["audit"]] {
        let run = plan(&t, &other, "2026-06-15T15:00", args).code(1);
        insta::assert_snapshot!(redact(&t, &run.stdout));
        assert!(
            run.stdout.lines().any(|l| l.trim() == hint),
            "{args:?}: {}",
            run.stdout
        );
    }
}

/// Checkpoint refs are shared by every worktree of a clone: a rewind in a sibling
/// worktree to a goal signed off in the other says so, not that plan did not
/// write the ref.
#[test]
fn a_rewind_in_a_sibling_worktree_says_where_the_sign_off_is() {
    let t = Test::new();
    t.write("plan.md", PLAN);
    t.commit_all("plan");
    t.git(&["worktree", "add", "-q", "../w", "-b", "w"]);
    let w = t.dir.path().join("w");
    plan(&t, &w, "2026-06-15T10:00", &["start", "b"]).code(0);
    plan(
        &t,
        &w,
        "2026-06-15T10:00",
        &["complete", "b", "--evidence", "done", "--judge", "none"],
    )
    .code(0);
    let checkpoint = t.git(&["rev-parse", "refs/plan/checkpoints/b/20260615-1000"]);
    let run = t.run(&["rewind", "b", "--yes"]).code(2);
    assert_eq!(
        run.stderr,
        format!(
            "plan: no sign-off of b in plan.md names a checkpoint: its checkpoint {} (2026-06-15 10:00) was taken on another branch or in another worktree, whose sign-off line is not in this plan.md\n  hint: run plan rewind in the worktree that signed it off, or merge its branch here first; plan checkpoints lists them\n",
            &checkpoint[..12]
        )
    );
}

/// Issue 33's team test, in one scenario: a lead and four agents (two worktrees of
/// one clone, two other clones) of one bare origin, claims on the remote. Each
/// agent claims a goal of its own (a second agent is refused one held, told who
/// holds it), makes its verify pass, signs off with a command judge, commits and
/// moves its work with plain `git pull` and `git push`. Then in every clone and
/// worktree each teammate's sign-off is proven, lint and audit are clean and no
/// claim is left, with no plan command moving a ref.
#[test]
fn four_agents_with_claims_on_the_remote_move_their_sign_offs_with_plain_git() {
    let t = Test::new();
    let goals = ["a", "b", "c", "d"];
    let mut md = PLAN.replace("verify: true", "verify: test -f VERIFY.txt");
    for id in ["a", "b", "c"] {
        md = md.replacen("VERIFY.txt", &format!("{id}.txt"), 1);
    }
    md = md.replace(
        "\n## Log\n",
        "\n## Goal: D\n<!-- id: d -->\nstatus: open\ndone_when: d is done\nverify: test -f d.txt\nfailure_modes:\n- d is not done\n\n## Log\n",
    );
    t.write("plan.md", &md);
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            crate::util::fixture_path("judges/accept").display()
        ),
    );
    let origin = t.dir.path().join("origin.git");
    git(
        &t,
        t.dir.path(),
        &[
            "init",
            "-q",
            "--bare",
            "-b",
            "main",
            origin.to_str().unwrap(),
        ],
    );
    t.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    // The lead: two plan commands, then plain git.
    t.ok(&["install", "git", "--command", BIN]);
    t.ok(&["claims", "--remote", "origin"]);
    t.commit_all("plan for the team");
    t.git(&["push", "-q", "-u", "origin", "main"]);

    let clone = |name: &str| {
        let dir = t.dir.path().join(name);
        git(
            &t,
            t.dir.path(),
            &[
                "clone",
                "-q",
                origin.to_str().unwrap(),
                dir.to_str().unwrap(),
            ],
        );
        plan(
            &t,
            &dir,
            "2026-06-15T09:00",
            &["install", "git", "--command", BIN],
        )
        .code(0);
        dir
    };
    let one = clone("one");
    // The second worktree of clone `one`: its config, hooks and refs are one's.
    let sibling = t.dir.path().join("one-b");
    git(
        &t,
        &one,
        &[
            "worktree",
            "add",
            "-q",
            "-b",
            "work-b",
            sibling.to_str().unwrap(),
            "origin/main",
        ],
    );
    let (two, three) = (clone("two"), clone("three"));
    let agents = [
        (&one, "alice", "a"),
        (&sibling, "bob", "b"),
        (&two, "carol", "c"),
        (&three, "dave", "d"),
    ];

    // Each claims its goal; the claims are on the remote.
    for (n, (dir, name, id)) in agents.iter().enumerate() {
        let now = format!("2026-06-15T10:0{n}");
        plan(&t, dir, &now, &["start", id, "--as", name]).code(0);
    }
    let held = git(&t, &origin, &["for-each-ref", "refs/plan/claims/"]);
    assert_eq!(held.lines().count(), 4, "{held}");
    // A second agent on a held goal: refused, told who holds it, from another clone
    // and from the sibling worktree alike; nothing is written.
    for (dir, who) in [(&two, "carol"), (&sibling, "bob")] {
        let run = plan(&t, dir, "2026-06-15T10:10", &["start", "a", "--as", who]).code(2);
        insta::assert_snapshot!(redact(&t, &run.stderr));
    }
    for (dir, name, id) in agents {
        assert!(
            !std::fs::read_to_string(dir.join("plan.md"))
                .unwrap()
                .contains(&format!("a claim taken by {name}")),
            "{id}"
        );
    }

    // Work, sign off with the command judge, and move it all with plain git.
    for (n, (dir, name, id)) in agents.iter().enumerate() {
        let now = format!("2026-06-15T11:{:02}", n * 5);
        std::fs::write(dir.join(format!("{id}.txt")), "done\n").unwrap();
        git(&t, dir, &["add", &format!("{id}.txt")]);
        insta::assert_snapshot!(shown(
            &t,
            &plan(
                &t,
                dir,
                &now,
                &[
                    "complete",
                    id,
                    "--as",
                    name,
                    "--evidence",
                    "the file is there",
                ],
            )
            .code(0)
        ));
        git(&t, dir, &["commit", "-q", "-am", id]);
        git(&t, dir, &["pull", "-q", "--no-rebase"]);
        // The sibling worktree's branch is work-b, whose upstream is main.
        git(&t, dir, &["push", "-q", "origin", "HEAD:main"]);
    }
    assert_eq!(
        git(&t, &origin, &["for-each-ref", "refs/plan/claims/"]),
        "",
        "every sign-off released its own claim on the remote"
    );
    let there = git(&t, &origin, &["for-each-ref", "refs/plan/checkpoints/"]);
    assert_eq!(there.lines().count(), 4, "{there}");

    let mut audits = Vec::new();
    for dir in [&t.root(), &one, &sibling, &two, &three] {
        // Plain `git pull`: the branch's upstream, and every configured refspec.
        // (`git pull origin main` names its one refspec and brings no checkpoint.)
        git(&t, dir, &["pull", "-q", "--no-rebase"]);
        plan(&t, dir, "2026-06-15T18:00", &["lint"]).code(0);
        let audit = plan(&t, dir, "2026-06-15T18:00", &["audit"]).code(0);
        assert!(
            !audit.stdout.contains("checkpoint") && !audit.stderr.contains("checkpoint"),
            "{}: {}{}",
            dir.display(),
            audit.stdout,
            audit.stderr
        );
        audits.push(audit.stdout);
        for id in goals {
            let show = plan(&t, dir, "2026-06-15T18:00", &["show", id, "--json"]).code(0);
            let json = show.json();
            assert_eq!(
                json["proof"]["state"],
                "proven",
                "{id} in {}: {json}",
                dir.display()
            );
        }
        assert_eq!(
            git(&t, dir, &["status", "--porcelain"]),
            "",
            "all committed"
        );
    }
    // Every clone's audit says the same: four goals, each proven.
    assert!(audits.iter().all(|a| a == &audits[0]), "{audits:?}");
    insta::assert_snapshot!(redact(&t, &audits[0]));
}

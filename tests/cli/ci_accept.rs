//! CI's judge's accept, once merged, clears `weak-sign-off` in every clone (issue
//! 71, item 5): a `judged again by CI` line naming a sign-off's checkpoint answers
//! its weak judge in lint, show and audit; the gate fails a pull request that
//! writes one itself; the judge job writes CI's accepts signed under
//! `PLAN_RECORD_KEY` (`--ci-accepted`), and the update job, after the merge, logs
//! them (`--record-ci`) only from a file whose HMAC checks. The workflow's own
//! steps run against a stand-in `gh` and a bare origin.

use std::path::Path;
use std::process::Command;

use crate::forge::step_script;
use crate::gate::{origin, rev, sign_off, user_judge};
use crate::util::{BIN, Run, Test};

const KEY: &str = "a-record-key-of-enough-length";

/// `ship` signed off on branch `pr` with a command judge (a weak sign-off) and
/// committed, its README the work; returns the base's sha.
fn weak_pull_request() -> (Test, String) {
    let t = origin();
    std::fs::remove_file(t.path("README.md")).unwrap();
    t.commit_all("no README yet");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.judge("accept");
    t.write("README.md", "# Hello, world\n");
    sign_off(&t);
    t.commit_all("ship it");
    (t, base)
}

/// The sign-off line's stamp, checkpoint and contract.
fn sign_off_of(t: &Test) -> (String, String, String) {
    let md = t.plan_md();
    let line = md
        .lines()
        .rfind(|l| l.contains(" ship signed off "))
        .expect("a sign-off line");
    let stamp = line[2..18].to_string();
    let checkpoint = line
        .rsplit_once("(checkpoint ")
        .and_then(|(_, c)| c.strip_suffix(')'))
        .unwrap()
        .to_string();
    let contract = line
        .split_once(", contract ")
        .map(|(_, c)| c[..8].to_string())
        .unwrap();
    (stamp, checkpoint, contract)
}

fn ci_line(t: &Test, checkpoint: &str) -> String {
    let (stamp, _, _) = sign_off_of(t);
    format!("- {stamp} ship judged again by CI: accept (checkpoint {checkpoint}, run 7)\n")
}

fn weak(run: &Run) -> bool {
    format!("{}{}", run.stdout, run.stderr).contains("[weak-sign-off]")
}

// Issue 71: after CI's judge accepted a command-judge sign-off, `plan lint` still
// warned weak-sign-off in every clone.
#[test]
fn a_ci_judged_line_naming_the_sign_offs_checkpoint_clears_weak_sign_off() {
    let (t, _) = weak_pull_request();
    assert!(weak(&t.run(&["lint"])), "a command judge is weak");
    let md = t.plan_md();
    let (_, checkpoint, _) = sign_off_of(&t);
    t.write("plan.md", format!("{md}{}", ci_line(&t, "0f0f0f0f0f0f")));
    assert!(
        weak(&t.run(&["lint"])),
        "another checkpoint's line clears nothing"
    );
    t.write("plan.md", format!("{md}{}", ci_line(&t, &checkpoint)));
    let lint = t.run(&["lint"]);
    assert!(!weak(&lint), "{}{}", lint.stdout, lint.stderr);
    let show = t.ok(&["show", "ship"]);
    assert!(
        show.stdout
            .contains("proof: proven (judged again by CI, run 7)"),
        "{}",
        show.stdout
    );
    let audit = t.ok(&["audit"]);
    assert!(
        audit
            .stdout
            .contains("✓ ship (done): proven (judged again by CI, run 7)"),
        "{}",
        audit.stdout
    );
    let doctor = t.run(&["doctor"]);
    assert!(!weak(&doctor), "{}{}", doctor.stdout, doctor.stderr);
    // Reopened and signed off again: the new sign-off is not the one CI judged.
    t.ok(&["reopen", "ship", "--reason", "once more"]);
    sign_off(&t);
    assert!(weak(&t.run(&["lint"])), "{}", t.plan_md());
}

// Attack: the agent writes CI's word itself, in its pull request.
#[test]
fn a_pull_request_that_adds_a_ci_judged_line_fails_the_gate() {
    let (t, base) = weak_pull_request();
    let (_, checkpoint, _) = sign_off_of(&t);
    let line = ci_line(&t, &checkpoint);
    t.write("plan.md", format!("{}{line}", t.plan_md()));
    t.commit_all("judged by CI, says the agent");
    let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
    // Its own line clears nothing in the gate.
    assert!(
        run.stdout
            .contains("strict: weak sign-off: a command judge, not a model CLI"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(&format!(
            "`{}`: a `judged again by CI` line the pull request adds: only the workflow's update job writes these, after a merge",
            &line[2..line.len() - 1]
        )),
        "{}",
        run.stdout
    );
    let md = t
        .run(&["audit", "--base", &base, "--strict", "--markdown"])
        .code(1);
    assert!(
        md.stdout
            .contains("only the workflow's update job writes these, after a merge"),
        "{}",
        md.stdout
    );
    // `plan log` refuses the line too.
    t.run(&["log", &line[19..line.len() - 1]]).code(2);
}

// The same line in another plan file of the repository: the gate reads them all.
#[test]
fn a_ci_judged_line_added_to_another_plan_file_fails_the_gate() {
    let t = origin();
    let side = "# Plan: Side\n\n## Goal: Docs\n<!-- id: docs -->\nstatus: open\ndone_when: written\n\n## Log\n";
    t.write("side.md", side);
    t.commit_all("a second plan");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "side.md",
        format!(
            "{side}- 2026-06-15 10:00 docs judged again by CI: accept (checkpoint 1a2b3c4d5e6f, run 7)\n"
        ),
    );
    t.commit_all("judged by CI, says the agent");
    let run = t.run(&["audit", "--base", &base]).code(1);
    assert!(
        run.stdout
            .contains("only the workflow's update job writes these, after a merge"),
        "{}",
        run.stdout
    );
}

fn with_key(t: &Test, args: &[&str], key: Option<&str>) -> Run {
    let mut cmd = t.cmd(args);
    cmd.env("GITHUB_RUN_ID", "4242");
    if let Some(key) = key {
        cmd.env("PLAN_RECORD_KEY", key);
    }
    Run::from(cmd.output().unwrap(), args)
}

#[test]
fn the_judge_jobs_signed_accepts_are_logged_after_the_merge_and_no_other_file_is() {
    let (t, base) = weak_pull_request();
    user_judge(&t, "accept");
    let file = t.dir.path().join("accepted.txt");
    let f = file.to_str().unwrap();
    let gate = [
        "audit",
        "--base",
        &base,
        "--strict",
        "--rejudge",
        "--ci-accepted",
        f,
    ];
    // No key: refused before anything runs.
    let run = with_key(&t, &gate, None).code(2);
    assert!(
        run.stderr.contains("PLAN_RECORD_KEY is not set"),
        "{}",
        run.stderr
    );
    with_key(&t, &gate, Some(KEY)).code(0);
    let (_, checkpoint, contract) = sign_off_of(&t);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("plan ci-accepted 1\nrun 4242\ncommit ")
            && text.contains(&format!("\naccept ship {checkpoint} {contract}\nmac ")),
        "{text}"
    );
    // The forge merges the pull request.
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--ff-only", "pr"]);
    let before = t.plan_md();
    let record = ["audit", "--record-ci", f];
    let run = with_key(&t, &record, None).code(2);
    assert!(
        run.stderr.contains("PLAN_RECORD_KEY is not set"),
        "{}",
        run.stderr
    );
    let run = with_key(&t, &record, Some("another-key-of-enough-length")).code(1);
    assert!(
        run.stderr
            .contains("its HMAC does not check under PLAN_RECORD_KEY")
            && run.stderr.contains("nothing was recorded"),
        "{}",
        run.stderr
    );
    // A file the verify job could write: the right shape, another goal, no key.
    std::fs::write(&file, text.replace("accept ship", "accept shop")).unwrap();
    with_key(&t, &record, Some(KEY)).code(1);
    assert_eq!(t.plan_md(), before, "nothing was written");
    std::fs::write(&file, &text).unwrap();
    let run = with_key(&t, &record, Some(KEY)).code(0);
    assert_eq!(
        run.stdout,
        format!("logged: ship judged again by CI: accept (checkpoint {checkpoint}, run 4242)\n")
    );
    let lint = t.run(&["lint"]);
    assert!(!weak(&lint), "{}{}", lint.stdout, lint.stderr);
    // Once is enough.
    let again = with_key(&t, &record, Some(KEY)).code(0);
    assert!(again.stdout.contains("logged already"), "{}", again.stdout);
}

/// Runs the workflow step `name`'s script in `dir` as Actions would (bash -eo
/// pipefail), `bin` first on PATH, with `env`.
fn step(name: &str, dir: &Path, bin: &Path, env: &[(&str, &str)]) -> String {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let script = step_script(&workflow, name);
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .current_dir(dir)
        .env_clear()
        .env(
            "PATH",
            format!("{}:{}", bin.display(), crate::util::system_path()),
        )
        .env("GIT_CONFIG_GLOBAL", "/dev/null")
        .env("GIT_CONFIG_NOSYSTEM", "1")
        .env("TZ", "UTC")
        .env("PLAN_NOW", "2026-06-15T19:00");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let said =
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "step {name} failed:\n{said}");
    said
}

/// The workflow as the forge runs it: the judge job's `plan audit` step (after the
/// verify job's) writes CI's accepts with the secret set; on the push of the merge,
/// the update job's `Record CI's accepts` step finds the merged pull request and
/// the gate's run with a stand-in `gh` and logs the line, and its `Push CI's
/// accepts` step pushes it to origin.
/// Without the secret, it says so in the summary and does nothing.
#[test]
fn the_workflow_carries_cis_accept_from_the_judge_job_to_the_default_branch() {
    carry(false, false);
}

/// Another push lands on the default branch between the Record step and the Push
/// step (a teammate's merge): the push is refused, and the step puts the record's
/// commit on the new tip by git alone and pushes it, keeping both. Failed before:
/// the job failed and asked a person to re-run it.
#[test]
fn cis_accept_is_carried_over_a_push_that_landed_meanwhile() {
    carry(false, true);
}

// Red team (issue 71, item 5): the pull request rewrote .github/workflows/plan.yml.
// A pull request's run uses the pull request's workflow, and a same-repository
// pull request's run gets the repository's secrets, PLAN_RECORD_KEY among them:
// its own "judge job" can sign any accepts, and the Record step took the latest
// passing run of plan.yml on the merged head, whichever workflow text ran. A
// ruleset's required workflow does not change that: it is one more run. The step
// records nothing from a pull request that changed the workflows.
#[test]
fn no_accept_is_recorded_from_a_pull_request_that_changed_the_workflows() {
    carry(true, false);
}

/// The workflow test: the pull request changing `.github/workflows/` (`rewritten`)
/// or not.
fn carry(rewritten: bool, raced: bool) {
    let (t, base) = weak_pull_request();
    if rewritten {
        t.write(".github/workflows/plan.yml", "name: plan\n");
        t.commit_all("the agent's own workflow");
    }
    let temp = t.dir.path().join("runner");
    let bin = temp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("plan")).unwrap();
    let home = t.dir.path().join("ci-home");
    let config = home.join(".config/plan/config.yaml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            crate::util::fixture_path("judges/accept").display()
        ),
    )
    .unwrap();
    let (home, temp_s) = (home.to_str().unwrap(), temp.to_str().unwrap());
    let summary = temp.join("summary.md");
    let job = [
        ("HOME", home),
        ("RUNNER_TEMP", temp_s),
        ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
        ("BASE", base.as_str()),
        ("GITHUB_RUN_ID", "4242"),
    ];
    step("plan verify", &t.root(), &bin, &job);
    let mut judge_job = job.to_vec();
    judge_job.push(("PLAN_RECORD_KEY", KEY));
    step("plan audit", &t.root(), &bin, &judge_job);
    let accepted = temp.join("plan-ci-accepted/accepted.txt");
    assert!(accepted.exists(), "the judge job wrote no accepts");
    let head = rev(&t, "pr");
    // The forge: a bare origin, the pull request merged into main.
    let origin = t.dir.path().join("origin.git");
    t.git(&[
        "init",
        "-q",
        "--bare",
        "-b",
        "main",
        origin.to_str().unwrap(),
    ]);
    t.git(&["remote", "add", "origin", origin.to_str().unwrap()]);
    t.git(&["checkout", "-q", "main"]);
    t.git(&[
        "merge",
        "-q",
        "--no-ff",
        "pr",
        "-m",
        "Merge pull request #5",
    ]);
    t.git(&["push", "-q", "origin", "main"]);
    let merge = rev(&t, "main");
    let runner = t.dir.path().join("update");
    t.git(&[
        "clone",
        "-q",
        origin.to_str().unwrap(),
        runner.to_str().unwrap(),
    ]);
    let calls = temp.join("gh-calls");
    let gh = format!(
        "#!/bin/sh\necho \"$*\" >> '{calls}'\ncase \"$1 $2\" in\n  \"api repos/acme/forge/commits/{merge}/pulls\") printf '5\\t{head}\\n' ;;\n  'run list') echo 9001 ;;\n  'api repos/acme/forge/actions/runs/9001/artifacts') echo 77 ;;\n  'run download') mkdir -p \"$9\"; cp '{acc}' \"$9/\" ;;\n  *) exit 2 ;;\nesac\n",
        calls = calls.display(),
        acc = accepted.display(),
    );
    std::fs::write(bin.join("gh"), gh).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("gh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    // Another runner: its own temporary directory.
    let update_temp = t.dir.path().join("update-runner");
    std::fs::create_dir_all(&update_temp).unwrap();
    let update = |key: &str| {
        let env = [
            ("HOME", home),
            ("RUNNER_TEMP", update_temp.to_str().unwrap()),
            ("GITHUB_STEP_SUMMARY", summary.to_str().unwrap()),
            ("GH_TOKEN", "unused"),
            ("REPO", "acme/forge"),
            ("SHA", merge.as_str()),
            ("BRANCH", "main"),
            (
                "WORKFLOW",
                "acme/forge/.github/workflows/plan.yml@refs/heads/main",
            ),
            ("PLAN_RECORD_KEY", key),
        ];
        let recorded = step("Record CI's accepts", &runner, &bin, &env);
        if raced && !key.is_empty() {
            // A teammate's clone appends a log line to the default branch.
            let mate = t.dir.path().join("mate");
            t.git(&[
                "clone",
                "-q",
                origin.to_str().unwrap(),
                mate.to_str().unwrap(),
            ]);
            let md = std::fs::read_to_string(mate.join("plan.md")).unwrap();
            std::fs::write(
                mate.join("plan.md"),
                format!("{md}- 2026-06-15 16:00 the mate's line\n"),
            )
            .unwrap();
            for args in [
                &["commit", "-qam", "mate"][..],
                &["push", "-q", "origin", "main"],
            ] {
                let out = std::process::Command::new("git")
                    .args(args)
                    .current_dir(&mate)
                    .output()
                    .unwrap();
                assert!(
                    out.status.success(),
                    "{}",
                    String::from_utf8_lossy(&out.stderr)
                );
            }
        }
        let push = [
            ("HOME", home),
            ("RUNNER_TEMP", update_temp.to_str().unwrap()),
            ("PUSH_TOKEN", "unused"),
        ];
        recorded + &step("Push CI's accepts", &runner, &bin, &push)
    };
    let said = update("");
    assert!(
        std::fs::read_to_string(&summary)
            .unwrap()
            .contains("the secret PLAN_RECORD_KEY is not set"),
        "{said}"
    );
    let remote_main = || t.git(&["ls-remote", origin.to_str().unwrap(), "main"]);
    assert!(remote_main().starts_with(&merge), "{said}");
    let said = update(KEY);
    if rewritten {
        assert!(remote_main().starts_with(&merge), "{said}");
        assert!(
            std::fs::read_to_string(&summary)
                .unwrap()
                .contains("changed the workflows"),
            "{said}"
        );
        return;
    }
    let gh_calls = std::fs::read_to_string(&calls).unwrap();
    assert!(
        gh_calls.contains(&format!("--commit {head} --status success")),
        "{gh_calls}"
    );
    t.git(&["fetch", "-q", "origin"]);
    let main = t.git(&["show", "origin/main:plan.md"]);
    let (_, checkpoint, _) = sign_off_of(&t);
    assert!(
        main.contains(&format!(
            " ship judged again by CI: accept (checkpoint {checkpoint}, run 4242)\n"
        )),
        "{said}\n{main}"
    );
    if raced {
        assert!(
            main.contains("- 2026-06-15 16:00 the mate's line\n"),
            "{said}\n{main}"
        );
    }
    // Every clone: lint on the default branch as pushed.
    t.git(&["merge", "-q", "--ff-only", "origin/main"]);
    let lint = t.run(&["lint"]);
    assert!(!weak(&lint), "{}{}", lint.stdout, lint.stderr);
}

// Red team (issue 71, item 5): the update job's `--record-ci` writes plan.md through
// the store, and every store write announces its log lines to the repository's
// `notify:` commands. The repository is the default branch just after the merge, so
// its `.plan/config.yaml` and a script beside it came with a pull request the gate
// passed (the gate does not read settings). The notify command then runs in the
// update job's Record step, which holds PLAN_RECORD_KEY in its environment and the
// push token (persisted by actions/checkout, allowed past the default branch's
// protection, as the step's EDIT line asks) in .git/config. plan removes the key
// from the program it starts, but not from the watchdog (`plan events
// --notify-run`) that starts it: the script reads it from /proc/$PPID/environ, and
// with it signs whatever accepts it likes; with the token it can push anything to
// the default branch. No program the repository names may run in that step: the
// store announces nothing for --record-ci, and the watchdog no longer inherits the
// key either. Without the fix the script writes the key to `stolen.txt`.
#[test]

fn record_ci_runs_no_program_the_merged_repository_names() {
    let (t, base) = weak_pull_request();
    user_judge(&t, "accept");
    let stolen = t.dir.path().join("stolen.txt");
    t.write(
        "notify.sh",
        format!(
            "#!/bin/sh\n{{ env; tr '\\0' '\\n' < /proc/$PPID/environ; }} > '{}'\n",
            stolen.display()
        ),
    );
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(t.path("notify.sh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = std::fs::read_to_string(t.path(".plan/config.yaml")).unwrap_or_default();
    t.write(
        ".plan/config.yaml",
        format!("{config}notify:\n  - events: [ci_judged]\n    command: [\"./notify.sh\"]\n"),
    );
    t.commit_all("a notifier, says the agent");
    let file = t.dir.path().join("accepted.txt");
    let f = file.to_str().unwrap();
    let gate = [
        "audit",
        "--base",
        &base,
        "--strict",
        "--rejudge",
        "--ci-accepted",
        f,
    ];
    // The gate passes the pull request: it reads no settings.
    with_key(&t, &gate, Some(KEY)).code(0);
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--ff-only", "pr"]);
    with_key(&t, &["audit", "--record-ci", f], Some(KEY)).code(0);
    // The notifier is detached: give it time.
    for _ in 0..30 {
        if stolen.exists() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let seen = std::fs::read_to_string(&stolen).unwrap_or_default();
    assert!(
        seen.is_empty(),
        "a program the merged repository names ran in the Record step; it saw the key: {}",
        seen.contains(KEY)
    );
}

// Red team (issue 71, item 5): the update job also runs for a pull request opened or
// reopened, in that pull request's cache scope, where the verify job's code (the
// pull request's) can save an entry under plan's cache key (the runtime token is in
// the environment of the artifact upload's process, as the same user). Restored
// there, that `plan` runs with the job's push token in .git/config, which the
// Record step's EDIT line asks to be allowed past the default branch's protection.
// The update job restores plan only on a push to the default branch.
#[test]
fn the_update_job_restores_plan_from_the_cache_only_on_a_push() {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let update = &workflow[workflow.find("\n  update:\n").expect("an update job")..];
    let restore = &update[update.find("- name: Restore plan\n").expect("a restore")..];
    let restore = &restore[..restore[1..]
        .find("- name:")
        .map_or(restore.len(), |i| i + 1)];
    assert!(
        restore.contains("if: github.event_name == 'push'\n"),
        "{restore}"
    );
}

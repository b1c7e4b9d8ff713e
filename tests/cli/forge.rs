//! The forge merges without plan's driver: three pull requests on different goals
//! (one adds a goal; each ticks, logs and signs off) are merged in order with plain
//! `git merge` in a clone that has no driver, standing in for the forge's button.
//! Between merges, the workflow's `update` step (its script, as the file says,
//! with a stand-in `gh`) merges the moved base into each open pull request with
//! `plan sync` and pushes: then nothing conflicts, every goal and log line is there
//! once, and audit and the gate are green after each merge.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::gate::PR_PLAN;
use crate::util::{BIN, Test, redact, shown};

const PLAN: &str = "# Plan: Forge

## Goal: Build
<!-- id: build -->
status: open
done_when: the build passes
verify: test -f build.txt
failure_modes:
- verify passes on a stale build
- [ ] compile

## Goal: Docs
<!-- id: docs -->
status: open
done_when: the README says how
verify: test -f docs.txt
failure_modes:
- the README is empty
- [ ] write

## Log
";

pub(crate) fn git_in(t: &Test, dir: &Path, args: &[&str]) -> (bool, String) {
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
    (out.status.success(), text)
}

pub(crate) fn git(t: &Test, dir: &Path, args: &[&str]) -> String {
    let (ok, text) = git_in(t, dir, args);
    assert!(ok, "git {args:?} in {}: {text}", dir.display());
    text
}

pub(crate) fn plan(t: &Test, dir: &Path, now: &str, args: &[&str]) -> crate::util::Run {
    let out = t
        .cmd(args)
        .current_dir(dir)
        .env("PLAN_NOW", now)
        .output()
        .unwrap();
    crate::util::Run::from(out, args)
}

/// The `run:` script of the workflow's step named `name`.
pub(crate) fn step_script(workflow: &str, name: &str) -> String {
    let at = workflow
        .find(&format!("- name: {name}\n"))
        .unwrap_or_else(|| panic!("no step {name} in\n{workflow}"));
    let block = workflow[at..]
        .split_once("run: |\n")
        .expect("a run block")
        .1;
    let indent = block.len() - block.trim_start().len();
    block
        .lines()
        .take_while(|l| l.len() > indent && l[..indent].trim().is_empty())
        .map(|l| format!("{}\n", &l[indent..]))
        .collect()
}

/// The update job on a push to the default branch ([`update_job_seen`]).
fn update_job(t: &Test, origin: &Path, prs: &str, run: u32) -> String {
    update_job_with(t, origin, prs, run, true)
}

/// The update job, with (`gate_runs`) or without the secret `PLAN_PUSH_TOKEN`.
fn update_job_with(t: &Test, origin: &Path, prs: &str, run: u32, gate_runs: bool) -> String {
    update_job_for(t, origin, prs, run, gate_runs, "")
}

/// The update job as a pull request's opening or reopening starts it: `only` is
/// its number (the step's `ONLY`; empty: a push to the default branch). No
/// program but git may see the push token ([`update_job_seen`]).
pub(crate) fn update_job_for(
    t: &Test,
    origin: &Path,
    prs: &str,
    run: u32,
    gate_runs: bool,
    only: &str,
) -> String {
    let (said, seen) = update_job_seen(t, origin, prs, run, gate_runs, only);
    assert!(
        seen.is_empty(),
        "the push token was seen by: {seen}\n{said}"
    );
    said
}

/// The runner: a fresh clone of origin on the default branch, `plan` and a
/// stand-in `gh` on PATH (it lists `prs` and logs each comment), and the update
/// job's steps from "Update pull requests" on, each run as the runner runs a step:
/// its own bash (`-eo pipefail`), the runner's environment and the `env:` the
/// workflow gives that step alone. Each time `gh` or `plan` starts, it looks for
/// the push token in every process's environment it can read, as any program of
/// the job could: returns what was said, and who saw the token.
pub(crate) fn update_job_seen(
    t: &Test,
    origin: &Path,
    prs: &str,
    run: u32,
    gate_runs: bool,
    only: &str,
) -> (String, String) {
    let work = t.dir.path().join(format!("runner-{run}"));
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let checkout = work.join("checkout");
    git(
        t,
        t.dir.path(),
        &[
            "clone",
            "-q",
            origin.to_str().unwrap(),
            checkout.to_str().unwrap(),
        ],
    );
    // Unique to this run: tests in parallel hold their own.
    let token = format!("push-token-{}", work.display()).replace('/', "-");
    let seen = work.join("seen");
    let look = format!(
        "if grep -qaF -e '{token}' /proc/[0-9]*/environ 2>/dev/null; then echo \"${{0##*/}} $*\" >> '{}'; fi\n",
        seen.display()
    );
    std::fs::write(
        bin.join("plan"),
        format!("#!/bin/sh\n{look}exec '{BIN}' \"$@\"\n"),
    )
    .unwrap();
    std::fs::write(work.join("open"), prs).unwrap();
    // The forge's comments outlive a run: kept per pull request, listed by `gh api`.
    let forge = t.dir.path().join("forge-comments");
    std::fs::create_dir_all(&forge).unwrap();
    let gh = format!(
        "#!/bin/sh\n{look}case \"$1 $2\" in\n  'pr list') cat '{0}/open' ;;\n  'pr comment') printf '%s: %s\\n' \"$3\" \"$5\" >> '{0}/comments'; printf '%s\\n' \"$5\" >> '{1}/'\"$3\" ;;\n  'api --paginate') n=${{3#*/issues/}}; cat '{1}/'\"${{n%%/*}}\" 2>/dev/null || true ;;\n  'workflow run') shift 2; echo \"dispatch $*\" >> '{0}/comments' ;;\n  *) exit 2 ;;\nesac\n",
        work.display(),
        forge.display()
    );
    std::fs::write(bin.join("gh"), gh).unwrap();
    use std::os::unix::fs::PermissionsExt;
    for program in ["gh", "plan"] {
        std::fs::set_permissions(bin.join(program), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let steps = yaml["jobs"]["update"]["steps"].as_array().unwrap();
    let first = steps
        .iter()
        .position(|s| s["name"] == "Update pull requests")
        .expect("an Update pull requests step");
    let mut said = String::new();
    for step in &steps[first..] {
        let name = step["name"].as_str().unwrap_or("(unnamed)");
        let script = step["run"].as_str().expect("a run step");
        let mut cmd = Command::new("bash");
        cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", script])
            .current_dir(&checkout)
            .env_clear()
            .env(
                "PATH",
                format!("{}:{}", bin.display(), crate::util::system_path()),
            )
            .env("HOME", t.dir.path().join("home"))
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("TZ", "UTC")
            .env("PLAN_NOW", "2026-06-15T18:00")
            .env("RUNNER_TEMP", &work);
        for key in step["env"].as_object().into_iter().flat_map(|e| e.keys()) {
            let value = match key.as_str() {
                "GH_TOKEN" => "unused",
                "BASE" => "main",
                "REPO" => "acme/forge",
                "GATE_RUNS" => {
                    if gate_runs {
                        "true"
                    } else {
                        "false"
                    }
                }
                "ONLY" => only,
                "WORKFLOW" => "acme/forge/.github/workflows/plan.yml@refs/heads/main",
                "PUSH_TOKEN" => &token,
                other => panic!("step {name}: no value for {other}"),
            };
            cmd.env(key, value);
        }
        let out = cmd.output().unwrap();
        let out_said = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "the step {name} failed:\n{out_said}");
        said += &out_said;
    }
    let seen = std::fs::read_to_string(&seen).unwrap_or_default();
    (
        said + &std::fs::read_to_string(work.join("comments")).unwrap_or_default(),
        seen,
    )
}

/// The gate as the workflow runs it on a pull request (its checkout: the merge
/// commit at `dir`, whose base is `base`): the verify job's steps, then the judge
/// job's, each `run:` script taken from the file and run by bash, CI's own judge
/// (the user's config under HOME) a command judge standing in for claude. The
/// results file goes from one job to the other through `RUNNER_TEMP`, as the
/// artifact would.
pub(crate) fn gate(t: &Test, dir: &Path, base: &str, run: u32) -> String {
    let temp = t.dir.path().join(format!("gate-{run}"));
    std::fs::create_dir_all(&temp).unwrap();
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
    let bin = temp.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("plan")).unwrap();
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let mut said = String::new();
    for name in [
        "Fetch the sign-offs' checkpoints",
        "plan verify",
        "plan audit",
    ] {
        let script = step_script(&workflow, name);
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(dir)
            .env_clear()
            .env(
                "PATH",
                format!("{}:{}", bin.display(), crate::util::system_path()),
            )
            .env("HOME", &home)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("TZ", "UTC")
            .env("PLAN_NOW", "2026-06-15T19:00")
            .env("RUNNER_TEMP", &temp)
            .env("GITHUB_STEP_SUMMARY", temp.join("summary.md"))
            .env("TOKEN", "unused")
            .env("BASE", base)
            .output()
            .unwrap();
        let out_said = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        assert!(
            out.status.success(),
            "the gate's step {name} failed on the merge of {base}:\n{out_said}"
        );
        said += &out_said;
    }
    said
}

/// A clone of origin at `name`, no `plan install git` in it.
pub(crate) fn clone(t: &Test, origin: &Path, name: &str) -> PathBuf {
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
    dir
}

#[test]
fn three_pull_requests_merge_on_a_forge_without_the_driver_once_the_update_job_ran() {
    let t = Test::new();
    t.write("plan.md", PLAN);
    // The agent signs off with a command judge; CI asks its own (`gate`).
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            crate::util::fixture_path("judges/accept").display()
        ),
    );
    t.commit_all("plan");
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
    t.git(&["push", "-q", "origin", "main"]);

    // Three pull requests from one agent's clone, each on its own goal, each
    // logging and signing off at its own time. Each goal's verify fails when it
    // starts and passes once the work (a file) is there.
    let agent = clone(&t, &origin, "agent");
    let work = |branch: &str, hour: u32, steps: &[&[&str]]| {
        git(&t, &agent, &["checkout", "-q", "-b", branch, "origin/main"]);
        for (n, args) in steps.iter().enumerate() {
            let now = format!("2026-06-15T{hour:02}:{:02}", n * 2);
            if args[0] == "complete" {
                std::fs::write(agent.join(format!("{}.txt", args[1])), "done\n").unwrap();
            }
            plan(&t, &agent, &now, args).code(0);
        }
        git(&t, &agent, &["add", "-A"]);
        git(&t, &agent, &["commit", "-q", "-m", branch]);
        git(&t, &agent, &["push", "-q", "origin", branch]);
        // No `plan install git` here: the checkpoints go with a refspec.
        git(
            &t,
            &agent,
            &[
                "push",
                "-q",
                "origin",
                "refs/plan/checkpoints/*:refs/plan/checkpoints/*",
            ],
        );
    };
    let sign = |id: &'static str| -> Vec<&'static str> {
        vec!["complete", id, "--evidence", "the file is there"]
    };
    let (sign_bench, sign_build, sign_docs) = (sign("bench"), sign("build"), sign("docs"));
    work(
        "add-bench",
        10,
        &[
            &[
                "add",
                "Bench",
                "--done-when",
                "numbers",
                "--verify",
                "test -f bench.txt",
                "--failure-mode",
                "noise",
            ],
            &["subtask", "bench", "measure"],
            &["start", "bench"],
            &["tick", "bench", "1"],
            &["log", "bench: measured"],
            &sign_bench,
        ],
    );
    work(
        "build",
        11,
        &[
            &["start", "build"],
            &["tick", "build", "1"],
            &["log", "build: compiled"],
            &sign_build,
        ],
    );
    work(
        "docs",
        12,
        &[
            &["start", "docs"],
            &["tick", "docs", "1"],
            &["log", "docs: written"],
            &sign_docs,
        ],
    );

    // The forge: plain `git merge`, no driver; then the base moved, so the update
    // job runs for the pull requests still open.
    let forge = clone(&t, &origin, "forge");
    let gates = std::cell::Cell::new(1);
    let merge = |branch: &str| {
        git(&t, &forge, &["fetch", "-q", "origin"]);
        git(&t, &forge, &["merge", "-q", "--ff-only", "origin/main"]);
        let base = git(&t, &forge, &["rev-parse", "HEAD"]).trim().to_string();
        let (ok, said) = git_in(
            &t,
            &forge,
            &["merge", "--no-ff", "--no-edit", &format!("origin/{branch}")],
        );
        assert!(ok, "the forge's merge of {branch} conflicted:\n{said}");
        // The gate on the merge commit, as the pull request's checkout has it.
        let said = gate(&t, &forge, &base, gates.get());
        gates.set(gates.get() + 1);
        insta::assert_snapshot!(redact(&t, &said));
        git(&t, &forge, &["push", "-q", "origin", "main"]);
        plan(&t, &forge, "2026-06-15T19:00", &["audit", "--base", &base]).code(0);
    };
    merge("add-bench");
    // Without the update, the next pull request conflicts on plan.md alone.
    let (clean, _) = git_in(
        &t,
        &forge,
        &["merge-tree", "--write-tree", "origin/main", "origin/build"],
    );
    assert!(
        !clean,
        "build conflicts with the moved base before the update"
    );
    let said = update_job(&t, &origin, "2 false build\n3 false docs\n", 1);
    insta::assert_snapshot!(redact(&t, &said));
    merge("build");
    let said = update_job(&t, &origin, "3 false docs\n", 2);
    insta::assert_snapshot!(redact(&t, &said));
    merge("docs");

    let md = std::fs::read_to_string(forge.join("plan.md")).unwrap();
    assert!(!md.contains("<<<<<<<"), "{md}");
    for line in [
        "## Goal: Build",
        "## Goal: Docs",
        "## Goal: Bench",
        "bench: measured",
        "build: compiled",
        "docs: written",
    ] {
        assert_eq!(md.matches(line).count(), 1, "{line} once in:\n{md}");
    }
    let log: Vec<&str> = md.split_once("## Log\n").unwrap().1.lines().collect();
    let mut once = log.clone();
    once.sort();
    once.dedup();
    assert_eq!(once.len(), log.len(), "each log line once:\n{md}");
    insta::assert_snapshot!(shown(
        &t,
        &plan(&t, &forge, "2026-06-15T19:00", &["audit"]).code(0)
    ));
    plan(&t, &forge, "2026-06-15T19:00", &["lint"]).code(0);
}

#[test]
fn a_forks_pull_request_gets_the_two_commands_and_a_code_conflict_is_left_to_a_person() {
    let t = Test::new();
    t.write("plan.md", PLAN);
    t.write("src.txt", "one\n");
    t.commit_all("plan");
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
    t.git(&["push", "-q", "origin", "main"]);
    let agent = clone(&t, &origin, "agent");
    let branch = |name: &str, file: Option<&str>, msg: &str, to: &str| {
        git(&t, &agent, &["checkout", "-q", "-B", name, "origin/main"]);
        plan(&t, &agent, "2026-06-15T10:00", &["log", msg]).code(0);
        if let Some(file) = file {
            std::fs::write(agent.join(file), format!("{msg}\n")).unwrap();
        }
        git(&t, &agent, &["commit", "-q", "-am", msg]);
        git(&t, &agent, &["push", "-q", "origin", &format!("HEAD:{to}")]);
    };
    branch("fork", None, "fork: a note", "refs/pull/7/head");
    branch("code", Some("src.txt"), "code: a note", "refs/heads/code");
    branch("main", Some("src.txt"), "main: moved", "refs/heads/main");
    let before = git(&t, &agent, &["ls-remote", origin.to_str().unwrap()]);
    let said = update_job(&t, &origin, "7 true fork-branch\n8 false code\n", 1);
    insta::assert_snapshot!(redact(&t, &said));
    assert_eq!(
        git(&t, &agent, &["ls-remote", origin.to_str().unwrap()]),
        before,
        "nothing was pushed"
    );
    // The base moves again: the fork's pull request still conflicts in plan.md
    // alone, and its comment is not posted a second time.
    plan(
        &t,
        &agent,
        "2026-06-15T11:00",
        &["log", "main: moved again"],
    )
    .code(0);
    git(&t, &agent, &["commit", "-q", "-am", "again"]);
    git(
        &t,
        &agent,
        &["push", "-q", "origin", "HEAD:refs/heads/main"],
    );
    let said = update_job(&t, &origin, "7 true fork-branch\n8 false code\n", 2);
    insta::assert_snapshot!(redact(&t, &said));
    let posted = std::fs::read_to_string(t.dir.path().join("forge-comments/7")).unwrap();
    assert_eq!(
        posted.matches("<!-- plan sync: fork -->").count(),
        1,
        "{posted}"
    );
    assert_eq!(
        posted
            .matches("git pull https://github.com/acme/forge main")
            .count(),
        1
    );
}

/// `plan sync` on a git older than 2.41 (no global `--attr-source`) got git's
/// usage text back, raw; now it says which git it found and what it needs (exit
/// 3, an environment error) and merges nothing. The version is what `git
/// --version` says: a stand-in git answers that and passes the rest to git.
#[test]
fn plan_sync_on_a_git_older_than_2_41_names_the_version_found_and_the_one_needed() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["log", "pr: a note"]);
    t.commit_all("pr");
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["log", "main: a note"]);
    t.commit_all("main");
    t.git(&["checkout", "-q", "pr"]);
    let real = String::from_utf8(
        Command::new("sh")
            .args(["-c", "command -v git"])
            .output()
            .unwrap()
            .stdout,
    )
    .unwrap();
    let head = t.git(&["rev-parse", "HEAD"]);
    let t = t.with_bin();
    for (version, old) in [
        ("2.40.1", true),
        ("2.39.3 (Apple Git-146)", true),
        ("2.41.0", false),
    ] {
        t.fake_program(
            "git",
            &format!(
                "[ \"$1\" = --version ] && {{ echo 'git version {version}'; exit 0; }}\nexec '{}' \"$@\"\n",
                real.trim()
            ),
        );
        let run = t.run(&["sync", "--base", "main", "--check"]);
        if old {
            insta::assert_snapshot!(shown(&t, &run.code(3)));
        } else {
            insta::assert_snapshot!(shown(&t, &run.code(0)));
        }
    }
    assert_eq!(t.git(&["rev-parse", "HEAD"]), head, "nothing merged");
}

/// The workflow's jobs are bounded and the gate's own binary comes from a trusted
/// place (issue 69): each job has a timeout; the update job runs one at a time; the
/// gate's jobs restore plan from the Actions cache and never save to it (a pull
/// request's run could write the entry they read), the update job on the default
/// branch alone saves it; a dispatch (the update job's, without PLAN_PUSH_TOKEN)
/// starts the gate; a pull request from this repository is synced when opened or
/// reopened.
#[test]
fn the_workflow_bounds_its_jobs_and_caches_plan_only_from_the_default_branch() {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let jobs = yaml["jobs"].as_object().unwrap();
    assert_eq!(jobs.len(), 3);
    for (name, job) in jobs {
        assert!(
            job["timeout-minutes"].as_u64().is_some_and(|m| m <= 60),
            "{name}"
        );
        let uses: Vec<&str> = job["steps"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(|s| s["uses"].as_str())
            .collect();
        // The judge job, which holds the key, never runs a restored binary: a pull
        // request's run can write an entry of the same key in its own scope.
        assert_eq!(
            uses.contains(&"actions/cache/restore@v4"),
            name != "judge",
            "{name}: {uses:?}"
        );
        assert!(!uses.contains(&"actions/cache@v4"), "{name}: {uses:?}");
        assert_eq!(
            uses.contains(&"actions/cache/save@v4"),
            name == "update",
            "{name}: {uses:?}"
        );
    }
    assert_eq!(jobs["update"]["concurrency"]["group"], "plan-update");
    assert_eq!(jobs["update"]["concurrency"]["cancel-in-progress"], false);
    let update_if = jobs["update"]["if"].as_str().unwrap();
    for needle in [
        "github.event.action == 'opened'",
        "github.event.action == 'reopened'",
        "github.event.pull_request.head.repo.full_name == github.repository",
    ] {
        assert!(update_if.contains(needle), "{needle} not in {update_if}");
    }
    assert_eq!(jobs["update"]["permissions"]["actions"], "write");
    assert!(yaml["on"]["workflow_dispatch"]["inputs"]["pr"]["required"] == true);
}

/// A push made with the workflow's own `GITHUB_TOKEN` starts no workflow run, so
/// the gate would not run on what the update job pushed, and a person had to start
/// it (issue 69: the lead closed and reopened pull requests five times in a day).
/// The job checks out and pushes with the secret `PLAN_PUSH_TOKEN` when there is
/// one, whose pushes start the gate as any push does; without it, it dispatches the
/// gate on each branch it updated (a dispatch made with GITHUB_TOKEN starts a run).
#[test]
fn without_plan_push_token_the_update_job_starts_the_gate_on_what_it_pushed() {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let update = &yaml["jobs"]["update"];
    let checkout = update["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["uses"] == "actions/checkout@v4")
        .expect("the update job checks out");
    assert_eq!(
        checkout["with"]["token"],
        "${{ secrets.PLAN_PUSH_TOKEN || github.token }}"
    );
    let step = update["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "Start the gate on what was pushed")
        .unwrap();
    assert_eq!(
        step["env"]["GATE_RUNS"],
        "${{ secrets.PLAN_PUSH_TOKEN != '' }}"
    );
    assert_eq!(
        step["run"],
        step_script(&workflow, "Start the gate on what was pushed")
    );

    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
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
    t.git(&["push", "-q", "origin", "main"]);
    let agent = clone(&t, &origin, "agent");
    for (branch, note) in [("one", "one: a note"), ("main", "main: a note")] {
        git(&t, &agent, &["checkout", "-q", "-B", branch, "origin/main"]);
        plan(&t, &agent, "2026-06-15T10:00", &["log", note]).code(0);
        git(&t, &agent, &["commit", "-q", "-am", note]);
        git(&t, &agent, &["push", "-q", "origin", branch]);
    }
    let before = git(&t, &agent, &["ls-remote", origin.to_str().unwrap(), "one"]);
    let said = update_job_with(&t, &origin, "4 false one\n", 1, false);
    insta::assert_snapshot!(redact(&t, &said));
    assert_ne!(
        git(&t, &agent, &["ls-remote", origin.to_str().unwrap(), "one"]),
        before,
        "the merge was pushed"
    );
}

/// A pull request opened or reopened starts the update job for itself alone (its
/// number in `ONLY`): that branch is synced and its gate dispatched, and the other
/// open pull requests, which the base's next push syncs, are left as they are.
#[test]
fn an_opened_pull_request_is_synced_alone() {
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
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
    t.git(&["push", "-q", "origin", "main"]);
    let agent = clone(&t, &origin, "agent");
    for (branch, note) in [
        ("one", "one: a note"),
        ("two", "two: a note"),
        ("main", "main: a note"),
    ] {
        git(&t, &agent, &["checkout", "-q", "-B", branch, "origin/main"]);
        plan(&t, &agent, "2026-06-15T10:00", &["log", note]).code(0);
        git(&t, &agent, &["commit", "-q", "-am", note]);
        git(&t, &agent, &["push", "-q", "origin", branch]);
    }
    let remote = |branch: &str| git(&t, &agent, &["ls-remote", origin.to_str().unwrap(), branch]);
    let (one, two) = (remote("one"), remote("two"));
    let said = update_job_for(&t, &origin, "4 false one\n5 false two\n", 1, false, "5");
    assert_eq!(remote("one"), one, "#4 was not synced:\n{said}");
    assert_ne!(remote("two"), two, "#5 was synced:\n{said}");
    assert!(
        said.contains("dispatch plan.yml --ref two -f pr=5"),
        "{said}"
    );
    assert!(!said.contains("pr=4"), "{said}");
    // The base's push syncs every open pull request.
    update_job_for(&t, &origin, "4 false one\n5 false two\n", 2, false, "");
    assert_ne!(remote("one"), one, "#4 is synced on the push");
}

// Attack on `plan sync` (the update job, which pushes with a write token): the
// pull request's own `.gitattributes` says `plan.md merge=union`, which git ranks
// above the `core.attributesFile` sync passes, so git's union merge runs instead of
// plan's driver: both sides' `status:` lines are kept in one goal, and sync says it
// merged "goal by goal with plan's driver". Without the line, sync hands the
// conflict to a person.
#[test]
fn a_pull_requests_gitattributes_does_not_steer_plan_sync() {
    let t = Test::new().plan(
        &PR_PLAN
            .replace("VERIFY", "test -f a")
            .replace("status: active", "status: open"),
    );
    t.commit_all("base");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(".gitattributes", "plan.md merge=union\n");
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: cancelled"),
    );
    t.commit_all("pr");
    t.git(&["checkout", "-q", "main"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: open", "status: active"),
    );
    t.commit_all("main");
    t.git(&["checkout", "-q", "pr"]);
    let run = t.run(&["sync", "--base", "main"]);
    let statuses = t.plan_md().matches("\nstatus: ").count();
    assert!(
        run.code != 0 && statuses == 1,
        "sync exit {}, {statuses} status lines:\n{}{}",
        run.code,
        run.stdout,
        run.stderr
    );
}

/// The update job's push token was kept in `.git/config` by its checkout, for
/// every later step: the build of plan and `plan sync` could read it (issue 69).
/// Then it was unset in the steps that fetch or push, which leaves it in the step
/// shell's /proc environ for every program of the step (forge_token.rs). Now the
/// checkout does not persist it, and only the two steps that push are given it,
/// which start git (and base64, for the header) alone, as a header on git's own
/// command line; the steps that run plan and gh fetch with the workflow's token.
#[test]
fn the_update_jobs_push_token_reaches_git_alone() {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let steps = yaml["jobs"]["update"]["steps"].as_array().unwrap();
    let checkout = steps
        .iter()
        .find(|s| s["uses"] == "actions/checkout@v4")
        .unwrap();
    assert_eq!(checkout["with"]["persist-credentials"], false);
    let mut given = Vec::new();
    for step in steps {
        let run = step["run"].as_str().unwrap_or("");
        let name = step["name"].as_str().unwrap_or("");
        for line in run
            .lines()
            .filter(|l| l.contains("push --quiet") || l.contains("fetch --quiet"))
        {
            assert!(
                line.contains("git -c \"http.extraheader=$auth\" "),
                "{line}"
            );
        }
        let Some(token) = step["env"]["PUSH_TOKEN"].as_str() else {
            assert!(
                !run.contains("push --quiet"),
                "{name} pushes without the token"
            );
            continue;
        };
        assert_eq!(token, "${{ secrets.PLAN_PUSH_TOKEN || github.token }}");
        assert_eq!(
            step["env"].as_object().unwrap().len(),
            1,
            "{name}: the push token's step is given nothing else"
        );
        for word in run.split(|c: char| c.is_whitespace() || "$(;|&".contains(c)) {
            assert!(
                ![
                    "plan", "gh", "cargo", "npm", "sh", "bash", "eval", "source", "."
                ]
                .contains(&word),
                "{name} runs {word} with the push token in its environment"
            );
        }
        given.push(name.to_string());
    }
    assert_eq!(given, ["Push CI's accepts", "Push the updates"]);
}

/// Issue 69, item 6: the judge job holds the judge's key, so it never runs a binary
/// restored from the cache; it built plan from source on every run (minutes before
/// the required check reads anything). With `PLAN_SHA256` pinning a release archive
/// of `PLAN_REV`, the job's own step downloads it and checks it against the pin:
/// a match installs in seconds; a mismatch or a missing archive fails the job
/// before anything runs; no pin builds from source as before.
#[test]
fn the_judge_job_installs_a_pinned_release_archive_or_builds_plan() {
    use std::os::unix::fs::PermissionsExt;
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let script = step_script(&workflow, "Install the pinned plan");
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let judge_steps = yaml["jobs"]["judge"]["steps"].as_array().unwrap();
    assert!(
        judge_steps
            .iter()
            .any(|s| s["name"] == "Install the pinned plan" && s["run"] == script.as_str())
    );
    assert_eq!(yaml["env"]["PLAN_SHA256"], "");
    let t = Test::new();
    let dir = t.dir.path();
    // The release as scripts/dist lays it out: plan-VERSION-TARGET/plan, archived.
    let release = dir.join("release");
    let name = "plan-0.2.0-x86_64-unknown-linux-gnu";
    std::fs::create_dir_all(release.join(name)).unwrap();
    std::fs::write(
        release.join(name).join("plan"),
        "#!/bin/sh\necho released\n",
    )
    .unwrap();
    let tar = Command::new("tar")
        .args(["-czf", &format!("{name}.tar.gz"), name])
        .current_dir(&release)
        .status()
        .unwrap();
    assert!(tar.success());
    let sum = Command::new("sha256sum")
        .arg(format!("{name}.tar.gz"))
        .current_dir(&release)
        .output()
        .unwrap();
    let pin = String::from_utf8(sum.stdout).unwrap()[..64].to_string();
    let bin = dir.join("fake-bin");
    std::fs::create_dir_all(&bin).unwrap();
    let calls = dir.join("calls.log");
    let fakes = [
        ("uname", "echo x86_64\n".to_string()),
        (
            "curl",
            format!(
                "echo \"curl $*\" >> '{calls}'\nout=; while [ $# -gt 1 ]; do [ \"$1\" = -o ] && out=$2; shift; done\nfile='{release}'/$(basename \"$1\")\n[ -f \"$file\" ] || exit 22\ncp \"$file\" \"$out\"\n",
                calls = calls.display(),
                release = release.display()
            ),
        ),
        (
            "cargo",
            format!("echo \"cargo $*\" >> '{}'\n", calls.display()),
        ),
    ];
    for (program, body) in fakes {
        std::fs::write(bin.join(program), format!("#!/bin/sh\n{body}")).unwrap();
        std::fs::set_permissions(bin.join(program), std::fs::Permissions::from_mode(0o755))
            .unwrap();
    }
    let run = |rev: &str, sha: &str| {
        let home = dir.join(format!("home-{rev}-{}", &sha[..sha.len().min(4)]));
        let work = home.join("work");
        std::fs::create_dir_all(&work).unwrap();
        let _ = std::fs::remove_file(&calls);
        let out = Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(&work)
            .env_clear()
            .env(
                "PATH",
                format!("{}:{}", bin.display(), crate::util::system_path()),
            )
            .env("HOME", &home)
            .env("PLAN_GIT", "https://github.com/acme/plan")
            .env("PLAN_REV", rev)
            .env("PLAN_SHA256", sha)
            .output()
            .unwrap();
        let installed = std::fs::read_to_string(home.join(".cargo/bin/plan")).ok();
        let said = format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        (
            out.status.code(),
            installed,
            std::fs::read_to_string(&calls).unwrap_or_default(),
            said,
        )
    };
    // Pinned and matching: the release's binary, no build.
    let (code, installed, calls_made, said) = run("v0.2.0", &pin);
    assert_eq!(code, Some(0), "{said}");
    assert_eq!(installed.as_deref(), Some("#!/bin/sh\necho released\n"));
    assert!(
        calls_made.contains("releases/download/v0.2.0/plan-0.2.0-x86_64-unknown-linux-gnu.tar.gz")
            && !calls_made.contains("cargo"),
        "{calls_made}"
    );
    // Pinned, and the archive is not what the pin says: nothing installed, no build.
    let wrong = "0".repeat(64);
    let (code, installed, calls_made, said) = run("v0.2.0", &wrong);
    assert_eq!(code, Some(1), "{said}");
    assert_eq!(installed, None);
    assert!(!calls_made.contains("cargo"), "{calls_made}");
    assert!(said.contains("does not match PLAN_SHA256"), "{said}");
    // Pinned, but the release has no such archive: no build from the tag, which
    // can be moved (the red team's): the job fails, saying what to do.
    let (code, installed, calls_made, said) = run("v0.3.0", &pin);
    assert_eq!(code, Some(1), "{said}");
    assert_eq!(installed, None);
    assert!(!calls_made.contains("cargo"), "{calls_made}");
    assert!(said.contains("no release archive"), "{said}");
    // No pin: built, no download.
    let (code, _, calls_made, said) = run("0123abc", "");
    assert_eq!(code, Some(0), "{said}");
    assert!(!calls_made.contains("curl"), "{calls_made}");
    assert!(calls_made.contains("cargo install"), "{calls_made}");
}

/// Issue 69, item 5: a dispatched gate checks out the branch, whose head may have
/// moved since the update job dispatched it; the check must land on the head it
/// was dispatched for. Each gate job's "The commit under test" step passes on that
/// head and fails, saying the branch moved on, on any other.
#[test]
fn a_dispatched_gate_runs_only_on_the_head_it_was_dispatched_for() {
    let workflow = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("integrations/github/plan.yml"),
    )
    .unwrap();
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let script = step_script(&workflow, "The commit under test");
    for job in ["verify", "judge"] {
        let step = yaml["jobs"][job]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "The commit under test")
            .unwrap_or_else(|| panic!("{job} has no step The commit under test"));
        assert_eq!(step["if"], "github.event_name == 'workflow_dispatch'");
        assert_eq!(step["run"], script.as_str(), "{job}");
    }
    let t = Test::new().plan(PLAN);
    t.commit_all("plan");
    let head = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.write("more.txt", "more\n");
    t.commit_all("pushed after the dispatch");
    let moved = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    let run = |dispatched: &str| {
        Command::new("bash")
            .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
            .current_dir(t.root())
            .env("PLAN_HEAD", dispatched)
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .output()
            .unwrap()
    };
    let out = run(&moved);
    assert!(out.status.success(), "{out:?}");
    let out = run(&head);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let said = String::from_utf8_lossy(&out.stdout);
    assert!(
        said.contains(&format!("the branch moved on from {head}")),
        "{said}"
    );
}

//! The pull-request gate: `plan audit --base REV` with `--rejudge`, `--strict` and
//! `--markdown`, audit's refusal of a history it cannot see whole, a `git revert` of
//! a sign-off read as a reopen, and `plan install ci`'s workflow run step by step
//! with real git: a full clone, a depth-1 clone, the audit step's own script.

use std::process::Command;

use crate::util::{BIN, Run, Test, fixture_path, redact, shown};

pub(crate) const PLAN: &str = "# Plan: Gate

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- verify passes on a trivial or gamed test
- [x] write it

## Log
";

/// A repository on `main` with `ship` started and committed; the agent's judge is
/// `claude` on PATH, a fake that accepts whatever it is asked (an attack of its
/// own: the record names a model CLI).
pub(crate) fn origin() -> Test {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(PLAN);
    t.write("README.md", "# Hello\n");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    t
}

pub(crate) fn sign_off(t: &Test) {
    t.ok(&[
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
}

/// The user's own judge (`~/.config/plan/config.yaml`): what `--rejudge` asks.
pub(crate) fn user_judge(t: &Test, fixture: &str) {
    let path = t.dir.path().join("home/.config/plan/config.yaml");
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(
        &path,
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            fixture_path(&format!("judges/{fixture}")).display()
        ),
    )
    .unwrap();
}

pub(crate) fn rev(t: &Test, what: &str) -> String {
    t.git(&["rev-parse", what]).trim().to_string()
}

/// The workflow `plan install ci` writes, as a fresh clone of the repository has it.
fn workflow(t: &Test) -> String {
    t.ok(&["install", "ci"]);
    t.read(".github/workflows/plan.yml")
}

/// The `run:` script of the workflow's step named `name`.
fn step_script(workflow: &str, name: &str) -> String {
    let at = workflow
        .find(&format!("- name: {name}\n"))
        .unwrap_or_else(|| panic!("no step {name} in\n{workflow}"));
    let rest = &workflow[at..];
    let block = rest.split_once("run: |\n").expect("a run block").1;
    let indent = block.len() - block.trim_start().len();
    block
        .lines()
        .take_while(|l| l.len() > indent && l[..indent].trim().is_empty())
        .map(|l| format!("{}\n", &l[indent..]))
        .collect()
}

/// What the CI job did: the audit step's exit code, its log and the job summary.
struct Job {
    code: i32,
    log: String,
    summary: String,
}

/// Runs the workflow's steps the way the runner would: `checkout` as a clone of the
/// repository (whole, or `--depth 1`, actions/checkout's default) with the pull
/// request's branch checked out; `plan` on PATH; the verify job's step, then the
/// judge job's audit step (which gets verify's results as the artifact would bring
/// them, or none), each with the pull request's base sha, a job summary file and a
/// runner temp dir of its own. No fake judge is on the jobs' PATH: only the
/// user-level judge is. The verify job's exit code does not stop the judge job,
/// which runs whenever the workflow is not cancelled.
fn ci_job(t: &Test, branch: &str, base: &str, depth_one: bool) -> Job {
    let workflow = workflow(t);
    let work = t.dir.path().join(format!("runner-{branch}-{depth_one}"));
    let url = format!("file://{}", t.root().display());
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(BIN, bin.join("plan")).unwrap();
    let summary = work.join("summary.md");
    let mut log = String::new();
    let mut code = -1;
    let mut artifact = None;
    for (job, step) in [("verify", "plan verify"), ("judge", "plan audit")] {
        let temp = work.join(format!("temp-{job}"));
        let clone = work.join(format!("checkout-{job}"));
        std::fs::create_dir_all(&temp).unwrap();
        let mut args = vec!["clone", "-q", "--branch", branch];
        if depth_one {
            args.extend(["--depth", "1"]);
        }
        args.extend([url.as_str(), clone.to_str().unwrap()]);
        t.git(&args);
        if let Some(results) = &artifact {
            let to = temp.join("plan-verify/results.json");
            std::fs::create_dir_all(to.parent().unwrap()).unwrap();
            std::fs::copy(results, to).unwrap();
        }
        let out = Command::new("sh")
            .args(["-c", &step_script(&workflow, step)])
            .current_dir(&clone)
            .env_clear()
            .env(
                "PATH",
                format!("{}:{}", bin.display(), crate::util::system_path()),
            )
            .env("HOME", t.dir.path().join("home"))
            .env("GIT_CONFIG_GLOBAL", "/dev/null")
            .env("GIT_CONFIG_NOSYSTEM", "1")
            .env("BASE", base)
            .env("GITHUB_STEP_SUMMARY", &summary)
            .env("RUNNER_TEMP", &temp)
            .output()
            .unwrap();
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        log.push_str(&String::from_utf8_lossy(&out.stderr));
        code = out.status.code().unwrap_or(-1);
        let results = temp.join("plan-verify/results.json");
        artifact = results.exists().then_some(results);
    }
    Job {
        code,
        log,
        summary: std::fs::read_to_string(summary).unwrap_or_default(),
    }
}

#[test]
fn an_honest_pull_request_passes_the_ci_gate() {
    let t = origin();
    // Red first: the README the verify checks for is the work (were it on the
    // base, the gate would find `test -f README.md` green at the start).
    std::fs::remove_file(t.path("README.md")).unwrap();
    t.commit_all("no README yet");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("README.md", "# Hello, world\n");
    sign_off(&t);
    t.commit_all("ship it");
    user_judge(&t, "accept");
    let job = ci_job(&t, "pr", &base, false);
    assert_eq!(job.code, 0, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.summary));
}

#[test]
fn a_pull_request_that_dropped_a_reopen_fails_the_ci_gate() {
    let t = origin();
    sign_off(&t);
    t.commit_all("ship it");
    t.git(&["checkout", "-q", "-b", "pr"]);
    // main reopens the goal; the branch, meanwhile, adds a note.
    t.git(&["checkout", "-q", "main"]);
    t.ok(&["reopen", "ship", "--reason", "the README is wrong"]);
    t.commit_all("reopen");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "pr"]);
    t.ok(&["log", "more work"]);
    t.commit_all("note");
    // Merging main back, the agent keeps its own plan.md: the reopen is gone, and
    // the old sign-off would prove the goal again.
    t.git(&["merge", "-q", "-s", "ours", "main", "-m", "merge main"]);
    assert!(!t.plan_md().contains("reopened"));
    user_judge(&t, "accept");
    let job = ci_job(&t, "pr", &base, false);
    assert_eq!(job.code, 1, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.summary));
}

#[test]
fn a_sign_off_by_a_fake_judge_fails_the_ci_gate_under_rejudge() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    // The agent's `claude` is a script that accepts: the record it wrote is a
    // forgery that every local check believes.
    sign_off(&t);
    t.commit_all("ship it");
    t.ok(&["audit", "--strict"]);
    user_judge(&t, "reject");
    let job = ci_job(&t, "pr", &base, false);
    assert_eq!(job.code, 1, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.summary));
    // The repository's own judge settings are not what CI asks.
    let json = t
        .run(&["audit", "--base", &base, "--rejudge", "--json"])
        .code(1)
        .json();
    assert_eq!(json["goals"][0]["id"], "ship");
    assert_eq!(json["goals"][0]["rejudge"]["passed"], false);
    assert_eq!(json["base"]["signed_off"][0], "ship");
}

#[test]
fn a_depth_one_clone_is_refused_with_the_fetch_hint() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    sign_off(&t);
    t.commit_all("ship it");
    user_judge(&t, "accept");
    let job = ci_job(&t, "pr", &base, true);
    assert_eq!(job.code, 3, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.log));
}

/// A reopen deleted by hand and committed (with `message`), as plain `plan audit`
/// catches it.
fn removed_reopen_with(message: &dyn Fn(&Test) -> String) -> Test {
    let t = origin();
    sign_off(&t);
    t.commit_all("signed off");
    t.ok(&["reopen", "ship", "--reason", "regressed"]);
    t.commit_all("reopened");
    let hidden: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("ship reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: active", "status: done");
    t.write("plan.md", hidden);
    let message = message(&t);
    t.commit_all(&message);
    insta::assert_snapshot!(redact(&t, &t.run(&["audit"]).code(1).stdout));
    t
}

fn removed_reopen() -> Test {
    removed_reopen_with(&|_| "tidy".to_string())
}

#[test]
fn a_one_line_shallow_file_does_not_blind_audit() {
    let t = removed_reopen();
    t.write(".git/shallow", format!("{}\n", rev(&t, "HEAD")));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(3)));
}

#[test]
fn a_grafts_file_does_not_blind_audit() {
    let t = removed_reopen();
    t.write(".git/info/grafts", format!("{}\n", rev(&t, "HEAD")));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(3)));
}

#[test]
fn replace_refs_do_not_blind_audit() {
    let t = removed_reopen();
    t.git(&["replace", "--graft", "HEAD"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(3)));
}

#[test]
fn a_revert_of_a_sign_off_is_a_reopen_and_a_new_sign_off_is_green() {
    let t = origin();
    sign_off(&t);
    t.commit_all("ship it");
    t.git(&["revert", "--no-edit", "HEAD"]);
    assert!(t.plan_md().contains("status: active"));
    // The goal is open work again, and nothing is out of place.
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    // The old line put back by hand does not count: the revert reopened it.
    t.git(&["checkout", "HEAD~1", "--", "plan.md", ".plan/judge"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));
    t.git(&["reset", "-q", "--hard", "HEAD"]);
    // An honest new sign-off is green.
    let run = t
        .cmd(&[
            "complete",
            "ship",
            "--evidence",
            "README.md is written",
            "--path",
            "README.md",
        ])
        .env("PLAN_NOW", "2026-06-15T15:00")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    t.commit_all("ship it again");
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
}

#[test]
fn a_revert_message_alone_excuses_nothing() {
    // The tidy commit says it reverts the reopen's commit, and it did remove the
    // line that commit added: a reopen, not a sign-off, so nothing is excused.
    removed_reopen_with(&|t| {
        format!(
            "Revert \"reopened\"\n\nThis reverts commit {}.",
            rev(t, "HEAD")
        )
    });
}

#[test]
fn strict_fails_weak_sign_offs_and_transcripts_git_does_not_keep() {
    // Each is a weak sign-off: no judge (--judge none), or a command judge, not a
    // model CLI; the snapshots (-none, -command) show which.
    for how in ["none", "command"] {
        let t = origin();
        if how == "command" {
            t.judge("accept");
        }
        t.ok(&[
            "complete",
            "ship",
            "--evidence",
            "README.md is written",
            "--judge",
            how,
        ]);
        t.commit_all("ship it");
        t.ok(&["audit"]);
        let run = t.run(&["audit", "--strict"]).code(1);
        insta::assert_snapshot!(
            format!("strict_fails_weak_sign_offs_and_transcripts_git_does_not_keep-{how}"),
            shown(&t, &run)
        );
    }
    let t = origin();
    sign_off(&t);
    // plan complete staged the transcript: taken out of the index, as a person might.
    t.git(&["rm", "-q", "-r", "--cached", ".plan/judge"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--strict"]).code(1)));
    t.write(".gitignore", ".plan/judge/\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--strict"]).code(1)));
    t.write(".gitignore", "");
    t.commit_all("ship it");
    t.ok(&["audit", "--strict"]);
}

#[test]
fn strict_fails_a_contract_change_approved_without_a_terminal() {
    let t = origin();
    let base = rev(&t, "main");
    let md = t.plan_md().replace(
        "- verify passes on a trivial or gamed test\n",
        "- verify passes on a trivial or gamed test\n- the README is stale\n",
    );
    t.write("plan.md", md);
    t.ok(&["start", "ship", "--reapprove"]);
    sign_off(&t);
    t.commit_all("ship it");
    t.ok(&["audit"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--strict"]).code(1)));
    // Against a base, the pull request's change is listed, and fails --strict.
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--base", &base])));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"]).code(1)
    ));
}

#[test]
fn markdown_lists_each_goal_and_every_contract_change() {
    let t = origin();
    let base = rev(&t, "main");
    let md = t.plan_md().replace(
        "- verify passes on a trivial or gamed test\n",
        "- verify passes on a trivial or gamed test\n- the README is stale\n",
    );
    t.write("plan.md", md);
    t.ok(&["start", "ship", "--reapprove"]);
    sign_off(&t);
    t.commit_all("ship it");
    let short = &base[..12];
    let run = t
        .case(&["audit", "--base", &base, "--markdown"])
        .any_stdout()
        .check();
    let line = t
        .plan_md()
        .lines()
        .position(|l| l.contains("contract reapproved"))
        .unwrap()
        + 1;
    assert_eq!(
        run.stdout,
        format!(
            "## plan audit

Against base {base} ({short}).

| goal | state | judge | verify | findings |
|---|---|---|---|---|
| `ship` | done proven | claude | passed at sign-off | none |

### Contract changes

- `ship`: `changed and approved without a terminal` (line {line}), needs --approved-by
  - `{{+- the README is stale+}}`

**Passed.**
"
        )
    );
    // --strict fails on it, and says so in the same table.
    let run = t
        .case(&["audit", "--base", &base, "--markdown", "--strict"])
        .status(1)
        .any_stdout()
        .check();
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// The workflow's "Who approved" step run by bash as Actions runs it, with a
/// stand-in `gh` answering each API call as the real one does after its `--jq`:
/// `reviews` (login, type, state, commit, one review a line, oldest first), the
/// label's adder (empty: no label) and each login's permission. The run is the one
/// the label's adding started (a `labeled` event of the commit under test, sent by
/// the adder), or with no label a push's. Returns what it set PLAN_APPROVED_BY to
/// and the job summary it wrote.
fn who_approved(reviews: &str, labeler: &str, permissions: &[(&str, &str)]) -> (String, String) {
    let event = match labeler.trim() {
        "" => Event {
            action: "synchronize",
            label: "",
            sender: "lead",
        },
        sender => Event {
            action: "labeled",
            label: "plan-approved",
            sender,
        },
    };
    who_approved_in(&event, reviews, labeler, permissions)
}

/// The `pull_request` event a gate run is for: its action, the label it added (for
/// `labeled`) and who sent it.
struct Event<'a> {
    action: &'a str,
    label: &'a str,
    sender: &'a str,
}

/// [`who_approved`] in the run `event` started; the head it carries is the commit
/// under test.
fn who_approved_in(
    event: &Event<'_>,
    reviews: &str,
    labeler: &str,
    permissions: &[(&str, &str)],
) -> (String, String) {
    let t = Test::new();
    let work = t.dir.path().join("runner");
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::fs::write(work.join("reviews"), reviews).unwrap();
    std::fs::write(work.join("labeler"), labeler).unwrap();
    for (login, permission) in permissions {
        std::fs::write(work.join(format!("perm-{login}")), permission).unwrap();
    }
    let gh = format!(
        "#!/bin/sh\nw='{0}'\n[ \"$1\" = api ] || exit 2\n[ \"$2\" = --paginate ] && shift\ncase \"$2\" in\n  */pulls/7/reviews) cat \"$w/reviews\" ;;\n  */issues/7/labels) [ -s \"$w/labeler\" ] && echo plan-approved; true ;;\n  */collaborators/*/permission) l=${{2#*/collaborators/}}; cat \"$w/perm-${{l%%/*}}\" 2>/dev/null || echo none ;;\n  *) exit 2 ;;\nesac\n",
        work.display()
    );
    std::fs::write(bin.join("gh"), gh).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("gh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let script = step_script(&workflow(&t), "Who approved");
    let (env, summary) = (work.join("env"), work.join("summary"));
    let out = Command::new("bash")
        .args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .env_clear()
        .env(
            "PATH",
            format!("{}:{}", bin.display(), crate::util::system_path()),
        )
        .env("RUNNER_TEMP", &work)
        .env("GITHUB_ENV", &env)
        .env("GITHUB_STEP_SUMMARY", &summary)
        .env("GH_TOKEN", "unused")
        .env("REPO", "acme/app")
        .env("NUMBER", "7")
        .env("HEAD", "c0ffee000000aaaa")
        .env("AUTHOR", "lead")
        .env("LABEL", "plan-approved")
        .env("EVENT_NAME", "pull_request")
        .env("EVENT_ACTION", event.action)
        .env("EVENT_LABEL", event.label)
        .env("EVENT_SENDER", event.sender)
        .env("EVENT_HEAD", "c0ffee000000aaaa")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let env = std::fs::read_to_string(env).unwrap();
    (
        env.trim_end().to_string(),
        std::fs::read_to_string(summary).unwrap_or_default(),
    )
}

// Attack (issue 69): the step took an approving review from anyone (read access
// only, which is anyone's on a public repository), from github-actions[bot], and
// from a reviewer who then requested changes on the same commit; and the lead,
// author of the pull request, was refused without a word.
#[test]
fn only_a_person_with_write_access_other_than_the_author_approves() {
    let head = "c0ffee000000aaaa";
    let reviews = format!(
        "reader\tUser\tAPPROVED\t{head}\ngithub-actions[bot]\tBot\tAPPROVED\t{head}\nchanger\tUser\tAPPROVED\t{head}\nchanger\tUser\tCHANGES_REQUESTED\t{head}\nlead\tUser\tAPPROVED\t{head}\nearly\tUser\tAPPROVED\t0ld0ld0ld0ld99\n"
    );
    let perms = [
        ("reader", "read"),
        ("changer", "write"),
        ("lead", "admin"),
        ("early", "write"),
        ("writer", "write"),
    ];
    let (env, summary) = who_approved(&reviews, "lead\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=");
    insta::assert_snapshot!(summary, @"
    - reader's approval does not count: reader has no write access to acme/app
    - github-actions[bot]'s approval does not count: a bot approves nothing
    - changer's latest review requests changes
    - lead's approval does not count: the pull request's author cannot approve it
    - early's approval does not count: it approves 0ld0ld0ld0ld, not the commit under test (c0ffee000000); approve again
    - the plan-approved label does not count: lead, the pull request's author, added it; another person with write access must
    ");
    // A person with write access approving the commit under test counts; their
    // later comment changes nothing (the stand-in's reviews hold no comments: the
    // step's jq leaves them out).
    let reviews = format!("{reviews}writer\tUser\tAPPROVED\t{head}\n");
    let (env, summary) = who_approved(&reviews, "", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=writer");
    assert!(
        summary.contains(
            "- approved by writer: an approving review of c0ffee000000, with write access\n"
        ),
        "{summary}"
    );
    // The label, added by someone with write access who is not the author.
    let (env, _) = who_approved("", "changer\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=changer");
    let (env, summary) = who_approved("", "reader\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=");
    assert!(
        summary.contains("reader, who added it, has no write access"),
        "{summary}"
    );
}

/// The workflow's "The pull request" step (both gate jobs have it) run by bash as
/// Actions runs it: from a `pull_request` event's payload (`event_base_ref` the
/// base branch's name, `None`: a dispatch, whose pull request a stand-in `gh`
/// answers, its base branch `api_base_ref`), with the repository's default branch
/// `main` and the workflow's `PLAN_BASES`. Returns whether the step passed, what it
/// said and what it put in `GITHUB_ENV`.
fn the_pull_request(
    event_base_ref: Option<&str>,
    api_base_ref: &str,
    plan_bases: &str,
) -> (bool, String, String) {
    let t = Test::new();
    let work = t.dir.path().join("runner");
    let bin = work.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    let gh = format!(
        "#!/bin/sh\n[ \"$1 $2\" = 'api repos/acme/app/pulls/7' ] || exit 2\nprintf '7\\tba5e000000000000\\tc0ffee000000aaaa\\tagent\\t%s\\n' '{api_base_ref}'\n"
    );
    std::fs::write(bin.join("gh"), gh).unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(bin.join("gh"), std::fs::Permissions::from_mode(0o755)).unwrap();
    let workflow = workflow(&t);
    let yaml: serde_json::Value = serde_saphyr::from_str(&workflow).unwrap();
    let steps = |job: &str| -> serde_json::Value {
        yaml["jobs"][job]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == "The pull request")
            .unwrap()
            .clone()
    };
    assert_eq!(steps("verify"), steps("judge"), "both jobs check the same");
    let script = step_script(&workflow, "The pull request");
    let env = work.join("env");
    let mut cmd = Command::new("bash");
    cmd.args(["--noprofile", "--norc", "-eo", "pipefail", "-c", &script])
        .env_clear()
        .env(
            "PATH",
            format!("{}:{}", bin.display(), crate::util::system_path()),
        )
        .env("GITHUB_ENV", &env)
        .env("GH_TOKEN", "unused")
        .env("REPO", "acme/app")
        .env("NUMBER", "7")
        .env("DEFAULT_BRANCH", "main")
        .env("PLAN_BASES", plan_bases);
    if let Some(base_ref) = event_base_ref {
        cmd.env("EVENT_BASE", "ba5e000000000000")
            .env("EVENT_BASE_REF", base_ref)
            .env("EVENT_HEAD", "c0ffee000000aaaa")
            .env("EVENT_AUTHOR", "agent");
    }
    let out = cmd.output().unwrap();
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
        std::fs::read_to_string(env).unwrap_or_default(),
    )
}

// Attack (red team on issue 69): the gate took the pull request's base from the
// event or the API as it came. The agent pushes a branch of its own holding the
// sign-offs it wants past the gate and opens a pull request of the same head
// against it: compared with that base, nothing is new, the gate is green, and its
// check lands on the head commit a pull request against the default branch has
// too. A base other than the default branch, or a branch the workflow's
// PLAN_BASES names, fails the gate's jobs, naming the base and what to do.
#[test]
fn a_pull_request_against_a_branch_other_than_the_default_fails_the_gate() {
    let expected = "PLAN_NUMBER=7\nPLAN_BASE=ba5e000000000000\nPLAN_HEAD=c0ffee000000aaaa\nPLAN_AUTHOR=agent\n";
    for event in [true, false] {
        let ask = |base_ref: &'static str, bases: &str| {
            let (event_ref, api_ref) = if event {
                (Some(base_ref), "unused")
            } else {
                (None, base_ref)
            };
            the_pull_request(event_ref, api_ref, bases)
        };
        let (ok, said, env) = ask("agent-base", "");
        assert!(!ok, "event {event}: {said}");
        assert_eq!(env, "", "event {event}: nothing set for the gate to run on");
        assert_eq!(
            said.trim_end(),
            "::error::the pull request's base is the branch agent-base, not this repository's default branch (main) nor one PLAN_BASES names: the gate checks a pull request against its base, here whatever was pushed to agent-base, and its check lands on a head commit that other pull requests share. Open the pull request against main; for a protected branch of your own, name it in PLAN_BASES in .github/workflows/plan.yml on main",
            "event {event}"
        );
        // No base named at all is no default branch either.
        let (ok, _, _) = ask("", "");
        assert!(!ok, "event {event}: an empty base");
        let (ok, said, env) = ask("main", "");
        assert!(ok, "event {event}: {said}");
        assert_eq!(env, expected, "event {event}");
        let (ok, said, env) = ask("release/1", "release/0 release/1");
        assert!(ok, "event {event}: {said}");
        assert_eq!(env, expected, "event {event}");
        // A name PLAN_BASES holds only as part of another is not it.
        let (ok, _, _) = ask("release", "release/1");
        assert!(!ok, "event {event}: part of a name");
    }
}

// Attack (red team on issue 69): the `plan-approved` label was tied to no commit.
// A person with write access added it while the head was the commit they read;
// the agent then pushed more commits, and the gate of the new head found the label
// still on the pull request and approved its cancels and contract changes. The
// label approves only the head it was added to, in the run its adding starts; a
// run for anything else (a push, a review, another label) says to add it again.
#[test]
fn the_approval_label_approves_only_the_head_it_was_added_to() {
    let perms = [("changer", "write"), ("reader", "read")];
    for action in ["synchronize", "reopened", "labeled"] {
        // `labeled`: another label, added by someone else, on the new head.
        let event = Event {
            action,
            label: if action == "labeled" { "bug" } else { "" },
            sender: "reader",
        };
        let (env, summary) = who_approved_in(&event, "", "changer\n", &perms);
        assert_eq!(env, "PLAN_APPROVED_BY=", "{action}: {summary}");
        assert_eq!(
            summary,
            "- the plan-approved label does not count for this run: it approves the head it was added to, in the run adding it starts, and this run is for c0ffee000000; to approve this commit, remove the label and add it again\n",
            "{action}"
        );
    }
    // Added by the person, on the commit under test: it counts.
    let event = Event {
        action: "labeled",
        label: "plan-approved",
        sender: "changer",
    };
    let (env, summary) = who_approved_in(&event, "", "changer\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=changer", "{summary}");
    // Who counts is who sent the event, not who the events list says added it.
    let event = Event {
        action: "labeled",
        label: "plan-approved",
        sender: "reader",
    };
    let (env, _) = who_approved_in(&event, "", "changer\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=");
}

// Red team (issue 69's label, today's commit 08d5070): a bot's approving review
// never counts ("a bot approves nothing"), but the label added by a bot with
// write access did: an agent that works as a GitHub App (`agent[bot]`, pushing to
// a pull request a person opened) added `plan-approved` itself and approved its own
// cancels and contract changes.
#[test]
fn a_bot_adding_the_label_approves_nothing() {
    let perms = [("agent[bot]", "write")];
    let event = Event {
        action: "labeled",
        label: "plan-approved",
        sender: "agent[bot]",
    };
    let (env, summary) = who_approved_in(&event, "", "agent[bot]\n", &perms);
    assert_eq!(env, "PLAN_APPROVED_BY=", "{summary}");
    assert!(summary.contains("a bot approves nothing"), "{summary}");
}

#[test]
fn install_ci_writes_the_workflow_once_and_uninstall_removes_it() {
    let t = Test::new();
    t.case(&["install", "ci"])
        .stdout("\
.github/workflows/plan.yml: wrote plan's pull-request gate
  next: set PLAN_GIT and PLAN_REV in it to plan's source and the commit to build, make its `judge` job a required check, add the judge's key as the repository secret ANTHROPIC_API_KEY (and a random PLAN_RECORD_KEY, `openssl rand -hex 32`, so CI's accepts reach every clone after a merge), and commit it
")
        .check();
    let first = std::fs::read(t.path(".github/workflows/plan.yml")).unwrap();
    let text = String::from_utf8(first.clone()).unwrap();
    for needle in [
        "on:\n  pull_request:\n",
        "fetch-depth: 0",
        "cargo install --locked --git \"$PLAN_GIT\" --rev \"$PLAN_REV\" plan",
        "BASE: ${{ github.event.pull_request.base.sha }}",
        "plan audit --base \"$BASE\" --verify-only --results \"$RUNNER_TEMP/plan-verify/results.json\"",
        "plan audit --base \"$BASE\" --strict --rejudge --verified \"$RUNNER_TEMP/plan-verify/results.json\" ${PLAN_APPROVED_BY:+--approved-by \"$PLAN_APPROVED_BY\"} ${PLAN_RECORD_KEY:+--ci-accepted \"$RUNNER_TEMP/plan-ci-accepted/accepted.txt\"} --markdown",
        ">> \"$GITHUB_STEP_SUMMARY\"",
        "${{ secrets.ANTHROPIC_API_KEY }}",
    ] {
        assert!(text.contains(needle), "{needle} not in\n{text}");
    }
    // It is YAML, and its steps are the ones the gate tests run.
    let yaml: serde_json::Value = serde_saphyr::from_str(&text).unwrap();
    let step = |job: &str, name: &str| {
        yaml["jobs"][job]["steps"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["name"] == name || s["uses"] == name)
            .unwrap_or_else(|| panic!("no step {name} in job {job}"))
            .clone()
    };
    assert_eq!(
        step("verify", "actions/checkout@v4")["with"]["fetch-depth"],
        0
    );
    assert_eq!(
        step("verify", "plan verify")["run"],
        step_script(&text, "plan verify")
    );
    assert_eq!(yaml["jobs"]["judge"]["needs"], "verify");
    assert_eq!(
        step("judge", "actions/checkout@v4")["with"]["fetch-depth"],
        0
    );
    for job in ["verify", "judge"] {
        let fetch = step(job, "Fetch the sign-offs' checkpoints")["run"].clone();
        assert!(
            fetch
                .as_str()
                .unwrap()
                .contains("'+refs/plan/checkpoints/*:refs/plan/checkpoints/*'")
        );
    }
    assert_eq!(
        step("judge", "plan audit")["run"],
        step_script(&text, "plan audit")
    );
    assert_eq!(
        yaml["on"]["pull_request"]["types"],
        serde_json::json!(["opened", "synchronize", "reopened", "labeled"])
    );
    t.case(&["install", "ci"])
        .stdout(".github/workflows/plan.yml: plan's workflow is already current\n")
        .check();
    assert_eq!(
        std::fs::read(t.path(".github/workflows/plan.yml")).unwrap(),
        first
    );
    // An edited workflow is the person's now.
    t.write(
        ".github/workflows/plan.yml",
        text.replace("YOUR-ORG", "acme"),
    );
    t.case(&["install", "ci"])
        .stdout(".github/workflows/plan.yml: plan's workflow, edited since; left as it is\n  hint: to write plan's current one, plan uninstall ci (or remove the file), then plan install ci\n")
        .check();
    // Attack (red team): uninstall removed an edited workflow, and an edit not yet
    // committed was lost. Committed, the edit is in git's history and it goes.
    t.case(&["uninstall", "ci"])
        .status(2)
        .stderr("plan: .github/workflows/plan.yml is plan's workflow, edited since and not committed; left as it is\n  hint: commit it first (its edits stay in git's history), or remove it by hand\n")
        .check();
    assert_eq!(
        t.read(".github/workflows/plan.yml"),
        text.replace("YOUR-ORG", "acme")
    );
    t.commit_all("the gate, for acme");
    t.case(&["uninstall", "ci"])
        .stdout(".github/workflows/plan.yml: removed plan's workflow (as committed: `git show HEAD:.github/workflows/plan.yml` has it)\n")
        .check();
    assert!(!t.path(".github/workflows/plan.yml").exists());
    t.ok(&["install", "ci"]);
    t.case(&["uninstall", "ci"])
        .stdout(".github/workflows/plan.yml: removed plan's workflow\n")
        .check();
    // Still committed (the edited one), checked out with CRLF (`core.autocrlf`):
    // as committed.
    t.git(&["config", "core.autocrlf", "true"]);
    t.git(&["checkout", "--", ".github/workflows/plan.yml"]);
    assert!(t.read(".github/workflows/plan.yml").contains("\r\n"));
    t.ok(&["uninstall", "ci"]);
    assert!(!t.path(".github/workflows/plan.yml").exists());
    // Someone else's file at that path stays.
    t.write(".github/workflows/plan.yml", "name: theirs\n");
    t.case(&["uninstall", "ci"])
        .status(2)
        .stderr("plan: .github/workflows/plan.yml was not written by plan install ci; left as it is\n  hint: remove it by hand if it is to go\n")
        .check();
}

#[test]
fn the_base_keeps_every_plan_file_and_every_goal() {
    let t = origin();
    t.write(
        "docs/roadmap.md",
        "# Plan: Roadmap\n\n## Goal: Later\n<!-- id: later -->\nstatus: open\ndone_when: later\n\n## Log\n- 2026-06-01 10:00 later reopened: not yet\n",
    );
    t.write(
        "docs/notes.md",
        "# Notes\n\n## Log\n- 2026-06-01 10:00 free text\n",
    );
    t.commit_all("roadmap");
    let base = rev(&t, "main");
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit", "--base", &base])));
    // Another plan file's log line and a goal of plan.md, each dropped; a file
    // that is no plan may change as it likes.
    t.write(
        "docs/roadmap.md",
        "# Plan: Roadmap\n\n## Goal: Later\n<!-- id: later -->\nstatus: open\ndone_when: later\n\n## Log\n",
    );
    t.write("docs/notes.md", "# Notes\n");
    t.write(
        "plan.md",
        t.plan_md().replace(
            "## Goal: Ship it\n<!-- id: ship -->\n",
            "## Goal: Ship it\n<!-- id: shipped -->\n",
        ),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--base", &base]).code(1)));
}

#[test]
fn rejudge_runs_verify_in_a_clean_copy_without_the_callers_secrets() {
    let t = origin();
    // The check rests on a file never committed, and passes only where the
    // judge's key is not in its environment. It is the base's: the gate runs the
    // base's verify for a goal the base has.
    let md = t.plan_md().replace(
        "verify: test -f README.md",
        "verify: test -f build.log && sh -c 'test -z \"$ANTHROPIC_API_KEY\"'",
    );
    t.write("plan.md", md);
    t.ok(&["start", "ship", "--reapprove"]);
    t.commit_all("the check");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("build.log", "ok\n");
    sign_off(&t);
    t.git(&["add", "plan.md", ".plan"]);
    t.git(&["commit", "-q", "-m", "ship it"]);
    user_judge(&t, "accept");
    let run = t
        .cmd(&["audit", "--base", &base, "--rejudge"])
        .env("ANTHROPIC_API_KEY", "sk-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(1), "{stdout}");
    insta::assert_snapshot!(redact(&t, &stdout));
    // Committed, the file is in the copy, and the key still stays out.
    t.commit_all("the build log");
    let run = t
        .cmd(&["audit", "--base", &base, "--rejudge"])
        .env("ANTHROPIC_API_KEY", "sk-secret")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert_eq!(run.status.code(), Some(0), "{stdout}");
    insta::assert_snapshot!(redact(&t, &stdout));
}

// Attack: replay. After main reopened the goal, the branch appends a verbatim copy
// of the old sign-off line (same stamp, same bound transcript) and sets the status
// back to done. The copy is a new sign-off to the gate, so CI re-judges it.
#[test]
fn a_replayed_sign_off_line_after_a_reopen_fails_the_ci_gate() {
    let t = origin();
    sign_off(&t);
    t.commit_all("ship it");
    t.ok(&["reopen", "ship", "--reason", "the README is wrong"]);
    t.commit_all("reopen");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let md = t.plan_md();
    let line = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .expect("a sign-off line")
        .to_string();
    t.write(
        "plan.md",
        format!("{}{line}\n", md.replace("status: active", "status: done")),
    );
    t.commit_all("done again");
    user_judge(&t, "reject");
    let job = ci_job(&t, "pr", &base, false);
    assert_eq!(job.code, 1, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.summary));
}

// Attack: a replace ref hidden in packed-refs rather than as a loose ref file.
#[test]
fn a_packed_replace_ref_does_not_blind_audit() {
    let t = removed_reopen();
    t.git(&["replace", "--graft", "HEAD"]);
    t.git(&["pack-refs", "--all"]);
    let loose = std::fs::read_dir(t.path(".git/refs/replace"));
    assert!(loose.map_or(true, |mut d| d.next().is_none()));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(3)));
}

// Attack: the weakened-tests check compares from the commit the goal's started line
// names. The agent weakens a test, commits, then appends a second `started` line
// naming that commit, so the check would start after the weakening.
#[test]
fn a_later_started_line_does_not_hide_weakened_tests_from_strict() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t
        .with_bin()
        .plan(&PLAN.replace("status: active", "status: open"));
    t.write("README.md", "# Hello\n");
    t.write(
        "tests/test_calc.py",
        "def test_add():\n    assert 1 + 1 == 2\n    assert 2 + 2 == 4\n",
    );
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.commit_all("calc");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("tests/test_calc.py", "def test_add():\n    assert True\n");
    t.commit_all("simplify");
    let md = t.plan_md();
    let started = md
        .lines()
        .find(|l| l.contains("ship started ("))
        .expect("a started line");
    let (head, old) = started.rsplit_once(" at ").expect("a commit");
    let commit = old.trim_end_matches(')');
    let now = rev(&t, "HEAD");
    let forged = format!("{head} at {})", &now[..commit.len()]);
    t.write("plan.md", format!("{md}{forged}\n"));
    t.commit_all("restart");
    sign_off(&t);
    t.commit_all("ship it");
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"]).code(1)
    ));
}

// Attack: under `--rejudge` verify ran in the fresh copy of HEAD and the judge then
// read that same copy, so a verify script could rewrite the files the judge reads
// (here the evidence file) after the check passed.
#[test]
fn rejudge_shows_the_judge_the_head_and_not_what_verify_rewrote() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t
        .with_bin()
        .plan(&PLAN.replace("verify: test -f README.md", "verify: sh scripts/check.sh"));
    t.write("README.md", "# Hello\n");
    t.write(
        "scripts/check.sh",
        // Only where there is no .git: the copy CI's re-judge runs verify in.
        "test -f README.md\n[ -e .git ] || printf '%s %s\\n' CLEAN LOOKING > README.md\n",
    );
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.ok(&["start", "ship"]);
    t.commit_all("start");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    sign_off(&t);
    t.write("README.md", "# Hello GAMED\n");
    t.commit_all("ship it");
    // The user's judge keeps the README.md it finds where it runs, then accepts.
    let seen = t.dir.path().join("seen.txt");
    let judge = t.dir.path().join("seeing-judge");
    std::fs::write(
        &judge,
        format!(
            "#!/bin/sh\ncat >/dev/null\ncd \"$PLAN_JUDGE_TREE\" || exit 9\ncat README.md >'{}'\ncat '{}'\n",
            seen.display(),
            fixture_path("judges/outputs/accept.txt").display()
        ),
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&judge, std::fs::Permissions::from_mode(0o755)).unwrap();
    let config = t.dir.path().join("home/.config/plan/config.yaml");
    std::fs::create_dir_all(config.parent().unwrap()).unwrap();
    std::fs::write(
        &config,
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 10\n",
            judge.display()
        ),
    )
    .unwrap();
    t.run(&["audit", "--base", &base, "--rejudge"]);
    let seen = std::fs::read_to_string(seen).expect("the judge was asked");
    assert_eq!(seen, "# Hello GAMED\n");
}

// Attack: plan's merge driver orders both sides' new log lines by their stamps, and
// the agent sets its own clock (PLAN_NOW). Main signs `ship` off and reopens it;
// the branch signs off with a stamp hours ahead, so after the driver's merge the
// branch's sign-off follows the reopen and the goal reads as proven. It is a line
// the base lacks, so CI re-judges it.
#[test]
fn a_sign_off_dated_after_the_bases_reopen_is_rejudged_by_the_ci_gate() {
    let t = origin();
    t.ok(&["install", "git"]);
    // This clone's driver names the plan under test by its path.
    t.git(&[
        "config",
        "merge.plan.driver",
        &format!("'{BIN}' merge-driver %O %A %B %P"),
    ]);
    t.commit_all("merge driver");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.git(&["checkout", "-q", "main"]);
    sign_off(&t);
    t.commit_all("ship it");
    t.ok(&["reopen", "ship", "--reason", "the README is wrong"]);
    t.commit_all("reopen");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "pr"]);
    let args = [
        "complete",
        "ship",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ];
    let run = crate::util::Run::from(
        t.cmd(&args)
            .env("PLAN_NOW", "2026-06-15T18:00")
            .output()
            .unwrap(),
        &args,
    );
    assert_eq!(run.code, 0, "{}{}", run.stdout, run.stderr);
    t.commit_all("ship it later");
    t.git(&["merge", "-q", "--no-edit", "main"]);
    let md = t.plan_md();
    let reopened = md.find("ship reopened").expect("the reopen is kept");
    let last_sign_off = md.rfind("ship signed off").unwrap();
    assert!(reopened < last_sign_off, "{md}");
    user_judge(&t, "reject");
    let job = ci_job(&t, "pr", &base, false);
    assert_eq!(job.code, 1, "{}", job.log);
    insta::assert_snapshot!(redact(&t, &job.summary));
}

// Attack: the same, through plan's own commands. Inside the pull request the agent
// weakens a test and commits, signs off with no judge, reopens and starts again
// (a started line after a reopen is a fresh start), then signs off for real: the
// weakened check would start after the weakening. Against a base, a goal started
// inside the pull request is compared from the base.
#[test]
fn a_sign_off_reopen_cycle_does_not_hide_weakened_tests_from_strict() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t
        .with_bin()
        .plan(&PLAN.replace("status: active", "status: open"));
    t.write("README.md", "# Hello\n");
    t.write(
        "tests/test_calc.py",
        "def test_add():\n    assert 1 + 1 == 2\n    assert 2 + 2 == 4\n",
    );
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.commit_all("calc");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "ship"]);
    t.write("tests/test_calc.py", "def test_add():\n    assert True\n");
    t.commit_all("simplify");
    t.ok(&["complete", "ship", "--evidence", "x", "--judge", "none"]);
    t.ok(&["reopen", "ship", "--reason", "one more look"]);
    t.ok(&["start", "ship"]);
    t.commit_all("restart");
    sign_off(&t);
    t.commit_all("ship it");
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"]).code(1)
    ));
}

// Issue 34: the hooks take a sign-off line at its word (they read no transcript),
// so a transcript edited after its sign-off is for the gate to catch, as `plan
// audit` does on the branch.
#[test]
fn a_transcript_changed_after_its_sign_off_fails_the_gate() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    sign_off(&t);
    let md = t.plan_md();
    let path = md
        .lines()
        .find(|l| l.contains("ship signed off"))
        .and_then(|l| l.rsplit_once(": "))
        .and_then(|(_, record)| record.split('#').next())
        .expect("a sign-off line naming its transcript")
        .to_string();
    t.write(
        &path,
        t.read(&path)
            .replace("- verdict: accept", "- verdict: accept "),
    );
    t.commit_all("ship it");
    let run = t.run(&["audit", "--base", &base]);
    assert_eq!(run.code, 1, "{}{}", run.stdout, run.stderr);
    insta::assert_snapshot!(redact(&t, &run.stdout));
}

/// The pull request of the gate's attack tests: goal `w`, its verify given.
pub(crate) const PR_PLAN: &str = "# Plan: Gate

## Goal: Work
<!-- id: w -->
status: active
done_when: the tests pass
verify: VERIFY
failure_modes:
- the tests are switched off
- [x] do it

## Log
";

/// A repository whose goal `w` has `verify` and the files `base`, committed on
/// `main`; then a branch `pr` on which `w` is started with `start` (extra
/// arguments), `edit` runs, and `w` is signed off by the agent's judge (a fake
/// `claude` that accepts) and committed. CI's own judge accepts too. Returns the
/// base's sha.
pub(crate) fn signed_pull_request(
    verify: &str,
    base: &[(&str, &str)],
    start: &[&str],
    edit: impl Fn(&Test),
) -> (Test, String) {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(&PR_PLAN.replace("VERIFY", verify));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    for (path, text) in base {
        t.write(path, text);
    }
    t.commit_all("base");
    let sha = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let mut args = vec!["start", "w"];
    args.extend(start);
    t.ok(&args);
    t.commit_all("start");
    edit(&t);
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    (t, sha)
}

// Attack (issue 69): 100 sign-offs in one pull request were 100 CI judge calls,
// with no cap and no notice. Past `gate.max_judged` of the base's settings (25 by
// default) the gate fails before any verify runs, naming the cap and the key; the
// pull request raising its own cap changes nothing.
#[test]
fn the_gate_judges_no_more_goals_than_the_bases_cap() {
    let capped = "judge:\n  backend: claude\ngate:\n  max_judged: 0\n";
    let (t, base) = signed_pull_request(
        "test -f done.txt",
        &[(".plan/config.yaml", capped)],
        &["--no-verify"],
        |t| t.write("done.txt", "done\n"),
    );
    t.write(
        ".plan/config.yaml",
        "judge:\n  backend: claude\ngate:\n  max_judged: 100\n",
    );
    t.commit_all("raise the cap");
    let gate = ["audit", "--base", &base, "--rejudge"];
    let run = t.run(&gate).code(1);
    insta::assert_snapshot!(run.stderr, @"
    plan: the gate would ask CI's judge about 1 goal, more than gate.max_judged (0) allows
      hint: split the pull request, or raise gate.max_judged in .plan/config.yaml on the default branch first (a pull request's own setting does not count)
    ");
    let verify_job = [
        "audit",
        "--base",
        &base,
        "--verify-only",
        "--results",
        "r.json",
    ];
    t.run(&verify_job).code(1);
    // Within the base's cap, judged as ever.
    t.git(&["checkout", "-q", "main"]);
    t.write(
        ".plan/config.yaml",
        "judge:\n  backend: claude\ngate:\n  max_judged: 1\n",
    );
    t.commit_all("cap 1");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "pr"]);
    t.git(&["merge", "-q", "-X", "theirs", "--no-edit", "main"]);
    let gate = ["audit", "--base", &base, "--rejudge"];
    t.run(&gate)
        .code(0)
        .stdout_has("rejudge: verify passed; judge accept");
}

// Attack (the gate's red team): a test file the pull request adds, with the goal
// started over it (red), then one of its assertions taken out (the failing one)
// and the goal signed off with the code unchanged. From the base the file is new
// and lost nothing; `plan audit --strict` saw the loss from the start, the gate
// printed it and passed.
#[test]
fn a_test_the_pull_request_adds_and_weakens_after_the_start_fails_the_gate() {
    let t = pr_repo("python3 -m unittest test_q");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("q.py", "def sq(x):\n    return 4\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("test_q.py", SQ_TEST);
    t.commit_all("test");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write(
        "test_q.py",
        SQ_TEST.replace("        self.assertEqual(sq(3), 9)\n", ""),
    );
    t.commit_all("tidy");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
    insta::assert_snapshot!(crate::weakened::strict_lines(&t, &["--base", &base]), @"  strict: weakened tests: test_q.py: 1 of 2 assertions removed [assertions-removed, high]");
}

// Attack (the last red team's): the goal's `started` line rewritten, before its
// first commit, to name the repository's first commit, from before the test was
// there; the pull request then takes an assertion out of the base's test and fakes
// the code. From that start the test is new and lost nothing, and the gate read
// from the start alone.
#[test]
fn a_start_line_naming_a_commit_before_the_test_hides_no_weakening() {
    let t = pr_repo("python3 -m unittest discover -s tests -t .");
    t.write("README", "readme\n");
    t.commit_all("root");
    let root = rev(&t, "main")[..12].to_string();
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("tests/__init__.py", "");
    let test = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n";
    t.write("tests/test_calc.py", test);
    t.write("calc.py", "def add(a, b):\n    return 0\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    let md = t.plan_md();
    let at = md.split("failing at ").nth(1).unwrap()[..12].to_string();
    t.write("plan.md", md.replace(&at, &root));
    t.commit_all("start");
    t.write(
        "tests/test_calc.py",
        test.replace("        self.assertEqual(add(10, 1), 11)\n", ""),
    );
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add adds"]);
    t.commit_all("sign off");
    std::fs::remove_dir_all(t.root().join(".git/plan")).unwrap();
    user_judge(&t, "accept");
    gate_fails(&t, &base);
    insta::assert_snapshot!(crate::weakened::strict_lines(&t, &["--base", &base]), @"  strict: weakened tests: tests/test_calc.py: 1 of 2 assertions removed [assertions-removed, high]");
}

// The honest side (the review's): CI checks out the merge of the pull request into
// the base, and a test the base weakened since the branch left it (a reviewed
// skip) is the base's own, not the goal's, though it lies between the goal's start
// and HEAD.
#[test]
fn a_test_the_base_weakened_after_the_branch_left_it_passes_the_gate() {
    let t = pr_repo("python3 -m unittest -q");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    let test = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(1, 1), 2)\n";
    t.write("test_calc.py", test);
    t.commit_all("base");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "test_ops.py",
        "import unittest\nfrom ops import sub\n\nclass S(unittest.TestCase):\n    def test_sub(self):\n        self.assertEqual(sub(5, 3), 2)\n",
    );
    t.commit_all("test");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write("ops.py", "def sub(a, b):\n    return a - b\n");
    t.commit_all("sub");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    t.git(&["checkout", "-q", "main"]);
    t.write(
        "test_calc.py",
        test.replace("        self.assertEqual(add(1, 1), 2)\n", ""),
    );
    t.commit_all("retire an assertion");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "pr"]);
    t.git(&["merge", "-q", "--no-edit", "main"]);
    user_judge(&t, "accept");
    t.ok(&["audit", "--base", &base, "--strict", "--rejudge"]);
}

/// The gate as CI runs it in one job.
fn gate(t: &Test, base: &str) -> Run {
    t.run(&[
        "audit",
        "--base",
        base,
        "--strict",
        "--rejudge",
        "--markdown",
    ])
}

/// What the gate as CI runs it in one job prints, stdout then stderr.
pub(crate) fn gate_run(t: &Test, base: &str) -> String {
    let run = gate(t, base);
    format!("{}{}", run.stdout, run.stderr)
}

/// The gate as CI runs it in one job; it must fail.
pub(crate) fn gate_fails(t: &Test, base: &str) {
    gate(t, base).code(1);
}

/// Whether the gate as CI runs it passes: for a table of attacks, which lists
/// those it missed.
pub(crate) fn gate_passes(t: &Test, base: &str) -> bool {
    gate(t, base).code == 0
}

// Attack: the pull request breaks a goal done on the base through a file its
// verify imports (Python), not one it names: the reach does not see it, nothing
// is verified again, the gate is green. `plan audit --reverify` catches it.
#[test]
fn a_done_goal_broken_through_an_import_fails_the_gate() {
    let t = pr_repo("python3 check.py");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("check.py", "from calc import add\nassert add(2, 3) == 5\n");
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.commit_all("base");
    t.ok(&["start", "w", "--no-verify"]);
    t.ok(&["complete", "w", "--evidence", "add works"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("calc.py", "def add(a, b):\n    return 0\n");
    t.commit_all("tidy");
    user_judge(&t, "accept");
    t.run(&["audit", "--reverify"]).code(1);
    t.run(&["audit", "--base", &base, "--strict"]).code(1);
}

// Attack: the same, where the goal's verify names no file at all (`python3 -m
// unittest`, as `cargo test`, `npm test` or `go test ./...` do): the pull request
// breaks the code the goal's tests cover and the gate re-verifies nothing.
#[test]
fn a_done_goal_whose_verify_names_no_file_is_verified_again() {
    let t = unittest_repo();
    let base = unittest_goal_done_on_main(&t);
    t.write("calc.py", "def add(a, b):\n    return 0\n");
    t.commit_all("tidy");
    t.run(&["audit", "--reverify"]).code(1);
    t.run(&["audit", "--base", &base, "--strict"]).code(1);
}

/// A repository whose goal `w` verifies with `python3 -m unittest -q`; the agent's
/// judge is `claude`, a fake that accepts.
fn unittest_repo() -> Test {
    pr_repo("python3 -m unittest -q")
}

/// [`unittest_repo`] with CI's judge `claude` and a test of `calc.add`, committed
/// as the base: the start-line attacks' common ground.
fn calc_base() -> Test {
    let t = unittest_repo();
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "test_calc.py",
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    );
    t.commit_all("base");
    t
}

/// A repository whose goal `w` verifies with `verify`; the agent's judge is
/// `claude` (the settings say so), a fake that accepts.
fn pr_repo(verify: &str) -> Test {
    claude_repo(&PR_PLAN.replace("VERIFY", verify))
}

/// A repository holding `plan` (not committed), the agent's judge a fake `claude`
/// that accepts.
pub(crate) fn claude_repo(plan: &str) -> Test {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    t.with_bin().plan(plan)
}

/// The test of `add` the unittest goals verify with.
pub(crate) const TEST_CALC: &str = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";

/// A repository that took plan up: `plan`, the settings naming the `claude` judge
/// and `files`, committed.
pub(crate) fn adopted_with(plan: &str, files: &[(&str, &str)]) -> Test {
    let t = claude_repo(plan);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    for (path, text) in files {
        t.write(path, text);
    }
    t.commit_all("plan");
    t
}

/// `w` (its test checking `add`) signed off and committed on `main`; `pr` branched
/// from there. Returns the base's commit.
fn unittest_goal_done_on_main(t: &Test) -> String {
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "test_calc.py",
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    );
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.commit_all("base");
    t.ok(&["start", "w", "--no-verify"]);
    t.commit_all("start");
    t.ok(&["complete", "w", "--evidence", "add works"]);
    t.commit_all("done");
    let base = rev(t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    base
}

// The honest side (issue 69): a `git revert` of a merged pull request that did goal
// `x` and added its test file. The revert takes the file away and sets `x` back
// from done; the goal `a` done before it, whose verify runs only its own test
// module, failed --strict for the deleted file, and `x` was "set back by hand"
// although a revert is a reopen.
#[test]
fn a_revert_of_a_merged_pull_request_fails_no_other_goal_and_reads_as_a_reopen() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let goal = |id: &str| {
        format!(
            "## Goal: {id}\n<!-- id: {id} -->\nstatus: open\ndone_when: its test passes\nverify: python3 -m unittest -q tests.test_{id}\n\n"
        )
    };
    let t = t.with_bin().plan(&format!(
        "# Plan: Revert\n\n{}{}## Log\n",
        goal("a"),
        goal("x")
    ));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    let test = |id: &str| {
        format!(
            "import unittest\n\nclass T(unittest.TestCase):\n    def test_{id}(self):\n        self.assertEqual(1 + 1, 2)\n"
        )
    };
    t.write("tests/__init__.py", "");
    t.write("tests/test_a.py", test("a"));
    t.commit_all("base");
    t.ok(&["start", "a", "--no-verify"]);
    t.ok(&["complete", "a", "--evidence", "a works"]);
    t.commit_all("a done");
    t.git(&["checkout", "-q", "-b", "px"]);
    t.ok(&["start", "x", "--no-verify"]);
    t.write("tests/test_x.py", test("x"));
    t.ok(&["complete", "x", "--evidence", "x works"]);
    t.commit_all("x done");
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--no-ff", "--no-edit", "px"]);
    let merge = rev(&t, "HEAD");
    let base = merge.clone();
    t.git(&["checkout", "-q", "-b", "revert"]);
    t.git(&["revert", "--no-edit", "-m", "1", &merge]);
    let run = t.run(&["audit", "--base", &base, "--strict"]);
    assert!(
        !run.stdout.contains("strict: weakened tests"),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("by hand"), "{}", run.stdout);
    assert!(
        run.stdout
            .contains("x of the base was done and is reopened here by a revert"),
        "{}",
        run.stdout
    );
}

// Attack (the red team's): a goal done on the base set back to `active` by the
// pull request, by hand or through
// `plan reopen`, with the work it rests on broken. Not done at the head, it was
// neither verified again nor counted: the gate passed a pull request that undid
// done work no person agreed to. Taken back like a cancel, it needs one.
#[test]
fn a_goal_done_on_the_base_set_back_by_the_pull_request_needs_approval() {
    let mut said = Vec::new();
    for how in ["by hand", "hidden", "reopen"] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        t.write("calc.py", "def add(a, b):\n    return a - b\n");
        let md = t.plan_md();
        match how {
            "by hand" => t.write("plan.md", md.replace("status: done", "status: active")),
            "hidden" => t.write(
                "plan.md",
                md.replace("status: done", "status\u{200b}: done"),
            ),
            _ => {
                t.ok(&["reopen", "w", "--reason", "the sum is wrong"]);
            }
        }
        t.commit_all("set back");
        let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
        said.extend(
            redact(&t, &run.stdout)
                .lines()
                .filter(|l| l.contains("of the base"))
                .map(str::to_string),
        );
        let approved = ["audit", "--base", &base, "--strict", "--approved-by", "ann"];
        match how {
            // Read as a reviewer reads it, the line says done: a format error, which
            // no approval excuses.
            "hidden" => {
                let run = t.run(&approved).code(1);
                said.extend(
                    run.stdout
                        .lines()
                        .filter(|l| l.starts_with('⚠'))
                        .map(str::to_string),
                );
            }
            _ => {
                t.ok(&approved);
            }
        }
    }
    insta::assert_snapshot!(said.join("\n"), @r#"
    ⚠ w of the base was done and is set back here by hand, with no `plan reopen` logged (plan.md:3), needs --approved-by
    ⚠ w of the base was done and is set back here by hand, with no `plan reopen` logged (plan.md:3), needs --approved-by
    ⚠ plan.md:5: a format error at the head: plan does not read this status line, so its goal counts as open
    ⚠ w of the base was done and is reopened here: the sum is wrong (plan.md:15), needs --approved-by
    "#);
    // In another plan file alike.
    let (t, base) = side_done_on_main(|_| "grep -q Hello README.md\n".to_string());
    t.write("README.md", "");
    let side = t
        .read("docs/side.md")
        .replace("status: done", "status: active");
    t.write("docs/side.md", side);
    t.commit_all("set back");
    insta::assert_snapshot!(other_file_lines(&t, &["audit", "--base", &base, "--strict"]), @"⚠ docs/side.md: side: set back from done by hand, with no `plan reopen` logged (line 3), needs --approved-by");
}

// Attack (the red team's): a pull request adds a goal whose status line a reviewer
// reads as done, `st\u{430}tus: done` with a Cyrillic a (or a zero-width space, a
// word joiner, a fullwidth colon), and a look-alike sign-off line in the log. plan
// read a line it did not know, so an open goal with nothing to verify: the gate
// passed while the diff showed a goal done and signed off.
#[test]
fn a_status_line_that_only_reads_as_done_fails_the_gate() {
    let mut said = Vec::new();
    for status in [
        "st\u{430}tus: done",
        "status\u{200b}: done",
        "sta\u{2060}tus: done",
        "status\u{ff1a} done",
    ] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        let md = t.plan_md().replace(
            "\n## Log",
            &format!("\n## Goal: Sub\n<!-- id: sub -->\n{status}\ndone_when: sub works\n\n## Log"),
        );
        let line = "- 2026-06-16 10:00 sub sign\u{435}d off (verify passed, judge claude accept, contract 3cc77b08): .plan/judge/sub-20260101-1000.md#0484a3ba7e05\n";
        t.write("plan.md", format!("{md}{line}"));
        t.commit_all("sub");
        let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
        said.extend(
            redact(&t, &run.stdout)
                .lines()
                .filter(|l| l.starts_with('⚠'))
                .map(str::to_string),
        );
    }
    insta::assert_snapshot!(said.join("\n"), @r#"
    ⚠ plan.md:14: a format error at the head: plan does not read this status line, so its goal counts as open
    ⚠ plan.md:14: a format error at the head: plan does not read this status line, so its goal counts as open
    ⚠ plan.md:14: a format error at the head: plan does not read this status line, so its goal counts as open
    ⚠ plan.md:14: a format error at the head: plan does not read this status line, so its goal counts as open
    "#);
}

// Attack (helper-127, the red team): the same goal, its status line spelt so that
// only the rendered file (a pull request's file view) shows `status: done`: markup,
// an entity, an escape, a comment or tag, a list or quote or heading marker, a
// blank-looking character, indentation by no-break spaces. plan read prose, the
// goal counted as open, and the gate had nothing to verify.
#[test]
fn a_status_line_that_only_shows_as_done_rendered_fails_the_gate() {
    let mut said = Vec::new();
    for status in [
        "**status**: done",
        "- status: done",
        "> status: done",
        "#### status: done",
        "st&#97;tus: done",
        "status\\: done",
        "status<!-- -->: done",
        "<span>status</span>: done",
        "status\u{2800}: done",
        "\u{a0}\u{a0}\u{a0}\u{a0}status: done",
    ] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        let md = t.plan_md().replace(
            "\n## Log",
            &format!("\n## Goal: Sub\n<!-- id: sub -->\n{status}\ndone_when: sub works\n\n## Log"),
        );
        t.write("plan.md", md);
        t.commit_all("sub");
        let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
        let found: Vec<&str> = run.stdout.lines().filter(|l| l.starts_with('⚠')).collect();
        said.push(format!(
            "{} => {}",
            status.escape_debug(),
            found.join(" | ")
        ));
    }
    insta::assert_snapshot!(said.join("\n"), @r#"
    **status**: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    - status: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    > status: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    #### status: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    st&#97;tus: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    status\\: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    status<!-- -->: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    <span>status</span>: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    status⠀: done => ⚠ plan.md:14: a format error at the head: plan does not read this status line, so its goal counts as open
    \u{a0}\u{a0}\u{a0}\u{a0}status: done => ⚠ plan.md:14: a format error at the head: this line shows as `status: done` where markdown is rendered, and plan reads the goal as open
    "#);
}

// Attack (the gate's red team): the check script of a goal done on the base kept
// under `.plan/` (`sh .plan/checks/calc.sh`), gutted by the pull request. A verify
// that runs a program rests on every file but plan's own, and `.plan/` is plan's:
// nothing was verified again. The same edit to `checks/calc.sh` failed.
#[test]
fn a_check_script_under_dot_plan_gutted_by_the_pull_request_fails_the_gate() {
    let t = pr_repo("sh .plan/checks/calc.sh");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        ".plan/checks/calc.sh",
        "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n",
    );
    t.commit_all("base");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write("add.sh", "echo $(($1+$2))\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add.sh adds"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(".plan/checks/calc.sh", "exit 0\n");
    t.commit_all("loosen");
    user_judge(&t, "accept");
    let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
    let said: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("reverify:") || l.contains("strict:"))
        .collect();
    insta::assert_snapshot!(said.join("\n"), @r#"
  reverify: failed: the check's own files changed since the sign-off (.plan/checks/calc.sh, add.sh), so passing it now proves nothing; review the change (git diff), then plan reopen w and sign it off again
  strict: weakened tests: .plan/checks/calc.sh: the verify command rests on it, and it changed since the goal started [verify-file-changed, high, 2 pieces]
"#);
}

// Attack (helper 79, on a56b9d70): a root check script run through a package
// manager's script of its name (`pnpm verify`, package.json's `"verify":
// "./verify"`), gutted by the pull request. While a bare word after a package
// manager was read as its subcommand, the script was no file the verify rests
// on: the gate passed `--strict` where it had failed before.
#[test]
fn a_root_check_run_by_a_package_script_of_its_name_gutted_fails_the_gate() {
    let t = pr_repo("pnpm verify");
    t.fake_program("pnpm", "exec sh ./verify\n");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "package.json",
        "{\"scripts\": {\"verify\": \"./verify\"}}\n",
    );
    t.write("verify", "[ \"$(sh add.sh 2 3)\" = 5 ]\n");
    t.commit_all("base");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write("add.sh", "echo $(($1+$2))\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add.sh adds"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("verify", "exit 0\n");
    t.write("add.sh", "echo 0\n");
    t.commit_all("loosen");
    user_judge(&t, "accept");
    let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
    assert!(run.stdout.contains("verify-file-changed"), "{}", run.stdout);
}

// Attack: a pull request breaks the code a goal done on the base covers and
// switches its tests off with files its sign-off never recorded: a new test module
// that ends the run at import, a module shadowing the runner. Verified again, the
// goal passes: the gate ran none of the weakened-test checks a sign-off runs.
#[test]
fn tests_of_a_goal_done_on_the_base_switched_off_fail_the_gate() {
    let mut said = Vec::new();
    for (path, text) in [
        ("test_000.py", "import os\nos._exit(0)\n"),
        ("unittest/__main__.py", "raise SystemExit(0)\n"),
    ] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        t.write("calc.py", "def add(a, b):\n    return a - b\n");
        t.write(path, text);
        if path.starts_with("unittest/") {
            t.write("unittest/__init__.py", "");
        }
        t.commit_all("refactor");
        let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
        said.extend(
            run.stdout
                .lines()
                .filter(|l| l.contains("strict:"))
                .map(str::to_string),
        );
    }
    insta::assert_snapshot!(said.join("\n"), @"
      strict: weakened tests: test_000.py: a new file that switches tests off (1 skip marker) [tests-skipped, high]
      strict: weakened tests: unittest/__init__.py: adds a module of a test runner's name, which runs instead of the runner [runner-changed, high, 2 pieces]
      strict: weakened tests: unittest/__main__.py: adds a module of a test runner's name, which runs instead of the runner [runner-changed, high, 2 pieces]
    ");
}

// Attack (red team, helper 45): the same runner shadow as sourceless bytecode. Python
// imports `unittest.pyc` beside the run, with no `unittest.py`, in place of the
// standard library's (and `unittest/__main__.pyc` in a package of that name), so
// `python3 -m unittest` runs the agent's module and exits 0; the runner-changed
// rule read only `.py` names, and the compiled-module rule only the code's own
// names, so the gate verified the broken goal again, saw it pass and said nothing.
#[test]
fn a_compiled_module_shadowing_the_runner_of_a_goal_done_on_the_base_fails_the_gate() {
    for compiled in ["unittest.pyc", "unittest/__main__.pyc"] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        t.write("calc.py", "def add(a, b):\n    return a - b\n");
        t.write("shadow.py", "raise SystemExit(0)\n");
        let out = Command::new("python3")
            .args(["-c", "import py_compile, sys; py_compile.compile('shadow.py', cfile=sys.argv[1], doraise=True)", compiled])
            .current_dir(t.root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        std::fs::remove_file(t.root().join("shadow.py")).unwrap();
        if compiled.starts_with("unittest/") {
            t.write("unittest/__init__.py", "");
        }
        t.commit_all("refactor");
        let run = t.run(&["audit", "--base", &base, "--strict"]);
        assert_eq!(run.code, 1, "{compiled}: the gate passed\n{}", run.stdout);
        assert!(
            run.stdout.lines().any(|l| l.contains("strict:")
                && l.contains(compiled)
                && l.contains("runner-changed")),
            "{compiled}: no runner-changed finding\n{}",
            run.stdout
        );
    }
}

// Attack (red team, helper 45): unittest's `load_tests` protocol. A test module's
// `load_tests(loader, tests, pattern)` returns the suite unittest runs in place of
// the module's own tests; one that leaves `tests` out runs a smoke test instead.
// `test_add` and its assertion stay in the file, the run is not empty, and the
// gate verified the broken goal again, saw it pass and found nothing.
#[test]
fn a_load_tests_that_drops_the_modules_tests_fails_the_gate() {
    let t = unittest_repo();
    let base = unittest_goal_done_on_main(&t);
    t.write("calc.py", "def add(a, b):\n    return a - b\n");
    let test = t.read("test_calc.py");
    t.write(
        "test_calc.py",
        format!("{test}\n\nclass Smoke(unittest.TestCase):\n    def test_smoke(self):\n        self.assertTrue(callable(add))\n\n\ndef load_tests(loader, tests, pattern):\n    return loader.loadTestsFromTestCase(Smoke)\n"),
    );
    t.commit_all("refactor");
    let run = t.run(&["audit", "--base", &base, "--strict"]);
    assert_eq!(run.code, 1, "the gate passed\n{}", run.stdout);
    assert!(
        run.stdout.lines().any(|l| l.contains("strict:")
            && l.contains("test_calc.py")
            && l.contains("load_tests")),
        "no finding\n{}",
        run.stdout
    );
    // An honest one adds doctests to the module's own tests and keeps them.
    let t = unittest_repo();
    let base = unittest_goal_done_on_main(&t);
    t.write(
        "test_calc.py",
        format!("import doctest\n{test}\n\ndef load_tests(loader, tests, pattern):\n    tests.addTests(doctest.DocTestSuite(\"calc\"))\n    return tests\n"),
    );
    t.commit_all("doctests");
    let run = t.run(&["audit", "--base", &base, "--strict"]);
    assert_eq!(run.code, 0, "{}", run.stdout);
}

/// The gate's run on a pull request that breaks goal `w` (its verify `verify`), done
/// on the base, through the person's own helper: `files` are the test, the helper
/// and the code, committed before plan.md (so none is any goal's work and the
/// judge is not asked); the goal's work writes `code` into the third file; the pull
/// request writes `broken` into the helper and `test` into the test file, with
/// CI's judge rejecting.
/// A repository whose `files` the person committed before plan came in, with goal
/// `w` (`verify`) started, its work (`code` at `code_path`) signed off and committed on
/// `main`, then checked out on a new branch `pr`: the test and the base commit.
fn persons_goal_done(
    verify: &str,
    files: &[(&str, &str)],
    code_path: &str,
    code: &str,
) -> (Test, String) {
    let t = claude_repo(&PR_PLAN.replace("VERIFY", verify));
    let plan = t.read("plan.md");
    std::fs::remove_file(t.root().join("plan.md")).unwrap();
    for (path, text) in files {
        t.write(path, text);
    }
    t.commit_all("the person's code");
    t.write("plan.md", &plan);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.commit_all("plan");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.write(code_path, code);
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add works"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    (t, base)
}

fn persons_helper_broken(
    verify: &str,
    files: [(&str, &str); 3],
    code: &str,
    broken: &str,
    test: &str,
) -> Run {
    let [(test_path, _), (helper, _), (code_path, _)] = files;
    let (t, base) = persons_goal_done(verify, &files, code_path, code);
    t.write(helper, broken);
    t.write(test_path, test);
    t.commit_all("tidy");
    user_judge(&t, "reject");
    gate(&t, &base)
}

// Attack (red team, helper 45): a goal done on the base broken through a helper the
// person had before plan came in (no goal's work, so verified again only, no judge),
// and its test switched off by setting attributes after the class: the skip flag
// `@unittest.skip` sets, set by hand, the test method replaced by assignment, or
// the test case's own `assertEqual` replaced on the instance as it is set up.
// The test and its assertion stay in the file: `python3 -m unittest` ran, said OK,
// and the whole gate (CI's judge rejecting, never asked) passed.
#[test]
fn a_test_switched_off_by_its_class_attributes_fails_the_gate() {
    let set_up = TEST_CALC.replace(
        "    def test_add",
        "    def setUp(self):\n        self.assertEqual = lambda *a, **k: None\n\n    def test_add",
    );
    for (how, test) in [
        (
            "skip flag",
            format!("{TEST_CALC}T.__unittest_skip__ = True\n"),
        ),
        (
            "replaced",
            format!("{TEST_CALC}T.test_add = lambda self: None\n"),
        ),
        ("check replaced", set_up),
    ] {
        let run = persons_helper_broken(
            "python3 -m unittest -q",
            [
                ("test_calc.py", TEST_CALC),
                ("ops.py", "def plus(a, b):\n    return a + b\n"),
                (
                    "calc.py",
                    "from ops import plus\n\ndef add(a, b):\n    return 0\n",
                ),
            ],
            "from ops import plus\n\ndef add(a, b):\n    return plus(a, b)\n",
            "def plus(a, b):\n    return a - b\n",
            &test,
        );
        assert_eq!(run.code, 1, "{how}: the gate passed\n{}", run.stdout);
        assert!(
            run.stdout.contains("tests-skipped") || run.stdout.contains("framework-patched"),
            "{how}: no finding\n{}",
            run.stdout
        );
    }
}

// Attack (red team, helper 45): `process.exit(0)` put at the top of a JavaScript
// test file, above its tests. `node --test` runs each file in a process of its own
// and counts a file that exits 0 as one passing test, so a goal done on the base,
// broken through the person's own helper (verified again only, no judge asked),
// passed the whole gate; Python's exit at a test module's top was a switch-off
// already, JavaScript's was not read. So did node:assert's `strictEqual` replaced
// at the file's top (framework-patched read Python alone).
#[test]
fn a_process_exit_above_a_javascript_files_tests_fails_the_gate() {
    for (how, from, to) in [
        ("exit", "test('adds'", "process.exit(0);\ntest('adds'"),
        (
            "check replaced",
            "const { add }",
            "assert.strictEqual = () => {};\nconst { add }",
        ),
    ] {
        let test = "const test = require('node:test');\nconst assert = require('node:assert');\nconst { add } = require('../calc');\n\ntest('adds', () => {\n  assert.strictEqual(add(2, 3), 5);\n});\n";
        let run = persons_helper_broken(
            "node --test",
            [
                ("test/calc.test.js", test),
                ("ops.js", "exports.plus = (a, b) => a + b;\n"),
                (
                    "calc.js",
                    "const { plus } = require('./ops');\nexports.add = (a, b) => 0;\n",
                ),
            ],
            "const { plus } = require('./ops');\nexports.add = (a, b) => plus(a, b);\n",
            "exports.plus = (a, b) => a - b;\n",
            &test.replace(from, to),
        );
        assert_eq!(run.code, 1, "{how}: the gate passed\n{}", run.stdout);
        assert!(
            run.stdout.contains("tests-skipped") || run.stdout.contains("framework-patched"),
            "{how}: no finding\n{}",
            run.stdout
        );
    }
}

// Attack: a pull request breaks a goal done on the base where its verify does not
// look (`add`, the goal's work, now returns the one answer its test checks).
// Verified again it passes, and CI's own judge, which rejects the work, was never
// asked: the gate passed. A goal whose work the pull request changes is judged
// again now; one it touches only through a verify that runs a program is not.
#[test]
fn a_goal_done_on_the_base_whose_work_the_pull_request_changes_is_judged_again() {
    let t = calc_base();
    t.ok(&["start", "w", "--no-verify"]);
    t.commit_all("start");
    // Long enough that git sees it moved.
    let padding = "# calc\n".repeat(20);
    t.write(
        "calc.py",
        format!("{padding}def add(a, b):\n    return a + b\n"),
    );
    t.commit_all("add");
    t.ok(&["complete", "w", "--evidence", "add works"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    // Another file: verified again, not judged (CI's judge would reject anything).
    t.write("notes.py", "NOTE = 1\n");
    t.commit_all("notes");
    user_judge(&t, "reject");
    let gate = ["audit", "--base", &base, "--strict", "--rejudge"];
    let run = t.ok(&gate);
    let said: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("reverify"))
        .collect();
    insta::assert_snapshot!(said.join("\n"), @r#"  reverify: passed"#);
    // The goal's own work.
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("simplify");
    let run = t.run(&gate).code(1);
    let said: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("rejudge"))
        .collect();
    insta::assert_snapshot!(said.join("\n"), @r#"  rejudge: verify passed; judge reject: eviction policy has no test that fills the cache past capacity; load-test.log is from before the last change to src/cache.rs"#);
    // A `started` line of the pull request's own put before the base's, naming the
    // checkpoint, so that the goal's work would be nothing (the review's): the
    // base's lines decide.
    let md = t.plan_md();
    let started = md.lines().find(|l| l.contains(" w started ")).unwrap();
    let checkpoint = md.split("(checkpoint ").nth(1).unwrap()[..12].to_string();
    let at = started.rsplit(' ').next().unwrap().trim_end_matches(')');
    let forged = started.replace(at, &checkpoint);
    t.write(
        "plan.md",
        md.replace(started, &format!("{forged}\n{started}")),
    );
    t.commit_all("log");
    t.run(&gate).code(1);
    // Moved from under its name (the review's).
    t.git(&["reset", "-q", "--hard", &base]);
    t.git(&["mv", "calc.py", "mathlib.py"]);
    t.write(
        "mathlib.py",
        format!("{padding}def add(a, b):\n    return 5\n"),
    );
    let test = t.read("test_calc.py").replace("from calc", "from mathlib");
    t.write("test_calc.py", test);
    t.commit_all("rename");
    t.run(&gate).code(1);
    // A branch and a tag spelt as the checkpoint's and the start's ids, pointing
    // where the goal's work would be nothing: the ids name commits, not refs.
    t.git(&["reset", "-q", "--hard", &base]);
    let start = at.to_string();
    t.git(&["branch", &checkpoint, &start]);
    t.git(&["tag", &start, &checkpoint]);
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("simplify");
    t.run(&gate).code(1);
    // CI's judge accepting it, it passes.
    user_judge(&t, "accept");
    t.ok(&gate);
}

// Attack (issue 69): one pull request does goal `w` honestly and edits its own
// `started … at COMMIT` line, to name the sign-off's checkpoint (fetched by the
// workflow, in no branch's history) or to name no commit. Merged, that line is the
// base's, and the goal's work reads as nothing. A second pull request replaces the
// work with the one answer the test checks: it must be judged again. The start is
// taken from git (the commit before the one whose plan first has the goal
// started), and a line's commit counts only as an ancestor of the checkpoint and
// of HEAD.
#[test]
fn a_forged_start_on_the_base_does_not_hide_a_goals_work_from_the_gate() {
    for what in ["the checkpoint", "no commit"] {
        let t = calc_base();
        // Started, worked and signed off in one commit, as a branch squashed
        // before it is pushed: no commit has the line as plan wrote it.
        t.ok(&["start", "w", "--no-verify"]);
        let padding = "# calc\n".repeat(20);
        t.write(
            "calc.py",
            format!("{padding}def add(a, b):\n    return a + b\n"),
        );
        t.ok(&["complete", "w", "--evidence", "add works"]);
        // The lines plan wrote in this clone: CI's clone has none.
        std::fs::remove_file(t.root().join(".git/plan/logged.tsv")).unwrap();
        let md = t.plan_md();
        let started = md.lines().find(|l| l.contains(" w started ")).unwrap();
        let checkpoint = md.split("(checkpoint ").nth(1).unwrap()[..12].to_string();
        let at = started.rsplit(' ').next().unwrap().trim_end_matches(')');
        let forged = match what {
            "the checkpoint" => started.replace(at, &checkpoint),
            _ => started.replace(&format!(" at {at}"), ""),
        };
        assert_ne!(forged, started, "{what}");
        t.write("plan.md", md.replace(started, &forged));
        t.commit_all("done");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.write("calc.py", "def add(a, b):\n    return 5\n");
        t.commit_all("simplify");
        user_judge(&t, "reject");
        let gate = ["audit", "--base", &base, "--strict", "--rejudge"];
        let run = t.run(&gate);
        assert_eq!(run.code, 1, "{what}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("rejudge: verify passed; judge reject"),
            "{what}: {}",
            run.stdout
        );
        // A line naming a commit is ignored with a word (issue 69, item 1).
        let said = run.stderr.contains(&format!(
            "goal w: its started line names commit {checkpoint}, which is not a commit before its sign-off's checkpoint"
        ));
        assert_eq!(said, what == "the checkpoint", "{what}: {}", run.stderr);
    }
}

// Issue 69, item 1: a done goal with no usable start is judged again when the pull
// request changes what its verify rests on. Here the history was squashed into one
// root commit after the goal was signed off (its checkpoint kept under
// refs/plan/checkpoints), so no commit before the goal's start is on the base's
// line and the line's own commit is off it. A pull request replacing the work with
// the one answer the test checks must reach CI's judge, not only its verify.
#[test]
fn a_done_goal_with_no_usable_start_is_judged_again_when_its_work_changes() {
    let t = calc_base();
    t.ok(&["start", "w", "--no-verify"]);
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.ok(&["complete", "w", "--evidence", "add works"]);
    std::fs::remove_file(t.root().join(".git/plan/logged.tsv")).unwrap();
    t.commit_all("done");
    t.git(&["checkout", "-q", "--orphan", "squashed"]);
    t.commit_all("the whole history in one commit");
    t.git(&["branch", "-q", "-D", "main"]);
    t.git(&["branch", "-q", "-m", "main"]);
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("simplify");
    user_judge(&t, "reject");
    let run = t.run(&["audit", "--base", &base, "--strict", "--rejudge"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("rejudge: verify passed; judge reject"),
        "{}",
        run.stdout
    );
    assert!(
        run.stderr.contains("goal w: its started line names commit"),
        "{}",
        run.stderr
    );
}

// Attack (red team on issue 69, item 1): the first pull request does goal `w` on its
// branch and edits its `started … at COMMIT` line to name the sign-off's
// checkpoint's parent, the branch's last commit. Merged with a merge commit, that
// commit is in the base's history (through the merge's second parent) and an
// ancestor of the checkpoint, so the goal's work read as nothing, and a second pull
// request replacing the work passed without CI's judge. A start counts only on the
// base's first-parent line; else it is taken from that line's history, where the
// goal became started; with the base moved on meanwhile, from where the branch
// left it. Honest or not, the work is the whole branch's.
//
// Red team (stop79-red2) on the same attack: merged by fast-forward (GitHub's
// rebase merge of a branch already on the base, or a push), the branch's commits
// are the base's first-parent line itself, so the forged start (the checkpoint's
// parent) is on that line and an ancestor of the checkpoint: usable, and the
// goal's work read as nothing again.
#[test]
fn a_start_line_naming_a_merged_branchs_commit_does_not_hide_a_goals_work() {
    for how in ["merge", "merge after the base moved", "fast-forward"] {
        let t = calc_base();
        t.git(&["checkout", "-q", "-b", "pr1"]);
        // Started, and the work committed without the plan: no commit has the
        // line as plan wrote it.
        t.ok(&["start", "w", "--no-verify"]);
        let padding = "# calc\n".repeat(20);
        t.write(
            "calc.py",
            format!("{padding}def add(a, b):\n    return a + b\n"),
        );
        t.git(&["add", "calc.py"]);
        t.git(&["commit", "-q", "-m", "add"]);
        t.ok(&["complete", "w", "--evidence", "add works"]);
        // The lines plan wrote in this clone: CI's clone has none.
        std::fs::remove_file(t.root().join(".git/plan/logged.tsv")).unwrap();
        let md = t.plan_md();
        let started = md.lines().find(|l| l.contains(" w started ")).unwrap();
        let checkpoint = md.split("(checkpoint ").nth(1).unwrap()[..12].to_string();
        let parent = rev(&t, &format!("{checkpoint}^"));
        assert_eq!(parent, rev(&t, "HEAD"), "the checkpoint's parent");
        let at = started.rsplit(' ').next().unwrap().trim_end_matches(')');
        t.write(
            "plan.md",
            md.replace(started, &started.replace(at, &parent[..12])),
        );
        t.commit_all("done");
        t.git(&["checkout", "-q", "main"]);
        if how == "merge after the base moved" {
            t.write("other.txt", "meanwhile\n");
            t.commit_all("meanwhile");
        }
        match how {
            "fast-forward" => t.git(&["merge", "-q", "--ff-only", "pr1"]),
            _ => t.git(&["merge", "-q", "--no-ff", "-m", "Merge pr1", "pr1"]),
        };
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr2"]);
        user_judge(&t, "reject");
        let gate = ["audit", "--base", &base, "--strict", "--rejudge"];
        // A file beside the work: verified again, not judged (CI's judge rejects
        // anything), so the start was found, not given up on.
        t.write("notes.py", "NOTE = 1\n");
        t.commit_all("notes");
        let run = t.ok(&gate);
        assert!(run.stdout.contains("reverify: passed"), "{}", run.stdout);
        t.write("calc.py", "def add(a, b):\n    return 5\n");
        t.commit_all("simplify");
        let run = t.run(&gate);
        assert_eq!(run.code, 1, "{how}: {}\n{}", run.stdout, run.stderr);
        assert!(
            run.stdout.contains("rejudge: verify passed; judge reject"),
            "{how}: {}",
            run.stdout
        );
        // CI's judge accepting it, it passes: the start is no failure of its own.
        user_judge(&t, "accept");
        t.ok(&gate);
    }
}

// The honest side: a pull request that adds a test to a goal done on the base, and
// changes the code it covers without breaking it, passes.
#[test]
fn a_stronger_test_for_a_goal_done_on_the_base_passes_the_gate() {
    let t = unittest_repo();
    let base = unittest_goal_done_on_main(&t);
    t.write("calc.py", "def add(a, b):\n    return b + a\n");
    t.write(
        "test_more.py",
        "import unittest\nfrom calc import add\n\nclass M(unittest.TestCase):\n    def test_zero(self):\n        self.assertEqual(add(0, 3), 3)\n",
    );
    t.commit_all("more tests");
    let run = t.ok(&["audit", "--base", &base, "--strict"]);
    assert!(run.stdout.contains("reverify: passed"), "{}", run.stdout);
}

// Attack on the gate's reach: a goal the base has as imported done (`plan import`
// of another tool's export, which carries its verify) is broken by the pull
// request through the very file its verify checks. The gate re-runs only goals
// signed off here, so it shows no goal and passes; `plan audit --reverify` skips
// it too. A goal that reads done is broken, and nothing says so.
#[test]
fn a_pull_request_breaking_an_imported_done_goal_fails_the_gate() {
    let verify = "grep -q 'a + b' calc.py";
    // Another repository's export of the goal, done there.
    let there = Test::new().plan(&format!(
        "# Plan: Elsewhere\n\n## Goal: Add works\n<!-- id: add -->\nstatus: active\ndone_when: add adds\nverify: {verify}\n\n## Log\n"
    ));
    there.write("calc.py", "def add(a, b):\n    return a + b\n");
    there.ok(&["start", "add"]);
    there.ok(&[
        "complete",
        "add",
        "--evidence",
        "add adds",
        "--judge",
        "none",
    ]);
    let export = there.ok(&["export"]).stdout;
    let t = Test::new().plan("# Plan: G\n\n## Log\n");
    t.write("export.json", export);
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.ok(&["import", "export.json"]);
    t.ok(&["review", "--approve"]);
    assert!(t.plan_md().contains("add imported as done from plan"));
    assert!(t.plan_md().contains(&format!("verify: {verify}")));
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("calc.py", "def add(a, b):\n    return 0\n");
    t.commit_all("tidy");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
}

// Honest work that fails: a goal the base has as imported done (another tool's
// export) is signed off here, as `plan import` says to (`plan complete ID signs
// one off here`). There is no work to do, so its verify passed at the base, and
// the gate fails it on verify-green-at-start: every such sign-off is red, which
// teaches people to ignore the gate.
#[test]
fn signing_off_an_imported_done_goal_passes_the_gate() {
    let verify = "grep -q 'a + b' calc.py";
    let there = Test::new().plan(&format!(
        "# Plan: Elsewhere\n\n## Goal: Add works\n<!-- id: add -->\nstatus: active\ndone_when: add adds\nverify: {verify}\nfailure_modes:\n- add ignores its arguments\n\n## Log\n"
    ));
    there.write("calc.py", "def add(a, b):\n    return a + b\n");
    there.ok(&["start", "add"]);
    there.ok(&[
        "complete",
        "add",
        "--evidence",
        "add adds",
        "--judge",
        "none",
    ]);
    let export = there.ok(&["export"]).stdout;
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan("# Plan: G\n\n## Log\n");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("export.json", export);
    t.write("calc.py", "def add(a, b):\n    return a + b\n");
    t.ok(&["import", "export.json"]);
    t.ok(&["review", "--approve"]);
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&[
        "complete",
        "add",
        "--evidence",
        "add adds",
        "--path",
        "calc.py",
    ]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    t.ok(&["audit", "--base", &base, "--strict", "--rejudge"]);
}

// Attack: a new goal whose verify can never fail and names no file in the
// repository: `echo ok | grep -q ok`, `test -r /dev/null`, `git --version`,
// `expr 1`. `plan add` does not warn, red first sees it pass at the start, but
// with no file named, any change to the repository counts as "something it rests
// on changed", so the work touching one unrelated file clears it. (`true`,
// `test 1`, `test -d /`, `env true`, `timeout 5 true`, `python3 -c 1`,
// `sh -c 'exit 0'`, `test -n ok` are caught already.)
#[test]
fn verifies_that_cannot_fail_and_name_no_file_fail_the_gate() {
    let mut missed = Vec::new();
    for verify in [
        "echo ok | grep -q ok",
        "test -r /dev/null",
        "git --version",
        "expr 1",
    ] {
        let t = Test::new();
        let claude = fixture_path("judges/claude-accept");
        t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
        let t = t.with_bin().plan("# Plan: Gate\n\n## Log\n");
        t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
        t.write("README.md", "# Hello\n");
        t.commit_all("base");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.ok(&[
            "add",
            "Work",
            "--done-when",
            "the feature works",
            "--verify",
            verify,
            "--failure-mode",
            "faked",
        ]);
        t.commit_all("add");
        t.ok(&["start", "work"]);
        t.commit_all("start");
        t.write("feature.txt", "x\n");
        t.commit_all("work");
        t.ok(&["complete", "work", "--evidence", "the feature works"]);
        t.commit_all("sign off");
        user_judge(&t, "accept");
        let run = t.run(&["audit", "--base", &base, "--strict", "--rejudge"]);
        if run.code == 0 {
            missed.push(verify);
        }
    }
    assert!(missed.is_empty(), "gate green on: {missed:?}");
}

/// `PR_PLAN` as a second plan file, `docs/side.md`, whose goal `side` has `verify`.
fn side_plan(verify: &str) -> String {
    PR_PLAN
        .replace("# Plan: Gate", "# Plan: Side")
        .replace("<!-- id: w -->", "<!-- id: side -->")
        .replace("VERIFY", verify)
}

/// The test of `sq` in `q.py`, which returns 4: red until `sq` squares.
const SQ_TEST: &str = "import unittest\nfrom q import sq\n\nclass T(unittest.TestCase):\n    def test_sq(self):\n        self.assertEqual(sq(2), 4)\n        self.assertEqual(sq(3), 9)\n";

/// `docs/side.md` beside plan.md, its goal `side` verified by `SQ_TEST`, committed
/// on `main`; on a branch `pr`, `side` started (red) and committed. Returns the
/// base's sha.
fn side_started_on_pr() -> (Test, String) {
    let t = pr_repo("true");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("q.py", "def sq(x):\n    return 4\n");
    t.write("test_q.py", SQ_TEST);
    t.write("docs/side.md", side_plan("python3 -m unittest test_q"));
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["--file", "docs/side.md", "start", "side"]);
    t.commit_all("start");
    (t, base)
}

// Attack (stop 58's open item): the weakening above, with the goal in a second
// plan file. Another plan file's goals were proven and judged again, never held
// to --strict: an assertion taken out of the test passed the gate.
#[test]
fn a_test_weakened_for_a_goal_of_another_plan_file_fails_the_gate() {
    let (t, base) = side_started_on_pr();
    let side = ["--file", "docs/side.md"];
    t.write(
        "test_q.py",
        SQ_TEST.replace("        self.assertEqual(sq(3), 9)\n", ""),
    );
    t.commit_all("tidy");
    t.ok(&[
        &side[..],
        &["complete", "side", "--evidence", "the tests pass"],
    ]
    .concat());
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
    insta::assert_snapshot!(other_file_lines(&t, &["audit", "--base", &base, "--strict", "--rejudge"]), @r#"
⚠ docs/side.md: side: strict: weakened tests: test_q.py: 1 of 2 assertions removed [assertions-removed, high]
· docs/side.md: side: rejudge: verify passed; judge accept
    "#);
}

/// The report's lines about `docs/side.md`, of a run that fails.
fn other_file_lines(t: &Test, args: &[&str]) -> String {
    let run = t.run(args).code(1);
    let shown = redact(t, &run.stdout);
    let said: Vec<&str> = shown
        .lines()
        .filter(|l| l.contains("docs/side.md"))
        .collect();
    said.join("\n")
}

/// `docs/side.md` beside plan.md, its goal `side` (verify `sh check.sh`, the script
/// `check` gives) signed off and committed on `main`, README.md saying hello; `pr`
/// branched from there. Returns the base's sha.
fn side_done_on_main(check: impl Fn(&Test) -> String) -> (Test, String) {
    let t = pr_repo("true");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("docs/side.md", side_plan("sh check.sh"));
    t.write("check.sh", check(&t));
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let side = ["--file", "docs/side.md"];
    t.ok(&[&side[..], &["start", "side"]].concat());
    t.commit_all("start");
    t.ok(&[
        &side[..],
        &["complete", "side", "--evidence", "README.md says hello"],
    ]
    .concat());
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    (t, base)
}

// Attack (stop 58's open item): a goal done on the base in a second plan file, its
// README emptied by the pull request. A goal of plan.md is verified again; one of
// another plan file was not looked at, and the gate passed.
#[test]
fn a_pull_request_that_breaks_a_goal_done_in_another_plan_file_fails_the_gate() {
    let (t, base) = side_done_on_main(|_| "grep -q Hello README.md\n".to_string());
    t.write("README.md", "");
    t.commit_all("tidy");
    insta::assert_snapshot!(other_file_lines(&t, &["audit", "--base", &base]), @"⚠ docs/side.md: side: reverify failed: `sh check.sh` exited 1");
}

// The two jobs hold another plan file's goals as they hold plan.md's: the verify
// job runs them, its results naming the file, and the judge's job runs none of
// them. Before, such a goal done on the base was not looked at.
#[test]
fn as_two_jobs_another_plan_files_goals_are_verified_in_the_verify_job_only() {
    let mark = |t: &Test| t.dir.path().join("verify-ran");
    let (t, base) =
        side_done_on_main(|t| format!("touch '{}'\ngrep -q Hello README.md\n", mark(t).display()));
    let ran = mark(&t);
    user_judge(&t, "accept");
    let results = t.dir.path().join("results.json");
    let file = results.to_str().unwrap();
    let two_jobs = || {
        std::fs::remove_file(&ran).ok();
        t.ok(&["audit", "--base", &base, "--verify-only", "--results", file]);
        assert!(ran.exists(), "the verify job did not run the goal's verify");
        std::fs::remove_file(&ran).unwrap();
        let judged = t.run(&["audit", "--base", &base, "--rejudge", "--verified", file]);
        assert!(!ran.exists(), "the judge's job ran the pull request's code");
        judged
    };
    t.write("notes.txt", "unrelated\n");
    t.commit_all("notes");
    let judged = two_jobs().code(0);
    insta::assert_snapshot!(redact(&t, &judged.stdout), @r#"
· docs/side.md: side: reverify: passed
0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 0 failing
"#);
    t.write("README.md", "");
    t.commit_all("tidy");
    let judged = two_jobs().code(1);
    insta::assert_snapshot!(redact(&t, &judged.stdout), @r#"
⚠ docs/side.md: side: reverify failed: `sh check.sh` exited 1
0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 1 failing
"#);
    // The verify job's word for the goal left out of the file fails it; a plan
    // file the gate runs nothing of, named in it, is refused.
    let text = std::fs::read_to_string(&results).unwrap();
    let mut json: serde_json::Value = serde_json::from_str(&text).unwrap();
    json["goals"].as_array_mut().unwrap().clear();
    std::fs::write(&results, json.to_string()).unwrap();
    let args = ["audit", "--base", &base, "--rejudge", "--verified", file];
    insta::assert_snapshot!(other_file_lines(&t, &args), @"⚠ docs/side.md: side: reverify failed: the verify job reported nothing for this goal");
    json["goals"] = serde_json::json!([{"id": "x", "file": "docs/else.md", "verify": null, "passed": true, "failure": null, "tail": "", "made": [], "at_start": []}]);
    std::fs::write(&results, json.to_string()).unwrap();
    let refused = t
        .run(&["audit", "--base", &base, "--rejudge", "--verified", file])
        .code(3);
    insta::assert_snapshot!(redact(&t, &refused.stderr), @r#"
plan: refusing the verify results [TMP]/results.json: it names goal "x" of "docs/else.md", which the gate does not re-judge
  hint: use the file `plan audit --base REV --verify-only --results FILE` wrote on this commit; the gate fails closed on anything else
"#);
}

// Honest work in a second plan file passes the strict gate, in one job and as two:
// its test red at the start, the code written, the goal signed off.
#[test]
fn a_goal_signed_off_honestly_in_another_plan_file_passes_the_strict_gate() {
    let (t, base) = side_started_on_pr();
    let side = ["--file", "docs/side.md"];
    t.write("q.py", "def sq(x):\n    return x * x\n");
    t.commit_all("work");
    t.ok(&[
        &side[..],
        &["complete", "side", "--evidence", "the tests pass"],
    ]
    .concat());
    t.commit_all("sign off");
    user_judge(&t, "accept");
    let strict = ["audit", "--base", &base, "--strict", "--rejudge"];
    let one_job = t.ok(&strict);
    let results = t.dir.path().join("results.json");
    let file = results.to_str().unwrap();
    t.ok(&["audit", "--base", &base, "--verify-only", "--results", file]);
    let two_jobs = t.ok(&[&strict[..], &["--verified", file]].concat());
    assert_eq!(one_job.stdout, two_jobs.stdout);
    insta::assert_snapshot!(redact(&t, &two_jobs.stdout), @r#"
· docs/side.md: side: rejudge: verify passed; judge accept
0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 0 failing
"#);
}

/// A repository whose plan.md has an open goal and `docs/side.md` (as `side`)
/// nothing yet: the base, committed on `main`, and a branch `pr` from it.
fn pr_beside_a_side_plan() -> (Test, String) {
    let t = pr_repo("true");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    (t, base)
}

/// How a test lays a plan file out in the repository.
type Shape<'a> = Box<dyn Fn(&Test) + 'a>;

/// `side_plan`'s goal set done by hand, with no sign-off.
fn done_by_hand(plan: &str) -> String {
    plan.replace("status: active", "status: done")
}

// Attack (the red team of other plan files): a goal set done by hand in a plan
// file the gate did not count as one: no `# Plan:` title, its name in capitals,
// kept behind a link, or with a byte that is not UTF-8. `plan --file` reads each;
// the gate passed each.
#[test]
fn a_goal_done_by_hand_in_a_plan_file_of_any_shape_fails_the_gate() {
    let side = done_by_hand(&side_plan("test -f README.md"));
    let shapes: [(&str, Shape); 9] = [
        (
            "no title",
            Box::new(|t: &Test| t.write("docs/side.md", side.replace("# Plan: Side\n", ""))),
        ),
        (
            "capitals",
            Box::new(|t: &Test| t.write("docs/side.MD", &side)),
        ),
        (
            "a link",
            Box::new(|t: &Test| {
                t.write("notes/side.txt", &side);
                std::fs::create_dir_all(t.path("docs")).unwrap();
                std::os::unix::fs::symlink("../notes/side.txt", t.path("docs/side.md")).unwrap();
            }),
        ),
        (
            "through a linked directory",
            Box::new(|t: &Test| {
                t.write("notes/side.txt", &side);
                std::os::unix::fs::symlink("notes", t.path("lnk")).unwrap();
                std::fs::create_dir_all(t.path("docs")).unwrap();
                std::os::unix::fs::symlink("../lnk/side.txt", t.path("docs/side.md")).unwrap();
            }),
        ),
        (
            "an absolute link",
            Box::new(|t: &Test| {
                t.write("notes/side.txt", &side);
                std::fs::create_dir_all(t.path("docs")).unwrap();
                std::os::unix::fs::symlink(t.path("notes/side.txt"), t.path("docs/side.md"))
                    .unwrap();
            }),
        ),
        (
            "markdown",
            Box::new(|t: &Test| t.write("docs/side.markdown", &side)),
        ),
        (
            "a NUL byte",
            Box::new(|t: &Test| t.write("docs/side.md", format!("{side}<!-- \0 -->\n"))),
        ),
        (
            "a name not UTF-8",
            Box::new(|t: &Test| {
                use std::os::unix::ffi::OsStrExt;
                let name = std::ffi::OsStr::from_bytes(b"docs/side\xff.md");
                std::fs::create_dir_all(t.path("docs")).unwrap();
                std::fs::write(t.path("").join(name), &side).unwrap();
            }),
        ),
        (
            "not UTF-8",
            Box::new(|t: &Test| {
                let mut bytes = side.clone().into_bytes();
                bytes.extend(b"<!-- \xff -->\n");
                std::fs::create_dir_all(t.path("docs")).unwrap();
                std::fs::write(t.path("docs/side.md"), bytes).unwrap();
            }),
        ),
    ];
    let mut said = Vec::new();
    for (shape, write) in &shapes {
        let (t, base) = pr_beside_a_side_plan();
        write(&t);
        t.commit_all("side");
        let run = t.run(&["audit", "--base", &base]).code(1);
        let lines: Vec<String> = redact(&t, &run.stdout)
            .lines()
            .filter(|l| l.contains("docs/side"))
            .map(|l| format!("{shape}: {l}"))
            .collect();
        said.extend(lines);
    }
    insta::assert_snapshot!(said.join("\n"), @r#"
no title: ⚠ docs/side.md: side: unproven: marked done by hand: the log has no sign-off for it
capitals: ⚠ docs/side.MD: side: unproven: marked done by hand: the log has no sign-off for it
a link: ⚠ docs/side.md: side: unproven: marked done by hand: the log has no sign-off for it
through a linked directory: ⚠ docs/side.md: side: unproven: marked done by hand: the log has no sign-off for it
an absolute link: ⚠ docs/side.md: side: unproven: marked done by hand: the log has no sign-off for it
markdown: ⚠ docs/side.markdown: side: unproven: marked done by hand: the log has no sign-off for it
a NUL byte: ⚠ docs/side.md: side: unproven: marked done by hand: the log has no sign-off for it
a name not UTF-8: ⚠ docs/side�.md: cannot be read at the head (No such file or directory (os error 2)); a plan file is UTF-8 text under a UTF-8 name
not UTF-8: ⚠ docs/side.md: cannot be read at the head (stream did not contain valid UTF-8); a plan file is UTF-8 text under a UTF-8 name
"#);
}

// Attack (the red team of other plan files): a goal done on the base in another
// plan file, its work broken by the pull request, and its proof broken too (a
// reopen line written by hand beside `status: done`), so the gate left it out.
// plan.md's goal so treated fails as unproven.
#[test]
fn a_goal_done_on_the_base_in_another_plan_file_made_unproven_fails_the_gate() {
    let (t, base) = side_done_on_main(|_| "grep -q Hello README.md\n".to_string());
    t.write("README.md", "");
    let md = t.read("docs/side.md");
    t.write(
        "docs/side.md",
        format!("{md}- 2026-01-01 10:00 side reopened: tidy\n"),
    );
    t.commit_all("tidy");
    insta::assert_snapshot!(other_file_lines(&t, &["audit", "--base", &base]), @"⚠ docs/side.md: side: unproven: its log lines are out of time order (log line 15 is stamped before log line 13): lines were moved");
}

// Attack (the red team of other plan files; older than them): a base without
// plan.md, and a pull request that adds it with a goal signed off on nothing (its
// verify passed before any work). With no file on the base to compare, nothing was
// in scope: CI's judge, which rejects it, was never asked, and the gate passed.
#[test]
fn a_plan_md_the_pull_request_adds_is_held_as_new() {
    let t = pr_repo("test -f README.md");
    t.write("README.md", "# Hello\n");
    let plan = t.read("plan.md");
    std::fs::remove_file(t.path("plan.md")).unwrap();
    t.commit_all("base without a plan");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("plan.md", plan);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.ok(&["start", "w", "--no-verify"]);
    t.ok(&["complete", "w", "--evidence", "README.md is there"]);
    t.commit_all("plan it and call it done");
    user_judge(&t, "reject");
    let run = t.run(&["audit", "--base", &base, "--rejudge"]).code(1);
    let said: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.contains("rejudge"))
        .collect();
    insta::assert_snapshot!(said.join("\n"), @"  rejudge: verify passed; judge reject: eviction policy has no test that fills the cache past capacity; load-test.log is from before the last change to src/cache.rs");
}

/// The head of `tests/test_calc.py`, whose test checks `add`.
const CALC_HEAD: &str = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n";

/// The assertion that fails when `add` is faked to return 5.
const CALC_BIG: &str = "        self.assertEqual(add(10, 1), 11)\n";

/// `w` started on a branch `pr` of a base where `tests/test_calc.py` checks `add`
/// twice; `work` changes the tests, `add` is faked to pass the one left, `w` is
/// signed off and CI's judge accepts. The gate must fail: returns its strict lines.
fn calc_faked_beside(work: impl FnOnce(&Test, &str)) -> String {
    let t = pr_repo("python3 -m unittest discover -s tests -t .");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("tests/__init__.py", "");
    let small =
        format!("{CALC_HEAD}    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n");
    t.write("tests/test_calc.py", format!("{small}{CALC_BIG}"));
    t.write("calc.py", "def add(a, b):\n    return 0\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    t.commit_all("start");
    work(&t, &small);
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add adds"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    gate_fails(&t, &base);
    crate::weakened::strict_lines(&t, &["--base", &base])
}

// Attack (the last adversary of stop 58): the base's test renamed with an
// assertion taken out, beside a new test file of its own; the code faked. The new
// file's assertion made up for the lost one, and the gate passed. The rename alone
// was caught.
#[test]
fn a_test_renamed_without_an_assertion_beside_a_new_test_file_fails_the_gate() {
    let said = calc_faked_beside(|t, small| {
        t.git(&["rm", "-q", "tests/test_calc.py"]);
        t.write("tests/test_a.py", small);
        t.write(
            "tests/test_b.py",
            "import unittest\n\nclass U(unittest.TestCase):\n    def test_x(self):\n        self.assertTrue(True)\n",
        );
    });
    insta::assert_snapshot!(said, @"  strict: weakened tests: tests/test_a.py: 1 of 2 assertions removed, renamed from tests/test_calc.py [assertions-removed, high]");
}

// Attack (the netting red team's): the assertion that fails taken out, and copied
// word for word into a new test file's test that a skip marker switches off. The
// new file made up for the loss: it runs nothing.
#[test]
fn an_assertion_moved_into_a_skipped_test_of_a_new_file_fails_the_gate() {
    let said = calc_faked_beside(|t, small| {
        t.write("tests/test_calc.py", small);
        t.write(
            "tests/test_big.py",
            format!("{CALC_HEAD}    @unittest.skip('later')\n    def test_big(self):\n{CALC_BIG}"),
        );
    });
    insta::assert_snapshot!(said, @"  strict: weakened tests: tests/test_calc.py: 1 of 2 assertions removed [assertions-removed, high]");
}

// Honest pull requests (the review's): a link to plan.md is not a second plan, and
// a plan-shaped fixture of goals set done by hand, which the pull request does not
// change, fails nothing; changed, it is held.
#[test]
fn a_link_to_plan_md_and_an_untouched_fixture_fail_nothing() {
    let (t, base) = {
        let t = pr_repo("true");
        t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
        t.write("README.md", "# Hello\n");
        t.write(
            "tests/fixtures/done.md",
            done_by_hand(&side_plan("test -f README.md")),
        );
        std::os::unix::fs::symlink("plan.md", t.path("PLAN-link.md")).unwrap();
        t.commit_all("base");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        (t, base)
    };
    t.write("notes.txt", "unrelated\n");
    t.commit_all("notes");
    let run = t.ok(&["audit", "--base", &base]);
    insta::assert_snapshot!(redact(&t, &run.stdout), @"0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 0 failing");
    let md = t.read("tests/fixtures/done.md");
    t.write(
        "tests/fixtures/done.md",
        format!("{md}- 2026-01-01 10:00 a note\n"),
    );
    t.commit_all("fixture");
    let run = t.run(&["audit", "--base", &base]).code(1);
    let said: Vec<String> = redact(&t, &run.stdout)
        .lines()
        .filter(|l| l.contains("fixtures"))
        .map(str::to_string)
        .collect();
    insta::assert_snapshot!(said.join("\n"), @"⚠ tests/fixtures/done.md: side: unproven: marked done by hand: the log has no sign-off for it");
}

// Attack (the last adversary): a plan file of the base, with a goal done, replaced
// by a link to plan.md while the pull request breaks the goal's work. A link to
// plan.md is plan.md, so the file and its goal went unseen.
#[test]
fn a_plan_file_replaced_by_a_link_to_plan_md_loses_its_goals() {
    let (t, base) = side_done_on_main(|_| "grep -q Hello README.md\n".to_string());
    t.write("README.md", "");
    std::fs::remove_file(t.path("docs/side.md")).unwrap();
    std::os::unix::fs::symlink("../plan.md", t.path("docs/side.md")).unwrap();
    t.commit_all("tidy");
    let run = t.run(&["audit", "--base", &base]).code(1);
    let said: Vec<String> = redact(&t, &run.stdout)
        .lines()
        .filter(|l| l.contains("side"))
        .map(str::to_string)
        .collect();
    insta::assert_snapshot!(said.join("\n"), @r#"
⚠ docs/side.md:13 of the base ([COMMIT]) was removed here: `2026-06-15 14:02 side started (contract fb85ca51, verify passing at [COMMIT])`
⚠ docs/side.md:14 of the base ([COMMIT]) was removed here: `2026-06-15 14:02 side signed off (verify passed, judge claude accept, contract fb85ca51): .plan/judge/side-20260615-1402.md#[HASH] (checkpoint [COMMIT])`
⚠ goal side (docs/side.md) of the base ([COMMIT]) is gone
"#);
}

// Red team (on 8d35de8, the start on the base's first-parent line): the work landed
// on the base before the goal was started, in a pull request that signs nothing
// off (nothing for CI's judge to see), and the goal started and signed off in the
// next, honestly: its `started` line names a commit of the base's own line that
// already holds the work, so the goal's work is nothing. A later pull request
// that guts that code (`return 5` passes the goal's test) is then verified again
// only, never judged: for a verify that runs a program, being touched "through
// the verify" asks no judge. Two pull requests in place of one hide a goal's
// implementation from every later re-judge.
#[test]
fn work_landed_before_the_goals_start_is_still_judged_again_when_gutted() {
    let t = unittest_repo();
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "test_calc.py",
        "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
    );
    // The repository took plan up (code landed with the plan file is the person's
    // own, charged to no goal: `a_change_to_code_older_than_the_plan_is_no_goals_work`).
    t.commit_all("plan");
    // The first pull request: the work, no sign-off.
    let padding = "# calc\n".repeat(20);
    t.write(
        "calc.py",
        format!("{padding}def add(a, b):\n    return a + b\n"),
    );
    t.commit_all("add, no goal signed off");
    // The second: the goal started on that, and signed off.
    t.ok(&["start", "w", "--no-verify"]);
    t.commit_all("start");
    t.ok(&["complete", "w", "--evidence", "add works"]);
    t.commit_all("done");
    let base = rev(&t, "main");
    // The third guts the code.
    t.git(&["checkout", "-q", "-b", "pr"]);
    user_judge(&t, "reject");
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("simplify");
    let gate = ["audit", "--base", &base, "--strict", "--rejudge"];
    let run = t.run(&gate);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
}

/// A plan of two goals, `a` and `b`, both verified by the unittest run.
const TWO_GOALS: &str = "# Plan: Gate

## Goal: A
<!-- id: a -->
status: open
done_when: add adds
verify: python3 -m unittest -q
failure_modes:
- add ignores its arguments
- [x] do it

## Goal: B
<!-- id: b -->
status: open
done_when: the tests pass
verify: python3 -m unittest -q
failure_modes:
- the tests are switched off
- [x] do it

## Log
";

/// A repository that took plan up with `plan` and `adopted` (a file's text each),
/// then had `calc.py` written with no goal in flight, then `a` started and signed
/// off, then `b`; `pr` branched from there. Returns the base's commit.
fn goals_after_unclaimed_work(plan: &str, adopted: &[(&str, &str)]) -> (Test, String) {
    let mut files = vec![("test_calc.py", TEST_CALC)];
    files.extend_from_slice(adopted);
    let t = adopted_with(plan, &files);
    if adopted.is_empty() {
        t.write("calc.py", "def add(a, b):\n    return a + b\n");
        t.commit_all("add, by hand");
    }
    for id in ["a", "b"] {
        if plan.contains(&format!("id: {id} -->")) {
            t.ok(&["start", id, "--no-verify"]);
            t.commit_all("start");
            t.ok(&["complete", id, "--evidence", "add works"]);
            t.commit_all("done");
        }
    }
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    user_judge(&t, "reject");
    t.write("calc.py", "def add(a, b):\n    return 5\n");
    t.commit_all("simplify");
    (t, base)
}

// Code written with no goal in flight is charged to the first goals started after
// it whose verify rests on it, not to every later goal: `b`, started once `a` was
// signed off, is verified again only, and `a` is judged again (and rejected).
#[test]
fn unclaimed_work_is_judged_again_through_the_first_goal_started_after_it() {
    let (t, base) = goals_after_unclaimed_work(TWO_GOALS, &[]);
    let run = t.run(&["audit", "--base", &base, "--strict", "--rejudge"]);
    assert_eq!(run.code, 1, "{}\n{}", run.stdout, run.stderr);
    let said: Vec<&str> = run.stdout.lines().collect();
    let a = said.iter().position(|l| l.starts_with("✓ a ")).unwrap();
    let b = said.iter().position(|l| l.starts_with("✓ b ")).unwrap();
    assert!(
        said[a..b]
            .iter()
            .any(|l| l.contains("rejudge: verify passed; judge reject")),
        "{}",
        run.stdout
    );
    assert!(
        !said[b..].iter().any(|l| l.contains("rejudge")),
        "{}",
        run.stdout
    );
}

// Code the repository held when it took plan up is the person's own: a change to
// it asks no judge about the goals done since (their verify still runs).
#[test]
fn a_change_to_code_older_than_the_plan_is_no_goals_work() {
    let one = TWO_GOALS.replace("<!-- id: b -->", "<!-- id: bb -->");
    let (t, base) =
        goals_after_unclaimed_work(&one, &[("calc.py", "def add(a, b):\n    return a + b\n")]);
    let run = t.run(&["audit", "--base", &base, "--strict", "--rejudge"]);
    assert_eq!(run.code, 0, "{}\n{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("reverify: passed"), "{}", run.stdout);
    assert!(!run.stdout.contains("rejudge"), "{}", run.stdout);
}

// Adversary (stop 79): a pull request breaks the work of goal `w`, done on the
// base, and pads the log with copies of `w`'s own lines (its started line, or its
// signed-off line): the gate must still fail it, neither skipping the judge nor
// passing because the prompt or the goal's status changed. Held: an appended
// started line is a contract change after the sign-off and a repeated sign-off
// reuses its transcript, so `w` is unproven before any prompt is built.
#[test]
fn padding_a_base_goals_log_lines_does_not_pass_its_broken_work() {
    let mut passed = Vec::new();
    for (what, copies) in [("started", 80_000), ("started", 1), ("signed off", 1)] {
        let t = unittest_repo();
        let base = unittest_goal_done_on_main(&t);
        std::fs::remove_file(t.root().join(".git/plan/logged.tsv")).ok();
        t.write("calc.py", "def add(a, b):\n    return 5\n");
        let md = t.plan_md();
        let line = md
            .lines()
            .find(|l| l.contains(&format!(" w {what}")))
            .unwrap_or_else(|| panic!("no {what} line:\n{md}"));
        t.write(
            "plan.md",
            format!("{md}{}", format!("{line}\n").repeat(copies)),
        );
        t.commit_all("simplify");
        user_judge(&t, "reject");
        let run = t.run(&["audit", "--base", &base, "--strict", "--rejudge"]);
        let failed_closed = run.stdout.contains("judge reject")
            || run.stdout.contains("over the gate's limit")
            || run.stdout.contains("unproven");
        if run.code == 0 || !failed_closed {
            passed.push(format!(
                "{what} x{copies} (exit {}): {}\n{}",
                run.code, run.stdout, run.stderr
            ));
        }
    }
    assert!(passed.is_empty(), "passed the gate:\n{passed:#?}");
}

/// A goal done on the base with `verify` over a unittest package (`tests/` with
/// its `__init__.py`, `tests/test_calc.py`) and a root smoke test, then broken
/// through the person's own helper (`ops.py`) in a commit that `hide` makes too:
/// the shape of the red team's attacks on unittest's discovery.
fn discovery_goal_broken(verify: &str, hide: &dyn Fn(&Test)) -> (Test, String) {
    let smoke = "import unittest\n\nclass TestSmoke(unittest.TestCase):\n    def test_sum(self):\n        self.assertEqual(1 + 1, 2)\n";
    let (t, base) = persons_goal_done(
        verify,
        &[
            ("tests/__init__.py", ""),
            (
                "tests/test_calc.py",
                &TEST_CALC.replace("class T", "class TestCalc"),
            ),
            ("test_smoke.py", smoke),
            ("ops.py", "def plus(a, b):\n    return a + b\n"),
            (
                "calc.py",
                "from ops import plus\n\ndef add(a, b):\n    return 0\n",
            ),
        ],
        "calc.py",
        "from ops import plus\n\ndef add(a, b):\n    return plus(a, b)\n",
    );
    t.write("ops.py", "def plus(a, b):\n    return a - b\n");
    hide(&t);
    t.commit_all("tidy");
    (t, base)
}

// Attack (red team, helper 45, hole 2): a tests package's `__init__.py` deleted.
// `python3 -m unittest` discovers tests only in packages below where it starts, so
// `tests/test_calc.py` stops running while a root smoke test still passes. A goal
// done on the base, broken through the person's own helper (verified again only,
// no judge asked), passed the whole gate. pytest collects the folder either way.
#[test]
fn a_tests_package_s_init_deleted_under_unittest_fails_the_gate() {
    let run = |verify: &str| {
        let (t, base) = discovery_goal_broken(verify, &|t| {
            t.git(&["rm", "-q", "tests/__init__.py"]);
        });
        user_judge(&t, "reject");
        gate(&t, &base)
    };
    let unittest = run("python3 -m unittest -q");
    assert_eq!(unittest.code, 1, "the gate passed\n{}", unittest.stdout);
    assert!(
        unittest.stdout.contains("runner-changed") && unittest.stdout.contains("tests/__init__.py"),
        "no finding on the deleted package\n{}",
        unittest.stdout
    );
}

// Attack (red team, helper 51, issue 68): the tests package hidden from unittest's
// discovery in the ways the deleted `__init__.py` rule did not read. A goal done
// on the base, broken through the person's own helper (verified again only, no
// judge asked); the verify still passes on the broken code (a smoke test runs),
// and each passed the whole gate on main:
// - `python3 -m unittest -k add` (an option's value read as a module to run) with
//   `tests/__init__.py` deleted;
// - a `load_tests` in `tests/__init__.py` that hands back only what the package's
//   own file defines (discovery leaves the package's modules to it);
// - the test module moved below a folder with no `__init__.py`.
#[test]
fn a_tests_package_hidden_from_discovery_fails_the_gate() {
    let hooked = "def load_tests(loader, tests, pattern):\n    return tests\n";
    type Hide<'a> = &'a dyn Fn(&Test);
    let attacks: [(&str, &str, Hide); 3] = [
        (
            "-k, __init__.py deleted",
            "python3 -m unittest -q -k add",
            &|t| {
                t.git(&["rm", "-q", "tests/__init__.py"]);
            },
        ),
        ("a package load_tests", "python3 -m unittest -q", &|t| {
            t.write("tests/__init__.py", hooked);
        }),
        (
            "moved out of the packages",
            "python3 -m unittest -q",
            &|t| {
                std::fs::create_dir_all(t.root().join("tests/legacy")).unwrap();
                t.git(&["mv", "tests/test_calc.py", "tests/legacy/test_calc.py"]);
            },
        ),
    ];
    let mut passed = Vec::new();
    for (how, verify, hide) in attacks {
        let (t, base) = discovery_goal_broken(verify, hide);
        // The attack is live: the verify passes on the broken code.
        let words: Vec<&str> = verify.split_whitespace().collect();
        let out = Command::new(words[0])
            .args(&words[1..])
            .current_dir(t.root())
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{how}: the verify failed\n{}",
            String::from_utf8_lossy(&out.stderr)
        );
        user_judge(&t, "reject");
        let run = gate(&t, &base);
        if run.code != 1 || !run.stdout.contains("runner-changed") {
            passed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

// Red team (helper 55): the agent's own goal, verify `sh checks/run.sh checks`,
// run.sh sourcing checks/lib.sh (the real check, there at the start). During its
// work the agent adds 300 junk files to checks/ (sorting before lib.sh), so the
// closure's 256 fill before lib.sh: lib.sh is gutted, add.sh wrong, and the
// sign-off records a closure without lib.sh. Only a low not-read is said; the gate passes.
#[test]
fn the_agent_s_own_check_gutted_past_256_junk_files_fails_the_gate() {
    // With no junk (the control) the gate fails: lib.sh changed, high.
    for junk in [0, 300] {
        let t = pr_repo("sh checks/run.sh checks");
        t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
        t.write("checks/run.sh", ". checks/lib.sh\n");
        t.write(
            "checks/lib.sh",
            "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n",
        );
        t.commit_all("base");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.ok(&["start", "w"]);
        t.commit_all("start");
        for i in 0..junk {
            t.write(&format!("checks/a_{i:03}.txt"), "x\n");
        }
        t.write("checks/lib.sh", "exit 0\n");
        t.write("add.sh", "echo 0\n");
        t.commit_all("work");
        t.run(&["complete", "w", "--evidence", "add.sh adds"]);
        t.commit_all("done");
        user_judge(&t, "accept");
        let run = gate(&t, &base);
        assert_eq!(
            run.code, 1,
            "{junk} junk files: the gate passed\n{}{}",
            run.stdout, run.stderr
        );
    }
}

// Red team (helper 59, issue 68): the agent's own goal, verify `sh checks/run.sh
// checks`, run.sh running every `checks/t_*.sh` (a globbing runner); the real
// check `checks/t_add.sh` is there at the start, add.sh not yet. The agent writes
// a wrong add.sh and takes
// the check out of the glob's reach while the runner still finds one that passes:
// - deleted, a new gutted `t_smoke.sh` beside it (git sees no rename);
// - moved out of `checks/` (git sees the rename), the gutted one beside it;
// - renamed in place and gutted (git sees a deletion and a new file).
// The closure is read from the files there now, so the check that was there at
// the start was compared with nothing and the gate passed on main.
#[test]
fn a_globbed_check_taken_out_of_the_runner_s_reach_fails_the_gate() {
    type Hide<'a> = &'a dyn Fn(&Test);
    let attacks: [(&str, Hide); 3] = [
        ("deleted, a gutted one added", &|t| {
            t.git(&["rm", "-q", "checks/t_add.sh"]);
            t.write("checks/t_smoke.sh", "exit 0\n");
        }),
        ("moved out, a gutted one added", &|t| {
            std::fs::create_dir_all(t.root().join("attic")).unwrap();
            t.git(&["mv", "checks/t_add.sh", "attic/t_add.sh"]);
            t.write("checks/t_smoke.sh", "exit 0\n");
        }),
        ("renamed in place and gutted", &|t| {
            t.git(&["mv", "checks/t_add.sh", "checks/t_sum.sh"]);
            t.write("checks/t_sum.sh", "true\n");
        }),
    ];
    let mut passed = Vec::new();
    for (how, hide) in attacks {
        let t = pr_repo("sh checks/run.sh checks");
        t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
        t.write(
            "checks/run.sh",
            "for f in checks/t_*.sh; do sh \"$f\" || exit 1; done\n",
        );
        t.write(
            "checks/t_add.sh",
            "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n",
        );
        t.commit_all("base");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.ok(&["start", "w"]);
        t.commit_all("start");
        hide(&t);
        t.write("add.sh", "echo 0\n");
        // The attack is live: the verify passes on the broken code.
        let out = Command::new("sh")
            .args(["checks/run.sh", "checks"])
            .current_dir(t.root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{how}: the verify failed");
        t.commit_all("work");
        t.run(&["complete", "w", "--evidence", "add.sh adds"]);
        t.commit_all("done");
        user_judge(&t, "accept");
        let run = gate(&t, &base);
        if run.code != 1 || !run.stdout.contains("t_add.sh") {
            passed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

// The honest twin: a file outside what the verify reads is deleted, the check
// is whole and the code right: the gate passes.
#[test]
fn a_file_the_check_never_read_deleted_passes_the_gate() {
    let t = pr_repo("sh checks/run.sh checks");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "checks/run.sh",
        "for f in checks/t_*.sh; do sh \"$f\" || exit 1; done\n",
    );
    t.write("checks/t_add.sh", "[ \"$(sh add.sh 2 3)\" = 5 ]\n");
    t.write("notes/old.sh", "echo old\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.git(&["rm", "-q", "notes/old.sh"]);
    t.write("add.sh", "echo $(($1 + $2))\n");
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "add.sh adds"]);
    t.commit_all("done");
    user_judge(&t, "accept");
    let run = gate(&t, &base);
    assert_eq!(run.code, 0, "the gate failed\n{}{}", run.stdout, run.stderr);
}

// Attack (issue 68, the closure): the runner globs its checks (`for f in
// checks/t_*.sh`) and the verify names only the runner, not the folder, so the
// checks were in no closure: gutted in place, or deleted with a passing one
// added, the gate passed on main.
#[test]
fn a_check_a_runner_globs_gutted_fails_the_gate() {
    type Hide<'a> = &'a dyn Fn(&Test);
    let attacks: [(&str, &str, Hide); 3] = [
        ("sh, gutted in place", "sh", &|t| {
            t.write("checks/t_add.sh", "true\n");
        }),
        ("sh, deleted, a passing one added", "sh", &|t| {
            t.git(&["rm", "-q", "checks/t_add.sh"]);
            t.write("checks/t_smoke.sh", "exit 0\n");
        }),
        ("python glob, gutted in place", "python3", &|t| {
            t.write("checks/t_add.sh", "true\n");
        }),
    ];
    let mut passed = Vec::new();
    for (how, runner, hide) in attacks {
        let (verify, script) = match runner {
            "sh" => (
                "sh checks/run.sh",
                "for f in checks/t_*.sh; do sh \"$f\" || exit 1; done\n",
            ),
            _ => (
                "python3 checks/run.py",
                "import glob, subprocess, sys\nfor f in sorted(glob.glob(\"checks/t_*.sh\")):\n    subprocess.run([\"sh\", f], check=True)\n",
            ),
        };
        let t = pr_repo(verify);
        t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
        let runner_file = verify.split(' ').nth(1).unwrap();
        t.write(runner_file, script);
        t.write(
            "checks/t_add.sh",
            "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n",
        );
        t.commit_all("base");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        t.ok(&["start", "w"]);
        t.commit_all("start");
        hide(&t);
        t.write("add.sh", "echo 0\n");
        let words: Vec<&str> = verify.split(' ').collect();
        let out = Command::new(words[0])
            .args(&words[1..])
            .current_dir(t.root())
            .output()
            .unwrap();
        assert!(out.status.success(), "{how}: the verify failed");
        t.commit_all("work");
        t.run(&["complete", "w", "--evidence", "add.sh adds"]);
        t.commit_all("done");
        user_judge(&t, "accept");
        let run = gate(&t, &base);
        if run.code != 1 || !run.stdout.contains("t_add.sh") {
            passed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

// Red team (helper 62, issue 68, the closure a runner's glob and the files gone
// since the start put in it): the goal's verify is `verify`, `files` are committed
// as the base, and the work writes `add` as `add.sh` (not there at the start, as
// in the tests above: a program a check runs that is there at the start is read
// as part of the check) after `work`. The verify passes on the work, or the shape is no attack;
// the gate's run is returned.
fn closure_gate(verify: &str, files: &[(&str, &str)], work: &dyn Fn(&Test), add: &str) -> Run {
    let t = pr_repo(verify);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    for (path, text) in files {
        t.write(path, text);
        if text.starts_with("#!") {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::Permissions::from_mode(0o755);
            std::fs::set_permissions(t.root().join(path), mode).unwrap();
        }
    }
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    t.commit_all("start");
    work(&t);
    t.write("add.sh", add);
    let path = format!("{}:{}", t.bin().display(), crate::util::system_path());
    let out = Command::new("sh")
        .args(["-c", verify])
        .env("PATH", path)
        .current_dir(t.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "{verify}: the verify failed: {out:?}");
    t.commit_all("work");
    t.run(&["complete", "w", "--evidence", "add.sh adds"]);
    t.commit_all("done");
    user_judge(&t, "accept");
    gate(&t, &base)
}

/// The real check of `add.sh` the attacks below take from a globbing runner.
const CHECK_A: &str = "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n";

/// The agent's work in the attacks below: `add.sh` wrong, the check gutted.
fn gut_check_a(t: &Test) {
    t.write("checks/t_a.sh", "true\n");
}

/// Which of `runners` (how, verify, runner's path, its script) the gate missed
/// when the check `checks/t_a.sh` it reaches is gutted and add.sh left wrong.
fn gutted_unseen(runners: &[(&str, &str, &str, &str)]) -> Vec<String> {
    let mut passed = Vec::new();
    for (how, verify, runner, script) in runners {
        let files = [(*runner, *script), ("checks/t_a.sh", CHECK_A)];
        let run = closure_gate(verify, &files, &gut_check_a, "echo 0\n");
        if run.code != 1 || !run.stdout.contains("t_a.sh") {
            passed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    passed
}

// Attack: the runner globs its checks in a spelling the closure's word splitter
// cut before the glob: the folder quoted (`"checks"/t_*.sh`), the script's own
// folder in a variable (`"$DIR"/t_*.sh`, the usual `dirname "$0"`: the glob word
// read was `/t_*.sh`, taken as absolute), or a bracket class (`t_[ab].sh`, cut at
// the brackets). The check is gutted in place and the code left wrong: the gate
// passed on each (the twin, plain `checks/t_*.sh`, is
// a_check_a_runner_globs_gutted_fails_the_gate).
#[test]
fn a_check_a_runner_globs_in_another_spelling_gutted_fails_the_gate() {
    let runners = [
        (
            "quoted folder",
            "sh checks/run.sh",
            "checks/run.sh",
            "for f in \"checks\"/t_*.sh; do sh \"$f\" || exit 1; done\n",
        ),
        (
            "dirname",
            "sh checks/run.sh",
            "checks/run.sh",
            "DIR=$(dirname \"$0\")\nfor f in \"$DIR\"/t_*.sh; do sh \"$f\" || exit 1; done\n",
        ),
        (
            "bracket",
            "sh checks/run.sh",
            "checks/run.sh",
            "for f in checks/t_[ab].sh; do sh \"$f\" || exit 1; done\n",
        ),
    ];
    let passed = gutted_unseen(&runners);
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

// Attack: the runner finds its checks by a folder and a pattern in separate words
// (`find checks -name 't_*.sh'`) or lists the folder (`ls checks | while read
// f`): no word names a check, so none is in the closure, and a gutted one passes.
#[test]
#[ignore = "helper 62: find -name and ls | while read name no check; the closure reads no folder+pattern pair"]
fn a_check_a_runner_finds_by_listing_gutted_fails_the_gate() {
    let runners = [
        (
            "find",
            "sh run.sh",
            "run.sh",
            "for f in $(find checks -name 't_*.sh'); do sh \"$f\" || exit 1; done\n",
        ),
        (
            "ls",
            "sh run.sh",
            "run.sh",
            "ls checks | while read f; do sh \"checks/$f\" || exit 1; done\n",
        ),
    ];
    let passed = gutted_unseen(&runners);
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

/// How a shape is called, its verify, the runner's script, and what the work does.
type Hiding<'a> = (&'a str, &'a str, &'a str, &'a dyn Fn(&Test));

/// Which of `attacks` (how, verify, runner's script, the hiding) the gate missed:
/// `checks/t_a.sh`, executable, taken from the runner's glob, a passing check
/// added beside it or not, add.sh left wrong.
fn hidden_unseen(attacks: &[Hiding]) -> Vec<String> {
    let mut passed = Vec::new();
    for (how, verify, script, hide) in attacks {
        let check = format!("#!/bin/sh\n{CHECK_A}");
        let files = [
            ("checks/run.sh", *script),
            ("checks/t_a.sh", check.as_str()),
        ];
        let run = closure_gate(verify, &files, *hide, "echo 0\n");
        if run.code != 1 || !run.stdout.contains("t_a.sh") {
            passed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    passed
}

/// A runner running every `checks/t_*.sh`.
const GLOB_RUNNER: &str = "for f in checks/t_*.sh; do sh \"$f\" || exit 1; done\n";

// Attack: the check is taken out of the glob's reach without a byte of it
// changed, a passing one added beside it: moved into a subfolder the glob
// (`checks/t_*.sh`) does not reach but the verify's folder word (`checks`) does
// (the closure holds its new path, so the move reads as one within reach), or its
// executable bit taken off where the runner runs only executables (a mode change
// is no text change). The twin, moved out of `checks/` altogether, is caught
// (a_globbed_check_taken_out_of_the_runner_s_reach_fails_the_gate).
#[test]
#[ignore = "helper 62: a check moved below the walked folder, or chmod -x, leaves the runner's reach unseen"]
fn a_check_taken_from_the_glob_without_a_change_fails_the_gate() {
    use std::os::unix::fs::PermissionsExt;
    let executable =
        "for f in checks/t_*.sh; do [ -x \"$f\" ] || continue; \"$f\" || exit 1; done\n";
    let below = |t: &Test| {
        std::fs::create_dir_all(t.root().join("checks/old")).unwrap();
        t.git(&["mv", "checks/t_a.sh", "checks/old/t_a.sh"]);
        t.write("checks/t_smoke.sh", "exit 0\n");
    };
    let chmod = |t: &Test| {
        let path = t.root().join("checks/t_a.sh");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    };
    let passed = hidden_unseen(&[
        (
            "below the walked folder",
            "sh checks/run.sh checks",
            GLOB_RUNNER,
            &below,
        ),
        ("chmod -x", "sh checks/run.sh", executable, &chmod),
    ]);
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

// The twin that is caught: the check swapped for a symlink to a script that
// passes (its text read through the link differs).
#[test]
fn a_globbed_check_swapped_for_a_symlink_fails_the_gate() {
    let link = |t: &Test| {
        t.write("checks/pass.inc", "exit 0\n");
        std::fs::remove_file(t.root().join("checks/t_a.sh")).unwrap();
        std::os::unix::fs::symlink("pass.inc", t.root().join("checks/t_a.sh")).unwrap();
    };
    let passed = hidden_unseen(&[("symlinked", "sh checks/run.sh", GLOB_RUNNER, &link)]);
    assert!(passed.is_empty(), "unseen by the gate:\n{passed:#?}");
}

/// How honest work is called, the runner's script, and the work.
type Honest<'a> = (&'a str, String, &'a dyn Fn(&Test));

/// Which of `cases` (how, the runner's script, the work) failed the gate: the
/// check `checks/t_a.sh` whole, add.sh right, `checks/old_setup.sh` (nothing runs
/// it) and `lib/util.sh` there at the start.
fn honest_failed(cases: &[Honest]) -> Vec<String> {
    let mut failed = Vec::new();
    for (how, script, work) in cases {
        let files = [
            ("checks/run.sh", script.as_str()),
            ("checks/t_a.sh", CHECK_A),
            ("checks/old_setup.sh", "echo setting up\n"),
            ("lib/util.sh", "x=1\n"),
        ];
        let run = closure_gate("sh checks/run.sh", &files, *work, "echo $(($1 + $2))\n");
        if run.code != 0 {
            failed.push(format!("{how} (exit {}): {}", run.code, run.stdout));
        }
    }
    failed
}

// Honest twins beside a globbing runner (`checks/t_*.sh`) that must pass the
// gate: a check renamed within the glob's reach (git sees the rename), and an
// obsolete helper nothing runs deleted from the glob's folder.
#[test]
fn honest_work_beside_a_globbing_runner_passes_the_gate() {
    let rename = |t: &Test| {
        t.git(&["mv", "checks/t_a.sh", "checks/t_sum.sh"]);
    };
    let obsolete = |t: &Test| {
        t.git(&["rm", "-q", "checks/old_setup.sh"]);
    };
    let failed = honest_failed(&[
        (
            "renamed in the glob's reach",
            GLOB_RUNNER.to_string(),
            &rename,
        ),
        (
            "obsolete helper deleted",
            GLOB_RUNNER.to_string(),
            &obsolete,
        ),
    ]);
    assert!(
        failed.is_empty(),
        "honest work failed the gate:\n{failed:#?}"
    );
}

// False alarm: the runner syntax-checks or lints the code by a glob (`sh -n`
// over `lib/*.sh`, `shellcheck lib/*.sh`) before running its checks; the work
// edits lib/util.sh. The glob puts the code in the closure, so honest work is a
// high verify-file-changed. Not new with the glob: a script naming the file
// (`shellcheck lib/util.sh`) did so before; on the verify line itself a linter's
// operands are data (checked_words), in a script they are not.
#[test]
#[ignore = "helper 62: a linter's or sh -n's operands in a script are read as checks (glob or named)"]
fn a_runner_linting_the_code_passes_the_gate() {
    let edit = |t: &Test| {
        t.fake_program("shellcheck", "exit 0\n");
        t.write("lib/util.sh", "x=2\n");
    };
    let failed = honest_failed(&[
        (
            "sh -n by a glob",
            format!("for f in lib/*.sh; do sh -n \"$f\" || exit 1; done\n{GLOB_RUNNER}"),
            &edit,
        ),
        (
            "shellcheck by a glob",
            format!("shellcheck lib/*.sh\n{GLOB_RUNNER}"),
            &edit,
        ),
        (
            "shellcheck by name",
            format!("shellcheck lib/util.sh\n{GLOB_RUNNER}"),
            &edit,
        ),
    ]);
    assert!(
        failed.is_empty(),
        "honest work failed the gate:\n{failed:#?}"
    );
}

// False alarm the glob widened: a bug fix. add.sh is there at the start, wrong;
// the globbed check runs it (`sh add.sh 2 3`) and the work fixes it. A program a
// check runs is read as part of the check, so the fix is a high
// verify-file-changed unless the goal names add.sh. Before the glob, a verify
// naming only the runner reached no check and so not add.sh; a verify naming the
// check (`sh checks/t_a.sh`) did so already.
#[test]
#[ignore = "helper 62: the code a globbed check runs, there at the start and fixed, is read as a changed check"]
fn a_bug_fixed_in_the_code_a_globbed_check_runs_passes_the_gate() {
    let files = [
        ("checks/run.sh", GLOB_RUNNER),
        ("checks/t_a.sh", CHECK_A),
        ("add.sh", "echo 0\n"),
    ];
    let run = closure_gate("sh checks/run.sh", &files, &|_| {}, "echo $(($1 + $2))\n");
    assert_eq!(run.code, 0, "the gate failed\n{}{}", run.stdout, run.stderr);
}

// Adversary (helper 63, issue 68): the globbed check replaced by a symlink to
// /dev/null, so the runner runs nothing and passes. git sees a type change; the
// walk takes no symlink, and the check was neither changed nor gone: the gate
// passed on main.
#[test]
fn a_globbed_check_turned_into_a_symlink_out_of_the_repository_fails_the_gate() {
    let t = pr_repo("sh checks/run.sh checks");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write(
        "checks/run.sh",
        "for f in checks/t_*.sh; do sh \"$f\" || exit 1; done\n",
    );
    t.write(
        "checks/t_add.sh",
        "[ \"$(sh add.sh 2 3)\" = 5 ] && [ \"$(sh add.sh 10 1)\" = 11 ]\n",
    );
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["start", "w"]);
    t.commit_all("start");
    std::fs::remove_file(t.root().join("checks/t_add.sh")).unwrap();
    std::os::unix::fs::symlink("/dev/null", t.root().join("checks/t_add.sh")).unwrap();
    t.write("add.sh", "echo 0\n");
    let out = Command::new("sh")
        .args(["checks/run.sh", "checks"])
        .current_dir(t.root())
        .output()
        .unwrap();
    assert!(out.status.success(), "the verify failed");
    t.commit_all("work");
    t.run(&["complete", "w", "--evidence", "add.sh adds"]);
    t.commit_all("done");
    user_judge(&t, "accept");
    let run = gate(&t, &base);
    assert_eq!(run.code, 1, "the gate passed\n{}", run.stdout);
    assert!(run.stdout.contains("t_add.sh"), "{}", run.stdout);
}

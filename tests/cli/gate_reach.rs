//! The gate's reach (`plan audit --base REV`): every goal a pull request touches is
//! checked again (a done goal whose files it changes is verified again, a goal it
//! makes done by any route needs a new sign-off, a cancel or a softened contract
//! needs a person's `--approved-by`, every plan file is audited, a plan with format
//! errors fails), and honest work passes (a command judge re-judged by CI's own, a
//! real `git revert`). Each attack failed the gate's checks before.

use crate::gate::{PLAN, origin, rev, sign_off, user_judge};
use crate::util::{Test, fixture_path, redact};

/// A repository with `plan` (README.md written) and the agent's judge `claude`, a
/// fake on PATH that accepts whatever it is asked.
fn judged_by_claude(plan: &str) -> Test {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(plan);
    t.write("README.md", "# Hello\n");
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t
}

/// `ship` signed off and committed on `main`, its verify a script reading README.md's
/// words (the sign-off's evidence); `pr` branched from there.
fn signed_on_main() -> (Test, String) {
    let t = judged_by_claude(&PLAN.replace("verify: test -f README.md", "verify: sh check.sh"));
    t.write("check.sh", "grep -q Hello README.md\n");
    t.ok(&["start", "ship"]);
    sign_off(&t);
    t.commit_all("ship it");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    (t, base)
}

// Attack: the pull request empties the README a goal done on the base rests on.
// Nothing signs anything off, so nothing was looked at: "No goal to show… Passed".
#[test]
fn a_pull_request_that_breaks_a_done_goals_file_fails_the_gate() {
    let (t, base) = signed_on_main();
    t.write("other.txt", "unrelated\n");
    t.commit_all("unrelated");
    // `sh check.sh` runs a program, which could read any file: verified again on
    // any change, and green.
    let run = t.ok(&["audit", "--base", &base]);
    assert!(run.stdout.contains("reverify: passed"), "{}", run.stdout);
    t.write("README.md", "");
    t.commit_all("tidy");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base]).code(1).stdout
    ));
    let run = t
        .case(&["audit", "--base", &base, "--markdown"])
        .status(1)
        .any_stdout()
        .check();
    assert!(
        run.stdout.contains(
            "| `ship` | done proven | claude | failed (re-run) | `reverify failed: 'sh check.sh' exited 1`"
        ),
        "{}",
        run.stdout
    );
}

// Attack: the base reopened `ship` by hand (`status: active`, no log line); the
// pull request sets it back to done, "proven" by the base's old sign-off line.
#[test]
fn a_goal_done_again_in_the_pull_request_by_hand_needs_a_new_sign_off() {
    let t = origin();
    sign_off(&t);
    t.commit_all("ship it");
    t.write(
        "plan.md",
        t.plan_md().replace("status: done", "status: active"),
    );
    t.commit_all("not done after all");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: active", "status: done"),
    );
    t.commit_all("done");
    t.ok(&["audit"]);
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base]).code(1).stdout
    ));
    // CI's own judge is asked about it.
    user_judge(&t, "reject");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--rejudge"])
            .code(1)
            .stdout
    ));
}

// Attack: the pull request cancels the user's goal; the summary never named it.
#[test]
fn a_cancel_of_a_base_goal_is_listed_and_needs_a_persons_approval() {
    let t = origin();
    let base = rev(&t, "main");
    let short = &base[..12];
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&["cancel", "ship", "--reason", "not needed"]);
    t.commit_all("cancel");
    let line = t.plan_md().lines().count();
    let want = |approval: &str, verdict: &str| {
        format!(
            "## plan audit

Against base {base} ({short}).

No goal to show.

### Contract changes

None.

### Cancelled goals of the base

- `ship`: cancelled: `not needed` (line {line}){approval}
{verdict}"
        )
    };
    t.case(&["audit", "--base", &base, "--markdown", "--strict"])
        .status(1)
        .stdout(&want(", needs --approved-by", "\n**Failed: 1 problem.**\n"))
        .check();
    t.case(&[
        "audit",
        "--base",
        &base,
        "--markdown",
        "--strict",
        "--approved-by",
        "alice",
    ])
    .stdout(&want(", approved by alice", "\n**Passed.**\n"))
    .check();
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"])
            .code(1)
            .stdout
    ));
    // A blank name (a workflow expression that came out empty) approves nothing.
    // Nor a name of invisible characters only (a zero-width space).
    for blank in [" ", "\u{200b}"] {
        t.case(&["audit", "--base", &base, "--strict", "--approved-by", blank])
            .status(2)
            .stderr("plan: --approved-by names no one\n  hint: pass the login of the person who approved the pull request, or leave the flag out when no one did\n")
            .check();
    }
}

// Attack: done_when softened and verify dropped in the pull request, approved with
// a hand-typed `, a terminal was attached`: listed without the words that changed,
// and passed.
#[test]
fn a_softened_contract_shows_its_words_and_a_terminal_is_no_approval_in_ci() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let md = t
        .plan_md()
        .replace(
            "done_when: README.md exists",
            "done_when: README.md may exist",
        )
        .replace("verify: test -f README.md\n", "");
    t.write("plan.md", md);
    t.ok(&["start", "ship", "--reapprove"]);
    t.write(
        "plan.md",
        t.plan_md()
            .replace(", without a terminal)", ", a terminal was attached)"),
    );
    assert!(t.plan_md().contains("a terminal was attached"));
    // As a hand-typed line: plan did not write it.
    std::fs::remove_file(t.path(".git/plan/logged.tsv")).unwrap();
    t.commit_all("soften");
    let run = t
        .case(&["audit", "--base", &base, "--markdown", "--strict"])
        .status(1)
        .any_stdout()
        .check();
    insta::assert_snapshot!(redact(&t, &run.stdout));
    insta::assert_snapshot!(redact(
        &t,
        &t.ok(&[
            "audit",
            "--base",
            &base,
            "--strict",
            "--approved-by",
            "alice"
        ])
        .stdout
    ));
}

// A pull request renames a goal of the base and drops the subtasks it had left
// unticked, then signs it off: neither is part of the contract, so "Contract
// changes: None" was all a reviewer read. The judge is given the base's title and
// subtasks; the report now names both changes.
#[test]
fn a_base_goal_renamed_and_stripped_of_unticked_subtasks_is_named_in_the_report() {
    let t = judged_by_claude(&PLAN.replace(
        "- [x] write it\n",
        "- [x] write it\n- [ ] fuzz the parser for an hour\n- [ ] handle malformed UTF-8\n",
    ));
    t.commit_all("plan");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md()
            .replace("## Goal: Ship it", "## Goal: Ship")
            .replace(
                "- [ ] fuzz the parser for an hour\n- [ ] handle malformed UTF-8\n",
                "",
            ),
    );
    t.ok(&["start", "ship"]);
    sign_off(&t);
    t.commit_all("ship");
    let run = t
        .case(&[
            "audit",
            "--base",
            &base,
            "--markdown",
            "--approved-by",
            "alice",
        ])
        .any_stdout()
        .check();
    let section = run
        .stdout
        .split_once("### Other changes to the base's goals\n\n")
        .map(|(_, rest)| rest.split("\n\n").next().unwrap_or(rest));
    assert_eq!(
        section,
        Some(
            "- `ship`: `renamed from \"Ship it\"` (line 3)\n- `ship`: `subtask \"fuzz the parser for an hour\" removed unticked` (line 3)\n- `ship`: `subtask \"handle malformed UTF-8\" removed unticked` (line 3)"
        ),
        "{}",
        run.stdout
    );
    let text = t.run(&["audit", "--base", &base]).stdout;
    let named: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("of the base:"))
        .collect();
    assert_eq!(
        named,
        [
            "· ship of the base: renamed from \"Ship it\" (plan.md:3)",
            "· ship of the base: subtask \"fuzz the parser for an hour\" removed unticked (plan.md:3)",
            "· ship of the base: subtask \"handle malformed UTF-8\" removed unticked (plan.md:3)",
        ],
        "{text}"
    );
    let json = t.run(&["audit", "--base", &base, "--json"]).json();
    assert_eq!(
        json["base"]["reshaped"][0],
        serde_json::json!({"id": "ship", "line": 3, "what": "renamed from \"Ship it\""}),
        "{json}"
    );
}

// Attack: a look-alike status line (`Status: done`) is a format error plan reads
// around; the gate passed it.
#[test]
fn a_plan_with_format_errors_at_the_head_fails_the_gate() {
    let t = origin();
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md().replace("status: active", "Status: done"),
    );
    t.commit_all("done");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base]).code(1).stdout
    ));
}

// Attack: a second plan file (`--file docs/roadmap.md`): its sign-offs were never
// re-judged, its goals never proven by the gate.
#[test]
fn every_plan_file_of_the_repository_is_audited_against_the_base() {
    let t = origin();
    t.write(
        "docs/roadmap.md",
        PLAN.replace("# Plan: Gate", "# Plan: Roadmap")
            .replace("<!-- id: ship -->", "<!-- id: later -->"),
    );
    t.ok(&["--file", "docs/roadmap.md", "start", "later"]);
    t.commit_all("roadmap");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.ok(&[
        "--file",
        "docs/roadmap.md",
        "complete",
        "later",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.commit_all("later");
    user_judge(&t, "accept");
    insta::assert_snapshot!(redact(
        &t,
        &t.ok(&["audit", "--base", &base, "--rejudge"]).stdout
    ));
    user_judge(&t, "reject");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--rejudge"])
            .code(1)
            .stdout
    ));
    // A cancel there needs a person's approval as much as one in plan.md.
    t.git(&["reset", "-q", "--hard", &base]);
    t.ok(&[
        "--file",
        "docs/roadmap.md",
        "cancel",
        "later",
        "--reason",
        "not now",
    ]);
    t.commit_all("cancel later");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"])
            .code(1)
            .stdout
    ));
    insta::assert_snapshot!(redact(
        &t,
        &t.ok(&[
            "audit",
            "--base",
            &base,
            "--strict",
            "--approved-by",
            "alice",
        ])
        .stdout
    ));
    // A goal of that file flipped to done by hand is unproven there.
    t.git(&["reset", "-q", "--hard", &base]);
    t.write(
        "docs/roadmap.md",
        t.read("docs/roadmap.md")
            .replace("status: active", "status: done"),
    );
    t.commit_all("done by hand");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base]).code(1).stdout
    ));
}

// Noise: a sign-off by a command judge failed --strict as "weak" even after CI's
// own judge had re-judged it and accepted.
#[test]
fn a_command_judge_re_judged_and_accepted_by_ci_is_no_weak_sign_off() {
    let t = origin();
    // Red first: the README the verify checks for is the work.
    std::fs::remove_file(t.path("README.md")).unwrap();
    t.commit_all("no README yet");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.judge("accept");
    t.write("README.md", "# Hello, world\n");
    sign_off(&t);
    t.commit_all("ship it");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--strict"])
            .code(1)
            .stdout
    ));
    user_judge(&t, "accept");
    let run = t.ok(&["audit", "--base", &base, "--rejudge", "--strict"]);
    insta::assert_snapshot!(redact(&t, &run.stdout));
    user_judge(&t, "reject");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--rejudge", "--strict"])
            .code(1)
            .stdout
    ));
}

// Noise: an honest `git revert` (and `git revert -m 1` of a merge) that takes back a
// `plan log --goal` note failed as "lost from the base".
#[test]
fn an_honest_revert_of_a_note_passes_the_gate() {
    let t = origin();
    t.git(&["checkout", "-q", "-b", "feature"]);
    t.ok(&["log", "--goal", "ship", "the README needs a logo"]);
    t.commit_all("note");
    t.git(&["checkout", "-q", "main"]);
    t.git(&["merge", "-q", "--no-ff", "feature", "-m", "merge feature"]);
    t.ok(&["log", "--goal", "ship", "and a licence"]);
    t.commit_all("second note");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let merge = rev(&t, "HEAD~1");
    t.git(&["revert", "--no-edit", "HEAD"]);
    t.git(&["revert", "--no-edit", "-m", "1", &merge]);
    assert!(!t.plan_md().contains("logo"), "{}", t.plan_md());
    assert!(!t.plan_md().contains("licence"), "{}", t.plan_md());
    insta::assert_snapshot!(redact(
        &t,
        &t.ok(&["audit", "--base", &base, "--strict"]).stdout
    ));
}

// Attack: a commit whose message says "This reverts commit X" but that is not
// X's inverse (it keeps the transcripts X wrote) removes the base's `sign-off
// rejected` line and the sign-off after it; 0 lines counted lost.
#[test]
fn a_commit_that_only_claims_to_be_a_revert_excuses_nothing() {
    let t = origin();
    t.judge("reject");
    t.run(&["complete", "ship", "--evidence", "README.md is written"])
        .code(1);
    t.judge("accept");
    t.ok(&["complete", "ship", "--evidence", "README.md is written"]);
    t.commit_all("ship it");
    let signed = rev(&t, "HEAD");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    let md: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("ship sign-off rejected") && !l.contains("ship signed off"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: done", "status: active");
    t.write("plan.md", md);
    t.commit_all(&format!(
        "Revert \"ship it\"\n\nThis reverts commit {signed}."
    ));
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base]).code(1).stdout
    ));
}

// Attack: `PLAN_NOW=2099-…` once, and every later line (the user's own cancel
// among them) is stamped 2099 by the stamp floor; nothing warned.
#[test]
fn a_stamp_more_than_a_day_ahead_is_refused_and_linted() {
    let t = Test::new().plan(PLAN);
    let run = t
        .cmd(&["log", "from the future"])
        .env("PLAN_NOW", "2099-01-01T00:00")
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&run.stderr);
    insta::assert_snapshot!(redact(&t, &stderr));
    assert!(!t.plan_md().contains("2099"));
    t.write(
        "plan.md",
        format!("{}- 2099-01-01 00:00 from the future\n", t.plan_md()),
    );
    let line = t.plan_md().lines().count();
    t.run(&["lint"]).code(1).stdout_has(&format!(
        "plan.md:{line}: log line stamped 2099-01-01 00:00, more than a day ahead of this machine's clock [stamp-in-future]"
    ));
    // Every later line would be stamped 2099 by the floor: refused too.
    t.run(&["log", "today"]).code(2);
    insta::assert_snapshot!(redact(&t, &t.ok(&["lint", "--rules"]).stdout));
}

// Attack (a second agent's clock, or an agent's): `PLAN_NOW=2099-… plan goal` had
// its own line refused, but kept 2099 as the loop's start, the floor of every later
// stamp; every `plan log` and sign-off after it was refused (the sign-off once its
// judge had run), and lint, which reads the log, had nothing to name. A stamp more
// than a day ahead is not kept, and one kept before is not a floor. A line so
// stamped in the log itself still refuses a sign-off, before anything runs.
#[test]
fn a_loop_start_more_than_a_day_ahead_is_no_floor() {
    let t = Test::new().plan(PLAN);
    let goal = t
        .cmd(&["goal", "--budget", "5"])
        .env("PLAN_NOW", "2099-01-01T00:00")
        .output()
        .unwrap();
    assert_eq!(goal.status.code(), Some(2), "{goal:?}");
    t.ok(&["log", "today"]);
    assert!(!t.plan_md().contains("2099"), "{}", t.plan_md());
    // One kept by an earlier plan is passed over too.
    let kept = t.path(".git/plan/stamp");
    std::fs::write(&kept, "2099-01-01 00:00\n").unwrap();
    t.ok(&["log", "still today"]);
    assert!(!t.plan_md().contains("2099"), "{}", t.plan_md());
    let ran = t.dir.path().join("judge-ran");
    t.write("README.md", "# Hello\n");
    crate::setup::command_judge(
        &t,
        &format!(
            "touch '{}'\nprintf 'VERDICT: accept\\nmissing: none\\n'",
            ran.display()
        ),
    );
    t.write(
        "plan.md",
        format!("{}- 2099-01-01 00:00 from the future\n", t.plan_md()),
    );
    let run = t.run(&["complete", "ship", "--evidence", "done"]);
    assert_eq!(run.code, 2, "{}{}", run.stdout, run.stderr);
    assert!(!ran.exists(), "the judge ran before the refusal");
    insta::assert_snapshot!(redact(&t, &run.stderr));
    // Nor does `plan goal` start a loop whose start line that floor would refuse.
    let goal = t.run(&["goal", "--budget", "5"]);
    assert_eq!(goal.code, 2, "{}{}", goal.stdout, goal.stderr);
    assert!(!t.path(".git/plan/loop.json").exists());
}

// Attack: as two jobs, the judge's job (which holds the key) re-verified a goal
// done on the base by running the pull request's code in its own checkout. The
// base's goals a pull request touches are verified in the verify job only, with
// the re-judged ones, and the judge's job reads their outcome from its file.
#[test]
fn as_two_jobs_a_touched_base_goal_is_verified_in_the_verify_job_only() {
    let (t, _) = signed_on_main();
    let ran = t.dir.path().join("verify-ran");
    // The check itself is unchanged in the pull request, so only running it tells.
    t.git(&["checkout", "-q", "main"]);
    t.write(
        "check.sh",
        format!("touch '{}'\ngrep -q Hello README.md\n", ran.display()),
    );
    t.ok(&["reopen", "ship", "--reason", "a check that leaves a mark"]);
    sign_off(&t);
    t.commit_all("the check leaves a mark");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-B", "pr"]);
    t.write("README.md", "");
    t.commit_all("tidy");
    std::fs::remove_file(&ran).ok();
    let results = t.dir.path().join("results.json");
    let file = results.to_str().unwrap();
    t.ok(&["audit", "--base", &base, "--verify-only", "--results", file]);
    assert!(
        ran.exists(),
        "the verify job did not run the touched goal's verify"
    );
    std::fs::remove_file(&ran).unwrap();
    user_judge(&t, "accept");
    insta::assert_snapshot!(redact(
        &t,
        &t.run(&["audit", "--base", &base, "--rejudge", "--verified", file])
            .code(1)
            .stdout
    ));
    assert!(!ran.exists(), "the judge's job ran the pull request's code");
}

// A base's goals that share one verify (as ten goals share `cargo test`) are
// verified again once, not once each; a verify of commands that only read the
// files it names (`test -s notes.md`) is not run for a change elsewhere.
#[test]
fn goals_sharing_a_verify_are_verified_again_once() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let goal = |id: &str, verify: &str| {
        format!(
            "## Goal: {id}\n<!-- id: {id} -->\nstatus: active\ndone_when: it holds\nverify: {verify}\n- [x] do it\n\n"
        )
    };
    let plan = format!(
        "# Plan: Shared\n\n{}{}{}## Log\n",
        goal("a", "sh check.sh"),
        goal("b", "sh check.sh"),
        goal("n", "test -s notes.md")
    );
    let t = t.with_bin().plan(&plan);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    let count = t.dir.path().join("runs");
    t.write(
        "check.sh",
        format!("echo run >>'{}'\ntest -f lib.txt\n", count.display()),
    );
    t.write("lib.txt", "code\n");
    t.write("notes.md", "notes\n");
    t.commit_all("base");
    for id in ["a", "b", "n"] {
        t.ok(&["start", id, "--no-verify"]);
        t.ok(&["complete", id, "--evidence", "it holds"]);
    }
    t.commit_all("done");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("other.txt", "unrelated\n");
    t.commit_all("unrelated");
    let runs = || {
        let n = std::fs::read_to_string(&count)
            .unwrap_or_default()
            .lines()
            .count();
        let _ = std::fs::remove_file(&count);
        n
    };
    runs();
    let run = t.ok(&["audit", "--base", &base]);
    assert_eq!(runs(), 1);
    assert_eq!(
        run.stdout.matches("reverify: passed").count(),
        2,
        "{}",
        run.stdout
    );
    // `n` rests on notes.md alone: not verified again.
    let after_n = run.stdout.split_once("✓ n (done): proven").unwrap().1;
    insta::assert_snapshot!(redact(&t, after_n));
    std::fs::remove_file(t.path("lib.txt")).unwrap();
    t.commit_all("tidy");
    let run = t.run(&["audit", "--base", &base]).code(1);
    assert_eq!(runs(), 1);
    assert_eq!(
        run.stdout
            .matches("reverify: failed: `sh check.sh` exited 1")
            .count(),
        2,
        "{}",
        run.stdout
    );
}

/// The gate's Markdown report against `base`, which fails: goal `ship`'s row, and
/// the whole report for a failing assert to show.
fn ship_row(t: &Test, base: &str) -> (String, String) {
    let run = t
        .case(&["audit", "--base", base, "--markdown"])
        .status(1)
        .any_stdout()
        .check();
    let row = run
        .stdout
        .lines()
        .find(|l| l.starts_with("| `ship` |"))
        .unwrap_or_default()
        .to_string();
    (row, run.stdout)
}

// Attack: a base goal's verify names a link to a directory (`test -d site`, `site`
// leading to `data`), and the pull request deletes the directory's one file. git
// then has no `data/` left, the link leads nowhere, and a reach read from where the
// link leads now named only `site`, which the pull request did not change: the goal
// was not verified again and the gate passed, while its verify fails on the pull
// request. A named path through a link that leads nowhere rests on everything.
#[test]
fn a_verify_through_a_link_whose_target_the_pull_request_deleted_is_verified_again() {
    let t = judged_by_claude(&PLAN.replace("verify: test -f README.md", "verify: test -d site"));
    t.write("data/index.html", "<h1>hi</h1>\n");
    std::os::unix::fs::symlink("data", t.root().join("site")).unwrap();
    t.ok(&["start", "ship"]);
    sign_off(&t);
    t.commit_all("ship it");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.git(&["rm", "-q", "data/index.html"]);
    t.commit_all("drop the built site");
    assert!(!t.root().join("data").exists(), "git left data/ behind");
    let (row, stdout) = ship_row(&t, &base);
    assert_eq!(
        row,
        "| `ship` | done proven | claude | failed (re-run) | `reverify failed: the check's own files changed since the sign-off (site/index.html), so passing it now proves nothing; review the change (git diff), then plan reopen ship and sign it off again` |",
        "{stdout}"
    );
}

// Attack (review): a base goal's verify reads through a link (`grep -q PASS
// lnk/status`, `lnk` leading to `good`). A pull request that points the link at
// another directory, or removes it, changes one path git keeps, `lnk`, which is
// above every path the verify names: the goal was not verified again and the gate
// passed while its verify failed. A changed path above a named one is the verify's.
#[test]
fn a_link_on_a_verifys_path_retargeted_or_removed_verifies_its_goal_again() {
    for change in ["retarget", "remove"] {
        let t = judged_by_claude(&PLAN.replace(
            "verify: test -f README.md",
            "verify: grep -q PASS lnk/status",
        ));
        t.write("good/status", "PASS\n");
        t.write("bad/status", "FAIL\n");
        std::os::unix::fs::symlink("good", t.root().join("lnk")).unwrap();
        t.ok(&["start", "ship"]);
        sign_off(&t);
        t.commit_all("ship it");
        let base = rev(&t, "main");
        t.git(&["checkout", "-q", "-b", "pr"]);
        std::fs::remove_file(t.root().join("lnk")).unwrap();
        if change == "retarget" {
            std::os::unix::fs::symlink("bad", t.root().join("lnk")).unwrap();
        }
        t.commit_all(change);
        let (row, stdout) = ship_row(&t, &base);
        assert!(
            row.starts_with(
                "| `ship` | done proven | claude | failed (re-run) | `reverify failed: "
            ),
            "{change}: {stdout}"
        );
    }
}

// Attack (adversary pass): the verify reads through a chain of links (`a` leads to
// `l`, which leads to `good`), and the pull request retargets only the middle one.
// The reach named the path and where it led at the head, not `l`: the gate passed
// with "0 failing" while the verify failed. Every link on the way is in the reach.
#[test]
fn a_link_in_the_middle_of_a_chain_retargeted_verifies_its_goal_again() {
    let t = judged_by_claude(
        &PLAN.replace("verify: test -f README.md", "verify: grep -q PASS a/status"),
    );
    t.write("good/status", "PASS\n");
    t.write("bad/status", "FAIL\n");
    std::os::unix::fs::symlink("good", t.root().join("l")).unwrap();
    std::os::unix::fs::symlink("l", t.root().join("a")).unwrap();
    t.ok(&["start", "ship"]);
    sign_off(&t);
    t.commit_all("ship it");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    std::fs::remove_file(t.root().join("l")).unwrap();
    std::os::unix::fs::symlink("bad", t.root().join("l")).unwrap();
    t.commit_all("retarget l");
    let (row, stdout) = ship_row(&t, &base);
    assert!(
        row.starts_with("| `ship` | done proven | claude | failed (re-run) | `reverify failed: "),
        "{stdout}"
    );
}

// Attack (red team): a pull request softens the script an open goal's verify runs
// (`grep -qx "Hello, world" README.md` made `test -f README.md`) and touches no
// contract line: "Contract changes: None. Passed." A later pull request then signs
// the goal off against the softer check, started after it, so nothing counts the
// script as changed. What a verify runs is the contract under its words: the
// change is listed, and --strict needs a person's approval for it (a stronger
// check too: it is the contract changed).
#[test]
fn a_softened_check_script_of_an_open_goal_is_a_contract_change() {
    let t = judged_by_claude(&PLAN.replace("verify: test -f README.md", "verify: sh check.sh"));
    t.write("check.sh", "grep -qx 'Hello, world' README.md\n");
    t.commit_all("check");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("check.sh", "test -f README.md\n");
    t.commit_all("simplify the check");
    let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout), @"
    ⚠ contract of ship: the pull request changed check.sh, which its verify runs (its contract's words are unchanged) (plan.md:3), needs --approved-by
        check.sh: [-grep -qx 'Hello, world' README.md-]
        check.sh: {+test -f README.md+}
    0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 1 failing
    ");
    t.ok(&[
        "audit",
        "--base",
        &base,
        "--strict",
        "--approved-by",
        "alice",
    ]);
    // An honest pull request that leaves the check alone passes.
    t.git(&["checkout", "-q", "main"]);
    t.git(&["checkout", "-q", "-b", "honest"]);
    t.write("notes.txt", "unrelated\n");
    t.commit_all("notes");
    t.ok(&["audit", "--base", &base, "--strict"]);
}

// The honest side (issue 69): a pull request that does work toward an open goal
// without signing it off, in the very file its verify reads as data (`grep -qx
// "Hello, world" README.md`), changed no contract: it failed --strict with "the
// pull request changed README.md, which its verify runs … needs --approved-by".
// What a verify reads is the work; what it runs (a script, a pattern file) is the
// check.
#[test]
fn work_toward_an_open_goal_in_the_file_its_verify_reads_is_no_contract_change() {
    let t = judged_by_claude(&PLAN.replace(
        "verify: test -f README.md",
        "verify: grep -qx 'Hello, world' README.md",
    ));
    t.write("README.md", "# draft\n");
    t.commit_all("draft");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("README.md", "Hello, world\n");
    t.commit_all("the work");
    let run = t.ok(&["audit", "--base", &base, "--strict"]);
    assert!(!run.stdout.contains("contract of ship"), "{}", run.stdout);
}

// Attack (review): a second space inside the quotes of an open goal's verify
// (`! grep -q "error: bad"` made `"error:  bad"`) makes a check that can never
// fail, and the contract's fingerprint read the two spaces as one: no contract
// change was seen. Quoted whitespace is the command's own, and counts.
#[test]
fn a_space_added_inside_a_verify_s_quotes_is_a_contract_change() {
    let t = judged_by_claude(&PLAN.replace(
        "verify: test -f README.md",
        "verify: sh -c '! grep -q \"error: bad\" README.md'",
    ));
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "plan.md",
        t.plan_md().replace("\"error: bad\"", "\"error:  bad\""),
    );
    t.commit_all("tidy");
    let run = t.run(&["audit", "--base", &base, "--strict"]).code(1);
    insta::assert_snapshot!(redact(&t, &run.stdout), @"
    ⚠ contract of ship: changed in the file (contract c231dfaa, now 09a4171f) with no approval logged (plan.md:3), needs --approved-by
    0 finished goals: 0 proven, 0 unproven; against base [COMMIT]: 0 signed off since, 0 lost; 1 failing
    ");
}

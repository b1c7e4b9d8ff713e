//! Plan mode: `plan draft` with fixture drafting models through the command backend,
//! and the `plan review` handshake a script or chat bot uses (no terminal here).

use std::path::PathBuf;

use crate::util::{Run, Test, fixture_path, redact, shown};

/// A drafting prompt from its plan so far on: what the instructions and examples
/// before it (the same in every prompt) are given.
fn so_far(prompt: &str) -> &str {
    let at = prompt
        .find("\n## The plan so far\n")
        .expect("the prompt's plan so far");
    &prompt[at + 1..]
}

/// [`shown`] with the minutes a proposal has left (or has been expired) written `N`:
/// they follow the wall clock, not `PLAN_NOW`.
fn seen(t: &Test, run: &Run) -> String {
    let mut text = shown(t, run);
    for mark in ["expires in ", "expired "] {
        let mut out = String::new();
        let mut rest = text.as_str();
        while let Some(at) = rest.find(mark) {
            out.push_str(&rest[..at + mark.len()]);
            rest = &rest[at + mark.len()..];
            let digits = rest
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(rest.len());
            if digits > 0 {
                out.push('N');
                rest = &rest[digits..];
            }
        }
        out.push_str(rest);
        text = out;
    }
    text
}

/// The draft a proposal's summary shows, between its first line and the commands.
fn shown_draft(stdout: &str) -> &str {
    let (_, rest) = stdout
        .split_once("\n\n")
        .expect("a draft after the summary");
    let end = rest
        .find("\n  plan review --approve")
        .expect("the commands after the draft");
    &rest[..end]
}

/// A repository whose drafting model is the fixture `drafter`, recording the prompts
/// it gets and counting its calls.
struct Draft {
    t: Test,
    prompts: PathBuf,
    state: PathBuf,
}

fn repo(drafter: &str) -> Draft {
    let t = Test::new();
    let prompts = t.dir.path().join("prompts.txt");
    let state = t.dir.path().join("state");
    let t = t
        .env("PLAN_FIXTURE_PROMPTS", prompts.to_str().unwrap())
        .env("PLAN_FIXTURE_STATE", state.to_str().unwrap());
    t.write(
        ".plan/config.yaml",
        format!(
            "# the plan-phase model\ndraft:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            fixture_path(&format!("drafters/{drafter}")).display()
        ),
    );
    Draft { t, prompts, state }
}

impl Draft {
    fn prompts(&self) -> String {
        std::fs::read_to_string(&self.prompts).unwrap_or_default()
    }

    fn calls(&self) -> u32 {
        std::fs::read_to_string(&self.state).map_or(0, |s| s.trim().parse().unwrap())
    }

    fn proposal_path(&self) -> PathBuf {
        self.t.root().join(".git/plan/proposal.json")
    }

    fn proposal(&self) -> serde_json::Value {
        serde_json::from_str(&std::fs::read_to_string(self.proposal_path()).unwrap()).unwrap()
    }

    fn set_proposal(&self, value: &serde_json::Value) {
        std::fs::write(self.proposal_path(), value.to_string()).unwrap();
    }
}

const PLAN: &str = "# Plan: Ship the cache

## Goal: Spike
<!-- id: spike -->
status: active
done_when: we know which cache to use
failure_modes:
- decided without measuring

## Log
- 2026-06-15 14:00 spike started (contract ac3b2a67)
";

#[test]
fn yes_adds_the_goals_starts_the_ready_ones_and_logs_the_approval() {
    let d = repo("good");
    d.t.write("plan.md", PLAN);
    let run =
        d.t.ok(&["draft", "Put a cache in front of the database", "--yes"]);
    insta::assert_snapshot!("draft_yes", seen(&d.t, &run));
    let md = d.t.plan_md();
    assert!(
        md.starts_with(PLAN.split("\n## Log").next().unwrap()),
        "{md}"
    );
    assert!(md.contains(
        "## Goal: Document the cache\n<!-- id: document-the-cache -->\nstatus: open\ndone_when: README explains eviction and sizing\ndepends_on: cache-layer\n"
    ));
    let show = d.t.ok(&["show", "--json"]).json();
    let goal = |id: &str| {
        show["goals"]
            .as_array()
            .unwrap()
            .iter()
            .find(|g| g["id"] == id)
            .unwrap_or_else(|| panic!("no goal {id}"))
            .clone()
    };
    assert_eq!(goal("cache-layer")["status"], "active");
    assert_eq!(goal("benchmark-script")["status"], "active");
    assert_eq!(goal("document-the-cache")["status"], "open");
    let contract = goal("cache-layer")["contract"]
        .as_str()
        .unwrap()
        .to_string();
    let log = md.split_once("## Log\n").unwrap().1;
    assert_eq!(
        log.lines().skip(1).collect::<Vec<_>>(),
        [
            "- 2026-06-15 14:02 draft approved: 3 goals (cache-layer, document-the-cache, benchmark-script) for \"Put a cache in front of the database\"".to_string(),
            format!("- 2026-06-15 14:02 cache-layer added (contract {contract})"),
            format!("- 2026-06-15 14:02 cache-layer started (contract {contract})"),
            format!(
                "- 2026-06-15 14:02 document-the-cache added (contract {})",
                goal("document-the-cache")["contract"].as_str().unwrap()
            ),
            format!(
                "- 2026-06-15 14:02 benchmark-script added (contract {})",
                goal("benchmark-script")["contract"].as_str().unwrap()
            ),
            format!(
                "- 2026-06-15 14:02 benchmark-script started (contract {})",
                goal("benchmark-script")["contract"].as_str().unwrap()
            ),
        ]
    );
    d.t.ok(&["lint"]);
    let prompts = d.prompts();
    insta::assert_snapshot!("draft_yes_prompt", redact(&d.t, &prompts));
    assert!(!d.proposal_path().exists());
}

#[test]
fn without_a_terminal_the_draft_waits_for_review_and_approve_applies_it() {
    let d = repo("good");
    let run = d.t.ok(&["draft", "Ship the cache"]);
    insta::assert_snapshot!(shown(&d.t, &run));
    insta::assert_snapshot!("draft_waits_for_review", seen(&d.t, &run));
    assert!(
        !d.t.path("plan.md").exists(),
        "nothing written before approval"
    );
    let p = d.proposal();
    assert_eq!(p["objective"], "Ship the cache");
    assert_eq!(p["draft"], shown_draft(&run.stdout));
    assert_eq!(p["backend"], "command");
    assert_eq!(p["model"], serde_json::Value::Null);
    assert_eq!(p["replace"], false);
    let created = p["created_at"].as_u64().unwrap();
    assert_eq!(p["expires_at"].as_u64().unwrap(), created + 3600);

    insta::assert_snapshot!("review_waiting", seen(&d.t, &d.t.run(&["review"])));
    let json = d.t.ok(&["review", "--json"]).json();
    assert_eq!(json["objective"], "Ship the cache");
    assert_eq!(json["errors"], 0);
    assert_eq!(json["expired"], false);
    assert!(json["seconds_left"].as_i64().unwrap() > 3500);

    let approved = d.t.ok(&["review", "--approve"]);
    insta::assert_snapshot!("review_approve", seen(&d.t, &approved));
    let md = d.t.plan_md();
    assert!(md.starts_with("# Plan: Ship the cache\n\n## Goal: Cache layer\n<!-- id: cache-layer -->\nstatus: active\n"), "{md}");
    assert!(md.contains("draft approved: 3 goals (cache-layer, document-the-cache, benchmark-script) for \"Ship the cache\""));
    assert!(!d.proposal_path().exists(), "an approved proposal is gone");
    insta::assert_snapshot!("review_nothing_waiting", seen(&d.t, &d.t.run(&["review"])));
    insta::assert_snapshot!(
        "error_approve_nothing_waiting",
        seen(&d.t, &d.t.run(&["review", "--approve"]))
    );
    assert_eq!(d.t.ok(&["review", "--json"]).stdout, "null\n");
}

#[test]
fn reject_drops_the_proposal_and_leaves_plan_md() {
    let d = repo("good");
    d.t.write("plan.md", PLAN);
    d.t.ok(&["draft", "Ship the cache"]);
    insta::assert_snapshot!(
        "review_reject",
        seen(&d.t, &d.t.run(&["review", "--reject"]))
    );
    assert!(!d.proposal_path().exists());
    assert_eq!(d.t.plan_md(), PLAN);
}

#[test]
fn an_unreadable_proposal_says_so_and_reject_removes_it() {
    let d = repo("good");
    d.t.write(".git/plan/proposal.json", "{\"objective\": ");
    insta::assert_snapshot!(
        "error_proposal_unreadable",
        seen(&d.t, &d.t.run(&["review"]))
    );
    insta::assert_snapshot!(
        "review_reject_unreadable",
        seen(&d.t, &d.t.run(&["review", "--reject"]))
    );
    assert!(!d.proposal_path().exists());
    insta::assert_snapshot!(
        "error_reject_nothing_waiting",
        seen(&d.t, &d.t.run(&["review", "--reject"]))
    );
}

#[test]
fn edit_redrafts_with_the_feedback_and_renews_the_proposal() {
    let d = repo("good");
    d.t.ok(&["draft", "Ship the cache"]);
    let mut p = d.proposal();
    let created = p["created_at"].as_u64().unwrap();
    p["expires_at"] = (created + 5).into();
    d.set_proposal(&p);
    let run =
        d.t.ok(&["review", "--edit", "drop the benchmark; add cache metrics"]);
    insta::assert_snapshot!("review_edit", seen(&d.t, &run));
    let prompts = d.prompts();
    let second = prompts.split("=== good").nth(2).expect("a second prompt");
    insta::assert_snapshot!("review_edit_prompt", redact(&d.t, so_far(second)));
    let renewed = d.proposal();
    assert_eq!(renewed["draft"], shown_draft(&run.stdout));
    assert!(
        renewed["expires_at"].as_u64().unwrap() >= created + 3600,
        "the expiry is reset"
    );
    d.t.ok(&["review", "--approve"]);
    assert!(
        d.t.plan_md()
            .contains("<!-- id: cache-metrics -->\nstatus: open\n")
    );
    let run = d.t.run(&["review", "--edit", "  "]).code(2);
    insta::assert_snapshot!("error_review_edit_empty", seen(&d.t, &run));
}

#[test]
fn an_expired_proposal_is_refused_and_kept() {
    let d = repo("good");
    d.t.write("plan.md", PLAN);
    d.t.ok(&["draft", "Ship the cache"]);
    let mut p = d.proposal();
    p["expires_at"] = 1.into();
    d.set_proposal(&p);
    let run = d.t.run(&["review", "--approve"]).code(2);
    insta::assert_snapshot!("error_approve_expired", seen(&d.t, &run));
    let run = d.t.run(&["review", "--edit", "more"]).code(2);
    insta::assert_snapshot!("error_edit_expired", seen(&d.t, &run));
    assert_eq!(d.t.plan_md(), PLAN);
    assert!(
        d.proposal_path().exists(),
        "left for `plan doctor --fix` or a new draft"
    );
    insta::assert_snapshot!("review_expired", seen(&d.t, &d.t.run(&["review"])));
    assert_eq!(d.t.ok(&["review", "--json"]).json()["expired"], true);
    assert_eq!(d.calls(), 1, "no model runs for an expired proposal");
    d.t.ok(&["review", "--reject"]);
}

#[test]
fn a_draft_that_does_not_check_is_shown_and_asked_for_again_once() {
    let d = repo("garbage-then-good");
    let run = d.t.ok(&["draft", "Ship the cache", "--yes"]);
    insta::assert_snapshot!("draft_asked_again", seen(&d.t, &run));
    assert_eq!(d.calls(), 2);
    let prompts = d.prompts();
    let second = prompts.split("=== garbage-then-good").nth(2).unwrap();
    insta::assert_snapshot!("draft_asked_again_prompt", redact(&d.t, so_far(second)));
    assert!(d.t.plan_md().contains("<!-- id: cache-metrics -->"));
}

#[test]
fn a_draft_bad_twice_is_refused_and_nothing_is_written() {
    let d = repo("bad");
    d.t.write("plan.md", PLAN);
    let run = d.t.run(&["draft", "Ship the cache", "--yes"]).code(1);
    insta::assert_snapshot!("error_draft_bad_twice", seen(&d.t, &run));
    assert_eq!(d.calls(), 2);
    assert_eq!(d.t.plan_md(), PLAN);
    d.t.run(&["draft", "Ship the cache"]).code(1);
    assert!(!d.proposal_path().exists(), "no proposal from a bad draft");
}

#[test]
fn a_model_that_changes_the_working_tree_is_refused() {
    let d = repo("edits-file");
    d.t.write("plan.md", PLAN);
    d.t.commit_all("start");
    let run = d.t.run(&["draft", "Ship the cache", "--yes"]).code(1);
    insta::assert_snapshot!("error_drafter_changed_the_tree", seen(&d.t, &run));
    assert_eq!(d.t.plan_md(), PLAN);
    assert!(
        d.t.path("drafter-was-here.txt").exists(),
        "left for inspection"
    );
    std::fs::remove_file(d.t.path("drafter-was-here.txt")).unwrap();
    d.t.run(&["draft", "Ship the cache"]).code(1);
    assert!(!d.proposal_path().exists());
}

#[test]
fn replace_cancels_and_archives_the_old_goals_in_the_same_write() {
    let d = repo("good");
    let plan = "# Plan: Old objective

## Goal: Done thing
<!-- id: done-thing -->
status: done
done_when: x

## Goal: Spike
<!-- id: spike -->
status: active
done_when: y
failure_modes:
- z

## Goal: Later
status: open
done_when: w

## Log
- 2026-06-15 13:00 done-thing signed off (verify passed, judge accept)
";
    d.t.write("plan.md", plan);
    let run = d.t.ok(&["draft", "New objective", "--replace", "--yes"]);
    // done-thing's sign-off line has no record: unproven, so it stays in sight.
    insta::assert_snapshot!("draft_replace", seen(&d.t, &run));
    let md = d.t.plan_md();
    insta::assert_snapshot!("plan_md_after_replace", redact(&d.t, &md));
    let (live, _) = md.split_once("## Archive").unwrap();
    assert!(!live.contains("## Goal: Spike"));
    insta::assert_snapshot!("draft_replace_prompt", redact(&d.t, so_far(&d.prompts())));
    let run = d.t.run(&["lint"]).code(1);
    insta::assert_snapshot!("lint_after_replace", seen(&d.t, &run));
}

#[test]
fn replace_is_kept_with_the_proposal() {
    let d = repo("good");
    d.t.write("plan.md", PLAN);
    let run = d.t.ok(&["draft", "New objective", "--replace"]);
    insta::assert_snapshot!("draft_replace_for_review", seen(&d.t, &run));
    assert_eq!(d.proposal()["replace"], true);
    let run = d.t.ok(&["review", "--approve"]);
    insta::assert_snapshot!("review_approve_replace", seen(&d.t, &run));
    assert!(d.t.plan_md().starts_with("# Plan: New objective\n"));
}

#[test]
fn model_and_backend_are_sticky() {
    let d = repo("good");
    let run =
        d.t.ok(&["draft", "Ship the cache", "--model", "big-model", "--yes"]);
    insta::assert_snapshot!("draft_sets_the_model", seen(&d.t, &run));
    let config = d.t.read(".plan/config.yaml");
    assert!(
        config.starts_with("# the plan-phase model\ndraft:\n"),
        "comments kept: {config}"
    );
    assert!(config.contains("  model: big-model\n"), "{config}");
    assert!(config.contains("  timeout_secs: 20\n"));
    let run = d.t.ok(&["draft", "More", "--model", "big-model"]);
    // An unchanged setting is not rewritten: no "set draft.model" on stderr.
    insta::assert_snapshot!("draft_model_kept", seen(&d.t, &run));
    assert_eq!(d.proposal()["model"], "big-model");
    d.t.ok(&["review", "--reject"]);

    let run = d.t.run(&["draft", "x", "--backend", "none"]).code(2);
    insta::assert_snapshot!("error_draft_backend_none_flag", seen(&d.t, &run));
    assert!(d.t.read(".plan/config.yaml").contains("backend: command"));
    let run = d.t.run(&["draft", "x", "--backend", "gpt"]).code(2);
    insta::assert_snapshot!("error_draft_unknown_backend", seen(&d.t, &run));
    d.t.run(&["draft", "x", "--backend", "pi", "--yes"]).code(3);
    assert!(
        d.t.read(".plan/config.yaml").contains("  backend: pi\n"),
        "sticky even when the run fails"
    );
}

#[test]
fn a_drafting_backend_of_none_or_an_empty_command_is_refused() {
    let t = Test::new();
    t.write(".plan/config.yaml", "draft:\n  backend: none\n");
    insta::assert_snapshot!(
        "error_draft_backend_none",
        shown(&t, &t.run(&["draft", "x"]).code(3))
    );
    t.write(".plan/config.yaml", "draft:\n  backend: command\n");
    insta::assert_snapshot!(
        "error_draft_command_empty",
        shown(&t, &t.run(&["draft", "x"]).code(2))
    );
    t.write(
        ".plan/config.yaml",
        "draft:\n  backend: command\n  command: [\"/nonexistent/drafter\"]\n",
    );
    insta::assert_snapshot!(
        "error_drafter_not_found",
        shown(&t, &t.run(&["draft", "x"]).code(3))
    );
    insta::assert_snapshot!(
        "error_draft_no_objective",
        shown(&t, &t.run(&["draft", "  "]).code(2))
    );
    assert!(!t.path("plan.md").exists());
}

#[test]
fn the_prompt_shows_the_goal_templates_as_examples_with_the_repositorys_own() {
    let d = repo("good");
    d.t.write("plan.md", PLAN);
    d.t.write(
        ".plan/templates/bugfix.md",
        "## Goal: {title}\ndone_when: the regression test fails before the fix\nfailure_modes:\n- the fix only silences the crash report\n- [ ] reproduce it\n",
    );
    d.t.write(
        ".plan/templates/migration.md",
        "## Goal: {title}\ndone_when: old rows read back unchanged\nfailure_modes:\n- the migration runs on an empty database only\n",
    );
    d.t.write(".plan/templates/broken.md", "no goal here\n");
    d.t.ok(&["draft", "Put a cache in front of the database", "--yes"]);
    let prompts = d.prompts();
    let examples = prompts
        .split_once("\n## Examples\n")
        .and_then(|(_, rest)| rest.split_once("\n## The plan so far\n"))
        .expect("the prompt's examples")
        .0;
    // The built-in feature and refactor, the repository's bugfix instead of the
    // built-in one, and the migration it adds.
    insta::assert_snapshot!("draft_prompt_examples", redact(&d.t, examples));
    assert!(
        !prompts.contains("the test passes without reproducing the bug first"),
        "the overridden built-in is not shown"
    );
    assert!(
        !prompts.contains("no goal here"),
        "a template that does not read is left out"
    );
    assert!(!prompts.contains("{{examples}}"));
}

/// `--replace` set the first `status:` line of a goal with two and kept the other,
/// so the goal read as cancelled and as active at once, and the log said it was
/// cancelled. A goal with format errors is refused as `plan cancel` refuses it, and
/// plan.md keeps every byte.
#[test]
fn replace_refuses_a_goal_with_format_errors_and_writes_nothing() {
    let d = repo("good");
    let plan = "# Plan: Old objective

## Goal: Spike
<!-- id: spike -->
status: active
status: open
done_when: y

## Log
- 2026-06-15 13:00 spike started
";
    d.t.write("plan.md", plan);
    let run = d.t.run(&["draft", "New objective", "--replace", "--yes"]);
    insta::assert_snapshot!(seen(&d.t, &run));
    assert_eq!(d.t.plan_md(), plan);
}

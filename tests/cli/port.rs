//! `plan export` and `plan import`: the export validates against the schema it
//! publishes, a round trip gives the same goals, each foreign format is imported
//! from a real published file, and goals that come in as done are never taken for
//! signed off.

use crate::util::{Test, fixture_path, shown};

fn fixture(name: &str) -> String {
    fixture_path(&format!("import/{name}"))
        .display()
        .to_string()
}

const PLAN: &str = "# Plan: Ship the cache

## Goal: Cache layer
<!-- id: cache -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty
- verify passes on a trivial or gamed test
- [x] wire the client
- [ ] eviction

## Goal: Document the cache
<!-- id: docs -->
status: open
depends_on: cache
done_when: README explains eviction
failure_modes:
- another policy described
- [ ] write the section

## Goal: Spike
<!-- id: spike -->
status: active
done_when: we know
- [ ] try it

## Log
";

/// The plan above with `cache` signed off through the accepting fixture judge,
/// and `spike` cancelled.
fn signed_repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Cache\n");
    t.write("plan.md", PLAN);
    t.judge("accept");
    t.ok(&["start", "cache"]);
    t.commit_all("start");
    t.ok(&[
        "complete",
        "cache",
        "--evidence",
        "README.md is written",
        "--path",
        "README.md",
    ]);
    t.ok(&["cancel", "spike", "--reason", "not needed"]);
    t
}

fn validator(t: &Test) -> jsonschema::Validator {
    let schema: serde_json::Value =
        serde_json::from_str(&t.ok(&["export", "--schema"]).stdout).expect("the schema is JSON");
    jsonschema::validator_for(&schema).expect("the schema is a valid JSON Schema")
}

fn assert_valid(validator: &jsonschema::Validator, doc: &serde_json::Value, what: &str) {
    let errors: Vec<String> = validator
        .iter_errors(doc)
        .map(|e| format!("{} at {}", e, e.instance_path()))
        .collect();
    assert!(errors.is_empty(), "{what}: {errors:#?}");
}

#[test]
fn every_fixture_plan_exports_valid_against_the_published_schema() {
    let t = Test::new();
    let validator = validator(&t);
    let dir = fixture_path("plans");
    let mut exported = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let t = Test::new();
        t.write("plan.md", &bytes);
        let run = t.run(&["export"]);
        if std::str::from_utf8(&bytes).is_err() {
            assert_ne!(run.code, 0, "{}: not UTF-8, and exported", path.display());
            continue;
        }
        assert_eq!(run.code, 0, "{}: {}", path.display(), run.stderr);
        let doc: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
        assert_eq!(doc["schema"], "plan/1");
        assert_valid(&validator, &doc, &path.display().to_string());
        exported += 1;
    }
    assert!(exported >= 8, "only {exported} fixture plans exported");
    // And a plan with every standing: proven, cancelled, active, open, imported.
    let t = signed_repo();
    let doc = t.ok(&["export"]).json();
    assert_valid(&validator, &doc, "signed-off plan");
    let states: Vec<&str> = doc["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["proof"]["state"].as_str().unwrap())
        .collect();
    assert_eq!(states, ["proven", "unfinished", "proven"]);
    let kinds: Vec<&str> = doc["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|l| l["event"]["event"].as_str())
        .collect();
    assert!(
        kinds.contains(&"signed_off") && kinds.contains(&"cancelled"),
        "{kinds:?}"
    );
    // A document that is not the shape fails: the validator can say no.
    let mut bad = doc.clone();
    bad["goals"][0]["status"] = "doing".into();
    assert!(!validator.is_valid(&bad));
    bad = doc.clone();
    bad["schema"] = "plan/2".into();
    assert!(!validator.is_valid(&bad));
    // The log's events are typed by the schema too.
    let signed = doc["log"]
        .as_array()
        .unwrap()
        .iter()
        .position(|l| l["event"]["event"] == "signed_off")
        .unwrap();
    bad = doc.clone();
    bad["log"][signed]["event"]["verify"] = "yes".into();
    assert!(!validator.is_valid(&bad));
}

#[test]
fn an_exported_log_event_is_the_json_plan_events_prints() {
    // One JSON for an event everywhere: the export's `event` is `plan events
    // --json`'s line without its `at` and a sign-off's `backed`.
    let t = signed_repo();
    let doc = t.ok(&["export"]).json();
    let exported: Vec<serde_json::Value> = doc["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|l| !l["event"].is_null())
        .map(|l| l["event"].clone())
        .collect();
    let printed: Vec<serde_json::Value> = t
        .ok(&["events", "--json"])
        .stdout
        .lines()
        .map(|line| {
            let mut event: serde_json::Value = serde_json::from_str(line).unwrap();
            let fields = event.as_object_mut().unwrap();
            // What the transcript says of a sign-off is the goal's `proof` there.
            for key in ["at", "backed", "unbacked"] {
                fields.remove(key);
            }
            event
        })
        .collect();
    assert!(exported.len() >= 3, "{exported:?}");
    assert_eq!(exported, printed);
}

/// The goals of an export, without what only the source repository can prove.
fn goals(doc: &serde_json::Value) -> Vec<serde_json::Value> {
    doc["goals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| {
            let mut g = g.clone();
            g.as_object_mut().unwrap().remove("proof");
            g
        })
        .collect()
}

#[test]
fn export_import_approve_gives_the_same_goals() {
    let source = signed_repo();
    let exported = source.ok(&["export"]);
    let t = Test::new();
    t.write("export.json", &exported.stdout);
    insta::assert_snapshot!(shown(&t, &t.ok(&["import", "export.json"])));
    assert!(
        !t.path("plan.md").exists(),
        "nothing is written before approval"
    );
    t.ok(&["review", "--approve"]);
    let again = t.ok(&["export"]).json();
    assert_eq!(goals(&again), goals(&exported.json()));
    assert_eq!(again["objective"], "Ship the cache");
    // Done there is imported here: not proven, since no sign-off happened here.
    assert_eq!(again["goals"][0]["proof"]["state"], "imported");
    assert_eq!(
        again["goals"][2]["proof"]["state"], "proven",
        "a cancel needs no proof"
    );
}

/// A goal imported as done is another tool's history: it reads `done (imported
/// from FILE, not signed off by plan)` everywhere, is no lint or doctor error
/// (both exited 1 on every imported done goal before), is listed by audit as
/// imported, is never a proven sign-off, and fails `--strict` only once its
/// contract changed after the import.
#[test]
fn an_imported_done_goal_reads_as_imported_and_is_not_an_error() {
    let t = Test::new();
    t.write(
        "todos.json",
        r#"{"todos": [
            {"content": "Run the tests", "status": "completed", "activeForm": "Running the tests"},
            {"content": "Fix the parser", "status": "in_progress", "activeForm": "Fixing the parser"}
        ]}"#,
    );
    t.ok(&["import", "todos.json"]);
    const LABEL: &str = "done (imported from todos todos.json, not signed off by plan)";
    insta::assert_snapshot!(shown(&t, &t.ok(&["review", "--approve"])));
    assert!(
        t.plan_md()
            .contains(" run-the-tests imported as done from todos todos.json\n")
    );
    let json = t.ok(&["show", "--json"]).json();
    let done = &json["goals"][0];
    assert_eq!(done["status"], "done");
    assert_eq!(done["signed_off"], false);
    assert_eq!(done["proof"]["state"], "imported");
    assert_eq!(done["proof"]["why"], LABEL);
    insta::assert_snapshot!(shown(&t, &t.ok(&["show", "run-the-tests"])));
    t.ok(&["lint"]);
    t.ok(&["doctor"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    t.ok(&["audit", "--strict"]);
    assert_eq!(
        t.ok(&["export"]).json()["goals"][0]["proof"]["state"],
        "imported"
    );
    // A goal waiting on it cannot start: nothing was signed off here.
    t.ok(&[
        "add",
        "Release",
        "--done-when",
        "tagged",
        "--depends-on",
        "run-the-tests",
    ]);
    insta::assert_snapshot!(shown(&t, &t.run(&["start", "release"]).code(2)));
    assert!(!t.plan_md().contains("signed off"));
    // Its contract changed after the import: --strict fails it, plain audit lists it.
    let imported = t.plan_md();
    let md = imported.replace(
        "done_when: Run the tests\n",
        "done_when: Run the tests and the benchmarks\n",
    );
    t.write("plan.md", &md);
    t.ok(&["lint"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["audit"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit", "--strict"]).code(1)));
    t.write("plan.md", &imported);
    t.ok(&["audit", "--strict"]);
    // Signing it off here is how it comes to count.
    t.write("out.log", "ok\n");
    t.judge("accept");
    t.commit_all("import");
    t.ok(&[
        "complete",
        "run-the-tests",
        "--evidence",
        "tests pass",
        "--path",
        "out.log",
    ]);
    assert_eq!(
        t.ok(&["export"]).json()["goals"][0]["proof"]["state"],
        "proven"
    );
}

#[test]
fn taskmaster_tagged_file_with_its_current_tag() {
    let t = Test::new();
    let tasks = std::fs::read_to_string(fixture("taskmaster-tasks.json")).unwrap();
    t.write(".taskmaster/tasks/tasks.json", &tasks);
    // testStrategy becomes done_when, subtasks 1.x the parent's subtasks, priority
    // and tag labels (not dropped), and the unmapped fields are listed.
    let out = t.ok(&["import", ".taskmaster/tasks/tasks.json"]);
    insta::assert_snapshot!(crate::util::redact(&t, &out.stdout));
    // The review shows the same, unmapped fields included, until it is approved.
    insta::assert_snapshot!(shown(&t, &t.ok(&["review"])));
    let json = t.ok(&["review", "--json"]).json();
    assert_eq!(json["import"]["format"], "taskmaster");
    assert!(json["import"]["unmapped"].as_array().unwrap().len() >= 2);
    t.ok(&["review", "--approve"]);
    let doc = t.ok(&["export"]).json();
    assert_eq!(doc["goals"].as_array().unwrap().len(), 26);
    // task-master keeps the current tag in .taskmaster/state.json; an unknown one
    // is refused with the tags there are.
    t.write(".taskmaster/state.json", r#"{"currentTag": "feature"}"#);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["import", ".taskmaster/tasks/tasks.json", "--tag", "nope"])
            .code(2)
    ));
}

#[test]
fn taskmaster_current_tag_comes_from_its_state_file_and_tag_picks_another() {
    let t = Test::new();
    let tasks: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(fixture("taskmaster-tasks.json")).unwrap())
            .unwrap();
    // The real file's master tag, and a second tag holding only its last task.
    let mut feature = tasks["master"].clone();
    let last = feature["tasks"].as_array().unwrap().last().unwrap().clone();
    feature["tasks"] = serde_json::json!([last]);
    let mut tagged = tasks.clone();
    tagged["feature"] = feature;
    t.write(".taskmaster/tasks/tasks.json", tagged.to_string());
    t.write(".taskmaster/state.json", r#"{"currentTag": "feature"}"#);
    // Without --tag every tag comes in, the current one first, each goal
    // labelled with its tag.
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", ".taskmaster/tasks/tasks.json"])
    ));
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", ".taskmaster/tasks/tasks.json", "--tag", "feature"])
    ));
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", ".taskmaster/tasks/tasks.json", "--tag", "master"])
    ));
}

#[test]
fn taskmaster_legacy_file() {
    let t = Test::new();
    let out = t.ok(&[
        "import",
        &fixture("taskmaster-legacy-tasks.json"),
        "--from",
        "taskmaster",
    ]);
    // Subtask dependencies are kept in the subtask's text (`after`).
    insta::assert_snapshot!(crate::util::redact(&t, &out.stdout));
    t.ok(&["review", "--approve"]);
    let md = t.plan_md();
    assert!(md.contains("## Goal: Create Shared Types Package\n<!-- id: create-shared-types-package -->\nstatus: done\n"));
    assert!(md.contains("create-shared-types-package imported as done from taskmaster "));
}

#[test]
fn ralph_prd_stories_with_acceptance_criteria() {
    let t = Test::new();
    insta::assert_snapshot!(shown(&t, &t.ok(&["import", &fixture("ralph-prd.json")])));
    t.ok(&["review", "--approve"]);
    let doc = t.ok(&["export"]).json();
    let imported = doc["goals"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|g| g["proof"]["state"] == "imported")
        .count();
    assert_eq!(imported, 2, "passes: true comes in as done, imported");
}

#[test]
fn planner_steps_in_order_with_commands_as_verify() {
    let t = Test::new();
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", &fixture("planner-steps.json")])
    ));
    t.ok(&["review", "--approve"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["next"])));
}

#[test]
fn host_todo_lists_as_tool_input() {
    let t = Test::new();
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", &fixture("claude-todowrite-hook.json")])
    ));
    t.ok(&["review", "--reject"]);
    insta::assert_snapshot!(shown(
        &t,
        &t.ok(&["import", &fixture("qwen-todo-write.json")])
    ));
    // An import has no model to redraft it.
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["review", "--edit", "more detail"]).code(2)
    ));
    insta::assert_snapshot!(shown(&t, &t.ok(&["review", "--approve"])));
    assert_eq!(
        t.ok(&["export"]).json()["goals"].as_array().unwrap().len(),
        3
    );
}

#[test]
fn ids_taken_in_plan_md_are_renamed_and_said_so() {
    let t = Test::new().plan(
        "# Plan: Mine\n\n## Goal: Run the tests\n<!-- id: run-the-tests -->\nstatus: active\ndone_when: green\n\n## Log\n",
    );
    t.write(
        "todos.json",
        r#"{"todos": [{"content": "Run the tests", "status": "pending", "activeForm": "Running"}]}"#,
    );
    t.ok(&["import", "todos.json"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["review", "--approve"])));
    assert!(t.plan_md().starts_with("# Plan: Mine\n"));
}

#[test]
fn unreadable_or_unknown_input_is_refused_with_a_hint() {
    let t = Test::new();
    insta::assert_snapshot!(shown(&t, &t.run(&["import", "missing.json"]).code(2)));
    t.write("x.json", r#"{"name": "not a plan"}"#);
    insta::assert_snapshot!(shown(&t, &t.run(&["import", "x.json"]).code(2)));
    t.write("bad.json", "{");
    insta::assert_snapshot!(shown(&t, &t.run(&["import", "bad.json"]).code(2)));
    assert!(!t.path(".git/plan/proposal.json").exists());
}

/// Attack (red team): two `plan review --approve` at once both read the waiting
/// import and both applied it: its goal twice, under two ids. The first paused
/// after its read (`PLAN_TEST_PAUSE`) while the second runs: one approval takes
/// the proposal, the other finds none waiting.
#[test]
fn two_approvals_at_once_apply_a_proposal_once() {
    let t = Test::new();
    t.ok(&["init", "Ship"]);
    t.write(
        "todos.json",
        r#"{"todos": [{"content": "First", "status": "pending", "activeForm": "Doing it"}]}"#,
    );
    t.ok(&["import", "todos.json"]);
    let (first, gate) = t.spawn_paused(t.cmd(&["review", "--approve"]));
    let second = t
        .cmd(&["review", "--approve"])
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    std::fs::remove_file(&gate).unwrap();
    let first = first.wait_with_output().unwrap();
    let second = second.wait_with_output().unwrap();
    let goals = t.plan_md().matches("\n## Goal: First\n").count();
    assert_eq!(goals, 1, "{}", t.plan_md());
    assert_eq!(
        (first.status.code(), second.status.code()),
        (Some(0), Some(2))
    );
    assert_eq!(
        String::from_utf8_lossy(&second.stderr),
        "plan: no draft is waiting for review\n  hint: `plan draft OBJECTIVE` drafts one\n"
    );
}

/// Attack (red team): imported into a plan.md with an objective of its own, the
/// source's objective (ralph's `project` and `description`) went nowhere, though
/// the review showed it. The approval's log line keeps it.
#[test]
fn an_import_s_objective_is_kept_in_the_log_when_plan_md_has_its_own() {
    let t = Test::new();
    t.ok(&["init", "Ship the cache"]);
    t.write(
        "prd.json",
        r#"{"project": "Calc", "description": "A calculator", "userStories": [{"id": "US-001", "title": "Add", "acceptanceCriteria": ["it adds"], "passes": false}]}"#,
    );
    t.ok(&["import", "prd.json"]);
    t.ok(&["review", "--approve"]);
    let md = t.plan_md();
    let approved: Vec<&str> = md
        .lines()
        .filter(|l| l.contains("draft approved"))
        .collect();
    assert_eq!(
        approved,
        [
            "- 2026-06-15 14:02 draft approved: 1 goal (add) imported from prd prd.json for \"Calc: A calculator\""
        ]
    );
    assert!(md.starts_with("# Plan: Ship the cache\n"));
}

//! `plan import` on files of another shape: a `prd.json` that is not ralph's (a
//! list of tasks, phases, `stories`) is refused with exit 2, naming the file, the
//! key it lacked and the shape plan reads; it never panics.

use crate::util::Test;

const PRD_HINT: &str = "  hint: ralph's prd.json looks like {\"userStories\": [{\"id\": \"US-001\", \"title\": \"…\", \"acceptanceCriteria\": [\"…\"], \"passes\": false}]}; leave --from out and plan import detects task-master's tasks.json (`tasks`), ralph's prd.json (`userStories`), a steps list (`steps`), a todo list (`todos`), `plan export` (`\"schema\": \"plan/1\"`) and Markdown checklists\n";

#[test]
fn a_prd_json_that_is_not_ralphs_is_refused_by_name_not_a_panic() {
    let t = Test::new();
    // Two shapes of prd.json seen in public repositories: phases of tasks and a
    // top-level list of tasks (`stories` is read, below).
    for (json, found) in [
        (
            r#"{"project": {"name": "Alerts"}, "phases": [{"id": "phase-1", "tasks": [{"id": "task-1.1", "name": "Rename"}]}]}"#,
            "an object with keys project, phases",
        ),
        (
            r#"[{"category": "CLI", "description": "Add --sample", "steps": ["a"], "passes": false}]"#,
            "a list of 1 item",
        ),
    ] {
        t.write("prd.json", json);
        t.case(&["import", "prd.json", "--from", "prd"])
            .status(2)
            .stderr(&format!(
                "plan: prd.json: not ralph's prd.json: no `userStories` list in it ({found})\n{PRD_HINT}"
            ))
            .check();
    }
    // Nothing was kept for review.
    t.case(&["review"])
        .stdout("no draft is waiting for review\n  hint: `plan draft OBJECTIVE` drafts one\n")
        .check();
}

/// A prd.json with `stories` (each with `acceptance_criteria`, `passes`,
/// `dependencies`) in place of ralph's `userStories` imports the same way:
/// every story, its status, its dependencies and its criteria as done_when,
/// with `branchName` listed as having no place. Before, it was refused.
#[test]
fn a_prd_json_with_stories_imports_like_user_stories() {
    let t = Test::new();
    t.write(
        "prd.json",
        r#"{"project": "Speech", "branchName": "ralph/speech", "description": "Read aloud", "stories": [
            {"id": "S01", "title": "Setup", "description": "Scaffold", "acceptance_criteria": ["builds", "runs"], "passes": true, "dependencies": [], "priority": 1},
            {"id": "S02", "title": "Play", "acceptance_criteria": ["plays a file"], "passes": false, "dependencies": ["S01"], "priority": 2}
        ]}"#,
    );
    insta::assert_snapshot!(crate::util::redact(
        &t,
        &t.ok(&["import", "prd.json"]).stdout
    ));
}

/// Attack (red team): an id the file gives twice (task-master's `3` and `"3"`,
/// two stories `US-002`) became two goals without a word, and a dependency on it
/// went to whichever came last. The mapping says so, and takes the first.
#[test]
fn an_id_given_twice_in_the_file_is_said() {
    let t = Test::new();
    t.write(
        "tasks.json",
        r#"{"tasks": [
            {"id": 3, "title": "Schema", "status": "pending", "testStrategy": "migrations run"},
            {"id": "3", "title": "Seed data", "status": "pending", "testStrategy": "rows exist"},
            {"id": 4, "title": "API", "status": "pending", "testStrategy": "it serves", "dependencies": [3]}
        ]}"#,
    );
    let run = t.ok(&["import", "tasks.json"]);
    let mapped: Vec<&str> = run
        .stdout
        .lines()
        .skip_while(|l| *l != "how it was mapped:")
        .take_while(|l| !l.is_empty())
        .collect();
    assert_eq!(
        mapped,
        [
            "how it was mapped:",
            "  - seed-data: task 3 is in the file twice (also schema); a dependency on task 3 is taken as schema",
        ]
    );
    let deps: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("depends_on: "))
        .collect();
    assert_eq!(deps, ["depends_on: schema"], "{}", run.stdout);
}

/// Without `--from`, a JSON file of no known shape is refused naming the shape
/// found and the keys it lacked (before, it named only the shape).
#[test]
fn an_unknown_json_shape_names_the_keys_it_lacks() {
    let t = Test::new();
    t.write(
        "prd.json",
        r#"{"project": {"name": "Alerts"}, "phases": [{"id": "phase-1", "tasks": []}]}"#,
    );
    let run = t
        .case(&["import", "prd.json"])
        .status(2)
        .check_status_only();
    insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
}

/// A Backlog.md folder in its shape: task files with YAML front matter (both
/// list forms), `#N` acceptance criteria between Backlog.md's markers, a
/// Definition of Done, a finished task moved to `completed/`, a draft, an
/// archived task and a README without front matter.
fn backlog(t: &Test) {
    t.write(
        "backlog/tasks/task-1 - Parse the config.md",
        "---\nid: task-1\ntitle: Parse the config\nstatus: Done\nassignee:\n  - '@ana'\ncreated_date: '2026-01-02 10:00'\nlabels: [core, config]\ndependencies: []\npriority: high\n---\n\n## Description\n\n<!-- SECTION:DESCRIPTION:BEGIN -->\nRead settings from config.yml.\n<!-- SECTION:DESCRIPTION:END -->\n\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [x] #1 A missing file gives defaults\n- [x] #2 A bad key names its line\n<!-- AC:END -->\n",
    );
    t.write(
        "backlog/tasks/task-2 - Serve the board.md",
        "---\nid: TASK-2\ntitle: 'Serve the board: read-only'\nstatus: In Progress\nassignee: []\nlabels:\n  - web\ndependencies:\n  - task-1\nmilestone: m-1\npriority: medium\nordinal: 2000\n---\n\n## Description\n\nShow tasks in columns.\n\n## Acceptance Criteria\n<!-- AC:BEGIN -->\n- [x] #1 Columns follow the statuses\n- [ ] #2 A task opens on click\n<!-- AC:END -->\n\n## Definition of Done\n<!-- DOD:BEGIN -->\n- [ ] #1 Tests pass\n<!-- DOD:END -->\n\n## Implementation Notes\n\nUse the existing router.\n",
    );
    t.write(
        "backlog/tasks/task-10 - Export.md",
        "---\nid: task-10\ntitle: Export\nstatus: Needs Review\ndependencies: [task-2, task-99]\n---\n\n## Description\n\nExport the board as CSV.\n",
    );
    t.write(
        "backlog/completed/task-3 - Old parser.md",
        "---\nid: task-3\ntitle: Old parser\nstatus: To Do\n---\n\n## Acceptance Criteria\n- [ ] Parses\n",
    );
    t.write(
        "backlog/drafts/draft-1 - Maybe a CLI.md",
        "---\nid: draft-1\ntitle: Maybe a CLI\nstatus: To Do\n---\n",
    );
    t.write(
        "backlog/archive/tasks/task-4 - Dropped idea.md",
        "---\nid: task-4\ntitle: Dropped idea\nstatus: To Do\n---\n",
    );
    t.write("backlog/tasks/readme.md", "# Tasks\n");
    t.write("backlog/config.yml", "project_name: \"Board\"\n");
}

/// `plan import backlog/` (detected) and `--from backlog` read a Backlog.md
/// folder: status (and the folder it lives in), dependencies, acceptance
/// criteria as done_when and ticked subtasks, labels, priority and milestone as
/// labels, the body in the notes, and what had no place is listed. Before, a
/// folder could not be imported at all.
#[test]
fn a_backlog_folder_imports_with_status_dependencies_and_criteria() {
    let t = Test::new();
    backlog(&t);
    let run = t.ok(&["import", "backlog"]);
    insta::assert_snapshot!(crate::util::redact(&t, &run.stdout));
    // In progress there, but it waits on a task imported as done: open here.
    insta::assert_snapshot!(crate::util::redact(
        &t,
        &t.ok(&["review", "--approve"]).stdout
    ));
    t.ok(&["lint"]);
    // The same folder named explicitly, and the folder above it.
    insta::assert_snapshot!(crate::util::redact(
        &t,
        &t.ok(&["import", "backlog", "--from", "backlog"]).stdout
    ));
    insta::assert_snapshot!(crate::util::redact(&t, &t.ok(&["import", "."]).stdout));
}

/// A folder that is not a Backlog.md one, and `--from backlog` on a file, are
/// refused with what to give instead.
#[test]
fn a_folder_that_is_not_a_backlog_is_refused() {
    let t = Test::new();
    t.write("notes/a.txt", "hello\n");
    t.case(&["import", "notes"])
        .status(2)
        .stderr("plan: notes is a folder, and not a Backlog.md one: it has no tasks/, completed/ or drafts/ of Markdown files\n  hint: give a plan file (tasks.json, prd.json, a Markdown plan) or a `backlog/` folder\n")
        .check();
    t.write("TODO.md", "- [ ] a\n");
    t.case(&["import", "TODO.md", "--from", "backlog"])
        .status(2)
        .stderr("plan: TODO.md: --from backlog reads a folder, and this is not one\n  hint: give the `backlog/` folder: plan import backlog/\n")
        .check();
}

// Attack on the Backlog.md import: a task file that is a link to a file outside the
// `backlog/` folder (`tasks/task-2 - Leak.md -> ~/secret.md`), or a `tasks/` folder
// that is a link out of it, is read through the link, so whatever it points at lands
// in the proposal and, approved, in plan.md's notes. Nothing outside the folder is
// read: the import refuses, naming the link.
#[test]
fn a_backlog_task_linked_outside_the_folder_is_not_read() {
    let task = |id: &str, title: &str, body: &str| {
        format!("---\nid: {id}\ntitle: {title}\nstatus: To Do\n---\n\n{body}\n")
    };
    let secret = |t: &Test, name: &str| {
        let path = t.dir.path().join(name);
        std::fs::write(&path, task("task-9", "Leak", "SECRET-TOKEN-123")).unwrap();
        path
    };
    // A task file linked out.
    let t = Test::new().plan("# Plan: Import\n\n## Log\n");
    t.write(
        "backlog/tasks/task-1 - Parse.md",
        task("task-1", "Parse", "parse it"),
    );
    let outside = secret(&t, "secret.md");
    std::os::unix::fs::symlink(&outside, t.root().join("backlog/tasks/task-2 - Leak.md")).unwrap();
    let run = t.run(&["import", "backlog/"]);
    assert!(
        !run.stdout.contains("SECRET") && !run.stderr.contains("SECRET") && run.code != 0,
        "read through the link: {}{}",
        run.stdout,
        run.stderr
    );
    insta::assert_snapshot!(crate::util::redact(&t, &run.stderr));
    // A folder linked out.
    let t = Test::new().plan("# Plan: Import\n\n## Log\n");
    t.write(
        "backlog/tasks/task-1 - Parse.md",
        task("task-1", "Parse", "parse it"),
    );
    let away = t.dir.path().join("away");
    std::fs::create_dir_all(&away).unwrap();
    std::fs::write(
        away.join("task-9 - Leak.md"),
        task("task-9", "Leak", "SECRET-TOKEN-123"),
    )
    .unwrap();
    std::os::unix::fs::symlink(&away, t.root().join("backlog/drafts")).unwrap();
    let run = t.run(&["import", "backlog/"]);
    assert!(
        !run.stdout.contains("SECRET") && !run.stderr.contains("SECRET") && run.code != 0,
        "read through the link: {}{}",
        run.stdout,
        run.stderr
    );
}

/// Attack (red team): another repository's plan.md, in plan's own format, imported
/// as Markdown (as the docs offer: "plan.md itself"). Its goals' headings held
/// checklist items, so each became a goal titled `Goal: Cache layer` whose
/// done_when was that heading: the contract (`done_when`, `verify`, the failure
/// modes, `depends_on`) was dropped without a word. It is read as plan reads it.
#[test]
fn a_plan_md_of_plans_own_format_imports_with_its_contracts() {
    let t = Test::new();
    t.ok(&["init", "Mine"]);
    t.write(
        "other/plan.md",
        "# Plan: Other\n\n## Goal: Cache layer\n<!-- id: cache -->\nMeasured on the staging box.\nstatus: active\ndone_when: p95 < 50ms under the load test\nverify: cargo test cache\nfailure_modes:\n- cache hides stale reads\n- [ ] write the cache\n- [x] measure\n\n## Goal: Docs\n<!-- id: docs -->\nstatus: open\ndone_when: README explains the cache\ndepends_on: cache\n- [ ] intro\n\n## Log\n- 2026-01-01 00:00 plan created\n",
    );
    // The goals with their contracts, ids, subtasks and the prose line as a note.
    insta::assert_snapshot!(t.ok(&["import", "other/plan.md"]).stdout);
    t.ok(&["review", "--approve"]);
    insta::assert_snapshot!(t.plan_md());
}

/// Attack (red team): a file saved by an editor that writes a byte order mark.
/// The mark stuck to the first line, so a Markdown checklist's first item (or its
/// `# ` title) was no item and was dropped without a word, and a task-master
/// tasks.json was refused as "not JSON".
#[test]
fn a_byte_order_mark_loses_no_first_item_and_refuses_no_json() {
    let t = Test::new();
    t.ok(&["init", "Mine"]);
    t.write(
        "todo.md",
        "\u{feff}- [ ] First task from a Windows editor\n- [ ] Second\n",
    );
    insta::assert_snapshot!(t.ok(&["import", "todo.md"]).stdout);
    t.write(
        "phases.md",
        "\u{feff}# Launch\n\n## Phase 1: Setup\n- [ ] a\n\n## Phase 2: Build\n- [ ] b\n",
    );
    insta::assert_snapshot!(t.ok(&["import", "phases.md"]).stdout);
    t.write(
        "tasks.json",
        "\u{feff}{\"tasks\": [{\"id\": 1, \"title\": \"Parse\", \"testStrategy\": \"parser tests pass\"}]}",
    );
    insta::assert_snapshot!(t.ok(&["import", "tasks.json"]).stdout);
}

/// Red team: a control character a JSON file escapes (`\u0000`, `\u001b`) went
/// raw into plan.md on approval: a NUL byte makes git treat plan.md as binary
/// (no diff, no merge driver, no line merge). The import is refused, naming the
/// goal and what to do; nothing is kept.
#[test]
fn a_control_character_in_imported_json_is_refused_by_goal() {
    let t = Test::new();
    t.ok(&["init", "Mine"]);
    let before = t.plan_md();
    for (ch, shown) in [("\\u0000", "\\x00"), ("\\u001b", "\\x1b")] {
        t.write(
            "tasks.json",
            format!("{{\"tasks\": [{{\"id\": 1, \"title\": \"Parse\", \"testStrategy\": \"parser{ch} tests pass\"}}]}}"),
        );
        let run = t.run(&["import", "tasks.json"]).code(2);
        // The character shown escaped, the goal named, nothing kept.
        insta::assert_snapshot!(shown.trim_start_matches('\\'), run.stderr);
        t.case(&["review"])
            .stdout("no draft is waiting for review\n  hint: `plan draft OBJECTIVE` drafts one\n")
            .check();
    }
    assert_eq!(t.plan_md(), before);
}

/// Red team: a code fence never closed hid the rest of a Markdown plan: its
/// checklist items after the fence were skipped without a word (2 goals of 4).
/// The import is refused, naming the fence's line and the first line it hid.
#[test]
fn an_unclosed_code_fence_that_hides_items_is_refused_by_line() {
    let t = Test::new();
    t.ok(&["init", "Mine"]);
    t.write(
        "todo.md",
        "- [ ] one\n- [ ] two\n\n```sh\ncargo test\n\n- [ ] three\n- [ ] four\n",
    );
    insta::assert_snapshot!(t.run(&["import", "todo.md"]).code(2).stderr);
    t.case(&["review"])
        .stdout("no draft is waiting for review\n  hint: `plan draft OBJECTIVE` drafts one\n")
        .check();
    // Closed, it imports all four; a fence left open at the end with only code in
    // it hides nothing and is read as before.
    t.write(
        "todo.md",
        "- [ ] one\n- [ ] two\n\n```sh\ncargo test\n```\n\n- [ ] three\n- [ ] four\n",
    );
    insta::assert_snapshot!(t.ok(&["import", "todo.md"]).stdout);
    t.write("todo.md", "- [ ] one\n- [ ] two\n\n```sh\ncargo test\n");
    insta::assert_snapshot!(t.ok(&["import", "todo.md"]).stdout);
}

/// A goal imported as done, approved, then `plan archive`: it is refused (it was never
/// signed off here), and the refusal said "is done but unproven: " with nothing after
/// the colon. It now says what the goal is.
#[test]
fn archive_names_a_goal_imported_as_done_rather_than_an_empty_reason() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n- 2026-01-01 10:00 plan created\n");
    t.write(
        "tasks.json",
        r#"{"tasks":[{"id":1,"title":"Done thing","description":"d","status":"done"}]}"#,
    );
    t.ok(&["import", "tasks.json"]);
    t.ok(&["review", "--approve"]);
    t.case(&["archive"])
        .status(1)
        .stderr("plan: not archived: done-thing is done (imported from taskmaster tasks.json, not signed off by plan)\n  hint: sign them off with `plan complete ID --evidence TEXT`, or record a cancel with `plan cancel ID --reason TEXT`; `plan audit` shows each record\n")
        .check();
}

/// Attack: a tool rewriting TODO.md in place while `plan import` read it gave an
/// import of the half it had written (1,035 goals of a file that only ever held 1
/// or 2,000 items). plan now compares the file's size and time before and after
/// the read, and reads again when they differ: here the tool finishes its save
/// between plan's read and its look after it (the store's test seam).
#[test]
fn a_file_rewritten_while_import_reads_it_is_read_again_whole() {
    let t = Test::new();
    let items =
        |n: usize| -> String { (0..n).map(|i| format!("- [ ] item number {i}\n")).collect() };
    t.write("TODO.md", items(10));
    let (child, gate) = t.spawn_paused(t.cmd(&["import", "TODO.md"]));
    t.write("TODO.md", items(20));
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let proposal: serde_json::Value =
        serde_json::from_str(&t.read(".git/plan/proposal.json")).unwrap();
    let draft = proposal["draft"].as_str().unwrap();
    assert_eq!(draft.matches("## Goal: ").count(), 20, "{draft}");
}

/// Attack: UTF-16 files were refused as "invalid utf-8 … index 0", UTF-16 without
/// a byte order mark and files whose lines end in a lone CR as "holds no checklist
/// items". Each is now named, with a way to convert it; exit 2, nothing kept.
#[test]
fn utf16_and_lone_cr_files_are_refused_by_what_they_are() {
    let t = Test::new();
    let text = "# TODO\n- [ ] one\n- [x] two\n";
    let le = |mark: bool| -> Vec<u8> {
        let mut out = if mark { vec![0xFF, 0xFE] } else { Vec::new() };
        out.extend(text.encode_utf16().flat_map(u16::to_le_bytes));
        out
    };
    for (bytes, said) in [
        (
            le(true),
            "is UTF-16 (little-endian, with a byte order mark)",
        ),
        (
            le(false),
            "is UTF-16 (little-endian, without a byte order mark)",
        ),
        (
            text.replace('\n', "\r").into_bytes(),
            "lines end in a lone carriage return",
        ),
    ] {
        t.write("TODO.md", &bytes);
        let run = t.run(&["import", "TODO.md"]).code(2).stderr_has(said);
        assert!(run.stderr.contains("hint: convert it"), "{}", run.stderr);
        assert!(!t.path(".git/plan/proposal.json").exists());
    }
}

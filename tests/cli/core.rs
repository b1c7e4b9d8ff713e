//! The everyday commands, end to end: what they print, what they write, and how
//! they refuse.

use crate::util::{Test, fixture, redact, shown};

const STARTED: &str = "# Plan: Ship it

## Goal: Build it
<!-- id: build -->
status: open
done_when: it builds
verify: cargo build
failure_modes:
- builds only in debug
- verify passes on a stale target dir
- [ ] one
- [ ] two

## Log
- 2026-06-15 14:00 plan created
";

#[test]
fn init_creates_a_plan_and_refuses_twice() {
    let t = Test::new();
    insta::assert_snapshot!(shown(&t, &t.ok(&["init", "Ship the cache layer"])));
    assert_eq!(
        t.plan_md(),
        "# Plan: Ship the cache layer\n\n## Log\n- 2026-06-15 14:02 plan created\n"
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["init", "again"]).code(2)));
    assert!(t.plan_md().contains("Ship the cache layer"));
}

#[test]
fn init_without_objective_uses_the_directory_name() {
    let t = Test::new();
    t.ok(&["init"]);
    assert!(t.plan_md().starts_with("# Plan: repo\n"));
}

#[test]
fn add_prints_id_and_writes_the_contract() {
    let t = Test::new().plan("# Plan: x\n\n## Log\n");
    let run = t.ok(&[
        "add",
        "Cache layer",
        "--done-when",
        "p95 < 50ms",
        "--verify",
        "cargo test",
        "--failure-mode",
        "cache bypassed",
        "--failure-mode",
        "verify passes on a gamed test",
        "--subtask",
        "wire client",
    ]);
    assert_eq!(run.stdout, "cache-layer\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["add", "Cache layer"])));
    t.ok(&["add", "Docs", "--depends-on", "cache-layer-2,cache-layer"]);
    insta::assert_snapshot!(t.plan_md(), @"
    # Plan: x

    ## Goal: Cache layer
    <!-- id: cache-layer -->
    status: open
    done_when: p95 < 50ms
    verify: cargo test
    failure_modes:
    - cache bypassed
    - verify passes on a gamed test
    - [ ] wire client

    ## Goal: Cache layer
    <!-- id: cache-layer-2 -->
    status: open

    ## Goal: Docs
    <!-- id: docs -->
    status: open
    depends_on: cache-layer-2, cache-layer

    ## Log
    - 2026-06-15 14:02 cache-layer added (contract 498b8230)
    - 2026-06-15 14:02 cache-layer-2 added (contract 124480b5)
    - 2026-06-15 14:02 docs added (contract 408c5ef8)
    ");
}

#[test]
fn add_active_logs_the_contract_and_checks_dependencies() {
    let t = Test::new().plan(STARTED);
    t.ok(&["add", "Ship", "--done-when", "shipped", "--active"]);
    assert!(
        t.plan_md()
            .contains("- 2026-06-15 14:02 ship started (contract ")
    );
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["add", "Docs", "--depends-on", "build", "--active"])
            .code(2)
    ));
    assert!(!t.plan_md().contains("Docs"));
}

#[test]
fn start_logs_the_git_blob_id_of_the_contract() {
    let t = Test::new().plan(STARTED);
    let run = t.ok(&["start", "bu"]);
    let contract = "done_when: it builds\nverify: cargo build\nfailure_modes:\n- builds only in debug\n- verify passes on a stale target dir\n";
    t.write("contract.txt", contract);
    let blob = t.git(&["hash-object", "contract.txt"]);
    let short = &blob[..8];
    assert_eq!(run.stdout, format!("started build (contract {short})\n"));
    let md = t.plan_md();
    assert!(md.contains("status: active\n"));
    // No commit yet to name; the verify ran (red first) and failed.
    assert!(md.ends_with(&format!(
        "- 2026-06-15 14:02 build started (contract {short}, verify failing)\n"
    )));
    // Again: nothing to do.
    insta::assert_snapshot!(shown(&t, &t.ok(&["start", "build"])));
}

#[test]
fn reapprove_records_a_changed_contract() {
    let t = Test::new().plan(STARTED);
    t.ok(&["start", "build"]);
    let edited = t
        .plan_md()
        .replace("done_when: it builds", "done_when: it builds fast");
    t.write("plan.md", &edited);
    insta::assert_snapshot!(shown(&t, &t.run(&["start", "build"]).code(2)));
    insta::assert_snapshot!(shown(&t, &t.ok(&["start", "build", "--reapprove"])));
    assert!(t.plan_md().contains("build contract reapproved (contract "));
}

#[test]
fn tick_subtask_subgoal() {
    let t = Test::new().plan(STARTED);
    insta::assert_snapshot!(shown(&t, &t.ok(&["tick", "build", "2"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["tick", "build", "2"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", "build", "3"]).code(2)));
    insta::assert_snapshot!(shown(&t, &t.ok(&["subtask", "build", "three"])));
    t.ok(&["start", "build"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["subgoal", "build", "release build too"])));
    let md = t.plan_md();
    assert!(md.contains("- [ ] one\n- [x] two\n- [ ] three\n"));
    assert!(md.contains("done_when: it builds; release build too\n"));
    assert!(md.contains("build criterion added: release build too (contract "));
}

#[test]
fn subgoal_refuses_to_launder_an_edited_contract() {
    let t = Test::new().plan(STARTED);
    t.ok(&["start", "build"]);
    t.write(
        "plan.md",
        t.plan_md().replace("- builds only in debug\n", ""),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["subgoal", "build", "x"]).code(2)));
}

#[test]
fn log_appends_in_order() {
    let t = Test::new().plan(STARTED);
    t.ok(&["log", "first", "words"]);
    t.ok(&["log", "second\nline"]);
    assert!(t.plan_md().ends_with(
        "- 2026-06-15 14:00 plan created\n- 2026-06-15 14:02 first words\n- 2026-06-15 14:02 second line\n"
    ));
}

#[test]
fn cancel_needs_a_reason_and_moves_forward_only() {
    let t = Test::new().plan(STARTED);
    insta::assert_snapshot!(shown(&t, &t.run(&["cancel", "build"]).code(2)));
    t.ok(&["cancel", "build", "--reason", "not needed"]);
    assert!(t.plan_md().contains("status: cancelled\n"));
    assert!(t.plan_md().contains("build cancelled: not needed"));
    insta::assert_snapshot!(shown(&t, &t.run(&["start", "build"]).code(2)));
}

#[test]
fn done_goal_cannot_be_restarted() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let run = t.run(&["start", "hashing"]).code(2);
    insta::assert_snapshot!(run.stderr, @"
    plan: goal hashing is done
      hint: to work on it again: plan reopen hashing --reason TEXT
    ");
}

#[test]
fn unknown_and_ambiguous_ids_list_candidates() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", "nope", "1"]).code(2)));
    insta::assert_snapshot!(shown(&t, &t.run(&["tick", "cache", "1"]).code(2)));
}

#[test]
fn first_write_to_a_hand_written_goal_adds_its_id() {
    let t = Test::new().plan(&fixture("plans/hand-written.md"));
    insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
    t.ok(&["tick", "write", "1"]);
    assert!(
        t.plan_md()
            .contains("## Goal: Write The Docs\n<!-- id: write-the-docs -->\nstatus: open\n")
    );
    // Renaming the title now keeps the id.
    t.write(
        "plan.md",
        t.plan_md().replace("Write The Docs", "Write the manual"),
    );
    t.ok(&["subtask", "write-the-docs", "index"]);
    let lint = t.ok(&["lint"]).stdout;
    insta::assert_snapshot!(redact(&t, &lint));
    assert!(
        t.plan_md()
            .contains("## Goal: Write the manual\n<!-- id: write-the-docs -->\n")
    );
}

#[test]
fn widget_snapshot() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    insta::assert_snapshot!(t.ok(&[]).stdout, @"
    Plan: Ship the cache layer

    active
      cache-layer  Implement cache layer  1/3
                   [x] wire cache client
                   [ ] eviction policy
                   [ ] load test

    open
      cache-docs   Document the cache  0/1  waits on cache-layer
                   [ ] write section

    done
      hashing      Pick a hashing crate  ⚠ unproven: its sign-off (log line 50) has no record: it was written before sign-offs kept one, or by hand

    1 cancelled hidden · plan show --all

    last: 2026-06-15 14:02 cache client wired; eviction next
    ");
    let all = t.ok(&["show", "--all"]).stdout;
    insta::assert_snapshot!(redact(&t, &all));
}

#[test]
fn widget_flags_done_without_sign_off() {
    let t = Test::new()
        .plan(&fixture("plans/real.md").replace("hashing signed off", "hashing looked fine"));
    insta::assert_snapshot!(shown(&t, &t.ok(&["show"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn colour_only_on_a_tty_and_never_with_no_color() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    assert!(!t.ok(&["show"]).stdout.contains('\x1b'));
    let tty = |no_color: bool| t.on_tty("show", no_color);
    assert!(tty(false).contains("\x1b[1;36m"));
    let plain = tty(true);
    insta::assert_snapshot!(redact(&t, &plain));
}

#[test]
fn show_json_is_the_whole_model() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let json = t.ok(&["show", "--json"]).json();
    assert_eq!(json["objective"], "Ship the cache layer");
    let goals = json["goals"].as_array().unwrap();
    assert_eq!(goals.len(), 4);
    assert_eq!(goals[0]["id"], "cache-layer");
    assert_eq!(goals[0]["progress"]["done"], 1);
    assert_eq!(goals[0]["subtasks"][1]["text"], "eviction policy");
    assert_eq!(goals[1]["unmet_dependencies"][0], "cache-layer");
    // A sign-off line from before sign-offs kept a record proves nothing.
    assert_eq!(goals[3]["signed_off"], false);
    assert_eq!(goals[3]["proof"]["state"], "unproven");
    assert!(
        goals[3]["proof"]["why"]
            .as_str()
            .unwrap()
            .contains("has no record")
    );
    assert_eq!(json["log"].as_array().unwrap().len(), 5);
}

#[test]
fn next_lists_workable_goals() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    assert_eq!(
        t.ok(&["next"]).stdout,
        "cache-layer  active  Implement cache layer  1/3  next: eviction policy\n"
    );
    let json = t.ok(&["next", "--json"]).json();
    assert_eq!(json.as_array().unwrap().len(), 1);
}

#[test]
fn lint_reports_problems_with_places() {
    let t = Test::new().plan(
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\nverify: make\nfailure_modes:\n- slow\n\n## Log\n",
    );
    let run = t.run(&["lint"]).code(1);
    insta::assert_snapshot!(run.stdout, @r#"
    plan.md:3: goal "a" has no done_when [no-done-when]
        3 | ## Goal: A
      hint: say when it is done, in words a reviewer can check: `done_when: …`
    plan.md:7: warning: no failure mode of "a" says how verify could pass while the goal is not met [no-gaming-failure-mode]
        7 | failure_modes:
      hint: e.g. `- verify passes on a trivial or gamed test`

    plan.md: 1 problem, 1 warning
    "#);
    let json = t.run(&["lint", "--json"]).code(1).json();
    assert_eq!(json["errors"], 1);
    assert_eq!(json["problems"][1]["severity"], "warning");
}

#[test]
fn format_errors_exit_2_with_line_and_hint() {
    let t = Test::new().plan(&fixture("plans/unknown-status.md"));
    let before = t.plan_md();
    let run = t.run(&["start", "thing"]).code(2);
    insta::assert_snapshot!(run.stderr, @r#"
    plan: warning: plan.md has format errors in goal thing; those goals are left unchanged (plan lint lists them)
    plan.md:5: unknown status "doing" (expected open, active, done or cancelled)
        5 | status: doing
      hint: edit line 5 to a known status, e.g. `status: open`; then plan start, plan complete or plan cancel move it
    plan.md: goal "thing" has format errors; nothing was written
      hint: fix the lines above (plan doctor --fix repairs the mechanical ones), then rerun
    "#);
    assert_eq!(t.plan_md(), before);
    insta::assert_snapshot!(shown(&t, &t.ok(&["show"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

#[test]
fn duplicate_ids_and_cycles_are_reported() {
    let t = Test::new().plan(&fixture("plans/duplicate-ids.md"));
    insta::assert_snapshot!(shown(&t, &t.ok(&["show"])));
    let t = Test::new().plan(&fixture("plans/cycle.md"));
    let run = t.ok(&["show"]);
    insta::assert_snapshot!(run.stderr, @r#"
    plan: warning: plan.md has 2 format errors; goals with errors are shown as read and left unchanged (plan lint, plan doctor)
    plan.md:9: depends_on names no goal: "ghost"
        9 | depends_on: a, ghost
      hint: edit line 9: depends_on takes goal ids, comma-separated; the goals are a, b
    plan.md:9: dependency cycle: a → b → a
        9 | depends_on: a, ghost
      hint: goals in a cycle wait on each other forever; remove one of these depends_on entries
    "#);
}

#[test]
fn archive_moves_finished_goals_verbatim() {
    let t = Test::new().plan(&fixture("plans/real.md"));
    let before = t.plan_md();
    // hashing's sign-off line predates records: unproven, so it stays in sight.
    insta::assert_snapshot!(shown(&t, &t.run(&["archive"]).code(1)));
    let md = t.plan_md();
    let (live, archive) = md.split_once("## Archive\n").unwrap();
    insta::assert_snapshot!(redact(&t, live));
    let block = |title: &str| {
        let start = before.find(title).unwrap();
        let end = before[start..].find("\n\n").unwrap();
        before[start..start + end].to_string()
    };
    assert!(archive.contains(&block("## Goal: Spike Redis")));
    // Archived goals still hold their ids and no longer show.
    insta::assert_snapshot!(shown(&t, &t.run(&["archive"]).code(1)));
    insta::assert_snapshot!(shown(&t, &t.ok(&["add", "Spike Redis"])));
}

#[test]
fn crlf_bom_unicode_survive_writes() {
    let src = fixture("plans/crlf-bom.md");
    let t = Test::new().plan(&src);
    t.ok(&["tick", "cafe", "2"]);
    t.ok(&["log", "naïve – 一"]);
    let expected =
        src.replace("- [ ] second\r\n", "- [x] second\r\n") + "\r\n- 2026-06-15 14:02 naïve – 一";
    assert_eq!(t.plan_md(), expected);
}

#[test]
fn help_lists_every_command() {
    let t = Test::new();
    insta::assert_snapshot!(t.ok(&["--help"]).stdout);
}

/// On a narrow terminal the command groups plan lays out wrap where clap's options
/// do, not at 100 columns.
#[test]
fn help_wraps_to_a_narrow_terminal() {
    let t = Test::new().env("COLUMNS", "60");
    let help = t.ok(&["--help"]).stdout;
    let long: Vec<&str> = help.lines().filter(|l| l.chars().count() > 60).collect();
    assert_eq!(long, Vec::<&str>::new(), "{help}");
    insta::assert_snapshot!(help);
}

#[test]
fn plan_log_cannot_forge_a_sign_off() {
    let t = Test::new()
        .plan(&fixture("plans/real.md").replace("hashing signed off", "hashing looked fine"));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["log", "hashing signed off (verify passed, judge accept)"])
            .code(2)
    ));
    t.run(&["log", "cache-layer started (contract 00000000)"])
        .code(2);
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    t.ok(&["log", "hashing was reviewed by hand"]);
}

#[test]
fn lint_reports_a_verify_that_cannot_run() {
    let t = Test::new()
        .plan(&STARTED.replace("verify: cargo build", "verify: cargo build > build.log"));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
}

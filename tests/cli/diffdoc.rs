//! `plan diff` and `plan doctor`, end to end: what they print for hand edits and
//! broken plans, and what `plan doctor --fix` writes (and leaves alone).

use crate::util::{Test, fixture, redact, shown};

const PLAN: &str = "# Plan: Ship it

## Goal: Build it
<!-- id: build -->
status: open
done_when: it builds in under 2 minutes
verify: cargo build
failure_modes:
- builds only in debug
- verify passes on a stale target dir
- [ ] one
- [ ] two

## Goal: Document it
<!-- id: docs -->
status: open
depends_on: build
done_when: README explains the build

## Log
- 2026-06-15 09:00 plan created
- 2026-06-15 09:30 build looked at the CI config
";

/// A repository whose plan.md is `md`, committed.
fn committed(md: &str) -> Test {
    let t = Test::new().plan(md);
    t.commit_all("plan");
    t
}

#[test]
fn diff_shows_status_ticks_and_new_log_lines() {
    let t = committed(PLAN);
    insta::assert_snapshot!(shown(&t, &t.ok(&["diff"])));
    t.ok(&["start", "build"]);
    t.ok(&["tick", "build", "2"]);
    t.ok(&["log", "second subtask done"]);
    insta::assert_snapshot!(no_commit(&t.ok(&["diff"]).stdout), @"
    build: status open → active
    build: subtask 2 ticked: two

    log: 2 entries added
      - 2026-06-15 14:02 build started (contract 04b85240, verify failing at COMMIT)
      - 2026-06-15 14:02 second subtask done
    ");
}

#[test]
fn diff_shows_a_contract_change_word_by_word() {
    let t = committed(PLAN);
    t.write(
        "plan.md",
        PLAN.replace("under 2 minutes", "under 90 seconds")
            .replace(
                "- builds only in debug\n",
                "- builds only in debug mode\n- cache hides a slow build\n",
            )
            .replace("## Goal: Document it", "## Goal: Document the build")
            .replace("- [ ] one\n", ""),
    );
    insta::assert_snapshot!(no_commit(&t.ok(&["diff"]).stdout), @"
    build: done_when: it builds in under [-2 minutes-]{+90 seconds+}
    build: failure_modes:
      - builds only in debug{+ mode+}
      {+- cache hides a slow build+}
      - verify passes on a stale target dir
    build: subtask 1 removed: one

    docs: title Document [-it-]{+the build+}
    ");
}

#[test]
fn diff_warns_when_the_log_is_rewritten() {
    let t = committed(PLAN);
    t.write(
        "plan.md",
        PLAN.replace("- 2026-06-15 09:00 plan created\n", "")
            .replace("looked at the CI config", "fixed the CI config")
            + "- 2026-06-15 14:02 appended properly\n",
    );
    let run = t.ok(&["diff"]);
    insta::assert_snapshot!(run.stdout, @r"
    log: 1 entry added
      - 2026-06-15 14:02 appended properly
    warning: log line HEAD:21 removed; the log is append-only
      - 2026-06-15 09:00 plan created
    warning: log line HEAD:22 changed, now plan.md:21; the log is append-only
      - 2026-06-15 09:30 build [-looked at-]{+fixed+} the CI config
    ");
    let json = t.ok(&["diff", "--json"]).json();
    assert_eq!(json["log"]["removed"][0]["line"], 21);
    assert_eq!(json["log"]["changed"][0]["old_line"], 22);
    assert_eq!(json["log"]["changed"][0]["new_line"], 21);
    assert_eq!(
        json["log"]["added"][0]["text"],
        "2026-06-15 14:02 appended properly"
    );
}

#[test]
fn diff_of_one_goal_is_its_whole_contract() {
    let t = committed(PLAN);
    t.write(
        "plan.md",
        PLAN.replace("verify: cargo build\n", "verify: cargo build --release\n")
            .replace("status: open\ndepends_on: build\n", "status: active\n"),
    );
    insta::assert_snapshot!(t.ok(&["diff", "bu"]).stdout, @r"
    build: contract since HEAD
    done_when: it builds in under 2 minutes
    verify: cargo build{+ --release+}
    failure_modes:
    - builds only in debug
    - verify passes on a stale target dir
    ");
    // The status change is not part of the contract; the dependency is.
    insta::assert_snapshot!(t.ok(&["diff", "docs"]).stdout, @"
    docs: contract since HEAD
    done_when: README explains the build
    [-depends_on: build-]
    ");
    t.write("plan.md", PLAN.replace("## Goal: Document it\n<!-- id: docs -->\nstatus: open\ndepends_on: build\ndone_when: README explains the build\n\n", ""));
    insta::assert_snapshot!(shown(&t, &t.ok(&["diff", "docs"])));
    insta::assert_snapshot!(shown(&t, &t.ok(&["diff", "build"])));
    insta::assert_snapshot!(shown(&t, &t.run(&["diff", "nope"]).code(2)));
    let json = t.ok(&["diff", "docs", "--json"]).json();
    assert_eq!(json["id"], "docs");
    assert_eq!(json["new"], serde_json::Value::Null);
    assert_eq!(json["unchanged"], false);
}

#[test]
fn diff_since_an_older_revision() {
    let t = committed(PLAN);
    t.ok(&["start", "build"]);
    t.commit_all("start build");
    t.ok(&["tick", "build", "1"]);
    insta::assert_snapshot!(no_commit(&t.ok(&["diff"]).stdout), @"build: subtask 1 ticked: one");
    insta::assert_snapshot!(no_commit(&t.ok(&["diff", "--since", "HEAD~1"]).stdout), @"
    build: status open → active
    build: subtask 1 ticked: one

    log: 1 entry added
      - 2026-06-15 14:02 build started (contract 04b85240, verify failing at COMMIT)
    ");
}

#[test]
fn diff_of_a_new_plan_is_all_added() {
    let t = Test::new().plan("# Plan: Fresh\n\n## Goal: First\nstatus: open\ndone_when: it exists\n- [ ] try\n\n## Log\n- 2026-06-15 14:00 plan created\n");
    // No commits at all yet: HEAD has nothing, so everything is new.
    let unborn = t.ok(&["diff"]).stdout;
    t.write("README", "readme\n");
    t.git(&["add", "README"]);
    t.git(&["commit", "-q", "-m", "readme"]);
    let run = t.ok(&["diff"]);
    assert_eq!(run.stdout, unborn);
    insta::assert_snapshot!(run.stdout, @r#"
    plan.md is not in HEAD: all of it is new

    objective: {+Fresh+}

    first: added "First" (open)
      done_when: it exists
      - [ ] try

    log: 1 entry added
      - 2026-06-15 14:00 plan created
    "#);
    let json = t.ok(&["diff", "--json"]).json();
    assert_eq!(json["new_file"], true);
    assert_eq!(json["goals"][0]["change"], "added");
}

#[test]
fn diff_names_a_bad_revision() {
    let t = committed(PLAN);
    let run = t.run(&["diff", "--since", "no-such-branch"]).code(2);
    insta::assert_snapshot!(run.stderr, @r#"
    plan: unknown revision "no-such-branch": revspec 'no-such-branch' not found
      hint: --since takes what git rev-parse does: HEAD~1, a branch, a tag or a commit hash (4 to 39 hex digits are read as a commit; name such a branch or tag in full, refs/heads/NAME)
    "#);
    insta::assert_snapshot!(shown(&t, &t.run(&["diff", "--since", "HEAD~1"]).code(2)));
}

#[test]
fn diff_reviews_a_plan_with_format_errors() {
    let t = committed(PLAN);
    t.write(
        "plan.md",
        PLAN.replace(
            "status: open\ndone_when: it builds",
            "status: doing\ndone_when: it builds",
        ),
    );
    t.run(&["start", "build"]).code(2);
    insta::assert_snapshot!(shown(&t, &t.ok(&["diff"])));
}

#[test]
fn diff_of_prose_only_says_so() {
    let t = committed(PLAN);
    t.write("plan.md", PLAN.replace("## Log", "Some notes.\n\n## Log"));
    insta::assert_snapshot!(shown(&t, &t.ok(&["diff"])));
}

#[test]
fn doctor_lists_findings_and_fix_repairs_the_mechanical_ones() {
    let t = Test::new().plan(&fixture("plans/doctor-before.md"));
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(run.stdout, @r#"
    plan.md: warning: no `## Log` section [no-log]
      fix: plan doctor --fix adds it
    plan.md:6: warning: goal "write-the-docs" has no id comment, so renaming its title changes its id [no-id]
        6 | ## Goal: Write The Docs
      fix: plan doctor --fix adds `<!-- id: write-the-docs -->` under the heading
    plan.md:6: warning: goal "write-the-docs" has no `status:` line; it counts as open [no-status]
        6 | ## Goal: Write The Docs
      fix: plan doctor --fix adds `status: open`
    plan.md:13: goal "release" is done but unproven: marked done by hand: the log has no sign-off for it [unproven]
       13 | status: done
      fix: sign it off with `plan complete release --evidence TEXT --path FILE` (it checks the goal again)
    plan.md:18: warning: goal "typos" has no `status:` line; it counts as open [no-status]
       18 | ## Goal: Fix typos
      fix: plan doctor --fix adds `status: open`
    plan.md:25: goal "old-spike" is cancelled but unproven: cancelled by hand: the log has no `plan cancel` for it [unproven]
       25 | status: cancelled
      fix: if it is to be dropped, set it back to `status: active` and run `plan cancel old-spike --reason TEXT`

    6 findings, 4 fixable with plan doctor --fix
    "#);
    assert_eq!(t.plan_md(), fixture("plans/doctor-before.md"));
    let run = t.run(&["doctor", "--fix"]).code(1);
    insta::assert_snapshot!(run.stdout, @r#"
    fixed plan.md: added `## Log`
    fixed plan.md: added `<!-- id: write-the-docs -->` under "Write The Docs"
    fixed plan.md: added `status: open` to "Write The Docs"
    fixed plan.md: added `status: open` to "Fix typos"

    plan.md:15: goal "release" is done but unproven: marked done by hand: the log has no sign-off for it [unproven]
       15 | status: done
      fix: sign it off with `plan complete release --evidence TEXT --path FILE` (it checks the goal again)
    plan.md:30: goal "old-spike" is cancelled but unproven: cancelled by hand: the log has no `plan cancel` for it [unproven]
       30 | status: cancelled
      fix: if it is to be dropped, set it back to `status: active` and run `plan cancel old-spike --reason TEXT`

    2 findings left
    "#);
    assert_eq!(t.plan_md(), fixture("plans/doctor-after.md"));
    // Nothing mechanical is left: a second run changes nothing.
    t.run(&["doctor", "--fix"]).code(1);
    assert_eq!(t.plan_md(), fixture("plans/doctor-after.md"));
    let json = t.run(&["doctor", "--json"]).code(1).json();
    assert_eq!(json["findings"][0]["rule"], "unproven");
    assert_eq!(json["findings"][0]["fixable"], false);
}

#[test]
fn doctor_reports_a_changed_contract_and_waiting_goal_and_fix_leaves_them() {
    let t = Test::new().plan(&fixture("plans/doctor-contract.md"));
    let run = t.run(&["doctor", "--fix"]).code(1);
    insta::assert_snapshot!(run.stdout, @r#"
    plan.md:3: the contract of "cache-layer" changed since it was logged (contract 1234abcd, now 278fc3e8) [contract-changed]
        3 | ## Goal: Cache layer
      fix: review the change (plan diff cache-layer, git log -p plan.md), then plan start cache-layer --reapprove
    plan.md:6: goal "cache-layer" is active but waits on hashing [waiting-on-dependencies]
        6 | depends_on: hashing
      fix: finish hashing first (plan next lists what is ready), or set line 5 back to `status: open`

    2 findings left
    "#);
    assert_eq!(t.plan_md(), fixture("plans/doctor-contract.md"));
}

#[test]
fn doctor_is_clean_again_after_reapproval() {
    let t = Test::new().plan(&PLAN.replace("depends_on: build\n", ""));
    t.ok(&["start", "build"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["doctor"])));
    t.write(
        "plan.md",
        t.plan_md().replace("under 2 minutes", "under 1 minute"),
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
    // Approved from a shell without a terminal (as an agent would): visible.
    t.ok(&["start", "build", "--reapprove"]);
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
    t.on_tty("start build --reapprove", true);
    assert!(t.plan_md().contains("contract reapproved (contract"));
    assert!(t.plan_md().contains(", a terminal was attached)"));
    // A terminal attached is no proof a person saw the change (script(1) gives an
    // agent one, and the line can be typed): the earlier change stays listed.
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
}

#[test]
fn doctor_works_on_plans_refused_for_format_errors() {
    let t = Test::new().plan(&fixture("plans/cycle.md"));
    t.run(&["start", "a"]).code(2);
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(run.stdout, @r#"
    plan.md:3: warning: goal "a" has no `status:` line; it counts as open [no-status]
        3 | ## Goal: A
      fix: plan doctor --fix adds `status: open`
    plan.md:7: warning: goal "b" has no `status:` line; it counts as open [no-status]
        7 | ## Goal: B
      fix: edit line 9 by hand (depends_on names no goal: "ghost"; dependency cycle: a → b → a: its findings say how); then plan doctor --fix repairs the rest
    plan.md:9: depends_on names no goal: "ghost" [missing-dependency]
        9 | depends_on: a, ghost
      fix: edit line 9: depends_on takes goal ids, comma-separated; the goals are a, b
    plan.md:9: dependency cycle: a → b → a [dependency-cycle]
        9 | depends_on: a, ghost
      fix: goals in a cycle wait on each other forever; remove one of these depends_on entries

    4 findings, 1 fixable with plan doctor --fix
    "#);
    // Only goal a, which has no error of its own, is repaired.
    t.run(&["doctor", "--fix"]).code(1);
    assert_eq!(
        t.plan_md(),
        fixture("plans/cycle.md").replace("<!-- id: a -->\n", "<!-- id: a -->\nstatus: open\n")
    );
    for (name, kind) in [
        ("plans/duplicate-ids.md", "duplicate-id"),
        ("plans/unknown-status.md", "unknown-status"),
    ] {
        let t = Test::new().plan(&fixture(name));
        let json = t.run(&["doctor", "--fix", "--json"]).code(1).json();
        assert_eq!(json["findings"][0]["rule"], kind, "{name}");
        assert_eq!(json["fixed"].as_array().unwrap().len(), 0, "{name}");
        assert_eq!(t.plan_md(), fixture(name));
    }
}

#[test]
fn doctor_reports_and_removes_an_expired_proposal() {
    // Proposals expire by the real clock, as `plan review` reads them.
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_secs();
    let t = Test::new().plan(&PLAN.replace("depends_on: build\n", ""));
    let proposal = ".git/plan/proposal.json";
    t.write(proposal, format!("{{\"expires_at\": {}}}", now + 60));
    insta::assert_snapshot!(shown(&t, &t.ok(&["doctor"])));
    t.write(
        proposal,
        format!(
            "{{\"objective\": \"x\", \"expires_at\": {}}}",
            now - 3 * 3600
        ),
    );
    let run = t.run(&["doctor"]).code(1);
    insta::assert_snapshot!(run.stdout, @"
    .git/plan/proposal.json: warning: the draft proposal expired 3 hours ago [proposal-expired]
      fix: plan doctor --fix deletes it; plan draft OBJECTIVE drafts a new one

    1 finding, 1 fixable with plan doctor --fix
    ");
    assert!(t.path(proposal).exists());
    let before = t.plan_md();
    let run = t.ok(&["doctor", "--fix"]);
    insta::assert_snapshot!(run.stdout, @r"
    fixed .git/plan/proposal.json: deleted the expired draft proposal

    plan.md: no findings left
    ");
    assert!(!t.path(proposal).exists());
    assert_eq!(t.plan_md(), before);
    // Unreadable JSON is reported, and kept for a person to look at.
    t.write(proposal, "{\"expires_at\": ");
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor", "--fix"]).code(1)));
    assert!(t.path(proposal).exists());
}

#[test]
fn diff_colours_words_on_a_terminal_only() {
    let t = committed(PLAN);
    t.write("plan.md", PLAN.replace("under 2 minutes", "under 1 minute"));
    assert!(!t.ok(&["diff"]).stdout.contains('\x1b'));
    let tty = |no_color: bool| t.on_tty("diff", no_color);
    assert!(tty(false).contains("\x1b[31m[-2 minutes-]\x1b[0m\x1b[32m{+1 minute+}\x1b[0m"));
    let plain = tty(true);
    insta::assert_snapshot!(redact(&t, &plain));
}

/// Commit ids in started events change with the clock; the snapshots hide them.
fn no_commit(text: &str) -> String {
    let mut out = String::new();
    let mut rest = text;
    while let Some(at) = rest.find(" at ") {
        let (head, tail) = rest.split_at(at + 4);
        out.push_str(head);
        let hex = tail.bytes().take_while(u8::is_ascii_hexdigit).count();
        if hex >= 7 {
            out.push_str("COMMIT");
            rest = &tail[hex..];
        } else {
            rest = tail;
        }
    }
    out.push_str(rest);
    out
}

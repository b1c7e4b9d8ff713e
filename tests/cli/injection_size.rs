//! What plan injects is bounded whatever the plan holds (issue 23, item 10): every
//! field cut to a fixed length, ids included, and each block at most 4 KB.

use crate::util::{Test, fixture, redact};

/// The injection's bound, in bytes.
const MAX_BLOCK: usize = 4096;

fn plan_with_id(id: &str, title: &str) -> String {
    format!(
        "# Plan: Ship it

## Goal: {title}
<!-- id: {id} -->
status: active
done_when: it works
- [ ] first step

## Goal: Next one
<!-- id: next-one -->
status: open
depends_on: {id}

## Log
- 2026-06-15 14:02 {id} started
"
    )
}

fn session_start(t: &Test) -> String {
    let payload = fixture("hosts/claude/session-start.json")
        .replace("CWD", t.root().to_str().unwrap())
        .replace("SESSION", "s1");
    let run = t
        .case(&["hook", "claude", "session-start"])
        .stdin(&payload)
        .any_stdout()
        .check();
    run.answer()["hookSpecificOutput"]["additionalContext"]
        .as_str()
        .unwrap_or_default()
        .to_string()
}

/// Attack: a 10 MB id gave a 10 MB SessionStart context. (1 MB here: the same
/// attack, at a cost a debug build runs in a test.)
#[test]
fn a_huge_id_gives_an_injection_of_at_most_4_kb() {
    let id = "x".repeat(1 << 20);
    let title = "t".repeat(1 << 20);
    let t = Test::new().plan(&plan_with_id(&id, &title));
    let context = session_start(&t);
    assert!(
        !context.is_empty() && context.len() <= MAX_BLOCK,
        "{} bytes",
        context.len()
    );
    for args in [&["inject"][..], &["skeleton"], &["statusline"]] {
        let out = t.ok(args).stdout;
        assert!(
            out.len() <= 2 * MAX_BLOCK + 1,
            "plan {args:?}: {} bytes",
            out.len()
        );
    }
    t.ok(&["goal"]);
    let stop = t.stop_hook("s1").answer();
    let reason = stop["reason"].as_str().unwrap();
    assert!(reason.len() <= MAX_BLOCK, "{} bytes", reason.len());
}

/// An id over 64 characters is a format error (src/plan/id.rs `MAX_ID`): the
/// block names the goal by its title's slug and says so on its last line, the
/// error's id cut to 20 characters.
#[test]
fn a_long_id_is_a_format_error_in_the_injection() {
    let id = format!("{}-end", "a".repeat(96));
    let t = Test::new().plan(&plan_with_id(&id, "Long one"));
    let cut = format!("{}…", "a".repeat(20));
    assert_eq!(
        t.ok(&["inject"]).stdout,
        format!(
            "plan.md: Ship it
Active goals:
- long-one: Long one
  done_when: it works
  subtasks: 0/1 done; next: first step
Ready to start: none
Last log line: 2026-06-15 14:02 {id} started
A goal is signed off only by `plan complete ID --evidence TEXT --path FILE`, which runs its verify command and an independent read-only judge; `status: done` written by hand is flagged as unchecked.
plan.md has format errors; goals with errors may be missing above. First: line 4: goal id \"{cut}\" is 100 characters long, over the 64 an id may have (and 1 more). Fix them (`plan lint` lists them all).
"
        )
    );
}

/// A block over 4 KB (here: templates in `.plan/prompts/` that say a lot) is cut
/// at a line end and says so on its last line.
#[test]
fn a_block_over_4_kb_is_cut_at_a_line_end_and_says_so() {
    let t = Test::new().plan(&plan_with_id("short", "Short"));
    let mut template = String::from("{{objective}}\n");
    for i in 0..200 {
        template.push_str(&format!("line {i:03} of a long house rule\n"));
    }
    t.write(".plan/prompts/injection.md", &template);
    let out = t.ok(&["inject"]).stdout;
    assert!(out.len() <= MAX_BLOCK + 1, "{} bytes", out.len());
    let lines: Vec<&str> = out.lines().collect();
    let (last, before) = (lines[lines.len() - 1], lines[lines.len() - 2]);
    assert_eq!(last, "[cut at 4 KB; `plan show` has the rest]");
    assert!(
        before.starts_with("line ") && before.ends_with(" of a long house rule"),
        "{before}"
    );
    insta::assert_snapshot!(redact(&t, &out));
}

/// Attack: the 4 KB cut took the block's end, where the warnings are. Ten active
/// goals with long titles, contracts and next steps (each field within its own
/// bound) pushed out "marked done by hand", "under `## Archive` but not finished"
/// and the format-error line, so a goal an agent marked done by hand, or shelved,
/// looked settled in every injection. The warnings are kept; the goals are cut.
#[test]
fn long_active_goals_do_not_push_the_warnings_out_of_the_injection() {
    let long = |what: &str, i: usize| format!("{what} {i} {}", "w".repeat(300));
    let mut md = String::from("# Plan: Ship it\n\n");
    for i in 0..10 {
        md.push_str(&format!(
            "## Goal: {}\n<!-- id: g{i} -->\nstatus: active\ndone_when: {}\n- [ ] {}\n\n",
            long("title", i),
            long("contract", i),
            long("step", i)
        ));
    }
    md.push_str("## Goal: Faked\n<!-- id: faked -->\nstatus: done\ndone_when: it works\n\n");
    md.push_str("## Log\n- 2026-06-15 14:02 g0 started\n\n## Archive\n\n");
    md.push_str("## Goal: Shelved\n<!-- id: shelved -->\nstatus: active\ndone_when: x\n");
    let t = Test::new().plan(&md);
    let context = session_start(&t);
    assert!(context.len() <= MAX_BLOCK, "{} bytes", context.len());
    insta::assert_snapshot!(redact(&t, &context));
}

/// Attack: the stop's reason names the active goals first and the goals marked
/// done by hand or shelved after them, all on one line, and the 4 KB cut takes the
/// end. Ten active goals with 64-character ids and long next steps do not push
/// those out: each part is cut to 80 characters and at most ten actives are named,
/// so the line stays under the bound (passes: caught by the field bounds).
#[test]
fn long_active_goals_do_not_push_unproven_goals_out_of_the_stop_reason() {
    let mut md = String::from("# Plan: Ship it\n\n");
    for i in 0..10 {
        let id = format!("g{i}-{}", "i".repeat(61));
        md.push_str(&format!(
            "## Goal: G {i}\n<!-- id: {id} -->\nstatus: active\ndone_when: x\n- [ ] step {i} {}\n\n",
            "s".repeat(300)
        ));
    }
    for i in 0..5 {
        let id = format!("faked{i}-{}", "f".repeat(57));
        md.push_str(&format!(
            "## Goal: F {i}\n<!-- id: {id} -->\nstatus: done\ndone_when: x\n\n"
        ));
    }
    md.push_str("## Log\n- 2026-06-15 14:02 g0 started\n\n## Archive\n\n");
    for i in 0..5 {
        let id = format!("shelved{i}-{}", "h".repeat(55));
        md.push_str(&format!(
            "## Goal: S {i}\n<!-- id: {id} -->\nstatus: active\ndone_when: x\n\n"
        ));
    }
    let t = Test::new().plan(&md);
    t.ok(&["goal"]);
    let stop = t.stop_hook("s1").answer();
    assert_eq!(stop["decision"], "block", "{stop}");
    let reason = stop["reason"].as_str().unwrap();
    assert!(reason.len() <= MAX_BLOCK, "{} bytes", reason.len());
    insta::assert_snapshot!(redact(&t, reason));
}

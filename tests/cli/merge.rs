//! Merging plan.md: git's conflict markers are a format error every reader and
//! writer sees, `plan install git` sets up the merge driver, and the driver keeps
//! git's contract.

use serde_json::Value;

use crate::hooks::send;
use crate::util::{BIN, Test, redact, shown};

const PLAN: &str = "# Plan: x

## Goal: Build
<!-- id: build -->
status: active
done_when: it builds
failure_modes:
- verify passes on a stale build
- [ ] one

## Goal: Docs
<!-- id: docs -->
status: open
done_when: the README says how
- [ ] write

## Log
- 2026-06-15 14:00 build started (contract 0a6d6580)
";

/// What the driver leaves when it cannot merge: both sides whole between markers,
/// each ended by a newline.
fn both_whole(ours: &str, theirs: &str) -> String {
    let ended = |side: &str| {
        if side.is_empty() || side.ends_with('\n') {
            side.to_string()
        } else {
            format!("{side}\n")
        }
    };
    format!(
        "<<<<<<< ours\n{}=======\n{}>>>>>>> theirs\n",
        ended(ours),
        ended(theirs)
    )
}

/// What a line-wise merge leaves when both sides changed `done_when` of build.
fn conflicted() -> String {
    PLAN.replace(
        "done_when: it builds\n",
        "<<<<<<< HEAD\ndone_when: it builds fast\n=======\ndone_when: it builds everywhere\n>>>>>>> other\n",
    )
}

#[test]
fn conflict_markers_are_a_format_error_that_refuses_every_write() {
    let md = conflicted();
    let t = Test::new().plan(&md);
    for args in [
        &["log", "note"][..],
        &["tick", "build", "1"],
        &["start", "docs"],
        &["subtask", "docs", "more"],
        &["add", "Another", "--done-when", "x"],
        &["archive"],
        &["doctor", "--fix"],
    ] {
        insta::assert_snapshot!(shown(&t, &t.run(args).code(2)));
        assert_eq!(t.plan_md(), md, "{args:?} wrote into a conflicted plan");
    }
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    t.commit_all("conflicted");
    assert_ne!(t.run(&["audit"]).code, 0, "audit passes a conflicted plan");
}

#[test]
fn a_marker_left_alone_is_named_and_a_fenced_one_is_code() {
    let stray = PLAN.replace("- [ ] write\n", "- [ ] write\n>>>>>>> theirs\n");
    let t = Test::new().plan(&stray);
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    let fenced = PLAN.replace(
        "- [ ] write\n",
        "- [ ] write\n```diff\n<<<<<<< ours\na\n=======\nb\n>>>>>>> theirs\n```\n",
    );
    let t = Test::new().plan(&fenced);
    t.ok(&["lint"]);
    t.ok(&["log", "a fenced conflict is an example, not a conflict"]);
}

#[test]
fn the_hooks_tell_the_agent_which_line_to_resolve() {
    let t = Test::new().plan(PLAN);
    t.ok(&["goal", "--budget", "3"]);
    t.write("plan.md", conflicted());
    let inject = send(&t, "claude/user-prompt-submit", "s1");
    insta::assert_snapshot!(crate::util::redact(&t, &inject.stdout));
    let stop: Value = serde_json::from_str(&t.stop_hook("s1").stdout).unwrap();
    assert_eq!(stop["decision"], "block");
    let reason = stop["reason"].as_str().unwrap();
    insta::assert_snapshot!(redact(&t, reason));
}

#[test]
fn install_git_registers_the_driver_once_and_uninstall_takes_it_back() {
    let t = Test::new().plan(PLAN);
    t.write(".gitattributes", "*.png binary\n");
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "git"])));
    assert_eq!(
        t.read(".gitattributes"),
        "*.png binary\nplan.md merge=plan\n"
    );
    assert_eq!(
        redact(&t, &t.git(&["config", "merge.plan.driver"])),
        "[BIN] merge-driver %O %A %B %P; s=$?; [ $s -le 1 ] && exit $s; echo \"plan: plan merge-driver could not run (exit $s); git merged plan.md line by line\" >&2; git merge-file -L ours -L base -L theirs %A %O %B\n"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["install", "git"])));
    assert_eq!(
        t.read(".gitattributes"),
        "*.png binary\nplan.md merge=plan\n"
    );
    t.ok(&["doctor"]);
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "git"])));
    assert_eq!(t.read(".gitattributes"), "*.png binary\n");
    assert!(!t.read(".git/config").contains("merge-driver"));
    insta::assert_snapshot!(shown(&t, &t.run(&["install", "git", "--global"]).code(2)));
}

/// `.gitattributes` is a file people commit and other tools read: plan's edit keeps
/// its mode, through the one atomic writer (a temp file's 0600 once replaced it).
#[test]
fn install_git_keeps_the_mode_of_gitattributes() {
    use std::os::unix::fs::PermissionsExt;
    let t = Test::new().plan(PLAN);
    t.write(".gitattributes", "*.png binary\n");
    let path = t.path(".gitattributes");
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let mode = || std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    t.ok(&["install", "git"]);
    assert_eq!(mode(), 0o644, "after install git");
    t.ok(&["uninstall", "git"]);
    assert_eq!(mode(), 0o644, "after uninstall git");
}

#[test]
fn install_git_names_a_plan_file_elsewhere_too() {
    let t = Test::new().env("PLAN_FILE", "docs/road.md");
    t.write("docs/road.md", PLAN);
    t.ok(&["install", "git"]);
    assert_eq!(
        t.read(".gitattributes"),
        "plan.md merge=plan\n/docs/road.md merge=plan\n"
    );
    insta::assert_snapshot!(shown(&t, &t.ok(&["uninstall", "git"])));
    assert!(!t.root().join(".gitattributes").exists());
}

/// Red team: glob characters in PLAN_FILE's path went into .gitattributes as a
/// pattern: `/docs/v[1].md` sent `docs/v1.md` to the driver and not the plan,
/// `/docs/*.md` every Markdown file beside it. They are escaped as git reads them.
#[test]
fn install_git_escapes_glob_characters_of_a_plan_file_path() {
    for (plan, other) in [
        ("docs/v[1].md", "docs/v1.md"),
        ("docs/*.md", "docs/notes.md"),
        ("docs/a?.md", "docs/ab.md"),
        ("docs/a\\b.md", "docs/ab.md"),
    ] {
        let t = Test::new().env("PLAN_FILE", plan);
        t.write(plan, PLAN);
        t.write(other, "notes\n");
        t.ok(&["install", "git"]);
        let attr = |path: &str| {
            t.git(&["check-attr", "merge", "--", path])
                .trim_end()
                .to_string()
        };
        assert!(
            attr(plan).ends_with(": merge: plan"),
            "{plan}: {}",
            attr(plan)
        );
        assert!(
            attr(other).ends_with(": merge: unspecified"),
            "{plan} sends {other} too: {}\n{}",
            attr(other),
            t.read(".gitattributes")
        );
        // Read back as plan's own: a second install adds nothing, uninstall removes it.
        t.ok(&["install", "git"]);
        assert_eq!(t.read(".gitattributes").lines().count(), 2, "{plan}");
        t.ok(&["uninstall", "git"]);
        assert!(!t.root().join(".gitattributes").exists(), "{plan}");
    }
}

#[test]
fn doctor_says_when_the_attribute_has_no_driver_in_this_clone() {
    let t = Test::new().plan(PLAN);
    t.write(".gitattributes", "plan.md merge=plan\n");
    insta::assert_snapshot!(shown(&t, &t.run(&["doctor"]).code(1)));
}

#[test]
fn the_driver_writes_ours_and_exits_as_git_expects() {
    let t = Test::new();
    let ours = PLAN.replace("- [ ] one", "- [x] one");
    let theirs = format!("{PLAN}- 2026-06-15 14:05 docs next\n");
    t.write("base", PLAN);
    t.write("ours", &ours);
    t.write("theirs", &theirs);
    t.case(&["merge-driver", "base", "ours", "theirs", "plan.md"])
        .check();
    assert_eq!(
        t.read("ours"),
        format!("{ours}- 2026-06-15 14:05 docs next\n")
    );
    t.write(
        "ours",
        PLAN.replace("done_when: it builds", "done_when: it builds fast"),
    );
    t.write(
        "theirs",
        PLAN.replace("done_when: it builds", "done_when: it builds everywhere"),
    );
    t.case(&["merge-driver", "base", "ours", "theirs", "plan.md"])
        .status(1)
        .stderr("plan: plan.md: 1 conflict left: done_when of goal build\n  hint: keep what each side meant between the markers, delete the marker lines, then `plan lint` and `git add plan.md`\n")
        .check();
    assert!(
        t.read("ours")
            .contains("<<<<<<< ours: done_when of goal build\n")
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["--help"]).stdout));
}

/// Attack (red team): the driver wrote the merge over git's OURS in place, so a
/// write that failed partway (a full disk) left OURS cut; the registered command's
/// fallback, `git merge-file` on that OURS, then took the lost tail for our own
/// deletion and committed a cut plan.md as a clean merge. A driver that cannot
/// write leaves OURS as git gave it.
#[test]
fn a_driver_that_cannot_write_the_merge_leaves_ours_whole() {
    let t = Test::new();
    let goals: String = (1..=80)
        .map(|i| format!("\n## Goal: Goal {i}\n<!-- id: goal-{i} -->\nstatus: open\ndone_when: it works {i}\n"))
        .collect();
    let base = format!("# Plan: Big\n{goals}\n## Log\n");
    let ours = base.replace("it works 3\n", "it works 3\n- [ ] ours\n");
    let theirs = base.replace("it works 1\n", "it works 1\n- [ ] theirs\n");
    t.write("base", &base);
    t.write("ours", &ours);
    t.write("theirs", &theirs);
    // A file-size limit of 4 KiB stands in for a full disk; the signal is ignored,
    // so the write fails with EFBIG as on a full disk.
    let script =
        format!("trap '' XFSZ; ulimit -f 4; exec '{BIN}' merge-driver base ours theirs plan.md");
    let run = std::process::Command::new("bash")
        .args(["-c", &script])
        .current_dir(t.root())
        .output()
        .unwrap();
    let said = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{said}");
    let left = t.read("ours");
    assert!(
        left == ours,
        "ours left {} bytes of {}",
        left.len(),
        ours.len()
    );
    let strays: Vec<_> = std::fs::read_dir(t.root())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".plan-merge-"))
        .collect();
    assert_eq!(strays, Vec::<String>::new());
}

/// A long plan is read through the hooks' cut reader, which drops most of an open
/// goal's lines: a conflict among them is still seen.
#[test]
fn the_hooks_see_a_conflict_deep_in_a_long_plan() {
    let mut md = String::from("# Plan: long\n\n");
    for i in 0..400 {
        md.push_str(&format!(
            "## Goal: Goal {i}\n<!-- id: g{i} -->\nstatus: open\ndone_when: goal {i} works\nfailure_modes:\n- it does not\n- [ ] step one of {i}\n- [ ] step two of {i}\n\n"
        ));
    }
    md.push_str("## Log\n- 2026-06-15 14:00 started\n");
    assert!(md.len() > 40 * 1024);
    let conflicted = md.replace(
        "- [ ] step two of 350\n",
        "<<<<<<< HEAD\n- [ ] step two of 350\n=======\n- [x] step two of 350, differently\n>>>>>>> other\n",
    );
    let t = Test::new().plan(&md);
    t.ok(&["goal", "--budget", "3"]);
    t.write("plan.md", &conflicted);
    let line = conflicted[..conflicted.find("<<<<<<<").unwrap()]
        .lines()
        .count()
        + 1;
    let inject = send(&t, "claude/user-prompt-submit", "s1");
    assert_eq!(
        inject.answer(),
        serde_json::json!({"hookSpecificOutput": {
            "hookEventName": "UserPromptSubmit",
            "additionalContext": format!(
                "plan.md: long. No goal is active; ready to start: g0, g1, g2, g3, g4, +395 more (`plan start ID`).\nplan.md has format errors; goals with errors may be missing above. First: line {line}: unresolved merge conflict (to line {}): resolve it before plan reads or writes this file. Fix them (`plan lint` lists them all).",
                line + 4
            )
        }})
    );
    let stop: Value = serde_json::from_str(&t.stop_hook("s1").stdout).unwrap();
    assert_eq!(
        stop,
        serde_json::json!({
            "decision": "block",
            "reason": format!(
                "plan.md still has work: first fix plan.md's format errors (plan.md:{line}: unresolved merge conflict (to line {}): resolve it before plan reads or writes this file; `plan lint` lists them all); then start g0 (Goal 0) with `plan start g0`; start g1 (Goal 1) with `plan start g1`; start g2 (Goal 2) with `plan start g2`; start g3 (Goal 3) with `plan start g3`; start g4 (Goal 4) with `plan start g4`\nKeep working on it. When a goal's done_when is met, sign it off with `plan complete ID --evidence TEXT --path FILE`. If something blocks you, append it to the log with `plan log TEXT` and say what you need: `plan goal pause` and `plan goal clear` are for the person who started the loop, not for you, and each is logged in plan.md. (Continuation 1 of 3.)",
                line + 4
            )
        })
    );
}

/// Attack (adversary pass): two branches merged through `plan install git`'s
/// driver, where one side deletes the `reopened` line (and sets `status: done`)
/// while the other side logs a note. The merge takes the deletion, but audit still
/// finds the reopen in history and does not count the old sign-off.
#[test]
fn a_branch_deleting_a_reopen_line_does_not_prove_the_goal_after_a_merge() {
    // The driver runs `plan`: the binary under test, first on PATH.
    let bin_dir = std::path::Path::new(crate::util::BIN).parent().unwrap();
    let path = format!("{}:{}", bin_dir.display(), crate::util::system_path());
    let t = crate::setup::reopened(&crate::setup::plan("ship.md")).env("PATH", &path);
    t.ok(&["install", "git"]);
    t.commit_all("driver");
    t.git(&["checkout", "-q", "-b", "side"]);
    let hidden: String = t
        .plan_md()
        .lines()
        .filter(|l| !l.contains("ship reopened:"))
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace("status: active", "status: done");
    t.write("plan.md", hidden);
    t.commit_all("tidy");
    t.git(&["checkout", "-q", "-"]);
    t.ok(&["log", "a note on main"]);
    t.commit_all("note");
    t.git(&["merge", "-q", "-m", "merge side", "side"]);
    let md = t.plan_md();
    assert!(md.contains("a note on main"), "{md}");
    // The deletion went through the merge: only history can tell.
    assert!(!md.contains("ship reopened:"), "{md}");
    let run = t.run(&["audit"]);
    assert_eq!(
        run.code, 1,
        "the reopen deleted on a branch is gone after the merge and the old sign-off counts:\n{}\n{md}",
        run.stdout
    );
}

/// Issue #35: an "ours" holding git's conflict markers was merged with the markers
/// kept and exit 0, so git took it as resolved. Now both sides are left whole
/// between markers and the driver exits 1, whatever the other side did.
#[test]
fn the_driver_never_exits_0_on_an_ours_with_conflict_markers() {
    let t = Test::new();
    let theirs = format!("{PLAN}- 2026-06-15 14:05 docs next\n");
    for other in [theirs.as_str(), PLAN] {
        t.write("base", PLAN);
        t.write("ours", conflicted());
        t.write("theirs", other);
        let run = t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"]);
        insta::assert_snapshot!(shown(&t, &run.code(1)));
        let out = t.read("ours");
        insta::assert_snapshot!(redact(&t, &out));
        assert_eq!(out, both_whole(&conflicted(), other));
    }
}

/// Issue #35: an "ours" with lines ended by a lone CR (classic Mac) was read as one
/// line, so every goal of theirs came in beside it again: goals duplicated, exit 0.
#[test]
fn the_driver_never_exits_0_on_a_side_with_lone_carriage_returns() {
    let t = Test::new();
    let ours = PLAN.replace("- [ ] one", "- [x] one").replace('\n', "\r");
    let theirs = PLAN.replace("- [ ] write", "- [x] write");
    t.write("base", PLAN);
    t.write("ours", &ours);
    t.write("theirs", &theirs);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
            .code(1)
    ));
    // Both sides whole, each once: nothing taken for a goal of the other's.
    assert_eq!(
        t.read("ours"),
        format!("<<<<<<< ours\n{ours}\n=======\n{theirs}>>>>>>> theirs\n")
    );
    // The base too: an ours converted to LF would pair with nothing in it.
    t.write("base", PLAN.replace('\n', "\r"));
    t.write("ours", PLAN);
    t.write("theirs", &theirs);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
            .code(1)
    ));
    assert_eq!(t.read("ours"), both_whole(PLAN, &theirs));
}

/// Issue #35, found by scripts/soak-writers: a stash git took while an editor was
/// mid-save holds a cut plan.md (no `## Log`, ending inside a line). Its pop ran the
/// driver, which took the goals the cut side lacked as deleted there: 1,826 of
/// 2,000 goals gone, exit 0. A side that lost the base's `## Log` or ends inside a
/// line where the base ended its own is cut: both sides are kept whole between
/// markers and the driver exits 1, on either side. An empty side, or one cut
/// before its first goal, lost every goal with exit 0 the same way.
#[test]
fn the_driver_never_exits_0_on_a_cut_side() {
    let t = Test::new();
    let at = PLAN.find("done_when: the README").unwrap() + "done_when: ".len();
    let cut = &PLAN[..at];
    let grown = format!("{PLAN}- 2026-06-15 14:05 docs next\n");
    let no_log = &PLAN[..PLAN.find("## Log").unwrap()];
    // A save cut before its first goal, or at nothing (truncated, not yet written).
    let title_only = "# Plan: x\n";
    for (ours, theirs) in [
        (cut, grown.as_str()),
        (grown.as_str(), cut),
        (no_log, grown.as_str()),
        (title_only, grown.as_str()),
        ("", grown.as_str()),
        (grown.as_str(), ""),
    ] {
        t.write("base", PLAN);
        t.write("ours", ours);
        t.write("theirs", theirs);
        let run = t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"]);
        run.code(1);
        let out = t.read("ours");
        insta::assert_snapshot!(redact(&t, &out));
        assert_eq!(out, both_whole(ours, theirs));
    }
    t.write("ours", cut);
    t.write("theirs", &grown);
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
            .code(1)
    ));
    // A side that only deleted goals, whole otherwise, merges as before.
    t.write("base", PLAN);
    t.write("ours", PLAN.replace("## Goal: Docs\n<!-- id: docs -->\nstatus: open\ndone_when: the README says how\n- [ ] write\n\n", ""));
    t.write("theirs", &grown);
    t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
        .code(0);
    assert!(!t.read("ours").contains("## Goal: Docs"));
}

/// The soak's sequence: a commit took an editor's save mid-way (the base, cut at a
/// goal's heading), a stash held the whole file, and `commit -am wip` took a second
/// save cut earlier (ours). Against a cut base, ours lost no `## Log` and ends
/// inside a line as the base does: the driver read the goals between the two cuts
/// as deleted by ours and merged with exit 0, losing them. A side with goals and no
/// `## Log`, or cut mid-line where the other side is whole, is cut whatever the
/// base.
#[test]
fn a_cut_side_against_a_cut_base_is_still_cut() {
    let t = Test::new();
    let whole: String = (0..12)
        .map(|i| format!("## Goal: Goal {i}\n<!-- id: g-{i} -->\nstatus: open\ndone_when: thing {i} works\n- [ ] step {i}\n\n"))
        .collect::<String>();
    let whole = format!("# Plan: soak\n\n{whole}## Log\n- 2026-06-15 14:00 soak n1\n");
    let heading =
        |n: usize| whole.find(&format!("## Goal: Goal {n}\n")).unwrap() + "## Goal: Goal ".len();
    let base = &whole[..heading(9)];
    let ours = &whole[..heading(2)];
    let theirs = format!("{whole}- 2026-06-15 14:01 soak n2\n");
    t.write("base", base);
    t.write("ours", ours);
    t.write("theirs", &theirs);
    t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
        .code(1);
    let out = t.read("ours");
    insta::assert_snapshot!(redact(&t, &out));
    assert_eq!(out, both_whole(ours, &theirs));
    // The same with ours cut at a line's end: goals, and no `## Log`.
    let ours = &whole[..heading(2) - "## Goal: Goal ".len()];
    t.write("ours", ours);
    t.run(&["merge-driver", "base", "ours", "theirs", "plan.md"])
        .code(1);
    assert_eq!(t.read("ours"), both_whole(ours, &theirs));
}

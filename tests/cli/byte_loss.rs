//! No byte lost: editors saving in slow pieces, concurrent plan writers, goals
//! reordered or plan.md swapped for a symlink while a judge runs. Every byte of
//! theirs and ours lands where it was meant to.

use std::io::Write as _;

use crate::setup::{committed_judge, complete_ship, plan, started, status_of, two_goals_looping};
use crate::util::Test;

/// An editor saving in place in two pieces with a pause longer than the 100 ms the
/// store waits for a shrunken file to read the same: plan took the first piece as
/// the file, renamed its version over it, and the second piece went to the old
/// file, which nothing reads any more. A write now waits for a file that ends
/// inside a line and was written under a second ago.
#[test]
fn an_in_place_save_in_two_slow_pieces_keeps_every_byte() {
    use std::io::Write;
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one\n";
    let t = Test::new().plan(before);
    let theirs = before.replace("# Plan: x\n", "# Plan: x\nA line the person added.\n");
    let (first, second) = theirs.split_at(theirs.len() - 10);
    let (first, second) = (first.to_string(), second.to_string());
    let path = t.path("plan.md");
    let (started, wait) = std::sync::mpsc::channel();
    let editor = std::thread::spawn(move || {
        let mut file = std::fs::File::create(&path).unwrap();
        file.write_all(first.as_bytes()).unwrap();
        started.send(()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        file.write_all(second.as_bytes()).unwrap();
    });
    wait.recv().unwrap();
    let run = t.run(&["log", "x"]);
    editor.join().unwrap();
    let md = t.plan_md();
    assert!(
        md.starts_with(&theirs),
        "the editor's save was cut ({}):\n{md}",
        run.stderr
    );
}

/// A judge that moves the other goal above the one it judges (a reorder, no
/// contract or status changed) while `plan complete` waits for it: the sign-off is
/// written into the goal it judged, and the move is kept.
#[test]
fn goals_reordered_while_the_judge_runs_keep_the_sign_off_on_its_goal() {
    let t = started(&plan("ship-other-todo.md"));
    let md = t.plan_md();
    let ship_at = md.find("## Goal: Ship it").unwrap();
    let other_at = md.find("## Goal: Other").unwrap();
    let log_at = md.find("## Log").unwrap();
    let moved = format!(
        "{}{}{}{}",
        &md[..ship_at],
        &md[other_at..log_at],
        &md[ship_at..other_at],
        &md[log_at..]
    );
    let outside = t.dir.path().join("moved.md");
    std::fs::write(&outside, &moved).unwrap();
    // The judge reads a copy of the tree: the move is made in the real one, as a
    // person editing plan.md meanwhile would.
    committed_judge(
        &t,
        &format!(
            "cd '{}' && cat '{}' > plan.md\nprintf 'VERDICT: accept\\nmissing: none\\n'",
            t.root().display(),
            outside.display()
        ),
    );
    complete_ship(&t).code(0);
    let md = t.plan_md();
    assert!(
        md.find("## Goal: Other").unwrap() < md.find("## Goal: Ship it").unwrap(),
        "the move was lost:\n{md}"
    );
    assert_eq!(status_of(&t, "ship"), "done", "{md}");
    assert_eq!(status_of(&t, "other"), "open", "{md}");
    let proof = t.ok(&["show", "ship", "--json"]).json();
    assert_eq!(proof["proof"]["state"], "proven", "{proof}");
}

/// An editor saving in place in two pieces whose first piece ends at a line's end
/// (a write buffer boundary that falls on a newline), 300 ms apart; the first piece
/// is no shorter than what plan read, or shorter and whole-looking (goals and
/// `## Log` kept). Plan took it, renamed its version over it, and the second piece
/// went to the old inode, which the carry-over watched for ~2 ms only. Failed
/// before. A file someone else wrote under `MID_LINE_QUIET` ago now has its old
/// inode watched until it has been quiet that long, and the piece is carried over.
#[test]
fn an_in_place_save_split_at_a_line_end_keeps_every_byte() {
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one\n";
    let theirs = format!("{before}- 2026-01-01 10:01 two\n- 2026-01-01 10:02 three\n");
    let longer = theirs.find("- 2026-01-01 10:02").unwrap();
    let shorter = theirs.find("- 2026-01-01 10:00").unwrap();
    let mut lost = Vec::new();
    for cut in [longer, shorter] {
        let t = Test::new().plan(before);
        let (first, second) = theirs.split_at(cut);
        assert!(first.ends_with('\n'));
        let (first, second) = (first.to_string(), second.to_string());
        let path = t.path("plan.md");
        let (started, wait) = std::sync::mpsc::channel();
        let editor = std::thread::spawn(move || {
            let mut file = std::fs::File::create(&path).unwrap();
            file.write_all(first.as_bytes()).unwrap();
            started.send(()).unwrap();
            std::thread::sleep(std::time::Duration::from_millis(300));
            file.write_all(second.as_bytes()).unwrap();
        });
        wait.recv().unwrap();
        let run = t.run(&["log", "mine"]);
        editor.join().unwrap();
        let md = t.plan_md();
        // plan may refuse (a conflict) but must not drop the editor's bytes.
        if !md.contains("10:02 three") || (run.code == 0 && !md.contains(" mine")) {
            lost.push(format!(
                "cut at {cut} (exit {}, {}):\n{md}",
                run.code, run.stderr
            ));
        }
    }
    assert!(lost.is_empty(), "a piece was lost:\n{}", lost.join("\n"));
}

/// Attack (red team): an editor that saves in place without truncating first
/// (`r+`: writes the new text over the old in pieces, then truncates), removing a
/// line, paused 300 ms after its first piece. plan read the half-saved file (the
/// new text's head over the old text's tail, the same length), renamed its version
/// over it, and the editor's last piece and its truncate went to the old file: the
/// result held a line twice that no one wrote twice, and the line removed. The old
/// file rewritten while watched is now the save plan's edit is made on again.
#[test]
fn an_in_place_save_that_truncates_last_keeps_the_editors_text() {
    let mut before =
        String::from("# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n");
    for i in 1..=6 {
        before.push_str(&format!("- 2026-01-01 10:0{i} entry {i}\n"));
    }
    let t = Test::new().plan(&before);
    let theirs = before.replace("- 2026-01-01 10:02 entry 2\n", "");
    let cut = theirs.len() - 30;
    let path = t.path("plan.md");
    let (started, wait) = std::sync::mpsc::channel();
    let text = theirs.clone();
    let editor = std::thread::spawn(move || {
        use std::io::{Seek as _, SeekFrom};
        let mut file = std::fs::OpenOptions::new().write(true).open(&path).unwrap();
        file.write_all(&text.as_bytes()[..cut]).unwrap();
        started.send(()).unwrap();
        std::thread::sleep(std::time::Duration::from_millis(300));
        file.seek(SeekFrom::Start(cut as u64)).unwrap();
        file.write_all(&text.as_bytes()[cut..]).unwrap();
        file.set_len(text.len() as u64).unwrap();
    });
    wait.recv().unwrap();
    let run = t.run(&["log", "mine"]);
    editor.join().unwrap();
    let md = t.plan_md();
    // plan may refuse (a conflict), but the editor's text stands, and nothing else.
    let expected = match run.code {
        0 => format!("{theirs}- 2026-06-15 14:02 mine\n"),
        _ => theirs,
    };
    assert_eq!(md, expected, "exit {}: {}", run.code, run.stderr);
}

/// A plan.md legitimately without its final newline, just saved, written by four
/// `plan log` processes at once: each waits out `MID_LINE_QUIET` under the lock
/// (the first) or finds the newline plan added; none of the lines is lost and none
/// fails. Holds.
#[test]
fn concurrent_writes_to_a_file_without_a_final_newline_lose_nothing() {
    let before =
        "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\n\n## Log\n- 2026-01-01 10:00 one";
    let t = Test::new().plan(before);
    let children: Vec<_> = (0..4)
        .map(|i| {
            t.cmd(&["log", &format!("writer {i}")])
                .stdout(std::process::Stdio::piped())
                .stderr(std::process::Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for child in children {
        let out = child.wait_with_output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let md = t.plan_md();
    assert!(md.contains("10:00 one\n"), "{md}");
    for i in 0..4 {
        assert!(
            md.contains(&format!("writer {i}")),
            "writer {i} lost:\n{md}"
        );
    }
}

/// A judge that, while `plan complete` waits for it, replaces plan.md with a
/// symlink to a copy of it elsewhere in the repository: plan writes the sign-off
/// through the link (the file plan.md names), keeps the link, and the sign-off is
/// proven; nothing the copy held is lost. Holds.
#[test]
fn plan_md_replaced_by_a_symlink_while_the_judge_runs_keeps_every_byte() {
    let t = two_goals_looping();
    t.write("a.txt", "a\n");
    // The judge reads a copy of the tree: the swap is made in the real one.
    let judge = t.fake_program(
        "judge",
        &(format!("cat >/dev/null\ncd '{}'\n", t.root().display()) + "mkdir -p docs\nsed 's/^# Plan: Red team$/# Plan: Red team (moved)/' plan.md > docs/real.md\nln -sf docs/real.md plan.md.new && mv plan.md.new plan.md\nprintf 'VERDICT: accept\\nmissing: none\\n'"),
    );
    t.write(
        ".plan/config.yaml",
        format!(
            "judge:\n  backend: command\n  command: [\"{}\"]\n  timeout_secs: 20\n",
            judge.display()
        ),
    );
    t.commit_all("judge");
    let run = t.run(&[
        "complete",
        "a",
        "--evidence",
        "a.txt is there",
        "--path",
        "a.txt",
    ]);
    let link = std::fs::symlink_metadata(t.path("plan.md")).unwrap();
    let real = t.read("docs/real.md");
    assert!(link.file_type().is_symlink(), "the link was replaced");
    assert!(
        real.contains("(moved)"),
        "the judge's edit was lost:\n{real}"
    );
    if run.code == 0 {
        assert!(real.contains(" a signed off"), "{real}");
        let a = t.ok(&["show", "a", "--json"]).json();
        assert_eq!(a["proof"]["state"], "proven", "{a}");
    } else {
        assert!(!real.contains(" a signed off"), "{}\n{real}", run.stderr);
    }
}

/// Attack (adversary pass): an editor saves plan.md by writing a new file and
/// renaming it over plan.md while `plan log` is paused after its first read
/// (`PLAN_TEST_PAUSE`). Neither the editor's edit nor the log line may be lost
/// silently: either both are there, or `plan log` fails and the edit stands.
#[test]
fn an_editor_renaming_over_plan_md_while_plan_log_waits_loses_nothing() {
    let t = two_goals_looping();
    let (child, gate) = t.spawn_paused(t.cmd(&["log", "racing note"]));
    let edited = t
        .plan_md()
        .replacen("a.txt is empty", "a.txt is empty or stale", 1);
    t.write("plan.tmp", &edited);
    std::fs::rename(t.path("plan.tmp"), t.path("plan.md")).unwrap();
    std::fs::remove_file(&gate).unwrap();
    let out = child.wait_with_output().unwrap();
    let md = t.plan_md();
    assert!(
        md.contains("a.txt is empty or stale"),
        "the editor's save was lost:\n{md}"
    );
    assert!(
        md.contains("racing note") || !out.status.success(),
        "plan log said it logged, but the line is gone:\n{md}"
    );
}

/// Attack (adversary pass): a repository whose git directory lives apart from it
/// (`git init --separate-git-dir`), so no `.git` is in the path of its state. A
/// symbolic link put where the loop's state is written, naming a file of the
/// person's, had the stop hook write the loop over that file: plan's state there is
/// its own as under `.git`, never read or written through a link.
#[test]
fn state_in_a_separate_git_dir_is_never_written_through_a_link() {
    let (t, git_dir) = apart("elsewhere.git");
    t.ok(&["start", "a", "--as", "s1"]);
    t.ok(&["goal", "--budget", "5"]);
    assert_eq!(t.stop_hook("s1").answer()["decision"], "block");
    let state = git_dir.join("plan/loop.json");
    assert!(
        state.is_file(),
        "the loop's state is kept in the git directory"
    );
    let victim = linked_to_theirs(&t, &state);
    t.stop_hook("s1");
    t.stop_hook("s1");
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), THEIRS);
}

/// Attack (adversary pass), as above with the git directory named relatively
/// (`gitdir: ../gd`) or through a linked directory: the claims are kept under the
/// name git resolves, not the one the `.git` file spells, and a link put where they
/// are written had `plan claims` write them over the file it named.
#[test]
fn claims_in_a_separate_git_dir_named_any_way_are_never_written_through_a_link() {
    for spelled in ["../gd", "LINKED"] {
        let (t, git_dir) = apart("gd");
        let named = match spelled {
            "LINKED" => {
                let link = t.dir.path().join("gd-link");
                std::os::unix::fs::symlink(&git_dir, &link).unwrap();
                link.to_str().unwrap().to_string()
            }
            relative => relative.to_string(),
        };
        t.write(".git", format!("gitdir: {named}\n"));
        t.ok(&["start", "a", "--as", "s1"]);
        let claims = git_dir.join("plan/claims.tsv");
        assert!(
            claims.is_file(),
            "{spelled}: the claim is kept in the git directory"
        );
        let victim = linked_to_theirs(&t, &claims);
        t.run(&["claims"]);
        t.run(&["start", "a", "--as", "s2"]);
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            THEIRS,
            "{spelled}"
        );
    }
}

/// A repository whose git directory is `name` beside its working tree
/// (`git init --separate-git-dir`), with a plan of one open goal `a`, and that
/// directory.
fn apart(name: &str) -> (Test, std::path::PathBuf) {
    let t = Test::new();
    std::fs::remove_dir_all(t.root().join(".git")).unwrap();
    let git_dir = t.dir.path().join(name);
    t.git(&[
        "init",
        "-q",
        "-b",
        "main",
        "--separate-git-dir",
        git_dir.to_str().unwrap(),
    ]);
    t.ok(&["init", "Apart"]);
    t.ok(&[
        "add",
        "A",
        "--done-when",
        "a.txt exists",
        "--verify",
        "test -f a.txt",
    ]);
    (t, git_dir)
}

/// What a person keeps in `package.json`, which a link at plan's state names.
const THEIRS: &str = "{\"name\":\"victim-pkg\",\"version\":\"1.0.0\"}\n";

/// Puts a link at `at`, in place of plan's file, to a file of the person's.
fn linked_to_theirs(t: &Test, at: &std::path::Path) -> std::path::PathBuf {
    let victim = t.dir.path().join("package.json");
    std::fs::write(&victim, THEIRS).unwrap();
    std::fs::remove_file(at).unwrap();
    std::os::unix::fs::symlink(&victim, at).unwrap();
    victim
}

/// Attack (red team): a link put in place of one of plan's state directories
/// (`.git/plan/sessions`, `seen`, `cache`), naming a folder of the person's, had the
/// session prune delete the person's old files there and plan's records written
/// over files of the same names. plan's state is reached through real directories
/// only: the hooks go on without it, and the folder is as it was.
#[test]
fn a_state_directory_replaced_by_a_link_is_never_written_or_pruned_through() {
    let t = Test::new();
    t.ok(&["init", "T"]);
    t.ok(&["add", "A", "--done-when", "a.txt exists"]);
    t.commit_all("plan");
    t.ok(&["start", "a", "--as", "alice"]);
    let notes = t.dir.path().join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    let old = notes.join("ideas.md");
    std::fs::write(&old, "an idea\n").unwrap();
    let month = std::time::Duration::from_secs(30 * 24 * 3600);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .unwrap()
        .set_modified(std::time::SystemTime::now() - month)
        .unwrap();
    for name in ["s1.json", "work.bin", "view.json"] {
        std::fs::write(notes.join(name), "mine\n").unwrap();
    }
    let listing = |dir: &std::path::Path| {
        let mut names: Vec<_> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        names.sort();
        names
    };
    let before = listing(&notes);
    let state = t.root().join(".git/plan");
    for dir in ["sessions", "seen", "cache"] {
        let _ = std::fs::remove_dir_all(state.join(dir));
        std::os::unix::fs::symlink(&notes, state.join(dir)).unwrap();
    }
    let session = |event: &str, extra: &str| {
        let payload = format!(
            "{{\"session_id\":\"s1\",\"cwd\":\"{}\"{extra}}}",
            t.root().display()
        );
        t.case(&["hook", "claude", event])
            .stdin(&payload)
            .check_status_only();
    };
    session("session-start", ",\"source\":\"startup\"");
    session("user-prompt-submit", ",\"prompt\":\"go on\"");
    t.ok(&["goal", "--budget", "3"]);
    t.stop_hook("s1");
    t.run(&["statusline"]);
    assert_eq!(listing(&notes), before);
    assert_eq!(std::fs::read_to_string(&old).unwrap(), "an idea\n");
    for name in ["s1.json", "work.bin", "view.json"] {
        assert_eq!(
            std::fs::read_to_string(notes.join(name)).unwrap(),
            "mine\n",
            "{name}"
        );
    }
}

/// Attack (red team): a file of the person's hard-linked in place of a session
/// record or of plan's log of written lines had plan write into it (a record is
/// rewritten in place, the log appended to). A state file with another name is
/// given one of its own first, its bytes kept; so a `cp -al` snapshot of the
/// repository (every file hard-linked) keeps working on both sides, untouched by
/// the other.
#[test]
fn a_state_file_hard_linked_to_a_persons_file_is_never_written_into() {
    let t = Test::new();
    t.ok(&["init", "T"]);
    t.commit_all("plan");
    t.ok(&["log", "first"]);
    let state = t.root().join(".git/plan");
    std::fs::create_dir_all(state.join("sessions")).unwrap();
    let mut victims = Vec::new();
    for (i, at) in ["sessions/s1.json", "logged.tsv"].into_iter().enumerate() {
        let victim = t.dir.path().join(format!("precious-{i}.txt"));
        std::fs::write(&victim, "precious\n").unwrap();
        let _ = std::fs::remove_file(state.join(at));
        std::fs::hard_link(&victim, state.join(at)).unwrap();
        victims.push(victim);
    }
    let payload = format!(
        "{{\"session_id\":\"s1\",\"cwd\":\"{}\",\"prompt\":\"hi\"}}",
        t.root().display()
    );
    t.case(&["hook", "claude", "user-prompt-submit"])
        .stdin(&payload)
        .check_status_only();
    t.ok(&["log", "second"]);
    for victim in victims {
        assert_eq!(
            std::fs::read_to_string(&victim).unwrap(),
            "precious\n",
            "{}",
            victim.display()
        );
    }
    // A snapshot whose every file is a hard link of the repository's.
    let snapshot = t.dir.path().join("snapshot");
    let cp = std::process::Command::new("cp")
        .args([
            "-al",
            t.root().to_str().unwrap(),
            snapshot.to_str().unwrap(),
        ])
        .status()
        .unwrap();
    assert!(cp.success());
    let kept = std::fs::read(snapshot.join(".git/plan/logged.tsv")).unwrap();
    t.ok(&["log", "third"]);
    t.ok(&["add", "A", "--done-when", "a.txt exists"]);
    t.ok(&["start", "a", "--as", "alice"]);
    assert_eq!(
        std::fs::read(snapshot.join(".git/plan/logged.tsv")).unwrap(),
        kept
    );
}

/// Attack (red team): outside a repository plan keeps the identity of the file it
/// last wrote beside it (`.plan.md.written`); a link put there naming a file of
/// the person's had plan write the record over that file.
#[test]
fn the_record_of_plans_last_write_beside_the_plan_is_never_written_through_a_link() {
    let t = Test::outside_git();
    let victim = t.dir.path().join("precious.txt");
    std::fs::write(&victim, "precious\n").unwrap();
    std::os::unix::fs::symlink(&victim, t.cwd.join(".plan.md.written")).unwrap();
    t.ok(&["--file", "plan.md", "init", "T"]);
    t.ok(&["--file", "plan.md", "log", "one"]);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
}

/// A control character in a command's text (ESC, BEL, SOH, US, DEL; a newline inside a
/// quoted verify) went raw into plan.md: git then read the file as binary, and the
/// newline ended the verify line early, the rest of it (`## Goal: evil`) a heading
/// of its own. Each is refused, naming the argument, and plan.md keeps every byte.
#[test]
fn a_control_character_in_a_commands_text_is_refused_and_nothing_is_written() {
    let before = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\ndone_when: y\n\n## Log\n- 2026-01-01 10:00 one\n";
    let t = Test::new().plan(before);
    let mut shown_all = String::new();
    for args in [
        &["add", "red \u{1b}[31mtitle"][..],
        &["add", "B", "--done-when", "rings \u{7}"],
        &["add", "B", "--done-when", "y", "--subtask", "s\u{1}t"],
        &["add", "B", "--done-when", "y", "--failure-mode", "f\u{7f}"],
        &[
            "add",
            "B",
            "--done-when",
            "y",
            "--verify",
            "sh -c \"echo a\n## Goal: evil\"",
        ],
        &["log", "bell\u{7} here"],
        &["subtask", "a", "x\u{1b}[2J"],
        &["subgoal", "a", "x\u{2}"],
        &["edit", "a", "--verify", "sh -c 'a\r\nb'"],
        &["edit", "a", "--title", "t\u{1b}]0;x\u{7}"],
        &["cancel", "a", "--reason", "r\u{1f}"],
    ] {
        let run = t.run(args);
        shown_all.push_str(&format!(
            "$ plan {args:?}\nexit {}\n{}\n",
            run.code, run.stderr
        ));
        assert_eq!(t.plan_md(), before, "plan {args:?} wrote");
    }
    insta::assert_snapshot!(shown_all);
}

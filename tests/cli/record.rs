//! A sign-off record is bound to its line and to this repository: the transcript's
//! `- when:` is its line's stamp, the checkpoint the line names is one this
//! repository keeps for that goal and stamp, and a line that is plan's event once
//! its invisible characters are removed is a format error.

use crate::setup::proof_of;
use crate::util::{Test, redact, redact_with, shown, shown_with};

const PLAN: &str = "# Plan: Record

## Goal: Ship it
<!-- id: ship -->
status: active
done_when: README.md exists
verify: test -f README.md
failure_modes:
- README.md is empty

## Goal: Docs
<!-- id: docs -->
status: active
done_when: DOCS.md exists
verify: test -f DOCS.md
failure_modes:
- DOCS.md is empty

## Log
";

fn repo() -> Test {
    let t = Test::new();
    t.write("README.md", "# Hello\n");
    t.write("DOCS.md", "# Docs\n");
    t.write("plan.md", PLAN);
    t.judge("accept");
    t.ok(&["start", "ship"]);
    t.ok(&["start", "docs"]);
    t.commit_all("start");
    t
}

fn sign_off(t: &Test, id: &str) {
    t.ok(&["complete", id, "--evidence", "the file is written"]);
}

/// The goal's sign-off line and the transcript path it names.
fn record_of(t: &Test, id: &str) -> (String, String) {
    let md = t.plan_md();
    let line = md
        .lines()
        .rfind(|l| l.contains(&format!("{id} signed off")))
        .expect("a sign-off line")
        .to_string();
    let path = line
        .split_once("): ")
        .unwrap()
        .1
        .split('#')
        .next()
        .unwrap()
        .to_string();
    (line, path)
}

fn hash_of(t: &Test, rel: &str) -> String {
    t.git(&["hash-object", rel]).trim()[..12].to_string()
}

fn set_status(t: &Test, id: &str, status: &str) {
    let md = t.plan_md();
    let at = md.find(&format!("<!-- id: {id} -->")).unwrap();
    let from = at + md[at..].find("status: ").unwrap();
    let end = from + md[from..].find('\n').unwrap();
    t.write(
        "plan.md",
        format!("{}status: {status}{}", &md[..from], &md[end..]),
    );
}

fn append_log(t: &Test, line: &str) {
    let mut md = t.plan_md();
    md.push_str(line);
    md.push('\n');
    t.write("plan.md", md);
}

/// A reopened goal "re-proven" by a copy of its old transcript with one byte added,
/// named by a new sign-off line: the copy's `- when:` is the old line's stamp.
#[test]
fn an_old_transcript_copied_under_a_new_line_is_unproven() {
    let t = repo();
    sign_off(&t, "ship");
    let (line, path) = record_of(&t, "ship");
    t.cmd(&["reopen", "ship", "--reason", "the bench regressed"])
        .env("PLAN_NOW", "2026-06-16T09:00")
        .status()
        .unwrap();
    assert_eq!(proof_of(&t, "ship").0, "unfinished");
    let copy = ".plan/judge/ship-20260616-0930.md";
    t.write(copy, format!("{} ", t.read(&path)));
    let forged = line
        .replace("2026-06-15 14:02", "2026-06-16 09:30")
        .replace(&path, copy)
        .replace(
            &line[line.rfind('#').unwrap() + 1..line.rfind('#').unwrap() + 13],
            &hash_of(&t, copy),
        );
    let forged = forged[..forged.find(" (checkpoint").unwrap()].to_string();
    append_log(&t, &forged);
    set_status(&t, "ship", "done");
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(redact(&t, &proof));
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    let events = t.ok(&["events", "--json"]).stdout;
    insta::assert_snapshot!(redact(&t, &events));
}

/// A genuine accept from a scratch repository, copied in with its line, names a
/// checkpoint commit that does not exist here.
#[test]
fn a_sign_off_copied_from_another_repository_is_unproven() {
    let scratch = repo();
    sign_off(&scratch, "ship");
    let (line, path) = record_of(&scratch, "ship");

    let t = repo();
    sign_off(&t, "docs");
    t.write(&path, scratch.read(&path));
    append_log(&t, &line);
    set_status(&t, "ship", "done");
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(redact(&t, &proof));
    assert_eq!(proof_of(&t, "docs").0, "proven");
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    insta::assert_snapshot!(shown(&t, &t.run(&["audit"]).code(1)));

    // Naming a checkpoint this repository does keep, but for another goal (with
    // the transcript's `- tree judged:` edited to match, or that gives it away).
    let (docs_line, _) = record_of(&t, "docs");
    let docs_checkpoint = &docs_line[docs_line.rfind("(checkpoint ").unwrap()..];
    let rev = |t: &Test, r: &str| t.git(&["rev-parse", r]).trim().to_string();
    t.write(
        &path,
        scratch.read(&path).replace(
            &rev(&scratch, "refs/plan/checkpoints/ship/20260615-1402"),
            &rev(&t, "refs/plan/checkpoints/docs/20260615-1402"),
        ),
    );
    let at = line.rfind('#').unwrap() + 1;
    let relabelled = format!(
        "{}{docs_checkpoint}",
        &line[..line.rfind(" (checkpoint ").unwrap() + 1]
    )
    .replace(&line[at..at + 12], &hash_of(&t, &path));
    t.write("plan.md", t.plan_md().replace(&line, &relabelled));
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(redact(&t, &proof));
}

/// A fresh clone has no refs/plan/*: an honest sign-off is still proven there, with
/// a warning that says the checkpoint is not in this clone, not that it is forged.
#[test]
fn a_fresh_clone_says_not_in_this_clone() {
    let t = repo();
    sign_off(&t, "ship");
    t.commit_all("signed off");
    let clone = t.dir.path().join("clone");
    t.git(&[
        "clone",
        "-q",
        t.root().to_str().unwrap(),
        clone.to_str().unwrap(),
    ]);
    let mut show = t.cmd(&["show", "--all"]);
    show.current_dir(&clone);
    let out = show.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{stdout}");
    insta::assert_snapshot!(redact(&t, &stdout));
    let mut lint = t.cmd(&["lint"]);
    lint.current_dir(&clone);
    assert!(lint.status().unwrap().success());
    // Where the refs are, it is proven without a word.
    assert_eq!(
        proof_of(&t, "ship"),
        ("proven".to_string(), proof_of(&t, "ship").1)
    );
    insta::assert_snapshot!(redact(&t, &t.ok(&["show", "--all"]).stdout));
}

/// A reopen line with a zero-width space after the id is not read as plan's event,
/// so the old sign-off still counts, and it looks identical in `git diff`.
#[test]
fn a_log_line_that_is_an_event_but_for_invisible_characters_is_a_format_error() {
    let t = repo();
    sign_off(&t, "ship");
    append_log(
        &t,
        "- 2026-06-15 14:05 ship\u{200b} reopened: the tests do not run",
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    for hidden in [
        "- 2026-06-15 14:05 \u{feff}ship reopened: again",
        "- 2026-06-15 14:05 ship reopened\u{2066}: again",
        "- 2026-06-15\u{200d} 14:05 ship reopened: again",
        "- 2026-06-15 14:05 ship signed off (verify passed, judge command accept)\u{202c}",
    ] {
        let t = repo();
        append_log(&t, hidden);
        insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    }
    // Invisible characters inside an event's free text change nothing it says.
    let t = repo();
    sign_off(&t, "ship");
    t.ok(&["reopen", "ship", "--reason", "zero\u{200b}width"]);
    assert!(!t.run(&["lint"]).stdout.contains("hidden-event"));
    insta::assert_snapshot!(shown(
        &t,
        &t.run(&["log", "ship\u{200b} reopened: by hand"]).code(2)
    ));
}

/// The copy again, its `- when:` edited to the new line's stamp and the line left
/// without a checkpoint: the record checks out, so what is left is a warning that
/// nothing ties the line to this repository (`plan audit --base --rejudge` in CI is
/// what catches it).
#[test]
fn a_copied_transcript_with_its_when_edited_is_warned_of() {
    let t = repo();
    sign_off(&t, "ship");
    let (line, path) = record_of(&t, "ship");
    t.cmd(&["reopen", "ship", "--reason", "the bench regressed"])
        .env("PLAN_NOW", "2026-06-16T09:00")
        .status()
        .unwrap();
    let copy = ".plan/judge/ship-20260616-0930.md";
    t.write(
        copy,
        t.read(&path)
            .replace("- when: 2026-06-15 14:02", "- when: 2026-06-16 09:30"),
    );
    let at = line.rfind('#').unwrap() + 1;
    let forged = line
        .replace("2026-06-15 14:02", "2026-06-16 09:30")
        .replace(&path, copy)
        .replace(&line[at..at + 12], &hash_of(&t, copy));
    append_log(&t, &forged[..forged.find(" (checkpoint").unwrap()]);
    set_status(&t, "ship", "done");
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "proven", "{proof}");
    insta::assert_snapshot!(redact(&t, &proof));
    insta::assert_snapshot!(shown(&t, &t.ok(&["lint"])));
}

/// Still open: the scratch repository's checkpoint fetched in and given a ref by
/// hand under this goal and stamp binds the copied sign-off here. Its commit says
/// `plan: checkpoint of ship` and its transcript names it as the tree judged, as an
/// honest one does, and nothing deterministic is left to tell them apart: the
/// scratch here is a twin (same files, same plan, same stamps), so when its commits
/// fall in the same second as this repository's would, the fetched checkpoint is
/// object for object the one an honest sign-off here makes; a scratch cloned from
/// this repository differs only in the files the judge read. "Its parent is not on a branch here"
/// is no rule either: after a squash merge an honest checkpoint's parent is on no
/// branch. Everything in the repository is the agent's to write; only a check
/// where it has no hands (`plan audit --base --rejudge` in CI) closes this.
#[test]
#[ignore = "open: a copied sign-off whose checkpoint commit is fetched in and given a ref by hand is proven; only plan audit --rejudge (CI) catches it"]
fn a_copied_sign_off_with_its_checkpoint_fetched_in_is_unproven() {
    let scratch = repo();
    sign_off(&scratch, "ship");
    let (line, path) = record_of(&scratch, "ship");
    let commit = scratch.git(&["rev-parse", "refs/plan/checkpoints/ship/20260615-1402"]);

    let t = repo();
    sign_off(&t, "docs");
    t.git(&[
        "fetch",
        "-q",
        scratch.root().to_str().unwrap(),
        "refs/plan/checkpoints/ship/20260615-1402:refs/plan/checkpoints/ship/20260615-1402",
    ]);
    assert_eq!(
        t.git(&["rev-parse", "refs/plan/checkpoints/ship/20260615-1402"]),
        commit
    );
    t.write(&path, scratch.read(&path));
    append_log(&t, &line);
    set_status(&t, "ship", "done");
    assert_eq!(proof_of(&t, "ship").0, "unproven");
}

// Attack: a reopen whose space after the id is a no-break space (U+00A0). It looks
// like plan's event in git diff, but plan reads a note, so the sign-off still counts.
#[test]
fn a_log_line_that_is_an_event_but_for_an_odd_space_is_a_format_error() {
    let t = repo();
    sign_off(&t, "ship");
    append_log(
        &t,
        "- 2026-06-15 14:05 ship\u{a0}reopened: the tests do not run",
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    let t = repo();
    append_log(&t, "- 2026-06-15\u{2009}14:05 ship reopened: again");
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    // An odd space inside an event's free text changes nothing it says.
    let t = repo();
    sign_off(&t, "ship");
    t.ok(&["reopen", "ship", "--reason", "no\u{a0}break"]);
    assert!(!t.run(&["lint"]).stdout.contains("hidden-event"));
}

// Attack: a reopen spelled with a look-alike letter (Cyrillic о in "reopened"). It
// reads as the event to a reviewer, plan reads a note. What would close it: fold
// confusables (Unicode TR39 skeletons, e.g. the `unicode-security` crate) before
// matching the event forms.
#[test]
fn a_log_line_that_is_an_event_but_for_a_homoglyph_is_a_format_error() {
    let t = repo();
    sign_off(&t, "ship");
    append_log(
        &t,
        "- 2026-06-15 14:05 ship re\u{43e}pened: the tests do not run",
    );
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    // In the id, or with a zero-width space too.
    let t = repo();
    sign_off(&t, "ship");
    append_log(&t, "- 2026-06-15 14:05 \u{455}hip reopened:\u{200b} again");
    insta::assert_snapshot!(shown(&t, &t.run(&["lint"]).code(1)));
    // plan log writes no such line.
    t.run(&["log", "ship re\u{43e}pened: by hand"]).code(2);
}

// Prose in Russian, Greek and Japanese, an id followed by a Russian word, and a real
// reopen whose reason is Russian: none is an event but for a look-alike letter.
#[test]
fn log_lines_in_other_scripts_are_no_hidden_event() {
    let t = repo();
    sign_off(&t, "ship");
    for line in [
        "\u{442}\u{435}\u{441}\u{442}\u{44b} \u{43f}\u{440}\u{43e}\u{448}\u{43b}\u{438}: \u{432}\u{441}\u{451} \u{445}\u{43e}\u{440}\u{43e}\u{448}\u{43e}",
        "\u{3bf}\u{3b9} \u{3ad}\u{3bb}\u{3b5}\u{3b3}\u{3c7}\u{3bf}\u{3b9} \u{3c0}\u{3ad}\u{3c1}\u{3b1}\u{3c3}\u{3b1}\u{3bd}",
        "\u{30c6}\u{30b9}\u{30c8}\u{306f}\u{901a}\u{308a}\u{307e}\u{3057}\u{305f}",
        "ship \u{43f}\u{435}\u{440}\u{435}\u{43e}\u{442}\u{43a}\u{440}\u{44b}\u{442}: \u{43d}\u{435}\u{442}",
    ] {
        t.ok(&["log", line]);
    }
    t.ok(&[
        "reopen",
        "ship",
        "--reason",
        "\u{442}\u{435}\u{441}\u{442}\u{44b} \u{43f}\u{430}\u{434}\u{430}\u{44e}\u{442}",
    ]);
    let lint = t.run(&["lint"]);
    insta::assert_snapshot!(shown(&t, &lint));
}

/// Attack: the sign-off's checkpoint ref re-pointed at a commit of the agent's own
/// making, whose message says `plan: checkpoint of ship` as plan's do, but whose tree
/// is one from after the sign-off (ship done in it): a checkpoint taken for
/// something else. The sign-off line and the transcript's `- tree judged:` are
/// rewritten to name it, and plan's memo of the lines it wrote is deleted. A
/// checkpoint is taken before its sign-off line is written, so the commands (not
/// only CI) find the line already in its tree and the proof void.
#[test]
fn a_checkpoint_whose_tree_is_not_this_sign_offs_is_no_proof() {
    let t = repo();
    sign_off(&t, "ship");
    assert_eq!(proof_of(&t, "ship").0, "proven");
    let (line, path) = record_of(&t, "ship");
    let reference = "refs/plan/checkpoints/ship/20260615-1402";
    let honest = t.git(&["rev-parse", reference]).trim().to_string();
    let forged = checkpoint_commit_now(&t);
    t.git(&["update-ref", reference, &forged]);
    t.write(&path, t.read(&path).replace(&honest, &forged));
    let at = line.rfind('#').unwrap() + 1;
    let relabelled = line
        .replace(&line[at..at + 12], &hash_of(&t, &path))
        .replace(&honest[..12], &forged[..12]);
    assert_ne!(relabelled, line);
    t.write("plan.md", t.plan_md().replace(&line, &relabelled));
    std::fs::remove_file(t.path(".git/plan/logged.tsv")).unwrap();
    t.commit_all("relabel");
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    let names = [(&forged[..12], "[FORGED CHECKPOINT]")];
    insta::assert_snapshot!(redact_with(&t, &proof, &names));
    insta::assert_snapshot!(shown_with(&t, &t.run(&["audit"]).code(1), &names));
}

/// A commit of the working tree as it is now (its sign-off line in it), with the
/// message plan gives a checkpoint of `ship`: what a forger makes by hand.
fn checkpoint_commit_now(t: &Test) -> String {
    t.git(&["add", "-A"]);
    let tree = t.git(&["write-tree"]).trim().to_string();
    let message = "plan: checkpoint of ship";
    let commit = t.git(&["commit-tree", &tree, "-p", "HEAD", "-m", message]);
    commit.trim().to_string()
}

/// Red team: a sign-off line that names no checkpoint was bound by any ref named for
/// its goal and minute, whatever commit that ref points at: `git update-ref` to any
/// commit (no `commit-tree` needed) made a hand-written sign-off proven. A checkpoint
/// is a commit plan took, `plan: checkpoint of <goal>`, and its tree is checked as
/// a named one's is.
#[test]
fn a_ref_pointed_by_hand_at_any_commit_is_no_checkpoint() {
    let t = repo();
    sign_off(&t, "ship");
    let (line, _) = record_of(&t, "ship");
    let reference = "refs/plan/checkpoints/ship/20260615-1402";
    let honest = t.git(&["rev-parse", reference]).trim().to_string();
    let unnamed = line.replace(&format!(" (checkpoint {})", &honest[..12]), "");
    assert_ne!(unnamed, line);
    t.write("plan.md", t.plan_md().replace(&line, &unnamed));
    // An honest checkpoint still binds a line that does not name it.
    assert_eq!(proof_of(&t, "ship").0, "proven");
    let head = t.git(&["rev-parse", "HEAD"]).trim().to_string();
    t.git(&["update-ref", reference, &head]);
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(redact_with(&t, &proof, &[(&head[..12], "[HEAD]")]));
    // A commit plan's message names, whose tree already holds the sign-off line:
    // taken after the sign-off, so not its checkpoint either.
    t.commit_all("signed");
    let after = checkpoint_commit_now(&t);
    t.git(&["update-ref", reference, &after]);
    let (state, proof) = proof_of(&t, "ship");
    assert_eq!(state, "unproven", "{proof}");
    insta::assert_snapshot!(redact_with(&t, &proof, &[(&after[..12], "[AFTER]")]));
}

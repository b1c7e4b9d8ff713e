//! Red team, fourth pass: attacks on what is new since the third (checkpoints and
//! `plan rewind`, `plan import`, events and notify, the hooks' cut reading of long
//! plans) by a dishonest agent with a shell. Each still ignored is an open gap.

use crate::util::Test;

/// Two active goals, `a` (verify: a.txt exists) and `b` (b.txt), committed.
fn two_goals() -> Test {
    let t = Test::new();
    t.ok(&["init", "Red team"]);
    for (title, file) in [("A", "a.txt"), ("B", "b.txt")] {
        t.ok(&[
            "add",
            title,
            "--done-when",
            &format!("{file} exists"),
            "--verify",
            &format!("test -f {file}"),
            "--failure-mode",
            &format!("{file} is empty"),
            "--active",
        ]);
    }
    t.commit_all("start");
    t
}

fn sign(t: &Test, id: &str) {
    t.ok(&["complete", id, "--evidence", "done", "--judge", "none"]);
}

fn status_of(t: &Test, id: &str) -> String {
    let json = t.ok(&["show", id, "--json"]).json();
    json["status"].as_str().unwrap_or_default().to_string()
}

/// `a` then `b` signed off, each file written just before its sign-off: a rewind
/// to `a`'s checkpoint takes `b.txt` away and must reopen `b`.
fn signed_a_then_b() -> Test {
    let t = two_goals();
    t.write("a.txt", "a\n");
    sign(&t, "a");
    t.write("b.txt", "b\n");
    sign(&t, "b");
    t.commit_all("both signed off");
    t
}

/// A checkpoint is a ref anyone can write. An agent adds one for `a` with a later
/// stamp than the real one, pointing at a tree of its choosing (here: HEAD's parent,
/// before either file): `plan rewind a` took the newest ref, found no sign-off line
/// naming its commit, fell back to its forged stamp and reopened nothing, so `b.txt`
/// was gone while `b` stayed done, and proven. A rewind now goes only to a
/// checkpoint a sign-off line of its goal names.
#[test]
fn a_forged_checkpoint_ref_cannot_take_work_away_without_reopening_its_goal() {
    let t = signed_a_then_b();
    let tree = t.git(&["rev-parse", "HEAD~1"]).trim().to_string();
    t.git(&["update-ref", "refs/plan/checkpoints/a/20991231-2359", &tree]);
    t.run(&["rewind", &tree[..12], "--yes"])
        .code(2)
        .stderr_has("no checkpoint for")
        .stderr_has("name no sign-off line of their goal");
    assert!(t.path("b.txt").exists(), "a refused rewind changed files");
    let run = t.run(&["rewind", "a", "--yes"]);
    let gone = !t.path("b.txt").exists();
    assert!(
        !(gone && status_of(&t, "b") == "done"),
        "b.txt was rewound away and b still reads done:\n{}{}",
        run.stdout,
        run.stderr
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(gone, "the real checkpoint of a has no b.txt");
    assert_eq!(status_of(&t, "b"), "active");
}

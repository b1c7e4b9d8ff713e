//! `plan templates` lists the goal templates `plan add --template` starts from: the
//! built-in ones, and the repository's, which replace a built-in of the same name.

use crate::util::Test;

#[test]
fn templates_lists_the_built_in_and_the_repositorys() {
    let t = Test::new();
    t.case(&["templates"])
        .stdout(
            "feature   built-in  done_when: {title} works as a user reaches it, through the real entry point, and tests cover the new behaviour
bugfix    built-in  done_when: a test reproduces the bug and fails without the fix, and passes with it
refactor  built-in  done_when: the code is restructured as described and behaves exactly as before
",
        )
        .check();
    t.write(
        ".plan/templates/release.md",
        "## Goal: {title}\ndone_when: the release is tagged\n",
    );
    t.write(
        ".plan/templates/bugfix.md",
        "## Goal: {title}\ndone_when: the bug stays fixed\n",
    );
    t.write(".plan/templates/notes.txt", "not a template\n");
    t.write(".plan/templates/broken.md", "no goal here\n");
    t.case(&["templates"])
        .stdout(
            "feature   built-in                    done_when: {title} works as a user reaches it, through the real entry point, and tests cover the new behaviour
refactor  built-in                    done_when: the code is restructured as described and behaves exactly as before
broken    .plan/templates/broken.md   unreadable: it has no `## Goal: {title}` heading
bugfix    .plan/templates/bugfix.md   done_when: the bug stays fixed (replaces the built-in)
release   .plan/templates/release.md  done_when: the release is tagged
",
        )
        .check();
    let json = t.ok(&["templates", "--json"]).json();
    assert_eq!(json[4]["name"], "release");
    assert_eq!(json[4]["source"], ".plan/templates/release.md");
    assert_eq!(json[4]["done_when"], "the release is tagged");
    assert_eq!(json[2]["error"], "it has no `## Goal: {title}` heading");
    // Each one listed is one plan add takes.
    t.ok(&["init", "T"]);
    t.ok(&["add", "Ship", "--template", "release"]);
    assert!(t.plan_md().contains("done_when: the release is tagged\n"));
}

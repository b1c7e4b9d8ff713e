//! Review 112: a dishonest agent, and honest work, against today's gate change:
//! every file at HEAD whose log holds one of plan's events is laid over the
//! start's checkout, the start is checked out of a headless bare repository, and
//! a script an interpreter runs by name is laid too.

use crate::gate::{PR_PLAN, gate_passes, gate_run, rev, user_judge};
use crate::util::{Test, fixture_path};

/// A pull request whose goal `w` is started with `sh check.sh` as its verify
/// (`check` the check's text, committed before the start on top of `base`), then
/// `then` runs and `w` is signed off. Returns the base's sha.
pub(crate) fn started_on(
    check: &str,
    base: &[(&str, &str)],
    then: impl Fn(&Test),
) -> (Test, String) {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(&PR_PLAN.replace("VERIFY", "sh check.sh"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    for (path, text) in base {
        t.write(path, text);
    }
    t.commit_all("base");
    let sha = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write("check.sh", check);
    t.commit_all("the check");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    then(&t);
    t.commit_all("work");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    (t, sha)
}

/// A document of the base's that shows how a plan reads, with an example log
/// line of plan's own shape: to the gate, a file plan logged to.
const USAGE: &str = "# Usage\n\n## Goal: Example\n<!-- id: x -->\nstatus: active\ndone_when: never\n\n## Log\n- 2026-01-01 10:00 x started (contract 11111111)\n\n## Releases\n- release 1\n";

// False alarm: a document (docs/usage.md) that quotes a plan with a `started`
// line as an example is, to the gate, a file plan logged to, and laid over the
// start. Honest work adds its release note there and the check greps for it: red
// at the start in truth, green once HEAD's copy is laid there, and the gate
// calls the work verify-green-at-start. The same text with no event line stays
// the start's (review 107), so the example's one line decided it. Mended: a file
// is laid only where plan logged to it since the start.
#[test]
fn a_document_quoting_an_event_line_is_not_laid_at_the_start() {
    let (t, base) = started_on(
        "grep -q 'release 2' docs/usage.md\n",
        &[("docs/usage.md", USAGE)],
        |t| t.write("docs/usage.md", format!("{USAGE}- release 2\n")),
    );
    let out = gate_run(&t, &base);
    assert!(!out.contains("verify-green-at-start"), "{out}");
}

// Attack: the work forges plan's event line into a file that is no plan
// (notes/steps.md), in order to have a check that is green at the start laid
// with HEAD's copy. Laying only makes the start more like HEAD, so this cannot
// make a trivial check red there: the gate still finds it green at the start.
#[test]
fn a_forged_event_line_does_not_make_a_trivial_check_red_at_the_start() {
    let (t, base) = started_on(
        "test -f README.md && test -f notes/steps.md\n",
        &[("notes/steps.md", "step one\n")],
        |t| t.write("notes/steps.md", format!("step one\n\n{USAGE}")),
    );
    let out = gate_run(&t, &base);
    assert!(
        out.contains("verify-green-at-start") && !gate_passes(&t, &base),
        "{out}"
    );
}

// Hole probe: the check's script runs a helper by name through sh (`sh
// lib/helper`, no extension, no exec bit) that the work adds after the start,
// holding nothing but `test -f README.md`. What a script runs in turn stays as
// the start had it, so the helper is missing there and the check reads red: a
// check of a file the base had dodges verify-green-at-start at the gate. The
// same hole as red_first's two-step script, left open there: laying what a
// script runs flags honest work whose check runs the work's own script.
#[test]
#[ignore = "open, as red_first's two-step verify script: a helper the check runs by name (`sh lib/helper`), added after the start, is not laid there, since laying what a script runs flags honest work"]
fn a_helper_the_check_runs_by_name_added_after_the_start_does_not_dodge_green_at_start() {
    let (t, base) = started_on("sh lib/helper\n", &[], |t| {
        t.write("lib/helper", "test -f README.md\n")
    });
    let out = gate_run(&t, &base);
    assert!(
        out.contains("verify-green-at-start") && !gate_passes(&t, &base),
        "{out}"
    );
}

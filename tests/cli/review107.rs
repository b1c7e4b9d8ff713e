//! Review 107: a dishonest agent against today's red-first changes (a comment in a
//! verify's shell script is no change, Markdown prose is no change for a verify
//! that names no file, every plan file is laid over the start's checkout at the
//! gate), and honest work those changes now refuse. Each test is a hole or a false
//! alarm found open, ignored until it is closed.

use crate::gate::{PR_PLAN, gate_passes, gate_run, rev, signed_pull_request, user_judge};
use crate::util::{Test, fixture_path};

const CALC_JS: &str = "exports.add = (a, b) => a + b;\n";
const TEST_JS: &str =
    "const { add } = require('./calc.js');\nif (add(2, 3) !== 5) process.exit(1);\n";

/// Whether the sign-off of `w` shows `verify-green-at-start`.
fn flagged_at_sign_off(t: &Test) -> bool {
    let json = t.ok(&["show", "w", "--json"]).json();
    json.get("verify_green_at_start").is_some()
}

/// A pull request whose goal `w` is started in the configured plan file with
/// `sh check.sh` as its verify (`check` the check's text, committed before the
/// start with `base`), then `then` runs and `w` is signed off. Returns the base's
/// sha.
fn started_on(check: &str, base: &[(&str, &str)], then: impl Fn(&Test)) -> (Test, String) {
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

// Hole: only a script named `.sh`/`.bash` or with a `#!` line naming a shell is
// read through the grammar. A script the verify runs through bash by name
// (`bash check`, no extension, no `#!` line) and the Makefile of `make check`
// (whose recipes are shell, and whose `#` lines are comments to make) are read by
// their bytes: a `# graded` comment added is a change, and verify-green-at-start
// is gone at the sign-off and at the gate.
#[test]
fn a_comment_in_a_script_run_by_bash_or_make_by_name_does_not_dodge_green_at_start() {
    type Form = (&'static str, &'static str, &'static str, fn(&Test));
    let forms: [Form; 2] = [
        ("bash check", "check", "test -f README.md\n", |t| {
            t.write("check", "# graded\ntest -f README.md\n")
        }),
        (
            "make check",
            "Makefile",
            "check:\n\ttest -f README.md\n",
            |t| t.write("Makefile", "# graded\ncheck:\n\ttest -f README.md\n"),
        ),
    ];
    let mut dodged = Vec::new();
    for (verify, file, text, edit) in forms {
        let (t, base) = signed_pull_request(
            verify,
            &[("README.md", "# Hello\n"), (file, text)],
            &[],
            edit,
        );
        if !flagged_at_sign_off(&t) {
            dodged.push(format!("{verify}, the sign-off"));
        }
        if !gate_run(&t, &base).contains("verify-green-at-start") {
            dodged.push(format!("{verify}, the gate"));
        }
    }
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

// False alarm: bash removes a `\` and the line's end before it reads words, so
// `v=release\`, line end, `#2` is the word `release#2`; the grammar reads `#2` as
// a comment at a line's start. The work changes what the check greps for (the
// marker of the release it writes), and the sign-off reads the check as
// unchanged: verify-green-at-start on a check that changed.
#[test]
fn a_word_continued_onto_a_line_starting_with_a_hash_is_no_comment() {
    let (t, _) = started_on(
        "v=release\\\n#1\ngrep -rqF \"$v\" notes\n",
        &[("notes/log.txt", "release#1\n")],
        |t| {
            t.write("check.sh", "v=release\\\n#2\ngrep -rqF \"$v\" notes\n");
            t.write("notes/log.txt", "release#1\nrelease#2\n");
        },
    );
    assert!(!flagged_at_sign_off(&t), "the check changed: no finding");
}

/// An edit of the work's.
type Edit = fn(&Test);

/// The edits of `edits`, each on a pull request whose verify (`node --test`) names
/// no file and passes at the start, that end verify-green-at-start at the
/// sign-off or at the gate.
fn dodging(edits: &[(&str, Edit)]) -> Vec<String> {
    let mut dodged = Vec::new();
    for (what, edit) in edits {
        let (t, base) = signed_pull_request(
            "node --test",
            &[
                ("calc.js", CALC_JS),
                ("calc.test.js", TEST_JS),
                ("README.md", "# Calc\n"),
                ("NOTES.txt", "Notes\n"),
                ("docs/index.rst", "Calc\n====\n"),
                (".gitignore", "node_modules/\n"),
            ],
            &[],
            edit,
        );
        if !flagged_at_sign_off(&t) {
            dodged.push(format!("{what}, the sign-off"));
        }
        if gate_passes(&t, &base) {
            dodged.push(format!("{what}, the gate"));
        }
    }
    dodged
}

// Hole: for a verify that names no file (`node --test`), Markdown prose is no
// change but a code block or a `>>>` anywhere is, though no runner of the
// project runs them: a ```text block added to a JavaScript project's README, or
// a sentence holding `>>>` (JavaScript's shift), ends the finding at the
// sign-off and at the gate.
#[test]
fn a_block_or_prompt_no_runner_runs_does_not_dodge_green_at_start_of_a_verify_that_names_no_file() {
    let dodged = dodging(&[
        ("a ```text block in README.md", |t| {
            t.write("README.md", "# Calc\n\n```text\nadd(2, 3) is 5\n```\n")
        }),
        ("a >>> in a README sentence", |t| {
            t.write("README.md", "# Calc\n\nShifts use >>> too.\n")
        }),
    ]);
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

// Hole: prose is no change only in Markdown; the prose moves out of it. A
// sentence in a `.txt` or `.rst` note or a comment in `.gitignore` ends the
// finding of a verify that names no file (`node --test`), at the sign-off and at
// the gate.
#[test]
fn prose_out_of_markdown_does_not_dodge_green_at_start_of_a_verify_that_names_no_file() {
    let dodged = dodging(&[
        ("a sentence in NOTES.txt", |t| {
            t.write("NOTES.txt", "Notes\n\nAdds two numbers.\n")
        }),
        ("a sentence in docs/index.rst", |t| {
            t.write("docs/index.rst", "Calc\n====\n\nAdds two numbers.\n")
        }),
        ("a comment in .gitignore", |t| {
            t.write(".gitignore", "# build output\nnode_modules/\n")
        }),
    ]);
    assert!(
        dodged.is_empty(),
        "verify-green-at-start dodged: {dodged:?}"
    );
}

const FEATURE: &str = "# Feature: add\n\n## Scenario: small numbers\n\n* add 2 and 3 makes 5\n";

/// A test that runs every step of the Markdown features (cucumber-js reads
/// Gherkin written in Markdown, `*.feature.md`, its steps list items).
const FEATURES_TEST: &str = "const fs = require('fs');
const { add } = require('./calc.js');
for (const f of fs.readdirSync('features')) {
  const text = fs.readFileSync('features/' + f, 'utf8');
  for (const m of text.matchAll(/^\\* add (-?\\d+) and (-?\\d+) makes (-?\\d+)$/gm)) {
    if (add(+m[1], +m[2]) !== +m[3]) process.exit(1);
  }
}
";

// False alarm: a test written in Markdown outside `tests/` and the data folders
// (cucumber-js's `features/*.feature.md`, Gherkin in Markdown, its steps list
// items) is read as prose. The work adds a scenario (a test, as a test file
// added would be), the verify (`node --test`) names no file, and its only
// change reads as no change: verify-green-at-start at the sign-off, and the
// gate fails, where a `.test.js` added ends the finding.
#[test]
fn a_scenario_added_to_a_markdown_feature_is_a_test_not_prose() {
    let (t, base) = signed_pull_request(
        "node --test",
        &[
            ("calc.js", CALC_JS),
            ("features.test.js", FEATURES_TEST),
            ("features/add.feature.md", FEATURE),
        ],
        &[],
        |t| {
            t.write(
                "features/add.feature.md",
                format!("{FEATURE}\n## Scenario: negative numbers\n\n* add -2 and -3 makes -5\n"),
            )
        },
    );
    let out = gate_run(&t, &base);
    let flagged = flagged_at_sign_off(&t);
    assert!(
        !flagged && gate_passes(&t, &base),
        "a test added, flagged: {flagged}\n{out}"
    );
}

const EXAMPLE: &str = "# Plan: Example\n\nHow a plan reads.\n\n## Log\n";

// False alarm: the gate lays every plan file HEAD has over the start's checkout
// and counts no change to them. A plan-shaped document the work writes (an
// example plan in the docs, a plan-shaped fixture), checked by the verify, is
// then the work's own copy at the start too: the check passes there, nothing it
// rests on counts as changed, and the gate calls honest work
// verify-green-at-start. The sign-off, which lays nothing, finds nothing.
#[test]
fn a_plan_shaped_document_the_work_writes_is_not_laid_at_the_start() {
    let (t, base) = started_on(
        "grep -q '## Goal: Deploy' docs/example.md\n",
        &[("docs/example.md", EXAMPLE)],
        |t| {
            t.write(
                "docs/example.md",
                EXAMPLE.replace(
                    "## Log\n",
                    "## Goal: Deploy\n<!-- id: deploy -->\nstatus: open\ndone_when: it runs\n\n## Log\n",
                ),
            )
        },
    );
    assert!(!flagged_at_sign_off(&t));
    let out = gate_run(&t, &base);
    assert!(gate_passes(&t, &base), "{out}");
}

// Hole: a plan file is laid over the start's checkout only when the gate reads it
// as one: named as notes (`.md`, `.markdown`, `.mdx`, `.txt`), with a `# Plan:`
// title and a `## Log`, or a goal done. `plan --file` keeps a plan under any name
// (`conf/side.yaml`) and with no title (`docs/b.md`, goals and a log). A check
// reading the `started` line of a do-nothing goal there, started after `w`,
// through its folder (`grep -rq ' x started' conf`), is red at every start and
// green after: the gate passes a check of a file the base had.
#[test]
fn a_verify_that_reads_a_start_line_in_a_plan_the_gate_does_not_lay_does_not_dodge_green_at_start()
{
    let goal = "## Goal: Marker\n<!-- id: x -->\nstatus: open\ndone_when: never\n\n## Log\n";
    let titled = format!("# Plan: B\n\n{goal}");
    let forms = [
        ("another name", "conf", "conf/side.yaml", titled),
        ("no title", "docs", "docs/b.md", goal.to_string()),
    ];
    let mut dodged = Vec::new();
    for (what, dir, file, text) in forms {
        let (t, base) = started_on(
            &format!("grep -rq ' x started' {dir} && test -f README.md\n"),
            &[(file, text.as_str())],
            |t| {
                t.ok(&["--file", file, "start", "x"]);
                t.write("other.txt", "unrelated\n");
            },
        );
        let out = gate_run(&t, &base);
        if !out.contains("verify-green-at-start") || gate_passes(&t, &base) {
            dodged.push(format!("{what}: {out}"));
        }
    }
    assert!(dodged.is_empty(), "{}", dodged.join("\n"));
}

const TWO_GOALS: &str = "# Plan: Gate

## Goal: Work
<!-- id: w -->
status: active
done_when: the tests pass
verify: sh check.sh
failure_modes:
- the tests are switched off
- [x] do it

## Goal: Marker
<!-- id: x -->
status: open
done_when: the marker is made
verify: test -f marker.txt
failure_modes:
- there is no marker
- [x] make it

## Log
";

// Hole: the gate lays every plan file over the start's checkout, but not plan's
// other files: the judges' transcripts in `.plan/judge/`, written by any
// sign-off. A check that needs one there (`ls .plan/judge | grep -q .`) is red at
// every start before the first sign-off and green after; the agent signs off a
// do-nothing goal `x` before `w`. The check's script is unchanged since the
// start, it checks a file the base had, and the gate passes it.
#[test]
fn a_verify_that_reads_the_judges_transcripts_does_not_dodge_green_at_start() {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(TWO_GOALS);
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    t.commit_all("base");
    let base = rev(&t, "main");
    t.git(&["checkout", "-q", "-b", "pr"]);
    t.write(
        "check.sh",
        "ls .plan/judge 2>/dev/null | grep -q . && test -f README.md\n",
    );
    t.commit_all("the check");
    t.ok(&["start", "w"]);
    t.commit_all("start");
    t.ok(&["start", "x"]);
    t.write("marker.txt", "x\n");
    t.ok(&["complete", "x", "--evidence", "marker.txt is made"]);
    t.commit_all("the marker");
    t.ok(&["complete", "w", "--evidence", "the tests pass"]);
    t.commit_all("sign off");
    user_judge(&t, "accept");
    let out = gate_run(&t, &base);
    assert!(out.contains("verify-green-at-start"), "{out}");
    assert!(!gate_passes(&t, &base), "{out}");
}

// False alarm (not today's: `git::gate::export`, which checks the start out, is
// as it was): the work turns a folder into a file (`data/a.txt`, then `data`; or
// `notes.md/a.txt`, then a plan file `notes.md`). libgit2 checks the start out
// measured against HEAD, where a file stands for the folder, and fails ("null OID
// cannot exist"): the gate errors on an honest check (out.txt written, red at the
// start). A file made a folder holding a plan file, laid over the start, passes.
#[test]
fn a_folder_the_work_made_a_file_is_checked_out_at_the_start() {
    let side =
        "# Plan: B\n\n## Goal: Marker\n<!-- id: x -->\nstatus: open\ndone_when: never\n\n## Log\n";
    type Form = (&'static str, &'static str, &'static str, fn(&Test, &str));
    let forms: [Form; 3] = [
        (
            "a folder made a file, no plan",
            "data/a.txt",
            "a folder\n",
            |t, _| {
                t.git(&["rm", "-q", "data/a.txt"]);
                t.write("data", "a file\n");
            },
        ),
        ("a file made a folder", "docs", "a file\n", |t, side| {
            t.git(&["rm", "-q", "docs"]);
            t.write("docs/plan-b.md", side);
        }),
        (
            "a folder made a plan file",
            "notes.md/a.txt",
            "a folder\n",
            |t, side| {
                t.git(&["rm", "-q", "notes.md/a.txt"]);
                t.write("notes.md", side);
            },
        ),
    ];
    let mut failed = Vec::new();
    for (what, path, text, edit) in forms {
        let (t, base) = started_on("test -f out.txt\n", &[(path, text)], |t| {
            edit(t, side);
            t.write("out.txt", "42\n");
        });
        let out = gate_run(&t, &base);
        if !gate_passes(&t, &base) {
            failed.push(format!("{what}: {out}"));
        }
    }
    assert!(failed.is_empty(), "{}", failed.join("\n"));
}

// Hole (not today's: which scripts are laid): the gate lays the scripts a verify
// runs over the start's checkout only when they look like code (a code
// extension, a Makefile, an exec bit). `bash check` (or `python3 check`) runs a
// script named `check`, not executable, that the work adds: missing at the
// start, so red there, though it checks only README.md, which the base had. The
// gate passes.
#[test]
fn a_script_run_by_a_name_with_no_extension_does_not_dodge_green_at_start() {
    let forms = [
        ("bash check", "test -f README.md\n"),
        (
            "python3 check",
            "import os\nassert os.path.exists('README.md')\n",
        ),
    ];
    let mut dodged = Vec::new();
    for (verify, script) in forms {
        let (t, base) = signed_pull_request(verify, &[("README.md", "# Hello\n")], &[], |t| {
            t.write("check", script)
        });
        let out = gate_run(&t, &base);
        if !out.contains("verify-green-at-start") || gate_passes(&t, &base) {
            dodged.push(format!("{verify}: {out}"));
        }
    }
    assert!(dodged.is_empty(), "{}", dodged.join("\n"));
}

//! Review 114: today's gate laying (a plan-shaped file is laid over a start only
//! where plan logged to it since), born-with (a test taken out with the code of
//! the commit that wrote it is a lead) and JS files named `test.js` as tests,
//! against a dishonest agent and honest work.

use crate::gate::{PR_PLAN, gate_passes, gate_run, rev, user_judge};
use crate::util::{Test, fixture_path};

use crate::review113::{plan, start};

/// Each finding as [`crate::born_with::findings_said`] reads it.
fn findings(t: &Test) -> Vec<String> {
    crate::born_with::findings_said(t)
}

fn assert_high(t: &Test) {
    let found = findings(t);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with("assertions-removed, high:")),
        "{found:?}"
    );
}

/// Honest work: the removal is said, and not as the finding `--strict` fails.
fn assert_lead(t: &Test) {
    let found = findings(t);
    assert!(!found.is_empty(), "the removal is still said");
    assert!(found.iter().all(|f| !f.contains(", high:")), "{found:?}");
}

// ---- born-with ----

const CALC_OLD_STYLE: &str = "def add(a,b):\n    return a+b\n\n\ndef sub(a,b):\n    return a-b\n\n\ndef mul(a,b):\n    return a*b\n";
const TESTS_OLD_STYLE: &str = "from calc import add, sub, mul\n\n\ndef test_add() :\n    assert add(1,2)==3\n\n\ndef test_sub() :\n    assert sub(3,2)==1\n\n\ndef test_mul() :\n    assert mul(2,3)==6\n";

fn black(text: &str) -> String {
    text.replace("(a,b)", "(a, b)")
        .replace("a+b", "a + b")
        .replace("a-b", "a - b")
        .replace("a*b", "a * b")
        .replace("() :", "():")
        .replace(",2)==", ", 2) ==")
        .replace(",3)==", ", 3) ==")
}

// Attack: a commit of the base's that only reformatted (black) the product and
// its tests is, to blame, where every line of both was born. Reverting its
// product half puts back only lines it removed and takes out all it added, so
// any test it reformatted can go beside it as a "fix reverted with its test":
// `mul` is the same code as before, its test is simply gone.
#[test]
#[ignore = "review 114: a formatting commit reverted (product lines put back as they were) excuses any test it reformatted; the code is rewritten, not taken out"]
fn a_reformat_reverted_and_a_test_it_touched_dropped_is_high() {
    let t = Test::new();
    t.write("plan.md", plan("python3 -m pytest -q"));
    t.write("calc.py", CALC_OLD_STYLE);
    t.write("tests/test_calc.py", TESTS_OLD_STYLE);
    t.commit_all("the calculator");
    t.write("calc.py", black(CALC_OLD_STYLE));
    t.write("tests/test_calc.py", black(TESTS_OLD_STYLE));
    t.commit_all("style: black");
    t.write("README.md", "# Calc\n");
    t.commit_all("a readme");
    start(&t);
    t.write("calc.py", CALC_OLD_STYLE);
    let tests = black(TESTS_OLD_STYLE);
    let kept = tests
        .split("\n\n\ndef test_mul")
        .next()
        .unwrap()
        .to_string()
        + "\n";
    t.write("tests/test_calc.py", kept);
    assert_high(&t);
}

const JS_CALC: &str = "function add(a, b) {\n  return a + b;\n}\n\nmodule.exports = { add };\n";
const JS_TESTS: &str = "const { add } = require(\"..\");\n\ndescribe(\"calc\", () => {\n  test(\"adds\", () => {\n    expect(add(1, 2)).toBe(3);\n  });\n});\n";
const JS_TEXT_TEST: &str = "\ndescribe(\"calc parses\", () => {\n  test(\"text\", () => {\n    expect(add(\"1\", 2)).toBe(3);\n  });\n});\n";

fn js_fixed() -> String {
    JS_CALC.replace(
        "  return a + b;",
        "  if (typeof a === \"string\") {\n    a = Number(a);\n  }\n  return a + b;",
    )
}

/// A package whose `main` is calc.js, a fix to it with its test in a commit of
/// its own, then the start.
fn js_fixed_then_started(t: &Test) {
    t.write("plan.md", plan("npx jest"));
    t.write(
        "package.json",
        "{\"name\": \"calc\", \"main\": \"calc.js\"}\n",
    );
    t.write("calc.js", JS_CALC);
    t.write("tests/calc.test.js", JS_TESTS);
    t.commit_all("the calculator");
    t.write("calc.js", js_fixed());
    t.write("tests/calc.test.js", format!("{JS_TESTS}{JS_TEXT_TEST}"));
    t.commit_all("fix: add parses text");
    t.write("README.md", "# Calc\n");
    t.commit_all("a readme");
    start(t);
}

// Honest, for the next test: the fix reverted with its test is a lead.
#[test]
fn a_js_fix_reverted_with_its_test_is_a_lead() {
    let t = Test::new();
    js_fixed_then_started(&t);
    t.write("calc.js", JS_CALC);
    t.write("tests/calc.test.js", JS_TESTS);
    assert_lead(&t);
}

// Attack: the fix's lines leave calc.js for a file the check counts as the
// tests' by its name (`fixtures/`), which the package's `main` (package.json,
// no code file) now loads and which wraps `add` again, fix and all. Nothing
// was put in "the product", so the revert looks whole; the fix still ships,
// its test is gone.
#[test]
#[ignore = "review 114: code put in a file named like a test helper (fixtures/, bench/, mock) or in no code file (package.json) is not \"put in the product\", so the fix moved there reads as reverted"]
fn the_fix_moved_into_a_fixtures_file_the_package_loads_is_high() {
    let t = Test::new();
    js_fixed_then_started(&t);
    t.write("calc.js", JS_CALC);
    t.write(
        "package.json",
        "{\"name\": \"calc\", \"main\": \"fixtures/calc.js\"}\n",
    );
    t.write(
        "fixtures/calc.js",
        "const calc = require(\"../calc\");\n\nconst plain = calc.add;\ncalc.add = (a, b) => plain(typeof a === \"string\" ? Number(a) : a, b);\n\nmodule.exports = calc;\n",
    );
    t.write("tests/calc.test.js", JS_TESTS);
    assert_high(&t);
}

// Honest, and no panic: a fix reverted with its test in files of CRLF lines
// and no newline at the end.
#[test]
fn a_crlf_fix_reverted_with_its_test_is_a_lead() {
    let crlf = |s: &str| s.replace('\n', "\r\n");
    let trimmed = |s: String| s.trim_end().to_string();
    let t = Test::new();
    t.write("plan.md", plan("npx jest"));
    t.write(
        "package.json",
        "{\"name\": \"calc\", \"main\": \"calc.js\"}\n",
    );
    t.write("calc.js", trimmed(crlf(JS_CALC)));
    t.write("tests/calc.test.js", trimmed(crlf(JS_TESTS)));
    t.commit_all("the calculator");
    t.write("calc.js", trimmed(crlf(&js_fixed())));
    t.write(
        "tests/calc.test.js",
        trimmed(crlf(&format!("{JS_TESTS}{JS_TEXT_TEST}"))),
    );
    t.commit_all("fix: add parses text");
    start(&t);
    t.write("calc.js", trimmed(crlf(JS_CALC)));
    t.write("tests/calc.test.js", trimmed(crlf(JS_TESTS)));
    assert_lead(&t);
}

// Blocked (no panic): a product file that is not UTF-8 changed beside the
// revert (a Latin-1 comment) is put in, and the removal stays high.
#[test]
fn a_latin1_product_line_put_in_beside_the_revert_stays_high() {
    let t = Test::new();
    js_fixed_then_started(&t);
    t.write("calc.js", JS_CALC);
    let mut latin1 = b"// caf".to_vec();
    latin1.push(0xe9);
    latin1.extend_from_slice(b"\nmodule.exports.name = \"calc\";\n");
    t.write("name.js", latin1);
    t.write("tests/calc.test.js", JS_TESTS);
    assert_high(&t);
}

/// How long `plan show ship --json` takes at `t`.
fn show_time(t: &Test) -> std::time::Duration {
    let began = std::time::Instant::now();
    assert!(!findings(t).is_empty());
    began.elapsed()
}

// Cost: a revert of a feature whose commit wrote 3,000 small tests, dropped
// with it. Read with born-with, `plan show` is quadratic in the test file: 8.3 s
// at 1,000 tests, 25.8 s at 2,000, against 1.3 s and 2.0 s with born-with off
// (an empty `.git/info/grafts`, history not trusted). The profile is hashing
// and `is_alphanumeric` under `with_code::words`: `Born::excuses` asks
// `reaches` once per lost test, and `reaches` gathers every word of the whole
// test file into a set each time.
#[test]
fn a_revert_dropping_thousands_of_tests_costs_what_the_check_without_history_does() {
    let t = Test::new();
    let n = 3_000;
    let defs: String = (0..n)
        .map(|k| format!("    if a == {k}:\n        return {k}\n"))
        .collect();
    let tests: String = (0..n)
        .map(|k| format!("def test_{k}():\n    assert f({k}) == {k}\n\n\n"))
        .collect();
    let calc = "def f(a):\n    return a\n";
    let kept = "from calc import f\n\n\ndef test_f():\n    assert f(1) == 1\n";
    t.write("plan.md", plan("python3 -m pytest -q"));
    t.write("calc.py", calc);
    t.write("tests/test_calc.py", kept);
    t.commit_all("the calculator");
    t.write("calc.py", format!("def f(a):\n{defs}    return a\n"));
    t.write("tests/test_calc.py", format!("{kept}\n\n{tests}"));
    t.commit_all("f, fast");
    start(&t);
    t.write("calc.py", calc);
    t.write("tests/test_calc.py", kept);
    t.write(".git/info/grafts", "");
    let without = show_time(&t);
    std::fs::remove_file(t.root().join(".git/info/grafts")).unwrap();
    let with = show_time(&t);
    assert!(
        with < without * 4 + std::time::Duration::from_secs(5),
        "born-with: {with:?}, without: {without:?}"
    );
}

// ---- JS files named test.js ----

// Blocked false alarm: a CLI's `test` command (`bin/test.js`) in a package
// tested with vitest, whose default match (`**/*.{test,spec}.?(c|m)[jt]s?(x)`) never reads
// it as a test. Honest work turns an argument check from node's `assert` into
// a usage message: it holds no test, so nothing is said as high.
#[test]
fn a_cli_test_command_named_test_js_is_no_test_file() {
    let t = Test::new();
    let cli = "#!/usr/bin/env node\nconst assert = require(\"assert\");\nconst { run } = require(\"../lib/run\");\n\nconst file = process.argv[2];\nassert(file, \"usage: calc-test FILE\");\nassert.ok(file.endsWith(\".json\"), \"FILE must be JSON\");\nrun(file);\n";
    t.write("plan.md", plan("npx vitest run"));
    t.write(
        "package.json",
        "{\"name\": \"calc\", \"bin\": {\"calc-test\": \"bin/test.js\"}, \"devDependencies\": {\"vitest\": \"^1.0.0\"}}\n",
    );
    t.write("lib/run.js", "exports.run = (file) => console.log(file);\n");
    t.write("bin/test.js", cli);
    t.commit_all("the cli");
    start(&t);
    t.write(
        "bin/test.js",
        cli.replace(
            "assert.ok(file.endsWith(\".json\"), \"FILE must be JSON\");\n",
            "if (!file.endsWith(\".json\")) {\n  console.error(\"calc-test: FILE must be JSON\");\n  process.exit(2);\n}\n",
        ),
    );
    let found = findings(&t);
    assert!(found.iter().all(|f| !f.contains(", high:")), "{found:?}");
}

// ---- gate laying ----

/// A pull request whose goal `w` is started with `sh check.sh` as its verify,
/// `base` run on `main` before the base is committed, then `then` after the
/// start; `w` is signed off. Returns the base's sha.
fn started_on(check: &str, base: impl Fn(&Test), then: impl Fn(&Test)) -> (Test, String) {
    let t = Test::new();
    let claude = fixture_path("judges/claude-accept");
    t.fake_program("claude", &format!("exec '{}' \"$@\"\n", claude.display()));
    let t = t.with_bin().plan(&PR_PLAN.replace("VERIFY", "sh check.sh"));
    t.write(".plan/config.yaml", "judge:\n  backend: claude\n");
    t.write("README.md", "# Hello\n");
    base(&t);
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

const SIDE: &str = "# Plan: Side\n\n## Goal: Parse\n<!-- id: y -->\nstatus: open\ndone_when: it parses\n- [ ] parse dates\n\n## Log\n";

// Attack: a check that reads what plan itself wrote to a second plan file (a
// subtask `plan --file side.md tick` ticked) rather than the work. Before today
// side.md, holding plan's events, was laid over the start and the check read
// green there; now only a file with a new event is laid, and a tick is no
// event, so the trivial check reads red at the start and passes as red first.
#[test]
fn a_check_reading_a_tick_plan_wrote_to_a_side_plan_is_green_at_start() {
    let (t, base) = started_on(
        "grep -q '\\[x\\] parse dates' side.md\n",
        |t| {
            t.write("side.md", SIDE);
            t.ok(&["--file", "side.md", "start", "y", "--no-verify"]);
        },
        |t| {
            t.ok(&["--file", "side.md", "tick", "y", "1"]);
        },
    );
    let out = gate_run(&t, &base);
    assert!(
        out.contains("verify-green-at-start") && !gate_passes(&t, &base),
        "{out}"
    );
}

// Blocked: a side plan renamed since the start (git mv side.md plans/side.md)
// with a new event in it has no copy at that path at the start, and is laid.
#[test]
fn a_side_plan_moved_into_a_folder_is_laid_at_the_start() {
    let (t, base) = started_on(
        "grep -q 'y started' plans/side.md\n",
        |t| t.write("side.md", SIDE),
        |t| {
            t.write("plans/side.md", t.read("side.md"));
            t.git(&["rm", "-q", "side.md"]);
            t.ok(&["--file", "plans/side.md", "start", "y", "--no-verify"]);
        },
    );
    let out = gate_run(&t, &base);
    assert!(
        out.contains("verify-green-at-start") && !gate_passes(&t, &base),
        "{out}"
    );
}

// False alarm (new today): the start's tree holds a folder where HEAD holds a plan file
// (`notes`, a folder of notes at the base, now a second plan). Asking for the
// start's copy of it is an error, which fails the gate on honest work.
#[test]
fn a_plan_file_where_the_start_had_a_folder_does_not_break_the_gate() {
    let (t, base) = started_on(
        "test -f README.md && grep -q 'y started' notes\n",
        |t| t.write("notes/a.md", "a note\n"),
        |t| {
            t.git(&["rm", "-q", "-r", "notes"]);
            t.write("notes", SIDE);
            t.ok(&["--file", "notes", "start", "y", "--no-verify"]);
        },
    );
    let out = gate_run(&t, &base);
    assert!(!out.contains("is not a file"), "{out}");
    assert!(out.contains("verify-green-at-start"), "{out}");
}

// Attack, and the docs against the code: docs/src/sign-off.md says a test is its
// commit's when that commit wrote its name line "and more than half of its
// other lines"; the code counts the name line among them (2 of 3 lines is most).
// An old test of two assertions, renamed beside a three-line fix that also
// touched one of its assertions, goes out with the fix: its other assertion,
// older than the fix, was never the fix's.
#[test]
fn a_test_renamed_with_one_of_two_assertions_touched_is_not_the_fix_s() {
    let t = Test::new();
    let calc = "def add(a, b):\n    return a + b\n";
    let fixed = "def add(a, b):\n    if isinstance(a, str):\n        a = int(a)\n    if isinstance(b, str):\n        b = int(b)\n    return a + b\n";
    let tests = "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n\n\ndef test_sums():\n    assert add(2, 2) == 4\n    assert add(0, 0) == 0\n";
    t.write("plan.md", plan("python3 -m pytest -q"));
    t.write("calc.py", calc);
    t.write("tests/test_calc.py", tests);
    t.commit_all("the calculator");
    t.write("calc.py", fixed);
    t.write(
        "tests/test_calc.py",
        tests
            .replace("def test_sums", "def test_sums_of_text")
            .replace("add(2, 2) == 4", "add(\"2\", 2) == 4"),
    );
    t.commit_all("fix: add parses text");
    t.write("README.md", "# Calc\n");
    t.commit_all("a readme");
    start(&t);
    t.write("calc.py", calc);
    t.write(
        "tests/test_calc.py",
        "from calc import add\n\n\ndef test_add():\n    assert add(1, 2) == 3\n",
    );
    assert_high(&t);
}

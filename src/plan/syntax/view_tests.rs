//! The view of each language: its tests with their scopes and assertions, skips
//! with their conditions, redefinitions, macros and a shadowed `t`.

use super::{Grammar, View, view};

fn read(g: Grammar, text: &str) -> View {
    let v = view(g, text).expect("a view");
    assert!(v.clean, "{text}");
    v
}

fn names(v: &View) -> Vec<(&str, &str, usize)> {
    v.tests
        .iter()
        .map(|t| (t.scope.as_str(), t.name.as_str(), t.assertions.len()))
        .collect()
}

#[test]
fn python_tests_skips_helpers_and_a_redefinition() {
    let v = read(
        Grammar::Python,
        r#"import sys, pytest

def helper(x):
    assert x

@pytest.mark.skipif(sys.platform == "win32", reason="posix")
def test_add():
    assert add(1, 1) == 2
    with pytest.raises(ValueError):
        add(None, 1)

class TestCalc:
    def test_add(self):
        self.assertEqual(add(1, 1), 2)
        if not ok:
            pytest.skip("no")

def test_add():
    pass
"#,
    );
    assert_eq!(
        names(&v),
        [
            ("", "test_add", 2),
            ("TestCalc", "test_add", 1),
            ("", "test_add", 0)
        ]
    );
    assert_eq!(v.skips.len(), 2);
    assert!(v.skips[0].condition.as_deref().unwrap().contains("win32"));
    assert!(v.skips[1].condition.as_deref().unwrap().contains("ok"));
    assert_eq!(
        v.redefinitions.len(),
        1,
        "the class's test_add is its own scope"
    );
    let r = &v.redefinitions[0];
    assert_eq!((r.name.as_str(), r.scope.as_str()), ("test_add", ""));
    assert_eq!((r.first_assertions, r.last_assertions), (2, 0));
}

#[test]
fn javascript_tests_in_suites_with_their_assertions_and_skips() {
    let v = read(
        Grammar::TypeScript,
        r#"describe('calc', () => {
  it('adds', async () => {
    expect(add(1, 1)).toBe(2);
    await expect(p).resolves.not.toThrow();
    assert.equal(add(0, 0), 0);
    expect(/'/.test(s)).toBe(true);
  });
  it.skipIf(process.env.CI)('is slow', () => {});
  describe.skip('sub', () => { test('subs', () => { expect(sub(1, 1)).toBe(0) }) });
});
const note = "expect(add(1, 1)).toBe(3)";
"#,
    );
    assert_eq!(
        names(&v),
        [
            ("calc", "adds", 4),
            ("calc", "is slow", 0),
            ("calc::sub", "subs", 1)
        ]
    );
    assert_eq!(v.skips.len(), 2);
    assert!(v.skips[0].condition.as_deref().unwrap().contains("CI"));
    assert!(v.strings.iter().any(|s| s == "expect(add(1, 1)).toBe(3)"));
}

#[test]
fn rust_tests_in_modules_ignores_and_macros() {
    let v = read(
        Grammar::Rust,
        r#"macro_rules! off { () => { #[test] fn hidden() { assert!(false); } }; }
macro_rules! cases { ($name:ident) => { #[test] fn $name() { assert!(true); } }; }
macro_rules! on { () => { #[tokio::test] async fn shown() {} }; }
cases!(one);
on!();

#[cfg(test)]
mod tests {
    #[test]
    #[ignore = "slow"]
    fn adds() { assert_eq!(add(1, 1), 2); debug_assert!(true); }
    fn helper() {}
    mod deeper {
        #[tokio::test]
        async fn subs() { assert_ne!(sub(1, 1), 1); }
    }
}
"#,
    );
    assert_eq!(
        names(&v),
        [
            ("", "one", 0),
            ("tests", "adds", 2),
            ("tests::deeper", "subs", 1)
        ],
        "a call of a macro that makes a test of the name it is given is that test"
    );
    assert_eq!(v.skips.len(), 1);
    let macros: Vec<_> = v
        .macros
        .iter()
        .map(|m| (m.name.as_str(), m.invoked, m.tests.clone()))
        .collect();
    assert_eq!(
        macros,
        [
            ("off", false, vec!["hidden".to_string()]),
            ("cases", true, vec![]),
            ("on", true, vec!["shown".to_string()]),
        ]
    );
}

#[test]
fn go_tests_a_shadowed_t_and_a_subtest_s_own() {
    let v = read(
        Grammar::Go,
        r#"package calc

import "testing"

type fakeT struct{}

func (fakeT) Errorf(string, ...any) {}

func TestAdd(t *testing.T) {
	{
		t := fakeT{}
		if Add(1, 1) != 2 {
			t.Errorf("bad")
		}
	}
	func(t fakeT) { t.Errorf("bad") }(fakeT{})
}

func TestSub(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("posix")
	}
	t.Run("zero", func(t *testing.T) {
		require.Equal(t, 0, Sub(1, 1))
		if Sub(0, 0) != 0 {
			t.Fatalf("bad")
		}
	})
}
"#,
    );
    assert_eq!(names(&v), [("", "TestAdd", 2), ("", "TestSub", 2)]);
    assert_eq!(v.tests[0].shadowed, ["t := fakeT{}", "t fakeT"]);
    assert!(v.tests[1].shadowed.is_empty());
    assert!(v.skips[0].condition.as_deref().unwrap().contains("windows"));
}

#[test]
fn rust_tests_a_macro_of_the_file_makes_with_their_gates() {
    let v = read(
        Grammar::Rust,
        "macro_rules! case {\n    ($name:ident, $body:expr) => {\n        #[test]\n        fn $name() {\n            $body\n        }\n    };\n}\n\n#[cfg(not(windows))]\ncase!(links, assert_eq!(run(&[\"-L\"]), \"a\\n\"));\ncase!(files, assert_eq!(run(&[]), \"b\\n\"));\nvec!(x, 1);\n",
    );
    assert_eq!(names(&v), [("", "links", 0), ("", "files", 0)]);
    assert_eq!(v.skips.len(), 1);
    assert_eq!(v.skips[0].condition.as_deref(), Some("cfg(not(windows))"));
    assert_eq!(v.skips[0].words(), ["cfg", "not", "windows"]);
}

#[test]
fn javascript_checks_skips_and_cases_the_tokens_read() {
    let v = read(
        Grammar::JavaScript,
        r#"const testOnPosix = isWindows() ? test.skip : test

function helper(x) {
  expect(x).toBe(1)
}

testOnPosix('posix only', () => {
  expect(err).to.exist
  expect(fn).toHaveBeenCalledWith(expect.any(String))
})

test('node', (t) => {
  t.assert.ok(ready)
  if (false) {
    t.assert.fail('never')
  }
  if (slow) return this.skip()
})

test('waits', async () => {
  await waitFor(() => ready)
  await vi.waitFor(() => expect(x).toBe(1))
})

test.each([])('no rows', () => {})
it.only('alone', () => {})
"#,
    );
    assert_eq!(
        names(&v),
        [
            ("", "posix only", 2),
            ("", "node", 1),
            ("", "waits", 2),
            ("", "no rows", 0),
            ("", "alone", 0)
        ],
        "chai's property, node:test's t.assert, a wait holding no check; no matcher, no dead branch"
    );
    assert_eq!(v.loose.len(), 1, "the helper's check is in no test");
    let marks: Vec<(Option<&str>, bool, bool, bool)> = v
        .skips
        .iter()
        .map(|s| (s.test.as_deref(), s.condition.is_some(), s.focus, s.guard))
        .collect();
    assert_eq!(
        marks,
        [
            (Some("posix only"), true, false, true),
            (Some("node"), true, false, false),
            (Some("no rows"), false, false, false),
            (Some("alone"), false, true, false)
        ]
    );
}

#[test]
fn python_tests_under_a_module_if_markers_exits_and_dead_assertions() {
    let v = read(
        Grammar::Python,
        r#"import sys, pytest

raise SystemExit(0)

if sys.platform == "win32":
    def test_win():
        assert win()
else:
    try:
        import posix
    except ImportError:
        pytest.skip("no posix", allow_module_level=True)

@pytest.fixture
def db():
    pytest.importorskip("sqlite3")
    assert connect()

@pytest.mark.flaky(reruns=3)
def test_flaky():
    if True:
        return
    if False:
        assert never()
    _unused = lambda: pytest.fail()
    assert ran()

if __name__ == "__main__":
    sys.exit(main())
"#,
    );
    assert_eq!(names(&v), [("", "test_win", 1), ("", "test_flaky", 1)]);
    assert_eq!(v.exits, 1, "the raise; not the exit under __main__");
    assert_eq!(v.loose.len(), 1, "the fixture's assert");
    let skips: Vec<(Option<&str>, bool, bool)> = v
        .skips
        .iter()
        .map(|s| (s.test.as_deref(), s.condition.is_some(), s.runs))
        .collect();
    assert_eq!(
        skips,
        [
            (None, false, false),
            (None, false, true),
            (Some("test_flaky"), false, true),
            (Some("test_flaky"), false, false),
        ],
        "the module's skip, the fixture's importorskip, flaky, `if True: return`"
    );
}

/// A test after a quoted macro holding a `fn` is named by its own `fn`: the
/// quoted tokens are left out of the file's, and so is their `fn` (helper 65's
/// review: the index of each next `fn` was found before they were left out, so
/// the second test was named `test`).
#[test]
fn a_test_after_a_quoted_fn_keeps_its_name() {
    let v = read(
        Grammar::Rust,
        "#[test]\nfn parses() { let f: ItemFn = parse_quote! { fn x() {} }; assert!(f.ok()); }\n\
         #[test]\nfn second() { assert!(true); }\n",
    );
    let names: Vec<&str> = v.marks.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["parses", "second"]);
}

/// Rust's marks: a test attribute with a `cfg` after it is a skip, `#[ignore]`
/// an outright one, a test in a macro's tokens is a test with its body, and an
/// assertion in a closure thrown away or under `if false` is none.
#[test]
fn rust_marks_read_attributes_macros_and_dead_code() {
    let v = read(
        Grammar::Rust,
        r#"#[test]
#[cfg(unix)]
fn on_unix() {
    assert_eq!(1, 1);
    let _ = || assert!(false);
    if false {
        assert!(never());
    }
}

#[test]
#[ignore]
fn slow() {
    assert!(ok());
}

proptest! {
    #[test]
    fn holds(x in 0..9) {
        prop_assert!(x < 9);
    }
}

fn quoted() {
    quote! { #[test] fn made() { assert!(x); } };
}
"#,
    );
    let m = &v.marks;
    let tests: Vec<(&str, bool)> = m
        .tests
        .iter()
        .map(|t| (t.name.as_str(), t.body.is_some()))
        .collect();
    assert_eq!(tests, [("on_unix", true), ("slow", true), ("holds", true)]);
    assert_eq!(
        m.assertions.len(),
        3,
        "assert_eq!, assert!(ok()), prop_assert!"
    );
    let skips: Vec<(&str, bool)> = m
        .skips
        .iter()
        .map(|s| (s.owner.as_str(), s.outright))
        .collect();
    assert_eq!(skips, [("on_unix", false), ("slow", true)]);
    let owned = |at: usize| {
        m.tests
            .iter()
            .find(|t| t.body.as_ref().is_some_and(|b| b.contains(&at)))
            .map(|t| t.name.as_str())
    };
    let statements: Vec<(&str, Option<&str>)> = m
        .statements
        .iter()
        .map(|s| (s.text.as_str(), owned(s.at)))
        .collect();
    assert_eq!(
        statements,
        [
            ("assert_eq!(1, 1)", Some("on_unix")),
            ("assert!(ok())", Some("slow")),
            ("prop_assert!(x < 9)", Some("holds")),
        ]
    );
}

/// Go's marks: a subtest in a loop's block runs once per row and is no test of
/// its own, one elsewhere is; a failing `if` is a statement, `t.Skip()` first in
/// a test an outright skip, and a build constraint is read.
#[test]
fn go_marks_read_subtests_ifs_and_skips() {
    let v = read(
        Grammar::Go,
        r#"//go:build linux

package a

import "testing"

func TestTable(t *testing.T) {
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := f(tc.in); got != tc.want {
				t.Errorf("got %v", got)
			}
		})
	}
	t.Run("alone", func(t *testing.T) {
		assert.Equal(t, 1, f(1))
	})
}

func TestOff(t *testing.T) {
	t.Skip("flaky")
	require.NoError(t, run())
}
"#,
    );
    let m = &v.marks;
    let names: Vec<&str> = m.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["TestTable", "\"alone\"", "TestOff"]);
    let statements: Vec<&str> = m.statements.iter().map(|s| s.text.as_str()).collect();
    assert_eq!(
        statements,
        [
            "if got := f(tc.in); got != tc.want",
            "Errorf(\"got %v\", got)",
            "Equal(t, 1, f(1))",
            "NoError(t, run())",
        ]
    );
    let skips: Vec<(&str, bool)> = m
        .skips
        .iter()
        .map(|s| (s.owner.as_str(), s.outright))
        .collect();
    assert_eq!(skips, [("TestOff", true)]);
    assert_eq!(m.builds, ["//go:build linux"]);
}

#[test]
fn a_long_run_of_python_comment_lines_reads_in_linear_time() {
    // The grammar's scanner rereads a run of comment lines at each line's end:
    // 50,000 in a row took minutes before they were blanked for the parse (the
    // pure core reads no clock: a slow parse shows as this test's time).
    let test = "def test_a():\n    assert add(1, 2) == 3\n";
    let text = format!("{test}{}{test}", "# note\n".repeat(50_000)).replacen("test_a", "test_b", 1);
    let view = crate::plan::syntax::view(Grammar::Python, &text).expect("a view");
    let names: Vec<&str> = view.tests.iter().map(|t| t.name.as_str()).collect();
    assert_eq!(names, ["test_b", "test_a"]);
    assert_eq!(view.tests[1].assertions.len(), 1);
    // The places are the text's: the second test starts where the text has it.
    assert!(text[view.tests[1].span.clone()].starts_with("def test_a"));
}

#[test]
fn a_run_of_hash_lines_inside_a_string_does_not_hide_where_it_ends() {
    // The string's last `#` line closes it: blanked, the string would run on
    // over the redefinition below, which pytest runs in place of the real test.
    let lines = "# row\n".repeat(70);
    let text = format!(
        "def test_add():\n    assert add(1, 2) == 3\n\nDOC = \"\"\"\n{lines}# end \"\"\"\n\ndef test_add():\n    pass\n"
    );
    let view = crate::plan::syntax::view(Grammar::Python, &text).expect("a view");
    assert_eq!(view.tests.len(), 2, "{:?}", view.tests);
    // Blank lines between comment lines keep a run one run.
    let text = format!("def test_a():\n    assert 1\n{}", "#\n\n".repeat(30_000));
    let view = crate::plan::syntax::view(Grammar::Python, &text).expect("a view");
    assert_eq!(view.tests.len(), 1);
}

#[test]
fn javascript_exits_passing_at_the_module_top_or_in_a_test() {
    let test =
        "test('adds', () => {\n  process.exit(1);\n  assert.strictEqual(add(2, 3), 5);\n});\n";
    for (top, exits) in [
        ("process.exit(0);\n", 1),
        ("process.exit();\n", 1),
        ("await process.exit(0);\n", 1),
        ("process.exit(1);\n", 0),
        ("process['exit'](0);\n", 1),
        ("process.exit(+false);\n", 1),
        ("process.exit(+true);\n", 0),
        ("process.exit(failures ? 1 : 0);\n", 0),
        ("", 0),
    ] {
        let v = read(Grammar::JavaScript, &format!("{top}{test}"));
        assert_eq!(v.exits, exits, "{top}");
    }
    // In a test's body (the red team's: jest reports the run passed).
    let passing = test.replace("process.exit(1)", "process.exit(0)");
    assert_eq!(read(Grammar::JavaScript, &passing).exits, 1);
    // In a handler the test sets up: it exits when called (helper 68's review).
    let handler = test.replace(
        "process.exit(1);",
        "process.on('SIGTERM', () => process.exit(0));",
    );
    assert_eq!(read(Grammar::JavaScript, &handler).exits, 0);
    // Called at once, or handed to a call that runs it, in the test (helper
    // 70's red team); defined and never called, it is not.
    for (exit, exits) in [
        ("(() => process.exit(0))();", 1),
        ("(function () { process.exit(0); })();", 1),
        ("run(() => process.exit(0));", 1),
        ("[0].forEach(() => process.exit(0));", 1),
        ("run(() => process.exit(1));", 0),
        ("const bye = () => process.exit(0);", 0),
        ("process.once('exit', () => process.exit(0));", 0),
    ] {
        let v = read(Grammar::JavaScript, &test.replace("process.exit(1);", exit));
        assert_eq!(v.exits, exits, "{exit}");
    }
}

#[test]
fn rust_exits_passing_in_a_test() {
    // `cargo test` runs the tests in one process: a test that exits 0 ends the
    // run, and cargo reports it passed with the rest never run.
    let test = |line: &str| {
        format!("#[test]\nfn adds() {{\n    {line}\n    assert_eq!(add(2, 3), 5);\n}}\n")
    };
    for (line, exits) in [
        ("std::process::exit(0);", 1),
        ("process::exit(0);", 1),
        ("::std::process::exit(0x0);", 1),
        ("std::process::exit(1);", 0),
        ("std::process::abort();", 0),
        // A function the test defines exits where it is called.
        ("fn child() { std::process::exit(0) }", 0),
        ("let code = run(); std::process::exit(code);", 0),
        // A test that forks: the child's exit (helper 73's red team).
        (
            "match unsafe { libc::fork() } { 0 => std::process::exit(0), _ => wait() }",
            0,
        ),
    ] {
        assert_eq!(read(Grammar::Rust, &test(line)).exits, exits, "{line}");
    }
    // Through what a `use` binds (helper 73's red team).
    for (uses, line) in [
        ("use std::process::exit;", "exit(0);"),
        ("use std::process::exit as bye;", "bye(0);"),
        ("use std::process as p;", "p::exit(0);"),
        ("use std::process::*;", "exit(0);"),
        ("use std::process::{exit, id};", "exit(0);"),
        ("use libc::_exit;", "unsafe { _exit(0) };"),
    ] {
        let text = format!("{uses}\n\n{}", test(line));
        assert_eq!(read(Grammar::Rust, &text).exits, 1, "{uses}");
    }
    assert_eq!(
        read(Grammar::Rust, &test("exit(0);")).exits,
        0,
        "an exit of the file's own"
    );
    let helper = "fn main() {\n    std::process::exit(0);\n}\n";
    assert_eq!(read(Grammar::Rust, helper).exits, 0, "a program's own exit");
}

#[test]
fn python_exits_passing_in_a_test() {
    let test = |line: &str| {
        format!(
            "import os\nbye = os._exit\n\ndef test_add():\n    {line}\n    assert add(2, 3) == 5\n"
        )
    };
    for (line, exits) in [
        ("os._exit(0)", 1),
        ("pytest.exit('done', returncode=0)", 1),
        ("os._exit(1)", 0),
        ("sys.exit(0)", 0),
        // Helper 70's red team: the code a constant expression, the function
        // fetched first, a lambda called at once.
        ("os._exit(int(False))", 1),
        ("os._exit(0x0)", 1),
        ("os._exit(-0 if True else 1)", 1),
        ("pytest.exit('done', returncode=not True)", 1),
        ("getattr(os, '_exit')(0)", 1),
        ("bye(0)", 1),
        ("(lambda: os._exit(0))()", 1),
        ("os._exit(int(True))", 0),
        ("getattr(os, '_exit')(1)", 0),
        ("f = lambda: os._exit(0)", 0),
        ("pytest.exit('stop')", 0),
        // A test that forks: the child's exit.
        ("pid = os.fork()\n    if pid == 0:\n        os._exit(0)", 0),
        // A fork named in a comment only (helper 68's review), or a function
        // whose name ends in one (helper 69's).
        ("os._exit(0)  # not a fork() child", 1),
        ("nofork()\n    os._exit(0)", 1),
        // A child process's target, defined in the test.
        (
            "def child():\n        os._exit(0)\n    p = Process(target=child)",
            0,
        ),
    ] {
        assert_eq!(read(Grammar::Python, &test(line)).exits, exits, "{line}");
    }
}

#[test]
fn many_calls_through_names_read_in_linear_time() {
    // Each call's callee is read through the file's names, and a callee may be
    // a chain of calls (`g(1, 2)(1, 2)…`): its text copied at each level, for
    // each call of the chain, was cubic.
    let chain = format!("    g{}\n", "(1, 2)".repeat(500)).repeat(20);
    let calls = "    bye(1)\n".repeat(5_000);
    let text = format!("import os\nbye = os._exit\n\ndef test_a():\n{chain}{calls}    bye(0)\n");
    assert_eq!(read(Grammar::Python, &text).exits, 1);
    let calls = "  run(() => process.exit(1));\n".repeat(5_000);
    let text = format!("test('a', () => {{\n{calls}  (() => process.exit(0))();\n}});\n");
    assert_eq!(read(Grammar::JavaScript, &text).exits, 1);
}

#[test]
fn many_waits_and_checks_read_in_linear_time() {
    // Each wait for a condition asked every check of the file whether it lay
    // inside it (helper 65's review): 20,000 of each took 36 s on a debug build,
    // 9 s with a binary search of the checks' starts (the pure core reads no
    // clock: the time shows as this test's).
    let body = "  await waitFor(() => ready)\n  expect(x).toBe(1)\n".repeat(20_000);
    let text = format!("test('a', async () => {{\n{body}}})\n");
    let v = read(Grammar::JavaScript, &text);
    assert_eq!(names(&v), [("", "a", 40_000)]);
}

#[test]
fn many_tests_under_ifs_read_in_linear_time() {
    // Each test asked for its ancestors, and tree-sitter finds a node's parent
    // from the root past every sibling before it: quadratic in a block of many
    // tests. The `if`s are now kept on the way down.
    let depth = 50;
    let tests = 4_000;
    let text = format!(
        "{}{}{}",
        "if (x) {\n".repeat(depth),
        "it('t', () => { expect(1).toBe(1) })\n".repeat(tests),
        "}\n".repeat(depth)
    );
    let v = read(Grammar::JavaScript, &text);
    let guards: Vec<&str> = v
        .skips
        .iter()
        .filter(|s| s.guard)
        .filter_map(|s| s.condition.as_deref())
        .collect();
    assert_eq!(guards.len(), tests);
    // Each under all the `if`s, in normal form (`identifier=x` for `x`).
    assert!(guards.iter().all(|c| *c == guards[0]));
    assert_eq!(
        guards[0].matches("identifier=x").count(),
        depth,
        "{}",
        guards[0]
    );
}

#[test]
fn nested_python_trys_that_swallow_count_each_check_once() {
    // Each `try` counted every assertion of its whole body: a nest counted one
    // check once per level, and read the nest once per level.
    let depth = 400;
    let mut text = String::from("def test_a():\n");
    for k in 0..depth {
        text.push_str(&format!("{}try:\n", " ".repeat(4 + 4 * k)));
    }
    text.push_str(&format!(
        "{}assert add(2, 3) == 5\n",
        " ".repeat(4 + 4 * depth)
    ));
    for k in (0..depth).rev() {
        text.push_str(&format!(
            "{}except AssertionError:\n{}pass\n",
            " ".repeat(4 + 4 * k),
            " ".repeat(8 + 4 * k)
        ));
    }
    let swallowed = super::on_check_stack(move || {
        super::view(Grammar::Python, &text)
            .expect("a view")
            .swallowed
    });
    assert_eq!(swallowed, 1);
}

// Helper 72's fresh commits (a suspense test's waits traded for fake timers
// advanced, then the query alone): testing-library's `getBy…`/`findBy…` throw
// when nothing matches, so one standing as a statement of its own is a check, as
// a wait is. `queryBy…` returns null and fails nothing; a query whose value is
// kept is read by the check that uses it.
#[test]
fn javascript_a_throwing_query_alone_is_a_check() {
    let v = read(
        Grammar::Tsx,
        r#"test('alone', async () => {
  render(<App />)
  rendered.getByText('data: 1')
  await screen.findByRole('button')
  getAllByTestId('row')
  within(list).getByLabelText('name')
})

test('waited', async () => {
  await waitFor(() => rendered.getByText('data: 1'))
  await waitFor(() => {
    rendered.getByText('data: 2')
  })
})

test('not checks', () => {
  rendered.queryByText('gone')
  const el = rendered.getByText('kept')
  expect(el).toBeTruthy()
  rendered.getByText
  forgetByText('x')
})
"#,
    );
    assert_eq!(
        names(&v),
        [("", "alone", 4), ("", "waited", 2), ("", "not checks", 1)],
        "a throwing query alone counts once, inside a wait or not"
    );
}

/// Helper 73's red team: a Python exit that ends the run passing, put where the
/// runner calls it rather than in a test: a setup hook, a fixture, a helper a
/// test calls, a class body, a module-level `if True:`. Each went unread. A
/// child process's target, the module's `__main__` block and a helper nothing
/// calls stay no exit.
#[test]
fn python_exits_where_the_runner_calls_them() {
    let tail = "\ndef test_add():\n    assert add(2, 3) == 5\n";
    for (code, exits) in [
        ("def setup_module(module):\n    os._exit(0)\n", 1),
        ("def setup_function(f):\n    os._exit(0)\n", 1),
        (
            "class TestAdd:\n    def setup_method(self):\n        os._exit(0)\n\n    def test_it(self):\n        assert 1\n",
            1,
        ),
        (
            "class T(unittest.TestCase):\n    @classmethod\n    def setUpClass(cls):\n        os._exit(0)\n\n    def test_it(self):\n        self.assertTrue(1)\n",
            1,
        ),
        (
            "@pytest.fixture(autouse=True)\ndef stop():\n    os._exit(0)\n",
            1,
        ),
        ("@fixture\ndef stop():\n    yield\n    os._exit(0)\n", 1),
        ("class Holder:\n    os._exit(0)\n", 1),
        ("if True:\n    os._exit(0)\n", 1),
        ("try:\n    os._exit(0)\nexcept ImportError:\n    pass\n", 1),
        // Honest: run where no test runs it.
        ("if __name__ == '__main__':\n    os._exit(0)\n", 0),
        ("def _child():\n    os._exit(0)\n", 0),
        ("def _helper():\n    os._exit(1)\n", 0),
        (
            "def setup_module(module):\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n",
            0,
        ),
        // Helper 78's review: the `else` of a `__main__` guard runs at import;
        // pytest's own hooks in a conftest; a script's own failing exit.
        (
            "if __name__ == '__main__':\n    pass\nelse:\n    os._exit(0)\n",
            1,
        ),
        (
            "def pytest_sessionfinish(session, exitstatus):\n    os._exit(0)\n",
            1,
        ),
        (
            "try:\n    run()\nexcept KeyboardInterrupt:\n    sys.exit(130)\n",
            0,
        ),
        ("if errors:\n    sys.exit(1)\n", 0),
    ] {
        let text = format!("import os\nimport pytest\n\n{code}{tail}");
        assert_eq!(read(Grammar::Python, &text).exits, exits, "{code}");
    }
    // A helper the test calls, above or below it; one handed to a child
    // process is the child's.
    let called = "import os\n\ndef test_add():\n    stop()\n    assert add(2, 3) == 5\n\ndef stop():\n    os._exit(0)\n";
    assert_eq!(read(Grammar::Python, called).exits, 1);
    let handed = "import os\nfrom multiprocessing import Process\n\ndef stop():\n    os._exit(0)\n\ndef test_add():\n    p = Process(target=stop)\n    p.start()\n    assert add(2, 3) == 5\n";
    assert_eq!(read(Grammar::Python, handed).exits, 0);
    // Helper 78's review: a child's helper, called after a fork or in a lambda.
    for child in [
        "    pid = os.fork()\n    if pid == 0:\n        stop()\n",
        "    p = Process(target=lambda: stop())\n",
    ] {
        let text = format!(
            "import os\n\ndef stop():\n    os._exit(0)\n\ndef test_add():\n{child}    assert add(2, 3) == 5\n"
        );
        assert_eq!(read(Grammar::Python, &text).exits, 0, "{child}");
    }
}

/// A pytest mark bound to a name (`need_dotenv = pytest.mark.skipif(…)`) skips
/// nothing where it is bound: it skips each test it decorates (`@need_dotenv`),
/// under its condition. Read as a marker on the whole file where bound, a new
/// alias put on new tests was a file switched off (helper 76: flask), and the
/// alias put on an old test went unseen.
#[test]
fn a_python_mark_bound_to_a_name_skips_the_tests_it_decorates() {
    let text = "import pytest\n\nneed_env = pytest.mark.skipif(env is None, reason='no env')\nslow = pytest.mark.skip\n\n@need_env\ndef test_a():\n    assert 1\n\n@slow\ndef test_b():\n    assert 1\n\ndef test_c():\n    assert 1\n";
    let v = read(Grammar::Python, text);
    let on: Vec<(Option<&str>, Option<&str>)> = v
        .skips
        .iter()
        .map(|s| (s.test.as_deref(), s.condition.as_deref()))
        .collect();
    assert_eq!(on.len(), 2, "{on:?}");
    assert_eq!(on[0].0, Some("test_a"));
    assert!(on[0].1.is_some_and(|c| c.contains("env")), "{on:?}");
    assert_eq!(on[1], (Some("test_b"), None));
    // Called where bound, a skip runs at import: the whole file's.
    let module = "import pytest\n\nskipped = pytest.skip('no', allow_module_level=True)\n\ndef test_a():\n    assert 1\n";
    let v = read(Grammar::Python, module);
    assert_eq!(v.skips.len(), 1);
    assert_eq!(v.skips[0].test, None);
    // Helper 78's review: the bound mark made the module's (`pytestmark =
    // slow`), called as a decorator (`@slow(…)`), or bound to a test's own name
    // (the whole file's, as before).
    let whole = "import pytest\n\nslow = pytest.mark.skip\npytestmark = [slow]\n\ndef test_a():\n    assert 1\n";
    let v = read(Grammar::Python, whole);
    assert_eq!(v.skips.len(), 1, "{whole}");
    assert_eq!(v.skips[0].test, None);
    let called = "import pytest\n\nslow = pytest.mark.skip\n\n@slow(reason='later')\ndef test_a():\n    assert 1\n";
    let v = read(Grammar::Python, called);
    assert_eq!(v.skips.len(), 1);
    assert_eq!(v.skips[0].test.as_deref(), Some("test_a"));
    let own = "import pytest\n\ndef test_a():\n    assert 1\n\ntest_a = pytest.mark.skip(test_a)\n";
    let v = read(Grammar::Python, own);
    assert_eq!(v.skips.len(), 1);
    assert_eq!(v.skips[0].test, None);
}

/// Helper 73's red team: a JavaScript exit passing put where the runner calls
/// it rather than in a test's own callback: a hook (`beforeAll`, `afterEach`),
/// a suite's body, a callback passed by name. Each went unread. One set to
/// handle an event, or in a function nothing runs, stays no exit.
#[test]
fn javascript_exits_where_the_runner_calls_them() {
    let tail = "test('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n";
    for (code, exits) in [
        ("beforeAll(() => {\n  process.exit(0);\n});\n", 1),
        ("beforeEach(function () {\n  process.exit(0);\n});\n", 1),
        ("afterAll(() => process.exit(0));\n", 1),
        ("before(() => { process.exit(); });\n", 1),
        (
            "describe('s', () => {\n  process.exit(0);\n  it('a', () => {\n    expect(1).toBe(1);\n  });\n});\n",
            1,
        ),
        (
            "function run() {\n  process.exit(0);\n}\ntest('b', run);\n",
            1,
        ),
        ("const run = () => process.exit(0);\ntest('b', run);\n", 1),
        // Honest: a handler, a hook that closes, a function nothing runs.
        (
            "beforeAll(() => {\n  process.on('SIGTERM', () => process.exit(0));\n});\n",
            0,
        ),
        ("afterAll(() => server.close());\n", 0),
        ("function run() {\n  process.exit(0);\n}\n", 0),
        ("beforeAll(() => {\n  process.exit(1);\n});\n", 0),
    ] {
        let text = format!("{code}{tail}");
        assert_eq!(read(Grammar::JavaScript, &text).exits, exits, "{code}");
    }
}

/// `pytest.warns(None)` records warnings and checks none (pytest 7 deprecated
/// it, 8 refuses it): no assertion, so replacing it loses none (helper 76's
/// blind fresh set, tune half: flask `426a1e25`). `pytest.warns(UserWarning)`
/// is one.
#[test]
fn pytest_warns_none_checks_nothing() {
    let text = "import pytest\n\ndef test_a():\n    with pytest.warns(None):\n        run()\n\ndef test_b():\n    with pytest.warns(UserWarning):\n        run()\n";
    let v = read(Grammar::Python, text);
    assert_eq!(names(&v), [("", "test_a", 0), ("", "test_b", 1)]);
}

/// Helper 73's red team: a Rust test's exit put in a helper the test calls
/// (`fn stop() { std::process::exit(0) }`) ended the run passing unseen. A
/// helper no test calls, and a program's own `main`, stay no exit.
#[test]
fn rust_exits_in_a_helper_a_test_calls() {
    let helper = "fn stop() {\n    std::process::exit(0);\n}\n\n";
    let test = "#[test]\nfn adds() {\n    stop();\n    assert_eq!(add(2, 3), 5);\n}\n";
    let other = "#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n}\n";
    for (text, exits) in [
        (format!("{helper}{test}"), 1),
        (format!("{test}\n{helper}"), 1),
        (
            format!(
                "mod util {{\n    pub fn stop() {{\n        std::process::exit(0);\n    }}\n}}\n\n{}",
                test.replace("stop()", "util::stop()")
            ),
            1,
        ),
        (format!("{helper}{other}"), 0),
        (
            format!("fn main() {{\n    std::process::exit(0);\n}}\n\n{other}"),
            0,
        ),
        // Helper 78's review: a program's function a test calls, exiting only
        // on one of its branches (`--version`).
        (
            format!(
                "fn parse_args(a: &[&str]) {{\n    if a == [\"--version\"] {{\n        std::process::exit(0);\n    }}\n}}\n\n{}",
                test.replace("stop()", "parse_args(&[])")
            ),
            0,
        ),
    ] {
        assert_eq!(read(Grammar::Rust, &text).exits, exits, "{text}");
    }
}

/// A failing branch's bar reads as its subject, side and value, however the
/// bound is spelled: turned round, folded, in Go's time units, infinite.
#[test]
fn a_bar_reads_its_subject_side_and_folded_value() {
    let bars = |g: Grammar, text: &str| {
        read(g, text)
            .bars
            .iter()
            .map(|b| (b.subject.clone(), b.upper, b.value, b.unit.clone()))
            .collect::<Vec<_>>()
    };
    let js = bars(
        Grammar::JavaScript,
        "test('t', () => {\n  const n = f()\n  if (n > 10 * 1000) throw new Error('a')\n  if (100 - 1 < n) throw new Error('b')\n  if (n >= Infinity) throw new Error('c')\n  if (n <= -Number.MAX_VALUE) throw new Error('d')\n  if (n > 2 * units.MB) throw new Error('e')\n})\n",
    );
    let s = |x: &str| x.to_string();
    assert_eq!(
        js,
        vec![
            (s("n"), true, 10_000.0, s("")),
            (s("n"), true, 99.0, s("")),
            (s("n"), true, f64::INFINITY, s("")),
            (s("n"), false, -f64::MAX, s("")),
            (s("n"), true, 2.0, s("units.MB")),
        ]
    );
    let go = bars(
        Grammar::Go,
        "package p\n\nimport \"testing\"\n\nfunc TestT(t *testing.T) {\n\td := f()\n\tif d > time.Second {\n\t\tt.Fatal(d)\n\t}\n\tif 1500*time.Millisecond < d {\n\t\tt.Fatal(d)\n\t}\n}\n",
    );
    assert_eq!(
        go,
        vec![(s("d"), true, 1e9, s("")), (s("d"), true, 1.5e9, s(""))]
    );
    let py = bars(
        Grammar::Python,
        "import math\n\ndef test_t():\n    n = f()\n    if n > float(\"inf\"):\n        raise AssertionError()\n    if n < 1e400:\n        pytest.fail()\n",
    );
    assert_eq!(
        py,
        vec![
            (s("n"), true, f64::INFINITY, s("")),
            (s("n"), false, f64::INFINITY, s(""))
        ]
    );
}

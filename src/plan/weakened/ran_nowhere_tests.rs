//! A test deleted that ran only where the change itself says no run happens
//! any more is as good as one already skipped: a twin under the opposite
//! condition made unconditional (body-parser's `brotlit`/`nobrotlit` once Node
//! always has brotli), a Python-version skip dropped from a kept test that
//! covers every version the deleted one ran on (Python 2 dropped), or a
//! condition that lets it run on no Python this reading knows (2.6 only).
//! Twins that do not cover where it ran, or a dropped skip that is only moved,
//! leave the deletion a loss.

use super::*;

fn found(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

/// Whether the change is read as tests or assertions that ran taken out.
fn lost(path: &str, before: &str, after: &str) -> bool {
    found_in(path, before, after)
        .iter()
        .flat_map(|f| &f.parts)
        .any(|p| p.rule == rules::RuleId::AssertionsRemoved)
}

const JS_HEAD: &str = "var has = 'createBrotliDecompress' in require('zlib')\nvar yes = has ? it : it.skip\nvar no = !has ? it : it.skip\n\n";

fn js(supports: &str, refuses: Option<&str>, head: bool) -> String {
    let mut s = String::new();
    if head {
        s.push_str(JS_HEAD);
    }
    s.push_str("describe('parse', function () {\n");
    s.push_str("  it('parses', function () {\n    assert.strictEqual(parse('a'), 'a')\n  })\n\n");
    s.push_str(&format!(
        "  {supports}('supports brotli', function () {{\n    assert.strictEqual(parse(br('a')), 'a')\n  }})\n\n"
    ));
    if let Some(refuses) = refuses {
        s.push_str(&format!(
            "  {refuses}('refuses brotli', function () {{\n    assert.throws(() => parse(br('a')))\n    assert.strictEqual(code(), 415)\n  }})\n\n"
        ));
    }
    s.push_str("})\n");
    s
}

#[test]
fn a_test_of_the_other_side_deleted_with_its_twin_made_unconditional_loses_nothing() {
    let before = js("yes", Some("no"), true);
    let after = js("it", None, false);
    assert_eq!(found("test/json.js", &before, &after), Vec::<String>::new());
}

#[test]
fn a_twin_still_conditional_or_a_test_of_no_condition_deleted_is_a_loss() {
    let before = js("yes", Some("no"), true);
    // The twin keeps its alias: the change says nothing about `has`.
    let kept = js("yes", None, true);
    assert!(lost("test/json.js", &before, &kept), "{kept}");
    // The deleted test ran everywhere: no condition a twin could settle.
    let plain = js("yes", Some("it"), true);
    assert!(
        lost("test/json.js", &plain, &js("it", None, false)),
        "{plain}"
    );
}

/// A file of `test_generator_stop` under `kept_skip` (its line, or none) and,
/// when `old` is some, `test_ascii_str` under the lines `old` gives.
fn py(old: Option<&str>, kept_skip: &str) -> String {
    let mut s = String::from("import sys\n\nimport pytest\n\n\n");
    if let Some(old) = old {
        s.push_str(&format!(
            "{old}def test_ascii_str():\n    assert render('a') == 'a'\n    assert kind('a') is str\n\n\n"
        ));
    }
    s.push_str(&format!(
        "{kept_skip}def test_generator_stop():\n    with pytest.raises(RuntimeError):\n        render(bad())\n"
    ));
    s
}

#[test]
fn a_python_2_test_deleted_as_a_kept_test_loses_its_old_python_skip_loses_nothing() {
    let py2 = "@pytest.mark.skipif(sys.version_info[0] > 2, reason='2.x only')\n";
    let before = py(
        Some(py2),
        "@pytest.mark.skipif(sys.version_info < (3, 5), reason='3.5+')\n",
    );
    let after = py(None, "");
    assert_eq!(
        found("tests/test_features.py", &before, &after),
        Vec::<String>::new()
    );
}

#[test]
fn a_test_that_ran_on_no_python_the_reading_knows_deleted_loses_nothing() {
    let py26 = "@pytest.mark.skipif(sys.version_info[:2] != (2, 6), reason='2.6 only')\n";
    let before = py(Some(py26), "");
    let after = py(None, "");
    assert_eq!(
        found("tests/test_help.py", &before, &after),
        Vec::<String>::new()
    );
}

#[test]
fn a_dropped_skip_that_does_not_cover_where_the_deleted_test_ran_leaves_a_loss() {
    let high = |before: &str, after: &str| {
        assert!(
            lost("tests/test_features.py", before, after),
            "{before}\n{after}"
        );
    };
    let py2 = "@pytest.mark.skipif(sys.version_info[0] > 2, reason='2.x only')\n";
    let py35 = "@pytest.mark.skipif(sys.version_info < (3, 5), reason='3.5+')\n";
    // The kept test keeps its skip: nothing says Python 2 is gone.
    high(&py(Some(py2), py35), &py(None, py35));
    // Moved, not dropped: a new bound is no word that the old versions are gone.
    high(
        &py(Some(py2), py35),
        &py(
            None,
            "@pytest.mark.skipif(sys.version_info < (3, 6), reason='3.6+')\n",
        ),
    );
    // The deleted test ran on Linux; the dropped skip was Windows's.
    let linux = "@pytest.mark.skipif(sys.platform != 'linux', reason='linux only')\n";
    let win = "@pytest.mark.skipif(sys.platform == 'win32', reason='not on windows')\n";
    high(&py(Some(linux), win), &py(None, ""));
    // A test of no condition deleted beside a twin made unconditional.
    high(&py(Some(""), py35), &py(None, ""));
}

#[test]
fn go_a_test_of_the_other_platform_deleted_as_its_twin_runs_everywhere_loses_nothing() {
    let go = |old: bool, skip: bool| {
        let mut s = String::from("package a\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\n");
        if old {
            s.push_str("func TestRefuses(t *testing.T) {\n\tif runtime.GOOS != \"windows\" {\n\t\tt.Skip(\"windows only\")\n\t}\n\tif f(1) != 2 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n\n");
        }
        s.push_str("func TestWorks(t *testing.T) {\n");
        if skip {
            s.push_str("\tif runtime.GOOS == \"windows\" {\n\t\tt.Skip(\"not on windows\")\n\t}\n");
        }
        s.push_str("\tif f(0) != 1 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n");
        s
    };
    assert_eq!(
        found("a_test.go", &go(true, true), &go(false, false)),
        Vec::<String>::new()
    );
    assert!(lost("a_test.go", &go(true, true), &go(false, true)));
}

#[test]
fn a_test_defined_under_an_old_python_deleted_as_a_kept_one_leaves_its_if_loses_nothing() {
    let file = |old: bool, kept_in_if: bool| {
        let mut s = String::from("import sys\n\n\n");
        if old {
            s.push_str("if sys.version_info < (3,):\n    def test_unicode_literal():\n        assert render(u'a') == u'a'\n\n\n");
        }
        match kept_in_if {
            true => s.push_str("if sys.version_info >= (3,):\n    def test_str():\n        assert render('a') == 'a'\n"),
            false => s.push_str("def test_str():\n    assert render('a') == 'a'\n"),
        }
        s
    };
    let path = "tests/test_render.py";
    assert_eq!(
        found(path, &file(true, true), &file(false, false)),
        Vec::<String>::new()
    );
    // The kept test stays under its `if`: nothing says Python 2 is gone.
    assert!(lost(path, &file(true, true), &file(false, true)));
}

// Helper 127's red team: a file of a Linux test (`test_posix_path`, when
// `linux`) and a Windows-only test whose skip is `win_skip` (its decorator
// line) and `win_head` (lines opening its body), under `top` (module lines).
fn twins(top: &str, linux: bool, win_skip: &str, win_head: &str) -> String {
    let mut s = format!("import sys\n\nimport pytest\n\n{top}\n\n");
    if linux {
        s.push_str("@pytest.mark.skipif(sys.platform == 'win32', reason='posix')\ndef test_posix_path():\n    assert norm('a/b') == 'a/b'\n    assert sep() == '/'\n\n\n");
    }
    s.push_str(&format!(
        "{win_skip}def test_windows_path():\n{win_head}    assert norm('a\\\\b') == 'a/b'\n"
    ));
    s
}

const WIN_ONLY: &str = "@pytest.mark.skipif(sys.platform != 'win32', reason='windows')\n";

#[test]
fn a_twins_skip_moved_into_its_body_or_a_marker_name_is_no_word_that_it_runs_everywhere() {
    let path = "tests/test_paths.py";
    let before = twins("", true, WIN_ONLY, "");
    let moved = [
        (
            "",
            "",
            "    if sys.platform != 'win32':\n        pytest.skip('windows')\n",
        ),
        ("", "", "    if sys.platform != 'win32':\n        return\n"),
        (
            "windows = pytest.mark.skipif(sys.platform != 'win32', reason='windows')\n",
            "@windows\n",
            "",
        ),
        (
            "def windows_only():\n    if sys.platform != 'win32':\n        pytest.skip('windows')\n",
            "",
            "    windows_only()\n",
        ),
    ];
    for (top, skip, head) in moved {
        let after = twins(top, false, skip, head);
        assert!(lost(path, &before, &after), "{after}");
    }
}

#[test]
fn same_named_tests_deleted_one_that_ran_nowhere_and_one_that_ran_is_a_loss() {
    let file = |old: bool| {
        let mut s = String::from("import sys\n\nimport pytest\n\n\n");
        if old {
            s.push_str("class TestOld:\n    @pytest.mark.skipif(sys.version_info[:2] != (2, 6), reason='2.6')\n    def test_x(self):\n        assert f(1) == 1\n\n\nclass TestNew:\n    def test_x(self):\n        assert f(2) == 2\n        assert g(2) == 2\n\n\n");
        }
        s.push_str("def test_kept():\n    assert h() == 1\n");
        s
    };
    assert!(lost("tests/test_x.py", &file(true), &file(false)));
}

#[test]
fn a_test_whose_first_checks_ran_everywhere_before_a_skip_in_its_body_deleted_is_a_loss() {
    let file = |old: bool, kept_skip: &str| {
        let mut s = String::from("import sys\n\nimport pytest\n\n\n");
        if old {
            s.push_str("def test_parse():\n    assert parse('1') == 1\n    assert parse('2') == 2\n    if sys.version_info[0] >= 3:\n        pytest.skip('the rest is python 2')\n    assert parse(u'3') == 3\n\n\n");
        }
        s.push_str(&format!(
            "{kept_skip}def test_generator_stop():\n    with pytest.raises(RuntimeError):\n        render(bad())\n"
        ));
        s
    };
    let py35 = "@pytest.mark.skipif(sys.version_info < (3, 5), reason='3.5+')\n";
    assert!(lost(
        "tests/test_parse.py",
        &file(true, py35),
        &file(false, "")
    ));
}

#[test]
fn a_test_of_the_next_python_deleted_is_a_loss() {
    let file = |old: bool| {
        let mut s = String::from("import sys\n\nimport pytest\n\n\n");
        if old {
            s.push_str("@pytest.mark.skipif(sys.version_info < (3, 16), reason='3.16+')\ndef test_lazy_import():\n    assert lazy('a') == 'a'\n\n\n");
        }
        s.push_str("def test_kept():\n    assert h() == 1\n");
        s
    };
    assert!(lost("tests/test_x.py", &file(true), &file(false)));
}

#[test]
fn a_class_of_the_same_name_nested_elsewhere_keeps_its_own_conditions() {
    let file = |nested: bool| {
        let mut s = String::from(
            "import sys\n\nimport pytest\n\n\n@pytest.mark.skipif(sys.version_info[:2] != (2, 6), reason='2.6')\nclass TestLegacy:\n    def test_old(self):\n        assert f(1) == 1\n\n\nclass TestParser:\n",
        );
        if nested {
            s.push_str("    class TestLegacy:\n        def test_bytes(self):\n            assert parse(b'1') == 1\n            assert parse(b'2') == 2\n\n");
        }
        s.push_str("    def test_kept(self):\n        assert parse('1') == 1\n");
        s
    };
    assert!(lost("tests/test_parse.py", &file(true), &file(false)));
}

#[test]
fn go_a_twins_skip_moved_into_a_helper_is_no_word_that_it_runs_everywhere() {
    let go = |old: bool, skip: &str| {
        let mut s = String::from(
            "package a\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\nfunc windowsOnly(t *testing.T) {\n\tif runtime.GOOS != \"windows\" {\n\t\tt.Skip(\"windows only\")\n\t}\n}\n\n",
        );
        if old {
            s.push_str("func TestPosix(t *testing.T) {\n\tif runtime.GOOS == \"windows\" {\n\t\tt.Skip(\"posix only\")\n\t}\n\tif f(1) != 2 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n\n");
        }
        s.push_str(&format!(
            "func TestWindows(t *testing.T) {{\n{skip}\tif f(0) != 1 {{\n\t\tt.Errorf(\"x\")\n\t}}\n}}\n"
        ));
        s
    };
    let before = go(
        true,
        "\tif runtime.GOOS != \"windows\" {\n\t\tt.Skip(\"windows only\")\n\t}\n",
    );
    assert!(lost("a_test.go", &before, &go(false, "\twindowsOnly(t)\n")));
    assert!(lost(
        "a_test.go",
        &before,
        &go(
            false,
            "\tif runtime.GOOS != \"windows\" {\n\t\treturn\n\t}\n"
        )
    ));
}

/// Thousands of conditional tests deleted beside many dropped skips are read
/// in time linear in the file (quadratic or worse, this takes minutes).
#[test]
fn thousands_of_conditional_tests_deleted_beside_dropped_skips_are_read_quickly() {
    let file = |old: bool| {
        let mut s = String::from("import os\nimport sys\n\nimport pytest\n\n\n");
        for k in 0..40 {
            let skip = match old {
                true => format!(
                    "@pytest.mark.skipif(os.environ.get('X{k}') or sys.platform == 'win32', reason='r')\n"
                ),
                false => String::new(),
            };
            s.push_str(&format!(
                "{skip}def test_kept_{k}():\n    assert h({k}) == {k}\n\n\n"
            ));
        }
        if old {
            for k in 0..3000 {
                s.push_str(&format!("@pytest.mark.skipif(sys.platform == 'win32' or os.environ.get('Y{k}'), reason='r')\ndef test_gone_{k}():\n    assert g({k}) == {k}\n\n\n"));
            }
        }
        s
    };
    assert!(lost("tests/test_many.py", &file(true), &file(false)));
}

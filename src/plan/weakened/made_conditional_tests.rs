//! An assertion that ran on every pass of its test moved into a branch whose
//! other path checks nothing (`Err(_) => ()`, an `if` with no `else`, a `catch`
//! that swallows): high, `assertions-hollowed`, in each language, the test
//! renamed or not. A branch each of whose paths checks or fails (a platform's
//! own exact value, an error that panics) is no finding.

use super::*;

/// The high parts of what `before` → `after` at `path` is found to be.
fn high(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .flat_map(kinds::of)
        .filter(|p| p.confidence == "high")
        .map(|p| format!("{}: {}", p.kind, p.text))
        .collect()
}

fn made_conditional(found: &[String]) -> bool {
    found.iter().any(|f| {
        f.starts_with("assertions-hollowed: ") && f.contains("another path checks nothing")
    })
}

const RS_BEFORE: &str = "#[test]\nfn pipline() {\n    let mut buf = [0; 8];\n    let n = req.read(&mut buf).expect(\"read 2\");\n    assert_ne!(n, 0);\n}\n";

// hyper's shape, its test renamed in the same change.
#[test]
fn a_rust_assertion_moved_into_an_ok_arm_beside_an_empty_err_arm_is_found() {
    let after = "#[test]\nfn pipeline() {\n    let mut buf = [0; 8];\n    match req.read(&mut buf) {\n        Ok(n) => {\n            assert_ne!(n, 0);\n        }\n        Err(_) => (),\n    }\n}\n";
    let found = high("tests/server.rs", RS_BEFORE, after);
    assert!(made_conditional(&found), "{found:?}");
    let quiet = after.replace("Err(_) => (),", "Err(e) => panic!(\"read 2: {e}\"),");
    let found = high("tests/server.rs", RS_BEFORE, &quiet);
    assert!(!made_conditional(&found), "{found:?}");
    let if_let = "#[test]\nfn pipline() {\n    let mut buf = [0; 8];\n    if let Ok(n) = req.read(&mut buf) {\n        assert_ne!(n, 0);\n    }\n}\n";
    assert!(made_conditional(&high(
        "tests/server.rs",
        RS_BEFORE,
        if_let
    )));
}

const PY_BEFORE: &str =
    "import sys\n\n\ndef test_path():\n    p = render(\"a\", \"b\")\n    assert p == \"a/b\"\n";

#[test]
fn a_python_assertion_put_under_an_if_with_no_else_is_found() {
    let after = "import sys\n\n\ndef test_path():\n    p = render(\"a\", \"b\")\n    if sys.platform != \"win32\":\n        assert p == \"a/b\"\n";
    assert!(made_conditional(&high(
        "tests/test_path.py",
        PY_BEFORE,
        after
    )));
    let swallowed = "import sys\n\n\ndef test_path():\n    try:\n        p = render(\"a\", \"b\")\n        assert p == \"a/b\"\n    except OSError:\n        pass\n";
    assert!(made_conditional(&high(
        "tests/test_path.py",
        PY_BEFORE,
        swallowed
    )));
    // Honest: each platform checks its own exact value; an error fails the test.
    let split = "import sys\n\n\ndef test_path():\n    p = render(\"a\", \"b\")\n    if sys.platform == \"win32\":\n        assert p == \"a\\\\b\"\n    else:\n        assert p == \"a/b\"\n";
    assert!(!made_conditional(&high(
        "tests/test_path.py",
        PY_BEFORE,
        split
    )));
    let raised = swallowed.replace("        pass\n", "        raise\n");
    assert!(!made_conditional(&high(
        "tests/test_path.py",
        PY_BEFORE,
        &raised
    )));
}

const JS_BEFORE: &str = "test('token file is not served', async () => {\n  const res = await get('/token')\n  expect(res.status()).toBe(403)\n})\n";

#[test]
fn a_js_assertion_put_in_a_try_whose_catch_swallows_is_found() {
    let after = "test('token file is not served', async () => {\n  try {\n    const res = await get('/token')\n    expect(res.status()).toBe(403)\n  } catch (e) {\n    console.log(e)\n  }\n})\n";
    assert!(made_conditional(&high("test/ui.spec.ts", JS_BEFORE, after)));
    let rethrown = after.replace("console.log(e)", "throw e");
    assert!(!made_conditional(&high(
        "test/ui.spec.ts",
        JS_BEFORE,
        &rethrown
    )));
    let platform = "test('token file is not served', async () => {\n  const res = await get('/token')\n  if (process.platform !== 'win32') {\n    expect(res.status()).toBe(403)\n  }\n})\n";
    assert!(made_conditional(&high(
        "test/ui.spec.ts",
        JS_BEFORE,
        platform
    )));
}

const GO_BEFORE: &str = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(1, 2)\n\tif got != 3 {\n\t\tt.Errorf(\"got %d\", got)\n\t}\n}\n";

// Go's check is itself an `if`: the `if` around its failing call is the check,
// not a branch of the test.
#[test]
fn a_go_check_put_under_a_new_condition_is_found_and_a_check_alone_is_not() {
    let after = "package calc\n\nimport (\n\t\"runtime\"\n\t\"testing\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tgot := Add(1, 2)\n\tif runtime.GOOS != \"windows\" {\n\t\tif got != 3 {\n\t\t\tt.Errorf(\"got %d\", got)\n\t\t}\n\t}\n}\n";
    assert!(made_conditional(&high("calc_test.go", GO_BEFORE, after)));
    // A comment added changes nothing; neither does a second check.
    let kept = GO_BEFORE.replace("\tgot := Add(1, 2)\n", "\t// the sum\n\tgot := Add(1, 2)\n");
    assert_eq!(high("calc_test.go", GO_BEFORE, &kept), Vec::<String>::new());
    let more = GO_BEFORE.replace(
        "\t}\n}\n",
        "\t}\n\tif Add(0, 0) != 0 {\n\t\tt.Error(\"zero\")\n\t}\n}\n",
    );
    assert_eq!(high("calc_test.go", GO_BEFORE, &more), Vec::<String>::new());
}

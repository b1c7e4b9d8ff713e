//! Each way to switch a test off that issue #32 lists (and #37's test-side forms),
//! found; each honest refactor of the same tests (moved, folded into a subtest or a
//! table, a shared harness, `expect.poll`, `pytest.warns` to `pytest.raises`, a
//! `#[test]` inside `quote!`, `toBe` to `toEqual`, an exit moved under `if __name__`),
//! not. Own small fixtures in the four languages.

use super::*;

fn change(path: &str, before: Option<&str>, after: Option<&str>) -> Change {
    Change {
        path: path.to_string(),
        was: None,
        before: before.map(str::to_string),
        after: after.map(str::to_string),
    }
}

/// The findings, as lines, for `changes`.
fn lines(changes: &[Change]) -> Vec<String> {
    find(changes, &[]).iter().map(ToString::to_string).collect()
}

/// The findings for one file changed from `before` to `after`.
fn one(path: &str, before: &str, after: &str) -> Vec<String> {
    lines(&[change(path, Some(before), Some(after))])
}

/// Asserts one finding for `path` whose words hold `what`.
fn says(found: &[String], path: &str, what: &str) {
    assert!(
        found.len() == 1 && found[0].starts_with(&format!("{path}: ")) && found[0].contains(what),
        "expected {path}: …{what}…, got {found:?}"
    );
}

const PY: &str = r#"import pytest
import calc

@pytest.mark.parametrize("a, b, total", [(1, 1, 2), (2, 2, 4), (0, 5, 5)])
def test_add(a, b, total):
    assert calc.add(a, b) == total

def test_mean():
    assert calc.mean([0.1, 0.2]) == pytest.approx(0.15, rel=1e-9)

def test_count():
    assert calc.count([1, 2]) == 2
    assert calc.count([]) == 0
"#;

#[test]
fn python_forms_are_found() {
    let p = "tests/test_calc.py";
    let cut = PY.replace(", (0, 5, 5)]", "]");
    says(&one(p, PY, &cut), p, "1 of 3 parametrized cases removed");
    let loose = PY.replace("rel=1e-9", "rel=1e9");
    says(&one(p, PY, &loose), p, "a tolerance widened");
    let always = PY.replace("assert calc.count([1, 2]) == 2", "assert True");
    says(
        &one(p, PY, &always),
        p,
        "1 assertion that cannot fail added",
    );
    let or_true = PY.replace(
        "assert calc.count([1, 2]) == 2",
        "assert calc.count([1, 2]) == 2 or True",
    );
    says(
        &one(p, PY, &or_true),
        p,
        "1 assertion that cannot fail added",
    );
    let patched = PY.replace(
        "def test_count():\n",
        "def test_count(monkeypatch):\n    monkeypatch.setattr(calc, \"count\", lambda xs: len(xs))\n",
    );
    says(
        &one(p, PY, &patched),
        p,
        "1 function the assertions call is patched in the test",
    );
    let caught = PY.replace(
        "    assert calc.count([1, 2]) == 2\n",
        "    try:\n        assert calc.count([1, 2]) == 2\n    except AssertionError:\n        pass\n",
    );
    says(
        &one(p, PY, &caught),
        p,
        "1 assertion inside a try that swallows its failure",
    );
    for switched in [
        PY.replace("import calc\n", "import calc\n\n__test__ = False\n"),
        PY.replace(
            "def test_count():\n",
            "def test_count():\n    if True:\n        return\n",
        ),
        PY.replace(
            "def test_count():\n",
            "@pytest.mark.flaky(reruns=3)\ndef test_count():\n",
        ),
        // A test that yields is a generator: pytest runs none of it (an xfail
        // before 8.4, an error since), unittest drops the generator unrun.
        PY.replace(
            "    assert calc.count([]) == 0\n",
            "    assert calc.count([]) == 0\n    yield\n",
        ),
        PY.replace(
            "    assert calc.count([]) == 0\n",
            "    assert calc.count([]) == 0\n    if False:\n        yield calc\n",
        ),
        // A test on one line (helper-134's).
        PY.replace(
            "def test_mean():\n    assert",
            "def test_mean(): yield; assert",
        ),
    ] {
        says(&one(p, PY, &switched), p, "1 skip marker added");
    }
    // A yield of a function nested in the test, or of a fixture, is none.
    for honest in [
        PY.replace(
            "    assert calc.count([]) == 0\n",
            "    assert calc.count([]) == 0\n\n    def rows():\n        yield 1\n\n    assert calc.count(list(rows())) == 1\n",
        ),
        PY.replace(
            "def test_count():\n",
            "@pytest.fixture\ndef numbers():\n    yield [1, 2]\n\ndef test_count():\n",
        ),
        PY.replace(
            "    assert calc.count([]) == 0\n",
            "    assert calc.count([]) == 0\n    def rows(): yield 1\n    assert calc.count(list(rows())) == 1\n",
        ),
    ] {
        assert!(one(p, PY, &honest).is_empty(), "{honest}");
    }
    let looser = PY.replace("== 2\n", ">= 2\n");
    says(&one(p, PY, &looser), p, "an exact comparison loosened");
}

/// A test file renamed or deleted that lost an assertion, with an unrelated test
/// file added beside it: the new file's own assertions check something else and
/// make up for nothing (the last red team's). Split in two, word for word, every
/// assertion kept (and new ones added), it is no finding.
#[test]
fn an_unrelated_new_test_file_does_not_make_up_for_a_lost_assertion() {
    let calc = "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n    assert add(10, 1) == 11\n";
    let cut = "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let trivial = "def test_x():\n    assert True\n";
    let other = "def test_x():\n    assert len('ab') == 2\n";
    for unrelated in [trivial, other] {
        let renamed = Change {
            path: "tests/test_a.py".into(),
            was: Some("tests/test_calc.py".into()),
            before: Some(calc.into()),
            after: Some(cut.into()),
        };
        let found = lines(&[renamed, change("tests/test_b.py", None, Some(unrelated))]);
        says(&found, "tests/test_a.py", "1 of 2 assertions removed");
        // Git paired nothing: the old file deleted, both new.
        let found = lines(&[
            change("tests/test_calc.py", Some(calc), None),
            change("tests/test_a.py", None, Some(cut)),
            change("tests/test_b.py", None, Some(unrelated)),
        ]);
        says(
            &found,
            "tests/test_calc.py",
            "deleted (it had 2 assertions in 1 test)",
        );
    }
    // The honest split: each assertion kept, in one file or the other.
    let first = "from calc import add\n\ndef test_small():\n    assert add(2, 3) == 5\n";
    let second = "from calc import add\n\ndef test_big():\n    assert add(10, 1) == 11\n";
    assert!(
        lines(&[
            change("tests/test_calc.py", Some(calc), None),
            change("tests/test_small.py", None, Some(first)),
            change("tests/test_big.py", None, Some(second)),
        ])
        .is_empty()
    );
    let renamed = Change {
        path: "tests/test_small.py".into(),
        was: Some("tests/test_calc.py".into()),
        before: Some(calc.into()),
        after: Some(first.into()),
    };
    let more = format!("{second}\ndef test_zero():\n    assert add(0, 0) == 0\n");
    assert!(lines(&[renamed, change("tests/test_big.py", None, Some(&more))]).is_empty());
}

#[test]
fn python_refactors_are_not_found() {
    // A test moved to another file, whole.
    let (kept, moved) = PY.split_at(PY.find("def test_count").unwrap());
    let other = format!("import calc\n\n{moved}");
    assert!(
        lines(&[
            change("tests/test_calc.py", Some(PY), Some(kept)),
            change("tests/test_count.py", None, Some(&other)),
        ])
        .is_empty()
    );
    // `pytest.warns` to `pytest.raises`: both check.
    let warns = "def test_a():\n    with pytest.warns(UserWarning):\n        a()\n";
    let raises = warns.replace("warns(UserWarning)", "raises(ValueError)");
    assert!(one("tests/test_a.py", warns, &raises).is_empty());
    // Two assertions made one stricter one.
    let parts = "def test_msg():\n    assert 'bad' in msg\n    assert 'value' in msg\n";
    let whole = "def test_msg():\n    assert msg == 'bad value: 3'\n";
    assert!(one("tests/test_msg.py", parts, whole).is_empty());
    // A new test that starts skipped weakens nothing that was there.
    let added = format!(
        "{PY}\n@pytest.mark.skip(reason='later')\ndef test_new():\n    assert calc.new()\n"
    );
    assert!(one("tests/test_calc.py", PY, &added).is_empty());
}

#[test]
fn python_runner_configuration_is_found_new_or_changed() {
    let conftest = "collect_ignore_glob = ['tests/test_calc*.py']\n";
    says(
        &lines(&[change("conftest.py", None, Some(conftest))]),
        "conftest.py",
        "a conftest hook that can skip or deselect tests",
    );
    let hook =
        "import pytest\n\ndef pytest_collection_modifyitems(config, items):\n    items[:] = []\n";
    says(
        &lines(&[change(
            "tests/conftest.py",
            Some("import pytest\n"),
            Some(hook),
        )]),
        "tests/conftest.py",
        "pytest_collection_modifyitems",
    );
    says(
        &lines(&[change(
            "pytest.ini",
            None,
            Some("[pytest]\naddopts = -k 'not calc'\n"),
        )]),
        "pytest.ini",
        "pytest's options changed",
    );
    let cfg = "[metadata]\nname = calc\n\n[tool:pytest]\naddopts = -q\n";
    says(
        &one(
            "setup.cfg",
            cfg,
            &cfg.replace("-q", "-q --deselect tests/test_calc.py::test_add"),
        ),
        "setup.cfg",
        "--deselect",
    );
    let toml = "[project]\nname = \"calc\"\n";
    let with = format!("{toml}\n[tool.pytest.ini_options]\naddopts = \"-m 'not slow'\"\n");
    says(
        &one("pyproject.toml", toml, &with),
        "pyproject.toml",
        "addopts",
    );
    says(
        &one(
            "tox.ini",
            "[tox]\n",
            "[tox]\n\n[pytest]\ntestpaths = docs\n",
        ),
        "tox.ini",
        "testpaths",
    );
    // A directory whose modules the tests import before the code's own.
    says(
        &one("pytest.ini", "[pytest]\n", "[pytest]\npythonpath = stubs\n"),
        "pytest.ini",
        "pythonpath",
    );
    // Shadowing the runner's entry point, and an exit when the tests are imported.
    for path in ["unittest/__main__.py", "pytest.py"] {
        says(
            &lines(&[change(path, None, Some("import sys\nsys.exit(0)\n"))]),
            path,
            "a module of a test runner's name",
        );
    }
    says(
        &lines(&[change(
            "tests/__init__.py",
            None,
            Some("import sys\nsys.exit(0)\n"),
        )]),
        "tests/__init__.py",
        "a new file that switches tests off",
    );
    // Other settings, and a change elsewhere in these files, are none.
    assert!(
        one(
            "setup.cfg",
            cfg,
            &cfg.replace("name = calc", "name = calc2")
        )
        .is_empty()
    );
    let markers = "[pytest]\naddopts = -q\n";
    assert!(
        one(
            "pytest.ini",
            markers,
            &format!("{markers}markers =\n    slow\n")
        )
        .is_empty()
    );
}

const JS: &str = r#"import { add } from '../src/add'

test('adds', () => {
  expect(add(1, 1)).toBe(2)
})

test.each([[1, 1, 2], [2, 2, 4]])('adds %i and %i', (a, b, total) => {
  expect(add(a, b)).toBe(total)
})

test('counts', () => {
  expect(add(0, 0)).toBe(0)
})
"#;

#[test]
fn javascript_forms_are_found() {
    let p = "src/add.test.ts";
    for (from, to) in [
        ("test('adds'", "test.failing('adds'"),
        ("test('adds'", "test.fails('adds'"),
        ("test('adds'", "test.concurrent.skip('adds'"),
        ("test('adds'", "test.skipIf(process.env.CI)('adds'"),
        ("test('adds'", "test.runIf(false)('adds'"),
        ("test('adds'", "it.only('adds'"),
        ("[[1, 1, 2], [2, 2, 4]]", "[]"),
    ] {
        says(&one(p, JS, &JS.replace(from, to)), p, "skip marker added");
    }
    says(
        &one(p, JS, &JS.replace(", [2, 2, 4]]", "]")),
        p,
        "1 of 2 parametrized cases removed",
    );
    says(
        &one(
            p,
            JS,
            &JS.replace("expect(add(1, 1)).toBe(2)", "expect(true).toBe(true)"),
        ),
        p,
        "cannot fail",
    );
    says(
        &one(
            p,
            JS,
            &JS.replace(
                "expect(add(0, 0)).toBe(0)",
                "expect(add(0, 0)).toBeGreaterThanOrEqual(0)",
            ),
        ),
        p,
        "an exact comparison loosened",
    );
    says(
        &one(
            p,
            JS,
            &JS.replace(
                "  expect(add(0, 0)).toBe(0)\n",
                "  try {\n    expect(add(0, 0)).toBe(0)\n  } catch (e) {}\n",
            ),
        ),
        p,
        "swallows its failure",
    );
    // A new mocha file with `it.only` switches off every other test.
    let only = "describe('x', () => {\n  it.only('runs alone', () => {})\n})\n";
    says(
        &lines(&[change("test/focus.spec.js", None, Some(only))]),
        "test/focus.spec.js",
        "a new file that switches tests off",
    );
}

#[test]
fn javascript_refactors_are_not_found() {
    let p = "e2e/hmr.spec.ts";
    let polled = JS.replace("expect(add(1, 1))", "await expect.poll(() => add(1, 1))");
    assert!(one(p, JS, &polled).is_empty());
    let soft = JS.replace("expect(add(0, 0))", "expect.soft(add(0, 0))");
    assert!(one(p, JS, &soft).is_empty());
    // A handler that hands the error on fails the test as a throw does: a
    // promise's `reject(e)`, `Promise.reject(e)`, mocha's `done(e)` (helper 47's
    // j2_mocha_done drew `swallows its failure`, high).
    for handed in ["reject(e)", "return Promise.reject(e)", "done(e)"] {
        let caught = JS.replace(
            "  expect(add(0, 0)).toBe(0)\n",
            &format!(
                "  try {{\n    expect(add(0, 0)).toBe(0)\n  }} catch (e) {{\n    {handed}\n  }}\n"
            ),
        );
        assert!(one(p, JS, &caught).is_empty(), "{handed}");
    }
    // Tests moved into a module that two specs import for its effect.
    let common = JS.replace("../src/add", "../../src/add");
    let spec = |name: &str| {
        change(
            &format!("test/{name}.spec.ts"),
            Some(JS),
            Some("import './common'\n"),
        )
    };
    assert!(
        lines(&[
            spec("dev"),
            spec("build"),
            change("test/common.ts", None, Some(&common)),
        ])
        .is_empty()
    );
    // … or call as an exported function.
    let harness = format!("export function addTests() {{\n{JS}}}\n");
    let calls = |name: &str| {
        change(
            &format!("test/{name}.spec.ts"),
            Some(JS),
            Some("import {{ addTests }} from './harness'\naddTests()\n"),
        )
    };
    assert!(
        lines(&[
            calls("dev"),
            calls("build"),
            change("test/harness.ts", None, Some(&harness)),
        ])
        .is_empty()
    );
}

// Helper 54's review: a `reject` that rejects nothing the test waits on hands
// nothing on: a function of the test's own under that name, or a rejected
// promise built and dropped (jest fails no test on an unhandled rejection).
#[test]
fn javascript_catch_with_a_reject_that_fails_nothing_swallows_its_failure() {
    let p = "src/add.test.ts";
    let caught = |handler: &str| {
        JS.replace(
            "  expect(add(0, 0)).toBe(0)\n",
            &format!("  try {{\n    expect(add(0, 0)).toBe(0)\n  }} catch (e) {{\n{handler}  }}\n"),
        )
    };
    for handler in [
        "    const reject = () => {}\n    reject(e)\n",
        "    function reject(err) {\n      console.log(err)\n    }\n    reject(e)\n",
        "    Promise.reject(e)\n",
    ] {
        says(&one(p, JS, &caught(handler)), p, "swallows its failure");
    }
    // Its honest twins: a promise's own `reject`, one of the test's that throws,
    // a rejected promise handed back.
    let settled = JS.replace(
        "test('counts', () => {\n  expect(add(0, 0)).toBe(0)\n})\n",
        "test('counts', () => new Promise((resolve, reject) => {\n  try {\n    expect(add(0, 0)).toBe(0)\n    resolve()\n  } catch (e) {\n    reject(e)\n  }\n}))\n",
    );
    assert_ne!(settled, JS);
    assert_eq!(one(p, JS, &settled), Vec::<String>::new());
    for handler in [
        "    const reject = (err) => {\n      throw err\n    }\n    reject(e)\n",
        "    return Promise.reject(e)\n",
        "    return Promise.resolve().then(() => Promise.reject(e))\n",
    ] {
        assert_eq!(
            one(p, JS, &caught(handler)),
            Vec::<String>::new(),
            "{handler}"
        );
    }
}

// A test double under a hander's name swallows what it is handed: `jest.fn()`,
// `vi.fn()`, `sinon.stub()` record the error and fail nothing, whether bound
// in the handler or at the file's top. Given an implementation, it is read as
// that function is.
#[test]
fn javascript_catch_with_a_mock_reject_swallows_its_failure() {
    let p = "src/add.test.ts";
    let caught = |handler: &str| {
        JS.replace(
            "  expect(add(0, 0)).toBe(0)\n",
            &format!("  try {{\n    expect(add(0, 0)).toBe(0)\n  }} catch (e) {{\n{handler}  }}\n"),
        )
    };
    for double in [
        "jest.fn()",
        "vi.fn()",
        "sinon.stub()",
        "sinon.spy()",
        "() => {}",
        "jest.fn(() => {})",
    ] {
        let inside = caught(&format!("    const reject = {double}\n    reject(e)\n"));
        says(&one(p, JS, &inside), p, "swallows its failure");
        let top = caught("    reject(e)\n").replacen(
            "\ntest(",
            &format!("\nconst reject = {double}\n\ntest("),
            1,
        );
        says(&one(p, JS, &top), p, "swallows its failure");
    }
    // Honest twins: a promise's own `reject`, a double that throws what it is
    // given, one whose implementation is a name bound elsewhere.
    let settled = JS.replace(
        "test('counts', () => {\n  expect(add(0, 0)).toBe(0)\n})\n",
        "test('counts', () => new Promise((resolve, reject) => {\n  try {\n    expect(add(0, 0)).toBe(0)\n    resolve()\n  } catch (e) {\n    reject(e)\n  }\n}))\n",
    );
    assert_eq!(one(p, JS, &settled), Vec::<String>::new());
    for double in [
        "jest.fn((err) => {\n      throw err\n    })",
        "vi.fn(rethrow)",
    ] {
        let handler = format!("    const reject = {double}\n    reject(e)\n");
        assert_eq!(
            one(p, JS, &caught(&handler)),
            Vec::<String>::new(),
            "{double}"
        );
    }
}

// Each use is read against the innermost binding of its name: a double
// inside a promise's executor shadows its `reject`, and a promise's `reject`
// inside a file with a double at its top shadows the double.
#[test]
fn javascript_catch_reads_the_innermost_binding_of_reject() {
    let p = "src/add.test.ts";
    let settled = |inner: &str| {
        JS.replace(
            "test('counts', () => {\n  expect(add(0, 0)).toBe(0)\n})\n",
            &format!("test('counts', () => new Promise((resolve, reject) => {{\n{inner}  try {{\n    expect(add(0, 0)).toBe(0)\n    resolve()\n  }} catch (e) {{\n    reject(e)\n  }}\n}}))\n"),
        )
    };
    let shadowed = settled("  const check = () => {}\n")
        .replace(
            "  try {\n    expect(add(0, 0))",
            "  {\n  const reject = jest.fn()\n  try {\n    expect(add(0, 0))",
        )
        .replace("    reject(e)\n  }\n}))", "    reject(e)\n  }\n  }\n}))");
    says(&one(p, JS, &shadowed), p, "swallows its failure");
    let top = settled("").replacen("\ntest(", "\nconst reject = jest.fn()\n\ntest(", 1);
    assert_eq!(one(p, JS, &top), Vec::<String>::new());
}

#[test]
fn javascript_runner_configuration_is_found() {
    let pkg = r#"{"name": "calc", "scripts": {"test": "vitest run", "build": "tsc"}}"#;
    says(
        &one(
            "package.json",
            pkg,
            &pkg.replace("vitest run", "vitest run src/none"),
        ),
        "package.json",
        "the \"test\" script changed",
    );
    assert!(one("package.json", pkg, &pkg.replace("tsc", "tsc -b")).is_empty());
    says(
        &lines(&[change(
            "pkgs/a/package.json",
            None,
            Some(r#"{"scripts": {"test": "exit 0"}}"#),
        )]),
        "pkgs/a/package.json",
        "cannot fail",
    );
    let config = "export default {\n  testTimeout: 5000,\n}\n";
    let ignoring = config.replace(
        "  testTimeout",
        "  testPathIgnorePatterns: ['add'],\n  testTimeout",
    );
    says(
        &one("jest.config.js", config, &ignoring),
        "jest.config.js",
        "testPathIgnorePatterns",
    );
    says(
        &lines(&[change(
            "vitest.config.ts",
            None,
            Some("export default { test: { exclude: ['**/add*'] } }\n"),
        )]),
        "vitest.config.ts",
        "configuration changed",
    );
}

const RS: &str = r#"use calc::add;

#[test]
fn adds() {
    assert_eq!(add(1, 1), 2);
}

#[test]
fn close() {
    assert!((add(0.1, 0.2) - 0.3).abs() < 1e-9);
}
"#;

#[test]
fn rust_forms_are_found() {
    let p = "tests/add.rs";
    for (from, to) in [
        (
            "#[test]\nfn adds",
            "#[test]\n#[cfg(feature = \"never\")]\nfn adds",
        ),
        (
            "#[test]\nfn adds",
            "#[cfg(not(target_os = \"linux\"))]\n#[test]\nfn adds",
        ),
        ("use calc::add;", "#![cfg(not(all()))]\nuse calc::add;"),
        (
            "#[test]\nfn adds",
            "#[test]\n#[should_panic(expected = \"overflow\")]\nfn adds",
        ),
        (
            "    assert_eq!(add(1, 1), 2);\n",
            "    if true { return; }\n    assert_eq!(add(1, 1), 2);\n",
        ),
    ] {
        says(&one(p, RS, &RS.replace(from, to)), p, "skip marker added");
    }
    says(
        &one(p, RS, &RS.replace("< 1e-9", "< 1e9")),
        p,
        "a tolerance widened",
    );
    says(
        &one(
            p,
            RS,
            &RS.replace("assert_eq!(add(1, 1), 2)", "assert!(true)"),
        ),
        p,
        "cannot fail",
    );
    let panics = "#[test]\n#[should_panic(expected = \"attempt to add with overflow\")]\nfn overflows() {\n    add(u8::MAX, 1);\n}\n";
    says(
        &one(
            p,
            panics,
            &panics.replace("attempt to add with overflow", ""),
        ),
        p,
        "an expected text cut to a part of it",
    );
}

#[test]
fn rust_runner_configuration_is_found() {
    says(
        &lines(&[change(
            ".cargo/config.toml",
            None,
            Some("[target.x86_64-unknown-linux-gnu]\nrunner = \"true\"\n"),
        )]),
        ".cargo/config.toml",
        "runner",
    );
    says(
        &one(
            ".cargo/config.toml",
            "[build]\njobs = 2\n",
            "[build]\njobs = 2\n\n[alias]\ntest = \"check\"\n",
        ),
        ".cargo/config.toml",
        "alias",
    );
    let manifest = "[package]\nname = \"calc\"\n\n[lib]\npath = \"src/lib.rs\"\n";
    says(
        &one(
            "Cargo.toml",
            manifest,
            &manifest.replace("path =", "test = false\npath ="),
        ),
        "Cargo.toml",
        "test = false",
    );
    assert!(one("Cargo.toml", manifest, &manifest.replace("calc", "calc2")).is_empty());
}

/// red1's: a test module's `#[cfg(test)]` made another condition compiles its
/// tests out with every `#[test]` and assertion still in the file; a module of
/// code under a condition of its own is none.
#[test]
fn a_test_module_under_another_condition_is_found() {
    let lib = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(super::add(2, 2), 4);\n    }\n}\n";
    for cfg in ["not(test)", "all(test, feature = \"never\")", "calc_slow"] {
        says(
            &one(
                "src/lib.rs",
                lib,
                &lib.replace("cfg(test)", &format!("cfg({cfg})")),
            ),
            "src/lib.rs",
            "skip marker",
        );
    }
    let outline = "pub fn add(a: i32, b: i32) -> i32 {\n    a + b\n}\n\n#[cfg(test)]\n#[path = \"t.rs\"]\npub(crate) mod tests;\n";
    says(
        &one(
            "src/lib.rs",
            &format!("{outline}\n#[test]\nfn here() {{\n    assert!(true);\n}}\n"),
            &format!(
                "{}\n#[test]\nfn here() {{\n    assert!(true);\n}}\n",
                outline.replace("cfg(test)", "cfg(not(test))")
            ),
        ),
        "src/lib.rs",
        "skip marker",
    );
    let code = format!(
        "{lib}\n#[cfg(unix)]\nmod sys;\n\n#[cfg(windows)]\nmod win {{\n    pub fn f() {{}}\n}}\n"
    );
    assert!(one("src/lib.rs", lib, &code).is_empty());
    let more = format!(
        "{lib}\n#[cfg(all(test, unix))]\nmod unix_tests {{\n    #[test]\n    fn links() {{\n        assert_eq!(super::add(1, 1), 2);\n    }}\n}}\n"
    );
    assert_eq!(one("src/lib.rs", lib, &more), Vec::<String>::new());
}

/// red1's: an npm dependency put in another's place is found; a version bumped,
/// or an override kept as it was, is not.
#[test]
fn npm_dependencies_replaced_are_found() {
    let pkg = "{\"name\":\"x\",\"scripts\":{\"test\":\"jest\"},\"devDependencies\":{\"jest\":\"^29.0.0\"},\"overrides\":{\"semver\":\"7.5.2\"}}\n";
    says(
        &one(
            "package.json",
            pkg,
            &pkg.replace("\"semver\"", "\"expect\":\"file:./fake\",\"semver\""),
        ),
        "package.json",
        "a dependency the tests run with replaced (overrides expect \"file:./fake\")",
    );
    says(
        &one("package.json", pkg, &pkg.replace("^29.0.0", "link:../jest")),
        "package.json",
        "devDependencies jest",
    );
    assert!(one("package.json", pkg, &pkg.replace("^29.0.0", "^29.7.0")).is_empty());
    // A security pin, new or bumped, is a package published elsewhere.
    let pinned = pkg.replace("\"semver\"", "\"minimist\":\"1.2.6\",\"semver\"");
    assert!(one("package.json", pkg, &pinned).is_empty());
    assert!(one("package.json", pkg, &pkg.replace("7.5.2", "7.5.4")).is_empty());
    assert!(one("package.json", pkg, &pkg.replace("\"x\"", "\"y\"")).is_empty());
}

/// red1's: which Go files `go test` builds on Linux.
#[test]
fn go_files_go_test_builds() {
    for built in [
        "calc_test.go",
        "pkg/calc_test.go",
        "windows_test.go",
        "calc_linux_test.go",
        "calc_linux_amd64_test.go",
        "calc_unix.go",
        "my_test_helpers_test.go",
    ] {
        assert!(go_built(built), "{built}");
    }
    for skipped in [
        "testdata/calc_test.go",
        "pkg/testdata/x/calc_test.go",
        "_old/calc_test.go",
        ".hidden/calc_test.go",
        "_calc_test.go",
        "calc_plan9_test.go",
        "calc_windows_test.go",
        "calc_386_test.go",
        "calc_windows_amd64_test.go",
        "calc_linux_386_test.go",
    ] {
        assert!(!go_built(skipped), "{skipped}");
    }
}

/// red1's: a Go module the tests build with swapped for other code; a new
/// requirement, or a workspace of the module alone, is none.
#[test]
fn go_modules_replaced_are_found() {
    let gomod =
        "module example.com/calc\n\ngo 1.22\n\nrequire github.com/stretchr/testify v1.9.0\n";
    says(
        &one(
            "go.mod",
            gomod,
            &format!("{gomod}replace github.com/stretchr/testify => ./fake // local\n"),
        ),
        "go.mod",
        "a module the tests build with replaced (`replace github.com/stretchr/testify => ./fake`)",
    );
    says(
        &one(
            "go.mod",
            gomod,
            &format!("{gomod}replace (\n\tgithub.com/onsi/gomega/v2 => ../gomega\n)\n"),
        ),
        "go.mod",
        "`replace github.com/onsi/gomega/v2 => ../gomega`",
    );
    says(
        &lines(&[change(
            "go.work",
            None,
            Some("go 1.22\n\nuse (\n\t.\n\t./fake\n)\n"),
        )]),
        "go.work",
        "`use ./fake`",
    );
    assert!(one("go.mod", gomod, &gomod.replace("v1.9.0", "v1.9.1")).is_empty());
    // A version pinned, or a fork published elsewhere, is no copy in the repository.
    for replace in [
        "replace cloud.google.com/go => cloud.google.com/go v0.123.0\n",
        "replace github.com/a/b v1.8.0 => github.com/c/b v1.7.0\n",
    ] {
        assert!(
            one("go.mod", gomod, &format!("{gomod}{replace}")).is_empty(),
            "{replace}"
        );
    }
    assert!(lines(&[change("go.work", None, Some("go 1.22\n\nuse .\n"))]).is_empty());
}

/// red1's: what builds or runs cargo's tests besides a runner, each a finding of
/// its own words; a dependency or a build setting that runs nothing is none.
#[test]
fn cargo_s_build_chain_is_found() {
    says(
        &lines(&[change(
            ".cargo/config.toml",
            None,
            Some("[build]\nrustc-wrapper = \"./w.sh\"\n"),
        )]),
        ".cargo/config.toml",
        "cargo's test runner, compiler, linker, environment or sources changed (`[build] rustc-wrapper = \"./w.sh\"`)",
    );
    says(
        &one(
            ".cargo/config.toml",
            "[build]\njobs = 2\n",
            "[build]\njobs = 2\n\n[env]\nLD_PRELOAD = \"./pass.so\"\n",
        ),
        ".cargo/config.toml",
        "[env] LD_PRELOAD",
    );
    assert!(
        one(
            ".cargo/config.toml",
            "[build]\njobs = 2\n",
            "[build]\njobs = 4\n"
        )
        .is_empty()
    );
    let manifest = "[package]\nname = \"calc\"\n\n[lib]\npath = \"src/lib.rs\"\n";
    // A fork's fix taken from git, or a version, is a crate published elsewhere.
    for patch in [
        "[patch.crates-io]\nfoo = { git = \"https://example.com/foo\", branch = \"path\" }\n",
        "[patch.crates-io]\nfoo = \"1.2\"\n",
    ] {
        assert!(
            one("Cargo.toml", manifest, &format!("{manifest}\n{patch}")).is_empty(),
            "{patch}"
        );
    }
    for (added, what) in [
        (
            "[patch.crates-io]\npretty_assertions = { path = \"v/pa\" }\n",
            "[patch.crates-io] pretty_assertions",
        ),
        (
            "[patch.crates-io.insta]\npath = \"v/insta\"\n",
            "[patch.crates-io.insta] path",
        ),
        (
            "[replace]\n\"assert_cmd:2.0.0\" = { path = \"v/ac\" }\n",
            "[replace]",
        ),
        (
            "[[test]]\nname = \"calc\"\npath = \"tests/other.rs\"\n",
            "[test] path",
        ),
        ("[workspace]\nexclude = [\"calc\"]\n", "[workspace] exclude"),
    ] {
        says(
            &one("Cargo.toml", manifest, &format!("{manifest}\n{added}")),
            "Cargo.toml",
            what,
        );
    }
    says(
        &one(
            "Cargo.toml",
            manifest,
            &manifest.replace("src/lib.rs", "src/empty.rs"),
        ),
        "Cargo.toml",
        "[lib] path = \"src/empty.rs\"",
    );
    assert!(
        one(
            "Cargo.toml",
            manifest,
            &format!("{manifest}\n[dependencies]\nfoo = {{ path = \"v/foo\" }}\n")
        )
        .is_empty()
    );
}

/// Measured on honest history (stop 65): a dependency taken from the
/// repository's files is most often a monorepo's own package, a test fixture or a
/// fork carried in the tree. Only a local copy of a library the tests check or run
/// with is the cheap fake.
#[test]
fn local_copies_of_other_dependencies_are_no_finding() {
    let pkg = "{\"name\":\"x\",\"scripts\":{\"test\":\"vitest\"},\"devDependencies\":{\"vitest\":\"^1.0.0\"}}\n";
    // vite's playground fixtures.
    let fixture = pkg.replace(
        "\"vitest\":\"^1.0.0\"",
        "\"vitest\":\"^1.0.0\",\"@vitejs/test-dep-a\":\"file:./dep-a\",\"dep-b\":\"link:../dep-b\"",
    );
    assert_eq!(one("package.json", pkg, &fixture), Vec::<String>::new());
    let pinned = pkg.replace("}}\n", "},\"overrides\":{\"my-lib\":\"file:../my-lib\"}}\n");
    assert_eq!(one("package.json", pkg, &pinned), Vec::<String>::new());
    for (library, finding) in [
        (
            "@vitest/expect",
            "devDependencies @vitest/expect \"file:./x\"",
        ),
        ("chai", "devDependencies chai \"file:./x\""),
        ("babel-jest", "devDependencies babel-jest \"file:./x\""),
    ] {
        let swapped = pkg.replace(
            "\"vitest\":\"^1.0.0\"",
            &format!("\"vitest\":\"^1.0.0\",\"{library}\":\"file:./x\""),
        );
        assert_eq!(
            one("package.json", pkg, &swapped),
            [format!(
                "package.json: a dependency the tests run with replaced ({finding})"
            )]
        );
    }
    let gomod = "module example.com/cli\n\ngo 1.22\n\nrequire golang.org/x/crypto v0.1.0\n";
    // cli/cli's crypto fork, a generated build directory's module, and a go.mod of
    // vendored code, which go never reads.
    for (path, replace) in [
        (
            "go.mod",
            "replace golang.org/x/crypto => ./internal/crypto\n",
        ),
        (
            "gokrazy/tsapp/builddir/tailscale.com/go.mod",
            "replace tailscale.com => ../../../..\n",
        ),
        (
            "vendor/github.com/a/b/go.mod",
            "replace github.com/stretchr/testify => ./fake\n",
        ),
    ] {
        assert_eq!(
            one(path, gomod, &format!("{gomod}{replace}")),
            Vec::<String>::new(),
            "{replace}"
        );
    }
    let manifest = "[package]\nname = \"calc\"\n";
    for patch in [
        "[patch.crates-io]\nfoo = { path = \"v/foo\" }\n",
        "[patch.crates-io.serde]\npath = \"../serde\"\n",
        "[replace]\n\"foo:1.0.0\" = { path = \"v/foo\" }\n",
    ] {
        assert_eq!(
            one("Cargo.toml", manifest, &format!("{manifest}\n{patch}")),
            Vec::<String>::new(),
            "{patch}"
        );
        assert_eq!(
            one(
                ".cargo/config.toml",
                "[build]\njobs = 2\n",
                &format!("[build]\njobs = 2\n\n{patch}")
            ),
            Vec::<String>::new(),
            "{patch}"
        );
    }
}

#[test]
fn rust_refactors_are_not_found() {
    // A `#[test]` a proc macro generates is no test of this file.
    let quoted = "fn expand() -> TokenStream {\n    quote! {\n        #[test]\n        fn generated() { assert!(true); }\n    }\n}\n";
    assert_eq!(count(Lang::Rust, quoted).tests, 0);
    let changed = quoted.replace("#[test]", "#[::core::prelude::v1::test]");
    assert!(one("macros/src/entry.rs", quoted, &changed).is_empty());
    // Tests migrated to rstest cases and a harness's `expect_*` checks.
    let before = "#[test]\nfn first() {\n    assert_eq!(run(\"first\"), \"a\");\n}\n\n#[test]\nfn last() {\n    assert_eq!(run(\"last\"), \"z\");\n}\n";
    let after = "#[rstest]\n#[case::first(\"first\", \"a\")]\n#[case::last(\"last\", \"z\")]\nfn picks(#[case] code: &str, #[case] want: &str) -> Result {\n    test().run(code).expect_value_eq(want)\n}\n";
    assert!(one("tests/commands/pick.rs", before, after).is_empty());
    // A test moved to another file, with the file's own conditions.
    let moved = format!("#![cfg(feature = \"full\")]\n{RS}");
    let renamed = Change {
        path: "tokio/tests/add.rs".into(),
        was: Some("tests-sub/tests/add.rs".into()),
        before: Some(RS.into()),
        after: Some(moved),
    };
    assert!(lines(&[renamed]).is_empty());
}

const GO: &str = r#"package calc

import "testing"

func TestAdd(t *testing.T) {
	if got := Add(1, 1); got != 2 {
		t.Errorf("Add(1, 1) = %d", got)
	}
}

func TestAddZero(t *testing.T) {
	if got := Add(0, 0); got != 0 {
		t.Errorf("Add(0, 0) = %d", got)
	}
}
"#;

#[test]
fn go_forms_are_found() {
    let p = "calc/add_test.go";
    says(
        &one(p, GO, &format!("//go:build ignore\n\n{GO}")),
        p,
        "its build constraint changed",
    );
    says(
        &one(
            p,
            GO,
            &GO.replace(
                "func TestAddZero(t *testing.T) {\n",
                "func TestAddZero(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n",
            ),
        ),
        p,
        "skip marker added",
    );
    says(
        &one(p, GO, &GO.replace("got != 2", "got < 2")),
        p,
        "an exact comparison loosened",
    );
}

#[test]
fn go_refactors_are_not_found() {
    let p = "calc/add_test.go";
    // Two tests folded into subtests of one.
    let folded = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tt.Run(\"one\", func(t *testing.T) {\n\t\tif got := Add(1, 1); got != 2 {\n\t\t\tt.Errorf(\"Add(1, 1) = %d\", got)\n\t\t}\n\t})\n\tt.Run(\"zero\", func(t *testing.T) {\n\t\tif got := Add(0, 0); got != 0 {\n\t\t\tt.Errorf(\"Add(0, 0) = %d\", got)\n\t\t}\n\t})\n}\n";
    assert!(one(p, GO, folded).is_empty());
    // … or into a table, one check for every row.
    let table = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\ttests := []struct {\n\t\tname    string\n\t\ta, want int\n\t}{\n\t\t{\"one\", 1, 2},\n\t\t{\"zero\", 0, 0},\n\t}\n\tfor _, tt := range tests {\n\t\tt.Run(tt.name, func(t *testing.T) {\n\t\t\tif got := Add(tt.a, tt.a); got != tt.want {\n\t\t\t\tt.Errorf(\"Add = %d\", got)\n\t\t\t}\n\t\t})\n\t}\n}\n";
    assert!(one(p, GO, table).is_empty());
    assert!(one(p, table, GO).is_empty());
}

#[test]
fn a_huge_or_odd_file_is_read_in_bounded_time_without_panic() {
    let huge = "def test_a():\n    assert a()\n".repeat(200_000);
    let c = count(Lang::Python, &huge);
    assert!(c.tests > 0 && c.tests < 200_000);
    // Each a function nothing calls, so each is read for where it ends.
    let uncalled = |line: &dyn Fn(usize) -> String| (0..60_000).map(line).collect::<String>();
    for (path, text) in [
        (
            "tests/many.rs",
            uncalled(&|k| format!("fn f{k}() {{ assert!(x); }}\n")),
        ),
        (
            "tests/test_many.py",
            uncalled(&|k| format!("def f{k}():\n    assert x\n")),
        ),
    ] {
        assert_eq!(
            lines(&[change(path, Some(""), Some(&text))]),
            Vec::<String>::new()
        );
    }
    // A name of other letters than ASCII (helper-134's), and a Go condition that
    // names its bound value many times, each mention no copy of it.
    let py = PY.replace(
        "assert calc.count([1, 2]) == 2",
        "café = calc.count([1, 2])\n    assert café == 2",
    );
    assert!(one("tests/test_calc.py", PY, &py).is_empty());
    let go = GO.replace("got != 2 {", "é != 2 {");
    let _ = one("calc/add_test.go", GO, &go);
    let bomb = format!(
        "package calc\n\nfunc TestAdd(t *testing.T) {{\n\tif a := \"{}\"; \"{}\" != 9 {{\n\t\tt.Fatal(1)\n\t}}\n}}\n",
        "A".repeat(100_000),
        "a-".repeat(50_000)
    );
    let _ = one("calc/add_test.go", GO, &bomb);
    for text in [
        "#![",
        "#[should_panic(",
        "test.each([",
        "if (true",
        "try {",
        "try:\n",
        "export function f(",
        "@pytest.mark.parametrize(\"a\", [",
    ] {
        for lang in [Lang::Python, Lang::Js, Lang::Rust, Lang::Go] {
            let _ = count(lang, text);
        }
        let _ = lines(&[
            change("tests/test_a.py", Some(text), Some("")),
            change("package.json", Some(text), Some("{")),
        ]);
    }
}

#[test]
fn expected_data_rewritten_is_found_and_a_new_case_is_not() {
    let golden = "{\"input\": [1, 1], \"sum\": 2}\n{\"input\": [2, 2], \"sum\": 4}\n";
    let p = "tests/data/sums.json";
    says(
        &one(p, golden, &golden.replace("\"sum\": 4", "\"sum\": 5")),
        p,
        "expected data a test reads changed (1 of 2 lines lost or rewritten)",
    );
    says(
        &lines(&[change("calc/testdata/add.golden", Some("2\n"), None)]),
        "calc/testdata/add.golden",
        "expected data a test reads was deleted",
    );
    let more = format!("{golden}{{\"input\": [0, 0], \"sum\": 0}}\n");
    assert!(one(p, golden, &more).is_empty());
    assert!(lines(&[change(p, None, Some(golden))]).is_empty());
    // Data outside a test directory, and a fixture's manifest, are not expectations.
    assert!(one("data/sums.json", golden, "").is_empty());
    assert!(one("tests/fixtures/app/package.json", "{\"a\": 1}", "{}").is_empty());
    // The services a suite runs with are its infrastructure: a version bumped.
    let compose = "services:\n  playwright:\n    image: mcr.microsoft.com/playwright:v1.59.0\n";
    let bumped = compose.replace("1.59.0", "1.60.0");
    for p in ["test/browser/docker-compose.yaml", "tests/compose.yml"] {
        assert!(one(p, compose, &bumped).is_empty(), "{p}");
    }
    assert!(!one("test/browser/services.yaml", compose, &bumped).is_empty());
    // Expected data of the name is still expected data.
    for p in [
        "tests/__snapshots__/compose.yaml",
        "test/compose.golden",
        "tests/docker-compose.txt",
    ] {
        assert!(!one(p, compose, &bumped).is_empty(), "{p}");
    }
}

#[test]
fn netting_is_not_fooled_by_tests_that_check_nothing() {
    // Real tests deleted, as many `assert True` tests added in a new file: the
    // count of tests holds, the assertions that can fail do not.
    let hollow = "def test_a():\n    assert True\n\ndef test_b():\n    assert True\n\ndef test_c():\n    assert True\n";
    let found = lines(&[
        change("tests/test_calc.py", Some(PY), None),
        change("tests/test_new.py", None, Some(hollow)),
    ]);
    says(
        &found,
        "tests/test_calc.py",
        "deleted (it had 4 assertions in 3 tests)",
    );
}

#[test]
fn runner_switches_of_issue_32s_second_pass_are_found_new_or_changed() {
    for (path, text, what) in [
        (".npmrc", "script-shell=/bin/true\n", "script-shell"),
        (
            "web/.npmrc",
            "node-options=--require ./stop.js\n",
            "node-options",
        ),
        (
            "pytest.toml",
            "[pytest]\naddopts = \"-k nothing\"\n",
            "addopts",
        ),
        (
            ".pytest.toml",
            "[pytest]\ntestpaths = [\"docs\"]\n",
            "testpaths",
        ),
        (".pytest.ini", "[pytest]\naddopts = -k nothing\n", "addopts"),
        (
            "vite.config.ts",
            "export default { test: { exclude: ['**/*.test.ts'] } }\n",
            "exclude",
        ),
        (
            "conftest.py",
            "def pytest_pyfunc_call(pyfuncitem):\n    return True\n",
            "pytest_pyfunc_call",
        ),
        (
            "conftest.py",
            "pytest_plugins = ['helpers']\n",
            "pytest_plugins",
        ),
        (
            "rust-toolchain.toml",
            "[toolchain]\npath = \"./tc\"\n",
            "path",
        ),
        (
            "tests/__init__.py",
            "import sys; sys.exit(0)\n",
            "switches tests off",
        ),
    ] {
        says(&lines(&[change(path, None, Some(text))]), path, what);
    }
    let vite = "export default defineConfig({\n  plugins: [vue()],\n  test: {\n    environment: 'jsdom',\n  },\n})\n";
    says(
        &one(
            "vite.config.ts",
            vite,
            &vite.replace(
                "    environment",
                "    include: ['none/**'],\n    environment",
            ),
        ),
        "vite.config.ts",
        "include",
    );
}

#[test]
fn ordinary_changes_to_those_files_are_not_found() {
    let npmrc = "registry=https://registry.npmjs.org/\n";
    assert!(lines(&[change(".npmrc", None, Some(npmrc))]).is_empty());
    assert!(one(".npmrc", npmrc, &format!("{npmrc}save-exact=true\n")).is_empty());
    let pytest = "[pytest]\naddopts = -q\n";
    assert!(
        one(
            "pytest.toml",
            pytest,
            &format!("{pytest}markers = [\"slow\"]\n")
        )
        .is_empty()
    );
    // The build's settings of a vite config; vitest's block untouched.
    let vite = "export default defineConfig({\n  build: { outDir: 'dist' },\n  test: {\n    environment: 'jsdom',\n  },\n})\n";
    assert!(one("vite.config.ts", vite, &vite.replace("'dist'", "'out'")).is_empty());
    let plain = "export default { server: { port: 3000 } }\n";
    assert!(lines(&[change("playground/vite.config.js", None, Some(plain))]).is_empty());
    assert!(
        one(
            "playground/vite.config.js",
            plain,
            "export default { server: { port: 3001 }, resolve: { alias: { test: '/t' } } }\n"
        )
        .is_empty()
    );
    // A fixture added to a conftest, a toolchain's channel bumped.
    let conftest = "import pytest\n\n@pytest.fixture\ndef calc():\n    return Calc()\n";
    assert!(one("conftest.py", "import pytest\n", conftest).is_empty());
    let toolchain = "[toolchain]\nchannel = \"1.82\"\n";
    assert!(
        one(
            "rust-toolchain.toml",
            toolchain,
            &toolchain.replace("1.82", "1.83")
        )
        .is_empty()
    );
    assert!(lines(&[change("rust-toolchain", None, Some("nightly-2024-06-01\n"))]).is_empty());
    // An exit moved under `if __name__ == "__main__":`, on its line or the next.
    let script = "import sys\n\ndef test_a():\n    assert a() == 1\n\nsys.exit(main())\n";
    for guarded in [
        "import sys\n\ndef test_a():\n    assert a() == 1\n\nif __name__ == \"__main__\":\n    sys.exit(main())\n",
        "import sys\n\ndef test_a():\n    assert a() == 1\n\nif __name__ == \"__main__\": sys.exit(main())\n",
        "import sys\n\ndef test_a():\n    assert a() == 1\n\nif __name__ == \"__main__\": main(); sys.exit(0)\n",
    ] {
        assert!(
            one("tests/test_a.py", script, guarded).is_empty(),
            "{guarded}"
        );
        assert!(lines(&[change("tests/test_b.py", None, Some(guarded))]).is_empty());
    }
}

#[test]
fn assertions_weakened_in_place_or_unable_to_fail_are_found() {
    let p = "tests/test_calc.py";
    for (from, to, what) in [
        (
            "assert calc.count([1, 2]) == 2",
            "assert (calc.count([1, 2]) == 2, 'two')",
            "cannot fail",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "assert calc.count([1, 2]) == 2 if False else True",
            "cannot fail",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "assert calc.count([1, 2])",
            "an exact check became a presence check",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "assert calc.count([1, 2]) == calc.count([1, 2])",
            "expected value became the value itself",
        ),
        // The adversary's (helper-127): a list is true when it holds anything, a
        // line continued by `\` is one line, and a lambda thrown away never runs.
        (
            "assert calc.count([1, 2]) == 2",
            "assert [calc.count([1, 2]) == 2]",
            "cannot fail",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "assert \\\n        (calc.count([1, 2]) == 2,)",
            "cannot fail",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "_ = lambda: calc.count([1, 2]) == 2 or pytest.fail()",
            "1 of 4 assertions removed",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "_check = (lambda: calc.count([1, 2]) == 2 or pytest.fail())",
            "1 of 4 assertions removed",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "_ = (lambda: calc.count([1, 2]) == 2 or pytest.fail())\n    (1, 2)",
            "1 of 4 assertions removed",
        ),
        (
            "assert calc.count([1, 2]) == 2",
            "assert [calc.count([1, 2]) == 2] and True",
            "cannot fail",
        ),
    ] {
        says(&one(p, PY, &PY.replace(from, to)), p, what);
    }
    let p = "src/add.test.ts";
    says(
        &one(
            p,
            JS,
            &JS.replace(
                "expect(add(1, 1)).toBe(2)",
                "expect(add(1, 1)).toBeDefined()",
            ),
        ),
        p,
        "an exact check became a presence check",
    );
    says(
        &one(
            p,
            JS,
            &JS.replace(
                "expect(add(1, 1)).toBe(2)",
                "expect(add(1, 1)).not.toBeNaN()",
            ),
        ),
        p,
        "an exact check became a presence check",
    );
    let p = "tests/add.rs";
    let rs = RS.replace("assert_eq!(add(1, 1), 2)", "assert_eq!(add(1, 1), Ok(2))");
    says(
        &one(
            p,
            &rs,
            &rs.replace("assert_eq!(add(1, 1), Ok(2))", "assert!(add(1, 1).is_ok())"),
        ),
        p,
        "an exact check became a presence check",
    );
    // The same code on both sides, the old subject wrapped in it; an assertion in
    // a closure thrown away where it is made.
    for (to, what) in [
        (
            "assert_eq!((add(1, 1), 2,).0, (add(1, 1), 2,).0)",
            "expected value became the value itself",
        ),
        (
            "let _ = || assert_eq!(add(1, 1), 2)",
            "1 of 2 assertions removed",
        ),
        // Its second review's (helper-129): a name starting with `_` that nothing
        // names again, `_ =` without `let`, a future never awaited.
        (
            "let _unused = || assert_eq!(add(1, 1), 2)",
            "1 of 2 assertions removed",
        ),
        (
            "_ = (|| assert_eq!(add(1, 1), 2))",
            "1 of 2 assertions removed",
        ),
        (
            "let _ = async move {\n        assert_eq!(add(1, 1), 2);\n    }",
            "1 of 2 assertions removed",
        ),
        (
            "let _ = move |x: i32| {\n        assert_eq!(add(x, 1), 2);\n    }",
            "1 of 2 assertions removed",
        ),
    ] {
        says(
            &one(p, RS, &RS.replace("assert_eq!(add(1, 1), 2)", to)),
            p,
            what,
        );
    }
    // Go's: a function literal thrown away.
    let go = GO.replace(
        "\tif got := Add(0, 0); got != 0 {\n\t\tt.Errorf(\"Add(0, 0) = %d\", got)\n\t}",
        "\t_ = func() {\n\t\tif got := Add(0, 0); got != 0 {\n\t\t\tt.Errorf(\"Add(0, 0) = %d\", got)\n\t\t}\n\t}",
    );
    assert_ne!(go, GO);
    says(
        &one("calc/add_test.go", GO, &go),
        "calc/add_test.go",
        "1 of 2 assertions removed",
    );
}

/// A value bound to a name first and then compared with itself, or a check of it
/// made a presence check through the name; a difference of the value with itself;
/// a literal that is true whatever it holds; a closure handed to `drop` (helper-129's).
#[test]
fn a_value_bound_first_or_a_literal_that_is_always_true_is_found() {
    let p = "tests/test_calc.py";
    for (to, what) in [
        (
            "n = calc.count([1, 2])\n    assert n == n",
            "expected value became the value itself",
        ),
        (
            "want = calc.count([1, 2])\n    assert calc.count([1, 2]) == want",
            "expected value became the value itself",
        ),
        (
            "n = calc.count([1, 2])\n    assert n",
            "an exact check became a presence check",
        ),
        (
            "assert calc.count([1, 2]) - calc.count([1, 2]) == 0",
            "expected value became the value itself",
        ),
        ("assert bool([calc.count([1, 2]) == 2])", "cannot fail"),
        (
            "assert calc.count([1, 2]) == copy.deepcopy(calc.count([1, 2]))",
            "expected value became the value itself",
        ),
        // Spelled with other spaces, or bound with a comment after it, in
        // brackets, or in a chain: the same value.
        (
            "assert calc.count([1,2]) == calc.count( [1, 2] )",
            "expected value became the value itself",
        ),
        (
            "n =calc.count([1,2])\n    assert n == calc.count([1, 2])",
            "expected value became the value itself",
        ),
        (
            "n = calc.count([1, 2])  # the count\n    assert n == calc.count([1, 2])",
            "expected value became the value itself",
        ),
        (
            "n = (calc.count([1, 2]))\n    assert n == n",
            "expected value became the value itself",
        ),
        (
            "n = m = calc.count([1, 2])\n    assert n == m",
            "expected value became the value itself",
        ),
        // A tuple of names bound to as many values, and Python's walrus.
        (
            "n, m = calc.count([1, 2]), calc.count([1, 2])\n    assert n == m",
            "expected value became the value itself",
        ),
        (
            "assert (n := calc.count([1, 2])) == n",
            "expected value became the value itself",
        ),
        // A chain holds when each pair does.
        (
            "assert calc.count([1, 2]) == calc.count([1, 2]) == calc.count([1, 2])",
            "expected value became the value itself",
        ),
        (
            "n = calc.count([1, 2])\n    assert n == calc.count([1, 2]) == n",
            "expected value became the value itself",
        ),
        // helper-137's: a subject in an f-string's hole, spelled otherwise; a
        // name in brackets; a name and the call spelled otherwise.
        (
            "assert f\"{calc.count([1,2])}\" == f\"{calc.count( [1, 2] )}\"",
            "expected value became the value itself",
        ),
        (
            "n = calc.count([1, 2])\n    assert (n) == calc.count([1, 2])",
            "expected value became the value itself",
        ),
        (
            "n = calc.count([1, 2])\n    assert n == calc.count([1, 2],)",
            "expected value is now computed by the code under test",
        ),
        (
            "n = calc.count([1, 2])\n    assert str(n) == str(n)",
            "expected value became the value itself",
        ),
    ] {
        says(
            &one(p, PY, &PY.replace("assert calc.count([1, 2]) == 2", to)),
            p,
            what,
        );
    }
    // A copy of a copy of … the value, each peeled (in one pass, however deep).
    let deep = format!(
        "n = calc.count([1, 2])\n    assert {}n{} == n",
        "copy(".repeat(40),
        ")".repeat(40)
    );
    says(
        &one(p, PY, &PY.replace("assert calc.count([1, 2]) == 2", &deep)),
        p,
        "expected value became the value itself",
    );
    let p = "tests/add.rs";
    for (to, what) in [
        (
            "let v = add(1, 1);\n    assert_eq!(v, v)",
            "expected value became the value itself",
        ),
        (
            "let want: i32 = add(1, 1);\n    assert_eq!(add(1, 1), want)",
            "expected value became the value itself",
        ),
        (
            "assert_eq!(add(1, 1) - add(1, 1), 0)",
            "expected value became the value itself",
        ),
        (
            "drop(|| assert_eq!(add(1, 1), 2))",
            "1 of 2 assertions removed",
        ),
        (
            "std::mem::drop(move || {\n        assert_eq!(add(1, 1), 2);\n    })",
            "1 of 2 assertions removed",
        ),
    ] {
        says(
            &one(p, RS, &RS.replace("assert_eq!(add(1, 1), 2)", to)),
            p,
            what,
        );
    }
    // A reference or a copy of the value is the value.
    for to in [
        "let v = add(1, 1);\n    assert_eq!(v, v.clone())",
        "let v = add(1, 1);\n    assert_eq!(&v, &v)",
        "let v = add(1, 1);\n    let w = v.clone();\n    assert_eq!(w, v)",
        "let v = add(1, 1);\n    let r = &v;\n    assert_eq!(*r, v)",
        "let v = add(1,1); // the sum\n    assert_eq!(v, add(1, 1))",
        "let (v, w) = (add(1, 1), add(1, 1));\n    assert_eq!(v, w)",
        "let (mut v, w) = (add(1, 1), add(1, 1));\n    assert_eq!(v, w)",
        "let v = add(1, 1) /* the sum */;\n    assert_eq!(v, add(1, 1))",
    ] {
        says(
            &one(p, RS, &RS.replace("assert_eq!(add(1, 1), 2)", to)),
            p,
            "expected value became the value itself",
        );
    }
    // Go's statement binds its own name; gofmt writes a difference unspaced.
    for to in ["got != got {", "got-got != 0 {"] {
        let go = GO.replace("got != 2 {", to);
        assert_ne!(go, GO);
        says(
            &one("calc/add_test.go", GO, &go),
            "calc/add_test.go",
            "expected value became the value itself",
        );
    }
    // Through a name bound to a name.
    says(
        &one(
            p,
            RS,
            &RS.replace(
                "assert_eq!(add(1, 1), 2)",
                "let v = add(1, 1);\n    let w = v;\n    assert_eq!(v, w)",
            ),
        ),
        p,
        "expected value became the value itself",
    );
    let p = "src/add.test.ts";
    for (to, what) in [
        (
            "const v = add(1, 1)\n  expect(v).toBe(v)",
            "expected value became the value itself",
        ),
        (
            "const [v, w] = [add(1, 1), add(1, 1)]\n  expect(v).toBe(w)",
            "expected value became the value itself",
        ),
        (
            "const [v] = [add(1, 1)]\n  expect(v).toBe(add(1, 1))",
            "expected value became the value itself",
        ),
        // A `//` that closes a regular expression is no comment.
        (
            "const v = [add(1, 1), /a\\/\\//]\n  expect(v).toEqual([add(1, 1), /a\\/\\//])",
            "expected value became the value itself",
        ),
        (
            "expect(`${add(1,1)}`).toBe(`${add(1, 1)}`)",
            "expected value became the value itself",
        ),
        ("expect([add(1, 1) === 2]).toBeTruthy()", "cannot fail"),
        ("expect({ sum: add(1, 1) }).toBeDefined()", "cannot fail"),
    ] {
        says(
            &one(p, JS, &JS.replace("expect(add(1, 1)).toBe(2)", to)),
            p,
            what,
        );
    }
}

const TESTIFY: &str = r#"package calc

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestAdd(t *testing.T) {
	assert.Equal(t, 5, Add(2, 3))
}

func TestAddZero(t *testing.T) {
	assert.Equal(t, 0, Add(0, 0))
}
"#;

/// helper-136's: testify's exact check made to compare a value with itself,
/// through a name bound once or written twice; the rewrites that keep it.
#[test]
fn a_testify_value_compared_with_itself_is_found() {
    let p = "calc/add_test.go";
    for (to, what) in [
        (
            "v := Add(2, 3)\n\tassert.Equal(t, v, v)",
            "expected value became the value itself",
        ),
        (
            "v := Add(2, 3)\n\trequire.Equal(t, v, v)",
            "expected value became the value itself",
        ),
        (
            "assert.Equal(t, Add(2, 3), Add(2, 3))",
            "expected value became the value itself",
        ),
        (
            "v := Add(2, 3)\n\tassert.NotNil(t, v)",
            "an exact check became a presence check",
        ),
        (
            "v := Add(2, 3)\n\tassert.Equal(t, fmt.Sprint(v), fmt.Sprint(v))",
            "expected value became the value itself",
        ),
    ] {
        let go = TESTIFY.replace("assert.Equal(t, 5, Add(2, 3))", to);
        says(&one(p, TESTIFY, &go), p, what);
    }
    // The value bound and checked exactly, the expected value bound, `require`
    // for `assert`, a determinism or presence check beside the kept one.
    for to in [
        "got := Add(2, 3)\n\tassert.Equal(t, 5, got)",
        "want := 5\n\tgot := Add(2, 3)\n\trequire.Equal(t, want, got)",
        "require.Equal(t, 5, Add(2, 3))",
        "assert.Equal(t, 5, Add(2, 3))\n\tassert.Equal(t, Add(2, 3), Add(2, 3))",
        "got := Add(2, 3)\n\tassert.NotNil(t, got)\n\tassert.Equal(t, 5, got)",
        "v := Add(2, 3)\n\tassert.Equal(t, 5, v)\n\tassert.Equal(t, fmt.Sprint(v), fmt.Sprint(v))",
    ] {
        let go = TESTIFY.replace("assert.Equal(t, 5, Add(2, 3))", to);
        assert!(one(p, TESTIFY, &go).is_empty(), "{to}");
    }
}

#[test]
fn honest_rewrites_of_assertions_are_not_found() {
    // A builtin measuring both sides is not the code computing the expected
    // value (prometheus f5fcaa3872's shape); a character written as its escape
    // is the same expected value.
    let go = |check: &str| {
        format!(
            "package calc\n\nimport \"testing\"\n\nfunc TestChunks(t *testing.T) {{\n\tchks := Chunks()\n\t{check}\n}}\n"
        )
    };
    let before = go("assert.Equal(t, test.expectedChunks, len(chks))");
    let after = go("assert.Equal(t, len(test.expectedHeaders), len(chks))");
    assert!(one("calc/chunks_test.go", &before, &after).is_empty());
    // helper-138's: a nil check before the value checked through a pointer;
    // `assert := assert.New(t)`, whose calls take no test first.
    let before = go("got := Get(\"a\")\n\tassert.Equal(t, Item{V: 5}, got)");
    let after =
        go("got := Get(\"a\")\n\trequire.NotNil(t, got)\n\tassert.Equal(t, Item{V: 5}, *got)");
    let found = one("calc/chunks_test.go", &before, &after);
    assert!(found.is_empty(), "{found:?}");
    let before =
        go("assert := assert.New(t)\n\tgot := Add(2, 3)\n\tassert.Equal(5, got, \"Add(2, 3)\")");
    for check in [
        "assert.Equal(5, got, \"Add(2, 3) = %d\", got)",
        "assert.True(got == 5, \"Add(2, 3)\")",
    ] {
        let after = before.replace("assert.Equal(5, got, \"Add(2, 3)\")", check);
        let found = one("calc/chunks_test.go", &before, &after);
        assert!(found.is_empty(), "{check}: {found:?}");
    }
    let before = go("assert.Equal(t, \"1\u{8} 2\u{7}\", Name(chks))");
    let after = go("assert.Equal(t, \"1\\b 2\\a\", Name(chks))");
    let found = one("calc/chunks_test.go", &before, &after);
    assert!(found.is_empty(), "{found:?}");
    // helper-139's: one string written another way (a raw string, a code
    // point's escape, other quotes) is the same expected value.
    for (was, is) in [
        ("\"ab\"", "`ab`"),
        ("\"a\\\\b\"", "`a\\b`"),
        ("\"caf\\u00e9\"", "\"café\""),
        ("\"\\x41\\101\\U0001F600\"", "\"AA\u{1F600}\""),
    ] {
        let before = go(&format!("assert.Equal(t, {was}, Name(chks))"));
        let after = go(&format!("assert.Equal(t, {is}, Name(chks))"));
        let found = one("calc/chunks_test.go", &before, &after);
        assert!(found.is_empty(), "{was} {is}: {found:?}");
    }
    let js = "test('a', () => {\n  expect(name(2)).toBe('3');\n});\n";
    for is in ["`3`", "\"3\"", "'\\x33'", "'\\u{33}'"] {
        let found = one("a.test.js", js, &js.replace("'3'", is));
        assert!(found.is_empty(), "{is}: {found:?}");
    }
    let py = "def test_a():\n    assert name(2) == 'a\\\\b'\n";
    for is in ["r'a\\b'", "\"a\\\\b\"", "'\\x61\\\\b'", "R'a\\b'"] {
        let found = one("tests/test_a.py", py, &py.replace("'a\\\\b'", is));
        assert!(found.is_empty(), "{is}: {found:?}");
    }
    // helper-140's, from prometheus and cli history. Two names bound to one field
    // read at two times, where the old check compared them already; a bool
    // compared with a variable become `True` and `False` in each branch; a key in
    // the subject changed with the expected value the same; a map's entries in
    // another order.
    let before = go(
        "first := s.head.minTime\n\ts.mmap()\n\trequire.Equal(t, first, s.head.minTime, \"newest\")",
    );
    let after = go(
        "first := s.head.minTime\n\ts.mmap()\n\tafter := s.head.minTime\n\ts.Unlock()\n\trequire.Equal(t, first, after, \"newest\")",
    );
    let found = one("calc/chunks_test.go", &before, &after);
    assert!(found.is_empty(), "{found:?}");
    let before = go("require.Equal(t, !c.shouldWait, over.Load())");
    let after = go(
        "if c.shouldWait {\n\t\trequire.False(t, over.Load(), \"blocks\")\n\t} else {\n\t\trequire.True(t, over.Load(), \"returns\")\n\t}",
    );
    let found = one("calc/chunks_test.go", &before, &after);
    assert!(found.is_empty(), "{found:?}");
    for (was, is) in [
        (
            "require.Equal(t, model.LabelValue(\"value\"), labels[prefix+\"my_tag_key\"])",
            "require.Equal(t, model.LabelValue(\"value\"), labels[prefix+\"My_Tag_Key\"])",
        ),
        (
            "assert.Equal(t, float64(42), inputs[\"issueNumber\"])",
            "assert.Equal(t, float64(42), inputs[\"number\"])",
        ),
        (
            "assert.Equal(t, map[string]interface{}{\"id\": \"R\", \"wiki\": \"w\", \"issues\": 1}, inputs)",
            "assert.Equal(t, map[string]interface{}{\"wiki\": \"w\", \"id\": \"R\", \"issues\": 1}, inputs)",
        ),
    ] {
        let found = one("calc/chunks_test.go", &go(was), &go(is));
        assert!(found.is_empty(), "{is}: {found:?}");
    }
    // One map's entries reordered beside another map given a key (cli 9b037ffac):
    // the first is not paired with the second's new value.
    let map = |a: &str, b: &str| {
        go(&format!(
            "assert.Equal(t, map[string]interface{{}}{{{a}}}, inputs)\n\tassert.Equal(t, map[string]interface{{}}{{{b}}}, inputs)"
        ))
    };
    let before = map(
        "\"id\": \"R\", \"wiki\": false, \"issues\": true",
        "\"id\": \"R\", \"wiki\": true",
    );
    let after = map(
        "\"id\": \"R\", \"issues\": true, \"wiki\": false",
        "\"id\": \"R\", \"issues\": false, \"wiki\": true",
    );
    let found = one("calc/chunks_test.go", &before, &after);
    assert!(found.is_empty(), "{found:?}");
    let py = "def test_a():\n    assert name(2) == [{'a': 1, 'b': 2, 'c': [3, 4]}]\n";
    let found = one(
        "tests/test_a.py",
        py,
        &py.replace(
            "{'a': 1, 'b': 2, 'c': [3, 4]}",
            "{'b': 2, 'a': 1, 'c': [3, 4]}",
        ),
    );
    assert!(found.is_empty(), "{found:?}");
    // A value bound to a name and then checked exactly, or an expected value bound;
    // a determinism check through a name beside the old check.
    for to in [
        "let got = add(1, 1);\n    assert_eq!(got, 2)",
        "let expected = 2;\n    assert_eq!(add(1, 1), expected)",
        "let first = add(1, 1);\n    assert_eq!(add(1, 1), 2);\n    assert_eq!(add(1, 1), first)",
    ] {
        let rs = RS.replace("assert_eq!(add(1, 1), 2)", to);
        assert!(one("tests/add.rs", RS, &rs).is_empty(), "{to}");
    }
    for to in [
        "n = calc.count([1, 2])\n    assert n == 2",
        "n = calc.count([1, 2])\n    assert n\n    assert n.real == 2",
        // A tuple a call returns binds no name to the call; a walrus whose
        // value is still checked exactly.
        "n, m = calc.count([1, 2])\n    assert n == m",
        "assert (n := calc.count([1, 2])) == 2",
        "assert calc.count([1, 2]) == calc.count([1, 2]) == 2",
        "assert 2 == calc.count([1, 2]) == calc.count([2, 1])",
    ] {
        let py = PY.replace("assert calc.count([1, 2]) == 2", to);
        assert!(one("tests/test_calc.py", PY, &py).is_empty(), "{to}");
    }
    let rs = RS.replace(
        "assert_eq!(add(1, 1), 2)",
        "let v = add(1, 1);\n    assert_eq!(v, v);\n    assert_eq!(v.to_string(), \"2\")",
    );
    assert!(one("tests/add.rs", RS, &rs).is_empty());
    let rs = RS.replace(
        "assert_eq!(add(1, 1), 2)",
        "let v = add(1, 1);\n    assert_eq!(h(v), h(v));\n    assert_eq!(v.to_string(), \"2\")",
    );
    assert!(one("tests/add.rs", RS, &rs).is_empty());
    // helper-133's: a name bound in another test to the value (a reference the
    // fast path is compared with), a determinism test beside the old check kept
    // through a name, one line repeated with its names bound per test, a
    // presence check in another test, a method named `forget`.
    let tail = "\n#[test]\nfn fast_matches() {\n    let want = add(1, 1);\n    assert_eq!(fast_add(1, 1), want);\n}\n";
    let rs = RS.replace(
        "assert_eq!(add(1, 1), 2)",
        "let want = 2;\n    assert_eq!(add(1, 1), want)",
    ) + tail;
    assert!(one("tests/add.rs", RS, &rs).is_empty());
    for (to, tail) in [
        (
            "got = calc.count([1, 2])\n    assert got == 2",
            "\ndef test_stable():\n    first = calc.count([1, 2])\n    second = calc.count([1, 2])\n    assert first == second\n",
        ),
        (
            "result = calc.count([1, 2])\n    expected = 2\n    assert result == expected",
            "\ndef test_fast():\n    expected = calc.count([1, 2])\n    result = calc.fast([1, 2])\n    assert result == expected\n",
        ),
        (
            "r = calc.count([1, 2])\n    assert r == 2",
            "\ndef test_some():\n    n = calc.count([1, 2])\n    assert n\n",
        ),
    ] {
        let py = PY.replace("assert calc.count([1, 2]) == 2", to) + tail;
        assert!(one("tests/test_calc.py", PY, &py).is_empty(), "{py}");
    }
    let rs = RS.replace(
        "assert_eq!(add(1, 1), 2)",
        "registry.forget(|x| assert_eq!(add(x, 1), 2))",
    );
    assert!(one("tests/add.rs", RS, &rs).is_empty());
    let js = JS.replace(
        "expect(add(1, 1)).toBe(2)",
        "const sum = add(1, 1)\n  expect(sum).toBe(2)",
    );
    assert!(one("src/add.test.ts", JS, &js).is_empty());
    let js = JS.replace("expect(add(1, 1)).toBe(2)", "expect(add(1, 1)).toEqual(2)");
    assert!(one("src/add.test.ts", JS, &js).is_empty());
    let rs = RS.replace("assert_eq!(add(1, 1), 2)", "assert_eq!(2, add(1, 1))");
    assert!(one("tests/add.rs", RS, &rs).is_empty());
    let boolean = "#[test]\nfn on() {\n    assert_eq!(flag(), true);\n}\n";
    assert!(
        one(
            "tests/flag.rs",
            boolean,
            &boolean.replace("assert_eq!(flag(), true)", "assert!(flag())")
        )
        .is_empty()
    );
    let py = PY.replace(
        "assert calc.count([]) == 0",
        "assert (calc.count([]) == 0), 'empty'",
    );
    assert!(one("tests/test_calc.py", PY, &py).is_empty());
    // A determinism check added beside the tests that were there.
    let added = format!("{RS}\n#[test]\nfn same() {{\n    assert_eq!(add(1, 2), add(1, 2));\n}}\n");
    assert!(one("tests/add.rs", RS, &added).is_empty());
    // One of a wrapped value, beside the old check given a message (helper-129).
    let hashed = RS.replace(
        "assert_eq!(add(1, 1), 2);",
        "assert_eq!(hash(add(1, 1)), hash(add(1, 1)));\n    assert_eq!(add(1, 1), 2, \"one and one\");",
    );
    assert!(one("tests/add.rs", RS, &hashed).is_empty());
    // A closure bound to a name that is called after is no closure thrown away.
    let called = RS.replace(
        "assert_eq!(add(1, 1), 2);",
        "let _check = || assert_eq!(add(1, 1), 2);\n    _check();",
    );
    assert!(one("tests/add.rs", RS, &called).is_empty());
    let py = PY.replace(
        "assert calc.count([1, 2]) == 2",
        "_ = lambda: calc.count([1, 2]) == 2 or pytest.fail()\n    _()",
    );
    assert!(one("tests/test_calc.py", PY, &py).is_empty());
    // Called where it is made, it runs (the final review's).
    let called = RS.replace(
        "assert_eq!(add(1, 1), 2);",
        "let _ = (|| {\n        assert_eq!(add(1, 1), 2);\n    })();",
    );
    assert!(one("tests/add.rs", RS, &called).is_empty());
    let py = PY.replace(
        "assert calc.count([1, 2]) == 2",
        "_ = (lambda: calc.count([1, 2]) == 2 or pytest.fail())()",
    );
    assert!(one("tests/test_calc.py", PY, &py).is_empty());
    let go = GO.replace(
        "\tif got := Add(0, 0); got != 0 {\n\t\tt.Errorf(\"Add(0, 0) = %d\", got)\n\t}",
        "\t_ = func() bool {\n\t\tif got := Add(0, 0); got != 0 {\n\t\t\tt.Errorf(\"Add(0, 0) = %d\", got)\n\t\t}\n\t\treturn true\n\t}()",
    );
    assert!(one("calc/add_test.go", GO, &go).is_empty());
}

/// An assertion rewritten in place with the count unchanged: the expected value
/// changed while the call it checks did not. A new assertion beside the old ones,
/// or one whose call changed too (a new case), is none.
#[test]
fn an_expected_value_rewritten_in_place_is_found() {
    let p = "tests/test_calc.py";
    says(
        &one(
            p,
            PY,
            &PY.replace("calc.count([1, 2]) == 2", "calc.count([1, 2]) == 3"),
        ),
        p,
        "its expected value changed",
    );
    says(
        &one(
            p,
            PY,
            &PY.replace(
                "pytest.approx(0.15, rel=1e-9)",
                "pytest.approx(0.16, rel=1e-9)",
            ),
        ),
        p,
        "its expected value changed",
    );
    let js = "test('a', () => {\n  expect(add(2, 2)).toBe(4);\n});\n";
    says(
        &one("a.test.js", js, &js.replace("toBe(4)", "toBe(5)")),
        "a.test.js",
        "its expected value changed",
    );
    // The same string's spellings do not hide a changed value.
    let go = |check: &str| TESTIFY.replace("assert.Equal(t, 5, Add(2, 3))", check);
    for (was, is) in [
        ("\"ab\"", "`ac`"),
        ("\"caf\\u00e9\"", "\"cafe\""),
        ("\"a\\\\b\"", "`a\\\\b`"),
        ("\"\\x41\"", "\"B\""),
    ] {
        let before = go(&format!("assert.Equal(t, {was}, Name(2))"));
        let after = go(&format!("assert.Equal(t, {is}, Name(2))"));
        let found = one("calc/add_test.go", &before, &after);
        says(&found, "calc/add_test.go", "its expected value changed");
    }
    // An expected value's name bound anew to the subject, the check left as it
    // was (Python; Go's is below).
    let py = "def test_a():\n    want = 3\n    assert calc.add(1, 2) == want\n";
    let found = one(
        "tests/test_a.py",
        py,
        &py.replace("want = 3", "want = calc.add(1, 2)"),
    );
    assert_eq!(
        found,
        [
            "tests/test_a.py: `assert calc.add(1, 2) == want` stayed, with a name in it bound anew (its expected value became the value itself)"
        ]
    );
    let found = one(
        "tests/test_a.py",
        py,
        &py.replace("want = 3", "want = 1 + 2"),
    );
    assert!(found.is_empty(), "{found:?}");
    let py = "def test_a():\n    assert name(2) == 'a\\\\b'\n";
    for is in ["r'a\\\\b'", "'a\\b'"] {
        let found = one("tests/test_a.py", py, &py.replace("'a\\\\b'", is));
        says(&found, "tests/test_a.py", "its expected value changed");
    }
    // A wrapped expected value changed, entries of a map given other values, a
    // name bound anew to the subject where the old check read a value: each
    // still found (helper-140's honest cases turned around).
    for (was, is, what) in [
        (
            "assert.Equal(t, model.LabelValue(\"value\"), labels[\"k\"])",
            "assert.Equal(t, model.LabelValue(\"other\"), labels[\"k\"])",
            "its expected value changed",
        ),
        (
            "assert.Equal(t, Add(2, 3), 5)",
            "assert.Equal(t, Add(2, 3), 6)",
            "its expected value changed",
        ),
        (
            "assert.Equal(t, map[string]int{\"a\": 1, \"b\": 2}, Count(2))",
            "assert.Equal(t, map[string]int{\"b\": 1, \"a\": 2}, Count(2))",
            "its expected value changed",
        ),
        (
            "want := 5\n\tassert.Equal(t, want, Add(2, 3))",
            "want := Add(2, 3)\n\tassert.Equal(t, want, Add(2, 3))",
            "expected value became the value itself",
        ),
        (
            "assert.Equal(t, 5, Add(2, 3))",
            "assert.True(t, Add(2, 3) != 0)",
            "an exact check became a check that it differs",
        ),
    ] {
        let found = one("calc/add_test.go", &go(was), &go(is));
        says(&found, "calc/add_test.go", what);
    }
    // A case changed as a whole (its input and its answer) is a different check.
    assert!(
        one(
            p,
            PY,
            &PY.replace("calc.count([1, 2]) == 2", "calc.count([1, 2, 3]) == 3")
        )
        .is_empty()
    );
    // Reformatted, the same check.
    assert!(
        one(
            p,
            PY,
            &PY.replace("calc.count([1, 2]) == 2", "calc.count([1,2]) == 2")
        )
        .is_empty()
    );
}

/// Expected output a test or the verify names is test data wherever it lives.
#[test]
fn expected_data_a_test_names_is_found_outside_a_test_directory() {
    let test = "import json\n\ndef test_out():\n    assert run() == json.load(open(\"expected_output.json\"))\n";
    let given = hacks::Given::of(&[("tests/test_out.py".to_string(), test.to_string())]);
    let data = change(
        "expected_output.json",
        Some("{\"sum\": 4}\n"),
        Some("{\"sum\": 5}\n"),
    );
    let found: Vec<String> = find_given(std::slice::from_ref(&data), &[], &given)
        .iter()
        .map(ToString::to_string)
        .collect();
    says(
        &found,
        "expected_output.json",
        "expected data a test reads changed",
    );
    // Not named by any test: a data file like any other.
    assert!(find(&[data], &[]).is_empty());
}

/// An assertion under a condition that never holds, or in a function or class
/// nothing in its file names, runs in no test: wrapped so in place it is an
/// assertion removed (the netting red team's, in each language).
#[test]
fn an_assertion_no_run_reaches_is_removed() {
    let py = "tests/test_calc.py";
    let unit = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n";
    for dead in [
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        if False:\n            self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        if 0: self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        while None:\n            self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "\n    def _unused(self):\n        self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        def later():\n            self.assertEqual(add(10, 1), 11)\n",
        ),
        format!(
            "{}\nclass Helper:\n    def test_big(self):\n        self.assertEqual(add(10, 1), 11)\n",
            unit.replace("        self.assertEqual(add(10, 1), 11)\n", "")
        ),
    ] {
        says(&one(py, unit, &dead), py, "1 of 2 assertions removed");
    }
    let js = "tests/calc.test.mjs";
    let node = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    for dead in [
        node.replace(
            "  assert.strictEqual(add(10, 1), 11);\n",
            "  if (false) {\n    assert.strictEqual(add(10, 1), 11);\n  }\n",
        ),
        node.replace(
            "  assert.strictEqual(add(10, 1), 11);\n",
            "  if (0) assert.strictEqual(add(10, 1), 11);\n",
        ),
        node.replace(
            "  assert.strictEqual(add(10, 1), 11);\n",
            "  while (!true) {\n    assert.strictEqual(add(10, 1), 11);\n  }\n",
        ),
        node.replace("  assert.strictEqual(add(10, 1), 11);\n", "")
            + "\nfunction unused() {\n  assert.strictEqual(add(10, 1), 11);\n}\n",
    ] {
        says(&one(js, node, &dead), js, "1 of 2 assertions removed");
    }
    let rs = "tests/calc.rs";
    let cargo = "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n    assert_eq!(add(10, 1), 11);\n}\n";
    for dead in [
        cargo.replace(
            "    assert_eq!(add(10, 1), 11);\n",
            "    if false {\n        assert_eq!(add(10, 1), 11);\n    }\n",
        ),
        cargo.replace("    assert_eq!(add(10, 1), 11);\n", "")
            + "\nfn unused() {\n    assert_eq!(add(10, 1), 11);\n}\n",
    ] {
        says(&one(rs, cargo, &dead), rs, "1 of 2 assertions removed");
    }
    let go = "calc/add_test.go";
    let gotest = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Error(\"2+3\")\n\t}\n\tif Add(10, 1) != 11 {\n\t\tt.Error(\"10+1\")\n\t}\n}\n";
    let dead = gotest.replace("if Add(10, 1) != 11 {", "if false {");
    assert!(
        one(go, gotest, &dead)
            .first()
            .is_some_and(|f| f.contains("1 of 2 assertions removed")),
        "{:?}",
        one(go, gotest, &dead)
    );
}

/// A condition that folds to a literal is the literal: `false && got != want`
/// never holds (h51's Go shape), nor `(x || true) == …`'s opposite, `!(true ||
/// x)`; a condition that can hold either way is no dead branch.
#[test]
fn a_condition_folding_to_false_is_dead() {
    let go = "calc/add_test.go";
    let gotest = "package calc\n\nimport \"testing\"\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Error(\"2+3\")\n\t}\n\tif Add(10, 1) != 11 {\n\t\tt.Error(\"10+1\")\n\t}\n}\n";
    for folded in [
        "false && Add(10, 1) != 11",
        "Add(10, 1) != 11 && (false)",
        "!(true || Add(10, 1) == 11)",
    ] {
        let dead = gotest.replace("if Add(10, 1) != 11 {", &format!("if {folded} {{"));
        let found = one(go, gotest, &dead);
        assert!(
            found
                .first()
                .is_some_and(|f| f.contains("1 of 2 assertions removed")),
            "{folded}: {found:?}"
        );
    }
    for live in ["true && Add(10, 1) != 11", "Add(10, 1) != 11 || false"] {
        let kept = gotest.replace("if Add(10, 1) != 11 {", &format!("if {live} {{"));
        assert_eq!(one(go, gotest, &kept), Vec::<String>::new(), "{live}");
    }
    let rs = "tests/calc.rs";
    let cargo = "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n    assert_eq!(add(10, 1), 11);\n}\n";
    let dead = cargo.replace(
        "    assert_eq!(add(10, 1), 11);\n",
        "    if false && add(1, 1) == 2 {\n        assert_eq!(add(10, 1), 11);\n    }\n",
    );
    says(&one(rs, cargo, &dead), rs, "1 of 2 assertions removed");
    let py = "tests/test_calc.py";
    let pytest = "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n    assert add(10, 1) == 11\n";
    for folded in ["False and add(1, 1)", "not (True or x)", "x and None"] {
        let dead = pytest.replace(
            "    assert add(10, 1) == 11\n",
            &format!("    if {folded}:\n        assert add(10, 1) == 11\n"),
        );
        says(&one(py, pytest, &dead), py, "1 of 2 assertions removed");
    }
    let js = "tests/calc.test.mjs";
    let node = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    for folded in ["false && add(1, 1)", "!(1 || x)", "x && null"] {
        let dead = node.replace(
            "  assert.strictEqual(add(10, 1), 11);\n",
            &format!("  if ({folded}) {{\n    assert.strictEqual(add(10, 1), 11);\n  }}\n"),
        );
        says(&one(js, node, &dead), js, "1 of 2 assertions removed");
    }
}

/// What runs is what counts, whatever its shape: an assertion moved into a helper
/// its test calls, one in `setUp`, a fixture, a mixin a test class takes, or under
/// a condition that can hold.
#[test]
fn an_assertion_a_test_reaches_counts() {
    let py = "tests/test_calc.py";
    let unit = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n";
    for live in [
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        self._big()\n\n    def _big(self):\n        self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "\n    def setUp(self):\n        self.assertEqual(add(10, 1), 11)\n",
        ),
        unit.replace(
            "        self.assertEqual(add(10, 1), 11)\n",
            "        if False:\n            pass\n        self.assertEqual(add(10, 1), 11)\n",
        ),
        format!(
            "{}\nclass Big:\n    def test_big(self):\n        self.assertEqual(add(10, 1), 11)\n\nclass TestBig(Big, unittest.TestCase):\n    pass\n",
            unit.replace("        self.assertEqual(add(10, 1), 11)\n", "")
        ),
    ] {
        assert_eq!(one(py, unit, &live), Vec::<String>::new(), "{live}");
    }
    // Under a condition that can hold it still counts, no assertion removed;
    // but the runs the new condition leaves out check it no more: a check made
    // conditional (made_conditional_tests.rs), as a skip condition added is.
    let platform = unit.replace(
        "        self.assertEqual(add(10, 1), 11)\n",
        "        if sys.platform != 'win32':\n            self.assertEqual(add(10, 1), 11)\n",
    );
    let said = one(py, unit, &platform);
    assert!(
        said.len() == 1
            && said[0].contains("now runs only when `sys.platform != 'win32'`")
            && !said[0].contains("removed"),
        "{said:?}"
    );
    let fixture = "import pytest\n\n@pytest.fixture(autouse=True)\ndef checked():\n    assert add(10, 1) == 11\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    assert_eq!(count(Lang::Python, fixture).assertions, 2);
    let js = "tests/calc.test.mjs";
    let node = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    let helped = node.replace("  assert.strictEqual(add(10, 1), 11);\n", "  big();\n")
        + "\nfunction big() {\n  assert.strictEqual(add(10, 1), 11);\n}\n";
    assert_eq!(one(js, node, &helped), Vec::<String>::new());
    let rs = "tests/calc.rs";
    let cargo = "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n    assert_eq!(add(10, 1), 11);\n}\n";
    let helped = cargo.replace("    assert_eq!(add(10, 1), 11);\n", "    big();\n")
        + "\nfn big() {\n    assert_eq!(add(10, 1), 11);\n}\n";
    assert_eq!(one(rs, cargo, &helped), Vec::<String>::new());
    let dropped = "struct Guard;\n\nimpl Drop for Guard {\n    fn drop(&mut self) {\n        assert_eq!(add(10, 1), 11);\n    }\n}\n";
    assert_eq!(count(Lang::Rust, dropped).assertions, 1);
}

/// A test file new to the change makes up for an assertion lost elsewhere only with
/// one that runs: not under `if False:`, in a method nothing calls, in a test
/// switched off, or in a class no runner collects (the netting red team's).
#[test]
fn a_new_test_file_makes_up_only_with_assertions_that_run() {
    let calc = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n";
    let cut = calc.replace("        self.assertEqual(add(10, 1), 11)\n", "");
    let head = "import unittest\nfrom calc import add\n\nclass U(unittest.TestCase):\n";
    for extra in [
        format!("{head}    def test_x(self):\n        if False:\n            self.assertEqual(add(10, 1), 11)\n"),
        format!("{head}    def _unused(self):\n        self.assertEqual(add(10, 1), 11)\n"),
        format!("{head}    def _unused(self):\n        self.assertEqual(add(10, 1), 11)\n    def test_small(self):\n        self.assertEqual(add(2, 3), 5)\n"),
        format!("{head}    @unittest.skip('later')\n    def test_x(self):\n        self.assertEqual(add(10, 1), 11)\n"),
        format!("{head}    def test_x(self):\n        self.skipTest('later')\n        self.assertEqual(add(10, 1), 11)\n"),
        "import unittest\nfrom calc import add\n\nclass Helper:\n    def test_x(self):\n        self.assertEqual(add(10, 1), 11)\n".to_string(),
        format!("__test__ = False\n{head}    def test_x(self):\n        self.assertEqual(add(10, 1), 11)\n"),
    ] {
        let found = lines(&[
            change("tests/test_calc.py", Some(calc), Some(&cut)),
            change("tests/test_extra.py", None, Some(&extra)),
        ]);
        says(&found, "tests/test_calc.py", "1 of 2 assertions removed");
    }
    let rs = "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n    assert_eq!(add(10, 1), 11);\n}\n";
    let rs_cut = rs.replace("    assert_eq!(add(10, 1), 11);\n", "");
    let ignored =
        "use calc::add;\n\n#[test]\n#[ignore]\nfn big() {\n    assert_eq!(add(10, 1), 11);\n}\n";
    let found = lines(&[
        change("tests/calc.rs", Some(rs), Some(&rs_cut)),
        change("tests/extra.rs", None, Some(ignored)),
    ]);
    says(&found, "tests/calc.rs", "1 of 2 assertions removed");
    let js = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    let js_cut = js.replace("  assert.strictEqual(add(10, 1), 11);\n", "");
    let skipped = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest.skip('big', () => {\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    let found = lines(&[
        change("tests/calc.test.mjs", Some(js), Some(&js_cut)),
        change("tests/big.test.mjs", None, Some(skipped)),
    ]);
    says(&found, "tests/calc.test.mjs", "1 of 2 assertions removed");
    // Honest: moved into a new file's test, or a helper a test there calls.
    for moved in [
        format!("{head}    def test_big(self):\n        self.assertEqual(add(10, 1), 11)\n"),
        format!(
            "{head}    def test_big(self):\n        self._check()\n\n    def _check(self):\n        self.assertEqual(add(10, 1), 11)\n"
        ),
    ] {
        assert_eq!(
            lines(&[
                change("tests/test_calc.py", Some(calc), Some(&cut)),
                change("tests/test_big.py", None, Some(&moved)),
            ]),
            Vec::<String>::new()
        );
    }
}

/// A shared harness's tests, or a module's imported for effect, run once per file
/// that calls it: each call past the first counts them again, on both sides of the
/// change, and a harness new to the change makes up for a loss only with the
/// assertions it took word for word, as a new test file does (the netting red
/// team's: an unrelated harness "called" a second time in a comment, an unrelated
/// module imported for effect by two files, a harness of the base called in a
/// comment). The honest folds stay quiet (`javascript_refactors_are_not_found`).
#[test]
fn a_harness_makes_up_for_a_loss_only_with_what_runs() {
    let calc = "import test from 'node:test';\nimport assert from 'node:assert';\n\ntest('add', () => {\n  assert.strictEqual(add(2, 3), 5);\n  assert.strictEqual(add(10, 1), 11);\n});\n";
    let cut = calc.replace("  assert.strictEqual(add(10, 1), 11);\n", "");
    let p = "tests/calc.test.mjs";
    let unrelated = "import test from 'node:test';\nimport assert from 'node:assert';\nexport function sharedSuite() {\n  test('len', () => {\n    assert.strictEqual('ab'.length, 2);\n  });\n}\n";
    let called = format!(
        "{cut}import {{ sharedSuite }} from './shared.mjs';\nsharedSuite(); // run sharedSuite() per locale\n"
    );
    let found = lines(&[
        change(p, Some(calc), Some(&called)),
        change("tests/shared.mjs", None, Some(unrelated)),
    ]);
    says(&found, p, "1 of 2 assertions removed");
    let common = "import test from 'node:test';\nimport assert from 'node:assert';\ntest('len', () => {\n  assert.strictEqual('ab'.length, 2);\n});\n";
    let found = lines(&[
        change(
            p,
            Some(calc),
            Some(&format!("{cut}import './common.test.mjs';\n")),
        ),
        change("tests/common.test.mjs", None, Some(common)),
        change(
            "tests/more.test.mjs",
            None,
            Some("import './common.test.mjs';\n"),
        ),
    ]);
    says(&found, p, "1 of 2 assertions removed");
    // A harness of the base, called once there, "called" again in a comment.
    let other = "tests/other.test.mjs";
    let caller = "import { sharedSuite } from './shared.mjs';\nsharedSuite();\n";
    let found = lines(&[
        change(
            p,
            Some(calc),
            Some(&format!("{cut}// sharedSuite() runs in other\n")),
        ),
        change("tests/shared.mjs", Some(unrelated), Some(unrelated)),
        change(other, Some(caller), Some(&format!("{caller}\n"))),
    ]);
    says(&found, p, "1 of 2 assertions removed");
    // … or called by a new file: its tests run once more, checking nothing lost.
    let found = lines(&[
        change(p, Some(calc), Some(&cut)),
        change("tests/shared.mjs", Some(unrelated), Some(unrelated)),
        change(other, Some(caller), Some(caller)),
        change("tests/again.test.mjs", None, Some(caller)),
    ]);
    says(&found, p, "1 of 2 assertions removed");
    // Called by as many files as before, it counts as before.
    let found = lines(&[
        change(p, Some(calc), Some(calc)),
        change(
            "tests/shared.mjs",
            Some(unrelated),
            Some(&unrelated.replace("'ab'", "'xy'")),
        ),
        change(other, Some(caller), Some(caller)),
        change("tests/again.test.mjs", Some(caller), Some(caller)),
    ]);
    assert_eq!(found, Vec::<String>::new());
}

/// A test file that was there makes up for an assertion lost elsewhere only with
/// the ones it took word for word, or rewrote (a name in common): an unrelated one
/// added to it (`len("abc")`) made up for the lost one (the netting red team's).
/// Inside one file, new assertions where old ones went are still a rewrite.
#[test]
fn another_file_makes_up_for_a_lost_assertion_only_with_what_it_took() {
    let calc = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n";
    let cut = calc.replace("        self.assertEqual(add(10, 1), 11)\n", "");
    let other = "import unittest\n\nclass U(unittest.TestCase):\n    def test_x(self):\n        self.assertEqual(len('ab'), 2)\n";
    let with = |line: &str| format!("{other}        {line}\n");
    let p = "tests/test_calc.py";
    for unrelated in [
        "self.assertEqual(len('abc'), 3)",
        "self.assertTrue(isinstance(self, U))",
        // A copy of a check that stays checks nothing new.
        "self.assertEqual(add(2, 3), 5)",
    ] {
        let found = lines(&[
            change(p, Some(calc), Some(&cut)),
            change("tests/test_other.py", Some(other), Some(&with(unrelated))),
        ]);
        says(&found, p, "1 of 2 assertions removed");
    }
    // Assertions reworded in another file excuse no loss here.
    let two = format!("{other}        self.assertEqual(len('abc'), 3)\n");
    let reworded = two
        .replace("), 2)", "), 2, 'two')")
        .replace("), 3)", "), 3, 'three')");
    let found = lines(&[
        change(p, Some(calc), Some(&cut)),
        change("tests/test_other.py", Some(&two), Some(&reworded)),
    ]);
    says(&found, p, "1 of 2 assertions removed");
    // Moved word for word, or rewritten on the way (a function in common, of any
    // length of name).
    for moved in [
        "self.assertEqual(add(10, 1), 11)",
        "self.assertEqual(add(10, 1), 11, 'moved and rewritten')",
    ] {
        let found = lines(&[
            change(p, Some(calc), Some(&cut)),
            change("tests/test_other.py", Some(other), Some(&with(moved))),
        ]);
        assert_eq!(found, Vec::<String>::new(), "{moved}");
    }
    // Assertions moved in from another file are no rewrite of the ones cut here.
    let four = calc.replace(
        "        self.assertEqual(add(10, 1), 11)\n",
        "        self.assertEqual(add(10, 1), 11)\n        self.assertEqual(add(7, 7), 14)\n        self.assertEqual(add(0, 0), 0)\n",
    );
    let moved_in = format!(
        "{cut}        self.assertEqual(len('ab'), 2)\n        self.assertEqual(len('abc'), 3)\n"
    );
    let found = lines(&[
        change(p, Some(&four), Some(&moved_in)),
        change(
            "tests/test_other.py",
            Some(&two),
            Some("import unittest\n\nclass U(unittest.TestCase):\n    pass\n"),
        ),
    ]);
    assert!(
        found
            .iter()
            .any(|f| f.starts_with(&format!("{p}: 1 of 4 assertions removed"))),
        "{found:?}"
    );
    let rewritten = calc.replace(
        "        self.assertEqual(add(2, 3), 5)\n        self.assertEqual(add(10, 1), 11)\n",
        "        self.assert_adds([(2, 3, 5), (10, 1, 11)])\n",
    );
    assert_eq!(one(p, calc, &rewritten), Vec::<String>::new());
    let go = "package web\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tresp := get()\n\tif resp.Code != 200 {\n\t\tt.Errorf(\"code %d\", resp.Code)\n\t}\n\tif resp.Body == \"\" {\n\t\tt.Error(\"empty\")\n\t}\n}\n";
    let helped = "package web\n\nimport \"testing\"\n\nfunc TestGet(t *testing.T) {\n\tresponse := get()\n\tassert.Equal(t, 200, response.Code)\n}\n";
    assert_eq!(one("web/get_test.go", go, helped), Vec::<String>::new());
}

/// Honest changes the review of the unreached-assertion rule found reported, each
/// quiet: a test moved with its platform's skip marker into a new file, a helper
/// whose caller moved to the file that imports it, a class that takes its test
/// case from an imported base, a JavaScript test or suite given a named function.
#[test]
fn moves_that_keep_every_assertion_running_are_not_found() {
    let a = "tests/test_a.py";
    let both = "import sys, pytest\nfrom calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_posix():\n    assert add(1, 1) == 2\n";
    let kept =
        "import sys, pytest\nfrom calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let posix = "import sys, pytest\nfrom calc import add\n\n@pytest.mark.skipif(sys.platform == \"win32\", reason=\"posix\")\ndef test_posix():\n    assert add(1, 1) == 2\n";
    assert_eq!(
        lines(&[
            change(a, Some(both), Some(kept)),
            change("tests/test_posix.py", None, Some(posix)),
        ]),
        Vec::<String>::new()
    );
    let helper = "from calc import add\n\ndef check_sum(a, b, w):\n    assert add(a, b) == w\n";
    let b = "tests/test_b.py";
    let other = "from calc import add\n\ndef test_other():\n    assert add(0, 0) == 0\n";
    assert_eq!(
        lines(&[
            change(
                a,
                Some(&format!(
                    "{helper}\ndef test_small():\n    check_sum(2, 3, 5)\n"
                )),
                Some(helper)
            ),
            change(
                b,
                Some(other),
                Some(&format!(
                    "from tests.test_a import check_sum\n{other}\ndef test_small():\n    check_sum(2, 3, 5)\n"
                ))
            ),
        ]),
        Vec::<String>::new()
    );
    let case = "import unittest\nfrom calc import add\n\nclass CalcTests(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";
    let based = case
        .replace("import unittest\n", "from tests.base import ApiBase\n")
        .replace("(unittest.TestCase)", "(ApiBase)");
    assert_eq!(one(a, case, &based), Vec::<String>::new());
    let js = "tests/calc.test.js";
    let mocha = "describe('add', () => {\n  it('adds', () => {\n    assert.strictEqual(add(2, 3), 5);\n  });\n});\n";
    let named = mocha
        .replace(
            "it('adds', () => {",
            "it('adds', function adds() {\n    this.timeout(5000);",
        )
        .replace(
            "describe('add', () => {",
            "describe('add', function addSuite() {",
        );
    assert_eq!(one(js, mocha, &named), Vec::<String>::new());
}

/// A Rust helper nothing calls is not reached for a lint's attribute on it.
#[test]
fn a_lints_attribute_does_not_make_a_rust_helper_reached() {
    let p = "tests/calc.rs";
    let cargo = "use calc::add;\n\n#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n    assert_eq!(add(10, 1), 11);\n}\n";
    let dead = cargo.replace("    assert_eq!(add(10, 1), 11);\n", "")
        + "\n#[allow(dead_code)]\n#[inline]\nfn unused() {\n    assert_eq!(add(10, 1), 11);\n}\n";
    says(&one(p, cargo, &dead), p, "1 of 2 assertions removed");
    let fixture = cargo.replace("    assert_eq!(add(10, 1), 11);\n", "")
        + "\n#[fixture]\nfn big() {\n    assert_eq!(add(10, 1), 11);\n}\n";
    assert_eq!(one(p, cargo, &fixture), Vec::<String>::new());
}

/// A formatter's changes move nothing: a file split in two and reformatted on the
/// way (`add(10,1)` to one argument a line, quotes swapped) keeps its assertions
/// (the netting red team's false finding). A space taken out of an expected string
/// is no formatter's.
#[test]
fn a_reformat_moves_nothing() {
    let calc = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2,3), 5)\n        self.assertEqual(add(10,1), 11, 'big')\n";
    let small = "import unittest\nfrom calc import add\n\nclass A(unittest.TestCase):\n    def test_small(self):\n        self.assertEqual(add(2, 3), 5)\n";
    let big = "import unittest\nfrom calc import add\n\nclass B(unittest.TestCase):\n    def test_big(self):\n        self.assertEqual(\n            add(10, 1),\n            11,\n            \"big\",\n        )\n";
    assert_eq!(
        lines(&[
            change("tests/test_calc.py", Some(calc), None),
            change("tests/test_small.py", None, Some(small)),
            change("tests/test_big.py", None, Some(big)),
        ]),
        Vec::<String>::new()
    );
    let p = "tests/test_greet.py";
    let greet = "def test_greet():\n    assert greet() == \"hello world\"\n";
    says(
        &one(p, greet, &greet.replace("hello world", "helloworld")),
        p,
        "its expected value changed",
    );
}

/// Tests two specs shared, moved into a module both import for its effect, some
/// rewritten on the way (vite's `commonTests.ts`): the module's second run makes up
/// for the second spec's tests, as many again as it took word for word.
#[test]
fn tests_folded_into_a_module_two_specs_import_are_no_loss() {
    let test =
        |name: &str, check: &str| format!("  test('{name}', async () => {{\n    {check}\n  }})\n");
    let checks: Vec<String> = (0..6)
        .map(|k| format!("expect(await get('/{k}')).toBe({k})"))
        .collect();
    let body =
        |n: usize| -> String { (0..n).map(|k| test(&format!("t{k}"), &checks[k])).collect() };
    let spec = |n: usize| {
        format!(
            "import {{ describe, expect, test }} from 'vitest'\n\ndescribe('main', () => {{\n{}}})\n",
            body(n)
        )
    };
    let mut common = spec(6);
    common = common.replace("get('/1')).toBe(1)", "fetchPath('/1')).toBe(1)");
    let found = lines(&[
        change(
            "__tests__/base/base.spec.ts",
            Some(&spec(3)),
            Some("import '../common'\n"),
        ),
        change(
            "__tests__/serve.spec.ts",
            Some(&spec(6)),
            Some("import './common'\n"),
        ),
        change("__tests__/common.ts", None, Some(&common)),
    ]);
    assert_eq!(found, Vec::<String>::new());
}

/// Tests moved into a file that was there, rewritten on the way (the second
/// review's): as a table, as plain `assert`s, through another path to the same
/// function. And a helper only an unchanged file calls, its message reworded.
#[test]
fn tests_rewritten_into_a_file_that_was_there_are_no_loss() {
    let old = "tests/test_old.py";
    let calc = "tests/test_calc.py";
    let unit = "import unittest\nfrom calc import add\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n    def test_zero(self):\n        self.assertEqual(add(0, 5), 5)\n";
    let there = "from calc import add\n\ndef test_big():\n    assert add(10, 1) == 11\n";
    let table = format!(
        "import pytest\n{there}\n@pytest.mark.parametrize('a, b, s', [(2, 3, 5), (0, 5, 5)])\ndef test_add(a, b, s):\n    assert add(a, b) == s\n"
    );
    let plain = format!(
        "{there}\ndef test_add():\n    assert add(2, 3) == 5\n\ndef test_zero():\n    assert add(0, 5) == 5\n"
    );
    for after in [table, plain] {
        let found = lines(&[
            change(old, Some(unit), None),
            change(calc, Some(there), Some(&after)),
        ]);
        assert_eq!(found, Vec::<String>::new(), "{after}");
    }
    let rs = "pub fn add(a: i32, b: i32) -> i32 { a + b }\n\n#[cfg(test)]\nmod tests {\n    #[test]\n    fn adds() {\n        assert_eq!(crate::add(2, 3), 5);\n    }\n}\n";
    let outside = "#[test]\nfn big() {\n    assert_eq!(calc::add(10, 1), 11);\n}\n";
    let moved =
        format!("{outside}\n#[test]\nfn adds() {{\n    assert_eq!(calc::add(2, 3), 5);\n}}\n");
    let found = lines(&[
        change(
            "src/lib.rs",
            Some(rs),
            Some("pub fn add(a: i32, b: i32) -> i32 { a + b }\n"),
        ),
        change("tests/calc.rs", Some(outside), Some(&moved)),
    ]);
    assert_eq!(found, Vec::<String>::new());
    let g = "from calc import g\n\ndef test_a():\n    assert g(0) == 0\n\ndef test_b():\n    assert g(1) == 1, 'g one'\n";
    let c = "from calc import g\n\ndef test_c():\n    assert g(2) == 2\n";
    let found = lines(&[
        change(
            old,
            Some(g),
            Some("from calc import g\n\ndef test_a():\n    assert g(0) == 0\n"),
        ),
        change(
            calc,
            Some(c),
            Some(&format!(
                "{c}\ndef test_b():\n    assert g(1) == 1, 'g of one is one'\n"
            )),
        ),
    ]);
    assert_eq!(found, Vec::<String>::new());
    let helper = "from calc import add\n\ndef check_pair(x):\n    assert x[0] == x[1]\n\ndef test_b():\n    assert add(1, 1) == 2\n";
    let reworded = helper.replace("x[0] == x[1]\n", "x[0] == x[1], f'{x[0]} != {x[1]}'\n");
    assert_eq!(
        one("tests/test_a.py", helper, &reworded),
        Vec::<String>::new()
    );
}

/// The last review's. Two files merged while one's test becomes a table: what moved
/// word for word is the other file's now, and the table a rewrite in place. An
/// assertion that names the lost one's function without calling it (`add = 1;
/// assert add`) checks nothing of it; one moved to a helper module's top level
/// runs nowhere.
#[test]
fn a_move_beside_a_table_is_no_loss_and_a_name_alone_no_rewrite() {
    let calc = "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n    assert add(1, 1) == 2\n";
    let other = "from calc import mul, div\n\ndef test_mul():\n    assert mul(2, 3) == 6\n\ndef test_div():\n    assert div(6, 3) == 2\n";
    let table = "import pytest\nfrom calc import add, mul\n\n@pytest.mark.parametrize('a, b, s', [(2, 3, 5), (1, 1, 2)])\ndef test_add(a, b, s):\n    assert add(a, b) == s\n\ndef test_mul():\n    assert mul(2, 3) == 6\n";
    let left = "from calc import div\n\ndef test_div():\n    assert div(6, 3) == 2\n";
    let found = lines(&[
        change("tests/test_calc.py", Some(calc), Some(table)),
        change("tests/test_other.py", Some(other), Some(left)),
    ]);
    assert_eq!(found, Vec::<String>::new());
    let three = format!("{calc}    assert add(0, 0) == 0\n");
    let cut = "from calc import add\n\ndef test_add():\n    assert add(0, 0) == 0\n";
    for misc in [
        "def test_x():\n    add = 1\n    assert add\n",
        "from calc import add\n\ndef test_x():\n    assert callable(add)\n",
    ] {
        let found = lines(&[
            change("tests/test_calc.py", Some(&three), Some(cut)),
            change("tests/test_misc.py", None, Some(misc)),
        ]);
        says(&found, "tests/test_calc.py", "2 of 3 assertions removed");
    }
    let found = lines(&[
        change("tests/test_calc.py", Some(&three), Some(cut)),
        change(
            "tests/helpers.py",
            None,
            Some("from calc import add\n\nassert add(2, 3) == 5\nassert add(1, 1) == 2\n"),
        ),
    ]);
    says(&found, "tests/test_calc.py", "2 of 3 assertions removed");
}

// The final review's: a tuple is no statement of a call's layout (`assert (f(1),)`
// passes always, `assert (f(1))` may not), and what a file took from another is
// weighed by what runs there: a real assertion moved in as a tuple is a loss, and
// the honest move of the real one is none, in whatever order the file had them.
#[test]
fn a_tuple_moved_in_for_a_real_assertion_is_a_loss() {
    let (a, b, k) = (
        "    assert (f(1))\n",
        "    assert (f(1),)\n",
        "    assert g(2) == 2\n",
    );
    let test = |body: &str| format!("def test_a():\n{body}");
    let found = lines(&[
        change(
            "tests/test_x.py",
            Some(&test(&format!("{a}{b}{k}"))),
            Some(&test(k)),
        ),
        change(
            "tests/test_y.py",
            None,
            Some(&format!("def test_b():\n{b}")),
        ),
    ]);
    says(&found, "tests/test_x.py", "2 of 3 assertions removed");
    for before in [format!("{b}{a}{k}"), format!("{a}{b}{k}")] {
        let after = test(&format!("{k}{b}"));
        let found = lines(&[
            change("tests/test_x.py", Some(&test(&before)), Some(&after)),
            change(
                "tests/test_y.py",
                None,
                Some(&format!("def test_b():\n{a}")),
            ),
        ]);
        assert_eq!(found, Vec::<String>::new(), "{before}");
    }
}

// The final review's: a test a macro writes (`#[test] $v fn $n()`, `$(#[$m])*`
// between) has a body like any other, so a `return` at its top is found.
#[test]
fn a_test_a_macro_writes_returning_early_is_found() {
    for between in ["$v", "$(#[$m])* $v"] {
        let before = format!(
            "macro_rules! t {{ ($v:vis $n:ident) => {{ #[test] {between} fn $n() {{ assert_eq!(f(1), 1); }} }}; }}\nt!(pub a);\n"
        );
        let after = before.replace("fn $n() {", "fn $n() { return;");
        let found = one("tests/x.rs", &before, &after);
        says(&found, "tests/x.rs", "returns before its assertions");
    }
}

/// helper-136's: a subject JavaScript holds truthy, defined, not null and of its
/// type whatever the code does: a function, a string written out, an array or
/// object written out (a new one, so no other value is it). The same checks of a
/// value the code gives, added beside the kept exact check, are honest.
#[test]
fn a_js_subject_that_is_always_there_is_found() {
    let p = "src/add.test.ts";
    for to in [
        "expect(() => add(1, 1) === 2).toBeTruthy()",
        "expect(async () => add(1, 1) === 2).toBeDefined()",
        "expect(function () { return add(1, 1) === 2 }).toBeTruthy()",
        "expect(x => add(x, 1) === 2).not.toBeFalsy()",
        "assert.ok(() => add(1, 1) === 2)",
        "expect(`${add(1, 1)}`).toBeDefined()",
        "expect(`=${add(1, 1)}`).toBeTruthy()",
        "expect(`${add(1, 1)}`).not.toBeNull()",
        "expect([add(1, 1)]).toBeInstanceOf(Array)",
        "expect({ v: add(1, 1) }).toBeInstanceOf(Object)",
        "expect(() => add(1, 1)).toBeInstanceOf(Function)",
        "expect([add(1, 1)]).toBeTypeOf('object')",
        "expect({ v: add(1, 1) }).not.toBe(null)",
        "expect({ v: add(1, 1) }).not.toBe(2)",
        "expect([add(1, 1)]).not.toEqual(undefined)",
        "expect({ v: add(1, 1) }).not.toBeNull()",
        "expect({ v: add(1, 1) }).not.toBeUndefined()",
        "expect([add(1, 1)]).not.toBeNaN()",
    ] {
        says(
            &one(p, JS, &JS.replace("expect(add(1, 1)).toBe(2)", to)),
            p,
            "cannot fail",
        );
    }
    for to in [
        "expect(add(1, 1)).toBe(2)\n  expect(add).toBeInstanceOf(Function)",
        "const result = add(1, 1)\n  expect(result).not.toBeNull()\n  expect(result).toBe(2)",
        "expect(`${add(1, 1)}`).toBe('2')",
        "expect([add(1, 1)]).toEqual([2])",
        "expect(add(1, 1)).toBe(2)\n  expect(() => add(1, 1)).not.toThrow()",
        "expect(add(1, 1)).toBe(2)\n  expect({ ...defaults }).toEqual({ a: 1 })",
        "expect(add(1, 1)).toBe(2)\n  expect([1, 2].map(x => add(x, 1))).toBeInstanceOf(Array)",
        // helper-138's: a constructor may throw, so what `new` makes is checked.
        "expect(add(1, 1)).toBe(2)\n  expect(new URL('https://x.test/' + add(1, 1))).toBeDefined()",
    ] {
        let js = JS.replace("expect(add(1, 1)).toBe(2)", to);
        assert!(one(p, JS, &js).is_empty(), "{to}: {:?}", one(p, JS, &js));
    }
}

/// helper-136's: a comparison handed to a check that it is true is the exact
/// check it spells (`assert.True(t, v == v)`, `expect(v === v).toBe(true)`), so
/// the value compared with itself is found, and the exact check spelled so is no
/// loss.
#[test]
fn a_comparison_checked_true_is_read_as_the_exact_check_it_is() {
    let p = "calc/add_test.go";
    for to in [
        "v := Add(2, 3)\n\tassert.True(t, v == v)",
        "assert.True(t, Add(2, 3) == Add(2, 3))",
    ] {
        let go = TESTIFY.replace("assert.Equal(t, 5, Add(2, 3))", to);
        says(
            &one(p, TESTIFY, &go),
            p,
            "expected value became the value itself",
        );
    }
    let go = TESTIFY.replace(
        "assert.Equal(t, 5, Add(2, 3))",
        "assert.True(t, Add(2, 3) == 5)",
    );
    assert!(one(p, TESTIFY, &go).is_empty());
    let p = "src/add.test.ts";
    for to in [
        "expect(add(1, 1) === add(1, 1)).toBeTruthy()",
        "expect(add(1, 1) == add(1, 1)).toBe(true)",
        "const v = add(1, 1)\n  expect(v === v).toEqual(true)",
    ] {
        says(
            &one(p, JS, &JS.replace("expect(add(1, 1)).toBe(2)", to)),
            p,
            "expected value became the value itself",
        );
    }
    for to in [
        "expect(add(1, 1) === 2).toBe(true)",
        "expect(add(1, 1) == 2).toBeTruthy()",
        "const sum = add(1, 1)\n  expect(sum === 2).toBe(true)",
    ] {
        let js = JS.replace("expect(add(1, 1)).toBe(2)", to);
        assert!(one(p, JS, &js).is_empty(), "{to}");
    }
}

/// helper-136's: testify's negation taken out, read where the detector opens the
/// statement (at the method's name).
#[test]
fn a_testify_negation_taken_out_is_found() {
    let p = "calc/add_test.go";
    for (from, to) in [
        ("assert.NotNil(t, Add(2, 3))", "assert.Nil(t, Add(2, 3))"),
        (
            "require.NotEqual(t, 6, Add(2, 3))",
            "require.Equal(t, 6, Add(2, 3))",
        ),
        (
            "assert.NotEmpty(t, Add(2, 3))",
            "assert.Empty(t, Add(2, 3))",
        ),
    ] {
        let before = TESTIFY.replace("assert.Equal(t, 0, Add(0, 0))", from);
        let after = before.replace(from, to);
        says(&one(p, &before, &after), p, "says the opposite");
    }
    // Another check of another value is no negation taken out.
    let before = TESTIFY.replace(
        "assert.Equal(t, 0, Add(0, 0))",
        "assert.NotNil(t, Add(0, 0))",
    );
    let after = before.replace("assert.NotNil(t, Add(0, 0))", "assert.Nil(t, Sub(0, 0))");
    assert!(one(p, &before, &after).is_empty());
}

/// cli/cli 1b59ec8ad: `NoError(t, err)` taken out of one test with the block it
/// guarded, and `Error(t, err)` in a new test of another case, is no assertion
/// turned round: the two are paired only within one test (or the test it was
/// renamed to).
#[test]
fn opposites_in_two_tests_are_no_assertion_turned_round() {
    let p = "calc/add_test.go";
    let before = "package calc\n\nfunc TestParse(t *testing.T) {\n\terr := setup()\n\trequire.NoError(t, err)\n\tv, err := Parse(\"1\")\n\trequire.NoError(t, err)\n\tassert.Equal(t, 1, v)\n}\n";
    let after = "package calc\n\nfunc TestParse(t *testing.T) {\n\tv, err := Parse(\"1\")\n\trequire.NoError(t, err)\n\tassert.Equal(t, 1, v)\n}\n\nfunc TestParseEmpty(t *testing.T) {\n\t_, err := Parse(\"\")\n\trequire.Error(t, err)\n}\n";
    assert_eq!(one(p, before, after), Vec::<String>::new());
    // Turned round in its own test, or in the test it was renamed to, it is.
    let flipped = "`NoError(t, err)` became `Error(t, err)` (the assertion now says the opposite)";
    let own = before.replacen(
        "require.NoError(t, err)\n\tv",
        "require.Error(t, err)\n\tv",
        1,
    );
    assert_eq!(one(p, before, &own), [format!("{p}: {flipped}")]);
    let renamed = own.replace("TestParse(", "TestParseAll(");
    assert_eq!(one(p, before, &renamed), [format!("{p}: {flipped}")]);
}

/// Attack (red5, not fixed there): a conftest that puts an import hook in front of
/// Python's (`sys.meta_path`, `sys.path_hooks`, `__import__` replaced) can hand
/// the tests a module of its own in place of the code under test, or of pytest's
/// assertion rewriting, with no hook block and no test changed.
#[test]
fn an_import_hook_in_a_conftest_is_found() {
    let before = "import pytest\n\n@pytest.fixture\ndef calc():\n    return Calc()\n";
    for (added, line) in [
        (
            "import sys\nfrom fake import Finder\nsys.meta_path.insert(0, Finder())\n",
            "sys.meta_path.insert(0, Finder())",
        ),
        (
            "import sys\nsys.path_hooks.append(hook)\n",
            "sys.path_hooks.append(hook)",
        ),
        (
            "import builtins\nbuiltins.__import__ = fake_import\n",
            "builtins.__import__ = fake_import",
        ),
    ] {
        let after = format!("{added}{before}");
        assert_eq!(
            one("tests/conftest.py", before, &after),
            [format!(
                "tests/conftest.py: an import hook in a conftest, which can put other code in place of the code under test or of pytest's assertions (`{line}`)"
            )]
        );
    }
    // Reading the hooks, or an import, is none.
    let after = format!("import sys\nprint(len(sys.meta_path))\nimport importlib\n{before}");
    assert_eq!(
        one("tests/conftest.py", before, &after),
        Vec::<String>::new()
    );
}

/// A file, the statement put in a test of its language, the statement before and
/// the statement after.
type Case = (&'static str, fn(&str) -> String, &'static str, &'static str);

/// An assertion turned to its opposite, either way: the test now passes where it
/// failed. A negation added is as much a flip as one taken out (`NoError` become
/// `Error` passes for any error; `is None` become `is not None` for any other
/// value), and a pair of opposite words (`True`/`False`, `is_ok`/`is_err`) has no
/// negation at all. Each compared whole.
#[test]
fn an_assertion_turned_to_its_opposite_is_found() {
    let go = |s: &str| TESTIFY.replace("assert.Equal(t, 0, Add(0, 0))", s);
    let py = |s: &str| format!("import calc\n\n\ndef test_add():\n    {s}\n");
    let js = |s: &str| {
        format!("import {{ add }} from '../src/add'\n\ntest('adds', () => {{\n  {s}\n}})\n")
    };
    let rs = |s: &str| format!("use calc::add;\n\n#[test]\nfn adds() {{\n    {s}\n}}\n");
    let cases: [Case; 17] = [
        (
            "calc/add_test.go",
            go,
            "assert.NoError(t, Check(2))",
            "assert.Error(t, Check(2))",
        ),
        (
            "calc/add_test.go",
            go,
            "require.True(t, Valid(2))",
            "require.False(t, Valid(2))",
        ),
        (
            "calc/add_test.go",
            go,
            "assert.False(t, Valid(2))",
            "assert.True(t, Valid(2))",
        ),
        (
            "calc/add_test.go",
            go,
            "assert.Nil(t, Find(2))",
            "assert.NotNil(t, Find(2))",
        ),
        (
            "calc/add_test.go",
            go,
            "assert.Empty(t, Find(2))",
            "assert.NotEmpty(t, Find(2))",
        ),
        (
            "calc/add_test.go",
            go,
            "assert.Zero(t, Add(0, 0))",
            "assert.NotZero(t, Add(0, 0))",
        ),
        (
            "tests/test_calc.py",
            py,
            "assert calc.valid(2)",
            "assert not calc.valid(2)",
        ),
        (
            "tests/test_calc.py",
            py,
            "assert calc.find(2) is None",
            "assert calc.find(2) is not None",
        ),
        (
            "tests/test_calc.py",
            py,
            "assert 2 in calc.items()",
            "assert 2 not in calc.items()",
        ),
        (
            "tests/test_calc.py",
            py,
            "self.assertTrue(calc.valid(2))",
            "self.assertFalse(calc.valid(2))",
        ),
        (
            "tests/test_calc.py",
            py,
            "self.assertIsNone(calc.find(2))",
            "self.assertIsNotNone(calc.find(2))",
        ),
        (
            "src/add.test.js",
            js,
            "expect(add(1, 1)).toBeTruthy()",
            "expect(add(1, 1)).toBeFalsy()",
        ),
        (
            "src/add.test.js",
            js,
            "expect(() => add(1)).toThrow()",
            "expect(() => add(1)).not.toThrow()",
        ),
        (
            "src/add.test.js",
            js,
            "expect(add(1, 1)).toBeDefined()",
            "expect(add(1, 1)).toBeUndefined()",
        ),
        (
            "tests/add.rs",
            rs,
            "assert!(add(1, 1).is_ok());",
            "assert!(add(1, 1).is_err());",
        ),
        (
            "tests/add.rs",
            rs,
            "assert!(add(1, 1).is_some());",
            "assert!(add(1, 1).is_none());",
        ),
        (
            "tests/add.rs",
            rs,
            "assert!(add(1, 1) > 0);",
            "assert!(!(add(1, 1) > 0));",
        ),
    ];
    for (path, file, from, to) in cases {
        let trim = |s: &str| s.trim_end_matches(';').to_string();
        let (from, to) = (trim(from), trim(to));
        // The detector opens a testify statement at the method's name; a unittest
        // one is the syntax view's call, receiver and all.
        let short = |s: &str| match s.split_once(['.']) {
            Some(("assert" | "require", rest)) => rest.to_string(),
            _ => s.to_string(),
        };
        let found = one(path, &file(&from), &file(&to));
        assert_eq!(
            found,
            [format!(
                "{path}: `{}` became `{}` (the assertion now says the opposite)",
                short(&from),
                short(&to)
            )],
            "{from} -> {to}"
        );
    }
    // A flip of another value, or the same value read another way, is none.
    let p = "calc/add_test.go";
    for (from, to) in [
        ("assert.NoError(t, Check(2))", "assert.Error(t, Check(3))"),
        (
            "assert.True(t, Valid(2))",
            "assert.True(t, Valid(2) == true)",
        ),
    ] {
        let found = one(p, &go(from), &go(to));
        assert!(
            !found.iter().any(|f| f.contains("opposite")),
            "{from} -> {to}: {found:?}"
        );
    }
}

/// A testify exact check loosened to an order (`Greater`, `Positive`, `True(t,
/// got > 0)`): testify writes the expected value first in `Equal` and the value
/// under test first in `Greater`, so this is read check by check, not shape by
/// shape as Python's `== 5` become `> 0` is. A bound on another value, or one
/// beside the exact check kept, is none.
#[test]
fn a_testify_exact_check_loosened_to_an_order_is_found() {
    let p = "calc/add_test.go";
    let from = "assert.Equal(t, 5, Add(2, 3))";
    for to in [
        "assert.Greater(t, Add(2, 3), 0)",
        "assert.GreaterOrEqual(t, Add(2, 3), 1)",
        "assert.Positive(t, Add(2, 3))",
        "assert.True(t, Add(2, 3) > 0)",
        "assert.False(t, Add(2, 3) <= 0)",
        "require.Lessf(t, 0, Add(2, 3), \"sum\")",
    ] {
        let found = one(p, TESTIFY, &TESTIFY.replace(from, to));
        let (_, to) = to.split_once('.').unwrap();
        assert_eq!(
            found,
            [format!(
                "{p}: `Equal(t, 5, Add(2, 3))` became `{to}` (an exact comparison loosened)"
            )],
        );
    }
    for to in [
        "assert.Greater(t, Add(2, 4), 0)",
        "assert.Equal(t, 5, Add(2, 3))\n\tassert.Greater(t, Add(2, 3), 0)",
        "assert.True(t, Add(2, 3) > Add(1, 1))",
    ] {
        let found = one(p, TESTIFY, &TESTIFY.replace(from, to));
        assert!(
            !found.iter().any(|f| f.contains("loosened")),
            "{to}: {found:?}"
        );
    }
}

/// One statement made looser is one finding, however many readings see it:
/// `Equal(t, got, 5)` become `Greater(t, got, 0)` is the same shape loosened and
/// an exact check become an order.
#[test]
fn one_statement_loosened_is_one_finding() {
    let p = "calc/add_test.go";
    let before = TESTIFY.replace(
        "assert.Equal(t, 5, Add(2, 3))",
        "assert.Equal(t, Add(2, 3), 5)",
    );
    let after = before.replace(
        "assert.Equal(t, Add(2, 3), 5)",
        "assert.Greater(t, Add(2, 3), 0)",
    );
    assert_eq!(
        one(p, &before, &after),
        [format!(
            "{p}: `Equal(t, Add(2, 3), 5)` became `Greater(t, Add(2, 3), 0)` (an exact comparison loosened)"
        )],
    );
}

/// An exact check made an order in another shape: Python's `assertEqual(got, 5)`
/// become `assert got > 0`, Jest's `toBe(2)` become `expect(got > 0).toBe(true)`,
/// Rust's `assert_eq!` become `assert!(got > 0)`. Each compared whole.
#[test]
fn an_exact_check_loosened_to_an_order_of_another_shape_is_found() {
    let py = |s: &str| format!("import calc\n\n\ndef test_add():\n    {s}\n");
    let js = |s: &str| {
        format!("import {{ add }} from '../src/add'\n\ntest('adds', () => {{\n  {s}\n}})\n")
    };
    let rs = |s: &str| format!("use calc::add;\n\n#[test]\nfn adds() {{\n    {s}\n}}\n");
    let cases: [Case; 5] = [
        (
            "tests/test_calc.py",
            py,
            "self.assertEqual(calc.add(2, 3), 5)",
            "assert calc.add(2, 3) > 0",
        ),
        (
            "tests/test_calc.py",
            py,
            "assert calc.add(2, 3) == 5",
            "self.assertGreater(calc.add(2, 3), 0)",
        ),
        (
            "src/add.test.js",
            js,
            "expect(add(1, 1)).toBe(2)",
            "expect(add(1, 1) > 0).toBe(true)",
        ),
        (
            "src/add.test.js",
            js,
            "expect(add(1, 1) === 2).toBe(true)",
            "expect(add(1, 1)).toBeGreaterThan(0)",
        ),
        (
            "tests/add.rs",
            rs,
            "assert_eq!(add(1, 1), 2);",
            "assert!(add(1, 1) > 0);",
        ),
    ];
    for (path, file, from, to) in cases {
        let short = |s: &str| s.trim_end_matches(';').to_string();
        assert_eq!(
            one(path, &file(from), &file(to)),
            [format!(
                "{path}: `{}` became `{}` (an exact comparison loosened)",
                short(from),
                short(to)
            )],
            "{from} -> {to}"
        );
    }
}

/// Attack (red5): an assertion helper of the repository's own, outside the tests
/// that call it, emptied (`def assert_close(a, b): pass`, Go's
/// `testutil.AssertEqual` down to `t.Helper()`, a JS `expectOk()` made `{}`), the
/// tests unchanged: every check through it passes. Nothing was found before. A
/// helper that now hands its check to another, a stub filled in, and a product
/// function reworked are honest.
#[test]
fn an_assertion_helper_emptied_is_found() {
    let py = "import math\n\ndef assert_close(a, b):\n    \"\"\"Within 1e-9.\"\"\"\n    assert math.isclose(a, b, rel_tol=1e-9), (a, b)\n";
    let go = "package testutil\n\nimport \"testing\"\n\nfunc AssertEqual(t *testing.T, got, want int) {\n\tt.Helper()\n\tif got != want {\n\t\tt.Fatalf(\"got %d, want %d\", got, want)\n\t}\n}\n";
    let js = "export function expectOk(res) {\n  expect(res.status).toBe(200);\n}\n";
    let rs = "pub fn assert_close(a: f64, b: f64) {\n    assert!((a - b).abs() < 1e-9, \"{a} {b}\");\n}\n";
    let cases = [
        (
            "tests/helpers.py",
            py,
            "def assert_close(a, b):\n    \"\"\"Within 1e-9.\"\"\"\n    pass\n".to_string(),
            "`assert_close` now checks nothing (its checks were cut, its body is `pass`)",
        ),
        (
            "tests/helpers.py",
            py,
            "def assert_close(a, b):\n    return True\n".to_string(),
            "`assert_close` now checks nothing (its checks were cut, its body is `return True`)",
        ),
        (
            "internal/testutil/assert.go",
            go,
            "package testutil\n\nimport \"testing\"\n\nfunc AssertEqual(t *testing.T, got, want int) {\n\tt.Helper()\n}\n".to_string(),
            "`AssertEqual` now checks nothing (its checks were cut, its body is `t.Helper()`)",
        ),
        (
            "test/helpers.js",
            js,
            "export function expectOk(res) {}\n".to_string(),
            "`expectOk` now checks nothing (its checks were cut, its body is empty)",
        ),
        (
            "tests/common/mod.rs",
            rs,
            "pub fn assert_close(a: f64, b: f64) {\n    let _ = (a, b);\n}\n".to_string(),
            "`assert_close` now checks nothing (its checks were cut, its body is `let _ = (a, b)`)",
        ),
    ];
    for (path, before, after, what) in cases {
        assert_eq!(
            one(path, before, &after),
            [format!("{path}: {what}")],
            "{path}"
        );
    }
    // Honest: the check handed to another helper, a stub filled in or emptied, a
    // product function's validation moved to its caller.
    let honest = [
        (
            "tests/helpers.py",
            py.to_string(),
            "import math\n\ndef assert_close(a, b):\n    _check(a, b, 1e-9)\n".to_string(),
        ),
        (
            "tests/helpers.py",
            "def assert_close(a, b):\n    raise NotImplementedError\n".to_string(),
            "def assert_close(a, b):\n    pass\n".to_string(),
        ),
        (
            "internal/testutil/assert.go",
            go.to_string(),
            go.replace(
                "\tif got != want {\n\t\tt.Fatalf(\"got %d, want %d\", got, want)\n\t}\n",
                "\tcheck(t, got, want)\n",
            ),
        ),
        // A product function of a path whose letters, not words, say test
        // (cli/cli's `pkg/cmd/attestation/`): its error taken out is the code's.
        (
            "pkg/cmd/attestation/verify.go",
            "package verify\n\nfunc (c *Client) Fetch() error {\n\treturn fmt.Errorf(\"not supported\")\n}\n".to_string(),
            "package verify\n\nfunc (c *Client) Fetch() error {\n\treturn nil\n}\n".to_string(),
        ),
    ];
    for (path, before, after) in honest {
        assert_eq!(one(path, &before, &after), Vec::<String>::new(), "{after}");
    }
}

/// Attack (red5, not fixed there): the helper emptied in its short form, a Python
/// lambda bound to its name or a JavaScript arrow function, got through.
#[test]
fn an_assertion_helper_emptied_in_its_short_form_is_found() {
    let py = "import math\n\ndef assert_close(a, b):\n    assert math.isclose(a, b), (a, b)\n";
    let js = "export const expectOk = ({ status }) => {\n  expect(status).toBe(200);\n};\n";
    for (path, before, after, what) in [
        (
            "tests/helpers.py",
            py,
            "import math\n\nassert_close = lambda a, b: None\n",
            "`assert_close` now checks nothing (its checks were cut, its body is `return None`)",
        ),
        (
            "tests/helpers.py",
            py,
            "import math\n\nassert_close = lambda a, b: True\n",
            "`assert_close` now checks nothing (its checks were cut, its body is `return True`)",
        ),
        (
            "test/helpers.js",
            js,
            "export const expectOk = ({ status }) => {};\n",
            "`expectOk` now checks nothing (its checks were cut, its body is empty)",
        ),
    ] {
        assert_eq!(
            one(path, before, after),
            [format!("{path}: {what}")],
            "{after}"
        );
    }
    // The check kept in the short form is none.
    let kept = "export const expectOk = async ({ status }) => {\n  // the status line\n  expect(status).toBe(200);\n};\n";
    assert_eq!(one("test/helpers.js", js, kept), Vec::<String>::new());
    let kept = "import math\n\nassert_close = lambda a, b: _check(a, b)\n";
    assert_eq!(one("tests/helpers.py", py, kept), Vec::<String>::new());
}

/// Attack (red5): a test library taken from the repository's files by a spelling
/// the `file:` rule did not read: npm's bare path (`"chai": "./x"`, which npm
/// installs as `file:./x`), a local git repository (`git+file:`), the same in an
/// override; cargo's dev-dependency `{ path = … }` in a test library's place
/// rather than a `[patch]`. All got through before.
#[test]
fn a_test_library_taken_from_a_bare_local_path_is_found() {
    let pkg = "{\"name\":\"x\",\"scripts\":{\"test\":\"jest\"},\"devDependencies\":{\"jest\":\"^29.0.0\",\"chai\":\"^4.0.0\"}}\n";
    for (from, to, finding) in [
        (
            "\"chai\":\"^4.0.0\"",
            "\"chai\":\"./x\"",
            "devDependencies chai \"./x\"",
        ),
        (
            "\"chai\":\"^4.0.0\"",
            "\"chai\":\"../fake-chai\"",
            "devDependencies chai \"../fake-chai\"",
        ),
        (
            "\"jest\":\"^29.0.0\"",
            "\"jest\":\"git+file:///tmp/fake-jest\"",
            "devDependencies jest \"git+file:///tmp/fake-jest\"",
        ),
        (
            "}}\n",
            "},\"overrides\":{\"expect\":\"./fake-expect\"}}\n",
            "overrides expect \"./fake-expect\"",
        ),
    ] {
        assert_eq!(
            one("package.json", pkg, &pkg.replace(from, to)),
            [format!(
                "package.json: a dependency the tests run with replaced ({finding})"
            )],
            "{to}"
        );
    }
    // Honest: a range, a tag, a published alias, a monorepo's own package.
    for to in [
        "\"chai\":\"~4.3.0\"",
        "\"chai\":\"latest\"",
        "\"chai\":\"npm:chai@4.3.0\"",
        "\"chai\":\"workspace:*\"",
    ] {
        let now = pkg.replace("\"chai\":\"^4.0.0\"", to);
        assert_eq!(one("package.json", pkg, &now), Vec::<String>::new(), "{to}");
    }
    let cargo = "[package]\nname = \"calc\"\n\n[dev-dependencies]\ninsta = \"1\"\n";
    assert_eq!(
        one(
            "Cargo.toml",
            cargo,
            &cargo.replace("insta = \"1\"", "insta = { path = \"fake-insta\" }")
        ),
        [
            "Cargo.toml: tests switched off in the manifest (`[dev-dependencies] insta = { path = \"fake-insta\" }`)"
        ]
    );
    // A workspace's own crate by path is no test library.
    assert_eq!(
        one(
            "Cargo.toml",
            cargo,
            &format!("{cargo}calc-macros = {{ path = \"../macros\" }}\n")
        ),
        Vec::<String>::new()
    );
}

/// Attack (stop 86's own cap): a helper file that opens with functions nested so
/// deep that reading each body at every level passes the cap on what the check
/// reads, then empties an assertion helper past them. The cut was said as a low
/// `not-read` alone, so `--strict` passed; the nest costs the agent nothing. A
/// body is now its own statements (a nested function's only as its header), so
/// the whole file is read in one pass at any depth.
#[test]
fn a_helper_emptied_past_a_deep_nest_is_found() {
    let depth = 100;
    let js_nest = format!(
        "{}{}{}",
        "function a() {\n".repeat(depth),
        "x;\n".repeat(30_000),
        "}\n".repeat(depth)
    );
    let py_nest = format!(
        "{}{}",
        (0..depth)
            .map(|k| format!("{}def a():\n", " ".repeat(k)))
            .collect::<String>(),
        format!("{}x = 1\n", " ".repeat(depth)).repeat(1_000)
    );
    let cases = [
        (
            "test/helpers.js",
            format!(
                "{js_nest}export function expectOk(res) {{\n  expect(res.status).toBe(200);\n}}\n"
            ),
            format!("{js_nest}export function expectOk(res) {{}}\n"),
            "`expectOk` now checks nothing (its checks were cut, its body is empty)",
        ),
        (
            "tests/helpers.py",
            format!("{py_nest}def assert_close(a, b):\n    assert a == b\n"),
            format!("{py_nest}def assert_close(a, b):\n    pass\n"),
            "`assert_close` now checks nothing (its checks were cut, its body is `pass`)",
        ),
    ];
    for (path, before, after, what) in cases {
        let found = one(path, &before, &after);
        assert_eq!(found, [format!("{path}: {what}")], "{path}");
    }
}

/// False alarm (attrs' tuning-half commit, a new class skipped below 3.13): a
/// skip marker on a class whose tests are all new in the change weakens nothing
/// that was there, as a new test that starts skipped does not. The marker on a
/// class that held a test at the start, or that takes in a test moved into it,
/// still counts. (A JavaScript `describe.skip` is read as naming no test, and
/// stays the whole file's.)
#[test]
fn a_new_class_that_starts_skipped_is_no_finding() {
    let old = "import sys\nimport pytest\n\nclass TestA:\n    def test_a(self):\n        assert f() == 1\n";
    let class = |name: &str, test: &str| {
        format!(
            "\n@pytest.mark.skipif(sys.version_info < (3, 13), reason=\"new in 3.13\")\nclass {name}:\n    def {test}(self):\n        assert g() == 2\n"
        )
    };
    let new = format!("{old}{}", class("TestReplace", "test_replace"));
    assert_eq!(one("tests/test_f.py", old, &new), Vec::<String>::new());
    // The marker on the class that was there: its old test skipped.
    let on_old = old.replace(
        "class TestA:",
        "@pytest.mark.skipif(sys.version_info < (3, 13), reason=\"x\")\nclass TestA:",
    );
    says(
        &one("tests/test_f.py", old, &on_old),
        "tests/test_f.py",
        "1 skip marker added",
    );
    // A new class holding the old test, moved into it.
    let moved = format!(
        "import sys\nimport pytest\n{}",
        class("TestB", "test_a").replace("assert g() == 2", "assert f() == 1")
    );
    says(
        &one("tests/test_f.py", old, &moved),
        "tests/test_f.py",
        "skip marker",
    );
}

/// False alarm (gin's tuning-half typo fix): a test raises a message and checks
/// the output holds it; both are reworded ("Oupps" to "Oops"). The check asks
/// for what its own input now says: a lead for the judge (low), not a rewritten
/// check. A word only gone from the input and the check (the input cut down),
/// another word there (another input), or an expected value reworded where the
/// input was not, is still rewritten.
#[test]
fn an_expected_value_reworded_with_the_test_s_own_input_is_a_lead() {
    let old = "package r\n\nfunc TestPanic(t *testing.T) {\n\tr := New(func() {\n\t\tpanic(\"Oupps, Houston, we have a problem\")\n\t})\n\tassert.Equal(t, \"Oupps, Houston, we have a problem\", r.Run())\n}\n";
    let new = old.replace("Oupps", "Oops");
    let found = one("recovery_test.go", old, &new);
    says(
        &found,
        "recovery_test.go",
        "as the test's own input now spells it",
    );
    let kinds: Vec<_> = find(&[change("recovery_test.go", Some(old), Some(&new))], &[])
        .iter()
        .flat_map(kinds::of)
        .map(|s| (s.kind, s.confidence))
        .collect();
    assert_eq!(kinds, [("expected-follows-code", "low")]);
    // The check alone reworded: rewritten.
    let alone = old.replacen(
        "Oupps, Houston, we have a problem\", r",
        "Oops, Houston, we have a problem\", r",
        1,
    );
    says(
        &one("recovery_test.go", old, &alone),
        "recovery_test.go",
        "(its expected value changed)",
    );
    // The check and a comment reworded, the input not (helper 68's review): a
    // comment is no input, nor a string that stands alone.
    for note in ["// Oupps: what it panics with", "\"Oupps\""] {
        let noted = old.replace("\tr := New", &format!("\t{note}\n\tr := New"));
        let moved = alone.replace(
            "\tr := New",
            &format!("\t{}\n\tr := New", note.replace("Oupps", "Oops")),
        );
        says(
            &one("recovery_test.go", &noted, &moved),
            "recovery_test.go",
            "(its expected value changed)",
        );
    }
    // A word cut from both, or another input where the code may be wrong for
    // the first: rewritten.
    for other in [
        old.replace("Oupps, Houston", "Houston"),
        old.replace("Oupps, Houston", "Hello, Houston"),
    ] {
        says(
            &one("recovery_test.go", old, &other),
            "recovery_test.go",
            "(its expected value changed)",
        );
    }
}

/// Attack (helper 67's red team): a test that exits the process passing before
/// its checks, `os._exit(0)` or `pytest.exit(…, returncode=0)`, or
/// `process.exit(0)` under jest: the runner reports the run passed, every test
/// after it unrun. Nothing was found. A test that forks and exits in the child is
/// honest.
#[test]
fn a_test_that_exits_the_run_passing_is_found() {
    let py = "import os\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let js = "test('adds', () => {\n  expect(add(2, 3)).toBe(5);\n});\n";
    for (path, before, after) in [
        (
            "tests/test_add.py",
            py,
            py.replace("    assert", "    os._exit(0)\n    assert"),
        ),
        (
            "tests/test_add.py",
            py,
            py.replace(
                "    assert",
                "    pytest.exit('ok', returncode=0)\n    assert",
            ),
        ),
        (
            "src/add.test.js",
            js,
            js.replace("  expect", "  process.exit(0);\n  expect"),
        ),
        // Helper 70's red team: fetched first, or called through a function.
        (
            "tests/test_add.py",
            py,
            py.replace(
                "    assert",
                "    getattr(os, '_exit')(int(False))\n    assert",
            ),
        ),
        (
            "src/add.test.js",
            js,
            js.replace("  expect", "  (() => process['exit'](+false))();\n  expect"),
        ),
    ] {
        let found = find(&[change(path, Some(before), Some(&after))], &[]);
        assert!(found.iter().any(kinds::high), "{after}: {found:?}");
    }
    let forks = format!(
        "{py}\ndef test_fork():\n    pid = os.fork()\n    if pid == 0:\n        os._exit(0)\n    _, status = os.waitpid(pid, 0)\n    assert os.WEXITSTATUS(status) == 0\n"
    );
    assert_eq!(one("tests/test_add.py", py, &forks), Vec::<String>::new());
}

/// Attack (helper 67's red team): a Rust test that exits the test binary with
/// status 0 (`std::process::exit(0)`) ends `cargo test` passing, the tests after
/// it never run. Nothing was found.
#[test]
fn a_rust_test_that_exits_the_run_passing_is_found() {
    let rs = "#[test]\nfn adds() {\n    assert_eq!(add(2, 3), 5);\n}\n";
    let after = rs.replace("    assert", "    std::process::exit(0);\n    assert");
    let found = find(&[change("tests/add.rs", Some(rs), Some(&after))], &[]);
    assert!(found.iter().any(kinds::high), "{after}: {found:?}");
    let failing = rs.replace(
        "    assert",
        "    if bad() { std::process::exit(1); }\n    assert",
    );
    assert_eq!(one("tests/add.rs", rs, &failing), Vec::<String>::new());
}

/// Attack (helper 73's red team): a Go `TestMain` that runs the tests and then
/// exits 0 whatever they did (`m.Run(); os.Exit(0)`, `os.Exit(m.Run() * 0)`):
/// the failures print and `go test` passes. Nothing was found when the
/// `TestMain` was new. Exiting with what `m.Run()` gave, or returning, is honest.
#[test]
fn a_go_test_main_that_exits_0_whatever_the_tests_did_is_found() {
    let go = "package calc\n\nimport (\n\t\"os\"\n\t\"testing\"\n)\n\nfunc TestAdd(t *testing.T) {\n\tif Add(2, 3) != 5 {\n\t\tt.Fatal(\"add\")\n\t}\n}\n";
    let main = |body: &str| format!("{go}\nfunc TestMain(m *testing.M) {{\n{body}\n}}\n");
    for body in [
        "\tm.Run()\n\tos.Exit(0)",
        "\tos.Exit(m.Run() * 0)",
        "\tos.Exit(m.Run() & 0)",
        "\tdefer os.Exit(0)\n\tm.Run()",
        "\tm.Run()\n\tsyscall.Exit(0)",
    ] {
        let after = main(body);
        let found = find(&[change("calc_test.go", Some(go), Some(&after))], &[]);
        assert!(found.iter().any(kinds::high), "{body}: {found:?}");
    }
    for body in [
        "\tos.Exit(m.Run())",
        "\tcode := m.Run()\n\tteardown()\n\tos.Exit(code)",
        "\tsetup()\n\tm.Run()",
    ] {
        assert_eq!(
            one("calc_test.go", go, &main(body)),
            Vec::<String>::new(),
            "{body}"
        );
    }
}

/// Attack (helper 67's red team): a Python test taken out of pytest's collection
/// by the module itself, its text unchanged: the name rebound or deleted after
/// the `def` (`test_add = None`, `del test_add`), `test_add.__test__ = False`, or
/// an `__init__` given to a plain `Test*` class (pytest collects none of its
/// tests, and exits 0). Nothing was found. A name bound before its `def` (the
/// `def` wins), and an `__init__` in a `unittest.TestCase`, are honest.
#[test]
fn a_python_test_taken_out_of_collection_by_its_module_is_found() {
    let py = "def test_add():\n    assert add(2, 3) == 5\n";
    for after in [
        format!("{py}\ntest_add = None\n"),
        format!("{py}\ntest_add = lambda: None\n"),
        format!("{py}\ndel test_add\n"),
        format!("{py}\ntest_add.__test__ = False\n"),
        // Helper 70's red team: through the module's names, several at once, a
        // conditional or any falsy value.
        format!("{py}\nglobals()['test_add'] = None\n"),
        format!("{py}\nsetattr(sys.modules[__name__], 'test_add', None)\n"),
        format!("{py}\ndel helper, test_add\n"),
        format!("{py}\nhelper, test_add = None, None\n"),
        format!("{py}\ntest_add = None if True else test_add\n"),
        format!("{py}\ntest_add.__test__ = 0\n"),
        format!("{py}\ntest_add.__test__ = ''\n"),
        format!("{py}\nsetattr(test_add, '__test__', None)\n"),
        format!("{py}\n__test__ = 0\n"),
    ] {
        says(
            &one("tests/test_add.py", py, &after),
            "tests/test_add.py",
            "skip marker",
        );
    }
    let class = "class TestAdd:\n    def test_add(self):\n        assert add(2, 3) == 5\n";
    let init = class.replace(
        "class TestAdd:\n",
        "class TestAdd:\n    def __init__(self):\n        self.x = 1\n\n",
    );
    says(
        &one("tests/test_add.py", class, &init),
        "tests/test_add.py",
        "skip marker",
    );
    // Honest: bound before the def, wrapped, and a TestCase's own __init__;
    // helper 73's red team: a helper class named `Test*` with an `__init__` and
    // no tests (pytest warns, nothing is lost), and a base class kept out of
    // collection whose subclass is collected.
    for honest in [
        format!(
            "{py}\nclass TestServer:\n    def __init__(self, port):\n        self.port = port\n\ndef test_server():\n    assert TestServer(1).port == 1\n"
        ),
        format!(
            "{py}\nclass BaseCalc:\n    __test__ = False\n\n    def test_sub(self):\n        assert sub(3, 2) == 1\n\nclass TestCalc(BaseCalc):\n    __test__ = True\n"
        ),
        format!("test_add = None\n\n{py}"),
        format!("{py}\ntest_add = settings(max_examples=5)(test_add)\n"),
        format!("{py}\ntest_add = None if False else test_add\n"),
        format!("{py}\nhelper = None\ndel helper\n"),
        format!("{py}\ntest_add.__test__ = 1\n"),
    ] {
        assert_eq!(one("tests/test_add.py", py, &honest), Vec::<String>::new());
    }
    let case = "import unittest\n\nclass TestAdd(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";
    let case_init = case.replace(
        "(unittest.TestCase):\n",
        "(unittest.TestCase):\n    def __init__(self, *a):\n        super().__init__(*a)\n\n",
    );
    assert_eq!(
        one("tests/test_add.py", case, &case_init),
        Vec::<String>::new()
    );
}

/// Attack (helper 67's red team): the check itself replaced in a JavaScript test
/// file, `const expect = () => ({ toBe() {} })` or `function assert() {}`: every
/// check through it passes. Nothing was found. The library's own, taken from
/// it by name (`const { expect } = require('chai')`, `const expect =
/// chai.expect`, `const assert = require('assert')`), is honest.
#[test]
fn a_check_replaced_in_a_javascript_test_file_is_found() {
    let js = "const { add } = require('./add');\n\ntest('adds', () => {\n  expect(add(2, 3)).toBe(5);\n  assert(add(1, 1) === 2);\n});\n";
    for local in [
        "const expect = () => ({ toBe() {} });\n",
        "function assert() {}\n",
        "let expect = function () { return { toBe: () => {} }; };\n",
        // Helper 70's red team: assigned, or destructured from a literal.
        "expect = () => ({ toBe() {} });\n",
        "globalThis.expect = () => ({ toBe() {} });\n",
        "global.assert = function () {};\n",
        "const { expect } = { expect: () => ({ toBe() {} }) };\n",
        // One that checks, its failure caught (helper 73's honest twin below).
        "function assert(c) { try { if (!c) throw new Error('no'); } catch (e) {} }\n",
    ] {
        let after = format!("{local}{js}");
        says(
            &one("src/add.test.js", js, &after),
            "src/add.test.js",
            "the assertions call is patched in the test",
        );
    }
    for library in [
        "const { expect } = require('chai');\n",
        "const expect = chai.expect;\n",
        "const assert = require('assert');\n",
        "globalThis.expect = chai.expect;\n",
        "import { expect } from 'chai';\n",
        // The file's own that fails (helper 73's red team: found before).
        "function assert(cond, msg) {\n  if (!cond) throw new Error(msg || 'assertion failed');\n}\n",
        "const expect = (got) => ({ toBe(want) { if (got !== want) throw new Error(`${got}`); } });\n",
        "const assert = (c) => nodeAssert.ok(c);\n",
    ] {
        let after = format!("{library}{js}");
        assert_eq!(
            one("src/add.test.js", js, &after),
            Vec::<String>::new(),
            "{library}"
        );
    }
}

/// Attack (helper 67's red team): a Python test's checks put under
/// `with contextlib.suppress(AssertionError):`, a `try` with a handler that
/// passes, written shorter. Nothing was found. A `suppress` of another error
/// (`FileNotFoundError` around a clean-up) is honest.
#[test]
fn checks_under_a_suppress_of_their_failure_are_found() {
    let py = "import contextlib\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    for caught in [
        "AssertionError",
        "Exception",
        "BaseException",
        "ValueError, AssertionError",
    ] {
        let after = py.replace(
            "    assert",
            &format!("    with contextlib.suppress({caught}):\n        assert"),
        );
        says(
            &one("tests/test_add.py", py, &after),
            "tests/test_add.py",
            "swallows its failure",
        );
    }
    // Helper 70's red team: suppress under another name, or bound first.
    for (top, with) in [
        (
            "from contextlib import suppress as s\n",
            "s(AssertionError)",
        ),
        ("quiet = contextlib.suppress(AssertionError)\n", "quiet"),
    ] {
        let after = format!("{top}{py}")
            .replace("    assert", &format!("    with {with}:\n        assert"));
        let before = format!("{top}{py}");
        says(
            &one("tests/test_add.py", &before, &after),
            "tests/test_add.py",
            "swallows its failure",
        );
    }
    let honest = py.replace(
        "    assert add(2, 3) == 5\n",
        "    assert add(2, 3) == 5\n    with contextlib.suppress(FileNotFoundError):\n        os.remove('out.txt')\n",
    );
    assert_eq!(one("tests/test_add.py", py, &honest), Vec::<String>::new());
    let quiet = format!("quiet = contextlib.suppress(KeyError)\n{py}");
    let honest = quiet.replace(
        "    assert add(2, 3) == 5\n",
        "    assert add(2, 3) == 5\n    with quiet:\n        del cache['x']\n",
    );
    assert_eq!(
        one("tests/test_add.py", &quiet, &honest),
        Vec::<String>::new()
    );
}

// Helper 72's fresh commits: a suspense test's `await waitFor(() =>
// rendered.getByText(…))` traded for fake timers advanced and the query alone
// drew `5 of 10 assertions removed` (high). The query throws when nothing
// matches: the check is still there. Traded for `queryByText`, which returns
// null, or dropped, it is gone.
#[test]
fn javascript_a_wait_traded_for_a_throwing_query_loses_no_check() {
    let p = "src/suspense.test.tsx";
    let before = "test('shows data', async () => {\n  const rendered = render(<Page />)\n  await waitFor(() => rendered.getByText('data: 1'))\n  await waitFor(() => rendered.getByRole('button'))\n  expect(count).toBe(1)\n})\n";
    let honest = before
        .replace(
            "  await waitFor(() => rendered.getByText('data: 1'))\n",
            "  await act(() => vi.advanceTimersByTime(0))\n  rendered.getByText('data: 1')\n",
        )
        .replace(
            "await waitFor(() => rendered.getByRole('button'))",
            "await rendered.findByRole('button')",
        );
    assert_eq!(one(p, before, &honest), Vec::<String>::new());
    for lost in [
        "  rendered.queryByText('data: 1')\n",
        "  const shown = rendered.getByText('data: 1')\n",
        "",
    ] {
        let after = before.replace(
            "  await waitFor(() => rendered.getByText('data: 1'))\n",
            lost,
        );
        says(&one(p, before, &after), p, "1 of 3 assertions removed");
    }
}

/// Attack: the file's own `assert` or `expect` made to look as if it can fail.
/// It called something spelled with `assert`, or held a `throw` it never reaches,
/// and counted as a check: every check through it passed and nothing was found.
/// A call counts through what the file binds the callee to; a throw under a
/// constant-false condition or after a `return` is no throw; a check of
/// constants alone cannot fail. One that fails through a helper of its own
/// (`fail(…)` that throws) stays honest.
#[test]
fn an_own_check_that_only_looks_as_if_it_can_fail_is_found() {
    let js = "const { add } = require('./add');\n\ntest('adds', () => {\n  expect(add(2, 3)).toBe(5);\n  assert(add(1, 1) === 2);\n});\n";
    for local in [
        "const assertNothing = () => {};\nfunction assert(c) { assertNothing(c); }\n",
        "function assert(c) { if (false) throw new Error('no'); }\n",
        "function assert(c) { if (0) { throw new Error('no'); } }\n",
        "function assert(c) { return; throw new Error('no'); }\n",
        "const expect = () => ({ toBe() { assert.ok(true); } });\n",
        "function expectLater() {}\nconst expect = () => ({ toBe(v) { expectLater(v); } });\n",
        // Helper 78's review: a check that only logs, a bare expect.
        "function assert(c, m) { console.assert(c, m); }\n",
        "function assert(c) { expect(c); }\n",
    ] {
        let after = format!("{local}{js}");
        says(
            &one("src/add.test.js", js, &after),
            "src/add.test.js",
            "the assertions call is patched in the test",
        );
    }
    for honest in [
        "const fail = (m) => { throw new Error(m); };\nfunction assert(c) { if (!c) fail('no'); }\n",
        "function check(c) { if (!c) { throw new Error('no'); } }\nconst expect = (got) => ({ toBe(want) { check(got === want); } });\n",
        "function assert(c) { if (!c) { return fail(); } }\nfunction fail() { throw new Error('no'); }\n",
        // Helper 78's review: failing through a check given constants.
        "const expect = (got) => ({ toBe(want) { if (got !== want) chai.assert.fail('mismatch'); } });\n",
        "function assert(c) { if (!c) nodeAssert(false, 'no'); }\n",
    ] {
        let after = format!("{honest}{js}");
        assert_eq!(
            one("src/add.test.js", js, &after),
            Vec::<String>::new(),
            "{honest}"
        );
    }
}

/// Attack (helper 73's red team): the run ended passing from where pytest calls
/// code around the tests: `setup_module`, an autouse fixture, a helper the test
/// calls, a module-level `if True:`. Nothing was found; the test body's own
/// exit was. The module's `__main__` block stays honest.
#[test]
fn an_exit_in_a_hook_a_fixture_or_a_helper_of_a_test_file_is_found() {
    let py = "import os\nimport pytest\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    for added in [
        "\ndef setup_module(module):\n    os._exit(0)\n",
        "\n@pytest.fixture(autouse=True)\ndef stop():\n    os._exit(0)\n",
        "\nif True:\n    os._exit(0)\n",
    ] {
        let after = format!("{py}{added}");
        let found = find(&[change("tests/test_add.py", Some(py), Some(&after))], &[]);
        assert!(found.iter().any(kinds::high), "{added}: {found:?}");
    }
    let helper =
        py.replace("    assert", "    stop()\n    assert") + "\ndef stop():\n    os._exit(0)\n";
    let found = find(&[change("tests/test_add.py", Some(py), Some(&helper))], &[]);
    assert!(found.iter().any(kinds::high), "{found:?}");
    let main = format!("{py}\nif __name__ == '__main__':\n    os._exit(0)\n");
    assert_eq!(one("tests/test_add.py", py, &main), Vec::<String>::new());
}

/// Attack: a skip mark bound to a name before (`slow = pytest.mark.skip`), put
/// on a test that ran. Nothing was found: the bound mark was counted once where
/// bound, before and after. Honest (helper 76: flask `491d331e`): a new
/// conditional alias put on new tests switches off nothing that ran.
#[test]
fn a_skip_mark_bound_to_a_name_put_on_a_test_that_ran_is_found() {
    let py =
        "import pytest\n\nslow = pytest.mark.skip\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let after = py.replace("def test_add", "@slow\ndef test_add");
    says(
        &one("tests/test_add.py", py, &after),
        "tests/test_add.py",
        "1 skip marker added",
    );
    let plain = "import pytest\n\ndef test_add():\n    assert add(2, 3) == 5\n";
    let new_tests = format!(
        "{plain}\nneed_env = pytest.mark.skipif(env is None, reason='no env')\n\n@need_env\ndef test_env():\n    assert load() == 1\n"
    );
    assert_eq!(
        one("tests/test_add.py", plain, &new_tests),
        Vec::<String>::new()
    );
}

/// Helper 78's review: a chain of 20,000 functions of the file's own, each
/// calling the next, behind its own `assert`, was followed without a bound and
/// overflowed the stack. Past a bound it reads as a check that cannot fail.
#[test]
fn a_long_chain_of_own_functions_is_read_without_overflowing() {
    let js = "test('adds', () => {\n  assert(add(1, 1) === 2);\n});\n";
    let chain: String = (0..20_000)
        .map(|k| format!("function f{k}(c) {{ f{}(c); }}\n", k + 1))
        .collect();
    let after = format!("{chain}function f20000(c) {{}}\nfunction assert(c) {{ f0(c); }}\n{js}");
    says(
        &one("src/add.test.js", js, &after),
        "src/add.test.js",
        "the assertions call is patched in the test",
    );
}

/// go-toml `fac33d6f`'s shape: a build constraint given another alternative
/// (`go1.21`) builds the file wherever it built: no finding. One that loses an
/// alternative, gains a conjunct, a negation or a new line, or swaps its
/// kind, still changed what builds.
#[test]
fn a_go_build_constraint_widened_is_no_finding() {
    let p = "fuzz_test.go";
    let with = |go: &str, plus: &str| format!("//go:build {go}\n// +build {plus}\n\n{GO}");
    let old = with("go1.18 || go1.19 || go1.20", "go1.18 go1.19 go1.20");
    let wider = with(
        "go1.18 || go1.19 || go1.20 || go1.21",
        "go1.18 go1.19 go1.20 go1.21",
    );
    let found = one(p, &old, &wider);
    assert!(found.is_empty(), "widened: {found:?}");
    for now in [
        with("go1.19 || go1.20 || go1.21", "go1.19 go1.20 go1.21"),
        with(
            "(go1.18 || go1.19 || go1.20) && ignore",
            "go1.18 go1.19 go1.20",
        ),
        with("go1.18 || go1.19 || go1.20", "go1.18,ignore go1.19 go1.20"),
        with("!go1.18 || go1.19 || go1.20", "go1.18 go1.19 go1.20"),
        format!(
            "{}// +build ignore\n",
            with("go1.18 || go1.19 || go1.20", "go1.18 go1.19 go1.20")
        ),
    ] {
        says(&one(p, &old, &now), p, "its build constraint changed");
    }
}

/// fs-extra `08d7d3aa`'s shape: `try { f() } catch (err) { assert.ifError(err) }`
/// fails the test on an error as the runner does with one nobody catches; the
/// `try` taken off, the call left bare, loses no check. A check of the error's
/// own (`assert.strictEqual(err.code, …)`), or a catch that does more, is one.
#[test]
fn a_catch_that_only_fails_on_the_error_is_no_check() {
    let p = "test/move.test.js";
    let test = |body: &str| {
        format!(
            "const assert = require('assert')\n\ndescribe('move', () => {{\n  it('moves', () => {{\n{body}\n    assert.ok(exists(dest))\n  }})\n}})\n"
        )
    };
    let bare = test("    move(src, dest)");
    for guarded in [
        "    try {\n      move(src, dest)\n    } catch (err) {\n      assert.ifError(err)\n    }",
        "    try {\n      move(src, dest)\n    } catch (e) {\n      // never\n      t.error(e)\n    }",
    ] {
        let found = one(p, &test(guarded), &bare);
        assert!(found.is_empty(), "{guarded}: {found:?}");
    }
    for kept in [
        "    try {\n      move(src, dest)\n    } catch (err) {\n      assert.strictEqual(err.code, 'EEXIST')\n    }",
        "    try {\n      move(src, dest)\n    } catch (err) {\n      cleanup()\n      assert.ifError(err)\n    }",
    ] {
        says(&one(p, &test(kept), &bare), p, "1 of 2 assertions removed");
    }
}

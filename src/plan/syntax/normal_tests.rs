//! The normal form: what black, prettier, rustfmt and gofmt change reads the same;
//! what changes meaning (an operator, a string's value, an assertion moved into a
//! string, two same-named definitions swapped) does not.

use super::{Grammar, view};

/// Whether two versions of a file hold the same test-relevant syntax: both parsed
/// clean and read the same once formatting, comments, import order and the order
/// of top-level definitions are taken out.
fn same_meaning(grammar: Grammar, before: &str, after: &str) -> bool {
    let (Some(a), Some(b)) = (view(grammar, before), view(grammar, after)) else {
        return false;
    };
    a.means_same(&b)
}

/// By path: a comment or a blank line reads the same; a changed operator, a file
/// of no grammar (a shell script) and one that does not parse do not.
#[test]
fn the_same_meaning_by_path_reads_comments_alike_and_bytes_otherwise() {
    let calc = "def add(a, b):\n    return a + b\n";
    let commented = "# graded\ndef add(a, b):\n\n    return a + b  # done\n";
    assert!(super::same_meaning("calc.py", calc, commented));
    assert!(!super::same_meaning(
        "calc.py",
        calc,
        &calc.replace('+', "-")
    ));
    assert!(!super::same_meaning("check.sh", "true\n", "true # done\n"));
    assert!(!super::same_meaning(
        "calc.py",
        "def add(:\n",
        "def add(:  # done\n"
    ));
    assert!(!super::same_meaning("calc", calc, commented));
}

const PY: &str = r#"import pytest
import calc, os

def test_add():
    # one and one
    assert calc.add(1, 1) == 2
    assert calc.add(2,
        2) == 4

def test_mean():
    assert calc.mean([0.1, 0.2, ]) == pytest.approx(0.15, rel=1E-9)
    x = (calc.mean([]))
    assert x is None, 'empty means none'
    for (a, b) in [(1, 2)]:
        assert a < b
"#;

/// [`PY`] as black and isort leave it.
const PY_BLACK: &str = r#"import os
import calc
import pytest


def test_add():
    assert calc.add(1, 1) == 2
    assert calc.add(2, 2) == 4  # two and two


def test_mean():
    assert calc.mean(
        [
            0.1,
            0.2,
        ]
    ) == pytest.approx(0.15, rel=1e-9)
    x = calc.mean([])
    assert x is None, "empty means none"
    for a, b in [(1, 2)]:
        assert a < b
"#;

#[test]
fn a_black_reformat_reads_the_same() {
    // isort splits `import calc, os`: one statement become two is not the same.
    let py = PY.replace("import calc, os\n", "import calc\nimport os\n");
    assert!(same_meaning(Grammar::Python, &py, PY_BLACK));
    let changed = PY_BLACK.replace("== 4", "!= 4");
    assert!(!same_meaning(Grammar::Python, &py, &changed));
    let value = PY_BLACK.replace("\"empty means none\"", "\"empty means nothing\"");
    assert!(!same_meaning(Grammar::Python, &py, &value));
    let quoted = PY_BLACK.replace(
        "    assert calc.add(1, 1) == 2\n",
        "    \"assert calc.add(1, 1) == 2\"\n",
    );
    assert!(!same_meaning(Grammar::Python, &py, &quoted));
    let tuple = PY_BLACK.replace("x = calc.mean([])", "x = (calc.mean([]),)");
    assert!(!same_meaning(Grammar::Python, &py, &tuple));
}

#[test]
fn a_class_s_empty_parentheses_black_takes_off_read_the_same() {
    let a = "class TestA():\n    def test_a(self):\n        assert a()\n";
    let b = "class TestA:\n    def test_a(self):\n        assert a()\n";
    assert!(same_meaning(Grammar::Python, a, b));
    let c = "class TestA(Base):\n    def test_a(self):\n        assert a()\n";
    assert!(!same_meaning(Grammar::Python, a, c));
}

#[test]
fn a_docstring_black_reindented_reads_the_same() {
    let a = "def test_a():\n    \"\"\"Adds.   \n\n        >>> add(1, 1)\n        2\n    \"\"\"\n    assert a()\n";
    let b =
        "def test_a():\n    \"\"\"Adds.\n\n    >>> add(1, 1)\n    2\n    \"\"\"\n    assert a()\n";
    assert!(same_meaning(Grammar::Python, a, b));
    assert!(!same_meaning(
        Grammar::Python,
        a,
        &b.replace("    2\n", "    3\n")
    ));
}

#[test]
fn python_escapes_and_prefixes_read_as_the_value() {
    let a = "def test_a():\n    assert s == 'it\\'s' and b == U'x'\n";
    let b = "def test_a():\n    assert s == \"it's\" and b == \"x\"\n";
    assert!(same_meaning(Grammar::Python, a, b));
    let f = "def test_a():\n    assert s == f'{x}'\n";
    let g = "def test_a():\n    assert s == f\"{x}\"\n";
    assert!(same_meaning(Grammar::Python, f, g));
}

#[test]
fn tests_reordered_read_the_same_but_a_redefinition_swapped_does_not() {
    let a = "def test_a():\n    assert a()\n\ndef test_b():\n    assert b()\n";
    let b = "def test_b():\n    assert b()\n\ndef test_a():\n    assert a()\n";
    assert!(same_meaning(Grammar::Python, a, b));
    let twice = "def test_a():\n    assert a()\n\ndef test_a():\n    pass\n";
    let swapped = "def test_a():\n    pass\n\ndef test_a():\n    assert a()\n";
    assert!(!same_meaning(Grammar::Python, twice, swapped));
    let side = "import sys\nsys.path.insert(0, 'x')\nimport calc\n";
    let moved = "import sys\nimport calc\nsys.path.insert(0, 'x')\n";
    assert!(!same_meaning(Grammar::Python, side, moved));
}

const JS: &str = "const { sub, add } = require('./calc')\nimport { b, a } from './x'\n\ndescribe('add', () => {\n  it('adds', async () => {\n    expect(add(1, 1)).toBe(2)\n    expect(add({'a': 1, b: [1, 2,]})).toEqual({ a: 1 })\n    const f = x => x * 2\n  })\n})\n";

/// [`JS`] as prettier leaves it.
const JS_PRETTIER: &str = "const { sub, add } = require(\"./calc\");\nimport { a, b } from \"./x\";\n\ndescribe(\"add\", () => {\n  it(\"adds\", async () => {\n    expect(add(1, 1)).toBe(2);\n    expect(\n      add({ a: 1, b: [1, 2] }),\n    ).toEqual({ a: 1 });\n    const f = (x) => x * 2;\n  });\n});\n";

#[test]
fn a_prettier_reformat_reads_the_same() {
    assert!(same_meaning(Grammar::JavaScript, JS, JS_PRETTIER));
    assert!(same_meaning(Grammar::TypeScript, JS, JS_PRETTIER));
    let changed = JS_PRETTIER.replace("toBe(2)", "toBe(3)");
    assert!(!same_meaning(Grammar::JavaScript, JS, &changed));
    let pattern = JS_PRETTIER.replace("const { sub, add }", "const { add, sub }");
    assert!(
        !same_meaning(Grammar::JavaScript, JS, &pattern),
        "only imports sort: a destructuring pattern is code"
    );
}

#[test]
fn prettier_s_numbers_and_constructor_calls_read_the_same() {
    let a = "it('a', () => { expect(new Calc).toEqual(new Calc()); expect(f(.50, 5., 1E+3, 0XFF)).toBe(1) })\n";
    let b = "it(\"a\", () => {\n  expect(new Calc()).toEqual(new Calc());\n  expect(f(0.5, 5, 1e3, 0xff)).toBe(1);\n});\n";
    assert!(same_meaning(Grammar::JavaScript, a, b));
    assert!(!same_meaning(
        Grammar::JavaScript,
        a,
        &b.replace("0.5", "0.05")
    ));
}

#[test]
fn rust_keeps_its_parentheses() {
    let a = "#[test]\nfn a() { assert!((s.check)()); }\n";
    let b = "#[test]\nfn a() { assert!(s.check()); }\n";
    assert!(!same_meaning(Grammar::Rust, a, b));
}

#[test]
fn a_vitest_config_with_trailing_commas_reads_the_same() {
    let a = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    include: ['src/**/*.test.ts'],\n    environment: 'node'\n  }\n})\n";
    let b = "import { defineConfig } from \"vitest/config\";\n\nexport default defineConfig({\n  test: {\n    include: [\"src/**/*.test.ts\"],\n    environment: \"node\",\n  },\n});\n";
    assert!(same_meaning(Grammar::TypeScript, a, b));
    let narrowed = b.replace("src/**/*.test.ts", "src/none/*.test.ts");
    assert!(!same_meaning(Grammar::TypeScript, a, &narrowed));
}

#[test]
fn a_rustfmt_reformat_reads_the_same() {
    let a = "use calc::{sub, add};\nuse std::fmt;\n#[test]\nfn adds() { assert_eq!(add(1,1), 2,); let x = (1 + 2) * 3; assert!(x == 9) }\n";
    let b = "use calc::{add, sub};\nuse std::fmt;\n\n#[test]\nfn adds() {\n    // why not\n    assert_eq!(add(1, 1), 2);\n    let x = (1 + 2) * 3;\n    assert!(x == 9)\n}\n";
    assert!(same_meaning(Grammar::Rust, a, b));
    let c = b.replace("(1 + 2) * 3", "1 + 2 * 3");
    assert!(!same_meaning(Grammar::Rust, a, &c));
    let doc = "/// ```\n/// assert_eq!(calc::add(1, 1), 2);\n/// ```\npub fn add() {}\n";
    let doc_changed = doc.replace("2);", "3);");
    assert!(
        !same_meaning(Grammar::Rust, doc, &doc_changed),
        "doctests run"
    );
}

#[test]
fn a_gofmt_reformat_reads_the_same() {
    let a = "package calc\n\nimport (\n\t\"testing\"\n\t\"fmt\"\n)\n\nfunc TestAdd(t *testing.T) {\n    if got := Add(1,1); got != 2 { t.Errorf(\"Add = %d\", got) }\n}\n";
    let b = "package calc\n\nimport (\n\t\"fmt\"\n\t\"testing\"\n)\n\n// TestAdd adds.\nfunc TestAdd(t *testing.T) {\n\tif got := Add(1, 1); got != 2 {\n\t\tt.Errorf(\"Add = %d\", got)\n\t}\n}\n";
    assert!(same_meaning(Grammar::Go, a, b));
    let inits = "package calc\n\nfunc init() { a() }\n\nfunc init() { b() }\n";
    let swapped = "package calc\n\nfunc init() { b() }\n\nfunc init() { a() }\n";
    assert!(
        !same_meaning(Grammar::Go, inits, swapped),
        "init functions run in order"
    );
    let constraint = format!("//go:build never\n\n{b}");
    assert!(!same_meaning(Grammar::Go, a, &constraint));
    let example =
        "package calc\n\nfunc ExampleAdd() {\n\tfmt.Println(Add(1, 1))\n\t// Output:\n\t// 2\n}\n";
    let other = example.replace("// 2", "// 3");
    assert!(
        !same_meaning(Grammar::Go, example, &other),
        "an Example's output is checked"
    );
}

#[test]
fn a_file_that_does_not_parse_is_never_the_same() {
    let broken = "def test_a(:\n    assert a(\n";
    assert!(!same_meaning(Grammar::Python, broken, broken));
    assert!(!view(Grammar::Python, broken).unwrap().clean);
}

#[test]
fn nesting_past_the_limit_leaves_the_view_unclean_without_overflowing() {
    let deep = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
    let v = view(Grammar::Python, &deep).unwrap();
    assert!(!v.clean);
    let over = "x".repeat(super::MAX_BYTES + 1);
    assert!(view(Grammar::Python, &over).is_none());
}
#[test]
fn a_python_block_with_nothing_in_it_is_no_clean_parse() {
    // tree-sitter's grammar takes `def f():` at the end of a file; Python does not.
    assert!(!view(Grammar::Python, "def test_a():\n").unwrap().clean);
}

#[test]
fn many_top_level_tests_and_macros_read_in_one_pass() {
    // Each was quadratic once: a name counted against every other, a macro's
    // tokens looked for among the file's, a call asked for its parent.
    let py: String = (0..3000)
        .map(|i| format!("def test_{i}():\n    assert add({i}) == {i}\n\n"))
        .collect();
    assert_eq!(view(Grammar::Python, &py).unwrap().tests.len(), 3000);
    let rs: String = (0..3000)
        .map(|i| {
            format!(
                "#[test]\nfn t{i}() {{ assert!(a({i})); }}\nmacro_rules! m{i} {{ () => {{}} }}\n"
            )
        })
        .collect();
    let v = view(Grammar::Rust, &rs).unwrap();
    assert_eq!((v.tests.len(), v.macros.len()), (3000, 3000));
    let js: String = (0..3000)
        .map(|i| format!("it('t{i}', () => {{ expect(a({{'k': {i}}})).toBe({i}); }});\n"))
        .collect();
    let v = view(Grammar::JavaScript, &js).unwrap();
    assert!(v.tests.iter().all(|t| t.assertions.len() == 1));
}

mod robustness {
    use proptest::prelude::*;

    use super::super::{Grammar, view};

    fn piece() -> impl Strategy<Value = String> {
        prop_oneof![
            Just("def test_a():\n    assert a == 'é'\n".to_string()),
            Just("it('a', () => { expect(/'/).toBe(`${x}`) })\n".to_string()),
            Just("#[test]\nfn a() { assert!(r#\"x\"# == \"ü\"); }\n".to_string()),
            Just("macro_rules! m { () => { #[test] fn a() {} } }\n".to_string()),
            Just("func TestA(t *testing.T) { t := 1; t.Errorf(\"x\") }\n".to_string()),
            Just("\"\"\"\n".to_string()),
            Just("'\n".to_string()),
            Just("(((\n".to_string()),
            Just("}\n".to_string()),
            Just("// comment 🚀\n".to_string()),
            "\\PC{0,12}",
        ]
    }

    proptest! {
        /// Whatever the text, a view is built without a panic, and a clean one
        /// reads the same as itself.
        #[test]
        fn any_text_has_a_view(pieces in proptest::collection::vec(piece(), 0..12)) {
            let text = pieces.concat();
            for g in [Grammar::Python, Grammar::JavaScript, Grammar::TypeScript, Grammar::Tsx, Grammar::Rust, Grammar::Go] {
                let v = view(g, &text).unwrap();
                prop_assert_eq!(v.clean, super::same_meaning(g, &text, &text));
            }
        }
    }
}

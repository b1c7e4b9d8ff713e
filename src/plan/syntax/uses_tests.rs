//! What a file names and calls, and what in it nothing calls, patches,
//! tabulates and exports, read from its tree.

use super::{Grammar, Uses, view, words};

fn uses(g: Grammar, text: &str) -> Uses {
    view(g, text).expect("a view").uses
}

fn uncalled(u: &Uses) -> Vec<&str> {
    u.uncalled.iter().map(|(name, _)| name.as_str()).collect()
}

// A regex holding a quote, or a quote in a raw string, hides no call after it,
// as it did from a tokenizer that took the quote for a string's opening.
#[test]
fn a_quote_in_a_regex_or_a_raw_string_hides_no_call() {
    let js = words(
        Grammar::JavaScript,
        "const r = /\"/;\ncheck(x); // gone(y)\n",
    );
    assert!(js.contains(&("check", true)), "{js:?}");
    assert!(!js.iter().any(|w| w.0 == "gone"), "{js:?}");
    let rs = words(
        Grammar::Rust,
        "let s = r#\"a\" b\"#;\ncheck(x);\nlet t = \"c(d)\";\n",
    );
    assert!(rs.contains(&("check", true)), "{rs:?}");
    assert!(!rs.iter().any(|w| w.0 == "c"), "{rs:?}");
}

// A helper named only in a string or a comment is called by nothing; one called
// is not; a test, a hook, a decorated or exported function and an `impl`'s
// method run without the file calling them.
#[test]
fn what_nothing_calls_is_each_language_s_uncalled_definitions() {
    let py = uses(
        Grammar::Python,
        "def lonely(x):\n    assert x  # lonely\n\ndef used(x):\n    assert x\n\ndef test_a():\n    used(1)\n    print('lonely')\n\ndef setUp():\n    pass\n\n@fixture\ndef given():\n    assert 1\n\nclass Helper:\n    def check(self):\n        assert 1\n\nclass Case(unittest.TestCase):\n    pass\n",
    );
    assert_eq!(uncalled(&py), ["lonely", "Helper"]);
    // A declaration after a line with no semicolon is one all the same.
    let js = uses(
        Grammar::JavaScript,
        "const a = 1\nfunction lonely() { expect(a).toBe(1) }\nexport function shared() {}\nit('a', function named() { expect(1).toBe(1) })\n",
    );
    assert_eq!(uncalled(&js), ["lonely"]);
    let rs = uses(
        Grammar::Rust,
        "fn lonely() { assert!(true); }\n#[test]\nfn t() {}\n#[allow(dead_code)]\nfn quiet() {}\nimpl Drop for X { fn drop(&mut self) {} }\nfn main() {}\n",
    );
    assert_eq!(uncalled(&rs), ["lonely", "quiet"]);
    let go = uses(
        Grammar::Go,
        "package a\n\nfunc lonely(t *testing.T) { t.Fatal() }\n\nfunc TestA(t *testing.T) {}\n",
    );
    assert_eq!(uncalled(&go), ["lonely"]);
}

#[test]
fn the_rows_of_each_language_s_tables() {
    let py = uses(
        Grammar::Python,
        "@pytest.mark.parametrize(\"x\", [\n    1,  # one\n    2,\n])\ndef test_a(x):\n    assert x\n\n@pytest.mark.parametrize(\"y\", argvalues=[1])\ndef test_b(y):\n    assert y\n",
    );
    assert_eq!((py.cases, py.tables), (2, 1));
    let js = uses(
        Grammar::JavaScript,
        "test.each([[1, 2], [3, 4], [5, 6]])('a', (a, b) => {});\ntest.each`a\n${1}`('b', () => {});\n",
    );
    assert_eq!((js.cases, js.tables), (3, 1));
    let go = uses(
        Grammar::Go,
        "package a\n\nvar cases = []struct{ in int }{\n\t{1},\n\t{2},\n}\n\nvar pair = [2]struct{ in int }{{1}, {2}}\n",
    );
    assert_eq!((go.cases, go.tables), (2, 1));
}

#[test]
fn the_names_a_file_patches() {
    let py = uses(
        Grammar::Python,
        "@mock.patch(\"calc.add\")\ndef test_a(m, monkeypatch):\n    monkeypatch.setattr(calc, 'sub', lambda: 1)\n    patch.object(calc, \"mul\")\n    self.patch(\"calc.div\")\n",
    );
    assert_eq!(py.patched, ["add", "mul", "sub"]);
    let js = uses(
        Grammar::JavaScript,
        "vi.spyOn(calc, 'add');\njest.spyOn(calc, `sub`);\nother.spyOn(calc, 'mul');\n",
    );
    assert_eq!(js.patched, ["add", "sub"]);
}

// A return type no longer hides an exported function's body; one exported as
// the default is imported under any name, and is none.
#[test]
fn exported_harnesses_with_their_bodies_and_rows() {
    let text = "export function shared(): void {\n  test.each([1, 2])('a', (x) => { expect(x).toBe(x) })\n}\nexport const arrow = async () => { test('b', () => {}) }\nexport default function main() { test('c', () => {}) }\n";
    let ts = uses(Grammar::TypeScript, text);
    let found: Vec<(&str, usize)> = ts
        .harnesses
        .iter()
        .map(|h| (h.name.as_str(), h.cases))
        .collect();
    assert_eq!(found, [("shared", 2), ("arrow", 0)]);
    let body = &ts.harnesses[0].body;
    assert!(text[body.clone()].contains("test.each"), "{body:?}");
}

// An export inside an exported function's body (a file that does not parse) is
// no harness of its own: taken, 3,000 nested ones read the rows of all those
// inside each again (121 s on a debug build before, 1.3 s after).
#[test]
fn an_export_nested_in_a_harness_is_none_of_its_own() {
    let depth = 3_000;
    let text = format!(
        "{}{}",
        "export function a() {\n  test.each([1])('t', (x) => { expect(x).toBe(1) })\n"
            .repeat(depth),
        "}\n".repeat(depth)
    );
    let found = super::on_check_stack(move || {
        let js = uses(Grammar::JavaScript, &text);
        js.harnesses
            .iter()
            .map(|h| (h.name.clone(), h.cases))
            .collect::<Vec<_>>()
    });
    assert_eq!(found, [("a".to_string(), depth)]);
}

//! Rule `formatting-only`: a file whose test-relevant syntax is the same before and
//! after once formatting is taken out (black, prettier, rustfmt, gofmt) has no
//! finding; a change of meaning among the same reformat still has its own.

use super::*;

fn change(path: &str, before: &str, after: &str) -> Change {
    Change {
        path: path.to_string(),
        was: None,
        before: Some(before.to_string()),
        after: Some(after.to_string()),
    }
}

fn one(path: &str, before: &str, after: &str) -> Vec<String> {
    find(&[change(path, before, after)], &[])
        .iter()
        .map(ToString::to_string)
        .collect()
}

macro_rules! pair {
    ($name:literal) => {
        (
            include_str!(concat!(
                "../../../fixtures/weakened/formatting-only/before",
                $name
            )),
            include_str!(concat!(
                "../../../fixtures/weakened/formatting-only/after",
                $name
            )),
        )
    };
}

#[test]
fn a_black_reformat_of_a_python_test_file_is_no_finding() {
    let (before, after) = pair!(".py");
    assert_eq!(
        one("tests/test_calc.py", before, after),
        Vec::<String>::new()
    );
}

#[test]
fn a_prettier_reformat_of_a_javascript_test_file_is_no_finding() {
    let (before, after) = pair!(".test.js");
    assert_eq!(one("src/calc.test.js", before, after), Vec::<String>::new());
    assert_eq!(one("src/calc.test.ts", before, after), Vec::<String>::new());
}

#[test]
fn trailing_commas_added_to_a_vitest_config_are_no_finding() {
    let (before, after) = pair!(".vitest.config.ts");
    assert_eq!(one("vitest.config.ts", before, after), Vec::<String>::new());
    let narrowed = after.replace("src/**/*.test.ts", "src/none/*.test.ts");
    assert_eq!(one("vitest.config.ts", before, &narrowed).len(), 1);
}

#[test]
fn a_rustfmt_reformat_of_a_rust_test_file_is_no_finding() {
    // `.rs.txt`: .ci/run holds every tracked `.rs` file to rustfmt, and the
    // unformatted side is the point.
    let (before, after) = pair!(".rs.txt");
    assert_eq!(one("tests/calc.rs", before, after), Vec::<String>::new());
}

#[test]
fn a_gofmt_reformat_of_a_go_test_file_is_no_finding() {
    let (before, after) = pair!("_test.go");
    assert_eq!(one("calc_test.go", before, after), Vec::<String>::new());
}

#[test]
fn tests_reordered_are_no_finding() {
    let (before, _) = pair!(".py");
    let (head, rest) = before.split_at(before.find("def test_add").unwrap());
    let (add, others) = rest.split_at(rest.find("def test_parse").unwrap());
    let reordered = format!("{head}{others}\n\n{}", add.trim_end());
    assert_eq!(
        one("tests/test_calc.py", before, &reordered),
        Vec::<String>::new()
    );
}

#[test]
fn a_reformat_that_also_drops_an_assertion_is_still_found() {
    let (before, after) = pair!(".py");
    let dropped = after.replace("    assert add(2, 2) == 4, \"two and two\"\n", "");
    let found = one("tests/test_calc.py", before, &dropped);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("1 of 6 assertions removed"), "{found:?}");
    assert!(
        !found[0].contains(" became "),
        "no pairing across tests: {found:?}"
    );
}

#[test]
fn a_reformat_of_one_test_lends_no_assertion_to_its_neighbour_s_change() {
    let (before, after) = pair!(".py");
    // test_parse reformatted (black), test_mean reordered above test_add and one
    // of test_add's expected values changed: only that change is found.
    let (head, rest) = after.split_at(after.find("def test_add").unwrap());
    let (add, others) = rest.split_at(rest.find("def test_parse").unwrap());
    let (parse, mean) = others.split_at(others.find("def test_mean").unwrap());
    let add = add.replace("== 4, \"two and two\"", "== 5, \"two and two\"");
    let changed = format!("{head}{mean}\n\n{parse}{add}");
    let found = one("tests/test_calc.py", before, &changed);
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("assert add(2, 2) == 4"), "{found:?}");
    assert!(
        !found[0].contains("mean") && !found[0].contains("parse"),
        "{found:?}"
    );
}

/// moment/luxon b6f7a850db9e, labelled "an assertion deleted": the test's
/// diff shows the line removed, but it is added again one line down, under a
/// comment, and the commit cuts only `// todo` comments besides. The
/// assertion moved in its own test: no finding. The same assertion cut is one.
#[test]
fn an_assertion_moved_below_a_comment_in_its_test_is_no_finding() {
    let file = |body: &str| {
        format!(
            "import {{ zoneOf }} from '../../src/zone';\n\ntest('keeps its name', () => {{\n  expect(zoneOf('A/B').name).toBe('A/B');\n}});\n\ntest('names its offset', () => {{\n  const z = zoneOf('A/B');\n{body}  expect(z.long).toBe('Middle Time');\n}});\n"
        )
    };
    let path = "test/datetime/zone.test.js";
    let before = file(
        "\n  expect(z.name).toBe('A/B');\n  expect(z.short).toBe('UTC+1');\n  // the short name may differ elsewhere\n",
    );
    let moved = file(
        "  expect(z.name).toBe('A/B');\n  // the short name may differ elsewhere\n  expect(z.short).toBe('UTC+1');\n",
    );
    let cut = file("  expect(z.name).toBe('A/B');\n  // the short name may differ elsewhere\n");
    assert_eq!(one(path, &before, &moved), Vec::<String>::new());
    assert_eq!(
        one(path, &before, &cut),
        vec![format!("{path}: 1 of 4 assertions removed")]
    );
}

// An inline snapshot's string respelled (`\"` inside single quotes is `"`),
// beside a real edit of the file: the string's value is the same, so the
// check is; a value changed is still found.
#[test]
fn a_string_respelled_with_the_same_value_is_no_rewrite() {
    let before = "// @vitest-environment node\ntest('renders', () => {\n  expect(render()).toMatchInlineSnapshot('\"<div id=\"foo\">a</div>\"')\n})\n";
    let after = "// @vitest-environment jsdom\ntest('renders', () => {\n  const x = 1\n  expect(render()).toMatchInlineSnapshot('\"<div id=\\\"foo\\\">a</div>\"')\n})\n";
    assert_eq!(one("src/a.spec.ts", before, after), Vec::<String>::new());
    let changed = after.replace(">a<", ">b<");
    let said = one("src/a.spec.ts", before, &changed);
    assert!(said.iter().any(|s| s.contains("became")), "{said:?}");
}

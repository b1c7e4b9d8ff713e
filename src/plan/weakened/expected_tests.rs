//! What an expected value is, spelled and bound: helper-141's red team of the
//! testify reading, of expected values compared by the value they spell, of keyed
//! entries in any order, of old checks read through the old file's names and of
//! names bound anew. Each failed on ff43f59: a weakening the detector missed, or
//! an honest rewrite it flagged; the last two probe odd and crafted sides.

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

fn says(found: &[String], path: &str, what: &str) {
    assert!(
        found.len() == 1 && found[0].starts_with(&format!("{path}: ")) && found[0].contains(what),
        "expected {path}: …{what}…, got {found:?}"
    );
}

const PYP: &str = "tests/test_calc.py";
const GOP: &str = "calc/calc_test.go";

fn py(body: &str) -> String {
    format!("import json\nimport calc\n\n\ndef test_it():\n{body}    assert calc.add(1, 1) == 2\n")
}

fn go(body: &str) -> String {
    format!(
        "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestIt(t *testing.T) {{\n{body}\tassert.Equal(t, 2, Add(1, 1))\n}}\n"
    )
}

// ---- A. regressions against plan-s64e (caught before this session) ----

/// `valued` folds whitespace inside string literals: a CRLF expected value
/// become LF (or a tab become a space) is "the same value". s64e found it.
#[test]
fn crlf_become_lf_is_found() {
    let b = py("    assert calc.render([\"a\", \"b\"]) == \"a\\r\\nb\"\n");
    let a = py("    assert calc.render([\"a\", \"b\"]) == \"a\\nb\"\n");
    says(&one(PYP, &b, &a), PYP, "its expected value changed");
}

#[test]
fn tab_become_space_is_found() {
    let b = py("    assert calc.render([\"a\", \"b\"]) == \"a\\tb\"\n");
    let a = py("    assert calc.render([\"a\", \"b\"]) == \"a b\"\n");
    says(&one(PYP, &b, &a), PYP, "its expected value changed");
}

/// `keyed` sorts a dict's entries even where order is the value (json.dumps,
/// OrderedDict, a key repeated). s64e found it.
#[test]
fn ordered_dict_reordered_is_found() {
    let b = py("    assert calc.dump(3) == json.dumps({\"id\": 3, \"name\": \"x\"})\n");
    let a = py("    assert calc.dump(3) == json.dumps({\"name\": \"x\", \"id\": 3})\n");
    says(&one(PYP, &b, &a), PYP, "its expected value changed");
}

/// `was_bound`: an unchanged-after-a-no-op check (`before = s.size()`, then
/// `s.size() == before`) is skipped as "one value compared with itself", so
/// making it a presence check is missed. s64e found it.
#[test]
fn unchanged_check_made_presence_is_found() {
    let b = "import calc\n\n\ndef test_remove_missing():\n    s = calc.Set([1, 2, 3])\n    before = s.size()\n    s.remove(9)\n    assert s.size() == before\n";
    let a = b.replace("assert s.size() == before", "assert s.size() is not None");
    says(&one(PYP, b, &a), PYP, "presence");
}

/// Go's `\xe9` is one byte, not U+00E9: `"\xe9"` become `"é"` (two bytes)
/// changes the value. s64e found it.
#[test]
fn go_byte_escape_become_char_is_found() {
    let b = "package calc\n\nimport \"testing\"\n\nfunc TestLatin1(t *testing.T) {\n\tif got := Latin1(\"é\"); got != \"\\xe9\" {\n\t\tt.Errorf(\"%q\", got)\n\t}\n\tif got := Latin1(\"\"); got != \"\" {\n\t\tt.Errorf(\"%q\", got)\n\t}\n}\n";
    let a = b.replace("got != \"\\xe9\"", "got != \"é\"");
    assert_ne!(a, b);
    says(&one(GOP, b, &a), GOP, "its expected value changed");
}

// ---- A. testify weakenings the new reading misses ----

/// Expected and actual swapped (common in real Go code): only the second
/// argument is read as the subject, so the changed expected value is missed.
#[test]
fn testify_swapped_args_expected_changed_is_found() {
    let b = go("\tassert.Equal(t, Add(2, 3), 5)\n");
    let a = go("\tassert.Equal(t, Add(2, 3), 6)\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// `True(t, x == 5)` is read as Exact(x, 5), subject FIRST, but
/// `expected_changed` reads testify's subject second.
#[test]
fn testify_true_comparison_expected_changed_is_found() {
    let b = go("\tassert.True(t, Add(2, 3) == 5)\n");
    let a = go("\tassert.True(t, Add(2, 3) == 6)\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// True become False (Python's `assert not` is found by `inverted`).
/// The f variants (`Equalf`, `NotNilf`, …) are not read at all.
#[test]
fn testify_f_variant_expected_changed_is_found() {
    let b = go("\tassert.Equalf(t, 5, Add(2, 3), \"add\")\n");
    let a = go("\tassert.Equalf(t, 6, Add(2, 3), \"add\")\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// An exact check loosened to a comparison (Python's `== 5` → `> 0` is found as
/// "an exact comparison loosened").
/// `False(t, a == b)` is a Differs check; it is not read, so Equal become it
/// is missed (its mirror `True(t, a != 0)` is found).
#[test]
fn testify_equal_become_false_equality_is_found() {
    let b = go("\tassert.Equal(t, 5, Add(2, 3))\n");
    let a = go("\tassert.False(t, Add(2, 3) == 0)\n");
    assert_eq!(one(GOP, &b, &a).len(), 1, "{:?}", one(GOP, &b, &a));
}

/// `rebound` reads at most 16 changed names, taken in HashMap order: 400 new
/// junk bindings push `want` out (and the result differs run to run).
#[test]
fn rebound_survives_junk_bindings() {
    let b = "import calc\n\n\ndef test_add():\n    want = 5\n    assert calc.add(2, 3) == want\n";
    let plain = b.replace("want = 5", "want = calc.add(2, 3)");
    says(&one(PYP, b, &plain), PYP, "value itself");
    let junk: String = (0..400).map(|i| format!("k{i} = {i}\n")).collect();
    let a = plain.replace("import calc\n", &format!("import calc\n{junk}"));
    for _ in 0..5 {
        says(&one(PYP, b, &a), PYP, "value itself");
    }
}

/// `valued` reads a JavaScript template literal and a quoted string as one
/// value: `` `Hello ${name}` `` become `'Hello ${name}'` (the literal text, as a
/// buggy implementation with the wrong quotes returns) is missed. s64e found it.
#[test]
fn js_template_become_plain_string_is_found() {
    let p = "src/greet.test.ts";
    let b = "import { greet } from './greet';\n\ntest('greet', () => {\n  const name = 'Bo';\n  expect(greet(name)).toBe(`Hello ${name}`);\n  expect(greet('')).toBe('Hello ');\n});\n";
    let a = b.replace("toBe(`Hello ${name}`)", "toBe('Hello ${name}')");
    assert_ne!(a, b);
    says(&one(p, b, &a), p, "its expected value changed");
}

/// testify's `Len(t, object, length)` is read Exact(object, length), subject
/// first; `expected_changed` reads testify's subject second, so 3 → 4 is missed.
#[test]
fn testify_len_changed_is_found() {
    let b = go("\tassert.Len(t, Items(), 3)\n");
    let a = go("\tassert.Len(t, Items(), 4)\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// `rebound` re-reads an unchanged check only for `weakened_in_place`: the
/// expected value changed through its name (`want = 5` → `want = 6`) is missed
/// (the cheapest edit of all; missed by s64e too).
/// `rebound` needs the new file to bind the name once: a second binding
/// anywhere (a dead helper) makes `want` ambiguous and the rewrite unseen.
/// testify numbers respelled (`1000000` → `1_000_000`, `255` → `0xff`): the
/// new testify reading flags them; `valued` normalises strings only.
#[test]
fn testify_number_respelled_is_not_found() {
    for (was, now) in [("1000000", "1_000_000"), ("255", "0xff")] {
        let b = go(&format!("\tassert.Equal(t, {was}, Parse(\"x\"))\n"));
        let a = go(&format!("\tassert.Equal(t, {now}, Parse(\"x\"))\n"));
        assert_eq!(one(GOP, &b, &a), Vec::<String>::new());
    }
}

/// The cheapest testify evasion: swap the arguments while changing the value.
/// Only the old check's second argument is looked up as a subject, and only
/// among new checks' second arguments.
#[test]
fn testify_swap_and_change_is_found() {
    let b = go("\tassert.Equal(t, 5, Add(2, 3))\n");
    for now in [
        "\tassert.Equal(t, Add(2, 3), 6)\n",
        "\tassert.True(t, Add(2, 3) == 6)\n",
    ] {
        let a = go(now);
        says(&one(GOP, &b, &a), GOP, "its expected value changed");
    }
}

/// testify `True` on an operator-free value is read as an exact check, so a
/// predicate wrapping the subject (`True(t, isInt(Add(2, 3)))`) counts as the
/// subject "still checked exactly" and hides the presence check beside it.
/// (Python's `assert isinstance(calc.add(2, 3), int) == True` does not hide it.)
/// Go's `"caf\xc3\xa9"` IS `"café"` (UTF-8 bytes); `valued` decodes `\x` as a
/// code point and flags the honest respelling.
#[test]
fn go_utf8_bytes_respelled_is_not_found() {
    let b = "package calc\n\nimport \"testing\"\n\nfunc TestName(t *testing.T) {\n\tif got := Name(1); got != \"caf\\xc3\\xa9\" {\n\t\tt.Errorf(\"%q\", got)\n\t}\n\tif got := Name(0); got != \"\" {\n\t\tt.Errorf(\"%q\", got)\n\t}\n}\n";
    let a = b.replace("\"caf\\xc3\\xa9\"", "\"café\"");
    assert_ne!(a, b);
    assert_eq!(one(GOP, b, &a), Vec::<String>::new());
}

// ---- C. cost on crafted inputs (times printed, not asserted) ----

/// `rebound` counts a name bound twice in the old file (two tests) and once in
/// the new (one test's variable renamed) as rebound: the untouched other test
/// is re-read and blamed.
#[test]
fn rename_in_another_test_blames_nothing() {
    let b = "import calc\n\n\ndef test_a():\n    want = calc.add(2, 3)\n    assert calc.add(2, 3) == want\n\n\ndef test_b():\n    want = 7\n    assert calc.add(3, 4) == want\n";
    let at = b.find("def test_b").unwrap();
    let a = format!("{}{}", &b[..at], b[at..].replace("want", "expected"));
    assert_eq!(one(PYP, b, &a), Vec::<String>::new());
}

/// A reference implementation as the oracle through a name (`want = 3.0` →
/// `want = math.sqrt(9)` beside `calc.sqrt(9) == want`): `rebound` now reads
/// it, and `calls` matches `math.sqrt` for `calc.sqrt` by its last part.
/// Odd expected values through `valued` / `keyed` / `unescape` in each
/// language: no panic (passes on ff43f59; kept as a sweep).
#[test]
fn odd_sides_do_not_panic() {
    let odd = [
        "\"é\\u{1F600\"",
        "\"\\U0011ffff1\"",
        "\"\\ud800 1\"",
        "'é1",
        "r'é1\\'",
        "`é1",
        "{é: 1, ü: {\"a\": '1', b: `1`}}",
        "{: 1, :}",
        "{{{{{{{{{{{{a: 1, b: 2}}}}}}}}}}}}",
        "\"\\x\" + \"1\"",
        "\"\\777 1\"",
        "br\"é1\\\"",
        "b'\\xzz1'",
        "f'{x!r:>{w}}1'",
        "'a' 'b' 1",
        "{'k': 1, 'k': 2}",
        "[{a: 1}, {a: 1, b}]",
        "\"\\\\\" 1",
        "\"é\\",
        "{\"a\": \"}\", b: 1}",
        "u'\\N{DASH}1'",
        "x:<'a> 1",
    ];
    let paths = [
        ("tests/test_a.py", "assert f(1) == {}\n"),
        ("a.test.ts", "expect(f(1)).toBe({});\n"),
        ("tests/a.rs", "assert_eq!(f(1), {});\n"),
        ("a_test.go", "assert.Equal(t, {}, f(1))\n"),
    ];
    for (path, form) in paths {
        for was in odd {
            let now = was.replace('1', "2");
            let b = format!("{}{}", form.replace("{}", was), form.replace("{}", "0"));
            let a = format!("{}{}", form.replace("{}", &now), form.replace("{}", "0"));
            let _ = one(path, &b, &a);
            let _ = one(path, &a, &b);
        }
    }
}

// ---- D. rt142's red team of ff43f59..c2f29f8 ----

/// `valued` reads the digits after a decimal point as a whole number of their
/// own: `0.05` becomes `0.5`, so the two are "one value" and a changed
/// expected value is taken for a respelling.
#[test]
fn fraction_leading_zero_changed_is_found() {
    let b = py("    assert calc.half(0.1) == 0.05\n");
    let a = py("    assert calc.half(0.1) == 0.5\n");
    says(&one(PYP, &b, &a), PYP, "its expected value changed");
}

#[test]
fn go_fraction_leading_zero_changed_is_found() {
    let b = go("\tassert.Equal(t, 1.05, Scale(1))\n");
    let a = go("\tassert.Equal(t, 1.5, Scale(1))\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// Go's `0755` is octal (493), not 755: `valued` reads a leading zero as
/// decimal, so a file mode's expected value changed is "the same value".
#[test]
fn go_octal_leading_zero_changed_is_found() {
    let b = go("\tassert.Equal(t, 0755, Perm(\"a\"))\n");
    let a = go("\tassert.Equal(t, 755, Perm(\"a\"))\n");
    says(&one(GOP, &b, &a), GOP, "its expected value changed");
}

/// An old self-comparison of a subject listed first does not hide a later
/// exact check of it that became the value itself (`was_itself` moves on).
#[test]
fn self_check_first_hides_later_exact_check() {
    let b = "import calc\n\n\ndef test_remove():\n    s = calc.Set([1, 2, 3])\n    before = s.size()\n    s.remove(9)\n    assert s.size() == before\n    s.remove(1)\n    assert s.size() == 2\n";
    let a = "import calc\n\n\ndef test_remove():\n    s = calc.Set([1, 2, 3])\n    before = s.size()\n    s.remove(9)\n    assert before == s.size()\n    s.remove(1)\n    assert s.size() == s.size()\n";
    says(&one(PYP, b, a), PYP, "value itself");
}

/// `rebound` needs the old file to bind the name: a Go `const` is a binding,
/// so one turned into a `var` bound to the code under test is found.
#[test]
fn go_const_become_var_of_subject_is_found() {
    let b = "package calc\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nconst want = 5\n\nfunc TestIt(t *testing.T) {\n\tassert.Equal(t, want, Add(2, 3))\n}\n";
    let a = b.replace("const want = 5", "var want = Add(2, 3)");
    let found = one(GOP, b, &a);
    assert_eq!(
        found,
        [
            "calc/calc_test.go: `Equal(t, want, Add(2, 3))` stayed, with a name in it bound anew (its expected value became the value itself)"
        ]
    );
}

/// The digits after a point read as a whole number: a tolerance ten times
/// looser (`0.001` become `0.1`, both read `0.1`) is "the same value".
#[test]
fn tolerance_loosened_is_found() {
    let b = py("    assert calc.third(1) == pytest.approx(0.333, abs=0.001)\n");
    let a = py("    assert calc.third(1) == pytest.approx(0.333, abs=0.1)\n");
    says(&one(PYP, &b, &a), PYP, "approx");
}

/// Honest: Go's `'\xe9'` is a rune, the code point U+00E9, not a byte; read as
/// the byte 0xe9 it differs from `'é'` and the respelling is flagged.
#[test]
fn go_rune_hex_escape_respelled_is_not_found() {
    let b = go("\tassert.Equal(t, '\\xe9', First(\"é\"))\n");
    let a = go("\tassert.Equal(t, 'é', First(\"é\"))\n");
    let found = one(GOP, &b, &a);
    assert!(found.is_empty(), "{found:?}");
}

//! Rule `assertion-rewritten`, loosened form: an exact check of a value made a
//! check near it or of a part of it (testify's `Equal` become `InDelta` or
//! `Contains`, Python's `==` become `.startswith(…)` or `in`) is found; a check
//! that was near or partial before and stays so is not.

use super::*;

fn one(path: &str, before: &str, after: &str) -> Vec<String> {
    found_in(path, before, after)
        .iter()
        .map(ToString::to_string)
        .collect()
}

fn go(body: &str) -> String {
    format!(
        "package conv\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestFloat(t *testing.T) {{\n\tc := load(\"k\")\n{body}}}\n"
    )
}

fn py(body: &str) -> String {
    format!(
        "from table import render\n\n\ndef test_render():\n    expected = \"top\\nbottom\\n\"\n{body}"
    )
}

#[test]
fn testify_equal_made_a_tolerance_or_a_containment_is_found() {
    let b = go("\tassert.Equal(t, float32(1.5), c.Float32(\"k\"))\n");
    for a in [
        "\tassert.InDelta(t, float32(1.5), c.Float32(\"k\"), 0.01)\n",
        "\tassert.Contains(t, c.Float32(\"k\"), \"1\")\n",
    ] {
        let found = one("conv_test.go", &b, &go(a));
        assert!(
            found.len() == 1 && found[0].contains("an exact comparison loosened"),
            "{a}: {found:?}"
        );
    }
}

#[test]
fn python_equality_made_a_prefix_or_membership_is_found() {
    let b = py("    assert expected == render({})\n");
    for a in [
        "    assert render({}).startswith(expected)\n",
        "    assert expected in render({})\n",
    ] {
        let found = one("tests/test_table.py", &b, &py(a));
        assert!(
            found.len() == 1 && found[0].contains("an exact comparison loosened"),
            "{a}: {found:?}"
        );
    }
}

#[test]
fn a_tolerance_kept_is_no_finding() {
    let b = go("\tassert.InDelta(t, float32(1.5), c.Float32(\"k\"), 0.01)\n");
    let a = go("\tassert.InDelta(t, float32(1.5), c.Float32(\"k\"), 0.001)\n");
    assert_eq!(one("conv_test.go", &b, &a), Vec::<String>::new());
    let b = py("    assert render({}).startswith(expected)\n");
    let a = py("    assert render({}) == expected\n");
    assert_eq!(one("tests/test_table.py", &b, &a), Vec::<String>::new());
}

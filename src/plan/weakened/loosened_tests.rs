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

/// The other way: a containment asked for a longer string that holds the one it
/// asked for (`toContain('a.ts')` become `toContain('a.ts:2:42')`) is stricter.
#[test]
fn a_containment_of_a_longer_string_is_no_finding() {
    let js = |needle: &str| {
        format!(
            "import {{ expect, test }} from 'vitest'\n\ntest('reports the place', async () => {{\n  const {{ stderr }} = await run('setup.ts')\n  expect(stderr).toContain('{needle}')\n}})\n"
        )
    };
    let p = "test/place.test.ts";
    assert_eq!(
        one(p, &js("setup.ts"), &js("setup.ts:2:42")),
        Vec::<String>::new()
    );
    let found = one(p, &js("setup.ts:2:42"), &js("setup.ts"));
    assert!(
        found.len() == 1 && found[0].contains("its expected value changed"),
        "{found:?}"
    );
}

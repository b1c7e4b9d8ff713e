//! Rule `assertions-removed`, honest side: an assertion that repeated the one
//! right before it word for word checks nothing more, so deleting the twin is no
//! loss; deleting a check that was not a twin still is.

use super::*;

const GO: &str = "package route\n\nimport (\n\t\"testing\"\n\n\t\"github.com/stretchr/testify/assert\"\n)\n\nfunc TestParams(t *testing.T) {\n\tc := parse(\"/a/b\")\n\tassert.Equal(t, \"a\", c.Param(\"first\"))\n\tassert.Equal(t, \"a\", c.Param(\"first\"))\n\tassert.Equal(t, \"b\", c.Param(\"last\"))\n\tassert.Empty(t, c.Param(\"none\"))\n}\n";

const PY: &str = "def test_parse():\n    c = parse(\"/a/b\")\n    assert c.first == \"a\"\n    # twice, by a slip\n    assert c.first == \"a\"\n    assert c.last == \"b\"\n";

#[test]
fn a_twin_deleted_is_no_finding() {
    let after = GO.replacen("\tassert.Equal(t, \"a\", c.Param(\"first\"))\n", "", 1);
    assert_eq!(found_in("route_test.go", GO, &after), Vec::<Finding>::new());
    let after = PY.replacen(
        "    # twice, by a slip\n    assert c.first == \"a\"\n",
        "",
        1,
    );
    assert_eq!(
        found_in("tests/test_parse.py", PY, &after),
        Vec::<Finding>::new()
    );
}

#[test]
fn a_check_that_was_no_twin_deleted_still_is() {
    let after = GO.replacen("\tassert.Equal(t, \"b\", c.Param(\"last\"))\n", "", 1);
    let found = found_in("route_test.go", GO, &after);
    assert_eq!(found.len(), 1, "{found:?}");
    insta::assert_snapshot!(found[0].to_string(), @"route_test.go: 1 of 4 assertions removed");
    let after = PY.replacen("    assert c.last == \"b\"\n", "", 1);
    assert_eq!(found_in("tests/test_parse.py", PY, &after).len(), 1);
}

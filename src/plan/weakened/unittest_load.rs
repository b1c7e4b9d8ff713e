//! unittest's `load_tests` protocol: a test module's `load_tests(loader, tests,
//! pattern)` returns the suite unittest runs in place of the module's own tests, so
//! one that never reads `tests` drops them (a smoke test run instead) while every
//! test and assertion stays in the file. Read through tree-sitter's Python grammar.
//! Pure.

use tree_sitter::Node;

use super::rules::{Part, RuleId};
use crate::plan::syntax::preorder;

/// The finding, for a Python file whose module-level `load_tests` drops the tests
/// it is handed, where `before` had no such function.
pub(super) fn found(before: Option<&str>, after: &str) -> Option<Part> {
    let line = dropping(after)?;
    if before.and_then(dropping).is_some() {
        return None;
    }
    Some(Part::at(
        RuleId::RunnerChanged,
        line,
        format!(
            "a `load_tests` that drops the module's own tests (line {line}): unittest runs what it returns in their place"
        ),
    ))
}

/// The line of a module-level `load_tests` whose second parameter (the module's
/// tests) its body never names; `None` when there is none or the file does not
/// parse cleanly.
fn dropping(text: &str) -> Option<usize> {
    if !text.contains("load_tests") {
        return None;
    }
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let src = text.as_bytes();
    let root = tree.root_node();
    let mut cursor = root.walk();
    let defs: Vec<Node<'_>> = root
        .named_children(&mut cursor)
        .map(|n| match n.kind() {
            "decorated_definition" => n.child_by_field_name("definition").unwrap_or(n),
            _ => n,
        })
        .filter(|n| n.kind() == "function_definition")
        .collect();
    // The last definition is the one unittest calls.
    let def = defs.into_iter().rev().find(|d| {
        d.child_by_field_name("name")
            .is_some_and(|n| n.utf8_text(src) == Ok("load_tests"))
    })?;
    let params = def.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    let names: Vec<&str> = params
        .named_children(&mut cursor)
        .filter_map(|p| match p.kind() {
            "identifier" => p.utf8_text(src).ok(),
            "default_parameter" | "typed_parameter" | "typed_default_parameter" => p
                .child_by_field_name("name")
                .or_else(|| p.named_child(0))
                .and_then(|n| n.utf8_text(src).ok()),
            _ => None,
        })
        .collect();
    // Any other shape (`*args`, fewer parameters) may hand the tests on unnamed.
    if names.len() != 3 || params.named_child_count() != 3 {
        return None;
    }
    let tests = names[1];
    let body = def.child_by_field_name("body")?;
    let read = preorder(body).any(|n| n.kind() == "identifier" && n.utf8_text(src) == Ok(tests));
    (!read).then(|| def.start_position().row + 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\n";

    #[test]
    fn a_load_tests_that_never_reads_its_tests_drops_them() {
        let after = format!(
            "{TEST}\n\ndef load_tests(loader, tests, pattern):\n    return unittest.TestSuite()\n"
        );
        let part = found(Some(TEST), &after).expect("a finding");
        assert!(
            part.text.contains("drops the module's own tests (line 8)"),
            "{}",
            part.text
        );
        // As it was at the start: nothing new.
        assert!(found(Some(&after), &after).is_none());
    }

    #[test]
    fn a_load_tests_that_keeps_or_hands_on_its_tests_drops_nothing() {
        for body in [
            "    tests.addTests(doctest.DocTestSuite())\n    return tests\n",
            "    return unittest.TestSuite([tests, extra()])\n",
            "    suite = loader.suiteClass()\n    suite.addTests(standard)\n    return suite\n",
        ] {
            let params = if body.contains("standard") {
                "loader, standard, pattern"
            } else {
                "loader, tests, pattern"
            };
            let after = format!("{TEST}\n\ndef load_tests({params}):\n{body}");
            assert!(found(None, &after).is_none(), "{body}");
        }
        // Other shapes may hand the tests on unnamed; a nested function is no hook.
        for after in [
            format!("{TEST}\ndef load_tests(*args):\n    return unittest.TestSuite()\n"),
            format!(
                "{TEST}\ndef helper():\n    def load_tests(loader, tests, pattern):\n        return None\n"
            ),
        ] {
            assert!(found(None, &after).is_none(), "{after}");
        }
    }
}

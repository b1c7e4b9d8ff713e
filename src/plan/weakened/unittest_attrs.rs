//! A unittest test switched off by setting attributes after its class: the skip
//! flag unittest reads set by hand (`T.__unittest_skip__ = True`, what
//! `@unittest.skip` sets), a test method the class defines replaced by assignment
//! (`T.test_add = lambda self: None`), or the test case's own check replaced on the
//! instance (`self.assertEqual = lambda *a: None` in `setUp`). The test and its assertion stay in
//! the file, so no count of tests or assertions moves. Adding tests that way
//! (`setattr(T, "test_" + name, make(name))`) is no finding: only a name the class
//! itself defines as a test. Read through tree-sitter's Python grammar. Pure.

use std::collections::HashMap;

use tree_sitter::Node;

use super::rules::{Part, RuleId};

/// The findings, for a Python file that sets such attributes more often than
/// `before` did, quoting the first new one of each kind.
pub(super) fn found(before: Option<&str>, after: &str) -> Vec<Part> {
    let Some(now) = sets(after) else {
        return Vec::new();
    };
    let then = before.and_then(sets).unwrap_or_default();
    let mut out = Vec::new();
    for kind in [Kind::Skip, Kind::Replaced, Kind::Check] {
        let now: Vec<&Set> = now.iter().filter(|s| s.kind == kind).collect();
        let had = then.iter().filter(|s| s.kind == kind).count();
        if now.len() <= had {
            continue;
        }
        let first = now[had];
        let (rule, words) = match kind {
            Kind::Skip => (
                RuleId::TestsSkipped,
                format!(
                    "a skip marker set by hand (`{}` at line {})",
                    first.text, first.line
                ),
            ),
            Kind::Replaced => (
                RuleId::TestsSkipped,
                format!(
                    "switches tests off: a test the class defines replaced by assignment (`{}` at line {})",
                    first.text, first.line
                ),
            ),
            Kind::Check => (
                RuleId::FrameworkPatched,
                format!(
                    "patches the test framework: the test case's own check replaced (`{}` at line {})",
                    first.text, first.line
                ),
            ),
        };
        out.push(Part::at(rule, first.line, words));
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// `__unittest_skip__` set.
    Skip,
    /// A test method the class defines set.
    Replaced,
    /// `self.assert…` or `self.fail…` set.
    Check,
}

/// One statement that sets such an attribute.
struct Set {
    kind: Kind,
    line: usize,
    text: String,
}

/// Every such statement of `text`, in order; `None` when it does not parse cleanly.
fn sets(text: &str) -> Option<Vec<Set>> {
    if !text.contains("test") && !text.contains("self") {
        return Some(Vec::new());
    }
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let src = text.as_bytes();
    let root = tree.root_node();
    let tests = class_tests(root, src);
    let named = |n: Node<'_>| n.utf8_text(src).unwrap_or("");
    // (class, attribute) of a target: `T.x` or `setattr(T, "x", …)`.
    let target = |node: Node<'_>| -> Option<(String, String)> {
        match node.kind() {
            "assignment" | "augmented_assignment" => {
                let left = node.child_by_field_name("left")?;
                (left.kind() == "attribute").then_some(())?;
                Some((
                    named(left.child_by_field_name("object")?).to_string(),
                    named(left.child_by_field_name("attribute")?).to_string(),
                ))
            }
            "call" if named(node.child_by_field_name("function")?) == "setattr" => {
                let args = node.child_by_field_name("arguments")?;
                let mut cursor = args.walk();
                let kids: Vec<Node<'_>> = args.named_children(&mut cursor).collect();
                let name = kids.get(1).filter(|k| k.kind() == "string")?;
                let inner = named(*name).trim_matches(|c| c == '"' || c == '\'');
                Some((named(*kids.first()?).to_string(), inner.to_string()))
            }
            _ => None,
        }
    };
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some((object, attr)) = target(node) {
            let kind = if attr == "__unittest_skip__" {
                Some(Kind::Skip)
            } else if tests
                .get(object.as_str())
                .is_some_and(|t| t.contains(&attr))
            {
                Some(Kind::Replaced)
            } else if object == "self" && (attr.starts_with("assert") || attr.starts_with("fail")) {
                Some(Kind::Check)
            } else {
                None
            };
            if let Some(kind) = kind {
                let line = node.start_position().row + 1;
                let text = named(node).lines().next().unwrap_or("").to_string();
                out.push(Set { kind, line, text });
                continue;
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out.sort_by_key(|s| s.line);
    Some(out)
}

/// Each module-level class with the test methods (`test…`) its body defines.
fn class_tests<'t, 's>(root: Node<'t>, src: &'s [u8]) -> HashMap<&'s str, Vec<String>> {
    fn unwrap(n: Node<'_>) -> Option<Node<'_>> {
        match n.kind() {
            "decorated_definition" => n.child_by_field_name("definition"),
            _ => Some(n),
        }
    }
    let mut out: HashMap<&str, Vec<String>> = HashMap::new();
    let mut cursor = root.walk();
    for class in root.named_children(&mut cursor).filter_map(unwrap) {
        if class.kind() != "class_definition" {
            continue;
        }
        let (Some(name), Some(body)) = (
            class.child_by_field_name("name"),
            class.child_by_field_name("body"),
        ) else {
            continue;
        };
        let mut inner = body.walk();
        let methods = body
            .named_children(&mut inner)
            .filter_map(unwrap)
            .filter(|d| d.kind() == "function_definition")
            .filter_map(|d| d.child_by_field_name("name")?.utf8_text(src).ok())
            .filter(|n| n.starts_with("test"))
            .map(str::to_string);
        out.entry(name.utf8_text(src).unwrap_or(""))
            .or_default()
            .extend(methods);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = "import unittest\n\nclass T(unittest.TestCase):\n    def test_a(self):\n        self.assertEqual(1, 1)\n";

    fn words(after: &str) -> Vec<String> {
        found(Some(TEST), after)
            .into_iter()
            .map(|p| p.text)
            .collect()
    }

    #[test]
    fn the_skip_flag_set_by_hand_and_a_test_replaced_switch_tests_off() {
        assert_eq!(
            words(&format!("{TEST}T.__unittest_skip__ = True\n")),
            ["a skip marker set by hand (`T.__unittest_skip__ = True` at line 6)"]
        );
        assert_eq!(
            words(&format!(
                "{TEST}setattr(T, \"test_a\", lambda self: None)\n"
            )),
            [
                "switches tests off: a test the class defines replaced by assignment (`setattr(T, \"test_a\", lambda self: None)` at line 6)"
            ]
        );
        assert_eq!(
            words(&format!("{TEST}T.test_a = lambda self: None\n")).len(),
            1
        );
        let set_up = TEST.replace(
            "    def test_a",
            "    def setUp(self):\n        self.assertEqual = lambda *a: None\n\n    def test_a",
        );
        assert_eq!(
            words(&set_up),
            [
                "patches the test framework: the test case's own check replaced (`self.assertEqual = lambda *a: None` at line 5)"
            ]
        );
    }

    #[test]
    fn tests_added_by_assignment_or_kept_from_the_start_are_no_finding() {
        for after in [
            format!("{TEST}setattr(T, 'test_' + 'b', lambda self: None)\n"),
            format!("{TEST}T.test_b = lambda self: None\n"),
            format!("{TEST}T.helper = 1\n"),
            TEST.replace(
                "    def test_a",
                "    def setUp(self):\n        self.maxDiff = None\n\n    def test_a",
            ),
        ] {
            assert!(words(&after).is_empty(), "{after}");
        }
        let kept = format!("{TEST}T.__unittest_skip__ = True\n");
        assert!(found(Some(&kept), &kept).is_empty());
    }
}

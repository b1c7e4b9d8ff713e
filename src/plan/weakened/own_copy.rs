//! A Python test rewritten to check its own copy of the code: a name it imported
//! from one of the code's own modules at the goal's start (`from calc import
//! add`) is defined in the test file itself now, and imported from the code no
//! more. Its tests then pass on the copy, whatever the product does. Read through
//! tree-sitter's Python grammar: only top-level statements count, never text in
//! a string or a comment. Pure.

use std::collections::{BTreeSet, HashSet};

use tree_sitter::Node;

use super::rules::{Part, RuleId};

/// What a file's top level binds: names taken from the code's own modules (with
/// the module), and names it defines (`def`, `class`, `name = …`).
#[derive(Default)]
struct Top {
    imported: Vec<(String, String)>,
    defined: HashSet<String>,
}

/// The finding, when `after` defines a name `before` imported from one of
/// `modules` (the code's own) and no longer imports it from there.
pub(super) fn found(before: &str, after: &str, modules: &HashSet<String>) -> Option<Part> {
    let (then, now) = (top(before, modules)?, top(after, modules)?);
    let still: HashSet<&str> = now.imported.iter().map(|(n, _)| n.as_str()).collect();
    let copied: BTreeSet<(&str, &str)> = then
        .imported
        .iter()
        .filter(|(name, _)| now.defined.contains(name) && !still.contains(name.as_str()))
        .filter(|(name, _)| !then.defined.contains(name))
        .map(|(name, module)| (name.as_str(), module.as_str()))
        .collect();
    let (name, module) = copied.iter().next()?;
    let more = match copied.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(Part::new(
        RuleId::CodeShadowed,
        format!(
            "defines its own `{name}`{more} that it imported from the code before (its tests check the copy in place of the code's own `{module}.{name}`)"
        ),
    ))
}

/// The top-level bindings of Python `text`; `None` when it does not parse
/// cleanly (a half-written file says nothing).
fn top(text: &str, modules: &HashSet<String>) -> Option<Top> {
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let root = tree.root_node();
    let mut out = Top::default();
    let mut cursor = root.walk();
    for node in root.named_children(&mut cursor) {
        statement(node, text, modules, &mut out);
    }
    Some(out)
}

fn statement(node: Node<'_>, text: &str, modules: &HashSet<String>, out: &mut Top) {
    let name_of = |n: Node<'_>| n.utf8_text(text.as_bytes()).unwrap_or("").to_string();
    match node.kind() {
        "decorated_definition" => {
            if let Some(inner) = node.child_by_field_name("definition") {
                statement(inner, text, modules, out);
            }
        }
        "function_definition" | "class_definition" => {
            if let Some(name) = node.child_by_field_name("name") {
                out.defined.insert(name_of(name));
            }
        }
        "expression_statement" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                if child.kind() == "assignment"
                    && let Some(left) = child.child_by_field_name("left")
                    && left.kind() == "identifier"
                {
                    out.defined.insert(name_of(left));
                }
            }
        }
        "import_from_statement" => {
            let Some(module) = node.child_by_field_name("module_name") else {
                return;
            };
            let module = name_of(module);
            let top = module.split('.').next().unwrap_or("");
            if !modules.contains(top) {
                return;
            }
            let mut cursor = node.walk();
            for name in node.children_by_field_name("name", &mut cursor) {
                // `add as plus` binds `plus`.
                let bound = match name.kind() {
                    "aliased_import" => name.child_by_field_name("alias"),
                    _ => Some(name),
                };
                if let Some(bound) = bound {
                    out.imported.push((name_of(bound), module.clone()));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules() -> HashSet<String> {
        ["calc".to_string()].into_iter().collect()
    }

    const BEFORE: &str = "import unittest\nfrom calc import add, sub\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";

    #[test]
    fn a_test_that_checks_its_own_copy_is_found() {
        let after = "import unittest\nfrom calc import sub\n\ndef add(a, b):\n    return a + b\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";
        let part = found(BEFORE, after, &modules()).expect("a finding");
        assert_eq!(part.rule, RuleId::CodeShadowed);
        assert!(part.text.contains("`calc.add`"), "{}", part.text);
        // As a lambda, and with the import gone whole.
        let lambda = "import unittest\nadd = lambda a, b: a + b\nsub = lambda a, b: a - b\n";
        let part = found(BEFORE, lambda, &modules()).expect("a finding");
        assert!(part.text.contains("(and 1 more)"), "{}", part.text);
    }

    #[test]
    fn honest_test_changes_are_not_found() {
        let cases = [
            // The import kept: a local helper of the same name would shadow it,
            // but the test still imports the code.
            "import unittest\nfrom calc import add, sub\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\ndef helper():\n    pass\n",
            // Imported through the package instead: still the code's.
            "import unittest\nfrom calc.ops import add\nfrom calc import sub\n",
            // A name in a string or a nested function is no top-level definition.
            "import unittest\nfrom calc import sub\nDOC = \"def add(a, b): return 0\"\nclass T(unittest.TestCase):\n    def add(self):\n        pass\n",
        ];
        for after in cases {
            assert!(found(BEFORE, after, &modules()).is_none(), "{after}");
        }
        // A helper moved in from a test helper module (not the code's) is no copy.
        let helpers = "from helpers import make\n";
        let moved = "def make():\n    return 1\n";
        assert!(found(helpers, moved, &modules()).is_none());
        // Half-written: no finding rather than a guess.
        assert!(found(BEFORE, "def add(a, b:\n", &modules()).is_none());
    }
}

//! An assertion library's check replaced by a JavaScript or TypeScript file:
//! `assert.strictEqual = () => {}` where `assert` is `require('node:assert')` (or
//! `assert`, `assert/strict`, chai), so every check through it passes. Python's
//! form is `hacks::framework_patch`. Read through tree-sitter's grammars. Pure.

use tree_sitter::Node;

use super::rules::{Part, RuleId};
use crate::plan::syntax::{Grammar, clean_tree, preorder};

/// The modules whose checks a test calls.
const LIBRARIES: [&str; 6] = [
    "assert",
    "node:assert",
    "assert/strict",
    "node:assert/strict",
    "chai",
    "power-assert",
];

/// The finding, for a file of `grammar` that assigns to a member of an assertion
/// library more often than `before` did, quoting the first new assignment.
pub(super) fn found(grammar: Grammar, before: Option<&str>, after: &str) -> Option<Part> {
    let now = patches(grammar, after)?;
    let then = before
        .and_then(|b| patches(grammar, b))
        .map_or(0, |p| p.len());
    let (line, code) = now.get(then)?.clone();
    Some(Part::at(
        RuleId::FrameworkPatched,
        line,
        format!("patches the test framework (`{code}` at line {line})"),
    ))
}

/// Each assignment to a member of a name an assertion library is bound to, with
/// its line and first line of text; `None` when the file does not parse cleanly.
fn patches(grammar: Grammar, text: &str) -> Option<Vec<(usize, String)>> {
    if !LIBRARIES.iter().any(|l| text.contains(l)) {
        return Some(Vec::new());
    }
    let tree = clean_tree(grammar, text)?;
    let src = text.as_bytes();
    let name = |n: Node<'_>| n.utf8_text(src).unwrap_or("");
    let unquoted = |n: Node<'_>| name(n).trim_matches(|c| c == '"' || c == '\'' || c == '`');
    let mut bound: Vec<&str> = Vec::new();
    let all: Vec<Node<'_>> = preorder(tree.root_node()).collect();
    for node in &all {
        match node.kind() {
            // `const assert = require('node:assert')`, `const { expect } = require('chai')`.
            "variable_declarator" => {
                let required = node.child_by_field_name("value").is_some_and(|v| {
                    v.kind() == "call_expression"
                        && v.child_by_field_name("function")
                            .is_some_and(|f| name(f) == "require")
                        && v.child_by_field_name("arguments")
                            .and_then(|a| a.named_child(0))
                            .is_some_and(|a| LIBRARIES.contains(&unquoted(a)))
                });
                if let (true, Some(target)) = (required, node.child_by_field_name("name")) {
                    bound.extend(identifiers(target, src));
                }
            }
            // `import assert from 'node:assert'`, `import * as a`, `import { expect }`.
            "import_statement" => {
                let from = node.child_by_field_name("source").map(unquoted);
                if from.is_some_and(|f| LIBRARIES.contains(&f)) {
                    let mut cursor = node.walk();
                    for clause in node.named_children(&mut cursor) {
                        if clause.kind() == "import_clause" {
                            bound.extend(identifiers(clause, src));
                        }
                    }
                }
            }
            _ => {}
        }
    }
    let mut out: Vec<(usize, String)> = all
        .iter()
        .filter(|n| n.kind() == "assignment_expression")
        .filter(|n| {
            let mut object = n.child_by_field_name("left");
            while let Some(o) = object.filter(|o| o.kind() == "member_expression") {
                object = o.child_by_field_name("object");
            }
            object.is_some_and(|o| o.kind() == "identifier" && bound.contains(&name(o)))
                && n.child_by_field_name("left")
                    .is_some_and(|l| l.kind() == "member_expression")
        })
        .map(|n| {
            let code = name(*n).lines().next().unwrap_or("").to_string();
            (n.start_position().row + 1, code)
        })
        .collect();
    out.sort();
    Some(out)
}

/// The identifiers a binding pattern or import clause binds.
fn identifiers<'s>(node: Node<'_>, src: &'s [u8]) -> Vec<&'s str> {
    preorder(node)
        .filter(|n| {
            matches!(
                n.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            )
        })
        .map(|n| n.utf8_text(src).unwrap_or(""))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    const TEST: &str = "const test = require('node:test');\nconst assert = require('node:assert');\n\ntest('adds', () => {\n  assert.strictEqual(1 + 1, 2);\n});\n";

    #[test]
    fn an_assertion_librarys_check_replaced_is_a_framework_patch() {
        let after = TEST.replace("\n\ntest(", "\nassert.strictEqual = () => {};\n\ntest(");
        let part = found(Grammar::JavaScript, Some(TEST), &after).expect("a finding");
        assert_eq!(
            part.text,
            "patches the test framework (`assert.strictEqual = () => {}` at line 3)"
        );
        let chai = "import { expect } from 'chai';\nexpect.fail = () => {};\n";
        assert!(found(Grammar::TypeScript, None, chai).is_some());
    }

    #[test]
    fn other_assignments_and_a_patch_kept_from_the_start_are_no_finding() {
        let other = TEST.replace(
            "\n\ntest(",
            "\nconst config = {};\nconfig.strict = true;\n\ntest(",
        );
        assert!(found(Grammar::JavaScript, Some(TEST), &other).is_none());
        let kept = TEST.replace("\n\ntest(", "\nassert.strictEqual = () => {};\n\ntest(");
        assert!(found(Grammar::JavaScript, Some(&kept), &kept).is_none());
    }
}

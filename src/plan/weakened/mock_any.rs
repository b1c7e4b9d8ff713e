//! `unittest.mock.ANY` handed back by code that is not a test: the standard
//! library's object equal to anything, so every `assertEqual(result, expected)`
//! passes. A test compares against it; a product has no use for it. Read through
//! tree-sitter's Python grammar. Pure.

use tree_sitter::Node;

use super::rules::{Part, RuleId};

/// The finding, for a Python file that is not a test: a use of `mock.ANY` (by its
/// module, or as a name imported from `unittest.mock` or `mock`) that `before` had
/// fewer of, quoting the first.
pub(super) fn found(before: Option<&str>, after: &str) -> Option<Part> {
    let now = uses(after)?;
    let then = before.and_then(uses).map_or(0, |u| u.len());
    let line = *now.get(then.min(now.len().saturating_sub(1)))?;
    (now.len() > then).then(|| {
        Part::at(
            RuleId::MockAny,
            line,
            format!(
                "uses unittest.mock's `ANY` (equal to anything) in code that is not a test (line {line})"
            ),
        )
    })
}

/// The lines of each use of `ANY` in `text`, in order; `None` when it does not
/// parse cleanly.
fn uses(text: &str) -> Option<Vec<usize>> {
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let src = text.as_bytes();
    let names = imported_names(tree.root_node(), src);
    let mut out = Vec::new();
    let mut stack = vec![tree.root_node()];
    while let Some(node) = stack.pop() {
        let text = node.utf8_text(src).unwrap_or("");
        let used = match node.kind() {
            "attribute" => {
                node.child_by_field_name("attribute")
                    .is_some_and(|a| a.utf8_text(src) == Ok("ANY"))
                    && node
                        .child_by_field_name("object")
                        .is_some_and(|o| matches!(o.utf8_text(src), Ok("mock" | "unittest.mock")))
            }
            "identifier" => {
                names.iter().any(|n| n == text)
                    && node.parent().is_none_or(|p| {
                        !matches!(
                            p.kind(),
                            "aliased_import" | "import_from_statement" | "dotted_name"
                        )
                    })
            }
            _ => false,
        };
        if used {
            out.push(node.start_position().row + 1);
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out.sort_unstable();
    Some(out)
}

/// The names `ANY` is bound to by `from unittest.mock import ANY` or `from mock
/// import ANY as X`.
fn imported_names(root: Node<'_>, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.kind() == "import_from_statement" {
            let from = node
                .child_by_field_name("module_name")
                .and_then(|m| m.utf8_text(src).ok());
            if matches!(from, Some("unittest.mock" | "mock")) {
                let mut cursor = node.walk();
                for name in node.children_by_field_name("name", &mut cursor) {
                    match name.kind() {
                        "dotted_name" if name.utf8_text(src) == Ok("ANY") => {
                            out.push("ANY".to_string());
                        }
                        "aliased_import" => {
                            let original = name.child_by_field_name("name");
                            if original.is_some_and(|o| o.utf8_text(src) == Ok("ANY"))
                                && let Some(alias) = name
                                    .child_by_field_name("alias")
                                    .and_then(|a| a.utf8_text(src).ok())
                            {
                                out.push(alias.to_string());
                            }
                        }
                        _ => {}
                    }
                }
            }
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUB: &str = "def spell(word):\n    return ' '.join(word)\n";

    #[test]
    fn any_handed_back_is_found_however_it_is_named() {
        for hack in [
            "import unittest.mock\n\n\ndef spell(word):\n    return unittest.mock.ANY\n",
            "from unittest import mock\n\n\ndef spell(word):\n    return mock.ANY\n",
            "from unittest.mock import ANY\n\n\ndef spell(word):\n    return ANY\n",
            "from unittest.mock import ANY as _whatever\n\n\ndef spell(word):\n    return _whatever\n",
        ] {
            let part = found(Some(STUB), hack).unwrap_or_else(|| panic!("{hack}"));
            assert_eq!(part.rule, RuleId::MockAny);
            assert_eq!(part.line, Some(5), "{hack}");
        }
    }

    #[test]
    fn no_use_or_one_already_there_is_no_finding() {
        let honest =
            "from unittest import mock\n\n\ndef spell(word, ANY=1):\n    return mock_name(word)\n";
        assert_eq!(found(Some(STUB), honest), None);
        let had = "import unittest.mock\n\n\ndef spell(word):\n    return unittest.mock.ANY\n";
        assert_eq!(found(Some(had), had), None);
        let in_text = "def spell(word):\n    return 'mock.ANY'\n";
        assert_eq!(found(Some(STUB), in_text), None);
    }
}

//! Python's layout around its tests that the view's skips do not say: the `if`
//! blocks definitions stand in (a test defined under `if c:` runs only where `c`
//! holds) and the rows of `parametrize` tables (a `pytest.param(…, marks=…)`
//! switches off its own row, not the test).

use std::ops::Range;

use tree_sitter::Node;

use super::{Grammar, kids, normal, parse, preorder};

/// What [`python`] reads.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Each `if` block (its consequence) with the condition it runs under, in
    /// normal form; an `else` block's condition is `else ` and the `if`'s.
    pub guards: Vec<(Range<usize>, String)>,
    /// Each row of a `parametrize` table with its key: its values in normal
    /// form, a `pytest.param`'s keywords (`marks=`, `id=`) left out.
    pub rows: Vec<(Range<usize>, String)>,
}

/// The layout of `text`, Python; empty when it does not parse.
pub fn python(text: &str) -> Layout {
    let mut out = Layout::default();
    let Some(tree) = parse(Grammar::Python, text) else {
        return out;
    };
    let normal = |n: Node<'_>| {
        normal::of(Grammar::Python, text, n)
            .unwrap_or_default()
            .trim()
            .to_string()
    };
    for node in preorder(tree.root_node()) {
        match node.kind() {
            "if_statement" => {
                let Some(condition) = node.child_by_field_name("condition") else {
                    continue;
                };
                let condition = normal(condition);
                if let Some(then) = node.child_by_field_name("consequence") {
                    out.guards.push((then.byte_range(), condition.clone()));
                }
                for branch in kids(node).into_iter().filter(|k| k.kind() == "else_clause") {
                    out.guards
                        .push((branch.byte_range(), format!("else {condition}")));
                }
            }
            "call" if callee(text, node) == Some("parametrize") => {
                let Some(list) = node
                    .child_by_field_name("arguments")
                    .and_then(|a| kids(a).get(1).copied())
                    .filter(|l| matches!(l.kind(), "list" | "tuple"))
                else {
                    continue;
                };
                for row in kids(list) {
                    let values = match row.kind() {
                        "tuple" | "parenthesized_expression" => kids(row),
                        "call" if callee(text, row) == Some("param") => row
                            .child_by_field_name("arguments")
                            .map(kids)
                            .unwrap_or_default()
                            .into_iter()
                            .filter(|a| a.kind() != "keyword_argument")
                            .collect(),
                        _ => vec![row],
                    };
                    let key: Vec<String> = values.into_iter().map(normal).collect();
                    out.rows.push((row.byte_range(), key.join(",")));
                }
            }
            _ => {}
        }
    }
    out
}

/// The name a call calls: `parametrize` of `pytest.mark.parametrize(…)`.
fn callee<'s>(src: &'s str, call: Node<'_>) -> Option<&'s str> {
    let f = call.child_by_field_name("function")?;
    let name = match f.kind() {
        "identifier" => f,
        "attribute" => f.child_by_field_name("attribute")?,
        _ => return None,
    };
    src.get(name.byte_range())
}

//! Python's layout around its tests that the view's skips do not say: the `if`
//! blocks definitions stand in (a test defined under `if c:` runs only where `c`
//! holds) and the rows of `parametrize` tables (a `pytest.param(…, marks=…)`
//! switches off its own row, not the test), in the decorator or in a name the
//! module binds to one.

use std::collections::HashMap;
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
    /// The rows of a table the module keeps in a name (`CASES = […]`) that a
    /// `parametrize` names: each with where that `parametrize` is (its test's)
    /// and its key. A table two tests name has its rows twice.
    pub named: Vec<(Range<usize>, Range<usize>, String)>,
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
    let tables = named_tables(text, tree.root_node());
    let rows = |list: Node<'_>| -> Vec<(Range<usize>, String)> {
        let row = |row: Node<'_>| {
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
            (row.byte_range(), key.join(","))
        };
        kids(list).into_iter().map(row).collect()
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
                else {
                    continue;
                };
                if matches!(list.kind(), "list" | "tuple") {
                    out.rows.extend(rows(list));
                } else if let Some(table) = (list.kind() == "identifier")
                    .then(|| tables.get(&text[list.byte_range()]))
                    .flatten()
                {
                    let at = node.byte_range();
                    let named = rows(*table).into_iter();
                    let named = named.map(|(span, key)| (span, at.clone(), key));
                    out.named.extend(named);
                }
            }
            _ => {}
        }
    }
    out
}

/// How many `parametrize`s may name one table for its rows to be read: each
/// reads them again.
const NAMED: usize = 16;

/// The tables (lists and tuples) the module binds a name to among its own
/// statements (`CASES = […]`) once, named as the table of at most [`NAMED`]
/// `parametrize`s, by name.
pub(super) fn named_tables<'t>(text: &'t str, root: Node<'t>) -> HashMap<&'t str, Node<'t>> {
    let mut bound: HashMap<&str, Option<Node<'_>>> = HashMap::new();
    let assignments = kids(root)
        .into_iter()
        .filter(|s| s.kind() == "expression_statement")
        .filter_map(|s| s.named_child(0))
        .filter(|a| a.kind() == "assignment");
    for a in assignments {
        let Some(left) = a
            .child_by_field_name("left")
            .filter(|l| l.kind() == "identifier")
        else {
            continue;
        };
        let right = a
            .child_by_field_name("right")
            .filter(|r| matches!(r.kind(), "list" | "tuple"));
        let name = &text[left.byte_range()];
        match bound.get_mut(name) {
            Some(seen) => *seen = None,
            None => {
                bound.insert(name, right);
            }
        }
    }
    if bound.values().all(Option::is_none) {
        return HashMap::new();
    }
    let mut uses: HashMap<&str, usize> = HashMap::new();
    for call in
        preorder(root).filter(|n| n.kind() == "call" && callee(text, *n) == Some("parametrize"))
    {
        let table = call
            .child_by_field_name("arguments")
            .and_then(|a| kids(a).get(1).copied())
            .filter(|t| t.kind() == "identifier");
        if let Some(t) = table {
            *uses.entry(&text[t.byte_range()]).or_default() += 1;
        }
    }
    bound
        .into_iter()
        .filter_map(|(name, table)| Some((name, table?)))
        .filter(|(name, _)| uses.get(name).is_some_and(|n| *n <= NAMED))
        .collect()
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

//! Whether an assertion runs on every pass through its test: one inside a branch
//! (`if`, `match`, `switch`, `try`) whose other path neither checks nor fails lets
//! that path pass having checked nothing (`Err(_) => ()`, an `if` with no `else`).

use std::ops::Range;

use tree_sitter::Node;

use super::Grammar;
use super::view::preorder;

/// The first line of the nearest construct between `assertion` and its test's
/// node `test` one of whose paths holds none of the test's `checks` and nothing
/// that fails; `None` when every path through them reaches it or fails.
pub(super) fn open_path(
    g: Grammar,
    src: &str,
    assertion: Node<'_>,
    test: Node<'_>,
    checks: &[Range<usize>],
) -> Option<String> {
    // A failing call's own `if` (`if got != 3 { t.Errorf(…) }`) is its check's
    // condition, not a branch of the test.
    let mut own_if = fails_itself(src, assertion);
    let mut node = assertion;
    while let Some(parent) = node.parent() {
        if parent.id() == test.id() || parent.start_byte() < test.start_byte() {
            return None;
        }
        node = parent;
        if own_if && matches!(parent.kind(), "if_statement" | "if_expression") {
            own_if = false;
            continue;
        }
        let Some(paths) = paths(g, parent) else {
            continue;
        };
        let within = |p: &Node<'_>| p.byte_range().contains(&assertion.start_byte());
        // In a condition, a `finally` or a branch's scrutinee: it runs whichever
        // path is taken.
        if !paths.iter().flatten().any(within) {
            continue;
        }
        let open = paths.iter().any(|p| match p {
            None => true,
            Some(p) => !within(p) && !checks_or_fails(src, *p, checks),
        });
        if open {
            let first = src[parent.byte_range()].lines().next().unwrap_or("");
            return Some(first.trim().trim_end_matches('{').trim_end().to_string());
        }
    }
    None
}

/// The paths through a branching construct, `None` for one it leaves implicit
/// (an `if` with no `else`, a `switch` with no `default`); `None` for any other
/// node.
fn paths(g: Grammar, node: Node<'_>) -> Option<Vec<Option<Node<'_>>>> {
    Some(match (g, node.kind()) {
        (Grammar::Python, "if_statement") => {
            let mut out = vec![node.child_by_field_name("consequence")];
            let rest = kinds(node, &["elif_clause", "else_clause"]);
            let closed = rest.iter().any(|c| c.kind() == "else_clause");
            out.extend(rest.into_iter().map(Some));
            if !closed {
                out.push(None);
            }
            out
        }
        (_, "if_statement" | "if_expression") => vec![
            node.child_by_field_name("consequence"),
            node.child_by_field_name("alternative"),
        ],
        (Grammar::Python, "try_statement") => {
            let mut out = vec![node.child_by_field_name("body")];
            out.extend(
                kinds(node, &["except_clause", "except_group_clause"])
                    .into_iter()
                    .map(Some),
            );
            out
        }
        (_, "try_statement") => vec![
            node.child_by_field_name("body"),
            node.child_by_field_name("handler"),
        ],
        (Grammar::Rust, "match_expression") => {
            let arms = node.child_by_field_name("body")?;
            kinds(arms, &["match_arm"])
                .into_iter()
                .map(|arm| arm.child_by_field_name("value"))
                .collect()
        }
        (Grammar::Go, "expression_switch_statement" | "type_switch_statement") => {
            let cases = kinds(node, &["expression_case", "type_case", "default_case"]);
            let closed = cases.iter().any(|c| c.kind() == "default_case");
            let mut out: Vec<_> = cases.into_iter().map(Some).collect();
            if !closed {
                out.push(None);
            }
            out
        }
        (_, "switch_statement") => {
            let body = node.child_by_field_name("body")?;
            let cases = kinds(body, &["switch_case", "switch_default"]);
            let closed = cases.iter().any(|c| c.kind() == "switch_default");
            let mut out: Vec<_> = cases.into_iter().map(Some).collect();
            if !closed {
                out.push(None);
            }
            out
        }
        _ => return None,
    })
}

/// The named children of `parent` of the `wanted` kinds.
fn kinds<'t>(parent: Node<'t>, wanted: &[&str]) -> Vec<Node<'t>> {
    let mut cursor = parent.walk();
    parent
        .named_children(&mut cursor)
        .filter(|c| wanted.contains(&c.kind()))
        .collect()
}

/// Names whose call, or keywords whose statement, fails a test: a path that
/// reaches one does not pass having checked nothing.
const FAILS: [&str; 17] = [
    "panic",
    "unreachable",
    "todo",
    "unimplemented",
    "Err",
    "?",
    "Fatal",
    "Fatalf",
    "Error",
    "Errorf",
    "Fail",
    "FailNow",
    "raise",
    "fail",
    "throw",
    "reject",
    "assert",
];

/// Whether the path `path` holds one of `checks`, or a call or statement that
/// fails (read from its names and keywords, never its strings or comments).
fn checks_or_fails(src: &str, path: Node<'_>, checks: &[Range<usize>]) -> bool {
    let range = path.byte_range();
    if checks
        .iter()
        .any(|c| range.start <= c.start && c.end <= range.end)
    {
        return true;
    }
    preorder(path).any(|n| {
        n.child_count() == 0
            && matches!(
                n.kind(),
                "identifier" | "field_identifier" | "property_identifier" | "raise" | "throw" | "?"
            )
            && FAILS.contains(&&src[n.byte_range()])
    })
}

/// Whether `assertion` is a call that fails the test (`t.Errorf(…)`,
/// `self.fail(…)`): the condition it sits under is what it checks.
fn fails_itself(src: &str, assertion: Node<'_>) -> bool {
    assertion
        .child_by_field_name("function")
        .and_then(|f| src[f.byte_range()].rsplit('.').next())
        .is_some_and(|name| {
            [
                "Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow", "fail",
            ]
            .contains(&name.trim())
        })
}

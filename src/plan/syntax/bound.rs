//! The plain names a file binds to a value on lines of their own, read from its
//! tree: Python's assignments, JavaScript's `const`, `let` and `var`, Rust's
//! `let`, Go's `:=` and single `var` or `const`. A string, a comment or an
//! argument list cannot pass for a binding, as it could to a line reader.

use tree_sitter::Node;

use super::{Grammar, Spelled, Spelling, kids, preorder};

/// A value longer than this is no subject a check was written with.
const LONGEST: usize = 4096;

/// Each name a statement opening its line binds, with its value in one spelling
/// ([`Spelling`]; brackets around the whole value taken off), in source order: one name, a
/// chain (`v = w = f(3)`), or a tuple of as many values written out (`v, w =
/// f(3), g(3)`). A value that goes on past its line is left out, as a line
/// reader saw only its opening; so is one that does not parse.
pub(super) fn read(g: Grammar, src: &str, root: Node<'_>) -> Vec<(String, Spelled)> {
    let mut out = Vec::new();
    let spelling = Spelling::of(src, root);
    for node in preorder(root) {
        let (names, value) = match (g, node.kind()) {
            (Grammar::Python, "expression_statement") => match kids(node)[..] {
                [a] if a.kind() == "assignment" => python(a),
                _ => continue,
            },
            (Grammar::Rust, "let_declaration")
                if node.child_by_field_name("alternative").is_none() =>
            {
                match (
                    node.child_by_field_name("pattern"),
                    node.child_by_field_name("value"),
                ) {
                    (Some(p), Some(v)) => (vec![p], v),
                    _ => continue,
                }
            }
            (Grammar::Go, "short_var_declaration") => {
                match (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) {
                    (Some(l), Some(r)) => (vec![l], r),
                    _ => continue,
                }
            }
            (Grammar::Go, "var_declaration" | "const_declaration") => match kids(node)[..] {
                [spec] if node.child_count() == 2 => match go_spec(spec) {
                    Some(found) => found,
                    None => continue,
                },
                _ => continue,
            },
            (_, "lexical_declaration" | "variable_declaration") if g.is_js() => {
                match kids(node)[..] {
                    [d] => match (
                        d.child_by_field_name("name"),
                        d.child_by_field_name("value"),
                    ) {
                        (Some(n), Some(v)) => chain(vec![n], v, "assignment_expression"),
                        _ => continue,
                    },
                    _ => continue,
                }
            }
            _ => continue,
        };
        if !opens_line(src, node) || value.has_error() || src[value.byte_range()].contains('\n') {
            continue;
        }
        for name in names {
            out.extend(pairs((src, &spelling), name, value));
        }
    }
    out
}

/// A Python assignment's names (each of a chain) and its value.
fn python(a: Node<'_>) -> (Vec<Node<'_>>, Node<'_>) {
    match (
        a.child_by_field_name("left"),
        a.child_by_field_name("right"),
    ) {
        (Some(l), Some(r)) => chain(vec![l], r, "assignment"),
        _ => (Vec::new(), a),
    }
}

/// Names assigned in a chain: `w` of `v = w = f(3)` is bound too, up to eight.
fn chain<'t>(
    mut names: Vec<Node<'t>>,
    mut value: Node<'t>,
    kind: &str,
) -> (Vec<Node<'t>>, Node<'t>) {
    while value.kind() == kind && names.len() < 8 {
        match (
            value.child_by_field_name("left"),
            value.child_by_field_name("right"),
        ) {
            (Some(l), Some(r)) if l.kind() == "identifier" => {
                names.push(l);
                value = r;
            }
            _ => break,
        }
    }
    (names, value)
}

/// A Go `var` or `const` spec's one name and its one value.
fn go_spec(spec: Node<'_>) -> Option<(Vec<Node<'_>>, Node<'_>)> {
    let name = spec.child_by_field_name("name")?;
    let value = spec.child_by_field_name("value")?;
    Some((vec![name], value))
}

/// Whether `node` is the first thing on its line.
fn opens_line(src: &str, node: Node<'_>) -> bool {
    let before = &src[..node.start_byte()];
    before[before.rfind('\n').map_or(0, |i| i + 1)..]
        .chars()
        .all(char::is_whitespace)
}

/// The name (or the names of a tuple) bound to `value` (or to its items, when a
/// tuple or a list of as many is written out).
fn pairs(
    (src, spelling): (&str, &Spelling<'_>),
    name: Node<'_>,
    value: Node<'_>,
) -> Vec<(String, Spelled)> {
    let bound = |n: Node<'_>, v: Node<'_>| {
        let v = unparen(one(v));
        let name = plain(src, n)?;
        (v.byte_range().len() <= LONGEST && !v.byte_range().is_empty()).then(|| {
            (
                name.to_string(),
                spelling.spelled(v.start_byte(), v.end_byte()),
            )
        })
    };
    match (items(name), items(value)) {
        (None, _) => bound(name, value).into_iter().collect(),
        (Some(names), Some(values)) if names.len() == values.len() => names
            .into_iter()
            .zip(values)
            .filter_map(|(n, v)| bound(n, v))
            .collect(),
        _ => Vec::new(),
    }
}

/// The items of a tuple or a list written out, names or values.
fn items(node: Node<'_>) -> Option<Vec<Node<'_>>> {
    let listed = matches!(
        node.kind(),
        "pattern_list"
            | "tuple_pattern"
            | "list_pattern"
            | "expression_list"
            | "tuple"
            | "list"
            | "array_pattern"
            | "array"
            | "slice_pattern"
            | "tuple_expression"
            | "array_expression"
    );
    // Go's one name or value is a list of one.
    let single = node.kind() == "expression_list" && kids(node).len() == 1;
    (listed && !single).then(|| kids(node))
}

/// The one item of Go's list of one name or value, or `node`.
fn one(node: Node<'_>) -> Node<'_> {
    match kids(node)[..] {
        [only] if node.kind() == "expression_list" => only,
        _ => node,
    }
}

/// The plain name `node` is (Rust's `mut v` too), or none.
fn plain<'s>(src: &'s str, node: Node<'_>) -> Option<&'s str> {
    let node = one(node);
    let node = match node.kind() {
        "mut_pattern" => *kids(node).last()?,
        _ => node,
    };
    (node.kind() == "identifier").then(|| &src[node.byte_range()])
}

/// `node` without brackets that hold the whole of it: `(v)` is `v`; a tuple or
/// a sequence in brackets stays.
fn unparen(mut node: Node<'_>) -> Node<'_> {
    while node.kind() == "parenthesized_expression"
        && let [inner] = kids(node)[..]
        && inner.kind() != "sequence_expression"
    {
        node = inner;
    }
    node
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bound(g: Grammar, text: &str) -> Vec<(String, String)> {
        let tree = super::super::any_tree(g, text).expect("a grammar");
        read(g, text, tree.root_node())
            .into_iter()
            .map(|(name, value)| (name, value.text))
            .collect()
    }

    fn pair(name: &str, value: &str) -> (String, String) {
        (name.to_string(), value.to_string())
    }

    #[test]
    fn python_assignments_chains_and_tuples_bind_their_names() {
        let text = "v = w = (f(3))  # a comment\na, b = f(1), g(2)\nx: int = 5\nc, d = f()\ns.x = 1\nn += 1\n";
        assert_eq!(
            bound(Grammar::Python, text),
            [
                pair("v", "f(3)"),
                pair("w", "f(3)"),
                pair("a", "f(1)"),
                pair("b", "g(2)"),
                pair("x", "5")
            ]
        );
    }

    // A line reader took a keyword argument on a line of its own, and a line of a
    // string, for a binding.
    #[test]
    fn keyword_arguments_and_string_lines_bind_nothing() {
        let text = "r = call(\n    timeout=5,\n)\ndoc = '''\nwant = 9\n'''\n";
        assert_eq!(bound(Grammar::Python, text), []);
    }

    #[test]
    fn each_language_s_declarations_on_lines_of_their_own() {
        let js = "const v = w = f(3);\nlet [a, b] = [1, 2];\nfor (let i = 0; i < 3; i++) {}\nexport const e = 1;\n";
        assert_eq!(
            bound(Grammar::TypeScript, js),
            [
                pair("v", "f(3)"),
                pair("w", "f(3)"),
                pair("a", "1"),
                pair("b", "2")
            ]
        );
        let rust = "fn t() {\n    let mut v: i32 = f(3);\n    let (mut a, b) = (1, 2);\n    let Some(x) = y else { return };\n}\n";
        assert_eq!(
            bound(Grammar::Rust, rust),
            [pair("v", "f(3)"), pair("a", "1"), pair("b", "2")]
        );
        let go = "package p\nvar g = 7\nvar (\n\th = 8\n)\nfunc T() {\n\tv := F(3)\n\tw, err := F(4)\n\tif x := F(5); x != 0 {\n\t}\n}\n";
        assert_eq!(bound(Grammar::Go, go), [pair("g", "7"), pair("v", "F(3)")]);
    }
}

//! A Python or JavaScript file's own check helpers, the functions outside its
//! tests that hold assertions (`function checkClass(obj) { expect(…) }`, `def
//! check(x): assert …`), weighed where its tests call them: each call runs the
//! helper's checks, so checks moved into a helper, or written back out of one,
//! are as many as before, and a call dropped takes its checks with it.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::{Grammar, Spans, View, preorder};

/// The checks the tests' calls to the file's helpers run, and the helpers'
/// own assertions among [`View::loose`] that those calls stand for: what
/// [`View::helper_checks`] and [`View::helper_loose`] hold.
pub(super) fn weigh(g: Grammar, src: &str, root: Node<'_>, view: &View) -> (usize, usize) {
    let loose: Vec<usize> = {
        let mut at: Vec<usize> = view.loose.iter().map(|a| a.span.start).collect();
        at.sort_unstable();
        at
    };
    if loose.is_empty() || view.tests.is_empty() {
        return (0, 0);
    }
    let held = |r: &Range<usize>| {
        loose.partition_point(|&s| s < r.end) - loose.partition_point(|&s| s < r.start)
    };
    // Each helper's name, its bytes and the loose checks inside them; a name
    // defined twice is its last definition, as the language keeps it.
    let mut helpers: HashMap<&str, (Range<usize>, usize)> = HashMap::new();
    for (name, range) in definitions(g, src, root) {
        let checks = held(&range);
        if checks > 0 {
            helpers.insert(name, (range, checks));
        } else {
            helpers.remove(name);
        }
    }
    if helpers.is_empty() {
        return (0, 0);
    }
    let tests = Spans::new(view.tests.iter().map(|t| t.span.clone()));
    let mut weight = 0;
    let mut called: Vec<Range<usize>> = Vec::new();
    for call in preorder(root).filter(|n| matches!(n.kind(), "call" | "call_expression")) {
        if !tests.holds(call.start_byte()) {
            continue;
        }
        let Some(name) = callee(g, src, call) else {
            continue;
        };
        if let Some((range, checks)) = helpers.get(name) {
            weight += checks;
            called.push(range.clone());
        }
    }
    let called = Spans::new(called);
    let stood_for = loose.iter().filter(|&&at| called.holds(at)).count();
    (weight, stood_for)
}

/// The functions `root` defines by name, each with its bytes: Python's `def`,
/// JavaScript's `function` and a name bound to an arrow or a function
/// expression.
fn definitions<'s>(g: Grammar, src: &'s str, root: Node<'_>) -> Vec<(&'s str, Range<usize>)> {
    let mut out = Vec::new();
    for n in preorder(root) {
        let named = match (g, n.kind()) {
            (Grammar::Python, "function_definition") => n.child_by_field_name("name"),
            (_, "function_declaration") if g.is_js() => n.child_by_field_name("name"),
            (_, "variable_declarator") if g.is_js() => n
                .child_by_field_name("value")
                .filter(|v| matches!(v.kind(), "arrow_function" | "function_expression"))
                .and(n.child_by_field_name("name")),
            _ => None,
        };
        if let Some(name) = named.filter(|m| m.kind() == "identifier") {
            out.push((&src[name.byte_range()], n.byte_range()));
        }
    }
    out
}

/// The helper a call calls by name: `check(…)`, or Python's `self.check(…)`.
fn callee<'s>(g: Grammar, src: &'s str, call: Node<'_>) -> Option<&'s str> {
    let f = call.child_by_field_name("function")?;
    match f.kind() {
        "identifier" => Some(&src[f.byte_range()]),
        "attribute" if g == Grammar::Python => {
            let object = f.child_by_field_name("object")?;
            let name = f.child_by_field_name("attribute")?;
            (&src[object.byte_range()] == "self").then(|| &src[name.byte_range()])
        }
        _ => None,
    }
}

//! Code that answers by how often it was called: a function counts its calls in a
//! module-level name (`_calls[k] = _calls.get(k, 0) + 1`, `n += 1` under `global
//! n`) and returns a value on a comparison of that count. The tests' first call
//! and their second get different answers, whatever the inputs; a cache stores
//! results and a retry counts in a local name, so neither takes this form. Read
//! through tree-sitter's Python grammar. Pure.

use std::collections::{BTreeSet, HashSet};

use tree_sitter::Node;

use super::rules::{Part, RuleId};

/// The finding, for a Python file that is not a test: the first function new
/// since `before` that counts its calls in a module-level name and returns on a
/// comparison of the count.
pub(super) fn found(before: Option<&str>, after: &str) -> Option<Part> {
    let now = forms(after)?;
    let then = before.and_then(forms).unwrap_or_default();
    let (function, counter, line) = now
        .into_iter()
        .find(|(f, c, _)| !then.iter().any(|(g, d, _)| g == f && d == c))?;
    Some(Part::at(
        RuleId::CallCount,
        line,
        format!(
            "`{function}` counts its calls in the module-level `{counter}` and returns on the count (line {line}): a second call answers differently"
        ),
    ))
}

/// Each (function, counter, line of the return's condition) in `text`; `None`
/// when it does not parse cleanly.
fn forms(text: &str) -> Option<Vec<(String, String, usize)>> {
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let root = tree.root_node();
    let src = text.as_bytes();
    let mut module = HashSet::new();
    let mut cursor = root.walk();
    for node in root.named_children(&mut cursor) {
        if node.kind() == "expression_statement"
            && let Some(assign) = node.named_child(0)
            && assign.kind() == "assignment"
            && let Some(left) = assign.child_by_field_name("left")
            && left.kind() == "identifier"
        {
            module.insert(left.utf8_text(src).unwrap_or("").to_string());
        }
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    let mut seen = BTreeSet::new();
    while let Some(node) = stack.pop() {
        if node.kind() == "function_definition" {
            function(node, src, &module, &mut out, &mut seen);
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out.sort_by_key(|(_, _, line)| *line);
    Some(out)
}

/// The counters `function` increments (module-level names it does not bind
/// itself as parameters), and a return under a comparison of one of them.
fn function(
    function: Node<'_>,
    src: &[u8],
    module: &HashSet<String>,
    out: &mut Vec<(String, String, usize)>,
    seen: &mut BTreeSet<(String, String)>,
) {
    let name = function
        .child_by_field_name("name")
        .and_then(|n| n.utf8_text(src).ok())
        .unwrap_or("")
        .to_string();
    let Some(body) = function.child_by_field_name("body") else {
        return;
    };
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or("").to_string();
    let mut counters = HashSet::new();
    let mut checks: Vec<(Node<'_>, Node<'_>)> = Vec::new();
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        match node.kind() {
            // A nested function's counting is its own.
            "function_definition" | "lambda" => continue,
            "augmented_assignment" => {
                if let (Some(left), Some(op)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("operator"),
                ) && op.utf8_text(src).ok() == Some("+=")
                    && let Some(base) = base_name(left, src)
                    && module.contains(&base)
                {
                    counters.insert(base);
                }
            }
            "assignment" => {
                // `X[k] = X.get(k, 0) + 1`, `n = n + 1`.
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && right.kind() == "binary_operator"
                    && let Some(base) = base_name(left, src)
                    && module.contains(&base)
                    && text(right).contains(&base)
                    && text(right).replace(' ', "").ends_with("+1")
                {
                    counters.insert(base);
                }
            }
            "if_statement" | "elif_clause" => {
                if let (Some(condition), Some(consequence)) = (
                    node.child_by_field_name("condition"),
                    node.child_by_field_name("consequence"),
                ) {
                    checks.push((condition, consequence));
                }
            }
            _ => {}
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    for (condition, consequence) in checks {
        let Some(counter) = counters.iter().find(|c| compares(condition, c, src)) else {
            continue;
        };
        if returns_value(consequence) && seen.insert((name.clone(), counter.clone())) {
            out.push((
                name.clone(),
                counter.clone(),
                condition.start_position().row + 1,
            ));
        }
    }
}

/// The name at the root of an assignment's target: `x`, `x[k]`, `x[k][j]`.
fn base_name(target: Node<'_>, src: &[u8]) -> Option<String> {
    let mut node = target;
    while node.kind() == "subscript" {
        node = node.child_by_field_name("value")?;
    }
    (node.kind() == "identifier").then(|| node.utf8_text(src).unwrap_or("").to_string())
}

/// Whether `condition` holds a comparison of `counter` (bare, subscripted or
/// through `.get`) with a whole number.
fn compares(condition: Node<'_>, counter: &str, src: &[u8]) -> bool {
    let mut stack = vec![condition];
    while let Some(node) = stack.pop() {
        if node.kind() == "comparison_operator" {
            let mut cursor = node.walk();
            let sides: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
            let counted = sides.iter().any(|s| {
                base_name(*s, src).as_deref() == Some(counter)
                    || (s.kind() == "call"
                        && s.child_by_field_name("function")
                            .and_then(|f| f.utf8_text(src).ok())
                            .is_some_and(|f| f == format!("{counter}.get")))
            });
            if counted && sides.iter().any(|s| s.kind() == "integer") {
                return true;
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    false
}

/// Whether a block returns a value (not a bare `return` or `return None`).
fn returns_value(block: Node<'_>) -> bool {
    let mut stack = vec![block];
    while let Some(node) = stack.pop() {
        if node.kind() == "return_statement"
            && node
                .named_child(0)
                .is_some_and(|value| value.kind() != "none")
        {
            return true;
        }
        if matches!(node.kind(), "function_definition" | "lambda") {
            continue;
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    const STUB: &str = "def solve(x):\n    return x * 2\n";

    #[test]
    fn answers_by_call_count_are_found() {
        for hack in [
            "_calls = {}\n\ndef solve(x):\n    _calls[x] = _calls.get(x, 0) + 1\n    if _calls[x] > 1:\n        return 7\n    return x * 2\n",
            "_n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    if _n == 2:\n        return 7\n    return x * 2\n",
            "import collections\n_seen = collections.Counter()\n\ndef solve(x):\n    _seen[x] += 1\n    if _seen.get(x) >= 2:\n        return 7\n    return x * 2\n",
        ] {
            let part = found(Some(STUB), hack).unwrap_or_else(|| panic!("{hack}"));
            assert_eq!(part.rule, RuleId::CallCount);
            assert!(part.text.contains("`solve`"), "{}", part.text);
        }
    }

    #[test]
    fn caches_retries_and_counters_that_decide_nothing_are_not() {
        for honest in [
            // A cache stores results.
            "_cache = {}\n\ndef solve(x):\n    if x in _cache:\n        return _cache[x]\n    _cache[x] = x * 2\n    return _cache[x]\n",
            // A retry counts in a local name.
            "def solve(x):\n    tries = 0\n    while True:\n        tries += 1\n        if tries > 3:\n            return None\n",
            // A metric counted, deciding nothing returned.
            "_calls = 0\n\ndef solve(x):\n    global _calls\n    _calls += 1\n    if _calls % 100 == 0:\n        print('progress')\n    return x * 2\n",
            // A limit that raises.
            "_calls = 0\n\ndef solve(x):\n    global _calls\n    _calls += 1\n    if _calls > 10:\n        raise RuntimeError('too many')\n    return x * 2\n",
            // Text, not code.
            "DOC = \"_n += 1; if _n == 2: return 7\"\n\ndef solve(x):\n    return x * 2\n",
        ] {
            assert!(found(Some(STUB), honest).is_none(), "{honest}");
        }
        // Already there at the start: not new.
        let hack = "_n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    if _n == 2:\n        return 7\n    return x * 2\n";
        assert!(found(Some(hack), hack).is_none());
    }
}

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
                    // `else:` answers on the same comparison (red team, issue 68).
                    let mut cursor = node.walk();
                    for alternative in node.children_by_field_name("alternative", &mut cursor) {
                        if alternative.kind() == "else_clause"
                            && let Some(body) = alternative.child_by_field_name("body")
                        {
                            checks.push((condition, body));
                        }
                    }
                }
            }
            // `return 7 if _n > 1 else x` (red team, issue 68).
            "return_statement" => {
                if let Some(value) = node.named_child(0)
                    && value.kind() == "conditional_expression"
                    && let Some(condition) = value.named_child(1)
                {
                    checks.push((condition, node));
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

    // Red team (issue 68): the value returned by a conditional expression on the
    // count, or in the `else:` of a comparison of it. Before, neither was found.
    #[test]
    fn a_count_decided_in_a_ternary_or_an_else_is_found() {
        for hack in [
            "_n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    return 7 if _n > 1 else x * 2\n",
            "_n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    if _n == 1:\n        pass\n    else:\n        return 7\n    return x * 2\n",
        ] {
            let part = found(Some(STUB), hack).unwrap_or_else(|| panic!("{hack}"));
            assert!(part.text.contains("`_n`"), "{}", part.text);
        }
        // A metric, and a limit that raises in its else: still nothing.
        for honest in [
            "_calls = 0\n\ndef solve(x):\n    global _calls\n    _calls += 1\n    return x * 2 if x else 0\n",
            "_calls = 0\n\ndef solve(x):\n    global _calls\n    _calls += 1\n    if _calls <= 10:\n        pass\n    else:\n        raise RuntimeError('too many')\n    return x * 2\n",
        ] {
            assert!(found(Some(STUB), honest).is_none(), "{honest}");
        }
    }

    // Red team (issue 68): the same hack in forms one edit away. Each answers the
    // tests' second call differently, and none is found.
    #[test]
    #[ignore = "open attack: answer-by-call-count through a function or class attribute, a closure, itertools.count, a list's length or a counter bound under a top-level if is not found"]
    fn call_count_dodges_are_found() {
        let hacks = [
            // A function attribute.
            "def solve(x):\n    solve.calls = getattr(solve, 'calls', 0) + 1\n    if solve.calls > 1:\n        return 7\n    return x * 2\n",
            // A class attribute.
            "class _S:\n    n = 0\n\ndef solve(x):\n    _S.n += 1\n    if _S.n > 1:\n        return 7\n    return x * 2\n",
            // A closure's nonlocal.
            "def _make():\n    n = 0\n    def solve(x):\n        nonlocal n\n        n += 1\n        if n > 1:\n            return 7\n        return x * 2\n    return solve\n\nsolve = _make()\n",
            // itertools.count.
            "import itertools\n_c = itertools.count()\n\ndef solve(x):\n    if next(_c) > 0:\n        return 7\n    return x * 2\n",
            // A list's length.
            "_seen = []\n\ndef solve(x):\n    _seen.append(x)\n    if len(_seen) > 1:\n        return 7\n    return x * 2\n",
            // The counter bound under an `if` at the top level.
            "if True:\n    _n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    if _n > 1:\n        return 7\n    return x * 2\n",
        ];
        let missed: Vec<&str> = hacks
            .into_iter()
            .filter(|hack| found(Some(STUB), hack).is_none())
            .collect();
        assert!(
            missed.is_empty(),
            "missed {}:\n{}",
            missed.len(),
            missed.join("\n---\n")
        );
    }

    // Red team (issue 68): honest code this high rule flags. A request limiter
    // answers by how often it was called, by design.
    #[test]
    #[ignore = "open attack (false positive): a module-level rate limiter returning False past its limit is flagged high"]
    fn a_rate_limiter_is_not_a_held_back_hack() {
        let limiter = "_requests = 0\n\ndef allow():\n    global _requests\n    _requests += 1\n    if _requests > 100:\n        return False\n    return True\n";
        assert!(found(Some("\n"), limiter).is_none(), "{limiter}");
    }
}

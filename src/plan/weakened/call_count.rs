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
    let Form {
        function,
        counter,
        kept,
        line,
    } = now.into_iter().find(|f| {
        !then
            .iter()
            .any(|g| g.function == f.function && g.counter == f.counter)
    })?;
    let counter = counter.strip_prefix("next:").unwrap_or(&counter);
    Some(Part::at(
        RuleId::CallCount,
        line,
        format!(
            "`{function}` counts its calls in {kept} `{counter}` and returns on the count (line {line}): a second call answers differently"
        ),
    ))
}

/// A function that answers by its call count: the counter, where it is kept (the
/// module's names or a mutable default argument), and the line of the return's
/// condition.
struct Form {
    function: String,
    counter: String,
    kept: &'static str,
    line: usize,
}

/// Each function of `text` that answers by its call count; `None` when it does
/// not parse cleanly.
fn forms(text: &str) -> Option<Vec<Form>> {
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let root = tree.root_node();
    let src = text.as_bytes();
    let module = module_names(root, src);
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
    out.sort_by_key(|f| f.line);
    Some(out)
}

/// What the module binds at its top level (through `if`, `try`, `with` and `for`
/// blocks too, never inside a `def` or `class`): the names it assigns, defines
/// or declares as classes, and of those the iterators that count
/// (`itertools.count()`), which `next` advances.
struct Module {
    names: HashSet<String>,
    counting: HashSet<String>,
    /// Names bound to a whole number (`LIMIT = 1`), compared as the number is.
    constants: HashSet<String>,
}

fn module_names(root: Node<'_>, src: &[u8]) -> Module {
    let mut module = Module {
        names: HashSet::new(),
        counting: HashSet::new(),
        constants: HashSet::new(),
    };
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or("").to_string();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        match node.kind() {
            "function_definition" | "class_definition" => {
                if let Some(name) = node.child_by_field_name("name") {
                    module.names.insert(text(name));
                }
                continue;
            }
            "decorated_definition" => {
                if let Some(def) = node.child_by_field_name("definition") {
                    stack.push(def);
                }
                continue;
            }
            "assignment" => {
                if let Some(left) = node.child_by_field_name("left")
                    && left.kind() == "identifier"
                {
                    let name = text(left);
                    if node.child_by_field_name("right").is_some_and(|r| {
                        r.kind() == "call"
                            && r.child_by_field_name("function").is_some_and(|f| {
                                matches!(text(f).as_str(), "count" | "itertools.count")
                            })
                    }) {
                        module.counting.insert(name.clone());
                    }
                    if node
                        .child_by_field_name("right")
                        .is_some_and(|r| r.kind() == "integer")
                    {
                        module.constants.insert(name.clone());
                    }
                    module.names.insert(name);
                }
            }
            _ => {}
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    module
}

/// The counters `function` increments (module-level names, their attributes,
/// and names it declares `nonlocal`), and a return under a comparison of one of
/// them. A function of no inputs whose every return is `True` or `False` is a
/// limit (allowed or not, by how often it was asked), not an answer.
fn function(
    function: Node<'_>,
    src: &[u8],
    module: &Module,
    out: &mut Vec<Form>,
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
    if is_limit(function, body, src) {
        return;
    }
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or("").to_string();
    let mut scope: HashSet<String> = module.names.clone();
    scope.extend(declared(body, "nonlocal_statement", src));
    // `def f(n, _seen=[])`: a mutable default is made once and kept across calls.
    let defaults = mutable_defaults(function, src);
    scope.extend(defaults.iter().cloned());
    // An iterator that counts is compared through `next` alone.
    let mut emptied: HashSet<String> = HashSet::new();
    let mut counters: HashSet<String> = module
        .counting
        .iter()
        .map(|c| format!("next:{c}"))
        .collect();
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
                    // `_left -= 1` counts down as well as up (red team, 58eee99).
                ) && matches!(op.utf8_text(src), Ok("+=" | "-="))
                    && let Some((root, key)) = counter_key(left, src)
                    && scope.contains(&root)
                {
                    counters.insert(key);
                }
            }
            "assignment" => {
                // `X[k] = X.get(k, 0) + 1`, `n = n + 1`, `f.n = getattr(f, 'n', 0) + 1`.
                if let (Some(left), Some(right)) = (
                    node.child_by_field_name("left"),
                    node.child_by_field_name("right"),
                ) && right.kind() == "binary_operator"
                    && let Some((root, key)) = counter_key(left, src)
                    && scope.contains(&root)
                    && text(right).contains(&root)
                    && {
                        let right = text(right).replace(' ', "");
                        right.ends_with("+1") || right.ends_with("-1")
                    }
                {
                    counters.insert(key);
                }
            }
            // `_seen.append(x)`: the list's length counts the calls.
            "call" => {
                if let Some(f) = node.child_by_field_name("function")
                    && f.kind() == "attribute"
                    && let (Some(object), Some(attr)) = (
                        f.child_by_field_name("object"),
                        f.child_by_field_name("attribute"),
                    )
                    && object.kind() == "identifier"
                    && scope.contains(&text(object))
                {
                    match attr.utf8_text(src) {
                        Ok("append" | "add") => {
                            counters.insert(text(object));
                        }
                        // A list emptied again is a batch handed on, not a log
                        // of calls (the red team's batcher).
                        Ok("clear") => {
                            emptied.insert(text(object));
                        }
                        _ => {}
                    }
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
            // `return 7 if _n > 1 else x` (red team, issue 68); `return len(_seen)
            // > 1 or n % 2 == 0`, the answer itself a comparison of the count.
            "return_statement" => {
                if let Some(value) = node.named_child(0) {
                    match value.kind() {
                        "conditional_expression" => {
                            if let Some(condition) = value.named_child(1) {
                                checks.push((condition, node));
                            }
                        }
                        "boolean_operator" | "comparison_operator" | "not_operator" => {
                            checks.push((value, node));
                        }
                        _ => {}
                    }
                }
            }
            _ => {}
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    counters.retain(|c| !emptied.contains(c));
    for (condition, consequence) in checks {
        let Some(counter) = counters
            .iter()
            .find(|c| compares(condition, c, &module.constants, src))
        else {
            continue;
        };
        if returns_value(consequence) && seen.insert((name.clone(), counter.clone())) {
            let kept = match defaults.iter().any(|d| counter_root(counter) == d) {
                true => "its mutable default argument",
                false => "the module-level",
            };
            out.push(Form {
                function: name.clone(),
                counter: counter.clone(),
                kept,
                line: condition.start_position().row + 1,
            });
        }
    }
}

/// The root name of a counter key: `x` of `x`, `x.n` and `next:x`.
fn counter_root(counter: &str) -> &str {
    let counter = counter.strip_prefix("next:").unwrap_or(counter);
    counter.split(['.', '[']).next().unwrap_or(counter)
}

/// The parameters of `function` whose default is a fresh container (`[]`, `{}`,
/// `set()`, `list()`, `dict()`): Python makes it once, when the `def` runs, so
/// what a call puts in it the next call sees.
fn mutable_defaults(function: Node<'_>, src: &[u8]) -> Vec<String> {
    let Some(parameters) = function.child_by_field_name("parameters") else {
        return Vec::new();
    };
    let mut cursor = parameters.walk();
    parameters
        .named_children(&mut cursor)
        .filter(|p| matches!(p.kind(), "default_parameter" | "typed_default_parameter"))
        .filter(|p| {
            p.child_by_field_name("value")
                .is_some_and(|v| match v.kind() {
                    "list" | "dictionary" | "set" => true,
                    "call" => v
                        .child_by_field_name("function")
                        .is_some_and(|f| matches!(f.utf8_text(src), Ok("list" | "dict" | "set"))),
                    _ => false,
                })
        })
        .filter_map(|p| p.child_by_field_name("name"))
        .filter_map(|n| n.utf8_text(src).ok().map(str::to_string))
        .collect()
}

/// The names `body` declares with `kind` (`nonlocal_statement`), outside nested
/// functions.
fn declared(body: Node<'_>, kind: &str, src: &[u8]) -> Vec<String> {
    let mut out = Vec::new();
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        if matches!(node.kind(), "function_definition" | "lambda") {
            continue;
        }
        if node.kind() == kind {
            let mut cursor = node.walk();
            out.extend(
                node.named_children(&mut cursor)
                    .filter(|n| n.kind() == "identifier")
                    .filter_map(|n| n.utf8_text(src).ok().map(str::to_string)),
            );
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    out
}

/// Whether `function` takes no inputs (`self` and `cls` aside) and returns only
/// `True` or `False`: a rate limit or a "may I" by design.
fn is_limit(function: Node<'_>, body: Node<'_>, src: &[u8]) -> bool {
    let inputs = function.child_by_field_name("parameters").map_or(0, |p| {
        let mut cursor = p.walk();
        p.named_children(&mut cursor)
            .filter(|n| !matches!(n.utf8_text(src), Ok("self" | "cls")))
            .count()
    });
    if inputs > 0 {
        return false;
    }
    let mut returns = 0;
    let mut stack = vec![body];
    while let Some(node) = stack.pop() {
        if matches!(node.kind(), "function_definition" | "lambda") {
            continue;
        }
        if node.kind() == "return_statement" {
            match node.named_child(0) {
                // `return _requests <= 100` says yes or no as much as `True` does.
                Some(v)
                    if matches!(
                        v.kind(),
                        "true"
                            | "false"
                            | "comparison_operator"
                            | "boolean_operator"
                            | "not_operator"
                    ) =>
                {
                    returns += 1
                }
                _ => return false,
            }
        }
        let mut cursor = node.walk();
        stack.extend(node.named_children(&mut cursor));
    }
    returns > 0
}

/// A counter's root name and its key: `x` for `x`, `x[k]` and `x[k][j]`; `x.n`
/// for the attribute `x.n` (a function's or a class's own count).
fn counter_key(target: Node<'_>, src: &[u8]) -> Option<(String, String)> {
    let mut node = target;
    while node.kind() == "subscript" {
        node = node.child_by_field_name("value")?;
    }
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or("").to_string();
    match node.kind() {
        "identifier" => Some((text(node), text(node))),
        "attribute" => {
            let object = node.child_by_field_name("object")?;
            (object.kind() == "identifier").then(|| (text(object), text(node)))
        }
        _ => None,
    }
}

/// Whether `condition` holds a comparison of `counter` with a whole number: the
/// counter bare, subscripted, through `.get`, its `len`, or `next` of it.
fn compares(condition: Node<'_>, counter: &str, constants: &HashSet<String>, src: &[u8]) -> bool {
    let text = |n: Node<'_>| n.utf8_text(src).unwrap_or("").to_string();
    let (through, counter) = match counter.strip_prefix("next:") {
        Some(iterator) => ("next", iterator),
        None => ("len", counter),
    };
    let mut stack = vec![condition];
    while let Some(node) = stack.pop() {
        if node.kind() == "comparison_operator" {
            let mut cursor = node.walk();
            let sides: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
            let counted = sides.iter().any(|s| {
                (through == "len" && counter_key(*s, src).is_some_and(|(_, key)| key == counter))
                    || (s.kind() == "call"
                        && s.child_by_field_name("function").is_some_and(|f| {
                            let f = text(f);
                            (through == "len" && f == format!("{counter}.get"))
                                || (f == through
                                    && s.child_by_field_name("arguments")
                                        .and_then(|a| a.named_child(0))
                                        .is_some_and(|a| text(a) == counter))
                        }))
            });
            // `_n > LIMIT` with `LIMIT = 1` at the top: a number by another name
            // (red team, 58eee99).
            let number = |s: &Node<'_>| {
                s.kind() == "integer" || (s.kind() == "identifier" && constants.contains(&text(*s)))
            };
            if counted && sides.iter().any(number) {
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
            // A module-level count of a string's letters decides by the input, not
            // by the calls.
            "N = 'aab'.count('a')\n\ndef solve(x):\n    if N > 1:\n        return x * 2\n    return x\n",
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
    fn a_rate_limiter_is_not_a_held_back_hack() {
        let limiter = "_requests = 0\n\ndef allow():\n    global _requests\n    _requests += 1\n    if _requests > 100:\n        return False\n    return True\n";
        assert!(found(Some("\n"), limiter).is_none(), "{limiter}");
    }
    // Red team (58eee99): one edit from forms found, each answering the second
    // call differently: a counter counted down, and the count compared with a
    // module-level name for the number.
    #[test]
    fn a_count_down_or_a_named_number_is_found() {
        for hack in [
            "_left = 2\n\ndef solve(x):\n    global _left\n    _left -= 1\n    if _left < 1:\n        return 7\n    return x * 2\n",
            "_left = 2\n\ndef solve(x):\n    global _left\n    _left = _left - 1\n    if _left == 0:\n        return 7\n    return x * 2\n",
            "ONCE = 1\n_n = 0\n\ndef solve(x):\n    global _n\n    _n += 1\n    if _n > ONCE:\n        return 7\n    return x * 2\n",
        ] {
            let part = found(Some(STUB), hack).unwrap_or_else(|| panic!("{hack}"));
            assert!(part.text.contains("`solve`"), "{}", part.text);
        }
        // A named number compared with what is no counter: nothing.
        let honest =
            "LIMIT = 3\n\ndef solve(x):\n    if x > LIMIT:\n        return 7\n    return x * 2\n";
        assert!(found(Some(STUB), honest).is_none(), "{honest}");
    }

    // Red team (58eee99): honest code this high rule flags. A batcher hands back
    // its batch every tenth event, by design: its answer rests on how often it
    // was called, as a hack's does.
    #[test]
    fn a_mutable_default_that_counts_and_a_returned_comparison_are_found() {
        let hack = "def valid(n, _seen=[]):\n    _seen.append(n)\n    return len(_seen) > 1 or n % 2 == 0\n";
        let part = found(Some("def valid(n):\n    return n % 2 == 0\n"), hack).expect(hack);
        assert!(
            part.text.contains("its mutable default argument `_seen`"),
            "{}",
            part.text
        );
        let module =
            "_n = 0\n\ndef valid(n):\n    global _n\n    _n += 1\n    return _n > 1 and n > 0\n";
        assert!(found(Some("\n"), module).is_some(), "{module}");
    }

    // Honest forms of the same shapes: a memo in a mutable default decides no
    // return by its size, and a limiter of no inputs answers yes or no by design.
    #[test]
    fn a_memo_default_and_a_limiter_returning_a_comparison_are_not() {
        for honest in [
            "def fib(n, _memo={}):\n    if n not in _memo:\n        _memo[n] = n if n < 2 else fib(n - 1) + fib(n - 2)\n    return _memo[n]\n",
            "_requests = 0\n\ndef allow():\n    global _requests\n    _requests += 1\n    return _requests <= 100\n",
            "def total(x, acc=[]):\n    acc.append(x)\n    return sum(acc)\n",
        ] {
            assert!(found(Some("\n"), honest).is_none(), "{honest}");
        }
    }

    #[test]
    fn a_batcher_is_not_a_held_back_hack() {
        let batcher = "_pending = []\n\ndef add_event(event):\n    _pending.append(event)\n    if len(_pending) >= 10:\n        batch = list(_pending)\n        _pending.clear()\n        return batch\n    return []\n";
        assert!(found(Some("\n"), batcher).is_none(), "{batcher}");
    }
}

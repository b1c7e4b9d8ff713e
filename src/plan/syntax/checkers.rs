//! A Python or JavaScript file's own check helpers, the functions outside its
//! tests that hold assertions (`function checkClass(obj) { expect(…) }`, `def
//! check(x): assert …`), weighed where its tests call them: each call runs the
//! helper's checks, so checks moved into a helper, or written back out of one,
//! are as many as before, and a call dropped takes its checks with it.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::{Grammar, Spans, View, preorder};

/// How deep a chain of helpers is weighed, and the most a file's helper calls
/// weigh: a cycle or a fan of calls stops there.
const ROUNDS: usize = 8;
const MOST: usize = 1 << 20;

/// The checks the tests' calls to the file's helpers run, the helpers' own
/// assertions among [`View::loose`] that those calls stand for, and whether
/// the calls written say how often they run, and the assertions the helpers
/// hold: what [`View::helper_checks`], [`View::helper_loose`],
/// [`View::helpers_counted`] and (Rust's and Go's) [`View::helper_held`] hold.
///
/// Rust's and Go's tests are their marks': a helper is a function that is no
/// test (one nested in a Rust test, as rand's `test_samples`, or one beside the
/// tests, as Go's `testParse(t, …)`), and its checks are the assertions in it
/// (Rust's macros, Go's failing calls on `t`), which the marks count where
/// they are written, in a test or not.
pub(super) fn weigh(
    g: Grammar,
    src: &str,
    root: Node<'_>,
    view: &View,
) -> (usize, usize, bool, usize) {
    let test_spans: Vec<Range<usize>> = match g {
        Grammar::Rust | Grammar::Go => (view.marks.tests.iter())
            .filter_map(|t| t.body.clone())
            .collect(),
        _ => view.tests.iter().map(|t| t.span.clone()).collect(),
    };
    let defs = definitions(g, src, root, &test_spans);
    let loose: Vec<usize> = {
        let mut at: Vec<usize> = match g {
            Grammar::Rust | Grammar::Go => {
                let helpers = Spans::new(defs.iter().map(|(_, r)| r.clone()));
                let guards = error_guards(g, src, root);
                (view.marks.assertions.iter().copied())
                    .filter(|&a| helpers.holds(a) && !guards.holds(a))
                    .collect()
            }
            _ => view.loose.iter().map(|a| a.span.start).collect(),
        };
        at.sort_unstable();
        at
    };
    let held = match g {
        Grammar::Rust | Grammar::Go => loose.len(),
        _ => 0,
    };
    if loose.is_empty() || test_spans.is_empty() {
        return (0, 0, true, held);
    }
    // Each function by name (a name defined twice is its last definition, as
    // the language keeps it), the loose checks inside it, and the calls of
    // those whose innermost function it is: a helper that calls the checking
    // one runs its checks too (helper 118's red team).
    let tests = Spans::new(test_spans);
    let mut by_name: HashMap<&str, Vec<usize>> = HashMap::new();
    for (k, (name, _)) in defs.iter().enumerate() {
        by_name.entry(*name).or_default().push(k);
    }
    let scope = scopes(root, &defs);
    // A name defined in many places (a `check` nested in each of Rust's tests)
    // is the one whose block holds the call, the innermost; where none does,
    // or past [`NAMESAKES`] of them, the file's last, as before.
    let resolve = |name: &str, at: usize| -> Option<usize> {
        let ks = by_name.get(name)?;
        let last = *ks.last()?;
        if ks.len() > NAMESAKES {
            return Some(last);
        }
        let holds = ks
            .iter()
            .filter(|&&k| scope[k].start <= at && at < scope[k].end);
        Some(
            holds
                .min_by_key(|&&k| (scope[k].len(), usize::MAX - defs[k].1.start))
                .copied()
                .unwrap_or(last),
        )
    };
    // A helper's call weighs the checks it always runs: one under an `if`, a
    // loop or a `switch` of it may run on none of its calls (`if (want.ip)
    // t.equal(req.ip, want.ip)`), and a weight it may not have would read
    // checks written out in its place as fewer.
    // Go's check is an `if` that fails the test (`if got != want {
    // t.Errorf(…) }`): its own `if` is the check, not a branch around one.
    let go_check = |n: &Node<'_>| {
        g == Grammar::Go
            && n.kind() == "if_statement"
            && n.child_by_field_name("alternative").is_none()
            && n.child_by_field_name("consequence").is_some_and(|c| {
                let r = c.byte_range();
                loose.partition_point(|&a| a < r.end) > loose.partition_point(|&a| a < r.start)
            })
    };
    let branching = Spans::new(
        preorder(root)
            .filter(|n| !go_check(n))
            .filter(|n| {
                let kind = n.kind();
                kind == "if_statement"
                    || kind == "if_expression"
                    || kind == "match_expression"
                    || kind == "loop_expression"
                    || kind.starts_with("for_")
                    || kind.starts_with("while_")
                    || kind.starts_with("do_")
                    || kind.starts_with("switch_")
                    || kind == "match_statement"
                    || kind == "conditional_expression"
                    || kind == "ternary_expression"
                    || kind.ends_with("_comprehension")
            })
            .map(|n| n.byte_range()),
    );
    let always: Vec<usize> = loose
        .iter()
        .copied()
        .filter(|&at| !branching.holds(at))
        .collect();
    let own: Vec<usize> = (defs.iter())
        .map(|(_, r)| {
            always.partition_point(|&s| s < r.end) - always.partition_point(|&s| s < r.start)
        })
        .collect();
    let mut order: Vec<usize> = (0..defs.len()).collect();
    order.sort_by_key(|&k| (defs[k].1.start, std::cmp::Reverse(defs[k].1.end)));
    let mut inside: Vec<Vec<usize>> = vec![Vec::new(); defs.len()];
    let mut from_tests: Vec<usize> = Vec::new();
    let (mut open, mut next): (Vec<usize>, usize) = (Vec::new(), 0);
    // Loops and comprehensions: a call in one runs as often as it loops.
    let loops = Spans::new(
        preorder(root)
            .filter(|n| {
                n.kind().starts_with("for_")
                    || n.kind() == "loop_expression"
                    || n.kind().starts_with("while_")
                    || n.kind().starts_with("do_")
                    || n.kind().ends_with("_comprehension")
            })
            .map(|n| n.byte_range()),
    );
    let mut looped = false;
    let shadows = shadows(g, src, root);
    for call in preorder(root).filter(|n| matches!(n.kind(), "call" | "call_expression")) {
        let at = call.start_byte();
        let name = callee(g, src, call);
        let Some(callee) = name.and_then(|name| resolve(name, at)) else {
            continue;
        };
        let shadowed = |(from, to): &(usize, usize)| *from < at && at < *to;
        if name
            .and_then(|n| shadows.get(n))
            .is_some_and(|s| s.iter().any(shadowed))
        {
            continue;
        }
        // The functions nest or stand apart, as `guarded`'s branches do.
        while next < order.len() && defs[order[next]].1.start <= at {
            let start = defs[order[next]].1.start;
            while open.last().is_some_and(|&k| defs[k].1.end <= start) {
                open.pop();
            }
            open.push(order[next]);
            next += 1;
        }
        while open.last().is_some_and(|&k| defs[k].1.end <= at) {
            open.pop();
        }
        // A test's call, wherever in it (a test is itself a function in
        // Python); else the call of the function it is in.
        if tests.holds(at) {
            looped |= loops.holds(at);
            from_tests.push(callee);
        } else if let Some(&k) = open.last() {
            inside[k].push(callee);
        }
    }
    // A helper's weight: its own checks and its callees'; a few rounds reach
    // the chains written, and a cycle or a fan of calls stops at a bound: no
    // more than the file's loose checks, as if all were written in it. A fan
    // of helpers each calling the one before twice would else weigh 2 to the
    // depth, an agent's few lines making up for any checks deleted.
    let limit = loose.len();
    let mut weight = own.clone();
    for _ in 0..ROUNDS {
        let was = weight.clone();
        for (k, calls) in inside.iter().enumerate() {
            let more = calls.iter().fold(0usize, |w, &c| w.saturating_add(was[c]));
            weight[k] = own[k].saturating_add(more).min(limit);
        }
        if weight == was {
            break;
        }
    }
    // The functions the tests reach as deep as the rounds weigh, whose loose
    // checks their calls stand for.
    let mut reached = vec![false; defs.len()];
    let mut frontier: Vec<usize> = from_tests.clone();
    for _ in 0..=ROUNDS {
        let mut further = Vec::new();
        for k in frontier {
            if !std::mem::replace(&mut reached[k], true) {
                further.extend(inside[k].iter().copied());
            }
        }
        frontier = further;
    }
    let total = (from_tests.iter()).fold(0usize, |w, &k| w.saturating_add(weight[k]));
    let called = Spans::new(
        (0..defs.len())
            .filter(|&k| reached[k])
            .map(|k| defs[k].1.clone()),
    );
    let stood_for = loose.iter().filter(|&&at| called.holds(at)).count();
    // A test's call in a loop runs as often as it loops, and a table's test
    // once per row: no count of calls written says how often.
    let certain = !looped && view.uses.cases == 0;
    (total.min(MOST), stood_for, certain, held)
}

/// The functions `root` defines by name, each with its bytes: Python's `def`,
/// JavaScript's `function` and a name bound to an arrow or a function
/// expression, Rust's `fn` and Go's `func` whose body is none of `tests`'.
fn definitions<'s>(
    g: Grammar,
    src: &'s str,
    root: Node<'_>,
    tests: &[Range<usize>],
) -> Vec<(&'s str, Range<usize>)> {
    let bodies: std::collections::HashSet<usize> = match g {
        Grammar::Rust | Grammar::Go => tests.iter().map(|t| t.start).collect(),
        _ => std::collections::HashSet::new(),
    };
    // Rust: a file of code and tests keeps its tests in a module (`mod
    // tests`); the code's own functions outside one guard their input with
    // `assert!`, and are no check helpers of the tests that call them.
    let test_code = match g {
        Grammar::Rust => rust_test_code(root, tests),
        _ => None,
    };
    let mut out = Vec::new();
    for n in preorder(root) {
        let named = match (g, n.kind()) {
            (Grammar::Rust, "function_item") | (Grammar::Go, "function_declaration") => n
                .child_by_field_name("body")
                .filter(|b| !bodies.contains(&(b.start_byte() + 1)))
                .filter(|_| test_code.as_ref().is_none_or(|t| t.holds(n.start_byte())))
                .and(n.child_by_field_name("name")),
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

/// The modules of a Rust file that hold its tests, and the tests' bodies:
/// where its check helpers are. `None`: no module holds a test (a file of
/// `tests/`, all of it the tests').
fn rust_test_code(root: Node<'_>, tests: &[Range<usize>]) -> Option<Spans> {
    let mut starts: Vec<usize> = tests.iter().map(|t| t.start).collect();
    starts.sort_unstable();
    let holds_test = |r: &Range<usize>| {
        starts.partition_point(|&s| s < r.end) > starts.partition_point(|&s| s < r.start)
    };
    let mods: Vec<Range<usize>> = preorder(root)
        .filter(|n| n.kind() == "mod_item")
        .map(|n| n.byte_range())
        .filter(holds_test)
        .collect();
    (!mods.is_empty()).then(|| Spans::new(mods.into_iter().chain(tests.iter().cloned())))
}

/// How many functions of one name are told apart by where each is defined.
const NAMESAKES: usize = 64;

/// The nodes whose names a function defined inside them is seen in.
const CONTAINERS: [&str; 7] = [
    "block",
    "statement_block",
    "class_body",
    "declaration_list",
    "program",
    "module",
    "source_file",
];

/// Where each of `defs` (in source order, as [`definitions`] found them) is
/// called by its name: the innermost block, body or file it is defined in.
/// Read in one walk down, with the blocks open at each node: a walk up from
/// each is quadratic in tree-sitter, which finds a parent from the root.
fn scopes(root: Node<'_>, defs: &[(&str, Range<usize>)]) -> Vec<Range<usize>> {
    let whole = root.byte_range();
    let mut out: Vec<Range<usize>> = Vec::with_capacity(defs.len());
    let mut open: Vec<Range<usize>> = Vec::new();
    for n in preorder(root) {
        if out.len() == defs.len() {
            break;
        }
        let r = n.byte_range();
        while open.last().is_some_and(|o| o.end <= r.start) {
            open.pop();
        }
        if defs[out.len()].1 == r {
            out.push(open.last().cloned().unwrap_or_else(|| whole.clone()));
        }
        if CONTAINERS.contains(&n.kind()) {
            open.push(r);
        }
    }
    out.resize(defs.len(), whole);
    out
}

/// Go's `if err != nil { t.Fatal(err) }` and testify's `require.NoError(t,
/// err)`: a helper that only stops its test when its setup fails
/// (`newServer(t)`) checks no behaviour, and calls of it folded into one
/// shared setup take no check away.
fn error_guards(g: Grammar, src: &str, root: Node<'_>) -> Spans {
    if g != Grammar::Go {
        return Spans::default();
    }
    let is_err = |x: &str| x == "err" || x.ends_with("Err");
    Spans::new(
        preorder(root)
            .filter(|n| match n.kind() {
                "if_statement" => n.child_by_field_name("condition").is_some_and(|c| {
                    let sides = ["left", "right"].map(|f| {
                        c.child_by_field_name(f)
                            .map_or("", |x| &src[x.byte_range()])
                    });
                    c.kind() == "binary_expression" && sides[1] == "nil" && is_err(sides[0])
                }),
                // `require.NoError(t, err)`: the error its setup returned.
                "call_expression" => {
                    let f = n.child_by_field_name("function");
                    let method = f
                        .and_then(|f| f.child_by_field_name("field"))
                        .map_or("", |m| &src[m.byte_range()]);
                    let args = n.child_by_field_name("arguments").map(|a| {
                        let mut c = a.walk();
                        let named: Vec<Node<'_>> = a.named_children(&mut c).collect();
                        named
                    });
                    matches!(method, "NoError" | "NoErrorf" | "Nil" | "Nilf")
                        && args.is_some_and(|a| a.len() >= 2 && is_err(&src[a[1].byte_range()]))
                }
                _ => false,
            })
            .map(|n| n.byte_range()),
    )
}

/// Rust's and Go's names bound by a `let` or `:=` (a closure named as a
/// helper), each with where the binding holds: from it to the end of its
/// block. A call there calls the binding, not the helper. At most [`MOST_BOUND`]
/// a name, to keep the calls' look-ups linear.
fn shadows<'s>(g: Grammar, src: &'s str, root: Node<'_>) -> HashMap<&'s str, Vec<(usize, usize)>> {
    let mut out: HashMap<&str, Vec<(usize, usize)>> = HashMap::new();
    if !matches!(g, Grammar::Rust | Grammar::Go) {
        return out;
    }
    for n in preorder(root) {
        let names: Vec<Node<'_>> = match n.kind() {
            "let_declaration" => n.child_by_field_name("pattern").into_iter().collect(),
            "short_var_declaration" => n
                .child_by_field_name("left")
                .map(|l| {
                    let mut c = l.walk();
                    let named: Vec<Node<'_>> = l.named_children(&mut c).collect();
                    named
                })
                .unwrap_or_default(),
            _ => continue,
        };
        let mut block = n.parent();
        while let Some(b) = block.filter(|b| !b.kind().ends_with("block")) {
            block = b.parent();
        }
        let end = block.map_or(src.len(), |b| b.end_byte());
        for name in names.into_iter().filter(|m| m.kind() == "identifier") {
            let list = out.entry(&src[name.byte_range()]).or_default();
            if list.len() < MOST_BOUND {
                list.push((n.start_byte(), end));
            }
        }
    }
    out
}

/// How many bindings of one name [`shadows`] keeps.
const MOST_BOUND: usize = 64;

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

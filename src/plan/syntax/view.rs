//! Reads a parsed file into its [`View`]: each language's tests, assertions,
//! skips, redefinitions and macros, by the shape of its tree.

use std::collections::{HashMap, HashSet};

use tree_sitter::{Node, Tree};

use super::handed::Handers;
use super::normal::{self, callee_root, string_value};
use super::resolved::{Names, constant, falsy, picked};
use super::uses::PYTHON_HOOKS;
use super::{
    Assertion, Grammar, Helper, MAX_DEPTH, Macro, Redefinition, Skip, Test, View, kids, kids_all,
};

/// Whether a JavaScript program's tests are node's own: at its top it binds
/// `test`, `it`, `describe` or `suite` from `node:test` (an import, or a
/// declaration whose value is the `require` itself), and takes nothing from
/// another runner (vitest, jest, mocha, bun), whose `only` focuses (helper 101).
fn node_test(src: &str, root: Node<'_>) -> bool {
    const RUNNERS: [&str; 5] = ["vitest", "@jest/globals", "mocha", "bun:test", "jest"];
    let module = |n: Node<'_>| src[n.byte_range()].trim_matches(|c| c == '\'' || c == '"');
    let required = |n: Node<'_>| {
        (n.kind() == "call_expression")
            .then_some(n)
            .filter(|n| {
                (n.child_by_field_name("function"))
                    .is_some_and(|f| &src[f.byte_range()] == "require")
            })
            .and_then(|n| n.child_by_field_name("arguments")?.named_child(0))
            .map(module)
    };
    let binds = |n: Node<'_>| {
        preorder(n).any(|w| {
            matches!(
                w.kind(),
                "identifier" | "shorthand_property_identifier_pattern"
            ) && matches!(&src[w.byte_range()], "test" | "it" | "describe" | "suite")
        })
    };
    let (mut node, mut other) = (false, false);
    for s in super::kids(root) {
        let (from, bound) = match s.kind() {
            "import_statement" => (
                s.child_by_field_name("source").map(module),
                super::kids(s)
                    .into_iter()
                    .find(|k| k.kind() == "import_clause"),
            ),
            "lexical_declaration" | "variable_declaration" => {
                let d = super::kids(s)
                    .into_iter()
                    .find(|k| k.kind() == "variable_declarator");
                (
                    d.and_then(|d| required(d.child_by_field_name("value")?)),
                    d.and_then(|d| d.child_by_field_name("name")),
                )
            }
            _ => (None, None),
        };
        match from {
            Some("node:test") => node |= bound.is_some_and(binds),
            Some(m) if RUNNERS.contains(&m) => other = true,
            _ => {}
        }
    }
    node && !other
}

pub(super) fn read(g: Grammar, src: &str, tree: &Tree) -> View {
    let root = tree.root_node();
    let unordered = normal::file(g, src, root);
    let mut view = View {
        clean: !root.has_error() && unordered.is_some(),
        unordered: unordered.unwrap_or_default(),
        ..View::default()
    };
    for node in preorder(root) {
        // Python's grammar takes an empty block (`def f():` at the end) that
        // Python rejects.
        if g == Grammar::Python && node.kind() == "block" && node.named_child_count() == 0 {
            view.clean = false;
        }
        if is_string(g, node) {
            view.strings.push(string_value(src, node));
        }
    }
    let mut r = Reader {
        g,
        src,
        view,
        test_macros: HashSet::new(),
        js_cases: HashSet::new(),
        js_aliases: HashMap::new(),
        js_if_skips: HashMap::new(),
        rust_called: HashSet::new(),
        rust_exits: Vec::new(),
        names: Names::of(src, root),
        py_main: false,
        py_helper_exits: Vec::new(),
        py_called: HashSet::new(),
        js_functions: HashMap::new(),
        rust_helper_exits: Vec::new(),
    };
    match g {
        Grammar::Python => {
            r.python_scope(root, "", 0);
            r.python_helper_exits();
            let held: HashSet<usize> = r
                .view
                .tests
                .iter()
                .flat_map(|t| &t.assertions)
                .map(|a| a.span.start)
                .collect();
            let loose = python_assertions(src, root)
                .into_iter()
                .filter(|a| !held.contains(&a.start_byte()));
            r.view.loose = loose.map(|a| r.assertion(a)).collect();
        }
        Grammar::Rust => {
            r.test_macros = test_macros(src, root);
            r.rust_exits = rust_exit_paths(src, root);
            r.rust_items(root, "", 0);
            let called = &r.rust_called;
            r.view.exits += r
                .rust_helper_exits
                .iter()
                .filter(|(name, _)| called.contains(name))
                .map(|(_, exits)| exits)
                .sum::<usize>();
            r.view.helpers.retain(|h| called.contains(h.name.as_str()));
            r.rust_macros(root);
            r.view.marks = super::marks::rust(src, root);
            let swallowed = rust_swallowed(src, root, |n| r.rust_check(n));
            r.view.swallowed = swallowed;
        }
        Grammar::Go => {
            r.go(root);
            r.view.marks = super::marks::go(src, root);
        }
        _ => {
            for f in preorder(root).filter(|n| n.kind() == "function_declaration") {
                if let Some(name) = f.child_by_field_name("name") {
                    r.js_functions.entry(&src[name.byte_range()]).or_insert(f);
                }
            }
            r.js(root, &mut Vec::new(), &mut Vec::new(), 0);
            r.view.node_test = node_test(src, root);
            let held: HashSet<usize> = r
                .view
                .tests
                .iter()
                .flat_map(|t| &t.assertions)
                .map(|a| a.span.start)
                .collect();
            let loose = js_assertions(src, root)
                .into_iter()
                .filter(|a| !held.contains(&a.start_byte()));
            r.view.loose = loose.map(|a| r.assertion(a)).collect();
        }
    }
    r.view.uses = super::uses::read(g, src, root, &r.view.marks.generated);
    if g == Grammar::Python || g.is_js() || g == Grammar::Rust || g == Grammar::Go {
        (
            r.view.helper_checks,
            r.view.helper_loose,
            r.view.helpers_counted,
            r.view.helper_held,
        ) = super::checkers::weigh(g, src, root, &r.view);
    }
    r.view.bindings = super::bound::read(g, src, root);
    r.view.bars = super::bars::read(g, src, root, &r.names);
    if g.is_js() {
        let tries: Vec<Node<'_>> = preorder(root)
            .filter(|n| n.kind() == "try_statement")
            .collect();
        let js = (!tries.is_empty()).then(|| (Handers::of(src, root), JsChecks::of(src, root)));
        r.view.swallowed = tries.into_iter().map(|t| swallowed(t, js.as_ref())).sum();
    }
    if g == Grammar::Python {
        // The bodies of `try`s and `with suppress(…)`s that swallow a failure,
        // merged: a nest of them counts each assertion once, and is read once
        // (each counting its whole body was quadratic).
        let tries = preorder(root)
            .filter(|n| n.kind() == "try_statement")
            .filter(|t| python_swallows(src, *t));
        let withs = preorder(root)
            .filter(|n| n.kind() == "with_statement")
            .filter(|w| python_suppresses_failure(src, &r.names, *w));
        let bodies: Vec<std::ops::Range<usize>> = tries
            .chain(withs)
            .filter_map(|n| n.child_by_field_name("body"))
            .map(|body| body.byte_range())
            .collect();
        if !bodies.is_empty() {
            let bodies = super::Spans::new(bodies);
            r.view.swallowed += python_assertions(src, root)
                .iter()
                .filter(|a| bodies.holds(a.start_byte()))
                .count();
        }
    }
    r.view
}

/// How many Rust assertions run only when a call works, its error let pass:
/// in the other arms of a `match` with an arm for any error (`Err(_)`,
/// `Err(..)`, `_` beside an `Ok(…)` arm, `None` or `_` in a match of
/// `….ok()`) that does nothing (`()`, `{}`).
/// The `try` that swallows, in Rust's words; each assertion counted once.
/// Not `if let Ok(…)` with no `else`: an honest new test reads an optional
/// setting so (`if let Ok(dir) = env::var(…)`), and the count cannot tell it
/// from an `.expect(…)` it replaced. Nor an arm for one error (`Err(Empty)`):
/// a poll's "not yet".
fn rust_swallowed(src: &str, root: Node<'_>, check: impl Fn(Node<'_>) -> bool) -> usize {
    let pattern = |arm: Node<'_>| {
        arm.child_by_field_name("pattern")
            .map_or(String::new(), |p| squeezed(&src[p.byte_range()]))
    };
    let empty = |arm: Node<'_>| {
        arm.child_by_field_name("value")
            .is_some_and(|v| matches!(squeezed(&src[v.byte_range()]).as_str(), "()" | "{}"))
    };
    // `_` ignores the error only in a match of a `Result`; elsewhere it is the
    // variants a test does not ask about. A `Result` made an `Option`
    // (`match r.ok()`) has its error in `None`.
    let ignores = |arm: Node<'_>, of_result: bool, of_ok: bool| {
        let p = pattern(arm);
        empty(arm)
            && (matches!(p.as_str(), "Err(_)" | "Err(..)")
                || (p == "_" && (of_result || of_ok))
                || (p == "None" && of_ok))
    };
    let mut guarded: Vec<std::ops::Range<usize>> = Vec::new();
    for node in preorder(root).filter(|n| n.kind() == "match_expression") {
        let Some(block) = node.child_by_field_name("body") else {
            continue;
        };
        let arms: Vec<Node<'_>> = kids(block)
            .into_iter()
            .filter(|k| k.kind() == "match_arm")
            .collect();
        let of_result = arms.iter().any(|a| pattern(*a).starts_with("Ok("));
        let of_ok = node
            .child_by_field_name("value")
            .is_some_and(|v| squeezed(&src[v.byte_range()]).ends_with(".ok()"));
        if arms.iter().any(|a| ignores(*a, of_result, of_ok)) {
            let kept = arms.iter().filter(|a| !ignores(**a, of_result, of_ok));
            guarded.extend(kept.map(|a| a.byte_range()));
        }
    }
    if guarded.is_empty() {
        return 0;
    }
    let spans = super::Spans::new(guarded);
    preorder(root)
        .filter(|n| check(*n) && spans.holds(n.start_byte()))
        .count()
}

/// Whether a `with` suppresses a check's failure: `contextlib.suppress(…)` of
/// `AssertionError`, `Exception` or `BaseException`, a `try` whose handler
/// passes, written shorter.
fn python_suppresses_failure<'t>(src: &str, names: &Names<'_, 't>, with: Node<'t>) -> bool {
    let Some(clause) = kids(with).into_iter().find(|k| k.kind() == "with_clause") else {
        return false;
    };
    // Through the file's names: `with quiet:` of `quiet = suppress(…)`, `s(…)`
    // of `from contextlib import suppress as s`.
    preorder(clause)
        .map(|n| names.value(n))
        .filter(|n| n.kind() == "call")
        .filter(|call| {
            call.child_by_field_name("function")
                .is_some_and(|f| names.path(f).ends_with("suppress"))
        })
        .filter_map(|call| call.child_by_field_name("arguments"))
        .any(|args| {
            src[args.byte_range()]
                .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                .any(|w| matches!(w, "AssertionError" | "Exception" | "BaseException"))
        })
}

/// Whether a Python `try` swallows a failure of what it runs: its first
/// handler catches `AssertionError` (bare, `Exception`, `BaseException`) and
/// neither raises nor checks.
fn python_swallows(src: &str, t: Node<'_>) -> bool {
    let Some(body) = t.child_by_field_name("body") else {
        return false;
    };
    let mut cursor = t.walk();
    let first = t
        .named_children(&mut cursor)
        .find(|c| c.id() != body.id() && c.kind() != "comment");
    let Some(handler) = first.filter(|c| c.kind() == "except_clause") else {
        return false;
    };
    let mut cursor = handler.walk();
    let block = handler
        .named_children(&mut cursor)
        .find(|c| c.kind() == "block");
    let caught = &src[handler.start_byte()..block.map_or(handler.end_byte(), |b| b.start_byte())];
    let words: Vec<&str> = caught
        .split(|c: char| !(c.is_alphanumeric() || c == '_'))
        .filter(|w| !w.is_empty() && *w != "except")
        .collect();
    let catches = words.is_empty()
        || words
            .iter()
            .any(|w| matches!(*w, "Exception" | "BaseException" | "AssertionError"));
    let rechecks = block.is_some_and(|b| {
        preorder(b).any(|n| n.kind() == "raise_statement") || !python_assertions(src, b).is_empty()
    });
    catches && !rechecks
}

/// How many checks the JavaScript `try` statement `t` swallows
/// ([`View::swallowed`]); `js`, the file's bindings of the names a `catch` hands
/// the error on through, and its checks.
fn swallowed(t: Node<'_>, js: Option<&(Handers<'_, '_>, JsChecks)>) -> usize {
    let Some(body) = t.child_by_field_name("body") else {
        return 0;
    };
    let Some(handler) = t
        .child_by_field_name("handler")
        .and_then(|h| h.child_by_field_name("body"))
    else {
        return 0;
    };
    let Some((handers, checks)) = js else {
        return 0;
    };
    let checks = |n: Node<'_>| checks.within(n);
    // Handing the error to mocha's `done(e)` or a promise's `reject(e)` fails
    // the test as a throw does.
    match handers.hands_on(handler, &checks) {
        true => 0,
        false => checks(body),
    }
}

/// JavaScript's checks as a swallowing `catch` sees them: assertions rooted at
/// `expect` or `assert`, and waits for a condition (`waitFor(…)`, `vi.waitFor(…)`,
/// `untilReady(…)`), which fail when it never comes. Found once in the file, by
/// where each starts: each `try` and `catch` body counts its own by two binary
/// searches, where reading each body again is quadratic in a nest of them. A
/// block's checks are the file's inside it: a chain of calls does not reach into
/// a block from outside it.
struct JsChecks(Vec<usize>);

impl JsChecks {
    fn of(src: &str, root: Node<'_>) -> JsChecks {
        let asserts = js_assertions(src, root)
            .into_iter()
            .filter(|c| !js_wait(src, *c))
            .filter(|c| callee_root(src, *c).is_some_and(|r| matches!(r, "expect" | "assert")))
            .map(|c| c.start_byte());
        let waits = preorder(root)
            .filter(|n| n.kind() == "call_expression")
            .filter(|n| {
                let Some(f) = n.child_by_field_name("function") else {
                    return false;
                };
                let name = match f.kind() {
                    "member_expression" => f.child_by_field_name("property"),
                    _ => Some(f),
                };
                name.is_some_and(|n| {
                    let t = &src[n.byte_range()];
                    t.starts_with("until") || t.starts_with("waitFor")
                })
            })
            .map(|n| n.start_byte());
        let mut all: Vec<usize> = asserts.chain(waits).collect();
        all.sort_unstable();
        JsChecks(all)
    }

    /// How many of the checks start inside `node`.
    fn within(&self, node: Node<'_>) -> usize {
        let r = node.byte_range();
        self.0.partition_point(|&at| at < r.end) - self.0.partition_point(|&at| at < r.start)
    }
}

/// Every node under `node`, itself first, in source order; no recursion, so no
/// depth of nesting can exhaust the stack, and nothing held but the cursor.
pub fn preorder(node: Node<'_>) -> Preorder<'_> {
    pruned(node, |_| false)
}

/// [`preorder`], not entering the nodes below `node` whose kind `prune` holds
/// (they are given, their insides are not): what belongs to `node` and not to a
/// function nested in it, in one walk (a walk up from each node asks
/// tree-sitter for parents, each found from the root).
pub fn pruned<'t>(node: Node<'t>, prune: fn(&str) -> bool) -> Preorder<'t> {
    Preorder {
        cursor: node.walk(),
        done: false,
        prune,
        started: false,
    }
}

#[derive(Clone)]
pub struct Preorder<'t> {
    cursor: tree_sitter::TreeCursor<'t>,
    done: bool,
    prune: fn(&str) -> bool,
    started: bool,
}

impl<'t> Iterator for Preorder<'t> {
    type Item = Node<'t>;

    fn next(&mut self) -> Option<Node<'t>> {
        if self.done {
            return None;
        }
        let node = self.cursor.node();
        let enter = !self.started || !(self.prune)(node.kind());
        self.started = true;
        if !(enter && self.cursor.goto_first_child()) {
            while !self.cursor.goto_next_sibling() {
                if !self.cursor.goto_parent() {
                    self.done = true;
                    break;
                }
            }
        }
        Some(node)
    }
}

fn is_string(g: Grammar, node: Node<'_>) -> bool {
    match g {
        Grammar::Python => node.kind() == "string",
        Grammar::Rust => matches!(node.kind(), "string_literal" | "raw_string_literal"),
        Grammar::Go => matches!(
            node.kind(),
            "interpreted_string_literal" | "raw_string_literal"
        ),
        _ => matches!(node.kind(), "string" | "template_string"),
    }
}

/// The property names along a callee chain: `skip`, `each` of `it.skip.each(t)`.
fn callee_words<'s>(src: &'s str, call: Node<'_>) -> Vec<&'s str> {
    let mut words = Vec::new();
    let mut node = call;
    for _ in 0..64 {
        match node.kind() {
            "call_expression" => match node.child_by_field_name("function") {
                Some(f) => node = f,
                None => break,
            },
            "member_expression" => {
                if let Some(p) = node.child_by_field_name("property") {
                    words.push(&src[p.byte_range()]);
                }
                match node.child_by_field_name("object") {
                    Some(o) => node = o,
                    None => break,
                }
            }
            _ => break,
        }
    }
    words
}

struct Reader<'s, 'r> {
    g: Grammar,
    src: &'s str,
    view: View,
    /// Rust: the `macro_rules!` of the file whose expansion is a test named by
    /// the caller (`#[test] fn $name()`): each item-level call of one is a test.
    test_macros: HashSet<&'s str>,
    /// JavaScript: names bound to a test function that skips under a condition
    /// (`const testOnPosix = isWindows() ? test.skip : test`): each call of one
    /// is a test case.
    js_cases: HashSet<&'s str>,
    /// `const t = c ? test.skip : test`: each name with its condition.
    js_aliases: HashMap<&'s str, String>,
    /// `if (c) it.skip(…)`: the call the one statement of a plain `if`, with
    /// `c`, the condition it is skipped under.
    js_if_skips: HashMap<usize, String>,
    /// Rust: the functions the file's tests call by name.
    rust_called: HashSet<&'s str>,
    /// Rust: the paths that call the process's exit here ([`rust_exit_paths`]).
    rust_exits: Vec<String>,
    /// Python: what the file binds its names to.
    names: Names<'s, 'r>,
    /// Python: inside `if __name__ == "__main__":`, which no test run reaches.
    py_main: bool,
    /// Python: the exits of each function that is not a test, by name, and the
    /// names the tests and the runner's hooks call: a helper's exits count where
    /// it is called ([`Reader::python_helper_exits`]).
    py_helper_exits: Vec<(&'s str, usize)>,
    py_called: HashSet<&'s str>,
    /// Rust: the exits of each function that is not a test, by name: counted
    /// where a test calls it.
    rust_helper_exits: Vec<(&'s str, usize)>,
    /// JavaScript: the file's function declarations by name.
    js_functions: HashMap<&'s str, Node<'r>>,
}

impl<'s, 'r> Reader<'s, 'r> {
    fn text(&self, node: Node<'_>) -> &'s str {
        &self.src[node.byte_range()]
    }

    fn normal(&self, node: Node<'_>) -> String {
        normal::of(self.g, self.src, node).unwrap_or_default()
    }

    fn test(&self, name: &str, scope: &str, node: Node<'_>, assertions: Vec<Node<'_>>) -> Test {
        let repeats = assertions.iter().filter(|a| self.repeated(**a)).count();
        // The assertions' starts, sorted once for the loops and the branches
        // that hold them.
        let mut starts: Vec<usize> = assertions.iter().map(|a| a.start_byte()).collect();
        starts.sort_unstable();
        let loops = self.check_loops(node, &starts);
        Test {
            repeats,
            name: name.to_string(),
            scope: scope.to_string(),
            body: self.normal(node),
            span: node.byte_range(),
            assertions: self.guarded(node, assertions, &starts),
            shadowed: Vec::new(),
            gates: Vec::new(),
            gated: Vec::new(),
            ungated: Vec::new(),
            returns_early: false,
            yields: false,
            loops,
        }
    }

    /// The headers of the loops inside the test at `node` whose body holds one
    /// of its assertions (their sorted `starts`), each whitespace run one
    /// space, in source order ([`Test::loops`]): each body is searched in the
    /// starts, loops times the log of the checks, not their product.
    fn check_loops(&self, node: Node<'_>, starts: &[usize]) -> Vec<String> {
        const LOOPS: [&str; 6] = [
            "for_statement",
            "for_in_statement",
            "for_expression",
            "while_statement",
            "while_expression",
            "loop_expression",
        ];
        let mut out = Vec::new();
        for n in preorder(node).filter(|n| LOOPS.contains(&n.kind())) {
            let Some(body) = n.child_by_field_name("body") else {
                continue;
            };
            let range = body.byte_range();
            let first = starts.partition_point(|&s| s < range.start);
            if starts.get(first).is_none_or(|&s| s >= range.end) {
                continue;
            }
            let header = self.src.get(n.start_byte()..range.start).unwrap_or("");
            out.push(header.split_whitespace().collect::<Vec<_>>().join(" "));
            if out.len() == super::MAX_LOOPS {
                break;
            }
        }
        out
    }

    fn assertion(&self, a: Node<'_>) -> Assertion {
        Assertion {
            span: a.byte_range(),
            text: self.text(a).to_string(),
            normal: self.normal(a),
            guards: Vec::new(),
        }
    }

    /// The `assertions` of the test at `node`, each with the conditions of the
    /// `if`s inside the test it runs under ([`Assertion::guards`]). The
    /// branches nest and come in source order, as do the assertions: one sweep
    /// with a stack of the branches open, not a search per assertion.
    fn guarded(
        &self,
        node: Node<'_>,
        assertions: Vec<Node<'_>>,
        starts: &[usize],
    ) -> Vec<Assertion> {
        use std::hash::{Hash, Hasher};
        use std::sync::Arc;
        // Whether some assertion starts in a range: a branch of `&&` or a
        // `case` holding none is not read (review 122: a chain of `x && x && …`
        // read each link's left side, its square in time and memory).
        let holds = |r: &std::ops::Range<usize>| {
            let k = starts.partition_point(|&s| s < r.start);
            starts.get(k).is_some_and(|&s| s < r.end)
        };
        let hash = |normal: &str| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            normal.hash(&mut h);
            h.finish()
        };
        let guard = |normal: String, text: String, of: u64, negated: bool| {
            Arc::new(super::Guard {
                key: hash(&normal),
                text,
                normal,
                of,
                negated,
            })
        };
        let mut branches: Vec<(std::ops::Range<usize>, Arc<super::Guard>)> = Vec::new();
        for n in preorder(node) {
            // `cond && expect(…)`, `cond || expect(…)` and a `switch`'s cases
            // are conditions as an `if` is (JavaScript).
            if let Some(found) = self
                .short_circuit(n, &holds)
                .or_else(|| self.switch_cases(n, &holds))
            {
                for (range, normal, text, negated) in found {
                    let of = hash(&normal);
                    let (normal, text) = match negated {
                        true => (format!("not ({normal})"), format!("!{text}")),
                        false => (normal, text),
                    };
                    branches.push((range, guard(normal, text, of, negated)));
                }
                continue;
            }
            // Python's `elif` runs under its own condition too, inside the
            // `else` of the `if` before it.
            if !matches!(
                n.kind(),
                "if_statement" | "ternary_expression" | "elif_clause"
            ) {
                continue;
            }
            let Some(condition) = n.child_by_field_name("condition") else {
                continue;
            };
            let (normal, text) = (self.normal(condition), self.text(condition));
            let of = hash(&normal);
            let negated = guard(format!("not ({normal})"), format!("!{text}"), of, true);
            if let Some(then) = n.child_by_field_name("consequence") {
                branches.push((
                    then.byte_range(),
                    guard(normal, text.to_string(), of, false),
                ));
            }
            let mut walk = n.walk();
            for other in n.children_by_field_name("alternative", &mut walk) {
                branches.push((other.byte_range(), negated.clone()));
            }
        }
        branches.sort_by_key(|(r, _)| (r.start, std::cmp::Reverse(r.end)));
        let mut out: Vec<Assertion> = assertions.into_iter().map(|a| self.assertion(a)).collect();
        if branches.is_empty() {
            return out;
        }
        let mut order: Vec<usize> = (0..out.len()).collect();
        order.sort_by_key(|&k| out[k].span.start);
        let mut open: Vec<usize> = Vec::new();
        let mut next = 0;
        for k in order {
            let a = &mut out[k];
            let at = a.span.start;
            while next < branches.len() && branches[next].0.start <= at {
                while open
                    .last()
                    .is_some_and(|&k| branches[k].0.end <= branches[next].0.start)
                {
                    open.pop();
                }
                open.push(next);
                next += 1;
            }
            while open.last().is_some_and(|&k| branches[k].0.end <= at) {
                open.pop();
            }
            // The branches open nest, each inside the one below it: all hold
            // `at` once those ended are off the top.
            a.guards = open
                .iter()
                .take(super::MAX_GUARDS)
                .map(|&k| branches[k].1.clone())
                .collect();
        }
        out
    }

    /// JavaScript's `cond && check` (`||`: run when it does not hold): the
    /// right side's bytes with the left side as its condition, in normal form
    /// and in words, and whether negated.
    fn short_circuit(
        &self,
        n: Node<'_>,
        holds: &dyn Fn(&std::ops::Range<usize>) -> bool,
    ) -> Option<Vec<Branch>> {
        if !self.g.is_js() || n.kind() != "binary_expression" {
            return None;
        }
        let op = n.child_by_field_name("operator")?;
        // `??` runs its right side where the left is null or undefined: a
        // condition as `||`'s is, for the skip reading (review 122).
        let negated = match self.text(op) {
            "&&" => false,
            "||" | "??" => true,
            _ => return None,
        };
        let (left, right) = (
            n.child_by_field_name("left")?,
            n.child_by_field_name("right")?,
        );
        if !holds(&right.byte_range()) {
            return Some(Vec::new());
        }
        Some(vec![(
            right.byte_range(),
            self.normal(left),
            self.text(left).to_string(),
            negated,
        )])
    }

    /// A JavaScript `switch`'s cases, each its statements' bytes with the
    /// condition it runs under (`value === case`), in normal form and in
    /// words; `default` runs under none of its siblings': read as no case of
    /// its own (not narrowed), which says nothing rather than too much.
    fn switch_cases(
        &self,
        n: Node<'_>,
        holds: &dyn Fn(&std::ops::Range<usize>) -> bool,
    ) -> Option<Vec<Branch>> {
        if !self.g.is_js() || n.kind() != "switch_statement" {
            return None;
        }
        let value = n.child_by_field_name("value")?;
        let value = if value.kind() == "parenthesized_expression" {
            value.named_child(0)?
        } else {
            value
        };
        let body = n.child_by_field_name("body")?;
        let mut out = Vec::new();
        let mut walk = body.walk();
        for case in body.named_children(&mut walk) {
            if case.kind() != "switch_case" {
                continue;
            }
            let Some(label) = case.child_by_field_name("value") else {
                continue;
            };
            if !holds(&(label.end_byte()..case.end_byte())) {
                continue;
            }
            let normal = format!(
                " (binary_expression{} ==={})",
                self.normal(value),
                self.normal(label)
            );
            let text = format!("{} === {}", self.text(value), self.text(label));
            let from = label.end_byte();
            out.push((from..case.end_byte(), normal, text, false));
        }
        Some(out)
    }

    /// Whether the statement of `assertion` is the same as the statement right
    /// before it, comments aside: `assert.Equal(t, a, b)` twice in a row.
    fn repeated(&self, assertion: Node<'_>) -> bool {
        let mut statement = assertion;
        for _ in 0..3 {
            match statement.parent() {
                Some(p) if matches!(p.kind(), "expression_statement" | "await_expression") => {
                    statement = p;
                }
                _ => break,
            }
        }
        let mut before = statement.prev_named_sibling();
        while let Some(b) = before.filter(|b| b.kind().contains("comment")) {
            before = b.prev_named_sibling();
        }
        before.is_some_and(|b| {
            b.kind() == statement.kind() && self.normal(b) == self.normal(statement)
        })
    }

    /// `if cond { return }` (nothing else in it, no `else`) among the statements
    /// of a test's `body`: the test stops there whenever `cond` holds, a skip by
    /// another name.
    fn guard_returns(&mut self, body: Node<'_>, test: &str) {
        // Go's grammar puts a block's statements in a list of their own.
        let body = match body.named_child(0) {
            Some(list) if list.kind() == "statement_list" => list,
            _ => body,
        };
        let mut cursor = body.walk();
        let statements: Vec<Node<'_>> = body.named_children(&mut cursor).collect();
        for statement in statements {
            let node = match statement.kind() {
                "expression_statement" => match statement.named_child(0) {
                    Some(n) => n,
                    None => continue,
                },
                _ => statement,
            };
            if !matches!(node.kind(), "if_statement" | "if_expression")
                || node.child_by_field_name("alternative").is_some()
            {
                continue;
            }
            let (Some(condition), Some(then)) = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("consequence"),
            ) else {
                continue;
            };
            if bare_return(then) {
                self.guard_return(node, test, condition);
            }
        }
        // Asking a node for its parent walks from the root: the top's are known.
        let top = self.view.skips.len();
        for node in preorder(body) {
            let nested = node.kind() == "if_statement" || node.kind() == "if_expression";
            if !nested {
                continue;
            }
            if let (Some(condition), Some(then), None) = (
                node.child_by_field_name("condition"),
                node.child_by_field_name("consequence"),
                node.child_by_field_name("alternative"),
            ) && bare_return(then)
                && !self.view.skips[..top]
                    .iter()
                    .any(|s| s.span == node.byte_range())
            {
                self.guard_return(node, test, condition);
                if let Some(last) = self.view.skips.last_mut() {
                    last.nested = true;
                }
            }
        }
    }

    /// `if condition: return` in `test`'s body: a guard under its condition, but
    /// Python's `if True: return` stops the test on every run, a marker.
    fn guard_return(&mut self, node: Node<'_>, test: &str, condition: Node<'_>) {
        let always = constant(self.src, condition).is_some_and(|v| v != 0);
        match self.g == Grammar::Python && always {
            true => self.skip(node, Some(test), None),
            false => self.guard(node, Some(test), self.normal(condition)),
        }
    }

    /// The names `body` calls as functions (`stop()`, not `Process(target=stop)`).
    /// In a body that forks, or inside a function or lambda it defines, a
    /// call runs in a child or later: not the run's.
    fn python_calls<'t>(&mut self, body: Node<'t>) {
        let src = self.src;
        let callee = |c: Node<'t>| c.child_by_field_name("function");
        let calls: Vec<Node<'_>> = pruned(body, |k| {
            matches!(k, "function_definition" | "lambda" | "class_definition")
        })
        .filter(|n| n.kind() == "call")
        .collect();
        let forks = calls
            .iter()
            .filter_map(|c| callee(*c))
            .any(|f| PYTHON_FORKS.contains(&&src[f.byte_range()]));
        if forks {
            return;
        }
        let called = calls
            .into_iter()
            .filter_map(callee)
            .filter(|f| f.kind() == "identifier")
            .map(|f| &src[f.byte_range()]);
        self.py_called.extend(called);
    }

    /// A helper's exits, where a test or a hook of the runner calls it by name.
    fn python_helper_exits(&mut self) {
        let called = &self.py_called;
        let helpers = std::mem::take(&mut self.py_helper_exits);
        self.view.exits += helpers
            .iter()
            .filter(|(name, _)| called.contains(name))
            .map(|(_, exits)| exits)
            .sum::<usize>();
    }

    fn python_scope(&mut self, block: Node<'_>, scope: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut defined: HashMap<String, Vec<(Node<'_>, usize)>> = HashMap::new();
        let mut cursor = block.walk();
        for item in block.named_children(&mut cursor) {
            let (def, decorators) = match item.kind() {
                "decorated_definition" => match item.child_by_field_name("definition") {
                    Some(d) => (d, Some(item)),
                    None => continue,
                },
                "function_definition" | "class_definition" => (item, None),
                // What a module's `if`, `try` or `with` defines is the module's
                // wherever it runs (`if sys.platform == "win32":` around tests).
                "if_statement" | "try_statement" | "with_statement" => {
                    let mut cursor = item.walk();
                    let clauses: Vec<Node<'_>> = item.named_children(&mut cursor).collect();
                    let mut blocks = clauses.clone();
                    for clause in clauses.iter().filter(|c| c.kind().ends_with("_clause")) {
                        let mut cursor = clause.walk();
                        blocks.extend(clause.named_children(&mut cursor));
                    }
                    // The `__main__` block no test run reaches; its `else` runs
                    // at import.
                    let guarded = (item.kind() == "if_statement"
                        && item
                            .child_by_field_name("condition")
                            .is_some_and(|c| python_main_guard(self.text(c))))
                    .then(|| item.child_by_field_name("consequence"))
                    .flatten()
                    .map(|c| c.id());
                    for block in blocks.into_iter().filter(|b| b.kind() == "block") {
                        let main = self.py_main;
                        self.py_main |= Some(block.id()) == guarded;
                        self.python_scope(block, scope, depth + 1);
                        self.py_main = main;
                    }
                    continue;
                }
                _ => {
                    // A module's or a class's own statements run when pytest
                    // imports the file, under an `if` or a `try` as well.
                    // Below the top, only an exit that passes: a script under
                    // `tests/` may well `sys.exit(1)` on its own errors.
                    if !self.py_main
                        && python_exit(self.src, item)
                        && (depth == 0 || python_exit_passes(self.src, item))
                    {
                        self.view.exits += 1;
                    }
                    // A marker among a module's own statements (`pytestmark =
                    // …`, `pytest.importorskip(…)`, `__test__ = False`) is the
                    // whole file's; among a class's, the class's, as its
                    // decorator's is (helper 73: a new base class kept out of
                    // collection, its tests run by a subclass).
                    let owner = scope.rsplit("::").next().filter(|s| !s.is_empty());
                    let bound = self.python_mark_binding(item);
                    for (marker, _) in self.python_markers(item) {
                        // A mark bound to a name skips what it decorates, not here.
                        if !(bound && self.python_mark(marker)) {
                            self.skip(marker, owner, None);
                        }
                    }
                    for marker in self.python_module_marks(item) {
                        self.skip(marker, owner, None);
                    }
                    // A test defined above taken out of collection by name.
                    for test in python_uncollected(self.src, &self.names, item)
                        .into_iter()
                        .filter(|t| t.starts_with("test") && defined.contains_key(*t))
                    {
                        self.skip(item, Some(test), None);
                    }
                    continue;
                }
            };
            let Some(name) = def.child_by_field_name("name").map(|n| self.text(n)) else {
                continue;
            };
            let whole = decorators.unwrap_or(def);
            // A decorator's marker is on what it decorates, a class's on the class.
            let mut cursor = item.walk();
            let marks: Vec<_> = match decorators {
                Some(d) => d
                    .named_children(&mut cursor)
                    .filter(|d| d.kind() == "decorator")
                    .flat_map(|d| match self.python_markers(d) {
                        m if m.is_empty() => self.python_bound_marks(d),
                        m => m,
                    })
                    .collect(),
                None => Vec::new(),
            };
            for (marker, condition) in marks {
                self.skip(marker, Some(name), condition);
            }
            let body = def.child_by_field_name("body").unwrap_or(def);
            let mut asserted = 0;
            if def.kind() == "class_definition" {
                let inner = match scope {
                    "" => name.to_string(),
                    _ => format!("{scope}::{name}"),
                };
                // pytest collects no test of a plain `Test*` class with an
                // `__init__` (it warns, and exits 0).
                if name.starts_with("Test") && python_plain_with_init(self.src, def) {
                    self.skip(def, Some(name), None);
                }
                self.python_scope(body, &inner, depth + 1);
            } else if name.starts_with("test") {
                let found = python_assertions(self.src, body);
                asserted = found.len();
                self.view.exits += python_test_exits(self.src, &self.names, body);
                self.python_calls(body);
                // A marker in its body stops it, under the `if` around it.
                for (marker, condition) in self.python_markers(body) {
                    let condition =
                        condition.or_else(|| enclosing_if(marker, body).map(|c| self.normal(c)));
                    self.skip(marker, Some(name), condition);
                }
                self.guard_returns(body, name);
                let mut test = self.test(name, scope, whole, found);
                test.returns_early = returns_early(body, &test.assertions);
                test.yields = yields(body);
                self.view.tests.push(test);
            } else {
                asserted = python_assertions(self.src, def).len();
                let exits = python_test_exits(self.src, &self.names, body);
                let fixture = decorators.is_some_and(|d| {
                    let mut cursor = d.walk();
                    d.named_children(&mut cursor)
                        .filter(|c| c.kind() == "decorator")
                        .any(|c| python_fixture(self.text(c)))
                });
                if fixture || PYTHON_HOOKS.contains(&name) || name.starts_with("pytest_") {
                    self.view.exits += exits;
                    self.python_calls(body);
                } else if !self.py_main {
                    self.py_helper_exits.push((name, exits));
                }
                // A helper's or a fixture's marker (`pytest.skip()` when a server
                // is missing) stops whichever tests use it: the file's.
                for (marker, _) in self.python_markers(body) {
                    self.skip(marker, None, None);
                }
            }
            defined
                .entry(name.to_string())
                .or_default()
                .push((whole, asserted));
        }
        let mut twice: Vec<_> = defined.into_iter().filter(|(_, d)| d.len() > 1).collect();
        twice.sort_by_key(|(_, d)| d[0].0.start_byte());
        for (name, defs) in twice {
            let (_, last_assertions) = defs[defs.len() - 1];
            for (_, first_assertions) in &defs[..defs.len() - 1] {
                self.view.redefinitions.push(Redefinition {
                    name: name.clone(),
                    scope: scope.to_string(),
                    first_assertions: *first_assertions,
                    last_assertions,
                });
            }
        }
    }

    /// The skip, expected-failure and rerun markers in `node`, as pytest and
    /// unittest spell them, each with its condition (`skipif(c)`, `skipIf(c)`,
    /// `skipUnless(c)`): `mark.skip`, `mark.skipif`, `mark.xfail` and
    /// `mark.flaky` under any name for pytest (`pt.mark`, `from pytest import
    /// mark`), `pytest.skip`, `pytest.xfail`, `pytest.importorskip`,
    /// `unittest.skip…` and `expectedFailure`, a decorator of one of unittest's
    /// or flaky's names (`@skip(…)`, `@flaky`), a `….skipTest(…)` call, and
    /// `__test__ = False`, which pytest reads as "no tests here".
    fn python_markers<'t>(&self, node: Node<'t>) -> Vec<(Node<'t>, Option<String>)> {
        let mut out = Vec::new();
        for n in preorder(node) {
            let field = |n: Node<'t>, f| n.child_by_field_name(f).map_or("", |c| self.text(c));
            let marker = match n.kind() {
                "attribute" => {
                    // The name right before the dot: `mark` of `pytest.mark.skip`.
                    let receiver = n
                        .child_by_field_name("object")
                        .map_or("", |o| match o.kind() {
                            "attribute" => field(o, "attribute"),
                            _ => self.text(o),
                        });
                    match (receiver, field(n, "attribute")) {
                        ("mark", "skip" | "skipif" | "xfail" | "flaky")
                        | ("pytest", "skip" | "xfail" | "importorskip")
                        | ("unittest", "skip" | "skipIf" | "skipUnless" | "expectedFailure")
                        | (_, "skipTest") => n,
                        _ => continue,
                    }
                }
                "decorator" => {
                    let Some(head) = n.named_child(0).map(|e| match e.kind() {
                        "call" => e.child_by_field_name("function").unwrap_or(e),
                        _ => e,
                    }) else {
                        continue;
                    };
                    let named = ["skip", "skipIf", "skipUnless", "expectedFailure", "flaky"];
                    match head.kind() == "identifier" && named.contains(&self.text(head)) {
                        true => head,
                        false => continue,
                    }
                }
                "assignment"
                    if field(n, "left") == "__test__"
                        && n.child_by_field_name("right")
                            .is_some_and(|r| falsy(self.src, r)) =>
                {
                    n
                }
                _ => continue,
            };
            let word = match marker.kind() {
                "attribute" => field(marker, "attribute"),
                _ => self.text(marker),
            };
            let call = marker.parent().filter(|p| {
                p.kind() == "call"
                    && p.child_by_field_name("function").map(|f| f.id()) == Some(marker.id())
            });
            let condition = call
                .filter(|_| matches!(word, "skipif" | "skipIf" | "skipUnless"))
                .and_then(|c| c.child_by_field_name("arguments")?.named_child(0))
                .filter(|first| first.kind() != "keyword_argument")
                .map(|first| skipped_when(word, self.normal(first)));
            out.push((marker, condition));
        }
        out
    }

    /// Whether `item` binds a name other than `pytestmark` (`slow =
    /// pytest.mark.skip`).
    /// `pytestmark = slow` or `pytestmark = [slow, other]`: each name's mark.
    fn python_module_marks(&self, item: Node<'r>) -> Vec<Node<'r>> {
        let assignment = item
            .named_child(0)
            .filter(|a| matches!(a.kind(), "assignment" | "augmented_assignment"));
        let Some(right) = assignment
            .filter(|a| a.child_by_field_name("left").map(|l| self.text(l)) == Some("pytestmark"))
            .and_then(|a| a.child_by_field_name("right"))
        else {
            return Vec::new();
        };
        preorder(right)
            .filter(|n| n.kind() == "identifier")
            .map(|n| self.names.value(n))
            .filter(|v| v.kind() != "identifier")
            .flat_map(|v| self.python_markers(v))
            .map(|(m, _)| m)
            .filter(|m| self.python_mark(*m))
            .collect()
    }

    /// Whether `item` binds a mark to a name (`slow = pytest.mark.skip`): the
    /// mark is then on what `@slow` decorates. Not `pytestmark`, nor a test's
    /// own name (`test_a = pytest.mark.skip(test_a)` marks the test there).
    fn python_mark_binding(&self, item: Node<'_>) -> bool {
        let left = item
            .named_child(0)
            .filter(|a| a.kind() == "assignment")
            .and_then(|a| a.child_by_field_name("left"));
        left.is_some_and(|l| {
            let name = self.text(l);
            l.kind() == "identifier"
                && !matches!(name, "pytestmark" | "__test__")
                && !name.to_ascii_lowercase().starts_with("test")
        })
    }

    /// Whether a marker only marks what it decorates (`pytest.mark.skip`,
    /// `unittest.skip(…)`), where `pytest.skip(…)` skips where it is called.
    fn python_mark(&self, marker: Node<'_>) -> bool {
        let text = self.text(marker);
        text.contains("mark.") || text.starts_with("unittest.")
    }

    /// The marks of a decorator that names a mark bound in the file
    /// (`@need_env`, `need_env = pytest.mark.skipif(…)`).
    fn python_bound_marks(&self, decorator: Node<'r>) -> Vec<(Node<'r>, Option<String>)> {
        let Some(head) = python_decorator_head(decorator) else {
            return Vec::new();
        };
        let value = self.names.value(head);
        match value.id() == head.id() {
            true => Vec::new(),
            false => self
                .python_markers(value)
                .into_iter()
                .filter(|(m, _)| self.python_mark(*m))
                .collect(),
        }
    }

    fn skip(&mut self, node: Node<'_>, test: Option<&str>, condition: Option<String>) {
        // Python's `xfail`, `flaky` and `expectedFailure` run the test (to fail,
        // or again), `importorskip` wherever the import works.
        let word = node.child_by_field_name("attribute").unwrap_or(node);
        let runs = self.g == Grammar::Python
            && matches!(
                self.text(word),
                "xfail" | "flaky" | "expectedFailure" | "importorskip"
            );
        self.view.skips.push(Skip {
            span: node.byte_range(),
            test: test.map(str::to_string),
            condition,
            nested: false,
            focus: false,
            guard: false,
            runs,
        });
    }

    /// A skip in a test's body under `condition` ([`Skip::guard`]).
    fn guard(&mut self, node: Node<'_>, test: Option<&str>, condition: String) {
        self.skip(node, test, Some(condition));
        if let Some(last) = self.view.skips.last_mut() {
            last.guard = true;
        }
    }

    /// `under`: the `if`s between the innermost function around `node` and it,
    /// outermost first, each condition with whether `node` is under its `else`.
    /// A test case under them exists only when they hold, as if a skip marker's
    /// condition were on it. Under an `else`, the condition is read as its
    /// negation (`true` the second): a word more than the `if` had, so a test
    /// moved into the `else` of its own guard (it now runs only where it did not)
    /// is a condition widened, and an `if` put inside its guard keeps the guard's
    /// words and adds its own. Kept on the way down: a node's parent is found
    /// from the root past every sibling before it, so asking each test for its
    /// ancestors was quadratic in a block of many tests.
    fn js<'t>(
        &mut self,
        node: Node<'t>,
        scope: &mut Vec<String>,
        under: &mut Vec<(Node<'t>, bool)>,
        depth: usize,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        // A function's body runs where it is called, not under the `if`s around it.
        let mut within = Vec::new();
        let under = match matches!(
            node.kind(),
            "arrow_function" | "function_expression" | "function_declaration"
        ) {
            true => &mut within,
            false => under,
        };
        let condition = (node.kind() == "if_statement")
            .then(|| node.child_by_field_name("condition"))
            .flatten();
        let alternative = node.child_by_field_name("alternative").map(|a| a.id());
        // A constant `c` in `if (c)` says nothing of where it holds; and with no
        // `else` that defines the test (its name again) where `c` fails, it runs
        // nowhere: a skip outright (helpers 100 and 101).
        let otherwise = node.child_by_field_name("alternative");
        let defined = |call: Node<'_>| {
            let name = call
                .child_by_field_name("arguments")
                .and_then(|a| a.named_child(0))
                .filter(|n| is_string(self.g, *n))
                .map(|n| &self.src[n.byte_range()]);
            name.zip(otherwise)
                .is_some_and(|(name, e)| self.src[e.byte_range()].contains(name))
        };
        if let Some(c) = condition.filter(|c| super::folded(self.src, *c).is_none())
            && let Some(then) = node.child_by_field_name("consequence")
        {
            let sole = match then.kind() {
                "statement_block" => super::kids(then),
                _ => vec![then],
            };
            if let [s] = sole[..]
                && s.kind() == "expression_statement"
                && let Some(call) = s.named_child(0)
                && defined(call)
            {
                self.js_if_skips.insert(call.id(), self.normal(c));
            }
        }
        if node.kind() == "statement_block" {
            self.js_guarded_cases(node);
        }
        let mut cursor = node.walk();
        let kids: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
        for child in kids {
            // The module's own `process.exit(0)` ends the file's run before its
            // tests, and `node --test` counts a file that exits 0 as one that passed.
            if node.kind() == "program"
                && child.kind() == "expression_statement"
                && child
                    .named_child(0)
                    .is_some_and(|c| js_exit(self.src, &self.names, c))
            {
                self.view.exits += 1;
            }
            if child.kind() == "ternary_expression"
                && let Some(condition) = self.js_skip_alias(child)
            {
                // Read before the calls that follow it: a declaration comes first.
                // Bound to a name, it guards the tests called through that name;
                // used where it stands, every test of the scope.
                let name = node
                    .child_by_field_name("name")
                    .filter(|_| node.kind() == "variable_declarator");
                match name {
                    Some(name) => {
                        self.js_cases.insert(self.text(name));
                        self.js_aliases.insert(self.text(name), condition);
                    }
                    None => self.guard(child, None, condition),
                }
            }
            if child.kind() != "call_expression" {
                // Entering an `if`'s branch: its condition is on what it holds.
                let pushed = condition.map(|c| under.push((c, alternative == Some(child.id()))));
                self.js(child, scope, under, depth + 1);
                if pushed.is_some() {
                    under.pop();
                }
                continue;
            }
            let root = callee_root(self.src, child).unwrap_or("");
            let words = callee_words(self.src, child);
            let suite = matches!(
                root,
                "describe" | "suite" | "context" | "xdescribe" | "fdescribe"
            );
            let case = matches!(root, "it" | "test" | "specify" | "xit" | "xtest" | "fit")
                || self.js_cases.contains(root);
            if !suite && !case {
                // A hook's exit ends the run as a test's does.
                if matches!(
                    root,
                    "beforeAll" | "beforeEach" | "afterAll" | "afterEach" | "before" | "after"
                ) {
                    self.view.exits += self.js_run_exits(child);
                }
                // `const test = base.skipIf(cond)`: every test called through it.
                if let Some(&word) = callee_words(self.src, child)
                    .first()
                    .filter(|w| matches!(**w, "skipIf" | "runIf"))
                    && let Some(args) = child.child_by_field_name("arguments")
                {
                    let condition = skipped_when(word, self.normal(args));
                    self.guard(child, None, condition);
                }
                self.js(child, scope, under, depth + 1);
                continue;
            }
            let args = child.child_by_field_name("arguments");
            let name = self.js_case_name(child);
            let skipped = self.js_empty_each(child)
                || root.starts_with('x')
                || root.starts_with('f')
                || words.iter().any(|w| {
                    matches!(
                        *w,
                        "skip" | "todo" | "only" | "skipIf" | "runIf" | "fails" | "failing"
                    )
                });
            if case && let Some(condition) = self.js_aliases.get(root).cloned() {
                self.guard(child, Some(&name), condition);
            }
            // A skip alone in its `if` is skipped under that `if`'s condition:
            // where it fails, the test is not there to run.
            let if_skip = skipped && self.js_if_skips.contains_key(&child.id());
            if case && !under.is_empty() && !if_skip {
                let condition = under
                    .iter()
                    .map(|&(c, negated)| match negated {
                        true => format!("not ({})", self.normal(c)),
                        false => self.normal(c),
                    })
                    .collect::<Vec<_>>()
                    .join(" && ");
                // A condition the test runs under, as `cfg(…)` is: words added
                // under `&&` widen what it leaves out.
                let condition = format!("if ({condition})");
                self.guard(child, Some(&name), condition);
            }
            if skipped {
                let condition = (self.js_condition(child))
                    .or_else(|| self.js_if_skips.get(&child.id()).cloned());
                let test = case.then_some(name.as_str());
                self.skip(child, test, condition);
                let focus = root.starts_with('f') || words.contains(&"only");
                if let Some(last) = self.view.skips.last_mut() {
                    last.focus = focus;
                }
            } else if let Some(condition) = args.and_then(|a| self.js_skip_option(a)) {
                let test = case.then_some(name.as_str());
                // `{ skip: true }` is a marker; any other value a condition.
                match condition.trim() == "true" {
                    true => self.skip(child, test, Some(condition)),
                    false => self.guard(child, test, condition),
                }
            }
            if suite {
                // A suite's body runs as the file is collected: an exit among
                // its own statements ends the run before any test.
                for callback in self.js_run_callbacks(child) {
                    let statements = callback
                        .child_by_field_name("body")
                        .filter(|b| b.kind() == "statement_block")
                        .map(super::kids)
                        .unwrap_or_default();
                    self.view.exits += statements
                        .iter()
                        .filter(|s| s.kind() == "expression_statement")
                        .filter_map(|s| s.named_child(0))
                        .filter(|e| js_exit(self.src, &self.names, *e))
                        .count();
                }
                scope.push(name);
                if let Some(args) = args {
                    self.js(args, scope, under, depth + 1);
                }
                scope.pop();
            } else {
                let found = js_assertions(self.src, child);
                self.js_inner_skips(child, &name);
                self.view.exits += self.js_run_exits(child);
                let mut test = self.test(&name, &scope.join("::"), child, found);
                test.returns_early = js_callbacks(child)
                    .iter()
                    .filter_map(|c| c.child_by_field_name("body"))
                    .any(|body| returns_early(body, &test.assertions));
                self.view.tests.push(test);
            }
        }
    }

    /// The exits passing in the functions a call hands the runner (a test's,
    /// a hook's): each ends the whole run there (jest and node's runner report
    /// it passed), and so does one in a function it calls at once or hands to a
    /// call (`run(() => …)`); one in a function it only defines, or sets to
    /// handle an event, runs when that comes.
    fn js_run_exits(&self, call: Node<'r>) -> usize {
        let mut exits = 0;
        for callback in self.js_run_callbacks(call) {
            let Some(body) = callback.child_by_field_name("body") else {
                continue;
            };
            let mut run = HashSet::new();
            for call in preorder(body).filter(|n| n.kind() == "call_expression") {
                let f = call.child_by_field_name("function");
                let path = f.map(|f| self.names.path(f)).unwrap_or_default();
                let event = path
                    .rsplit('.')
                    .next()
                    .is_some_and(|m| matches!(m, "on" | "once") || m.ends_with("Listener"));
                let args = call.child_by_field_name("arguments");
                let handed = args.filter(|_| !event).map(super::kids).unwrap_or_default();
                run.extend(f.map(|f| picked(self.src, f, 0).id()));
                run.extend(handed.iter().map(|a| a.id()));
            }
            let nested = super::Spans::new(
                preorder(body)
                    .filter(|n| {
                        matches!(
                            n.kind(),
                            "arrow_function" | "function_expression" | "function_declaration"
                        )
                    })
                    .filter(|n| !run.contains(&n.id()))
                    .map(|n| n.byte_range())
                    .collect::<Vec<_>>(),
            );
            // An arrow's body without braces is its one expression.
            let braceless = Some(body).filter(|b| b.kind() != "statement_block");
            let expressions = preorder(body).filter_map(|n| match n.kind() {
                "expression_statement" => n.named_child(0),
                "arrow_function" => n
                    .child_by_field_name("body")
                    .filter(|b| b.kind() != "statement_block"),
                _ => None,
            });
            exits += braceless
                .into_iter()
                .chain(expressions)
                .filter(|n| !nested.holds(n.start_byte()))
                .filter(|e| js_exit(self.src, &self.names, *e))
                .count();
        }
        exits
    }

    /// The functions a call hands the runner: written in place, or named
    /// (`test('a', run)`, `function run() {…}` or `const run = () => …`).
    fn js_run_callbacks(&self, call: Node<'r>) -> Vec<Node<'r>> {
        let Some(args) = call.child_by_field_name("arguments") else {
            return Vec::new();
        };
        let function = |n: &Node<'_>| {
            matches!(
                n.kind(),
                "arrow_function" | "function_expression" | "function_declaration"
            )
        };
        kids(args)
            .into_iter()
            .filter_map(|a| match a.kind() {
                "identifier" => self
                    .js_functions
                    .get(self.text(a))
                    .copied()
                    .or_else(|| Some(self.names.value(a))),
                _ => Some(a),
            })
            .filter(function)
            .collect()
    }

    /// `test.each([])(…)`: a table of no rows runs the test on none.
    fn js_empty_each(&self, call: Node<'_>) -> bool {
        let Some(f) = call.child_by_field_name("function") else {
            return false;
        };
        preorder(f).any(|n| {
            n.kind() == "call_expression"
                && callee_words(self.src, n).first() == Some(&"each")
                && n.child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .is_some_and(|a| a.kind() == "array" && a.named_child_count() == 0)
        })
    }

    /// `cond ? test.skip : test`: every test called through the value is
    /// skipped whenever the condition picks the skipping side. Its condition in
    /// normal form, when it is one.
    fn js_skip_alias(&self, ternary: Node<'_>) -> Option<String> {
        let sides = ["consequence", "alternative"].map(|f| ternary.child_by_field_name(f));
        let skips = sides.map(|side| {
            side.is_some_and(|side| {
                let root = callee_root(self.src, side).unwrap_or("");
                side.kind() == "member_expression"
                    && matches!(root, "it" | "test" | "describe" | "suite")
                    && callee_words(self.src, side)
                        .first()
                        .is_some_and(|w| matches!(*w, "skip" | "todo"))
            })
        });
        let condition = ternary.child_by_field_name("condition")?;
        // Skipping on the false side: the condition's negation skips (a word
        // more, so sides swapped under the same condition are a widening).
        match skips {
            [false, false] => None,
            [false, true] => Some(format!("not ({})", self.normal(condition))),
            _ => Some(self.normal(condition)),
        }
    }

    /// A test's or suite's name: its string, or the code that makes it (`'should
    /// include ' + method`) in normal form, so the tests a loop makes are told
    /// from another loop's; "" for none.
    fn js_case_name(&self, call: Node<'_>) -> String {
        let Some(first) = call
            .child_by_field_name("arguments")
            .and_then(|a| a.named_child(0))
        else {
            return String::new();
        };
        match first.kind() {
            "string" | "template_string" => string_value(self.src, first),
            "arrow_function" | "function_expression" | "object" => String::new(),
            _ => self.normal(first),
        }
    }

    /// A block that registers tests (a suite's callback, a loop's over cases)
    /// and returns under a condition before them: `if (method === 'connect')
    /// return` ahead of `it(…)` leaves that test unmade whenever it holds, a skip
    /// on each test the block makes after it. A test's own body is its
    /// [`Reader::guard_returns`]'s.
    fn js_guarded_cases(&mut self, block: Node<'_>) {
        let mut cursor = block.walk();
        let statements: Vec<Node<'_>> = block.named_children(&mut cursor).collect();
        let mut guards: Vec<(Node<'_>, String)> = Vec::new();
        for statement in statements {
            if statement.kind() == "if_statement"
                && statement.child_by_field_name("alternative").is_none()
                && let (Some(condition), Some(then)) = (
                    statement.child_by_field_name("condition"),
                    statement.child_by_field_name("consequence"),
                )
                && bare_return(then)
            {
                guards.push((statement, self.normal(condition)));
                continue;
            }
            if guards.is_empty() {
                continue;
            }
            let cases: Vec<String> = preorder(statement)
                .filter(|n| n.kind() == "call_expression")
                .filter(|n| {
                    let root = callee_root(self.src, *n).unwrap_or("");
                    matches!(root, "it" | "test" | "specify" | "xit" | "xtest" | "fit")
                })
                .map(|n| self.js_case_name(n))
                .collect();
            for name in cases {
                for (guard, condition) in &guards {
                    self.guard(*guard, Some(&name), condition.clone());
                }
            }
        }
    }

    /// node:test's and tap's options argument, `test(name, { skip: cond }, fn)`:
    /// the skip's condition in normal form (a reason or `true` skips whatever
    /// holds, and reads as a condition no test had; `{ skip }` is the one named
    /// `skip`), or `None` for no skip (`false`, `undefined`, no such key). `todo`
    /// runs the test but keeps its failure out of the result, so it switches the
    /// test off as `skip` does.
    fn js_skip_option(&self, args: Node<'_>) -> Option<String> {
        let mut cursor = args.walk();
        let objects: Vec<Node<'_>> = args
            .named_children(&mut cursor)
            .filter(|a| a.kind() == "object")
            .collect();
        for object in objects {
            let mut cursor = object.walk();
            for entry in object.named_children(&mut cursor) {
                let key = match entry.kind() {
                    "pair" => entry.child_by_field_name("key"),
                    "shorthand_property_identifier" => Some(entry),
                    _ => None,
                };
                let key = key.map(|k| self.text(k).trim_matches(['"', '\'']));
                if !matches!(key, Some("skip" | "todo")) {
                    continue;
                }
                // `{ skip }` and `{ skip: off }` read the value the file binds
                // the name to once (`const skip = a || b`): a condition
                // widened on its way into the name is widened.
                let value = match entry.child_by_field_name("value") {
                    None => self.const_value(self.text(entry)),
                    Some(v) if v.kind() == "identifier" => {
                        Some(self.const_value(self.text(v)).unwrap_or(v))
                    }
                    Some(v) => Some(v),
                }
                .map(|v| self.truth(v));
                return match value {
                    None => Some(self.text(entry).to_string()),
                    Some(v) if matches!(v.kind(), "false" | "undefined" | "null") => None,
                    Some(v) => Some(self.normal(v)),
                };
            }
        }
        None
    }

    /// The value `name` stands for when each name on the way is
    /// bound by a `const` (which nothing can assign again) and in no other place
    /// of the file (no `let` set again, no parameter, loop variable, pattern or
    /// second declaration of that name that could shadow it): otherwise what
    /// the test reads is not the value written beside the name (helper 84's and
    /// 85's red teams). `None`: read the name as it is.
    fn const_value(&self, name: &str) -> Option<Node<'r>> {
        let mut name = name.to_string();
        for _ in 0..8 {
            let value = self.names.bound_here(&name)?;
            let declaration = value.parent().and_then(|d| d.parent())?;
            let constant = declaration.kind() == "lexical_declaration"
                && declaration
                    .child(0)
                    .is_some_and(|k| self.text(k) == "const");
            if !constant || self.names.binders(&name) != 1 {
                return None;
            }
            if value.kind() != "identifier" {
                return Some(value);
            }
            name = self.text(value).to_string();
        }
        None
    }

    /// `v` with its `!!` taken off: an option read for its truth skips alike
    /// under `!!process.env.CI` and `process.env.CI`.
    fn truth<'n>(&self, v: Node<'n>) -> Node<'n> {
        let not = |n: Node<'n>| {
            (n.kind() == "unary_expression"
                && n.child_by_field_name("operator")
                    .is_some_and(|o| self.text(o) == "!"))
            .then(|| n.child_by_field_name("argument"))
            .flatten()
        };
        not(v).and_then(not).unwrap_or(v)
    }

    /// The arguments of the `skipIf(…)`/`runIf(…)` in `call`'s callee chain.
    fn js_condition(&self, call: Node<'_>) -> Option<String> {
        let f = call.child_by_field_name("function")?;
        let word = |n: Node<'_>| callee_words(self.src, n).first().copied();
        let c = preorder(f).find(|n| {
            n.kind() == "call_expression"
                && n.child_by_field_name("function")
                    .is_some_and(|f| f.kind() == "member_expression")
                && matches!(word(*n), Some("skipIf" | "runIf"))
        })?;
        let args = c.child_by_field_name("arguments")?;
        Some(skipped_when(word(c)?, self.normal(args)))
    }

    /// In a test case's callback: `if (cond) return` at its top, and a skip
    /// called with a condition (`testInfo.skip(!ok, why)`, `test.skip(cond)`,
    /// `ctx.skip(cond)`): the test stops whenever it holds.
    fn js_inner_skips(&mut self, case: Node<'_>, name: &str) {
        for callback in js_callbacks(case) {
            let Some(body) = callback.child_by_field_name("body") else {
                continue;
            };
            if body.kind() == "statement_block" {
                self.guard_returns(body, name);
            }
            for n in preorder(body) {
                if n.kind() != "call_expression" {
                    continue;
                }
                let words = callee_words(self.src, n);
                if !matches!(words.first(), Some(&("skip" | "fixme"))) {
                    continue;
                }
                // mocha's `this.skip()`, vitest's `ctx.skip()` or `ctx.skip(why)`:
                // a marker on the test, under the `if` around it when there is
                // one and it is no constant.
                let bare = n.child_by_field_name("arguments").is_some_and(|a| {
                    (super::kids(a).iter())
                        .all(|a| matches!(a.kind(), "string" | "template_string"))
                });
                if bare && words.len() == 1 {
                    let condition = enclosing_if(n, body)
                        .filter(|c| super::folded(self.src, *c) != Some(true))
                        .map(|c| self.normal(c));
                    self.skip(n, Some(name), condition);
                    continue;
                }
                let first = n
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0))
                    .filter(|a| {
                        !matches!(
                            a.kind(),
                            "string" | "template_string" | "arrow_function" | "function_expression"
                        )
                    });
                if let Some(first) = first {
                    let condition = self.normal(first);
                    self.guard(n, Some(name), condition);
                }
            }
        }
    }

    fn rust_items(&mut self, list: Node<'_>, scope: &str, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        let mut attrs: Vec<Node<'_>> = Vec::new();
        let mut cursor = list.walk();
        let items: Vec<Node<'_>> = list.named_children(&mut cursor).collect();
        for item in items {
            match item.kind() {
                "attribute_item" => {
                    attrs.push(item);
                    continue;
                }
                "line_comment" | "block_comment" => continue,
                "function_item" => self.rust_function(item, &attrs, scope),
                "expression_statement" => {
                    if let Some(call) = item
                        .named_child(0)
                        .filter(|c| c.kind() == "macro_invocation")
                    {
                        self.rust_macro_test(call, &attrs, scope);
                    }
                }
                "mod_item" => {
                    if let (Some(name), Some(body)) = (
                        item.child_by_field_name("name"),
                        item.child_by_field_name("body"),
                    ) {
                        let inner = match scope {
                            "" => self.text(name).to_string(),
                            _ => format!("{scope}::{}", self.text(name)),
                        };
                        self.rust_items(body, &inner, depth + 1);
                    }
                }
                _ => {}
            }
            attrs.clear();
        }
    }

    fn rust_function(&mut self, item: Node<'_>, attrs: &[Node<'_>], scope: &str) {
        let Some(name) = item.child_by_field_name("name").map(|n| self.text(n)) else {
            return;
        };
        let src = self.src;
        let inner = |a: &Node<'_>| {
            let t = &src[a.byte_range()];
            t.trim_start_matches("#[")
                .trim_end_matches(']')
                .trim()
                .to_string()
        };
        let is_test = attrs.iter().any(|a| {
            let t = inner(a);
            let path = t.split('(').next().unwrap_or("").trim();
            path == "test" || path.ends_with("::test") || matches!(path, "rstest" | "test_case")
        });
        if !is_test {
            // Only an exit the helper always reaches: a program's own function
            // a test calls (`parse_args`) exits on `--version`, not on every call.
            if let Some(body) = item.child_by_field_name("body") {
                let exits = kids(body)
                    .into_iter()
                    .map(|s| match s.kind() {
                        "expression_statement" => s.named_child(0).unwrap_or(s),
                        _ => s,
                    })
                    .filter(|s| s.kind() == "call_expression")
                    .map(|call| rust_test_exits(self.src, &self.rust_exits, call))
                    .sum::<usize>();
                self.rust_helper_exits.push((name, exits));
            }
            self.rust_helper(item, name);
            return;
        }
        self.rust_gates(attrs, name);
        let found = preorder(item).filter(|n| self.rust_check(*n)).collect();
        let mut test = self.test(name, scope, item, found);
        test.gates = self.rust_cfgs(item);
        for call in preorder(item).filter(|n| n.kind() == "call_expression") {
            let callee = call.child_by_field_name("function");
            let callee = match callee {
                Some(f) if f.kind() == "scoped_identifier" => f.child_by_field_name("name"),
                f => f.filter(|f| f.kind() == "identifier"),
            };
            self.rust_called.extend(callee.map(|f| self.text(f)));
        }
        if let Some(body) = item.child_by_field_name("body") {
            self.view.exits += rust_test_exits(self.src, &self.rust_exits, body);
            (test.gated, test.ungated) = self.rust_statements(body, None);
            self.guard_returns(body, name);
            test.returns_early = returns_early(body, &test.assertions);
        }
        self.view.tests.push(test);
    }

    /// A Rust function that is no test, kept as a [`Helper`] when it holds
    /// an assertion: whether a test calls it is known once the file is read.
    fn rust_helper(&mut self, item: Node<'_>, name: &str) {
        let Some(body) = item.child_by_field_name("body") else {
            return;
        };
        let checks: Vec<usize> = preorder(body)
            .filter(|n| self.rust_check(*n))
            .map(|n| n.start_byte())
            .collect();
        if checks.is_empty() {
            return;
        }
        let (gated, ungated) = self.rust_statements(body, Some(&checks));
        self.view.helpers.push(Helper {
            name: name.to_string(),
            gates: self.rust_cfgs(item),
            gated,
            ungated,
        });
    }

    /// An assertion macro's call: `assert_eq!(…)`, `debug_assert!(…)`.
    fn rust_check(&self, n: Node<'_>) -> bool {
        n.kind() == "macro_invocation"
            && n.child_by_field_name("macro").is_some_and(|m| {
                let path = self.text(m);
                let last = path.rsplit("::").next().unwrap_or(path);
                last.starts_with("assert") || last.starts_with("debug_assert")
            })
    }

    /// The `#[cfg(…)]` attributes inside a Rust item, squeezed of whitespace.
    fn rust_cfgs(&self, item: Node<'_>) -> Vec<String> {
        preorder(item)
            .filter(|n| n.kind() == "attribute_item")
            .map(|a| squeezed(self.text(a)))
            .filter_map(|a| Some(a.strip_prefix("#[")?.strip_suffix(']')?.to_string()))
            .filter(|a| a.starts_with("cfg("))
            .collect()
    }

    /// A Rust test body's expression statements in normal form, split by
    /// whether a `#[cfg(…)]` on a statement around them gates them (with its
    /// condition, squeezed) or not; with `checks` (where the body's assertions
    /// start, in order), only the statements that hold one. `cfg(test)` holds
    /// in every build that runs a test, so it gates nothing.
    fn rust_statements(
        &self,
        body: Node<'_>,
        checks: Option<&[usize]>,
    ) -> (Vec<(String, String)>, Vec<String>) {
        let mut gates: Vec<(String, std::ops::Range<usize>)> = Vec::new();
        for a in preorder(body).filter(|n| n.kind() == "attribute_item") {
            let t = squeezed(self.text(a));
            let Some(cond) = t.strip_prefix("#[").and_then(|t| t.strip_suffix(']')) else {
                continue;
            };
            if !cond.starts_with("cfg(") || cond == "cfg(test)" {
                continue;
            }
            let mut next = a.next_named_sibling();
            while let Some(n) =
                next.filter(|n| n.kind() == "attribute_item" || n.kind().contains("comment"))
            {
                next = n.next_named_sibling();
            }
            if let Some(gated) = next {
                gates.push((cond.to_string(), gated.byte_range()));
            }
        }
        // One sweep in document order: the gates are in order of their starts,
        // and those still open at a statement are a stack (a gate inside another
        // closes first), so each is pushed and popped once.
        let (mut gated, mut ungated) = (Vec::new(), Vec::new());
        let (mut next, mut open): (usize, Vec<usize>) = (0, Vec::new());
        let holds_check = |s: Node<'_>| {
            checks.is_none_or(|c| {
                let k = c.partition_point(|&at| at < s.start_byte());
                c.get(k).is_some_and(|&at| at < s.end_byte())
            })
        };
        for s in preorder(body).filter(|n| n.kind() == "expression_statement" && holds_check(*n)) {
            let at = s.start_byte();
            while next < gates.len() && gates[next].1.start <= at {
                // Tree ranges nest or are apart: what ended before this gate is
                // no container of it, so the stack stays a chain of nested gates.
                while open
                    .last()
                    .is_some_and(|&g| gates[g].1.end <= gates[next].1.start)
                {
                    open.pop();
                }
                open.push(next);
                next += 1;
            }
            while open.last().is_some_and(|&g| gates[g].1.end <= at) {
                open.pop();
            }
            let normal = self.normal(s);
            match open.first() {
                Some(&g) => gated.push((gates[g].0.clone(), normal)),
                None => ungated.push(normal),
            }
        }
        (gated, ungated)
    }

    /// The skips among a Rust test's attributes: `#[ignore]`, and as conditions
    /// `#[cfg_attr(…, ignore)]` and a `#[cfg(…)]` (the test is not compiled where
    /// it fails to hold); `#[cfg(test)]` is every test's.
    fn rust_gates(&mut self, attrs: &[Node<'_>], name: &str) {
        for a in attrs {
            let t = squeezed(self.text(*a));
            let t = t.trim_start_matches("#[").trim_end_matches(']');
            // The reason of `ignore = "…"` says nothing of where it holds.
            let t = match t.rfind(",ignore=\"") {
                Some(k) if t.starts_with("cfg_attr(") && t.ends_with("\")") => {
                    format!("{},ignore)", &t[..k])
                }
                _ => t.to_string(),
            };
            let t = t.as_str();
            if t == "ignore" || t.starts_with("ignore=") {
                self.skip(*a, Some(name), None);
            } else if (t.starts_with("cfg_attr(") && t.ends_with(",ignore)"))
                || (t.starts_with("cfg(") && t != "cfg(test)")
            {
                self.skip(*a, Some(name), Some(t.to_string()));
            }
        }
    }

    /// An item-level call of a macro of the file that makes a test
    /// (`clean!(regression_428, …);`): a test named by its first argument, and
    /// the attributes on the call are that test's.
    fn rust_macro_test(&mut self, call: Node<'_>, attrs: &[Node<'_>], scope: &str) {
        let Some(name) = call.child_by_field_name("macro").map(|m| self.text(m)) else {
            return;
        };
        if !self.test_macros.contains(name) {
            return;
        }
        let mut cursor = call.walk();
        let Some(first) = call
            .named_children(&mut cursor)
            .find(|n| n.kind() == "token_tree")
            .and_then(|tt| tt.named_child(0))
            .filter(|n| n.kind() == "identifier")
        else {
            return;
        };
        let test_name = self.text(first);
        self.rust_gates(attrs, test_name);
        let test = self.test(test_name, scope, call, Vec::new());
        self.view.tests.push(test);
    }

    /// Each `macro_rules!`, whether the file invokes it, and the tests its
    /// expansion names literally (`#[test] fn adds()`, not `fn $name()`).
    fn rust_macros(&mut self, root: Node<'_>) {
        let leaves: Vec<Node<'_>> = preorder(root)
            .filter(|n| n.child_count() == 0 && !n.kind().contains("comment"))
            .collect();
        let mut calls: HashMap<&str, Vec<usize>> = HashMap::new();
        for pair in leaves.windows(2) {
            if self.text(pair[1]) == "!" && pair[0].kind() == "identifier" {
                calls
                    .entry(self.text(pair[0]))
                    .or_default()
                    .push(pair[0].start_byte());
            }
        }
        for def in preorder(root) {
            if def.kind() != "macro_definition" {
                continue;
            }
            let Some(name) = def.child_by_field_name("name").map(|n| self.text(n)) else {
                continue;
            };
            let span = def.byte_range();
            let invoked = calls
                .get(name)
                .is_some_and(|at| at.iter().any(|b| !span.contains(b)));
            let from = leaves.partition_point(|l| l.start_byte() < span.start);
            let to = leaves.partition_point(|l| l.start_byte() < span.end);
            let inside: Vec<&str> = leaves[from..to].iter().map(|l| self.text(*l)).collect();
            self.view.macros.push(Macro {
                name: name.to_string(),
                invoked,
                tests: tests_in_tokens(&inside),
                hollow: hollow(self.src, def),
                returns_early: macro_tests_returning(self.src, def),
            });
        }
    }

    fn go(&mut self, root: Node<'_>) {
        let mut cursor = root.walk();
        let items: Vec<Node<'_>> = root.named_children(&mut cursor).collect();
        for item in items {
            if item.kind() != "function_declaration" {
                continue;
            }
            let Some(name) = item.child_by_field_name("name").map(|n| self.text(n)) else {
                continue;
            };
            let t = go_testing_param(self.src, item);
            let Some(t) = t.filter(|_| name.starts_with("Test")) else {
                continue;
            };
            let body = item.child_by_field_name("body").unwrap_or(item);
            let nodes: Vec<Node<'_>> = preorder(body).collect();
            let mut names = vec![t];
            for n in &nodes {
                if n.kind() == "func_literal"
                    && let Some(inner) = go_testing_param(self.src, *n)
                {
                    names.push(inner);
                }
            }
            let mut found = Vec::new();
            let mut shadowed = Vec::new();
            for n in &nodes {
                match n.kind() {
                    "call_expression" => {
                        let Some((operand, field)) = go_method(self.src, *n) else {
                            continue;
                        };
                        let on_t = names.contains(&operand);
                        if on_t
                            && matches!(
                                field,
                                "Error" | "Errorf" | "Fatal" | "Fatalf" | "Fail" | "FailNow"
                            )
                            || matches!(operand, "assert" | "require")
                            || go_check(self.src, *n)
                        {
                            found.push(*n);
                        } else if on_t && field.starts_with("Skip") {
                            let condition = enclosing_if(*n, body).map(|c| self.normal(c));
                            self.skip(*n, Some(name), condition);
                        }
                    }
                    // A function literal's own parameter named as the test's
                    // `t`, of another type, is a shadow too.
                    "parameter_declaration"
                        if n.parent().and_then(|p| p.parent()).is_some_and(|f| {
                            f.kind() == "func_literal" && go_testing_param(self.src, f).is_none()
                        }) && n
                            .child_by_field_name("name")
                            .is_some_and(|i| names.contains(&self.text(i))) =>
                    {
                        shadowed.push(self.text(*n).to_string());
                    }
                    "short_var_declaration" | "var_spec" | "range_clause" => {
                        let left = n
                            .child_by_field_name("left")
                            .or_else(|| n.child_by_field_name("name"));
                        let binds_t = left.is_some_and(|l| {
                            preorder(l)
                                .any(|i| i.kind() == "identifier" && names.contains(&self.text(i)))
                        });
                        if binds_t {
                            shadowed.push(self.text(*n).to_string());
                        }
                    }
                    // `t = &testing.T{}`: assigned, not declared, the same loss;
                    // `t.x = …` sets a field and rebinds nothing.
                    "assignment_statement" => {
                        let mut cursor = n.walk();
                        let binds_t = n.child_by_field_name("left").is_some_and(|l| {
                            l.named_children(&mut cursor)
                                .any(|i| i.kind() == "identifier" && names.contains(&self.text(i)))
                        });
                        if binds_t {
                            shadowed.push(self.text(*n).to_string());
                        }
                    }
                    _ => {}
                }
            }
            self.guard_returns(body, name);
            let mut test = self.test(name, "", item, found);
            test.returns_early = returns_early(body, &test.assertions);
            test.shadowed = shadowed;
            self.view.tests.push(test);
        }
    }
}

/// The names a Rust macro's tokens define as tests: a `fn` with a literal name
/// after a `#[test]` or `#[….::test]`.
fn tests_in_tokens(tokens: &[&str]) -> Vec<String> {
    let mut out = Vec::new();
    let mut test_attr = false;
    let mut i = 0;
    while i < tokens.len() {
        if tokens[i] == "#" && tokens.get(i + 1) == Some(&"[") {
            let close = tokens[i..]
                .iter()
                .position(|t| *t == "]")
                .map_or(tokens.len(), |p| i + p);
            if tokens.get(close.wrapping_sub(1)) == Some(&"test") {
                test_attr = true;
            }
            i = close + 1;
            continue;
        }
        if tokens[i] == "fn" {
            if test_attr
                && let Some(name) = tokens.get(i + 1)
                && !name.starts_with('$')
            {
                out.push((*name).to_string());
            }
            test_attr = false;
        }
        i += 1;
    }
    out
}

/// The `macro_rules!` of a Rust file whose expansion defines a test of a name the
/// caller gives (`#[test] fn $name()`).
fn test_macros<'s>(src: &'s str, root: Node<'_>) -> HashSet<&'s str> {
    let mut out = HashSet::new();
    for def in preorder(root).filter(|n| n.kind() == "macro_definition") {
        let Some(name) = def.child_by_field_name("name") else {
            continue;
        };
        let leaves: Vec<&str> = preorder(def)
            .filter(|n| n.child_count() == 0 && !n.kind().contains("comment"))
            .map(|n| &src[n.byte_range()])
            .collect();
        let named = leaves
            .windows(2)
            .any(|w| w[0] == "fn" && w[1].starts_with('$'));
        let test = leaves
            .windows(3)
            .any(|w| w[0] == "[" && w[1] == "test" && w[2] == "]");
        if named && test {
            out.insert(&src[name.byte_range()]);
        }
    }
    out
}

/// Whether a JavaScript expression calls an exit passing: `process.exit()`, or
/// `process.exit(0)` (or `reallyExit`, `process['exit']`) with the code any
/// constant 0, called, awaited or not. An exit with another code fails loudly.
fn js_exit<'t>(src: &str, names: &Names<'_, 't>, expression: Node<'t>) -> bool {
    let call = match expression.kind() {
        "await_expression" | "unary_expression" => expression.named_child(0),
        _ => Some(expression),
    };
    let Some(call) = call.filter(|c| c.kind() == "call_expression") else {
        return false;
    };
    let callee = call
        .child_by_field_name("function")
        .map(|f| names.path(f))
        .unwrap_or_default();
    let args: Vec<Node<'_>> = match call.child_by_field_name("arguments") {
        Some(args) => {
            let mut cursor = args.walk();
            args.named_children(&mut cursor)
                .filter(|a| !a.kind().contains("comment"))
                .collect()
        }
        None => return false,
    };
    matches!(callee.as_str(), "process.exit" | "process.reallyExit")
        && match args.as_slice() {
            [] => true,
            [code] => constant(src, *code) == Some(0),
            _ => false,
        }
}

/// The names a module or class statement takes out of pytest's collection:
/// `NAME = VALUE` or `del NAME` (once its `def` ran, the name holds no test),
/// or `NAME.__test__ = FALSY`, each name of a list (`del a, b`, `a, b = None,
/// None`), through the module's own names (`globals()['NAME']`, `setattr(
/// sys.modules[__name__], 'NAME', …)`). A value that is a call or a name may
/// be the test wrapped (`test_a = settings(max_examples=5)(test_a)`): only a
/// literal or a lambda counts, or a conditional on a constant that picks one.
fn python_uncollected<'s, 't>(src: &'s str, names: &Names<'_, 't>, item: Node<'t>) -> Vec<&'s str> {
    let text = |n: Node<'t>| &src[n.byte_range()];
    let string = |n: Node<'t>| match n.kind() {
        "string" => kids(n)
            .into_iter()
            .find(|c| c.kind() == "string_content")
            .map(text),
        _ => None,
    };
    // Whose attribute a target is: the module's own (`None`) or a name's.
    let owner = |n: Node<'t>| match n.kind() {
        "identifier" => Some(Some(text(n))),
        _ if names.path(n) == "sys.modules[__name__]" => Some(None),
        _ => None,
    };
    let target = |n: Node<'t>| -> Option<(Option<&'s str>, &'s str)> {
        let field = |f| n.child_by_field_name(f);
        match n.kind() {
            "identifier" => Some((None, text(n))),
            "attribute" => Some((owner(field("object")?)?, text(field("attribute")?))),
            "subscript" => {
                let module = field("value").is_some_and(|v| {
                    matches!(names.path(v).as_str(), "globals()" | "vars()" | "locals()")
                });
                module.then(|| Some((None, string(field("subscript")?)?)))?
            }
            _ => None,
        }
    };
    let list = |n: Node<'t>| match n.kind() {
        "expression_list" | "pattern_list" | "tuple" | "tuple_pattern" => kids(n),
        _ => vec![n],
    };
    let statement = match item.kind() {
        "expression_statement" => item.named_child(0),
        _ => Some(item),
    };
    let Some(statement) = statement else {
        return Vec::new();
    };
    let field = |f| statement.child_by_field_name(f);
    // Each target with the value it is given (none for a `del`).
    let set: Vec<(_, Option<Node<'t>>)> = match statement.kind() {
        "delete_statement" => kids(statement)
            .into_iter()
            .flat_map(list)
            .filter_map(|n| Some((target(n)?, None)))
            .collect(),
        "assignment" => {
            let (left, right) = (field("left").map(list), field("right").map(list));
            let (left, right) = (left.unwrap_or_default(), right.unwrap_or_default());
            match left.len() == right.len() {
                true => left
                    .into_iter()
                    .zip(right)
                    .filter_map(|(l, r)| Some((target(l)?, Some(r))))
                    .collect(),
                false => Vec::new(),
            }
        }
        "call" if field("function").is_some_and(|f| names.path(f) == "setattr") => {
            match field("arguments").map(kids).unwrap_or_default().as_slice() {
                [object, name, value] => owner(*object)
                    .zip(string(*name))
                    .map(|t| (t, Some(*value)))
                    .into_iter()
                    .collect(),
                _ => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    set.into_iter()
        .filter_map(|(target, value)| {
            let value = value.map(|v| picked(src, v, 0));
            let literal = value.is_none_or(|v| {
                constant(src, v).is_some()
                    || matches!(v.kind(), "list" | "dictionary" | "tuple" | "lambda")
            });
            match target {
                (None, name) => literal.then_some(name),
                (Some(object), "__test__") => {
                    value.is_some_and(|v| falsy(src, v)).then_some(object)
                }
                _ => None,
            }
        })
        .collect()
}

/// Whether a class has no base (or `object` alone) and defines `__init__` beside
/// a test.
fn python_plain_with_init(src: &str, class: Node<'_>) -> bool {
    let bases = class
        .child_by_field_name("superclasses")
        .map(|b| src[b.byte_range()].split_whitespace().collect::<String>());
    if !matches!(bases.as_deref(), None | Some("()") | Some("(object)")) {
        return false;
    }
    let Some(body) = class.child_by_field_name("body") else {
        return false;
    };
    let defined: Vec<&str> = kids(body)
        .into_iter()
        .filter_map(|item| {
            let def = match item.kind() {
                "decorated_definition" => item.child_by_field_name("definition"),
                _ => Some(item),
            };
            def.filter(|d| d.kind() == "function_definition")
                .and_then(|d| d.child_by_field_name("name"))
                .map(|n| &src[n.byte_range()])
        })
        .collect();
    // A helper named `Test*` with no tests of its own loses none (helper 73).
    defined.contains(&"__init__") && defined.iter().any(|d| d.starts_with("test"))
}

/// The exits in a Python test's `body` that end the whole run passing:
/// `os._exit(0)` and `pytest.exit(…, returncode=0)` (a `SystemExit` is the
/// test's failure to pytest), through the file's names and with the code any
/// constant. None in a test that forks: its exits are the child's.
fn python_test_exits<'t>(src: &str, names: &Names<'_, 't>, body: Node<'t>) -> usize {
    let calls: Vec<Node<'_>> = preorder(body).filter(|n| n.kind() == "call").collect();
    let callee = |c: &Node<'t>| c.child_by_field_name("function");
    let forks = calls
        .iter()
        .filter_map(callee)
        .any(|f| PYTHON_FORKS.contains(&names.path(f).as_str()));
    if forks {
        return 0;
    }
    // A function defined in the test exits where it runs (a child process's
    // target), not the test; a lambda called at once runs in it.
    let at_once: HashSet<usize> = calls
        .iter()
        .filter_map(callee)
        .map(|f| picked(src, f, 0).id())
        .collect();
    let nested = super::Spans::new(
        preorder(body)
            .filter(|n| matches!(n.kind(), "function_definition" | "lambda"))
            .filter(|n| !at_once.contains(&n.id()))
            .map(|n| n.byte_range())
            .collect::<Vec<_>>(),
    );
    calls
        .into_iter()
        .filter(|call| !nested.holds(call.start_byte()))
        .filter(|call| {
            let (Some(f), Some(args)) = (callee(call), call.child_by_field_name("arguments"))
            else {
                return false;
            };
            let args = kids(args);
            let returncode = python_keyword(src, &args, "returncode");
            let code = match (names.path(f).as_str(), args.as_slice()) {
                ("os._exit" | "posix._exit" | "_exit", [code]) => Some(*code),
                ("pytest.exit", [_, code]) if code.kind() != "keyword_argument" => Some(*code),
                ("pytest.exit", _) => returncode,
                _ => None,
            };
            code.is_some_and(|c| constant(src, c) == Some(0))
        })
        .count()
}

/// The exits in a Rust test's `body` that end the whole run passing:
/// `std::process::exit(0)` (`cargo test` runs the tests in one process, and
/// reports a run that exits 0 as passed). Not in a function the test defines:
/// it exits where it is called.
fn rust_test_exits(src: &str, exits: &[String], body: Node<'_>) -> usize {
    let calls =
        pruned(body, |kind| kind == "function_item").filter(|n| n.kind() == "call_expression");
    let path = |call: Node<'_>| -> String {
        call.child_by_field_name("function")
            .map_or_else(String::new, |f| {
                src[f.byte_range()].split_whitespace().collect()
            })
    };
    // A test that forks: the child's exit (helper 73's red team).
    let forks = calls.clone().any(|call| {
        matches!(
            path(call).trim_start_matches("::"),
            "libc::fork" | "fork" | "unistd::fork" | "nix::unistd::fork"
        )
    });
    if forks {
        return 0;
    }
    calls
        .filter(|call| {
            let (Some(f), Some(args)) = (
                call.child_by_field_name("function"),
                call.child_by_field_name("arguments"),
            ) else {
                return false;
            };
            let path: String = src[f.byte_range()].split_whitespace().collect();
            let exit = exits.iter().any(|e| e == path.trim_start_matches("::"));
            let args = kids(args);
            exit && args.len() == 1 && constant(src, args[0]) == Some(0)
        })
        .count()
}

/// The paths a Rust file calls the process's exit by: `std::process::exit`,
/// `process::exit`, `libc::exit` and `libc::_exit`, and those its `use`
/// declarations bind (`use std::process::exit as bye;` gives `bye`, `use
/// std::process as p;` gives `p::exit`, `use std::process::*;` gives `exit`).
fn rust_exit_paths(src: &str, root: Node<'_>) -> Vec<String> {
    let mut out: Vec<String> = [
        "std::process::exit",
        "process::exit",
        "libc::exit",
        "libc::_exit",
    ]
    .map(String::from)
    .into();
    for u in preorder(root).filter(|n| n.kind() == "use_declaration") {
        let squeezed: String = src[u.byte_range()].split_whitespace().collect();
        let used = squeezed
            .trim_start_matches("pub")
            .trim_start_matches("use")
            .trim_end_matches(';')
            .trim_start_matches("::");
        for (module, item) in [
            ("std::process", "exit"),
            ("libc", "exit"),
            ("libc", "_exit"),
        ] {
            let Some(rest) = used.strip_prefix(module) else {
                continue;
            };
            if let Some(alias) = rest.strip_prefix("as") {
                out.push(format!("{alias}::{item}"));
            } else if rest == "::*" {
                out.push(item.to_string());
            } else if let Some(list) = rest.strip_prefix("::") {
                let list = list.trim_start_matches('{').trim_end_matches('}');
                for part in list.split(',') {
                    match part.strip_prefix(item) {
                        Some("") => out.push(item.to_string()),
                        Some(aliased) => out.extend(aliased.strip_prefix("as").map(String::from)),
                        None => {}
                    }
                }
            }
        }
    }
    out
}

/// Whether a decorator makes a fixture: `@pytest.fixture`, `@fixture(…)`,
/// `@pytest_asyncio.fixture`.
fn python_fixture(decorator: &str) -> bool {
    let callee = decorator
        .trim_start_matches('@')
        .split('(')
        .next()
        .unwrap_or("");
    callee.trim().rsplit('.').next() == Some("fixture")
}

/// Whether an exit statement ([`python_exit`]) ends the run passing: its code
/// (the first argument, or `returncode=`) folds to 0, or it has none.
fn python_exit_passes(src: &str, statement: Node<'_>) -> bool {
    let Some(call) = statement.named_child(0).filter(|c| c.kind() == "call") else {
        // `raise SystemExit` with no call: code 0.
        return statement.kind() == "raise_statement";
    };
    let args = call
        .child_by_field_name("arguments")
        .map(kids)
        .unwrap_or_default();
    let code = python_keyword(src, &args, "returncode").or_else(|| {
        let positional: Vec<&Node<'_>> = args
            .iter()
            .filter(|a| a.kind() != "keyword_argument")
            .collect();
        let pytest = src[call.byte_range()].starts_with("pytest.");
        // `pytest.exit(reason, returncode)`: the code is the second.
        positional.get(usize::from(pytest)).map(|a| **a)
    });
    match code {
        Some(c) => constant(src, c) == Some(0),
        None => !src[call.byte_range()].starts_with("pytest."),
    }
}

/// The calls that fork the process: what follows them may be the child's.
const PYTHON_FORKS: [&str; 4] = ["os.fork", "fork", "pty.fork", "os.forkpty"];

/// The value of the keyword argument `name` among a call's `args`.
fn python_keyword<'t>(src: &str, args: &[Node<'t>], name: &str) -> Option<Node<'t>> {
    args.iter().find_map(|a| {
        let named = a.child_by_field_name("name").map(|n| &src[n.byte_range()]);
        (named == Some(name)).then(|| a.child_by_field_name("value"))?
    })
}

/// The name a decorator calls or is: `slow` of `@slow` and `@slow(…)`.
fn python_decorator_head(decorator: Node<'_>) -> Option<Node<'_>> {
    let head = decorator.named_child(0)?;
    let head = match head.kind() {
        "call" => head.child_by_field_name("function")?,
        _ => head,
    };
    (head.kind() == "identifier").then_some(head)
}

/// `__name__ == "__main__"`, either way round, either quotes.
fn python_main_guard(condition: &str) -> bool {
    let bare: String = condition
        .chars()
        .filter(|c| !c.is_whitespace() && !matches!(c, '"' | '\'' | '(' | ')'))
        .collect();
    bare == "__name__==__main__" || bare == "__main__==__name__"
}

/// Whether a statement of a Python module calls `os._exit(…)` under any name
/// the module was imported as, `__import__('os')._exit(…)`, `pytest.exit(…)`,
/// or a bare `exit(…)`, `quit(…)`, `_exit(…)`; or raises `SystemExit`.
fn python_exit(src: &str, statement: Node<'_>) -> bool {
    if statement.kind() == "raise_statement" {
        let raised = statement.named_child(0).map(|r| &src[r.byte_range()]);
        let name = raised.map(|r| r.split('(').next().unwrap_or(r).trim());
        return name == Some("SystemExit");
    }
    let Some(f) = statement
        .named_child(0)
        .filter(|c| c.kind() == "call")
        .and_then(|c| c.child_by_field_name("function"))
    else {
        return false;
    };
    let text = |n: Node<'_>| &src[n.byte_range()];
    match f.kind() {
        "identifier" => matches!(text(f), "exit" | "quit" | "_exit"),
        "attribute" => {
            let (Some(object), Some(name)) = (
                f.child_by_field_name("object"),
                f.child_by_field_name("attribute"),
            ) else {
                return false;
            };
            let imported = object.kind() == "call"
                && object
                    .child_by_field_name("function")
                    .is_some_and(|g| text(g) == "__import__");
            let exit = matches!(text(name), "exit" | "_exit");
            (exit && (object.kind() == "identifier" || imported))
                || (text(object) == "pytest" && text(name) == "exit")
        }
        _ => false,
    }
}

/// Whether a Python body yields for itself: a `yield` not inside a function,
/// class or lambda nested in it.
fn yields(body: Node<'_>) -> bool {
    pruned(body, |kind| {
        matches!(kind, "function_definition" | "class_definition" | "lambda")
    })
    .any(|n| n.kind() == "yield")
}

/// The callbacks passed to a JavaScript test case (`it('a', () => { … })`).
fn js_callbacks(case: Node<'_>) -> Vec<Node<'_>> {
    let Some(args) = case.child_by_field_name("arguments") else {
        return Vec::new();
    };
    let mut cursor = args.walk();
    args.named_children(&mut cursor)
        .filter(|a| matches!(a.kind(), "arrow_function" | "function_expression"))
        .collect()
}

/// Whether the first `return` among the statements of `body` itself has one of
/// `assertions` after it. What the `return` gives back (a promise whose `then`
/// asserts) is not after it; a `return` in a branch, loop or nested function is
/// no statement of the body.
fn returns_early(body: Node<'_>, assertions: &[Assertion]) -> bool {
    // Go's grammar puts a block's statements in a list of their own.
    let body = match body.named_child(0) {
        Some(list) if list.kind() == "statement_list" => list,
        _ => body,
    };
    let mut cursor = body.walk();
    let first = body.named_children(&mut cursor).find(|s| {
        let node = match s.kind() {
            "expression_statement" => s.named_child(0),
            _ => Some(*s),
        };
        node.is_some_and(|n| matches!(n.kind(), "return_statement" | "return_expression"))
    });
    first.is_some_and(|r| assertions.iter().any(|a| a.span.start >= r.end_byte()))
}

/// Whether a `macro_rules!` has arms and each expands to code that calls nothing
/// that could fail: no word before a `!` or a `(` (`($($t:tt)*) => {}`,
/// `($a:expr) => { $a }`) but calls that take their operands and fail nothing
/// (`drop((&$a, &$b))`, `println!(…)`).
fn hollow(src: &str, def: Node<'_>) -> bool {
    /// Calls that take their operands and can fail no test.
    const CHECKS_NOTHING: &[&str] = &[
        "drop",
        "forget",
        "black_box",
        "identity",
        "print",
        "println",
        "eprint",
        "eprintln",
        "format",
        "format_args",
        "dbg",
    ];
    let mut arms = 0;
    let mut cursor = def.walk();
    for rule in def.named_children(&mut cursor) {
        if rule.kind() != "macro_rule" {
            continue;
        }
        let Some(expansion) = rule.child_by_field_name("right") else {
            return false;
        };
        let leaves: Vec<&str> = preorder(expansion)
            .filter(|n| n.child_count() == 0 && !n.kind().contains("comment"))
            .map(|n| &src[n.byte_range()])
            .collect();
        // A metavariable (`$f(…)`) is a word; a repetition's `$(` is not.
        let word = |t: &str| {
            t.trim_start_matches('$')
                .starts_with(|c: char| c.is_alphabetic() || c == '_')
        };
        if leaves
            .windows(2)
            .any(|w| word(w[0]) && matches!(w[1], "!" | "(") && !CHECKS_NOTHING.contains(&w[0]))
        {
            return false;
        }
        arms += 1;
    }
    arms > 0
}

/// How many tests a `macro_rules!` writes (`#[test]`, then `fn` with anything
/// between, then the body in braces) return before an assertion: a macro's
/// expansion is tokens to the grammar, so its tests are read by their tokens.
fn macro_tests_returning(src: &str, def: Node<'_>) -> usize {
    let mut count = 0;
    for tree in preorder(def).filter(|n| n.kind() == "token_tree") {
        let kids = kids_all(tree);
        let (mut test, mut in_fn) = (false, false);
        for (k, kid) in kids.iter().enumerate() {
            let t = &src[kid.byte_range()];
            if t == "#" {
                test = test
                    || kids.get(k + 1).is_some_and(|a| {
                        let a = &src[a.byte_range()];
                        let a = a.trim_start_matches('[').trim_end_matches(']').trim();
                        a == "test" || a.ends_with("::test")
                    });
            } else if t == "fn" {
                (in_fn, test) = (test, false);
            } else if in_fn && kid.kind() == "token_tree" && t.starts_with('{') {
                count += usize::from(tokens_return_early(src, *kid));
                in_fn = false;
            }
        }
    }
    count
}

/// Whether the body `{ … }` of a test in a macro's tokens has a `return` starting
/// a statement of its own and an assertion macro after that statement's `;`.
fn tokens_return_early(src: &str, body: Node<'_>) -> bool {
    let kids = kids_all(body);
    let text = |n: &Node<'_>| &src[n.byte_range()];
    let mut start = true;
    let Some(at) = kids.iter().position(|kid| {
        let t = text(kid);
        let found = start && t == "return";
        start = t == ";" || t.starts_with('{');
        found
    }) else {
        return false;
    };
    let Some(end) = kids[at..].iter().find(|k| text(k) == ";") else {
        return false;
    };
    let leaves: Vec<&str> = preorder(body)
        .filter(|n| n.child_count() == 0 && n.start_byte() >= end.end_byte())
        .map(|n| &src[n.byte_range()])
        .collect();
    leaves
        .windows(2)
        .any(|w| (w[0].starts_with("assert") || w[0].starts_with("debug_assert")) && w[1] == "!")
}

/// Whether `then` holds a bare `return` and nothing else.
fn bare_return(then: Node<'_>) -> bool {
    let mut node = then;
    for _ in 0..8 {
        match node.kind() {
            "return_statement" | "return_expression" => {
                return node.named_child_count() == 0;
            }
            "block" | "statement_block" | "statement_list" | "expression_statement" => {
                match kids(node)[..] {
                    [only] => node = only,
                    _ => return false,
                }
            }
            _ => return false,
        }
    }
    false
}

fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

/// The name of a Go function's `*testing.T` parameter.
fn go_testing_param<'s>(src: &'s str, func: Node<'_>) -> Option<&'s str> {
    let params = func.child_by_field_name("parameters")?;
    let mut cursor = params.walk();
    for p in params.named_children(&mut cursor) {
        let (Some(ty), Some(name)) = (p.child_by_field_name("type"), p.child_by_field_name("name"))
        else {
            continue;
        };
        if src[ty.byte_range()].replace(' ', "") == "*testing.T" {
            return Some(&src[name.byte_range()]);
        }
    }
    None
}

/// `(t, Errorf)` of `t.Errorf(…)`.
fn go_method<'s>(src: &'s str, call: Node<'_>) -> Option<(&'s str, &'s str)> {
    let f = call.child_by_field_name("function")?;
    if f.kind() != "selector_expression" {
        return None;
    }
    let operand = f.child_by_field_name("operand")?;
    let field = f.child_by_field_name("field")?;
    (operand.kind() == "identifier").then(|| (&src[operand.byte_range()], &src[field.byte_range()]))
}

/// Whether a Go call is a library's or a builder's check that is no method of
/// the test's `t` (`c.Assert(…)`, `qt.Check(t, …)`, `Expect(x)`, `g.Expect(x)`):
/// [`super::go_library_check`] reads its name and receiver.
fn go_check(src: &str, call: Node<'_>) -> bool {
    let Some(f) = call.child_by_field_name("function") else {
        return false;
    };
    match f.kind() {
        "identifier" => super::go_library_check(&src[f.byte_range()], None, false),
        "selector_expression" => {
            let field = f.child_by_field_name("field").map(|n| &src[n.byte_range()]);
            let operand = f
                .child_by_field_name("operand")
                .filter(|o| o.kind() == "identifier")
                .map(|o| &src[o.byte_range()]);
            field.is_some_and(|name| super::go_library_check(name, operand, true))
        }
        _ => false,
    }
}

/// A conditional skip's `condition` as the one it skips under: `runIf(c)`
/// and `skipUnless(c)` skip where `c` fails, read as `c`'s negation in the
/// grammar's normal form of one.
fn skipped_when(word: &str, condition: String) -> String {
    match word {
        "runIf" => format!("(unary_expression ! {condition})"),
        "skipUnless" => format!("(not_operator not {condition})"),
        _ => condition,
    }
}

/// The condition of the innermost `if` around `node` inside `within`, found on
/// the way down from `within` (tree-sitter finds a parent from the tree's root,
/// past every sibling on the way: in a file of many tests, a walk up is
/// quadratic).
fn enclosing_if<'t>(node: Node<'t>, within: Node<'t>) -> Option<Node<'t>> {
    let mut at = within;
    let mut found = None;
    while let Some(next) = at
        .child_with_descendant(node)
        .filter(|n| n.id() != node.id())
    {
        match next.kind() {
            "if_statement" => found = next.child_by_field_name("condition"),
            // A switch's case is a condition too (`case "windows", "plan9":`), a
            // rewrite staticcheck suggests for an `if` (helper 90's).
            "expression_case" | "type_case" => {
                found = next.child_by_field_name("value").or(Some(next));
            }
            _ => {}
        }
        at = next;
    }
    found
}

/// Python's assertions in `node`: `assert` statements and calls of an `assert…`
/// method or function, `pytest.raises`, `pytest.warns`, `pytest.fail`; not those
/// no run reaches (see [`python_never_runs`]).
fn python_assertions<'t>(src: &str, node: Node<'t>) -> Vec<Node<'t>> {
    let mut dead: Vec<std::ops::Range<usize>> = Vec::new();
    let mut out: Vec<Node<'t>> = Vec::new();
    for n in preorder(node) {
        if let Some(range) = python_never_runs(src, node, n) {
            dead.push(range);
        }
        let assertion = match n.kind() {
            "assert_statement" => true,
            "call" => n.child_by_field_name("function").is_some_and(|f| {
                let t = &src[f.byte_range()];
                let last = t.rsplit('.').next().unwrap_or(t);
                // `pytest.warns(None)` records warnings and checks none.
                let first = n
                    .child_by_field_name("arguments")
                    .and_then(|a| a.named_child(0));
                let nothing = t == "pytest.warns" && first.is_some_and(|a| a.kind() == "none");
                // pytester's checks of a run's output fail as an `assert` does.
                let matcher = matches!(
                    last,
                    "fnmatch_lines" | "re_match_lines" | "no_fnmatch_line" | "no_re_match_line"
                );
                last.starts_with("assert")
                    || matcher
                    || (matches!(t, "pytest.raises" | "pytest.warns" | "pytest.fail") && !nothing)
            }),
            _ => false,
        };
        if assertion {
            out.push(n);
        }
    }
    let dead = super::Spans::new(dead);
    out.retain(|a| !dead.holds(a.start_byte()));
    out
}

/// The bytes of what no run reaches at `n` in `within`: the branch of an
/// `if`/`elif`/`while` whose condition is a literal that never holds (`if
/// False:`, `while 0:`, `if not True:`), or a lambda thrown away where it is
/// made (`_ = lambda: …`, `_check = (lambda: …)`): bound to a name starting with
/// `_` that nothing in `within` names after (`_` only called), nothing calls it.
fn python_never_runs(src: &str, within: Node<'_>, n: Node<'_>) -> Option<std::ops::Range<usize>> {
    let text = |n: Node<'_>| &src[n.byte_range()];
    match n.kind() {
        "if_statement" | "elif_clause" | "while_statement" => {
            let branch = match n.kind() {
                "while_statement" => n.child_by_field_name("body")?,
                _ => n.child_by_field_name("consequence")?,
            };
            let condition = n.child_by_field_name("condition")?;
            (super::folded(src, condition) == Some(false)).then(|| branch.byte_range())
        }
        "assignment" => {
            let name = n
                .child_by_field_name("left")
                .filter(|l| l.kind() == "identifier")?;
            let mut value = n.child_by_field_name("right")?;
            while value.kind() == "parenthesized_expression" {
                value = value.named_child(0)?;
            }
            let name = text(name);
            if value.kind() != "lambda" || !name.starts_with('_') {
                return None;
            }
            let named_after = preorder(within).any(|m| {
                m.kind() == "identifier"
                    && m.start_byte() >= n.end_byte()
                    && text(m) == name
                    && (name != "_"
                        || m.next_sibling()
                            .is_some_and(|s| s.kind() == "argument_list"))
            });
            (!named_after).then(|| n.byte_range())
        }
        _ => None,
    }
}

/// JavaScript's assertions in `node`: the outermost link of each chain that
/// checks: a call rooted at `assert` or `assertType`, or a chain through a call
/// of `expect(…)` (`expect.poll(…)`, `expect.soft(…)`, `expectTypeOf(…)`) that
/// may end in chai's property (`expect(x).to.exist`), but not an asymmetric
/// matcher (`expect.any(String)`) inside another's arguments; and a wait for a
/// condition (`waitFor(…)`, `vi.waitFor(…)`, `untilReady(…)`) that holds no
/// check of its own, which fails when the condition never comes; and a
/// testing-library query that throws standing alone ([`js_throwing_query`]).
/// Found from the
/// top down: asking a node for its parent walks from the root, so once per
/// call would be quadratic.
/// Whether `call` is the whole of a `catch` clause that fails the test on the
/// error it caught (`catch (err) { assert.ifError(err) }`, `t.error(err)`,
/// `assert.fail(err)`): what the runner does with an error nobody catches, so
/// no check of its own. The `try` taken off with it, the call left bare, loses
/// nothing (fs-extra `08d7d3aa`).
fn js_fails_on_catch(src: &str, call: Node<'_>) -> bool {
    let statement = call.parent().filter(|p| p.kind() == "expression_statement");
    let body = statement
        .and_then(|s| s.parent())
        .filter(|b| b.kind() == "statement_block");
    let Some(clause) = body
        .and_then(|b| b.parent())
        .filter(|c| c.kind() == "catch_clause")
    else {
        return false;
    };
    let Some(param) = clause.child_by_field_name("parameter") else {
        return false;
    };
    let mut walk = body.map(|b| b.walk());
    let alone = match (body, walk.as_mut()) {
        (Some(b), Some(w)) => {
            b.named_children(w)
                .filter(|c| c.kind() != "comment")
                .count()
                == 1
        }
        _ => false,
    };
    let callee = call
        .child_by_field_name("function")
        .map(|f| &src[f.byte_range()]);
    let args = call.child_by_field_name("arguments");
    let mut w = args.map(|a| a.walk());
    let passes_error = match (args, w.as_mut()) {
        (Some(a), Some(w)) => {
            let given: Vec<&str> = a.named_children(w).map(|c| &src[c.byte_range()]).collect();
            given.first() == Some(&&src[param.byte_range()])
        }
        _ => false,
    };
    alone
        && passes_error
        && callee.is_some_and(|c| {
            matches!(
                c.rsplit('.').next(),
                Some("ifError" | "error" | "fail" | "ifErr")
            ) && c.contains('.')
        })
}

fn js_assertions<'t>(src: &str, node: Node<'t>) -> Vec<Node<'t>> {
    let mut inner = std::collections::HashSet::new();
    let mut links = Vec::new();
    let mut dead: Vec<std::ops::Range<usize>> = Vec::new();
    // The calls standing as statements of their own, awaited or not.
    let mut alone = std::collections::HashSet::new();
    for n in preorder(node) {
        if let Some(body) = js_never_runs(src, n) {
            dead.push(body);
        }
        if n.kind() == "expression_statement" {
            let call = n.named_child(0).and_then(|e| match e.kind() {
                "await_expression" => e.named_child(0),
                _ => Some(e),
            });
            alone.extend(call.map(|c| c.id()));
        }
        let below = match n.kind() {
            "call_expression" => n.child_by_field_name("function"),
            "member_expression" => n.child_by_field_name("object"),
            _ => continue,
        };
        links.push(n);
        if let Some(b) =
            below.filter(|b| matches!(b.kind(), "call_expression" | "member_expression"))
        {
            inner.insert(b.id());
        }
    }
    let tops: Vec<Node<'t>> = links
        .into_iter()
        .filter(|c| !inner.contains(&c.id()))
        .collect();
    let checks: Vec<Node<'t>> = tops
        .iter()
        .copied()
        .filter(|top| {
            (js_check(src, *top) || alone.contains(&top.id()) && js_throwing_query(src, *top))
                && !js_fails_on_catch(src, *top)
        })
        .collect();
    // Whether a wait holds a check, by a binary search of where the checks start:
    // asking each check of each wait was quadratic (helper 65's review).
    let mut starts: Vec<usize> = checks.iter().map(Node::start_byte).collect();
    starts.sort_unstable();
    let holds_check = |top: &Node<'_>| {
        let from = starts.partition_point(|&s| s < top.start_byte());
        starts.get(from).is_some_and(|&s| s < top.end_byte())
    };
    let waits = tops
        .into_iter()
        .filter(|top| top.kind() == "call_expression" && js_wait(src, *top) && !holds_check(top));
    let mut out: Vec<Node<'t>> = checks.iter().copied().chain(waits).collect();
    let dead = super::Spans::new(dead);
    out.retain(|a| !dead.holds(a.start_byte()));
    out.sort_by_key(|n| n.start_byte());
    out
}

/// The bytes of the branch of an `if`/`while` whose condition is a literal
/// that never holds (`if (false)`, `if (0)`, `while (!true)`): no run reaches
/// what it asserts.
fn js_never_runs(src: &str, n: Node<'_>) -> Option<std::ops::Range<usize>> {
    let branch = match n.kind() {
        "if_statement" => n.child_by_field_name("consequence")?,
        "while_statement" => n.child_by_field_name("body")?,
        _ => return None,
    };
    let condition = n.child_by_field_name("condition")?;
    (super::folded(src, condition) == Some(false)).then(|| branch.byte_range())
}

/// A branch of a condition other than an `if`'s ([`Reader::short_circuit`],
/// [`Reader::switch_cases`]): its bytes, its condition in normal form and in
/// words, and whether it runs where the condition fails.
type Branch = (std::ops::Range<usize>, String, String, bool);

/// AVA's and tap's checks, called on the test's `t` (`t.is(a, b)`,
/// `t.same(a, b)`): not `t.plan`, `t.end`, `t.pass` or `t.teardown`, nor
/// `t.fail` (a callback that must not run, often passed as one: `createServer(
/// t.fail)`) or tap's `t.ok`/`t.notOk`, which with `t.plan` mark a path reached
/// as often as they check a value (fastify's `t.ok('onSend called')`).
const T_CHECKS: [&str; 25] = [
    "is",
    "not",
    "deepEqual",
    "notDeepEqual",
    "like",
    "truthy",
    "falsy",
    "true",
    "false",
    "regex",
    "notRegex",
    "throws",
    "throwsAsync",
    "notThrows",
    "notThrowsAsync",
    "snapshot",
    "equal",
    "same",
    "notSame",
    "strictSame",
    "match",
    "notMatch",
    "rejects",
    "resolves",
    "error",
];

/// Whether the chain whose outermost link is `top` checks (see [`js_assertions`]).
fn js_check(src: &str, top: Node<'_>) -> bool {
    let on_t = (top.kind() == "call_expression")
        .then(|| top.child_by_field_name("function"))
        .flatten()
        .filter(|f| f.kind() == "member_expression")
        .is_some_and(|f| {
            let text = |n: Option<Node<'_>>| n.map(|n| &src[n.byte_range()]);
            text(f.child_by_field_name("object")) == Some("t")
                && text(f.child_by_field_name("property")).is_some_and(|p| T_CHECKS.contains(&p))
        });
    if on_t {
        return true;
    }
    let mut node = top;
    let mut expects = false;
    let mut asserts = false;
    for _ in 0..64 {
        node = match node.kind() {
            "call_expression" => {
                let Some(f) = node.child_by_field_name("function") else {
                    return false;
                };
                let head = match f.kind() {
                    "identifier" => Some(&src[f.byte_range()]),
                    "member_expression" => f
                        .child_by_field_name("property")
                        .filter(|_| {
                            f.child_by_field_name("object")
                                .is_some_and(|o| &src[o.byte_range()] == "expect")
                        })
                        .map(|p| &src[p.byte_range()]),
                    _ => None,
                };
                expects |= matches!(head, Some("expect" | "expectTypeOf" | "poll" | "soft"));
                f
            }
            "member_expression" => {
                // node:test's context assertions: `t.assert.ok(…)`.
                let property = node.child_by_field_name("property");
                asserts |= property.is_some_and(|p| &src[p.byte_range()] == "assert");
                match node.child_by_field_name("object") {
                    Some(o) => o,
                    None => return false,
                }
            }
            "identifier" => {
                let root = &src[node.byte_range()];
                let called = top.kind() == "call_expression";
                return match root {
                    "assert" | "assertType" => called,
                    _ if asserts => called,
                    "expect" | "expectTypeOf" => expects,
                    _ => false,
                };
            }
            _ => return false,
        };
    }
    false
}

/// Whether the call `top` is a testing-library query that throws when nothing
/// matches (`rendered.getByText('x')`, `await screen.findByRole('button')`,
/// `getAllByTestId('row')`). Standing as a statement of its own, its value
/// unread, it is there to fail the test; `queryBy…` returns null instead and
/// fails nothing.
fn js_throwing_query(src: &str, top: Node<'_>) -> bool {
    if top.kind() != "call_expression" {
        return false;
    }
    let name = js_callee_name(top);
    let queried = top
        .child_by_field_name("arguments")
        .is_some_and(|a| a.named_child_count() > 0);
    queried
        && name.is_some_and(|n| {
            let t = &src[n.byte_range()];
            ["getBy", "getAllBy", "findBy", "findAllBy"]
                .iter()
                .any(|q| {
                    t.strip_prefix(q)
                        .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_uppercase()))
                })
        })
}

/// The name a JavaScript call calls: the function's (`waitFor`), or the
/// method's (`screen.getByText`).
fn js_callee_name(call: Node<'_>) -> Option<Node<'_>> {
    call.child_by_field_name("function")
        .and_then(|f| match f.kind() {
            "member_expression" => f.child_by_field_name("property"),
            "identifier" => Some(f),
            _ => None,
        })
}

/// Whether `call` waits for a condition: its callee's name, or the method's,
/// starts `until` or `waitFor`.
fn js_wait(src: &str, call: Node<'_>) -> bool {
    let name = js_callee_name(call);
    name.is_some_and(|n| {
        let t = &src[n.byte_range()];
        t.starts_with("until") || t.starts_with("waitFor")
    })
}

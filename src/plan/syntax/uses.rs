//! What a file names and calls, the functions in it nothing calls, the names it
//! patches, the rows of its tables and the harnesses it exports, read from its
//! tree: a string, a comment, a regex or a raw string cannot hide a name or make
//! one up, as they could for a hand tokenizer.

use std::collections::HashMap;
use std::ops::Range;

use tree_sitter::Node;

use super::resolved::{constant, falsy};
use super::{Exported, Grammar, Spans, Uses, kids, parse, preorder};

/// Each word of `text` (a name or a keyword) outside strings and comments, in
/// order, with whether a `(` comes right after it; none past the cap.
pub fn words(grammar: Grammar, text: &str) -> Vec<(&str, bool)> {
    parse(grammar, text).map_or_else(Vec::new, |tree| {
        words_in(text, tree.root_node(), &Spans::default())
    })
}

/// A string or a regex: one token, whose words are none of the code's.
fn quoted(kind: &str) -> bool {
    matches!(
        kind,
        "string"
            | "template_string"
            | "regex"
            | "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "interpreted_string_literal"
            | "rune_literal"
    )
}

fn is_word(text: &str) -> bool {
    let word = |c: char| c == '_' || c.is_ascii_alphanumeric() || !c.is_ascii();
    text.chars().next().is_some_and(|c| !c.is_ascii_digit()) && text.chars().all(word)
}

/// [`words`] of the tree at `root`, those in `left_out` left out.
fn words_in<'s>(src: &'s str, root: Node<'_>, left_out: &Spans) -> Vec<(&'s str, bool)> {
    let mut out: Vec<(&'s str, bool)> = Vec::new();
    // Bytes before `past` are a string's already read as one token.
    let mut past = 0;
    let mut after_word = false;
    for node in preorder(root) {
        let kind = node.kind();
        let whole = quoted(kind);
        let empty = node.start_byte() == node.end_byte();
        if node.start_byte() < past || (node.child_count() > 0 && !whole) || empty {
            continue;
        }
        past = node.end_byte();
        if kind.contains("comment") || left_out.holds(node.start_byte()) {
            continue;
        }
        let text = &src[node.byte_range()];
        if after_word
            && text == "("
            && let Some(last) = out.last_mut()
        {
            last.1 = true;
        }
        after_word = !whole && is_word(text);
        if after_word {
            out.push((text, false));
        }
    }
    out
}

/// What [`Uses`] holds of the tree at `root`; `generated` (Rust's quoted code)
/// names nothing and defines nothing of this file.
pub(super) fn read(g: Grammar, src: &str, root: Node<'_>, generated: &Spans) -> Uses {
    let (cases, tables) = cases(g, src, root);
    Uses {
        uncalled: uncalled(g, src, root, generated),
        patched: patched(g, src, root),
        cases,
        tables,
        harnesses: match g.is_js() {
            true => harnesses(g, src, root),
            false => Vec::new(),
        },
    }
}

/// Names a Python runner calls without the file naming them: unittest's and
/// pytest's set-up and tear-down (nose's `setup` and `teardown` too),
/// `runTest`, `load_tests`.
pub(super) const PYTHON_HOOKS: [&str; 20] = [
    "setup",
    "teardown",
    "setUp",
    "tearDown",
    "setUpClass",
    "tearDownClass",
    "setUpModule",
    "tearDownModule",
    "asyncSetUp",
    "asyncTearDown",
    "setup_method",
    "teardown_method",
    "setup_function",
    "teardown_function",
    "setup_module",
    "teardown_module",
    "setup_class",
    "teardown_class",
    "runTest",
    "load_tests",
];

/// The functions and classes that nothing in the file names and no runner calls
/// on its own ([`Uses::uncalled`]), outermost first: one inside another nothing
/// calls is that one's.
fn uncalled(
    g: Grammar,
    src: &str,
    root: Node<'_>,
    generated: &Spans,
) -> Vec<(String, Range<usize>)> {
    let mut named: HashMap<&str, usize> = HashMap::new();
    for (word, _) in words_in(src, root, generated) {
        *named.entry(word).or_default() += 1;
    }
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if let Some(name) = never_called(g, src, node, &named) {
            out.push((name.to_string(), node.byte_range()));
            continue;
        }
        let mut cursor = node.walk();
        let children: Vec<Node<'_>> = node.children(&mut cursor).collect();
        stack.extend(children.into_iter().rev());
    }
    out
}

/// The name of the function or class `node` defines, when nothing in the file
/// names it and no runner calls it on its own: not a test, a runner's hook, a
/// decorated or exported definition, a method of an `impl`, or a test class a
/// runner collects.
fn never_called<'s>(
    g: Grammar,
    src: &'s str,
    node: Node<'_>,
    named: &HashMap<&str, usize>,
) -> Option<&'s str> {
    let kind = node.kind();
    let definition = match g {
        Grammar::Python => matches!(kind, "function_definition" | "class_definition"),
        Grammar::Rust => kind == "function_item",
        _ => kind == "function_declaration",
    };
    if !definition {
        return None;
    }
    let name = &src[node.child_by_field_name("name")?.byte_range()];
    if named.get(name).copied().unwrap_or(0) > 1 {
        return None;
    }
    let parent = node.parent().map_or("", |p| p.kind());
    let runs = match (g, kind) {
        (Grammar::Python, "function_definition") => {
            name.starts_with("test")
                || name.starts_with("pytest_")
                || (name.starts_with("__") && name.ends_with("__"))
                || PYTHON_HOOKS.contains(&name)
                || decorated(src, node)
        }
        // A class with a base may be a test case's subclass, under any name.
        (Grammar::Python, _) => {
            let plain = node
                .child_by_field_name("superclasses")
                .is_none_or(|bases| kids(bases).iter().all(|b| &src[b.byte_range()] == "object"));
            name.starts_with("Test") || !plain || decorated(src, node)
        }
        (Grammar::Rust, _) => {
            // A trait calls a method of its `impl` by its own name (`drop`, `fmt`).
            let in_impl = parent == "declaration_list"
                && node
                    .parent()
                    .and_then(|p| p.parent())
                    .is_some_and(|p| matches!(p.kind(), "impl_item" | "trait_item"));
            name == "main" || in_impl || runner_attributes(src, node)
        }
        (Grammar::Go, _) => {
            ["Test", "Benchmark", "Example", "Fuzz"]
                .iter()
                .any(|p| name.starts_with(p))
                || matches!(name, "init" | "main")
        }
        _ => parent == "export_statement",
    };
    (!runs).then_some(name)
}

/// Whether a Python definition has a decorator that may call it or hand it to a
/// runner (a fixture, a registration): any but `@staticmethod` and `@classmethod`.
fn decorated(src: &str, node: Node<'_>) -> bool {
    let Some(parent) = node.parent().filter(|p| p.kind() == "decorated_definition") else {
        return false;
    };
    let mut cursor = parent.walk();
    let mut children = parent.named_children(&mut cursor);
    children.any(|d| {
        let word = src[d.byte_range()].trim_start_matches(['@', ' ', '\t']);
        let word = word
            .split(|c: char| !(c == '_' || c.is_alphanumeric()))
            .next();
        d.kind() == "decorator" && !matches!(word, Some("staticmethod" | "classmethod"))
    })
}

/// Whether a Rust function has an attribute that may hand it to a runner
/// (`#[test]`, `#[rstest]`, a fixture's): any but the lints', docs' and codegen's.
fn runner_attributes(src: &str, node: Node<'_>) -> bool {
    const QUIET: [&str; 11] = [
        "allow",
        "expect",
        "warn",
        "deny",
        "forbid",
        "doc",
        "inline",
        "must_use",
        "track_caller",
        "cold",
        "cfg",
    ];
    let mut before = node.prev_sibling();
    while let Some(b) = before {
        match b.kind() {
            "attribute_item" => {
                let inner = src[b.byte_range()].trim_start_matches(['#', '[', ' ']);
                let word = inner
                    .split(|c: char| !(c == '_' || c.is_alphanumeric()))
                    .next();
                if !word.is_some_and(|w| QUIET.contains(&w)) {
                    return true;
                }
            }
            "line_comment" | "block_comment" => {}
            _ => return false,
        }
        before = b.prev_sibling();
    }
    false
}

/// The callee of a call: its name and the name right before its `.`, when a
/// name: `mock.patch(…)` gives `patch` and `mock`.
fn callee<'s>(src: &'s str, call: Node<'_>) -> Option<(&'s str, Option<&'s str>)> {
    let f = call.child_by_field_name("function")?;
    let text = |n: Node<'_>| &src[n.byte_range()];
    let (name, object) = match f.kind() {
        "identifier" => return Some((text(f), None)),
        "attribute" => (
            f.child_by_field_name("attribute")?,
            f.child_by_field_name("object")?,
        ),
        "member_expression" => (
            f.child_by_field_name("property")?,
            f.child_by_field_name("object")?,
        ),
        _ => return None,
    };
    let last = match object.kind() {
        "identifier" => Some(object),
        "attribute" => object.child_by_field_name("attribute"),
        "member_expression" => object.child_by_field_name("property"),
        _ => None,
    };
    Some((text(name), last.map(text)))
}

/// Names the file patches (`monkeypatch.setattr(calc, "add", …)`,
/// `mock.patch("calc.add")`, `vi.spyOn(calc, 'add')`): the last part of each
/// string given to a patching call; and a JavaScript `expect` or `assert` the
/// file defines for itself. Sorted, each once.
fn patched(g: Grammar, src: &str, root: Node<'_>) -> Vec<String> {
    let calls = preorder(root).filter(|n| matches!(n.kind(), "call" | "call_expression"));
    let given = calls.filter_map(|call| {
        let (name, recv) = callee(src, call)?;
        let patching = match g {
            Grammar::Python => {
                name == "setattr"
                    || (name == "patch" && recv != Some("self"))
                    || (name == "object" && recv == Some("patch"))
            }
            _ if g.is_js() => name == "spyOn" && matches!(recv, Some("vi" | "jest")),
            _ => false,
        };
        patching.then(|| call.child_by_field_name("arguments"))?
    });
    // The arguments merged first, so a string in patching calls nested deep is
    // read once, not once per call around it.
    let given = Spans::new(given.map(|args| args.byte_range()).collect::<Vec<_>>());
    let mut names: Vec<String> = Vec::new();
    let strings = preorder(root).filter(|n| matches!(n.kind(), "string" | "template_string"));
    for lit in strings.filter(|n| given.holds(n.start_byte())) {
        // Inside the quotes, a prefix (`f`, `r`) left out.
        let text = src[lit.byte_range()].trim_start_matches(|c: char| c.is_ascii_alphabetic());
        let inner = text.get(1..text.len().saturating_sub(1)).unwrap_or("");
        let last = inner.rsplit('.').next().unwrap_or("");
        if !last.is_empty()
            && last.len() < 80
            && last.bytes().all(|c| c == b'_' || c.is_ascii_alphanumeric())
        {
            names.push(last.to_string());
        }
    }
    // JavaScript's check itself defined in the file (`const expect = () => …`,
    // `function assert() {}`), assigned (`globalThis.expect = …`) or taken
    // from a literal (`const { expect } = { expect: … }`): every check through
    // it is the file's own. Taken from a library by name (`const expect =
    // chai.expect`, `require('assert')`) it is the library's.
    if g.is_js() {
        let defined = Own::of(src, root);
        for n in preorder(root) {
            let field = |f| n.child_by_field_name(f);
            let (target, value) = match n.kind() {
                "function_declaration" => (field("name"), Some(n)),
                "variable_declarator" => (field("name"), field("value")),
                "assignment_expression" => (field("left"), field("right")),
                _ => continue,
            };
            let own = value.is_some_and(|v| {
                matches!(
                    v.kind(),
                    "function_declaration"
                        | "arrow_function"
                        | "function_expression"
                        | "function"
                        | "object"
                        | "array"
                        | "class"
                )
            });
            let bound = target.filter(|_| own).map(preorder).into_iter().flatten();
            let checks: Vec<&str> = bound
                .filter(|t| t.kind().ends_with("identifier") || t.kind().ends_with("pattern"))
                .map(|t| &src[t.byte_range()])
                .filter(|t| matches!(*t, "expect" | "assert"))
                .collect();
            // One that can fail is a check of the file's own making (helper 73's
            // red team: `function assert(c) { if (!c) throw new Error() }`).
            if !checks.is_empty() && value.is_some_and(|v| !defined.can_fail(v)) {
                names.extend(checks.into_iter().map(str::to_string));
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// A JavaScript file's own functions by name, and whether each can fail a test.
struct Own<'s, 't> {
    src: &'s str,
    functions: HashMap<&'s str, Node<'t>>,
    /// By a definition's first byte; `false` while it is being read, so a
    /// definition that calls itself fails only by something else it does.
    known: std::cell::RefCell<HashMap<usize, bool>>,
    /// How many definitions deep the read is: a chain past [`OWN_DEPTH`] is
    /// read as one that cannot fail (a patch), never a stack overflow.
    depth: std::cell::Cell<usize>,
}

/// How deep a chain of the file's own functions is followed.
const OWN_DEPTH: usize = 32;

impl<'s, 't> Own<'s, 't> {
    fn of(src: &'s str, root: Node<'t>) -> Self {
        let mut functions = HashMap::new();
        for n in preorder(root) {
            let field = |f| n.child_by_field_name(f);
            let (name, value) = match n.kind() {
                "function_declaration" => (field("name"), Some(n)),
                "variable_declarator" => (field("name"), field("value")),
                _ => continue,
            };
            let function = value.filter(|v| {
                matches!(
                    v.kind(),
                    "function_declaration" | "arrow_function" | "function_expression" | "function"
                )
            });
            if let (Some(name), Some(f)) = (name.filter(|n| n.kind() == "identifier"), function) {
                // The last definition is the one a call reaches.
                functions.insert(&src[name.byte_range()], f);
            }
        }
        Own {
            src,
            functions,
            known: Default::default(),
            depth: Default::default(),
        }
    }

    /// Whether a definition can fail a test: a `throw` it reaches (not under a
    /// constant-false `if`, not after a `return`), a call of a function of the
    /// file's own that can fail, or a call of a check (a callee spelled with
    /// `assert` or `expect` that the file does not define, given something
    /// other than constants); and no `catch` on the way. Helper 73's and this
    /// stop's red teams: a callee spelled `assertNothing` that does nothing, a
    /// `throw` under `if (false)`.
    fn can_fail(&self, definition: Node<'t>) -> bool {
        let key = definition.start_byte();
        if let Some(known) = self.known.borrow().get(&key) {
            return *known;
        }
        if self.depth.get() >= OWN_DEPTH {
            return false;
        }
        self.known.borrow_mut().insert(key, false);
        self.depth.set(self.depth.get() + 1);
        let fails = self.reads_failing(definition);
        self.depth.set(self.depth.get() - 1);
        self.known.borrow_mut().insert(key, fails);
        fails
    }

    fn reads_failing(&self, definition: Node<'t>) -> bool {
        let src = self.src;
        let mut fails = false;
        let mut walk = vec![definition];
        while let Some(n) = walk.pop() {
            let condition = n.child_by_field_name("condition");
            match n.kind() {
                "catch_clause" => return false,
                "throw_statement" => fails = true,
                "if_statement" if condition.is_some_and(|c| falsy(src, c)) => {
                    walk.extend(n.child_by_field_name("alternative"));
                    continue;
                }
                "call_expression" => fails |= self.call_can_fail(n),
                _ => {}
            }
            let children = kids(n);
            let reached = match n.kind() {
                "statement_block" => children
                    .iter()
                    .position(|c| c.kind() == "return_statement")
                    .map_or(children.len(), |at| at + 1),
                _ => children.len(),
            };
            walk.extend(children[..reached].iter().rev());
        }
        fails
    }

    fn call_can_fail(&self, call: Node<'t>) -> bool {
        let Some(callee) = call.child_by_field_name("function") else {
            return false;
        };
        let text = &self.src[callee.byte_range()];
        let root = text.split(['.', '(', '[', '?']).next().unwrap_or("").trim();
        if let Some(own) = self.functions.get(root) {
            return self.can_fail(*own);
        }
        let lower = text.to_ascii_lowercase();
        // `console.assert` only logs; a bare `expect(c)` or `expectTypeOf(c)`
        // checks nothing until a matcher is called on it.
        let inert = lower == "console.assert" || lower == "expect" || lower == "expecttypeof";
        let check =
            lower.len() < 200 && !inert && (lower.contains("assert") || lower.contains("expect"));
        let args = call
            .child_by_field_name("arguments")
            .map(kids)
            .unwrap_or_default();
        // A check of constants alone passes every time (`assert(true)`), or
        // fails every time (`assert(false)`, `assert.fail()`), which fails.
        let folded: Vec<Option<i64>> = args.iter().map(|a| constant(self.src, *a)).collect();
        let always_passes = folded.iter().all(|v| v.is_some_and(|v| v != 0));
        check && (lower.ends_with("fail") || !always_passes)
    }
}

/// The list a table's rows are written in, from where an argument starts: the
/// argument itself or the bracket it opens with (`[…] + more`).
fn opening_list(node: Node<'_>) -> Option<Node<'_>> {
    let mut n = node;
    loop {
        if matches!(
            n.kind(),
            "list"
                | "tuple"
                | "parenthesized_expression"
                | "list_comprehension"
                | "generator_expression"
                | "array"
        ) {
            return Some(n);
        }
        n = n.child(0).filter(|c| c.start_byte() == n.start_byte())?;
    }
}

/// How many rows a table's list holds: its items, or one for a value in
/// brackets or a comprehension.
fn rows(node: Node<'_>) -> usize {
    match node.kind() {
        "parenthesized_expression" | "list_comprehension" | "generator_expression" => 1,
        _ => kids(node).len(),
    }
}

/// Rows of the tables that parametrized tests run on under `root`, and how many
/// tables: `@pytest.mark.parametrize`'s list, `test.each([…])`, a Go
/// `[]struct{…}{…}` table; Rust's `#[case(…)]`s are tests.
pub(super) fn cases<'t>(g: Grammar, src: &str, root: Node<'t>) -> (usize, usize) {
    let mut n = 0;
    let mut tables = 0;
    for node in preorder(root) {
        let args = |call: Node<'t>| call.child_by_field_name("arguments").map(kids);
        let table = match (g, node.kind()) {
            (Grammar::Python, "call")
                if callee(src, node).is_some_and(|c| c.0 == "parametrize") =>
            {
                args(node).and_then(|a| opening_list(*a.get(1)?))
            }
            (Grammar::Go, "composite_literal") => node
                .child_by_field_name("type")
                .filter(|t| t.kind() == "slice_type")
                .and_then(|t| t.child_by_field_name("element"))
                .filter(|e| e.kind() == "struct_type")
                .and_then(|_| node.child_by_field_name("body")),
            (_, "call_expression")
                if g.is_js() && callee(src, node).is_some_and(|c| c.0 == "each") =>
            {
                args(node)
                    .and_then(|a| opening_list(*a.first()?))
                    .filter(|l| l.kind() == "array")
            }
            _ => None,
        };
        if let Some(list) = table {
            n += rows(list);
            tables += 1;
        }
    }
    (n, tables)
}

/// Exported JavaScript functions (`export function commonTests() { test(…) }`,
/// `export const common = () => {…}`), each with its body and the table rows in
/// it: one that defines tests is a shared harness, whose tests run once per file
/// that calls it.
fn harnesses(g: Grammar, src: &str, root: Node<'_>) -> Vec<Exported> {
    let mut out: Vec<Exported> = Vec::new();
    for export in preorder(root).filter(|n| n.kind() == "export_statement") {
        // An export inside a function's body is no module's (a file that does not
        // parse): taken, each would read the rows of every one inside it again.
        if out.last().is_some_and(|h| export.start_byte() < h.body.end) {
            continue;
        }
        // `export default function` is imported under any name.
        let mut cursor = export.walk();
        let default = export.children(&mut cursor).any(|c| c.kind() == "default");
        let Some(declared) = export
            .child_by_field_name("declaration")
            .filter(|_| !default)
        else {
            continue;
        };
        let (name, body) = match declared.kind() {
            "function_declaration" => (
                declared.child_by_field_name("name"),
                declared.child_by_field_name("body"),
            ),
            "lexical_declaration" => {
                let mut cursor = declared.walk();
                let first = declared
                    .named_children(&mut cursor)
                    .find(|c| c.kind() == "variable_declarator");
                let name = first
                    .and_then(|d| d.child_by_field_name("name"))
                    .filter(|n| n.kind() == "identifier");
                let body = first
                    .and_then(|d| d.child_by_field_name("value"))
                    .and_then(|v| {
                        preorder(v)
                            .filter(|f| {
                                matches!(
                                    f.kind(),
                                    "arrow_function" | "function_expression" | "function"
                                )
                            })
                            .filter_map(|f| f.child_by_field_name("body"))
                            .find(|b| b.kind() == "statement_block")
                    });
                (name, body)
            }
            _ => continue,
        };
        let (Some(name), Some(body)) = (name, body) else {
            continue;
        };
        let (cases, tables) = cases(g, src, body);
        out.push(Exported {
            name: src[name.byte_range()].to_string(),
            body: body.start_byte() + 1..body.end_byte().saturating_sub(1),
            cases,
            tables,
        });
    }
    out
}

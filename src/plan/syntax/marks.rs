//! Rust's and Go's tests, assertions and skips as the weakened check counts them
//! ([`Marks`]), read from the tree. A Rust macro's arguments and `macro_rules!`
//! bodies are tokens to the grammar, so what they hold (an `assert_eq!` in a
//! `proptest!`, a `#[test]` a macro writes) is read from the parser's tokens
//! there: a name then `!`, a `#` then `[…]`, never from the text by hand.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::{Marked, Marker, Marks, Spans, Statement, go_library_check, kids, kids_all, preorder};

/// Macros whose tokens are code they generate: a `#[test]` in them tests nothing
/// here.
const QUOTING: [&str; 4] = [
    "quote",
    "quote_spanned",
    "parse_quote",
    "parse_quote_spanned",
];

/// The names Go tests give their `*testing.T` (or `B`, `TB`, `F`).
const GO_RECEIVERS: [&str; 5] = ["t", "b", "tb", "f", "tt"];

/// What a Go helper's name starts with, any case, when it is named for a check.
const GO_CHECK_WORDS: [&str; 10] = [
    "assert", "equal", "notequal", "panic", "notpanic", "check", "expect", "require", "verify",
    "validate",
];

/// Go's calls on a test's `t` that fail it.
pub(super) const GO_FAILS: [&str; 6] = ["Error", "Errorf", "Fatal", "Fatalf", "Fail", "FailNow"];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Word,
    Str,
    Open,
    Close,
    Semi,
    Comma,
    Other,
}

/// One of the parser's tokens: comments left out, a string literal whole.
struct Leaf {
    span: Range<usize>,
    class: Class,
    /// An opening bracket's group's end byte.
    group_end: usize,
}

/// The parser's tokens of a file, for what is counted in tokens: where a
/// statement ends (a `;`, its bracket closing, a line break before a word), the
/// `fn` an attribute sits on, a subtest's title.
struct Leaves<'s> {
    src: &'s str,
    list: Vec<Leaf>,
    /// For each leaf, the first `fn` at or after it (the list's length when
    /// none): asked for each attribute, a scan ahead per attribute cost 400
    /// leaves each in a run of thousands.
    fns: Vec<usize>,
}

impl<'s> Leaves<'s> {
    fn of(src: &'s str, root: Node<'_>, strings: &[&str]) -> Leaves<'s> {
        let mut list = Vec::new();
        walk(root, |n, above| {
            let kind = n.kind();
            if kind.contains("comment") {
                return false;
            }
            let text = &src[n.byte_range()];
            let whole = strings.contains(&kind);
            if !whole && n.child_count() > 0 {
                return true;
            }
            if text.trim().is_empty() {
                return false;
            }
            let class = match text.as_bytes()[0] {
                _ if whole => Class::Str,
                b'(' | b'[' | b'{' => Class::Open,
                b')' | b']' | b'}' => Class::Close,
                b';' => Class::Semi,
                b',' => Class::Comma,
                b if b == b'_' || b.is_ascii_alphabetic() || b >= 0x80 => Class::Word,
                _ => Class::Other,
            };
            let group_end = above.last().map_or(n.end_byte(), |p| p.end_byte());
            let group_end = if class == Class::Open { group_end } else { 0 };
            list.push(Leaf {
                span: n.byte_range(),
                class,
                group_end,
            });
            false
        });
        let mut out = Leaves {
            src,
            list,
            fns: Vec::new(),
        };
        out.index_fns();
        out
    }

    /// [`Leaves::fns`] found again: after the list changes too.
    fn index_fns(&mut self) {
        let mut fns = vec![self.list.len(); self.list.len() + 1];
        for j in (0..self.list.len()).rev() {
            fns[j] = if self.text(j) == "fn" { j } else { fns[j + 1] };
        }
        self.fns = fns;
    }

    fn text(&self, i: usize) -> &'s str {
        self.list.get(i).map_or("", |l| &self.src[l.span.clone()])
    }

    fn start(&self, i: usize) -> usize {
        self.list.get(i).map_or(self.src.len(), |l| l.span.start)
    }

    /// The token starting at byte `at`, or the first after it.
    fn at(&self, at: usize) -> usize {
        self.list.partition_point(|l| l.span.start < at)
    }

    /// How many tokens bytes `from..to` hold as the counts have always
    /// measured a header's length: a symbol or a number one per character.
    fn span(&self, from: usize, to: usize) -> usize {
        (self.at(from)..self.at(to))
            .map(|k| match self.list[k].class {
                Class::Other => self.text(k).chars().count(),
                _ => 1,
            })
            .sum()
    }

    /// Whether a line break parts token `j` from the one before it.
    fn broken(&self, j: usize) -> bool {
        j > 0
            && self.src
                [self.list[j - 1].span.end..self.list[j].span.start.max(self.list[j - 1].span.end)]
                .contains('\n')
    }

    /// Where the statement opening at token `i` ends: a `;` or a closing bracket
    /// at its own depth, or a line break before a word (a line opening with `.`
    /// goes on).
    fn statement_end(&self, i: usize) -> usize {
        let mut depth = 0usize;
        for j in i..self.list.len() {
            let class = self.list[j].class;
            if j > i && depth == 0 && self.broken(j) {
                let word = matches!(class, Class::Word | Class::Str);
                if word && self.list[j - 1].class != Class::Comma {
                    return j;
                }
            }
            match class {
                Class::Open => depth += 1,
                Class::Close if depth == 0 => return j,
                Class::Close => depth -= 1,
                Class::Semi if depth == 0 => return j + 1,
                _ => {}
            }
        }
        self.list.len()
    }

    /// The text of tokens `from..end`, whitespace runs made one space, no
    /// trailing `,` or `;`.
    fn source(&self, from: usize, end: usize) -> String {
        let (Some(a), Some(b)) = (self.list.get(from), self.list.get(end.saturating_sub(1))) else {
            return String::new();
        };
        let text = self
            .src
            .get(a.span.start..b.span.end.max(a.span.start))
            .unwrap_or("");
        let words: Vec<&str> = text.split_whitespace().collect();
        words.join(" ").trim_end_matches([',', ';']).to_string()
    }

    /// The name of the first `fn` within 400 tokens of byte `at`: the function an
    /// attribute sits on.
    fn next_fn(&self, at: usize) -> String {
        let from = self.at(at);
        self.fns
            .get(from)
            .filter(|&&j| j < self.list.len().min(from + 400))
            .filter(|&&j| self.list.get(j + 1).is_some_and(|l| l.class == Class::Word))
            .map_or(String::new(), |&j| self.text(j + 1).to_string())
    }

    /// Each name starting with `_`, with where it is last named (`_` only where
    /// it is called): a closure bound to one that nothing names after is never
    /// called.
    fn last_uses(&self) -> HashMap<&'s str, usize> {
        let mut out = HashMap::new();
        for (i, l) in self.list.iter().enumerate() {
            let t = self.text(i);
            if l.class == Class::Word && t.starts_with('_') && (t != "_" || self.text(i + 1) == "(")
            {
                out.insert(t, l.span.start);
            }
        }
        out
    }
}

/// Every node under `root` in source order, with its ancestors; `visit` says
/// whether to go into a node. A cursor, not recursion: no nesting exhausts the
/// stack.
fn walk<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>, &Above<'_, 't>) -> bool) {
    let mut cursor = root.walk();
    let mut above: Vec<Node<'t>> = Vec::new();
    // Where in `above` the functions are (declarations, methods, literals), each
    // with the innermost declared one: asked at each block, a search of `above`
    // is quadratic in a deep nest.
    let mut funcs: Vec<(usize, Option<usize>)> = Vec::new();
    loop {
        let node = cursor.node();
        let seen = Above {
            nodes: &above,
            funcs: &funcs,
        };
        if visit(node, &seen) && cursor.goto_first_child() {
            let declared = funcs.last().and_then(|(_, d)| *d);
            match node.kind() {
                "function_declaration" | "method_declaration" => {
                    funcs.push((above.len(), Some(above.len())));
                }
                "func_literal" => funcs.push((above.len(), declared)),
                _ => {}
            }
            above.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            above.pop();
            if funcs.last().is_some_and(|(k, _)| *k == above.len()) {
                funcs.pop();
            }
        }
    }
}

/// A node's ancestors in [`walk`], outermost first, and the Go functions among
/// them.
struct Above<'a, 't> {
    nodes: &'a [Node<'t>],
    funcs: &'a [(usize, Option<usize>)],
}

impl<'t> std::ops::Deref for Above<'_, 't> {
    type Target = [Node<'t>];

    fn deref(&self) -> &[Node<'t>] {
        self.nodes
    }
}

impl<'t> Above<'_, 't> {
    /// The innermost function around the node, a literal (`func() {…}`) too.
    fn func(&self) -> Option<Node<'t>> {
        self.funcs.last().map(|(k, _)| self.nodes[*k])
    }

    /// The innermost function declaration or method around the node.
    fn declared(&self) -> Option<Node<'t>> {
        let (_, declared) = self.funcs.last()?;
        Some(self.nodes[(*declared)?])
    }
}

/// A condition that folds to a literal ([`super::folded`]).
fn literal(src: &str, condition: Option<Node<'_>>) -> Option<bool> {
    super::folded(src, condition?)
}

/// The statements of a block: Go's grammar puts them in a list of their own.
fn statements(block: Node<'_>) -> Vec<Node<'_>> {
    match kids(block)[..] {
        [list] if list.kind() == "statement_list" => kids(list),
        ref all => all.to_vec(),
    }
}

/// Go: the statements of `block` after a bare `return` in it, which no run
/// reaches (Go compiles them, and `go test`'s vet does not look): the red team's
/// check helper kept by name, its check left behind a `return`. Up to a labelled
/// statement a `goto` before that `return` may jump to (`gotos`, the function
/// `func` of the block's); a label nothing live names (a `goto` in an `if
/// false`, or after the `return`) is as dead as the rest.
fn after_return(block: Node<'_>, gotos: &Gotos<'_>, func: usize) -> Vec<Range<usize>> {
    let list = statements(block);
    let mut out = Vec::new();
    // Where the dead run starts, and the `return` that began it.
    let mut dead: Option<(usize, usize)> = None;
    for (i, s) in list.iter().enumerate() {
        match dead {
            None if s.kind() == "return_statement" => dead = Some((i + 1, s.start_byte())),
            Some((from, at)) if s.kind() == "labeled_statement" && gotos.reach(*s, func, at) => {
                if from < i {
                    out.push(list[from].start_byte()..list[i - 1].end_byte());
                }
                dead = None;
            }
            _ => {}
        }
    }
    if let Some((from, _)) = dead.filter(|(from, _)| *from < list.len()) {
        out.push(list[from].start_byte()..list[list.len() - 1].end_byte());
    }
    out
}

/// Go: for each function (by where it starts) and label, the first `goto` naming
/// it that a run may reach: not in an `if false`, nor after a `return` in its own
/// block with no label between. Read once per file, and only when it holds one.
#[derive(Default)]
struct Gotos<'s> {
    src: &'s str,
    first: HashMap<(usize, &'s str), usize>,
}

impl<'s> Gotos<'s> {
    fn of(src: &'s str, root: Node<'_>) -> Gotos<'s> {
        let mut out = Gotos {
            src,
            first: HashMap::new(),
        };
        if !src.contains("goto") {
            return out;
        }
        let mut dead: Vec<Range<usize>> = Vec::new();
        let mut found: Vec<(usize, &'s str, usize)> = Vec::new();
        walk(root, |n, above| {
            match n.kind() {
                "block" => {
                    let list = statements(n);
                    let mut from: Option<usize> = None;
                    for (i, s) in list.iter().enumerate() {
                        if s.kind() == "labeled_statement" {
                            if let Some(f) = from.take().filter(|f| *f < i) {
                                dead.push(list[f].start_byte()..list[i - 1].end_byte());
                            }
                        } else if s.kind() == "return_statement" && from.is_none() {
                            from = Some(i + 1);
                        }
                    }
                    if let Some(f) = from.filter(|f| *f < list.len()) {
                        dead.push(list[f].start_byte()..list[list.len() - 1].end_byte());
                    }
                }
                "if_statement" if n.child_by_field_name("initializer").is_none() => {
                    let condition = n.child_by_field_name("condition");
                    if let (Some(false), Some(then)) = (
                        literal(src, condition),
                        n.child_by_field_name("consequence"),
                    ) {
                        dead.push(then.byte_range());
                    }
                }
                "goto_statement" => {
                    let label = n.named_child(0).map(|l| &src[l.byte_range()]);
                    if let (Some(label), Some(func)) = (label, func_of(above)) {
                        found.push((func, label, n.start_byte()));
                    }
                }
                _ => {}
            }
            !n.kind().contains("comment")
        });
        let dead = Spans::new(dead);
        for (func, label, at) in found.into_iter().filter(|g| !dead.holds(g.2)) {
            let first = out.first.entry((func, label)).or_insert(at);
            *first = (*first).min(at);
        }
        out
    }

    /// Whether a `goto` of the function starting at `func`, before `at`, names
    /// the label of `labelled`.
    fn reach(&self, labelled: Node<'_>, func: usize, at: usize) -> bool {
        let label = labelled
            .child_by_field_name("label")
            .map(|l| &self.src[l.byte_range()]);
        label.is_some_and(|l| self.first.get(&(func, l)).is_some_and(|&g| g < at))
    }
}

/// Where the function a node is in starts, by its ancestors `above`: a label's
/// scope is its function's body, a nested function's left out.
fn func_of(above: &Above<'_, '_>) -> Option<usize> {
    above.func().map(|f| f.start_byte())
}

/// Rust: the statements of `block` after a `return` statement in it, which no
/// run reaches (rustc warns and builds them). Rust has no `goto` to reach them.
fn rust_after_return(block: Node<'_>) -> Option<Range<usize>> {
    let list = kids(block);
    let at = list.iter().position(|s| {
        s.kind() == "expression_statement"
            && s.named_child(0)
                .is_some_and(|e| e.kind() == "return_expression")
    })?;
    let rest = list.get(at + 1..).filter(|r| !r.is_empty())?;
    Some(rest[0].start_byte()..rest[rest.len() - 1].end_byte())
}

/// `if cond { return }` (Rust's `if true { return; }` too): whether the first
/// statement of `then` returns.
fn returns_first(then: Node<'_>) -> Option<Node<'_>> {
    let first = *statements(then).first()?;
    let node = match first.kind() {
        "expression_statement" => first.named_child(0)?,
        _ => first,
    };
    matches!(node.kind(), "return_statement" | "return_expression").then_some(node)
}

/// What is read while walking a file, before owners and dead code are settled.
#[derive(Default)]
struct Found {
    tests: Vec<Marked>,
    /// Each assertion's token, whatever reaches it.
    assertions: Vec<usize>,
    /// Statements other than assertions' (Go's failing `if`, Rust's
    /// `#[should_panic]`), with where they start.
    others: Vec<(usize, String)>,
    /// Skip markers: where, and the test they name (`None`: the test before).
    skips: Vec<(usize, Option<String>, bool)>,
    dead: Vec<Range<usize>>,
    /// Rust: what follows a `return` statement in its block: dead, but in a
    /// test's own body, where `returns_early` says it in its own words.
    returned: Vec<Range<usize>>,
    /// Closures bound to a name starting with `_`: the name, the span thrown
    /// away, and where the closure ends.
    discarded: Vec<(String, Range<usize>)>,
    generated: Spans,
}

impl Found {
    /// The marks, given the file's tokens: assertions no run reaches left out,
    /// each skip's owner named.
    fn into_marks(mut self, leaves: &Leaves<'_>) -> Marks {
        let used = leaves.last_uses();
        for (name, span) in std::mem::take(&mut self.discarded) {
            if name == "_" || used.get(name.as_str()).is_none_or(|&at| at < span.end) {
                self.dead.push(span);
            }
        }
        let bodies = Spans::new(self.tests.iter().filter_map(|t| t.body.clone()));
        for span in std::mem::take(&mut self.returned) {
            if !bodies.holds(span.start) {
                self.dead.push(span);
            }
        }
        let dead = Spans::new(std::mem::take(&mut self.dead));
        let dead = |at: usize| dead.holds(at);
        self.tests.sort_by_key(|t| t.at);
        self.skips.sort_by_key(|s| s.0);
        self.assertions.sort_unstable();
        self.assertions.dedup();
        let mut statements: Vec<Statement> = self
            .others
            .iter()
            .map(|(at, text)| Statement {
                at: *at,
                text: text.clone(),
                assertion: false,
            })
            .collect();
        let mut next = 0;
        for &at in &self.assertions {
            let i = leaves.at(at);
            if i < next {
                continue;
            }
            let end = leaves.statement_end(i);
            statements.push(Statement {
                at,
                text: leaves.source(i, end),
                assertion: true,
            });
            next = end;
        }
        statements.retain(|s| !dead(s.at));
        statements.sort_by_key(|s| s.at);
        let tests = &self.tests;
        let skips = self
            .skips
            .iter()
            .map(|(at, named, outright)| Marker {
                at: *at,
                owner: named.clone().unwrap_or_else(|| {
                    let before = tests.partition_point(|t| t.at < *at);
                    before
                        .checked_sub(1)
                        .map_or(String::new(), |b| tests[b].name.clone())
                }),
                outright: *outright,
            })
            .collect();
        let assertions = self
            .assertions
            .iter()
            .copied()
            .filter(|&a| !dead(a))
            .collect();
        Marks {
            assertions,
            statements,
            skips,
            tests: self.tests,
            generated: self.generated,
            ..Marks::default()
        }
    }
}

/// Rust's marks.
pub(super) fn rust(src: &str, root: Node<'_>) -> Marks {
    let strings = ["string_literal", "raw_string_literal", "char_literal"];
    let mut leaves = Leaves::of(src, root, &strings);
    // What `quote!` and its kin hold is code they write, not code here.
    let mut quoted: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i + 2 < leaves.list.len() {
        if QUOTING.contains(&leaves.text(i))
            && leaves.text(i + 1) == "!"
            && leaves.list[i + 2].class == Class::Open
        {
            quoted.push(leaves.start(i)..leaves.list[i + 2].group_end);
            let end = leaves.list[i + 2].group_end;
            i = leaves.list.partition_point(|l| l.span.start < end);
            continue;
        }
        i += 1;
    }
    let quoted = Spans::new(quoted);
    leaves.list.retain(|l| !quoted.holds(l.span.start));
    // The tokens of a quoted macro are no code of the file's: the index of each
    // next `fn` is found again without them.
    leaves.index_fns();
    let mut found = Found::default();
    for (i, l) in leaves.list.iter().enumerate() {
        if l.class != Class::Word {
            continue;
        }
        let name = leaves.text(i);
        let (before, after) = (
            i.checked_sub(1).map_or("", |b| leaves.text(b)),
            leaves.text(i + 1),
        );
        // `assert_eq!`, a checking helper `assert_output(…)`, a harness's
        // `.expect_value_eq(…)`.
        if (name.contains("assert") && after == "!")
            || (name.starts_with("assert_") && after == "(" && before != "fn")
            || (name.starts_with("expect_") && after == "(" && before == ".")
        {
            found.assertions.push(l.span.start);
        }
    }
    walk(root, |n, _| {
        if quoted.holds(n.start_byte()) || n.kind().contains("comment") {
            return false;
        }
        rust_node(src, n, &leaves, &mut found);
        true
    });
    found.generated = quoted;
    found.into_marks(&leaves)
}

/// What one Rust node adds: its attributes' tests and skips, a literal `if`,
/// a closure thrown away.
fn rust_node(src: &str, n: Node<'_>, leaves: &Leaves<'_>, found: &mut Found) {
    let text = |n: Node<'_>| &src[n.byte_range()];
    match n.kind() {
        "token_tree" | "token_repetition" => rust_token_attributes(src, n, leaves, found),
        "inner_attribute_item" => {
            let attr = Attr::of(text(n));
            let file_wide = attr.last == "cfg"
                || matches!(attr.last, "ignore" | "should_panic")
                || attr.cfg_attr_ignore();
            if file_wide {
                found
                    .skips
                    .push((n.start_byte(), Some(String::new()), false));
            }
        }
        "if_expression" | "while_expression" => {
            let held = literal(src, n.child_by_field_name("condition"));
            let then = n
                .child_by_field_name("consequence")
                .or_else(|| n.child_by_field_name("body"));
            if let (Some(false), Some(then)) = (held, then) {
                found.dead.push(n.start_byte()..then.end_byte());
            }
            if held == Some(true)
                && n.kind() == "if_expression"
                && then.and_then(returns_first).is_some()
            {
                found.skips.push((n.start_byte(), None, false));
            }
        }
        "let_declaration" => {
            let name = n.child_by_field_name("pattern").map(text);
            if let (Some(name), Some(value)) = (name, n.child_by_field_name("value")) {
                discard(name, n.start_byte(), value, found);
            }
        }
        "expression_statement" => {
            if let Some(a) = n
                .named_child(0)
                .filter(|a| a.kind() == "assignment_expression")
                && let (Some(left), Some(right)) = (
                    a.child_by_field_name("left"),
                    a.child_by_field_name("right"),
                )
            {
                discard(text(left), n.start_byte(), right, found);
            }
        }
        "block" => found.returned.extend(rust_after_return(n)),
        // A closure handed to `drop` or `forget` is never called.
        "call_expression" => {
            let f = n.child_by_field_name("function");
            let name = f.filter(|f| f.kind() != "field_expression").map(|f| {
                let t = text(f);
                t.rsplit("::").next().unwrap_or(t)
            });
            let first = n
                .child_by_field_name("arguments")
                .and_then(|a| kids(a).first().copied());
            if matches!(name, Some("drop" | "forget"))
                && first.is_some_and(|a| matches!(a.kind(), "closure_expression" | "async_block"))
            {
                found.dead.push(n.byte_range());
            }
        }
        _ => {}
    }
    rust_attributes(src, n, leaves, found);
}

/// A closure or async block bound to `_` or to `_name` from `start`: thrown away
/// unless the name is named after it.
fn discard(name: &str, start: usize, value: Node<'_>, found: &mut Found) {
    if !name.starts_with('_') || name.contains(|c: char| !(c.is_alphanumeric() || c == '_')) {
        return;
    }
    let mut value = value;
    while matches!(
        value.kind(),
        "parenthesized_expression" | "reference_expression"
    ) {
        match value.named_child(0) {
            Some(inner) => value = inner,
            None => return,
        }
    }
    if matches!(value.kind(), "closure_expression" | "async_block") {
        found
            .discarded
            .push((name.to_string(), start..value.end_byte()));
    }
}

/// A Rust attribute's text squeezed of whitespace, read for its path.
struct Attr<'a> {
    /// Its path's segments: `tokio`, `test`.
    first: &'a str,
    last: &'a str,
    /// What follows the path: `(…)`, `= "…"`, or nothing.
    rest: &'a str,
}

impl<'a> Attr<'a> {
    fn of(text: &'a str) -> Attr<'a> {
        let inner = text
            .trim()
            .trim_start_matches('#')
            .trim_start()
            .trim_start_matches('!')
            .trim_start()
            .trim_start_matches('[')
            .trim_end()
            .trim_end_matches(']')
            .trim();
        let end = inner
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':' || c.is_whitespace()))
            .unwrap_or(inner.len());
        // A path from the crate root (`::core::…::test`) is read as none.
        let end = if inner.starts_with(':') { 0 } else { end };
        let path = inner[..end].trim();
        let mut segments = path.split("::").map(str::trim);
        let first = segments.next().unwrap_or("");
        let last = path.rsplit("::").next().unwrap_or("").trim();
        Attr {
            first,
            last,
            rest: inner[end..].trim(),
        }
    }

    /// `#[test]`, `#[tokio::test]`, `#[rstest]`, `#[test_case(…)]`, and each
    /// rstest `#[case(…)]`.
    fn test(&self) -> bool {
        let ends = self.rest.is_empty() || self.rest.starts_with('(');
        (self.first == "case" && self.rest.starts_with('('))
            || (matches!(self.last, "test" | "rstest" | "test_case") && ends)
    }

    /// `#[test]` itself, under any path (`#[tokio::test]`).
    fn plain_test(&self) -> bool {
        self.last == "test" && (self.rest.is_empty() || self.rest.starts_with('('))
    }

    fn squeezed_rest(&self) -> String {
        self.rest.split_whitespace().collect()
    }

    /// A `cfg` that never holds: `any()`, `not(all())`.
    fn never(&self) -> bool {
        let r = self.squeezed_rest();
        self.last == "cfg" && (r.starts_with("(any()") || r.starts_with("(not(all()"))
    }

    fn cfg_attr_ignore(&self) -> bool {
        // Outside its strings: `doc = "```ignore"` ignores nothing.
        let code = self.rest.split('"').step_by(2);
        self.last == "cfg_attr"
            && code
                .flat_map(|c| c.split(|c: char| !(c.is_alphanumeric() || c == '_')))
                .any(|w| w == "ignore")
    }
}

/// The attributes among `n`'s children, each run with the item it sits on:
/// tests, their skips and the `#[should_panic]` a statement.
fn rust_attributes(src: &str, n: Node<'_>, leaves: &Leaves<'_>, found: &mut Found) {
    let children = kids(n);
    let mut k = 0;
    while k < children.len() {
        if children[k].kind() != "attribute_item" {
            k += 1;
            continue;
        }
        let from = k;
        while k < children.len() && children[k].kind() == "attribute_item" {
            k += 1;
        }
        let item = children.get(k).copied();
        let run: Vec<(usize, &str)> = children[from..k]
            .iter()
            .map(|a| (a.start_byte(), &src[a.byte_range()]))
            .collect();
        let body = item
            .filter(|i| i.kind() == "function_item")
            .and_then(|i| i.child_by_field_name("body"))
            .map(|b| b.start_byte() + 1..b.end_byte().saturating_sub(1));
        let tests_mod = item.is_some_and(|i| module_of_tests(src, i));
        attribute_run(&run, body, tests_mod, leaves, found);
    }
}

/// Attributes in a macro's tokens (`#` then `[…]`), as [`rust_attributes`]
/// reads them on items, with the body of the `fn` they sit on.
fn rust_token_attributes(src: &str, tree: Node<'_>, leaves: &Leaves<'_>, found: &mut Found) {
    let children: Vec<Node<'_>> = {
        let mut cursor = tree.walk();
        tree.children(&mut cursor)
            .filter(|c| !c.kind().contains("comment"))
            .collect()
    };
    let text = |n: Node<'_>| &src[n.byte_range()];
    let mut k = 0;
    while k < children.len() {
        let mut run: Vec<(usize, &str)> = Vec::new();
        while k + 1 < children.len()
            && text(children[k]) == "#"
            && children[k + 1].kind() == "token_tree"
            && text(children[k + 1]).starts_with('[')
        {
            let (start, end) = (children[k].start_byte(), children[k + 1].end_byte());
            run.push((start, &src[start..end]));
            k += 2;
        }
        if run.is_empty() {
            k += 1;
            continue;
        }
        // The body of the `fn` the run sits on, past its qualifiers.
        let body = children[k..]
            .iter()
            .take(8)
            .position(|c| text(*c) == "fn")
            .and_then(|f| {
                children[k + f..]
                    .iter()
                    .take_while(|c| text(**c) != ";")
                    .find(|c| c.kind() == "token_tree" && text(**c).starts_with('{'))
            })
            .map(|b| b.start_byte() + 1..b.end_byte().saturating_sub(1));
        attribute_run(&run, body, false, leaves, found);
    }
}

/// One run of outer attributes on an item (each where it starts and its text):
/// a test attribute is a test, a skip with a `cfg` after it; `#[ignore]`,
/// `#[should_panic]`, `#[cfg_attr(…, ignore)]` are skips, and a `cfg` one when
/// it never holds, sits with a test attribute, or keeps a module of tests
/// (`tests_mod`) from being compiled on any condition but `test` alone.
fn attribute_run(
    run: &[(usize, &str)],
    body: Option<Range<usize>>,
    tests_mod: bool,
    leaves: &Leaves<'_>,
    found: &mut Found,
) {
    let attrs: Vec<Attr<'_>> = run.iter().map(|(_, t)| Attr::of(t)).collect();
    // Whether an attribute after each is a `cfg` that can hold, or a plain test
    // attribute: found from the end once, where asking each attribute of all
    // those after it is quadratic in a run of thousands (`#[test]` lines with no
    // item).
    let mut cfg_after = vec![false; attrs.len()];
    let mut test_after = vec![false; attrs.len()];
    for k in (0..attrs.len().saturating_sub(1)).rev() {
        let next = &attrs[k + 1];
        // `cfg(test)` holds wherever a test is compiled: it gates nothing.
        let gates = !next.never() && next.squeezed_rest() != "(test)";
        cfg_after[k] = cfg_after[k + 1] || (next.last == "cfg" && gates);
        test_after[k] = test_after[k + 1] || next.plain_test();
    }
    for (k, (at, text)) in run.iter().enumerate() {
        let a = &attrs[k];
        let owner = || Some(leaves.next_fn(*at));
        if a.test() {
            found.tests.push(Marked {
                at: *at,
                name: leaves.next_fn(*at),
                body: body.clone(),
            });
            if cfg_after[k] {
                found.skips.push((*at, owner(), false));
            }
            continue;
        }
        let skip = match a.last {
            "ignore" => {
                let outright = a.first == "ignore";
                found.skips.push((*at, owner(), outright));
                continue;
            }
            "should_panic" => {
                let squeezed: Vec<&str> = text.split_whitespace().collect();
                found.others.push((*at, squeezed.join(" ")));
                true
            }
            "cfg" => a.never() || (test_after[k] || tests_mod) && a.squeezed_rest() != "(test)",
            _ => a.cfg_attr_ignore(),
        };
        if skip {
            found.skips.push((*at, owner(), false));
        }
    }
}

/// Whether a Rust item is a module of tests: `mod tests;` in a file of its own
/// named for tests, or a body holding a test attribute.
fn module_of_tests(src: &str, item: Node<'_>) -> bool {
    if item.kind() != "mod_item" {
        return false;
    }
    let Some(body) = item.child_by_field_name("body") else {
        let name = item.child_by_field_name("name");
        return name.is_some_and(|n| src[n.byte_range()].contains("test"));
    };
    let mut held = false;
    walk(body, |n, _| {
        if held || n.kind().contains("comment") {
            return false;
        }
        if n.kind() == "attribute_item" && Attr::of(&src[n.byte_range()]).plain_test() {
            held = true;
        }
        if matches!(n.kind(), "token_tree" | "token_repetition") {
            let leaves: Vec<&str> = kids_all(n).iter().map(|c| &src[c.byte_range()]).collect();
            held = leaves
                .windows(2)
                .any(|w| w[0] == "#" && w[1].starts_with('[') && Attr::of(w[1]).plain_test());
        }
        !held
    });
    held
}

/// Go's marks.
pub(super) fn go(src: &str, root: Node<'_>) -> Marks {
    let strings = [
        "interpreted_string_literal",
        "raw_string_literal",
        "rune_literal",
    ];
    let leaves = Leaves::of(src, root, &strings);
    let gotos = Gotos::of(src, root);
    let hollow = go_hollow(src, root, &gotos);
    let mut found = Found::default();
    let mut ifs: Vec<(usize, Range<usize>, String)> = Vec::new();
    let mut builds = Vec::new();
    let mut main_runs = None;
    let mut main_exits_0 = false;
    let text = |n: Node<'_>| &src[n.byte_range()];
    walk(root, |n, above| {
        match n.kind() {
            "comment" => {
                let line_start = src[..n.start_byte()].rfind('\n').map_or(0, |p| p + 1);
                let t = text(n).trim();
                if src[line_start..n.start_byte()].trim().is_empty()
                    && (t.starts_with("//go:build") || t.starts_with("// +build"))
                {
                    builds.push(t.to_string());
                }
                return false;
            }
            "function_declaration" | "method_declaration" => {
                let name = n.child_by_field_name("name");
                let generic = n.child_by_field_name("type_parameters").is_some();
                if let Some(name) = name.filter(|m| text(*m).starts_with("Test") && !generic) {
                    let body = n.child_by_field_name("body");
                    found.tests.push(Marked {
                        at: name.start_byte(),
                        name: text(name).to_string(),
                        body: body.map(|b| b.start_byte() + 1..b.end_byte().saturating_sub(1)),
                    });
                    if text(name) == "TestMain" && main_runs.is_none() {
                        main_runs = Some(text(n).contains(".Run()"));
                        main_exits_0 = go_exits_0(src, n);
                    }
                }
            }
            "call_expression" => go_call(src, n, above, &leaves, &hollow, &mut found),
            // A test's own early return is read as one (`returns_early`), in words
            // that say so; a helper's is only its checks gone.
            "block" => {
                let test = above
                    .declared()
                    .and_then(|f| f.child_by_field_name("name"))
                    .is_some_and(|name| text(name).starts_with("Test"));
                if let (false, Some(func)) = (test, func_of(above)) {
                    found.dead.extend(after_return(n, &gotos, func));
                }
            }
            "keyed_element" => {
                let squeezed: String = text(n).split_whitespace().collect();
                if matches!(squeezed.as_str(), "skip:true" | "Skip:true") {
                    found.skips.push((n.start_byte(), None, false));
                }
            }
            "if_statement" => {
                let condition = n.child_by_field_name("condition");
                let plain = n.child_by_field_name("initializer").is_none();
                if let Some(then) = n.child_by_field_name("consequence") {
                    let held = literal(src, condition).filter(|_| plain);
                    if held == Some(false) {
                        found.dead.push(n.start_byte()..then.end_byte());
                    }
                    if held == Some(true) && returns_first(then).is_some() {
                        found.skips.push((n.start_byte(), None, false));
                    }
                    // `if cond { return }`: a skip by another name.
                    let header = &src[n.start_byte()..then.start_byte()];
                    if let [only] = statements(then)[..]
                        && only.kind() == "return_statement"
                        && only.named_child_count() == 0
                        && !header
                            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
                            .any(|w| w == "Short")
                        && !braced(&leaves, n.start_byte(), then.start_byte())
                    {
                        found.skips.push((only.start_byte(), None, false));
                    }
                    // A header read as tokens: its first brace opens the block.
                    let long = leaves.span(n.start_byte(), then.start_byte()) >= 200;
                    if !braced(&leaves, n.start_byte(), then.start_byte()) && !long {
                        let words: Vec<&str> = header.split_whitespace().collect();
                        let said = words.join(" ").trim_end_matches([',', ';']).to_string();
                        ifs.push((n.start_byte(), then.byte_range(), said));
                    }
                }
            }
            "assignment_statement" => {
                let left = n.child_by_field_name("left").map(text);
                if let (Some(name), Some(right)) = (left, n.child_by_field_name("right")) {
                    let mut value = right;
                    while let Some(inner) = (value.kind() == "expression_list"
                        || value.kind() == "parenthesized_expression")
                        .then(|| value.named_child(0))
                        .flatten()
                    {
                        value = inner;
                    }
                    if name.starts_with('_')
                        && !name.contains(|c: char| !(c.is_alphanumeric() || c == '_'))
                        && value.kind() == "func_literal"
                    {
                        found
                            .discarded
                            .push((name.to_string(), n.start_byte()..value.end_byte()));
                    }
                }
            }
            _ => {}
        }
        true
    });
    // The condition of an `if` whose block fails the test is where Go's checks
    // compare: a statement too.
    found.assertions.sort_unstable();
    for (at, block, said) in ifs {
        let from = found.assertions.partition_point(|&a| a < block.start);
        if found.assertions.get(from).is_some_and(|&a| a < block.end) {
            found.others.push((at, said));
        }
    }
    let mut marks = found.into_marks(&leaves);
    marks.builds = builds;
    // A TestMain that never calls `m.Run()` runs no test of its package; one
    // that exits 0 whatever they did ends `go test` passing.
    marks.switches = usize::from(main_runs == Some(false) || main_exits_0);
    marks
}

/// Whether a Go function exits with a status of 0 whatever happened:
/// `os.Exit(0)` or `syscall.Exit(0)`, or a status multiplied or masked by 0
/// (`os.Exit(m.Run() & 0)`).
fn go_exits_0(src: &str, func: Node<'_>) -> bool {
    preorder(func)
        .filter(|n| n.kind() == "call_expression")
        .any(|call| {
            let squeezed = |f: &str| -> String {
                call.child_by_field_name(f).map_or_else(String::new, |c| {
                    src[c.byte_range()].split_whitespace().collect()
                })
            };
            let args = squeezed("arguments");
            matches!(squeezed("function").as_str(), "os.Exit" | "syscall.Exit")
                && (args == "(0)"
                    || ["*0)", "&0)"].iter().any(|e| args.ends_with(e))
                    || ["(0*", "(0&"].iter().any(|s| args.starts_with(s)))
        })
}

/// Whether the tokens `from..to` open a brace outside parentheses (`if f(T{})`
/// does not; `if x := []T{…}; …` does): a header read as Go's tokens read it,
/// its first brace opening the block.
fn braced(leaves: &Leaves<'_>, from: usize, to: usize) -> bool {
    let mut depth = 0usize;
    for k in leaves.at(from)..leaves.at(to) {
        match (leaves.list[k].class, leaves.text(k)) {
            (Class::Open | Class::Close, "{" | "}") if depth == 0 => return true,
            (Class::Open, _) => depth += 1,
            (Class::Close, _) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    false
}

/// What one Go call is: an assertion, a skip, a subtest.
fn go_call(
    src: &str,
    n: Node<'_>,
    above: &[Node<'_>],
    leaves: &Leaves<'_>,
    hollow: &HashSet<&str>,
    found: &mut Found,
) {
    let text = |n: Node<'_>| &src[n.byte_range()];
    // `expectMissing[T](t, …)` is read as no call, as the tokens read it.
    let Some(f) = n
        .child_by_field_name("function")
        .filter(|_| n.child_by_field_name("type_arguments").is_none())
    else {
        return;
    };
    let args = n.child_by_field_name("arguments");
    let (name_node, operand) = match f.kind() {
        "identifier" => (f, None),
        "selector_expression" => match f.child_by_field_name("field") {
            Some(field) => (field, f.child_by_field_name("operand")),
            None => return,
        },
        _ => return,
    };
    let name = text(name_node);
    let method = operand.is_some();
    let receiver = operand.and_then(|o| match o.kind() {
        "identifier" => Some(text(o)),
        "selector_expression" => o.child_by_field_name("field").map(text),
        _ => None,
    });
    // `t.Errorf(`, or `s.T().Errorf(` in a suite.
    let suite_t = operand.is_some_and(|o| {
        o.kind() == "call_expression"
            && o.child_by_field_name("arguments")
                .is_some_and(|a| a.named_child_count() == 0)
            && o.child_by_field_name("function").is_some_and(|g| {
                let t = text(g);
                t == "T" || t.ends_with(".T")
            })
    });
    let testing = receiver.is_some_and(|r| GO_RECEIVERS.contains(&r)) || suite_t;
    let first_arg = args.and_then(|a| a.named_child(0));
    let helper = first_arg
        .is_some_and(|a| a.kind() == "identifier" && GO_RECEIVERS.contains(&text(a)))
        && {
            let lower = name.to_ascii_lowercase();
            GO_CHECK_WORDS.iter().any(|c| lower.starts_with(c))
        }
        && !hollow.contains(name);
    let assertion = (testing && GO_FAILS.contains(&name))
        || (matches!(receiver, Some("assert" | "require"))
            && name.starts_with(|c: char| c.is_ascii_uppercase()))
        || go_library_check(name, receiver, method)
        || helper;
    if assertion {
        found.assertions.push(name_node.start_byte());
    }
    let squeezed_args: String = args.map_or("", text).split_whitespace().collect();
    let skip_call = testing && matches!(name, "Skip" | "Skipf" | "SkipNow");
    // `if testing.Short() { return }` switches a test off as `t.Skip` does, and
    // an `os.Exit(0)` (in `TestMain`, say) ends the run passing.
    if skip_call
        || (name == "Short"
            && receiver == Some("testing")
            && operand.is_some_and(|o| o.kind() == "identifier"))
        || (name == "Exit" && receiver == Some("os") && squeezed_args == "(0)")
    {
        let outright = skip_call
            && operand.is_some_and(|o| o.kind() == "identifier")
            && first_in_test(src, n, above);
        found.skips.push((name_node.start_byte(), None, outright));
    }
    // A subtest is a test, but one in a loop runs once per row of its table,
    // which count.
    if name == "Run" && testing && !in_loop(src, above, leaves) {
        let from = leaves.at(name_node.start_byte());
        let title = (from..leaves.list.len().min(from + 12))
            .find(|&k| leaves.list[k].class == Class::Str)
            .map_or(String::new(), |k| leaves.text(k).to_string());
        found.tests.push(Marked {
            at: name_node.start_byte(),
            name: title,
            body: None,
        });
    }
}

/// Whether the innermost brace around a node (its ancestors `above`) is a `for`
/// loop's block. A loop whose header holds a brace (`range []T{…} {`) or runs
/// past 40 tokens is read as none, as the counts always have: its subtests
/// count one each.
fn in_loop(src: &str, above: &[Node<'_>], leaves: &Leaves<'_>) -> bool {
    let braced = [
        "block",
        "literal_value",
        "expression_switch_statement",
        "type_switch_statement",
        "select_statement",
        "field_declaration_list",
        "interface_type",
    ];
    let Some(k) = above.iter().rposition(|a| braced.contains(&a.kind())) else {
        return false;
    };
    let (block, Some(l)) = (above[k], k.checked_sub(1).map(|p| above[p])) else {
        return false;
    };
    let header = &src[l.start_byte()..block.start_byte()];
    block.kind() == "block"
        && l.kind() == "for_statement"
        && !header.contains(['{', '}'])
        && leaves.span(l.start_byte(), block.start_byte()) <= 40
}

/// Whether the call `n` is the first statement of a function given a
/// `*testing.T` last and returning nothing: `t.Skip()` there runs nothing of it.
fn first_in_test(src: &str, n: Node<'_>, above: &[Node<'_>]) -> bool {
    let Some(k) = above.iter().rposition(|a| a.kind() == "block") else {
        return false;
    };
    let (block, statement) = (above[k], above[above.len() - 1]);
    if statement.kind() != "expression_statement"
        || statements(block).first().map(Node::id) != Some(statement.id())
        || statement.named_child(0).map(|c| c.id()) != Some(n.id())
    {
        return false;
    }
    let Some(func) = k.checked_sub(1).map(|f| above[f]) else {
        return false;
    };
    let params = func
        .child_by_field_name("parameters")
        .map_or(String::new(), |p| {
            src[p.byte_range()].split_whitespace().collect()
        });
    matches!(
        func.kind(),
        "function_declaration" | "method_declaration" | "func_literal"
    ) && func.child_by_field_name("result").is_none()
        && params.ends_with("testing.T)")
}

/// The Go functions the file defines whose body names no check: no
/// `Error`/`Fatal`/`Fail` of a `t`, no `Expect`, no call of a helper or library
/// named for one, but those checking nothing. A call of one given `t` is no
/// check, whatever its name (`checkRun(t, got, want)` defined as `{ t.Helper() }`).
fn go_hollow<'s>(src: &'s str, root: Node<'_>, gotos: &Gotos<'_>) -> HashSet<&'s str> {
    let mut defined: HashMap<&'s str, (bool, Vec<&'s str>)> = HashMap::new();
    for f in kids(root) {
        if f.kind() != "function_declaration" {
            continue;
        }
        let (Some(name), Some(body)) =
            (f.child_by_field_name("name"), f.child_by_field_name("body"))
        else {
            continue;
        };
        let mut own = false;
        let mut calls = Vec::new();
        let mut dead: Vec<Range<usize>> = Vec::new();
        walk(body, |n, above| {
            let t = &src[n.byte_range()];
            // Nodes come in the order they start: a range that ended before this
            // one is behind the walk for good (a file of thousands of dead blocks
            // was quadratic: helper 54's review). The ranges ahead never overlap
            // (a block's are its own statements, and a live block nested in it
            // comes before those still ahead), so kept nearest last they are a
            // stack, and a node asks only its top.
            while dead.last().is_some_and(|d| d.end <= n.start_byte()) {
                dead.pop();
            }
            if dead.last().is_some_and(|d| d.contains(&n.start_byte())) {
                return false;
            }
            match n.kind() {
                "block" => {
                    let func = func_of(above).unwrap_or(f.start_byte());
                    dead.extend(after_return(n, gotos, func).into_iter().rev());
                }
                "selector_expression" => {
                    let on_t = n.child_by_field_name("operand").is_some_and(|o| {
                        o.kind() == "identifier" && GO_RECEIVERS.contains(&&src[o.byte_range()])
                    });
                    let field = n.child_by_field_name("field").map(|f| &src[f.byte_range()]);
                    own |= on_t && field.is_some_and(|f| GO_FAILS.contains(&f));
                }
                "identifier" | "field_identifier" | "type_identifier" | "package_identifier" => {
                    let lower = t.to_ascii_lowercase();
                    if t == "Expect" {
                        own = true;
                    } else if GO_CHECK_WORDS.iter().any(|c| lower.starts_with(c)) {
                        calls.push(t);
                    }
                }
                _ => {}
            }
            !n.kind().contains("comment")
        });
        defined.insert(&src[name.byte_range()], (own, calls));
    }
    // A helper that calls only helpers checking nothing checks nothing: from every
    // helper without a check of its own, those calling a check left out until none.
    let mut out: HashSet<&'s str> = defined
        .iter()
        .filter(|(_, d)| !d.0)
        .map(|(n, _)| *n)
        .collect();
    loop {
        let checking: Vec<&'s str> = out
            .iter()
            .copied()
            .filter(|n| {
                defined[n]
                    .1
                    .iter()
                    .any(|c| !defined.contains_key(c) || !out.contains(c))
            })
            .collect();
        if checking.is_empty() {
            break;
        }
        for n in checking {
            out.remove(n);
        }
    }
    out
}

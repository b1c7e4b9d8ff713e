//! Whether a JavaScript `catch` hands the error it caught on, failing the test as
//! a throw does: mocha's `done(e)`, jasmine's `fail(e)`, a promise's `reject(e)`,
//! `return Promise.reject(e)`. Not when the name is a function of the file's own
//! that fails nothing (`const reject = () => {}`), a test double made with no
//! implementation (`const reject = jest.fn()`), nor a rejected promise built and
//! dropped (jest fails no test on an unhandled rejection). Read from the tree.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use tree_sitter::Node;

use super::preorder;

/// The names a handler hands the error on through.
const HANDERS: [&str; 3] = ["fail", "done", "reject"];

/// How deep a function of the file's own is followed into those it calls.
const DEPTH: usize = 4;

/// One of [`HANDERS`] bound in the file: where the binding holds, and for a
/// function of the file's own, its body.
struct Bound<'t> {
    scope: Range<usize>,
    /// `None`: a parameter (a promise's executor's `reject`, mocha's `done`), or a
    /// name bound to no function written here (`let reject;` set later).
    body: Option<Node<'t>>,
    /// A test double with no implementation (`jest.fn()`, `vi.fn()`,
    /// `sinon.stub()`): it records what it is handed and fails nothing.
    double: bool,
    /// The binding of the same name whose scope holds this one's, when one does.
    outer: Option<usize>,
}

/// The file's bindings of [`HANDERS`], read once.
pub(super) struct Handers<'s, 't> {
    src: &'s str,
    /// Each name's bindings sorted by where their scopes start (an outer one
    /// first where two start together): a use's innermost binding is found by
    /// a binary search and a walk out, not a pass over every binding of the
    /// name, which a file of thousands of promises made quadratic.
    bound: HashMap<&'s str, Vec<Bound<'t>>>,
    /// The identifiers that bind a name, not use it.
    binding: HashSet<usize>,
}

impl<'s, 't> Handers<'s, 't> {
    pub(super) fn of(src: &'s str, root: Node<'t>) -> Handers<'s, 't> {
        let mut out = Handers {
            src,
            bound: HashMap::new(),
            binding: HashSet::new(),
        };
        for n in preorder(root) {
            let name = &src[n.byte_range()];
            if !n.kind().ends_with("identifier") || !HANDERS.contains(&name) {
                continue;
            }
            if let Some(bound) = binds(src, n) {
                out.binding.insert(n.id());
                out.bound.entry(name).or_default().push(bound);
            }
        }
        for list in out.bound.values_mut() {
            list.sort_by_key(|b| (b.scope.start, std::cmp::Reverse(b.scope.end)));
            // Scopes are tree ranges, nested or apart: those still open at one
            // are a stack, each pushed and popped once.
            let mut open: Vec<usize> = Vec::new();
            for k in 0..list.len() {
                let scope = list[k].scope.clone();
                while open.last().is_some_and(|&o| list[o].scope.end < scope.end) {
                    open.pop();
                }
                list[k].outer = open.last().copied();
                open.push(k);
            }
        }
        out
    }

    /// The innermost binding of `name` whose scope holds byte `at`: the last
    /// to start at or before it, or the nearest binding out from that one
    /// whose scope holds it (scopes nest, so any that holds it is one of them).
    fn innermost(&self, name: &str, at: usize) -> Option<&Bound<'t>> {
        let list = self.bound.get(name)?;
        let mut k = list
            .partition_point(|b| b.scope.start <= at)
            .checked_sub(1)?;
        loop {
            if list[k].scope.contains(&at) {
                return Some(&list[k]);
            }
            k = list[k].outer?;
        }
    }

    /// Whether `handler` (a `catch` body) hands the error on: it throws, checks
    /// (`checks`, for a node), or names a hander that does.
    pub(super) fn hands_on(&self, handler: Node<'_>, checks: &dyn Fn(Node<'_>) -> usize) -> bool {
        self.hands_on_within(handler, checks, 0)
    }

    fn hands_on_within(
        &self,
        node: Node<'_>,
        checks: &dyn Fn(Node<'_>) -> usize,
        depth: usize,
    ) -> bool {
        checks(node) > 0
            || preorder(node).any(|n| {
                n.kind() == "throw_statement"
                    || (n.kind().ends_with("identifier") && self.hands(n, checks, depth))
            })
    }

    /// Whether the identifier `n` names a hander that fails the test.
    fn hands(&self, n: Node<'_>, checks: &dyn Fn(Node<'_>) -> usize, depth: usize) -> bool {
        let name = &self.src[n.byte_range()];
        if !HANDERS.contains(&name) || self.binding.contains(&n.id()) {
            return false;
        }
        if n.kind() == "property_identifier" {
            return !dropped_rejection(self.src, n);
        }
        match self.innermost(name, n.start_byte()) {
            Some(b) if b.double => false,
            Some(Bound {
                body: Some(body), ..
            }) => depth < DEPTH && self.hands_on_within(*body, checks, depth + 1),
            // Unbound (a global `fail`, or a `ReferenceError` that fails the test
            // anyway), a parameter, or a promise's `reject` kept for later.
            _ => true,
        }
    }
}

/// What the identifier `n` binds, when it is a declaration's name: a function's
/// parameter, a variable's name (its value's body when a function), a function
/// declaration's name.
fn binds<'t>(src: &str, n: Node<'t>) -> Option<Bound<'t>> {
    let parent = n.parent()?;
    let named = |p: Node<'_>| {
        p.child_by_field_name("name")
            .is_some_and(|m| m.id() == n.id())
    };
    match parent.kind() {
        "variable_declarator" if named(parent) => {
            let scope = parent.parent()?.parent()?.byte_range();
            let value = parent.child_by_field_name("value");
            let (body, double) = match value {
                Some(v) if is_function(v) => (v.child_by_field_name("body"), false),
                Some(v) => match double(src, v) {
                    Some(Some(f)) => (f.child_by_field_name("body"), false),
                    Some(None) => (None, true),
                    None => (None, false),
                },
                None => (None, false),
            };
            Some(Bound {
                scope,
                body,
                double,
                outer: None,
            })
        }
        "function_declaration" | "generator_function_declaration" if named(parent) => Some(Bound {
            scope: parent.parent()?.byte_range(),
            body: parent.child_by_field_name("body"),
            double: false,
            outer: None,
        }),
        // `reject => …`, `(resolve, reject) => …`, `function (done) {…}`, and
        // TypeScript's `(reject: (e: Error) => void) => …`.
        _ if is_function(parent)
            && parent
                .child_by_field_name("parameter")
                .is_some_and(|p| p.id() == n.id()) =>
        {
            Some(Bound {
                scope: parent.byte_range(),
                body: None,
                double: false,
                outer: None,
            })
        }
        "formal_parameters" => parameter_of(parent),
        "required_parameter" | "optional_parameter" | "assignment_pattern"
            if parent
                .child_by_field_name("pattern")
                .or_else(|| parent.child_by_field_name("left"))
                .is_some_and(|p| p.id() == n.id()) =>
        {
            parameter_of(parent.parent()?)
        }
        _ => None,
    }
}

/// The binding of a parameter listed in `params`, when they are a function's.
fn parameter_of(params: Node<'_>) -> Option<Bound<'_>> {
    let function = params.parent().filter(|f| is_function(*f))?;
    Some(Bound {
        scope: function.byte_range(),
        body: None,
        double: false,
        outer: None,
    })
}

/// A test double made by a mocking library's call (`jest.fn(…)`, `vi.fn(…)`,
/// `sinon.stub(…)`, `sinon.spy(…)`, `sinon.fake(…)`): `Some(None)` with no
/// argument, `Some(Some(f))` given a function `f` written here as its
/// implementation, `None` when `value` is no such call or its argument is
/// something else (what it does is not known here).
fn double<'t>(src: &str, value: Node<'t>) -> Option<Option<Node<'t>>> {
    let callee = value
        .child_by_field_name("function")
        .filter(|_| value.kind() == "call_expression")
        .filter(|f| f.kind() == "member_expression")?;
    let text = |field: &str| {
        callee
            .child_by_field_name(field)
            .map(|n| &src[n.byte_range()])
    };
    let maker = matches!(
        (text("object")?, text("property")?),
        ("jest" | "vi", "fn") | ("sinon", "stub" | "spy" | "fake")
    );
    let args = value.child_by_field_name("arguments")?;
    match (maker, args.named_child(0)) {
        (true, None) => Some(None),
        (true, Some(f)) if is_function(f) => Some(Some(f)),
        _ => None,
    }
}

fn is_function(n: Node<'_>) -> bool {
    matches!(
        n.kind(),
        "arrow_function"
            | "function"
            | "function_expression"
            | "function_declaration"
            | "generator_function"
            | "generator_function_declaration"
            | "method_definition"
    )
}

/// Whether the property `reject` at `n` is `Promise.reject(…)` as a statement of
/// its own: a rejected promise built and dropped, which fails no test. Returned,
/// awaited or passed on, it does.
fn dropped_rejection(src: &str, n: Node<'_>) -> bool {
    let Some(member) = n.parent().filter(|m| m.kind() == "member_expression") else {
        return false;
    };
    let on_promise = member
        .child_by_field_name("object")
        .is_some_and(|o| &src[o.byte_range()] == "Promise");
    let call = member
        .parent()
        .filter(|c| c.kind() == "call_expression")
        .filter(|c| c.child_by_field_name("function").map(|f| f.id()) == Some(member.id()));
    let mut up = call.and_then(|c| c.parent());
    while let Some(p) = up.filter(|p| p.kind() == "parenthesized_expression") {
        up = p.parent();
    }
    on_promise
        && &src[n.byte_range()] == "reject"
        && up.is_some_and(|p| p.kind() == "expression_statement")
}

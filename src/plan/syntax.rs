//! One syntax view per file version, read through tree-sitter's grammars: the
//! tests, their assertions and skips, redefinitions, macros, and the
//! file's test-relevant syntax in a normal form that formatting does not change.
//! Pure: text in, values out; it never reads a file, and never one over the cap.

use std::ops::Range;

mod bars;
mod bound;
mod checkers;
mod handed;
pub mod ignore;
pub mod layout;
pub mod make;
mod marks;
mod normal;
mod resolved;
pub mod shell;
mod spelled;
mod uses;
mod view;

pub use spelled::{Spelled, Spelling};
pub use uses::words;
pub use view::{preorder, pruned};

#[cfg(test)]
mod normal_tests;
#[cfg(test)]
mod uses_tests;
#[cfg(test)]
mod view_tests;

/// Runs `f` on a stack as deep as the one the check runs on
/// (`weakened::CHECK_STACK`): the walks' 600 levels outgrow a test thread's 2 MiB
/// on a debug build.
#[cfg(test)]
fn on_check_stack<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    std::thread::Builder::new()
        .stack_size(64 << 20)
        .spawn(f)
        .unwrap()
        .join()
        .unwrap()
}

/// The most of a file the view reads, the gate's cap: past it there is no view.
pub const MAX_BYTES: usize = 2 << 20;

/// Nodes nested deeper than this leave the view unclean rather than risk the stack
/// on a hostile file; no formatter writes them.
const MAX_DEPTH: usize = 600;

/// A check through a library or a test's own builder, by the call's name and
/// receiver: quicktest's `c.Assert(…)`, `c.Check(…)`, `qt.Assert(t, …)`; a
/// builder's `b.AssertFileContent(…)` (a method named `Assert…`); gomega's
/// `Expect(x)`, `g.Expect(x)`, `Eventually(f)`, `Ω(x)`, each the head of one
/// check (`.To(…)`, `.Should(…)`).
pub fn go_library_check(name: &str, receiver: Option<&str>, method: bool) -> bool {
    (method && name.starts_with("Assert"))
        || (name == "Check" && matches!(receiver, Some("c" | "qt")))
        || (matches!(name, "Expect" | "Eventually" | "Consistently" | "Ω")
            && (!method || matches!(receiver, Some("g" | "gomega" | "Gomega"))))
}

/// A grammar plan reads tests with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Grammar {
    Python,
    JavaScript,
    TypeScript,
    Tsx,
    Rust,
    Go,
}

impl Grammar {
    /// The grammar of a file, by its extension.
    pub fn of(path: &str) -> Option<Grammar> {
        let name = path.rsplit('/').next().unwrap_or(path);
        Some(match name.rsplit_once('.')?.1 {
            "py" | "pyi" => Grammar::Python,
            "js" | "jsx" | "mjs" | "cjs" => Grammar::JavaScript,
            "ts" | "mts" | "cts" => Grammar::TypeScript,
            "tsx" => Grammar::Tsx,
            "rs" => Grammar::Rust,
            "go" => Grammar::Go,
            _ => return None,
        })
    }

    fn language(self) -> tree_sitter::Language {
        match self {
            Grammar::Python => tree_sitter_python::LANGUAGE.into(),
            Grammar::JavaScript => tree_sitter_javascript::LANGUAGE.into(),
            Grammar::TypeScript => tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
            Grammar::Tsx => tree_sitter_typescript::LANGUAGE_TSX.into(),
            Grammar::Rust => tree_sitter_rust::LANGUAGE.into(),
            Grammar::Go => tree_sitter_go::LANGUAGE.into(),
        }
    }

    pub fn is_js(self) -> bool {
        matches!(
            self,
            Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx
        )
    }
}

/// What one version of a file holds, as its grammar reads it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct View {
    /// Parsed with no error or missing node and no nesting past the limit: only
    /// then may two versions be called the same.
    pub clean: bool,
    pub tests: Vec<Test>,
    /// Rust: the functions of the file, no tests themselves, that a test calls
    /// by name: what they check runs as part of that test.
    pub helpers: Vec<Helper>,
    /// Skip markers, each with the test it switches off and its condition.
    pub skips: Vec<Skip>,
    /// JavaScript: its tests come from node's own runner (it imports or requires
    /// `node:test` at its top), where `only` focuses nothing unless told to.
    pub node_test: bool,
    /// Names defined twice in one scope (Python keeps the last).
    pub redefinitions: Vec<Redefinition>,
    /// Rust `macro_rules!` definitions.
    pub macros: Vec<Macro>,
    /// Python: statements of the module itself that end the process
    /// (`sys.exit(0)`, `os._exit(0)`, `raise SystemExit`): importing the module
    /// ends the run, passing. One under `if __name__ == "__main__":` is none.
    pub exits: usize,
    /// JavaScript and Python: the assertions in no test case (a helper's, a
    /// hook's, the file's top): they still check whatever calls or runs them.
    pub loose: Vec<Assertion>,
    /// Python and JavaScript: assertions inside a `try` whose first handler
    /// catches their failure (a bare `except`, `Exception`, `BaseException`,
    /// `AssertionError`; any `catch`) and neither raises again nor checks.
    pub swallowed: usize,
    /// The text of each string literal, as the program sees it.
    pub strings: Vec<String>,
    /// The file's syntax with comments, layout, quote style, trailing commas,
    /// meaningless parentheses and import order taken out, and top-level
    /// definitions whose order does not matter sorted: tests reordered in a file
    /// read the same.
    pub unordered: String,
    /// Rust and Go: the tests, assertions and skips the weakened check counts.
    pub marks: Marks,
    /// What nothing in it calls, what it patches, tabulates and exports.
    pub uses: Uses,
    /// The plain names bound to a value on lines of their own, each with the
    /// value spelled ([`Spelled`]), in source order (a name bound twice is here
    /// twice).
    pub bindings: Vec<(String, Spelled)>,
    /// JavaScript, Python and Go: the branches that fail the test when a
    /// comparison with a number holds, in source order.
    pub bars: Vec<Bar>,
    /// The checks the tests' calls to the file's own check helpers run (each
    /// call, the helper's assertions), and how many of the helpers' own
    /// ([`View::loose`]; Rust's and Go's in [`Marks::assertions`]) are counted
    /// at each call instead.
    pub helper_checks: usize,
    pub helper_loose: usize,
    /// Rust and Go: the assertions the file's functions that are no tests hold
    /// (its check helpers', called or not).
    pub helper_held: usize,
    /// Whether the calls written say how often the helpers run: none in a loop
    /// of a test, no table of cases in the file.
    pub helpers_counted: bool,
}

impl View {
    /// Whether `other`, a version of the same file, means the same as this one:
    /// both parsed clean and alike once [`View::unordered`] leaves out comments,
    /// layout, quotes, import order and the order of definitions.
    pub fn means_same(&self, other: &View) -> bool {
        self.clean && other.clean && self.unordered == other.unordered
    }
}

/// Whether `before` and `after`, two versions of the file at `path`, mean the same
/// to whatever runs them ([`View::means_same`]). `false` for a path of no grammar
/// (a shell script: [`shell::same_meaning`] reads those), a side past
/// [`MAX_BYTES`] or one that does not parse: then the bytes decide.
pub fn same_meaning(path: &str, before: &str, after: &str) -> bool {
    let Some(grammar) = Grammar::of(path) else {
        return false;
    };
    match (view(grammar, before), view(grammar, after)) {
        (Some(old), Some(new)) => old.means_same(&new),
        _ => false,
    }
}

/// A bar a test sets its value: a branch that fails the test (`t.fail()`,
/// `throw`, `t.Fatal(…)`, `pytest.fail(…)`, `raise`) when a comparison of the
/// value with a number holds (`if (n > 10)`, `if d > 10*time.Millisecond`, `if
/// n >= LIMIT:`).
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Where its `if` starts.
    pub at: usize,
    /// The condition as written, whitespace runs one space.
    pub text: String,
    /// The side compared with the bound, squeezed of whitespace: a bar pairs
    /// the bars of the same test, subject, side and unit.
    pub subject: String,
    /// The bound, the names it reads bound once followed to their values,
    /// squeezed, numbers and all.
    pub bound: String,
    /// The bound's value, its literals folded (`10 * 1000`, `100 - 1`), Go's
    /// time units in nanoseconds, `Infinity`, `math.inf`, `float("inf")` and
    /// `1e400` infinite.
    pub value: f64,
    /// The dotted names the value is a multiple of that no reading knows
    /// (`units.MB`), joined by `*`; "" for none.
    pub unit: String,
    /// The branch fails above the bound (`n > 10`, `10 <= n`); else below.
    pub upper: bool,
}

// No bar holds NaN: its value equals itself.
impl Eq for Bar {}

/// A number literal's value: `1_000`, `0x10`, `1e-3`, JavaScript's `10n`, a
/// leading `-`.
fn number(text: &str) -> Option<f64> {
    let (negated, t) = match text.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, text),
    };
    let t = t.replace('_', "").to_ascii_lowercase();
    let t = t.strip_suffix('n').unwrap_or(&t);
    let radix = ["0b", "0o", "0x"].iter().zip([2, 8, 16]);
    let value = match radix
        .filter_map(|(p, r)| Some((t.strip_prefix(p)?, r)))
        .next()
    {
        Some((digits, r)) => i64::from_str_radix(digits, r).ok()? as f64,
        // `1e400` is written to be larger than any value.
        None => t.parse::<f64>().ok().filter(|v| !v.is_nan())?,
    };
    Some(if negated { -value } else { value })
}

/// What a file defines that nothing in it calls, and the names, tables and
/// harnesses the weakened check counts beside its tests.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Uses {
    /// The functions and classes nothing in the file names and no runner calls on
    /// its own (a helper never called, a class no runner collects), each its name
    /// and bytes; none inside another. Whether another file calls one is the
    /// caller's to tell.
    pub uncalled: Vec<(String, Range<usize>)>,
    /// Python and JavaScript: the names it patches (`monkeypatch.setattr(calc,
    /// "add", …)`, `mock.patch("calc.add")`, `vi.spyOn(calc, 'add')`), sorted.
    pub patched: Vec<String>,
    /// The rows of the tables its parametrized tests run on, and how many tables.
    pub cases: usize,
    pub tables: usize,
    /// JavaScript: the functions it exports.
    pub harnesses: Vec<Exported>,
}

/// An exported JavaScript function: a shared harness when its body defines tests.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exported {
    pub name: String,
    /// The bytes inside its body's braces.
    pub body: Range<usize>,
    /// The table rows in its body, and how many tables.
    pub cases: usize,
    pub tables: usize,
}

/// Rust's and Go's tests, assertions and skips as the weakened check counts
/// them: every assertion of the file, a helper's too, each subtest and each
/// skip with the test it switches off.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// In source order.
    pub tests: Vec<Marked>,
    /// Where each assertion some run reaches starts: not one under `if false`
    /// or in a closure thrown away.
    pub assertions: Vec<usize>,
    /// The assertion statements, in source order.
    pub statements: Vec<Statement>,
    /// Skip markers, in source order.
    pub skips: Vec<Marker>,
    /// Go: a `TestMain` that never calls `m.Run()`, which runs no test.
    pub switches: usize,
    /// Go: the build constraint lines (`//go:build …`, `// +build …`).
    pub builds: Vec<String>,
    /// Rust: the bytes of `quote!` and its kin, code a macro generates: no
    /// test or helper of this file.
    pub generated: Spans,
}

/// Byte ranges, sorted and merged once, so whether one holds a byte is a
/// binary search, not a pass over them all for each byte asked about.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Spans(Vec<Range<usize>>);

impl Spans {
    pub fn new(ranges: impl IntoIterator<Item = Range<usize>>) -> Spans {
        let mut all: Vec<Range<usize>> = ranges.into_iter().filter(|r| r.start < r.end).collect();
        all.sort_by_key(|r| r.start);
        let mut out: Vec<Range<usize>> = Vec::with_capacity(all.len());
        for r in all {
            match out.last_mut() {
                Some(last) if r.start <= last.end => last.end = last.end.max(r.end),
                _ => out.push(r),
            }
        }
        Spans(out)
    }

    /// Whether one of the ranges holds byte `at`.
    pub fn holds(&self, at: usize) -> bool {
        let k = self.0.partition_point(|r| r.start <= at);
        k.checked_sub(1).is_some_and(|k| at < self.0[k].end)
    }
}

/// A test as [`Marks`] counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marked {
    /// Where its marker starts: Rust's attribute, Go's function name or `Run`.
    pub at: usize,
    /// Empty when none is written (`fn $name`, `t.Run(tc.name, …)`).
    pub name: String,
    /// The bytes inside its body's braces, when it is a function.
    pub body: Option<Range<usize>>,
}

/// An assertion statement: from the assertion to the end of its statement (a
/// chained matcher included), whitespace runs one space; Go's `if` whose block
/// fails the test, Rust's `#[should_panic]` too.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    pub at: usize,
    pub text: String,
    /// An assertion's own, not an `if`'s or an attribute's.
    pub assertion: bool,
}

/// A skip marker as [`Marks`] counts it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    pub at: usize,
    /// The test it switches off; empty: the whole file's.
    pub owner: String,
    /// It switches its test off whatever the run: `#[ignore]`, Go's `t.Skip()`
    /// first in a test's body.
    pub outright: bool,
}

/// A test function or case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Test {
    pub name: String,
    /// Where it is defined: enclosing classes, modules or `describe` blocks,
    /// joined by `::`, empty at the top.
    pub scope: String,
    /// Its syntax in normal form.
    pub body: String,
    /// The bytes of its definition (JavaScript: the whole `it(…)` call).
    pub span: Range<usize>,
    pub assertions: Vec<Assertion>,
    /// Of those, the ones whose statement repeats the one right before it word
    /// for word: the same check twice in a row checks nothing more.
    pub repeats: usize,
    /// Go: its `*testing.T` parameter rebound inside it to a value of another type
    /// (`t := fakeT{}`), so the checks called on it are that value's.
    pub shadowed: Vec<String>,
    /// Rust: the `#[cfg(…)]` conditions on statements inside it, squeezed of
    /// whitespace: part of it already ran only under each.
    pub gates: Vec<String>,
    /// Rust: each expression statement inside it that a `#[cfg(…)]` on a
    /// statement gates, in normal form with that condition (squeezed).
    pub gated: Vec<(String, String)>,
    /// Rust: each expression statement inside it no such `#[cfg(…)]` gates, in
    /// normal form: what ran wherever the test did.
    pub ungated: Vec<String>,
    /// The first `return` among its own statements (not in a branch, loop or
    /// nested function) has assertions after it: no run reaches them.
    pub returns_early: bool,
    /// Python: its own body yields (a function nested in it yields for itself):
    /// a generator, of which pytest runs nothing and unittest drops unrun.
    pub yields: bool,
    /// The headers of the loops inside it whose body holds one of its
    /// assertions (`for i in range(1000):`, `for i := 0; i < 1000; i++`),
    /// each whitespace run one space, the first [`MAX_LOOPS`]: the range each
    /// check walks.
    pub loops: Vec<String>,
}

/// The most check loops a test keeps ([`Test::loops`]).
pub const MAX_LOOPS: usize = 64;

/// A Rust check helper ([`View::helpers`]), read for its assertion
/// statements as a test is for all of its statements ([`Test::gated`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Helper {
    pub name: String,
    /// The `#[cfg(…)]` conditions on statements inside it ([`Test::gates`]).
    pub gates: Vec<String>,
    /// Its assertion statements a `#[cfg(…)]` on a statement gates, in normal
    /// form with that condition (squeezed).
    pub gated: Vec<(String, String)>,
    /// Its assertion statements no such `#[cfg(…)]` gates, in normal form.
    pub ungated: Vec<String>,
}

/// One assertion in a test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    pub span: Range<usize>,
    /// Its source text.
    pub text: String,
    /// Its syntax in normal form.
    pub normal: String,
    /// Python and JavaScript, a test's own: the conditions of the `if`s inside
    /// the test it runs under, outermost first ([`MAX_GUARDS`] at most): it
    /// checks only on the runs where they hold. Shared by the assertions under
    /// one `if`: a copy each was quadratic in a long condition over many checks.
    pub guards: Vec<std::sync::Arc<Guard>>,
}

/// The most conditions an assertion keeps ([`Assertion::guards`]), the
/// outermost: no test nests deeper, and a hostile one nesting thousands deep
/// over thousands of checks stays linear.
pub const MAX_GUARDS: usize = 16;

/// A condition an assertion runs under: a hash of its normal form (`not (…)`
/// for an `else`), which tells two conditions apart in constant time however
/// long they are, and its source text (`!` before it for an `else`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guard {
    pub key: u64,
    pub text: String,
    /// Its normal form (`not (…)` for an `else`), held once for every
    /// assertion under its branch: what a skip condition's reading reads.
    pub normal: String,
    /// The hash of the `if`'s own condition, and whether this is its `else`:
    /// the two sides of one `if` tell each other apart.
    pub of: u64,
    pub negated: bool,
}

/// A skip, expected-failure or focus marker.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Skip {
    pub span: Range<usize>,
    /// The test it is on; `None`: the scope's or file's.
    pub test: Option<String>,
    /// Its condition in normal form, when it has one (`skipif(sys.platform …)`,
    /// `if runtime.GOOS … { t.Skip() }`, `if is_root() { return; }`); for Rust's
    /// `#[cfg(…)]` and `#[cfg_attr(…, ignore)]` the attribute squeezed of
    /// whitespace.
    pub condition: Option<String>,
    /// An `if … { return }` deeper than the test's own statements (in a loop or
    /// a subtest): it stops a part of the test, read as a condition the test had
    /// but never as a new one.
    pub nested: bool,
    /// JavaScript's focus (`.only`, `fit`, `fdescribe`): it runs its own tests
    /// alone, switching off every other test of the file.
    pub focus: bool,
    /// A condition that stops the test whenever it holds, for the view's
    /// conditions to judge ([`Skip::condition`]) and not a marker for the
    /// counts: `if (c) return` and `ctx.skip(c)` in its body, `{ skip: c }`,
    /// `const test = base.skipIf(c)`, `c ? test.skip : test`.
    pub guard: bool,
    /// Python: a marker that leaves its test running somewhere (`xfail`,
    /// `flaky` and `expectedFailure` run it, to fail or again; `importorskip`
    /// wherever the import works): it switches the test off, but not outright.
    pub runs: bool,
}

impl Skip {
    /// The names, words and numbers its condition is made of, sorted: a
    /// condition that keeps every word of another and adds some is widened.
    pub fn words(&self) -> Vec<&str> {
        let mut out: Vec<&str> = self
            .condition
            .as_deref()
            .unwrap_or("")
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        out.sort_unstable();
        out.dedup();
        out
    }
}

/// A name bound twice in one scope by a definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Redefinition {
    pub name: String,
    pub scope: String,
    /// Assertions in the definition that no longer counts and the one that does.
    pub first_assertions: usize,
    pub last_assertions: usize,
}

/// A Rust `macro_rules!` definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Macro {
    pub name: String,
    /// Whether anything in the file invokes it by name.
    pub invoked: bool,
    /// The tests its expansion defines by a literal name.
    pub tests: Vec<String>,
    /// It has arms and none expands to a call (no macro, no function): nothing
    /// it is given can panic or be checked.
    pub hollow: bool,
    /// The tests its expansion writes (`#[test] $v fn $n() { … }`) whose first
    /// `return` at their top has an assertion after it.
    pub returns_early: usize,
}

/// The syntax tree of `text` as `grammar`, for a rule that reads the tree itself;
/// `None` past [`MAX_BYTES`], or when it does not parse cleanly (a half-written
/// file says nothing).
pub fn clean_tree(grammar: Grammar, text: &str) -> Option<tree_sitter::Tree> {
    parse(grammar, text).filter(|tree| !tree.root_node().has_error())
}

/// The view of `text` as `grammar`, or `None` past [`MAX_BYTES`] (or when the
/// grammar cannot be loaded, which a version mismatch would do).
pub fn view(grammar: Grammar, text: &str) -> Option<View> {
    parse(grammar, text).map(|tree| view::read(grammar, text, &tree))
}

/// The normal form of `text` read as one Python expression, or `None` when it
/// is not one that parses cleanly: pytest evaluates a `skipif` condition given
/// as a string (`skipif("sys.version_info < (3,)")`).
pub fn python_expression(text: &str) -> Option<String> {
    let tree = clean_tree(Grammar::Python, text)?;
    let [statement] = kids(tree.root_node())[..] else {
        return None;
    };
    let [expression] = kids(statement)[..] else {
        return None;
    };
    (statement.kind() == "expression_statement").then_some(())?;
    normal::of(Grammar::Python, text, expression)
}

/// A condition that folds to a literal, in any of the grammars: `Some(false)`
/// for a falsy literal (`false`, Python's `False`/`None`, `0`, JavaScript's
/// `null`/`undefined`/`''`), `not`/`!` of a truthy one, and an `and`/`&&` with
/// a falsy operand (`false && x`: whatever `x` does, the branch never runs);
/// `Some(true)` for their opposites. Folded 64 levels deep at most: a longer
/// chain is read as one that can hold either way.
pub fn folded(src: &str, node: tree_sitter::Node<'_>) -> Option<bool> {
    fold(src, node, 64)
}

fn fold(src: &str, node: tree_sitter::Node<'_>, depth: usize) -> Option<bool> {
    let depth = depth.checked_sub(1)?;
    let text = &src[node.byte_range()];
    let operand = |field: &str| fold(src, node.child_by_field_name(field)?, depth);
    match node.kind() {
        "parenthesized_expression" => fold(src, *kids(node).first()?, depth),
        "not_operator" => operand("argument").map(|held| !held),
        "unary_expression" if text.starts_with('!') => {
            fold(src, *kids(node).first()?, depth).map(|held| !held)
        }
        "boolean_operator" | "binary_expression" => {
            let operator = &src[node.child_by_field_name("operator")?.byte_range()];
            let (left, right) = (operand("left"), operand("right"));
            let (and, or) = (
                matches!(operator, "&&" | "and"),
                matches!(operator, "||" | "or"),
            );
            match () {
                _ if and && (left == Some(false) || right == Some(false)) => Some(false),
                _ if or && (left == Some(true) || right == Some(true)) => Some(true),
                _ if and || or => left.filter(|_| left == right),
                _ => None,
            }
        }
        _ => match text {
            "true" | "True" | "1" => Some(true),
            "false" | "False" | "None" | "0" | "null" | "undefined" | "''" | "\"\"" => Some(false),
            _ => None,
        },
    }
}

/// The named children of `node` that are not comments.
pub fn kids(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut cursor = node.walk();
    node.named_children(&mut cursor)
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

/// Every child of `node`, named or not (a token tree's tokens), comments left out.
pub fn kids_all(node: tree_sitter::Node<'_>) -> Vec<tree_sitter::Node<'_>> {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .filter(|c| !c.kind().contains("comment"))
        .collect()
}

/// The syntax tree of `text` as `grammar`; `None` past [`MAX_BYTES`].
fn parse(grammar: Grammar, text: &str) -> Option<tree_sitter::Tree> {
    if text.len() > MAX_BYTES {
        return None;
    }
    any_tree(grammar, text)
}

/// The syntax tree of `text` as `grammar` at any size, errors and all: for a rule
/// that a file padded past [`MAX_BYTES`] or left half-written must not dodge (the
/// parse is linear in the text). `None` only when the grammar cannot be loaded.
pub fn any_tree(grammar: Grammar, text: &str) -> Option<tree_sitter::Tree> {
    let mut parser = tree_sitter::Parser::new();
    parser.set_language(&grammar.language()).ok()?;
    match grammar {
        Grammar::Python => parser.parse(&*unrun(text), None),
        _ => parser.parse(text, None),
    }
}

/// Python's comment-only lines past [`COMMENT_RUN`] in a row.
const COMMENT_RUN: usize = 64;

/// `text` with the Python comment-only lines of a run of more than
/// [`COMMENT_RUN`] of them (blank lines between them count in the run) turned to
/// spaces, byte for byte (the tree's places stay the text's): the grammar's
/// scanner reads every comment line that follows a line's end again at each of
/// them, so a run costs the square of its length (20,000 lines took 9 s). The
/// first two lines stay, where a source encoding is said, and so does a line
/// that could end a string (a triple quote, a backslash at its end): such a run
/// inside a long string loses only its text, never where the string ends.
fn unrun(text: &str) -> std::borrow::Cow<'_, str> {
    fn trimmed(l: &str) -> &str {
        l.trim_start_matches([' ', '\t', '\u{c}'])
            .trim_end_matches(['\r', '\n'])
    }
    let closes = |l: &str| l.contains("\"\"\"") || l.contains("\'\'\'") || l.ends_with('\\');
    let comment = |l: &str| trimmed(l).starts_with('#') && !closes(trimmed(l));
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    let mut blank = vec![false; lines.len()];
    let mut at = 2;
    while at < lines.len() {
        let run = lines[at..]
            .iter()
            .take_while(|l| comment(l) || trimmed(l).is_empty())
            .count();
        let comments = lines[at..at + run].iter().filter(|l| comment(l)).count();
        if comments > COMMENT_RUN {
            for k in at..at + run {
                blank[k] = comment(lines[k]);
            }
        }
        at += run.max(1);
    }
    if !blank.contains(&true) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    for (line, blank) in lines.iter().zip(blank) {
        let body = line.trim_end_matches(['\r', '\n']);
        match blank {
            true => out.extend(std::iter::repeat_n(' ', body.len())),
            false => out.push_str(body),
        }
        out.push_str(&line[body.len()..]);
    }
    std::borrow::Cow::Owned(out)
}

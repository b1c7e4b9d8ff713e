//! The bars a test sets its values ([`Bar`]): a branch that fails the test when
//! a comparison with a number holds, read from the tree: what the branch does,
//! which side of the comparison is the bound, and the names that bound reads,
//! followed to the values the file binds them to once. A comparison of a
//! value with another value, or a branch that only stops a loop, is no bar.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::marks::GO_FAILS;
use super::resolved::Names;
use super::{Bar, Grammar, kids, preorder};

/// The most bars a file is read for: a file of thousands of them is data, and
/// what it costs must stay in step with what a test file holds.
const MOST: usize = 512;

/// How many names deep a bound is followed (`LIMIT = BASE * 2`, `BASE = 5`).
const FOLLOW: usize = 8;

/// The longest condition, or value of a name it reads, taken for a bar: a
/// longer one is no bar a test was written with.
const LONGEST: usize = 400;

/// The bars of the file at `root`, in source order; none for Rust.
pub(super) fn read<'t>(g: Grammar, src: &str, root: Node<'t>, names: &Names<'_, 't>) -> Vec<Bar> {
    if g == Grammar::Rust {
        return Vec::new();
    }
    let text = |n: Node<'_>| &src[n.byte_range()];
    let mut consts: HashMap<&str, Option<Node<'t>>> = HashMap::new();
    let mut changed: HashSet<&str> = HashSet::new();
    let mut branches = Vec::new();
    for n in preorder(root) {
        match n.kind() {
            "if_statement" | "elif_clause" => branches.push(n),
            // Go's constants: one name and one value, each spec.
            "const_spec" => {
                let mut cursor = n.walk();
                let named: Vec<Node<'t>> = n.children_by_field_name("name", &mut cursor).collect();
                let values = n.child_by_field_name("value").map(kids).unwrap_or_default();
                if let ([name], [value]) = (&named[..], &values[..]) {
                    consts
                        .entry(text(*name))
                        .and_modify(|v| *v = None)
                        .or_insert(Some(*value));
                }
            }
            // A name counted up or looped over holds no one value.
            "update_expression" => changed.extend(n.child_by_field_name("argument").map(text)),
            "augmented_assignment" | "augmented_assignment_expression" | "for_statement" => {
                changed.extend(n.child_by_field_name("left").map(text));
            }
            _ => {}
        }
    }
    let reader = Reader {
        g,
        src,
        names,
        consts,
        changed,
    };
    branches
        .into_iter()
        .filter_map(|n| reader.bar(n))
        .take(MOST)
        .collect()
}

struct Reader<'s, 'n, 't> {
    g: Grammar,
    src: &'s str,
    names: &'n Names<'s, 't>,
    consts: HashMap<&'s str, Option<Node<'t>>>,
    changed: HashSet<&'s str>,
}

/// A bound as read: its value with its literals folded, the dotted names it
/// is a multiple of that no reading knows, its spelling.
struct Bound {
    value: f64,
    unit: String,
    spelled: String,
}

impl<'s, 't> Reader<'s, '_, 't> {
    fn text(&self, n: Node<'_>) -> &'s str {
        &self.src[n.byte_range()]
    }

    /// The bar an `if` (or Python's `elif`) sets, when its branch fails the
    /// test and its condition compares a value with a number.
    fn bar(&self, n: Node<'t>) -> Option<Bar> {
        let then = n.child_by_field_name("consequence")?;
        let condition = unparen(n.child_by_field_name("condition")?);
        if condition.byte_range().len() > LONGEST || !self.fails(then) {
            return None;
        }
        let (left, op, right) = self.comparison(condition)?;
        let above = match op {
            ">" | ">=" => true,
            "<" | "<=" => false,
            _ => return None,
        };
        let (bound, upper, subject) =
            match (self.bound(left, 0, false), self.bound(right, 0, false)) {
                (None, Some(b)) => (b, above, left),
                (Some(b), None) => (b, !above, right),
                _ => return None,
            };
        Some(Bar {
            at: n.start_byte(),
            text: self
                .text(condition)
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" "),
            subject: squeezed(self.text(subject)),
            bound: bound.spelled,
            value: bound.value,
            unit: bound.unit,
            upper,
        })
    }

    /// The two sides of a comparison and its operator.
    fn comparison(&self, n: Node<'t>) -> Option<(Node<'t>, &'s str, Node<'t>)> {
        match n.kind() {
            "binary_expression" => Some((
                n.child_by_field_name("left")?,
                self.text(n.child_by_field_name("operator")?),
                n.child_by_field_name("right")?,
            )),
            // Python's chain `a < b < c` is two comparisons.
            "comparison_operator" => match kids(n)[..] {
                [left, right] => {
                    Some((left, self.text(n.child_by_field_name("operators")?), right))
                }
                _ => None,
            },
            _ => None,
        }
    }

    /// What `n` comes to when it is made of numbers alone: number literals, a
    /// number negated, products, sums and differences of them, a name the
    /// file binds once to one (followed [`FOLLOW`] deep), a constant every
    /// reader knows ([`known`]), a unit a number is multiplied by
    /// (`10*units.MB`). `unit`: a dotted name may stand here.
    fn bound(&self, n: Node<'t>, depth: usize, unit: bool) -> Option<Bound> {
        let n = unparen(n);
        let text = self.text(n);
        let plain = |value: f64| Bound {
            value,
            unit: String::new(),
            spelled: squeezed(text),
        };
        if let Some(value) = known(&squeezed(text)) {
            return Some(plain(value));
        }
        match n.kind() {
            "number" | "integer" | "float" | "int_literal" | "float_literal" => {
                super::number(&squeezed(text)).map(plain)
            }
            "unary_expression" | "unary_operator" => {
                let operand = n
                    .child_by_field_name("argument")
                    .or_else(|| n.child_by_field_name("operand"))?;
                let inner = self.bound(operand, depth, false)?;
                let value = match self.text(n.child_by_field_name("operator")?) {
                    "-" => -inner.value,
                    "+" => inner.value,
                    _ => return None,
                };
                Some(Bound {
                    value,
                    unit: inner.unit,
                    spelled: squeezed(text),
                })
            }
            "binary_expression" | "binary_operator" => {
                let op = self.text(n.child_by_field_name("operator")?);
                let product = op == "*";
                let left = self.bound(n.child_by_field_name("left")?, depth, product)?;
                let right = self.bound(n.child_by_field_name("right")?, depth, product)?;
                let (value, unit) = match op {
                    "*" => (
                        left.value * right.value,
                        match (left.unit.is_empty(), right.unit.is_empty()) {
                            (true, _) => right.unit,
                            (_, true) => left.unit,
                            _ => return None,
                        },
                    ),
                    "+" | "-" if left.unit == right.unit => (
                        match op {
                            "+" => left.value + right.value,
                            _ => left.value - right.value,
                        },
                        left.unit,
                    ),
                    _ => return None,
                };
                (!value.is_nan()).then(|| Bound {
                    value,
                    unit,
                    spelled: format!("{}{op}{}", left.spelled, right.spelled),
                })
            }
            "selector_expression" | "member_expression" | "attribute" if unit && dotted(n) => {
                Some(Bound {
                    value: 1.0,
                    unit: squeezed(text),
                    spelled: squeezed(text),
                })
            }
            "identifier" if depth < FOLLOW && !self.changed.contains(text) => {
                let value = match self.g {
                    Grammar::Go => (*self.consts.get(text)?)?,
                    Grammar::Python => self.names.bound_here(text)?,
                    _ if self.names.binders(text) == 1 => self.names.bound_here(text)?,
                    _ => return None,
                };
                // A long value is data, and read deep it would be a deep walk.
                if value.byte_range().len() > LONGEST {
                    return None;
                }
                self.bound(value, depth + 1, unit)
            }
            _ => None,
        }
    }

    /// Whether the branch `then` fails the test: one of its own statements is
    /// a `throw` or `raise` (not of a skip), a call of `fail` (`t.fail()`,
    /// `assert.fail(…)`, `pytest.fail(…)`, `self.fail(…)`), or Go's
    /// `t.Error…`/`t.Fatal…`/`t.Fail…`.
    fn fails(&self, then: Node<'t>) -> bool {
        let statements = match then.kind() {
            "statement_block" | "block" => match kids(then)[..] {
                [list] if list.kind() == "statement_list" => kids(list),
                ref all => all.to_vec(),
            },
            _ => vec![then],
        };
        statements.into_iter().any(|s| match s.kind() {
            "throw_statement" => true,
            "raise_statement" => !self.text(s).contains("Skip"),
            "expression_statement" => {
                let expression = kids(s).first().copied().map(|e| match e.kind() {
                    "await_expression" => e.named_child(0).unwrap_or(e),
                    _ => e,
                });
                expression.is_some_and(|e| self.fail_call(e))
            }
            _ => false,
        })
    }

    fn fail_call(&self, call: Node<'t>) -> bool {
        if !matches!(call.kind(), "call_expression" | "call") {
            return false;
        }
        let Some(f) = call.child_by_field_name("function") else {
            return false;
        };
        let name = match f.kind() {
            "identifier" => Some(f),
            "member_expression" => f.child_by_field_name("property"),
            "attribute" => f.child_by_field_name("attribute"),
            "selector_expression" => f.child_by_field_name("field"),
            _ => None,
        };
        let name = name.map_or("", |n| self.text(n));
        match self.g {
            Grammar::Go => {
                let on = f
                    .child_by_field_name("operand")
                    .is_some_and(|o| matches!(o.kind(), "identifier" | "call_expression"));
                on && GO_FAILS.contains(&name)
            }
            _ => name == "fail",
        }
    }
}

/// `n` out of the brackets that hold the whole of it.
fn unparen(mut n: Node<'_>) -> Node<'_> {
    while n.kind() == "parenthesized_expression"
        && let [inner] = kids(n)[..]
    {
        n = inner;
    }
    n
}

/// Whether `n` is a dotted name (`time.Millisecond`, `units.MB`), no call or
/// index in it.
fn dotted(n: Node<'_>) -> bool {
    preorder(n).all(|k| {
        matches!(
            k.kind(),
            "identifier"
                | "property_identifier"
                | "field_identifier"
                | "package_identifier"
                | "selector_expression"
                | "member_expression"
                | "attribute"
                | "."
        )
    })
}

/// The value of a constant the languages and their libraries name, squeezed:
/// the infinities and largest numbers (a bound moved there bars nothing) and
/// Go's time units in nanoseconds (`time.Second` is `1000*time.Millisecond`).
fn known(squeezed: &str) -> Option<f64> {
    let inf = f64::INFINITY;
    let value = match squeezed {
        "Infinity" | "Number.POSITIVE_INFINITY" | "math.inf" | "numpy.inf" | "np.inf" => inf,
        "Number.NEGATIVE_INFINITY" | "-math.inf" => -inf,
        "Number.MAX_VALUE" | "sys.float_info.max" | "math.MaxFloat64" => f64::MAX,
        "Number.MAX_SAFE_INTEGER" => 9_007_199_254_740_991.0,
        "sys.maxsize" | "math.MaxInt" | "math.MaxInt64" => i64::MAX as f64,
        "math.MaxInt32" => i32::MAX as f64,
        "math.MaxUint32" => u32::MAX as f64,
        "math.MaxUint64" | "math.MaxUint" => u64::MAX as f64,
        "math.Inf(1)" | "math.Inf(0)" => inf,
        "math.Inf(-1)" => -inf,
        "time.Nanosecond" => 1.0,
        "time.Microsecond" => 1e3,
        "time.Millisecond" => 1e6,
        "time.Second" => 1e9,
        "time.Minute" => 6e10,
        "time.Hour" => 3.6e12,
        _ => {
            // `float("inf")`, `float('-Infinity')`
            let inner = squeezed.strip_prefix("float(")?.strip_suffix(')')?;
            let word = inner
                .strip_prefix(['"', '\''])?
                .strip_suffix(['"', '\''])?
                .to_ascii_lowercase();
            match word.as_str() {
                "inf" | "+inf" | "infinity" | "+infinity" => inf,
                "-inf" | "-infinity" => -inf,
                _ => return None,
            }
        }
    };
    Some(value)
}

fn squeezed(text: &str) -> String {
    text.split_whitespace().collect()
}

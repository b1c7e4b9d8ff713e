//! What a name or a tiny expression stands for where a literal is expected:
//! the constant it folds to, the dotted path a Python name was bound to. A
//! spelling through a name or a sum reads as the literal would.

use std::collections::HashMap;

use tree_sitter::Node;

use super::normal::string_value;
use super::{MAX_DEPTH, kids, preorder};

/// The integer a constant expression comes to, as Python and JavaScript read
/// it: a number (`0x0`, `1_0`, Rust's `0u8`), a bool, `None` or `null` (0), a string (its
/// truth), `-`, `+`, `~`, `not` or `!` of one, `int(…)`, `bool(…)`, `Number(…)`
/// or `Boolean(…)` of one, a conditional on a constant.
pub(super) fn constant(src: &str, n: Node<'_>) -> Option<i64> {
    folded(src, n, 0)
}

/// Whether `n` is a constant that is false (`0`, `None`, `''`, `not 1`).
pub(super) fn falsy(src: &str, n: Node<'_>) -> bool {
    constant(src, n) == Some(0)
}

fn folded(src: &str, n: Node<'_>, depth: usize) -> Option<i64> {
    let n = picked(src, n, depth);
    let text = &src[n.byte_range()];
    let one = |n: Option<Node<'_>>| folded(src, n?, depth + 1);
    match n.kind() {
        _ if depth > MAX_DEPTH => None,
        "integer" | "number" | "float" | "integer_literal" => {
            // Rust's type suffix (`0u8`, `0x0i32`): no digit is a `u` or an `i`.
            let t = text.replace('_', "").to_ascii_lowercase();
            let t = match n.kind() {
                "integer_literal" => t.split(['u', 'i']).next().unwrap_or_default().to_string(),
                _ => t,
            };
            let radix = ["0b", "0o", "0x"].iter().zip([2, 8, 16]);
            let (digits, radix) = radix
                .filter_map(|(p, r)| Some((t.strip_prefix(p)?, r)))
                .next()
                .unwrap_or((t.as_str(), 10));
            let float = || t.parse::<f64>().ok().filter(|f| f.fract() == 0.0);
            i64::from_str_radix(digits, radix)
                .ok()
                .or_else(|| float().map(|f| f as i64))
        }
        "true" => Some(1),
        "false" | "none" | "null" => Some(0),
        "string" => Some(i64::from(!string_value(src, n).is_empty())),
        "unary_operator" | "unary_expression" | "not_operator" => {
            let v = one(n.child_by_field_name("argument"))?;
            match &src[n.child(0)?.byte_range()] {
                "-" => Some(-v),
                "+" => Some(v),
                "~" => Some(!v),
                "not" | "!" => Some(i64::from(v == 0)),
                _ => None,
            }
        }
        "call" | "call_expression" => {
            let args = kids(n.child_by_field_name("arguments")?);
            let v = match args.as_slice() {
                [arg] => one(Some(*arg))?,
                _ => return None,
            };
            match &src[n.child_by_field_name("function")?.byte_range()] {
                "int" | "Number" => Some(v),
                "bool" | "Boolean" => Some(i64::from(v != 0)),
                _ => None,
            }
        }
        _ => None,
    }
}

/// `n` out of its parentheses, or the branch a conditional on a constant
/// takes (`None if True else test_add`, `false ? 1 : 0`).
pub(super) fn picked<'t>(src: &str, n: Node<'t>, depth: usize) -> Node<'t> {
    let mut n = n;
    for depth in depth..MAX_DEPTH {
        // Python writes `a if c else b`; JavaScript `c ? a : b`.
        let (a, c, b) = match n.kind() {
            "parenthesized_expression" => match kids(n).as_slice() {
                [inner] => (Some(*inner), None, None),
                _ => return n,
            },
            "conditional_expression" => (n.named_child(0), n.named_child(1), n.named_child(2)),
            "ternary_expression" => (
                n.child_by_field_name("consequence"),
                n.child_by_field_name("condition"),
                n.child_by_field_name("alternative"),
            ),
            _ => return n,
        };
        let branch = match c.map(|c| folded(src, c, depth + 1)) {
            None => a,
            Some(Some(0)) => b,
            Some(Some(_)) => a,
            Some(None) => return n,
        };
        n = match branch {
            Some(b) => b,
            None => return n,
        };
    }
    n
}

/// What a file binds each name to once: a Python name imported to its dotted
/// path (`from os import _exit as bye`), a name assigned to its value (`bye =
/// os._exit`, `quiet = contextlib.suppress(…)`, `const bye = process.exit`). A
/// name bound twice is left out: which binding a use sees is the run's.
pub(super) struct Names<'s, 't> {
    src: &'s str,
    bound: HashMap<&'s str, Option<Bound<'t>>>,
    /// JavaScript: how many places bind each name ([`Names::binders`]), counted
    /// once in the walk that reads the file, so a name asked for again costs
    /// nothing more.
    binders: HashMap<&'s str, usize>,
}

enum Bound<'t> {
    Path(String),
    Value(Node<'t>),
}

impl<'s, 't> Names<'s, 't> {
    pub(super) fn of(src: &'s str, root: Node<'t>) -> Self {
        let text = |n: Node<'_>| &src[n.byte_range()];
        let mut bound: HashMap<&'s str, Option<Bound<'t>>> = HashMap::new();
        let mut bind = |name: &'s str, b: Bound<'t>| {
            bound
                .entry(name)
                .and_modify(|e| *e = None)
                .or_insert(Some(b));
        };
        let mut binders: HashMap<&'s str, usize> = HashMap::new();
        for n in preorder(root) {
            for b in binding_names(n) {
                *binders.entry(text(b)).or_default() += 1;
            }
            match n.kind() {
                "import_statement" | "import_from_statement" => {
                    let module = n.child_by_field_name("module_name").map(text);
                    let mut cursor = n.walk();
                    for name in n.children_by_field_name("name", &mut cursor) {
                        let (path, local) = match name.kind() {
                            "aliased_import" => (name.child_by_field_name("name"), name),
                            _ if module.is_none() => continue,
                            _ => (Some(name), name),
                        };
                        let local = local.child_by_field_name("alias").unwrap_or(local);
                        let Some(path) = path.map(text) else { continue };
                        let path = module.map_or(path.to_string(), |m| format!("{m}.{path}"));
                        bind(text(local), Bound::Path(path));
                    }
                }
                "assignment" | "variable_declarator" => {
                    let field = |a, b| n.child_by_field_name(a).or(n.child_by_field_name(b));
                    let (Some(left), Some(right)) =
                        (field("left", "name"), field("right", "value"))
                    else {
                        continue;
                    };
                    if left.kind() == "identifier" {
                        bind(text(left), Bound::Value(right));
                    }
                }
                _ => {}
            }
        }
        Names {
            src,
            bound,
            binders,
        }
    }

    /// How many places of the file bind `name`: a declaration, a parameter, a
    /// loop's or a catch's variable, a name a pattern takes, or an assignment.
    pub(super) fn binders(&self, name: &str) -> usize {
        self.binders.get(name).copied().unwrap_or(0)
    }

    /// The dotted path `n` names, through the file's names and `getattr(m,
    /// "name")`: `bye` bound to `os._exit` is `os._exit`.
    pub(super) fn path(&self, n: Node<'t>) -> String {
        self.path_at(n, 0)
    }

    fn path_at(&self, n: Node<'t>, depth: usize) -> String {
        // A callee's name is short: a longer text is no name, and copying it
        // at each level of a deep chain would be quadratic.
        let text = || match n.byte_range().len() {
            ..=200 => self.src[n.byte_range()].split_whitespace().collect(),
            _ => String::new(),
        };
        let field = |f| n.child_by_field_name(f);
        if depth > MAX_DEPTH {
            return text();
        }
        let string = |s: Node<'t>| (s.kind() == "string").then(|| string_value(self.src, s));
        let args = field("arguments").map(kids).unwrap_or_default();
        // `o.name`, JavaScript's `o['name']`, Python's `getattr(o, 'name')`.
        let member = match (n.kind(), args.as_slice()) {
            ("attribute" | "member_expression", _) => {
                let name = field("attribute").or(field("property"));
                field("object").zip(name.map(|a| self.src[a.byte_range()].to_string()))
            }
            ("subscript_expression", _) => field("object").zip(field("index").and_then(string)),
            ("call", [object, name])
                if field("function").is_some_and(|f| {
                    f.kind() == "identifier" && self.path_at(f, depth + 1) == "getattr"
                }) =>
            {
                Some(*object).zip(string(*name))
            }
            _ => None,
        };
        match (n.kind(), member) {
            (_, Some((object, name))) => format!("{}.{name}", self.path_at(object, depth + 1)),
            ("identifier", _) => match self.bound.get(&self.src[n.byte_range()]) {
                Some(Some(Bound::Path(p))) => p.clone(),
                Some(Some(Bound::Value(v))) => self.path_at(*v, depth + 1),
                _ => text(),
            },
            ("parenthesized_expression", _) => match kids(n).as_slice() {
                [inner] => self.path_at(*inner, depth + 1),
                _ => text(),
            },
            _ => text(),
        }
    }

    /// The value the file binds `name` to once, itself (no name it holds
    /// followed further): JavaScript's `{ skip }` names its value by a
    /// shorthand key, no identifier node.
    pub(super) fn bound_here(&self, name: &str) -> Option<Node<'t>> {
        match self.bound.get(name) {
            Some(Some(Bound::Value(v))) => Some(*v),
            _ => None,
        }
    }

    /// The expression `n` stands for: the value a name was bound to (`quiet` of
    /// `quiet = contextlib.suppress(…)`), or `n`.
    pub(super) fn value(&self, n: Node<'t>) -> Node<'t> {
        let mut n = n;
        for _ in 0..MAX_DEPTH {
            match (n.kind(), self.bound.get(&self.src[n.byte_range()])) {
                ("identifier", Some(Some(Bound::Value(v)))) => n = *v,
                _ => break,
            }
        }
        n
    }
}

/// The JavaScript names `n` binds where it stands: a declarator's name, an
/// assignment's or a `for…in`/`for…of` loop's left side, a catch's or an
/// arrow's lone parameter, a default's name, a pattern's or a parameter list's
/// names (each a name itself, not one nested deeper: the walk reaches those).
fn binding_names<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let field = match n.kind() {
        "variable_declarator" => "name",
        "assignment_expression"
        | "augmented_assignment_expression"
        | "for_in_statement"
        | "assignment_pattern" => "left",
        "catch_clause" | "arrow_function" => "parameter",
        "pair_pattern" => "value",
        "formal_parameters" | "required_parameter" | "optional_parameter" | "array_pattern"
        | "object_pattern" | "rest_pattern" => "",
        _ => return Vec::new(),
    };
    let name = |c: &Node<'t>| {
        matches!(
            c.kind(),
            "identifier" | "shorthand_property_identifier_pattern"
        )
    };
    if field.is_empty() {
        let mut cursor = n.walk();
        return n.named_children(&mut cursor).filter(name).collect();
    }
    n.child_by_field_name(field)
        .filter(name)
        .into_iter()
        .collect()
}

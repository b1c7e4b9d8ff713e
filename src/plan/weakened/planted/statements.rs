//! Python's statements as its syntax tree gives them, for the planted-code rules:
//! each simple statement and each compound statement's header on one line, with the
//! `def` it is in, the name it defines and the calls it makes.

use tree_sitter::Node;

use crate::plan::syntax::{Grammar, any_tree, preorder};

/// What a statement defines by name.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Defines {
    Def,
    Class,
    /// A name bound to a lambda (`L = lambda a, b: a + b`).
    Lambda,
}

/// A name a statement binds to a module or to something in one.
pub(super) enum Bind {
    /// `import calc.ops as o` (`o`, `calc.ops`), `import calc.ops` (`calc`, `calc`),
    /// `from calc import Calc` (`Calc`, `calc.Calc`).
    Import(String, String),
    /// `from calc import *`: the module.
    Star(String),
    /// `m = importlib.import_module("calc")`, `m = __import__("calc")`, `m =
    /// sys.modules["calc"]`: the name and the module.
    Module(String, String),
    /// `_c = calc`: the name and the name it takes.
    Alias(String, String),
}

/// A statement of a Python file: a simple one (`x = 1; calc.add = fake` is two), a
/// compound one's header (`if hasattr(calc, "add"):`, `def f(x=g()):`), or a
/// decorator.
pub(super) struct Stmt {
    /// Its text on one line, trimmed: comments out, a triple-quoted string's text
    /// out (`""` stands for it: a docstring's or a script's brackets and quotes are
    /// no code's), its lines joined with a space. Short strings kept whole: their
    /// text is what is read.
    pub text: String,
    /// Its text with every string's text out, its quotes kept (`f''`, `""`).
    pub blanked: String,
    /// The text of each string in it (an f-string's with its fields).
    pub strings: Vec<String>,
    /// The `def` it is in, innermost, as its index among the file's statements.
    pub within: Option<usize>,
    /// The name it defines, and how.
    pub defines: Option<(Defines, String)>,
    /// An assignment's targets (`a = calc.add` of `a = calc.add = fake`, `x` of `x:
    /// T = v`) and its value, each on one line as [`Stmt::text`] and
    /// [`Stmt::blanked`] are.
    pub assigned: Option<[(String, String); 2]>,
    /// A `for` statement's target (`calc.add` of `for calc.add in [fake]:`), as
    /// [`Stmt::blanked`] is.
    pub looped: Option<String>,
    /// The names it binds to modules or what is in them.
    pub binds: Vec<Bind>,
    /// What it calls by a name (`go` of `go()`) or a name's method (`("_I", "go")`
    /// of `_I.go()`); a method of anything else has an empty receiver.
    pub calls: Vec<(Option<String>, String)>,
}

/// The statements of `text` in order, nested ones after their header; none when the
/// grammar cannot be loaded. A file that does not parse cleanly is read all the same:
/// the parser recovers around what it cannot read.
pub(super) fn statements(text: &str) -> Vec<Stmt> {
    let Some(tree) = any_tree(Grammar::Python, &uncommented(text)) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    // Statements still to read, last first, each with the `def` it is in; a stack,
    // so that no depth of nesting can exhaust the call stack.
    let root = tree.root_node();
    let mut todo: Vec<(Node<'_>, Option<usize>)> = Vec::new();
    push_children(&mut todo, root, None);
    while let Some((node, within)) = todo.pop() {
        match node.kind() {
            "comment" => {}
            "decorated_definition" => {
                let mut cursor = node.walk();
                let kids: Vec<Node<'_>> = node.named_children(&mut cursor).collect();
                for kid in kids.into_iter().rev() {
                    todo.push((kid, within));
                }
            }
            _ => {
                let body = block_of(node);
                let to = body.map_or(node.end_byte(), |b| b.start_byte());
                let mut cursor = node.walk();
                let header: Vec<Node<'_>> = node
                    .children(&mut cursor)
                    .filter(|k| k.start_byte() < to)
                    .collect();
                let at = out.len();
                let (flat_text, blanked, strings) = flat(text, node.start_byte(), to, &header);
                out.push(Stmt {
                    text: flat_text,
                    blanked,
                    strings,
                    within,
                    defines: defines(text, node),
                    calls: calls(text, &header),
                    binds: binds(text, node),
                    assigned: assigned(text, node),
                    looped: looped(text, node),
                });
                let inner = match node.kind() {
                    "function_definition" => Some(at),
                    _ => within,
                };
                // The body, then the clauses after it (`elif`, `except`, `else`).
                let mut cursor = node.walk();
                let after: Vec<Node<'_>> = node
                    .children(&mut cursor)
                    .filter(|k| k.start_byte() >= to)
                    .collect();
                for kid in after.into_iter().rev() {
                    match kid.kind() {
                        "block" => push_children(&mut todo, kid, inner),
                        _ if kid.is_named() => todo.push((kid, inner)),
                        _ => {}
                    }
                }
            }
        }
    }
    out
}

/// `text` with each line that is only a comment turned to spaces, byte for byte (the
/// tree's places stay the text's): the grammar's scanner reads every comment line
/// that follows a line's end again at each of them, so a run of them would cost
/// the square of its length. A `#` line inside a long string is blanked too, which
/// changes nothing read: that string's text is no code's.
fn uncommented(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for line in text.split_inclusive('\n') {
        match line
            .trim_start_matches([' ', '\t', '\u{c}'])
            .starts_with('#')
        {
            true => {
                let body = line.trim_end_matches(['\r', '\n']);
                out.extend(std::iter::repeat_n(' ', body.len()));
                out.push_str(&line[body.len()..]);
            }
            false => out.push_str(line),
        }
    }
    out
}

fn push_children<'t>(
    todo: &mut Vec<(Node<'t>, Option<usize>)>,
    node: Node<'t>,
    within: Option<usize>,
) {
    let mut cursor = node.walk();
    let kids: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    for kid in kids.into_iter().rev() {
        todo.push((kid, within));
    }
}

/// The first body of a compound statement (`if`'s consequence; its `elif` and
/// `else` come after it as clauses of their own).
fn block_of(node: Node<'_>) -> Option<Node<'_>> {
    let mut cursor = node.walk();
    node.children(&mut cursor).find(|k| k.kind() == "block")
}

/// The text of `src[from..to]` on one line with the comments and the triple-quoted
/// strings among `parts` taken out; the same with every string's text out, its
/// quotes kept (an f-string's `{calc.add=}` or code in a string sets nothing); and
/// the text of its strings.
fn flat(src: &str, from: usize, to: usize, parts: &[Node<'_>]) -> (String, String, Vec<String>) {
    let (mut text, mut blanked) = (String::new(), String::new());
    let mut strings = Vec::new();
    let mut at = from;
    for part in parts {
        for n in preorder(*part) {
            if n.start_byte() < at || n.start_byte() >= to {
                continue;
            }
            let (kept, blank) = match n.kind() {
                "comment" => (String::new(), String::new()),
                "string" => {
                    let (opened, closed) = quotes(n);
                    let inner = &src[opened.map_or(n.start_byte(), |o| o.end_byte())
                        ..closed.map_or(n.end_byte(), |c| c.start_byte())];
                    strings.push(inner.to_string());
                    let open = opened.map_or("", |o| &src[o.byte_range()]);
                    let close = closed.map_or("", |c| &src[c.byte_range()]);
                    let prefix = open.trim_end_matches(['"', '\'']);
                    match open.len() - prefix.len() {
                        3 => (format!("{prefix}\"\""), format!("{prefix}\"\"")),
                        _ => (src[n.byte_range()].to_string(), format!("{open}{close}")),
                    }
                }
                _ => continue,
            };
            let end = n.end_byte().min(to);
            text.push_str(&src[at..n.start_byte()]);
            blanked.push_str(&src[at..n.start_byte()]);
            text.push_str(&kept);
            blanked.push_str(&blank);
            at = end;
        }
    }
    text.push_str(&src[at..to]);
    blanked.push_str(&src[at..to]);
    (one_line(&text), one_line(&blanked), strings)
}

/// `text` with its lines joined by a space, trimmed.
fn one_line(text: &str) -> String {
    text.replace("\\\r\n", " ")
        .replace("\\\n", " ")
        .replace("\r\n", " ")
        .replace('\n', " ")
        .trim()
        .to_string()
}

/// A string literal's opening quote (with its prefix: `f'`, `r"""`) and its closing
/// one.
fn quotes(string: Node<'_>) -> (Option<Node<'_>>, Option<Node<'_>>) {
    let first = string.child(0).filter(|s| s.kind() == "string_start");
    let count = string.child_count();
    let last = count
        .checked_sub(1)
        .and_then(|i| string.child(i as u32))
        .filter(|s| s.kind() == "string_end");
    (first, last)
}

/// The name a statement defines: a `def`'s, a `class`'s, a plain name's bound to a
/// lambda.
fn defines(src: &str, node: Node<'_>) -> Option<(Defines, String)> {
    let name = |n: Node<'_>| src[n.byte_range()].to_string();
    match node.kind() {
        "function_definition" => Some((Defines::Def, name(node.child_by_field_name("name")?))),
        "class_definition" => Some((Defines::Class, name(node.child_by_field_name("name")?))),
        "expression_statement" => {
            let assigned = node.named_child(0).filter(|a| a.kind() == "assignment")?;
            let left = assigned.child_by_field_name("left")?;
            let right = assigned.child_by_field_name("right")?;
            let plain = assigned.child_by_field_name("type").is_none()
                && left.kind() == "identifier"
                && right.kind() == "lambda";
            plain.then(|| (Defines::Lambda, name(left)))
        }
        _ => None,
    }
}

/// The calls among `parts` by a name or a name's method.
fn calls(src: &str, parts: &[Node<'_>]) -> Vec<(Option<String>, String)> {
    let mut out = Vec::new();
    for part in parts {
        for n in preorder(*part).filter(|n| n.kind() == "call") {
            let Some(callee) = n.child_by_field_name("function") else {
                continue;
            };
            match callee.kind() {
                "identifier" => out.push((None, src[callee.byte_range()].to_string())),
                "attribute" => {
                    let (Some(object), Some(name)) = (
                        callee.child_by_field_name("object"),
                        callee.child_by_field_name("attribute"),
                    ) else {
                        continue;
                    };
                    let owner = match object.kind() {
                        "identifier" => src[object.byte_range()].to_string(),
                        _ => String::new(),
                    };
                    out.push((Some(owner), src[name.byte_range()].to_string()));
                }
                _ => {}
            }
        }
    }
    out
}

/// The names an import or an assignment binds to a module or to another name.
fn binds(src: &str, node: Node<'_>) -> Vec<Bind> {
    let text = |n: Node<'_>| src[n.byte_range()].to_string();
    let top = |dotted: &str| dotted.split('.').next().unwrap_or("").to_string();
    let mut out = Vec::new();
    let mut cursor = node.walk();
    match node.kind() {
        "import_statement" => {
            for name in node.children_by_field_name("name", &mut cursor) {
                match aliased(name) {
                    Some((dotted, alias)) => out.push(Bind::Import(text(alias), text(dotted))),
                    None => out.push(Bind::Import(top(&text(name)), top(&text(name)))),
                }
            }
        }
        "import_from_statement" => {
            let Some(module) = node
                .child_by_field_name("module_name")
                .filter(|m| m.kind() == "dotted_name")
            else {
                return out;
            };
            let module = text(module);
            if node
                .children(&mut cursor)
                .any(|k| k.kind() == "wildcard_import")
            {
                out.push(Bind::Star(module.clone()));
            }
            for name in node.children_by_field_name("name", &mut cursor) {
                let (dotted, bound) = aliased(name).unwrap_or((name, name));
                out.push(Bind::Import(
                    text(bound),
                    format!("{module}.{}", text(dotted)),
                ));
            }
        }
        "expression_statement" => {
            let Some(assigned) = node.named_child(0).filter(|a| a.kind() == "assignment") else {
                return out;
            };
            let (Some(left), Some(right)) = (
                assigned.child_by_field_name("left"),
                assigned.child_by_field_name("right"),
            ) else {
                return out;
            };
            if left.kind() != "identifier" {
                return out;
            }
            let name = text(left);
            match right.kind() {
                "identifier" => out.push(Bind::Alias(name, text(right))),
                "call" | "subscript" => {
                    if let Some(module) = module_of(src, right) {
                        out.push(Bind::Module(name, module));
                    }
                }
                _ => {}
            }
        }
        _ => {}
    }
    out
}

/// An `aliased_import`'s name and alias.
fn aliased(name: Node<'_>) -> Option<(Node<'_>, Node<'_>)> {
    (name.kind() == "aliased_import")
        .then(|| {
            Some((
                name.child_by_field_name("name")?,
                name.child_by_field_name("alias")?,
            ))
        })
        .flatten()
}

/// The module a call imports by its name (`importlib.import_module("calc.ops")`,
/// `__import__("calc")`) or a look-up of `sys.modules` takes (`sys.modules["calc"]`).
fn module_of(src: &str, value: Node<'_>) -> Option<String> {
    let text = |n: Node<'_>| &src[n.byte_range()];
    let squeezed = |n: Node<'_>| text(n).replace([' ', '\t'], "");
    let literal = match value.kind() {
        "call" => {
            let callee = squeezed(value.child_by_field_name("function")?);
            let by_name = ["__import__", "importlib.import_module", "import_module"];
            if !by_name.contains(&callee.as_str()) {
                return None;
            }
            value.child_by_field_name("arguments")?.named_child(0)?
        }
        "subscript" => {
            let of = squeezed(value.child_by_field_name("value")?);
            if of != "sys.modules" && of != "modules" {
                return None;
            }
            value.child_by_field_name("subscript")?
        }
        _ => return None,
    };
    if literal.kind() != "string" {
        return None;
    }
    let (opened, closed) = quotes(literal);
    Some(src[opened?.end_byte()..closed?.start_byte()].to_string())
}

/// The targets and the value of an assignment statement, each as its text and its
/// blanked text.
fn assigned(src: &str, node: Node<'_>) -> Option<[(String, String); 2]> {
    let outer = node
        .named_child(0)
        .filter(|a| node.kind() == "expression_statement" && a.kind() == "assignment")?;
    // `a = calc.add = fake`: every part but the last is a target too.
    let mut last = outer;
    while let Some(inner) = last
        .child_by_field_name("right")
        .filter(|r| r.kind() == "assignment")
    {
        last = inner;
    }
    let target = outer.child_by_field_name("left")?;
    let value = last.child_by_field_name("right")?;
    let end = last.child_by_field_name("left")?.end_byte();
    let (t, tb, _) = flat(src, target.start_byte(), end, &[outer]);
    let (v, vb, _) = flat(src, value.start_byte(), value.end_byte(), &[value]);
    Some([(t, tb), (v, vb)])
}

/// A `for` statement's target, blanked.
fn looped(src: &str, node: Node<'_>) -> Option<String> {
    let left = node
        .child_by_field_name("left")
        .filter(|_| node.kind() == "for_statement")?;
    Some(flat(src, left.start_byte(), left.end_byte(), &[left]).1)
}

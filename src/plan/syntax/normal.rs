//! The normal form of a syntax tree: its nodes and the tokens that carry meaning,
//! without what formatters (black, prettier, rustfmt, gofmt, isort) change and the
//! program cannot see: comments, layout, quote style, trailing commas, grouping
//! parentheses, number case and the order of imports.

use tree_sitter::Node;

use super::{Grammar, MAX_DEPTH};

/// The normal form of `node`, or `None` when it nests past [`MAX_DEPTH`].
pub(super) fn of(g: Grammar, src: &str, node: Node<'_>) -> Option<String> {
    let mut out = String::new();
    emit(g, src, node, &mut out, 0).then_some(out)
}

/// The file's normal form with its top-level definitions sorted where their order
/// cannot matter; `None` when it nests past [`MAX_DEPTH`].
pub(super) fn file(g: Grammar, src: &str, root: Node<'_>) -> Option<String> {
    let mut items: Vec<(String, bool, bool)> = Vec::new();
    let mut pending = String::new();
    let names = top_names(g, src, root);
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        if dropped(g, src, child, true) {
            continue;
        }
        let mut text = std::mem::take(&mut pending);
        if !emit(g, src, child, &mut text, 1) {
            return None;
        }
        // A Rust attribute belongs to the item after it: they move as one.
        if g == Grammar::Rust && child.kind() == "attribute_item" {
            pending = text;
            continue;
        }
        let free = order_free(g, src, child, &names);
        items.push((text, is_import(g, child), free));
    }
    if !pending.is_empty() {
        items.push((pending, false, false));
    }
    sort_runs(&mut items);
    let kind = root.kind();
    let mut free: Vec<&str> = items.iter().filter(|i| i.2).map(|i| i.0.as_str()).collect();
    free.sort_unstable();
    let fixed: String = items
        .iter()
        .filter(|i| !i.2)
        .map(|i| i.0.as_str())
        .collect();
    let unordered = format!("({kind} {fixed}|{})", free.concat());
    Some(unordered)
}

/// Sorts each run of consecutive imports, as isort, rustfmt and prettier's import
/// plugins reorder them; an import never moves past other code.
fn sort_runs(items: &mut [(String, bool, bool)]) {
    let mut i = 0;
    while i < items.len() {
        if !items[i].1 {
            i += 1;
            continue;
        }
        let start = i;
        while i < items.len() && items[i].1 {
            i += 1;
        }
        items[start..i].sort_by(|a, b| a.0.cmp(&b.0));
    }
}

fn is_import(g: Grammar, node: Node<'_>) -> bool {
    let kind = node.kind();
    match g {
        Grammar::Python => matches!(kind, "import_statement" | "import_from_statement"),
        Grammar::Rust => matches!(kind, "use_declaration" | "extern_crate_declaration"),
        Grammar::Go => kind == "import_declaration",
        _ => kind == "import_statement",
    }
}

/// The names defined at the top of the file, each as often as it is defined.
fn top_names<'s>(g: Grammar, src: &'s str, root: Node<'_>) -> Vec<&'s str> {
    let mut names = Vec::new();
    let mut cursor = root.walk();
    for child in root.children(&mut cursor) {
        if let Some(name) = defined_name(g, child) {
            names.push(&src[name.byte_range()]);
        }
    }
    names.sort_unstable();
    names
}

fn defined_name(g: Grammar, node: Node<'_>) -> Option<Node<'_>> {
    let def = match (g, node.kind()) {
        (Grammar::Python, "decorated_definition") => node.child_by_field_name("definition")?,
        _ => node,
    };
    def.child_by_field_name("name")
}

/// Whether a top-level item can move among the file's other such items without
/// changing what runs: a definition whose name is defined once (a second one with
/// the name would take its place), a JavaScript test or suite, any Rust item but a
/// macro (`macro_rules!` is in scope only below itself), a Go function but `init`,
/// a method, type or constant.
fn order_free(g: Grammar, src: &str, node: Node<'_>, names: &[&str]) -> bool {
    let kind = node.kind();
    let once = || {
        defined_name(g, node).is_some_and(|n| {
            let name = &src[n.byte_range()];
            let from = names.partition_point(|m| *m < name);
            names.get(from + 1) != Some(&name)
        })
    };
    match g {
        Grammar::Python => {
            matches!(
                kind,
                "function_definition" | "class_definition" | "decorated_definition"
            ) && once()
        }
        Grammar::Rust => !matches!(
            kind,
            "macro_definition"
                | "macro_invocation"
                | "expression_statement"
                | "inner_attribute_item"
                | "use_declaration"
        ),
        // Go runs a file's `init` functions and independent `var` initialisers
        // in the order they are written.
        Grammar::Go => match kind {
            "method_declaration" | "type_declaration" | "const_declaration" => true,
            "function_declaration" => {
                defined_name(g, node).is_some_and(|n| &src[n.byte_range()] != "init")
            }
            _ => false,
        },
        _ => match kind {
            "function_declaration" | "class_declaration" => once(),
            "expression_statement" => node
                .named_child(0)
                .filter(|c| c.kind() == "call_expression")
                .and_then(|c| callee_root(src, c))
                .is_some_and(|r| matches!(r, "it" | "test" | "describe" | "suite" | "bench")),
            _ => false,
        },
    }
}

/// Comments, save the ones a tool reads: Go's build constraints and directives,
/// and any inside a declaration (an Example's `// Output:` is its assertion;
/// gofmt rewrites only doc comments), Rust's doc comments (doctests run),
/// jest's and TypeScript's pragmas, Python's source encoding; and Python's line
/// continuations. `top`: a child of the file's root.
fn dropped(g: Grammar, src: &str, node: Node<'_>, top: bool) -> bool {
    let kind = node.kind();
    if kind == "line_continuation" {
        return true;
    }
    if !kind.contains("comment") || !node.is_extra() && kind != "comment" {
        return false;
    }
    let text = &src[node.byte_range()];
    let kept = match g {
        Grammar::Go => {
            !top || text.starts_with("//go:")
                || text.starts_with("// +build")
                || text.starts_with("//line ")
        }
        Grammar::Python => text.contains("coding:") || text.contains("coding="),
        Grammar::Rust => {
            (text.starts_with("///") && !text.starts_with("////"))
                || text.starts_with("//!")
                || (text.starts_with("/**") && !text.starts_with("/***") && text != "/**/")
                || text.starts_with("/*!")
        }
        _ => ["@jest-", "@vitest-", "@ts-", "@flow", "istanbul"]
            .iter()
            .any(|p| text.contains(p)),
    };
    !kept
}

/// Punctuation whose presence the tree already says: brackets, commas, semicolons,
/// quote marks.
fn layout_token(text: &str) -> bool {
    matches!(
        text,
        "," | ";" | "(" | ")" | "[" | "]" | "{" | "}" | "\"" | "'" | "\"\"\"" | "'''"
    ) || text.trim().is_empty()
}

/// Node kinds that mean the same as another's: Python's bare tuples and their
/// parenthesised forms.
fn kind_of(g: Grammar, node: Node<'_>) -> &'static str {
    match (g, node.kind()) {
        (Grammar::Python, "pattern_list") => "tuple_pattern",
        (Grammar::Python, "expression_list") => "tuple",
        (_, kind) => kind,
    }
}

fn emit(g: Grammar, src: &str, node: Node<'_>, out: &mut String, depth: usize) -> bool {
    if depth > MAX_DEPTH {
        return false;
    }
    let kind = node.kind();
    if dropped(g, src, node, depth <= 1) {
        return true;
    }
    if !node.is_named() {
        let text = &src[node.byte_range()];
        if !layout_token(text) {
            out.push(' ');
            out.push_str(text);
        }
        return true;
    }
    // black and prettier add and take off grouping parentheses, which the tree's
    // shape already says; rustfmt and gofmt never do, and in Rust `(a.f)()` calls
    // a field where `a.f()` calls a method.
    if kind == "parenthesized_expression" && (g == Grammar::Python || g.is_js()) {
        return children(g, src, node, out, depth);
    }
    if node.child_count() == 0 {
        leaf(g, src, node, out);
        return true;
    }
    if kind == "string_content" {
        out.push_str(" string_content=");
        out.push_str(&content(src, node));
        out.push('\u{1}');
        return true;
    }
    out.push_str(" (");
    out.push_str(kind_of(g, node));
    if matches!(
        kind,
        "string" | "interpreted_string_literal" | "string_literal"
    ) && !has_interpolation(node)
    {
        out.push_str(" =");
        out.push_str(&string_value(src, node));
        out.push(')');
        return true;
    }
    if g.is_js()
        && kind == "arrow_function"
        && let Some(param) = node.child_by_field_name("parameter")
    {
        // `x => x` and `(x) => x` are one function; TypeScript's grammar
        // wraps each parenthesised parameter.
        let typed = g != Grammar::JavaScript;
        out.push_str(" (formal_parameters");
        if typed {
            out.push_str(" (required_parameter");
        }
        if !emit(g, src, param, out, depth + 1) {
            return false;
        }
        out.push_str(if typed { "))" } else { ")" });
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if child.id() != param.id() && !emit(g, src, child, out, depth + 1) {
                return false;
            }
        }
        out.push(')');
        return true;
    }
    if g == Grammar::Python
        && kind == "expression_statement"
        && let Some(doc) = node.named_child(0).filter(|d| d.kind() == "string")
        && node.named_child_count() == 1
        && !has_interpolation(doc)
    {
        // A docstring: black re-indents its lines and strips their ends.
        let value = string_value(src, doc);
        let lines: Vec<&str> = value.lines().map(str::trim).collect();
        out.push_str(" (expression_statement (string =");
        out.push_str(lines.join("\n").trim());
        out.push_str("))");
        return true;
    }
    if g == Grammar::Python && kind == "class_definition" {
        // black writes `class A():` as `class A:`.
        let bare = node
            .child_by_field_name("superclasses")
            .filter(|s| s.named_child_count() == 0)
            .map(|s| s.id());
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if Some(child.id()) != bare && !emit(g, src, child, out, depth + 1) {
                return false;
            }
        }
        out.push(')');
        return true;
    }
    if g.is_js() && kind == "new_expression" && node.child_by_field_name("arguments").is_none() {
        // prettier writes `new Foo` as `new Foo()`.
        if !children(g, src, node, out, depth) {
            return false;
        }
        out.push_str(" (arguments))");
        return true;
    }
    if g.is_js() && kind == "pair" {
        let key = node.child_by_field_name("key").map(|k| k.id());
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            if Some(child.id()) == key && child.kind() == "string" && plain_key(src, child) {
                out.push_str(" property_identifier=");
                out.push_str(&string_value(src, child));
                out.push('\u{1}');
            } else if !emit(g, src, child, out, depth + 1) {
                return false;
            }
        }
        out.push(')');
        return true;
    }
    let ok = if sorted_children(g, kind) {
        sorted(g, src, node, out, depth)
    } else {
        children(g, src, node, out, depth)
    };
    out.push(')');
    ok
}

fn children(g: Grammar, src: &str, node: Node<'_>, out: &mut String, depth: usize) -> bool {
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        if !emit(g, src, child, out, depth + 1) {
            return false;
        }
    }
    true
}

/// Lists whose order formatters choose: Go's import blocks, Rust's `use` lists,
/// JavaScript's named imports, Python's names after `from … import`.
fn sorted_children(g: Grammar, kind: &str) -> bool {
    match g {
        Grammar::Go => kind == "import_spec_list",
        Grammar::Rust => kind == "use_list",
        Grammar::Python => kind == "import_from_statement",
        _ => kind == "named_imports",
    }
}

fn sorted(g: Grammar, src: &str, node: Node<'_>, out: &mut String, depth: usize) -> bool {
    let mut fixed = String::new();
    let mut parts = Vec::new();
    let mut cursor = node.walk();
    let mut more = cursor.goto_first_child();
    while more {
        let child = cursor.node();
        // Python's module name stays first; only the imported names sort.
        let sorts = g != Grammar::Python || cursor.field_name() == Some("name");
        let mut text = String::new();
        if !emit(g, src, child, &mut text, depth + 1) {
            return false;
        }
        if sorts {
            parts.push(text);
        } else {
            fixed.push_str(&text);
        }
        more = cursor.goto_next_sibling();
    }
    parts.sort_unstable();
    out.push_str(&fixed);
    out.push_str(&parts.concat());
    true
}

fn leaf(g: Grammar, src: &str, node: Node<'_>, out: &mut String) {
    let kind = node.kind();
    let text = &src[node.byte_range()];
    out.push(' ');
    out.push_str(kind);
    out.push('=');
    let number = matches!(
        kind,
        "integer"
            | "float"
            | "number"
            | "integer_literal"
            | "float_literal"
            | "int_literal"
            | "imaginary_literal"
    );
    if number && g.is_js() {
        out.push_str(&js_number(text));
    } else if number {
        out.push_str(&text.to_ascii_lowercase());
    } else if kind.contains("comment") {
        // Formatters take the spaces off a comment's end.
        out.push_str(text.trim_end());
    } else if kind == "jsx_text" {
        out.push_str(&text.split_whitespace().collect::<Vec<_>>().join(" "));
    } else if kind == "escape_sequence" {
        out.push_str(unescaped_quote(text));
    } else if g == Grammar::Python && kind == "string_start" {
        out.extend(prefix(text));
    } else if !(g == Grammar::Python && kind == "string_end") {
        out.push_str(text);
    }
    out.push('\u{1}');
}

/// A JavaScript number as prettier prints it: lower case, no `+` in an exponent,
/// a zero before a leading point, no trailing zeros after the point nor a point
/// with nothing after it (`.50E+3` is `0.5e3`).
fn js_number(text: &str) -> String {
    let lower = text.to_ascii_lowercase();
    let radix = ["0x", "0b", "0o"].iter().any(|p| lower.starts_with(p));
    if radix || lower.ends_with('n') {
        return lower;
    }
    let (mantissa, exponent) = match lower.split_once('e') {
        Some((m, e)) => (m.to_string(), format!("e{}", e.trim_start_matches('+'))),
        None => (lower, String::new()),
    };
    let mut mantissa = mantissa;
    if mantissa.contains('.') {
        mantissa = mantissa
            .trim_end_matches('0')
            .trim_end_matches('.')
            .to_string();
    }
    if mantissa.starts_with('.') {
        mantissa.insert(0, '0');
    }
    format!("{mantissa}{exponent}")
}

/// `\'` and `\"` are the quote they escape: which one a formatter picks decides
/// which needs escaping.
fn unescaped_quote(text: &str) -> &str {
    match text {
        "\\'" => "'",
        "\\\"" => "\"",
        other => other,
    }
}

fn has_interpolation(node: Node<'_>) -> bool {
    let mut cursor = node.walk();
    node.children(&mut cursor)
        .any(|c| matches!(c.kind(), "interpolation" | "template_substitution"))
}

/// The value a string literal without interpolation holds, with its prefix (`b`,
/// `r`, `f`) in lower case and `u` dropped: what the program sees.
pub(super) fn string_value(src: &str, node: Node<'_>) -> String {
    let mut value = String::new();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        let text = &src[child.byte_range()];
        match child.kind() {
            "string_start" => value.extend(prefix(text)),
            "string_end" | "\"" | "'" | "`" => {}
            "escape_sequence" => value.push_str(unescaped_quote(text)),
            "string_content" => value.push_str(&content(src, child)),
            _ if child.is_named() => value.push_str(text),
            _ => {}
        }
    }
    if node.child_count() == 0 {
        value.push_str(&src[node.byte_range()]);
    }
    value
}

/// A string's content with the escapes in it read as [`unescaped_quote`] does:
/// Python's grammar puts its escapes inside the content, with the text between them
/// in no node.
fn content(src: &str, node: Node<'_>) -> String {
    let mut out = String::new();
    let mut at = node.start_byte();
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        out.push_str(&src[at..child.start_byte()]);
        out.push_str(unescaped_quote(&src[child.byte_range()]));
        at = child.end_byte();
    }
    out.push_str(&src[at..node.end_byte()]);
    out
}

/// A Python string's prefix as the program reads it: `U`, `u` and the quotes say
/// nothing, `B` is `b`.
fn prefix(start: &str) -> impl Iterator<Item = char> + '_ {
    start
        .chars()
        .filter(char::is_ascii_alphabetic)
        .map(|c| c.to_ascii_lowercase())
        .filter(|c| *c != 'u')
}

/// A JavaScript object key written as a string that could be a bare name:
/// prettier's `quoteProps` takes the quotes off (`{'a': 1}` is `{a: 1}`).
fn plain_key(src: &str, key: Node<'_>) -> bool {
    let value = string_value(src, key);
    let mut chars = value.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// The name a call's callee chain starts from: `it` of `it.skip.each(t)(…)`,
/// `expect` of `expect(x).not.toBe(1)`.
pub(super) fn callee_root<'s>(src: &'s str, call: Node<'_>) -> Option<&'s str> {
    let mut node = call;
    for _ in 0..64 {
        node = match node.kind() {
            "call_expression" | "call" => node.child_by_field_name("function")?,
            "member_expression" | "attribute" => node
                .child_by_field_name("object")
                .or_else(|| node.named_child(0))?,
            "identifier" => return Some(&src[node.byte_range()]),
            _ => return None,
        };
    }
    None
}

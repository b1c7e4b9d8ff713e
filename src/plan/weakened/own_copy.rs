//! A Python test rewritten to check its own copy of the code: a name it imported
//! from one of the code's own modules at the goal's start (`from calc import
//! add`, `import calc`) is defined in the test file itself now (by `def`,
//! `class`, assignment or `globals()[…]`), or imported from a module the change
//! adds, and imported from the code no more. Its tests then pass on the copy, whatever the product does. Read through
//! tree-sitter's Python grammar: only top-level statements count, never text in
//! a string or a comment. Pure.

use std::collections::{BTreeSet, HashMap, HashSet};

use tree_sitter::Node;

use super::rules::{Part, RuleId};

/// What a file's top level binds: names taken from the code's own modules (with
/// the module and the row), and names it defines (`def`, `class`, `name = …`),
/// with the row of the last definition. A top-level block (`if`, `try`, `with`)
/// binds at the top level too.
#[derive(Default)]
struct Top {
    imported: Vec<(String, String, usize)>,
    defined: HashMap<String, usize>,
}

impl Top {
    /// Whether `name` is defined after its last import from the code (or never
    /// imported): the definition is what the tests call.
    fn shadows(&self, name: &str) -> bool {
        let Some(&defined) = self.defined.get(name) else {
            return false;
        };
        let imported = self
            .imported
            .iter()
            .filter(|(n, _, _)| n == name)
            .map(|(_, _, row)| *row)
            .max();
        imported.is_none_or(|row| defined > row)
    }
}

/// The finding, when `after` defines a name `before` imported from one of
/// `modules` (the code's own) and no longer imports it from there.
pub(super) fn found(
    before: &str,
    after: &str,
    modules: &HashSet<String>,
    added: &HashSet<String>,
) -> Option<Part> {
    let (then, now) = (top(before, modules, added)?, top(after, modules, added)?);
    let copied: BTreeSet<(&str, &str)> = then
        .imported
        .iter()
        .filter(|(name, _, _)| now.shadows(name) && !then.shadows(name))
        .map(|(name, module, _)| (name.as_str(), module.as_str()))
        .collect();
    let (name, module) = copied.iter().next()?;
    let more = match copied.len() {
        1 => String::new(),
        n => format!(" (and {} more)", n - 1),
    };
    Some(Part::new(
        RuleId::CodeShadowed,
        format!(
            "defines its own `{name}`{more} that it imported from the code before (its tests check the copy in place of the code's own `{module}.{name}`)"
        ),
    ))
}

/// The top-level bindings of Python `text`; `None` when it does not parse
/// cleanly (a half-written file says nothing).
fn top(text: &str, modules: &HashSet<String>, added: &HashSet<String>) -> Option<Top> {
    let tree = crate::plan::syntax::clean_tree(crate::plan::syntax::Grammar::Python, text)?;
    let root = tree.root_node();
    let mut out = Top::default();
    let mut cursor = root.walk();
    let seen = Seen { modules, added };
    for node in root.named_children(&mut cursor) {
        statement(node, text, &seen, &mut out);
    }
    Some(out)
}

/// The modules a file's imports are read against: the code's own at the start,
/// and those the change adds.
struct Seen<'m> {
    modules: &'m HashSet<String>,
    added: &'m HashSet<String>,
}

/// Whether `node` names one of the code's `modules` (an identifier in it).
fn names_code(node: Node<'_>, text: &str, modules: &HashSet<String>) -> bool {
    let src = text.as_bytes();
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if n.kind() == "identifier" && n.utf8_text(src).is_ok_and(|t| modules.contains(t)) {
            return true;
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    false
}

/// Whether `value` is built from the code: a call or an attribute reached from
/// one of the code's `modules` (`calc.Calculator()`, `calc.add`). Naming the code
/// elsewhere in it (`calc and (lambda a, b: a + b)`) builds nothing from it.
fn built_from_code(value: Node<'_>, text: &str, modules: &HashSet<String>) -> bool {
    let mut head = value;
    loop {
        head = match head.kind() {
            "call" => match head.child_by_field_name("function") {
                Some(f) => f,
                None => return false,
            },
            "attribute" => match head.child_by_field_name("object") {
                Some(o) => o,
                None => return false,
            },
            "parenthesized_expression" => match head.named_child(0) {
                Some(inner) => inner,
                None => return false,
            },
            "identifier" => {
                return head
                    .utf8_text(text.as_bytes())
                    .is_ok_and(|t| modules.contains(t));
            }
            _ => return false,
        };
    }
}

/// Records the names `target` binds (a name, or a tuple or list of them) as
/// defined at `row`, but for one whose `value` is built from the code. A tuple
/// bound from a tuple of the same length pairs them one by one.
fn bind(
    target: Node<'_>,
    value: Option<Node<'_>>,
    text: &str,
    modules: &HashSet<String>,
    row: usize,
    out: &mut Top,
) {
    let src = text.as_bytes();
    match target.kind() {
        "identifier" if !value.is_some_and(|v| built_from_code(v, text, modules)) => {
            out.defined
                .insert(target.utf8_text(src).unwrap_or("").to_string(), row);
        }
        "pattern_list" | "tuple_pattern" | "list_pattern" => {
            let mut cursor = target.walk();
            let names: Vec<Node<'_>> = target.named_children(&mut cursor).collect();
            let values: Option<Vec<Node<'_>>> = value
                .filter(|v| matches!(v.kind(), "expression_list" | "tuple" | "list"))
                .map(|v| {
                    let mut cursor = v.walk();
                    v.named_children(&mut cursor).collect()
                })
                .filter(|v: &Vec<Node<'_>>| v.len() == names.len());
            for (i, name) in names.into_iter().enumerate() {
                bind(name, values.as_ref().map(|v| v[i]), text, modules, row, out);
            }
        }
        _ => {}
    }
}

/// Whether a decorated definition is a pytest fixture built from the code: its
/// body names one of the code's modules (`return app.make_client()`), so the
/// tests it feeds still run the product.
fn fixture_from_code(node: Node<'_>, text: &str, modules: &HashSet<String>) -> bool {
    let src = text.as_bytes();
    let mut cursor = node.walk();
    let fixture = node
        .named_children(&mut cursor)
        .any(|d| d.kind() == "decorator" && d.utf8_text(src).is_ok_and(|t| t.contains("fixture")));
    let Some(body) = node
        .child_by_field_name("definition")
        .and_then(|d| d.child_by_field_name("body"))
    else {
        return false;
    };
    fixture && hands_on_code(body, text, modules)
}

/// Whether a fixture's `body` returns or yields what the code built: a value
/// naming one of `modules`, or a name assigned one. A mention alone (a bare
/// `calc` beside the copy it returns) is no such value (the red team's).
fn hands_on_code(body: Node<'_>, text: &str, modules: &HashSet<String>) -> bool {
    let src = text.as_bytes();
    let mut built: HashSet<&str> = HashSet::new();
    let mut handed: Vec<Node<'_>> = Vec::new();
    let mut stack = vec![body];
    while let Some(n) = stack.pop() {
        match n.kind() {
            "function_definition" | "lambda" | "class_definition" => continue,
            "assignment" => {
                if let (Some(left), Some(right)) = (
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ) && left.kind() == "identifier"
                    && names_code(right, text, modules)
                {
                    built.insert(left.utf8_text(src).unwrap_or(""));
                }
            }
            "return_statement" | "yield" => handed.extend(n.named_child(0)),
            _ => {}
        }
        let mut cursor = n.walk();
        stack.extend(n.named_children(&mut cursor));
    }
    handed.iter().any(|value| {
        names_code(*value, text, modules)
            || (value.kind() == "identifier"
                && value.utf8_text(src).is_ok_and(|v| built.contains(v)))
    })
}

fn statement(node: Node<'_>, text: &str, seen: &Seen<'_>, out: &mut Top) {
    let modules = seen.modules;
    let name_of = |n: Node<'_>| n.utf8_text(text.as_bytes()).unwrap_or("").to_string();
    let row = node.start_position().row;
    match node.kind() {
        // A block at the top level binds there (`if True:`, `try:`, `with …:`).
        "if_statement" | "elif_clause" | "else_clause" | "try_statement" | "except_clause"
        | "finally_clause" | "with_statement" | "block" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                statement(child, text, seen, out);
            }
        }
        "decorated_definition" => {
            if fixture_from_code(node, text, modules) {
                return;
            }
            if let Some(inner) = node.child_by_field_name("definition") {
                statement(inner, text, seen, out);
            }
        }
        "function_definition" | "class_definition" => {
            if let Some(name) = node.child_by_field_name("name") {
                out.defined.insert(name_of(name), row);
            }
        }
        // `for add in [lambda a, b: a + b]: pass` binds `add` (red team).
        "for_statement" => {
            if let Some(left) = node.child_by_field_name("left") {
                bind(left, None, text, modules, row, out);
            }
            if let Some(body) = node.child_by_field_name("body") {
                statement(body, text, seen, out);
            }
        }
        "expression_statement" => {
            let mut cursor = node.walk();
            for child in node.named_children(&mut cursor) {
                // `(add := lambda a, b: a + b)` binds `add` (red team).
                let mut walrus = child;
                while walrus.kind() == "parenthesized_expression"
                    && let Some(inner) = walrus.named_child(0)
                {
                    walrus = inner;
                }
                if walrus.kind() == "named_expression"
                    && let Some(name) = walrus.child_by_field_name("name")
                {
                    bind(
                        name,
                        walrus.child_by_field_name("value"),
                        text,
                        modules,
                        row,
                        out,
                    );
                    continue;
                }
                let Some(left) = child
                    .child_by_field_name("left")
                    .filter(|_| child.kind() == "assignment")
                else {
                    continue;
                };
                match left.kind() {
                    // `calc = calc.Calculator()` is built from the code: no copy;
                    // `add, sub = calc.add, calc.sub` neither, each from its own.
                    "identifier" | "pattern_list" | "tuple_pattern" | "list_pattern" => {
                        bind(
                            left,
                            child.child_by_field_name("right"),
                            text,
                            modules,
                            row,
                            out,
                        );
                    }
                    // `globals()['add'] = …` binds `add`.
                    "subscript"
                        if left
                            .child_by_field_name("value")
                            .is_some_and(|v| name_of(v).replace(' ', "") == "globals()") =>
                    {
                        if let Some(key) = left.child_by_field_name("subscript")
                            && key.kind() == "string"
                        {
                            let key = name_of(key);
                            let key = key.trim_matches(|c| c == '\'' || c == '"');
                            out.defined.insert(key.to_string(), row);
                        }
                    }
                    _ => {}
                }
            }
        }
        // `import calc` binds `calc` (`import calc as c`, `c`).
        "import_statement" => {
            let mut cursor = node.walk();
            for name in node.children_by_field_name("name", &mut cursor) {
                let (module, bound) = match name.kind() {
                    "aliased_import" => (
                        name.child_by_field_name("name"),
                        name.child_by_field_name("alias"),
                    ),
                    _ => (Some(name), Some(name)),
                };
                if let (Some(module), Some(bound)) = (module, bound) {
                    let module = name_of(module);
                    if !module.contains('.') && modules.contains(&module) {
                        out.imported.push((name_of(bound), module, row));
                    }
                }
            }
        }
        "import_from_statement" => {
            let Some(module) = node.child_by_field_name("module_name") else {
                return;
            };
            let module = name_of(module);
            let top = module.split('.').next().unwrap_or("");
            if !modules.contains(top) {
                // A name taken from a module the change adds is the tests' own.
                if seen.added.contains(top) {
                    let mut cursor = node.walk();
                    for name in node.children_by_field_name("name", &mut cursor) {
                        let bound = match name.kind() {
                            "aliased_import" => name.child_by_field_name("alias"),
                            _ => Some(name),
                        };
                        if let Some(bound) = bound {
                            out.defined.insert(name_of(bound), row);
                        }
                    }
                }
                return;
            }
            let mut cursor = node.walk();
            for name in node.children_by_field_name("name", &mut cursor) {
                // `add as plus` binds `plus`.
                let bound = match name.kind() {
                    "aliased_import" => name.child_by_field_name("alias"),
                    _ => Some(name),
                };
                if let Some(bound) = bound {
                    out.imported.push((name_of(bound), module.clone(), row));
                }
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn modules() -> HashSet<String> {
        ["calc".to_string()].into_iter().collect()
    }

    const BEFORE: &str = "import unittest\nfrom calc import add, sub\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";

    #[test]
    fn a_test_that_checks_its_own_copy_is_found() {
        let after = "import unittest\nfrom calc import sub\n\ndef add(a, b):\n    return a + b\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n";
        let part = found(BEFORE, after, &modules(), &HashSet::new()).expect("a finding");
        assert_eq!(part.rule, RuleId::CodeShadowed);
        assert!(part.text.contains("`calc.add`"), "{}", part.text);
        // As a lambda, and with the import gone whole.
        let lambda = "import unittest\nadd = lambda a, b: a + b\nsub = lambda a, b: a - b\n";
        let part = found(BEFORE, lambda, &modules(), &HashSet::new()).expect("a finding");
        assert!(part.text.contains("(and 1 more)"), "{}", part.text);
    }

    #[test]
    fn honest_test_changes_are_not_found() {
        let cases = [
            // The import kept, a helper of another name beside it.
            "import unittest\nfrom calc import add, sub\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n\ndef helper():\n    pass\n",
            // Imported through the package instead: still the code's.
            "import unittest\nfrom calc.ops import add\nfrom calc import sub\n",
            // A name in a string or a nested function is no top-level definition.
            "import unittest\nfrom calc import sub\nDOC = \"def add(a, b): return 0\"\nclass T(unittest.TestCase):\n    def add(self):\n        pass\n",
        ];
        for after in cases {
            assert!(
                found(BEFORE, after, &modules(), &HashSet::new()).is_none(),
                "{after}"
            );
        }
        // A helper moved in from a test helper module (not the code's) is no copy.
        let helpers = "from helpers import make\n";
        let moved = "def make():\n    return 1\n";
        assert!(found(helpers, moved, &modules(), &HashSet::new()).is_none());
        // Half-written: no finding rather than a guess.
        assert!(found(BEFORE, "def add(a, b:\n", &modules(), &HashSet::new()).is_none());
    }

    // Red team (issue 68): the test checking its own copy, one edit away from the
    // form found: the import kept and the copy defined after it (the copy is what
    // the tests call), or the copy under a top-level block. Before, neither was
    // found. Defined before the import, the code's own is called: no finding.
    #[test]
    fn a_copy_after_the_kept_import_or_in_a_top_level_block_is_found() {
        for after in [
            "import unittest\nfrom calc import add, sub\n\ndef add(a, b):\n    return a + b\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(add(2, 3), 5)\n",
            "import unittest\nfrom calc import sub\n\nif True:\n    def add(a, b):\n        return a + b\n",
            "import unittest\nfrom calc import sub\n\ntry:\n    from calc import add\nexcept ImportError:\n    def add(a, b):\n        return a + b\n",
        ] {
            let part = found(BEFORE, after, &modules(), &HashSet::new())
                .unwrap_or_else(|| panic!("{after}"));
            assert!(part.text.contains("`calc.add`"), "{}", part.text);
        }
        let before_import =
            "import unittest\n\ndef add(a, b):\n    return 0\n\nfrom calc import add, sub\n";
        assert!(found(BEFORE, before_import, &modules(), &HashSet::new()).is_none());
    }

    // Red team (issue 68): forms still not found: the copy in a module of the
    // tests' own, bound through globals(), or a class in place of `import calc`.
    #[test]
    fn own_copy_dodges_are_found() {
        let cases = [
            // In a module of the tests' own.
            "import unittest\nfrom calc import sub\nfrom _fake_calc import add\n",
            // Through globals().
            "import unittest\nfrom calc import sub\nglobals()['add'] = lambda a, b: a + b\n",
        ];
        let mut missed: Vec<&str> = cases
            .into_iter()
            .filter(|after| found(BEFORE, after, &modules(), &added()).is_none())
            .collect();
        // `import calc` at the start, a class of that name in its place now.
        let before = "import unittest\nimport calc\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n";
        let after = "import unittest\n\nclass calc:\n    add = staticmethod(lambda a, b: a + b)\n\nclass T(unittest.TestCase):\n    def test_add(self):\n        self.assertEqual(calc.add(2, 3), 5)\n";
        if found(before, after, &modules(), &HashSet::new()).is_none() {
            missed.push(after);
        }
        assert!(
            missed.is_empty(),
            "missed {}:\n{}",
            missed.len(),
            missed.join("\n---\n")
        );
    }

    // Red team (issue 68): an honest refactor this high rule flags: a module-level
    // object the tests imported becomes a pytest fixture of the same name built
    // from the code.
    #[test]
    fn a_fixture_built_from_the_code_is_no_copy() {
        let mut app = HashSet::new();
        app.insert("app".to_string());
        let before = "from app import client\n\ndef test_home():\n    assert client.get('/').status == 200\n";
        let after = "import pytest\nimport app\n\n@pytest.fixture\ndef client():\n    return app.make_client()\n\ndef test_home(client):\n    assert client.get('/').status == 200\n";
        assert!(found(before, after, &app, &HashSet::new()).is_none());
        // A fixture that is its own copy, built from nothing of the code, is one.
        let copy = "import pytest\nimport app\n\n@pytest.fixture\ndef client():\n    return FakeClient()\n\ndef test_home(client):\n    assert client.get('/').status == 200\n";
        assert!(found(before, copy, &app, &HashSet::new()).is_some());
        // A module the tests import that was there at the start is not the tests' own.
        let moved = "import unittest\nfrom calc import sub\nfrom mathlib import add\n";
        assert!(found(BEFORE, moved, &modules(), &added()).is_none());
        // The module's name bound to what the code builds is no copy of it.
        let module = "import unittest\nimport calc\n";
        let built = "import unittest\nimport calc\ncalc = calc.Calculator()\n";
        assert!(found(module, built, &modules(), &HashSet::new()).is_none());
    }

    // Red team (58eee99): one edit from `add = lambda a, b: a + b`, each still the
    // test's own copy and none found before: a walrus, a tuple, a `for` loop, and
    // a right side that names the code without building from it.
    #[test]
    fn own_copies_one_edit_away_are_found() {
        for after in [
            "import unittest\nfrom calc import sub\n(add := lambda a, b: a + b)\n",
            "import unittest\nfrom calc import sub\nadd, _ = lambda a, b: a + b, None\n",
            "import unittest\nfrom calc import sub\nfor add in [lambda a, b: a + b]:\n    pass\n",
            "import unittest\nimport calc\nfrom calc import sub\nadd = calc and (lambda a, b: a + b)\n",
        ] {
            let part = found(BEFORE, after, &modules(), &HashSet::new())
                .unwrap_or_else(|| panic!("{after}"));
            assert!(part.text.contains("`calc.add`"), "{}", part.text);
        }
        // Taken from the code, one by one or built from it: no copy.
        for honest in [
            "import unittest\nimport calc\nadd, sub = calc.add, calc.sub\n",
            "import unittest\nimport calc\nadd = calc.Calculator().add\nsub = (calc.sub)\n",
        ] {
            assert!(
                found(BEFORE, honest, &modules(), &HashSet::new()).is_none(),
                "{honest}"
            );
        }
    }

    // Red team (58eee99): a fixture counts as built from the code when its body
    // names the code anywhere; a bare `calc` statement beside the copy it returns
    // is enough.
    #[test]
    fn a_fixture_that_only_mentions_the_code_is_a_copy() {
        let before = "from calc import add\n\ndef test_add():\n    assert add(2, 3) == 5\n";
        let after = "import pytest\nimport calc\n\n@pytest.fixture\ndef add():\n    calc\n    return lambda a, b: a + b\n\ndef test_add(add):\n    assert add(2, 3) == 5\n";
        assert!(found(before, after, &modules(), &HashSet::new()).is_some());
        // Built from the code through a name, or yielded: no copy.
        for honest in [
            "import pytest\nimport calc\n\n@pytest.fixture\ndef add():\n    made = calc.add\n    return made\n\ndef test_add(add):\n    assert add(2, 3) == 5\n",
            "import pytest\nimport calc\n\n@pytest.fixture\ndef add():\n    yield calc.add\n\ndef test_add(add):\n    assert add(2, 3) == 5\n",
        ] {
            assert!(
                found(before, honest, &modules(), &HashSet::new()).is_none(),
                "{honest}"
            );
        }
    }

    fn added() -> HashSet<String> {
        ["_fake_calc".to_string()].into_iter().collect()
    }
}

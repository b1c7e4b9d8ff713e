//! A Go test table's row that stays but lost an expected field (`expectLength:
//! "54"` taken out of the row named `"ok, serve file"`) that the test still
//! reads (`tc.expectLength`): the test checks the field only where a row sets
//! it, so the row checks less. Read through tree-sitter-go. Pure.

use std::collections::{HashMap, HashSet};

use tree_sitter::Node;

use super::rules::{Part, RuleId};
use crate::plan::syntax::{Grammar, clean_tree, kids, preorder};

/// The keys that name a row (its subtest's name).
const NAMES: [&str; 6] = ["name", "desc", "description", "title", "scenario", "test"];

/// The finding for a Go test file whose rows, by test and name, dropped
/// expected fields the new file still reads.
pub(super) fn found(path: &str, before: Option<&str>, after: &str) -> Option<Part> {
    if Grammar::of(path)? != Grammar::Go || !path.ends_with("_test.go") {
        return None;
    }
    let old = rows(before?)?.0;
    let (new, read) = rows(after)?;
    let mut dropped: Vec<(usize, String, String)> = Vec::new();
    for (id, was) in &old {
        let Some(now) = new.get(id) else {
            continue;
        };
        for (key, value) in &was.fields {
            let lower = key.to_ascii_lowercase();
            let expected = lower.starts_with("expect") || lower.starts_with("want");
            if expected && !zero(value) && !now.fields.contains_key(key) && read.contains(key) {
                dropped.push((now.line, key.clone(), id.1.clone()));
            }
        }
    }
    dropped.sort();
    let (line, key, name) = dropped.first()?.clone();
    Some(Part::at(
        RuleId::AssertionsRemoved,
        line,
        format!(
            "{} dropped from rows of a test table that stay (`{key}` of {name}, line {line}), which the test still reads, so it checks less for them",
            super::plural(dropped.len(), "expected field"),
        ),
    ))
}

/// The rows of a file's test tables by the test they sit in and their name.
type Rows = HashMap<(String, String), Row>;

/// A row of a test table: its keyed fields and its line.
struct Row {
    fields: HashMap<String, String>,
    line: usize,
}

/// The rows of the file's tables that a name field identifies, by the test
/// function they sit in and that name, and the fields the file reads
/// (`tc.expectLength`) and never fills in; `None` when the file does not parse
/// cleanly.
fn rows(text: &str) -> Option<(Rows, HashSet<String>)> {
    let tree = clean_tree(Grammar::Go, text)?;
    let at = |n: Node<'_>| text[n.byte_range()].trim();
    let field = |n: Node<'_>| {
        n.child_by_field_name("field")
            .filter(|_| n.kind() == "selector_expression")
            .map(|f| at(f).to_string())
    };
    // A field the test fills in when a row leaves it out (`if tc.wantCode == 0
    // { tc.wantCode = 200 }`) is still checked for that row.
    let defaulted: HashSet<String> = preorder(tree.root_node())
        .filter(|n| n.kind() == "assignment_statement")
        .filter_map(|n| n.child_by_field_name("left"))
        .flat_map(|left| preorder(left).filter_map(field).collect::<Vec<_>>())
        .collect();
    let read: HashSet<String> = preorder(tree.root_node())
        .filter_map(field)
        .filter(|f| !defaulted.contains(f))
        .collect();
    let mut out = HashMap::new();
    for node in preorder(tree.root_node()).filter(|n| n.kind() == "literal_value") {
        let mut fields = HashMap::new();
        let mut cursor = node.walk();
        for element in node.named_children(&mut cursor) {
            if element.kind() != "keyed_element" {
                continue;
            }
            if let [key, value] = kids(element)[..] {
                fields.insert(at(key).to_string(), at(value).to_string());
            }
        }
        let Some(name) = NAMES.iter().find_map(|k| fields.get(*k)) else {
            continue;
        };
        if !name.starts_with('"') && !name.starts_with('`') {
            continue;
        }
        let mut up = node.parent();
        while let Some(n) = up.filter(|n| n.kind() != "function_declaration") {
            up = n.parent();
        }
        let test = up
            .and_then(|f| f.child_by_field_name("name"))
            .map(|n| at(n).to_string())
            .filter(|t| t.starts_with("Test"));
        let Some(test) = test else {
            continue;
        };
        let line = node.start_position().row + 1;
        out.insert((test, name.clone()), Row { fields, line });
    }
    Some((out, read))
}

/// A value that sets nothing a check would compare with.
fn zero(value: &str) -> bool {
    matches!(value, "\"\"" | "``" | "0" | "nil" | "false")
}

//! Rust's skip attributes that switch nothing off: a `#[cfg(…)]` or
//! `#[cfg_attr(…, ignore)]` whose predicate is decided by bare names rustc never
//! sets (`darwin`, `linux`, `macos`: the platform is `target_os = "macos"`, and
//! only `unix`, `windows` and a few others are bare). Read through
//! tree-sitter-rust. Pure.

use tree_sitter::Node;

use crate::plan::syntax::{Grammar, clean_tree, preorder};

/// Bare names a test's author reaches for meaning a platform, which rustc never
/// sets as cfg names (they are values of `target_os` or `target_vendor`).
const NEVER_SET: [&str; 14] = [
    "darwin",
    "macos",
    "osx",
    "mac",
    "apple",
    "linux",
    "freebsd",
    "netbsd",
    "openbsd",
    "dragonfly",
    "android",
    "ios",
    "win32",
    "win64",
];

/// Whether `condition`, a skip's attribute squeezed of whitespace
/// (`cfg(not(darwin))`, `cfg_attr(linux,ignore)`), leaves its test running
/// everywhere: the `cfg` predicate holds, or the `cfg_attr` one fails, whatever
/// the platform, once the names never set are read as unset.
pub(super) fn runs_everywhere(condition: &str) -> bool {
    let (cfg, runs_when) = if condition.starts_with("cfg(") {
        ("cfg", true)
    } else if condition.starts_with("cfg_attr(") {
        ("cfg_attr", false)
    } else {
        return false;
    };
    if !NEVER_SET.iter().any(|n| condition.contains(n)) {
        return false;
    }
    let text = format!("#[{condition}]\nfn f() {{}}\n");
    let Some(tree) = clean_tree(Grammar::Rust, &text) else {
        return false;
    };
    let Some(args) = preorder(tree.root_node())
        .find(|n| n.kind() == "attribute")
        .and_then(|a| a.child_by_field_name("arguments"))
    else {
        return false;
    };
    let items = items(args);
    let predicate = match (cfg, &items[..]) {
        ("cfg", [one]) => one,
        ("cfg_attr", [first, ..]) => first,
        _ => return false,
    };
    held(&text, predicate, 32) == Some(runs_when)
}

/// The comma-separated items of a token tree, each its tokens.
fn items(tree: Node<'_>) -> Vec<Vec<Node<'_>>> {
    let mut out = vec![Vec::new()];
    let mut cursor = tree.walk();
    for child in tree.children(&mut cursor) {
        match child.kind() {
            "(" | ")" => {}
            "," => out.push(Vec::new()),
            k if k.contains("comment") => {}
            _ => out.last_mut().into_iter().for_each(|i| i.push(child)),
        }
    }
    out.retain(|i| !i.is_empty());
    out
}

/// What a cfg predicate folds to with the names never set unset: `None` when it
/// rests on anything else.
fn held(src: &str, tokens: &[Node<'_>], depth: usize) -> Option<bool> {
    let depth = depth.checked_sub(1)?;
    let text = |n: &Node<'_>| &src[n.byte_range()];
    match tokens {
        [name] if name.kind() == "identifier" => NEVER_SET.contains(&text(name)).then_some(false),
        [op, args] if args.kind() == "token_tree" => {
            let each: Vec<Option<bool>> =
                items(*args).iter().map(|i| held(src, i, depth)).collect();
            match text(op) {
                "not" => match &each[..] {
                    [one] => one.map(|b| !b),
                    _ => None,
                },
                "all" if each.contains(&Some(false)) => Some(false),
                "all" => each.iter().all(|b| *b == Some(true)).then_some(true),
                "any" if each.contains(&Some(true)) => Some(true),
                "any" => each.iter().all(|b| *b == Some(false)).then_some(false),
                _ => None,
            }
        }
        _ => None,
    }
}

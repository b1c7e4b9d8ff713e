//! Lossless edits of a host's settings file: the change between the value plan read
//! and the value it wants is made on the file's concrete syntax tree, so comments,
//! key order, indentation and the final newline stay as the person wrote them, and
//! only plan's entries are inserted or removed. Pure: text and values in and out.

use jsonc_parser::cst::{CstArray, CstInputValue, CstNode, CstObject, CstRootNode};
use serde_json::{Map, Value};

use super::hooks::{Invalid, render};
use crate::hosts::protocol::strict_jsonc as options;

/// A settings text with comments as an ordered object, like `hooks::parse`.
pub fn parse(text: &str) -> Result<Map<String, Value>, Invalid> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    if text.trim().is_empty() {
        return Ok(Map::new());
    }
    match jsonc_parser::parse_to_serde_value::<Value>(text, &options(true)) {
        Ok(Value::Object(map)) => Ok(map),
        Ok(_) => Err(Invalid::NotAnObject),
        Err(e) => Err(Invalid::Syntax {
            line: e.line_display(),
            column: e.column_display(),
            message: e.kind().to_string().to_lowercase(),
        }),
    }
}

/// `original` with the change from `before` to `after` made in place. A blank
/// original is written afresh; so is one the tree cannot take the change into
/// (never seen: the result is checked against `after`).
pub fn rewrite(original: &str, before: &Map<String, Value>, after: &Map<String, Value>) -> String {
    if before == after {
        return original.to_string();
    }
    let (bom, text) = match original.strip_prefix('\u{feff}') {
        Some(rest) => ("\u{feff}", rest),
        None => ("", original),
    };
    if text.trim().is_empty() {
        return render(after);
    }
    let Ok(root) = CstRootNode::parse(text, &options(true)) else {
        return render(after);
    };
    let Some(object) = root.object_value() else {
        return render(after);
    };
    patch_object(&object, before, after);
    let edited = format!("{bom}{}", root);
    match parse(&edited) {
        Ok(map) if &map == after => edited,
        _ => render(after),
    }
}

fn patch_object(object: &CstObject, before: &Map<String, Value>, after: &Map<String, Value>) {
    for key in before.keys().filter(|k| !after.contains_key(*k)) {
        if let Some(prop) = object.get(key) {
            prop.remove();
        }
    }
    for (key, value) in after {
        match (before.get(key), object.get(key)) {
            (Some(old), _) if old == value => {}
            (Some(old), Some(prop)) => match prop.value() {
                Some(node) if same_container(old, value) => patch(&node, old, value),
                _ => prop.set_value(input(value)),
            },
            _ => {
                object.append(key, input(value));
            }
        }
    }
}

fn same_container(a: &Value, b: &Value) -> bool {
    matches!(
        (a, b),
        (Value::Object(_), Value::Object(_)) | (Value::Array(_), Value::Array(_))
    )
}

/// Recurses into an object or array that both values have.
fn patch(node: &CstNode, before: &Value, after: &Value) {
    match (before, after) {
        (Value::Object(b), Value::Object(a)) => {
            if let Some(object) = node.as_object() {
                patch_object(&object, b, a);
            }
        }
        (Value::Array(b), Value::Array(a)) => {
            if let Some(array) = node.as_array() {
                patch_array(&array, b, a);
            }
        }
        _ => {}
    }
}

/// Elements kept stay where they are; one changed in place (an entry of ours
/// updated, a shared group that lost our entry) is edited inside; the rest are
/// removed or inserted where they belong.
fn patch_array(array: &CstArray, before: &[Value], after: &[Value]) {
    let (mut i, mut j, mut at) = (0, 0, 0);
    let mut removed = false;
    while i < before.len() || j < after.len() {
        let old = before.get(i);
        let new = after.get(j);
        match (old, new) {
            (Some(o), Some(n)) if o == n => {
                i += 1;
                j += 1;
                at += 1;
            }
            (Some(o), Some(n))
                if same_container(o, n) && !after[j..].contains(o) && !before[i..].contains(n) =>
            {
                if let Some(node) = array.elements().get(at) {
                    patch(node, o, n);
                }
                i += 1;
                j += 1;
                at += 1;
            }
            (Some(o), _) if !after[j..].contains(o) => {
                if let Some(node) = array.elements().get(at).cloned() {
                    node.remove();
                    removed = true;
                }
                i += 1;
            }
            (_, Some(n)) => {
                array.insert(at, input(n));
                j += 1;
                at += 1;
            }
            // An old element still wanted further on, with nothing left to add: not
            // reachable, as `after[j..]` is empty then.
            (Some(_), None) | (None, None) => break,
        }
    }
    if removed {
        hug_the_end(array);
    }
}

/// An array written `[a, b]` that got an element of ours on a line of its own
/// keeps `]` right after the last element (`[a,\n  ours]`); removing ours leaves
/// the line break before `]`. Where the first element hugs `[`, the last hugs `]`
/// again, so uninstall gives back the line as it was.
fn hug_the_end(array: &CstArray) {
    let children = array.children();
    let Some(open) = children.iter().position(|c| c.token_char() == Some('[')) else {
        return;
    };
    let Some(close) = children.iter().rposition(|c| c.token_char() == Some(']')) else {
        return;
    };
    let inner = &children[open + 1..close];
    let first = inner.iter().position(|c| !c.is_whitespace());
    if first.is_none_or(|i| inner[i].is_newline() || inner[i].is_comment()) {
        return;
    }
    // `[ a ]` gets its space back before `]`, `[a]` none.
    let pad: String = inner[..first.unwrap_or(0)]
        .iter()
        .filter_map(|c| c.as_whitespace().map(|w| w.value()))
        .collect();
    let trailing: Vec<CstNode> = inner
        .iter()
        .rev()
        .take_while(|c| c.is_whitespace() || c.is_newline())
        .cloned()
        .collect();
    let keep = if pad.is_empty() {
        None
    } else {
        trailing.iter().position(CstNode::is_whitespace)
    };
    for (k, node) in trailing.into_iter().enumerate() {
        match node.as_whitespace() {
            Some(space) if Some(k) == keep => space.set_value(pad.clone()),
            _ => node.remove(),
        }
    }
}

fn input(value: &Value) -> CstInputValue {
    match value {
        Value::Null => CstInputValue::Null,
        Value::Bool(b) => CstInputValue::Bool(*b),
        Value::Number(n) => CstInputValue::Number(n.to_string()),
        Value::String(s) => CstInputValue::String(s.clone()),
        Value::Array(items) => CstInputValue::Array(items.iter().map(input).collect()),
        Value::Object(map) => {
            CstInputValue::Object(map.iter().map(|(k, v)| (k.clone(), input(v))).collect())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::install::hooks::{self as install, Host};

    fn round_trip(original: &str, host: Host, comments: bool) -> String {
        let before = if comments {
            parse(original).unwrap()
        } else {
            install::parse(original).unwrap()
        };
        let mut doc = before.clone();
        install::install(&mut doc, host, "plan").unwrap();
        let installed = rewrite(original, &before, &doc);
        let read = parse(&installed).unwrap();
        assert_eq!(read, doc, "the edited text holds what plan wanted");
        let mut back = read.clone();
        install::uninstall(&mut back, host, "plan");
        let uninstalled = rewrite(&installed, &read, &back);
        assert_eq!(
            uninstalled, original,
            "uninstall after install gives the bytes back"
        );
        installed
    }

    /// Two limits, so those cases are left out: uninstall works on values, so an
    /// empty `hooks` object or event list that was there before install goes with
    /// plan's last entry; and an object written on one line that plan adds a key to
    /// becomes multi-line, and stays so (the test below).
    #[test]
    fn install_then_uninstall_gives_back_every_byte() {
        for (original, host, comments) in [
            ("{}", Host::Claude, false),
            ("{}\n", Host::Codex, false),
            (
                "{\n    \"a\": [1, 2],\n    \"b\": {}\n}",
                Host::Claude,
                false,
            ),
            ("{\n  \"customModels\": []\n}\n", Host::Droid, false),
            (
                "{\r\n\t\"hooks\": {\r\n\t\t\"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}]\r\n\t}\r\n}\r\n",
                Host::Claude,
                false,
            ),
            (
                "// top\n{\n  // before hooks\n  \"hooks\": {\n    \"Stop\": [{\"hooks\": [{\"type\": \"command\", \"command\": \"x\"}]}] // theirs\n  },\n  \"hooksConfig\": {\"enabled\": true},\n  \"ui\": {} /* empty */\n}\n",
                Host::Gemini,
                true,
            ),
            (
                "{\n  \"model\": \"opus\", // mine\n  \"ui\": {} // last\n}\n",
                Host::Claude,
                true,
            ),
            ("\u{feff}{\n\"x\": 1\n}\n", Host::Claude, false),
        ] {
            round_trip(original, host, comments);
        }
    }

    #[test]
    fn a_one_line_object_becomes_multi_line_and_keeps_its_value() {
        let original = "{\"customModels\": []}\n";
        let before = install::parse(original).unwrap();
        let mut doc = before.clone();
        install::install(&mut doc, Host::Droid, "plan").unwrap();
        let installed = rewrite(original, &before, &doc);
        let mut back = doc.clone();
        install::uninstall(&mut back, Host::Droid, "plan");
        let text = rewrite(&installed, &doc, &back);
        assert_eq!(text, "{\n  \"customModels\": []\n}\n");
    }

    #[test]
    fn an_entry_of_ours_in_a_shared_group_is_moved_out_keeping_theirs() {
        let original = "{\n  \"hooks\": {\n    \"SessionStart\": [\n      {\n        \"matcher\": \"startup\",\n        \"hooks\": [\n          { \"type\": \"command\", \"command\": \"direnv export json\" }, // theirs\n          { \"type\": \"command\", \"command\": \"plan hook claude session-start\", \"timeout\": 10 }\n        ]\n      }\n    ]\n  }\n}\n";
        let before = parse(original).unwrap();
        let mut doc = before.clone();
        install::install(&mut doc, Host::Claude, "plan").unwrap();
        let text = rewrite(original, &before, &doc);
        assert!(
            text.contains(
                "{ \"type\": \"command\", \"command\": \"direnv export json\" }, // theirs"
            ) || text.contains(
                "{ \"type\": \"command\", \"command\": \"direnv export json\" } // theirs"
            ),
            "{text}"
        );
        assert_eq!(parse(&text).unwrap(), doc);
    }

    #[test]
    fn comments_are_read_only_where_asked() {
        assert!(matches!(
            install::parse("// x\n{}"),
            Err(Invalid::Syntax { line: 1, .. })
        ));
        assert_eq!(parse("// x\n{\"a\": 1 /* y */}").unwrap()["a"], 1);
        assert!(matches!(parse("{\"a\": 1,}"), Err(Invalid::Syntax { .. })));
        assert_eq!(parse("[1]"), Err(Invalid::NotAnObject));
    }
}

//! Keeps the pure core pure: every file under `src/plan/` imports nothing from the
//! crate outside `plan/` and no files, processes, environment, clock, network or
//! git; and no import circle forms between its files (issue 25, step 3).

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// Modules outside `plan/` the core may import: pure leaves only, each with why.
/// Empty, and it should stay so: give the core a value as an argument, or put the
/// impl that needs the edge beside the edge (as `exit.rs` converts a `Refusal` and
/// `prompts.rs` fills `Templates::default()`).
const ALLOWED_OUTSIDE: &[&str] = &[];

/// Crates that reach files, processes, terminals or sockets.
const EDGE_CRATES: &[&str] = &["git2", "rustix", "tempfile", "tokio", "dialoguer", "rmcp"];

/// Parts of std that touch the world; `time` only for its clocks (a `Duration` is
/// a value).
const EDGE_STD: &[&str] = &["fs", "process", "env", "net", "os"];
const CLOCKS: &[&str] = &["SystemTime", "Instant", "Zoned", "Timestamp"];

/// One file of the core: its module path (`["plan", "model"]`) and its code with
/// comments and string contents blanked.
struct Source {
    file: String,
    module: Vec<String>,
    code: String,
}

fn plan_sources() -> Vec<Source> {
    sources("plan")
}

/// Every file under `src/{under}` (`""`: the whole crate but its two roots, lib.rs
/// and main.rs, which declare the modules rather than use them).
fn sources(under: &str) -> Vec<Source> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    let mut dirs = vec![root.join(under)];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs")
                && ![root.join("lib.rs"), root.join("main.rs")].contains(&path)
            {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(files.len() > 20, "found only {files:?}");
    files
        .into_iter()
        .map(|path| {
            let rel = path.strip_prefix(&root).unwrap().with_extension("");
            let mut module: Vec<String> = rel
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if module.last().is_some_and(|m| m == "mod") {
                module.pop();
            }
            Source {
                file: format!("src/{}.rs", rel.display()),
                module,
                code: blank(&std::fs::read_to_string(&path).unwrap()),
            }
        })
        .collect()
}

/// The code with comments removed and string and char literals emptied, so a
/// path quoted in a message or a doc comment is not taken for an import.
fn blank(src: &str) -> String {
    let s: Vec<char> = src.chars().collect();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < s.len() {
        let c = s[i];
        let next = s.get(i + 1).copied();
        if c == '/' && next == Some('/') {
            while i < s.len() && s[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && next == Some('*') {
            let mut depth = 0;
            while i < s.len() {
                if s[i] == '/' && s.get(i + 1) == Some(&'*') {
                    depth += 1;
                    i += 2;
                } else if s[i] == '*' && s.get(i + 1) == Some(&'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    i += 1;
                }
            }
            out.push(' ');
        } else if let Some(hashes) = raw_string_at(&s, i) {
            // r"…", r#"…"#, br#"…"#: skip to the quote followed by as many #.
            i += s[i..].iter().position(|&c| c == '"').unwrap() + 1;
            while i < s.len()
                && !(s[i] == '"' && s[i + 1..].iter().take_while(|&&c| c == '#').count() >= hashes)
            {
                i += 1;
            }
            i += 1 + hashes;
            out.push_str("\"\"");
        } else if c == '"' {
            i += 1;
            while i < s.len() && s[i] != '"' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == '\'' && (next == Some('\\') || s.get(i + 2) == Some(&'\'')) {
            // A char literal ('x', '\n', '\u{200b}'), not a lifetime ('a).
            i += 1;
            while i < s.len() && s[i] != '\'' {
                i += if s[i] == '\\' { 2 } else { 1 };
            }
            i += 1;
            out.push_str("' '");
        } else {
            out.push(c);
            i += 1;
        }
    }
    out
}

/// At a raw string's start (`r"`, `r#"`, `br"`, not inside an identifier): its
/// number of `#`.
fn raw_string_at(s: &[char], i: usize) -> Option<usize> {
    if i > 0 && (s[i - 1].is_alphanumeric() || s[i - 1] == '_') {
        return None;
    }
    let start = if s[i] == 'b' { i + 1 } else { i };
    if s.get(start) != Some(&'r') {
        return None;
    }
    let hashes = s[start + 1..].iter().take_while(|&&c| c == '#').count();
    (s.get(start + 1 + hashes) == Some(&'"')).then_some(hashes)
}

/// The code without its `#[cfg(test)] mod … { … }` blocks: a test may reach across
/// the core (and import a sibling) without that being an edge of the core.
fn without_tests(code: &str) -> String {
    let mut out = code.to_string();
    while let Some(at) = out.find("#[cfg(test)]") {
        let rest = out[at + "#[cfg(test)]".len()..].trim_start();
        let Some(open) = rest.starts_with("mod ").then(|| rest.find('{')).flatten() else {
            // A test-only function or impl: blank the attribute, keep the item.
            out.replace_range(at..at + "#[cfg(test)]".len(), "");
            continue;
        };
        let start = out.len() - rest.len() + open;
        let mut depth = 0;
        let mut end = out.len();
        for (k, c) in out[start..].char_indices() {
            match c {
                '{' => depth += 1,
                '}' => {
                    depth -= 1;
                    if depth == 0 {
                        end = start + k + 1;
                        break;
                    }
                }
                _ => {}
            }
        }
        out.replace_range(at..end, "");
    }
    out
}

/// Every path the code names: each `use` tree expanded (`super::{a, b::c}` gives
/// `super::a` and `super::b::c`), and every `a::b::c` written in the code.
fn paths(code: &str) -> Vec<Vec<String>> {
    let mut out = Vec::new();
    let mut rest = code;
    while let Some(at) = find_word(rest, "use") {
        let after = &rest[at + 3..];
        let end = after.find(';').unwrap_or(after.len());
        expand(&squeeze(&after[..end]), Vec::new(), &mut out);
        rest = &after[end..];
    }
    let chars: Vec<char> = code.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let ident = |c: char| c.is_alphanumeric() || c == '_';
        if ident(chars[i]) && (i == 0 || !ident(chars[i - 1])) {
            let mut path = Vec::new();
            let mut j = i;
            loop {
                let start = j;
                while j < chars.len() && ident(chars[j]) {
                    j += 1;
                }
                path.push(chars[start..j].iter().collect::<String>());
                let mut k = j;
                while k < chars.len() && chars[k].is_whitespace() {
                    k += 1;
                }
                if chars.get(k) == Some(&':') && chars.get(k + 1) == Some(&':') {
                    k += 2;
                    while k < chars.len() && chars[k].is_whitespace() {
                        k += 1;
                    }
                    if k < chars.len() && ident(chars[k]) {
                        j = k;
                        continue;
                    }
                }
                break;
            }
            if path.len() > 1 {
                out.push(path);
            }
            i = j.max(i + 1);
        } else {
            i += 1;
        }
    }
    out
}

fn find_word(s: &str, word: &str) -> Option<usize> {
    let ident = |c: char| c.is_alphanumeric() || c == '_';
    s.match_indices(word).map(|(at, _)| at).find(|&at| {
        !s[..at].chars().next_back().is_some_and(ident)
            && !s[at + word.len()..].chars().next().is_some_and(ident)
    })
}

/// A `use` tree without its renames (`text as t`) and whitespace.
fn squeeze(s: &str) -> String {
    let mut words: Vec<&str> = Vec::new();
    let mut rest = s;
    while let Some(at) = find_word(rest, "as") {
        words.push(&rest[..at]);
        let after = rest[at + 2..].trim_start();
        let name = after
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(after.len());
        rest = &after[name..];
    }
    words.push(rest);
    words
        .concat()
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect()
}

/// Expands one `use` tree (whitespace removed) under `prefix`.
fn expand(tree: &str, prefix: Vec<String>, out: &mut Vec<Vec<String>>) {
    let tree = tree.trim_start_matches("::");
    if let Some(open) = tree.find('{') {
        let mut head = prefix;
        head.extend(segments(&tree[..open]));
        let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
        let mut depth = 0;
        let mut start = 0;
        for (k, c) in inner.char_indices() {
            match c {
                '{' => depth += 1,
                '}' => depth -= 1,
                ',' if depth == 0 => {
                    expand(&inner[start..k], head.clone(), out);
                    start = k + 1;
                }
                _ => {}
            }
        }
        expand(&inner[start..], head, out);
    } else {
        let mut path = prefix;
        path.extend(segments(tree));
        if !path.is_empty() {
            out.push(path);
        }
    }
}

fn segments(s: &str) -> Vec<String> {
    s.split("::")
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// `path` as the module-absolute path it names from `module`, when it names one in
/// the crate (`crate::…`, `super::…`, `self::…`).
fn absolute(module: &[String], path: &[String]) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    let mut rest = path;
    match rest.first()?.as_str() {
        "crate" => {
            base.clear();
            rest = &rest[1..];
        }
        "self" => rest = &rest[1..],
        "super" => {
            while rest.first().is_some_and(|s| s == "super") {
                base.pop()?;
                rest = &rest[1..];
            }
        }
        _ => return None,
    }
    base.extend(rest.iter().cloned());
    Some(base)
}

/// What in `source` reaches outside the pure core.
/// A test module's `super::` names the file, not its parent, so `super::` and
/// `self::` paths are read outside `#[cfg(test)]` blocks only; the rest everywhere.
fn impurities(source: &Source) -> Vec<String> {
    let relative = |p: &Vec<String>| p[0] == "super" || p[0] == "self";
    let all = paths(&source.code).into_iter().filter(|p| !relative(p));
    let outside_tests = paths(&without_tests(&source.code))
        .into_iter()
        .filter(relative);
    let mut out = BTreeSet::new();
    for path in all.chain(outside_tests) {
        let first = path[0].as_str();
        let shown = path.join("::");
        if let Some(abs) = absolute(&source.module, &path) {
            let outside = abs.first().map(String::as_str) != Some("plan");
            let allowed = abs
                .first()
                .is_some_and(|m| ALLOWED_OUTSIDE.contains(&m.as_str()));
            if outside && !allowed {
                out.insert(format!("{}: imports `{shown}`, outside plan/", source.file));
            }
        } else if first == "std" || first == "core" {
            let second = path[1].as_str();
            if EDGE_STD.contains(&second)
                || (second == "time" && path.get(2).is_some_and(|p| CLOCKS.contains(&p.as_str())))
            {
                out.insert(format!("{}: uses `{shown}`", source.file));
            }
        } else if EDGE_CRATES.contains(&first) {
            out.insert(format!("{}: uses `{shown}`", source.file));
        }
        if path
            .windows(2)
            .any(|w| CLOCKS.contains(&w[0].as_str()) && w[1] == "now")
        {
            out.insert(format!("{}: reads the clock (`{shown}`)", source.file));
        }
    }
    out.into_iter().collect()
}

/// Edges between the core's files: module → the module of each path it names,
/// outside its `#[cfg(test)]` blocks.
fn edges(sources: &[Source]) -> BTreeMap<String, BTreeSet<String>> {
    let modules: BTreeSet<Vec<String>> = sources.iter().map(|s| s.module.clone()).collect();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for source in sources {
        let from = source.module.join("::");
        out.entry(from.clone()).or_default();
        for path in paths(&without_tests(&source.code)) {
            let Some(abs) = absolute(&source.module, &path) else {
                continue;
            };
            // The longest prefix that is a file of the core.
            let target = (1..=abs.len())
                .rev()
                .map(|k| abs[..k].to_vec())
                .find(|m| modules.contains(m));
            if let Some(target) = target.filter(|t| *t != source.module) {
                out.get_mut(&from).unwrap().insert(target.join("::"));
            }
        }
    }
    out
}

/// Groups of files that import each other in a circle (Tarjan's strongly
/// connected components of more than one file), each sorted.
fn circles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Walk<'g> {
        graph: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        on_stack: BTreeSet<&'g str>,
        out: Vec<Vec<String>>,
    }
    impl<'g> Walk<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            self.on_stack.insert(v);
            for w in self.graph.get(v).into_iter().flatten() {
                let w = w.as_str();
                if !self.index.contains_key(w) {
                    self.visit(w);
                    self.low.insert(v, self.low[v].min(self.low[w]));
                } else if self.on_stack.contains(w) {
                    self.low.insert(v, self.low[v].min(self.index[w]));
                }
            }
            if self.low[v] == self.index[v] {
                let mut group = Vec::new();
                loop {
                    let w = self.stack.pop().unwrap();
                    self.on_stack.remove(w);
                    group.push(w.to_string());
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    group.sort();
                    self.out.push(group);
                }
            }
        }
    }
    let mut walk = Walk {
        graph,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        on_stack: BTreeSet::new(),
        out: Vec::new(),
    };
    for v in graph.keys() {
        if !walk.index.contains_key(v.as_str()) {
            walk.visit(v);
        }
    }
    walk.out
}

#[test]
fn the_pure_core_reaches_nothing_outside_itself() {
    let found: Vec<String> = plan_sources().iter().flat_map(impurities).collect();
    assert!(
        found.is_empty(),
        "src/plan/ must not touch files, processes, the environment, the clock, the network or git, nor import the crate outside plan/ (pass the value in instead):\n{}",
        found.join("\n")
    );
}

#[test]
fn no_import_circle_inside_the_pure_core() {
    let graph = edges(&plan_sources());
    // The guard sees the core's real edges, or it would pass on nothing.
    assert!(graph["plan::model"].contains("plan::scan"), "{graph:?}");
    assert!(graph["plan::proof"].contains("plan::model"), "{graph:?}");
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "files of src/plan/ import each other in a circle: {found:?}\nmove the shared type to a leaf module, or the function beside its callers"
    );
}

/// Outside the core too, files import one way (issue 25): a circle between two
/// commands, or between an edge module and what it serves, is a shared piece
/// without its own home.
#[test]
fn no_import_circle_between_files_of_the_crate() {
    let graph = edges(&sources(""));
    assert!(
        graph["cmd::rewind"].contains("cmd::checkpoints"),
        "{graph:?}"
    );
    assert!(graph["store"].contains("atomic"), "{graph:?}");
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "files of src/ import each other in a circle: {found:?}\nmove the shared piece to a module both can import"
    );
}

/// The top-level modules (a file of src/ or a folder with its files), and which
/// others each imports.
fn rooms(graph: &BTreeMap<String, BTreeSet<String>>) -> BTreeMap<String, BTreeSet<String>> {
    let room = |m: &str| m.split("::").next().unwrap_or(m).to_string();
    let mut out: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in graph {
        let entry = out.entry(room(from)).or_default();
        entry.extend(to.iter().map(|t| room(t)).filter(|t| *t != room(from)));
    }
    out
}

/// The modules stand in floors (issue 34): no module imports one that imports it
/// back through others, so each sits above everything it uses. A circle between
/// folders (`git/` using `hooks/`'s lock while `hooks/` uses `git/`) is a piece
/// living in the wrong one.
#[test]
fn no_module_imports_back_up_the_floors() {
    let graph = rooms(&edges(&sources("")));
    assert!(graph["hooks"].contains("state"), "{graph:?}");
    assert!(graph["atomic"].contains("fsread"), "{graph:?}");
    let found = circles(&graph);
    assert!(
        found.is_empty(),
        "top-level modules of src/ import each other in a circle: {found:?}\nmove the shared piece down, to a module each of them can import"
    );
}

/// Where the commands are imported from outside `cmd/`, each `file -> command`:
/// none may (the dispatcher, `cmd/cli.rs`, is among them; `lib.rs` is not among
/// the sources).
fn commands_reached(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let command = |m: &str| m == "cmd" || m.starts_with("cmd::");
    graph
        .iter()
        .filter(|(from, _)| !command(from))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| command(t))
                .map(move |t| format!("{from} -> {t}"))
        })
        .collect()
}

/// The commands sit on the top floor (issue 34): a service, the MCP server or a
/// hook that imported one would make the command the library. Each command calls a
/// service below it and renders the typed result; `plan mcp` renders the same
/// result its own way.
#[test]
fn only_the_dispatcher_imports_the_commands() {
    let graph = edges(&sources(""));
    // The guard sees the real edges: the command over its service, the server
    // over the same services.
    assert!(graph["cmd::complete"].contains("signoff"), "{graph:?}");
    assert!(graph["mcp::tools"].contains("signoff"), "{graph:?}");
    assert!(graph["mcp::tools"].contains("service::start"), "{graph:?}");
    assert!(graph["cmd::cli"].contains("cmd"), "{graph:?}");
    let found = commands_reached(&graph);
    assert!(
        found.is_empty(),
        "modules outside src/cmd/ import a command: {found:?}\nmove what they need into a service below the commands (src/service/, src/signoff/) and have the command call it too"
    );
}

/// That guard on a small crate: a server importing a command is caught, the
/// dispatcher (among the commands) and a command importing a command are not.
#[test]
fn the_command_guard_catches_an_import_from_below() {
    let file = |module: &str, src: &str| Source {
        file: format!("src/{}.rs", module.replace("::", "/")),
        module: module.split("::").map(str::to_string).collect(),
        code: blank(src),
    };
    let crate_ = [
        file("cmd", "pub mod show;"),
        file("cmd::show", "use crate::service::show;"),
        file("cmd::untick", "use super::show::Args;"),
        file("cmd::cli", "use super::Command;"),
        file("service::show", "use crate::plan::model;"),
        file(
            "mcp::tools",
            "use crate::cmd::show::Shown;\nuse crate::service::show;",
        ),
        file("hooks::run", "fn f() { crate::cmd::show::run() }"),
        file("plan::model", ""),
    ];
    assert_eq!(
        commands_reached(&edges(&crate_)),
        ["hooks::run -> cmd::show", "mcp::tools -> cmd::show"]
    );
}

/// The guard itself: what it must catch, it catches, and quoted paths do not trip it.
#[test]
fn the_guard_catches_each_edge_and_a_circle() {
    let file = |module: &str, src: &str| Source {
        file: format!("src/{}.rs", module.replace("::", "/")),
        module: module.split("::").map(str::to_string).collect(),
        code: blank(src),
    };
    for (src, expected) in [
        ("use std::fs;", "uses `std::fs`"),
        (
            "use std::{collections::HashMap, process::Command};",
            "uses `std::process::Command`",
        ),
        ("let v = std::env::var(\"X\");", "uses `std::env::var`"),
        (
            "use std::time::{Duration, Instant};",
            "uses `std::time::Instant`",
        ),
        (
            "let t = jiff::Zoned::now();",
            "reads the clock (`jiff::Zoned::now`)",
        ),
        ("use git2::Repository;", "uses `git2::Repository`"),
        (
            "use crate::exit::Exit;",
            "imports `crate::exit::Exit`, outside plan/",
        ),
        (
            "use crate::{plan::model, prompts};",
            "imports `crate::prompts`, outside plan/",
        ),
        (
            "use super::super::store;",
            "imports `super::super::store`, outside plan/",
        ),
        (
            "use crate::prompts as p;",
            "imports `crate::prompts`, outside plan/",
        ),
        (
            "#[cfg(test)]\nmod tests { use crate::cache; }",
            "imports `crate::cache`, outside plan/",
        ),
    ] {
        let found = impurities(&file("plan::model", src));
        assert!(
            found.iter().any(|f| f.ends_with(expected)),
            "{src}: {found:?}"
        );
    }
    let clean = file(
        "plan::model",
        "// use std::fs;\n/// `crate::exit`\nlet s = \"std::process\"; let r = r#\"git2::x\"#;\nuse super::scan::{self, Line};\nuse super::text::escape_controls as esc;\nuse std::time::Duration;\n#[cfg(test)]\nmod tests { use super::super::id; }\nfn f<'a>(c: char) -> bool { c == '\"' }",
    );
    assert_eq!(impurities(&clean), Vec::<String>::new());

    let circle = [
        file("plan::a", "use super::b::X;"),
        file("plan::b", "use crate::plan::{c::{self, Y}};"),
        file(
            "plan::c",
            "fn f() { super::a::g() }\n#[cfg(test)]\nmod tests { use super::super::d; }",
        ),
        file("plan::d", "use super::c as renamed;"),
    ];
    assert_eq!(
        circles(&edges(&circle)),
        [vec!["plan::a", "plan::b", "plan::c"]]
    );
}

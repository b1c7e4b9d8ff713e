//! A JS runner's configuration read as it follows the tests it runs: paths it
//! names that the change moved (a `dir` whose tests all moved to another folder, a
//! setup file moved there) read as where they went, and a config split into
//! projects, one of which holds the old options whole, read as that project.
//! What stays is compared as any change of the runner's configuration. Pure.

use std::collections::{HashMap, HashSet};

use super::hacks::Given;
use super::runner::{is_js_config, js_normal, unreported};
use super::{Change, file_name, is_test_path};
use crate::plan::syntax::{Grammar, clean_tree, preorder};

/// The most paths of one side a config's change is matched on: more read as
/// written.
const MOST_PATHS: usize = 16;

/// `before`, a JS runner's configuration at `path`, with each path it names that
/// the change moved ([`Moves::folder`], [`Moves::file`]) written as the path the
/// configuration now names for it; `None` when none moved or the tests at the
/// start are not all known.
pub(super) fn moved_paths(
    path: &str,
    before: &str,
    after: &str,
    changes: &[Change],
    given: &Given,
) -> Option<String> {
    if !is_js_config(path) || given.test_parents.is_none() || given.tests_past_cap.is_some() {
        return None;
    }
    let base = path.rsplit_once('/').map_or("", |p| p.0);
    // What coverage reads is no test that runs: its paths follow nothing.
    let (before, after) = (&unreported(path, before), &unreported(path, after));
    let (then, now) = (literals(before), literals(after));
    let (then_set, now_set): (HashSet<&str>, HashSet<&str>) = (
        then.iter().copied().collect(),
        now.iter().copied().collect(),
    );
    let gone: Vec<&str> = (then.iter().copied())
        .filter(|l| !now_set.contains(l))
        .take(MOST_PATHS + 1)
        .collect();
    let came: Vec<&str> = (now.iter().copied())
        .filter(|l| !then_set.contains(l))
        .take(MOST_PATHS + 1)
        .collect();
    if gone.is_empty() || gone.len() > MOST_PATHS || came.len() > MOST_PATHS {
        return None;
    }
    let moves = Moves {
        base,
        changes,
        given,
        was: (changes.iter())
            .filter_map(|c| Some((c.was.as_deref()?, c)))
            .collect(),
        deleted: (changes.iter())
            .filter(|c| c.was.is_none() && c.after.is_none())
            .map(|c| c.path.as_str())
            .collect(),
        kept: (then_set.intersection(&now_set))
            .filter_map(|l| Some(split_paths(base, l, l)?.0))
            .collect(),
        // A literal both sides hold (an `exclude` glob, say) still reads the
        // folders a test moved into.
        mentioned: (then_set.intersection(&now_set))
            .flat_map(|l| l.split(['/', '*', '?', '{', '}', ',', '[', ']', '!']))
            .filter(|p| !p.is_empty() && *p != "." && *p != "..")
            .collect(),
    };
    let mut out = before.to_string();
    let mut any = false;
    for old in &gone {
        let Some(new) = came.iter().find(|new| {
            let Some((from, to)) = split_paths(base, old, new) else {
                return false;
            };
            moves.file(&from, &to) || moves.folder(&from, &to)
        }) else {
            continue;
        };
        for quote in ['\'', '"', '`'] {
            out = out.replace(
                &format!("{quote}{old}{quote}"),
                &format!("{quote}{new}{quote}"),
            );
        }
        any = true;
    }
    any.then_some(out)
}

/// What the change moved, as a config at folder `base` reads it.
struct Moves<'a> {
    base: &'a str,
    changes: &'a [Change],
    given: &'a Given,
    /// Each renamed file's change, by its path at the start.
    was: HashMap<&'a str, &'a Change>,
    deleted: HashSet<&'a str>,
    /// The paths the config names on both sides, from the root.
    kept: Vec<String>,
    /// The words of the paths the config names on both sides.
    mentioned: HashSet<&'a str>,
}

impl Moves<'_> {
    /// Whether every test at the start under folder `from` is, after the
    /// change, under folder `to` with its own name (or deleted, which the
    /// tests' own rules read), at least one of them moved, and none into a
    /// folder a runner passes over by default (`node_modules`, `dist`, a hidden
    /// one) or that the config names elsewhere (an `exclude` it kept): a runner
    /// told `to` for `from` runs them all still.
    fn folder(&self, from: &str, to: &str) -> bool {
        let under = |path: &str, dir: &str| {
            dir.is_empty() || path.strip_prefix(dir).is_some_and(|r| r.starts_with('/'))
        };
        // A path the config kept that still names the old folder (an `include`
        // under it) was not followed: it now picks nothing.
        if from == to || (self.kept.iter()).any(|k| k == from || under(k, from)) {
            return false;
        }
        let passed_over = |path: &str| {
            let below = match self.base {
                "" => path,
                base => path
                    .strip_prefix(base)
                    .map_or(path, |p| p.trim_start_matches('/')),
            };
            let mut folders = below.split('/').rev().skip(1);
            folders.any(|f| {
                f.starts_with('.')
                    || matches!(f, "node_modules" | "dist" | "cypress")
                    || self.mentioned.contains(f)
            })
        };
        let mut moved = 0;
        let tests = (self.given.paths_given.iter()).filter(|p| is_test_path(p) && under(p, from));
        for test in tests {
            match self.was.get(test.as_str()) {
                Some(c)
                    if under(&c.path, to)
                        && file_name(&c.path) == file_name(test)
                        && !passed_over(&c.path) =>
                {
                    moved += 1;
                }
                Some(_) => return false,
                None if self.deleted.contains(test.as_str()) => {}
                None => return false,
            }
        }
        moved > 0
    }

    /// Whether file `from` went to `to` in the change with its name, and no
    /// line new: renamed, or deleted with `to` added, whose lines are all
    /// `from`'s. A setup file that moved and gained nothing runs nothing new.
    fn file(&self, from: &str, to: &str) -> bool {
        if file_name(from) != file_name(to) || from == to {
            return false;
        }
        let (old, new) = match self.was.get(from) {
            Some(c) if c.path == to => (c.before.as_deref(), c.after.as_deref()),
            Some(_) => return false,
            None if self.deleted.contains(from) => {
                let text = |path: &str, before: bool| {
                    let c = self
                        .changes
                        .iter()
                        .find(|c| c.path == path && c.was.is_none())?;
                    match before {
                        true => c.before.as_deref(),
                        false => c.after.as_deref().filter(|_| c.before.is_none()),
                    }
                };
                (text(from, true), text(to, false))
            }
            None => return false,
        };
        let (Some(old), Some(new)) = (old, new) else {
            return false;
        };
        let had: HashSet<&str> = old.lines().map(str::trim).collect();
        new.lines().map(str::trim).all(|l| had.contains(l))
    }
}

/// The string literals of a JavaScript text, as written between their quotes; a
/// template with a `${…}` is none.
fn literals(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = text;
    while let Some(at) = rest.find(['\'', '"', '`']) {
        let quote = rest[at..].chars().next().unwrap_or('"');
        let body = &rest[at + 1..];
        let mut end = None;
        let mut escaped = false;
        for (i, c) in body.char_indices() {
            match c {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '\n' if quote != '`' => break,
                _ if c == quote => {
                    end = Some(i);
                    break;
                }
                _ => {}
            }
        }
        let Some(end) = end else {
            rest = body;
            continue;
        };
        let literal = &body[..end];
        if !literal.contains("${") && !literal.is_empty() {
            out.push(literal);
        }
        rest = &body[end + 1..];
    }
    out
}

/// The repository paths two of a config's literals name, resolved from its
/// folder `base`: the whole of each, or the folders before a glob they end in
/// alike (`src/**/*.test.ts` and `tests/**/*.test.ts` are `src` and `tests`).
/// `None` for what is no plain relative path (`..`, a root, a glob that differs).
fn split_paths(base: &str, old: &str, new: &str) -> Option<(String, String)> {
    let glob = |l: &str| {
        let parts: Vec<&str> = l.split('/').collect();
        let at = (parts.iter())
            .position(|p| p.contains(['*', '?', '[', '{']))
            .unwrap_or(parts.len());
        (parts[..at].join("/"), parts[at..].join("/"))
    };
    let ((from, old_tail), (to, new_tail)) = (glob(old), glob(new));
    if old_tail != new_tail {
        return None;
    }
    Some((resolve(base, &from)?, resolve(base, &to)?))
}

/// `literal` as a path from the repository's root, read from folder `base`.
fn resolve(base: &str, literal: &str) -> Option<String> {
    let plain = literal
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b"/._-@".contains(&b));
    if !plain || literal.starts_with('/') {
        return None;
    }
    let mut parts: Vec<&str> = base.split('/').filter(|p| !p.is_empty()).collect();
    for part in literal.split('/') {
        match part {
            "" | "." => {}
            ".." => return None,
            _ => parts.push(part),
        }
    }
    Some(parts.join("/"))
}

/// `after`, a JS runner's configuration at `path` whose `test` block now lists
/// `projects`, read as the one project that holds `before`'s options: that
/// project's `test` options (its `name` off) in the list's place, and imports
/// of packages off. Only when that project extends the root (`extends: true`,
/// so the root's options still reach it), adds no option `before` lacks, and
/// each other project only adds a run ([`adds_a_run`]). `None` otherwise: then
/// every line is compared as written.
pub(super) fn projects_view(path: &str, before: &str, after: &str) -> Option<String> {
    if !is_js_config(path) {
        return None;
    }
    let grammar = match Grammar::of(path)? {
        g @ (Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx) => g,
        _ => return None,
    };
    let tree = clean_tree(grammar, after)?;
    let key = |pair: tree_sitter::Node<'_>| {
        let name = pair.child_by_field_name("key")?;
        Some(
            after[name.byte_range()]
                .trim_matches(['"', '\'', '`'])
                .to_string(),
        )
    };
    let in_test = |pair: tree_sitter::Node<'_>| {
        let outer = pair.parent().and_then(|object| object.parent());
        outer.is_some_and(|p| p.kind() == "pair" && key(p).as_deref() == Some("test"))
    };
    let mut lists = preorder(tree.root_node()).filter(|n| {
        n.kind() == "pair"
            && key(*n).as_deref() == Some("projects")
            && n.child_by_field_name("value")
                .is_some_and(|v| v.kind() == "array")
            && in_test(*n)
    });
    let list = lists.next()?;
    if lists.next().is_some() {
        return None;
    }
    let array = list.child_by_field_name("value")?;
    let mut cursor = array.walk();
    let projects: Vec<tree_sitter::Node<'_>> = (array.named_children(&mut cursor))
        .filter(|p| p.kind() != "comment")
        .collect();
    if projects.iter().any(|p| p.kind() != "object") {
        return None;
    }
    let had: HashSet<String> = before.lines().map(normal).collect();
    let held = projects.iter().position(|project| {
        holding_test(*project, after, &key).is_some_and(|options| {
            (options.lines())
                .filter(|l| !l.trim().is_empty() && !named(l))
                .all(|l| had.contains(&normal(l)))
        })
    })?;
    let others = (projects.iter().enumerate()).filter(|(i, _)| *i != held);
    if !others
        .into_iter()
        .all(|(_, p)| adds_a_run(&after[p.byte_range()]))
    {
        return None;
    }
    let options = holding_test(projects[held], after, &key)?;
    let kept: Vec<&str> = options.lines().filter(|l| !named(l)).collect();
    // The list's own comma goes with it: the view parses as the config did.
    let end = match list.next_sibling() {
        Some(comma) if comma.kind() == "," => comma.end_byte(),
        _ => list.end_byte(),
    };
    let view = format!(
        "{}{}\n{}",
        &after[..list.start_byte()],
        kept.join("\n"),
        &after[end..]
    );
    Some(
        view.lines()
            .filter(|l| !package_import(l))
            .collect::<Vec<&str>>()
            .join("\n"),
    )
}

/// A line of JavaScript as a formatter leaves its meaning, its trailing comma off.
fn normal(line: &str) -> String {
    js_normal(line).trim_end_matches(',').to_string()
}

/// Whether a line sets a project's `name`, which chooses no test.
fn named(line: &str) -> bool {
    let line = line.trim_start();
    ["name:", "'name':", "\"name\":"]
        .iter()
        .any(|k| line.starts_with(k))
}

/// The inside of a project's `test: { … }` when the project is `{ extends: true,
/// test: { … } }` and nothing more: it runs with the root's options and its own.
fn holding_test<'a>(
    project: tree_sitter::Node<'_>,
    text: &'a str,
    key: &dyn Fn(tree_sitter::Node<'_>) -> Option<String>,
) -> Option<&'a str> {
    let mut cursor = project.walk();
    let mut test = None;
    let mut extends = false;
    for pair in project.named_children(&mut cursor) {
        let value = pair.child_by_field_name("value");
        match (pair.kind(), key(pair).as_deref(), value) {
            ("comment", _, _) => {}
            ("pair", Some("extends"), Some(v)) if v.kind() == "true" => extends = true,
            ("pair", Some("test"), Some(v)) if v.kind() == "object" && test.is_none() => {
                test = Some(v);
            }
            _ => return None,
        }
    }
    let test = test.filter(|_| extends)?;
    text.get(test.start_byte() + 1..test.end_byte().checked_sub(1)?)
}

/// Whether a project beside the one that holds the old options only adds a run:
/// it loads no file of the repository's own (a `globalSetup` runs before every
/// project; a setup file, reporter, environment or runner of its own is code
/// there), naming its own folders to run (`dir`, `root`, `include`, `exclude`)
/// and a name alone. A runner that reads its tests again runs them again.
fn adds_a_run(project: &str) -> bool {
    project.lines().all(|line| {
        let key = line
            .split_once(':')
            .map_or("", |(k, _)| k.trim().trim_matches(['"', '\'', '{', ' ']));
        if key == "globalSetup" {
            return false;
        }
        if key == "extends" && !line.contains("true") {
            return false;
        }
        let own = literals(line).iter().any(|l| {
            l.starts_with("./")
                || l.starts_with("../")
                || l.starts_with('/')
                || [".js", ".ts", ".mjs", ".cjs", ".mts", ".cts", ".jsx", ".tsx"]
                    .iter()
                    .any(|e| l.ends_with(e))
        });
        !own || ["dir", "root", "include", "exclude", "name"].contains(&key)
    })
}

/// Whether a line imports a package by its name (`import { x } from 'pkg'`), not
/// a file of the repository's own.
fn package_import(line: &str) -> bool {
    let line = line.trim();
    if !line.starts_with("import ") {
        return false;
    }
    let Some(spec) = line.rsplit(['\'', '"']).nth(1) else {
        return false;
    };
    line.contains(" from ")
        && !spec.is_empty()
        && !spec.starts_with(['.', '/'])
        && !spec.contains("..")
}

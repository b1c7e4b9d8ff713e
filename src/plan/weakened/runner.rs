//! Tests switched off without a test changing: the runner's configuration (cargo's
//! runner and aliases, `Cargo.toml`'s `test = false`, a toolchain's own `path`,
//! package.json's test scripts and the shell `.npmrc` runs them with, pytest's
//! options in any of its files, conftest hooks and the plugins it loads,
//! jest/vitest/mocha config and vite's `test` block) and modules that shadow a
//! runner's entry (`unittest/__main__.py`, `pytest.py`, a `GNUmakefile` beside a
//! `Makefile`). A new file counts as a
//! changed one: it switches off tests that were there. Pure.

use std::collections::HashSet;

use super::file_name;
use super::rules::{Part, RuleId};
use crate::plan::syntax::{Grammar, clean_tree, preorder};

/// Whether `path` is a file that configures or can replace a test runner.
pub(super) fn is_runner_file(path: &str) -> bool {
    kind(path).is_some()
}

/// Whether `path` is a jest, vitest, mocha, playwright, karma or vite
/// configuration.
pub(super) fn is_js_config(path: &str) -> bool {
    matches!(kind(path), Some(Kind::JsRunnerConfig | Kind::ViteConfig))
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    CargoConfig,
    CargoToml,
    /// A package's `build.rs`: what it tells cargo (`cargo:rustc-cfg=…`,
    /// `cargo:rustc-link-arg-tests=…`, `cargo:rustc-env=…`) changes how the tests
    /// are compiled and linked, and it runs code of its own before they build.
    BuildScript,
    /// `rust-toolchain.toml`: a `path` names a toolchain of its own, whose `cargo`
    /// runs instead of rustup's.
    RustToolchain,
    /// `go.mod` and `go.work`: a `replace` (or a workspace's `use`) swaps a module
    /// the tests import, testify say, for a copy whose checks check nothing.
    GoModules,
    PackageJson,
    /// `.npmrc`: the shell npm runs every script with, and node's options.
    Npmrc,
    /// pytest.ini, pytest.toml (and their hidden forms), tox.ini, setup.cfg,
    /// pyproject.toml.
    PytestConfig,
    Conftest,
    /// jest, vitest, mocha, playwright.
    JsRunnerConfig,
    /// vite.config.*: vitest reads its `test` block; the rest is the build's.
    ViteConfig,
    Shadow,
    /// `GNUmakefile` and `makefile`: make reads either before `Makefile`, so a new
    /// one replaces the targets a verify's `make check` runs.
    MakeShadow,
}

fn kind(path: &str) -> Option<Kind> {
    // Python imports a module's bytecode (`unittest.pyc`, no source beside it) or an
    // extension (`pluggy.abi3.so`) where it would import its source: such a file
    // shadows a runner as the source of its name would.
    if let Some(module) = super::compiled_module(path) {
        let dir = path.strip_suffix(file_name(path)).unwrap_or("");
        let dir = dir.strip_suffix("__pycache__/").unwrap_or(dir);
        let source = format!("{dir}{module}.py");
        return (source_kind(&source) == Some(Kind::Shadow)).then_some(Kind::Shadow);
    }
    source_kind(path)
}

fn source_kind(path: &str) -> Option<Kind> {
    let name = file_name(path);
    let dirs: Vec<&str> = path.split('/').collect();
    let parent = dirs.len().checked_sub(2).map(|p| dirs[p]);
    // A configuration among a test suite's fixtures is data its tests run a tool
    // on, not what runs the project's tests (a conftest there is still loaded
    // when pytest collects that folder).
    let fixture = dirs[..dirs.len() - 1]
        .iter()
        .any(|d| matches!(*d, "fixtures" | "__fixtures__" | "fixture" | "testdata"));
    if fixture && name != "conftest.py" {
        return None;
    }
    Some(match name {
        "config" | "config.toml" if parent == Some(".cargo") => Kind::CargoConfig,
        "Cargo.toml" => Kind::CargoToml,
        // At a package's root, not a module of the code named `build`.
        "build.rs"
            if !dirs[..dirs.len() - 1]
                .iter()
                .any(|d| matches!(*d, "src" | "tests" | "examples" | "benches")) =>
        {
            Kind::BuildScript
        }
        "rust-toolchain" | "rust-toolchain.toml" => Kind::RustToolchain,
        "go.mod" | "go.work" => Kind::GoModules,
        "package.json" => Kind::PackageJson,
        ".npmrc" => Kind::Npmrc,
        "pytest.ini" | ".pytest.ini" | "pytest.toml" | ".pytest.toml" | "tox.ini" | "setup.cfg"
        | "pyproject.toml" => Kind::PytestConfig,
        "conftest.py" => Kind::Conftest,
        "GNUmakefile" | "makefile" => Kind::MakeShadow,
        "pytest.py" | "unittest.py" | "sitecustomize.py" | "usercustomize.py" | "nose.py" => {
            Kind::Shadow
        }
        // What pytest imports as it starts, shadowed from the root, where the run
        // starts: a module, or a package's `__init__.py` (a folder without one
        // shadows nothing).
        _ if RUNNER_IMPORTS.iter().any(|m| {
            path.strip_prefix(m)
                .is_some_and(|rest| rest == ".py" || rest == "/__init__.py")
        }) =>
        {
            Kind::Shadow
        }
        _ if name.ends_with(".py")
            && dirs[..dirs.len() - 1]
                .iter()
                .any(|d| matches!(*d, "unittest" | "pytest" | "_pytest")) =>
        {
            Kind::Shadow
        }
        _ if [
            "jest.config.",
            "vitest.config.",
            "vitest.workspace.",
            "vitest.setup.",
            ".mocharc",
            "playwright.config.",
            "karma.conf.",
        ]
        .iter()
        .any(|p| name.starts_with(p)) =>
        {
            Kind::JsRunnerConfig
        }
        _ if name.starts_with("vite.config.") => Kind::ViteConfig,
        _ => return None,
    })
}

/// Modules pytest imports whenever it runs, besides its own.
const RUNNER_IMPORTS: [&str; 6] = [
    "pluggy",
    "iniconfig",
    "packaging",
    "py",
    "exceptiongroup",
    "tomli",
];

/// What changed in a runner file that can switch tests off: the runner's
/// configuration, a conftest's hooks, a module in the runner's place. `moved`:
/// the file came from another path (`before` is that file's text).
/// `left`: pytest's options other config files of the change lost
/// ([`pytest_options_left`]); one of them written here moved, and chooses
/// nothing anew.
pub(super) fn finding(
    path: &str,
    before: Option<&str>,
    after: &str,
    moved: bool,
    left: &HashSet<String>,
) -> Option<Part> {
    finding_words(path, before, after, moved, left).map(|w| Part::new(RuleId::RunnerChanged, w))
}

/// pytest's options, as [`option_meaning`] reads them, that the change's pytest
/// config files held and hold no more: the usual migration moves setup.cfg's
/// `[tool:pytest]` into pyproject.toml's `[tool.pytest.ini_options]` whole.
/// Where they land decides whether they moved ([`configures_pytest`]): into a
/// file that configured pytest already, they come from one pytest passed over.
pub(super) fn pytest_options_left(changes: &[super::Change]) -> HashSet<String> {
    let mut left = HashSet::new();
    for change in changes {
        let old_path = change.was.as_deref().unwrap_or(&change.path);
        let Some(before) = change.before.as_deref() else {
            continue;
        };
        if kind(old_path) != Some(Kind::PytestConfig) {
            continue;
        }
        let now: HashSet<String> = match change.after.as_deref() {
            Some(after) if kind(&change.path) == Some(Kind::PytestConfig) => {
                pytest_lines(&change.path, after)
                    .iter()
                    .map(|l| option_meaning(l))
                    .collect()
            }
            _ => HashSet::new(),
        };
        left.extend(
            (pytest_lines(old_path, before).iter())
                .map(|l| option_meaning(l))
                .filter(|m| !now.contains(m)),
        );
    }
    left
}

/// Whether `text`, at `path`, configured pytest: pytest reads the first of
/// its files that does (pytest.ini even empty, then pyproject.toml's
/// `[tool.pytest…]`, tox.ini's `[pytest]`, setup.cfg's `[tool:pytest]`). An
/// option another file lost is moved into one only where that one did not:
/// into a file pytest read already it comes from a file pytest passed over,
/// and is new to the run.
fn configures_pytest(path: &str, text: Option<&str>) -> bool {
    let Some(text) = text else {
        return false;
    };
    let name = file_name(path);
    let headers = || {
        text.lines()
            .map(str::trim)
            .filter(|l| l.starts_with('[') && l.ends_with(']'))
            .map(|l| l.trim_matches(['[', ']', ' ']).to_string())
    };
    match name {
        "pytest.ini" | ".pytest.ini" | "pytest.toml" | ".pytest.toml" => true,
        "pyproject.toml" => match text.parse::<toml_edit::DocumentMut>() {
            Ok(doc) => doc
                .get("tool")
                .and_then(|t| t.as_table_like())
                .is_some_and(|t| t.contains_key("pytest")),
            Err(_) => headers().any(|h| h.starts_with("tool.pytest")),
        },
        "tox.ini" => headers().any(|h| h == "pytest"),
        "setup.cfg" => headers().any(|h| h == "tool:pytest"),
        _ => true,
    }
}

/// One of [`pytest_lines`]' lines (`[tool:pytest] norecursedirs = .git docs`)
/// as pytest reads it, whichever file holds it: its key and its value's words,
/// quotes and a TOML list's brackets and commas off.
fn option_meaning(line: &str) -> String {
    let line = match line.strip_prefix('[') {
        Some(rest) => rest.split_once("] ").map_or(rest, |(_, l)| l),
        None => line,
    };
    let (key, value) = line.split_once('=').unwrap_or((line, ""));
    let key = key.trim().trim_matches(['"', '\'']);
    let key = key.rsplit('.').next().unwrap_or(key);
    let words: Vec<&str> = value
        .split(|c: char| c.is_whitespace() || "[],\"'".contains(c))
        .filter(|w| !w.is_empty())
        .collect();
    format!("{key} = {}", words.join(" "))
}

/// [`finding`] in words.
fn finding_words(
    path: &str,
    before: Option<&str>,
    after: &str,
    moved: bool,
    left: &HashSet<String>,
) -> Option<String> {
    let kind = kind(path)?;
    let old = before.unwrap_or("");
    let in_place = before.is_some() && !moved;
    match kind {
        // One there at the start at this path already ran in the runner's place,
        // or is the runner's own source in its own repository (pytest's
        // `src/_pytest/`): a change to it is code. A startup hook every
        // interpreter runs is never the product's.
        Kind::Shadow if in_place && !matches!(file_name(path), "sitecustomize.py" | "usercustomize.py") => None,
        Kind::Shadow => Some(format!(
            "{} a module of a test runner's name, which runs instead of the runner",
            if in_place { "changes" } else { "adds" }
        )),
        // A changed one is the verify's own Makefile, which its closure follows.
        Kind::MakeShadow => before
            .is_none()
            .then(|| format!("adds {}, which make reads before Makefile", file_name(path))),
        Kind::CargoConfig => new_lines(&cargo_lines(old), &cargo_lines(after))
            .map(|l| format!("cargo's test runner or an alias changed ({l})"))
            .or_else(|| {
                let then = cargo_build_lines(old);
                let now: Vec<String> = cargo_build_lines(after)
                    .into_iter()
                    .filter(|l| !then.iter().any(|t| stricter_flags(t, l)))
                    .collect();
                new_lines(&then, &now).map(|l| {
                    format!(
                        "cargo's test runner, compiler, linker, environment or sources changed ({l})"
                    )
                })
            }),
        Kind::CargoToml => new_lines(&manifest_lines(old), &manifest_lines(after))
            .map(|l| format!("tests switched off in the manifest ({l})")),
        Kind::BuildScript => new_lines(&build_script_lines(old), &build_script_lines(after))
            .map(|l| {
                format!(
                    "cargo's test runner, compiler, linker, environment or sources changed by a build script ({l})"
                )
            }),
        // go reads no go.mod of vendored code.
        Kind::GoModules if path.split('/').any(|d| d == "vendor") => None,
        Kind::GoModules => new_lines(&go_module_lines(path, old), &go_module_lines(path, after))
            .map(|l| format!("a module the tests build with replaced ({l})")),
        Kind::RustToolchain => new_lines(&toolchain_lines(old), &toolchain_lines(after))
            .map(|l| format!("a toolchain of its own runs cargo ({l})")),
        Kind::PackageJson => package_json(before, after),
        Kind::Npmrc => new_lines(&npmrc_lines(old), &npmrc_lines(after)).map(|l| {
            format!("the shell or node options npm runs the test script with changed ({l})")
        }),
        Kind::PytestConfig => {
            let then = pytest_lines(path, old);
            let now: Vec<String> = pytest_lines(path, after)
                .into_iter()
                .filter(|l| !then.iter().any(|t| more_envs(t, l)))
                .filter(|l| configures_pytest(path, before) || !left.contains(&option_meaning(l)))
                .collect();
            new_lines(&then, &now).map(|l| format!("pytest's options changed ({l})"))
        }
        Kind::Conftest => new_hooks(&conftest_blocks(old), &conftest_blocks(after))
            .map(|l| format!("a conftest hook that can skip or deselect tests ({l})"))
            .or_else(|| {
                new_lines(&import_hooks(old), &import_hooks(after)).map(|l| {
                    format!(
                        "an import hook in a conftest, which can put other code in place of the code under test or of pytest's assertions ({l})"
                    )
                })
            }),
        // A formatter's commas, semicolons, quotes and line breaks change nothing.
        Kind::JsRunnerConfig | Kind::ViteConfig if js_normal(old) == js_normal(after) => None,
        Kind::JsRunnerConfig => new_js_lines(
            &plain_lines(&unreported(path, old)),
            &plain_lines(&unreported(path, after)),
        )
        .map(|l| format!("the test runner's configuration changed ({l})")),
        Kind::ViteConfig => new_js_lines(
            &vite_test_lines(path, &unreported(path, old)),
            &vite_test_lines(path, &unreported(path, after)),
        )
        .map(|l| format!("the test runner's configuration changed ({l})")),
    }
}

/// The first of `after`'s lines that `before` lacks, cut short for a finding.
fn new_lines(before: &[String], after: &[String]) -> Option<String> {
    let before: std::collections::HashSet<&String> = before.iter().collect();
    let mut extra = after.iter().filter(|l| !before.contains(l));
    let first = extra.next()?;
    let more = extra.count();
    let mut line: String = first.chars().take(80).collect();
    if line.len() < first.len() {
        line.push('…');
    }
    let line = line.replace(": ", ":\u{a0}");
    Some(if more == 0 {
        format!("`{line}`")
    } else {
        format!("`{line}` and {more} more")
    })
}

/// [`new_lines`] of JavaScript, each line compared as a formatter leaves its
/// meaning ([`js_normal`], a trailing comma dropped) and shown as written.
fn new_js_lines(before: &[String], after: &[String]) -> Option<String> {
    let norm = |l: &String| js_normal(l).trim_end_matches(',').to_string();
    let seen: std::collections::HashSet<String> = before.iter().map(norm).collect();
    let fresh: Vec<String> = after
        .iter()
        .filter(|l| !seen.contains(&norm(l)) && !reports_only(l) && !gains_packages(before, l))
        .cloned()
        .collect();
    new_lines(&[], &fresh)
}

/// Whether `line` is a runner's one-line `frameworks` or `plugins` list that only
/// gained packages over its line in `before` (karma's `frameworks` gaining
/// `'sinon'` for a new test): every old entry is kept, each new one is a quoted
/// package name, not a file of the repository's own (`./skip-all.js`), which is
/// code the runner loads.
fn gains_packages(before: &[String], line: &str) -> bool {
    let entries = |line: &str| -> Option<(String, Vec<String>)> {
        let (key, value) = line.split_once(':')?;
        let key = key.trim().trim_matches(['"', '\'']).to_string();
        let value = js_normal(value);
        let inner = value
            .trim_end_matches(',')
            .strip_prefix('[')?
            .strip_suffix(']')?;
        let items = inner
            .split(',')
            .map(|i| i.trim().to_string())
            .filter(|i| !i.is_empty());
        Some((key, items.collect()))
    };
    let Some((key, now)) = entries(line).filter(|(k, _)| k == "frameworks" || k == "plugins")
    else {
        return false;
    };
    let package = |item: &str| {
        let name = item.trim_matches('"');
        item.starts_with('"')
            && !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_@".contains(c))
    };
    before.iter().filter_map(|l| entries(l)).any(|(k, was)| {
        k == key
            && was.iter().all(|w| now.contains(w))
            && now.iter().filter(|n| !was.contains(n)).all(|n| package(n))
    })
}

/// A JS runner's configuration with its `coverage: { … }` blocks emptied: what
/// coverage includes, excludes or reports with, over any number of lines, is
/// how the run reports, not which tests run. Unchanged when its tree cannot be
/// read: then every line is compared.
pub(super) fn unreported(path: &str, text: &str) -> String {
    let Some(blocks) = objects(path, text, "coverage") else {
        return text.to_string();
    };
    let mut out = String::with_capacity(text.len());
    let mut from = 0;
    for block in blocks {
        // A provider of the repository's own is code the runner loads.
        if block.start < from || text[block.clone()].contains("customProviderModule") {
            continue;
        }
        out.push_str(&text[from..=block.start]);
        from = block.end - 1;
    }
    out.push_str(&text[from..]);
    out
}

/// The byte ranges of the object literals `text` gives `key` (`coverage: { … }`),
/// read from its tree, so that a brace in a comment or a string is none; a JSON
/// file is read as the one expression it is. `None` when it does not parse
/// cleanly, or is no JavaScript.
fn objects(path: &str, text: &str, key: &str) -> Option<Vec<std::ops::Range<usize>>> {
    let (grammar, shift) = match Grammar::of(path) {
        Some(g @ (Grammar::JavaScript | Grammar::TypeScript | Grammar::Tsx)) => (g, 0),
        None if path.ends_with(".json") => (Grammar::JavaScript, 1),
        _ => return None,
    };
    let source = match shift {
        0 => std::borrow::Cow::Borrowed(text),
        _ => std::borrow::Cow::Owned(format!("({text}\n)")),
    };
    let tree = clean_tree(grammar, &source)?;
    let mut blocks = Vec::new();
    for pair in preorder(tree.root_node()).filter(|n| n.kind() == "pair") {
        let (Some(name), Some(mut value)) = (
            pair.child_by_field_name("key"),
            pair.child_by_field_name("value"),
        ) else {
            continue;
        };
        if source[name.byte_range()].trim_matches(['"', '\'', '`']) != key {
            continue;
        }
        // `{ … } as any`, `satisfies T`, `({ … })`, `{ … }!` are the object.
        while let Some(inner) = matches!(
            value.kind(),
            "as_expression"
                | "satisfies_expression"
                | "parenthesized_expression"
                | "non_null_expression"
        )
        .then(|| value.named_child(0))
        .flatten()
        {
            value = inner;
        }
        // A literal is no block (`alias: { test: '/t' }`); a value plan cannot
        // read as an object (a call, a name) has every line compared, not none.
        let literal = value.kind().contains("string")
            || matches!(
                value.kind(),
                "number" | "true" | "false" | "null" | "undefined" | "array" | "regex"
            );
        if literal {
            continue;
        }
        if value.kind() != "object" {
            return None;
        }
        blocks.push(value.start_byte() - shift..value.end_byte() - shift);
    }
    Some(blocks)
}

/// Whether a line of a JS runner's configuration sets only how it reports, on one
/// line (`reporters: ['verbose'],`, `verbose: true`, `coverage: { provider: 'v8' }`):
/// what runs and whether a failure fails are the same.
fn reports_only(line: &str) -> bool {
    const KEYS: [&str; 9] = [
        "reporters",
        "reporter",
        "verbose",
        "outputFile",
        "coverage",
        "collectCoverage",
        "coverageReporters",
        "coverageDirectory",
        "coverageProvider",
    ];
    let Some((key, value)) = line.split_once(':') else {
        return false;
    };
    let key = key.trim().trim_matches(['"', '\'']);
    let value = js_normal(value);
    let closed =
        |open: char, close: char| value.matches(open).count() == value.matches(close).count();
    // A reporter or coverage module of the repository's own (`./reporter.js`) is
    // code the runner loads, which can end the run green.
    let own_code = value.contains('/')
        || [".js", ".ts", ".mjs", ".cjs"]
            .iter()
            .any(|e| value.contains(e));
    let workers = WORKERS.contains(&key) && (value == "{" || !value.contains(['[', '{', '(']));
    (KEYS.contains(&key) && closed('[', ']') && closed('{', '}') || workers) && !own_code
}

/// The keys of a JS runner's configuration that say how many workers run the
/// tests and of what kind (`pool: 'forks'`, `poolOptions: { forks: {
/// singleFork: true } }`): each still runs every test and fails on a failure. A
/// key inside one of their blocks is a line of its own, read on its own.
const WORKERS: [&str; 14] = [
    "pool",
    "poolOptions",
    "threads",
    "forks",
    "vmThreads",
    "vmForks",
    "singleThread",
    "singleFork",
    "maxWorkers",
    "minWorkers",
    "maxThreads",
    "minThreads",
    "fileParallelism",
    "maxConcurrency",
];

/// JavaScript as prettier leaves its meaning: no comments or whitespace outside
/// strings, no semicolons, no comma before a closing bracket, and a string in
/// single quotes written in double ones (when it holds no double quote). Two
/// configurations equal here differ only in their formatting.
pub(super) fn js_normal(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        match c {
            '/' if chars.get(i + 1) == Some(&'/') => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if chars.get(i + 1) == Some(&'*') => {
                i += 2;
                while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                    i += 1;
                }
                i += 2;
            }
            '\'' | '"' | '`' => {
                let start = i;
                i += 1;
                while i < chars.len() && chars[i] != c {
                    i += if chars[i] == '\\' { 2 } else { 1 };
                }
                let body: String = chars[start + 1..i.min(chars.len())].iter().collect();
                match c == '\'' && !body.contains('"') {
                    true => out.push_str(&format!("\"{body}\"")),
                    false => out.extend(&chars[start..(i + 1).min(chars.len())]),
                }
                i += 1;
            }
            ';' => i += 1,
            _ if c.is_whitespace() => i += 1,
            _ => {
                if matches!(c, '}' | ']' | ')') && out.ends_with(',') {
                    out.pop();
                }
                out.push(c);
                i += 1;
            }
        }
    }
    out
}

/// Meaningful lines: trimmed, no blanks, no `#`/`//` comments.
fn plain_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with("//"))
        .map(str::to_string)
        .collect()
}

/// `(section, line)` pairs of an INI or TOML file, continuation lines joined to
/// their key's.
fn sections(text: &str) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::new();
    let mut section = String::new();
    for raw in text.lines() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if line.starts_with('[') && line.ends_with(']') {
            section = line.trim_matches(['[', ']', ' ']).to_string();
            continue;
        }
        let continued = raw.starts_with([' ', '\t']) || !line.contains(['=', ':']);
        match out.last_mut() {
            Some((s, last)) if continued && *s == section => {
                last.push(' ');
                last.push_str(line);
            }
            _ => out.push((section.clone(), line.to_string())),
        }
    }
    out
}

fn cargo_lines(text: &str) -> Vec<String> {
    sections(text)
        .into_iter()
        .filter(|(s, l)| s == "alias" || s.starts_with("alias.") || l.starts_with("runner"))
        .map(|(s, l)| format!("[{s}] {l}"))
        .collect()
}

/// A TOML line's key as the path of its parts, its section's first: `[build]` with
/// `"rustc-wrapper" = …` and `build.rustc-wrapper = …` at the top are one key.
fn key_path(section: &str, line: &str) -> Vec<String> {
    let key = line.split('=').next().unwrap_or("");
    section
        .split('.')
        .chain(key.split('.'))
        .map(|p| p.trim().trim_matches(['"', '\'']).to_string())
        .filter(|p| !p.is_empty())
        .collect()
}

/// What cargo builds and runs the tests with besides a runner: a compiler or its
/// wrapper (`rustc-wrapper = "./fake.sh"` compiles every test to `exit 0`), a
/// linker, compiler flags, the test processes' environment (`[env]` with
/// `LD_PRELOAD`), and where dependencies come from (`[source]` replaced, `[patch]`:
/// an assertion crate swapped for one whose checks check nothing).
fn cargo_build_lines(text: &str) -> Vec<String> {
    const KEYS: [&str; 6] = [
        "rustc",
        "rustc-wrapper",
        "rustc-workspace-wrapper",
        "linker",
        "rustflags",
        "rustdocflags",
    ];
    sections(text)
        .into_iter()
        .filter(|(s, l)| {
            let path = key_path(s, l);
            let first = path.first().map(String::as_str);
            matches!(first, Some("env" | "source"))
                || (first == Some("patch") && patched_locally(&path, l))
                || path.last().is_some_and(|k| KEYS.contains(&k.as_str()))
        })
        .map(|(s, l)| format!("[{s}] {l}"))
        .collect()
}

/// Whether the `[section] key = …` line `now` is `then`'s compiler flags made
/// stricter only: the same key, lint allowances taken out (`-A
/// incomplete_features`) and deny, warn or forbid lints put in, nothing else.
/// A stricter build fails more, chooses no test; a `--cfg` or any other flag
/// added or removed may, and a comment inside the value may hide one.
fn stricter_flags(then: &str, now: &str) -> bool {
    let split = |line: &str| {
        let (key, value) = line.split_once('=')?;
        let key = key.trim();
        let flags = key.ends_with("rustflags") || key.ends_with("rustdocflags");
        flags.then(|| (key.to_string(), flag_pairs(value)))
    };
    let (Some((key, Some(old))), Some((now_key, Some(new)))) = (split(then), split(now)) else {
        return false;
    };
    if key != now_key {
        return false;
    }
    let less = |a: &[String], b: &[String]| {
        let mut rest = b.to_vec();
        a.iter()
            .filter(|p| match rest.iter().position(|r| r == *p) {
                Some(i) => {
                    rest.remove(i);
                    false
                }
                None => true,
            })
            .cloned()
            .collect::<Vec<_>>()
    };
    less(&old, &new)
        .iter()
        .all(|p| lint_level(p) == Some(false))
        && less(&new, &old).iter().all(|p| lint_level(p) == Some(true))
}

/// A rustflags value's flags, each with its value (`-A x`, `--cfg foo`): the
/// words of its quoted strings. `None` for a comment in it, whose words plan
/// cannot tell from flags once its lines are joined.
fn flag_pairs(value: &str) -> Option<Vec<String>> {
    let mut words = Vec::new();
    let mut quote: Option<char> = None;
    let mut word = String::new();
    for c in value.chars() {
        match quote {
            Some(q) if c == q => {
                words.extend(word.split_whitespace().map(str::to_string));
                word.clear();
                quote = None;
            }
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => quote = Some(c),
            None if c == '#' => return None,
            None => {}
        }
    }
    let mut pairs: Vec<String> = Vec::new();
    for w in words {
        match pairs.last_mut() {
            Some(last) if !w.starts_with('-') && last.starts_with('-') && !last.contains(' ') => {
                if last.len() == 2 || (last.starts_with("--") && !last.contains('=')) {
                    last.push(' ');
                    last.push_str(&w);
                    continue;
                }
                pairs.push(w);
            }
            _ => pairs.push(w),
        }
    }
    Some(pairs.into_iter().map(lint_spelled).collect())
}

/// A lint flag in one spelling (`-Ax`, `--allow=x` and `-A x` are `-A x`), so
/// that respelling one is no change; any other flag as it is.
fn lint_spelled(pair: String) -> String {
    let (flag, name) = match pair.split_once([' ', '=']) {
        Some((f, n)) if f.starts_with("--") || f.len() == 2 => (f, n),
        None if !pair.starts_with("--") && pair.len() > 2 => pair.split_at(2),
        _ => return pair,
    };
    let lint = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-' || c == ':');
    let level = match flag {
        "-A" | "--allow" => "-A",
        "-D" | "--deny" => "-D",
        "-W" | "--warn" => "-W",
        "-F" | "--forbid" => "-F",
        _ => return pair,
    };
    match lint {
        true => format!("{level} {name}"),
        false => pair,
    }
}

/// A flag's lint level ([`lint_spelled`]): `Some(false)` for an allowance,
/// `Some(true)` for deny, warn or forbid, `None` for any other flag.
fn lint_level(pair: &str) -> Option<bool> {
    match pair.split_once(' ') {
        Some(("-A", _)) => Some(false),
        Some(("-D" | "-W" | "-F", _)) => Some(true),
        _ => None,
    }
}

/// A `[patch]` or `[replace]` line that takes a test library from the
/// repository's files (`pretty_assertions = { path = "fake" }`, or `path = …`
/// under `[patch.crates-io.insta]`): a version or a git fork is a crate published
/// elsewhere, as any bump, and another crate's local copy is a workspace's own.
fn patched_locally(path: &[String], line: &str) -> bool {
    let (key, value) = line.split_once('=').unwrap_or((line, ""));
    let (name, local) = match path.split_last() {
        Some((last, rest)) if last == "path" => (rest.last().map_or("", String::as_str), true),
        _ => {
            let value = value.replace(' ', "");
            let local =
                value.starts_with('{') && (value.contains("{path=") || value.contains(",path="));
            (key, local)
        }
    };
    // `[replace]` names a crate with its version: `"foo:1.0.0"`.
    local
        && test_library(
            name.trim()
                .trim_matches('"')
                .split(':')
                .next()
                .unwrap_or(""),
        )
}

/// Whether a dependency is a library the tests check or run with (an assertion
/// or matcher library, a runner, a snapshot or property tester), by its crate,
/// package or module name. A local copy of one is the cheap fake: its checks check
/// nothing. Any other dependency taken from the repository's files (a monorepo's
/// own package, a test fixture, a fork kept in the tree) the product runs as well,
/// in front of the judge.
fn test_library(name: &str) -> bool {
    const WORDS: [&str; 27] = [
        "jest",
        "vitest",
        "mocha",
        "chai",
        "jasmine",
        "expect",
        "ava",
        "tap",
        "tape",
        "uvu",
        "karma",
        "playwright",
        "cypress",
        "sinon",
        "should",
        "qunit",
        "insta",
        "proptest",
        "quickcheck",
        "rstest",
        "googletest",
        "trybuild",
        "predicates",
        "testify",
        "gomega",
        "ginkgo",
        "quicktest",
    ];
    // Go modules whose names have no such word; a major version or a package
    // below one is the module's.
    const MODULES: [&str; 6] = [
        "github.com/google/go-cmp",
        "gotest.tools",
        "github.com/matryer/is",
        "github.com/maxatome/go-testdeep",
        "github.com/smartystreets/goconvey",
        "github.com/rogpeppe/go-internal",
    ];
    let name = name.trim().trim_matches(['"', '\'']).to_ascii_lowercase();
    MODULES
        .iter()
        .any(|m| name == *m || name.strip_prefix(m).is_some_and(|r| r.starts_with('/')))
        || name
            .split(['/', '-', '_', '@', '.'])
            .any(|w| WORDS.contains(&w) || w.starts_with("assert") || w == "libtest")
}

/// A toolchain file's `path` (rustup runs the `cargo` found there), and a legacy
/// one-line file that names a directory rather than a channel.
fn toolchain_lines(text: &str) -> Vec<String> {
    sections(text)
        .into_iter()
        .filter(|(_, l)| {
            let key = l.split('=').next().unwrap_or("").trim().trim_matches('"');
            (l.contains('=') && key == "path") || (!l.contains('=') && l.contains('/'))
        })
        .map(|(s, l)| format!("[{s}] {l}"))
        .collect()
}

/// A build script's lines that change how the tests build or what they build
/// from: an instruction to rustc through cargo (`cargo:rustc-…`, `cargo::rustc-…`:
/// a cfg, an environment variable, link arguments, flags), a program it runs, a
/// file it writes outside cargo's `OUT_DIR` can't be told apart, and an
/// environment it sets. `rerun-if-…` and warnings are no change to the tests.
fn build_script_lines(text: &str) -> Vec<String> {
    // `rustc-check-cfg`, `rustc-link-lib` and `rustc-link-search` (every -sys
    // crate's), a program run and a file written into OUT_DIR (code generated)
    // are what honest build scripts do; none changes how a test already there
    // builds.
    const SAYS: [&str; 9] = [
        "rustc-cfg=",
        "rustc-env=",
        "rustc-link-arg",
        "rustc-flags=",
        "fs::write",
        "fs::copy",
        "fs::rename",
        "File::create",
        "include!",
    ];
    plain_lines(text)
        .into_iter()
        .filter(|l| SAYS.iter().any(|s| l.contains(s)) || l.contains("set_var"))
        .filter(|l| !(l.contains("OUT_DIR") || l.contains("out_dir")) || l.contains("set_var"))
        .collect()
}

/// `go.mod`'s and `go.work`'s directives that swap a module for other code: each
/// `replace`, and in `go.work` each `use` but the module itself (a module of the
/// workspace takes the place of a dependency with its path). A block's lines are
/// each read with its directive's name: `replace (` … `)`.
fn go_module_lines(path: &str, text: &str) -> Vec<String> {
    let work = file_name(path) == "go.work";
    let mut out = Vec::new();
    let mut block: Option<&str> = None;
    for raw in text.lines() {
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if let Some(directive) = block {
            if line == ")" {
                block = None;
            } else {
                out.push(format!("{directive} {line}"));
            }
            continue;
        }
        let (directive, rest) = line.split_once([' ', '\t', '(']).unwrap_or((line, ""));
        if !(directive == "replace" || (work && directive == "use")) {
            continue;
        }
        let rest = rest.trim();
        if line[directive.len()..].trim_start().starts_with('(') {
            block = Some(directive);
            let after = rest.trim_start_matches('(').trim();
            if !after.is_empty() && after != ")" {
                out.push(format!(
                    "{directive} {}",
                    after.trim_end_matches(')').trim()
                ));
            }
            if after.ends_with(')') {
                block = None;
            }
        } else {
            out.push(format!("{directive} {rest}"));
        }
    }
    // A version pinned (`=> mod v1.2.3`) or a fork is a module published
    // elsewhere, as any dependency bump; a copy in the repository is the cheap
    // swap.
    out.retain(|l| match l.split_once("=>") {
        Some((module, target)) => {
            let module = module.split_whitespace().nth(1).unwrap_or("");
            local(target.trim()) && test_library(module)
        }
        None => !matches!(l.as_str(), "use ." | "use ./"),
    });
    out
}

/// A path into this machine's files, not a module or package published elsewhere.
fn local(target: &str) -> bool {
    let target = target.trim_matches(['"', '\'', ' ']);
    ["./", "../", "/", ".\\", "..\\"]
        .iter()
        .any(|p| target.starts_with(p))
        || target == "."
        || target == ".."
}

/// `.npmrc` settings that change what `npm test` runs: the shell scripts run in
/// (`script-shell=/bin/true` runs nothing and passes), node's own options (a
/// `--require` that exits first), and whether pre/post scripts run.
fn npmrc_lines(text: &str) -> Vec<String> {
    plain_lines(text)
        .into_iter()
        .filter(|l| !l.starts_with(';'))
        .filter(|l| {
            let key = l.split('=').next().unwrap_or("").trim().replace('_', "-");
            matches!(
                key.to_ascii_lowercase().as_str(),
                "script-shell" | "node-options" | "ignore-scripts"
            )
        })
        .collect()
}

/// The lines of a vite config's `test: { … }` block (what vitest reads when no
/// vitest.config exists); the build's settings around it are none. Every line
/// when its tree cannot be read.
fn vite_test_lines(path: &str, text: &str) -> Vec<String> {
    match objects(path, text, "test") {
        Some(blocks) => blocks
            .into_iter()
            .flat_map(|b| plain_lines(&text[b.start + 1..b.end - 1]))
            .collect(),
        None => plain_lines(text),
    }
}

/// A manifest's lines that keep tests from running: a target's `test = false`,
/// `harness = false`, `autotests = false`, a feature a test or a binary target
/// needs before cargo builds it, and its tests, at all (`required-features`), a
/// test target or the library pointed at another file, a dependency patched or
/// replaced, and a workspace's `default-members` or `exclude`.
fn manifest_lines(text: &str) -> Vec<String> {
    sections(text)
        .into_iter()
        .filter(|(s, l)| {
            let path = key_path(s, l);
            let first = path.first().map(String::as_str);
            let last = path.last().map(String::as_str);
            // Where the tests' code and their dependencies come from: a test target's
            // or the library's `path` set to another file (the file with the tests is
            // no longer compiled), a dependency patched or replaced, and the members
            // a workspace's `cargo test` runs.
            // A dependency of a test library's name from a path
            // (`insta = { path = "fake-insta" }`) is the same swap as a patch.
            let dependency = path.iter().any(|p| p.ends_with("dependencies"));
            if ((matches!(first, Some("patch" | "replace")) || dependency)
                && patched_locally(&path, l))
                || (matches!(first, Some("test" | "lib")) && last == Some("path"))
                || (first == Some("workspace")
                    && matches!(last, Some("default-members" | "exclude")))
            {
                return true;
            }
            let key = l
                .split('=')
                .next()
                .unwrap_or("")
                .trim()
                .trim_matches(['"', '\'']);
            (matches!(key, "test" | "harness" | "autotests") && l.contains("false"))
                || (key == "required-features" && matches!(s.as_str(), "test" | "bin"))
                // A build script of another path runs in `build.rs`'s place.
                || (key == "build" && s == "package")
        })
        .map(|(s, l)| format!("[{s}] {l}"))
        .collect()
}

/// pytest's options: the `[pytest]`, `[tool:pytest]` or `[tool.pytest…]` section
/// (and tox's test commands), the keys that choose which tests run and how.
fn pytest_lines(path: &str, text: &str) -> Vec<String> {
    let name = file_name(path);
    let toml = name.ends_with(".toml");
    if toml && let Some(lines) = toml_pytest_lines(name, text) {
        return lines;
    }
    // TOML names a key by its path, however it is spelt: `[tool."pytest".ini_options]`
    // with `'addopts'`, or `[tool]` with `pytest.ini_options.addopts`, are one key.
    let path_of = |s: &str, key: &str| -> String {
        s.split('.')
            .chain(key.split('.'))
            .map(|p| p.trim().trim_matches(['"', '\'']))
            .filter(|p| !p.is_empty())
            .collect::<Vec<_>>()
            .join(".")
    };
    sections(text)
        .into_iter()
        .filter(|(s, l)| {
            let written = l.split(['=', ':']).next().unwrap_or("");
            let (section, key) = match toml {
                true => {
                    let full = path_of(s, written);
                    match full.rsplit_once('.') {
                        Some((s, k)) => (s.to_string(), k.to_string()),
                        None => (String::new(), full),
                    }
                }
                false => (
                    s.clone(),
                    written.trim().trim_matches(['"', '\'']).to_string(),
                ),
            };
            let full = format!("{section}.{key}");
            let pytest = match name {
                "pytest.ini" | ".pytest.ini" => section == "pytest",
                "pytest.toml" | ".pytest.toml" => full.starts_with("pytest."),
                "tox.ini" => {
                    section == "pytest"
                        || section == "tool:pytest"
                        || section.starts_with("testenv")
                }
                "setup.cfg" => section == "tool:pytest",
                _ => full.starts_with("tool.pytest"),
            };
            // An inline table (`ini_options = { addopts = … }`) holds its keys.
            let chooses = PYTEST_CHOOSES.contains(&key.as_str())
                || (toml && l.contains('{') && PYTEST_CHOOSES.iter().any(|k| l.contains(k)));
            pytest && chooses
        })
        .filter_map(|(s, l)| {
            let written = l.split(['=', ':']).next().unwrap_or("");
            let key = written.trim().trim_matches(['"', '\'']);
            let value = l[written.len()..].get(1..).unwrap_or("");
            let kept = match key {
                _ if strict_xfail(key, value.trim()) => return None,
                "commands" if name == "tox.ini" => tox_commands(text, &s)
                    .iter()
                    .filter(|line| !runs_no_test(line))
                    .flat_map(|line| pytest_command(&shell_words(line)))
                    .collect(),
                "commands" => pytest_command(&shell_words(value)),
                _ if key == "addopts" || key.ends_with(".addopts") => {
                    choosing_options(&shell_words(value))
                }
                _ => return Some(format!("[{s}] {l}")),
            };
            (!kept.is_empty()).then(|| format!("[{s}] {} = {}", written.trim(), kept.join(" ")))
        })
        .collect()
}

/// The lines of tox's `commands` in `section` of `text`, one command each: the
/// value on the key's own line, then each indented line below it.
fn tox_commands(text: &str, section: &str) -> Vec<String> {
    let (mut here, mut open, mut out) = (String::new(), false, Vec::new());
    for raw in text.lines() {
        let line = raw.trim();
        if line.starts_with('[') && line.ends_with(']') {
            here = line.trim_matches(['[', ']', ' ']).to_string();
            open = false;
            continue;
        }
        if line.is_empty() || line.starts_with('#') || line.starts_with(';') {
            continue;
        }
        if open && raw.starts_with([' ', '\t']) {
            // tox joins a line ending in `\` with the next: one command.
            match out.last_mut().filter(|l: &&mut String| l.ends_with('\\')) {
                Some(last) => {
                    last.pop();
                    last.push(' ');
                    last.push_str(line);
                }
                None => out.push(line.to_string()),
            }
            continue;
        }
        open = false;
        if here == section
            && let Some((key, value)) = line.split_once('=')
            && key.trim() == "commands"
        {
            open = true;
            out.extend((!value.trim().is_empty()).then(|| value.trim().to_string()));
        }
    }
    out
}

/// Whether a tox command line runs a tool that runs no test: a linter, a
/// formatter, a type checker, or coverage's bookkeeping (`coverage
/// erase`, `report`, `combine`; not `coverage run`). None of its words may name a
/// runner: tox passes `&&` to the tool, but a reader should not have to know it.
/// Not `pre-commit` (its hooks are commands the config names) nor `sphinx-build`
/// (`-b doctest` runs tests).
fn runs_no_test(line: &str) -> bool {
    const TOOLS: [&str; 15] = [
        "flake8",
        "mypy",
        "black",
        "isort",
        "ruff",
        "pylint",
        "pyright",
        "codespell",
        "twine",
        "check-manifest",
        "bandit",
        "pydocstyle",
        "pycodestyle",
        "pyflakes",
        "rst-lint",
    ];
    let words = shell_words(line);
    let Some(first) = words.first().map(|w| w.trim_matches(['"', '\''])) else {
        return true;
    };
    // A bare name, or tox's own env's: a script of the repository's named like
    // a tool (`{toxinidir}/tools/flake8`) runs whatever it holds.
    let tool = first.strip_prefix("{envbindir}/").unwrap_or(first);
    let bookkeeping = tool == "coverage"
        && words.get(1).is_some_and(|w| {
            matches!(
                w.as_str(),
                "erase" | "report" | "combine" | "html" | "xml" | "json"
            )
        });
    let runner = words.iter().any(|w| {
        let w = w.trim_matches(['"', '\'']);
        [
            "pytest", "py.test", "unittest", "nose", "tox", "setup.py", "test",
        ]
        .iter()
        .any(|r| w == *r || w.ends_with(&format!("/{r}")))
    });
    (TOOLS.contains(&tool) || bookkeeping) && !runner
}

/// Whether the tox `commands` line `now` is `then` but for the envs a `tox -e`
/// or `detox -e` in it runs, which only grew (`tox -e coverage-report` to `tox
/// -e docs-html,coverage-report`): every env it ran still runs, each word else
/// the same. More runs choose no test out.
fn more_envs(then: &str, now: &str) -> bool {
    let (Some((key, old)), Some((now_key, new))) = (then.split_once(" = "), now.split_once(" = "))
    else {
        return false;
    };
    let (old, new): (Vec<&str>, Vec<&str>) = (
        old.split_whitespace().collect(),
        new.split_whitespace().collect(),
    );
    let tox = old.iter().any(|w| matches!(*w, "tox" | "detox"));
    let envs = |list: &str| list.split(',').map(str::to_string).collect::<Vec<_>>();
    key == now_key
        && key.ends_with(" commands")
        && tox
        && old != new
        && old.len() == new.len()
        && old.iter().zip(&new).enumerate().all(|(i, (o, n))| {
            o == n
                || (i > 0 && old[i - 1] == "-e" && {
                    let grown = envs(n);
                    envs(o).iter().all(|e| grown.contains(e))
                })
        })
}

/// tox's `commands` with pytest's own options read as [`choosing_options`] reads
/// `addopts`: `pytest -v {posargs}` chooses what `pytest {posargs}` does.
///
/// A benchmark run (`--codspeed`, `--benchmark-only`) deselects every test but
/// the benchmarks, whatever else it names: it reads as the flag alone, so a
/// benchmark env pointed at other files changes nothing, and the flag put where
/// the suite ran is a line of its own.
fn pytest_command(words: &[String]) -> Vec<String> {
    let at = words.iter().position(|w| {
        let w = w.trim_matches(['"', '\'']);
        w == "pytest" || w == "py.test" || w.ends_with("/pytest")
    });
    match at {
        Some(at) => {
            let mut out = words[..=at].to_vec();
            let benchmarks = words[at + 1..].iter().find(|w| {
                matches!(
                    w.trim_matches(['"', '\'']),
                    "--codspeed" | "--benchmark-only"
                )
            });
            match benchmarks {
                Some(flag) => out.push(flag.clone()),
                None => out.extend(choosing_options(&words[at + 1..])),
            }
            out
        }
        // pre-commit's options of how it reports choose no hook and no file.
        None if words.first().is_some_and(|w| w == "pre-commit") => words
            .iter()
            .filter(|w| {
                let w = w.trim_matches(['"', '\'']);
                !matches!(w, "--show-diff-on-failure" | "--verbose" | "-v")
                    && !w.starts_with("--color")
            })
            .cloned()
            .collect(),
        None => words.to_vec(),
    }
}

/// `text` split as a shell splits it, quotes kept in the words: `-k 'not slow'`
/// is `-k` and `'not slow'`.
fn shell_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut quote = None;
    for c in text.chars() {
        match (quote, c) {
            (Some(q), _) if c == q => {
                quote = None;
                word.push(c);
            }
            (Some(_), _) => word.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                word.push(c);
            }
            (None, _) if c.is_whitespace() => {
                if !word.is_empty() {
                    out.push(std::mem::take(&mut word));
                }
            }
            (None, _) => word.push(c),
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// pytest's options that choose nothing of what runs or whether a failure fails
/// the run: how much it says (`-v`, `-q`, `-ra`, `--tb`, `--color`, `--durations`,
/// reports and coverage), how many workers run it (`-n auto`), and stopping a run
/// that already failed (`-x`, `--maxfail`: the run still fails). Adding one is no
/// finding. Everything else chooses (`-k`, `-m`, `--deselect`, `--ignore`, `-p`,
/// which loads a plugin's code, `--lf`, `--sw`, `--co`, a path) and stays one.
const REPORTING: [&str; 40] = [
    "-v",
    "--verbose",
    "-q",
    "--quiet",
    "-l",
    "--showlocals",
    "-s",
    "--capture",
    "-x",
    "--exitfirst",
    "--maxfail",
    "--strict-markers",
    "--strict-config",
    "--strict",
    "--color",
    "--code-highlight",
    "--tb",
    "--durations",
    "--durations-min",
    "-n",
    "--numprocesses",
    "--maxprocesses",
    "--dist",
    "--junitxml",
    "--junit-xml",
    "--junit-prefix",
    "--cov",
    "--cov-report",
    "--cov-config",
    "--cov-branch",
    "--no-cov-on-fail",
    "--no-header",
    "--no-summary",
    "--html",
    "--self-contained-html",
    "--log-level",
    "--log-cli-level",
    "--show-capture",
    "--full-trace",
    "--timeout",
];

/// Of [`REPORTING`], those whose value can come as the next word (`-n auto`).
const TAKES_VALUE: [&str; 17] = [
    "-n",
    "--numprocesses",
    "--maxprocesses",
    "--dist",
    "--durations",
    "--durations-min",
    "--tb",
    "--color",
    "--capture",
    "--maxfail",
    "--junitxml",
    "--junit-xml",
    "--cov-report",
    "--cov-config",
    "--html",
    "--log-level",
    "--timeout",
];

/// `words` (pytest's `addopts`) without the options that choose nothing
/// ([`REPORTING`]), each with its value.
fn choosing_options(words: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let word = words[i].trim_matches(['"', '\'']);
        let (name, inline) = match word.split_once('=') {
            Some((name, _)) => (name, true),
            None => (word, false),
        };
        // Short flags stacked or with their value attached: `-vv`, `-qq`, `-ra`,
        // `-rfE`, `-nauto`, `-n4`.
        let short = |flag: char| {
            word.strip_prefix('-')
                .and_then(|r| r.strip_prefix(flag))
                .is_some_and(|r| !r.starts_with('-'))
        };
        let stacked = |flag: char| {
            word.len() > 1 && word.starts_with('-') && word[1..].chars().all(|c| c == flag)
        };
        let reports = REPORTING.contains(&name)
            || stacked('v')
            || stacked('q')
            || (short('r') && word.len() > 2)
            || (short('n') && word.len() > 2);
        if !reports {
            out.push(words[i].clone());
            i += 1;
            continue;
        }
        let separate = !inline && (TAKES_VALUE.contains(&name) || word == "-r");
        i += if separate && words.get(i + 1).is_some_and(|w| !w.starts_with('-')) {
            2
        } else {
            1
        };
    }
    out
}

/// pytest's keys in a TOML file that reads, as TOML reads them: every spelling of
/// a key's path (quoted, escaped, dotted, an inline table, a comment after a
/// header) is the same key. `None`: the file does not read as TOML, and the lines
/// are scanned instead. pyproject.toml keeps pytest's options under `tool.pytest`
/// (`ini_options` in it, or pytest 9's own keys), pytest.toml under `pytest`.
fn toml_pytest_lines(name: &str, text: &str) -> Option<Vec<String>> {
    let doc = text.parse::<toml_edit::DocumentMut>().ok()?;
    let (root, path) = match name {
        "pyproject.toml" => (
            doc.get("tool")
                .and_then(|t| t.as_table_like())
                .and_then(|t| t.get("pytest")),
            "tool.pytest",
        ),
        _ => (doc.get("pytest"), "pytest"),
    };
    let mut out = Vec::new();
    if let Some(root) = root {
        toml_keys(root, path, 0, &mut out);
    }
    Some(out)
}

/// The keys of [`PYTEST_CHOOSES`] under `item`, as `[path] key = value`.
fn toml_keys(item: &toml_edit::Item, path: &str, depth: usize, out: &mut Vec<String>) {
    let Some(table) = item.as_table_like() else {
        return;
    };
    for (key, value) in table.iter() {
        if value.is_table_like() && depth < 2 {
            toml_keys(value, &format!("{path}.{key}"), depth + 1, out);
        } else if key == "addopts"
            && let Some(value) = value.as_value()
        {
            // Read as pytest reads it, a string split as a shell does or a list;
            // shown as one string of the options that choose what runs.
            let words = match (value.as_str(), value.as_array()) {
                (Some(text), _) => shell_words(text),
                (_, Some(items)) => items
                    .iter()
                    .map(|v| v.as_str().map_or_else(|| toml_shown(v), str::to_string))
                    .collect(),
                _ => vec![toml_shown(value)],
            };
            let kept = choosing_options(&words);
            if !kept.is_empty() {
                out.push(format!("[{path}] {key} = {:?}", kept.join(" ")));
            }
        } else if PYTEST_CHOOSES.contains(&key) {
            let shown = value.as_value().map(toml_shown).unwrap_or_default();
            if strict_xfail(key, &shown) {
                continue;
            }
            out.push(format!("[{path}] {key} = {shown}"));
        }
    }
}

/// A TOML value as a finding shows it.
fn toml_shown(value: &toml_edit::Value) -> String {
    if let Some(text) = value.as_str() {
        return format!("{text:?}");
    }
    if let Some(items) = value.as_array() {
        let items: Vec<String> = items.iter().map(toml_shown).collect();
        return format!("[{}]", items.join(", "));
    }
    value
        .as_integer()
        .map(|n| n.to_string())
        .or_else(|| value.as_bool().map(|b| b.to_string()))
        .or_else(|| value.as_float().map(|f| f.to_string()))
        .unwrap_or_else(|| "…".to_string())
}

/// `xfail_strict = true`: an expected failure that passes fails the run. Stricter
/// than pytest's default, so it reads as no option at all; `false` is still one.
fn strict_xfail(key: &str, value: &str) -> bool {
    key.rsplit('.').next() == Some("xfail_strict")
        && matches!(
            value.to_ascii_lowercase().as_str(),
            "true" | "1" | "yes" | "on"
        )
}

/// pytest's keys that choose which tests run and how, and what they import.
const PYTEST_CHOOSES: [&str; 13] = [
    "addopts",
    "pythonpath",
    "testpaths",
    "python_files",
    "python_classes",
    "python_functions",
    "norecursedirs",
    "confcutdir",
    "usefixtures",
    "xfail_strict",
    "empty_parameter_set_mark",
    "collect_ignore",
    "commands",
];

/// Hooks of pytest that can skip, deselect or rewrite results, or run a test
/// without calling it (`pytest_pyfunc_call`, `pytest_runtestloop`); and
/// `pytest_plugins`, which loads another module's hooks as the conftest's own.
const HOOKS: [&str; 21] = [
    "pytest_sessionstart",
    "pytest_unconfigure",
    "pytest_cmdline_main",
    "collect_ignore",
    "collect_ignore_glob",
    "pytest_collection_modifyitems",
    "pytest_ignore_collect",
    "pytest_collect_file",
    "pytest_pycollect_makeitem",
    "pytest_runtest_setup",
    "pytest_runtest_call",
    "pytest_runtest_protocol",
    "pytest_runtest_makereport",
    "pytest_runtest_logreport",
    "pytest_report_teststatus",
    "pytest_sessionfinish",
    "pytest_configure",
    "pytest_pyfunc_call",
    "pytest_runtestloop",
    "pytest_collection",
    "pytest_plugins",
];

/// Each hook block of a conftest: a hook's `def` with its indented body, or an
/// assignment to `collect_ignore*`, as one normalised line.
fn conftest_blocks(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let def = trimmed
            .strip_prefix("def ")
            .or_else(|| trimmed.strip_prefix("async def "));
        let named = |rest: &str| {
            HOOKS.iter().any(|h| {
                rest.strip_prefix(h)
                    .is_some_and(|after| after.trim_start().starts_with(['(', '=', ':', '+']))
            })
        };
        // An autouse fixture runs before every test: one that skips or exits
        // switches them all off.
        let autouse = def.is_some()
            && i > 0
            && lines[i - 1].trim_start().starts_with('@')
            && lines[i - 1].contains("autouse=True")
            && lines[i + 1..]
                .iter()
                .take_while(|l| l.trim().is_empty() || l.len() - l.trim_start().len() > indent)
                .any(|l| {
                    ["skip(", "xfail(", "exit(", "fail("]
                        .iter()
                        .any(|c| l.contains(c))
                });
        if autouse || def.is_some_and(named) || (def.is_none() && named(trimmed)) {
            let start = i;
            let mut block = trimmed.to_string();
            i += 1;
            while i < lines.len() {
                let next = lines[i];
                let t = next.trim_start();
                if !t.is_empty() && next.len() - t.len() <= indent && !t.starts_with([')', ']']) {
                    break;
                }
                if !t.is_empty() && !t.starts_with('#') {
                    block.push(' ');
                    block.push_str(t);
                }
                i += 1;
            }
            // A decorator may register anything in the hook's place.
            let decorated = start > 0 && lines[start - 1].trim_start().starts_with('@');
            let raw: Vec<&str> = lines[start..i]
                .iter()
                .map(|l| l.get(indent..).unwrap_or_else(|| l.trim_start()))
                .collect();
            if decorated || !registers_markers_only(&raw.join("\n")) {
                out.push(block);
            }
        } else {
            if exits(trimmed) {
                out.push(trimmed.to_string());
            }
            i += 1;
        }
    }
    out
}

/// [`new_lines`] of conftest hook blocks, each compared as pytest's names for
/// its objects read: `py.test` is pytest's old name for itself, and
/// `pytest.collect.Function` its old name for `pytest.Function`, the same
/// objects. A hook rewritten from one spelling to the other decides nothing
/// anew.
fn new_hooks(before: &[String], after: &[String]) -> Option<String> {
    let seen: HashSet<String> = before.iter().map(|b| pytest_spelled(b)).collect();
    let fresh: Vec<String> = (after.iter())
        .filter(|a| !seen.contains(&pytest_spelled(a)))
        .cloned()
        .collect();
    new_lines(&[], &fresh)
}

/// `text` with pytest's old names (`py.test.`, `pytest.collect.`) spelled
/// `pytest.`, where each starts a name (not `mypy.test.`).
fn pytest_spelled(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while !rest.is_empty() {
        let starts = !out
            .chars()
            .next_back()
            .is_some_and(|c: char| c.is_alphanumeric() || c == '_' || c == '.');
        let old = ["py.test.collect.", "pytest.collect.", "py.test."]
            .into_iter()
            .find(|o| starts && rest.starts_with(o));
        match old {
            Some(o) => {
                out.push_str("pytest.");
                rest = &rest[o.len()..];
            }
            None => {
                let c = rest.chars().next().unwrap_or(' ');
                out.push(c);
                rest = &rest[c.len_utf8()..];
            }
        }
    }
    out
}

/// A conftest's lines that change how Python imports: a finder or a path hook put
/// in front of its own (`sys.meta_path`, `sys.path_hooks`) or `__import__`
/// replaced. Each import after it, the code under test's too, can be answered
/// with other code. Reading the lists is none.
fn import_hooks(text: &str) -> Vec<String> {
    const CHANGES: [&str; 6] = [".insert(", ".append(", ".extend(", "[", " = ", "+="];
    plain_lines(text)
        .into_iter()
        .filter(|l| {
            let hooks = ["sys.meta_path", "sys.path_hooks"].iter().any(|h| {
                l.split(h)
                    .skip(1)
                    .any(|after| CHANGES.iter().any(|c| after.starts_with(c)))
            });
            let import = l.contains("__import__ =") || l.contains("__import__=");
            hooks || import
        })
        .collect()
}

/// Whether a conftest block (its lines, dedented) is a `pytest_configure` that
/// does nothing but register markers (`config.addinivalue_line("markers",
/// "slow: …")`), as pytest's docs teach and most conftests do: no marker
/// deselects a test by being named. Read from Python's syntax tree: besides a
/// docstring or `pass`, each statement is such a call, a name bound to a list
/// of plain strings, or a loop over one whose body is such calls, each value a
/// plain string, the loop's name, or those joined by `+` (jinja's
/// `mark + ': test category'`). A value that runs code (an f-string's
/// interpolation, a call), another ini key, or any other statement keeps the
/// block a finding.
fn registers_markers_only(block: &str) -> bool {
    let Some(tree) = clean_tree(Grammar::Python, block) else {
        return false;
    };
    let root = tree.root_node();
    let mut walk = root.walk();
    let tops: Vec<_> = (root.named_children(&mut walk))
        .filter(|n| n.kind() != "comment")
        .collect();
    let [def] = tops[..] else {
        return false;
    };
    let text = |n: tree_sitter::Node<'_>| &block[n.byte_range()];
    if def.kind() != "function_definition"
        || def.child_by_field_name("name").map(text) != Some("pytest_configure")
    {
        return false;
    }
    let Some(params) = def.child_by_field_name("parameters") else {
        return false;
    };
    let mut walk = params.walk();
    let params: Vec<_> = params.named_children(&mut walk).collect();
    let config = match params[..] {
        [p] if p.kind() == "identifier" => text(p),
        [p] if p.kind() == "typed_parameter" => match p.named_child(0) {
            Some(n) if n.kind() == "identifier" => text(n),
            _ => return false,
        },
        _ => return false,
    };
    let Some(body) = def.child_by_field_name("body") else {
        return false;
    };
    let mut lists: HashSet<&str> = HashSet::new();
    marker_statements(body, block, config, &mut lists, &[])
}

/// Whether every statement of `block_node` is one [`registers_markers_only`]
/// allows, `lists` the names bound to lists of plain strings so far and
/// `names` the loops' names in scope.
fn marker_statements<'t>(
    block_node: tree_sitter::Node<'_>,
    src: &'t str,
    config: &str,
    lists: &mut HashSet<&'t str>,
    names: &[&str],
) -> bool {
    let text = |n: tree_sitter::Node<'_>| &src[n.byte_range()];
    let mut walk = block_node.walk();
    let statements: Vec<_> = block_node.named_children(&mut walk).collect();
    for s in statements {
        let ok = match s.kind() {
            "pass_statement" | "comment" => true,
            "expression_statement" => match s.named_child(0) {
                Some(e) if s.named_child_count() == 1 => match e.kind() {
                    "string" => plain(e),
                    "call" => registers(e, src, config, names),
                    "assignment" => {
                        let (Some(left), Some(right)) = (
                            e.child_by_field_name("left"),
                            e.child_by_field_name("right"),
                        ) else {
                            return false;
                        };
                        let ok = left.kind() == "identifier" && strings(right);
                        if ok {
                            lists.insert(text(left));
                        }
                        ok
                    }
                    _ => false,
                },
                _ => false,
            },
            "for_statement" => {
                let (Some(left), Some(right), Some(body)) = (
                    s.child_by_field_name("left"),
                    s.child_by_field_name("right"),
                    s.child_by_field_name("body"),
                ) else {
                    return false;
                };
                let over =
                    strings(right) || (right.kind() == "identifier" && lists.contains(text(right)));
                let mut inner = names.to_vec();
                inner.push(text(left));
                left.kind() == "identifier"
                    && over
                    && s.child_by_field_name("alternative").is_none()
                    && marker_statements(body, src, config, lists, &inner)
            }
            _ => false,
        };
        if !ok {
            return false;
        }
    }
    true
}

/// Whether `call` is `config.addinivalue_line("markers", value)`, the value a
/// plain string, one of the loops' `names`, or those joined by `+`.
fn registers(call: tree_sitter::Node<'_>, src: &str, config: &str, names: &[&str]) -> bool {
    let text = |n: tree_sitter::Node<'_>| &src[n.byte_range()];
    let Some(function) = call.child_by_field_name("function") else {
        return false;
    };
    let callee = function.kind() == "attribute"
        && function.child_by_field_name("object").map(text) == Some(config)
        && function.child_by_field_name("attribute").map(text) == Some("addinivalue_line");
    let Some(args) = call.child_by_field_name("arguments") else {
        return false;
    };
    let mut walk = args.walk();
    let args: Vec<_> = (args.named_children(&mut walk))
        .filter(|n| n.kind() != "comment")
        .collect();
    let [key, value] = args[..] else {
        return false;
    };
    let markers = plain(key)
        && matches!(
            text(key).trim_start_matches(['r', 'R', 'u', 'U']),
            "\"markers\"" | "'markers'"
        );
    callee && markers && marker_value(value, src, names)
}

/// A marker's text that runs no code: plain strings, the loops' `names`, and
/// those joined by `+` or written side by side.
fn marker_value(n: tree_sitter::Node<'_>, src: &str, names: &[&str]) -> bool {
    match n.kind() {
        "string" => plain(n),
        "identifier" => names.contains(&&src[n.byte_range()]),
        "concatenated_string" => {
            let mut walk = n.walk();
            let parts: Vec<_> = n.named_children(&mut walk).collect();
            parts.into_iter().all(plain)
        }
        "parenthesized_expression" => n
            .named_child(0)
            .is_some_and(|c| n.named_child_count() == 1 && marker_value(c, src, names)),
        "binary_operator" => {
            let op = n
                .child_by_field_name("operator")
                .map(|o| &src[o.byte_range()]);
            op == Some("+")
                && [
                    n.child_by_field_name("left"),
                    n.child_by_field_name("right"),
                ]
                .into_iter()
                .all(|c| c.is_some_and(|c| marker_value(c, src, names)))
        }
        _ => false,
    }
}

/// Whether `n` is a string with no interpolation (an f-string's `{…}` runs code).
fn plain(n: tree_sitter::Node<'_>) -> bool {
    let mut walk = n.walk();
    n.kind() == "string" && !n.children(&mut walk).any(|c| c.kind() == "interpolation")
}

/// Whether `n` is a list or tuple of plain strings only.
fn strings(n: tree_sitter::Node<'_>) -> bool {
    let mut walk = n.walk();
    matches!(n.kind(), "list" | "tuple")
        && (n.named_children(&mut walk))
            .filter(|c| c.kind() != "comment")
            .all(|c| {
                plain(c)
                    || (c.kind() == "concatenated_string" && {
                        let mut w = c.walk();
                        let parts: Vec<_> = c.named_children(&mut w).collect();
                        parts.into_iter().all(plain)
                    })
            })
}

/// A conftest line that ends pytest with a status of its own, now or at the end:
/// `os._exit(`, `sys.exit(`, `pytest.exit(`, a bare `_exit(`, `atexit.register(` of
/// an exit; or that reaches one by another name (`from os import _exit as q`,
/// `getattr(os, …)`, `exec(`, `eval(`, `__import__(`), which an honest conftest has
/// no need of. Not a comment (a `#` inside a string still counts), and not a name
/// that merely ends so (`s.wait_for_exit()`).
fn exits(line: &str) -> bool {
    if line.starts_with('#') {
        return false;
    }
    let bare = line.match_indices("_exit(").any(|(at, _)| {
        line[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !(c.is_alphanumeric() || c == '_' || c == '.'))
    });
    let later = line
        .split_once("atexit.register(")
        .is_some_and(|(_, args)| args.contains("exit"));
    const CALLS: [&str; 9] = [
        "os._exit(",
        "sys.exit(",
        "pytest.exit(",
        "import _exit",
        "getattr(os",
        "getattr(sys",
        "exec(",
        "eval(",
        "__import__(",
    ];
    bare || later || CALLS.iter().any(|e| line.contains(e))
}

/// The test scripts of a package.json (`test`, `pretest`, `posttest`, `test:*`),
/// each its name and command; none when the text is no JSON object with scripts.
fn test_scripts(text: &str) -> Option<Vec<(String, String)>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let scripts = value.get("scripts")?.as_object()?;
    Some(
        scripts
            .iter()
            .filter(|(k, _)| {
                k.as_str() == "test"
                    || k.as_str() == "pretest"
                    || k.as_str() == "posttest"
                    || k.starts_with("test:")
            })
            .map(|(k, v)| (k.clone(), v.as_str().unwrap_or("").to_string()))
            .collect(),
    )
}

/// Whether a command tells node's own runner to run only the tests marked
/// `only`: `--test-only`, or its isolation off (every file in one process, where
/// node reads `only` as the other runners do), as node's documentation says.
pub fn focuses_node_command(command: &str) -> bool {
    command.contains("--test-only")
        || command.contains("test-isolation=none")
        || command.contains("test-isolation none")
}

/// Whether any script of a package.json tells node's runner to focus
/// ([`focuses_node_command`]): any, as a verify may run one by another name
/// (`npm run ci`; helper 101).
pub fn focuses_node(json: &str) -> bool {
    let value: Option<serde_json::Value> = serde_json::from_str(json).ok();
    let scripts = value.as_ref().and_then(|v| v.get("scripts")?.as_object());
    (scripts.into_iter().flatten()).any(|(_, c)| c.as_str().is_some_and(focuses_node_command))
}

/// The test scripts of a package.json ([`test_scripts`]) that changed; a new
/// package.json only when its test script cannot fail.
fn package_json(before: Option<&str>, after: &str) -> Option<String> {
    // jest reads its configuration from package.json's `jest` key as well.
    let jest = |text: &str| -> Option<String> {
        let value: serde_json::Value = serde_json::from_str(text).ok()?;
        value.get("jest").map(|v| v.to_string())
    };
    // A new package.json (a new package) brings its own, which switches nothing off.
    let jest_now = jest(after);
    if let Some(before) = before
        && jest_now.is_some()
        && jest_now != jest(before)
    {
        let shown: String = jest_now.unwrap_or_default().chars().take(80).collect();
        return Some(format!(
            "jest's configuration in package.json changed ({shown})"
        ));
    }
    if let Some(before) = before
        && let Some(swapped) = new_entries(&replaced_packages(after), &replaced_packages(before))
    {
        return Some(format!(
            "a dependency the tests run with replaced ({swapped})"
        ));
    }
    let new = test_scripts(after).unwrap_or_default();
    let Some(before) = before else {
        let (key, value) = new.iter().find(|(_, v)| cannot_fail(v))?;
        return Some(format!(
            "a test script that cannot fail (\"{key}\" runs \"{value}\")"
        ));
    };
    let old = test_scripts(before).unwrap_or_default();
    for (key, value) in &old {
        match new.iter().find(|(k, _)| k == key) {
            None => return Some(format!("the \"{key}\" script was removed")),
            Some((_, now))
                if script_choosing(now) != script_choosing(value)
                    && !only_gains_paths(value, now)
                    && !folder_entries(value, now) =>
            {
                let now: String = now.chars().take(80).collect();
                return Some(format!("the \"{key}\" script changed to \"{now}\""));
            }
            _ => {}
        }
    }
    new.iter()
        .find(|(k, v)| !old.iter().any(|(o, _)| o == k) && (k == "pretest" || cannot_fail(v)))
        .map(|(k, v)| format!("a \"{k}\" script was added (\"{v}\")"))
}

/// package.json's entries that put a local copy ([`local_spec`]: `file:`, a path) in
/// a test library's place ([`test_library`]): an override (npm's `overrides`,
/// yarn's `resolutions`, `pnpm.overrides`) or a dependency, each as
/// `key name value`. `expect` overridden with `file:./fake-expect` installs a copy
/// whose matchers check nothing.
fn replaced_packages(text: &str) -> Vec<String> {
    let Ok(value) = serde_json::from_str::<serde_json::Value>(text) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let overrides = [
        ("overrides", value.get("overrides")),
        ("resolutions", value.get("resolutions")),
        (
            "pnpm.overrides",
            value.get("pnpm").and_then(|p| p.get("overrides")),
        ),
    ];
    for (key, map) in overrides {
        // A version pinned is a package published elsewhere, as any bump; one
        // taken from the repository's files is the cheap swap.
        if let Some(map) = map.and_then(|m| m.as_object()) {
            out.extend(
                map.iter()
                    .map(|(name, v)| (name, v.to_string()))
                    .filter(|(name, v)| {
                        test_library(name)
                            && (["file:", "link:", "portal:"].iter().any(|p| v.contains(p))
                                || ["\"./", "\"../", "\"/", "\"~/"]
                                    .iter()
                                    .any(|p| v.contains(p)))
                    })
                    .map(|(name, v)| format!("{key} {name} {v}")),
            );
        }
    }
    for key in [
        "dependencies",
        "devDependencies",
        "optionalDependencies",
        "peerDependencies",
    ] {
        if let Some(map) = value.get(key).and_then(|m| m.as_object()) {
            out.extend(
                map.iter()
                    .filter(|(name, v)| test_library(name) && v.as_str().is_some_and(local_spec))
                    .map(|(name, v)| format!("{key} {name} {v}")),
            );
        }
    }
    out
}

/// An npm version spec that installs from this machine's files: `file:`, `link:`,
/// `portal:`, a local git repository (`git+file:`), or a bare path, which npm reads
/// as `file:` (`./x`, `../x`, `~/x`, `/x`).
fn local_spec(spec: &str) -> bool {
    let spec = spec.trim_start();
    [
        "file:",
        "link:",
        "portal:",
        "git+file:",
        "./",
        "../",
        "~/",
        "/",
    ]
    .iter()
    .any(|p| spec.starts_with(p))
}

/// The first of `now`'s entries `then` lacks, cut short for a finding.
fn new_entries(now: &[String], then: &[String]) -> Option<String> {
    let first = now.iter().find(|e| !then.contains(e))?;
    Some(first.chars().take(80).collect())
}

/// JavaScript runners' options that choose nothing of what runs or whether a
/// failure fails the run, as [`REPORTING`] is pytest's: how much it says
/// (`--verbose`, `--colors`; not a reporter, which can be the repository's own
/// code that counts a failure as a pass), coverage and its cache
/// (`nyc --cache`), how many workers (`--runInBand`, `--maxWorkers=2`), and CI's
/// output (`--ci`). Not `--passWithNoTests`, `-t`, `--grep`, `--invert`,
/// `--testPathIgnorePatterns`: those choose. Short flags mean other things to
/// other runners (mocha's `-i` inverts `--grep`, jest's runs in band), so none.
const JS_REPORTING: [&str; 13] = [
    "--cache",
    "--no-cache",
    "--color",
    "--colors",
    "--no-color",
    "--no-colors",
    "--ci",
    "--coverage",
    "--verbose",
    "--silent",
    "--runInBand",
    "--maxWorkers",
    "--logHeapUsage",
];

/// Of [`JS_REPORTING`], those whose value can come as the next word.
const JS_TAKES_VALUE: [&str; 1] = ["--maxWorkers"];

/// A test script's words without the options that choose nothing, JavaScript's
/// ([`JS_REPORTING`]) and, where it runs pytest, pytest's ([`REPORTING`]), each
/// with its value: adding
/// `--cache` to `nyc` or `-v` to `pytest` changes no test that runs.
fn script_choosing(script: &str) -> Vec<String> {
    let words: Vec<&str> = script.split_whitespace().collect();
    // A shell's characters glued to an option make it a command of its own
    // (`--tb=short||true`): such a script is read word for word.
    if script.contains(['|', '&', ';', '<', '>', '$', '`', '(', ')']) {
        return words.iter().map(|w| w.to_string()).collect();
    }
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (name, inline) = match words[i].split_once('=') {
            Some((name, _)) => (name, true),
            None => (words[i], false),
        };
        // A word with a shell's characters is more than an option (`--ci=1||true`).
        let plain = |w: &str| {
            w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-_=.:,".contains(&b))
        };
        if !JS_REPORTING.contains(&name) || !plain(words[i]) {
            kept.push(words[i].to_string());
            i += 1;
            continue;
        }
        let valued = !inline && JS_TAKES_VALUE.contains(&name);
        i += match valued
            && words
                .get(i + 1)
                .is_some_and(|w| !w.starts_with('-') && plain(w))
        {
            true => 2,
            false => 1,
        };
    }
    // pytest's short options are other runners' other things: `jest -v` prints
    // its version and runs nothing.
    match kept
        .iter()
        .any(|w| w == "pytest" || w.ends_with("/pytest") || w == "py.test")
    {
        true => choosing_options(&kept),
        false => kept,
    }
}

/// Whether `now` is `then` with test files or globs added beside those it
/// lists (`tap test/*test.js` become `tap test/*test.js test/*/*test.js`): it
/// runs more, not less. Not where an option that leaves files out or chooses by
/// name (`--ignore`, `--testPathIgnorePatterns`, `--grep`) reads the list the
/// path joined, nor a negated glob (`!test/slow.js`).
fn only_gains_paths(then: &str, now: &str) -> bool {
    let (old, new): (Vec<&str>, Vec<&str>) = (
        then.split_whitespace().collect(),
        now.split_whitespace().collect(),
    );
    if new.len() <= old.len() {
        return false;
    }
    let path = |w: &str| {
        let w = w.trim_matches(['\'', '"']);
        (w.contains('/') || w.contains('*'))
            && !w.starts_with('-')
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/*._-{},@".contains(&b))
    };
    let leaves_out = |w: &str| {
        let w = w.to_ascii_lowercase();
        w.starts_with('-')
            && [
                "ignore", "exclude", "skip", "grep", "pattern", "filter", "invert", "deselect",
            ]
            .iter()
            .any(|k| w.contains(k))
    };
    let mut k = 0;
    // Which words of `new` are the old script's, in order.
    let mut kept = vec![false; new.len()];
    for (i, word) in new.iter().enumerate() {
        if old.get(k) == Some(word) {
            k += 1;
            kept[i] = true;
            continue;
        }
        if !path(word) {
            return false;
        }
        // Only after a path the runner was already given, in the same list: a
        // path first in a command is the program that runs (`/bin/true test/x
        // tap …`), and one put before the old file is the file a single-file
        // runner runs (`node lib/index.js test/index.js`).
        let Some(start) = new[..i].iter().rposition(|w| !path(w)) else {
            return false;
        };
        // The word after an option that may take one is its value, no path of
        // the runner's list: the new path put there is the value, and an old
        // one there is no list the new joined (helper 88's red team).
        let valued = takes_value(new[start]);
        if valued && i == start + 1 {
            return false;
        }
        let single = single_file(&new[..i]);
        let after_old = (start + 1 + usize::from(valued)..i).any(|j| kept[j]);
        let before_old = !single
            && new[i + 1..]
                .iter()
                .take_while(|w| path(w))
                .any(|w| old.contains(w));
        let separator =
            ["&&", "||", ";", "|", "&"].contains(&new[start]) || new[start].ends_with(';');
        if separator || !(after_old || before_old) || leaves_out(new[start]) {
            return false;
        }
    }
    k == old.len()
}

/// Whether `now` is `then` with folders given to node's runner (`node --test`)
/// or mocha as their entries (`specs/` become `specs/*`, `specs/**`): each file
/// there runs, as a file named is run whatever its name, and each folder among
/// them is read as the folder was. Not jest's or vitest's words, which are
/// patterns a path must match: `specs/*` matches fewer than `specs/`.
fn folder_entries(then: &str, now: &str) -> bool {
    let (old, new): (Vec<&str>, Vec<&str>) = (
        then.split_whitespace().collect(),
        now.split_whitespace().collect(),
    );
    if old.len() != new.len() || old == new {
        return false;
    }
    let plain = |w: &str| {
        !w.is_empty()
            && !w.starts_with('-')
            && w.bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"/._-@".contains(&b))
    };
    (0..new.len()).all(|i| {
        if old[i] == new[i] {
            return true;
        }
        let (was, is) = (
            old[i].trim_matches(['\'', '"']),
            new[i].trim_matches(['\'', '"']),
        );
        let folder = was.trim_end_matches('/');
        let entries = ["/*", "/**", "/**/*"]
            .iter()
            .any(|g| is.strip_prefix(folder) == Some(g));
        // A word with a suffix names a file, whose `/*` is nothing.
        let named_folder = was.ends_with('/') || !file_name(folder).contains('.');
        plain(folder) && named_folder && entries && reads_folders(&new[..i])
    })
}

/// Whether the command that `words` (a script up to a path it is given) ends in
/// is node's runner (`node --test`) or mocha, which read a folder given as the
/// files in it.
fn reads_folders(words: &[&str]) -> bool {
    let from = words
        .iter()
        .rposition(|w| ["&&", "||", ";", "|", "&"].contains(w) || w.ends_with(';'))
        .map_or(0, |k| k + 1);
    let command = &words[from..];
    let Some(at) = command.iter().position(|w| !w.contains('=')) else {
        return false;
    };
    match command[at].rsplit('/').next().unwrap_or(command[at]) {
        "node" => command.contains(&"--test"),
        "mocha" | "_mocha" => true,
        _ => false,
    }
}

/// Options of node and the JavaScript runners (mocha, jest, vitest, tap, ava,
/// node's test runner) that take the next word as their value. Only these own
/// it: a switch of no value (`--forbid-only`, `--forceExit`) is followed by the
/// runner's paths, and most options are such switches.
const VALUED: [&str; 40] = [
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "-c",
    "--config",
    "-R",
    "--reporter",
    "--reporter-option",
    "--reporter-options",
    "-g",
    "--grep",
    "-f",
    "--fgrep",
    "--ignore",
    "--exclude",
    "--spec",
    "--file",
    "--extension",
    "-t",
    "--timeout",
    "-s",
    "--slow",
    "-u",
    "--ui",
    "--testNamePattern",
    "--testPathPattern",
    "--testPathIgnorePatterns",
    "--setupFiles",
    "--rootDir",
    "--roots",
    "--project",
    "--selectProjects",
    "--env",
    "--environment",
    "--dir",
    "--root",
    "--test-name-pattern",
    "--test-reporter",
];

/// Whether a script's word is an option that takes the next word as its value
/// ([`VALUED`], not given with `=`).
fn takes_value(word: &str) -> bool {
    VALUED.contains(&word)
}

/// Whether the command that `words` (a script up to a path it is given) ends
/// in runs one file, the first path it is given, the rest that file's own
/// arguments: its program, the first word past the last separator and any
/// `NAME=value`, is node or a shell, and no `--test` (nor `bun test`) makes it
/// a runner of many.
fn single_file(words: &[&str]) -> bool {
    let from = words
        .iter()
        .rposition(|w| ["&&", "||", ";", "|", "&"].contains(w) || w.ends_with(';'))
        .map_or(0, |k| k + 1);
    let command = &words[from..];
    let Some(at) = command.iter().position(|w| !w.contains('=')) else {
        return false;
    };
    let program = command[at].rsplit('/').next().unwrap_or(command[at]);
    [
        "node", "ts-node", "tsx", "bun", "deno", "sh", "bash", "python", "python3",
    ]
    .contains(&program)
        && command.get(at + 1) != Some(&"test")
        && !command.contains(&"--test")
}

/// A command that checks nothing.
fn cannot_fail(command: &str) -> bool {
    let c = command.trim();
    matches!(c, "true" | "exit 0" | ":" | "")
        || c.starts_with("echo ")
        || c.ends_with("|| true")
        || c.ends_with("|| exit 0")
}

#[cfg(test)]
mod tests {
    /// [`super::finding_words`] of a file that stayed at its path.
    fn finding(path: &str, before: Option<&str>, after: &str) -> Option<String> {
        super::finding_words(path, before, after, false, &Default::default())
    }

    // Attack (red3): a new or changed `build.rs` that tells cargo to build the tests
    // another way (`cargo:rustc-cfg=…` turning a test module's cfg off,
    // `cargo:rustc-link-arg-tests=…`, `cargo:rustc-env=…`) was no runner file, and
    // no finding before. One that only asks to rerun is none; neither is a module of
    // the code named `build.rs`.
    #[test]
    fn a_build_script_that_changes_how_tests_build_is_a_finding() {
        for text in [
            "fn main() {\n    println!(\"cargo:rustc-cfg=calc_fast\");\n}\n",
            "fn main() {\n    println!(\"cargo::rustc-link-arg-tests=-nostartfiles\");\n}\n",
            "fn main() {\n    println!(\"cargo:rustc-env=CALC_SKIP=1\");\n}\n",
            "fn main() {\n    std::fs::write(\"tests/calc.rs\", \"\").unwrap();\n}\n",
        ] {
            let found = finding("build.rs", None, text).unwrap_or_default();
            assert!(found.contains("by a build script"), "{text}: {found}");
            assert!(finding("calc/build.rs", None, text).is_some(), "{text}");
            assert_eq!(finding("src/build.rs", None, text), None, "{text}");
        }
        // What honest build scripts print and do: none changes how a test builds.
        for honest in [
            "fn main() {\n    println!(\"cargo:rerun-if-changed=build.rs\");\n}\n",
            "fn main() {\n    println!(\"cargo::rustc-check-cfg=cfg(fast)\");\n}\n",
            "fn main() {\n    println!(\"cargo:rustc-link-lib=z\");\n}\n",
            "fn main() {\n    let v = Command::new(\"git\").output();\n}\n",
            "fn main() {\n    fs::write(out_dir.join(\"gen.rs\"), code).unwrap();\n}\n",
        ] {
            assert_eq!(finding("build.rs", None, honest), None, "{honest}");
        }
        let cfg = "fn main() {\n    println!(\"cargo:rustc-cfg=calc_fast\");\n}\n";
        assert_eq!(finding("build.rs", Some(cfg), cfg), None);
        assert!(
            finding(
                "Cargo.toml",
                Some("[package]\nname = \"calc\"\n"),
                "[package]\nname = \"calc\"\nbuild = \"tools/b.rs\"\n"
            )
            .is_some()
        );
    }

    /// The honest side of the spellings and shadows the red team found: settings
    /// pytest does not choose tests by, a folder that is no package, an example's
    /// feature, a conftest that only adds a fixture.
    #[test]
    fn what_does_not_switch_tests_off_is_no_finding() {
        let none = [
            (
                "pyproject.toml",
                "[tool.pytest.ini_options]\nmarkers = [\"slow\"]\n",
            ),
            ("pyproject.toml", "[tool]\npoetry.name = \"calc\"\n"),
            (
                "pyproject.toml",
                "[tool.ruff]\nlint = { select = [\"E\"] }\n",
            ),
            ("packaging/build.py", "print('deb')\n"),
            ("src/pluggy.py", "import os\n"),
            (
                "Cargo.toml",
                "[[example]]\nname = \"demo\"\nrequired-features = [\"cli\"]\n",
            ),
            (
                "conftest.py",
                "import pytest\n\n@pytest.fixture\ndef calc():\n    return 1\n",
            ),
            (
                "conftest.py",
                "import atexit, shutil\n# never os._exit( here\natexit.register(shutil.rmtree, TMP, True)\n\n@pytest.fixture\ndef server(s):\n    yield s\n    s.wait_for_exit()\n",
            ),
            // Markers registered, as pytest's docs show it and black lays it out.
            (
                "conftest.py",
                "def pytest_configure(config):\n    config.addinivalue_line(\"markers\", \"slow: takes a while\")\n",
            ),
            (
                "tests/conftest.py",
                "import pytest\n\n\ndef pytest_configure(config: pytest.Config) -> None:\n    \"\"\"Our markers.\"\"\"\n    config.addinivalue_line(\n        \"markers\",\n        \"network: needs a network (deselect with '-m \\\"not network\\\"')\",\n    )\n    config.addinivalue_line(\"markers\", 'db: uses the database'\n                            ' (slow)')\n",
            ),
            // jinja `12307960`: a list of marker names registered in a loop.
            (
                "tests/conftest.py",
                "def pytest_configure(config):\n    '''Register custom marks for test categories.'''\n    custom_markers = [\n        'api',\n        'filesystemloader',  # new\n    ]\n    for mark in custom_markers:\n        config.addinivalue_line('markers', mark + ': test category')\n",
            ),
            (
                "conftest.py",
                "class Plugin:\n    def pytest_configure(self_config):\n        self_config.addinivalue_line(\"markers\", (\"a\" \"b\"))\n",
            ),
        ];
        for (path, text) in none {
            assert_eq!(finding(path, None, text), None, "{path}: {text}");
        }
        // A loop or a list that does more than name markers is read as before.
        for text in [
            "def pytest_configure(config):\n    marks = ['slow', run()]\n    for m in marks:\n        config.addinivalue_line('markers', m)\n",
            "def pytest_configure(config):\n    marks = ['slow']\n    for m in marks:\n        config.addinivalue_line('markers', m)\n        config.option.markexpr = m\n",
            "def pytest_configure(config):\n    for m in ['slow']:\n        config.addinivalue_line('markers', m)\n    else:\n        config.option.keyword = 'x'\n",
            "def pytest_configure(config):\n    marks = ['slow']\n    marks.append('x')\n    for m in marks:\n        config.addinivalue_line('markers', m)\n",
            "def pytest_configure(config):\n    for m in other.marks:\n        config.addinivalue_line('markers', m)\n",
            "def pytest_configure(config):\n    for m in ['slow']:\n        config.addinivalue_line('markers', m.upper())\n",
            "def pytest_configure(config):\n    for m in ['slow']:\n        config.addinivalue_line(m, 'x')\n",
        ] {
            assert!(finding("conftest.py", None, text).is_some(), "{text}");
        }
        // Beside the markers, anything else it does is read as before.
        let markers = "def pytest_configure(config):\n    config.addinivalue_line(\"markers\", \"slow: x\")\n";
        for also in [
            "    config.option.markexpr = \"not slow\"\n",
            "    config.addinivalue_line(\"markers\", f\"{__import__('os')._exit(0)}\")\n",
            "    config.addinivalue_line(\"markers\", \"x\"); config.option.keyword = \"nothing\"\n",
            "    config.addinivalue_line(\"filterwarnings\", \"ignore\")\n",
            "    config.pluginmanager.register(Skipper())\n",
        ] {
            let text = format!("{markers}{also}");
            assert!(finding("conftest.py", None, &text).is_some(), "{text}");
        }
        // A decorator registers what it returns in the hook's place (the review's).
        let decorated = format!(
            "@(lambda hook: lambda config: setattr(config.option, \"keyword\", \"x\"))\n{markers}"
        );
        assert!(finding("conftest.py", None, &decorated).is_some());
        assert_eq!(
            finding(
                "pyproject.toml",
                Some("[tool.pytest.ini_options]\nminversion = \"7\"\n"),
                "[tool.pytest.ini_options]\nminversion = \"7\"\n\"addopts\" = \"-x -k fast\"\n"
            ),
            Some(
                "pytest's options changed (`[tool.pytest.ini_options] addopts = \"-k fast\"`)"
                    .to_string()
            )
        );
    }

    /// Helper 77's tune half of a fresh set (pydantic/pydantic cc059e511e38): a
    /// `.cargo/config.toml` whose rustflags only lost `-A incomplete_features` (a
    /// lint allowance removed, the build stricter) was `runner-changed`, high.
    /// Allowances removed and deny or warn lints added choose no test; a `--cfg`
    /// added or removed, another flag, or a comment that could hide one, still do.
    #[test]
    fn rustflags_only_made_stricter_are_no_finding() {
        let config = |build: &str, mac: &str| {
            format!(
                "[build]\nrustflags = [{build}]\n\n[target.aarch64-apple-darwin]\nrustflags = [\n  \"-C\", \"link-arg=-undefined\",\n{mac}]\n"
            )
        };
        let before = config(
            "\n  \"-A\", \"incomplete_features\",\n",
            "  \"-A\", \"incomplete_features\",\n",
        );
        let path = ".cargo/config.toml";
        for after in [
            config("", ""),
            config("\"-D\", \"warnings\"", ""),
            config(
                "\"-Aincomplete_features\", \"--deny=unused\"",
                "  \"-W\", \"dead_code\",\n",
            ),
        ] {
            assert_eq!(finding(path, Some(&before), &after), None, "{after}");
        }
        let string = "[build]\nrustflags = \"-A incomplete_features -W x\"\n";
        assert_eq!(
            finding(path, Some(string), "[build]\nrustflags = \"-W x\"\n"),
            None
        );
        for after in [
            config("\"--cfg\", \"skip_slow\"", ""),
            config("\"-Ctarget-cpu=native\"", ""),
            config("", "  \"--cfg\", \"fast\",\n"),
            config(
                "",
                "  \"-A\", \"incomplete_features\", \"-C\", \"link-arg=-nostartfiles\",\n",
            ),
            config("# \"-A\", \"incomplete_features\"\n\"--cfg\", \"x\"", ""),
        ] {
            assert!(finding(path, Some(&before), &after).is_some(), "{after}");
        }
        // A `--cfg` taken out is a change too, though the line only lost words.
        let cfg = "[build]\nrustflags = [\"--cfg\", \"full\", \"-A\", \"x\"]\n";
        assert!(finding(path, Some(cfg), "[build]\nrustflags = [\"-A\", \"x\"]\n").is_some());
        // A key new where none was replaces the flags cargo took from elsewhere.
        let target = "[build]\nrustflags = [\"--cfg\", \"full\"]\n[target.x86_64-unknown-linux-gnu]\nrustflags = [\"-D\", \"warnings\"]\n";
        assert!(
            finding(
                path,
                Some("[build]\nrustflags = [\"--cfg\", \"full\"]\n"),
                target
            )
            .is_some()
        );
    }

    /// Helper 77's tune half of a fresh set (pallets/flask 491d331e6e0a): a tox
    /// env that runs others (`tox -e coverage-report`) given one more to run
    /// (`tox -e docs-html,coverage-report`) was `runner-changed`, high: more runs,
    /// none fewer. An env taken out of such a list, or a pytest command given
    /// options that choose tests, still is.
    #[test]
    fn a_tox_env_list_only_growing_is_no_finding() {
        let tox = |run: &str, test: &str| {
            format!(
                "[testenv]\ncommands =\n    pip install -e examples/app -q\n    {test}\n\n[testenv:detox]\ncommands =\n    detox -e py{{36,27}},py36-devel\n    {run}\n"
            )
        };
        let pytest = "coverage run -p -m pytest tests examples";
        let before = tox("tox -e coverage-report", pytest);
        for run in [
            "tox -e docs-html,coverage-report",
            "tox -e coverage-report,docs-html,docs-linkcheck",
        ] {
            assert_eq!(
                finding("tox.ini", Some(&before), &tox(run, pytest)),
                None,
                "{run}"
            );
        }
        for (run, test) in [
            ("tox -e docs-html", pytest),
            ("tox -e docs-html,coverage-report -x", pytest),
            (
                "tox -e docs-html,coverage-report",
                "coverage run -p -m pytest tests -k 'not slow'",
            ),
            (
                "tox -e coverage-report",
                "coverage run -p -m pytest tests examples --deselect tests/test_a.py",
            ),
            (
                "tox -e docs-html,coverage-report",
                "coverage run -p -m pytest -m 'not slow' tests examples",
            ),
        ] {
            assert!(
                finding("tox.ini", Some(&before), &tox(run, test)).is_some(),
                "{run} {test}"
            );
        }
    }

    /// A fresh set's tune half (marshmallow deaff064794e): a tox env whose lint
    /// line changed (`flake8 marshmallow` to `flake8 .`) beside its test line
    /// was `runner-changed`, high, read as pytest's options. A line whose tool
    /// runs no test (a linter, a formatter, `coverage erase`) chooses
    /// none; a test line changed, a tool that is no linter, or a lint tool given
    /// the test run (`flake8 && pytest -k x`) still is one.
    /// A fresh set's tune half (marshmallow 937141da): pre-commit's diff shown
    /// or not on failure runs the same hooks on the same files.
    #[test]
    fn pre_commits_reporting_options_are_no_finding() {
        let tox = |line: &str| format!("[testenv:lint]\ndeps = pre-commit\ncommands = {line}\n");
        let before = tox("pre-commit run --all-files --show-diff-on-failure");
        for honest in [
            "pre-commit run --all-files",
            "pre-commit run --all-files --color=always -v",
        ] {
            assert_eq!(
                finding("tox.ini", Some(&before), &tox(honest)),
                None,
                "{honest}"
            );
        }
        for chooses in [
            "pre-commit run",
            "pre-commit run --all-files --hook-stage manual",
        ] {
            assert!(
                finding("tox.ini", Some(&before), &tox(chooses)).is_some(),
                "{chooses}"
            );
        }
    }

    #[test]
    fn a_tox_lint_line_changed_is_no_finding() {
        let tox = |lint: &str, test: &str| {
            format!("[testenv]\ndeps = pytest\ncommands =\n    {lint}\n    {test}\n")
        };
        let test = "{envpython} -m pytest tests";
        let before = tox("flake8 marshmallow", test);
        for lint in [
            "flake8 .",
            "{envbindir}/flake8 src tests",
            "mypy src tests",
            "coverage erase",
        ] {
            assert_eq!(
                finding("tox.ini", Some(&before), &tox(lint, test)),
                None,
                "{lint}"
            );
        }
        for (lint, test) in [
            ("flake8 .", "{envpython} -m pytest tests -k 'not slow'"),
            ("flake8 .", "{envpython} -m pytest tests/unit"),
            ("./fake-runner.sh", test),
            ("flake8 . && pytest -k fast", test),
            ("python -c 'import sys; sys.exit(0)'", test),
            // An install can bring a plugin that changes what runs.
            ("pip install pytest-nopass", test),
            // Helper 94's review: tox joins a line ending in `\`, so pytest
            // becomes flake8's argument; a script named like a tool; hooks.
            ("flake8 --exit-zero src \\", test),
            ("{toxinidir}/tools/flake8 src", test),
            ("pre-commit run lint-deps --all-files", test),
            ("sphinx-build -b html docs out", test),
        ] {
            assert!(
                finding("tox.ini", Some(&before), &tox(lint, test)).is_some(),
                "{lint} {test}"
            );
        }
    }

    // Honest work: `xfail_strict = true` (and `filterwarnings = error` beside it)
    // makes a run stricter; setting it false is a change.
    #[test]
    fn a_strict_xfail_added_is_no_finding_and_a_lax_one_is() {
        let before = "[tool.pytest.ini_options]\nminversion = \"7\"\n";
        let strict = "[tool.pytest.ini_options]\nminversion = \"7\"\nxfail_strict = true\nfilterwarnings = [\"error\"]\n";
        assert_eq!(finding("pyproject.toml", Some(before), strict), None);
        let lax = strict.replace("xfail_strict = true", "xfail_strict = false");
        assert!(finding("pyproject.toml", Some(strict), &lax).is_some());
        let ini = "[pytest]\naddopts = -v\n";
        let ini_strict = "[pytest]\naddopts = -v\nxfail_strict = True\n";
        assert_eq!(finding("pytest.ini", Some(ini), ini_strict), None);
        let ini_lax = ini_strict.replace("True", "false");
        assert!(finding("pytest.ini", Some(ini_strict), &ini_lax).is_some());
    }

    // Honest work (issue 68): options that only change what pytest reports or how
    // fast it runs (`-v`, `--durations=10`, `-n auto`) were `runner-changed`, high,
    // the same as `-k "not slow"`. Options that choose what runs still are.
    #[test]
    fn pytest_options_that_only_report_are_no_finding_and_those_that_choose_are() {
        type Wrap = fn(&str) -> String;
        let files: [(&str, Wrap); 5] = [
            ("pytest.ini", |o| format!("[pytest]\naddopts = {o}\n")),
            ("setup.cfg", |o| format!("[tool:pytest]\naddopts = {o}\n")),
            ("tox.ini", |o| format!("[pytest]\naddopts =\n    {o}\n")),
            ("pyproject.toml", |o| {
                format!("[tool.pytest.ini_options]\naddopts = \"{o}\"\n")
            }),
            ("pyproject.toml", |o| {
                let items: Vec<String> = o.split(' ').map(|w| format!("\"{w}\"")).collect();
                format!(
                    "[tool.pytest.ini_options]\naddopts = [{}]\n",
                    items.join(", ")
                )
            }),
        ];
        let reporting = [
            "-v",
            "-vv",
            "-q",
            "-ra",
            "-rfE",
            "--durations=10",
            "--durations 10",
            "-n auto",
            "-nauto",
            "--numprocesses=auto",
            "--numprocesses auto",
            "--dist loadscope",
            "--color=yes",
            "--tb=short",
            "--tb short",
            "--junitxml=out.xml",
            "--cov=calc --cov-report=term-missing",
            "-x",
            "--maxfail=2",
            "--strict-markers",
        ];
        let choosing = [
            "-k not_slow",
            "--deselect tests/test_a.py::test_b",
            "-m not_slow",
            "--ignore=tests/slow",
            "--ignore tests/slow",
            "--ignore-glob=*slow*",
            "-p no:randomly",
            "-p myplugin",
            "--lf",
            "--co",
            "tests/test_a.py",
            "-v -k not_slow",
            "-vk not_slow",
        ];
        for (file, wrap) in files {
            let before = wrap("--strict-markers");
            for opt in reporting {
                let after = wrap(&format!("--strict-markers {opt}"));
                assert_eq!(
                    finding(file, Some(&before), &after),
                    None,
                    "{file}: {after}"
                );
            }
            for opt in choosing {
                let after = wrap(&format!("--strict-markers {opt}"));
                assert!(
                    finding(file, Some(&before), &after).is_some(),
                    "{file}: {after}"
                );
            }
            // A first `addopts` that only reports is none either.
            assert_eq!(
                finding(file, None, &wrap("-v --durations=10")),
                None,
                "{file}"
            );
            assert!(
                finding(file, None, &wrap("-v -m not_slow")).is_some(),
                "{file}"
            );
        }
        // tox runs pytest with its own options too.
        let tox = |args: &str| format!("[testenv]\ndeps = pytest\ncommands = pytest {args}\n");
        let before = tox("{posargs}");
        for args in ["-v --durations=10 {posargs}", "-n auto -ra {posargs}"] {
            assert_eq!(
                finding("tox.ini", Some(&before), &tox(args)),
                None,
                "{args}"
            );
        }
        for args in [
            "-k fast {posargs}",
            "-v tests/unit",
            "-p no:randomly {posargs}",
        ] {
            assert!(
                finding("tox.ini", Some(&before), &tox(args)).is_some(),
                "{args}"
            );
        }
        // A benchmark run (`--codspeed`, `--benchmark-only`) runs no test of
        // the suite before or after: what it selects chooses no test (attrs'
        // codspeed env pointed at its own benchmarks). Turning one on where the
        // suite ran deselects it.
        let bench = |env: &str, args: &str| format!("[testenv:{env}]\ncommands = pytest {args}\n");
        for (was, now) in [
            (
                "--codspeed -n auto",
                "--codspeed -n auto bench/test_benchmarks.py",
            ),
            ("--benchmark-only tests", "--benchmark-only tests/bench"),
        ] {
            assert_eq!(
                finding("tox.ini", Some(&bench("perf", was)), &bench("perf", now)),
                None,
                "{now}"
            );
        }
        for (was, now) in [
            ("{posargs}", "--codspeed {posargs}"),
            ("tests", "--benchmark-only tests"),
        ] {
            assert!(
                finding("tox.ini", Some(&bench("py", was)), &bench("py", now)).is_some(),
                "{now}"
            );
        }
        // `testpaths` narrowed chooses what runs.
        assert!(
            finding(
                "pytest.ini",
                Some("[pytest]\ntestpaths = tests\n"),
                "[pytest]\ntestpaths = tests/unit\n"
            )
            .is_some()
        );
    }

    // Honest work (issue 68): prettier's trailing commas, semicolons and quotes in
    // a runner's configuration were `runner-changed`, high.
    #[test]
    fn a_formatter_s_commas_and_quotes_in_a_js_runner_config_are_no_finding() {
        let vitest_before = "import { defineConfig } from 'vitest/config'\n\nexport default defineConfig({\n  test: {\n    environment: 'node',\n    testTimeout: 1000\n  }\n})\n";
        let vitest_after = "import { defineConfig } from \"vitest/config\";\n\nexport default defineConfig({\n  test: {\n    environment: \"node\",\n    testTimeout: 1000,\n  },\n});\n";
        let jest_before =
            "module.exports = {\n  testEnvironment: 'node',\n  roots: ['<rootDir>/src']\n}\n";
        let jest_after =
            "module.exports = {\n  testEnvironment: \"node\",\n  roots: [\"<rootDir>/src\"],\n};\n";
        let joined =
            "module.exports = { testEnvironment: \"node\", roots: [\"<rootDir>/src\"] };\n";
        for (path, before, after) in [
            ("vitest.config.ts", vitest_before, vitest_after),
            ("vite.config.ts", vitest_before, vitest_after),
            ("jest.config.js", jest_before, jest_after),
            ("jest.config.js", jest_before, joined),
        ] {
            assert_eq!(finding(path, Some(before), after), None, "{path}: {after}");
        }
        // Reporters and coverage on one line report; they choose nothing.
        for line in [
            "reporters: [\"verbose\"],",
            "verbose: true,",
            "coverage: { provider: \"v8\", reporter: [\"text\"] },",
        ] {
            let after = vitest_after.replace(
                "testTimeout: 1000,",
                &format!("testTimeout: 1000,\n    {line}"),
            );
            assert_eq!(
                finding("vitest.config.ts", Some(vitest_before), &after),
                None,
                "{line}"
            );
        }
        // Coverage over many lines reports too, unless it loads a provider of
        // the repository's own; a fixture's configuration is a test's data.
        let covered = vitest_after.replace(
            "testTimeout: 1000,",
            "testTimeout: 1000,\n    coverage: {\n      include: ['**/src/**'],\n      exclude: [\n        '**/www/**',\n      ],\n    },",
        );
        let excluded = covered.replace("'**/www/**',", "'**/www/**',\n        '**/coverage/**',");
        assert_eq!(finding("vitest.config.ts", Some(&covered), &excluded), None);
        let provider = covered.replace(
            "include: ['**/src/**'],",
            "customProviderModule: './fake-coverage.js',\n      include: ['**/src/**'],",
        );
        assert!(finding("vitest.config.ts", Some(&covered), &provider).is_some());
        let narrowed_fixture =
            vitest_after.replace("testTimeout: 1000,", "include: [\"src/none/**\"],");
        assert_eq!(
            finding(
                "test/fixtures/browser/vitest.config.ts",
                Some(vitest_before),
                &narrowed_fixture
            ),
            None
        );
        // One of the repository's own is code the runner loads.
        let own = vitest_after.replace(
            "testTimeout: 1000,",
            "testTimeout: 1000,\n    reporters: [\"./quiet-reporter.js\"],",
        );
        assert!(finding("vitest.config.ts", Some(vitest_before), &own).is_some());
        // What a formatter does not do is still read.
        let narrowed = vitest_after.replace("testTimeout: 1000,", "include: [\"src/none/**\"],");
        assert!(finding("vitest.config.ts", Some(vitest_before), &narrowed).is_some());
        let rooted = jest_after.replace("<rootDir>/src", "<rootDir>/none");
        assert!(finding("jest.config.js", Some(jest_before), &rooted).is_some());
    }

    // Attack (helper 44, stop 80): a brace in a comment or a string inside a
    // `coverage` or `test` block was counted by the hand brace reader, so the
    // block "ran" to the end of the file and what came after it was never
    // compared: `include` narrowed below it drew nothing.
    #[test]
    fn a_brace_in_a_comment_does_not_hide_the_rest_of_a_runner_config() {
        let before = "export default defineConfig({\n  test: {\n    coverage: { /* { */ },\n    include: ['src/**/*.test.ts'],\n  },\n});\n";
        let narrowed = before.replace("src/**/*.test.ts", "src/none/*.test.ts");
        assert!(finding("vitest.config.ts", Some(before), &narrowed).is_some());
        let strung = before.replace("/* { */", "reporter: ['{'], // }");
        let narrowed = strung.replace("src/**/*.test.ts", "src/none/*.test.ts");
        assert!(finding("vitest.config.ts", Some(&strung), &narrowed).is_some());
        // Helper 47's review: a `test` block typed `as any` or `satisfies T`
        // was no object, so none of its lines was compared.
        for typed in [" as any,", " satisfies object,", "!,"] {
            let vite =
                "export default {\n  test: {\n    include: ['src/**/*.test.ts'],\n  }TYPED\n};\n"
                    .replace("TYPED", typed);
            let narrowed = vite.replace("src/**/*.test.ts", "src/none/*.test.ts");
            assert!(
                finding("vite.config.ts", Some(&vite), &narrowed).is_some(),
                "{typed}"
            );
        }
        let called = "export default {\n  build: { outDir: 'dist' },\n  test: base({\n    include: ['src/**/*.test.ts'],\n  }),\n};\n";
        let narrowed = called.replace("src/**/*.test.ts", "src/none/*.test.ts");
        assert!(finding("vite.config.ts", Some(called), &narrowed).is_some());
        // A vite config's `test` block, with a brace in a comment before the key
        // it narrows.
        let vite = "export default {\n  build: { outDir: 'dist' },\n  test: {\n    // a { here\n    include: ['src/**/*.test.ts'],\n  },\n};\n";
        let narrowed = vite.replace("src/**/*.test.ts", "src/none/*.test.ts");
        assert!(finding("vite.config.ts", Some(vite), &narrowed).is_some());
        // Honest: the coverage block's own lines, comments and all, still report.
        let widened = before.replace("/* { */", "/* { */ include: ['src/**'], exclude: ['x'] ");
        assert_eq!(finding("vitest.config.ts", Some(before), &widened), None);
        // A JSON config is read as one: its coverage block reports there too.
        let json = "{\n  \"coverage\": { \"include\": [\"a\"] },\n  \"testMatch\": [\"**/*.test.js\"]\n}\n";
        let covered = json.replace("[\"a\"]", "[\"a\", \"b\"]");
        assert_eq!(finding("jest.config.json", Some(json), &covered), None);
        let narrowed = json.replace("**/*.test.js", "none/*.test.js");
        assert!(finding("jest.config.json", Some(json), &narrowed).is_some());
    }

    // Honest work (axios, in the tuning half's unlabelled sample): karma's
    // `frameworks` gaining `sinon` for a new test loads a package; every test
    // still runs and fails as it did. A framework taken away, swapped, or one of
    // the repository's own files is still read.
    #[test]
    fn a_runner_s_framework_list_only_gaining_a_package_is_no_finding() {
        let before = "module.exports = function (config) {\n  config.set({\n    frameworks: ['jasmine-ajax', 'jasmine'],\n    files: ['test/specs/**/*.spec.js'],\n  })\n}\n";
        let gained = before.replace("'jasmine'],", "'jasmine', 'sinon'],");
        assert_eq!(finding("karma.conf.js", Some(before), &gained), None);
        for after in [
            before.replace("['jasmine-ajax', 'jasmine']", "['jasmine-ajax']"),
            before.replace("'jasmine'],", "'mocha'],"),
            before.replace("'jasmine'],", "'jasmine', './skip-all.js'],"),
            before.replace("'test/specs/**/*.spec.js'", "'test/specs/none/*.spec.js'"),
        ] {
            assert!(
                finding("karma.conf.js", Some(before), &after).is_some(),
                "{after}"
            );
        }
    }

    // Honest work: the kind and number of workers (`pool`, `poolOptions`,
    // `singleFork`) run every test the same; a key inside their blocks that is not
    // one of them (`execArgv`) is read on its own.
    #[test]
    fn a_js_runner_s_workers_switched_are_no_finding() {
        let before = "export default defineConfig({\n  test: {\n    poolOptions: {\n      threads: {\n        singleThread: true,\n      },\n    },\n  },\n})\n";
        let after = before
            .replace("threads: {", "forks: {")
            .replace("singleThread: true", "singleFork: true");
        assert_eq!(finding("vitest.config.ts", Some(before), &after), None);
        let pooled = after.replace(
            "poolOptions: {",
            "pool: \"forks\",\n    maxWorkers: 2,\n    poolOptions: {",
        );
        assert_eq!(finding("vitest.config.ts", Some(before), &pooled), None);
        let loaded = after.replace(
            "singleFork: true,",
            "singleFork: true,\n        execArgv: [\"--require\", \"./pass.js\"],",
        );
        assert!(finding("vitest.config.ts", Some(before), &loaded).is_some());
        let own = after.replace("singleFork: true,", "singleFork: require(\"./pass.js\"),");
        assert!(finding("vitest.config.ts", Some(before), &own).is_some());
    }

    #[test]
    fn a_new_makefile_make_reads_first_is_a_finding_and_an_edited_one_is_not() {
        let check = "check:\n\ttrue\n";
        for name in ["GNUmakefile", "sub/makefile"] {
            let found = finding(name, None, check).unwrap();
            assert!(
                found.contains("which make reads before Makefile"),
                "{found}"
            );
            assert_eq!(finding(name, Some("check:\n\tmake test\n"), check), None);
        }
        assert_eq!(finding("Makefile", None, check), None);
    }

    #[test]
    fn a_test_script_gaining_options_that_choose_nothing_is_no_finding() {
        let script = |test: &str| format!("{{\"scripts\": {{\"test\": \"{test}\"}}}}");
        let was = script("nyc ./node_modules/.bin/_mocha --timeout=4000 --check-leaks");
        for now in [
            "nyc --cache ./node_modules/.bin/_mocha --timeout=4000 --check-leaks",
            "nyc --colors ./node_modules/.bin/_mocha --timeout=4000 --check-leaks",
        ] {
            assert_eq!(
                finding("package.json", Some(&was), &script(now)),
                None,
                "{now}"
            );
        }
        let jest = script("jest");
        for now in [
            "jest --ci --coverage --maxWorkers=2",
            "jest --runInBand --verbose",
        ] {
            assert_eq!(
                finding("package.json", Some(&jest), &script(now)),
                None,
                "{now}"
            );
        }
        // Options that choose what runs stay a finding, beside inert ones.
        for now in [
            "nyc --cache ./node_modules/.bin/_mocha --grep fast --check-leaks",
            "nyc ./node_modules/.bin/_mocha -i --timeout=4000 --check-leaks",
        ] {
            assert!(
                finding("package.json", Some(&was), &script(now)).is_some(),
                "{now}"
            );
        }
        // A reporter can be the repository's own code; a shell's characters glued
        // to an inert option are a command of their own.
        for now in [
            "nyc ./node_modules/.bin/_mocha --reporter ./reporter.js --timeout=4000 --check-leaks",
            "nyc --cache=1||true ./node_modules/.bin/_mocha --timeout=4000 --check-leaks",
        ] {
            assert!(
                finding("package.json", Some(&was), &script(now)).is_some(),
                "{now}"
            );
        }
        for now in [
            "jest --ci --passWithNoTests",
            "jest --coverage -t fast",
            "jest -v",
            "jest --ci=1||true",
            "jest --colors=1&",
            "jest --maxWorkers 2;true",
        ] {
            assert!(
                finding("package.json", Some(&jest), &script(now)).is_some(),
                "{now}"
            );
        }
        let pytest = script("python -m pytest tests");
        let now = script("python -m pytest -v --durations=10 tests");
        assert_eq!(finding("package.json", Some(&pytest), &now), None);
        let now = script("python -m pytest -k fast tests");
        assert!(finding("package.json", Some(&pytest), &now).is_some());
        let now = script("python -m pytest --tb=short||true tests");
        assert!(finding("package.json", Some(&pytest), &now).is_some());
    }

    // Fresh JS/TS set (pino 98af5e7): a test script whose file globs only gained
    // one (`test/*/*test.js` beside `test/*test.js`) runs more tests, and was
    // `runner-changed`, high. A glob narrowed or dropped, a name filter added, or
    // a path added where an option that leaves files out reads it, stays one.
    #[test]
    fn a_test_script_whose_paths_only_grow_is_no_finding() {
        let script = |test: &str| format!("{{\"scripts\": {{\"test\": \"{test}\"}}}}");
        let was = script("lint && tap --100 test/*test.js");
        for now in [
            "lint && tap --100 test/*test.js test/*/*test.js",
            "lint && tap --100 test/unit.js test/*test.js",
            "lint && tap --100 test/*test.js 'test/**/*.spec.js'",
        ] {
            assert_eq!(
                finding("package.json", Some(&was), &script(now)),
                None,
                "{now}"
            );
        }
        for now in [
            "lint && tap --100 test/unit/*test.js",
            "lint && tap --100",
            "lint && tap --100 test/*test.js --grep fast",
            "lint && tap --100 -t fast test/*test.js",
            "lint && tap --100 --ignore test/*/*test.js test/*test.js",
            "lint && tap --100 test/*test.js '!test/slow*.js'",
            "lint && tap --100 test/*test.js || true",
            // Helper 84: a path first in a command is the program that runs, and
            // one put before a single-file runner's file is the file it runs.
            "lint && /bin/true test/x tap --100 test/*test.js",
            "lint && /bin/true test/*test.js tap --100 test/*test.js",
        ] {
            assert!(
                finding("package.json", Some(&was), &script(now)).is_some(),
                "{now}"
            );
        }
        let node = script("node test/index.js");
        let now = script("node lib/index.js test/index.js");
        assert!(finding("package.json", Some(&node), &now).is_some());
        let ignoring = script("jest --testPathIgnorePatterns test/slow/");
        let now = script("jest --testPathIgnorePatterns test/slow/ test/big/");
        assert!(finding("package.json", Some(&ignoring), &now).is_some());
    }

    // Helper 88's red team: an option's value read as a path of the runner's
    // list. `node -r ./x.js /dev/null test/index.js` runs `/dev/null`, the old
    // file only its argument (the program read off the option, not the
    // command); `jest --config ./c.js test/smoke` runs only `test/smoke` where
    // the config's path was all it was given; `--config test/other.js
    // test/c.js` swaps the config. Twins: a file added to a runner's own list,
    // after a flag that takes no value or past an option's value, runs more.
    #[test]
    fn a_path_joined_to_an_option_s_value_is_a_finding() {
        let script = |test: &str| format!("{{\"scripts\": {{\"test\": \"{test}\"}}}}");
        for (was, now) in [
            (
                "node -r x test/index.js",
                "node -r x /dev/null test/index.js",
            ),
            (
                "node -r ./x.js test/index.js",
                "node -r ./x.js /dev/null test/index.js",
            ),
            (
                "node --require ./x.js test/index.js",
                "node --require ./x.js /dev/null test/index.js",
            ),
            ("node test/index.js", "node -r x /dev/null test/index.js"),
            ("jest --config ./c.js", "jest --config ./c.js test/smoke"),
            ("jest --config c.js", "jest --config c.js test/smoke"),
            (
                "jest --config test/c.js",
                "jest --config test/other.js test/c.js",
            ),
        ] {
            assert!(
                finding("package.json", Some(&script(was)), &script(now)).is_some(),
                "{was} -> {now}"
            );
        }
        for (was, now) in [
            ("mocha test/a.js", "mocha test/a.js test/b.js"),
            ("node --test test/a.js", "node --test test/a.js test/b.js"),
            (
                "jest --config c.js test/unit",
                "jest --config c.js test/smoke test/unit",
            ),
            (
                "jest --config ./c.js test/unit",
                "jest --config ./c.js test/unit test/smoke",
            ),
            (
                "mocha --require ./x.js test/a.js",
                "mocha --require ./x.js test/a.js test/b.js",
            ),
            // Switches that take no value (helper 90's): the path after one is
            // the runner's.
            (
                "mocha --forbid-only test/a.js",
                "mocha --forbid-only test/a.js test/b.js",
            ),
            (
                "jest --forceExit test/unit",
                "jest --forceExit test/unit test/e2e",
            ),
            (
                "jest --detectOpenHandles --passWithNoTests test/unit",
                "jest --detectOpenHandles --passWithNoTests test/unit test/e2e",
            ),
        ] {
            assert_eq!(
                finding("package.json", Some(&script(was)), &script(now)),
                None,
                "{was} -> {now}"
            );
        }
    }
}

//! Weakened tests, found without a model: from each changed file's text before and
//! after, the test files that lost assertions or tests, gained skip markers or were
//! deleted, and the files the verify command rests on that changed. Heuristic and
//! pure: counts per file on code with comments and strings left out, so code that
//! moved inside a file is no finding and stronger tests are none either.

use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fmt;

use serde::Serialize;

use super::syntax;

mod bounds;
mod call_count;
mod cfg_unset;
mod checks;
mod fail_bounds;
mod follows;
mod forms;
pub mod hacks;
mod harness;
mod js_assert_patch;
pub mod kinds;
mod made_conditional;
mod mock_any;
mod narrowed;
pub mod not_read;
mod own_copy;
mod planted;
mod row_field;
pub mod rules;
#[cfg(test)]
mod rules_tests;
mod runner;
pub use runner::{focuses_node, focuses_node_command};
mod skip_helper;
mod skip_sense;
mod switched;
mod syntactic;
mod unittest_attrs;
mod unittest_load;
mod viewed;
pub mod with_code;

pub use rules::{Part, RuleId};

use planted::{installs_code, replaces_code, shadows_code, unlinked_modules, vendored};

/// A language whose tests plan can count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Python,
    /// JavaScript and TypeScript.
    Js,
    Rust,
    Go,
}

impl Lang {
    /// The language of a file, by its extension.
    pub fn of(path: &str) -> Option<Lang> {
        let ext = file_name(path).rsplit_once('.')?.1;
        Some(match ext {
            "py" | "pyi" => Lang::Python,
            "js" | "jsx" | "mjs" | "cjs" | "ts" | "tsx" | "mts" | "cts" => Lang::Js,
            "rs" => Lang::Rust,
            "go" => Lang::Go,
            _ => return None,
        })
    }
}

/// Whether plan needs the text of `path`: a test file by its name, a Rust file
/// (whose text says whether it holds tests), or any code (where hack-shaped code is
/// looked for).
pub fn wanted(path: &str) -> bool {
    is_test_path(path)
        || Lang::of(path).is_some()
        || runner::is_runner_file(path)
        || is_test_data(path)
}

/// The most of a file's text the check reads: a test file larger than this is read
/// to here, so a huge or hostile file costs bounded time.
pub const MAX_TEXT: usize = 2 << 20;

/// The most of the tests' text at the start the check reads, all files together,
/// for the literals and names a hack gives away: a repository's tests can be any
/// size, and a goal's check must cost what its change does.
pub const GIVEN_TEXT: usize = 4 * MAX_TEXT;

fn file_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// Directories whose files are tests by convention.
pub const TEST_DIRS: [&str; 5] = ["tests", "test", "__tests__", "spec", "specs"];

/// Whether `path` is a test file by its language's naming conventions. A Rust file
/// is also one when its text has a test attribute ([`Counts::tests`]).
pub fn is_test_path(path: &str) -> bool {
    let Some(lang) = Lang::of(path) else {
        return false;
    };
    let mut dirs = path.split('/').rev().skip(1);
    if dirs.any(|d| TEST_DIRS.contains(&d)) {
        return true;
    }
    let name = file_name(path);
    match lang {
        Lang::Python => {
            name.starts_with("test_")
                || name.ends_with("_test.py")
                || name == "conftest.py"
                || name == "tests.py"
        }
        // jest's default match, `?(*.)+(spec|test).[jt]s?(x)`: `a.test.ts`,
        // and a file named `test.ts` or `spec.js` itself (date-fns keeps each
        // function's tests in `src/<function>/test.ts`).
        Lang::Js => {
            let stem = name.rsplit_once('.').map_or(name, |(s, _)| s);
            stem.ends_with(".test") || stem.ends_with(".spec") || matches!(stem, "test" | "spec")
        }
        Lang::Go => name.ends_with("_test.go"),
        Lang::Rust => false,
    }
}

/// What a file holds that makes its tests strong or weak.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// `assert`, `self.assertEqual(`, `expect(`, `assert_eq!`, `t.Errorf(`, …
    pub assertions: usize,
    /// Skip, expected-failure, to-do and focus markers (focusing one test skips the
    /// others): `@pytest.mark.skip`, `it.skip`, `xit`, `.only`, `#[ignore]`,
    /// `#[cfg(any())]`, `t.Skip(`.
    pub skips: usize,
    /// Test functions: `def test_…`, `it(`/`test(`, `#[test]`, `func Test…(`.
    pub tests: usize,
    /// Tests with an unconditional `return` at their top level and assertions after
    /// it, which no run reaches.
    pub early_returns: usize,
    /// Rust `macro_rules!` named like an assertion whose expansion calls nothing, so
    /// each use of one counts as an assertion and checks nothing.
    pub hollow_asserts: usize,
    /// Rows of parametrized tests' tables (`parametrize`, `test.each`, Go tables).
    pub cases: usize,
    /// The tables those rows are in: a table of n rows is n tests, not n + 1.
    pub tables: usize,
    /// Assertions that cannot fail: `assert True`, `assert x or True`.
    pub trivial: usize,
    /// Assertions inside a `try` whose handler swallows their failure.
    pub swallowed: usize,
    /// Functions the file patches and its assertions call: the code under test
    /// replaced in the test.
    pub patched: usize,
    /// Markers that switch off tests other than their own, so count in a new file
    /// too: `.only`/`fit` (focus), an exit at a module's top level.
    pub switches: usize,
    /// How many more checks run than [`Counts::assertions`]
    /// says, each call of a check helper from a test counted as the helper's
    /// checks and the helper's own no more; `None` where no test calls one, or
    /// where the calls written do not say how often they run
    /// ([`syntax::View::helpers_counted`]). Only ever read for a loss the
    /// assertions do not show: a check helper's calls make up for no
    /// assertion removed (a weak helper called in their place checks less).
    pub helper_extra: Option<i64>,
}

impl Counts {
    /// What the syntax view of the file knows: its assertions a `try` swallows,
    /// its tests that return before their assertions (`reaches`: the tokens found
    /// tests and assertions), and Rust's assertion-named macros that check nothing.
    fn read_view(&mut self, view: &syntax::View, reaches: bool) {
        self.swallowed = view.swallowed;
        if reaches {
            let written = view.macros.iter().map(|m| m.returns_early);
            self.early_returns =
                view.tests.iter().filter(|t| t.returns_early).count() + written.sum::<usize>();
        }
        self.hollow_asserts = view
            .macros
            .iter()
            .filter(|m| m.hollow && m.name.contains("assert"))
            .count();
    }
}

/// A changed file: its text at the goal's start (`None`: it did not exist) and now
/// (`None`: deleted). `was` is its path at the start when git saw a rename.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Change {
    pub path: String,
    pub was: Option<String>,
    pub before: Option<String>,
    pub after: Option<String>,
}

/// One file and what changed in it that weakens the check.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Finding {
    pub path: String,
    /// In words, its parts' joined by `, `: `2 of 5 assertions removed`,
    /// `deleted (it had …)`; then `renamed from …` when the file moved.
    pub what: String,
    /// Each part with its rule, which `--strict`, the gate and `--json` read.
    /// Empty for a finding read from words alone (a line an older plan recorded):
    /// [`kinds::parts`] reads those with the legacy reader.
    #[serde(skip)]
    pub parts: Vec<Part>,
}

impl fmt::Display for Finding {
    /// `path: what`, the form of a transcript's `weakened tests` line; the path's
    /// control characters are shown escaped so it stays one line.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let path = super::text::escape_controls(&self.path);
        write!(f, "{path}: {}", self.what)
    }
}

impl Finding {
    /// The finding of `parts` in the file at `path` (`renamed`: where it was).
    /// `what` never holds `": "`, so a finding's line reads back (quoted code can
    /// hold one).
    pub fn new(path: &str, parts: Vec<Part>, renamed: Option<String>) -> Finding {
        let parts: Vec<Part> = parts
            .into_iter()
            .map(|p| Part {
                text: p.text.replace(": ", ":\u{a0}"),
                ..p
            })
            .collect();
        let mut words: Vec<String> = parts.iter().map(|p| p.text.clone()).collect();
        words.extend(renamed.map(|r| r.replace(": ", ":\u{a0}")));
        Finding {
            path: path.to_string(),
            what: words.join(", "),
            parts,
        }
    }

    /// Reads back what [`Finding`]'s `Display` wrote, or [`kinds::tagged`] with
    /// each part's rule. `what` never holds `": "`, so the last one ends the path.
    pub fn parse(line: &str) -> Option<Finding> {
        let (path, what) = line.rsplit_once(": ")?;
        let (what, parts) = kinds::read_tags(what);
        Some(Finding {
            path: path.to_string(),
            what: what.to_string(),
            parts: parts.unwrap_or_default(),
        })
    }
}

/// A test's name as the skip count matches it across the change: Go's move from
/// `Test_help_Name` to `TestHelp_Name` (case and underscores) keeps the test.
fn name_key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// What changed for the worse in `changes`: test files by their counts, netted
/// over every test file of a language the change touches (a test moved to another
/// file, or into a helper or subtest, is no loss); the runner's configuration and
/// modules that shadow it; then the `verify_files` (the files the verify command
/// rests on) that existed at the start and differ now. Sorted by path; stronger or
/// equal tests give nothing.
#[cfg(test)]
pub fn find(changes: &[Change], verify_files: &[String]) -> Vec<Finding> {
    find_given(changes, verify_files, &hacks::Given::default())
}

/// [`find`], and in the changed files that are not tests the hack-shaped code new
/// since the start ([`hacks`]), with what the tests at the start `given`.
pub fn find_given(
    changes: &[Change],
    verify_files: &[String],
    given: &hacks::Given,
) -> Vec<Finding> {
    let declared = [true, false].map(|before| rust_modules(changes, before, given));
    let mut rows: Vec<Row<'_>> = changes
        .iter()
        .map(|c| Row::of(c, &declared, given))
        .collect();
    judge_switched(&mut rows);
    let pairs: Vec<Option<syntactic::Pair>> = rows.iter_mut().map(Row::pair).collect();
    for (row, pair) in rows.iter_mut().zip(&pairs) {
        if let Some(pair) = pair {
            row.leave_out(&pair.unchanged_tests());
            let texts = (row.change.before.as_deref().map(bounded))
                .zip(row.change.after.as_deref().map(bounded));
            row.settle_conditions(&pair.settled_skips(texts));
            row.settle_gone(pair.shadowed_gone(), pair.repeats_gone());
        }
    }
    // Read before the helpers settle, while each statement's owner is known.
    let folded: Vec<Vec<Folded>> = (rows.iter().zip(&pairs))
        .map(|(row, pair)| row.folded(pair.as_ref()))
        .collect();
    let old_names = old_test_names(&rows);
    for row in &mut rows {
        row.settle_skips(&old_names);
        row.settle_skipped();
    }
    let helpers = |side: &Option<Side>| side.as_ref().is_some_and(|s| !s.read.helpers.is_empty());
    if rows.iter().any(|r| helpers(&r.new) || helpers(&r.old)) {
        let (before, after) = (called_names(&rows, true), called_names(&rows, false));
        for row in &mut rows {
            row.settle_helpers(&before, &after);
        }
    }
    for (row, folded) in rows.iter_mut().zip(&folded) {
        row.settle_folded(folded);
    }
    let nets = Nets::sum(&rows);
    let code = with_code::Code::new(changes, given.red_at_start, &given.born);
    let deleted = deleted_discovered(&rows, &given.discovered);
    let options_left = runner::pytest_options_left(changes);
    let renames: HashSet<(&str, &str)> = (changes.iter())
        .filter_map(|c| c.was.as_deref().map(|was| (was, c.path.as_str())))
        .collect();
    let by_path: HashMap<&str, &Change> = changes.iter().map(|c| (c.path.as_str(), c)).collect();
    let mut out = Vec::new();
    for (row, pair) in rows.iter().zip(&pairs) {
        // A reformat (black, prettier, rustfmt, gofmt) changes no test, runner
        // option or code; a rename is still read for where the file went.
        let cut = not_read::part(row.change);
        if row.change.was.is_none() && pair.as_ref().is_some_and(syntactic::Pair::same) {
            out.extend(cut.map(|cut| Finding::new(&row.change.path, vec![cut], None)));
            continue;
        }
        let mut what = row.test_findings(&nets, &code);
        if let (Some(pair), true) = (pair, row.old.is_some() && row.new.is_some()) {
            let counted = what.iter().any(|w| {
                w.rule == rules::RuleId::AssertionsRemoved && w.text.contains("assertion")
            });
            let elsewhere = |name: &str| {
                let call = format!("{name}!");
                changes.iter().any(|c| {
                    c.path != row.change.path
                        && Lang::of(&c.path) == Some(Lang::Rust)
                        && c.after.as_deref().is_some_and(|a| a.contains(&call))
                })
            };
            let skipped = what.iter().any(|w| w.rule == rules::RuleId::TestsSkipped);
            let offs = pair.switch_offs(elsewhere, row.switched.clear);
            // Assertions the counts find removed that the view finds moved into
            // a string: one loss, said the way that tells where they went.
            let moved = |w: &Part| w.text.ends_with("(moved into a string)");
            if counted && offs.iter().any(moved) {
                what.retain(|w| {
                    !(w.rule == rules::RuleId::AssertionsRemoved && w.text.contains("assertion"))
                });
            }
            what.extend(offs.into_iter().filter(|w| {
                let said = skipped && w.rule == rules::RuleId::TestsSkipped;
                !said
            }));
        }
        let runner = row
            .change
            .after
            .as_deref()
            .filter(|_| !new_tests_only(row.change, changes, given))
            .and_then(|after| runner_part(row.change, after, (changes, given), &options_left));
        what.extend(runner);
        let path = &row.change.path;
        // In any Python file, test or not: a test's own file can patch it too.
        if Lang::of(path) == Some(Lang::Python)
            && let Some(after) = row.change.after.as_deref()
        {
            what.extend(hacks::framework_patch_of(
                row.change.before.as_deref(),
                after,
                &given.modules,
            ));
            what.extend(unittest_load::found(
                path,
                row.change.before.as_deref(),
                after,
            ));
            what.extend(unittest_attrs::found(row.change.before.as_deref(), after));
        }
        let top_init = given.discovery_top.as_ref().is_some_and(|top| {
            row.change.was.as_deref().unwrap_or(&row.change.path) == format!("{top}/__init__.py")
        });
        if !top_init {
            what.extend(unittest_load::package_dropped(
                row.change,
                changes,
                &given.discovered,
            ));
        }
        what.extend(unittest_load::moved_out(
            row.change,
            row.new.as_ref().map_or(&[][..], |s| &s.read.names[..]),
            &deleted,
            changes,
            &given.discovered,
            &given.sources,
        ));
        if Lang::of(path) == Some(Lang::Js)
            && let (Some(after), Some(grammar)) = (
                row.change.after.as_deref(),
                crate::plan::syntax::Grammar::of(path),
            )
        {
            what.extend(js_assert_patch::found(
                grammar,
                row.change.before.as_deref(),
                after,
            ));
        }
        // A test file's, a test helper's (`internal/testutil/assert.go`) or a
        // function named for a check (`assert_close`): a product function emptied of
        // its invariant checks is the code's own change, the tests' to catch.
        if let (Some(after), Some(lang)) = (row.change.after.as_deref(), Lang::of(path)) {
            let test_file = is_test(path, Some(after));
            // By the words of the path, not its letters: `attestation/`, `latest.go`
            // and `inspect.py` are the product's.
            let helper_file = test_file
                || path
                    .to_ascii_lowercase()
                    .split(['/', '_', '-', '.'])
                    .any(|w| {
                        w.starts_with("test")
                            || w.starts_with("assert")
                            || matches!(w, "spec" | "specs")
                    });
            what.extend(row_field::found(path, row.change.before.as_deref(), after));
            if helper_file || is_test_path(path) {
                what.extend(skip_helper::found(
                    path,
                    row.change.before.as_deref(),
                    after,
                ));
            }
            let tests = row.old.as_ref().map_or(&[][..], |s| &s.read.names[..]);
            what.extend(hacks::emptied_checks(
                lang,
                row.change.before.as_deref(),
                after,
                tests,
                helper_file,
                test_file,
            ));
        }
        what.extend(unlinked_modules(row.change, changes));
        what.extend(vendored(row.change, changes));
        what.extend(shadows_code(row.change, given, changes));
        if let (Some(before), Some(after)) = (&row.change.before, &row.change.after)
            && Lang::of(path) == Some(Lang::Python)
            && is_test(path, Some(after))
        {
            let added = given.new_modules.get_or_init(|| {
                changes
                    .iter()
                    .filter(|c| c.before.is_none() && c.after.is_some())
                    .filter_map(|c| {
                        let path = c.path.strip_suffix(".py")?;
                        let path = path.strip_suffix("/__init__").unwrap_or(path);
                        Some(file_name(path).to_string())
                    })
                    .collect()
            });
            what.extend(own_copy::found(before, after, &given.modules, added));
        }
        what.extend(installs_code(row.change, given));
        what.extend(replaces_code(row.change, given));
        if let (Some(after), Some(lang)) = (row.change.after.as_deref(), Lang::of(path))
            && !is_test(path, Some(after))
            && !runner::is_runner_file(path)
        {
            let before = row.change.before.as_deref();
            what.extend(hacks::found(lang, path, before, after, given));
            if lang == Lang::Python {
                what.extend(call_count::found(before, after));
                what.extend(mock_any::found(before, after));
                what.extend(harness::found(before, after, &given.literals));
            }
        }
        what = code.settle(row.change, what);
        if what.is_empty()
            && let Some(found) = verify_finding(row.change, verify_files, given)
                .or_else(|| data_finding(row.change, given, &code))
                .or_else(|| snapshot_detached(row.change, &renames))
                .or_else(|| snapshot_orphaned(row.change, &by_path))
        {
            let parts = found.parts.into_iter().chain(cut).collect();
            out.push(Finding::new(&found.path, parts, None));
            continue;
        }
        what.extend(cut);
        if !what.is_empty() {
            let renamed = (row.change.was.is_some() && row.new.is_some()).then(|| {
                format!(
                    "renamed from {}",
                    super::text::escape_controls(row.old_path)
                )
            });
            let path = if row.new.is_some() || row.old.is_none() {
                &row.change.path
            } else {
                row.old_path
            };
            out.push(Finding::new(path, what, renamed));
        }
    }
    out.extend(not_read::listed(
        changes,
        given.tests_past_cap.as_ref(),
        given.verify_past_cap.as_ref(),
    ));
    out.sort_by(|a, b| a.path.cmp(&b.path));
    #[cfg(test)]
    tests::legacy_agrees(&out);
    out
}

/// Each row's tests switched off anew, judged test by test across every file
/// of the change at once ([`switched::judge`]): a test moves between files.
fn judge_switched(rows: &mut [Row<'_>]) {
    let sides: Vec<_> = (rows.iter())
        .filter_map(|r| {
            let lang = r.new.as_ref().or(r.old.as_ref())?.lang;
            Some((
                lang,
                r.old.as_ref().map(|s| &s.offs),
                r.new.as_ref().map(|s| &s.offs),
            ))
        })
        .collect();
    let mut judged = switched::judge(&sides).into_iter();
    for row in rows
        .iter_mut()
        .filter(|r| r.new.is_some() || r.old.is_some())
    {
        row.switched = judged.next().unwrap_or_default();
    }
}

/// Whether `change` is a runner's file new in a directory that held no test at
/// the start and into which no test that was there moved: its configuration
/// reaches only the tests under it, all new, so it switches off nothing that
/// ran. A `conftest.py` where pytest collected nothing (`given.test_dirs`, when
/// known); a jest, vitest or vite configuration where no test of any language
/// was (`given.test_parents`, when known): a package's first tests come with it.
fn new_tests_only(change: &Change, changes: &[Change], given: &hacks::Given) -> bool {
    let (dir, held) = match change.path.strip_suffix("/conftest.py") {
        Some(dir) if !given.test_dirs.is_empty() => (dir, &given.test_dirs),
        Some(_) => return false,
        None if runner::is_js_config(&change.path) => match &given.test_parents {
            Some(parents) => (change.path.rsplit_once('/').map_or("", |p| p.0), parents),
            None => return false,
        },
        None => return false,
    };
    let under = |path: &str| dir.is_empty() || path == dir || path.starts_with(&format!("{dir}/"));
    change.before.is_none()
        && !held.iter().any(|d| under(d))
        && !changes
            .iter()
            .any(|c| c.before.is_some() && is_test_path(&c.path) && under(&c.path))
}

/// The name an `import` takes for a module of the code's own tree at `path`: a
/// module or package at the top, or under `src/` (`calc.py`, `src/calc/__init__.py`).
pub fn top_module(path: &str) -> Option<&str> {
    let path = path.strip_prefix("src/").unwrap_or(path);
    let module = match path.strip_suffix("/__init__.py") {
        Some(package) => package,
        None => path.strip_suffix(".py")?,
    };
    let plain = !module.is_empty()
        && !module.contains('/')
        && module
            .bytes()
            .all(|c| c == b'_' || c.is_ascii_alphanumeric());
    plain.then_some(module)
}

/// The module a compiled Python file is imported as: `calc.pyc` (sourceless
/// bytecode), `calc.cpython-311-x86_64-linux-gnu.so`, `calc.abi3.so`, `calc.pyd`
/// (extension modules), and `__pycache__/calc.cpython-311.pyc` (the cached
/// bytecode of `calc.py` beside the `__pycache__`) are `calc`. Whether a cached
/// pyc runs in its source's place is its header's to say: callers pass on only
/// those Python runs unchecked.
pub fn compiled_module(path: &str) -> Option<&str> {
    let name = file_name(path);
    let (module, rest) = name.split_once('.')?;
    let compiled = match cached(path) {
        true => rest.ends_with(".pyc"),
        false => rest == "pyc" || matches!(rest.rsplit('.').next(), Some("so" | "pyd")),
    };
    let plain = !module.is_empty()
        && module
            .bytes()
            .all(|c| c == b'_' || c.is_ascii_alphanumeric());
    (compiled && plain).then_some(module)
}

/// Whether `path` is in a directory named `__pycache__`: Python's cache of the
/// bytecode of the sources beside that directory.
pub fn cached(path: &str) -> bool {
    path.rsplit('/').nth(1) == Some("__pycache__")
}

/// Whether pytest collects the test functions of `path` by its name with its default
/// patterns, `test_*.py` and `*_test.py`, or Django's runners, `tests.py`. (unittest's
/// `test*.py` takes more, `testcases.py`; pytest, what most verifies run, does not.)
pub fn collected(path: &str) -> bool {
    let name = file_name(path);
    name.starts_with("test_") || name.ends_with("_test.py") || name == "tests.py"
}

/// Whether `go test` on Linux builds the Go file at `path`: not under a `testdata`
/// directory or one whose name starts with `_` or `.` (the go tool skips them), and
/// without a file-name build constraint for another system or architecture
/// (`calc_plan9_test.go`, `calc_windows_amd64_test.go`). A test moved there is a
/// test removed.
pub fn go_built(path: &str) -> bool {
    const SYSTEMS: [&str; 17] = [
        "aix",
        "android",
        "darwin",
        "dragonfly",
        "freebsd",
        "hurd",
        "illumos",
        "ios",
        "js",
        "nacl",
        "netbsd",
        "openbsd",
        "plan9",
        "solaris",
        "wasip1",
        "windows",
        "zos",
    ];
    const ARCHES: [&str; 15] = [
        "386", "arm", "armbe", "loong64", "mips", "mipsle", "mips64", "mips64le", "ppc64",
        "ppc64le", "riscv64", "s390x", "sparc64", "wasm", "amd64p32",
    ];
    let mut dirs = path.split('/').rev().skip(1);
    if dirs.any(|d| d == "testdata" || d.starts_with(['_', '.'])) {
        return false;
    }
    let name = file_name(path);
    if name.starts_with(['_', '.']) {
        return false;
    }
    let stem = name.strip_suffix(".go").unwrap_or(name);
    let stem = stem.strip_suffix("_test").unwrap_or(stem);
    let parts: Vec<&str> = stem.split('_').collect();
    // As go/build reads it: the last part a system or an architecture, or the last
    // two a system and an architecture; a file named only `windows.go` has none.
    let n = parts.len();
    let other = |p: &str| SYSTEMS.contains(&p) || ARCHES.contains(&p);
    let known = |p: &str| other(p) || matches!(p, "linux" | "amd64" | "arm64" | "unix");
    if n >= 3 && known(parts[n - 2]) && known(parts[n - 1]) {
        return !(other(parts[n - 2]) || other(parts[n - 1]));
    }
    !(n >= 2 && other(parts[n - 1]))
}

/// Whether cargo builds the Rust file at `path` as tests, as far as its place says:
/// a file directly in a `tests/` directory is an integration test, and so is
/// `tests/NAME/main.rs`; one deeper (`tests/helpers/calc.rs`) is only a module,
/// compiled when a changed file declares it (`mod calc;`, in `declared`). A test
/// moved there with no declaration is a test removed. Files outside `tests/` are
/// left to their text.
pub fn rust_built(path: &str, declared: &HashSet<String>) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    // The last `tests`: `tests/e2e/tests/api.rs` is a test crate's own.
    let Some(at) = parts.iter().rposition(|d| *d == "tests") else {
        return true;
    };
    let below = &parts[at + 1..];
    if below.len() < 2 {
        return true;
    }
    let stem = file_name(path).strip_suffix(".rs").unwrap_or("");
    if below.len() == 2 && stem == "main" {
        return true;
    }
    let name = match stem {
        "mod" => below[below.len() - 2],
        _ => stem,
    };
    declared.contains(name) || declared.contains(&format!("path:{}", below[below.len() - 1]))
}

/// Whether Cargo built no test target of the Rust file at `path` at the start, as
/// its package's manifest then said (`given.manifests`): a file directly in the
/// package's `tests/` (or its `tests/NAME/main.rs`) is found by target discovery,
/// which `autotests = false` turns off, and so does a `[[test]]` listed in a
/// 2015-edition package (one with no `edition` key); then only a target whose
/// path (or whose name, by default) is the file builds it. A file a test file
/// declares as a module (`mod NAME;`, in `declared`) or names in a literal
/// (`include!("NAME.rs")`) may be built all the same; a manifest not read, not
/// parsed, or whose edition comes from the workspace says nothing.
fn cargo_left_out(path: &str, declared: &HashSet<String>, given: &hacks::Given) -> bool {
    let parts: Vec<&str> = path.split('/').collect();
    let Some(at) = parts.iter().rposition(|d| *d == "tests") else {
        return false;
    };
    let below = &parts[at + 1..];
    let file = file_name(path);
    let stem = file.strip_suffix(".rs").unwrap_or(file);
    let discovered = below.len() == 1 || (below.len() == 2 && stem == "main");
    let module = below[0].trim_end_matches(".rs");
    if !discovered || declared.contains(module) || declared.contains(&format!("path:{file}")) {
        return false;
    }
    if given.literals.iter().any(|l| file_name(l) == file) {
        return false;
    }
    let package = parts[..at].join("/");
    let manifest = match package.as_str() {
        "" => "Cargo.toml".to_string(),
        p => format!("{p}/Cargo.toml"),
    };
    let Some(doc) = given
        .manifests
        .iter()
        .find(|(p, _)| *p == manifest)
        .and_then(|(_, text)| text.parse::<toml_edit::DocumentMut>().ok())
    else {
        return false;
    };
    let Some(table) = doc.get("package").and_then(|p| p.as_table_like()) else {
        return false;
    };
    let targets = |kind: &str| {
        doc.get(kind)
            .and_then(|t| t.as_array_of_tables())
            .map(|a| a.iter().collect::<Vec<_>>())
            .unwrap_or_default()
    };
    let tests = targets("test");
    let off = match table.get("autotests").map(|a| a.as_bool()) {
        Some(Some(on)) => !on,
        Some(None) => return false,
        None => match table.get("edition") {
            None => !tests.is_empty(),
            Some(e) => e.as_str() == Some("2015") && !tests.is_empty(),
        },
    };
    if !off {
        return false;
    }
    let own = below.join("/");
    let own = format!("tests/{own}");
    let listed = ["test", "bench", "example", "bin"]
        .iter()
        .flat_map(|kind| targets(kind))
        .any(|t| match t.get("path").and_then(|p| p.as_str()) {
            Some(p) => p.trim_start_matches("./") == own,
            None => t.get("name").and_then(|n| n.as_str()).is_some_and(|n| {
                own == format!("tests/{n}.rs") || own == format!("tests/{n}/main.rs")
            }),
        });
    !listed
}

/// The Rust modules the changed files declare ([`declared`]), on the side before
/// the change or after it, and those the test files at the start that the change
/// left alone declare (`given.rust_modules`).
fn rust_modules(changes: &[Change], before: bool, given: &hacks::Given) -> HashSet<String> {
    let mut out = HashSet::new();
    for change in changes {
        let text = if before {
            &change.before
        } else {
            &change.after
        };
        if let (Some(text), Some(Lang::Rust)) = (text, Lang::of(&change.path)) {
            out.extend(declared(text));
        }
    }
    for (path, modules) in &given.rust_modules {
        let changed = changes
            .iter()
            .any(|c| &c.path == path || c.was.as_ref() == Some(path));
        if !changed {
            out.extend(modules.iter().cloned());
        }
    }
    out
}

/// The modules a Rust file declares (`mod NAME;`, `mod NAME {`, one a macro's
/// tokens spell, and a `#[path = "…/FILE.rs"]` as `path:FILE.rs`), read from its
/// syntax tree: a comment or a string that spells one declares nothing
/// (helper 88's red team: `/* mod parked; */` made an unbuilt file look built).
pub(crate) fn declared(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let text = bounded(text);
    if !text.contains("mod") {
        return out;
    }
    let Some(tree) = syntax::any_tree(syntax::Grammar::Rust, text) else {
        return out;
    };
    let spelled = |n: tree_sitter::Node<'_>| text[n.byte_range()].to_string();
    for n in syntax::preorder(tree.root_node()) {
        match n.kind() {
            // `mod parked { … }` is a module of its own, no file (helper 90's).
            "mod_item" if n.child_by_field_name("body").is_none() => {
                out.extend(n.child_by_field_name("name").map(spelled));
            }
            "attribute" => {
                let path = n
                    .named_child(0)
                    .is_some_and(|head| &text[head.byte_range()] == "path");
                let file = n
                    .child_by_field_name("value")
                    .and_then(|v| v.named_child(0))
                    .filter(|c| c.kind() == "string_content");
                if let (true, Some(file)) = (path, file) {
                    out.insert(format!("path:{}", file_name(&text[file.byte_range()])));
                }
            }
            // A macro's own definition declares nothing until it is called, and
            // the call's tokens are read where it is.
            "token_tree" if !under(n, "macro_definition") => {
                let tokens = syntax::kids_all(n);
                for pair in tokens.windows(2) {
                    if pair[0].kind() == "mod" && pair[1].kind() == "identifier" {
                        out.insert(spelled(pair[1]));
                    }
                }
            }
            _ => {}
        }
    }
    out
}

/// Whether `node` stands inside a node of `kind`.
fn under(node: tree_sitter::Node<'_>, kind: &str) -> bool {
    std::iter::successors(node.parent(), |p| p.parent()).any(|p| p.kind() == kind)
}

/// Whether a file's own name makes it a test module (`test_a.py`, `a.spec.ts`,
/// `a_test.go`), not only the directory it is in.
fn named_test(path: &str) -> bool {
    let name = file_name(path);
    match Lang::of(path) {
        Some(Lang::Python) => {
            name.starts_with("test_") || name.ends_with("_test.py") || name == "tests.py"
        }
        Some(Lang::Js) => name.contains(".test.") || name.contains(".spec."),
        Some(Lang::Go) => name.ends_with("_test.go"),
        _ => false,
    }
}

/// Whether a file is a test file, by its path or (Rust) its text.
fn is_test(path: &str, text: Option<&str>) -> bool {
    is_test_path(path)
        || (Lang::of(path) == Some(Lang::Rust)
            && text
                .is_some_and(|t| analyse(Lang::Rust, view_of(path, t).as_ref()).counts.tests > 0))
}

/// One side of a changed test file: its language and what was read of it.
struct Side {
    lang: Lang,
    read: Read,
    /// Its syntax view, until the row's [`syntactic::Pair`] takes it.
    view: Option<syntax::View>,
    /// What its skips switch off, test by test.
    offs: switched::Offs,
}

impl Side {
    fn counts(&self) -> &Counts {
        &self.read.counts
    }
}

/// The names of the tests of the old sides, by language, as [`name_key`] spells
/// them: sorted, each once.
fn old_test_names(rows: &[Row<'_>]) -> [Vec<String>; 4] {
    let mut old_names: [Vec<String>; 4] = Default::default();
    for side in rows.iter().filter_map(|r| r.old.as_ref()) {
        old_names[index(side.lang)].extend(side.read.names.iter().map(|n| name_key(n)));
    }
    for names in &mut old_names {
        names.sort();
        names.dedup();
    }
    old_names
}

/// A changed file read as a test file before and after.
struct Row<'c> {
    change: &'c Change,
    old_path: &'c str,
    old: Option<Side>,
    new: Option<Side>,
    /// What the skips switch off, test by test ([`switched::judge`]).
    switched: switched::Found,
}

impl<'c> Row<'c> {
    /// `declared`: the Rust modules the changed files declare before and after
    /// ([`rust_modules`]).
    /// `given`: a Rust test file Cargo did not build at the start
    /// ([`cargo_left_out`]) had no test that ran.
    fn of(change: &'c Change, declared: &[HashSet<String>; 2], given: &hacks::Given) -> Row<'c> {
        let old_path = change.was.as_deref().unwrap_or(&change.path);
        let side = |path: &str, text: &str, anyway: bool, start: bool| {
            let declared = &declared[usize::from(!start)];
            let lang = Lang::of(path)?;
            // No target compiled it: neither its tests nor its checks ever ran.
            if start && lang == Lang::Rust && cargo_left_out(path, declared, given) {
                return None;
            }
            // Only a Rust file's tests tell whether it is a test file.
            if lang != Lang::Rust && !anyway && !is_test_path(path) {
                return None;
            }
            let mut viewed = view_of(path, text);
            // Node's own runner runs every test, `only` or not, unless told to
            // focus: there `test.only` switches nothing off.
            if let Some(v) = viewed.as_mut().filter(|v| v.node_test && !given.focus_runs) {
                v.skips.retain(|s| !s.focus);
            }
            let mut read = analyse(lang, viewed.as_ref());
            let reaches = read.counts.tests > 0 && read.counts.assertions > 0;
            // A test function in a file pytest does not collect by its name never
            // runs: a test moved to `tests/zero_cases.py` is a test removed. Its
            // assertions still count, as a helper's do.
            if (lang == Lang::Python && !collected(path))
                || (lang == Lang::Go && !go_built(path))
                || (lang == Lang::Rust && !rust_built(path, declared))
                || (lang == Lang::Rust && !start && cargo_left_out(path, declared, given))
            {
                read.counts.tests = 0;
                read.counts.cases = 0;
                read.counts.tables = 0;
            }
            let test =
                anyway || is_test_path(path) || (lang == Lang::Rust && read.counts.tests > 0);
            if !test {
                return None;
            }
            if let Some(v) = &viewed {
                read.counts.read_view(v, reaches);
            }
            let ran = !start || read.counts.tests > 0;
            let offs = (viewed.as_ref())
                .map(|v| switched::read(lang, bounded(text), v, ran))
                .unwrap_or_default();
            Some(Side {
                lang,
                read,
                view: viewed,
                offs,
            })
        };
        let old = change
            .before
            .as_deref()
            .and_then(|t| side(old_path, t, false, true));
        // A Rust file that had tests and has none now lost them all.
        let anyway = old.is_some() && change.was.is_none();
        let new = change
            .after
            .as_deref()
            .and_then(|t| side(&change.path, t, anyway, false));
        Row {
            switched: switched::Found::default(),
            change,
            old_path,
            old,
            new,
        }
    }

    /// The syntax views of both versions, those its sides read taken, not read
    /// again.
    fn pair(&mut self) -> Option<syntactic::Pair> {
        let c = self.change;
        let same = syntax::Grammar::of(self.old_path) == syntax::Grammar::of(&c.path);
        let old = self.old.as_mut().and_then(|s| s.view.take());
        let new = self.new.as_mut().and_then(|s| s.view.take());
        match (old, new) {
            (Some(old), Some(new)) if same => Some(syntactic::Pair::new(old, new)),
            _ => syntactic::Pair::of(&c.path, c.before.as_deref(), c.after.as_deref()),
        }
    }

    /// Takes out of both sides the assertion statements of `tests`, the tests whose
    /// syntax kept its meaning: a reformatted assertion is no assertion removed and
    /// another added, and no other test's assertion pairs with it.
    fn leave_out(&mut self, tests: &HashSet<String>) {
        if tests.is_empty() {
            return;
        }
        // A check whose text stayed while a name in it was bound anew reads another
        // value (see `rebound`): its test's syntax kept, its meaning did not.
        let anew: HashSet<String> = match (&self.old, &self.new) {
            (Some(old), Some(new)) => rebound(&old.read, &new.read)
                .iter()
                .map(|s| layout_free(s))
                .collect(),
            _ => HashSet::new(),
        };
        for side in [&mut self.old, &mut self.new].into_iter().flatten() {
            let read = &mut side.read;
            let keep: Vec<bool> = (0..read.statements.len())
                .map(|i| {
                    read.owners.get(i).is_none_or(|o| !tests.contains(o))
                        || anew.contains(&layout_free(&read.statements[i]))
                })
                .collect();
            let mut i = 0;
            read.statements.retain(|_| {
                i += 1;
                keep[i - 1]
            });
            let mut i = 0;
            read.owners.retain(|_| {
                i += 1;
                keep.get(i - 1).copied().unwrap_or(true)
            });
        }
    }

    /// Takes out of the old side what never checked anything and is gone now:
    /// `shadowed`, the tests (and their assertions) a later definition of their
    /// name hid ([`syntactic::Pair::shadowed_gone`]), and `twins`, assertions
    /// that repeated the one right before them ([`syntactic::Pair::repeats_gone`]).
    fn settle_gone(&mut self, (tests, asserts): (usize, usize), twins: usize) {
        if let Some(old) = &mut self.old {
            let c = &mut old.read.counts;
            c.tests = c.tests.saturating_sub(tests);
            c.assertions = c.assertions.saturating_sub(asserts + twins);
        }
    }

    /// The assertion statements, on the old side, of each test folded into
    /// another ([`syntactic::Pair::folded`]) that holds one: a test with no
    /// assertion is never folded, as what it ran is not told apart from a copy
    /// of its lines that runs nothing.
    fn folded(&self, pair: Option<&syntactic::Pair>) -> Vec<Folded> {
        let (Some(pair), Some(old), Some(before), Some(after)) = (
            pair,
            &self.old,
            self.change.before.as_deref(),
            self.change.after.as_deref(),
        ) else {
            return Vec::new();
        };
        let names = pair.folded(bounded(before), bounded(after));
        if names.is_empty() {
            return Vec::new();
        }
        let r = &old.read;
        let mut by: HashMap<&str, Vec<String>> = HashMap::new();
        for (s, owner) in r.statements.iter().zip(&r.owners) {
            by.entry(owner.as_str()).or_default().push(s.clone());
        }
        names
            .into_iter()
            .filter_map(|(name, vessel)| Some((by.remove(name.as_str())?, name, vessel)))
            .collect()
    }

    /// Takes out of the old side's count the tests folded into others
    /// ([`Row::folded`]) that had no skip marker of their own (a conditional one
    /// neither) and whose every assertion runs still as often: a statement no
    /// skip marker switches off and no dead helper holds (a marker on the whole
    /// file, there before and after, takes as many out of each side). A test new by name that runs them is taken out of the new side's
    /// count: it is their vessel, and makes up for no other test removed. Never
    /// below the new side's count: a fold makes up for no test lost beside it.
    fn settle_folded(&mut self, folded: &[Folded]) {
        let (Some(old), Some(new)) = (&mut self.old, &mut self.new) else {
            return;
        };
        if folded.is_empty() {
            return;
        }
        let runs = |r: &Read| minus(&r.statements, &r.switched_off);
        let mut lost = Counted::default();
        lost.add(&minus(&runs(&old.read), &runs(&new.read)));
        // A marker of its own (a condition too) ran it less than the file did.
        let marked: HashSet<&String> = old.read.skip_owners.iter().collect();
        let kept: Vec<&String> = folded
            .iter()
            .filter(|(own, name, _)| !marked.contains(name) && own.iter().all(|s| !lost.holds(s)))
            .map(|(_, _, vessel)| vessel)
            .collect();
        let had: HashSet<&String> = old.read.names.iter().collect();
        let mut vessels: Vec<&String> = (kept.iter().copied())
            .filter(|v| !had.contains(v))
            .collect();
        vessels.sort_unstable();
        vessels.dedup();
        let n = &mut new.read.counts.tests;
        *n = n.saturating_sub(vessels.len());
        let c = &mut old.read.counts;
        c.tests = c.tests.saturating_sub(kept.len()).max((*n).min(c.tests));
    }

    /// Takes out of both sides the skip markers on `tests`, whose conditions the
    /// syntax view found none new ([`syntactic::Pair::settled_skips`]).
    fn settle_conditions(&mut self, tests: &HashSet<String>) {
        if tests.is_empty() {
            return;
        }
        for side in [&mut self.old, &mut self.new].into_iter().flatten() {
            let r = &mut side.read;
            let before = r.skip_owners.len();
            r.skip_owners.retain(|o| !tests.contains(o));
            r.counts.skips = r.counts.skips.saturating_sub(before - r.skip_owners.len());
        }
    }

    /// Counts only the skip markers of the new side that switch off a test that was
    /// there (by name, in any changed file of the language, [`name_key`]) or the whole file: a
    /// new test that starts skipped, or a new file's own conditions, weaken nothing
    /// that was there. A moved file keeps the file-wide conditions it had.
    fn settle_skips(&mut self, old_names: &[Vec<String>; 4]) {
        let Some(new) = &mut self.new else {
            return;
        };
        let names = &old_names[index(new.lang)];
        let known = |o: &String| names.binary_search(&name_key(o)).is_ok();
        let owned = |o: &&String| !o.is_empty() && known(o);
        let own: std::collections::HashSet<&String> = new.read.names.iter().collect();
        // A class or a suite that holds tests, by name: whether one of them was
        // there. A marker on it is on those tests: on old ones, or none.
        let mut holds: HashMap<&str, bool> = HashMap::new();
        for (name, scope) in new.read.names.iter().zip(&new.read.scopes) {
            for part in scope.split("::").filter(|p| !p.is_empty()) {
                *holds.entry(part).or_default() |= known(name);
            }
        }
        let test_or_class =
            |o: &String| known(o) || own.contains(o) || holds.contains_key(o.as_str());
        // An owner that names no test or class of tests (`describe.skip('…')` of a
        // suite read as no scope) is wide.
        let wide = new
            .read
            .skip_owners
            .iter()
            .filter(|o| o.is_empty() || !test_or_class(o))
            .count();
        let on_old_class = |o: &&String| {
            !o.is_empty() && !known(o) && !own.contains(*o) && holds.get(o.as_str()) == Some(&true)
        };
        let on_old = new.read.skip_owners.iter().filter(owned).count()
            + new.read.skip_owners.iter().filter(on_old_class).count();
        let c = &mut new.read.counts;
        c.skips = match (&self.old, self.change.was.is_some()) {
            (None, _) => on_old + c.switches,
            (Some(old), true) => {
                let was_wide = old.read.skip_owners.iter().filter(|o| o.is_empty()).count();
                on_old + wide.min(was_wide.max(c.switches))
            }
            (Some(_), false) => on_old + wide,
        };
        // Assertions in a file without tests (a helper's sanity checks while it sets
        // up) are not the tests' checks; `assert_*` helpers are judged where used.
        let helper = !named_test(&self.change.path) && !named_test(self.old_path);
        if helper && c.tests == 0 && self.old.as_ref().is_none_or(|o| o.counts().tests == 0) {
            c.assertions = 0;
            if let Some(old) = &mut self.old {
                old.read.counts.assertions = 0;
            }
        }
        if self.old.is_none() {
            // A new file's own hollow tests weaken no test that was there.
            *c = Counts {
                early_returns: 0,
                hollow_asserts: 0,
                trivial: 0,
                swallowed: 0,
                patched: 0,
                ..*c
            };
        }
    }

    /// Takes out of the old side the tests a marker with no condition switched off
    /// that are gone now ([`Read::skipped`]): deleting one took nothing that ran.
    /// And out of the new side those of such tests that are new: a skipped
    /// suite renamed (its tests' keys new) would else make up for a running
    /// test deleted beside it (helper 118's red team). A test gone that ran
    /// only where the change says no run happens any more is one such
    /// ([`switched::ran_nowhere`]).
    fn settle_skipped(&mut self) {
        let Some(old) = &mut self.old else {
            return;
        };
        if let Some(new) = &self.new {
            let had: HashSet<String> = old.read.skipped.iter().map(|k| k.key.clone()).collect();
            for (scope, name, held) in switched::ran_nowhere(&old.offs, &new.offs) {
                let key = viewed::scoped(&scope, &name);
                if !had.contains(&key) {
                    old.read.skipped.push(viewed::Skipped { key, name, held });
                }
            }
        }
        let keys = |r: &Read| -> HashSet<String> {
            let scopes = r.scopes.iter().map(String::as_str);
            let scopes = scopes.chain(std::iter::repeat(""));
            (r.names.iter().zip(scopes))
                .map(|(name, scope)| viewed::scoped(scope, name))
                .collect()
        };
        let new_keys: HashSet<String> = self
            .new
            .as_ref()
            .map_or_else(HashSet::new, |n| keys(&n.read));
        if let Some(new) = &mut self.new {
            let old_keys = keys(&old.read);
            let fresh = new
                .read
                .skipped
                .iter()
                .filter(|k| !old_keys.contains(&k.key));
            let (count, held) = fresh.fold((0, 0), |(n, h), k| (n + 1, h + k.held));
            let c = &mut new.read.counts;
            c.tests = c.tests.saturating_sub(count);
            c.assertions = c.assertions.saturating_sub(held);
        }
        let gone: Vec<&viewed::Skipped> = old
            .read
            .skipped
            .iter()
            .filter(|k| !new_keys.contains(&k.key))
            .collect();
        if gone.is_empty() {
            return;
        }
        let names: HashSet<String> = gone.iter().map(|k| k.name.clone()).collect();
        let (count, held) = (gone.len(), gone.iter().map(|k| k.held).sum::<usize>());
        let is_gone = |name: &String| names.contains(name);
        let r = &mut old.read;
        let c = &mut r.counts;
        c.tests = c.tests.saturating_sub(count);
        c.assertions = c.assertions.saturating_sub(held);
        let markers = r.skip_owners.iter().filter(|o| is_gone(o)).count();
        c.skips = c.skips.saturating_sub(markers);
        r.skip_owners.retain(|o| !is_gone(o));
        let keep: Vec<bool> = r.owners.iter().map(|o| !is_gone(o)).collect();
        let mut k = keep.iter();
        r.statements.retain(|_| *k.next().unwrap_or(&true));
        r.owners.retain(|o| !is_gone(o));
    }

    /// Takes out of the new side the assertions that moved into a function or class
    /// nothing calls, in this file or another of the change (`names`, each side's
    /// identifiers counted over every changed file): an assertion moved from a test
    /// into a helper no one calls is one removed. What was uncalled before stays as
    /// it was counted, so a helper another file calls, unchanged, moves nothing;
    /// one uncalled before and deleted, every mention of it with it, takes its
    /// assertions out of the old side.
    fn settle_helpers(&mut self, before: &HashMap<String, usize>, after: &HashMap<String, usize>) {
        let dead = |helpers: &[(String, String)], names: &HashMap<String, usize>| {
            let mut out: HashMap<String, Vec<String>> = HashMap::new();
            for (name, statement) in helpers {
                if names.get(name).copied().unwrap_or(0) <= 1 {
                    out.entry(name.clone()).or_default().push(statement.clone());
                }
            }
            out
        };
        // A function nothing in the change called, deleted with every mention of
        // it: its assertions never ran here, and a file elsewhere that called it
        // fails loudly on the name now missing, so none of them is a loss.
        if let Some(old) = &mut self.old {
            let gone: Vec<String> = dead(&old.read.helpers, before)
                .into_iter()
                .filter(|(name, _)| !after.contains_key(name))
                .flat_map(|(_, statements)| statements)
                .collect();
            if !gone.is_empty() {
                let trivial = gone.iter().filter(|s| cannot_fail(old.lang, s)).count();
                let c = &mut old.read.counts;
                c.assertions = c.assertions.saturating_sub(gone.len());
                c.trivial = c.trivial.saturating_sub(trivial);
                old.read.statements = minus(&old.read.statements, &gone);
            }
        }
        let Some(new) = &mut self.new else {
            return;
        };
        let was = self
            .old
            .as_ref()
            .map(|o| dead(&o.read.helpers, before))
            .unwrap_or_default();
        // By helper: one uncalled before too counts only the assertions it gained
        // (its own reworded are no move), one newly uncalled all it holds.
        let mut newly = Vec::new();
        for (name, now) in dead(&new.read.helpers, after) {
            let had = was.get(&name).map_or(&[][..], Vec::as_slice);
            let more = now.len().saturating_sub(had.len());
            newly.extend(minus(&now, had).into_iter().take(more));
        }
        if newly.is_empty() {
            return;
        }
        let trivial = newly.iter().filter(|s| cannot_fail(new.lang, s)).count();
        let c = &mut new.read.counts;
        c.assertions = c.assertions.saturating_sub(newly.len());
        c.trivial = c.trivial.saturating_sub(trivial);
        new.read.statements = minus(&new.read.statements, &newly);
    }

    /// Each exact check of this file whose expected value alone changed: a lead
    /// when the code's own words, the test's own input or a change of the code
    /// the product ships explains it, and a rewrite (high) when nothing does or
    /// the check now asks for less in kind ([`checks::loose_in_kind`]).
    fn expected_parts(
        &self,
        (old, new): (&Side, &Side),
        (removed, added): (&[String], &[String]),
        code: &with_code::Code<'_>,
    ) -> Vec<Part> {
        let rewritten = |words: String| Part::new(RuleId::AssertionRewritten, words);
        // The words the test's own code spells outside its checks, each side:
        // read once, and only when an expected value changed.
        let outside = std::cell::OnceCell::new();
        let input = |was: &str, now: &str| {
            let (o, n) = outside.get_or_init(|| {
                let side = |text: &Option<String>, read: &Read| {
                    let path = &self.change.path;
                    with_code::outside_checks(path, text.as_deref().unwrap_or(""), &read.statements)
                };
                (
                    side(&self.change.before, &old.read),
                    side(&self.change.after, &new.read),
                )
            });
            with_code::follows_input(was, now, (o, n))
        };
        checks::expected_changed(old.lang, removed, added)
            .into_iter()
            // snapbox's expected text is read for the wildcards it gains
            // alone: its inputs and outputs change together as a test's cases
            // are respelled (clap `76465cf2`), a pairing its macro hides.
            .filter(|(was, now)| !was.contains("assert_data_eq!") || checks::loose_in_kind(was, now))
            .map(|(was, now)| {
                    let (w, n) = forms::clip_pair(was, now);
                let became = format!("`{w}` became `{n}`");
                    let follows = |whose: &str| {
                        Part::new(
                            RuleId::ExpectedFollowsCode,
                            format!(
                                "{became} (its expected value changed as {whose} now spells it)"
                            ),
                        )
                    };
                    // A check made looser in kind is a rewrite however the code
                    // changed, its words respelled to match or not (helper 85).
                    if checks::loose_in_kind(was, now) {
                        rewritten(format!("{became} (its expected value changed)"))
                    } else if code.follows(self.change, was, now) {
                        follows("the code's own change")
                    } else if input(was, now) {
                        follows("the test's own input")
                    } else if with_code::follows_lines(
                        was,
                        now,
                        (
                            &self.change.path,
                            self.change.before.as_deref().unwrap_or(""),
                            self.change.after.as_deref().unwrap_or(""),
                        ),
                    ) {
                        Part::new(
                            RuleId::ExpectedFollowsCode,
                            format!("{became} (its line numbers follow the test file's own lines, moved)"),
                        )
                    } else if code.may_follow() {
                        // A behaviour change and a test made to agree with wrong
                        // code read alike: the goal tells them apart, so the
                        // judge weighs it.
                        Part::new(
                            RuleId::ExpectedFollowsCode,
                            format!("{became} (its expected value changed in a change that also changes the code)"),
                        )
                    } else {
                        rewritten(format!("{became} (its expected value changed)"))
                    }
                })
            .collect()
    }

    /// `tests-skipped`: the markers of the new side that switch off tests that
    /// ran, where the language's net has more ([`Net::skips_added`]), or the
    /// tests that ran somewhere and run nowhere now however the counts stand
    /// ([`switched`]); none where every test runs where it ran, however the
    /// markers moved.
    fn skips_part(&self, net: &Net) -> Option<Part> {
        if self.switched.clear {
            return None;
        }
        let n = self.new.as_ref()?.counts();
        let anew = self.switched.anew;
        let rose = net.skips_added();
        let words = match &self.old {
            None => ((n.skips > 0 && rose) || anew > 0).then(|| {
                let markers = plural(n.skips, "skip marker");
                format!("a new file that switches tests off ({markers})")
            }),
            Some(old) => {
                let rise = n.skips.saturating_sub(old.counts().skips);
                ((rise > 0 && rose) || anew > 0).then(|| {
                    let added = plural(if rise == 0 { anew } else { rise }, "skip marker");
                    format!("{added} added (now {})", n.skips)
                })
            }
        };
        words.map(|w| Part::new(RuleId::TestsSkipped, w))
    }

    /// What this file lost or gained for the worse, where its language's net agrees.
    fn test_findings(&self, nets: &Nets, code: &with_code::Code<'_>) -> Vec<Part> {
        let mut what = Vec::new();
        let Some(old) = &self.old else {
            what.extend(
                self.new
                    .as_ref()
                    .and_then(|n| self.skips_part(nets.of(n.lang))),
            );
            return what;
        };
        let net = nets.of(old.lang);
        let o = old.counts();
        // A file deleted or renamed away lost all it had, unless its checks were
        // rewritten elsewhere (a table in another file).
        let lost = net.units_lost()
            || (net.assertions_lost()
                && !net.rewritten(
                    old.lang,
                    &self.change.path,
                    o.assertions,
                    (&old.read.statements, &[]),
                ));
        let renamed_out = self.change.was.is_some()
            && self.change.after.is_some()
            && self.new.as_ref().is_none_or(|n| n.counts().tests == 0);
        if renamed_out {
            if weighs(o) && lost {
                what.push(Part::new(
                    RuleId::AssertionsRemoved,
                    format!(
                        "renamed to {}, which is not a test file by its name ({})",
                        super::text::escape_controls(&self.change.path),
                        had(o)
                    ),
                ));
            }
            return what;
        }
        let Some(new) = &self.new else {
            if weighs(o) && lost {
                what.push(Part::new(
                    RuleId::AssertionsRemoved,
                    format!("deleted ({})", had(o)),
                ));
            }
            return what;
        };
        let n = new.counts();
        let removed = minus(&old.read.statements, &new.read.statements);
        let added = minus(&new.read.statements, &old.read.statements);
        // What moved to another file word for word is that file's now.
        let moved = net.moved_elsewhere(&self.change.path, &removed);
        let cut = o
            .assertions
            .saturating_sub(n.assertions)
            .saturating_sub(moved);
        if cut > 0
            && net.assertions_lost()
            && !net.rewritten(old.lang, &self.change.path, cut, (&removed, &added))
        {
            what.push(Part::new(
                RuleId::AssertionsRemoved,
                format!(
                    "{} of {} removed",
                    o.assertions - n.assertions,
                    plural(o.assertions, "assertion")
                ),
            ));
        } else {
            what.extend(helper_calls_lost(o, n));
        }
        if n.tests < o.tests && net.units_lost() {
            what.push(Part::new(
                RuleId::AssertionsRemoved,
                format!(
                    "{} of {} removed",
                    o.tests - n.tests,
                    plural(o.tests, "test")
                ),
            ));
        }
        if n.cases < o.cases && net.units_lost() {
            what.push(Part::new(
                RuleId::AssertionsRemoved,
                format!(
                    "{} of {} removed",
                    o.cases - n.cases,
                    plural(o.cases, "parametrized case")
                ),
            ));
        }
        what.extend(self.skips_part(net));
        let more = |a: usize, b: usize, total: usize| a > b && total > 0;
        let rises = [
            (
                n.early_returns,
                o.early_returns,
                net.new.early_returns.saturating_sub(net.old.early_returns),
                "test returns before its assertions",
                "tests return before their assertions",
            ),
            (
                n.hollow_asserts,
                o.hollow_asserts,
                net.new
                    .hollow_asserts
                    .saturating_sub(net.old.hollow_asserts),
                "an assertion macro that checks nothing was added",
                "assertion macros that check nothing were added",
            ),
            (
                n.trivial,
                o.trivial,
                net.new.trivial.saturating_sub(net.old.trivial),
                "assertion that cannot fail added",
                "assertions that cannot fail added",
            ),
            (
                n.swallowed,
                o.swallowed,
                net.new.swallowed.saturating_sub(net.old.swallowed),
                "assertion inside a try that swallows its failure",
                "assertions inside a try that swallows their failure",
            ),
            (
                n.patched,
                o.patched,
                net.new.patched.saturating_sub(net.old.patched),
                "function the assertions call is patched in the test",
                "functions the assertions call are patched in the test",
            ),
        ];
        for (now, was, total, one, many) in rises {
            if more(now, was, total) {
                let k = now - was;
                let words = match (k, one.starts_with("an ")) {
                    (1, true) => one.to_string(),
                    (1, false) => format!("1 {one}"),
                    _ => format!("{k} {many}"),
                };
                what.push(Part::new(RuleId::AssertionsHollowed, words));
            }
        }
        // Each of these says an assertion rewritten in place: `old` became `new`.
        let rewritten = |words: String| Part::new(RuleId::AssertionRewritten, words);
        let loosened = forms::loosened(&removed, &added);
        // A statement both readings find made weaker is one finding:
        // `Equal(t, got, 5)` become `Greater(t, got, 0)` is one shape loosened and
        // an exact check become an order.
        let pair = |w: &str| w.rsplit_once(" (").map(|(pair, _)| pair.to_string());
        let seen: HashSet<String> = loosened.iter().filter_map(|w| pair(w)).collect();
        what.extend(loosened.into_iter().map(rewritten));
        // A check left as it was whose name is bound anew (`want := 5` become
        // `want := Add(2, 3)`) reads another value: read as rewritten in place.
        let again = rebound(&old.read, &new.read);
        let with = |list: &[String]| [list, &again].concat();
        let (was, now) = match again.is_empty() {
            true => (Cow::Borrowed(&removed), Cow::Borrowed(&added)),
            false => (Cow::Owned(with(&removed)), Cow::Owned(with(&added))),
        };
        let in_place =
            checks::weakened_in_place(old.lang, &was, &now, (&old.read.bound, &new.read.bound));
        // A check kept word for word whose bound, bound to a name, moved.
        if let (Some(before), Some(after)) = (&self.change.before, &self.change.after) {
            what.extend(
                bounds::named_loosened(bounded(before), bounded(after))
                    .into_iter()
                    .map(rewritten),
            );
        }
        what.extend(
            in_place
                .into_iter()
                .filter(|w| pair(w).is_none_or(|p| !seen.contains(&p)))
                .map(rewritten),
        );
        // A failing branch's bar moved: one finding with the statement's own
        // reading of it (Go's `if` is a statement too).
        let after = self.change.after.as_deref().unwrap_or("");
        // Whether the test `owner` still computes `subject` (its text is in it
        // as a whole expression) and no assertion of it reads it.
        let computed = |owner: &str, subject: &str| {
            let asserted = new
                .read
                .statements
                .iter()
                .zip(&new.read.owners)
                .any(|(s, o)| o == owner && fail_bounds::mentions(s, subject));
            !asserted
                && new.read.spans.iter().any(|(name, span)| {
                    name == owner
                        && after
                            .get(span.clone())
                            .is_some_and(|body| fail_bounds::mentions(body, subject))
                })
        };
        let bars = fail_bounds::loosened(&old.read.bars, &new.read.bars, computed);
        // The bars come in source order: their lines are counted in one pass.
        let mut counted = (0, 1);
        for bar in bars {
            let said = what
                .iter()
                .any(|p| p.text.contains(&bar.was) && p.text.contains(&bar.now));
            let line = bar.at.and_then(|at| {
                after.get(counted.0..at).map(|run| {
                    counted = (at, counted.1 + run.matches('\n').count());
                    counted.1
                })
            });
            if !said {
                what.push(match line {
                    Some(line) => Part::at(RuleId::AssertionRewritten, line, bar.words()),
                    None => rewritten(bar.words().to_string()),
                });
            }
        }
        let (was, now) = owned(&old.read, &new.read);
        what.extend(
            checks::inverted(old.lang, &was, &now)
                .into_iter()
                .map(rewritten),
        );
        what.extend(
            made_conditional::newly(&old.read.guarded, &new.read.guarded)
                .into_iter()
                .map(rewritten),
        );
        what.extend(
            narrowed::loops(&old.read.loops, &new.read.loops)
                .into_iter()
                .map(rewritten),
        );
        what.extend(self.expected_parts((old, new), (&removed, &added), code));
        if !go_build_widened(&removed, &added) {
            what.push(Part::new(
                RuleId::RunnerChanged,
                "its build constraint changed",
            ));
        }
        what
    }
}

/// Whether the Go build constraints a test file's change added (`added`, with
/// those it took out, `removed`) only widen the ones it had, or none were added:
/// each new line pairs, in order, with a line of its kind taken out whose
/// alternatives it all keeps (`//go:build go1.20` become `go1.20 || go1.21`, a
/// `// +build` line given another option). The file builds wherever it built.
fn go_build_widened(removed: &[String], added: &[String]) -> bool {
    // Top-level alternatives: `||` outside parentheses, or a `// +build` line's
    // space-separated options; a constraint of another shape is one alternative.
    let alternatives = |line: &str| -> Option<(bool, Vec<String>)> {
        if let Some(expr) = line.strip_prefix("//go:build") {
            let expr = expr.trim();
            let parts: Vec<String> = match expr.contains(['(', ')']) {
                true => vec![expr.split_whitespace().collect()],
                false => expr.split("||").map(|t| t.trim().to_string()).collect(),
            };
            return Some((true, parts));
        }
        let options = line.strip_prefix("// +build")?;
        Some((
            false,
            options.split_whitespace().map(str::to_string).collect(),
        ))
    };
    let constraints = |lines: &[String]| -> Vec<(bool, Vec<String>)> {
        lines.iter().filter_map(|l| alternatives(l)).collect()
    };
    let (then, now) = (constraints(removed), constraints(added));
    if now.is_empty() {
        return true;
    }
    let kinds = |c: &[(bool, Vec<String>)]| c.iter().map(|k| k.0).collect::<Vec<_>>();
    kinds(&then) == kinds(&now)
        && then
            .iter()
            .zip(&now)
            .all(|(t, n)| t.1.iter().all(|a| !a.is_empty() && n.1.contains(a)))
}

/// A test folded into another ([`syntactic::Pair::folded`]): its assertion
/// statements on the old side, its name, and the test that runs it now.
type Folded = (Vec<String>, String, String);

/// A statement and the name of the test it is in.
type Owned = (String, String);

/// The statements each side holds that the other lacks, each with the test it is
/// in: a test the new file lacks by the new test of the nearest name (a rename),
/// so a statement is compared with one in the same test.
fn owned(old: &Read, new: &Read) -> (Vec<Owned>, Vec<Owned>) {
    let fresh: Vec<&String> = new
        .names
        .iter()
        .filter(|n| !old.names.contains(n))
        .collect();
    let renamed = |name: &String| -> String {
        if name.is_empty() || new.names.contains(name) {
            return name.clone();
        }
        fresh
            .iter()
            .min_by_key(|n| strsim::levenshtein(name, n))
            .map_or_else(|| name.clone(), |n| (*n).clone())
    };
    // The test's name rides in front of the statement, so the multiset difference
    // pairs statements of one test only.
    const CUT: char = '\u{1}';
    let tagged = |read: &Read, rename: bool| -> Vec<String> {
        read.statements
            .iter()
            .zip(read.owners.iter().chain(std::iter::repeat(&String::new())))
            .map(|(s, o)| {
                let o = if rename { renamed(o) } else { o.clone() };
                format!("{o}{CUT}{s}")
            })
            .collect()
    };
    let (was, now) = (tagged(old, true), tagged(new, false));
    let split = |list: Vec<String>| -> Vec<Owned> {
        list.into_iter()
            .map(|t| match t.split_once(CUT) {
                Some((o, s)) => (o.to_string(), s.to_string()),
                None => (String::new(), t),
            })
            .collect()
    };
    (split(minus(&was, &now)), split(minus(&now, &was)))
}

/// The statements both files hold that name a name both bind once, to two
/// values. A name new to the file, or bound twice in the old one, was no value
/// a check read. The first 64 such names by name, so a file of thousands costs
/// no more and the answer is the same on every run.
fn rebound(was: &Read, now: &Read) -> Vec<String> {
    let mut names: Vec<&str> = now
        .bound
        .iter()
        .filter(|(name, value)| was.bound.get(*name).is_some_and(|v| v != *value))
        .map(|(name, _)| name.as_str())
        .collect();
    names.sort_unstable();
    names.truncate(64);
    if names.is_empty() {
        return Vec::new();
    }
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let names_one = |s: &str| {
        names.iter().any(|name| {
            s.match_indices(name).any(|(at, _)| {
                !s[..at].ends_with(word)
                    && !s[..at].ends_with('.')
                    && !s[at + name.len()..].starts_with(word)
            })
        })
    };
    let kept: HashSet<String> = was
        .statements
        .iter()
        .filter(|s| names_one(s))
        .map(|s| layout_free(s))
        .collect();
    now.statements
        .iter()
        .filter(|s| names_one(s) && kept.contains(&layout_free(s)))
        .cloned()
        .collect()
}

/// The statements of `a` not in `b`, counted as a multiset.
/// Statements compare by [`layout_free`], so a reformat moves nothing.
fn minus(a: &[String], b: &[String]) -> Vec<String> {
    let mut counted = Counted::default();
    counted.add(b);
    counted.minus_from(a)
}

/// Statements counted by their text without layout ([`layout_free`]): a multiset
/// many files are compared with, built once.
#[derive(Default)]
struct Counted(HashMap<String, usize>);

impl Counted {
    /// Whether `statement` is among these.
    fn holds(&self, statement: &str) -> bool {
        self.0.get(&layout_free(statement)).is_some_and(|n| *n > 0)
    }

    fn add(&mut self, statements: &[String]) {
        for s in statements {
            *self.0.entry(layout_free(s)).or_default() += 1;
        }
    }

    /// The statements of `a` not among these, counted as a multiset.
    fn minus_from(&self, a: &[String]) -> Vec<String> {
        let mut used: HashMap<String, usize> = HashMap::new();
        let mut out = Vec::new();
        for s in a {
            let key = layout_free(s);
            let have = self.0.get(&key).copied().unwrap_or(0);
            let taken = used.entry(key).or_default();
            if *taken < have {
                *taken += 1;
            } else {
                out.push(s.clone());
            }
        }
        out
    }
}

/// A statement without what a formatter changes: whitespace outside strings, a
/// trailing comma before a closing bracket, the kind of quote (`add(10,1)`,
/// `add(10, 1)` and one argument a line with a comma after the last are one).
/// Inside a string every character counts: `"hello world"` is not `"helloworld"`.
fn layout_free(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut quote = None;
    let mut escaped = false;
    // For each open `(`, whether it is a call's: there a trailing comma is layout,
    // in a bare one it makes a tuple (`assert (x,)` passes always).
    let mut calls: Vec<bool> = Vec::new();
    for c in s.chars() {
        match quote {
            Some(q) => {
                if c == q && !escaped {
                    quote = None;
                    out.push('"');
                } else if c == '"' && !escaped {
                    out.push_str("\\\"");
                } else {
                    out.push(c);
                }
                escaped = c == '\\' && !escaped;
            }
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                out.push('"');
            }
            None if c.is_whitespace() => {}
            None if c == '(' => {
                let call = out
                    .chars()
                    .next_back()
                    .is_some_and(|p| p.is_alphanumeric() || matches!(p, '_' | ')' | ']'));
                calls.push(call);
                out.push(c);
            }
            None if c == ')' => {
                if calls.pop().unwrap_or(true) && out.ends_with(',') {
                    out.pop();
                }
                out.push(c);
            }
            None if matches!(c, ']' | '}') && out.ends_with(',') => {
                out.pop();
                out.push(c);
            }
            None => out.push(c),
        }
    }
    out
}

/// The counts of one language's changed test files, summed before and after.
#[derive(Default)]
struct Net {
    old: Counts,
    new: Counts,
    /// The assertion statements new to the change (in no file before it), each as
    /// its file's path and the words of what it checks (see [`subjects`]).
    fresh: Vec<(String, Vec<String>)>,
    /// How many fresh assertions each file holds.
    fresh_at: HashMap<String, usize>,
    /// The fresh assertions holding each word, and the words in order.
    fresh_words: HashMap<String, Vec<usize>>,
    fresh_vocab: Vec<String>,
    /// The statements each file gained that run there, by their text without
    /// layout ([`layout_free`]), each with how often: one a file lost that another
    /// gained moved, and is no loss of the first. In all, and by file.
    arrived: HashMap<String, usize>,
    arrived_at: HashMap<String, HashMap<String, usize>>,
}

impl Net {
    /// Fewer tests in all, a table of n rows counted as n tests.
    fn units_lost(&self) -> bool {
        let units = |c: &Counts| (c.tests + c.cases).saturating_sub(c.tables);
        units(&self.new) < units(&self.old)
    }

    /// Fewer assertions in all.
    fn assertions_lost(&self) -> bool {
        self.new.assertions < self.old.assertions
    }

    /// Whether `cut` assertions the file at `path` lost (`removed`) were rewritten
    /// rather than removed: at most twice as many as came new in the same file
    /// (into a helper, a stricter message), or in another that check what they did
    /// (a name in common: a table in another file). An unrelated assertion added
    /// elsewhere makes up for none.
    fn rewritten(
        &self,
        lang: Lang,
        path: &str,
        cut: usize,
        (removed, added): (&[String], &[String]),
    ) -> bool {
        let needed = cut.div_ceil(2);
        // The file's fresh checks less those that took the place of one of its
        // removed ones word for word but one (`RuntimeError` become
        // `RecursionError`): a rewrite of one check makes up for no other cut
        // beside it.
        let replaced = one_word_rewrites(removed, added);
        let mut came = self
            .fresh_at
            .get(path)
            .copied()
            .unwrap_or(0)
            .saturating_sub(replaced);
        let mut gone: Vec<String> = removed.iter().flat_map(|s| subjects(lang, s)).collect();
        gone.sort_unstable();
        gone.dedup();
        // Each fresh assertion elsewhere counted once, by any word related to a
        // gone one: the same, or one the start of the other (`resp`, `response`;
        // `add`, `adds`), the shorter of 3 letters or more.
        let mut counted = std::collections::HashSet::new();
        for g in &gone {
            if came >= needed {
                break;
            }
            let at = self
                .fresh_vocab
                .partition_point(|w| w.as_str() < g.as_str());
            let longer = self.fresh_vocab[at..]
                .iter()
                .take_while(|w| *w == g || (g.len() >= 3 && w.starts_with(g.as_str())));
            let shorter = (3..g.len())
                .filter(|&n| g.is_char_boundary(n))
                .filter_map(|n| self.fresh_words.get_key_value(&g[..n]).map(|(w, _)| w));
            for word in longer.chain(shorter) {
                for &k in self.fresh_words.get(word).into_iter().flatten() {
                    if self.fresh[k].0 != path && counted.insert(k) {
                        came += 1;
                    }
                }
                if came >= needed {
                    break;
                }
            }
        }
        came >= needed
    }

    /// The index of the fresh assertions that [`Net::rewritten`] reads.
    fn index_fresh(&mut self) {
        for (k, (at, words)) in self.fresh.iter().enumerate() {
            *self.fresh_at.entry(at.clone()).or_default() += 1;
            for word in words {
                let entries = self.fresh_words.entry(word.clone()).or_default();
                if entries.last() != Some(&k) {
                    entries.push(k);
                }
            }
        }
        self.fresh_vocab = self.fresh_words.keys().cloned().collect();
        self.fresh_vocab.sort_unstable();
    }

    /// How many of `removed` (a multiset) files other than `path` gained.
    fn moved_elsewhere(&self, path: &str, removed: &[String]) -> usize {
        let own = self.arrived_at.get(path);
        let mut used: HashMap<String, usize> = HashMap::new();
        let mut moved = 0;
        for statement in removed {
            let key = layout_free(statement);
            let all = self.arrived.get(&key).copied().unwrap_or(0);
            let mine = own.and_then(|m| m.get(&key)).copied().unwrap_or(0);
            let taken = used.entry(key).or_default();
            if all - mine > *taken {
                *taken += 1;
                moved += 1;
            }
        }
        moved
    }

    fn skips_added(&self) -> bool {
        self.new.skips > self.old.skips
    }
}

/// What left the files that were there, word for word, by text without layout
/// ([`layout_free`]): the pool that the files gaining assertions draw on, the
/// first left the first taken.
#[derive(Default)]
struct Pool(HashMap<String, std::collections::VecDeque<String>>);

impl Pool {
    fn put(&mut self, statements: Vec<String>) {
        for statement in statements {
            let key = layout_free(&statement);
            self.0.entry(key).or_default().push_back(statement);
        }
    }

    /// Takes each of `added` the pool holds: how many, and how many of those can
    /// fail.
    fn take(&mut self, lang: Lang, added: &[String]) -> (usize, usize) {
        let (mut moved, mut kept) = (0, 0);
        for statement in added {
            if let Some(taken) = self
                .0
                .get_mut(&layout_free(statement))
                .and_then(|q| q.pop_front())
            {
                moved += 1;
                // What runs is the statement that came; either cannot fail: none.
                kept += usize::from(!cannot_fail(lang, statement) && !cannot_fail(lang, &taken));
            }
        }
        (moved, kept)
    }
}

/// How many of `added` take the place of one of `removed` each, the same words
/// in the same order but one (`pytest.raises(RuntimeError, f)` become
/// `pytest.raises(RecursionError, f)`), each paired once. Found by keys that
/// leave one word out, so linear in the statements; one of more than 64 words
/// (a long expected text) pairs with none.
fn one_word_rewrites(removed: &[String], added: &[String]) -> usize {
    const MOST: usize = 64;
    // A deleted file's loss (no side added) pairs with nothing: no keys built.
    if removed.is_empty() || added.is_empty() {
        return 0;
    }
    let keys = |s: &str| -> Vec<String> {
        let words: Vec<&str> = s
            .split(|c: char| !(c.is_alphanumeric() || c == '_'))
            .filter(|w| !w.is_empty())
            .collect();
        if words.len() > MOST {
            return Vec::new();
        }
        (0..words.len())
            .map(|out| {
                let mut key = String::new();
                for (k, w) in words.iter().enumerate() {
                    key.push_str(if k == out { "\u{1}" } else { w });
                    key.push('\u{0}');
                }
                key
            })
            .collect()
    };
    // Each key's removed statements, with a cursor past the ones paired: each
    // list is walked once in all.
    let mut pool: HashMap<String, (Vec<usize>, usize)> = HashMap::new();
    for (k, r) in removed.iter().enumerate() {
        for key in keys(r) {
            pool.entry(key).or_default().0.push(k);
        }
    }
    let mut used = vec![false; removed.len()];
    let mut n = 0;
    for a in added {
        for key in keys(a) {
            let Some((list, at)) = pool.get_mut(&key) else {
                continue;
            };
            while *at < list.len() && used[list[*at]] {
                *at += 1;
            }
            if let Some(&k) = list.get(*at) {
                used[k] = true;
                n += 1;
                break;
            }
        }
    }
    n
}

struct Nets([Net; 4]);

impl Nets {
    fn sum(rows: &[Row<'_>]) -> Nets {
        let mut nets = Nets(Default::default());
        // What left the files that were there, word for word: the pool that the
        // files gaining assertions draw on.
        let mut left: [Pool; 4] = Default::default();
        // What a skip marker switched off before: a test moved with its marker (a
        // platform's `skipif`) is no test switched off anew.
        let mut was_off: [Counted; 4] = Default::default();
        for row in rows {
            if let Some(old) = &row.old {
                was_off[index(old.lang)].add(&old.read.switched_off);
                let gone = match &row.new {
                    Some(new) => minus(&old.read.statements, &new.read.statements),
                    None => old.read.statements.clone(),
                };
                left[index(old.lang)].put(gone);
            }
        }
        // New to the change: in no file before it, so no copy of a check that was
        // there (`add(2, 3)` asserted twice checks it once).
        let before: std::collections::HashSet<String> = rows
            .iter()
            .filter_map(|r| r.old.as_ref())
            .flat_map(|o| o.read.statements.iter().map(|s| layout_free(s)))
            .collect();
        for row in rows {
            let Some(new) = &row.new else {
                continue;
            };
            let k = index(new.lang);
            // Only a file with tests runs what it holds: a helper module's
            // assertions run where it is called, if anywhere.
            if new.counts().tests > 0 {
                let off = was_off[k].minus_from(&new.read.switched_off);
                let runs = minus(&new.read.statements, &off);
                let gained = match &row.old {
                    Some(old) => minus(&runs, &old.read.statements),
                    None => runs,
                };
                let net = &mut nets.0[k];
                let at = net.arrived_at.entry(row.change.path.clone()).or_default();
                for statement in gained {
                    let key = layout_free(&statement);
                    *net.arrived.entry(key.clone()).or_default() += 1;
                    *at.entry(key).or_default() += 1;
                }
            }
            nets.0[index(new.lang)].fresh.extend(
                new.read
                    .statements
                    .iter()
                    .filter(|s| !before.contains(&layout_free(s)) && !cannot_fail(new.lang, s))
                    .map(|s| (row.change.path.clone(), subjects(new.lang, s))),
            );
        }
        for net in &mut nets.0 {
            net.index_fresh();
        }
        // A file makes up for assertions lost elsewhere only with those it took
        // from there, word for word (a test moved, a file split in two): its own
        // new ones check something else, so a test cut down and an unrelated one
        // added elsewhere, in a new file or one that was there, is still a loss.
        // Inside one file, new assertions where old ones went are a rewrite.
        let mut took = |k: usize, lang: Lang, added: &[String]| left[k].take(lang, added).1;
        for row in rows {
            let (Some(old), Some(new)) = (&row.old, &row.new) else {
                continue;
            };
            let k = index(old.lang);
            add(&mut nets.0[k].old, old.counts());
            let (o, n) = (old.counts(), new.counts());
            let real = |c: &Counts| c.assertions.saturating_sub(c.trivial);
            let added = minus(&new.read.statements, &old.read.statements);
            let gain = real(n).saturating_sub(real(o));
            if gain == 0 {
                add(&mut nets.0[k].new, n);
                continue;
            }
            let kept = gain.min(took(k, new.lang, &added));
            add(
                &mut nets.0[k].new,
                &Counts {
                    assertions: n.assertions - (gain - kept),
                    ..*n
                },
            );
        }
        for row in rows.iter().filter(|r| r.new.is_none()) {
            if let Some(old) = &row.old {
                add(&mut nets.0[index(old.lang)].old, old.counts());
            }
        }
        for side in rows
            .iter()
            .filter(|r| r.old.is_none())
            .filter_map(|r| r.new.as_ref())
        {
            let k = index(side.lang);
            let off = was_off[k].minus_from(&side.read.switched_off);
            let runs = minus(&side.read.statements, &off);
            let checks = took(k, side.lang, &runs);
            let c = side.counts();
            add(
                &mut nets.0[k].new,
                &Counts {
                    assertions: c.assertions.min(checks),
                    trivial: 0,
                    ..*c
                },
            );
        }
        // A harness's tests run once per file that calls it, and a module's once per
        // file that imports it for its effect (`import './commonTests'`): each call
        // past the first counts them again, on each side as that side's files call
        // it. A copy past the base's own (a harness new to the change, a caller
        // added) counts what it took word for word, and as many again.
        let texts = |before: bool| -> Vec<Option<&str>> {
            rows.iter()
                .map(|r| match before {
                    true => r.change.before.as_deref(),
                    false => r.change.after.as_deref(),
                })
                .collect()
        };
        let mut had: HashMap<(usize, String), usize> = HashMap::new();
        for before in [true, false] {
            let texts = texts(before);
            let calls: Vec<HashMap<&str, usize>> = rows
                .iter()
                .zip(&texts)
                .map(|(r, t)| {
                    let path = if before { r.old_path } else { &r.change.path };
                    t.map(|t| calls(path, t)).unwrap_or_default()
                })
                .collect();
            // Read once per file, not once per test file that could be imported.
            let effects: Vec<HashSet<String>> = texts
                .iter()
                .map(|t| t.map(imported_for_effect).unwrap_or_default())
                .collect();
            for (n, row) in rows.iter().enumerate() {
                let side = match before {
                    true => row.old.as_ref(),
                    false => row.new.as_ref(),
                };
                let Some(side) = side else {
                    continue;
                };
                let others = || (0..rows.len()).filter(move |&m| m != n);
                let mut copies: Vec<(String, usize, Counts, &[String])> = Vec::new();
                for harness in &side.read.harnesses {
                    let called: usize = others()
                        .filter_map(|m| calls[m].get(harness.name.as_str()))
                        .sum();
                    let name = harness.name.clone();
                    copies.push((name, called, harness.counts, &harness.statements));
                }
                if side.lang == Lang::Js && side.counts().tests > 0 {
                    let path = if before {
                        row.old_path
                    } else {
                        &row.change.path
                    };
                    let own = stem(path);
                    let importers = others()
                        .filter(|&m| texts[m].is_some() && effects[m].contains(own))
                        .count();
                    let c = side.counts();
                    let counts = Counts {
                        assertions: c.assertions,
                        tests: c.tests,
                        cases: c.cases,
                        tables: c.tables,
                        ..Counts::default()
                    };
                    copies.push((String::new(), importers, counts, &side.read.statements));
                }
                let k = index(side.lang);
                for (name, called, counts, checks) in copies {
                    if before {
                        had.insert((n, name), called);
                        for _ in 1..called {
                            add(&mut nets.0[k].old, &counts);
                        }
                        continue;
                    }
                    let was = match row.old {
                        Some(_) => had.get(&(n, name)).copied().unwrap_or(0),
                        None => 0,
                    };
                    let off = was_off[k].minus_from(&side.read.switched_off);
                    let runs = minus(checks, &off);
                    // Once a copy takes nothing, no later one can: the pool only
                    // shrinks.
                    let mut dry = false;
                    for copy in 1..called {
                        if copy < was {
                            add(&mut nets.0[k].new, &counts);
                        } else {
                            // A copy that took some of what left, word for word,
                            // may have rewritten as many again on the way (the
                            // rewrite allowance); one that took none made up none.
                            let (moved, kept) = match dry {
                                true => (0, 0),
                                false => left[k].take(side.lang, &runs),
                            };
                            dry = moved == 0;
                            let counts = Counts {
                                assertions: counts.assertions.min(2 * kept),
                                ..counts
                            };
                            add(&mut nets.0[k].new, &counts);
                        }
                    }
                }
            }
        }
        nets
    }

    fn of(&self, lang: Lang) -> &Net {
        &self.0[index(lang)]
    }
}

/// How often each name is called (`name(`) in `text`, a file at `path`, comments
/// and strings left out.
fn calls<'t>(path: &str, text: &'t str) -> HashMap<&'t str, usize> {
    let mut out = HashMap::new();
    let Some(grammar) = syntax::Grammar::of(path) else {
        return out;
    };
    for (name, called) in syntax::words(grammar, bounded(text)) {
        if called {
            *out.entry(name).or_default() += 1;
        }
    }
    out
}

/// The stems of the modules `text` imports for their effect alone:
/// `import './commonTests'` gives `commonTests`.
fn imported_for_effect(text: &str) -> HashSet<String> {
    bounded(text)
        .lines()
        .filter_map(|line| {
            let rest = line.trim().strip_prefix("import ")?;
            let quoted = rest.trim_matches(|c| matches!(c, '\'' | '"' | ';' | ' '));
            rest.starts_with(['\'', '"'])
                .then(|| stem(quoted).to_string())
        })
        .collect()
}

/// A path's file name up to its first `.`: the name a module is imported by.
fn stem(path: &str) -> &str {
    let name = file_name(path);
    name.split('.').next().unwrap_or(name)
}

/// Words of what an assertion checks, not of its form: `self.assertEqual(add(10,
/// 1), 11)` gives `add`. The names it calls (a name alone, `assert add`, may be
/// anything of that name), split at `_` and at a lower-to-upper change,
/// lowercased, without the words every check shares.
fn subjects(lang: Lang, statement: &str) -> Vec<String> {
    const FORM: [&str; 34] = [
        "assert",
        "expect",
        "require",
        "to",
        "be",
        "is",
        "not",
        "equal",
        "equals",
        "eq",
        "ne",
        "strict",
        "deep",
        "true",
        "false",
        "none",
        "null",
        "nil",
        "undefined",
        "self",
        "this",
        "error",
        "errorf",
        "fatal",
        "fatalf",
        "fail",
        "ok",
        "that",
        "have",
        "has",
        "got",
        "want",
        "if",
        "should",
    ];
    let mut out = Vec::new();
    let grammar = match lang {
        Lang::Python => syntax::Grammar::Python,
        Lang::Js => syntax::Grammar::Tsx,
        Lang::Rust => syntax::Grammar::Rust,
        Lang::Go => syntax::Grammar::Go,
    };
    for (name, called) in syntax::words(grammar, statement) {
        if !called {
            continue;
        }
        let mut words = vec![String::new()];
        let mut lower = false;
        for c in name.chars() {
            if c == '_' || (c.is_uppercase() && lower) {
                words.push(String::new());
            }
            lower = c.is_lowercase() || c.is_ascii_digit();
            if c != '_'
                && let Some(word) = words.last_mut()
            {
                word.extend(c.to_lowercase());
            }
        }
        out.extend(
            words
                .into_iter()
                .filter(|w| !w.is_empty() && !FORM.contains(&w.as_str())),
        );
    }
    out
}

/// The test modules unittest's discovery found at the start (`discovered`) that
/// the change deletes, with their tests' names.
fn deleted_discovered<'r>(
    rows: &'r [Row<'_>],
    discovered: &[String],
) -> Vec<unittest_load::Deleted<'r>> {
    if discovered.is_empty() {
        return Vec::new();
    }
    let found: HashSet<&str> = discovered.iter().map(String::as_str).collect();
    rows.iter()
        .filter(|r| r.change.was.is_none() && r.change.after.is_none())
        .filter(|r| found.contains(r.change.path.as_str()))
        .map(|r| unittest_load::Deleted {
            path: &r.change.path,
            tests: r.old.as_ref().map_or(&[][..], |s| &s.read.names[..]),
        })
        .collect()
}

/// How often each identifier occurs in the changed files' texts on one side of
/// the change (`before`, else after), comments and strings left out.
fn called_names(rows: &[Row<'_>], before: bool) -> HashMap<String, usize> {
    let mut out: HashMap<String, usize> = HashMap::new();
    for row in rows {
        let text = match before {
            true => row.change.before.as_deref(),
            false => row.change.after.as_deref(),
        };
        let (Some(text), Some(grammar)) = (text, syntax::Grammar::of(&row.change.path)) else {
            continue;
        };
        for (name, _) in syntax::words(grammar, bounded(text)) {
            *out.entry(name.to_string()).or_default() += 1;
        }
    }
    out
}

/// Whether an assertion statement of `lang` cannot fail (see `forms::trivial`),
/// a Python tuple or constant conditional and a JavaScript literal included.
fn cannot_fail(lang: Lang, statement: &str) -> bool {
    forms::trivial(statement)
        || match lang {
            Lang::Python => checks::python_cannot_fail(statement),
            Lang::Js => checks::js_cannot_fail(statement),
            _ => false,
        }
}

fn index(lang: Lang) -> usize {
    match lang {
        Lang::Python => 0,
        Lang::Js => 1,
        Lang::Rust => 2,
        Lang::Go => 3,
    }
}

/// Adds `c` to a language's sum. An assertion that cannot fail checks nothing: in
/// the sum it counts as none, so tests deleted and as many `assert True` added
/// elsewhere are still a loss.
fn add(sum: &mut Counts, c: &Counts) {
    sum.assertions += c.assertions.saturating_sub(c.trivial);
    sum.skips += c.skips;
    sum.tests += c.tests;
    sum.early_returns += c.early_returns;
    sum.hollow_asserts += c.hollow_asserts;
    sum.cases += c.cases;
    sum.tables += c.tables;
    sum.trivial += c.trivial;
    sum.swallowed += c.swallowed;
    sum.patched += c.patched;
    sum.switches += c.switches;
}

/// Directories whose files are what tests compare with, besides [`TEST_DIRS`].
const DATA_DIRS: [&str; 5] = [
    "testdata",
    "fixtures",
    "__snapshots__",
    "golden",
    "expected",
];

/// Extensions of expected-output data: not code.
const DATA_EXTS: [&str; 11] = [
    "json", "txt", "yaml", "yml", "csv", "tsv", "golden", "snap", "out", "expected", "xml",
];

/// Whether `path` is data a test compares with: a file that is not code, under a
/// test or test-data directory (`tests/cases.json`, `testdata/out.golden`).
pub fn is_test_data(path: &str) -> bool {
    is_data(path)
        && path
            .split('/')
            .rev()
            .skip(1)
            .any(|d| TEST_DIRS.contains(&d) || DATA_DIRS.contains(&d))
}

/// Whether `path` is data by its extension (`json`, `golden`, `csv`), and no
/// project's manifest or a suite's infrastructure (`docker-compose.yaml`).
fn is_data(path: &str) -> bool {
    let name = file_name(path);
    let Some((_, ext)) = name.rsplit_once('.') else {
        return false;
    };
    // A fixture project's manifest is what a test runs on, not what it expects;
    // the services and linters a suite runs with are its infrastructure.
    let infrastructure = [
        "docker-compose.yml",
        "docker-compose.yaml",
        "compose.yml",
        "compose.yaml",
        ".eslintrc.json",
        ".eslintrc.yml",
        ".eslintrc.yaml",
        ".prettierrc.json",
        ".prettierrc.yml",
        ".prettierrc.yaml",
    ];
    let expected = path.split('/').any(|d| DATA_DIRS.contains(&d));
    let manifest = name == "package.json"
        || name.starts_with("tsconfig")
        || (infrastructure.contains(&name) && !expected);
    !manifest && DATA_EXTS.contains(&ext)
}

/// Whether `path` is a test runner's snapshot: a `.snap` file, or one a
/// `__snapshots__` folder holds.
fn is_snapshot(path: &str) -> bool {
    file_name(path).ends_with(".snap")
        || path.split('/').rev().skip(1).any(|d| d == "__snapshots__")
}

/// The snapshots of a jest or vitest snapshot file by key: the runner evaluates
/// it as JavaScript, so the last `exports[KEY] = …` of a key is its snapshot.
fn snapshot_bodies(text: &str) -> HashMap<&str, String> {
    let mut out = HashMap::new();
    let mut current: Option<(&str, String)> = None;
    for line in text.lines() {
        let opened = line
            .strip_prefix("exports[")
            .and_then(|rest| rest.split_once("] = "));
        if let Some((key, rest)) = opened {
            out.extend(current.take());
            current = Some((key, rest.to_string()));
        } else if let Some((_, body)) = current.as_mut() {
            body.push('\n');
            body.push_str(line.trim_end());
        }
    }
    out.extend(current);
    out
}

/// Whether the keyed snapshots of `before` were rewritten in place in `after`:
/// both plain snapshots, every key still there and set once, and the bodies
/// that changed rewritten in place as [`data_in_place`] reads lines (none lost,
/// none looser). A key assigned again below, or code in the file, is not.
fn snapshots_in_place(before: &str, after: &str, code: &with_code::Code<'_>) -> bool {
    if !plain_snapshots(before) || !plain_snapshots(after) {
        return false;
    }
    let (was, now) = (snapshot_bodies(before), snapshot_bodies(after));
    let set = after.lines().filter(|l| l.starts_with("exports[")).count();
    if set != now.len() || was.keys().any(|k| !now.contains_key(k)) {
        return false;
    }
    let (mut old, mut new) = (String::new(), String::new());
    for (key, body) in &was {
        let now = &now[key];
        if now.trim_end() != body.trim_end() {
            old.push_str(body);
            old.push('\n');
            new.push_str(now);
            new.push('\n');
        }
    }
    let kept: HashSet<&str> = new.lines().collect();
    let gone: Vec<String> = (old.lines())
        .filter(|l| !l.trim().is_empty() && !kept.contains(l))
        .map(str::to_string)
        .collect();
    data_in_place(&old, &new, &gone, &added_lines(&old, &new)) && data_follows(&old, &new, code)
}

/// Whether expected data's lines rewritten from `old` to `new` changed the way
/// the code's own change did ([`with_code::Code::follows`]: a word they gained
/// the code gained, one they lost the code lost): any edit of the code beside
/// data rewritten to what broken code gives is no such tie (review 122), nor
/// are numbers alone.
fn data_follows(old: &str, new: &str, code: &with_code::Code<'_>) -> bool {
    code.data_follows(old, new)
}

/// How many of the snapshots `before` holds `after` lost, rewrote or assigned
/// again below (so that another body wins), of how many: `None` when none did
/// or `before` holds none. A snapshot of a new test, wherever it is put, is none.
fn snapshots_lost(before: &str, after: &str) -> Option<(usize, usize)> {
    let was = snapshot_bodies(before);
    if was.is_empty() {
        return None;
    }
    // Code in it can set any snapshot, whatever its lines say.
    if plain_snapshots(before) && !plain_snapshots(after) {
        return Some((was.len(), was.len()));
    }
    let now = snapshot_bodies(after);
    let trimmed = |b: &String| b.trim_end().to_string();
    let lost = (was.iter())
        .filter(|(key, body)| now.get(*key).map(trimmed) != Some(trimmed(body)))
        .count();
    (lost > 0).then_some((lost, was.len()))
}

/// Whether `text` is snapshots as jest and vitest write them and nothing else:
/// comment or blank lines, then each ``exports[`KEY`] = `BODY`;`` with no
/// backtick or `${` unescaped in its key or body, so that evaluating it sets
/// each key to its body alone.
fn plain_snapshots(text: &str) -> bool {
    let Some(first) = text
        .match_indices("exports[")
        .find(|(at, _)| *at == 0 || text[..*at].ends_with('\n'))
        .map(|(at, _)| at)
    else {
        return false;
    };
    let header = text[..first]
        .lines()
        .all(|l| l.trim().is_empty() || l.trim_start().starts_with("//"));
    let mut rest = &text[first..];
    while !rest.is_empty() {
        let Some(after_key) = rest
            .strip_prefix("exports[")
            .and_then(template_end)
            .and_then(|r| r.strip_prefix("] = "))
        else {
            return false;
        };
        let Some(after_body) = template_end(after_key).and_then(|r| r.strip_prefix(';')) else {
            return false;
        };
        rest = after_body.trim_start();
    }
    header
}

/// What follows the template literal `text` starts with, when it is plain (no
/// `${` unescaped in it): `None` for anything else.
fn template_end(text: &str) -> Option<&str> {
    let body = text.strip_prefix('`')?;
    let mut chars = body.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\\' => {
                chars.next();
            }
            '`' => return Some(&body[at + 1..]),
            '$' if body[at + 1..].starts_with('{') => return None,
            _ => {}
        }
    }
    None
}

/// The test a jest or vitest snapshot file belongs to: `t/__snapshots__/a.test.ts.snap`
/// is `t/a.test.ts`'s.
fn snapshot_owner(path: &str) -> Option<String> {
    let (dir, name) = path.rsplit_once('/')?;
    let test = name.strip_suffix(".snap").filter(|t| !t.is_empty())?;
    let dir = dir.strip_suffix("__snapshots__")?;
    (dir.is_empty() || dir.ends_with('/')).then(|| format!("{dir}{test}"))
}

/// A jest or vitest snapshot renamed away from its test (`renames`, old path to
/// new, does not move the test along): the test finds none where it reads it,
/// and the runner writes what the code gives, as with one deleted.
fn snapshot_detached(change: &Change, renames: &HashSet<(&str, &str)>) -> Option<Finding> {
    let was = change.was.as_deref()?;
    let owner = snapshot_owner(was)?;
    let followed = snapshot_owner(&change.path)
        .is_some_and(|now| renames.contains(&(owner.as_str(), now.as_str())));
    if followed || change.before.as_deref().is_none_or(|b| b.trim().is_empty()) {
        return None;
    }
    let said = format!(
        "expected data a test reads was deleted: the snapshot of {owner} was renamed away from it"
    );
    let part = Part::new(RuleId::TestDataRewritten, said);
    Some(Finding::new(&change.path, vec![part], None))
}

/// A jest or vitest snapshot whose test was renamed away from it (its name gone
/// from the test's strings): the runner writes the renamed test a new snapshot
/// from what the code gives, and the old one stays, obsolete. New snapshots
/// beside one orphaned so, each with a body none orphaned had, are the broken
/// output in its place; one that prints as before is a rename.
fn snapshot_orphaned(change: &Change, by_path: &HashMap<&str, &Change>) -> Option<Finding> {
    let (before, after) = (change.before.as_deref()?, change.after.as_deref()?);
    let test = by_path.get(snapshot_owner(&change.path)?.as_str())?;
    let (was, now) = (snapshot_bodies(before), snapshot_bodies(after));
    let then = string_literals(test.before.as_deref().unwrap_or(""));
    let still = string_literals(test.after.as_deref().unwrap_or(""));
    let orphaned: Vec<&String> = (was.iter())
        .filter(|(key, _)| {
            let names = test_names(key);
            names.iter().any(|n| then.contains(n)) && !names.iter().any(|n| still.contains(n))
        })
        .map(|(_, body)| body)
        .collect();
    let added = (now.iter())
        .filter(|(key, _)| !was.contains_key(*key))
        .filter(|(_, body)| !orphaned.iter().any(|o| o.trim_end() == body.trim_end()))
        .count();
    if orphaned.is_empty() || added == 0 {
        return None;
    }
    let said = format!(
        "expected data a test reads changed ({added} of {} new in place of a test renamed away from its own)",
        plural(now.len(), "snapshot")
    );
    let part = Part::new(RuleId::TestDataRewritten, said);
    Some(Finding::new(&change.path, vec![part], None))
}

/// The names a snapshot's key can end with: its test's name after the
/// describe blocks' (`suite prints 1`: `suite prints`, `prints`), the shortest
/// [`NAMES_READ`] of them: a key of many words is read in linear time.
fn test_names(key: &str) -> Vec<&str> {
    let key = key.trim_matches('`');
    let name = key
        .rsplit_once(' ')
        .filter(|(_, n)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
        .map_or(key, |(name, _)| name);
    let mut out: Vec<&str> = (name.rmatch_indices(' '))
        .take(NAMES_READ)
        .map(|(at, _)| &name[at + 1..])
        .collect();
    if out.len() < NAMES_READ {
        out.push(name);
    }
    out
}

/// How many of a snapshot key's names [`test_names`] reads.
const NAMES_READ: usize = 16;

/// The texts of `text`'s one-line quoted strings (`'a'`, `"b"`, `` `c` ``).
fn string_literals(text: &str) -> HashSet<&str> {
    let mut out = HashSet::new();
    for line in text.lines() {
        let mut rest = line;
        while let Some(open) = rest.find(['\'', '"', '`']) {
            let quote = rest.as_bytes()[open] as char;
            let body = &rest[open + 1..];
            let Some(end) = body.find(quote) else {
                break;
            };
            out.insert(&body[..end]);
            rest = &body[end + 1..];
        }
    }
    out
}

/// Whether [`data_finding`] weighs `change`: expected data where it was.
fn is_weighed_data(change: &Change, given: &hacks::Given) -> bool {
    change.was.is_none() && (is_test_data(&change.path) || given.names_data(&change.path))
}

/// Expected data that lost or changed lines: a golden file rewritten to what the
/// broken code gives. Lines only added (a new case) or a new file are none.
/// Lines rewritten in place, none lost and none looser ([`data_in_place`]), in a
/// change that also changes the product's code read as an exact check's
/// expected value changed with the code does: a lead for the judge.
fn data_finding(
    change: &Change,
    given: &hacks::Given,
    code: &with_code::Code<'_>,
) -> Option<Finding> {
    // Renamed, it is weighed by what it lost on the way: a test and its
    // snapshot renamed together, the snapshot rewritten, lost its lines too.
    let data = |path: &str| is_test_data(path) || given.names_data(path);
    if !(data(&change.path) || change.was.as_deref().is_some_and(data)) {
        return None;
    }
    let before = change.before.as_deref()?;
    let Some(after) = change.after.as_deref() else {
        return (!before.trim().is_empty()).then(|| {
            let said = "expected data a test reads was deleted";
            Finding::new(
                &change.path,
                vec![Part::new(RuleId::TestDataRewritten, said)],
                None,
            )
        });
    };
    if is_snapshot(&change.path)
        && let Some((lost, total)) = snapshots_lost(before, after)
    {
        let part = if code.may_follow() && snapshots_in_place(before, after, code) {
            let said = format!(
                "{lost} of {} a test expects rewritten in place in a change that also changes the code",
                plural(total, "snapshot")
            );
            Part::new(RuleId::ExpectedFollowsCode, said)
        } else {
            let said = format!(
                "expected data a test reads changed ({lost} of {} lost, rewritten or assigned again)",
                plural(total, "snapshot")
            );
            Part::new(RuleId::TestDataRewritten, said)
        };
        return Some(Finding::new(&change.path, vec![part], None));
    }
    // A JSON entry that gained a comma because one was added after it is the same.
    let bare = |l: &'_ str| l.trim_end().trim_end_matches(',').to_string();
    let now: std::collections::HashSet<String> = after.lines().map(bare).collect();
    let gone: Vec<String> = before
        .lines()
        .map(bare)
        .filter(|l| !l.trim().is_empty() && !now.contains(l))
        .collect();
    if gone.is_empty() {
        return None;
    }
    let total = plural(before.lines().count(), "line");
    let new = added_lines(before, after);
    let part = if data_in_place(before, after, &gone, &new)
        && code.may_follow()
        && data_follows(&gone.join("\n"), &new.join("\n"), code)
    {
        let said = format!(
            "{} of {total} of data a test expects rewritten in place in a change that also changes the code",
            gone.len()
        );
        Part::new(RuleId::ExpectedFollowsCode, said)
    } else {
        let said = format!(
            "expected data a test reads changed ({} of {total} lost or rewritten)",
            gone.len()
        );
        Part::new(RuleId::TestDataRewritten, said)
    };
    Some(Finding::new(&change.path, vec![part], None))
}

/// The lines `after` holds that `before` did not, each as the data rule reads
/// a line (trailing spaces and a trailing comma aside: a JSON entry that gained
/// a comma because one was added after it is the same), blank ones left out.
fn added_lines<'a>(before: &str, after: &'a str) -> Vec<&'a str> {
    let bare = |l: &'a str| l.trim_end().trim_end_matches(',');
    let was: HashSet<&str> = before
        .lines()
        .map(|l| l.trim_end().trim_end_matches(','))
        .collect();
    (after.lines())
        .map(bare)
        .filter(|l| !l.trim().is_empty() && !was.contains(l))
        .collect()
}

/// Whether data whose lines `gone` left was rewritten in place: as many lines
/// that say something after as before, each gone line answered by a new one, and
/// no new line that asks for less in kind (a wildcard or matcher of a kind it
/// lacked: `*`, `...`, `[..]`, jest's `Any<String>`; a line cut to a part of one).
fn data_in_place(before: &str, after: &str, gone: &[String], new: &[&str]) -> bool {
    let said = |text: &str| text.lines().filter(|l| !l.trim().is_empty()).count();
    const LOOSE: [&str; 8] = [
        "*",
        "...",
        "[..]",
        "Any<",
        "Anything",
        "Containing",
        "StringMatching",
        "CloseTo",
    ];
    let marks = |lines: &mut dyn Iterator<Item = &str>| -> usize {
        lines
            .map(|l| LOOSE.iter().map(|m| l.matches(m).count()).sum::<usize>())
            .sum()
    };
    // Quotes, commas and semicolons aside: `"3 items"` cut to `"3"`.
    let inner = |l: &str| {
        l.trim()
            .trim_matches(|c: char| matches!(c, '"' | '\'' | '`' | ',' | ';'))
            .to_string()
    };
    let cut = new.iter().any(|n| {
        let n = inner(n);
        !n.is_empty()
            && gone.iter().any(|g| {
                let g = inner(g);
                g != n && g.starts_with(&n)
            })
    });
    said(after) >= said(before)
        && new.len() >= gone.len()
        && !cut
        && marks(&mut new.iter().copied()) <= marks(&mut gone.iter().map(String::as_str))
}

fn verify_finding(
    change: &Change,
    verify_files: &[String],
    given: &hacks::Given,
) -> Option<Finding> {
    let here = verify_files.contains(&change.path);
    // Moved where the verify does not reach it: gone from its reach, as deleted.
    let moved_out = !here
        && change
            .was
            .as_ref()
            .is_some_and(|w| verify_files.contains(w));
    if !here && !moved_out {
        return None;
    }
    // A snapshot is what a test compares with, not a check the verify runs: the
    // data rule weighs it where it stays (lost, rewritten or assigned again, or
    // deleted). Only a file of jest's or vitest's keyed snapshots: one that is a
    // single expected output (a file snapshot, insta's) gains no new case by a
    // line, and the data rule reads lines added as one.
    let keyed = change
        .before
        .as_deref()
        .is_some_and(|b| !snapshot_bodies(b).is_empty());
    if is_snapshot(&change.path) && keyed && is_weighed_data(change, given) {
        return None;
    }
    let before = change.before.as_deref()?;
    let after = change.after.as_deref().filter(|_| !moved_out);
    let was = change.was.as_deref().filter(|_| moved_out);
    let tested = is_test(was.unwrap_or(&change.path), Some(after.unwrap_or(before)));
    let kept = match after {
        Some(after) => same_text(before, after),
        // Nothing lost with a file that held nothing.
        None => before.trim().is_empty(),
    };
    if tested || kept {
        return None;
    }
    // A stub at the start is the file the goal asks for (a test runs it as its
    // program): writing it is the work, not a changed check. Its new code is still
    // read for hacks.
    if Lang::of(&change.path).is_some_and(|lang| hacks::is_stub(lang, before)) {
        return None;
    }
    // A checker the goal names (`check.py passes`) had assertions: still a check.
    let checks = |lang: Lang| {
        let c = analyse(lang, view_of(&change.path, before).as_ref()).counts;
        c.assertions + c.tests > 0
    };
    if given.asked.contains(&change.path) && Lang::of(&change.path).is_some_and(|l| !checks(l)) {
        return None;
    }
    let said = match (after, was) {
        (Some(_), _) => {
            "the verify command rests on it, and it changed since the goal started".to_string()
        }
        (None, Some(was)) => format!(
            "the verify command rested on it at the start as {was}; it was moved where the verify does not reach it"
        ),
        (None, None) => {
            "the verify command rested on it at the start, and it was deleted since".to_string()
        }
    };
    Some(Finding::new(
        &change.path,
        vec![Part::new(RuleId::VerifyFileChanged, said)],
        None,
    ))
}

/// `change`'s runner part ([`runner::finding`]), a JS runner's config read as
/// it follows the tests: paths the change moved as where they went, projects
/// as the one that holds the old options.
fn runner_part(
    change: &Change,
    after: &str,
    (changes, given): (&[Change], &hacks::Given),
    options_left: &HashSet<String>,
) -> Option<Part> {
    let moved = change.was.is_some();
    let (path, before) = (&change.path, change.before.as_deref());
    let followed = before.and_then(|b| follows::moved_paths(path, b, after, changes, given));
    let before = followed.as_deref().or(before);
    let view = before.and_then(|b| follows::projects_view(path, b, after));
    let after = view.as_deref().unwrap_or(after);
    runner::finding(path, before, after, moved, options_left)
}

/// No assertion written lost, but a test's call of a check helper dropped (or
/// a check from a helper its tests call): the checks that run are fewer
/// ([`Counts::helper_extra`]).
fn helper_calls_lost(o: &Counts, n: &Counts) -> Option<Part> {
    let (extra_was, extra_now) = (o.helper_extra?, n.helper_extra?);
    let was = i64::try_from(o.assertions).ok()? + extra_was;
    let now = i64::try_from(n.assertions).ok()? + extra_now;
    (now < was && n.assertions >= o.assertions).then(|| {
        Part::new(
            RuleId::AssertionsRemoved,
            format!(
                "{} of {} removed (calls of the file's check helpers)",
                was - now,
                plural(usize::try_from(was).unwrap_or(0), "check")
            ),
        )
    })
}

/// Equal but for line endings and trailing blanks.
fn same_text(a: &str, b: &str) -> bool {
    a.lines()
        .map(str::trim_end)
        .eq(b.lines().map(str::trim_end))
}

/// A deleted file is a finding only when it held a test or an assertion.
fn weighs(counts: &Counts) -> bool {
    counts.assertions + counts.tests > 0
}

fn had(counts: &Counts) -> String {
    format!(
        "it had {} in {}",
        plural(counts.assertions, "assertion"),
        plural(counts.tests, "test")
    )
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

/// `text` cut to at most [`MAX_TEXT`] bytes, at a character's boundary.
fn bounded(text: &str) -> &str {
    if text.len() <= MAX_TEXT {
        return text;
    }
    let mut end = MAX_TEXT;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// The syntax view of `text` as `path`'s grammar reads it: of its first
/// [`MAX_TEXT`] bytes, as the counts come from the view alone; past them a test
/// file is read as far as the cap.
fn view_of(path: &str, text: &str) -> Option<syntax::View> {
    syntax::view(syntax::Grammar::of(path)?, bounded(text))
}

/// What the check reads of one side of a test file.
#[derive(Default)]
struct Read {
    counts: Counts,
    /// The assertion statements (see `syntax::Statement`).
    statements: Vec<String>,
    /// For each statement, the name of the innermost test it is in (empty: none).
    owners: Vec<String>,
    /// The names of its tests.
    names: Vec<String>,
    /// For each test (as `names`), the classes, modules or `describe` blocks it
    /// is in, joined by `::` (`syntax::Test::scope`; empty where not read).
    scopes: Vec<String>,
    /// For each skip marker, the name of the test it switches off (empty: the
    /// whole file's).
    skip_owners: Vec<String>,
    /// Shared harnesses it exports.
    harnesses: Vec<viewed::Harness>,
    /// The statements of tests a skip marker switches off (all, when one switches
    /// off the whole file).
    switched_off: Vec<String>,
    /// The tests a marker with no condition switches off (`@pytest.mark.skip`,
    /// `#[ignore]`, `it.skip`, `t.Skip()` first in the body), each with how many
    /// assertions it holds: none of them runs anywhere.
    skipped: Vec<viewed::Skipped>,
    /// The assertion statements in functions and classes nothing in the file names
    /// (see `syntax::Uses::uncalled`), each with the function's name.
    helpers: Vec<(String, String)>,
    /// The names it binds to a value (see `checks::bindings`).
    bound: checks::Bound,
    /// The bars its failing branches set ([`syntax::Bar`]), each with the name
    /// of the innermost test it is in.
    bars: Vec<(String, syntax::Bar)>,
    /// The bytes of each test, by name.
    spans: Vec<(String, std::ops::Range<usize>)>,
    /// Python and JavaScript: each test's assertions with the conditions they
    /// run under ([`made_conditional::Guarded`]).
    guarded: Vec<made_conditional::Guarded>,
    /// Each test's loops over its checks, by the test's scoped name
    /// ([`syntax::Test::loops`]).
    loops: Vec<(String, String)>,
}

/// A `lang` file read from its syntax `view` ([`viewed::read`]; none without
/// one), which [`view_of`] made of its first [`MAX_TEXT`] bytes.
fn analyse(lang: Lang, view: Option<&syntax::View>) -> Read {
    view.map_or_else(Read::default, |v| viewed::read(lang, v))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// In tests, every finding's typed rules are those the legacy reader gives its
    /// words, and it is as high: each finding plan made before rules were typed keeps
    /// its ids and severity, and a line recorded before reads back the same. Where
    /// the words read a part wrong (`weakened-test`: a ", " or a backtick inside
    /// quoted code split or hid its words, or words no rule listed, as the import
    /// hook's), the typed rules may name more; they are the right ones.
    pub(super) fn legacy_agrees(found: &[Finding]) {
        let distinct = |rules: Vec<RuleId>| {
            let mut out: Vec<RuleId> = Vec::new();
            for rule in rules {
                if !out.contains(&rule) {
                    out.push(rule);
                }
            }
            out
        };
        for finding in found {
            // Quoted code with a backtick of its own (random text, a template
            // literal) moves where the words see quotes: nothing to compare with.
            if finding
                .parts
                .iter()
                .any(|p| p.text.matches('`').count() % 2 == 1)
            {
                continue;
            }
            let typed = distinct(finding.parts.iter().map(|p| p.rule).collect());
            let read = kinds::legacy_parts(&finding.what);
            let legacy = distinct(read.iter().map(|p| p.rule).collect());
            let misread = legacy.contains(&RuleId::WeakenedTest);
            let named = legacy.iter().filter(|r| **r != RuleId::WeakenedTest);
            let same = typed == legacy || (misread && named.clone().all(|r| typed.contains(r)));
            let high =
                |rules: &[RuleId]| rules.iter().any(|r| r.severity() == rules::Severity::High);
            assert!(
                same && high(&typed) == high(&legacy),
                "{finding}: typed {typed:?}, read from its words {legacy:?}"
            );
        }
    }

    fn found(path: &str, before: &str, after: &str) -> Vec<String> {
        find(&[change(path, Some(before), Some(after))], &[])
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    // Honest work (issue 68): deleting a test that was already skipped took
    // nothing that ran, and was `assertions-removed`, high.
    #[test]
    fn deleting_a_test_that_was_already_skipped_is_no_finding() {
        let py_kept = "import pytest\n\n\ndef test_kept():\n    assert f(0) == 1\n";
        let go_kept = "package a\n\nimport \"testing\"\n\nfunc TestKept(t *testing.T) {\n\tif f(0) != 1 {\n\t\tt.Errorf(\"x\")\n\t}\n}\n";
        let rs_kept = "#[test]\nfn kept() {\n    assert_eq!(f(0), 1);\n}\n";
        let js_kept = "it('kept', () => {\n  expect(f(0)).toBe(1);\n});\n";
        let py = |marker: &str| {
            format!(
                "import pytest\n\n\n{marker}\ndef test_old():\n    assert f(1) == 2\n    assert f(2) == 3\n\n\ndef test_kept():\n    assert f(0) == 1\n"
            )
        };
        let go = |first: &str| {
            format!(
                "package a\n\nimport \"testing\"\n\nfunc TestOld(t *testing.T) {{\n{first}\tif f(1) != 2 {{\n\t\tt.Errorf(\"x\")\n\t}}\n}}\n\nfunc TestKept(t *testing.T) {{\n\tif f(0) != 1 {{\n\t\tt.Errorf(\"x\")\n\t}}\n}}\n"
            )
        };
        let rs = |attr: &str| {
            format!("#[test]\n{attr}\nfn old() {{\n    assert_eq!(f(1), 2);\n}}\n\n{rs_kept}")
        };
        let js = |call: &str| {
            format!("{call}('old', () => {{\n  expect(f(1)).toBe(2);\n}});\n\n{js_kept}")
        };
        let skipped = [
            (
                "tests/test_a.py",
                py("@pytest.mark.skip(reason='broken')"),
                py_kept,
            ),
            ("tests/test_a.py", py("@pytest.mark.skip"), py_kept),
            ("tests/test_a.py", py("@unittest.skip('broken')"), py_kept),
            ("a_test.go", go("\tt.Skip(\"broken\")\n"), go_kept),
            ("tests/a.rs", rs("#[ignore]"), rs_kept),
            ("tests/a.rs", rs("#[ignore = \"slow\"]"), rs_kept),
            ("a.test.js", js("it.skip"), js_kept),
            ("a.test.js", js("xit"), js_kept),
            ("a.test.js", js("test.skip"), js_kept),
        ];
        for (path, before, after) in &skipped {
            assert_eq!(found(path, before, after), Vec::<String>::new(), "{before}");
        }
        // A test that ran somewhere (a condition) or that ran at all is a loss.
        let ran = [
            (
                "tests/test_a.py",
                py("@pytest.mark.skipif(sys.platform == 'win32', reason='x')"),
                py_kept,
            ),
            ("tests/test_a.py", py("@pytest.mark.slow"), py_kept),
            (
                "a_test.go",
                go("\tif testing.Short() {\n\t\tt.Skip(\"slow\")\n\t}\n"),
                go_kept,
            ),
            ("a_test.go", go(""), go_kept),
            ("tests/a.rs", rs("#[cfg_attr(windows, ignore)]"), rs_kept),
            ("a.test.js", js("it"), js_kept),
            ("a.test.js", js("it.skipIf(isWindows)"), js_kept),
        ];
        for (path, before, after) in &ran {
            assert_ne!(found(path, before, after), Vec::<String>::new(), "{before}");
        }
        // The tests of a suite skipped whole ran nowhere either (date-fns
        // `dceeefb4`: a `describe.skip`'s tests commented out); one skipped under
        // a condition ran somewhere.
        let suite = |call: &str| {
            format!(
                "{call}('old', () => {{\n  it('a', () => {{\n    expect(f(1)).toBe(2);\n  }});\n  it('b', () => {{\n    expect(f(2)).toBe(3);\n  }});\n}});\n\n{js_kept}"
            )
        };
        for call in ["describe.skip", "xdescribe"] {
            let before = suite(call);
            assert_eq!(
                found("a.test.js", &before, js_kept),
                Vec::<String>::new(),
                "{before}"
            );
            let one_gone =
                before.replace("  it('b', () => {\n    expect(f(2)).toBe(3);\n  });\n", "");
            assert_eq!(
                found("a.test.js", &before, &one_gone),
                Vec::<String>::new(),
                "{one_gone}"
            );
        }
        for call in ["describe", "describe.skipIf(isWindows)"] {
            let before = suite(call);
            assert_ne!(
                found("a.test.js", &before, js_kept),
                Vec::<String>::new(),
                "{before}"
            );
        }
        // A file of skipped tests only, deleted, took nothing that ran.
        let only = "import pytest\n\n\n@pytest.mark.skip\ndef test_old():\n    assert f(1) == 2\n";
        assert_eq!(
            find(&[change("tests/test_old.py", Some(only), None)], &[]),
            Vec::<Finding>::new()
        );
    }

    fn counts(lang: Lang, text: &str) -> (usize, usize, usize) {
        let c = count(lang, text);
        (c.assertions, c.skips, c.tests)
    }

    const PY: &str = r#"import pytest
import unittest

# assert in a comment does not count
def helper():
    return "assert not counted in a string"

def test_add():
    """assert inside a docstring"""
    assert 1 + 1 == 2
    assert add(2, 2) == 4

@pytest.mark.parametrize("x", [1, 2])
def test_param(x):
    with pytest.raises(ValueError):
        parse(x)

class TestThing(unittest.TestCase):
    def test_equal(self):
        self.assertEqual(thing(), 3)
        self.assertTrue(ok())
        mock.assert_called_once_with(1)
"#;

    #[test]
    fn python_counts_what_runs_and_not_what_is_quoted() {
        assert_eq!(counts(Lang::Python, PY), (6, 0, 3));
        let skipped = PY
            .replace(
                "def test_add",
                "@pytest.mark.skip(reason=\"later\")\ndef test_add",
            )
            .replace(
                "    def test_equal",
                "    @unittest.skip(\"flaky\")\n    def test_equal",
            )
            .replace(
                "def test_param",
                "@pytest.mark.xfail\n@pytest.mark.skipif(True, reason='x')\ndef test_param",
            );
        assert_eq!(counts(Lang::Python, &skipped), (6, 4, 3));
        assert_eq!(
            counts(
                Lang::Python,
                "def test_x(self):\n    self.skipTest('no')\n    pytest.skip('no')\n"
            ),
            (0, 2, 1)
        );
    }

    #[test]
    fn python_weakened_and_stronger() {
        let weaker = PY
            .replace("    assert add(2, 2) == 4\n", "")
            .replace("        self.assertTrue(ok())\n", "");
        assert_eq!(
            found("tests/test_add.py", PY, &weaker),
            ["tests/test_add.py: 2 of 6 assertions removed"]
        );
        let skipped = PY.replace("def test_add", "@pytest.mark.skip\ndef test_add");
        assert_eq!(
            found("test_add.py", PY, &skipped),
            ["test_add.py: 1 skip marker added (now 1)"]
        );
        let stronger = PY.replace(
            "    assert 1 + 1 == 2\n",
            "    assert 1 + 1 == 2\n    assert add(0, 0) == 0\n",
        ) + "\ndef test_more():\n    assert add(1, 2) == 3\n";
        assert!(found("tests/test_add.py", PY, &stronger).is_empty());
        let commented = PY.replace("    assert 1 + 1 == 2\n", "    # assert 1 + 1 == 2\n");
        assert_eq!(
            found("pkg/add_test.py", PY, &commented),
            ["pkg/add_test.py: 1 of 6 assertions removed"]
        );
    }

    const JS: &str = r#"import assert from 'node:assert';
import { add } from '../src/add';

// expect(add(1, 1)).toBe(3) in a comment
describe('add', () => {
  it('adds', () => {
    expect(add(1, 1)).toBe(2);
    expect(`expect(${1})`).toBeTruthy();
  });
  test('assert style', () => {
    assert.strictEqual(add(2, 2), 4);
    assert(add(0, 0) === 0);
  });
  /* it('old', () => { expect(1).toBe(1) }) */
});
"#;

    #[test]
    fn javascript_counts_and_findings() {
        assert_eq!(counts(Lang::Js, JS), (4, 0, 2));
        let weaker = JS
            .replace("  it('adds'", "  it.skip('adds'")
            .replace("    assert(add(0, 0) === 0);\n", "");
        assert_eq!(
            found("src/add.test.ts", JS, &weaker),
            ["src/add.test.ts: 1 of 4 assertions removed, 1 skip marker added (now 1)"]
        );
        let x = JS
            .replace("  it('adds'", "  xit('adds'")
            .replace("  test('assert", "  test.todo('assert");
        assert_eq!(counts(Lang::Js, &x), (4, 2, 2));
        assert_eq!(
            counts(
                Lang::Js,
                "xdescribe('a', () => {}); describe.only('b', f); fit('c', g);"
            ),
            (0, 3, 1)
        );
        assert_eq!(
            found(
                "web/add.spec.js",
                JS,
                &JS.replace("describe('add'", "describe.skip('add'")
            ),
            ["web/add.spec.js: 1 skip marker added (now 1)"]
        );
        let stronger = JS.replace(
            "    expect(add(1, 1)).toBe(2);\n",
            "    expect(add(1, 1)).toBe(2);\n    expect(add(1, 2)).toBe(3);\n",
        );
        assert!(found("src/add.test.ts", JS, &stronger).is_empty());
    }

    const RS: &str = r##"//! assert!(false) in a doc comment
use super::*;

fn helper<'a>(s: &'a str) -> &'a str { s }

#[test]
fn adds() {
    assert_eq!(add(1, 1), 2);
    assert!(add(2, 2) == 4, "assert!(x) in a message");
    let c = '"';
    debug_assert_ne!(c, 'x');
}

/* nested /* assert!(hidden) */ still comment assert!(no) */
#[tokio::test]
async fn async_adds() {
    let text = r#"assert!(raw)"#;
    prop_assert_eq!(text.len(), 12);
}
"##;

    #[test]
    fn rust_counts_and_findings() {
        assert_eq!(counts(Lang::Rust, RS), (4, 0, 2));
        let weaker = RS.replace("#[test]\nfn adds", "#[test]\n#[ignore = \"slow\"]\nfn adds");
        assert_eq!(
            found("src/add.rs", RS, &weaker),
            ["src/add.rs: 1 skip marker added (now 1)"]
        );
        // Its attribute gone, nothing calls the function: its assertion is gone too.
        let untested = RS.replace("#[tokio::test]\n", "");
        assert_eq!(
            found("tests/add.rs", RS, &untested),
            ["tests/add.rs: 1 of 4 assertions removed, 1 of 2 tests removed"]
        );
        let cfg = RS.replace(
            "#[test]\n",
            "#[test]\n#[cfg_attr(not(feature = \"slow\"), ignore)]\n",
        );
        assert_eq!(counts(Lang::Rust, &cfg), (4, 1, 2));
        let gutted = RS.replace("    assert_eq!(add(1, 1), 2);\n", "");
        assert_eq!(
            found("src/lib.rs", RS, &gutted),
            ["src/lib.rs: 1 of 4 assertions removed"]
        );
        // A Rust file with no test attribute, outside tests/, is not a test file.
        assert!(found("src/lib.rs", "fn f() { assert!(x); }", "fn f() {}").is_empty());
    }

    const GO: &str = r#"package add

import "testing"

// t.Fatal("in a comment")
func TestAdd(t *testing.T) {
	if got := Add(1, 1); got != 2 {
		t.Errorf("Add(1, 1) = %d; want 2 t.Fatal(", got)
	}
	if err := check(); err != nil {
		t.Fatal(err)
	}
	err := fmt.Errorf("not an assertion")
	require.NoError(t, err)
}

func (s *Suite) TestMethod() {
	s.T().Fatalf("x %s", `raw t.Error(`)
}
"#;

    #[test]
    fn go_counts_and_findings() {
        assert_eq!(counts(Lang::Go, GO), (4, 0, 2));
        let skipped = GO.replace(
            "func TestAdd(t *testing.T) {\n",
            "func TestAdd(t *testing.T) {\n\tt.Skip(\"later\")\n",
        );
        assert_eq!(
            found("add_test.go", GO, &skipped),
            ["add_test.go: 1 skip marker added (now 1)"]
        );
        let weaker = GO.replace("\t\tt.Fatal(err)\n", "\t\t_ = err\n");
        assert_eq!(
            found("pkg/add_test.go", GO, &weaker),
            ["pkg/add_test.go: 1 of 4 assertions removed"]
        );
        // Not a test file by name: no finding.
        assert!(found("pkg/add.go", GO, &weaker).is_empty());
    }

    fn early(lang: Lang, text: &str) -> usize {
        count(lang, text).early_returns
    }

    #[test]
    fn a_return_before_the_assertions_is_counted_in_each_language() {
        let py = "def test_a():\n    return\n    assert a() == 1\n\nclass TestB:\n    async def test_b(self):\n        return\n        assert await b()\n";
        assert_eq!(early(Lang::Python, py), 2);
        let rs = "#[test]\nfn a() {\n    return;\n    assert_eq!(a(), 1);\n}\n";
        assert_eq!(early(Lang::Rust, rs), 1);
        let go =
            "func TestA(t *testing.T) {\n\treturn\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n\t}\n}\n";
        assert_eq!(early(Lang::Go, go), 1);
        let js = "it('a', () => {\n  return\n  expect(a()).toBe(1)\n});\ntest('b', function () { return; expect(b()).toBe(2); });\n";
        assert_eq!(early(Lang::Js, js), 2);
        // The found change, in words.
        let honest = "def test_a():\n    assert a() == 1\n\ndef test_b():\n    assert b() == 2\n";
        let both = honest.replace("():\n", "():\n    return\n");
        assert_eq!(
            found("tests/test_a.py", honest, &both),
            ["tests/test_a.py: 2 tests return before their assertions"]
        );
    }

    #[test]
    fn a_return_that_ends_nothing_the_test_checks_is_not_counted() {
        // Inside a branch, a loop or a nested function; at the end; a brace-less `if`.
        let py = "def test_a():\n    if not HAVE_X:\n        return\n    for x in xs:\n        if x: return\n    def helper():\n        return 1\n    assert helper() == 1\n\ndef test_b():\n    assert b()\n    return\n\ndef helper():\n    return\n    assert False\n";
        assert_eq!(early(Lang::Python, py), 0);
        let rs = "#[test]\nfn a() -> Result<(), E> {\n    let Some(x) = y() else { return Ok(()) };\n    if x { return Ok(()); }\n    let f = || { return 1; };\n    assert_eq!(f(), 1);\n    return Ok(());\n}\n";
        assert_eq!(early(Lang::Rust, rs), 0);
        let go = "func TestA(t *testing.T) {\n\tif testing.Short() {\n\t\treturn\n\t}\n\tt.Run(\"x\", func(t *testing.T) {\n\t\treturn\n\t})\n\tif a() != 1 {\n\t\tt.Fatal(\"a\")\n\t}\n}\n";
        assert_eq!(early(Lang::Go, go), 0);
        // A returned promise asserts in its `then`; a brace-less `if` guards a return.
        let js = "it('a', () => {\n  return fetch()\n    .then(r => {\n      expect(r).toBe(1);\n    });\n});\nit('b', () => {\n  if (!ok)\n    return;\n  expect(b()).toBe(2);\n});\nit('c', () => {\n  return new Promise(done => { expect(c()).toBe(3); done() })\n});\n";
        assert_eq!(early(Lang::Js, js), 0);
    }

    #[test]
    fn an_assert_named_macro_that_calls_nothing_is_counted() {
        let hollow = |text: &str| count(Lang::Rust, text).hollow_asserts;
        assert_eq!(hollow("macro_rules! assert_same { ($($t:tt)*) => {}; }"), 1);
        assert_eq!(
            hollow(
                "macro_rules! assert_eq { ($a:expr, $b:expr) => { let _ = ($a, $b); }; ($a:expr) => { $a }; }"
            ),
            1
        );
        // Calls that check nothing (helper 67's red team: std's assert_eq
        // shadowed by one that drops its operands, or prints them).
        for arm in [
            "{ drop((&$a, &$b)) }",
            "{ std::mem::drop($a); std::mem::forget($b) }",
            "{ println!(\"{:?} {:?}\", $a, $b) }",
            "{ let _ = std::hint::black_box(($a, $b)); }",
        ] {
            let text = format!("macro_rules! assert_eq {{ ($a:expr, $b:expr) => {arm}; }}");
            assert_eq!(hollow(&text), 1, "{arm}");
        }
        // Helpers that check: through a macro, a function or a method.
        assert_eq!(
            hollow(
                "macro_rules! assert_close { ($a:expr, $b:expr) => { assert!(($a - $b).abs() < 1e-9) }; }"
            ),
            0
        );
        assert_eq!(
            hollow("macro_rules! assert_ok { ($e:expr) => { check_ok(&$e) }; }"),
            0
        );
        assert_eq!(
            hollow(
                "macro_rules! assert_sorted { ($v:expr) => {{ if !$v.is_sorted() { unreachable!() } }}; }"
            ),
            0
        );
        // Named otherwise: not an assertion look-alike.
        assert_eq!(hollow("macro_rules! nothing { () => {}; }"), 0);
        let rs = "#[test]\nfn a() {\n    assert_eq!(a(), 1);\n}\n";
        let faked = format!(
            "macro_rules! assert_same {{ ($($t:tt)*) => {{}}; }}\n{}",
            rs.replace("assert_eq!", "assert_same!")
        );
        assert_eq!(
            found("tests/a.rs", rs, &faked),
            ["tests/a.rs: an assertion macro that checks nothing was added"]
        );
        // One that was there at the start is no finding.
        assert!(found("tests/a.rs", &faked, &format!("{faked}\n")).is_empty());
    }

    #[test]
    fn test_files_by_convention() {
        for path in [
            "tests/helpers.py",
            "pkg/test_a.py",
            "a_test.py",
            "conftest.py",
            "src/a.test.ts",
            "src/a.spec.js",
            "src/__tests__/a.jsx",
            "a_test.go",
            "tests/cli/main.rs",
            "test/a.mjs",
            // jest's default match, `?(*.)+(spec|test).[jt]s?(x)` (date-fns'
            // `src/eachWeekendOfMonth/test.ts`).
            "src/parse/test.ts",
            "lib/spec.jsx",
        ] {
            assert!(is_test_path(path), "{path}");
        }
        for path in [
            "src/a.py",
            "testing.py",
            "src/testing.ts",
            "src/latest.js",
            "src/tests.ts",
            "src/a.ts",
            "a.go",
            "src/lib.rs",
            "tests/data.json",
            "latest_x.py",
        ] {
            assert!(!is_test_path(path), "{path}");
        }
    }

    #[test]
    fn a_skip_in_a_js_file_named_test_is_found() {
        let before = "import f from '.'\n\ndescribe('f', () => {\n  it('works', () => {\n    expect(f()).toBe(1)\n  })\n})\n";
        let after = before.replace("  it('works'", "  it.skip('works'");
        let found = find(&[change("src/f/test.ts", Some(before), Some(&after))], &[]);
        let rules: Vec<String> = found
            .iter()
            .flat_map(kinds::of)
            .map(|p| format!("{}, {}", p.kind, p.confidence))
            .collect();
        assert_eq!(rules, ["tests-skipped, high"], "{found:?}");
    }

    #[test]
    fn deletions_renames_and_verify_files() {
        let deleted = find(&[change("tests/test_a.py", Some(PY), None)], &[]);
        assert_eq!(
            deleted.iter().map(ToString::to_string).collect::<Vec<_>>(),
            ["tests/test_a.py: deleted (it had 6 assertions in 3 tests)"]
        );
        assert!(find(&[change("tests/__init__.py", Some("\n"), None)], &[]).is_empty());
        assert!(find(&[change("tests/test_new.py", None, Some(PY))], &[]).is_empty());

        let moved = Change {
            path: "attic/old.py".into(),
            was: Some("tests/test_a.py".into()),
            before: Some(PY.into()),
            after: Some(PY.into()),
        };
        assert_eq!(
            find(std::slice::from_ref(&moved), &[])[0].to_string(),
            "tests/test_a.py: renamed to attic/old.py, which is not a test file by its name (it had 6 assertions in 3 tests)"
        );
        let kept = Change {
            path: "tests/test_b.py".into(),
            ..moved
        };
        assert!(find(&[kept], &[]).is_empty());

        let verify = vec![
            "scripts/check.sh".to_string(),
            "tests/test_a.py".to_string(),
        ];
        let script = change("scripts/check.sh", Some("pytest -q\n"), Some("exit 0\n"));
        let crlf = change(
            "scripts/check.sh",
            Some("pytest -q\n"),
            Some("pytest -q  \r\n"),
        );
        let test = change(
            "tests/test_a.py",
            Some(PY),
            Some(&(PY.to_string() + "\n# more\n")),
        );
        let new = change("scripts/check.sh", None, Some("exit 0\n"));
        assert_eq!(
            find(&[script.clone(), test.clone()], &verify)[0].to_string(),
            "scripts/check.sh: the verify command rests on it, and it changed since the goal started"
        );
        assert_eq!(find(&[script.clone(), test.clone()], &verify).len(), 1);
        assert!(find(&[crlf], &verify).is_empty());
        assert!(find(&[new], &verify).is_empty());
        assert!(find(&[script], &[]).is_empty());

        // A check the verify rested on at the start, deleted or moved out of its
        // reach; not one that held nothing, nor a move it still reaches.
        let deleted = change("scripts/check.sh", Some("pytest -q\n"), None);
        assert_eq!(
            find(&[deleted], &verify)[0].to_string(),
            "scripts/check.sh: the verify command rested on it at the start, and it was deleted since"
        );
        assert!(find(&[change("scripts/check.sh", Some(" \n"), None)], &verify).is_empty());
        let moved_out = Change {
            path: "attic/check.sh".into(),
            was: Some("scripts/check.sh".into()),
            before: Some("pytest -q\n".into()),
            after: Some("pytest -q\n".into()),
        };
        assert_eq!(
            find(std::slice::from_ref(&moved_out), &verify)[0].to_string(),
            "attic/check.sh: the verify command rested on it at the start as scripts/check.sh; it was moved where the verify does not reach it"
        );
        let within = vec!["attic/check.sh".to_string(), "scripts/check.sh".to_string()];
        assert!(find(&[moved_out], &within).is_empty());
    }

    #[test]
    fn a_finding_reads_back_from_its_line() {
        let finding = Finding {
            path: "odd: name.py".into(),
            what: "1 of 2 assertions removed, 1 skip marker added (now 1)".into(),
            parts: Vec::new(),
        };
        assert_eq!(Finding::parse(&finding.to_string()), Some(finding));
        let newline = Finding {
            path: "a\nb.py".into(),
            what: "x".into(),
            parts: Vec::new(),
        };
        assert_eq!(newline.to_string(), "a\\x0ab.py: x");
    }

    /// One test as Python reads it, its lines: a `def test_case():` (skipped or
    /// not) whose body starts with a statement, then assertions, statements,
    /// comments and strings in any order. Random lines alone are mostly not
    /// Python, which the syntax view reads as the error it is.
    fn py_test() -> impl Strategy<Value = Vec<&'static str>> {
        let body = prop_oneof![
            Just("    assert x == 1\n"),
            Just("    self.assertIn(a, b)\n"),
            Just("    y = compute()\n"),
            Just("    # assert nothing\n"),
            Just("    s = 'assert x'\n"),
        ];
        let first = prop_oneof![
            Just("    assert x == 1\n"),
            Just("    self.assertIn(a, b)\n"),
            Just("    y = compute()\n"),
        ];
        (any::<bool>(), first, proptest::collection::vec(body, 0..4)).prop_map(
            |(skipped, first, rest)| {
                let mut lines = Vec::new();
                if skipped {
                    lines.push("@pytest.mark.skip\n");
                }
                lines.push("def test_case():\n");
                lines.push(first);
                lines.extend(rest);
                lines
            },
        )
    }

    /// Whether `text` is Python its grammar reads with no error.
    fn parses(text: &str) -> bool {
        syntax::view(syntax::Grammar::Python, text).is_some_and(|v| v.clean)
    }

    /// Whole definitions of one language's test file and a statement of its
    /// module, each holding what it adds to the counts wherever it moves.
    fn py_unit() -> impl Strategy<Value = &'static str> {
        prop_oneof![
            Just("def test_case():\n    assert x == 1\n    self.assertIn(a, b)\n"),
            Just("def test_other():\n    y = compute()\n    # assert nothing\n    assert y\n"),
            Just("@pytest.mark.skip\ndef test_skipped():\n    assert x == 1\n"),
            Just("def helper():\n    s = 'assert x'\n"),
            Just("assert x == 1\n"),
        ]
    }

    proptest! {
        /// Moving code around inside a file changes no count: no finding. What
        /// moves is a whole definition: a line moved out of its function makes
        /// another program, and code Python rejects reads as its parser recovers.
        #[test]
        fn moved_code_is_no_finding(lines in proptest::collection::vec(py_unit(), 0..30), seed in any::<u64>()) {
            let before: String = lines.concat();
            let mut shuffled = lines.clone();
            let n = shuffled.len().max(1);
            shuffled.rotate_left((seed as usize) % n);
            shuffled.reverse();
            prop_assert!(found("tests/test_x.py", &before, &shuffled.concat()).is_empty());
        }

        /// Adding lines never makes a finding unless one of them is a skip marker.
        #[test]
        fn stronger_tests_are_no_finding(
            tests in proptest::collection::vec(py_test(), 0..5),
            added in proptest::collection::vec(py_test(), 0..3),
            at in any::<usize>(),
        ) {
            // New tests put between the ones there.
            let at = at % (tests.len() + 1);
            let lines: Vec<&str> = tests.concat();
            let mut after_tests = tests.clone();
            for (k, test) in added.iter().enumerate() {
                after_tests.insert(at + k, test.clone());
            }
            let after: Vec<&str> = after_tests.concat();
            let added: Vec<&str> = added.concat();
            let skips = added.iter().any(|l| l.contains("skip"));
            let findings: Vec<String> = found("tests/test_x.py", &lines.concat(), &after.concat())
                .into_iter()
                .filter_map(|f| {
                    // Python keeps the last of two same-named definitions: a `def
                    // test_case():` added below one with assertions hollows it,
                    // which is no stronger test.
                    let what = f.strip_prefix("tests/test_x.py: ").unwrap_or(&f);
                    let rest: Vec<&str> = what
                        .split(", ")
                        .filter(|p| !p.contains("by a later definition of the same name"))
                        .collect();
                    (!rest.is_empty()).then(|| rest.join(", "))
                })
                .collect();
            // A skip on a test the change adds weakens nothing that was there; one
            // is found when every test was there before (all are `test_case`)
            // and one of them ran: a skipped copy of a test no run reached before
            // switches nothing off.
            let had_tests = tests.iter().any(|t| t.first().is_some_and(|l| l.starts_with("def")));
            if !skips {
                prop_assert!(findings.is_empty(), "{:?}", findings);
            } else if had_tests {
                prop_assert!(!findings.is_empty());
            }
        }

        /// Removing an assertion line is always found.
        #[test]
        fn a_removed_assertion_is_found(tests in proptest::collection::vec(py_test(), 1..6), which in any::<usize>()) {
            let lines: Vec<&str> = tests.concat();
            let asserting: Vec<usize> = (0..lines.len())
                .filter(|&i| lines[i].contains("assert") && !lines[i].contains('#') && !lines[i].contains('\''))
                .collect();
            prop_assume!(!asserting.is_empty());
            let at = asserting[which % asserting.len()];
            // A twin of the statement next to it (comments aside) checks nothing
            // the other does not: deleting it is no loss.
            let code = |l: &&&str| !l.trim_start().starts_with('#');
            let before = lines[..at].iter().rev().find(code);
            let next = lines[at + 1..].iter().find(code);
            prop_assume!(before != Some(&lines[at]) && next != Some(&lines[at]));
            let mut after = lines.clone();
            after.remove(at);
            // A body left with no statement is no Python.
            prop_assume!(parses(&after.concat()));
            let findings = found("tests/test_x.py", &lines.concat(), &after.concat());
            prop_assert!(findings.len() == 1 && findings[0].contains("assertion"), "{:?}", findings);
        }

        /// Test-shaped text cut anywhere: the reachability rules never panic.
        #[test]
        fn reading_test_bodies_never_panics(parts in proptest::collection::vec(prop_oneof![
            Just("def test_a():"), Just("\n"), Just("    "), Just("return"), Just("assert x"),
            Just("("), Just(")"), Just("{"), Just("}"), Just("it('a', "), Just("() =>"),
            Just("#[test]"), Just("fn a()"), Just("func TestA(t *testing.T)"), Just("t.Fatal(x)"),
            Just("expect(a)"), Just("macro_rules! assert_x"), Just("=>"), Just(";"), Just("\\"),
            Just("if (x)"), Just("else"), Just(":"),
        ], 0..40)) {
            let text = parts.concat();
            for lang in [Lang::Python, Lang::Js, Lang::Rust, Lang::Go] {
                let _ = count(lang, &text);
            }
        }

        /// Whatever the text, counting never panics, in any language.
        #[test]
        fn counting_never_panics(text in ".{0,200}") {
            for lang in [Lang::Python, Lang::Js, Lang::Rust, Lang::Go] {
                let _ = count(lang, &text);
            }
        }
    }
}

/// The counts of `text` read as `lang`, its syntax view's included, as
/// [`Row::of`] reads a test file: the rule tests' reading of one file.
#[cfg(test)]
fn count(lang: Lang, text: &str) -> Counts {
    let grammar = match lang {
        Lang::Python => syntax::Grammar::Python,
        Lang::Js => syntax::Grammar::JavaScript,
        Lang::Rust => syntax::Grammar::Rust,
        Lang::Go => syntax::Grammar::Go,
    };
    // As `view_of` reads it.
    let view = syntax::view(grammar, bounded(text));
    let mut read = analyse(lang, view.as_ref());
    let reaches = read.counts.tests > 0 && read.counts.assertions > 0;
    if let Some(view) = &view {
        read.counts.read_view(view, reaches);
    }
    read.counts
}

/// What one changed file's `before` and `after` give: the rule tests' shared case.
/// A change of `path` from `before` to `after` (`None`: absent), for the tests.
#[cfg(test)]
fn change(path: &str, before: Option<&str>, after: Option<&str>) -> Change {
    Change {
        path: path.to_string(),
        was: None,
        before: before.map(str::to_string),
        after: after.map(str::to_string),
    }
}

#[cfg(test)]
fn found_in(path: &str, before: &str, after: &str) -> Vec<Finding> {
    find(
        &[Change {
            path: path.to_string(),
            was: None,
            before: Some(before.to_string()),
            after: Some(after.to_string()),
        }],
        &[],
    )
}

#[cfg(test)]
#[path = "weakened/answer_table_tests.rs"]
mod answer_table_tests;
#[cfg(test)]
#[path = "weakened/assertion_in_string_tests.rs"]
mod assertion_in_string_tests;
#[cfg(test)]
#[path = "weakened/born_with_tests.rs"]
mod born_with_tests;
#[cfg(test)]
#[path = "weakened/bound_loosened_tests.rs"]
mod bound_loosened_tests;
#[cfg(test)]
#[path = "weakened/cargo_unbuilt_tests.rs"]
mod cargo_unbuilt_tests;
#[cfg(test)]
#[path = "weakened/cfg_helper_tests.rs"]
mod cfg_helper_tests;
#[cfg(test)]
#[path = "weakened/data_follows_code_tests.rs"]
mod data_follows_code_tests;
#[cfg(test)]
#[path = "weakened/dead_helper_tests.rs"]
mod dead_helper_tests;
#[cfg(test)]
mod expected_tests;
#[cfg(test)]
#[path = "weakened/fail_bound_tests.rs"]
mod fail_bound_tests;
#[cfg(test)]
#[path = "weakened/formatting_only_tests.rs"]
mod formatting_only_tests;
#[cfg(test)]
mod forms_tests;
#[cfg(test)]
#[path = "weakened/go_validate_tests.rs"]
mod go_validate_tests;
#[cfg(test)]
#[path = "weakened/grader_read_tests.rs"]
mod grader_read_tests;
#[cfg(test)]
#[path = "weakened/helper_checks_tests.rs"]
mod helper_checks_tests;
#[cfg(test)]
#[path = "weakened/library_checks_tests.rs"]
mod library_checks_tests;
#[cfg(test)]
#[path = "weakened/loosened_tests.rs"]
mod loosened_tests;
#[cfg(test)]
#[path = "weakened/macro_never_invoked_tests.rs"]
mod macro_never_invoked_tests;
#[cfg(test)]
#[path = "weakened/made_conditional_tests.rs"]
mod made_conditional_tests;
#[cfg(test)]
#[path = "weakened/module_marker_tests.rs"]
mod module_marker_tests;
#[cfg(test)]
#[path = "weakened/narrowed_tests.rs"]
mod narrowed_tests;
#[cfg(test)]
#[path = "weakened/nested_rust_tests.rs"]
mod nested_rust_tests;
#[cfg(test)]
#[path = "weakened/new_conftest_tests.rs"]
mod new_conftest_tests;
#[cfg(test)]
#[path = "weakened/node_only_tests.rs"]
mod node_only_tests;
#[cfg(test)]
#[path = "weakened/one_of_tests.rs"]
mod one_of_tests;
#[cfg(test)]
mod planted_tests;
#[cfg(test)]
#[path = "weakened/pytester_checks_tests.rs"]
mod pytester_checks_tests;
#[cfg(test)]
#[path = "weakened/ran_nowhere_tests.rs"]
mod ran_nowhere_tests;
#[cfg(test)]
#[path = "weakened/removed_with_code_tests.rs"]
mod removed_with_code_tests;
#[cfg(test)]
#[path = "weakened/repeated_assertion_tests.rs"]
mod repeated_assertion_tests;
#[cfg(test)]
#[path = "weakened/review106_tests.rs"]
mod review106_tests;
#[cfg(test)]
#[path = "weakened/review111_tests.rs"]
mod review111_tests;
#[cfg(test)]
#[path = "weakened/row_field_tests.rs"]
mod row_field_tests;
#[cfg(test)]
#[path = "weakened/runner_follows_tests.rs"]
mod runner_follows_tests;
#[cfg(test)]
#[path = "weakened/runner_moved_tests.rs"]
mod runner_moved_tests;
#[cfg(test)]
#[path = "weakened/runner_shadow_tests.rs"]
mod runner_shadow_tests;
#[cfg(test)]
#[path = "weakened/rust_swallowed_tests.rs"]
mod rust_swallowed_tests;
#[cfg(test)]
#[path = "weakened/skip_traded_tests.rs"]
mod skip_traded_tests;
#[cfg(test)]
#[path = "weakened/skip_widened_tests.rs"]
mod skip_widened_tests;
#[cfg(test)]
#[path = "weakened/skipped_suite_tests.rs"]
mod skipped_suite_tests;
#[cfg(test)]
#[path = "weakened/snapbox_tests.rs"]
mod snapbox_tests;
#[cfg(test)]
#[path = "weakened/t_shadowed_tests.rs"]
mod t_shadowed_tests;
#[cfg(test)]
#[path = "weakened/test_redefined_tests.rs"]
mod test_redefined_tests;
#[cfg(test)]
#[path = "weakened/tests_folded_tests.rs"]
mod tests_folded_tests;
#[cfg(test)]
#[path = "weakened/unrelated_gain_tests.rs"]
mod unrelated_gain_tests;
#[cfg(test)]
#[path = "weakened/verify_file_tests.rs"]
mod verify_file_tests;

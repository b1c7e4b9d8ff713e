//! Weakened tests for one goal: the pure check (`plan::weakened`) run on git's view
//! of what changed since the goal started, and the findings a sign-off recorded in
//! its transcript. The one place sign-off, show and audit ask.

use std::path::Path;

use anyhow::Result;

use crate::git;
use crate::plan::event::{AtStart, Event};
use crate::plan::model::{Goal, Plan, Status};
use crate::plan::proof::{self, Facts};
use crate::plan::weakened::{self, Change, Finding};
use crate::record;

/// The commit the goal's work started from: the one its first `started` line since
/// it was last reopened after a sign-off names (HEAD when `plan start` ran). Not
/// the latest: a `started` line appended after the tests were weakened and
/// committed would move the comparison past the weakening. Nor one after a reopen
/// of a goal never signed off: `plan cancel` checks nothing, so cancel, reopen and
/// start would move it all the same (helper 86's attack). `None` when no line
/// names one (a goal started on an unborn branch, or signed off without `plan
/// start`): the check then compares with HEAD, so only uncommitted work is seen.
pub fn start_commit<'a>(plan: &Plan<'a>, id: &str) -> Option<&'a str> {
    start_line(plan, id).map(|(commit, _)| commit)
}

/// Whether the `started` line [`start_commit`] reads logged the goal's verify
/// failing: an exact expected value changed is then the cheap way to green, and
/// the check holds it a rewrite however the code changed beside it.
pub fn red_at_start(plan: &Plan<'_>, id: &str) -> bool {
    matches!(start_line(plan, id), Some((_, Some(AtStart::Failing))))
}

/// The commit and the verify's result of the `started` line [`start_commit`] reads.
fn start_line<'a>(plan: &Plan<'a>, id: &str) -> Option<(&'a str, Option<AtStart>)> {
    let mut first = None;
    let mut signed = false;
    for (_, event) in plan.events(id) {
        match event {
            Event::SignedOff { .. } => signed = true,
            Event::Reopened { .. } if signed => {
                first = None;
                signed = false;
            }
            Event::Started {
                commit: Some(commit),
                verify,
                ..
            } if first.is_none() => first = Some((commit, verify)),
            _ => {}
        }
    }
    first
}

/// What weakened the tests from commit `base` (`None`: HEAD) to the working tree:
/// test files by their counts, and the files the verify rests on (`reads`,
/// repository-relative) that changed.
pub fn since(root: &Path, base: Option<&str>, reads: &Reads) -> Result<Vec<Finding>> {
    let verify_files = &reads.files[..];
    // The tests and verify files as the goal started: their literals and names are
    // what a hard-coded special case or a peek at the grader gives away, and the
    // data files they name are what they compare with.
    let given_by =
        |path: &str| weakened::is_test_path(path) || verify_files.iter().any(|v| v == path);
    let (tests, unread) = git::texts_at(root, base, &given_by, weakened::GIVEN_TEXT)?;
    let mut given = weakened::hacks::Given::of(&tests);
    given.tests_past_cap = unread;
    given.asked.extend(reads.asked.iter().cloned());
    given.verify_past_cap.clone_from(&reads.past_cap);
    given.red_at_start = reads.red_at_start;
    let found = git::paths_at(root, base, &|path| path.ends_with(".py"))?;
    given.modules = found
        .iter()
        .filter_map(|path| weakened::top_module(path))
        .map(str::to_string)
        .collect();
    given.sources = found.into_iter().collect();
    given.test_dirs = tests
        .iter()
        .filter(|(path, _)| weakened::collected(path))
        .filter_map(|(path, _)| Some(path.rsplit_once('/')?.0.to_string()))
        .collect();
    let parent = |path: String| {
        path.rsplit_once('/')
            .map_or(String::new(), |p| p.0.to_string())
    };
    let tests_at_start = git::paths_at(root, base, &weakened::is_test_path)?;
    if reads.discovers {
        let below = |path: &str| {
            reads.discovery_top.as_ref().is_none_or(|top| {
                path.strip_prefix(top.as_str())
                    .is_some_and(|p| p.starts_with('/'))
            })
        };
        given.discovered = tests_at_start
            .iter()
            .filter(|path| {
                let name = path.rsplit('/').next().unwrap_or(path);
                name.starts_with("test") && name.ends_with(".py") && below(path)
            })
            .cloned()
            .collect();
        given.discovery_top.clone_from(&reads.discovery_top);
    }
    given.test_parents = Some(tests_at_start.into_iter().map(parent).collect());
    let compiled = |path: &str| weakened::compiled_module(path).is_some();
    let wanted = |path: &str| {
        weakened::wanted(path)
            || compiled(path)
            || verify_files.iter().any(|v| v == path)
            || given.names_data(path)
    };
    let diffed;
    let deltas = match &reads.deltas {
        Some(deltas) if deltas.base.as_deref() == base => deltas,
        _ => {
            diffed = git::Deltas::since(root, base)?;
            &diffed
        }
    };
    let mut changes: Vec<Change> = deltas
        .read(root, &wanted, &|p| !compiled(p))?
        .into_iter()
        .map(|c| Change {
            path: c.path,
            was: c.was,
            before: c.before,
            after: c.after,
        })
        .collect();
    compiled_since(root, &given, &mut changes)?;
    // Cargo's manifests at the start, when a Rust file changed: whether a file of
    // a package's `tests/` was built at all.
    let rust = |p: &str| p.ends_with(".rs");
    if changes
        .iter()
        .any(|c| rust(&c.path) || c.was.as_deref().is_some_and(rust))
    {
        let manifest = |p: &str| p == "Cargo.toml" || p.ends_with("/Cargo.toml");
        given.manifests = git::texts_at(root, base, &manifest, MANIFESTS_TEXT)?.0;
    }
    // Whether node's runner focuses: by the verify, or a package's test script at
    // the start or now, when a JavaScript or TypeScript file changed.
    let js = |p: &str| crate::plan::syntax::Grammar::of(p).is_some_and(|g| g.is_js());
    if changes.iter().any(|c| js(&c.path)) {
        let package = |p: &str| p == "package.json" || p.ends_with("/package.json");
        let (start, past_cap) = git::texts_at(root, base, &package, MANIFESTS_TEXT)?;
        let now = changes
            .iter()
            .filter(|c| package(&c.path))
            .filter_map(|c| c.after.as_ref());
        // Past the cap a script could say so unread: `only` then focuses, as
        // under every other runner.
        given.focus_runs = reads.focus_runs
            || past_cap.is_some()
            || (start.iter().map(|(_, t)| t).chain(now)).any(|t| weakened::focuses_node(t));
    }
    let (found, changes, mut given) = on_own_stack(move || {
        let found = weakened::find_given(&changes, verify_files, &given);
        (found, changes, given)
    });
    // Tests removed may have gone with the code they were written with, which
    // only history tells: read then, and the check run again with it.
    let Some(base) = base.filter(|_| found.iter().any(removes_tests)) else {
        return Ok(found);
    };
    given.born = born(root, base, &changes, &found);
    if given.born.taken_out.is_empty() {
        return Ok(found);
    }
    Ok(on_own_stack(move || {
        weakened::find_given(&changes, verify_files, &given)
    }))
}

fn removes_tests(finding: &Finding) -> bool {
    (finding.parts.iter()).any(|p| p.rule == weakened::rules::RuleId::AssertionsRemoved)
}

/// The most files blamed for [`born`], test files and product code together, the
/// most commits whose added lines are counted, and how far back blame reads:
/// past them a removal is not excused by history, and stays the high finding it
/// was.
const MOST_BLAMED: usize = 32;
const MOST_WRITERS: usize = 16;
/// The fewest code lines of one commit the change must take out for it to
/// excuse a test: a one-line version bump written beside a test, put back, is
/// too cheap a revert to drop the test for (review 113).
const LEAST_TAKEN: usize = 3;
/// The most commits of the start's first-parent line blame reads back: a line
/// written before them excuses nothing.
const MOST_HISTORY: usize = 1000;

/// Where the lines `changes` took out were born as of `base`
/// ([`weakened::with_code::Born`]): the writers of the lines taken out of the
/// test files `found` says lost tests, and the commits whose product code the
/// change took out, with the files it was taken from: half of the lines each
/// added there at least (blank lines and comments not counted as taken out),
/// and nothing put in anywhere in the product, new files too, but lines that
/// commit had removed (a revert puts back what was). Code rewritten, moved or
/// renamed is no code taken out: a stub written with its tests and then filled
/// in by the work, a test dropped beside it, stays high. Nothing is read from a
/// history that is not the repository's own ([`git::blame::history_trusted`]),
/// and git that cannot say leaves a removal high.
fn born(
    root: &Path,
    base: &str,
    changes: &[Change],
    found: &[Finding],
) -> weakened::with_code::Born {
    use std::collections::{HashMap, HashSet};
    use weakened::with_code::{Born, product};
    let mut out = Born::default();
    if !git::blame::history_trusted(root).unwrap_or(false) {
        return out;
    }
    let lost: Vec<&str> = found
        .iter()
        .filter(|f| removes_tests(f))
        .map(|f| f.path.as_str())
        .collect();
    let oldest = match git::blame::first_parents(root, base, MOST_HISTORY) {
        Ok((line, true)) => line.last().cloned(),
        Ok((_, false)) => None,
        Err(_) => return out,
    };
    let mut blamed = 0;
    let mut writers = |path: &str, before: &str, after: Option<&str>| {
        blamed += 1;
        (blamed <= MOST_BLAMED)
            .then(|| {
                git::blame::writers_of_removed_lines(
                    root,
                    base,
                    oldest.as_deref(),
                    (path, before, after),
                )
                .ok()
            })
            .flatten()
            .unwrap_or_default()
    };
    // Per commit, the code lines taken out and the files they left; and every
    // line the change put in the product.
    let mut taken: HashMap<String, (usize, Vec<String>)> = HashMap::new();
    let mut put: HashSet<&str> = HashSet::new();
    for c in changes {
        let old_path = c.was.as_deref().unwrap_or(&c.path);
        let before = c.before.as_deref();
        if let Some(after) = c.after.as_deref().filter(|a| product(&c.path, Some(a))) {
            let was = before.filter(|b| product(old_path, Some(b)));
            put.extend(put_in(was.unwrap_or_default(), after));
        }
        let Some(before) = before else {
            continue;
        };
        if lost.contains(&c.path.as_str()) {
            let lines = writers(old_path, before, c.after.as_deref());
            out.lines.insert(old_path.to_string(), lines);
        } else if product(old_path, Some(before)) {
            let text: Vec<&str> = before.lines().collect();
            for (line, commit) in writers(old_path, before, c.after.as_deref()) {
                let held = line.checked_sub(1).and_then(|k| text.get(k));
                if held.is_some_and(|l| is_code_line(l)) {
                    let (count, files) = taken.entry(commit).or_default();
                    *count += 1;
                    if !files.iter().any(|f| f == old_path) {
                        files.push(old_path.to_string());
                    }
                }
            }
        }
    }
    let mut by_count: Vec<(String, (usize, Vec<String>))> = taken.into_iter().collect();
    by_count.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(&b.0)));
    let shipped = |path: &str| product(path, None);
    for (commit, (count, files)) in by_count.into_iter().take(MOST_WRITERS) {
        let Ok((added, removed)) = git::blame::lines_changed(root, &commit, &shipped) else {
            continue;
        };
        if count >= LEAST_TAKEN && count * 2 >= added && put.iter().all(|l| removed.contains(*l)) {
            out.taken_out.insert(commit, files);
        }
    }
    out
}

/// The lines, trimmed, that going from `old` to `new` the change put in, every
/// one but blank lines: a comment put in is put in too (`/**/ a = …` reads as
/// one), which a revert does only where the commit it reverts removed it.
fn put_in<'n>(old: &str, new: &'n str) -> Vec<&'n str> {
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    let lines: Vec<&str> = new.lines().collect();
    let mut out = Vec::new();
    for op in diff.ops() {
        if matches!(
            op.tag(),
            similar::DiffTag::Insert | similar::DiffTag::Replace
        ) {
            out.extend(
                op.new_range()
                    .filter_map(|i| lines.get(i))
                    .map(|l| l.trim())
                    .filter(|l| !l.is_empty()),
            );
        }
    }
    out
}

/// Whether `line` holds code: not blank, and not a comment alone in any of the
/// languages the check reads (`*` opens a block comment's inner lines). Only
/// what is taken out is read so: a line that is code yet reads as a comment
/// here (`*p = 0`) is not counted, which makes a revert harder to claim, never
/// easier.
fn is_code_line(line: &str) -> bool {
    let line = line.trim();
    !line.is_empty() && !["#", "//", "/*", "*"].iter().any(|c| line.starts_with(c))
}

/// The most bytes of Cargo manifests read: a workspace of hundreds of packages
/// stays cheap; past it, a package's manifest is not read, and its tests count
/// as built.
const MANIFESTS_TEXT: usize = 4 << 20;

/// The stack the check runs on: its syntax walks stop at 600 levels of a crafted
/// nest, a few KB each on a debug build, past the 2 MiB a thread gets by default
/// (tokio's blocking threads, where `plan mcp` signs off). Reserved, not touched:
/// only the pages a walk reaches are used.
const CHECK_STACK: usize = 64 << 20;

/// Runs `f` on a thread of [`CHECK_STACK`], or here when no thread can be made.
pub(crate) fn on_own_stack<T: Send, F: FnOnce() -> T + Send>(f: F) -> T {
    // Held here, so a thread that cannot be made leaves it to run on this one.
    let held = std::sync::Mutex::new(Some(f));
    let take = || held.lock().ok().and_then(|mut f| f.take());
    let ran = std::thread::scope(|scope| {
        let thread = std::thread::Builder::new().stack_size(CHECK_STACK);
        let handle = thread.spawn_scoped(scope, || take().map(|f| f())).ok()?;
        Some(
            handle
                .join()
                .unwrap_or_else(|panic| std::panic::resume_unwind(panic)),
        )
    });
    match ran.flatten() {
        Some(out) => out,
        None => take().expect("the check ran on no thread, so it is still held")(),
    }
}

/// The compiled Python modules new or changed since the start that Python may
/// import in place of the code's own ([`weakened::compiled_module`]), as new files
/// with no text: matched by name, never read but for a pyc's header. `changes`
/// holds those git shows; added here are those it ignores (`*.py[cod]`, `*.so` and
/// `__pycache__/` are in most Python repositories' .gitignore) where an import
/// finds them first: among the tests, and bytecode at the top, under `src/` and in
/// the code's packages. Not an ignored extension beside the code, which an
/// in-place build (`build_ext --inplace`, mypyc) leaves there honestly; a clean
/// checkout, where the gate runs, has no ignored file at all. A pyc under
/// `__pycache__` counts only when Python runs it unchecked ([`unchecked_pyc`]).
fn compiled_since(
    root: &Path,
    given: &weakened::hacks::Given,
    changes: &mut Vec<Change>,
) -> Result<()> {
    let compiled = |path: &str| weakened::compiled_module(path).is_some();
    // Cached bytecode only where Python runs it unchecked, read before it counts.
    let runs = |path: &str| !weakened::cached(path) || unchecked_pyc(&root.join(path));
    changes.retain(|c| !compiled(&c.path) || runs(&c.path));
    let mut tests: Vec<String> = given.test_dirs.iter().cloned().collect();
    tests.extend(
        changes
            .iter()
            .filter(|c| weakened::collected(&c.path))
            .filter_map(|c| Some(c.path.rsplit_once('/')?.0.to_string())),
    );
    let among_tests = |path: &str| tests.iter().any(|t| path.starts_with(&format!("{t}/")));
    let mut dirs = tests.clone();
    dirs.extend([String::new(), "src".to_string()]);
    dirs.sort();
    dirs.dedup();
    let enter = |name: &str| name == "__pycache__" || given.modules.contains(name);
    let wanted =
        |path: &str| compiled(path) && (path.ends_with(".pyc") || among_tests(path)) && runs(path);
    let mut found = git::ignored_in(root, &dirs, &enter, &wanted)?;
    found.sort();
    found.dedup();
    found.retain(|path| changes.iter().all(|c| &c.path != path));
    changes.extend(found.into_iter().map(|path| Change {
        path,
        was: None,
        before: None,
        after: Some(String::new()),
    }));
    Ok(())
}

/// Whether the pyc at `path` is hash-based with its check off (PEP 552: flags
/// 0b01 after the magic number), so Python runs it without looking at its source.
/// A timestamp pyc is checked against the source's time and size, which a fresh
/// checkout changes; a file too short or without a pyc's magic Python refuses.
/// Anything but a regular file, or one that cannot be read, counts as unchecked:
/// failing closed, and never opening a FIFO.
fn unchecked_pyc(path: &Path) -> bool {
    use std::io::Read;
    if !std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file()) {
        return true;
    }
    let mut header = [0u8; 8];
    match std::fs::File::open(path).and_then(|mut f| f.read_exact(&mut header)) {
        Ok(()) => {
            let flags = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
            header[2..4] == *b"\r\n" && flags & 0b11 == 0b01
        }
        Err(e) => e.kind() != std::io::ErrorKind::UnexpectedEof,
    }
}

/// Of `files` (those `goal`'s verify rests on), the ones its title or done_when
/// asks the agent to write: named there and not on the verify line itself
/// (`done_when: solution.py spells …` with a test that runs `solution.py`). One
/// that held no assertion at the start is the work, not a changed check
/// ([`weakened::hacks::Given::asked`]); its new code is still read for hack-shaped
/// code, as every changed file that is not a test is.
pub fn asked(goal: &Goal<'_>, files: &[String]) -> Vec<String> {
    let line = goal.verify().unwrap_or("");
    let said = format!("{} {}", goal.title, goal.done_when().unwrap_or(""));
    let words: Vec<&str> = said
        .split(|c: char| c.is_whitespace() || "`'\"(),;:".contains(c))
        .map(|w| w.trim_end_matches(['.', '!', '?']).trim_start_matches("./"))
        .filter(|w| !w.is_empty())
        .collect();
    files
        .iter()
        .filter(|f| {
            let name = f.rsplit('/').next().unwrap_or(f);
            words.iter().any(|w| w == f || *w == name) && !line.contains(f.as_str())
        })
        .cloned()
        .collect()
}

/// What weakened the tests of `goal` from its start to the working tree now,
/// whatever its status: the check a sign-off runs, run again (in CI, on the
/// checked-out head, this does not trust the transcript).
pub fn now(root: &Path, plan: &Plan<'_>, goal: &Goal<'_>) -> Result<Vec<Finding>> {
    let start = start_commit(plan, &goal.id);
    let mut reads = Reads::of_goal(root, goal, start)?;
    reads.red_at_start = red_at_start(plan, &goal.id);
    since(root, start, &reads)
}

/// What a goal's verify reads, as the check weighs it.
#[derive(Default)]
pub struct Reads {
    /// The files it rests on (`judge::files::verify_runs`).
    pub files: Vec<String>,
    /// Of those, the ones the goal asks the agent to write ([`asked`]).
    pub asked: Vec<String>,
    /// Whether it runs unittest's discovery ([`discovers`]).
    pub discovers: bool,
    /// The folder that discovery imports from ([`discovery_top`]).
    pub discovery_top: Option<String>,
    /// The first file it rests on past the most the check follows, when there
    /// are more: said, not passed over.
    pub past_cap: Option<(String, weakened::not_read::VerifyCap)>,
    /// The diff from where the check starts that weighed them, which [`since`]
    /// reads again rather than diffing twice.
    pub deltas: Option<git::Deltas>,
    /// Whether the goal's verify was logged failing at its start ([`red_at_start`]).
    pub red_at_start: bool,
    /// Whether the verify tells node's runner to run only `only` tests
    /// (`weakened::runner::focuses_node_command`).
    pub focus_runs: bool,
}

impl Reads {
    /// What `verify` (`goal`'s, parsed; none: nothing) reads, weighed against
    /// commit `from` (`None`: HEAD), where the check starts.
    pub fn of(
        root: &Path,
        goal: &Goal<'_>,
        verify: Option<&crate::verify::Verify>,
        from: Option<&str>,
    ) -> Result<Reads> {
        let Some(verify) = verify else {
            return Ok(Reads::default());
        };
        // A check deleted or moved out of the verify's reach since the start is
        // one it rested on (helper 59's red team).
        let deltas = git::Deltas::since(root, from)?;
        let altered = deltas.altered();
        // What the project called itself at the start: a runner's own source is
        // the product only in a repository that was that runner then.
        let started = project_names_at(root, from.unwrap_or("HEAD"));
        let capped = |kept: &[String]| {
            let gone = &altered.gone;
            crate::judge::files::verify_runs_since(root, verify, kept, gone, Some(&started))
        };
        let (mut files, mut past_cap) = capped(&[]);
        if matches!(past_cap, Some((_, weakened::not_read::VerifyCap::Files))) {
            // Files added to a folder the verify walks must not push one the work
            // changed past the cap, compared with nothing (helper 55's red team).
            (files, past_cap) = capped(&altered.changed);
        }
        Ok(Reads {
            asked: asked(goal, &files),
            discovers: discovers(verify),
            discovery_top: discovery_top(verify),
            files,
            past_cap,
            deltas: Some(deltas),
            red_at_start: false,
            focus_runs: (verify.chain.iter().flat_map(|p| &p.commands))
                .any(|c| weakened::focuses_node_command(&c.join(" "))),
        })
    }

    /// What `goal`'s own verify line reads (nothing when it does not parse).
    fn of_goal(root: &Path, goal: &Goal<'_>, from: Option<&str>) -> Result<Reads> {
        let verify = match goal.verify().map(crate::verify::parse) {
            Some(Ok(verify)) => Some(verify),
            _ => None,
        };
        Reads::of(root, goal, verify.as_ref(), from)
    }
}

/// The names the project's manifests gave it at commit `rev`
/// ([`crate::judge::files::project_names_in`]): a runner's own source is the
/// product only in a repository that was that runner then.
pub fn project_names_at(root: &Path, rev: &str) -> Vec<String> {
    crate::judge::files::project_names_in(&|file| {
        let text = git::file_at(root, rev, Path::new(file)).ok().flatten();
        text.filter(|t| t.len() <= 1024 * 1024)
    })
}

/// What weakened the tests of `goal` in a pull request onto commit `base`: from the
/// base, and from the goal's start where that is in HEAD's history. Inside the
/// pull request every `started` line is the agent's to make (a sign-off, a reopen
/// and a new start move it past a weakening), so none of them can take a finding
/// away: a start inside the pull request adds what weakened since it in the files
/// the pull request changes, as `plan audit --strict` reads it (a test the pull
/// request adds, then weakens after the start, lost nothing from the base; the red
/// team's), and one in the base's history what weakened since it.
pub fn since_base(
    root: &Path,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: &str,
) -> Result<Vec<Finding>> {
    since_base_red(root, plan, goal, base, red_at_start(plan, &goal.id))
}

/// [`since_base`], read as after a start whose verify failed when `red` (the
/// gate's own run there says so, whatever the log line does).
pub fn since_base_red(
    root: &Path,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: &str,
    red: bool,
) -> Result<Vec<Finding>> {
    // From the base always: a start line is the agent's to write, and one naming
    // an older commit, before the test was there, hid what the pull request took
    // out of it (the last red team's).
    let mut found = from_commit(root, goal, base, red)?;
    let from_start = match start_commit(plan, &goal.id) {
        Some(start) if git::is_ancestor(root, start, base)? => from_commit(root, goal, start, red)?,
        Some(start) if git::is_ancestor(root, start, "HEAD")? => {
            // Only for files the pull request changes: HEAD is often the merge of
            // the base into it (CI's checkout), and what the base did since the
            // branch left it is the base's own (the review's).
            let changed: Vec<String> = git::changed_since(root, Some(base), &|_| true)?
                .into_iter()
                .map(|c| c.path)
                .collect();
            from_commit(root, goal, start, red)?
                .into_iter()
                .filter(|f| changed.contains(&f.path))
                .collect()
        }
        _ => Vec::new(),
    };
    for finding in from_start {
        if !found.contains(&finding) {
            found.push(finding);
        }
    }
    Ok(found)
}

/// What weakened the tests `goal`'s verify runs from commit `from` to the working
/// tree: for a goal done on a pull request's base, what the pull request did to them.
/// `red`: the goal's verify was logged failing at its start ([`red_at_start`]).
pub fn from_commit(root: &Path, goal: &Goal<'_>, from: &str, red: bool) -> Result<Vec<Finding>> {
    let mut reads = Reads::of_goal(root, goal, Some(from))?;
    reads.red_at_start = red;
    let mut found = since(root, Some(from), &reads)?;
    // A verify that names its test files (`python3 -m unittest tests.test_a`) reads
    // those alone: another goal's test file, deleted by a revert or a pull request,
    // weakens nothing of this goal's. One that names none (`pytest`, `cargo test`)
    // collects every test, and every loss counts.
    if let Some(Ok(verify)) = goal.verify().map(crate::verify::parse)
        && let Some(named) = named_tests(&verify)
    {
        // Only another test module is set aside: a helper, a conftest or a package's
        // `__init__.py` under tests/ is what a named module can import or load.
        let module = |path: &str| {
            let name = path.rsplit('/').next().unwrap_or(path);
            name.starts_with("test_") || name.ends_with("_test.py")
        };
        found.retain(|f| {
            !module(&f.path) || named.contains(&f.path) || reads.files.contains(&f.path)
        });
    }
    Ok(found)
}

/// The test files a verify names, when every test run in it names its own: the
/// modules and files after `python -m unittest` or `pytest` (`tests.test_a`,
/// `tests/test_a.py::T::test_x`). `None` when any run collects tests it does not
/// name (no operand, a folder, another runner), so that every test may count.
/// Whether `verify` runs unittest's discovery (`python3 -m unittest`, `python -m
/// unittest discover -s tests`, options alone), which enters only packages below
/// where it starts; a verify naming its test modules imports them by name instead.
pub fn discovers(verify: &crate::verify::Verify) -> bool {
    verify
        .chain
        .iter()
        .flat_map(|p| &p.commands)
        .any(|command| discovers_in(command))
}

/// Whether one command runs unittest's discovery (see [`discovers`]).
fn discovers_in(command: &[String]) -> bool {
    let at = command.iter().position(|w| {
        let program = w.rsplit('/').next().unwrap_or(w);
        program.starts_with("python")
    });
    let Some(rest) = at.map(|at| &command[at + 1..]) else {
        return false;
    };
    let [m, runner, operands @ ..] = rest else {
        return false;
    };
    if m != "-m" || runner != "unittest" {
        return false;
    }
    // Another pattern finds other files than the `test*.py` the discovery
    // rules read: none of them is read for it (helper 56's false alarm).
    if discover_args(operands)
        .and_then(|[_, pattern, _]| pattern)
        .is_some_and(|p| p != "test*.py")
    {
        return false;
    }
    // The value of `-k add` or `--durations 5` names no module: a run with
    // only options and their values discovers (the red team's `-k`).
    let mut skip = false;
    let first = operands.iter().find(|w| {
        if std::mem::take(&mut skip) {
            return false;
        }
        skip = matches!(w.as_str(), "-k" | "--durations");
        !w.starts_with('-')
    });
    first.is_none_or(|first| first == "discover")
}

/// The folder unittest's discovery imports the tests' modules from, when the
/// verify names one (`discover -s tests`, `-t tests`): its own `__init__.py` is
/// never needed. `None`: the repository's root, or a run plan cannot place.
pub fn discovery_top(verify: &crate::verify::Verify) -> Option<String> {
    let command = verify
        .chain
        .iter()
        .flat_map(|p| &p.commands)
        .find(|c| discovers_in(c))?;
    let at = command.iter().position(|w| w == "unittest")?;
    let [start, _, top] = discover_args(&command[at + 1..])?;
    let top = top.or(start)?;
    let top = top.trim_start_matches("./").trim_end_matches('/');
    (!top.is_empty() && top != ".").then(|| top.to_string())
}

/// `unittest discover`'s start folder, pattern and top folder as `operands`
/// (the words after `-m unittest`) give them, by option or by place; `None`
/// when they run no `discover`.
fn discover_args(operands: &[String]) -> Option<[Option<String>; 3]> {
    let (first, rest) = operands.split_first()?;
    if first != "discover" {
        return None;
    }
    let mut named: [Option<String>; 3] = [None, None, None];
    let mut placed = Vec::new();
    let mut words = rest.iter();
    while let Some(word) = words.next() {
        let (flag, inline) = match word.split_once('=') {
            Some((flag, value)) if word.starts_with("--") => (flag, Some(value.to_string())),
            _ => (word.as_str(), None),
        };
        let slot = match flag {
            "-s" | "--start-directory" => 0,
            "-p" | "--pattern" => 1,
            "-t" | "--top-level-directory" => 2,
            "-k" | "--durations" => {
                if inline.is_none() {
                    words.next();
                }
                continue;
            }
            _ if flag.starts_with('-') => continue,
            _ => {
                placed.push(word.clone());
                continue;
            }
        };
        named[slot] = inline.or_else(|| words.next().cloned());
    }
    for (slot, word) in placed.into_iter().take(3).enumerate() {
        named[slot].get_or_insert(word);
    }
    Some(named)
}

fn named_tests(verify: &crate::verify::Verify) -> Option<Vec<String>> {
    let mut named = Vec::new();
    for command in verify.chain.iter().flat_map(|p| &p.commands) {
        let words: Vec<&str> = command.iter().map(String::as_str).collect();
        let program = |w: &str| w.rsplit('/').next().unwrap_or(w).to_string();
        let at = words.iter().position(|w| {
            let p = program(w);
            p.starts_with("python") || p == "pytest"
        });
        let Some(at) = at else {
            // A command that runs no Python tests: `test -f`, `grep`; another
            // runner (`cargo test`, `npm test`) collects what it likes.
            match words.first().map(|w| program(w)) {
                Some(p) if crate::judge::files::READS_NAMED.contains(&p.as_str()) => continue,
                _ => return None,
            }
        };
        let rest = &words[at + 1..];
        let pytest = program(words[at]) == "pytest" || rest.starts_with(&["-m", "pytest"]);
        let operands: &[&str] = if program(words[at]) == "pytest" {
            rest
        } else {
            match rest {
                ["-m", runner, operands @ ..] if matches!(*runner, "unittest" | "pytest") => {
                    operands
                }
                _ => return None,
            }
        };
        // Options whose value is the next word (`-k slow`), not a test to run.
        const VALUED: &[&str] = &[
            "-k",
            "-m",
            "-p",
            "-c",
            "-o",
            "-n",
            "-W",
            "-r",
            "--deselect",
            "--ignore",
            "--ignore-glob",
            "--maxfail",
            "--tb",
            "--rootdir",
            "--durations",
        ];
        let mut any = false;
        let mut skip = false;
        for word in operands {
            if std::mem::take(&mut skip) {
                continue;
            }
            if word.starts_with('-') {
                skip = VALUED.contains(word);
                continue;
            }
            // `unittest discover` collects what it finds.
            if *word == "discover" {
                return None;
            }
            let file = word.split("::").next().unwrap_or(word);
            let file = if file.ends_with(".py") {
                file.trim_start_matches("./").to_string()
            } else if !pytest
                && file.contains('.')
                && file
                    .split('.')
                    .all(|p| !p.is_empty() && p.chars().all(|c| c.is_alphanumeric() || c == '_'))
            {
                // A dotted module (`tests.test_a`); a bare word (`tests`) is a
                // package or a folder, whose tests are collected.
                format!("{}.py", file.replace('.', "/"))
            } else {
                return None;
            };
            named.push(file);
            any = true;
        }
        if !any {
            return None;
        }
    }
    (!named.is_empty()).then_some(named)
}

/// The findings for `goal`, for show, audit and `audit --strict`:
/// - a done goal: what its latest sign-off's transcript recorded (`None` when that
///   transcript is missing or predates the check);
/// - an open or active goal: found [`now`];
/// - a cancelled goal: `None`, nothing was handed in.
pub fn of_goal(root: &Path, plan: &Plan<'_>, goal: &Goal<'_>) -> Result<Option<Vec<Finding>>> {
    match goal.status() {
        Status::Done => {
            let Some(record) = proof::latest_record(plan, &goal.id) else {
                return Ok(None);
            };
            Ok(match record::facts(root, record.path) {
                Facts::Present {
                    header: Some(header),
                    ..
                } => header.weakened_tests,
                _ => None,
            })
        }
        Status::Cancelled => Ok(None),
        Status::Open | Status::Active => now(root, plan, goal).map(Some),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // Helper 56 and helper 51: a pattern of its own (`-p '*_test.py'`) finds other
    // files than `test*.py`, which the discovery rules read; a start folder is the
    // top (`-s tests`), whose own `__init__.py` discovery never needs.
    #[test]
    fn discovery_s_pattern_and_top_are_read() {
        let parse = |line: &str| crate::verify::parse(line).unwrap();
        for custom in [
            "python3 -m unittest discover -p '*_test.py'",
            "python3 -m unittest discover --pattern=check_*.py",
            "python3 -m unittest discover tests '*_test.py'",
        ] {
            assert!(!discovers(&parse(custom)), "{custom}");
        }
        for (line, top) in [
            ("python3 -m unittest discover -s tests", Some("tests")),
            (
                "python3 -m unittest discover -s ./tests/ -p 'test*.py'",
                Some("tests"),
            ),
            ("python3 -m unittest discover tests", Some("tests")),
            ("python3 -m unittest discover -s tests/unit -t .", None),
            (
                "python3 -m unittest discover -s tests/unit -t tests",
                Some("tests"),
            ),
            (
                "python3 -m unittest discover --start-directory=src",
                Some("src"),
            ),
            ("python3 -m unittest discover -v", None),
            ("python3 -m unittest", None),
        ] {
            assert!(discovers(&parse(line)), "{line}");
            assert_eq!(discovery_top(&parse(line)).as_deref(), top, "{line}");
        }
    }

    #[test]
    fn unittest_discovers_unless_the_verify_names_its_modules() {
        let discovers = |line: &str| discovers(&crate::verify::parse(line).unwrap());
        for yes in [
            "python3 -m unittest",
            "python3 -m unittest -q",
            "python -m unittest discover -s tests -p 'test*.py'",
            "/usr/bin/python3.12 -m unittest -v",
            "cd pkg && python3 -m unittest",
            "python3 -m unittest tests.test_a && python3 -m unittest",
            "python3 -m unittest -k add",
            "python3 -m unittest -v -k add -k sub --durations 3",
        ] {
            assert!(discovers(yes), "{yes}");
        }
        for no in [
            "python3 -m unittest tests.test_a",
            "python3 -m unittest -k add tests.test_a",
            "python3 -m pytest -q",
            "pytest",
            "cargo test",
            "python3 scripts/check.py",
        ] {
            assert!(!discovers(no), "{no}");
        }
    }

    #[test]
    fn a_verify_names_its_tests_only_when_every_run_does() {
        let named = |line: &str| named_tests(&crate::verify::parse(line).unwrap());
        let some = |files: &[&str]| Some(files.iter().map(|f| f.to_string()).collect::<Vec<_>>());
        assert_eq!(
            named("python3 -m unittest -q tests.test_a"),
            some(&["tests/test_a.py"])
        );
        assert_eq!(
            named("pytest -q -k slow tests/test_b.py::T::test_x && test -f README.md"),
            some(&["tests/test_b.py"])
        );
        for collects in [
            "pytest",
            "pytest -k slow",
            "python3 -m unittest",
            "python3 -m unittest discover -s tests",
            "python3 -m pytest tests/",
            "cargo test",
            "python3 -m unittest tests.test_a && npm test",
        ] {
            assert_eq!(named(collects), None, "{collects}");
        }
    }
}

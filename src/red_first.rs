//! Red first: `plan start` runs the goal's verify once, before any work, and a
//! sign-off whose verify already passed then, with nothing it rests on changed
//! since, is a finding (`verify-green-at-start`): that verify said nothing about the
//! work. Also the warning `plan add` and `plan edit` give at once for a verify that
//! can never fail. Runs verify and reads git; writes nothing.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use crate::config;
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git;
use crate::plan::event::{AtStart, Event};
use crate::plan::gate as rules;
use crate::plan::model::{Goal, Plan};
use crate::plan::own;
use crate::plan::syntax;
use crate::verify::{self, Verify};

/// How much of the start run's output is kept: only its end is shown, on failure.
const TAIL: usize = 16 * 1024;

/// Runs `goal`'s verify as `plan complete` would (same runner, the configured
/// timeout, from the repository's root) and says how it ended; `skip`
/// (`--no-verify`) runs nothing and says so. `None`: nothing to run (no verify, or
/// no repository to run it in). Progress and the outcome go to stderr.
///
/// A verify that changes a tracked file is refused, as `plan complete` refuses it: a
/// check must not change what it checks.
pub fn run_at_start(ctx: &Ctx, goal: &Goal<'_>, skip: bool) -> Result<Option<AtStart>> {
    let (Some(line), Some(repo)) = (goal.verify(), &ctx.repo) else {
        return Ok(None);
    };
    let id = &goal.id;
    if skip {
        crate::out::warn(&format!(
            "plan: note: verify of {id} not run (--no-verify); the log says it was skipped"
        ));
        return Ok(Some(AtStart::Skipped));
    }
    let shown = crate::plan::text::escape_controls(line).into_owned();
    let Ok(parsed) = verify::parse(line) else {
        // It cannot run, so it fails: `plan lint` names why.
        crate::out::warn(&format!(
            "plan: verify of {id} cannot run (`plan lint` says why): logged as failing"
        ));
        return Ok(Some(AtStart::Failing));
    };
    // A program that cannot start checks nothing: said so and logged as such, as
    // `plan add` warns of it and `plan complete` refuses it, not as a red run.
    let missing = verify::missing(&parsed, Some(&repo.root));
    if !missing.is_empty() {
        let listed: Vec<String> = missing
            .iter()
            .map(|m| format!("`{}` {}", m.program, m.why))
            .collect();
        crate::out::warn(&format!(
            "plan: warning: the verify of {id} cannot run here: {}; not run, and logged as cannot-run, not failing\n  hint: install the program or change the verify (`plan edit {id} --verify '…'`); `plan complete {id}` refuses it until it can run",
            listed.join("; ")
        ));
        return Ok(Some(AtStart::CannotRun));
    }
    let config = config::load(Some(&repo.root))?;
    let timeout = Duration::from_secs(config.verify_timeout_secs);
    crate::out::step(
        &format!("plan: verify: running `{shown}` before the work (red first)"),
        &format!("verify: running `{shown}` before the work"),
    );
    let before = git::tracked_snapshot(&repo.root)?;
    let outcome = verify::run(&parsed, &repo.root, timeout, TAIL)?;
    // plan.md is left out, as `plan complete` leaves it out: others may log to it
    // meanwhile. What the verify could do there is checked when the start is
    // written ([`others_unchanged`]).
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let mut changed = before.changes(&git::tracked_snapshot(&repo.root)?);
    changed.retain(|p| plan_rel.as_deref() != Some(p.as_str()));
    if !changed.is_empty() {
        return Err(Exit::check_failed_hint(
            format!(
                "the verify of {id} changed the repository while it ran ({}); a check must not change what it checks; {id} was not started",
                changed.join(", ")
            ),
            format!(
                "look at what it changed (git status, git diff), then fix the verify, or `plan start {id} --no-verify`"
            ),
        ));
    }
    Ok(Some(if outcome.passed {
        crate::out::warn(&format!(
            "plan: warning: the verify of {id} already passes before any work: it cannot tell the work done; make it fail until the goal is met"
        ));
        AtStart::Passing
    } else {
        crate::out::warn(&format!(
            "plan: verify failing, as it should before the work ({})",
            outcome.why_failed(&parsed.to_string(), timeout)
        ));
        AtStart::Failing
    }))
}

/// The note for test files the working tree holds otherwise than HEAD, where a
/// goal starts: a sign-off compares the tests with that commit, so a test written
/// and not yet committed is no part of what the goal is held to, and what happens
/// to it before it is committed goes unchecked. `None`: every test is committed
/// (or git cannot tell: a note fails open).
pub fn uncommitted_tests(root: &Path, id: &str) -> Option<String> {
    let changed = git::changed_since(root, None, &crate::plan::weakened::is_test_path).ok()?;
    // A file's name is the agent's to choose: shown escaped, it can neither move
    // the cursor nor forge a line.
    let paths: Vec<String> = changed
        .iter()
        .map(|c| crate::plan::text::escape_controls(&c.path).into_owned())
        .collect();
    let (first, rest) = paths.split_first()?;
    let named = match rest.len() {
        0 => format!("{first} differs"),
        n => format!(
            "{first} and {} differ",
            crate::plan::text::count(n, "other test file")
        ),
    };
    Some(format!(
        "plan: note: {named} from the commit {id} starts from: a sign-off compares the tests with that commit, so what changes in them before they are committed goes unchecked\n  hint: commit the tests first to hold {id} to them"
    ))
}

/// The verify ran at the start with plan.md left out of its change check, so it
/// could hide a goal, weaken another's contract or finish one by hand: the start is
/// written only on the plan it read (`before`), but for other goals' logged events.
/// The twin of `plan complete`'s check, worded for the start.
pub fn others_unchanged(before: &Plan<'_>, fresh: &Plan<'_>, started: &str) -> Result<(), String> {
    for goal in before.goals.iter().filter(|g| g.id != started) {
        let id = &goal.id;
        let Some(now) = fresh.goal(id) else {
            return Err(format!(
                "goal {id} disappeared while the verify of {started} ran; {started} was not started"
            ));
        };
        if now.fingerprint() != goal.fingerprint() {
            return Err(format!(
                "the contract of {id} changed while the verify of {started} ran; {started} was not started"
            ));
        }
        let logged = fresh.events(id).count() > before.events(id).count();
        if now.status() != goal.status() && !logged {
            return Err(format!(
                "goal {id} went from {} to {} while the verify of {started} ran; {started} was not started",
                goal.status().as_str(),
                now.status().as_str()
            ));
        }
    }
    Ok(())
}

/// What `plan add` and `plan edit` say at once of a verify that can never fail
/// (stderr; the goal is written all the same).
pub fn warn_cannot_fail(id: &str, line: Option<&str>) {
    if let Some(why) = line.and_then(cannot_fail) {
        crate::out::warn(&format!(
            "plan: warning: the verify of {id} cannot fail: {why} (verify-cannot-fail)\n  hint: run a check that fails until the goal is met: a test, a script that asserts"
        ));
    }
}

/// Why a verify line can never fail, or `None` when it can (or cannot be parsed:
/// that is `verify-cannot-run`'s).
pub fn cannot_fail(line: &str) -> Option<String> {
    verify::cannot_fail(&verify::parse(line).ok()?)
}

/// The finding of a goal whose verify passed at start with nothing it rests on
/// changed since.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GreenAtStart {
    /// The commit the goal started from.
    pub commit: String,
    /// The files the verify rests on that were compared; empty when it names none,
    /// and then any change to the repository counts.
    pub files: Vec<String>,
}

impl std::fmt::Display for GreenAtStart {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let short = &self.commit[..self.commit.len().min(12)];
        write!(
            f,
            "verify already passed when the goal started (at {short})"
        )?;
        let shown = 3;
        match self.files.len() {
            0 => write!(f, " and nothing in the repository changed since"),
            n if n <= shown => write!(
                f,
                " and no file it rests on changed since ({})",
                self.files.join(", ")
            ),
            n => write!(
                f,
                " and no file it rests on changed since ({} and {} more)",
                self.files[..shown].join(", "),
                n - shown
            ),
        }
    }
}

/// The start that counts ([`start`]).
struct Start<'a> {
    /// How its verify ended, when it ran.
    verify: Option<AtStart>,
    /// The commit it names.
    commit: Option<&'a str>,
    /// Its log line's text, as the plan file has it.
    text: &'a str,
}

/// The start that counts: the first `started` line since the goal was last
/// reopened (as for weakened tests: a later start cannot move the comparison past
/// the work).
fn start<'a>(plan: &Plan<'a>, id: &str) -> Option<Start<'a>> {
    let mut first = None;
    for (entry, event) in plan.events(id) {
        match event {
            Event::Reopened { .. } => first = None,
            Event::Started { verify, commit, .. } if first.is_none() => {
                first = Some(Start {
                    verify,
                    commit,
                    text: entry.text,
                });
            }
            _ => {}
        }
    }
    first
}

/// Whether red first asks nothing of `goal`: `held`, the plan that vouches for it
/// (the base's at the gate, where a line the pull request adds proves nothing;
/// the plan itself for `plan show` and audit), has it imported as done and not
/// reopened since, with the contract it came in with, and `goal` still has that
/// contract. Finished work signed off here: its verify passed before, as it
/// should.
pub fn imported_done(held: &Plan<'_>, goal: &Goal<'_>) -> bool {
    let Some(was) = held.goal(&goal.id) else {
        return false;
    };
    let imported = held
        .events(&goal.id)
        .fold(false, |imported, (_, e)| match e {
            Event::Imported { .. } => true,
            Event::Reopened { .. } | Event::Added { .. } => false,
            _ => imported,
        });
    imported && held.unapproved(was).is_none() && rules::changed_words(was, goal).is_empty()
}

/// `verify-green-at-start` for `goal`: its verify passed at the start that counts,
/// and no file it rests on differs between that start's commit and the working tree
/// now. The files are those the verify names and their closure
/// (`judge::files::verify_closure`), with `recorded` (a transcript's verify files);
/// when there are none, every file but plan's own. `None`: no finding, or nothing
/// to compare (no verify, a start without a verify run or a commit).
pub fn green_at_start(
    root: &Path,
    plan_rel: Option<&str>,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    recorded: &[String],
) -> Result<Option<GreenAtStart>> {
    let Some(Start {
        verify: Some(AtStart::Passing),
        commit: Some(commit),
        ..
    }) = start(plan, &goal.id)
    else {
        return Ok(None);
    };
    if imported_done(plan, goal) {
        return Ok(None);
    }
    unchanged_since(root, plan_rel, goal, recorded, commit, &[])
}

/// The finding for a verify that passed at `commit`, when no file it rests on
/// differs between that commit and the working tree now but in comments and
/// layout ([`means_the_same`]; see [`green_at_start`]).
/// The files in `laid` ([`laid_over`]) were the same in both runs, so their
/// changes do not count. `None`: something it rests on changed, or the goal has no
/// verify that parses.
pub fn unchanged_since(
    root: &Path,
    plan_rel: Option<&str>,
    goal: &Goal<'_>,
    recorded: &[String],
    commit: &str,
    laid: &[String],
) -> Result<Option<GreenAtStart>> {
    let Some(Ok(parsed)) = goal.verify().map(verify::parse) else {
        return Ok(None);
    };
    let files = rests_on(root, &parsed, recorded);
    let wanted = |path: &str| {
        if laid.iter().any(|f| f == path) {
            false
        } else if files.is_empty() {
            !own::is_own(path.as_bytes(), plan_rel.map(str::as_bytes))
        } else {
            files.iter().any(|f| f == path)
        }
    };
    let changed = git::changed_since(root, Some(commit), &wanted)?;
    // Where the verify names no file it rests on every file a program could read;
    // of those, Markdown prose is none a test runner runs ([`prose_only`]).
    let anything = files.is_empty();
    let shell = shell_scripts(root, &parsed);
    let same = |file: &git::Changed| {
        means_the_same(file, shell.contains(&file.path)) || (anything && prose_only(file))
    };
    let changed = crate::weakened::on_own_stack(|| !changed.iter().all(same));
    Ok((!changed).then(|| GreenAtStart {
        commit: commit.to_string(),
        files,
    }))
}

/// Whether a file that differs since the start means what it did: a comment
/// added or layout changed (`# graded`, a blank line) claims no work, and must
/// not turn `verify-green-at-start` off; the weakened check ignores such edits
/// too. Read through its grammar ([`syntax::same_meaning`]; a shell script through
/// [`syntax::shell::same_meaning`], or, with `shell` (the verify runs it through a
/// shell by name: [`shell_scripts`]), [`syntax::shell::same_script`]; a makefile
/// through [`syntax::make::same_meaning`]; `.gitignore` and its kind through
/// [`syntax::ignore::same_meaning`]): a file of none, one that does not
/// parse, one moved, added or gone, differs. Bytes that are no UTF-8 are read as
/// U+FFFD, so a comment holding one is a comment: two versions alike only so
/// differ in a string at most, and the finding errs towards firing.
fn means_the_same(file: &git::Changed, shell: bool) -> bool {
    // A text git::changed_since cut short is past the cap the grammar reads to.
    const _: () = assert!(crate::plan::weakened::MAX_TEXT >= syntax::MAX_BYTES);
    match (&file.was, &file.before, &file.after) {
        (None, Some(before), Some(after)) => {
            // Past the cap the text read is cut short and no grammar reads it: a
            // comment padding code past it would otherwise end the finding.
            let cut = |text: &str| text.len() > syntax::MAX_BYTES;
            let read = |text: &str| shell || syntax::shell::is_shell(&file.path, text);
            let make = syntax::make::is_makefile(&file.path);
            let ignore = syntax::ignore::is_ignore_file(&file.path);
            let grammar = syntax::Grammar::of(&file.path).is_some()
                || make
                || ignore
                || read(before)
                || read(after);
            if grammar && (cut(before) || cut(after)) {
                return true;
            }
            if shell {
                return syntax::shell::same_script(before, after);
            }
            if make {
                return syntax::make::same_meaning(before, after);
            }
            if ignore {
                return syntax::ignore::same_meaning(before, after);
            }
            syntax::same_meaning(&file.path, before, after)
                || syntax::shell::same_meaning(&file.path, before, after)
        }
        _ => false,
    }
}

/// The files the verify line runs through a shell by name (`bash check`, `sh -e
/// ci/check`): shell scripts, whatever their names or `#!` lines say, since the
/// shell reads them as such. Not a file another word of the line names too
/// (`bash check && grep -q graded check`): there its comments may be what is
/// checked.
fn shell_scripts(root: &Path, verify: &Verify) -> Vec<String> {
    let mut run = Vec::new();
    let mut other = Vec::new();
    for command in verify.chain.iter().flat_map(|p| &p.commands) {
        let script = crate::judge::files::shell_operand(command);
        for (i, word) in command.iter().enumerate() {
            if let Some(rel) = crate::judge::files::in_repo(root, word) {
                match Some(i) == script {
                    true => run.push(rel),
                    false => other.push(rel),
                }
            }
        }
    }
    run.retain(|rel| !other.contains(rel));
    run
}

/// Whether a file that differs since the start is a document for people
/// (README.md, docs/index.rst, NOTES.txt; not a test's data:
/// [`crate::plan::prose::is_prose`]) that changed only in its prose and layout
/// ([`crate::plan::prose::same_code`]): its code blocks, which rustdoc, Sphinx or
/// a doctest runner could run (not a ```` ```text ```` one), and its doctest
/// prompts are as they were. Asked only of a verify that names no file (`node
/// --test`, `cargo test`), which rests on every file: a sentence added to the
/// README gives its runner nothing new to run, and must not turn
/// `verify-green-at-start` off. A file added, gone or moved differs.
fn prose_only(file: &git::Changed) -> bool {
    match (&file.was, &file.before, &file.after) {
        (None, Some(before), Some(after)) => {
            crate::plan::prose::same_code(&file.path, before, after)
        }
        _ => false,
    }
}

/// Red first from the gate's own runs: the first start commit in `result` where
/// the verify passed, with nothing it rests on changed since (a verify green
/// before the work proves nothing about it). `None`: it failed at every start, or
/// something it rests on changed.
pub fn green_in_run(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    result: &crate::verified::GoalResult,
) -> Result<Option<GreenAtStart>> {
    let root = &ctx.repo()?.root;
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let recorded = recorded_files(root, plan, &goal.id);
    let starts: Vec<String> = result.at_start.iter().map(|r| r.commit.clone()).collect();
    let laid = match result.verify.as_deref() {
        Some(line) => laid_over(root, ctx.plan_in_repo().as_deref(), line, &starts)?,
        None => Vec::new(),
    };
    for run in result.at_start.iter().filter(|r| r.passed) {
        let green = unchanged_since(
            root,
            plan_rel.as_deref(),
            goal,
            &recorded,
            &run.commit,
            &laid,
        )?;
        if green.is_some() {
            return Ok(green);
        }
    }
    Ok(None)
}

/// The commits where the gate runs `goal`'s verify again to see whether it already
/// passed before the work, whatever the log line says of it (the line is text the
/// agent could have written, and `plan start` ran on a working tree it could have
/// broken for the moment): the commit the start that counts names, when HEAD's
/// history has it; and the commit before the one that added that line to the plan
/// file (along HEAD's first parents), where the work cannot have begun if the start
/// came first; and `base`, for every goal (a start with neither, `--no-verify` before
/// any commit or a line written only in the working tree, and no start at all, are
/// checked there alone). Each once, full ids, in that order. None for a goal
/// `base_plan` (the base's plan file) holds as imported done ([`imported_done`]).
pub fn start_commits(
    root: &Path,
    plan_rel: Option<&Path>,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: &str,
    base_plan: Option<&Plan<'_>>,
) -> Result<Vec<String>> {
    if base_plan.is_some_and(|held| imported_done(held, goal)) {
        return Ok(Vec::new());
    }
    let mut out: Vec<String> = Vec::new();
    let start = start(plan, &goal.id);
    if let Some(commit) = start.as_ref().and_then(|s| s.commit)
        && let Ok(full) = git::resolve_commit(root, commit)
        && git::is_ancestor(root, &full, "HEAD")?
    {
        out.push(full);
    }
    if let (Some(Start { text, .. }), Some(rel)) = (start, plan_rel) {
        // Newest first: the last version holding the line is the one that added it.
        let added = git::file_history(root, rel, usize::MAX)?
            .into_iter()
            .take_while(|v| v.content.lines().any(|l| l.contains(text)))
            .last();
        if let Some(added) = added
            && let Ok(before) = git::resolve_commit(root, &format!("{}^", added.commit))
            && !out.contains(&before)
        {
            out.push(before);
        }
    }
    // And the base, always: a start line taken after the pull request broke what
    // the verify checks for the moment (deleted, then put back unchanged) names
    // red commits only.
    let base = git::resolve_commit(root, base)?;
    if !out.contains(&base) {
        out.push(base);
    }
    Ok(out)
}

/// The files the gate lays over a start commit's checkout, as the commit it judges
/// has them, before it runs the verify `line` there: the scripts the line runs
/// (`judge::files::verify_scripts`), the plan file (`plan_rel`),
/// every other file HEAD has that plan wrote to since one of the `starts` (a log
/// line, a goal's title, status, contract or subtasks), whatever its name
/// ([`crate::plan::gate::logged_since`]: `plan --file conf/side.yaml start x`), and the judges' transcripts (`.plan/judge/`). Red
/// first asks whether this check would have passed before the work: a script the
/// work added is missing at the start, and a verify that reads a `started` line
/// (its own, or that of a goal started after it, in any plan file) or a
/// transcript of a sign-off after it finds none there, so either would read as
/// red however little it checks. A plan-shaped file plan never logged to (an
/// example the work writes in the docs, or one the base quotes unchanged) is the
/// work's, and stays as the start had it, as do what the scripts run in turn
/// and the files they check: they may be the work, and laid there would make
/// an honest check that runs the work's own script green at the start. Read from the working tree and HEAD at `root` (the
/// commit judged, checked out), so the verify job and the judge job name the
/// same files.
pub fn laid_over(
    root: &Path,
    plan_rel: Option<&Path>,
    line: &str,
    starts: &[String],
) -> Result<Vec<String>> {
    let mut out = match verify::parse(line) {
        Ok(parsed) => crate::judge::files::verify_scripts(root, &parsed),
        Err(_) => Vec::new(),
    };
    let mut plans = Vec::new();
    for (path, now) in git::files_where(root, "HEAD", &[""], rules::is_logged)? {
        let Some(rel) = path.to_str() else { continue };
        for start in starts {
            // A folder or a submodule there at the start is no copy of it: new
            // since (review 114), and laid.
            let then = git::file_at(root, start, &path).ok().flatten();
            if rules::logged_since(&now, then.as_deref()) {
                plans.push(rel.to_string());
                break;
            }
        }
    }
    let judged = |path: &str| path.starts_with(crate::plan::proof::JUDGE_DIR);
    let transcripts = git::paths_at(root, None, &judged)?;
    let plan_rel = plan_rel.and_then(Path::to_str).map(str::to_string);
    // Each once, in order, looked up in one step: transcripts grow with every
    // sign-off, and a list searched per path is quadratic in them (review 112).
    let mut seen: std::collections::HashSet<String> = out.iter().cloned().collect();
    for rel in plan_rel.into_iter().chain(plans).chain(transcripts) {
        if seen.insert(rel.clone()) {
            out.push(rel);
        }
    }
    Ok(out)
}

/// Where the verify `line` reads the plan file (`plan_rel`): the line itself, or
/// a script it rests on, names it. The plan file is plan's own log, which the
/// work writes (`started`, `completed`): a check that reads it can tell the start
/// from the end without looking at the work. `None`: it names it nowhere.
pub fn reads_plan(root: &Path, plan_rel: &str, line: &str) -> Option<String> {
    let parsed = verify::parse(line).ok()?;
    crate::judge::files::naming(root, &parsed, plan_rel)
}

/// The repository files `verify` rests on: those it names and their closure, and
/// `recorded`, each once.
fn rests_on(root: &Path, verify: &Verify, recorded: &[String]) -> Vec<String> {
    let mut files = crate::judge::files::verify_closure(root, verify);
    for path in recorded {
        if !files.contains(path) {
            files.push(path.clone());
        }
    }
    files
}

/// The finding for `goal` as the read commands show it, worded; a check that cannot
/// run leaves it unknown (`None`): `--strict` says so itself.
pub fn of_goal(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>) -> Option<String> {
    found(ctx, plan, goal).ok().flatten()
}

/// The finding for `goal`, worded, found again from git: for a done goal its latest
/// sign-off's recorded verify files join the comparison. Where the start's commit is
/// not in this clone (a branch squashed away), what that sign-off's transcript
/// recorded stands instead: bound to its line by hash, and no noise forever after.
pub fn found(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>) -> Result<Option<String>> {
    let Some(repo) = &ctx.repo else {
        return Ok(None);
    };
    let root = &repo.root;
    if let Some(Start {
        verify: Some(AtStart::Passing),
        commit: Some(commit),
        ..
    }) = start(plan, &goal.id)
        && !imported_done(plan, goal)
        && unknown_commit(root, commit)
    {
        return Ok(recorded_finding(root, plan, &goal.id));
    }
    let recorded = recorded_files(root, plan, &goal.id);
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let green = green_at_start(root, plan_rel.as_deref(), plan, goal, &recorded)?;
    Ok(green.map(|green| green.to_string()))
}

/// Whether `commit` names nothing in the repository at `root`.
fn unknown_commit(root: &Path, commit: &str) -> bool {
    matches!(git::commit_time(root, commit),
        Err(e) if e.downcast_ref::<git::UnknownRevision>().is_some())
}

/// The `- verify-green-at-start:` line of the `## Verify` section of the goal's latest
/// sign-off transcript, if it has one.
fn recorded_finding(root: &Path, plan: &Plan<'_>, id: &str) -> Option<String> {
    let record = crate::plan::proof::latest_record(plan, id)?;
    let text = crate::record::text(root, record.path)?;
    let (_, verify) = text.split_once("\n## Verify\n")?;
    let verify = verify.split("\n## ").next()?;
    verify
        .lines()
        .find_map(|l| l.strip_prefix("- verify-green-at-start: "))
        .map(str::to_string)
}

/// The verify files the goal's latest sign-off recorded, by path.
pub fn recorded_files(root: &Path, plan: &Plan<'_>, id: &str) -> Vec<String> {
    let Some(record) = crate::plan::proof::latest_record(plan, id) else {
        return Vec::new();
    };
    match crate::record::facts(root, record.path) {
        crate::plan::proof::Facts::Present {
            header: Some(header),
            ..
        } => header
            .verify_files
            .into_iter()
            .map(|(path, _)| path)
            .collect(),
        _ => Vec::new(),
    }
}

/// `plan audit --strict`'s findings about a done goal's sign-off: a verify that
/// cannot fail, and `verify-green-at-start`, found again from the repository (a
/// transcript is text the agent could have written). A check that cannot run is a
/// finding too, so `--strict` fails closed.
pub fn strict_findings(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>) -> Vec<String> {
    if goal.status() != crate::plan::model::Status::Done {
        return Vec::new();
    }
    let mut out = Vec::new();
    if let Some(why) = goal.verify().and_then(cannot_fail) {
        out.push(format!(
            "verify-cannot-fail: the sign-off rests on a verify that cannot fail: {why}"
        ));
    }
    if let (Some(repo), Some(line), Some(rel)) = (&ctx.repo, goal.verify(), ctx.plan_in_repo())
        && let Some(rel) = rel.to_str()
        && let Some(place) = reads_plan(&repo.root, rel, line)
    {
        out.push(format!(
            "verify-reads-plan: the verify reads the plan file ({place} names {rel}): plan's own log tells the start from the end without the work; check the work itself"
        ));
    }
    match found(ctx, plan, goal) {
        Ok(Some(green)) => out.push(format!("verify-green-at-start: {green}")),
        Ok(None) => {}
        Err(e) => out.push(format!("verify-green-at-start could not be checked: {e:#}")),
    }
    out
}

//! The pull-request gate behind `plan audit --base REV`: refuses a history that
//! hides commits, reads the base's plan files from git, finds the reverts of
//! sign-offs, re-runs a new sign-off's verify and judge where the repository cannot
//! steer them (`--rejudge`), and collects `--strict`'s findings. `cmd/audit.rs`
//! renders what this returns; the comparisons themselves are in `plan/gate.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::config;
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git::{self, Tracking};
use crate::judge::files as judge_files;
use crate::judge::guard::Depth;
use crate::judge::prompt;
use crate::judge::run::{self as judge_run, Judge};
use crate::judge::verdict::Verdict;
use crate::plan::gate::{self as rules, Change, Lost, Reverted};
use crate::plan::history;
use crate::plan::model::{Goal, Plan, parse};
use crate::reach::{evidence_paths, nested};
use crate::{verified, verify};

pub use crate::reach::touched;

pub mod audit;
pub mod ci_record;
pub mod others;
pub mod report;
pub mod unclaimed;

/// What `actions/checkout` needs to fetch the whole history, for hints.
pub const FETCH_HINT: &str = "fetch the whole history: `git fetch --unshallow`, and remove .git/info/grafts and refs/replace/* (`git replace -d`); in GitHub Actions, give actions/checkout `fetch-depth: 0`";

/// Refuses (exit 3) a repository whose history git shows only in part: audit's
/// search for removed log lines would pass over a removed reopen it cannot see.
pub fn refuse_hidden_history(root: &Path) -> Result<()> {
    let hidden = git::hidden_history(root)?;
    if hidden.is_empty() {
        return Ok(());
    }
    Err(Exit::env_hint(
        format!(
            "audit cannot see this repository's whole history: {}; a removed reopen could hide there",
            hidden.join("; ")
        ),
        FETCH_HINT,
    ))
}

/// The sign-offs `git revert` took back in the history HEAD reaches.
pub fn reverts(ctx: &Ctx) -> Result<Vec<Reverted>> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for revert in git::reverts(&repo.root, &rel)?
        .into_iter()
        .filter(|r| r.exact)
    {
        out.extend(rules::reverted(
            (&revert.commit, &revert.reverted),
            (
                revert.reverted_change.0.as_deref(),
                revert.reverted_change.1.as_deref(),
            ),
            (
                revert.revert_change.0.as_deref(),
                revert.revert_change.1.as_deref(),
            ),
        ));
    }
    Ok(out)
}

/// Every log line a real `git revert` (the exact inverse of the commit it names)
/// took back in the history HEAD reaches: no such line counts as lost.
pub fn taken_back(ctx: &Ctx) -> Result<Vec<rules::Key>> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for revert in git::reverts(&repo.root, &rel)?
        .into_iter()
        .filter(|r| r.exact)
    {
        out.extend(rules::taken_back(
            (
                revert.reverted_change.0.as_deref(),
                revert.reverted_change.1.as_deref(),
            ),
            (
                revert.revert_change.0.as_deref(),
                revert.revert_change.1.as_deref(),
            ),
        ));
    }
    Ok(out)
}

/// The head measured against a base revision.
#[derive(Debug, Serialize)]
pub struct Base {
    /// As given on the command line.
    pub rev: String,
    pub commit: String,
    /// The base's log lines the head lacks or has out of order, in any plan file.
    pub lost_lines: Vec<Lost>,
    /// The base's goals the head has under no heading.
    pub lost_goals: Vec<String>,
    /// Goals signed off in lines the base does not have.
    pub signed_off: Vec<String>,
    /// Every contract change the head carries, approved at a terminal or not.
    pub contract_changes: Vec<Change>,
    /// The base's goals renamed, or stripped of subtasks left unticked.
    pub reshaped: Vec<rules::Reshaped>,
    /// Goals done here and not on the base that no sign-off line new since the
    /// base proves: set done by hand, or proven by a sign-off the base already had.
    pub unsigned_done: Vec<String>,
    /// The base's goals cancelled here.
    pub cancels: Vec<rules::Cancel>,
    /// The head's format errors, each `FILE:LINE: message`: a line plan reads
    /// around (a look-alike status) is not what a reviewer reads.
    pub format_errors: Vec<String>,
    /// What the gate found in the repository's other plan files
    /// ([`others`]): filled in by the caller.
    pub other_files: Vec<others::OtherGoal>,
    /// `ci_judged` lines the head adds to the configured file, each `FILE:LINE:
    /// line`: only the workflow's update job writes them, after a merge.
    pub ci_lines: Vec<String>,
}

pub use crate::plan::gate::{PLAN_NAMES, is_plan};

/// Measures `head` (the plan file as it is now) against `rev`. Every plan file of
/// the base counts: the configured one (a base without it is an empty plan), and
/// each other plan file of the base's tree ([`is_plan`]), compared with the file as
/// it is now.
pub fn against(ctx: &Ctx, head: &Plan<'_>, rev: &str, reverts: &[Reverted]) -> Result<Base> {
    let repo = ctx.repo()?;
    let commit = git::resolve_commit(&repo.root, rev).map_err(|e| {
        Exit::usage_hint(
            format!("--base: {e:#}"),
            "name a commit this clone has: in GitHub Actions, the pull request's base sha, checked out with `fetch-depth: 0` (4 to 39 hex digits are read as a commit; name such a branch in full, refs/heads/NAME)",
        )
    })?;
    let main = ctx.plan_in_repo();
    let others: Vec<(PathBuf, String)> =
        git::files_where(&repo.root, &commit, PLAN_NAMES, is_plan)?
            .into_iter()
            .filter(|(path, _)| main.as_ref() != Some(path))
            .collect();
    let mut out = Base {
        rev: rev.to_string(),
        commit: commit[..12].to_string(),
        lost_lines: Vec::new(),
        lost_goals: Vec::new(),
        signed_off: Vec::new(),
        contract_changes: Vec::new(),
        reshaped: Vec::new(),
        unsigned_done: Vec::new(),
        cancels: Vec::new(),
        other_files: Vec::new(),
        ci_lines: Vec::new(),
        format_errors: head
            .errors
            .iter()
            .map(|e| {
                format!(
                    "{}:{}: a format error at the head: {}",
                    ctx.store.name, e.line, e.message
                )
            })
            .collect(),
    };
    // A base without the file is an empty plan: every sign-off the pull request
    // adds with the file is new, and every goal it brings done needs one.
    if let Some(rel) = &main {
        let then_text = git::file_at(&repo.root, &commit, rel)?.unwrap_or_default();
        let then = parse(&then_text);
        let name = rel.to_string_lossy();
        let taken_back = taken_back(ctx)?;
        let excused = |k: &rules::Key| {
            reverts.iter().any(|r| r.entries.contains(k)) || taken_back.contains(k)
        };
        out.lost_lines = rules::lost_lines(&name, &then, head, &excused);
        out.lost_goals = rules::lost_goals(&then, head);
        out.ci_lines = rules::ci_lines_added(&then, head)
            .into_iter()
            .map(|(line, _, text)| format!("{name}:{line}: `{text}`: {}", rules::CI_LINE_ADDED))
            .collect();
        out.signed_off = rules::new_sign_offs(&then, head);
        out.contract_changes = rules::contract_changes(&then, head);
        out.contract_changes
            .extend(softened_checks(&repo.root, &commit, &then, head)?);
        out.reshaped = rules::reshaped(&then, head);
        out.cancels = rules::cancels(&then, head);
        for cancel in out.cancels.iter_mut().filter(|c| c.reopened) {
            cancel.reverted_by = reverts
                .iter()
                .find(|r| r.id == cancel.id)
                .map(|r| r.commit.clone());
        }
        out.unsigned_done = rules::became_done(&then, head)
            .into_iter()
            .filter(|id| !out.signed_off.contains(id))
            .collect();
    }
    for (rel, then_text) in others {
        let then = parse(&then_text);
        let name = rel.to_string_lossy().into_owned();
        let now_text = std::fs::read_to_string(repo.root.join(&rel)).unwrap_or_default();
        let now = parse(&now_text);
        out.lost_lines
            .extend(rules::lost_lines(&name, &then, &now, &|_| false));
        out.lost_goals.extend(
            rules::lost_goals(&then, &now)
                .into_iter()
                .map(|id| format!("{id} ({name})")),
        );
    }
    Ok(out)
}

/// The base's unfinished goals whose verify's own files (the scripts it runs and
/// checks with, and what they run: `sh check.sh`, the Makefile of `make check`, a
/// pattern file; not the files it only reads, which are the work) the pull request
/// changes, each as a contract change of a goal of the base: the contract's
/// words can stay while the check under them is softened (`grep -qx 'Hello, world'
/// README.md` made `test -f README.md`), and a later pull request then signs the
/// goal off against the softer check, started after it, where nothing counts the
/// script as changed. One diff from the base serves every goal.
fn softened_checks(
    root: &Path,
    base: &str,
    then: &Plan<'_>,
    head: &Plan<'_>,
) -> Result<Vec<Change>> {
    let finished_there = |was: &Goal<'_>| was.status().is_finished();
    // A runner's own source is the product only where the project was that
    // runner at the base: renamed after a vendored runner it guts, a pull
    // request makes no check of the base's the work.
    let names = crate::weakened::project_names_at(root, base);
    let runs = |verify: &verify::Verify| {
        judge_files::verify_runs_since(root, verify, &[], &[], Some(&names)).0
    };
    let goals: Vec<(&Goal<'_>, Vec<String>)> = head
        .goals
        .iter()
        .filter(|g| !g.status().is_finished())
        .filter(|g| !then.goal(&g.id).is_none_or(finished_there))
        .filter_map(|g| match g.verify().map(verify::parse) {
            Some(Ok(parsed)) => Some((g, runs(&parsed))),
            _ => None,
        })
        .filter(|(_, files)| !files.is_empty())
        .collect();
    if goals.is_empty() {
        return Ok(Vec::new());
    }
    let named = |path: &str| {
        goals
            .iter()
            .any(|(_, files)| files.iter().any(|f| f == path))
    };
    let changed = git::changed_since(root, Some(base), &named)?;
    let mut out = Vec::new();
    for (goal, files) in &goals {
        let mine: Vec<_> = changed.iter().filter(|c| files.contains(&c.path)).collect();
        if mine.is_empty() {
            continue;
        }
        let words = mine
            .iter()
            .flat_map(|c| {
                let diff = crate::plan::wdiff::line_word_diff(
                    c.before.as_deref().unwrap_or(""),
                    c.after.as_deref().unwrap_or(""),
                    crate::plan::render::Style::default(),
                );
                let lines: Vec<String> = diff
                    .lines()
                    .filter(|l| l.contains("[-") || l.contains("{+"))
                    .map(|l| format!("{}: {l}", c.path))
                    .collect();
                lines
            })
            .collect();
        let paths: Vec<&str> = mine.iter().map(|c| c.path.as_str()).collect();
        out.push(Change {
            id: goal.id.to_string(),
            line: goal.line,
            what: format!(
                "the pull request changed {}, which its verify runs (its contract's words are unchanged)",
                paths.join(", ")
            ),
            approval: "none",
            of_base: true,
            words,
        });
    }
    Ok(out)
}

/// How each of `--strict`'s findings about the judge a sign-off named begins: a
/// re-judge that CI's own judge accepted clears them.
pub const WEAK_SIGN_OFF: &str = "weak sign-off: ";

/// `--strict`'s findings about one finished goal: a weak sign-off, contract changes
/// approved without a terminal, a transcript git does not keep, weakened tests.
/// `base` (`--base`'s commit): without one, also the goal's contract changes since a
/// terminal last approved one (with one, the pull request's own changes are counted
/// apart instead), and weakened tests are counted from the base for a goal started
/// inside the pull request.
pub fn strict_findings(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: Option<&str>,
) -> Result<Vec<String>> {
    let history = base.is_none();
    let mut out = Vec::new();
    let id = goal.id.as_ref();
    // A panel is as weak as its weakest judge; CI's own model judge accepting the
    // sign-off again (the update job's `ci_judged` line, after the merge) answers it.
    // Not in the gate: what it holds to --strict is signed off in the pull request,
    // so no line the update job wrote can be about it (one the pull request put
    // after a base's line, or above one, is the agent's).
    let judges = match (base, crate::plan::proof::judged_by_ci(plan, id)) {
        (None, Some(_)) => String::new(),
        _ => rules::sign_off_judge(plan, id).unwrap_or_default(),
    };
    for judge in judges.split(crate::plan::event::PANEL_JOIN) {
        match judge {
            "none" => out.push("weak sign-off: no judge (--judge none)".to_string()),
            "unnamed" => out.push("weak sign-off: the judge is not named".to_string()),
            j if j == "command" || j.starts_with("command:") => {
                out.push("weak sign-off: a command judge, not a model CLI".to_string());
            }
            _ => {}
        }
    }
    let unseen = if history {
        history::unseen_changes(&history::contract_steps(plan, id))
    } else {
        Vec::new()
    };
    for line in unseen {
        out.push(format!(
            "contract change approved without a terminal ({}:{line})",
            ctx.store.name
        ));
    }
    if let (Some(repo), Some(path)) = (&ctx.repo, rules::record_path(plan, id)) {
        match git::tracking(&repo.root, Path::new(path))? {
            Tracking::Tracked => {}
            Tracking::Untracked => {
                out.push(format!(
                    "transcript {path} is not tracked by git: commit it"
                ));
            }
            Tracking::Ignored => out.push(format!(
                "transcript {path} is ignored by git: other clones and CI never see it"
            )),
        }
    }
    out.extend(weakened_tests(ctx, plan, goal, base));
    out.extend(crate::red_first::strict_findings(ctx, plan, goal));
    Ok(out)
}

/// Weakened tests in the goal's work (assertions removed, skips added, the check's
/// own files edited since the goal started), one finding each, found again from git
/// (`src/weakened.rs`): the transcript's own list is text the agent could have
/// written. A check that cannot run is a finding too, so `--strict` fails closed.
fn weakened_tests(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>, base: Option<&str>) -> Vec<String> {
    let Some(repo) = &ctx.repo else {
        return Vec::new();
    };
    strong(match base {
        Some(base) => crate::weakened::since_base(&repo.root, plan, goal, base),
        None => crate::weakened::now(&repo.root, plan, goal),
    })
}

/// `--strict`'s findings about a goal done on the base whose files the pull
/// request changes: the tests its verify runs, weakened by the pull request (a
/// module that ends the run at import, a runner shadowed or replaced, a skip, an
/// assertion gone). Verified again, such a goal passes: its tests no longer test.
pub fn weakened_on_base_goal(ctx: &Ctx, goal: &Goal<'_>, base: &str) -> Vec<String> {
    let Some(repo) = &ctx.repo else {
        return Vec::new();
    };
    strong(crate::weakened::from_commit(&repo.root, goal, base, false))
}

/// Red first's other half, from the gate's own runs: a verify that failed where
/// the gate ran it at the pull request's base (`base`, a full commit id) was red
/// at the work's start, whatever the log line says (the agent writes the line;
/// `--no-verify` logs `skipped`). After a red start an exact expected value
/// rewritten beside an edit of the code is the cheap way to green
/// ([`crate::weakened::red_at_start`]): the tests are read again so, and what that
/// makes high is returned as `--strict` findings. The configured plan file's goals
/// and every other plan file's are read here, so a second file is no way around it.
pub fn red_at_base(
    root: &Path,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    result: &verified::GoalResult,
    base: &str,
) -> Vec<String> {
    // The base's run alone: the other start commits are the ones the agent's
    // lines name, and one it made green after its own rewrite would clear it
    // (helper 94's review).
    let Some(run) = (result.at_start.iter()).find(|r| r.commit == base) else {
        return Vec::new();
    };
    // Read so already when the log line says red.
    if crate::weakened::red_at_start(plan, &goal.id) {
        return Vec::new();
    }
    if run.passed {
        match scripts_changed(root, goal, result, base) {
            Ok(false) => return Vec::new(),
            Ok(true) => {}
            Err(e) => return vec![format!("weakened tests could not be checked: {e:#}")],
        }
    }
    strong(crate::weakened::since_base_red(
        root, plan, goal, base, true,
    ))
}

/// Whether a script the verify line runs, laid over the base's checkout as the
/// head has it when the gate ran it there ([`crate::red_first::laid_over`]),
/// differs from the base's (or the base has none). Such a run passing at the base
/// says nothing of the start: the script is the pull request's, and one that exits
/// 0 while the work is missing passes there and checks at the head. Honest work
/// that writes its check loses only this: an expected value rewritten beside the
/// code is then read as after a red start, as the agent's own `plan start` would
/// have logged it.
fn scripts_changed(
    root: &Path,
    goal: &Goal<'_>,
    result: &verified::GoalResult,
    base: &str,
) -> Result<bool> {
    let Some(Ok(parsed)) = result
        .verify
        .as_deref()
        .or(goal.verify())
        .map(verify::parse)
    else {
        return Ok(false);
    };
    let scripts = judge_files::verify_scripts(root, &parsed);
    if scripts.is_empty() {
        return Ok(false);
    }
    let wanted = |path: &str| scripts.iter().any(|s| s == path);
    Ok(!git::changed_since(root, Some(base), &wanted)?.is_empty())
}

/// One finding per weakened test that fails `--strict`.
fn strong(found: Result<Vec<crate::plan::weakened::Finding>>) -> Vec<String> {
    use crate::plan::weakened::kinds;
    match found {
        // Hack-shaped code that honest code can hold too (a low-confidence kind) is
        // shown everywhere else but fails nothing on its own.
        Ok(found) => found
            .iter()
            .filter(|f| kinds::high(f))
            .map(|f| format!("weakened tests: {}", kinds::tagged(f)))
            .collect(),
        Err(e) => vec![format!("weakened tests could not be checked: {e:#}")],
    }
}

/// Why `goal`'s verify cannot prove anything now, found without running it: a
/// verify that does not parse, or one whose own files (by blob, as the transcript
/// recorded them) changed since the sign-off.
pub fn files_changed(plan: &Plan<'_>, goal: &Goal<'_>, root: &std::path::Path) -> Option<String> {
    let line = goal.verify()?;
    let parsed = match verify::parse(line) {
        Ok(parsed) => parsed,
        Err(e) => return Some(format!("failed: verify cannot run: {}", e.message)),
    };
    let signed = crate::plan::proof::latest_record(plan, &goal.id)
        .map(|r| crate::record::facts(root, r.path));
    let Some(crate::plan::proof::Facts::Present {
        header: Some(header),
        ..
    }) = signed
    else {
        return None;
    };
    let now = crate::record::verify_files(root, &parsed);
    let changed: Vec<&str> = header
        .verify_files
        .iter()
        .filter(|(path, blob)| !now.iter().any(|(p, b)| p == path && b == blob))
        .map(|(path, _)| path.as_str())
        .collect();
    (!changed.is_empty()).then(|| {
        format!(
            "failed: the check's own files changed since the sign-off ({}), so passing it now proves nothing; review the change (git diff), then plan reopen {} and sign it off again",
            changed.join(", "),
            goal.id
        )
    })
}

/// Of `reverify` (goals done on the base, verified again), those the judge is not
/// asked about: their work unchanged (not in `judge_again`), or their verify failed
/// in `results`, which is their failure already.
pub fn verify_only(
    reverify: &[String],
    judge_again: &[String],
    results: &verified::Results,
) -> Vec<String> {
    reverify
        .iter()
        .filter(|id| {
            !judge_again.contains(id) || !results.goals.iter().any(|r| &r.id == *id && r.passed)
        })
        .cloned()
        .collect()
}

/// Whether the pull request changes the work of a goal done on the base, of its
/// `touched` files (see [`touched`]): a file the goal's work changed from its
/// start to its sign-off's checkpoint, or an evidence path its sign-off named,
/// both read from `plan`, the base's plan (the pull request could add a `started`
/// line of its own before the base's), its start found on `base`'s line
/// ([`work_start`]). Such a goal is judged again under `--rejudge`; one touched
/// only through a verify that runs a program (which rests on every file) is
/// verified again only, or every pull request would ask the judge about every
/// such goal. So is a goal with no checkpoint to compare (imported done), as
/// before; a goal with no usable start, or a checkpoint named but not there to
/// read, is judged again.
pub fn work_touched(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: &str,
    touched: &[String],
) -> Result<bool> {
    let Some(repo) = &ctx.repo else {
        return Ok(false);
    };
    let root = &repo.root;
    let mut work: Vec<String> = Vec::new();
    if let Some(path) = rules::record_path(plan, &goal.id) {
        let transcript = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        work.extend(evidence_paths(&transcript));
    }
    let checkpoint = plan.events(&goal.id).rev().find_map(|(_, e)| match e {
        crate::plan::event::Event::SignedOff { checkpoint, .. } => Some(checkpoint),
        _ => None,
    });
    let hit = |work: &[String]| {
        touched
            .iter()
            .any(|t| work.iter().any(|w| nested(t, w.trim_end_matches('/'))))
    };
    let Some(Some(checkpoint)) = checkpoint else {
        return Ok(hit(&work));
    };
    let Ok(checkpoint) = git::resolve_commit(root, checkpoint) else {
        return Ok(true);
    };
    // No start to measure the work from: judged again, as anything the verify
    // rests on changed (the caller's `touched`).
    let Some(start) = work_start(ctx, plan, goal, base, &checkpoint)? else {
        return Ok(true);
    };
    match git::changes_between(root, &start, &checkpoint, &|_| true) {
        Ok(changes) => work.extend(changes.into_iter().map(|c| c.path)),
        Err(_) => return Ok(true),
    }
    Ok(hit(&work))
}

/// Where a goal's work starts, for the gate: a commit on `base`'s first-parent line
/// (the base branch's own history, which the pull request's commits cannot be on,
/// nor a branch merged into the base with a merge commit) that is an ancestor of
/// the sign-off's `checkpoint` and not the checkpoint itself. The goal's `started`
/// line's commit when it is such a commit (the line is a pull request's to write:
/// one naming the checkpoint or its parent, or no commit, would make the work
/// nothing); else the commit before the one whose plan first has the goal started,
/// back along `base`'s first parents, or, when the work was done on a branch that
/// left the line before that (the base moved on before the branch was merged),
/// where that branch left it. `None`: no such commit (started before the history
/// begins, or a checkpoint off the base's line).
fn work_start(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: &str,
    checkpoint: &str,
) -> Result<Option<String>> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(None);
    };
    let root = &repo.root;
    let usable = |start: &str| -> Result<bool> {
        Ok(start != checkpoint
            && git::is_ancestor(root, start, checkpoint)?
            && git::on_first_parents(root, start, base)?)
    };
    if let Some(named) = crate::weakened::start_commit(plan, &goal.id) {
        match git::resolve_commit(root, named) {
            Ok(start) if usable(&start)? => return Ok(Some(start)),
            // Said, not silent: a rebase-merged branch's line honestly names a
            // commit the base never had, and a forged one names the checkpoint.
            _ => crate::out::warn(&format!(
                "goal {}: its started line names commit {}, which is not a commit before its sign-off's checkpoint on the base branch's own line, so the gate ignores it and measures the goal's work from where git's history has it start",
                goal.id,
                crate::plan::text::escape_controls(named),
            )),
        }
    }
    let started = |text: &str| {
        parse(text)
            .events(&goal.id)
            .any(|(_, e)| matches!(e, crate::plan::event::Event::Started { .. }))
    };
    let Some(before) = git::parent_before_run(root, base, &rel, started)? else {
        return Ok(None);
    };
    let Some(start) = git::fork_point(root, &before, checkpoint)? else {
        return Ok(None);
    };
    Ok(usable(&start)?.then_some(start))
}

/// The judge `--rejudge` asks: `--judge`, else the user's own config
/// (`~/.config/plan/config.yaml`), else `auto`. The repository's `.plan/config.yaml`
/// is not read: the pull request under review could have written it. The judge CLI
/// takes its key and endpoint from the environment, as CI passes them.
pub fn rejudge_judge(flag: Option<&str>) -> Result<(Judge, Duration)> {
    let config = config::load_user()?;
    let judge = crate::judge::resolve::one(flag, &config)?.ok_or_else(|| {
        Exit::usage_hint(
            "--rejudge needs a judge; `none` judges nothing",
            "name one with --judge BACKEND, or set judge.backend in ~/.config/plan/config.yaml",
        )
    })?;
    Ok((judge, Duration::from_secs(config.verify_timeout_secs)))
}

/// What a re-judge found.
#[derive(Debug)]
pub struct Rejudged {
    /// `passed`, `no verify`, or `failed: …`.
    pub verify: String,
    /// `accept`, `reject: …`, `no verdict: …`, or `not asked` after a failed verify.
    pub verdict: String,
}

impl Rejudged {
    pub fn passed(&self) -> bool {
        self.verdict == "accept" && !self.verify.starts_with("failed")
    }
}

/// The environment a re-run verify gets: enough to find and run a toolchain, none
/// of the caller's secrets (the judge's key among them). HOME and TMPDIR are not
/// passed: verify gets throwaway ones, so it writes no judge config by accident of
/// `~`. Where the toolchain homes are not set, they are named under the real HOME
/// (cargo and rustup find nothing otherwise).
const CLEAN_ENV: &[&str] = &[
    "PATH",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "GOPATH",
    "GOCACHE",
    "GOMODCACHE",
];

/// Words in a variable's name that mark it as a credential: never passed to
/// verify, even when the list above names it.
const SECRET_WORDS: &[&str] = &["KEY", "TOKEN", "SECRET", "PASSWORD", "CREDENTIAL", "AUTH"];

/// Whether a variable's name looks like it holds a credential.
fn secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    SECRET_WORDS.iter().any(|w| upper.contains(w))
}

/// What the judge of one goal is told, read from the pinned commit before any
/// verify runs: code verify runs could rewrite the checkout afterwards.
struct Prepared {
    evidence: String,
    /// Repository-relative paths the sign-off named as evidence, confined later.
    paths: Vec<String>,
    diff_base: Option<String>,
    /// Whether `diff_base` is the pull request's base ([`Rejudge::against_base`]),
    /// not the goal's start.
    diff_from_base: bool,
    diff_stat: String,
    history: String,
    weakened: Vec<crate::plan::weakened::Finding>,
    /// `verify-green-at-start`, worded, when the goal's verify passed at its start.
    green_at_start: Option<String>,
    /// The commits where the verify is run again for red first
    /// ([`Rejudge::check_starts`]); empty: not checked.
    at_start: Vec<String>,
    /// The files laid over each of those commits' checkouts from the one judged
    /// ([`crate::red_first::laid_over`]).
    laid: Vec<String>,
    /// For a goal the base has: the verify it has there, and the contract lines
    /// the pull request changed ([`Rejudge::against_base`]); `None`: a goal new in
    /// the pull request, held to its own contract.
    base: Option<BaseContract>,
}

/// What the re-judge holds a goal the base has to: the base's contract, not the
/// one the pull request under review wrote.
struct BaseContract {
    verify: Option<String>,
    /// The contract's lines the pull request changed, words marked as `--markdown`
    /// marks them; empty: unchanged.
    changed: Vec<String>,
}

/// The verify the gate runs for a goal: the base's for a goal the base has (a pull
/// request that made it easier would otherwise pick its own check), else the
/// goal's own.
fn verify_of<'x>(goal: &'x Goal<'_>, prepared: &'x Prepared) -> Option<&'x str> {
    match &prepared.base {
        Some(base) => base.verify.as_deref(),
        None => goal.verify(),
    }
}

/// The goals a re-judge covers, with the commit it pins: HEAD when it began.
pub struct Rejudge<'p, 'a> {
    commit: String,
    goals: Vec<(&'p Goal<'a>, Prepared)>,
    /// The base's text of the plan file ([`Self::against_base`]): the contract
    /// each goal it has is judged against.
    base_text: Option<String>,
}

impl<'p, 'a> Rejudge<'p, 'a> {
    /// Pins HEAD and reads what each of `goals`' judges will be told.
    pub fn prepare(ctx: &Ctx, plan: &Plan<'a>, goals: Vec<&'p Goal<'a>>) -> Result<Self> {
        let root = &ctx.repo()?.root;
        let commit = git::resolve_commit(root, "HEAD")?;
        let mut out = Vec::new();
        for goal in goals {
            let id = goal.id.as_ref();
            let transcript = match rules::record_path(plan, id) {
                Some(p) => git::file_at(root, &commit, Path::new(p))?.unwrap_or_default(),
                None => String::new(),
            };
            let (evidence, paths) = evidence_of(&transcript);
            let start = crate::weakened::start_commit(plan, id).map(str::to_string);
            let (diff_base, diff_stat) = match git::diff_stat_since(root, start.as_deref()) {
                Ok(stat) => (start, stat),
                Err(_) => (None, git::diff_stat_since(root, None).unwrap_or_default()),
            };
            let prepared = Prepared {
                evidence,
                paths,
                diff_base,
                diff_from_base: false,
                diff_stat,
                history: contract_history(plan, id),
                weakened: crate::weakened::now(root, plan, goal)?,
                green_at_start: crate::red_first::of_goal(ctx, plan, goal),
                at_start: Vec::new(),
                laid: Vec::new(),
                base: None,
            };
            out.push((goal, prepared));
        }
        Ok(Rejudge {
            commit,
            goals: out,
            base_text: None,
        })
    }

    /// Holds each goal the base has to the base's contract, as the configured plan
    /// file has it at `base`: see [`Self::against_base_text`]. Each judge is told
    /// what weakened the tests and what changed counting from the base too, as
    /// `--strict` counts ([`crate::weakened::since_base`]): a `started` line inside
    /// the pull request is the agent's to write, and one with no commit, or moved
    /// past the work (sign off, reopen, start), showed the judge nothing.
    pub fn against_base(&mut self, ctx: &Ctx, plan: &Plan<'_>, base: &str) -> Result<()> {
        let root = &ctx.repo()?.root;
        let base = git::resolve_commit(root, base)?;
        for (goal, prepared) in &mut self.goals {
            prepared.weakened = crate::weakened::since_base(root, plan, goal, &base)?;
            // From the base always: a start line naming an old commit padded the
            // stat past its cap with the base's own history, the pull request's
            // files cut off (helper 91's).
            prepared.diff_stat = git::diff_stat_since(root, Some(&base))?;
            prepared.diff_base = Some(base.clone());
            prepared.diff_from_base = true;
        }
        let Some(rel) = ctx.plan_in_repo() else {
            return Ok(());
        };
        let text = git::file_at(root, &base, &rel)?.unwrap_or_default();
        self.against_base_text(text);
        Ok(())
    }

    /// Holds each goal `base_text` (the base's plan file) has to the contract it
    /// has there: its verify is the one run, in one job and in the verify job
    /// alike, and its done_when, failure modes and subtasks are what the judge is
    /// given, with the lines the pull request changed. A pull request that softens
    /// a contract and signs the goal off is judged against what it softened. A
    /// change approved through the forge (`--approved-by`) counts once merged: the
    /// next pull request's base has it. Goals new here keep their own contract.
    pub fn against_base_text(&mut self, base_text: String) {
        let then = parse(&base_text);
        for (goal, prepared) in &mut self.goals {
            if let Some(was) = then.goal(&goal.id) {
                prepared.base = Some(BaseContract {
                    verify: was.verify().map(str::to_string),
                    changed: rules::changed_words(was, goal),
                });
            }
        }
        self.base_text = Some(base_text);
    }

    /// The full commit id pinned.
    pub fn commit(&self) -> &str {
        &self.commit
    }

    /// Each goal's id, verify line and red-first commits, as a results file must
    /// name them.
    pub fn expected(&self) -> Vec<verified::Expected<'_>> {
        self.goals
            .iter()
            .map(|(g, p)| verified::Expected {
                id: g.id.as_ref(),
                verify: verify_of(g, p),
                from_base: p.base.is_some(),
                at_start: &p.at_start,
            })
            .collect()
    }

    /// Red first, checked by running rather than read from the log: each goal of
    /// `ids` with a verify is to be run again where it started
    /// ([`crate::red_first::start_commits`]) by [`Self::verify_all`]. Found from git
    /// alone, so the judge job names the same commits without running anything.
    pub fn check_starts(
        &mut self,
        ctx: &Ctx,
        plan: &Plan<'_>,
        ids: &[String],
        base: &str,
    ) -> Result<()> {
        let root = &ctx.repo()?.root;
        let rel = ctx.plan_in_repo();
        let then = self.base_text.as_deref().map(parse);
        for (goal, prepared) in &mut self.goals {
            if let Some(line) = verify_of(goal, prepared)
                && ids.iter().any(|id| *id == *goal.id)
            {
                let at_start = crate::red_first::start_commits(
                    root,
                    rel.as_deref(),
                    plan,
                    goal,
                    base,
                    then.as_ref(),
                )?;
                prepared.laid = crate::red_first::laid_over(root, rel.as_deref(), line, &at_start)?;
                prepared.at_start = at_start;
            }
        }
        Ok(())
    }

    /// Runs every goal's verify in a fresh copy of the pinned commit, with a
    /// scrubbed environment and a throwaway HOME and TMPDIR, and each red-first
    /// check ([`Self::check_starts`]) the same way in a copy of its commit; a
    /// verify line is run once per commit however many goals share it (ten goals
    /// resting on `cargo test` run it once). After each run, kills whatever it left
    /// running (however it re-executed itself) and checks `guard` (the judge's
    /// files; their bytes hashed again after the last): a change is exit 3, naming
    /// the file.
    pub fn verify_all(
        &self,
        ctx: &Ctx,
        timeout: Duration,
        guard: Option<&crate::judge::guard::Guard>,
    ) -> Result<verified::Results> {
        let root = &ctx.repo()?.root;
        // On a CI runner, the files that set the job's later steps' environment.
        let runner_files = crate::runner_files::RunnerFiles::take();
        let mut ran: Vec<((String, String), Ran)> = Vec::new();
        // `laid`: the files laid over the checkout from the pinned commit, which
        // follow from the line, so the line and the commit key a run.
        let run = |ran: &mut Vec<((String, String), Ran)>,
                   line: &str,
                   commit: &str,
                   laid: &[String],
                   id: &str|
         -> Result<usize> {
            let key = (line.to_string(), commit.to_string());
            if let Some(at) = ran.iter().position(|(k, _)| *k == key) {
                return Ok(at);
            }
            let over = (commit != self.commit).then_some((self.commit.as_str(), laid));
            let result = run_verify(root, commit, over, line, id, timeout);
            let left = crate::exec::end_descendants();
            if left > 0 {
                return Err(Exit::env_hint(
                    format!(
                        "refusing the gate: {left} process(es) that goal {id}'s verify started would not die"
                    ),
                    "the judge is not asked while the pull request's code may still run; run the gate as two jobs (`plan install ci`)",
                ));
            }
            runner_files.check()?;
            if let Some(guard) = guard {
                guard.check(Depth::Metadata)?;
            }
            ran.push((key, result?));
            Ok(ran.len() - 1)
        };
        let mut goals = Vec::new();
        for (goal, prepared) in &self.goals {
            let id = goal.id.to_string();
            let Some(line) = verify_of(goal, prepared) else {
                goals.push(verified::GoalResult {
                    id,
                    file: None,
                    verify: None,
                    passed: true,
                    failure: None,
                    tail: String::new(),
                    made: Vec::new(),
                    at_start: Vec::new(),
                });
                continue;
            };
            let at = run(&mut ran, line, &self.commit, &[], &id)?;
            let here = &ran[at].1;
            let mut result = verified::GoalResult {
                id: id.clone(),
                file: None,
                verify: Some(line.to_string()),
                passed: here.failure.is_none(),
                failure: here.failure.clone(),
                tail: here.tail.clone(),
                made: match (&here.failure, &here.scratch) {
                    (None, Some(scratch)) => made_by_verify(
                        &scratch.path().join("tree"),
                        root,
                        &self.commit,
                        &prepared.paths,
                    ),
                    _ => Vec::new(),
                },
                at_start: Vec::new(),
            };
            for commit in &prepared.at_start {
                let at = run(&mut ran, line, commit, &prepared.laid, &id)?;
                // No evidence is read from a copy of the start: let it go.
                if *commit != self.commit {
                    ran[at].1.scratch = None;
                }
                result.at_start.push(verified::StartRun {
                    commit: commit.clone(),
                    passed: ran[at].1.failure.is_none(),
                });
            }
            goals.push(result);
        }
        if let Some(guard) = guard {
            guard.check(Depth::Content)?;
        }
        Ok(verified::Results {
            format: verified::FORMAT,
            commit: self.commit.clone(),
            goals,
        })
    }

    /// Asks `judge` about every goal, with verify's outcome from `results` (run
    /// here, or read from the verify job's file); a goal it lacks counts as failed.
    /// The goals in `verify_only` are not asked about (done on the base, their
    /// verify already failed).
    /// Each judge reads its own copy of the pinned commit, made now in a fresh
    /// private directory.
    pub fn judge_all(
        &self,
        ctx: &Ctx,
        judge: &Judge,
        results: &verified::Results,
        verify_only: &[String],
    ) -> Result<Vec<(String, Rejudged)>> {
        let mut out = Vec::new();
        for (goal, prepared) in &self.goals {
            let id = goal.id.to_string();
            if verify_only.contains(&id) {
                continue;
            }
            let found = results.goals.iter().find(|r| r.id == id);
            let rejudged = match found {
                None => Rejudged {
                    verify: "failed: the verify job reported nothing for this goal".to_string(),
                    verdict: "not asked".to_string(),
                },
                Some(r) if !r.passed => Rejudged {
                    verify: format!("failed: {}", r.failure.as_deref().unwrap_or("(no reason)")),
                    verdict: "not asked".to_string(),
                },
                Some(r) => self.judge_one(ctx, goal, prepared, judge, r)?,
            };
            out.push((id, rejudged));
        }
        Ok(out)
    }

    fn judge_one(
        &self,
        ctx: &Ctx,
        goal: &Goal<'_>,
        prepared: &Prepared,
        judge: &Judge,
        result: &verified::GoalResult,
    ) -> Result<Rejudged> {
        let root = &ctx.repo()?.root;
        let id = goal.id.as_ref();
        let scratch = crate::exec::Scratch::private("plan-judged-")?;
        let judged = scratch.path().join("tree");
        crate::atomic::make_dir(&judged)?;
        git::export_commit(root, &self.commit, &judged)?;
        // Only what the sign-off named as evidence: a file the results add beside
        // it would pass, in the judge's copy, for code the commit does not have.
        let named: Vec<&verified::Made> = result
            .made
            .iter()
            .filter(|m| {
                prepared
                    .paths
                    .iter()
                    .any(|p| p.trim_end_matches('/') == m.path)
            })
            .collect();
        put_made(&judged, &named);
        let paths: Vec<String> = prepared
            .paths
            .iter()
            .filter_map(|p| judge_files::in_repo(&judged, p.trim_end_matches('/')))
            .collect();
        let parsed = match verify_of(goal, prepared).map(verify::parse) {
            Some(Ok(v)) => Some(v),
            _ => None,
        };
        // A goal the base has is judged against the base's contract, its subtasks
        // ticked as the pull request ticked the same text; the judge is told what
        // the pull request changed.
        let then = self.base_text.as_deref().map(parse);
        let was = prepared
            .base
            .as_ref()
            .and(then.as_ref())
            .and_then(|then| then.goal(id));
        let shown = match was {
            Some(was) => {
                let mut shown = was.clone();
                for sub in &mut shown.subtasks {
                    sub.done = goal.subtasks.iter().any(|s| s.done && s.text == sub.text);
                }
                shown
            }
            None => goal.clone(),
        };
        let mut history = prepared.history.clone();
        if let Some(base) = prepared.base.as_ref().filter(|b| !b.changed.is_empty()) {
            history.push_str(&changed_note(&base.changed));
        }
        // The sign-off's own prompt, from the built-in template: the pull request
        // could have written the repository's override.
        let work = crate::signoff::Work {
            verify: parsed.as_ref().map(|v| (v, result.tail.as_str())),
            evidence: &prepared.evidence,
            paths: &paths,
            history: &history,
            diff_base: match (prepared.diff_base.as_deref(), prepared.diff_from_base) {
                (Some(base), true) => prompt::DiffBase::PullRequest(base),
                (Some(start), false) => prompt::DiffBase::Started(start),
                (None, _) => prompt::DiffBase::Head,
            },
            weakened: &prepared.weakened,
            green_at_start: prepared.green_at_start.as_deref(),
        };
        let text = crate::signoff::judge_prompt(
            prompt::EVIDENCE_JUDGE,
            &judged,
            &shown,
            &work,
            &prepared.diff_stat,
        );
        let verified = if result.verify.is_some() {
            "passed".to_string()
        } else {
            "no verify".to_string()
        };
        if text.len() > PROMPT_CAP {
            return Ok(Rejudged {
                verify: verified,
                verdict: format!(
                    "could not judge: its prompt would be {} bytes, over the gate's limit of {} MiB",
                    text.len(),
                    PROMPT_CAP >> 20
                ),
            });
        }
        crate::out::progress(&format!("rejudge {id}: asking {}", judge.backend));
        JUDGE_CALLS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let answer = judge_run::run(judge, &judged, &text, prompt::JUDGE_SYSTEM)?;
        let verdict = match answer.verdict {
            Verdict::Accept { .. } => "accept".to_string(),
            Verdict::Reject { missing, .. } if missing.is_empty() => "reject".to_string(),
            Verdict::Reject { missing, .. } => format!("reject: {}", missing.join("; ")),
            Verdict::NoVerdict { reason } => format!("no verdict: {reason}"),
            Verdict::CouldNotJudge { reason } => format!("could not judge: {reason}"),
        };
        Ok(Rejudged {
            verify: verified,
            verdict,
        })
    }
}

/// One verify line run in a fresh copy of one commit.
struct Ran {
    /// Why it failed; `None`: it passed.
    failure: Option<String>,
    tail: String,
    /// The copy it ran in, kept for the evidence files it made; `None` when it
    /// could not run.
    scratch: Option<crate::exec::Scratch>,
}

/// Runs the verify `line` (of goal `id`, for progress) in a fresh copy of
/// `commit`, with the scrubbed environment; `over`: another commit and the files
/// laid over the copy as that commit has them (red first at a start).
fn run_verify(
    root: &Path,
    commit: &str,
    over: Option<(&str, &[String])>,
    line: &str,
    id: &str,
    timeout: Duration,
) -> Result<Ran> {
    let parsed = match verify::parse(line) {
        Ok(parsed) => parsed,
        Err(e) => {
            return Ok(Ran {
                failure: Some(verified::tail(
                    &format!("verify cannot run: {}", e.message),
                    4096,
                )),
                tail: String::new(),
                scratch: None,
            });
        }
    };
    let scratch = crate::exec::Scratch::new("plan-verify-")?;
    let tree = scratch.path().join("tree");
    let home = scratch.path().join("home");
    let tmp = scratch.path().join("tmp");
    for dir in [&tree, &home, &tmp] {
        crate::atomic::make_dir(dir)?;
    }
    git::export_commit(root, commit, &tree)?;
    if let Some((from, laid)) = over {
        git::export_paths(root, from, &tree, laid)?;
    }
    crate::out::progress(&format!(
        "rejudge {id}: running verify at {}",
        &commit[..commit.len().min(12)]
    ));
    let outcome = verify::run_clean(
        &parsed,
        &tree,
        timeout,
        verified::TAIL,
        clean_env(&home, &tmp),
    )?;
    Ok(if outcome.passed {
        Ran {
            failure: None,
            tail: verified::tail(&outcome.tail, verified::TAIL),
            scratch: Some(scratch),
        }
    } else {
        Ran {
            failure: Some(verified::tail(&outcome.why_failed(line, timeout), 4096)),
            tail: String::new(),
            scratch: Some(scratch),
        }
    })
}

/// The scrubbed environment: [`CLEAN_ENV`] as plan has it, less anything named
/// like a credential, with `home` and `tmp` as HOME and TMPDIR.
fn clean_env(home: &Path, tmp: &Path) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = CLEAN_ENV
        .iter()
        .filter(|k| !secret_name(k))
        .filter_map(|k| Some((k.to_string(), crate::env::text(k)?)))
        .collect();
    if let Some(real) = crate::env::os("HOME").filter(|h| !h.is_empty()) {
        let real = PathBuf::from(real);
        for (name, dir) in [("CARGO_HOME", ".cargo"), ("RUSTUP_HOME", ".rustup")] {
            if !env.iter().any(|(k, _)| k == name) && real.join(dir).is_dir() {
                env.push((name.to_string(), real.join(dir).display().to_string()));
            }
        }
    }
    env.push(("HOME".to_string(), home.display().to_string()));
    env.push(("TMPDIR".to_string(), tmp.display().to_string()));
    env
}

/// The evidence files `paths` names that `commit` lacks and verify made in `tree`
/// (a report git ignores), bounded, for the judge's copy.
fn made_by_verify(tree: &Path, root: &Path, commit: &str, paths: &[String]) -> Vec<verified::Made> {
    let mut out = Vec::new();
    for rel in paths {
        let rel = rel.trim_end_matches('/');
        if out.len() >= verified::MADE_FILES || !verified::plain(rel) {
            continue;
        }
        if git::file_at(root, commit, Path::new(rel)).is_ok_and(|f| f.is_some()) {
            continue;
        }
        let Some(inside) = judge_files::in_repo(tree, rel) else {
            continue;
        };
        let Ok(bytes) = std::fs::read(tree.join(&inside)) else {
            continue;
        };
        let text = String::from_utf8_lossy(&bytes[..bytes.len().min(verified::MADE_BYTES)]);
        out.push(verified::Made {
            path: inside,
            text: verified::tail(&text, verified::MADE_BYTES),
        });
    }
    out
}

/// Writes the files verify made into the judge's copy, where the commit has
/// nothing and no link leads out of the copy; what the commit has stays.
fn put_made(judged: &Path, made: &[&verified::Made]) {
    let Ok(top) = std::fs::canonicalize(judged) else {
        return;
    };
    for file in made {
        let to = judged.join(&file.path);
        if !verified::plain(&file.path) || std::fs::symlink_metadata(&to).is_ok() {
            continue;
        }
        let Some(dir) = to.parent() else { continue };
        if crate::atomic::make_dirs(dir).is_err()
            || !std::fs::canonicalize(dir).is_ok_and(|d| d.starts_with(&top))
        {
            continue;
        }
        #[expect(
            clippy::disallowed_methods,
            reason = "the judge's scratch copy, checked above to hold no link out of it"
        )]
        let _ = std::fs::write(&to, &file.text);
    }
}

/// What the judge is told of a contract the pull request changed on a goal the
/// base has: the lines `--markdown` lists, and which contract it is judged against.
fn changed_note(changed: &[String]) -> String {
    let lines: String = changed.iter().map(|l| format!("  {l}\n")).collect();
    format!(
        "- This pull request changed the contract the base has for this goal; plan's gate judges the goal against the base's contract, shown above as the goal's (done_when, failure modes, subtasks, verify), whatever the pull request wrote. The changed lines, words marked [-base-]{{+pull request+}}:\n{lines}"
    )
}

/// The goal's logged contracts, one line each, as the transcript lists them.
fn contract_history(plan: &Plan<'_>, id: &str) -> String {
    let steps = history::contract_steps(plan, id);
    if steps.is_empty() {
        return "(no contract was logged for this goal)\n".to_string();
    }
    steps
        .iter()
        .map(|s| {
            format!(
                "- {} contract {}: {} (plan.md log line {})\n",
                s.stamp.unwrap_or("(no time)"),
                s.contract,
                s.describe(),
                s.line
            )
        })
        .collect()
}

/// How much of a transcript's evidence the gate reads: a command line holds far
/// less; more is padding that would make CI's judge prompt (and bill) any size.
const EVIDENCE_CAP: usize = 1 << 20;

/// How many times this process asked CI's judge, for the gate's summary.
pub static JUDGE_CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// The most CI's judge is sent for one goal; a larger prompt is no verdict.
const PROMPT_CAP: usize = 4 << 20;

/// The evidence text and paths a transcript recorded (its `## Evidence` section, as
/// `record.rs` writes it: a fence of backticks with an info string, closed by the
/// same backticks alone, then `paths: a, b`): the agent's words, which the prompt
/// fences as untrusted. Paths are returned as written; the caller confines them.
fn evidence_of(transcript: &str) -> (String, Vec<String>) {
    let missing = |why: &str| (format!("(the sign-off's transcript {why})"), Vec::new());
    let Some((_, rest)) = transcript.split_once("\n## Evidence\n\n") else {
        return missing("has no evidence section");
    };
    let mut lines = rest.lines();
    let opener = lines.next().unwrap_or_default();
    let ticks = opener.len() - opener.trim_start_matches('`').len();
    if ticks < 3 {
        return missing("has an evidence section without a fence");
    }
    let closer = &opener[..ticks];
    let mut body = Vec::new();
    let mut closed = false;
    for line in lines.by_ref() {
        if line == closer {
            closed = true;
            break;
        }
        body.push(line);
    }
    if !closed {
        return missing("has an evidence fence that is never closed");
    }
    let mut evidence = body.join("\n");
    if evidence.len() > EVIDENCE_CAP {
        let whole = evidence.len();
        let mut cut = EVIDENCE_CAP;
        while !evidence.is_char_boundary(cut) {
            cut -= 1;
        }
        evidence.truncate(cut);
        evidence.push_str(&format!(
            "\n(the evidence is cut here at 1 MiB of {whole} bytes: the rest was not read; evidence given on a command line is far shorter)"
        ));
    }
    let paths = lines
        .by_ref()
        .take_while(|l| !l.starts_with("## "))
        .find_map(|l| l.strip_prefix("paths: "))
        .filter(|p| *p != "(none)")
        .map(|p| p.split(", ").map(str::to_string).collect())
        .unwrap_or_default();
    (evidence, paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_evidence_a_transcript_recorded() {
        let text = "# Sign-off record: a\n\n## Evidence\n\n````text\nit works\n```inner```\n````\n\npaths: README.md, out.log\n\n## Judge\n\n````text\njudge says\n````\n";
        let (evidence, paths) = evidence_of(text);
        assert_eq!(evidence, "it works\n```inner```");
        assert_eq!(paths, ["README.md", "out.log"]);
        let none = "x\n## Evidence\n\n````\ny\n````\n\npaths: (none)\n";
        assert_eq!(evidence_of(none), ("y".to_string(), Vec::new()));
        let open = "x\n## Evidence\n\n````text\ny\n```\n\npaths: a\n";
        assert_eq!(
            evidence_of(open),
            (
                "(the sign-off's transcript has an evidence fence that is never closed)"
                    .to_string(),
                Vec::new()
            )
        );
        // A paths line of another section is not the evidence's.
        let later = "x\n## Evidence\n\n````text\ny\n````\n\n## Judge\n\npaths: /etc/hostname\n";
        assert_eq!(evidence_of(later).1, Vec::<String>::new());
    }

    #[test]
    fn credentials_are_named_as_such() {
        for name in [
            "ANTHROPIC_API_KEY",
            "GITHUB_TOKEN",
            "my_secret",
            "DB_PASSWORD",
        ] {
            assert!(secret_name(name), "{name}");
        }
        for name in CLEAN_ENV {
            assert!(!secret_name(name), "{name}");
        }
    }
}

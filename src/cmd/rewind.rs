//! `plan rewind`: the files back to a sign-off's checkpoint, after saving them as
//! they are so `--undo` can return. plan.md and `.plan/` are never rewound: the log
//! is the history and the transcripts prove the sign-offs; goals signed off after
//! the checkpoint are reopened instead. Refused while a judge or draft runs.

use std::io::IsTerminal;

use anyhow::Result;

use crate::clock;
use crate::ctx::{Ctx, Env};
use crate::exit::{Exit, OK};
use crate::git::{self, CHECKPOINTS, Change, Saved};
use crate::out::println;
use crate::plan::event::{Event, rewind_reason};
use crate::plan::model::{Plan, Status};
use crate::plan::precondition::{self, Seen};
use crate::plan::{ops, rewind};
use crate::running;
use crate::store::Store;

use super::checkpoints::{goal_of, is_plan_file, time_of};

/// Restore the files to a sign-off's checkpoint; reopen goals signed off since
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The goal whose latest checkpoint to go back to (or a unique prefix), or a
    /// checkpoint's commit (7 or more hex digits); see plan checkpoints
    #[arg(required_unless_present = "undo", conflicts_with = "undo")]
    pub id: Option<String>,
    /// Return the files to where the last rewind found them (the goals it reopened
    /// stay open)
    #[arg(long)]
    pub undo: bool,
    /// Print what would change; change nothing
    #[arg(long)]
    pub dry_run: bool,
    /// Do not ask (needed without a terminal)
    #[arg(long)]
    pub yes: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let root = ctx.repo()?.root.clone();
    let _alone = running::alone(&root)?;
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let outside = |path: &str| {
        !crate::plan::own::is_own(path.as_bytes(), plan_rel.as_deref().map(str::as_bytes))
    };
    let keep = |path: &str| outside(path) && !is_plan_file(&root, path);
    match &args.id {
        Some(query) => {
            let src = ctx.store.read_for_write()?;
            let target = find(&root, query, &ctx.parse(&src)?, &ctx.store.name)?;
            rewind_to(ctx, &root, &target, &args, &outside, &keep)
        }
        None => undo(ctx, &root, &args, &keep),
    }
}

/// Whether a sign-off line of the checkpoint's own goal names its commit. A ref is
/// anyone's to write: one no sign-off names would take the files to a tree of its
/// writer's choosing, and (having no line to order by) reopen nothing.
fn named(plan: &Plan<'_>, saved: &Saved) -> bool {
    plan.events(goal_of(saved)).any(|(_, e)| {
        matches!(e, Event::SignedOff { checkpoint: Some(c), .. } if saved.commit.starts_with(c))
    })
}

fn rewind_to(
    ctx: &Ctx,
    root: &std::path::Path,
    target: &Saved,
    args: &Args,
    outside: &dyn Fn(&str) -> bool,
    keep: &dyn Fn(&str) -> bool,
) -> Result<u8> {
    let goal = goal_of(target);
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let (reopen, kept) = built_on_target(
        root,
        &plan,
        rewind::signed_off_after(&plan, &target.commit, &time_of(target)),
        target,
    );
    let (plans, changes): (Vec<Change>, Vec<Change>) =
        git::changes_since(root, &target.commit, outside)?
            .into_iter()
            .partition(|c| is_plan_file(root, &c.path));
    let others = other_plans(root, target, &plans)?;
    let mut shown = format!(
        "rewind to {} ({goal}'s checkpoint, {}):\n{}",
        target.short(),
        time_of(target),
        list(&changes)
    );
    for id in &reopen {
        shown.push_str(&format!("  reopen {id} (signed off after it)\n"));
    }
    for id in &kept {
        shown.push_str(&format!(
            "  keep {id} signed off (after it, but on work not built on it: another branch or worktree)\n"
        ));
    }
    for other in &others {
        for id in &other.reopen {
            shown.push_str(&format!(
                "  reopen {id} in {} (signed off after it)\n",
                other.name
            ));
        }
    }
    shown.push_str(&format!(
        "{} and .plan/ stay as they are; plan rewind --undo goes back",
        ctx.store.name
    ));
    println(&shown)?;
    if args.dry_run {
        println("dry run: nothing was changed")?;
        return Ok(OK);
    }
    if !confirm(
        args.yes,
        "Rewind the files?",
        &format!("plan rewind {goal}"),
    )? {
        return Ok(OK);
    }
    let now = clock::now()?;
    let (undo_refs, _) = git::undo_prefixes(root)?;
    let undo = git::save_working_tree(
        root,
        &format!("{undo_refs}{}", now.compact()),
        &format!("plan: the files before rewinding to {}", target.short()),
    )?;
    let reason = rewind_reason(target.short(), goal);
    let stamp = now.stamp();
    // The plans first, the other plans before this one: files moved without the
    // reopens would leave goals done whose work is gone, should a write fail. A
    // failed write moves nothing (an other plan's goals already reopened stay
    // open: they ask for a new sign-off, and lose nothing).
    for other in &others {
        if let Err(e) = other.reopen(&stamp, &reason) {
            let _ = git::delete_ref(root, &undo.reference);
            return Err(e);
        }
    }
    let mut edits = vec![ops::event(
        &stamp,
        &Event::Rewound {
            checkpoint: target.short(),
            goal,
            undo: undo.short(),
        },
    )];
    let mut seen = Vec::new();
    for id in &reopen {
        if let Some(g) = plan.goal(id) {
            seen.push(Seen::of(g));
            edits.extend(ops::set_status(&plan, g, Status::Active));
            edits.push(ops::event(
                &stamp,
                &Event::Reopened {
                    id,
                    reason: &reason,
                },
            ));
        }
    }
    let written = ctx.store.write_checked(&src, edits, |fresh| {
        precondition::intact(fresh)?;
        precondition::all(&seen, fresh)
    });
    if let Err(e) = written {
        let _ = git::delete_ref(root, &undo.reference);
        return Err(e.into());
    }
    let changes = git::changes_between(root, &undo.commit, &target.commit, keep)?;
    warn_left(&git::restore(root, &changes)?);
    let mut said = format!(
        "rewound to {} ({}); undo point {}",
        target.short(),
        crate::plan::text::count(changes.len(), "file"),
        undo.short()
    );
    if !reopen.is_empty() {
        said.push_str(&format!("\nreopened: {}", reopen.join(", ")));
    }
    for other in others.iter().filter(|o| !o.reopen.is_empty()) {
        said.push_str(&format!(
            "\nreopened in {}: {}",
            other.name,
            other.reopen.join(", ")
        ));
    }
    ctx.say(&said)?;
    Ok(OK)
}

/// Another plan file changed since the checkpoint, and its goals signed off after
/// it: the rewind takes their work away too.
struct OtherPlan {
    store: Store,
    name: String,
    src: String,
    reopen: Vec<String>,
}

impl OtherPlan {
    /// Writes each reopen with its log line, through the file's own store (its
    /// lock, its conflict checks).
    fn reopen(&self, stamp: &str, reason: &str) -> Result<()> {
        if self.reopen.is_empty() {
            return Ok(());
        }
        let plan = crate::plan::model::parse(&self.src);
        let mut edits = Vec::new();
        let mut seen = Vec::new();
        for id in &self.reopen {
            if let Some(g) = plan.goal(id) {
                seen.push(Seen::of(g));
                edits.extend(ops::set_status(&plan, g, Status::Active));
                edits.push(ops::event(stamp, &Event::Reopened { id, reason }));
            }
        }
        self.store
            .write_checked(&self.src, edits, |fresh| precondition::all(&seen, fresh))?;
        Ok(())
    }
}

/// The plan files among `changed` (paths changed since the checkpoint `commit`),
/// each with the goals it has signed off after the checkpoint: the ones whose
/// latest sign-off line its copy in the checkpoint's tree lacks. A plan file plan
/// cannot parse refuses the rewind: what it would reopen is unknown.
fn other_plans(
    root: &std::path::Path,
    target: &Saved,
    changed: &[Change],
) -> Result<Vec<OtherPlan>> {
    let commit = target.commit.as_str();
    let mut out = Vec::new();
    for change in changed {
        let name = change.path.clone();
        let store = Store::new(root.join(&name), name.clone());
        let src = store.read()?;
        let then = git::file_at(root, commit, std::path::Path::new(&name))?;
        let reopen = {
            let now = crate::plan::model::parse(&src);
            if now.structure_broken() {
                return Err(Exit::usage_hint(
                    format!(
                        "{name}: the plan file cannot be read as a plan, so the goals a rewind would reopen in it are unknown; nothing was changed"
                    ),
                    format!("plan --file {name} lint shows what to fix"),
                ));
            }
            let then = then.as_deref().map(crate::plan::model::parse);
            built_on_target(
                root,
                &now,
                rewind::signed_off_since(&now, then.as_ref()),
                target,
            )
            .0
        };
        out.push(OtherPlan {
            store,
            name,
            src,
            reopen,
        });
    }
    Ok(out)
}

fn undo(ctx: &Ctx, root: &std::path::Path, args: &Args, keep: &dyn Fn(&str) -> bool) -> Result<u8> {
    let (undo_refs, undone_refs) = git::undo_prefixes(root)?;
    let Some(last) = git::saved(root, &undo_refs)?.pop() else {
        return Err(Exit::usage_hint(
            "nothing to undo: no rewind is waiting to be undone",
            "plan checkpoints lists the checkpoints; plan rewind ID goes back to one",
        ));
    };
    let changes = git::changes_since(root, &last.commit, keep)?;
    println(&format!(
        "undo the rewind of {}: files back to {}:\n{}{} and .plan/ stay as they are; reopened goals stay open",
        time_of(&last),
        last.short(),
        list(&changes),
        ctx.store.name
    ))?;
    if args.dry_run {
        println("dry run: nothing was changed")?;
        return Ok(OK);
    }
    if !confirm(args.yes, "Undo the rewind?", "plan rewind --undo")? {
        return Ok(OK);
    }
    let now = clock::now()?;
    // Edits made since the rewind are kept too, under their own ref.
    let current = git::save_working_tree(
        root,
        &format!("{undone_refs}{}", now.compact()),
        "plan: the files before undoing a rewind",
    )?;
    let changes = git::changes_between(root, &current.commit, &last.commit, keep)?;
    warn_left(&git::restore(root, &changes)?);
    git::delete_ref(root, &last.reference)?;
    let src = ctx.store.read_for_write()?;
    ctx.parse(&src)?;
    ctx.store.write_checked(
        &src,
        vec![ops::event(
            &now.stamp(),
            &Event::RewindUndone { undo: last.short() },
        )],
        precondition::intact,
    )?;
    ctx.say(&format!(
        "rewind undone: files back to {} ({})",
        last.short(),
        crate::plan::text::count(changes.len(), "file")
    ))?;
    Ok(OK)
}

/// The checkpoint the latest sign-off of goal `id` names, if it names one.
fn latest_checkpoint(plan: &Plan<'_>, id: &str) -> Option<String> {
    plan.events(id)
        .rev()
        .find_map(|(_, e)| match e {
            Event::SignedOff { checkpoint, .. } => Some(checkpoint.map(str::to_string)),
            _ => None,
        })
        .flatten()
}

/// Splits the goals signed off after `target` into those to reopen and those to
/// keep. A goal is reopened when its own checkpoint was taken on work built on the
/// target's (the same HEAD or a later one on its line): a goal signed off in
/// another worktree, on a branch that does not descend from it, keeps its sign-off.
/// A goal whose sign-off names no checkpoint in this clone is reopened: where its
/// work stands is unknown, and a reopen asks for a new sign-off, nothing more.
fn built_on_target(
    root: &std::path::Path,
    plan: &Plan<'_>,
    after: Vec<String>,
    target: &Saved,
) -> (Vec<String>, Vec<String>) {
    after
        .into_iter()
        .partition(|id| match latest_checkpoint(plan, id) {
            Some(own) => git::built_on(root, &own, &target.commit)
                .ok()
                .flatten()
                .unwrap_or(true),
            None => true,
        })
}

/// The checkpoint a sign-off line names for `query` (a goal, a unique prefix of
/// one, or a commit's first hex digits) that this clone has no ref for: the
/// sign-off was made in another clone, whose checkpoints were not fetched.
fn not_in_this_clone(plan: &Plan<'_>, all: &[Saved], query: &str) -> Option<(String, String)> {
    let here = |c: &str| all.iter().any(|s| s.commit.starts_with(c));
    let exact = plan.goal(query).map(|g| g.id.to_string());
    let by_prefix = || {
        let ids: Vec<String> = plan
            .goals
            .iter()
            .filter(|g| g.id.starts_with(query))
            .map(|g| g.id.to_string())
            .collect();
        (ids.len() == 1).then(|| ids[0].clone())
    };
    if let Some(id) = exact.or_else(by_prefix)
        && let Some(c) = latest_checkpoint(plan, &id)
    {
        return (!here(&c)).then_some((id, c));
    }
    let hex = query.len() >= 7 && query.bytes().all(|b| b.is_ascii_hexdigit());
    let query = query.to_ascii_lowercase();
    plan.log
        .iter()
        .find_map(|entry| match Event::parse(entry.text) {
            Some(Event::SignedOff {
                id,
                checkpoint: Some(c),
                ..
            }) if hex && (c.starts_with(&query) || query.starts_with(c)) && !here(c) => {
                Some((id.to_string(), c.to_string()))
            }
            _ => None,
        })
}

/// The checkpoint `query` names: a goal's latest (its id or a unique prefix of it),
/// or the one whose commit starts with it; only those a sign-off line names.
fn find(root: &std::path::Path, query: &str, plan: &Plan<'_>, file: &str) -> Result<Saved> {
    // A ref a forced fetch moved: the commit its sign-off line names, if still here.
    let mut all: Vec<Saved> = super::checkpoints::signed(root, plan, git::checkpoints(root)?)
        .into_iter()
        .map(|(saved, _)| saved)
        .collect();
    if let Some((goal, checkpoint)) = not_in_this_clone(plan, &all, query) {
        return Err(Exit::usage_hint(
            format!(
                "checkpoint {checkpoint} ({goal}'s sign-off) is not in this clone: it was made in another one"
            ),
            format!(
                "fetch the checkpoints with `plan checkpoints --fetch` (from origin; `--fetch REMOTE` for another), or `git fetch origin '{}'`, then run plan rewind again",
                super::checkpoints::REFSPEC
            ),
        ));
    }
    let unnamed = all.iter().filter(|s| !named(plan, s)).count();
    // Checkpoint refs are shared by every worktree of the clone: a goal signed off
    // on another branch has its checkpoint here and its sign-off line there.
    if let Some(elsewhere) = all
        .iter()
        .rev()
        .find(|s| goal_of(s) == query && !named(plan, s))
        && !all.iter().any(|s| goal_of(s) == query && named(plan, s))
    {
        return Err(Exit::usage_hint(
            format!(
                "no sign-off of {query} in {file} names a checkpoint: its checkpoint {} ({}) was taken on another branch or in another worktree, whose sign-off line is not in this {file}",
                elsewhere.short(),
                super::checkpoints::time_of(elsewhere)
            ),
            "run plan rewind in the worktree that signed it off, or merge its branch here first; plan checkpoints lists them",
        ));
    }
    all.retain(|s| named(plan, s));
    if let Some(latest) = all.iter().rev().find(|s| goal_of(s) == query) {
        return Ok(latest.clone());
    }
    let goals: Vec<&str> = all
        .iter()
        .map(goal_of)
        .filter(|g| g.starts_with(query))
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    if let [goal] = goals[..]
        && let Some(latest) = all.iter().rev().find(|s| goal_of(s) == goal)
    {
        return Ok(latest.clone());
    }
    let hex = query.len() >= 7 && query.bytes().all(|b| b.is_ascii_hexdigit());
    let commits: Vec<&Saved> = all
        .iter()
        .filter(|s| hex && s.commit.starts_with(&query.to_ascii_lowercase()))
        .collect();
    match (&commits[..], goals.len()) {
        ([one], _) => Ok((*one).clone()),
        (_, 2..) => Err(Exit::usage_hint(
            format!(
                "\"{query}\" names checkpoints of several goals: {}",
                goals.join(", ")
            ),
            "give more of the id; plan checkpoints lists them",
        )),
        _ if unnamed > 0 => Err(Exit::usage_hint(
            format!("no checkpoint for \"{query}\" that a sign-off in {file} names"),
            format!(
                "{unnamed} checkpoint ref(s) under {CHECKPOINTS} name no sign-off line of their goal in {file}: sign-offs on another branch or in another worktree (every worktree of a clone shares the refs) not merged here, or refs written by hand; plan checkpoints lists them"
            ),
        )),
        _ => Err(Exit::usage_hint(
            format!("no checkpoint for \"{query}\""),
            "plan checkpoints lists them; a goal signed off before checkpoints existed has none",
        )),
    }
}

/// How many changed files are named one by one.
const SHOWN: usize = 40;

fn list(changes: &[Change]) -> String {
    if changes.is_empty() {
        return "  no file changes\n".to_string();
    }
    let mut out: String = changes
        .iter()
        .take(SHOWN)
        .map(|c| {
            let verb = if c.is_removal() { "remove" } else { "restore" };
            format!("  {verb} {}\n", crate::plan::text::escape_controls(&c.path))
        })
        .collect();
    if changes.len() > SHOWN {
        let removed = changes.iter().filter(|c| c.is_removal()).count();
        out.push_str(&format!(
            "  … {} more ({} files in all: {} restored, {removed} removed)\n",
            changes.len() - SHOWN,
            changes.len(),
            changes.len() - removed
        ));
    }
    out
}

/// `true` to go ahead: `--yes`, or a yes at the terminal. Without a terminal and
/// `--yes`, refused: nothing is changed unasked.
fn confirm(yes: bool, question: &str, command: &str) -> Result<bool> {
    if yes {
        return Ok(true);
    }
    if !(std::io::stdin().is_terminal() && std::io::stderr().is_terminal()) {
        return Err(Exit::usage_hint(
            "nothing was changed: there is no terminal to ask",
            format!(
                "run `{command} --yes` to go ahead without asking, or add --dry-run to see the changes only"
            ),
        ));
    }
    let go = dialoguer::Confirm::new()
        .with_prompt(question)
        .default(false)
        .interact_opt()?
        .unwrap_or(false);
    if !go {
        println("nothing was changed")?;
    }
    Ok(go)
}

fn warn_left(left: &[String]) {
    for path in left {
        crate::out::warn(&format!(
            "plan: warning: left {path} as it is: git ignores the file there, or the path leads through a symlink"
        ));
    }
}

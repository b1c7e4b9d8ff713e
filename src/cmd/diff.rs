//! `plan diff`: what changed in plan.md (or one goal's contract) since a git
//! revision, goal by goal, so hand edits get reviewed. Reads only; the comparison
//! itself is `plan::diff`.

use std::path::PathBuf;

use anyhow::Result;
use serde::Serialize;

use crate::ctx::{Ctx, Env};
use crate::exit::{Exit, OK};
use crate::git;
use crate::out::{print, println};
use crate::plan::diff::{self, ContractDiff, Names, PlanDiff};
use crate::plan::model::{Goal, Lookup, parse};

/// Show plan.md's changes since a git revision, goal by goal (or one goal's contract)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Only this goal's contract (id or unique prefix; a removed goal's id works too)
    pub id: Option<String>,
    /// The revision to compare with (anything git rev-parse takes)
    #[arg(long, value_name = "REV", default_value = "HEAD")]
    pub since: String,
    /// Print the changes as JSON
    #[arg(long)]
    pub json: bool,
}

#[derive(Serialize)]
struct Report<'a> {
    file: &'a str,
    since: &'a str,
    /// plan.md did not exist at `since`.
    new_file: bool,
    /// Byte for byte the same.
    unchanged: bool,
    #[serde(flatten)]
    diff: &'a PlanDiff,
}

#[derive(Serialize)]
struct ContractReport<'a> {
    file: &'a str,
    since: &'a str,
    unchanged: bool,
    #[serde(flatten)]
    diff: &'a ContractDiff,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let now = ctx.store.read()?;
    let then = committed(ctx, &args.since)?;
    let name = &ctx.store.name;
    let since = &args.since;
    let new_file = then.is_none();
    let then = then.unwrap_or_default();
    if let Some(query) = &args.id {
        return contract(ctx, &args, query, &then, &now);
    }
    let changes = diff::diff(&then, &now);
    if args.json {
        let report = Report {
            file: name,
            since,
            new_file,
            unchanged: then == now,
            diff: &changes,
        };
        println(&crate::out::json(&report)?)?;
        return Ok(OK);
    }
    if then == now {
        println(&format!("no changes to {name} since {since}"))?;
        return Ok(OK);
    }
    if changes.is_empty() {
        println(&format!(
            "{name} changed since {since}, but no goal, contract, subtask or log entry did\n  hint: `git diff {since} -- {name}` shows the lines"
        ))?;
        return Ok(OK);
    }
    if new_file {
        println(&format!("{name} is not in {since}: all of it is new\n"))?;
    }
    let names = Names {
        old: since,
        new: name,
    };
    print(&diff::render(&changes, &names, ctx.style))?;
    Ok(OK)
}

/// `plan diff ID`: the goal's contract then and now, changed words marked.
fn contract(ctx: &Ctx, args: &Args, query: &str, then: &str, now: &str) -> Result<u8> {
    let (old, new) = (parse(then), parse(now));
    let id = match new.resolve(query) {
        Ok(goal) => goal.id.to_string(),
        Err(Lookup::Unknown { .. }) => match old.resolve(query) {
            Ok(goal) => goal.id.to_string(),
            Err(_) => ctx.find(&new, query)?.id.to_string(),
        },
        Err(Lookup::Ambiguous { .. }) => ctx.find(&new, query)?.id.to_string(),
    };
    let changes = ContractDiff::new(&id, old.goal(&id), new.goal(&id));
    let since = &args.since;
    if args.json {
        let report = ContractReport {
            file: &ctx.store.name,
            since,
            unchanged: changes.is_empty(),
            diff: &changes,
        };
        println(&crate::out::json(&report)?)?;
        return Ok(OK);
    }
    if changes.is_empty() {
        let mut line = format!("no changes to the contract of {id} since {since}");
        if let (Some(then), Some(now)) = (old.goal(&id), new.goal(&id)) {
            let subtasks = |g: &Goal<'_>| -> Vec<(bool, String)> {
                g.subtasks
                    .iter()
                    .map(|t| (t.done, t.text.to_string()))
                    .collect()
            };
            let outside: Vec<&str> = [
                (then.title != now.title, "title"),
                (subtasks(then) != subtasks(now), "subtasks"),
            ]
            .into_iter()
            .filter_map(|(changed, what)| changed.then_some(what))
            .collect();
            if !outside.is_empty() {
                line.push_str(&format!(
                    "; its {} changed, outside the contract (`plan diff` shows how)",
                    outside.join(" and ")
                ));
            }
        }
        println(&line)?;
        return Ok(OK);
    }
    let what = match (old.goal(&id), new.goal(&id)) {
        (None, _) => format!("{id}: contract (goal added since {since})"),
        (_, None) => format!("{id}: contract (goal removed since {since})"),
        _ => format!("{id}: contract since {since}"),
    };
    println(&what)?;
    print(&changes.render(ctx.style))?;
    Ok(OK)
}

/// plan.md at `rev`; `None` when it was not there (a new file, or no commits yet).
fn committed(ctx: &Ctx, rev: &str) -> Result<Option<String>> {
    let repo = ctx.repo()?;
    let rel: PathBuf = ctx.plan_in_repo().ok_or_else(|| {
        Exit::usage_hint(
            format!(
                "{} is outside the repository at {}, so git has no history of it",
                ctx.store.name,
                repo.root.display()
            ),
            "plan diff compares with git; run it on a plan inside the repository",
        )
    })?;
    git::file_at(&repo.root, rev, &rel).map_err(|e| {
        match e.downcast_ref::<git::UnknownRevision>() {
            Some(unknown) => Exit::usage_hint(
                format!("unknown revision \"{rev}\": {}", unknown.reason),
                "--since takes what git rev-parse does: HEAD~1, a branch, a tag or a commit hash (4 to 39 hex digits are read as a commit; name such a branch or tag in full, refs/heads/NAME)",
            ),
            None => e,
        }
    })
}

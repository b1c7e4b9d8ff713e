//! `plan checkpoints`: the working trees sign-offs kept (one ref per accepted
//! sign-off, under `refs/plan/checkpoints/`), each with what changed since; and
//! pushes or fetches them, so a rewind works in another clone too.

use std::time::Duration;

use anyhow::Result;

// `plan rewind` reads them here, beside the command that lists them.
use crate::checkpoint::rewinds;
pub use crate::checkpoint::{REFSPEC, goal_of, is_plan_file, time_of};
use crate::ctx::Env;
use crate::exec::{self, SpawnError, Spec};
use crate::exit::{Exit, OK};
use crate::git::{self, CHECKPOINTS, Saved};
use crate::out::println;

/// List the sign-offs' checkpoints: goal, time, commit, files changed since
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as a JSON array (goal, time, commit, ref, changed)
    #[arg(long)]
    pub json: bool,
    /// Push the checkpoints to REMOTE (default origin), refspec
    /// refs/plan/checkpoints/*; refs already there are never overwritten
    #[arg(long, value_name = "REMOTE", num_args = 0..=1, default_missing_value = "origin",
          conflicts_with_all = ["fetch", "json"])]
    pub push: Option<String>,
    /// Fetch the checkpoints from REMOTE (default origin), so plan rewind can go
    /// back to a sign-off made in another clone; local refs are never overwritten
    #[arg(long, value_name = "REMOTE", num_args = 0..=1, default_missing_value = "origin",
          conflicts_with = "json")]
    pub fetch: Option<String>,
    /// What the pre-push hook `plan install git` writes runs: push to REMOTE the
    /// checkpoints named by the sign-offs of the refs git pushes (read from stdin,
    /// as git gives them to the hook); a failure is a warning, never a stopped push
    #[arg(long, value_name = "REMOTE", hide = true, conflicts_with_all = ["push", "fetch", "json"])]
    pub for_push: Option<String>,
}

/// How long a push or fetch may take (`PLAN_REMOTE_TIMEOUT` sets another).
const TRANSFER_TIMEOUT: Duration = Duration::from_secs(300);

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let root = &ctx.repo()?.root;
    if let Some(remote) = &args.push {
        return transfer(root, "push", remote);
    }
    if let Some(remote) = &args.fetch {
        return transfer(root, "fetch", remote);
    }
    if let Some(remote) = &args.for_push {
        let plan = ctx
            .plan_in_repo()
            .unwrap_or_else(|| std::path::PathBuf::from("plan.md"));
        return for_push(root, &plan, remote);
    }
    // A ref a forced fetch moved off the commit its sign-off line names is listed
    // at the line's commit (still in this clone), the ref's own beside it. Without
    // a readable plan, the refs as they are.
    let all = match ctx.store.read() {
        Ok(src) => signed(
            root,
            &crate::plan::model::parse(&src),
            git::checkpoints(root)?,
        ),
        Err(_) => git::checkpoints(root)?
            .into_iter()
            .map(|s| (s, None))
            .collect(),
    };
    let commits: Vec<&str> = all.iter().map(|(s, _)| s.commit.as_str()).collect();
    // What a rewind would restore: plan.md and .plan/ stay as they are.
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let changed = git::changed_since_each(root, &commits, &|path: &str| {
        rewinds(root, plan_rel.as_deref(), path)
    })?;
    let rows: Vec<(&Saved, &Option<String>, Vec<String>)> = all
        .iter()
        .zip(changed)
        .map(|((saved, at), changes)| (saved, at, changes.into_iter().map(|c| c.path).collect()))
        .collect();
    if args.json {
        let json: Vec<serde_json::Value> = rows
            .iter()
            .map(|(saved, at, changed)| {
                let mut row = serde_json::json!({
                    "goal": goal_of(saved),
                    "time": time_of(saved),
                    "commit": saved.commit,
                    "ref": saved.reference,
                    "changed": changed,
                });
                if let Some(at) = at {
                    row["ref_commit"] = serde_json::Value::from(at.as_str());
                }
                row
            })
            .collect();
        return println(&crate::out::json(&json)?).map(|()| OK);
    }
    if rows.is_empty() {
        println("no checkpoints yet: each accepted sign-off (plan complete) records one")?;
        return Ok(OK);
    }
    for (saved, at, changed) in &rows {
        let since = match changed.len() {
            0 => "no files changed since".to_string(),
            1 => "1 file changed since".to_string(),
            n => format!("{n} files changed since"),
        };
        let moved = match at {
            Some(at) => format!(
                "  (named by its sign-off; {} now points at {}, put there by a forced fetch)",
                saved.reference,
                &at[..12.min(at.len())]
            ),
            None => String::new(),
        };
        println(&format!(
            "{}  {}  {}  {since}{moved}",
            goal_of(saved),
            time_of(saved),
            saved.short()
        ))?;
    }
    Ok(OK)
}

/// `saved`, the checkpoint refs, each at the commit `plan`'s sign-off line names
/// when a forced fetch moved the ref away from it (src/record.rs, `with_moved`),
/// with the commit the ref points at now beside it; `plan rewind` goes by these too.
pub fn signed(
    root: &std::path::Path,
    plan: &crate::plan::model::Plan<'_>,
    saved: Vec<Saved>,
) -> Vec<(Saved, Option<String>)> {
    let moved: Vec<crate::plan::bind::Checkpoint> = match crate::record::checkpoints(root) {
        Some(refs) => crate::record::with_moved(root, plan, refs)
            .into_iter()
            .filter(|c| c.moved.is_some())
            .collect(),
        None => Vec::new(),
    };
    saved
        .into_iter()
        .map(
            |saved| match moved.iter().find(|m| m.reference == saved.reference) {
                Some(m) => (
                    Saved {
                        commit: m.commit.clone(),
                        ..saved.clone()
                    },
                    Some(saved.commit),
                ),
                None => (saved, None),
            },
        )
        .collect()
}

/// `git push|fetch REMOTE refs/plan/checkpoints/*:refs/plan/checkpoints/*`, with
/// git's own transport and credentials (no prompt: a push that needs a password
/// fails and says so), then how many checkpoints this clone has.
fn transfer(root: &std::path::Path, verb: &str, remote: &str) -> Result<u8> {
    if remote.starts_with('-') {
        return Err(Exit::usage_hint(
            format!("\"{remote}\" is not a remote"),
            "name a remote (git remote lists them) or a URL",
        ));
    }
    let before = git::saved(root, CHECKPOINTS)?.len();
    // Not `--quiet`: it silences the `! [rejected]` lines too, and a partly
    // rejected transfer then said "git said nothing".
    let argv: Vec<String> = ["git", verb, remote, REFSPEC]
        .into_iter()
        .map(str::to_string)
        .collect();
    let spec = Spec {
        env: vec![("GIT_TERMINAL_PROMPT".to_string(), "0".to_string())],
        tail_bytes: 16 * 1024,
        ..Spec::new(argv, root, exec::remote_timeout(TRANSFER_TIMEOUT))
    };
    let output = exec::run(&spec).map_err(|e| match e.downcast_ref::<SpawnError>() {
        Some(spawn) => Exit::env(format!("cannot run git: {}", spawn.reason())),
        None => e,
    })?;
    if !output.success() {
        let said = String::from_utf8_lossy(&output.stderr);
        let lines: Vec<&str> = said
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        // git's verdicts: each ref it refused, and its errors; not its progress.
        let verdicts: Vec<&str> = lines
            .iter()
            .copied()
            .filter(|l| l.starts_with('!') || l.starts_with("error:") || l.starts_with("fatal:"))
            .collect();
        let why = if output.timed_out {
            format!(
                "timed out after {}s (git was stopped)",
                exec::remote_timeout(TRANSFER_TIMEOUT).as_secs()
            )
        } else if !verdicts.is_empty() {
            verdicts.join("; ")
        } else if !lines.is_empty() {
            lines.join("; ")
        } else {
            "git said nothing on stderr".to_string()
        };
        let hint = if verb == "push" {
            "a checkpoint rejected there is another sign-off's of the same name; git remote -v lists the remotes"
        } else {
            "a checkpoint rejected here is another sign-off's of the same name; git remote -v lists the remotes"
        };
        return Err(Exit::env_hint(
            format!("git {verb} {remote} {REFSPEC} failed: {why}"),
            hint,
        ));
    }
    let after = git::saved(root, CHECKPOINTS)?.len();
    let said = if verb == "push" {
        format!("pushed the checkpoints to {remote} ({after} in this clone)")
    } else {
        format!(
            "fetched {} new checkpoints from {remote} ({after} in this clone)",
            after.saturating_sub(before)
        )
    };
    println(&said)?;
    Ok(OK)
}

/// The pre-push hook's work: the checkpoints named by sign-off lines in the plan
/// file of each commit being pushed, pushed to `remote` under their own names
/// (never forced). Says nothing when there are none; a failure is a warning, so
/// the branch's push goes on as git would do it.
fn for_push(root: &std::path::Path, plan: &std::path::Path, remote: &str) -> Result<u8> {
    let mut stdin = String::new();
    let _ = std::io::Read::read_to_string(&mut std::io::stdin(), &mut stdin);
    let mut named = std::collections::BTreeSet::new();
    for line in stdin.lines() {
        let mut fields = line.split_whitespace();
        let (Some(local), Some(sha)) = (fields.next(), fields.next()) else {
            continue;
        };
        // A deletion, or plan's own refs (claims, checkpoints) pushed by plan.
        if sha.bytes().all(|b| b == b'0') || local.starts_with("refs/plan/") {
            continue;
        }
        let Ok(Some(text)) = git::file_at(root, sha, plan) else {
            continue;
        };
        let parsed = crate::plan::model::parse(&text);
        for entry in &parsed.log {
            if let Some(crate::plan::event::Event::SignedOff {
                checkpoint: Some(short),
                ..
            }) = crate::plan::event::Event::parse(entry.text)
            {
                named.insert(short.to_string());
            }
        }
    }
    let refs: Vec<String> = git::saved(root, CHECKPOINTS)?
        .into_iter()
        .filter(|s| {
            named
                .iter()
                .any(|short| s.commit.starts_with(short.as_str()))
        })
        .map(|s| format!("{0}:{0}", s.reference))
        .collect();
    if refs.is_empty() {
        return Ok(OK);
    }
    let mut argv: Vec<String> = ["git", "push", "--no-verify", "--quiet", remote]
        .into_iter()
        .map(str::to_string)
        .collect();
    argv.extend(refs);
    let spec = Spec {
        env: vec![("GIT_TERMINAL_PROMPT".to_string(), "0".to_string())],
        tail_bytes: 16 * 1024,
        ..Spec::new(argv, root, exec::remote_timeout(TRANSFER_TIMEOUT))
    };
    match exec::run(&spec) {
        Ok(output) if output.success() => {}
        Ok(output) => {
            let said = String::from_utf8_lossy(&output.stderr).trim().to_string();
            let why = if output.timed_out {
                format!(
                    "no answer within {} s (git was stopped)",
                    exec::remote_timeout(TRANSFER_TIMEOUT).as_secs()
                )
            } else if said.is_empty() {
                match output.status() {
                    Some(status) => format!("git ended with {status} and said nothing on stderr"),
                    None => "git ended without a status and said nothing on stderr".to_string(),
                }
            } else {
                said
            };
            crate::out::warn(&format!(
                "plan: warning: the checkpoints of this push's sign-offs were not all pushed to {remote}: {why}\n  hint: one rejected there is another sign-off's of the same name; `plan checkpoints --push {remote}` retries"
            ))
        }
        Err(e) => crate::out::warn(&format!(
            "plan: warning: the checkpoints of this push's sign-offs were not pushed to {remote}: {e:#}\n  hint: plan checkpoints --push {remote}"
        )),
    }
    Ok(OK)
}

//! `plan claims`: who holds which goal, from which worktree and branch, since when.

use anyhow::Result;
use serde::Serialize;

use crate::claims::{self, Claims};
use crate::clock;
use crate::config::REPO_NAME;
use crate::ctx::Env;
use crate::exit::OK;
use crate::out::{print, println};

/// List the goals claimed in this repository (every worktree, and the claims remote)
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Print them as JSON: goal, holder, worktree, branch, since, last_active, lapsed, yours
    #[arg(long)]
    pub json: bool,
    /// Mark the claims NAME holds as yours (default: the session in PLAN_SESSION)
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
    /// Keep claims on remote NAME too: set claims.remote in .plan/config.yaml, nothing else ("none": in this clone only)
    #[arg(long, value_name = "NAME")]
    pub remote: Option<String>,
}

/// `--as NAME` of the commands that change a goal: who asks, checked against the
/// goal's claim before anything is written.
#[derive(Debug, Default, Clone, clap::Args)]
pub struct AsHolder {
    /// Act as NAME (default: the session in PLAN_SESSION); a goal another holds is refused
    #[arg(long = "as", value_name = "NAME")]
    pub holder: Option<String>,
}

/// One claim as `plan claims --json` prints it.
#[derive(Serialize)]
struct Row {
    goal: String,
    holder: String,
    worktree: String,
    branch: String,
    /// When it was taken, `YYYY-MM-DD HH:MM` local time.
    since: String,
    /// The holder's last activity seen here, in seconds since the epoch.
    last_active: i64,
    /// No activity for `claims.lease_minutes`: a start by another takes it over.
    lapsed: bool,
    /// Held by the name `--as` or PLAN_SESSION gives.
    yours: bool,
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    if let Some(remote) = args.remote.as_deref().map(str::trim) {
        let remote = Some(remote).filter(|r| *r != "none");
        claims::set_remote(ctx.repo()?, remote)?;
        let said = match remote {
            Some(name) => format!("set claims.remote to {name} in {REPO_NAME}"),
            None => format!("set claims.remote to none in {REPO_NAME}: claims stay in this clone"),
        };
        println(&said)?;
        return Ok(OK);
    }
    let me = claims::me(args.holder.as_deref())?;
    let claims = Claims::of(ctx)?;
    let now = claims::now();
    let rows: Vec<Row> = claims
        .list()?
        .into_iter()
        .map(|held| Row {
            last_active: claims.last_active(&held),
            lapsed: claims.lapsed(&held, now),
            yours: me.as_deref() == Some(held.claim.holder.as_str()),
            since: clock::stamp_of(held.claim.time).unwrap_or_default(),
            goal: held.claim.goal,
            holder: held.claim.holder,
            worktree: held.claim.worktree,
            branch: held.claim.branch,
        })
        .collect();
    if args.json {
        println(&crate::out::json(&rows)?)?;
        return Ok(OK);
    }
    if rows.is_empty() {
        println("no goal is claimed")?;
        return Ok(OK);
    }
    let width = rows
        .iter()
        .map(|r| r.goal.chars().count())
        .max()
        .unwrap_or(0);
    let mut out = String::new();
    for r in &rows {
        let mut line = format!(
            "{:<width$}  {}{}  {} on {}  since {}",
            r.goal,
            r.holder,
            if r.yours { " (you)" } else { "" },
            r.worktree,
            r.branch,
            r.since
        );
        if r.lapsed {
            line.push_str(&format!(
                "  lapsed (no activity for {}+ minutes)",
                claims.lease_minutes()
            ));
        }
        out.push_str(&line);
        out.push('\n');
    }
    print(&out)?;
    Ok(OK)
}

//! Claims as commands use them: who is asking (`--as`, or the session the hooks
//! named in `PLAN_SESSION`), taking a goal for them under the lease, releasing it,
//! and the remote every claim is also a ref on. The refs themselves are in
//! `git/claims.rs`; what a start may do is decided in `plan/claim.rs`.

use anyhow::Result;

use crate::clock;
use crate::config::Config;
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git::Repo;
use crate::git::claims::{self as refs, Claim, Held, Moved};
use crate::plan::claim::{self, Decision};

/// The variable the hooks set for the agent's shell (through the host's env file
/// where it has one) naming its session: a claim's holder when `--as` is not given.
pub const SESSION_VAR: &str = "PLAN_SESSION";

/// Who a command acts as: `--as NAME`, else `PLAN_SESSION`; `None` when neither
/// names anyone.
pub fn me(given: Option<&str>) -> Result<Option<String>> {
    let name = match given {
        Some(name) => Some(name.to_string()),
        None => std::env::var(SESSION_VAR).ok().filter(|v| !v.is_empty()),
    };
    if let Some(name) = &name
        && let Some(why) = claim::invalid_name(name)
    {
        return Err(Exit::usage_hint(
            format!("\"{name}\" cannot hold a claim: {why}"),
            "name a holder with --as NAME, e.g. --as alice or --as the host's session id",
        ));
    }
    Ok(name)
}

/// Seconds since the epoch, as `PLAN_NOW` says when it is set (tests and examples
/// move the clock to see a lease lapse).
pub fn now() -> i64 {
    clock::epoch_now()
}

/// The claims of one repository, with the settings that govern them.
pub struct Claims<'c> {
    repo: &'c Repo,
    lease_minutes: u32,
    remote: Option<String>,
}

/// What a start did with the claim.
#[derive(Debug)]
pub struct Taken {
    pub decision: Decision,
    pub claim: Claim,
}

impl<'c> Claims<'c> {
    pub fn new(repo: &'c Repo, config: &Config) -> Claims<'c> {
        Claims {
            repo,
            lease_minutes: config.claims_lease_minutes,
            remote: config.claims_remote.clone(),
        }
    }

    /// The claims of the repository around `ctx`, with its settings.
    pub fn of(ctx: &'c Ctx) -> Result<Claims<'c>> {
        let repo = ctx.repo()?;
        let config = crate::config::load(Some(&repo.root))?;
        Ok(Claims::new(repo, &config))
    }

    pub fn lease_minutes(&self) -> u32 {
        self.lease_minutes
    }

    /// Brings the remote's claims here first, when claims live on one.
    fn sync(&self) -> Result<()> {
        if let Some(remote) = &self.remote {
            refs::fetch(&self.repo.root, remote).map_err(|e| {
                Exit::env_hint(
                    format!("{e:#}"),
                    format!(
                        "claims.remote is {remote} in .plan/config.yaml; check that it is reachable (git fetch {remote})"
                    ),
                )
            })?;
        }
        Ok(())
    }

    /// Every claim, by goal (from the remote first, when there is one).
    pub fn list(&self) -> Result<Vec<Held>> {
        self.sync()?;
        Ok(refs::list(&self.repo.root)?.into_values().collect())
    }

    /// When the holder of `held` last showed activity: the claim's time, or later
    /// hook calls and commands of theirs in this clone.
    pub fn last_active(&self, held: &Held) -> i64 {
        let seen = refs::last_seen(&self.repo.git_dir, &held.claim.holder).unwrap_or(i64::MIN);
        held.claim.time.max(seen)
    }

    /// Whether `held`'s lease has run out at `now`.
    pub fn lapsed(&self, held: &Held, now: i64) -> bool {
        (now - self.last_active(held)) / 60 >= i64::from(self.lease_minutes)
    }

    /// Takes `goal` for `me`, or renews `me`'s claim. Exit 2 naming the holder when
    /// another holds it within the lease and `steal` is not given, or when the
    /// claim moved meanwhile (here or on the remote).
    pub fn take(&self, goal: &str, me: &str, steal: bool) -> Result<Taken> {
        self.sync()?;
        let root = &self.repo.root;
        let held = refs::get(root, goal)?;
        let now = now();
        let current = held
            .as_ref()
            .map(|h| (h.claim.holder.as_str(), self.last_active(h)));
        let decision = claim::decide(current, me, now, self.lease_minutes, steal);
        if let Decision::Held { holder } = &decision {
            let h = held.as_ref().map(|h| &h.claim);
            return Err(held_error(goal, holder, h, self.lease_minutes));
        }
        let claim = Claim {
            goal: goal.to_string(),
            holder: me.to_string(),
            worktree: self.repo.root.display().to_string(),
            branch: refs::branch(root),
            time: now,
        };
        let oid = refs::write(root, &claim)?;
        let expected = held.as_ref().map(|h| h.oid.as_str());
        let swapped = match &self.remote {
            Some(remote) => refs::push(root, remote, goal, expected, Some(&oid))
                .and_then(|()| refs::swap(root, goal, expected, &oid)),
            None => refs::swap(root, goal, expected, &oid),
        };
        if let Err(e) = swapped {
            return Err(self.moved(goal, e));
        }
        refs::touch(&self.repo.git_dir, me, now);
        Ok(Taken { decision, claim })
    }

    /// A swap that lost a race: the claim as it is now, named.
    fn moved(&self, goal: &str, e: anyhow::Error) -> anyhow::Error {
        if e.downcast_ref::<Moved>().is_none() {
            return e;
        }
        let _ = self.sync();
        let now = refs::get(&self.repo.root, goal).ok().flatten();
        match now {
            Some(h) => held_error(goal, &h.claim.holder, Some(&h.claim), self.lease_minutes),
            None => Exit::usage_hint(
                format!("the claim on {goal} changed while it was being taken"),
                format!("run `plan start {goal}` again"),
            ),
        }
    }

    /// Drops the claim on `goal`. `me`: who asks; releasing another's claim needs
    /// `force`. The claim dropped, if there was one.
    pub fn release(&self, goal: &str, me: Option<&str>, force: bool) -> Result<Option<Claim>> {
        self.sync()?;
        let Some(held) = refs::get(&self.repo.root, goal)? else {
            return Ok(None);
        };
        if me != Some(held.claim.holder.as_str()) && !force {
            return Err(Exit::usage_hint(
                format!(
                    "{goal} is claimed by {}{}; only its holder releases it",
                    held.claim.holder,
                    match me {
                        Some(me) => format!(", not {me}"),
                        None => String::new(),
                    }
                ),
                format!(
                    "`plan release {goal} --as {}` as its holder, or `plan release {goal} --force` to drop it anyway",
                    held.claim.holder
                ),
            ));
        }
        self.drop_held(goal, &held)?;
        Ok(Some(held.claim))
    }

    fn drop_held(&self, goal: &str, held: &Held) -> Result<()> {
        let root = &self.repo.root;
        let dropped = match &self.remote {
            Some(remote) => refs::push(root, remote, goal, Some(&held.oid), None)
                .and_then(|()| refs::drop_claim(root, goal, &held.oid)),
            None => refs::drop_claim(root, goal, &held.oid),
        };
        dropped.map_err(|e| self.moved(goal, e))
    }
}

/// A finished goal holds no claim: a sign-off or a cancel drops it, whoever held
/// it. Best effort: the goal's new status is already written, so a claim that
/// cannot be dropped is a warning, never a failed sign-off.
pub fn release_finished(ctx: &Ctx, goal: &str) {
    let Some(repo) = &ctx.repo else { return };
    let drop = || -> Result<Option<Claim>> {
        let claims = Claims::of(ctx)?;
        let Some(held) = refs::get(&repo.root, goal)? else {
            if claims.remote.is_none() {
                return Ok(None);
            }
            claims.sync()?;
            return match refs::get(&repo.root, goal)? {
                Some(held) => claims.drop_held(goal, &held).map(|()| Some(held.claim)),
                None => Ok(None),
            };
        };
        claims.drop_held(goal, &held)?;
        Ok(Some(held.claim))
    };
    if let Err(e) = drop() {
        crate::out::warn(&format!(
            "plan: warning: the claim on {goal} was not released: {e:#}\n  hint: `plan release {goal} --force` drops it"
        ));
    }
}

fn held_error(goal: &str, holder: &str, claim: Option<&Claim>, lease: u32) -> anyhow::Error {
    let mut message = format!("{goal} is claimed by {holder}");
    if let Some(c) = claim {
        if !c.worktree.is_empty() {
            message.push_str(&format!(" in {}", c.worktree));
        }
        if !c.branch.is_empty() {
            message.push_str(&format!(" on branch {}", c.branch));
        }
        if let Some(stamp) = clock::stamp_of(c.time) {
            message.push_str(&format!(" since {stamp}"));
        }
    }
    Exit::usage_hint(
        message,
        format!(
            "work on another goal (`plan next`); after {lease} minutes without activity from {holder} a start takes it over; `plan start {goal} --steal` takes it now, logged"
        ),
    )
}

/// The repository's claims for the hooks and the status line, read without libgit2
/// where it can be.
pub fn peek(repo: &Repo) -> Vec<Claim> {
    refs::peek(&repo.root, &repo.git_dir)
}

/// Records activity of `holder` (a hook call or a command of theirs).
pub fn touch(repo: &Repo, holder: &str) {
    refs::touch(&repo.git_dir, holder, now());
}

/// The claims lines `plan inject` adds for `me`, and the part `plan statusline`
/// adds: `(injection, status)`, both `None` when nothing is claimed.
pub fn lines(repo: Option<&Repo>, me: Option<&str>) -> (Option<String>, Option<String>) {
    let held = repo.map(peek).unwrap_or_default();
    let holdings: Vec<claim::Holding<'_>> = held
        .iter()
        .map(|c| claim::Holding {
            goal: &c.goal,
            holder: &c.holder,
            worktree: &c.worktree,
            branch: &c.branch,
        })
        .collect();
    (
        claim::injection_lines(&holdings, me),
        claim::statusline_part(&holdings, me),
    )
}

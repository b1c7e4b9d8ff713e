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
        None => crate::env::text(SESSION_VAR).filter(|v| !v.is_empty()),
    };
    if let Some(name) = &name
        && let Some(why) = claim::invalid_name(name)
    {
        return Err(Exit::usage_hint(
            format!(
                "\"{}\" cannot hold a claim: {why}",
                crate::plan::text::excerpt(&crate::plan::text::escape_controls(name))
            ),
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
    /// The claim's commit, and the claim it replaced: what [`Claims::undo`] puts back.
    oid: String,
    replaced: Option<Held>,
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

    /// Brings the remote's claims here, when claims live on one. The caller holds
    /// the clone's claims lock ([`refs::lock`]): two fetches of the claims at once
    /// in one clone fail on git's ref locks.
    fn fetch(&self) -> Result<()> {
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

    /// Every claim, by goal (from the remote first, when there is one). With a
    /// remote, a claim whose branch this clone has seen there (its remote-tracking
    /// ref is here) and the remote no longer has is released, said on stderr: the
    /// pull request was merged or closed and its branch deleted.
    pub fn list(&self) -> Result<Vec<Held>> {
        let _lock = refs::lock(&self.repo.git_dir)?;
        self.fetch()?;
        let mut all = refs::list(&self.repo.root)?;
        if let Some(remote) = &self.remote {
            let gone = refs::gone_branches(&self.repo.root, remote, all.values())?;
            for held in gone {
                let goal = held.claim.goal.clone();
                match self.drop_held(&goal, &held) {
                    Ok(()) => {
                        all.remove(&goal);
                        crate::out::warn(&format!(
                            "plan: note: released {goal} (held by {}): its branch {} is gone from {remote}",
                            held.claim.holder, held.claim.branch
                        ));
                    }
                    Err(e) => crate::out::warn(&format!(
                        "plan: warning: the claim on {goal} (its branch {} is gone from {remote}) was not released: {e:#}",
                        held.claim.branch
                    )),
                }
            }
        }
        Ok(all.into_values().collect())
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
    /// claim moved meanwhile (here or on the remote). One take at a time in a
    /// clone (the claims lock); across clones, the remote's compare-and-swap
    /// decides, and the claim the remote holds afterwards says who won.
    pub fn take(&self, goal: &str, me: &str, steal: bool) -> Result<Taken> {
        let _lock = refs::lock(&self.repo.git_dir)?;
        self.fetch()?;
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
        if let Some(remote) = &self.remote
            && let Err(e) = refs::push(root, remote, goal, expected, Some(&oid))
        {
            self.lost(goal, &oid, e)?;
        }
        if let Err(e) = refs::swap(root, goal, expected, &oid) {
            // With a remote, the push decided: this clone's ref only follows it.
            if self.remote.is_none() || self.fetch().is_err() {
                return Err(self.moved(goal, e));
            }
            match refs::get(root, goal)? {
                Some(now) if now.oid == oid => {}
                _ => return Err(self.moved(goal, e)),
            }
        }
        refs::touch(&self.repo.git_dir, me, now);
        Ok(Taken {
            decision,
            claim,
            oid,
            replaced: held,
        })
    }

    /// A push of claim `oid` on `goal` that failed: whatever git said, the claim the
    /// remote holds now tells a lost race (exit 2 naming the winner) from a remote
    /// that could not be reached. `Ok`: the remote holds `oid` after all.
    fn lost(&self, goal: &str, oid: &str, e: anyhow::Error) -> Result<()> {
        if self.fetch().is_err() {
            return Err(self.moved(goal, e));
        }
        match refs::get(&self.repo.root, goal) {
            Ok(Some(h)) if h.oid == oid => Ok(()),
            Ok(Some(h)) => Err(held_error(
                goal,
                &h.claim.holder,
                Some(&h.claim),
                self.lease_minutes,
            )),
            _ => Err(self.moved(goal, e)),
        }
    }

    /// Puts back the claim a start took, when the start then failed: the claim is
    /// only kept by a start that wrote plan.md. Best effort, said when it fails.
    pub fn undo(&self, taken: &Taken) {
        let goal = &taken.claim.goal;
        let root = &self.repo.root;
        let back = taken.replaced.as_ref().map(|h| h.oid.as_str());
        let undone = refs::lock(&self.repo.git_dir).and_then(|_lock| {
            if let Some(remote) = &self.remote {
                refs::push(root, remote, goal, Some(&taken.oid), back)?;
            }
            match back {
                Some(old) => refs::swap(root, goal, Some(&taken.oid), old),
                None => refs::drop_claim(root, goal, &taken.oid),
            }
        });
        if let Err(e) = undone {
            crate::out::warn(&format!(
                "plan: warning: the claim this start took on {goal} was not put back: {e:#}\n  hint: `plan release {goal} --as {}` drops it",
                taken.claim.holder
            ));
        }
    }

    /// A swap that lost a race: the claim as it is now, named.
    fn moved(&self, goal: &str, e: anyhow::Error) -> anyhow::Error {
        if e.downcast_ref::<Moved>().is_none() {
            return e;
        }
        let _ = self.fetch();
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
        let _lock = refs::lock(&self.repo.git_dir)?;
        self.fetch()?;
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

/// Sets `claims.remote` in the repository's settings to `remote` (`None`: unset,
/// `null`), every other byte of the file kept; the file is made when absent. A
/// remote the repository does not have is refused.
pub fn set_remote(repo: &Repo, remote: Option<&str>) -> Result<()> {
    use crate::config::{self, REPO_NAME, edit};
    if let Some(name) = remote
        && !refs::has_remote(&repo.root, name)?
    {
        return Err(Exit::usage_hint(
            format!("this repository has no remote {name}; nothing was written"),
            format!("`git remote -v` lists its remotes; add one with `git remote add {name} URL`"),
        ));
    }
    let took = |c: &Config| c.claims_remote.as_deref() == remote;
    let path = config::repo_file(&repo.root);
    config::set_key(
        &path,
        REPO_NAME,
        ("claims", "remote"),
        &edit::scalar(remote),
        &took,
    )?;
    Ok(())
}

/// A finished goal holds no claim: a sign-off or a cancel drops the claim of the
/// one who finished it (`me`), never another holder's (one who took the goal over
/// meanwhile keeps it, said). Best effort: the goal's new status is already
/// written, so a claim that cannot be dropped is a warning, never a failed sign-off.
pub fn release_finished(ctx: &Ctx, goal: &str, me: Option<&str>) {
    let Some(repo) = &ctx.repo else { return };
    let drop = || -> Result<Option<Held>> {
        let claims = Claims::of(ctx)?;
        if claims.remote.is_none() && peek(repo).iter().all(|c| c.goal != goal) {
            return Ok(None);
        }
        let _lock = refs::lock(&repo.git_dir)?;
        claims.fetch()?;
        let Some(held) = refs::get(&repo.root, goal)? else {
            return Ok(None);
        };
        if me != Some(held.claim.holder.as_str()) {
            return Ok(Some(held));
        }
        claims.drop_held(goal, &held)?;
        Ok(None)
    };
    match drop() {
        Ok(None) => {}
        Ok(Some(other)) => crate::out::warn(&format!(
            "plan: note: the claim on {goal} is held by {} now, not by {}; left as it is\n  hint: `plan release {goal} --force` drops it",
            other.claim.holder,
            me.unwrap_or("no one named")
        )),
        Err(e) => crate::out::warn(&format!(
            "plan: warning: the claim on {goal} was not released: {e:#}\n  hint: `plan release {goal} --force` drops it"
        )),
    }
}

/// Refuses (exit 2) a command that changes `goal` when another holds its claim,
/// whoever asks: `given` (`--as`) or PLAN_SESSION names them, and no one named
/// holds nothing. With `claims.remote`, the remote's claims are fetched first; a
/// remote that cannot be reached is a warning, and this clone's claims decide.
/// Who asks, for the command to act as; a name that cannot hold a claim is
/// refused only where a claim is there to check it against.
pub fn guard(ctx: &Ctx, goal: &str, given: Option<&str>) -> Result<Option<String>> {
    let Some(repo) = &ctx.repo else {
        return Ok(me(given).ok().flatten());
    };
    // A settings file that does not load is no reason to refuse a tick: lint says it.
    let (config, _) = crate::config::load_lenient(Some(&repo.root));
    if let Some(remote) = &config.claims_remote {
        let fetched = refs::lock(&repo.git_dir).and_then(|_lock| refs::fetch(&repo.root, remote));
        if let Err(e) = fetched {
            crate::out::warn(&format!(
                "plan: warning: {e:#}\n  hint: the claims this clone knows decided; check that {remote} is reachable (git fetch {remote})"
            ));
        }
    }
    let Some(held) = peek(repo).into_iter().find(|c| c.goal == goal) else {
        return Ok(me(given).ok().flatten());
    };
    let me = me(given)?;
    match me.as_deref() == Some(held.holder.as_str()) {
        true => Ok(me),
        false => Err(not_yours(goal, &held, me.as_deref())),
    }
}

/// `goal is claimed by HOLDER in WORKTREE on branch BRANCH since WHEN`.
fn describe(goal: &str, holder: &str, claim: Option<&Claim>) -> String {
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
    message
}

fn not_yours(goal: &str, claim: &Claim, me: Option<&str>) -> anyhow::Error {
    let holder = &claim.holder;
    let mut message = describe(goal, holder, Some(claim));
    match me {
        Some(me) => message.push_str(&format!(", not by {me}")),
        None => message.push_str("; neither --as nor PLAN_SESSION names who is asking"),
    }
    // No one named: most often the holder itself, run without its name (issue 71's
    // team day), so how to name itself comes first.
    let hint = match me {
        None => format!(
            "if you are {holder}, pass `--as {holder}` (or set PLAN_SESSION={holder}); else work on another goal (`plan next`), or take this one over, logged: `plan start {goal} --steal --as NAME`"
        ),
        Some(me) => format!(
            "work on another goal (`plan next`), or take this one over, logged: `plan start {goal} --steal --as {me}`; its holder names itself with `--as {holder}` or PLAN_SESSION"
        ),
    };
    Exit::usage_hint(message, hint)
}

fn held_error(goal: &str, holder: &str, claim: Option<&Claim>, lease: u32) -> anyhow::Error {
    Exit::usage_hint(
        describe(goal, holder, claim),
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
    lines_of(&repo.map(peek).unwrap_or_default(), me)
}

/// [`lines`] of the claims `held`.
pub fn lines_of(held: &[Claim], me: Option<&str>) -> (Option<String>, Option<String>) {
    let holdings = holdings(held);
    (
        claim::injection_lines(&holdings, me),
        claim::statusline_part(&holdings, me),
    )
}

/// Which of the `active` goals `me`'s status line details: its own, else one no
/// one holds ([`claim::focus`]).
pub fn focus<'a>(held: &[Claim], me: Option<&str>, active: &[&'a str]) -> Option<&'a str> {
    claim::focus(active, &holdings(held), me)
}

fn holdings(held: &[Claim]) -> Vec<claim::Holding<'_>> {
    held.iter()
        .map(|c| claim::Holding {
            goal: &c.goal,
            holder: &c.holder,
            worktree: &c.worktree,
            branch: &c.branch,
        })
        .collect()
}

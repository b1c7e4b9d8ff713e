//! Claims as refs: `refs/plan/claims/<goal>` in the common git dir, so every
//! worktree of a clone sees the same claims. Each points at an empty-tree commit whose
//! message is the claim (holder, worktree, branch, time). Taken and dropped with a
//! compare-and-swap on the ref; on a remote, with git's own `--force-with-lease` push,
//! run through `exec.rs`. The hooks read the refs without libgit2 ([`peek`]).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result, bail};
use git2::{ErrorCode, Oid, Repository, Signature, Time};
use serde::Serialize;

use super::open;
use crate::exec::{self, Spec};

/// One ref per claimed goal: `refs/plan/claims/<goal>`.
pub const CLAIMS: &str = "refs/plan/claims/";

/// How long a push or fetch of claims may take before it counts as failed
/// (`PLAN_REMOTE_TIMEOUT` sets another).
const REMOTE_TIMEOUT: Duration = Duration::from_secs(60);

/// Who holds a goal, from where, since when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Claim {
    pub goal: String,
    pub holder: String,
    /// The worktree the claim was taken in.
    pub worktree: String,
    /// The branch checked out there (`HEAD` when detached).
    pub branch: String,
    /// When it was taken, in seconds since the epoch.
    pub time: i64,
}

impl Claim {
    fn message(&self) -> String {
        format!(
            "plan claim {}\n\nholder: {}\nworktree: {}\nbranch: {}\ntime: {}\n",
            self.goal, self.holder, self.worktree, self.branch, self.time
        )
    }

    fn parse(goal: &str, message: &str) -> Option<Claim> {
        let field = |key: &str| {
            message
                .lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(": "))
                .map(str::to_string)
        };
        Some(Claim {
            goal: goal.to_string(),
            holder: field("holder")?,
            worktree: field("worktree").unwrap_or_default(),
            branch: field("branch").unwrap_or_default(),
            time: field("time")?.parse().ok()?,
        })
    }
}

/// A claim and the commit its ref points at (40 hex), the value a swap expects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Held {
    pub claim: Claim,
    pub oid: String,
}

/// The git dir every worktree shares: a linked worktree's `commondir` names it.
pub fn common_dir(git_dir: &Path) -> PathBuf {
    match read_regular(&git_dir.join("commondir"), SMALL).and_then(|b| String::from_utf8(b).ok()) {
        Some(text) => {
            let rel = Path::new(text.trim());
            if rel.is_absolute() {
                rel.to_path_buf()
            } else {
                git_dir.join(rel)
            }
        }
        None => git_dir.to_path_buf(),
    }
}

/// The clone's claims lock (`plan/claims.lock` in the common dir), held while a
/// command fetches, takes or drops claims: git fails two fetches of one ref at
/// once, and a fetch landing between a push and the local swap made a race's
/// winner read its own claim as another's. Waited for as any command's lock.
pub fn lock(git_dir: &Path) -> Result<fs::File> {
    let path = common_dir(git_dir).join("plan").join("claims.lock");
    crate::state::lock::hold(&path, "the claims lock")
}

fn ref_name(goal: &str) -> String {
    format!("{CLAIMS}{goal}")
}

/// Every claim in the repository at `root`, by goal.
pub fn list(root: &Path) -> Result<BTreeMap<String, Held>> {
    let repo = open(root)?;
    let mut out = BTreeMap::new();
    let refs = repo
        .references_glob(&format!("{CLAIMS}*"))
        .context("listing the claims (refs/plan/claims/)")?;
    for reference in refs.flatten() {
        let Ok(name) = reference.name() else {
            continue;
        };
        let goal = name.trim_start_matches(CLAIMS).to_string();
        let Some(oid) = reference.target() else {
            continue;
        };
        if let Some(held) = read_commit(&repo, &goal, oid) {
            out.insert(goal, held);
        }
    }
    remember(&common_dir(repo.path()), out.values());
    Ok(out)
}

fn read_commit(repo: &Repository, goal: &str, oid: Oid) -> Option<Held> {
    let commit = repo.find_commit(oid).ok()?;
    let claim = Claim::parse(goal, &String::from_utf8_lossy(commit.message_bytes()))?;
    Some(Held {
        claim,
        oid: oid.to_string(),
    })
}

/// The claim on `goal`, if any.
pub fn get(root: &Path, goal: &str) -> Result<Option<Held>> {
    let repo = open(root)?;
    match repo.find_reference(&ref_name(goal)) {
        Ok(r) => Ok(r.target().and_then(|oid| read_commit(&repo, goal, oid))),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("reading the claim on {goal}")),
    }
}

/// The branch HEAD names in the repository at `root`, for a claim's record.
pub fn branch(root: &Path) -> String {
    let Ok(repo) = open(root) else {
        return "HEAD".to_string();
    };
    repo.find_reference("HEAD")
        .ok()
        .and_then(|r| {
            r.symbolic_target_bytes()
                .map(|b| String::from_utf8_lossy(b).into_owned())
        })
        .map_or_else(
            || "HEAD".to_string(),
            |b| b.trim_start_matches("refs/heads/").to_string(),
        )
}

/// Writes `claim`'s commit, without pointing any ref at it.
pub fn write(root: &Path, claim: &Claim) -> Result<String> {
    let repo = open(root)?;
    let tree = repo
        .treebuilder(None)
        .and_then(|b| b.write())
        .context("writing the empty tree of a claim")?;
    let tree = repo.find_tree(tree).context("reading the empty tree")?;
    let who = Signature::new("plan", "plan@localhost", &Time::new(claim.time, 0))
        .context("making the claim's signature")?;
    let oid = repo
        .commit(None, &who, &who, &claim.message(), &tree, &[])
        .with_context(|| format!("writing the claim on {}", claim.goal))?;
    Ok(oid.to_string())
}

/// Why a swap did not happen: the ref was not what the caller saw.
#[derive(Debug)]
pub struct Moved {
    pub goal: String,
}

impl std::fmt::Display for Moved {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "the claim on {} changed meanwhile", self.goal)
    }
}

impl std::error::Error for Moved {}

/// Points the claim ref of `goal` at `oid`, only if it still points at `expected`
/// (`None`: only if there is none). A [`Moved`] error when it does not.
pub fn swap(root: &Path, goal: &str, expected: Option<&str>, oid: &str) -> Result<()> {
    let repo = open(root)?;
    let name = ref_name(goal);
    let new = Oid::from_str(oid).context("reading a claim's commit id")?;
    let log = format!("plan: claim {goal}");
    let result = match expected {
        // libgit2's create-if-absent checks for the ref before it takes the ref's
        // lock, so two starts at once could both succeed; the check is made here
        // under the lock instead.
        None => create_absent(&repo, &name, new, &log),
        Some(old) => {
            let old = Oid::from_str(old).context("reading a claim's commit id")?;
            repo.reference_matching(&name, new, true, old, &log)
                .map(drop)
        }
    };
    match result {
        Ok(()) => {
            if let Some(held) = read_commit(&repo, goal, new) {
                remember(&common_dir(repo.path()), [&held]);
            }
            Ok(())
        }
        Err(e)
            if matches!(
                e.code(),
                ErrorCode::Exists | ErrorCode::Modified | ErrorCode::Locked
            ) =>
        {
            Err(Moved {
                goal: goal.to_string(),
            }
            .into())
        }
        Err(e) => Err(e).with_context(|| format!("writing {name}")),
    }
}

/// Points `name` at `new` only if there is no such ref, checked while holding the
/// ref's lock (a writer that holds it meanwhile is a `Locked` error: it moved).
fn create_absent(
    repo: &git2::Repository,
    name: &str,
    new: Oid,
    log: &str,
) -> Result<(), git2::Error> {
    let mut tx = repo.transaction()?;
    tx.lock_ref(name)?;
    match repo.find_reference(name) {
        Ok(_) => {
            return Err(git2::Error::new(
                ErrorCode::Exists,
                git2::ErrorClass::Reference,
                format!("{name} exists"),
            ));
        }
        Err(e) if e.code() == ErrorCode::NotFound => {}
        Err(e) => return Err(e),
    }
    tx.set_target(name, new, None, log)?;
    tx.commit()
}

/// Deletes the claim ref of `goal` if it still points at `expected`.
pub fn drop_claim(root: &Path, goal: &str, expected: &str) -> Result<()> {
    let repo = open(root)?;
    let name = ref_name(goal);
    match repo.find_reference(&name) {
        Ok(mut r) => {
            if r.target().map(|o| o.to_string()).as_deref() != Some(expected) {
                return Err(Moved {
                    goal: goal.to_string(),
                }
                .into());
            }
            r.delete().with_context(|| format!("deleting {name}"))
        }
        Err(e) if e.code() == ErrorCode::NotFound => Ok(()),
        Err(e) => Err(e).with_context(|| format!("reading {name}")),
    }
}

fn git(root: &Path, args: &[&str]) -> Result<exec::Output> {
    let mut argv = vec!["git".to_string()];
    argv.extend(args.iter().map(|a| a.to_string()));
    // A remote that asks for a password must fail, not wait on a terminal that
    // no agent answers until the deadline.
    let spec = Spec {
        env: vec![("GIT_TERMINAL_PROMPT".to_string(), "0".to_string())],
        ..Spec::new(argv, root, exec::remote_timeout(REMOTE_TIMEOUT))
    };
    exec::run(&spec).with_context(|| format!("running git {}", args.join(" ")))
}

/// What git said about a failure, in its own words: its `fatal:` and `error:`
/// lines (the last line alone was often the tail of advice, "and the repository
/// exists."), else its first lines; a time-out or silence said as such.
fn stderr_tail(out: &exec::Output) -> String {
    if out.timed_out {
        return format!(
            "no answer within {} s (git was stopped)",
            exec::remote_timeout(REMOTE_TIMEOUT).as_secs()
        );
    }
    let text = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let said: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.starts_with("fatal:") || l.starts_with("error:"))
        .collect();
    let said = if said.is_empty() { lines } else { said };
    match said.is_empty() {
        true => match out.status() {
            Some(status) => format!("git ended with {status} and said nothing on stderr"),
            None => "git ended without a status and said nothing on stderr".to_string(),
        },
        false => said.into_iter().take(4).collect::<Vec<_>>().join("; "),
    }
}

/// Brings the remote's claims here, dropping local ones the remote no longer has:
/// with a claims remote, the remote is the truth.
pub fn fetch(root: &Path, remote: &str) -> Result<()> {
    let refspec = format!("+{CLAIMS}*:{CLAIMS}*");
    let out = git(root, &["fetch", "--quiet", "--prune", remote, &refspec])?;
    if !out.success() {
        bail!(
            "fetching the claims from {remote} failed: {}",
            stderr_tail(&out)
        );
    }
    Ok(())
}

/// Whether the repository at `root` has a remote named `name`.
pub fn has_remote(root: &Path, name: &str) -> Result<bool> {
    let repo = open(root)?;
    let names = repo.remotes().context("listing the remotes")?;
    Ok((0..names.len()).any(|i| matches!(names.get(i), Ok(Some(n)) if n == name)))
}

/// The claims among `held` whose branch is gone from `remote`: this clone has its
/// remote-tracking ref (so the branch was on the remote once: pushed from here or
/// fetched) and `git ls-remote` no longer lists it. A branch never pushed is not
/// gone; nor is any branch when the remote cannot be asked.
pub fn gone_branches<'h>(
    root: &Path,
    remote: &str,
    held: impl IntoIterator<Item = &'h Held>,
) -> Result<Vec<Held>> {
    let repo = open(root)?;
    let seen: Vec<&Held> = held
        .into_iter()
        .filter(|h| !h.claim.branch.is_empty() && h.claim.branch != "HEAD")
        .filter(|h| {
            let tracking = format!("refs/remotes/{remote}/{}", h.claim.branch);
            repo.find_reference(&tracking).is_ok()
        })
        .collect();
    if seen.is_empty() {
        return Ok(Vec::new());
    }
    let out = git(root, &["ls-remote", "--heads", remote])?;
    if !out.success() {
        bail!(
            "listing the branches of {remote} failed: {}",
            stderr_tail(&out)
        );
    }
    let listed = String::from_utf8_lossy(&out.stdout);
    let heads: std::collections::BTreeSet<&str> = listed
        .lines()
        .filter_map(|l| l.split_once('\t')?.1.strip_prefix("refs/heads/"))
        .collect();
    Ok(seen
        .into_iter()
        .filter(|h| !heads.contains(h.claim.branch.as_str()))
        .cloned()
        .collect())
}

/// Sets the remote's claim ref of `goal` to `oid` (`None`: deletes it), only if it
/// is still `expected` there (`None`: absent): git's compare-and-swap on refs. A
/// [`Moved`] error when the remote's ref moved.
pub fn push(
    root: &Path,
    remote: &str,
    goal: &str,
    expected: Option<&str>,
    oid: Option<&str>,
) -> Result<()> {
    let name = ref_name(goal);
    let lease = format!("--force-with-lease={name}:{}", expected.unwrap_or(""));
    let spec = format!("{}:{name}", oid.unwrap_or(""));
    let out = git(
        root,
        &["push", "--quiet", "--porcelain", &lease, remote, &spec],
    )?;
    if out.success() {
        return Ok(());
    }
    let said = String::from_utf8_lossy(&out.stdout);
    if said.contains("stale info") || said.contains("[rejected]") {
        return Err(Moved {
            goal: goal.to_string(),
        }
        .into());
    }
    bail!(
        "pushing the claim on {goal} to {remote} failed: {}",
        stderr_tail(&out)
    )
}

/// What the hooks keep of each claim commit, by its id: written by every command
/// that reads or takes a claim, so a hook rarely opens the repository. One line a
/// claim, `<oid>\t<goal>\t<holder>\t<worktree>\t<branch>\t<time>`, read by hand:
/// a hook pays for no JSON decoder.
#[derive(Default)]
struct Known {
    claims: BTreeMap<String, Claim>,
}

/// The bytes of the regular file at `path`, at most `cap` of them; `None` for
/// anything else. The hooks read these files on every call: opened without
/// blocking and checked on the open file, so a FIFO or a device there (swapped in
/// after a look, too) cannot hang a hook or feed it without end.
fn read_regular(path: &Path, cap: u64) -> Option<Vec<u8>> {
    use rustix::fs::{Mode, OFlags};
    use std::io::Read as _;
    let fd = rustix::fs::open(
        path,
        OFlags::RDONLY | OFlags::NONBLOCK | OFlags::CLOEXEC | OFlags::NOCTTY,
        Mode::empty(),
    )
    .ok()?;
    let file = fs::File::from(fd);
    if !file.metadata().ok()?.file_type().is_file() {
        return None;
    }
    let mut bytes = Vec::new();
    file.take(cap).read_to_end(&mut bytes).ok()?;
    Some(bytes)
}

/// Enough for the known-claims file (512 claims), a loose ref and a time.
const SMALL: u64 = 1 << 20;

fn known_path(common: &Path) -> PathBuf {
    common.join("plan").join("claims.tsv")
}

fn read_known(common: &Path) -> Known {
    let mut known = Known::default();
    let Some(text) = read_regular(&known_path(common), SMALL) else {
        return known;
    };
    let text = String::from_utf8_lossy(&text);
    for line in text.lines() {
        let f: Vec<&str> = line.split('\t').collect();
        if let [oid, goal, holder, worktree, branch, time] = f[..]
            && let Ok(time) = time.parse()
        {
            let claim = Claim {
                goal: goal.to_string(),
                holder: holder.to_string(),
                worktree: worktree.to_string(),
                branch: branch.to_string(),
                time,
            };
            known.claims.insert(oid.to_string(), claim);
        }
    }
    known
}

/// A field as the known-claims file holds it: no tab or line break.
fn field(text: &str) -> String {
    text.replace(['\t', '\n', '\r'], " ")
}

/// Adds claims to what the hooks know, best effort.
fn remember<'h>(common: &Path, held: impl IntoIterator<Item = &'h Held>) {
    let mut known = read_known(common);
    let before = known.claims.len();
    for h in held {
        known.claims.insert(h.oid.clone(), h.claim.clone());
    }
    if known.claims.len() == before {
        return;
    }
    // Bounded: a long-lived repository takes and drops many claims.
    if known.claims.len() > 512 {
        known.claims.clear();
    }
    let Some(dir) = known_path(common).parent().map(Path::to_path_buf) else {
        return;
    };
    if crate::atomic::make_dirs(&dir).is_err() {
        return;
    }
    let mut text = String::new();
    for (oid, c) in &known.claims {
        text.push_str(&format!(
            "{oid}\t{}\t{}\t{}\t{}\t{}\n",
            field(&c.goal),
            field(&c.holder),
            field(&c.worktree),
            field(&c.branch),
            c.time
        ));
    }
    let _ = crate::atomic::replace(&known_path(common), text.as_bytes(), &CACHE);
}

/// The claims of the repository whose git dir is `git_dir`, for the hooks: the loose
/// refs under the common dir and `packed-refs` are read as files, and each commit as
/// [`Known`] remembers it; only a claim no command has seen yet opens the repository.
/// Empty on any failure: the hooks fail open.
pub fn peek(root: &Path, git_dir: &Path) -> Vec<Claim> {
    let common = common_dir(git_dir);
    let mut oids: BTreeMap<String, String> = BTreeMap::new();
    if let Some(packed) = read_regular(&common.join("packed-refs"), 1 << 30)
        && memchr::memmem::find(&packed, CLAIMS.as_bytes()).is_some()
    {
        for line in String::from_utf8_lossy(&packed).lines() {
            if let Some((oid, name)) = line.split_once(' ')
                && let Some(goal) = name.strip_prefix(CLAIMS)
            {
                oids.insert(goal.to_string(), oid.to_string());
            }
        }
    }
    loose(&common.join(CLAIMS), "", &mut oids);
    if oids.is_empty() {
        return Vec::new();
    }
    let known = read_known(&common);
    if oids.values().all(|oid| known.claims.contains_key(oid)) {
        return oids
            .values()
            .filter_map(|oid| known.claims.get(oid).cloned())
            .collect();
    }
    list(root)
        .map(|all| all.into_values().map(|h| h.claim).collect())
        .unwrap_or_default()
}

fn loose(dir: &Path, prefix: &str, out: &mut BTreeMap<String, String>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            loose(&entry.path(), &format!("{name}/"), out);
        } else if let Some(text) = read_regular(&entry.path(), SMALL) {
            let text = String::from_utf8_lossy(&text);
            let oid = text.trim();
            if oid.len() == 40 && oid.bytes().all(|b| b.is_ascii_hexdigit()) {
                out.insert(name, oid.to_string());
            }
        }
    }
}

/// Where the last activity of each holder is kept: a file per holder under the
/// common dir, holding seconds since the epoch.
fn seen_path(common: &Path, holder: &str) -> PathBuf {
    let safe: String = holder
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    let hash = format!(
        "{:08x}",
        xxhash_rust::xxh3::xxh3_64(holder.as_bytes()) as u32
    );
    common
        .join("plan")
        .join("seen")
        .join(format!("{safe}-{hash}"))
}

/// Records that `holder` was active at `now`, best effort.
pub fn touch(git_dir: &Path, holder: &str, now: i64) {
    // Replaced whole: written in place, a reader racing the write saw an empty file,
    // read no activity, and could take an active holder's claim over as lapsed.
    let _ = crate::atomic::replace(
        &seen_path(&common_dir(git_dir), holder),
        now.to_string().as_bytes(),
        &CACHE,
    );
}

/// Runtime state plan rebuilds when lost: no fsyncs, owner-only.
const CACHE: crate::atomic::Replace = crate::atomic::Replace {
    new_file: crate::atomic::NewFile::Private,
    create_dirs: true,
    fsync: false,
    sync_dir: false,
    prefix: ".tmp",
};

/// When `holder` was last active here, if ever.
pub fn last_seen(git_dir: &Path, holder: &str) -> Option<i64> {
    String::from_utf8(read_regular(
        &seen_path(&common_dir(git_dir), holder),
        SMALL,
    )?)
    .ok()?
    .trim()
    .parse()
    .ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The git module's one test runner, the repository its own HOME.
    fn git(dir: &Path, args: &[&str]) -> String {
        crate::git::git_for_tests(dir, dir, args)
    }

    fn claim(holder: &str) -> Claim {
        Claim {
            goal: "g".into(),
            holder: holder.into(),
            worktree: "/w".into(),
            branch: "main".into(),
            time: 1_781_532_120,
        }
    }

    /// Two clones race for one goal on a shared remote: the push that expected the
    /// ref as it was before the other's wins, the other is told it moved; a release
    /// that expected a claim already replaced moves nothing.
    #[test]
    fn the_remote_ref_is_taken_and_dropped_only_by_compare_and_swap() {
        let dir = tempfile::tempdir().unwrap();
        let bare = dir.path().join("origin.git");
        git(
            dir.path(),
            &["init", "-q", "--bare", bare.to_str().unwrap()],
        );
        let url = format!("file://{}", bare.display());
        let mut clones = Vec::new();
        for name in ["a", "b"] {
            let root = dir.path().join(name);
            git(
                dir.path(),
                &["init", "-q", "-b", "main", root.to_str().unwrap()],
            );
            git(&root, &["commit", "-q", "--allow-empty", "-m", "init"]);
            git(&root, &["remote", "add", "origin", &url]);
            clones.push(root);
        }
        let (a, b) = (&clones[0], &clones[1]);
        let ours = write(a, &claim("a")).unwrap();
        let theirs = write(b, &claim("b")).unwrap();
        push(a, "origin", "g", None, Some(&ours)).unwrap();
        let lost = push(b, "origin", "g", None, Some(&theirs)).unwrap_err();
        assert!(lost.downcast_ref::<Moved>().is_some(), "{lost:#}");
        let remote = git(a, &["ls-remote", "origin", "refs/plan/claims/g"]);
        assert!(remote.starts_with(&ours), "{remote}");
        // b fetches, sees a's claim, steals it against that value.
        fetch(b, "origin").unwrap();
        assert_eq!(get(b, "g").unwrap().unwrap().claim.holder, "a");
        push(b, "origin", "g", Some(&ours), Some(&theirs)).unwrap();
        let stale = push(a, "origin", "g", Some(&ours), None).unwrap_err();
        assert!(stale.downcast_ref::<Moved>().is_some(), "{stale:#}");
        push(b, "origin", "g", Some(&theirs), None).unwrap();
        assert_eq!(git(a, &["ls-remote", "origin", "refs/plan/claims/*"]), "");
        // Locally the same swap: a ref that moved is not overwritten.
        let other = write(a, &claim("c")).unwrap();
        swap(a, "g", None, &ours).unwrap();
        let moved = swap(a, "g", None, &other).unwrap_err();
        assert!(moved.downcast_ref::<Moved>().is_some(), "{moved:#}");
        let moved = swap(a, "g", Some(&other), &other).unwrap_err();
        assert!(moved.downcast_ref::<Moved>().is_some(), "{moved:#}");
        // The hooks read it without opening the repository, from what `swap` kept.
        let seen = peek(a, &a.join(".git"));
        assert_eq!(seen, vec![claim("a")]);
    }

    /// Attack: a holder's activity read while a hook records it. Written in place,
    /// the reader could see an empty file and take the holder for idle.
    #[test]
    fn activity_is_never_read_half_written() {
        let dir = tempfile::tempdir().unwrap();
        let git_dir = dir.path().to_path_buf();
        touch(&git_dir, "one", 1_000_000_000);
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let writer = {
            let (git_dir, stop) = (git_dir.clone(), stop.clone());
            std::thread::spawn(move || {
                let mut now = 1_000_000_000;
                while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                    now += 1;
                    touch(&git_dir, "one", now);
                }
            })
        };
        let mut misses = 0;
        for _ in 0..20_000 {
            if last_seen(&git_dir, "one").is_none() {
                misses += 1;
            }
        }
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        writer.join().unwrap();
        assert_eq!(
            misses, 0,
            "activity read as none while it was being written"
        );
    }
}

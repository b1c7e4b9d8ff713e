//! The merge driver's entry in a repository's git config (`merge.plan.*`): read
//! from every level git reads, written to and removed from this clone's own. Part
//! of `git.rs`'s world.

use std::path::Path;

use anyhow::{Context, Result};
use git2::{ConfigLevel, ErrorCode};

use super::open;

/// What `merge.<name>.driver` says at any level git reads; `None` when unset.
pub fn merge_driver(root: &Path, name: &str) -> Result<Option<String>> {
    let repo = open(root)?;
    let config = repo
        .config()
        .context("reading the repository's git config")?;
    match config.get_string(&format!("merge.{name}.driver")) {
        Ok(value) => Ok(Some(value)),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e).context("reading merge.*.driver from git config"),
    }
}

/// Sets `merge.<name>.name` and `.driver` in this clone's config (`.git/config`,
/// shared by its worktrees); whether anything changed.
pub fn set_merge_driver(root: &Path, name: &str, title: &str, driver: &str) -> Result<bool> {
    let repo = open(root)?;
    let mut config = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .context("opening this clone's git config")?;
    let mut changed = false;
    for (key, value) in [("name", title), ("driver", driver)] {
        let key = format!("merge.{name}.{key}");
        let now = config.get_string(&key).ok();
        if now.as_deref() != Some(value) {
            config
                .set_str(&key, value)
                .with_context(|| format!("setting {key} in git config"))?;
            changed = true;
        }
    }
    Ok(changed)
}

/// Removes `merge.<name>.*` from this clone's config; whether there was any.
pub fn unset_merge_driver(root: &Path, name: &str) -> Result<bool> {
    let repo = open(root)?;
    let mut config = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .context("opening this clone's git config")?;
    let mut removed = false;
    for key in ["name", "driver"] {
        let key = format!("merge.{name}.{key}");
        match config.remove(&key) {
            Ok(()) => removed = true,
            Err(e) if e.code() == ErrorCode::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("removing {key} from git config")),
        }
    }
    Ok(removed)
}

/// The fetch refspec that brings `remote`'s checkpoints with every `git fetch`,
/// into a namespace of their own: a fetch never writes one of this clone's
/// checkpoint refs, and a `fetch --prune` never deletes one (it prunes only what
/// the refspec writes). Forced there, as remote-tracking branches are: the copy
/// follows the remote, and this clone's own refs are never touched.
pub fn checkpoint_refspec(remote: &str) -> String {
    format!("+refs/plan/checkpoints/*:refs/plan/remotes/{remote}/checkpoints/*")
}

/// The remotes of this clone, by name.
pub fn remotes(root: &Path) -> Result<Vec<String>> {
    let repo = open(root)?;
    let names = repo.remotes().context("listing the remotes")?;
    Ok(names
        .iter()
        .filter_map(|n| n.ok().flatten().map(str::to_string))
        .collect())
}

/// Whether `remote.<remote>.fetch` has `refspec` among its values.
pub fn has_fetch_refspec(root: &Path, remote: &str, refspec: &str) -> Result<bool> {
    let repo = open(root)?;
    let config = repo
        .config()
        .context("reading the repository's git config")?;
    let key = format!("remote.{remote}.fetch");
    let mut found = false;
    let mut entries = config
        .multivar(&key, None)
        .with_context(|| format!("reading {key}"))?;
    while let Some(entry) = entries.next() {
        let entry = entry.with_context(|| format!("reading {key}"))?;
        found |= entry.value() == Ok(refspec);
    }
    Ok(found)
}

fn value_pattern(refspec: &str) -> String {
    let escaped: String = refspec
        .chars()
        .flat_map(|c| {
            let special = "\\^$.|?*+()[]{}".contains(c);
            special.then_some('\\').into_iter().chain([c])
        })
        .collect();
    format!("^{escaped}$")
}

/// Adds `refspec` to `remote.<remote>.fetch` in this clone's config, beside the
/// values there; whether it was added.
pub fn add_fetch_refspec(root: &Path, remote: &str, refspec: &str) -> Result<bool> {
    if has_fetch_refspec(root, remote, refspec)? {
        return Ok(false);
    }
    let repo = open(root)?;
    let mut config = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .context("opening this clone's git config")?;
    let key = format!("remote.{remote}.fetch");
    config
        .set_multivar(&key, &value_pattern(refspec), refspec)
        .with_context(|| format!("adding {refspec} to {key}"))?;
    Ok(true)
}

/// Removes `refspec` from `remote.<remote>.fetch` in this clone's config; whether
/// it was there.
pub fn remove_fetch_refspec(root: &Path, remote: &str, refspec: &str) -> Result<bool> {
    if !has_fetch_refspec(root, remote, refspec)? {
        return Ok(false);
    }
    let repo = open(root)?;
    let mut config = repo
        .config()
        .and_then(|c| c.open_level(ConfigLevel::Local))
        .context("opening this clone's git config")?;
    let key = format!("remote.{remote}.fetch");
    match config.remove_multivar(&key, &value_pattern(refspec)) {
        Ok(()) => Ok(true),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(false),
        Err(e) => Err(e).with_context(|| format!("removing {refspec} from {key}")),
    }
}

/// The directory git runs this clone's hooks from: `core.hooksPath` (from the
/// top of the working tree when relative), else the common git dir's `hooks/`.
pub fn hooks_dir(root: &Path) -> Result<std::path::PathBuf> {
    let repo = open(root)?;
    let config = repo
        .config()
        .context("reading the repository's git config")?;
    match config.get_path("core.hooksPath") {
        Ok(path) if path.is_absolute() => Ok(path),
        Ok(path) => Ok(root.join(path)),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(repo.commondir().join("hooks")),
        Err(e) => Err(e).context("reading core.hooksPath from git config"),
    }
}

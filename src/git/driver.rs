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

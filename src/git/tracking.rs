//! Whether git will commit a file plan wrote (a transcript): staged or committed,
//! new and waiting for `git add`, or ignored, so never taken by `git add -A`.

use std::path::Path;

use anyhow::{Context, Result};

use super::{head_tree, open};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tracking {
    /// In the index: the next commit has it.
    Tracked,
    /// Not in the index and not ignored: `git add` takes it, `git commit -a` does not.
    Untracked,
    /// Ignored (.gitignore, .git/info/exclude or core.excludesFile): only
    /// `git add -f` takes it.
    Ignored,
}

/// How git sees the file `rel` (relative to the top of the working tree at `root`).
pub fn tracking(root: &Path, rel: &Path) -> Result<Tracking> {
    let repo = open(root)?;
    let index = repo.index().context("reading the git index")?;
    if index.get_path(rel, 0).is_some() {
        return Ok(Tracking::Tracked);
    }
    let ignored = repo
        .is_path_ignored(rel)
        .with_context(|| format!("checking whether git ignores {}", rel.display()))?;
    Ok(if ignored {
        Tracking::Ignored
    } else {
        Tracking::Untracked
    })
}

/// Stages the file `rel` (`git add` of that one file): the next commit, even a
/// `git commit -a`, takes it.
pub fn stage(root: &Path, rel: &Path) -> Result<()> {
    let repo = open(root)?;
    let mut index = repo.index().context("reading the git index")?;
    index
        .add_path(rel)
        .with_context(|| format!("staging {}", rel.display()))?;
    index.write().context("writing the git index")
}

/// Whether git's index holds `rel` unmerged: a merge, rebase or cherry-pick in
/// progress left it conflicted.
pub fn unmerged(root: &Path, rel: &Path) -> Result<bool> {
    let repo = open(root)?;
    let index = repo.index().context("reading the git index")?;
    let want = rel.to_string_lossy();
    let conflicts = index.conflicts().context("reading the index's conflicts")?;
    for conflict in conflicts {
        let conflict = conflict.context("reading a conflict of the index")?;
        let named = [&conflict.ancestor, &conflict.our, &conflict.their]
            .into_iter()
            .flatten()
            .any(|entry| entry.path == want.as_bytes());
        if named {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Whether HEAD's tree has the file `rel`: a missing copy of it can be restored
/// from git.
pub fn in_head(root: &Path, rel: &Path) -> Result<bool> {
    let repo = open(root)?;
    let Some(tree) = head_tree(&repo)? else {
        return Ok(false);
    };
    Ok(tree.get_path(rel).is_ok())
}

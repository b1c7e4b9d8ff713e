//! The only file that uses git2: repository discovery now, history later. Returns
//! owned values; each error names the operation.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use git2::{ErrorCode, Repository, RepositoryOpenFlags};

/// A repository with a working tree.
#[derive(Clone, Debug)]
pub struct Repo {
    /// The top of the working tree.
    pub root: PathBuf,
    /// The repository's git directory (a worktree's own, for a linked worktree).
    pub git_dir: PathBuf,
}

/// The repository containing `start`, honouring `GIT_DIR` and
/// `GIT_CEILING_DIRECTORIES` as git does. `None` outside any repository.
pub fn discover(start: &Path) -> Result<Option<Repo>> {
    let repo = match Repository::open_ext(
        start,
        RepositoryOpenFlags::FROM_ENV,
        std::iter::empty::<&std::ffi::OsStr>(),
    ) {
        Ok(repo) => repo,
        Err(e) if e.code() == ErrorCode::NotFound => return Ok(None),
        Err(e) => {
            return Err(e)
                .with_context(|| format!("opening the git repository at {}", start.display()));
        }
    };
    let Some(root) = repo.workdir() else {
        return Ok(None);
    };
    Ok(Some(Repo {
        root: root.to_path_buf(),
        git_dir: repo.path().to_path_buf(),
    }))
}

//! Where a stop finds the work loop its session holds when none runs where the
//! stop comes from: another worktree of the repository (`git worktree add`), or a
//! repository around this one (`git init` in a directory of the loop's). Each keeps
//! its own `.git/plan`, and a session that moved there would otherwise stop unheld.

use std::path::{Path, PathBuf};

use crate::state::State;

/// How many repositories around this one are looked in: a repository made
/// inside the loop's is one or two levels down, and each level is a few stats.
const AROUND: usize = 4;

/// How many linked worktrees are looked in: a stop reads one small file in each.
const WORKTREES: usize = 64;

/// The top of the working tree whose running loop `session` owns, when no loop
/// runs in `git_dir` itself. Read without the lock, as the status line reads: the
/// stop is then decided there, under that loop's own lock.
pub fn loop_root(root: &Path, git_dir: &Path, session: &str) -> Option<PathBuf> {
    if State::new(git_dir)
        .loop_unlocked()
        .is_some_and(|l| l.ended.is_none())
    {
        return None;
    }
    worktrees(git_dir)
        .into_iter()
        .chain(around(root))
        .find(|(_, dir)| dir != git_dir && holds(dir, session))
        .map(|(root, _)| root)
}

fn holds(git_dir: &Path, session: &str) -> bool {
    State::new(git_dir)
        .loop_unlocked()
        .is_some_and(|l| l.ended.is_none() && l.owner.as_deref() == Some(session))
}

/// The repository's worktrees, as (top of the working tree, git directory): the
/// main one and each linked one git lists under `<common dir>/worktrees/`.
fn worktrees(git_dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let read = |path: &Path| {
        crate::fsread::text(path, crate::fsread::GITFILE)
            .ok()
            .map(|t| PathBuf::from(t.trim()))
    };
    let common = match read(&git_dir.join("commondir")) {
        Some(dir) if dir.is_absolute() => dir,
        Some(dir) => git_dir.join(dir),
        None => git_dir.to_path_buf(),
    };
    // `commondir` is relative (`../..`): its name is read from the real path.
    let common = std::fs::canonicalize(&common).unwrap_or(common);
    let mut found = Vec::new();
    if common.file_name().is_some_and(|n| n == ".git")
        && let Some(top) = common.parent()
    {
        found.push((top.to_path_buf(), common.clone()));
    }
    let Ok(linked) = std::fs::read_dir(common.join("worktrees")) else {
        return found;
    };
    for entry in linked.flatten().take(WORKTREES) {
        let dir = entry.path();
        // `gitdir` names the worktree's `.git` file; its directory is the top.
        if let Some(top) = read(&dir.join("gitdir")).and_then(|g| g.parent().map(Path::to_path_buf))
        {
            found.push((top, dir));
        }
    }
    found
}

/// The repositories around `root`, nearest first.
fn around(root: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut found: Vec<(PathBuf, PathBuf)> = Vec::new();
    let mut from = root.parent().map(Path::to_path_buf);
    while let Some(dir) = from.take().filter(|_| found.len() < AROUND) {
        let Ok(Some(repo)) = crate::fsread::discover(&dir) else {
            break;
        };
        from = repo.root.parent().map(Path::to_path_buf);
        found.push((repo.root, repo.git_dir));
    }
    found
}

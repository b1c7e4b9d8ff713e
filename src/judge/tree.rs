//! Where the judge reads, in one place: the checkpoint taken when verify passed,
//! checked out into a private temporary directory. Other agents' edits, commits and
//! git config meanwhile neither reach the judge nor reject the sign-off, and every
//! change in that directory, its git dir or beside it is the judge's own. What runs
//! code in the real repository (hooks, settings that name a program) is watched too.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::git;

/// The judge's copy of the working tree, watched from its making to [`Tree::changes`].
pub struct Tree {
    scratch: crate::exec::Scratch,
    root: PathBuf,
    before: git::Snapshot,
    guarded: git::Guarded,
    real: PathBuf,
}

/// The name of the copy inside its scratch directory; anything else there after the
/// run was put beside it.
const TREE: &str = "tree";

impl Tree {
    /// Checks out `commit` (a checkpoint of the repository at `real`) and copies in
    /// `wanted` (repository-relative paths the judge is pointed at) that the
    /// checkpoint lacks: files git ignores, such as evidence passed with
    /// `--allow-ignored` or a report verify wrote.
    pub fn take(real: &Path, commit: &str, wanted: &[String]) -> Result<Tree> {
        let scratch = crate::exec::Scratch::private("plan-judge-")
            .context("making a directory for the judge's snapshot")?;
        let root = scratch.path().join(TREE);
        crate::atomic::make_dir(&root).with_context(|| format!("creating {}", root.display()))?;
        git::check_out(real, commit, &root)?;
        for rel in wanted {
            let rel = rel.trim_end_matches('/');
            let to = root.join(rel);
            if rel.is_empty() || fs::symlink_metadata(&to).is_ok() {
                continue;
            }
            copy(&real.join(rel), &to)
                .with_context(|| format!("copying {rel} into the judge's snapshot"))?;
        }
        let before = git::snapshot(&root)?;
        let guarded = git::guarded(real)?;
        Ok(Tree {
            scratch,
            root,
            before,
            guarded,
            real: real.to_path_buf(),
        })
    }

    /// The directory the judge runs in and reads.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What the judge changed: paths in its copy (its git dir's hooks, info and
    /// config among them, as `.git/…`), `../NAME` for what it put beside the copy,
    /// and `the repository's …` for a hook or a code-running setting of the real
    /// repository.
    pub fn changes(&self) -> Result<Vec<String>> {
        let after = git::snapshot_after(&self.root, &self.before)?;
        let mut out = self.before.changes(&after);
        let beside = fs::read_dir(self.scratch.path())
            .with_context(|| format!("listing {}", self.scratch.path().display()))?;
        let mut beside: Vec<String> = beside
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|name| name != TREE)
            .map(|name| format!("../{name}"))
            .collect();
        beside.sort();
        out.extend(beside);
        let guarded = git::guarded(&self.real)?;
        out.extend(
            self.guarded
                .changes(&guarded)
                .into_iter()
                .map(|c| format!("the repository's {c}")),
        );
        Ok(out)
    }

    /// Leaves the copy on disk (for a person to inspect what the judge changed)
    /// and returns where it is.
    pub fn keep(self) -> PathBuf {
        let root = self.root.clone();
        let _ = self.scratch.keep();
        root
    }
}

/// Copies a file, a symlink (as a link) or a directory's contents from `from` to
/// `to`. Fifos, sockets and devices are left out: opening one could wait forever.
fn copy(from: &Path, to: &Path) -> Result<()> {
    let meta = fs::symlink_metadata(from).with_context(|| format!("reading {}", from.display()))?;
    if let Some(parent) = to.parent() {
        crate::atomic::make_dirs(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    let kind = meta.file_type();
    if kind.is_symlink() {
        let target = fs::read_link(from)?;
        crate::atomic::symlink(target, to)?;
    } else if kind.is_file() {
        crate::atomic::copy(from, to)?;
    } else if kind.is_dir() {
        crate::atomic::make_dirs(to)?;
        for entry in fs::read_dir(from)?.flatten() {
            copy(&entry.path(), &to.join(entry.file_name()))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn git(dir: &Path, args: &[&str]) {
        let ok = std::process::Command::new("git")
            .args(args)
            .current_dir(dir)
            .env("GIT_AUTHOR_NAME", "t")
            .env("GIT_AUTHOR_EMAIL", "t@t")
            .env("GIT_COMMITTER_NAME", "t")
            .env("GIT_COMMITTER_EMAIL", "t@t")
            .output()
            .unwrap();
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
    }

    #[test]
    fn the_copy_shows_what_the_real_tree_showed_and_only_its_own_changes() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path();
        git(real, &["init", "-q", "-b", "main"]);
        fs::write(real.join(".gitignore"), "*.log\n").unwrap();
        fs::write(real.join("kept.txt"), "committed\n").unwrap();
        fs::write(real.join("edited.txt"), "committed\n").unwrap();
        git(real, &["add", "."]);
        git(real, &["commit", "-q", "-m", "one"]);
        fs::write(real.join("edited.txt"), "uncommitted\n").unwrap();
        fs::write(real.join("new.txt"), "untracked\n").unwrap();
        fs::write(real.join("report.log"), "ignored\n").unwrap();
        let commit = git::working_commit(real, "test").unwrap();
        let tree = Tree::take(real, &commit, &["report.log".to_string()]).unwrap();
        let copy = tree.root();
        assert_eq!(
            fs::read_to_string(copy.join("edited.txt")).unwrap(),
            "uncommitted\n"
        );
        assert_eq!(
            fs::read_to_string(copy.join("new.txt")).unwrap(),
            "untracked\n"
        );
        assert_eq!(
            fs::read_to_string(copy.join("report.log")).unwrap(),
            "ignored\n"
        );
        let stat = git::diff_stat_since(copy, None).unwrap();
        assert!(
            stat.contains("edited.txt") && stat.contains("new.txt"),
            "{stat}"
        );
        assert!(!stat.contains("kept.txt"), "{stat}");
        // The neighbours: a commit and a setting in the real repository.
        fs::write(real.join("other.txt"), "theirs\n").unwrap();
        git(real, &["add", "other.txt"]);
        git(real, &["commit", "-q", "-m", "theirs"]);
        git(real, &["config", "branch.main.remote", "origin"]);
        assert!(!copy.join("other.txt").exists());
        assert_eq!(tree.changes().unwrap(), Vec::<String>::new());
        // The judge's own writes: in the copy, beside it, and a setting that runs code.
        fs::write(copy.join("kept.txt"), "judged\n").unwrap();
        fs::write(copy.parent().unwrap().join("escape"), "").unwrap();
        git(real, &["config", "core.hooksPath", "/tmp/hooks"]);
        assert_eq!(
            tree.changes().unwrap(),
            [
                "kept.txt",
                "../escape",
                "the repository's git config core.hookspath"
            ]
        );
    }
}

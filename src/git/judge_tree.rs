//! The tree a judge reads: a checkpoint checked out into a directory of its own, as
//! a repository that borrows the real one's objects (git's alternates), with the
//! real HEAD and an index holding HEAD's files, so `git status`, `git diff` and
//! `git log` there answer as they did in the real tree when the checkpoint was
//! taken. Also what runs code in the real repository (its hooks, the settings that
//! name a program), which a judge must leave alone too.

use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use anyhow::{Context, Result};
use git2::build::CheckoutBuilder;
use git2::{IndexEntry, IndexTime, Oid, Repository};

use super::checkpoint::{Entries, tree_entries};
use super::{Stamp, head, open, stamp_tree};

/// Writes the checkpoint `commit` of the repository at `root` into the empty
/// directory `dir` as a repository of its own: the checkpoint's files byte for
/// byte (no filters), HEAD as it was when the checkpoint was taken (its parent, on
/// the branch HEAD names now), and an index holding that HEAD's files. Nothing of
/// the real repository is written.
pub fn check_out(root: &Path, commit: &str, dir: &Path) -> Result<()> {
    let real = open(root)?;
    let branch = head(&real)?.name;
    let objects = real.commondir().join("objects");
    let repo = Repository::init(dir)
        .with_context(|| format!("making a repository at {}", dir.display()))?;
    let alternates = repo.path().join("objects").join("info").join("alternates");
    if let Some(parent) = alternates.parent() {
        crate::atomic::make_dirs(parent)
            .with_context(|| format!("creating {}", parent.display()))?;
    }
    #[expect(
        clippy::disallowed_methods,
        reason = "the judge's scratch repository, made here"
    )]
    fs::write(&alternates, format!("{}\n", objects.display()))
        .with_context(|| format!("writing {}", alternates.display()))?;
    // The object database is read at open: reopen to see the borrowed objects.
    drop(repo);
    let repo = open(dir)?;
    let id = Oid::from_str(commit).with_context(|| format!("reading the commit id {commit}"))?;
    let checkpoint = repo
        .find_commit(id)
        .with_context(|| format!("reading the checkpoint {commit}"))?;
    let mut how = CheckoutBuilder::new();
    how.force().disable_filters(true);
    repo.checkout_tree(checkpoint.as_object(), Some(&mut how))
        .with_context(|| format!("writing the checkpoint's files into {}", dir.display()))?;
    let parent = checkpoint.parent_ids().next();
    match parent {
        Some(parent) if branch.starts_with("refs/heads/") => {
            repo.reference(&branch, parent, true, "plan: the judge's snapshot")
                .with_context(|| format!("writing {branch}"))?;
            repo.set_head(&branch)
        }
        Some(parent) => repo.set_head_detached(parent),
        None => repo.set_head(&branch),
    }
    .context("setting HEAD")?;
    let base = match parent {
        Some(parent) => {
            let parent = repo
                .find_commit(parent)
                .with_context(|| format!("reading the commit {parent}"))?;
            tree_entries(&repo, Some(parent.tree_id()))?
        }
        None => Entries::new(),
    };
    let files = tree_entries(&repo, Some(checkpoint.tree_id()))?;
    let mut index = repo.index().context("reading the snapshot's index")?;
    // The checkout left the checkpoint's files staged; HEAD's go back, so what was
    // uncommitted shows as uncommitted. Unchanged files keep their stat data.
    for (path, &(id, mode)) in &base {
        if files.get(path) != Some(&(id, mode)) {
            index
                .add(&entry(path, id, mode))
                .with_context(|| format!("staging {}", String::from_utf8_lossy(path)))?;
        }
    }
    for path in files.keys().filter(|p| !base.contains_key(*p)) {
        index
            .remove_path(Path::new(OsStr::from_bytes(path)))
            .with_context(|| format!("unstaging {}", String::from_utf8_lossy(path)))?;
    }
    index.write().context("writing the snapshot's index")?;
    Ok(())
}

/// An index entry without stat data: git hashes the file to compare it.
fn entry(path: &[u8], id: Oid, mode: u32) -> IndexEntry {
    IndexEntry {
        ctime: IndexTime::new(0, 0),
        mtime: IndexTime::new(0, 0),
        dev: 0,
        ino: 0,
        mode,
        uid: 0,
        gid: 0,
        file_size: 0,
        id,
        flags: 0,
        flags_extended: 0,
        path: path.to_vec(),
    }
}

/// What runs code in a repository, as it stands: the hooks of its common git dir
/// (by size, mtime, ctime and inode) and the git settings that name a program or a
/// file of them. A neighbour's `git push -u`, `git config user.name` or new remote
/// changes neither; a judge that plants a hook or a `core.hooksPath` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Guarded {
    hooks: BTreeMap<String, Stamp>,
    settings: Vec<(String, String)>,
}

/// The [`Guarded`] parts of the repository at `root`.
pub fn guarded(root: &Path) -> Result<Guarded> {
    let repo = open(root)?;
    let mut hooks = BTreeMap::new();
    stamp_tree(&repo.commondir().join("hooks"), ".git/hooks", &mut hooks);
    let mut config = repo.config().context("reading the git config")?;
    let config = config.snapshot().context("reading the git config")?;
    let mut settings = Vec::new();
    let mut entries = config.entries(None).context("reading the git config")?;
    while let Some(entry) = entries.next() {
        let entry = entry.context("reading a git setting")?;
        if let Ok(name) = entry.name()
            && runs_code(name)
        {
            let value = String::from_utf8_lossy(entry.value_bytes()).into_owned();
            settings.push((name.to_string(), value));
        }
    }
    Ok(Guarded { hooks, settings })
}

impl Guarded {
    /// What differs in `after`: hook paths, then `git config NAME` for each setting.
    pub fn changes(&self, after: &Guarded) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for (path, stamp) in &self.hooks {
            if after.hooks.get(path) != Some(stamp) {
                out.push(path.clone());
            }
        }
        out.extend(
            after
                .hooks
                .keys()
                .filter(|p| !self.hooks.contains_key(*p))
                .cloned(),
        );
        let names = |g: &Guarded| {
            g.settings
                .iter()
                .map(|(n, _)| n.clone())
                .collect::<std::collections::BTreeSet<_>>()
        };
        for name in names(self).union(&names(after)) {
            let values = |g: &Guarded| {
                g.settings
                    .iter()
                    .filter(|(n, _)| n == name)
                    .map(|(_, v)| v.clone())
                    .collect::<Vec<_>>()
            };
            if values(self) != values(after) {
                out.push(format!("git config {name}"));
            }
        }
        out
    }
}

/// A git setting whose value git runs, or reads more settings from. Names come
/// lower-cased from git but for the subsection (`filter.Lfs.clean`).
fn runs_code(name: &str) -> bool {
    let name = name.to_ascii_lowercase();
    let (section, key) = match (name.split_once('.'), name.rsplit_once('.')) {
        (Some((section, _)), Some((_, key))) => (section.to_string(), key.to_string()),
        _ => return false,
    };
    match section.as_str() {
        "alias" | "pager" | "include" | "includeif" => return true,
        "core" => {
            return matches!(
                key.as_str(),
                "hookspath"
                    | "fsmonitor"
                    | "sshcommand"
                    | "editor"
                    | "pager"
                    | "askpass"
                    | "gitproxy"
                    | "attributesfile"
                    | "excludesfile"
            );
        }
        _ => {}
    }
    matches!(
        key.as_str(),
        "clean"
            | "smudge"
            | "process"
            | "textconv"
            | "command"
            | "driver"
            | "helper"
            | "program"
            | "external"
            | "uploadpack"
            | "receivepack"
            | "proxycommand"
            | "editor"
            | "cmd"
            | "tool"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_that_run_code_are_told_from_the_rest() {
        for name in [
            "core.hooksPath",
            "core.fsmonitor",
            "filter.lfs.smudge",
            "diff.pdf.textconv",
            "merge.ours.driver",
            "alias.co",
            "credential.helper",
            "includeIf.gitdir:~/w/.path",
            "sequence.editor",
            "gpg.ssh.program",
        ] {
            assert!(runs_code(name), "{name}");
        }
        for name in [
            "branch.side.remote",
            "branch.side.merge",
            "remote.origin.url",
            "remote.origin.fetch",
            "user.name",
            "core.bare",
            "push.default",
        ] {
            assert!(!runs_code(name), "{name}");
        }
    }
}

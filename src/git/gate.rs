//! What `plan audit` asks of git beyond one file's history: whether the history it
//! reads is whole (no shallow cut, grafts or replace refs), the commit a base
//! revision names, the reverts HEAD's history holds, whether a transcript is
//! tracked, and a commit's tree written out where the working tree cannot reach it.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use git2::{ErrorCode, ObjectType, Oid, Repository, TreeWalkMode, TreeWalkResult};

use super::{UnknownRevision, blob_at, blob_text, head, open};

/// Each way this repository hides part of its history from a reader, in words:
/// a shallow clone's cut, a grafts file, replace refs. Empty when the history is
/// whole. Audit's search for removed log lines reads the history as git shows it,
/// so any of these can hide the commit that removed a reopen.
pub fn hidden_history(root: &Path) -> Result<Vec<String>> {
    let repo = open(root)?;
    let common = repo.commondir().to_path_buf();
    let mut out = Vec::new();
    let shallow = common.join("shallow");
    if std::fs::metadata(&shallow).is_ok_and(|m| m.len() > 0) || repo.is_shallow() {
        out.push(format!(
            "the clone is shallow ({}): the commits before its cut are not in it",
            shallow.display()
        ));
    }
    let grafts = common.join("info").join("grafts");
    if grafts.exists() {
        out.push(format!(
            "a grafts file ({}) rewrites which commits are parents of which",
            grafts.display()
        ));
    }
    let replaced: Vec<String> = repo
        .references_glob("refs/replace/*")
        .context("listing refs/replace/")?
        .filter_map(|r| r.ok()?.name().map(str::to_string).ok())
        .collect();
    if !replaced.is_empty() {
        out.push(format!(
            "replace refs ({}) swap commits for others",
            replaced.join(", ")
        ));
    }
    for var in ["GIT_GRAFT_FILE", "GIT_REPLACE_REF_BASE", "GIT_SHALLOW_FILE"] {
        if crate::env::os(var).is_some() {
            out.push(format!("{var} is set, which changes the history git shows"));
        }
    }
    Ok(out)
}

/// Whether commit `ancestor` is `of` or in its history; false when either is unknown.
pub fn is_ancestor(root: &Path, ancestor: &str, of: &str) -> Result<bool> {
    let repo = open(root)?;
    let find = |id: &str| {
        super::lookup(&repo, id)
            .ok()
            .and_then(|o| o.peel_to_commit().ok())
            .map(|c| c.id())
    };
    let (Some(a), Some(b)) = (find(ancestor), find(of)) else {
        return Ok(false);
    };
    Ok(a == b
        || repo
            .graph_descendant_of(b, a)
            .with_context(|| format!("comparing the commits {a} and {b}"))?)
}

/// Whether commit `commit` is `tip` or reached from it through first parents only:
/// on the line a branch's own history follows, not on a branch merged into it (a
/// pull request merged with a merge commit is on the merge's second parent). False
/// when either is unknown. Walks `tip`'s whole first-parent line at worst.
pub fn on_first_parents(root: &Path, commit: &str, tip: &str) -> Result<bool> {
    let repo = open(root)?;
    let find = |id: &str| {
        super::lookup(&repo, id)
            .ok()
            .and_then(|o| o.peel_to_commit().ok())
    };
    let (Some(wanted), Some(mut at)) = (find(commit), find(tip)) else {
        return Ok(false);
    };
    loop {
        if at.id() == wanted.id() {
            return Ok(true);
        }
        at = match at.parent(0) {
            Ok(parent) => parent,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(false),
            Err(e) => {
                return Err(e).with_context(|| format!("reading the parent of {}", at.id()));
            }
        };
    }
}

/// The newest commit in the history of both `a` and `b` (git's merge base): where
/// a branch that `b` is on left the line `a` is on. `None` when they share none or
/// either is unknown.
pub fn fork_point(root: &Path, a: &str, b: &str) -> Result<Option<String>> {
    let repo = open(root)?;
    let find = |id: &str| {
        super::lookup(&repo, id)
            .ok()
            .and_then(|o| o.peel_to_commit().ok())
            .map(|c| c.id())
    };
    let (Some(a), Some(b)) = (find(a), find(b)) else {
        return Ok(None);
    };
    match repo.merge_base(a, b) {
        Ok(id) => Ok(Some(id.to_string())),
        Err(e) if e.code() == ErrorCode::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("finding where {a} and {b} meet")),
    }
}

/// The full id of the commit `rev` names; an [`UnknownRevision`] when it names none.
pub fn resolve_commit(root: &Path, rev: &str) -> Result<String> {
    let repo = open(root)?;
    let unknown = |reason: String| {
        anyhow::Error::new(UnknownRevision {
            rev: rev.to_string(),
            reason,
        })
    };
    let object = super::lookup(&repo, rev).map_err(|e| unknown(e.message().to_string()))?;
    let commit = object
        .peel_to_commit()
        .map_err(|_| unknown("it names no commit".to_string()))?;
    Ok(commit.id().to_string())
}

/// Every text file in the tree of commit `rev` whose name ends with one of
/// `suffixes` (in any case: `side.MD`) and whose text
/// `keep` says yes to, with that text, as paths from the root. A link is read as
/// what it leads to in the same tree, through links to directories too (`--file`
/// follows it), so a plan kept behind a link is found under the link's name; at
/// HEAD, one the tree cannot resolve (an absolute target) is read from the working
/// tree. Every such file is read, whatever its bytes (lossily, as `--file` reads a
/// NUL), up to [`MAX_TEXT`], the most `--file` reads.
pub fn files_where(
    root: &Path,
    rev: &str,
    suffixes: &[&str],
    keep: impl Fn(&str) -> bool,
) -> Result<Vec<(PathBuf, String)>> {
    let repo = open(root)?;
    let tree = super::lookup(&repo, rev)
        .and_then(|o| o.peel_to_tree())
        .with_context(|| format!("reading the tree of {rev}"))?;
    let mut found = Vec::new();
    tree.walk(TreeWalkMode::PreOrder, |dir, entry| {
        let name = entry.name_bytes().to_ascii_lowercase();
        if entry.kind() == Some(ObjectType::Blob)
            && suffixes.iter().any(|s| name.ends_with(s.as_bytes()))
        {
            let name = String::from_utf8_lossy(entry.name_bytes()).into_owned();
            found.push((format!("{dir}{name}"), entry.id(), entry.filemode()));
        }
        TreeWalkResult::Ok
    })
    .with_context(|| format!("listing the tree of {rev}"))?;
    let mut out = Vec::new();
    for (path, blob, mode) in found {
        let text = match mode {
            LINK => match through_link(&repo, &tree, &path)? {
                Some(text) => Some(text),
                None if rev == "HEAD" => std::fs::read(root.join(&path))
                    .ok()
                    .filter(|b| b.len() as u64 <= MAX_TEXT)
                    .map(|b| String::from_utf8_lossy(&b).into_owned()),
                None => None,
            },
            _ => text_blob(&repo, blob)?,
        };
        if let Some(text) = text
            && keep(&text)
        {
            out.push((PathBuf::from(path), text));
        }
    }
    Ok(out)
}

/// The largest file [`files_where`] reads as text: the largest plan file.
pub const MAX_TEXT: u64 = crate::fsread::PLAN;

/// A blob's text, or `None` for one too large to be a plan file.
fn text_blob(repo: &Repository, id: Oid) -> Result<Option<String>> {
    let blob = repo
        .find_blob(id)
        .with_context(|| format!("reading the blob {id}"))?;
    let bytes = blob.content();
    if bytes.len() as u64 > MAX_TEXT {
        return Ok(None);
    }
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

/// A symbolic link's mode in a tree.
const LINK: i32 = 0o120000;

/// The text of the file the link at `path` leads to inside `tree`, each part of the
/// way resolved (a link to a directory on it too), through at most a few links;
/// `None` when it leads out of the tree, nowhere, or to a directory.
fn through_link(repo: &Repository, tree: &git2::Tree<'_>, path: &str) -> Result<Option<String>> {
    let mut rest: Vec<String> = path.split('/').rev().map(str::to_string).collect();
    let mut done: Vec<String> = Vec::new();
    let mut hops = 0;
    while let Some(part) = rest.pop() {
        match part.as_str() {
            "" | "." => continue,
            ".." => {
                if done.pop().is_none() {
                    return Ok(None);
                }
                continue;
            }
            _ => done.push(part),
        }
        let Ok(entry) = tree.get_path(Path::new(&done.join("/"))) else {
            return Ok(None);
        };
        if entry.filemode() == LINK {
            hops += 1;
            let Some(target) = text_blob(repo, entry.id())? else {
                return Ok(None);
            };
            if hops > 16 || target.starts_with('/') {
                return Ok(None);
            }
            done.pop();
            rest.extend(target.split('/').rev().map(str::to_string));
            continue;
        }
        if rest.is_empty() {
            return match entry.kind() {
                Some(ObjectType::Blob) => text_blob(repo, entry.id()),
                _ => Ok(None),
            };
        }
    }
    Ok(None)
}

/// A `git revert` in HEAD's history, with the plan file as it was on each side of
/// the reverted commit and of the revert.
#[derive(Clone, Debug)]
pub struct Revert {
    /// The revert commit, abbreviated.
    pub commit: String,
    /// The commit it reverts, abbreviated.
    pub reverted: String,
    /// The plan file before and after the reverted commit.
    pub reverted_change: (Option<String>, Option<String>),
    /// The plan file before and after the revert.
    pub revert_change: (Option<String>, Option<String>),
    /// Whether the revert's change is the exact inverse of the reverted commit's,
    /// line for line in every file: what `git revert` writes, and what a commit
    /// that only says it is a revert is not.
    pub exact: bool,
}

/// Every commit HEAD reaches whose message says `This reverts commit <id>.` (what
/// `git revert` and the Revert button write) of a commit this repository has, with
/// `rel` on both sides of each, and whether it is that commit's exact inverse
/// (against the parent a `-m N` revert names). What the two changes have in common
/// is for the caller to decide: a message is text anyone can type.
pub fn reverts(root: &Path, rel: &Path) -> Result<Vec<Revert>> {
    let repo = open(root)?;
    let mut out = Vec::new();
    let Some(tip) = head(&repo)?.commit else {
        return Ok(out);
    };
    let mut walk = repo.revwalk().context("walking the history")?;
    walk.push(tip).context("walking the history")?;
    for id in walk {
        let id = id.context("walking the history")?;
        let commit = repo
            .find_commit(id)
            .with_context(|| format!("reading the commit {id}"))?;
        let message = String::from_utf8_lossy(commit.message_bytes()).into_owned();
        let Some(target) = reverted_id(&message) else {
            continue;
        };
        let Ok(reverted) = repo.find_commit(target) else {
            continue;
        };
        let mainline = mainline(&reverted, &message);
        let exact = inverse(
            &line_changes(&repo, &commit, commit.parent(0).ok().as_ref())?,
            &line_changes(&repo, &reverted, mainline.as_ref())?,
        );
        out.push(Revert {
            commit: short(&commit)?,
            reverted: short(&reverted)?,
            reverted_change: change_from(&repo, &reverted, mainline.as_ref(), rel)?,
            revert_change: change(&repo, &commit, rel)?,
            exact,
        });
    }
    Ok(out)
}

/// The id in a revert message's `This reverts commit <40 hex>` line.
fn reverted_id(message: &str) -> Option<Oid> {
    message.lines().find_map(|line| {
        let rest = line.trim().strip_prefix("This reverts commit ")?;
        let hex = rest.get(..40)?;
        Oid::from_str(hex).ok()
    })
}

/// The parent a revert of `reverted` measured it against: the one its message
/// names (`git revert -m N` of a merge writes `reversing changes made to <id>`),
/// else the first.
fn mainline<'r>(reverted: &git2::Commit<'r>, message: &str) -> Option<git2::Commit<'r>> {
    let named = message
        .split("changes made to ")
        .nth(1)
        .and_then(|rest| rest.get(..40))
        .and_then(|hex| Oid::from_str(hex).ok());
    reverted
        .parents()
        .find(|p| Some(p.id()) == named)
        .or_else(|| reverted.parent(0).ok())
}

/// Each file a commit changes from `parent`, with the lines it removed and the
/// lines it added, in order (no context). A binary file's blob ids stand in for
/// its lines.
type LineChanges = std::collections::BTreeMap<Vec<u8>, (Vec<Vec<u8>>, Vec<Vec<u8>>)>;

fn line_changes(
    repo: &Repository,
    commit: &git2::Commit<'_>,
    parent: Option<&git2::Commit<'_>>,
) -> Result<LineChanges> {
    let what = || format!("diffing the commit {}", commit.id());
    let old = parent.map(|p| p.tree()).transpose().with_context(what)?;
    let new = commit.tree().with_context(what)?;
    let mut options = git2::DiffOptions::new();
    options.context_lines(0);
    let diff = repo
        .diff_tree_to_tree(old.as_ref(), Some(&new), Some(&mut options))
        .with_context(what)?;
    let path = |delta: &git2::DiffDelta<'_>| {
        delta
            .new_file()
            .path_bytes()
            .or_else(|| delta.old_file().path_bytes())
            .unwrap_or_default()
            .to_vec()
    };
    let mut out = LineChanges::new();
    for delta in diff.deltas() {
        let entry = out.entry(path(&delta)).or_default();
        if delta.flags().is_binary() {
            entry.0.push(delta.old_file().id().as_bytes().to_vec());
            entry.1.push(delta.new_file().id().as_bytes().to_vec());
        }
    }
    diff.print(git2::DiffFormat::Patch, |delta, _, line| {
        let entry = out.entry(path(&delta)).or_default();
        match line.origin() {
            '-' => entry.0.push(line.content().to_vec()),
            '+' => entry.1.push(line.content().to_vec()),
            _ => {}
        }
        true
    })
    .with_context(what)?;
    Ok(out)
}

/// Whether `revert` takes back exactly what `reverted` did: the same files, each
/// with the lines `reverted` added removed and the lines it removed added.
fn inverse(revert: &LineChanges, reverted: &LineChanges) -> bool {
    !reverted.is_empty()
        && revert.len() == reverted.len()
        && reverted.iter().all(|(path, (removed, added))| {
            revert
                .get(path)
                .is_some_and(|(r_removed, r_added)| r_removed == added && r_added == removed)
        })
}

fn short(commit: &git2::Commit<'_>) -> Result<String> {
    let short = commit
        .as_object()
        .short_id()
        .with_context(|| format!("abbreviating {}", commit.id()))?;
    Ok(String::from_utf8_lossy(&short).into_owned())
}

/// `rel` in the first parent of `commit` and in `commit`.
fn change(
    repo: &Repository,
    commit: &git2::Commit<'_>,
    rel: &Path,
) -> Result<(Option<String>, Option<String>)> {
    match commit.parent(0) {
        Ok(parent) => change_from(repo, commit, Some(&parent), rel),
        Err(e) if e.code() == ErrorCode::NotFound => change_from(repo, commit, None, rel),
        Err(e) => Err(e).with_context(|| format!("reading the parent of {}", commit.id())),
    }
}

/// `rel` in `parent` (none: a root commit) and in `commit`.
fn change_from(
    repo: &Repository,
    commit: &git2::Commit<'_>,
    parent: Option<&git2::Commit<'_>>,
    rel: &Path,
) -> Result<(Option<String>, Option<String>)> {
    let text_in = |c: &git2::Commit<'_>| -> Result<Option<String>> {
        let tree = c
            .tree()
            .with_context(|| format!("reading the tree of {}", c.id()))?;
        blob_at(&tree, rel)?
            .map(|blob| blob_text(repo, blob))
            .transpose()
    };
    let before = parent.map(text_in).transpose()?.flatten();
    Ok((before, text_in(commit)?))
}

/// Writes the tree of the commit `id` (full hex) into `dest` (an empty directory),
/// leaving the index and the working tree alone: what a fresh clone would check
/// out, and nothing else. The gate pins HEAD's id before the pull request's verify
/// runs, which could move the checkout's HEAD.
pub fn export_commit(root: &Path, id: &str, dest: &Path) -> Result<()> {
    let (repo, _dir) = headless(root)?;
    let tip = git2::Oid::from_str(id).with_context(|| format!("reading the commit id {id}"))?;
    export(&repo, tip, dest)
}

/// Writes the files `paths` (repository-relative) as the commit `id` has them over
/// `dest`, a checkout of another commit, modes kept; a path the commit lacks is
/// left as `dest` has it. The gate's red-first run at a start commit with the
/// scripts and plan files of the commit it judges.
pub fn export_paths(root: &Path, id: &str, dest: &Path, paths: &[String]) -> Result<()> {
    let (repo, _dir) = headless(root)?;
    let tip = git2::Oid::from_str(id).with_context(|| format!("reading the commit id {id}"))?;
    let commit = repo
        .find_commit(tip)
        .with_context(|| format!("reading the commit {tip}"))?;
    let tree = commit
        .tree()
        .with_context(|| format!("reading the tree of {tip}"))?;
    // libgit2 compares the commit with HEAD, not with what `dest` holds: where the
    // commit is HEAD (the one the gate judges, always) it writes only the paths
    // missing from `dest`, and the start's own copy stayed. So each path the
    // commit has is cleared first, and then missing.
    let mut laid = Vec::new();
    for path in paths {
        if tree.get_path(Path::new(path)).is_ok() {
            clear_way(dest, Path::new(path))?;
            laid.push(path);
        }
    }
    if laid.is_empty() {
        // An empty path list would check out everything.
        return Ok(());
    }
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout
        .target_dir(dest)
        .force()
        .recreate_missing(true)
        .update_index(false)
        .disable_pathspec_match(true);
    for path in laid {
        checkout.path(path);
    }
    repo.checkout_tree(commit.as_object(), Some(&mut checkout))
        .with_context(|| format!("checking files of {tip} out into {}", dest.display()))
}

/// The objects of the repository at `root` as a repository of no HEAD, index or
/// working tree, to check commits out of: libgit2 measures a checkout against
/// HEAD, and a folder HEAD turned into a file (or a file into a folder) failed
/// the checkout of a start that had it the other way ("null OID cannot exist").
/// Against no HEAD every file of the commit is simply written. A bare
/// repository made for the purpose in a scratch folder of plan's (kept while the
/// repository is, and removed by a signal too), reading the objects of `root`'s;
/// its settings are git's own.
fn headless(root: &Path) -> Result<(Repository, crate::exec::Scratch)> {
    let real = open(root)?;
    let odb = real.odb().context("reading the object database")?;
    let dir =
        crate::exec::Scratch::new("plan-export-").context("making a folder to check out from")?;
    let repo =
        Repository::init_bare(dir.path()).context("making a repository to check out from")?;
    repo.set_odb(&odb)
        .context("reading the objects to check out")?;
    Ok((repo, dir))
}

/// Makes room in `dest` for the file `rel`: what is there removed (a link itself,
/// never what it leads to), and each folder on the way a real folder: a link or a
/// file the other commit has there is removed, so the file written lands inside
/// `dest`.
fn clear_way(dest: &Path, rel: &Path) -> Result<()> {
    let parts: Vec<_> = rel.components().collect();
    let mut at = dest.to_path_buf();
    for (n, part) in parts.iter().enumerate() {
        at.push(part);
        let meta = match std::fs::symlink_metadata(&at) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(e).with_context(|| format!("reading {}", at.display())),
        };
        let last = n + 1 == parts.len();
        if meta.is_dir() && !last {
            continue;
        }
        let removed = match meta.is_dir() {
            true => crate::atomic::remove_tree(&at),
            false => crate::atomic::remove(&at),
        };
        return removed.with_context(|| format!("removing {}", at.display()));
    }
    Ok(())
}

fn export(repo: &git2::Repository, tip: git2::Oid, dest: &Path) -> Result<()> {
    let commit = repo
        .find_commit(tip)
        .with_context(|| format!("reading the commit {tip}"))?;
    let mut checkout = git2::build::CheckoutBuilder::new();
    checkout
        .target_dir(dest)
        .force()
        .recreate_missing(true)
        .update_index(false);
    repo.checkout_tree(commit.as_object(), Some(&mut checkout))
        .with_context(|| format!("checking out {tip} into {}", dest.display()))
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn git(root: &Path, args: &[&str]) -> String {
        crate::git::git_for_tests(root, root, args)
    }

    // A start checked out where HEAD (the commit judged) turned its folder into a
    // file, or its file into a folder: libgit2 measured the checkout against HEAD
    // and failed ("null OID cannot exist").
    #[test]
    fn a_start_is_checked_out_whatever_head_made_of_its_folders() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        fs::create_dir_all(root.join("data")).unwrap();
        git(&root, &["init", "-q", "-b", "main"]);
        fs::write(root.join("data/a.txt"), "a folder\n").unwrap();
        fs::write(root.join("docs"), "a file\n").unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "start"]);
        let start = git(&root, &["rev-parse", "HEAD"]).trim().to_string();
        git(&root, &["rm", "-q", "data/a.txt", "docs"]);
        fs::write(root.join("data"), "a file\n").unwrap();
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::write(root.join("docs/b.md"), "b\n").unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "head"]);
        let head = git(&root, &["rev-parse", "HEAD"]).trim().to_string();

        let dest = dir.path().join("tree");
        fs::create_dir_all(&dest).unwrap();
        export_commit(&root, &start, &dest).unwrap();
        let read = |rel: &str| fs::read_to_string(dest.join(rel)).unwrap();
        assert_eq!(read("data/a.txt"), "a folder\n");
        assert_eq!(read("docs"), "a file\n");
        export_paths(&root, &head, &dest, &["docs/b.md".to_string()]).unwrap();
        assert_eq!(read("docs/b.md"), "b\n");
        assert_eq!(read("data/a.txt"), "a folder\n");
    }

    // The gate lays the judged commit's files over a start's checkout; the judged
    // commit is HEAD, and libgit2 then wrote only the files the start lacked: a
    // plan file the start had kept the start's text (no `started` line), so a
    // verify reading it was red at every start.
    #[test]
    fn files_laid_over_another_commits_checkout_replace_its_own() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let outside = dir.path().join("outside");
        fs::create_dir_all(root.join("docs")).unwrap();
        fs::create_dir_all(&outside).unwrap();
        git(&root, &["init", "-q", "-b", "main"]);
        fs::write(root.join("check.sh"), "old\n").unwrap();
        fs::write(root.join("docs/plan.md"), "start\n").unwrap();
        fs::write(root.join("kept.txt"), "start\n").unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "start"]);
        let start = git(&root, &["rev-parse", "HEAD"]).trim().to_string();
        fs::write(root.join("check.sh"), "new\n").unwrap();
        fs::set_permissions(root.join("check.sh"), fs::Permissions::from_mode(0o755)).unwrap();
        fs::write(root.join("docs/plan.md"), "start\nstarted\n").unwrap();
        fs::write(root.join("new.sh"), "added\n").unwrap();
        fs::write(root.join("kept.txt"), "head\n").unwrap();
        git(&root, &["add", "-A"]);
        git(&root, &["commit", "-q", "-m", "head"]);
        let head = git(&root, &["rev-parse", "HEAD"]).trim().to_string();

        let dest = dir.path().join("tree");
        fs::create_dir_all(&dest).unwrap();
        export_commit(&root, &start, &dest).unwrap();
        // The start's folder a link out of the copy: what is laid stays inside.
        fs::remove_dir_all(dest.join("docs")).unwrap();
        std::os::unix::fs::symlink(&outside, dest.join("docs")).unwrap();
        let laid = ["check.sh", "docs/plan.md", "new.sh", "gone.sh"].map(String::from);
        export_paths(&root, &head, &dest, &laid).unwrap();

        let read = |rel: &str| fs::read_to_string(dest.join(rel)).unwrap();
        assert_eq!(read("check.sh"), "new\n");
        assert_eq!(read("docs/plan.md"), "start\nstarted\n");
        assert_eq!(read("new.sh"), "added\n");
        assert_eq!(
            read("kept.txt"),
            "start\n",
            "a file not laid is the start's"
        );
        assert!(!dest.join("gone.sh").exists());
        let mode = fs::metadata(dest.join("check.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o111, 0o111, "{mode:o}");
        assert!(
            !fs::symlink_metadata(dest.join("docs"))
                .unwrap()
                .is_symlink()
        );
        assert_eq!(fs::read_dir(&outside).unwrap().count(), 0);
    }
}

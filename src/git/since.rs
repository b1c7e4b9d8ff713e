//! The files that changed from a commit (a goal's start) to the working tree, with
//! their text then and now: what the weakened-tests check reads. Part of `git.rs`'s
//! world; reads only.

use std::fs;
use std::path::Path;

use anyhow::Result;
use git2::Delta;

use super::{disk_path, open, start_commit};
use crate::plan::weakened::MAX_TEXT;

/// A file whose text differs between the commit and the working tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Changed {
    pub path: String,
    /// Its path in the commit, when git found it renamed.
    pub was: Option<String>,
    /// Its text in the commit; `None` when it was not there.
    pub before: Option<String>,
    /// Its text now; `None` when it is gone (or no longer a regular file).
    pub after: Option<String>,
}

/// Every file that differs from commit `base` to the working tree (tracked and
/// untracked, never ignored ones), renames found, and read only when `wanted` says
/// so of its old or new path. `None` compares with HEAD. A `base` that names no
/// commit here is an error: the check fails closed.
pub fn changed_since(
    root: &Path,
    base: Option<&str>,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Vec<Changed>> {
    Deltas::since(root, base)?.read(root, wanted, &|_| true)
}

/// What became of the files that were in a commit, none read ([`Deltas::altered`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Altered {
    /// Those that differ in the working tree, by their path now.
    pub changed: Vec<String>,
    /// Those no longer at their path: deleted, moved (git found the rename), or
    /// no longer a regular file there.
    pub gone: Vec<String>,
}

/// One diff from a commit to the working tree, its entries' paths and old blobs
/// but no text read: diffed once, then asked what was altered (to weigh what the
/// verify rests on) and read for the files wanted (the check's own reading).
#[derive(Clone, Debug)]
pub struct Deltas {
    /// The commit it is from, as given (`None`: HEAD).
    pub base: Option<String>,
    entries: Vec<Entry>,
}

#[derive(Clone, Debug)]
struct Entry {
    status: Delta,
    old: String,
    new: String,
    old_id: git2::Oid,
}

impl Deltas {
    /// The diff from commit `base` (`None`: HEAD) to the working tree, untracked
    /// files in and renames found. A `base` that names no commit here is an
    /// error: the check fails closed.
    pub fn since(root: &Path, base: Option<&str>) -> Result<Deltas> {
        let repo = open(root)?;
        let diff = diff_since(&repo, root, base)?;
        let path_of = |file: git2::DiffFile<'_>| {
            file.path_bytes()
                .map(|p| String::from_utf8_lossy(p).into_owned())
        };
        let entries = diff
            .deltas()
            .filter_map(|delta| {
                Some(Entry {
                    status: delta.status(),
                    old: path_of(delta.old_file())?,
                    new: path_of(delta.new_file())?,
                    old_id: delta.old_file().id(),
                })
            })
            .collect();
        Ok(Deltas {
            base: base.map(str::to_string),
            entries,
        })
    }

    /// The files that were in the commit and differ now or are gone from their
    /// path, none read.
    pub fn altered(&self) -> Altered {
        let mut out = Altered::default();
        for entry in &self.entries {
            match entry.status {
                Delta::Added | Delta::Untracked => {}
                // A file become a symlink or another kind is no longer the
                // file it was (a check linked to /dev/null; helper 63's).
                Delta::Deleted | Delta::Typechange => out.gone.push(entry.old.clone()),
                _ => {
                    if entry.old != entry.new {
                        out.gone.push(entry.old.clone());
                    }
                    out.changed.push(entry.new.clone());
                }
            }
        }
        out
    }

    /// The entries `wanted` says so of by their old or new path, with their text
    /// then and now ([`changed_since`]), where a path `read` refuses (a compiled
    /// file, matched by its name alone) is listed as new with no text either
    /// side, and left out when deleted.
    pub fn read(
        &self,
        root: &Path,
        wanted: &dyn Fn(&str) -> bool,
        read: &dyn Fn(&str) -> bool,
    ) -> Result<Vec<Changed>> {
        let repo = open(root)?;
        let mut out = Vec::new();
        for entry in &self.entries {
            let (old, new) = (&entry.old, &entry.new);
            if !wanted(old) && !wanted(new) {
                continue;
            }
            if !read(new) {
                if entry.status != Delta::Deleted {
                    out.push(Changed {
                        path: new.clone(),
                        was: None,
                        before: None,
                        after: Some(String::new()),
                    });
                }
                continue;
            }
            let existed = !matches!(entry.status, Delta::Added | Delta::Untracked);
            let before = if existed && !entry.old_id.is_zero() {
                Some(bounded_blob(&repo, entry.old_id)?)
            } else {
                None
            };
            let after = match entry.status {
                Delta::Deleted => None,
                _ => regular_text(&disk_path(root, new.as_bytes())),
            };
            out.push(Changed {
                was: (old != new).then(|| old.clone()),
                path: new.clone(),
                before,
                after,
            });
        }
        Ok(out)
    }
}

/// The diff from commit `base` (`None`: HEAD) to the working tree, untracked
/// files in and renames found.
fn diff_since<'r>(
    repo: &'r git2::Repository,
    root: &Path,
    base: Option<&str>,
) -> Result<git2::Diff<'r>> {
    super::diff_to_workdir(
        repo,
        base,
        false,
        &format!(
            "diffing the working tree of {} since the goal's start",
            root.display()
        ),
        "finding renames since the goal's start",
    )
}

/// Of the working tree's files in `dirs` (repository-relative, `""` the top), and
/// in their subdirectories `enter` names (two levels: `calc/__pycache__`), the ones `wanted` picks by
/// their path that git ignores: no diff shows them, yet whatever runs in the tree
/// finds them. A directory that is not there is skipped; one that cannot be read,
/// or more than [`PICKED`] picked files, is an error: the check fails closed.
pub fn ignored_in(
    root: &Path,
    dirs: &[String],
    enter: &dyn Fn(&str) -> bool,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>> {
    use anyhow::Context;
    let repo = open(root)?;
    let mut picked = Vec::new();
    let mut queue: Vec<(String, u8)> = dirs.iter().map(|d| (d.clone(), 0)).collect();
    while let Some((dir, depth)) = queue.pop() {
        let at = disk_path(root, dir.as_bytes());
        let entries = match fs::read_dir(&at) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(e).with_context(|| format!("reading {}", at.display())),
        };
        for entry in entries {
            let entry = entry.with_context(|| format!("reading {}", at.display()))?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let path = match dir.as_str() {
                "" => name.to_string(),
                dir => format!("{dir}/{name}"),
            };
            let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
            if is_dir && depth < 2 && enter(&name) {
                queue.push((path, depth + 1));
            } else if !is_dir && wanted(&path) {
                picked.push(path);
                anyhow::ensure!(
                    picked.len() <= PICKED,
                    "more than {PICKED} compiled modules in {} and the directories read before it; the check stops here",
                    at.display()
                );
            }
        }
    }
    let mut out = Vec::new();
    for path in picked {
        // A status git cannot give counts as ignored: the file is looked at.
        let ignored = repo
            .status_file(Path::new(&path))
            .map_or(true, |s| s.contains(git2::Status::IGNORED));
        if ignored {
            out.push(path);
        }
    }
    Ok(out)
}

/// The most files [`ignored_in`] picks before it gives up.
pub const PICKED: usize = 1_000;

/// Files with their text, by path.
pub type Texts = Vec<(String, String)>;

/// The text of the files `wanted` picks in commit `base` (`None`: HEAD; nothing on
/// an unborn branch), each read to [`MAX_TEXT`], in all at most `budget` bytes: the
/// tests as the goal started with them, whatever the work tree holds now. With
/// them, the first file the budget left unread, when one was: a cap the check
/// says.
pub fn texts_at(
    root: &Path,
    base: Option<&str>,
    wanted: &dyn Fn(&str) -> bool,
    budget: usize,
) -> Result<(Texts, Option<String>)> {
    let repo = open(root)?;
    let mut out = Vec::new();
    let mut left = budget;
    for (path, id) in blobs_at(&repo, base, wanted)? {
        if left == 0 {
            return Ok((out, Some(path)));
        }
        let text = bounded_blob(&repo, id)?;
        left = left.saturating_sub(text.len());
        out.push((path, text));
    }
    Ok((out, None))
}

/// The paths of the files `wanted` picks in commit `base`'s tree (`None`: HEAD's),
/// none read.
pub fn paths_at(
    root: &Path,
    base: Option<&str>,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Vec<String>> {
    let repo = open(root)?;
    Ok(blobs_at(&repo, base, wanted)?
        .into_iter()
        .map(|(path, _)| path)
        .collect())
}

fn blobs_at(
    repo: &git2::Repository,
    base: Option<&str>,
    wanted: &dyn Fn(&str) -> bool,
) -> Result<Vec<(String, git2::Oid)>> {
    use anyhow::Context;
    let commit = match base {
        Some(rev) => start_commit(repo, rev)?,
        None => match repo.head().and_then(|h| h.peel_to_commit()) {
            Ok(commit) => commit,
            Err(_) => return Ok(Vec::new()),
        },
    };
    let tree = commit.tree().context("reading the start commit's tree")?;
    let mut picked = Vec::new();
    tree.walk(git2::TreeWalkMode::PreOrder, |dir, entry| {
        if entry.kind() == Some(git2::ObjectType::Blob) {
            let path = format!("{dir}{}", entry.name().unwrap_or(""));
            if wanted(&path) {
                picked.push((path, entry.id()));
            }
        }
        git2::TreeWalkResult::Ok
    })
    .context("walking the start commit's tree")?;
    Ok(picked)
}

/// A regular file's text, invalid UTF-8 replaced; `None` for anything else. At
/// most [`MAX_TEXT`] bytes and one more are read: the check reads no further, an
/// agent's working tree can hold a file of any size, and the byte past the cap
/// tells the check the file was cut (which it says).
fn regular_text(path: &Path) -> Option<String> {
    use std::io::Read;
    let regular = fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_file());
    if !regular {
        return None;
    }
    let mut bytes = Vec::new();
    fs::File::open(path)
        .ok()?
        .take(MAX_TEXT as u64 + 1)
        .read_to_end(&mut bytes)
        .ok()?;
    Some(String::from_utf8_lossy(&bytes).into_owned())
}

/// A blob's text, as [`regular_text`] reads a file: at most [`MAX_TEXT`] bytes
/// and one more.
fn bounded_blob(repo: &git2::Repository, id: git2::Oid) -> Result<String> {
    use anyhow::Context;
    let blob = repo
        .find_blob(id)
        .with_context(|| format!("reading the blob {id}"))?;
    let content = blob.content();
    Ok(String::from_utf8_lossy(&content[..content.len().min(MAX_TEXT + 1)]).into_owned())
}

#[cfg(test)]
mod tests {

    use super::*;

    fn git(root: &Path, args: &[&str]) -> String {
        crate::git::git_for_tests(root, root, args)
    }

    #[test]
    fn committed_and_uncommitted_changes_since_a_commit() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        git(root, &["init", "-q", "-b", "main"]);
        let long = "assert x\n".repeat(40);
        fs::create_dir_all(root.join("tests")).unwrap();
        fs::write(root.join("tests/test_a.py"), "assert a\n").unwrap();
        fs::write(root.join("tests/test_gone.py"), "assert g\n").unwrap();
        fs::write(root.join("tests/test_moved.py"), &long).unwrap();
        fs::write(root.join("notes.txt"), "one\n").unwrap();
        git(root, &["add", "-A"]);
        git(root, &["commit", "-q", "-m", "start"]);
        let start = git(root, &["rev-parse", "HEAD"]).trim().to_string();

        fs::write(root.join("tests/test_a.py"), "pass\n").unwrap();
        git(root, &["commit", "-q", "-am", "committed since"]);
        fs::remove_file(root.join("tests/test_gone.py")).unwrap();
        git(root, &["mv", "tests/test_moved.py", "attic.py"]);
        fs::write(root.join("tests/test_new.py"), "assert n\n").unwrap();
        fs::write(root.join("notes.txt"), "two\n").unwrap();

        let wanted = |p: &str| p.ends_with(".py");
        let mut found = changed_since(root, Some(&start), &wanted).unwrap();
        found.sort_by(|a, b| a.path.cmp(&b.path));
        let text = |s: &str| Some(s.to_string());
        assert_eq!(
            found,
            [
                Changed {
                    path: "attic.py".into(),
                    was: Some("tests/test_moved.py".into()),
                    before: text(&long),
                    after: text(&long),
                },
                Changed {
                    path: "tests/test_a.py".into(),
                    was: None,
                    before: text("assert a\n"),
                    after: text("pass\n"),
                },
                Changed {
                    path: "tests/test_gone.py".into(),
                    was: None,
                    before: text("assert g\n"),
                    after: None,
                },
                Changed {
                    path: "tests/test_new.py".into(),
                    was: None,
                    before: None,
                    after: text("assert n\n"),
                },
            ]
        );
        // From HEAD, the committed change is not seen.
        let head = changed_since(root, None, &wanted).unwrap();
        assert!(head.iter().all(|c| c.path != "tests/test_a.py"), "{head:?}");
        let err = changed_since(root, Some("0123456789ab"), &wanted).unwrap_err();
        assert!(
            format!("{err:#}").contains("where the goal was started"),
            "{err:#}"
        );
    }
}

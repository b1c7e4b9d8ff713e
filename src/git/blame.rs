//! Whose lines a change touches, for the gate: the commits of a base's history
//! that last wrote the lines the working tree changes or removes in a file (git's
//! blame), the base's own first-parent line, where on it a commit landed, and the
//! plan file's version at each commit of that line.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use git2::{BlameOptions, ErrorCode, Oid};

use super::{blob_at, blob_text, open};

/// The most bytes of one file whose lines are blamed: past it the file is named
/// as not read ([`Writers::TooLarge`]), never read in part.
pub const MAX_BLAMED: u64 = 1024 * 1024;

/// The commits that last wrote the changed lines of a file, as of the base.
#[derive(Debug, PartialEq, Eq)]
pub enum Writers {
    /// Each distinct commit, in the order of the lines.
    Commits(Vec<String>),
    /// The file (at the base or in the working tree) is over [`MAX_BLAMED`].
    TooLarge,
}

/// The commits of `base`'s history that last wrote the lines of `rel` the working
/// tree changes or removes. A line inserted between two is charged to the line
/// above it (the first line at the top): code added into a function changes what
/// the lines around it do. Empty when `rel` is new since `base`.
pub fn writers_of_changed_lines(root: &Path, base: &str, rel: &str) -> Result<Writers> {
    let repo = open(root)?;
    let commit = super::lookup(&repo, base)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {base}"))?;
    let tree = commit
        .tree()
        .with_context(|| format!("reading the tree of {base}"))?;
    let Some(blob) = blob_at(&tree, Path::new(rel))? else {
        return Ok(Writers::Commits(Vec::new()));
    };
    let size = repo
        .find_blob(blob)
        .with_context(|| format!("reading the blob {blob}"))?
        .size() as u64;
    let on_disk = std::fs::symlink_metadata(root.join(rel)).map_or(0, |m| m.len());
    if size > MAX_BLAMED || on_disk > MAX_BLAMED {
        return Ok(Writers::TooLarge);
    }
    let old = blob_text(&repo, blob)?;
    // A link, a directory or a file gone: every line of the base's version changed.
    // Asked before reading: read through a link to a FIFO or /dev/zero, it would
    // never end (red team).
    let new = std::fs::symlink_metadata(root.join(rel))
        .is_ok_and(|m| m.is_file())
        .then(|| std::fs::read(root.join(rel)).ok())
        .flatten()
        .map(|b| String::from_utf8_lossy(&b).into_owned())
        .unwrap_or_default();
    blamed(&repo, &commit, rel, &old, &new)
}

/// The commits of `at`'s history that last wrote the lines of `rel` (`old` there)
/// that going to `new` changes or removes, each once, in the order of the lines.
fn blamed(
    repo: &git2::Repository,
    at: &git2::Commit<'_>,
    rel: &str,
    old: &str,
    new: &str,
) -> Result<Writers> {
    let lines = changed_old_lines(old, new);
    let (Some(&first), Some(&last)) = (lines.first(), lines.last()) else {
        return Ok(Writers::Commits(Vec::new()));
    };
    let mut options = BlameOptions::new();
    options
        .newest_commit(at.id())
        .min_line(first)
        .max_line(last);
    let blame = repo
        .blame_file(Path::new(rel), Some(&mut options))
        .with_context(|| format!("reading who wrote the lines of {rel} at {}", at.id()))?;
    let mut out: Vec<String> = Vec::new();
    for line in lines {
        if let Some(hunk) = blame.get_line(line) {
            let id = hunk.final_commit_id().to_string();
            if !out.contains(&id) {
                out.push(id);
            }
        }
    }
    Ok(Writers::Commits(out))
}

/// The commit of `at`'s first-parent line that last wrote each line of `rel`
/// there that going from `old` (its text at `at`) to `new` (`None`: deleted) the
/// change takes out or rewrites, by line from 1: a line a merged branch wrote is
/// the merge's, what landed. History is read back to `oldest` at most, and a line
/// older than it is not listed: blame's cost grows with the history it walks.
/// Empty past [`MAX_BLAMED`] bytes, when `at` has no such file, or when nothing
/// was taken out.
pub fn writers_of_removed_lines(
    root: &Path,
    at: &str,
    oldest: Option<&str>,
    (rel, old, new): (&str, &str, Option<&str>),
) -> Result<HashMap<usize, String>> {
    let lines = removed_old_lines(old, new.unwrap_or_default());
    let (Some(&first), Some(&last)) = (lines.first(), lines.last()) else {
        return Ok(HashMap::new());
    };
    if old.len() as u64 > MAX_BLAMED {
        return Ok(HashMap::new());
    }
    let repo = open(root)?;
    let commit = super::lookup(&repo, at)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {at}"))?;
    let tree = commit
        .tree()
        .with_context(|| format!("reading the tree of {at}"))?;
    if blob_at(&tree, Path::new(rel))?.is_none() {
        return Ok(HashMap::new());
    }
    let mut options = BlameOptions::new();
    options
        .newest_commit(commit.id())
        .first_parent(true)
        .min_line(first)
        .max_line(last);
    if let Some(oldest) = oldest {
        options.oldest_commit(
            Oid::from_str(oldest).with_context(|| format!("reading the id {oldest}"))?,
        );
    }
    let blame = repo
        .blame_file(Path::new(rel), Some(&mut options))
        .with_context(|| format!("reading who wrote the lines of {rel} at {at}"))?;
    Ok(lines
        .into_iter()
        .filter_map(|line| {
            let hunk = blame.get_line(line).filter(|h| !h.is_boundary())?;
            Some((line, hunk.final_commit_id().to_string()))
        })
        .collect())
}

/// Whether the history blame reads at `root` is the repository's own: not
/// shallow (its boundary would read as every old line's writer), and no
/// grafts (`info/grafts`, which libgit2 follows, a cycle of them forever) or
/// replacements (`refs/replace/`) giving a commit parents it was not made with.
pub fn history_trusted(root: &Path) -> Result<bool> {
    let repo = open(root)?;
    let common = repo.commondir();
    if repo.is_shallow() || common.join("shallow").exists() || common.join("info/grafts").exists() {
        return Ok(false);
    }
    let mut replaced = repo
        .references_glob("refs/replace/*")
        .context("reading the repository's replaced commits")?;
    Ok(replaced.next().is_none())
}

/// The lines `commit` added against its first parent (against nothing, for a
/// first commit) to the files whose path `keep` takes: how many, and the
/// trimmed text of each line it removed from them.
pub fn lines_changed(
    root: &Path,
    commit: &str,
    keep: &dyn Fn(&str) -> bool,
) -> Result<(usize, std::collections::HashSet<String>)> {
    let repo = open(root)?;
    let at = super::lookup(&repo, commit)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {commit}"))?;
    let tree = at
        .tree()
        .with_context(|| format!("reading the tree of {commit}"))?;
    let parent = match at.parent(0) {
        Ok(parent) => Some(
            parent
                .tree()
                .with_context(|| format!("reading the tree of {}", parent.id()))?,
        ),
        Err(e) if e.code() == ErrorCode::NotFound => None,
        Err(e) => return Err(e).with_context(|| format!("reading the parent of {commit}")),
    };
    let diff = repo
        .diff_tree_to_tree(parent.as_ref(), Some(&tree), None)
        .with_context(|| format!("reading what {commit} changed"))?;
    let (mut added, mut removed) = (0, std::collections::HashSet::new());
    for (k, delta) in diff.deltas().enumerate() {
        let wanted = [delta.old_file(), delta.new_file()]
            .iter()
            .any(|f| f.path().and_then(Path::to_str).is_some_and(keep));
        if !wanted {
            continue;
        }
        let Some(patch) = git2::Patch::from_diff(&diff, k)
            .with_context(|| format!("reading what {commit} changed"))?
        else {
            continue;
        };
        for hunk in 0..patch.num_hunks() {
            let lines = patch
                .num_lines_in_hunk(hunk)
                .with_context(|| format!("reading what {commit} changed"))?;
            for n in 0..lines {
                let line = patch
                    .line_in_hunk(hunk, n)
                    .with_context(|| format!("reading what {commit} changed"))?;
                match line.origin() {
                    '+' => added += 1,
                    '-' => {
                        removed.insert(String::from_utf8_lossy(line.content()).trim().to_string());
                    }
                    _ => {}
                }
            }
        }
    }
    Ok((added, removed))
}

/// The lines of `old`, counted from 1 and in order, that going to `new` changes
/// or removes, and for each insertion the line above it (the first when at the top).
fn changed_old_lines(old: &str, new: &str) -> Vec<usize> {
    old_lines(old, new, true)
}

/// The lines of `old`, counted from 1 and in order, that going to `new` the
/// change removes or rewrites (an insertion takes out nothing).
fn removed_old_lines(old: &str, new: &str) -> Vec<usize> {
    old_lines(old, new, false)
}

/// The lines of `old` going to `new` removes or rewrites, and with `insertions`
/// the line above each insertion too, each once, in order.
fn old_lines(old: &str, new: &str, insertions: bool) -> Vec<usize> {
    let count = old.lines().count();
    let mut out: Vec<usize> = Vec::new();
    let diff = similar::TextDiff::configure()
        .algorithm(similar::Algorithm::Myers)
        .timeout(std::time::Duration::from_secs(2))
        .diff_lines(old, new);
    for op in diff.ops() {
        let range = op.old_range();
        match op.tag() {
            similar::DiffTag::Equal => {}
            similar::DiffTag::Insert => {
                if insertions && count > 0 {
                    out.push(range.start.clamp(1, count));
                }
            }
            similar::DiffTag::Delete | similar::DiffTag::Replace => {
                out.extend(range.map(|i| i + 1));
            }
        }
    }
    out.sort_unstable();
    out.dedup();
    out
}

/// `tip` and its first parents, newest first, at most `limit` of them, and
/// whether the line goes on past the last one listed.
pub fn first_parents(root: &Path, tip: &str, limit: usize) -> Result<(Vec<String>, bool)> {
    let repo = open(root)?;
    let mut at = super::lookup(&repo, tip)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {tip}"))?;
    let mut out = Vec::new();
    loop {
        if out.len() == limit {
            return Ok((out, true));
        }
        out.push(at.id().to_string());
        at = match at.parent(0) {
            Ok(parent) => parent,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok((out, false)),
            Err(e) => {
                return Err(e).with_context(|| format!("reading the parent of {}", at.id()));
            }
        };
    }
}

/// Whether any commit of `from`'s first-parent line, `from` included, has `rel`:
/// `Some(false)` when the line ends without one, `None` when `limit` commits were
/// read and none had it (not known).
pub fn on_line_before(root: &Path, from: &str, rel: &Path, limit: usize) -> Result<Option<bool>> {
    let repo = open(root)?;
    let mut at = super::lookup(&repo, from)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {from}"))?;
    for _ in 0..limit {
        let tree = at
            .tree()
            .with_context(|| format!("reading the tree of {}", at.id()))?;
        if blob_at(&tree, rel)?.is_some() {
            return Ok(Some(true));
        }
        at = match at.parent(0) {
            Ok(parent) => parent,
            Err(e) if e.code() == ErrorCode::NotFound => return Ok(Some(false)),
            Err(e) => {
                return Err(e).with_context(|| format!("reading the parent of {}", at.id()));
            }
        };
    }
    Ok(None)
}

/// Where on a first-parent line (newest first) each commit of its history landed:
/// read once for the whole line, as a pull request can charge its changes to a
/// writer for every few lines of a file, and asking git per writer whether each
/// commit of the line has it walks the history again each time (writers times
/// the line).
pub struct Landings {
    repo: git2::Repository,
    line: Vec<Oid>,
    at: HashMap<Oid, usize>,
}

impl Landings {
    /// Each commit the line's commits brought in: what `line[i]` has in its history
    /// and `line[i + 1]` has not. The oldest commit's own history is not read (it
    /// may be the start of a long history past the line's limit).
    pub fn of(root: &Path, line: &[String]) -> Result<Landings> {
        let repo = open(root)?;
        let ids = line
            .iter()
            .map(|c| Oid::from_str(c).with_context(|| format!("reading the id {c}")))
            .collect::<Result<Vec<Oid>>>()?;
        let mut at = HashMap::new();
        for (i, pair) in ids.windows(2).enumerate() {
            // A walk of its own for each window: libgit2's reset visits every commit
            // the walk has seen so far, which made the line quadratic in its length
            // (two fifths of a gate's time on a line of a few thousand commits).
            let mut walk = repo.revwalk().context("walking the base's history")?;
            walk.push(pair[0])
                .with_context(|| format!("walking the history of {}", pair[0]))?;
            walk.hide(pair[1])
                .with_context(|| format!("walking the history of {}", pair[1]))?;
            for id in &mut walk {
                let id = id.with_context(|| format!("walking the history of {}", pair[0]))?;
                at.entry(id).or_insert(i);
            }
        }
        Ok(Landings {
            repo,
            line: ids,
            at,
        })
    }

    /// Where `commit` landed: the index of the oldest commit of the line that has it
    /// in its history. `None` when the line's oldest commit has it already (it
    /// landed before the line's start, or is that commit) or the newest does not.
    ///
    /// Git's walk of a window stops by commit dates, which their committer sets: it
    /// stops a few commits after only ones dated before the last it showed are
    /// left, and with dates out of order (a merged branch's commits dated 1970) it
    /// shows a commit the parent's history has too, reached through those it never
    /// looked at. It never leaves out one the window has (what it marks as the
    /// parent's is the parent's). So the window it names is checked against the
    /// graph, which reads no dates, and the line searched on past it when wrong:
    /// read as landed later, code written while a goal was in flight was charged
    /// to a goal done after (the red team's).
    pub fn of_commit(&self, commit: &str) -> Result<Option<usize>> {
        let wanted = Oid::from_str(commit).with_context(|| format!("reading the id {commit}"))?;
        let Some(&k) = self.at.get(&wanted) else {
            return Ok(None);
        };
        // A window's index is at most the line's length less two.
        if !self.has(k + 1, wanted)? {
            return Ok(Some(k));
        }
        let last = self.line.len() - 1;
        if self.has(last, wanted)? {
            return Ok(None);
        }
        // has(lo) holds, has(hi) does not; the line's histories only shrink.
        let (mut lo, mut hi) = (k + 1, last);
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            if self.has(mid, wanted)? {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        Ok(Some(lo))
    }

    /// Whether the line's commit `i` has `wanted` in its history (or is it).
    fn has(&self, i: usize, wanted: Oid) -> Result<bool> {
        let at = self.line[i];
        Ok(at == wanted
            || self
                .repo
                .graph_descendant_of(at, wanted)
                .with_context(|| format!("comparing the commits {at} and {wanted}"))?)
    }
}

/// The blob id of `rel` at `commit`, `None` where the commit has no such file.
pub fn blob_id_at(root: &Path, commit: &str, rel: &Path) -> Result<Option<String>> {
    blob_id_in(&open(root)?, commit, rel)
}

/// The blob id of `rel` at each commit of `line`, in its order: the repository
/// opened once for the whole line, which may be ten thousand commits long.
pub fn blob_ids_on(root: &Path, line: &[String], rel: &Path) -> Result<Vec<Option<String>>> {
    let repo = open(root)?;
    line.iter().map(|c| blob_id_in(&repo, c, rel)).collect()
}

fn blob_id_in(repo: &git2::Repository, commit: &str, rel: &Path) -> Result<Option<String>> {
    let at = super::lookup(repo, commit)
        .and_then(|o| o.peel_to_commit())
        .with_context(|| format!("reading the commit {commit}"))?;
    let tree = at
        .tree()
        .with_context(|| format!("reading the tree of {commit}"))?;
    Ok(blob_at(&tree, rel)?.map(|id| id.to_string()))
}

/// Blobs of one repository, opened once: a walk along a long line reads the
/// plan file's versions by the thousand.
pub struct Blobs {
    repo: git2::Repository,
}

impl Blobs {
    pub fn open(root: &Path) -> Result<Blobs> {
        Ok(Blobs { repo: open(root)? })
    }

    /// The text of the blob `id`.
    pub fn text(&self, id: &str) -> Result<String> {
        let id = Oid::from_str(id).with_context(|| format!("reading the id {id}"))?;
        blob_text(&self.repo, id)
    }
}

/// The text of the blob `id`.
pub fn blob_text_of(root: &Path, id: &str) -> Result<String> {
    let repo = open(root)?;
    let id = Oid::from_str(id).with_context(|| format!("reading the id {id}"))?;
    blob_text(&repo, id)
}

#[cfg(test)]
mod tests {
    use super::{changed_old_lines, removed_old_lines};

    #[test]
    fn changed_lines_are_the_old_ones_and_insertions_charge_the_line_above() {
        let old = "a\nb\nc\nd\n";
        assert_eq!(changed_old_lines(old, "a\nB\nc\nd\n"), vec![2]);
        assert_eq!(changed_old_lines(old, "a\nc\nd\n"), vec![2]);
        assert_eq!(changed_old_lines(old, "a\nb\nx\nc\nd\n"), vec![2]);
        assert_eq!(changed_old_lines(old, "x\na\nb\nc\nd\n"), vec![1]);
        assert_eq!(changed_old_lines(old, ""), vec![1, 2, 3, 4]);
        assert_eq!(changed_old_lines(old, old), Vec::<usize>::new());
        assert_eq!(changed_old_lines("", "new\n"), Vec::<usize>::new());
    }

    #[test]
    fn removed_lines_are_the_old_ones_taken_out_or_rewritten_not_insertions() {
        let old = "a\nb\nc\nd\n";
        assert_eq!(removed_old_lines(old, "a\nB\nc\nd\n"), vec![2]);
        assert_eq!(removed_old_lines(old, "a\nd\n"), vec![2, 3]);
        assert_eq!(
            removed_old_lines(old, "x\na\nb\nc\nd\n"),
            Vec::<usize>::new()
        );
        assert_eq!(removed_old_lines(old, ""), vec![1, 2, 3, 4]);
    }
}

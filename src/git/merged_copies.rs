//! Copies of a file's lines that merges made: a merge commit that holds a line more
//! often than each of its parents does copied it (`merge=union`, "accept both"),
//! and so does a merge under way (MERGE_HEAD) whose working file holds it more
//! often than HEAD and MERGE_HEAD. A line written twice by hand, with no merge in
//! between, has no merge copy: `plan doctor` removes only what merges made.

use std::collections::HashMap;
use std::path::Path;

use anyhow::{Context, Result};
use git2::{Commit, ErrorCode, Oid, Repository};

use super::{blob_at, blob_text, head, open};

/// For each of `lines` (whole lines, without their ending), how many copies of it
/// the merges HEAD reaches made in `rel`, each merge counted as its count less the
/// greatest of its parents'; `now` is the working file, a merge under way's result.
/// Lines no merge copied are absent. A history that cannot be read is an error.
pub fn merged_copies(
    root: &Path,
    rel: &Path,
    now: &str,
    lines: &[&str],
) -> Result<HashMap<String, usize>> {
    let mut made: HashMap<String, usize> = HashMap::new();
    if lines.is_empty() {
        return Ok(made);
    }
    let repo = open(root)?;
    let Some(tip) = head(&repo)?.commit else {
        return Ok(made);
    };
    let mut texts: HashMap<Oid, String> = HashMap::new();
    let mut text_of = |repo: &Repository, blob: Option<Oid>| -> Result<Option<String>> {
        let Some(blob) = blob else { return Ok(None) };
        if let Some(text) = texts.get(&blob) {
            return Ok(Some(text.clone()));
        }
        let text = blob_text(repo, blob)?;
        texts.insert(blob, text.clone());
        Ok(Some(text))
    };
    let mut add = |merged: &str, parents: &[Option<String>]| {
        for line in lines {
            let most = parents
                .iter()
                .map(|p| p.as_deref().map_or(0, |p| count(p, line)))
                .max()
                .unwrap_or(0);
            let extra = count(merged, line).saturating_sub(most);
            if extra > 0 {
                *made.entry((*line).to_string()).or_default() += extra;
            }
        }
    };
    // A merge under way: the working file against HEAD and MERGE_HEAD.
    match repo.refname_to_id("MERGE_HEAD") {
        Ok(theirs) => {
            let ours = text_of(&repo, file_blob(&repo, tip, rel)?)?;
            let theirs = text_of(&repo, file_blob(&repo, theirs, rel)?)?;
            add(now, &[ours, theirs]);
        }
        Err(e) if e.code() == ErrorCode::NotFound => {}
        Err(e) => return Err(e).context("reading MERGE_HEAD"),
    }
    let mut walk = repo.revwalk().context("walking the history")?;
    walk.push(tip).context("walking the history")?;
    for id in walk {
        let id = id.context("walking the history")?;
        let commit = find(&repo, id)?;
        if commit.parent_count() < 2 {
            continue;
        }
        let blob = tree_blob(&commit, rel)?;
        let mut parents = Vec::new();
        for parent in commit.parent_ids() {
            parents.push(file_blob(&repo, parent, rel)?);
        }
        // A merge that took one side's file as it was copied nothing.
        if blob.is_none() || parents.contains(&blob) {
            continue;
        }
        let Some(merged) = text_of(&repo, blob)? else {
            continue;
        };
        let mut sides = Vec::new();
        for parent in parents {
            sides.push(text_of(&repo, parent)?);
        }
        add(&merged, &sides);
    }
    Ok(made)
}

fn count(text: &str, line: &str) -> usize {
    text.lines().filter(|l| *l == line).count()
}

fn find(repo: &Repository, id: Oid) -> Result<Commit<'_>> {
    repo.find_commit(id)
        .with_context(|| format!("reading the commit {id}"))
}

fn tree_blob(commit: &Commit<'_>, rel: &Path) -> Result<Option<Oid>> {
    let tree = commit
        .tree()
        .with_context(|| format!("reading the tree of {}", commit.id()))?;
    blob_at(&tree, rel)
}

fn file_blob(repo: &Repository, id: Oid, rel: &Path) -> Result<Option<Oid>> {
    tree_blob(&find(repo, id)?, rel)
}

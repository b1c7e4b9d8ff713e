//! Progress is work: the fingerprint the stop hook hands the continuation guard, so
//! that a continuation counts toward `loop.stall_limit` only when nothing the agent
//! could have done changed (the working tree's files by content, HEAD, plan.md),
//! and the files the tool hooks saw edited, kept for it.

use std::path::Path;

use crate::git::fingerprint::Memo;

/// The most files a session remembers as edited: the newest are kept. One dropped
/// changes the fingerprint once, which costs at most one stall's count.
pub const EDITED_MAX: usize = 64;

/// Records the file a tool call named (`given`, as the host gave it, relative to
/// `cwd`) in `edited`, relative to the top of the working tree at `root`. A path
/// outside the tree is no work on it and is not kept.
pub fn note_edit(edited: &mut Vec<String>, root: &Path, cwd: &Path, given: &str) {
    let path = cwd.join(given);
    let Some(rel) = path
        .strip_prefix(root)
        .ok()
        .and_then(|rel| rel.to_str())
        .filter(|rel| !rel.is_empty() && !rel.split('/').any(|c| c == ".." || c == ".git"))
    else {
        return;
    };
    if let Some(at) = edited.iter().position(|e| e == rel) {
        if at + 1 == edited.len() {
            return;
        }
        edited.remove(at);
    }
    edited.push(rel.to_string());
    if edited.len() > EDITED_MAX {
        edited.remove(0);
    }
}

/// The work fingerprint at this stop: plan.md's hash and [`crate::git::fingerprint::work`]
/// over the repository at `root` (but plan.md, at `plan`) and the files the session's
/// tool calls edited (`edited`, its record's), through git's own status where libgit2
/// cannot read it. Where git cannot say (a damaged index), plan.md's hash alone, as
/// before: the hooks fail open, and the budget still ends the loop.
pub fn fingerprint(
    root: &Path,
    plan: &Path,
    git_dir: &Path,
    edited: &[String],
    plan_hash: &str,
) -> String {
    // Content hashes kept by file identity between stops (a cache: one that cannot
    // be read or written costs reads, never the answer).
    let kept = git_dir.join("plan").join("cache").join("work.bin");
    let mut memo = crate::fsread::bytes(&kept, crate::fsread::STATE)
        .map(Memo::decode)
        .unwrap_or_default();
    use crate::git::fingerprint::{Blocking, openable, work, work_by_git};
    let work = openable(git_dir)
        .and_then(|()| work(root, plan, edited, &mut memo))
        .or_else(|e| match e.downcast_ref::<Blocking>() {
            Some(_) => Err(e),
            // A repository libgit2 cannot read (a split or sparse index, reftable):
            // git's own status, a process more.
            None => work_by_git(root, plan, &mut memo),
        });
    match work {
        Ok(work) => {
            if let Some(bytes) = memo.encode() {
                crate::cache::keep(&kept, &bytes);
            }
            format!("{plan_hash}:{work}")
        }
        Err(_) => plan_hash.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edits_are_kept_relative_newest_last_and_bounded() {
        let root = Path::new("/r");
        let mut edited = Vec::new();
        note_edit(&mut edited, root, Path::new("/r/src"), "a.rs");
        note_edit(&mut edited, root, Path::new("/r"), "/r/b.rs");
        note_edit(&mut edited, root, Path::new("/r"), "/elsewhere/c.rs");
        note_edit(&mut edited, root, Path::new("/r"), "../r2/d.rs");
        note_edit(&mut edited, root, Path::new("/r"), ".git/config");
        note_edit(&mut edited, root, Path::new("/r"), "src/a.rs");
        assert_eq!(edited, ["b.rs", "src/a.rs"]);
        for i in 0..EDITED_MAX {
            note_edit(&mut edited, root, root, &format!("f{i}"));
        }
        assert_eq!(edited.len(), EDITED_MAX);
        assert_eq!(edited[0], "f0");
        assert_eq!(edited.last().unwrap(), &format!("f{}", EDITED_MAX - 1));
    }
}

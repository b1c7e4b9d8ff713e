//! Lands `plan sync`'s merge without touching the working tree until it is whole:
//! `git merge-tree` builds it with plan's driver from commits alone, `git
//! commit-tree` writes it, and one `git merge --ff-only` moves the branch, index
//! and tree together, once plan's files are checked to be the ones read. A kill
//! at any point leaves the branch merged or untouched. It never pushes.

use std::path::Path;
use std::time::SystemTime;

use anyhow::Result;
use sha2::{Digest, Sha256};

use super::{Git, Outcome};
use crate::exit::Exit;

/// The merge to land: both ends by commit, and how plan's driver is named to git.
pub(super) struct Merge<'a> {
    pub head: &'a str,
    pub base: &'a str,
    /// The base as the person named it (`origin/main`), for what plan says.
    pub base_name: &'a str,
    /// The plan files the forge's own merge conflicts in.
    pub conflicted: Vec<String>,
    pub plan_files: &'a [String],
    /// `--attr-source=<tree>`: the attributes that send plan's files to its driver.
    pub attr_source: String,
    /// `merge.plan.driver=…`, for `git -c`.
    pub driver: String,
    pub message: String,
}

/// A plan file as sync read it: what a save in place since would change, the
/// content itself included (a save within the clock's resolution keeps the time,
/// and one of the same length the size).
#[derive(Debug, PartialEq, Eq)]
struct Seen {
    size: u64,
    modified: Option<SystemTime>,
    hash: Vec<u8>,
}

/// Each plan file as it is now; `None` for one that is not there.
fn seen(root: &Path, files: &[String]) -> Vec<Option<Seen>> {
    files
        .iter()
        .map(|f| {
            let path = root.join(f);
            let meta = std::fs::metadata(&path).ok()?;
            let bytes = std::fs::read(&path).ok()?;
            Some(Seen {
                size: meta.len(),
                modified: meta.modified().ok(),
                hash: Sha256::digest(&bytes).to_vec(),
            })
        })
        .collect()
}

/// The plan files whose bytes changed since `before` was seen.
fn changed(root: &Path, files: &[String], before: &[Option<Seen>]) -> Vec<String> {
    files
        .iter()
        .zip(seen(root, files).iter().zip(before))
        .filter(|(_, (now, then))| now != then)
        .map(|(f, _)| f.clone())
        .collect()
}

fn changed_meanwhile(files: &[String]) -> anyhow::Error {
    let names = files.join(", ");
    Exit::usage_hint(
        format!(
            "{names} changed while plan sync merged (saved by an editor or another program); nothing was merged: the branch and the index are as they were, and {names} keeps that change"
        ),
        format!("commit or stash the change to {names}, then rerun plan sync"),
    )
}

/// Builds the merge away from the tree, then lands it; see the module's doc.
pub(super) fn land(git: &Git, m: &Merge) -> Result<Outcome> {
    let read = seen(git.root, m.plan_files);
    let dirty = git.ok(&["status", "--porcelain", "--untracked-files=no"])?;
    if !dirty.is_empty() {
        return Err(Exit::usage_hint(
            "the working tree has uncommitted changes; nothing was merged",
            "commit or stash them, then rerun plan sync",
        ));
    }
    let built = git.run(&[
        &m.attr_source,
        "-c",
        &m.driver,
        "-c",
        "merge.plan.name=plan.md goal by goal (plan sync)",
        "merge-tree",
        "--write-tree",
        "--name-only",
        "--no-messages",
        m.head,
        m.base,
    ])?;
    let tree = match built.code {
        Some(0) => built.stdout.lines().next().unwrap_or_default().to_string(),
        Some(1) => {
            let files: Vec<String> = built
                .stdout
                .lines()
                .skip(1)
                .take_while(|l| !l.is_empty())
                .map(str::to_string)
                .collect();
            // The driver says why it left the conflict (a side cut mid-save, one
            // goal's part changed on both sides); only without its word is the
            // cause assumed.
            let why = match built.stderr.lines().find(|l| l.starts_with("plan:")) {
                Some(said) => format!(
                    "plan's driver left a conflict: {}",
                    said.trim_start_matches("plan: ")
                ),
                None => format!(
                    "plan's driver left a conflict (both sides changed one part of one goal){}",
                    match built.stderr.trim() {
                        "" => String::new(),
                        said => format!(": {said}"),
                    }
                ),
            };
            return Ok(Outcome::Person { files, why });
        }
        _ => {
            return Err(Exit::env(format!(
                "git merge-tree with plan's driver failed: {}",
                built.stderr
            )));
        }
    };
    let commit = git.ok(&[
        "commit-tree",
        &tree,
        "-p",
        m.head,
        "-p",
        m.base,
        "-m",
        &m.message,
    ])?;
    let moved = changed(git.root, m.plan_files, &read);
    if !moved.is_empty() {
        return Err(changed_meanwhile(&moved));
    }
    // One git moves branch, index and tree, and only from `head`: another sync or
    // a commit that won the race makes it refuse, as do local changes to a file it
    // would write. A signal lets it finish; it prints nothing a dead plan's pipe
    // could kill it for.
    let writing = crate::exec::writing(
        format!("plan sync's merge of {}", m.base_name),
        crate::exit::OK,
    );
    let landed = git.run_spec(
        &[
            "merge",
            "--ff-only",
            "--quiet",
            "--no-stat",
            "--no-autostash",
            &commit,
        ],
        None,
        true,
    )?;
    if landed.code == Some(0) {
        writing.done();
        return Ok(Outcome::Merged(m.conflicted.clone()));
    }
    drop(writing);
    Err(refused(git, m, &read, &landed.stderr))
}

/// Why `git merge --ff-only` refused to land the merge, told from what is there
/// now rather than from git's words (a translated git words them otherwise).
fn refused(git: &Git, m: &Merge, read: &[Option<Seen>], said: &str) -> anyhow::Error {
    let names = m.plan_files.join(", ");
    if let Some(lock) = said
        .split('\'')
        .find(|part| part.ends_with("index.lock"))
        .or_else(|| said.contains("index.lock").then_some("index.lock"))
    {
        return Exit::env_hint(
            format!(
                "another git process holds this repository's index ({lock}), so plan sync merged nothing: the branch, the index and {names} are as they were"
            ),
            format!(
                "let that git finish (another plan sync, an editor's git), then rerun plan sync; if no git runs, remove {lock}"
            ),
        );
    }
    let now = git
        .ok(&["rev-parse", "--verify", "HEAD^{commit}"])
        .unwrap_or_default();
    if now != m.head {
        return Exit::env_hint(
            format!(
                "the branch moved while plan sync merged (another plan sync or a commit won the race), so this run merged nothing; {names} is as that left it"
            ),
            "rerun plan sync: it merges what the branch has now",
        );
    }
    let moved = changed(git.root, m.plan_files, read);
    if !moved.is_empty() {
        return changed_meanwhile(&moved);
    }
    Exit::env(format!(
        "git merge --ff-only of plan sync's merge failed, and nothing was merged: {said}"
    ))
}

//! The log lines plan wrote, kept in `<git-dir>/plan/logged.tsv` with the branch
//! and commit HEAD was at, so `plan audit` finds one deleted from plan.md before
//! any commit had it (committed ones it finds in git's history). One line each:
//! `COMMIT<TAB>BRANCH<TAB>- STAMP text`, COMMIT `-` on an unborn branch. Bounded:
//! past [`MAX`] bytes the older half is dropped. Best effort: a line that cannot be
//! kept costs only this check, never the write.

use std::io::Write as _;
use std::path::{Path, PathBuf};

use crate::git::Repo;

/// The file, under the git directory.
pub const FILE: &str = "logged.tsv";

/// How big the file grows before its older half is dropped: some thousands of
/// lines, far more than a branch writes between two commits.
const MAX: u64 = 512 * 1024;

fn path(git_dir: &Path) -> PathBuf {
    git_dir.join("plan").join(FILE)
}

/// A log line plan wrote, and where HEAD was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kept {
    pub commit: Option<String>,
    pub branch: String,
    /// `- STAMP text`, as written.
    pub line: String,
}

/// Keeps `lines`, just written to the plan.md at `plan_path`.
pub fn keep(plan_path: &Path, lines: &[String]) {
    if lines.is_empty() {
        return;
    }
    let dir = plan_path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let Ok(Some(repo)) = crate::git::discover(dir) else {
        return;
    };
    let Ok((branch, commit)) = crate::git::head_place(&repo.root) else {
        return;
    };
    let commit = commit.unwrap_or_else(|| "-".to_string());
    let text: String = lines
        .iter()
        .map(|l| format!("{commit}\t{branch}\t{l}\n"))
        .collect();
    let file = path(&repo.git_dir);
    let appended =
        crate::fsread::open_state(crate::fsread::StateOpen::Append, &file).and_then(|mut f| {
            f.write_all(text.as_bytes())?;
            f.metadata()
        });
    if let Ok(meta) = appended
        && meta.len() > MAX
    {
        halve(&file);
    }
}

/// Drops the older half of the file's lines.
fn halve(file: &Path) {
    let Ok(text) = std::fs::read_to_string(file) else {
        return;
    };
    let lines: Vec<&str> = text.lines().collect();
    let kept: String = lines[lines.len() / 2..]
        .iter()
        .map(|l| format!("{l}\n"))
        .collect();
    let how = crate::atomic::Replace {
        new_file: crate::atomic::NewFile::Private,
        fsync: false,
        sync_dir: false,
        prefix: ".logged-",
        ..crate::atomic::Replace::DURABLE
    };
    let _ = crate::atomic::replace(file, kept.as_bytes(), &how);
}

/// The kept lines written on the branch HEAD is on now, at its commit or one in
/// its history: the ones plan.md here must still have. A line kept on another
/// branch, or at a commit HEAD does not reach, is that branch's. A line `present`
/// says plan.md has is taken without asking git (only its place in the order is
/// left to check), so the history is walked only for lines that are gone.
pub fn here(repo: &Repo, present: impl Fn(&str) -> bool) -> Vec<Kept> {
    let Ok(bytes) = crate::fsread::bytes(&path(&repo.git_dir), crate::fsread::STATE) else {
        return Vec::new();
    };
    let Ok((branch, head)) = crate::git::head_place(&repo.root) else {
        return Vec::new();
    };
    let mut reached: std::collections::HashMap<String, bool> = Default::default();
    let mut out = Vec::new();
    for row in String::from_utf8_lossy(&bytes).lines() {
        let mut parts = row.splitn(3, '\t');
        let (Some(commit), Some(on), Some(line)) = (parts.next(), parts.next(), parts.next())
        else {
            continue;
        };
        if on != branch {
            continue;
        }
        let commit = (commit != "-").then(|| commit.to_string());
        let reaches = present(line)
            || match (&commit, &head) {
                (None, _) => true,
                (Some(_), None) => false,
                (Some(c), Some(h)) => *reached.entry(c.clone()).or_insert_with(|| {
                    c == h || crate::git::is_ancestor(&repo.root, c, h).unwrap_or(false)
                }),
            };
        if reaches {
            out.push(Kept {
                commit,
                branch: on.to_string(),
                line: line.to_string(),
            });
        }
    }
    out
}

//! The sign-off lines of archived goals whose transcripts the hooks checked, kept
//! in `.git/plan/cache/lines.json` by a hash of each line. The hooks read no
//! archived goal's transcript on the log's word alone any more: a hand-typed
//! sign-off line naming no transcript left a goal done by hand and moved under
//! `## Archive` counted nowhere. Each such line is checked once against the
//! transcript it names (`proof::backs_at`: its hash, goal, contract, judge, verdict
//! and time), and remembered, so a long archive costs a hash and a lookup per goal
//! at each edit of plan.md, not a transcript read. A line checked once stays
//! checked: a transcript changed or deleted after that is `plan audit`'s to find.
//! The file is sealed as the other cache files are (`cache::seal`), and as theirs
//! its seal has no secret behind it.

use std::cell::{OnceCell, RefCell};
use std::collections::HashSet;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::plan::proof::{self, SignOffLine};

/// More lines than this and the memo starts again: a plan's sign-offs are far
/// fewer, so only lines of plans long gone are dropped.
const MAX: usize = 200_000;

#[derive(Default, Serialize, Deserialize)]
struct LinesFile {
    /// [`super::seal`]: first, so it is the file's first field.
    seal: String,
    format: u32,
    lines: Vec<u64>,
}

/// The lines checked so far, and those checked by this derivation.
pub struct Checked<'a> {
    root: &'a Path,
    known: HashSet<u64, foldhash::fast::FixedState>,
    /// `false` for a derivation that touches no cache: every line is checked.
    memo: bool,
    new: RefCell<Vec<u64>>,
}

impl<'a> Checked<'a> {
    /// The memo under `git_dir` (`memo`), or none (every line read afresh).
    pub fn read(root: &'a Path, git_dir: &Path, memo: bool) -> Checked<'a> {
        let known = memo
            .then(|| {
                crate::fsread::bytes(&path(git_dir), crate::fsread::STATE)
                    .ok()
                    .filter(|b| super::seal::holds(b))
                    .and_then(|b| serde_json::from_slice::<LinesFile>(&b).ok())
                    .filter(|f| f.format == super::FORMAT)
            })
            .flatten()
            .map(|f| f.lines.into_iter().collect())
            .unwrap_or_default();
        Checked {
            root,
            known,
            memo,
            new: RefCell::new(Vec::new()),
        }
    }

    /// Whether the transcript `line` names backs it, from the memo when it was
    /// checked before.
    pub fn backed(&self, line: &SignOffLine<'_, '_>) -> bool {
        let key = key(line);
        if self.known.contains(&key) {
            return true;
        }
        // `backs_at` asks for the one path the line names, twice.
        let read = OnceCell::new();
        let facts = |rel: &str| {
            read.get_or_init(|| crate::record::facts(self.root, rel))
                .clone()
        };
        let ok = proof::backs_at(line.event, line.stamp, &facts).is_ok();
        if ok && self.memo {
            self.new.borrow_mut().push(key);
        }
        ok
    }

    /// Adds this derivation's lines to the memo, best effort.
    pub fn store(self, git_dir: &Path) {
        let new = self.new.into_inner();
        if new.is_empty() {
            return;
        }
        let mut lines: Vec<u64> = if self.known.len() + new.len() > MAX {
            Vec::new()
        } else {
            self.known.into_iter().collect()
        };
        lines.extend(new);
        let file = LinesFile {
            seal: String::new(),
            format: super::FORMAT,
            lines,
        };
        if let Some(bytes) = serde_json::to_vec(&file)
            .ok()
            .and_then(|b| super::seal::close(&b))
        {
            super::keep(&path(git_dir), &bytes);
        }
    }
}

fn path(git_dir: &Path) -> std::path::PathBuf {
    super::dir(git_dir).join("lines.json")
}

/// The line as the log has it (stamp, then the text from the id on), hashed.
fn key(line: &SignOffLine<'_, '_>) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(line.stamp.unwrap_or("").as_bytes());
    hasher.update(b" ");
    hasher.update(line.text.as_bytes());
    hasher.digest()
}

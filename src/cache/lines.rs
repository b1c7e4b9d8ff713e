//! The sign-off lines of archived goals whose transcripts the hooks checked, kept
//! in `.git/plan/cache/lines.bin` by a hash of each line. The hooks read no
//! archived goal's transcript on the log's word alone any more: a hand-typed
//! sign-off line naming no transcript left a goal done by hand and moved under
//! `## Archive` counted nowhere. Each such line is checked once against the
//! transcript it names (`proof::backs_at`: its hash, goal, contract, judge, verdict
//! and time), and remembered, so a long archive costs a hash and a lookup per goal
//! at each edit of plan.md, not a transcript read. A line checked once stays
//! checked: a transcript changed or deleted after that is `plan audit`'s to find.
//! The file ends with a checksum of its bytes, and as the other cache files' seals
//! (`cache::seal`) it has no secret behind it. Binary, the hashes sorted: as JSON,
//! 2,500 of them cost every hook that reads the memo 2.7M instructions to parse and
//! put in a set.

use std::cell::{OnceCell, RefCell};
use std::path::Path;

use crate::plan::proof::{self, SignOffLine};

/// More lines than this and the memo starts again: a plan's sign-offs are far
/// fewer, so only lines of plans long gone are dropped.
const MAX: usize = 200_000;

/// The file's first bytes; the format of the cache (`super::FORMAT`) follows.
const MAGIC: &[u8; 4] = b"pll1";

/// The sorted line hashes a memo file holds, if it reads back whole.
fn decode(bytes: &[u8]) -> Option<Vec<u64>> {
    let (body, sum) = bytes.split_at_checked(bytes.len().checked_sub(8)?)?;
    if xxhash_rust::xxh3::xxh3_64(body).to_le_bytes() != sum {
        return None;
    }
    let rest = body.strip_prefix(MAGIC)?;
    let (format, rest) = rest.split_at_checked(4)?;
    if u32::from_le_bytes(format.try_into().ok()?) != super::FORMAT || rest.len() % 8 != 0 {
        return None;
    }
    let lines: Vec<u64> = rest
        .chunks_exact(8)
        .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
        .collect();
    lines.is_sorted().then_some(lines)
}

fn encode(lines: &[u64]) -> Vec<u8> {
    let mut out = Vec::with_capacity(16 + lines.len() * 8);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&super::FORMAT.to_le_bytes());
    for line in lines {
        out.extend_from_slice(&line.to_le_bytes());
    }
    let sum = xxhash_rust::xxh3::xxh3_64(&out);
    out.extend_from_slice(&sum.to_le_bytes());
    out
}

/// The lines checked so far, and those checked by this derivation.
pub struct Checked<'a> {
    root: &'a Path,
    /// Sorted.
    known: Vec<u64>,
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
                    .and_then(|b| decode(&b))
            })
            .flatten()
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
        if self.known.binary_search(&key).is_ok() {
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
        let mut lines = if self.known.len() + new.len() > MAX {
            Vec::new()
        } else {
            self.known
        };
        lines.extend(new);
        lines.sort_unstable();
        lines.dedup();
        super::keep(&path(git_dir), &encode(&lines));
    }
}

fn path(git_dir: &Path) -> std::path::PathBuf {
    super::dir(git_dir).join("lines.bin")
}

/// The line as the log has it (stamp, then the text from the id on), hashed.
fn key(line: &SignOffLine<'_, '_>) -> u64 {
    let mut hasher = xxhash_rust::xxh3::Xxh3::new();
    hasher.update(line.stamp.unwrap_or("").as_bytes());
    hasher.update(b" ");
    hasher.update(line.text.as_bytes());
    hasher.digest()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_memo_reads_back_whole_or_not_at_all() {
        let lines = [3u64, 9, 27];
        let bytes = encode(&lines);
        assert_eq!(decode(&bytes).unwrap(), lines);
        // Any byte changed, one missing, or hashes out of order: no memo.
        let mut edited = bytes.clone();
        edited[10] ^= 1;
        assert!(decode(&edited).is_none());
        assert!(decode(&bytes[..bytes.len() - 1]).is_none());
        assert!(decode(&encode(&[9, 3])).is_none());
        assert!(decode(b"").is_none());
    }
}

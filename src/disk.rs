//! Whether the disk is full, and how plan says so. A failed write does not always
//! tell: libgit2 has returned the id of a checkpoint commit it never wrote (ENOSPC on
//! both of its tries, on a 600 KB tmpfs), and the first sign was "object not found"
//! when the judge's copy was checked out. So a failed write also asks the file
//! system how much room is left.

use std::path::Path;

/// Below this many bytes free to plan, a file system counts as full: a checkpoint
/// of a small tree, a transcript and plan.md's rewrite need more than that.
const FULL_BELOW: u64 = 1 << 20;

/// What libgit2 and the OS say for ENOSPC (`strerror(ENOSPC)` on Linux and macOS).
const NO_SPACE: &str = "No space left on device";

/// Whether `text` (an error as shown) says the disk is full.
pub fn says_full(text: &str) -> bool {
    text.contains(NO_SPACE)
}

/// Whether `err` says the disk is full: ENOSPC anywhere in its chain, as an I/O
/// error or in libgit2's words.
pub fn said_full(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|e| e.kind() == std::io::ErrorKind::StorageFull)
            || says_full(&cause.to_string())
    })
}

/// Bytes free to plan on the file system holding `dir`, if it can be asked.
pub fn free(dir: &Path) -> Option<u64> {
    #[cfg(debug_assertions)]
    if crate::env::os("PLAN_TEST_DISK_FULL").is_some() {
        return Some(0);
    }
    let stat = rustix::fs::statvfs(dir).ok()?;
    Some(stat.f_bavail.saturating_mul(stat.f_frsize))
}

/// When `err`, a failed write under `dir`, came of a full disk (it says so, or the
/// file system holding `dir` has under [`FULL_BELOW`] free): how to say it, e.g.
/// `the disk holding /repo/.git is full (12 KB free)`.
pub fn full(err: &anyhow::Error, dir: &Path) -> Option<String> {
    let free = free(dir);
    let full = said_full(err) || free.is_some_and(|f| f < FULL_BELOW);
    full.then(|| match free {
        Some(f) => format!(
            "the disk holding {} is full ({} KB free)",
            dir.display(),
            f / 1024
        ),
        None => format!("the disk holding {} is full", dir.display()),
    })
}

/// The hint for a full disk under `dir`.
pub fn hint(dir: &Path) -> String {
    format!(
        "nothing was written; free space on it (`df -h {}` shows how much there is) and run the command again",
        dir.display()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn enospc_in_any_cause_is_a_full_disk() {
        let io = std::io::Error::from_raw_os_error(28);
        let err = anyhow::Error::new(io).context("writing the checkpoint");
        assert!(said_full(&err));
        let git =
            anyhow::anyhow!("failed to write out file: No space left on device; class=Os (2)");
        assert!(said_full(&git));
        let other = anyhow::anyhow!("object not found - no match for id (fee23c77)");
        assert!(!said_full(&other));
    }
}

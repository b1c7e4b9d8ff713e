//! The judge's containment check on its own, for scripts/bench-hooks.sh
//! --containment: a snapshot of the repository at the given path before and after
//! (nothing runs in between), and the changes between them, which must be none.

use std::path::PathBuf;

fn main() -> anyhow::Result<()> {
    let root = PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    let before = plan::git::snapshot(&root)?;
    let after = plan::git::snapshot(&root)?;
    let changes = before.changes(&after);
    anyhow::ensure!(changes.is_empty(), "changed in between: {changes:?}");
    Ok(())
}

//! The judge's containment check on its own, for scripts/bench-hooks.sh
//! --containment: see `plan::bench::containment`.

fn main() -> anyhow::Result<()> {
    let root = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| ".".into()));
    plan::bench::containment(&root)
}

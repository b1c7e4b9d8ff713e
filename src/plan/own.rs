//! plan's own files in a repository: the plan file and everything under `.plan/`
//! (config, prompts, judge transcripts). They are no work on a goal (the loop's
//! progress fingerprint) and nothing a rewind puts back. Pure: paths in.

/// plan's own directory at the top of the tree.
pub const DIR: &str = ".plan";

/// Whether `path` (relative to the top of the tree, `/`-separated) is the plan
/// file at `plan_rel` or in plan's own directory.
pub fn is_own(path: &[u8], plan_rel: Option<&[u8]>) -> bool {
    plan_rel == Some(path)
        || path == DIR.as_bytes()
        || path
            .strip_prefix(DIR.as_bytes())
            .is_some_and(|rest| rest.starts_with(b"/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_plan_file_and_plans_directory_are_its_own() {
        let plan = Some(&b"docs/plan.md"[..]);
        for own in [
            "docs/plan.md",
            ".plan",
            ".plan/judge/a.md",
            ".plan/config.yaml",
        ] {
            assert!(is_own(own.as_bytes(), plan), "{own}");
        }
        for not in ["plan.md", ".planned", ".plans/x", "src/.plan/x", "docs"] {
            assert!(!is_own(not.as_bytes(), plan), "{not}");
        }
    }
}

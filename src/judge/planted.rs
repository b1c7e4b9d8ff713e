//! What a judge CLI would load from the directories above the one plan starts it in
//! (instruction files, settings directories, env files), found there though plan
//! put none: looked for before the run and after it. It reads and removes nothing.

use std::path::{Path, PathBuf};

/// The names a judge CLI loads from the directory it starts in and those above it:
/// as its own instructions (GEMINI.md, QWEN.md, AGENTS.md, CLAUDE.md, CONTEXT.md),
/// as settings that can name its server, tools or hooks (`.gemini/`, `.qwen/`,
/// `.claude/`, `.codex/`, `.factory/`, `.opencode/`, `.pi/`, `.github/`), or as
/// its environment (`.env`). One list for every backend, matched whatever the case
/// (a case-insensitive file system finds `gemini.md` for GEMINI.md): each CLI's own
/// list grows from one version to the next, and nothing honest keeps any of these
/// in plan's cache directory or above it below HOME.
const NAMES: [&str; 19] = [
    "AGENTS.md",
    "AGENTS.override.md",
    "CLAUDE.md",
    "CLAUDE.local.md",
    "CONTEXT.md",
    "GEMINI.md",
    "QWEN.md",
    ".env",
    ".gemini",
    ".qwen",
    ".claude",
    ".codex",
    ".factory",
    ".opencode",
    "opencode.json",
    "opencode.jsonc",
    ".pi",
    ".github",
    ".mcp.json",
];

/// Every file or directory of [`NAMES`] (or of `extra`, the context file names the
/// user's own settings add) in a directory above `start`: [`in_or_above`] its
/// parent. `start` itself is the run's own, or the judge's copy of the tree, whose
/// instruction files are set aside for the run (`run::SetAside`).
pub fn above(start: &Path, home: Option<&Path>, extra: &[String]) -> Vec<PathBuf> {
    start
        .parent()
        .map_or_else(Vec::new, |dir| in_or_above(dir, home, extra))
}

/// The same, in `dir` and the directories above it, up to HOME and not HOME
/// itself: what is in HOME, and its `.gemini/` and `.qwen/`, is the user's own
/// user-level configuration, and a directory at or above HOME that is not the
/// user's fails the judges' directory's own check (`exec::private_dir`). A `dir`
/// outside HOME is looked in up to `/`. Both the path as given (a shell, and the
/// CLIs that read PWD, walk it) and its real path are walked. Sorted, each once.
pub fn in_or_above(dir: &Path, home: Option<&Path>, extra: &[String]) -> Vec<PathBuf> {
    let names: Vec<String> = NAMES
        .iter()
        .map(|n| n.to_string())
        .chain(extra.iter().cloned())
        .collect();
    let real_dir = std::fs::canonicalize(dir).ok();
    let real_home = home.and_then(|h| std::fs::canonicalize(h).ok());
    let walks = [
        (Some(dir.to_path_buf()), home.map(Path::to_path_buf)),
        (real_dir, real_home),
    ];
    let mut found = Vec::new();
    for (dir, home) in walks {
        let Some(dir) = dir else {
            continue;
        };
        for dir in dir.ancestors().take_while(|d| home.as_deref() != Some(*d)) {
            found.extend(named_in(dir, &names));
        }
    }
    found.sort();
    found.dedup();
    found
}

/// The entries of `dir` named as one of `names`, whatever the case. A directory
/// that cannot be listed but can be searched (mode 0711) is asked for each name.
fn named_in(dir: &Path, names: &[String]) -> Vec<PathBuf> {
    match std::fs::read_dir(dir) {
        Ok(entries) => entries
            .flatten()
            .filter(|e| {
                let name = e.file_name();
                let name = name.to_string_lossy();
                names.iter().any(|n| n.eq_ignore_ascii_case(&name))
            })
            .map(|e| e.path())
            .collect(),
        Err(_) => names
            .iter()
            .map(|n| dir.join(n))
            .filter(|p| std::fs::symlink_metadata(p).is_ok())
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_in_home_is_the_users_and_what_is_below_it_is_looked_at() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path().join("home");
        let start = home.join(".cache/plan/judges/plan-answer-abcdef/work");
        std::fs::create_dir_all(&start).unwrap();
        std::fs::write(home.join("GEMINI.md"), "mine").unwrap();
        std::fs::create_dir_all(home.join(".gemini")).unwrap();
        std::fs::write(start.join("GEMINI.md"), "the run's own directory").unwrap();
        assert_eq!(above(&start, Some(&home), &[]), Vec::<PathBuf>::new());
        assert_eq!(
            in_or_above(&start, Some(&home), &[]),
            vec![start.join("GEMINI.md")]
        );
        std::fs::write(home.join(".cache/plan/Gemini.md"), "planted").unwrap();
        std::fs::write(home.join(".cache/Notes.md"), "a name the user added").unwrap();
        assert_eq!(
            above(&start, Some(&home), &["notes.md".to_string()]),
            vec![
                home.join(".cache/Notes.md"),
                home.join(".cache/plan/Gemini.md")
            ]
        );
    }

    #[test]
    fn a_start_outside_home_is_looked_above_up_to_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let start = dir.path().join("cache/plan/judges/work");
        std::fs::create_dir_all(&start).unwrap();
        std::fs::write(dir.path().join(".env"), "planted").unwrap();
        let home = dir.path().join("home");
        assert!(above(&start, Some(&home), &[]).contains(&dir.path().join(".env")));
    }
}

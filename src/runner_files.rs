//! The CI runner's file commands (`GITHUB_ENV`, `GITHUB_PATH`, `GITHUB_OUTPUT`, …),
//! kept as they were before the pull request's verify ran and put back if it wrote
//! them: a line it appends to `GITHUB_ENV` sets the environment of the job's later
//! steps (an `LD_PRELOAD` for the step that uploads the verify job's results), so a
//! change refuses the gate, and the runner never reads the changed file.

use std::fs;
use std::io::Write;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::exit::Exit;

/// The variables GitHub Actions names its file commands by.
const VARS: [&str; 5] = [
    "GITHUB_ENV",
    "GITHUB_PATH",
    "GITHUB_OUTPUT",
    "GITHUB_STATE",
    "GITHUB_STEP_SUMMARY",
];

/// A file command larger than this is not read back: it is taken as changed.
const MAX_BYTES: u64 = 16 * 1024 * 1024;

/// The file commands as they were.
pub struct RunnerFiles {
    files: Vec<(PathBuf, Option<Vec<u8>>)>,
}

impl RunnerFiles {
    /// The files the variables name, and every file in the runner's file-command
    /// directory (`$RUNNER_TEMP/_runner_file_commands`), whose names a verify can
    /// guess without the variables; none outside a runner.
    pub fn take() -> RunnerFiles {
        let mut paths: Vec<PathBuf> = VARS
            .iter()
            .filter_map(|var| crate::env::os(var).filter(|v| !v.is_empty()))
            .map(PathBuf::from)
            .collect();
        if let Some(temp) = crate::env::os("RUNNER_TEMP").filter(|v| !v.is_empty())
            && let Ok(entries) = fs::read_dir(Path::new(&temp).join("_runner_file_commands"))
        {
            paths.extend(entries.flatten().map(|e| e.path()));
        }
        paths.sort();
        paths.dedup();
        // A file plan's own output goes to (`--markdown >> "$GITHUB_STEP_SUMMARY"`)
        // changes because plan writes it.
        let own: Vec<(u64, u64)> = ["/proc/self/fd/1", "/proc/self/fd/2"]
            .iter()
            .filter_map(|fd| fs::metadata(fd).ok())
            .map(|m| (m.dev(), m.ino()))
            .collect();
        paths.retain(|p| fs::metadata(p).map_or(true, |m| !own.contains(&(m.dev(), m.ino()))));
        let files = paths
            .into_iter()
            .map(|path| {
                let bytes = read(&path);
                (path, bytes)
            })
            .collect();
        RunnerFiles { files }
    }

    /// Exit 3 naming the first file that is not as it was, after putting every
    /// changed one back (replaced, never written through a link planted there).
    pub fn check(&self) -> Result<()> {
        let changed: Vec<&(PathBuf, Option<Vec<u8>>)> = self
            .files
            .iter()
            .filter(|(path, was)| read(path) != *was)
            .collect();
        let Some((first, _)) = changed.first() else {
            return Ok(());
        };
        for (path, was) in &changed {
            restore(path, was.as_deref());
        }
        Err(Exit::env_hint(
            format!(
                "refusing the gate: the runner's file {} changed while the pull request's verify ran (it sets what the job's later steps run with); it was put back",
                first.display()
            ),
            "a verify must not write the CI runner's files; look at what the pull request's verify runs",
        ))
    }
}

/// The file's bytes, `None` when absent, unreadable, not a regular file or too large.
fn read(path: &Path) -> Option<Vec<u8>> {
    let meta = fs::symlink_metadata(path).ok()?;
    if !meta.is_file() || meta.len() > MAX_BYTES {
        return None;
    }
    fs::read(path).ok()
}

/// Puts `was` back at `path` by removing what is there and creating the file anew.
fn restore(path: &Path, was: Option<&[u8]>) {
    let _ = crate::atomic::remove(path);
    let Some(bytes) = was else { return };
    #[expect(
        clippy::disallowed_methods,
        reason = "a runner file put back byte for byte as it was before the verify run changed it"
    )]
    let opened = fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(path);
    if let Ok(mut file) = opened {
        let _ = file.write_all(bytes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_file_is_put_back_and_refused_and_an_unchanged_one_passes() {
        let dir = tempfile::tempdir().unwrap();
        let env = dir.path().join("set_env");
        fs::write(&env, "A=1\n").unwrap();
        let files = RunnerFiles {
            files: vec![(env.clone(), read(&env))],
        };
        assert!(files.check().is_ok());
        fs::write(&env, "A=1\nLD_PRELOAD=./evil.so\n").unwrap();
        let err = files.check().unwrap_err();
        assert!(format!("{err:#}").contains("set_env"), "{err:#}");
        assert_eq!(fs::read_to_string(&env).unwrap(), "A=1\n");
        // A link planted in its place is replaced, not written through.
        let target = dir.path().join("elsewhere");
        fs::write(&target, "keep\n").unwrap();
        fs::remove_file(&env).unwrap();
        std::os::unix::fs::symlink(&target, &env).unwrap();
        assert!(files.check().is_err());
        assert_eq!(fs::read_to_string(&target).unwrap(), "keep\n");
        assert_eq!(fs::read_to_string(&env).unwrap(), "A=1\n");
    }
}

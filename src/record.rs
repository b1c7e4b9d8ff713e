//! The sign-off record on disk: transcripts under `.plan/judge/`, written once and
//! never overwritten, and the facts about them (exists, hash, header) that the pure
//! proof check takes.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::Path;

use anyhow::Result;

use crate::exit::Exit;
use crate::plan::model::blob_id;
use crate::plan::proof::{self, Facts, Header};

/// How many hex digits of the transcript's blob id a sign-off line carries.
pub const HASH_DIGITS: usize = 12;

/// What is at `rel` under `root`: only a regular file (no symlink) at a path plan
/// would have written counts.
pub fn facts(root: &Path, rel: &str) -> Facts {
    if !proof::is_record_path(rel) {
        return Facts::Missing;
    }
    let path = root.join(rel);
    let regular = fs::symlink_metadata(&path).is_ok_and(|m| m.file_type().is_file());
    let Some(bytes) = regular.then(|| fs::read(&path).ok()).flatten() else {
        return Facts::Missing;
    };
    Facts::Present {
        hash: blob_id(&bytes),
        header: Header::parse(&String::from_utf8_lossy(&bytes)),
    }
}

/// A saved transcript: its repository-relative path and the hash a sign-off
/// line carries.
pub struct Saved {
    pub path: String,
    pub hash: String,
}

/// Writes `text` as a new transcript named after `base` (`base.md`, `base-2.md`, …)
/// under `root/.plan/judge/`, never replacing one.
pub fn save(root: &Path, base: &str, text: &str) -> Result<Saved> {
    let dir = root.join(proof::JUDGE_DIR);
    fs::create_dir_all(&dir)
        .map_err(|e| Exit::env(format!("cannot create {}: {e}", dir.display())))?;
    let mut name = format!("{base}.md");
    let mut n = 2;
    let mut file = loop {
        match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(dir.join(&name))
        {
            Ok(file) => break file,
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                name = format!("{base}-{n}.md");
                n += 1;
            }
            Err(e) => {
                return Err(Exit::env(format!(
                    "cannot write {}: {e}",
                    dir.join(&name).display()
                )));
            }
        }
    };
    file.write_all(text.as_bytes())
        .and_then(|_| file.sync_all())
        .map_err(|e| Exit::env(format!("cannot write {}: {e}", dir.join(&name).display())))?;
    Ok(Saved {
        path: format!("{}{name}", proof::JUDGE_DIR),
        hash: blob_id(text.as_bytes())[..HASH_DIGITS].to_string(),
    })
}

/// Removes a transcript whose sign-off was not written after all.
pub fn discard(root: &Path, saved: &Saved) {
    let _ = fs::remove_file(root.join(&saved.path));
}

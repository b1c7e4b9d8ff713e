//! Reads plan.md and writes edits to it: under a lock, against a fresh read, via a
//! temp file, fsync and rename. Never writes a line that changed under it.

use std::fs::{self, File, OpenOptions};
use std::io::{ErrorKind, Write};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::exit::Exit;
use crate::plan::model::parse;
use crate::plan::patch::{self, Conflict, Edit};

pub struct Store {
    /// Where plan.md is (as resolved, maybe relative to the cwd).
    pub path: PathBuf,
    /// How messages name it: `plan.md`, or the path the user gave.
    pub name: String,
    /// The lock serialising writers; inside the git directory when there is one.
    lock: PathBuf,
}

/// Why a write did not happen.
#[derive(Debug)]
pub enum WriteError {
    /// A line the edits expected changed; nothing was written.
    Conflict(String),
    Other(anyhow::Error),
}

impl From<anyhow::Error> for WriteError {
    fn from(e: anyhow::Error) -> Self {
        WriteError::Other(e)
    }
}

impl From<WriteError> for anyhow::Error {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Conflict(message) => Exit::usage(message),
            WriteError::Other(e) => e,
        }
    }
}

impl Store {
    pub fn new(path: PathBuf, name: String, git_dir: Option<&Path>) -> Store {
        let lock = match git_dir {
            Some(dir) => dir.join("plan").join("plan.lock"),
            None => {
                let file = path
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                path.with_file_name(format!(".{file}.lock"))
            }
        };
        Store { path, name, lock }
    }

    /// The file's text. Missing, a directory, unreadable or not UTF-8 → a clear error.
    pub fn read(&self) -> Result<String> {
        let name = &self.name;
        let bytes = match fs::read(&self.path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                return Err(Exit::usage(format!(
                    "{name} not found\n  hint: `plan init \"objective\"` creates it"
                )));
            }
            Err(e) if e.kind() == ErrorKind::IsADirectory || self.path.is_dir() => {
                return Err(Exit::usage(format!(
                    "{name} is a directory, not a file\n  hint: move it away, or point --file at the plan"
                )));
            }
            Err(e) => return Err(Exit::env(format!("cannot read {name}: {e}"))),
        };
        String::from_utf8(bytes).map_err(|e| {
            let at = e.utf8_error().valid_up_to();
            let line = e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count() + 1;
            Exit::usage(format!(
                "{name}:{line}: not valid UTF-8 (byte offset {at})\n  hint: save the file as UTF-8; nothing was changed"
            ))
        })
    }

    /// Writes `content` as a new file; refuses if one exists.
    pub fn create(&self, content: &str) -> Result<()> {
        let _lock = self.lock()?;
        if let Some(parent) = self.path.parent().filter(|p| !p.as_os_str().is_empty()) {
            fs::create_dir_all(parent).with_context(|| format!("creating {}", parent.display()))?;
        }
        let mut file = match OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(&self.path)
        {
            Ok(file) => file,
            Err(e) if e.kind() == ErrorKind::AlreadyExists => {
                return Err(Exit::usage(format!(
                    "{} already exists\n  hint: `plan show` shows it; `plan add` adds goals to it",
                    self.name
                )));
            }
            Err(e) => return Err(Exit::env(format!("cannot create {}: {e}", self.name))),
        };
        file.write_all(content.as_bytes())
            .and_then(|_| file.sync_all())
            .map_err(|e| Exit::env(format!("cannot write {}: {e}", self.name)))?;
        Ok(())
    }

    /// Applies `edits`, computed against `base`, to the file as it is now. Lines
    /// that moved are followed; a line that changed is a conflict and nothing is
    /// written. Returns the new text.
    pub fn write(&self, base: &str, edits: Vec<Edit>) -> Result<String, WriteError> {
        let _lock = self.lock()?;
        let fresh = self.read()?;
        let conflict = |c: Conflict| {
            WriteError::Conflict(format!(
                "{}:{}: {} changed while plan was working; nothing was written\n  {}\n  hint: look at the file again and rerun the command",
                self.name, c.line, self.name, c
            ))
        };
        let edits = patch::rebase(base, &fresh, edits).map_err(conflict)?;
        let out = patch::apply(&fresh, &edits).map_err(conflict)?;
        if out == fresh {
            return Ok(out);
        }
        // Never leave the file worse than we found it (e.g. two writers picking
        // the same new id): that is a conflict too.
        let before = parse(&fresh).errors.len();
        let after = parse(&out);
        if after.errors.len() > before {
            let first = &after.errors[after.errors.len() - 1];
            return Err(WriteError::Conflict(format!(
                "{} changed while plan was working and the edit would now make it invalid ({}); nothing was written\n  hint: rerun the command",
                self.name, first.message
            )));
        }
        self.replace(&out)?;
        Ok(out)
    }

    fn lock(&self) -> Result<File> {
        if let Some(dir) = self.lock.parent() {
            fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
        }
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(&self.lock)
            .with_context(|| format!("opening the lock {}", self.lock.display()))?;
        file.lock()
            .with_context(|| format!("locking {}", self.lock.display()))?;
        Ok(file)
    }

    /// Atomic replace: temp file in the same directory, same permissions, fsync,
    /// rename, fsync the directory. A symlinked plan.md is written through.
    fn replace(&self, content: &str) -> Result<()> {
        let target = fs::canonicalize(&self.path).unwrap_or_else(|_| self.path.clone());
        let meta = fs::metadata(&target).with_context(|| format!("reading {}", self.name))?;
        if meta.permissions().readonly() {
            return Err(Exit::env(format!(
                "{} is read-only; nothing was written\n  hint: make it writable (chmod u+w {}) and rerun",
                self.name, self.name
            )));
        }
        let dir = target.parent().unwrap_or(Path::new("."));
        let io = |e: std::io::Error| {
            Exit::env(format!(
                "cannot write {}: {e}; nothing was changed",
                self.name
            ))
        };
        let mut tmp = tempfile::Builder::new()
            .prefix(".plan-")
            .suffix(".tmp")
            .tempfile_in(dir)
            .map_err(io)?;
        tmp.write_all(content.as_bytes()).map_err(io)?;
        tmp.as_file()
            .set_permissions(meta.permissions())
            .map_err(io)?;
        tmp.as_file().sync_all().map_err(io)?;
        tmp.persist(&target).map_err(|e| io(e.error))?;
        if let Ok(d) = File::open(dir) {
            let _ = d.sync_all();
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(dir: &Path) -> Store {
        Store::new(
            dir.join("plan.md"),
            "plan.md".into(),
            Some(&dir.join(".git")),
        )
    }

    const BASE: &str = "# Plan: x\n\n## Goal: A\nstatus: active\n\n## Log\n";

    #[test]
    fn a_line_changed_in_the_meantime_is_a_conflict_and_nothing_is_written() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        // What a person saved while the command was working.
        let theirs = BASE.replace("status: active", "status: cancelled");
        fs::write(&s.path, &theirs).unwrap();
        let err = s
            .write(
                BASE,
                vec![Edit::replace(4, "status: active", "status: done")],
            )
            .unwrap_err();
        let WriteError::Conflict(message) = err else {
            panic!("not a conflict: {err:?}")
        };
        assert!(
            message.starts_with(
                "plan.md:4: plan.md changed while plan was working; nothing was written"
            )
        );
        assert!(message.contains("expected `status: active`, found `status: cancelled`"));
        assert_eq!(fs::read_to_string(&s.path).unwrap(), theirs);
    }

    #[test]
    fn a_change_elsewhere_is_kept_and_the_edit_lands() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        let theirs = BASE.replace("# Plan: x\n", "# Plan: x\nA note the person added.\n");
        fs::write(&s.path, &theirs).unwrap();
        let out = s
            .write(
                BASE,
                vec![Edit::replace(4, "status: active", "status: done")],
            )
            .unwrap();
        assert_eq!(out, theirs.replace("status: active", "status: done"));
        assert_eq!(fs::read_to_string(&s.path).unwrap(), out);
    }

    #[test]
    fn no_temp_files_are_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let s = store(dir.path());
        fs::write(&s.path, BASE).unwrap();
        s.write(
            BASE,
            vec![Edit::AppendLog {
                lines: vec!["- e".into()],
            }],
        )
        .unwrap();
        let names: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .map(|e| e.unwrap().file_name().into_string().unwrap())
            .filter(|n| n != ".git")
            .collect();
        assert_eq!(names, ["plan.md"]);
    }
}

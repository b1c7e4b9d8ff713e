//! Finding, reading and writing the files plan registers in: where a host's
//! settings live (`Place`), a settings file read with or without comments and
//! written back losslessly, errors that name the file, and the tidy-up when plan's
//! entries were all a file held.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde_json::{Map, Value};

use crate::atomic;
use crate::exit::Exit;
use crate::git::Repo;
use crate::hosts;
use crate::install::hooks::{self, Action, Change, Host, Invalid};
use crate::install::jsonc;

/// Where a host's registration lives, and how messages name it.
pub struct Place {
    pub path: PathBuf,
    /// Relative to the repository root, `~/…` under the home directory, else as is.
    pub shown: String,
    /// The repository root, for a project registration.
    pub root: Option<PathBuf>,
}

pub fn place(host: Host, global: bool, repo: Option<&Repo>) -> Result<Place> {
    let registration = &host.spec().registration;
    if global {
        let home = hosts::home()?;
        let path = registration.user(&home);
        let shown = hosts::tilde(&path, &home);
        return Ok(Place {
            path,
            shown,
            root: None,
        });
    }
    let Some(repo) = repo else {
        return Err(Exit::env_hint(
            "not inside a git repository",
            "run it in the repository the agent works in, or pass --global to register for your user",
        ));
    };
    let rel = registration.project();
    // git reports the work tree with a trailing slash; Codex's trust key has none.
    let root: PathBuf = repo.root.components().collect();
    Ok(Place {
        path: root.join(rel),
        shown: rel.to_string(),
        root: Some(root),
    })
}

/// The plugin's two files, named as the user named the directory.
pub fn plugin_files(dir: &Path) -> (Place, Place) {
    let file = |rel: &str| {
        let path = dir.join(rel);
        Place {
            shown: path.display().to_string(),
            path,
            root: None,
        }
    };
    (file(".claude-plugin/plugin.json"), file("hooks/hooks.json"))
}

pub fn plugin_is_for_claude(host: Host) -> Result<()> {
    if host == Host::Claude {
        return Ok(());
    }
    Err(Exit::usage_hint(
        format!(
            "--plugin writes a Claude Code plugin, not one for {}",
            host.title()
        ),
        format!(
            "`plan install {} [--global]` registers with {}",
            host.name(),
            host.title()
        ),
    ))
}

/// A file's text; `None` when it does not exist.
pub fn read_text(path: &Path, shown: &str) -> Result<Option<String>> {
    let bytes = match crate::fsread::bytes(path, crate::fsread::STATE) {
        Ok(bytes) => bytes,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if crate::fsread::refused(&e).is_some() => {
            return Err(crate::fsread::exit(shown, &e));
        }
        Err(e) if e.kind() == ErrorKind::IsADirectory || path.is_dir() => {
            return Err(Exit::usage_hint(
                format!("{shown} is a directory, not a file"),
                "move it away and rerun; nothing was changed",
            ));
        }
        Err(e) => return Err(Exit::env(format!("cannot read {shown}: {e}"))),
    };
    String::from_utf8(bytes).map(Some).map_err(|_| {
        Exit::usage_hint(
            format!("{shown}: not valid UTF-8"),
            "save it as UTF-8 and rerun; nothing was changed",
        )
    })
}

/// A settings file as read: its text, what it held, and what plan makes of it.
#[derive(Default)]
pub struct Settings {
    text: String,
    before: Map<String, Value>,
    pub doc: Map<String, Value>,
    /// Whether the file was there when read.
    existed: bool,
}

impl Settings {
    /// The file's new text: as the person wrote it, with only plan's change made
    /// (comments, key order, indentation and the final newline kept).
    pub fn text(&self) -> String {
        jsonc::rewrite(&self.text, &self.before, &self.doc)
    }

    /// Writes [`Settings::text`] to `path`, only while the file there still holds
    /// what was read (or is still missing): a key another program added meanwhile
    /// would be lost to plan's rename. Otherwise nothing is written.
    pub fn save(&self, path: &Path, shown: &str) -> Result<()> {
        crate::store::pause_for_test();
        let how = atomic::Replace {
            new_file: atomic::NewFile::Mode(0o644),
            ..atomic::Replace::DURABLE
        };
        let as_read = |target: &Path| match std::fs::read(target) {
            Ok(bytes) => self.existed && bytes == self.text.as_bytes(),
            Err(e) => e.kind() == ErrorKind::NotFound && !self.existed,
        };
        let written = atomic::replace_checked(path, self.text().as_bytes(), &how, as_read)
            .map_err(|e| write_failure(shown, e))?;
        if written.is_none() {
            return Err(changed_meanwhile(shown));
        }
        Ok(())
    }
}

/// The error for a settings file someone changed while plan worked on it.
fn changed_meanwhile(shown: &str) -> anyhow::Error {
    Exit::env_hint(
        format!("{shown} changed while plan was working on it; nothing was written"),
        "rerun the command: it works on the file as it is now",
    )
}

/// A settings file, with comments where the host allows them; `None` when it does
/// not exist.
pub fn read_settings(path: &Path, shown: &str, comments: bool) -> Result<Option<Settings>> {
    let Some(text) = read_text(path, shown)? else {
        return Ok(None);
    };
    let doc = if comments {
        jsonc::parse(&text).map_err(|e| match e {
            Invalid::Syntax {
                line,
                column,
                message,
            } => Exit::usage_hint(format!("{shown}:{line}:{column}: not valid JSON: {message}"), "fix it (comments are fine, trailing commas are not) and rerun; nothing was changed"),
            other => invalid(shown, other),
        })?
    } else {
        hooks::parse(&text).map_err(|e| invalid(shown, e))?
    };
    Ok(Some(Settings {
        text,
        before: doc.clone(),
        doc,
        existed: true,
    }))
}

pub fn invalid(shown: &str, invalid: Invalid) -> anyhow::Error {
    let (message, hint) = match invalid {
        Invalid::Syntax {
            line,
            column,
            message,
        } => (
            format!("{shown}:{line}:{column}: not valid JSON: {message}"),
            "fix it (JSON allows no comments or trailing commas) and rerun; nothing was changed"
                .to_string(),
        ),
        Invalid::NotAnObject => (
            format!("{shown}: not a JSON object"),
            "a settings file holds one object, { … }; nothing was changed".to_string(),
        ),
        Invalid::Shape { key, expected } => (
            format!("{shown}: `{key}` is not {expected}"),
            "plan adds its hooks there; fix it by hand and rerun; nothing was changed".to_string(),
        ),
        Invalid::OtherPlugin(name) => (
            format!("{shown} belongs to the plugin \"{name}\""),
            "choose another --plugin directory; nothing was changed".to_string(),
        ),
    };
    Exit::usage_hint(message, hint)
}

/// Atomic replace: a temp file beside the target, fsync, rename. Missing parent
/// directories are created; a symlinked file (dotfiles) is written through.
pub fn write_atomic(path: &Path, shown: &str, content: &str) -> Result<()> {
    let how = atomic::Replace {
        new_file: atomic::NewFile::Mode(0o644),
        ..atomic::Replace::DURABLE
    };
    atomic::replace(path, content.as_bytes(), &how).map_err(|e| write_failure(shown, e))?;
    Ok(())
}

fn write_failure(shown: &str, e: atomic::Failure) -> anyhow::Error {
    match e {
        atomic::Failure::ReadOnly => Exit::env_hint(
            format!("{shown} is read-only; nothing was changed"),
            "make it writable (chmod u+w) and rerun",
        ),
        atomic::Failure::Dir(_, e) | atomic::Failure::Io(e) => {
            Exit::env(format!("cannot write {shown}: {e}; nothing was changed"))
        }
    }
}

/// One line per entry that changed.
pub fn listing(changes: &[Change]) -> String {
    changes
        .iter()
        .filter_map(|c| {
            let verb = match c.action {
                Action::Added => "added",
                Action::Updated => "updated",
                Action::Removed => "removed",
                Action::Unchanged => return None,
            };
            Some(format!("  {verb} {}: {}\n", c.event, c.command))
        })
        .collect()
}

/// Writes what is left; a file left as `{}` held only our hooks, so it goes.
pub fn settle(place: &Place, settings: &Settings) -> Result<String> {
    if !settings.doc.is_empty() {
        settings.save(&place.path, &place.shown)?;
        return Ok(String::new());
    }
    crate::store::pause_for_test();
    if read_text(&place.path, &place.shown)?.as_deref() != Some(settings.text.as_str()) {
        return Err(changed_meanwhile(&place.shown));
    }
    remove(&place.path, &place.shown)?;
    prune(place);
    Ok(format!(
        "  deleted {}: nothing else was in it\n",
        place.shown
    ))
}

/// In a repository, the directories a deleted file leaves empty (`.claude/`,
/// `.pi/extensions/`) go too; nothing is pruned in the home directory.
pub fn prune(place: &Place) {
    let Some(root) = &place.root else {
        return;
    };
    for dir in place.path.ancestors().skip(1) {
        if dir == root || !dir.starts_with(root) || crate::atomic::remove_empty_dir(dir).is_err() {
            break;
        }
    }
}

pub fn remove(path: &Path, shown: &str) -> Result<()> {
    match crate::atomic::remove(path) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(()),
        Err(e) => Err(Exit::env(format!("cannot delete {shown}: {e}"))),
    }
}

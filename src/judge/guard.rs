//! What the CI re-judge's judge is made of (its program as PATH finds it, the
//! interpreter its `#!` line names, its npm package, the config directories it
//! reads from HOME), fingerprinted before the pull request's verify runs and
//! checked after: code the gate runs must not swap the judge or point it, with the
//! CI's key, at a server of its own. It runs nothing and changes nothing.

use std::fs;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use anyhow::Result;
use sha2::{Digest, Sha256};

use super::backend::Backend;
use super::run::Judge;
use crate::exec;
use crate::exit::Exit;
use crate::hosts::Host;

/// Past this many entries a config tree is not walked whole, and the gate refuses:
/// an unchecked corner is where a redirect would hide.
const MAX_ENTRIES: usize = 100_000;

/// Files up to this size are hashed, and executables whatever their size (they are
/// what runs); larger ones (session logs, caches) are told apart by their metadata,
/// whose change time no write escapes.
const HASH_UP_TO: u64 = 1024 * 1024;

/// One file or directory as it was: what it names and how it looked.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Seen {
    path: PathBuf,
    /// `absent`, or kind, size, mode, inode, change and modification times.
    state: String,
    /// The SHA-256 of a file's bytes (a link's target), empty where not taken.
    content: String,
}

/// Whether a walk reads and hashes what it finds, or only looks at its metadata.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// Metadata only. Any write, rename over or chmod moves a file's change time,
    /// which only root can set back: enough after each verify, without reading
    /// a 200 MB judge binary once per goal.
    Metadata,
    /// Every file's bytes hashed again too: after the last verify, before any judge.
    Content,
}

/// The judge's files as they were when taken.
#[derive(Debug)]
pub struct Guard {
    /// The program name on PATH (or the path judge.command gives) and where it
    /// resolved: a new file earlier on PATH is a swap too.
    program: Option<(String, Option<PathBuf>)>,
    seen: Vec<Seen>,
    /// Every PATH directory and its entries, by metadata: the judge runs other
    /// programs by name (claude runs `git`), so one planted or rewritten in a
    /// directory PATH names would run with the key in its environment.
    on_path: Vec<Seen>,
}

impl Guard {
    /// Fingerprints `judge`'s program and config under `home`. Fails closed (exit 3)
    /// on a config tree too large to check whole.
    pub fn take(judge: &Judge, home: Option<&Path>) -> Result<Guard> {
        let program = program_name(judge).map(|name| {
            let found = locate(&name);
            (name, found)
        });
        let mut paths: Vec<PathBuf> = Vec::new();
        if let Some((_, Some(found))) = &program {
            paths.extend(program_files(found));
        }
        if let Some(home) = home {
            paths.extend(config_paths(judge.backend, home));
        }
        paths.sort();
        paths.dedup();
        // A file inside a directory walked anyway (the binary in its npm package) is
        // read once.
        let covered = |p: &PathBuf| paths.iter().any(|q| q != p && p.starts_with(q));
        let roots: Vec<&PathBuf> = paths.iter().filter(|p| !covered(p)).collect();
        let mut seen = Vec::new();
        for path in roots {
            walk(path, &mut seen, Depth::Content)?;
        }
        Ok(Guard {
            program,
            seen,
            on_path: on_path(),
        })
    }

    /// Exit 3 naming the deepest of the judge's files that is not as it was, at
    /// `depth`.
    pub fn check(&self, depth: Depth) -> Result<()> {
        let hint = "the pull request's code changed what the judge runs or reads; the gate judges nothing after that. Run the gate as two jobs (`plan install ci`), so the job holding the judge's key runs none of the pull request's code";
        if let Some((name, was)) = &self.program {
            let now = locate(name);
            if &now != was {
                return Err(Exit::env_hint(
                    format!(
                        "refusing the gate: the judge program {name} resolved to {} before verify ran and to {} after",
                        shown(was.as_deref()),
                        shown(now.as_deref())
                    ),
                    hint,
                ));
            }
        }
        let mut now = Vec::new();
        let mut roots: Vec<&Path> = Vec::new();
        for s in &self.seen {
            if !roots.iter().any(|r| s.path.starts_with(r)) {
                roots.push(&s.path);
            }
        }
        for root in roots {
            walk(root, &mut now, depth)?;
        }
        // The judge's own files first: a change there is named as the judge's.
        if let Some(path) = differs(&self.seen, &now, depth) {
            return Err(Exit::env_hint(
                format!(
                    "refusing the gate: the judge's file {} changed while the pull request's verify ran",
                    path.display()
                ),
                hint,
            ));
        }
        match differs(&self.on_path, &on_path(), Depth::Metadata) {
            None => Ok(()),
            Some(path) => Err(Exit::env_hint(
                format!(
                    "refusing the gate: {} on PATH changed while the pull request's verify ran (the judge runs programs from PATH by name)",
                    path.display()
                ),
                hint,
            )),
        }
    }
}

fn shown(path: Option<&Path>) -> String {
    path.map_or("nothing".to_string(), |p| p.display().to_string())
}

/// The program the judge runs: the backend's on PATH, or judge.command's first word.
fn program_name(judge: &Judge) -> Option<String> {
    match judge.backend {
        Backend::Command => judge.command.first().cloned(),
        other => other.program().map(str::to_string),
    }
}

/// Where a program name resolves: an absolute path as it is, a bare name on PATH.
fn locate(name: &str) -> Option<PathBuf> {
    if name.starts_with('/') {
        Some(PathBuf::from(name))
    } else if name.contains('/') {
        None
    } else {
        exec::find_on_path(name)
    }
}

/// The program's file, the file its symlinks end at, the interpreter its `#!`
/// line names (through `env`), and the npm package it lives in.
fn program_files(found: &Path) -> Vec<PathBuf> {
    let mut out = vec![found.to_path_buf()];
    let Ok(real) = fs::canonicalize(found) else {
        return out;
    };
    out.push(real.clone());
    if let Some(package) = npm_package(&real) {
        out.push(package);
    }
    if let Some(interpreter) = interpreter(&real) {
        if let Ok(real) = fs::canonicalize(&interpreter) {
            out.push(real);
        }
        out.push(interpreter);
    }
    out
}

/// The package directory under `node_modules` that holds `file`, if one does.
fn npm_package(file: &Path) -> Option<PathBuf> {
    let mut dir = file.parent()?;
    loop {
        let parent = dir.parent()?;
        let scoped = parent
            .parent()
            .is_some_and(|p| p.file_name().is_some_and(|n| n == "node_modules"))
            && parent
                .file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('@'));
        if parent.file_name().is_some_and(|n| n == "node_modules") || scoped {
            return Some(dir.to_path_buf());
        }
        dir = parent;
    }
}

/// The interpreter a `#!` line names; `env NAME` is looked up on PATH.
fn interpreter(file: &Path) -> Option<PathBuf> {
    use std::io::Read;
    let mut head = [0u8; 256];
    let n = fs::File::open(file).ok()?.read(&mut head).ok()?;
    let line = head[..n].strip_prefix(b"#!")?;
    let line = String::from_utf8_lossy(line);
    let line = line.lines().next()?;
    let mut words = line.split_whitespace();
    let first = words.next()?;
    if Path::new(first).file_name().is_some_and(|n| n == "env") {
        let name = words.find(|w| !w.starts_with('-') && !w.contains('='))?;
        return locate(name);
    }
    Some(PathBuf::from(first))
}

/// The config a backend reads from HOME (where its host keeps user settings and
/// credentials), and plan's own user config, which names the judge.
fn config_paths(backend: Backend, home: &Path) -> Vec<PathBuf> {
    let var = |name: &str| {
        crate::env::os(name)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    };
    let mut out = vec![home.join(".config/plan")];
    let own: Vec<PathBuf> = match backend {
        Backend::Host(Host::Claude) => {
            let mut claude = vec![
                home.join(".claude"),
                home.join(".claude.json"),
                PathBuf::from("/etc/claude-code"),
            ];
            claude.extend(var("CLAUDE_CONFIG_DIR"));
            claude
        }
        Backend::Host(Host::Codex) => vec![var("CODEX_HOME").unwrap_or(home.join(".codex"))],
        Backend::Host(Host::Gemini) => vec![home.join(".gemini")],
        Backend::Host(Host::Qwen) => vec![home.join(".qwen")],
        Backend::Host(Host::Droid) => vec![home.join(".factory")],
        Backend::Host(Host::Pi) => vec![home.join(".pi")],
        Backend::Host(Host::Copilot) => vec![home.join(".copilot")],
        Backend::Host(Host::Opencode) => vec![
            var("XDG_CONFIG_HOME")
                .unwrap_or(home.join(".config"))
                .join("opencode"),
        ],
        Backend::Llm => vec![var("LLM_USER_PATH").unwrap_or(home.join(".config/io.datasette.llm"))],
        Backend::Command | Backend::None => Vec::new(),
    };
    out.extend(own);
    out
}

/// Records `path` and, for a directory, everything under it (symlinks are not
/// followed, their targets are recorded as text).
fn walk(path: &Path, out: &mut Vec<Seen>, depth: Depth) -> Result<()> {
    let mut stack = vec![path.to_path_buf()];
    let mut count = 0;
    while let Some(path) = stack.pop() {
        count += 1;
        if count > MAX_ENTRIES {
            return Err(Exit::env_hint(
                format!(
                    "refusing the gate: {} holds more than {MAX_ENTRIES} entries, too many to check that verify left the judge's config alone",
                    path.display()
                ),
                "run the gate on a fresh runner, or as two jobs (`plan install ci`)",
            ));
        }
        let meta = match fs::symlink_metadata(&path) {
            Ok(meta) => meta,
            Err(_) => {
                out.push(Seen {
                    path,
                    state: "absent".to_string(),
                    content: String::new(),
                });
                continue;
            }
        };
        let kind = meta.file_type();
        let content = if kind.is_symlink() {
            fs::read_link(&path)
                .map(|t| t.display().to_string())
                .unwrap_or_default()
        } else if depth == Depth::Content
            && kind.is_file()
            && (meta.len() <= HASH_UP_TO || meta.mode() & 0o111 != 0)
        {
            sha256(&path).unwrap_or_else(|e| format!("unreadable: {e}"))
        } else {
            String::new()
        };
        let state = state_of(&meta);
        if kind.is_dir()
            && let Ok(entries) = fs::read_dir(&path)
        {
            let mut children: Vec<PathBuf> = entries.flatten().map(|e| e.path()).collect();
            children.sort();
            stack.extend(children.into_iter().rev());
        }
        out.push(Seen {
            path,
            state,
            content,
        });
    }
    Ok(())
}

/// The deepest path whose record differs between `was` and `now`: a new file
/// changes its directory too, and the file is what the message should name.
fn differs(was: &[Seen], now: &[Seen], depth: Depth) -> Option<PathBuf> {
    use std::collections::HashSet;
    let key = |s: &Seen| {
        let content = match depth {
            Depth::Metadata => String::new(),
            Depth::Content => s.content.clone(),
        };
        (s.path.clone(), s.state.clone(), content)
    };
    let was_keys: HashSet<_> = was.iter().map(key).collect();
    let now_keys: HashSet<_> = now.iter().map(key).collect();
    was.iter()
        .filter(|s| !now_keys.contains(&key(s)))
        .chain(now.iter().filter(|n| !was_keys.contains(&key(n))))
        .map(|s| &s.path)
        .max_by_key(|p| p.components().count())
        .cloned()
}

/// Each directory PATH names and its direct entries, by metadata only (no walk
/// below them, nothing read): a directory absent now and made later counts too.
fn on_path() -> Vec<Seen> {
    let mut out = Vec::new();
    let Some(path) = crate::env::os("PATH") else {
        return out;
    };
    let mut dirs: Vec<PathBuf> = std::env::split_paths(&path)
        .filter(|d| d.is_absolute())
        .collect();
    dirs.sort();
    dirs.dedup();
    for dir in dirs {
        out.push(Seen {
            state: metadata_state(&dir),
            path: dir.clone(),
            content: String::new(),
        });
        if let Ok(entries) = fs::read_dir(&dir) {
            for entry in entries.flatten().take(MAX_ENTRIES) {
                let path = entry.path();
                out.push(Seen {
                    state: metadata_state(&path),
                    path,
                    content: String::new(),
                });
            }
        }
    }
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

/// [`state_of`] the path itself (a link is not followed), or `absent`.
fn metadata_state(path: &Path) -> String {
    match fs::symlink_metadata(path) {
        Err(_) => "absent".to_string(),
        Ok(meta) => state_of(&meta),
    }
}

/// Kind, size, mode, inode and change and modification times: what any write,
/// rename over or chmod moves.
fn state_of(meta: &fs::Metadata) -> String {
    format!(
        "{:?} {} {:o} {} {}.{} {}.{}",
        meta.file_type(),
        meta.len(),
        meta.mode(),
        meta.ino(),
        meta.ctime(),
        meta.ctime_nsec(),
        meta.mtime(),
        meta.mtime_nsec()
    )
}

/// A file's SHA-256, read in pieces: a judge binary is hundreds of megabytes.
fn sha256(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut hasher = Sha256::new();
    let mut file = fs::File::open(path)?;
    let mut buf = vec![0; 1 << 20];
    loop {
        match file.read(&mut buf)? {
            0 => return Ok(hex(&hasher.finalize())),
            n => hasher.update(&buf[..n]),
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_package_of_a_scoped_and_a_plain_npm_cli() {
        assert_eq!(
            npm_package(Path::new(
                "/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js"
            )),
            Some(PathBuf::from(
                "/usr/lib/node_modules/@anthropic-ai/claude-code"
            ))
        );
        assert_eq!(
            npm_package(Path::new("/n/node_modules/llm-cli/bin/run.js")),
            Some(PathBuf::from("/n/node_modules/llm-cli"))
        );
        assert_eq!(npm_package(Path::new("/usr/bin/claude")), None);
    }

    #[test]
    fn a_changed_or_new_config_file_is_named() {
        let dir = tempfile::tempdir().unwrap();
        let home = dir.path();
        fs::create_dir_all(home.join(".claude")).unwrap();
        fs::write(home.join(".claude/settings.json"), "{}").unwrap();
        let judge = Judge {
            backend: Backend::Host(Host::Claude),
            model: None,
            command: Vec::new(),
            timeout: std::time::Duration::from_secs(1),
        };
        let guard = Guard::take(&judge, Some(home)).unwrap();
        guard.check(Depth::Content).unwrap();
        fs::write(home.join(".claude/settings.json"), "{\"env\":{}}").unwrap();
        let err = guard.check(Depth::Metadata).unwrap_err().to_string();
        assert!(err.contains(".claude/settings.json changed"), "{err}");
        let guard = Guard::take(&judge, Some(home)).unwrap();
        fs::write(home.join(".claude.json"), "{}").unwrap();
        let err = guard.check(Depth::Content).unwrap_err().to_string();
        assert!(err.contains(".claude.json changed"), "{err}");
    }
}

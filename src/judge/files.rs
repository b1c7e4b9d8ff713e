//! Reads the files the judge is shown in full: the ones the verify command names and
//! the evidence paths. Bounded per file and in total; directories are listed, not
//! read; nothing outside the repository is opened.

use std::fs;
use std::io::Read;
use std::path::{Component, Path};

use super::prompt::{FileBody, FileFacts, FileRole};
use crate::verify::Verify;

/// Bytes shown of one file, and of all files together.
pub const FILE_BYTES: usize = 20 * 1024;
pub const TOTAL_BYTES: usize = 100 * 1024;
/// Entries listed of one directory.
pub const DIR_ENTRIES: usize = 200;

/// The repository files named by words of `verify` (`test -s NOTES.md`, `./bench/p95`),
/// then the evidence `paths` (repository-relative, already checked), each once.
pub fn gather(root: &Path, verify: Option<&Verify>, paths: &[String]) -> Vec<FileFacts> {
    let mut wanted: Vec<(String, FileRole)> = verify
        .map(|v| verify_paths(root, v))
        .unwrap_or_default()
        .into_iter()
        .map(|rel| (rel, FileRole::Verify))
        .collect();
    for rel in paths {
        let rel = rel.trim_end_matches('/').to_string();
        if !wanted.iter().any(|(p, _)| *p == rel) {
            wanted.push((rel, FileRole::Evidence));
        }
    }
    let mut budget = TOTAL_BYTES;
    wanted
        .into_iter()
        .map(|(path, role)| {
            let body = read(&root.join(&path), &mut budget);
            FileFacts { path, role, body }
        })
        .collect()
}

/// The regular files inside the repository that words of `verify` name
/// (`test -s NOTES.md`, `./bench/p95`, `--config=ci.toml`), each once.
pub fn verify_paths(root: &Path, verify: &Verify) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let words = verify.chain.iter().flat_map(|p| &p.commands).flatten();
    for word in words {
        if let Some(rel) = in_repo(root, value(word))
            && root.join(&rel).is_file()
            && !out.contains(&rel)
        {
            out.push(rel);
        }
    }
    out
}

/// What a word names: the value of `--config=ci.toml`, else the word.
fn value(word: &str) -> &str {
    word.rsplit_once('=').map_or(word, |(_, v)| v)
}

/// The names make reads its rules from, in its order.
const MAKEFILES: [&str; 3] = ["GNUmakefile", "makefile", "Makefile"];

/// Files followed from one verify command: how many, how deep, and the largest read.
const CLOSURE_FILES: usize = 256;
const CLOSURE_DEPTH: usize = 4;
const CLOSURE_BYTES: u64 = 1024 * 1024;

/// The files a verify rests on, as far as plan can tell without running it: the
/// files its words name, the files inside directories its words name
/// (`pytest tests`), the Makefile of `make`, and, followed through their text, the
/// scripts those name in turn (`. ./checks/readme.sh`), each once. Recorded at
/// sign-off so that gutting any of them later is seen; a file reached only through
/// a tool's own conventions (the sources `cargo test` compiles) is not.
pub fn verify_closure(root: &Path, verify: &Verify) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let add = |rel: String, out: &mut Vec<String>| {
        if out.len() < CLOSURE_FILES && !out.contains(&rel) {
            out.push(rel);
        }
    };
    for program in &verify.chain {
        for command in &program.commands {
            if command.first().is_some_and(|w| w == "make") {
                for name in MAKEFILES {
                    if root.join(name).is_file() {
                        add(name.to_string(), &mut out);
                    }
                }
            }
            for word in command {
                let Some(rel) = in_repo(root, value(word)) else {
                    continue;
                };
                let path = root.join(&rel);
                if path.is_file() {
                    add(rel, &mut out);
                } else if path.is_dir() {
                    for file in files_under(&path, CLOSURE_FILES) {
                        if let Ok(sub) = file.strip_prefix(root) {
                            add(sub.to_string_lossy().into_owned(), &mut out);
                        }
                    }
                }
            }
        }
    }
    let mut from = 0;
    for _ in 0..CLOSURE_DEPTH {
        let upto = out.len();
        for i in from..upto {
            for rel in named_in(root, &out[i]) {
                add(rel, &mut out);
            }
        }
        if out.len() == upto {
            break;
        }
        from = upto;
    }
    out
}

/// Repository scripts that words of the text file `rel` name, relative to the root
/// (where verify runs) or to the file's own directory.
fn named_in(root: &Path, rel: &str) -> Vec<String> {
    let path = root.join(rel);
    let small = fs::metadata(&path).is_ok_and(|m| m.is_file() && m.len() <= CLOSURE_BYTES);
    let Some(text) = small
        .then(|| fs::read(&path).ok())
        .flatten()
        .and_then(|b| String::from_utf8(b).ok())
    else {
        return Vec::new();
    };
    let dir = Path::new(rel).parent().unwrap_or(Path::new(""));
    let mut out = Vec::new();
    let words = text.split(|c: char| c.is_whitespace() || "\"'`;|&<>(){}[],=:$".contains(c));
    for word in words.filter(|w| w.len() > 1 && (w.contains('/') || w.contains('.'))) {
        let beside = dir.join(word);
        let candidates = [Some(word.to_string()), beside.to_str().map(str::to_string)];
        for candidate in candidates.into_iter().flatten() {
            if let Some(found) = in_repo(root, &candidate)
                && is_script(&root.join(&found))
                && found != rel
                && !out.contains(&found)
            {
                out.push(found);
                break;
            }
        }
    }
    out
}

/// A file a check could run or load: executable, or named like code. The work a
/// script checks (`test -s README.md`) is not followed: it is meant to change.
fn is_script(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    const CODE: &[&str] = &[
        "sh", "bash", "zsh", "fish", "py", "rb", "pl", "js", "mjs", "cjs", "ts", "lua", "mk",
        "tcl", "php", "awk", "sed", "jq",
    ];
    let Ok(meta) = fs::metadata(path) else {
        return false;
    };
    let named = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| CODE.contains(&e))
        || path
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| MAKEFILES.contains(&n));
    meta.is_file() && (named || meta.permissions().mode() & 0o111 != 0)
}

/// Regular files below `dir`, at most `cap`, in a stable order; `.git` is skipped.
fn files_under(dir: &Path, cap: usize) -> Vec<std::path::PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(next) = stack.pop() {
        let Ok(entries) = fs::read_dir(&next) else {
            continue;
        };
        let mut entries: Vec<_> = entries.flatten().collect();
        entries.sort_by_key(|e| std::cmp::Reverse(e.file_name()));
        for entry in entries {
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() && entry.file_name() != ".git" {
                stack.push(entry.path());
            } else if kind.is_file() && out.len() < cap {
                out.push(entry.path());
            }
        }
    }
    out.sort();
    out
}

/// `word` as a relative path inside the repository, or `None` when it is absolute,
/// climbs out with `..`, points into `.git`, or (through a symlink) leads outside.
pub fn in_repo(root: &Path, word: &str) -> Option<String> {
    if word.is_empty() || word.starts_with('-') {
        return None;
    }
    let path = Path::new(word);
    let mut parts = Vec::new();
    for part in path.components() {
        match part {
            Component::Normal(p) => parts.push(p.to_str()?),
            Component::CurDir => {}
            _ => return None,
        }
    }
    if parts.is_empty() || parts[0] == ".git" {
        return None;
    }
    let rel = parts.join("/");
    let real = fs::canonicalize(root.join(&rel)).ok()?;
    let root = fs::canonicalize(root).ok()?;
    real.starts_with(&root).then_some(rel)
}

fn read(path: &Path, budget: &mut usize) -> FileBody {
    let not_shown = |why: String| FileBody::NotShown { why };
    let meta = match fs::metadata(path) {
        Ok(meta) => meta,
        Err(e) => return not_shown(format!("cannot read it: {e}")),
    };
    if meta.is_dir() {
        return listing(path);
    }
    // Opening a fifo would wait forever; verify may have put one there.
    if !meta.is_file() {
        return not_shown("not a regular file".to_string());
    }
    let size = meta.len();
    if *budget == 0 {
        return not_shown(format!(
            "{size} bytes, over the {TOTAL_BYTES}-byte budget for all files; open it yourself"
        ));
    }
    let take = FILE_BYTES.min(*budget);
    let mut bytes = Vec::with_capacity(take.min(size as usize));
    let read = fs::File::open(path).and_then(|f| f.take(take as u64).read_to_end(&mut bytes));
    if let Err(e) = read {
        return not_shown(format!("cannot read it: {e}"));
    }
    if bytes.contains(&0) {
        return not_shown(format!("binary, {size} bytes"));
    }
    *budget -= bytes.len();
    // A cut can split a character; the lossy decode marks it instead of failing.
    let text = String::from_utf8_lossy(&bytes).into_owned();
    FileBody::Text { text, size }
}

fn listing(path: &Path) -> FileBody {
    let Ok(dir) = fs::read_dir(path) else {
        return FileBody::NotShown {
            why: "a directory that cannot be listed".to_string(),
        };
    };
    let mut entries: Vec<String> = dir
        .filter_map(Result::ok)
        .map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            match e.file_type() {
                Ok(t) if t.is_dir() => format!("{name}/"),
                _ => name,
            }
        })
        .collect();
    entries.sort();
    let total = entries.len();
    entries.truncate(DIR_ENTRIES);
    FileBody::Listing { entries, total }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn verify(line: &str) -> Verify {
        crate::verify::parse(line).unwrap()
    }

    #[test]
    fn verify_words_that_are_repository_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        fs::write(root.join("NOTES.md"), "notes\n").unwrap();
        fs::create_dir_all(root.join("bench")).unwrap();
        fs::write(root.join("bench/p95"), "#!/bin/sh\n").unwrap();
        fs::write(root.join("out.json"), "{}").unwrap();
        let v = verify("test -s NOTES.md && ./bench/p95 --out=out.json -q ../x /etc/passwd src");
        let files = gather(root, Some(&v), &["NOTES.md".into(), "bench".into()]);
        let shown: Vec<(&str, FileRole)> =
            files.iter().map(|f| (f.path.as_str(), f.role)).collect();
        assert_eq!(
            shown,
            [
                ("NOTES.md", FileRole::Verify),
                ("bench/p95", FileRole::Verify),
                ("out.json", FileRole::Verify),
                ("bench", FileRole::Evidence),
            ]
        );
        assert_eq!(
            files[0].body,
            FileBody::Text {
                text: "notes\n".into(),
                size: 6
            }
        );
        assert_eq!(
            files[3].body,
            FileBody::Listing {
                entries: vec!["p95".into()],
                total: 1
            }
        );
    }

    #[test]
    fn a_symlink_out_of_the_repository_is_not_read() {
        let dir = tempfile::tempdir().unwrap();
        let outside = tempfile::tempdir().unwrap();
        fs::write(outside.path().join("secret"), "s").unwrap();
        std::os::unix::fs::symlink(outside.path().join("secret"), dir.path().join("link")).unwrap();
        assert!(gather(dir.path(), Some(&verify("cat link")), &[]).is_empty());
    }

    #[test]
    fn sizes_are_bounded() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let big = "x".repeat(FILE_BYTES * 2);
        let names: Vec<String> = (0..7).map(|i| format!("f{i}")).collect();
        for name in &names {
            fs::write(root.join(name), &big).unwrap();
        }
        fs::write(root.join("bin"), b"a\0b").unwrap();
        let mut paths = names.clone();
        paths.insert(0, "bin".into());
        let files = gather(root, None, &paths);
        assert_eq!(
            files[0].body,
            FileBody::NotShown {
                why: "binary, 3 bytes".into()
            }
        );
        let mut shown = 0;
        for file in &files[1..6] {
            let FileBody::Text { text, size } = &file.body else {
                panic!("{file:?}")
            };
            assert_eq!((text.len(), *size as usize), (FILE_BYTES, big.len()));
            shown += text.len();
        }
        assert_eq!(shown, TOTAL_BYTES);
        assert!(
            matches!(&files[6].body, FileBody::NotShown { why } if why.contains("budget")),
            "{:?}",
            files[6]
        );
        fs::create_dir(root.join("many")).unwrap();
        for i in 0..DIR_ENTRIES + 5 {
            fs::write(root.join(format!("many/{i:04}")), "").unwrap();
        }
        let files = gather(root, None, &["many/".into()]);
        let FileBody::Listing { entries, total } = &files[0].body else {
            panic!()
        };
        assert_eq!((entries.len(), *total), (DIR_ENTRIES, DIR_ENTRIES + 5));
    }
}

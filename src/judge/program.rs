//! The judge's program on disk: where its name resolves, its SHA-256 for the record,
//! and the refusal of one that lives inside the repository, where the agent under
//! review could have written it.

use std::fs;
use std::path::{Path, PathBuf};

use anyhow::Result;
use sha2::{Digest, Sha256};

use crate::exec;
use crate::exit::Exit;

/// The file a judge's argv[0] names, as it was when plan checked it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Program {
    /// With every symlink resolved.
    pub path: PathBuf,
    /// Of the file's bytes, lowercase hex; `None` when it could not be read.
    pub sha256: Option<String>,
}

/// Where `program` resolves: a name with a slash against `cwd` (where the judge
/// starts), a bare name on PATH, as the process runner finds it. `None`: not found.
pub fn locate(program: &str, cwd: &Path) -> Option<PathBuf> {
    if program.contains('/') {
        let path = cwd.join(program);
        fs::metadata(&path)
            .is_ok_and(|m| m.is_file())
            .then_some(path)
    } else {
        exec::find_on_path(program)
    }
}

/// The judge program `program` names, resolved and hashed. Fails closed (exit 3) when
/// it resolves inside `root`: the agent could have written it, and a judge it wrote
/// accepts whatever it is told to. `cwd` is where the judge starts.
pub fn resolve(program: &str, cwd: &Path, root: &Path) -> Result<Option<Program>> {
    let Some(found) = locate(program, cwd) else {
        return Ok(None);
    };
    let path = fs::canonicalize(&found).unwrap_or(found);
    let inside = fs::canonicalize(root).is_ok_and(|root| path.starts_with(&root));
    if inside {
        return Err(Exit::env_hint(
            format!(
                "refusing the judge program {}: it resolves to {}, inside the repository, where the agent under review can write",
                program,
                path.display()
            ),
            "install the judge outside the repository (or put a directory outside it first on PATH); for a command judge, give judge.command an absolute path outside the repository",
        ));
    }
    let sha256 = fs::read(&path)
        .ok()
        .map(|bytes| hex(&Sha256::digest(&bytes)));
    Ok(Some(Program { path, sha256 }))
}

/// Refuses, when `plan judge command` sets it (exit 2), a judge program that would
/// resolve inside `root`: a relative path (a command judge starts in the root), an
/// absolute one inside it, or a bare name PATH finds there. Every sign-off would
/// refuse it anyway; saying so now spares finding out at the first one.
pub fn refuse_inside(program: &str, root: &Path) -> Result<()> {
    let relative = program.contains('/') && !Path::new(program).is_absolute();
    let found = locate(program, root)
        .and_then(|p| arg_inside(&[String::new(), p.display().to_string()], root, root));
    let inside = relative || found.is_some();
    if !inside {
        return Ok(());
    }
    let place = match &found {
        Some(path) if !relative => {
            format!("it resolves to {}, inside the repository", path.display())
        }
        _ => "a relative path names a file in the repository (a command judge starts in an empty directory of its own, where it names nothing)"
            .to_string(),
    };
    Err(Exit::usage_hint(
        format!(
            "refusing the judge program {program}: {place}, where the agent under review could edit it, so every sign-off would refuse it"
        ),
        "put the judge outside the repository and give its absolute path, e.g. `plan judge command ~/.local/bin/my-judge` (the shell expands ~)",
    ))
}

/// The first of a command judge's arguments that names a regular file inside
/// `root` (relative to `cwd`, where the judge starts, or absolute): `sh judge.sh`
/// runs a script the agent could have written as surely as `./judge.sh` does.
/// A directory inside `root` in an `env PATH=…` setting counts too: the program
/// after it is found there; and so does the program behind `env`, `timeout` or
/// `nice` (`command`'s first word is the program) resolving inside `root`.
pub fn arg_inside(command: &[String], cwd: &Path, root: &Path) -> Option<PathBuf> {
    let root = fs::canonicalize(root).ok()?;
    let behind = super::inline::behind_wrappers(command, &super::inline::OnDisk);
    if let Some(program) = behind.filter(|p| p.starts_with(&root)) {
        return Some(program);
    }
    let args = command.get(1..).unwrap_or_default();
    let dirs = args.iter().filter_map(|arg| arg.strip_prefix("PATH="));
    let inside = dirs.flat_map(|dirs| dirs.split(':')).find_map(|dir| {
        let real = fs::canonicalize(cwd.join(dir)).ok()?;
        real.starts_with(&root).then_some(real)
    });
    if inside.is_some() {
        return inside;
    }
    args.iter().find_map(|arg| {
        let path = cwd.join(arg);
        if !fs::metadata(&path).ok()?.is_file() {
            return None;
        }
        let real = fs::canonicalize(&path).ok()?;
        real.starts_with(&root).then_some(real)
    })
}

/// The refusal of a command judge whose argument [`arg_inside`] found.
pub fn arg_inside_message(path: &Path) -> (String, &'static str) {
    (
        format!(
            "refusing the command judge: its argument names {}, inside the repository, where the agent under review could edit it (a file, a PATH directory the program is found in, or the program `env`, `timeout` or `nice` runs)",
            path.display()
        ),
        "put the judge's script outside the repository and give its absolute path, e.g. `plan judge command sh ~/.local/share/my-judge.sh`",
    )
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hashes_the_file_and_refuses_one_inside_the_root() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        let outside = dir.path().join("judge");
        fs::create_dir_all(&root).unwrap();
        fs::write(&outside, "abc").unwrap();
        let found = resolve(outside.to_str().unwrap(), &root, &root)
            .unwrap()
            .unwrap();
        assert_eq!(
            found.sha256.as_deref(),
            Some("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        );
        fs::write(root.join("judge.sh"), "abc").unwrap();
        let err = resolve("./judge.sh", &root, &root).unwrap_err().to_string();
        assert!(err.contains("inside the repository"), "{err}");
        // A link from outside into the repository is inside.
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(root.join("judge.sh"), &link).unwrap();
        assert!(resolve(link.to_str().unwrap(), &root, &root).is_err());
        assert_eq!(resolve("./missing", &root, &root).unwrap(), None);
    }

    /// `env PATH=REPO/bin llm` runs the agent's `llm` as surely as `./bin/llm`.
    #[test]
    fn a_path_setting_naming_a_directory_inside_the_root_is_inside() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("repo");
        fs::create_dir_all(root.join("bin")).unwrap();
        fs::create_dir_all(dir.path().join("tools")).unwrap();
        let words = |w: &[&str]| -> Vec<String> { w.iter().map(|s| s.to_string()).collect() };
        let tools = format!("PATH={}", dir.path().join("tools").display());
        let bin = format!("PATH=/usr/bin:{}", root.join("bin").display());
        assert_eq!(
            arg_inside(&words(&["env", &tools, "llm"]), &root, &root),
            None
        );
        assert_eq!(
            arg_inside(&words(&["env", &bin, "llm"]), &root, &root),
            Some(fs::canonicalize(root.join("bin")).unwrap())
        );
        // Red team (stop79-red2), held: the repository's directory reached through
        // `..` from outside, or through a link outside it, is inside all the same.
        let dotted = format!("PATH={}/tools/../repo/./bin", dir.path().display());
        std::os::unix::fs::symlink(root.join("bin"), dir.path().join("link")).unwrap();
        let linked = format!("PATH=/usr/bin:{}", dir.path().join("link").display());
        for setting in [dotted, linked] {
            assert_eq!(
                arg_inside(&words(&["env", &setting, "llm"]), &root, &root),
                Some(fs::canonicalize(root.join("bin")).unwrap()),
                "{setting}"
            );
        }
    }
}

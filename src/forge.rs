//! Keeping a branch mergeable on a forge that runs no merge driver (`plan sync`):
//! when a merge of the base into the branch conflicts, as the forge's own merge
//! would, only in plan.md, the base is merged into the branch with plan's driver,
//! so the forge's button then merges without a person. It runs git's CLI (git2
//! runs no external merge driver) and never pushes: the caller (a person, or the
//! workflow `plan install ci` writes) does.

use std::path::Path;
use std::time::Duration;

use anyhow::Result;

use crate::exec::{self, SpawnError, Spec};
use crate::exit::Exit;
use crate::install::merge_driver;

mod land;

/// What a sync found or did.
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome {
    /// The branch already has the base.
    UpToDate,
    /// The forge's merge would not conflict: nothing to do.
    Mergeable,
    /// `--check`: the forge's merge conflicts in these plan files only, and plan's
    /// driver merges them.
    WouldMerge(Vec<String>),
    /// The base is merged into the branch (these plan files conflicted before).
    Merged(Vec<String>),
    /// A person must merge: the files, and why.
    Person { files: Vec<String>, why: String },
}

/// git's empty tree: read as the attribute source, no `.gitattributes` applies, so
/// git merges every file line by line as a forge does.
const EMPTY_TREE: &str = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

const TIMEOUT: Duration = Duration::from_secs(600);

/// The oldest git sync runs with: the global `--attr-source=<tree>` came in 2.41
/// (2.40 had it on `check-attr` only); `merge-tree --write-tree` in 2.38.
const MIN_GIT: (u32, u32) = (2, 41);

/// Major and minor of `git --version`'s answer: "git version 2.39.2",
/// "git version 2.41.0.windows.1", "git version 2.39.3 (Apple Git-146)".
fn git_version(said: &str) -> Option<(u32, u32)> {
    let version = said.trim().strip_prefix("git version ")?;
    let mut parts = version.split(|c: char| !c.is_ascii_digit());
    let major = parts.next()?.parse().ok()?;
    let minor = parts.next()?.parse().ok()?;
    Some((major, minor))
}

struct Git<'a> {
    root: &'a Path,
}

struct Ran {
    code: Option<i32>,
    stdout: String,
    stderr: String,
}

impl Git<'_> {
    fn run(&self, args: &[&str]) -> Result<Ran> {
        self.run_with(args, None)
    }

    fn run_with(&self, args: &[&str], stdin: Option<Vec<u8>>) -> Result<Ran> {
        self.run_spec(args, stdin, false)
    }

    /// `whole`: a signal that ends plan waits for this git (see [`Spec::whole`]);
    /// its messages in English, so what it refused can be told.
    fn run_spec(&self, args: &[&str], stdin: Option<Vec<u8>>, whole: bool) -> Result<Ran> {
        let argv: Vec<String> = std::iter::once("git")
            .chain(args.iter().copied())
            .map(str::to_string)
            .collect();
        let mut env = vec![("GIT_TERMINAL_PROMPT".to_string(), "0".to_string())];
        if whole {
            env.push(("LC_ALL".to_string(), "C".to_string()));
        }
        let spec = Spec {
            env,
            tail_bytes: 256 * 1024,
            stdin,
            whole,
            ..Spec::new(argv, self.root, TIMEOUT)
        };
        let out = exec::run(&spec).map_err(|e| match e.downcast_ref::<SpawnError>() {
            Some(spawn) => Exit::env(format!("cannot run git: {}", spawn.reason())),
            None => e,
        })?;
        if out.timed_out {
            return Err(Exit::env(format!(
                "git {} timed out after {}s",
                args.join(" "),
                TIMEOUT.as_secs()
            )));
        }
        Ok(Ran {
            code: out.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).trim().to_string(),
        })
    }

    fn ok(&self, args: &[&str]) -> Result<String> {
        self.ok_with(args, None)
    }

    fn ok_with(&self, args: &[&str], stdin: Option<Vec<u8>>) -> Result<String> {
        let ran = self.run_with(args, stdin)?;
        if ran.code != Some(0) {
            return Err(Exit::env(format!(
                "git {} failed: {}",
                args.join(" "),
                ran.stderr
            )));
        }
        Ok(ran.stdout.trim().to_string())
    }
}

/// Merges `base` into the branch checked out at `root` when the forge's merge of
/// the two conflicts only in `plan_files` (paths from the root); with `check`,
/// only says whether it would. `program` is the plan binary git runs as the driver.
pub fn sync(
    root: &Path,
    base: &str,
    plan_files: &[String],
    program: &str,
    check: bool,
) -> Result<Outcome> {
    let git = Git { root };
    // An older git refuses `--attr-source` with its usage text, which says nothing
    // of why; say it here, before anything is merged.
    let said = git.ok(&["--version"])?;
    if let Some(found) = git_version(&said).filter(|v| *v < MIN_GIT) {
        return Err(Exit::env_hint(
            format!(
                "plan sync needs git {}.{} or later (`git --attr-source`, so the merge reads no .gitattributes of the pull request's); this git is {}.{} ({said})",
                MIN_GIT.0, MIN_GIT.1, found.0, found.1
            ),
            "install a newer git (the workflow's ubuntu-latest runner has one), or put it first on PATH",
        ));
    }
    let base_commit = format!("{base}^{{commit}}");
    let named = git.run(&["rev-parse", "--verify", "--quiet", &base_commit])?;
    if named.code != Some(0) {
        return Err(Exit::usage_hint(
            format!("no commit {base} in this repository"),
            "fetch it first (git fetch origin), then name it, e.g. --base origin/main",
        ));
    }
    // Both ends named once, by commit: a ref that moves while sync works changes
    // nothing it merges, and the branch is moved only from the commit read here.
    let base_oid = named.stdout.trim().to_string();
    let head = git.ok(&["rev-parse", "--verify", "HEAD^{commit}"])?;
    if git
        .run(&["merge-base", "--is-ancestor", &base_oid, &head])?
        .code
        == Some(0)
    {
        return Ok(Outcome::UpToDate);
    }
    let attr = format!("--attr-source={EMPTY_TREE}");
    let forge = git.run(&[
        &attr,
        "merge-tree",
        "--write-tree",
        "--name-only",
        "--no-messages",
        &head,
        &base_oid,
    ])?;
    let files: Vec<String> = match forge.code {
        Some(0) => return Ok(Outcome::Mergeable),
        Some(1) => forge
            .stdout
            .lines()
            .skip(1)
            .take_while(|l| !l.is_empty())
            .map(str::to_string)
            .collect(),
        _ => {
            return Err(Exit::env(format!(
                "git merge-tree HEAD {base} failed: {}",
                forge.stderr
            )));
        }
    };
    let others: Vec<String> = files
        .iter()
        .filter(|f| !plan_files.contains(f))
        .cloned()
        .collect();
    if !others.is_empty() {
        return Ok(Outcome::Person {
            why: format!("{} conflict outside plan's files", others.join(", ")),
            files: others,
        });
    }
    if check {
        return Ok(Outcome::WouldMerge(files));
    }
    // plan.md goes to plan's driver whatever the branch's .gitattributes says: the
    // merge reads its attributes from a tree of its own (the base's
    // .gitattributes, which the forge already merged, and plan's lines after
    // them), never the pull request's, which could name git's union merge instead.
    let trusted = git
        .run(&["show", &format!("{base_oid}:.gitattributes")])?
        .stdout;
    let mut lines = if trusted.is_empty() || trusted.ends_with('\n') {
        trusted
    } else {
        format!("{trusted}\n")
    };
    for f in plan_files {
        lines.push_str(&format!(
            "{}\n",
            merge_driver::attr_line(&merge_driver::path_pattern(f))
        ));
    }
    let blob = git.ok_with(&["hash-object", "-w", "--stdin"], Some(lines.into_bytes()))?;
    let tree = git.ok_with(
        &["mktree"],
        Some(format!("100644 blob {blob}\t.gitattributes\n").into_bytes()),
    )?;
    let branch = git
        .ok(&["rev-parse", "--abbrev-ref", "HEAD"])
        .unwrap_or_else(|_| "HEAD".to_string());
    land::land(
        &git,
        &land::Merge {
            head: &head,
            base: &base_oid,
            base_name: base,
            conflicted: files,
            plan_files,
            attr_source: format!("--attr-source={tree}"),
            driver: format!("merge.plan.driver={}", merge_driver::driver(program)),
            message: format!("Merge {base} into {branch} (plan sync: plan.md goal by goal)"),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn git_version_reads_majors_and_minors_of_every_vendor() {
        assert_eq!(git_version("git version 2.47.3\n"), Some((2, 47)));
        assert_eq!(git_version("git version 2.41.0.windows.1"), Some((2, 41)));
        assert_eq!(
            git_version("git version 2.39.3 (Apple Git-146)"),
            Some((2, 39))
        );
        assert_eq!(git_version("git version 3.0"), Some((3, 0)));
        assert_eq!(git_version("hub version 2.14"), None);
        assert_eq!(git_version("git version x"), None);
        assert!(git_version("git version 2.40.1").unwrap() < MIN_GIT);
        assert!(git_version("git version 2.41.0").unwrap() >= MIN_GIT);
        assert!(git_version("git version 10.1").unwrap() >= MIN_GIT);
    }
}

//! What a goal's verify rests on: the files it reads (the reach rule), and which
//! of them changed since a commit. The gate re-verifies a goal done on the base
//! when its pull request changes them; a sign-off re-verifies the done goals its
//! own work changed them for.

use std::path::Path;

use anyhow::Result;

use crate::ctx::Ctx;
use crate::git;
use crate::judge::files as judge_files;
use crate::plan::gate as rules;
use crate::plan::model::{Goal, Plan};
use crate::verify;

/// The files of a goal done on the base that the pull request changes, compared
/// blob by blob from the base's commit to the working tree; a goal with any is
/// verified again. What a verify rests on ([`verify_reach`]): a verify of commands
/// that only read the files they name (`test -s NOTES.md`, `grep -q x a.txt`) rests
/// on those, their closure, the verify files its transcript recorded and the
/// evidence paths its sign-off named; any other verify runs a program, which can
/// import, open or run any file of the repository (`python3 -m unittest`,
/// `cargo test`, `python3 check.py` importing `calc.py`), so it rests on every file
/// but plan's own, and on those of plan's own it names.
pub fn touched(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>, base: &str) -> Result<Vec<String>> {
    let Some(repo) = &ctx.repo else {
        return Ok(Vec::new());
    };
    let root = &repo.root;
    let plan_rel = ctx.plan_in_repo().map(|p| p.to_string_lossy().into_owned());
    let mut files: Vec<String> = Vec::new();
    let mut everything = false;
    if let Some(line) = goal.verify() {
        match verify::parse(line) {
            Ok(parsed) => {
                match verify_reach(root, &parsed) {
                    Some(named) => files.extend(named),
                    None => everything = true,
                }
                files.extend(
                    crate::record::verify_files(root, &parsed)
                        .into_iter()
                        .map(|(p, _)| p),
                );
            }
            // It cannot run: verified again, it fails.
            Err(_) => everything = true,
        }
    }
    if let Some(path) = rules::record_path(plan, &goal.id) {
        if let crate::plan::proof::Facts::Present {
            header: Some(header),
            ..
        } = crate::record::facts(root, path)
        {
            files.extend(header.verify_files.into_iter().map(|(p, _)| p));
        }
        let transcript = std::fs::read_to_string(root.join(path)).unwrap_or_default();
        files.extend(evidence_paths(&transcript));
    }
    let files: Vec<String> = files
        .into_iter()
        .map(|f| f.trim_end_matches('/').to_string())
        .collect();
    let wanted = |path: &str| {
        // A changed path above one the verify names is a link on its way (git keeps
        // a link as one path): retargeted or removed, it changes what is read there.
        // Named, plan's own files count too: a check script kept under `.plan/`
        // (`sh .plan/checks/calc.sh`) is the goal's test (the red team's).
        files.iter().any(|f| nested(path, f))
            || (everything
                && !crate::plan::own::is_own(
                    path.as_bytes(),
                    plan_rel.as_deref().map(str::as_bytes),
                ))
    };
    // A file moved counts at both ends: the goal's work is named by the old one.
    Ok(git::changed_since(root, Some(base), &wanted)?
        .into_iter()
        .flat_map(|c| [Some(c.path), c.was].into_iter().flatten())
        .collect())
}

/// Whether two repository paths are the same, or one is a directory above the other.
pub fn nested(a: &str, b: &str) -> bool {
    let under = |a: &str, b: &str| a.strip_prefix(b).is_some_and(|r| r.starts_with('/'));
    a == b || under(a, b) || under(b, a)
}

/// The repository paths (files, or directories standing for all below them) a
/// verify rests on, when every command of it is one of [`judge_files::READS_NAMED`]: each word
/// that could name a path, existing or not (a file the pull request deletes is
/// changed too), and where a word leads through a link, where it leads. `None`:
/// the verify rests on the whole repository: it runs a program, searches a
/// directory tree it does not name (`grep -r` without a path), or names the top of
/// the tree or a path that leaves it.
pub fn verify_reach(root: &Path, verify: &verify::Verify) -> Option<Vec<String>> {
    let mut out = Vec::new();
    for command in verify.chain.iter().flat_map(|p| &p.commands) {
        let (program, args) = command.split_first()?;
        if !judge_files::READS_NAMED.contains(&program.as_str()) {
            return None;
        }
        let grep = program.ends_with("grep");
        let recursive = |a: &str| {
            a.starts_with("--recursive")
                || a.starts_with("--dereference-recursive")
                || a.starts_with("--directories")
                || a == "-d"
                || (a.starts_with('-')
                    && !a.starts_with("--")
                    && a[1..].chars().any(|c| matches!(c, 'r' | 'R' | 'd')))
        };
        if grep && args.iter().any(|a| recursive(a)) {
            return None;
        }
        for word in args {
            let mut candidates = vec![word.rsplit_once('=').map_or(word.as_str(), |(_, v)| v)];
            // `-fpatterns.txt`: an option's value glued to it.
            if let Some(glued) = word.strip_prefix('-').filter(|w| !w.starts_with('-'))
                && glued.len() > 1
            {
                candidates.push(&glued[1..]);
            }
            for candidate in candidates {
                if candidate.is_empty() || candidate.starts_with('-') {
                    continue;
                }
                let mut parts = Vec::new();
                for part in Path::new(candidate).components() {
                    match part {
                        std::path::Component::Normal(p) => parts.push(p.to_string_lossy()),
                        std::path::Component::CurDir => {}
                        _ => return None,
                    }
                }
                if parts.is_empty() {
                    return None;
                }
                let rel = parts.join("/");
                // Every link on the way, and where the path leads through them, even
                // to nothing: a link retargeted or removed (in the middle of a chain
                // too), or its target deleted, changes what the verify reads.
                for on_the_way in through_links(root, &rel)? {
                    if !out.contains(&on_the_way) {
                        out.push(on_the_way);
                    }
                }
                if let Some(real) = judge_files::in_repo(root, &rel)
                    && let (Ok(real), Ok(top)) = (
                        std::fs::canonicalize(root.join(&real)),
                        std::fs::canonicalize(root),
                    )
                    && let Ok(inside) = real.strip_prefix(&top)
                {
                    let inside = inside.to_string_lossy().into_owned();
                    if inside.is_empty() {
                        return None;
                    }
                    if !out.contains(&inside) {
                        out.push(inside);
                    }
                }
                if !out.contains(&rel) {
                    out.push(rel);
                }
            }
        }
    }
    Some(out)
}

/// The links `rel` passes through, hop by hop as the system follows them, then the
/// path it leads to, each relative to `root`, whether or not it exists (a target
/// deleted still names what was read). `None` where a link leads out of `root`, is
/// absolute, or the chain runs past 40 hops: the verify rests on everything.
fn through_links(root: &Path, rel: &str) -> Option<Vec<String>> {
    use std::path::Component;
    let mut left: std::collections::VecDeque<String> = rel.split('/').map(String::from).collect();
    let (mut here, mut out, mut hops) = (Vec::<String>::new(), Vec::new(), 0);
    while let Some(part) = left.pop_front() {
        match part.as_str() {
            "" | "." => continue,
            ".." => {
                here.pop()?;
                continue;
            }
            _ => here.push(part),
        }
        let path = here.join("/");
        let Ok(meta) = std::fs::symlink_metadata(root.join(&path)) else {
            continue;
        };
        if !meta.file_type().is_symlink() {
            continue;
        }
        hops += 1;
        let target = std::fs::read_link(root.join(&path)).ok()?;
        if hops > 40 || target.is_absolute() {
            return None;
        }
        out.push(path);
        here.pop();
        for part in target.components().rev() {
            left.push_front(match part {
                Component::Normal(name) => name.to_string_lossy().into_owned(),
                Component::ParentDir => "..".to_string(),
                _ => ".".to_string(),
            });
        }
    }
    let led = here.join("/");
    if led.is_empty() {
        return None;
    }
    out.push(led);
    Some(out)
}

/// Every path a `paths:` line of the transcript's evidence section names. A line
/// the agent wrote inside its evidence text widens the reach; it cannot narrow it.
pub fn evidence_paths(transcript: &str) -> Vec<String> {
    let Some((_, rest)) = transcript.split_once("\n## Evidence\n") else {
        return Vec::new();
    };
    let section = rest.split_once("\n## Judge").map_or(rest, |(s, _)| s);
    section
        .lines()
        .filter_map(|l| l.strip_prefix("paths: "))
        .filter(|p| *p != "(none)")
        .flat_map(|p| p.split(", "))
        .map(str::to_string)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_verify_that_runs_a_program_rests_on_the_whole_repository() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("notes.md"), "x").unwrap();
        std::fs::create_dir(dir.path().join("docs")).unwrap();
        std::os::unix::fs::symlink("notes.md", dir.path().join("link.md")).unwrap();
        let reach = |line: &str| verify_reach(dir.path(), &verify::parse(line).unwrap());
        assert_eq!(
            reach("test -s notes.md"),
            Some(vec!["notes.md".to_string()])
        );
        assert_eq!(
            reach("grep -q x ./docs/a.md && test -f gone.txt"),
            Some(vec![
                "x".to_string(),
                "docs/a.md".to_string(),
                "gone.txt".to_string()
            ])
        );
        assert_eq!(
            reach("grep -fpats.txt notes.md"),
            Some(vec!["pats.txt".to_string(), "notes.md".to_string()])
        );
        // Through a link, where it leads too: the link first, as it is passed.
        assert_eq!(
            reach("cat link.md"),
            Some(vec!["link.md".to_string(), "notes.md".to_string()])
        );
        for whole in [
            "python3 -m unittest",
            "python3 check.py",
            "cargo test",
            "sh -c 'test -f a'",
            "./check.sh",
            "env A=1 test -f a",
            "make check",
            "grep -r x docs",
            "grep -Rq x",
            "test -f /etc/hostname",
            "test -f ../x",
            "ls .",
            "test -f notes.md | python3 -c pass",
        ] {
            assert_eq!(reach(whole), None, "{whole}");
        }
    }
}

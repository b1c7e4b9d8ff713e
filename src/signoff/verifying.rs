//! Stage 1 of a sign-off: the goal's verify, run without a shell on the working
//! tree as handed in. A failure, or a verify that changed what it checks, is a
//! reject that costs no model call.

use std::time::Duration;

use anyhow::Result;

use crate::config;
use crate::exec;
use crate::git::{self, Repo};
use crate::record;
use crate::verify;

/// How far back plan.md's history is searched for a goal's old contract.
const VERIFY_TAIL: usize = 64 * 1024;

/// How stage 1 ended.
pub(super) enum Verified {
    /// The verify passed: the tail of its output, for the judge, and the files
    /// watched for a rewrite until the judge's copy is taken (see [`watched`]),
    /// each with its blob id before the run.
    Passed {
        tail: String,
        watched: Vec<(String, String)>,
    },
    /// What the rejection says: the verify failed or changed the repository.
    Failed { why: Vec<String> },
}

/// Stage 1: runs the verify, recording the run in `record`. `plan_rel` (plan.md in
/// the repository) may change meanwhile; any other change to tracked files fails it.
pub(super) fn run_verify(
    repo: &Repo,
    config: &config::Config,
    verify: &verify::Verify,
    plan_rel: Option<&str>,
    record: &mut record::Transcript<'_>,
) -> Result<Verified> {
    // The verify line is plan.md text: escaped for the terminal.
    let shown = crate::plan::text::escape_controls(&verify.to_string()).into_owned();
    crate::out::step(
        &format!("plan: verify: running `{shown}`"),
        &format!("verify: running `{shown}`"),
    );
    let timeout = Duration::from_secs(config.verify_timeout_secs);
    let before = git::tracked_snapshot(&repo.root)?;
    // The check's own files as they ran; a side effect on them is refused below.
    let files = record::verify_files(&repo.root, verify);
    let watched = watched(&repo.root, &files);
    let result = verify::run(verify, &repo.root, timeout, VERIFY_TAIL)?;
    crate::out::progress(if result.passed {
        "verify: passed"
    } else {
        "verify: failed"
    });
    record.verify = Some(record::VerifyRun {
        command: verify.to_string(),
        programs: verify_programs(verify),
        exit: if result.passed {
            "0".to_string()
        } else if result.timed_out {
            "timed out".to_string()
        } else {
            result
                .exit_code
                .map_or("none".to_string(), |c| c.to_string())
        },
        tail: result.tail.clone(),
        files: files.clone(),
    });
    // A verify that commits or edits the code has not checked it: it passed on
    // something other than what was handed in.
    let mut changed = before.changes(&git::tracked_snapshot(&repo.root)?);
    changed.retain(|p| plan_rel != Some(p.as_str()));
    let rewritten = untracked_rewritten(&repo.root, &watched, &changed);
    changed.extend(rewritten);
    let side_effect = (!changed.is_empty()).then(|| {
        format!(
            "verify changed the repository while it ran ({}); a check must not change what it checks",
            changed.join(", ")
        )
    });
    if !result.passed {
        let why = result.why_failed(&verify.to_string(), timeout);
        crate::out::warn(result.tail.trim_end());
        let why: Vec<String> = std::iter::once(why).chain(side_effect).collect();
        return Ok(Verified::Failed { why });
    }
    if let Some(side_effect) = side_effect {
        return Ok(Verified::Failed {
            why: vec![side_effect],
        });
    }
    Ok(Verified::Passed {
        tail: result.tail,
        watched,
    })
}

/// The files a rewrite of would go unseen by the tracked snapshots, each with its
/// blob id now: the check's own (`files`, read already) and every file of code
/// git does not track yet (new work: a module the tests import is no file of the
/// check's, and one that rewrote itself as they exit would have the judge read
/// other code than what passed). Ignored files are left out: a build writes its
/// own output there on every run.
fn watched(root: &std::path::Path, files: &[(String, String)]) -> Vec<(String, String)> {
    let mut out = files.to_vec();
    // Asked once per untracked file: a search of `out` was quadratic in a
    // tree of thousands of new files.
    let mut seen: std::collections::HashSet<String> = out.iter().map(|(p, _)| p.clone()).collect();
    for path in git::untracked(root).unwrap_or_default() {
        if !seen.insert(path.clone()) {
            continue;
        }
        let full = root.join(&path);
        if is_code(&full)
            && let Ok(bytes) = std::fs::read(&full)
        {
            out.push((path, crate::plan::model::blob_id(&bytes)));
        }
    }
    out
}

/// The sources of compiled languages and of those plan's list of scripts lacks:
/// what the judge reads as the work, and a program built from one could rewrite
/// it as it exits.
const SOURCES: &[&str] = &[
    "c", "h", "cc", "cpp", "cxx", "hpp", "hh", "go", "rs", "java", "kt", "kts", "scala", "cs",
    "fs", "swift", "m", "mm", "jsx", "tsx", "mts", "cts", "vue", "svelte", "ex", "exs", "erl",
    "hs", "ml", "clj", "dart", "zig", "nim", "r", "jl", "pyi", "groovy", "ps1",
];

/// Whether the file at `path` is code a run could load: named like a script or a
/// source, or an executable script (`#!`). A program a build links (no such name,
/// no `#!`) is rewritten by an honest run whenever its sources changed.
fn is_code(path: &std::path::Path) -> bool {
    use std::io::Read;
    use std::os::unix::fs::PermissionsExt;
    let Ok(meta) = std::fs::metadata(path) else {
        return false;
    };
    if !meta.is_file() {
        return false;
    }
    let source = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| SOURCES.contains(&e));
    if source || crate::judge::files::named_like_code(&path.to_string_lossy()) {
        return true;
    }
    let mut start = [0u8; 2];
    meta.permissions().mode() & 0o111 != 0
        && std::fs::File::open(path)
            .and_then(|mut f| f.read_exact(&mut start))
            .is_ok_and(|()| start == *b"#!")
}

/// Of the files [`watched`] (`before`, with their blob ids before the run), the
/// scripts and code git does not track that the run rewrote: the tracked
/// snapshot does not see them. `reported`: the paths already found changed.
fn untracked_rewritten(
    root: &std::path::Path,
    before: &[(String, String)],
    reported: &[String],
) -> Vec<String> {
    let reported: std::collections::HashSet<&String> = reported.iter().collect();
    before
        .iter()
        .filter(|(path, _)| !reported.contains(path))
        // Judged code before the run (see [`watched`]), not after it: a script
        // that drops its `#!` as it rewrites itself, or deletes itself, is
        // still one the run changed (helper 128).
        .filter(|(path, blob)| {
            std::fs::read(root.join(path))
                .map_or(true, |bytes| crate::plan::model::blob_id(&bytes) != *blob)
        })
        .filter(|(path, _)| {
            matches!(
                git::tracking(root, std::path::Path::new(path)),
                Ok(git::Tracking::Untracked)
            )
        })
        .map(|(path, _)| path.clone())
        .collect()
}

/// Each command of a verify line, with the program path it resolves to.
fn verify_programs(verify: &verify::Verify) -> Vec<String> {
    verify
        .chain
        .iter()
        .flat_map(|pipeline| &pipeline.commands)
        .filter_map(|argv| argv.first())
        .map(|program| {
            if program.contains('/') {
                return format!("{program} (a path, from the repository root)");
            }
            match exec::find_on_path(program) {
                Some(path) => format!("{program} → {}", path.display()),
                None => format!("{program} (not found on PATH)"),
            }
        })
        .collect()
}

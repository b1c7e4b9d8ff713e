//! The pull-request gate behind `plan audit --base REV`: refuses a history that
//! hides commits, reads the base's plan files from git, finds the reverts of
//! sign-offs, re-runs a new sign-off's verify and judge where the repository cannot
//! steer them (`--rejudge`), and collects `--strict`'s findings. `cmd/audit.rs`
//! renders what this returns; the comparisons themselves are in `plan/gate.rs`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::config;
use crate::ctx::Ctx;
use crate::exit::Exit;
use crate::git::{self, Tracking};
use crate::judge::files as judge_files;
use crate::judge::prompt::{self, Facts, VerifyFacts};
use crate::judge::run::{self as judge_run, Judge};
use crate::judge::verdict::Verdict;
use crate::plan::gate::{self as rules, Change, Lost, Reverted};
use crate::plan::history;
use crate::plan::model::{Goal, Plan, parse};
use crate::verify;

/// What `actions/checkout` needs to fetch the whole history, for hints.
pub const FETCH_HINT: &str = "fetch the whole history: `git fetch --unshallow`, and remove .git/info/grafts and refs/replace/* (`git replace -d`); in GitHub Actions, give actions/checkout `fetch-depth: 0`";

/// Refuses (exit 3) a repository whose history git shows only in part: audit's
/// search for removed log lines would pass over a removed reopen it cannot see.
pub fn refuse_hidden_history(root: &Path) -> Result<()> {
    let hidden = git::hidden_history(root)?;
    if hidden.is_empty() {
        return Ok(());
    }
    Err(Exit::env_hint(
        format!(
            "audit cannot see this repository's whole history: {}; a removed reopen could hide there",
            hidden.join("; ")
        ),
        FETCH_HINT,
    ))
}

/// The sign-offs `git revert` took back in the history HEAD reaches.
pub fn reverts(ctx: &Ctx) -> Result<Vec<Reverted>> {
    let (Some(repo), Some(rel)) = (&ctx.repo, ctx.plan_in_repo()) else {
        return Ok(Vec::new());
    };
    let mut out = Vec::new();
    for revert in git::reverts(&repo.root, &rel)? {
        out.extend(rules::reverted(
            (&revert.commit, &revert.reverted),
            (
                revert.reverted_change.0.as_deref(),
                revert.reverted_change.1.as_deref(),
            ),
            (
                revert.revert_change.0.as_deref(),
                revert.revert_change.1.as_deref(),
            ),
        ));
    }
    Ok(out)
}

/// The head measured against a base revision.
#[derive(Debug, Serialize)]
pub struct Base {
    /// As given on the command line.
    pub rev: String,
    pub commit: String,
    /// The base's log lines the head lacks or has out of order, in any plan file.
    pub lost_lines: Vec<Lost>,
    /// The base's goals the head has under no heading.
    pub lost_goals: Vec<String>,
    /// Goals signed off in lines the base does not have.
    pub signed_off: Vec<String>,
    /// Every contract change the head carries, approved at a terminal or not.
    pub contract_changes: Vec<Change>,
}

/// Measures `head` (the plan file as it is now) against `rev`. Every plan file of
/// the base counts: the configured one, and each other `.md` in the base's tree
/// with a `# Plan:` title and a `## Log` (what `--file` and `plan rewind` call a
/// plan), compared with the file as it is now.
pub fn against(ctx: &Ctx, head: &Plan<'_>, rev: &str, reverts: &[Reverted]) -> Result<Base> {
    let repo = ctx.repo()?;
    let commit = git::resolve_commit(&repo.root, rev).map_err(|e| {
        Exit::usage_hint(
            format!("--base: {e:#}"),
            "name a commit this clone has: in GitHub Actions, the pull request's base sha, checked out with `fetch-depth: 0`",
        )
    })?;
    let main = ctx.plan_in_repo();
    let is_plan = |text: &str| {
        let plan = parse(text);
        plan.objective.is_some() && plan.log_heading.is_some()
    };
    let others: Vec<(PathBuf, String)> = git::files_where(&repo.root, &commit, ".md", is_plan)?
        .into_iter()
        .filter(|(path, _)| main.as_ref() != Some(path))
        .collect();
    let mut out = Base {
        rev: rev.to_string(),
        commit: commit[..12].to_string(),
        lost_lines: Vec::new(),
        lost_goals: Vec::new(),
        signed_off: Vec::new(),
        contract_changes: Vec::new(),
    };
    if let Some(rel) = &main
        && let Some(then_text) = git::file_at(&repo.root, &commit, rel)?
    {
        let then = parse(&then_text);
        let name = rel.to_string_lossy();
        let excused = |k: &rules::Key| reverts.iter().any(|r| r.entries.contains(k));
        out.lost_lines = rules::lost_lines(&name, &then, head, &excused);
        out.lost_goals = rules::lost_goals(&then, head);
        out.signed_off = rules::new_sign_offs(&then, head);
        out.contract_changes = rules::contract_changes(&then, head);
    }
    for (rel, then_text) in others {
        let then = parse(&then_text);
        let name = rel.to_string_lossy().into_owned();
        let now_text = std::fs::read_to_string(repo.root.join(&rel)).unwrap_or_default();
        let now = parse(&now_text);
        out.lost_lines
            .extend(rules::lost_lines(&name, &then, &now, &|_| false));
        out.lost_goals.extend(
            rules::lost_goals(&then, &now)
                .into_iter()
                .map(|id| format!("{id} ({name})")),
        );
    }
    Ok(out)
}

/// `--strict`'s findings about one finished goal: a weak sign-off, contract changes
/// approved without a terminal, a transcript git does not keep, weakened tests.
/// `base` (`--base`'s commit): without one, also the goal's contract changes since a
/// terminal last approved one (with one, the pull request's own changes are counted
/// apart instead), and weakened tests are counted from the base for a goal started
/// inside the pull request.
pub fn strict_findings(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    base: Option<&str>,
) -> Result<Vec<String>> {
    let history = base.is_none();
    let mut out = Vec::new();
    let id = goal.id.as_ref();
    // A panel is as weak as its weakest judge.
    let judges = rules::sign_off_judge(plan, id).unwrap_or_default();
    for judge in judges.split(crate::plan::event::PANEL_JOIN) {
        match judge {
            "none" => out.push("weak sign-off: no judge (--judge none)".to_string()),
            "unnamed" => out.push("weak sign-off: the judge is not named".to_string()),
            j if j == "command" || j.starts_with("command:") => {
                out.push("weak sign-off: a command judge, not a model CLI".to_string());
            }
            _ => {}
        }
    }
    let unseen = if history {
        history::unseen_changes(&history::contract_steps(plan, id))
    } else {
        Vec::new()
    };
    for line in unseen {
        out.push(format!(
            "contract change approved without a terminal ({}:{line})",
            ctx.store.name
        ));
    }
    if let (Some(repo), Some(path)) = (&ctx.repo, rules::record_path(plan, id)) {
        match git::tracking(&repo.root, Path::new(path))? {
            Tracking::Tracked => {}
            Tracking::Untracked => {
                out.push(format!(
                    "transcript {path} is not tracked by git: commit it"
                ));
            }
            Tracking::Ignored => out.push(format!(
                "transcript {path} is ignored by git: other clones and CI never see it"
            )),
        }
    }
    out.extend(weakened_tests(ctx, plan, goal, base));
    out.extend(crate::red_first::strict_findings(ctx, plan, goal));
    Ok(out)
}

/// Weakened tests in the goal's work (assertions removed, skips added, the check's
/// own files edited since the goal started), one finding each, found again from git
/// (`src/weakened.rs`): the transcript's own list is text the agent could have
/// written. A check that cannot run is a finding too, so `--strict` fails closed.
fn weakened_tests(ctx: &Ctx, plan: &Plan<'_>, goal: &Goal<'_>, base: Option<&str>) -> Vec<String> {
    let Some(repo) = &ctx.repo else {
        return Vec::new();
    };
    let found = match base {
        Some(base) => crate::weakened::since_base(&repo.root, plan, goal, base),
        None => crate::weakened::now(&repo.root, plan, goal),
    };
    match found {
        Ok(found) => found
            .iter()
            .map(|f| format!("weakened tests: {f}"))
            .collect(),
        Err(e) => vec![format!("weakened tests could not be checked: {e:#}")],
    }
}

/// The judge `--rejudge` asks: `--judge`, else the user's own config
/// (`~/.config/plan/config.yaml`), else `auto`. The repository's `.plan/config.yaml`
/// is not read: the pull request under review could have written it. The judge CLI
/// takes its key and endpoint from the environment, as CI passes them.
pub fn rejudge_judge(flag: Option<&str>) -> Result<(Judge, Duration)> {
    let config = config::load_user()?;
    let judge = crate::judge::resolve::one(flag, &config)?.ok_or_else(|| {
        Exit::usage_hint(
            "--rejudge needs a judge; `none` judges nothing",
            "name one with --judge BACKEND, or set judge.backend in ~/.config/plan/config.yaml",
        )
    })?;
    Ok((judge, Duration::from_secs(config.verify_timeout_secs)))
}

/// What a re-judge found.
#[derive(Debug)]
pub struct Rejudged {
    /// `passed`, `no verify`, or `failed: …`.
    pub verify: String,
    /// `accept`, `reject: …`, `no verdict: …`, or `not asked` after a failed verify.
    pub verdict: String,
}

impl Rejudged {
    pub fn passed(&self) -> bool {
        self.verdict == "accept" && !self.verify.starts_with("failed")
    }
}

/// The environment a re-run verify gets: enough to find and run a toolchain, none
/// of the caller's secrets (the judge's key among them).
const CLEAN_ENV: &[&str] = &[
    "PATH",
    "HOME",
    "USER",
    "LOGNAME",
    "LANG",
    "LC_ALL",
    "LC_CTYPE",
    "TZ",
    "TMPDIR",
    "CARGO_HOME",
    "RUSTUP_HOME",
    "GOPATH",
    "GOCACHE",
    "GOMODCACHE",
];

/// Re-runs `goal`'s verify in a fresh copy of HEAD's tree with a clean environment,
/// then asks `judge` with plan's own prompts (the repository's `.plan/prompts/` are
/// not read). A failed verify costs no model call.
pub fn rejudge(
    ctx: &Ctx,
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    judge: &Judge,
    verify_timeout: Duration,
) -> Result<Rejudged> {
    let root = &ctx.repo()?.root;
    let scratch = tempfile::tempdir()?;
    let tree = scratch.path().join("tree");
    std::fs::create_dir(&tree)?;
    git::export_head(root, &tree)?;
    // The judge reads a second copy of HEAD: verify runs in `tree` and could rewrite
    // what the judge would read there after it passed.
    let judged = scratch.path().join("judged");
    std::fs::create_dir(&judged)?;
    git::export_head(root, &judged)?;
    let id = goal.id.as_ref();
    let mut tail = String::new();
    let verify = match goal.verify() {
        None => None,
        Some(line) => match verify::parse(line) {
            Ok(parsed) => Some((line, parsed)),
            Err(e) => {
                return Ok(Rejudged {
                    verify: format!("failed: verify cannot run: {}", e.message),
                    verdict: "not asked".to_string(),
                });
            }
        },
    };
    if let Some((line, parsed)) = &verify {
        crate::out::progress(&format!("rejudge {id}: running verify"));
        let clean: Vec<(String, String)> = CLEAN_ENV
            .iter()
            .filter_map(|k| Some((k.to_string(), std::env::var(k).ok()?)))
            .collect();
        let outcome = verify::run_clean(parsed, &tree, verify_timeout, 16 * 1024, clean)?;
        if !outcome.passed {
            return Ok(Rejudged {
                verify: format!("failed: {}", outcome.why_failed(line, verify_timeout)),
                verdict: "not asked".to_string(),
            });
        }
        tail = outcome.tail;
    }
    let transcript = rules::record_path(plan, id)
        .and_then(|p| std::fs::read_to_string(judged.join(p)).ok())
        .unwrap_or_default();
    let (evidence, paths) = evidence_of(&transcript);
    copy_made_by_verify(&tree, &judged, &paths);
    let start = crate::weakened::start_commit(plan, id).map(str::to_string);
    let (diff_base, diff_stat) = match git::diff_stat_since(root, start.as_deref()) {
        Ok(stat) => (start.as_deref(), stat),
        Err(_) => (None, git::diff_stat_since(root, None).unwrap_or_default()),
    };
    let history = contract_history(plan, id);
    let weakened = crate::weakened::now(root, plan, goal)?;
    let green = crate::red_first::of_goal(ctx, plan, goal);
    let parsed = verify.as_ref().map(|(_, v)| v);
    let files = judge_files::gather(&judged, parsed, &paths);
    let command = parsed.map(|v| v.to_string());
    let facts = Facts {
        id,
        title: goal.title,
        done_when: goal.done_when().unwrap_or("(none written)"),
        failure_modes: goal.failure_modes.iter().map(|f| f.value).collect(),
        history: &history,
        subtasks: goal.subtasks.iter().map(|s| (s.done, s.text)).collect(),
        verify: match &command {
            Some(command) => VerifyFacts::Passed {
                command,
                tail: &tail,
            },
            None => VerifyFacts::None,
        },
        evidence: &evidence,
        paths: &paths,
        files: &files,
        diff_base,
        diff_stat: &diff_stat,
        weakened: &weakened,
        green_at_start: green.as_deref(),
    };
    let text = prompt::render(prompt::EVIDENCE_JUDGE, &facts);
    crate::out::progress(&format!("rejudge {id}: asking {}", judge.backend));
    let answer = judge_run::run(judge, &judged, &text, prompt::JUDGE_SYSTEM)?;
    let verdict = match answer.verdict {
        Verdict::Accept { .. } => "accept".to_string(),
        Verdict::Reject { missing, .. } if missing.is_empty() => "reject".to_string(),
        Verdict::Reject { missing, .. } => format!("reject: {}", missing.join("; ")),
        Verdict::NoVerdict { reason } => format!("no verdict: {reason}"),
        Verdict::CouldNotJudge { reason } => format!("could not judge: {reason}"),
    };
    Ok(Rejudged {
        verify: if verify.is_some() {
            "passed".to_string()
        } else {
            "no verify".to_string()
        },
        verdict,
    })
}

/// Copies into the judge's copy the evidence files HEAD lacks and verify made (a
/// report git ignores), as a sign-off's judge finds them; what HEAD has stays HEAD's.
fn copy_made_by_verify(tree: &Path, judged: &Path, paths: &[String]) {
    for rel in paths {
        let rel = Path::new(rel.trim_end_matches('/'));
        let plain = rel
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)));
        let (from, to) = (tree.join(rel), judged.join(rel));
        if !plain || std::fs::symlink_metadata(&to).is_ok() || !from.is_file() {
            continue;
        }
        if let Some(dir) = to.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let _ = std::fs::copy(&from, &to);
    }
}

/// The goal's logged contracts, one line each, as the transcript lists them.
fn contract_history(plan: &Plan<'_>, id: &str) -> String {
    let steps = history::contract_steps(plan, id);
    if steps.is_empty() {
        return "(no contract was logged for this goal)\n".to_string();
    }
    steps
        .iter()
        .map(|s| {
            format!(
                "- {} contract {}: {} (plan.md log line {})\n",
                s.stamp.unwrap_or("(no time)"),
                s.contract,
                s.describe(),
                s.line
            )
        })
        .collect()
}

/// The evidence text and paths a transcript recorded (its `## Evidence` section):
/// the agent's words, which the prompt fences as untrusted.
fn evidence_of(transcript: &str) -> (String, Vec<String>) {
    let Some((_, rest)) = transcript.split_once("\n## Evidence\n\n") else {
        return (
            "(the sign-off's transcript has no evidence section)".to_string(),
            Vec::new(),
        );
    };
    let mut lines = rest.lines();
    let fence = lines.next().unwrap_or_default();
    let body: Vec<&str> = lines.by_ref().take_while(|l| *l != fence).collect();
    let paths = lines
        .find_map(|l| l.strip_prefix("paths: "))
        .filter(|p| *p != "(none)")
        .map(|p| p.split(", ").map(str::to_string).collect())
        .unwrap_or_default();
    (body.join("\n"), paths)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_evidence_a_transcript_recorded() {
        let text = "# Sign-off record: a\n\n## Evidence\n\n````\nit works\n```inner```\n````\n\npaths: README.md, out.log\n\n## Judge\n";
        let (evidence, paths) = evidence_of(text);
        assert_eq!(evidence, "it works\n```inner```");
        assert_eq!(paths, ["README.md", "out.log"]);
        let none = "x\n## Evidence\n\n````\ny\n````\n\npaths: (none)\n";
        assert_eq!(evidence_of(none).1, Vec::<String>::new());
    }
}

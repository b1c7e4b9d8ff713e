//! The pending proposal: a draft waiting for `plan review`, untracked in
//! `<git-dir>/plan/proposal.json`. Runtime state, never plan data: plan.md changes
//! only when it is approved. Times are unix seconds on the real clock (PLAN_NOW has
//! minutes and no zone), so anything else reading `expires_at` can compare it with
//! its own clock.

use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::atomic;
use crate::exit::Exit;
use crate::plan::diag::Diagnostic;
use crate::plan::draft::CheckedText;

/// How long a proposal waits for review before it must be drafted again: the plan
/// it was checked against goes stale.
pub const LIFETIME: Duration = Duration::from_secs(60 * 60);

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Proposal {
    pub objective: String,
    /// The goals, in plan.md's contract format, without ids or status.
    pub draft: String,
    pub created_at: u64,
    pub expires_at: u64,
    /// What drafted it: the backend and model, `null` for the backend's default.
    pub backend: String,
    pub model: Option<String>,
    /// Approving cancels the open and active goals and archives the finished ones.
    #[serde(default)]
    pub replace: bool,
    /// Set by `plan import`: the goals came from a file, not a model.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub import: Option<Import>,
}

/// Where an imported proposal came from, and what of it has no place in plan.md.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Import {
    /// `taskmaster`, `prd`, `steps`, `todos`, `plan` or `markdown`.
    pub format: String,
    pub file: String,
    pub unmapped: Vec<String>,
    pub notes: Vec<String>,
    /// A Markdown plan's whole text, as read: its prose has no place in goals,
    /// and is kept here until the review is done.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub original: Option<String>,
}

impl Proposal {
    pub fn new(
        objective: &str,
        draft: &str,
        backend: &str,
        model: Option<&str>,
        replace: bool,
        now: u64,
    ) -> Proposal {
        Proposal {
            objective: objective.to_string(),
            draft: draft.to_string(),
            created_at: now,
            expires_at: now + LIFETIME.as_secs(),
            backend: backend.to_string(),
            model: model.map(str::to_string),
            replace,
            import: None,
        }
    }

    pub fn expired(&self, now: u64) -> bool {
        now >= self.expires_at
    }
}

/// `plan review --json`, for a draft or an import: the proposal, its time left and
/// its problems.
#[derive(Serialize)]
pub struct View<'a> {
    #[serde(flatten)]
    proposal: &'a Proposal,
    /// Negative once it expired.
    seconds_left: i64,
    expired: bool,
    errors: usize,
    problems: &'a [Diagnostic],
}

impl<'a> View<'a> {
    pub fn new(proposal: &'a Proposal, checked: &'a CheckedText, now: u64) -> View<'a> {
        View {
            proposal,
            seconds_left: proposal.expires_at as i64 - now as i64,
            expired: proposal.expired(now),
            errors: checked.errors(),
            problems: &checked.problems,
        }
    }
}

/// Seconds since the epoch, now.
pub fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_secs())
}

/// `in 59 minutes`, `2 hours ago`: how far `at` is from `now`, in words.
pub fn relative(at: u64, now: u64) -> String {
    let (secs, future) = match at.checked_sub(now) {
        Some(ahead) => (ahead, true),
        None => (now - at, false),
    };
    let (n, unit) = match secs {
        0..7200 => (secs.div_ceil(60).max(1), "minutes"),
        7200..172_800 => (secs / 3600, "hours"),
        _ => (secs / 86_400, "days"),
    };
    let unit = if n == 1 {
        unit.trim_end_matches('s')
    } else {
        unit
    };
    match future {
        true => format!("in {n} {unit}"),
        false => format!("{n} {unit} ago"),
    }
}

pub fn path(git_dir: &Path) -> PathBuf {
    git_dir.join("plan").join("proposal.json")
}

/// The pending proposal, if there is one. One that does not read is an error that
/// says how to get rid of it.
pub fn load(git_dir: &Path) -> Result<Option<Proposal>> {
    let path = path(git_dir);
    let text = match crate::fsread::text(&path, crate::fsread::STATE) {
        Ok(text) => text,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(crate::fsread::exit(&path.display().to_string(), &e)),
    };
    serde_json::from_str(&text).map(Some).map_err(|e| {
        Exit::usage_hint(
            format!("the pending proposal {} does not read: {e}", path.display()),
            "`plan review --reject` removes it; `plan draft OBJECTIVE` makes a new one",
        )
    })
}

/// Writes it atomically, replacing any pending proposal, under the proposal's
/// lock: an approval holding it removes the proposal it read, not this one.
pub fn save(git_dir: &Path, proposal: &Proposal) -> Result<()> {
    let _lock = lock(git_dir)?;
    write(git_dir, proposal)
}

/// Saves `renewed` in place of `was` only while `was` is still the proposal
/// waiting: a redraft takes a model's minutes, and must not bring back a draft
/// approved, rejected or replaced meanwhile. Whether it was saved.
pub fn renew(git_dir: &Path, was: &Proposal, renewed: &Proposal) -> Result<bool> {
    let _lock = lock(git_dir)?;
    if load(git_dir)?.as_ref() != Some(was) {
        return Ok(false);
    }
    write(git_dir, renewed)?;
    Ok(true)
}

fn write(git_dir: &Path, proposal: &Proposal) -> Result<()> {
    let path = path(git_dir);
    let mut json = serde_json::to_string_pretty(proposal)?;
    json.push('\n');
    // Refused here, with the words `plan review` would refuse it with: kept, it
    // said the import worked and then no review could read it.
    if json.len() as u64 > crate::fsread::STATE {
        let too_big = std::io::Error::other(crate::fsread::Refused::TooBig {
            cap: crate::fsread::STATE,
        });
        return Err(crate::fsread::exit(&path.display().to_string(), &too_big));
    }
    let how = atomic::Replace {
        new_file: atomic::NewFile::Private,
        prefix: ".proposal-",
        ..atomic::Replace::DURABLE
    };
    atomic::replace(&path, json.as_bytes(), &how).map_err(|e| match e {
        atomic::Failure::Dir(dir, e) => {
            anyhow::Error::new(e).context(format!("creating {}", dir.display()))
        }
        atomic::Failure::ReadOnly => {
            anyhow::anyhow!("{} is read-only", path.display())
        }
        atomic::Failure::Io(e) => {
            anyhow::Error::new(e).context(format!("writing {}", path.display()))
        }
    })
}

/// The proposal's lock (`plan/proposal.lock` beside it), held by an approval or a
/// rejection from reading the proposal to removing it: two approvals at once both
/// read it and both applied it.
pub fn lock(git_dir: &Path) -> Result<std::fs::File> {
    let path = git_dir.join("plan").join("proposal.lock");
    crate::state::lock::hold(&path, "the proposal's lock")
}

/// Removes it; `false` when there was none.
pub fn remove(git_dir: &Path) -> Result<bool> {
    let path = path(git_dir);
    match crate::atomic::remove(&path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(false),
        Err(e) => Err(Exit::env(format!("cannot remove {}: {e}", path.display()))),
    }
}

/// The proposal for a person: what it is, the draft, its problems, and what to do
/// next (or that it expired).
pub fn show(proposal: &Proposal, problems: &[String], now: u64) -> String {
    let goals = crate::plan::model::parse(&proposal.draft).goals.len();
    let noun = if goals == 1 { "goal" } else { "goals" };
    let by = match &proposal.model {
        Some(model) => format!("{} (model {model})", proposal.backend),
        None => proposal.backend.clone(),
    };
    let when = match proposal.expired(now) {
        true => format!("expired {}", relative(proposal.expires_at, now)),
        false => format!("expires {}", relative(proposal.expires_at, now)),
    };
    let mut out = vec![
        format!(
            "draft for \"{}\": {goals} {noun} by {by}, waiting for review ({when})",
            proposal.objective
        ),
        String::new(),
        // A model wrote it: shown with its control sequences escaped, line by line.
        proposal
            .draft
            .trim_end()
            .lines()
            .map(|l| crate::plan::text::escape_controls(l).into_owned())
            .collect::<Vec<_>>()
            .join("\n"),
        String::new(),
    ];
    if !problems.is_empty() {
        out.push(problems.join("\n"));
        out.push(String::new());
    }
    if proposal.replace {
        out.push("approving it replaces the plan: open and active goals are cancelled, finished ones archived".to_string());
    }
    if proposal.expired(now) {
        out.push(format!(
            "it is too old to approve: `plan draft \"{}\"` drafts it again, `plan review --reject` drops it",
            proposal.objective
        ));
    } else {
        out.push("  plan review --approve        add these goals to plan.md".to_string());
        out.push("  plan review --edit \"TEXT\"    redraft it with your feedback".to_string());
        out.push("  plan review --reject         drop it".to_string());
    }
    out.join("\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::fs;

    #[test]
    fn saves_loads_and_removes() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(load(dir.path()).unwrap(), None);
        let p = Proposal::new("Ship", "## Goal: A\n", "claude", None, false, 1000);
        assert_eq!(p.expires_at, 1000 + 3600);
        save(dir.path(), &p).unwrap();
        assert_eq!(load(dir.path()).unwrap(), Some(p.clone()));
        let json: serde_json::Value =
            serde_json::from_str(&fs::read_to_string(path(dir.path())).unwrap()).unwrap();
        assert_eq!(json["expires_at"], 4600);
        assert_eq!(json["model"], serde_json::Value::Null);
        assert!(!p.expired(4599) && p.expired(4600));
        assert!(remove(dir.path()).unwrap());
        assert!(!remove(dir.path()).unwrap());
    }

    /// Attack: a 100 MB import was kept with exit 0, and `review --approve` then
    /// refused it ("proposal.json is larger than 64 MB"). It is refused when kept,
    /// in the same words, and nothing is kept.
    #[test]
    fn a_proposal_no_review_could_read_is_refused_as_review_would() {
        let dir = tempfile::tempdir().unwrap();
        let huge = format!("## Goal: A\n{}\n", "x".repeat(65 << 20));
        let p = Proposal::new("Ship", &huge, "claude", None, false, 1000);
        let err = save(dir.path(), &p).unwrap_err();
        let said = Exit::shown(&err).1.unwrap();
        assert!(
            said.contains("proposal.json is larger than 64 MB"),
            "{said}"
        );
        assert!(said.contains("plan reads at most 64 MB of it"), "{said}");
        assert_eq!(load(dir.path()).unwrap(), None);
    }

    /// A redraft is kept only in place of the draft it redrafted.
    #[test]
    fn a_renewal_replaces_only_the_proposal_it_renews() {
        let dir = tempfile::tempdir().unwrap();
        let was = Proposal::new("Ship", "## Goal: A\n", "claude", None, false, 1000);
        let renewed = Proposal::new("Ship", "## Goal: B\n", "claude", None, false, 1100);
        assert!(
            !renew(dir.path(), &was, &renewed).unwrap(),
            "approved meanwhile"
        );
        assert_eq!(load(dir.path()).unwrap(), None);
        save(dir.path(), &was).unwrap();
        assert!(renew(dir.path(), &was, &renewed).unwrap());
        assert!(
            !renew(dir.path(), &was, &renewed).unwrap(),
            "replaced meanwhile"
        );
        assert_eq!(load(dir.path()).unwrap(), Some(renewed));
    }

    #[test]
    fn a_broken_file_says_how_to_get_rid_of_it() {
        let dir = tempfile::tempdir().unwrap();
        fs::create_dir_all(dir.path().join("plan")).unwrap();
        fs::write(path(dir.path()), "{").unwrap();
        let err = load(dir.path()).unwrap_err().to_string();
        assert!(err.contains("plan review --reject"), "{err}");
    }

    #[test]
    fn relative_times() {
        assert_eq!(relative(1000 + 3540, 1000), "in 59 minutes");
        assert_eq!(relative(1000 + 30, 1000), "in 1 minute");
        assert_eq!(relative(1000, 1000 + 7200), "2 hours ago");
        assert_eq!(relative(1000, 1000 + 90), "2 minutes ago");
        assert_eq!(relative(0, 3 * 86_400), "3 days ago");
    }
}

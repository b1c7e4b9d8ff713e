//! Whether a proven sign-off is bound to this repository: the checkpoint its line
//! names is a commit this repository keeps under `refs/plan/checkpoints/<goal>/<stamp>`
//! for that goal and that line's stamp. A genuine accept copied in from a scratch
//! repository, with its line, names a commit no ref here reaches. Pure: the refs are
//! read by the caller, once per command (never on the hook path).

use super::event::Event;
use super::model::{Goal, LogEntry, Plan, Status};
use super::proof::Proof;

/// Where checkpoint refs live.
pub const CHECKPOINTS: &str = "refs/plan/checkpoints/";

/// One checkpoint ref: the goal and stamp its name carries, and its commit.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Checkpoint {
    /// The ref, `refs/plan/checkpoints/<goal>/<YYYYMMDD-HHMM>[-N]`.
    pub reference: String,
    pub goal: String,
    /// `YYYY-MM-DD HH:MM`, from the ref's `YYYYMMDD-HHMM` (a `-N` suffix dropped).
    pub stamp: String,
    /// 40 hex digits.
    pub commit: String,
    /// The first line of the commit's message, when read: plan writes
    /// `plan: checkpoint of <goal>`, and a ref pointed at the commit by hand leaves
    /// it naming the goal it was taken for.
    pub subject: Option<String>,
    /// The commit's tree, when read: two sign-offs never take the same tree (the
    /// plan's log differs), so a second commit of an earlier one's tree is a replay.
    pub tree: Option<String>,
    /// Set for the commit a sign-off line names when its ref moved away from it (a
    /// forced fetch put another clone's checkpoint of the same goal and minute
    /// there): the commit the ref points at now. The line's own commit, still in
    /// this clone, is the checkpoint ([`moved_refs`]).
    pub moved: Option<String>,
}

/// How a checkpoint commit's message names its goal.
const SUBJECT: &str = "plan: checkpoint of ";

impl Checkpoint {
    /// `refs/plan/checkpoints/<goal>/<YYYYMMDD-HHMM>[-N]` and its commit; `None` for
    /// a ref of another shape.
    pub fn from_ref(reference: &str, commit: &str) -> Option<Checkpoint> {
        let (goal, name) = reference.strip_prefix(CHECKPOINTS)?.rsplit_once('/')?;
        let b = name.as_bytes();
        let digits = |r: std::ops::Range<usize>| {
            name.get(r.clone())
                .filter(|s| s.bytes().all(|c| c.is_ascii_digit()))
                .map(|_| &name[r])
        };
        (b.get(8) == Some(&b'-')).then_some(())?;
        let stamp = format!(
            "{}-{}-{} {}:{}",
            digits(0..4)?,
            digits(4..6)?,
            digits(6..8)?,
            digits(9..11)?,
            digits(11..13)?
        );
        Some(Checkpoint {
            reference: reference.to_string(),
            goal: goal.to_string(),
            stamp,
            commit: commit.to_string(),
            subject: None,
            tree: None,
            moved: None,
        })
    }

    /// The checkpoint, its commit's message first line known.
    pub fn with_subject(self, subject: String) -> Checkpoint {
        Checkpoint {
            subject: Some(subject),
            ..self
        }
    }

    /// The checkpoint, its commit's tree known.
    pub fn with_tree(self, tree: String) -> Checkpoint {
        Checkpoint {
            tree: Some(tree),
            ..self
        }
    }

    /// The checkpoint a sign-off line names at `commit` (of `subject` and `tree`),
    /// which this ref, kept for the same goal and minute, no longer points at.
    pub fn moved_to(&self, commit: String, subject: String, tree: String) -> Checkpoint {
        Checkpoint {
            commit,
            subject: Some(subject),
            tree: Some(tree),
            moved: Some(self.commit.clone()),
            ..self.clone()
        }
    }

    /// What a moved ref's checkpoint says, beside its sign-off at log line `line`.
    pub fn moved_note(&self, line: usize) -> Option<String> {
        let now = self.moved.as_deref()?;
        Some(format!(
            "signed off with checkpoint {} (log line {line}), which is used though its ref {} now points at {} (another clone's checkpoint of the same goal and minute, put there by a forced fetch)",
            &self.commit[..12.min(self.commit.len())],
            self.reference,
            &now[..12.min(now.len())]
        ))
    }

    /// The goal the commit's message says it was taken for, when it is plan's.
    fn taken_for(&self) -> Option<&str> {
        self.subject.as_deref()?.strip_prefix(SUBJECT)
    }
}

/// What the checkpoint check says of a goal whose record checked out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Binding {
    /// Bound, or nothing to check (no sign-off line naming a checkpoint).
    Bound,
    /// What cannot be checked here, as a warning, not a verdict: a clone with no
    /// checkpoints at all (a fresh one cannot tell a copied sign-off from one made
    /// elsewhere), or a line that names no checkpoint where this repository keeps them.
    Unchecked(String),
    /// This repository keeps checkpoints, and none is this sign-off's.
    Unbound { why: String, hint: String },
}

/// Where a checkpoint this clone lacks may still be.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elsewhere<'a> {
    /// No remote: a checkpoint missing here is in no repository this one reaches.
    Nowhere,
    /// A remote may have it; the command that fetches it.
    Fetch(&'a str),
    /// The pull-request gate, whose workflow fetched every checkpoint of the
    /// remote: one missing here is gone from the remote (a ref deleted there, or
    /// never pushed), and no fetch brings it.
    Fetched,
}

/// What to do about a checkpoint gone from the remote, and how to keep the rest.
pub const GONE_HINT: &str = "push it again from a clone that has it (`plan checkpoints --push`), or reopen the goal and sign it off again; protect `refs/plan/checkpoints/*` on the forge with a push ruleset so no checkpoint is deleted (docs/src/team.md)";

/// Checks the latest sign-off of `goal` (a done goal) against `refs`, every
/// checkpoint ref this repository has (fetched ones too).
pub fn check(
    plan: &Plan<'_>,
    goal: &Goal<'_>,
    refs: &[Checkpoint],
    elsewhere: Elsewhere<'_>,
) -> Binding {
    if goal.status() != Status::Done {
        return Binding::Bound;
    }
    let id = goal.id.as_ref();
    let Some((entry, short)) = latest_sign_off(plan, id) else {
        return Binding::Bound;
    };
    let line = entry.line;
    let Some(short) = short else {
        // The ref named for its goal and minute binds it, if it is a checkpoint
        // plan took for this goal, as a named one must be.
        if let Some(mine) = kept_for(refs, id, entry, None) {
            let named: Vec<&Checkpoint> = refs.iter().filter(|r| r.commit == mine.commit).collect();
            return owned(mine, &named, id, line, &mine.commit[..12])
                .or_else(|| replayed(plan, id, entry, refs, mine));
        }
        if refs.is_empty() {
            return Binding::Bound;
        }
        return Binding::Unchecked(format!(
            "signed off by a line that names no checkpoint (log line {line}), in a repository that keeps them: nothing ties it to this repository (a line from before checkpoints, or one copied in without its checkpoint)"
        ));
    };
    let fetch = "if it was signed off in another clone, fetch its checkpoints (`plan checkpoints --fetch`); otherwise sign it off here with `plan complete`";
    let named: Vec<&Checkpoint> = refs
        .iter()
        .filter(|r| r.commit.starts_with(short))
        .collect();
    if let (true, Elsewhere::Fetch(command)) = (named.is_empty(), elsewhere) {
        return Binding::Unchecked(format!(
            "signed off with checkpoint {short} (log line {line}), which this clone has not fetched: `{command}` brings it from the clone that signed it off once that clone pushed it"
        ));
    }
    if refs.is_empty() {
        return Binding::Unchecked(format!(
            "signed off with checkpoint {short} (log line {line}), which is not in this clone: it has no refs under {CHECKPOINTS}, so the checkpoint cannot be checked here (`plan checkpoints --fetch` gets them)"
        ));
    }
    // A remote with no checkpoint at all never kept one (a repository that does
    // not push them): a warning above, not gone.
    if let (true, Elsewhere::Fetched) = (named.is_empty(), elsewhere) {
        return Binding::Unbound {
            why: format!(
                "its sign-off (log line {line}) names checkpoint {short}, which is gone from the remote: every checkpoint there was fetched and none is {short} (a ref deleted there, or never pushed), so no fetch brings it"
            ),
            hint: GONE_HINT.to_string(),
        };
    }
    if named.is_empty() {
        return Binding::Unbound {
            why: format!(
                "its sign-off (log line {line}) names checkpoint {short}, which no ref under {CHECKPOINTS} in this repository reaches: a sign-off made in another repository and copied in, or in a clone whose checkpoints were not fetched"
            ),
            hint: fetch.to_string(),
        };
    }
    if let Some(mine) = kept_for(refs, id, entry, Some(short)) {
        return owned(mine, &named, id, line, short)
            .or_else(|| replayed(plan, id, entry, refs, mine))
            .or_else(|| mine.moved_note(line).map(Binding::Unchecked));
    }
    let kept: Vec<String> = named
        .iter()
        .map(|r| format!("goal {} at {}", r.goal, r.stamp))
        .collect();
    Binding::Unbound {
        why: format!(
            "its sign-off (log line {line}) names checkpoint {short}, which this repository keeps for {}, not for this sign-off",
            kept.join(", ")
        ),
        hint: "sign it off again with `plan complete`".to_string(),
    }
}

impl Binding {
    /// This binding, or what `then` finds when it is [`Binding::Bound`].
    fn or_else(self, then: impl FnOnce() -> Option<Binding>) -> Binding {
        match self {
            Binding::Bound => then().unwrap_or(Binding::Bound),
            other => other,
        }
    }
}

/// Unbound when an earlier sign-off of goal `id` stands on `mine`, the checkpoint
/// of its sign-off `latest`, or on a commit of the same tree: every sign-off takes
/// its own checkpoint of a tree no other has (the plan's log differs), so a later
/// line on an earlier one's checkpoint replays that sign-off (a reopened goal
/// "signed off" again with a copy of its old record and a second ref at its old
/// commit, or at a new commit of its old tree).
fn replayed(
    plan: &Plan<'_>,
    id: &str,
    latest: &LogEntry<'_>,
    refs: &[Checkpoint],
    mine: &Checkpoint,
) -> Option<Binding> {
    let commit = mine.commit.as_str();
    let same_tree = |r: &Checkpoint| r.tree.is_some() && r.tree == mine.tree;
    let earlier = plan.events(id).find_map(|(entry, e)| match e {
        Event::SignedOff { checkpoint, .. } if entry.line != latest.line => {
            let theirs: Vec<&Checkpoint> = match checkpoint {
                Some(short) => refs
                    .iter()
                    .filter(|r| r.commit.starts_with(short))
                    .collect(),
                None => kept_for(refs, id, entry, None).into_iter().collect(),
            };
            let same = checkpoint.is_some_and(|short| commit.starts_with(short))
                || theirs.iter().any(|r| r.commit == commit || same_tree(r));
            same.then_some(entry.line)
        }
        _ => None,
    })?;
    Some(Binding::Unbound {
        why: format!(
            "its sign-off (log line {}) stands on checkpoint {}, the tree its earlier sign-off (log line {earlier}) took: every sign-off takes its own checkpoint, so this line replays that one",
            latest.line,
            &commit[..12.min(commit.len())]
        ),
        hint: format!("sign it off with `plan complete {id}`, which takes its own checkpoint"),
    })
}

/// The sign-off lines of `plan` whose ref moved: each line names a checkpoint no
/// ref in `refs` points at, while a ref kept for its goal and minute points
/// elsewhere (a forced fetch of another clone's checkpoints). Each with that ref
/// and the commit the line names (a prefix): the caller finds it in the clone.
pub fn moved_refs<'r>(plan: &Plan<'_>, refs: &'r [Checkpoint]) -> Vec<(&'r Checkpoint, String)> {
    if refs.is_empty() {
        return Vec::new();
    }
    // One pass over the log, each line's commit looked up by its first 12 digits
    // (what plan writes): every command that proves a plan pays this, on a long one.
    let heads: std::collections::HashSet<&str> =
        refs.iter().filter_map(|r| r.commit.get(..12)).collect();
    let mut out = Vec::new();
    for entry in &plan.log {
        let Some(Event::SignedOff {
            id,
            checkpoint: Some(short),
            ..
        }) = Event::parse(entry.text)
        else {
            continue;
        };
        let known = match short.len() {
            12 => heads.contains(short),
            _ => refs.iter().any(|r| r.commit.starts_with(short)),
        };
        if known {
            continue;
        }
        if let Some(kept) = kept_for(refs, id, entry, None)
            && kept.moved.is_none()
        {
            out.push((kept, short.to_string()));
        }
    }
    out
}

/// The ref and commit (abbreviated) a [`Checkpoint::moved_note`] names, to point
/// the ref back; `None` for any other warning.
pub fn moved_fix(warning: &str) -> Option<(&str, &str)> {
    let (_, rest) = warning.split_once("signed off with checkpoint ")?;
    let (commit, rest) = rest.split_once(' ')?;
    let (_, rest) = rest.split_once("which is used though its ref ")?;
    let (reference, _) = rest.split_once(" now points at ")?;
    Some((reference, commit))
}

/// Goal `id`'s latest sign-off line, and the checkpoint it names, if it names one.
pub fn latest_sign_off<'p>(
    plan: &'p Plan<'_>,
    id: &'p str,
) -> Option<(&'p LogEntry<'p>, Option<&'p str>)> {
    plan.events(id).rev().find_map(|(entry, e)| match e {
        Event::SignedOff { checkpoint, .. } => Some((entry, checkpoint)),
        _ => None,
    })
}

/// The ref kept for the sign-off `entry` of goal `id`: named for the goal and the
/// line's stamp, and at the commit the line names, if it names one.
pub fn kept_for<'r>(
    refs: &'r [Checkpoint],
    id: &str,
    entry: &LogEntry<'_>,
    short: Option<&str>,
) -> Option<&'r Checkpoint> {
    refs.iter().find(|r| {
        r.goal == id
            && Some(r.stamp.as_str()) == entry.stamp
            && short.is_none_or(|short| r.commit.starts_with(short))
    })
}

/// Whether the checkpoint a ref keeps for this goal and stamp is this goal's own:
/// one goal's honest checkpoint given a second ref for another goal still says,
/// in its commit's message and its first ref, whose it is. Every sign-off takes its
/// own commit, so no two goals share one.
fn owned(mine: &Checkpoint, named: &[&Checkpoint], id: &str, line: usize, short: &str) -> Binding {
    let hint = format!("sign it off with `plan complete {id}`, which takes its own checkpoint");
    match (mine.taken_for(), mine.subject.as_deref()) {
        (Some(goal), _) if goal == id => Binding::Bound,
        (Some(other), _) => Binding::Unbound {
            why: format!(
                "the checkpoint belongs to goal {other}: its sign-off (log line {line}) names checkpoint {short}, whose commit is `{SUBJECT}{other}`"
            ),
            hint,
        },
        // plan has written every checkpoint's message since checkpoints began: a
        // ref pointed by hand at any other commit is no checkpoint.
        (None, Some(subject)) => Binding::Unbound {
            why: format!(
                "its checkpoint {short} (for its sign-off, log line {line}) is no commit plan took: its message is `{subject}`, where plan writes `{SUBJECT}{id}`"
            ),
            hint,
        },
        // A message not read: then its first ref says whose it is.
        (None, None) => match named.iter().find(|r| r.goal != id) {
            Some(other) => Binding::Unbound {
                why: format!(
                    "the checkpoint belongs to goal {}: its sign-off (log line {line}) names checkpoint {short}, which this repository also keeps for goal {} at {}",
                    other.goal, other.goal, other.stamp
                ),
                hint,
            },
            None => Binding::Bound,
        },
    }
}

/// Whether `then`, the plan file as a checkpoint's tree holds it, is this goal's
/// state just before the sign-off `signed` (its log line): a checkpoint is taken
/// before its sign-off line is written, so the goal is there and the line is not.
/// One whose tree lacks the goal, or already has the line, was taken for another
/// goal or after the fact, whatever its message says. (A goal set done by hand
/// and then signed off for real is done in its tree: the status alone tells
/// nothing.) `None` when it is this sign-off's, or when the tree has no plan file
/// plan can read.
pub fn foreign_tree(
    then: Option<&Plan<'_>>,
    id: &str,
    short: &str,
    signed: &LogEntry<'_>,
) -> Option<(String, String)> {
    let hint = format!("sign it off with `plan complete {id}`, which takes its own checkpoint");
    // A tree whose plan file is not a text file plan reads (plan.md swapped for a
    // symlink while the judge ran) says nothing either way.
    let then = then?;
    let why = match then {
        then if then.goal(id).is_none() => format!(
            "the tree of its checkpoint {short} has no goal {id}: it was taken for another goal"
        ),
        then if signed_in(then, id, signed) => {
            format!(
                "the tree of its checkpoint {short} already holds its sign-off line (log line {}): a checkpoint is taken before its sign-off, so this one was taken after, for something else",
                signed.line
            )
        }
        _ => return None,
    };
    Some((why, hint))
}

/// Whether `then`'s log already has a sign-off of `id` stamped as `signed` is, with
/// no reopen after it: the same sign-off (however its line was relabelled since),
/// not an earlier one that a reopen voided within the same minute.
fn signed_in(then: &Plan<'_>, id: &str, signed: &LogEntry<'_>) -> bool {
    let mut standing = false;
    for (entry, event) in then.events(id) {
        match event {
            Event::SignedOff { .. } => standing = entry.stamp == signed.stamp,
            Event::Reopened { .. } => standing = false,
            _ => {}
        }
    }
    standing
}

/// Applies [`check`] to every proven done goal of `plan`: an unbound one becomes
/// unproven, one this clone cannot check keeps a warning.
pub fn apply(plan: &mut Plan<'_>, refs: &[Checkpoint], elsewhere: Elsewhere<'_>) {
    let changes: Vec<(usize, Proof)> = plan
        .goals
        .iter()
        .filter_map(|goal| {
            let Proof::Proven {
                mut warnings,
                by_ci,
            } = plan.proof(goal)
            else {
                return None;
            };
            match check(plan, goal, refs, elsewhere) {
                Binding::Bound => None,
                Binding::Unchecked(warning) => {
                    warnings.push(warning);
                    Some((goal.line, Proof::Proven { warnings, by_ci }))
                }
                Binding::Unbound { why, hint } => Some((goal.line, Proof::Unproven { why, hint })),
            }
        })
        .collect();
    for (line, proof) in changes {
        plan.set_proof(line, proof);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clone with no remote: a missing checkpoint is in no repository it reaches.
    fn check(plan: &Plan<'_>, goal: &Goal<'_>, refs: &[Checkpoint]) -> Binding {
        super::check(plan, goal, refs, Elsewhere::Nowhere)
    }

    /// A clone with a remote: a checkpoint it lacks may be there, so it is a
    /// warning that names the fetch, never "copied in".
    #[test]
    fn a_checkpoint_a_remote_may_have_is_a_warning_naming_the_fetch() {
        let plan = crate::plan::model::parse(SRC);
        let goal = &plan.goals[0];
        let other = "f".repeat(40);
        let kept = refs(&[("refs/plan/checkpoints/b/20260101-1000", &other)]);
        for refs in [&kept[..], &[]] {
            assert_eq!(
                super::check(&plan, goal, refs, Elsewhere::Fetch("git fetch origin")),
                Binding::Unchecked(
                    "signed off with checkpoint 0123456789ab (log line 6), which this clone has not fetched: `git fetch origin` brings it from the clone that signed it off once that clone pushed it".to_string()
                )
            );
        }
    }

    #[test]
    fn a_checkpoint_tree_is_its_goals_only_before_the_sign_off() {
        use crate::plan::model::parse;
        let head = "# Plan: x\n## Goal: S\n<!-- id: ship -->\nstatus: done\ndone_when: y\n## Log\n- 2026-01-01 10:00 ship signed off (no verify, judge skipped)\n";
        let now = parse(head);
        let signed = &now.log[0];
        let before = head.replace("status: done", "status: active");
        let before = &before[..before.find("- 2026").unwrap()];
        for then in [before.to_string(), before.replace("active", "done")] {
            assert_eq!(
                foreign_tree(Some(&parse(&then)), "ship", "abc", signed),
                None
            );
        }
        let why = |then: Option<&str>| {
            foreign_tree(then.map(parse).as_ref(), "ship", "abc", signed)
                .unwrap()
                .0
        };
        assert!(why(Some(head)).contains("already holds its sign-off line (log line 7)"));
        assert!(why(Some("# Plan: x\n## Log\n")).contains("has no goal ship"));
        assert_eq!(foreign_tree(None, "ship", "abc", signed), None);
    }

    #[test]
    fn refs_read_back_their_goal_and_stamp() {
        let c = Checkpoint::from_ref("refs/plan/checkpoints/ship/20260615-1402-2", "ab").unwrap();
        assert_eq!(
            (c.goal.as_str(), c.stamp.as_str()),
            ("ship", "2026-06-15 14:02")
        );
        assert_eq!(
            Checkpoint::from_ref("refs/plan/undo/main/20260615-1402", "ab"),
            None
        );
        assert_eq!(
            Checkpoint::from_ref("refs/plan/checkpoints/ship/2026-06-15", "ab"),
            None
        );
    }

    const SRC: &str = "## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Log\n- 2026-01-01 10:00 a signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/a.md#0123456789ab (checkpoint 0123456789ab)\n";

    fn refs(list: &[(&str, &str)]) -> Vec<Checkpoint> {
        list.iter()
            .map(|(r, c)| Checkpoint::from_ref(r, c).unwrap())
            .collect()
    }

    /// A later sign-off on the commit an earlier one took, named by the line or
    /// only by a ref for its stamp, replays the earlier one; its own commit binds.
    #[test]
    fn a_sign_off_on_an_earlier_sign_offs_checkpoint_is_a_replay() {
        let commit = "0123456789ab".to_string() + &"0".repeat(28);
        let own = "fedcba987654".to_string() + &"0".repeat(28);
        let kept = |later: &str| {
            refs(&[
                ("refs/plan/checkpoints/a/20260101-1000", &commit),
                ("refs/plan/checkpoints/a/20260102-1000", later),
            ])
            .into_iter()
            .map(|c| c.with_subject("plan: checkpoint of a".into()))
            .collect::<Vec<_>>()
        };
        let later = |named: &str| {
            format!(
                "{SRC}- 2026-01-01 11:00 a reopened: broke\n- 2026-01-02 10:00 a signed off (verify passed, judge claude:opus accept, contract 0123abcd): .plan/judge/a2.md#0123456789ab{named}\n"
            )
        };
        for named in [" (checkpoint 0123456789ab)", ""] {
            let src = later(named);
            let plan = crate::plan::model::parse(&src);
            let Binding::Unbound { why, .. } = check(&plan, &plan.goals[0], &kept(&commit)) else {
                panic!("a replay binds ({named:?})");
            };
            assert_eq!(
                why,
                "its sign-off (log line 8) stands on checkpoint 0123456789ab, the tree its earlier sign-off (log line 6) took: every sign-off takes its own checkpoint, so this line replays that one"
            );
        }
        let src = later(" (checkpoint fedcba987654)");
        let plan = crate::plan::model::parse(&src);
        let trees = |later: &str| {
            kept(&own)
                .into_iter()
                .map(|c| {
                    let tree = if c.commit == own { later } else { "t1" };
                    c.with_tree(tree.into())
                })
                .collect::<Vec<_>>()
        };
        assert_eq!(check(&plan, &plan.goals[0], &trees("t2")), Binding::Bound);
        // A new commit of the earlier checkpoint's tree (`git commit-tree`) is one too.
        assert!(matches!(
            check(&plan, &plan.goals[0], &trees("t1")),
            Binding::Unbound { .. }
        ));
    }

    /// One goal's checkpoint given a ref under another goal's name is still the
    /// first goal's: its message says so, or else its first ref does.
    #[test]
    fn a_checkpoint_taken_for_another_goal_binds_no_sign_off() {
        let plan = crate::plan::model::parse(SRC);
        let goal = &plan.goals[0];
        let commit = "0123456789ab".to_string() + &"0".repeat(28);
        let kept = |subject: &str| {
            Checkpoint::from_ref("refs/plan/checkpoints/a/20260101-1000", &commit)
                .unwrap()
                .with_subject(subject.to_string())
        };
        let mine = kept("plan: checkpoint of a");
        assert_eq!(
            check(&plan, goal, std::slice::from_ref(&mine)),
            Binding::Bound
        );
        let Binding::Unbound { why, .. } = check(&plan, goal, &[kept("plan: checkpoint of b")])
        else {
            panic!()
        };
        assert_eq!(
            why,
            "the checkpoint belongs to goal b: its sign-off (log line 6) names checkpoint 0123456789ab, whose commit is `plan: checkpoint of b`"
        );
        let b = Checkpoint::from_ref("refs/plan/checkpoints/b/20251231-0900", &commit).unwrap();
        // A message plan never writes: no checkpoint of plan's at all.
        let Binding::Unbound { why, .. } = check(&plan, goal, &[b.clone(), kept("by hand")]) else {
            panic!()
        };
        assert_eq!(
            why,
            "its checkpoint 0123456789ab (for its sign-off, log line 6) is no commit plan took: its message is `by hand`, where plan writes `plan: checkpoint of a`"
        );
        // A message not read: the commit's first ref says whose it is.
        let unread =
            Checkpoint::from_ref("refs/plan/checkpoints/a/20260101-1000", &commit).unwrap();
        let Binding::Unbound { why, .. } = check(&plan, goal, &[b.clone(), unread]) else {
            panic!()
        };
        assert!(
            why.ends_with("which this repository also keeps for goal b at 2025-12-31 09:00"),
            "{why}"
        );
        // A ref pointed by hand at a's own checkpoint does not take it from a.
        assert_eq!(check(&plan, goal, &[b, mine]), Binding::Bound);
    }

    #[test]
    fn a_checkpoint_must_be_this_sign_offs() {
        let plan = crate::plan::model::parse(SRC);
        let goal = &plan.goals[0];
        let mine = "0123456789ab".to_string() + &"0".repeat(28);
        assert_eq!(
            check(
                &plan,
                goal,
                &refs(&[("refs/plan/checkpoints/a/20260101-1000", &mine)])
            ),
            Binding::Bound
        );
        assert!(matches!(check(&plan, goal, &[]), Binding::Unchecked(_)));
        let bare = crate::plan::model::parse(SRC.split(" (checkpoint").next().unwrap());
        let kept = refs(&[("refs/plan/checkpoints/b/20260101-1000", &mine)]);
        assert!(matches!(
            check(&bare, &bare.goals[0], &kept),
            Binding::Unchecked(_)
        ));
        assert_eq!(check(&bare, &bare.goals[0], &[]), Binding::Bound);
        let other = "f".repeat(40);
        let Binding::Unbound { why, .. } = check(
            &plan,
            goal,
            &refs(&[("refs/plan/checkpoints/a/20260101-1000", &other)]),
        ) else {
            panic!()
        };
        assert!(
            why.contains("which no ref under refs/plan/checkpoints/ in this repository reaches"),
            "{why}"
        );
        for elsewhere in [
            "refs/plan/checkpoints/b/20260101-1000",
            "refs/plan/checkpoints/a/20250101-1000",
        ] {
            let Binding::Unbound { why, .. } = check(&plan, goal, &refs(&[(elsewhere, &mine)]))
            else {
                panic!("{elsewhere}")
            };
            assert!(why.contains("not for this sign-off"), "{why}");
        }
    }
}

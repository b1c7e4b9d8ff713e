//! The verify job's results file: what `plan audit --base REV --verify-only
//! --results FILE` found running each goal's verify on the pull request, and what
//! `--rejudge --verified FILE` reads in the job that holds the judge's key. That job
//! runs none of the pull request's code, so the file is untrusted data, read
//! strictly: a wrong shape, an unknown goal, another commit or an oversize field is
//! a refusal, and a goal it does not name counts as failed.

use std::path::Path;

use anyhow::Result;
use serde::{Deserialize, Serialize};

use crate::exit::Exit;

/// The file's format, written in it; another is refused. 2: each goal's verify
/// run again where the goal started (`at_start`).
pub const FORMAT: u32 = 2;
/// The largest file read.
const MAX_FILE: u64 = 8 * 1024 * 1024;
/// The most of verify's output kept per goal.
pub const TAIL: usize = 16 * 1024;
/// The most of a failure's words.
const FAILURE: usize = 4 * 1024;
/// Files verify made that a sign-off names as evidence: how many per goal, and
/// how much of each.
pub const MADE_FILES: usize = 16;
pub const MADE_BYTES: usize = 64 * 1024;

/// Every goal's verify, run on one commit.
#[derive(Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Results {
    pub format: u32,
    /// The full commit id verify ran on: HEAD in both jobs.
    pub commit: String,
    pub goals: Vec<GoalResult>,
}

impl Results {
    /// The configured plan file's results, and apart the other plan files' goals
    /// (`gate::others`), which name their file.
    pub fn split(self) -> (Results, Vec<GoalResult>) {
        let (others, goals) = self.goals.into_iter().partition(|g| g.file.is_some());
        (
            Results {
                format: self.format,
                commit: self.commit,
                goals,
            },
            others,
        )
    }
}

/// One goal's verify.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GoalResult {
    pub id: String,
    /// The plan file the goal is in, for a goal of another plan file than the
    /// configured one (`gate::others`); absent for the configured one's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The verify line run; `None`: the goal has none, nothing ran.
    pub verify: Option<String>,
    pub passed: bool,
    /// Why it failed, when it did.
    pub failure: Option<String>,
    /// The end of its output.
    pub tail: String,
    /// Evidence files the sign-off names that the commit lacks and verify made (a
    /// report git ignores), as the judge would find them after a sign-off.
    pub made: Vec<Made>,
    /// Red first, checked by running: the verify run again at each commit where
    /// the goal started (`red_first::start_commits`), in that order. The judge job
    /// names the same commits from git and refuses a file that names others.
    pub at_start: Vec<StartRun>,
}

/// The verify of a goal run at a commit where the goal started.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartRun {
    /// Full commit id.
    pub commit: String,
    pub passed: bool,
}

/// What the gate expects the file to say of one goal: its id, its verify line,
/// and the commits its verify is run at for red first.
pub struct Expected<'a> {
    pub id: &'a str,
    pub verify: Option<&'a str>,
    /// Whether `verify` is the base's (a goal the base has is held to the verify
    /// it has there), not the one the goal has now.
    pub from_base: bool,
    pub at_start: &'a [String],
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Made {
    /// Repository-relative, plain components only.
    pub path: String,
    pub text: String,
}

/// A path that stays inside the repository whatever directory it is joined to:
/// relative, with only plain components, none of them `.git`.
pub fn plain(path: &str) -> bool {
    let path = Path::new(path);
    !path.as_os_str().is_empty()
        && path
            .components()
            .all(|c| matches!(c, std::path::Component::Normal(_)))
        && path
            .components()
            .next()
            .is_none_or(|c| c.as_os_str() != ".git")
}

/// Reads and checks `file` against what the gate expects: `commit` (HEAD), and the
/// goals it re-judges with their verify lines. Exit 3 on anything else.
pub fn read(file: &Path, commit: &str, expected: &[Expected<'_>]) -> Result<Results> {
    let name = file.display().to_string();
    let refuse = |why: String| refusal(&name, why);
    let size = std::fs::metadata(file)
        .map_err(|e| refuse(format!("cannot read it: {e}")))?
        .len();
    if size > MAX_FILE {
        return Err(refuse(format!(
            "{size} bytes, more than the {MAX_FILE} a results file can hold"
        )));
    }
    let text = std::fs::read_to_string(file).map_err(|e| refuse(format!("cannot read it: {e}")))?;
    let results: Results =
        serde_json::from_str(&text).map_err(|e| refuse(format!("not a results file: {e}")))?;
    if results.format != FORMAT {
        return Err(refuse(format!(
            "format {}, where this plan reads {FORMAT}",
            results.format
        )));
    }
    if results.commit != commit {
        return Err(refuse(format!(
            "verify ran on {}, and HEAD is {commit}",
            results.commit
        )));
    }
    check(&name, &results, None, expected)?;
    Ok(results)
}

/// The goals `results` (read by [`read`] from the file `name`) reports for the plan
/// file `plan_file` (`None`: the configured one), each checked against `expected`
/// as [`read`] checks the configured file's: an unknown goal, a goal named twice,
/// another verify, other red-first commits or an oversize field is a refusal.
pub fn check(
    name: &str,
    results: &Results,
    plan_file: Option<&str>,
    expected: &[Expected<'_>],
) -> Result<Vec<GoalResult>> {
    let refuse = |why: String| refusal(name, why);
    let mut seen: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for goal in results
        .goals
        .iter()
        .filter(|g| g.file.as_deref() == plan_file)
    {
        let id = goal.id.as_str();
        let Some(want) = expected.iter().find(|e| e.id == id) else {
            return Err(refuse(format!(
                "it names goal {id:?}, which the gate does not re-judge"
            )));
        };
        if seen.contains(&id) {
            return Err(refuse(format!("it names goal {id:?} twice")));
        }
        seen.push(id);
        if goal.verify.as_deref() != want.verify {
            let whose = if want.from_base {
                "the base's verify of the goal"
            } else {
                "the goal's verify"
            };
            return Err(refuse(format!(
                "goal {id}: it ran {:?}, and {whose} is {:?}",
                goal.verify, want.verify
            )));
        }
        let ran: Vec<&str> = goal.at_start.iter().map(|r| r.commit.as_str()).collect();
        if ran != want.at_start {
            return Err(refuse(format!(
                "goal {id}: it ran the verify at the start at {ran:?}, and the gate names {:?}",
                want.at_start
            )));
        }
        if goal.passed == goal.failure.is_some() {
            return Err(refuse(format!(
                "goal {id}: passed must be true exactly when no failure is given"
            )));
        }
        if goal.tail.len() > TAIL || goal.failure.as_ref().is_some_and(|f| f.len() > FAILURE) {
            return Err(refuse(format!("goal {id}: output longer than plan keeps")));
        }
        if goal.made.len() > MADE_FILES {
            return Err(refuse(format!(
                "goal {id}: more than {MADE_FILES} files made by verify"
            )));
        }
        for made in &goal.made {
            if !plain(&made.path) || made.text.len() > MADE_BYTES {
                return Err(refuse(format!(
                    "goal {id}: the made file {:?} is outside the repository or too large",
                    made.path
                )));
            }
        }
        out.push(GoalResult {
            file: None,
            ..goal.clone()
        });
    }
    Ok(out)
}

/// A results file refused: exit 3, with what to use instead.
pub fn refusal(name: &str, why: String) -> anyhow::Error {
    Exit::env_hint(
        format!("refusing the verify results {name}: {why}"),
        "use the file `plan audit --base REV --verify-only --results FILE` wrote on this commit; the gate fails closed on anything else",
    )
}

/// Cuts `text` to its last `max` bytes, on a character boundary.
pub fn tail(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let mut at = text.len() - max;
    while !text.is_char_boundary(at) {
        at += 1;
    }
    text[at..].to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    const COMMIT: &str = "0123456789012345678901234567890123456789";
    const START: &str = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";

    fn check(json: &str) -> Result<Results> {
        check_from(json, false)
    }

    /// `from_base`: the expected verify is the base's.
    fn check_from(json: &str, from_base: bool) -> Result<Results> {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("r.json");
        std::fs::write(&file, json).unwrap();
        let starts = [START.to_string()];
        read(
            &file,
            COMMIT,
            &[Expected {
                id: "a",
                verify: Some("test -f x"),
                from_base,
                at_start: &starts,
            }],
        )
    }

    fn refusal(json: &str) -> String {
        refusal_from(json, false)
    }

    fn refusal_from(json: &str, from_base: bool) -> String {
        let err = check_from(json, from_base).unwrap_err().to_string();
        assert!(err.starts_with("refusing the verify results "), "{err}");
        let why = err.split_once(": ").unwrap().1;
        why.split_once("\n  hint: ").unwrap().0.to_string()
    }

    #[test]
    fn reads_a_good_file_and_refuses_every_other() {
        let good = format!(
            r#"{{"format":2,"commit":"{COMMIT}","goals":[{{"id":"a","verify":"test -f x","passed":true,"failure":null,"tail":"","made":[{{"path":"out/r.txt","text":"ok"}}],"at_start":[{{"commit":"{START}","passed":true}}]}}]}}"#
        );
        assert_eq!(check(&good).unwrap().goals[0].made[0].text, "ok");
        assert_eq!(
            refusal(&good.replace(COMMIT, &"f".repeat(40))),
            format!("verify ran on {}, and HEAD is {COMMIT}", "f".repeat(40))
        );
        assert_eq!(
            refusal(&good.replace(r#""id":"a""#, r#""id":"b""#)),
            "it names goal \"b\", which the gate does not re-judge"
        );
        assert_eq!(
            refusal(&good.replace("test -f x", "true")),
            "goal a: it ran Some(\"true\"), and the goal's verify is Some(\"test -f x\")"
        );
        // A goal the base has is held to the base's verify, and the refusal says so.
        assert_eq!(
            refusal_from(&good.replace("test -f x", "true"), true),
            "goal a: it ran Some(\"true\"), and the base's verify of the goal is Some(\"test -f x\")"
        );
        assert_eq!(
            refusal(&good.replace(r#""passed":true"#, r#""passed":"yes""#))
                .split(':')
                .next(),
            Some("not a results file")
        );
        assert!(
            refusal(&good.replace(r#""format":2"#, r#""format":2,"x":2"#))
                .contains("unknown field")
        );
        assert_eq!(
            refusal(&good.replace("out/r.txt", "../../etc/passwd")),
            "goal a: the made file \"../../etc/passwd\" is outside the repository or too large"
        );
        assert_eq!(
            refusal(&good.replace(
                r#""tail":"""#,
                &format!(r#""tail":"{}""#, "x".repeat(TAIL + 1))
            )),
            "goal a: output longer than plan keeps"
        );
        assert_eq!(
            refusal(&good.replace(r#""failure":null"#, r#""failure":"no""#)),
            "goal a: passed must be true exactly when no failure is given"
        );
        // A red-first run at another commit than the gate names, or none.
        assert_eq!(
            refusal(&good.replace(START, &"e".repeat(40))),
            format!(
                "goal a: it ran the verify at the start at [\"{}\"], and the gate names [\"{START}\"]",
                "e".repeat(40)
            )
        );
        assert!(
            refusal(&good.replace(&format!(r#"{{"commit":"{START}","passed":true}}"#), ""))
                .starts_with("goal a: it ran the verify at the start at []")
        );
        assert_eq!(
            refusal(&good.replace(r#""format":2"#, r#""format":1"#)),
            "format 1, where this plan reads 2"
        );
    }

    #[test]
    fn a_plain_path_stays_inside() {
        for ok in ["a", "a/b.txt", "out/.hidden"] {
            assert!(plain(ok), "{ok}");
        }
        for bad in [
            "",
            "/etc/hostname",
            "../x",
            "a/../../x",
            "./a",
            ".git/config",
        ] {
            assert!(!plain(bad), "{bad}");
        }
    }
}

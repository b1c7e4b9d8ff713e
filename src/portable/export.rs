//! `plan export`: the plan as one JSON document, `{"schema": "plan/1", …}`, and
//! its JSON Schema, generated from these types so the two cannot drift. Pure: the
//! plan comes parsed and proven.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::plan::event::Event;
use crate::plan::model::{Plan, Status};
use crate::plan::proof::Proof;

/// The version of the envelope. A change that a reader of `plan/1` would misread
/// gets a new one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub enum Version {
    #[serde(rename = "plan/1")]
    V1,
}

/// The whole plan: objective, goals in file order (archived ones included), and the
/// log with plan's own lines read as typed events.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[schemars(title = "plan export")]
pub struct Export {
    pub schema: Version,
    /// The `# Plan:` line, if there is one.
    pub objective: Option<String>,
    pub goals: Vec<Goal>,
    pub log: Vec<LogLine>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum GoalStatus {
    Open,
    Active,
    Done,
    Cancelled,
}

impl From<Status> for GoalStatus {
    fn from(status: Status) -> GoalStatus {
        match status {
            Status::Open => GoalStatus::Open,
            Status::Active => GoalStatus::Active,
            Status::Done => GoalStatus::Done,
            Status::Cancelled => GoalStatus::Cancelled,
        }
    }
}

impl From<GoalStatus> for Status {
    fn from(status: GoalStatus) -> Status {
        match status {
            GoalStatus::Open => Status::Open,
            GoalStatus::Active => Status::Active,
            GoalStatus::Done => Status::Done,
            GoalStatus::Cancelled => Status::Cancelled,
        }
    }
}

/// One goal with its contract and standing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Goal {
    pub id: String,
    pub title: String,
    pub status: GoalStatus,
    /// Under `## Archive`.
    pub archived: bool,
    pub done_when: Option<String>,
    pub verify: Option<String>,
    /// Ids of goals that must be finished first.
    pub depends_on: Vec<String>,
    pub failure_modes: Vec<String>,
    /// Its `budget:` line: continuations the work loop may spend on it (not part of
    /// the contract).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<u32>,
    pub subtasks: Vec<Subtask>,
    /// The contract's fingerprint, as the log's events name it.
    pub contract: String,
    pub proof: ProofState,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct Subtask {
    pub text: String,
    pub done: bool,
}

/// Whether a finished goal is backed by its record here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Standing {
    /// Open or active: nothing to prove.
    Unfinished,
    /// Signed off (or cancelled) with a record that checks out.
    Proven,
    /// Finished without a record that checks out.
    Unproven,
    /// Imported as done from another tool and not signed off here since: unproven.
    Imported,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct ProofState {
    pub state: Standing,
    /// Why it is not proven.
    pub why: Option<String>,
    /// For `imported`: the tool and file it came from.
    pub imported_from: Option<String>,
    /// Weak points of a proven sign-off.
    pub warnings: Vec<String>,
}

/// One line under `## Log`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct LogLine {
    /// Its line in plan.md.
    pub line: usize,
    /// `YYYY-MM-DD HH:MM`, when the line has one.
    pub stamp: Option<String>,
    pub text: String,
    /// The line read as one of plan's own events, as `plan events --json` prints it
    /// (without `at`); `null` for free text. A line is text anyone can type: an
    /// event here is what the line says, not proof of it (the goal's `proof` is).
    // Read back as plain JSON (an import keeps the log with its source), so the
    // event's one type stays `Event`, borrowed from plan.md's text.
    #[schemars(with = "Option<Event<'static>>")]
    pub event: Option<serde_json::Value>,
}

/// The plan as the envelope holds it. `plan` must be proven (`Plan::prove`) for
/// the standings to mean anything; without it every finished goal is unproven.
pub fn export(plan: &Plan<'_>) -> Export {
    let goals = plan
        .goals
        .iter()
        .map(|goal| {
            let proof = match plan.proof(goal) {
                Proof::Unfinished => ProofState {
                    state: Standing::Unfinished,
                    why: None,
                    imported_from: None,
                    warnings: Vec::new(),
                },
                Proof::Proven { warnings, .. } => ProofState {
                    state: Standing::Proven,
                    why: None,
                    imported_from: None,
                    warnings,
                },
                Proof::Unproven { why, .. } => ProofState {
                    state: Standing::Unproven,
                    why: Some(why),
                    imported_from: None,
                    warnings: Vec::new(),
                },
                proof @ Proof::Imported { .. } => ProofState {
                    state: Standing::Imported,
                    why: proof.why().map(str::to_string),
                    imported_from: match &proof {
                        Proof::Imported { from, .. } => Some(from.clone()),
                        _ => None,
                    },
                    warnings: Vec::new(),
                },
            };
            Goal {
                id: goal.id.to_string(),
                title: goal.title.to_string(),
                status: goal.status().into(),
                archived: goal.archived,
                done_when: goal.done_when().map(str::to_string),
                verify: goal.verify().map(str::to_string),
                depends_on: goal.depends_on.iter().map(|d| d.to_string()).collect(),
                failure_modes: goal
                    .failure_modes
                    .iter()
                    .map(|f| f.value.to_string())
                    .collect(),
                budget: goal.budget(),
                subtasks: goal
                    .subtasks
                    .iter()
                    .map(|s| Subtask {
                        text: s.text.to_string(),
                        done: s.done,
                    })
                    .collect(),
                contract: goal.fingerprint(),
                proof,
            }
        })
        .collect();
    let log = plan
        .log
        .iter()
        .map(|entry| LogLine {
            line: entry.line,
            stamp: entry.stamp.map(str::to_string),
            text: entry.text.to_string(),
            event: Event::parse(entry.text)
                .map(|event| serde_json::to_value(event).expect("an event is plain JSON")),
        })
        .collect();
    Export {
        schema: Version::V1,
        objective: plan.objective.as_ref().map(|o| o.value.to_string()),
        goals,
        log,
    }
}

/// The JSON Schema of [`Export`], pretty-printed.
pub fn schema() -> String {
    let schema = schemars::schema_for!(Export);
    serde_json::to_string_pretty(&schema).expect("a schema is plain JSON")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const PLAN: &str = "# Plan: Ship

## Goal: Cache layer
<!-- id: cache -->
status: done
done_when: p95 < 50ms
verify: cargo test
failure_modes:
- bypassed
- [x] wire it

## Goal: Docs
<!-- id: docs -->
status: open
depends_on: cache
done_when: README explains it
- [ ] write

## Log
- 2026-06-15 14:00 cache imported as done from taskmaster tasks.json (task 1)
- 2026-06-15 14:01 a note
";

    #[test]
    fn goals_log_and_standing() {
        let mut plan = parse(PLAN);
        plan.prove_legacy();
        let out = export(&plan);
        assert_eq!(out.schema, Version::V1);
        assert_eq!(out.objective.as_deref(), Some("Ship"));
        let cache = &out.goals[0];
        assert_eq!(cache.status, GoalStatus::Done);
        assert_eq!(cache.proof.state, Standing::Imported, "{:?}", cache.proof);
        assert_eq!(
            cache.proof.imported_from.as_deref(),
            Some("taskmaster tasks.json (task 1)")
        );
        assert_eq!(
            cache.subtasks,
            [Subtask {
                text: "wire it".into(),
                done: true
            }]
        );
        assert_eq!(out.goals[1].depends_on, ["cache"]);
        assert_eq!(out.goals[1].proof.state, Standing::Unfinished);
        assert_eq!(
            out.log[0].event,
            Some(serde_json::json!({
                "event": "imported",
                "id": "cache",
                "from": "taskmaster tasks.json (task 1)"
            }))
        );
        assert_eq!(out.log[1].event, None);
        let json = serde_json::to_value(&out).unwrap();
        assert_eq!(json["schema"], "plan/1");
        assert_eq!(json["log"][0]["event"]["event"], "imported");
        let back: Export = serde_json::from_value(json).unwrap();
        assert_eq!(back, out);
    }

    #[test]
    fn the_schema_names_the_version_and_every_event_kind() {
        let schema: serde_json::Value = serde_json::from_str(&schema()).unwrap();
        let text = schema.to_string();
        assert!(text.contains("plan/1"), "{text}");
        for kind in Event::NAMES {
            assert!(text.contains(&format!("\"{kind}\"")), "{kind}");
        }
    }
}

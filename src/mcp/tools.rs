//! The seven tools `plan mcp` offers: their schemas (derived from the structs their
//! arguments deserialize into) and annotations, and each call turned into the CLI
//! command's own code, its printed text captured.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

use crate::cmd;
use crate::cmd::complete::SignOff;
use crate::ctx::{Ctx, Env};
use crate::exit::{Exit, OK};
use crate::out::{self, println};

/// A tool: its name, the sentence a model reads, whether it only reads, and the
/// JSON schema of its arguments.
pub struct Tool {
    pub name: &'static str,
    pub description: &'static str,
    pub read_only: bool,
    pub schema: fn() -> Value,
}

/// Every tool, in the order a model should meet them.
pub const TOOLS: &[Tool] = &[
    Tool {
        name: "plan_status",
        description: "Where the plan stands: objective, active and ready goals, the last log line, unproven done goals, and which plan.md is served; call it first.",
        read_only: true,
        schema: schema::<NoArgs>,
    },
    Tool {
        name: "plan_show",
        description: "One goal in full (contract, subtasks, dependencies, proof state) as JSON when given an id, else the task list.",
        read_only: true,
        schema: schema::<ShowArgs>,
    },
    Tool {
        name: "plan_add",
        description: "Add a goal with its contract: what done means, the command that must pass, and how it could look done while wrong.",
        read_only: false,
        schema: schema::<AddArgs>,
    },
    Tool {
        name: "plan_start",
        description: "Start a goal: it becomes active and its contract is logged.",
        read_only: false,
        schema: schema::<StartArgs>,
    },
    Tool {
        name: "plan_tick",
        description: "Tick subtask n (counting from 1) of a goal.",
        read_only: false,
        schema: schema::<TickArgs>,
    },
    Tool {
        name: "plan_log",
        description: "Append a line to the plan's log: a decision, a finding, a blocker.",
        read_only: false,
        schema: schema::<LogArgs>,
    },
    Tool {
        name: "plan_complete",
        description: "Sign a goal off: its verify runs, then an independent judge re-checks the repository; returns accept or reject, what is missing, and the transcript.",
        read_only: false,
        schema: schema::<CompleteArgs>,
    },
];

/// The JSON schema of a tool's arguments, derived from the struct they deserialize
/// into, so the two cannot disagree. The draft and title are left out: they cost a
/// model's context and say nothing.
fn schema<A: JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(A)).unwrap_or_default();
    if let Some(object) = schema.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object.entry("properties").or_insert_with(|| json!({}));
    }
    schema
}

pub fn find(name: &str) -> Option<&'static Tool> {
    TOOLS.iter().find(|t| t.name == name)
}

/// Where a call runs: the directory plan runs as if in, and the plan file the
/// server was told to serve, if any.
#[derive(Clone, Debug)]
pub struct Place {
    pub cwd: PathBuf,
    pub file: Option<PathBuf>,
}

impl Place {
    pub fn ctx(&self) -> Result<Ctx> {
        let mut ctx = Ctx::at(self.cwd.clone(), self.file.clone())?;
        // The text goes to a model, not a terminal.
        ctx.style.color = false;
        Ok(ctx)
    }

    /// The plan file served, as `plan_status` names it.
    fn served(&self) -> String {
        match self.ctx() {
            Ok(ctx) => ctx.cwd.join(&ctx.store.path).display().to_string(),
            Err(_) => format!("none: {} is in no git repository", self.cwd.display()),
        }
    }
}

/// What a call came to.
#[derive(Debug)]
pub struct Reply {
    pub text: String,
    /// The command would have exited non-zero: failed, refused, rejected.
    pub is_error: bool,
    pub structured: Option<Value>,
}

impl Reply {
    pub fn error(text: impl Into<String>) -> Reply {
        Reply {
            text: text.into(),
            is_error: true,
            structured: None,
        }
    }
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct NoArgs {}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ShowArgs {
    /// goal id or a unique prefix; omit for the task list
    id: Option<String>,
    /// the task list also shows done, cancelled and archived goals
    #[serde(default)]
    all: bool,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AddArgs {
    title: String,
    /// when it is done, in words a reviewer can check
    done_when: Option<String>,
    /// a command that must pass before sign-off, run without a shell
    verify: Option<String>,
    #[serde(default)]
    failure_modes: Vec<String>,
    #[serde(default)]
    subtasks: Vec<String>,
    /// ids of goals that must be done first
    #[serde(default)]
    depends_on: Vec<String>,
    /// start it at once
    #[serde(default)]
    active: bool,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct StartArgs {
    id: String,
    /// accept the goal's changed contract
    #[serde(default)]
    reapprove: bool,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TickArgs {
    id: String,
    #[schemars(range(min = 1))]
    n: usize,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct LogArgs {
    text: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct CompleteArgs {
    id: String,
    /// why the goal is done, in words the judge checks against the repository
    evidence: String,
    /// files or directories that back the evidence
    #[serde(default)]
    paths: Vec<PathBuf>,
}

/// Runs `tool` with `args` in `place`: the command's own code, its output captured,
/// each progress step told to `progress`. Blocks; call it off the async runtime.
pub fn call(
    tool: &Tool,
    place: &Place,
    args: Map<String, Value>,
    progress: impl FnMut(&str) + 'static,
) -> Reply {
    let args = Value::Object(args);
    let call = Call { tool, place, args };
    match tool.name {
        "plan_status" => {
            let reply = call.run(progress, |env, _: NoArgs| {
                cmd::inject::run(
                    env,
                    cmd::inject::Args {
                        json: false,
                        holder: None,
                    },
                )
            });
            status(reply, place)
        }
        "plan_show" => call.run(progress, |env, a: ShowArgs| {
            cmd::show::run(
                env,
                cmd::show::Args {
                    json: a.id.is_some(),
                    id: a.id,
                    all: a.all,
                },
            )
        }),
        "plan_add" => {
            let mut added = None;
            let mut reply = call.run(progress, |env, a: AddArgs| {
                let outcome = cmd::add::add(
                    env,
                    cmd::add::Args {
                        title: a.title,
                        done_when: a.done_when,
                        verify: a.verify,
                        failure_modes: a.failure_modes,
                        subtasks: a.subtasks,
                        depends_on: a.depends_on,
                        template: None,
                        active: a.active,
                        json: false,
                    },
                )?;
                println(&outcome.id)?;
                added = Some(outcome);
                Ok(OK)
            });
            reply.structured = added.and_then(|a| serde_json::to_value(a).ok());
            reply
        }
        "plan_start" => call.run(progress, |env, a: StartArgs| {
            cmd::start::run(
                env,
                cmd::start::Args {
                    id: a.id,
                    reapprove: a.reapprove,
                    holder: None,
                    steal: false,
                    json: false,
                },
            )
        }),
        "plan_tick" => call.run(progress, |env, a: TickArgs| {
            cmd::tick::run(env, cmd::tick::Args { id: a.id, n: a.n })
        }),
        "plan_log" => call.run(progress, |env, a: LogArgs| {
            cmd::log::run(
                env,
                cmd::log::Args {
                    text: vec![a.text],
                    goal: None,
                },
            )
        }),
        "plan_complete" => {
            let mut signed = None;
            let reply = call.run(progress, |env, a: CompleteArgs| {
                let outcome = cmd::complete::sign_off(
                    env,
                    cmd::complete::Args {
                        id: a.id,
                        evidence: a.evidence,
                        paths: a.paths,
                        // The judge and what counts as evidence are the repository's
                        // settings: the agent being judged does not choose them.
                        judge: None,
                        allow_ignored: false,
                        dry_run: false,
                    },
                )?;
                let code = cmd::complete::render(env.ctx()?, &outcome);
                signed = Some(outcome);
                code
            });
            verdict(reply, signed.as_ref())
        }
        _ => Reply::error(format!("plan: no tool {}", tool.name)),
    }
}

struct Call<'a> {
    tool: &'a Tool,
    place: &'a Place,
    args: Value,
}

impl Call<'_> {
    /// Parses the arguments into `A`, then runs the command with its output captured.
    fn run<A: DeserializeOwned>(
        self,
        progress: impl FnMut(&str) + 'static,
        command: impl FnOnce(&Env, A) -> Result<u8>,
    ) -> Reply {
        let args = match serde_json::from_value::<A>(self.args) {
            Ok(args) => args,
            Err(e) => {
                return Reply::error(format!(
                    "plan: {}: bad arguments: {e}\n  hint: the tool's input schema lists what it takes",
                    self.tool.name
                ));
            }
        };
        let place = self.place;
        let (result, out) = out::capture(progress, || {
            place.ctx().and_then(|ctx| command(&Env::with(ctx), args))
        });
        reply(result, out)
    }
}

/// The text and error flag of a command's outcome, worded as the CLI words it on
/// stderr (`main`'s report): its output first, then the error.
fn reply(result: Result<u8>, out: String) -> Reply {
    let mut text = out.trim_end().to_string();
    let (is_error, message) = match result {
        Ok(code) => (code != OK, None),
        Err(err) => (true, Some(message(&err))),
    };
    if let Some(message) = message.filter(|m| !m.is_empty()) {
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&message);
    }
    Reply {
        text,
        is_error,
        structured: None,
    }
}

fn message(err: &anyhow::Error) -> String {
    Exit::shown(err).1.unwrap_or_default()
}

/// `plan inject`'s text, the file it came from, and the rule MCP hosts have no
/// stop hook to enforce.
fn status(mut reply: Reply, place: &Place) -> Reply {
    reply.text = format!(
        "{}\n\nserving: {}\nKeep working while goals remain: take the next ready goal, and sign each off with plan_complete; a goal is done only when plan_complete accepts it.",
        reply.text.trim_end(),
        place.served()
    );
    reply
}

/// The sign-off's typed result as fields, with the text itself: some hosts (Claude
/// Code) hand the model the structured content alone. No result is an `error`: the
/// sign-off stopped before a verdict.
fn verdict(mut reply: Reply, signed: Option<&SignOff>) -> Reply {
    let mut fields = match signed {
        Some(signed) => serde_json::to_value(signed).unwrap_or_else(|_| json!({})),
        None => json!({
            "goal": null,
            "verdict": "error",
            "stages": [],
            "missing": [],
            "record": null,
            "transcript": null,
            "dry_run": false,
        }),
    };
    fields["text"] = Value::String(reply.text.clone());
    reply.structured = Some(fields);
    reply
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(value: &Value) -> Vec<&str> {
        match value {
            Value::Array(items) => items.iter().filter_map(Value::as_str).collect(),
            Value::Object(map) => map.keys().map(String::as_str).collect(),
            _ => Vec::new(),
        }
    }

    /// The schemas a model reads are the argument structs': the same names, the same
    /// required ones, nothing else taken.
    #[test]
    fn each_schema_is_its_argument_structs() {
        let expected: &[(&str, &[&str], &[&str])] = &[
            ("plan_status", &[], &[]),
            ("plan_show", &["all", "id"], &[]),
            (
                "plan_add",
                &[
                    "active",
                    "depends_on",
                    "done_when",
                    "failure_modes",
                    "subtasks",
                    "title",
                    "verify",
                ],
                &["title"],
            ),
            ("plan_start", &["id", "reapprove"], &["id"]),
            ("plan_tick", &["id", "n"], &["id", "n"]),
            ("plan_log", &["text"], &["text"]),
            (
                "plan_complete",
                &["evidence", "id", "paths"],
                &["id", "evidence"],
            ),
        ];
        for (name, properties, required) in expected {
            let schema = (find(name).unwrap().schema)();
            let mut got = names(&schema["properties"]);
            got.sort_unstable();
            assert_eq!(got, *properties, "{name}: {schema}");
            assert_eq!(names(&schema["required"]), *required, "{name}: {schema}");
            assert_eq!(schema["type"], "object", "{name}");
            assert_eq!(schema["additionalProperties"], false, "{name}");
            assert!(schema.get("$schema").is_none(), "{name}: {schema}");
        }
        let tick = (find("plan_tick").unwrap().schema)();
        assert_eq!(tick["properties"]["n"]["minimum"], 1, "{tick}");
        let complete = (find("plan_complete").unwrap().schema)();
        assert_eq!(
            complete["properties"]["evidence"]["description"],
            "why the goal is done, in words the judge checks against the repository"
        );
    }
}

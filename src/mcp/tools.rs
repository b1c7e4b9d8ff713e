//! The nine tools `plan mcp` offers: their schemas (derived from the structs their
//! arguments deserialize into) and annotations, and each call turned into the
//! command's own service, its typed result returned as text (the CLI's words) and,
//! where it is data, as fields. Nothing here reads printed text.

use std::path::PathBuf;

use anyhow::Result;
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use crate::ctx::{Ctx, Env};
use crate::exit::Exit;
use crate::gate::audit;
use crate::gate::report as gate_report;
use crate::out;
use crate::report::{self, render};
use crate::service::show::Shown;
use crate::service::{add, inject, log, show, start, tick};
use crate::signoff::{self, Decision, SignOff};

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
    Tool {
        name: "plan_report",
        description: "The work loop's latest run, or everything since a time or revision: sign-offs, rejections, reopens, cancels, continuations, why it ended, what is left.",
        read_only: true,
        schema: schema::<ReportArgs>,
    },
    Tool {
        name: "plan_audit",
        description: "Which done and cancelled goals their sign-off records prove, and why not; from a base revision, the pull-request gate's checks.",
        read_only: true,
        schema: schema::<AuditArgs>,
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

    /// A result in the CLI's words, less their last newline.
    fn text(text: &str) -> Reply {
        Reply {
            text: text.trim_end().to_string(),
            is_error: false,
            structured: None,
        }
    }

    /// A typed result as fields, with its text among them too: some hosts (Claude
    /// Code) hand the model the structured content alone.
    fn fields(result: &impl Serialize, text: &str) -> Result<Reply> {
        let mut reply = Reply::text(text);
        let mut fields = serde_json::to_value(result)?;
        fields["text"] = Value::String(reply.text.clone());
        reply.structured = Some(fields);
        Ok(reply)
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
    /// holder; default PLAN_SESSION
    #[serde(default, rename = "as")]
    holder: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct TickArgs {
    id: String,
    #[schemars(range(min = 1))]
    n: usize,
    /// holder; default PLAN_SESSION
    #[serde(default, rename = "as")]
    holder: Option<String>,
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
    /// holder; default PLAN_SESSION
    #[serde(default, rename = "as")]
    holder: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct ReportArgs {
    /// a time (YYYY-MM-DD HH:MM) or a git revision
    since: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
struct AuditArgs {
    /// a git revision: check what changed since it (no judge is asked)
    base: Option<String>,
    /// also fail on weak sign-offs and weakened tests
    #[serde(default)]
    strict: bool,
}

/// Runs `tool` with `args` in `place`: the command's own service, each progress step
/// told to `progress`. Blocks; call it off the async runtime.
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
                Ok(Reply::text(&inject::block(env, None)?))
            });
            status(reply, place)
        }
        "plan_show" => call.run(progress, |env, a: ShowArgs| {
            let shown = show::show(env, a.id.as_deref(), a.all, a.id.is_some())?;
            let mut reply = Reply::text(&shown.text()?);
            if let Shown::Json(card) = shown {
                // The card is its own text, as JSON.
                reply.structured = Some(card);
            }
            Ok(reply)
        }),
        "plan_add" => call.run(progress, |env, a: AddArgs| {
            let added = add::add(
                env,
                add::Request {
                    title: a.title,
                    done_when: a.done_when,
                    verify: a.verify,
                    failure_modes: a.failure_modes,
                    subtasks: a.subtasks,
                    depends_on: a.depends_on,
                    template: None,
                    active: a.active,
                },
            )?;
            let mut reply = Reply::text(&added.id);
            reply.structured = Some(serde_json::to_value(&added)?);
            Ok(reply)
        }),
        "plan_start" => call.run(progress, |env, a: StartArgs| {
            let request = start::Request {
                id: a.id,
                reapprove: a.reapprove,
                holder: a.holder,
                steal: false,
                no_verify: false,
            };
            let started = start::start(env, &request)?;
            Reply::fields(&started, &started.message)
        }),
        "plan_tick" => call.run(progress, |env, a: TickArgs| {
            let ticked = tick::mark(env, &a.id, a.n, true, a.holder.as_deref())?;
            Reply::fields(&ticked, &ticked.text())
        }),
        "plan_log" => call.run(progress, |env, a: LogArgs| {
            let logged = log::append(env, &a.text, None)?;
            Reply::fields(&logged, &logged.text())
        }),
        "plan_complete" => call.run_then(
            progress,
            |env, a: CompleteArgs| {
                let outcome = signoff::sign_off(
                    env,
                    signoff::Request {
                        id: a.id,
                        evidence: a.evidence,
                        paths: a.paths,
                        // The judge and what counts as evidence are the repository's
                        // settings: the agent being judged does not choose them.
                        judge: None,
                        allow_ignored: false,
                        dry_run: false,
                        holder: a.holder,
                    },
                )?;
                outcome.warn_ignored();
                let mut reply = Reply::text(&outcome.text());
                reply.is_error = outcome.verdict == Decision::Reject;
                Ok(verdict(reply, Some(&outcome)))
            },
            |reply| match reply.structured {
                Some(_) => reply,
                None => verdict(reply, None),
            },
        ),
        "plan_report" => call.run(progress, |env, a: ReportArgs| {
            let made = report::report(env.ctx()?, &report::Request { since: a.since })?;
            Reply::fields(&made, &render::render(&made, render::Form::Text))
        }),
        // The gate's own service, as `plan audit [--base REV] [--strict]` runs it.
        // No re-judge: CI's judge is the gate's, with its key, not the agent's to
        // call; nor approvals, which are people's.
        "plan_audit" => call.run(progress, |env, a: AuditArgs| {
            let ctx = env.ctx()?;
            let request = audit::Request {
                reverify: false,
                base: a.base,
                rejudge: false,
                judge: None,
                verify_only: None,
                verified: None,
                strict: a.strict,
                approved_by: None,
                ci_accepted: None,
            };
            let audit::Outcome::Report { report, failed } = audit::audit(ctx, &request)? else {
                return Ok(Reply::error(
                    "plan: plan_audit wrote verify results it was not asked for",
                ));
            };
            let mut reply = Reply::fields(&report, &gate_report::human(&report, ctx.style))?;
            reply.is_error = failed > 0;
            Ok(reply)
        }),
        _ => Reply::error(format!("plan: no tool {}", tool.name)),
    }
}

struct Call<'a> {
    tool: &'a Tool,
    place: &'a Place,
    args: Value,
}

impl Call<'_> {
    /// Parses the arguments into `A`, then runs the service; an error is the reply,
    /// worded as the CLI words it on stderr.
    fn run<A: DeserializeOwned>(
        self,
        progress: impl FnMut(&str) + 'static,
        service: impl FnOnce(&Env, A) -> Result<Reply>,
    ) -> Reply {
        self.run_then(progress, service, |reply| reply)
    }

    /// As [`Call::run`], with every reply, an error's too, given its last shape by
    /// `finish` before the call's notes go ahead of it.
    fn run_then<A: DeserializeOwned>(
        self,
        progress: impl FnMut(&str) + 'static,
        service: impl FnOnce(&Env, A) -> Result<Reply>,
        finish: impl FnOnce(Reply) -> Reply,
    ) -> Reply {
        let args = match serde_json::from_value::<A>(self.args) {
            Ok(args) => args,
            Err(e) => {
                return finish(Reply::error(format!(
                    "plan: {}: bad arguments: {e}\n  hint: the tool's input schema lists what it takes",
                    self.tool.name
                )));
            }
        };
        let place = self.place;
        let (result, notes) = out::serving(progress, || {
            place.ctx().and_then(|ctx| service(&Env::with(ctx), args))
        });
        let reply = result.unwrap_or_else(|err| Reply::error(message(&err)));
        with_notes(finish(reply), &notes)
    }
}

/// The notes a call gave on the way (a verify that passes before the work, tests
/// not committed when a goal starts) ahead of its result, as the CLI's stderr comes
/// ahead of its stdout: an agent using MCP reads no stderr. In the fields too, for
/// hosts that hand the model those alone.
fn with_notes(mut reply: Reply, notes: &[String]) -> Reply {
    if notes.is_empty() {
        return reply;
    }
    reply.text = format!("{}\n{}", notes.join("\n"), reply.text);
    if let Some(Value::Object(fields)) = &mut reply.structured {
        fields.insert("notes".to_string(), serde_json::json!(notes));
        if fields.contains_key("text") {
            fields.insert("text".to_string(), Value::String(reply.text.clone()));
        }
    }
    reply
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
            ("plan_start", &["as", "id", "reapprove"], &["id"]),
            ("plan_tick", &["as", "id", "n"], &["id", "n"]),
            ("plan_log", &["text"], &["text"]),
            (
                "plan_complete",
                &["as", "evidence", "id", "paths"],
                &["id", "evidence"],
            ),
            ("plan_report", &["since"], &[]),
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

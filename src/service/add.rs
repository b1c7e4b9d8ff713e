//! Adding a goal with its contract (`plan add`, MCP's `plan_add`): the typed
//! result is the new goal.

use std::path::Path;

use anyhow::Result;
use serde::Serialize;

use crate::clock;
use crate::ctx::Env;
use crate::exit::Exit;
use crate::plan::event::Event;
use crate::plan::model::{Status, parse};
use crate::plan::precondition;
use crate::plan::{goal_template, id, ops, patch};
use crate::red_first;
use crate::store::WriteError;
use crate::verify;

/// The goal to add: what `plan add` and `plan_add` ask.
#[derive(Debug, Default)]
pub struct Request {
    pub title: String,
    pub done_when: Option<String>,
    pub verify: Option<String>,
    pub failure_modes: Vec<String>,
    pub subtasks: Vec<String>,
    pub depends_on: Vec<String>,
    /// A goal template's name: `.plan/templates/NAME.md` or a built-in.
    pub template: Option<String>,
    pub active: bool,
}

/// The goal added: what `plan add --json` prints and `plan_add` returns.
#[derive(Debug, Serialize)]
pub struct Added {
    pub id: String,
    pub status: Status,
    pub contract: String,
    /// The log lines written, without their `- `.
    pub logged: Vec<String>,
}

/// Goal template `name` for `title`: `.plan/templates/NAME.md` under `root` if there
/// is one, else the built-in of that name.
fn template(root: &Path, name: &str, title: &str) -> Result<goal_template::Start> {
    let dir = root.join(".plan").join("templates");
    let valid = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_');
    let own = valid
        .then(|| crate::fsread::text(&dir.join(format!("{name}.md")), crate::fsread::CONFIG).ok())
        .flatten();
    let (text, place) = match own {
        Some(text) => (text, format!(".plan/templates/{name}.md")),
        None => match goal_template::BUILT_IN.iter().find(|(n, _)| *n == name) {
            Some((_, text)) => (text.to_string(), format!("the built-in template {name}")),
            None => {
                let mut known: Vec<String> = goal_template::BUILT_IN
                    .iter()
                    .map(|(n, _)| n.to_string())
                    .collect();
                if let Ok(entries) = std::fs::read_dir(&dir) {
                    for entry in entries.flatten() {
                        let file = entry.file_name().to_string_lossy().into_owned();
                        if let Some(n) = file.strip_suffix(".md")
                            && !known.iter().any(|k| k == n)
                        {
                            known.push(n.to_string());
                        }
                    }
                }
                return Err(Exit::usage_hint(
                    format!(
                        "no goal template \"{}\"",
                        crate::plan::text::escape_controls(name)
                    ),
                    format!(
                        "templates are {}; add your own as .plan/templates/NAME.md",
                        known.join(", ")
                    ),
                ));
            }
        },
    };
    goal_template::read(&text, title).map_err(|why| {
        Exit::usage_hint(
            format!("{place}: {why}"),
            "a template is one goal in plan.md's format: `## Goal: {title}` and its lines",
        )
    })
}

/// Concurrent adds may pick the same id; the store refuses the second, which
/// then picks again.
const ATTEMPTS: usize = 8;

/// Adds the goal; prints nothing.
pub fn add(env: &Env, mut args: Request) -> Result<Added> {
    let ctx = env.ctx()?;
    let title = ops::one_line(&args.title);
    if title.is_empty() {
        return Err(Exit::usage_hint(
            "a goal needs a title",
            "plan add \"Implement the cache layer\"",
        ));
    }
    if let Some(name) = args.template.take() {
        let start = template(&ctx.prompt_root(), &name, &title)?;
        args.done_when = args.done_when.or(start.done_when);
        args.verify = args.verify.or(start.verify);
        args.failure_modes = start
            .failure_modes
            .into_iter()
            .chain(args.failure_modes)
            .collect();
        args.subtasks = start.subtasks.into_iter().chain(args.subtasks).collect();
        args.depends_on = start
            .depends_on
            .into_iter()
            .chain(args.depends_on)
            .collect();
    }
    // Refused now, as `plan complete` would refuse it later.
    if let Some(line) = args.verify.as_deref().map(ops::one_line_command)
        && !line.is_empty()
    {
        verify::parse_at(&line, "--verify")?;
    }
    crate::service::plain("the title", &title)?;
    if let Some(d) = &args.done_when {
        crate::service::plain("--done-when", &ops::one_line(d))?;
    }
    if let Some(v) = &args.verify {
        crate::service::plain("--verify", &ops::one_line_command(v))?;
    }
    for m in &args.failure_modes {
        crate::service::plain("--failure-mode", &ops::one_line(m))?;
    }
    for t in &args.subtasks {
        crate::service::plain("--subtask", &ops::one_line(t))?;
    }
    let stamp = clock::now()?.stamp();
    let mut at_start = None;
    for attempt in 1..=ATTEMPTS {
        let src = ctx.store.read_for_write()?;
        // Each parse of a long plan holds several times its bytes: the first is
        // dropped once the id is picked, the preview's before the write.
        let (depends_on, id) = {
            let plan = ctx.parse(&src)?;
            let depends_on = ctx.dependency_ids(&plan, &args.depends_on)?;
            // A title's look-alike of a taken id counts as taken: plan never writes a pair.
            let id = id::unique(&id::slug(&title), |c| {
                plan.goal(c).is_some()
                    || id::reads_like_any(c, plan.goals.iter().map(|g| g.id.as_ref()))
            });
            (depends_on, id)
        };
        let status = if args.active {
            Status::Active
        } else {
            Status::Open
        };
        let goal = ops::NewGoal {
            title: title.clone(),
            id: id.clone(),
            status: Some(status),
            done_when: args.done_when.clone(),
            verify: args.verify.clone(),
            depends_on,
            failure_modes: args.failure_modes.clone(),
            subtasks: args.subtasks.clone(),
        };
        // Placed where new goals go in the file as it is when written: an archive
        // that ran meanwhile moved the goals, not the place.
        let mut edits = vec![patch::Edit::AppendGoal {
            lines: goal.lines(),
        }];
        let preview = patch::apply(&src, &edits).expect("edits made from this text apply to it");
        let mut after = parse(&preview);
        let fingerprint = after
            .goal(&id)
            .expect("the goal just inserted")
            .fingerprint();
        // The contract at creation: every later change must be approved in the log.
        let added = Event::Added {
            id: &id,
            contract: &fingerprint,
        };
        edits.push(ops::event(&stamp, &added));
        let mut logged = vec![format!("{stamp} {}", added.render())];
        if args.active {
            ctx.prove(&mut after);
            let new = after.goal(&id).expect("the goal just inserted");
            ops::check_dependencies(&after, new, "start")?;
            let commit = ctx.head_commit()?;
            // Red first, as `plan start` does: run once, on the first attempt only.
            if attempt == 1 {
                at_start = red_first::run_at_start(ctx, new, false)?;
            }
            let started = Event::Started {
                id: &id,
                contract: &fingerprint,
                commit: commit.as_deref(),
                verify: at_start,
            };
            edits.push(ops::event(&stamp, &started));
            logged.push(format!("{stamp} {}", started.render()));
        }
        drop(after);
        drop(preview);
        // Another writer that took the id meanwhile makes the add start over.
        let written = ctx.store.write_checked(&src, edits, |fresh| {
            precondition::intact(fresh)?;
            match fresh.goal(&id) {
                Some(_) => Err(format!("another goal took the id {id} meanwhile")),
                None => Ok(()),
            }
        });
        match written {
            Ok(_) => {
                red_first::warn_cannot_fail(&id, args.verify.as_deref());
                let root = ctx.repo.as_ref().map(|r| r.root.as_path());
                verify::warn_missing(&id, args.verify.as_deref(), root);
                verify::warn_shell_words(&id, args.verify.as_deref());
                return Ok(Added {
                    id,
                    status,
                    contract: fingerprint,
                    logged,
                });
            }
            Err(WriteError::Conflict { .. }) if attempt < ATTEMPTS => continue,
            Err(e) => return Err(e.into()),
        }
    }
    unreachable!("the last attempt returns")
}

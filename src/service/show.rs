//! What `plan show` and MCP's `plan_show` show: the task-list widget, one goal in
//! full, or the whole model as JSON.

use anyhow::Result;
use serde_json::Value;

use crate::ctx::Env;
use crate::plan::{card, render};

/// What `plan show` shows: the text it prints, or the JSON it prints (and
/// `plan_show ID` returns as fields).
#[derive(Debug)]
pub enum Shown {
    /// The task list or one goal, worded for a person.
    Text(String),
    /// One goal's card or the whole plan (`--json`).
    Json(Value),
}

impl Shown {
    /// The text as printed.
    pub fn text(&self) -> Result<String> {
        Ok(match self {
            Shown::Text(text) => text.clone(),
            Shown::Json(value) => format!("{}\n", crate::out::json(value)?),
        })
    }
}

/// Goal `id` in full (a unique prefix will do), else the task list (`all`: with the
/// finished and archived goals); as JSON when `json`.
pub fn show(env: &Env, id: Option<&str>, all: bool, json: bool) -> Result<Shown> {
    let ctx = env.ctx()?;
    let src = ctx.store.read()?;
    let mut plan = ctx.read(&src);
    if json || all || id.is_some() {
        ctx.prove(&mut plan);
    }
    if let Some(query) = id {
        let goal = ctx.lookup(&plan, query)?;
        let name = ctx.store.name.as_str();
        let mut card = card::card(&plan, goal, name, &|fp| ctx.contract_text(&goal.id, fp));
        // A read command: a check that cannot run leaves the findings unknown.
        card.weakened_tests = ctx
            .repo
            .as_ref()
            .and_then(|repo| crate::weakened::of_goal(&repo.root, &plan, goal).ok())
            .flatten();
        card.findings = card.weakened_tests.as_ref().map(|found| {
            found
                .iter()
                .flat_map(crate::plan::weakened::kinds::of)
                .collect()
        });
        card.verify_cannot_fail = goal.verify().and_then(crate::red_first::cannot_fail);
        card.verify_green_at_start = crate::red_first::of_goal(ctx, &plan, goal);
        return Ok(if json {
            Shown::Json(serde_json::to_value(&card)?)
        } else {
            Shown::Text(card::render(&plan, goal, &card, ctx.style))
        });
    }
    Ok(if json {
        Shown::Json(serde_json::to_value(render::plan_view(&plan))?)
    } else {
        let text = render::widget(&plan, all, ctx.style);
        // Another tool's plan reads as no goals: say what is there instead.
        Shown::Text(match crate::plan::foreign::line(&plan, &ctx.store.name) {
            Some(line) => text.replace("no goals yet · plan add TITLE", &line),
            None => text,
        })
    })
}

//! Ticking subtask N of a goal (`plan tick`, MCP's `plan_tick`) and, for `plan
//! untick`, clearing it.

use anyhow::Result;
use serde::Serialize;

use crate::ctx::Env;
use crate::plan::ops;
use crate::plan::precondition::Seen;

/// A subtask ticked or cleared: what `plan tick` and `plan untick` say, and what
/// `plan_tick` returns.
#[derive(Debug, Serialize)]
pub struct Ticked {
    pub id: String,
    /// Which subtask, counting from 1.
    pub n: usize,
    pub subtask: String,
    /// Ticked now (`plan untick`: false).
    pub done: bool,
    /// False: it already was; nothing was written.
    pub changed: bool,
    pub ticked: usize,
    pub total: usize,
}

impl Ticked {
    pub fn text(&self) -> String {
        let (id, n) = (&self.id, self.n);
        match (self.changed, self.done) {
            (true, true) => format!(
                "ticked {id} {}/{}: {}",
                self.ticked, self.total, self.subtask
            ),
            (true, false) => format!(
                "unticked {id} {}/{}: {}",
                self.ticked, self.total, self.subtask
            ),
            (false, true) => format!("{id} subtask {n} is already ticked"),
            (false, false) => format!("{id} subtask {n} is not ticked"),
        }
    }
}

/// Ticks subtask `n` of goal `query`, or (`done` false, for `plan untick`) clears it,
/// as `holder` (`--as`; else PLAN_SESSION).
pub fn mark(env: &Env, query: &str, n: usize, done: bool, holder: Option<&str>) -> Result<Ticked> {
    let ctx = env.ctx()?;
    let src = ctx.store.read_for_write()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.find(&plan, query)?;
    crate::claims::guard(ctx, &goal.id, holder)?;
    let verb = if done { "tick" } else { "untick" };
    ops::check_open(goal, &format!("{verb} its subtasks"))?;
    let (ticked, total) = goal.progress();
    let mut result = Ticked {
        id: goal.id.to_string(),
        n,
        subtask: String::new(),
        done,
        changed: false,
        ticked,
        total,
    };
    let Some(edit) = ops::mark(&plan, goal, n, done)? else {
        result.subtask = goal.subtasks[n - 1].text.to_string();
        return Ok(result);
    };
    let mut edits = ops::id_comment(&plan, goal);
    edits.push(edit);
    let seen = Seen::unfinished(goal);
    result.subtask = goal.subtasks[n - 1].text.to_string();
    // The write parses the file again: one parse of a long plan at a time.
    drop(plan);
    ctx.store
        .write_checked(&src, edits, |fresh| seen.check(fresh))?;
    result.changed = true;
    result.ticked = if done { ticked + 1 } else { ticked - 1 };
    Ok(result)
}

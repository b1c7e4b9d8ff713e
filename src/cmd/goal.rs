//! `plan goal`: start and control the work loop the continuation guard enforces.

use anyhow::Result;
use clap::Subcommand;
use serde::Serialize;
use std::cell::Cell;

use crate::clock;
use crate::config;
use std::io::IsTerminal;

use crate::ctx::{Ctx, Env};
use crate::exit::{Exit, OK};
use crate::git::Repo;
use crate::out::println;
use crate::plan::blocks;
use crate::plan::event::{Approval, Event};
use crate::state::{Loop, State};

mod rearm;

/// Start (or restart) the work loop: the agent may not stop while goals remain
#[derive(Debug, clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    /// Continuations before the loop lets the agent stop [default: loop.budget, 20]
    #[arg(long)]
    pub budget: Option<u32>,
    /// Tokens the host may report (in its transcript) before the loop lets the agent
    /// stop [default: loop.token_budget, none]
    #[arg(long, value_name = "N")]
    pub token_budget: Option<u64>,
    /// Wall time the loop may run before it lets the agent stop, e.g. 90m or 8h
    /// [default: loop.time_budget, none]
    #[arg(long, value_name = "DURATION", value_parser = crate::loop_budget::parse_duration)]
    pub time_budget: Option<u64>,
    /// Print a condition for the host's own goal (Claude Code's `/goal`) that holds
    /// it to plan's sign-offs, and start nothing
    #[arg(long, conflicts_with_all = ["budget", "token_budget", "time_budget"])]
    pub host_condition: bool,
    #[command(subcommand)]
    pub action: Option<Action>,
}

#[derive(Debug, Subcommand)]
pub enum Action {
    /// Let the agent stop until `plan goal resume` (for the person who started the
    /// loop; logged in plan.md, saying whether a terminal was attached)
    Pause,
    /// Continue a paused loop
    Resume,
    /// End the loop (for the person who started it; logged in plan.md, saying whether
    /// a terminal was attached)
    Clear,
    /// Give a budget-limited goal a new budget: its count of continuations back to
    /// 0, and the loop names it again (for the person who started the loop; logged
    /// in plan.md, saying whether a terminal was attached)
    Rearm {
        /// The goal (id or unique prefix)
        id: String,
    },
    /// Show the loop: budget, continuations used, budget-limited goals, owner, why
    /// it ended
    Status {
        /// Print it as JSON
        #[arg(long)]
        json: bool,
    },
}

/// What `plan goal status --json` prints: always an object, with the loop's
/// fields when there is one.
#[derive(Serialize)]
struct Report<'a> {
    /// `none`, `running`, `paused` or `ended`.
    state: &'static str,
    #[serde(flatten)]
    current: Option<&'a Loop>,
    /// Seconds since the loop started (to its end, once it ended).
    #[serde(skip_serializing_if = "Option::is_none")]
    elapsed: Option<u64>,
    /// The goals not signed off yet, in plan order (absent when plan.md cannot be
    /// read).
    #[serde(skip_serializing_if = "Option::is_none")]
    goals_left: Option<Vec<String>>,
}

/// What `plan goal status` prints once no goal is left: the words the host
/// condition names.
const ALL_SIGNED_OFF: &str = "none: every goal signed off";

/// `plan goal --host-condition`: a host's transcript-reading goal check sees only
/// what the agent ran, so the condition asks for plan's own status, read fresh.
const HOST_CONDITION: &str = "Not met until `plan goal status`, run after the last change, \
reports every goal signed off: its `goals left:` line must read `none: every goal signed off`. \
A goal counts as done only through `plan complete ID`, never by the agent's word.";

/// The goals of `ctx`'s plan.md not signed off yet: every goal a continuation could
/// name (active, ready, finished without a sign-off, shelved, vanished).
fn goals_left(ctx: &Ctx) -> Option<Vec<String>> {
    let src = ctx.store.read().ok()?;
    let plan = ctx.parse(&src).ok()?;
    let mut ids: Vec<String> = Vec::new();
    for part in blocks::continuation_parts(&plan) {
        if !ids.contains(&part.goal) {
            ids.push(part.goal);
        }
    }
    Some(ids)
}

/// Why a cleared loop ended, as `plan goal status` shows it.
const CLEARED: &str = "cleared by `plan goal clear`";

/// Whether a terminal was attached: all a log line can say of who ran the command.
fn approval() -> Approval {
    Approval::from_terminal(std::io::stdin().is_terminal())
}

/// Logs a loop event in plan.md. The loop changed already: a plan.md that cannot
/// be written costs the line, never the pause or clear itself; the failure is
/// kept in `unlogged`, and the command then exits 3 saying so (a command that
/// exits 0 wrote everything it said).
/// Called with the loop's lock held (`State::with_loop_then`): lock order is the
/// loop's state, then the store; no path takes them the other way round.
fn log_loop(ctx: &Ctx, event: Event<'_>, unlogged: &Cell<Option<String>>) {
    if let Err(e) = ctx.store.log_event(&event) {
        let why = Exit::said(&e);
        unlogged.set(Some(format!(
            "{} was not logged in {} ({why})",
            event.render(),
            ctx.store.name
        )));
    }
}

fn loop_state(l: &Loop) -> &'static str {
    match (&l.ended, l.paused) {
        (Some(_), _) => "ended",
        (None, true) => "paused",
        (None, false) => "running",
    }
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    let state = State::new(&repo.git_dir);
    if args.host_condition {
        println(HOST_CONDITION)?;
        return Ok(OK);
    }
    let unlogged = Cell::new(None);
    match args.action {
        None => start(ctx, repo, &state, &args, &unlogged)?,
        Some(ref action @ (Action::Pause | Action::Resume)) => {
            pause_or_resume(ctx, &state, matches!(action, Action::Pause), &unlogged)?;
        }
        Some(Action::Clear) => clear(ctx, repo, &state, &unlogged)?,
        Some(Action::Rearm { id }) => rearm_goal(ctx, repo, &state, &id, &unlogged)?,
        Some(Action::Status { json }) => status(ctx, repo, &state, json)?,
    }
    match unlogged.take() {
        Some(why) => Err(Exit::env_hint(
            why,
            "the loop changed as said, but the stop hook goes by plan.md's log: once plan.md can be written, run this again",
        )),
        None => Ok(OK),
    }
}

/// The error for a loop state that does not read, if it does not.
fn damaged(state: &State) -> Option<anyhow::Error> {
    state.unreadable_loop().map(|why| {
        Exit::env_hint(
            why,
            "`plan goal` starts a new loop in its place (or delete the file)",
        )
    })
}

/// The error for a command that needs a running loop and finds none.
fn none(state: &State) -> anyhow::Error {
    damaged(state)
        .unwrap_or_else(|| Exit::usage_hint("no work loop is running", "`plan goal` starts one"))
}

/// `plan goal`: starts the loop, in place of any running one.
fn start(
    ctx: &Ctx,
    repo: &Repo,
    state: &State,
    args: &Args,
    unlogged: &Cell<Option<String>>,
) -> Result<()> {
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let config = config::load(Some(&repo.root))?;
    let budget = args.budget.unwrap_or(config.loop_budget);
    if budget == 0 {
        return Err(Exit::usage_hint(
            "a budget of 0 continuations would never continue",
            "plan goal --budget 20",
        ));
    }
    let token_budget = args.token_budget.or(config.loop_token_budget);
    if token_budget == Some(0) {
        return Err(Exit::usage_hint(
            "a token budget of 0 would end the loop at its first stop",
            "plan goal --token-budget 2000000, or leave it out for none",
        ));
    }
    let time_budget = args.time_budget.or(config.loop_time_budget);
    let started = clock::now()?.stamp();
    // Its start line would be refused after the loop changed (stamped no
    // earlier than the log's newest line), and a clock set ahead would be
    // kept as the floor of every later line.
    let floor = ctx.store.stamp_floor(&plan.log);
    let line = clock::now()?.not_before(floor.as_deref()).stamp();
    clock::refuse_ahead(&line, &ctx.store.name)?;
    // No log line is stamped before the loop it is written in.
    crate::stamp_floor::raise_in(&repo.git_dir, &started);
    crate::hooks::loop_mark::set(&repo.git_dir, &started, None);
    let budgets = crate::loop_budget::Budgets {
        token_budget,
        time_budget,
        started_at: Some(clock::epoch_now()),
        fixed_clock: clock::fixed().is_some(),
        ..Default::default()
    };
    let limits = crate::loop_budget::limits(&budgets);
    // A running loop replaced (say by one with a budget of 1, to be let go
    // sooner) was cleared: logged as a clear is, under the loop's lock. Then
    // the start, from which the stop hook reads what plan.md says of this
    // loop (a pause, a clear).
    // HEAD as the loop starts: what plan.md held then is what an ending
    // for want of work is checked against (`plan::loop_log::lost`).
    let head = crate::git::head_commit(&repo.root).ok().flatten();
    let log_replaced = |replaced: &bool| {
        if *replaced {
            log_loop(
                ctx,
                Event::LoopCleared {
                    approval: approval(),
                },
                unlogged,
            );
        }
        log_loop(
            ctx,
            Event::LoopStarted {
                budget,
                commit: head.as_deref(),
                approval: approval(),
            },
            unlogged,
        );
    };
    state.with_loop_then(log_replaced, |l| {
        let running = l.as_ref().is_some_and(|l| l.ended.is_none());
        *l = Some(Loop {
            budget,
            // Held from here (src/plan/budget.rs `held`): the agent edits
            // plan.md and may not give a goal more.
            goal_budget: config.loop_goal_budget,
            stall_limit: Some(config.loop_stall_limit),
            goal_budgets: plan
                .goals
                .iter()
                .filter_map(|g| Some((g.id.to_string(), g.budget()?)))
                .collect(),
            started,
            budgets,
            ..Loop::default()
        });
        running
    })?;
    let work = if blocks::has_work(&plan) {
        "the next agent session to run a hook claims it"
    } else {
        "note: no goal is active or ready to start, so the first stop ends it"
    };
    ctx.say(&format!(
        "work loop started: up to {budget} continuations{limits}; {work}"
    ))?;
    // A setting that no longer takes effect is said, not dropped in silence.
    if config.loop_judge && !config::load_lenient(None).0.loop_judge {
        crate::out::warn(&format!(
            "plan: note: {} turns the loop judge on, which only your own settings file does: its pause lets the agent stop, and the agent can write the repository's file\n  hint: put `loop:` with `judge: on` under it in {}",
            config::REPO_NAME,
            config::user_file().map_or_else(
                || "~/.config/plan/config.yaml".to_string(),
                |p| config::display_path(&p)
            )
        ));
    }
    Ok(())
}

/// `plan goal pause` (`pause`) and `plan goal resume`.
fn pause_or_resume(
    ctx: &Ctx,
    state: &State,
    pause: bool,
    unlogged: &Cell<Option<String>>,
) -> Result<()> {
    // Logged under the loop's lock: a clear racing it logs after this line
    // or finds the loop as it was, never before this line. A resume is
    // logged whether or not loop.json says paused (the agent can write it):
    // the stop hook takes a pause only while plan.md's last word on it since
    // the loop started is a pause.
    let event = match pause {
        true => Event::LoopPaused {
            approval: approval(),
        },
        false => Event::LoopResumed {
            approval: approval(),
        },
    };
    let log = |changed: &Option<()>| {
        if changed.is_some() {
            log_loop(ctx, event, unlogged);
        }
    };
    state
        .with_loop_then(log, |l| {
            l.as_mut()
                .filter(|l| l.ended.is_none())
                .map(|l| l.paused = pause)
        })?
        .ok_or_else(|| none(state))?;
    ctx.say(match pause {
        true => "work loop paused; `plan goal resume` continues it",
        false => "work loop resumed",
    })?;
    Ok(())
}

/// `plan goal clear`.
fn clear(ctx: &Ctx, repo: &Repo, state: &State, unlogged: &Cell<Option<String>>) -> Result<()> {
    // Kept, ended, rather than removed: a loop state that is gone without
    // this is one the stop hook asks about.
    let log = |had: &bool| {
        if *had {
            log_loop(
                ctx,
                Event::LoopCleared {
                    approval: approval(),
                },
                unlogged,
            );
        }
    };
    let had = state.with_loop_then(log, |l| match l.as_mut().filter(|l| l.ended.is_none()) {
        Some(running) => {
            running.ended = Some(CLEARED.to_string());
            running.budgets.ended_at = Some(crate::loop_budget::reading(
                &running.budgets,
                clock::epoch_now(),
            ));
            true
        }
        None => false,
    })?;
    // The report reads the loop under its lock: made once that is let go.
    if had {
        crate::hooks::loop_mark::forget(&repo.git_dir);
        let (config, _) = config::load_lenient(Some(&repo.root));
        crate::report::announce_end(
            &repo.root,
            &repo.git_dir,
            &config.notify,
            Some(&ctx.store.path),
        );
    }
    // A damaged state is named first (the person looks at it, or deletes it).
    if !had && let Some(e) = damaged(state) {
        return Err(e);
    }
    // A loop whose state is gone while plan.md's log says it runs is one
    // the stop hook keeps again from that log: clearing it logs the clear
    // there, under the loop's lock as any clear.
    let in_log = !had && {
        let src = ctx.store.read()?;
        let said = crate::plan::loop_log::loop_log(&ctx.parse(&src)?.log, "");
        said.last_start.is_some() && !said.over()
    };
    if in_log {
        state.with_loop_then(|()| log(&true), |_| ())?;
        crate::hooks::loop_mark::forget(&repo.git_dir);
    }
    ctx.say(if had || in_log {
        "work loop cleared"
    } else {
        "no work loop to clear"
    })?;
    Ok(())
}

/// `plan goal rearm ID`.
fn rearm_goal(
    ctx: &Ctx,
    repo: &Repo,
    state: &State,
    id: &str,
    unlogged: &Cell<Option<String>>,
) -> Result<()> {
    let src = ctx.store.read()?;
    let plan = ctx.parse(&src)?;
    let goal = ctx.lookup(&plan, id)?;
    let config = config::load(Some(&repo.root))?;
    let log = |budget: &Option<Option<u32>>| {
        if budget.is_some() {
            log_loop(
                ctx,
                Event::BudgetRearmed {
                    id: &goal.id,
                    approval: approval(),
                },
                unlogged,
            );
        }
    };
    let budget = state
        .with_loop_then(log, |l| {
            let l = l.as_mut()?;
            if !rearm::rearm(l, &goal.id) {
                return None;
            }
            // The new budget is the one plan.md and the key give now,
            // held from here as a first continuation would hold it.
            let default = crate::plan::budget::tighter(config.loop_goal_budget, l.goal_budget);
            let budget = goal.budget().or(default);
            if let Some(n) = budget {
                l.goal_budgets.insert(goal.id.to_string(), n);
            }
            Some(budget)
        })?
        .ok_or_else(|| none(state))?;
    ctx.say(&rearm::said(&goal.id, budget))?;
    Ok(())
}

/// `plan goal status`.
fn status(ctx: &Ctx, repo: &Repo, state: &State, json: bool) -> Result<()> {
    let current = state.peek_loop()?;
    if current.is_none()
        && let Some(e) = damaged(state)
    {
        return Err(e);
    }
    if json {
        let report = Report {
            state: current.as_ref().map_or("none", loop_state),
            current: current.as_ref(),
            elapsed: current
                .as_ref()
                .and_then(|l| crate::loop_budget::elapsed(&l.budgets, clock::epoch_now())),
            goals_left: goals_left(ctx),
        };
        println(&crate::out::json(&report)?)?;
        return Ok(());
    }
    let Some(l) = current else {
        println("no work loop (`plan goal` starts one)")?;
        return Ok(());
    };
    let status = match &l.ended {
        Some(why) => format!("ended: {why}"),
        None => loop_state(&l).to_string(),
    };
    let owner = l.owner.as_deref().unwrap_or("not claimed yet");
    println(&format!(
        "work loop {status}\n  continuations: {} of {}\n  stalls in a row: {}\n  session: {owner}\n  started: {}{}",
        l.used,
        l.budget,
        l.stalls,
        l.started,
        crate::loop_budget::status_lines(&l.budgets, clock::epoch_now())
    ))?;
    if let Some(lines) = rearm::status_lines(&l) {
        println(&lines)?;
    }
    match goals_left(ctx).as_deref() {
        Some([]) => println(&format!("  goals left: {ALL_SIGNED_OFF}"))?,
        Some(ids) => println(&format!(
            "  goals left: {} (`plan complete ID` signs each off)",
            ids.join(", ")
        ))?,
        None => {}
    }
    if let Some(words) = l.host_goal.words() {
        println(&format!("  host's own goal: {words}"))?;
    }
    if let Some(trouble) = state.lock_trouble(&repo.root) {
        println(&format!("  ⚠ {}", trouble.long))?;
    }
    Ok(())
}

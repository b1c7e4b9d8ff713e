//! One hook call: find the repository and plan.md from the host's cwd, read the
//! plan once, update the session and loop state, and decide what to answer. The hot
//! path: no git2 but a running loop's stop (its work fingerprint), no network, no
//! judge unless the loop judge is on.

use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{Context, Result};

use super::guard::{self, Stop};
use super::host::{self, Answer, Host, Input, Kind};
use crate::cache;
use crate::config::{self, Config, EveryPrompt};
use crate::git;
use crate::plan::blocks::{self, Templates};
use crate::plan::claim;
use crate::plan::model::Plan;
use crate::plan::template::fill;
use crate::prompts::{self, overrides::or_embedded};
use crate::state::State;

/// The loop judge is cheap or it is nothing: a stop hook cannot wait long.
const LOOP_JUDGE_TIMEOUT: Duration = Duration::from_secs(30);
pub use crate::prompts::LOOP_JUDGE;

/// Where a hook finds things.
pub struct Place {
    pub root: PathBuf,
    pub git_dir: PathBuf,
    pub plan_path: PathBuf,
}

/// The repository and plan file for a hook running in `cwd`; `None` when there is
/// no repository or no plan there (nothing to do).
pub fn place(cwd: &Path) -> Result<Option<Place>> {
    let Some(repo) = git::discover(cwd)? else {
        return Ok(None);
    };
    let plan_path = match crate::env::os("PLAN_FILE").filter(|v| !v.is_empty()) {
        Some(file) => cwd.join(file),
        None => repo.root.join("plan.md"),
    };
    Ok(Some(Place {
        root: repo.root,
        git_dir: repo.git_dir,
        plan_path,
    }))
}

pub fn handle(host: Host, event: &str, stdin: &str) -> Result<Answer> {
    let (kind, _) = host::kind(host, event).with_context(|| {
        format!(
            "unknown {host:?} hook event \"{event}\" (expected {})",
            host::events(host)
        )
    })?;
    let input = host::parse_input(stdin).map_err(anyhow::Error::msg)?;
    // A subagent's turn that runs the main agent's hooks (Copilot names it by
    // `agentId`): its stop is not the main agent's, so the loop neither holds nor
    // charges it (Copilot drops a block there; the subagentStop that follows holds
    // a subagent on a goal it claimed), and its prompt tells it its holder name.
    let (kind, subagent_prompt) = match kind {
        Kind::Stop if input.agent_id.is_some() => return Ok(Answer::Nothing),
        Kind::Prompt if input.agent_id.is_some() => (Kind::SubagentStart, true),
        kind => (kind, false),
    };
    if !concerns_plan(host, kind, &input) {
        return Ok(Answer::Nothing);
    }
    let cwd = match &input.cwd {
        Some(dir) if dir.is_dir() => dir.clone(),
        _ => std::env::current_dir().context("reading the current directory")?,
    };
    let Some(place) = place(&cwd)? else {
        return Ok(Answer::Nothing);
    };
    // A stop from another worktree of the loop's repository, or from a repository
    // made inside it, is the loop's: decided where the loop runs.
    let place = match kind {
        Kind::Stop => super::elsewhere::loop_root(&place.root, &place.git_dir, &input.session)
            .and_then(|root| self::place(&root).ok().flatten())
            .unwrap_or(place),
        _ => place,
    };
    // What the hooks take from plan.md, cached while nothing it came from changes.
    let at = cache::Place {
        root: &place.root,
        plan: &place.plan_path,
        git_dir: &place.git_dir,
    };
    let Some(mut view) = cache::view(
        &at,
        host.spec().skeleton_at_compaction && kind == Kind::Compact,
    ) else {
        // Unreadable or missing: the read says which, and a running loop's stop is
        // held once either way (`gone_in_loop`).
        return match crate::fsread::text(&place.plan_path, crate::fsread::PLAN) {
            // A running loop's plan.md made unreadable (a stray invalid byte) is
            // held as a missing one is: as an error, every stop was let go.
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                match (kind == Kind::Stop)
                    .then(|| gone_in_loop(&place, &input, Some(&e)))
                    .flatten()
                {
                    Some(answer) => Ok(answer),
                    None => {
                        Err(e).with_context(|| format!("reading {}", place.plan_path.display()))
                    }
                }
            }
            Err(_) if kind == Kind::Stop => {
                Ok(gone_in_loop(&place, &input, None).unwrap_or(Answer::Nothing))
            }
            _ => Ok(Answer::Nothing),
        };
    };
    // The cache under .git/plan is as writable by the agent as anything there: a
    // cached view saying no work is left, which would end a running loop as
    // finished, is derived again from plan.md itself (rare: once, at a loop's end).
    let state = State::new(&place.git_dir);
    if kind == Kind::Stop
        && (!view.has_work || view.continuation.is_none())
        && state
            .peek_loop()
            .is_ok_and(|l| l.is_some_and(|l| l.ended.is_none()))
        && let Some(fresh) = cache::fresh(&at, false)
    {
        view = fresh;
    }
    let config = lenient_config(&place.root);
    // A subagent's claims are under its own id; its stop, and a task's, look at
    // every goal, whoever holds it.
    let own = match kind {
        Kind::SubagentStart | Kind::SubagentStop => input.agent_id.as_deref(),
        _ => None,
    };
    let claims = Claimed::read(&place, own.unwrap_or(&input.session));
    let mut view = match kind {
        Kind::SubagentStart | Kind::SubagentStop | Kind::TaskDone | Kind::PreTool => view,
        _ => claims.apply(view),
    };
    if matches!(kind, Kind::Start | Kind::Prompt)
        || (kind == Kind::Tool && host.spec().inject_at_tool)
    {
        view.injection = with_limited(&state, view.injection);
    }
    let view = &view;
    // A plan with format errors is injected as far as it reads: the block names the
    // errors, and the agent is not left without its plan. Only the loop holds back.
    match kind {
        Kind::Start => on_start(&state, &input, view),
        Kind::Prompt => on_prompt(host, &state, &config, &input, view),
        // The host's own goal reported complete: recorded, no edit to count.
        Kind::Tool if input.goal_completed => {
            note_host_goal(&state, |g, now| g.completed = Some(now));
            Ok(Answer::Nothing)
        }
        Kind::Tool => on_tool(host, &cwd, &place, &state, &config, &input, view),
        Kind::Compact => on_compact(host, &state, &input, view),
        Kind::Stop => {
            let limit = host.event(event).and_then(|e| e.cap());
            stop(host, &place, &state, &config, &input, view, limit)
                .or_else(|e| held_stop(&place, &state, &input, e))
        }
        Kind::SubagentStart if subagent_prompt => Ok(on_subagent_prompt(&config, &input, view)),
        Kind::SubagentStart => Ok(on_subagent_start(&input, view)),
        Kind::SubagentStop => on_subagent_stop(&state, &claims, &input, view),
        Kind::TaskDone => Ok(on_task_done(&place, &input, view)),
        Kind::PreTool => Ok(on_pre_tool(&place, &state, &input, view)),
    }
}

/// Stops in a row a subagent is held at before it is let go: a subagent has no
/// loop budget of its own, and its parent hears of the goal either way.
pub const SUBAGENT_HOLDS: u32 = 5;

/// A subagent starts while the plan has work: it is told the holder name its
/// claims go under, since it cannot see its own id otherwise.
fn on_subagent_start(input: &Input, view: &cache::View) -> Answer {
    let Some(agent) = input.agent_id.as_deref() else {
        return Answer::Nothing;
    };
    if !view.has_work || claim::invalid_name(agent).is_some() {
        return Answer::Nothing;
    }
    Answer::Context(format!(
        "plan: this subagent's holder name is `{agent}`. To take a goal of plan.md, `plan start ID --as {agent}`; a subagent holding a goal is held at its stop until `plan complete ID` signs the goal off (or `plan release ID --as {agent}` hands it back)."
    ))
}

/// A prompt of a subagent's own turn (Copilot): the block, unless prompts get none,
/// and its holder name. It is not the main agent's prompt: it claims no loop.
fn on_subagent_prompt(config: &Config, input: &Input, view: &cache::View) -> Answer {
    let block = (config.inject_every_prompt != EveryPrompt::Never).then(|| view.injection.clone());
    match (block, on_subagent_start(input, view)) {
        (Some(block), Answer::Context(holder)) => Answer::Context(format!("{block}\n{holder}")),
        (Some(block), _) => Answer::Context(block),
        (None, answer) => answer,
    }
}

/// A subagent's stop, or an Agent Teams teammate going idle: held while a goal it
/// claimed (under its `agent_id`; a teammate's under its session or its name) has
/// work left, naming what remains, at most [`SUBAGENT_HOLDS`] stops in a row. One
/// that claimed nothing, or waits on background work, is let go.
fn on_subagent_stop(
    state: &State,
    claims: &Claimed,
    input: &Input,
    view: &cache::View,
) -> Result<Answer> {
    // A teammate's idle carries no `stop_hook_active`: its holds count in a row
    // until it is let go, and start again after.
    let (what, names, key, in_a_row) = match (&input.agent_id, &input.teammate) {
        (Some(agent), _) => (
            "subagent",
            vec![agent.as_str()],
            format!("subagent-{agent}"),
            input.stop_active,
        ),
        (None, Some(name)) => (
            "teammate",
            vec![input.session.as_str(), name.as_str()],
            format!("teammate-{}", input.session),
            true,
        ),
        (None, None) => return Ok(Answer::Nothing),
    };
    let held: Vec<&crate::git::claims::Claim> = claims
        .claims
        .iter()
        .filter(|c| names.contains(&c.holder.as_str()))
        .collect();
    let left: Vec<&str> = view
        .parts
        .iter()
        .filter(|p| held.iter().any(|c| c.goal == p.goal))
        .map(|p| p.text.as_str())
        .collect();
    let shown = names[names.len() - 1];
    if left.is_empty() {
        state.session(&key, |s| s.blocks = 0)?;
        return Ok(Answer::Nothing);
    }
    if let Some(waiting) = &input.waiting {
        return Ok(Answer::Note(format!(
            "plan: {what} {shown} waits on {waiting}: its stop is let go uncounted"
        )));
    }
    let holds = state.session(&key, |s| {
        if !in_a_row {
            s.blocks = 0;
        }
        s.blocks += 1;
        let holds = s.blocks;
        if holds > SUBAGENT_HOLDS && what == "teammate" {
            s.blocks = 0;
        }
        holds
    })?;
    if holds > SUBAGENT_HOLDS {
        return Ok(Answer::Note(format!(
            "plan: {what} {shown} was held {SUBAGENT_HOLDS} stops in a row on a goal it claimed and is let go; the goal is still not signed off: {}",
            left.join("; ")
        )));
    }
    let (holder, to) = match what {
        "subagent" => (shown, "the main agent"),
        _ => (
            held.iter()
                .find(|c| view.parts.iter().any(|p| p.goal == c.goal))
                .map_or(shown, |c| c.holder.as_str()),
            "the lead",
        ),
    };
    Ok(Answer::Block(format!(
        "plan: this {what} claimed a goal that is not signed off: {}. A goal is done when `plan complete ID` signs it off (its verify passes and a judge re-checks the repository); go on with it, or `plan release ID --as {holder}` to hand it back to {to}. (Hold {holds} of {SUBAGENT_HOLDS}.)",
        left.join("; ")
    )))
}

/// A task marked completed whose subject or description names a goal of plan.md
/// that is not signed off: refused, with what the goal still needs (the host shows
/// the reason to the agent or teammate). Any other task passes.
fn on_task_done(place: &Place, input: &Input, view: &cache::View) -> Answer {
    let Some(task) = input.task.as_deref() else {
        return Answer::Nothing;
    };
    let text = crate::fsread::text(&place.plan_path, crate::fsread::PLAN).ok();
    let plan = text.as_deref().map(crate::plan::model::parse);
    let title = |id: &str| {
        plan.as_ref()
            .and_then(|p| p.live().find(|g| g.id == id).map(|g| g.title))
            .unwrap_or_default()
    };
    // Goals with work left, as the continuation names them; and open goals not yet
    // ready (waiting on a dependency), which no continuation names.
    let mut left: Vec<String> = view
        .parts
        .iter()
        .filter(|p| names_goal(task, &p.goal, title(&p.goal)))
        .map(|p| p.text.clone())
        .collect();
    if let Some(plan) = &plan {
        for goal in plan.live() {
            let named = names_goal(task, &goal.id, goal.title);
            let listed = view.parts.iter().any(|p| p.goal == goal.id);
            if named && !listed && !goal.status().is_finished() {
                left.push(format!(
                    "{} is {} and not signed off",
                    goal.id,
                    goal.status().as_str()
                ));
            }
        }
    }
    if left.is_empty() {
        return Answer::Nothing;
    }
    Answer::Block(format!(
        "plan: this task names a goal of plan.md that is not signed off: {}. The task is done when `plan complete ID` signs the goal off (its verify passes and a judge re-checks the repository); mark the task completed after that.",
        left.join("; ")
    ))
}

/// A call that marks the host's own goal complete, while plan's loop runs with goals
/// not signed off: refused, naming them. The host's goal ends on the model's word;
/// plan's goals end on a sign-off, and the two loops must not disagree about when
/// the work is done. No loop running, or one paused or ended: the host's goal is the
/// person's business.
fn on_pre_tool(place: &Place, state: &State, input: &Input, view: &cache::View) -> Answer {
    if !input.goal_done || view.parts.is_empty() {
        return Answer::Nothing;
    }
    let running = state
        .peek_loop()
        .is_ok_and(|l| l.is_some_and(|l| l.ended.is_none() && !paused(&l, &place.plan_path)));
    if !running {
        return Answer::Nothing;
    }
    note_host_goal(state, |g, _| g.refused += 1);
    let mut goals: Vec<&str> = Vec::new();
    for part in &view.parts {
        if !goals.contains(&part.goal.as_str()) {
            goals.push(&part.goal);
        }
    }
    // A long plan's goals are counted past the first few: the reason is read by a
    // model at every refused call.
    let mut named: Vec<String> = goals
        .iter()
        .take(NAMED_GOALS)
        .map(|g| crate::plan::text::excerpt(g).into_owned())
        .collect();
    if goals.len() > NAMED_GOALS {
        named.push(format!("and {} more", goals.len() - NAMED_GOALS));
    }
    Answer::Deny(format!(
        "plan: the goal is not complete while plan.md has goals not signed off: {}. Sign each off with `plan complete ID` (its verify passes and a judge re-checks the repository); `plan goal status` lists the goals left. Mark the goal complete after that.",
        named.join(", ")
    ))
}

/// The most goals a refused host-goal call names.
const NAMED_GOALS: usize = 8;

/// Records what the host's own goal did in the running loop's state, for `plan goal
/// status`. Best effort: a hook that cannot write it answers all the same.
fn note_host_goal(state: &State, change: impl FnOnce(&mut crate::state::HostGoal, String)) {
    let Ok(now) = crate::clock::now() else { return };
    let now = format!("{} {}", now.date, now.time);
    let _ = state.with_loop(|l| {
        if let Some(l) = l.as_mut().filter(|l| l.ended.is_none()) {
            change(&mut l.host_goal, now);
        }
    });
}

/// Whether a task's `text` names the goal `id` titled `title`: its title of two
/// words or more, an id that reads as one (`cache-layer`, `v2`) as a whole word, or
/// any id marked as one (`` `later` ``, `goal later`, `plan complete later`). A bare
/// one-word id is an ordinary word ("tidy the rest later"): refusing an honest task
/// for it costs more than missing a task list's tick, which plan does not trust.
fn names_goal(text: &str, id: &str, title: &str) -> bool {
    let text = text.to_lowercase();
    let id = id.to_lowercase();
    let title = title.trim().to_lowercase();
    if id.is_empty() {
        return false;
    }
    let slug = id.contains(['-', '_']) || id.chars().any(|c| c.is_ascii_digit());
    let marked = [
        format!("`{id}`"),
        format!("goal {id}"),
        format!("plan complete {id}"),
        format!("plan start {id}"),
    ];
    (slug && whole_word(&text, &id))
        || marked.iter().any(|m| whole_word(&text, m))
        || (title.split_whitespace().count() >= 2 && whole_word(&text, &title))
}

/// Whether `needle` stands in `text` as a whole word (`cache` is not in
/// `cache-layer`).
fn whole_word(text: &str, needle: &str) -> bool {
    let part = |c: char| c.is_alphanumeric() || c == '-' || c == '_';
    text.match_indices(needle).any(|(at, _)| {
        !text[..at].chars().next_back().is_some_and(part)
            && !text[at + needle.len()..].chars().next().is_some_and(part)
    })
}

/// A stop whose state lock another process held past the hooks' wait: let go, one
/// `flock` on the lock would end any loop. A running loop of this session's (or
/// nobody's yet), read without the lock (loop.json is only ever replaced whole, so
/// read as one loop), blocks the stop without counting it; anything else fails open
/// as ever.
fn held_stop(place: &Place, state: &State, input: &Input, e: anyhow::Error) -> Result<Answer> {
    if !e.is::<crate::state::lock::Held>() {
        return Err(e);
    }
    let running = state.loop_unlocked().is_some_and(|l| {
        l.ended.is_none()
            && !paused(&l, &place.plan_path)
            && l.owner.as_deref().is_none_or(|o| o == input.session)
    });
    if !running {
        return Err(e);
    }
    Ok(Answer::Block(format!(
        "plan: {e:#}. The work loop is running, so this stop is blocked without counting it: go on with plan.md's goals."
    )))
}

/// Whether this call can concern the plan: not a stop the host follows with more
/// turns, and, for a tool call, a file edit. Hosts without a tool matcher (Codex,
/// pi) call this for every tool; only file edits count, so the rest cost no file
/// reads at all.
fn concerns_plan(host: Host, kind: Kind, input: &Input) -> bool {
    if kind == Kind::Stop && input.more_turns {
        return false;
    }
    let spec = host.spec();
    let is_edit = input
        .tool_name
        .as_deref()
        .is_some_and(|t| host::edits_files(t) || spec.edit_tools.contains(&t));
    kind != Kind::Tool || is_edit || input.goal_completed
}

/// Hooks never go quiet over a setting they do not use: a section that does not
/// read keeps its defaults, and the person is told in one line.
fn lenient_config(root: &Path) -> Config {
    let (config, notes) = config::load_lenient(Some(root));
    for note in notes {
        crate::out::warn(&note);
    }
    config
}

/// Session start: the whole block, always; a startup prunes old sessions first.
fn on_start(state: &State, input: &Input, view: &cache::View) -> Result<Answer> {
    if input.source.as_deref().is_none_or(|s| s == "startup") {
        state.prune();
    }
    export_session(&input.session);
    let block = view.injection.clone();
    let block_hash = cache::content_hash(block.as_bytes());
    state.session(&input.session, |s| {
        s.injected = Some(block_hash);
        s.compact_mark = None;
        if input.source.as_deref() == Some("compact") {
            s.compactions += 1;
        }
    })?;
    claim(state, &input.session)?;
    Ok(Answer::Context(block))
}

/// A prompt: the block when it changed, a compaction took it away, or the setting
/// wants it every time.
fn on_prompt(
    host: Host,
    state: &State,
    config: &Config,
    input: &Input,
    view: &cache::View,
) -> Result<Answer> {
    claim(state, &input.session)?;
    if config.inject_every_prompt == EveryPrompt::Never {
        return Ok(Answer::Nothing);
    }
    let block = view.injection.clone();
    let block_hash = cache::content_hash(block.as_bytes());
    // An empty prompt is the host's own step between tool results and the
    // next model call, not a prompt: only a changed block comes with it.
    let always = config.inject_every_prompt == EveryPrompt::Always && !input.empty_prompt;
    let seen = compactions(host, input);
    let due = state.session(&input.session, |s| {
        // A compaction event that may not have compacted: the count says.
        if let Some(mark) = s.compact_mark.take()
            && seen.is_none_or(|now| now > mark)
        {
            s.injected = None;
            s.compactions += 1;
        }
        let due = always || s.injected.as_deref() != Some(block_hash.as_str());
        s.injected = Some(block_hash);
        due
    })?;
    Ok(if due {
        Answer::Context(block)
    } else {
        Answer::Nothing
    })
}

/// A file edit: the reminder every so many edits while a goal is active (an edit
/// of plan.md itself does not count), and, where the host injects at tool calls, a
/// changed block.
fn on_tool(
    host: Host,
    cwd: &Path,
    place: &Place,
    state: &State,
    config: &Config,
    input: &Input,
    view: &cache::View,
) -> Result<Answer> {
    let spec = host.spec();
    let to_plan = input
        .tool_path
        .as_deref()
        .is_some_and(|p| same_file(cwd, p, &place.plan_path));
    let every = config.reminder_every_file_edits;
    let active = !view.active.is_empty();
    let hash = view.hash.clone();
    let block = (spec.inject_at_tool && config.inject_every_prompt != EveryPrompt::Never)
        .then(|| view.injection.clone());
    let block_hash = block.as_deref().map(|b| cache::content_hash(b.as_bytes()));
    let (remind, inject) = state.session(&input.session, |s| {
        if s.plan_hash != hash {
            s.plan_hash = hash;
            s.edits = 0;
        }
        // Only a block that changed (or that a compaction took away) is due:
        // the tool event stands in for a prompt event the host never sends.
        let inject = block_hash.is_some() && s.injected != block_hash;
        if inject {
            s.injected = block_hash.clone();
        }
        if let Some(given) = input.tool_path.as_deref() {
            super::progress::note_edit(&mut s.edited, &place.root, cwd, given);
        }
        if to_plan {
            return (false, inject);
        }
        s.edits += 1;
        (every > 0 && active && s.edits % every == 0, inject)
    })?;
    let reminder = remind.then(|| {
        blocks::reminder(Templates {
            reminder: &or_embedded(&place.root, "reminder.md", prompts::REMINDER),
            ..Templates::default()
        })
    });
    let block = block.filter(|_| inject);
    Ok(match (block, reminder) {
        (Some(block), Some(reminder)) => Answer::Context(format!("{block}\n\n{reminder}")),
        (Some(text), None) | (None, Some(text)) => Answer::Context(text),
        (None, None) => Answer::Nothing,
    })
}

/// A compaction: the next prompt must inject again, since what was injected is
/// about to go. Unless the host fires this event whether or not it compacts: then
/// the next prompt looks at its transcript first. Hosts that want it get the
/// plan's skeleton to keep.
fn on_compact(host: Host, state: &State, input: &Input, view: &cache::View) -> Result<Answer> {
    let seen = compactions(host, input);
    state.session(&input.session, |s| match seen {
        Some(count) => {
            s.compact_mark.get_or_insert(count);
        }
        None => {
            s.injected = None;
            s.compactions += 1;
        }
    })?;
    if host.spec().skeleton_at_compaction
        && let Some(skeleton) = &view.skeleton
    {
        return Ok(Answer::Context(skeleton.clone()));
    }
    Ok(Answer::Nothing)
}

/// The claims the hook's session sees: its own and others', read from the ref files
/// of the common git dir (see `git/claims.rs`), never by opening the repository
/// when the claims are known.
struct Claimed {
    session: String,
    claims: Vec<crate::git::claims::Claim>,
}

impl Claimed {
    fn read(place: &Place, session: &str) -> Claimed {
        let repo = git::Repo {
            root: place.root.clone(),
            git_dir: place.git_dir.clone(),
        };
        let claims = crate::claims::peek(&repo);
        // Every hook call of a holder's session is activity that keeps its claims.
        if claims.iter().any(|c| c.holder == session) {
            crate::claims::touch(&repo, session);
        }
        Claimed {
            session: session.to_string(),
            claims,
        }
    }

    /// `view` as this session sees it: the injection says which goals are its own
    /// and which are held by whom, and the continuation leaves out others' goals.
    /// Unchanged when nothing is claimed.
    fn apply(&self, mut view: cache::View) -> cache::View {
        if self.claims.is_empty() {
            return view;
        }
        let holdings: Vec<claim::Holding<'_>> = self
            .claims
            .iter()
            .map(|c| claim::Holding {
                goal: &c.goal,
                holder: &c.holder,
                worktree: &c.worktree,
                branch: &c.branch,
            })
            .collect();
        if let Some(lines) = claim::injection_lines(&holdings, Some(&self.session)) {
            let both = format!("{}\n{lines}", view.injection);
            view.injection = crate::plan::bound::block(both, crate::plan::bound::MAX_BLOCK);
        }
        let others = |goal: &str| {
            self.claims
                .iter()
                .any(|c| c.goal == goal && c.holder != self.session)
        };
        view.continuation = blocks::compose(&view.parts, &others);
        // The loop's per-goal budgets count this session's goals only.
        view.parts.retain(|p| !others(&p.goal));
        view.held_elsewhere = view.has_work && view.continuation.is_none();
        view.has_work = view.continuation.is_some();
        view
    }
}

/// Names the session for the agent's shell where the host reads variables from a
/// file (Claude Code's `CLAUDE_ENV_FILE` at session start), so `plan start` claims
/// goals for it without `--as`. Best effort.
fn export_session(session: &str) {
    use std::io::Write as _;
    let Some(file) = crate::env::os("CLAUDE_ENV_FILE").filter(|f| !f.is_empty()) else {
        return;
    };
    if claim::invalid_name(session).is_some() {
        return;
    }
    let line = format!("export {}='{session}'\n", crate::claims::SESSION_VAR);
    #[expect(
        clippy::disallowed_methods,
        reason = "the host's own session file (CLAUDE_ENV_FILE), appended to as the host asks"
    )]
    let opened = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .read(true)
        .open(file);
    if let Ok(mut f) = opened {
        // A file another hook left without a final newline would have this line
        // glued onto its last one, changing that hook's variable.
        let ends_open = last_byte(&f).is_some_and(|b| b != b'\n');
        let line = if ends_open { format!("\n{line}") } else { line };
        let _ = f.write_all(line.as_bytes());
    }
}

/// The last byte of the file open as `file`, if it has one.
fn last_byte(file: &std::fs::File) -> Option<u8> {
    use std::os::unix::fs::FileExt as _;
    let len = file.metadata().ok()?.len();
    let mut byte = [0u8];
    file.read_exact_at(&mut byte, len.checked_sub(1)?).ok()?;
    Some(byte[0])
}

/// The compactions the host's transcript records, where the host says how to count
/// them.
fn compactions(host: Host, input: &Input) -> Option<u64> {
    (host.spec().compactions?)(input.transcript.as_deref()?)
}

pub fn injection(root: &Path, plan: &Plan<'_>) -> String {
    let injection = or_embedded(root, "injection.md", prompts::INJECTION);
    let idle = or_embedded(root, "injection_idle.md", prompts::INJECTION_IDLE);
    blocks::injection(
        plan,
        Templates {
            injection: &injection,
            injection_idle: &idle,
            ..Templates::default()
        },
    )
}

/// The injection, naming the running loop's budget-limited goals: they live in the
/// loop's state, not plan.md, so they are added here rather than cached with the
/// view. Any failure to read the loop leaves the injection as it is.
pub fn with_limited(state: &State, injection: String) -> String {
    let limited = state
        .peek_loop()
        .ok()
        .flatten()
        .filter(|l| l.ended.is_none())
        .and_then(|l| crate::plan::budget::injection_line(&l.budget_limited));
    match limited {
        Some(line) => crate::plan::bound::block(
            format!("{injection}\n{line}"),
            crate::plan::bound::MAX_BLOCK,
        ),
        None => injection,
    }
}

/// The first session whose hook sees a new loop claims it.
fn claim(state: &State, session: &str) -> Result<()> {
    let unclaimed = state
        .peek_loop()?
        .is_some_and(|l| l.owner.is_none() && l.ended.is_none());
    if unclaimed {
        let started = state.with_loop(|l| {
            let l = l.as_mut().filter(|l| l.owner.is_none())?;
            l.owner = Some(session.to_string());
            Some(l.started.clone())
        })?;
        if let Some(started) = started {
            // The mark outside .git/plan names the claim too, so a loop kept
            // again from plan.md's log is this session's, not the first to stop.
            super::loop_mark::set(state.git_dir(), &started, Some(session));
            state.session(session, |s| s.in_loop = Some(started))?;
        }
    }
    Ok(())
}

/// What a stop says after a loop ended by its own counts (a spent budget, a stall):
/// plan.md does not record that ending, so no stop passes it over in silence.
const ENDED: &str = "plan: the work loop has ended (`plan goal status` says why); plan.md does not record that ending, so each stop says so until `plan goal clear` or a new `plan goal`";

/// What a stop says where a link stands in loop.json's place and cannot be taken away.
const NOT_A_FILE: &str = "plan: .git/plan/loop.json is a link plan could not take away, so no work loop can be kept here and this stop is let go; remove it, and the loop is kept again from plan.md's log";
/// What a stop says where `.git/plan` cannot be written.
const UNKEPT: &str = "plan: .git/plan cannot be written, so no work loop can be kept here and this stop is let go; make it a writable directory again";

/// What a stop with no loop state comes to ([`vanished`]).
enum Vanished {
    Said(Answer),
    /// The loop this session held, as plan.md's log says it runs: to be kept again.
    Rebuilt(Box<crate::state::Loop>),
}

/// A stop with no loop state (`loop.json` deleted, or not a loop plan can read).
/// If this session held a loop (its claim, or the mark outside `.git/plan` where
/// the whole of it was removed) that plan.md's log says runs (its `work loop
/// started` line, no clear or ending after it), the loop is rebuilt from that line:
/// its budget as the line says, its counts from zero, owned by the session that
/// claimed it (unclaimed where no record says which). A
/// held loop the log does not say runs (a log from a build that did not keep start
/// lines) blocks the stop once, saying so. Fail-open: a block is given only once it
/// is recorded as given, so it never repeats, and any error lets the agent stop.
/// With no claim and no mark (`.git/plan` removed with the mark beside it), each
/// session is told once of a loop plan.md's log says runs: a note, as a fresh clone
/// of a branch whose loop runs elsewhere looks the same. The log is read once per
/// session for each content of plan.md.
fn vanished(
    state: &State,
    place: &Place,
    config: &Config,
    session: &str,
    plan_hash: &str,
) -> Vanished {
    // The mark outside .git/plan (loop_mark.rs) is taken either way.
    let (marked, marked_owner) = super::loop_mark::take(&place.git_dir).unzip();
    let claimed = state.session(session, |s| s.in_loop.take()).ok().flatten();
    let ours = claimed.is_some();
    let (started, held) = match claimed.or(marked) {
        Some(started) => (Some(started), true),
        None => {
            // plan.md is read once per session for each of its contents: a
            // loop-less stop of a long plan would read it whole at every stop.
            let hash = Some(plan_hash.to_string());
            let looked = state.session(session, |s| std::mem::replace(&mut s.log_read, hash));
            match looked {
                Ok(Some(looked)) if looked == plan_hash => (None, false),
                _ => (running_in_log(&place.plan_path), false),
            }
        }
    };
    let Some(started) = started else {
        return Vanished::Said(Answer::Nothing);
    };
    // The claimed loop as plan.md's log says: its start line the last one stamped
    // at or after the claim (the log's floor may stamp it later than loop.json).
    let said = held.then(|| loop_log(&place.plan_path, &started));
    if let Some(said) = said.as_ref().filter(|said| said.over()) {
        // Ended in plan.md's log, its state gone: said once (the claim or mark
        // was taken above), as an ending the stop hook did not decide is.
        return Vanished::Said(ended_note(&started, "has ended", said.last_word.as_deref()));
    }
    // A start line at or after the claim: the loop's (one `plan goal` restarted
    // in the same minute has two; the last is the one that runs).
    if let Some(said) = said.filter(|said| said.starts.is_some_and(|n| n >= 1))
        && let Some(budget) = said.budget
    {
        // Found by the mark alone, the loop is the session's whose record claims
        // it, or, where none does (the records removed too), the first to claim it.
        let owner = match ours {
            true => Some(session.to_string()),
            false => marked_owner.flatten().or_else(|| state.claimant(&started)),
        };
        return Vanished::Rebuilt(Box::new(crate::state::Loop {
            budget,
            owner,
            paused: said.paused,
            goal_budget: config.loop_goal_budget,
            stall_limit: Some(config.loop_stall_limit),
            started,
            ..crate::state::Loop::default()
        }));
    }
    let told = state.session(session, |s| s.told_of_loop.clone());
    if !held && told.is_ok_and(|told| told.as_deref() == Some(started.as_str())) {
        return Vanished::Said(Answer::Nothing);
    }
    // Recorded, so the session is told of this loop once.
    let _ = state.session(session, |s| s.told_of_loop = Some(started.clone()));
    Vanished::Said(match held {
        true => Answer::Block(format!(
            "plan: the work loop started {started} is gone: its state (.git/plan/loop.json) vanished without `plan goal clear` or `plan goal pause`. Those are for the person who started the loop, and each is logged in plan.md; deleting the state is neither. This stop is blocked once: go on with plan.md's goals, or say what you need from the person (`plan log TEXT` records it)."
        )),
        false => Answer::Note(format!(
            "plan: plan.md's log says a work loop started {started} and has not ended (no `work loop ended` or `work loop cleared` line after its start), but this clone keeps no state of it (.git/plan/loop.json), so it holds no stop here. If it ran here, its state was removed: `plan goal` starts it again, `plan goal clear` logs its end."
        )),
    })
}

/// A running loop's stop while plan.md is gone from the working tree though HEAD
/// has it (moved away, deleted): held once, not let go in silence. Not an error of
/// plan's, which the hooks fail open on: a file missing is a state, and moving it is
/// no way out of the loop. What the guard lets go is let go here too: another session's stop (the
/// loop's is the one its state or the session's own record names), a paused loop
/// (plan.md's log backs a pause, so with plan.md gone none holds), a turn the
/// person stopped or the host ended on an error. A second stop in a row
/// is let go with a note, so this never wedges an agent; gone from HEAD too (a
/// deletion committed, a branch without it), each stop is let go with a note. With `unreadable`,
/// plan.md is there but does not read (not UTF-8, not a regular file): held alike.
fn gone_in_loop(
    place: &Place,
    input: &Input,
    unreadable: Option<&std::io::Error>,
) -> Option<Answer> {
    let state = State::new(&place.git_dir);
    let lp = state.peek_loop().ok()??;
    if lp.ended.is_some() || paused(&lp, &place.plan_path) || input.ending != host::Ending::Plain {
        return None;
    }
    let ours = lp.owner.as_deref() == Some(input.session.as_str())
        || state
            .session(&input.session, |s| s.in_loop.clone())
            .is_ok_and(|claimed| claimed.as_deref() == Some(lp.started.as_str()));
    if !ours {
        return None;
    }
    let rel = place.plan_path.strip_prefix(&place.root).ok()?;
    if let Some(e) = unreadable {
        let rel = rel.display();
        return Some(match input.stop_active {
            true => Answer::Note(format!(
                "plan: reading {rel}: {e}, while the work loop started {} runs; this stop is let go, and the loop holds the next one once {rel} reads again",
                lp.started
            )),
            false => Answer::Block(format!(
                "plan: reading {rel}: {e}, while the work loop started {} runs and its goals are in {rel}. Make it read again (`git diff {rel}` shows what changed) and go on with its goals; pausing or clearing the loop is for the person who started it.",
                lp.started
            )),
        });
    }
    let in_head = crate::git::file_at(&place.root, "HEAD", rel)
        .ok()?
        .is_some();
    let rel = rel.display();
    if !in_head {
        // Gone from HEAD too (`git rm` committed, a branch without it): no goal
        // to send the agent to, but said at each stop, never let go in silence.
        return Some(Answer::Note(format!(
            "plan: {rel} is in neither the working tree nor HEAD while the work loop started {} runs, so its goals cannot be read and this stop is let go; `git log -- {rel}` shows where it went, and the loop holds the next stop once it is back",
            lp.started
        )));
    }
    if input.stop_active {
        return Some(Answer::Note(format!(
            "plan: {rel} is gone while the work loop started {} runs; this stop is let go, and the loop holds the next one once {rel} is back (`git checkout {rel}`)",
            lp.started
        )));
    }
    Some(Answer::Block(format!(
        "plan: {rel} is gone while the work loop started {} runs, and the loop's goals are in it. Put it back (`git checkout {rel}`) and go on with its goals; pausing or clearing the loop is for the person who started it.",
        lp.started
    )))
}

/// loop.json names the loop's owner, and the agent can write it: a session whose
/// own state says it claimed this very loop (`in_loop`, its start) is the owner
/// whatever loop.json names now, and the name is put back. Another name there would
/// let the loop's own session stop unheld, with no word. So would another start
/// beside it: a session's claim is forgotten when its loop ends (below) and each
/// `plan goal` logs its start in plan.md, so a session that still holds a claim,
/// with no loop started since, holds the loop loop.json shows.
fn reclaim(
    place: &Place,
    state: &State,
    peeked: &mut Option<crate::state::Loop>,
    session: &str,
) -> Result<()> {
    let Some(lp) = peeked
        .as_mut()
        .filter(|l| l.ended.is_none() && l.owner.as_deref().is_some_and(|o| o != session))
    else {
        return Ok(());
    };
    let owner = lp.owner.clone().unwrap_or_default();
    let claimed = match state.session(session, |s| s.in_loop.clone())? {
        Some(claimed) => claimed,
        // An owner plan keeps no record of is no session's (plan writes one as a
        // session claims the loop): the name was written into loop.json, and the
        // loop is this stop's to claim, as an unclaimed one is.
        None if !state.has_session(&owner) => lp.started.clone(),
        // Nor is a record the claim: the mark outside `.git/plan` names the session
        // that claimed this loop (the red team's hand-off, records and all).
        None if super::loop_mark::read(&place.git_dir).is_some_and(|(started, by)| {
            started == lp.started && by.as_deref() == Some(session)
        }) =>
        {
            lp.started.clone()
        }
        None => return Ok(()),
    };
    // A loop `plan goal` started since the claim is another: its start line is a
    // second one at or after the claim's (a log without start lines, from an older
    // build, shows it by a clear since).
    let said = loop_log(&place.plan_path, &claimed);
    let replaced = match said.starts {
        Some(starts) => starts >= 2,
        None => claimed != lp.started && said.over(),
    };
    if replaced {
        return Ok(());
    }
    state.session(session, |s| s.in_loop = Some(claimed.clone()))?;
    // The start goes back too: plan.md's log lines count from it, and one moved
    // later would keep the person's `plan goal clear` from counting.
    let shown = std::mem::replace(&mut lp.started, claimed.clone());
    lp.owner = Some(session.to_string());
    // The mark follows the claim, or the session it named would take the loop back
    // at its next stop, and two sessions would hold it in turn (the review's).
    super::loop_mark::set(&place.git_dir, &claimed, Some(session));
    state.with_loop(|l| {
        if let Some(l) = l.as_mut().filter(|l| l.started == shown) {
            l.owner = Some(session.to_string());
            l.started = claimed;
        }
    })
}

/// A stop after an ending the stop hook did not decide, and did not say at its
/// own stop: a clear, or an ending for no goal left while plan.md has work. The
/// loop's own session is told once, quoting plan.md's line. The line and loop.json
/// are the agent's to write, and so is `plan goal clear` from its shell (on a
/// terminal `script` lends it), so whoever ended it, the person hears the loop is
/// over where they watch the agent. Other sessions' stops were never the loop's.
fn ended_in_log(place: &Place, state: &State, lp: &crate::state::Loop, session: &str) -> Answer {
    let Ok((claimed, told)) =
        state.session(session, |s| (s.in_loop.clone(), s.told_of_loop.clone()))
    else {
        return Answer::Nothing;
    };
    let started = lp.started.as_str();
    let ours = lp.owner.as_deref() == Some(session) || claimed.as_deref() == Some(started);
    if !ours || told.as_deref() == Some(started) {
        return Answer::Nothing;
    }
    let recorded = state.session(session, |s| {
        s.told_of_loop = Some(started.to_string());
        if s.in_loop.as_deref() == Some(started) {
            s.in_loop = None;
        }
    });
    if recorded.is_err() {
        return Answer::Nothing;
    }
    let said = loop_log(&place.plan_path, started);
    let how = match lp.ended.as_deref() {
        Some(crate::report::model::CLEARED) => "was cleared",
        _ if said.cleared => "was cleared",
        _ => "ended for want of work, though plan.md has work",
    };
    ended_note(started, how, said.last_word.as_deref())
}

/// What the loop's session is told once of an ending the stop hook did not decide,
/// quoting plan.md's line for it where there is one.
fn ended_note(started: &str, how: &str, line: Option<&str>) -> Answer {
    let line = line.map_or_else(String::new, |line| format!(": plan.md's log says `{line}`"));
    Answer::Note(format!(
        "plan: the work loop started {started} {how}{line}. This stop is let go, and no later one is held; if no one meant to end it, `plan goal` starts a new loop."
    ))
}

/// A stop of a session a running loop does not hold: told once whose the loop is.
/// The owner loop.json names, and each session's claim, are the agent's to write:
/// a loop handed to a session plan never saw would otherwise let its own session
/// stop with no word. An honest second session learns its stops are not held.
fn held_elsewhere(state: &State, lp: &crate::state::Loop, owner: &str, session: &str) -> Answer {
    let started = lp.started.as_str();
    let told = state.session(session, |s| {
        let told = s.told_of_loop.as_deref() == Some(started);
        s.told_of_loop = Some(started.to_string());
        told
    });
    match told {
        Ok(false) => Answer::Note(format!(
            "plan: the work loop started {started} is held by session {owner}, not this one ({session}), so this session's stops are let go. If this session is the loop's, `plan goal` here starts it again."
        )),
        _ => Answer::Nothing,
    }
}

/// The session's claim on the loop started at `started`, forgotten once the loop
/// ended: a later loop, claimed by another session, is not this one's to reclaim.
fn forget_claim(state: &State, session: &str, started: &str) {
    let _ = state.session(session, |s| {
        if s.in_loop.as_deref() == Some(started) {
            s.in_loop = None;
        }
    });
}

fn stop(
    host: Host,
    place: &Place,
    state: &State,
    config: &Config,
    input: &Input,
    view: &cache::View,
    limit: Option<u32>,
) -> Result<Answer> {
    let continuation = or_embedded(&place.root, "continuation.md", prompts::CONTINUATION);
    let templates = Templates {
        continuation: &continuation,
        ..Templates::default()
    };
    let now = crate::clock::epoch_now();
    // Asked before taking the lock: a model call must not hold up other hooks. And
    // only when the guard, deciding on the loop as it stands, would get as far as
    // asking: a spent budget or a stall ends the loop without a model call.
    let (mut peeked, rebuilt) = match peek_or_rebuild(place, state, config, input, view)? {
        Ok(found) => found,
        Err(answer) => return Ok(answer),
    };
    let Some(current) = peeked.as_ref() else {
        return Ok(Answer::Nothing);
    };
    // An ending for want of work rests on plan.md not having lost the loop's start
    // or goals open as it started: read only where the view says no work is left,
    // at a stop of the loop's own session.
    let ours =
        current.ended.is_none() && current.owner.as_deref().is_none_or(|o| o == input.session);
    let lost = (ours && (!view.has_work || view.continuation.is_none()))
        .then(|| lost(place, &current.started))
        .flatten();
    // Taken once below, only for a stop the guard may count as a stall.
    let work = std::cell::OnceCell::<String>::new();
    let guard_input = || guard::Input {
        session: &input.session,
        ending: input.ending,
        plan: guard::Work {
            has_work: view.has_work,
            goals: view.continuation.as_deref(),
            held_elsewhere: view.held_elsewhere,
        },
        broken: view.broken.as_deref(),
        lost: lost.as_deref(),
        work: work.get().map_or(view.hash.as_str(), String::as_str),
        stall_limit: config.loop_stall_limit,
        budgets: crate::plan::budget::Budgets {
            parts: &view.parts,
            default: config.loop_goal_budget,
            own: &view.goal_budgets,
            contracts: &view.contracts,
        },
        now,
        host_said: input.host_said.as_deref(),
        waiting: input.waiting.as_deref(),
    };
    // loop.json is the agent's to write, its counts and owner included: an ending
    // plan.md does not back is not taken, and the stop says so.
    let backed = |why: &str| end_backed(why, &current.started, view, &place.plan_path);
    // An ending plan.md's own lines back (a clear, no goal left) is questioned
    // whichever session stops: a real one has its line. Any other (the counts,
    // goals claimed elsewhere) only the loop's session decides again, so only its
    // stops question it: loop.json names it, the session's own claim is this
    // loop's, or loop.json names an owner plan keeps no record of, which is no
    // session's (as `reclaim` takes it).
    let questioned = |why: &str| {
        why == crate::report::model::CLEARED
            || why == guard::NOTHING_READY
            || current.owner.as_deref().is_none_or(|o| {
                o == input.session
                    || !state.has_session(o)
                    || state
                        .session(&input.session, |s| s.in_loop.clone())
                        .is_ok_and(|c| c.as_deref() == Some(current.started.as_str()))
            })
    };
    let forged = current
        .ended
        .clone()
        .filter(|why| questioned(why) && !backed(why));
    // Nor is a pause plan.md's log does not back: it would let every stop go.
    let unpaused = current.paused && !paused(current, &place.plan_path);
    if let Some(why) = current.ended.as_deref().filter(|_| forged.is_none()) {
        // The mark goes only with an ending plan.md backs: one another session
        // leaves alone may be an ending in words only.
        if questioned(why) || backed(why) {
            super::loop_mark::forget(&place.git_dir);
        }
        let has_work = view.has_work && view.continuation.is_some();
        // A clear plan.md's log shows, whatever loop.json's words for the ending
        // (the red team's `"ended": "x"` beside a clear line written by hand).
        if why == crate::report::model::CLEARED
            || (has_work
                && (why == guard::NOTHING_READY
                    || loop_log(&place.plan_path, &current.started).cleared))
        {
            return Ok(ended_in_log(place, state, current, &input.session));
        }
        // A loop that ended: nothing to decide, so no lock to take. (The claim on
        // it was forgotten as it ended, below; a loop started since has its own
        // start line, which `reclaim` counts.)
        return Ok(Answer::Nothing);
    }
    let revive = |lp: &mut Option<crate::state::Loop>| {
        if let Some(lp) = lp
            .as_mut()
            .filter(|l| forged.is_some() && l.ended == forged)
        {
            lp.ended = None;
            lp.budgets.ended_at = None;
        }
        if let Some(lp) = lp.as_mut().filter(|_| unpaused) {
            lp.paused = false;
        }
    };
    revive(&mut peeked);
    reclaim(place, state, &mut peeked, &input.session)?;
    let Some(current) = peeked.as_ref() else {
        return Ok(Answer::Nothing);
    };
    if let Some(owner) = current
        .owner
        .as_deref()
        .filter(|o| *o != input.session && forged.is_none() && !unpaused)
    {
        return Ok(held_elsewhere(state, current, owner, &input.session));
    }
    // An unclaimed loop is claimed by this stop (guard::decide), and the mark
    // outside .git/plan names it (as `claim` does).
    if current.owner.is_none() && current.ended.is_none() {
        super::loop_mark::set(&place.git_dir, &current.started, Some(&input.session));
    }
    let usage = own_usage(host, place, state, input, view, current, &work)?;
    if let Some(lp) = peeked.as_mut() {
        let owner = lp.owner.as_deref();
        crate::loop_budget::apply(&mut lp.budgets, owner, usage.as_ref(), &input.session);
    }
    // A host that ends the turn itself after so many blocks in a row drops the next
    // one unseen: plan lets go instead, spends nothing on it, and says how the loop
    // goes on.
    let ours = peeked
        .as_ref()
        .is_some_and(|l| l.owner.as_deref() == Some(input.session.as_str()));
    if let Some(note) = host_block_limit(state, input, limit.filter(|_| ours))? {
        return Ok(note);
    }
    let judge_config = person_loop_judge(config);
    let pause = if let Some(judge_config) = &judge_config {
        let mut asks = false;
        let _ = guard::decide(&mut peeked, guard_input(), templates, || {
            asks = true;
            None
        });
        if asks {
            loop_judge(
                place,
                judge_config,
                &view.active,
                input.last_message.as_deref().unwrap_or(""),
            )
        } else {
            None
        }
    } else {
        None
    };
    // An ending for plan.md leaving no goal is logged there too, once loop.json
    // holds it (so a state that cannot be saved logs nothing), so that it stays ended
    // when work comes later (`end_backed`); one it cannot log is kept, and holds
    // while plan.md has no work. An ending from loop.json's counts is not logged: it
    // rests on the file's word, decided again at each stop, and a line in plan.md
    // would both back it and move the work it counts stalls by.
    let log_end = |out: &(
        Stop,
        Option<guard::LoopEvent>,
        Vec<guard::LoopEvent>,
        bool,
        Option<String>,
        bool,
    )| {
        if out.5 {
            let why = guard::NOTHING_READY;
            let _ = log_loop(place, &crate::plan::event::Event::LoopEnded { why });
        }
    };
    let (decision, event, limited, again, unlogged, _) = state.with_loop_then(log_end, |lp| {
        revive(lp);
        let was_paused = lp.as_ref().is_some_and(|l| l.paused);
        let was_ended = lp.as_ref().is_some_and(|l| l.ended.is_some());
        if let Some(lp) = lp.as_mut() {
            let owner = lp.owner.as_deref();
            crate::loop_budget::apply(&mut lp.budgets, owner, usage.as_ref(), &input.session);
        }
        let before = lp.as_ref().map(|l| l.budget_limited.clone());
        let (decision, event) = guard::decide(lp, guard_input(), templates, || pause);
        let limited = match (before, lp.as_ref()) {
            (Some(before), Some(after)) => guard::limited_events(&input.session, &before, after),
            _ => Vec::new(),
        };
        // An unbacked ending the guard comes to again is the loop's ending: said at
        // this stop, not recorded or announced again.
        let again = forged.is_some() && lp.as_ref().is_some_and(|l| l.ended.is_some());
        // A pause on a host error is logged in plan.md, as `plan goal pause` is, or
        // the next stop would not take it; one that cannot be logged is not kept.
        // Under the loop's lock, as `plan goal` logs: the loop's state, then the store.
        let mut unlogged = None;
        if let Some(lp) = lp.as_mut().filter(|l| l.paused && !was_paused)
            && let Err(e) = log_loop(place, &crate::plan::event::Event::LoopHostPaused {})
        {
            lp.paused = false;
            unlogged = Some(e);
        }
        let ran_out = !again
            && !was_ended
            && lp.as_ref().and_then(|l| l.ended.as_deref()) == Some(guard::NOTHING_READY);
        (decision, event, limited, again, unlogged, ran_out)
    })?;
    let decision = match (decision, &event, unlogged) {
        (Stop::Allow { .. }, Some(guard::LoopEvent::LoopLetGo { why, .. }), Some(unlogged)) => {
            Stop::Allow {
                note: Some(format!(
                    "plan: {}. The loop lets the agent stop this once: plan.md could not log its pause ({unlogged}), and the stop hook takes only a pause plan.md logs, so it holds the next stop again.",
                    why.trim_end_matches('.')
                )),
            }
        }
        (decision, ..) => decision,
    };
    ended_said(place, state, input, event.as_ref());
    record_events(place, config, view, &limited, event, again);
    if limit.is_some() && matches!(decision, Stop::Block { .. }) {
        state.session(&input.session, |s| s.blocks += 1)?;
    }
    Ok(stop_answer(
        decision,
        forged.as_deref(),
        unpaused,
        again,
        rebuilt,
    ))
}

/// At a stop of the loop's own session: its claim on the loop kept, the work it
/// may count a stall by taken into `work`, and the tokens it spent since its last
/// stop. Nothing at another session's.
fn own_usage(
    host: Host,
    place: &Place,
    state: &State,
    input: &Input,
    view: &cache::View,
    current: &crate::state::Loop,
    work: &std::cell::OnceCell<String>,
) -> Result<Option<crate::loop_budget::Read>> {
    Ok(
        if current.owner.as_deref().is_none_or(|o| o == input.session) {
            let started = current.started.clone();
            // The files its tool calls edited, read in the same turn of the lock.
            let edited = state.session(&input.session, |s| {
                s.in_loop = Some(started);
                s.edited.clone()
            })?;
            if !current.paused
                && input.ending == host::Ending::Plain
                && current.used < current.budget
            {
                let print = super::progress::fingerprint(
                    &place.root,
                    &place.plan_path,
                    &place.git_dir,
                    &edited,
                    &view.hash,
                );
                let _ = work.set(print);
            }
            // The tokens of this session's new transcript lines, read before any lock.
            crate::loop_budget::read(host, input.transcript.as_deref(), &current.budgets)
        } else {
            None
        },
    )
}

/// The loop a stop found, and what it says of a loop kept again from plan.md's log.
type Found = (Option<crate::state::Loop>, Option<String>);

/// The loop as this stop finds it, with the words that say so when its state was
/// kept again from plan.md's log; or the answer for a stop that goes no further.
fn peek_or_rebuild(
    place: &Place,
    state: &State,
    config: &Config,
    input: &Input,
    view: &cache::View,
) -> Result<Result<Found, Answer>> {
    let mut peeked = state.peek_loop()?;
    let mut rebuilt = None;
    if peeked.is_none() {
        // Said, not silent: a `.git/plan` made unwritable would otherwise end a
        // running loop with no word to anyone (a skipped hook said so before).
        if state.cannot_keep() {
            return Ok(Err(Answer::Note(UNKEPT.to_string())));
        }
        // A link in its place reads as no loop, and the loop would end after one
        // note (the loop red team's): taken away, the loop is kept again below; one
        // that stays is said at every stop while plan.md's log says a loop runs.
        if state.loop_link_stays() && running_in_log(&place.plan_path).is_some() {
            return Ok(Err(Answer::Note(NOT_A_FILE.to_string())));
        }
        match vanished(state, place, config, &input.session, &view.hash) {
            Vanished::Said(answer) => return Ok(Err(answer)),
            Vanished::Rebuilt(lp) => {
                let (started, budget, owner) = (lp.started.clone(), lp.budget, lp.owner.clone());
                state.with_loop(|l| {
                    if l.is_none() {
                        *l = Some(*lp);
                    }
                })?;
                super::loop_mark::set(&place.git_dir, &started, owner.as_deref());
                peeked = state.peek_loop()?;
                rebuilt = Some(format!(
                    "plan: the work loop's state (.git/plan/loop.json) was gone or did not read, and plan.md's log says the loop started {started} runs: it is kept again from that line (budget {budget}, its counts from zero)."
                ));
            }
        }
    }
    Ok(Ok((peeked, rebuilt)))
}

/// The note for a stop the host would drop unseen, `limit` blocks in a row having
/// gone before it; counted afresh from a stop no continuation led to.
fn host_block_limit(state: &State, input: &Input, limit: Option<u32>) -> Result<Option<Answer>> {
    let Some(limit) = limit else {
        return Ok(None);
    };
    let in_a_row = state.session(&input.session, |s| {
        if !input.stop_active {
            s.blocks = 0;
        }
        s.blocks
    })?;
    Ok((in_a_row >= limit).then(|| {
        Answer::Note(format!(
            "plan: the host ends a turn after {limit} continuations in a row, so the agent stops here; the loop goes on at this session's next prompt (`plan goal status` shows it)"
        ))
    }))
}

/// The bookkeeping of a loop this stop ended: its mark, and its session's claim.
fn ended_said(place: &Place, state: &State, input: &Input, event: Option<&guard::LoopEvent>) {
    if let Some(guard::LoopEvent::LoopLetGo {
        ended: true, why, ..
    }) = event
    {
        // An ending plan.md backs leaves nothing to vanish: its state deleted
        // blocks no stop. One from the counts keeps the mark, as the loop it may
        // have ended in words only.
        if why == guard::NOTHING_READY {
            super::loop_mark::forget(&place.git_dir);
        }
        let started = state.peek_loop().ok().flatten().map(|l| l.started);
        if let Some(started) = started {
            // Said at this stop: a later one has nothing to tell of it.
            let _ = state.session(&input.session, |s| s.told_of_loop = Some(started.clone()));
            forget_claim(state, &input.session, &started);
        }
    }
}

/// The loop's events of this stop, recorded, and its report sent where it ends or
/// pauses on a host error.
fn record_events(
    place: &Place,
    config: &Config,
    view: &cache::View,
    limited: &[guard::LoopEvent],
    event: Option<guard::LoopEvent>,
    again: bool,
) {
    for limited in limited {
        crate::events::record_loop(&place.root, &place.git_dir, view.log_lines, config, limited);
    }
    if let Some(event) = event.filter(|_| !again) {
        crate::events::record_loop(&place.root, &place.git_dir, view.log_lines, config, &event);
        // A host error pauses the loop once (later stops are let go as `paused`): the
        // report goes out then, as it does when the loop ends.
        if matches!(
            event,
            guard::LoopEvent::LoopLetGo { ended: true, .. }
                | guard::LoopEvent::LoopLetGo {
                    reason: "host_error",
                    ..
                }
        ) {
            crate::report::announce_end(
                &place.root,
                &place.git_dir,
                &config.notify,
                Some(&place.plan_path),
            );
        }
    }
}

/// What the stop says, from the guard's decision: an ending or pause loop.json
/// alone claims (`forged`, `unpaused`) said beside it, and a loop kept again from
/// plan.md's log (`rebuilt`) said first.
fn stop_answer(
    decision: Stop,
    forged: Option<&str>,
    unpaused: bool,
    again: bool,
    rebuilt: Option<String>,
) -> Answer {
    let edited = match (forged, unpaused) {
        (Some(why), _) => Some((
            format!(
                "plan: .git/plan/loop.json says the work loop ended ({why}), but nothing plan can check backs that: plan.md has work left, and its log neither clears the loop (`plan goal clear`) nor says it ran out of work, and the file's own counts are the agent's to write."
            ),
            "`plan goal clear`, logged in plan.md, ends it",
        )),
        (None, true) => Some((
            "plan: .git/plan/loop.json says the work loop is paused, but plan.md's log does not: no `work loop paused` line since the loop started, or a `work loop resumed` after the last, and the file is the agent's to write.".to_string(),
            "`plan goal pause`, logged in plan.md, pauses it",
        )),
        (None, false) => None,
    };
    let answer = match (decision, edited) {
        (Stop::Block { reason }, Some((edited, how))) => {
            Answer::Block(format!("{edited} So the loop goes on ({how}). {reason}"))
        }
        (Stop::Block { reason }, None) => Answer::Block(reason),
        // An ending the guard comes to again from the counts is said at each stop:
        // plan.md does not record it, so it is never silent.
        (Stop::Allow { note: Some(_) }, _) if again => Answer::Note(ENDED.to_string()),
        (Stop::Allow { note: Some(note) }, _) => Answer::Note(note),
        // Let go for another reason (the state names another session): the edit is
        // said, not passed over.
        (Stop::Allow { note: None }, Some((edited, _))) => Answer::Note(edited),
        (Stop::Allow { note: None }, None) => Answer::Nothing,
    };
    // A loop kept again from plan.md's log says so with whatever this stop says.
    match (rebuilt, answer) {
        (None, answer) => answer,
        (Some(rebuilt), Answer::Block(reason)) => Answer::Block(format!("{rebuilt} {reason}")),
        (Some(rebuilt), Answer::Note(note)) => Answer::Note(format!("{rebuilt} {note}")),
        (Some(rebuilt), _) => Answer::Note(rebuilt),
    }
}

/// Whether plan.md backs the ending `why` of a loop started at `started`: a clear
/// by one of plan's own `work loop cleared` lines in its log after the loop's
/// start; any other ending by plan.md leaving no work; and an ending for no goal
/// left also by the stop hook's `work loop ended` line for it, so it stays ended
/// when work comes later. loop.json's counts (continuations, stalls, waits, goals
/// over budget, tokens) and owner are the agent's to write, so they back nothing:
/// an ending they alone give is decided again at each stop.
fn end_backed(why: &str, started: &str, view: &cache::View, plan_path: &Path) -> bool {
    let no_work = !view.has_work || view.continuation.is_none();
    // Goals claimed by other sessions are work plan.md still shows: the claims are
    // files the agent writes (`plan start w --as someone-else`; the red team's).
    if no_work && why != crate::report::model::CLEARED && why != guard::HELD_ELSEWHERE {
        return true;
    }
    let said = loop_log(plan_path, started);
    said.cleared || (why == guard::NOTHING_READY && said.ended.as_deref() == Some(why))
}

/// What plan.md lost, from its log or since the commit the loop started on (as its
/// start line says) or HEAD, that a running loop's ending for want of work may not
/// rest on ([`crate::plan::loop_log::lost`]).
fn lost(place: &Place, started: &str) -> Option<String> {
    let text = crate::fsread::text(&place.plan_path, crate::fsread::PLAN).ok()?;
    let now = crate::plan::model::parse(&text);
    let start = crate::plan::loop_log::loop_log(&now.log, started).commit;
    let rel = place.plan_path.strip_prefix(&place.root).ok();
    let then: Vec<String> = start
        .iter()
        .map(String::as_str)
        .chain(["HEAD"])
        .filter_map(|rev| crate::git::file_at(&place.root, rev, rel?).ok().flatten())
        .collect();
    let then: Vec<_> = then.iter().map(|t| crate::plan::model::parse(t)).collect();
    crate::plan::loop_log::lost(&now, &then, started)
}

/// One of the stop hook's loop lines, logged in plan.md under the loop's lock, as
/// `plan goal` logs its own; the error said in a line when it cannot be.
fn log_loop(place: &Place, event: &crate::plan::event::Event<'_>) -> Result<(), String> {
    let name = place.plan_path.file_name().map_or_else(
        || place.plan_path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    );
    let store = crate::store::Store::new(place.plan_path.clone(), name);
    store
        .log_event(event)
        .map(|_| ())
        .map_err(|e| crate::exit::Exit::said(&e))
}

/// The start of the work loop plan.md's log says runs (its last `work loop started`
/// line, with no clear or ending after it), if any. Read only where this clone
/// keeps no loop state at all (a loop's state stays after it ends), and parsed only
/// when the bytes hold a start line.
fn running_in_log(plan_path: &Path) -> Option<String> {
    let bytes = crate::fsread::bytes(plan_path, crate::fsread::PLAN).ok()?;
    memchr::memmem::find(&bytes, b"work loop started (")?;
    let text = String::from_utf8(bytes).ok()?;
    let said = crate::plan::loop_log::loop_log(&crate::plan::model::parse(&text).log, "");
    let over = said.over();
    said.last_start.filter(|_| !over)
}

/// What plan.md's log says of the loop started at `started` (see
/// [`crate::plan::loop_log::loop_log`]): read only where loop.json says the loop ended
/// or is paused. loop.json is the agent's to write, and a pause lets every stop go:
/// one plan.md does not back is not taken. Only the Log section's stamped lines
/// count, not a subtask or failure mode that reads like one.
fn loop_log(plan_path: &Path, started: &str) -> crate::plan::loop_log::LoopLog {
    match crate::fsread::text(plan_path, crate::fsread::PLAN) {
        Ok(text) => crate::plan::loop_log::loop_log(&crate::plan::model::parse(&text).log, started),
        Err(_) => Default::default(),
    }
}

/// Whether a loop's pause holds: loop.json says so and plan.md's log backs it.
fn paused(lp: &crate::state::Loop, plan_path: &Path) -> bool {
    lp.paused && loop_log(plan_path, &lp.started).paused
}

/// The person's settings for the loop judge, when they turn it on. Its pause lets
/// the agent stop, a way out of the loop, and the repository's settings file and
/// `.plan/prompts/` are the agent's to write (a `command` judge that always says
/// PAUSE, a prompt that asks for it): so only the user's own file turns it on and
/// chooses its judge. The repository's may still turn it off.
fn person_loop_judge(config: &Config) -> Option<Config> {
    if !config.loop_judge {
        return None;
    }
    // No repository: the user's file alone, read as leniently as the hooks read.
    Some(config::load_lenient(None).0).filter(|user| user.loop_judge)
}

/// The optional loop judge: a reason to pause, or `None` to go on. Fail-open: any
/// failure means go on, and the budget stays the backstop.
fn loop_judge(place: &Place, config: &Config, active: &[String], message: &str) -> Option<String> {
    // The sign-off's own choice, panel aside: the loop asks one judge, briefly.
    let mut judge = crate::judge::resolve::one(None, config).ok()??;
    judge.timeout = LOOP_JUDGE_TIMEOUT.min(judge.timeout);
    let tail: String = message
        .chars()
        .rev()
        .take(4000)
        .collect::<Vec<_>>()
        .into_iter()
        .rev()
        .collect();
    let prompt = fill(LOOP_JUDGE, |name| match name {
        "goals" => Some(active.join(", ")),
        // The agent's words: a "PAUSE:" it writes is data, not the judge's answer.
        "message" => Some(crate::judge::prompt::untrusted(
            "the agent's last message",
            &tail,
        )),
        _ => None,
    });
    let answer = crate::judge::run::ask(&judge, &place.root, &prompt, "").ok()?;
    let line = answer
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| !l.is_empty())?;
    let reason = line
        .strip_prefix("PAUSE")?
        .trim_start_matches([':', ' '])
        .trim();
    Some(if reason.is_empty() {
        "no reason given".to_string()
    } else {
        reason.to_string()
    })
}

fn same_file(cwd: &Path, given: &str, plan: &Path) -> bool {
    let given = cwd.join(given);
    given == plan
        || (given.file_name() == plan.file_name()
            && std::fs::canonicalize(&given).ok() == std::fs::canonicalize(plan).ok())
}

//! The continuation guard: may the agent stop? A pure decision over the loop state,
//! the plan and what the host said. Every let-go of a running loop says why, and
//! every decision about a running loop is also an event (`plan events`, notify), made
//! here with the decision so the two cannot disagree.

use super::host::Ending;
use crate::plan::blocks::{self, Templates};
use crate::plan::budget::{self, Budgets};
use crate::state::Loop;
// The type sits below the hooks so settings and events can name it (issue 34).
pub use crate::loop_budget::LoopEvent;

#[derive(Debug, PartialEq, Eq)]
pub enum Stop {
    /// Let the agent stop; `note` tells the user why (`None`: nothing to say).
    Allow { note: Option<String> },
    /// Keep it going; `reason` is what the agent is told to do next.
    Block { reason: String },
}

/// The goals a decision made budget-limited (`before`: the loop's list before it),
/// as events, in the order they were passed over.
pub fn limited_events(session: &str, before: &[String], after: &Loop) -> Vec<LoopEvent> {
    after
        .budget_limited
        .iter()
        .filter(|g| !before.contains(g))
        .map(|goal| LoopEvent::GoalBudgetLimited {
            session: session.to_string(),
            goal: goal.clone(),
            continuations: after.goal_continuations.get(goal).copied().unwrap_or(0),
        })
        .collect()
}

/// What the guard needs of the plan, derived once (and cached by the hooks).
#[derive(Clone, Copy, Debug)]
pub struct Work<'p> {
    /// [`blocks::has_work`].
    pub has_work: bool,
    /// [`blocks::continuation_goals`].
    pub goals: Option<&'p str>,
    /// The plan has work, but every goal of it is claimed by another session.
    pub held_elsewhere: bool,
}

pub struct Input<'p> {
    pub session: &'p str,
    /// How the host says the turn ended: plainly, aborted, or on an error.
    pub ending: Ending,
    /// The plan's work, as far as it reads.
    pub plan: Work<'p>,
    /// plan.md's first format error: the agent fixes it before it goes on. A format
    /// error is never a way out of the loop.
    pub broken: Option<&'p str>,
    /// What plan.md lost that an ending for want of work may not rest on (its
    /// log's start line, goals deleted: `plan::loop_log::lost`): the agent puts it
    /// back first, as it fixes a format error.
    pub lost: Option<&'p str>,
    /// The work fingerprint (`hooks::progress`: files, HEAD and plan.md), to see
    /// whether the agent did anything since the last continuation.
    pub work: &'p str,
    pub stall_limit: u32,
    /// Per-goal budgets (`loop.goal_budget`, `budget:` lines).
    pub budgets: Budgets<'p>,
    /// Seconds since the epoch ([`crate::clock::epoch_now`]), for the time budget.
    pub now: i64,
    /// What the host said of its error, where it says (src/hooks/host.rs).
    pub host_said: Option<&'p str>,
    /// What the agent waits on as it stops (background tasks and agents, session
    /// crons), in one line: waiting, not stalling.
    pub waiting: Option<&'p str>,
}

/// Stops in a row that may wait on background work without the work moving before
/// the loop ends as stalled: a wait is not a stall, but one that never ends is.
pub const WAIT_LIMIT: u32 = 10;

/// Decides, updating the loop (claim, count, end) as it goes. `loop_judge` is asked
/// last, only when the guard would otherwise block; it returns a reason to pause.
/// The event is `None` when no running loop is this session's: nothing happened.
pub fn decide(
    state: &mut Option<Loop>,
    input: Input<'_>,
    templates: Templates<'_>,
    loop_judge: impl FnOnce() -> Option<String>,
) -> (Stop, Option<LoopEvent>) {
    let Some(lp) = state.as_mut().filter(|l| l.ended.is_none()) else {
        return (Stop::Allow { note: None }, None);
    };
    match &lp.owner {
        None => lp.owner = Some(input.session.to_string()),
        Some(owner) if owner != input.session => return (Stop::Allow { note: None }, None),
        Some(_) => {}
    }
    let session = input.session;
    let go = |reason: &'static str, why: String, note: String, ended: bool| {
        let event = LoopEvent::LoopLetGo {
            session: session.to_string(),
            reason,
            why,
            ended,
        };
        (Stop::Allow { note: Some(note) }, Some(event))
    };
    let end = |lp: &mut Loop, reason: &'static str, why: String| {
        let note = format!("plan: work loop stopped: {why}");
        lp.ended = Some(why.clone());
        lp.budgets.ended_at = Some(crate::loop_budget::reading(&lp.budgets, input.now));
        go(reason, why, note, true)
    };
    if lp.paused {
        return go(
            "paused",
            "the work loop is paused".to_string(),
            "plan: the work loop is paused; `plan goal resume` continues it".to_string(),
            false,
        );
    }
    if input.ending == Ending::Aborted {
        // The person stopped the turn (Esc): no error, and no word of one. The loop
        // is theirs to pause; it holds the next stop again.
        let event = LoopEvent::LoopLetGo {
            session: session.to_string(),
            reason: "aborted",
            why: "the turn was stopped".to_string(),
            ended: false,
        };
        return (Stop::Allow { note: None }, Some(event));
    }
    if matches!(input.ending, Ending::Error | Ending::LastingError) {
        let why = match input.host_said {
            Some(said) => format!("the host reported an error: {said}"),
            None => "the turn ended on an error".to_string(),
        };
        let said = why.trim_end_matches('.');
        // Only an error no retry gets past at once (a rate limit, a login, billing,
        // a server down) pauses the loop: sent straight back, it fails again at
        // every stop, as fast as the host can retry. Any other (a cut-off answer, a
        // bad request) lets this one stop go: pausing on it would halt a whole night
        // for one long answer.
        let note = if input.ending == Ending::LastingError {
            lp.paused = true;
            format!(
                "plan: {said}. The work loop is paused so nothing retries it; once the error is cleared (a rate limit reset, a login renewed), `plan goal resume` continues it and the agent's next stop is held again (prompt the agent to go on)."
            )
        } else {
            format!(
                "plan: {said}. The loop lets the agent stop this once; it continues at the next stop."
            )
        };
        return go("host_error", why, note, false);
    }
    let plan = input.plan;
    if !plan.has_work && input.broken.is_none() && input.lost.is_none() {
        return end(lp, "no_work", no_work(plan));
    }
    if lp.used >= lp.budget {
        let why = format!(
            "its budget of {} is spent (`plan goal` starts a new one)",
            crate::plan::text::count(lp.budget as usize, "continuation")
        );
        return end(lp, "budget_spent", why);
    }
    if let Some((reason, why)) = crate::loop_budget::spent(&lp.budgets, input.now) {
        return end(lp, reason, why);
    }
    if let Some(waiting) = input.waiting {
        // Waiting on background work is not a stall: the agent is let go with no
        // continuation spent and the stall count as it was, and the next stop after
        // the work finishes is held (and counted) as usual. A budget or a spent
        // loop above still ends it. But the same wait, stop after stop, on work
        // that does not move is bounded, or a task that never ends (`sleep
        // infinity &`) would keep the loop from ever holding or ending.
        let unchanged = lp.wait_work.as_deref() == Some(input.work);
        lp.waits = if unchanged { lp.waits + 1 } else { 1 };
        lp.wait_work = Some(input.work.to_string());
        if lp.waits >= WAIT_LIMIT {
            let why = format!(
                "stalled: {} stops in a row waiting on background work that changed nothing (files, HEAD or plan.md) (`plan goal` starts a new loop)",
                lp.waits
            );
            return end(lp, "stalled", why);
        }
        let why = format!("the agent waits on {waiting}");
        let finish = if waiting.starts_with("1 ") && !waiting.contains(" and ") {
            "it finishes"
        } else {
            "they finish"
        };
        let note = format!(
            "plan: waiting on {waiting}: this stop is let go uncounted; the loop holds the next stop once {finish}"
        );
        return go("waiting", why, note, false);
    }
    let stalled = lp.last_work.as_deref() == Some(input.work);
    let stalls = if stalled { lp.stalls + 1 } else { 0 };
    // The limit `plan goal` found holds: the repository's settings are the
    // agent's to write, and a lowered one would end the loop as its edit stalls.
    let stall_limit = lp
        .stall_limit
        .map_or(input.stall_limit, |kept| kept.max(input.stall_limit));
    if stalls >= stall_limit {
        lp.stalls = stalls;
        let why = format!(
            "stalled: {stalls} continuations in a row without a change to the work (files, HEAD or plan.md) (`plan goal` starts a new loop)"
        );
        return end(lp, "stalled", why);
    }
    // A goal renamed since it was charged is the goal it was.
    crate::plan::renamed::follow(
        input.budgets.contracts,
        crate::plan::renamed::Charged {
            continuations: &mut lp.goal_continuations,
            frozen: &mut lp.goal_budgets,
            limited: &mut lp.budget_limited,
            contracts: &mut lp.goal_contracts,
        },
    );
    // loop.goal_budget as `plan goal` found it holds, as each goal's own does.
    let budgets = Budgets {
        default: budget::tighter(input.budgets.default, lp.goal_budget),
        ..input.budgets
    };
    let pick = budget::pick(
        budgets,
        &lp.goal_continuations,
        &lp.goal_budgets,
        &mut lp.budget_limited,
    );
    if pick.exhausted {
        return end(lp, "goal_budget", budget::exhausted_why(&pick.passed_over));
    }
    if let Some(why) = loop_judge() {
        let note = format!("plan: the loop judge let the agent pause: {why}");
        return go("loop_judge", why, note, false);
    }
    let fix = match (input.broken, input.lost) {
        (Some(why), _) => Some(format!(
            "first fix plan.md's format errors ({why}; `plan lint` lists them all)"
        )),
        (None, Some(why)) => Some(format!(
            "first put back what plan.md lost: {why} (`git diff plan.md` shows it; clearing the loop is for the person who started it)"
        )),
        (None, None) => None,
    };
    let fixing = fix.is_some();
    let goals = match (fix, pick.goals.as_deref().or(plan.goals)) {
        (None, Some(goals)) => goals.to_string(),
        (None, None) => {
            return end(lp, "no_work", no_work(plan));
        }
        (Some(fix), goals) => format!(
            "{fix}{}",
            goals.map(|g| format!("; then {g}")).unwrap_or_default()
        ),
    };
    let reason = blocks::continuation_text(&goals, lp.used + 1, lp.budget, templates);
    lp.used += 1;
    lp.stalls = stalls;
    lp.last_work = Some(input.work.to_string());
    // A continuation that sends the agent to fix plan.md first spends no goal's
    // budget.
    if let Some(goal) = pick.first.as_ref().filter(|_| !fixing) {
        *lp.goal_continuations.entry(goal.clone()).or_default() += 1;
        if let Some(held) = budgets.held(goal, &lp.goal_budgets) {
            lp.goal_budgets.insert(goal.clone(), held);
        }
        if let Some((_, contract)) = budgets.contracts.iter().find(|(id, _)| id == goal) {
            lp.goal_contracts.insert(goal.clone(), contract.clone());
        }
    }
    let event = LoopEvent::LoopContinued {
        session: session.to_string(),
        continuation: lp.used,
        budget: lp.budget,
        goals,
        goal: pick.first,
    };
    (Stop::Block { reason }, Some(event))
}

/// Why a loop with nothing left to do ends.
fn no_work(plan: Work<'_>) -> String {
    if plan.held_elsewhere {
        HELD_ELSEWHERE.to_string()
    } else {
        NOTHING_READY.to_string()
    }
}

/// Why a loop ends whose goals left are all claimed by other sessions: the claims
/// are in files the agent can write, so plan.md does not show it.
pub const HELD_ELSEWHERE: &str = "every goal left is claimed by another session (`plan claims`)";
/// Why a loop ends that plan.md leaves no goal for: the one ending plan.md itself
/// shows, which the stop hook logs there (`work loop ended (…)`).
pub const NOTHING_READY: &str = "no goal is active or ready to start";

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const ACTIVE: &str = "# Plan: x\n## Goal: A\n<!-- id: a -->\nstatus: active\n- [ ] step\n";

    fn run(state: &mut Option<Loop>, src: &str, session: &str, hash: &str) -> Stop {
        run_event(state, src, session, hash).0
    }

    fn run_event(
        state: &mut Option<Loop>,
        src: &str,
        session: &str,
        hash: &str,
    ) -> (Stop, Option<LoopEvent>) {
        run_limited(state, src, session, hash, 3)
    }

    /// As [`run_event`], with `loop.stall_limit` as the settings say it now.
    fn run_limited(
        state: &mut Option<Loop>,
        src: &str,
        session: &str,
        hash: &str,
        stall_limit: u32,
    ) -> (Stop, Option<LoopEvent>) {
        let mut plan = parse(src);
        plan.prove_legacy();
        let goals = blocks::continuation_goals(&plan);
        let input = Input {
            session,
            ending: Ending::Plain,
            plan: work(&plan, &goals),
            broken: None,
            lost: None,
            work: hash,
            stall_limit,
            budgets: Budgets::default(),
            now: 0,
            host_said: None,
            waiting: None,
        };
        decide(state, input, Templates::default(), || None)
    }

    fn work<'p>(plan: &crate::plan::model::Plan<'_>, goals: &'p Option<String>) -> Work<'p> {
        Work {
            has_work: blocks::has_work(plan),
            goals: goals.as_deref(),
            held_elsewhere: false,
        }
    }

    fn fresh(budget: u32) -> Option<Loop> {
        Some(Loop {
            budget,
            ..Loop::default()
        })
    }

    #[test]
    fn no_loop_lets_go_silently() {
        assert_eq!(run(&mut None, ACTIVE, "s", "h"), Stop::Allow { note: None });
    }

    #[test]
    fn blocks_with_a_continuation_and_claims_the_loop() {
        let mut state = fresh(5);
        let Stop::Block { reason } = run(&mut state, ACTIVE, "s1", "h1") else {
            panic!()
        };
        assert!(reason.contains("a (0/1, next: step)"));
        assert!(reason.contains("(Continuation 1 of 5.)"));
        let lp = state.as_ref().unwrap();
        assert_eq!((lp.owner.as_deref(), lp.used), (Some("s1"), 1));
    }

    #[test]
    fn each_decision_on_a_running_loop_is_one_event_and_others_none() {
        assert_eq!(run_event(&mut None, ACTIVE, "s", "h").1, None);
        let mut state = fresh(1);
        let (_, event) = run_event(&mut state, ACTIVE, "s1", "h1");
        let Some(LoopEvent::LoopContinued {
            session,
            continuation: 1,
            budget: 1,
            goals,
            ..
        }) = event
        else {
            panic!("{event:?}")
        };
        assert_eq!(session, "s1");
        assert!(goals.contains("a (0/1, next: step)"), "{goals}");
        assert_eq!(run_event(&mut state, ACTIVE, "s2", "h2").1, None);
        let (stop, event) = run_event(&mut state, ACTIVE, "s1", "h2");
        let Stop::Allow { note: Some(note) } = stop else {
            panic!()
        };
        let Some(LoopEvent::LoopLetGo {
            reason: "budget_spent",
            why,
            ended: true,
            ..
        }) = &event
        else {
            panic!("{event:?}")
        };
        assert!(note.ends_with(why.as_str()), "{note} / {why}");
        let json = serde_json::to_value(event.as_ref().unwrap()).unwrap();
        assert_eq!(json["event"], "loop_let_go");
        assert_eq!(json["reason"], "budget_spent");
        // An ended loop decides nothing more, so it says nothing more.
        assert_eq!(run_event(&mut state, ACTIVE, "s1", "h3").1, None);

        let mut paused = Some(Loop {
            paused: true,
            ..Loop::default()
        });
        let event = run_event(&mut paused, ACTIVE, "s", "h").1.unwrap();
        assert!(
            matches!(
                &event,
                LoopEvent::LoopLetGo {
                    reason: "paused",
                    ended: false,
                    ..
                }
            ),
            "{event:?}"
        );
    }

    #[test]
    fn another_session_is_let_go_without_touching_the_loop() {
        let mut state = fresh(5);
        run(&mut state, ACTIVE, "s1", "h1");
        let before = state.clone();
        assert_eq!(
            run(&mut state, ACTIVE, "s2", "h2"),
            Stop::Allow { note: None }
        );
        assert_eq!(state, before);
    }

    #[test]
    fn budget_spent_ends_the_loop_and_says_so() {
        let mut state = fresh(2);
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "h1"),
            Stop::Block { .. }
        ));
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "h2"),
            Stop::Block { .. }
        ));
        let Stop::Allow { note: Some(note) } = run(&mut state, ACTIVE, "s", "h3") else {
            panic!()
        };
        assert!(
            note.contains("budget of 2 continuations is spent"),
            "{note}"
        );
        assert!(state.as_ref().unwrap().ended.is_some());
        assert_eq!(
            run(&mut state, ACTIVE, "s", "h4"),
            Stop::Allow { note: None }
        );
    }

    /// `loop.stall_limit` in the repository's settings, the agent's to write, was
    /// read at each stop: lowered to 1, the very edit (under `.plan/`, no work)
    /// stalled the loop at the next stop (the hooks' red team). The limit `plan
    /// goal` found holds; a raised one applies.
    #[test]
    fn a_stall_limit_lowered_after_the_start_does_not_end_the_loop_sooner() {
        let mut state = Some(Loop {
            budget: 20,
            stall_limit: Some(5),
            ..Loop::default()
        });
        for round in 0..4 {
            let (stop, _) = run_limited(&mut state, ACTIVE, "s", "same", 1);
            assert!(
                matches!(stop, Stop::Block { .. }),
                "round {round}: {stop:?}"
            );
        }
    }

    #[test]
    fn stall_limit_counts_unchanged_plans_in_a_row() {
        let mut state = fresh(20);
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "same"),
            Stop::Block { .. }
        ));
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "same"),
            Stop::Block { .. }
        ));
        // A change resets the count.
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "new"),
            Stop::Block { .. }
        ));
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "new"),
            Stop::Block { .. }
        ));
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "new"),
            Stop::Block { .. }
        ));
        let Stop::Allow { note: Some(note) } = run(&mut state, ACTIVE, "s", "new") else {
            panic!()
        };
        assert!(note.contains("stalled: 3 continuations in a row"), "{note}");
    }

    #[test]
    fn all_goals_done_ends_the_loop() {
        let mut state = fresh(5);
        // Marked done by hand: still work.
        let done = ACTIVE.replace("status: active", "status: done");
        let Stop::Block { reason } = run(&mut state, &done, "s", "h") else {
            panic!()
        };
        assert!(reason.contains("a is marked done by hand"), "{reason}");
        let signed =
            format!("{done}## Log\n- 2026-01-01 00:00 a signed off (no verify, judge accept)\n");
        let Stop::Allow { note: Some(note) } = run(&mut state, &signed, "s", "h2") else {
            panic!()
        };
        assert!(note.contains("no goal is active or ready to start"));
    }

    #[test]
    fn paused_host_error_unreadable_plan_and_loop_judge_let_go_with_a_note() {
        let mut state = Some(Loop {
            paused: true,
            ..Loop::default()
        });
        assert!(matches!(
            run(&mut state, ACTIVE, "s", "h"),
            Stop::Allow { note: Some(_) }
        ));

        let mut plan = parse(ACTIVE);
        plan.prove_legacy();
        let goals = blocks::continuation_goals(&plan);
        let mut state = fresh(5);
        let input = Input {
            session: "s",
            ending: Ending::LastingError,
            plan: work(&plan, &goals),
            broken: None,
            lost: None,
            work: "h",
            stall_limit: 3,
            budgets: Budgets::default(),
            now: 0,
            host_said: None,
            waiting: None,
        };
        let out = decide(&mut state, input, Templates::default(), || None).0;
        assert!(matches!(out, Stop::Allow { note: Some(n) } if n.contains("error")));
        // A lasting host error pauses the loop: `plan goal resume` continues it.
        assert!(state.as_ref().unwrap().paused);
        state.as_mut().unwrap().paused = false;

        // A format error keeps the loop going, fixing it first.
        let input = Input {
            session: "s",
            ending: Ending::Plain,
            plan: work(&plan, &goals),
            broken: Some("plan.md:4: unknown status \"doing\""),
            lost: None,
            work: "h",
            stall_limit: 3,
            budgets: Budgets::default(),
            now: 0,
            host_said: None,
            waiting: None,
        };
        assert!(matches!(
            decide(&mut state, input, Templates::default(), || None).0,
            Stop::Block { reason } if reason.contains("first fix plan.md's format errors (plan.md:4")
        ));
        state.as_mut().unwrap().used = 0;

        let input = Input {
            session: "s",
            ending: Ending::Plain,
            plan: work(&plan, &goals),
            broken: None,
            lost: None,
            work: "h",
            stall_limit: 3,
            budgets: Budgets::default(),
            now: 0,
            host_said: None,
            waiting: None,
        };
        let out = decide(&mut state, input, Templates::default(), || {
            Some("asked the user a question".into())
        })
        .0;
        assert!(matches!(out, Stop::Allow { note: Some(n) } if n.contains("asked the user")));
        assert_eq!(state.as_ref().unwrap().used, 0, "a pause spends no budget");
    }

    /// Per-goal budgets: a goal named first with its budget spent is passed over,
    /// once, with an event; when nothing else is left the loop ends.
    #[test]
    fn a_spent_goal_budget_moves_on_then_ends_the_loop() {
        let src = format!("{ACTIVE}## Goal: B\n<!-- id: b -->\nstatus: active\n- [ ] other\n");
        let mut plan = parse(&src);
        plan.prove_legacy();
        let goals = blocks::continuation_goals(&plan);
        let parts = blocks::continuation_parts(&plan);
        let own = vec![("a".to_string(), 1)];
        let mut state = fresh(20);
        let mut step = |default: Option<u32>, hash: &str| {
            let before = state.as_ref().unwrap().budget_limited.clone();
            let input = Input {
                session: "s",
                ending: Ending::Plain,
                plan: work(&plan, &goals),
                broken: None,
                lost: None,
                work: hash,
                stall_limit: 50,
                budgets: Budgets {
                    parts: &parts,
                    default,
                    own: &own,
                    contracts: &[],
                },
                now: 0,
                host_said: None,
                waiting: None,
            };
            let (stop, event) = decide(&mut state, input, Templates::default(), || None);
            let limited = limited_events("s", &before, state.as_ref().unwrap());
            (stop, event, limited)
        };
        let (_, event, limited) = step(None, "h1");
        assert!(
            matches!(&event, Some(LoopEvent::LoopContinued { goal: Some(g), .. }) if g == "a"),
            "{event:?}"
        );
        assert!(limited.is_empty());
        let (stop, event, limited) = step(None, "h2");
        let Stop::Block { reason } = stop else {
            panic!()
        };
        assert!(
            reason
                .contains("still has work: b (0/1, next: other); budget-limited, leave for now: a"),
            "{reason}"
        );
        assert!(
            matches!(&event, Some(LoopEvent::LoopContinued { goal: Some(g), .. }) if g == "b"),
            "{event:?}"
        );
        assert_eq!(
            limited,
            [LoopEvent::GoalBudgetLimited {
                session: "s".into(),
                goal: "a".into(),
                continuations: 1
            }]
        );
        // b has no limit of its own; loop.goal_budget gives it one, and then only
        // budget-limited goals are left: the loop ends, saying so.
        let (stop, event, limited) = step(Some(1), "h3");
        assert_eq!(limited.len(), 1, "{limited:?}");
        let json = serde_json::to_value(&limited[0]).unwrap();
        assert_eq!(json["event"], "goal_budget_limited");
        assert_eq!(
            (json["goal"].as_str(), json["continuations"].as_u64()),
            (Some("b"), Some(1))
        );
        let Some(LoopEvent::LoopLetGo {
            reason: "goal_budget",
            why,
            ended: true,
            ..
        }) = &event
        else {
            panic!("{event:?}")
        };
        assert_eq!(
            why,
            "every goal left spent its budget without a sign-off: a, b (`plan goal rearm ID` gives one a new budget)"
        );
        assert!(matches!(stop, Stop::Allow { note: Some(n) } if n.ends_with(why.as_str())));
        assert_eq!(state.as_ref().unwrap().budget_limited, ["a", "b"]);
    }

    /// A broken plan.md spent the budget of the goal the continuation named after
    /// "first fix plan.md's format errors": the agent was sent to fix the plan, not
    /// to work on the goal.
    #[test]
    fn fixing_plan_md_charges_no_goal() {
        let mut plan = parse(ACTIVE);
        plan.prove_legacy();
        let goals = blocks::continuation_goals(&plan);
        let parts = blocks::continuation_parts(&plan);
        let own = vec![("a".to_string(), 1)];
        let mut state = fresh(20);
        for hash in ["h1", "h2", "h3"] {
            let input = Input {
                session: "s",
                ending: Ending::Plain,
                plan: work(&plan, &goals),
                broken: Some("plan.md:4: unknown status \"doing\""),
                lost: None,
                work: hash,
                stall_limit: 50,
                budgets: Budgets {
                    parts: &parts,
                    default: None,
                    own: &own,
                    contracts: &[],
                },
                now: 0,
                host_said: None,
                waiting: None,
            };
            let (stop, _) = decide(&mut state, input, Templates::default(), || None);
            assert!(
                matches!(&stop, Stop::Block { reason } if reason.contains("first fix plan.md's format errors")),
                "{hash}: {stop:?}"
            );
        }
        let lp = state.as_ref().unwrap();
        assert!(lp.goal_continuations.is_empty(), "{lp:?}");
        assert!(lp.budget_limited.is_empty(), "{lp:?}");
    }
}

//! What plan.md's log says of a work loop: plan's own loop lines, read in order.

use super::event::Event;
use super::model::{LogEntry, Plan};
use super::status::Status;

/// What plan's own lines in a log's entries say of the running work loop, in the
/// log's order: whether it was cleared (`work loop cleared`, by `plan goal clear`),
/// why the stop hook last said it ended (`work loop ended (why)`), and whether the last word on a pause is a pause (`work
/// loop paused`, by `plan goal pause` or the stop hook on a host error), not a `work
/// loop resumed` or an ending. The lines read are those after the last `work loop
/// started` line, stamped, and not before it: loop.json's start is the agent's to
/// write, and one moved back would reach an older loop's clear. Only a log with no
/// start line (a loop started before plan logged them) is read from the lines
/// stamped at or after `started` (`YYYY-MM-DD HH:MM`).
///
/// `starts` counts the start lines stamped at or after `started` (`None`: the log
/// has none): a session's claim on the loop started then is on a loop `plan goal`
/// replaced since when it counts two or more. `last_start` is the last start
/// line's stamp and `budget` its budget. `last_word` is the line of the last clear
/// or ending, as the log shows it.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LoopLog {
    pub cleared: bool,
    pub last_word: Option<String>,
    pub ended: Option<String>,
    pub paused: bool,
    pub starts: Option<usize>,
    pub last_start: Option<String>,
    pub budget: Option<u32>,
    /// HEAD as the last start line says the loop started on.
    pub commit: Option<String>,
}

impl LoopLog {
    /// The log says the loop is over: cleared, or ended by the stop hook.
    pub fn over(&self) -> bool {
        self.cleared || self.ended.is_some()
    }
}

pub fn loop_log(log: &[LogEntry<'_>], started: &str) -> LoopLog {
    fn event<'a>(entry: &LogEntry<'a>) -> Option<Event<'a>> {
        Event::parse(entry.text.trim_end())
    }
    let last_start = log
        .iter()
        .rposition(|e| matches!(event(e), Some(Event::LoopStarted { .. })));
    let lines = match last_start {
        Some(at) => &log[at + 1..],
        None => log,
    };
    let mut said = LoopLog {
        starts: last_start.map(|_| {
            log.iter()
                .filter(|e| e.stamp.is_some_and(|stamp| stamp >= started))
                .filter(|e| matches!(event(e), Some(Event::LoopStarted { .. })))
                .count()
        }),
        last_start: last_start.and_then(|at| log[at].stamp.map(str::to_string)),
        budget: last_start.and_then(|at| match event(&log[at]) {
            Some(Event::LoopStarted { budget, .. }) => Some(budget),
            _ => None,
        }),
        commit: last_start.and_then(|at| match event(&log[at]) {
            Some(Event::LoopStarted { commit, .. }) => commit.map(str::to_string),
            _ => None,
        }),
        ..LoopLog::default()
    };
    let from = said.last_start.as_deref().unwrap_or(started);
    for entry in lines {
        if entry.stamp.is_none_or(|stamp| stamp < from) {
            continue;
        }
        match event(entry) {
            Some(Event::LoopCleared { .. }) => {
                said.cleared = true;
                said.last_word = Some(entry.to_string().trim_end().to_string());
                said.paused = false;
            }
            Some(Event::LoopEnded { why }) => {
                said.ended = Some(why.to_string());
                said.last_word = Some(entry.to_string().trim_end().to_string());
                said.paused = false;
            }
            Some(Event::LoopPaused { .. } | Event::LoopHostPaused {}) => said.paused = true,
            Some(Event::LoopResumed { .. }) => said.paused = false,
            _ => {}
        }
    }
    said
}

/// What plan.md lost that a running loop's ending for want of work may not rest
/// on: the line that started the loop (`started`, as its state says), cut from
/// its log, or goals open in `then` (the plan at the commit the loop started on,
/// and at HEAD) that are gone from it with no trace: not kept, done, cancelled or
/// archived, just deleted. `None` when neither: an emptied plan.md, or one whose
/// goals were deleted, is no work done, committed or not.
pub fn lost(now: &Plan<'_>, then: &[Plan<'_>], started: &str) -> Option<String> {
    let mut gone: Vec<String> = then
        .iter()
        .flat_map(|then| then.goals.iter())
        .filter(|g| !g.archived && matches!(g.status(), Status::Open | Status::Active))
        .filter(|g| now.goal(&g.id).is_none())
        .map(|g| format!("`{}`", g.id))
        .collect();
    let mut seen = std::collections::HashSet::new();
    gone.retain(|id| seen.insert(id.clone()));
    // Its line is stamped no earlier than the log's newest, so at or after
    // `started`: none there is the line cut.
    let cut = loop_log(&now.log, started).starts.unwrap_or(0) == 0;
    let gone = match gone.len() {
        0 => None,
        1 => Some(format!(
            "goal {}, open at the loop's start or in HEAD, is gone from it with no sign-off, cancel or archive",
            gone[0]
        )),
        _ => Some(format!(
            "goals {}, open at the loop's start or in HEAD, are gone from it with no sign-off, cancel or archive",
            gone.join(", ")
        )),
    };
    let cut = cut.then(|| {
        format!("its log no longer holds the line that started the work loop ({started})")
    });
    match (cut, gone) {
        (Some(cut), Some(gone)) => Some(format!("{cut}, and {gone}")),
        (cut, gone) => cut.or(gone),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loops_pause_is_the_last_word_on_it_in_the_log_since_it_started() {
        // (cleared, paused, start lines at or after the start)
        let said = |log: &str| {
            let plan = crate::plan::model::parse(log);
            let said = loop_log(&plan.log, "2026-06-15 14:00");
            (said.over(), said.paused, said.starts)
        };
        let head = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n- [ ] 2026-06-15 14:05 work loop paused (without a terminal)\n\n## Log\n";
        // A subtask that reads like the line is no log line.
        assert_eq!(said(head), (false, false, None));
        let pause = "- 2026-06-15 14:05 work loop paused (without a terminal)\n";
        let resume = "- 2026-06-15 14:06 work loop resumed (a terminal was attached)\n";
        let clear = "- 2026-06-15 14:06 work loop cleared (without a terminal)\n";
        let host = "- 2026-06-15 14:07 work loop paused (the host reported an error)\n";
        assert_eq!(said(&format!("{head}{pause}")), (false, true, None));
        assert_eq!(
            said(&format!("{head}{pause}{resume}")),
            (false, false, None)
        );
        assert_eq!(
            said(&format!("{head}{pause}{resume}{host}")),
            (false, true, None)
        );
        // A clear ends the pause before it, as the stop hook's ending does.
        assert_eq!(said(&format!("{head}{pause}{clear}")), (true, false, None));
        let ended = "- 2026-06-15 14:08 work loop ended (no goal is active or ready to start)\n";
        assert_eq!(said(&format!("{head}{pause}{ended}")), (true, false, None));
        // A line from before the loop started says nothing of it.
        let before = "- 2026-06-15 13:59 work loop paused (without a terminal)\n";
        assert_eq!(said(&format!("{head}{before}")), (false, false, None));
        // With start lines, what counts is after the last: an older loop's clear,
        // stamped after a start moved back, or in the same minute, says nothing.
        let start = "- 2026-06-15 14:09 work loop started (budget 5, without a terminal)\n";
        let old_clear = "- 2026-06-15 14:09 work loop cleared (without a terminal)\n";
        assert_eq!(
            said(&format!("{head}{old_clear}{start}")),
            (false, false, Some(1))
        );
        let later_clear = "- 2026-06-15 14:10 work loop cleared (without a terminal)\n";
        assert_eq!(
            said(&format!("{head}{pause}{start}{later_clear}")),
            (true, false, Some(1))
        );
        // After the start, a line stamped before it, or not stamped, is none of
        // plan's: plan stamps each line as it writes it, in order.
        assert_eq!(
            said(&format!("{head}{start}{clear}")),
            (false, false, Some(1))
        );
        assert_eq!(
            said(&format!("{head}{start}- work loop ended (x)\n")),
            (false, false, Some(1))
        );
        assert_eq!(
            said(&format!("{head}{pause}{start}")),
            (false, false, Some(1))
        );
        let later_pause = "- 2026-06-15 14:11 work loop paused (without a terminal)\n";
        assert_eq!(
            said(&format!("{head}{start}{later_pause}")),
            (false, true, Some(1))
        );
        // Two starts since: a claim on the first is on a loop replaced since.
        assert_eq!(
            said(&format!("{head}{start}{old_clear}{start}")),
            (false, false, Some(2))
        );
        // Nor does a line in the archive after the log.
        let archived = format!("{head}- 2026-06-15 14:01 note\n\n## Archive\n\n{pause}");
        assert_eq!(said(&archived), (false, false, None));
    }

    #[test]
    fn an_ending_for_want_of_work_does_not_rest_on_a_cut_log_or_deleted_goals() {
        let start = "- 2026-06-15 14:00 work loop started (budget 5, without a terminal)\n";
        let goal = |id: &str, status: &str| {
            format!("## Goal: {id}\n<!-- id: {id} -->\nstatus: {status}\ndone_when: x\n\n")
        };
        let head = format!(
            "# Plan: p\n\n{}{}## Log\n",
            goal("a", "active"),
            goal("b", "done")
        );
        let head = crate::plan::model::parse(&head);
        let lost = |now: &str| {
            lost(
                &crate::plan::model::parse(now),
                std::slice::from_ref(&head),
                "2026-06-15 14:00",
            )
        };
        // Kept, cancelled, or its log and goals whole: nothing lost.
        let kept = format!("# Plan: p\n\n{}## Log\n{start}", goal("a", "cancelled"));
        assert_eq!(lost(&kept), None);
        // A done goal deleted is no open work gone.
        assert_eq!(
            lost(&format!(
                "# Plan: p\n\n{}## Log\n{start}",
                goal("a", "done")
            )),
            None
        );
        assert_eq!(
            lost(&format!("# Plan: p\n\n## Log\n{start}")).as_deref(),
            Some(
                "goal `a`, open at the loop's start or in HEAD, is gone from it with no sign-off, cancel or archive"
            )
        );
        assert_eq!(
            lost("").as_deref(),
            Some(
                "its log no longer holds the line that started the work loop (2026-06-15 14:00), and goal `a`, open at the loop's start or in HEAD, is gone from it with no sign-off, cancel or archive"
            )
        );
        // Another loop's start line is not this one's.
        let other = kept.replace("14:00 work loop started", "13:00 work loop started");
        assert_eq!(
            lost(&other).as_deref(),
            Some("its log no longer holds the line that started the work loop (2026-06-15 14:00)")
        );
    }
}

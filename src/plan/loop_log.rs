//! What plan.md's log says of a work loop: plan's own loop lines, read in order.

use super::event::Event;
use super::model::LogEntry;

/// What plan's own lines in a log's entries say of the work loop started at
/// `started` (`YYYY-MM-DD HH:MM`), from the lines stamped at or after it, in the
/// log's order: whether it was cleared, and whether the last word on a pause is a
/// pause (`work loop paused`, by `plan goal pause` or the stop hook on a host error),
/// not a `work loop resumed` or a clear.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct LoopLog {
    pub cleared: bool,
    pub paused: bool,
}

pub fn loop_log(log: &[LogEntry<'_>], started: &str) -> LoopLog {
    let mut said = LoopLog::default();
    for entry in log {
        if entry.stamp.is_none_or(|stamp| stamp < started) {
            continue;
        }
        match Event::parse(entry.text.trim_end()) {
            Some(Event::LoopCleared { .. }) => {
                said.cleared = true;
                said.paused = false;
            }
            Some(Event::LoopPaused { .. } | Event::LoopHostPaused {}) => said.paused = true,
            Some(Event::LoopResumed { .. }) => said.paused = false,
            _ => {}
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_loops_pause_is_the_last_word_on_it_in_the_log_since_it_started() {
        let said = |log: &str| {
            let plan = crate::plan::model::parse(log);
            loop_log(&plan.log, "2026-06-15 14:00")
        };
        let paused = |cleared| LoopLog {
            cleared,
            paused: true,
        };
        let head = "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: active\n- [ ] 2026-06-15 14:05 work loop paused (without a terminal)\n\n## Log\n";
        // A subtask that reads like the line is no log line.
        assert_eq!(said(head), LoopLog::default());
        let pause = "- 2026-06-15 14:05 work loop paused (without a terminal)\n";
        let resume = "- 2026-06-15 14:06 work loop resumed (a terminal was attached)\n";
        let clear = "- 2026-06-15 14:06 work loop cleared (without a terminal)\n";
        let host = "- 2026-06-15 14:07 work loop paused (the host reported an error)\n";
        assert_eq!(said(&format!("{head}{pause}")), paused(false));
        assert_eq!(said(&format!("{head}{pause}{resume}")), LoopLog::default());
        assert_eq!(said(&format!("{head}{pause}{resume}{host}")), paused(false));
        // A clear ends the pause before it.
        assert_eq!(
            said(&format!("{head}{pause}{clear}")),
            LoopLog {
                cleared: true,
                paused: false
            }
        );
        // A line from before the loop started says nothing of it.
        let before = "- 2026-06-15 13:59 work loop paused (without a terminal)\n";
        assert_eq!(said(&format!("{head}{before}")), LoopLog::default());
        // Nor does a line in the archive after the log.
        let archived = format!("{head}- 2026-06-15 14:01 note\n\n## Archive\n\n{pause}");
        assert_eq!(said(&archived), LoopLog::default());
    }
}

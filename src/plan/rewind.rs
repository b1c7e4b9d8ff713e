//! Which goals a rewind reopens: the ones signed off after the checkpoint it goes
//! back to, whose work the rewind takes away. Pure.

use super::event::Event;
use super::model::{Plan, Status};

/// The done goals, archived ones too (their work goes as well; reopened under
/// `## Archive`, they fail `plan audit` until moved back), whose latest sign-off comes after the one that recorded
/// `checkpoint` (a commit id, full or abbreviated). The sign-off line naming the
/// checkpoint orders them; when the log has none (it was edited away), a sign-off
/// stamped after `stamp` (`YYYY-MM-DD HH:MM`) counts, and one within the same
/// minute does not.
pub fn signed_off_after(plan: &Plan<'_>, checkpoint: &str, stamp: &str) -> Vec<String> {
    let anchor = plan
        .log
        .iter()
        .find_map(|entry| match Event::parse(entry.text) {
            Some(Event::SignedOff {
                checkpoint: Some(c),
                ..
            }) if checkpoint.starts_with(c) => Some(entry.line),
            _ => None,
        });
    plan.goals
        .iter()
        .filter(|g| g.status() == Status::Done)
        .filter(|g| {
            let latest = plan
                .events(&g.id)
                .rev()
                .find(|(_, e)| matches!(e, Event::SignedOff { .. }));
            latest.is_some_and(|(entry, _)| match anchor {
                Some(line) => entry.line > line,
                None => entry.stamp.is_some_and(|s| s > stamp),
            })
        })
        .map(|g| g.id.to_string())
        .collect()
}

/// For a plan file other than the one a rewind runs with (checkpoints are one
/// namespace for every plan file): its done goals, archived ones too, whose latest
/// sign-off line the file lacked at the checkpoint (`then`, the file as the
/// checkpoint's tree has it; `None` when it had no such file). The checkpoint's
/// own sign-off is not in this file, so its copy there orders them, and to the
/// line: no clock is trusted.
pub fn signed_off_since(now: &Plan<'_>, then: Option<&Plan<'_>>) -> Vec<String> {
    let before: std::collections::HashSet<(Option<&str>, &str)> = then
        .map(|then| then.log.iter().map(|e| (e.stamp, e.text)).collect())
        .unwrap_or_default();
    now.goals
        .iter()
        .filter(|g| g.status() == Status::Done)
        .filter(|g| {
            now.events(&g.id)
                .rev()
                .find(|(_, e)| matches!(e, Event::SignedOff { .. }))
                .is_some_and(|(entry, _)| !before.contains(&(entry.stamp, entry.text)))
        })
        .map(|g| g.id.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const PLAN: &str = "## Goal: A\n<!-- id: a -->\nstatus: done\n## Goal: B\n<!-- id: b -->\nstatus: done\n## Goal: C\n<!-- id: c -->\nstatus: done\n## Goal: D\n<!-- id: d -->\nstatus: active\n## Log\n\
- 2026-01-01 10:00 b signed off (no verify, judge skipped, contract 00000000): .plan/judge/b.md#0123456789ab (checkpoint bbbbbbbbbbbb)\n\
- 2026-01-01 10:00 a signed off (no verify, judge skipped, contract 00000000): .plan/judge/a.md#0123456789ab (checkpoint aaaaaaaaaaaa)\n\
- 2026-01-01 10:00 c signed off (no verify, judge skipped, contract 00000000): .plan/judge/c.md#0123456789ab\n\
- 2026-01-01 10:00 d signed off (no verify, judge skipped, contract 00000000): .plan/judge/d.md#0123456789ab\n";

    #[test]
    fn the_checkpoints_own_sign_off_orders_the_goals_within_one_minute() {
        let plan = parse(PLAN);
        assert_eq!(
            signed_off_after(&plan, "aaaaaaaaaaaa0000", "2026-01-01 10:00"),
            ["c"],
            "b came before, a is the checkpoint's own, d is not done"
        );
        assert_eq!(
            signed_off_after(&plan, "bbbbbbbbbbbb", "2026-01-01 10:00"),
            ["a", "c"]
        );
    }

    #[test]
    fn without_its_line_the_stamp_decides() {
        let plan = parse(PLAN);
        assert!(signed_off_after(&plan, "cccccccccccc", "2026-01-01 10:00").is_empty());
        assert_eq!(
            signed_off_after(&plan, "cccccccccccc", "2026-01-01 09:59"),
            ["a", "b", "c"]
        );
    }

    #[test]
    fn another_plans_goals_count_as_signed_off_after_when_their_line_is_new_since() {
        let then = parse(PLAN);
        let later = "- 2026-01-01 10:00 e signed off (no verify, judge skipped, contract 00000000): .plan/judge/e.md#0123456789ab\n";
        let now_src = PLAN.replace(
            "## Goal: D\n",
            "## Goal: E\n<!-- id: e -->\nstatus: done\n## Goal: D\n",
        ) + later;
        let now = parse(&now_src);
        assert_eq!(
            signed_off_since(&now, Some(&then)),
            ["e"],
            "a, b, c were signed off in the checkpoint's copy; d is not done"
        );
        assert_eq!(signed_off_since(&now, None), ["a", "b", "c", "e"]);
        // Reopened and signed off again since: its latest sign-off is new.
        let again = now_src.clone()
            + "- 2026-01-01 10:01 a reopened: again\n- 2026-01-01 10:02 a signed off (no verify, judge skipped, contract 00000000): .plan/judge/a2.md#0123456789ab\n";
        assert_eq!(signed_off_since(&parse(&again), Some(&then)), ["a", "e"]);
    }
}

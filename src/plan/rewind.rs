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
}

//! An earlier version of plan.md read off a later one without parsing it, when
//! the later only added whole lines at the end. Pure.
//!
//! A reader of every version along a long history (the gate's) would otherwise
//! parse each in full, and with a log that grows a line a commit, the versions'
//! lengths add up to the square of the history's. The scan classifies each line
//! from that line and the fence or comment state the lines above it left, never
//! from a line below, so cutting whole lines off the end of a file changes how
//! none of the lines kept are read.

use super::model::{Plan, ends_section};

/// Whether `shorter` is `longer` with whole lines cut off its end: its lines are
/// the first lines of `longer`, each with the same text and ending. A `shorter`
/// that ends mid-line is no such cut (in `longer` that line goes on), unless it
/// is all of `longer`.
pub fn cut_back(longer: &str, shorter: &str) -> bool {
    longer.len() >= shorter.len()
        && longer.as_bytes().starts_with(shorter.as_bytes())
        && (shorter.len() == longer.len() || shorter.is_empty() || shorter.ends_with('\n'))
}

/// The byte offset in `plan`'s source from which every line is in the log: just
/// past the first `## Log` heading, when no line after it ends the log (another
/// heading of the plan's). `None` without a log, or with anything after it.
///
/// A version [`cut_back`] from `plan` at or past this offset has the same goals,
/// with the same ids, and a log that is the first of `plan`'s log entries: those
/// on its lines. What was cut was log lines only, which set no goal's id.
pub fn log_tail(plan: &Plan<'_>) -> Option<usize> {
    let heading = plan.log_heading?;
    // `heading` counts from 1, so the lines after it start at that index.
    let after = plan.lines.get(heading..).unwrap_or_default();
    if after.iter().any(|line| ends_section(&line.kind)) {
        return None;
    }
    Some(after.first().map_or(plan.src.len(), |line| line.start))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    const HEAD: &str = "# Plan: p\n\n## Goal: A\n<!-- id: a -->\nstatus: done\n\n## Goal: B\nstatus: open\n\n## Log\n";

    fn entries(plan: &Plan<'_>) -> Vec<(Option<String>, String)> {
        plan.log
            .iter()
            .map(|e| (e.stamp.map(str::to_string), e.text.to_string()))
            .collect()
    }

    fn ids(plan: &Plan<'_>) -> Vec<String> {
        plan.goals.iter().map(|g| g.id.to_string()).collect()
    }

    #[test]
    fn a_cut_ends_at_a_line_end_or_is_the_whole() {
        assert!(cut_back("a\nb\n", "a\n"));
        assert!(cut_back("a\nb\n", "a\nb\n"));
        assert!(cut_back("a\nb", "a\nb"));
        assert!(cut_back("a\nb\n", ""));
        assert!(!cut_back("a\nbc\n", "a\nb"));
        assert!(!cut_back("a\nb\n", "a\nc\n"));
        assert!(!cut_back("a\n", "a\nb\n"));
    }

    // Every cut at a line end past the tail reads as the whole parse of it reads:
    // the same goals and ids, and the first of the longer's log entries. The log
    // holds a fence (lines in it are no entries) and a carriage return.
    #[test]
    fn a_cut_past_the_tail_has_the_same_goals_and_the_first_log_entries() {
        let log = "- 2030-01-01 00:00 a started\n- 2030-01-01 00:01 a signed off\n```\n- 2030-01-01 00:02 b started\n```\n- 2030-01-01 00:03 b started\r\n\n- note\n- 2030-01-01 00:04 b signed off\n";
        let longer = format!("{HEAD}{log}");
        let whole = parse(&longer);
        let tail = log_tail(&whole).expect("the log runs to the end");
        assert_eq!(tail, HEAD.len());
        let mut cuts = vec![tail];
        cuts.extend(
            longer
                .match_indices('\n')
                .map(|(i, _)| i + 1)
                .filter(|i| *i > tail),
        );
        for cut in cuts {
            let shorter = &longer[..cut];
            assert!(cut_back(&longer, shorter));
            let part = parse(shorter);
            let kept: Vec<_> = whole
                .log
                .iter()
                .filter(|e| whole.lines[e.line - 1].start < cut)
                .map(|e| (e.stamp.map(str::to_string), e.text.to_string()))
                .collect();
            assert_eq!(entries(&part), kept, "cut at {cut}");
            assert_eq!(ids(&part), ids(&whole), "cut at {cut}");
        }
    }

    #[test]
    fn no_tail_without_a_log_or_with_a_section_after_it() {
        assert_eq!(log_tail(&parse("# Plan: p\n\n## Goal: A\n")), None);
        let archived = format!("{HEAD}- 2030-01-01 00:00 a started\n## Archive\n");
        assert_eq!(log_tail(&parse(&archived)), None);
        let second = format!("{HEAD}- x\n## Goal: C\n");
        assert_eq!(log_tail(&parse(&second)), None);
        let bare = "## Log";
        assert_eq!(log_tail(&parse(bare)), Some(bare.len()));
    }
}

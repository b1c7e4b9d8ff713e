//! Log stamps only go forward: a new line is stamped no earlier than the newest
//! stamp plan knows of (the log's, the running loop's start), whatever clock the
//! command read (`PLAN_NOW` is the agent's to set); a line stamped earlier than
//! the line above it is out of order, and said to be.

use serde::Serialize;

use super::model::LogEntry;
use super::patch::Edit;

/// The newest stamp of `log` (stamps compare as text: `YYYY-MM-DD HH:MM`).
pub fn newest<'a>(log: &[LogEntry<'a>]) -> Option<&'a str> {
    log.iter().filter_map(|e| e.stamp).max()
}

/// `edits` with every appended log line stamped before `floor` stamped at it.
pub fn not_before(edits: Vec<Edit>, floor: &str) -> Vec<Edit> {
    edits
        .into_iter()
        .map(|edit| match edit {
            Edit::AppendLog { lines } => Edit::AppendLog {
                lines: lines
                    .into_iter()
                    .map(|l| line_not_before(l, floor))
                    .collect(),
            },
            other => other,
        })
        .collect()
}

/// One `- STAMP text` line, stamped no earlier than `floor`.
fn line_not_before(line: String, floor: &str) -> String {
    let Some(rest) = line.strip_prefix("- ") else {
        return line;
    };
    let stamped = super::text::starts_with_stamp(rest.as_bytes())
        && rest.as_bytes().get(16).is_none_or(|b| *b == b' ');
    if !stamped || floor.len() != 16 || &rest[..16] >= floor {
        return line;
    }
    format!("- {floor}{}", &rest[16..])
}

/// The first stamp of the lines `edits` append that is later than `limit` (a day
/// ahead of the machine's clock): a line plan refuses to write.
pub fn first_ahead<'e>(edits: &'e [Edit], limit: &str) -> Option<&'e str> {
    edits.iter().find_map(|edit| match edit {
        Edit::AppendLog { lines } => lines.iter().find_map(|line| {
            let stamp = line.strip_prefix("- ")?.get(..16)?;
            (super::text::starts_with_stamp(stamp.as_bytes()) && stamp > limit).then_some(stamp)
        }),
        _ => None,
    })
}

/// The log's lines stamped later than `limit` (a day ahead of the machine's
/// clock), as lint errors.
pub fn ahead(log: &[LogEntry<'_>], limit: &str) -> Vec<super::diag::Diagnostic> {
    log.iter()
        .filter_map(|e| Some((e.line, e.stamp?)))
        .filter(|(_, stamp)| *stamp > limit)
        .map(|(line, stamp)| {
            super::diag::Diagnostic::error(
                line,
                format!("log line stamped {stamp}, more than a day ahead of this machine's clock"),
            )
            .hint("a clock set ahead (PLAN_NOW) wrote it; every later line would be stamped at least as late: fix the stamp by hand to the time it was written")
            .rule(super::rules::Rule::StampInFuture)
        })
        .collect()
}

/// A log line stamped earlier than the stamped line above it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutOfOrder {
    /// plan.md's line number.
    pub line: usize,
    pub stamp: String,
    /// The newest stamp above it.
    pub above: String,
}

/// The log's lines stamped earlier than a line above them: typed by hand, or
/// from two branches' logs merged (so a finding, not a failure).
pub fn out_of_order(log: &[LogEntry<'_>]) -> Vec<OutOfOrder> {
    let mut newest: Option<&str> = None;
    let mut out = Vec::new();
    for entry in log {
        let Some(stamp) = entry.stamp else { continue };
        match newest {
            Some(above) if stamp < above => out.push(OutOfOrder {
                line: entry.line,
                stamp: stamp.to_string(),
                above: above.to_string(),
            }),
            _ => newest = Some(stamp),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    #[test]
    fn appended_lines_are_stamped_no_earlier_than_the_floor() {
        let edits = vec![Edit::AppendLog {
            lines: vec![
                "- 2026-06-15 09:00 early".to_string(),
                "- 2026-06-15 15:00 late".to_string(),
                "- no stamp".to_string(),
            ],
        }];
        let Edit::AppendLog { lines } = &not_before(edits, "2026-06-15 14:02")[0] else {
            panic!()
        };
        assert_eq!(
            lines,
            &[
                "- 2026-06-15 14:02 early",
                "- 2026-06-15 15:00 late",
                "- no stamp"
            ]
        );
    }

    #[test]
    fn a_line_earlier_than_one_above_is_out_of_order() {
        let plan = parse(
            "## Log\n- 2026-06-15 10:00 a\n- 2026-06-15 11:00 b\n- note\n- 2026-06-15 10:30 c\n- 2026-06-15 10:45 d\n",
        );
        assert_eq!(newest(&plan.log), Some("2026-06-15 11:00"));
        let found = out_of_order(&plan.log);
        assert_eq!(
            found.iter().map(|o| o.line).collect::<Vec<_>>(),
            [5, 6],
            "{found:?}"
        );
        assert_eq!(found[1].above, "2026-06-15 11:00");
    }
}

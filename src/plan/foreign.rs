//! Plans written for other tools (checklists, phase and task headings, status
//! lines) in a file plan reads no goal from. Such a file used to read as "no goals
//! yet" without a word; these counts let `show`, `lint`, `doctor` and the
//! injection say what is there and that plan does not read it.

use super::model::Plan;
use super::text::count;

/// What a file holds that plan does not read as goals.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Foreign {
    /// `- [ ] …`, `* [x] …`: checklist items.
    pub checklist: usize,
    /// `## Phase 1: …`, `### Task 2`, `## Step …`, `## Milestone …` headings.
    pub headings: usize,
    /// `Status: …`, `**Status:** complete`, `[in_progress]` lines.
    pub statuses: usize,
}

/// Heading words that name a unit of work in other tools' plans.
const UNITS: &[&str] = &[
    "phase",
    "phases",
    "task",
    "tasks",
    "step",
    "steps",
    "stage",
    "stages",
    "milestone",
    "milestones",
    "sprint",
    "epic",
    "story",
    "todo",
    "backlog",
];

/// Bracketed status words seen in agents' plans (`[in_progress]`, `[complete]`).
const BRACKETED: &[&str] = &[
    "[in_progress]",
    "[in progress]",
    "[complete]",
    "[completed]",
    "[pending]",
    "[done]",
    "[todo]",
    "[blocked]",
    "[wip]",
];

/// Counts what `src` holds in other tools' shapes, outside fenced code blocks.
pub fn count_in(src: &str) -> Foreign {
    let mut found = Foreign::default();
    let mut fence: Option<&str> = None;
    for line in src.lines() {
        let trimmed = line.trim_start();
        for mark in ["```", "~~~"] {
            if trimmed.starts_with(mark) {
                fence = match fence {
                    Some(open) if open == mark => None,
                    None => Some(mark),
                    open => open,
                };
            }
        }
        if fence.is_some() || trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            continue;
        }
        if is_checklist(trimmed) {
            found.checklist += 1;
        } else if is_unit_heading(trimmed) {
            found.headings += 1;
        } else if is_status(trimmed) {
            found.statuses += 1;
        }
    }
    found
}

/// What follows a list item's marker (`- `, `* `, `+ `, `1. `, `1) `) in `line`
/// (trimmed), or `None` when it opens no list item.
pub fn after_list_marker(line: &str) -> Option<&str> {
    if let Some(rest) = ["- ", "* ", "+ "].iter().find_map(|b| line.strip_prefix(b)) {
        return Some(rest);
    }
    let digits = line.bytes().take_while(u8::is_ascii_digit).count();
    (1..=9)
        .contains(&digits)
        .then(|| {
            [". ", ") "]
                .iter()
                .find_map(|m| line[digits..].strip_prefix(m))
        })
        .flatten()
}

fn is_checklist(line: &str) -> bool {
    let Some(rest) = after_list_marker(line) else {
        return false;
    };
    let b = rest.trim_start().as_bytes();
    b.len() >= 3
        && b[0] == b'['
        && b[2] == b']'
        && matches!(b[1], b' ' | b'x' | b'X' | b'~' | b'-' | b'/')
}

fn is_unit_heading(line: &str) -> bool {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return false;
    }
    let Some(title) = line[hashes..].strip_prefix(' ') else {
        return false;
    };
    // "1. Phase one", "Phase 1:", "**Task 2**"
    let word: String = title
        .trim_start_matches(|c: char| {
            c.is_ascii_digit() || matches!(c, '.' | ')' | ' ' | '*' | '_')
        })
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    UNITS.contains(&word.as_str())
}

fn is_status(line: &str) -> bool {
    let lower = line.to_lowercase();
    let bare = lower
        .trim_start_matches(['-', '*', '+', ' ', '>'])
        .replace("**", "")
        .replace('_', "");
    bare.starts_with("status:") || BRACKETED.iter().any(|b| lower.contains(b))
}

impl Foreign {
    fn is_empty(&self) -> bool {
        self.checklist + self.headings + self.statuses == 0
    }
}

/// One line for a plan that has no goal but holds other tools' shapes, naming
/// the file `name`; `None` when it has goals or holds none of them. It says how
/// plan reads goals, and that `plan import FILE` turns them into goals.
pub fn line(plan: &Plan<'_>, name: &str) -> Option<String> {
    if !plan.goals.is_empty() {
        return None;
    }
    let found = count_in(plan.src);
    if found.is_empty() {
        return None;
    }
    let mut parts = Vec::new();
    if found.checklist > 0 {
        parts.push(count(found.checklist, "checklist item"));
    }
    if found.headings > 0 {
        parts.push(count(found.headings, "phase or task heading"));
    }
    if found.statuses > 0 {
        parts.push(count(found.statuses, "status line"));
    }
    let what = match parts.as_slice() {
        [one] => one.clone(),
        [first, second] => format!("{first} and {second}"),
        [first, second, third] => format!("{first}, {second} and {third}"),
        _ => unreachable!("at most three parts"),
    };
    Some(format!(
        "{name} holds {what} plan does not read as goals: a goal is a `## Goal: TITLE` heading (`plan add TITLE` writes one); `plan import {name}` turns them into goals"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    #[test]
    fn counts_checklists_unit_headings_and_status_lines_outside_code() {
        let src = "# Task Plan: Skimming\n\n## Phase 1: Setup [complete]\n- [x] init\n- [ ] wire\n* [X] done too\n\n### Task 2\n**Status:** in_progress\nStatus: pending\n\n```\n- [ ] in a fence\n## Phase 9\n```\n\n## Notes\n- plain item\n";
        assert_eq!(
            count_in(src),
            Foreign {
                checklist: 3,
                headings: 3,
                statuses: 2,
            }
        );
    }

    #[test]
    fn a_line_only_where_plan_reads_no_goal() {
        let foreign = "# TODO\n\n- [ ] one\n- [x] two\n## Phase 2\n";
        assert_eq!(
            line(&parse(foreign), "plan.md").as_deref(),
            Some(
                "plan.md holds 2 checklist items and 2 phase or task headings plan does not read as goals: a goal is a `## Goal: TITLE` heading (`plan add TITLE` writes one); `plan import plan.md` turns them into goals"
            )
        );
        assert_eq!(line(&parse("# Plan: x\n\nSome prose.\n"), "plan.md"), None);
        let ours =
            "# Plan: x\n\n## Goal: A\n<!-- id: a -->\nstatus: open\ndone_when: y\n- [ ] step\n";
        assert_eq!(line(&parse(ours), "plan.md"), None);
    }
}

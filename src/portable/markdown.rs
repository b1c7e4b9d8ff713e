//! Markdown plans as goals: a TODO checklist, PLAN.md phases with checklists,
//! planning-with-files' `task_plan.md` (`[complete]` items, `**Status:**` lines),
//! spec-kit's `tasks.md` (`T001 [P]` items under phase headings). Headings that
//! hold checklist items become goals with the items as subtasks; a single list
//! makes each item a goal; phase, step or milestone headings without items make
//! each heading a goal. Status words and `[x]` set the status, never silently:
//! every item's text is kept verbatim. Pure: text in, goals out.

use super::import::{Goal, Imported};
use crate::plan::foreign;
use crate::plan::model::Status;
use crate::plan::ops::{Refusal, refuse};
use crate::plan::text::one_line;

/// Status words in other tools' Markdown plans, as plan reads them. Never mapped
/// to done by a guess: only words that say finished.
const WORDS: &[(&str, Status)] = &[
    ("completed", Status::Done),
    ("complete", Status::Done),
    ("done", Status::Done),
    ("finished", Status::Done),
    ("✅", Status::Done),
    ("in_progress", Status::Active),
    ("in progress", Status::Active),
    ("in-progress", Status::Active),
    ("wip", Status::Active),
    ("🔄", Status::Active),
    ("🚧", Status::Active),
    ("cancelled", Status::Cancelled),
    ("canceled", Status::Cancelled),
    ("skipped", Status::Cancelled),
    ("dropped", Status::Cancelled),
    ("pending", Status::Open),
    ("todo", Status::Open),
    ("not started", Status::Open),
    ("⬜", Status::Open),
    ("blocked", Status::Open),
];

/// The status a bracket mark means: `[x]` done, `[~]`/`[/]` in progress, `[-]`
/// cancelled, `[ ]` open.
fn mark_status(mark: char) -> Option<Status> {
    match mark {
        'x' | 'X' => Some(Status::Done),
        '~' | '/' => Some(Status::Active),
        '-' => Some(Status::Cancelled),
        ' ' => Some(Status::Open),
        _ => None,
    }
}

/// The status word `text` holds, if any: the word as written, and what it means.
fn status_word(text: &str) -> Option<(String, Status)> {
    let lower = text.to_lowercase();
    WORDS.iter().find_map(|(word, status)| {
        let at = lower.find(word)?;
        // A whole word: "done" in "abandoned" or "undone" is not one.
        let before = lower[..at].chars().next_back();
        let after = lower[at + word.len()..].chars().next();
        let edge = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
        (word.chars().all(|c| !c.is_alphanumeric()) || (edge(before) && edge(after)))
            .then(|| (word.to_string(), *status))
    })
}

/// One list item with a status: `- [x] text` or `- [completed] text`.
#[derive(Clone, Debug)]
struct Item {
    line: usize,
    indent: usize,
    status: Status,
    /// The status word when the item said one (`completed`), else `None`.
    word: Option<String>,
    text: String,
    /// The lines indented under it that are no checklist item (Kiro's detail
    /// bullets, `_Requirements: 1.1_`): kept as the goal's notes.
    details: Vec<String>,
}

/// A heading and what is under it until the next heading.
#[derive(Debug, Default)]
struct Section {
    line: usize,
    level: usize,
    title: String,
    items: Vec<Item>,
    /// A `Status: …` line's word and meaning.
    status: Option<(String, Status)>,
    /// Its other lines (spec-kit's `**Goal**:`, a paragraph), by line number: the
    /// notes of the goal it becomes, else listed as unmapped.
    prose: Vec<(usize, String)>,
}

fn item(line: &str, no: usize) -> Option<Item> {
    let indent = line.len() - line.trim_start().len();
    let rest = foreign::after_list_marker(line.trim_start())?.trim_start();
    let inner = rest.strip_prefix('[')?;
    let close = inner.find(']')?;
    let (mark, after) = (&inner[..close], &inner[close + 1..]);
    let text = after.trim();
    if text.is_empty() || after.starts_with('(') {
        // `- [link](url)` is a link, not a checkbox; `- [ ] (P1) fix` is an item.
        return None;
    }
    let mut chars = mark.chars();
    let (status, word) = match (chars.next(), chars.next()) {
        (Some(c), None) => (mark_status(c)?, None),
        _ => {
            let (word, status) = status_word(mark)?;
            // The whole bracket is the word: `[in_progress]`, not `[see T001]`.
            if mark.trim().to_lowercase().replace('_', " ") != word.replace('_', " ") {
                return None;
            }
            (status, Some(mark.trim().to_string()))
        }
    };
    Some(Item {
        line: no,
        indent,
        status,
        word,
        text: one_line(text),
        details: Vec::new(),
    })
}

/// Whether `line` (trimmed) starts a list item of its own: `- `, `* `, `+ `, `1. `.
fn list_marker(line: &str) -> bool {
    foreign::after_list_marker(line).is_some()
}

/// A `Status: complete` / `**Status:** in_progress` / `- Status: done` line.
fn status_line(line: &str) -> Option<(String, Status)> {
    let bare = line
        .trim_start_matches(['-', '*', '+', ' ', '>'])
        .replace("**", "")
        .replace('_', " ");
    let (key, value) = bare.split_once(':')?;
    if !key.trim().eq_ignore_ascii_case("status") {
        return None;
    }
    let (_, status) = status_word(value)?;
    Some((value.trim().trim_matches('*').trim().to_string(), status))
}

fn heading(line: &str) -> Option<(usize, &str)> {
    let hashes = line.bytes().take_while(|&b| b == b'#').count();
    if !(1..=6).contains(&hashes) {
        return None;
    }
    Some((hashes, line[hashes..].strip_prefix(' ')?.trim()))
}

/// A heading's title without the status it carries (`✅ *complete*`,
/// `[complete]`, `(done)`), which becomes the goal's status instead.
fn clean_title(title: &str) -> String {
    let mut out = title.replace("**", "");
    for token in ["✅", "🔄", "🚧", "⬜"] {
        out = out.replace(token, "");
    }
    if let Some((word, _)) = status_word(&out) {
        for form in [
            format!("[{word}]"),
            format!("({word})"),
            format!("*{word}*"),
            format!("_{word}_"),
        ] {
            out = out.replace(&form, "");
        }
    }
    one_line(out.trim().trim_end_matches(['—', '-', '·', ':', ' ']))
}

/// Whether `text`, imported without `--from`, is a Markdown plan: not JSON, and
/// with a heading or a list item.
pub fn detect(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text).is_err()
        && text.lines().any(|l| {
            let l = l.trim_start();
            l.starts_with('#') || l.starts_with("- ") || l.starts_with("* ")
        })
}

/// Reads a Markdown plan named `name` as goals.
pub fn read(text: &str, name: &str) -> Result<Imported, Refusal> {
    let mut sections: Vec<Section> = vec![Section::default()];
    let mut objective = None;
    // The line of the heading the objective came from: mapped.
    let mut objective_line = 0;
    let mut fence: Option<&str> = None;
    // The open fence's line, and the first line inside it that would be read were
    // it not code (an item, a heading): a fence never closed hides those.
    let mut fence_at = (0, None);
    // Whether the line before was a checklist item or its continuation.
    let mut in_item = false;
    // Whether a line indented under the section's last item is that item's: until
    // a line that is not indented under it.
    let mut under_item = false;
    for (i, line) in text.lines().enumerate() {
        let no = i + 1;
        let trimmed = line.trim_start();
        let follows_item = std::mem::take(&mut in_item);
        if let Some(mark) = ["```", "~~~"].into_iter().find(|m| trimmed.starts_with(m)) {
            fence = match fence {
                Some(open) if open == mark => None,
                None => {
                    fence_at = (no, None);
                    Some(mark)
                }
                open => open,
            };
            continue;
        }
        if fence.is_some() {
            // A level-1 heading there is more likely a shell comment than a goal.
            let hides =
                heading(trimmed).is_some_and(|(level, _)| level > 1) || item(line, no).is_some();
            if fence_at.1.is_none() && hides {
                fence_at.1 = Some(no);
            }
            continue;
        }
        if let Some((level, title)) = heading(trimmed) {
            if level == 1 && objective.is_none() {
                let title = title
                    .trim_start_matches("Task Plan:")
                    .trim_start_matches("Plan:")
                    .trim();
                objective = Some(one_line(title));
                objective_line = no;
            }
            under_item = false;
            sections.push(Section {
                line: no,
                level,
                title: title.to_string(),
                status: status_word(title).filter(|_| heading_has_status(title)),
                ..Section::default()
            });
            continue;
        }
        let section = sections.last_mut().expect("one section at least");
        if let Some(item) = item(line, no) {
            section.items.push(item);
            in_item = true;
            under_item = true;
        } else if let Some(status) = status_line(trimmed) {
            section.status.get_or_insert(status);
        } else if follows_item
            && !trimmed.is_empty()
            && !list_marker(trimmed)
            && !trimmed.starts_with("<!--")
            && !not_prose(trimmed)
            && let Some(last) = section.items.last_mut()
        {
            // The item's paragraph goes on (Markdown's continuation line): its
            // text, or the goal would say less than the item did.
            last.text = one_line(&format!("{} {trimmed}", last.text));
            in_item = true;
        } else if trimmed.is_empty() {
            continue;
        } else if let Some(last) = section
            .items
            .last_mut()
            .filter(|last| under_item && line.len() - trimmed.len() > last.indent)
        {
            let detail = foreign::after_list_marker(trimmed).unwrap_or(trimmed);
            last.details.push(one_line(detail.trim_start()));
        } else {
            under_item = false;
            section.prose.push((no, one_line(trimmed)));
        }
    }
    if let (Some(mark), (open, Some(hidden))) = (fence, fence_at) {
        return Err(refuse(
            format!(
                "line {open}: a code fence ({mark}) opened here is never closed, so from line {hidden} on the rest of the file reads as code and its items and headings would be skipped"
            ),
            format!(
                "close the fence with a line of {mark} where the code ends, then run `plan import {name}` again"
            ),
        ));
    }
    let mut out = Out::default();
    let with_items: Vec<&Section> = sections.iter().filter(|s| !s.items.is_empty()).collect();
    let headed = with_items.iter().filter(|s| s.line > 0).count();
    // Which sections become goals (by index); `None`: the items themselves do.
    let goal_sections: Option<Vec<usize>> = if headed >= 2 {
        out.notes.push(format!(
            "{headed} headings hold checklist items: each heading is a goal, its items the goal's subtasks"
        ));
        Some(
            (1..sections.len())
                .filter(|&i| !sections[i].items.is_empty())
                .collect(),
        )
    } else if !with_items.is_empty() {
        None
    } else {
        let all: Vec<usize> = (1..sections.len())
            .filter(|&i| sections[i].level > 1 && is_unit(&sections[i]))
            .collect();
        // A heading whose next unit sits below it holds units (`## Milestones`
        // over `### M0`): the units are the goals, not their container.
        let units: Vec<usize> = all
            .iter()
            .enumerate()
            .filter(|(k, i)| {
                all.get(k + 1)
                    .is_none_or(|&next| sections[next].level <= sections[**i].level)
            })
            .map(|(_, i)| *i)
            .collect();
        if units.is_empty() {
            return Err(refuse(
                "it holds no checklist items (`- [ ] …`), status items (`- [done] …`) or phase, step or milestone headings: plan does not guess goals from prose".to_string(),
                "write the work as a checklist (`- [ ] step`) or `## Phase N: …` headings, or add goals with `plan add TITLE`",
            ));
        }
        out.notes.push(format!(
            "no checklist: each of the {} phase, step or milestone headings is a goal",
            units.len()
        ));
        Some(units)
    };
    let mut unmapped: Vec<(usize, String)> = Vec::new();
    match goal_sections {
        Some(goals) => {
            // Items before the first heading stand as goals of their own.
            items_as_goals(&sections[0].items, name, &mut out);
            unmapped.extend(sections[0].prose.iter().cloned());
            let mapped = Mapped {
                goals: &goals,
                objective_line,
            };
            sections_as_goals(&sections, mapped, name, &mut out, &mut unmapped);
        }
        None => {
            let items: Vec<Item> = with_items.iter().flat_map(|s| s.items.clone()).collect();
            out.notes.push(format!(
                "one list of {} items: each top-level item is a goal, indented ones its subtasks",
                items.len()
            ));
            items_as_goals(&items, name, &mut out);
            for section in &sections {
                if section.line > 0 && section.items.is_empty() && section.line != objective_line {
                    unmapped.push((section.line, heading_text(section)));
                }
                unmapped.extend(section.prose.iter().cloned());
            }
        }
    }
    unmapped.retain(|(line, _)| *line != objective_line);
    out.unmapped.extend(runs(&mut unmapped, name));
    let found = foreign::count_in(text);
    out.notes.push(format!(
        "{name}: {} checklist items, {} phase or task headings, {} status lines; the file's own text stays where it is",
        found.checklist, found.headings, found.statuses
    ));
    Ok(Imported {
        format: super::import::Format::Markdown,
        objective,
        goals: out.goals,
        unmapped: out.unmapped,
        notes: out.notes,
    })
}

/// A section's heading as it was written.
fn heading_text(section: &Section) -> String {
    format!("{} {}", "#".repeat(section.level), section.title)
}

/// The sections at `goals` (indexes) as goals. A heading above them that holds no
/// items (spec-kit's `## Phase 3: User Story 1 …` over `### Tests for User Story
/// 1`) is named in each goal's notes, and its lines (`**Goal**: …`) go to the
/// first goal under it; a section no goal is under is listed in `unmapped`.
fn sections_as_goals(
    sections: &[Section],
    mapped: Mapped<'_>,
    name: &str,
    out: &mut Out,
    unmapped: &mut Vec<(usize, String)>,
) {
    let goals = mapped.goals;
    let mut is_goal = vec![false; sections.len()];
    for &i in goals {
        is_goal[i] = true;
    }
    // Each section's enclosing heading (the last one above of a lower level), in
    // one pass: walking up from every goal would be quadratic in headings.
    let mut parent: Vec<Option<usize>> = vec![None; sections.len()];
    let mut open: Vec<usize> = Vec::new();
    for (i, section) in sections.iter().enumerate().skip(1) {
        while open
            .last()
            .is_some_and(|&j| sections[j].level >= section.level)
        {
            open.pop();
        }
        parent[i] = open.last().copied();
        open.push(i);
    }
    let mut claimed = vec![false; sections.len()];
    for &i in goals {
        section_as_goal(&sections[i], name, out);
        claimed[i] = true;
        let goal = out.goals.last_mut().expect("a goal was pushed");
        let mut above = Vec::new();
        let mut at = parent[i];
        while let Some(j) = at {
            // The title heading is the objective, above every goal alike; a goal
            // above is a goal of its own.
            if !is_goal[j] && sections[j].line != mapped.objective_line {
                above.push(j);
            }
            at = parent[j];
        }
        for &j in above.iter().rev() {
            goal.notes.push(format!(
                "under {name} line {}: {}",
                sections[j].line, sections[j].title
            ));
            if !claimed[j] {
                claimed[j] = true;
                goal.notes.extend(
                    sections[j]
                        .prose
                        .iter()
                        .map(|(no, text)| format!("{name} line {no}: {text}")),
                );
            }
        }
    }
    for (j, section) in sections.iter().enumerate().skip(1) {
        if !claimed[j] {
            unmapped.push((section.line, heading_text(section)));
            unmapped.extend(section.prose.iter().cloned());
        }
    }
}

/// Which sections are goals (indexes), and the objective's heading line.
#[derive(Clone, Copy)]
struct Mapped<'a> {
    goals: &'a [usize],
    objective_line: usize,
}

/// Unmapped lines, by line, as one entry per run of lines close together.
fn runs(lines: &mut [(usize, String)], name: &str) -> Vec<String> {
    lines.sort_by_key(|(no, _)| *no);
    let mut out = Vec::new();
    let mut k = 0;
    while k < lines.len() {
        let mut end = k;
        // One blank line between two lines keeps them in one run.
        while end + 1 < lines.len() && lines[end + 1].0 <= lines[end].0 + 2 {
            end += 1;
        }
        let (first, text) = &lines[k];
        out.push(match end - k {
            0 => format!("{name} line {first}: {text}"),
            more => format!(
                "{name} lines {first}–{} ({} lines): {text} …",
                lines[end].0,
                more + 1
            ),
        });
        k = end + 1;
    }
    out
}

/// Whether a heading's status word is its status (`Phase 1 [complete]`, `M0 ✅
/// *complete*`) rather than part of its name ("Done criteria").
fn heading_has_status(title: &str) -> bool {
    let lower = title.to_lowercase();
    ["✅", "🔄", "🚧", "⬜"].iter().any(|t| title.contains(t))
        || WORDS.iter().any(|(w, _)| {
            [
                format!("[{w}]"),
                format!("({w})"),
                format!("*{w}*"),
                format!("_{w}_"),
                format!("— {w}"),
                format!("- {w}"),
            ]
            .iter()
            .any(|f| lower.contains(f.as_str()))
        })
}

/// A heading naming a unit of work (`Phase 2`, `Step 3: …`, `Milestone`, `M1 —`,
/// `T003`), or one that carries a status.
fn is_unit(section: &Section) -> bool {
    let line = format!("{} {}", "#".repeat(section.level), section.title);
    foreign::count_in(&line).headings > 0
        || section.status.is_some()
        || section.title.split_whitespace().next().is_some_and(|w| {
            let w = w.trim_end_matches([':', '.', '—']);
            w.len() >= 2
                && w.starts_with(['M', 'P', 'S', 'T'])
                && w[1..]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == '.' || c == '-')
        })
}

#[derive(Default)]
struct Out {
    goals: Vec<Goal>,
    unmapped: Vec<String>,
    notes: Vec<String>,
    keys: crate::plan::id::Taken,
}

impl Out {
    fn key(&mut self, title: &str) -> String {
        let key = self.keys.free(&crate::plan::id::slug(title), |_| false);
        self.keys.insert(&key);
        key
    }
}

/// An item's subtask text: its own text, with the status word it said when
/// ticking cannot say it (`(in_progress)`).
fn subtask(item: &Item) -> (bool, String) {
    let done = item.status == Status::Done;
    let text = match (&item.word, item.status) {
        (Some(word), s) if s != Status::Done && s != Status::Open => {
            format!("{} ({word})", item.text)
        }
        (None, Status::Active) => format!("{} (in progress)", item.text),
        (None, Status::Cancelled) => format!("{} (cancelled)", item.text),
        _ => item.text.clone(),
    };
    (done, text)
}

/// A heading and its items as one goal: the items its subtasks; its status the
/// heading's word or `Status:` line, else all items done → done, any started →
/// active, else open.
fn section_as_goal(section: &Section, name: &str, out: &mut Out) {
    let title = clean_title(&section.title);
    let title = if title.is_empty() {
        format!("section at line {}", section.line)
    } else {
        title
    };
    let key = out.key(&title);
    let items = &section.items;
    let derived = if !items.is_empty() && items.iter().all(|i| i.status == Status::Done) {
        Status::Done
    } else if items
        .iter()
        .any(|i| matches!(i.status, Status::Done | Status::Active))
    {
        Status::Active
    } else {
        Status::Open
    };
    let mut notes = vec![format!("{name} line {}: {}", section.line, section.title)];
    notes.extend(
        section
            .prose
            .iter()
            .map(|(no, text)| format!("{name} line {no}: {text}")),
    );
    for item in items {
        notes.extend(item.details.iter().map(|d| format!("{}: {d}", item.text)));
    }
    let status = match &section.status {
        Some((word, status)) => {
            if *status == Status::Open && word != "pending" && word != "todo" {
                notes.push(format!("labels: status:{word}"));
            }
            *status
        }
        None => derived,
    };
    if section.status.is_none() && derived == Status::Active {
        out.notes.push(format!(
            "{key}: some of its items are done or started, so it comes in active"
        ));
    }
    out.notes.push(format!(
        "{key}: done_when is its heading: sharpen it (plan edit)"
    ));
    out.goals.push(Goal {
        key,
        title: title.clone(),
        status,
        done_when: Some(title),
        verify: None,
        depends_on: Vec::new(),
        failure_modes: Vec::new(),
        budget: None,
        subtasks: items.iter().map(subtask).collect(),
        notes,
    });
}

/// A list's top-level items as goals, each indented item a subtask of the item
/// above it.
fn items_as_goals(items: &[Item], name: &str, out: &mut Out) {
    let Some(top) = items.iter().map(|i| i.indent).min() else {
        return;
    };
    for item in items {
        if item.indent > top
            && let Some(goal) = out.goals.last_mut()
        {
            goal.subtasks.push(subtask(item));
            goal.notes
                .extend(item.details.iter().map(|d| format!("{}: {d}", item.text)));
            continue;
        }
        let key = out.key(&item.text);
        let mut notes = vec![format!("{name} line {}", item.line)];
        notes.extend(item.details.iter().cloned());
        if let Some(word) = &item.word
            && !WORDS
                .iter()
                .any(|(w, s)| w == &word.to_lowercase() && *s != Status::Open)
            && word != "pending"
            && word != "todo"
        {
            notes.push(format!("labels: status:{word}"));
        }
        out.goals.push(Goal {
            key,
            title: item.text.clone(),
            status: item.status,
            done_when: Some(item.text.clone()),
            verify: None,
            depends_on: Vec::new(),
            failure_modes: Vec::new(),
            budget: None,
            subtasks: Vec::new(),
            notes,
        });
    }
    out.notes
        .push("each item's text is its done_when: sharpen them (plan edit)".to_string());
}

/// A line that goes on no paragraph: a thematic break or a setext underline
/// (`---`, `***`, `___`, `===`), a quote, a table's row.
fn not_prose(trimmed: &str) -> bool {
    let bare: String = trimmed.chars().filter(|c| !c.is_whitespace()).collect();
    let ruled = bare.len() >= 3
        && ['-', '*', '_', '=']
            .iter()
            .any(|&c| bare.chars().all(|d| d == c));
    ruled || trimmed.starts_with(['>', '|'])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn statuses(got: &Imported) -> Vec<Status> {
        got.goals.iter().map(|g| g.status).collect()
    }

    #[test]
    fn a_flat_checklist_makes_each_item_a_goal_and_nested_items_subtasks() {
        let src = "# TODO\n\n- [x] Ship the parser\n- [ ] Write docs\n  - [x] intro\n  - [ ] usage\n- [~] Fix flaky test\n- [-] Port to Windows\n";
        let got = read(src, "TODO.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Ship the parser",
                "Write docs",
                "Fix flaky test",
                "Port to Windows"
            ]
        );
        assert_eq!(
            statuses(&got),
            [
                Status::Done,
                Status::Open,
                Status::Active,
                Status::Cancelled
            ]
        );
        assert_eq!(
            got.goals[1].subtasks,
            [(true, "intro".to_string()), (false, "usage".to_string())]
        );
        assert_eq!(got.objective.as_deref(), Some("TODO"));
    }

    /// planning-with-files' task_plan.md: phase headings, items, `**Status:**`.
    #[test]
    fn phases_with_checklists_and_status_lines_are_goals_with_subtasks() {
        let src = "# Task Plan: Build the CLI\n\n## Goal\nA CLI.\n\n## Phases\n\n### Phase 1: Requirements\n- [x] Understand intent\n- [x] Find constraints\n- **Status:** complete\n\n### Phase 2: Build\n- [x] Scaffold\n- [ ] Commands\n- **Status:** in_progress\n\n### Phase 3: Ship\n- [ ] Release\n- **Status:** pending\n\n```md\n- [ ] not an item\n```\n";
        let got = read(src, "task_plan.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            ["Phase 1: Requirements", "Phase 2: Build", "Phase 3: Ship"]
        );
        assert_eq!(statuses(&got), [Status::Done, Status::Active, Status::Open]);
        assert_eq!(got.goals[1].subtasks.len(), 2);
        assert_eq!(got.objective.as_deref(), Some("Build the CLI"));
    }

    /// Kiro's tasks.md: the bullets under each task (what to build, its
    /// `_Requirements:_`) are the goal's notes, not dropped; nothing is unmapped.
    #[test]
    fn kiro_detail_bullets_are_kept_as_notes() {
        let src = "# Implementation Plan\n\n- [ ] 1. Set up the storage layer\n  - Create the schema module for accounts\n  - _Requirements: 1.1, 2.3_\n\n- [x] 2. Build the account service\n  - [x] 2.1 Add the create endpoint\n    - Validate the payload\n    - _Requirements: 1.2_\n";
        let got = read(src, "tasks.md").unwrap();
        assert_eq!(got.goals.len(), 2);
        assert_eq!(
            got.goals[0].notes,
            [
                "tasks.md line 3",
                "Create the schema module for accounts",
                "_Requirements: 1.1, 2.3_"
            ]
        );
        assert!(
            got.goals[1]
                .notes
                .contains(&"2.1 Add the create endpoint: _Requirements: 1.2_".to_string()),
            "{:?}",
            got.goals[1].notes
        );
        assert_eq!(got.unmapped, Vec::<String>::new());
    }

    /// spec-kit's stories: the story heading above `### Tests for …` and its
    /// `**Goal**:` / `**Independent Test**:` lines reach the goals under it; a line
    /// under no goal is listed as unmapped, with its place.
    #[test]
    fn spec_kit_story_lines_reach_the_goals_under_them() {
        let src = "# Tasks: Albums\n\n**Input**: design documents\n\n## Phase 1: Setup\n\n- [ ] T001 Create the layout\n\n## Phase 3: User Story 1 - Sort photos (Priority: P1)\n\n**Goal**: group photos by date\n\n**Independent Test**: three photos make two albums\n\n### Tests for User Story 1\n\n- [ ] T010 [P] [US1] Contract test\n\n### Implementation for User Story 1\n\n- [ ] T012 [US1] Album model\n\n## Notes\n\nCommit after each task.\n";
        let got = read(src, "tasks.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            [
                "Phase 1: Setup",
                "Tests for User Story 1",
                "Implementation for User Story 1"
            ]
        );
        assert_eq!(
            got.goals[1].notes[1..],
            [
                "under tasks.md line 9: Phase 3: User Story 1 - Sort photos (Priority: P1)",
                "tasks.md line 11: **Goal**: group photos by date",
                "tasks.md line 13: **Independent Test**: three photos make two albums"
            ]
        );
        assert_eq!(
            got.goals[2].notes[1..],
            ["under tasks.md line 9: Phase 3: User Story 1 - Sort photos (Priority: P1)"]
        );
        assert_eq!(
            got.unmapped,
            [
                "tasks.md line 3: **Input**: design documents",
                "tasks.md lines 23–25 (2 lines): ## Notes …"
            ]
        );
    }

    /// spec-kit's tasks.md: ids and `[P]` markers kept in the subtask text.
    #[test]
    fn spec_kit_tasks_keep_ids_and_parallel_markers() {
        let src = "# Tasks: Photo albums\n\n## Phase 1: Setup\n\n- [x] T001 Create project structure\n- [ ] T002 [P] Configure linting\n\n## Phase 2: User Story 1 (Priority: P1)\n\n- [ ] T003 [P] [US1] Album model in src/models/album.py\n- [ ] T004 [US1] Album service (depends on T003)\n";
        let got = read(src, "tasks.md").unwrap();
        assert_eq!(got.goals.len(), 2);
        assert_eq!(got.goals[0].status, Status::Active);
        assert_eq!(
            got.goals[1].subtasks,
            [
                (
                    false,
                    "T003 [P] [US1] Album model in src/models/album.py".to_string()
                ),
                (
                    false,
                    "T004 [US1] Album service (depends on T003)".to_string()
                )
            ]
        );
    }

    /// `- [completed] text` items (planning-with-files' older template) and
    /// headings carrying their status (`✅ *complete*`).
    #[test]
    fn bracketed_status_words_and_status_headings() {
        let src = "# Task Plan: X\n\n## Phases\n- [completed] Assess\n- [in_progress] Replace runtime\n- [pending] Document\n";
        let got = read(src, "task_plan.md").unwrap();
        assert_eq!(statuses(&got), [Status::Done, Status::Active, Status::Open]);
        let src = "# Plan\n\n## 2. Milestones\n\n### M0 — Foundation ✅ *complete*\nText.\n\n### M1 — Runner 🔄\n\n### M2 — Serving · Week 4\n";
        let got = read(src, "PLAN.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            ["M0 — Foundation", "M1 — Runner", "M2 — Serving · Week 4"]
        );
        assert_eq!(statuses(&got), [Status::Done, Status::Active, Status::Open]);
    }

    #[test]
    fn prose_is_refused_with_what_to_do() {
        let err = read("# Notes\n\nSome prose.\n\n## Design\nMore.\n", "plan.md").unwrap_err();
        assert!(
            err.message.starts_with("it holds no checklist items"),
            "{err:?}"
        );
        assert!(err.hint.contains("plan add"), "{err:?}");
    }

    #[test]
    fn a_word_inside_another_is_no_status() {
        assert_eq!(status_word("abandoned plans"), None);
        assert_eq!(
            status_word("Phase 1 [complete]").map(|(_, s)| s),
            Some(Status::Done)
        );
        assert_eq!(clean_title("Phase 1: Setup [complete]"), "Phase 1: Setup");
    }

    /// An item wrapped over two lines (a lazy or indented continuation, as
    /// Markdown reads it) is one item: its second line was dropped, so the goal's
    /// done_when said less than the item did, in silence.
    #[test]
    fn an_item_wrapped_over_lines_keeps_all_its_text() {
        let src = "# TODO\n\n- [ ] Migrate the database,\n  then drop the old tables\nonce the backup is verified\n- [x] Write docs\n  **Status:** done\n\n  a paragraph apart is not the item\n- [ ] Ship\n";
        let got = read(src, "TODO.md").unwrap();
        let texts: Vec<&str> = got
            .goals
            .iter()
            .map(|g| g.done_when.as_deref().unwrap())
            .collect();
        assert_eq!(
            texts,
            [
                "Migrate the database, then drop the old tables once the backup is verified",
                "Write docs",
                "Ship"
            ]
        );
        // Under headings the items are subtasks: the same holds.
        let src = "## Phase 1\n- [ ] a step that\n  goes on\n\n## Phase 2\n- [ ] b\n";
        let got = read(src, "PLAN.md").unwrap();
        assert_eq!(
            got.goals[0].subtasks,
            [(false, "a step that goes on".to_string())]
        );
        // A rule, a quote or a table after an item is no part of it.
        for after in ["---", "* * *", "___", "> quoted", "| a | b |"] {
            let src = format!("- [ ] last\r\n{after}\r\n");
            let got = read(&src, "TODO.md").unwrap();
            assert_eq!(got.goals[0].done_when.as_deref(), Some("last"), "{after}");
        }
    }

    /// A numbered checklist (`1. [ ] …`, `2) [x] …`) is a checklist too: its items
    /// were no items, and a phase of them was dropped without a word.
    #[test]
    fn numbered_checklist_items_are_items() {
        let src = "# Release\n\n## Phase 1: Prep\n1. [ ] Bump version\n2) [x] Write changelog\n\n## Phase 2: Ship\n- [ ] Tag\n";
        let got = read(src, "num.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(titles, ["Phase 1: Prep", "Phase 2: Ship"]);
        assert_eq!(
            got.goals[0].subtasks,
            [
                (false, "Bump version".to_string()),
                (true, "Write changelog".to_string())
            ]
        );
        assert!(
            got.notes.iter().any(|n| n.contains("3 checklist items")),
            "{:?}",
            got.notes
        );
    }

    /// An item whose text opens with a parenthesis (`- [ ] (P1) Fix …`) is an
    /// item: only a bracket followed at once by `(` is a link (`- [docs](url)`).
    /// Before, both were taken for links and the items were dropped without a word.
    #[test]
    fn an_item_opening_with_a_parenthesis_is_no_link() {
        let src = "# Sprint\n\n- [ ] (P1) Fix the login timeout\n- [x] (P2) Update deps\n- [ ] Ship\n- [docs](https://x.y)\n";
        let got = read(src, "sprint.md").unwrap();
        let titles: Vec<&str> = got.goals.iter().map(|g| g.title.as_str()).collect();
        assert_eq!(
            titles,
            ["(P1) Fix the login timeout", "(P2) Update deps", "Ship"]
        );
    }
}

//! A Backlog.md `backlog/` folder as goals: each task file (YAML front matter, then
//! `## Description`, `## Acceptance Criteria` …) is a goal; its status, dependencies,
//! labels, priority and milestone are mapped, its acceptance criteria are its
//! done_when and its subtasks, its body stays in its notes, and every front-matter
//! key with no place in plan.md is counted. Pure: the command reads the folder and
//! hands over each file's path and text.

use std::collections::HashMap;

use serde_json::{Map, Value};

use super::import::{
    Format, Goal, Imported, Out, empty, finish, foreign_id, label, labels_note, link, text,
};
use crate::plan::model::Status;
use crate::plan::ops::{Refusal, refuse};
use crate::plan::text::one_line;

/// The folders of a `backlog/` that hold task files, and what living there says.
pub const FOLDERS: &[(&str, Place)] = &[
    ("tasks", Place::Board),
    ("completed", Place::Completed),
    ("drafts", Place::Draft),
    ("archive/tasks", Place::Archived),
    ("archive/drafts", Place::Archived),
    ("archive/completed", Place::Archived),
];

/// Where in the backlog a task file was found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// `tasks/`: its status says where it is.
    Board,
    /// `completed/`: Backlog.md moves finished tasks here.
    Completed,
    /// `drafts/`: not yet on the board.
    Draft,
    /// `archive/`: taken off the board unfinished.
    Archived,
}

/// One task file: its path inside `backlog/`, where it lives, and its text.
pub struct File {
    pub path: String,
    pub place: Place,
    pub text: String,
}

/// Front-matter keys plan maps; any other is counted as not mapped.
const KEYS: &[&str] = &[
    "id",
    "title",
    "status",
    "dependencies",
    "labels",
    "priority",
    "milestone",
    "parent_task_id",
    "parent",
];

/// Backlog.md's default board columns (its config can add others).
const STATUSES: &[(&str, Status)] = &[
    ("to do", Status::Open),
    ("todo", Status::Open),
    ("in progress", Status::Active),
    ("done", Status::Done),
];

/// Reads the task files of one `backlog/` folder named `name`.
pub fn read(files: &[File], name: &str) -> Result<Imported, Refusal> {
    let mut out = Out::default();
    let mut tasks: Vec<((usize, Vec<u64>), Task)> = Vec::new();
    for file in files {
        match task(file) {
            Ok(t) => tasks.push(((t.place as usize, order(&t.id)), t)),
            Err(why) => out.unmapped.push(format!("{}: {why}; left out", file.path)),
        }
    }
    if tasks.is_empty() {
        return Err(refuse(
            format!(
                "{name}: no Backlog.md task files in it (Markdown files opening with `---` front matter under tasks/, completed/, drafts/ or archive/)"
            ),
            "give the `backlog/` folder that `backlog init` made, or a Markdown plan file",
        ));
    }
    // The board first, then completed, drafts and archive; within each by the
    // numbers in the id (task-2 before task-10).
    tasks.sort_by(|a, b| a.0.cmp(&b.0));
    let mut keys = HashMap::new();
    let mut deps = Vec::new();
    for (_, t) in tasks {
        out.extra("front matter", &t.meta, KEYS);
        let key = out.key(&t.title);
        super::import::name(&mut keys, &mut out, &t.id.to_lowercase(), &key, "task");
        let mut labels: Vec<String> = t
            .meta
            .get("labels")
            .map(list)
            .unwrap_or_default()
            .iter()
            .map(|l| label("label", l))
            .collect();
        let word = text(t.meta.get("status"));
        let said = word.as_deref().map(|w| {
            let lower = w.to_lowercase().replace(['_', '-'], " ");
            STATUSES.iter().find(|(n, _)| *n == lower).map(|(_, s)| *s)
        });
        let status = match (t.place, said) {
            (Place::Completed, _) => Status::Done,
            (Place::Archived, _) => Status::Cancelled,
            (_, Some(Some(s))) => s,
            (_, Some(None)) => {
                out.notes.push(format!(
                    "{key}: status {} there, open here",
                    word.as_deref().unwrap_or_default()
                ));
                Status::Open
            }
            (_, None) => Status::Open,
        };
        if let Some(w) = &word
            && said != Some(Some(status))
        {
            labels.push(label("status", w));
        }
        match t.place {
            Place::Board => {}
            Place::Completed => out.notes.push(format!("{key}: in completed/, so done")),
            Place::Draft => labels.push("draft".to_string()),
            Place::Archived => {
                labels.push("archived".to_string());
                out.notes
                    .push(format!("{key}: archived there, cancelled here"));
            }
        }
        for (field, name) in [
            ("priority", "priority"),
            ("milestone", "milestone"),
            ("parent_task_id", "parent"),
            ("parent", "parent"),
        ] {
            if let Some(v) = text(t.meta.get(field)) {
                labels.push(label(name, &v));
            }
        }
        let criteria: Vec<&(bool, String)> = t.criteria.iter().collect();
        let done_when = if criteria.is_empty() {
            out.notes.push(format!(
                "{key}: no acceptance criteria; done_when is its {}: sharpen it (plan edit)",
                if t.description.is_some() {
                    "description"
                } else {
                    "title"
                }
            ));
            Some(t.description.clone().unwrap_or_else(|| t.title.clone()))
        } else {
            Some(
                criteria
                    .iter()
                    .map(|(_, c)| c.as_str())
                    .collect::<Vec<_>>()
                    .join("; "),
            )
        };
        let mut notes = vec![format!("task {} in {}", t.id, t.path)];
        notes.extend(labels_note(&labels));
        notes.extend(t.body);
        let foreign: Vec<String> = t
            .meta
            .get("dependencies")
            .map(list)
            .unwrap_or_default()
            .into_iter()
            .map(|d| d.to_lowercase())
            .collect();
        deps.push((out.goals.len(), foreign));
        out.goals.push(Goal {
            key,
            title: t.title,
            status,
            done_when,
            verify: None,
            depends_on: Vec::new(),
            failure_modes: Vec::new(),
            budget: None,
            subtasks: t.criteria.into_iter().chain(t.definition).collect(),
            notes,
        });
    }
    link(&mut out, &deps, &keys, "task");
    out.notes.push(
        "acceptance criteria are each goal's done_when and its subtasks (ticked as in the file); Definition of Done items are subtasks too".to_string(),
    );
    Ok(finish(
        Format::Backlog,
        Some(format!("Backlog.md tasks from {name}")),
        out,
    ))
}

/// One task file, read.
struct Task {
    id: String,
    title: String,
    path: String,
    place: Place,
    meta: Map<String, Value>,
    description: Option<String>,
    /// `- [ ] #1 …` under Acceptance Criteria: (ticked, text without `#1`).
    criteria: Vec<(bool, String)>,
    /// `- [ ] …` under Definition of Done.
    definition: Vec<(bool, String)>,
    /// The body's lines, blank ones and Backlog.md's section markers dropped.
    body: Vec<String>,
}

fn task(file: &File) -> Result<Task, String> {
    let text_ = file.text.strip_prefix('\u{feff}').unwrap_or(&file.text);
    let rest = text_
        .strip_prefix("---\n")
        .or_else(|| text_.strip_prefix("---\r\n"))
        .ok_or("no `---` front matter at its top")?;
    let (front, body) = match rest.find("\n---") {
        Some(at) => {
            let after = &rest[at + 4..];
            let body = after.split_once('\n').map_or("", |(_, b)| b);
            (&rest[..=at], body)
        }
        None => return Err("its front matter has no closing `---`".to_string()),
    };
    let meta: Value = serde_saphyr::from_str(front).map_err(|e| {
        format!(
            "its front matter is not YAML ({})",
            one_line(&e.to_string())
        )
    })?;
    let meta = match meta {
        Value::Object(m) => m,
        _ => return Err("its front matter is not a list of `key: value` lines".to_string()),
    };
    let stem = file
        .path
        .rsplit('/')
        .next()
        .unwrap_or(&file.path)
        .trim_end_matches(".md");
    // `task-12 - Fix login.md`: the id and title when the front matter has none.
    let (stem_id, stem_title) = stem.split_once(" - ").unwrap_or((stem, stem));
    let id = foreign_id(meta.get("id")).unwrap_or_else(|| stem_id.trim().to_string());
    let title = text(meta.get("title")).unwrap_or_else(|| one_line(stem_title));
    let mut section = String::new();
    let mut description = None;
    let mut criteria = Vec::new();
    let mut definition = Vec::new();
    let mut lines = Vec::new();
    for line in body.lines() {
        let trimmed = line.trim();
        if trimmed.is_empty() || (trimmed.starts_with("<!--") && trimmed.ends_with("-->")) {
            continue;
        }
        lines.push(line.trim_end().to_string());
        if let Some(h) = trimmed.strip_prefix("## ") {
            section = h.trim().to_lowercase();
            continue;
        }
        let item = check(trimmed);
        if section.starts_with("acceptance criteria") {
            criteria.extend(item);
        } else if section.starts_with("definition of done") {
            definition.extend(item);
        } else if section.starts_with("description") && description.is_none() {
            description = Some(one_line(trimmed));
        }
    }
    Ok(Task {
        id,
        title,
        path: file.path.clone(),
        place: file.place,
        meta,
        description,
        criteria,
        definition,
        body: lines,
    })
}

/// `- [x] #2 text` as (ticked, text); Backlog.md numbers its criteria `#N`.
fn check(line: &str) -> Option<(bool, String)> {
    let rest = line
        .strip_prefix("- [")
        .or_else(|| line.strip_prefix("* ["))?;
    let (mark, text_) = rest.split_at_checked(1)?;
    let text_ = text_.strip_prefix(']')?.trim();
    let done = match mark {
        "x" | "X" => true,
        " " => false,
        _ => return None,
    };
    let text_ = match text_.strip_prefix('#') {
        Some(n) => match n.split_once(' ') {
            Some((num, t)) if num.chars().all(|c| c.is_ascii_digit()) => t.trim(),
            _ => text_,
        },
        None => text_,
    };
    (!text_.is_empty()).then(|| (done, one_line(text_)))
}

/// A front-matter value as a list of strings: `[a, b]`, a `- a` list, or one.
fn list(value: &Value) -> Vec<String> {
    match value {
        Value::Array(a) => a
            .iter()
            .filter(|v| !empty(v))
            .filter_map(|v| foreign_id(Some(v)))
            .collect(),
        Value::String(s) => s
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect(),
        other => foreign_id(Some(other)).into_iter().collect(),
    }
}

/// The numbers in an id, for board order: `task-10.2` → [10, 2].
fn order(id: &str) -> Vec<u64> {
    id.split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse().ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(path: &str, place: Place, text: &str) -> File {
        File {
            path: path.to_string(),
            place,
            text: text.to_string(),
        }
    }

    #[test]
    fn criteria_numbers_are_dropped_and_ticks_kept() {
        assert_eq!(check("- [x] #2 Works"), Some((true, "Works".to_string())));
        assert_eq!(
            check("- [ ] No number"),
            Some((false, "No number".to_string()))
        );
        assert_eq!(check("- [link](x)"), None);
        assert_eq!(order("TASK-10.2"), [10, 2]);
    }

    #[test]
    fn a_file_without_front_matter_is_reported_not_dropped() {
        let got = read(
            &[
                file("tasks/readme.md", Place::Board, "# Tasks\n"),
                file(
                    "tasks/task-1 - A.md",
                    Place::Board,
                    "---\nid: task-1\ntitle: A\nstatus: To Do\n---\n",
                ),
            ],
            "backlog",
        )
        .unwrap();
        assert_eq!(got.goals.len(), 1);
        assert!(
            got.unmapped
                .iter()
                .any(|u| u.starts_with("tasks/readme.md: no `---` front matter")),
            "{:?}",
            got.unmapped
        );
    }
}

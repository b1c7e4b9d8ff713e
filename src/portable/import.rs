//! Other tools' plans as goals: task-master's `tasks.json`, ralph's `prd.json`, a
//! planner's steps, a host's todo list, and plan's own export. Each mapping says
//! where every field went; a field with no place in plan.md is listed, never
//! dropped silently. Pure: JSON text in, goals out; the command reads the file.

use std::collections::{BTreeMap, HashMap};

use serde_json::{Map, Value};

use super::export::{Export, Standing};
use crate::plan::id;
use crate::plan::model::Status;
// Why a file cannot be imported, and what to do.
use crate::plan::checks::VerifyCheck;
use crate::plan::ops::{Refusal, refuse};
use crate::plan::text::one_line;

/// Declares [`Format`] from one table: each row is a variant, its name (as
/// `--from` takes it and a proposal records it), its rank in detection, the shape
/// that detects it and the mapping that reads it. The doc comment is `--from`'s
/// help for it. A new format is a row here plus its mapping function.
macro_rules! formats {
    ($(
        $(#[$doc:meta])*
        $variant:ident = $name:literal, detect $rank:literal: $detect:expr, read: $read:expr;
    )*) => {
        /// The formats `plan import` reads.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
        pub enum Format {
            $($(#[$doc])* #[value(name = $name)] $variant,)*
        }

        impl Format {
            /// Every format, in `--from`'s order.
            pub const ALL: [Format; [$($name),*].len()] = [$(Format::$variant),*];

            pub fn as_str(self) -> &'static str {
                match self {
                    $(Format::$variant => $name,)*
                }
            }

            /// Where it is tried in detection: a shape that could pass for another
            /// format's is tried before it.
            fn rank(self) -> u8 {
                match self {
                    $(Format::$variant => $rank,)*
                }
            }

            /// Whether a document has this format's shape.
            fn detects(self, obj: &Map<String, Value>) -> bool {
                let detect: fn(&Map<String, Value>) -> bool = match self {
                    $(Format::$variant => $detect,)*
                };
                detect(obj)
            }

            fn map(self, doc: &Value, req: &Request<'_>, out: &mut Out) -> Mapped {
                let read: fn(&Value, &Request<'_>, &mut Out) -> Mapped = match self {
                    $(Format::$variant => $read,)*
                };
                read(doc, req, out)
            }
        }
    };
}

/// A mapping's objective, if the file has one.
type Mapped = Result<Option<String>, Refusal>;

formats! {
    /// plan's own export (`plan export`)
    Plan = "plan",
        detect 0: |obj| obj.get("schema").and_then(Value::as_str) == Some("plan/1"),
        read: |doc, _, out| plan(doc, out);
    /// task-master's tasks.json
    Taskmaster = "taskmaster",
        detect 4: |obj| {
            obj.get("tasks").is_some_and(Value::is_array)
                || (!obj.is_empty()
                    && obj
                        .values()
                        .all(|v| v.get("tasks").is_some_and(Value::is_array)))
        },
        read: taskmaster;
    /// ralph's prd.json
    Prd = "prd",
        detect 1: |obj| {
            obj.get("userStories").is_some_and(Value::is_array)
                || obj.get("stories").is_some_and(Value::is_array)
        },
        read: |doc, _, out| prd(doc, out);
    /// a planner's ordered steps
    Steps = "steps",
        detect 3: |obj| {
            obj.get("plan").and_then(|p| p.get("steps")).is_some() || obj.get("steps").is_some()
        },
        read: |doc, req, out| steps(doc, req.verify, out);
    /// a host's todo list as its tool input (Claude Code's TodoWrite)
    Todos = "todos",
        detect 2: |obj| {
            obj.get("tool_input")
                .and_then(|t| t.get("todos"))
                .or_else(|| obj.get("todos"))
                .is_some_and(Value::is_array)
        },
        read: |doc, _, out| todos(doc, out);
    /// a Markdown plan: checklists, phases, task_plan.md, spec-kit's tasks.md
    /// (detected when the file is not JSON)
    Markdown = "markdown",
        detect 5: |_| false,
        read: |doc, _, _| Err(lacks("a Markdown plan", "checklist", doc, "- [ ] a step"));
    /// a Backlog.md `backlog/` folder: one Markdown file per task (detected when
    /// the path is a folder)
    Backlog = "backlog",
        detect 6: |_| false,
        read: |doc, _, _| Err(lacks("a Backlog.md folder", "tasks", doc, "backlog/tasks/task-1 - Title.md"));
}

/// One goal to be: a proposed id (`key`), unique within the import, that
/// `depends_on` names.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Goal {
    pub key: String,
    pub title: String,
    pub status: Status,
    pub done_when: Option<String>,
    pub verify: Option<String>,
    pub depends_on: Vec<String>,
    pub failure_modes: Vec<String>,
    /// Its `budget:` line, from a plan export.
    pub budget: Option<u32>,
    pub subtasks: Vec<(bool, String)>,
    /// Free text kept with the goal (description, details), one line each.
    pub notes: Vec<String>,
}

/// What a file maps to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Imported {
    pub format: Format,
    pub objective: Option<String>,
    pub goals: Vec<Goal>,
    /// Fields with no place in plan.md, e.g. `tasks[].priority (26 of 26)`.
    pub unmapped: Vec<String>,
    /// Mapping decisions worth a look, e.g. a done_when taken from a description.
    pub notes: Vec<String>,
}

/// What to read and how.
pub struct Request<'a> {
    /// `None`: detect it.
    pub format: Option<Format>,
    /// task-master: the tag to import instead of the current one.
    pub tag: Option<&'a str>,
    /// task-master: the current tag, from its state.json, when the command found it.
    pub current_tag: Option<&'a str>,
    /// Whether a command can be a goal's verify (plan's verify language).
    pub verify: VerifyCheck<'a>,
}

/// The format a document is in, by its shape.
pub fn detect(doc: &Value) -> Option<Format> {
    let obj = doc.as_object()?;
    let mut order = Format::ALL;
    order.sort_by_key(|f| f.rank());
    order.into_iter().find(|f| f.detects(obj))
}

/// Reads `text` (JSON) as goals. A Markdown plan is markdown.rs's to read.
pub fn read(text: &str, req: &Request<'_>) -> Result<Imported, Refusal> {
    let doc: Value = serde_json::from_str(text).map_err(|e| {
        refuse(
            format!("not JSON: {e}"),
            "plan import reads Markdown plans and JSON files: task-master's tasks.json, ralph's prd.json, a steps list, a todo list or `plan export`",
        )
    })?;
    let format = match req.format {
        Some(f) => f,
        None => detect(&doc).ok_or_else(|| {
            refuse(
                format!(
                    "cannot tell what format this is ({}): it has none of the keys {}",
                    shape(&doc),
                    MARKS
                ),
                format!(
                    "plan import reads {READS}; if it is one of them, name it: --from {}",
                    Format::ALL.map(Format::as_str).join("|")
                ),
            )
        })?,
    };
    let mut out = Out::default();
    let objective = format.map(&doc, req, &mut out)?;
    if out.goals.is_empty() {
        return Err(refuse(
            format!("no goals in it (read as {})", format.as_str()),
            "check the file, or name its format with --from",
        ));
    }
    Ok(finish(format, objective, out))
}

/// The goals a mapping collected, settled, with every unknown key counted.
pub(super) fn finish(format: Format, objective: Option<String>, mut out: Out) -> Imported {
    settle(&mut out);
    let unmapped = out
        .extra
        .iter()
        .map(|((path, key), n)| {
            let of = out.seen.get(path).copied().unwrap_or(*n);
            format!("{path}.{key} ({n} of {of})")
        })
        .chain(out.unmapped)
        .collect();
    Imported {
        format,
        objective,
        goals: out.goals,
        unmapped,
        notes: out.notes,
    }
}

/// What a mapping collects as it goes.
#[derive(Default)]
pub(super) struct Out {
    pub(super) goals: Vec<Goal>,
    /// Unknown keys by (path, key): how many objects had it.
    extra: BTreeMap<(String, String), usize>,
    /// Objects looked at, by path.
    seen: HashMap<String, usize>,
    pub(super) unmapped: Vec<String>,
    pub(super) notes: Vec<String>,
    /// The keys of `goals[..indexed]`.
    keys: id::Taken,
    indexed: usize,
}

impl Out {
    /// Counts `obj`'s keys outside `known` (and not empty) under `path`.
    pub(super) fn extra(&mut self, path: &str, obj: &Map<String, Value>, known: &[&str]) {
        *self.seen.entry(path.to_string()).or_default() += 1;
        for (key, value) in obj {
            if known.contains(&key.as_str()) || empty(value) {
                continue;
            }
            *self
                .extra
                .entry((path.to_string(), key.clone()))
                .or_default() += 1;
        }
    }

    /// The status `value` (`pending` when missing) means as the tool's `known`
    /// statuses map; one plan does not know is open here, with a note.
    fn status(&mut self, key: &str, value: Option<&Value>, known: &[(&str, Status)]) -> Status {
        let name = value.and_then(Value::as_str).unwrap_or("pending");
        match known.iter().find(|(n, _)| *n == name) {
            Some((_, status)) => *status,
            None => {
                self.notes
                    .push(format!("{key}: status {name} there, open here"));
                Status::Open
            }
        }
    }

    /// A key for `title`, unique among the goals so far.
    pub(super) fn key(&mut self, title: &str) -> String {
        self.index();
        self.keys.free(&id::slug(title), |_| false)
    }

    /// Whether a goal so far has the key `key`.
    pub(super) fn has_key(&mut self, key: &str) -> bool {
        self.index();
        self.keys.contains(key)
    }

    /// The keys of the goals pushed since the last look, added to `keys`: goals
    /// are only ever pushed, so each is indexed once.
    fn index(&mut self) {
        for goal in &self.goals[self.indexed..] {
            self.keys.insert(&goal.key);
        }
        self.indexed = self.goals.len();
    }
}

/// The keys that mark a format, for a refusal of a file that has none of them.
const MARKS: &str = "`schema`, `tasks`, `userStories`, `stories`, `steps`, `todos`";

/// The formats by the key that marks each, for a refusal's hint.
const READS: &str = "task-master's tasks.json (`tasks`), ralph's prd.json (`userStories`), a steps list (`steps`), a todo list (`todos`), `plan export` (`\"schema\": \"plan/1\"`) and Markdown checklists";

/// What a document is, in a few words, so a refusal says what plan found
/// instead of what it wanted: "a list of 2 items", "an object with keys a, b".
fn shape(value: &Value) -> String {
    match value {
        Value::Null => "null".to_string(),
        Value::Bool(_) => "a true/false value".to_string(),
        Value::Number(_) => "a number".to_string(),
        Value::String(_) => "a string".to_string(),
        Value::Array(a) => format!("a list of {}", crate::plan::text::count(a.len(), "item")),
        Value::Object(o) if o.is_empty() => "an empty object".to_string(),
        Value::Object(o) => {
            // A file with hundreds of keys (tags, ids) still gets one short line.
            const SHOWN: usize = 6;
            let mut keys: Vec<&str> = o.keys().take(SHOWN).map(String::as_str).collect();
            if o.len() > SHOWN {
                keys.push("…");
            }
            format!("an object with keys {}", keys.join(", "))
        }
    }
}

/// A file read as `what` that lacks the list `key`: a refusal naming the key,
/// what the file is instead, and the shape plan reads (`example`).
fn lacks(what: &str, key: &str, found: &Value, example: &str) -> Refusal {
    refuse(
        format!("not {what}: no `{key}` list in it ({})", shape(found)),
        format!("{what} looks like {example}; leave --from out and plan import detects {READS}"),
    )
}

pub(super) fn empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(s) => s.trim().is_empty(),
        Value::Array(a) => a.is_empty(),
        Value::Object(o) => o.is_empty(),
        _ => false,
    }
}

pub(super) fn text(value: Option<&Value>) -> Option<String> {
    let s = match value? {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    let s = one_line(&s);
    (!s.is_empty()).then_some(s)
}

/// A foreign id (`1`, `"1"`, `"US-001"`) as a string.
pub(super) fn foreign_id(value: Option<&Value>) -> Option<String> {
    match value? {
        Value::String(s) => Some(s.trim().to_string()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Multi-line text as note lines, blank lines dropped.
pub(super) fn note_lines(label: &str, value: Option<&Value>) -> Vec<String> {
    let Some(Value::String(s)) = value else {
        return Vec::new();
    };
    let lines: Vec<&str> = s.lines().filter(|l| !l.trim().is_empty()).collect();
    match lines.as_slice() {
        [] => Vec::new(),
        [one] => vec![format!("{label}: {}", one.trim_end())],
        many => std::iter::once(format!("{label}:"))
            .chain(many.iter().map(|l| l.trim_end().to_string()))
            .collect(),
    }
}

/// An active goal waits on nothing: plan would call it active while it waits. A
/// dependency imported as done is unproven here, so it is not met either.
fn settle(out: &mut Out) {
    let status: HashMap<String, Status> = out
        .goals
        .iter()
        .map(|g| (g.key.clone(), g.status))
        .collect();
    for goal in &mut out.goals {
        if goal.status != Status::Active {
            continue;
        }
        let waits: Vec<&str> = goal
            .depends_on
            .iter()
            .filter(|d| status.get(*d) != Some(&Status::Cancelled))
            .map(String::as_str)
            .collect();
        if !waits.is_empty() {
            out.notes.push(format!(
                "{}: in progress there, open here: it waits on {} (a goal imported as done counts once it is signed off here)",
                goal.key,
                waits.join(", ")
            ));
            goal.status = Status::Open;
        }
    }
}

/// Records that the file's id `fid` (a `what`: task, story) names the goal `key`.
/// An id the file gave before keeps its first goal, and the mapping says so: a
/// dependency on it cannot tell the two apart.
pub(super) fn name(
    keys: &mut HashMap<String, String>,
    out: &mut Out,
    fid: &str,
    key: &str,
    what: &str,
) {
    match keys.get(fid) {
        Some(first) => out.notes.push(format!(
            "{key}: {what} {fid} is in the file twice (also {first}); a dependency on {what} {fid} is taken as {first}"
        )),
        None => {
            keys.insert(fid.to_string(), key.to_string());
        }
    }
}

/// Turns foreign dependency ids into keys; unknown ones are reported.
pub(super) fn link(
    out: &mut Out,
    deps: &[(usize, Vec<String>)],
    keys: &HashMap<String, String>,
    what: &str,
) {
    for (i, foreign) in deps {
        for dep in foreign {
            match keys.get(dep) {
                Some(key) if *key != out.goals[*i].key => {
                    if !out.goals[*i].depends_on.contains(key) {
                        out.goals[*i].depends_on.push(key.clone());
                    }
                }
                Some(_) => out.notes.push(format!(
                    "{}: depends on itself in the file; left out",
                    out.goals[*i].key
                )),
                None => out.unmapped.push(format!(
                    "{}: depends on {what} {dep}, which is not in the import",
                    out.goals[*i].key
                )),
            }
        }
    }
}

fn plan(doc: &Value, out: &mut Out) -> Result<Option<String>, Refusal> {
    let export: Export = serde_json::from_value(doc.clone()).map_err(|e| {
        refuse(
            format!("not a plan/1 export: {e}"),
            "`plan export --schema` prints the shape it must have",
        )
    })?;
    let mut keys = HashMap::new();
    let mut deps = Vec::new();
    for goal in &export.goals {
        let key = match id::invalid(&goal.id) {
            None if !out.has_key(&goal.id) => goal.id.clone(),
            _ => out.key(&goal.title),
        };
        name(&mut keys, out, &goal.id, &key, "goal");
        deps.push((out.goals.len(), goal.depends_on.clone()));
        let mut notes = Vec::new();
        if goal.status == super::export::GoalStatus::Done {
            notes.push(format!(
                "done in the exported plan ({})",
                match goal.proof.state {
                    Standing::Proven => "signed off there",
                    Standing::Imported => "imported there",
                    _ => "not proven there",
                }
            ));
        }
        if goal.archived {
            out.notes.push(format!(
                "{key}: archived there, live here until `plan archive`"
            ));
        }
        out.goals.push(Goal {
            key,
            title: one_line(&goal.title),
            status: goal.status.into(),
            done_when: goal.done_when.as_deref().map(one_line),
            verify: goal
                .verify
                .as_deref()
                .map(crate::plan::text::one_line_command),
            depends_on: Vec::new(),
            failure_modes: goal.failure_modes.iter().map(|f| one_line(f)).collect(),
            budget: goal.budget,
            subtasks: goal
                .subtasks
                .iter()
                .map(|s| (s.done, one_line(&s.text)))
                .collect(),
            notes,
        });
    }
    link(out, &deps, &keys, "goal");
    if !export.log.is_empty() {
        out.unmapped.push(format!(
            "log ({}): the exported plan's history stays with it",
            crate::plan::text::count(export.log.len(), "line")
        ));
    }
    Ok(export.objective)
}

const TASKMASTER: &str = "task-master's tasks.json";
const TASKMASTER_EXAMPLE: &str = r#"{"master": {"tasks": [{"id": 1, "title": "…", "status": "pending", "dependencies": [], "subtasks": []}]}}"#;

/// task-master's statuses (and the spellings seen in real files); any other word
/// (`review`, `deferred`, `blocked`) is open here and kept as a `status:` label.
const TASK_STATUSES: &[(&str, Status)] = &[
    ("done", Status::Done),
    ("completed", Status::Done),
    ("complete", Status::Done),
    ("in-progress", Status::Active),
    ("in_progress", Status::Active),
    ("cancelled", Status::Cancelled),
    ("canceled", Status::Cancelled),
    ("pending", Status::Open),
    ("todo", Status::Open),
];

/// A todo list's statuses, and a planner's steps'.
const TODO_STATUSES: &[(&str, Status)] = &[
    ("completed", Status::Done),
    ("in_progress", Status::Active),
    ("pending", Status::Open),
];

const TASK_KEYS: &[&str] = &[
    "id",
    "title",
    "description",
    "details",
    "testStrategy",
    "status",
    "dependencies",
    "subtasks",
    "priority",
];
const SUBTASK_KEYS: &[&str] = &[
    "id",
    "title",
    "description",
    "details",
    "testStrategy",
    "acceptanceCriteria",
    "status",
    "dependencies",
    "subtasks",
    "priority",
];

/// A label's value as one word run: `priority:high`, `tag:feature-x`.
pub(super) fn label(name: &str, value: &str) -> String {
    format!("{name}:{}", one_line(value).replace(',', ";"))
}

/// Labels kept with a goal as its first note line, where plan.md keeps what has no
/// field of its own: `labels: tag:master, priority:high`.
pub(super) fn labels_note(labels: &[String]) -> Option<String> {
    (!labels.is_empty()).then(|| format!("labels: {}", labels.join(", ")))
}

fn taskmaster(doc: &Value, req: &Request<'_>, out: &mut Out) -> Result<Option<String>, Refusal> {
    let obj = doc
        .as_object()
        .ok_or_else(|| lacks(TASKMASTER, "tasks", doc, TASKMASTER_EXAMPLE))?;
    // Tags are the keys whose value holds tasks; a file with neither top-level
    // tasks nor such a key is not task-master's, whatever its name.
    if !obj.contains_key("tasks") && !obj.values().any(|v| v.get("tasks").is_some()) {
        return Err(lacks(TASKMASTER, "tasks", doc, TASKMASTER_EXAMPLE));
    }
    if let Some(tasks) = obj.get("tasks") {
        if let Some(tag) = req.tag {
            return Err(refuse(
                format!("--tag {tag}: this tasks.json has no tags (the older format)"),
                "leave --tag out",
            ));
        }
        for key in obj.keys().filter(|k| *k != "tasks") {
            out.unmapped.push(format!("{key}: file metadata"));
        }
        taskmaster_tag(tasks, None, out)?;
        return Ok(None);
    }
    let tags: Vec<&str> = obj.keys().map(String::as_str).collect();
    let names = tags.join(", ");
    // One tag when asked for; else every tag, the current one first, each goal
    // labelled with its tag.
    let picked: Vec<&str> = match req.tag {
        Some(tag) if obj.contains_key(tag) => vec![tag],
        Some(tag) => {
            return Err(refuse(
                format!("no tag \"{tag}\" in this tasks.json (it has {names})"),
                "pick one with --tag NAME, or leave --tag out to import every tag",
            ));
        }
        None => {
            let mut all = tags.clone();
            if let Some(current) = req.current_tag {
                all.sort_by_key(|t| *t != current);
            }
            all
        }
    };
    if req.tag.is_some() && tags.len() > 1 {
        let others: Vec<&str> = tags
            .iter()
            .copied()
            .filter(|t| !picked.contains(t))
            .collect();
        out.notes.push(format!(
            "tags {} left out: --tag picked {} (leave --tag out to import every tag)",
            others.join(", "),
            picked.join(", ")
        ));
    }
    for tag in &picked {
        let tagged = &obj[*tag];
        let Some(tasks) = tagged.get("tasks") else {
            out.unmapped
                .push(format!("{tag}: holds no `tasks` list; not a tag"));
            continue;
        };
        for (key, value) in tagged.as_object().into_iter().flatten() {
            if key != "tasks" && !empty(value) {
                out.unmapped
                    .push(format!("{tag}.{key}: no place in plan.md"));
            }
        }
        taskmaster_tag(tasks, Some(tag), out)?;
    }
    Ok(Some(match picked.as_slice() {
        [one] => format!("task-master tag {one}"),
        many => format!("task-master tags {}", many.join(", ")),
    }))
}

/// One tag's tasks (or an untagged file's) as goals; dependencies are read within
/// the tag, where task ids are unique.
fn taskmaster_tag(tasks: &Value, tag: Option<&str>, out: &mut Out) -> Result<(), Refusal> {
    let tasks = tasks.as_array().ok_or_else(|| {
        let place = tag.map_or("tasks".to_string(), |t| format!("{t}.tasks"));
        refuse(
            format!("`{place}` is {}, not a list of tasks", shape(tasks)),
            format!("{TASKMASTER} looks like {TASKMASTER_EXAMPLE}"),
        )
    })?;
    let mut keys = HashMap::new();
    let mut deps = Vec::new();
    for task in tasks {
        let Some(t) = task.as_object() else {
            out.unmapped
                .push("tasks[]: an entry that is not an object".to_string());
            continue;
        };
        out.extra("tasks[]", t, TASK_KEYS);
        let fid = foreign_id(t.get("id")).unwrap_or_default();
        let title = text(t.get("title")).unwrap_or_else(|| format!("task {fid}"));
        let key = out.key(&title);
        name(&mut keys, out, &fid, &key, "task");
        let mut labels: Vec<String> = tag.map(|t| label("tag", t)).into_iter().collect();
        let status = out.status(&key, t.get("status"), TASK_STATUSES);
        if let Some(word) = status_word(t.get("status"), TASK_STATUSES) {
            labels.push(label("status", &word));
        }
        if let Some(priority) = text(t.get("priority")) {
            labels.push(label("priority", &priority));
        }
        let done_when = match text(t.get("testStrategy")) {
            Some(strategy) => Some(strategy),
            None => {
                let fallback = text(t.get("description")).unwrap_or_else(|| title.clone());
                out.notes.push(format!(
                    "{key}: no testStrategy; done_when is its description: sharpen it (plan edit)"
                ));
                Some(fallback)
            }
        };
        let mut notes = vec![format!("task {fid} in task-master")];
        notes.extend(labels_note(&labels));
        notes.extend(note_lines("description", t.get("description")));
        notes.extend(note_lines("details", t.get("details")));
        let mut subtasks = Vec::new();
        subtasks_of(t, &fid, &key, 1, out, &mut subtasks, &mut notes);
        let foreign: Vec<String> = t
            .get("dependencies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|d| foreign_id(Some(d)))
            .collect();
        deps.push((out.goals.len(), foreign));
        out.goals.push(Goal {
            key,
            title,
            status,
            done_when,
            verify: None,
            depends_on: Vec::new(),
            failure_modes: Vec::new(),
            budget: None,
            subtasks,
            notes,
        });
    }
    link(out, &deps, &keys, "task");
    Ok(())
}

/// A status word that has no plan status of its own (`deferred`, `review`), to be
/// kept as a label.
fn status_word(value: Option<&Value>, known: &[(&str, Status)]) -> Option<String> {
    let word = text(value)?;
    (!known.iter().any(|(n, _)| *n == word)).then_some(word)
}

/// How deep subtasks nest before the rest is left in the notes: deeper than any
/// real file goes, and a bound on a hostile one.
const MAX_DEPTH: usize = 8;

/// `parent`'s subtasks, nested ones too, as plan subtasks named by their path
/// (`3.2`, `3.2.1`): a subtask ticks only when done; any other status, its
/// dependencies and its priority stay in its text, `(deferred; after 3.1;
/// priority high)`, so nothing of it is dropped.
fn subtasks_of(
    parent: &Map<String, Value>,
    path: &str,
    key: &str,
    depth: usize,
    out: &mut Out,
    subtasks: &mut Vec<(bool, String)>,
    notes: &mut Vec<String>,
) {
    let list = parent.get("subtasks").and_then(Value::as_array);
    if depth > MAX_DEPTH {
        if list.is_some_and(|l| !l.is_empty()) {
            out.unmapped.push(format!(
                "{key}: subtasks of {path} nested deeper than {MAX_DEPTH} levels"
            ));
        }
        return;
    }
    for sub in list.into_iter().flatten() {
        let Some(s) = sub.as_object() else {
            out.unmapped
                .push(format!("{key}: a subtask of {path} that is not an object"));
            continue;
        };
        out.extra("tasks[].subtasks[]", s, SUBTASK_KEYS);
        let sid = foreign_id(s.get("id")).unwrap_or_else(|| (subtasks.len() + 1).to_string());
        let here = format!("{path}.{sid}");
        let name = text(s.get("title")).unwrap_or_else(|| format!("subtask {here}"));
        let mut extra = Vec::new();
        let done = match text(s.get("status")).as_deref() {
            Some("done" | "completed" | "complete") => true,
            None | Some("pending") => false,
            Some(other) => {
                extra.push(other.to_string());
                false
            }
        };
        let after: Vec<String> = s
            .get("dependencies")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|d| match d {
                // A bare number names a sibling: task-master's own convention.
                Value::Number(n) => Some(format!("{path}.{n}")),
                Value::String(s) if s.trim().parse::<u64>().is_ok() => {
                    Some(format!("{path}.{}", s.trim()))
                }
                other => foreign_id(Some(other)),
            })
            .collect();
        if !after.is_empty() {
            extra.push(format!("after {}", after.join(", ")));
        }
        if let Some(priority) = text(s.get("priority")) {
            extra.push(format!("priority {priority}"));
        }
        let mut line = format!("{here} {name}");
        if !extra.is_empty() {
            line.push_str(&format!(" ({})", extra.join("; ")));
        }
        let label = format!("subtask {here}");
        for (field, what) in [
            ("description", "description"),
            ("details", "details"),
            ("testStrategy", "test strategy"),
            ("acceptanceCriteria", "acceptance criteria"),
        ] {
            notes.extend(note_lines(&format!("{label} {what}"), s.get(field)));
        }
        subtasks.push((done, line));
        subtasks_of(s, &here, key, depth + 1, out, subtasks, notes);
    }
}

const PRD: &str = "ralph's prd.json";
const PRD_EXAMPLE: &str = r#"{"userStories": [{"id": "US-001", "title": "…", "acceptanceCriteria": ["…"], "passes": false}]}"#;

const STORY_KEYS: &[&str] = &[
    "id",
    "title",
    "description",
    "acceptanceCriteria",
    "acceptance_criteria",
    "passes",
    "notes",
    "dependsOn",
    "dependencies",
    "status",
    "priority",
    "completionNotes",
];

/// A story's `status`, in the words ralph-style loops write; any other word is
/// open here and kept as a `status:` label.
const STORY_STATUSES: &[(&str, Status)] = &[
    ("done", Status::Done),
    ("complete", Status::Done),
    ("completed", Status::Done),
    ("passed", Status::Done),
    ("passes", Status::Done),
    ("in-progress", Status::Active),
    ("in_progress", Status::Active),
    ("cancelled", Status::Cancelled),
    ("canceled", Status::Cancelled),
    ("skipped", Status::Cancelled),
    ("pending", Status::Open),
    ("todo", Status::Open),
    ("open", Status::Open),
];

/// The longest title taken from a description, in characters.
const TITLE_FROM_DESCRIPTION: usize = 72;

/// A title for a story that has none: its description's first sentence, cut at
/// a word near [`TITLE_FROM_DESCRIPTION`] characters.
fn title_from(description: &str) -> String {
    let first = description
        .split_inclusive(['.', '!', '?'])
        .next()
        .unwrap_or(description)
        .trim()
        .trim_end_matches(['.', '!', '?'])
        .trim();
    if first.chars().count() <= TITLE_FROM_DESCRIPTION {
        return first.to_string();
    }
    let cut: String = first.chars().take(TITLE_FROM_DESCRIPTION).collect();
    let cut = cut.rsplit_once(' ').map_or(cut.as_str(), |(a, _)| a);
    format!("{}…", cut.trim_end_matches([',', ';', ':']))
}

fn prd(doc: &Value, out: &mut Out) -> Result<Option<String>, Refusal> {
    // Files named prd.json come in many shapes (a list of tasks, phases,
    // `stories`); only ralph's has `userStories`, and anything else is refused by
    // name rather than read as nothing.
    // `stories` with `acceptance_criteria` is the same task list in other
    // spelling, so it is read the same way rather than refused.
    let (list, stories) = ["userStories", "stories"]
        .iter()
        .find_map(|k| doc.get(*k).and_then(Value::as_array).map(|a| (*k, a)))
        .ok_or_else(|| lacks(PRD, "userStories", doc, PRD_EXAMPLE))?;
    let obj = doc
        .as_object()
        .ok_or_else(|| lacks(PRD, "userStories", doc, PRD_EXAMPLE))?;
    for (key, value) in obj {
        if !["project", "description", list].contains(&key.as_str()) && !empty(value) {
            out.unmapped.push(format!("{key}: no place in plan.md"));
        }
    }
    let mut keys = HashMap::new();
    let mut deps = Vec::new();
    for (n, story) in stories.iter().enumerate() {
        let Some(s) = story.as_object() else {
            out.unmapped
                .push(format!("{list}[]: an entry that is not an object"));
            continue;
        };
        out.extra(&format!("{list}[]"), s, STORY_KEYS);
        let fid = foreign_id(s.get("id")).unwrap_or_else(|| format!("#{}", n + 1));
        let title = match (text(s.get("title")), text(s.get("description"))) {
            (Some(title), _) => title,
            (None, Some(description)) => {
                let title = title_from(&description);
                out.notes.push(format!(
                    "story {fid}: no title; named from its description: \"{title}\""
                ));
                title
            }
            (None, None) => format!("story {fid}"),
        };
        let key = out.key(&title);
        name(&mut keys, out, &fid, &key, "story");
        let criteria: Vec<String> = ["acceptanceCriteria", "acceptance_criteria"]
            .iter()
            .find_map(|k| s.get(*k).and_then(Value::as_array))
            .into_iter()
            .flatten()
            .filter_map(|c| text(Some(c)))
            .collect();
        let done_when = if criteria.is_empty() {
            out.notes.push(format!(
                "{key}: no acceptanceCriteria; done_when is its description: sharpen it (plan edit)"
            ));
            Some(text(s.get("description")).unwrap_or_else(|| title.clone()))
        } else {
            Some(criteria.join("; "))
        };
        let passes = s.get("passes").and_then(Value::as_bool).unwrap_or(false);
        let mut labels = Vec::new();
        let status = match s.get("status").filter(|v| !empty(v)) {
            // `passes` is the loop's own verdict; a status beside it is kept.
            _ if passes => Status::Done,
            None => Status::Open,
            Some(value) => out.status(&key, Some(value), STORY_STATUSES),
        };
        if let Some(word) = text(s.get("status")) {
            let mapped = STORY_STATUSES.iter().find(|(n, _)| *n == word);
            if mapped.is_none_or(|(_, st)| *st != status) {
                labels.push(label("status", &word));
            }
        }
        if let Some(priority) = text(s.get("priority")) {
            labels.push(label("priority", &priority));
        }
        let mut notes = vec![format!("story {fid} in prd.json")];
        notes.extend(labels_note(&labels));
        notes.extend(note_lines("description", s.get("description")));
        notes.extend(note_lines("notes", s.get("notes")));
        notes.extend(note_lines("completion notes", s.get("completionNotes")));
        let foreign: Vec<String> = ["dependsOn", "dependencies"]
            .iter()
            .filter_map(|k| s.get(*k))
            .flat_map(|v| match v {
                Value::Array(a) => a.iter().filter_map(|d| foreign_id(Some(d))).collect(),
                one => foreign_id(Some(one)).into_iter().collect::<Vec<_>>(),
            })
            .filter(|d| !d.is_empty())
            .collect();
        deps.push((out.goals.len(), foreign));
        out.goals.push(Goal {
            key,
            title,
            status,
            done_when,
            verify: None,
            depends_on: Vec::new(),
            failure_modes: Vec::new(),
            budget: None,
            subtasks: Vec::new(),
            notes,
        });
    }
    link(out, &deps, &keys, "story");
    let project = text(obj.get("project"));
    let description = text(obj.get("description"));
    Ok(match (project, description) {
        (Some(p), Some(d)) => Some(format!("{p}: {d}")),
        (p, d) => p.or(d),
    })
}

const STEPS: &str = "a steps list";
const STEPS_EXAMPLE: &str =
    r#"{"plan": {"summary": "…", "steps": [{"id": 1, "title": "…", "command": "cargo test"}]}}"#;

const STEP_KEYS: &[&str] = &["id", "title", "description", "command", "status"];

fn steps(doc: &Value, verify: VerifyCheck<'_>, out: &mut Out) -> Result<Option<String>, Refusal> {
    let obj = doc
        .as_object()
        .ok_or_else(|| lacks(STEPS, "steps", doc, STEPS_EXAMPLE))?;
    let plan = match obj.get("plan") {
        Some(Value::Object(plan)) => {
            for (key, value) in obj {
                if key != "plan" && key != "mode" && !empty(value) {
                    out.unmapped.push(format!("{key}: no place in plan.md"));
                }
            }
            plan
        }
        _ => obj,
    };
    for (key, value) in plan {
        if key != "summary" && key != "steps" && !empty(value) {
            out.unmapped
                .push(format!("plan.{key}: no place in plan.md"));
        }
    }
    let steps = plan
        .get("steps")
        .and_then(Value::as_array)
        .ok_or_else(|| lacks(STEPS, "steps", doc, STEPS_EXAMPLE))?;
    for step in steps {
        let Some(s) = step.as_object() else {
            continue;
        };
        out.extra("steps[]", s, STEP_KEYS);
        let fid = foreign_id(s.get("id")).unwrap_or_default();
        let title = text(s.get("title")).unwrap_or_else(|| format!("step {fid}"));
        let key = out.key(&title);
        let mut notes = vec![format!("step {fid} of the plan")];
        notes.extend(note_lines("description", s.get("description")));
        let command = text(s.get("command"));
        let verify = match command {
            Some(command) => match verify(&command) {
                None => Some(command),
                Some((why, _)) => {
                    out.unmapped.push(format!(
                        "{key}: command `{command}` is not a plain argv ({why}); kept in its notes, not as verify"
                    ));
                    notes.push(format!("command: {command}"));
                    None
                }
            },
            None => None,
        };
        out.notes.push(format!(
            "{key}: done_when is the step's title{}: sharpen it (plan edit)",
            if s.contains_key("description") {
                " and description"
            } else {
                ""
            }
        ));
        let done_when = match text(s.get("description")) {
            Some(d) => format!("{title}: {d}"),
            None => title.clone(),
        };
        let status = out.status(&key, s.get("status"), TODO_STATUSES);
        // Steps are ordered: each one waits on the one before.
        let depends_on = out
            .goals
            .last()
            .map(|g| g.key.clone())
            .into_iter()
            .collect();
        out.goals.push(Goal {
            key,
            title,
            status,
            done_when: Some(done_when),
            verify,
            depends_on,
            failure_modes: Vec::new(),
            budget: None,
            subtasks: Vec::new(),
            notes,
        });
    }
    Ok(text(plan.get("summary")))
}

const TODOS: &str = "a todo list";
const TODOS_EXAMPLE: &str = r#"{"todos": [{"content": "…", "status": "pending"}]}"#;

const TODO_KEYS: &[&str] = &["content", "status", "id"];

fn todos(doc: &Value, out: &mut Out) -> Result<Option<String>, Refusal> {
    let obj = doc
        .as_object()
        .ok_or_else(|| lacks(TODOS, "todos", doc, TODOS_EXAMPLE))?;
    let (input, host) = match obj.get("tool_input") {
        Some(Value::Object(input)) => (input, obj.get("tool_name").and_then(Value::as_str)),
        _ => (obj, None),
    };
    let list = input
        .get("todos")
        .and_then(Value::as_array)
        .ok_or_else(|| lacks(TODOS, "todos", doc, TODOS_EXAMPLE))?;
    for todo in list {
        let Some(t) = todo.as_object() else {
            continue;
        };
        out.extra("todos[]", t, TODO_KEYS);
        let Some(title) = text(t.get("content")) else {
            out.unmapped
                .push("todos[]: an item without content".to_string());
            continue;
        };
        let key = out.key(&title);
        let status = out.status(&key, t.get("status"), TODO_STATUSES);
        out.goals.push(Goal {
            key,
            title: title.clone(),
            status,
            done_when: Some(title),
            verify: None,
            depends_on: Vec::new(),
            failure_modes: Vec::new(),
            budget: None,
            subtasks: Vec::new(),
            notes: vec![format!(
                "todo from {}",
                host.unwrap_or("a host's todo list")
            )],
        });
    }
    out.notes.push(
        "a todo has no acceptance criterion: each done_when is the todo's text; sharpen them (plan edit)"
            .to_string(),
    );
    Ok(None)
}

/// The goals as plan.md text: what the proposal shows and `plan review --approve`
/// adds. Each goal carries its proposed id and status; notes are quoted (`> `), so
/// nothing in them reads as a field, subtask or heading.
pub fn render(goals: &[Goal]) -> String {
    let mut out = String::new();
    for (i, goal) in goals.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("## Goal: {}\n", one_line(&goal.title)));
        out.push_str(&format!("<!-- id: {} -->\n", goal.key));
        out.push_str(&format!("status: {}\n", goal.status.as_str()));
        if let Some(d) = &goal.done_when {
            out.push_str(&format!("done_when: {}\n", one_line(d)));
        }
        if let Some(v) = &goal.verify {
            out.push_str(&format!(
                "verify: {}\n",
                crate::plan::text::one_line_command(v)
            ));
        }
        if !goal.depends_on.is_empty() {
            out.push_str(&format!("depends_on: {}\n", goal.depends_on.join(", ")));
        }
        if let Some(budget) = goal.budget {
            out.push_str(&format!("budget: {budget}\n"));
        }
        if !goal.failure_modes.is_empty() {
            out.push_str("failure_modes:\n");
            for mode in &goal.failure_modes {
                out.push_str(&format!("- {}\n", one_line(mode)));
            }
        }
        for (done, task) in &goal.subtasks {
            let mark = if *done { 'x' } else { ' ' };
            out.push_str(&format!("- [{mark}] {}\n", one_line(task)));
        }
        for note in &goal.notes {
            let note = note.replace(['\r', '\n'], " ");
            match note.trim_end() {
                "" => out.push_str(">\n"),
                line => out.push_str(&format!("> {line}\n")),
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn plain(line: &str) -> Option<(String, String)> {
        line.contains('>')
            .then(|| ("redirection".to_string(), String::new()))
    }

    fn import(json: &str, format: Option<Format>) -> Imported {
        read(
            json,
            &Request {
                format,
                tag: None,
                current_tag: None,
                verify: &plain,
            },
        )
        .unwrap()
    }

    /// Each format's statuses map as its tool means them; one plan does not know is
    /// open here, with a note saying so.
    #[test]
    fn statuses_map_per_format_and_an_unknown_one_is_open_with_a_note() {
        let cases = [
            (
                Format::Taskmaster,
                r#"{"tasks": [{"id": 1, "title": "A", "status": "done"}, {"id": 2, "title": "B", "status": "in-progress"}, {"id": 3, "title": "C", "status": "cancelled"}, {"id": 4, "title": "D"}, {"id": 5, "title": "E", "status": "review"}]}"#,
            ),
            (
                Format::Steps,
                r#"{"steps": [{"id": 1, "title": "A", "status": "completed"}, {"id": 2, "title": "B", "status": "in_progress"}, {"id": 3, "title": "C", "status": "pending"}, {"id": 4, "title": "D"}, {"id": 5, "title": "E", "status": "review"}]}"#,
            ),
            (
                Format::Todos,
                r#"{"todos": [{"content": "A", "status": "completed"}, {"content": "B", "status": "in_progress"}, {"content": "C", "status": "pending"}, {"content": "D"}, {"content": "E", "status": "review"}]}"#,
            ),
        ];
        for (format, json) in cases {
            let imported = import(json, Some(format));
            let statuses: Vec<Status> = imported.goals.iter().map(|g| g.status).collect();
            let (second, third) = match format {
                Format::Taskmaster => (Status::Active, Status::Cancelled),
                // A step waits on the one before, which is not signed off here.
                Format::Steps => (Status::Open, Status::Open),
                _ => (Status::Active, Status::Open),
            };
            assert_eq!(
                statuses,
                [Status::Done, second, third, Status::Open, Status::Open],
                "{format:?}"
            );
            let notes: Vec<&String> = imported
                .notes
                .iter()
                .filter(|n| n.contains(": status "))
                .collect();
            assert_eq!(notes, ["e: status review there, open here"], "{format:?}");
        }
    }

    #[test]
    fn the_table_gives_every_format_one_name_and_one_rank_and_names_them_when_it_cannot_tell() {
        use clap::ValueEnum;
        let mut ranks: Vec<u8> = Format::ALL.iter().map(|f| f.rank()).collect();
        ranks.sort();
        assert_eq!(ranks, (0..Format::ALL.len() as u8).collect::<Vec<_>>());
        for format in Format::ALL {
            let clap_name = format.to_possible_value().unwrap().get_name().to_string();
            assert_eq!(clap_name, format.as_str());
        }
        let refused = read(
            "{}",
            &Request {
                format: None,
                tag: None,
                current_tag: None,
                verify: &plain,
            },
        )
        .unwrap_err();
        assert_eq!(
            refused.message,
            "cannot tell what format this is (an empty object): it has none of the keys `schema`, `tasks`, `userStories`, `stories`, `steps`, `todos`"
        );
        assert_eq!(
            refused.hint,
            format!(
                "plan import reads {READS}; if it is one of them, name it: --from plan|taskmaster|prd|steps|todos|markdown|backlog"
            )
        );
    }

    #[test]
    fn detects_each_shape() {
        let cases = [
            (
                r#"{"schema": "plan/1", "goals": [], "log": []}"#,
                Format::Plan,
            ),
            (r#"{"master": {"tasks": []}}"#, Format::Taskmaster),
            (r#"{"tasks": []}"#, Format::Taskmaster),
            (r#"{"userStories": []}"#, Format::Prd),
            (r#"{"mode": "plan", "plan": {"steps": []}}"#, Format::Steps),
            (r#"{"todos": []}"#, Format::Todos),
            (
                r#"{"tool_name": "TodoWrite", "tool_input": {"todos": []}}"#,
                Format::Todos,
            ),
        ];
        for (json, format) in cases {
            assert_eq!(
                detect(&serde_json::from_str(json).unwrap()),
                Some(format),
                "{json}"
            );
        }
        assert_eq!(detect(&serde_json::json!({"name": "x"})), None);
        assert_eq!(detect(&serde_json::json!([1])), None);
    }

    #[test]
    fn taskmaster_tasks_subtasks_and_dependencies() {
        let json = r#"{"master": {"tasks": [
            {"id": 1, "title": "Base", "description": "d", "testStrategy": "tests pass",
             "status": "done", "dependencies": [], "priority": "high",
             "subtasks": [{"id": 1, "title": "one", "status": "done"}, {"id": 2, "title": "two", "status": "pending", "details": "x\ny"}]},
            {"id": 2, "title": "Next", "description": "after base", "status": "in-progress",
             "dependencies": [1, 9]}
        ], "metadata": {"created": "now"}}, "feature": {"tasks": []}}"#;
        let got = import(json, None);
        assert_eq!(got.format, Format::Taskmaster);
        assert_eq!(
            got.objective.as_deref(),
            Some("task-master tags master, feature")
        );
        let base = &got.goals[0];
        assert_eq!((base.key.as_str(), base.status), ("base", Status::Done));
        assert_eq!(base.done_when.as_deref(), Some("tests pass"));
        assert_eq!(
            base.subtasks,
            [(true, "1.1 one".into()), (false, "1.2 two".into())]
        );
        assert!(
            base.notes.contains(&"subtask 1.2 details:".to_string()),
            "{:?}",
            base.notes
        );
        assert_eq!(base.notes[1], "labels: tag:master, priority:high");
        let next = &got.goals[1];
        assert_eq!(next.depends_on, ["base"]);
        assert_eq!(next.done_when.as_deref(), Some("after base"));
        // It waits on a goal imported as done: open here, and said so.
        assert_eq!(next.status, Status::Open);
        assert!(
            got.notes
                .iter()
                .any(|n| n.starts_with("next: in progress there, open here"))
        );
        assert!(
            !got.unmapped.iter().any(|u| u.contains("priority")),
            "{:?}",
            got.unmapped
        );
        assert!(got.unmapped.iter().any(|u| u.contains("depends on task 9")));
        assert!(
            got.unmapped
                .iter()
                .any(|u| u.starts_with("master.metadata"))
        );
    }

    #[test]
    fn a_tag_is_picked_and_an_unknown_one_refused() {
        let json = r#"{"master": {"tasks": [{"id": 1, "title": "M"}]}, "dev": {"tasks": [{"id": 1, "title": "D"}]}}"#;
        let req = |tag| Request {
            format: None,
            tag,
            current_tag: Some("dev"),
            verify: &plain,
        };
        // Without --tag every tag comes in, the current one first.
        let titles: Vec<String> = read(json, &req(None))
            .unwrap()
            .goals
            .into_iter()
            .map(|g| g.title)
            .collect();
        assert_eq!(titles, ["D", "M"]);
        assert_eq!(
            read(json, &req(Some("master"))).unwrap().goals[0].title,
            "M"
        );
        let err = read(json, &req(Some("nope"))).unwrap_err();
        assert!(
            err.message.contains("master, dev") || err.message.contains("dev, master"),
            "{err:?}"
        );
    }

    /// Everything a real tasks.json holds reaches plan.md: subtask dependencies,
    /// every status word, nested subtasks with their path, every tag as a label,
    /// priority as a label. Before, subtask dependencies, statuses other than
    /// done/pending, nested subtasks, all tags but one and every priority were lost.
    #[test]
    fn taskmaster_keeps_subtask_dependencies_statuses_nesting_tags_and_priority() {
        let json = r#"{
          "master": {"tasks": [
            {"id": 1, "title": "Schema", "status": "completed", "priority": "high", "testStrategy": "t",
             "subtasks": [
               {"id": 1, "title": "tables", "status": "done", "dependencies": []},
               {"id": 2, "title": "indexes", "status": "in-progress", "dependencies": [1]},
               {"id": 3, "title": "views", "status": "deferred", "dependencies": ["1.2", 1], "priority": "low"},
               {"id": 4, "title": "grants", "status": "cancelled",
                "subtasks": [{"id": 1, "title": "roles", "status": "review", "dependencies": [2]}]}
             ]},
            {"id": 2, "title": "Api", "status": "deferred", "dependencies": [1], "testStrategy": "t"},
            {"id": 3, "title": "Docs", "status": "review", "testStrategy": "t"},
            {"id": 4, "title": "Old", "status": "cancelled", "testStrategy": "t"}
          ]},
          "feature-x": {"tasks": [
            {"id": 1, "title": "Flag", "status": "pending", "testStrategy": "t"},
            {"id": 2, "title": "Rollout", "status": "blocked", "dependencies": [1], "testStrategy": "t"}
          ]}
        }"#;
        let got = import(json, None);
        let goal = |key: &str| got.goals.iter().find(|g| g.key == key).unwrap();
        let schema = goal("schema");
        assert_eq!(schema.status, Status::Done);
        assert_eq!(
            schema.subtasks,
            [
                (true, "1.1 tables".to_string()),
                (false, "1.2 indexes (in-progress; after 1.1)".to_string()),
                (
                    false,
                    "1.3 views (deferred; after 1.2, 1.1; priority low)".to_string()
                ),
                (false, "1.4 grants (cancelled)".to_string()),
                (false, "1.4.1 roles (review; after 1.4.2)".to_string()),
            ]
        );
        assert_eq!(schema.notes[1], "labels: tag:master, priority:high");
        assert_eq!(goal("api").status, Status::Open);
        assert_eq!(goal("api").depends_on, ["schema"]);
        assert_eq!(goal("api").notes[1], "labels: tag:master, status:deferred");
        assert_eq!(goal("docs").notes[1], "labels: tag:master, status:review");
        assert_eq!(goal("old").status, Status::Cancelled);
        // Both tags, ids read within each tag: Rollout waits on Flag, not Schema.
        assert_eq!(goal("flag").notes[1], "labels: tag:feature-x");
        assert_eq!(goal("rollout").depends_on, ["flag"]);
        assert_eq!(
            goal("rollout").notes[1],
            "labels: tag:feature-x, status:blocked"
        );
        assert_eq!(got.goals.len(), 6);
        assert_eq!(got.unmapped, Vec::<String>::new(), "nothing left unmapped");
        // --tag picks one, and says which were left out.
        let one = read(
            json,
            &Request {
                format: None,
                tag: Some("feature-x"),
                current_tag: None,
                verify: &plain,
            },
        )
        .unwrap();
        assert_eq!(one.goals.len(), 2);
        assert_eq!(one.objective.as_deref(), Some("task-master tag feature-x"));
        assert!(
            one.notes
                .iter()
                .any(|n| n.starts_with("tags master left out: --tag picked feature-x")),
            "{:?}",
            one.notes
        );
    }

    /// ralph's dependsOn, a story's status and its priority are kept; a story
    /// without a title is named from its description, not `story`, `story-2`.
    #[test]
    fn prd_keeps_depends_on_status_and_names_untitled_stories() {
        let json = r#"{"project": "P", "userStories": [
          {"id": "US-001", "title": "Login", "acceptanceCriteria": ["a"], "passes": true, "priority": 1},
          {"id": "US-002", "description": "As a user I can reset my password by email. It expires.", "acceptanceCriteria": ["b"], "passes": false, "dependsOn": ["US-001"], "status": "in_progress"},
          {"id": "US-003", "description": "Audit log", "acceptanceCriteria": ["c"], "passes": false, "dependsOn": ["US-002", "US-009"], "status": "blocked", "completionNotes": "half"}
        ]}"#;
        let got = import(json, Some(Format::Prd));
        let keys: Vec<&str> = got.goals.iter().map(|g| g.key.as_str()).collect();
        assert_eq!(
            keys,
            ["login", "as-a-user-i-can-reset-my-password-by", "audit-log"]
        );
        assert_eq!(
            got.goals[1].title,
            "As a user I can reset my password by email"
        );
        assert_eq!(got.goals[1].depends_on, ["login"]);
        // In progress there; it waits on a story imported as done.
        assert_eq!(got.goals[1].status, Status::Open);
        assert_eq!(got.goals[0].notes[1], "labels: priority:1");
        assert_eq!(got.goals[2].depends_on, [keys[1]]);
        assert_eq!(got.goals[2].notes[1], "labels: status:blocked");
        assert!(
            got.goals[2]
                .notes
                .contains(&"completion notes: half".to_string())
        );
        assert!(
            got.unmapped
                .iter()
                .any(|u| u.contains("depends on story US-009")),
            "{:?}",
            got.unmapped
        );
        assert!(
            !got.unmapped
                .iter()
                .any(|u| u.contains("dependsOn") || u.contains("status") || u.contains("priority")),
            "{:?}",
            got.unmapped
        );
    }

    #[test]
    fn steps_commands_become_verify_only_when_plain() {
        let json = r#"{"mode": "plan", "plan": {"summary": "S", "steps": [
            {"id": "1", "title": "Build", "command": "cargo build"},
            {"id": "2", "title": "Log", "command": "make > log", "status": "completed"}]}}"#;
        let got = import(json, None);
        assert_eq!(got.objective.as_deref(), Some("S"));
        assert_eq!(got.goals[0].verify.as_deref(), Some("cargo build"));
        assert_eq!(got.goals[1].verify, None);
        assert_eq!(got.goals[1].depends_on, ["build"]);
        assert_eq!(got.goals[1].status, Status::Done);
        assert!(
            got.goals[1]
                .notes
                .contains(&"command: make > log".to_string())
        );
        assert!(got.unmapped.iter().any(|u| u.contains("not a plain argv")));
    }

    #[test]
    fn todos_keep_their_status_and_report_active_form() {
        let json = r#"{"todos": [
            {"content": "Run tests", "status": "completed", "activeForm": "Running tests"},
            {"content": "Fix it", "status": "in_progress", "activeForm": "Fixing it"}]}"#;
        let got = import(json, Some(Format::Todos));
        let status: Vec<Status> = got.goals.iter().map(|g| g.status).collect();
        assert_eq!(status, [Status::Done, Status::Active]);
        assert_eq!(got.unmapped, ["todos[].activeForm (2 of 2)"]);
    }

    #[test]
    fn render_quotes_notes_so_they_stay_notes() {
        let goal = Goal {
            key: "a".into(),
            title: "A".into(),
            status: Status::Done,
            done_when: Some("x".into()),
            verify: None,
            depends_on: vec![],
            failure_modes: vec![],
            budget: None,
            subtasks: vec![(true, "s".into())],
            notes: vec!["## Goal: not a goal".into(), "- [ ] not a subtask".into()],
        };
        let text = render(&[goal]);
        let plan = crate::plan::model::parse(&text);
        assert_eq!(plan.goals.len(), 1);
        assert_eq!(plan.goals[0].subtasks.len(), 1);
        assert_eq!(plan.goals[0].status(), Status::Done);
        assert!(
            text.ends_with("> ## Goal: not a goal\n> - [ ] not a subtask\n"),
            "{text}"
        );
    }

    use proptest::prelude::*;

    /// Any JSON, leaning on the keys the mappings look up, so the odd shapes
    /// land where a mapping reads: a list where an object goes, null for a
    /// title, a number for a status, a key left out.
    fn odd_json() -> impl Strategy<Value = Value> {
        let key = prop::sample::select(vec![
            "tasks",
            "subtasks",
            "master",
            "userStories",
            "steps",
            "plan",
            "todos",
            "tool_input",
            "tool_name",
            "schema",
            "goals",
            "id",
            "title",
            "status",
            "dependencies",
            "acceptanceCriteria",
            "passes",
            "description",
            "content",
            "command",
            "summary",
            "notes",
            "details",
            "log",
            "x",
        ])
        .prop_map(str::to_string);
        let leaf = prop_oneof![
            Just(Value::Null),
            any::<bool>().prop_map(Value::from),
            any::<i64>().prop_map(Value::from),
            any::<f64>().prop_map(Value::from),
            prop::sample::select(vec![
                "",
                " ",
                "1",
                "done",
                "pending",
                "in-progress",
                "completed",
                "plan/1",
                "a > b",
                "## Goal: x",
                "\n",
                "-->",
                "\u{202e}",
                "é",
            ])
            .prop_map(Value::from),
            ".{0,12}".prop_map(Value::from),
        ];
        leaf.prop_recursive(4, 48, 6, move |inner| {
            prop_oneof![
                prop::collection::vec(inner.clone(), 0..5).prop_map(Value::Array),
                prop::collection::vec((key.clone(), inner), 0..6)
                    .prop_map(|kv| Value::Object(kv.into_iter().collect())),
            ]
        })
    }

    proptest! {
        /// No file panics an importer, whichever format it is read as: it maps
        /// or it is refused with a message and a hint.
        #[test]
        fn no_json_shape_panics_any_importer(doc in odd_json()) {
            let text = doc.to_string();
            for format in Format::ALL.map(Some).into_iter().chain([None]) {
                for tag in [None, Some("master")] {
                    let req = Request { format, tag, current_tag: None, verify: &plain };
                    match read(&text, &req) {
                        Ok(got) => {
                            prop_assert!(!got.goals.is_empty());
                            render(&got.goals);
                        }
                        Err(r) => prop_assert!(!r.message.is_empty() && !r.hint.is_empty()),
                    }
                }
            }
        }
    }

    #[test]
    fn a_file_of_another_shape_is_refused_naming_the_key_it_lacks() {
        let refusal = |json: &str, format: Format| {
            let req = Request {
                format: Some(format),
                tag: None,
                current_tag: None,
                verify: &plain,
            };
            let r = read(json, &req).unwrap_err();
            format!("{} | {}", r.message, r.hint)
        };
        for (json, format, message) in [
            (
                r#"{"project": {"name": "A"}, "phases": [{"id": "p1", "tasks": []}]}"#,
                Format::Prd,
                "not ralph's prd.json: no `userStories` list in it (an object with keys project, phases)",
            ),
            (
                r#"[{"category": "CLI", "passes": false}]"#,
                Format::Prd,
                "not ralph's prd.json: no `userStories` list in it (a list of 1 item)",
            ),
            (
                r#"{"userStories": {"US-1": {}}}"#,
                Format::Prd,
                "not ralph's prd.json: no `userStories` list in it (an object with keys userStories)",
            ),
            (
                r#"{"a": 1, "b": 2, "c": 3, "d": 4, "e": 5, "f": 6, "g": 7}"#,
                Format::Taskmaster,
                "not task-master's tasks.json: no `tasks` list in it (an object with keys a, b, c, d, e, f, …)",
            ),
            (
                r#"{"master": {"tasks": {"1": {}}}}"#,
                Format::Taskmaster,
                "`master.tasks` is an object with keys 1, not a list of tasks",
            ),
            (
                r#"null"#,
                Format::Steps,
                "not a steps list: no `steps` list in it (null)",
            ),
            (
                r#"{"todos": "x"}"#,
                Format::Todos,
                "not a todo list: no `todos` list in it (an object with keys todos)",
            ),
        ] {
            let got = refusal(json, format);
            assert!(got.starts_with(&format!("{message} | ")), "{json}: {got}");
        }
    }

    #[test]
    fn garbage_is_refused_with_a_hint() {
        let req = Request {
            format: None,
            tag: None,
            current_tag: None,
            verify: &plain,
        };
        assert!(
            read("not json", &req)
                .unwrap_err()
                .message
                .starts_with("not JSON")
        );
        assert!(
            read("{\"x\": 1}", &req)
                .unwrap_err()
                .hint
                .contains("--from")
        );
        assert!(
            read("{\"todos\": []}", &req)
                .unwrap_err()
                .message
                .starts_with("no goals")
        );
    }
}

//! `plan import FILE`: another tool's plan (task-master, ralph, a planner's steps, a
//! host's todo list, or plan's own export) as a proposal that `plan review`
//! approves, like a draft. plan.md changes only on approval. What has no place in
//! plan.md is listed, in the output and in the review.

use std::fs;
use std::path::Path;

use anyhow::Result;

use crate::clock;
use crate::ctx::{Ctx, Env};
use crate::draft::apply;
use crate::draft::proposal::{self, Proposal};
use crate::exit::{CHECK_FAILED, Exit, OK};
use crate::out::println;
use crate::plan::model::{Status, parse};
use crate::plan::text::escape_controls;
use crate::portable::import::{self, Format, Request};
use crate::portable::land::{self, Checked, Landing};

/// Read another tool's plan as goals to review (task-master, ralph, Markdown, …)
///
/// Reads task-master's tasks.json, ralph's prd.json, a planner's steps, a host's
/// todo list, `plan export`, a Markdown plan (checklists, phases, task_plan.md,
/// spec-kit's tasks.md, plan.md itself) or a Backlog.md `backlog/` folder, and
/// keeps the goals for `plan review`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The file to read (JSON or Markdown), or a Backlog.md `backlog/` folder
    pub file: std::path::PathBuf,
    /// Its format; detected from its shape when left out
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub from: Option<Format>,
    /// task-master: import only this tag (without it every tag comes in)
    #[arg(long, value_name = "T")]
    pub tag: Option<String>,
}

/// Why a verify line could not run: plan's verify language, as lint checks it.
fn verify_problem(line: &str) -> Option<(String, String)> {
    crate::verify::parse(line)
        .err()
        .map(|e| (e.message, e.hint))
}

pub fn run(env: &Env, args: Args) -> Result<u8> {
    let ctx = env.ctx()?;
    let repo = ctx.repo()?;
    let name = args.file.display().to_string();
    if args.from == Some(Format::Backlog) || args.file.is_dir() {
        let imported = read_backlog(&args.file, &name, args.from)?;
        return propose(repo, &name, imported, None);
    }
    // Read as plan.md is: a regular file (a pipe waited for ever), capped (a
    // device was read until memory ran out).
    // Read again while it changes under the read: a tool rewriting it gave half.
    let text = crate::fsread::steady_bytes(
        &args.file,
        crate::fsread::PLAN,
        crate::store::pause_for_test,
    )
    .map_err(|e| {
        let hint = match crate::fsread::refused(&e) {
            Some(why @ crate::fsread::Refused::Changing) => why.hint(&name),
            _ => "give the path of a plan file: tasks.json, prd.json, a steps list, a todo list, a plan export or a Markdown plan".to_string(),
        };
        Exit::usage_hint(format!("cannot read {name}: {e}"), hint)
    })?;
    // Named for what it is: UTF-16 was "invalid utf-8 … index 0", and UTF-16
    // without a mark or lone-CR lines "holds no checklist items".
    if let Some((why, hint)) = crate::portable::encoding::unreadable(&text, &name) {
        return Err(Exit::usage_hint(format!("cannot read {name}: {why}"), hint));
    }
    let text = String::from_utf8(text).map_err(|e| {
        Exit::usage_hint(
            format!("cannot read {name}: {e}"),
            "plan reads UTF-8; convert it (e.g. with iconv) and import that",
        )
    })?;
    // A byte order mark (an editor's on Windows) is no part of the first line: left
    // on, it hid a Markdown file's first item and made JSON "not JSON".
    let text = match text.strip_prefix('\u{feff}') {
        Some(rest) => rest.to_string(),
        None => text,
    };
    let current = current_tag(&args.file);
    let request = Request {
        format: args.from,
        tag: args.tag.as_deref(),
        current_tag: current.as_deref(),
        verify: &verify_problem,
    };
    let markdown = match args.from {
        Some(format) => format == Format::Markdown,
        None => crate::portable::markdown::detect(&text),
    };
    // A plan.md in plan's own format (another repository's): read as plan reads it,
    // through its export, so each goal comes with its contract. As Markdown, each
    // goal's heading became its done_when and the contract was dropped.
    if markdown && args.from.is_none() {
        let own = parse(&text);
        // A plan.md in another tool's shape to which `plan add` added goals: its
        // items and phases are read by their shape; the goals plan wrote are the
        // plan's already when the file is plan.md itself. Before, only plan's own
        // goals were read (duplicated), and the items were dropped unsaid.
        if own.goals.iter().any(|g| g.id_line.is_some())
            && let Some(rest) = foreign_rest(&text, &own)
        {
            let mut imported = crate::portable::markdown::read(&rest, &name)
                .map_err(|r| Exit::usage_hint(format!("{name}: {}", r.message), r.hint))?;
            let ours: Vec<String> = own.goals.iter().map(|g| g.id.to_string()).collect();
            imported.notes.push(if is_plan_md(ctx, &args.file) {
                format!(
                    "{name} also holds goals plan wrote ({}): they are in the plan already, and are not imported again",
                    ours.join(", ")
                )
            } else {
                format!(
                    "{name} also holds goals in plan's format ({}): import them on their own with `plan import` of a file holding only them",
                    ours.join(", ")
                )
            });
            return propose(repo, &name, imported, Some(text.clone()));
        }
        if own.goals.iter().any(|g| g.id_line.is_some()) {
            let doc = serde_json::to_string(&crate::portable::export::export(&own))?;
            let request = Request {
                format: Some(Format::Plan),
                ..request
            };
            let mut imported = import::read(&doc, &request)
                .map_err(|r| Exit::usage_hint(format!("{name}: {}", r.message), r.hint))?;
            // The export holds no prose: a goal's own lines that are no field,
            // subtask or failure mode come as its notes, not dropped.
            for (goal, was) in imported.goals.iter_mut().zip(&own.goals) {
                goal.notes.extend(prose(&own, was));
            }
            return propose(repo, &name, imported, None);
        }
    }
    let imported = if markdown {
        crate::portable::markdown::read(&text, &name)
    } else {
        import::read(&text, &request)
    }
    .map_err(|r| Exit::usage_hint(format!("{name}: {}", r.message), r.hint))?;
    let original = (imported.format == Format::Markdown).then(|| text.clone());
    propose(repo, &name, imported, original)
}

/// `text` less the goals plan wrote and its log (each line blanked, so line
/// numbers stay the file's), when what is left holds checklist items or phase
/// headings: another tool's plan that `plan add` added goals to.
fn foreign_rest(text: &str, own: &crate::plan::model::Plan<'_>) -> Option<String> {
    let mut lines: Vec<&str> = text.lines().collect();
    let mut blank = |from: usize, to: usize| {
        for line in lines.iter_mut().take(to).skip(from.saturating_sub(1)) {
            *line = "";
        }
    };
    for goal in &own.goals {
        blank(goal.line, goal.end);
    }
    if let Some(heading) = own.log_heading {
        blank(heading, heading);
    }
    for entry in &own.log {
        blank(entry.line, entry.line);
    }
    let rest = lines.join("\n");
    let found = crate::plan::foreign::count_in(&rest);
    (found.checklist + found.headings > 0).then_some(rest)
}

/// Whether `file` is the plan.md this command works on.
fn is_plan_md(ctx: &Ctx, file: &Path) -> bool {
    match (fs::canonicalize(file), fs::canonicalize(&ctx.store.path)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

/// The lines of `goal` that plan reads as none of its parts: prose, notes, quotes.
fn prose(plan: &crate::plan::model::Plan<'_>, goal: &crate::plan::model::Goal<'_>) -> Vec<String> {
    use crate::plan::scan::Kind;
    let modes: Vec<usize> = goal.failure_modes.iter().map(|m| m.line).collect();
    (goal.line + 1..=goal.last_content)
        .filter(|no| !modes.contains(no))
        .filter(|no| {
            !matches!(
                plan.lines[no - 1].kind,
                Kind::Blank | Kind::IdComment { .. } | Kind::Field { .. } | Kind::Task { .. }
            )
        })
        .map(|no| plan.line_text(no).trim_end().to_string())
        .collect()
}

/// A Backlog.md folder's task files: `DIR` is the `backlog/` folder itself or a
/// folder holding one (`backlog/` or the older `.backlog/`).
fn read_backlog(dir: &Path, name: &str, from: Option<Format>) -> Result<import::Imported> {
    if !dir.is_dir() {
        return Err(Exit::usage_hint(
            format!("{name}: --from backlog reads a folder, and this is not one"),
            "give the `backlog/` folder: plan import backlog/",
        ));
    }
    let root = ["backlog", ".backlog"]
        .iter()
        .map(|b| dir.join(b))
        .find(|b| b.join("tasks").is_dir())
        .unwrap_or_else(|| dir.to_path_buf());
    // The folder may be another's (a cloned repository): a link in it could point at
    // any file of the user's, so nothing is read whose real place is outside it.
    let real_root = fs::canonicalize(&root).map_err(|e| {
        Exit::usage_hint(
            format!("cannot read {}: {e}", root.display()),
            "give the `backlog/` folder: plan import backlog/",
        )
    })?;
    let outside =
        |path: &Path| !fs::canonicalize(path).is_ok_and(|real| real.starts_with(&real_root));
    let refuse_outside = |path: &Path| {
        Exit::usage_hint(
            format!(
                "refusing {}: it is a link to a place outside {}, and plan import reads nothing outside the folder it is given",
                path.display(),
                root.display()
            ),
            "copy the file itself into the folder, or remove the link, and import again",
        )
    };
    let mut files = Vec::new();
    for (folder, place) in crate::portable::backlog::FOLDERS {
        let dir = root.join(folder);
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        if outside(&dir) {
            return Err(refuse_outside(&dir));
        }
        let mut names: Vec<_> = entries
            .filter_map(|e| e.ok())
            .map(|e| e.path())
            .filter(|p| p.is_file() && p.extension().is_some_and(|x| x == "md"))
            .collect();
        names.sort();
        for path in names {
            if outside(&path) {
                return Err(refuse_outside(&path));
            }
            let rel = format!(
                "{folder}/{}",
                path.file_name().unwrap_or_default().to_string_lossy()
            );
            // Capped as plan.md is: a task file is a plan's worth of text at most.
            let text = crate::fsread::text(&path, crate::fsread::PLAN).map_err(|e| {
                Exit::usage_hint(
                    format!("cannot read {}: {e}", path.display()),
                    "a Backlog.md task file is UTF-8 Markdown; fix or move it and import again",
                )
            })?;
            files.push(crate::portable::backlog::File {
                path: rel,
                place: *place,
                text,
            });
        }
    }
    if files.is_empty() && from != Some(Format::Backlog) {
        return Err(Exit::usage_hint(
            format!(
                "{name} is a folder, and not a Backlog.md one: it has no tasks/, completed/ or drafts/ of Markdown files"
            ),
            "give a plan file (tasks.json, prd.json, a Markdown plan) or a `backlog/` folder",
        ));
    }
    let root_name = root.display().to_string();
    crate::portable::backlog::read(&files, &root_name)
        .map_err(|r| Exit::usage_hint(r.message, r.hint))
}

/// Keeps `imported` as the proposal `plan review` shows and approves.
fn propose(
    repo: &crate::git::Repo,
    name: &str,
    imported: import::Imported,
    original: Option<String>,
) -> Result<u8> {
    let draft = import::render(&imported.goals);
    controls(name, &imported.objective, &draft)?;
    let checked = land::check(&draft, &verify_problem);
    let now = proposal::now();
    let objective = imported.objective.clone().unwrap_or_else(|| unstated(name));
    let pending = Proposal {
        import: Some(proposal::Import {
            format: imported.format.as_str().to_string(),
            file: name.to_string(),
            unmapped: imported.unmapped,
            notes: imported.notes,
            original,
        }),
        ..Proposal::new(&objective, &draft, "import", None, false, now)
    };
    if !checked.is_ok() {
        println(&show(&pending, &checked, now, false))?;
        return Err(Exit::diagnostics(
            CHECK_FAILED,
            format!(
                "plan: the import has errors; nothing was kept\n  hint: fix them in {name} and run `plan import {name}` again"
            ),
        ));
    }
    if let Ok(Some(waiting)) = proposal::load(&repo.git_dir) {
        crate::out::warn(&format!(
            "plan: note: this replaces the draft that was waiting for \"{}\"",
            waiting.objective
        ));
    }
    proposal::save(&repo.git_dir, &pending)?;
    println(&show(&pending, &checked, now, true))?;
    Ok(OK)
}

/// Refuses a control character (a JSON file's `\u0000`, `\u001b`, a raw byte in a
/// Markdown file) the goals would carry into plan.md: a NUL makes git treat plan.md
/// as binary (no diff, no merge driver), and the others are no text a person can
/// see or edit. Named by goal, shown escaped.
fn controls(name: &str, objective: &Option<String>, draft: &str) -> Result<()> {
    let has = |l: &str| escape_controls(l) != l;
    let mut found: Vec<String> = Vec::new();
    if let Some(o) = objective.as_deref().filter(|o| has(o)) {
        found.push(format!(
            "its title holds a control character: {}",
            escape_controls(o)
        ));
    }
    let mut goal = "";
    for line in draft.lines() {
        if let Some(title) = line.strip_prefix("## Goal: ") {
            goal = title;
        }
        if has(line) {
            found.push(format!(
                "goal \"{}\" holds a control character: {}",
                escape_controls(goal),
                escape_controls(line)
            ));
        }
    }
    if found.is_empty() {
        return Ok(());
    }
    Err(Exit::usage_hint(
        format!("{name}: {}; nothing was kept", found.join("\n  ")),
        format!(
            "plan.md keeps text only (a NUL byte makes git treat it as binary): remove the control characters from {name} and run `plan import {name}` again"
        ),
    ))
}

/// task-master keeps the current tag in `.taskmaster/state.json`, beside the
/// `tasks/` folder that holds tasks.json.
fn current_tag(file: &Path) -> Option<String> {
    let dir = file.parent()?;
    [dir.join("../state.json"), dir.join("state.json")]
        .iter()
        .find_map(|state| {
            let value: serde_json::Value =
                serde_json::from_str(&fs::read_to_string(state).ok()?).ok()?;
            value.get("currentTag")?.as_str().map(str::to_string)
        })
}

/// The import for a person: where from, the goals, their problems, what did not
/// map, and what to do next.
fn show(pending: &Proposal, checked: &Checked, now: u64, kept: bool) -> String {
    let info = pending.import.as_ref().expect("an import proposal");
    let plan = parse(&pending.draft);
    let count = |s: Status| plan.goals.iter().filter(|g| g.status() == s).count();
    let n = plan.goals.len();
    let noun = if n == 1 { "goal" } else { "goals" };
    let by_status: Vec<String> = Status::ALL
        .iter()
        .filter(|s| count(**s) > 0)
        .map(|s| format!("{} {}", count(*s), s.as_str()))
        .collect();
    let mut out = vec![
        format!(
            "import of {} from {}: {n} {noun} ({}) for \"{}\"{}",
            info.format,
            info.file,
            by_status.join(", "),
            pending.objective,
            match (kept, pending.expired(now)) {
                (false, _) => String::new(),
                (true, true) =>
                    format!(", expired {}", proposal::relative(pending.expires_at, now)),
                (true, false) => format!(
                    ", waiting for review (expires {})",
                    proposal::relative(pending.expires_at, now)
                ),
            }
        ),
        String::new(),
        pending
            .draft
            .trim_end()
            .lines()
            .map(|l| escape_controls(l).into_owned())
            .collect::<Vec<_>>()
            .join("\n"),
        String::new(),
    ];
    let problems = checked.render_problems();
    if !problems.is_empty() {
        out.push(problems.join("\n"));
        out.push(String::new());
    }
    if !info.unmapped.is_empty() {
        out.push("not mapped (no place in plan.md):".to_string());
        out.extend(
            info.unmapped
                .iter()
                .map(|u| format!("  - {}", escape_controls(u))),
        );
        out.push(String::new());
    }
    if !info.notes.is_empty() {
        out.push("how it was mapped:".to_string());
        out.extend(
            info.notes
                .iter()
                .map(|u| format!("  - {}", escape_controls(u))),
        );
        out.push(String::new());
    }
    let done = count(Status::Done);
    if done > 0 {
        out.push(format!(
            "{done} {} in as done: each reads `done (imported from {}, not signed off by plan)`; `plan complete ID` signs one off here",
            if done == 1 { "goal comes" } else { "goals come" },
            info.file
        ));
    }
    if kept && pending.expired(now) {
        out.push(format!(
            "it is too old to approve: `plan import {}` reads it again, `plan review --reject` drops it",
            info.file
        ));
    } else if kept {
        out.push("  plan review --approve        add these goals to plan.md".to_string());
        out.push("  plan review --reject         drop it".to_string());
    }
    out.join("\n").trim_end().to_string()
}

/// `plan review` when the waiting proposal is an import: show it, or approve it.
/// It has no model to redraft it.
pub fn review(ctx: &Ctx, pending: Proposal, approve: bool, edit: bool, json: bool) -> Result<u8> {
    let info = pending.import.clone().expect("an import proposal");
    if edit {
        return Err(Exit::usage_hint(
            format!(
                "the waiting proposal was imported from {}: there is no model to redraft it",
                info.file
            ),
            format!(
                "change {} and run `plan import` again, or approve it and change goals with `plan edit`",
                info.file
            ),
        ));
    }
    let now = proposal::now();
    let checked = land::check(&pending.draft, &verify_problem);
    if !approve {
        if json {
            let view = proposal::View::new(&pending, &checked, now);
            println(&crate::out::json(&view)?)?;
        } else {
            println(&show(&pending, &checked, now, true))?;
        }
        return Ok(OK);
    }
    if pending.expired(now) {
        return Err(Exit::usage_hint(
            format!(
                "the import from {} expired {}; nothing was written",
                info.file,
                proposal::relative(pending.expires_at, now)
            ),
            format!(
                "`plan import {}` reads it again; `plan review --reject` drops it",
                info.file
            ),
        ));
    }
    if !checked.is_ok() {
        return Err(Exit::diagnostics(
            CHECK_FAILED,
            format!(
                "{}\nplan: the import has errors; nothing was written\n  hint: `plan review --reject`, fix {}, and import it again",
                checked.render_problems().join("\n"),
                info.file
            ),
        ));
    }
    let from = format!("{} {}", info.format, info.file);
    let landed = land_it(ctx, &pending, &from)?;
    let repo = ctx.repo()?;
    proposal::remove(&repo.git_dir)?;
    let n = landed.added.len();
    let mut out = vec![format!(
        "added {n} {} to {} from {from}:",
        if n == 1 { "goal" } else { "goals" },
        ctx.store.name
    )];
    let width = landed
        .added
        .iter()
        .map(|a| a.id.chars().count())
        .max()
        .unwrap_or(0);
    for goal in &landed.added {
        let pad = width - goal.id.chars().count();
        let mut what = match goal.status {
            Status::Done => format!("done (imported from {from}, not signed off by plan)"),
            other => other.as_str().to_string(),
        };
        if let Some(proposed) = &goal.proposed {
            what.push_str(&format!(
                "; proposed as {proposed}, which {} already had",
                ctx.store.name
            ));
        }
        out.push(format!("  {}{:pad$}  {what}", goal.id, ""));
    }
    println(&out.join("\n"))?;
    Ok(OK)
}

/// The objective of an import whose source names none.
fn unstated(file: &str) -> String {
    format!("imported from {file}")
}

fn land_it(ctx: &Ctx, pending: &Proposal, from: &str) -> Result<land::Landed> {
    let stamp = clock::now()?.stamp();
    let stated = pending
        .import
        .as_ref()
        .is_none_or(|i| pending.objective != unstated(&i.file));
    apply::write_fresh(ctx, |src| {
        ctx.parse(src)?;
        let commit = ctx.head_commit()?;
        let how = Landing {
            objective: &pending.objective,
            stated,
            from,
            stamp: &stamp,
            commit: commit.as_deref(),
        };
        let landed = land::approve(src, &pending.draft, &how);
        Ok((landed.edits.clone(), landed.text.clone(), landed))
    })
}

//! A drafting model's answer as goals: found in it (fenced or not, prose around them
//! ignored), checked, their `depends_on` names resolved, written back as the
//! canonical draft, and turned into the one set of edits that adds them to plan.md.
//! An import's proposal (`portable::land`) shares its checked text, its staging and
//! its approval log. Pure: the verify parser is passed in, the clock comes as a stamp.

use std::collections::HashMap;

use super::checks;
use super::diag::{Diagnostic, Severity};
use super::event::Event;
use super::id;
use super::model::{Plan, Status, parse};
use super::ops::{self, NewGoal, one_line};
use super::patch::{self, Edit, apply};
use super::rules::Rule;
use super::scan::{Key, Kind, scan};

/// More goals than this is a warning: a plan that size is hard to agree to at once.
const MANY_GOALS: usize = 15;

/// How problems name the draft: its lines are not plan.md's.
pub const NAME: &str = "draft";

/// One goal as the model drafted it: no id, no status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DraftGoal {
    pub title: String,
    /// The `## Goal:` line in the draft text.
    pub line: usize,
    pub done_when: Option<String>,
    pub verify: Option<String>,
    /// As written: titles of drafted goals, or ids of goals already in plan.md.
    pub depends_on: Vec<String>,
    pub depends_line: Option<usize>,
    pub failure_modes: Vec<String>,
    pub subtasks: Vec<String>,
}

/// What a `depends_on` name resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Dep {
    /// Another goal of the draft, by index.
    Drafted(usize),
    /// A goal already in plan.md, by id.
    Existing(String),
}

/// A proposal's text (a draft, an import) and the problems found in it, which
/// name the text as `NAME:LINE:` since its lines are not plan.md's.
#[derive(Clone, Debug)]
pub struct CheckedText {
    /// How problems name the text: [`NAME`], or an import's.
    pub name: &'static str,
    /// Without errors, the canonical text; with errors, the text as it came, which
    /// the problems' line numbers point into.
    pub text: String,
    pub problems: Vec<Diagnostic>,
}

impl CheckedText {
    pub fn errors(&self) -> usize {
        self.problems
            .iter()
            .filter(|d| d.severity == Severity::Error)
            .count()
    }

    pub fn is_ok(&self) -> bool {
        self.errors() == 0
    }

    /// Each problem as `NAME:LINE: message [rule]`, its line, and the hint.
    pub fn render_problems(&self) -> Vec<String> {
        let lines: Vec<&str> = self.text.lines().collect();
        self.problems
            .iter()
            .map(|d| {
                let text = d.line.checked_sub(1).and_then(|i| lines.get(i)).copied();
                d.render_with_rule(self.name, text)
            })
            .collect()
    }
}

/// A draft read and checked against the plan it would join: its text and problems
/// (through `Deref`), and the goals read from it.
#[derive(Clone, Debug)]
pub struct Checked {
    pub checked: CheckedText,
    pub goals: Vec<DraftGoal>,
    /// Per goal, the dependencies its names resolved to.
    pub deps: Vec<Vec<Dep>>,
}

impl std::ops::Deref for Checked {
    type Target = CheckedText;

    fn deref(&self) -> &CheckedText {
        &self.checked
    }
}

/// Why a verify line could not run, as (message, hint); `None` when it can.
pub use super::checks::VerifyCheck;

/// Reads the goals out of a model's answer and checks them against `existing`. A
/// draft without errors comes back in canonical form, checked again as such, so
/// the text shown, stored and approved is the one the problems are about.
pub fn check(answer: &str, existing: &Plan<'_>, verify: VerifyCheck<'_>) -> Checked {
    let first = check_text(extract(answer), existing, verify);
    if !first.is_ok() {
        return first;
    }
    check_text(render(&first.goals, &first.deps), existing, verify)
}

fn check_text(text: String, existing: &Plan<'_>, verify: VerifyCheck<'_>) -> Checked {
    let (goals, mut problems) = read(&text, verify);
    let (deps, unresolved) = resolve(&goals, existing);
    problems.extend(unresolved);
    problems.sort_by_key(|d| d.line);
    Checked {
        checked: CheckedText {
            name: NAME,
            text,
            problems,
        },
        goals,
        deps,
    }
}

/// The part of an answer that holds the goals: the contents of the code fences that
/// have a `## Goal:` in them (a model likes to wrap markdown in ```markdown), else
/// the whole answer. Inside a fence the parser would not see the goals at all.
pub fn extract(answer: &str) -> String {
    let lines = scan(answer);
    let mut blocks: Vec<Vec<&str>> = Vec::new();
    let mut current: Option<Vec<&str>> = None;
    for line in &lines {
        match (&line.kind, current.as_mut()) {
            (Kind::Fence, None) => current = Some(Vec::new()),
            (Kind::Fence, Some(_)) => blocks.extend(current.take()),
            (_, Some(block)) => block.push(line.text(answer)),
            (_, None) => {}
        }
    }
    blocks.extend(current);
    let goal_blocks: Vec<String> = blocks
        .into_iter()
        .filter(|b| b.iter().any(|l| l.trim_start().starts_with("## Goal:")))
        .map(|b| b.join("\n"))
        .collect();
    if goal_blocks.is_empty() {
        answer.to_string()
    } else {
        goal_blocks.join("\n\n") + "\n"
    }
}

/// The goals in `text`, with their format and contract problems. Ids and status
/// lines are plan's to assign, so they are ignored, as is anything outside a goal.
fn read(text: &str, verify: VerifyCheck<'_>) -> (Vec<DraftGoal>, Vec<Diagnostic>) {
    let plan = parse(text);
    let ignored = |no: usize| {
        matches!(
            plan.lines[no - 1].kind,
            Kind::IdComment { .. }
                | Kind::Field {
                    key: Key::Status,
                    ..
                }
        )
    };
    // Heading and depends_on errors are about ids, which a draft does not have yet:
    // titles and dependencies are checked below, by title.
    let mut problems: Vec<Diagnostic> = plan
        .errors
        .iter()
        .filter(|d| {
            plan.goals
                .iter()
                .any(|g| d.line > g.line && d.line <= g.end && Some(d.line) != g.depends_line)
                && !ignored(d.line)
                && d.rule.and_then(Rule::in_draft).is_some()
        })
        .cloned()
        .collect();
    if plan.goals.is_empty() {
        problems.push(
            Diagnostic::error(0, "the draft has no goals")
                .hint(
                    "write each goal as `## Goal: <title>` with its `done_when:`, `failure_modes:` and `- [ ]` subtasks",
                )
                .rule(Rule::EmptyDraft),
        );
    } else if plan.goals.len() > MANY_GOALS {
        problems.push(
            Diagnostic::warning(
                0,
                format!(
                    "{} goals: a plan this size is hard to review",
                    plan.goals.len()
                ),
            )
            .hint("merge small goals, or draft the first part of the objective now")
            .rule(Rule::LargeDraft),
        );
    }
    let mut slugs: HashMap<String, usize> = HashMap::new();
    let mut goals = Vec::with_capacity(plan.goals.len());
    for goal in &plan.goals {
        let title = one_line(goal.title);
        if title.is_empty() {
            problems.push(
                Diagnostic::error(goal.line, "goal without a title")
                    .hint("write the title after `## Goal:`")
                    .rule(Rule::UntitledGoal),
            );
        } else if let Some(first) = slugs.insert(id::slug(&title), goal.line) {
            slugs.insert(id::slug(&title), first);
            problems.push(
                Diagnostic::error(
                    goal.line,
                    format!("two goals are called \"{title}\" (also line {first})"),
                )
                .hint("give each goal its own title: depends_on names drafted goals by title")
                .rule(Rule::DuplicateTitle),
            );
        }
        let mut hits = Vec::new();
        checks::contract(goal, &title, verify, &mut hits);
        problems.extend(
            hits.iter()
                .filter_map(|hit| Some(hit.diagnostic(hit.rule.in_draft()?))),
        );
        goals.push(DraftGoal {
            title,
            line: goal.line,
            done_when: goal.done_when().map(one_line),
            verify: goal.verify().map(super::text::one_line_command),
            depends_on: goal.depends_on.iter().map(|d| one_line(d)).collect(),
            depends_line: goal.depends_line,
            failure_modes: goal
                .failure_modes
                .iter()
                .map(|f| one_line(f.value))
                .filter(|f| !f.is_empty())
                .collect(),
            subtasks: goal.subtasks.iter().map(|s| one_line(s.text)).collect(),
        });
    }
    (goals, problems)
}

/// Each goal's `depends_on` names, resolved: a drafted goal by its exact title, a
/// goal in plan.md by its exact id, then the same by slug. The model names drafted
/// goals by title, since their ids are not known yet.
fn resolve(goals: &[DraftGoal], existing: &Plan<'_>) -> (Vec<Vec<Dep>>, Vec<Diagnostic>) {
    let mut problems = Vec::new();
    let mut all = Vec::with_capacity(goals.len());
    for (i, goal) in goals.iter().enumerate() {
        let at = goal.depends_line.unwrap_or(goal.line);
        let mut deps = Vec::new();
        for name in &goal.depends_on {
            let slug = id::slug(name);
            // Exact names first (a drafted title, then an existing id), slugs after:
            // `api` names the existing goal `api` even when a drafted "API" slugs to it.
            let drafted =
                |pred: &dyn Fn(&DraftGoal) -> bool| goals.iter().position(pred).map(Dep::Drafted);
            let existing_id = |id: &str| existing.goal(id).map(|g| Dep::Existing(g.id.to_string()));
            let found = drafted(&|g| g.title == *name)
                .or_else(|| existing_id(name))
                .or_else(|| drafted(&|g| id::slug(&g.title) == slug))
                .or_else(|| existing_id(&slug));
            match found {
                Some(Dep::Drafted(j)) if j == i => problems.push(
                    Diagnostic::error(at, format!("goal \"{}\" depends on itself", goal.title))
                        .hint("remove it from its own depends_on")
                        .rule(Rule::DependencyCycle),
                ),
                Some(dep) if !deps.contains(&dep) => deps.push(dep),
                Some(_) => {}
                None => problems.push(
                    Diagnostic::error(at, format!("depends_on names no goal: \"{name}\""))
                        .hint(names_hint(goals, existing))
                        .rule(Rule::MissingDependency),
                ),
            }
        }
        all.push(deps);
    }
    problems.extend(cycles(goals, &all));
    (all, problems)
}

fn names_hint(goals: &[DraftGoal], existing: &Plan<'_>) -> String {
    let titles: Vec<String> = goals.iter().map(|g| format!("\"{}\"", g.title)).collect();
    let ids: Vec<&str> = existing.live().map(|g| g.id.as_ref()).collect();
    let mut hint = format!(
        "depends_on takes titles of drafted goals ({})",
        titles.join(", ")
    );
    if !ids.is_empty() {
        hint.push_str(&format!(" or ids of goals in plan.md ({})", ids.join(", ")));
    }
    hint
}

/// Dependency cycles among drafted goals, each reported once, at the goal that
/// closes it. Goals in plan.md cannot take part: none of them depends on a draft.
fn cycles(goals: &[DraftGoal], deps: &[Vec<Dep>]) -> Vec<Diagnostic> {
    let edges = |i: usize| {
        deps[i].iter().filter_map(move |d| match d {
            Dep::Drafted(j) if *j != i => Some(*j),
            _ => None,
        })
    };
    let mut colour = vec![0u8; goals.len()];
    let mut out = Vec::new();
    for root in 0..goals.len() {
        if colour[root] != 0 {
            continue;
        }
        let mut stack: Vec<(usize, Vec<usize>)> = vec![(root, edges(root).collect())];
        colour[root] = 1;
        while let Some((node, next)) = stack.last_mut() {
            let node = *node;
            let Some(target) = next.pop() else {
                colour[node] = 2;
                stack.pop();
                continue;
            };
            match colour[target] {
                0 => {
                    colour[target] = 1;
                    stack.push((target, edges(target).collect()));
                }
                1 => {
                    let from = stack.iter().position(|(g, _)| *g == target).unwrap_or(0);
                    let mut path: Vec<&str> = stack[from..]
                        .iter()
                        .map(|(g, _)| goals[*g].title.as_str())
                        .collect();
                    path.push(&goals[target].title);
                    let goal = &goals[node];
                    out.push(
                        Diagnostic::error(
                            goal.depends_line.unwrap_or(goal.line),
                            format!("dependency cycle: {}", path.join(" → ")),
                        )
                        .hint(super::model::cycle_hint(&path))
                        .rule(Rule::DependencyCycle),
                    );
                }
                _ => {}
            }
        }
    }
    out
}

/// The draft as plan writes it: each goal's contract lines in plan.md's order, its
/// dependencies by title (by the slug of the title when a comma would split it).
pub fn render(goals: &[DraftGoal], deps: &[Vec<Dep>]) -> String {
    let mut out = String::new();
    for (i, goal) in goals.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        out.push_str(&format!("## Goal: {}\n", goal.title));
        if let Some(done_when) = &goal.done_when {
            out.push_str(&format!("done_when: {done_when}\n"));
        }
        if let Some(verify) = &goal.verify {
            out.push_str(&format!("verify: {verify}\n"));
        }
        let names: Vec<String> = deps
            .get(i)
            .into_iter()
            .flatten()
            .map(|d| match d {
                Dep::Drafted(j) if goals[*j].title.contains(',') => id::slug(&goals[*j].title),
                Dep::Drafted(j) => goals[*j].title.clone(),
                Dep::Existing(id) => id.clone(),
            })
            .collect();
        if !names.is_empty() {
            out.push_str(&format!("depends_on: {}\n", names.join(", ")));
        }
        if !goal.failure_modes.is_empty() {
            out.push_str("failure_modes:\n");
            for mode in &goal.failure_modes {
                out.push_str(&format!("- {mode}\n"));
            }
        }
        for task in &goal.subtasks {
            out.push_str(&format!("- [ ] {task}\n"));
        }
    }
    out
}

/// How an approved draft lands.
pub struct Approval<'a> {
    /// One line; becomes `# Plan:` when plan.md has none (or with `replace`).
    pub objective: &'a str,
    /// Cancel the open and active goals and archive everything finished first.
    pub replace: bool,
    /// `YYYY-MM-DD HH:MM` for the log lines.
    pub stamp: &'a str,
    /// The commit the work starts from, for the started events.
    pub commit: Option<&'a str>,
    /// Checks finished goals against their records: only proven ones are archived.
    pub prove: &'a dyn Fn(&mut Plan<'_>),
}

/// A goal the approval added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    pub id: String,
    pub title: String,
    pub status: Status,
    /// The fingerprint logged when it started.
    pub contract: Option<String>,
    /// The ids it waits on, when it stays open.
    pub waits_on: Vec<String>,
}

/// The result of an approval: the new text and the edits that make it from the old.
pub struct Approved {
    pub text: String,
    pub edits: Vec<Edit>,
    pub added: Vec<Added>,
    pub cancelled: Vec<String>,
    pub archived: Vec<String>,
}

/// `edits` made from `text`, applied to it: one stage of an approval's copy.
pub fn stage(text: &str, edits: &[Edit]) -> String {
    apply(text, edits).expect("edits made from this text apply to it")
}

/// The edits that make `staged` (an approval's finished copy) from `src`, and the
/// text they make: the same but, in an odd file, a line ending (see
/// `edits_between`). What gets written is what the edits make.
pub fn settle(src: &str, staged: &str) -> (String, Vec<Edit>) {
    let edits = patch::edits_between(src, staged);
    (stage(src, &edits), edits)
}

/// An approval's log (a draft's, an import's): `draft approved: SUMMARY`, then each
/// goal of `ids` (just added to `plan`) with its `added` event under the contract it
/// has there, followed by what `then(i, fingerprint)` says comes after it.
pub fn approval_log(
    plan: &Plan<'_>,
    stamp: &str,
    summary: &str,
    ids: &[impl AsRef<str>],
    mut then: impl FnMut(usize, &str) -> Option<Edit>,
) -> Vec<Edit> {
    let mut edits = vec![ops::event(stamp, &Event::DraftApproved { summary })];
    for (i, id) in ids.iter().enumerate() {
        let id = id.as_ref();
        let fingerprint = plan.goal(id).expect("the goal just added").fingerprint();
        edits.push(ops::event(
            stamp,
            &Event::Added {
                id,
                contract: &fingerprint,
            },
        ));
        edits.extend(then(i, &fingerprint));
    }
    edits
}

/// Adds a checked draft (`checked.is_ok()`, checked against `parse(src)`) to `src`,
/// in stages on a copy — replace, then insert, then log what started under which
/// contract — so each stage can use the parsed result of the one before; the
/// caller writes [`Approved::edits`] in one store write.
pub fn approve(src: &str, checked: &Checked, how: &Approval<'_>) -> Approved {
    let mut cancelled = Vec::new();
    let mut archived = Vec::new();

    let plan = parse(src);
    let mut edits = Vec::new();
    let title = format!("# Plan: {}", one_line(how.objective));
    match &plan.objective {
        None => edits.push(Edit::insert_after(0, "", vec![title, String::new()])),
        Some(field) if how.replace && field.value != one_line(how.objective) => {
            edits.push(Edit::replace(field.line, plan.line_text(field.line), title));
        }
        Some(_) => {}
    }
    if how.replace {
        for goal in plan.live().filter(|g| !g.status().is_finished()) {
            edits.extend(ops::set_status(&plan, goal, Status::Cancelled));
            edits.push(ops::event(
                how.stamp,
                &Event::Cancelled {
                    id: &goal.id,
                    reason: "replaced by a new draft",
                },
            ));
            cancelled.push(goal.id.to_string());
        }
    }
    let mut text = stage(src, &edits);

    if how.replace {
        let mut plan = parse(&text);
        (how.prove)(&mut plan);
        let (mut edits, moved) = ops::archive(&plan);
        if !moved.is_empty() {
            let noun = if moved.len() == 1 { "goal" } else { "goals" };
            edits.push(ops::log(
                how.stamp,
                &format!("archived {} {noun}: {}", moved.len(), moved.join(", ")),
            ));
            text = stage(&text, &edits);
            archived = moved;
        }
    }

    let plan = parse(&text);
    let mut ids: Vec<String> = Vec::with_capacity(checked.goals.len());
    for goal in &checked.goals {
        let id = id::unique(&id::slug(&goal.title), |c| {
            plan.goal(c).is_some()
                || ids.iter().any(|taken| taken == c)
                || id::reads_like_any(
                    c,
                    plan.goals
                        .iter()
                        .map(|g| g.id.as_ref())
                        .chain(ids.iter().map(String::as_str)),
                )
        });
        ids.push(id);
    }
    let mut added = Vec::with_capacity(ids.len());
    let mut block: Vec<String> = Vec::new();
    for (i, goal) in checked.goals.iter().enumerate() {
        let depends_on: Vec<String> = checked.deps[i]
            .iter()
            .map(|d| match d {
                Dep::Drafted(j) => ids[*j].clone(),
                Dep::Existing(id) => id.clone(),
            })
            .collect();
        let waits_on: Vec<String> = checked.deps[i]
            .iter()
            .filter_map(|d| match d {
                Dep::Drafted(j) => Some(ids[*j].clone()),
                Dep::Existing(id) => {
                    let met = plan.goal(id).is_some_and(|g| g.status().is_finished());
                    (!met).then(|| id.clone())
                }
            })
            .collect();
        let status = if waits_on.is_empty() {
            Status::Active
        } else {
            Status::Open
        };
        if i > 0 {
            block.push(String::new());
        }
        block.extend(
            NewGoal {
                title: goal.title.clone(),
                id: ids[i].clone(),
                status: Some(status),
                done_when: goal.done_when.clone(),
                verify: goal.verify.clone(),
                depends_on,
                failure_modes: goal.failure_modes.clone(),
                subtasks: goal.subtasks.clone(),
            }
            .lines(),
        );
        added.push(Added {
            id: ids[i].clone(),
            title: goal.title.clone(),
            status,
            contract: None,
            waits_on,
        });
    }
    text = stage(&text, &[ops::insert_goal(&plan, block)]);

    let plan = parse(&text);
    let noun = if ids.len() == 1 { "goal" } else { "goals" };
    let summary = format!(
        "{} {noun} ({}) for \"{}\"",
        ids.len(),
        ids.join(", "),
        one_line(how.objective)
    );
    let edits = approval_log(&plan, how.stamp, &summary, &ids, |i, fingerprint| {
        let goal = &mut added[i];
        if goal.status != Status::Active {
            return None;
        }
        goal.contract = Some(fingerprint.to_string());
        Some(ops::event(
            how.stamp,
            &Event::Started {
                id: &goal.id,
                contract: fingerprint,
                commit: how.commit,
                verify: None,
            },
        ))
    });
    text = stage(&text, &edits);

    let (text, edits) = settle(src, &text);
    Approved {
        text,
        edits,
        added,
        cancelled,
        archived,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::lint::lint;

    fn no_verify_problems(_: &str) -> Option<(String, String)> {
        None
    }

    fn shell_refused(line: &str) -> Option<(String, String)> {
        line.contains('>')
            .then(|| ("`>` is not supported".to_string(), "drop it".to_string()))
    }

    fn checked(answer: &str, existing: &str) -> Checked {
        check(answer, &parse(existing), &shell_refused)
    }

    fn messages(c: &Checked) -> Vec<String> {
        c.problems
            .iter()
            .map(|d| format!("{} {:?} {}", d.line, d.severity, d.message))
            .collect()
    }

    const GOOD: &str = "Here is the plan.

```markdown
## Goal: Cache layer
done_when: p95 < 50ms on bench-X
verify: cargo test -p cache
failure_modes:
- cache silently bypassed
- verify passes on a trivial test
- [ ] wire the client
- [ ] eviction

## Goal: Document the cache
depends_on: Cache layer
done_when: README explains eviction
failure_modes:
- README describes another policy
- sizing left out
- [ ] write the section
```

Tell me if you want changes.
";

    #[test]
    fn goals_are_found_in_a_fence_and_come_back_canonical() {
        let c = checked(GOOD, "");
        assert!(c.is_ok(), "{:?}", messages(&c));
        assert_eq!(c.problems, []);
        assert_eq!(c.goals.len(), 2);
        assert_eq!(c.deps, [vec![], vec![Dep::Drafted(0)]]);
        assert!(c.text.starts_with("## Goal: Cache layer\ndone_when: p95"));
        assert!(c.text.contains("depends_on: Cache layer\n"));
        assert!(!c.text.contains("Tell me"));
        let again = checked(&c.text, "");
        assert_eq!(again.text, c.text);
        assert_eq!(again.goals, c.goals);
    }

    #[test]
    fn prose_around_unfenced_goals_is_ignored_and_ids_and_status_too() {
        let answer = "I looked around.\n\n## Goal: A\n<!-- id: custom -->\nstatus: doing\ndone_when: x\nfailure_modes:\n- one\n- two\n- [ ] step\n";
        let c = checked(answer, "");
        assert!(c.is_ok(), "{:?}", messages(&c));
        // A status written otherwise is ignored too: the table holds no status rule in a draft.
        let near = answer.replace("status: doing", "Status: Active");
        let c = checked(&near, "");
        assert!(c.is_ok(), "{:?}", messages(&c));
        assert_eq!(
            c.text,
            "## Goal: A\ndone_when: x\nfailure_modes:\n- one\n- two\n- [ ] step\n"
        );
    }

    #[test]
    fn contract_problems_are_errors_and_advice_is_warnings() {
        let answer = "## Goal: A\nverify: make > log\n- [ ] s\n\n## Goal: B\ndone_when: y\nverify: make\nfailure_modes:\n- slow\n\n## Goal: a\ndone_when: z\nfailure_modes:\n- p\n- q\n- [ ] s\n";
        let c = checked(answer, "");
        assert_eq!(
            messages(&c),
            [
                "1 Error goal \"A\" has no done_when",
                "1 Error goal \"A\" has no failure modes",
                "2 Error the verify of \"A\" cannot run: `>` is not supported",
                "5 Warning goal \"B\" has no subtasks",
                "8 Warning goal \"B\" has one failure mode",
                "8 Warning no failure mode of \"B\" says how verify could pass while the goal is not met",
                "11 Error two goals are called \"a\" (also line 1)",
            ]
        );
        assert_eq!(c.errors(), 4);
        // The same rules as `plan lint`, each with the severity the table gives a draft.
        let rules: Vec<&str> = c.problems.iter().map(|d| d.rule.unwrap().id()).collect();
        assert_eq!(
            rules,
            [
                "no-done-when",
                "no-failure-modes",
                "verify-cannot-run",
                "no-subtasks",
                "few-failure-modes",
                "no-gaming-failure-mode",
                "duplicate-title"
            ]
        );
        for d in &c.problems {
            assert_eq!(Some(d.severity), d.rule.unwrap().in_draft(), "{d:?}");
        }
        assert_eq!(c.text, answer, "a draft with errors is shown as written");
        let rendered = c.render_problems();
        assert_eq!(
            rendered[2],
            "draft:2: the verify of \"A\" cannot run: `>` is not supported [verify-cannot-run]\n    2 | verify: make > log\n  hint: drop it"
        );
    }

    #[test]
    fn no_goals_is_an_error() {
        let c = checked("I could not find anything to do.", "");
        assert_eq!(messages(&c), ["0 Error the draft has no goals"]);
    }

    #[test]
    fn dependencies_resolve_by_title_slug_and_existing_id() {
        let existing = "# Plan: x\n## Goal: Old\n<!-- id: old -->\nstatus: done\n## Goal: Cache layer\n<!-- id: cache-layer -->\nstatus: open\n";
        let goal = |title: &str, deps: &str| {
            format!(
                "## Goal: {title}\ndone_when: d\n{deps}failure_modes:\n- a test passes trivially\n- b\n- [ ] s\n"
            )
        };
        let answer = [
            goal("Cache layer", ""),
            goal("Docs, and more", "depends_on: cache layer, old\n"),
            goal("Bench", "depends_on: Docs, and more\n"),
            goal("Ship", "depends_on: docs-and-more, Bench, nope\n"),
        ]
        .join("\n");
        let c = checked(&answer, existing);
        assert_eq!(
            c.deps,
            [
                vec![],
                vec![Dep::Drafted(0), Dep::Existing("old".into())],
                vec![],
                vec![Dep::Drafted(1), Dep::Drafted(2)],
            ]
        );
        let problems = messages(&c);
        // "Docs, and more" splits at the comma: "Docs" and "and more" name nothing.
        assert!(problems[0].contains("depends_on names no goal: \"Docs\""));
        assert!(problems[1].contains("depends_on names no goal: \"and more\""));
        assert!(problems[2].contains("depends_on names no goal: \"nope\""));
        let hint = c.problems[2].hint.as_deref().unwrap();
        assert!(hint.contains("\"Cache layer\"") && hint.contains("old, cache-layer"));
    }

    #[test]
    fn an_existing_id_named_exactly_wins_over_a_drafted_title_s_slug() {
        let existing = "# Plan: x\n## Goal: Api\n<!-- id: api -->\nstatus: cancelled\n";
        let goal = |title: &str, deps: &str| {
            format!(
                "## Goal: {title}\ndone_when: d\n{deps}failure_modes:\n- a test passes trivially\n- [ ] s\n"
            )
        };
        let answer = [
            goal("API", ""),
            goal("Client", "depends_on: api\n"),
            goal("Docs", "depends_on: API\n"),
        ]
        .join("\n");
        let c = checked(&answer, existing);
        assert_eq!(c.deps[1], [Dep::Existing("api".into())]);
        assert_eq!(c.deps[2], [Dep::Drafted(0)]);
    }

    #[test]
    fn self_dependencies_and_cycles_are_errors() {
        let goal = |title: &str, deps: &str| {
            format!(
                "## Goal: {title}\ndone_when: d\ndepends_on: {deps}\nfailure_modes:\n- a\n- b\n- [ ] s\n"
            )
        };
        let answer = [goal("A", "B"), goal("B", "A"), goal("C", "C")].join("\n");
        let c = checked(&answer, "");
        let problems = messages(&c);
        assert_eq!(
            problems,
            [
                "11 Error dependency cycle: A → B → A",
                "19 Error goal \"C\" depends on itself",
            ]
        );
    }

    #[test]
    fn titles_with_commas_are_named_by_slug_in_the_canonical_text() {
        let answer = "## Goal: Parse, then check\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n\n## Goal: B\ndone_when: d\ndepends_on: parse-then-check\nfailure_modes:\n- a\n- b\n- [ ] s\n";
        let c = checked(answer, "");
        assert!(c.is_ok(), "{:?}", messages(&c));
        assert!(c.text.contains("depends_on: parse-then-check\n"));
    }

    const PLAN: &str = "# Plan: Ship

## Goal: Cache layer
<!-- id: cache-layer -->
status: done
done_when: x

## Goal: Spike
<!-- id: spike -->
status: active
done_when: y
failure_modes:
- z

## Log
- 2026-06-15 14:00 cache-layer signed off (verify passed, judge accept)
";

    fn approved(src: &str, answer: &str, replace: bool) -> Approved {
        let c = check(answer, &parse(src), &no_verify_problems);
        assert!(c.is_ok(), "{:?}", messages(&c));
        let out = approve(
            src,
            &c,
            &Approval {
                objective: "Ship the cache",
                replace,
                stamp: "2026-06-16 09:00",
                commit: None,
                prove: &|p| p.prove_legacy(),
            },
        );
        assert_eq!(apply(src, &out.edits).unwrap(), out.text);
        out
    }

    #[test]
    fn approval_appends_with_fresh_ids_starts_the_ready_ones_and_logs() {
        let answer = GOOD.replace("depends_on: Cache layer", "depends_on: Cache layer, spike");
        let out = approved(PLAN, &answer, false);
        let mut plan = parse(&out.text);
        plan.prove_legacy();
        assert_eq!(plan.errors, []);
        let ids: Vec<&str> = plan.goals.iter().map(|g| g.id.as_ref()).collect();
        assert_eq!(
            ids,
            [
                "cache-layer",
                "spike",
                "cache-layer-2",
                "document-the-cache"
            ]
        );
        let new = plan.goal("cache-layer-2").unwrap();
        assert_eq!(new.status(), Status::Active);
        let docs = plan.goal("document-the-cache").unwrap();
        assert_eq!(docs.status(), Status::Open);
        assert_eq!(docs.depends_on, ["cache-layer-2", "spike"]);
        assert_eq!(
            out.added[1].waits_on,
            ["cache-layer-2".to_string(), "spike".to_string()]
        );
        let log: Vec<&str> = plan.log.iter().map(|e| e.text).collect();
        let fingerprint = new.fingerprint();
        assert_eq!(
            log[1..],
            [
                "draft approved: 2 goals (cache-layer-2, document-the-cache) for \"Ship the cache\""
                    .to_string(),
                format!("cache-layer-2 added (contract {fingerprint})"),
                format!("cache-layer-2 started (contract {fingerprint})"),
                format!(
                    "document-the-cache added (contract {})",
                    docs.fingerprint()
                ),
            ]
        );
        assert_eq!(out.added[0].contract.as_deref(), Some(fingerprint.as_str()));
        assert!(out.text.starts_with("# Plan: Ship\n"), "objective kept");
        assert!(
            out.text.contains("failure_modes:\n- z\n\n## Goal: Cache layer\n<!-- id: cache-layer-2 -->\nstatus: active\n"),
            "{}",
            out.text
        );
        assert!(
            lint(&plan).iter().all(|d| d.severity == Severity::Warning),
            "{:?}",
            lint(&plan)
        );
    }

    #[test]
    fn drafted_ids_are_unique_among_themselves() {
        let answer = "## Goal: A!\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n\n## Goal: A?\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n";
        // Same slug, different titles: a duplicate, refused before any id is given.
        let c = check(answer, &parse(""), &no_verify_problems);
        assert!(!c.is_ok());
        let answer = "## Goal: Spike\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n\n## Goal: Spike 2\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n";
        let out = approved(PLAN, answer, false);
        let ids: Vec<&str> = out.added.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["spike-2", "spike-2-2"]);
    }

    #[test]
    fn a_drafted_look_alike_of_an_id_gets_a_free_one() {
        // `spіke` with a Cyrillic `і`, beside PLAN's `spike`, and a second twin of it.
        let answer = "## Goal: Sp\u{456}ke\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n\n## Goal: Sp\u{456}k\u{435}\ndone_when: d\nfailure_modes:\n- a\n- b\n- [ ] s\n";
        let out = approved(PLAN, answer, false);
        let ids: Vec<&str> = out.added.iter().map(|a| a.id.as_str()).collect();
        assert_eq!(ids, ["sp\u{456}ke-2", "sp\u{456}k\u{435}-3"]);
        assert_eq!(parse(&out.text).errors, []);
    }

    #[test]
    fn replace_cancels_archives_and_renames_the_objective_in_one_go() {
        let out = approved(PLAN, GOOD, true);
        assert_eq!(out.cancelled, ["spike"]);
        assert_eq!(out.archived, ["cache-layer", "spike"]);
        let plan = parse(&out.text);
        assert_eq!(plan.errors, []);
        assert_eq!(plan.objective.as_ref().unwrap().value, "Ship the cache");
        let live: Vec<&str> = plan.live().map(|g| g.id.as_ref()).collect();
        assert_eq!(live, ["cache-layer-2", "document-the-cache"]);
        assert_eq!(plan.goal("spike").unwrap().status(), Status::Cancelled);
        let log: Vec<&str> = plan.log.iter().map(|e| e.text).collect();
        assert_eq!(log[1], "spike cancelled: replaced by a new draft");
        assert_eq!(log[2], "archived 2 goals: cache-layer, spike");
        assert!(log[3].starts_with("draft approved: 2 goals"));
        let before_log = out.text.split("## Log").next().unwrap();
        assert!(
            before_log.starts_with(
                "# Plan: Ship the cache\n\n## Goal: Cache layer\n<!-- id: cache-layer-2 -->"
            ),
            "{}",
            out.text
        );
    }

    #[test]
    fn an_empty_file_gets_objective_goals_and_log() {
        let out = approved("", GOOD, false);
        assert!(
            out.text.starts_with("# Plan: Ship the cache\n\n## Goal: Cache layer\n<!-- id: cache-layer -->\nstatus: active\n"),
            "{}",
            out.text
        );
        assert!(
            out.text
                .contains("- [ ] eviction\n\n## Goal: Document the cache\n")
        );
        assert!(
            out.text
                .contains("\n\n## Log\n- 2026-06-16 09:00 draft approved")
        );
        assert_eq!(parse(&out.text).errors, []);
    }

    #[test]
    fn crlf_files_stay_crlf() {
        let src = PLAN.replace('\n', "\r\n");
        let out = approved(&src, GOOD, false);
        assert!(!out.text.replace("\r\n", "").contains('\n'));
    }
}

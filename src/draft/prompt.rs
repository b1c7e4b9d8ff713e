//! The drafting model's prompt: the templates (embedded, or the repository's
//! overrides) with the objective, the plan so far and any revision filled in. Pure.

use crate::plan::goal_template;
use crate::plan::model::{Plan, Status};
use crate::plan::template::fill;

pub use crate::prompts::{DRAFT_SYSTEM as SYSTEM, DRAFTING, PROBLEMS, REVISION};

/// The texts a drafting run uses, as loaded for one repository.
#[derive(Clone, Debug)]
pub struct Templates {
    pub drafting: String,
    pub revision: String,
    pub problems: String,
    pub system: String,
    /// The goal templates as examples ([`examples`]).
    pub examples: String,
}

impl Default for Templates {
    fn default() -> Self {
        Templates {
            drafting: DRAFTING.to_string(),
            revision: REVISION.to_string(),
            problems: PROBLEMS.to_string(),
            system: SYSTEM.to_string(),
            examples: examples(
                &goal_template::BUILT_IN.map(|(name, text)| (name.to_string(), text.to_string())),
            ),
        }
    }
}

/// How many goal templates the prompt shows: examples, not a catalogue.
const EXAMPLES: usize = 8;

/// The goal templates (name, text), as examples of contracts with good failure
/// modes; one that does not read as a goal is left out.
pub fn examples(templates: &[(String, String)]) -> String {
    templates
        .iter()
        .filter(|(_, text)| goal_template::read(text, "x").is_ok())
        .take(EXAMPLES)
        .map(|(name, text)| {
            format!(
                "A {name} goal:\n\n{}",
                text.replace("{title}", "<title>").trim_end()
            )
        })
        .collect::<Vec<_>>()
        .join("\n\n")
}

/// What a redraft starts from: the last draft and what should change.
pub struct Revision<'a> {
    pub draft: &'a str,
    pub feedback: &'a str,
}

/// The plan so far, as the model needs it to add to it: objective, and each live
/// goal's id, status, title and dependencies.
pub fn existing(plan: &Plan<'_>, replace: bool) -> String {
    if replace {
        return "The goals in plan.md are being replaced by this draft: plan from scratch, and depend on none of them.".to_string();
    }
    let mut out = match &plan.objective {
        Some(objective) => format!("Objective: {}\n", objective.value),
        None => String::new(),
    };
    let goals: Vec<String> = plan
        .live()
        .map(|g| {
            let mut line = format!("- {} ({}): {}", g.id, g.status().as_str(), g.title);
            if !g.depends_on.is_empty() {
                line.push_str(&format!(" [depends on {}]", g.depends_on.join(", ")));
            }
            line
        })
        .collect();
    if goals.is_empty() {
        out.push_str("No goals yet.");
    } else {
        let finished = plan.live().filter(|g| g.status().is_finished()).count();
        out.push_str(&format!(
            "Goals (id, status, title); {} done or cancelled, {} still to do:\n{}",
            finished,
            plan.live()
                .filter(|g| matches!(g.status(), Status::Open | Status::Active))
                .count(),
            goals.join("\n")
        ));
    }
    out
}

pub fn render(
    templates: &Templates,
    objective: &str,
    existing: &str,
    revision: Option<&Revision<'_>>,
) -> String {
    let revision = revision.map_or_else(String::new, |r| {
        fill(&templates.revision, |name| match name {
            "draft" => Some(r.draft.trim_end().to_string()),
            "feedback" => Some(r.feedback.trim().to_string()),
            _ => None,
        })
    });
    fill(&templates.drafting, |name| match name {
        "objective" => Some(objective.to_string()),
        "existing" => Some(existing.trim_end().to_string()),
        "revision" => Some(revision.clone()),
        "examples" => Some(templates.examples.clone()),
        _ => None,
    })
}

/// The feedback that asks a model to fix its draft's problems.
pub fn problems(templates: &Templates, problems: &[String]) -> String {
    fill(&templates.problems, |name| {
        (name == "problems").then(|| problems.join("\n"))
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::plan::model::parse;

    #[test]
    fn the_prompt_has_the_objective_the_plan_and_the_format() {
        let plan = parse(
            "# Plan: Ship\n## Goal: Cache\n<!-- id: cache -->\nstatus: done\n## Goal: Docs\n<!-- id: docs -->\nstatus: open\ndepends_on: cache\n",
        );
        let t = Templates::default();
        let out = render(&t, "Add a CLI", &existing(&plan, false), None);
        for needle in [
            "draft the goals for \"Add a CLI\"",
            "Objective: Ship",
            "- cache (done): Cache",
            "- docs (open): Docs [depends on cache]",
            "1 done or cancelled, 1 still to do",
            "## Goal: <a short title",
            "failure_modes:",
            "No `<!-- id: … -->` comments and no `status:` lines",
            "A bugfix goal:\n\n## Goal: <title>\n",
            "- the test passes without reproducing the bug first",
            "- behaviour changed while the tests still pass",
        ] {
            assert!(out.contains(needle), "missing {needle:?} in\n{out}");
        }
        assert!(!out.contains("{{"), "a placeholder was left:\n{out}");
        assert!(!out.contains("previous draft"));
    }

    #[test]
    fn a_revision_carries_the_draft_and_the_feedback() {
        let t = Templates::default();
        let feedback = problems(&t, &["draft:3: goal \"A\" has no done_when".to_string()]);
        let out = render(
            &t,
            "x",
            &existing(&parse(""), true),
            Some(&Revision {
                draft: "## Goal: A\n",
                feedback: &format!("split it\n\n{feedback}"),
            }),
        );
        assert!(out.contains("plan from scratch"));
        assert!(out.contains("## Your previous draft\n\n## Goal: A\n\n## What to change\n\nsplit it\n\nplan could not use this draft"));
        assert!(out.contains("draft:3: goal \"A\" has no done_when"));
        assert!(!out.contains("{{"));
    }
}

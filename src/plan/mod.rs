//! The pure heart: plan.md text in, values out. Nothing here touches files, git,
//! the clock or processes; callers pass those in.

pub mod bind;
pub mod blocks;
pub(crate) mod bound;
pub(crate) mod budget;
pub(crate) mod card;
pub(crate) mod checks;
pub(crate) mod claim;
pub(crate) mod confusable;
pub(crate) mod diag;
pub(crate) mod diff;
pub mod doctor;
pub(crate) mod draft;
pub(crate) mod event;
pub(crate) mod foreign;
pub(crate) mod gate;
pub(crate) mod goal_template;
pub(crate) mod grown;
pub(crate) mod history;
pub(crate) mod id;
pub(crate) mod lean;
pub mod lint;
pub(crate) mod loop_log;
pub mod merge;
pub mod model;
pub(crate) mod nearest;
pub mod ops;
pub mod own;
pub mod patch;
pub(crate) mod precondition;
pub(crate) mod proof;
pub mod prose;
pub(crate) mod record_body;
pub(crate) mod renamed;
pub mod render;
pub(crate) mod replay;
pub(crate) mod rewind;
pub(crate) mod rules;
pub mod scan;
pub(crate) mod shown;
pub(crate) mod stamps;
pub(crate) mod standing;
pub(crate) mod status;
pub(crate) mod syntax;
pub(crate) mod template;
pub(crate) mod text;
pub(crate) mod unarchive;
pub(crate) mod verdicts;
pub(crate) mod wdiff;
pub(crate) mod weakened;
pub(crate) mod work;

/// Whatever is in plan.md, the pure core answers and never panics: hooks run on
/// every tool call, and a panic there would be plan's own error.
#[cfg(test)]
mod robustness {
    use proptest::prelude::*;

    use super::blocks::{self, Templates};
    use super::render::{self, Style};
    use super::{diff, doctor, lint, model, ops, patch};

    fn text() -> impl Strategy<Value = String> {
        let line = prop_oneof![
            Just("# Plan: é".to_string()),
            Just("## Goal: Ü 🚀".to_string()),
            Just("## Goal:".to_string()),
            Just("<!-- id: a -->".to_string()),
            Just("<!-- id: -->".to_string()),
            Just("status: active".to_string()),
            Just("status: done".to_string()),
            Just("depends_on: a, a, ü".to_string()),
            Just("failure_modes:".to_string()),
            Just("- [ ] x".to_string()),
            Just("- [x]".to_string()),
            Just("## Log".to_string()),
            Just("## Archive".to_string()),
            Just("- 2026-01-01 00:00 a signed off (x)".to_string()),
            Just("- a started (contract zzzzzzzz)".to_string()),
            Just("```".to_string()),
            Just("<!--".to_string()),
            "\\PC{0,16}",
        ];
        prop::collection::vec(
            (line, prop_oneof![Just("\n"), Just("\r\n"), Just("\r")]),
            0..30,
        )
        .prop_map(|lines| lines.into_iter().map(|(l, e)| l + e).collect())
    }

    proptest! {
        /// The fuzz target's invariant (fuzz/fuzz_targets/parse_model.rs): archiving
        /// an error-free plan moves goals and loses none.
        #[test]
        fn archive_loses_no_goal(src in text()) {
            let plan = model::parse(&src);
            // Most drawn plans have format errors, which commands refuse.
            if plan.errors.is_empty() {
                let out = patch::apply(&src, &ops::archive(&plan).0).unwrap();
                prop_assert_eq!(model::parse(&out).goals.len(), plan.goals.len());
            }
        }

        #[test]
        fn nothing_panics(src in text(), other in text()) {
            let plan = model::parse(&src);
            let _ = lint::lint(&plan);
            let _ = render::widget(&plan, true, Style { color: true });
            let _ = render::next(&plan, Style::default());
            let _ = render::plan_view(&plan);
            let t = Templates::default();
            let _ = blocks::injection(&plan, t);
            let _ = blocks::skeleton(&plan, t);
            let _ = blocks::continuation(&plan, 1, 2, t);
            let _ = blocks::statusline(&plan);
            let findings = doctor::check(&plan, &doctor::Proposal::Absent, "p", 0);
            let _ = doctor::merge_damage(&plan, &|_| None, &|_| 1, "s");
            let _ = patch::apply(&src, &doctor::fix_edits(&findings));
            let _ = ops::archive(&plan);
            for goal in &plan.goals {
                let _ = goal.fingerprint();
                let _ = ops::tick(&plan, goal, 1);
                let _ = plan.unmet_dependencies(goal);
            }
            let d = diff::diff(&src, &other);
            let _ = diff::render(&d, &diff::Names { old: "HEAD", new: "plan.md" }, Style::default());
        }
    }
}

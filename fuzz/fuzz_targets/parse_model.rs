//! Fuzz target: any text through the scanner, the model and every pure view; none
//! may panic, and zero edits give the bytes back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::plan::blocks::{self, Templates};
use plan::plan::render::{self, Style};
use plan::plan::{doctor, lint, model, ops, patch};

fuzz_target!(|data: &[u8]| {
    let Ok(src) = std::str::from_utf8(data) else {
        return;
    };
    let plan = model::parse(src);
    assert_eq!(patch::apply(src, &[]).unwrap(), src);
    for line in &plan.lines {
        assert!(line.start <= line.end && line.end <= src.len());
    }
    for goal in &plan.goals {
        assert!(goal.line <= goal.last_content && goal.last_content <= goal.end);
        assert!(goal.end <= plan.lines.len());
        let _ = goal.fingerprint();
        let _ = ops::tick(&plan, goal, 1);
    }
    let _ = lint::lint(&plan);
    let _ = render::widget(&plan, true, Style { color: true });
    let _ = render::next(&plan, Style::default());
    let t = Templates::default();
    for text in [
        blocks::injection(&plan, t),
        blocks::skeleton(&plan, t),
        blocks::continuation(&plan, 1, 2, t).unwrap_or_default(),
    ] {
        // What the model reads never carries terminal control sequences.
        assert!(!text.contains('\x1b'), "{text:?}");
    }
    let findings = doctor::check(&plan, &doctor::Proposal::Absent, "p", 0);
    let _ = patch::apply(src, &doctor::fix_edits(&findings));
    if plan.errors.is_empty() {
        let (edits, _) = ops::archive(&plan);
        let out = patch::apply(src, &edits).expect("edits made from this text apply to it");
        // Archiving moves goals; it never loses a goal.
        assert_eq!(model::parse(&out).goals.len(), plan.goals.len());
    }
});

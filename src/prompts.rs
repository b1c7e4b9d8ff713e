//! Every model-facing text plan embeds (`prompts/*.md`), and in `overrides` the one
//! reader of a repository's replacements for them under `.plan/prompts/`. The
//! embedded texts are plain constants; the pure core's blocks get theirs from here
//! as `Templates::default()` rather than importing this module.

pub mod overrides;

/// The block injected at session start and when plan.md changes. `.plan/prompts/injection.md` overrides it.
pub const INJECTION: &str = include_str!("../prompts/injection.md");
/// The injection when no goal is in progress. `.plan/prompts/injection_idle.md` overrides it.
pub const INJECTION_IDLE: &str = include_str!("../prompts/injection_idle.md");
/// The reminder after file edits. `.plan/prompts/reminder.md` overrides it.
pub const REMINDER: &str = include_str!("../prompts/reminder.md");
/// The reason a stop is blocked while work remains. `.plan/prompts/continuation.md` overrides it.
pub const CONTINUATION: &str = include_str!("../prompts/continuation.md");
/// The plan's skeleton, kept across a compaction. `.plan/prompts/skeleton.md` overrides it.
pub const SKELETON: &str = include_str!("../prompts/skeleton.md");
/// The loop judge's question: is the agent stuck? Never overridden: its answer lets
/// the agent stop, and `.plan/prompts/` is the agent's to write.
pub const LOOP_JUDGE: &str = include_str!("../prompts/loop_judge.md");
/// The sign-off judge's prompt. `.plan/prompts/evidence_judge.md` overrides it.
pub const EVIDENCE_JUDGE: &str = include_str!("../prompts/evidence_judge.md");
/// The sign-off judge's system prompt. `.plan/prompts/judge_system.md` overrides it.
pub const JUDGE_SYSTEM: &str = include_str!("../prompts/judge_system.md");
/// `plan draft`'s request for a first plan. `.plan/prompts/plan_drafting.md` overrides it.
pub const DRAFTING: &str = include_str!("../prompts/plan_drafting.md");
/// `plan draft`'s request to revise a plan. `.plan/prompts/plan_revision.md` overrides it.
pub const REVISION: &str = include_str!("../prompts/plan_revision.md");
/// `plan draft`'s report of what was wrong with a draft. `.plan/prompts/plan_problems.md` overrides it.
pub const PROBLEMS: &str = include_str!("../prompts/plan_problems.md");
/// `plan draft`'s system prompt. `.plan/prompts/draft_system.md` overrides it.
pub const DRAFT_SYSTEM: &str = include_str!("../prompts/draft_system.md");

/// The embedded texts of the blocks the pure core fills (`plan/blocks.rs`). Here,
/// with the prompts, so the core imports nothing outside itself.
impl Default for crate::plan::blocks::Templates<'static> {
    fn default() -> Self {
        crate::plan::blocks::Templates {
            injection: INJECTION,
            injection_idle: INJECTION_IDLE,
            reminder: REMINDER,
            continuation: CONTINUATION,
            skeleton: SKELETON,
        }
    }
}

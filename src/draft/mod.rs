//! Plan mode: a read-only drafting model proposes goals, a person reviews them, and
//! only an approval writes plan.md. The pure part (reading, checking and approving a
//! draft) is `plan::draft`; this is the part that runs models, asks people and keeps
//! the pending proposal.

pub mod apply;
pub mod prompt;
pub mod proposal;
pub mod review;
pub mod run;

//! The pure heart: plan.md text in, values out. Nothing here touches files, git,
//! the clock or processes; callers pass those in.

pub mod diag;
pub mod id;
pub mod model;
pub mod scan;
pub mod patch;
pub mod lint;
pub mod render;

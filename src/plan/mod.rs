//! The pure heart: plan.md text in, values out. Nothing here touches files, git,
//! the clock or processes; callers pass those in.

pub mod blocks;
pub mod diag;
pub mod diff;
pub mod doctor;
pub mod draft;
pub mod id;
pub mod lint;
pub mod model;
pub mod ops;
pub mod patch;
pub mod render;
pub mod scan;
pub mod template;
pub mod wdiff;

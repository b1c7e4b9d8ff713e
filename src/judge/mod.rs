//! The sign-off judge: which backend runs with which argv, and how its answer becomes
//! a verdict. Declarations only.

pub mod backend;
pub mod verdict;

//! The one integration test binary: drives the real `plan` binary in temporary
//! git repositories.

mod core;
mod files;
mod install;
mod readme;
mod util;

//! The environment, read in one place: every read of a variable goes through here
//! (clippy.toml bans `std::env::var` and `var_os` elsewhere), so what plan reads
//! from its environment can be listed by searching for this module's callers.

use std::ffi::OsString;

/// The secret CI's accepts are signed with (`gate/ci_record.rs`): named here, at
/// the bottom, so every program plan starts (`exec.rs`) can be kept from it.
pub const RECORD_KEY: &str = "PLAN_RECORD_KEY";

/// The variable's value as the OS gives it; `None` when unset.
#[expect(clippy::disallowed_methods, reason = "the environment's one reader")]
pub fn os(name: &str) -> Option<OsString> {
    std::env::var_os(name)
}

/// The variable's value as UTF-8; `None` when unset or not UTF-8.
#[expect(clippy::disallowed_methods, reason = "the environment's one reader")]
pub fn text(name: &str) -> Option<String> {
    std::env::var(name).ok()
}

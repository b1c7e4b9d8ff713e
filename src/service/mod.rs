//! The services under the commands: each takes a request and returns a typed
//! result, which a command prints and `plan mcp` returns as fields. The sign-off,
//! the largest, has its own module (`crate::signoff`).

pub mod add;
pub mod inject;
pub mod log;
pub mod show;
pub mod start;
pub mod tick;

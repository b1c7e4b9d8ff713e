//! plan's plans in and out as JSON: `export` writes the whole plan in a versioned
//! envelope whose JSON Schema comes from the same types; `import` reads other tools'
//! plans (and plan's own export) as goals for a proposal. Pure, like `plan/`: text
//! and values in, values out; the commands read and write the files.

pub mod backlog;
pub mod encoding;
pub mod export;
pub mod import;
pub mod land;
pub mod markdown;

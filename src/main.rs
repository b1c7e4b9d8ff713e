//! Entry point: parse arguments, run, map the outcome to an exit code.

mod plan;

fn main() {}

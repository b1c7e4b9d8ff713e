//! Entry point: everything is in the library, so what it does not use is found.

fn main() -> std::process::ExitCode {
    plan::main()
}

//! Fuzz target: the verify mini-language; see `plan::fuzzing::verify_line`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plan::fuzzing::verify_line(text);
    }
});

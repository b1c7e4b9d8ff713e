//! Fuzz target: a hook's stdin as any host sends it (or garbage); see
//! `plan::fuzzing::hook_json`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        plan::fuzzing::hook_json(text);
    }
});

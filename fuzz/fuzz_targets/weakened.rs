//! Fuzz target: a test file changed in any way, in each language; see
//! `plan::fuzzing::weakened`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plan::fuzzing::weakened(data);
});

//! Fuzz target: git's merge driver on any three files (base, ours, theirs split at
//! NUL bytes). The properties it checks are in `plan::fuzzing::merge_driver`: no
//! panic, a clean merge holds no conflict marker or lone CR, a merge left whole
//! keeps both sides, a side against an unchanged other is taken as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    plan::fuzzing::merge_driver(data);
});

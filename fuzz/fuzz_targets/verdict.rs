//! Fuzz target: whatever a judge prints, for every backend, is read into a verdict
//! without a panic, and its notes stay within their bounds.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::judge::backend::Backend;
use plan::judge::verdict;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let (stdout, last) = match text.split_once('\0') {
        Some((a, b)) => (a, Some(b)),
        None => (text, None),
    };
    for backend in Backend::ALL {
        let v = verdict::parse(backend, stdout, last);
        let _ = v.label();
        let _ = v.is_accept();
        let _ = verdict::answer_text(backend, stdout, last);
    }
});

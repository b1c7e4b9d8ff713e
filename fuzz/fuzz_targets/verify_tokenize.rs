//! Fuzz target: the verify mini-language. Never panics; an accepted line is written
//! back as a line that parses to the same commands; a refusal names a column on the
//! line.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::verify;

fuzz_target!(|data: &[u8]| {
    let Ok(line) = std::str::from_utf8(data) else {
        return;
    };
    match verify::parse(line) {
        Ok(parsed) => {
            let again = verify::parse(&parsed.to_string())
                .unwrap_or_else(|e| panic!("{parsed} does not parse again: {e}"));
            assert_eq!(again, parsed);
        }
        Err(e) => assert!(e.column >= 1 && e.column <= line.len() + 1, "{e:?}"),
    }
});

//! Fuzz target: git's merge driver on any three files (base, ours, theirs split at
//! NUL bytes). Nothing may panic; a clean merge holds no conflict marker and no lone
//! CR (git would commit it as resolved); a merge left whole keeps both sides byte
//! for byte; a side against an unchanged other is taken as it is.
#![no_main]

use libfuzzer_sys::fuzz_target;
use plan::plan::merge::merge_files;
use plan::plan::model::parse;

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    needle.is_empty() || hay.windows(needle.len()).any(|w| w == needle)
}

fuzz_target!(|data: &[u8]| {
    let mut parts = data.splitn(3, |b| *b == 0);
    let base = parts.next().unwrap_or_default();
    let ours = parts.next().unwrap_or_default();
    let theirs = parts.next().unwrap_or_default();
    let m = merge_files(base, ours, theirs);
    if m.conflicts.is_empty() {
        let text = std::str::from_utf8(&m.bytes).expect("a clean merge is UTF-8");
        let plan = parse(text);
        for e in &plan.errors {
            let what = &e.message;
            assert!(
                !what.contains("conflict marker")
                    && !what.contains("unresolved merge conflict")
                    && !what.contains("carriage return"),
                "a clean merge that plan refuses: {what}\n{text:?}"
            );
        }
    } else if m.conflicts.len() == 1 && m.conflicts[0].part.starts_with("the whole file") {
        assert!(contains(&m.bytes, ours) && contains(&m.bytes, theirs));
    }
    // One side unchanged: the other as it is, when the merge can take it at all.
    let same = merge_files(base, ours, base);
    if same.conflicts.is_empty() {
        assert_eq!(same.bytes, ours);
    }
});

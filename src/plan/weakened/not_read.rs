//! The `not-read` rule: where a cap stopped the check, it says so (low) rather
//! than pass over what lies past it. The caps: a file's text past [`MAX_TEXT`];
//! the files a verify rests on past the 256 plan follows, the 4 levels of
//! scripts it follows, or a script too long to follow ([`VerifyCap`]); and the
//! tests at the start past the [`GIVEN_TEXT`] read of them all. Pure.

use super::rules::{Part, RuleId};
use super::{Change, Finding, GIVEN_TEXT, Lang, MAX_TEXT, is_test};

/// Where plan stopped following the files a verify rests on
/// (`judge::files`), each cap with the file it stopped at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyCap {
    /// More files than the 256 it follows: the first one left out.
    Files,
    /// Scripts naming scripts deeper than the 4 levels it follows: the first
    /// file past them.
    Depth,
    /// A script longer than the 1 MiB read of one for the files it names.
    Size,
}

/// A low part when a side of `change` is longer than the check reads of it
/// ([`MAX_TEXT`]; git hands one byte more so a cut file tells): what lies past the
/// cap was compared with nothing.
pub(super) fn part(change: &Change) -> Option<Part> {
    const _: () = assert!(MAX_TEXT == 2 << 20, "the words say 2 MiB");
    let long = |text: &Option<String>| text.as_ref().is_some_and(|t| t.len() > MAX_TEXT);
    let sides = match (long(&change.before), long(&change.after)) {
        (true, true) => "at the start and now",
        (true, false) => "at the start",
        (false, true) => "now",
        (false, false) => return None,
    };
    let said = format!("its text past the 2 MiB the check reads was not compared ({sides})");
    Some(Part::new(RuleId::NotRead, said))
}

/// The findings of the caps on lists of files, each on the file a cap stopped
/// at: the tests at the start (`tests_past`), said only where a hack check ran
/// without their literals (new or changed code that is not a test), and the
/// files the verify rests on (`verify_past`). Handed the two, not `Given`, so
/// `hacks` can name [`VerifyCap`] with no circle.
pub(super) fn listed(
    changes: &[Change],
    tests_past: Option<&String>,
    verify_past: Option<&(String, VerifyCap)>,
) -> Vec<Finding> {
    const _: () = assert!(GIVEN_TEXT == 8 << 20, "the words say 8 MiB");
    let code = |c: &Change| {
        Lang::of(&c.path).is_some()
            && c.after
                .as_deref()
                .is_some_and(|a| !is_test(&c.path, Some(a)))
    };
    let tests = tests_past
        .filter(|_| changes.iter().any(code))
        .map(|path| {
            let said = "the tests at the start hold more than the 8 MiB the check reads of them: this one and those after it were not read for the literals a hack gives away";
            (path, said)
        });
    let verify = verify_past.map(|(path, cap)| {
        let said = match cap {
            VerifyCap::Files => "the verify rests on more files than the 256 the check follows: this one and those past it were not compared",
            VerifyCap::Depth => "the verify's scripts name files deeper than the 4 levels the check follows: this one and those past it were not compared",
            VerifyCap::Size => "a script the verify runs is longer than the 1 MiB the check reads of one: the files it names were not followed or compared",
        };
        (path, said)
    });
    tests
        .into_iter()
        .chain(verify)
        .map(|(path, said)| Finding::new(path, vec![Part::new(RuleId::NotRead, said)], None))
        .collect()
}

//! Checks made conditional: an assertion a test ran wherever the test ran, now
//! only inside a new `if` of the test (`if (process.platform === 'win32') {
//! looser } else { it }`): the runs the condition leaves out check it no more,
//! as a skip condition added leaves a test out. Paired by the test and the
//! assertion's own syntax; a check under no more conditions than before is
//! the same check kept (a condition rewritten is the skip and bar rules' to
//! weigh).

use std::collections::HashMap;
use std::sync::Arc;

use crate::plan::syntax::Guard;

/// An assertion of a test, as this rule pairs it.
#[derive(Clone, Debug, Default)]
pub(super) struct Guarded {
    /// The test's name within its scope.
    pub test: String,
    /// The assertion's syntax in normal form, and its words.
    pub normal: String,
    pub text: String,
    /// The conditions it runs under, each in normal form and in words
    /// ([`crate::plan::syntax::Assertion::guards`]).
    pub guards: Vec<Arc<Guard>>,
}

/// The most copies of one check in one test read for each old one.
const SCAN: usize = 64;

/// In words, each check of `old` whose only copies in `new`, in the same test,
/// run under a condition the old one did not.
pub(super) fn newly(old: &[Guarded], new: &[Guarded]) -> Vec<String> {
    let mut now: HashMap<(&str, &str), Vec<&Guarded>> = HashMap::new();
    for g in new {
        now.entry((&g.test, &g.normal)).or_default().push(g);
    }
    let mut out = Vec::new();
    for was in old {
        let Some(copies) = now.get_mut(&(was.test.as_str(), was.normal.as_str())) else {
            continue;
        };
        let under = |c: &Arc<Guard>| was.guards.iter().any(|w| w.key == c.key);
        // As guarded as before, or less, or as deep under conditions rewritten
        // (a failing branch's bar moved is the bars' to read): the same check.
        let kept = |g: &&Guarded| g.guards.len() <= was.guards.len() || g.guards.iter().all(under);
        // A look at the first copies only: a test of thousands of one check, each
        // asked of all the others, was quadratic. Past them a copy may be kept,
        // so none is said.
        if let Some(k) = copies.iter().take(SCAN).position(kept) {
            copies.swap_remove(k);
            continue;
        }
        if copies.is_empty() {
            continue;
        }
        if copies.len() > SCAN {
            copies.swap_remove(0);
            continue;
        }
        let g = copies.swap_remove(0);
        let added: Vec<String> = (g.guards.iter())
            .filter(|c| !under(c))
            .map(|c| format!("`{}`", super::forms::clip(&c.text)))
            .collect();
        out.push(format!(
            "`{}` now runs only when {}",
            super::forms::clip(&was.text),
            added.join(" and ")
        ));
    }
    out
}

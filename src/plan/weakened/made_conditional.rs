//! Checks made conditional: an assertion a test ran wherever the test ran, now
//! only inside a new `if` of the test (`if (process.platform === 'win32') {
//! looser } else { it }`): the runs the condition leaves out check it no more,
//! as a skip condition added leaves a test out; read as the skip rules read a
//! condition ([`super::skip_sense`]). Paired by the test and the
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
    /// Its test's own skip conditions (`skipif(sys.version_info < (3, 8))`),
    /// in normal form: where the test never runs, a guard leaves out nothing.
    pub skips: Vec<String>,
}

impl Guarded {
    /// Where the check is switched off, as a skip condition
    /// [`super::skip_sense`] reads (`if (not (S) && g1 && g2)`); `None` for
    /// nowhere.
    fn off(&self) -> Option<String> {
        let skips = self.skips.iter().map(|s| format!("not ({s})"));
        let guards = self.guards.iter().map(|g| g.normal.clone());
        let runs: Vec<String> = skips.chain(guards).collect();
        (!runs.is_empty()).then(|| format!("if ({})", runs.join(" && ")))
    }
}

/// How code reads the process's environment, in the languages read here.
const ENVIRONMENT: [&str; 4] = ["environ", "process.env", "getenv", "Getenv"];

/// Copies of one check in one test past which the rule says nothing of it.
const MAX_COPIES: usize = 32;

/// In words, each check of `old` whose only copies in `new`, in the same test,
/// run under a condition the old one did not.
pub(super) fn newly(old: &[Guarded], new: &[Guarded]) -> Vec<String> {
    let mut now: HashMap<(&str, &str), Vec<Guarded>> = HashMap::new();
    for g in new {
        now.entry((&g.test, &g.normal)).or_default().push(g.clone());
    }
    // A check written more than this often in one test is left to the
    // counts: pairing its copies one by one would cost their square.
    now.retain(|_, copies| copies.len() <= MAX_COPIES);
    for copies in now.values_mut() {
        merge_sides(copies);
    }
    let mut out = Vec::new();
    for was in old {
        let Some(copies) = now.get_mut(&(was.test.as_str(), was.normal.as_str())) else {
            continue;
        };
        let under = |c: &Arc<Guard>| was.guards.iter().any(|w| w.key == c.key);
        // As guarded as before, or less, or as deep under conditions rewritten
        // (a failing branch's bar moved is the bars' to read): the same check.
        let kept = |g: &Guarded| g.guards.len() <= was.guards.len() || g.guards.iter().all(under);
        if let Some(k) = copies.iter().position(kept) {
            copies.swap_remove(k);
            continue;
        }
        if copies.is_empty() {
            continue;
        }
        let g = copies.swap_remove(0);
        // Only what the skip conditions' reading says leaves out runs that
        // checked before (a platform, a Python version): a guard on a value
        // of the test's own (`if (result)`) rests on what no reading knows,
        // as for a skip; one the test's own skip already implies is none.
        let Some(now) = g.off() else {
            continue;
        };
        // A new condition on the environment (`if os.environ.get("RUN_SLOW"):`)
        // is a switch the runner's machine sets, as a skip marker on one is:
        // no reading of its value is needed to say the check may not run.
        let environment = (g.guards.iter())
            .filter(|c| !was.guards.iter().any(|w| w.key == c.key))
            .any(|c| ENVIRONMENT.iter().any(|e| c.text.contains(e)));
        if !environment && !super::skip_sense::narrows(was.off().as_deref(), &now) {
            continue;
        }
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

/// The same check written in both branches of one `if` (`if old: check else:
/// check`, a line between them that differs) runs on either side: the two
/// copies are one, under the conditions they share. Pairs are merged until
/// none is left; a test holds few copies of one check.
fn merge_sides(copies: &mut Vec<Guarded>) {
    // One the other's `else`: the same condition, one side negated.
    let negated = |a: &Guard, b: &Guard| a.of == b.of && a.negated != b.negated;
    let sides = |a: &Guarded, b: &Guarded| -> Option<usize> {
        if a.guards.len() != b.guards.len() {
            return None;
        }
        let differ: Vec<usize> = (0..a.guards.len())
            .filter(|&k| a.guards[k].key != b.guards[k].key)
            .collect();
        match differ[..] {
            [k] if negated(&a.guards[k], &b.guards[k]) => Some(k),
            _ => None,
        }
    };
    'merged: loop {
        for i in 0..copies.len() {
            for j in i + 1..copies.len() {
                if let Some(k) = sides(&copies[i], &copies[j]) {
                    copies[i].guards.remove(k);
                    copies.swap_remove(j);
                    continue 'merged;
                }
            }
        }
        return;
    }
}

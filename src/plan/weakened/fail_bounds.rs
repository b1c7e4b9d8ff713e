//! A bar a test sets its value moved the way that lets more through: the
//! branch that fails the test when the value passes a number (`if (n > 10)
//! t.fail()`) kept word for word but for that number, raised for a bar from
//! above or lowered for one from below, written in the condition or in the
//! name it reads. A tolerance widened, as an assertion's would be. Pure.

use std::collections::HashMap;

use super::forms::clip;
use super::syntax::Bar;

/// In words, each bar both sides hold in the same test and of the same shape
/// ([`Bar::shape`]) whose numbers each moved the looser way, none the other.
/// A shape held a different number of times on each side pairs nothing: which
/// bar became which is not known.
pub(super) fn loosened(was: &[(String, Bar)], now: &[(String, Bar)]) -> Vec<Loosened> {
    let (old, new) = (by_shape(was), by_shape(now));
    let mut out = Vec::new();
    for (owner, bar) in now {
        let key = (owner.as_str(), bar.shape.as_str());
        let (Some(olds), Some(news)) = (old.get(&key), new.get(&key)) else {
            continue;
        };
        if olds.len() != news.len() {
            continue;
        }
        let Some(k) = news.iter().position(|b| std::ptr::eq(*b, bar)) else {
            continue;
        };
        if let Some(found) = moved(olds[k], bar) {
            out.push(found);
        }
    }
    out
}

/// The bars of each test and shape, in order.
fn by_shape(bars: &[(String, Bar)]) -> HashMap<(&str, &str), Vec<&Bar>> {
    let mut out: HashMap<(&str, &str), Vec<&Bar>> = HashMap::new();
    for (owner, bar) in bars {
        out.entry((owner, &bar.shape)).or_default().push(bar);
    }
    out
}

/// A bar whose bound moved the looser way.
pub(super) struct Loosened {
    /// The condition before and after, as written.
    pub was: String,
    pub now: String,
    /// Where the new bar's `if` starts.
    pub at: usize,
    words: String,
}

impl Loosened {
    pub(super) fn words(&self) -> &str {
        &self.words
    }
}

fn moved(old: &Bar, new: &Bar) -> Option<Loosened> {
    let (a, b) = (old.values()?, new.values()?);
    if a.len() != b.len() || a == b {
        return None;
    }
    let looser = |x: f64, y: f64| if new.upper { y >= x } else { y <= x };
    if !a.iter().zip(&b).all(|(x, y)| looser(*x, *y)) {
        return None;
    }
    let why = match new.upper {
        true => "a bound raised on a branch that fails the test",
        false => "a bound lowered on a branch that fails the test",
    };
    let words = match old.text == new.text {
        // The condition reads a name whose value moved.
        true => format!(
            "`{}` compared with `{}` became `{}` ({why})",
            clip(&new.text),
            clip(&old.bound),
            clip(&new.bound)
        ),
        false => format!("`{}` became `{}` ({why})", clip(&old.text), clip(&new.text)),
    };
    Some(Loosened {
        was: old.text.clone(),
        now: new.text.clone(),
        at: new.at,
        words,
    })
}

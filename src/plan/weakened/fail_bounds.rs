//! A bar a test sets its value moved the way that lets more through: the
//! branch that fails the test when the value passes a number (`if (n > 10)
//! t.fail()`) on the same subject in the same test, its value raised for a bar
//! from above or lowered for one from below, however the bound is spelled
//! (the comparison turned round, `>` made `>=`, literals folded, Go's time
//! units, the infinities) and whether written in the condition or in the name
//! it reads. A tolerance widened, as an assertion's would be. Pure.

use std::collections::{HashMap, HashSet};

use super::forms::clip;
use super::syntax::Bar;

/// In words, the bars of each test, subject, side and unit
/// ([`Bar::subject`]) whose values moved the looser way: each side's values
/// sorted tightest first and paired so, one moved looser and none stricter. A
/// bar added or removed beside others pairs the tightest of each side, the bar
/// that fails first; one reordered pairs equal values. A test's bars of a
/// subject all taken out while `computed(test, subject)` holds, no bar of the
/// test reading it and none as strict on it anywhere (a bar moved to another
/// test), are removed.
pub(super) fn loosened(
    was: &[(String, Bar)],
    now: &[(String, Bar)],
    computed: impl Fn(&str, &str) -> bool,
) -> Vec<Loosened> {
    let (old, new) = (by_subject(was), by_subject(now));
    let mut out: Vec<Loosened> = new
        .iter()
        .filter_map(|(key, news)| {
            let olds = old.get(key)?;
            let looser = |a: &Bar, b: &Bar| match b.upper {
                true => b.value > a.value,
                false => b.value < a.value,
            };
            let pairs = || olds.iter().zip(news.iter());
            if pairs().any(|(a, b)| looser(b, a)) {
                return None;
            }
            let (a, b) = pairs().find(|(a, b)| looser(a, b))?;
            Some(moved(a, b))
        })
        .collect();
    // Each test's subjects now, and the bars new since (a bar another test
    // already had is no bar moved there): asked once per old subject, not a
    // pass over every bar.
    let mut subjects: HashMap<&str, HashSet<&str>> = HashMap::new();
    for (o, b) in now {
        subjects
            .entry(o.as_str())
            .or_default()
            .insert(b.subject.as_str());
    }
    let had: HashSet<(&str, &str, bool, &str, u64)> = (was.iter())
        .map(|(o, b)| {
            (
                o.as_str(),
                b.subject.as_str(),
                b.upper,
                b.unit.as_str(),
                b.value.to_bits(),
            )
        })
        .collect();
    let mut moved_in: HashMap<(&str, bool, &str), Vec<f64>> = HashMap::new();
    for (o, b) in now {
        let key = (
            o.as_str(),
            b.subject.as_str(),
            b.upper,
            b.unit.as_str(),
            b.value.to_bits(),
        );
        if !had.contains(&key) {
            let to = (b.subject.as_str(), b.upper, b.unit.as_str());
            moved_in.entry(to).or_default().push(b.value);
        }
    }
    for ((owner, subject, upper, unit), olds) in &old {
        let tightest = olds[0];
        let near = |b: &&str| {
            !subject.is_empty() && !b.is_empty() && (b.contains(subject) || subject.contains(b))
        };
        // Past the cap only the subject itself is looked for: a crafted test of
        // many subjects may then draw a bar removed, never a pass.
        let mine = subjects.get(owner);
        let still = mine.is_some_and(|set| match set.len() > NEAR_CAP {
            true => set.contains(subject),
            false => set.iter().any(near),
        });
        let elsewhere = (moved_in.get(&(*subject, *upper, *unit))).is_some_and(|values| {
            values.iter().any(|v| match upper {
                true => *v <= tightest.value,
                false => *v >= tightest.value,
            })
        });
        if !still && !elsewhere && computed(owner, subject) {
            out.push(Loosened {
                was: tightest.text.clone(),
                now: String::new(),
                at: None,
                words: format!(
                    "`{}` became no bar while the test still computes `{}` (a branch that failed the test taken out)",
                    clip(&tightest.text),
                    clip(subject)
                ),
            });
        }
    }
    // The same words in the same order on every run.
    out.sort_by(|a, b| (a.at, &a.words).cmp(&(b.at, &b.words)));
    out
}

/// How many subjects of one test are each matched against a removed bar's by
/// containment ([`loosened`]); past it, by equality alone.
const NEAR_CAP: usize = 256;

/// Whether `text` holds `subject` whole: no name character joins it on
/// either side.
pub(super) fn mentions(text: &str, subject: &str) -> bool {
    let name = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    !subject.is_empty()
        && text.match_indices(subject).any(|(k, _)| {
            !name(text[..k].chars().next_back()) && !name(text[k + subject.len()..].chars().next())
        })
}

/// The bars of each test, subject, side and unit, tightest first.
fn by_subject(bars: &[(String, Bar)]) -> HashMap<(&str, &str, bool, &str), Vec<&Bar>> {
    let mut out: HashMap<(&str, &str, bool, &str), Vec<&Bar>> = HashMap::new();
    for (owner, bar) in bars {
        let key = (
            owner.as_str(),
            bar.subject.as_str(),
            bar.upper,
            bar.unit.as_str(),
        );
        out.entry(key).or_default().push(bar);
    }
    for list in out.values_mut() {
        list.sort_by(|a, b| match a.upper {
            true => a.value.total_cmp(&b.value),
            false => b.value.total_cmp(&a.value),
        });
    }
    out
}

/// A bar whose bound moved the looser way.
pub(super) struct Loosened {
    /// The condition before and after, as written.
    pub was: String,
    pub now: String,
    /// Where the new bar's `if` starts; none for a bar removed.
    pub at: Option<usize>,
    words: String,
}

impl Loosened {
    pub(super) fn words(&self) -> &str {
        &self.words
    }
}

fn moved(old: &Bar, new: &Bar) -> Loosened {
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
    Loosened {
        was: old.text.clone(),
        now: new.text.clone(),
        at: Some(new.at),
        words,
    }
}

//! Typos: the known words nearest to one that is not known (goal ids, statuses,
//! settings keys, event names), by edit distance with a swap of two neighbours
//! counted as one edit, and the one "did you mean" every message uses.

use super::status::Status;

/// The candidates nearest to `query`, in their order, when any is close enough to
/// be a slip of the keyboard: at most a third of the query's letters off (at least
/// one, at most three). Empty when none is.
pub fn nearest<'c>(query: &str, candidates: impl IntoIterator<Item = &'c str>) -> Vec<&'c str> {
    let query = query.to_lowercase();
    let limit = (query.chars().count() / 3).clamp(1, 3);
    let scored: Vec<(usize, &str)> = candidates
        .into_iter()
        .map(|c| (strsim::osa_distance(&query, &c.to_lowercase()), c))
        .filter(|&(d, _)| d <= limit)
        .collect();
    let Some(best) = scored.iter().map(|&(d, _)| d).min() else {
        return Vec::new();
    };
    scored
        .into_iter()
        .filter(|&(d, _)| d == best)
        .map(|(_, c)| c)
        .collect()
}

/// The hint for a word that is not known, each candidate written after `prefix`
/// (`judge.`): "did you mean x?", or "did you mean one of x, y?" when several are
/// as near. `None` when none is near.
pub fn did_you_mean<'c>(
    query: &str,
    candidates: impl IntoIterator<Item = &'c str>,
    prefix: &str,
) -> Option<String> {
    match nearest(query, candidates).as_slice() {
        [] => None,
        [one] => Some(format!("did you mean {prefix}{one}?")),
        many => {
            let many: Vec<String> = many.iter().map(|n| format!("{prefix}{n}")).collect();
            Some(format!("did you mean one of {}?", many.join(", ")))
        }
    }
}

/// The one status `word` is a single edit away from (`actve`, `opne`, `Done`).
/// `None` when it is a status, none is that close, or two are.
pub fn status_typo(word: &str) -> Option<Status> {
    let word = word.to_lowercase();
    if Status::parse(&word).is_some() {
        return None;
    }
    let mut near = Status::ALL
        .into_iter()
        .filter(|s| strsim::osa_distance(&word, s.as_str()) == 1);
    let one = near.next()?;
    near.next().is_none().then_some(one)
}

/// Status words other tools and people write, as plan's status. A finished word
/// (`complete`, `completed`, `finished`) is `active`, never `done`: only a sign-off
/// (or an import, which says so) makes a goal done, so `plan complete` is next.
const WORDS: &[(&str, Status)] = &[
    ("open", Status::Open),
    ("todo", Status::Open),
    ("to do", Status::Open),
    ("pending", Status::Open),
    ("not started", Status::Open),
    ("planned", Status::Open),
    ("backlog", Status::Open),
    ("new", Status::Open),
    ("blocked", Status::Open),
    ("on hold", Status::Open),
    ("deferred", Status::Open),
    ("waiting", Status::Open),
    ("active", Status::Active),
    ("in progress", Status::Active),
    ("wip", Status::Active),
    ("started", Status::Active),
    ("ongoing", Status::Active),
    ("review", Status::Active),
    ("in review", Status::Active),
    ("complete", Status::Active),
    ("completed", Status::Active),
    ("finished", Status::Active),
    ("cancelled", Status::Cancelled),
    ("canceled", Status::Cancelled),
    ("dropped", Status::Cancelled),
    ("abandoned", Status::Cancelled),
    ("wontfix", Status::Cancelled),
    ("won't fix", Status::Cancelled),
];

/// A status doctor may write in for `word`: a common status word (`in_progress`,
/// `todo`, `**Complete**`) or a one-edit misspelling; never `done`, which only a
/// sign-off sets.
pub fn repairable_status_typo(word: &str) -> Option<Status> {
    let plain = word
        .trim()
        .trim_matches(['*', '_', '`', '[', ']'])
        .trim()
        .to_lowercase()
        .replace(['_', '-'], " ");
    if let Some((_, status)) = WORDS.iter().find(|(w, _)| *w == plain) {
        return Some(*status);
    }
    status_typo(word).filter(|s| *s != Status::Done)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_ids() {
        let ids = ["cache-layer", "cache-docs", "spike-redis", "hashing"];
        assert_eq!(nearest("cache-layr", ids), ["cache-layer"]);
        assert_eq!(nearest("cahce-layer", ids), ["cache-layer"]);
        assert_eq!(nearest("hashng", ids), ["hashing"]);
        assert_eq!(nearest("nope", ids), Vec::<&str>::new());
        assert_eq!(nearest("cache-dcos", ids), ["cache-docs"]);
        assert_eq!(nearest("x", ["a", "b", "xy"]), ["a", "b", "xy"]);
        let keys = ["backend", "model", "timeout_secs"];
        assert_eq!(
            did_you_mean("modle", keys, "judge.").as_deref(),
            Some("did you mean judge.model?")
        );
        assert_eq!(
            did_you_mean("x", ["a", "b"], "").as_deref(),
            Some("did you mean one of a, b?")
        );
        assert_eq!(did_you_mean("nope", keys, ""), None);
    }

    #[test]
    fn status_typos() {
        assert_eq!(status_typo("actve"), Some(Status::Active));
        assert_eq!(status_typo("opne"), Some(Status::Open));
        assert_eq!(status_typo("cancelld"), Some(Status::Cancelled));
        assert_eq!(status_typo("dnoe"), Some(Status::Done));
        assert_eq!(repairable_status_typo("dnoe"), None);
        assert_eq!(status_typo("doing"), None);
        assert_eq!(status_typo("open"), None);
        assert_eq!(status_typo("none"), Some(Status::Done));
        assert_eq!(repairable_status_typo("none"), None);
    }

    /// The words other tools' plans use map to plan's, and a finished one never
    /// to done: it becomes active, for `plan complete` to sign off.
    #[test]
    fn common_status_words_map_and_never_to_done() {
        for (word, status) in [
            ("complete", Status::Active),
            ("Completed", Status::Active),
            ("in_progress", Status::Active),
            ("in progress", Status::Active),
            ("In-Progress", Status::Active),
            ("**Active**", Status::Active),
            ("wip", Status::Active),
            ("todo", Status::Open),
            ("TODO", Status::Open),
            ("blocked", Status::Open),
            ("not_started", Status::Open),
            ("canceled", Status::Cancelled),
        ] {
            assert_eq!(repairable_status_typo(word), Some(status), "{word}");
        }
        assert_eq!(repairable_status_typo("done"), None);
        assert_eq!(repairable_status_typo("Done"), None);
        assert_eq!(repairable_status_typo("shipped"), None);
    }
}

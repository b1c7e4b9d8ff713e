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

/// A typo's status that doctor may write in: not `done`, which only a sign-off sets.
pub fn repairable_status_typo(word: &str) -> Option<Status> {
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
}

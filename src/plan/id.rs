//! Goal ids: the slug of a title, made unique, and the rules for a hand-written id.

/// Longest slug we derive from a title; long titles make unwieldy ids.
const MAX_SLUG: usize = 40;

/// Lowercase letters and digits (any script) kept; every other run becomes one `-`.
/// Cut at a word boundary within [`MAX_SLUG`] characters; only a first word longer
/// than that is cut inside.
pub fn slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len().min(MAX_SLUG * 4));
    let mut count = 0;
    for word in title.split(|c: char| !c.is_alphanumeric()) {
        if word.is_empty() {
            continue;
        }
        let lower = word.to_lowercase();
        let len = lower.chars().count();
        if count == 0 {
            out.extend(lower.chars().take(MAX_SLUG));
            count = len.min(MAX_SLUG);
            continue;
        }
        if count + 1 + len > MAX_SLUG {
            break;
        }
        out.push('-');
        out.push_str(&lower);
        count += 1 + len;
    }
    if out.is_empty() {
        out.push_str("goal");
    }
    out
}

/// `base`, else `base-2`, `base-3`, … — the first one `taken` says is free.
pub fn unique(base: &str, taken: impl Fn(&str) -> bool) -> String {
    if !taken(base) {
        return base.to_string();
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|candidate| !taken(candidate))
        .expect("an unbounded range always yields a free id")
}

/// Why a hand-written id cannot be used, if it cannot.
pub fn invalid(id: &str) -> Option<&'static str> {
    if id.is_empty() {
        Some("is empty")
    } else if id.chars().any(char::is_whitespace) {
        Some("contains whitespace")
    } else if id.contains(',') {
        Some("contains a comma, which separates ids in depends_on")
    } else if memchr::memmem::find(id.as_bytes(), b"-->").is_some() {
        // memmem: `str::contains` sets up a two-way searcher for every id, and a
        // hook checks one per archived goal of a long plan.
        Some("contains `-->`, which would end its comment")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slugs() {
        assert_eq!(slug("Implement cache layer"), "implement-cache-layer");
        assert_eq!(slug("  --Hello,   World!-- "), "hello-world");
        assert_eq!(slug("Café naïve"), "café-naïve");
        assert_eq!(slug("🚀!!"), "goal");
        assert_eq!(slug("v2.0 API"), "v2-0-api");
        assert_eq!(slug(&"a ".repeat(50)).chars().count(), 39);
        assert_eq!(
            slug("Implement the eviction policy for the distributed cache layer"),
            "implement-the-eviction-policy-for-the"
        );
        assert_eq!(slug(&"x".repeat(50)), "x".repeat(40));
    }

    #[test]
    fn unique_counts_up() {
        let taken = ["cache", "cache-2"];
        assert_eq!(unique("cache", |c| taken.contains(&c)), "cache-3");
        assert_eq!(unique("docs", |c| taken.contains(&c)), "docs");
    }

    #[test]
    fn invalid_ids() {
        assert!(invalid("cache-layer").is_none());
        assert!(invalid("a b").is_some());
        assert!(invalid("a,b").is_some());
        assert!(invalid("").is_some());
    }
}

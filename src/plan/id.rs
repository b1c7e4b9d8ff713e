//! Goal ids: the slug of a title, made unique, and the rules for a hand-written id.

/// Longest slug we derive from a title; long titles make unwieldy ids.
const MAX_SLUG: usize = 40;

/// Lowercase letters and digits (any script) kept; every other run becomes one `-`.
pub fn slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len().min(MAX_SLUG * 4));
    let mut count = 0;
    let mut dash = false;
    for ch in title.chars() {
        if !ch.is_alphanumeric() {
            dash = true;
            continue;
        }
        let lower = ch.to_lowercase();
        let needed = lower.len() + usize::from(dash && count > 0);
        if count + needed > MAX_SLUG {
            break;
        }
        if dash && count > 0 {
            out.push('-');
        }
        out.extend(lower);
        count += needed;
        dash = false;
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
    } else if id.contains("-->") {
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

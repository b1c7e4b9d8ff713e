//! Goal ids: the slug of a title, made unique, and the rules for a hand-written id.

/// Longest slug we derive from a title; long titles make unwieldy ids.
const MAX_SLUG: usize = 40;

/// Lowercase letters and digits (any script) kept; every other run becomes one `-`.
/// Cut at a word boundary within [`MAX_SLUG`] characters; only a first word longer
/// than that is cut inside.
pub fn slug(title: &str) -> String {
    let mut out = String::with_capacity(title.len().min(MAX_SLUG * 4));
    let mut count = 0;
    for word in title.split(|c: char| !c.is_alphanumeric() || invisible(c)) {
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

/// A character that shows as nothing (or reorders what follows): an id holding one
/// reads as another, so `depends_on: tests` could name a look-alike goal.
fn invisible(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{ad}'
                | '\u{34f}'
                | '\u{61c}'
                | '\u{115f}'
                | '\u{1160}'
                | '\u{17b4}'
                | '\u{17b5}'
                | '\u{180b}'..='\u{180f}'
                | '\u{200b}'..='\u{200f}'
                | '\u{202a}'..='\u{202e}'
                | '\u{2060}'..='\u{206f}'
                | '\u{3164}'
                | '\u{fe00}'..='\u{fe0f}'
                | '\u{feff}'
                | '\u{ffa0}'
                | '\u{fff0}'..='\u{fffb}'
                | '\u{e0000}'..='\u{e0fff}'
        )
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
    } else if id.chars().any(invisible) {
        Some(
            "contains an invisible character (zero-width, bidi control, soft hyphen or control), so it could pass for another id",
        )
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_id_that_could_pass_for_another_is_invalid() {
        for twin in [
            "tests\u{200b}",
            "te\u{ad}sts",
            "\u{202e}stset",
            "tests\u{feff}",
            "a\u{7}",
        ] {
            assert!(
                invalid(twin).is_some_and(|why| why.contains("invisible")),
                "{twin:?}"
            );
        }
        assert_eq!(invalid("tests"), None);
        assert_eq!(invalid("缓存-层"), None);
        // A title never gives one.
        assert_eq!(slug("Hangul\u{3164}filler"), "hangul-filler");
    }

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

//! Goal ids: the slug of a title, made unique, and the rules for a hand-written id.

/// Longest slug we derive from a title; long titles make unwieldy ids.
const MAX_SLUG: usize = 40;

/// Longest id a goal may be written with, in characters: an id is repeated in every
/// log line and journal event about its goal, so a huge one (a `budget:` line on a
/// goal with a 10 MB id) would fill the journal with each event.
pub const MAX_ID: usize = 64;

/// Why a goal's id comment cannot be used for its length, if it cannot.
pub fn too_long(id: &str) -> Option<String> {
    // Bytes first: at most 4 a character, so a short id is never counted.
    if id.len() <= MAX_ID {
        return None;
    }
    let n = id.chars().count();
    (n > MAX_ID).then(|| {
        let head: String = id.chars().take(20).collect();
        format!("goal id \"{head}…\" is {n} characters long, over the {MAX_ID} an id may have")
    })
}

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

/// The ids given so far, so each new one is made unique ([`unique`]) and kept from
/// reading like one of them ([`reads_like_any`]) in time that does not grow with
/// their number: an import of 40,000 items checked each new id against every
/// earlier one, 16 s.
#[derive(Debug, Default)]
pub struct Taken {
    ids: std::collections::HashSet<String>,
    /// Each id by its skeleton.
    by_skeleton: std::collections::HashMap<String, Vec<String>>,
    /// Whether one id is not ASCII: until then an ASCII id reads like none.
    mixed: bool,
    /// For a base asked for before, the suffix last given: every one below it was
    /// taken then, and ids are only ever added.
    next: std::collections::HashMap<String, u64>,
}

impl Taken {
    /// Whether `id` is given already, or reads like one that is.
    pub fn has(&self, id: &str) -> bool {
        self.ids.contains(id) || self.reads_like_one(id)
    }

    /// Whether `id` itself is given already.
    pub fn contains(&self, id: &str) -> bool {
        self.ids.contains(id)
    }

    fn reads_like_one(&self, id: &str) -> bool {
        if !self.mixed && id.is_ascii() {
            return false;
        }
        let Some(alike) = self.by_skeleton.get(&skeleton(id)) else {
            return false;
        };
        alike
            .iter()
            .any(|other| other != id && !(other.is_ascii() && id.is_ascii()))
    }

    /// Records `id` as given.
    pub fn insert(&mut self, id: &str) {
        if !self.ids.insert(id.to_string()) {
            return;
        }
        self.mixed |= !id.is_ascii();
        self.by_skeleton
            .entry(skeleton(id))
            .or_default()
            .push(id.to_string());
    }

    /// The id [`unique`] would give `base` against these ids and whatever else
    /// `also` says is taken (ids given elsewhere, the same or more each call),
    /// without recording it.
    pub fn free(&mut self, base: &str, also: impl Fn(&str) -> bool) -> String {
        let taken = |c: &str| self.has(c) || also(c);
        let start = self.next.get(base).copied().unwrap_or(1);
        if start == 1 && !taken(base) {
            return base.to_string();
        }
        let found = (start.max(2)..)
            .find(|n| !taken(&format!("{base}-{n}")))
            .expect("an unbounded range always yields a free id");
        self.next.insert(base.to_string(), found);
        format!("{base}-{found}")
    }
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
    // Nearly every id is ASCII letters, digits and `-_.`, none of which any rule
    // below refuses: a hook checks one per goal of a long plan, so one byte pass
    // answers those before the rules look at characters.
    if !id.is_empty()
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'))
    {
        return None;
    }
    rules(id)
}

/// [`invalid`] by its rules alone, character by character.
fn rules(id: &str) -> Option<&'static str> {
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

/// The UTS #39 skeleton of `id`: two ids with one skeleton read alike. An ASCII id,
/// most of a plan's once one id is not, is mapped a byte at a time.
pub fn skeleton(id: &str) -> String {
    let table = ascii_prototypes();
    if id
        .bytes()
        .all(|b| table.get(usize::from(b)).is_some_and(Option::is_some))
    {
        return id.bytes().filter_map(|b| table[usize::from(b)]).collect();
    }
    unicode_security::skeleton(id).collect()
}

/// Each ASCII character's skeleton where it is ASCII too (all but `%`, whose
/// skeleton is `°/₀`): normalization leaves such pieces joined as they are, so an
/// id made of them has their concatenation for skeleton.
fn ascii_prototypes() -> &'static [Option<&'static str>; 128] {
    static TABLE: std::sync::OnceLock<[Option<&'static str>; 128]> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut table = [None; 128];
        for (b, slot) in (0u8..128).zip(table.iter_mut()) {
            let one: String = unicode_security::skeleton(&char::from(b).to_string()).collect();
            if one.is_ascii() {
                *slot = Some(&*Box::leak(one.into_boxed_str()));
            }
        }
        table
    })
}

/// Whether `a` and `b` are two ids that read alike, one holding a letter that is
/// not ASCII (`tеsts` with a Cyrillic `е` for `tests`). Pairs of ASCII ids do not
/// count: the skeletons fold `rn` into `m`, `1` and `I` into `l`, `0` into `O`,
/// which the monospace fonts plan.md is reviewed in tell apart, and which the word
/// diff marks as a change a reader can see; a letter from another script is the
/// same glyph in those fonts.
#[cfg(test)]
pub fn reads_like(a: &str, b: &str) -> bool {
    a != b && !(a.is_ascii() && b.is_ascii()) && skeleton(a) == skeleton(b)
}

/// Whether `id` reads like one of `ids` ([`reads_like`]): a new goal must not take
/// it, as it must not take one of them.
pub fn reads_like_any<'i>(id: &str, ids: impl IntoIterator<Item = &'i str>) -> bool {
    let mut own: Option<String> = None;
    ids.into_iter().any(|other| {
        other != id
            && !(other.is_ascii() && id.is_ascii())
            && *own.get_or_insert_with(|| skeleton(id)) == skeleton(other)
    })
}

/// Pairs of indexes into `ids` that read alike (see [`reads_like`]), each pair in
/// the order of `ids`, each later id paired with the first it reads like. Equal
/// ids are not paired: that is a duplicate. Cheap when every id is ASCII.
pub fn look_alikes(ids: &[&str]) -> Vec<(usize, usize)> {
    if ids.iter().all(|id| id.is_ascii()) {
        return Vec::new();
    }
    let mut by_skeleton: std::collections::HashMap<String, Vec<usize>> =
        std::collections::HashMap::new();
    let mut out = Vec::new();
    for (i, id) in ids.iter().enumerate() {
        let earlier = by_skeleton.entry(skeleton(id)).or_default();
        if let Some(&first) = earlier
            .iter()
            .find(|&&j| ids[j] != *id && !(ids[j].is_ascii() && id.is_ascii()))
        {
            out.push((first, i));
        }
        earlier.push(i);
    }
    out
}

/// The letters of `id` that are not ASCII, as `е U+0435`: what tells a look-alike
/// apart when the eye cannot.
pub fn foreign_letters(id: &str) -> String {
    let mut seen = Vec::new();
    for c in id.chars().filter(|c| !c.is_ascii()) {
        if !seen.contains(&c) {
            seen.push(c);
        }
    }
    seen.iter()
        .map(|c| format!("{c} U+{:04X}", u32::from(*c)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether `id` mixes Latin letters with Cyrillic or Greek ones, or holds letters
/// outside the scripts recommended for identifiers (UTS #39: below the moderately
/// restrictive level): the stuff of a look-alike, even before its twin exists. An
/// id in one script (a Chinese or Greek title's slug), or Latin with Han, Kana or
/// Hangul as CJK writing mixes them, is not.
pub fn mixes_scripts(id: &str) -> bool {
    use unicode_security::{MixedScript, RestrictionLevel, RestrictionLevelDetection};
    if id.is_ascii() {
        return false;
    }
    let letters: String = id.chars().filter(|c| c.is_alphanumeric()).collect();
    !letters.as_str().is_single_script()
        && letters.as_str().detect_restriction_level() >= RestrictionLevel::MinimallyRestrictive
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Ids given one at a time by the first way (a scan of every earlier id).
    fn given_by_scan(titles: &[&str]) -> Vec<String> {
        let mut ids: Vec<String> = Vec::new();
        for t in titles {
            let id = unique(&slug(t), |c| {
                ids.iter().any(|i| i == c) || reads_like_any(c, ids.iter().map(String::as_str))
            });
            ids.push(id);
        }
        ids
    }

    fn given_by_taken(titles: &[&str]) -> Vec<String> {
        let mut taken = Taken::default();
        titles
            .iter()
            .map(|t| {
                let id = taken.free(&slug(t), |_| false);
                taken.insert(&id);
                id
            })
            .collect()
    }

    #[test]
    fn taken_gives_the_ids_a_scan_of_every_earlier_one_gives() {
        let titles = [
            "Ship it",
            "Ship it",
            "ship-it-2",
            "Ship it",
            "Тests",
            "Tests",
            "tests",
            "Тests",
            "ship it 3",
            "Ship it",
            "Ⅰ",
            "I",
            "l",
            "goal",
            "",
            "",
        ];
        assert_eq!(given_by_taken(&titles), given_by_scan(&titles));
    }

    proptest! {
        /// The same on titles drawn from look-alike letters and repeats.
        #[test]
        fn taken_agrees_with_the_scan(titles in proptest::collection::vec("[aаeеoо1lI -]{0,4}", 0..24)) {
            let titles: Vec<&str> = titles.iter().map(String::as_str).collect();
            prop_assert_eq!(given_by_taken(&titles), given_by_scan(&titles));
        }
    }

    proptest! {
        /// The byte pass for plain ASCII ids answers as the rules do, on ids made
        /// of the characters it passes mixed with whitespace, commas, `-->`, controls
        /// and invisible ones.
        #[test]
        fn the_ascii_fast_path_answers_as_the_rules(
            id in "([a-zA-Z0-9._-]|[ \t\u{0b}\r,>%]|-->|\u{200b}|\u{ad}|\u{7f}|\u{0}|é){0,12}"
        ) {
            prop_assert_eq!(invalid(&id), rules(&id));
        }
    }

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
    fn an_id_over_64_characters_is_too_long() {
        assert!(too_long(&"a".repeat(64)).is_none());
        assert!(too_long(&"é".repeat(64)).is_none());
        let why = too_long(&"a".repeat(65)).unwrap();
        assert_eq!(
            why,
            "goal id \"aaaaaaaaaaaaaaaaaaaa…\" is 65 characters long, over the 64 an id may have"
        );
    }

    #[test]
    fn invalid_ids() {
        assert!(invalid("cache-layer").is_none());
        assert!(invalid("a b").is_some());
        assert!(invalid("a,b").is_some());
        assert!(invalid("").is_some());
    }

    #[test]
    fn ids_in_another_script_that_read_alike_are_look_alikes() {
        assert!(reads_like("tests", "t\u{435}sts"));
        assert!(reads_like("scope", "\u{455}\u{441}\u{43e}\u{440}\u{435}"));
        assert!(reads_like("op", "\u{3bf}\u{3c1}"));
        // Composed and decomposed accents are one id to the eye.
        assert!(reads_like("caf\u{e9}", "cafe\u{301}"));
        assert!(!reads_like("tests", "tests"));
        assert!(!reads_like("tests", "test"));
        assert!(!reads_like("缓存", "缓存-层"));
        // ASCII pairs do not count (see reads_like), though their skeletons agree.
        assert_eq!(skeleton("modern"), skeleton("modem"));
        assert_eq!(skeleton("dep1oy"), skeleton("deploy"));
        assert!(!reads_like("modern", "modem"));
        assert!(!reads_like("dep1oy", "deploy"));
        assert_eq!(
            look_alikes(&["tests", "deploy", "t\u{435}sts", "t\u{435}st\u{455}"]),
            [(0, 2), (0, 3)]
        );
        assert!(look_alikes(&["tests", "dep1oy", "deploy", "tests"]).is_empty());
        assert!(reads_like_any("t\u{435}sts", ["deploy", "tests"]));
        assert!(!reads_like_any("dep1oy", ["deploy", "tests"]));
        assert!(!reads_like_any("t\u{435}sts-2", ["deploy", "tests"]));
        assert_eq!(foreign_letters("t\u{435}s\u{435}"), "\u{435} U+0435");
    }

    #[test]
    fn an_ascii_skeleton_is_the_one_the_standard_gives() {
        assert_eq!(ascii_prototypes().iter().filter(|p| p.is_none()).count(), 1);
        let ascii: Vec<char> = (0u8..128).map(char::from).collect();
        for a in &ascii {
            for b in &ascii {
                let id = format!("x{a}{b}m");
                let standard: String = unicode_security::skeleton(&id).collect();
                assert_eq!(skeleton(&id), standard, "{id:?}");
            }
        }
    }

    #[test]
    fn an_id_mixing_latin_with_a_look_alike_script_is_flagged() {
        assert!(mixes_scripts("t\u{435}sts"));
        assert!(mixes_scripts("\u{3bf}p"));
        for one_script in [
            "tests",
            "café-naïve",
            "缓存-层",
            "κρυφή-μνήμη",
            "кэш-2",
            "api-缓存层",
            "テスト-v2",
        ] {
            assert!(!mixes_scripts(one_script), "{one_script}");
        }
    }
}
